//! Subagents, commands, output styles and plugins: the surfaces an agent
//! loads beside instructions, skills and MCP servers, each with its
//! provenance, load phase and applicability like every other item.
//!
//! Sources per harness are in each adapter (Claude Code: `.claude/agents`,
//! `.claude/output-styles`, plugins; OpenCode: `.opencode/agent`,
//! `.opencode/command`, the `agent` and `command` keys; Codex:
//! `.codex/agents/*.toml`).

use crate::{Applicability, LoadPhase, SourceRef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Who may call a custom agent (OpenCode's `mode`; Claude Code and Codex
/// agents are always subagents).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AgentMode {
    /// Called by the main agent through its delegation tool.
    Subagent,
    /// A main agent the user switches to; never listed to the model.
    Primary,
    /// Both (OpenCode's default, `mode: all`).
    All,
}

impl AgentMode {
    /// True when the main agent can call it (listed in its delegation tool).
    pub fn callable(self) -> bool {
        matches!(self, AgentMode::Subagent | AgentMode::All)
    }
}

/// A subagent (custom agent): a named agent with its own description,
/// tools and model that the main agent can delegate to.
///
/// Shape: `{"id": "claude-code:subagent:.claude/agents/review.md", "name":
/// "review", "source": {...}, "loadPhase": "startup", "applicability":
/// "effective", "reason": "...", "mode": "subagent", "description": "...",
/// "tools": ["Read", "Grep"], "listedBy": "Agent"}`. `tools` absent means
/// every tool of the main agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subagent {
    /// Stable identifier, e.g. `claude-code:subagent:.claude/agents/review.md`.
    pub id: String,
    /// The name the agent calls it by (front matter `name`, the file's
    /// path, or the configuration key).
    pub name: String,
    /// The file (and lines of its front matter or entry).
    pub source: SourceRef,
    /// When the agent has it.
    pub load_phase: LoadPhase,
    /// Whether it is available under the given context.
    pub applicability: Applicability,
    /// Why it was discovered and why it has this applicability.
    pub reason: String,
    /// Who may call it.
    pub mode: AgentMode,
    /// The description the main agent is shown, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The tools it may use, as written; absent: the main agent's tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// The tools it may not use, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disallowed_tools: Vec<String>,
    /// The model it runs, as written (`inherit`, `sonnet`,
    /// `anthropic/claude-sonnet-4`); absent: the main agent's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The tool whose description lists it to the model (`Agent` for
    /// Claude Code, `task` for OpenCode, `spawn_agent` for Codex); absent
    /// when it is not listed (a primary agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_by: Option<String>,
    /// The plugin that brings it, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
}

/// A custom command the user runs as `/name`, where it is not a skill
/// already (Claude Code's commands are skills; OpenCode's are not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    /// Stable identifier, e.g. `opencode:command:.opencode/command/test.md`.
    pub id: String,
    /// The name without the slash (`test`, `git/commit`).
    pub name: String,
    /// The file (and lines of its front matter or entry).
    pub source: SourceRef,
    /// When the agent has it.
    pub load_phase: LoadPhase,
    /// Whether it is available under the given context.
    pub applicability: Applicability,
    /// Why it was discovered and why it has this applicability.
    pub reason: String,
    /// Its description, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The agent it runs with, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The model it runs, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// True when the model is shown it (its description in the request);
    /// false when only the user can run it.
    pub listed_to_model: bool,
}

/// An output style: text that replaces part of the system prompt while it
/// is the active style.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutputStyle {
    /// Stable identifier, e.g. `claude-code:output-style:.claude/output-styles/terse.md`.
    pub id: String,
    /// The name settings select it by (front matter `name`, else the file
    /// name without `.md`).
    pub name: String,
    /// The file (lines: its front matter).
    pub source: SourceRef,
    /// Always `startup`.
    pub load_phase: LoadPhase,
    /// `effective` for the active style (its body reaches the prompt);
    /// `conditional` for one the user may select; `shadowed` for one a
    /// closer style of the same name replaces.
    pub applicability: Applicability,
    /// Why it was discovered and why it has this applicability.
    pub reason: String,
    /// Its description (shown in the style picker, not to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// True when a settings file selects it (`outputStyle`).
    pub active: bool,
    /// The settings value that selects it, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected_by: Option<SourceRef>,
}

/// What a plugin brings, by kind.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ContributionKind {
    /// A skill (`skills/NAME/SKILL.md`).
    Skill,
    /// A command (`commands/**/*.md`).
    Command,
    /// A subagent (`agents/*.md`).
    Agent,
    /// Hooks (`hooks/hooks.json` or the manifest's `hooks`).
    Hooks,
    /// An MCP server (`.mcp.json` or the manifest's `mcpServers`).
    McpServer,
    /// An output style (`output-styles/*.md`).
    OutputStyle,
    /// A context file sent at startup (a Gemini CLI extension's
    /// `contextFileName`).
    ContextFile,
}

impl ContributionKind {
    /// The contract spelling, e.g. `"mcp-server"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContributionKind::Skill => "skill",
            ContributionKind::Command => "command",
            ContributionKind::Agent => "agent",
            ContributionKind::Hooks => "hooks",
            ContributionKind::McpServer => "mcp-server",
            ContributionKind::OutputStyle => "output-style",
            ContributionKind::ContextFile => "context-file",
        }
    }
}

/// One thing a plugin brings, named as the agent names it
/// (`plugin:skill`, `plugin:agent`, `plugin:P:S` for an MCP server).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PluginContribution {
    /// What it is.
    pub kind: ContributionKind,
    /// Its name as the agent names it.
    pub name: String,
    /// The file that defines it.
    pub source: SourceRef,
}

/// Whether a plugin loads, and what it takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum PluginLoad {
    /// The agent loads it from the repository alone.
    Loaded,
    /// The agent loads it only after a step the user takes (registering
    /// the marketplace, installing the plugin); the step, in one sentence.
    AfterUserStep {
        /// What the user must do, e.g. "claude plugin marketplace add ."
        step: String,
    },
    /// The plugin lives outside the repository (a remote marketplace
    /// source): what it brings is unknown.
    Remote,
}

/// A plugin the repository declares: where, whether it is enabled, whether
/// it loads, and what it brings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Plugin {
    /// Stable identifier, e.g. `claude-code:plugin:plugins/review`.
    pub id: String,
    /// Its name (the namespace of what it brings).
    pub name: String,
    /// The manifest, or the marketplace entry that names it.
    pub source: SourceRef,
    /// The marketplace that lists it, when one does (its `name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<String>,
    /// The settings value that enables it (`enabledPlugins`), when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled_by: Option<SourceRef>,
    /// Whether it loads.
    pub load: PluginLoad,
    /// What it brings, sorted by kind then name.
    pub contributions: Vec<PluginContribution>,
}

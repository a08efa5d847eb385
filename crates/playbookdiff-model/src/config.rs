//! EffectiveAgentConfig and the items it holds, with their provenance.

use crate::{AnalysisContext, Diagnostic, Harness, RepoPath};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Everything one harness receives from a repository under one
/// [`AnalysisContext`], with provenance on every item.
///
/// Shape: the output contract's JSON document. `instructions` are in context
/// order first (effective startup entries by `order`, then effective
/// on-demand entries, then every other entry); `diagnostics` say what the
/// analysis found wrong or cannot know; `assumptions` are the stated
/// premises under which the result holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EffectiveAgentConfig {
    /// Always [`crate::SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Which harness this is.
    pub harness: Harness,
    /// The context the configuration was compiled for.
    pub context: AnalysisContext,
    /// Instruction pieces, context order first.
    pub instructions: Vec<Instruction>,
    /// Skills discovered for this context.
    pub skills: Vec<Skill>,
    /// MCP servers configured for this context.
    pub mcp_servers: Vec<McpServer>,
    /// Hooks registered for this context, in registration order (file,
    /// then event, then position). Empty (and absent in JSON) when there
    /// are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<crate::Hook>,
    /// Permission rules and modes set by the repository, in file order.
    /// Empty (and absent in JSON) when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<crate::PermissionSetting>,
    /// Subagents (custom agents) the agent can delegate to, or the user
    /// can switch to; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subagents: Vec<crate::Subagent>,
    /// Custom commands that are not skills (OpenCode's); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<crate::Command>,
    /// Output styles, the active one `effective`; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_styles: Vec<crate::OutputStyle>,
    /// Plugins the repository declares, with what each brings; absent
    /// when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<crate::Plugin>,
    /// Findings about the analysed repository and the analysis' own limits.
    pub diagnostics: Vec<Diagnostic>,
    /// Premises the result depends on, one sentence each.
    pub assumptions: Vec<String>,
    /// The agent release whose behaviour was modelled; absent when the
    /// adapter has no version profiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_profile: Option<AgentProfile>,
}

/// Which release of the agent an adapter modelled (its version profile).
///
/// Agents change their discovery rules between releases; each adapter keeps
/// the facts that changed in one table keyed by version range and picks the
/// profile for the requested version. Shape: `{"version": "2.1.332"}` (a
/// profiled release, or one the adapter's bisected window covers), or
/// `{"version": "2.1.332", "requested": "2.1.340"}` when the requested
/// release has no profile of its own and the nearest older one was used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentProfile {
    /// The profiled agent version whose behaviour table was applied
    /// (the agent's own version string, e.g. `2.1.332` or `0.171.0`).
    pub version: String,
    /// The version the user asked for, present only when it differs from
    /// `version` (no exact profile: the nearest older profile was used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<String>,
}

impl EffectiveAgentConfig {
    /// An empty configuration for `harness` under `context`.
    pub fn new(harness: Harness, context: AnalysisContext) -> Self {
        EffectiveAgentConfig {
            schema_version: crate::SCHEMA_VERSION,
            harness,
            context,
            instructions: Vec::new(),
            skills: Vec::new(),
            mcp_servers: Vec::new(),
            hooks: Vec::new(),
            permissions: Vec::new(),
            subagents: Vec::new(),
            commands: Vec::new(),
            output_styles: Vec::new(),
            plugins: Vec::new(),
            diagnostics: Vec::new(),
            assumptions: Vec::new(),
            agent_profile: None,
        }
    }

    /// The diagnostic saying the agent refuses this configuration and does
    /// not start (a code whose [`DiagnosticCode::stops_the_agent`] is true),
    /// the first one, or `None` when it starts.
    ///
    /// [`DiagnosticCode::stops_the_agent`]: crate::DiagnosticCode::stops_the_agent
    pub fn refusal(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.code.stops_the_agent())
    }

    /// False when the agent would not start from the launch directory
    /// ([`EffectiveAgentConfig::refusal`] is some): it then receives none of
    /// the instructions, skills and MCP servers listed.
    pub fn starts(&self) -> bool {
        self.refusal().is_none()
    }

    /// The effective instruction entries sorted by `order`: the received
    /// context spelled out, startup first.
    pub fn received_instructions(&self) -> Vec<&Instruction> {
        let mut v: Vec<&Instruction> = self
            .instructions
            .iter()
            .filter(|i| i.order.is_some())
            .collect();
        v.sort_by_key(|i| i.order);
        v
    }

    /// The first instruction entry whose source is the repository path
    /// `path` (e.g. `"a/AGENTS.md"`), in entry order.
    pub fn instruction_at(&self, path: &str) -> Option<&Instruction> {
        self.instructions
            .iter()
            .find(|i| i.source.path.as_str() == path)
    }

    /// The first skill whose source is the repository path `path` (its
    /// `SKILL.md` or command file), in entry order.
    pub fn skill_at(&self, path: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| s.source.path.as_str() == path)
    }

    /// The first MCP server named `name`, in entry order.
    pub fn mcp_server(&self, name: &str) -> Option<&McpServer> {
        self.mcp_servers.iter().find(|s| s.name == name)
    }
}

/// Where a source sits among the configuration layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceScope {
    /// Shared, committed repository configuration.
    Project,
    /// Personal configuration kept in the working tree (e.g. `CLAUDE.local.md`).
    Local,
    /// The user's home configuration (read in local mode: its path starts
    /// with `~/` or a harness's variable, `$CODEX_HOME/`).
    User,
    /// Enterprise or server-managed policy (read in local mode: its path
    /// is the machine's, `/etc/...`).
    Managed,
    /// A plugin the user installed and enabled (read in local mode: its
    /// path is in the user's plugin directory, `~/.claude/plugins/...`,
    /// and the plugin is named in [`SourceRef::plugin`]).
    Plugin,
    /// A documented built-in default of the harness.
    Builtin,
}

impl SourceScope {
    /// The layer of a file the analysis names by `path` alone: `builtin`
    /// for a harness's own item (`builtin:NAME`), `managed`
    /// for a machine-wide path (`/etc/...`), `user` for another path on
    /// the machine (`~/...`, `$VAR/...`), `project` for a repository path.
    /// A repository path's `local` scope is the adapter's to say.
    pub fn of_path(path: &RepoPath) -> SourceScope {
        if path.is_builtin() {
            return SourceScope::Builtin;
        }
        match path.machine_parts() {
            None => SourceScope::Project,
            Some(("/", _)) => SourceScope::Managed,
            Some(_) => SourceScope::User,
        }
    }

    /// The contract spelling (`project`, `local`, `user`, `managed`,
    /// `plugin`, `builtin`), as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceScope::Project => "project",
            SourceScope::Local => "local",
            SourceScope::User => "user",
            SourceScope::Managed => "managed",
            SourceScope::Plugin => "plugin",
            SourceScope::Builtin => "builtin",
        }
    }
}

/// The syntax of a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceFormat {
    /// Markdown, possibly with YAML front matter.
    Markdown,
    /// JSON.
    Json,
    /// TOML.
    Toml,
    /// YAML.
    Yaml,
    /// Program code (an OpenCode plugin's JavaScript or TypeScript
    /// module), read as text and never run.
    Code,
    /// Plain text with no structure (Codex's system skills marker).
    Text,
}

/// An inclusive range of 1-based line numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Lines {
    /// First line, 1-based.
    pub start: u32,
    /// Last line, 1-based, inclusive.
    pub end: u32,
}

/// Provenance of one item: the file (and lines) it came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SourceRef {
    /// Repository-relative POSIX path of the file as the harness names it.
    pub path: RepoPath,
    /// The configuration layer of the file.
    pub scope: SourceScope,
    /// The syntax of the file.
    pub format: SourceFormat,
    /// Lines of the item in the file, `null` when unknown.
    pub lines: Option<Lines>,
    /// When `path` is (or passes through) a symbolic link: the repository
    /// file it resolves to. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_path: Option<RepoPath>,
    /// True when the file lies in a directory above the repository root,
    /// read only on request (`--outside-root`, local mode): `path` then
    /// starts with one `..` per level (`../CLAUDE.md`). Absent (false) for
    /// every repository file.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside_root: bool,
    /// For an item of scope `plugin`: the plugin that brings it, as the
    /// agent names it (`name@marketplace`, the key of Claude Code's
    /// `enabledPlugins` and `installed_plugins.json`). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
}

impl SourceRef {
    /// A project-scope reference without lines.
    pub fn project(path: RepoPath, format: SourceFormat) -> Self {
        SourceRef {
            path,
            scope: SourceScope::Project,
            format,
            lines: None,
            resolved_path: None,
            outside_root: false,
            plugin: None,
        }
    }

    /// A reference to a file above the repository root, named `path` (a
    /// [`RepoPath::above_root`] path), with `scope` and `format`.
    pub fn outside_root(path: RepoPath, scope: SourceScope, format: SourceFormat) -> Self {
        SourceRef {
            path,
            scope,
            format,
            lines: None,
            resolved_path: None,
            outside_root: true,
            plugin: None,
        }
    }

    /// The same reference in the layer of the plugin `plugin`
    /// (`name@marketplace`): scope `plugin`.
    pub fn in_plugin(mut self, plugin: &str) -> Self {
        self.scope = SourceScope::Plugin;
        self.plugin = Some(plugin.to_string());
        self
    }

    /// The same reference with `lines` set.
    pub fn with_lines(mut self, start: u32, end: u32) -> Self {
        self.lines = Some(Lines { start, end });
        self
    }
}

/// When the agent receives an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LoadPhase {
    /// Received when the session starts.
    Startup,
    /// Received after the agent touches a path.
    OnDemand,
}

/// Whether an item is received under the given context (output contract,
/// "Common fields").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Received under the given context.
    Effective,
    /// Received only under something the analysis cannot know (a path not
    /// given as target, an approval, a runtime state).
    Conditional,
    /// A setting removes it (e.g. `claudeMdExcludes`).
    Excluded,
    /// Another source wins the same slot.
    Shadowed,
    /// Exists, but outside what the mode may read.
    Unavailable,
    /// Exists, but this harness never loads it from this launch directory.
    OutOfScope,
}

/// How an item's slot was resolved, from the item's side. Serialized in
/// kebab case: `"override"`, `"shadowed"`, `"excluded"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ResolutionStrategy {
    /// The item wins its slot over the `sources` (Codex: the first of the
    /// file names present in a directory).
    Override,
    /// The item loses its slot to the `sources` (Codex: a later file name
    /// of the same directory; OpenCode: a later name of `AGENTS.md`,
    /// `CLAUDE.md`, `CONTEXT.md`).
    Shadowed,
    /// The item takes its slot but is dropped: a blank Codex file (the
    /// `sources` are the names it hides), or a Claude Code file removed by
    /// `claudeMdExcludes` (the `sources` are the settings layer).
    Excluded,
}

/// How an item's slot was resolved among competing sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Resolution {
    /// How the slot was resolved for this item.
    pub strategy: ResolutionStrategy,
    /// The other sources involved (the winner for a shadowed item, the
    /// losers for a winner).
    pub sources: Vec<RepoPath>,
}

/// What kind of file an instruction piece comes from. Serialized in
/// kebab case (`"memory"`, `"local-memory"`, `"rule"`, `"import"`,
/// `"agents-md"`, `"context-md"`, `"instructions"`); the spelling is part of instruction ids
/// (`claude-code:memory:CLAUDE.md`), hence of finding ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum InstructionKind {
    /// A project memory file: `CLAUDE.md` or `.claude/CLAUDE.md` (Claude
    /// Code memory docs); OpenCode's `CLAUDE.md` fallback.
    Memory,
    /// A personal memory file, `CLAUDE.local.md` (Claude Code memory docs).
    LocalMemory,
    /// A rule file under `.claude/rules/` (Claude Code memory docs).
    Rule,
    /// Content brought in by an `@path` import (Claude Code memory docs).
    Import,
    /// An `AGENTS.md` (or override/fallback name) of the Codex chain, or
    /// OpenCode's `AGENTS.md`.
    AgentsMd,
    /// OpenCode's `CONTEXT.md`, the last name it looks for.
    ContextMd,
    /// A file named by OpenCode's `instructions` setting (a path or glob).
    Instructions,
    /// A Gemini CLI context file: `GEMINI.md`, or a name listed in
    /// `context.fileName` of the launch directory's `.gemini/settings.json`.
    ContextFile,
}

impl InstructionKind {
    /// The contract spelling, e.g. `"local-memory"`.
    pub fn as_str(self) -> &'static str {
        match self {
            InstructionKind::Memory => "memory",
            InstructionKind::LocalMemory => "local-memory",
            InstructionKind::Rule => "rule",
            InstructionKind::Import => "import",
            InstructionKind::AgentsMd => "agents-md",
            InstructionKind::ContextMd => "context-md",
            InstructionKind::Instructions => "instructions",
            InstructionKind::ContextFile => "context-file",
        }
    }
}

impl fmt::Display for InstructionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One contiguous piece of instruction content as the agent receives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Instruction {
    /// Stable identifier, e.g. `claude-code:memory:apps/api/CLAUDE.md#1`.
    pub id: String,
    /// What kind of file the piece comes from.
    pub kind: InstructionKind,
    /// The file the piece came from.
    pub source: SourceRef,
    /// When the agent receives it.
    pub load_phase: LoadPhase,
    /// Whether it is received under the given context.
    pub applicability: Applicability,
    /// Why it was discovered and why it has this applicability.
    pub reason: String,
    /// 0-based position in the received context for effective entries,
    /// `null` otherwise.
    pub order: Option<u32>,
    /// Repository-relative directory the piece applies to: the directory
    /// that contains the file (for a rule, the directory that holds its
    /// `.claude/rules` root; for an import, the importing entry's).
    pub applies_to: RepoPath,
    /// Id of the importing entry, for imported content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<String>,
    /// Size in bytes of this piece.
    pub bytes: u64,
    /// Set when a byte budget cuts this piece: the agent receives only its
    /// first `truncatedAtByte` bytes, and `content` holds exactly those (a
    /// UTF-8 character split by the cut appears as U+FFFD, as the agent
    /// sends it). Absent when the piece is received whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_at_byte: Option<u64>,
    /// Path globs that make a path-scoped rule relevant, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
    /// How competing sources for the same slot were resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<Resolution>,
    /// Byte ranges of `content` that are references to files the harness
    /// resolves into entries of their own (Claude Code's `@path` imports:
    /// the imported file follows as its own entry, `importedFrom` naming
    /// this one). The text stays in `content` as the agent receives it;
    /// comparison leaves these ranges out, so a `CLAUDE.md` that is only
    /// `@AGENTS.md` compares as the `AGENTS.md` it brings in. Empty (and
    /// absent in JSON) when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub import_spans: Vec<ByteSpan>,
    /// The text of this piece as the agent receives it (front matter and
    /// HTML comments it removes taken out; for Claude Code, white space
    /// at both ends trimmed, as its loader does). Empty with a non-zero
    /// `bytes` when the analysis did not read the text (a file over the
    /// read limit that the agent still receives: its `file-too-large`
    /// diagnostic says so); such a piece is compared by file only.
    pub content: String,
}

/// A range of bytes in a text: `start` inclusive, `end` exclusive, both
/// byte offsets (not characters) from the start of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct ByteSpan {
    /// First byte, 0-based.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
}

/// Whether a skill can be invoked (output contract, "Skill").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Permission {
    /// Permitted.
    Allowed,
    /// Prevented by configuration.
    Blocked,
    /// Depends on something the analysis cannot know.
    Unknown,
}

/// Explicit (user) and implicit (model) invocation of a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Invocation {
    /// The user invokes it by name.
    pub explicit: Permission,
    /// The model invokes it on its own.
    pub implicit: Permission,
}

/// Whether the model is shown a skill's name and description at startup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AdvertisementState {
    /// Name and description are listed.
    Advertised,
    /// Not listed to the model.
    Hidden,
    /// Listed, but the listing may exceed the documented budget, so its
    /// description may be shortened or dropped.
    BudgetRisk,
    /// Listed with its description cut by the listing budget to
    /// `shownDescriptionChars` characters (0: the name and path only).
    Shortened,
    /// Left out of the listing by the listing budget: the model is not told
    /// about it, though the user can still invoke it by name.
    Omitted,
    /// Cannot be decided.
    Unknown,
}

/// The documented listing budget a skill is advertised under.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AggregateBudget {
    /// Fraction of the model context window for the whole listing; 0 for
    /// a budget that does not depend on the window (Claude Code 2.1.19's
    /// 15,000 UTF-16 code units).
    pub max_context_fraction: f64,
    /// Characters assumed when the context window is unknown (or the
    /// fixed budget, for a fraction of 0).
    pub fallback_chars: u64,
    /// The whole listing's budget this analysis computed from the context
    /// window in force, in the harness's own count (Claude Code: UTF-16
    /// code units from 2.1.19 to 2.1.87, terminal columns from 2.1.88
    /// on); absent when the adapter does not compute the listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computed_chars: Option<u64>,
}

/// Advertisement of a skill to the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Advertisement {
    /// The state.
    pub state: AdvertisementState,
    /// Characters of the advertised description (and `when_to_use`).
    pub description_chars: u64,
    /// Per-skill description cap in characters, when documented.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description_limit_chars: Option<u64>,
    /// The aggregate listing budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregate_budget: Option<AggregateBudget>,
    /// True when a setting lists only the name (Claude Code
    /// `skillOverrides: name-only`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub name_only: bool,
    /// For a `shortened` skill: how many characters of the description the
    /// listing keeps (0 when only the name and path are listed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_description_chars: Option<u64>,
    /// For a `shortened` skill whose harness fixes the text: the
    /// description as the listing shows it, verbatim (its kept part and
    /// `…`; empty when only the name is listed). Claude Code from 2.1.19
    /// on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_description: Option<String>,
    /// For a `shortened` or `omitted` skill: whether the repository's own
    /// skills already cause it (`certain`) or only together with skills
    /// outside the repository the analysis assumes (`with-bundled`: the
    /// agent release's bundled skills of a fresh installation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_cause: Option<BudgetCause>,
}

impl Advertisement {
    /// An advertisement in `state` of a description of `description_chars`
    /// characters, with no per-skill cap, no aggregate budget, not name
    /// only, and nothing shortened; set the other fields with struct update
    /// syntax where a harness has them.
    pub fn new(state: AdvertisementState, description_chars: u64) -> Advertisement {
        Advertisement {
            state,
            description_chars,
            description_limit_chars: None,
            aggregate_budget: None,
            name_only: false,
            shown_description_chars: None,
            shown_description: None,
            budget_cause: None,
        }
    }
}

/// Why the listing budget shortens or omits a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BudgetCause {
    /// The repository's skills alone exceed the budget: certain whatever
    /// else is installed.
    Certain,
    /// Only the repository's skills together with the skills a fresh
    /// installation bundles exceed it; more user or admin skills can only
    /// shorten more.
    WithBundled,
}

/// A skill: a named capability whose instructions load on use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Skill {
    /// Stable identifier, e.g. `claude-code:skill:.claude/skills/deploy/SKILL.md`.
    pub id: String,
    /// The declared name (front matter `name`, else the directory name).
    pub name: String,
    /// The skill directory's name.
    pub directory_name: String,
    /// The `SKILL.md` file (lines: its front matter).
    pub source: SourceRef,
    /// When the skill becomes available.
    pub load_phase: LoadPhase,
    /// Whether it is available under the given context.
    pub applicability: Applicability,
    /// Why it was discovered and why it has this applicability.
    pub reason: String,
    /// The description the model is shown, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Who may invoke it.
    pub invocation: Invocation,
    /// Whether the model is shown it.
    pub advertisement: Advertisement,
    /// Path globs from front matter `paths`, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
    /// Other files that decided this skill's state (e.g. `agents/openai.yaml`,
    /// a settings file with `skillOverrides`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metadata_sources: Vec<SourceRef>,
    /// Ids of other skills to read together with this one.
    pub cross_references: Vec<String>,
}

/// How an MCP server is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    /// A local process over standard input and output.
    Stdio,
    /// HTTP or streamable HTTP.
    Http,
    /// SSE, WebSocket, anything else, or undecidable.
    Unknown,
}

/// The value of a configured environment variable or header.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ConfiguredValue {
    /// A placeholder such as `${VAR}` or `${VAR:-default}`, kept verbatim.
    Reference {
        /// The expression as written.
        expression: String,
    },
    /// The value of a variable of the developer's environment, named.
    Host {
        /// The variable's name.
        variable: String,
    },
    /// A literal value; it is never written out.
    Configured {
        /// Always `true`.
        redacted: bool,
        /// A fingerprint of the literal ([`crate::redact::fingerprint`]),
        /// so that `diff` can tell that it changed without ever holding or
        /// printing it; 0 when unknown. Not serialized, and no part of the
        /// value's equality.
        #[serde(skip)]
        #[schemars(skip)]
        fingerprint: u64,
    },
}

impl PartialEq for ConfiguredValue {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                ConfiguredValue::Reference { expression: a },
                ConfiguredValue::Reference { expression: b },
            ) => a == b,
            (ConfiguredValue::Host { variable: a }, ConfiguredValue::Host { variable: b }) => {
                a == b
            }
            (
                ConfiguredValue::Configured { redacted: a, .. },
                ConfiguredValue::Configured { redacted: b, .. },
            ) => a == b,
            _ => false,
        }
    }
}

impl Eq for ConfiguredValue {}

impl ConfiguredValue {
    /// A redacted literal whose value is not known (fingerprint 0).
    pub fn redacted() -> Self {
        ConfiguredValue::Configured {
            redacted: true,
            fingerprint: 0,
        }
    }

    /// The redacted literal `raw`: only its fingerprint is kept.
    pub fn redacted_literal(raw: &str) -> Self {
        ConfiguredValue::Configured {
            redacted: true,
            fingerprint: crate::redact::fingerprint(raw),
        }
    }

    /// The fingerprint of a redacted literal (0 when unknown); `None` for
    /// a value that is shown (a reference, a host variable).
    pub fn fingerprint(&self) -> Option<u64> {
        match self {
            ConfiguredValue::Configured { fingerprint, .. } => Some(*fingerprint),
            _ => None,
        }
    }
}

/// A named environment variable or header of an MCP server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NamedValue {
    /// The variable or header name.
    pub name: String,
    /// Its value, symbolic or redacted.
    pub value: ConfiguredValue,
}

/// What an MCP server exposes; unknown without connecting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Capabilities {
    /// Always `false` in repo mode: servers are never contacted.
    pub known: bool,
}

/// A configured MCP server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct McpServer {
    /// Stable identifier, e.g. `claude-code:mcp:github`.
    pub id: String,
    /// The server's key.
    pub name: String,
    /// The file (and lines of the entry).
    pub source: SourceRef,
    /// Every other file that defines the same server, when more than one does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_sources: Vec<SourceRef>,
    /// Always `startup` for configured servers.
    pub load_phase: LoadPhase,
    /// Whether the server is configured under the given context.
    pub applicability: Applicability,
    /// Why it was discovered and why it has this applicability.
    pub reason: String,
    /// How it is reached.
    pub transport: Transport,
    /// The transport as written (`"sse"`, `"ws"`, `"streamable-http"`…), when written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_type: Option<String>,
    /// The command, verbatim; placeholders never expanded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The arguments, verbatim except values that look like secrets, which
    /// read `<redacted>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// The URL with credentials and literal query values replaced by
    /// `<redacted>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Environment variables passed to the server.
    pub env: Vec<NamedValue>,
    /// HTTP headers sent to the server.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<NamedValue>,
    /// Tools allowed (Codex `enabled_tools`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled_tools: Option<Vec<String>>,
    /// Tools denied (Codex `disabled_tools`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_tools: Option<Vec<String>>,
    /// Fields present in the entry that the adapter does not model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_fields: Vec<String>,
    /// Always `false` in repo mode.
    pub runtime_verified: bool,
    /// What the server exposes.
    pub capabilities: Capabilities,
    /// Fingerprints ([`crate::redact::fingerprint`]) of the values of
    /// `command`, `args` and `url` as written, for those shown redacted,
    /// by field: `diff` tells a changed secret from an unchanged one
    /// without holding or printing it. Not serialized.
    #[serde(skip)]
    #[schemars(skip)]
    pub fingerprints: std::collections::BTreeMap<String, u64>,
}

impl McpServer {
    /// A server known only by its id, name, source and applicability: no
    /// transport, command, arguments, URL, variables or tools yet; never
    /// runtime-verified and with unknown capabilities, as repo mode requires.
    pub fn new(id: String, name: &str, source: SourceRef, applicability: Applicability) -> Self {
        McpServer {
            id,
            name: name.to_string(),
            source,
            other_sources: Vec::new(),
            load_phase: LoadPhase::Startup,
            applicability,
            reason: String::new(),
            transport: Transport::Unknown,
            declared_type: None,
            command: None,
            args: None,
            url: None,
            env: Vec::new(),
            headers: Vec::new(),
            enabled_tools: None,
            disabled_tools: None,
            unknown_fields: Vec::new(),
            runtime_verified: false,
            capabilities: Capabilities { known: false },
            fingerprints: std::collections::BTreeMap::new(),
        }
    }

    /// Sets `command` from the command line `raw` as written, with
    /// secret-looking words redacted ([`crate::redact::redact_command`]),
    /// keeping the fingerprint of what was written when something was
    /// redacted. Returns whether something that looks like a secret was
    /// found (the adapter then says so in its harness's words).
    pub fn set_command(&mut self, raw: &str) -> bool {
        let (shown, secret) = crate::redact::redact_command(raw);
        self.note_redacted("command", raw, &shown);
        self.command = Some(shown);
        secret
    }

    /// Sets `args` from the arguments `raw` as written, redacted as by
    /// [`crate::redact::redact_args`] (fingerprinted as by
    /// [`McpServer::set_command`]). Returns whether something that looks
    /// like a secret was found.
    pub fn set_args(&mut self, raw: &[String]) -> bool {
        let (shown, secret) = crate::redact::redact_args(raw);
        self.note_redacted("args", &raw.join("\u{0}"), &shown.join("\u{0}"));
        self.args = Some(shown);
        secret
    }

    /// Sets `url` from `raw` as written, redacted as by
    /// [`crate::redact::redact_url`] (fingerprinted as by
    /// [`McpServer::set_command`]). Returns whether something that looks
    /// like a secret was found.
    pub fn set_url(&mut self, raw: &str) -> bool {
        let (shown, secret) = crate::redact::redact_url(raw);
        self.note_redacted("url", raw, &shown);
        self.url = Some(shown);
        secret
    }

    /// Records that `field` (`command`, `args`, `url`) was written `raw`
    /// and is shown as `shown`: when they differ (something was
    /// redacted), its fingerprint is kept in [`McpServer::fingerprints`].
    fn note_redacted(&mut self, field: &str, raw: &str, shown: &str) {
        if raw != shown {
            self.fingerprints
                .insert(field.to_string(), crate::redact::fingerprint(raw));
        }
    }

    /// Every fingerprint of a redacted value, by field: those of
    /// [`McpServer::fingerprints`], and `env.NAME` and `headers.NAME` for
    /// each redacted literal of `env` and `headers`.
    pub fn secret_fingerprints(&self) -> std::collections::BTreeMap<String, u64> {
        let mut out = self.fingerprints.clone();
        for (what, list) in [("env", &self.env), ("headers", &self.headers)] {
            for v in list {
                if let Some(f) = v.value.fingerprint() {
                    out.insert(format!("{what}.{}", v.name), f);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract spelling of each instruction kind (it is part of
    /// instruction and finding ids) is its JSON spelling, and reads back.
    #[test]
    fn instruction_kind_spelling_is_its_json_spelling() {
        use InstructionKind::*;
        let all = [
            Memory,
            LocalMemory,
            Rule,
            Import,
            AgentsMd,
            ContextMd,
            Instructions,
        ];
        for kind in all {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::Value::from(kind.as_str()), "{kind:?}");
            assert_eq!(kind.to_string(), kind.as_str());
            assert_eq!(
                serde_json::from_value::<InstructionKind>(json).unwrap(),
                kind
            );
        }
        let spellings: std::collections::HashSet<_> = all.iter().map(|k| k.as_str()).collect();
        assert_eq!(spellings.len(), all.len(), "two kinds share a spelling");
    }

    /// Each resolution strategy is written in kebab case, and reads back.
    #[test]
    fn resolution_strategy_json_spelling_is_kebab_case() {
        use ResolutionStrategy::*;
        for (strategy, spelling) in [
            (Override, "override"),
            (Shadowed, "shadowed"),
            (Excluded, "excluded"),
        ] {
            let json = serde_json::to_value(strategy).unwrap();
            assert_eq!(json, serde_json::Value::from(spelling));
            assert_eq!(
                serde_json::from_value::<ResolutionStrategy>(json).unwrap(),
                strategy
            );
        }
    }

    fn server() -> McpServer {
        let path = crate::RepoPath::new(".mcp.json").unwrap();
        let source = SourceRef::project(path, SourceFormat::Json);
        McpServer::new("s".into(), "s", source, Applicability::Effective)
    }

    /// A secret-looking value is shown redacted, said to be a secret and
    /// fingerprinted by field; a plain one is kept as written, with no
    /// fingerprint.
    #[test]
    fn setters_redact_and_fingerprint_only_what_they_redact() {
        let mut s = server();
        assert!(!s.set_command("npx"));
        assert!(s.set_args(&[
            "--token".into(),
            "ghp_0123456789abcdefABCDEF0123456789abcd".into()
        ]));
        assert!(s.set_url("https://user:pw@example.com/mcp"));
        assert_eq!(s.command.as_deref(), Some("npx"));
        assert_eq!(s.args.as_ref().unwrap()[1], crate::redact::REDACTED);
        assert!(!s.url.as_deref().unwrap().contains("pw"));
        let fields: Vec<&str> = s.fingerprints.keys().map(String::as_str).collect();
        assert_eq!(fields, ["args", "url"]);
    }
}

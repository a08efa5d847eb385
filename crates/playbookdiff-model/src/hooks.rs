//! Hooks and permissions: code an agent runs on its own events, and the
//! settings that change what it may do.
//!
//! A [`Hook`] is one handler registered for one event (Claude Code
//! `hooks` in a settings file, Codex `hooks.json` or `[hooks]` in
//! `config.toml`, an OpenCode plugin module), with the file and lines that
//! register it, the script it runs resolved inside the repository (never
//! executed) and whether it runs at all ([`Verdict`]). A
//! [`PermissionSetting`] is one rule or mode (Claude Code
//! `permissions.deny`, Codex `sandbox_mode`, OpenCode `permission`), with
//! what the agent was seen to honour.

use crate::{Applicability, LoadPhase, RepoPath, SourceRef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Whether something the repository asks for takes effect: a hook runs, a
/// permission rule is honoured. Serialized as `{"state": "yes"}`,
/// `{"state": "no", "reason": "..."}` or `{"state": "unknown", "reason":
/// "..."}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Verdict {
    /// It takes effect under the analysed context.
    Yes,
    /// A setting or a rule of the agent keeps it from taking effect.
    No {
        /// Why, naming the setting and its file.
        reason: String,
        /// The file (and lines) of the setting that turns it off, when
        /// one does.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<SourceRef>,
    },
    /// It depends on state the analysis cannot see (a trust decision, a
    /// flag on the command line).
    Unknown {
        /// What it depends on.
        reason: String,
    },
}

impl Verdict {
    /// True unless a setting or rule keeps it from taking effect: `yes` and
    /// `unknown` may take effect.
    pub fn may_apply(&self) -> bool {
        !matches!(self, Verdict::No { .. })
    }

    /// The contract spelling of the state: `yes`, `no`, `unknown`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Yes => "yes",
            Verdict::No { .. } => "no",
            Verdict::Unknown { .. } => "unknown",
        }
    }
}

/// An agent event with the same meaning in more than one harness, the
/// key under which hooks of different harnesses are compared. Serialized
/// as Claude Code and Codex spell the event (`PreToolUse`); an OpenCode
/// plugin's `tool.execute.before` is [`HookTrigger::PreToolUse`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum HookTrigger {
    /// Before a tool call runs; a hook here can block the call.
    PreToolUse,
    /// After a tool call succeeded.
    PostToolUse,
    /// When the agent asks for permission for a tool call.
    PermissionRequest,
    /// When the user submits a prompt, before the model sees it.
    UserPromptSubmit,
    /// When a session starts or resumes.
    SessionStart,
    /// When a session ends.
    SessionEnd,
    /// When the agent finishes its answer.
    Stop,
    /// When a subagent starts.
    SubagentStart,
    /// When a subagent finishes.
    SubagentStop,
    /// Before the conversation is compacted.
    PreCompact,
    /// After the conversation is compacted.
    PostCompact,
    /// When the agent sends a notification.
    Notification,
}

impl HookTrigger {
    /// Every trigger, in declaration order.
    pub const ALL: [HookTrigger; 12] = [
        HookTrigger::PreToolUse,
        HookTrigger::PostToolUse,
        HookTrigger::PermissionRequest,
        HookTrigger::UserPromptSubmit,
        HookTrigger::SessionStart,
        HookTrigger::SessionEnd,
        HookTrigger::Stop,
        HookTrigger::SubagentStart,
        HookTrigger::SubagentStop,
        HookTrigger::PreCompact,
        HookTrigger::PostCompact,
        HookTrigger::Notification,
    ];

    /// The contract spelling, e.g. `PreToolUse`.
    pub fn as_str(self) -> &'static str {
        match self {
            HookTrigger::PreToolUse => "PreToolUse",
            HookTrigger::PostToolUse => "PostToolUse",
            HookTrigger::PermissionRequest => "PermissionRequest",
            HookTrigger::UserPromptSubmit => "UserPromptSubmit",
            HookTrigger::SessionStart => "SessionStart",
            HookTrigger::SessionEnd => "SessionEnd",
            HookTrigger::Stop => "Stop",
            HookTrigger::SubagentStart => "SubagentStart",
            HookTrigger::SubagentStop => "SubagentStop",
            HookTrigger::PreCompact => "PreCompact",
            HookTrigger::PostCompact => "PostCompact",
            HookTrigger::Notification => "Notification",
        }
    }

    /// The trigger spelled `name` (Claude Code's and Codex's event names),
    /// `None` for an event that has no counterpart in another harness.
    pub fn from_event(name: &str) -> Option<HookTrigger> {
        HookTrigger::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl fmt::Display for HookTrigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a hook does when its event fires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HookHandler {
    /// The handler's `type` as written (`command`, `prompt`, `agent`,
    /// `http`), or `module` for an OpenCode plugin function.
    #[serde(rename = "type")]
    pub kind: String,
    /// The command line as written, words that look like secrets
    /// redacted ([`crate::redact::redact_command`]); variables never
    /// expanded. Absent for a handler without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The handler's `timeout`, in seconds, when written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u64>,
}

/// The repository file a hook runs, as resolved from its command line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HookScript {
    /// The word of the command line that names the script, as written
    /// (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`).
    pub written: String,
    /// The repository path it names once the project and plugin
    /// directory variables are replaced by their directories.
    pub path: RepoPath,
    /// True when that path is a file of the repository.
    pub present: bool,
}

/// One hook: a handler registered for one event of one harness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hook {
    /// Stable identifier: harness, `hook`, the registering file, the event
    /// and the handler's position, e.g.
    /// `claude-code:hook:.claude/settings.json:PreToolUse:0:0`.
    pub id: String,
    /// The event as the harness spells it (`PreToolUse`,
    /// `tool.execute.before`).
    pub event: String,
    /// The event's cross-harness meaning, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<HookTrigger>,
    /// The matcher as written (a tool name, `Write|Edit`, a regular
    /// expression); absent when the hook fires for every occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// What it runs.
    pub handler: HookHandler,
    /// The file that registers it, with the handler's lines.
    pub source: SourceRef,
    /// The repository file its command runs, when the command names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<HookScript>,
    /// Whether it runs at all under the analysed context.
    pub runs: Verdict,
    /// Always `startup`: hooks are registered when the session starts.
    pub load_phase: LoadPhase,
    /// `effective` for a hook of a file the harness reads from the launch
    /// directory, else why not.
    pub applicability: Applicability,
    /// Why it was discovered and why it runs or not.
    pub reason: String,
}

impl Hook {
    /// True when the hook may run: it applies and nothing turns it off.
    pub fn may_run(&self) -> bool {
        self.applicability == Applicability::Effective && self.runs.may_apply()
    }
}

/// What a permission setting does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PermissionEffect {
    /// Lets matching actions run without asking.
    Allow,
    /// Refuses matching actions.
    Deny,
    /// Asks before matching actions.
    Ask,
    /// Sets a mode for every action (Claude Code `defaultMode`, Codex
    /// `sandbox_mode` and `approval_policy`).
    Mode,
}

/// One permission rule or mode from a configuration file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionSetting {
    /// Stable identifier: harness, `permission`, the file, the key and
    /// the value, e.g. `claude-code:permission:.claude/settings.json:permissions.deny:Bash(curl:*)`.
    pub id: String,
    /// The settings key as written, dotted (`permissions.deny`,
    /// `sandbox_mode`, `permission.bash`).
    pub key: String,
    /// The rule or mode as written (`Bash(curl:*)`, `workspace-write`,
    /// `deny`).
    pub value: String,
    /// What it does.
    pub effect: PermissionEffect,
    /// The file and lines that set it.
    pub source: SourceRef,
    /// Whether the agent honours it under the analysed context, as seen
    /// with the profiled release.
    pub honoured: Verdict,
    /// What it refuses, in terms the harnesses share, set by the adapter
    /// for a deny rule it can translate (Claude Code `Bash(curl:*)`,
    /// OpenCode `permission.bash."curl *" = "deny"`) and for a mode that
    /// refuses a whole kind of action (Codex `sandbox_mode = "read-only"`
    /// refuses edits). Absent for allow and ask rules and for rules with
    /// no shared meaning (another tool, an MCP tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub denies: Option<PermissionScope>,
}

/// A kind of action permission rules of several harnesses can refuse.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// Running a shell command (Claude Code `Bash`, OpenCode `bash`).
    Shell,
    /// Reading a file (Claude Code `Read`, OpenCode `read`).
    Read,
    /// Writing or editing a file (Claude Code `Edit`, `Write`,
    /// `MultiEdit`, `NotebookEdit`; OpenCode `edit`; Codex's sandbox).
    Edit,
    /// Fetching a URL (Claude Code `WebFetch`, OpenCode `webfetch`).
    WebFetch,
}

impl ActionKind {
    /// The contract spelling, e.g. `web-fetch`.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Shell => "shell",
            ActionKind::Read => "read",
            ActionKind::Edit => "edit",
            ActionKind::WebFetch => "web-fetch",
        }
    }
}

/// What a deny covers: a kind of action and, within it, a pattern.
///
/// Shape: `{"action": "shell", "pattern": "curl"}`. The pattern is a
/// command prefix of whole words for `shell` (`git push`), a path as
/// written without a leading `./` or `/` for `read` and `edit`
/// (`.env`, `secrets/**`), a domain for `web-fetch`; absent: every action
/// of the kind. Matching across harnesses is approximate: patterns are
/// compared as written (a command prefix also covers longer commands),
/// never expanded as globs.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub struct PermissionScope {
    /// The kind of action.
    pub action: ActionKind,
    /// The pattern within it; absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

impl PermissionScope {
    /// True when a deny of `self` also refuses everything `other` covers:
    /// the same kind, and no pattern, the same pattern, or (shell) a
    /// command prefix of `other`'s (`git` covers `git push`).
    pub fn covers(&self, other: &PermissionScope) -> bool {
        if self.action != other.action {
            return false;
        }
        match (&self.pattern, &other.pattern) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) if self.action == ActionKind::Shell => {
                b == a || b.starts_with(&format!("{a} "))
            }
            (Some(a), Some(b)) => a == b,
        }
    }

    /// Words for a sentence: "shell commands starting `curl`", "every file
    /// edit", "reads of `.env`".
    pub fn phrase(&self) -> String {
        match (self.action, &self.pattern) {
            (ActionKind::Shell, None) => "every shell command".into(),
            (ActionKind::Shell, Some(p)) => format!("shell commands starting `{p}`"),
            (ActionKind::Read, None) => "every file read".into(),
            (ActionKind::Read, Some(p)) => format!("reads of `{p}`"),
            (ActionKind::Edit, None) => "every file edit".into(),
            (ActionKind::Edit, Some(p)) => format!("edits of `{p}`"),
            (ActionKind::WebFetch, None) => "every web fetch".into(),
            (ActionKind::WebFetch, Some(p)) => format!("web fetches from `{p}`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(action: ActionKind, pattern: Option<&str>) -> PermissionScope {
        PermissionScope {
            action,
            pattern: pattern.map(str::to_string),
        }
    }

    /// A whole kind covers its patterns; a shell prefix covers longer
    /// commands at a word boundary only; paths match as written; kinds
    /// never cover each other.
    #[test]
    fn coverage() {
        let git = scope(ActionKind::Shell, Some("git"));
        assert!(git.covers(&scope(ActionKind::Shell, Some("git push"))));
        assert!(!git.covers(&scope(ActionKind::Shell, Some("gitk"))));
        assert!(!git.covers(&scope(ActionKind::Shell, None)));
        assert!(scope(ActionKind::Edit, None).covers(&scope(ActionKind::Edit, Some(".env"))));
        assert!(!scope(ActionKind::Edit, None).covers(&scope(ActionKind::Read, None)));
        let env = scope(ActionKind::Read, Some(".env"));
        assert!(env.covers(&env.clone()));
        assert!(!env.covers(&scope(ActionKind::Read, Some(".env.local"))));
    }
}

//! Hooks: the workspace's `.cursor/hooks.json`.
//!
//! Cursor's hooks page (<https://cursor.com/docs/agent/hooks>, Cursor 1.7
//! and later): `{"version": 1, "hooks": {"<event>": [{"command": "...",
//! "matcher": "...", "timeout": 30}]}}`, each entry a command run when the
//! event fires (or `"type": "prompt"`), from the project root; exit code 2
//! blocks on a `before…` or `pre…` event. The events are those of
//! [`EVENTS`]. A project's hooks run from the workspace (the analysis
//! assumes so; the documentation places project hook commands relative to
//! the project root).
//!
//! The toolkit reads Claude Code's shape (matcher groups holding
//! handlers); each Cursor entry is read as a group of its own, so that
//! scripts, unknown events and blocks are checked the same way.

use crate::json::JsonFile;
use crate::{Cx, HARNESS};
use playbookdiff_adapter::hooks::{read, Events, Layout, Registration, Tokens};
use playbookdiff_model::{Applicability, Hook, HookTrigger, RepoPath, Verdict};
use playbookdiff_source::Machine;
use serde_json::{Map, Value};

/// The hooks file of a workspace.
pub(crate) const HOOKS_JSON: &str = ".cursor/hooks.json";

/// Cursor's hook events (<https://cursor.com/docs/agent/hooks>).
pub(crate) static EVENTS: Events = Events {
    known: &[
        "sessionStart",
        "sessionEnd",
        "preToolUse",
        "postToolUse",
        "postToolUseFailure",
        "subagentStart",
        "subagentStop",
        "beforeShellExecution",
        "afterShellExecution",
        "beforeMCPExecution",
        "afterMCPExecution",
        "beforeReadFile",
        "afterFileEdit",
        "beforeSubmitPrompt",
        "preCompact",
        "stop",
        "afterAgentResponse",
        "afterAgentThought",
        "beforeTabFileRead",
        "afterTabFileEdit",
    ],
    tool_events: &["preToolUse", "postToolUse", "postToolUseFailure"],
    matcherless: &[],
    cannot_block: &[
        "afterShellExecution",
        "afterMCPExecution",
        "afterFileEdit",
        "afterAgentResponse",
        "afterAgentThought",
        "afterTabFileEdit",
    ],
    tools: &[],
    triggers: TRIGGERS,
};

/// Cursor's events with the same meaning elsewhere
/// (`beforeShellExecution` is narrower than `PreToolUse`, so it has none);
/// an event of [`EVENTS`] absent here has no counterpart.
const TRIGGERS: &[(&str, Option<HookTrigger>)] = &[
    ("sessionStart", Some(HookTrigger::SessionStart)),
    ("sessionEnd", Some(HookTrigger::SessionEnd)),
    ("preToolUse", Some(HookTrigger::PreToolUse)),
    ("postToolUse", Some(HookTrigger::PostToolUse)),
    ("subagentStart", Some(HookTrigger::SubagentStart)),
    ("subagentStop", Some(HookTrigger::SubagentStop)),
    ("beforeSubmitPrompt", Some(HookTrigger::UserPromptSubmit)),
    ("preCompact", Some(HookTrigger::PreCompact)),
    ("stop", Some(HookTrigger::Stop)),
];

/// The cross-harness meaning of a Cursor event, when it has one (read from
/// [`TRIGGERS`]).
#[cfg(test)]
pub(crate) fn trigger(event: &str) -> Option<HookTrigger> {
    EVENTS.trigger(event)
}

/// What Cursor does without a hooks file it cannot use.
const EFFECT: &str = "Cursor registers none of its hooks";

/// The hooks of the workspace's `.cursor/hooks.json`, in file order; in
/// local mode (`machine` given) the user's `~/.cursor/hooks.json` first
/// (<https://cursor.com/docs/agent/hooks>: user hooks run from `~/.cursor`
/// beside the project's, every matching hook of every source running;
/// documented, not observed).
pub(crate) fn compile(cx: &mut Cx<'_, '_>, machine: Option<&Machine>) -> Vec<Hook> {
    let mut out = Vec::new();
    if let Some(m) = machine {
        let user = RepoPath::on_machine("~", HOOKS_JSON)
            .and_then(|path| crate::json::load_user(cx, m, &path, EFFECT));
        if let Some(file) = user {
            let reason = format!("Registered in {}, the user's hooks, which Cursor runs in every workspace beside the project's (documented, not observed).", file.path);
            out.extend(of_file(cx, &file, &reason));
        }
    }
    let project = cx
        .context
        .cwd
        .join(HOOKS_JSON)
        .and_then(|path| crate::json::load(cx, &path, EFFECT));
    if let Some(file) = project {
        let reason = format!(
            "Registered in {}, which Cursor reads from the workspace (documented, not observed).",
            file.path
        );
        out.extend(of_file(cx, &file, &reason));
    }
    out
}

/// The hooks of one hooks file, each given `reason`.
fn of_file(cx: &mut Cx<'_, '_>, file: &JsonFile, reason: &str) -> Vec<Hook> {
    let Some(hooks) = file.value.get("hooks") else {
        return Vec::new();
    };
    let source = file.source(&[]);
    let lines = |key: &[&str]| {
        // A key of the group shape (`hooks.<event>.<i>.hooks.0`) is the
        // Cursor entry `hooks.<event>.<i>`.
        let key = match key {
            [h, ev, i, "hooks", _, rest @ ..] => [&[*h, *ev, *i][..], rest].concat(),
            _ => key.to_vec(),
        };
        file.span(&key)
    };
    let reg = Registration {
        harness: HARNESS,
        release: "Cursor",
        source: &source,
        prefix: &["hooks"],
        lines: &lines,
        events: &EVENTS,
        tokens: Tokens {
            project: &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
            plugin: None,
        },
        cwd: &cx.context.cwd,
        layout: Layout::Groups,
        runs: Verdict::Yes,
        applicability: Applicability::Effective,
        reason,
    };
    read(cx, &reg, &as_groups(hooks))
}

/// Cursor's `{event: [entry, ...]}` as matcher groups `{event: [{matcher,
/// hooks: [entry]}, ...]}`; any other shape is left for the toolkit to
/// report.
fn as_groups(hooks: &Value) -> Value {
    let Some(events) = hooks.as_object() else {
        return hooks.clone();
    };
    let mut out = Map::new();
    for (event, entries) in events {
        let groups = match entries.as_array() {
            Some(list) => Value::Array(list.iter().map(group).collect()),
            None => entries.clone(),
        };
        out.insert(event.clone(), groups);
    }
    Value::Object(out)
}

/// One entry as a group of one handler.
fn group(entry: &Value) -> Value {
    let mut g = Map::new();
    if let Some(m) = entry.get("matcher") {
        g.insert("matcher".into(), m.clone());
    }
    g.insert("hooks".into(), Value::Array(vec![entry.clone()]));
    Value::Object(g)
}

#[cfg(test)]
mod tests {
    use super::{as_groups, trigger, EVENTS};
    use playbookdiff_model::HookTrigger;
    use serde_json::json;

    /// Each entry becomes its own group, matcher kept.
    #[test]
    fn entries_become_groups() {
        let v = json!({"preToolUse": [{"command": "a.sh", "matcher": "Shell"}]});
        assert_eq!(
            as_groups(&v),
            json!({"preToolUse": [{"matcher": "Shell", "hooks": [{"command": "a.sh", "matcher": "Shell"}]}]})
        );
    }

    /// Every event with a cross-harness meaning is a known event.
    #[test]
    fn triggers_are_of_known_events() {
        for e in EVENTS.known {
            if let Some(t) = trigger(e) {
                assert!(HookTrigger::ALL.contains(&t));
            }
        }
        assert_eq!(
            trigger("beforeSubmitPrompt"),
            Some(HookTrigger::UserPromptSubmit)
        );
        assert_eq!(trigger("beforeShellExecution"), None);
    }
}

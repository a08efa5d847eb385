//! Hooks: the `hooks` object of the launch directory's
//! `.gemini/settings.json`.
//!
//! Read in Gemini CLI's code (`HookRegistry` and `HookEventName` in
//! `@google/gemini-cli-core`, `packages/core/src/hooks/`, the same in
//! 0.34.0 and 0.61.0): Claude Code's shape of matcher groups, under
//! Gemini CLI's own event names; the keys `enabled`, `disabled` and
//! `notifications` are settings, not events; an unknown event is skipped
//! with a warning; `hooksConfig.enabled: false` turns every hook off and
//! `hooksConfig.disabled` lists hooks (by `name`, else command) to skip.
//! Project hooks run only in a trusted folder (the analysis assumes one:
//! an untrusted headless run of 0.61 stops, and 0.34 trusts by default),
//! with the project directory as working directory and in
//! `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`; seen with 0.61.0 (a
//! `BeforeAgent` hook ran in the project directory).

use crate::settings::Workspace;
use crate::{Cx, HARNESS};
use playbookdiff_adapter::hooks::{self, Events, Layout, Registration, Tokens};
use playbookdiff_model::{Applicability, Hook, HookTrigger, Verdict};
use serde_json::Value;

/// Gemini CLI's events with their cross-harness meaning: the one table
/// of its events (`HookEventName`). `BeforeAgent` fires once the user
/// submitted a prompt, before planning; `AfterAgent` when the agent loop
/// ends; `PreCompress` before the history is compressed.
const TRIGGERS: &[(&str, Option<HookTrigger>)] = &[
    ("BeforeTool", Some(HookTrigger::PreToolUse)),
    ("AfterTool", Some(HookTrigger::PostToolUse)),
    ("BeforeAgent", Some(HookTrigger::UserPromptSubmit)),
    ("Notification", Some(HookTrigger::Notification)),
    ("AfterAgent", Some(HookTrigger::Stop)),
    ("SessionStart", Some(HookTrigger::SessionStart)),
    ("SessionEnd", Some(HookTrigger::SessionEnd)),
    ("PreCompress", Some(HookTrigger::PreCompact)),
    ("BeforeModel", None),
    ("AfterModel", None),
    ("BeforeToolSelection", None),
];

/// Keys of `hooks` that are settings, not events (`HOOKS_CONFIG_FIELDS`).
const CONFIG_FIELDS: &[&str] = &["enabled", "disabled", "notifications"];

/// The events, and those whose matcher is a tool name (`matchesToolName`
/// in `hookPlanner`). Gemini CLI's tool names (`write_file`, `replace`,
/// `run_shell_command`, ...) are not checked.
const EVENTS: Events = Events {
    known: &[],
    tool_events: &["BeforeTool", "AfterTool"],
    matcherless: &[],
    cannot_block: &[],
    tools: &[],
    triggers: TRIGGERS,
};

/// The variables Gemini CLI sets to the project directory in a hook's
/// environment and replaces in its command (`HookRunner`).
const PROJECT_TOKENS: &[&str] = &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_CWD"];

/// The Gemini CLI equivalent of `trigger`, when it has one (read from
/// [`TRIGGERS`]).
pub(crate) fn event_of(trigger: HookTrigger) -> Option<&'static str> {
    TRIGGERS
        .iter()
        .find(|(_, t)| *t == Some(trigger))
        .map(|(e, _)| *e)
}

/// The hooks of the workspace settings `ws`.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, ws: &Workspace, version: &str) -> Vec<Hook> {
    let (Some(value), Some(source)) = (ws.get(&["hooks"]), ws.source(&[])) else {
        return Vec::new();
    };
    let events = match value.as_object() {
        Some(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| !CONFIG_FIELDS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        None => value.clone(),
    };
    let release = format!("Gemini CLI {version}");
    let lines = |p: &[&str]| ws.span(p);
    let reason = format!(
        "Registered in `{}`, the launch directory's workspace settings; Gemini CLI runs project hooks in a trusted folder (assumed), in the project directory.",
        source.path
    );
    let ctx = cx.context;
    let reg = Registration {
        harness: HARNESS,
        release: &release,
        source: &source,
        prefix: &["hooks"],
        lines: &lines,
        events: &EVENTS,
        tokens: Tokens {
            project: PROJECT_TOKENS,
            plugin: None,
        },
        cwd: &ctx.cwd,
        layout: Layout::Groups,
        runs: runs(ws),
        applicability: Applicability::Effective,
        reason: &reason,
    };
    let mut out = hooks::read(cx, &reg, &events);
    skip_disabled(ws, &mut out);
    out
}

/// `no` when `hooksConfig.enabled` is false, else `yes`.
fn runs(ws: &Workspace) -> Verdict {
    if ws.get(&["hooksConfig", "enabled"]) == Some(&Value::Bool(false)) {
        let source = ws.source(&["hooksConfig", "enabled"]);
        let path = source
            .as_ref()
            .map(|s| s.path.to_string())
            .unwrap_or_default();
        return Verdict::No {
            reason: format!("`hooksConfig.enabled: false` in `{path}` turns hooks off"),
            source,
        };
    }
    Verdict::Yes
}

/// Marks the hooks whose command `hooksConfig.disabled` names as not
/// running.
fn skip_disabled(ws: &Workspace, out: &mut [Hook]) {
    let Some(names) = ws
        .get(&["hooksConfig", "disabled"])
        .and_then(Value::as_array)
    else {
        return;
    };
    let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
    for h in out.iter_mut().filter(|h| h.runs.may_apply()) {
        if h.handler
            .command
            .as_deref()
            .is_some_and(|c| names.contains(&c))
        {
            h.runs = Verdict::No {
                reason: "`hooksConfig.disabled` names it".to_string(),
                source: ws.source(&["hooksConfig", "disabled"]),
            };
        }
    }
}

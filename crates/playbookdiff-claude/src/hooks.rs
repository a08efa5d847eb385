//! Hooks and permissions of the settings layers Claude Code reads from the
//! launch directory (`<cwd>/.claude/settings.json`, and in local mode
//! `settings.local.json`).
//!
//! Seen with 2.1.332 and 2.1.197 through a scripted model (surfaces and
//! guard reference): hooks in project settings run in `-p` mode with no
//! trust step, with `CLAUDE_PROJECT_DIR` set to the project root;
//! `disableAllHooks: true` in a settings layer turns off the hooks of the
//! project and of the user (not managed ones); a project
//! `permissions.deny` rule holds even under `--dangerously-skip-permissions`,
//! a project `permissions.allow` rule was not applied in `-p` mode. The
//! event lists are those of each release's code.

use crate::profile::Fact;
use crate::settings::{Settings, SettingsLayer};
use crate::{Compiler, HARNESS};
use playbookdiff_adapter::hooks::{self, Events, Registration, Tokens};
use playbookdiff_model::{
    ActionKind, Applicability, Diagnostic, DiagnosticCode, PermissionEffect, PermissionScope,
    PermissionSetting, RepoPath, SourceFormat, SourceRef, SourceScope, Verdict,
};
use serde_json::Value;

/// The events of Claude Code 2.1.332 (its code; surfaces and guard
/// reference): those of 2.1.197 but `InstructionsLoaded`, then the events
/// releases from 2.0.59 on added, in the order of their first releases
/// ([`LATER_EVENTS`]), so that the events of a release are a prefix of
/// this table. The events before `InstructionsLoaded` are assumed present
/// in 2.0.59 already: only the later ones were bisected.
const EVENTS_2_1_332: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "CwdChanged",
    "FileChanged",
    "MessageDisplay",
    "InstructionsLoaded",
    "DirectoryAdded",
    "PreModelSwitch",
    "PostModelSwitch",
    "PreSkillShellCommand",
];

/// The events later releases added, each with the fact that adds it, in
/// the order of their first releases (2.1.69, 2.1.219,
/// 2.1.251, 2.1.332, found by bisection on the agent's code): the tail of
/// [`EVENTS_2_1_332`].
const LATER_EVENTS: &[(&str, Fact)] = &[
    ("InstructionsLoaded", Fact::InstructionsLoadedHookEvent),
    ("DirectoryAdded", Fact::DirectoryAddedHookEvent),
    ("PreModelSwitch", Fact::ModelSwitchHookEvents),
    ("PostModelSwitch", Fact::ModelSwitchHookEvents),
    ("PreSkillShellCommand", Fact::PreSkillShellCommandHookEvent),
];

/// Events whose matcher is matched against the tool name (hooks
/// documentation, "Matchers").
const TOOL_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
];

/// Events that ignore a matcher and fire on every occurrence (hooks
/// documentation: "If you add a matcher field to these events, it is
/// silently ignored").
const MATCHERLESS: &[&str] = &[
    "UserPromptSubmit",
    "Stop",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
    "CwdChanged",
];

/// Events on which exit 2 or a block decision only shows a message (hooks
/// documentation, "Exit code 2 behavior per event": "Shows stderr to
/// user only", or nothing is left to block).
const CANNOT_BLOCK: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "Notification",
    "SubagentStart",
    "PostCompact",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "WorktreeRemove",
    "StopFailure",
    "Setup",
    "PermissionDenied",
    "MessageDisplay",
    "DirectoryAdded",
    "PostModelSwitch",
];

/// The variable Claude Code sets to the project root in a hook's
/// environment (seen: `CLAUDE_PROJECT_DIR`).
const PROJECT_TOKENS: &[&str] = &["CLAUDE_PROJECT_DIR"];

/// The event table of the compiled release.
fn events(cx: &Compiler<'_, '_>) -> Events {
    let added = LATER_EVENTS
        .iter()
        .take_while(|(_, fact)| cx.profile.has(*fact))
        .count();
    let known = &EVENTS_2_1_332[..EVENTS_2_1_332.len() - LATER_EVENTS.len() + added];
    Events {
        known,
        tool_events: TOOL_EVENTS,
        matcherless: MATCHERLESS,
        cannot_block: CANNOT_BLOCK,
        tools: crate::tools::TOOLS,
        triggers: &[],
    }
}

/// Reads the hooks and permissions of every settings layer that applies.
pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let runs = runs(cx, settings);
    let events = events(cx);
    let release = format!("Claude Code {}", cx.profile.version);
    for layer in &settings.layers {
        if let Some(h) = layer.value.get("hooks") {
            read_layer(cx, layer, h, &events, &release, runs.clone());
        }
        permissions(cx, layer);
    }
}

fn read_layer(
    cx: &mut Compiler<'_, '_>,
    layer: &SettingsLayer,
    value: &Value,
    events: &Events,
    release: &str,
    runs: Verdict,
) {
    let lines = |p: &[&str]| layer.lines(p);
    let reason = format!(
        "Registered in `{}`, which Claude Code reads from the launch directory; project hooks run with no trust step.",
        layer.source.path
    );
    let ctx = cx.base.context;
    let reg = Registration {
        harness: HARNESS,
        release,
        source: &layer.source,
        prefix: &["hooks"],
        lines: &lines,
        events,
        tokens: Tokens {
            project: PROJECT_TOKENS,
            plugin: None,
        },
        cwd: &ctx.cwd,
        layout: hooks::Layout::Groups,
        runs,
        applicability: Applicability::Effective,
        reason: &reason,
    };
    let read = hooks::read(&mut cx.base, &reg, value);
    cx.out.hooks.extend(read);
}

/// The hooks of the plugin `name` at `root` (its manifest `manifest`):
/// `hooks/hooks.json`, or the file or object the manifest's `hooks`
/// names, with `${CLAUDE_PLUGIN_ROOT}` as `root`. A plugin loads only once
/// the user registers its marketplace and enables it (fidelity C25), so
/// its hooks are `conditional` and their `runs` unknown.
pub(crate) fn plugin(
    cx: &mut Compiler<'_, '_>,
    root: &RepoPath,
    name: &str,
    manifest: Option<&Value>,
) {
    let named = manifest.and_then(|m| m.get("hooks"));
    let file = match named {
        Some(Value::String(rel)) => root.join(rel.trim_start_matches("./")),
        Some(_) => None,
        None => root.join("hooks/hooks.json"),
    };
    let Some(file) = file.filter(|f| cx.repo.is_file(f)) else {
        return;
    };
    let Ok(text) = cx.repo.read_text(&file, crate::READ_LIMIT) else {
        return;
    };
    let source = cx.source_ref(&file, SourceScope::Project, SourceFormat::Json);
    let reason = format!(
        "Registered by the plugin `{name}` in `{file}`; the plugin loads only once its marketplace is registered and it is enabled, which the repository alone does not do."
    );
    let how = PluginHooks {
        source,
        root: Some(root),
        runs: Verdict::Unknown {
            reason: format!("the plugin `{name}` runs them once installed and enabled"),
        },
        applicability: Applicability::Conditional,
        reason,
    };
    register_plugin(cx, &text.text, &how);
}

/// How the hooks of one plugin file are registered.
struct PluginHooks<'r> {
    /// The file, in its layer.
    source: SourceRef,
    /// The plugin's directory in the repository, for `${CLAUDE_PLUGIN_ROOT}`
    /// (none for a plugin on the machine, whose scripts are not read).
    root: Option<&'r RepoPath>,
    runs: Verdict,
    applicability: Applicability,
    reason: String,
}

/// Registers the hooks of the plugin hooks file `text` (its `hooks`
/// object); nothing when it is not JSON or has no `hooks`.
fn register_plugin(cx: &mut Compiler<'_, '_>, text: &str, how: &PluginHooks<'_>) {
    let Ok(doc) = crate::json::JsonDoc::parse(text) else {
        return;
    };
    let Some(value) = doc.value.get("hooks") else {
        return;
    };
    let lines = |p: &[&str]| doc.span(p);
    let events = events(cx);
    let release = format!("Claude Code {}", cx.profile.version);
    let ctx = cx.base.context;
    let reg = Registration {
        harness: HARNESS,
        release: &release,
        source: &how.source,
        prefix: &["hooks"],
        lines: &lines,
        events: &events,
        tokens: Tokens {
            project: PROJECT_TOKENS,
            plugin: how.root.map(|r| ("CLAUDE_PLUGIN_ROOT", r)),
        },
        cwd: &ctx.cwd,
        layout: hooks::Layout::Groups,
        runs: how.runs.clone(),
        applicability: how.applicability,
        reason: &how.reason,
    };
    let read = hooks::read(&mut cx.base, &reg, value);
    cx.out.hooks.extend(read);
}

/// The hooks of the installed and enabled plugin `plugin`
/// (`name@marketplace`) in its file `file` on the machine
/// (`hooks/hooks.json` of its install directory): they run in every
/// project, as the project's do (seen with 2.1.197 and 2.1.332, case
/// `oracle.local_user_layers.home-claude-plugins`: the plugin's
/// `SessionStart` and `UserPromptSubmit` hooks fired). A
/// `${CLAUDE_PLUGIN_ROOT}` script is not looked up (it lies outside the
/// repository), and `disableAllHooks` is not applied to them (not
/// observed). Returns true when the file holds hooks.
pub(crate) fn installed_plugin(cx: &mut Compiler<'_, '_>, file: &RepoPath, plugin: &str) -> bool {
    if cx.kind_at(file).is_none() || !cx.expect_file(file, SourceFormat::Json) {
        return false;
    }
    let Some(text) = cx.read(file, SourceFormat::Json) else {
        return false;
    };
    let source = cx
        .source_ref(file, SourceScope::User, SourceFormat::Json)
        .in_plugin(plugin);
    let reason = format!(
        "Registered by the plugin `{plugin}`, installed and enabled by the user, in `{file}`; it runs in every project."
    );
    let how = PluginHooks {
        source,
        root: None,
        runs: Verdict::Yes,
        applicability: Applicability::Effective,
        reason,
    };
    let before = cx.out.hooks.len();
    register_plugin(cx, &text.text, &how);
    cx.out.hooks.len() > before
}

/// Whether the hooks of these layers run: not when the layer of highest
/// precedence that sets `disableAllHooks` sets it true (reported once,
/// at that key).
fn runs(cx: &mut Compiler<'_, '_>, settings: &Settings) -> Verdict {
    let Some((v, layer)) = settings.values("disableAllHooks").into_iter().last() else {
        return Verdict::Yes;
    };
    if v != &Value::Bool(true) {
        return Verdict::Yes;
    }
    let at = layer.at(&["disableAllHooks"]);
    let has_hooks = settings
        .layers
        .iter()
        .any(|l| l.value.contains_key("hooks"));
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::HooksDisabled,
            format!(
                "`{}` sets `disableAllHooks: true`: Claude Code runs none of the project's or the user's hooks{} (managed hooks still run).",
                layer.source.path,
                if has_hooks { ", including those listed here" } else { "" }
            ),
        )
        .at(at.clone()),
    );
    Verdict::No {
        reason: format!(
            "`disableAllHooks: true` in `{}` turns hooks off",
            layer.source.path
        ),
        source: Some(at),
    }
}

/// The permission rules (`permissions.allow`, `deny`, `ask`) and
/// `permissions.defaultMode` of `layer`.
fn permissions(cx: &mut Compiler<'_, '_>, layer: &SettingsLayer) {
    let Some(p) = layer.value.get("permissions").and_then(Value::as_object) else {
        return;
    };
    for (key, effect) in [
        ("deny", PermissionEffect::Deny),
        ("ask", PermissionEffect::Ask),
        ("allow", PermissionEffect::Allow),
    ] {
        let Some(rules) = p.get(key).and_then(Value::as_array) else {
            continue;
        };
        for (i, rule) in rules.iter().enumerate() {
            if let Some(r) = rule.as_str() {
                let at = layer.at(&["permissions", key, &i.to_string()]);
                push_rule(cx, layer, key, r, effect, at);
            }
        }
    }
    if let Some(mode) = p.get("defaultMode").and_then(Value::as_str) {
        let at = layer.at(&["permissions", "defaultMode"]);
        push_rule(cx, layer, "defaultMode", mode, PermissionEffect::Mode, at);
    }
    if p.get("allow")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::PermissionNotHonoured,
                format!(
                    "`{}` allows tools in `permissions.allow`; Claude Code 2.1.332 and 2.1.197 were seen not to apply a project `allow` rule in `-p` mode (the same rule in user settings was), so a non-interactive run may still ask or refuse.",
                    layer.source.path
                ),
            )
            .at(layer.at(&["permissions", "allow"])),
        );
    }
}

fn push_rule(
    cx: &mut Compiler<'_, '_>,
    layer: &SettingsLayer,
    key: &str,
    value: &str,
    effect: PermissionEffect,
    source: SourceRef,
) {
    let honoured = match effect {
        PermissionEffect::Deny => Verdict::Yes,
        PermissionEffect::Allow => Verdict::Unknown {
            reason: "a project allow rule was seen not applied in -p mode; interactive sessions apply it".into(),
        },
        PermissionEffect::Ask => Verdict::Unknown {
            reason: "not observed with the profiled releases".into(),
        },
        PermissionEffect::Mode => Verdict::Unknown {
            reason: "a command-line mode (--permission-mode, --dangerously-skip-permissions) replaces it".into(),
        },
    };
    let denies = (effect == PermissionEffect::Deny)
        .then(|| deny_scope(value))
        .flatten();
    let key = format!("permissions.{key}");
    cx.out.permissions.push(PermissionSetting {
        id: format!(
            "{}:permission:{}:{key}:{value}",
            HARNESS.as_str(),
            layer.source.path
        ),
        key,
        value: value.to_string(),
        effect,
        source,
        honoured,
        denies,
    });
}

/// What the deny rule `rule` refuses in terms other harnesses share
/// (Claude Code permission rule syntax, documentation "permissions"):
/// `Bash` or `Bash(PREFIX:*)` / `Bash(PREFIX *)` a shell command prefix,
/// `Read(PATH)` a read, `Edit|Write|MultiEdit|NotebookEdit(PATH)` an edit,
/// `WebFetch(domain:D)` a fetch. `None` for other tools (MCP tools,
/// `Agent`) and for a specifier with a wildcard inside a command.
pub(crate) fn deny_scope(rule: &str) -> Option<PermissionScope> {
    let (tool, spec) = match rule.split_once('(') {
        Some((t, rest)) => (t, Some(rest.strip_suffix(')')?.trim())),
        None => (rule.trim(), None),
    };
    let spec = spec.filter(|s| !s.is_empty() && *s != "*");
    let action = match tool {
        "Bash" => ActionKind::Shell,
        "Read" => ActionKind::Read,
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => ActionKind::Edit,
        "WebFetch" => ActionKind::WebFetch,
        _ => return None,
    };
    let pattern = match (action, spec) {
        (_, None) => None,
        (ActionKind::Shell, Some(s)) => {
            let prefix = s
                .strip_suffix(":*")
                .or_else(|| s.strip_suffix(" *"))
                .unwrap_or(s)
                .trim();
            if prefix.contains('*') {
                return None;
            }
            Some(prefix.to_string())
        }
        (ActionKind::WebFetch, Some(s)) => Some(s.strip_prefix("domain:").unwrap_or(s).to_string()),
        (_, Some(s)) => {
            let s = s.strip_prefix("./").unwrap_or(s);
            let s = match s.strip_prefix('/') {
                Some(rest) if !rest.starts_with('/') => rest,
                _ => s,
            };
            Some(s.to_string())
        }
    };
    Some(PermissionScope { action, pattern })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The later events are the tail of the table, in the order of their
    /// facts' first releases, so that a release's events are a prefix.
    #[test]
    fn the_later_events_are_the_tail_in_release_order() {
        let tail = &EVENTS_2_1_332[EVENTS_2_1_332.len() - LATER_EVENTS.len()..];
        let names: Vec<&str> = LATER_EVENTS.iter().map(|(e, _)| *e).collect();
        assert_eq!(tail, names.as_slice());
        let first = |f: Fact| {
            let p = crate::profile::changes();
            p.iter()
                .find(|c| c.fact == f.name())
                .map(|c| c.since)
                .unwrap()
        };
        for pair in LATER_EVENTS.windows(2) {
            let (a, b) = (first(pair[0].1), first(pair[1].1));
            assert_ne!(
                playbookdiff_model::profile::compare_versions(a, b),
                std::cmp::Ordering::Greater,
                "{a} {b}"
            );
        }
        for e in TOOL_EVENTS.iter().chain(MATCHERLESS).chain(CANNOT_BLOCK) {
            assert!(EVENTS_2_1_332.contains(e), "{e}");
        }
    }

    /// Rules of each kind Claude Code's syntax spells translate to the
    /// shared scope (a prefix, a path without `./` or a project-root `/`,
    /// a domain); rules of other tools, or a wildcard inside a command,
    /// do not.
    #[test]
    fn deny_rules_translate_to_shared_scopes() {
        let s = |r: &str| deny_scope(r).map(|s| (s.action, s.pattern));
        let p = |a: ActionKind, x: &str| Some((a, Some(x.to_string())));
        assert_eq!(s("Bash(curl:*)"), p(ActionKind::Shell, "curl"));
        assert_eq!(s("Bash(git push *)"), p(ActionKind::Shell, "git push"));
        assert_eq!(s("Bash"), Some((ActionKind::Shell, None)));
        assert_eq!(s("Bash(*)"), Some((ActionKind::Shell, None)));
        assert_eq!(s("Read(./.env)"), p(ActionKind::Read, ".env"));
        assert_eq!(s("Edit(/CLAUDE.md)"), p(ActionKind::Edit, "CLAUDE.md"));
        assert_eq!(s("Write(//etc/hosts)"), p(ActionKind::Edit, "//etc/hosts"));
        assert_eq!(
            s("WebFetch(domain:example.com)"),
            p(ActionKind::WebFetch, "example.com")
        );
        assert_eq!(s("mcp__db__query"), None);
        assert_eq!(s("Bash(rm * -rf)"), None);
        assert_eq!(s("Bash(curl"), None);
    }
}

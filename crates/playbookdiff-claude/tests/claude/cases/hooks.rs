//! Hooks and permissions of the settings layers: scripts resolved inside
//! the repository, events per release, matchers, blocks, `disableAllHooks`.

use crate::common::*;
use playbookdiff_model::{
    Applicability, DiagnosticCode as D, EffectiveAgentConfig, HookTrigger, PermissionEffect,
    Verdict,
};

const SETTINGS: &str = r#"{
  "permissions": {
    "deny": ["Edit(/CLAUDE.md)"],
    "allow": ["Bash(npm test)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          { "type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh", "timeout": 10 }
        ]
      }
    ],
    "SessionStart": [
      { "hooks": [ { "type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/gone.sh" } ] },
      { "hooks": [ { "type": "command", "command": "bash .claude/hooks/start.sh" } ] }
    ],
    "Stop": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "true" } ] }
    ],
    "PreModelSwitch": [
      { "hooks": [ { "type": "command", "command": "true" } ] }
    ]
  }
}
"#;

/// A repository whose `dir/.claude/settings.json` is [`SETTINGS`], with
/// the guard and start scripts present and `gone.sh` missing.
fn repo(dir: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let at = |rel: &str| {
        if dir == "." {
            rel.to_string()
        } else {
            format!("{dir}/{rel}")
        }
    };
    write(r, &at(".claude/settings.json"), SETTINGS);
    write(r, &at(".claude/hooks/guard.sh"), "#!/bin/sh\nexit 2\n");
    write(
        r,
        &at(".claude/hooks/start.sh"),
        "#!/bin/sh\necho no >&2\nexit 2\n",
    );
    write(r, "CLAUDE.md", "# Rules\n");
    t
}

fn hook<'c>(cfg: &'c EffectiveAgentConfig, event: &str, i: usize) -> &'c playbookdiff_model::Hook {
    cfg.hooks
        .iter()
        .filter(|h| h.event == event)
        .nth(i)
        .unwrap_or_else(|| panic!("no {event} hook {i}: {:#?}", cfg.hooks))
}

/// Every hook of the settings is listed with its event, matcher, handler,
/// the lines of its handler and the script it runs, resolved from the
/// launch directory whatever the spelling (`"$CLAUDE_PROJECT_DIR"`,
/// `${CLAUDE_PROJECT_DIR}`, a relative path), at the root and below it.
#[test]
fn every_hook_is_listed_with_its_lines_and_its_script_resolved_in_the_launch_directory() {
    for dir in [".", "apps/web"] {
        let t = repo(dir);
        let ctx = if dir == "." {
            at_root()
        } else {
            at_root().cwd(dir)
        };
        let cfg = compile_dir(t.path(), &ctx);
        assert_eq!(cfg.hooks.len(), 5, "{dir}: {:#?}", cfg.hooks);
        let prefix = if dir == "." {
            String::new()
        } else {
            format!("{dir}/")
        };
        let guard = hook(&cfg, "PreToolUse", 0);
        assert_eq!(guard.trigger, Some(HookTrigger::PreToolUse));
        assert_eq!(guard.matcher.as_deref(), Some("Write|Edit"));
        assert_eq!(guard.handler.kind, "command");
        assert_eq!(guard.handler.timeout_seconds, Some(10));
        let lines = guard.source.lines.unwrap();
        assert_eq!((lines.start, lines.end), (11, 11), "{dir}");
        let s = guard.script.as_ref().unwrap();
        assert_eq!(s.path.as_str(), format!("{prefix}.claude/hooks/guard.sh"));
        assert!(s.present);
        assert_eq!(guard.runs, Verdict::Yes);
        assert_eq!(guard.applicability, Applicability::Effective);
        let start = hook(&cfg, "SessionStart", 1).script.as_ref().unwrap();
        assert_eq!(
            start.path.as_str(),
            format!("{prefix}.claude/hooks/start.sh")
        );
        assert!(start.present);
        // The missing script: one diagnostic at the handler's line.
        let gone = hook(&cfg, "SessionStart", 0);
        assert!(!gone.script.as_ref().unwrap().present);
        let d = diags(&cfg, D::HookScriptMissing);
        assert_eq!(d.len(), 1, "{dir}");
        assert_eq!(d[0].source.as_ref().unwrap().lines, gone.source.lines);
        assert_says(d[0], ".claude/hooks/gone.sh");
    }
}

/// An event the release lacks is reported for that release only, at the
/// event's lines; the hook stays listed.
#[test]
fn an_event_only_the_newer_release_has_is_reported_for_the_older_one() {
    let t = repo(".");
    let new = compile_dir(t.path(), &at_root().version("2.1.332"));
    assert!(diags(&new, D::HookEventUnknown).is_empty());
    let old = compile_dir(t.path(), &at_root().version("2.1.197"));
    let d = diags(&old, D::HookEventUnknown);
    assert_eq!(d.len(), 1);
    assert_says(d[0], "PreModelSwitch");
    assert_says(d[0], "2.1.197");
    let l = d[0].source.as_ref().unwrap().lines.unwrap();
    assert_eq!((l.start, l.end), (22, 24));
}

/// A matcher on an event that ignores matchers, and a block (exit 2 in
/// the script) on an event that cannot block, are reported at their
/// lines; a block on `PreToolUse` is not.
#[test]
fn ineffective_matchers_and_blocks_are_reported_where_they_are_written() {
    let t = repo(".");
    let cfg = compile_dir(t.path(), &at_root());
    let m = diags(&cfg, D::HookMatcherIneffective);
    assert_eq!(m.len(), 1, "{m:#?}");
    assert_says(m[0], "`Stop` ignores matchers");
    assert_eq!(m[0].source.as_ref().unwrap().lines.unwrap().start, 20);
    let b = diags(&cfg, D::HookBlockIneffective);
    assert_eq!(b.len(), 1, "{b:#?}");
    assert_says(b[0], ".claude/hooks/start.sh");
    assert_eq!(b[0].source.as_ref().unwrap().lines.unwrap().start, 17);
}

/// `disableAllHooks: true` turns every hook off, each naming the
/// setting's file and line, with one `hooks-disabled` there.
#[test]
fn disable_all_hooks_turns_every_hook_off_and_names_its_line() {
    let t = repo(".");
    let text = SETTINGS.replacen("{\n", "{\n  \"disableAllHooks\": true,\n", 1);
    write(t.path(), ".claude/settings.json", &text);
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(cfg.hooks.len(), 5);
    for h in &cfg.hooks {
        match &h.runs {
            Verdict::No { source, reason } => {
                assert!(reason.contains("disableAllHooks"), "{reason}");
                assert_eq!(source.as_ref().unwrap().lines.unwrap().start, 2);
            }
            other => panic!("{}: {other:?}", h.id),
        }
    }
    let d = diags(&cfg, D::HooksDisabled);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].source.as_ref().unwrap().lines.unwrap().start, 2);
}

/// Local settings register hooks in local mode only, as they are read.
#[test]
fn local_settings_hooks_are_read_in_local_mode_only() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), ".claude/settings.local.json", SETTINGS);
    write(t.path(), "CLAUDE.md", "# Rules\n");
    let repo_mode = compile_dir(t.path(), &at_root());
    assert!(repo_mode.hooks.is_empty());
    let local = compile_dir(t.path(), &at_root().local());
    assert_eq!(local.hooks.len(), 5);
    assert!(local
        .hooks
        .iter()
        .all(|h| h.source.path.as_str() == ".claude/settings.local.json"));
}

/// Permission rules are listed with their lines and what was seen
/// honoured: a deny holds, an allow is unknown and said so.
#[test]
fn permission_rules_say_what_the_agent_was_seen_to_honour() {
    let t = repo(".");
    let cfg = compile_dir(t.path(), &at_root());
    let deny = cfg
        .permissions
        .iter()
        .find(|p| p.effect == PermissionEffect::Deny)
        .unwrap();
    assert_eq!(
        (deny.key.as_str(), deny.value.as_str()),
        ("permissions.deny", "Edit(/CLAUDE.md)")
    );
    assert_eq!(deny.honoured, Verdict::Yes);
    assert_eq!(deny.source.lines.unwrap().start, 3);
    let allow = cfg
        .permissions
        .iter()
        .find(|p| p.effect == PermissionEffect::Allow)
        .unwrap();
    assert!(matches!(allow.honoured, Verdict::Unknown { .. }));
    assert_eq!(diags(&cfg, D::PermissionNotHonoured).len(), 1);
}

/// A plugin's hooks resolve `${CLAUDE_PLUGIN_ROOT}` to the plugin's
/// directory and are conditional: the plugin loads only after a user step.
#[test]
fn plugin_hooks_resolve_the_plugin_root_and_wait_for_installation() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".claude-plugin/marketplace.json",
        r#"{"name": "m", "plugins": [{"name": "p", "source": "./plugins/p"}]}"#,
    );
    write(
        r,
        "plugins/p/.claude-plugin/plugin.json",
        r#"{"name": "p"}"#,
    );
    write(
        r,
        "plugins/p/hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/guard.js\""}]}]}}"#,
    );
    write(r, "plugins/p/scripts/guard.js", "process.exit(0)\n");
    let cfg = compile_dir(r, &at_root());
    assert_eq!(cfg.hooks.len(), 1, "{:#?}", cfg.hooks);
    let h = &cfg.hooks[0];
    assert_eq!(h.applicability, Applicability::Conditional);
    assert!(matches!(h.runs, Verdict::Unknown { .. }));
    let s = h.script.as_ref().unwrap();
    assert_eq!(s.path.as_str(), "plugins/p/scripts/guard.js");
    assert!(s.present);
    assert!(!h.may_run());
}

/// A configuration without hooks or permissions serializes without the
/// keys, as before they were modelled.
#[test]
fn no_hooks_no_keys() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "# Rules\n");
    let cfg = compile_dir(t.path(), &at_root());
    let json = serde_json::to_value(&cfg).unwrap();
    assert!(json.get("hooks").is_none() && json.get("permissions").is_none());
}

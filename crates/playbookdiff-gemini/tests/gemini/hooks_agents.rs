//! Hooks of the workspace settings and subagents of `.gemini/agents` as
//! items: Gemini CLI's own event names mapped to their cross-harness
//! meaning, provenance with lines, what turns hooks off, and subagents
//! whose loading depends on the user's acknowledgement.

use playbookdiff_gemini::ADAPTER;
use playbookdiff_model::{
    Applicability, DiagnosticCode, EffectiveAgentConfig, HookTrigger, LoadPhase,
};
use playbookdiff_testkit::{at_root, copy_to_temp, Kit};
use std::path::Path;

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));
const RELEASES: [&str; 2] = ["0.34.0", "0.61.0"];

/// Fixture `extras` with `files` written over it, compiled from `cwd`.
fn with(files: &[(&str, &str)], cwd: &str, version: &str) -> EffectiveAgentConfig {
    let dir = copy_to_temp(&KIT.fixture("extras"));
    for (p, text) in files {
        let f = dir.path().join(p);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, text).unwrap();
    }
    KIT.compile_dir(Path::new(dir.path()), &at_root().cwd(cwd).version(version))
}

const SETTINGS: &str = r#"{
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [
          {"type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh", "timeout": 5}
        ]
      }
    ],
    "AfterAgent": [
      {"hooks": [{"type": "command", "command": "node scripts/missing.js"}]}
    ],
    "BeforeModel": [
      {"hooks": [{"type": "command", "command": "true"}]}
    ],
    "BeforeTools": [
      {"hooks": [{"type": "command", "command": "true"}]}
    ],
    "enabled": true
  }
}
"#;

/// Every event of Gemini CLI's table gets its meaning (or none), each
/// handler its lines, its script resolved from the launch directory; an
/// unknown event and a missing script are diagnostics with file and line;
/// the `enabled` settings key is not an event.
#[test]
fn hooks_are_items_under_their_cross_harness_meaning() {
    let files = [
        (".gemini/settings.json", SETTINGS),
        (".gemini/hooks/guard.sh", "exit 0\n"),
    ];
    for v in RELEASES {
        let cfg = with(&files, ".", v);
        let got: Vec<(&str, Option<HookTrigger>)> = cfg
            .hooks
            .iter()
            .map(|h| (h.event.as_str(), h.trigger))
            .collect();
        assert_eq!(
            got,
            [
                ("BeforeTool", Some(HookTrigger::PreToolUse)),
                ("AfterAgent", Some(HookTrigger::Stop)),
                ("BeforeModel", None),
                ("BeforeTools", None),
            ],
            "{v}"
        );
        let guard = &cfg.hooks[0];
        assert_eq!(guard.id, "gemini:hook:.gemini/settings.json:BeforeTool:0:0");
        assert_eq!(guard.matcher.as_deref(), Some("write_file|replace"));
        assert_eq!(guard.source.lines.map(|l| (l.start, l.end)), Some((7, 7)));
        assert_eq!(guard.handler.timeout_seconds, Some(5));
        let script = guard.script.as_ref().expect("script");
        assert_eq!(script.path.as_str(), ".gemini/hooks/guard.sh");
        assert!(script.present);
        assert!(guard.may_run(), "{v}: {:?}", guard.runs);
        assert_eq!(guard.load_phase, LoadPhase::Startup);
        let unknown = cfg
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::HookEventUnknown)
            .expect("unknown event");
        assert!(
            unknown.message.contains("`BeforeTools`"),
            "{}",
            unknown.message
        );
        assert!(unknown.message.contains(&format!("Gemini CLI {v}")));
        assert_eq!(
            unknown
                .source
                .as_ref()
                .and_then(|s| s.lines)
                .map(|l| l.start),
            Some(17)
        );
        let missing = cfg
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::HookScriptMissing)
            .expect("missing script");
        assert!(missing.message.contains("scripts/missing.js"));
        assert!(!cfg
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::ItemNotModelled && d.message.contains("hooks")));
    }
}

/// Launched in a subdirectory, the scripts resolve from there, and only
/// that directory's settings register hooks.
#[test]
fn hooks_come_from_the_launch_directory_settings_only() {
    let files = [
        ("sub/.gemini/settings.json", SETTINGS),
        ("sub/.gemini/hooks/guard.sh", "exit 0\n"),
    ];
    let cfg = with(&files, "sub", "0.61.0");
    assert_eq!(
        cfg.hooks[0].source.path.as_str(),
        "sub/.gemini/settings.json"
    );
    let script = cfg.hooks[0].script.as_ref().unwrap();
    assert_eq!(script.path.as_str(), "sub/.gemini/hooks/guard.sh");
    assert!(script.present);
    let root = with(&files, ".", "0.61.0");
    assert_eq!(root.hooks.len(), 1, "only the root's own BeforeAgent hook");
    assert_eq!(root.hooks[0].event, "BeforeAgent");
    assert_eq!(root.hooks[0].trigger, Some(HookTrigger::UserPromptSubmit));
}

/// `hooksConfig.enabled: false` turns every hook off, naming the setting;
/// `hooksConfig.disabled` turns off the hooks whose command it names.
#[test]
fn hooks_config_turns_hooks_off() {
    let off = r#"{"hooksConfig": {"enabled": false},
 "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "a.sh"}]}]}}"#;
    let cfg = with(&[(".gemini/settings.json", off)], ".", "0.61.0");
    assert!(!cfg.hooks[0].may_run());
    assert!(matches!(&cfg.hooks[0].runs,
        playbookdiff_model::Verdict::No { reason, source: Some(s) }
            if reason.contains("hooksConfig.enabled") && s.lines.is_some()));
    let some = r#"{"hooksConfig": {"disabled": ["a.sh"]},
 "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "a.sh"}, {"type": "command", "command": "b.sh"}]}]}}"#;
    let cfg = with(&[(".gemini/settings.json", some)], ".", "0.61.0");
    let runs: Vec<bool> = cfg.hooks.iter().map(|h| h.may_run()).collect();
    assert_eq!(runs, [false, true]);
}

/// `hooksConfig.disabled` names a hook by its `name` when it has one
/// (`getHookName`: `name || command`): a named hook whose command is
/// listed still runs, one whose name is listed does not, and an empty
/// name falls back to the command (seen with 0.34.0 and 0.61.0, case
/// `oracle.local_gemini_hooks.home-gemini-hook-names`).
#[test]
fn hooks_config_disabled_matches_a_name_before_the_command() {
    let named = r#"{"hooksConfig": {"disabled": ["a.sh", "bee", "c.sh"]},
 "hooks": {"BeforeTool": [{"hooks": [
   {"type": "command", "name": "ay", "command": "a.sh"},
   {"type": "command", "name": "bee", "command": "b.sh"},
   {"type": "command", "name": "", "command": "c.sh"}]}]}}"#;
    for v in RELEASES {
        let cfg = with(&[(".gemini/settings.json", named)], ".", v);
        let runs: Vec<bool> = cfg.hooks.iter().map(|h| h.may_run()).collect();
        assert_eq!(runs, [true, false, false], "{v}");
    }
}

/// A subagent is an item whose loading waits on the user's
/// acknowledgement (`conditional`); 0.34 without
/// `experimental.enableAgents` excludes it, naming the setting; a file
/// without `description` is skipped with a diagnostic at its front matter.
#[test]
fn subagents_are_items_with_their_condition() {
    let bad = "---\nname: nodesc\n---\nBody.\n";
    let files = [(".gemini/agents/nodesc.md", bad)];
    for v in RELEASES {
        let cfg = with(&files, ".", v);
        let names: Vec<&str> = cfg.subagents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["reviewer"], "{v}");
        let a = &cfg.subagents[0];
        assert_eq!(a.description.as_deref(), Some("Reviews changes"));
        assert_eq!(a.source.lines.map(|l| (l.start, l.end)), Some((1, 4)));
        let d = cfg
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::SubagentInvalid)
            .expect("invalid subagent");
        assert_eq!(
            d.source.as_ref().unwrap().path.as_str(),
            ".gemini/agents/nodesc.md"
        );
    }
    let new = with(&[], ".", "0.61.0");
    assert_eq!(new.subagents[0].applicability, Applicability::Conditional);
    assert!(new.subagents[0].reason.contains("acknowledg"));
    let old = with(&[], ".", "0.34.0");
    assert_eq!(old.subagents[0].applicability, Applicability::Excluded);
    assert!(old.subagents[0]
        .reason
        .contains("experimental.enableAgents"));
    let flag = r#"{"experimental": {"enableAgents": true}}"#;
    let old = with(&[(".gemini/settings.json", flag)], ".", "0.34.0");
    assert_eq!(old.subagents[0].applicability, Applicability::Conditional);
}

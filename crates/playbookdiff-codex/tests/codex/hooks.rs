//! Hooks of `.codex/hooks.json` and `[hooks]` in `.codex/config.toml`:
//! listed with their lines, `runs: unknown` until the user trusts their
//! hashes, off under `[features] hooks = false`, never from an untrusted
//! directory; matchers naming no Codex tool; permission modes.

use playbookdiff_adapter::{Adapter, Inputs, TrustEntry, TrustLevel};
use playbookdiff_codex::ADAPTER;
use playbookdiff_model::{DiagnosticCode as D, EffectiveAgentConfig, HookTrigger, Verdict};
use playbookdiff_source::{Repo, WorkingTree};
use playbookdiff_testkit::fs::write;
use playbookdiff_testkit::{assert_says, at_root, diags, rp, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

const HOOKS_JSON: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|apply_patch",
        "hooks": [{ "type": "command", "command": "python3 .codex/hooks/guard.py" }]
      },
      {
        "matcher": "Write|Edit",
        "hooks": [{ "type": "command", "command": "python3 .codex/hooks/guard.py" }]
      }
    ],
    "Notification": [
      { "hooks": [{ "type": "command", "command": "true" }] }
    ]
  }
}
"#;

const CONFIG: &str = r#"sandbox_mode = "workspace-write"

[[hooks.SessionStart]]
hooks = [{ type = "command", command = "sh .codex/hooks/missing.sh", timeout = 5 }]
"#;

fn repo() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "AGENTS.md", "# Rules\n");
    write(t.path(), ".codex/hooks.json", HOOKS_JSON);
    write(t.path(), ".codex/config.toml", CONFIG);
    write(
        t.path(),
        ".codex/hooks/guard.py",
        "import sys\nsys.exit(0)\n",
    );
    t
}

fn compile(t: &tempfile::TempDir) -> EffectiveAgentConfig {
    KIT.compile_dir(t.path(), &at_root())
}

/// Both registration places are read, each hook with the lines of its
/// handler (not the `Notification` one: no event of Codex); the hooks may
/// run, and one `hook-trust-unknown` says why.
#[test]
fn hooks_json_and_config_toml_hooks_are_listed_with_lines_and_unknown_trust() {
    let t = repo();
    let cfg = compile(&t);
    assert_eq!(cfg.hooks.len(), 3, "{:#?}", cfg.hooks);
    let guard = &cfg.hooks[0];
    assert_eq!(guard.source.path.as_str(), ".codex/hooks.json");
    assert_eq!(guard.source.lines.map(|l| l.start), Some(6));
    assert_eq!(guard.trigger, Some(HookTrigger::PreToolUse));
    assert_eq!(
        guard.script.as_ref().map(|s| (s.path.as_str(), s.present)),
        Some((".codex/hooks/guard.py", true))
    );
    assert!(matches!(guard.runs, Verdict::Unknown { .. }));
    assert!(guard.may_run());
    let start = cfg
        .hooks
        .iter()
        .find(|h| h.event == "SessionStart")
        .unwrap();
    assert_eq!(start.source.path.as_str(), ".codex/config.toml");
    assert_eq!(start.source.lines.map(|l| l.start), Some(4));
    assert_eq!(start.handler.timeout_seconds, Some(5));
    assert_eq!(diags(&cfg, D::HookTrustUnknown).len(), 1);
    let missing = diags(&cfg, D::HookScriptMissing);
    assert_eq!(missing.len(), 1);
    assert_says(missing[0], ".codex/hooks/missing.sh");
}

/// A matcher naming only tools Codex does not have never fires: reported
/// at its line, and the hook does not run.
#[test]
fn a_matcher_naming_no_codex_tool_never_fires() {
    let t = repo();
    let cfg = compile(&t);
    let d = diags(&cfg, D::HookMatcherIneffective);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_says(d[0], "`Write|Edit`");
    assert_eq!(
        d[0].source.as_ref().unwrap().lines.map(|l| l.start),
        Some(9)
    );
    let never = &cfg.hooks[1];
    assert!(matches!(never.runs, Verdict::No { .. }), "{:?}", never.runs);
    assert!(!never.may_run());
}

/// An event Codex does not have (`Notification`) is reported for the
/// release, and its hook is not loaded (the app server's `hooks/list`
/// leaves out a hook of an event the release does not have: case
/// `oracle.codex_hook_events`).
#[test]
fn an_event_codex_does_not_have_is_reported() {
    let t = repo();
    let cfg = compile(&t);
    assert!(cfg.hooks.iter().all(|h| h.event != "Notification"));
    let d = diags(&cfg, D::HookEventUnknown);
    assert_eq!(d.len(), 1);
    assert_says(d[0], "`Notification`");
    assert_says(d[0], "Codex 0.171.0");
}

/// `[features] hooks = false` turns every hook off and names its line.
#[test]
fn features_hooks_false_turns_hooks_off() {
    let t = repo();
    write(
        t.path(),
        ".codex/config.toml",
        format!("{CONFIG}\n[features]\nhooks = false\n"),
    );
    let cfg = compile(&t);
    assert!(!cfg.hooks.is_empty());
    for h in &cfg.hooks {
        match &h.runs {
            Verdict::No { source, .. } => {
                assert_eq!(source.as_ref().unwrap().lines.map(|l| l.start), Some(7));
            }
            other => panic!("{}: {other:?}", h.id),
        }
    }
    assert_eq!(diags(&cfg, D::HooksDisabled).len(), 1);
    assert!(diags(&cfg, D::HookTrustUnknown).is_empty());
}

/// An untrusted project's hooks are not read at all.
#[test]
fn an_untrusted_project_registers_no_hook() {
    let t = repo();
    let tree = WorkingTree::open(t.path()).unwrap();
    let repo = Repo::new(&tree);
    let entries = [TrustEntry {
        dir: rp("."),
        level: TrustLevel::Untrusted,
    }];
    let cfg = ADAPTER.compile_with(
        &repo,
        &at_root().context(),
        &Inputs {
            trust: Some(&entries),
            ..Inputs::default()
        },
    );
    assert!(cfg.hooks.is_empty(), "{:#?}", cfg.hooks);
}

/// `sandbox_mode` is listed as a permission mode with its line.
#[test]
fn sandbox_mode_is_a_permission_mode() {
    let t = repo();
    let cfg = compile(&t);
    assert_eq!(cfg.permissions.len(), 1);
    let p = &cfg.permissions[0];
    assert_eq!(
        (p.key.as_str(), p.value.as_str()),
        ("sandbox_mode", "workspace-write")
    );
    assert_eq!(p.source.lines.map(|l| l.start), Some(1));
}

/// Before 0.124.0 Codex runs no hook as it comes (its hooks are a
/// feature that is off; case `oracle.codex_hooks_fire`: 0.123.0 fires
/// none, 0.124.0 those of both files): none is listed, and each file
/// that registers hooks says so once, at its first registration.
#[test]
fn a_release_before_hooks_run_lists_none() {
    let t = repo();
    let at = |v: &str| KIT.compile_dir(t.path(), &at_root().version(v));
    let before = at("0.123.0");
    assert!(before.hooks.is_empty(), "{:#?}", before.hooks);
    let d = diags(&before, D::HooksDisabled);
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_says(
        d[0],
        "Codex 0.123.0 runs none of the 2 hooks `.codex/hooks.json` registers",
    );
    assert_says(d[1], "`.codex/config.toml`");
    assert_says(d[1], "from Codex 0.124.0 on");
    assert!(diags(&before, D::HookTrustUnknown).is_empty());
    let from = at("0.124.0");
    assert_eq!(from.hooks.len(), 3);
    assert!(diags(&from, D::HooksDisabled).is_empty());
}

/// Before 0.129.0 Codex has no hash trust: a trusted project's hooks
/// run, and no `hook-trust-unknown` is said (case
/// `oracle.codex_hooks_fire`: `hooks/list` of 0.128.0 gives no trust
/// status, that of 0.129.0 `untrusted`).
#[test]
fn a_release_before_hash_trust_runs_the_hooks() {
    let t = repo();
    let at = |v: &str| KIT.compile_dir(t.path(), &at_root().version(v));
    let before = at("0.128.0");
    assert_eq!(before.hooks.len(), 3);
    // The hook whose matcher names no Codex tool still never runs.
    let runs: Vec<bool> = before
        .hooks
        .iter()
        .map(|h| h.runs == Verdict::Yes)
        .collect();
    assert_eq!(runs, [true, false, true], "{:#?}", before.hooks);
    assert!(diags(&before, D::HookTrustUnknown).is_empty());
    let from = at("0.129.0");
    assert!(matches!(from.hooks[0].runs, Verdict::Unknown { .. }));
    assert!(matches!(from.hooks[2].runs, Verdict::Unknown { .. }));
    assert_eq!(diags(&from, D::HookTrustUnknown).len(), 1);
}

/// A `hooks.json` with a hook for `SessionStart`, `UserPromptSubmit` and
/// `PreToolUse`.
const FEATURE_HOOKS_JSON: &str = r#"{
  "hooks": {
    "SessionStart": [{ "hooks": [{ "type": "command", "command": "true" }] }],
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "true" }] }],
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "true" }] }]
  }
}
"#;

/// The events of the hooks `cfg` lists as running, sorted.
fn running_events(cfg: &EffectiveAgentConfig) -> Vec<&str> {
    let mut out: Vec<&str> = cfg
        .hooks
        .iter()
        .filter(|h| h.runs == Verdict::Yes)
        .map(|h| h.event.as_str())
        .collect();
    out.sort_unstable();
    out
}

/// A project that turns on the feature `codex_hooks` before 0.124.0
/// runs the hooks of its `hooks.json` for the events the release's
/// feature has (case `oracle.codex_hooks_feature`, bisected: none in
/// 0.113.0, `SessionStart` and `Stop` from 0.114.0, `UserPromptSubmit`
/// from 0.116.0, `PreToolUse` and `PostToolUse` from 0.117.0), never
/// those of `[hooks]` in `config.toml`, which a `hooks-disabled` names.
#[test]
fn the_hooks_feature_runs_the_hooks_json_events_of_the_release() {
    let t = repo();
    write(t.path(), ".codex/hooks.json", FEATURE_HOOKS_JSON);
    write(
        t.path(),
        ".codex/config.toml",
        format!("{CONFIG}\n[features]\ncodex_hooks = true\n"),
    );
    let at = |v: &str| KIT.compile_dir(t.path(), &at_root().version(v));
    let rows: [(&str, &[&str]); 5] = [
        ("0.113.0", &[]),
        ("0.114.0", &["SessionStart"]),
        ("0.116.0", &["SessionStart", "UserPromptSubmit"]),
        (
            "0.117.0",
            &["PreToolUse", "SessionStart", "UserPromptSubmit"],
        ),
        (
            "0.123.0",
            &["PreToolUse", "SessionStart", "UserPromptSubmit"],
        ),
    ];
    for (v, events) in rows {
        let cfg = at(v);
        assert_eq!(running_events(&cfg), events, "{v}");
        assert_eq!(cfg.hooks.len(), events.len(), "{v}: {:#?}", cfg.hooks);
        assert!(diags(&cfg, D::HookNotModelled).is_empty(), "{v}");
        let d = diags(&cfg, D::HooksDisabled);
        let toml = d
            .iter()
            .find(|d| d.message.contains("`.codex/config.toml` registers"))
            .unwrap_or_else(|| panic!("{v}: {d:#?}"));
        assert_says(
            *toml,
            "`.codex/config.toml` turns on the feature `codex_hooks`",
        );
    }
    assert_says(
        diags(&at("0.114.0"), D::HooksDisabled)[0],
        "runs none of the 2 hooks `.codex/hooks.json` registers here",
    );
    // From 0.124.0 hooks run as they come: the `[hooks]` one too.
    assert_eq!(at("0.124.0").hooks.len(), 4);
}

/// The closest layer that sets the feature decides: a subdirectory whose
/// `.codex/config.toml` sets `codex_hooks = false` under a project root
/// that sets it `true` runs none; the root's setting alone runs them.
#[test]
fn the_closest_layer_setting_the_hooks_feature_decides() {
    let t = repo();
    write(t.path(), ".codex/hooks.json", FEATURE_HOOKS_JSON);
    write(
        t.path(),
        ".codex/config.toml",
        "[features]\ncodex_hooks = true\n",
    );
    write(
        t.path(),
        "sub/.codex/config.toml",
        "[features]\ncodex_hooks = false\n",
    );
    let at = |cwd: &str| KIT.compile_dir(t.path(), &at_root().cwd(cwd).version("0.120.0"));
    let off = at("sub");
    assert!(off.hooks.is_empty(), "{:#?}", off.hooks);
    let d = diags(&off, D::HooksDisabled);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_says(
        d[0],
        "only with the feature `[features] codex_hooks = true`",
    );
    assert_eq!(at(".").hooks.len(), 3);
}

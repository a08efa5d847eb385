//! Hooks (`.github/hooks/*.json`, and Claude Code's `.claude/settings.json`
//! in 1.0.102) and custom agents (`.github/agents`, `.claude/agents`) as
//! items: their cross-harness meaning, provenance with lines, where their
//! scripts resolve, the trust the analysis cannot see, and which release
//! runs what.

use playbookdiff_copilot::ADAPTER;
use playbookdiff_model::{
    AgentMode, Applicability, DiagnosticCode, EffectiveAgentConfig, HookTrigger, Verdict,
};
use playbookdiff_testkit::{at_root, copy_to_temp, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));
const NEW: &str = "1.0.102";
const OLD: &str = "1.0.24";

/// Fixture `skills_agents_mcp` with `files` written over it, compiled
/// from `cwd` as `version`.
fn with(files: &[(&str, &str)], cwd: &str, version: &str) -> EffectiveAgentConfig {
    let dir = copy_to_temp(&KIT.fixture("skills_agents_mcp"));
    for (p, text) in files {
        let f = dir.path().join(p);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, text).unwrap();
    }
    KIT.compile_dir(dir.path(), &at_root().cwd(cwd).version(version))
}

/// `(file, event, trigger)` of each hook.
fn hooks(cfg: &EffectiveAgentConfig) -> Vec<(String, String, Option<HookTrigger>)> {
    cfg.hooks
        .iter()
        .map(|h| (h.source.path.to_string(), h.event.clone(), h.trigger))
        .collect()
}

const GUARD: &str = r#"{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "./scripts/guard.sh", "timeoutSec": 10}
    ],
    "PostToolUse": [
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/scripts/missing.sh"}]}
    ],
    "errorOccurred": [{"type": "command", "bash": "true"}],
    "preToolUsed": [{"type": "command", "bash": "true"}]
  }
}
"#;

const CLAUDE: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/guard.sh"}]}
    ],
    "InstructionsLoaded": [{"hooks": [{"type": "command", "command": "true"}]}]
  }
}
"#;

/// Both file layouts (flat handlers with `bash`, Claude Code's groups),
/// both event spellings, lines per handler, scripts from the git root,
/// and the problems: an unknown event, a missing script.
#[test]
fn hook_files_are_items() {
    let files = [
        (".github/hooks/guard.json", GUARD),
        ("scripts/guard.sh", "exit 0\n"),
    ];
    for v in [NEW, OLD] {
        let cfg = with(&files, ".", v);
        let guard: Vec<_> = cfg
            .hooks
            .iter()
            .filter(|h| h.source.path.as_str() == ".github/hooks/guard.json")
            .collect();
        let got: Vec<(&str, Option<HookTrigger>)> = guard
            .iter()
            .map(|h| (h.event.as_str(), h.trigger))
            .collect();
        assert_eq!(
            got,
            [
                ("preToolUse", Some(HookTrigger::PreToolUse)),
                ("PostToolUse", Some(HookTrigger::PostToolUse)),
                ("errorOccurred", None),
                ("preToolUsed", None),
            ],
            "{v}"
        );
        let pre = guard[0];
        assert_eq!(
            pre.id,
            "copilot:hook:.github/hooks/guard.json:preToolUse:0:0"
        );
        assert_eq!(pre.handler.command.as_deref(), Some("./scripts/guard.sh"));
        assert_eq!(pre.handler.timeout_seconds, Some(10));
        assert_eq!(pre.source.lines.map(|l| (l.start, l.end)), Some((5, 5)));
        let script = pre.script.as_ref().unwrap();
        assert_eq!(
            (script.path.as_str(), script.present),
            ("scripts/guard.sh", true)
        );
        let post = guard[1];
        // 1.0.24 ignores a tool event's matcher.
        let matcher = (v == NEW).then_some("Edit");
        assert_eq!(post.matcher.as_deref(), matcher, "{v}");
        assert_eq!(post.source.lines.map(|l| l.start), Some(8));
        let codes: Vec<DiagnosticCode> = cfg.diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.contains(&DiagnosticCode::HookEventUnknown), "{v}");
        assert!(codes.contains(&DiagnosticCode::HookScriptMissing), "{v}");
    }
}

/// 1.0.102 runs Claude Code's hooks of `.claude/settings.json` (only the
/// events it has), 1.0.24 does not; 1.0.102 runs repository hooks only in
/// a trusted folder (`unknown`, with a diagnostic), 1.0.24 ran them
/// untrusted (`yes`).
#[test]
fn claude_hooks_and_trust_by_release() {
    let files = [
        (".claude/settings.json", CLAUDE),
        ("scripts/guard.sh", "exit 0\n"),
    ];
    let new = with(&files, ".", NEW);
    assert_eq!(
        hooks(&new),
        [
            (
                ".github/hooks/hooks.json".into(),
                "sessionStart".into(),
                Some(HookTrigger::SessionStart)
            ),
            (
                ".claude/settings.json".into(),
                "PreToolUse".into(),
                Some(HookTrigger::PreToolUse)
            ),
        ]
    );
    let claude = &new.hooks[1];
    assert_eq!(
        claude.script.as_ref().unwrap().path.as_str(),
        "scripts/guard.sh"
    );
    assert!(claude.reason.contains("another agent's convention"));
    assert!(new
        .hooks
        .iter()
        .all(|h| matches!(h.runs, Verdict::Unknown { .. }) && h.may_run()));
    assert!(new
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::HookTrustUnknown));
    let old = with(&files, ".", OLD);
    assert_eq!(
        hooks(&old),
        [(
            ".github/hooks/hooks.json".into(),
            "sessionStart".into(),
            Some(HookTrigger::SessionStart)
        )]
    );
    assert_eq!(old.hooks[0].runs, Verdict::Yes);
    assert!(!old
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::HookTrustUnknown));
}

/// Launched in a subdirectory, Copilot CLI still runs the git root's hooks,
/// with scripts from the root.
#[test]
fn hooks_run_from_the_project_root_in_a_subdirectory() {
    let files = [
        (".github/hooks/guard.json", GUARD),
        ("scripts/guard.sh", "exit 0\n"),
    ];
    let cfg = with(&files, "sub", NEW);
    let pre = cfg.hooks.iter().find(|h| h.event == "preToolUse").unwrap();
    let script = pre.script.as_ref().unwrap();
    assert_eq!(
        (script.path.as_str(), script.present),
        ("scripts/guard.sh", true)
    );
    assert_eq!(hooks(&cfg).len(), hooks(&with(&files, ".", NEW)).len());
}

/// A tool event's matcher filters in 1.0.102 and is ignored by 1.0.24,
/// which fires the hook for every tool (seen with both: case
/// `copilot.hook_matchers.read-src-a.txt`): there the hook carries no
/// matcher and the matcher is a diagnostic at its line; a matcher of
/// another event (`subagentStart`) is kept by both.
#[test]
fn tool_matchers_filter_only_in_the_newer_release() {
    let file = r#"{"hooks": {
  "preToolUse": [{"type": "command", "bash": "a.sh", "matcher": "bash"}],
  "postToolUse": [{"matcher": "view", "hooks": [{"type": "command", "bash": "b.sh"}]}],
  "subagentStart": [{"type": "command", "bash": "c.sh", "matcher": "reviewer"}]
}}"#;
    let files = [(".github/hooks/m.json", file)];
    let matchers = |cfg: &EffectiveAgentConfig| -> Vec<(String, Option<String>)> {
        cfg.hooks
            .iter()
            .filter(|h| h.source.path.as_str() == ".github/hooks/m.json")
            .map(|h| (h.event.clone(), h.matcher.clone()))
            .collect()
    };
    let some = |s: &str| Some(s.to_string());
    let new = with(&files, ".", NEW);
    assert_eq!(
        matchers(&new),
        [
            ("preToolUse".into(), some("bash")),
            ("postToolUse".into(), some("view")),
            ("subagentStart".into(), some("reviewer")),
        ]
    );
    assert!(!new
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::HookMatcherIneffective));
    let old = with(&files, ".", OLD);
    assert_eq!(
        matchers(&old),
        [
            ("preToolUse".into(), None),
            ("postToolUse".into(), None),
            ("subagentStart".into(), some("reviewer")),
        ]
    );
    let ignored: Vec<(Option<u32>, bool)> = old
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::HookMatcherIneffective)
        .map(|d| {
            (
                d.source.as_ref().and_then(|s| s.lines).map(|l| l.start),
                d.message.contains("filters nothing"),
            )
        })
        .collect();
    assert_eq!(ignored, [(Some(2), true), (Some(3), true)]);
}

/// `disableAllHooks: true` turns off the hooks of its own file only.
#[test]
fn disable_all_hooks_is_per_file() {
    let off = r#"{"disableAllHooks": true, "hooks": {"agentStop": [{"bash": "x.sh"}]}}"#;
    let cfg = with(&[(".github/hooks/off.json", off)], ".", OLD);
    let by_file: Vec<(&str, bool)> = cfg
        .hooks
        .iter()
        .map(|h| (h.source.path.as_str(), h.may_run()))
        .collect();
    assert_eq!(
        by_file,
        [
            (".github/hooks/hooks.json", true),
            (".github/hooks/off.json", false)
        ]
    );
}

/// Custom agents of `.github/agents` (any `.md`; `.agent.md` wins a stem)
/// and `.claude/agents`, from the launch directory up to the git root, the
/// first of an id kept; a file without `description` is skipped with a
/// diagnostic; `disable-model-invocation` keeps one out of the `task` tool.
#[test]
fn custom_agents_are_items() {
    let files = [
        (
            ".github/agents/reviewer.md",
            "---\nname: plain\ndescription: Loses to reviewer.agent.md.\n---\n",
        ),
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Claude's.\n---\n",
        ),
        (
            ".claude/agents/quiet.md",
            "---\ndescription: User only.\ndisable-model-invocation: true\n---\n",
        ),
        (".claude/agents/broken.md", "---\nname: broken\n---\n"),
        (
            "sub/.github/agents/local.agent.md",
            "---\ndescription: Local.\ntools: read, edit\n---\n",
        ),
    ];
    for v in [NEW, OLD] {
        let cfg = with(&files, ".", v);
        let got: Vec<(&str, &str, Applicability, AgentMode)> = cfg
            .subagents
            .iter()
            .map(|a| {
                (
                    a.name.as_str(),
                    a.source.path.as_str(),
                    a.applicability,
                    a.mode,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "reviewer",
                    ".github/agents/reviewer.agent.md",
                    Applicability::Effective,
                    AgentMode::Subagent
                ),
                (
                    "helper",
                    ".claude/agents/helper.md",
                    Applicability::Effective,
                    AgentMode::Subagent
                ),
                (
                    "quiet",
                    ".claude/agents/quiet.md",
                    Applicability::Effective,
                    AgentMode::Primary
                ),
                (
                    "reviewer",
                    ".claude/agents/reviewer.md",
                    Applicability::Shadowed,
                    AgentMode::Subagent
                ),
            ],
            "{v}"
        );
        assert_eq!(cfg.subagents[0].listed_by.as_deref(), Some("task"));
        assert_eq!(
            cfg.subagents[0].source.lines.map(|l| (l.start, l.end)),
            Some((1, 4))
        );
        assert!(cfg.subagents[1]
            .reason
            .contains("another agent's convention"));
        let bad = cfg
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::SubagentInvalid)
            .expect("no description");
        assert_eq!(
            bad.source.as_ref().unwrap().path.as_str(),
            ".claude/agents/broken.md"
        );
        let sub = with(&files, "sub", v);
        let local = &sub.subagents[0];
        assert_eq!(
            (local.name.as_str(), local.tools.clone()),
            ("local", Some(vec!["read".to_string(), "edit".to_string()]))
        );
    }
}

/// 1.0.102 has two events 1.0.24 does not (`preMcpToolCall` and
/// `userPromptTransformed`, listed as `hooks.<event>` in 1.0.102's own
/// settings schema): known to 1.0.102 with no cross-harness meaning, an
/// unknown event for 1.0.24, which names them in `hook-event-unknown`.
#[test]
fn hook_events_by_release() {
    const NEWER: &str = r#"{
  "version": 1,
  "hooks": {
    "preMcpToolCall": [{"type": "command", "bash": "true"}],
    "userPromptTransformed": [{"type": "command", "bash": "true"}]
  }
}
"#;
    let files = [(".github/hooks/newer.json", NEWER)];
    let unknown = |cfg: &EffectiveAgentConfig| -> Vec<String> {
        cfg.diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::HookEventUnknown)
            .map(|d| d.message.clone())
            .collect()
    };
    let new = with(&files, ".", NEW);
    let got: Vec<_> = hooks(&new)
        .into_iter()
        .filter(|(f, ..)| f == ".github/hooks/newer.json")
        .collect();
    assert_eq!(
        got,
        [
            (
                ".github/hooks/newer.json".to_string(),
                "preMcpToolCall".to_string(),
                None
            ),
            (
                ".github/hooks/newer.json".to_string(),
                "userPromptTransformed".to_string(),
                None
            ),
        ]
    );
    assert!(unknown(&new).is_empty(), "{:?}", unknown(&new));
    let old = unknown(&with(&files, ".", OLD));
    assert_eq!(old.len(), 2, "{old:?}");
    assert!(old[0].contains("preMcpToolCall"), "{old:?}");
    assert!(old[1].contains("userPromptTransformed"), "{old:?}");
}

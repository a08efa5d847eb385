//! What Cursor receives from each fixture, per its documentation: the
//! four rule types, the workspace files, nested folders, skills, commands,
//! MCP servers and hooks, and the assumption every result carries.

use playbookdiff_cursor::ADAPTER;
use playbookdiff_model::{
    Applicability, DiagnosticCode, EffectiveAgentConfig, LoadPhase, Transport,
};
use playbookdiff_testkit::{at_root, has_code, one_at, server, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// Compiles fixture `name` from `cwd`, with `target` when given.
fn run(name: &str, cwd: &str, target: Option<&str>) -> EffectiveAgentConfig {
    let ctx = at_root().cwd(cwd);
    let ctx = match target {
        Some(t) => ctx.target(t),
        None => ctx,
    };
    KIT.compile_dir(&KIT.fixture(name), &ctx)
}

/// Load phase and applicability of the entry of `path`.
fn state(cfg: &EffectiveAgentConfig, path: &str) -> Option<(LoadPhase, Applicability)> {
    cfg.instruction_at(path)
        .map(|i| (i.load_phase, i.applicability))
}

const STARTUP: Option<(LoadPhase, Applicability)> =
    Some((LoadPhase::Startup, Applicability::Effective));
const LATER: Option<(LoadPhase, Applicability)> =
    Some((LoadPhase::OnDemand, Applicability::Conditional));
const LATER_HIT: Option<(LoadPhase, Applicability)> =
    Some((LoadPhase::OnDemand, Applicability::Effective));

/// Every fixture, from every launch directory tried, says it is not
/// verified: the diagnostic and the first assumption.
#[test]
fn every_result_says_it_is_unverified() {
    for (name, cwd) in [
        ("rules_types", "."),
        ("rules_types", "apps/web"),
        ("mcp_hooks_skills", "."),
        ("malformed", "."),
    ] {
        let cfg = run(name, cwd, None);
        assert!(
            has_code(&cfg, DiagnosticCode::BehaviourUnverified),
            "{name} {cwd}"
        );
        assert!(
            cfg.assumptions[0].starts_with("Not verified against the agent"),
            "{name} {cwd}"
        );
    }
}

/// Always rules, then AGENTS.md, then .cursorrules at startup; the other
/// three types later; a plain `.md` and a quoted `alwaysApply` are not
/// always applied.
#[test]
fn the_four_rule_types() {
    let cfg = run("rules_types", ".", None);
    let startup: Vec<&str> = cfg
        .received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup)
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(
        startup,
        [".cursor/rules/always.mdc", "AGENTS.md", ".cursorrules"]
    );
    for p in [
        ".cursor/rules/frontend/typescript.mdc",
        ".cursor/rules/frontend/ui.mdc",
        ".cursor/rules/migrations.mdc",
        ".cursor/rules/release.mdc",
        ".cursor/rules/quoted.mdc",
    ] {
        assert_eq!(state(&cfg, p), LATER, "{p}");
    }
    assert_eq!(
        state(&cfg, ".cursor/rules/README.md"),
        Some((LoadPhase::Startup, Applicability::Excluded))
    );
    one_at(
        &cfg,
        DiagnosticCode::RuleNotLoaded,
        ".cursor/rules/README.md",
    );
    one_at(
        &cfg,
        DiagnosticCode::InvalidValue,
        ".cursor/rules/quoted.mdc",
    );
    let ts = cfg
        .instruction_at(".cursor/rules/frontend/typescript.mdc")
        .unwrap();
    assert_eq!(
        ts.paths.as_deref(),
        Some(&["src/**/*.ts".to_string(), "**/*.tsx".to_string()][..])
    );
    assert_eq!(
        ts.content, "Prefer type over interface.\n",
        "front matter left out"
    );
    assert!(cfg
        .instruction_at(".cursor/rules/migrations.mdc")
        .unwrap()
        .reason
        .contains("agent-requested"));
    assert!(cfg
        .instruction_at(".cursor/rules/release.mdc")
        .unwrap()
        .reason
        .contains("@-mentions"));
}

/// A target matching a rule's globs attaches it; globs are anchored at the
/// workspace (`src/**` does not match `apps/web/src`).
#[test]
fn globs_attach_for_a_matching_target() {
    let cfg = run("rules_types", ".", Some("src/ui/button.ts"));
    assert_eq!(
        state(&cfg, ".cursor/rules/frontend/typescript.mdc"),
        LATER_HIT
    );
    assert_eq!(state(&cfg, ".cursor/rules/frontend/ui.mdc"), LATER_HIT);
    let cfg = run("rules_types", ".", Some("apps/web/src/main.ts"));
    assert_eq!(state(&cfg, ".cursor/rules/frontend/ui.mdc"), LATER);
    assert_eq!(state(&cfg, ".cursor/rules/frontend/typescript.mdc"), LATER);
}

/// A nested `.cursor/rules` and `AGENTS.md` apply to their folder: later
/// from the root (attached for a target there, globs from the folder);
/// the workspace's own from a launch in that folder, where nothing above
/// is read.
#[test]
fn nested_folders_are_scoped() {
    let cfg = run("rules_types", ".", None);
    for p in [
        "apps/web/.cursor/rules/web.mdc",
        "apps/web/.cursor/rules/web-src.mdc",
        "apps/web/AGENTS.md",
    ] {
        assert_eq!(state(&cfg, p), LATER, "{p}");
    }
    let cfg = run("rules_types", ".", Some("apps/web/src/main.ts"));
    for p in [
        "apps/web/.cursor/rules/web.mdc",
        "apps/web/.cursor/rules/web-src.mdc",
        "apps/web/AGENTS.md",
    ] {
        assert_eq!(state(&cfg, p), LATER_HIT, "{p}");
    }
    let cfg = run("rules_types", "apps/web", None);
    let startup: Vec<&str> = cfg
        .received_instructions()
        .into_iter()
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(
        startup,
        ["apps/web/.cursor/rules/web.mdc", "apps/web/AGENTS.md"]
    );
    assert_eq!(
        state(&cfg, "AGENTS.md"),
        None,
        "nothing above the workspace"
    );
}

/// Skills of the four roots, the first of two names kept, one without
/// front matter skipped; commands listed for the user only.
#[test]
fn skills_and_commands() {
    let cfg = run("mcp_hooks_skills", ".", None);
    let skills: Vec<(&str, Applicability)> = cfg
        .skills
        .iter()
        .map(|s| (s.source.path.as_str(), s.applicability))
        .collect();
    assert_eq!(
        skills,
        [
            (".cursor/skills/deploy/SKILL.md", Applicability::Effective),
            (".agents/skills/deploy/SKILL.md", Applicability::Shadowed),
            (".claude/skills/review/SKILL.md", Applicability::Effective),
            (".codex/skills/broken/SKILL.md", Applicability::Excluded),
        ]
    );
    assert!(has_code(&cfg, DiagnosticCode::SkillNameCollision));
    one_at(
        &cfg,
        DiagnosticCode::SkillFieldMissing,
        ".codex/skills/broken/SKILL.md",
    );
    assert_eq!(cfg.commands.len(), 1);
    assert_eq!(cfg.commands[0].name, "review");
    assert!(!cfg.commands[0].listed_to_model);
}

/// `${env:NAME}` stays a reference, a literal secret is redacted and
/// reported, an entry without `command` or `url` is reported.
#[test]
fn mcp_servers() {
    let cfg = run("mcp_hooks_skills", ".", None);
    let docs = server(&cfg, "docs");
    assert_eq!(docs.transport, Transport::Stdio);
    let json = serde_json::to_string(&cfg).unwrap();
    assert!(json.contains("${env:DOCS_TOKEN}"));
    assert!(
        !json.contains("sk-live-0123456789abcdefghij"),
        "secret printed"
    );
    assert_eq!(server(&cfg, "search").transport, Transport::Http);
    one_at(&cfg, DiagnosticCode::McpLiteralSecret, ".cursor/mcp.json");
    one_at(&cfg, DiagnosticCode::McpInvalidEntry, ".cursor/mcp.json");
    assert_eq!(server(&cfg, "empty").applicability, Applicability::Excluded);
}

/// Hooks in Cursor's flat shape: scripts resolved from the workspace, a
/// missing one and an unknown event reported, triggers mapped, lines
/// given.
#[test]
fn hooks() {
    let cfg = run("mcp_hooks_skills", ".", None);
    let events: Vec<&str> = cfg.hooks.iter().map(|h| h.event.as_str()).collect();
    assert_eq!(
        events,
        [
            "beforeShellExecution",
            "preToolUse",
            "afterFileEdit",
            "beforeShellExec",
            "stop"
        ]
    );
    let pre = &cfg.hooks[1];
    assert_eq!(pre.matcher.as_deref(), Some("Shell"));
    assert_eq!(
        pre.trigger,
        Some(playbookdiff_model::HookTrigger::PreToolUse)
    );
    assert!(pre.script.as_ref().is_some_and(|s| s.present));
    assert_eq!(pre.source.lines.map(|l| l.start), Some(8));
    assert_eq!(cfg.hooks[0].trigger, None);
    assert_eq!(cfg.hooks[4].handler.timeout_seconds, Some(10));
    one_at(
        &cfg,
        DiagnosticCode::HookScriptMissing,
        ".cursor/hooks.json",
    );
    one_at(&cfg, DiagnosticCode::HookEventUnknown, ".cursor/hooks.json");
}

/// Broken JSON is a diagnostic with file and line, and nothing of the file
/// is used.
#[test]
fn malformed_files() {
    let cfg = run("malformed", ".", None);
    let d = one_at(&cfg, DiagnosticCode::InvalidJson, ".cursor/mcp.json");
    assert!(d.source.as_ref().and_then(|s| s.lines).is_some());
    assert!(cfg.mcp_servers.is_empty());
    one_at(&cfg, DiagnosticCode::InvalidJson, ".cursor/hooks.json");
    assert!(cfg.hooks.is_empty());
    assert_eq!(state(&cfg, "AGENTS.md"), STARTUP);
}

/// Front matter that is not valid YAML (`globs: *.py` starts with an
/// alias) is read from its lines, as Cursor's documentation writes it.
#[test]
fn unquoted_globs_are_read_from_their_lines() {
    let cfg = run("unquoted_globs", ".", Some("main.py"));
    let py = cfg.instruction_at(".cursor/rules/python.mdc").unwrap();
    assert_eq!(
        py.paths.as_deref(),
        Some(&["*.py".to_string(), "scripts/**".to_string()][..])
    );
    assert_eq!(state(&cfg, ".cursor/rules/python.mdc"), LATER_HIT);
    assert_eq!(state(&cfg, ".cursor/rules/sql.mdc"), STARTUP);
    assert!(!has_code(&cfg, DiagnosticCode::InvalidFrontmatter));
}

/// Nested `AGENTS.md` files wait for a file of their folder; a `CLAUDE.md`
/// is not read; the legacy `.cursorrules` is.
#[test]
fn nested_agents_and_legacy_file() {
    let cfg = run("nested_agents", ".", Some("pkg/a/x.ts"));
    assert_eq!(state(&cfg, "AGENTS.md"), STARTUP);
    assert_eq!(state(&cfg, "pkg/a/AGENTS.md"), LATER_HIT);
    assert_eq!(state(&cfg, "pkg/b/AGENTS.md"), LATER);
    let cfg = run("cursorrules_only", ".", None);
    assert_eq!(state(&cfg, ".cursorrules"), STARTUP);
    assert_eq!(state(&cfg, "CLAUDE.md"), None);
}

//! Fixture tests for the Codex adapter: one tiny repository per case of
//! spec 004's fixture checklist and of field reports 12–16, each with
//! assertions of the facts the case exists for. Symlink cases are built in
//! a temporary directory inside the test.

use playbookdiff_model::{
    AdvertisementState, AnalysisContext, Applicability, ConfiguredValue, DiagnosticCode,
    EffectiveAgentConfig, InstructionKind, Mode, Permission, RepoPath, ResolutionStrategy,
    Severity, SourceFormat, SourceScope, Transport,
};
use playbookdiff_source::{Repo, WorkingTree};

use playbookdiff_testkit::fs::{link, snapshot, write};
use playbookdiff_testkit::{
    assert_contains, assert_says, at_root, chain, diags, instruction as inst, one_diag, rp, server,
    skill, Ctx, Kit,
};

static KIT: Kit = Kit::new(&playbookdiff_codex::ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// The skill applicability table of these fixtures ([`Kit::run_skill_table`]).
const SKILLS: &str = include_str!("skills.toml");

#[test]
fn skill_tables_hold() {
    KIT.assert_skill_table(SKILLS);
}

fn json(c: &EffectiveAgentConfig) -> String {
    serde_json::to_string(c).expect("serializes")
}

// ----- spec 004 fixture checklist -----

#[test]
fn root_agents_md() {
    let c = KIT.run("root_agents_md", ".");
    assert_eq!(chain(&c), [("AGENTS.md".to_string(), 0)]);
    let i = inst(&c, "AGENTS.md");
    assert_eq!(i.id, "codex:agents-md:AGENTS.md");
    assert_eq!(i.kind, InstructionKind::AgentsMd);
    assert_eq!(i.applies_to, RepoPath::root());
    assert_eq!(i.source.scope, SourceScope::Project);
    assert_eq!(i.source.format, SourceFormat::Markdown);
    assert_eq!(i.source.lines.map(|l| (l.start, l.end)), Some((1, 2)));
    assert_eq!(i.bytes, i.content.len() as u64);
    assert_eq!(i.load_phase, playbookdiff_model::LoadPhase::Startup);
    assert_eq!(c.harness, playbookdiff_codex::HARNESS);
}

#[test]
fn nested_agents_md() {
    let c = KIT.run("nested_agents_md", "apps/api");
    assert_eq!(
        chain(&c),
        [
            ("AGENTS.md".to_string(), 0),
            ("apps/api/AGENTS.md".to_string(), 1)
        ]
    );
    assert_eq!(inst(&c, "apps/api/AGENTS.md").applies_to, rp("apps/api"));
}

#[test]
fn nested_agents_override() {
    let c = KIT.run("nested_agents_override", "apps/api");
    // The override replaces only its own level: the root file still loads.
    assert_eq!(
        chain(&c),
        [
            ("AGENTS.md".to_string(), 0),
            ("apps/api/AGENTS.override.md".to_string(), 1)
        ]
    );
    let shadowed = inst(&c, "apps/api/AGENTS.md");
    assert_eq!(shadowed.applicability, Applicability::Shadowed);
    assert_eq!(shadowed.order, None);
    let res = shadowed.resolution.as_ref().expect("resolution");
    assert_eq!(res.strategy, ResolutionStrategy::Shadowed);
    assert_eq!(res.sources, [rp("apps/api/AGENTS.override.md")]);
    let winner = inst(&c, "apps/api/AGENTS.override.md");
    assert_eq!(
        winner.resolution.as_ref().map(|r| r.sources.clone()),
        Some(vec![rp("apps/api/AGENTS.md")])
    );
}

#[test]
fn root_agents_override() {
    let c = KIT.run("root_agents_override", "sub");
    assert_eq!(
        chain(&c),
        [
            ("AGENTS.override.md".to_string(), 0),
            ("sub/AGENTS.md".to_string(), 1)
        ]
    );
    assert_eq!(inst(&c, "AGENTS.md").applicability, Applicability::Shadowed);
    // The shadowed file is a repository problem at its own path (repo
    // mode), and information in local mode, where the override may be
    // the user's own file.
    for (mode, severity) in [
        (Mode::Repo, Severity::Warning),
        (Mode::Local, Severity::Info),
    ] {
        let c = KIT.compile_dir(
            &KIT.fixture("root_agents_override"),
            &Ctx {
                mode,
                ..at_root().cwd("sub")
            },
        );
        let d = diags(&c, DiagnosticCode::InstructionShadowed);
        assert_eq!(d.len(), 1, "{mode:?}: {:?}", c.diagnostics);
        assert_eq!(d[0].severity, severity);
        let at = d[0].source.as_ref().unwrap();
        assert_eq!(at.path.as_str(), "AGENTS.md");
        assert_says(d[0], "`AGENTS.override.md`");
    }
}

/// X7: an empty override hides nothing that a shadowing warning should
/// name: the directory contributes nothing, which its own code reports.
#[test]
fn an_empty_override_is_not_an_instruction_shadowed_warning() {
    let c = KIT.run("empty_instruction_skipped", "sub");
    assert!(
        !c.diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::InstructionShadowed),
        "{:?}",
        c.diagnostics
    );
}

#[test]
fn fallback_filename() {
    let c = KIT.run("fallback_filename", "docs");
    assert_eq!(
        chain(&c),
        [
            ("TEAM_GUIDE.md".to_string(), 0),
            ("docs/TEAM_GUIDE.md".to_string(), 1)
        ]
    );
    assert_eq!(
        inst(&c, "TEAM_GUIDE.md").id,
        "codex:agents-md:TEAM_GUIDE.md"
    );
}

#[test]
fn instruction_byte_limit() {
    // X8: one budget root first; the file crossing it is cut at that byte.
    let c = KIT.run("instruction_byte_limit", "pkg");
    assert_eq!(chain(&c).len(), 2);
    let root = inst(&c, "AGENTS.md");
    assert_eq!(root.truncated_at_byte, None);
    assert_eq!(root.content.len() as u64, root.bytes);
    let pkg = inst(&c, "pkg/AGENTS.md");
    assert_eq!(pkg.bytes, 80);
    assert_eq!(pkg.truncated_at_byte, Some(40));
    assert_eq!(pkg.content.len(), 40);
    let d = one_diag(&c, "instruction-budget-exceeded");
    assert_eq!(d.severity, Severity::Warning);
    for part in [
        "project_doc_max_bytes = 100 (set in `.codex/config.toml`)",
        "`pkg/AGENTS.md` is cut after byte 40 of 80",
        "no file is dropped",
    ] {
        assert!(d.message.contains(part), "{part}: {}", d.message);
    }
    assert!(!d.message.contains("may"), "{}", d.message);
    assert_eq!(
        d.source.as_ref().map(|s| s.path.as_str()),
        Some(".codex/config.toml")
    );
}

#[test]
fn different_cwd_values() {
    // cwd = root: only the root file, even with a deeper targetPath.
    let c = KIT.compile_at(
        &KIT.fixture("different_cwd_values"),
        ".",
        Some("apps/api/file.ts"),
    );
    assert_eq!(chain(&c), [("AGENTS.md".to_string(), 0)]);
    let api = inst(&c, "apps/api/AGENTS.md");
    assert_eq!(api.applicability, Applicability::OutOfScope);
    assert_eq!(api.order, None);
    assert_contains(&api.reason, "targetPath apps/api/file.ts");
    // cwd = apps/api: root then API file.
    let c = KIT.run("different_cwd_values", "apps/api");
    assert_eq!(
        chain(&c),
        [
            ("AGENTS.md".to_string(), 0),
            ("apps/api/AGENTS.md".to_string(), 1)
        ]
    );
    // A sibling directory as cwd: neither nested file is on its chain.
    let c = KIT.run("different_cwd_values", "apps");
    assert_eq!(chain(&c), [("AGENTS.md".to_string(), 0)]);
}

#[test]
fn root_agents_skills() {
    let c = KIT.run("root_agents_skills", ".");
    let s = skill(&c, ".agents/skills/deploy/SKILL.md");
    assert_eq!(s.id, "codex:skill:.agents/skills/deploy/SKILL.md");
    assert_eq!(s.name, "deploy");
    assert_eq!(s.directory_name, "deploy");
    assert_eq!(
        s.description.as_deref(),
        Some("Deploy the service to staging.")
    );
    assert_eq!(s.applicability, Applicability::Effective);
    assert_eq!(s.invocation.explicit, Permission::Allowed);
    assert_eq!(s.invocation.implicit, Permission::Allowed);
    assert_eq!(s.advertisement.state, AdvertisementState::Advertised);
    let b = s.advertisement.aggregate_budget.expect("budget");
    assert_eq!((b.max_context_fraction, b.fallback_chars), (0.02, 8000));
    assert_eq!(s.source.lines.map(|l| (l.start, l.end)), Some((1, 4)));
    // The reason names the skills root as it is spelled, at the root too.
    assert!(
        s.reason
            .starts_with("Found in the .agents/skills of cwd itself:"),
        "{}",
        s.reason
    );
    assert_eq!(
        one_diag(&c, "skill-user-state-unknown").severity,
        Severity::Info
    );
}

#[test]
fn nested_agents_skills() {
    let c = KIT.run("nested_agents_skills", "apps/api");
    let effective: Vec<&str> = c
        .skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(
        effective,
        ["api-tests", "lint"],
        "closest scan location first"
    );
    // apps/web is a sibling of cwd: neither scanned nor listed.
    assert!(
        c.skills
            .iter()
            .all(|s| !s.source.path.starts_with(&rp("apps/web"))),
        "{:#?}",
        c.skills
    );
    // ...unless the agent is expected to work there: then its skill is
    // listed out-of-scope, on the way to targetPath.
    let c = KIT.compile_at(
        &KIT.fixture("nested_agents_skills"),
        "apps/api",
        Some("apps/web/src/x.ts"),
    );
    let web = skill(&c, "apps/web/.agents/skills/web-tests/SKILL.md");
    assert_eq!(web.applicability, Applicability::OutOfScope);
    assert_contains(&web.reason, "on the way to targetPath");
    // From the root, the nested skill is below cwd: never scanned.
    let c = KIT.compile_at(
        &KIT.fixture("nested_agents_skills"),
        ".",
        Some("apps/api/src/x.ts"),
    );
    let api = skill(&c, "apps/api/.agents/skills/api-tests/SKILL.md");
    assert_eq!(api.applicability, Applicability::OutOfScope);
    assert!(api.reason.contains("below cwd"), "{}", api.reason);
    assert_eq!(api.advertisement.state, AdvertisementState::Hidden);
}

#[test]
fn duplicate_skill_names() {
    let c = KIT.run("duplicate_skill_names", "apps/api");
    let a = skill(&c, "apps/api/.agents/skills/deploy/SKILL.md");
    let b = skill(&c, ".agents/skills/deploy/SKILL.md");
    assert_ne!(a.id, b.id);
    assert_eq!(a.name, b.name);
    assert_eq!(a.cross_references, std::slice::from_ref(&b.id));
    assert_eq!(b.cross_references, std::slice::from_ref(&a.id));
    assert_eq!(a.applicability, Applicability::Effective);
    assert_eq!(b.applicability, Applicability::Effective);
    one_diag(&c, "skill-name-collision");
}

#[test]
fn root_codex_config() {
    let c = KIT.run("root_codex_config", ".");
    assert_eq!(chain(&c), [("GUIDE.md".to_string(), 0)]);
    assert!(diags(&c, "instruction-budget-risk").is_empty());
    assert!(!json(&c).contains("o3"), "unrelated keys are not read");
    one_diag(&c, "project-trust-assumed");
}

#[test]
fn nested_codex_config() {
    let c = KIT.run("nested_codex_config", "apps/api");
    // The closest layer's fallback list replaces the root's: ROOT.md is not tried.
    assert_eq!(chain(&c), [("apps/api/API.md".to_string(), 0)]);
    // project_doc_max_bytes comes from the root layer (the closer one does not set it).
    let d = one_diag(&c, "instruction-budget-exceeded");
    assert_says(
        d,
        "project_doc_max_bytes = 10 (set in `.codex/config.toml`)",
    );
    assert_eq!(inst(&c, "apps/api/API.md").truncated_at_byte, Some(10));
    let not_applied = one_diag(&c, "config-layer-not-applied");
    assert_eq!(
        not_applied.source.as_ref().map(|s| s.path.as_str()),
        Some("apps/api/tools/.codex/config.toml")
    );
    // From the root, the apps/api layer is below cwd and not applied.
    let c = KIT.run("nested_codex_config", ".");
    assert_eq!(chain(&c), [("ROOT.md".to_string(), 0)]);
    assert_eq!(diags(&c, "config-layer-not-applied").len(), 2);
}

#[test]
fn project_mcp_config() {
    let c = KIT.run("project_mcp_config", ".");
    let docs = server(&c, "docs");
    assert_eq!(docs.id, "codex:mcp:docs");
    assert_eq!(docs.transport, Transport::Stdio);
    assert_eq!(docs.command.as_deref(), Some("npx"));
    assert_eq!(
        docs.args.as_deref(),
        Some(&["-y".to_string(), "@acme/docs-mcp".to_string()][..])
    );
    assert_eq!(docs.env.len(), 1);
    assert_eq!(docs.env[0].name, "DOCS_TOKEN");
    assert_eq!(
        docs.env[0].value,
        ConfiguredValue::Host {
            variable: "DOCS_TOKEN".into()
        }
    );
    assert_eq!(
        docs.enabled_tools.as_deref(),
        Some(&["search".to_string()][..])
    );
    assert_eq!(docs.unknown_fields, ["transport_mode"]);
    assert_eq!(docs.source.lines.map(|l| (l.start, l.end)), Some((1, 8)));
    assert_eq!(docs.source.format, SourceFormat::Toml);
    // X21: Codex passes cwd through unchanged, so "../tools" is taken
    // relative to the launch directory, not to .codex/.
    assert_contains(
        &docs.reason,
        "relative to the directory Codex is started in",
    );
    assert_contains(&docs.reason, "runtime-unverified");
    assert!(!docs.runtime_verified);
    assert!(!docs.capabilities.known);
    assert_eq!(docs.applicability, Applicability::Effective);

    let tracker = server(&c, "tracker");
    assert_eq!(tracker.transport, Transport::Http);
    assert_eq!(tracker.url.as_deref(), Some("https://mcp.example.com/v1"));
    assert_eq!(tracker.headers[0].name, "Authorization");
    assert_eq!(
        tracker.headers[0].value,
        ConfiguredValue::Host {
            variable: "TRACKER_TOKEN".into()
        }
    );
    assert_eq!(
        tracker.disabled_tools.as_deref(),
        Some(&["delete_issue".to_string()][..])
    );
    assert_eq!(
        tracker.source.lines.map(|l| (l.start, l.end)),
        Some((10, 13))
    );

    assert_eq!(server(&c, "legacy").applicability, Applicability::Excluded);
    one_diag(&c, "mcp-runtime-unknown");
}

#[test]
fn duplicate_mcp_across_layers() {
    // X5: Codex deep-merges the two tables; the merged server has both
    // command and url, which Codex refuses (X4): it does not start.
    let c = KIT.run("duplicate_mcp_across_layers", "apps/api");
    assert_eq!(c.mcp_servers.len(), 1);
    let db = server(&c, "db");
    assert_eq!(db.transport, Transport::Unknown);
    assert_eq!(db.command.as_deref(), Some("db-mcp"));
    assert_eq!(db.url.as_deref(), Some("https://db.example.com/mcp"));
    assert_eq!(db.source.path.as_str(), "apps/api/.codex/config.toml");
    let others: Vec<&str> = db.other_sources.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(others, [".codex/config.toml"]);
    assert_eq!(
        db.other_sources[0].lines.map(|l| (l.start, l.end)),
        Some((1, 3))
    );
    assert_eq!(db.applicability, Applicability::Excluded);
    let d = one_diag(&c, "config-refused");
    assert_eq!(d.severity, Severity::Error);
    assert_says(d, "does not start");
    // From the root only one layer applies: a working stdio server.
    let c = KIT.run("duplicate_mcp_across_layers", ".");
    assert_eq!(server(&c, "db").transport, Transport::Stdio);
    assert_eq!(server(&c, "db").applicability, Applicability::Effective);
    assert!(diags(&c, "config-refused").is_empty());
}

#[test]
fn trusted_project_assumption() {
    let c = KIT.run("trusted_project_assumption", ".");
    assert!(c
        .assumptions
        .iter()
        .any(|a| a == playbookdiff_codex::TRUST_ASSUMPTION));
    one_diag(&c, "project-trust-assumed");
    // AGENTS.md is not trust-gated: it loads either way.
    assert_eq!(chain(&c), [("AGENTS.md".to_string(), 0)]);
}

#[test]
fn repo_mode_missing_user_config() {
    for mode in [Mode::Repo, Mode::Local] {
        let c = KIT.compile_dir(
            &KIT.fixture("repo_mode_missing_user_config"),
            &Ctx { mode, ..at_root() },
        );
        // Global instructions live in the user's home, in either mode:
        // user-level, not a local file of the working tree.
        assert!(diags(&c, "local-config-unavailable").is_empty());
        let user = diags(&c, "user-config-unavailable");
        assert!(user
            .iter()
            .any(|d| d.message.contains("$CODEX_HOME/AGENTS.md")));
        assert!(user
            .iter()
            .any(|d| d.message.contains("~/.codex/config.toml")));
        assert!(user.iter().any(|d| d.message.contains("skills")));
        assert!(!diags(&c, "managed-config-unavailable").is_empty());
        // No project layer: no trust diagnostic, but the assumption is stated.
        assert!(diags(&c, "project-trust-assumed").is_empty());
        assert!(!c.assumptions.is_empty());
    }
}

#[test]
fn configured_project_root_marker_is_recorded() {
    let c = KIT.run("project_root_markers", "sub");
    let d = one_diag(&c, "project-root-markers-ignored");
    assert_says(d, "[\".hg\"]");
    assert_eq!(
        d.source
            .as_ref()
            .and_then(|s| s.lines)
            .map(|l| (l.start, l.end)),
        Some((2, 2))
    );
    // The supplied boundary stands: the root file still heads the chain.
    assert_eq!(
        chain(&c),
        [
            ("AGENTS.md".to_string(), 0),
            ("sub/AGENTS.md".to_string(), 1)
        ]
    );
}

#[test]
fn empty_instruction_file_is_skipped() {
    // X7: the first file present is taken; blank, it is dropped and its
    // directory gives nothing, even with a non-empty AGENTS.md beside it.
    let c = KIT.run("empty_instruction_skipped", "sub");
    assert_eq!(chain(&c), []);
    let root = inst(&c, "AGENTS.md");
    assert_eq!(root.applicability, Applicability::Excluded);
    assert_eq!(root.order, None);
    assert_eq!(root.source.lines, None);
    let ws = inst(&c, "sub/AGENTS.override.md");
    assert_eq!(
        ws.applicability,
        Applicability::Excluded,
        "white space only counts as empty"
    );
    let next = inst(&c, "sub/AGENTS.md");
    assert_eq!(next.applicability, Applicability::Shadowed);
    assert_eq!(
        next.resolution.as_ref().map(|r| r.sources.clone()),
        Some(vec![rp("sub/AGENTS.override.md")])
    );
    let d = one_diag(&c, "empty-instruction-precedence");
    assert_says(d, "loads nothing from `sub`");
    assert_eq!(
        d.source.as_ref().map(|s| s.path.as_str()),
        Some("sub/AGENTS.override.md")
    );
}

#[test]
fn configured_fallback_filename_order() {
    let c = KIT.run("fallback_filename_order", "sub");
    assert_eq!(
        chain(&c),
        [
            ("FIRST.md".to_string(), 0),
            ("sub/SECOND.md".to_string(), 1)
        ]
    );
    let second = inst(&c, "SECOND.md");
    assert_eq!(second.applicability, Applicability::Shadowed);
    assert_eq!(
        second.resolution.as_ref().map(|r| r.sources.clone()),
        Some(vec![rp("FIRST.md")])
    );
}

#[test]
fn allow_implicit_invocation_false() {
    let c = KIT.run("allow_implicit_invocation_false", ".");
    let s = skill(&c, ".agents/skills/release/SKILL.md");
    assert_eq!(s.invocation.explicit, Permission::Allowed);
    assert_eq!(s.invocation.implicit, Permission::Blocked);
    assert_eq!(s.metadata_sources.len(), 1);
    let m = &s.metadata_sources[0];
    assert_eq!(m.path.as_str(), ".agents/skills/release/agents/openai.yaml");
    assert_eq!(m.format, SourceFormat::Yaml);
    assert_eq!(m.lines.map(|l| (l.start, l.end)), Some((4, 4)));
}

/// Many skills over the listing budget: the `skill-listing-budget`
/// diagnostic stays a few hundred characters however many skills the
/// budget shortens or omits (it once named all 10,000, 742 of the 816
/// lines of the view), gives each long list as its count with a few
/// names, and each skill's own entry still says what the budget does to
/// it. Both a character budget (window unknown) and a token budget.
#[test]
fn the_listing_budget_diagnostic_stays_short_with_ten_thousand_skills() {
    use playbookdiff_codex::{ContextWindow, Inputs};
    const SKILLS: usize = 10_000;
    let dir = tempfile::tempdir().unwrap();
    // Codex scans at most 2,000 directories per skills root: the skills
    // are spread over the `.agents/skills` roots from the root to cwd.
    let dirs = ["", "a/", "a/b/", "a/b/c/", "a/b/c/d/", "a/b/c/d/e/"];
    for i in 0..SKILLS {
        let name = format!("skill-{i:05}");
        write(
            dir.path(),
            &format!("{}.agents/skills/{name}/SKILL.md", dirs[i % dirs.len()]),
            format!("---\nname: {name}\ndescription: Does task number {i} of the project when asked.\n---\nBody.\n"),
        );
    }
    let tree = WorkingTree::open(dir.path()).unwrap();
    let repo = Repo::new(&tree);
    let context = AnalysisContext {
        cwd: rp("a/b/c/d/e"),
        ..AnalysisContext::at_root()
    };
    let windows = [
        ContextWindow::Unknown,
        ContextWindow::Tokens(std::num::NonZeroU64::new(20_000).unwrap()),
    ];
    for context_window in windows {
        let opts = Inputs {
            context_window,
            ..Inputs::default()
        };
        let c = KIT.adapter.compile_with(&repo, &context, &opts);
        assert_eq!(c.skills.len(), SKILLS, "{context_window:?}");
        let count = |state| {
            c.skills
                .iter()
                .filter(|s| s.advertisement.state == state)
                .count()
        };
        let (shortened, omitted) = (
            count(AdvertisementState::Shortened),
            count(AdvertisementState::Omitted),
        );
        assert!(omitted > 5_000, "{context_window:?}: {omitted} omitted");
        for s in &c.skills {
            let touched = s.advertisement.state != AdvertisementState::Advertised;
            assert_eq!(s.advertisement.budget_cause.is_some(), touched, "{}", s.id);
        }
        let d = one_diag(&c, "skill-listing-budget");
        assert!(
            d.message.chars().count() < 1_500,
            "{context_window:?}: {} characters: {}",
            d.message.chars().count(),
            d.message
        );
        assert_says(d, &format!("skills omitted: {omitted} skills, among them "));
        // A description cut to nothing is "dropped", never "shortened" to
        // "0 of N characters", in the diagnostic and in the skill's entry.
        let dropped: Vec<_> = c
            .skills
            .iter()
            .filter(|s| s.advertisement.shown_description_chars == Some(0))
            .collect();
        assert!(!d.message.contains("(0 of"), "{}", d.message);
        for s in &dropped {
            assert!(s.reason.contains("drops its description"), "{}", s.reason);
            assert!(!s.reason.contains("keeps 0 of"), "{}", s.reason);
        }
        let shortened = shortened - dropped.len();
        assert!(!dropped.is_empty(), "{context_window:?}: none dropped");
        assert_says(d, "descriptions dropped: ");
        if shortened > 5 {
            assert_says(d, &format!("shortened: {shortened} skills, among them "));
        }
        assert_says(d, "Each skill's own entry says");
    }
}

#[test]
fn skill_advertisement_budget_risk() {
    use playbookdiff_codex::{ContextWindow, Inputs};
    let tree = WorkingTree::open(&KIT.fixture("skill_advertisement_budget")).unwrap();
    let repo = Repo::new(&tree);
    // With the default model's window (10,000 tokens for 0.171.0) all fit.
    let c = KIT.run("skill_advertisement_budget", ".");
    assert!(c
        .skills
        .iter()
        .all(|s| s.advertisement.state == AdvertisementState::Advertised));
    assert!(diags(&c, "skill-listing-budget").is_empty());
    // An unknown window: 8,000 characters; the descriptions are shortened
    // evenly, by the repository's skills alone.
    let opts = Inputs {
        context_window: ContextWindow::Unknown,
        ..Inputs::default()
    };
    let c = KIT
        .adapter
        .compile_with(&repo, &AnalysisContext::at_root(), &opts);
    assert_eq!(c.skills.len(), 9);
    for s in &c.skills {
        assert_eq!(s.applicability, Applicability::Effective);
        assert_eq!(
            s.advertisement.state,
            AdvertisementState::Shortened,
            "{}",
            s.id
        );
        assert_eq!(
            s.advertisement.budget_cause,
            Some(playbookdiff_model::BudgetCause::Certain)
        );
        let shown = s.advertisement.shown_description_chars.unwrap();
        assert!(
            shown > 0 && shown < s.advertisement.description_chars,
            "{shown}"
        );
    }
    let d = one_diag(&c, "skill-listing-budget");
    assert_says(d, "8000 characters");
    assert!(!d.message.contains("may"), "{}", d.message);
}

#[test]
fn a_variable_set_in_the_analysers_environment_is_not_resolved() {
    // A value in the analyser's own environment must never leak in.
    let (name, value) = playbookdiff_testkit::host_variable();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".codex")).unwrap();
    std::fs::write(
        dir.path().join(".codex/config.toml"),
        format!(
            "[mcp_servers.api]\ncommand = \"api-mcp\"\nargs = [\"${{{name}}}\"]\nenv = {{ API_BASE = \"${{{name}}}\" }}\n"
        ),
    )
    .unwrap();
    let c = KIT.compile_at(dir.path(), ".", None);
    assert!(!format!("{c:?}").contains(&value), "{name} was resolved");
    let api = server(&c, "api");
    let reference = ConfiguredValue::Reference {
        expression: format!("${{{name}}}"),
    };
    assert_eq!(api.env.len(), 1);
    assert_eq!(api.env[0].value, reference);
    assert_eq!(api.args.as_deref(), Some(&[format!("${{{name}}}")][..]));
}

#[test]
fn symbolic_mcp_env_refs_are_not_resolved() {
    let c = KIT.run("symbolic_mcp_env_refs", ".");
    let api = server(&c, "api");
    let env = |n: &str| {
        api.env
            .iter()
            .find(|e| e.name == n)
            .map(|e| e.value.clone())
    };
    assert_eq!(
        env("API_BASE"),
        Some(ConfiguredValue::Reference {
            expression: "${PBD_TEST_API_BASE_URL}".into()
        })
    );
    assert_eq!(env("LOG_LEVEL"), Some(ConfiguredValue::redacted()));
    assert_eq!(env("OPENAI_API_KEY"), Some(ConfiguredValue::redacted()));
    assert_eq!(
        env("GITHUB_TOKEN"),
        Some(ConfiguredValue::Host {
            variable: "GITHUB_TOKEN".into()
        })
    );
    assert_eq!(
        env("AWS_PROFILE"),
        Some(ConfiguredValue::Host {
            variable: "AWS_PROFILE".into()
        })
    );
    assert_eq!(
        api.args.as_deref(),
        Some(&["--token".to_string(), "${PBD_TEST_API_TOKEN}".to_string()][..])
    );

    let remote = server(&c, "remote");
    assert_eq!(
        remote.url.as_deref(),
        Some("https://<redacted>@mcp.example.com/v1?api_key=<redacted>&region=<redacted>")
    );
    let header = |n: &str| {
        remote
            .headers
            .iter()
            .find(|e| e.name == n)
            .map(|e| e.value.clone())
    };
    assert_eq!(header("X-Api-Key"), Some(ConfiguredValue::redacted()));
    assert_eq!(
        header("X-Trace"),
        Some(ConfiguredValue::Reference {
            expression: "${PBD_TEST_TRACE_ID}".into()
        })
    );
    assert_eq!(
        header("X-Org"),
        Some(ConfiguredValue::Host {
            variable: "ORG_ID".into()
        })
    );
    assert_eq!(
        header("Authorization"),
        Some(ConfiguredValue::Host {
            variable: "REMOTE_TOKEN".into()
        })
    );

    let secrets = diags(&c, "mcp-literal-secret");
    assert_eq!(
        secrets.len(),
        3,
        "env key, URL credentials, API key header: {secrets:#?}"
    );
    assert!(!diags(&c, "mcp-interpolation-undocumented").is_empty());

    let out = json(&c);
    for literal in [
        "sk-test-abcdefghijklmnopqrstuvwx",
        "hunter2secret",
        "AKIAABCDEFGHIJKLMNOP",
        "literal-key-1234567890abcdef",
        "\"debug\"",
        "resolved-from-host",
        "bot:",
    ] {
        assert!(!out.contains(literal), "{literal} leaked into the output");
    }
}

// ----- field reports 12–16 -----

#[test]
fn fr12_budget_shared_across_chain() {
    let c = KIT.run("fr12_budget_shared_across_chain", "apps/go");
    assert_eq!(chain(&c).len(), 2, "the third file is dropped");
    assert_eq!(inst(&c, "AGENTS.md").truncated_at_byte, None);
    let apps = inst(&c, "apps/AGENTS.md");
    assert_eq!(apps.truncated_at_byte, Some(12768));
    assert_eq!(apps.content.len(), 12768);
    let go = inst(&c, "apps/go/AGENTS.md");
    assert_eq!(go.applicability, Applicability::Excluded);
    assert_eq!(go.order, None);
    assert!(go.reason.contains("Dropped"), "{}", go.reason);
    let d = one_diag(&c, "instruction-budget-exceeded");
    for part in [
        "is 36,000 bytes, over project_doc_max_bytes = 32768 (the default)",
        "`apps/AGENTS.md` is cut after byte 12,768 of 13,000",
        "and `apps/go/AGENTS.md` is dropped.",
    ] {
        assert!(
            d.message.contains(part),
            "missing {part:?} in {}",
            d.message
        );
    }
}

#[test]
fn fr13_nested_agents_below_cwd() {
    for target in [None, Some("go/main.go")] {
        let c = KIT.compile_at(&KIT.fixture("fr13_nested_below_cwd"), ".", target);
        assert_eq!(chain(&c), [("AGENTS.md".to_string(), 0)]);
        let go = inst(&c, "go/AGENTS.md");
        assert_eq!(go.applicability, Applicability::OutOfScope);
        assert_eq!(go.order, None);
        assert_eq!(go.id, "codex:agents-md:go/AGENTS.md");
        assert!(go.reason.contains("openai/codex#13288"), "{}", go.reason);
        assert_eq!(
            target.is_some(),
            go.reason.contains("targetPath go/main.go")
        );
    }
}

#[test]
fn fr14_fallback_tried_per_directory() {
    let c = KIT.run("fr14_fallback_per_directory", "a/b");
    // a/b/AGENTS.md is present and blank: it takes a/b's slot (X7).
    assert_eq!(
        chain(&c),
        [
            ("AGENTS.md".to_string(), 0),
            ("a/CONTRIBUTING.md".to_string(), 1),
        ]
    );
    assert_eq!(
        inst(&c, "CONTRIBUTING.md").applicability,
        Applicability::Shadowed
    );
    assert_eq!(
        inst(&c, "a/b/AGENTS.md").applicability,
        Applicability::Excluded
    );
    assert_eq!(
        inst(&c, "a/b/CONTRIBUTING.md").applicability,
        Applicability::Shadowed
    );
    one_diag(&c, "empty-instruction-precedence");
}

#[test]
fn fr16_project_config_needs_trust() {
    let c = KIT.run("fr16_project_config_needs_trust", ".");
    assert!(c
        .assumptions
        .iter()
        .any(|a| a.contains("trusted") && a.contains("MCP")));
    let d = one_diag(&c, "project-trust-assumed");
    assert_eq!(d.severity, Severity::Info);
    let s = server(&c, "search");
    assert_eq!(s.applicability, Applicability::Effective);
    assert!(s.reason.contains("assumed trusted"), "{}", s.reason);
}

// ----- symlink cases (built in a temporary directory) -----

const SKILL: &str = "---\nname: NAME\ndescription: A linked skill.\n---\nBody.\n";

#[test]
fn symlinked_repository_skill() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "shared/skills/deploy/SKILL.md",
        SKILL.replace("NAME", "deploy"),
    );
    link(root, "../../shared/skills/deploy", ".agents/skills/deploy");
    let c = KIT.compile_at(root, ".", None);
    let s = skill(&c, ".agents/skills/deploy/SKILL.md");
    assert_eq!(s.applicability, Applicability::Effective);
    assert_eq!(
        s.source.resolved_path,
        Some(rp("shared/skills/deploy/SKILL.md"))
    );
    assert_eq!(s.name, "deploy");
}

#[test]
fn skill_symlink_outside_repository() {
    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "ext/SKILL.md", SKILL.replace("NAME", "ext"));
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let target = outside.path().join("ext");
    link(
        root,
        target.to_str().expect("utf-8 path"),
        ".agents/skills/ext",
    );
    let c = KIT.compile_at(root, ".", None);
    let s = skill(&c, ".agents/skills/ext/SKILL.md");
    assert_eq!(s.applicability, Applicability::Unavailable);
    assert_eq!(s.description, None, "the outside file is not read");
    assert_eq!(s.advertisement.state, AdvertisementState::Unknown);
    one_diag(&c, "symlink-outside-repository");
    assert!(!json(&c).contains("A linked skill."));
}

#[test]
fn fr15_symlinked_skills() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    for (folder, name) in [("linked", "linked"), ("raw", "filelink")] {
        let skill_md = format!("library/{folder}/SKILL.md");
        write(root, &skill_md, SKILL.replace("NAME", name));
    }
    // Each link: (target, where).
    for (target, at) in [
        // A symlinked skill folder: followed.
        ("../../library/linked", ".agents/skills/linked"),
        // A symlinked SKILL.md file: listed, with the reported conflict.
        (
            "../../../library/raw/SKILL.md",
            ".agents/skills/filelink/SKILL.md",
        ),
        // A loop and a dangling folder link: diagnosed, never a crash.
        ("loop", ".agents/skills/loop"),
        ("../../library/missing", ".agents/skills/gone"),
        // A symlinked .agents/skills root with a wrong relative target.
        ("../wrong/skills", "sub/.agents/skills"),
        // A symlinked .agents/skills root with a right one.
        ("../../library", "ok/.agents/skills"),
    ] {
        link(root, target, at);
    }

    let before = snapshot(root);
    let c = KIT.compile_at(root, "sub", None);
    let linked = skill(&c, ".agents/skills/linked/SKILL.md");
    assert_eq!(linked.applicability, Applicability::Effective);
    assert_eq!(
        linked.source.resolved_path,
        Some(rp("library/linked/SKILL.md"))
    );
    // X12: a SKILL.md that links to a file is never loaded.
    assert!(c
        .skills
        .iter()
        .all(|s| s.source.path.as_str() != ".agents/skills/filelink/SKILL.md"));
    assert!(one_diag(&c, "skill-not-discovered")
        .message
        .contains(".agents/skills/filelink/SKILL.md"));
    one_diag(&c, "symlink-loop");
    let dangling = diags(&c, "symlink-dangling");
    assert_eq!(dangling.len(), 2, "{dangling:#?}");
    assert!(dangling
        .iter()
        .any(|d| d.message.contains("sub/.agents/skills")));
    assert!(dangling
        .iter()
        .any(|d| d.message.contains(".agents/skills/gone")));

    let c = KIT.compile_at(root, "ok", None);
    // The same file reached through two roots is loaded once, from the
    // root scanned first (the repository root's .agents/skills).
    let via_root = skill(&c, ".agents/skills/linked/SKILL.md");
    assert_eq!(via_root.applicability, Applicability::Effective);
    assert_eq!(
        via_root.source.resolved_path,
        Some(rp("library/linked/SKILL.md"))
    );
    assert!(c
        .skills
        .iter()
        .all(|s| s.source.path.as_str() != "ok/.agents/skills/linked/SKILL.md"));
    assert_eq!(before, snapshot(root), "the analysis never writes");
}

#[test]
fn symlinked_agents_md_records_resolved_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "docs/agents.md", "# Shared\n");
    link(root, "docs/agents.md", "AGENTS.md");
    link(
        root,
        "/nonexistent-playbookdiff-target/AGENTS.md",
        "sub/AGENTS.md",
    );
    let c = KIT.compile_at(root, "sub", None);
    assert_eq!(chain(&c), [("AGENTS.md".to_string(), 0)]);
    assert_eq!(
        inst(&c, "AGENTS.md").source.resolved_path,
        Some(rp("docs/agents.md"))
    );
    assert_eq!(
        inst(&c, "sub/AGENTS.md").applicability,
        Applicability::Unavailable
    );
    // Codex 0.171.0 follows such a link and loads its target: the message
    // says so instead of claiming the agent loads nothing from it.
    let d = one_diag(&c, "symlink-outside-repository");
    assert!(
        d.message.contains("the agent follows it") && d.message.contains("cannot say"),
        "{}",
        d.message
    );
    assert!(!d.message.contains("loads nothing"), "{}", d.message);
}

// ----- further rules of spec 004 -----

#[test]
fn invalid_toml_reports_the_line_and_applies_nothing() {
    let c = KIT.run("invalid_toml", ".");
    let d = one_diag(&c, "invalid-toml");
    assert_says(d, "line 3");
    assert_eq!(
        d.source.as_ref().and_then(|s| s.lines).map(|l| l.start),
        Some(3)
    );
    assert!(c.mcp_servers.is_empty());
    // Codex 0.142.3 and 0.171.0 exit 1 ("Error parsing project config
    // file"): the AGENTS.md chain is never sent, so it is excluded, with
    // the refusal as its reason, and the refusal names the line to fix.
    assert!(chain(&c).is_empty(), "{:?}", chain(&c));
    let agents = inst(&c, "AGENTS.md");
    assert_eq!(agents.applicability, Applicability::Excluded);
    assert!(
        agents
            .reason
            .contains("refuses the configuration and does not start"),
        "{}",
        agents.reason
    );
    let refused = one_diag(&c, "config-refused");
    assert!(
        refused
            .message
            .ends_with("fix the syntax at `.codex/config.toml:3`."),
        "{}",
        refused.message
    );
}

#[test]
fn keys_project_config_may_not_set() {
    let c = KIT.run("config_keys_not_allowed", ".");
    let v = diags(&c, "config-key-not-allowed");
    assert_eq!(v.len(), 3, "{v:#?}");
    assert!(v.iter().any(|d| d.message.contains("`profiles`")));
}

#[test]
fn skills_config_path_ambiguity() {
    // X2: [[skills.config]] in a project layer disables nothing.
    let c = KIT.run("skills_config_path", ".");
    for name in ["alpha", "beta", "gamma"] {
        let s = skill(&c, &format!(".agents/skills/{name}/SKILL.md"));
        assert_eq!(s.applicability, Applicability::Effective, "{name}");
        assert_eq!(s.advertisement.state, AdvertisementState::Advertised);
    }
    assert!(one_diag(&c, "config-key-not-allowed")
        .message
        .contains("[[skills.config]]"));
    assert!(diags(&c, "skill-config-path-ambiguous").is_empty());
}

#[test]
fn skills_missing_fields_and_odd_layouts() {
    let c = KIT.run_skill_table(SKILLS, "skill_missing_fields", ".");
    assert!(one_diag(&c, "skill-field-missing")
        .message
        .contains("description"));
    one_diag(&c, "invalid-frontmatter");
    assert!(one_diag(&c, "skill-missing-file")
        .message
        .contains("empty-dir"));
}

#[test]
fn every_result_is_deterministic_and_diagnostics_are_unique() {
    for dir in KIT.all_fixtures() {
        let case = dir.file_name().unwrap().to_string_lossy().into_owned();
        let a = json(&KIT.run(&case, "."));
        let b = json(&KIT.run(&case, "."));
        assert_eq!(a, b, "{case}");
        let c = KIT.run(&case, ".");
        for (i, d) in c.diagnostics.iter().enumerate() {
            assert!(
                !c.diagnostics[..i].contains(d),
                "{case}: repeated diagnostic {d:?}"
            );
            assert!(!d.message.is_empty());
        }
    }
}

// ----- the analysis never writes -----

#[test]
fn compiling_leaves_every_fixture_byte_identical() {
    let root = KIT.fixtures_dir();
    let before = snapshot(&root);
    for dir in KIT.all_fixtures() {
        for cwd in [".", "sub", "apps/api", "a/b", "pkg"] {
            let _ = KIT.compile_at(&dir, cwd, Some("apps/api/file.ts"));
        }
    }
    assert_eq!(before, snapshot(&root));
}

#[test]
fn hostile_inputs_are_diagnostics_not_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".codex")).expect("mkdir");
    std::fs::write(
        root.join(".codex/config.toml"),
        b"mcp_servers = 5\n\xff\xfe\n",
    )
    .expect("write");
    write(
        root,
        "a/.codex/config.toml",
        format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000)),
    );
    std::fs::write(root.join("AGENTS.md"), b"# Root \xff\n").expect("write");
    let mut deep = String::from("a");
    for i in 0..150 {
        deep.push_str(&format!("/d{i}"));
    }
    write(root, &format!("{deep}/AGENTS.md"), "# Deep\n");
    write(root, &format!("{deep}/.codex/config.toml"), "[mcp_servers]\nbad = 5\n[mcp_servers.worse]\ncommand = 5\nenv_vars = [\"ghp_0123456789abcdefghijkl\"]\n");
    let mut bomb = String::from("---\nname: bomb\ndescription: x\na: &a [x,x,x,x,x,x,x,x,x]\n");
    for i in 1..10u8 {
        let (c, p) = ((b'a' + i) as char, (b'a' + i - 1) as char);
        bomb.push_str(&format!(
            "{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
        ));
    }
    bomb.push_str("---\n");
    write(root, &format!("{deep}/.agents/skills/bomb/SKILL.md"), &bomb);

    let c = KIT.compile_at(root, &deep, None);
    assert!(!diags(&c, "invalid-utf8").is_empty());
    assert!(!diags(&c, "invalid-toml").is_empty());
    // serde_yaml, as in Codex, decides the alias bomb without expanding it.
    assert!(c.skills.iter().any(|s| s.name == "bomb"));
    assert!(!diags(&c, "mcp-invalid-entry").is_empty());
    // The invalid TOML makes Codex refuse to start: nothing is received.
    assert!(!diags(&c, "config-refused").is_empty());
    assert!(c.received_instructions().is_empty());
    assert!(
        !json(&c).contains("ghp_0123456789abcdefghijkl"),
        "a pasted token in env_vars is never echoed"
    );
}

#[test]
fn a_skills_root_stored_as_a_text_file_is_reported_not_silently_empty() {
    // Corpus finding (getsentry/skills): `.agents/skills` is a link checked
    // out as a file holding `../skills`; Codex then finds no skills.
    KIT.assert_skills_root_stored_as_text_is_reported(
        ".agents/skills",
        "---\nname: deploy\ndescription: d\n---\n",
    );
}

/// A budget that the root file fills exactly: nothing is cut and the next
/// file is dropped whole. The message said "no file is cut and dropped:
/// `a/AGENTS.md`", which reads as if nothing were dropped. Codex 0.171.0
/// sends the root file alone (`codex debug prompt-input`, trusted).
#[test]
fn a_file_dropped_whole_is_the_subject_of_its_clause() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    playbookdiff_testkit::fs::write(root, "AGENTS.md", "Root line\n".repeat(10));
    playbookdiff_testkit::fs::write(root, "a/AGENTS.md", "A text\n");
    playbookdiff_testkit::fs::write(root, ".codex/config.toml", "project_doc_max_bytes = 100\n");
    let c = KIT.compile_at(root, "a", None);
    assert_eq!(chain(&c).len(), 1, "only the root file is sent");
    let d = one_diag(&c, "instruction-budget-exceeded");
    assert!(
        d.message
            .contains("so no file is cut and `a/AGENTS.md` is dropped."),
        "{}",
        d.message
    );
}

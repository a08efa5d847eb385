//! The original tool's behaviours (its "ten behaviours" list) and the field
//! reports, reproduced on fixture repositories compiled by both adapters.
//! Where our answer differs from the original's, the test says why.

use playbookdiff_compare::{compare, Category, Comparison, Finding, FindingSeverity, FindingType};
use playbookdiff_model::Harness;
use playbookdiff_testkit::{copy_tree, fixture};
use std::path::Path;

/// The Claude Code and Codex compilations of the repository at `root`
/// (newest profiles, repo mode), compared.
fn check_at(root: &Path, cwd: &str, target: Option<&str>) -> Comparison {
    let mut ctx = playbookdiff_testkit::at_root().cwd(cwd);
    if let Some(t) = target {
        ctx = ctx.target(t);
    }
    let a = playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, root, &ctx);
    let b = playbookdiff_testkit::compile_dir(&playbookdiff_codex::ADAPTER, root, &ctx);
    compare(&[&a, &b])
}

fn check(name: &str, cwd: &str, target: Option<&str>) -> Comparison {
    check_at(&fixture!(name), cwd, target)
}

/// (category, type, severity, direction) of every finding.
fn facts(c: &Comparison) -> Vec<(Category, FindingType, FindingSeverity, String)> {
    c.findings
        .iter()
        .map(|f| {
            (
                f.category,
                f.kind,
                f.severity,
                f.id.split(':').nth(2).unwrap().to_string(),
            )
        })
        .collect()
}

fn actionable(c: &Comparison) -> usize {
    c.summary.actionable()
}

use Category::*;
use FindingSeverity::*;
use FindingType::*;

fn only(f: &Finding) -> (&[Harness], &[Harness]) {
    (&f.present_in, &f.absent_from)
}

/// Behaviour 1, parity: identical text, matching skill, the same MCP server.
/// Improvement: the Codex side names the variable with `env_vars`, the Claude
/// side with `${API_KEY}`; compared by variable name, they agree.
#[test]
fn b01_parity() {
    let c = check("parity", ".", None);
    assert!(c.findings.is_empty(), "{:#?}", c.findings);
    assert_eq!(c.rows.len(), 3);
    assert!(c.rows.iter().all(|r| r.agree));
}

/// Behaviour 2: differently worded text in the same scope is one `unknown`
/// info finding, not actionable, with the paragraphs side by side.
#[test]
fn b02_different_wording() {
    let c = check("different_wording", ".", None);
    assert_eq!(facts(&c), [(Instruction, Unknown, Info, "both".into())]);
    assert_eq!(actionable(&c), 0);
    let p = &c.findings[0].paragraphs[0];
    assert_eq!(p.sides.len(), 2);
    assert!(p.diff.as_deref().unwrap().contains("[-Run-]"));
    assert!(c.findings[0]
        .id
        .starts_with("instruction:unknown:both:root:"));
}

/// Behaviour 3, scenario A: launched at the root, target in apps/api. The
/// original reported an instruction `missing` and a skill `capability-gap`;
/// both sides hold the same files, so ours are `scope-gap`s that name them:
/// Claude Code receives them on demand, Codex never from this cwd.
#[test]
fn b03_scenario_a() {
    let c = check("cwd_target", ".", Some("apps/api/file.ts"));
    assert_eq!(
        facts(&c),
        [
            (Instruction, ScopeGap, Medium, "claude-code-only".into()),
            (Skill, ScopeGap, Medium, "claude-code-only".into()),
        ]
    );
    assert_eq!(actionable(&c), 2);
    let f = &c.findings[0];
    assert_eq!(
        only(f),
        (
            &[playbookdiff_claude::HARNESS][..],
            &[playbookdiff_codex::HARNESS][..]
        )
    );
    assert!(f
        .id
        .starts_with("instruction:scope-gap:claude-code-only:apps/api:"));
    let paths: Vec<&str> = f.items.iter().map(|i| i.source.path.as_str()).collect();
    assert!(paths.contains(&"apps/api/CLAUDE.md") && paths.contains(&"apps/api/AGENTS.md"));
    assert!(c.findings[1]
        .id
        .starts_with("skill:scope-gap:claude-code-only:api-skill:"));
}

/// Behaviour 4, scenario B: launched in apps/api both receive the same.
#[test]
fn b04_scenario_b() {
    let c = check("cwd_target", "apps/api", Some("apps/api/file.ts"));
    assert!(c.findings.is_empty(), "{:#?}", c.findings);
    assert_eq!(
        c.rows.iter().filter(|r| r.category == Instruction).count(),
        2
    );
    assert_eq!(c.rows.iter().filter(|r| r.category == Skill).count(), 2);
}

/// Behaviour 5, pointer stub: one medium `missing` citing AGENTS.md and one
/// info `unknown` for the paragraph that can be paired.
#[test]
fn b05_pointer_stub() {
    let c = check("pointer_stub", ".", None);
    assert_eq!(
        facts(&c),
        [
            (Instruction, Missing, Medium, "codex-only".into()),
            (Instruction, Unknown, Info, "both".into()),
        ]
    );
    let m = &c.findings[0];
    assert_eq!(m.items[0].source.path.as_str(), "AGENTS.md");
    // The absent side's reason is Claude Code's own diagnostic about the file.
    assert!(
        m.absences[0].reason.contains("@AGENTS.md"),
        "{}",
        m.absences[0].reason
    );
}

/// Behaviour 6: `@AGENTS.md` is equivalent; identical files that both contain
/// an `@scope/package` token are equivalent too.
#[test]
fn b06_import_equivalence() {
    for name in ["valid_import", "unresolved_token_mirrored"] {
        let c = check(name, ".", None);
        assert!(c.findings.is_empty(), "{name}: {:#?}", c.findings);
        assert!(c.rows.iter().all(|r| r.agree));
    }
}

/// Behaviour 7: a server on one side only is a medium capability gap; other
/// args are a medium difference; two redacted literals are unknown (info).
#[test]
fn b07_mcp() {
    let c = check("mcp_one_sided", ".", None);
    assert_eq!(
        facts(&c),
        [(Mcp, CapabilityGap, Medium, "claude-code-only".into())]
    );
    assert!(c.findings[0]
        .id
        .starts_with("mcp:capability-gap:claude-code-only:database:"));
    let c = check("mcp_args_differ", ".", None);
    assert_eq!(facts(&c), [(Mcp, Different, Medium, "both".into())]);
    assert_eq!(c.findings[0].differences[0].field, "args");
    let c = check("mcp_redacted_both", ".", None);
    assert_eq!(facts(&c), [(Mcp, Unknown, Info, "both".into())]);
    assert_eq!(actionable(&c), 0);
}

/// Improvement over the original: a Claude `${KEY}` and a Codex
/// `env_vars = ["KEY"]` (or `bearer_token_env_var`) name the same variable,
/// so they are no difference at all.
#[test]
fn env_compared_by_variable_name() {
    let c = check("mcp_env_name_vs_kind", ".", None);
    assert!(c.findings.is_empty(), "{:#?}", c.findings);
}

/// Behaviours 8 and 9 (launch-directory boundedness), for `check`: a nested
/// Claude-only file is a medium `missing`; the same file on both sides is a
/// scope gap at the root and agrees when launched in the package; a nested
/// AGENTS.md alone is loaded by neither harness from the root.
#[test]
fn b08_b09_launch_directory() {
    let c = check("nested_claude_only", ".", None);
    assert_eq!(
        facts(&c),
        [(Instruction, Missing, Medium, "claude-code-only".into())]
    );
    assert!(c.findings[0]
        .id
        .starts_with("instruction:missing:claude-code-only:server:"));
    let c = check("nested_both", ".", None);
    assert_eq!(
        facts(&c),
        [(Instruction, ScopeGap, Medium, "claude-code-only".into())]
    );
    assert!(check("nested_both", "server", None).findings.is_empty());
    assert!(check("nested_agents_only", ".", None).findings.is_empty());
}

/// Field report 17: the root CLAUDE.md links to AGENTS.md, but only package
/// `a` has the bridge. At the root, Claude Code receives `a` on demand and
/// Codex never; launched in `b`, Codex reads `b`'s AGENTS.md and Claude Code
/// nothing; launched in `a`, they agree.
#[test]
fn fr17_partial_bridges() {
    let c = check("fr17_partial_bridges", ".", None);
    assert_eq!(
        facts(&c),
        [(Instruction, ScopeGap, Medium, "claude-code-only".into())]
    );
    assert!(c.findings[0]
        .id
        .starts_with("instruction:scope-gap:claude-code-only:packages/a:"));
    let c = check("fr17_partial_bridges", "packages/b", None);
    assert_eq!(
        facts(&c),
        [(Instruction, Missing, Medium, "codex-only".into())]
    );
    assert!(c.findings[0]
        .id
        .starts_with("instruction:missing:codex-only:packages/b:"));
    assert!(check("fr17_partial_bridges", "packages/a", None)
        .findings
        .is_empty());
}

/// Skills only under `.agents/skills` are a capability gap; a symlinked
/// `.claude/skills/x -> .agents/skills/x` is the same skill.
#[test]
fn skills_by_name_and_resolved_file() {
    let c = check("agents_skills_only", ".", None);
    assert_eq!(
        facts(&c),
        [(Skill, CapabilityGap, Medium, "codex-only".into())]
    );
    assert!(check("symlinked_skill", ".", None).findings.is_empty());
}

fn ids(c: &Comparison) -> Vec<String> {
    c.findings.iter().map(|f| f.id.clone()).collect()
}

/// Ids depend on the repository content, never on where it lies, on line
/// numbers or on wording elsewhere.
#[test]
fn ids_are_stable_across_copies_and_rewording() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    for (name, cwd) in [
        ("cwd_target", "."),
        ("pointer_stub", "."),
        ("fr17_partial_bridges", "packages/b"),
    ] {
        copy_tree(&fixture!(name), &one.path().join(name));
        copy_tree(&fixture!(name), &two.path().join(name));
        let a = check_at(&one.path().join(name), cwd, Some("apps/api/file.ts"));
        let b = check_at(&two.path().join(name), cwd, Some("apps/api/file.ts"));
        assert!(!a.findings.is_empty());
        assert_eq!(ids(&a), ids(&b), "{name}");
    }
    // Reword and shift lines in files the findings are about: same ids.
    let root = two.path().join("cwd_target");
    std::fs::write(
        root.join("apps/api/CLAUDE.md"),
        "\n\n# API\n\nCheck every request body.\n",
    )
    .unwrap();
    std::fs::write(
        root.join("apps/api/AGENTS.md"),
        "\n\n# API\n\nCheck every request body.\n",
    )
    .unwrap();
    std::fs::write(root.join("CLAUDE.md"), "# Project\n\nUse pnpm, always.\n").unwrap();
    std::fs::write(root.join("AGENTS.md"), "# Project\n\nUse pnpm, always.\n").unwrap();
    let a = check_at(
        &one.path().join("cwd_target"),
        ".",
        Some("apps/api/file.ts"),
    );
    let b = check_at(&root, ".", Some("apps/api/file.ts"));
    assert_eq!(ids(&a), ids(&b));
    let root = two.path().join("pointer_stub");
    std::fs::write(
        root.join("AGENTS.md"),
        "# Rules\n\nStrict TypeScript.\n\nSmall pull requests.\n\nOne more rule.\n",
    )
    .unwrap();
    let a = check_at(&one.path().join("pointer_stub"), ".", None);
    let b = check_at(&root, ".", None);
    assert_eq!(ids(&a), ids(&b));
}

/// A harness that would not start (a diagnostic whose code stops the
/// agent, here `config-refused` added to Codex's compilation of
/// `mcp_one_sided`) is left out of every pairwise finding and row; it has
/// one `high` `agent` `refused` finding instead, whose id depends on the
/// refused file only. The comparison asks the diagnostic's code, not the
/// harness.
#[test]
fn a_harness_that_would_not_start_is_left_out_of_the_comparison() {
    use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
    let root = fixture!("mcp_one_sided");
    let ctx = playbookdiff_testkit::at_root();
    let a = playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, &root, &ctx);
    let b = playbookdiff_testkit::compile_dir(&playbookdiff_codex::ADAPTER, &root, &ctx);
    let before = compare(&[&a, &b]);
    assert!(
        before.findings.iter().any(|f| f.category == Category::Mcp),
        "{:?}",
        facts(&before)
    );
    let refused = |mut c: playbookdiff_model::EffectiveAgentConfig, line: u32| {
        c.diagnostics.push(
            Diagnostic::new(DiagnosticCode::ConfigRefused, "refused").at(SourceRef::project(
                RepoPath::new(".codex/config.toml").unwrap(),
                SourceFormat::Toml,
            )
            .with_lines(line, line)),
        );
        c
    };
    let b1 = refused(b.clone(), 1);
    assert!(!b1.starts());
    let c = compare(&[&a, &b1]);
    assert_eq!(c.harnesses, [a.harness]);
    assert_eq!(c.refused.len(), 1);
    assert_eq!(c.refused[0].harness, b.harness);
    assert!(c.rows.iter().all(|r| r.cells.len() == 1));
    assert_eq!(
        facts(&c),
        [(
            Category::Agent,
            FindingType::Refused,
            FindingSeverity::High,
            "codex-only".to_string()
        )]
    );
    let f = &c.findings[0];
    assert!(f.actionable);
    assert_eq!(f.absent_from, [b.harness]);
    assert!(f.present_in.is_empty() && f.items.is_empty());
    assert_eq!(f.problems.len(), 1);
    assert_eq!(f.problems[0].code, DiagnosticCode::ConfigRefused);
    assert_eq!(c.summary.high, 1);
    // The id names the file, not the line or the message.
    let moved = compare(&[&a, &refused(b.clone(), 7)]);
    assert_eq!(moved.findings[0].id, f.id);
    assert!(
        f.id.starts_with("agent:refused:codex-only:.codex/config.toml:"),
        "{}",
        f.id
    );
    // Both refusing: no rows, two findings, nothing pairwise.
    let both = compare(&[&refused(a.clone(), 1), &b1]);
    assert!(both.harnesses.is_empty() && both.rows.is_empty());
    assert_eq!(both.refused.len(), 2);
    assert!(both.findings.iter().all(|f| f.category == Category::Agent));
    assert_eq!(both.findings.len(), 2);
}

/// Skills only Codex has, found in an order where `sentry-dev` sorts
/// before `sentry` by path (`-` before `/`): the group names them by name.
#[test]
fn a_group_names_its_skills_sorted_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["sentry-dev", "sentry", "alpha"] {
        let d = dir.path().join(".agents/skills").join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Use {name}.\n---\nBody.\n"),
        )
        .unwrap();
    }
    let mut c = check_at(dir.path(), ".", None);
    playbookdiff_compare::group::sort(&mut c.findings);
    let groups = playbookdiff_compare::group::group(&c.findings);
    let skills = groups
        .iter()
        .find(|g| g.first().category == Skill && g.findings.len() == 3)
        .expect("one group of three skills");
    assert_eq!(skills.names(), ["alpha", "sentry", "sentry-dev"]);
    assert!(
        skills
            .summary(5)
            .contains("`alpha`, `sentry`, `sentry-dev`"),
        "{}",
        skills.summary(5)
    );
}

/// One text imported from many files is one finding whose sentence names
/// the first three files and counts the rest (every file stays an item):
/// a repository importing thousands of copies got a sentence of thousands
/// of names ("the text of the same text in `a` and `b` and …").
#[test]
fn a_text_in_many_files_is_named_by_its_first_files_and_a_count() {
    for (copies, names) in [
        (
            6,
            "`d/x1.md`, `d/x2.md`, `d/x3.md` and 3 more files (the same text)",
        ),
        (2, "`d/x1.md` and `d/x2.md` (the same text)"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("d")).unwrap();
        let mut claude = String::new();
        for i in 1..=copies {
            claude.push_str(&format!("@d/x{i}.md\n"));
            std::fs::write(
                dir.path().join(format!("d/x{i}.md")),
                "Run the linter before every commit.\n",
            )
            .unwrap();
        }
        std::fs::write(dir.path().join("CLAUDE.md"), claude).unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "# Codex\n\nUse tabs.\n").unwrap();
        let c = check_at(dir.path(), ".", None);
        let f = c
            .findings
            .iter()
            .find(|f| f.message.contains("`d/x1.md`"))
            .unwrap_or_else(|| panic!("{:#?}", c.findings));
        assert_eq!(f.kind, Missing, "{}", f.message);
        assert!(
            f.message.starts_with("Claude Code receives ")
                && f.message.contains(&format!(" of {names} at startup")),
            "{}",
            f.message
        );
        assert!(!f.message.contains("the same text in"), "{}", f.message);
        assert_eq!(f.items.len(), copies, "{:#?}", f.items);
    }
}

/// One MCP server defined differently in two ways (its args, its env) is
/// two findings, grouped: the group's sentence names the server and the
/// fields ("MCP server `gh` is defined differently between Claude Code and
/// Codex (args, env.MODE)."), not "2 MCP different findings between
/// Claude Code and Codex: `gh`.".
#[test]
fn a_server_that_differs_in_two_ways_is_named_with_its_fields() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    playbookdiff_testkit::fs::write(
        r,
        ".mcp.json",
        r#"{"mcpServers": {"gh": {"command": "npx", "args": ["a"], "env": {"MODE": "${MODE}"}}}}"#,
    );
    playbookdiff_testkit::fs::write(
        r,
        ".codex/config.toml",
        "[mcp_servers.gh]\ncommand = \"npx\"\nargs = [\"b\"]\n",
    );
    let c = check_at(r, ".", None);
    let groups = playbookdiff_compare::group::group(&c.findings);
    let g = groups
        .iter()
        .find(|g| g.first().kind == Different)
        .unwrap_or_else(|| panic!("{:#?}", c.findings));
    assert_eq!(g.findings.len(), 2, "{:#?}", g.findings);
    assert_eq!(
        g.summary(6),
        "MCP server `gh` is defined differently between Claude Code and Codex (args, env.MODE)."
    );
}

//! What one launch directory lists: the items on the path from the root to
//! cwd, below cwd, and on the way to a target outside cwd. Items beside the
//! path (a sibling package) are never listed, so one compilation costs the
//! items in its scope, not the repository.

use crate::common::*;
use playbookdiff_model::{
    Applicability::*, DiagnosticCode as D, EffectiveAgentConfig, LoadPhase::*,
};
use std::path::Path;

/// A package with every kind of Claude Code configuration.
fn package(root: &Path, dir: &str) {
    write(root, &format!("{dir}/CLAUDE.md"), "Package\n");
    write(root, &format!("{dir}/AGENTS.md"), "Agents\n");
    write(root, &format!("{dir}/.mcp.json"), "{\"mcpServers\": {}}\n");
    write(
        root,
        &format!("{dir}/.claude/skills/s/SKILL.md"),
        "Skill.\n",
    );
    write(root, &format!("{dir}/.claude/rules/r.md"), "Rule\n");
    write(root, &format!("{dir}/.claude/commands/c.md"), "Command\n");
}

/// Every path the result names (the kit's [`named_paths`]) and every
/// diagnostic message.
fn named(cfg: &EffectiveAgentConfig) -> Vec<String> {
    let mut v = named_paths(cfg);
    v.extend(cfg.diagnostics.iter().map(|d| d.message.clone()));
    v
}

#[test]
fn a_launch_directory_lists_only_items_on_its_path_below_it_and_on_the_way_to_the_target() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "CLAUDE.md", "Root\n");
    for p in [
        "packages/p1",
        "packages/p1/sub",
        "packages/p2",
        "packages/p3",
    ] {
        package(r, p);
    }
    let cfg = compile_dir(
        r,
        &at_root().cwd("packages/p1").target("packages/p2/src/x.ts"),
    );
    // Nothing from the sibling beside the path.
    for p in named(&cfg) {
        assert!(!p.contains("packages/p3"), "{p}");
    }
    assert!(cfg
        .instructions
        .iter()
        .all(|i| i.applicability != OutOfScope));
    assert!(cfg.skills.iter().all(|s| s.applicability != OutOfScope));
    // Below cwd: on demand.
    assert_placed(
        one(&cfg, "packages/p1/sub/CLAUDE.md"),
        OnDemand,
        Conditional,
        None,
    );
    assert_eq!(
        skill(&cfg, "packages/p1/sub/.claude/skills/s/SKILL.md").load_phase,
        OnDemand
    );
    // On the way to the target: conditional, with the same reports as
    // below cwd.
    assert_placed(
        one(&cfg, "packages/p2/CLAUDE.md"),
        OnDemand,
        Conditional,
        None,
    );
    assert_eq!(
        skill(&cfg, "packages/p2/.claude/skills/s/SKILL.md").applicability,
        Conditional
    );
    // Nested rules roots are read (fidelity C14): below cwd on demand, on
    // the way to the target conditional.
    assert_placed(
        one(&cfg, "packages/p1/sub/.claude/rules/r.md"),
        OnDemand,
        Conditional,
        None,
    );
    assert_placed(
        one(&cfg, "packages/p2/.claude/rules/r.md"),
        OnDemand,
        Conditional,
        None,
    );
    // The launch directory's commands are skills (fidelity C23).
    assert_eq!(
        skill(&cfg, "packages/p1/.claude/commands/c.md").applicability,
        Effective
    );
    for (code, p) in [
        (D::AgentsMdNotBridged, "packages/p2/AGENTS.md"),
        (D::AgentsMdNotBridged, "packages/p1/sub/AGENTS.md"),
        (D::AgentsMdNotBridged, "packages/p1/AGENTS.md"),
        (D::McpJsonNotAtRoot, "packages/p2/.mcp.json"),
        (D::LegacyCommandsUnsupported, "packages/p2/.claude/commands"),
    ] {
        assert_eq!(diags_at(&cfg, code, p).len(), 1, "{code:?} {p}");
    }

    // Without the target, p2 is beside the path too.
    let cfg = compile_dir(r, &at_root().cwd("packages/p1"));
    for p in named(&cfg) {
        assert!(
            !p.contains("packages/p2") && !p.contains("packages/p3"),
            "{p}"
        );
    }
}

/// `packages` packages, each with a `CLAUDE.md` and a skill, under a root
/// `CLAUDE.md`.
fn packages(packages: usize) -> MemTree {
    let mut tree = MemTree::default();
    tree.file("CLAUDE.md", "Root\n");
    for i in 0..packages {
        let d = format!("packages/p{i}");
        tree.file(&format!("{d}/CLAUDE.md"), "Package\n");
        tree.file(&format!("{d}/.claude/skills/s/SKILL.md"), "Skill.\n");
    }
    tree
}

/// Compiles from `launches` packages of `tree` (every tenth), on one
/// `Repo`, as `check --all-dirs` does.
fn compile_from_packages(repo: &playbookdiff_source::Repo<'_>, launches: usize) {
    for i in (0..launches * 10).step_by(10) {
        let mut ctx = playbookdiff_model::AnalysisContext::at_root();
        ctx.cwd = playbookdiff_model::RepoPath::new(&format!("packages/p{i}")).unwrap();
        let cfg = KIT.adapter.compile(repo, &ctx, None);
        assert_eq!(cfg.instructions.len(), 2, "the root and the package");
        assert_eq!(cfg.skills.len(), 1);
        assert!(cfg.diagnostics.len() < 10, "{:#?}", cfg.diagnostics);
    }
}

/// 3,000 packages compiled from 300 of them: with every package visited
/// from every launch directory this is quadratic. The work (allocations)
/// of 100 compilations, once the repository's listings are read, is the
/// same with 1,500 and 3,000 packages; visiting every package from every
/// launch directory would double it.
#[test]
fn one_compilation_costs_the_items_in_scope_not_the_repository() {
    let tree = packages(3000);
    compile_from_packages(&playbookdiff_source::Repo::new(&tree), 300);
    if !playbookdiff_testkit::alone!("one_compilation_costs_the_items_in_scope_not_the_repository")
    {
        return;
    }
    let work = |n: usize| {
        let tree = packages(n);
        let repo = playbookdiff_source::Repo::new(&tree);
        // Every listing read once, outside the measure.
        compile_from_packages(&repo, n / 10);
        playbookdiff_testkit::work::allocations(crate::ALLOCATOR, || {
            compile_from_packages(&repo, 100)
        })
        .0
    };
    let (small, large) = (work(1500), work(3000));
    let ratio = large as f64 / small as f64;
    assert!(ratio < 1.3, "{small} then {large} allocations: x{ratio:.2}");
}

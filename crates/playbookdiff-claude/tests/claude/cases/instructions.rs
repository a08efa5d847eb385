//! CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md: startup and on-demand
//! discovery, order, appliesTo.

use crate::common::*;
use playbookdiff_model::{
    Applicability::*, DiagnosticCode as D, InstructionKind, LoadPhase::*, SourceScope,
};

#[test]
fn root_claude_md_is_the_first_startup_entry_with_its_lines_and_bytes() {
    let cfg = compile("root_claude_md", at_root());
    let i = one(&cfg, "CLAUDE.md");
    assert_placed(i, Startup, Effective, Some(0));
    assert_eq!(i.kind, InstructionKind::Memory);
    assert_eq!(i.applies_to.as_str(), ".");
    assert_eq!(i.source.scope, SourceScope::Project);
    let l = i.source.lines.unwrap();
    assert_eq!((l.start, l.end), (1, 3));
    assert_eq!(i.bytes, 31);
    assert_eq!(i.content, "# Project\n\nUse pnpm, never npm.");
    assert_eq!(cfg.instructions.len(), 1);
}

#[test]
fn dot_claude_claude_md_at_the_root_loads_at_startup_and_applies_to_the_root() {
    let cfg = compile("dot_claude_claude_md", at_root());
    let i = one(&cfg, ".claude/CLAUDE.md");
    assert_placed(i, Startup, Effective, Some(0));
    assert_eq!(i.kind, InstructionKind::Memory);
    assert_eq!(i.applies_to.as_str(), ".");
    // Verified at the root: no generalization note.
    assert!(diags(&cfg, D::DotClaudeMemoryGeneralized).is_empty());
}

#[test]
fn claude_md_then_dot_claude_claude_md_both_load_at_every_level_root_first() {
    let cfg = compile("claude_md_and_dot_claude_md", at_root().cwd("apps/api"));
    assert_eq!(
        received_paths(&cfg),
        [
            "CLAUDE.md",
            ".claude/CLAUDE.md",
            "apps/api/CLAUDE.md",
            "apps/api/.claude/CLAUDE.md"
        ]
    );
    assert_eq!(
        one(&cfg, "apps/api/.claude/CLAUDE.md").applies_to.as_str(),
        "apps/api"
    );
    assert_eq!(one(&cfg, ".claude/CLAUDE.md").applies_to.as_str(), ".");
    // Below the root the behaviour is generalized, and said so.
    assert_eq!(diags(&cfg, D::DotClaudeMemoryGeneralized).len(), 1);
}

#[test]
fn nested_dot_claude_claude_md_is_on_demand_after_nested_claude_md() {
    let cfg = compile(
        "claude_md_and_dot_claude_md",
        at_root().target("apps/api/main.ts"),
    );
    assert_eq!(
        received_paths(&cfg),
        [
            "CLAUDE.md",
            ".claude/CLAUDE.md",
            "apps/api/CLAUDE.md",
            "apps/api/.claude/CLAUDE.md"
        ]
    );
    for p in ["apps/api/CLAUDE.md", "apps/api/.claude/CLAUDE.md"] {
        let i = one(&cfg, p);
        assert_eq!(
            (i.load_phase, i.applicability),
            (OnDemand, Effective),
            "{p}"
        );
        assert_eq!(i.applies_to.as_str(), "apps/api");
    }
    assert_eq!(diags(&cfg, D::DotClaudeMemoryGeneralized).len(), 1);
    let cfg = compile("claude_md_and_dot_claude_md", at_root());
    assert_placed(
        one(&cfg, "apps/api/.claude/CLAUDE.md"),
        OnDemand,
        Conditional,
        None,
    );
}

#[test]
fn nested_claude_md_is_on_demand_effective_with_target_and_conditional_without() {
    // Field report 1: AA at the root, BB in test/, started at the root.
    let cfg = compile("nested_below_cwd", at_root().target("test/run.sh"));
    assert_eq!(
        received(&cfg),
        [
            ("CLAUDE.md".into(), "AA".into()),
            ("test/CLAUDE.md".into(), "BB".into())
        ]
    );
    assert_placed(one(&cfg, "CLAUDE.md"), Startup, Effective, Some(0));
    let bb = one(&cfg, "test/CLAUDE.md");
    assert_placed(bb, OnDemand, Effective, Some(1));
    assert_eq!(bb.applies_to.as_str(), "test");

    let cfg = compile("nested_below_cwd", at_root());
    assert_placed(one(&cfg, "test/CLAUDE.md"), OnDemand, Conditional, None);
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);

    // A target elsewhere does not reach it either.
    let cfg = compile("nested_below_cwd", at_root().target("CLAUDE.md"));
    assert_placed(one(&cfg, "test/CLAUDE.md"), OnDemand, Conditional, None);
}

#[test]
fn on_demand_reason_says_after_a_file_in_the_directory_is_read_or_edited() {
    // Field report 2: only Read/Edit/Write trigger nested loading.
    for ctx in [at_root().target("test/run.sh"), at_root()] {
        let cfg = compile("nested_below_cwd", ctx);
        let r = &one(&cfg, "test/CLAUDE.md").reason;
        assert!(
            r.contains("after a file in `test` is read or edited"),
            "{r}"
        );
    }
    let cfg = compile("nested_below_cwd", at_root());
    assert!(cfg
        .assumptions
        .iter()
        .any(|a| a.contains("Bash, Grep and Glob")));
}

#[test]
fn nested_claude_md_reached_from_its_own_cwd_keeps_the_same_applies_to() {
    let cfg = compile("nested_below_cwd", at_root().cwd("test"));
    let bb = one(&cfg, "test/CLAUDE.md");
    assert_placed(bb, Startup, Effective, Some(1));
    assert_eq!(bb.applies_to.as_str(), "test");
}

#[test]
fn nested_claude_md_files_on_the_way_to_the_target_load_ancestor_first() {
    let cfg = compile(
        "root_and_nested_claude_md",
        at_root().target("apps/api/src/server.ts"),
    );
    assert_eq!(
        received_paths(&cfg),
        ["CLAUDE.md", "apps/CLAUDE.md", "apps/api/CLAUDE.md"]
    );
    assert_placed(one(&cfg, "apps/CLAUDE.md"), OnDemand, Effective, Some(1));
    assert_placed(
        one(&cfg, "apps/api/CLAUDE.md"),
        OnDemand,
        Effective,
        Some(2),
    );
    assert_placed(one(&cfg, "apps/web/CLAUDE.md"), OnDemand, Conditional, None);
    assert_eq!(
        one(&cfg, "apps/web/CLAUDE.md").applies_to.as_str(),
        "apps/web"
    );
}

#[test]
fn sibling_claude_md_outside_the_cwd_subtree_is_not_listed() {
    let cfg = compile("root_and_nested_claude_md", at_root().cwd("apps/api"));
    assert_eq!(
        received_paths(&cfg),
        ["CLAUDE.md", "apps/CLAUDE.md", "apps/api/CLAUDE.md"]
    );
    assert_placed(one(&cfg, "apps/api/CLAUDE.md"), Startup, Effective, Some(2));
    // Neither an ancestor of cwd, below it, nor on the way to a target:
    // Claude Code never discovers it from here, so it is not listed.
    assert!(pieces(&cfg, "apps/web/CLAUDE.md").is_empty());
    assert!(cfg
        .instructions
        .iter()
        .all(|i| i.applicability != OutOfScope));
}

#[test]
fn claude_local_md_is_unavailable_in_repo_mode_with_a_diagnostic_per_file() {
    let cfg = compile("claude_local_md", at_root().cwd("sub"));
    for p in ["CLAUDE.local.md", "sub/CLAUDE.local.md"] {
        let i = one(&cfg, p);
        assert_placed(i, Startup, Unavailable, None);
        assert_eq!(i.source.scope, SourceScope::Local);
        assert!(
            i.content.is_empty(),
            "repo mode does not copy personal content"
        );
        assert_eq!(diags_at(&cfg, D::LocalConfigUnavailable, p).len(), 1, "{p}");
    }
    assert_eq!(
        received_paths(&cfg),
        ["CLAUDE.md", ".claude/rules/style.md", "sub/CLAUDE.md"]
    );
}

#[test]
fn claude_local_md_in_local_mode_follows_claude_md_and_rules_of_its_directory() {
    let cfg = compile("claude_local_md", at_root().cwd("sub").local());
    assert_eq!(
        received_paths(&cfg),
        [
            "CLAUDE.md",
            ".claude/rules/style.md",
            "CLAUDE.local.md",
            "sub/CLAUDE.md",
            "sub/CLAUDE.local.md"
        ]
    );
    let l = one(&cfg, "CLAUDE.local.md");
    assert_eq!(l.source.scope, SourceScope::Local);
    assert_eq!(l.kind, InstructionKind::LocalMemory);
    assert!(diags(&cfg, D::LocalConfigUnavailable).is_empty());
}

#[test]
fn agents_md_without_a_bridge_gets_a_diagnostic_naming_both_bridges() {
    // Field report 11; Claude Code before the AGENTS.md fallback of 2.1.281.
    let cfg = compile("agents_md_without_bridge", at_root().version("2.1.197"));
    assert!(
        pieces(&cfg, "AGENTS.md").is_empty(),
        "AGENTS.md is never loaded because it exists"
    );
    assert!(diags(&cfg, D::AgentsMdFallback).is_empty());
    let d = diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md");
    assert_eq!(d.len(), 1);
    assert_says(d[0], "`@AGENTS.md`");
    assert_says(d[0], "symbolic link");
    // No CLAUDE.md anywhere on the path: the fallback this version lacks is
    // named, and the advice creates the file instead of editing it.
    assert_says(d[0], "predates the AGENTS.md fallback");
    assert_says(d[0], "Create `CLAUDE.md` holding the line `@AGENTS.md`");
    // Beside a CLAUDE.md that does not import it.
    let d = diags_at(&cfg, D::AgentsMdNotBridged, "apps/api/AGENTS.md");
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message
            .contains("`apps/api/CLAUDE.md` neither imports it"),
        "{}",
        d[0].message
    );
    assert_says(d[0], "Add a line `@AGENTS.md` to `apps/api/CLAUDE.md`");
}

/// A `CLAUDE.md` on the path from the root to the launch directory (not
/// beside the `AGENTS.md`, which it does not import) is what keeps the
/// AGENTS.md fallback off: the reason names it, for a nested `AGENTS.md` on
/// the path and for one below the launch directory, and never speaks as if
/// the fallback were on (reads "from the repository root to the launch
/// directory") or as if no CLAUDE.md were on the path.
#[test]
fn agents_md_not_bridged_names_the_claude_md_on_the_path() {
    let mut tree = MemTree::default();
    tree.file("CLAUDE.md", "# Root\n\nUse pnpm.\n");
    tree.file("pkg/AGENTS.md", "# Pkg\n\nUse vitest.\n");
    let reason = |cwd: &str, version: &str| {
        let cfg = compile_tree(&tree, &at_root().cwd(cwd).version(version));
        let d = diags_at(&cfg, D::AgentsMdNotBridged, "pkg/AGENTS.md");
        assert_eq!(d.len(), 1, "{cwd} {version}: {:#?}", cfg.diagnostics);
        d[0].message.clone()
    };
    // Below the launch directory, with the fallback: off because of the
    // root CLAUDE.md, and below the launch directory besides.
    let below = reason(".", "2.1.332");
    assert!(
        below.contains("fallback (2.1.281 and later) is off, since `CLAUDE.md` is on the path"),
        "{below}"
    );
    // On the path, with the fallback: the CLAUDE.md is named.
    let on_path = reason("pkg", "2.1.332");
    assert!(on_path.contains("and `CLAUDE.md` is."), "{on_path}");
    // On the path, before the fallback existed: the release predates it,
    // and the CLAUDE.md on the path is named.
    let old = reason("pkg", "2.1.197");
    assert!(
        old.contains("2.1.197 predates the AGENTS.md fallback"),
        "{old}"
    );
    assert!(old.contains("and `CLAUDE.md` is)"), "{old}");
    for m in [&below, &on_path, &old] {
        assert!(!m.contains("and one is"), "{m}");
        assert!(
            !m.contains("reads AGENTS.md only from the repository root"),
            "{m}"
        );
        assert!(m.contains("Create `pkg/CLAUDE.md`"), "{m}");
    }
}

#[test]
fn c16_agents_md_without_bridge_loads_by_the_fallback_from_2_1_277() {
    // 2.1.332 (observed): no memory file on the path, so the root AGENTS.md
    // loads at startup; the one beside apps/api/CLAUDE.md still has no bridge.
    let cfg = compile("agents_md_without_bridge", at_root().version("2.1.332"));
    assert_eq!(received_paths(&cfg), ["AGENTS.md"]);
    assert_placed(one(&cfg, "AGENTS.md"), Startup, Effective, Some(0));
    assert_eq!(diags_at(&cfg, D::AgentsMdFallback, "AGENTS.md").len(), 1);
    assert!(diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md").is_empty());
    assert_eq!(
        diags_at(&cfg, D::AgentsMdNotBridged, "apps/api/AGENTS.md").len(),
        1
    );
}

#[test]
fn a_directory_whose_name_ends_in_dot_claude_holds_an_ordinary_claude_md() {
    for ctx in [
        at_root().cwd("tools.claude"),
        at_root().target("tools.claude/notes.md"),
    ] {
        let cfg = compile("directory_named_like_dot_claude", ctx);
        assert_eq!(
            received_paths(&cfg),
            ["CLAUDE.md", "tools.claude/CLAUDE.md"]
        );
        assert_eq!(
            one(&cfg, "tools.claude/CLAUDE.md").applies_to.as_str(),
            "tools.claude"
        );
        assert!(
            diags(&cfg, D::DotClaudeMemoryGeneralized).is_empty(),
            "no `.claude/CLAUDE.md` here"
        );
    }
}

#[test]
fn repo_mode_sizes_claude_local_md_from_metadata_without_reading_it() {
    // Larger than the 4 MiB read limit: reading it would fail, stat does not.
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("CLAUDE.md"), "# Shared\n").unwrap();
    let big = vec![b'x'; 5 * 1024 * 1024];
    std::fs::write(t.path().join("CLAUDE.local.md"), &big).unwrap();
    let cfg = compile_dir(t.path(), &at_root());
    let l = one(&cfg, "CLAUDE.local.md");
    assert_eq!(l.applicability, Unavailable);
    assert_eq!(l.bytes, big.len() as u64);
    assert!(
        diags(&cfg, D::FileTooLarge).is_empty(),
        "nothing tried to read it"
    );
}

#[test]
fn instructions_rules_and_skills_on_the_way_to_a_target_outside_cwd_are_conditional_and_siblings_are_not_listed(
) {
    let cfg = compile(
        "target_outside_cwd",
        at_root().cwd("apps/web").target("apps/api/src/x.ts"),
    );
    assert_eq!(received_paths(&cfg), ["apps/web/CLAUDE.md"]);
    assert_placed(one(&cfg, "apps/api/CLAUDE.md"), OnDemand, Conditional, None);
    let s = skill(&cfg, "apps/api/.claude/skills/api-debug/SKILL.md");
    assert_eq!((s.load_phase, s.applicability), (OnDemand, Conditional));
    // The nested rules root on the way to the target is read, and
    // conditional like the memory file beside it (fidelity C13, C14).
    for r in pieces(&cfg, "apps/api/.claude/rules/api.md")
        .into_iter()
        .chain(cfg.instructions.iter().filter(|i| {
            i.source
                .path
                .as_str()
                .starts_with("apps/api/.claude/rules/")
        }))
    {
        assert_eq!((r.load_phase, r.applicability), (OnDemand, Conditional));
    }
    assert_eq!(diags(&cfg, D::TargetOutsideCwd).len(), 1, "reported once");

    let cfg = compile("target_outside_cwd", at_root().cwd("apps/web"));
    assert!(pieces(&cfg, "apps/api/CLAUDE.md").is_empty());
    assert!(
        cfg.skills.is_empty(),
        "a sibling's skills are never discovered"
    );
    assert!(!cfg
        .instructions
        .iter()
        .any(|i| i.source.path.as_str().starts_with("apps/api/")));
    assert!(diags(&cfg, D::TargetOutsideCwd).is_empty());
}

#[test]
fn without_a_target_on_demand_instructions_rules_and_skills_stay_conditional() {
    let cfg = compile("no_target_conditional", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    assert_placed(one(&cfg, "apps/api/CLAUDE.md"), OnDemand, Conditional, None);
    assert_placed(
        one(&cfg, ".claude/rules/api.md"),
        OnDemand,
        Conditional,
        None,
    );
    let nested = skill(&cfg, "apps/api/.claude/skills/api-debug/SKILL.md");
    assert_eq!(
        (nested.load_phase, nested.applicability),
        (OnDemand, Conditional)
    );
    let scoped = skill(&cfg, ".claude/skills/api-lint/SKILL.md");
    assert_eq!(
        (scoped.load_phase, scoped.applicability),
        (OnDemand, Conditional)
    );

    // The same sources with the target that reaches them.
    let cfg = compile(
        "no_target_conditional",
        at_root().target("apps/api/src/handler.ts"),
    );
    // The nested memory file before the root's path-scoped rule, as in the
    // agent's request (recorded for both profiled versions).
    assert_eq!(
        received_paths(&cfg),
        ["CLAUDE.md", "apps/api/CLAUDE.md", ".claude/rules/api.md"]
    );
    let nested = skill(&cfg, "apps/api/.claude/skills/api-debug/SKILL.md");
    assert_eq!(
        (nested.load_phase, nested.applicability),
        (OnDemand, Effective)
    );
    let scoped = skill(&cfg, ".claude/skills/api-lint/SKILL.md");
    assert_eq!(
        scoped.invocation.implicit,
        playbookdiff_model::Permission::Allowed
    );
}

#[test]
fn block_level_html_comments_are_stripped_from_what_the_model_receives() {
    // Harness facts A1: block-level HTML comments are stripped before
    // injection; comments inside code blocks are kept.
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("CLAUDE.md"),
        "# Rules\n\n<!-- maintainers: keep this short -->\n\n- Test first.\n\n```\n<!-- kept -->\n```\n",
    )
    .unwrap();
    let cfg = compile_dir(t.path(), &at_root());
    let piece = one(&cfg, "CLAUDE.md");
    assert!(!piece.content.contains("maintainers"), "{}", piece.content);
    assert!(piece.content.contains("<!-- kept -->"));
    assert_eq!(piece.bytes, piece.content.len() as u64);
    assert_eq!(piece.source.lines.map(|l| (l.start, l.end)), Some((1, 9)));
}

#[test]
fn agents_md_copied_byte_for_byte_into_claude_md_is_not_reported_as_unbridged() {
    // Corpus finding (agnix): CLAUDE.md is a copy of AGENTS.md, so Claude
    // Code receives the same text; no bridge is missing.
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("AGENTS.md"), "# Rules\r\n- a\r\n").unwrap();
    std::fs::write(t.path().join("CLAUDE.md"), "# Rules\n- a\n").unwrap();
    let cfg = compile_dir(t.path(), &at_root());
    assert!(
        diags(&cfg, D::AgentsMdNotBridged).is_empty(),
        "{:#?}",
        cfg.diagnostics
    );
}

#[test]
fn unbridged_agents_md_is_reported_only_on_the_path_to_cwd_and_below_it() {
    let t = tempfile::tempdir().unwrap();
    for d in ["a", "b", "a/deep"] {
        std::fs::create_dir_all(t.path().join(d)).unwrap();
        std::fs::write(t.path().join(d).join("AGENTS.md"), format!("# {d}\n")).unwrap();
    }
    std::fs::write(t.path().join("AGENTS.md"), "# root\n").unwrap();
    let unbridged = |version| {
        let cfg = compile_dir(t.path(), &at_root().cwd("a").version(version));
        let mut paths: Vec<String> = diags(&cfg, D::AgentsMdNotBridged)
            .iter()
            .map(|d| d.source.as_ref().unwrap().path.to_string())
            .collect();
        paths.sort();
        paths
    };
    assert_eq!(
        unbridged("2.1.197"),
        ["AGENTS.md", "a/AGENTS.md", "a/deep/AGENTS.md"]
    );
    // From 2.1.281 the two on the path load by the fallback; the one below
    // the launch directory does not.
    assert_eq!(unbridged("2.1.332"), ["a/deep/AGENTS.md"]);
}

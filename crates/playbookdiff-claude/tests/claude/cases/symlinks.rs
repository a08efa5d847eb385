//! Symbolic links, built in a temporary directory: rules reached through
//! links, and `CLAUDE.md` linked to `AGENTS.md`.

use crate::common::*;
use playbookdiff_model::{Applicability::*, DiagnosticCode as D, LoadPhase::*};

const VERSIONS: [&str; 2] = ["2.1.197", "2.1.332"];

/// Rule links by release (case `claude.c04_above_root_links`, recorded
/// with both): 2.1.197 follows every link; 2.1.332 follows those whose
/// target lies inside the launch directory and skips the others, so
/// launched in `sub` it loads no linked rule. Each link gets a note saying
/// which; a broken link is still reported, a link leaving the repository
/// gets `symlink-outside-repository` only where the release follows it.
#[test]
fn symlinked_rules_are_followed_or_skipped_by_release_and_each_link_names_it() {
    // Field report 8: the docs say links are followed, users report them skipped.
    let t = rule_symlinks();
    std::fs::create_dir_all(t.path().join("sub")).unwrap();
    for v in VERSIONS {
        let cfg = compile_dir(t.path(), &at_root().version(v));
        assert_eq!(
            received_paths(&cfg),
            [
                ".claude/rules/extra/logging.md",
                ".claude/rules/local.md",
                ".claude/rules/security.md"
            ],
            "{v}"
        );
        let sec = one(&cfg, ".claude/rules/security.md");
        assert_eq!(
            sec.source.resolved_path.as_ref().map(|p| p.as_str()),
            Some("shared/rules/security.md")
        );
        assert_eq!(sec.content, "# Security");
        let log = one(&cfg, ".claude/rules/extra/logging.md");
        assert_eq!(
            log.source.resolved_path.as_ref().map(|p| p.as_str()),
            Some("shared/rules/extra/logging.md")
        );
        assert!(one(&cfg, ".claude/rules/local.md")
            .source
            .resolved_path
            .is_none());
        let skips = v != "2.1.197";
        for link in [
            ".claude/rules/security.md",
            ".claude/rules/extra",
            ".claude/rules/dangling.md",
            ".claude/rules/outside.md",
        ] {
            let d = diags_at(&cfg, D::RuleSymlinkConflict, link);
            assert_eq!(d.len(), 1, "{link}");
            assert_says(d[0], "follow");
            assert_says(d[0], v);
        }
        assert_says(
            diags_at(&cfg, D::RuleSymlinkConflict, ".claude/rules/outside.md")[0],
            if skips {
                "not loaded"
            } else {
                "every rule link"
            },
        );
        assert_eq!(
            diags_at(&cfg, D::SymlinkDangling, ".claude/rules/dangling.md").len(),
            1
        );
        assert_eq!(
            diags_at(
                &cfg,
                D::SymlinkOutsideRepository,
                ".claude/rules/outside.md"
            )
            .len(),
            usize::from(!skips),
            "{v}"
        );
        // Launched in `sub`: the targets lie outside the launch directory.
        let cfg = compile_dir(t.path(), &at_root().cwd("sub").version(v));
        let want: &[&str] = if skips {
            &[".claude/rules/local.md"]
        } else {
            &[
                ".claude/rules/extra/logging.md",
                ".claude/rules/local.md",
                ".claude/rules/security.md",
            ]
        };
        assert_eq!(received_paths(&cfg), want, "{v}");
    }
}

/// A rule link that leads to no file (a loop, a missing target) is
/// reported as broken, and its note does not claim a target outside the
/// launch directory, which contradicted the `symlink-loop` diagnostic of
/// the same link.
#[test]
fn a_broken_rule_link_is_not_said_to_lead_outside_the_launch_directory() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "# Project\n");
    mkdir(t.path(), ".claude/rules");
    link(t.path(), "loop.md", ".claude/rules/loop.md");
    link(t.path(), "missing.md", ".claude/rules/dangling.md");
    let cfg = compile_dir(t.path(), &at_root().version("2.1.332"));
    assert_eq!(
        diags_at(&cfg, D::SymlinkLoop, ".claude/rules/loop.md").len(),
        1
    );
    assert_eq!(
        diags_at(&cfg, D::SymlinkDangling, ".claude/rules/dangling.md").len(),
        1
    );
    for p in [".claude/rules/loop.md", ".claude/rules/dangling.md"] {
        let d = diags_at(&cfg, D::RuleSymlinkConflict, p);
        assert_eq!(d.len(), 1, "{p}");
        assert_says(d[0], "leads to no file");
        assert!(!d[0].message.contains("lies outside"), "{}", d[0].message);
    }
}

#[test]
fn claude_md_symlinked_to_agents_md_is_a_bridge_with_the_resolved_path() {
    // Field report 11 (with a bridge) and 17.
    let t = claude_md_symlink_bridge();
    let cfg = compile_dir(t.path(), &at_root());
    let root = one(&cfg, "CLAUDE.md");
    assert_placed(root, Startup, Effective, Some(0));
    assert_eq!(
        root.source.resolved_path.as_ref().map(|p| p.as_str()),
        Some("AGENTS.md")
    );
    assert_eq!(root.content, "# Shared agents");
    assert!(
        pieces(&cfg, "AGENTS.md").is_empty(),
        "AGENTS.md is received once, through CLAUDE.md"
    );
    assert!(diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md").is_empty());
    assert!(diags_at(&cfg, D::AgentsMdNotBridged, "apps/a/AGENTS.md").is_empty());
    // apps/b has AGENTS.md and no CLAUDE.md: Claude and Codex diverge there.
    let d = diags_at(&cfg, D::AgentsMdNotBridged, "apps/b/AGENTS.md");
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("@AGENTS.md") && d[0].message.contains("symbolic link"));
}

#[test]
fn nested_claude_md_symlink_loads_on_demand_only_where_the_link_exists() {
    let t = claude_md_symlink_bridge();
    let cfg = compile_dir(t.path(), &at_root().target("apps/a/src/main.ts"));
    let a = one(&cfg, "apps/a/CLAUDE.md");
    assert_placed(a, OnDemand, Effective, Some(1));
    assert_eq!(a.applies_to.as_str(), "apps/a");
    assert_eq!(
        a.source.resolved_path.as_ref().map(|p| p.as_str()),
        Some("apps/a/AGENTS.md")
    );

    let cfg = compile_dir(t.path(), &at_root().target("apps/b/src/main.ts"));
    assert_eq!(
        received_paths(&cfg),
        ["CLAUDE.md"],
        "nothing is received for apps/b"
    );
    assert_placed(one(&cfg, "apps/a/CLAUDE.md"), OnDemand, Conditional, None);
}

#[test]
fn a_claude_md_holding_only_a_file_name_is_reported_as_a_link_stored_as_text() {
    // Corpus finding: repositories whose `CLAUDE.md -> AGENTS.md` link was
    // checked out as a 9-byte text file. The agent receives the word.
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("AGENTS.md"), "# Rules\n").unwrap();
    std::fs::write(t.path().join("CLAUDE.md"), "AGENTS.md").unwrap();
    std::fs::create_dir(t.path().join("sub")).unwrap();
    std::fs::write(t.path().join("sub/CLAUDE.md"), "Use AGENTS.md and tests.\n").unwrap();
    let cfg = compile_dir(t.path(), &at_root());
    let d = diags(&cfg, D::SymlinkStoredAsText);
    assert_eq!(d.len(), 1, "{:#?}", cfg.diagnostics);
    assert_eq!(d[0].source.as_ref().unwrap().path.as_str(), "CLAUDE.md");
    assert_eq!(one(&cfg, "CLAUDE.md").content, "AGENTS.md");
    // A real link is not reported.
    let t2 = claude_md_symlink_bridge();
    assert!(diags(&compile_dir(t2.path(), &at_root()), D::SymlinkStoredAsText).is_empty());
}

/// An editor that saves with a byte order mark (common on Windows) writes
/// `\u{feff}@AGENTS.md`: an import, as without the mark, never a link
/// stored as text (whose advice would be to write `@\u{feff}@AGENTS.md`);
/// and a mark before a bare file name is still reported, named without it.
#[test]
fn a_byte_order_mark_does_not_make_an_import_a_link_stored_as_text() {
    for (bridge, reported) in [
        ("\u{feff}@AGENTS.md\r\n", false),
        ("\u{feff}@AGENTS.md", false),
        ("\u{feff}AGENTS.md", true),
    ] {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("AGENTS.md"), "# Rules\n\nUse tabs.\n").unwrap();
        std::fs::write(t.path().join("CLAUDE.md"), bridge).unwrap();
        let cfg = compile_dir(t.path(), &at_root());
        let d = diags(&cfg, D::SymlinkStoredAsText);
        assert_eq!(
            d.len(),
            usize::from(reported),
            "{bridge:?}: {:#?}",
            cfg.diagnostics
        );
        for d in d {
            assert!(d.message.contains("`AGENTS.md`"), "{}", d.message);
            assert!(!d.message.contains('\u{feff}'), "{}", d.message);
            assert!(!d.message.contains("u{feff}"), "{}", d.message);
        }
    }
}

/// `skill-not-discovered` advises moving a `SKILL.md` to
/// `.claude/skills/<name>/SKILL.md`; it must never name a file that is
/// already there (case `oracle.link_loops`: `.claude/skills/up` -> `..`
/// reaches `.claude/skills/real/SKILL.md` again, which Claude Code lists).
/// Folder links in a skills directory that reach a skill of this launch
/// directory, or one of a nested directory, give no such hint, from the
/// root or from the nested directory; a `SKILL.md` really too deep still
/// gets it.
#[test]
fn skill_not_discovered_never_names_a_file_already_where_skills_are_read() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let skill = |n: &str| format!("---\nname: {n}\ndescription: Use {n}.\n---\nBody.\n");
    write(r, ".claude/skills/real/SKILL.md", &skill("real"));
    write(r, ".claude/skills/group/deep/SKILL.md", &skill("deep"));
    write(r, "apps/web/.claude/skills/web/SKILL.md", &skill("web"));
    link(r, "..", ".claude/skills/up");
    link(r, "../../apps/web", ".claude/skills/web-app");
    for cwd in [".", "apps/web"] {
        for v in VERSIONS {
            let cfg = compile_dir(r, &at_root().cwd(cwd).version(v));
            let hints: Vec<&str> = cfg
                .diagnostics
                .iter()
                .filter(|d| d.code == D::SkillNotDiscovered)
                .filter_map(|d| d.source.as_ref().map(|s| s.path.as_str()))
                .collect();
            assert_eq!(
                hints,
                [".claude/skills/group/deep/SKILL.md"],
                "{cwd} {v}: {:#?}",
                cfg.diagnostics
            );
            assert!(cfg.skills.iter().any(|s| s.name == "real"), "{cwd} {v}");
        }
    }
}

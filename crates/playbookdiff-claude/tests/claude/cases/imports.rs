//! `@path` imports: inline expansion, Markdown structure, resolution,
//! look-alikes, cycles, depth, approval outside cwd.

use crate::common::*;
use playbookdiff_model::{Applicability::*, DiagnosticCode as D, InstructionKind, LoadPhase::*};

#[test]
fn agents_md_import_follows_the_importing_file_as_its_own_entry() {
    // Fidelity C5: the importing file stays whole, `@AGENTS.md` included,
    // and the imported file follows as its own entry (#49124).
    let cfg = compile("agents_md_import", at_root());
    let c = one(&cfg, "CLAUDE.md");
    assert_placed(c, Startup, Effective, Some(0));
    assert_eq!(c.content, "@AGENTS.md");
    assert_eq!(c.import_spans.len(), 1);
    let a = one(&cfg, "AGENTS.md");
    assert_eq!(a.kind, InstructionKind::Import);
    assert_placed(a, Startup, Effective, Some(1));
    assert_eq!(a.applies_to.as_str(), ".");
    assert_eq!(a.content, "# Conventions\n\n- Small pull requests.");
    assert_eq!(a.imported_from.as_deref(), Some(c.id.as_str()));
    assert_imported_from_resolves(&cfg);
    assert!(diags(&cfg, D::AgentsMdNotBridged).is_empty());
}

#[test]
fn recursive_imports_resolve_from_each_importing_file_and_spell_out_the_context() {
    // Depth first, each file after the one importing it.
    let cfg = compile("recursive_import", at_root());
    assert_eq!(
        received(&cfg),
        [
            ("CLAUDE.md".into(), "Top\n@docs/a.md\nEnd".into()),
            ("docs/a.md".into(), "A1\n@b.md\nA2".into()),
            ("docs/b.md".into(), "B".into()),
        ]
    );
    for i in &cfg.instructions {
        assert_eq!(i.applies_to.as_str(), ".", "{}", i.id);
    }
    let b = one(&cfg, "docs/b.md");
    assert_eq!(
        b.imported_from.as_deref(),
        Some(one(&cfg, "docs/a.md").id.as_str())
    );
    assert_imported_from_resolves(&cfg);
    assert_unique_ids(&cfg);
}

#[test]
fn imports_deeper_than_four_hops_are_not_loaded() {
    let cfg = compile("import_depth_limit", at_root());
    let got: Vec<String> = received_paths(&cfg);
    assert!(got.contains(&"h4.md".to_string()));
    assert!(!got.contains(&"h5.md".to_string()), "{got:?}");
    let d = diags_at(&cfg, D::ImportDepthExceeded, "h4.md");
    assert_eq!(d.len(), 1);
    assert_eq!(lines_of(d[0]), (2, 2));
}

#[test]
fn import_inside_a_code_span_is_literal_text() {
    let cfg = compile("import_in_code_span", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    assert_eq!(
        one(&cfg, "CLAUDE.md").content,
        "Write `@AGENTS.md` to import a file."
    );
    // So AGENTS.md has no bridge.
    assert_eq!(diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md").len(), 1);
}

#[test]
fn import_inside_fenced_or_indented_code_is_literal_text() {
    let cfg = compile("import_in_fenced_code", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    assert!(pieces(&cfg, "AGENTS.md").is_empty());
    assert_eq!(diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md").len(), 1);
}

#[test]
fn a_mid_line_import_leaves_the_importing_file_whole() {
    let cfg = compile("mid_document_import", at_root());
    assert_eq!(
        received(&cfg),
        [
            (
                "CLAUDE.md".into(),
                "# Title\n\nBefore @docs/guide.md after on the same line.\nLast line.".into()
            ),
            ("docs/guide.md".into(), "Guide text.".into()),
        ]
    );
    let c = one(&cfg, "CLAUDE.md");
    let l = c.source.lines.unwrap();
    assert_eq!((l.start, l.end), (1, 4));
    let span = c.import_spans[0];
    assert_eq!(
        &c.content[span.start as usize..span.end as usize],
        "@docs/guide.md"
    );
    // The whole file, trimmed at the end as the agent sends it.
    let file = std::fs::read_to_string(fixture("mid_document_import").join("CLAUDE.md")).unwrap();
    assert_eq!(c.bytes, file.trim_end().len() as u64);
}

#[test]
fn missing_import_stays_literal_with_a_diagnostic_and_mentions_are_not_imports() {
    let cfg = compile("import_missing", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    let d = diags_at(&cfg, D::ImportMissing, "CLAUDE.md");
    assert_eq!(d.len(), 1, "only @docs/missing.md, not @alice: {d:#?}");
    assert_eq!(lines_of(d[0]), (3, 3));
    assert!(d[0].message.contains("docs/missing.md"));
}

#[test]
fn imports_leaving_the_repository_are_not_followed_and_are_diagnosed() {
    let cfg = compile("import_outside_repository", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    let d = diags_at(&cfg, D::ImportOutsideRepository, "CLAUDE.md");
    let lines: Vec<(u32, u32)> = d.iter().map(|d| lines_of(d)).collect();
    assert_eq!(lines, [(3, 3), (4, 4), (5, 5)]);
}

#[test]
fn import_cycle_stops_at_the_repeated_file_with_a_safety_diagnostic() {
    let cfg = compile("import_cycle", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md", "a.md", "b.md"]);
    let d = diags(&cfg, D::ImportCycle);
    assert_eq!(d.len(), 2, "b.md -> a.md and b.md -> CLAUDE.md: {d:#?}");
    assert!(d
        .iter()
        .all(|d| d.source.as_ref().unwrap().path.as_str() == "b.md"));
    assert!(d[0].message.contains("stops"));
}

#[test]
fn import_inside_the_repository_but_outside_cwd_is_conditional_pending_approval() {
    let cfg = compile("import_outside_cwd", at_root().cwd("apps/api"));
    assert_eq!(
        received(&cfg),
        [(
            "apps/api/CLAUDE.md".into(),
            "API\n@../../docs/shared.md\nafter".into()
        )]
    );
    let shared = one(&cfg, "docs/shared.md");
    assert_placed(shared, Startup, Conditional, None);
    assert_eq!(shared.content, "Shared\n@more.md", "parsed as evidence");
    assert_eq!(shared.applies_to.as_str(), "apps/api");
    // What it imports in turn is conditional too.
    assert_placed(one(&cfg, "docs/more.md"), Startup, Conditional, None);
    let d = diags_at(&cfg, D::ImportOutsideCwd, "apps/api/CLAUDE.md");
    assert_eq!(d.len(), 1);
    assert_eq!(lines_of(d[0]), (2, 2));

    // From the root the same import is inside cwd (and the file is on demand).
    let cfg = compile("import_outside_cwd", at_root().target("apps/api/CLAUDE.md"));
    assert_eq!((one(&cfg, "docs/shared.md").applicability), Effective);
    assert!(diags(&cfg, D::ImportOutsideCwd).is_empty());
}

#[test]
fn import_with_trailing_punctuation_is_not_imported_and_warns_the_author() {
    // Field report 3.
    let cfg = compile("import_trailing_punctuation", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    assert!(one(&cfg, "CLAUDE.md").content.contains("@docs/a.md, then"));
    let d = diags_at(&cfg, D::ImportLookalike, "CLAUDE.md");
    let lines: Vec<(u32, u32)> = d.iter().map(|d| lines_of(d)).collect();
    assert_eq!(&lines[..3], [(1, 1), (2, 2), (3, 3)]);
    // A look-alike of a file that does not exist either is still reported.
    let missing = diags_at(&cfg, D::ImportMissing, "CLAUDE.md");
    assert_eq!(
        missing.iter().map(|d| lines_of(d)).collect::<Vec<_>>(),
        [(4, 4)]
    );
}

#[test]
fn at_path_followed_by_a_possessive_or_glued_to_an_opening_mark_is_a_lookalike() {
    let cfg = compile("import_trailing_punctuation", at_root());
    let d = diags_at(&cfg, D::ImportLookalike, "CLAUDE.md");
    let lines: Vec<(u32, u32)> = d.iter().map(|d| lines_of(d)).collect();
    assert_eq!(&lines[3..], [(5, 5), (6, 6), (6, 6)]);
    assert_says(d[3], "`'s` after `docs/a.md`");
    assert_says(d[4], "follows `(`");
    assert_says(d[5], "follows `\"`");
}

#[test]
fn import_path_with_a_space_stays_literal_and_the_rest_of_the_line_is_not_a_path() {
    // Field report 4.
    let cfg = compile("import_path_with_spaces", at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    assert_eq!(
        one(&cfg, "CLAUDE.md").content,
        "Read @My Docs/a.md for details."
    );
    let d = diags_at(&cfg, D::ImportLookalike, "CLAUDE.md");
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("My Docs/a.md"));
    assert!(diags(&cfg, D::ImportMissing).is_empty());
}

#[test]
fn agents_md_import_in_a_subdirectory_resolves_next_to_the_importing_file() {
    // Field report 5.
    let cfg = compile("subdir_agents_md_import", at_root().cwd("apps/api"));
    // The file is `@AGENTS.md\n`: itself, then the file it imports.
    assert_eq!(
        received(&cfg),
        [
            ("apps/api/CLAUDE.md".into(), "@AGENTS.md".into()),
            ("apps/api/AGENTS.md".into(), "# API agents".into()),
        ]
    );
    let a = one(&cfg, "apps/api/AGENTS.md");
    assert_eq!(a.applies_to.as_str(), "apps/api");
    assert!(pieces(&cfg, "AGENTS.md").is_empty());
    assert_imported_from_resolves(&cfg);

    let cfg = compile(
        "subdir_agents_md_import",
        at_root().target("apps/api/src/x.ts").version("2.1.197"),
    );
    let a = one(&cfg, "apps/api/AGENTS.md");
    assert_placed(a, OnDemand, Effective, Some(1));
    assert_eq!(a.applies_to.as_str(), "apps/api");
    // The root AGENTS.md has no bridge.
    assert_eq!(diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md").len(), 1);
    assert!(diags_at(&cfg, D::AgentsMdNotBridged, "apps/api/AGENTS.md").is_empty());

    // From 2.1.281 (2.1.332 observed) no memory file is on the path from the
    // root to the launch directory, so the root AGENTS.md loads at startup
    // by the fallback, before the on-demand pair.
    let cfg = compile(
        "subdir_agents_md_import",
        at_root().target("apps/api/src/x.ts").version("2.1.332"),
    );
    assert_placed(one(&cfg, "AGENTS.md"), Startup, Effective, Some(0));
    assert_placed(
        one(&cfg, "apps/api/AGENTS.md"),
        OnDemand,
        Effective,
        Some(2),
    );
    assert!(diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md").is_empty());
}

// ----- Each file is included once -----

/// The tester's repository: five files each importing the next one forty
/// times, and a CLAUDE.md importing the first forty times.
fn fan_out_repo() -> tempfile::TempDir {
    fan_out_repo_of(40)
}

/// [`fan_out_repo`] with `fan` imports per file.
fn fan_out_repo_of(fan: usize) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for l in 1..=5 {
        write(
            t.path(),
            &format!("f{l}.md"),
            &format!("@f{}.md\n", l + 1).repeat(fan),
        );
    }
    write(t.path(), "f6.md", "leaf\n");
    write(t.path(), "CLAUDE.md", &"@f1.md\n".repeat(fan));
    t
}

/// Expanding each import of each file would cost the fan-out to the
/// power of the depth (40^4 listings here); each file is expanded once,
/// so twice the imports per file cost about twice the work (allocations).
#[test]
fn import_fan_out_costs_work_linear_in_the_imports() {
    if !playbookdiff_testkit::alone!("import_fan_out_costs_work_linear_in_the_imports") {
        return;
    }
    let ratio = playbookdiff_testkit::work::growth(crate::ALLOCATOR, 20, fan_out_repo_of, |t| {
        compile_dir(t.path(), &at_root());
    });
    assert!(ratio < 2.6, "x{ratio:.2} for twice the imports per file");
}

#[test]
fn import_fan_out_expands_each_file_once() {
    let t = fan_out_repo();
    let cfg = compile_dir(t.path(), &at_root());
    // One listing per file, each after its importer: f1..f4 once each, f5
    // is five hops away, and the 39 other imports in every file repeat.
    assert_eq!(
        received_paths(&cfg),
        ["CLAUDE.md", "f1.md", "f2.md", "f3.md", "f4.md"]
    );
    assert_eq!(cfg.instructions.len(), 5);
    let repeated = diags(&cfg, D::ImportRepeated);
    let from: Vec<&str> = repeated
        .iter()
        .map(|d| d.source.as_ref().unwrap().path.as_str())
        .collect();
    assert_eq!(
        from,
        ["f3.md", "f2.md", "f1.md", "CLAUDE.md"],
        "one per importing file"
    );
    assert!(
        repeated[3]
            .message
            .contains("(imported earlier in this file), as do 38 later imports"),
        "{}",
        repeated[3].message
    );
    assert_eq!(lines_of(repeated[3]), (2, 2), "the first repeat");
    assert_eq!(diags(&cfg, D::ImportDepthExceeded).len(), 1);
    assert!(cfg.diagnostics.len() < 20, "{:#?}", cfg.diagnostics);
    assert_imported_from_resolves(&cfg);
    assert_unique_ids(&cfg);
}

#[test]
fn five_thousand_imports_of_one_file_list_it_once_with_one_repeat_diagnostic() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "shared.md", "Shared\n");
    write(
        t.path(),
        "CLAUDE.md",
        &"See @shared.md here.\n".repeat(5000),
    );
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(pieces(&cfg, "shared.md").len(), 1);
    assert_eq!(pieces(&cfg, "CLAUDE.md").len(), 1, "whole");
    let d = diags(&cfg, D::ImportRepeated);
    assert_eq!(d.len(), 1);
    assert_says(d[0], "as do 4998 later imports");
}

#[test]
fn a_file_imported_twice_is_included_where_it_first_enters_the_context() {
    // CLAUDE.md imports b.md then c.md; b.md imports c.md first.
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "Top @b.md then @c.md end\n");
    write(t.path(), "b.md", "B @c.md\n");
    write(t.path(), "c.md", "C\n");
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(
        received(&cfg),
        [
            ("CLAUDE.md".into(), "Top @b.md then @c.md end".into()),
            ("b.md".into(), "B @c.md".into()),
            ("c.md".into(), "C".into()),
        ]
    );
    let d = diags_at(&cfg, D::ImportRepeated, "CLAUDE.md");
    assert_eq!(d.len(), 1);
    assert_says(d[0], "imported by `b.md`");
    assert_imported_from_resolves(&cfg);
}

#[test]
fn the_first_inclusion_in_context_order_wins_effective_before_conditional() {
    // `a` is discovered first (shallower) but is conditional; `b/c` loads
    // on demand for the target. The shared file belongs to `b/c`.
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a/CLAUDE.md", "A @../docs/shared.md\n");
    write(t.path(), "b/c/CLAUDE.md", "C @../../docs/shared.md\n");
    write(t.path(), "docs/shared.md", "Shared\n");
    let cfg = compile_dir(t.path(), &at_root().target("b/c/x.ts"));
    let shared = one(&cfg, "docs/shared.md");
    assert_placed(shared, OnDemand, Effective, Some(1));
    assert_eq!(shared.applies_to.as_str(), "b/c");
    assert_eq!(diags_at(&cfg, D::ImportRepeated, "a/CLAUDE.md").len(), 1);
    assert_imported_from_resolves(&cfg);
}

#[test]
fn a_second_path_to_the_same_memory_file_is_not_loaded_twice() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), ".claude/CLAUDE.md", "Once\n");
    link(t.path(), ".claude/CLAUDE.md", "CLAUDE.md");
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(received(&cfg), [("CLAUDE.md".into(), "Once".into())]);
    let d = diags_at(&cfg, D::ImportRepeated, ".claude/CLAUDE.md");
    assert_eq!(d.len(), 1, "{:#?}", cfg.diagnostics);
    assert!(cfg.assumptions.iter().any(|a| a.contains("once")));
}

#[test]
fn cycle_and_depth_diagnostics_are_reported_once_per_importing_file_and_target() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "@a.md\n");
    // Two spellings of the same target, each many times.
    write(t.path(), "a.md", &"@CLAUDE.md @./CLAUDE.md\n".repeat(20));
    write(t.path(), "h1.md", "@h2.md\n");
    write(t.path(), "h2.md", "@h3.md\n");
    write(t.path(), "h3.md", &"@h4.md @./h4.md\n".repeat(20));
    write(t.path(), "h4.md", "deep\n");
    write(t.path(), ".claude/rules/r.md", "@../../docs/x.md\n");
    write(t.path(), "docs/x.md", "@../h1.md\n");
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(
        diags(&cfg, D::ImportCycle).len(),
        1,
        "{:#?}",
        cfg.diagnostics
    );
    // r.md → x.md → h1 → h2 → h3 (4 hops) → h4 (5 hops).
    let d = diags(&cfg, D::ImportDepthExceeded);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].source.as_ref().unwrap().path.as_str(), "h3.md");
}

// ----- One diagnostic per token -----

#[test]
fn an_import_leaving_the_repository_gets_one_diagnostic_not_also_missing() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    write(t.path(), "outside.md", "outside\n");
    write(
        &repo,
        "CLAUDE.md",
        "@/etc/passwd\n@../outside.md\n@~/x.md\n@/etc/hostname.md\n",
    );
    let cfg = compile_dir(&repo, &at_root());
    for line in 1..=4 {
        let d = diags_on_line(&cfg, "CLAUDE.md", line);
        assert_eq!(d.len(), 1, "line {line}: {d:#?}");
        assert_eq!(d[0].code, D::ImportOutsideRepository, "line {line}");
    }
    assert!(diags(&cfg, D::ImportMissing).is_empty());
}

#[test]
fn an_import_below_a_directory_that_cannot_be_listed_is_unknown_not_missing() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "@locked/CLAUDE.md\n@open/gone.md\n");
    write(t.path(), "locked/CLAUDE.md", "secret\n");
    write(t.path(), "open/a.md", "a\n");
    let tree = LockedDirs {
        inner: playbookdiff_source::WorkingTree::open(t.path()).unwrap(),
        locked: vec!["locked"],
    };
    let cfg = compile_tree(&tree, &at_root());
    let d = diags_on_line(&cfg, "CLAUDE.md", 1);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].code, D::Unreadable);
    assert!(
        d[0].message.contains("`locked` could not be listed")
            && !d[0].message.contains("names no file"),
        "{}",
        d[0].message
    );
    // A readable directory still gives a plain missing file.
    assert_eq!(
        diags_on_line(&cfg, "CLAUDE.md", 2)[0].code,
        D::ImportMissing
    );
}

#[test]
fn an_import_of_a_directory_says_it_is_a_directory_and_imports_nothing() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "docs/a.md", "A\n");
    write(t.path(), "CLAUDE.md", "@docs\n@docs/\n");
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    for line in [1, 2] {
        let d = diags_on_line(&cfg, "CLAUDE.md", line);
        assert_eq!(d.len(), 1, "line {line}: {d:#?}");
        assert_eq!(d[0].code, D::NotARegularFile);
        assert_says(d[0], "a directory");
    }
}

#[test]
fn an_import_with_an_anchor_imports_the_file() {
    // Fidelity C7: the `#…` part is dropped.
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "docs/a.md", "A\n");
    write(t.path(), "CLAUDE.md", "See @docs/a.md#setup first.\n");
    let cfg = compile_dir(t.path(), &at_root());
    assert_eq!(received_paths(&cfg), ["CLAUDE.md", "docs/a.md"]);
    assert!(diags(&cfg, D::ImportLookalike).is_empty());
    assert!(diags(&cfg, D::ImportMissing).is_empty());
}

/// `CLAUDE.md` holds `@AGENTS.md` and `AGENTS.md` cannot be read (no read
/// permission): its content is unknown (`unreadable`), but it is bridged,
/// so no `agents-md-not-bridged` tells the user to add the line
/// `@AGENTS.md` that `CLAUDE.md` already holds. Without the import it is
/// still reported.
#[test]
fn an_unreadable_agents_md_that_claude_md_imports_is_not_reported_unbridged() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "# Project\n\n@AGENTS.md\n");
    write(t.path(), "AGENTS.md", "shared\n");
    let tree = DeniedFiles {
        inner: playbookdiff_source::WorkingTree::open(t.path()).unwrap(),
        denied: vec!["AGENTS.md"],
    };
    let cfg = compile_tree(&tree, &at_root());
    assert!(
        diags(&cfg, D::Unreadable).iter().any(|d| d
            .source
            .as_ref()
            .is_some_and(|s| s.path.as_str() == "AGENTS.md")),
        "{:#?}",
        cfg.diagnostics
    );
    assert!(
        diags(&cfg, D::AgentsMdNotBridged).is_empty(),
        "{:#?}",
        cfg.diagnostics
    );

    write(t.path(), "CLAUDE.md", "# Project\n");
    let tree = DeniedFiles {
        inner: playbookdiff_source::WorkingTree::open(t.path()).unwrap(),
        denied: vec!["AGENTS.md"],
    };
    let cfg = compile_tree(&tree, &at_root());
    assert_eq!(
        diags(&cfg, D::AgentsMdNotBridged).len(),
        1,
        "{:#?}",
        cfg.diagnostics
    );
}

/// Two directories that cannot be listed: each `unreadable` diagnostic
/// names its directory as its subject (a directory has no file to be the
/// source), so the report shows where (it printed `-`) and they stay two
/// problems.
#[test]
fn a_directory_that_cannot_be_listed_is_named_by_its_diagnostic() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "root\n");
    write(t.path(), "a/CLAUDE.md", "a\n");
    write(t.path(), "b/c/CLAUDE.md", "c\n");
    let tree = LockedDirs {
        inner: playbookdiff_source::WorkingTree::open(t.path()).unwrap(),
        locked: vec!["a", "b/c"],
    };
    let cfg = compile_tree(&tree, &at_root());
    let mut subjects: Vec<Option<&str>> = diags(&cfg, D::Unreadable)
        .iter()
        .filter(|d| d.message.contains("could not be listed"))
        .map(|d| d.subject.as_deref())
        .collect();
    subjects.sort();
    assert_eq!(subjects, [Some("a"), Some("b/c")], "{:#?}", cfg.diagnostics);
}

/// Reading the launch directory's `.claude/CLAUDE.md` itself: 2.1.197
/// attaches its import `@../util.md` again (its nested loader takes
/// `.claude` for a directory with its own memory, and skips only the file
/// read), 2.1.332 attaches nothing; the file itself is not attached by
/// either (case `fuzz.claude-code.1003`, found by the fuzzer).
#[test]
fn reading_dot_claude_memory_attaches_its_imports_again_before_2_1_277() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures/fuzz-claude-code-1003");
    let attached = |v: &str| -> Vec<String> {
        let cfg = compile_dir(&dir, &at_root().target(".claude/CLAUDE.md").version(v));
        cfg.instructions
            .iter()
            .filter(|i| i.load_phase == OnDemand && i.applicability == Effective)
            .map(|i| i.source.path.to_string())
            .collect()
    };
    assert_eq!(attached("2.1.197"), ["util.md"]);
    assert!(attached("2.1.332").is_empty());
}

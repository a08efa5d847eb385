//! `compare_settled`: findings another launch directory already holds come
//! in outline, and everything that orders, counts, accepts and excludes
//! them is what `compare` gives.

use playbookdiff_compare::{
    compare, compare_settled, compare_settled_findings, Comparison, FindingType,
};
use playbookdiff_testkit::fixture;

/// The Claude Code and Codex compilations of fixture `name` launched at
/// `cwd`, compared in full and with every id settled.
fn both(name: &str, cwd: &str) -> (Comparison, Comparison) {
    let root = fixture!(name);
    let ctx = playbookdiff_testkit::at_root().cwd(cwd);
    let a = playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, &root, &ctx);
    let b = playbookdiff_testkit::compile_dir(&playbookdiff_codex::ADAPTER, &root, &ctx);
    (compare(&[&a, &b]), compare_settled(&[&a, &b], &|_| true))
}

#[test]
fn an_outline_orders_counts_and_excludes_as_the_full_finding() {
    let mut outlined = 0;
    for (name, cwd) in [
        ("nested_claude_only", "."),
        ("nested_claude_only", "server"),
        ("nested_agents_only", "."),
        ("nested_both", "."),
        ("different_wording", "."),
        ("pointer_stub", "."),
        ("fr17_partial_bridges", "."),
        ("agents_skills_only", "."),
        ("mcp_one_sided", "."),
    ] {
        let (full, settled) = both(name, cwd);
        assert_eq!(settled.rows, full.rows, "{name} at {cwd}");
        assert_eq!(settled.summary, full.summary, "{name} at {cwd}");
        assert_eq!(
            settled.findings.len(),
            full.findings.len(),
            "{name} at {cwd}"
        );
        for (s, f) in settled.findings.iter().zip(&full.findings) {
            let what = format!("{name} at {cwd}: {}", f.id);
            assert_eq!(s.id, f.id, "{what}");
            assert_eq!(
                (s.category, s.kind, s.severity),
                (f.category, f.kind, f.severity),
                "{what}"
            );
            assert_eq!(
                (&s.present_in, &s.absent_from),
                (&f.present_in, &f.absent_from),
                "{what}"
            );
            assert_eq!(s.items, f.items, "{what}");
            assert_eq!(
                (&s.key, &s.scope, s.actionable),
                (&f.key, &f.scope, f.actionable),
                "{what}"
            );
            assert!(s.problems.is_empty(), "{what}");
            if s.kind == FindingType::Missing {
                // Built in outline: none of what only the kept copy shows.
                assert!(!f.message.is_empty(), "{what}");
                assert!(s.message.is_empty() && s.paragraphs.is_empty(), "{what}");
                assert!(s.absences.is_empty() && s.subject.is_none(), "{what}");
                outlined += 1;
            }
        }
    }
    assert!(
        outlined >= 3,
        "only {outlined} missing findings in the fixtures"
    );
}

#[test]
fn nothing_settled_is_the_full_comparison() {
    for name in [
        "nested_claude_only",
        "different_wording",
        "fr17_partial_bridges",
    ] {
        let root = fixture!(name);
        let ctx = playbookdiff_testkit::at_root();
        let a = playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, &root, &ctx);
        let b = playbookdiff_testkit::compile_dir(&playbookdiff_codex::ADAPTER, &root, &ctx);
        assert_eq!(
            compare_settled(&[&a, &b], &|_| false),
            compare(&[&a, &b]),
            "{name}"
        );
    }
}

#[test]
fn without_rows_is_the_comparison_less_its_rows() {
    for (name, cwd) in [
        ("nested_claude_only", "."),
        ("nested_claude_only", "server"),
        ("different_wording", "."),
        ("fr17_partial_bridges", "."),
        ("agents_skills_only", "."),
        ("mcp_one_sided", "."),
    ] {
        let root = fixture!(name);
        let ctx = playbookdiff_testkit::at_root().cwd(cwd);
        let a = playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, &root, &ctx);
        let b = playbookdiff_testkit::compile_dir(&playbookdiff_codex::ADAPTER, &root, &ctx);
        let none = |_: &str| false;
        let all = |_: &str| true;
        let choices: [&dyn Fn(&str) -> bool; 2] = [&none, &all];
        for settled in choices {
            let mut full = compare_settled(&[&a, &b], settled);
            assert!(!full.rows.is_empty(), "{name} at {cwd}");
            full.rows.clear();
            assert_eq!(
                compare_settled_findings(&[&a, &b], settled),
                full,
                "{name} at {cwd}"
            );
        }
    }
}

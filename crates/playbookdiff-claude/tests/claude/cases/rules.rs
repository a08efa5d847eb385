//! `.claude/rules`: unconditional and path-scoped rules, `paths` forms,
//! ordering within one root, nested roots, broken front matter.

use crate::common::*;
use playbookdiff_model::{
    Applicability::*, DiagnosticCode as D, InstructionKind, LoadPhase::*, ResolutionStrategy,
};

#[test]
fn unconditional_rules_load_at_startup_after_the_memory_files_of_their_directory() {
    let cfg = compile("unconditional_rules", at_root());
    assert_eq!(
        received_paths(&cfg),
        [
            "CLAUDE.md",
            ".claude/rules/a-testing.md",
            ".claude/rules/b-style.md"
        ]
    );
    let r = one(&cfg, ".claude/rules/a-testing.md");
    assert_placed(r, Startup, Effective, Some(1));
    assert_eq!(r.kind, InstructionKind::Rule);
    assert_eq!(r.applies_to.as_str(), ".");
    assert_eq!(r.content, "# Testing", "front matter is not content");
    let l = r.source.lines.unwrap();
    assert_eq!((l.start, l.end), (4, 4));
}

#[test]
fn rules_roots_on_the_ancestor_chain_load_root_first_and_apply_to_their_owner() {
    let cfg = compile("unconditional_rules", at_root().cwd("apps/api"));
    assert_eq!(
        received_paths(&cfg),
        [
            "CLAUDE.md",
            ".claude/rules/a-testing.md",
            ".claude/rules/b-style.md",
            "apps/api/CLAUDE.md",
            "apps/api/.claude/rules/api.md"
        ]
    );
    assert_eq!(
        one(&cfg, "apps/api/.claude/rules/api.md")
            .applies_to
            .as_str(),
        "apps/api"
    );
}

#[test]
fn path_scoped_rule_is_on_demand_effective_for_a_matching_target_and_conditional_otherwise() {
    let cfg = compile("path_scoped_rule", at_root().target("apps/api/src/x.ts"));
    let r = one(&cfg, ".claude/rules/api.md");
    assert_placed(r, OnDemand, Effective, Some(1));
    assert_eq!(r.paths.as_deref(), Some(&["apps/api/**".to_string()][..]));
    // The trailing `/**` is dropped before matching (fidelity C1).
    assert!(r.reason.contains("matches `apps/api`"), "{}", r.reason);

    let cfg = compile("path_scoped_rule", at_root().target("apps/web/x.ts"));
    assert_placed(
        one(&cfg, ".claude/rules/api.md"),
        OnDemand,
        Conditional,
        None,
    );
    assert!(
        diags(&cfg, D::PathScopedConditional).is_empty(),
        "the target decided it"
    );

    let cfg = compile("path_scoped_rule", at_root());
    assert_placed(
        one(&cfg, ".claude/rules/api.md"),
        OnDemand,
        Conditional,
        None,
    );
    assert_eq!(
        diags_at(&cfg, D::PathScopedConditional, ".claude/rules/api.md").len(),
        1
    );
}

#[test]
fn every_paths_form_scopes_the_rule_and_globs_does_not() {
    // Field report 6: a list, a quoted string, a comma string, braces.
    let cfg = compile("rule_paths_forms", at_root().target("src/api/users.ts"));
    for p in ["list", "quoted", "comma", "brace"] {
        let r = one(&cfg, &format!(".claude/rules/{p}.md"));
        assert_eq!(
            (r.load_phase, r.applicability),
            (OnDemand, Effective),
            "{p}"
        );
    }
    let comma = one(&cfg, ".claude/rules/comma.md");
    assert_eq!(
        comma.paths.as_deref(),
        Some(&["src/api/**".to_string(), "lib/api/**".to_string()][..])
    );
    let g = one(&cfg, ".claude/rules/globs.md");
    assert_eq!((g.load_phase, g.applicability), (Startup, Effective));
    assert!(g.paths.is_none());
    let d = diags_at(&cfg, D::RuleGlobsNotPaths, ".claude/rules/globs.md");
    assert_eq!(d.len(), 1);
    // The line of the `globs:` key.
    assert_eq!(lines_of(d[0]), (2, 2));

    let cfg = compile("rule_paths_forms", at_root().target("lib/api/a.ts"));
    assert_eq!(one(&cfg, ".claude/rules/comma.md").applicability, Effective);
    for p in ["list", "quoted", "brace"] {
        assert_eq!(
            one(&cfg, &format!(".claude/rules/{p}.md")).applicability,
            Conditional,
            "{p}"
        );
    }
    let cfg = compile("rule_paths_forms", at_root().target("tests/api/a.ts"));
    assert_eq!(one(&cfg, ".claude/rules/list.md").applicability, Effective);
}

#[test]
fn rule_with_a_tab_indented_list_is_path_scoped_after_the_retry() {
    // Field report 7 (a tab in the YAML) predates Claude Code's retry with
    // tabs expanded (fidelity C2): the rule is path-scoped, as seen with
    // 2.1.197 and 2.1.332.
    let cfg = compile("rule_invalid_frontmatter", at_root());
    let r = one(&cfg, ".claude/rules/broken.md");
    assert_placed(r, OnDemand, Conditional, None);
    assert_eq!(r.paths.as_deref(), Some(&["src/**".to_string()][..]));
    let d = diags_at(&cfg, D::InvalidFrontmatter, ".claude/rules/broken.md");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].severity, playbookdiff_model::Severity::Info);
}

#[test]
fn rules_in_subdirectories_of_one_root_are_ordered_by_path_with_an_assumption_diagnostic() {
    let cfg = compile("recursive_rule_order", at_root());
    assert_eq!(
        received_paths(&cfg),
        [
            ".claude/rules/a.md",
            ".claude/rules/backend.md",
            ".claude/rules/backend/api.md",
            ".claude/rules/backend/db/schema.md",
            ".claude/rules/frontend/ui.md",
            ".claude/rules/z.md",
        ]
    );
    let orders: Vec<Option<u32>> = cfg
        .received_instructions()
        .iter()
        .map(|i| i.order)
        .collect();
    assert_eq!(orders, (0..6).map(Some).collect::<Vec<_>>());
    assert!(cfg
        .instructions
        .iter()
        .all(|i| i.applies_to.as_str() == "."));
    assert!(
        pieces(&cfg, ".claude/rules/notes.txt").is_empty(),
        "only .md files are rules"
    );
    assert_eq!(
        diags_at(&cfg, D::RuleOrderAssumed, ".claude/rules").len(),
        1
    );
}

#[test]
fn nested_rules_root_below_cwd_loads_on_demand_when_the_target_is_below_it() {
    let cfg = compile("nested_rules_root", at_root());
    assert_placed(
        one(&cfg, "apps/api/.claude/rules/api.md"),
        OnDemand,
        Conditional,
        None,
    );

    let cfg = compile("nested_rules_root", at_root().target("apps/api/src/x.ts"));
    assert_placed(
        one(&cfg, "apps/api/.claude/rules/api.md"),
        OnDemand,
        Effective,
        Some(1),
    );
    assert_eq!(
        one(&cfg, "apps/api/.claude/rules/api.md")
            .applies_to
            .as_str(),
        "apps/api"
    );

    let cfg = compile("nested_rules_root", at_root().target("apps/web/x.ts"));
    assert_placed(
        one(&cfg, "apps/api/.claude/rules/api.md"),
        OnDemand,
        Conditional,
        None,
    );

    // From its own directory it is the ancestor-chain root and is read.
    let cfg = compile("nested_rules_root", at_root().cwd("apps/api"));
    assert_placed(
        one(&cfg, "apps/api/.claude/rules/api.md"),
        Startup,
        Effective,
        Some(1),
    );
}

#[test]
fn excluded_rule_is_listed_as_excluded_with_the_settings_file_that_excludes_it() {
    let cfg = compile("excluded_rule", at_root().target("src/api/a.ts"));
    assert_eq!(received_paths(&cfg), [".claude/rules/style.md"]);
    for p in [
        ".claude/rules/legacy-forms.md",
        ".claude/rules/legacy-api.md",
    ] {
        let r = one(&cfg, p);
        assert_eq!(r.applicability, Excluded, "{p}");
        assert_eq!(r.order, None);
        let res = r.resolution.as_ref().expect("resolution");
        assert_eq!(res.strategy, ResolutionStrategy::Excluded);
        assert_eq!(
            res.sources.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            [".claude/settings.json"]
        );
        assert_eq!(diags_at(&cfg, D::InstructionExcluded, p).len(), 1, "{p}");
    }
    // An excluded rule is not also reported as merely path-conditional.
    let cfg = compile("excluded_rule", at_root());
    assert!(diags(&cfg, D::PathScopedConditional).is_empty());
}

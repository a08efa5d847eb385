//! Skills: discovery, nesting, same names, invocation, `paths`, the listing
//! budget, `skillOverrides`, legacy commands.

use crate::common::*;
use playbookdiff_model::{
    AdvertisementState as Ad, Applicability::*, DiagnosticCode as D, LoadPhase::*, Permission::*,
};

#[test]
fn root_skill_is_effective_at_startup_invocable_both_ways_and_advertised() {
    let cfg = compile("root_skill", at_root());
    let s = skill(&cfg, ".claude/skills/deploy/SKILL.md");
    assert_eq!(s.name, "deploy");
    assert_eq!((s.load_phase, s.applicability), (Startup, Effective));
    assert_eq!(
        (s.invocation.explicit, s.invocation.implicit),
        (Allowed, Allowed)
    );
    assert_eq!(s.advertisement.state, Ad::Advertised);
    assert_eq!(s.description.as_deref(), Some("Deploy the app to staging."));
    let l = s.source.lines.unwrap();
    assert_eq!((l.start, l.end), (1, 4));
    // Without front matter: the directory name and the first non-empty
    // line, heading marker stripped (fidelity C19).
    let s = skill(&cfg, ".claude/skills/no-frontmatter/SKILL.md");
    assert_eq!(s.name, "no-frontmatter");
    assert_eq!(s.description.as_deref(), Some("Changelog"));
}

#[test]
fn invocation_flags_map_to_explicit_implicit_and_advertisement() {
    let cfg = compile("skill_invocation", at_root());
    let m = skill(&cfg, ".claude/skills/manual/SKILL.md");
    assert_eq!(
        (
            m.invocation.explicit,
            m.invocation.implicit,
            m.advertisement.state
        ),
        (Allowed, Blocked, Ad::Hidden)
    );
    let b = skill(&cfg, ".claude/skills/background/SKILL.md");
    assert_eq!(
        (
            b.invocation.explicit,
            b.invocation.implicit,
            b.advertisement.state
        ),
        (Blocked, Allowed, Ad::Advertised)
    );
    let d = skill(&cfg, ".claude/skills/default/SKILL.md");
    assert_eq!(
        (
            d.invocation.explicit,
            d.invocation.implicit,
            d.advertisement.state
        ),
        (Allowed, Allowed, Ad::Advertised)
    );
    let y = skill(&cfg, ".claude/skills/yesno/SKILL.md");
    assert_eq!(
        (
            y.invocation.explicit,
            y.invocation.implicit,
            y.advertisement.state
        ),
        (Blocked, Blocked, Ad::Hidden)
    );
}

#[test]
fn nested_skill_is_on_demand_effective_with_target_conditional_without_and_startup_from_its_cwd() {
    let p = "apps/web/.claude/skills/storybook/SKILL.md";
    let cfg = compile("nested_skill", at_root().target("apps/web/src/button.tsx"));
    let s = skill(&cfg, p);
    assert_eq!((s.load_phase, s.applicability), (OnDemand, Effective));
    assert!(
        s.reason
            .contains("after a file in `apps/web` is read or edited"),
        "{}",
        s.reason
    );

    let cfg = compile("nested_skill", at_root());
    assert_eq!(
        (skill(&cfg, p).load_phase, skill(&cfg, p).applicability),
        (OnDemand, Conditional)
    );
    let cfg = compile("nested_skill", at_root().target("apps/api/src/server.ts"));
    assert_eq!(skill(&cfg, p).applicability, Conditional);

    let cfg = compile("nested_skill", at_root().cwd("apps/web"));
    assert_eq!(
        (skill(&cfg, p).load_phase, skill(&cfg, p).applicability),
        (Startup, Effective)
    );
}

#[test]
fn root_and_nested_skills_with_one_name_are_both_kept_and_cross_referenced() {
    // Field report 10.
    let cfg = compile(
        "duplicate_root_nested_skill",
        at_root().target("apps/web/index.ts"),
    );
    let root = skill(&cfg, ".claude/skills/deploy/SKILL.md");
    let web = skill(&cfg, "apps/web/.claude/skills/deploy/SKILL.md");
    // Fidelity C17: the nested one is offered as `<dir>:<name>`.
    assert_eq!(
        (root.name.as_str(), web.name.as_str()),
        ("deploy", "apps/web:deploy")
    );
    assert_ne!(root.id, web.id);
    assert_eq!((root.load_phase, web.load_phase), (Startup, OnDemand));
    assert!(
        web.reason.contains("offered as `apps/web:deploy`"),
        "{}",
        web.reason
    );
    // Qualified, the names no longer collide.
    assert!(diags(&cfg, D::SkillNameCollision).is_empty());
}

#[test]
fn same_name_nested_skills_cross_reference_each_other_whatever_the_target() {
    let a = "apps/api/.claude/skills/deploy/SKILL.md";
    let w = "apps/web/.claude/skills/deploy/SKILL.md";
    for ctx in [at_root(), at_root().target("apps/api/server.ts")] {
        let cfg = compile("same_name_nested_skills", ctx);
        let (api, web) = (skill(&cfg, a), skill(&cfg, w));
        assert_eq!(api.cross_references, std::slice::from_ref(&web.id));
        assert_eq!(web.cross_references, std::slice::from_ref(&api.id));
        assert_eq!(diags(&cfg, D::SkillNameCollision).len(), 1);
    }
    let cfg = compile(
        "same_name_nested_skills",
        at_root().target("apps/api/server.ts"),
    );
    assert_eq!(
        (skill(&cfg, a).applicability, skill(&cfg, w).applicability),
        (Effective, Conditional)
    );
}

#[test]
fn path_scoped_skills_are_held_back_until_a_matching_file_is_read() {
    // Fidelity C18: held back from the user and the model alike until a
    // file matching `paths` (relative to the launch directory) is read.
    let api = ".claude/skills/api-helper/SKILL.md";
    let docs = ".claude/skills/docs-helper/SKILL.md";
    let manual = ".claude/skills/manual-api/SKILL.md";
    // A comma string (field report 6) and a list; `paths` lists them as
    // written.
    let cfg = compile("skill_paths", at_root().target("lib/api/users.ts"));
    let s = skill(&cfg, api);
    assert_eq!(
        s.paths.as_deref(),
        Some(&["src/api/**".to_string(), "lib/api/**".to_string()][..])
    );
    assert_eq!((s.load_phase, s.applicability), (OnDemand, Effective));
    assert!(s.reason.contains("lib/api"), "{}", s.reason);
    assert_eq!(skill(&cfg, docs).applicability, Conditional);
    assert!(diags(&cfg, D::PathScopedConditional).is_empty());

    let cfg = compile("skill_paths", at_root().target("docs/guide/intro.md"));
    assert_eq!(skill(&cfg, docs).applicability, Effective);
    assert_eq!(skill(&cfg, api).applicability, Conditional);

    let cfg = compile("skill_paths", at_root());
    for p in [api, docs, manual] {
        let s = skill(&cfg, p);
        assert_eq!(
            (s.load_phase, s.applicability),
            (OnDemand, Conditional),
            "{p}"
        );
        assert_eq!(diags_at(&cfg, D::PathScopedConditional, p).len(), 1, "{p}");
    }
    // disable-model-invocation still blocks the model once it is offered.
    assert_eq!(skill(&cfg, manual).invocation.implicit, Blocked);
}

#[test]
fn a_description_over_the_per_skill_cap_is_a_budget_risk() {
    let cfg = compile("skill_description_budget", at_root());
    let v = skill(&cfg, ".claude/skills/verbose/SKILL.md");
    assert_eq!(v.advertisement.state, Ad::BudgetRisk);
    assert_eq!(v.advertisement.description_chars, 1600);
    assert_eq!(v.advertisement.description_limit_chars, Some(1536));
    assert_eq!(
        skill(&cfg, ".claude/skills/short/SKILL.md")
            .advertisement
            .state,
        Ad::Advertised
    );
    assert_eq!(
        diags_at(&cfg, D::SkillBudgetRisk, ".claude/skills/verbose/SKILL.md").len(),
        1
    );
}

/// A listing over 2.1.122's budget (`Q96`): 8,000 columns (1% of
/// 200,000 tokens at four characters each), less 2,316 for the bundled
/// skills listed whole first, less the six names (22 columns), the three
/// built-in commands' names (25), four columns each and eight line ends
/// leave 5,593 for nine descriptions: 621 each, so every 1,500-character
/// description is cut to 620 characters and `…`, none dropped; 2.1.332's
/// budget of 30,000 columns holds the six descriptions whole.
#[test]
fn a_listing_over_the_window_budget_cuts_every_description_to_one_share() {
    let cfg = compile("skill_listing_budget", at_root().version("2.1.122"));
    assert_eq!(cfg.skills.len(), 6);
    for s in &cfg.skills {
        let a = &s.advertisement;
        assert_eq!(a.state, Ad::Shortened, "{}", s.name);
        assert_eq!(a.shown_description_chars, Some(620), "{}", s.name);
        let shown = a.shown_description.as_deref().unwrap();
        assert!(shown.ends_with('…') && shown.chars().count() == 621);
        // The six alone pass 8,000 columns: each would be cut to 1,324.
        assert_eq!(
            a.budget_cause,
            Some(playbookdiff_model::BudgetCause::Certain)
        );
    }
    let d = diags(&cfg, D::SkillListingShortened);
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message.contains("621 for each description"),
        "{}",
        d[0].message
    );
    assert!(diags(&cfg, D::SkillBudgetRisk).is_empty());
    let cfg = compile("skill_listing_budget", at_root());
    assert!(cfg
        .skills
        .iter()
        .all(|s| s.advertisement.state == Ad::Advertised));
    assert!(diags(&cfg, D::SkillBudgetRisk).is_empty());
    assert!(diags(&cfg, D::SkillListingShortened).is_empty());
}

/// Many skills over the listing budget: Claude Code's one diagnostic
/// counts the skills instead of naming them all, so it stays one short
/// message whatever their number (the Codex listing budget once named
/// all 10,000): with 2.1.122 the thousand names and the bundled skills
/// leave no share of 8,000 columns (below 20: names only); with 2.1.332
/// the skills past 30,000 columns are listed by name only, and each one's
/// advertisement says so.
#[test]
fn the_aggregate_budget_diagnostic_stays_short_with_thousands_of_skills() {
    const SKILLS: usize = 1_000;
    let t = tempfile::tempdir().unwrap();
    for i in 0..SKILLS {
        let name = format!("skill-{i:05}");
        write(
            t.path(),
            &format!(".claude/skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: Does task number {i} of the project when asked.\n---\nBody.\n"),
        );
    }
    let cfg = compile_dir(t.path(), &at_root().version("2.1.122"));
    assert_eq!(cfg.skills.len(), SKILLS);
    assert!(cfg
        .skills
        .iter()
        .all(|s| s.advertisement.shown_description.as_deref() == Some("")));
    let d = diags(&cfg, D::SkillListingShortened);
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("1,000 skills"), "{}", d[0].message);
    assert!(d[0].message.chars().count() < 500, "{}", d[0].message);
    let cfg = compile_dir(t.path(), &at_root());
    let dropped = cfg
        .skills
        .iter()
        .filter(|s| s.advertisement.shown_description.as_deref() == Some(""))
        .count();
    // Each name takes 13 columns and a line end, each description 47 to
    // 49 more: 30,000 columns less 6,050 for the bundled skills, 25 for
    // the names of the two built-in commands that follow the repository's
    // skills, and 14,000 for the names leave 9,925 (and the last line
    // end), which the first 204 fill.
    assert_eq!(dropped, 796);
    let d = diags(&cfg, D::SkillListingShortened);
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message.contains(&format!("{dropped} skills")),
        "{}",
        d[0].message
    );
    assert!(d[0].message.chars().count() < 600, "{}", d[0].message);
}

#[test]
fn skill_overrides_change_the_named_skills_and_report_each_entry() {
    let cfg = compile("skill_overrides", at_root());
    let deploy = skill(&cfg, ".claude/skills/deploy/SKILL.md");
    assert_eq!(deploy.applicability, Excluded);
    assert_eq!(
        (deploy.invocation.explicit, deploy.invocation.implicit),
        (Blocked, Blocked)
    );
    assert_eq!(deploy.advertisement.state, Ad::Hidden);
    assert_eq!(
        deploy.metadata_sources[0].path.as_str(),
        ".claude/settings.json"
    );

    let review = skill(&cfg, ".claude/skills/review/SKILL.md");
    assert_eq!(review.applicability, Effective);
    assert!(review.advertisement.name_only);

    let lint = skill(&cfg, ".claude/skills/lint/SKILL.md");
    assert_eq!(
        (lint.invocation.explicit, lint.invocation.implicit),
        (Allowed, Blocked)
    );
    assert_eq!(lint.advertisement.state, Ad::Hidden);

    let format = skill(&cfg, ".claude/skills/format/SKILL.md");
    assert_eq!(
        (format.invocation.implicit, format.advertisement.state),
        (Allowed, Ad::Advertised)
    );

    assert_eq!(
        diags_at(&cfg, D::SkillOverrideApplied, ".claude/settings.json").len(),
        3
    );
    let unresolved = diags_at(&cfg, D::SkillOverrideUnresolved, ".claude/settings.json");
    assert_eq!(
        unresolved.len(),
        2,
        "ghost names no skill, weird is no state: {unresolved:#?}"
    );
    assert!(unresolved.iter().any(|d| d.message.contains("ghost")));
    assert!(unresolved.iter().any(|d| d.message.contains("weird")));
}

#[test]
fn legacy_commands_are_skills_named_by_path_and_off_chain_ones_are_reported() {
    let cfg = compile("legacy_commands", at_root());
    let names: Vec<&str> = cfg.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["frontend:component", "review"]);
    let s = skill(&cfg, ".claude/commands/review.md");
    assert_eq!((s.load_phase, s.applicability), (Startup, Effective));
    assert_eq!(s.description.as_deref(), Some("Review the diff."));
    assert!(diags_at(&cfg, D::LegacyCommandsUnsupported, ".claude/commands").is_empty());
    // Below cwd: detected, not modelled.
    let d = diags_at(
        &cfg,
        D::LegacyCommandsUnsupported,
        "apps/web/.claude/commands",
    );
    assert_eq!(d.len(), 1);
    assert_says(d[0], "1 legacy");
}

#[test]
fn a_skills_root_stored_as_a_text_file_is_reported_not_silently_empty() {
    // Corpus finding (sentry-mcp): `.claude/skills` is a link checked out as
    // a file holding its target; Claude Code then finds no skills.
    KIT.assert_skills_root_stored_as_text_is_reported(".claude/skills", "---\nname: deploy\n---\n");
}

/// The listing of a launch directory whose ancestors hold skills
/// directories: each directory's skills by name, the nearest directory
/// first, as 2.1.197 and 2.1.332 list them (`b-sub`, `y-sub`, `c-lib`,
/// `m-lib`, `a-root`, `z-root`; case `claude.skill_listing_dir_order`, found
/// by the fuzzer as `fuzz.claude-code.home.2`).
#[test]
fn the_listing_takes_the_nearest_skills_directory_first_each_by_name() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures/claude-skill-dir-order");
    for v in ["2.1.197", "2.1.332"] {
        let cfg = compile_dir(&dir, &at_root().cwd("lib/sub").version(v));
        let listed: Vec<&str> = cfg
            .skills
            .iter()
            .filter(|s| s.load_phase == Startup && s.advertisement.state == Ad::Advertised)
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(
            listed,
            ["b-sub", "y-sub", "c-lib", "m-lib", "a-root", "z-root"],
            "{v}"
        );
    }
}

/// The listing sorts names as JavaScript's `localeCompare` does (the
/// Unicode Collation Algorithm, CLDR root): case second, `_` before `-`,
/// digits one by one, as 2.1.197 and 2.1.332 list them (case
/// `claude.skill_listing_name_order`, found by the fuzzer as
/// `fuzz.claude-code.1002`); a byte order would put `B`, `Test-Runner` and
/// `Zeta` first.
#[test]
fn the_listing_sorts_names_as_locale_compare_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures/claude-skill-name-order");
    for v in ["2.1.197", "2.1.332"] {
        let cfg = compile_dir(&dir, &at_root().version(v));
        let listed: Vec<&str> = cfg
            .skills
            .iter()
            .filter(|s| s.load_phase == Startup && s.advertisement.state == Ad::Advertised)
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(
            listed,
            [
                "a_b",
                "a-b",
                "a1",
                "a10",
                "a2",
                "B",
                "db_query",
                "Test-Runner",
                "Zeta"
            ],
            "{v}"
        );
    }
}

/// An empty `SKILL.md` is listed with the description `Skill` (2.1.197 and
/// 2.1.332, case `fuzz.claude-code.1002`).
#[test]
fn an_empty_skill_file_is_listed_as_skill() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures/fuzz-claude-code-1002");
    for v in ["2.1.197", "2.1.332"] {
        let cfg = compile_dir(&dir, &at_root().version(v));
        let s = skill(&cfg, ".claude/skills/db_query/SKILL.md");
        assert_eq!(s.description.as_deref(), Some("Skill"), "{v}");
    }
}

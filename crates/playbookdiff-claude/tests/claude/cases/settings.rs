//! Project settings: read from `<cwd>/.claude/` only; `claudeMdExcludes`.

use crate::common::*;
use playbookdiff_model::{Applicability::*, DiagnosticCode as D, LoadPhase::*, ResolutionStrategy};

#[test]
fn excluded_claude_md_is_listed_as_excluded_with_its_pattern_and_settings_file() {
    let cfg = compile(
        "excluded_claude_md",
        at_root().target("packages/legacy/form.ts"),
    );
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
    let l = one(&cfg, "packages/legacy/CLAUDE.md");
    assert_placed(l, OnDemand, Excluded, None);
    assert!(l.reason.contains("**/packages/legacy/**"), "{}", l.reason);
    let res = l.resolution.as_ref().unwrap();
    assert_eq!(
        (res.strategy, res.sources[0].as_str()),
        (ResolutionStrategy::Excluded, ".claude/settings.json")
    );
    let d = diags_at(&cfg, D::InstructionExcluded, "packages/legacy/CLAUDE.md");
    assert_eq!(d.len(), 1);
    // What the excluded file imports is not received either.
    assert!(cfg.received_instructions().iter().all(|i| !i
        .source
        .path
        .as_str()
        .ends_with("AGENTS.md")));
}

#[test]
fn agents_md_bridged_only_by_an_excluded_claude_md_is_reported_as_excluded() {
    let cfg = compile(
        "excluded_claude_md",
        at_root().target("packages/legacy/form.ts"),
    );
    let d = diags_at(&cfg, D::AgentsMdNotBridged, "packages/legacy/AGENTS.md");
    assert_eq!(d.len(), 1);
    assert_says(d[0], "excluded by claudeMdExcludes");
}

#[test]
fn project_settings_are_read_only_from_cwd_and_an_ancestor_settings_file_is_ignored_and_diagnosed()
{
    // From the root, the root settings exclude apps/api/CLAUDE.md.
    let cfg = compile(
        "settings_cwd_only",
        at_root().target("apps/api/legacy/x.ts"),
    );
    assert_eq!(one(&cfg, "apps/api/CLAUDE.md").applicability, Excluded);
    assert_eq!(
        one(&cfg, "apps/api/legacy/CLAUDE.md").applicability,
        Effective
    );
    assert!(diags(&cfg, D::SettingsNotInCwd).is_empty());

    // From apps/api, only apps/api/.claude/settings.json is read.
    let cfg = compile(
        "settings_cwd_only",
        at_root().cwd("apps/api").target("apps/api/legacy/x.ts"),
    );
    assert_placed(one(&cfg, "apps/api/CLAUDE.md"), Startup, Effective, Some(1));
    assert_eq!(
        one(&cfg, "apps/api/legacy/CLAUDE.md").applicability,
        Excluded
    );
    let d = diags_at(&cfg, D::SettingsNotInCwd, ".claude/settings.json");
    assert_eq!(d.len(), 1);
    assert_says(d[0], "apps/api/.claude/");
    let res = one(&cfg, "apps/api/legacy/CLAUDE.md")
        .resolution
        .clone()
        .unwrap();
    assert_eq!(res.sources[0].as_str(), "apps/api/.claude/settings.json");
}

//! Which targets make a path-scoped rule or skill load: the answer to
//! [`playbookdiff_adapter::Adapter::target_tests`] for Claude Code.
//!
//! Source: fidelity C1, C13, C18 (Claude Code 2.1.197 and 2.1.332). A
//! rule's `paths` are matched against the target relative to the
//! directory that holds its `.claude` (the rule's `applies_to`), so
//! `src/**` in `apps/api/.claude/rules/r.md` matches `apps/api/src/x.ts`;
//! a skill's `paths` are matched relative to the launch directory. Both
//! with the one matcher of [`crate::matcher`] (gitignore-style, ignoring
//! case, braces expanded).

use crate::matcher::{claude_paths, expanded_paths, PathPatterns};
use playbookdiff_adapter::{Scoped, TargetTest};
use playbookdiff_model::RepoPath;
use serde_json::Value;

/// One test per pattern of `item`'s `paths` as written: a target passes
/// it when Claude Code matches that pattern (its braces expanded) from
/// launch directory `cwd`. Empty when the item has no `paths` or they
/// scope nothing (every pattern `**`).
pub(crate) fn target_tests(item: Scoped<'_>, cwd: &RepoPath) -> Vec<TargetTest> {
    let Some(written) = item.paths() else {
        return Vec::new();
    };
    let all = Value::Array(written.iter().cloned().map(Value::String).collect());
    if claude_paths(&all).is_none() {
        return Vec::new();
    }
    let base = match item {
        Scoped::Instruction(i) => i.applies_to.clone(),
        Scoped::Skill(_) => cwd.clone(),
    };
    written
        .iter()
        .map(|w| expanded_paths(&Value::String(w.clone())))
        .filter(|patterns| !patterns.is_empty())
        .map(|patterns| {
            let compiled = PathPatterns::shared(&patterns);
            let base = base.clone();
            Box::new(move |target: &RepoPath, is_dir: bool| {
                crate::relative_to(target, &base)
                    .is_some_and(|rel| compiled.matched(&rel, is_dir).is_some())
            }) as TargetTest
        })
        .collect()
}

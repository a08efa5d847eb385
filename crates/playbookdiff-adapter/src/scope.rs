//! Where a directory stands relative to the launch directory and the
//! target: the scope questions every adapter asks the same way.

use crate::problems::quote;
use playbookdiff_model::{AnalysisContext, Diagnostic, DiagnosticCode, RepoPath, Severity};
use playbookdiff_source::Repo;

/// A comma-separated list of globs written as one string (Copilot CLI's
/// `applyTo`, Cursor's `globs`) split at the commas outside `{...}` groups,
/// each part trimmed: `src/**, {a,b}/*.ts` is two globs. Empty parts are
/// kept (the caller decides what an empty glob means).
pub fn split_glob_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(s[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim().to_string());
    out
}

/// A directory for a message: its path, or "the repository root".
pub fn place(dir: &RepoPath) -> String {
    if dir.is_root() {
        "the repository root".to_string()
    } else {
        dir.to_string()
    }
}

/// True when `dir` lies below `base` and is not `base` itself.
pub fn strictly_below(dir: &RepoPath, base: &RepoPath) -> bool {
    dir != base && dir.starts_with(base)
}

/// The directories on the way from the root to targetPath (targetPath
/// itself included) that are neither on the root-to-cwd path nor below
/// cwd, root first. Besides the subtree below cwd, these are the only
/// directories off the path whose items are listed `out-of-scope`: the
/// agent is expected to work there, so the gap matters. Empty without a
/// targetPath or when it lies below cwd.
pub fn target_only_dirs(context: &AnalysisContext) -> Vec<RepoPath> {
    let Some(target) = &context.target_path else {
        return Vec::new();
    };
    let cwd = &context.cwd;
    target
        .ancestors_root_first()
        .into_iter()
        .filter(|d| !cwd.starts_with(d) && !d.starts_with(cwd))
        .collect()
}

/// The first directory of `dirs` (give them closest to cwd first) that is
/// not the repository root and holds a `.git` entry of any kind (a
/// directory, or the file of a worktree or submodule): where an agent that
/// takes the nearest `.git` as its project root would stop walking up.
/// `None` when only the root, or nothing, holds one.
pub fn nearest_git_marker<'a>(
    repo: &Repo<'_>,
    dirs: impl IntoIterator<Item = &'a RepoPath>,
) -> Option<RepoPath> {
    dirs.into_iter()
        .filter(|d| !d.is_root())
        .find(|d| repo.holds_git_marker(d))
        .cloned()
}

/// The directories an agent walks up from `cwd` when it stops at the top
/// of the git work tree holding `cwd`, root first: from
/// [`Repo::nearest_git_root`] (a checked-out submodule's root when `cwd`
/// lies in one, else the repository root) down to `cwd`. OpenCode's
/// worktree (`git rev-parse --show-toplevel`) and Claude Code's project
/// skills walk stop there; seen with OpenCode 1.18.33 and Claude Code
/// 2.1.197 and 2.1.332 on fixture `submodule_checked_out`.
pub fn work_tree_chain(repo: &Repo<'_>, cwd: &RepoPath) -> Vec<RepoPath> {
    let top = repo.nearest_git_root(cwd);
    cwd.ancestors_root_first()
        .into_iter()
        .filter(|d| d.starts_with(&top))
        .collect()
}

/// The project root an agent that takes the nearest `.git` as its root
/// (Codex with its default `project_root_markers`, OpenCode's worktree)
/// would use, against the supplied repositoryRoot, with the
/// `project-root-assumed` diagnostic saying so: the directory of
/// [`nearest_git_marker`] (`dirs` closest to cwd first) and a warning
/// whose message is `nested` of that directory quoted
/// ([`crate::problems::quote`]); else, when the root holds no `.git`
/// either, `None` and a diagnostic with message `no_marker`; else `None`
/// and no diagnostic. The messages say what the harness does.
pub fn project_root<'a>(
    repo: &Repo<'_>,
    dirs: impl IntoIterator<Item = &'a RepoPath>,
    nested: impl FnOnce(&str) -> String,
    no_marker: &str,
) -> (Option<RepoPath>, Option<Diagnostic>) {
    if let Some(dir) = nearest_git_marker(repo, dirs) {
        let d = Diagnostic::new(DiagnosticCode::ProjectRootAssumed, nested(&quote(&dir)))
            .with_severity(Severity::Warning);
        return (Some(dir), Some(d));
    }
    if repo.has_git_marker() {
        return (None, None);
    }
    let d = Diagnostic::new(DiagnosticCode::ProjectRootAssumed, no_marker);
    (None, Some(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glob_list_splits_only_outside_braces() {
        assert_eq!(
            split_glob_list("src/**, {a,b}/*.ts"),
            ["src/**", "{a,b}/*.ts"]
        );
        assert_eq!(split_glob_list("a,,b"), ["a", "", "b"]);
        assert_eq!(split_glob_list("{x,{y,z}},w"), ["{x,{y,z}}", "w"]);
    }

    fn p(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    #[test]
    fn below_and_target_only() {
        assert!(strictly_below(&p("a/b"), &p("a")));
        assert!(!strictly_below(&p("a"), &p("a")));
        assert!(!strictly_below(&p("ab"), &p("a")));
        assert_eq!(place(&RepoPath::root()), "the repository root");
        let mut ctx = AnalysisContext::at_root();
        ctx.cwd = p("apps/web");
        ctx.target_path = Some(p("apps/api/src"));
        assert_eq!(
            target_only_dirs(&ctx),
            vec![p("apps/api"), p("apps/api/src")]
        );
        ctx.target_path = Some(p("apps/web/src"));
        assert!(target_only_dirs(&ctx).is_empty());
    }
}

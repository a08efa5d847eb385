//! Bounded walks below one directory, the way OpenCode's globs scan
//! (`Bun.Glob.scan`): links to directories inside the repository followed
//! when asked, each real directory entered once, hidden entries skipped
//! unless `dot` is set.

use crate::Cx;
use playbookdiff_model::RepoPath;
use playbookdiff_source::{EntryKind, Resolved};
use std::collections::HashSet;

/// The most directories one walk enters; a larger subtree is cut and
/// reported by the caller.
pub(crate) const MAX_DIRS: usize = 20_000;

/// A file found by a walk.
pub(crate) struct Found {
    /// The path as reached (through links, when followed).
    pub path: RepoPath,
    /// The path relative to the walk's base, `/`-separated.
    pub rel: String,
}

/// What a walk returns: the files, sorted by path, whether it was cut at
/// [`MAX_DIRS`], and the symbolic links it met that lead out of the
/// repository (as reached, sorted): OpenCode follows them, the analysis
/// does not read what lies behind them.
pub(crate) struct Walk {
    pub files: Vec<Found>,
    pub truncated: bool,
    pub outside: Vec<RepoPath>,
}

/// Options of one walk.
#[derive(Clone, Copy)]
pub(crate) struct Opts {
    /// Enter and report entries whose name starts with `.` (below the base).
    pub dot: bool,
    /// Follow symbolic links to directories (inside the repository).
    pub follow: bool,
    /// The most directory levels below the base to enter (`None`: no limit
    /// but [`MAX_DIRS`]).
    pub max_depth: Option<usize>,
}

/// Every file below `base` (a directory; nothing when it is not one) whose
/// relative path passes `keep`. Iterative: the depth of the tree cannot
/// overflow the stack.
pub(crate) fn files(
    cx: &Cx<'_, '_>,
    base: &RepoPath,
    opts: Opts,
    keep: &dyn Fn(&str) -> bool,
) -> Walk {
    let mut out = Walk {
        files: Vec::new(),
        truncated: false,
        outside: Vec::new(),
    };
    let mut seen: HashSet<RepoPath> = HashSet::new();
    let mut stack: Vec<(RepoPath, String, usize)> = Vec::new();
    match cx.repo.resolve(base) {
        Resolved::Inside {
            real,
            kind: EntryKind::Dir,
            ..
        } => {
            seen.insert(real);
            stack.push((base.clone(), String::new(), 0));
        }
        _ => return out,
    }
    let mut entered = 0usize;
    while let Some((dir, rel, depth)) = stack.pop() {
        entered += 1;
        if entered > MAX_DIRS {
            out.truncated = true;
            break;
        }
        for e in cx.repo.list_dir(&dir) {
            if e.non_utf8_name || (!opts.dot && e.name.starts_with('.')) {
                continue;
            }
            let Some(path) = dir.join(&e.name) else {
                continue;
            };
            let child_rel = if rel.is_empty() {
                e.name.clone()
            } else {
                format!("{rel}/{}", e.name)
            };
            let kind = match e.kind {
                EntryKind::Symlink => match cx.repo.resolve(&path) {
                    Resolved::Inside { kind, real, .. } => {
                        if kind == EntryKind::Dir && !opts.follow {
                            continue;
                        }
                        if kind == EntryKind::Dir && !seen.insert(real) {
                            continue;
                        }
                        kind
                    }
                    Resolved::Outside { .. } => {
                        out.outside.push(path);
                        continue;
                    }
                    _ => continue,
                },
                EntryKind::Dir => {
                    if let Resolved::Inside { real, .. } = cx.repo.resolve(&path) {
                        if !seen.insert(real) {
                            continue;
                        }
                    }
                    EntryKind::Dir
                }
                k => k,
            };
            match kind {
                EntryKind::Dir if opts.max_depth.is_none_or(|m| depth < m) => {
                    stack.push((path, child_rel, depth + 1));
                }
                EntryKind::File if keep(&child_rel) => {
                    out.files.push(Found {
                        path,
                        rel: child_rel,
                    });
                }
                _ => {}
            }
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.outside.sort();
    out
}

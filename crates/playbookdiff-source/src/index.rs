//! One walk of a tree, link resolution inside the repository, and a
//! read-once file cache.

use crate::{DirEntry, EntryKind, SourceError, SourceTree, Stat, TextFile};
use playbookdiff_model::RepoPath;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The most symbolic links followed while resolving one path (as Linux's
/// `MAXSYMLINKS`).
pub const MAX_SYMLINK_HOPS: u32 = 40;

/// The most entries one walk records; a larger tree is reported, not
/// indexed past it.
pub const MAX_ENTRIES: usize = 5_000_000;

/// A directory or entry the walk could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkProblem {
    /// Where.
    pub path: RepoPath,
    /// What went wrong, without absolute paths.
    pub message: String,
}

/// Where a repository path leads once symbolic links are followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// An entry inside the repository.
    Inside {
        /// The real path, every link resolved.
        real: RepoPath,
        /// Its kind (never `Symlink`).
        kind: EntryKind,
        /// True when a link was followed on the way.
        via_link: bool,
    },
    /// Nothing is there, and no link was followed.
    Missing,
    /// A link on the way points at nothing.
    Dangling {
        /// The link.
        link: RepoPath,
        /// Its target as stored.
        target: String,
    },
    /// A link on the way leaves the repository.
    Outside {
        /// The link.
        link: RepoPath,
        /// Its target as stored.
        target: String,
    },
    /// Links loop, or more than [`MAX_SYMLINK_HOPS`] are chained.
    Loop {
        /// The link where the limit was reached.
        link: RepoPath,
    },
}

type ReadResult = Result<Arc<TextFile>, SourceError>;

/// A repository walked once: the index of every entry (links not
/// followed, `.git` skipped), link resolution that never leaves the
/// repository, and a cache so each file is read at most once.
pub struct Repo<'t> {
    tree: &'t dyn SourceTree,
    entries: HashMap<RepoPath, Stat>,
    children: HashMap<RepoPath, Vec<DirEntry>>,
    by_name: HashMap<String, Vec<RepoPath>>,
    problems: Vec<WalkProblem>,
    files: Mutex<HashMap<RepoPath, ReadResult>>,
    links: Mutex<HashMap<RepoPath, Result<String, SourceError>>>,
    has_git: bool,
}

impl<'t> Repo<'t> {
    /// Walks `tree` once, iteratively (no recursion, so depth cannot
    /// overflow the stack). Unreadable directories become
    /// [`Repo::walk_problems`]; the walk goes on.
    pub fn new(tree: &'t dyn SourceTree) -> Self {
        let mut entries = HashMap::new();
        let mut children = HashMap::new();
        let mut by_name: HashMap<String, Vec<RepoPath>> = HashMap::new();
        let mut problems = tree.problems();
        entries.insert(
            RepoPath::root(),
            Stat {
                kind: EntryKind::Dir,
                len: 0,
            },
        );
        let mut stack = vec![RepoPath::root()];
        while let Some(dir) = stack.pop() {
            let list = match tree.list_dir(&dir) {
                Ok(l) => l,
                Err(e) => {
                    problems.push(WalkProblem {
                        path: dir.clone(),
                        message: e.to_string(),
                    });
                    continue;
                }
            };
            for ent in &list {
                if ent.name == ".git" {
                    continue;
                }
                if ent.non_utf8_name {
                    problems.push(WalkProblem {
                        path: dir.clone(),
                        message: format!(
                            "the name `{}` is not valid UTF-8, so it is not analysed",
                            ent.name.escape_debug()
                        ),
                    });
                    continue;
                }
                let Some(p) = dir.join(&ent.name) else {
                    continue;
                };
                if entries.len() >= MAX_ENTRIES {
                    problems.push(WalkProblem {
                        path: dir.clone(),
                        message: format!("the tree has more than {MAX_ENTRIES} entries; the rest is not analysed"),
                    });
                    stack.clear();
                    break;
                }
                if ent.kind == EntryKind::Dir {
                    stack.push(p.clone());
                }
                by_name.entry(ent.name.clone()).or_default().push(p.clone());
                entries.insert(
                    p,
                    Stat {
                        kind: ent.kind,
                        len: 0,
                    },
                );
            }
            children.insert(dir, list.into_iter().filter(|e| e.name != ".git").collect());
        }
        for v in by_name.values_mut() {
            v.sort();
        }
        Repo {
            tree,
            entries,
            children,
            by_name,
            problems,
            files: Mutex::new(HashMap::new()),
            links: Mutex::new(HashMap::new()),
            has_git: tree.has_git_marker(),
        }
    }

    /// The underlying tree.
    pub fn tree(&self) -> &'t dyn SourceTree {
        self.tree
    }

    /// True when the repository root holds `.git`.
    pub fn has_git_marker(&self) -> bool {
        self.has_git
    }

    /// Directories the walk could not read.
    pub fn walk_problems(&self) -> &[WalkProblem] {
        &self.problems
    }

    /// The number of entries indexed.
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// The kind of `path` itself, links not followed; `None` when absent
    /// from the index.
    pub fn kind(&self, path: &RepoPath) -> Option<EntryKind> {
        self.entries.get(path).map(|s| s.kind)
    }

    /// Every indexed path whose last component is `name`, sorted.
    pub fn files_named(&self, name: &str) -> &[RepoPath] {
        self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The indexed paths named `name` that lie strictly below directory
    /// `dir` (every one for the root), sorted. A binary search on the
    /// sorted list: paths sharing the prefix `dir/` are contiguous, so the
    /// cost is that of the answer, not of the repository.
    pub fn files_named_under(&self, name: &str, dir: &RepoPath) -> &[RepoPath] {
        let all = self.files_named(name);
        if dir.is_root() {
            return all;
        }
        let prefix = format!("{dir}/");
        let start = all.partition_point(|p| p.as_str() < prefix.as_str());
        let len = all[start..].partition_point(|p| p.as_str().starts_with(&prefix));
        &all[start..start + len]
    }

    /// The entries of directory `dir` after resolving links on the way;
    /// empty when it is not a directory inside the repository.
    pub fn list_dir(&self, dir: &RepoPath) -> &[DirEntry] {
        match self.resolve(dir) {
            Resolved::Inside {
                real,
                kind: EntryKind::Dir,
                ..
            } => self.children.get(&real).map(Vec::as_slice).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The target of link `path`, read once.
    pub fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        let mut links = self.links.lock().unwrap_or_else(|e| e.into_inner());
        links
            .entry(path.clone())
            .or_insert_with(|| self.tree.read_link(path))
            .clone()
    }

    /// Follows every symbolic link in `path`, refusing to leave the
    /// repository. Relative targets resolve from the link's directory;
    /// absolute targets count as inside only when they fall under the
    /// tree's absolute root.
    pub fn resolve(&self, path: &RepoPath) -> Resolved {
        // Fast path: the walk never descends through a link, so an indexed
        // entry that is not itself a link has only real directories above it.
        match self.kind(path) {
            Some(EntryKind::Symlink) => {}
            Some(kind) => {
                return Resolved::Inside {
                    real: path.clone(),
                    kind,
                    via_link: false,
                }
            }
            None => {
                // Absent below a real (indexed, not linked) entry: nothing is
                // there. Only a link on the way needs the slow path.
                let mut up = path.parent();
                while let Some(p) = up {
                    match self.kind(&p) {
                        None => up = p.parent(),
                        Some(EntryKind::Symlink) => break,
                        Some(_) => return Resolved::Missing,
                    }
                }
            }
        }
        let mut pending: std::collections::VecDeque<String> =
            path.components().map(str::to_string).collect();
        let mut cur = RepoPath::root();
        let mut hops = 0u32;
        let mut last_link: Option<(RepoPath, String)> = None;
        while let Some(c) = pending.pop_front() {
            if c.is_empty() || c == "." {
                continue;
            }
            if c == ".." {
                match cur.parent() {
                    Some(p) => cur = p,
                    None => {
                        return match last_link {
                            Some((link, target)) => Resolved::Outside { link, target },
                            None => Resolved::Missing,
                        }
                    }
                }
                continue;
            }
            let Some(cand) = cur.join(&c) else {
                return Resolved::Missing;
            };
            match self.kind(&cand) {
                None | Some(EntryKind::Other) => {
                    return match last_link {
                        Some((link, target)) => Resolved::Dangling { link, target },
                        None => Resolved::Missing,
                    };
                }
                Some(EntryKind::File) => {
                    if !pending.is_empty() {
                        return match last_link {
                            Some((link, target)) => Resolved::Dangling { link, target },
                            None => Resolved::Missing,
                        };
                    }
                    cur = cand;
                }
                Some(EntryKind::Dir) => cur = cand,
                Some(EntryKind::Symlink) => {
                    hops += 1;
                    if hops > MAX_SYMLINK_HOPS {
                        return Resolved::Loop { link: cand };
                    }
                    let target = match self.read_link(&cand) {
                        Ok(t) => t,
                        Err(_) => {
                            return Resolved::Dangling {
                                link: cand,
                                target: String::new(),
                            }
                        }
                    };
                    let mut rest: Vec<String>;
                    if target.starts_with('/') {
                        let inside = self.tree.absolute_root().and_then(|root| {
                            std::path::Path::new(&target)
                                .strip_prefix(root)
                                .ok()
                                .map(|r| r.to_string_lossy().replace('\\', "/"))
                        });
                        match inside {
                            Some(rel) => {
                                cur = RepoPath::root();
                                rest = rel.split('/').map(str::to_string).collect();
                            }
                            None => return Resolved::Outside { link: cand, target },
                        }
                    } else {
                        rest = target.split('/').map(str::to_string).collect();
                    }
                    rest.extend(pending.drain(..));
                    pending = rest.into();
                    last_link = Some((cand, target));
                }
            }
        }
        let kind = self.kind(&cur).unwrap_or(EntryKind::Other);
        Resolved::Inside {
            real: cur,
            kind,
            via_link: last_link.is_some(),
        }
    }

    /// Reads `path` as text, following links inside the repository, at most
    /// `limit` bytes; each real file is read once and shared.
    ///
    /// Errors: `NotFound` when nothing readable is there (a missing file, a
    /// dangling link, a link out of the repository or a loop: call
    /// [`Repo::resolve`] to tell them apart), `TooLarge`, `Io`.
    pub fn read_text(&self, path: &RepoPath, limit: u64) -> Result<Arc<TextFile>, SourceError> {
        let real = match self.resolve(path) {
            Resolved::Inside {
                real,
                kind: EntryKind::File,
                ..
            } => real,
            Resolved::Inside { real, .. } => {
                return Err(SourceError::Io {
                    path: real,
                    message: "not a regular file".into(),
                })
            }
            _ => return Err(SourceError::NotFound(path.clone())),
        };
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = files.get(&real) {
            match r {
                Ok(t) if t.bytes > limit => {
                    return Err(SourceError::TooLarge {
                        path: real.clone(),
                        len: t.bytes,
                        limit,
                    })
                }
                Err(SourceError::TooLarge { limit: l, .. }) if *l < limit => {}
                _ => return r.clone(),
            }
        }
        let r = self
            .tree
            .read_file(&real, limit)
            .map(|b| Arc::new(TextFile::from_bytes(&b)));
        files.insert(real, r.clone());
        r
    }

    /// When `path` is a small regular file whose whole content is one
    /// relative path (`AGENTS.md`, `../skills`), the way git writes a
    /// symbolic link on a checkout with `core.symlinks=false`: that path,
    /// and whether it names an existing entry beside the file. `None`
    /// otherwise. Reads at most 256 bytes.
    pub fn link_stored_as_text(&self, path: &RepoPath) -> Option<(String, bool)> {
        if self.kind(path) != Some(EntryKind::File) {
            return None;
        }
        let t = self.read_text(path, 256).ok()?;
        let target = t.text.trim();
        if target.is_empty()
            || target.contains(char::is_whitespace)
            || target.starts_with(['@', '/', '#'])
        {
            return None;
        }
        let dir = path.parent()?;
        let joined = dir.join(target)?;
        if joined == *path {
            return None;
        }
        let exists = !matches!(self.resolve(&joined), Resolved::Missing);
        Some((target.to_string(), exists))
    }

    /// True when `path` resolves to a regular file inside the repository.
    pub fn is_file(&self, path: &RepoPath) -> bool {
        matches!(
            self.resolve(path),
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            }
        )
    }

    /// True when `path` resolves to a directory inside the repository.
    pub fn is_dir(&self, path: &RepoPath) -> bool {
        matches!(
            self.resolve(path),
            Resolved::Inside {
                kind: EntryKind::Dir,
                ..
            }
        )
    }

    /// Every indexed directory (links not followed), sorted.
    pub fn directories(&self) -> Vec<RepoPath> {
        let mut v: Vec<RepoPath> = self
            .entries
            .iter()
            .filter(|(_, s)| s.kind == EntryKind::Dir)
            .map(|(p, _)| p.clone())
            .collect();
        v.sort();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WorkingTree;
    use std::os::unix::fs::symlink;

    fn rp(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    #[test]
    fn resolves_links_inside_and_refuses_outside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/real")).unwrap();
        std::fs::write(root.join("a/real/f.md"), "x").unwrap();
        symlink("real", root.join("a/link")).unwrap();
        symlink("/", root.join("slash")).unwrap();
        symlink("loop", root.join("loop")).unwrap();
        symlink("nowhere", root.join("dangling")).unwrap();
        let tree = WorkingTree::open(root).unwrap();
        let repo = Repo::new(&tree);
        assert_eq!(
            repo.resolve(&rp("a/link/f.md")),
            Resolved::Inside {
                real: rp("a/real/f.md"),
                kind: EntryKind::File,
                via_link: true
            }
        );
        assert!(matches!(
            repo.resolve(&rp("slash/etc")),
            Resolved::Outside { .. }
        ));
        assert!(matches!(repo.resolve(&rp("loop")), Resolved::Loop { .. }));
        assert!(matches!(
            repo.resolve(&rp("dangling")),
            Resolved::Dangling { .. }
        ));
        assert_eq!(repo.resolve(&rp("nope")), Resolved::Missing);
        assert_eq!(repo.read_text(&rp("a/link/f.md"), 10).unwrap().text, "x");
        assert!(matches!(
            repo.read_text(&rp("a/real/f.md"), 0),
            Err(SourceError::TooLarge { .. })
        ));
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::WorkingTree;

    #[test]
    fn missing_paths_under_deep_real_dirs_resolve_fast() {
        let dir = tempfile::tempdir().unwrap();
        let rel = vec!["a"; 300].join("/");
        std::fs::create_dir_all(dir.path().join(&rel)).unwrap();
        let tree = WorkingTree::open(dir.path()).unwrap();
        let repo = Repo::new(&tree);
        let deep = RepoPath::new(&rel).unwrap();
        assert!(repo.kind(&deep).is_some());
        let p = deep.join(".claude/rules").unwrap();
        let t = std::time::Instant::now();
        for _ in 0..300 {
            assert_eq!(repo.resolve(&p), Resolved::Missing);
        }
        assert!(
            t.elapsed() < std::time::Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
    }
}

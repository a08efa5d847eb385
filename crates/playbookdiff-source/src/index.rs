//! One walk of a tree, link resolution inside the repository, and a
//! read-once file cache.

use crate::git::submodule_message;
use crate::visibility::{
    FileRule, IgnoreLevel, RepoOptions, Seen, View, WalkScope, MAX_IGNORE_FILE_BYTES,
};
use crate::{DirEntry, EntryKind, SourceError, SourceTree, TextFile};
use elsa::sync::FrozenMap;
use playbookdiff_model::RepoPath;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The most symbolic links followed while resolving one path (as Linux's
/// `MAXSYMLINKS`).
pub(crate) const MAX_SYMLINK_HOPS: u32 = 40;

/// The most entries one walk records; a larger tree is reported, not
/// indexed past it.
pub(crate) const MAX_ENTRIES: usize = 5_000_000;

/// The paths of `sorted` (sorted by text) strictly below directory `dir`
/// (the repository-relative text, empty for the root).
fn below<'a>(sorted: &'a [RepoPath], dir: &str) -> &'a [RepoPath] {
    if dir.is_empty() {
        return sorted;
    }
    // Paths sharing the prefix `dir/` are contiguous in text order.
    let prefix = format!("{dir}/");
    let start = sorted.partition_point(|p| p.as_str() < prefix.as_str());
    let len = sorted[start..].partition_point(|p| p.as_str().starts_with(&prefix));
    &sorted[start..start + len]
}

/// A directory or entry the walk could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkProblem {
    /// Where: the directory that could not be listed or that holds the
    /// entry (a name that is not UTF-8, a name no checkout writes), or the
    /// submodule itself.
    pub path: RepoPath,
    /// What went wrong, without absolute paths.
    pub message: String,
    /// Why, which decides the advice a diagnostic gives.
    pub cause: WalkCause,
    /// The entry's name, decoded lossily (U+FFFD for bytes that are not
    /// UTF-8), when the problem is about one entry of `path` that has no
    /// path of its own (a name that is not UTF-8).
    pub entry: Option<String>,
}

/// Why the walk could not show an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkCause {
    /// The directory could not be listed (the operating system's error,
    /// or an unreadable git tree object): nothing below it is known.
    Unlisted(crate::IoKind),
    /// An entry of the directory has a name that is not valid UTF-8: it
    /// and everything below it are skipped.
    NonUtf8Name,
    /// The tree holds more entries than the walk reads: the rest of the
    /// directory is unknown.
    TooManyEntries,
    /// A git submodule: its files are in another repository.
    Submodule,
    /// A git tree entry whose name no checkout writes (`..`, `.git`).
    UnsafeName,
}

impl WalkCause {
    /// True when nothing below [`WalkProblem::path`] is known (the
    /// directory, or the submodule, was not listed), so whether a path
    /// below it exists cannot be said.
    pub fn hides_subtree(self) -> bool {
        matches!(
            self,
            WalkCause::Unlisted(_) | WalkCause::TooManyEntries | WalkCause::Submodule
        )
    }
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
    /// Links loop, or more than `MAX_SYMLINK_HOPS` are chained.
    Loop {
        /// The link where the limit was reached.
        link: RepoPath,
    },
}

type ReadResult = Result<Arc<TextFile>, SourceError>;

/// Where a walk down the listings ends.
enum Located {
    /// The entry itself, of this kind.
    Entry(EntryKind),
    /// Nothing there, and no link on the way.
    Missing,
    /// A symbolic link on the way.
    ThroughLink,
}

/// One directory of the tree, listed at most once, on first need.
struct Node {
    /// True when the directory is ignored and shown only because tracked
    /// files lie below it: untracked entries in it are hidden.
    ignored: bool,
    /// The ignore files in effect in the directory's parent.
    parent_level: Option<Arc<IgnoreLevel>>,
    /// Shared with the `Repo` this one shares with when the listing is
    /// borrowed from it ([`Repo::sharing`]).
    listing: OnceLock<Arc<Listing>>,
    /// True when `listing` is borrowed from the shared `Repo`: the
    /// subtree below is identical there, and walked.
    borrowed: AtomicBool,
    /// Set once the whole subtree below has been listed.
    walked: OnceLock<()>,
}

/// A directory's visible entries and a node for each subdirectory.
struct Listing {
    /// Visible entries, sorted by name, `.git` left out.
    entries: Box<[DirEntry]>,
    /// For each `Dir` entry, in order: its index in `entries` and its node.
    dirs: Box<[(u32, Node)]>,
}

impl Node {
    fn new(ignored: bool, parent_level: Option<Arc<IgnoreLevel>>) -> Self {
        Node {
            ignored,
            parent_level,
            listing: OnceLock::new(),
            borrowed: AtomicBool::new(false),
            walked: OnceLock::new(),
        }
    }
}

impl Listing {
    fn entry(&self, name: &str) -> Option<(usize, &DirEntry)> {
        let i = self
            .entries
            .binary_search_by(|e| e.name.as_str().cmp(name))
            .ok()?;
        Some((i, &self.entries[i]))
    }

    fn dir(&self, index: usize) -> Option<&Node> {
        let i = self
            .dirs
            .binary_search_by_key(&(index as u32), |(i, _)| *i)
            .ok()?;
        Some(&self.dirs[i].1)
    }
}

/// A repository read through a [`SourceTree`]: each directory listed at
/// most once (and only when needed), link resolution that never leaves the
/// repository, and a cache so each file is read at most once.
///
/// What is walked when it is built is its [`WalkScope`]: the whole tree
/// (spread over threads), or what one launch directory needs; any other
/// directory is listed the first time an adapter asks for it. Which
/// entries are shown is its [`Visibility`](crate::Visibility): every entry, or git's view in
/// repo mode ([`crate::visibility`]). `.git` is never shown. Links are
/// never followed by the walk.
pub struct Repo<'t> {
    tree: &'t dyn SourceTree,
    view: View,
    root: Node,
    problems: Vec<WalkProblem>,
    late_problems: Mutex<Vec<WalkProblem>>,
    entry_count: AtomicUsize,
    named: FrozenMap<(String, RepoPath), Vec<RepoPath>>,
    files: Mutex<HashMap<RepoPath, ReadResult>>,
    links: Mutex<HashMap<RepoPath, Result<String, SourceError>>>,
    has_git: bool,
    /// The walk whose identical subtrees this one borrows, if any.
    share: Option<&'t Repo<'t>>,
    /// [`Repo::resolve`]'s answers, in [`RESOLVED_SHARDS`] tables by path.
    resolved: [Mutex<HashMap<RepoPath, Resolved, foldhash::fast::FixedState>>; RESOLVED_SHARDS],
    /// [`Repo::memo`]'s tables, one per key and value type.
    memos: Mutex<HashMap<std::any::TypeId, Arc<dyn std::any::Any + Send + Sync>>>,
}

/// How many tables hold [`Repo::resolve`]'s answers: the workers of
/// `check --all-dirs` seldom wait for one another's lookups.
const RESOLVED_SHARDS: usize = 16;

/// The table of [`Repo::resolve`]'s answers that holds `path`.
fn resolved_shard(path: &RepoPath) -> usize {
    use std::hash::BuildHasher;
    // Bits the tables' own lookups (the low bits and the top seven, for
    // the same hash) do not use.
    let h = foldhash::fast::FixedState::default().hash_one(path);
    ((h >> 32) as usize) % RESOLVED_SHARDS
}

/// One table of [`Repo::memo`].
type MemoTable<K, V> = Mutex<HashMap<K, V, foldhash::fast::RandomState>>;

/// What one directory's listing holds of git's own files: a `.git` entry
/// of any kind (a work tree's top, or a submodule's), a `.gitignore` file
/// with a UTF-8 name.
#[derive(Clone, Copy)]
struct GitMarks {
    git: bool,
    gitignore: bool,
}

impl GitMarks {
    /// The marks of `raw`, a listing sorted by name
    /// ([`SourceTree::list_dir`]): `.git` and `.gitignore` sort before
    /// every name that starts after `.`, so the pass stops at the first
    /// such name, most often the first entry.
    fn of(raw: &[DirEntry]) -> GitMarks {
        let mut marks = GitMarks {
            git: false,
            gitignore: false,
        };
        for e in raw {
            if e.name.as_bytes().first().is_some_and(|&b| b > b'.') {
                break;
            }
            match e.name.as_str() {
                ".git" => marks.git = true,
                ".gitignore" => {
                    marks.gitignore |= e.kind == EntryKind::File && !e.non_utf8_name;
                }
                _ => {}
            }
        }
        marks
    }
}

impl<'t> Repo<'t> {
    /// Walks the whole of `tree` once, every entry visible. The walk is
    /// spread over threads and uses no recursion, so depth cannot overflow
    /// the stack. Unreadable directories become [`Repo::walk_problems`];
    /// the walk goes on.
    pub fn new(tree: &'t dyn SourceTree) -> Self {
        Repo::with_options(tree, RepoOptions::default())
    }

    /// Walks the part of `tree` that `options.scope` names, showing the
    /// entries `options.visibility` and `options.excludes` allow. Problems
    /// met while building it are [`Repo::walk_problems`], sorted by path.
    pub fn with_options(tree: &'t dyn SourceTree, options: RepoOptions) -> Self {
        Repo::build(tree, options, None)
    }

    /// As [`Repo::with_options`], borrowing from `other` the listing of
    /// every directory whose subtree is the same in both trees: same
    /// [`SourceTree::subtree_id`] (a git tree id), already walked in
    /// `other`, and both seen through the same view (a commit's, or every
    /// entry, with the same `excludes`; git's view of a working tree never
    /// shares). Such a subtree is neither listed nor decoded again, and its
    /// walk problems are `other`'s, copied. Everything this `Repo` answers
    /// is what [`Repo::with_options`] would answer; only the work differs:
    /// for two commits of a diff, this walk lists only the directories
    /// whose tree id changed and their children.
    ///
    /// `other` is typically built first with [`WalkScope::Whole`].
    pub fn sharing(tree: &'t dyn SourceTree, options: RepoOptions, other: &'t Repo<'t>) -> Self {
        Repo::build(tree, options, Some(other))
    }

    fn build(tree: &'t dyn SourceTree, options: RepoOptions, other: Option<&'t Repo<'t>>) -> Self {
        let (view, scope) = View::new(options);
        let share = other.filter(|o| view.shares_with(&o.view));
        let mut repo = Repo {
            tree,
            view,
            root: Node::new(false, None),
            problems: Vec::new(),
            late_problems: Mutex::new(Vec::new()),
            entry_count: AtomicUsize::new(1),
            named: FrozenMap::new(),
            files: Mutex::new(HashMap::new()),
            links: Mutex::new(HashMap::new()),
            has_git: tree.has_git_marker(),
            share,
            resolved: std::array::from_fn(|_| Mutex::new(HashMap::default())),
            memos: Mutex::new(HashMap::new()),
        };
        match scope {
            WalkScope::Whole => repo.walk(&[RepoPath::root()]),
            WalkScope::Launch { cwd, entry_names } => {
                let mut starts = Vec::new();
                for dir in cwd.ancestors_root_first() {
                    if dir == cwd {
                        break;
                    }
                    for name in &entry_names {
                        if let Some(p) = dir.child(name) {
                            if repo.kind(&p) == Some(EntryKind::Dir) {
                                starts.push(p);
                            }
                        }
                    }
                }
                starts.push(cwd);
                repo.walk(&starts);
            }
        }
        let mut problems = tree.problems();
        problems.append(&mut repo.late_problems.lock().unwrap_or_else(|e| e.into_inner()));
        problems.sort_by(|a, b| a.path.cmp(&b.path).then_with(|| a.message.cmp(&b.message)));
        problems.dedup();
        repo.problems = problems;
        repo
    }

    /// Lists every directory below each of `starts` (real directories,
    /// links not followed), spread over the thread pool: one task per
    /// directory, so no stack grows with depth.
    fn walk(&self, starts: &[RepoPath]) {
        let todo: Vec<(&Node, RepoPath)> = starts
            .iter()
            .filter_map(|p| self.dir_node(p).map(|n| (n, p.clone())))
            .filter(|(n, _)| n.walked.get().is_none())
            .collect();
        if todo.is_empty() {
            return;
        }
        rayon::scope(|s| {
            for (node, path) in &todo {
                let path = path.clone();
                s.spawn(move |s| self.walk_node(s, node, path));
            }
        });
        for (node, _) in todo {
            let _ = node.walked.set(());
        }
    }

    fn walk_node<'s>(&'s self, s: &rayon::Scope<'s>, node: &'s Node, path: RepoPath) {
        if node.walked.get().is_some() {
            return;
        }
        let listing = self.listing(node, || path.clone());
        if node.borrowed.load(Ordering::Acquire) {
            // Walked in the shared `Repo` already.
            return;
        }
        for (i, child) in listing.dirs.iter() {
            if let Some(p) = path.child(&listing.entries[*i as usize].name) {
                s.spawn(move |s| self.walk_node(s, child, p));
            }
        }
    }

    fn listing<'a>(&'a self, node: &'a Node, path: impl FnOnce() -> RepoPath) -> &'a Listing {
        node.listing.get_or_init(|| {
            let path = path();
            match self.borrow(node, &path) {
                Some(l) => {
                    node.borrowed.store(true, Ordering::Release);
                    l
                }
                None => Arc::new(self.list(node, &path)),
            }
        })
    }

    /// The listing of `dir` from the shared `Repo`, when its subtree there
    /// is the same and walked; its walk problems below `dir` are copied.
    fn borrow(&self, node: &Node, dir: &RepoPath) -> Option<Arc<Listing>> {
        let other = self.share?;
        let id = self.tree.subtree_id(dir)?;
        if other.tree.subtree_id(dir)? != id || !other.walked(dir) {
            return None;
        }
        let theirs = other.dir_node(dir)?;
        if std::ptr::eq(theirs, node) {
            // Already the shared node (below a borrowed directory).
            return None;
        }
        let listing = theirs.listing.get()?.clone();
        let mut problems: Vec<WalkProblem> = other
            .problems
            .iter()
            .chain(other.late_walk_problems().iter())
            .filter(|p| p.path.starts_with(dir))
            .cloned()
            .collect();
        if !problems.is_empty() {
            self.late_problems
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .append(&mut problems);
        }
        Some(listing)
    }

    fn problem(&self, path: &RepoPath, message: String, cause: WalkCause, entry: Option<&str>) {
        self.late_problems
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(WalkProblem {
                path: path.clone(),
                message,
                cause,
                entry: entry.map(str::to_string),
            });
    }

    /// Lists `dir` through the tree and applies the view.
    fn list(&self, node: &Node, dir: &RepoPath) -> Listing {
        let empty = || Listing {
            entries: Box::new([]),
            dirs: Box::new([]),
        };
        if self.entry_count.load(Ordering::Relaxed) >= MAX_ENTRIES {
            self.problem(
                dir,
                format!("the tree has more than {MAX_ENTRIES} entries; the rest is not analysed"),
                WalkCause::TooManyEntries,
                None,
            );
            return empty();
        }
        let raw = match self.tree.list_dir(dir) {
            Ok(l) => l,
            Err(e) => {
                let kind = match &e {
                    SourceError::Io { kind, .. } => *kind,
                    _ => crate::IoKind::Other,
                };
                self.problem(dir, e.to_string(), WalkCause::Unlisted(kind), None);
                return empty();
            }
        };
        let marks = GitMarks::of(&raw);
        if let Some(commit) = self.submodule(dir, marks) {
            self.problem(dir, submodule_message(commit), WalkCause::Submodule, None);
            return empty();
        }
        let level = if self.view.reads_gitignore() && !node.ignored {
            match marks.gitignore.then(|| dir.child(".gitignore")).flatten() {
                Some(p) => match self.tree.read_file(&p, MAX_IGNORE_FILE_BYTES) {
                    Ok(bytes) => Some(Arc::new(IgnoreLevel::new(
                        dir,
                        &String::from_utf8_lossy(&bytes),
                        node.parent_level.clone(),
                    ))),
                    Err(_) => node.parent_level.clone(),
                },
                None => node.parent_level.clone(),
            }
        } else {
            node.parent_level.clone()
        };
        // Filtered in place: the listing keeps the tree's vector.
        let mut entries = raw;
        let mut dirs = Vec::new();
        let mut buf = String::new();
        let needs_paths = self.view.needs_paths();
        let mut kept = 0u32;
        entries.retain(|ent| {
            if ent.name == ".git" {
                return false;
            }
            if ent.non_utf8_name {
                self.problem(
                    dir,
                    format!("the name `{}` is not valid UTF-8", ent.name.escape_debug()),
                    WalkCause::NonUtf8Name,
                    Some(&ent.name),
                );
                return false;
            }
            if ent.name.is_empty() || ent.name == "." || ent.name == ".." || ent.name.contains('/')
            {
                return false;
            }
            let is_dir = ent.kind == EntryKind::Dir;
            let seen = if needs_paths {
                buf.clear();
                if !dir.is_root() {
                    buf.push_str(dir.as_str());
                    buf.push('/');
                }
                buf.push_str(&ent.name);
                self.view
                    .classify(&buf, &ent.name, is_dir, level.as_ref(), node.ignored)
            } else {
                Seen::Visible
            };
            if seen == Seen::Hidden {
                return false;
            }
            if is_dir {
                dirs.push((kept, Node::new(seen == Seen::VisibleIgnored, level.clone())));
            }
            kept += 1;
            true
        });
        self.entry_count.fetch_add(entries.len(), Ordering::Relaxed);
        Listing {
            entries: entries.into_boxed_slice(),
            dirs: dirs.into_boxed_slice(),
        }
    }

    /// The commit of the submodule at `dir`, when git's view applies (repo
    /// mode in a work tree), `dir` holds a `.git` (`marks`) and the
    /// index records `dir` as a gitlink: its files are another
    /// repository's, so the walk does not enter it, as a commit's walk
    /// does not ([`crate::GitTree`]). The index is read only for a
    /// directory that holds a `.git`.
    fn submodule(&self, dir: &RepoPath, marks: GitMarks) -> Option<gix::ObjectId> {
        if dir.is_root() || !marks.git {
            return None;
        }
        self.view.gitlink(dir.as_str())
    }

    /// The commit the index records for the submodule at `path`, when this
    /// is a working tree seen in git's view (repo mode), which does not
    /// walk into it ([`Repo::walk_problems`] names it); `None` otherwise.
    pub(crate) fn recorded_submodule(&self, path: &RepoPath) -> Option<gix::ObjectId> {
        if self.tree.is_commit() {
            return None;
        }
        self.view.gitlink(path.as_str())
    }

    /// The node of real directory `path` (no link on the way), listing the
    /// directories above it as needed.
    fn dir_node(&self, path: &RepoPath) -> Option<&Node> {
        let mut node = &self.root;
        let s = path.as_str();
        let mut end = 0;
        for c in path.components() {
            let upto = end;
            let listing = self.listing(node, || {
                RepoPath::new(&s[..upto]).unwrap_or_else(RepoPath::root)
            });
            let (i, e) = listing.entry(c)?;
            if e.kind != EntryKind::Dir {
                return None;
            }
            node = listing.dir(i)?;
            end = if end == 0 { c.len() } else { end + 1 + c.len() };
        }
        Some(node)
    }

    /// Where a walk down the listings towards `path` ends, links not
    /// followed.
    fn locate(&self, path: &RepoPath) -> Located {
        let mut node = &self.root;
        let s = path.as_str();
        let mut end = 0;
        let mut comps = path.components().peekable();
        while let Some(c) = comps.next() {
            let upto = end;
            let listing = self.listing(node, || {
                RepoPath::new(&s[..upto]).unwrap_or_else(RepoPath::root)
            });
            let Some((i, e)) = listing.entry(c) else {
                return Located::Missing;
            };
            if comps.peek().is_none() {
                return Located::Entry(e.kind);
            }
            match e.kind {
                EntryKind::Dir => match listing.dir(i) {
                    Some(n) => node = n,
                    None => return Located::Missing,
                },
                EntryKind::Symlink => return Located::ThroughLink,
                EntryKind::File | EntryKind::Other => return Located::Missing,
            }
            end = if end == 0 { c.len() } else { end + 1 + c.len() };
        }
        Located::Entry(EntryKind::Dir)
    }

    /// The node of real directory `path` with its listing.
    fn dir_listing(&self, path: &RepoPath) -> Option<&Listing> {
        let node = self.dir_node(path)?;
        Some(self.listing(node, || path.clone()))
    }

    /// True when `dir` or a directory above it has been walked whole.
    fn walked(&self, dir: &RepoPath) -> bool {
        let mut node = &self.root;
        if node.walked.get().is_some() {
            return true;
        }
        for c in dir.components() {
            let Some(listing) = node.listing.get() else {
                return false;
            };
            let Some(next) = listing.entry(c).and_then(|(i, _)| listing.dir(i)) else {
                return false;
            };
            node = next;
            if node.walked.get().is_some() {
                return true;
            }
        }
        false
    }

    /// The file rule applied: every entry, or git's view.
    pub fn file_rule(&self) -> FileRule {
        self.view.rule()
    }

    /// The underlying tree.
    pub fn tree(&self) -> &'t dyn SourceTree {
        self.tree
    }

    /// The blob id the git index records for the file at `path`, when
    /// this is a working tree seen in git's view (repo mode) and git's
    /// stat rule says the file is unchanged since it was staged
    /// ([`crate::GitView`]); `None` when its content must be read to know.
    pub(crate) fn unchanged_blob(&self, path: &RepoPath) -> Option<gix::ObjectId> {
        if self.tree.is_commit() {
            return None;
        }
        let root = self.tree.absolute_root()?;
        self.view
            .unchanged_blob(path.as_str(), &root.join(path.as_str()))
    }

    /// True when the repository root holds `.git`.
    pub fn has_git_marker(&self) -> bool {
        self.has_git
    }

    /// True when directory `dir` holds a `.git` entry of any kind: a
    /// directory, or the file a checked-out submodule or a linked worktree
    /// has (`gitdir: PATH`). The entry is stat'ed, never followed or read.
    /// The one answer to "is `dir` the top of a git work tree", which is
    /// where git (`git rev-parse --show-toplevel`), Codex's default
    /// `project_root_markers`, OpenCode's worktree and Claude Code's
    /// project skills walk stop going up.
    pub fn holds_git_marker(&self, dir: &RepoPath) -> bool {
        if dir.is_root() {
            return self.has_git;
        }
        dir.join(".git")
            .is_some_and(|marker| self.tree.stat(&marker).is_ok())
    }

    /// The top of the git work tree holding `dir` as far as the analysis
    /// sees: the closest of `dir` and its ancestors below the repository
    /// root that [holds a `.git`](Repo::holds_git_marker) (a checked-out
    /// submodule or a nested repository), else the repository root (also
    /// when the root holds no `.git`: the supplied root is assumed).
    pub fn nearest_git_root(&self, dir: &RepoPath) -> RepoPath {
        dir.ancestors_root_first()
            .into_iter()
            .rev()
            .find(|d| !d.is_root() && self.holds_git_marker(d))
            .unwrap_or_else(RepoPath::root)
    }

    /// Directories the walk could not read while the `Repo` was built,
    /// sorted by path. (A directory listed later, on an adapter's first
    /// question, that cannot be read shows as empty; see
    /// [`Repo::late_walk_problems`].)
    pub fn walk_problems(&self) -> &[WalkProblem] {
        &self.problems
    }

    /// Directories that could not be read when listed after the `Repo`
    /// was built, in the order met.
    pub fn late_walk_problems(&self) -> Vec<WalkProblem> {
        self.late_problems
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The number of entries listed so far (the root included).
    pub fn entry_count(&self) -> usize {
        self.entry_count.load(Ordering::Relaxed)
    }

    /// The kind of `path` itself, links not followed; `None` when it is
    /// not shown (absent, hidden by the view, or below a link or a file).
    pub fn kind(&self, path: &RepoPath) -> Option<EntryKind> {
        let Some(parent) = path.parent() else {
            return Some(EntryKind::Dir);
        };
        let name = path.file_name()?;
        self.dir_listing(&parent)?.entry(name).map(|(_, e)| e.kind)
    }

    /// Every shown path whose last component is `name`, sorted; links are
    /// not followed. Walks the whole tree if it has not been walked.
    pub fn files_named(&self, name: &str) -> &[RepoPath] {
        self.files_named_under(name, &RepoPath::root())
    }

    /// The shown paths named `name` that lie strictly below real directory
    /// `dir` (every one for the root), sorted; links are not followed.
    ///
    /// Walks `dir`'s subtree if it has not been walked, then answers once
    /// per name and directory. When the answer for a directory above is
    /// known, this one is a binary search in it (paths sharing the prefix
    /// `dir/` are contiguous), so the cost is that of the answer.
    pub fn files_named_under(&self, name: &str, dir: &RepoPath) -> &[RepoPath] {
        // `all`, the answer for a directory strictly above `dir`, cut to
        // the paths below `dir` (contiguous: they share the prefix `dir/`).
        let below = |all: &'_ [RepoPath]| -> std::ops::Range<usize> {
            let prefix = format!("{dir}/");
            let start = all.partition_point(|p| p.as_str() < prefix.as_str());
            let len = all[start..].partition_point(|p| p.as_str().starts_with(&prefix));
            start..start + len
        };
        // The root's answer, once known (check --all-dirs prefetches the
        // names there), covers every directory: one lookup instead of one
        // per level between `dir` and the root.
        if !dir.is_root() {
            if let Some(all) = self.named.get(&(name.to_string(), RepoPath::root())) {
                return &all[below(all)];
            }
        }
        let mut up = Some(dir.clone());
        while let Some(d) = up {
            if let Some(all) = self.named.get(&(name.to_string(), d.clone())) {
                if d == *dir {
                    return all;
                }
                // `d` lies strictly above `dir`, so `dir` is not the root.
                return &all[below(all)];
            }
            up = d.parent();
        }
        if !self.walked(dir) {
            self.walk(std::slice::from_ref(dir));
        }
        let mut found = self.named_pass(&[name], dir);
        let mut found = found.pop().unwrap_or_default();
        found.sort();
        self.named.insert((name.to_string(), dir.clone()), found)
    }

    /// The names [`Repo::files_named_under`] (or
    /// [`Repo::prefetch_named`]) has answered so far, sorted: what a
    /// caller compiling many launch directories should prefetch.
    pub fn names_looked_up(&self) -> std::collections::BTreeSet<String> {
        self.named
            .keys_cloned()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    /// Answers [`Repo::files_named`] for every name of `names` in one pass
    /// over the tree instead of one pass per name; the answers are kept,
    /// so later calls for these names (at the root or below) cost only
    /// their answer. Names already answered are skipped. Walks the whole
    /// tree if it has not been walked.
    pub fn prefetch_named(&self, names: &[&str]) {
        self.prefetch_named_under(names, &RepoPath::root());
    }

    /// Answers [`Repo::files_named_under`] for every name of `names`
    /// below real directory `dir` in one pass over `dir`'s subtree instead
    /// of one pass per name: what one compilation that looks up several
    /// names below its launch directory asks first. Names already
    /// answerable there (for `dir` or a directory above it, such as the
    /// root after [`Repo::prefetch_named`]) are skipped, so the call costs
    /// nothing when `check --all-dirs` has prefetched them. Walks `dir`'s
    /// subtree if it has not been walked.
    pub fn prefetch_named_under(&self, names: &[&str], dir: &RepoPath) {
        let answered = |n: &str| {
            let mut up = Some(dir.clone());
            while let Some(d) = up {
                if self.named.get(&(n.to_string(), d.clone())).is_some() {
                    return true;
                }
                up = d.parent();
            }
            false
        };
        let mut todo: Vec<&str> = names.iter().copied().filter(|n| !answered(n)).collect();
        todo.sort_unstable();
        todo.dedup();
        if todo.is_empty() {
            return;
        }
        if !self.walked(dir) {
            self.walk(std::slice::from_ref(dir));
        }
        let found = self.named_pass(&todo, dir);
        for (name, mut paths) in todo.into_iter().zip(found) {
            paths.sort();
            self.named.insert((name.to_string(), dir.clone()), paths);
        }
    }

    /// For each of `names` (sorted, no repeats), the shown paths with that
    /// last component strictly below real directory `dir`, unsorted: one
    /// depth-first pass over the listings with one path buffer, a path
    /// built only for what is found. Below a directory borrowed from the
    /// shared `Repo`, that `Repo`'s answers for `dir` are sliced instead of
    /// passing over the identical subtree again.
    fn named_pass(&self, names: &[&str], dir: &RepoPath) -> Vec<Vec<RepoPath>> {
        let mut found: Vec<Vec<RepoPath>> = vec![Vec::new(); names.len()];
        let Some(node) = self.dir_node(dir) else {
            return found;
        };
        // The shared `Repo`'s answers below `dir`, fetched on the first
        // borrowed directory met.
        let mut theirs: Option<Vec<&[RepoPath]>> = None;
        let mut buf = if dir.is_root() {
            String::new()
        } else {
            dir.as_str().to_string()
        };
        let mut stack: Vec<(&Node, usize, Option<&str>)> = vec![(node, buf.len(), None)];
        while let Some((node, parent_len, own)) = stack.pop() {
            buf.truncate(parent_len);
            if let Some(n) = own {
                if !buf.is_empty() {
                    buf.push('/');
                }
                buf.push_str(n);
            }
            let here = buf.len();
            let listing = self.listing(node, || RepoPath::new(&buf).unwrap_or_else(RepoPath::root));
            if let Some(other) = self.share.filter(|_| node.borrowed.load(Ordering::Acquire)) {
                let theirs = theirs.get_or_insert_with(|| {
                    if dir.is_root() {
                        other.prefetch_named(names);
                    }
                    names
                        .iter()
                        .map(|n| other.files_named_under(n, dir))
                        .collect()
                });
                for (k, all) in theirs.iter().enumerate() {
                    found[k].extend_from_slice(below(all, &buf));
                }
                continue;
            }
            // The smaller side searched in the larger, both sorted.
            let mut hit = |k: usize| {
                if let Some(p) = RepoPath::new(&buf)
                    .unwrap_or_else(RepoPath::root)
                    .child(names[k])
                {
                    found[k].push(p);
                }
            };
            if listing.entries.len() < names.len() {
                for e in listing.entries.iter() {
                    if let Ok(k) = names.binary_search(&e.name.as_str()) {
                        hit(k);
                    }
                }
            } else {
                for (k, name) in names.iter().enumerate() {
                    if listing.entry(name).is_some() {
                        hit(k);
                    }
                }
            }
            for (i, child) in listing.dirs.iter() {
                stack.push((
                    child,
                    here,
                    Some(listing.entries[*i as usize].name.as_str()),
                ));
            }
        }
        found
    }

    /// The shown entries of directory `dir` after resolving links on the
    /// way, sorted by name; empty when it is not a directory inside the
    /// repository.
    pub fn list_dir(&self, dir: &RepoPath) -> &[DirEntry] {
        match self.resolve(dir) {
            Resolved::Inside {
                real,
                kind: EntryKind::Dir,
                ..
            } => self.dir_listing(&real).map(|l| &*l.entries).unwrap_or(&[]),
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
    ///
    /// Each answer is kept: the adapters resolve the same configuration
    /// paths at every launch directory of `check --all-dirs`, and a
    /// resolution walks the listings from the root.
    pub fn resolve(&self, path: &RepoPath) -> Resolved {
        let shard = &self.resolved[resolved_shard(path)];
        if let Some(r) = shard.lock().unwrap_or_else(|e| e.into_inner()).get(path) {
            return r.clone();
        }
        let r = self.resolve_uncached(path);
        shard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.clone(), r.clone());
        r
    }

    /// [`Repo::resolve`] without the kept answers.
    fn resolve_uncached(&self, path: &RepoPath) -> Resolved {
        // Fast path: one walk down the listings. Without a link on the
        // way, the answer is there; only a link needs the slow path.
        match self.locate(path) {
            Located::Entry(EntryKind::Symlink) | Located::ThroughLink => {}
            Located::Entry(kind) => {
                return Resolved::Inside {
                    real: path.clone(),
                    kind,
                    via_link: false,
                }
            }
            Located::Missing => return Resolved::Missing,
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

    /// The real path of the regular file at `path`, links inside the
    /// repository followed. Errors: `Io` (`WrongKind`) when it is not a
    /// regular file, `NotFound` when nothing readable is there (a missing
    /// file, a dangling link, a link out of the repository or a loop).
    fn real_file(&self, path: &RepoPath) -> Result<RepoPath, SourceError> {
        match self.resolve(path) {
            Resolved::Inside {
                real,
                kind: EntryKind::File,
                ..
            } => Ok(real),
            Resolved::Inside { real, .. } => Err(SourceError::Io {
                path: real,
                message: "not a regular file".into(),
                kind: crate::IoKind::WrongKind,
            }),
            _ => Err(SourceError::NotFound(path.clone())),
        }
    }

    /// Reads `path` as text, following links inside the repository, at most
    /// `limit` bytes; each real file is read once and shared.
    ///
    /// Errors: `NotFound` when nothing readable is there (a missing file, a
    /// dangling link, a link out of the repository or a loop: call
    /// [`Repo::resolve`] to tell them apart), `TooLarge`, `Io`.
    pub fn read_text(&self, path: &RepoPath, limit: u64) -> Result<Arc<TextFile>, SourceError> {
        let real = self.real_file(path)?;
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

    /// The first `n` bytes of `path` (all of it when shorter) and the
    /// file's size in bytes, following links inside the repository, read
    /// no further than `n` bytes in a working tree
    /// ([`SourceTree::read_prefix`]): for a file too large for
    /// [`Repo::read_text`] of which a harness receives only the start.
    /// Each real file and length is read once and shared.
    ///
    /// Errors as [`Repo::read_text`].
    pub fn read_prefix(&self, path: &RepoPath, n: u64) -> Result<(Arc<Vec<u8>>, u64), SourceError> {
        /// The memo key of a prefix: the real file and the length.
        #[derive(Hash, PartialEq, Eq)]
        struct PrefixKey(RepoPath, u64);
        let real = self.real_file(path)?;
        self.memo(PrefixKey(real.clone(), n), || {
            self.tree
                .read_prefix(&real, n)
                .map(|(bytes, len)| (Arc::new(bytes), len))
        })
    }

    /// The value `compute` derives from this repository for `key`, computed
    /// once per distinct key and shared by every later call (from any
    /// thread) with the same key and value types.
    ///
    /// For work that depends only on what the repository holds and on
    /// `key` (an adapter's reading of one directory's files, say), done
    /// again at every launch directory of `check --all-dirs` otherwise.
    /// `compute` must read the repository only through this `Repo` and
    /// depend on nothing but `key` and what it reads, so that the shared
    /// answer is the one each caller would compute; the key type should be
    /// private to the caller, so that two callers never share a table.
    /// `compute` runs outside every lock (it may call `memo` itself); two
    /// threads asking for a new key at once may both compute it, and the
    /// first answer stored is kept.
    pub fn memo<K, V>(&self, key: K, compute: impl FnOnce() -> V) -> V
    where
        K: std::hash::Hash + Eq + Send + Sync + 'static,
        V: Clone + Send + Sync + 'static,
    {
        let table: Arc<MemoTable<K, V>> = {
            let mut memos = self.memos.lock().unwrap_or_else(|e| e.into_inner());
            let any = memos
                .entry(std::any::TypeId::of::<MemoTable<K, V>>())
                .or_insert_with(|| Arc::new(MemoTable::<K, V>::default()))
                .clone();
            match any.downcast::<MemoTable<K, V>>() {
                Ok(t) => t,
                // The table of a type id is of that type.
                Err(_) => return compute(),
            }
        };
        if let Some(v) = table.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return v.clone();
        }
        let v = compute();
        let mut t = table.lock().unwrap_or_else(|e| e.into_inner());
        t.entry(key).or_insert(v).clone()
    }

    /// When `path` is a small regular file whose whole content is one
    /// relative path (`AGENTS.md`, `../skills`), the way git writes a
    /// symbolic link on a checkout with `core.symlinks=false`: that path,
    /// and whether it names an existing entry beside the file. `None`
    /// otherwise. Reads at most 256 bytes. A leading byte order mark is
    /// not part of the path (git never writes one in a link's text), so
    /// `\u{feff}@AGENTS.md`, saved by an editor that adds one, is an
    /// import, not a link.
    pub fn link_stored_as_text(&self, path: &RepoPath) -> Option<(String, bool)> {
        if self.kind(path) != Some(EntryKind::File) {
            return None;
        }
        let t = self.read_text(path, 256).ok()?;
        let target = t.text.trim_start_matches('\u{feff}').trim();
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

    /// Every directory listed so far (links not followed), sorted: the
    /// whole tree once it has been walked.
    pub fn directories(&self) -> Vec<RepoPath> {
        let mut v = vec![RepoPath::root()];
        let mut stack = vec![(&self.root, RepoPath::root())];
        while let Some((node, path)) = stack.pop() {
            let Some(listing) = node.listing.get() else {
                continue;
            };
            for (i, child) in listing.dirs.iter() {
                if let Some(p) = path.child(&listing.entries[*i as usize].name) {
                    v.push(p.clone());
                    stack.push((child, p));
                }
            }
        }
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
        // A kept answer is the one a repository that never resolved
        // anything gives, asked in another order.
        let paths = [
            "a/link/f.md",
            "slash/etc",
            "loop",
            "dangling",
            "nope",
            "a/link",
        ];
        let fresh = Repo::new(&tree);
        for p in paths.iter().rev() {
            assert_eq!(repo.resolve(&rp(p)), fresh.resolve(&rp(p)), "{p}");
        }
    }

    /// `memo` computes once per key, keeps the first answer, and keeps
    /// tables of different key types apart, from several threads at once.
    #[test]
    fn memo_computes_each_key_once() {
        use std::sync::atomic::AtomicUsize;
        #[derive(Hash, PartialEq, Eq)]
        struct A(u32);
        #[derive(Hash, PartialEq, Eq)]
        struct B(u32);
        let dir = tempfile::tempdir().unwrap();
        let tree = WorkingTree::open(dir.path()).unwrap();
        let repo = Repo::new(&tree);
        let runs = AtomicUsize::new(0);
        let count = || runs.fetch_add(1, Ordering::SeqCst);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for k in 0..50u32 {
                        let got = repo.memo(A(k), || {
                            count();
                            k * 2
                        });
                        assert_eq!(got, k * 2);
                    }
                });
            }
        });
        let first = runs.load(Ordering::SeqCst);
        // Two threads may both compute a key they ask for at once.
        assert!((50..=200).contains(&first), "{first}");
        assert_eq!(repo.memo(A(7), || 0u32), 14);
        assert_eq!(runs.load(Ordering::SeqCst), first);
        // Another key type has its own table: the same number is new.
        assert_eq!(repo.memo(B(7), || 1), 1);
        assert_eq!(repo.memo(B(7), || 2), 1);
    }
}

#[cfg(test)]
mod prefetch_tests {
    use super::*;
    use crate::WorkingTree;

    /// One pass for several names answers as one pass per name does, at
    /// the root and below it, in directories with fewer entries than
    /// names and with more.
    #[test]
    fn prefetch_answers_as_files_named() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for p in [
            "AGENTS.md",
            "a/AGENTS.md",
            "a/b/CLAUDE.md",
            "a/b/c/d/AGENTS.md",
            "a/b/c/d/x1",
            "a/b/c/d/x2",
            "a/b/c/d/x3",
            "a/b/c/d/x4",
            "a/b/c/d/x5",
            "z/CLAUDE.md",
            "z/.claude/rules/r.md",
        ] {
            std::fs::create_dir_all(root.join(p).parent().unwrap()).unwrap();
            std::fs::write(root.join(p), "x").unwrap();
        }
        std::os::unix::fs::symlink("a", root.join("link")).unwrap();
        let names = ["CLAUDE.md", "AGENTS.md", ".claude", "rules", "missing.md"];
        let tree = WorkingTree::open(root).unwrap();
        let one_by_one = Repo::new(&tree);
        let batched = Repo::new(&tree);
        batched.prefetch_named(&names);
        for name in names {
            for under in ["", "a", "a/b", "z", "a/b/c/d"] {
                let d = RepoPath::new(under).unwrap_or_else(RepoPath::root);
                assert_eq!(
                    batched.files_named_under(name, &d),
                    one_by_one.files_named_under(name, &d),
                    "{name} under {d}"
                );
                // Cut from the root's answer, as a repository that walks
                // only that directory answers.
                let alone = Repo::new(&tree);
                assert_eq!(
                    batched.files_named_under(name, &d),
                    alone.files_named_under(name, &d),
                    "{name} under {d}, alone"
                );
            }
        }
        let rp = |s: &str| RepoPath::new(s).unwrap();
        assert_eq!(
            batched.files_named("AGENTS.md"),
            [rp("AGENTS.md"), rp("a/AGENTS.md"), rp("a/b/c/d/AGENTS.md")]
        );
        assert_eq!(batched.files_named("rules"), [rp("z/.claude/rules")]);
        assert!(batched.files_named("missing.md").is_empty());
    }
}

#[cfg(test)]
mod git_marks_tests {
    use super::*;

    fn entry(name: &str, kind: EntryKind) -> DirEntry {
        DirEntry {
            name: name.to_string(),
            kind,
            non_utf8_name: false,
        }
    }

    /// A listing's `.git` (of any kind) and `.gitignore` (a file only) are
    /// found among neighbours that share their start, at either end of
    /// the listing, and not found when only those neighbours are there.
    #[test]
    fn git_marks_are_found_by_name_among_neighbours() {
        use EntryKind::{Dir, File};
        let around = [
            entry("+plus", File),
            entry("-dash", Dir),
            entry(".git-blame-ignore-revs", File),
            entry(".gitattributes", File),
            entry(".github", Dir),
            entry(".gitmodules", File),
            entry("a", Dir),
        ];
        let marks = |extra: &[DirEntry]| {
            let mut raw: Vec<DirEntry> = around.iter().chain(extra).cloned().collect();
            raw.sort_by(|a, b| a.name.cmp(&b.name));
            let m = GitMarks::of(&raw);
            (m.git, m.gitignore)
        };
        assert_eq!(marks(&[]), (false, false));
        assert_eq!(marks(&[entry(".git", File)]), (true, false));
        assert_eq!(marks(&[entry(".git", Dir)]), (true, false));
        assert_eq!(marks(&[entry(".gitignore", File)]), (false, true));
        assert_eq!(marks(&[entry(".gitignore", Dir)]), (false, false));
        assert_eq!(
            marks(&[entry(".git", File), entry(".gitignore", File)]),
            (true, true)
        );
        assert!(GitMarks::of(&[entry(".git", Dir)]).git);
        assert!(!GitMarks::of(&[]).git);
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::WorkingTree;

    /// A missing path under a chain of real directories resolves in work
    /// linear in the depth: 300 resolutions under twice the depth cost
    /// about twice the work (allocations), alone in a child process.
    #[test]
    fn missing_paths_under_deep_real_dirs_resolve_in_linear_work() {
        let prepare = |depth: usize| {
            let dir = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(dir.path().join(vec!["a"; depth].join("/"))).unwrap();
            (dir, depth)
        };
        let resolve_all = |(dir, depth): &(tempfile::TempDir, usize)| {
            let tree = WorkingTree::open(dir.path()).unwrap();
            let repo = Repo::new(&tree);
            let deep = RepoPath::new(&vec!["a"; *depth].join("/")).unwrap();
            assert!(repo.kind(&deep).is_some());
            let p = deep.join(".claude/rules").unwrap();
            for _ in 0..300 {
                assert_eq!(repo.resolve(&p), Resolved::Missing);
            }
        };
        resolve_all(&prepare(300));
        if !playbookdiff_testkit::alone!(
            "missing_paths_under_deep_real_dirs_resolve_in_linear_work"
        ) {
            return;
        }
        let ratio = playbookdiff_testkit::work::growth(crate::ALLOCATOR, 150, prepare, resolve_all);
        assert!(ratio < 2.6, "x{ratio:.2} for twice the depth");
    }
}

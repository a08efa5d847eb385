//! A [`SourceTree`] over one commit of a git repository, read straight
//! from the object database with gix: no checkout, no `git` process, no
//! hook, filter or textconv, and the repository's own configuration is not
//! trusted.
//!
//! * Symbolic links come from their tree entries (mode `120000`, the blob
//!   holds the target), so a commit has its links even where a checkout
//!   with `core.symlinks=false` wrote them as text files.
//! * A submodule (a `160000` gitlink entry) is listed as
//!   [`EntryKind::Other`] and reported as a [`WalkProblem`]: its files live
//!   in another repository and are not analysed.
//! * A Git LFS pointer (a small blob that starts with
//!   `version https://git-lfs.github.com/spec/v1`, per the Git LFS
//!   specification `docs/spec.md`) is refused by `read_file` with a message
//!   saying so: the content it stands for is not in the repository.

use crate::{DirEntry, EntryKind, SourceError, SourceTree, Stat, WalkProblem};
use gix::ObjectId;
use playbookdiff_model::RepoPath;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a repository or a revision could not be opened. Messages are one
/// line, name no absolute path, and say what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GitError {
    /// The directory is not (the root of) a git repository.
    NotARepository,
    /// The revision does not name a commit of the repository.
    UnknownRevision {
        /// The revision as given.
        rev: String,
        /// gix's words, shortened to one line.
        reason: String,
    },
    /// The two commits share no history (no merge base for `A...B`).
    NoMergeBase {
        /// The range as given.
        range: String,
    },
    /// An object could not be read.
    Read(String),
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::NotARepository => f.write_str(
                "it is not a git repository (no .git found at its root); pass the root of a git repository, or drop the revision to analyse the directory as it is",
            ),
            GitError::UnknownRevision { rev, reason } => write!(
                f,
                "unknown revision '{}' ({reason}); pass a commit, branch or tag of the repository (e.g. HEAD~1, main); remote refs must be fetched first",
                rev.escape_debug()
            ),
            GitError::NoMergeBase { range } => write!(
                f,
                "'{}' has no merge base: the two commits share no history; use A..B to compare them directly",
                range.escape_debug()
            ),
            GitError::Read(m) => write!(f, "cannot read the repository's objects ({m})"),
        }
    }
}

impl std::error::Error for GitError {}

fn one_line(e: impl fmt::Display) -> String {
    let s = e.to_string();
    s.lines().next().unwrap_or("").trim().to_string()
}

/// A commit: its full id (lowercase hex).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommitId(ObjectId);

impl CommitId {
    /// The full lowercase hex id (40 characters for SHA-1).
    pub fn hex(&self) -> String {
        self.0.to_string()
    }

    /// The first 7 hex characters, as `git log --oneline` shows them.
    pub fn short(&self) -> String {
        self.hex().chars().take(7).collect()
    }
}

impl fmt::Display for CommitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A git repository opened for reading objects.
///
/// Opened isolated (no environment variable, global or system
/// configuration) and with reduced trust, so configuration in the
/// repository's own `.git/config` is not used: nothing configurable there
/// (hooks, filters, textconv, fsmonitor) can run or change what is read.
pub struct GitRepository {
    repo: gix::ThreadSafeRepository,
    work_tree: Option<PathBuf>,
}

impl GitRepository {
    /// Opens the repository whose root (work tree or bare directory) is
    /// `root`. No parent directory is searched.
    ///
    /// Errors: [`GitError::NotARepository`] when `root` holds no repository.
    pub fn open(root: &Path) -> Result<Self, GitError> {
        let options = gix::open::Options::isolated()
            .with(gix::sec::Trust::Reduced)
            .open_path_as_is(false);
        let repo = gix::ThreadSafeRepository::open_opts(root, options)
            .map_err(|_| GitError::NotARepository)?;
        let work_tree = repo.work_tree.clone();
        // `root` must be the repository's root, not a directory inside it.
        if let Some(wt) = &work_tree {
            let same = match (std::fs::canonicalize(wt), std::fs::canonicalize(root)) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if !same {
                return Err(GitError::NotARepository);
            }
        }
        Ok(GitRepository { repo, work_tree })
    }

    /// The commit `rev` names (`HEAD`, `main~2`, a tag, a full or
    /// abbreviated id), peeled through tags.
    ///
    /// Errors: [`GitError::UnknownRevision`] when it names nothing, or
    /// something that is not a commit.
    pub fn commit(&self, rev: &str) -> Result<CommitId, GitError> {
        let unknown = |reason: String| GitError::UnknownRevision {
            rev: rev.to_string(),
            reason,
        };
        if rev.trim().is_empty() || rev.starts_with('-') {
            return Err(unknown("an empty revision or one starting with '-'".into()));
        }
        let repo = self.repo.to_thread_local();
        let id = repo
            .rev_parse_single(rev)
            .map_err(|e| unknown(one_line(e)))?;
        let commit = id
            .object()
            .map_err(|e| unknown(one_line(e)))?
            .peel_to_commit()
            .map_err(|_| unknown("it does not name a commit".into()))?;
        Ok(CommitId(commit.id))
    }

    /// The best common ancestor of `a` and `b` (`git merge-base a b`), for
    /// `A...B`.
    ///
    /// Errors: [`GitError::NoMergeBase`] naming `range` when the histories
    /// are unrelated; [`GitError::Read`] when the history cannot be walked.
    pub fn merge_base(
        &self,
        a: &CommitId,
        b: &CommitId,
        range: &str,
    ) -> Result<CommitId, GitError> {
        let repo = self.repo.to_thread_local();
        match repo.merge_base(a.0, b.0) {
            Ok(Some(id)) => Ok(CommitId(id.detach())),
            Ok(None) => Err(GitError::NoMergeBase {
                range: range.to_string(),
            }),
            Err(e) => Err(GitError::Read(one_line(e))),
        }
    }

    /// The tree of `commit`, every entry listed once (a breadth-first
    /// traversal of its tree objects); blobs are read on demand.
    ///
    /// Errors: [`GitError::Read`] when a tree object is missing or corrupt.
    pub fn tree(&self, commit: &CommitId) -> Result<GitTree, GitError> {
        GitTree::new(self, commit)
    }
}

#[derive(Clone, Copy, Debug)]
struct GitEntry {
    kind: EntryKind,
    oid: ObjectId,
    /// The tree entry's mode bits, as git stores them (e.g. 0o100644).
    mode: u32,
}

/// One commit's tree as a [`SourceTree`].
///
/// Listing and `stat` are answered from the entries recorded when the tree
/// was opened; `read_file` and `read_link` read blobs from the object
/// database, each call on its own handle so threads read in parallel.
pub struct GitTree {
    repo: gix::ThreadSafeRepository,
    handles: Mutex<Vec<gix::Repository>>,
    commit: CommitId,
    work_tree: Option<PathBuf>,
    entries: HashMap<RepoPath, GitEntry>,
    children: HashMap<RepoPath, Vec<DirEntry>>,
    problems: Vec<WalkProblem>,
}

/// The first bytes of a Git LFS pointer file (Git LFS `docs/spec.md`).
const LFS_POINTER_PREFIX: &[u8] = b"version https://git-lfs.github.com/spec/v1";

/// Pointer files are small: the specification caps them at 1024 bytes.
const LFS_POINTER_MAX: usize = 1024;

/// A path component git may store but no checkout writes (`.`, `..`, an
/// empty name, or one holding a separator): never joined into a path.
fn unsafe_component(name: &str) -> bool {
    name.is_empty() || name == "." || name == ".." || name.contains('/') || name.contains('\\')
}

impl GitTree {
    fn new(git: &GitRepository, commit: &CommitId) -> Result<Self, GitError> {
        let repo = git.repo.to_thread_local();
        let tree = repo
            .find_object(commit.0)
            .map_err(|e| GitError::Read(one_line(e)))?
            .peel_to_tree()
            .map_err(|e| GitError::Read(one_line(e)))?;
        let records = tree
            .traverse()
            .breadthfirst
            .files()
            .map_err(|e| GitError::Read(one_line(e)))?;
        drop(tree);
        let mut entries: HashMap<RepoPath, GitEntry> = HashMap::with_capacity(records.len());
        let mut children: HashMap<RepoPath, Vec<DirEntry>> = HashMap::new();
        let mut problems = Vec::new();
        children.insert(RepoPath::root(), Vec::new());
        // Breadth-first: a directory is recorded before what it holds, so
        // an entry whose directory was not recorded (an unusable name on
        // the way) is skipped with it.
        for rec in records {
            let raw: &[u8] = rec.filepath.as_ref();
            let (dir_raw, name_raw) = match raw.iter().rposition(|b| *b == b'/') {
                Some(i) => (&raw[..i], &raw[i + 1..]),
                None => (&raw[..0], raw),
            };
            let dir = match std::str::from_utf8(dir_raw) {
                Ok("") => RepoPath::root(),
                Ok(d) => match RepoPath::new(d) {
                    Some(p) if entries.contains_key(&p) => p,
                    _ => continue,
                },
                Err(_) => continue,
            };
            let name = match std::str::from_utf8(name_raw) {
                Ok(n) if !unsafe_component(n) => n.to_string(),
                other => {
                    let non_utf8 = other.is_err();
                    let lossy = String::from_utf8_lossy(name_raw).into_owned();
                    if non_utf8 {
                        // Listed like a working tree lists it; the walk
                        // reports it.
                        children.entry(dir).or_default().push(DirEntry {
                            name: lossy,
                            kind: EntryKind::Other,
                            non_utf8_name: true,
                        });
                    } else {
                        problems.push(WalkProblem {
                            path: dir,
                            message: format!(
                                "the tree holds an entry named `{}`, which no checkout writes, so it is not analysed",
                                lossy.escape_debug()
                            ),
                        });
                    }
                    continue;
                }
            };
            let Some(path) = dir.join(&name) else {
                continue;
            };
            let mode = rec.mode;
            let kind = if mode.is_tree() {
                EntryKind::Dir
            } else if mode.is_link() {
                EntryKind::Symlink
            } else if mode.is_blob() {
                EntryKind::File
            } else {
                EntryKind::Other
            };
            if mode.is_commit() {
                problems.push(WalkProblem {
                    path: path.clone(),
                    message: format!(
                        "a submodule (commit {}): its files are in another repository and are not analysed",
                        rec.oid.to_hex_with_len(7)
                    ),
                });
            }
            if kind == EntryKind::Dir {
                children.entry(path.clone()).or_default();
            }
            children.entry(dir).or_default().push(DirEntry {
                name,
                kind,
                non_utf8_name: false,
            });
            entries.insert(
                path,
                GitEntry {
                    kind,
                    oid: rec.oid,
                    mode: mode.value() as u32,
                },
            );
        }
        for list in children.values_mut() {
            list.sort_by(|a, b| a.name.cmp(&b.name));
        }
        Ok(GitTree {
            repo: git.repo.clone(),
            handles: Mutex::new(vec![repo]),
            commit: commit.clone(),
            work_tree: git.work_tree.clone(),
            entries,
            children,
            problems,
        })
    }

    /// The commit this tree belongs to.
    pub fn commit(&self) -> &CommitId {
        &self.commit
    }

    /// The paths of the files, links and submodules that differ between
    /// this tree and `other` (added, removed, or with another blob or
    /// mode), sorted. Both sides of a rename are listed. Directories are
    /// not listed, only what they hold. Comparing recorded object ids, no
    /// blob is read.
    pub fn changed_paths(&self, other: &GitTree) -> Vec<RepoPath> {
        let leaf = |e: &GitEntry| e.kind != EntryKind::Dir;
        let mut out: Vec<RepoPath> = Vec::new();
        for (p, a) in &self.entries {
            if !leaf(a) {
                continue;
            }
            match other.entries.get(p) {
                Some(b) if leaf(b) && b.oid == a.oid && b.mode == a.mode => {}
                _ => out.push(p.clone()),
            }
        }
        for (p, b) in &other.entries {
            if leaf(b) && !self.entries.get(p).is_some_and(leaf) {
                out.push(p.clone());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The paths that differ between this commit and `other`, a walked
    /// tree (the working tree for `diff REV`), sorted: entries on one side
    /// only, a different kind, a link with another target, or a file whose
    /// git blob id (SHA-1 of `blob <len>\0<bytes>`, computed here as git
    /// does for an unfiltered file) differs. Files of the same size are
    /// hashed; a size mismatch is a change without reading. Directories
    /// are not listed; a file larger than 64 MiB counts as changed.
    pub fn changed_against(&self, other: &crate::Repo<'_>) -> Vec<RepoPath> {
        const HASH_LIMIT: u64 = 64 * 1024 * 1024;
        let tree = other.tree();
        let mut out: Vec<RepoPath> = Vec::new();
        let mut seen: std::collections::HashSet<RepoPath> = std::collections::HashSet::new();
        for dir in other.directories() {
            for ent in other.list_dir(&dir) {
                if ent.kind == EntryKind::Dir || ent.non_utf8_name {
                    continue;
                }
                let Some(path) = dir.join(&ent.name) else {
                    continue;
                };
                seen.insert(path.clone());
                let Some(mine) = self.entries.get(&path) else {
                    out.push(path);
                    continue;
                };
                let same = match (mine.kind, ent.kind) {
                    (EntryKind::Symlink, EntryKind::Symlink) => {
                        match (self.read_link(&path), tree.read_link(&path)) {
                            (Ok(a), Ok(b)) => a == b,
                            _ => false,
                        }
                    }
                    (EntryKind::File, EntryKind::File) => {
                        let size = self.with_handle(|r| r.find_header(mine.oid).map(|h| h.size()));
                        match (size, tree.stat(&path)) {
                            (Ok(a), Ok(st)) if a == st.len && a <= HASH_LIMIT => {
                                match tree.read_file(&path, HASH_LIMIT) {
                                    Ok(bytes) => gix::objs::compute_hash(
                                        mine.oid.kind(),
                                        gix::objs::Kind::Blob,
                                        &bytes,
                                    )
                                    .is_ok_and(|id| id == mine.oid),
                                    Err(_) => false,
                                }
                            }
                            _ => false,
                        }
                    }
                    _ => false,
                };
                if !same {
                    out.push(path);
                }
            }
        }
        for (p, e) in &self.entries {
            if e.kind != EntryKind::Dir && !seen.contains(p) {
                out.push(p.clone());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The git object id of the blob at `path` (a file or a link), as
    /// lowercase hex; `None` for a directory or a missing path.
    pub fn blob_id(&self, path: &RepoPath) -> Option<String> {
        self.entries
            .get(path)
            .filter(|e| matches!(e.kind, EntryKind::File | EntryKind::Symlink))
            .map(|e| e.oid.to_string())
    }

    /// Every file, link and submodule path of the tree, unsorted.
    pub fn leaf_paths(&self) -> impl Iterator<Item = &RepoPath> {
        self.entries
            .iter()
            .filter(|(_, e)| e.kind != EntryKind::Dir)
            .map(|(p, _)| p)
    }

    fn with_handle<R>(&self, f: impl FnOnce(&gix::Repository) -> R) -> R {
        let taken = self.handles.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let handle = taken.unwrap_or_else(|| self.repo.to_thread_local());
        let out = f(&handle);
        self.handles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(handle);
        out
    }

    fn entry(&self, path: &RepoPath) -> Result<&GitEntry, SourceError> {
        self.entries
            .get(path)
            .ok_or_else(|| SourceError::NotFound(path.clone()))
    }

    fn blob(&self, path: &RepoPath, oid: ObjectId, limit: u64) -> Result<Vec<u8>, SourceError> {
        let io = |message: String| SourceError::Io {
            path: path.clone(),
            message,
        };
        self.with_handle(|repo| {
            let size = repo
                .find_header(oid)
                .map_err(|e| io(format!("cannot read its blob: {}", one_line(e))))?
                .size();
            if size > limit {
                return Err(SourceError::TooLarge {
                    path: path.clone(),
                    len: size,
                    limit,
                });
            }
            let blob = repo
                .find_blob(oid)
                .map_err(|e| io(format!("cannot read its blob: {}", one_line(e))))?;
            Ok(blob.detach().data)
        })
    }
}

/// True when `bytes` is a Git LFS pointer rather than the file it stands
/// for.
pub fn is_lfs_pointer(bytes: &[u8]) -> bool {
    bytes.len() <= LFS_POINTER_MAX && bytes.starts_with(LFS_POINTER_PREFIX)
}

impl SourceTree for GitTree {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        self.children
            .get(dir)
            .cloned()
            .ok_or_else(|| SourceError::NotFound(dir.clone()))
    }

    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        if path.is_root() {
            return Ok(Stat {
                kind: EntryKind::Dir,
                len: 0,
            });
        }
        let e = *self.entry(path)?;
        let len = match e.kind {
            EntryKind::File | EntryKind::Symlink => self.with_handle(|repo| {
                repo.find_header(e.oid)
                    .map(|h| h.size())
                    .map_err(|err| SourceError::Io {
                        path: path.clone(),
                        message: format!("cannot read its blob: {}", one_line(err)),
                    })
            })?,
            _ => 0,
        };
        Ok(Stat { kind: e.kind, len })
    }

    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        let e = *self.entry(path)?;
        if e.kind != EntryKind::File {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "not a regular file".into(),
            });
        }
        let data = self.blob(path, e.oid, limit)?;
        if is_lfs_pointer(&data) {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "a Git LFS pointer: the file's content is stored outside the repository and is not analysed".into(),
            });
        }
        Ok(data)
    }

    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        let e = *self.entry(path)?;
        if e.kind != EntryKind::Symlink {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "not a symbolic link".into(),
            });
        }
        let data = self.blob(path, e.oid, 4096)?;
        Ok(String::from_utf8_lossy(&data).replace('\\', "/"))
    }

    /// The repository's work tree, where this commit is checked out: a
    /// link with an absolute target inside it counts as inside, as it does
    /// for the working tree.
    fn absolute_root(&self) -> Option<&Path> {
        self.work_tree.as_deref()
    }

    fn has_git_marker(&self) -> bool {
        true
    }

    fn problems(&self) -> Vec<WalkProblem> {
        self.problems.clone()
    }

    fn is_commit(&self) -> bool {
        true
    }
}

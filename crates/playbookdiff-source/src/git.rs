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

use crate::{DirEntry, EntryKind, IoKind, SourceError, SourceTree, Stat, WalkCause, WalkProblem};
use gix::ObjectId;
use playbookdiff_model::RepoPath;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
        /// Why, and what to pass instead, in the project's words (never
        /// gix's): e.g. "the history has only 2 commits before HEAD".
        reason: String,
    },
    /// The two commits share no history (no merge base for `A...B`).
    NoMergeBase {
        /// The range as given.
        range: String,
    },
    /// An object could not be read.
    Read(String),
    /// The root holds a `.git` entry that git cannot open (a worktree or
    /// submodule whose repository moved, a damaged `.git`): why, in one
    /// line.
    Unopenable(String),
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::NotARepository => f.write_str(
                "it is not a git repository (no .git found at its root)",
            ),
            GitError::UnknownRevision { rev, reason } => {
                write!(f, "revision '{}' names no commit: {reason}", rev.escape_debug())
            }
            GitError::NoMergeBase { range } => write!(
                f,
                "'{}' has no merge base: the two commits share no history; use A..B to compare them directly",
                range.escape_debug()
            ),
            GitError::Unopenable(m) => write!(
                f,
                "it holds a .git that git cannot open ({m}); `git status` there says what is wrong"
            ),
            GitError::Read(m) => write!(
                f,
                "cannot read the repository's objects ({m}); the clone may be shallow or damaged (`git fsck` checks it)"
            ),
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
    trees: TreeCache,
}

impl GitRepository {
    /// Opens the repository whose root (work tree or bare directory) is
    /// `root`. No parent directory is searched.
    ///
    /// Errors: [`GitError::NotARepository`] when `root` holds no repository;
    /// [`GitError::Unopenable`] when it holds a `.git` that cannot be opened.
    pub fn open(root: &Path) -> Result<Self, GitError> {
        let options = gix::open::Options::isolated()
            .with(gix::sec::Trust::Reduced)
            .open_path_as_is(false);
        let repo = gix::ThreadSafeRepository::open_opts(root, options).map_err(|e| {
            if std::fs::symlink_metadata(root.join(".git")).is_ok() {
                GitError::Unopenable(one_line(e))
            } else {
                GitError::NotARepository
            }
        })?;
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
        Ok(GitRepository {
            repo,
            work_tree,
            trees: TreeCache::default(),
        })
    }

    /// The short name of the branch HEAD points at (`main`,
    /// `brief/012`), read from the repository's HEAD file with gix; an
    /// unborn branch counts. `Ok(None)` on a detached HEAD.
    ///
    /// Errors: [`GitError::Read`] when HEAD cannot be read.
    pub fn head_branch(&self) -> Result<Option<String>, GitError> {
        let repo = self.repo.to_thread_local();
        let name = repo.head_name().map_err(|e| GitError::Read(one_line(e)))?;
        Ok(name.map(|n| n.shorten().to_string()))
    }

    /// True when the repository has a working tree; false for a bare
    /// repository (`git clone --bare`), which holds only commits.
    pub fn has_work_tree(&self) -> bool {
        self.work_tree.is_some()
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
            return Err(unknown(format!(
                "it is empty or starts with '-'; {PASS_A_REVISION}"
            )));
        }
        let repo = self.repo.to_thread_local();
        let Ok(id) = repo.rev_parse_single(rev) else {
            return Err(unknown(why_unresolved(&repo, rev)));
        };
        let object = match id.object() {
            Ok(object) => object,
            // A parent a shallow clone records but does not hold.
            Err(_) if repo.is_shallow().unwrap_or(false) => {
                return Err(unknown(format!(
                    "{rev} is not in this clone, whose history is cut short {SHALLOW_FIX}"
                )))
            }
            Err(e) => return Err(GitError::Read(one_line(e))),
        };
        let commit = object.peel_to_commit().map_err(|_| {
            unknown(format!(
                "it names a file or tree, not a commit; {PASS_A_REVISION}"
            ))
        })?;
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

    /// The tree of `commit`. Its tree objects are read on demand, each
    /// once for every tree opened from this repository; blobs are read on
    /// demand.
    ///
    /// Errors: [`GitError::Read`] when the commit's root tree is missing or
    /// corrupt (a subtree that cannot be read is the error of the call
    /// that reaches it).
    pub fn tree(&self, commit: &CommitId) -> Result<GitTree, GitError> {
        GitTree::new(self, commit)
    }

    /// The commit that last changed 1-based `line` of the file at
    /// repository-relative `path` as it is in `commit` (what `git blame`
    /// names for the line), from gix's blame (`gix-blame`: Myers diffs
    /// along the history, no rename tracking).
    ///
    /// Errors: [`GitError::Read`] when the file is not in `commit`, has
    /// fewer lines, or the history cannot be walked.
    pub fn blame_line(
        &self,
        commit: &CommitId,
        path: &str,
        line: u32,
    ) -> Result<CommitId, GitError> {
        let repo = self.repo.to_thread_local();
        let ranges = gix::blame::BlameRanges::from_one_based_inclusive_range(line..=line)
            .map_err(|e| GitError::Read(one_line(e)))?;
        let options = gix::repository::blame_file::Options {
            diff_algorithm: Some(gix::diff::blob::Algorithm::Myers),
            ranges,
            since: None,
            rewrites: None,
        };
        let outcome = repo
            .blame_file(path.into(), commit.0, options)
            .map_err(|e| GitError::Read(format!("{path}: {}", one_line(e))))?;
        let zero_based = line - 1;
        outcome
            .entries
            .iter()
            .find(|e| {
                (e.start_in_blamed_file..e.start_in_blamed_file + e.len.get()).contains(&zero_based)
            })
            .map(|e| CommitId(e.commit_id))
            .ok_or_else(|| GitError::Read(format!("{path} has no line {line} in {commit}")))
    }

    /// The raw commit object `commit`: the bytes git hashes, without the
    /// `commit <size>\0` prefix (headers, signature and message, as
    /// signed).
    ///
    /// Errors: [`GitError::Read`] when the object cannot be read.
    pub fn commit_object(&self, commit: &CommitId) -> Result<Vec<u8>, GitError> {
        let repo = self.repo.to_thread_local();
        let object = repo
            .find_object(commit.0)
            .map_err(|e| GitError::Read(one_line(e)))?;
        Ok(object.detach().data)
    }
}

/// How to get history a shallow clone lacks (CI checkouts are shallow by
/// default).
const SHALLOW_FIX: &str =
    "(a shallow clone? `git fetch --unshallow` fetches it; with actions/checkout, `fetch-depth: 0`)";

/// The advice of an [`GitError::UnknownRevision`]: the forms accepted.
const PASS_A_REVISION: &str =
    "pass a commit id, branch or tag (e.g. main, v1.2, HEAD), optionally followed by ~N or ^N; remote refs must be fetched first";

/// One step of ancestry after a revision's name: `~N` (the N-th first
/// parent) or `^N` (the N-th parent; `^0` the commit itself).
enum Step<'a> {
    Tilde(usize, &'a str),
    Caret(usize, &'a str),
}

/// Splits `rev` into its name and its `~N` / `^N` steps, as
/// gitrevisions(7) writes them (`HEAD~2^2`, `main^`, `v1~`). `None` when
/// the rest is not only such steps (`^{tree}`, `@{1}`, `:/text`).
fn split_ancestry(rev: &str) -> Option<(&str, Vec<Step<'_>>)> {
    let at = rev.find(['~', '^'])?;
    let (name, mut rest) = rev.split_at(at);
    let mut steps = Vec::new();
    while let Some(op) = rest.chars().next() {
        rest = &rest[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let n = if digits == 0 {
            1
        } else {
            rest[..digits].parse().ok()?
        };
        let text = &rest[..digits];
        rest = &rest[digits..];
        steps.push(match op {
            '~' => Step::Tilde(n, text),
            '^' => Step::Caret(n, text),
            _ => return None,
        });
    }
    Some((name, steps))
}

/// Why `rev` resolves to no commit, in words a user acts on: the name
/// that exists nowhere, or the first `~N` / `^N` step that leaves the
/// history (walked here with the parents git records, so the count is
/// git's: `git rev-list --first-parent --count`). gix's own error names
/// its internals (`delegate.traverse(NthAncestor(99))`), so it is never
/// shown.
fn why_unresolved(repo: &gix::Repository, rev: &str) -> String {
    let Some((name, steps)) = split_ancestry(rev) else {
        return unresolved_name(repo, rev);
    };
    let Ok(mut id) = repo.rev_parse_single(name).map(|id| id.detach()) else {
        return unresolved_name(repo, name);
    };
    let mut here = name.to_string();
    for step in steps {
        let parents = |id: ObjectId| -> Option<Vec<ObjectId>> {
            let commit = repo.find_object(id).ok()?.peel_to_commit().ok()?;
            Some(commit.parent_ids().map(|p| p.detach()).collect())
        };
        match step {
            Step::Tilde(n, text) => {
                for walked in 0..n {
                    let Some(ps) = parents(id) else {
                        return format!("{here}~{walked} is not in this clone, whose history is cut short {SHALLOW_FIX}");
                    };
                    let Some(first) = ps.first() else {
                        // count >= 2 in the last arm.
                        let count = match walked {
                            0 => "no commit".to_string(),
                            1 => "only 1 commit".to_string(),
                            k => format!("only {k} commits"),
                        };
                        return format!(
                            "the history has {count} before {here}; pick a smaller N (`git log --oneline --first-parent {here}` lists them)"
                        );
                    };
                    id = *first;
                }
                here = format!("{here}~{text}");
            }
            Step::Caret(0, _) => here = format!("{here}^0"),
            Step::Caret(n, text) => {
                let Some(ps) = parents(id) else {
                    return format!("the parents of {here} are not in this clone (a shallow clone? `git fetch --unshallow` fetches them)");
                };
                let Some(p) = ps.get(n - 1) else {
                    let has = match ps.len() {
                        0 => "no parent (it is the first commit)".to_string(),
                        1 => "only 1 parent".to_string(),
                        k => format!("only {k} parents"),
                    };
                    return format!("{here} has {has}, so {here}^{text} names nothing");
                };
                id = *p;
                here = format!("{here}^{text}");
            }
        }
    }
    if repo.find_object(id).is_err() {
        // The last parent named is recorded, but its object is not here:
        // the history was cut (a shallow clone, as CI checkouts make).
        return format!("{here} is not in this clone, whose history is cut short {SHALLOW_FIX}");
    }
    format!("it names nothing the analysis can read as a commit; {PASS_A_REVISION}")
}

/// The reason for a name that resolves to nothing: a repository without
/// a commit yet (HEAD on an unborn branch), else a name no ref, tag or
/// commit id has.
fn unresolved_name(repo: &gix::Repository, name: &str) -> String {
    if matches!(name, "HEAD" | "@") && repo.head().is_ok_and(|h| h.is_unborn()) {
        return "the repository has no commit yet; commit first, or run `playbookdiff check` to analyse the working tree".to_string();
    }
    let hex = name.len() >= 4 && name.bytes().all(|b| b.is_ascii_hexdigit());
    if hex {
        format!(
            "no commit id starts with '{}' and no branch or tag has that name; {PASS_A_REVISION}",
            name.escape_debug()
        )
    } else {
        format!(
            "no branch, tag or commit is named '{}'; {PASS_A_REVISION}",
            name.escape_debug()
        )
    }
}

/// One entry of a decoded tree object.
#[derive(Clone, Debug)]
struct GitEntry {
    /// The entry's name; a lossy rendering when `name_use` is `NonUtf8`.
    name: Box<str>,
    kind: EntryKind,
    oid: ObjectId,
    /// The tree entry's mode bits, as git stores them (e.g. 0o100644).
    mode: u32,
    name_use: NameUse,
}

/// Whether an entry's name can be joined into a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum NameUse {
    /// A usable name.
    Usable,
    /// Not valid UTF-8: listed (as a working tree lists it), never opened.
    NonUtf8,
    /// `.`, `..`, empty or holding a separator: no checkout writes it;
    /// reported, not listed.
    Unsafe,
}

/// One tree object decoded: its entries sorted by name (usable ones
/// before others of the same rendered name).
struct GitDir {
    entries: Box<[GitEntry]>,
}

impl GitDir {
    /// The usable entry named `name`.
    fn find(&self, name: &str) -> Option<&GitEntry> {
        let start = self.entries.partition_point(|e| &*e.name < name);
        self.entries[start..]
            .iter()
            .take_while(|e| &*e.name == name)
            .find(|e| e.name_use == NameUse::Usable)
    }

    fn usable(&self) -> impl Iterator<Item = &GitEntry> {
        self.entries
            .iter()
            .filter(|e| e.name_use == NameUse::Usable)
    }
}

/// Decoded tree objects by id, shared by every [`GitTree`] of one
/// [`GitRepository`]: a subtree both commits of a diff hold is decoded
/// once.
type TreeCache = Arc<Mutex<gix::hashtable::HashMap<ObjectId, Arc<GitDir>>>>;

/// One commit's tree as a [`SourceTree`].
///
/// Each tree object is read and decoded on first need (listing a
/// directory, or looking up a path through it) and kept, so a directory no
/// one asks about costs nothing; `read_file` and `read_link` read blobs
/// from the object database, each call on its own handle so threads read
/// in parallel.
pub struct GitTree {
    repo: gix::ThreadSafeRepository,
    handles: Mutex<Vec<gix::Repository>>,
    commit: CommitId,
    root: ObjectId,
    work_tree: Option<PathBuf>,
    trees: TreeCache,
    /// The tree id of each directory looked up so far, by path (hashed
    /// with foldhash: the keys are the repository's own paths, and SipHash
    /// cost a tenth of a `diff`'s instructions here).
    dir_ids: Mutex<HashMap<Box<str>, ObjectId, foldhash::fast::RandomState>>,
    problems: Mutex<Vec<WalkProblem>>,
}

/// The first bytes of a Git LFS pointer file (Git LFS `docs/spec.md`).
const LFS_POINTER_PREFIX: &[u8] = b"version https://git-lfs.github.com/spec/v1";

/// Pointer files are small: the specification caps them at 1024 bytes.
const LFS_POINTER_MAX: usize = 1024;

/// The bytes of delta bases each object handle keeps decoded (git's own
/// `core.deltaBaseCacheLimit` defaults to 96 MiB): tree objects of a
/// packed repository are mostly deltas against each other.
const PACK_CACHE_BYTES: usize = 32 * 1024 * 1024;

/// A path component git may store but no checkout writes (`.`, `..`, an
/// empty name, or one holding a separator): never joined into a path.
fn unsafe_component(name: &str) -> bool {
    name.is_empty() || name == "." || name == ".." || name.contains('/') || name.contains('\\')
}

/// A new object handle with a delta-base cache.
fn handle(repo: &gix::ThreadSafeRepository) -> gix::Repository {
    let mut r = repo.to_thread_local();
    r.objects.set_pack_cache(|| {
        Box::new(gix::odb::pack::cache::lru::MemoryCappedHashmap::new(
            PACK_CACHE_BYTES,
        ))
    });
    r
}

impl GitTree {
    fn new(git: &GitRepository, commit: &CommitId) -> Result<Self, GitError> {
        let repo = handle(&git.repo);
        let root = repo
            .find_object(commit.0)
            .map_err(|e| GitError::Read(one_line(e)))?
            .peel_to_tree()
            .map_err(|e| GitError::Read(one_line(e)))?
            .id;
        let tree = GitTree {
            repo: git.repo.clone(),
            handles: Mutex::new(vec![repo]),
            commit: commit.clone(),
            root,
            work_tree: git.work_tree.clone(),
            trees: git.trees.clone(),
            dir_ids: Mutex::new(HashMap::default()),
            problems: Mutex::new(Vec::new()),
        };
        tree.decode(root).map_err(GitError::Read)?;
        Ok(tree)
    }

    /// The commit this tree belongs to.
    pub fn commit(&self) -> &CommitId {
        &self.commit
    }

    /// Tree object `oid`, decoded once per repository.
    fn decode(&self, oid: ObjectId) -> Result<Arc<GitDir>, String> {
        if let Some(d) = self
            .trees
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&oid)
        {
            return Ok(d.clone());
        }
        let entries = self.with_handle(|repo| -> Result<Vec<GitEntry>, String> {
            let obj = repo.find_object(oid).map_err(one_line)?;
            if obj.kind != gix::object::Kind::Tree {
                return Err(format!("object {oid} is not a tree"));
            }
            let mut out = Vec::new();
            for rec in gix::objs::TreeRefIter::from_bytes(&obj.data, oid.kind()) {
                let rec = rec.map_err(one_line)?;
                let raw: &[u8] = rec.filename.as_ref();
                let (name, name_use) = match std::str::from_utf8(raw) {
                    Ok(n) if !unsafe_component(n) => (n.into(), NameUse::Usable),
                    Ok(n) => (n.into(), NameUse::Unsafe),
                    Err(_) => (String::from_utf8_lossy(raw).into(), NameUse::NonUtf8),
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
                out.push(GitEntry {
                    name,
                    kind,
                    oid: rec.oid.to_owned(),
                    mode: mode.value() as u32,
                    name_use,
                });
            }
            Ok(out)
        })?;
        let mut entries = entries;
        entries.sort_by(|a, b| a.name.cmp(&b.name).then(a.name_use.cmp(&b.name_use)));
        let dir = Arc::new(GitDir {
            entries: entries.into_boxed_slice(),
        });
        self.trees
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(oid, dir.clone());
        Ok(dir)
    }

    /// The tree id of directory `dir` (no link followed on the way),
    /// remembered per directory: a walk that lists a directory after its
    /// parent looks up one name, not the whole path. The memo is keyed by
    /// the path's text and searched by its prefixes, so a lookup builds
    /// no path.
    fn dir_id(&self, dir: &RepoPath) -> Result<ObjectId, SourceError> {
        if dir.is_root() {
            return Ok(self.root);
        }
        let s = dir.as_str();
        let lock = || self.dir_ids.lock().unwrap_or_else(|e| e.into_inner());
        // Where the nearest known directory (or the root) ends in `s`,
        // and its tree id.
        let (mut end, mut oid) = {
            let ids = lock();
            if let Some(id) = ids.get(s) {
                return Ok(*id);
            }
            let mut end = s.len();
            loop {
                match s[..end].rfind('/') {
                    None => break (0, self.root),
                    Some(slash) => {
                        end = slash;
                        if let Some(id) = ids.get(&s[..end]) {
                            break (end, *id);
                        }
                    }
                }
            }
        };
        let mut found: Vec<(usize, ObjectId)> = Vec::new();
        while end < s.len() {
            let start = if end == 0 { 0 } else { end + 1 };
            let next = s[start..].find('/').map_or(s.len(), |i| start + i);
            let tree = self.decode(oid).map_err(|m| SourceError::Io {
                path: dir.clone(),
                message: format!("cannot read its tree: {m}"),
                kind: IoKind::GitObject,
            })?;
            match tree.find(&s[start..next]) {
                Some(e) if e.kind == EntryKind::Dir => oid = e.oid,
                _ => return Err(SourceError::NotFound(dir.clone())),
            }
            found.push((next, oid));
            end = next;
        }
        let mut ids = lock();
        for (end, id) in found {
            ids.insert(s[..end].into(), id);
        }
        Ok(oid)
    }

    /// The decoded tree of directory `dir`.
    fn dir(&self, dir: &RepoPath) -> Result<Arc<GitDir>, SourceError> {
        let oid = self.dir_id(dir)?;
        self.decode(oid).map_err(|m| SourceError::Io {
            path: dir.clone(),
            message: format!("cannot read its tree: {m}"),
            kind: IoKind::GitObject,
        })
    }

    /// The paths of the files, links and submodules that differ between
    /// this tree and `other` (added, removed, or with another blob or
    /// mode), sorted. Both sides of a rename are listed. Directories are
    /// not listed, only what they hold. Like `git diff-tree -r`, a
    /// subtree with the same tree id on both sides is skipped unread, and
    /// no blob is read. A tree object that cannot be read counts as empty.
    pub fn changed_paths(&self, other: &GitTree) -> Vec<RepoPath> {
        let mut out: Vec<RepoPath> = Vec::new();
        let mut stack: Vec<(RepoPath, Option<ObjectId>, Option<ObjectId>)> =
            vec![(RepoPath::root(), Some(self.root), Some(other.root))];
        let empty = || {
            Arc::new(GitDir {
                entries: Box::new([]),
            })
        };
        while let Some((dir, a, b)) = stack.pop() {
            if a == b {
                continue;
            }
            let da = a.and_then(|o| self.decode(o).ok()).unwrap_or_else(empty);
            let db = b.and_then(|o| other.decode(o).ok()).unwrap_or_else(empty);
            let (mut xs, mut ys) = (da.usable().peekable(), db.usable().peekable());
            loop {
                let (x, y) = match (xs.peek(), ys.peek()) {
                    (None, None) => break,
                    (Some(x), Some(y)) => match x.name.cmp(&y.name) {
                        std::cmp::Ordering::Less => (xs.next(), None),
                        std::cmp::Ordering::Greater => (None, ys.next()),
                        std::cmp::Ordering::Equal => (xs.next(), ys.next()),
                    },
                    (Some(_), None) => (xs.next(), None),
                    (None, Some(_)) => (None, ys.next()),
                };
                let name = match (x, y) {
                    (Some(e), _) | (None, Some(e)) => &e.name,
                    (None, None) => break,
                };
                let Some(path) = dir.child(name) else {
                    continue;
                };
                let is_dir = |e: &&GitEntry| e.kind == EntryKind::Dir;
                let leaf = |e: Option<&GitEntry>| e.is_some_and(|e| !is_dir(&e));
                match (x.filter(|_| leaf(x)), y.filter(|_| leaf(y))) {
                    (Some(l), Some(r)) if l.oid == r.oid && l.mode == r.mode => {}
                    (None, None) => {}
                    _ => out.push(path.clone()),
                }
                let (sa, sb) = (
                    x.filter(is_dir).map(|e| e.oid),
                    y.filter(is_dir).map(|e| e.oid),
                );
                if sa.is_some() || sb.is_some() {
                    stack.push((path, sa, sb));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The paths that differ between this commit and `other`, a walked
    /// tree (the working tree for `diff REV`), sorted: entries on one side
    /// only, a different kind, a link with another target, or a file whose
    /// git blob id differs. A file git's index vouches for (`other` built
    /// in git's view of a work tree, the file's `lstat` data as the index
    /// recorded them: [`crate::GitView`]) has the index's blob id and is
    /// not read, as `git status` does. Any other file of the same size is
    /// read and hashed (SHA-1 of `blob <len>\0<bytes>`, as git does for an
    /// unfiltered file); a size mismatch is a change without reading.
    /// Directories are not listed; a file larger than 64 MiB that the
    /// index does not vouch for counts as changed.
    pub fn changed_against(&self, other: &crate::Repo<'_>) -> Vec<RepoPath> {
        const HASH_LIMIT: u64 = 64 * 1024 * 1024;
        let tree = other.tree();
        let mut out: Vec<RepoPath> = Vec::new();
        let mut seen: std::collections::HashSet<RepoPath> = std::collections::HashSet::new();
        for dir in other.directories() {
            let mine_dir = self.dir(&dir).ok();
            for ent in other.list_dir(&dir) {
                if ent.kind == EntryKind::Dir || ent.non_utf8_name {
                    continue;
                }
                let Some(path) = dir.join(&ent.name) else {
                    continue;
                };
                seen.insert(path.clone());
                let Some(mine) = mine_dir.as_ref().and_then(|d| d.find(&ent.name)) else {
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
                        // git's index vouches for the file: no read.
                        if let Some(staged) = other.unchanged_blob(&path) {
                            if staged == mine.oid {
                                continue;
                            }
                            out.push(path);
                            continue;
                        }
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
        for p in self.leaf_paths() {
            if seen.contains(&p) {
                continue;
            }
            // A submodule that repo mode's walk does not enter either:
            // unchanged when the index records the same commit.
            let recorded = other.recorded_submodule(&p);
            if recorded.is_some() && self.entry(&p).is_ok_and(|e| Some(e.oid) == recorded) {
                continue;
            }
            out.push(p);
        }
        out.sort();
        out.dedup();
        out
    }

    /// The git object id of the blob at `path` (a file or a link), as
    /// lowercase hex; `None` for a directory or a missing path.
    pub fn blob_id(&self, path: &RepoPath) -> Option<String> {
        self.entry(path)
            .ok()
            .filter(|e| matches!(e.kind, EntryKind::File | EntryKind::Symlink))
            .map(|e| e.oid.to_string())
    }

    /// Every file, link and submodule path of the tree (entries with a
    /// usable name, below directories with usable names), in no set order.
    /// Reads every tree object of the commit.
    pub fn leaf_paths(&self) -> Vec<RepoPath> {
        let mut out = Vec::new();
        let mut stack = vec![(RepoPath::root(), self.root)];
        while let Some((dir, oid)) = stack.pop() {
            let Ok(d) = self.decode(oid) else { continue };
            for e in d.usable() {
                let Some(path) = dir.child(&e.name) else {
                    continue;
                };
                if e.kind == EntryKind::Dir {
                    stack.push((path, e.oid));
                } else {
                    out.push(path);
                }
            }
        }
        out
    }

    fn with_handle<R>(&self, f: impl FnOnce(&gix::Repository) -> R) -> R {
        let taken = self.handles.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let handle = taken.unwrap_or_else(|| handle(&self.repo));
        let out = f(&handle);
        self.handles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(handle);
        out
    }

    /// The entry at `path` (not the root), no link followed on the way.
    fn entry(&self, path: &RepoPath) -> Result<GitEntry, SourceError> {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Err(SourceError::NotFound(path.clone()));
        };
        let not_found = || SourceError::NotFound(path.clone());
        let dir = self.dir(&parent).map_err(|e| match e {
            SourceError::NotFound(_) => not_found(),
            other => other,
        })?;
        dir.find(name).cloned().ok_or_else(not_found)
    }

    fn blob(&self, path: &RepoPath, oid: ObjectId, limit: u64) -> Result<Vec<u8>, SourceError> {
        let io = |message: String| SourceError::Io {
            path: path.clone(),
            message,
            kind: IoKind::GitObject,
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

/// The walk problem of a submodule that records `commit`: its files are
/// another repository's, so they are not analysed (a commit's walk and
/// repo mode's walk of a work tree say the same).
pub(crate) fn submodule_message(commit: ObjectId) -> String {
    format!(
        "a submodule (commit {}): its files are in another repository and are not analysed",
        commit.to_hex_with_len(7)
    )
}

/// True when `bytes` is a Git LFS pointer rather than the file it stands
/// for.
pub fn is_lfs_pointer(bytes: &[u8]) -> bool {
    bytes.len() <= LFS_POINTER_MAX && bytes.starts_with(LFS_POINTER_PREFIX)
}

impl SourceTree for GitTree {
    /// The entries of `dir`, sorted by name. A name that is not UTF-8 is
    /// listed lossily as `Other`; a submodule is listed as `Other` and
    /// reported, like a name no checkout writes (which is not listed), in
    /// [`SourceTree::problems`].
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        let d = self.dir(dir)?;
        let mut out = Vec::with_capacity(d.entries.len());
        let mut problems = Vec::new();
        for e in d.entries.iter() {
            match e.name_use {
                NameUse::Usable => {
                    if e.mode & 0o170000 == 0o160000 {
                        if let Some(path) = dir.child(&e.name) {
                            problems.push(WalkProblem {
                                path,
                                message: submodule_message(e.oid),
                                cause: WalkCause::Submodule,
                                entry: None,
                            });
                        }
                    }
                    out.push(DirEntry {
                        // `String::from`, not `to_string`: no formatter per
                        // entry (6% of a `diff` of 100,000 files).
                        name: String::from(&*e.name),
                        kind: e.kind,
                        non_utf8_name: false,
                    });
                }
                // Listed like a working tree lists it; the walk reports it.
                NameUse::NonUtf8 => out.push(DirEntry {
                    name: String::from(&*e.name),
                    kind: EntryKind::Other,
                    non_utf8_name: true,
                }),
                NameUse::Unsafe => problems.push(WalkProblem {
                    path: dir.clone(),
                    message: format!(
                        "the tree holds an entry named `{}`, which no checkout writes, so it is not analysed",
                        e.name.escape_debug()
                    ),
                    cause: WalkCause::UnsafeName,
                    entry: None,
                }),
            }
        }
        if !problems.is_empty() {
            self.problems
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(problems);
        }
        // The subdirectories' tree ids, remembered now: a walk lists them
        // next, and each is then one lookup of its path.
        let prefix = if dir.is_root() { "" } else { dir.as_str() };
        let children: Vec<(Box<str>, ObjectId)> = d
            .usable()
            .filter(|e| e.kind == EntryKind::Dir)
            .map(|e| {
                let mut key = String::with_capacity(prefix.len() + 1 + e.name.len());
                if !prefix.is_empty() {
                    key.push_str(prefix);
                    key.push('/');
                }
                key.push_str(&e.name);
                (key.into_boxed_str(), e.oid)
            })
            .collect();
        if !children.is_empty() {
            self.dir_ids
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(children);
        }
        Ok(out)
    }

    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        if path.is_root() {
            return Ok(Stat {
                kind: EntryKind::Dir,
                len: 0,
            });
        }
        let e = self.entry(path)?;
        let len = match e.kind {
            EntryKind::File | EntryKind::Symlink => self.with_handle(|repo| {
                repo.find_header(e.oid)
                    .map(|h| h.size())
                    .map_err(|err| SourceError::Io {
                        path: path.clone(),
                        message: format!("cannot read its blob: {}", one_line(err)),
                        kind: IoKind::GitObject,
                    })
            })?,
            _ => 0,
        };
        Ok(Stat { kind: e.kind, len })
    }

    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        let e = self.entry(path)?;
        if e.kind != EntryKind::File {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "not a regular file".into(),
                kind: IoKind::WrongKind,
            });
        }
        let data = self.blob(path, e.oid, limit)?;
        if is_lfs_pointer(&data) {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "a Git LFS pointer: the file's content is stored outside the repository and is not analysed".into(),
                kind: IoKind::LfsPointer,
            });
        }
        Ok(data)
    }

    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        let e = self.entry(path)?;
        if e.kind != EntryKind::Symlink {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "not a symbolic link".into(),
                kind: IoKind::WrongKind,
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

    /// The submodules and unusable names met in the directories listed so
    /// far, sorted by path.
    fn problems(&self) -> Vec<WalkProblem> {
        let mut p = self
            .problems
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        p.sort_by(|a, b| a.path.cmp(&b.path).then_with(|| a.message.cmp(&b.message)));
        p.dedup();
        p
    }

    fn is_commit(&self) -> bool {
        true
    }

    /// The tree object id of directory `dir` (no link followed on the
    /// way); `None` when it is no directory of the commit or its tree
    /// cannot be read.
    fn subtree_id(&self, dir: &RepoPath) -> Option<gix::ObjectId> {
        self.dir_id(dir).ok()
    }
}

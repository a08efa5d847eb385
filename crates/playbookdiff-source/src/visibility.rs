//! Which entries of a working tree the analysis sees: the repo-mode file
//! rule (git's view of the tree) and the hook for configured excludes.
//!
//! In repo mode, in a git work tree, the analysis sees what git would
//! commit: the files git tracks (its index) and the untracked files that no
//! ignore rule matches; never an ignored, untracked file. Ignore rules are
//! git's (`gitignore(5)`): every directory's `.gitignore` (a deeper file
//! overrides a shallower one; within a file the last matching line wins;
//! `!` re-includes; nothing below an ignored directory is re-included),
//! then `.git/info/exclude`. The user's `core.excludesFile` is not read:
//! it belongs to the machine, not to the repository, and reading it would
//! make the answer differ between machines. Patterns are matched by the
//! `ignore` crate's gitignore matcher, the one ripgrep uses.
//!
//! Local mode, and a directory that is not a git work tree, see every
//! entry of the working tree, as the agent itself does when it lists
//! files.

use crate::ignore_file::{IgnoreFile, NameFilter};
use ignore::Match;
use playbookdiff_model::RepoPath;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The most bytes of one ignore file (`.gitignore`, `info/exclude`) read;
/// a larger one is skipped whole, as if absent.
pub const MAX_IGNORE_FILE_BYTES: u64 = 1 << 20;

/// Which entries a [`crate::Repo`] shows to the adapters, and how much of
/// the tree it walks up front.
#[derive(Default)]
pub struct RepoOptions {
    /// Git's view, or every entry (the default).
    pub visibility: Visibility,
    /// Gitignore-style patterns, relative to the repository root, for
    /// entries never analysed whether tracked or not (vendored or
    /// generated folders named by a configuration file). Empty by default.
    /// A pattern that does not parse is skipped.
    pub excludes: Vec<String>,
    /// What is walked when the `Repo` is built; the rest is listed only
    /// when asked for.
    pub scope: WalkScope,
}

/// The part of the tree walked when a [`crate::Repo`] is built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum WalkScope {
    /// The whole tree, once (`check --all-dirs`, `diff`).
    #[default]
    Whole,
    /// What one launch directory needs: each directory from the root down
    /// to `cwd` is listed (not walked), the entries of those directories
    /// named in `entry_names` that are directories (`.claude`, `.agents`,
    /// `.codex`) are walked, and so is the subtree of `cwd`. Anything else
    /// (a link's target elsewhere, the way to a target path) is listed
    /// when an adapter first asks for it.
    Launch {
        /// The launch directory.
        cwd: playbookdiff_model::RepoPath,
        /// The entry names the adapters look up in each directory.
        entry_names: Vec<String>,
    },
}

/// Which entries of the working tree are visible.
#[derive(Default)]
pub enum Visibility {
    /// Every entry (local mode; a directory that is not a git work tree).
    #[default]
    WorkingTree,
    /// Tracked entries, and untracked ones that no ignore rule matches.
    Git(Box<GitView>),
    /// Every entry of a tree that holds only committed files (a commit
    /// read from git objects), so git's rule holds already.
    Committed,
}

/// What the repo-mode rule needs from git: the index (tracked paths) and
/// the repository's own exclude file.
///
/// The index is read only when an ignored entry is met (the only entries
/// whose visibility depends on it), and kept as its sorted paths alone:
/// on a 610,000-file index (66 MB on disk) that is about 30 MB instead of
/// the 80 MB of a decoded `gix` index held for the whole run
/// (`docs/performance.md`). Only comparing a commit with the working tree
/// (`diff REV`) decodes the whole index, for its stat data
/// (`GitView::unchanged_blob`).
pub struct GitView {
    index_path: Option<PathBuf>,
    tracked: OnceLock<Result<TrackedPaths, String>>,
    /// The whole decoded index, with each entry's stat data, read on the
    /// first [`GitView::unchanged_blob`] (`diff REV` only).
    entries: OnceLock<Option<gix::index::File>>,
    info_exclude: Option<IgnoreFile>,
    keep_visible: Vec<String>,
    index_problem: Option<String>,
}

/// The paths of a git index, sorted bytewise as the index stores them,
/// in one buffer.
struct TrackedPaths {
    bytes: Vec<u8>,
    /// Where each path starts in `bytes`; a path ends where the next
    /// starts.
    starts: Vec<usize>,
    /// The submodules (gitlink entries, mode `160000`) and the commit each
    /// records, sorted by path.
    gitlinks: Vec<(String, gix::ObjectId)>,
}

impl TrackedPaths {
    /// Reads the index at `path` with gix (the trailing checksum is not
    /// verified: hashing a large index costs more than the walk, and a
    /// damaged index fails to decode anyway), keeps its paths, and drops
    /// the rest.
    fn read(path: &Path) -> Result<TrackedPaths, String> {
        let file = gix::index::File::at(
            path,
            gix::hash::Kind::Sha1,
            true,
            gix::index::decode::Options::default(),
        )
        .map_err(|e| format!("the git index could not be read ({e})"))?;
        let backing = file.path_backing();
        let mut bytes = Vec::with_capacity(backing.len());
        let mut starts = Vec::with_capacity(file.entries().len());
        let mut last: Option<(usize, usize)> = None;
        let mut gitlinks = Vec::new();
        for e in file.entries() {
            let p: &[u8] = e.path_in(backing);
            if e.mode == gix::index::entry::Mode::COMMIT {
                gitlinks.push((String::from_utf8_lossy(p).into_owned(), e.id));
            }
            // Conflict stages repeat a path.
            if last.is_some_and(|(s, l)| &bytes[s..s + l] == p) {
                continue;
            }
            starts.push(bytes.len());
            last = Some((bytes.len(), p.len()));
            bytes.extend_from_slice(p);
        }
        bytes.shrink_to_fit();
        Ok(TrackedPaths {
            bytes,
            starts,
            gitlinks,
        })
    }

    fn get(&self, i: usize) -> &[u8] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.bytes.len());
        &self.bytes[self.starts[i]..end]
    }

    /// The index of the first path not less than `key`.
    fn lower_bound(&self, key: &[u8]) -> usize {
        let (mut lo, mut hi) = (0, self.starts.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.get(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    fn contains(&self, path: &str) -> bool {
        let i = self.lower_bound(path.as_bytes());
        i < self.starts.len() && self.get(i) == path.as_bytes()
    }

    /// True when some path lies below directory `dir`.
    fn has_below(&self, dir: &str) -> bool {
        let prefix = format!("{dir}/");
        let i = self.lower_bound(prefix.as_bytes());
        i < self.starts.len() && self.get(i).starts_with(prefix.as_bytes())
    }
}

impl GitView {
    /// Git's view of the work tree rooted at `root` (the directory holding
    /// `.git`, a directory or a `gitdir: PATH` file as a linked worktree
    /// writes). Reads `.git/index` (a missing index means nothing is
    /// tracked yet) and `.git/info/exclude`. `None` when `root` holds no
    /// `.git`. A `.git` that cannot be followed, or an index that cannot
    /// be read, still gives a view, ignore rules only;
    /// [`GitView::index_problem`] says why.
    ///
    /// `keep_visible` lists paths, relative to any directory
    /// (`CLAUDE.local.md`, `.claude/settings.local.json`), that stay
    /// visible even when ignored: personal files an adapter reports as
    /// unavailable in repo mode rather than silently missing.
    pub fn open(root: &Path, keep_visible: &[&str]) -> Option<GitView> {
        let dot_git = root.join(".git");
        let md = std::fs::symlink_metadata(&dot_git).ok()?;
        let mut view = GitView {
            index_path: None,
            tracked: OnceLock::new(),
            entries: OnceLock::new(),
            info_exclude: None,
            keep_visible: keep_visible.iter().map(|s| s.to_string()).collect(),
            index_problem: None,
        };
        let git_dir = if md.is_dir() {
            Some(dot_git)
        } else {
            match git_dir_from_file(&dot_git, root) {
                Ok(d) => Some(d),
                Err(e) => {
                    view.index_problem = Some(e);
                    None
                }
            }
        };
        let Some(git_dir) = git_dir else {
            return Some(view);
        };
        // A linked worktree keeps its own index; `info/exclude` lives in
        // the common directory.
        let common = std::fs::read_to_string(git_dir.join("commondir"))
            .ok()
            .map(|c| git_dir.join(c.trim()))
            .unwrap_or_else(|| git_dir.clone());
        view.info_exclude = read_small(&common.join("info/exclude"))
            .map(|bytes| IgnoreFile::new(&String::from_utf8_lossy(&bytes)));
        let index_path = git_dir.join("index");
        if std::fs::symlink_metadata(&index_path).is_ok() {
            match index_header_problem(&index_path) {
                None => view.index_path = Some(index_path),
                Some(e) => view.index_problem = Some(e),
            }
        }
        Some(view)
    }

    /// Why tracked files are not known, when they are not: the analysis
    /// then follows the ignore rules alone, so a tracked file that an
    /// ignore rule matches is not seen. An index whose header is not
    /// git's is known when the view is opened; one that fails to decode,
    /// once it has been read (when an ignored entry was met: before that,
    /// no answer depended on it).
    pub fn index_problem(&self) -> Option<&str> {
        self.index_problem
            .as_deref()
            .or_else(|| match self.tracked.get() {
                Some(Err(e)) => Some(e.as_str()),
                _ => None,
            })
    }

    /// The tracked paths, the index read on first call.
    fn tracked(&self) -> Option<&TrackedPaths> {
        let path = self.index_path.as_ref()?;
        self.tracked
            .get_or_init(|| TrackedPaths::read(path))
            .as_ref()
            .ok()
    }

    /// The blob id the index records for the file at `path`
    /// (repository-relative) when git's stat rule says the working tree's
    /// file, at `abs`, is unchanged since it was staged, so its content
    /// need not be read: an unconflicted entry of a regular file (not
    /// assume-valid, skip-worktree or intent-to-add) whose recorded
    /// `lstat` data (mtime, ctime, size, inode, uid, gid) match the file's
    /// now, and that is not racily clean (modified in the same second as
    /// the index was written). `None` otherwise: the caller then reads and
    /// hashes the file. git's defaults (`core.trustctime` true,
    /// `core.checkStat` default) as `gix::index::entry::stat::Options`
    /// gives them; git's `ie_match_stat` and `is_racy_timestamp` in
    /// `read-cache.c`.
    pub(crate) fn unchanged_blob(&self, path: &str, abs: &Path) -> Option<gix::ObjectId> {
        use gix::index::entry::{stat, Flags, Mode, Stage, Stat};
        let index = self
            .entries
            .get_or_init(|| {
                gix::index::File::at(
                    self.index_path.as_ref()?,
                    gix::hash::Kind::Sha1,
                    true,
                    gix::index::decode::Options::default(),
                )
                .ok()
            })
            .as_ref()?;
        let e = index.entry_by_path(path.as_bytes().into())?;
        if e.stage() != Stage::Unconflicted
            || e.flags
                .intersects(Flags::ASSUME_VALID | Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD)
            || !matches!(e.mode, Mode::FILE | Mode::FILE_EXECUTABLE)
        {
            return None;
        }
        let md = gix::index::fs::Metadata::from_path_no_follow(abs).ok()?;
        if !md.is_file() {
            return None;
        }
        let now = Stat::from_fs(&md).ok()?;
        let options = stat::Options::default();
        (e.stat.matches(&now, options) && !e.stat.is_racy(index.timestamp(), options))
            .then_some(e.id)
    }

    /// The submodule holding `path` (a path of the work tree): `path` itself
    /// or the closest of its ancestors that the index records as a gitlink,
    /// else `None`. Its files are another repository's, which this view
    /// does not walk. Reads the index on first need.
    pub fn submodule_holding(&self, path: &RepoPath) -> Option<RepoPath> {
        path.ancestors_root_first()
            .into_iter()
            .rev()
            .filter(|d| !d.is_root())
            .find(|d| self.gitlink(d.as_str()).is_some())
    }

    /// The commit the index records for a submodule at `path` (a gitlink
    /// entry), else `None`. Reads the index on first need.
    pub(crate) fn gitlink(&self, path: &str) -> Option<gix::ObjectId> {
        let links = &self.tracked()?.gitlinks;
        links
            .binary_search_by(|(p, _)| p.as_str().cmp(path))
            .ok()
            .map(|i| links[i].1)
    }

    fn tracked_file(&self, path: &str) -> bool {
        self.tracked().is_some_and(|t| t.contains(path))
    }

    fn tracked_below(&self, path: &str) -> bool {
        self.tracked()
            .is_some_and(|t| t.has_below(path) || t.contains(path))
    }

    fn keeps(&self, path: &str) -> bool {
        self.keep_visible.iter().any(|k| {
            path == k
                || path
                    .strip_suffix(k.as_str())
                    .is_some_and(|rest| rest.ends_with('/'))
        })
    }
}

fn git_dir_from_file(dot_git: &Path, root: &Path) -> Result<PathBuf, String> {
    let text = read_small(dot_git)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .ok_or_else(|| "the `.git` file could not be read".to_string())?;
    let rel = text
        .lines()
        .find_map(|l| l.strip_prefix("gitdir:"))
        .map(str::trim)
        .ok_or_else(|| "the `.git` file names no `gitdir:`".to_string())?;
    let dir = root.join(rel);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err("the git directory named by the `.git` file does not exist".to_string())
    }
}

/// What is wrong with the header of the index at `path` (git's
/// `Documentation/gitformat-index.txt`: the signature `DIRC`, then a
/// version from 2 to 4), if anything; the first 12 bytes are read.
fn index_header_problem(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 12];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    match read {
        Err(e) => Some(format!("the git index could not be read ({e})")),
        Ok(()) if &head[..4] != b"DIRC" => {
            Some("the git index could not be read (it does not start with git's signature)".into())
        }
        Ok(()) => {
            let version = u32::from_be_bytes([head[4], head[5], head[6], head[7]]);
            (!(2..=4).contains(&version)).then(|| {
                format!("the git index could not be read (version {version}; git writes 2 to 4)")
            })
        }
    }
}

fn read_small(path: &Path) -> Option<Vec<u8>> {
    let md = std::fs::metadata(path).ok()?;
    if !md.is_file() || md.len() > MAX_IGNORE_FILE_BYTES {
        return None;
    }
    std::fs::read(path).ok()
}

/// The ignore files in effect in one directory: its own `.gitignore` and
/// those of its ancestors, deepest first.
pub(crate) struct IgnoreLevel {
    /// The directory's path length in bytes plus one (for the `/`), 0 for
    /// the root: the entry path's suffix from here is what the patterns
    /// see.
    strip: usize,
    patterns: IgnoreFile,
    /// The names any file of the chain may match, for files and for
    /// directories: an entry whose name none may match is decided without
    /// asking a matcher.
    chain_files: NameFilter,
    chain_dirs: NameFilter,
    parent: Option<Arc<IgnoreLevel>>,
}

impl IgnoreLevel {
    pub(crate) fn new(
        dir: &playbookdiff_model::RepoPath,
        text: &str,
        parent: Option<Arc<IgnoreLevel>>,
    ) -> Self {
        let patterns = IgnoreFile::new(text);
        let chain = |is_dir: bool| match &parent {
            Some(p) => patterns.filter(is_dir).union(p.chain(is_dir)),
            None => patterns.filter(is_dir).clone(),
        };
        IgnoreLevel {
            strip: if dir.is_root() {
                0
            } else {
                dir.as_str().len() + 1
            },
            chain_files: chain(false),
            chain_dirs: chain(true),
            patterns,
            parent,
        }
    }

    /// The names some ignore file of the chain may match.
    fn chain(&self, is_dir: bool) -> &NameFilter {
        if is_dir {
            &self.chain_dirs
        } else {
            &self.chain_files
        }
    }
}

/// The file rule a [`crate::Repo`] applies, for the assumptions its
/// caller states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileRule {
    /// Every entry of the working tree is shown.
    WorkingTree,
    /// Every entry of a commit: what git committed.
    Committed,
    /// Git's view: tracked entries and untracked ones no ignore rule
    /// matches.
    Git {
        /// Why tracked files are not known, when they are not (the ignore
        /// rules alone then decide).
        index_problem: Option<String>,
    },
}

/// The compiled view a walk applies to each listed entry.
pub(crate) struct View {
    git: Option<GitView>,
    committed: bool,
    excludes: Option<IgnoreFile>,
    /// The `excludes` patterns as given, to tell whether two views agree.
    patterns: Vec<String>,
}

/// What the view says of one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Not shown.
    Hidden,
    /// Shown; below it (a directory), the rules go on.
    Visible,
    /// Shown because tracked (or kept visible) though ignored; below it,
    /// only tracked entries are shown.
    VisibleIgnored,
}

impl View {
    pub(crate) fn new(options: RepoOptions) -> (View, WalkScope) {
        let excludes = if options.excludes.is_empty() {
            None
        } else {
            Some(IgnoreFile::new(&options.excludes.join("\n")))
        };
        let patterns = options.excludes;
        let committed = matches!(options.visibility, Visibility::Committed);
        let git = match options.visibility {
            Visibility::Git(g) => Some(*g),
            Visibility::WorkingTree | Visibility::Committed => None,
        };
        (
            View {
                git,
                committed,
                excludes,
                patterns,
            },
            options.scope,
        )
    }

    /// True when this view shows of any subtree what `other` shows of an
    /// identical one at the same path: neither is git's view of a working
    /// tree (which depends on the index and ignore files around it), and
    /// both have the same rule and `excludes`.
    pub(crate) fn shares_with(&self, other: &View) -> bool {
        self.git.is_none()
            && other.git.is_none()
            && self.committed == other.committed
            && self.patterns == other.patterns
    }

    /// [`GitView::unchanged_blob`] when the view is git's.
    pub(crate) fn unchanged_blob(&self, path: &str, abs: &Path) -> Option<gix::ObjectId> {
        self.git.as_ref()?.unchanged_blob(path, abs)
    }

    /// [`GitView::gitlink`] when the view is git's: the commit of the
    /// submodule the index records at `path`.
    pub(crate) fn gitlink(&self, path: &str) -> Option<gix::ObjectId> {
        self.git.as_ref()?.gitlink(path)
    }

    pub(crate) fn rule(&self) -> FileRule {
        match &self.git {
            None if self.committed => FileRule::Committed,
            None => FileRule::WorkingTree,
            Some(g) => FileRule::Git {
                index_problem: g.index_problem().map(str::to_string),
            },
        }
    }

    /// True when an entry's path must be known to classify it.
    pub(crate) fn needs_paths(&self) -> bool {
        self.git.is_some() || self.excludes.is_some()
    }

    /// True when the git rule applies, so each directory's `.gitignore`
    /// must be read.
    pub(crate) fn reads_gitignore(&self) -> bool {
        self.git.is_some()
    }

    /// Classifies the entry at `path` (repository-relative, never the
    /// root; `name` its last component), listed in a directory whose
    /// ignore files are `level` and which is itself ignored when
    /// `dir_ignored`.
    pub(crate) fn classify(
        &self,
        path: &str,
        name: &str,
        is_dir: bool,
        level: Option<&Arc<IgnoreLevel>>,
        dir_ignored: bool,
    ) -> Seen {
        if let Some(ex) = &self.excludes {
            if ex.matched(path, name, is_dir).is_ignore() {
                return Seen::Hidden;
            }
        }
        let Some(git) = &self.git else {
            return Seen::Visible;
        };
        let ignored =
            dir_ignored || ignored_by(level, git.info_exclude.as_ref(), path, name, is_dir);
        if !ignored {
            return Seen::Visible;
        }
        // Kept-visible files first: they need no index.
        if !is_dir && git.keeps(path) {
            return Seen::VisibleIgnored;
        }
        let tracked = if is_dir {
            git.tracked_below(path)
        } else {
            git.tracked_file(path)
        };
        if tracked {
            Seen::VisibleIgnored
        } else {
            Seen::Hidden
        }
    }
}

/// True when the last ignore file of the chain from `level` up, then
/// `info/exclude`, that has a say on `path` (named `name`) ignores it.
/// Decided without a matcher when no file of the chain may match `name`.
fn ignored_by(
    level: Option<&Arc<IgnoreLevel>>,
    info_exclude: Option<&IgnoreFile>,
    path: &str,
    name: &str,
    is_dir: bool,
) -> bool {
    let exclude = |m: &IgnoreFile| m.matched(path, name, is_dir).is_ignore();
    if level.is_some_and(|l| !l.chain(is_dir).may_match(name)) {
        return info_exclude.is_some_and(exclude);
    }
    let mut l = level;
    while let Some(x) = l {
        let rel = path.get(x.strip..).unwrap_or(path);
        match x.patterns.matched(rel, name, is_dir) {
            Match::Ignore(_) => return true,
            Match::Whitelist(_) => return false,
            Match::None => l = x.parent.as_ref(),
        }
    }
    info_exclude.is_some_and(exclude)
}

//! The SourceTree trait and its working-tree implementation.

use playbookdiff_model::RepoPath;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The kind of a directory entry, without following symbolic links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (not followed).
    Symlink,
    /// Anything else (socket, device, FIFO): never read.
    Other,
}

/// One entry of a directory listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's file name.
    pub name: String,
    /// Its kind, links not followed.
    pub kind: EntryKind,
    /// True when the name on disk is not valid UTF-8: `name` is then a
    /// lossy rendering (U+FFFD for invalid bytes), `kind` is `Other`, and
    /// the entry is never opened.
    pub non_utf8_name: bool,
}

/// What `stat` knows of an entry, links not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    /// The kind.
    pub kind: EntryKind,
    /// Size in bytes (of the link itself for a symbolic link).
    pub len: u64,
}

/// Why a tree operation failed. Messages name repository-relative paths
/// only, never the analyser's absolute paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// No such entry.
    NotFound(RepoPath),
    /// The file is larger than the limit given to `read_file`, in bytes.
    TooLarge {
        /// The file.
        path: RepoPath,
        /// Its size in bytes.
        len: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The entry exists but could not be read.
    Io {
        /// The entry.
        path: RepoPath,
        /// The operating system's words.
        message: String,
        /// Why, which decides the advice a diagnostic gives.
        kind: IoKind,
    },
}

/// Why an entry that exists could not be read: each cause has its own
/// remedy (permissions, a regular file, `git lfs pull`, `git fsck`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoKind {
    /// The operating system refused access (`PermissionDenied`).
    Denied,
    /// A regular file was expected and the entry is something else (a
    /// directory, a FIFO, a device, a submodule), or a link was expected
    /// and the entry is not one.
    WrongKind,
    /// A Git LFS pointer: the content is stored outside the repository.
    LfsPointer,
    /// A git object (tree or blob) of the revision could not be read.
    GitObject,
    /// Symbolic links loop (or chain more links than the system follows):
    /// `ELOOP`.
    Loop,
    /// Any other error of the operating system (a name too long, an I/O
    /// error of the device).
    Other,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::NotFound(p) => write!(f, "{p}: not found"),
            SourceError::TooLarge { path, len, limit } => {
                write!(
                    f,
                    "{path}: {} bytes, over the {}-byte limit",
                    playbookdiff_model::remedy::grouped(*len),
                    playbookdiff_model::remedy::grouped(*limit)
                )
            }
            SourceError::Io { path, message, .. } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for SourceError {}

/// The largest file the default [`SourceTree::read_prefix`] reads whole to
/// keep its start, in bytes (64 MiB): what a tree that cannot read part of
/// a file holds in memory at most for one prefix.
pub const PREFIX_WHOLE_LIMIT: u64 = 64 * 1024 * 1024;

/// Read-only access to a repository's files.
///
/// Paths are repository-relative ([`RepoPath`]); no method follows a
/// symbolic link (resolution is [`crate::Repo`]'s job, so that it can refuse
/// links that leave the repository). Implementations never write.
pub trait SourceTree: Sync {
    /// The entries of directory `dir`, sorted by name. The `.git` directory
    /// is never listed.
    ///
    /// Errors: `NotFound` when `dir` is not a directory; `Io` otherwise.
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError>;

    /// The kind and size of `path`, links not followed.
    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError>;

    /// The bytes of regular file `path`. Refuses files over `limit` bytes
    /// with `TooLarge` without reading them.
    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError>;

    /// The first `n` bytes of regular file `path` (all of it when it is
    /// shorter) and the file's size in bytes: for a caller that needs only
    /// the start of a file, whatever its size (Codex sends the first
    /// `project_doc_max_bytes` of an `AGENTS.md` however large it is).
    ///
    /// Errors as [`SourceTree::read_file`]. A working tree reads no more
    /// than `n` bytes. The default, for a tree that can only read a file
    /// whole (a git blob is decoded whole), reads it within
    /// [`PREFIX_WHOLE_LIMIT`] bytes (`TooLarge` over it, unread) and keeps
    /// the first `n`.
    fn read_prefix(&self, path: &RepoPath, n: u64) -> Result<(Vec<u8>, u64), SourceError> {
        let mut bytes = self.read_file(path, PREFIX_WHOLE_LIMIT.max(n))?;
        let len = bytes.len() as u64;
        bytes.truncate(usize::try_from(n).unwrap_or(usize::MAX));
        Ok((bytes, len))
    }

    /// The target of symbolic link `path`, as stored (POSIX separators).
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError>;

    /// The absolute location of the repository root on this machine, when
    /// it has one (a working tree does; a git revision does not). Used only
    /// to evaluate settings written as absolute paths.
    fn absolute_root(&self) -> Option<&Path> {
        None
    }

    /// True when the repository root itself holds a `.git` entry.
    fn has_git_marker(&self) -> bool {
        false
    }

    /// True when the tree holds only committed files (a commit read from
    /// git objects), so git's rule of what repo mode sees holds already and
    /// the working tree's index and ignore files do not apply.
    fn is_commit(&self) -> bool {
        false
    }

    /// Entries the tree holds but cannot show (a git submodule, a name no
    /// checkout writes), reported by the walk like unreadable directories.
    /// Empty by default.
    fn problems(&self) -> Vec<crate::WalkProblem> {
        Vec::new()
    }

    /// An id of the whole content of directory `dir` (every entry below
    /// it, names, kinds, modes and bytes), when the tree knows one without
    /// reading the subtree: the git tree object id of a commit's
    /// directory. Two trees of the same repository that give the same id
    /// for the same directory hold identical subtrees there, so a walk may
    /// share their listings ([`crate::Repo::sharing`]). `None` (the
    /// default, and for a working tree) when unknown or unreadable.
    fn subtree_id(&self, dir: &RepoPath) -> Option<gix::ObjectId> {
        let _ = dir;
        None
    }
}

/// A boxed tree is a tree, so a caller can hold whichever one it opened.
impl<T: SourceTree + ?Sized> SourceTree for Box<T> {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        (**self).list_dir(dir)
    }
    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        (**self).stat(path)
    }
    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        (**self).read_file(path, limit)
    }
    fn read_prefix(&self, path: &RepoPath, n: u64) -> Result<(Vec<u8>, u64), SourceError> {
        (**self).read_prefix(path, n)
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        (**self).read_link(path)
    }
    fn absolute_root(&self) -> Option<&Path> {
        (**self).absolute_root()
    }
    fn has_git_marker(&self) -> bool {
        (**self).has_git_marker()
    }
    fn problems(&self) -> Vec<crate::WalkProblem> {
        (**self).problems()
    }
    fn is_commit(&self) -> bool {
        (**self).is_commit()
    }
    fn subtree_id(&self, dir: &RepoPath) -> Option<gix::ObjectId> {
        (**self).subtree_id(dir)
    }
}

/// A repository checked out on disk.
#[derive(Debug)]
pub struct WorkingTree {
    root: PathBuf,
}

impl WorkingTree {
    /// Opens the directory `root`. Errors when it is not a readable
    /// directory; the message names the path as given.
    pub fn open(root: &Path) -> Result<Self, String> {
        let canonical = std::fs::canonicalize(root)
            .map_err(|e| format!("cannot open repository {}: {e}", root.display()))?;
        if !canonical.is_dir() {
            return Err(format!("repository {} is not a directory", root.display()));
        }
        std::fs::read_dir(&canonical)
            .map_err(|e| format!("cannot read repository {}: {e}", root.display()))?;
        Ok(WorkingTree { root: canonical })
    }

    fn abs(&self, p: &RepoPath) -> PathBuf {
        if p.is_root() {
            self.root.clone()
        } else {
            self.root.join(p.as_str())
        }
    }
}

pub(crate) fn io_err(path: &RepoPath, e: std::io::Error) -> SourceError {
    if e.kind() == std::io::ErrorKind::NotFound {
        SourceError::NotFound(path.clone())
    } else {
        // Strip any absolute path the OS message may carry.
        let message = e.kind().to_string();
        SourceError::Io {
            path: path.clone(),
            message: if message.is_empty() {
                e.to_string()
            } else {
                message
            },
            kind: if e.kind() == std::io::ErrorKind::PermissionDenied {
                IoKind::Denied
            } else if is_loop(&e) {
                IoKind::Loop
            } else {
                IoKind::Other
            },
        }
    }
}

/// `ELOOP` of the operating system (`<errno.h>`: 40 on Linux, 62 on the
/// BSDs and macOS); `std::io::ErrorKind::FilesystemLoop` is not stable.
const ELOOP: i32 = if cfg!(target_os = "linux") { 40 } else { 62 };

/// True when `e` says symbolic links loop (`ELOOP`).
pub(crate) fn is_loop(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(ELOOP)
}

/// The metadata of `abs` (repository path `path`) when it is a regular
/// file, not following a link. Errors: `Io` (`WrongKind`) with
/// `link_message` for a symbolic link, "not a regular file" for anything
/// else; `Io` when it cannot be read.
fn regular_metadata(
    abs: &Path,
    path: &RepoPath,
    link_message: &str,
) -> Result<std::fs::Metadata, SourceError> {
    let md = std::fs::symlink_metadata(abs).map_err(|e| io_err(path, e))?;
    if md.file_type().is_file() {
        return Ok(md);
    }
    Err(SourceError::Io {
        path: path.clone(),
        message: if md.file_type().is_symlink() {
            link_message.into()
        } else {
            "not a regular file".into()
        },
        kind: IoKind::WrongKind,
    })
}

/// The bytes of the regular file at `abs` (named `path` in errors), at
/// most `limit` bytes. Errors: `NotFound`; `TooLarge` over the limit (the
/// file is not read, or is read no further than `limit + 1` bytes when it
/// grew meanwhile); `Io` of kind `WrongKind` with `link_message` for a
/// symbolic link and "not a regular file" for anything else that is not a
/// regular file (never opened).
pub(crate) fn read_regular(
    abs: &Path,
    path: &RepoPath,
    limit: u64,
    link_message: &str,
) -> Result<Vec<u8>, SourceError> {
    let md = regular_metadata(abs, path, link_message)?;
    if md.len() > limit {
        return Err(SourceError::TooLarge {
            path: path.clone(),
            len: md.len(),
            limit,
        });
    }
    let f = std::fs::File::open(abs).map_err(|e| io_err(path, e))?;
    let mut buf = Vec::with_capacity(md.len() as usize);
    // Read at most limit+1 bytes even if the file grew meanwhile.
    f.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| io_err(path, e))?;
    if buf.len() as u64 > limit {
        return Err(SourceError::TooLarge {
            path: path.clone(),
            len: buf.len() as u64,
            limit,
        });
    }
    Ok(buf)
}

/// The first `n` bytes of the regular file at `abs` (named `path` in
/// errors) and its size in bytes, reading no more than `n` bytes. Errors
/// as [`read_regular`], without `TooLarge`.
pub(crate) fn read_regular_prefix(
    abs: &Path,
    path: &RepoPath,
    n: u64,
    link_message: &str,
) -> Result<(Vec<u8>, u64), SourceError> {
    let md = regular_metadata(abs, path, link_message)?;
    let f = std::fs::File::open(abs).map_err(|e| io_err(path, e))?;
    let mut buf = Vec::with_capacity(md.len().min(n) as usize);
    f.take(n)
        .read_to_end(&mut buf)
        .map_err(|e| io_err(path, e))?;
    // A file that shrank meanwhile is as long as what was read.
    let len = md.len().max(buf.len() as u64);
    Ok((buf, len))
}

pub(crate) fn kind_of(ft: std::fs::FileType) -> EntryKind {
    if ft.is_symlink() {
        EntryKind::Symlink
    } else if ft.is_dir() {
        EntryKind::Dir
    } else if ft.is_file() {
        EntryKind::File
    } else {
        EntryKind::Other
    }
}

impl SourceTree for WorkingTree {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        let rd = std::fs::read_dir(self.abs(dir)).map_err(|e| io_err(dir, e))?;
        let mut out = Vec::new();
        for ent in rd {
            let ent = ent.map_err(|e| io_err(dir, e))?;
            let name = match ent.file_name().into_string() {
                Ok(n) => n,
                // Listed with a lossy name as `Other`, never opened: the
                // walk reports it, so nothing below it is silently lost.
                Err(raw) => {
                    out.push(DirEntry {
                        name: raw.to_string_lossy().into_owned(),
                        kind: EntryKind::Other,
                        non_utf8_name: true,
                    });
                    continue;
                }
            };
            if dir.is_root() && name == ".git" {
                continue;
            }
            let kind = ent.file_type().map(kind_of).unwrap_or(EntryKind::Other);
            out.push(DirEntry {
                name,
                kind,
                non_utf8_name: false,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        let md = std::fs::symlink_metadata(self.abs(path)).map_err(|e| io_err(path, e))?;
        Ok(Stat {
            kind: kind_of(md.file_type()),
            len: md.len(),
        })
    }

    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        read_regular(&self.abs(path), path, limit, "not a regular file")
    }

    fn read_prefix(&self, path: &RepoPath, n: u64) -> Result<(Vec<u8>, u64), SourceError> {
        read_regular_prefix(&self.abs(path), path, n, "not a regular file")
    }

    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        let t = std::fs::read_link(self.abs(path)).map_err(|e| io_err(path, e))?;
        Ok(t.to_string_lossy().replace('\\', "/"))
    }

    fn absolute_root(&self) -> Option<&Path> {
        Some(&self.root)
    }

    fn has_git_marker(&self) -> bool {
        std::fs::symlink_metadata(self.root.join(".git")).is_ok()
    }
}

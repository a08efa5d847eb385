//! [`SourceTree`]s a test builds without a disk, or that fail where a
//! disk would.

use playbookdiff_model::RepoPath;
use playbookdiff_source::{DirEntry, EntryKind, SourceError, SourceTree, Stat, WorkingTree};
use std::collections::BTreeMap;
use std::path::Path;

/// A working tree in which listing the directories in `locked` fails, as
/// for a directory without read permission (which a test running as root
/// cannot produce with `chmod`).
pub struct LockedDirs {
    /// The tree on disk.
    pub inner: WorkingTree,
    /// Repository-relative directories whose listing fails.
    pub locked: Vec<&'static str>,
}

impl SourceTree for LockedDirs {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        if self.locked.contains(&dir.as_str()) {
            return Err(SourceError::Io {
                path: dir.clone(),
                message: "permission denied".into(),
                kind: playbookdiff_source::IoKind::Denied,
            });
        }
        self.inner.list_dir(dir)
    }
    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        self.inner.stat(path)
    }
    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        self.inner.read_file(path, limit)
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        self.inner.read_link(path)
    }
    fn absolute_root(&self) -> Option<&Path> {
        self.inner.absolute_root()
    }
}

/// A working tree in which reading the files in `denied` fails, as for a
/// file without read permission (which a test running as root cannot
/// produce with `chmod`).
pub struct DeniedFiles {
    /// The tree on disk.
    pub inner: WorkingTree,
    /// Repository-relative files whose reading fails.
    pub denied: Vec<&'static str>,
}

impl SourceTree for DeniedFiles {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        self.inner.list_dir(dir)
    }
    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        self.inner.stat(path)
    }
    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        if self.denied.contains(&path.as_str()) {
            return Err(SourceError::Io {
                path: path.clone(),
                message: "permission denied".into(),
                kind: playbookdiff_source::IoKind::Denied,
            });
        }
        self.inner.read_file(path, limit)
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        self.inner.read_link(path)
    }
    fn absolute_root(&self) -> Option<&Path> {
        self.inner.absolute_root()
    }
}

/// A repository held in memory (files only; directories are implied by the
/// files' paths), for tests that need thousands of files without writing
/// them to disk. Reads ignore the size limit.
#[derive(Default)]
pub struct MemTree {
    files: BTreeMap<String, Vec<u8>>,
}

impl MemTree {
    /// Adds the file `rel` (repository-relative, `/`-separated) with `text`.
    pub fn file(&mut self, rel: &str, text: &str) {
        self.files.insert(rel.to_string(), text.as_bytes().to_vec());
    }

    fn is_dir(&self, p: &str) -> bool {
        p == "."
            || self
                .files
                .range(format!("{p}/")..)
                .next()
                .is_some_and(|(k, _)| k.starts_with(&format!("{p}/")))
    }
}

impl SourceTree for MemTree {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        if !self.is_dir(dir.as_str()) {
            return Err(SourceError::NotFound(dir.clone()));
        }
        let prefix = if dir.is_root() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut out: Vec<DirEntry> = Vec::new();
        for (k, _) in self.files.range(prefix.clone()..) {
            let Some(rest) = k.strip_prefix(&prefix) else {
                break;
            };
            let (name, kind) = match rest.split_once('/') {
                Some((d, _)) => (d, EntryKind::Dir),
                None => (rest, EntryKind::File),
            };
            if out.last().is_some_and(|e| e.name == name) {
                continue;
            }
            out.push(DirEntry {
                name: name.to_string(),
                kind,
                non_utf8_name: false,
            });
        }
        // Paths sort `a-b/x` before `a/x`; the names, as every tree lists
        // them, `a` before `a-b`.
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }
    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        match self.files.get(path.as_str()) {
            Some(b) => Ok(Stat {
                kind: EntryKind::File,
                len: b.len() as u64,
            }),
            None if self.is_dir(path.as_str()) => Ok(Stat {
                kind: EntryKind::Dir,
                len: 0,
            }),
            None => Err(SourceError::NotFound(path.clone())),
        }
    }
    fn read_file(&self, path: &RepoPath, _limit: u64) -> Result<Vec<u8>, SourceError> {
        self.files
            .get(path.as_str())
            .cloned()
            .ok_or_else(|| SourceError::NotFound(path.clone()))
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        Err(SourceError::NotFound(path.clone()))
    }
}

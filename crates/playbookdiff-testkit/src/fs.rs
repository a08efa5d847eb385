//! Building a repository in a temporary directory, and proving a tree was
//! left as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Writes `bytes` to `root/rel`, creating the directories on the way.
pub fn write(root: &Path, rel: &str, bytes: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
}

/// Creates the directory `root/rel` and its parents.
pub fn mkdir(root: &Path, rel: &str) {
    std::fs::create_dir_all(root.join(rel)).expect("mkdir");
}

/// Creates the symbolic link `root/rel` with target text `target`
/// (relative to the link's directory, or absolute), creating directories.
pub fn link(root: &Path, target: &str, rel: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(target, &p)
        .unwrap_or_else(|e| panic!("link {} -> {target}: {e}", p.display()));
}

/// A FIFO at `root/rel`, made with `mkfifo` (which every Unix has).
pub fn fifo(root: &Path, rel: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    let ok = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

/// One entry of a [`snapshot`]: its kind, its bytes or link target, and
/// its modification time.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file.
    File {
        /// Its content.
        bytes: Vec<u8>,
        /// Its modification time.
        mtime: SystemTime,
    },
    /// A directory.
    Dir {
        /// Its modification time.
        mtime: SystemTime,
    },
    /// A symbolic link (not followed).
    Link {
        /// Its target text.
        target: PathBuf,
        /// Its modification time.
        mtime: SystemTime,
    },
}

/// Every entry below `root` (links not followed) by path relative to
/// `root`: two equal snapshots taken around an analysis prove it wrote,
/// touched and removed nothing.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        let md = std::fs::symlink_metadata(&p).expect("metadata");
        let rel = p.strip_prefix(root).expect("below root").to_path_buf();
        let mtime = md.modified().expect("mtime");
        let e = if md.file_type().is_symlink() {
            Entry::Link {
                target: std::fs::read_link(&p).expect("link target"),
                mtime,
            }
        } else if md.is_dir() {
            for c in std::fs::read_dir(&p).expect("read dir") {
                stack.push(c.expect("entry").path());
            }
            Entry::Dir { mtime }
        } else {
            Entry::File {
                bytes: std::fs::read(&p).expect("read"),
                mtime,
            }
        };
        out.insert(rel, e);
    }
    out
}

//! What the decision asks of the file system, as a trait ([`Fs`]), and
//! the resolution of a path's links on top of it ([`resolve`]).

use std::collections::VecDeque;
use std::path::{Component, Path, PathBuf};

/// What is at a path, without following a link there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Nothing.
    Missing,
    /// A file (or anything that is not a directory or a link).
    File,
    /// A directory.
    Dir,
    /// A symbolic link to this target, as written in the link.
    Link(PathBuf),
    /// Something that cannot be inspected (permission denied).
    Unreadable,
}

/// The file system as the decision sees it: read only, and only the
/// questions the policy needs (never a walk of the tree).
pub trait Fs {
    /// What is at `path` (absolute), links not followed.
    fn entry(&self, path: &Path) -> Entry;

    /// The names in directory `dir` (absolute), for expanding a glob in a
    /// shell command's last path component; empty when unreadable.
    fn names(&self, dir: &Path) -> Vec<String>;

    /// The URL of git remote `name` in the repository of `root`, if
    /// configured.
    fn remote_url(&self, root: &Path, name: &str) -> Option<String>;
}

/// Why a path's links cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// More than 40 links in a row (a loop), as the kernel's `ELOOP`.
    Loop(PathBuf),
    /// A component that cannot be inspected.
    Unreadable(PathBuf),
}

/// The most links followed while resolving one path (Linux's
/// `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// `path` (absolute) with `.` and `..` taken out lexically.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// `path` (absolute) with every link resolved, as the kernel would when
/// writing it: each component in turn, a link's target put in its place
/// (relative targets against the link's directory), `..` applied after
/// the links before it. A missing component ends the lookup: the rest is
/// appended as written (a write would create it).
///
/// # Errors
/// [`LinkError`] on a loop or a component that cannot be inspected.
pub fn resolve(fs: &dyn Fs, path: &Path) -> Result<PathBuf, LinkError> {
    let mut queue: VecDeque<PathBuf> = components(path);
    let mut out = PathBuf::from("/");
    let mut links = 0;
    let mut missing = false;
    while let Some(part) = queue.pop_front() {
        if part.as_os_str() == ".." {
            out.pop();
            continue;
        }
        let next = out.join(&part);
        if missing {
            out = next;
            continue;
        }
        match fs.entry(&next) {
            Entry::Link(target) => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(LinkError::Loop(path.to_path_buf()));
                }
                if target.is_absolute() {
                    out = PathBuf::from("/");
                }
                for (i, c) in components(&target).into_iter().enumerate() {
                    queue.insert(i, c);
                }
            }
            Entry::Unreadable => return Err(LinkError::Unreadable(next)),
            Entry::Missing => {
                missing = true;
                out = next;
            }
            Entry::File | Entry::Dir => out = next,
        }
    }
    Ok(out)
}

/// The parts of `path` that name something (`.` dropped, `..` kept).
fn components(path: &Path) -> VecDeque<PathBuf> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(PathBuf::from(n)),
            Component::ParentDir => Some(PathBuf::from("..")),
            _ => None,
        })
        .collect()
}

/// An in-memory [`Fs`] for tests: files, directories and links by
/// absolute path.
#[derive(Clone, Debug, Default)]
pub struct MemoryFs {
    /// What is at each path; a path not listed is a directory when a
    /// listed path is below it, else missing.
    pub entries: std::collections::BTreeMap<PathBuf, Entry>,
    /// Remote name to URL.
    pub remotes: std::collections::BTreeMap<String, String>,
}

impl MemoryFs {
    /// With a file at `path`.
    pub fn file(mut self, path: &str) -> Self {
        self.entries.insert(PathBuf::from(path), Entry::File);
        self
    }

    /// With a link at `path` to `target`.
    pub fn link(mut self, path: &str, target: &str) -> Self {
        self.entries
            .insert(PathBuf::from(path), Entry::Link(PathBuf::from(target)));
        self
    }

    /// With remote `name` at `url`.
    pub fn remote(mut self, name: &str, url: &str) -> Self {
        self.remotes.insert(name.into(), url.into());
        self
    }
}

impl Fs for MemoryFs {
    fn entry(&self, path: &Path) -> Entry {
        if let Some(e) = self.entries.get(path) {
            return e.clone();
        }
        if path == Path::new("/") || self.entries.keys().any(|k| k.starts_with(path)) {
            return Entry::Dir;
        }
        Entry::Missing
    }

    fn names(&self, dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = self
            .entries
            .keys()
            .filter_map(|k| k.strip_prefix(dir).ok())
            .filter_map(|rest| rest.components().next())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        names.dedup();
        names
    }

    fn remote_url(&self, _root: &Path, name: &str) -> Option<String> {
        self.remotes.get(name).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_resolve_like_the_kernel() {
        let fs = MemoryFs::default()
            .file("/r/CLAUDE.md")
            .link("/r/notes.md", "CLAUDE.md")
            .link("/r/d", "/r/sub/inner")
            .file("/r/sub/inner/x")
            .link("/r/loop", "loop");
        let r = |p: &str| resolve(&fs, Path::new(p));
        assert_eq!(r("/r/notes.md"), Ok(PathBuf::from("/r/CLAUDE.md")));
        assert_eq!(
            r("/r/d/../CLAUDE.md"),
            Ok(PathBuf::from("/r/sub/CLAUDE.md"))
        );
        assert_eq!(r("/r/new/../x"), Ok(PathBuf::from("/r/x")));
        assert!(matches!(r("/r/loop"), Err(LinkError::Loop(_))));
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
    }
}

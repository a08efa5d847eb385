//! Read-only access to the directories above a working tree's root.
//!
//! Claude Code's startup walk reads memory files, rules and `.mcp.json`
//! in every directory from the launch directory up to the filesystem root
//! (fidelity C3, C4: a maintainer's answer in anthropics/claude-code#722,
//! "cwd to /"; anthropics/claude-code#49124). The repository's own tree ([`crate::SourceTree`],
//! [`crate::Repo`]) never names a path above its root; this view does,
//! only when the user asks for it (`--outside-root`, local mode), and only
//! for the ancestors of a [`crate::WorkingTree`]: a commit has none.
//!
//! A place above the root is an [`AncestorPath`]: how many levels above the
//! root (`1` is the root's parent) and a path relative to that ancestor.
//! Its provenance form is a [`RepoPath`] with one leading `..` per level
//! ([`AncestorPath::to_repo_path`]), so messages never name the machine's
//! absolute paths.
//!
//! Bounded like the repository's own reads: files over the caller's limit
//! are refused unread, entries that are not regular files are never
//! opened. `read_file` and `list_dir` refuse a symbolic link and `stat`
//! reports it; [`Ancestors::resolve`] follows links the way Claude Code does
//! (case `claude.c04_above_root_links`), with the system's bound on chained
//! links, and says where they lead: a place the view covers (read then by
//! its real path), the repository, or elsewhere (never read). Nothing here
//! writes.

use crate::tree::{io_err, kind_of, read_regular, DirEntry, EntryKind, IoKind, SourceError, Stat};
use playbookdiff_model::RepoPath;
use std::path::{Path, PathBuf};

/// A path in a directory above the repository root.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AncestorPath {
    /// Levels above the repository root: 1 is its parent.
    pub levels_up: usize,
    /// The path relative to that ancestor (`"."` for the ancestor itself).
    pub rel: RepoPath,
}

impl AncestorPath {
    /// The path `rel` (POSIX, no `..`) of the ancestor `levels_up` levels
    /// above the root. `None` when `levels_up` is 0 or `rel` climbs.
    pub fn new(levels_up: usize, rel: &str) -> Option<Self> {
        if levels_up == 0 {
            return None;
        }
        Some(AncestorPath {
            levels_up,
            rel: RepoPath::new(rel)?,
        })
    }

    /// The place a [`RepoPath::above_root`] path names: its leading `..`
    /// components counted, the rest relative to that ancestor. `None` for
    /// a path inside the repository.
    pub fn from_repo_path(p: &RepoPath) -> Option<Self> {
        if !p.is_above_root() {
            return None;
        }
        let levels_up = p.components().take_while(|c| *c == "..").count();
        let rest: Vec<&str> = p.components().skip(levels_up).collect();
        AncestorPath::new(levels_up, &rest.join("/"))
    }

    /// The entry `name` of this directory (one plain component).
    pub fn child(&self, name: &str) -> Option<Self> {
        Some(AncestorPath {
            levels_up: self.levels_up,
            rel: self.rel.child(name)?,
        })
    }

    /// The path as provenance names it, relative to the repository root:
    /// `../CLAUDE.md` for the parent's `CLAUDE.md`, `../../.mcp.json` two
    /// levels up (see [`RepoPath::above_root`]).
    pub fn to_repo_path(&self) -> RepoPath {
        RepoPath::above_root(self.levels_up, &self.rel)
    }
}

/// The directories above one working tree's root, up to (not including)
/// the filesystem root, nearest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ancestors {
    /// The repository root the view is above (`None`: a view built without
    /// one, which never reaches into a repository).
    root: Option<PathBuf>,
    /// `dirs[i]` is the directory `i + 1` levels above the root.
    dirs: Vec<PathBuf>,
    /// The names of the directories from each ancestor down to the root:
    /// `names[i]` is the name of the directory `i` levels above the root
    /// (`names[0]` is the root's own name).
    names: Vec<String>,
}

impl Ancestors {
    /// The ancestors of the absolute directory `root` (a
    /// [`crate::WorkingTree`]'s `absolute_root`), excluding `/` (Claude Code
    /// stops below it). Empty for `/` itself or a root whose names are not
    /// valid UTF-8 (they could not be matched against `paths` patterns);
    /// such an ancestor and everything above it is left out.
    pub fn of(root: &Path) -> Self {
        let mut dirs = Vec::new();
        let mut names = Vec::new();
        let mut here = root;
        while let Some(parent) = here.parent() {
            let Some(name) = here.file_name().and_then(|n| n.to_str()) else {
                break;
            };
            if parent.parent().is_none() {
                // `parent` is the filesystem root: not read.
                names.push(name.to_string());
                break;
            }
            names.push(name.to_string());
            dirs.push(parent.to_path_buf());
            here = parent;
        }
        Ancestors {
            root: Some(root.to_path_buf()),
            dirs,
            names,
        }
    }

    /// Only the nearest `levels` of these ancestors (all of them when there
    /// are fewer): a view bounded below some directory, such as a test
    /// fixture that lays out what lies above its repository.
    pub fn nearest(mut self, levels: usize) -> Self {
        self.dirs.truncate(levels);
        self.names.truncate(levels + 1);
        self
    }

    /// How many ancestors there are (the furthest is `len()` levels up).
    pub fn len(&self) -> usize {
        self.dirs.len()
    }

    /// True when there is none (the root is `/` or just below it).
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// The repository root's path relative to the ancestor `levels_up`
    /// levels above it (`"repo"` for the parent, `"work/repo"` for the
    /// grandparent). `None` when there is no such ancestor.
    pub fn root_from(&self, levels_up: usize) -> Option<String> {
        if levels_up == 0 || levels_up > self.dirs.len() {
            return None;
        }
        let mut parts: Vec<&str> = self.names[..levels_up].iter().map(String::as_str).collect();
        parts.reverse();
        Some(parts.join("/"))
    }

    fn abs(&self, p: &AncestorPath) -> Result<PathBuf, SourceError> {
        let dir = p
            .levels_up
            .checked_sub(1)
            .and_then(|i| self.dirs.get(i))
            .ok_or_else(|| SourceError::NotFound(p.to_repo_path()))?;
        Ok(if p.rel.is_root() {
            dir.clone()
        } else {
            dir.join(p.rel.as_str())
        })
    }

    /// The kind and size of `p`, links not followed. Errors: `NotFound`.
    pub fn stat(&self, p: &AncestorPath) -> Result<Stat, SourceError> {
        let md = std::fs::symlink_metadata(self.abs(p)?).map_err(|e| err(p, e))?;
        Ok(Stat {
            kind: kind_of(md.file_type()),
            len: md.len(),
        })
    }

    /// The entries of directory `p`, sorted by name; entries whose names
    /// are not valid UTF-8 are left out. Errors: `NotFound`, or `Io` when
    /// `p` is a symbolic link or cannot be listed.
    pub fn list_dir(&self, p: &AncestorPath) -> Result<Vec<DirEntry>, SourceError> {
        let abs = self.abs(p)?;
        let md = std::fs::symlink_metadata(&abs).map_err(|e| err(p, e))?;
        if !md.is_dir() {
            return Err(SourceError::Io {
                path: p.to_repo_path(),
                message: "not a directory (links above the repository root are not followed)"
                    .into(),
                kind: IoKind::WrongKind,
            });
        }
        let mut out = Vec::new();
        for ent in std::fs::read_dir(&abs).map_err(|e| err(p, e))? {
            let ent = ent.map_err(|e| err(p, e))?;
            let Ok(name) = ent.file_name().into_string() else {
                continue;
            };
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

    /// The bytes of regular file `p`, at most `limit` bytes. Errors:
    /// `NotFound`; `TooLarge` over the limit (unread); `Io` for a link or
    /// anything that is not a regular file (never opened).
    pub fn read_file(&self, p: &AncestorPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        read_regular(
            &self.abs(p)?,
            &p.to_repo_path(),
            limit,
            "a symbolic link; links above the repository root are not followed",
        )
    }
}

/// Where a path above the repository root leads once symbolic links are
/// followed ([`Ancestors::resolve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A place the view covers, above the root.
    Above {
        /// The real place, every link resolved (the nearest ancestor that
        /// holds it names it).
        real: AncestorPath,
        /// Its kind (never `Symlink`).
        kind: EntryKind,
        /// True when a link was followed on the way.
        via_link: bool,
    },
    /// A link on the way leads into the repository itself.
    Repository {
        /// The real path in the repository.
        real: RepoPath,
        /// Its kind (never `Symlink`).
        kind: EntryKind,
    },
    /// A link on the way leads out of every directory the view covers
    /// (nor into the repository): not followed, and its target is not named
    /// (it is a machine path).
    Elsewhere,
    /// Nothing is there.
    Missing,
    /// The path is a symbolic link that points at nothing.
    Dangling,
    /// Links loop, or cannot be followed (the system's own bound of chained
    /// links, 40 on Linux, applies).
    Loop,
}

impl Ancestors {
    /// Follows the symbolic links of `p` with the system's `realpath` (links
    /// are read, no file is opened) and says where they lead: a place above
    /// the root that the view covers, the repository, or elsewhere. This is
    /// how Claude Code reads a linked `CLAUDE.md`, `.mcp.json` or rules
    /// directory above the root (case `claude.c04_above_root_links`,
    /// 2.1.197 and 2.1.332). Nothing is written.
    pub fn resolve(&self, p: &AncestorPath) -> Reach {
        let Ok(abs) = self.abs(p) else {
            return Reach::Missing;
        };
        self.resolve_abs(&abs, Some(p))
    }

    /// [`Ancestors::resolve`] of an absolute path, such as the target of a
    /// link inside the repository that leaves it. `lexical`, when given, is
    /// the place `abs` names before links are followed (for `via_link`).
    pub fn resolve_abs(&self, abs: &Path, lexical: Option<&AncestorPath>) -> Reach {
        let real = match std::fs::canonicalize(abs) {
            Ok(r) => r,
            Err(e) => {
                let link = std::fs::symlink_metadata(abs).is_ok_and(|m| m.file_type().is_symlink());
                return match (link, e.kind()) {
                    (true, std::io::ErrorKind::NotFound) => Reach::Dangling,
                    (true, _) => Reach::Loop,
                    _ => Reach::Missing,
                };
            }
        };
        let kind = match std::fs::symlink_metadata(&real) {
            Ok(m) => kind_of(m.file_type()),
            Err(_) => return Reach::Missing,
        };
        let canon = |d: &Path| std::fs::canonicalize(d).unwrap_or_else(|_| d.to_path_buf());
        if let Some(root) = &self.root {
            if let Ok(rest) = real.strip_prefix(canon(root)) {
                return match rest
                    .to_str()
                    .and_then(|r| RepoPath::new(if r.is_empty() { "." } else { r }))
                {
                    Some(real) => Reach::Repository { real, kind },
                    None => Reach::Elsewhere,
                };
            }
        }
        for (i, d) in self.dirs.iter().enumerate() {
            let Ok(rest) = real.strip_prefix(canon(d)) else {
                continue;
            };
            let rel = rest.to_str().map(|r| if r.is_empty() { "." } else { r });
            let Some(place) = rel.and_then(|r| AncestorPath::new(i + 1, r)) else {
                return Reach::Elsewhere;
            };
            let via_link = lexical.is_none_or(|l| {
                let base = l.levels_up.checked_sub(1).and_then(|j| self.dirs.get(j));
                let lex = base.map(|b| {
                    let b = canon(b);
                    if l.rel.is_root() {
                        b
                    } else {
                        b.join(l.rel.as_str())
                    }
                });
                lex.as_ref() != Some(&real)
            });
            return Reach::Above {
                real: place,
                kind,
                via_link,
            };
        }
        Reach::Elsewhere
    }
}

fn err(p: &AncestorPath, e: std::io::Error) -> SourceError {
    io_err(&p.to_repo_path(), e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_stop_below_the_filesystem_root() {
        let a = Ancestors::of(Path::new("/home/me/work/repo"));
        assert_eq!(a.len(), 3);
        assert_eq!(a.dirs[0], Path::new("/home/me/work"));
        assert_eq!(a.dirs[2], Path::new("/home"));
        assert_eq!(a.root_from(1).as_deref(), Some("repo"));
        assert_eq!(a.root_from(3).as_deref(), Some("me/work/repo"));
        assert_eq!(a.root_from(4), None);
        assert_eq!(a.root_from(0), None);
        assert!(Ancestors::of(Path::new("/repo")).is_empty());
        assert!(Ancestors::of(Path::new("/")).is_empty());
        let two = Ancestors::of(Path::new("/home/me/work/repo")).nearest(2);
        assert_eq!(two.len(), 2);
        assert_eq!(two.root_from(2).as_deref(), Some("work/repo"));
        assert_eq!(two.root_from(3), None);
        assert_eq!(Ancestors::of(Path::new("/a/b")).nearest(5).len(), 1);
    }

    #[test]
    fn provenance_names_levels_with_dot_dot() {
        let p = AncestorPath::new(2, ".claude/rules/a.md").unwrap();
        assert_eq!(p.to_repo_path().as_str(), "../../.claude/rules/a.md");
        assert_eq!(
            AncestorPath::new(1, ".").unwrap().to_repo_path().as_str(),
            ".."
        );
        assert!(AncestorPath::new(0, "CLAUDE.md").is_none());
        assert!(AncestorPath::new(1, "../x").is_none());
        assert_eq!(AncestorPath::from_repo_path(&p.to_repo_path()), Some(p));
        let dir = AncestorPath::new(3, ".").unwrap();
        assert_eq!(AncestorPath::from_repo_path(&dir.to_repo_path()), Some(dir));
        assert_eq!(
            AncestorPath::from_repo_path(&RepoPath::new("CLAUDE.md").unwrap()),
            None
        );
    }
    #[cfg(unix)]
    #[test]
    fn resolve_follows_links_above_the_root_and_says_where_they_lead() {
        use std::os::unix::fs::symlink;
        let t = tempfile::tempdir().unwrap();
        let outer = std::fs::canonicalize(t.path()).unwrap().join("outer");
        let mid = outer.join("mid");
        let repo = mid.join("repo");
        std::fs::create_dir_all(repo.join("docs")).unwrap();
        std::fs::create_dir_all(outer.join("shared/rules")).unwrap();
        std::fs::write(outer.join("shared/notes.md"), "notes").unwrap();
        std::fs::write(mid.join("plain.md"), "plain").unwrap();
        std::fs::write(repo.join("docs/in.md"), "in").unwrap();
        symlink("../shared/notes.md", mid.join("CLAUDE.md")).unwrap();
        symlink("shared/rules", outer.join("rules")).unwrap();
        symlink("repo/docs/in.md", mid.join("into-repo.md")).unwrap();
        symlink("missing.md", mid.join("dangling.md")).unwrap();
        symlink("loop-b", mid.join("loop-a")).unwrap();
        symlink("loop-a", mid.join("loop-b")).unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(elsewhere.path().join("x.md"), "x").unwrap();
        symlink(elsewhere.path().join("x.md"), mid.join("far.md")).unwrap();
        let a = Ancestors::of(&repo).nearest(2);
        let at = |l: usize, r: &str| AncestorPath::new(l, r).unwrap();
        assert_eq!(
            a.resolve(&at(1, "CLAUDE.md")),
            Reach::Above {
                real: at(2, "shared/notes.md"),
                kind: EntryKind::File,
                via_link: true
            }
        );
        assert_eq!(
            a.resolve(&at(1, "plain.md")),
            Reach::Above {
                real: at(1, "plain.md"),
                kind: EntryKind::File,
                via_link: false
            }
        );
        assert_eq!(
            a.resolve(&at(2, "rules")),
            Reach::Above {
                real: at(2, "shared/rules"),
                kind: EntryKind::Dir,
                via_link: true
            }
        );
        assert_eq!(
            a.resolve(&at(1, "into-repo.md")),
            Reach::Repository {
                real: RepoPath::new("docs/in.md").unwrap(),
                kind: EntryKind::File
            }
        );
        assert_eq!(a.resolve(&at(1, "dangling.md")), Reach::Dangling);
        assert_eq!(a.resolve(&at(1, "loop-a")), Reach::Loop);
        assert_eq!(a.resolve(&at(1, "far.md")), Reach::Elsewhere);
        assert_eq!(a.resolve(&at(1, "absent.md")), Reach::Missing);
        // Beyond the view's bound (`nearest(2)`), a place is elsewhere.
        symlink(t.path().join("outer/../top.md"), mid.join("up.md")).unwrap();
        std::fs::write(t.path().join("top.md"), "top").unwrap();
        assert_eq!(a.resolve(&at(1, "up.md")), Reach::Elsewhere);
    }
}

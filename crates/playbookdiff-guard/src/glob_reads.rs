//! The files a read by glob patterns reaches: Gemini CLI's
//! `read_many_files`, whose `include` entries are glob patterns (or
//! paths), expanded by the agent with the `glob` package against its
//! workspace directory (`nodir`, `dot`, `nocase`; 0.34.0's
//! `tools/read-many-files.js`, 0.61.0's bundle).
//!
//! A pattern is expanded the way `glob` walks: segment by segment from
//! its literal base directory, descending only into directories that a
//! prefix of the pattern can still match, so a pattern reads no more of
//! the tree than it names (`src/**/*.ts` lists `src` and below). What the
//! guard cannot expand exactly is undecidable, and the caller refuses it
//! (fail closed): a glob dialect `globset` does not read the same way
//! (extended globs such as `@(a|b)`, a backslash escape), more than
//! [`ENTRY_LIMIT`] entries to look at, or a directory listed only in part.

use crate::fs::{self, Entry, Fs};
use std::path::{Path, PathBuf};

/// The most directory entries one pattern's expansion looks at: 20,000.
/// A pattern that reaches more is undecidable (name the files instead).
pub const ENTRY_LIMIT: usize = 20_000;

/// The most names [`Fs::names`] gives for one directory (the disk's
/// implementation stops there): a directory that fills it may hold more.
const NAMES_LIMIT: usize = 10_000;

/// Whether `text` holds a character that makes `glob` read it as a
/// pattern (`*`, `?`, `[`, `{`, or an extended glob's `(`).
pub fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '[', '{', '('])
}

/// Why a pattern's matches cannot be known before the agent expands it:
/// a sentence for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undecidable(pub String);

/// One segment of a pattern.
enum Segment {
    /// `**`: any number of directories.
    Any,
    /// One name, matched without regard to case.
    Name(globset::GlobMatcher),
}

/// The paths (absolute, directories left out; below a link to a
/// directory, at the link's target) that
/// `pattern` (absolute, `.` and `..` already taken out) matches on `fs`.
///
/// # Errors
/// [`Undecidable`] for a pattern the guard cannot expand exactly (see
/// the module's documentation).
pub fn expand(fs: &dyn Fs, pattern: &Path) -> Result<Vec<PathBuf>, Undecidable> {
    let text = pattern.to_string_lossy();
    if text.contains('\\') || text.contains('(') {
        return Err(Undecidable(format!(
            "the pattern `{text}` uses an escape or an extended glob the guard does not expand"
        )));
    }
    let parts: Vec<&str> = text.split('/').filter(|p| !p.is_empty()).collect();
    let literal = parts.iter().take_while(|p| !is_pattern(p)).count();
    let base = Path::new("/").join(parts[..literal].join("/"));
    let segments = parts[literal..]
        .iter()
        .map(|p| segment(p))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Undecidable(format!("the pattern `{text}` cannot be read")))?;
    if segments.is_empty() {
        return Ok(vec![base]);
    }
    let mut walk = Walk {
        fs,
        segments: &segments,
        seen: 0,
        found: Vec::new(),
    };
    // The base directory at its target when it is, or goes through, a link.
    let base = fs::resolve(fs, &base).unwrap_or(base);
    walk.dir(&base, vec![0])?;
    Ok(walk.found)
}

fn segment(text: &str) -> Option<Segment> {
    if text == "**" {
        return Some(Segment::Any);
    }
    let glob = globset::GlobBuilder::new(text)
        .case_insensitive(true)
        .literal_separator(true)
        .build()
        .ok()?;
    Some(Segment::Name(glob.compile_matcher()))
}

struct Walk<'a> {
    fs: &'a dyn Fs,
    segments: &'a [Segment],
    seen: usize,
    found: Vec<PathBuf>,
}

impl Walk<'_> {
    /// Looks at directory `dir`, where the pattern has matched up to
    /// each of `states` (indexes of the next segment to match).
    fn dir(&mut self, dir: &Path, states: Vec<usize>) -> Result<(), Undecidable> {
        let states = self.closure(states);
        let names = self.fs.names(dir);
        if names.len() >= NAMES_LIMIT {
            return Err(self.too_many());
        }
        for name in names {
            self.seen += 1;
            if self.seen > ENTRY_LIMIT {
                return Err(self.too_many());
            }
            let next = self.step(&states, &name);
            if next.is_empty() {
                continue;
            }
            let path = dir.join(&name);
            // A directory, or a link to one, is walked (at its target; a
            // loop ends at the entry limit), never read.
            let inside = match self.fs.entry(&path) {
                Entry::Dir => Some(path.clone()),
                Entry::Link(_) => fs::resolve(self.fs, &path)
                    .ok()
                    .filter(|p| self.fs.entry(p) == Entry::Dir),
                _ => None,
            };
            let Some(inside) = inside else {
                if next.contains(&self.segments.len()) {
                    self.found.push(path);
                }
                continue;
            };
            let deeper: Vec<usize> = next
                .into_iter()
                .filter(|&s| s < self.segments.len())
                .collect();
            if !deeper.is_empty() {
                self.dir(&inside, deeper)?;
            }
        }
        Ok(())
    }

    /// `states` with each `**` also skipped (it matches no directory).
    fn closure(&self, mut states: Vec<usize>) -> Vec<usize> {
        let mut i = 0;
        while i < states.len() {
            let s = states[i];
            if matches!(self.segments.get(s), Some(Segment::Any)) && !states.contains(&(s + 1)) {
                states.push(s + 1);
            }
            i += 1;
        }
        states
    }

    /// The states after matching one more name.
    fn step(&self, states: &[usize], name: &str) -> Vec<usize> {
        let mut next = Vec::new();
        for &s in states {
            let to = match self.segments.get(s) {
                Some(Segment::Any) if name != "." && name != ".." => s,
                Some(Segment::Name(m)) if m.is_match(name) => s + 1,
                _ => continue,
            };
            if !next.contains(&to) {
                next.push(to);
            }
        }
        next
    }

    fn too_many(&self) -> Undecidable {
        Undecidable(format!(
            "the pattern reaches more than {ENTRY_LIMIT} entries, or a directory the guard cannot list whole"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::MemoryFs;

    fn tree() -> MemoryFs {
        MemoryFs::default()
            .file("/r/.env")
            .file("/r/README.md")
            .file("/r/src/a.ts")
            .file("/r/src/deep/b.ts")
            .file("/r/src/deep/.ENV.local")
            .file("/r/secrets/token.txt")
            .link("/r/docs", "/r/src")
    }

    fn found(pattern: &str) -> Vec<String> {
        let mut out: Vec<String> = expand(&tree(), Path::new(pattern))
            .unwrap()
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn a_pattern_matches_as_glob_does_with_dot_and_nocase() {
        assert_eq!(found("/r/**/.env*"), ["/r/.env", "/r/src/deep/.ENV.local"]);
        // Through the link `docs` to `src`.
        assert_eq!(found("/r/docs/*/.env.local"), ["/r/src/deep/.ENV.local"]);
        assert_eq!(found("/r/*"), ["/r/.env", "/r/README.md"]);
        assert_eq!(found("/r/src/*.TS"), ["/r/src/a.ts"]);
        assert_eq!(found("/r/{secrets,src}/*.txt"), ["/r/secrets/token.txt"]);
        assert_eq!(found("/r/nowhere/**"), Vec::<String>::new());
    }

    #[test]
    fn what_cannot_be_expanded_exactly_is_undecidable() {
        for p in ["/r/@(.env)", "/r/\\.env*", "/r/+(a|b).ts"] {
            assert!(expand(&tree(), Path::new(p)).is_err(), "{p}");
        }
    }
}

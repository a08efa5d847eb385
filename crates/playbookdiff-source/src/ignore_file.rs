//! One ignore file's patterns (a `.gitignore`, `info/exclude`, the
//! configured excludes), matched by the `ignore` crate's gitignore
//! matcher, behind a filter on the entry's name decided once per file of
//! patterns.
//!
//! Most entries of a tree match no ignore pattern, and most patterns name
//! the last component of what they match literally (`node_modules/`,
//! `CLAUDE.local.md`, `.claude/settings.local.json`) or by its suffix
//! (`*.log`). For those patterns an entry whose name is none of the
//! literal names and ends with none of the suffixes cannot match, so the
//! matcher (a candidate path built and run through a glob set, per entry
//! and per ignore file of the chain) is not asked. A pattern whose last
//! component is any other glob (`foo*`, `[ab].txt`, `dir/**`), or that
//! holds a backslash escape, makes the filter let every name through:
//! the filter never decides a match, it only skips the matcher where the
//! matcher would answer "no match". A pattern ending in `/` matches only
//! directories (`gitignore(5)`), so it never lets a file's name through.
//! The line syntax followed is the `ignore` crate's
//! `GitignoreBuilder::add_line` (release 0.4.35).

use ignore::gitignore::{Gitignore, GitignoreBuilder, Glob};
use ignore::Match;
use std::path::Path;

/// The names a set of patterns can match, for files or for directories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NameFilter {
    /// Some pattern's last component is not a literal or `*SUFFIX`: every
    /// name may match.
    any: bool,
    /// Literal last components, sorted, without duplicates.
    names: Vec<Box<str>>,
    /// Suffixes of `*.EXT` patterns (`EXT` holding no `.`), sorted, without
    /// duplicates, none empty: a name matches when its text after its last
    /// `.` is one.
    exts: Vec<Box<str>>,
    /// The other suffixes of `*SUFFIX` patterns.
    suffixes: Vec<Box<str>>,
    /// The last bytes of the names, extensions and suffixes: a name
    /// ending with another byte matches none of them.
    last_bytes: [bool; 256],
}

impl Default for NameFilter {
    fn default() -> Self {
        NameFilter {
            any: false,
            names: Vec::new(),
            exts: Vec::new(),
            suffixes: Vec::new(),
            last_bytes: [false; 256],
        }
    }
}

/// What the last component of one pattern lets through.
#[derive(Clone, Copy)]
enum LastPart<'a> {
    Name(&'a str),
    Suffix(&'a str),
    Any,
}

impl NameFilter {
    /// True when a pattern of the set may match an entry named `name` (the
    /// last component of its path).
    pub(crate) fn may_match(&self, name: &str) -> bool {
        if self.any {
            return true;
        }
        let bytes = name.as_bytes();
        if !bytes
            .last()
            .is_some_and(|&b| self.last_bytes[usize::from(b)])
        {
            return false;
        }
        if self.names.binary_search_by(|n| (**n).cmp(name)).is_ok() {
            return true;
        }
        if let Some(dot) = bytes.iter().rposition(|&b| b == b'.') {
            let ext = &bytes[dot + 1..];
            if self
                .exts
                .binary_search_by(|e| e.as_bytes().cmp(ext))
                .is_ok()
            {
                return true;
            }
        }
        self.suffixes.iter().any(|s| name.ends_with(&**s))
    }

    fn add(&mut self, part: LastPart<'_>) {
        match part {
            LastPart::Any => self.any = true,
            LastPart::Name(n) => self.names.push(n.into()),
            LastPart::Suffix(s) => match s
                .strip_prefix('.')
                .filter(|e| !e.is_empty() && !e.contains('.'))
            {
                Some(ext) => self.exts.push(ext.into()),
                None => self.suffixes.push(s.into()),
            },
        }
    }

    /// The filter letting through what `self` or `other` lets through.
    pub(crate) fn union(&self, other: &NameFilter) -> NameFilter {
        let join = |a: &[Box<str>], b: &[Box<str>]| {
            let mut v: Vec<Box<str>> = a.iter().chain(b).cloned().collect();
            v.sort();
            v.dedup();
            v
        };
        let mut joined = NameFilter {
            any: self.any || other.any,
            names: join(&self.names, &other.names),
            exts: join(&self.exts, &other.exts),
            suffixes: join(&self.suffixes, &other.suffixes),
            last_bytes: [false; 256],
        };
        joined.finish();
        joined
    }

    fn finish(&mut self) {
        for v in [&mut self.names, &mut self.exts, &mut self.suffixes] {
            v.sort();
            v.dedup();
            for s in v.iter() {
                if let Some(&b) = s.as_bytes().last() {
                    self.last_bytes[usize::from(b)] = true;
                }
            }
        }
    }
}

/// The compiled patterns of one ignore file, with what their last
/// components let through for files and for directories.
pub(crate) struct IgnoreFile {
    matcher: Gitignore,
    files: NameFilter,
    dirs: NameFilter,
}

impl IgnoreFile {
    /// The patterns of `text`, one a line, matched against paths relative
    /// to the file's directory. Lines that do not parse are skipped, as git
    /// skips them.
    pub(crate) fn new(text: &str) -> IgnoreFile {
        let mut b = GitignoreBuilder::new(Path::new(""));
        let (mut files, mut dirs) = (NameFilter::default(), NameFilter::default());
        for line in text.lines() {
            let _ = b.add_line(None, line);
            if let Some((part, only_dir)) = last_part(line) {
                if !only_dir {
                    files.add(part);
                }
                dirs.add(part);
            }
        }
        files.finish();
        dirs.finish();
        IgnoreFile {
            matcher: b.build().unwrap_or_else(|_| Gitignore::empty()),
            files,
            dirs,
        }
    }

    /// The names this file's patterns may match, for a directory or a file.
    pub(crate) fn filter(&self, is_dir: bool) -> &NameFilter {
        if is_dir {
            &self.dirs
        } else {
            &self.files
        }
    }

    /// The last pattern matching `path` (relative to the file's directory;
    /// `name` its last component), as `Gitignore::matched` answers.
    pub(crate) fn matched(&self, path: &str, name: &str, is_dir: bool) -> Match<&Glob> {
        if !self.filter(is_dir).may_match(name) {
            return Match::None;
        }
        self.matcher.matched(path, is_dir)
    }
}

/// What the last component of the pattern on `line` lets through, and
/// whether the pattern matches only directories; `None` for a line that
/// holds no pattern (a comment, blank, a bare `!` or `/`).
fn last_part(line: &str) -> Option<(LastPart<'_>, bool)> {
    if line.starts_with('#') {
        return None;
    }
    if line.contains('\\') {
        // Escapes (`\#`, `\!`, `\ `, `\*`): not followed here.
        return Some((LastPart::Any, false));
    }
    let mut p = line.trim_end_matches(' ');
    p = p.strip_prefix('!').unwrap_or(p);
    p = p.strip_prefix('/').unwrap_or(p);
    if p.is_empty() {
        return None;
    }
    let only_dir = p.ends_with('/');
    let p = p.strip_suffix('/').unwrap_or(p);
    let last = p.rsplit('/').next().unwrap_or(p);
    let glob = |s: &str| s.contains(['*', '?', '[', ']', '{', '}']);
    let part = if last.is_empty() {
        LastPart::Any
    } else if !glob(last) {
        LastPart::Name(last)
    } else {
        match last.strip_prefix('*') {
            Some(s) if !s.is_empty() && !glob(s) => LastPart::Suffix(s),
            _ => LastPart::Any,
        }
    };
    Some((part, only_dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The matcher alone, as the walk asked it before the filter.
    fn plain(text: &str) -> Gitignore {
        let mut b = GitignoreBuilder::new(Path::new(""));
        for line in text.lines() {
            let _ = b.add_line(None, line);
        }
        b.build().unwrap_or_else(|_| Gitignore::empty())
    }

    fn answer<T>(m: Match<T>) -> &'static str {
        match m {
            Match::None => "none",
            Match::Ignore(_) => "ignore",
            Match::Whitelist(_) => "whitelist",
        }
    }

    fn same(text: &str, path: &str, is_dir: bool) -> Result<(), String> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ours = answer(IgnoreFile::new(text).matched(path, name, is_dir));
        let theirs = answer(plain(text).matched(path, is_dir));
        if ours == theirs {
            Ok(())
        } else {
            Err(format!(
                "{text:?} on {path:?} (dir {is_dir}): {ours}, matcher {theirs}"
            ))
        }
    }

    const PATTERNS: &str = "node_modules/\n*.log\n!keep.log\n/build\ndocs/**/*.tmp\ndist\n\
        # a comment\n\\#hash\nfoo/bar/\ntrailing.txt   \nlogs/\n!logs/keep\n*.md\n!CLAUDE.md\n\
        .claude/settings.local.json\n[abc].cfg\n*~\n*.tar.gz\nsrc/**\n!\n/\nout//\n{a,b}.c\n\
        a\\ b\nx?y\n.env*\n*.\n";

    const PATHS: &[&str] = &[
        "node_modules",
        "a/node_modules",
        "app.log",
        "keep.log",
        "build",
        "src/build",
        "docs/a/b/c.tmp",
        "dist",
        "#hash",
        "foo/bar",
        "trailing.txt",
        "logs",
        "logs/keep",
        "notes.md",
        "CLAUDE.md",
        ".claude/settings.local.json",
        "b.cfg",
        "file~",
        "x.tar.gz",
        "src/main.rs",
        "src",
        "out",
        "a.c",
        "a b",
        "xzy",
        ".env.local",
        "main.rs",
        "README",
        ".log",
        "log",
        "x.gz",
        "trailing.",
        ".",
    ];

    /// On a table of patterns git users write (literal names, suffixes,
    /// directory-only, anchored, negated, escaped, classes, alternations,
    /// `**`), the filtered matcher answers what the matcher alone does for
    /// every path, as a file and as a directory.
    #[test]
    fn the_filter_never_changes_an_answer_on_the_table() {
        for path in PATHS {
            for is_dir in [false, true] {
                same(PATTERNS, path, is_dir).unwrap();
                for line in PATTERNS.lines() {
                    same(line, path, is_dir).unwrap();
                }
            }
        }
    }

    /// Literal names and suffixes let only their names through; a
    /// directory-only pattern never lets a file through; a glob in the
    /// last component lets everything through.
    #[test]
    fn the_filter_lets_through_only_what_may_match() {
        let f = IgnoreFile::new("node_modules/\n*.log\nCLAUDE.local.md\n*.tar.gz\n/x/y/z.txt\n");
        assert!(!f.filter(false).may_match("main.rs"));
        assert!(!f.filter(false).may_match("node_modules"));
        assert!(f.filter(true).may_match("node_modules"));
        assert!(f.filter(false).may_match("a.b.log"));
        assert!(f.filter(false).may_match(".log"));
        assert!(f.filter(false).may_match("CLAUDE.local.md"));
        assert!(f.filter(false).may_match("p.tar.gz"));
        assert!(!f.filter(false).may_match("p.gz"));
        assert!(f.filter(false).may_match("z.txt"));
        assert!(!f.filter(true).may_match("src"));
        let any = IgnoreFile::new("*.log\nbuild*\n");
        assert!(any.filter(false).may_match("main.rs"));
        let none = IgnoreFile::new("# only a comment\n\n!\n");
        assert!(!none.filter(true).may_match("anything"));
        let joined = f.filter(false).union(any.filter(false));
        assert!(joined.may_match("main.rs"));
    }

    fn line() -> impl Strategy<Value = String> {
        "[!/]?[a-c.*?\\[\\]{},\\\\/ ]{0,8}/?"
    }

    fn path() -> impl Strategy<Value = String> {
        "[a-c.]{1,4}(/[a-c.]{1,4}){0,2}"
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// On random pattern files and paths, the filtered matcher answers
        /// what the matcher alone does.
        #[test]
        fn the_filter_never_changes_an_answer(
            lines in prop::collection::vec(line(), 1..5),
            path in path(),
            is_dir in any::<bool>(),
        ) {
            let text = lines.join("\n");
            prop_assert_eq!(same(&text, &path, is_dir), Ok(()));
        }
    }
}

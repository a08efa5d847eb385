//! The glob dialect of OpenCode's `instructions` entries: each is scanned
//! from cwd up to the worktree (`globUp` of `packages/opencode/src/
//! filesystem`) with `Glob.scan` (`packages/opencode/src/util/glob.ts`: the
//! npm `glob` package, minimatch dialect, `dot: true`, files only): `*`
//! and `?` stay within one path segment, `**` spans segments, `{a,b}`
//! alternates, `[...]` classes; dot files match. Implemented with
//! `globset` (`literal_separator` on), whose behaviour on these forms is
//! the table in the tests.
//!
//! The npm `glob` package returns the matches of one pattern unsorted, in
//! its walk order (1.18.33: `docs/a.md` before `docs/.hidden.md`); the
//! analysis lists them sorted by path (a known disagreement in
//! `oracle/known-disagreements/opencode.toml`).

use crate::walk::{self, Opts};
use crate::Cx;
use globset::{GlobBuilder, GlobMatcher};
use playbookdiff_model::RepoPath;

/// True when a path segment holds a glob metacharacter.
pub(crate) fn is_magic(segment: &str) -> bool {
    segment.contains(['*', '?', '[', '{', '\\'])
}

/// Compiles `pattern`; the error text when globset refuses it.
pub(crate) fn matcher(pattern: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.kind().to_string())
}

/// The files below `base` that `pattern` (relative to `base`) matches,
/// sorted by path, and whether the walk was cut. The literal leading
/// segments are joined to `base` first, so only the part of the tree the
/// pattern can reach is walked. `Err` for an invalid pattern.
pub(crate) fn scan(
    cx: &Cx<'_, '_>,
    base: &RepoPath,
    pattern: &str,
) -> Result<(Vec<RepoPath>, bool), String> {
    let segments: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let literal = segments.iter().take_while(|s| !is_magic(s)).count();
    if literal == segments.len() {
        // No wildcard: one file, if it is one.
        let Some(p) = base.join(&segments.join("/")) else {
            return Ok((Vec::new(), false));
        };
        return Ok((
            if cx.repo.is_file(&p) {
                vec![p]
            } else {
                Vec::new()
            },
            false,
        ));
    }
    let start = if literal == 0 {
        Some(base.clone())
    } else {
        base.join(&segments[..literal].join("/"))
    };
    let Some(start) = start else {
        return Ok((Vec::new(), false));
    };
    let rest = segments[literal..].join("/");
    let m = matcher(&rest)?;
    let max_depth = if rest.contains("**") {
        None
    } else {
        Some(segments.len() - literal - 1)
    };
    let w = walk::files(
        cx,
        &start,
        Opts {
            dot: true,
            follow: false,
            max_depth,
        },
        &|rel| m.is_match(rel),
    );
    Ok((w.files.into_iter().map(|f| f.path).collect(), w.truncated))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_table() {
        let cases: &[(&str, &str, bool)] = &[
            ("*.md", "a.md", true),
            ("*.md", "docs/a.md", false),
            ("*.md", ".hidden.md", true),
            ("docs/**/*.md", "docs/a.md", true),
            ("docs/**/*.md", "docs/sub/b.md", true),
            ("**/*.md", "x/y/z.md", true),
            ("{docs,x}/*.md", "x/notes.md", true),
            ("docs/[ab].md", "docs/b.md", true),
            ("docs/[!a].md", "docs/a.md", false),
            ("docs/?.md", "docs/ab.md", false),
        ];
        playbookdiff_testkit::assert_table(cases, |p, path| matcher(p).unwrap().is_match(path));
        assert!(matcher("docs/[ab.md").is_err());
    }
}

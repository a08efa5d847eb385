//! The file patterns of a brief (`affectedFiles`, `protectedFiles`).
//!
//! A pattern is a glob relative to the repository root, in the syntax of
//! the guard's `scope` and `protect` globs (globset: `*` stays within one
//! path component, `**` crosses them). A pattern that cannot be read is
//! kept with the reason, so that a caller reports it instead of treating
//! it as matching nothing (issue 31: "never silently treated as
//! nothing").

use globset::{GlobBuilder, GlobMatcher};

/// One pattern as the brief wrote it, and whether it can be used.
#[derive(Debug, Clone)]
pub struct FilePattern {
    /// The pattern as written in the front matter.
    pub raw: String,
    matcher: Result<GlobMatcher, String>,
}

impl FilePattern {
    /// Reads `raw`. Refused, with the reason kept: an empty pattern; a
    /// leading `/` or `~` (an absolute path roots the pattern outside the
    /// repository; patterns are relative to the repository root); a `..`
    /// component (it leaves the repository); a glob that does not compile.
    pub fn new(raw: &str) -> FilePattern {
        FilePattern {
            raw: raw.to_string(),
            matcher: compile(raw),
        }
    }

    /// Why the pattern cannot be used, or `None` when it can.
    pub fn problem(&self) -> Option<&str> {
        self.matcher.as_ref().err().map(String::as_str)
    }

    /// True when the pattern can be used and matches the
    /// repository-relative POSIX `path`. An unreadable pattern matches
    /// nothing: check [`FilePattern::problem`] first.
    pub fn matches(&self, path: &str) -> bool {
        self.matcher.as_ref().is_ok_and(|m| m.is_match(path))
    }

    /// The directory the pattern is confined to: its components before the
    /// first one holding a glob character, without the last component when
    /// the pattern has no glob at all (a file). Empty for the repository
    /// root. `None` for an unreadable pattern.
    pub fn base_directory(&self) -> Option<String> {
        self.matcher.as_ref().ok()?;
        let parts: Vec<&str> = self.raw.trim_end_matches('/').split('/').collect();
        let fixed = parts.iter().position(|p| p.contains(GLOB_CHARS)).unwrap_or(
            if self.raw.ends_with('/') {
                parts.len()
            } else {
                parts.len().saturating_sub(1)
            },
        );
        Some(parts[..fixed].join("/"))
    }
}

const GLOB_CHARS: [char; 4] = ['*', '?', '[', '{'];

fn compile(raw: &str) -> Result<GlobMatcher, String> {
    if raw.trim().is_empty() {
        return Err("an empty pattern names no file".to_string());
    }
    if raw.starts_with('/') || raw.starts_with('~') {
        return Err(format!(
            "`{raw}` is an absolute path, which roots it outside the repository; write it relative to the repository root"
        ));
    }
    if raw.split('/').any(|c| c == "..") {
        return Err(format!(
            "`{raw}` leaves the repository through `..`; write it relative to the repository root"
        ));
    }
    let glob = raw.trim_end_matches('/');
    let glob = if raw.ends_with('/') {
        format!("{glob}/**")
    } else {
        glob.to_string()
    };
    GlobBuilder::new(&glob)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("`{raw}` is not a valid glob ({})", e.kind()))
}

#[cfg(test)]
mod tests {
    use super::FilePattern;

    #[test]
    fn a_table_of_patterns() {
        // (pattern, path, matches)
        let cases = [
            ("src/auth/**", "src/auth/token.rs", true),
            ("src/auth/**", "src/auth/deep/a.rs", true),
            ("src/auth/**", "src/other.rs", false),
            ("src/*.rs", "src/lib.rs", true),
            ("src/*.rs", "src/a/lib.rs", false),
            ("migrations/", "migrations/001.sql", true),
            ("Cargo.toml", "Cargo.toml", true),
            ("Cargo.toml", "crates/x/Cargo.toml", false),
            ("**/Cargo.toml", "crates/x/Cargo.toml", true),
        ];
        for (pattern, path, expected) in cases {
            let p = FilePattern::new(pattern);
            assert_eq!(p.problem(), None, "{pattern}");
            assert_eq!(p.matches(path), expected, "{pattern} against {path}");
        }
    }

    #[test]
    fn unreadable_patterns_say_why_and_match_nothing() {
        for (pattern, says) in [
            ("/etc/passwd", "outside the repository"),
            ("~/notes", "outside the repository"),
            ("../sibling/**", "leaves the repository"),
            ("src/[a", "not a valid glob"),
            ("  ", "empty pattern"),
        ] {
            let p = FilePattern::new(pattern);
            let problem = p.problem().unwrap_or_default();
            assert!(problem.contains(says), "{pattern}: {problem}");
            assert!(!p.matches("etc/passwd") && !p.matches("src/a"));
            assert_eq!(p.base_directory(), None);
        }
    }

    #[test]
    fn base_directories() {
        for (pattern, base) in [
            ("src/auth/**", "src/auth"),
            ("src/*.rs", "src"),
            ("README.md", ""),
            ("docs/guide.md", "docs"),
            ("migrations/", "migrations"),
            ("**/x", ""),
        ] {
            assert_eq!(
                FilePattern::new(pattern).base_directory().as_deref(),
                Some(base)
            );
        }
    }
}

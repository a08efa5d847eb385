//! A set of globs matched the way `globset` matches them (`*` within one
//! directory, `**` across directories, case-sensitive), without compiling
//! a regular expression for a glob the path cannot match.
//!
//! A hook decides one call and exits, so compiling every protected glob
//! into a regular-expression set per call (what [`globset::GlobSet`]
//! does) was most of a decision's cost. Here most globs are plain
//! shapes, matched by comparing strings:
//!
//! | glob | shape | matches `path` when |
//! |---|---|---|
//! | `CLAUDE.md`, `/etc/profile` | [`Shape::Exact`] | `path` is the text |
//! | `**/CLAUDE.md`, `**/.gemini/extensions` | [`Shape::Tail`] | `path` is the text or ends with `/` and the text |
//! | `**/.claude/**` | [`Shape::Under`] | `path` starts with the text and `/`, or holds `/`, the text and `/` |
//! | `.playbookdiff/**` | [`Shape::Prefix`] | `path` starts with the text and `/` |
//! | `**/*.pem` | [`Shape::Suffix`] | `path` ends with the text (no `/` in it) |
//! | `**/id_rsa*` | [`Shape::NamePrefix`] | the last part of `path` starts with the text |
//!
//! Any other glob is compiled with `globset` the first time a path holds
//! its longest literal run (before any `[`, `{` or `\\`), which every
//! path the glob matches holds; a glob that one of the set's [`Shape::Under`]
//! globs covers (`**/.claude/agents/*.md` beside `**/.claude/**`) is not
//! kept at all. The test `crates/playbookdiff-guard/tests/guard/globs.rs`
//! holds that the answers are `globset`'s on a table of paths for every
//! glob the policy uses.

use globset::{GlobBuilder, GlobMatcher};
use std::sync::OnceLock;

/// What a glob is, as far as matching goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A path with no wildcard.
    Exact(String),
    /// `**/` and a path with no wildcard.
    Tail(String),
    /// `**/`, a path with no wildcard, `/**`.
    Under(String),
    /// A path with no wildcard, then `/**`.
    Prefix(String),
    /// `**/*` and a name part with no wildcard and no `/`.
    Suffix(String),
    /// `**/`, a name part with no wildcard and no `/`, then `*`.
    NamePrefix(String),
    /// Any other glob: compiled when first needed; `needle` is text every
    /// path it matches holds (empty: none known).
    Other {
        /// The glob.
        pattern: String,
        /// Its longest literal run before any bracket, brace or escape.
        needle: String,
    },
}

/// The characters that make a glob more than a literal path.
const META: [char; 7] = ['*', '?', '[', ']', '{', '}', '\\'];

fn literal(text: &str) -> bool {
    !text.is_empty() && !text.contains(META)
}

impl Shape {
    /// The shape of `pattern` (a `globset` glob with `literal_separator`).
    pub fn of(pattern: &str) -> Shape {
        let under = pattern.strip_prefix("**/");
        if literal(pattern) {
            return Shape::Exact(pattern.to_string());
        }
        if let Some(dir) = under
            .and_then(|p| p.strip_suffix("/**"))
            .filter(|d| literal(d))
        {
            return Shape::Under(dir.to_string());
        }
        if let Some(tail) = under.filter(|t| literal(t)) {
            return Shape::Tail(tail.to_string());
        }
        if let Some(dir) = pattern.strip_suffix("/**").filter(|d| literal(d)) {
            return Shape::Prefix(dir.to_string());
        }
        let name = under.filter(|n| !n.contains('/'));
        if let Some(end) = name
            .and_then(|n| n.strip_prefix('*'))
            .filter(|e| literal(e))
        {
            return Shape::Suffix(end.to_string());
        }
        if let Some(start) = name
            .and_then(|n| n.strip_suffix('*'))
            .filter(|s| literal(s))
        {
            return Shape::NamePrefix(start.to_string());
        }
        Shape::Other {
            pattern: pattern.to_string(),
            needle: needle(pattern),
        }
    }

    /// Whether a path this shape matches always has a part named `dir`
    /// followed by more (so that [`Shape::Under`] of `dir` covers it).
    fn covered_by(&self, dir: &str) -> bool {
        let text = match self {
            Shape::Exact(t) | Shape::Prefix(t) | Shape::Tail(t) | Shape::Under(t) => t.as_str(),
            Shape::Other { pattern, .. } => pattern.strip_prefix("**/").unwrap_or(pattern),
            Shape::Suffix(_) | Shape::NamePrefix(_) => return false,
        };
        text.strip_prefix(dir)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| !rest.is_empty())
    }
}

/// The longest run of `pattern` with no wildcard before its first `[`,
/// `{` or `\\` (after one, what is literal depends on the brackets); the
/// `/` after a `**` is not part of a run (`**/` also matches nothing).
fn needle(pattern: &str) -> String {
    let head = pattern.split(['[', '{', '\\']).next().unwrap_or("");
    head.replace("**/", "*")
        .split(['*', '?', ']', '}'])
        .max_by_key(|run| run.len())
        .unwrap_or("")
        .to_string()
}

/// One glob of a set.
#[derive(Clone, Debug)]
struct Member {
    shape: Shape,
    compiled: OnceLock<Option<GlobMatcher>>,
}

impl Member {
    fn is_match(&self, path: &str) -> bool {
        match &self.shape {
            Shape::Exact(t) => path == t,
            Shape::Tail(t) => {
                path == t
                    || (path.ends_with(t.as_str()) && path[..path.len() - t.len()].ends_with('/'))
            }
            Shape::Under(t) => path.match_indices(t.as_str()).any(|(at, _)| {
                let after = path.as_bytes().get(at + t.len());
                (at == 0 || path.as_bytes()[at - 1] == b'/') && after == Some(&b'/')
            }),
            Shape::Prefix(t) => path
                .strip_prefix(t.as_str())
                .is_some_and(|r| r.starts_with('/')),
            Shape::Suffix(t) => path.ends_with(t.as_str()),
            Shape::NamePrefix(t) => path
                .rsplit('/')
                .next()
                .is_some_and(|n| n.starts_with(t.as_str())),
            Shape::Other { pattern, needle } => {
                path.contains(needle.as_str())
                    && self
                        .compiled
                        .get_or_init(|| compile(pattern))
                        .as_ref()
                        .is_some_and(|m| m.is_match(path))
            }
        }
    }
}

fn compile(pattern: &str) -> Option<GlobMatcher> {
    let glob = GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .ok()?;
    Some(glob.compile_matcher())
}

/// A set of globs over `/`-separated paths (repository-relative, or
/// absolute for paths outside the work tree).
#[derive(Clone, Debug, Default)]
pub struct Globs {
    members: Vec<Member>,
}

impl Globs {
    /// The set of `patterns`: each a `globset` glob with
    /// `literal_separator`. A glob that does not compile matches nothing
    /// (the configuration's globs are validated before, see
    /// [`crate::GuardConfig::validate`]).
    pub fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Globs {
        let shapes: Vec<Shape> = patterns.into_iter().map(Shape::of).collect();
        let dirs: Vec<String> = shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Under(d) => Some(d.clone()),
                _ => None,
            })
            .collect();
        let mut members: Vec<Member> = Vec::new();
        for shape in shapes {
            let covered = dirs.iter().any(|d| shape.covered_by(d));
            if !covered && !members.iter().any(|m| m.shape == shape) {
                members.push(Member {
                    shape,
                    compiled: OnceLock::new(),
                });
            }
        }
        Globs { members }
    }

    /// Whether some glob of the set matches `path`.
    pub fn is_match(&self, path: &str) -> bool {
        self.members.iter().any(|m| m.is_match(path))
    }

    /// The shapes kept (for tests and the audit).
    pub fn shapes(&self) -> impl Iterator<Item = &Shape> {
        self.members.iter().map(|m| &m.shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_read() {
        assert_eq!(Shape::of("CLAUDE.md"), Shape::Exact("CLAUDE.md".into()));
        assert_eq!(Shape::of("**/CLAUDE.md"), Shape::Tail("CLAUDE.md".into()));
        assert_eq!(Shape::of("**/.claude/**"), Shape::Under(".claude".into()));
        assert_eq!(
            Shape::of(".playbookdiff/**"),
            Shape::Prefix(".playbookdiff".into())
        );
        assert_eq!(Shape::of("**/*.pem"), Shape::Suffix(".pem".into()));
        assert_eq!(Shape::of("**/id_rsa*"), Shape::NamePrefix("id_rsa".into()));
        assert_eq!(
            Shape::of("**/.opencode/{agent,agents}/**/*.md"),
            Shape::Other {
                pattern: "**/.opencode/{agent,agents}/**/*.md".into(),
                needle: ".opencode/".into()
            }
        );
        assert_eq!(needle("src/[ab]cdefg/x"), "src/");
        assert_eq!(needle("[]a]bcd"), "");
        assert_eq!(needle("*"), "");
    }

    #[test]
    fn covered_globs_are_dropped() {
        let set = Globs::new([
            "**/.claude/**",
            "**/.claude/agents/*.md",
            ".claude/settings.json",
            "**/CLAUDE.md",
        ]);
        let kept: Vec<&Shape> = set.shapes().collect();
        assert_eq!(
            kept,
            [
                &Shape::Under(".claude".into()),
                &Shape::Tail("CLAUDE.md".into())
            ]
        );
    }
}

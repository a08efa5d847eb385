//! The one Claude Code path matcher, shared by rule and skill `paths`.
//!
//! Source: the shipped Claude Code 2.1.197 and 2.1.332 (fidelity C1, C15;
//! anthropics/claude-code#95526), checked with a scripted model: a `paths` value is
//! split at commas outside braces, each `{a,b}` group is expanded, a
//! trailing `/**` is dropped, and a list of nothing but `**` counts as no
//! `paths` at all. The patterns are then matched the way `.gitignore` lines
//! are, ignoring case, against the path relative to a base directory (for a
//! rule, the directory holding its `.claude`): a pattern without `/` (other
//! than a trailing one) matches at any depth, a pattern with one is
//! anchored at the base, and a match of a directory covers everything
//! below it. So `*.md` matches `docs/notes.md`, `src/**` matches
//! `lib/src/a.ts`, and `api/**/*.ts` matches `API/Handler.TS`.
//!
//! The gitignore semantics are the agent's own matcher, ported in
//! the crate's `gitignore` module (it differs from git's on `**` after a leading
//! `**/` and on brackets); the table in the tests holds every
//! pattern/path pair seen with the real agent.

use crate::gitignore::{ignores, Line};
use serde_json::Value;

/// Most patterns one brace expansion may produce before Claude Code gives
/// up and keeps the pattern unexpanded.
const MAX_EXPANSIONS: usize = 1000;
/// Bytes one brace expansion may produce (4 MiB), likewise.
const MAX_EXPANSION_BYTES: i64 = 4 * 1024 * 1024;

/// The patterns of a front-matter `paths` value as Claude Code uses them:
/// strings of a (possibly nested) list or a single string, split at commas
/// outside braces, brace groups expanded, a trailing `/**` dropped, empty
/// ones removed. `None` when nothing scopes the file: the value is absent,
/// empty, not text, or every pattern is `**` (fidelity C15). Values that
/// are not text inside a list are skipped, as Claude Code skips them.
pub fn claude_paths(value: &Value) -> Option<Vec<String>> {
    let out = expanded_paths(value);
    if out.iter().all(|p| p == "**") {
        None
    } else {
        Some(out)
    }
}

/// The patterns of a `paths` value as matched, without
/// [`claude_paths`]' rule for a list of nothing but `**`: split, braces
/// expanded, a trailing `/**` dropped, empty ones removed. For the
/// patterns of one entry of a list that scopes (`**` beside `src/**`
/// matches everything).
pub fn expanded_paths(value: &Value) -> Vec<String> {
    let mut budget = (MAX_EXPANSIONS, MAX_EXPANSION_BYTES);
    let mut out = Vec::new();
    collect(value, &mut out, &mut budget);
    out.into_iter()
        .map(|p| p.strip_suffix("/**").map(str::to_string).unwrap_or(p))
        .filter(|p| !p.is_empty())
        .collect()
}

/// The patterns of a `paths` value as written: the strings of a (possibly
/// nested) list or a single string, split at commas outside braces (field
/// report 6), before expansion. For display and the model's `paths`.
pub fn written_paths(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().flat_map(written_paths).collect(),
        Value::String(s) => split_comma_outside_braces(s),
        _ => Vec::new(),
    }
}

/// True when `value` holds something other than text (or lists of it),
/// which Claude Code drops without a word: worth a diagnostic.
pub fn has_non_text(value: &Value) -> bool {
    match value {
        Value::String(_) => false,
        Value::Array(items) => items.iter().any(has_non_text),
        Value::Null => false,
        _ => true,
    }
}

fn collect(value: &Value, out: &mut Vec<String>, budget: &mut (usize, i64)) {
    match value {
        Value::Array(items) => {
            for it in items {
                collect(it, out, budget);
            }
        }
        Value::String(s) => {
            for part in split_comma_outside_braces(s) {
                out.extend(expand_braces(&part, budget));
            }
        }
        _ => {}
    }
}

fn split_comma_outside_braces(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '{' => {
                depth += 1;
                cur.push(ch)
            }
            '}' => {
                depth -= 1;
                cur.push(ch)
            }
            ',' if depth == 0 => {
                let t = cur.trim();
                if !t.is_empty() {
                    out.push(t.to_string());
                }
                cur.clear();
            }
            _ => cur.push(ch),
        }
    }
    let t = cur.trim();
    if !t.is_empty() {
        out.push(t.to_string());
    }
    out
}

/// Expands the brace groups of `p` as Claude Code does: repeatedly the
/// first `{…}` that holds no `}` (split at commas, each part trimmed),
/// depth first in order. Over the budget, `p` is kept unexpanded.
fn expand_braces(p: &str, budget: &mut (usize, i64)) -> Vec<String> {
    if !p.contains('{') {
        return vec![p.to_string()];
    }
    let mut out: Vec<String> = Vec::new();
    let mut stack = vec![p.to_string()];
    while let Some(h) = stack.pop() {
        let Some((pre, inner, post)) = first_group(&h) else {
            out.push(h);
            continue;
        };
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        budget.1 -= h.len() as i64;
        let n = out.len() + stack.len() + parts.len();
        if budget.1 < 0 || n > budget.0 || (n * p.len()) as i64 > budget.1 {
            return vec![p.to_string()];
        }
        for part in parts.iter().rev() {
            stack.push(format!("{pre}{part}{post}"));
        }
    }
    budget.0 = budget.0.saturating_sub(out.len());
    budget.1 -= (out.len() * p.len()) as i64;
    out
}

/// `pre{inner}post` where `pre` has no `{` and `inner` is not empty and
/// has no `}`.
fn first_group(h: &str) -> Option<(&str, &str, &str)> {
    let open = h.find('{')?;
    let rest = &h[open + 1..];
    let close = rest.find('}')?;
    if close == 0 {
        return None;
    }
    Some((&h[..open], &rest[..close], &rest[close + 1..]))
}

/// How many distinct pattern lists [`PathPatterns::shared`] keeps.
pub const SHARED_LISTS: usize = 4096;

/// Compiled `paths` patterns, matched gitignore-style and case-insensitively
/// against a path relative to their base directory.
#[derive(Debug, Clone)]
pub struct PathPatterns {
    /// The patterns after splitting and expansion, as matched.
    pub patterns: Vec<String>,
    /// Patterns the matcher rejects, with the reason; they match nothing.
    pub errors: Vec<(String, String)>,
    lines: Vec<Line>,
}

impl PathPatterns {
    /// Compiles `patterns` (from [`claude_paths`]). Never fails: a pattern
    /// that cannot be compiled is listed in `errors` and matches nothing.
    pub fn new(patterns: &[String]) -> Self {
        let mut errors = Vec::new();
        let mut lines = Vec::new();
        for p in patterns {
            match Line::new(p) {
                Ok(Some(line)) => lines.push(line),
                Ok(None) => {}
                Err(e) => errors.push((p.clone(), e)),
            }
        }
        PathPatterns {
            patterns: patterns.to_vec(),
            errors,
            lines,
        }
    }

    /// [`PathPatterns::new`], compiled once per process for each distinct
    /// list: a rule or skill file on the ancestor chain of many launch
    /// directories (`check --all-dirs`) is compiled at each of them, and its
    /// patterns do not depend on the launch directory. At most
    /// [`SHARED_LISTS`] lists are kept; past that, each call compiles anew.
    pub fn shared(patterns: &[String]) -> std::sync::Arc<PathPatterns> {
        use std::collections::HashMap;
        use std::sync::{Arc, Mutex, OnceLock};
        type Memo = Mutex<HashMap<Vec<String>, Arc<PathPatterns>>>;
        static MEMO: OnceLock<Memo> = OnceLock::new();
        let memo = MEMO.get_or_init(Memo::default);
        if let Some(p) = memo.lock().ok().and_then(|m| m.get(patterns).cloned()) {
            return p;
        }
        // Compiled outside the lock: another thread may compile the same
        // list meanwhile; both answers are equal.
        let compiled = Arc::new(PathPatterns::new(patterns));
        if let Ok(mut m) = memo.lock() {
            if m.len() < SHARED_LISTS {
                m.insert(patterns.to_vec(), compiled.clone());
            }
        }
        compiled
    }

    /// The pattern (as written after expansion) that makes `rel` (a POSIX
    /// path relative to the base, no leading `/`) match, or `None`. A path
    /// matches when it or a directory above it matches and no later `!`
    /// pattern re-includes it. `is_dir` says whether `rel` is a directory.
    pub fn matched(&self, rel: &str, is_dir: bool) -> Option<String> {
        if rel.is_empty() || rel == "." || rel.starts_with("./") || rel.starts_with("../") {
            return None;
        }
        // A directory is matched as the agent matches the folders above a
        // file: with its trailing `/`.
        let path = if is_dir && !rel.ends_with('/') {
            format!("{rel}/")
        } else {
            rel.to_string()
        };
        ignores(&self.lines, &path).map(|l| l.pattern.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(pats: &[&str], rel: &str) -> bool {
        let p: Vec<String> = claude_paths(&json!(pats)).unwrap_or_default();
        PathPatterns::new(&p).matched(rel, false).is_some()
    }

    /// Patterns and paths with Claude Code's answer; the rows marked
    /// "oracle" were seen with 2.1.197 and 2.1.332 through a scripted
    /// model reading the path.
    #[test]
    fn gitignore_table() {
        let table: &[(&str, &str, bool)] = &[
            ("*.md", "docs/notes.md", true), // oracle
            ("*.md", "README.md", true),
            ("src/**", "lib/src/a.ts", true),        // oracle
            ("api/**/*.ts", "API/Handler.TS", true), // oracle
            ("src/*.ts", "src/x.ts", true),          // oracle (nested root)
            ("**/*.ts", "src/a.ts", true),           // oracle (retried front matter)
            ("{src,lib}/**/*.ts", "src/a.ts", true), // oracle (retried front matter)
            ("src/**", "src/deep/er/a.ts", true),
            ("src/*.ts", "src/deep/x.ts", false),
            ("src/*.ts", "lib/src/x.ts", false),
            ("/docs/*.md", "docs/a.md", true),
            ("/docs/*.md", "x/docs/a.md", false),
            ("docs/", "docs/a.md", true),
            ("*.MD", "a/b.md", true),
            ("*.ts", "a.tsx", false),
            ("src/*.{ts,tsx}", "src/a.tsx", true),
            ("a{}b", "a{}b", true),
        ];
        playbookdiff_testkit::assert_table(table, |pat, path| m(&[pat], path));
    }

    #[test]
    fn negation_re_includes() {
        assert!(!m(&["*.md", "!docs/keep.md"], "docs/keep.md"));
        assert!(m(&["*.md", "!docs/keep.md"], "docs/other.md"));
    }

    #[test]
    fn values_split_expand_and_reduce() {
        assert_eq!(
            claude_paths(&json!("src/api/**, lib/api/**")).unwrap(),
            ["src/api", "lib/api"]
        );
        assert_eq!(
            claude_paths(&json!("src/*.{ts,tsx}")).unwrap(),
            ["src/*.ts", "src/*.tsx"]
        );
        assert_eq!(
            claude_paths(&json!(["a/**", ["b/*.md", 3]])).unwrap(),
            ["a", "b/*.md"]
        );
        assert_eq!(claude_paths(&json!(["**"])), None);
        assert_eq!(claude_paths(&json!("**, **/**")), None);
        assert_eq!(claude_paths(&json!(3)), None);
        assert_eq!(claude_paths(&json!("")), None);
        assert_eq!(
            claude_paths(&json!("{a,{b,c}}")).unwrap(),
            ["a}", "b", "c}"]
        );
    }

    /// An unclosed `[` makes the pattern match nothing: the agent's
    /// translation closes the class it opened as an empty one. Seen with
    /// 2.1.332 (a rule with `paths: ["photos [2024"]` is not attached on a
    /// read of the file `photos [2024`).
    #[test]
    fn unclosed_bracket_matches_nothing() {
        let p = PathPatterns::new(&["photos [2024".to_string()]);
        assert!(p.errors.is_empty());
        assert!(p.matched("photos [2024", false).is_none());
        assert!(p.matched("photos 2", false).is_none());
    }
}

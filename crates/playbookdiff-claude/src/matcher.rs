//! The one Claude Code path matcher, shared by rule and skill `paths`.
//!
//! Source: spec 000 "Rules" (`matchesClaudeRulePath`): patterns are anchored
//! at repositoryRoot and matched against the repository-relative POSIX form
//! of targetPath; `*` does not cross `/`; braces expand; an invalid pattern
//! (e.g. an unclosed bracket) matches nothing. `X/**` also matches `X`
//! itself, as picomatch does.

use globset::{Glob, GlobBuilder, GlobMatcher};

/// One compiled `paths` pattern.
#[derive(Debug, Clone)]
pub struct PathPattern {
    /// The pattern as written.
    pub raw: String,
    matchers: Vec<GlobMatcher>,
    /// The glob library's message when the pattern is invalid.
    pub error: Option<String>,
}

fn build(p: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(p)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
}

impl PathPattern {
    /// Compiles `raw` (leading `./` dropped). Never fails: an invalid pattern
    /// carries `error` and matches nothing.
    pub fn new(raw: &str) -> Self {
        let p = raw.trim();
        let p = p.strip_prefix("./").unwrap_or(p);
        let mut variants = vec![p.to_string()];
        if let Some(base) = p.strip_suffix("/**") {
            if !base.is_empty() {
                variants.push(base.to_string());
            }
        }
        let mut matchers = Vec::new();
        let mut error = None;
        for v in &variants {
            match build(v) {
                Ok(g) => matchers.push(g.compile_matcher()),
                Err(e) => {
                    error = Some(e.kind().to_string());
                    matchers.clear();
                    break;
                }
            }
        }
        PathPattern {
            raw: raw.to_string(),
            matchers,
            error,
        }
    }

    /// True when the repository-relative POSIX path `rel` matches.
    pub fn is_match(&self, rel: &str) -> bool {
        self.matchers.iter().any(|m| m.is_match(rel))
    }

    /// True when the pattern has no `/`, so its anchoring decides whether it
    /// matches files below the root (`*.md`: root only per the
    /// documentation, any depth per claude-code #95526).
    pub fn is_root_level(&self) -> bool {
        !self.raw.trim().trim_start_matches("./").contains('/')
    }
}

/// Splits a front-matter `paths` value into patterns, in every form users
/// write it: a YAML list, a single string, a comma-separated string
/// (`src/api/**, lib/api/**`) whose commas inside braces are kept
/// (`src/*.{ts,tsx}`). Returns `None` for a value of another type.
/// Source: field report 6; harness facts A3, A7.
pub fn split_paths(value: &serde_json::Value) -> Option<Vec<String>> {
    match value {
        serde_json::Value::String(s) => Some(split_comma_outside_braces(s)),
        serde_json::Value::Array(items) => {
            let mut out = Vec::new();
            for it in items {
                match it {
                    serde_json::Value::String(s) => out.extend(split_comma_outside_braces(s)),
                    _ => return None,
                }
            }
            Some(out)
        }
        _ => None,
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
            ',' if depth <= 0 => {
                out.push(std::mem::take(&mut cur));
            }
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn star_does_not_cross_slash_and_is_root_anchored() {
        let p = PathPattern::new("*.md");
        assert!(p.is_match("README.md"));
        assert!(!p.is_match("docs/a.md"));
        assert!(PathPattern::new("src/**/*").is_match("src/a/b.ts"));
        assert!(!PathPattern::new("src/**/*").is_match("lib/src/a.ts"));
    }

    #[test]
    fn braces_and_dir_globstar() {
        assert!(PathPattern::new("src/**/*.{ts,tsx}").is_match("src/x/y.tsx"));
        assert!(PathPattern::new("apps/api/**").is_match("apps/api"));
    }

    #[test]
    fn invalid_pattern_matches_nothing() {
        let p = PathPattern::new("photos [2024/**");
        assert!(p.error.is_some());
        assert!(!p.is_match("photos [2024/a"));
    }

    #[test]
    fn every_paths_form_splits() {
        assert_eq!(
            split_paths(&json!("src/api/**, lib/api/**")).unwrap(),
            ["src/api/**", "lib/api/**"]
        );
        assert_eq!(
            split_paths(&json!("src/*.{ts,tsx}")).unwrap(),
            ["src/*.{ts,tsx}"]
        );
        assert_eq!(
            split_paths(&json!(["a/**", "b/*.md"])).unwrap(),
            ["a/**", "b/*.md"]
        );
        assert!(split_paths(&json!(3)).is_none());
    }
}

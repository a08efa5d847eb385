//! Stable finding ids.
//!
//! `<category>:<type>:<direction>:<slug>:<hash>`:
//!
//! * `direction`: `<harnesses>-only` when some harnesses have the item and
//!   others do not (`missing`, `capability-gap`, and a `scope-gap` where one
//!   side never loads it); `<harnesses>-first` for a `scope-gap` where every
//!   side loads it but some later or only conditionally; `both` (`all` for
//!   more than two harnesses) for symmetric findings. Harness names are
//!   joined with `+` in their fixed order.
//! * `slug`: readable part of the logical key: the scope directory for
//!   instructions (`root` for the repository root), the name for skills and
//!   MCP servers; characters other than `A-Za-z0-9._/-` become `-`, cut to
//!   48 characters.
//! * `hash`: the first 12 hex digits of SHA-256 over
//!   `playbookdiff-finding-v1`, category, type, the full logical key and the
//!   direction, separated by NUL bytes.
//!
//! The logical key is built from repository paths, directories, names and
//! load states only: never from line numbers, file content or wording, so
//! rewording a file keeps every id that does not depend on the rewording
//! itself.

use crate::finding::{Category, FindingType};
use playbookdiff_model::{Harness, RepoPath};
use sha2::{Digest, Sha256};

/// The direction token for a one-sided finding: `codex-only`.
pub fn only(present: &[Harness]) -> String {
    format!("{}-only", join(present))
}

/// The direction token for a finding where `present` have the item sooner.
pub fn first(present: &[Harness]) -> String {
    format!("{}-first", join(present))
}

/// The direction token for a symmetric finding among `n` harnesses.
pub fn symmetric(n: usize) -> String {
    if n <= 2 { "both" } else { "all" }.to_string()
}

fn join(hs: &[Harness]) -> String {
    let mut v: Vec<Harness> = hs.to_vec();
    v.sort();
    v.dedup();
    v.iter().map(|h| h.as_str()).collect::<Vec<_>>().join("+")
}

/// The readable slug for a directory.
pub fn dir_slug(dir: &RepoPath) -> String {
    if dir.is_root() {
        "root".to_string()
    } else {
        slug(dir.as_str())
    }
}

/// `raw` with characters outside `A-Za-z0-9._/-` replaced by `-`, at most
/// 48 characters, `entity` when empty.
pub fn slug(raw: &str) -> String {
    let s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(48)
        .collect();
    if s.is_empty() {
        "entity".to_string()
    } else {
        s
    }
}

/// The id of a finding.
pub fn finding_id(
    category: Category,
    kind: FindingType,
    direction: &str,
    slug: &str,
    key: &str,
) -> String {
    let mut h = Sha256::new();
    for part in [
        "playbookdiff-finding-v1",
        category.as_str(),
        kind.as_str(),
        key,
        direction,
    ] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    let digest = h.finalize();
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!(
        "{}:{}:{direction}:{slug}:{hex}",
        category.as_str(),
        kind.as_str()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");
    const CODEX: playbookdiff_model::Harness = playbookdiff_model::Harness::new("codex", "Codex");

    #[test]
    fn shape_and_stability() {
        let id = finding_id(
            Category::Instruction,
            FindingType::Missing,
            &only(&[CODEX]),
            &dir_slug(&RepoPath::new("apps/api").unwrap()),
            "k",
        );
        assert!(
            id.starts_with("instruction:missing:codex-only:apps/api:"),
            "{id}"
        );
        assert_eq!(id.rsplit(':').next().unwrap().len(), 12);
        let again = finding_id(
            Category::Instruction,
            FindingType::Missing,
            "codex-only",
            "apps/api",
            "k",
        );
        assert_eq!(id, again);
        assert_ne!(
            id,
            finding_id(
                Category::Instruction,
                FindingType::Missing,
                "claude-code-only",
                "apps/api",
                "k"
            )
        );
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("my server!"), "my-server-");
        assert_eq!(slug(""), "entity");
        assert_eq!(dir_slug(&RepoPath::root()), "root");
        assert_eq!(first(&[CODEX, CLAUDE]), "claude-code+codex-first");
    }
}

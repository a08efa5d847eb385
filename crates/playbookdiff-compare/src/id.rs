//! Stable finding ids.
//!
//! `<category>:<type>:<direction>:<slug>:<hash>`:
//!
//! * `direction`: `<harnesses>-only` when some harnesses have the item and
//!   others do not (`missing`, `capability-gap`, and a `scope-gap` where one
//!   side never loads it); `<harnesses>-first` for a `scope-gap` where every
//!   side loads it but some later or only conditionally; `both` (`all` for
//!   more than two harnesses) for symmetric findings. Harness names are
//!   joined with `+` in their fixed order; when they would leave the slug
//!   fewer than 8 characters (four or more harnesses only), the first ones
//!   are kept and the rest counted (`claude-code+codex+2-only`).
//! * `slug`: readable part of the logical key: the scope directory for
//!   instructions (`root` for the repository root), the name for skills and
//!   MCP servers; characters other than `A-Za-z0-9._/-` become `-`, cut to
//!   48 characters, then shortened so that the whole id takes at most
//!   [`MAX_ID_CHARS`] characters: a path keeps its last components after
//!   `...` (`.../tools/data`), a name its start.
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
use std::borrow::Cow;

/// The direction token for a one-sided finding: `codex-only`.
pub fn only(present: &[Harness]) -> String {
    let mut s = join(present);
    s.push_str("-only");
    s
}

/// The direction token for a finding where `present` have the item sooner.
pub fn first(present: &[Harness]) -> String {
    let mut s = join(present);
    s.push_str("-first");
    s
}

/// The direction token for a symmetric finding among `n` harnesses.
pub fn symmetric(n: usize) -> String {
    if n <= 2 { "both" } else { "all" }.to_string()
}

/// The harness ids of `hs`, sorted, each once, joined with `+`. Callers
/// pass harnesses in their fixed order already, so the common case
/// copies no list.
fn join(hs: &[Harness]) -> String {
    if !hs.windows(2).all(|w| w[0] < w[1]) {
        let mut v: Vec<Harness> = hs.to_vec();
        v.sort();
        v.dedup();
        return join(&v);
    }
    let mut s = String::with_capacity(hs.iter().map(|h| h.as_str().len() + 1).sum::<usize>() + 6);
    for (i, h) in hs.iter().enumerate() {
        if i > 0 {
            s.push('+');
        }
        s.push_str(h.as_str());
    }
    s
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
    let s: String = if raw.is_ascii() {
        // One byte per character: the same as the general case below,
        // without decoding.
        raw.bytes()
            .take(48)
            .map(|b| {
                if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'-') {
                    b as char
                } else {
                    '-'
                }
            })
            .collect()
    } else {
        raw.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-') {
                    c
                } else {
                    '-'
                }
            })
            .take(48)
            .collect()
    };
    if s.is_empty() {
        "entity".to_string()
    } else {
        s
    }
}

/// The most characters (all ASCII, so terminal columns too) an id takes,
/// so that it fits an 80-column line with its indentation and is never
/// broken. With three harnesses the parts other than the slug take at most
/// 62 (`instruction:scope-gap:claude-code+opencode-first:…:<hash>`),
/// leaving the slug 10.
pub const MAX_ID_CHARS: usize = 72;

/// The fewest characters a slug is cut to ([`fit_slug`]).
const MIN_SLUG_CHARS: usize = 8;

/// `direction` in at most `budget` characters: unchanged when it fits,
/// which every direction among three harnesses does; else a
/// `<harnesses>-only` or `<harnesses>-first` keeps its first harness ids
/// and counts the rest (`claude-code+codex+2-only` for four harnesses),
/// at least one id kept. Only ids that name four or more harnesses are
/// shaped so; the hash is over the full direction, so such ids stay
/// distinct.
fn fit_direction(direction: &str, budget: usize) -> Cow<'_, str> {
    if direction.len() <= budget {
        return Cow::Borrowed(direction);
    }
    let Some((list, suffix)) = ["-only", "-first"]
        .iter()
        .find_map(|s| direction.strip_suffix(s).map(|list| (list, *s)))
    else {
        return Cow::Borrowed(direction);
    };
    let names: Vec<&str> = list.split('+').collect();
    let mut kept = names.len();
    loop {
        kept -= 1;
        let short = format!("{}+{}{suffix}", names[..kept].join("+"), names.len() - kept);
        if short.len() <= budget || kept <= 1 {
            return Cow::Owned(short);
        }
    }
}

/// `slug` in at most `budget` characters (at least [`MIN_SLUG_CHARS`]):
/// unchanged when it fits; a path (with `/`) keeps its last components whole after `...`,
/// or its last characters when even the last one is too long; a name
/// keeps its first characters.
fn fit_slug(slug: &str, budget: usize) -> Cow<'_, str> {
    let budget = budget.max(MIN_SLUG_CHARS);
    if slug.len() <= budget {
        return Cow::Borrowed(slug);
    }
    if slug.contains('/') {
        let room = budget - 3;
        let tail = &slug[slug.len() - room..];
        let tail = match tail.find('/') {
            Some(i) if i + 1 < tail.len() => &tail[i..],
            _ => tail,
        };
        return Cow::Owned(format!("...{tail}"));
    }
    Cow::Borrowed(&slug[..budget])
}

/// Lower-case hexadecimal digits.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// The id of a finding, at most [`MAX_ID_CHARS`] characters.
///
/// Built with one allocation of the id's size (no formatting machinery):
/// `check --all-dirs` makes one per finding per launch directory.
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
    let mut hex = [0u8; 12];
    for (i, b) in digest.iter().take(6).enumerate() {
        hex[2 * i] = HEX[usize::from(b >> 4)];
        hex[2 * i + 1] = HEX[usize::from(b & 0xf)];
    }
    // Room for the direction and the slug; the direction is cut only when
    // it leaves the slug less than its minimum.
    let room = MAX_ID_CHARS.saturating_sub(category.as_str().len() + kind.as_str().len() + 16);
    let direction = fit_direction(
        direction,
        room.saturating_sub(slug.len().min(MIN_SLUG_CHARS)),
    );
    let fixed = category.as_str().len() + kind.as_str().len() + direction.len() + hex.len() + 4;
    let slug = fit_slug(slug, MAX_ID_CHARS.saturating_sub(fixed));
    let mut id = String::with_capacity(fixed + slug.len());
    for part in [category.as_str(), kind.as_str(), &direction, &slug] {
        id.push_str(part);
        id.push(':');
    }
    // `hex` holds ASCII digits only.
    id.extend(hex.iter().map(|&b| char::from(b)));
    id
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
    fn ids_fit_seventy_two_columns() {
        let deep = RepoPath::new("packages/mcp-core/src/internal/agents/tools/data").unwrap();
        let id = finding_id(
            Category::Instruction,
            FindingType::Missing,
            "claude-code-only",
            &dir_slug(&deep),
            "k",
        );
        assert_eq!(id.len(), 71, "{id}");
        assert!(
            id.starts_with("instruction:missing:claude-code-only:.../agents/tools/data:"),
            "{id}"
        );
        // The hash is over the full key: shortening keeps ids apart.
        let other = finding_id(
            Category::Instruction,
            FindingType::Missing,
            "claude-code-only",
            &dir_slug(&deep),
            "k2",
        );
        assert_ne!(id, other);
        let name = finding_id(
            Category::Skill,
            FindingType::CapabilityGap,
            "claude-code-only",
            &slug("development-on-kanbus-console-and-more"),
            "k",
        );
        assert!(name.len() <= MAX_ID_CHARS, "{name}");
        assert!(
            name.starts_with("skill:capability-gap:claude-code-only:development-on-kanbus:"),
            "{name}"
        );
        // Short slugs are kept whole; a long single component keeps its end.
        assert_eq!(fit_slug("apps/api", 20), "apps/api");
        assert_eq!(fit_slug("a/bcdefghijklmnopqrstuvwxyz", 12), "...rstuvwxyz");
        assert_eq!(fit_slug("abcdefghijklmnopqrstuvwxyz", 12), "abcdefghijkl");
        assert_eq!(fit_slug("abcdefghijklmnopqrstuvwxyz", 2), "abcdefgh");
        // Three harnesses, the longest parts: the slug keeps 8.
        let three = finding_id(
            Category::Instruction,
            FindingType::ScopeGap,
            "claude-code+opencode-first",
            "a-very-long-scope-name",
            "k",
        );
        assert!(three.len() <= MAX_ID_CHARS, "{three}");
    }

    /// Every id of every category and type fits [`MAX_ID_CHARS`] with up
    /// to seven harnesses of long ids, whatever the slug; a direction is
    /// shaped only when it must be: never among three harnesses (the ids
    /// of today), and then it keeps its first harnesses and counts the
    /// rest, the hash still over the full direction.
    #[test]
    fn ids_naming_many_harnesses_fit_and_stay_distinct() {
        use playbookdiff_model::Harness;
        let all = [
            Harness::new("claude-code", "Claude Code"),
            Harness::new("codex", "Codex"),
            Harness::new("copilot-cli", "Copilot CLI"),
            Harness::new("gemini-cli", "Gemini CLI"),
            Harness::new("opencode", "OpenCode"),
            Harness::new("cursor-agent", "Cursor"),
            Harness::new("windsurf-cascade", "Windsurf"),
        ];
        let categories = [
            Category::Instruction,
            Category::Skill,
            Category::Mcp,
            Category::Agent,
        ];
        let kinds = [
            FindingType::Missing,
            FindingType::ScopeGap,
            FindingType::CapabilityGap,
            FindingType::Different,
            FindingType::Unknown,
        ];
        let slugs = ["root", "apps/api", "a-very-long-skill-name-of-many-words"];
        for n in 1..all.len() {
            for hs in [&all[..n], &all[all.len() - n..]] {
                for dir in [only(hs), first(hs)] {
                    for (c, k, s) in categories
                        .iter()
                        .flat_map(|c| kinds.iter().map(move |k| (c, k)))
                        .flat_map(|(c, k)| slugs.iter().map(move |s| (*c, *k, *s)))
                    {
                        let id = finding_id(c, k, &dir, s, "k");
                        assert!(id.len() <= MAX_ID_CHARS, "{id}");
                        let shown = id.split(':').nth(2).unwrap();
                        if shown != dir {
                            let kept = shown.rsplit_once('+').unwrap().0;
                            assert!(dir.starts_with(&format!("{kept}+")), "{dir}: {shown}");
                        }
                        let other = finding_id(c, k, &format!("{dir}x"), s, "k");
                        assert_ne!(id, other);
                    }
                }
            }
        }
        // Among the three harnesses of today, no direction is ever cut:
        // the longest category and type that name two of them.
        let today = [all[0], all[1], all[4]];
        for (c, k) in [
            (Category::Instruction, FindingType::ScopeGap),
            (Category::Instruction, FindingType::Missing),
            (Category::Skill, FindingType::CapabilityGap),
            (Category::Skill, FindingType::ScopeGap),
            (Category::Mcp, FindingType::CapabilityGap),
        ] {
            for pair in [[0, 1], [0, 2], [1, 2]] {
                let hs = [today[pair[0]], today[pair[1]]];
                for dir in [only(&hs), first(&hs)] {
                    let id = finding_id(c, k, &dir, "packages/a-very-long-directory/x", "k");
                    assert_eq!(id.split(':').nth(2).unwrap(), dir, "{id}");
                }
            }
        }
        assert_eq!(
            fit_direction("claude-code+codex+copilot+opencode-only", 31),
            "claude-code+codex+2-only"
        );
        assert_eq!(fit_direction("a+b-first", 5), "a+1-first");
        assert_eq!(fit_direction("all", 2), "all");
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("my server!"), "my-server-");
        assert_eq!(slug(""), "entity");
        assert_eq!(dir_slug(&RepoPath::root()), "root");
        assert_eq!(first(&[CODEX, CLAUDE]), "claude-code+codex-first");
    }
}

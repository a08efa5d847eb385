//! The adapter registry: every supported harness, one line each.
//!
//! Adding a harness is one new adapter crate plus one line in [`ADAPTERS`]
//! (and its dependency line in this crate's `Cargo.toml`). The command
//! line, the launch-directory search of `check --all-dirs` and the
//! suggestions of `explain` iterate this list; no other crate names a
//! harness (`tests/registry/invariants.rs` keeps that true).
//!
//! ```
//! let ids: Vec<&str> = playbookdiff_registry::adapters()
//!     .iter()
//!     .map(|a| a.harness().as_str())
//!     .collect();
//! assert!(ids.windows(2).all(|w| w[0] < w[1]), "contract order: by id");
//! ```

pub use playbookdiff_adapter::{
    layouts, Adapter, ContextWindow, EnvVariable, Gap, Inputs, Scene, Scoped, Surface, SurfaceKind,
    TargetTest, TrustEntry, TrustLevel,
};
use playbookdiff_model::Harness;

/// Every registered adapter, in contract order (by harness id). The first
/// is the default harness of `compile`.
pub static ADAPTERS: &[&dyn Adapter] = &[
    &playbookdiff_claude::ADAPTER,   // claude-code
    &playbookdiff_codex::ADAPTER,    // codex
    &playbookdiff_copilot::ADAPTER,  // copilot
    &playbookdiff_cursor::ADAPTER,   // cursor
    &playbookdiff_gemini::ADAPTER,   // gemini
    &playbookdiff_opencode::ADAPTER, // opencode
];

/// Every registered adapter, in contract order (by harness id).
pub fn adapters() -> &'static [&'static dyn Adapter] {
    ADAPTERS
}

/// The adapter of `harness`, if registered.
pub fn adapter(harness: Harness) -> Option<&'static dyn Adapter> {
    ADAPTERS.iter().copied().find(|a| a.harness() == harness)
}

/// The adapter whose harness id is `id` (e.g. `"codex"`), if registered.
pub fn by_id(id: &str) -> Option<&'static dyn Adapter> {
    ADAPTERS
        .iter()
        .copied()
        .find(|a| a.harness().as_str() == id)
}

/// Every registered harness, in contract order.
pub fn harnesses() -> Vec<Harness> {
    ADAPTERS.iter().map(|a| a.harness()).collect()
}

/// The registered harness id closest to `given` in edit distance, when
/// close enough to be a likely misspelling (at most a third of its
/// length, or one of them is a prefix of the other): for "did you mean"
/// hints.
pub fn closest_id(given: &str) -> Option<&'static str> {
    let given = given.to_ascii_lowercase();
    ADAPTERS
        .iter()
        .map(|a| a.harness().as_str())
        .map(|id| (edit_distance(&given, id), id))
        .filter(|(d, id)| {
            *d <= id.len().max(3) / 3
                || (!given.is_empty() && (id.starts_with(&given) || given.starts_with(id)))
        })
        .min()
        .map(|(_, id)| id)
}

/// The one line answering a harness id `given` that no adapter has:
/// "unknown harness `claude`; did you mean `claude-code`?" when one is
/// close ([`closest_id`]), else the list of ids. For `--agent-version`,
/// and every harness name `playbookdiff.toml` holds (`harnesses`, the keys
/// of `[agent-versions]`).
pub fn unknown_harness(given: &str) -> String {
    let hint = match closest_id(given) {
        Some(close) => format!("did you mean `{close}`?"),
        None => {
            let ids: Vec<&str> = ADAPTERS.iter().map(|a| a.harness().as_str()).collect();
            format!("use one of: {}", ids.join(", "))
        }
    };
    format!("unknown harness `{}`; {hint}", given.escape_debug())
}

/// Levenshtein distance in chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_in_contract_order() {
        let ids: Vec<&str> = ADAPTERS.iter().map(|a| a.harness().as_str()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
        assert!(ids.len() >= 2);
    }

    #[test]
    fn every_adapter_profiles_a_version_and_owns_its_entry_names() {
        for a in ADAPTERS {
            assert!(!a.profiled_versions().is_empty(), "{}", a.harness());
            for name in a.own_directories() {
                assert!(
                    a.config_entry_names().contains(name),
                    "{}: {name}",
                    a.harness()
                );
            }
            for name in a.config_entry_names() {
                let p = playbookdiff_model::RepoPath::new(&format!("pkg/{name}")).unwrap();
                assert!(a.owns_path(&p), "{} owns {p}", a.harness());
            }
        }
    }

    #[test]
    fn misspellings_find_the_closest_id() {
        for a in ADAPTERS {
            let id = a.harness().as_str();
            assert_eq!(by_id(id).map(|a| a.harness()), Some(a.harness()));
            let typo = format!("{}x", &id[..id.len() - 1]);
            assert_eq!(closest_id(&typo), Some(id), "{typo}");
        }
        assert_eq!(closest_id("zzzzzzzzzz"), None);
        assert_eq!(
            unknown_harness("claude"),
            "unknown harness `claude`; did you mean `claude-code`?"
        );
        assert!(unknown_harness("zzzzzzzzzz").contains("use one of: claude-code, codex"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}

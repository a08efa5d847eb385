//! One message voice for every adapter: a diagnostic that names its own
//! file names it as a code span (`problems::quote` in the adapter
//! toolkit), never bare. Checked on every fixture of every registered
//! adapter, launched at the fixture's root.

use playbookdiff_model::{AnalysisContext, Diagnostic};
use playbookdiff_source::{Repo, WorkingTree};
use std::path::Path;

/// True when `c` can continue a repository path.
fn path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-')
}

/// The byte offsets where `path` stands in `message` as a whole token
/// outside a code span.
fn bare_occurrences(message: &str, path: &str) -> Vec<usize> {
    message
        .match_indices(path)
        .map(|(i, _)| i)
        .filter(|&i| {
            let before = message[..i].chars().next_back();
            let rest = &message[i + path.len()..];
            // A path ends at a character that cannot continue it, or at a
            // full stop that ends the sentence.
            let ends = match rest.chars().next() {
                None => true,
                Some('.') => rest.len() == 1 || rest[1..].starts_with([' ', '\n']),
                Some(c) => !path_char(c),
            };
            let whole = !before.is_some_and(path_char) && ends;
            let in_span = message[..i].matches('`').count() % 2 == 1;
            whole && !in_span
        })
        .collect()
}

#[test]
fn the_test_finds_a_bare_path() {
    assert_eq!(
        bare_occurrences("a/AGENTS.md is empty.", "a/AGENTS.md"),
        [0]
    );
    assert_eq!(bare_occurrences("see a/AGENTS.md.", "a/AGENTS.md"), [4]);
    assert!(bare_occurrences("`a/AGENTS.md` is empty.", "a/AGENTS.md").is_empty());
    assert!(bare_occurrences("`b/a/AGENTS.md` and b/a/AGENTS.md.bak", "a/AGENTS.md").is_empty());
}

fn bare(d: &Diagnostic) -> Option<String> {
    let path = d.source.as_ref()?.path.to_string();
    if path.is_empty() || path == "." {
        return None;
    }
    (!bare_occurrences(&d.message, &path).is_empty())
        .then(|| format!("{}: {}", d.code.as_str(), d.message))
}

#[test]
fn every_adapter_quotes_the_paths_of_its_messages() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut found = Vec::new();
    for adapter in playbookdiff_registry::adapters() {
        let id = adapter.harness().as_str().to_string();
        let dir_name = match id.as_str() {
            "claude-code" => "claude".to_string(),
            other => other.to_string(),
        };
        let fixtures = crates.join(format!("playbookdiff-{dir_name}/tests/fixtures"));
        let mut dirs: Vec<_> = std::fs::read_dir(&fixtures)
            .unwrap_or_else(|e| panic!("{}: {e}", fixtures.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let tree = WorkingTree::open(&dir).expect("fixture opens");
            let repo = Repo::new(&tree);
            let cfg = adapter.compile(&repo, &AnalysisContext::at_root(), None);
            checked += cfg.diagnostics.len();
            for d in &cfg.diagnostics {
                if let Some(b) = bare(d) {
                    found.push(format!("{id} {}: {b}", dir.display()));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} diagnostics");
    assert!(
        found.is_empty(),
        "{} bare paths:\n{}",
        found.len(),
        found.join("\n")
    );
}

//! Real input, read by a person: the view, `check`, `check --all-dirs`,
//! `compile` and `explain` (of the first finding of each category and
//! type) of every corpus repository (`../shared/corpus/`, in both its
//! forms), run from the repository's root as a user would, into a pipe.
//! Not on a terminal, text output takes 80 columns: every line must fit
//! them (commands and ids are never broken, paths are shortened from the
//! left). Skipped, with a visible note, when the corpus is absent.

use crate::support::{self, Form};
use assert_cmd::Command;
use std::path::Path;
use unicode_width::UnicodeWidthStr;

/// The lines of `args` run in `dir` wider than 80 columns, each with its
/// width.
fn wide_lines(dir: &Path, args: &[&str]) -> Vec<(usize, String)> {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(dir)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code();
    assert!(
        matches!(code, Some(0) | Some(1)),
        "{} {args:?}: exit {code:?}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| (UnicodeWidthStr::width(l), l.to_string()))
        .filter(|(w, _)| *w > 80)
        .collect()
}

/// The ids of the first finding of each category and type (`instruction`
/// `missing`, `skill` `capability-gap`, ...) of `check` at the root of
/// `dir`, in the document's order.
fn explain_ids(dir: &Path) -> Vec<String> {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut seen = Vec::new();
    let mut ids = Vec::new();
    for f in v["findings"].as_array().into_iter().flatten() {
        let key = (f["category"].to_string(), f["type"].to_string());
        if !seen.contains(&key) {
            seen.push(key);
            ids.push(f["id"].as_str().unwrap_or_default().to_string());
        }
    }
    ids
}

#[test]
fn every_corpus_repository_fits_eighty_columns_in_a_pipe() {
    let Some(corpus) = support::corpus_root("every_corpus_repository_fits_eighty_columns") else {
        return;
    };
    let names = support::repositories(&corpus);
    assert!(!names.is_empty());
    let commands: [&[&str]; 6] = [
        &[],
        &["check"],
        &["check", "--all-dirs"],
        &["compile"],
        &["compile", "--harness", "codex"],
        &["compile", "--harness", "opencode"],
    ];
    let mut failures = Vec::new();
    for name in &names {
        for form in Form::BOTH {
            let repo = support::materialize(&corpus, name, form);
            for args in commands {
                for (w, line) in wide_lines(&repo.root, args) {
                    failures.push(format!("{name} ({form:?}) {args:?}: {w} columns: {line}"));
                }
            }
            // `explain` on the first finding of each category and kind,
            // whose evidence quotes the repository's own text.
            for id in explain_ids(&repo.root) {
                let args = ["explain", id.as_str()];
                for (w, line) in wide_lines(&repo.root, &args) {
                    failures.push(format!("{name} ({form:?}) {args:?}: {w} columns: {line}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} lines wider than 80 columns:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

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
    lines_wider_than(dir, args, 80)
}

/// The lines of `args` run in `dir` with `COLUMNS=columns` that are wider
/// than `columns`, each with its width, but for what is never broken: a
/// line holding a finding id (at most 72 columns, so only below 80) and
/// the continuation of a command (after a line ending in ` \`).
fn lines_wider_than(dir: &Path, args: &[&str], columns: usize) -> Vec<(usize, String)> {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.current_dir(dir)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .args(args);
    if columns != 80 {
        cmd.env("COLUMNS", columns.to_string());
    }
    let out = cmd.output().unwrap();
    let code = out.status.code();
    assert!(
        matches!(code, Some(0) | Some(1)),
        "{} {args:?}: exit {code:?}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let id = regex::Regex::new(r"[a-z]+:[a-z-]+:[a-z0-9+-]+:\S*:[0-9a-f]{12}").unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut wide = Vec::new();
    let mut continued = false;
    for line in text.lines() {
        let w = UnicodeWidthStr::width(line);
        let unbreakable = columns < 80 && (continued || id.is_match(line));
        if w > columns && !unbreakable {
            wide.push((w, line.to_string()));
        }
        continued = line.ends_with(" \\");
    }
    wide
}

/// The ids of the first finding of each category and type (`instruction`
/// `missing`, `skill` `capability-gap`, ...) of `check` at the root of
/// `dir`, in the document's order.
fn explain_ids(dir: &Path) -> Vec<String> {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--root", "--format", "json"])
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

/// Every text output (the view, `check`, `check --all-dirs`, `compile` of
/// each harness, `explain` of the first finding of each kind) of the
/// example, and of a corpus repository when the corpus is present, fits
/// 40 and 80 columns: headings, group titles, sentences, tables (which
/// flow when their columns do not fit) and names (cut when wider than a
/// line); only finding ids and commands are never broken.
#[test]
fn the_example_and_a_corpus_repository_fit_forty_and_eighty_columns() {
    let example = support::workspace().join("examples/monorepo");
    let mut repos: Vec<(String, support::Materialized)> = Vec::new();
    if let Some(corpus) = support::corpus_root("corpus repository at 40 columns") {
        repos.push((
            "humanlayer__humanlayer".into(),
            support::materialize(&corpus, "humanlayer__humanlayer", Form::Tar),
        ));
    }
    let mut dirs: Vec<(String, &Path)> = vec![("example".into(), example.as_path())];
    dirs.extend(repos.iter().map(|(n, m)| (n.clone(), m.root.as_path())));
    let commands: [&[&str]; 6] = [
        &["--root"],
        &["check", "--root"],
        &["check", "--root", "--all-dirs"],
        &["compile", "--root"],
        &["compile", "--root", "--harness", "codex"],
        &["compile", "--root", "--harness", "opencode"],
    ];
    let mut failures = Vec::new();
    for (name, dir) in &dirs {
        for columns in [40, 80] {
            let mut runs: Vec<Vec<String>> = commands
                .iter()
                .map(|a| a.iter().map(|s| s.to_string()).collect())
                .collect();
            for id in explain_ids(dir) {
                runs.push(vec!["explain".into(), id, "--root".into()]);
            }
            for args in &runs {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                for (w, line) in lines_wider_than(dir, &args, columns) {
                    failures.push(format!("{name} {args:?} at {columns}: {w}: {line}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A repository where the agents agree gets the sentences that say so
/// (the view's "None: …", `check`'s "No compatibility findings.", the
/// `--all-dirs` "… in any launch directory."), and they too fit 40
/// columns; the Markdown says so of every harness compared, not of
/// "both" when three are.
#[test]
fn a_repository_where_the_agents_agree_fits_forty_columns() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("AGENTS.md"), "# Rules\n\nUse tabs.\n").unwrap();
    std::fs::write(tmp.path().join("CLAUDE.md"), "@AGENTS.md\n").unwrap();
    let commands: [&[&str]; 3] = [
        &["--root"],
        &["check", "--root"],
        &["check", "--root", "--all-dirs"],
    ];
    let mut failures = Vec::new();
    for args in commands {
        for columns in [40, 80] {
            for (w, line) in lines_wider_than(tmp.path(), args, columns) {
                failures.push(format!("{args:?} at {columns}: {w}: {line}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The sentences measured are there (words joined across line breaks).
    for (args, sentence) in commands.iter().zip([
        "None: the agents compared receive the same configuration from here.",
        "No compatibility findings.",
        "No compatibility findings in any launch directory.",
    ]) {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .current_dir(tmp.path())
            .env("COLUMNS", "40")
            .args(*args)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(sentence), "{args:?}: {text}");
    }
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(tmp.path())
        .args(["check", "--root", "--format", "markdown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.contains("No compatibility findings: the harnesses compared receive the same"),
        "{md}"
    );
    assert!(!md.contains("both harnesses"), "{md}");
}

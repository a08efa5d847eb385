//! Real input, read by a person: the view, `check`, `check --all-dirs`,
//! `compile` and `explain` (of every finding) of every corpus repository
//! (`../shared/corpus/`, in both its forms), run from the repository's
//! root as a user would, into a pipe (80 columns) and with `COLUMNS=40`:
//! every line must fit them (commands and ids are never broken, paths are
//! shortened from the left, between components). Skipped, with a visible
//! note, when the corpus is absent.

use crate::support::{self, Form};
use assert_cmd::Command;
use std::path::Path;
use unicode_width::UnicodeWidthStr;

/// The lines of `args` run in `dir` with `COLUMNS=columns` that are wider
/// than `columns`, each with its width, but for what is never broken: a
/// line holding a finding id (below 80 columns; at any width an id alone
/// on its line that is itself too wide, such as one naming four harnesses), the
/// continuation of a command (after a line ending in ` \`), and the
/// argument of a command's option in backticks alone on its line (after
/// a line ending in `` `--cwd ``), a path that cannot be shortened and
/// still be pasted.
fn lines_wider_than(dir: &Path, args: &[&str], columns: usize) -> Vec<(usize, String)> {
    let text = output(dir, args, columns);
    let id = regex::Regex::new(r"[a-z]+:[a-z-]+:[a-z0-9+-]+:\S*:[0-9a-f]{12}").unwrap();
    let option = regex::Regex::new(r"`--[a-z-]+$").unwrap();
    let mut wide = Vec::new();
    let mut previous = "";
    for line in text.lines() {
        let w = UnicodeWidthStr::width(line);
        let argument = option.is_match(previous) && !line.trim().contains(' ');
        // An id naming four harnesses (`claude-code+codex+copilot+opencode-only`)
        // is wider than 78 columns: alone on its line (with a command's ` \`)
        // it is never broken, at any width.
        let bare = line
            .trim_end_matches(" \\")
            .trim_end_matches(',')
            .trim_start();
        let id_alone = id
            .find(bare)
            .is_some_and(|m| m.start() == 0 && m.end() == bare.len())
            && UnicodeWidthStr::width(bare) + 2 > columns;
        let unbreakable = id_alone
            || columns < 80 && (previous.ends_with(" \\") || argument || id.is_match(line));
        if w > columns && !unbreakable {
            wide.push((w, line.to_string()));
        }
        previous = line;
    }
    wide
}

/// The standard output of `args` run in `dir` with `COLUMNS=columns` (none
/// at 80, the width of a pipe), which must exit 0 or 1.
fn output(dir: &Path, args: &[&str], columns: usize) -> String {
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
    String::from_utf8(out.stdout).unwrap()
}

/// The ids of the findings of `check` at the root of `dir`, in the
/// document's order: all of them (`Sample::All`), or the first of each
/// category and type (`instruction` `missing`, `skill` `capability-gap`,
/// ...).
fn explain_ids(dir: &Path, sample: Sample) -> Vec<String> {
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
        if sample == Sample::All || !seen.contains(&key) {
            seen.push(key);
            ids.push(f["id"].as_str().unwrap_or_default().to_string());
        }
    }
    ids
}

/// Which findings of a repository `explain` is run on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sample {
    /// Every finding.
    All,
    /// The first finding of each category and type.
    FirstOfEachKind,
}

/// The words of `text` that shorten a path with `…` in its middle
/// (`apps/d…ipts/CLAUDE.md`) or inside a directory's name while a whole
/// directory would have stayed (`…ages/tools/data/CLAUDE.md` instead of
/// `…/tools/data/CLAUDE.md`). Allowed: a cut at a `/`, the end of the
/// last directory's name when no directory fits whole
/// (`…nlayer-wui/CLAUDE.md`), and the end of the file name alone
/// (`…installation.md`). Quoted repository text (lines starting with `|`)
/// is the repository's own.
fn cuts_inside_a_name(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('|'))
        .flat_map(str::split_whitespace)
        .filter(|w| {
            let Some((before, after)) = w.split_once('…') else {
                return false;
            };
            let before = before.trim_start_matches(|c| "`([\"'".contains(c));
            (before.contains('/') && !before.ends_with('/'))
                || (!after.starts_with('/') && after.matches('/').count() > 1)
        })
        .map(str::to_string)
        .collect()
}

/// The commands every corpus repository is read with: the view, `check`
/// and `check --all-dirs` (every registered harness, the default), then
/// `compile` of each registered harness.
fn corpus_commands() -> Vec<Vec<String>> {
    let mut runs: Vec<Vec<String>> = vec![
        vec![],
        vec!["check".into()],
        vec!["check".into(), "--all-dirs".into()],
    ];
    for h in playbookdiff_registry::harnesses() {
        runs.push(vec![
            "compile".into(),
            "--harness".into(),
            h.as_str().into(),
        ]);
    }
    runs
}

/// `check` compares every registered harness by default, and
/// [`corpus_commands`] compiles each of them: six today, so that the
/// test below holds the three added last (Gemini CLI, Copilot CLI,
/// Cursor) to the width as well.
#[test]
fn the_corpus_commands_cover_every_registered_harness() {
    let compiled: Vec<String> = corpus_commands()
        .into_iter()
        .filter(|a| a.first().is_some_and(|c| c == "compile"))
        .map(|a| a[2].clone())
        .collect();
    let ids: Vec<String> = playbookdiff_registry::harnesses()
        .iter()
        .map(|h| h.as_str().to_string())
        .collect();
    assert_eq!(compiled, ids);
    assert!(ids.len() >= 6, "{ids:?}");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("AGENTS.md"), "# Rules\n").unwrap();
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(tmp.path())
        .args(["check", "--root", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let compared: Vec<String> = v["harnesses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h.as_str().map(str::to_string))
        .collect();
    assert_eq!(compared, ids, "{v}");
}

/// Every text output of every corpus repository, in both forms of the
/// corpus, at 40 and 80 columns: the view, `check` and `check --all-dirs`
/// with every registered harness (six), `compile` of each registered
/// harness, and `explain` of every finding (in the form with links as
/// text, the first of each kind: the evidence differs only where links
/// are). Every line fits, but for what is never broken (see
/// [`lines_wider_than`]), and every path shortened from the left is cut
/// between components.
#[test]
fn every_corpus_repository_fits_forty_and_eighty_columns() {
    let Some(corpus) = support::corpus_root("every_corpus_repository_fits_eighty_columns") else {
        return;
    };
    let names = support::repositories(&corpus);
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    let mut explained = 0;
    for name in &names {
        for form in Form::BOTH {
            let repo = support::materialize(&corpus, name, form);
            let sample = match form {
                Form::Tar => Sample::All,
                Form::LinksAsText => Sample::FirstOfEachKind,
            };
            let mut runs = corpus_commands();
            for id in explain_ids(&repo.root, sample) {
                runs.push(vec!["explain".into(), id]);
                explained += 1;
            }
            for args in &runs {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                for columns in [40, 80] {
                    let at = format!("{name} ({form:?}) {args:?} at {columns}");
                    for (w, line) in lines_wider_than(&repo.root, &args, columns) {
                        failures.push(format!("{at}: {w} columns: {line}"));
                    }
                    for word in cuts_inside_a_name(&output(&repo.root, &args, columns)) {
                        failures.push(format!("{at}: cut inside a name: {word}"));
                    }
                }
            }
        }
    }
    // The corpus has findings to explain (over a hundred in the tar form).
    assert!(explained > 100, "{explained} findings explained");
    assert!(
        failures.is_empty(),
        "{} lines too wide or paths cut inside a name:\n{}",
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
            for id in explain_ids(dir, Sample::FirstOfEachKind) {
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
    std::fs::write(tmp.path().join("GEMINI.md"), "@AGENTS.md\n").unwrap();
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

/// The rows of a finding block in `check` (a harness's evidence, a
/// problem, an acceptance): their continuation lines start in the
/// value's column (15), never one to the right, and each harness's
/// evidence lists its files in one order, by path, so that two harnesses
/// receiving the same files list them alike (humanlayer's grouped
/// finding once listed `scripts/CLAUDE.md` first for Claude Code only).
/// Every corpus repository, at 80 and at 40 columns.
#[test]
fn finding_rows_align_and_list_evidence_in_path_order() {
    let Some(corpus) = support::corpus_root("finding rows") else {
        return;
    };
    let mut labels: Vec<&str> = playbookdiff_registry::harnesses()
        .iter()
        .map(|h| h.as_str())
        .collect();
    labels.extend(["problem", "accepted"]);
    for name in support::repositories(&corpus) {
        let repo = support::materialize(&corpus, &name, Form::Tar);
        for columns in [80, 40] {
            let text = output(&repo.root, &["check"], columns);
            let lines: Vec<&str> = text.lines().collect();
            for (k, line) in lines.iter().enumerate() {
                let Some(label) = labels
                    .iter()
                    .find(|l| line.starts_with(&format!("  {l:<12} ")))
                else {
                    continue;
                };
                let mut value = line[15..].to_string();
                for next in &lines[k + 1..] {
                    let pad = next.len() - next.trim_start().len();
                    if pad <= 2 || next.trim().is_empty() {
                        break;
                    }
                    assert_eq!(pad, 15, "{name} at {columns}: {line}\n{next}");
                    value.push(' ');
                    value.push_str(next.trim());
                }
                if ["problem", "accepted"].contains(label) || value.starts_with('(') {
                    continue;
                }
                let paths: Vec<&str> = value
                    .split(", ")
                    .filter(|v| !v.starts_with('+'))
                    .map(|v| v.split(':').next().unwrap_or(v))
                    .collect();
                // Paths shortened from the left (`…/x`) cannot be ordered.
                if paths.iter().any(|p| p.starts_with('…')) {
                    continue;
                }
                let mut sorted = paths.clone();
                sorted.sort();
                assert_eq!(paths, sorted, "{name} at {columns}: {line}");
            }
        }
    }
}

/// The upgrade of each registered harness from its oldest profiled
/// release to its newest (when it has two), as `upgrade` takes it.
fn upgrade_commands() -> Vec<Vec<String>> {
    playbookdiff_registry::adapters()
        .iter()
        .filter_map(|a| {
            let releases = a.profiled_versions();
            let (first, last) = (releases.first()?, releases.last()?);
            (first != last).then(|| {
                vec![
                    "upgrade".to_string(),
                    a.harness().as_str().to_string(),
                    format!("{first}..{last}"),
                    "--root".to_string(),
                ]
            })
        })
        .collect()
}

/// `upgrade` of every registered harness (its oldest profiled release to
/// its newest) and `diff` of a history that adds the whole repository,
/// on every corpus repository (the form with links), into a pipe: every
/// line fits 80 columns, a paragraph's long URL included (Copilot CLI's
/// upgrade of getsentry/sentry-mcp once printed one of 90 columns, its
/// first word kept beside the `+`).
#[test]
fn upgrade_and_diff_of_every_corpus_repository_fit_eighty_columns() {
    let Some(corpus) = support::corpus_root("upgrade and diff at 80 columns") else {
        return;
    };
    let upgrades = upgrade_commands();
    assert!(upgrades.len() >= 4, "{upgrades:?}");
    let mut failures = Vec::new();
    for name in support::repositories(&corpus) {
        let repo = support::materialize(&corpus, &name, Form::Tar);
        for args in &upgrades {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            for (w, line) in lines_wider_than(&repo.root, &args, 80) {
                failures.push(format!("{name} {args:?}: {w}: {line}"));
            }
        }
        let history = tempfile::tempdir().unwrap();
        let root = history.path();
        playbookdiff_testkit::corpus::git(root, &["init", "-q", "-b", "main"]);
        playbookdiff_testkit::corpus::git(root, &["commit", "-q", "--allow-empty", "-m", "base"]);
        playbookdiff_testkit::copy_tree(&repo.root, root);
        playbookdiff_testkit::corpus::git(root, &["add", "-A"]);
        playbookdiff_testkit::corpus::git(root, &["commit", "-q", "-m", "all"]);
        let args = ["diff", "HEAD~1..HEAD"];
        for (w, line) in lines_wider_than(root, &args, 80) {
            failures.push(format!("{name} {args:?}: {w}: {line}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} lines too wide:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

//! The docs' commands reproduce what the docs show: every `playbookdiff`
//! command in a `sh` block of docs/real-world.md runs, as written, from the
//! root of the corpus repository its section names (`## owner/name
//! (commit): …` is `../shared/corpus/owner__name`), and the section's
//! `Result:` line (exit status, launch directories, groups, findings in
//! all and per id prefix) is what the last `check` of the block reports
//! as JSON. docs/ci.md and docs/findings.md show no command with its
//! output. Skipped, with a visible note, when the corpus is absent.

use crate::support;
use assert_cmd::Command;
use std::path::Path;

/// One section of docs/real-world.md: its corpus repository, the
/// commands of its `sh` block (arguments after `playbookdiff`) and its
/// `Result:` line.
struct Section {
    repository: String,
    commands: Vec<Vec<String>>,
    result: String,
}

fn sections(doc: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut in_sh = false;
    let mut result: Option<String> = None;
    // Lines under a `## ` heading that names no repository (`owner/name`)
    // belong to no section.
    let mut outside = false;
    for line in doc.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            let first = title.split_whitespace().next().unwrap_or_default();
            outside = !first.contains('/');
            if outside {
                continue;
            }
            let repo = first.replace('/', "__");
            out.push(Section {
                repository: repo,
                commands: Vec::new(),
                result: String::new(),
            });
            continue;
        }
        let Some(section) = out.last_mut().filter(|_| !outside) else {
            continue;
        };
        if line.trim_start().starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if in_sh {
            let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            if words.first().map(String::as_str) == Some("playbookdiff") {
                section.commands.push(words[1..].to_vec());
            }
            continue;
        }
        // A `Result:` paragraph, read up to its blank line.
        match (&mut result, line.strip_prefix("Result: ")) {
            (None, Some(rest)) => result = Some(rest.to_string()),
            (Some(r), _) if !line.trim().is_empty() => {
                r.push(' ');
                r.push_str(line.trim());
            }
            (Some(_), _) => section.result = result.take().unwrap(),
            _ => {}
        }
    }
    if let (Some(r), Some(section)) = (result, out.last_mut()) {
        section.result = r;
    }
    out
}

/// The number before `what` in `result` (`4 launch directories`).
fn figure(result: &str, what: &str) -> Option<u64> {
    let re = regex::Regex::new(&format!(r"(\d+) {}", regex::escape(what))).unwrap();
    re.captures(result).map(|c| c[1].parse().unwrap())
}

fn run(dir: &Path, args: &[String]) -> (i32, Vec<u8>) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

fn check_result(dir: &Path, check: &[String], result: &str) {
    let what = format!("`playbookdiff {}`", check.join(" "));
    let (code, _) = run(dir, check);
    let mut json = check.to_vec();
    json.extend(["--format".to_string(), "json".to_string()]);
    let (json_code, stdout) = run(dir, &json);
    assert_eq!(code, json_code, "{what}");
    let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
    let exit: i32 = regex::Regex::new(r"exit status (\d)")
        .unwrap()
        .captures(result)
        .map(|c| c[1].parse().unwrap())
        .expect("the Result line states the exit status");
    assert_eq!(code, exit, "{what}: {result}");
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(
        Some(findings.len() as u64),
        figure(result, "findings"),
        "{what}: {result}"
    );
    for (what_dirs, key) in [("launch directories", "directories"), ("groups", "groups")] {
        if let Some(n) = figure(result, what_dirs) {
            assert_eq!(
                v[key].as_array().map(Vec::len),
                Some(n as usize),
                "{what}: {key}"
            );
        }
    }
    let per_kind = regex::Regex::new(r"(\d+) `([a-z+:-]+)`").unwrap();
    let mut stated = 0;
    for c in per_kind.captures_iter(result) {
        let n: usize = c[1].parse().unwrap();
        let prefix = format!("{}:", &c[2]);
        let found = findings
            .iter()
            .filter(|f| f["id"].as_str().unwrap().starts_with(&prefix))
            .count();
        assert_eq!(found, n, "{what}: {prefix} in {result}");
        stated += n;
    }
    assert_eq!(
        stated,
        findings.len(),
        "{what}: every finding is stated: {result}"
    );
}

#[test]
fn every_command_of_the_real_world_doc_reproduces_its_result() {
    let Some(corpus) = support::corpus_root("every_command_of_the_real_world_doc") else {
        return;
    };
    let doc = std::fs::read_to_string(support::workspace().join("docs/real-world.md")).unwrap();
    let sections = sections(&doc);
    assert!(sections.len() >= 5, "{}", sections.len());
    for s in &sections {
        assert!(!s.commands.is_empty(), "{}: no command", s.repository);
        assert!(!s.result.is_empty(), "{}: no Result line", s.repository);
        let repo = support::materialize(&corpus, &s.repository, support::Form::Tar);
        for args in &s.commands {
            let (code, stdout) = run(&repo.root, args);
            let expected = if args.first().map(String::as_str) == Some("check") {
                1
            } else {
                0
            };
            assert_eq!(code, expected, "{}: {args:?}", s.repository);
            assert!(!stdout.is_empty(), "{}: {args:?}", s.repository);
        }
        let check = s
            .commands
            .iter()
            .rfind(|a| a.first().map(String::as_str) == Some("check"))
            .unwrap_or_else(|| panic!("{}: no check command", s.repository));
        check_result(&repo.root, check, &s.result);
    }
}

/// Every `playbookdiff` command shown in docs/ci.md and docs/findings.md
/// parses: its command and options exist (the run itself needs the
/// repository the doc speaks of).
#[test]
fn the_ci_and_findings_docs_show_commands_that_parse() {
    for doc in ["docs/ci.md", "docs/findings.md"] {
        let text = std::fs::read_to_string(support::workspace().join(doc)).unwrap();
        let flat = text.replace("\\\n", " ");
        for line in flat.lines() {
            let line = line
                .trim()
                .trim_start_matches("- ")
                .trim_start_matches("run: ");
            let Some(rest) = line.strip_prefix("playbookdiff ") else {
                continue;
            };
            let words = shell_words(rest.split(" #").next().unwrap());
            let mut args = words.clone();
            args.push("--help".to_string());
            let out = Command::cargo_bin("playbookdiff")
                .unwrap()
                .args(&args)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{doc}: playbookdiff {}: {}",
                words.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The words of a command line as a POSIX shell splits them (double
/// quotes group), up to a redirection or `||`.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
        .into_iter()
        .take_while(|w| !w.starts_with('>') && w != "||")
        .collect()
}

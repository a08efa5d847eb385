//! The pre-commit hook (`.pre-commit-hooks.yaml`): it runs `check` on the
//! configuration to be committed, and its `files` pattern (a Python regular
//! expression, searched in each staged path) selects every entry a
//! harness reads configuration from, and nothing else.

use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
struct Hook {
    id: String,
    entry: String,
    language: String,
    pass_filenames: bool,
    files: String,
}

fn hooks() -> Vec<Hook> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.pre-commit-hooks.yaml"),
    )
    .unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

#[test]
fn the_hook_checks_every_launch_directory_quietly() {
    let hooks = hooks();
    assert_eq!(hooks.len(), 1);
    let h = &hooks[0];
    assert_eq!(h.id, "playbookdiff");
    assert_eq!(h.entry, "playbookdiff check --all-dirs --quiet");
    assert_eq!(h.language, "system");
    assert!(!h.pass_filenames);
    // The entry's options exist.
    let out = assert_cmd::Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["check", "--all-dirs", "--quiet", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn the_files_pattern_selects_agent_configuration() {
    let h = &hooks()[0];
    // The pattern uses only syntax Python's `re` and Rust's `regex` read
    // alike (groups, alternation, escapes, anchors).
    let re = regex::Regex::new(&h.files).unwrap();
    let adapters = playbookdiff_registry::adapters();
    let names: Vec<&str> = adapters
        .iter()
        .flat_map(|a| a.config_entry_names().iter().copied())
        .collect();
    let dirs: Vec<&str> = adapters
        .iter()
        .flat_map(|a| a.own_directories().iter().copied())
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        let (top, nested) = if dirs.contains(&name) {
            (
                format!("{name}/settings.json"),
                format!("apps/api/{name}/skills/x/SKILL.md"),
            )
        } else {
            (name.to_string(), format!("apps/api/{name}"))
        };
        assert!(re.is_match(&top), "{top}");
        assert!(re.is_match(&nested), "{nested}");
    }
    assert!(re.is_match("playbookdiff.toml"));
    for other in [
        "README.md",
        "src/main.rs",
        "docs/CLAUDE.md.bak",
        "MYCLAUDE.md",
        "claude/x.md",
        "notes/AGENTS.mdx",
    ] {
        assert!(!re.is_match(other), "{other}");
    }
}

/// The names of the alternation `(A|B|…)` that follows `prefix` in a
/// pattern, `\.` unescaped and a trailing `c?` giving both spellings.
fn alternatives(pattern: &str, prefix: &str) -> Vec<String> {
    let rest = &pattern[pattern.find(prefix).expect(prefix) + prefix.len()..];
    let group = &rest[..rest.find(')').unwrap()];
    group
        .split('|')
        .flat_map(|alt| {
            let name = alt.replace("\\.", ".");
            match name.strip_suffix("c?") {
                Some(base) => vec![base.to_string(), format!("{base}c")],
                None => vec![name],
            }
        })
        .collect()
}

/// docs/ci.md's list of what triggers the hook is exactly what the
/// pattern matches: its file names and its directories.
#[test]
fn the_docs_trigger_list_is_the_pattern() {
    let h = &hooks()[0];
    let mut from_pattern: Vec<String> = alternatives(&h.files, "(^|/)(");
    from_pattern.extend(
        alternatives(&h.files, "(^|/)\\.(")
            .into_iter()
            .map(|d| format!(".{d}/")),
    );
    from_pattern.sort();
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ci.md"))
            .unwrap();
    let section = doc
        .split("## pre-commit")
        .nth(1)
        .expect("a pre-commit section");
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let list = flat
        .split("touches agent configuration (")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .expect("the trigger list");
    let mut from_doc: Vec<String> = list
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    from_doc.sort();
    assert_eq!(from_doc, from_pattern, "{list}");
    let re = regex::Regex::new(&h.files).unwrap();
    for name in &from_doc {
        let path = match name.strip_suffix('/') {
            Some(dir) => format!("pkg/{dir}/x"),
            None => format!("pkg/{name}"),
        };
        assert!(re.is_match(&path), "{path}");
    }
    // The doc does not claim that only the staged snapshot is read.
    assert!(flat.contains("untracked files that no ignore rule matches are still read"));
}

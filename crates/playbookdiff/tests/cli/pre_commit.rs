//! The pre-commit hook (`.pre-commit-hooks.yaml`): it runs `check` on the
//! staged configuration, and its `files` pattern (a Python regular
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
    let names: Vec<&str> = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.config_entry_names().iter().copied())
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        let (top, nested) = if name.starts_with('.') && !name.contains(".json") {
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

//! The README's examples run as written: every `playbookdiff` command in a
//! `sh` block of README.md is parsed from the README itself (so the README
//! cannot drift from the program) and run from the repository root, where
//! `examples/monorepo` is.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn readme() -> String {
    std::fs::read_to_string(workspace_root().join("README.md")).expect("README.md is readable")
}

/// The `playbookdiff …` and `cargo run -p playbookdiff -- …` lines of the
/// README's ```sh blocks, without their `# comment`, as argument lists (the
/// program name dropped).
fn commands(readme: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = match trimmed.find(" #") {
            Some(i) => &trimmed[..i],
            None => trimmed,
        };
        let words: Vec<String> = code.split_whitespace().map(str::to_string).collect();
        if words.first().map(String::as_str) == Some("playbookdiff") {
            out.push(words[1..].to_vec());
        } else if words.starts_with(&["cargo", "run", "-p", "playbookdiff", "--"].map(String::from))
        {
            out.push(words[5..].to_vec());
        }
    }
    out
}

#[test]
fn every_readme_example_runs_as_written_from_the_repository_root() {
    let text = readme();
    let cmds = commands(&text);
    assert!(
        cmds.len() >= 6,
        "expected the README's examples, found {cmds:?}"
    );
    for args in &cmds {
        assert!(
            !args.iter().any(|a| a.contains("apps/api") && !args.contains(&"examples/monorepo".to_string())),
            "{args:?} names a directory of the example without the example as REPO"
        );
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .current_dir(workspace_root())
            .env("NO_COLOR", "1")
            .args(args)
            .output()
            .unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0) | Some(1)),
            "`playbookdiff {}` exited {code:?}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{args:?}: {:?}", out.stderr);
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }
}

#[test]
fn the_readme_says_how_to_get_the_command() {
    let text = readme();
    assert!(text.contains("cargo install --path crates/playbookdiff --locked"));
    assert!(text.contains("--root DIR") && text.contains("DIR/bin"));
    assert!(text.contains("cargo run -p playbookdiff --"));
    assert!(text.contains("cargo run --release -p playbookdiff --"));
}

/// The README's first command, `cargo run -p playbookdiff -- …`, needs the
/// package to name the binary `cargo run` picks: it has two
/// (`playbookdiff` and the guard's hook, `playbookdiff-guard`), and without
/// `default-run` cargo refuses with "could not determine which binary to
/// run". Asked of `cargo metadata`, which reads the manifest as `cargo run`
/// does.
#[test]
fn cargo_run_of_the_package_runs_the_command() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .current_dir(workspace_root())
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "playbookdiff")
        .expect("the playbookdiff package");
    let bins = package["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"))
        .count();
    assert!(
        bins > 1,
        "the package has {bins} binaries; this test is moot"
    );
    assert_eq!(package["default_run"], "playbookdiff", "{package}");
}

/// What `.ci/run` runs beyond cargo needs the network (npm packages, and
/// Chromium when missing): the README's sentence about it names each
/// `PLAYBOOKDIFF_SKIP_…` variable the script reads to skip a step, so a
/// new user offline knows how to run the rest.
#[test]
fn the_readme_names_every_step_of_ci_run_that_can_be_skipped() {
    let script = std::fs::read_to_string(workspace_root().join(".ci/run")).unwrap();
    let readme = readme();
    let mut skips: Vec<&str> = script
        .split(|c: char| !(c.is_ascii_uppercase() || c == '_'))
        .filter(|w| w.starts_with("PLAYBOOKDIFF_SKIP_"))
        .collect();
    skips.sort_unstable();
    skips.dedup();
    assert!(skips.len() >= 2, "{skips:?}");
    for var in skips {
        assert!(
            readme.contains(&format!("`{var}=1`")),
            "README does not name {var}"
        );
    }
    assert!(
        readme.contains("need the network"),
        "README: .ci/run offline"
    );
}

/// The minimum Rust the README states is the workspace's `rust-version`.
#[test]
fn the_readme_states_the_minimum_rust_version() {
    let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("rust-version in the workspace manifest");
    assert!(
        readme().contains(&format!("({version} or newer")),
        "README does not state rust-version {version}"
    );
}

#[test]
fn the_readme_explain_example_names_a_finding_of_the_example() {
    let cmds = commands(&readme());
    let explain = cmds
        .iter()
        .find(|a| a.first().map(String::as_str) == Some("explain"))
        .expect("an explain example");
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(workspace_root())
        .env("NO_COLOR", "1")
        .args(explain)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{explain:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("Finding {}", explain[1])),
        "{text}"
    );
}

/// The README's "Verified against the real agents" names every release
/// each registered adapter is profiled for, so it cannot fall behind the
/// registry.
#[test]
fn the_readme_names_every_profiled_agent_version() {
    let text = readme();
    let section = text
        .split("## Verified against the real agents")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a 'Verified against the real agents' section");
    let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
    for adapter in playbookdiff_registry::adapters() {
        for version in adapter.profiled_versions() {
            assert!(
                section.contains(version),
                "README's verified section does not name {} {version}",
                adapter.harness()
            );
        }
    }
}

/// The README's options table and the CLI agree on `--format`: every
/// command its row names accepts `--format json` and prints JSON, and the
/// view, which the row says is text only, refuses `--json` in one line
/// that gives the `check --format json` the row names.
#[test]
fn the_readme_format_row_matches_the_cli() {
    let readme = readme();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `--format`"))
        .expect("the options table has a --format row");
    let cell = row.split(" | ").nth(1).expect("a description cell");
    let (named, rest) = cell
        .split_once(':')
        .expect("the row names its commands first");
    let commands: Vec<&str> = named.split(", ").map(|c| c.trim_matches('`')).collect();
    assert_eq!(commands, ["compile", "check", "explain", "diff"], "{row}");
    assert!(rest.contains("The view (no command) is text only"), "{row}");
    assert!(rest.contains("`check --format json`"), "{row}");
    let root = workspace_root();
    let example = root.join("examples/monorepo");
    for command in ["compile", "check"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_playbookdiff"))
            .current_dir(&example)
            .args([command, "--root", "--format", "json"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{command}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert!(v.is_object(), "{command}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_playbookdiff"))
        .current_dir(&example)
        .args(["--root", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("playbookdiff check --root --format json"),
        "{err}"
    );
}

/// The README's example of an upgrade from a release without a profile
/// names the release that stands for it, and the command's note names the
/// same one (the README said 2.1.197 while the command used 2.0.59, the
/// oldest modelled release).
#[test]
fn the_readme_upgrade_example_names_the_release_the_command_uses() {
    let text = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    let (_, rest) = text
        .split_once("(`upgrade claude-code 1.0.0..2.1.332` compares ")
        .expect("the README's upgrade example");
    let stands_for = rest.split([' ', ',']).next().unwrap();
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(workspace_root())
        .args([
            "upgrade",
            "claude-code",
            "1.0.0..2.1.332",
            "examples/monorepo",
            "--root",
        ])
        .output()
        .unwrap();
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(
        note.contains(&format!("the analysis uses {stands_for},")),
        "README: {stands_for}; note: {note}"
    );
}

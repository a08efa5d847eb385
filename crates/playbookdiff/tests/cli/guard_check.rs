//! The guard's findings in `check` (docs/findings.md, "Guard"): per agent
//! the guard serves, whether it is guarded and what switches it off, each
//! at its file and line with a remedy; only in a repository that opts in
//! (a `[guard]` table, or a registration of the guard in its own files).
//! Fixtures: `guard_opted_in` (a `[guard]` table; Claude Code's project
//! registration beside `disableAllHooks: true` on line 2; Codex's beside
//! `[features] hooks = false` on line 4 of `.codex/config.toml`; OpenCode,
//! Gemini CLI and Copilot CLI without one) and `guard_unopted` (`disableAllHooks: true` and no
//! guard). Each is copied into a temporary directory and analysed from
//! there, so the output names no machine path.

use crate::snapshots::run_in as run;
use serde_json::Value;
use std::path::Path;

/// A copy of fixture `name` at `<temporary directory>/<name>`.
fn fixture(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    playbookdiff_testkit::copy_tree(
        &playbookdiff_testkit::fixture!(name),
        &tmp.path().join(name),
    );
    tmp
}

fn guard_findings(dir: &Path, args: &[&str]) -> Vec<Value> {
    let (code, out) = run(dir, &[args, &["--format", "json"]].concat());
    assert!(code == 0 || code == 1, "exit {code}: {out}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["category"] == "guard")
        .cloned()
        .collect()
}

/// The finding of type `kind` whose logical key is `key`.
fn find<'f>(fs: &'f [Value], kind: &str, key: &str) -> &'f Value {
    fs.iter()
        .find(|f| f["type"] == kind && f["key"] == key)
        .unwrap_or_else(|| panic!("no {kind} finding {key}: {fs:#?}"))
}

/// The first problem's file and first line.
fn at(f: &Value) -> (String, u64) {
    let s = &f["problems"][0]["source"];
    (
        s["path"].as_str().unwrap().to_string(),
        s["lines"]["start"].as_u64().unwrap(),
    )
}

fn remedy(f: &Value) -> &str {
    f["remedies"][0]["action"].as_str().unwrap()
}

#[test]
fn an_opted_in_repository_gets_each_switch_at_its_file_and_line() {
    let t = fixture("guard_opted_in");
    let fs = guard_findings(t.path(), &["check", "guard_opted_in"]);
    let claude = find(
        &fs,
        "switched-off",
        "claude-code|disable-all-hooks|.claude/settings.json",
    );
    assert_eq!(claude["severity"], "high");
    assert_eq!(at(claude), (".claude/settings.json".into(), 2));
    assert_eq!(claude["problems"][0]["code"], "hooks-disabled");
    assert!(remedy(claude).contains("--scope managed"), "{claude}");
    let codex = find(
        &fs,
        "switched-off",
        "codex|hooks-feature-off|.codex/config.toml",
    );
    assert_eq!(at(codex), (".codex/config.toml".into(), 4));
    assert!(
        remedy(codex).contains("/etc/codex/requirements.toml"),
        "{codex}"
    );
    // Repository mode does not read the user's trusted hashes: whether
    // Codex runs the project hook is open, not a switch that holds.
    let trust = find(&fs, "switchable", "codex|untrusted-hash");
    assert_eq!(trust["severity"], "info");
    let opencode = find(&fs, "unguarded", "opencode|registration");
    assert_eq!(opencode["severity"], "medium");
    assert!(
        remedy(opencode).contains("guard install --host opencode --scope project --write"),
        "{opencode}"
    );
    // Gemini CLI and Copilot CLI are hosts too; Cursor, which the guard
    // does not serve, gets no guard finding.
    for (agent, scope) in [("gemini", "managed"), ("copilot", "project")] {
        let f = find(&fs, "unguarded", &format!("{agent}|registration"));
        let want = format!("guard install --host {agent} --scope {scope} --write");
        assert!(remedy(f).contains(&want), "{f}");
    }
    assert!(fs.iter().all(|f| f["absentFrom"][0] != "cursor"), "{fs:#?}");
}

#[test]
fn a_repository_that_does_not_opt_in_gets_no_guard_finding() {
    let t = fixture("guard_unopted");
    assert_eq!(
        guard_findings(t.path(), &["check", "guard_unopted"]),
        Vec::<Value>::new()
    );
}

/// Claude Code's managed layer survives the project's `disableAllHooks`:
/// in local mode with that layer under `--managed-root`, the switch is
/// no longer `switched-off` but `switchable` of severity info.
#[test]
fn a_managed_registration_survives_disable_all_hooks() {
    let t = fixture("guard_opted_in");
    let home = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let managed = root.path().join("etc/claude-code");
    std::fs::create_dir_all(&managed).unwrap();
    let project = t.path().join("guard_opted_in/.claude/settings.json");
    let text = std::fs::read_to_string(project).unwrap();
    let registration = text.replace("\"disableAllHooks\": true,\n", "");
    std::fs::write(managed.join("managed-settings.json"), registration).unwrap();
    let fs = guard_findings(
        t.path(),
        &[
            "check",
            "guard_opted_in",
            "--mode",
            "local",
            "--home",
            home.path().to_str().unwrap(),
            "--managed-root",
            root.path().to_str().unwrap(),
        ],
    );
    assert!(
        !fs.iter()
            .any(|f| f["type"] == "switched-off" && f["absentFrom"][0] == "claude-code"),
        "{fs:#?}"
    );
    let claude = find(
        &fs,
        "switchable",
        "claude-code|disable-all-hooks|.claude/settings.json",
    );
    assert_eq!(claude["severity"], "info");
    assert!(
        claude["message"]
            .as_str()
            .unwrap()
            .contains("managed layer"),
        "{claude}"
    );
}

#[test]
fn the_text_report_of_the_guard_findings() {
    let t = fixture("guard_opted_in");
    let (code, out) = run(t.path(), &["check", "guard_opted_in"]);
    assert_eq!(code, 1);
    let guard: String = out
        .split("\n\n")
        .filter(|block| block.contains(" guard "))
        .collect::<Vec<_>>()
        .join("\n\n");
    insta::assert_snapshot!("guard_check_text", guard);
}

/// `check --all-dirs` reports the guard's findings once, with the root,
/// however many launch directories the repository has.
#[test]
fn all_dirs_reports_the_guard_findings_once_for_the_repository() {
    let t = fixture("guard_opted_in");
    let repo = t.path().join("guard_opted_in");
    for dir in ["packages/a", "packages/b"] {
        std::fs::create_dir_all(repo.join(dir)).unwrap();
        std::fs::write(repo.join(dir).join("AGENTS.md"), "# Package\n").unwrap();
    }
    let single = guard_findings(t.path(), &["check", "guard_opted_in"]);
    let (code, out) = run(
        t.path(),
        &["check", "guard_opted_in", "--all-dirs", "--format", "json"],
    );
    assert!(code == 0 || code == 1, "exit {code}: {out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let dirs: Vec<&str> = v["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["cwd"].as_str().unwrap())
        .collect();
    assert_eq!(dirs, [".", "packages/a", "packages/b"]);
    let all: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["category"] == "guard")
        .collect();
    let keys = |fs: &[&Value]| -> Vec<String> {
        let mut k: Vec<String> = fs
            .iter()
            .map(|f| f["key"].as_str().unwrap().to_string())
            .collect();
        k.sort();
        k
    };
    assert_eq!(keys(&all), keys(&single.iter().collect::<Vec<_>>()));
    for f in &all {
        assert_eq!(f["directories"], serde_json::json!(["."]), "{f}");
    }
    find(
        &single,
        "switched-off",
        "claude-code|disable-all-hooks|.claude/settings.json",
    );
}

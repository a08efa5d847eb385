//! Snapshots of what the renderers print, as a reader sees it: the default
//! view, `check` as text and Markdown, `explain`, `check --all-dirs` and
//! `diff` as text and Markdown, on the example repository, two comparison
//! fixtures and a scripted history. Each command runs from the directory
//! holding the repository, with a relative repository argument, `NO_COLOR`
//! and into a pipe (80 columns), so the output names no machine path.
//!
//! The snapshots are in `snapshots/` beside this file. A change to the
//! output shows there as a diff to review: `INSTA_UPDATE=always cargo test
//! -p playbookdiff --test cli snapshots::` rewrites them (or `cargo insta
//! review`); with `CI=true` a mismatch fails and nothing is written. Tests
//! of specific facts (order, exit statuses, ids) stay in their modules.

use assert_cmd::Command;
use playbookdiff_testkit::corpus::{git, workspace};
use std::path::{Path, PathBuf};

/// `playbookdiff ARGS…` run in `dir`: exit status and standard output;
/// standard error must be empty.
pub(crate) fn run_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.is_empty(), "{args:?}: {err}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// The output of a command that reports (exit 0, or 1 for findings at the
/// failing threshold).
fn output(dir: &Path, args: &[&str]) -> String {
    let (code, text) = run_in(dir, args);
    assert!(code == 0 || code == 1, "{args:?}: exit {code}");
    text
}

fn compare_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../playbookdiff-compare/tests/fixtures")
}

const EXAMPLE: &str = "examples/monorepo";

#[test]
fn the_example_rendered_by_every_text_command() {
    let ws = workspace();
    let at = |args: &[&str]| output(&ws, &[args, &["--root"]].concat());
    insta::assert_snapshot!("example_view", at(&[EXAMPLE]));
    insta::assert_snapshot!("example_check_text", at(&["check", EXAMPLE]));
    insta::assert_snapshot!(
        "example_check_markdown",
        at(&["check", EXAMPLE, "--format", "markdown"])
    );
    insta::assert_snapshot!(
        "example_check_cwd_and_target",
        at(&[
            "check",
            EXAMPLE,
            "--cwd",
            "packages/ui",
            "--target",
            "packages/ui/src/button.tsx",
        ])
    );
    insta::assert_snapshot!(
        "example_check_all_dirs",
        at(&["check", EXAMPLE, "--all-dirs"])
    );
    insta::assert_snapshot!(
        "example_check_all_dirs_markdown",
        at(&["check", EXAMPLE, "--all-dirs", "--format", "markdown"])
    );
}

#[test]
fn the_explanation_of_each_kind_of_finding_in_the_example() {
    let ws = workspace();
    let json = output(&ws, &["check", EXAMPLE, "--root", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let findings = v["findings"].as_array().expect("findings");
    assert!(!findings.is_empty());
    // The first finding of each category, in the report's order.
    let mut seen = std::collections::BTreeSet::new();
    for f in findings {
        let category = f["category"].as_str().unwrap().to_string();
        if !seen.insert(category.clone()) {
            continue;
        }
        let id = f["id"].as_str().unwrap();
        insta::assert_snapshot!(
            format!("example_explain_{category}"),
            output(&ws, &["explain", id, EXAMPLE, "--root"])
        );
    }
}

#[test]
fn two_comparison_fixtures_in_the_view_and_check() {
    let dir = compare_fixtures();
    for (name, cwd) in [("cwd_target", "apps/api"), ("nested_both", "server")] {
        insta::assert_snapshot!(
            format!("{name}_view"),
            output(&dir, &[name, "--root", "--cwd", cwd])
        );
        insta::assert_snapshot!(
            format!("{name}_check_text"),
            output(&dir, &["check", name, "--root"])
        );
    }
}

#[test]
fn diff_of_a_scripted_history_as_text_and_markdown() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    std::fs::create_dir(&root).unwrap();
    let write = |rel: &str, text: &str| playbookdiff_testkit::fs::write(&root, rel, text);
    git(&root, &["init", "-q", "-b", "main"]);
    write("AGENTS.md", "# Rules\n\nUse pnpm.\n");
    write("CLAUDE.md", "@AGENTS.md\n");
    write("src/main.ts", "export {};\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "base"]);
    // Claude Code stops importing AGENTS.md; Codex gains a skill and an MCP
    // server Claude Code has no counterpart of.
    write("CLAUDE.md", "# Claude only\n\nUse npm.\n");
    write(
        ".agents/skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release.\n---\nSteps.\n",
    );
    write(
        ".codex/config.toml",
        "[mcp_servers.docs]\ncommand = \"docs-mcp\"\n",
    );
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "drift"]);
    for (name, format) in [("diff_text", "text"), ("diff_markdown", "markdown")] {
        insta::assert_snapshot!(
            name,
            output(
                tmp.path(),
                &["diff", "HEAD~1..HEAD", "repo", "--format", format]
            )
        );
    }
}

/// A repository with a Claude Code PreToolUse hook and a subagent, checked
/// for Claude Code, Copilot CLI and Gemini CLI: Copilot CLI 1.0.102 runs
/// the same hook file and lists the same agent, so neither is reported
/// missing there; Gemini CLI lacks both, and the explanation gives its
/// remedy in its own format (`BeforeTool` in `.gemini/settings.json`, a
/// `.gemini/agents` file). Copilot CLI 1.0.24, which does not run Claude
/// Code's hooks, gets a `.github/hooks` file as its remedy.
#[test]
fn claude_hooks_and_agents_against_copilot_and_gemini() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    std::fs::create_dir(&root).unwrap();
    let write = |rel: &str, text: &str| playbookdiff_testkit::fs::write(&root, rel, text);
    git(&root, &["init", "-q", "-b", "main"]);
    write(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Write|Edit\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/guard.sh\"}\n        ]\n      }\n    ]\n  }\n}\n",
    );
    write(".claude/hooks/guard.sh", "exit 0\n");
    write(
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: Reviews changes before commit.\n---\nReview the diff.\n",
    );
    for f in ["CLAUDE.md", "AGENTS.md", "GEMINI.md"] {
        write(f, "Use the reviewer.\n");
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "base"]);
    let harnesses = [
        "--harness",
        "claude-code",
        "--harness",
        "copilot",
        "--harness",
        "gemini",
    ];
    let check = output(tmp.path(), &[&["check", "repo"][..], &harnesses].concat());
    insta::assert_snapshot!("claude_hooks_agents_check", check);
    let id = |text: &str, kind: &str| {
        text.lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("id  ")
                    .filter(|i| i.starts_with(kind))
            })
            .unwrap_or_else(|| panic!("no {kind} finding in {text}"))
            .to_string()
    };
    for (name, kind) in [
        ("claude_hooks_agents_explain_hook", "hook:"),
        ("claude_hooks_agents_explain_subagent", "subagent:"),
    ] {
        let explain = output(
            tmp.path(),
            &[&["explain", &id(&check, kind), "repo"][..], &harnesses].concat(),
        );
        insta::assert_snapshot!(name, explain);
    }
    let old = [
        "--harness",
        "claude-code",
        "--harness",
        "copilot",
        "--agent-version",
        "copilot=1.0.24",
    ];
    let old_check = output(tmp.path(), &[&["check", "repo"][..], &old].concat());
    let explain = output(
        tmp.path(),
        &[&["explain", &id(&old_check, "hook:"), "repo"][..], &old].concat(),
    );
    insta::assert_snapshot!("claude_hooks_agents_explain_hook_copilot_1_0_24", explain);
}

/// A machine with one item in every layer local mode reads: the managed
/// policy (`/etc/claude-code/CLAUDE.md`), the user's memory, rules and a
/// skill (the oracle's `claude-memory` home), a plugin installed there
/// (the oracle's `claude-plugins` home), a personal `CLAUDE.local.md`
/// and Codex's user `AGENTS.md`. The directory returned holds `repo`,
/// `home` and `root` (the managed root).
fn machine_with_every_layer() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let (repo, home, root) = (
        t.path().join("repo"),
        t.path().join("home"),
        t.path().join("root"),
    );
    let homes = workspace().join("oracle/homes");
    playbookdiff_testkit::copy_tree(&homes.join("claude-plugins"), &home);
    playbookdiff_testkit::copy_tree(&homes.join("claude-memory"), &home);
    // The recorder writes the home's path where the fixture says `@HOME@`.
    let plugins = home.join(".claude/plugins");
    for file in ["installed_plugins.json", "known_marketplaces.json"] {
        let text = std::fs::read_to_string(plugins.join(file)).unwrap();
        let text = text.replace("@HOME@", home.to_str().unwrap());
        std::fs::write(plugins.join(file), text).unwrap();
    }
    let write = |dir: &Path, rel: &str, text: &str| playbookdiff_testkit::fs::write(dir, rel, text);
    write(
        &home,
        ".claude/skills/standup/SKILL.md",
        "---\nname: standup\ndescription: Standup notes.\n---\nSteps.\n",
    );
    write(&home, ".codex/AGENTS.md", "Be brief.\n");
    write(&root, "etc/claude-code/CLAUDE.md", "Company policy.\n");
    git(&repo_dir(&repo), &["init", "-q", "-b", "main"]);
    write(&repo, "AGENTS.md", "# Project\n\nUse tabs.\n");
    write(&repo, "CLAUDE.md", "@AGENTS.md\n");
    write(&repo, "CLAUDE.local.md", "My own notes.\n");
    t
}

/// `dir`, created.
fn repo_dir(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    dir.to_path_buf()
}

/// The view in local mode marks each item with its layer, as `compile`
/// does (`startup (user)`, `(local)`, `(managed)`, `(plugin)`), says what
/// each mark means under the table, and fits 80 columns: with three
/// harnesses (a column each) and with all six (shared cells). Repo mode
/// on the same repository marks nothing.
#[test]
fn the_view_in_local_mode_marks_each_items_layer() {
    let t = machine_with_every_layer();
    let local = [
        "--mode",
        "local",
        "--home",
        "home",
        "--managed-root",
        "root",
    ];
    let three = [
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ];
    let columns = output(t.path(), &[&["repo"][..], &local, &three].concat());
    let shared = output(t.path(), &[&["repo"][..], &local].concat());
    for (name, text) in [("local_view_three", &columns), ("local_view_six", &shared)] {
        for layer in ["user", "local", "managed", "plugin"] {
            assert!(
                text.contains(&format!("startup ({layer}")),
                "{name}: {layer}\n{text}"
            );
            assert!(
                text.contains(&format!("({layer}) = ")),
                "{name}: {layer}\n{text}"
            );
        }
        let wide: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
        assert!(wide.is_empty(), "{name}: {wide:?}");
        insta::assert_snapshot!(name, text);
    }
    // Each row's mark is its own item's layer.
    let row = |label: &str| {
        columns
            .lines()
            .find(|l| l.get(2..).is_some_and(|l| l.starts_with(label)))
            .unwrap_or_else(|| panic!("no row {label}: {columns}"))
    };
    assert!(row("/etc/…/CLAUDE.md").contains("startup (managed)"));
    assert!(row("CLAUDE.local.md").contains("startup (local)"));
    assert!(row("tools:lint").contains("startup (plugin)"));
    assert!(row("standup").contains("startup (user)"));
    assert!(row("AGENTS.md").contains("startup (import)"));
    let repo = output(
        t.path(),
        &["repo", "--harness", "claude-code", "--harness", "codex"],
    );
    for layer in ["user", "local", "managed", "plugin"] {
        assert!(!repo.contains(&format!("({layer}")), "{layer}\n{repo}");
    }
}

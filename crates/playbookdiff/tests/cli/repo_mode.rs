//! What repo mode reads in a git work tree: tracked files and untracked
//! files no ignore rule matches, never an ignored file; local mode reads
//! the working tree whole. Needs the `git` command.

use assert_cmd::Command;

use playbookdiff_testkit::corpus::git;

use playbookdiff_testkit::fs::write;

fn json(args: &[&str]) -> serde_json::Value {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn launch_dirs(v: &serde_json::Value) -> Vec<String> {
    v["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["cwd"].as_str().unwrap().to_string())
        .collect()
}

/// A repository whose `node_modules` holds a vendored CLAUDE.md, with a
/// personal CLAUDE.local.md, both git-ignored, and a tracked file inside
/// an ignored folder.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".gitignore",
        "node_modules/\nCLAUDE.local.md\nvendor/\n",
    );
    write(root, "CLAUDE.md", "Use pnpm.\n");
    write(root, "AGENTS.md", "Use pnpm.\n");
    write(root, "CLAUDE.local.md", "My notes.\n");
    write(
        root,
        "node_modules/foo/CLAUDE.md",
        "Vendored instructions.\n",
    );
    write(root, "vendor/kit/AGENTS.md", "Tracked though ignored.\n");
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["add", "-f", "vendor/kit/AGENTS.md"]);
    dir
}

#[test]
fn an_ignored_folder_gives_no_launch_directory_and_no_finding_in_repo_mode() {
    let dir = fixture();
    let repo = dir.path().to_str().unwrap();
    let v = json(&["check", repo, "--all-dirs", "--format", "json"]);
    let dirs = launch_dirs(&v);
    assert!(!dirs.iter().any(|d| d.contains("node_modules")), "{dirs:?}");
    // Tracked though ignored: git would commit it, so repo mode reads it.
    assert!(dirs.contains(&"vendor/kit".to_string()), "{dirs:?}");
    assert!(!v.to_string().contains("node_modules"));

    // Local mode reads the working tree as the agent does.
    let v = json(&[
        "check",
        repo,
        "--all-dirs",
        "--mode",
        "local",
        "--format",
        "json",
    ]);
    let dirs = launch_dirs(&v);
    assert!(dirs.contains(&"node_modules/foo".to_string()), "{dirs:?}");
    let has_vendored_finding = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f.to_string().contains("node_modules/foo/CLAUDE.md"));
    assert!(has_vendored_finding);
}

#[test]
fn an_ignored_personal_file_is_still_reported_unavailable_in_repo_mode() {
    let dir = fixture();
    let repo = dir.path().to_str().unwrap();
    let v = json(&[
        "compile",
        repo,
        "--harness",
        "claude-code",
        "--format",
        "json",
    ]);
    let local = v["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["source"]["path"] == "CLAUDE.local.md")
        .expect("CLAUDE.local.md is listed");
    assert_eq!(local["applicability"], "unavailable");
    assert!(v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == "local-config-unavailable"));
    // A git work tree with a readable index: no assumption about the rule.
    assert!(!v["assumptions"].to_string().contains("Not a git work tree"));
}

#[test]
fn a_directory_that_is_not_a_git_work_tree_reads_everything_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "node_modules/\n");
    write(root, "CLAUDE.md", "Use pnpm.\n");
    write(
        root,
        "node_modules/foo/CLAUDE.md",
        "Vendored instructions.\n",
    );
    let repo = root.to_str().unwrap();
    let v = json(&["check", repo, "--all-dirs", "--format", "json"]);
    assert!(launch_dirs(&v).contains(&"node_modules/foo".to_string()));
    let v = json(&["compile", repo, "--harness", "codex", "--format", "json"]);
    assert!(
        v["assumptions"].to_string().contains("Not a git work tree"),
        "{}",
        v["assumptions"]
    );
    let v = json(&[
        "compile",
        repo,
        "--harness",
        "codex",
        "--mode",
        "local",
        "--format",
        "json",
    ]);
    assert!(!v["assumptions"].to_string().contains("Not a git work tree"));
}

//! `playbookdiff compile` leaves the analysed tree byte-identical: contents,
//! modification times, symbolic link targets and permissions of every
//! entry, and no entry added or removed, for both harnesses and both modes.

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// What is recorded of one entry; links are not followed. Access times are
/// left out: reading a file may update them, and that is not a write.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    kind: &'static str,
    mode: u32,
    mtime: (i64, i64),
    ctime: (i64, i64),
    content: Vec<u8>,
    link_target: Option<PathBuf>,
}

/// Every entry under `root` (itself included), by path relative to it.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        let md = std::fs::symlink_metadata(&path).unwrap();
        let ft = md.file_type();
        let (kind, content, link_target) = if ft.is_symlink() {
            ("link", Vec::new(), Some(std::fs::read_link(&path).unwrap()))
        } else if ft.is_dir() {
            let mut names: Vec<_> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            names.sort();
            stack.extend(names);
            ("dir", Vec::new(), None)
        } else if ft.is_file() {
            ("file", std::fs::read(&path).unwrap(), None)
        } else {
            ("other", Vec::new(), None)
        };
        let rel = path.strip_prefix(root).unwrap().to_path_buf();
        out.insert(
            rel,
            Entry {
                kind,
                mode: md.permissions().mode(),
                mtime: (md.mtime(), md.mtime_nsec()),
                ctime: (md.ctime(), md.ctime_nsec()),
                content,
                link_target,
            },
        );
    }
    out
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A repository with everything the adapters read or must leave alone:
/// local files, settings with secrets, links inside, outside, dangling and
/// looping, read-only and executable files, `.git`.
fn hostile_repository(repo: &Path, outside: &Path) {
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(repo, ".git/HEAD", "ref: refs/heads/main\n");
    write(repo, "CLAUDE.md", "# Root\n\n@AGENTS.md\n@docs/guide.md\n");
    write(repo, "AGENTS.md", "# Agents\n\nUse pnpm.\n");
    write(repo, "AGENTS.override.md", "# Override\n");
    write(repo, "CLAUDE.local.md", "# Mine\n\n@~/notes.md\n");
    write(repo, "docs/guide.md", "Guide.\n");
    write(
        repo,
        ".claude/settings.json",
        r#"{"enabledMcpjsonServers": ["api"], "claudeMdExcludes": ["**/legacy/**"]}"#,
    );
    write(
        repo,
        ".claude/settings.local.json",
        r#"{"disabledMcpjsonServers": ["api"], "env": {"TOKEN": "local-secret"}}"#,
    );
    write(
        repo,
        ".claude/rules/api.md",
        "---\npaths: [\"apps/api/**\"]\n---\nAPI rule.\n",
    );
    write(
        repo,
        ".claude/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploy.\n---\nSteps.\n",
    );
    write(
        repo,
        ".mcp.json",
        r#"{"mcpServers": {"api": {"command": "npx", "args": ["srv"], "env": {"KEY": "sk-1"}}}}"#,
    );
    write(
        repo,
        ".codex/config.toml",
        "[mcp_servers.api]\ncommand = \"npx\"\nenv = { KEY = \"sk-2\" }\n",
    );
    write(
        repo,
        ".agents/skills/lint/SKILL.md",
        "---\nname: lint\ndescription: Lint.\n---\n",
    );
    write(repo, "apps/api/CLAUDE.md", "API.\n");
    write(repo, "apps/api/AGENTS.md", "API agents.\n");
    write(repo, "apps/api/CLAUDE.local.md", "Local API notes.\n");
    write(repo, "apps/api/src/main.ts", "export {};\n");
    write(repo, "packages/legacy/CLAUDE.md", "Legacy.\n");
    write(repo, "scripts/run.sh", "#!/bin/sh\n");
    std::fs::set_permissions(
        repo.join("scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::set_permissions(
        repo.join("AGENTS.md"),
        std::fs::Permissions::from_mode(0o444),
    )
    .unwrap();
    write(outside, "secret.md", "outside the repository\n");
    symlink("AGENTS.md", repo.join("apps/CLAUDE.md")).unwrap();
    symlink("../.claude/skills", repo.join(".agents/linked-skills")).unwrap();
    symlink(
        "../../.claude/skills/deploy",
        repo.join(".agents/skills/deploy"),
    )
    .unwrap();
    symlink(outside.join("secret.md"), repo.join("docs/outside.md")).unwrap();
    symlink("nowhere.md", repo.join("docs/dangling.md")).unwrap();
    symlink("loop-b", repo.join("docs/loop-a")).unwrap();
    symlink("loop-a", repo.join("docs/loop-b")).unwrap();
    symlink("/", repo.join("slash")).unwrap();
}

/// Runs every harness × mode × format from the root and from `cwd`, with
/// and without `target`, and asserts status 0 each time.
fn compile_everything(repo: &Path, cwd: &str, target: &str) {
    for harness in ["claude-code", "codex"] {
        for mode in ["repo", "local"] {
            for format in ["text", "json"] {
                for extra in [
                    vec![],
                    vec!["--cwd", cwd],
                    vec!["--cwd", cwd, "--target", target],
                ] {
                    Command::cargo_bin("playbookdiff")
                        .unwrap()
                        .arg("compile")
                        .arg(repo)
                        .args(["--harness", harness, "--mode", mode, "--format", format])
                        .args(home_for(mode))
                        .args(&extra)
                        .assert()
                        .success();
                }
            }
        }
    }
}

fn assert_unchanged(before: &BTreeMap<PathBuf, Entry>, after: &BTreeMap<PathBuf, Entry>) {
    let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    let removed: Vec<_> = before.keys().filter(|k| !after.contains_key(*k)).collect();
    assert!(added.is_empty(), "entries added: {added:?}");
    assert!(removed.is_empty(), "entries removed: {removed:?}");
    for (path, entry) in before {
        assert_eq!(entry, &after[path], "{} changed", path.display());
    }
}

#[test]
fn compiling_the_example_repository_changes_nothing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/monorepo");
    let before = snapshot(&root);
    assert!(before.len() > 20, "{}", before.len());
    compile_everything(&root, "apps/api", "apps/api/src/routes/users.ts");
    // Default REPO discovery from inside the tree, too.
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(root.join("apps/api"))
        .args([
            "compile",
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
        ])
        .assert()
        .success();
    assert_unchanged(&before, &snapshot(&root));
}

#[test]
fn compiling_a_tree_with_links_local_files_and_secrets_changes_nothing() {
    // The repository and a directory outside it, side by side in one
    // temporary directory that is snapshotted whole, so a file written next
    // to the repository is caught too.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let outside = dir.path().join("outside");
    hostile_repository(&repo, &outside);
    let before = snapshot(dir.path());
    assert!(before.values().filter(|e| e.kind == "link").count() >= 7);
    compile_everything(&repo, "apps/api", "apps/api/src/main.ts");
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(repo.join("apps/api"))
        .args([
            "compile",
            "--harness",
            "codex",
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
        ])
        .assert()
        .success();
    assert_unchanged(&before, &snapshot(dir.path()));
}

#[test]
fn compiling_with_outside_root_changes_nothing_above_the_root() {
    // Claude Code's files in the directory above the repository, with a
    // FIFO where a rule would be and a link where CLAUDE.local.md would be
    // (neither is opened); the whole temporary directory is snapshotted.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let outside = dir.path().join("outside");
    hostile_repository(&repo, &outside);
    write(dir.path(), "CLAUDE.md", "Above.\n\n@outside/secret.md\n");
    write(dir.path(), ".claude/rules/above.md", "Above rule.\n");
    write(
        dir.path(),
        ".mcp.json",
        r#"{"mcpServers": {"above": {"command": "above", "env": {"KEY": "sk-3"}}}}"#,
    );
    playbookdiff_testkit::fs::fifo(dir.path(), ".claude/rules/pipe.md");
    symlink(
        outside.join("secret.md"),
        dir.path().join("CLAUDE.local.md"),
    )
    .unwrap();
    // Links the view follows (as Claude Code does), bounded: one to a FIFO
    // (opening it would block until the timeout), a loop of two links, a
    // rules subdirectory linking back to its own `.claude` (listed once),
    // and the repository's own `.claude/CLAUDE.md` leaving it for the FIFO.
    playbookdiff_testkit::fs::fifo(dir.path(), "pipe");
    symlink(
        dir.path().join("pipe"),
        dir.path().join(".claude/CLAUDE.md"),
    )
    .unwrap();
    symlink("loop-b.md", dir.path().join(".claude/rules/loop-a.md")).unwrap();
    symlink("loop-a.md", dir.path().join(".claude/rules/loop-b.md")).unwrap();
    symlink("..", dir.path().join(".claude/rules/back")).unwrap();
    std::fs::create_dir_all(repo.join(".claude")).unwrap();
    symlink("../../pipe", repo.join(".claude/CLAUDE.md")).unwrap();
    let before = snapshot(dir.path());
    for outside_root in [true, false] {
        for extra in [
            vec!["compile", "--harness", "claude-code"],
            vec!["compile", "--harness", "claude-code", "--format", "json"],
            vec![
                "compile",
                "--harness",
                "claude-code",
                "--agent-version",
                "claude-code=2.1.197",
            ],
            vec!["check"],
            vec![],
        ] {
            let out = Command::cargo_bin("playbookdiff")
                .unwrap()
                .args(&extra)
                .arg(&repo)
                .args([
                    "--mode",
                    "local",
                    "--home",
                    playbookdiff_testkit::corpus::empty_home(),
                    "--cwd",
                    "apps/api",
                ])
                .args(outside_root.then_some("--outside-root"))
                // Not a measure of speed: a run blocked on the FIFO would
                // otherwise hang the suite instead of failing it (a run
                // takes well under a second).
                .timeout(std::time::Duration::from_secs(120))
                .output()
                .unwrap();
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{extra:?} {outside_root}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8_lossy(&out.stdout);
            // Without the flag, nothing above the root is named.
            if !outside_root {
                assert!(!text.contains("../CLAUDE.md"), "{extra:?}");
                assert!(!text.contains("Above rule."), "{extra:?}");
            }
        }
    }
    assert_unchanged(&before, &snapshot(dir.path()));
}

/// `--home` of an empty directory for a `--mode local` run, so that it reads
/// no real user layer; nothing for repo mode (which refuses `--home`).
fn home_for(mode: &str) -> Vec<&'static str> {
    match mode {
        "local" => vec!["--home", playbookdiff_testkit::corpus::empty_home()],
        _ => vec![],
    }
}

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
        "--home",
        playbookdiff_testkit::corpus::empty_home(),
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
        "--home",
        playbookdiff_testkit::corpus::empty_home(),
        "--format",
        "json",
    ]);
    assert!(!v["assumptions"].to_string().contains("Not a git work tree"));
}

/// A superproject with AGENTS.md, CLAUDE.md and a skill, and a checked-out
/// submodule `libs/sub` (its `.git` a file into `.git/modules/`, as `git
/// submodule add` and `absorbgitdirs` leave it) with its own AGENTS.md,
/// skill and `src/`.
fn with_submodule() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let skill = |name: &str| format!("---\nname: {name}\ndescription: Use {name}.\n---\nBody.\n");
    write(root, "AGENTS.md", "Super rules.\n");
    write(root, "CLAUDE.md", "Super memory.\n");
    write(
        root,
        ".claude/skills/super-skill/SKILL.md",
        skill("super-skill"),
    );
    write(
        root,
        ".agents/skills/super-agents-skill/SKILL.md",
        skill("super-agents-skill"),
    );
    let sub = root.join("libs/sub");
    write(&sub, "AGENTS.md", "Sub rules.\n");
    write(
        &sub,
        ".claude/skills/sub-skill/SKILL.md",
        skill("sub-skill"),
    );
    write(&sub, "src/x.ts", "export {};\n");
    git(&sub, &["init", "-q", "-b", "main"]);
    git(&sub, &["add", "-A"]);
    git(&sub, &["commit", "-q", "-m", "sub"]);
    git(root, &["init", "-q", "-b", "main"]);
    git(
        root,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            "./libs/sub",
            "libs/sub",
        ],
    );
    git(root, &["submodule", "absorbgitdirs"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "super"]);
    dir
}

/// Repo mode does not read a submodule's files, and launched inside one
/// the agents take it as the project root, so a launch directory in a
/// submodule (its root or deeper) is refused with exit 2 and one line
/// naming the command that analyses it; that command works, as does local
/// mode, where OpenCode and Claude Code see only the submodule's skills.
/// A directory beside the submodule is still analysed.
#[test]
fn a_launch_directory_inside_a_submodule_is_refused_in_repo_mode_with_the_command_to_run() {
    let dir = with_submodule();
    let root = dir.path().to_str().unwrap();
    let run = |args: &[&str]| {
        Command::cargo_bin("playbookdiff")
            .unwrap()
            .env("NO_COLOR", "1")
            .args(args)
            .output()
            .unwrap()
    };
    for (cwd, suggestion) in [
        ("libs/sub", format!("playbookdiff {root}/libs/sub --root")),
        (
            "libs/sub/src",
            format!("playbookdiff {root}/libs/sub --root --cwd src"),
        ),
    ] {
        let out = run(&["check", root, "--cwd", cwd]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cwd}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{cwd}: {err}");
        assert!(err.contains("submodule 'libs/sub'"), "{cwd}: {err}");
        assert!(err.trim_end().ends_with(&suggestion), "{cwd}: {err}");
        assert!(out.stdout.is_empty(), "{cwd}");
    }
    let sub = format!("{root}/libs/sub");
    let v = json(&["check", &sub, "--root", "--format", "json"]);
    assert!(v["findings"].is_array(), "{v:#}");
    json(&["check", root, "--cwd", "libs", "--format", "json"]);

    for harness in ["opencode", "claude-code"] {
        let v = json(&[
            "compile",
            root,
            "--cwd",
            "libs/sub",
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
            "--harness",
            harness,
            "--format",
            "json",
        ]);
        let skills: Vec<&str> = v["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["source"]["path"].as_str().unwrap())
            .collect();
        assert!(
            skills.contains(&"libs/sub/.claude/skills/sub-skill/SKILL.md"),
            "{harness}: {skills:?}"
        );
        // A skill of the agent's own installation (`builtin:NAME`, local
        // mode) comes from no file; every file is the submodule's.
        let mut files = skills.iter().filter(|p| !p.starts_with("builtin:"));
        assert!(
            files.all(|p| p.starts_with("libs/sub/")),
            "{harness}: {skills:?}"
        );
        let startup: Vec<&str> = v["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["loadPhase"] == "startup")
            .map(|i| i["source"]["path"].as_str().unwrap())
            .collect();
        // Claude Code's memory walk goes on up (C4); OpenCode's stops.
        let super_file = if harness == "opencode" {
            "AGENTS.md"
        } else {
            "CLAUDE.md"
        };
        assert_eq!(
            startup.contains(&super_file),
            harness == "claude-code",
            "{harness}: {startup:?}"
        );
    }
}

/// A submodule that repo mode does not read is reported once per harness
/// as `submodule-not-analysed`, an `info` limit of the analysis, never as
/// a problem of the repository: it fails neither `check` nor `check
/// --all-dirs` (which once failed every repository holding a submodule,
/// its "not analysed" note weighed as an unreadable file).
#[test]
fn a_submodule_not_analysed_is_a_limit_that_fails_no_check() {
    let dir = with_submodule();
    let root = dir.path().to_str().unwrap();
    for args in [
        vec!["check", root, "--format", "json"],
        vec!["check", root, "--all-dirs", "--format", "json"],
    ] {
        let v = json(&args);
        let text = v.to_string();
        assert!(text.contains("submodule-not-analysed"), "{args:?}: {v:#}");
        let failing = v["failingProblems"].to_string();
        assert!(!failing.contains("submodule"), "{args:?}: {failing}");
        assert!(!failing.contains("unreadable"), "{args:?}: {failing}");
    }
    let v = json(&["compile", root, "--harness", "codex", "--format", "json"]);
    let codes: Vec<(&str, &str)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["message"].as_str().unwrap().contains("libs/sub"))
        .map(|d| (d["code"].as_str().unwrap(), d["severity"].as_str().unwrap()))
        .collect();
    assert_eq!(codes, [("submodule-not-analysed", "info")], "{v:#}");
}

/// Every text output that has a "Not known to this analysis" section (the
/// view, `check`, `check --all-dirs`) names each submodule it did not
/// read, at 80 and at 40 columns, with the command that analyses one:
/// the `submodule-not-analysed` diagnostic is `info`, so the problem
/// counts never mention it, and it was once visible only in `compile`
/// and JSON.
#[test]
fn the_text_outputs_name_the_submodules_not_read() {
    let dir = with_submodule();
    let root = dir.path().to_str().unwrap();
    for columns in ["80", "40"] {
        for args in [
            vec![root],
            vec!["check", root],
            vec!["check", root, "--all-dirs"],
        ] {
            let out = Command::cargo_bin("playbookdiff")
                .unwrap()
                .args(&args)
                .env("NO_COLOR", "1")
                .env("COLUMNS", columns)
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            let unknown = text
                .split("Not known to this analysis")
                .nth(1)
                .unwrap_or_else(|| panic!("{args:?} at {columns}: no section:\n{text}"));
            let flat = unknown.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat.contains("submodules not read") && flat.contains("`libs/sub`"),
                "{args:?} at {columns}:\n{text}"
            );
            assert!(flat.contains("--root"), "{args:?} at {columns}:\n{text}");
        }
    }
}

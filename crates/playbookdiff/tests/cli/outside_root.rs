//! `--outside-root`: with `--mode local`, the files Claude Code reads above
//! the repository root are read and named with `..`; without local mode or
//! with `--rev` the option is refused in one line; nothing above the root
//! is changed.

use assert_cmd::Command;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A temporary directory holding Claude Code files and `repo/`, the
/// repository (a git work tree with one commit, for `--rev`).
fn parent_and_repository() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    write(p, "CLAUDE.md", "Above the repository\n");
    write(p, ".claude/rules/above.md", "Above: a rule\n");
    write(
        p,
        ".mcp.json",
        r#"{"mcpServers": {"above": {"command": "above-server", "env": {"TOKEN": "sk-above-secret"}}}}"#,
    );
    write(p, "repo/CLAUDE.md", "Repository\n");
    write(p, "repo/pkg/x.ts", "export {};\n");
    std::os::unix::fs::symlink("/etc/hostname", p.join("CLAUDE.local.md")).unwrap();
    t
}

fn pbd(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(args)
        .assert()
}

#[test]
fn outside_root_reads_the_files_above_and_says_where_they_are() {
    let t = parent_and_repository();
    let repo = t.path().join("repo");
    let repo = repo.to_str().unwrap();
    let base = [
        "compile",
        repo,
        "--harness",
        "claude-code",
        "--mode",
        "local",
        "--home",
        playbookdiff_testkit::corpus::empty_home(),
    ];

    let out = pbd(&[&base[..], &["--outside-root", "--format", "json"]].concat()).success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let paths: Vec<(&str, bool)> = json["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["source"]["path"].as_str().unwrap(),
                i["source"]["outsideRoot"].as_bool().unwrap_or(false),
            )
        })
        .filter(|(p, _)| !p.starts_with("../../"))
        .collect();
    assert_eq!(
        paths,
        [
            ("../CLAUDE.md", true),
            ("../.claude/rules/above.md", true),
            ("CLAUDE.md", false)
        ]
    );
    let servers = json["mcpServers"].as_array().unwrap();
    assert!(servers
        .iter()
        .any(|s| s["name"] == "above" && s["source"]["path"] == "../.mcp.json"));
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(!text.contains("sk-above-secret"));
    assert!(!text.contains(&*t.path().to_string_lossy()), "{text}");
    // The link above the root is reported, not followed.
    assert!(text.contains("../CLAUDE.local.md"), "{text}");
    assert!(!text.contains("outside-root-unseen"));

    let out = pbd(&[&base[..], &["--outside-root"]].concat()).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("../CLAUDE.md:1 (above root)"), "{text}");

    // Without the flag: nothing above is named, and the result says so.
    let out = pbd(&[&base[..], &["--format", "json"]].concat()).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(!text.contains("../CLAUDE.md"));
    assert!(text.contains("outside-root-unseen"));

    // check, explain and the side-by-side view take it too: Claude Code
    // receives the parent's CLAUDE.md, Codex does not.
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args([
            "check",
            repo,
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
            "--outside-root",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f.to_string().contains("../CLAUDE.md"))
        .expect("a finding about ../CLAUDE.md")["id"]
        .as_str()
        .unwrap()
        .to_string();
    for cmd in [
        vec![
            "check",
            repo,
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
            "--outside-root",
        ],
        vec![
            "explain",
            &id,
            repo,
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
            "--outside-root",
        ],
        vec![
            repo,
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
            "--outside-root",
        ],
    ] {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(&cmd)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("../CLAUDE.md"), "{cmd:?}: {text}");
    }
}

#[test]
fn outside_root_needs_local_mode_and_a_working_tree() {
    let t = parent_and_repository();
    let repo = t.path().join("repo");
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&repo)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "one"]);
    let repo = repo.to_str().unwrap();
    for (args, says) in [
        (vec!["compile", repo, "--outside-root"], "--mode local"),
        (
            vec!["check", repo, "--outside-root", "--mode", "repo"],
            "--mode local",
        ),
        (
            vec![
                "compile",
                repo,
                "--outside-root",
                "--mode",
                "local",
                "--home",
                playbookdiff_testkit::corpus::empty_home(),
                "--rev",
                "HEAD",
            ],
            "--rev",
        ),
    ] {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("--outside-root") && err.contains(says),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}

/// A skill folder linked out of the repository (case
/// `oracle.skill_link_outside`): Claude Code, Codex and OpenCode all
/// follow the link and load the skill. Each adapter, in repo mode and with
/// `--mode local --outside-root` (where the link's target lies in the
/// directories above the root), says so in one `symlink-outside-repository`
/// warning per link naming the link, and none says the agent does not load
/// it (`not-a-regular-file`), or says nothing.
#[test]
fn a_skill_folder_linked_outside_is_said_to_be_loaded_by_every_adapter_in_every_mode() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    write(
        p,
        "outside/ext/SKILL.md",
        "---\nname: ext\ndescription: Outside.\n---\nBody.\n",
    );
    write(p, "repo/AGENTS.md", "Rules.\n");
    let repo = p.join("repo");
    for root in [".claude/skills", ".agents/skills"] {
        std::fs::create_dir_all(repo.join(root)).unwrap();
        std::os::unix::fs::symlink("../../../outside/ext", repo.join(root).join("ext")).unwrap();
    }
    let repo = repo.to_str().unwrap();
    let cases = [
        ("claude-code", vec![".claude/skills/ext"]),
        ("codex", vec![".agents/skills/ext"]),
        ("opencode", vec![".agents/skills/ext", ".claude/skills/ext"]),
    ];
    for (harness, links) in cases {
        for mode in [
            &["--mode", "repo"][..],
            &[
                "--mode",
                "local",
                "--home",
                playbookdiff_testkit::corpus::empty_home(),
                "--outside-root",
            ],
        ] {
            let out = Command::cargo_bin("playbookdiff")
                .unwrap()
                .args([
                    "compile",
                    repo,
                    "--root",
                    "--harness",
                    harness,
                    "--format",
                    "json",
                ])
                .args(mode)
                .output()
                .unwrap();
            assert!(out.status.success(), "{harness} {mode:?}");
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let about_ext: Vec<(&str, &str)> = v["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| (d["code"].as_str().unwrap(), d["message"].as_str().unwrap()))
                .filter(|(_, m)| m.contains("/ext`"))
                .collect();
            let mut warned: Vec<&str> = links
                .iter()
                .copied()
                .filter(|l| {
                    about_ext.iter().any(|(c, m)| {
                        *c == "symlink-outside-repository"
                            && m.contains(&format!("`{l}` points outside"))
                            && m.contains("the agent follows it")
                    })
                })
                .collect();
            warned.sort();
            assert_eq!(warned, links, "{harness} {mode:?}: {about_ext:#?}");
            assert!(
                about_ext.iter().all(
                    |(c, m)| *c == "symlink-outside-repository" && !m.contains("does not load")
                ),
                "{harness} {mode:?}: {about_ext:#?}"
            );
        }
    }
}

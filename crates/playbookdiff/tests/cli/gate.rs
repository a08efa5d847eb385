//! What fails `check` and what it advises: a problem in the repository
//! that makes an agent drop or refuse configuration fails the run by the
//! rule `diff` applies (an error weighs as `high`, a warning as `medium`,
//! a finding with evidence in the same file decides in its place), in
//! every output format and under `--all-dirs`, `--quiet`, `--fail-on` and
//! `--exit-zero`.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn playbookdiff() -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.env_remove("CLICOLOR_FORCE").env("NO_COLOR", "1");
    cmd
}

/// Runs `playbookdiff ARGS` in `dir` (REPO omitted: `dir` holds `.git`);
/// exit status, standard output, standard error.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = playbookdiff().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(dir: &Path, args: &[&str]) -> (i32, Value) {
    let (code, out, err) = run(dir, &[args, &["--format", "json"]].concat());
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, v)
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository every harness reads alike (`CLAUDE.md` imports
/// `AGENTS.md`; no skill, no MCP server): no finding at all, so only a
/// problem in the repository can fail a check.
fn agreeing_repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    write(r, "AGENTS.md", "# Rules\n\nUse pnpm.\n");
    write(r, "CLAUDE.md", "@AGENTS.md\n");
    let (code, v) = json(r, &["check"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v}");
    tmp
}

/// A kind of problem an agent drops or refuses configuration for: how to
/// make it in a repository, its diagnostic code and file, and whether it
/// is an error (it then weighs as `high` and fails `--fail-on high` too).
struct Kind {
    name: &'static str,
    make: fn(&Path),
    code: &'static str,
    file: &'static str,
    error: bool,
}

fn kinds() -> Vec<Kind> {
    let mut v = vec![
        Kind {
            name: "invalid JSON .mcp.json",
            make: |r| write(r, ".mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"},}}\n"),
            code: "invalid-json",
            file: ".mcp.json",
            error: true,
        },
        Kind {
            name: "invalid JSON .claude/settings.json",
            make: |r| write(r, ".claude/settings.json", "{\"permissions\": {,}\n"),
            code: "invalid-json",
            file: ".claude/settings.json",
            error: true,
        },
        Kind {
            name: "directory .mcp.json",
            make: |r| std::fs::create_dir_all(r.join(".mcp.json")).unwrap(),
            code: "not-a-regular-file",
            file: ".mcp.json",
            error: false,
        },
    ];
    if cfg!(unix) {
        v.push(Kind {
            name: "FIFO .codex/config.toml",
            make: |r| playbookdiff_testkit::fs::fifo(r, ".codex/config.toml"),
            code: "not-a-regular-file",
            file: ".codex/config.toml",
            error: true,
        });
    }
    v
}

/// Every kind fails `check` and `check --all-dirs`, says why under
/// `--quiet` (the code and the file), follows `--fail-on high` by its
/// weight, passes under `--exit-zero`, and the JSON's `failing` and
/// `failingProblems` agree with the exit status.
#[test]
fn a_problem_that_drops_configuration_fails_check() {
    for k in kinds() {
        let tmp = agreeing_repo();
        let r = tmp.path();
        (k.make)(r);
        for all in [&[][..], &["--all-dirs"][..]] {
            let with = |more: &[&'static str]| -> Vec<&'static str> {
                [&["check"][..], all, more].concat()
            };
            let what = format!("{} {all:?}", k.name);
            let (code, out, _) = run(r, &with(&[]));
            assert_eq!(code, 1, "{what}: {out}");
            assert!(
                !out.contains("no compatibility divergence detected"),
                "{what}: {out}"
            );
            let (code, quiet, _) = run(r, &with(&["--quiet"]));
            assert_eq!(code, 1, "{what}");
            let result = quiet
                .lines()
                .skip_while(|l| !l.starts_with("Result: "))
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                result.contains(k.code) && result.contains(k.file),
                "{what}: {quiet}"
            );
            let (code, _, _) = run(r, &with(&["--fail-on", "high"]));
            assert_eq!(code, i32::from(k.error), "{what} --fail-on high");
            let (code, out, _) = run(r, &with(&["--exit-zero"]));
            assert_eq!(code, 0, "{what} --exit-zero: {out}");
            let (code, out, _) = run(r, &with(&["--exit-zero", "--quiet"]));
            assert_eq!((code, out.as_str()), (0, ""), "{what}");
            let (code, v) = json(r, &with(&[]));
            assert_eq!(code, 1, "{what}");
            assert_eq!(v["failing"], 1, "{what}: {v}");
            let p = &v["failingProblems"][0];
            assert_eq!(p["code"], k.code, "{what}: {v}");
            assert_eq!(p["source"]["path"], k.file, "{what}: {v}");
            let (code, v) = json(r, &with(&["--exit-zero"]));
            assert_eq!((code, &v["failing"]), (0, &Value::from(0)), "{what}");
            assert!(v.get("failingProblems").is_none(), "{what}: {v}");
            for format in ["github", "gitlab", "sarif", "markdown"] {
                let (code, out, _) = run(r, &with(&["--format", format]));
                assert_eq!(code, 1, "{what} {format}");
                assert!(out.contains(k.code), "{what} {format}: {out}");
            }
        }
    }
}

/// A problem about a file that a finding has evidence in is decided by
/// that finding, as in `diff`: an invalid `.codex/config.toml` makes
/// Codex refuse to start (a `high` finding, at that file), and accepting
/// that finding passes the run; the problems are not counted again.
#[test]
fn a_finding_at_the_problems_file_decides_for_it() {
    let tmp = agreeing_repo();
    let r = tmp.path();
    write(r, ".codex/config.toml", "model = \n");
    let (code, v) = json(r, &["check"]);
    assert_eq!(code, 1);
    let refused: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["category"] == "agent")
        .collect();
    assert_eq!(refused.len(), 1, "{v}");
    assert_eq!(v["failing"], 1, "the finding alone: {v}");
    assert!(v.get("failingProblems").is_none(), "{v}");
    let id = refused[0]["id"].as_str().unwrap();
    let (code, _, err) = run(r, &["check", "--accept", id, "--reason", "known"]);
    assert_eq!(code, 0, "{err}");
    for all in [&[][..], &["--all-dirs"][..]] {
        let (code, out, _) = run(r, &[&["check"][..], all].concat());
        assert_eq!(code, 0, "{all:?}: {out}");
    }
}

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

/// A repository every harness reads alike (`CLAUDE.md` and `GEMINI.md`
/// import `AGENTS.md`; no skill, no MCP server): no finding at all, so
/// only a problem in the repository can fail a check.
fn agreeing_repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    write(r, "AGENTS.md", "# Rules\n\nUse pnpm.\n");
    write(r, "CLAUDE.md", "@AGENTS.md\n");
    write(r, "GEMINI.md", "@AGENTS.md\n");
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
    vec![
        Kind {
            name: "invalid JSON .mcp.json",
            make: |r| {
                write(
                    r,
                    ".mcp.json",
                    "{\"mcpServers\": {\"a\": {\"command\": \"x\"},}}\n",
                )
            },
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
    ]
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

/// A project `.codex/config.toml` that Codex cannot read, a directory or
/// (on Unix) a FIFO, stops Codex as an invalid one does: `check` gives
/// the one `high` `agent` `refused` finding at that file ("Codex would
/// not start"), which decides the run for the file's problem, in the text
/// and JSON outputs and under `--all-dirs`.
#[test]
fn a_config_toml_that_is_not_a_regular_file_is_a_would_not_start_finding() {
    type Make = fn(&Path);
    let mut makes: Vec<(&str, Make)> = vec![("directory", |r| {
        std::fs::create_dir_all(r.join(".codex/config.toml")).unwrap()
    })];
    if cfg!(unix) {
        makes.push(("FIFO", |r| {
            playbookdiff_testkit::fs::fifo(r, ".codex/config.toml")
        }));
    }
    for (what, make) in makes {
        let tmp = agreeing_repo();
        let r = tmp.path();
        make(r);
        for all in [&[][..], &["--all-dirs"][..]] {
            let args = [&["check"][..], all].concat();
            let (code, v) = json(r, &args);
            assert_eq!(code, 1, "{what} {all:?}: {v}");
            let refused: Vec<&Value> = v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["category"] == "agent")
                .collect();
            assert_eq!(refused.len(), 1, "{what} {all:?}: {v}");
            assert_eq!(refused[0]["type"], "refused", "{what}: {v}");
            assert_eq!(refused[0]["severity"], "high", "{what}: {v}");
            assert_eq!(refused[0]["absentFrom"][0], "codex", "{what}: {v}");
            assert!(v.to_string().contains(".codex/config.toml"), "{what}: {v}");
            assert!(v.get("failingProblems").is_none(), "{what}: {v}");
            let (code, out, _) = run(r, &args);
            assert_eq!(code, 1, "{what} {all:?}");
            assert!(
                out.contains("Codex would not start"),
                "{what} {all:?}: {out}"
            );
        }
    }
}

/// A repository with two launch directories below the root, `apps/a` and
/// `apps/b`, each with a `CLAUDE.md` of its own that Codex does not
/// receive: one difference, a finding of its own in each directory (and
/// others at the root, where Claude Code loads both on demand). Claude
/// Code and Codex compared, as `playbookdiff.toml` says below its comment.
fn two_launch_directories() -> tempfile::TempDir {
    let tmp = agreeing_repo();
    let r = tmp.path();
    write(
        r,
        "playbookdiff.toml",
        "# Team policy: keep this comment\nharnesses = [\"claude-code\", \"codex\"]\n",
    );
    for d in ["apps/a", "apps/b"] {
        write(
            r,
            &format!("{d}/CLAUDE.md"),
            &format!("# {d}\n\nRun make in {d}.\n"),
        );
        write(r, &format!("{d}/main.txt"), "x\n");
    }
    tmp
}

/// The stale entries each format reports: the JSON's `staleAccepted` ids,
/// whether the text says to remove entries, the GitHub notices.
fn stale_everywhere(r: &Path, args: &[&str]) -> (Vec<String>, bool, usize) {
    let (_, v) = json(r, &[&["check"][..], args].concat());
    let ids = v["staleAccepted"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["id"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    let (_, text, _) = run(r, &[&["check"][..], args].concat());
    let (_, github, _) = run(r, &[&["check", "--format", "github"][..], args].concat());
    (
        ids,
        text.contains("no longer found"),
        github.matches("stale accepted finding").count(),
    )
}

/// An entry is stale only when no launch directory it was accepted for
/// still produces it: a check of one directory never calls stale an
/// entry of another directory, in text, JSON and GitHub formats alike;
/// `--all-dirs`, which checks them all, calls stale what none produces.
#[test]
fn a_check_of_one_directory_calls_stale_only_its_own_entries() {
    let tmp = two_launch_directories();
    let r = tmp.path();
    let (_, v) = json(r, &["check", "--cwd", "apps/a"]);
    let id = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .find(|id| id.starts_with("instruction:missing:claude-code-only:apps/a:"))
        .unwrap_or_else(|| panic!("{v}"));
    let (code, out, err) = run(
        r,
        &[
            "check",
            "--all-dirs",
            "--accept",
            id,
            "--reason",
            "per-app notes",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Accepted the 2 findings"), "{out}");
    let toml = std::fs::read_to_string(r.join("playbookdiff.toml")).unwrap();
    assert!(toml.contains("directories = [\"apps/a\"]"), "{toml}");
    assert!(toml.contains("directories = [\"apps/b\"]"), "{toml}");
    let none = (Vec::<String>::new(), false, 0);
    for args in [
        &[][..],
        &["--cwd", "apps/a"],
        &["--cwd", "apps/b"],
        &["--all-dirs"],
    ] {
        assert_eq!(stale_everywhere(r, args), none, "{args:?}");
    }
    for dir in ["apps/a", "apps/b"] {
        let (code, out, _) = run(r, &["check", "--cwd", dir]);
        assert_eq!(code, 0, "{dir}: accepted: {out}");
    }
    // The difference is fixed in apps/a only: its entry is stale from
    // apps/a and for --all-dirs, never from the root or apps/b.
    std::fs::remove_file(r.join("apps/a/CLAUDE.md")).unwrap();
    for args in [&[][..], &["--cwd", "apps/b"]] {
        assert_eq!(stale_everywhere(r, args), none, "{args:?}");
    }
    for args in [&["--cwd", "apps/a"][..], &["--all-dirs"]] {
        let (ids, text, github) = stale_everywhere(r, args);
        assert_eq!(ids.len(), 1, "{args:?}: {ids:?}");
        assert!(ids[0].contains("apps/a"), "{ids:?}");
        assert!(text && github == 1, "{args:?}");
    }
}

/// Accepting an accepted id again replaces its reason and says so, with
/// the old and the new reason; `--format json` answers in JSON; the
/// file keeps its comments and one entry.
#[test]
fn accepting_again_says_which_reason_it_replaced() {
    let tmp = two_launch_directories();
    let r = tmp.path();
    let (_, v) = json(r, &["check", "--cwd", "apps/a"]);
    let id = v["findings"][0]["id"].as_str().unwrap().to_string();
    let accept = |reason: &str, more: &[&str]| {
        let (code, out, err) = run(
            r,
            &[
                &[
                    "check", "--cwd", "apps/a", "--accept", &id, "--reason", reason,
                ][..],
                more,
            ]
            .concat(),
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    let first = accept("old reason", &[]);
    assert!(!first.contains("replaced"), "{first}");
    let second = accept("new reason", &[]);
    assert!(
        second.contains("new reason") && second.contains("now replaced: old reason"),
        "{second}"
    );
    let same = accept("new reason", &[]);
    assert!(same.contains("unchanged"), "{same}");
    let out = accept("newest reason", &["--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["reason"], "newest reason");
    assert_eq!(v["accepted"][0]["id"], id.as_str());
    assert_eq!(v["accepted"][0]["replacedReason"], "new reason");
    assert_eq!(v["accepted"][0]["directories"][0], "apps/a");
    let toml = std::fs::read_to_string(r.join("playbookdiff.toml")).unwrap();
    assert!(
        toml.starts_with("# Team policy: keep this comment\n"),
        "{toml}"
    );
    assert_eq!(toml.matches("[[accepted]]").count(), 1, "{toml}");
    assert!(toml.contains("reason = \"newest reason\""), "{toml}");
}

/// Every harness name `playbookdiff.toml` holds is answered like
/// `--harness`: an unknown one gets the closest id (one line, exit status
/// 2, at its line and column) before any count of the harnesses.
#[test]
fn a_misspelt_harness_in_the_file_gets_the_closest_id() {
    let tmp = agreeing_repo();
    let r = tmp.path();
    let ids: Vec<&str> = playbookdiff_registry::harnesses()
        .iter()
        .map(|h| h.as_str())
        .collect();
    let unknown = format!(
        "1:14: unknown harness `zzzzzzzz`; use one of: {}",
        ids.join(", ")
    );
    let table = [
        (
            "harnesses = [\"claude\"]\n",
            "1:14: unknown harness `claude`; did you mean `claude-code`?",
        ),
        (
            "harnesses = [\"codex\", \"opencod\"]\n",
            "1:23: unknown harness `opencod`; did you mean `opencode`?",
        ),
        (
            "[agent-versions]\nclaude = \"2.1.197\"\n",
            "2:1: unknown harness `claude`; did you mean `claude-code`?",
        ),
        ("harnesses = [\"zzzzzzzz\"]\n", unknown.as_str()),
        (
            "harnesses = [\"codex\"]\n",
            "1:14: `harnesses` names fewer than two harnesses",
        ),
    ];
    for (toml, expected) in table {
        write(r, "playbookdiff.toml", toml);
        for args in [
            &["check"][..],
            &["check", "--all-dirs"],
            &["explain", "x:y:z:w:0123456789ab"],
        ] {
            let (code, out, err) = run(r, args);
            assert_eq!((code, out.as_str()), (2, ""), "{toml} {args:?}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with(&format!("error: playbookdiff.toml:{expected}")),
                "{toml} {args:?}: {err}"
            );
        }
    }
}

/// `check --all-dirs` of a directory that holds no `.git` and a large
/// tree (`cd / && playbookdiff check --all-dirs`) says so in one line on
/// standard error before it walks, and goes on; a git work tree of the
/// same size, or a small directory outside git, gets no such line.
#[test]
fn a_large_walk_outside_git_is_announced() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(r, "AGENTS.md", "# Rules\n");
    write(r, "CLAUDE.md", "@AGENTS.md\n");
    write(r, "GEMINI.md", "@AGENTS.md\n");
    let (code, _, err) = run(r, &["check", "--all-dirs"]);
    assert_eq!((code, err.as_str()), (0, ""), "a small tree");
    // 10,001 entries besides the two files: past the limit.
    for i in 0..100 {
        let d = r.join(format!("d{i:03}"));
        std::fs::create_dir(&d).unwrap();
        for j in 0..100 {
            std::fs::write(d.join(format!("f{j:03}")), "").unwrap();
        }
    }
    let (code, out, err) = run(r, &["check", "--all-dirs"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: '") && err.contains("holds no .git and more than 10000 entries"),
        "{err}"
    );
    assert!(out.contains("Result: "), "it goes on: {out}");
    // Only --all-dirs walks it all.
    let (_, _, err) = run(r, &["check"]);
    assert_eq!(err, "");
    std::fs::create_dir(r.join(".git")).unwrap();
    let (_, _, err) = run(r, &["check", "--all-dirs"]);
    assert_eq!(err, "", "a git work tree");
}

/// When most findings and problems come from test fixtures, the text
/// report is followed by one line on standard error with the exact
/// `exclude` line to add; once added, the fixtures are left out and the
/// line is gone. Other formats and a repository whose findings are its
/// own get no such line.
#[test]
fn fixtures_suggest_the_exclude_line() {
    let tmp = agreeing_repo();
    let r = tmp.path();
    for case in ["a", "b", "c"] {
        write(
            r,
            &format!("tests/fixtures/{case}/CLAUDE.md"),
            &format!("# Fixture {case}\n\nClaude only.\n"),
        );
    }
    for all in [&[][..], &["--all-dirs"]] {
        let (code, _, err) = run(r, &[&["check"][..], all].concat());
        assert_eq!(code, 1, "{all:?}");
        assert_eq!(err.lines().count(), 1, "{all:?}: {err}");
        assert!(
            err.starts_with("note: ")
                && err
                    .trim_end()
                    .ends_with("add to playbookdiff.toml: exclude = [\"tests/fixtures/\"]"),
            "{all:?}: {err}"
        );
        let (_, _, err) = run(r, &[&["check", "--format", "json"][..], all].concat());
        assert_eq!(err, "", "{all:?}");
    }
    write(r, "playbookdiff.toml", "exclude = [\"tests/fixtures/\"]\n");
    let (code, out, err) = run(r, &["check", "--all-dirs"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    // The repository's own differences: no suggestion.
    std::fs::remove_file(r.join("playbookdiff.toml")).unwrap();
    for d in ["apps/a", "apps/b", "apps/c", "apps/d"] {
        write(
            r,
            &format!("{d}/CLAUDE.md"),
            &format!("# {d}\n\nClaude only in {d}.\n"),
        );
    }
    let (code, _, err) = run(r, &["check"]);
    assert_eq!((code, err.as_str()), (1, ""));
}

/// `check --help` names every severity, `high` included, and says a
/// problem in the repository fails the run too.
#[test]
fn check_help_names_every_severity() {
    let (code, out, _) = run(Path::new("."), &["check", "--help"]);
    assert_eq!(code, 0);
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        "high:",
        "medium:",
        "low:",
        "info:",
        "a problem in the repository",
    ] {
        assert!(flat.contains(s), "{s}: {out}");
    }
}

/// The commands a report suggests quote each path so that a shell reads
/// it back: a newline or a tab in `--target` is written `$'a\nb'` (one
/// line, no raw control character), a quote or `$` quoted as `shlex`
/// quotes them.
#[test]
fn suggested_commands_reproduce_hostile_paths() {
    let tmp = two_launch_directories();
    let r = tmp.path();
    for (target, word) in [
        ("a\nb", "--target $'a\\nb'"),
        ("a\tb", "--target $'a\\tb'"),
        ("it's $HOME", "--target \"it's \"'$HOME'"),
        ("`id`", "--target '`id`'"),
    ] {
        let (_, out, err) = run(r, &["check", "--cwd", "apps/a", "--target", target]);
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(word), "{target:?}: {err} {out}");
    }
}

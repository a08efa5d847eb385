//! The team workflow: `playbookdiff.toml` (harnesses, exclude, fail-on,
//! accepted findings), `--accept`, `--fail-on`, `--exit-zero`, `--quiet`,
//! and the forge formats (SARIF validated against the official SARIF
//! 2.1.0 schema, GitHub workflow commands, GitLab Code Quality) on the
//! example repository and on repositories of the shared corpus.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn playbookdiff() -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.env_remove("CLICOLOR_FORCE").env("NO_COLOR", "1");
    cmd
}

/// The fixtures and the example lie inside this project's git work tree:
/// `--root` analyses each as a repository of its own (without it, REPO
/// would be a launch directory within the project).
fn own_root<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    if !args
        .iter()
        .any(|a| *a == "--help" || *a == "diff" || *a == "--root")
    {
        v.push("--root");
    }
    v
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = playbookdiff().args(own_root(args)).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `check --all-dirs REPO --accept ID --reason REASON`, which must exit 0;
/// its standard output.
fn accept_all_dirs(repo: &str, id: &str, reason: &str) -> String {
    let (code, out, err) = run(&[
        "check",
        repo,
        "--all-dirs",
        "--accept",
        id,
        "--reason",
        reason,
    ]);
    assert_eq!(code, 0, "{err}");
    // Wrapped to 80 columns: read word by word.
    flat(&out)
}

fn json(args: &[&str]) -> (i32, Value) {
    let (code, out, err) = run(args);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}")),
    )
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository whose root `CLAUDE.md` Codex does not receive, with a
/// skill and two MCP servers only Claude Code has, and a fixture
/// directory holding configuration of its own.
fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    write(r, "CLAUDE.md", "# Rules\n\nUse tabs.\n\nRun the tests.\n");
    write(r, "AGENTS.md", "# Codex\n\nOther words.\n");
    write(
        r,
        ".claude/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploys the app\n---\nSteps.\n",
    );
    write(
        r,
        ".mcp.json",
        r#"{"mcpServers": {"db": {"command": "db-server"}, "search": {"command": "search-server"}}}"#,
    );
    write(
        r,
        "tests/fixtures/case/CLAUDE.md",
        "# Fixture\n\nOnly for tests.\n",
    );
    write(
        r,
        "tests/fixtures/case/AGENTS.md",
        "# Different\n\nFixture.\n",
    );
    tmp
}

fn ids(v: &Value) -> Vec<String> {
    let mut ids: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

#[test]
fn accepting_a_finding_keeps_it_reported_and_passes_the_run() {
    let tmp = repo();
    let r = s(tmp.path());
    let (code, v) = json(&["check", r, "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(v["failOn"], "medium");
    let actionable: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["actionable"] == true)
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect();
    assert!(actionable.len() >= 3, "{v}");
    assert_eq!(v["failing"].as_u64().unwrap() as usize, actionable.len());

    // An existing file with comments: they survive.
    let header = "# Team policy\nfail-on = \"medium\" # keep\n";
    write(tmp.path(), "playbookdiff.toml", header);
    for id in &actionable {
        let (code, out, err) = run(&[
            "check",
            r,
            "--accept",
            id,
            "--reason",
            "intended, see ADR 7",
        ]);
        assert_eq!(code, 0, "{err}");
        // Wrapped to 80 columns: compared word by word.
        assert_eq!(
            flat(&out),
            format!("Accepted {id} in {r}/playbookdiff.toml: intended, see ADR 7")
        );
    }
    let text = std::fs::read_to_string(tmp.path().join("playbookdiff.toml")).unwrap();
    assert!(text.starts_with(header), "{text}");
    assert_eq!(text.matches("[[accepted]]").count(), actionable.len());

    // Reported and counted, not failing.
    let (code, v) = json(&["check", r, "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["failing"], 0);
    assert_eq!(
        v["summary"]["accepted"].as_u64().unwrap() as usize,
        actionable.len()
    );
    assert_eq!(
        v["summary"]["medium"].as_u64().unwrap() as usize,
        actionable.len(),
        "accepted findings are still counted by severity"
    );
    for f in v["findings"].as_array().unwrap() {
        if f["actionable"] == true {
            assert_eq!(f["accepted"]["reason"], "intended, see ADR 7", "{f}");
        }
    }
    let (code, out, _) = run(&["check", r]);
    assert_eq!(code, 0);
    let out = flat(&out);
    assert!(out.contains("accepted intended, see ADR 7"), "{out}");
    assert!(
        out.contains(&format!("({} accepted)", actionable.len())),
        "{out}"
    );
    assert!(out.contains("do not fail the run"), "{out}");

    // Fixing one difference leaves a stale entry, reported.
    std::fs::remove_dir_all(tmp.path().join(".claude/skills")).unwrap();
    let (code, v) = json(&["check", r, "--format", "json"]);
    assert_eq!(code, 0);
    let stale = v["staleAccepted"].as_array().unwrap();
    assert_eq!(stale.len(), 1, "{v}");
    assert!(
        stale[0]["id"].as_str().unwrap().starts_with("skill:"),
        "{v}"
    );
    let (_, out, _) = run(&["check", r]);
    assert!(
        flat(&out).contains("no longer found (remove these entries)"),
        "{out}"
    );
    let (_, out, _) = run(&["check", r, "--format", "github"]);
    assert!(
        out.contains("::notice title=PlaybookDiff%3A stale accepted finding::"),
        "{out}"
    );
}

#[test]
fn accepting_without_a_file_writes_its_header_first() {
    let tmp = repo();
    let r = s(tmp.path());
    let (_, v) = json(&["check", r, "--format", "json"]);
    let id = ids(&v).remove(0);
    let (code, _, err) = run(&["check", r, "--accept", &id, "--reason", "intended"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(tmp.path().join("playbookdiff.toml")).unwrap();
    assert_eq!(
        text,
        format!(
            "# PlaybookDiff project configuration (see docs/ci.md).\n\
             # Accepted findings are differences the team intends; each needs a reason.\n\
             [[accepted]]\nid = \"{id}\"\nreason = \"intended\"\ndirectories = [\".\"]\n"
        )
    );
}

#[test]
fn accepting_the_id_shown_for_a_group_accepts_it_in_every_directory() {
    // Each package's own AGENTS.md: one finding per directory, grouped
    // into one line with one example id.
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    // Between Claude Code and Codex, the pair this repository is written
    // for (each registered harness adds its own findings).
    write(
        r,
        "playbookdiff.toml",
        "harnesses = [\"claude-code\", \"codex\"]\n",
    );
    write(r, "AGENTS.md", "# Root\n\nBe brief.\n");
    write(r, "CLAUDE.md", "@AGENTS.md\n");
    for p in ["a", "b", "c"] {
        write(
            r,
            &format!("packages/{p}/AGENTS.md"),
            &format!("# {p}\n\nUse pnpm in {p}.\n"),
        );
    }
    let rs = s(r);
    let (code, v) = json(&["check", rs, "--all-dirs", "--format", "json"]);
    assert_eq!(code, 1);
    let group = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["directories"].as_array().unwrap().len() == 3)
        .unwrap_or_else(|| panic!("{v:#}"));
    let members: Vec<String> = group["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(members.len(), 3, "{group}");
    let before = ids(&v);
    // The text shows the example id and how to accept the whole group.
    let (_, text, _) = run(&["check", rs, "--all-dirs"]);
    // Long commands are continued on the next lines (` \\`): joined here.
    let text = text
        .replace(" \\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let example = &members[0];
    assert!(
        text.contains(&format!(
            "e.g. playbookdiff explain {example} {rs} --root --cwd packages/a"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "to accept its 3 findings (one entry each): playbookdiff check --all-dirs {rs} --root --accept {example} --reason TEXT"
        )),
        "{text}"
    );

    let out = accept_all_dirs(rs, example, "per-package rules");
    assert!(
        out.starts_with(&format!(
            "Accepted the 3 findings of this difference ({example} and 2 more, one entry each)"
        )),
        "{out}"
    );
    let file = std::fs::read_to_string(r.join("playbookdiff.toml")).unwrap();
    for id in &members {
        assert!(
            file.contains(&format!("id = \"{id}\"\nreason = \"per-package rules\"")),
            "{file}"
        );
    }

    // The whole group is accepted, in --all-dirs and in each directory
    // alone; every id is the one it was.
    let (code, v) = json(&["check", rs, "--all-dirs", "--format", "json"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(ids(&v), before, "ids do not change");
    assert_eq!(v["summary"]["accepted"], 3);
    // The text marks the group accepted as `check` marks a finding, and
    // no longer offers to accept it.
    let (code, text, _) = run(&["check", rs, "--all-dirs"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("accepted") && l.contains("per-package rules")),
        "{text}"
    );
    assert!(!text.contains("to accept its 3"), "{text}");
    let (_, single, _) = run(&["check", rs, "--cwd", "packages/a"]);
    assert!(
        single
            .lines()
            .any(|l| l.trim_start().starts_with("accepted") && l.contains("per-package rules")),
        "{single}"
    );
    assert!(
        v["staleAccepted"].as_array().is_none_or(|a| a.is_empty()),
        "{v:#}"
    );
    for p in ["a", "b", "c"] {
        let (code, v) = json(&[
            "check",
            rs,
            "--cwd",
            &format!("packages/{p}"),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "packages/{p}: {v:#}");
    }

    // Without --all-dirs only the one id is recorded.
    let tmp2 = tempfile::tempdir().unwrap();
    let r2 = tmp2.path();
    std::fs::create_dir_all(r2.join(".git")).unwrap();
    for entry in [
        "AGENTS.md",
        "CLAUDE.md",
        "packages/a/AGENTS.md",
        "packages/b/AGENTS.md",
    ] {
        write(r2, entry, &std::fs::read_to_string(r.join(entry)).unwrap());
    }
    write(
        r2,
        "playbookdiff.toml",
        "harnesses = [\"claude-code\", \"codex\"]\n",
    );
    let (code, out, err) = run(&[
        "check",
        s(r2),
        "--cwd",
        "packages/a",
        "--accept",
        example,
        "--reason",
        "one",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        flat(&out).starts_with(&format!("Accepted {example} in ")),
        "{out}"
    );
    let file = std::fs::read_to_string(r2.join("playbookdiff.toml")).unwrap();
    assert_eq!(file.matches("[[accepted]]").count(), 1, "{file}");
}

/// A group of skills only one harness has, in every launch directory: the
/// group holds one finding per skill (a skill's id is the same in every
/// directory), so the command under it and `--accept` count findings,
/// not directories (they said "these 2 directories" for 2 skills in 3).
#[test]
fn a_group_of_names_is_counted_in_findings_not_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    write(
        r,
        "playbookdiff.toml",
        "harnesses = [\"claude-code\", \"codex\"]\n",
    );
    write(r, "AGENTS.md", "# Root\n");
    write(r, "CLAUDE.md", "@AGENTS.md\n");
    for p in ["a", "b"] {
        write(r, &format!("packages/{p}/AGENTS.md"), &format!("# {p}\n"));
        write(r, &format!("packages/{p}/CLAUDE.md"), "@AGENTS.md\n");
    }
    for n in ["lint", "ship"] {
        write(
            r,
            &format!(".claude/skills/{n}/SKILL.md"),
            &format!("---\nname: {n}\ndescription: {n} it.\n---\n"),
        );
    }
    let rs = s(r);
    let (_, v) = json(&["check", rs, "--all-dirs", "--format", "json"]);
    let group = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["findings"][0].as_str().unwrap().starts_with("skill:"))
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(group["findings"].as_array().unwrap().len(), 2, "{group}");
    assert_eq!(group["directories"].as_array().unwrap().len(), 3, "{group}");
    let example = group["findings"][0].as_str().unwrap();
    let (_, text, _) = run(&["check", rs, "--all-dirs"]);
    let text = text
        .replace(" \\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("In 3 of 3 directories"), "{text}");
    assert!(
        text.contains("to accept its 2 findings (one entry each)"),
        "{text}"
    );
    assert!(!text.contains("these 2 directories"), "{text}");
    let out = accept_all_dirs(rs, example, "Claude only");
    assert!(
        out.starts_with(&format!(
            "Accepted the 2 findings of this difference ({example} and 1 more, one entry each)"
        )),
        "{out}"
    );
}

/// The repository's `playbookdiff.toml` is one of its files: a link out of
/// the repository is neither read (its values are not echoed in an error)
/// nor written by `--accept`; a link inside it is followed; a directory or
/// a looping link is refused rather than silently ignored. `--config`
/// still names any file.
#[cfg(unix)]
#[test]
fn the_repository_file_never_leads_out_of_the_repository() {
    let tmp = repo();
    let r = s(tmp.path());
    let (_, v) = json(&["check", r, "--format", "json"]);
    let id = ids(&v).remove(0);
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("team.toml");
    std::fs::write(&outside, "fail-on = \"sk-outside-value\"\n").unwrap();
    let link = tmp.path().join("playbookdiff.toml");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    for args in [
        vec!["check", r],
        vec!["check", r, "--accept", &id, "--reason", "intended"],
        vec!["check", r, "--all-dirs"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("playbookdiff.toml at the repository root is a symbolic link that leads out of the repository")
                && err.contains("--config PATH"),
            "{err}"
        );
        assert!(!err.contains("sk-outside-value"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(&outside).unwrap(),
        "fail-on = \"sk-outside-value\"\n",
        "--accept wrote outside the repository"
    );
    // Named with --config, the same file is the user's choice.
    let (code, _, err) = run(&["check", r, "--config", s(&outside)]);
    assert_eq!(code, 2);
    assert!(err.contains("sk-outside-value"), "{err}");
    // A link to a file inside the repository is followed, and written.
    std::fs::remove_file(&link).unwrap();
    write(tmp.path(), "ci/playbookdiff.toml", "fail-on = \"high\"\n");
    std::os::unix::fs::symlink("ci/playbookdiff.toml", &link).unwrap();
    assert_eq!(run(&["check", r]).0, 0);
    let (code, _, err) = run(&["check", r, "--accept", &id, "--reason", "intended"]);
    assert_eq!(code, 0, "{err}");
    let inside = std::fs::read_to_string(tmp.path().join("ci/playbookdiff.toml")).unwrap();
    assert!(inside.contains(&id), "{inside}");
    // A looping link and a directory are refused, not skipped.
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("playbookdiff.toml", &link).unwrap();
    let (code, _, err) = run(&["check", r]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("leads nowhere"), "{err}");
    std::fs::remove_file(&link).unwrap();
    std::fs::create_dir(&link).unwrap();
    let (code, _, err) = run(&["check", r]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a directory, not a regular file"), "{err}");
}

#[test]
fn accept_refuses_an_id_that_does_not_occur_or_a_bad_one() {
    let tmp = repo();
    let r = s(tmp.path());
    let absent = "instruction:missing:codex-only:nowhere:0123456789ab";
    let (code, _, err) = run(&["check", r, "--accept", absent, "--reason", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("does not occur in this analysis"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!tmp.path().join("playbookdiff.toml").exists());
    let (code, _, err) = run(&["check", r, "--accept", "nope", "--reason", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a finding id"), "{err}");
    let (code, _, err) = run(&["check", r, "--accept", absent]);
    assert_eq!(code, 2);
    assert!(err.contains("--reason"), "{err}");
    let (code, _, err) = run(&["check", r, "--accept", absent, "--reason", " "]);
    assert_eq!(code, 2);
    assert!(err.contains("--reason is empty"), "{err}");
}

#[test]
fn fail_on_exit_zero_and_quiet() {
    let tmp = repo();
    let r = s(tmp.path());
    assert_eq!(run(&["check", r, "--fail-on", "high"]).0, 0);
    assert_eq!(run(&["check", r, "--fail-on", "never"]).0, 0);
    assert_eq!(run(&["check", r, "--exit-zero"]).0, 0);
    assert_eq!(run(&["check", r, "--fail-on", "info"]).0, 1);
    let (code, out, _) = run(&["check", r, "--exit-zero", "--quiet"]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = run(&["check", r, "--quiet"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("Findings:"),
        "a failing run still prints: {out}"
    );
    // The file sets the threshold; the option replaces it.
    write(tmp.path(), "playbookdiff.toml", "fail-on = \"high\"\n");
    assert_eq!(run(&["check", r]).0, 0);
    assert_eq!(run(&["check", r, "--fail-on", "medium"]).0, 1);
    let (code, _, err) = run(&["check", r, "--exit-zero", "--fail-on", "low"]);
    assert_eq!(code, 2, "{err}");
}

/// `playbookdiff.toml` chooses any registered harness, Cursor among them,
/// and its release by `[agent-versions]`.
#[test]
fn the_configuration_chooses_cursor() {
    let tmp = repo();
    write(
        tmp.path(),
        "playbookdiff.toml",
        "harnesses = [\"claude-code\", \"cursor\"]\n\n[agent-versions]\ncursor = \"2.4\"\n",
    );
    let (code, v) = json(&["check", s(tmp.path()), "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(v["harnesses"], serde_json::json!(["claude-code", "cursor"]));
    assert_eq!(v["configs"]["cursor"]["agentProfile"]["version"], "2.4");
}

#[test]
fn a_bad_configuration_is_one_line_with_file_line_and_column() {
    let tmp = repo();
    let r = s(tmp.path());
    let cases = [
        ("\nfail-on = \"sometimes\"\n", "playbookdiff.toml:2:11: "),
        (
            "harnesses = [\"claude-code\", \"windsurf\"]\n",
            "playbookdiff.toml:1:29: unknown harness `windsurf`",
        ),
        (
            "[agent-versions]\nwindsurf = \"1\"\n",
            "playbookdiff.toml:2:1: unknown harness `windsurf`",
        ),
        ("exclude = [\"[z-a]\"]\n", "playbookdiff.toml:1:12: "),
        ("excludes = []\n", "playbookdiff.toml:1:1: "),
    ];
    for (text, start) in cases {
        write(tmp.path(), "playbookdiff.toml", text);
        let (code, out, err) = run(&["check", r]);
        assert_eq!(code, 2, "{text}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(start), "{text}: {err}");
    }
    // --config names another file.
    write(tmp.path(), "ci/pd.toml", "fail-on = \"never\"\n");
    let config = tmp.path().join("ci/pd.toml");
    assert_eq!(run(&["check", r, "--config", s(&config)]).0, 0);
    let (code, _, err) = run(&["check", r, "--config", "/nonexistent/pd.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be read"), "{err}");
}

#[test]
fn exclude_leaves_fixtures_out_of_all_dirs() {
    let tmp = repo();
    let r = s(tmp.path());
    let (_, before) = json(&["check", r, "--all-dirs", "--format", "json"]);
    let dirs = |v: &Value| -> Vec<String> {
        v["directories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["cwd"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(dirs(&before).contains(&"tests/fixtures/case".to_string()));
    let mentions_fixture = |v: &Value| v.to_string().contains("tests/fixtures/case/CLAUDE.md");
    assert!(mentions_fixture(&before));
    write(
        tmp.path(),
        "playbookdiff.toml",
        "# fixtures are analysed by the tests\nexclude = [\"tests/fixtures/\"]\n",
    );
    let (_, after) = json(&["check", r, "--all-dirs", "--format", "json"]);
    assert_eq!(dirs(&after), ["."]);
    // Not even as a file the root receives on demand.
    let findings = after["findings"].to_string();
    assert!(!findings.contains("tests/fixtures/"), "{findings}");
    assert!(ids(&after).len() < ids(&before).len());
    // The real configuration is still checked.
    assert!(findings.contains("\"CLAUDE.md\""), "{findings}");
}

#[test]
fn the_harnesses_of_the_file_are_compared() {
    let tmp = repo();
    let r = s(tmp.path());
    write(
        tmp.path(),
        "playbookdiff.toml",
        "harnesses = [\"codex\", \"claude-code\"]\n",
    );
    let (_, v) = json(&["check", r, "--format", "json"]);
    assert_eq!(v["harnesses"], serde_json::json!(["claude-code", "codex"]));
}

/// Ids depend on paths, names and states only: reordering servers and
/// skills and rewording text elsewhere (the files the findings are about
/// included) keeps every id.
#[test]
fn ids_survive_reordering_and_rewording_elsewhere() {
    let tmp = repo();
    let r = s(tmp.path());
    write(
        tmp.path(),
        ".claude/skills/build/SKILL.md",
        "---\nname: build\ndescription: Builds\n---\nSteps.\n",
    );
    let (_, before) = json(&["check", r, "--format", "json"]);
    let before_ids = ids(&before);
    assert!(before_ids.len() >= 4, "{before_ids:?}");
    // Reorder the MCP servers, reword the root instructions and a skill's
    // description, reword AGENTS.md.
    write(
        tmp.path(),
        ".mcp.json",
        r#"{"mcpServers": {"search": {"command": "search-server"}, "db": {"command": "db-server"}}}"#,
    );
    write(
        tmp.path(),
        "CLAUDE.md",
        "# Rules\n\nRun the tests first.\n\nIndent with tabs.\n",
    );
    write(
        tmp.path(),
        ".claude/skills/build/SKILL.md",
        "---\ndescription: Builds the whole workspace\nname: build\n---\nOther steps.\n",
    );
    write(tmp.path(), "AGENTS.md", "# Codex\n\nReworded text.\n");
    let (_, after) = json(&["check", r, "--format", "json"]);
    assert_eq!(before_ids, ids(&after));
}

// ----- Forge formats -----

fn sarif_validator() -> jsonschema::Validator {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/vendor/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

/// Validates the SARIF of `args` against the official schema and checks
/// that every finding of the JSON output is a result fingerprinted by its
/// id. Returns the number of results.
fn check_sarif(validator: &jsonschema::Validator, args: &[&str]) -> usize {
    let mut sarif_args = args.to_vec();
    sarif_args.extend(["--format", "sarif"]);
    let (_, sarif) = json(&sarif_args);
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{args:?}: {errors:#?}");
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let (_, doc) = json(&json_args);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for f in doc["findings"].as_array().unwrap() {
        let id = f["id"].as_str().unwrap();
        let r = results
            .iter()
            .find(|r| r["partialFingerprints"]["playbookdiffFindingId/v1"] == id)
            .unwrap_or_else(|| panic!("{id} has no result"));
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"]);
        assert_eq!(
            r["ruleId"].as_str().unwrap(),
            format!(
                "{}-{}",
                f["category"].as_str().unwrap(),
                f["type"].as_str().unwrap()
            )
        );
        assert!(rule["help"]["text"].as_str().unwrap().contains("--accept"));
        // Both sides' files are related locations.
        let related = r["relatedLocations"].as_array().unwrap();
        assert_eq!(related.len(), f["items"].as_array().unwrap().len(), "{r}");
        assert_eq!(
            r["suppressions"].is_array(),
            f["accepted"].is_object(),
            "{id}: an accepted finding is suppressed"
        );
    }
    results.len()
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/monorepo")
}

#[test]
fn sarif_of_the_example_validates_against_the_official_schema() {
    let v = sarif_validator();
    let ex = example();
    let n = check_sarif(&v, &["check", s(&ex)]);
    assert!(n > 0);
    assert!(check_sarif(&v, &["check", s(&ex), "--all-dirs"]) >= n);
    assert!(check_sarif(&v, &["check", s(&ex), "--cwd", "apps/api"]) > 0);
    // With accepted findings (suppressions) and a stale entry.
    let tmp = repo();
    let r = s(tmp.path());
    let (_, doc) = json(&["check", r, "--format", "json"]);
    let id = doc["findings"][0]["id"].as_str().unwrap().to_string();
    write(
        tmp.path(),
        "playbookdiff.toml",
        &format!(
            "[[accepted]]\nid = \"{id}\"\nreason = \"intended\"\n\n[[accepted]]\nid = \"mcp:capability-gap:codex-only:gone:0123456789ab\"\nreason = \"old\"\n"
        ),
    );
    check_sarif(&v, &["check", r]);
    check_sarif(&v, &["check", r, "--all-dirs"]);
    // An invalid log is caught: the validator is not vacuous.
    let bad = serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]});
    assert!(!v.is_valid(&bad));
}

/// The shared corpus beside the project root, when present.
fn corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    root.is_dir().then_some(root)
}

/// Extracts `<corpus>/<name>/repo.tar` (the exact tree, links included).
fn corpus_repo(corpus: &Path, name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("tar")
        .arg("xf")
        .arg(corpus.join(name).join("repo.tar"))
        .arg("-C")
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(status.success());
    let repo = tmp.path().join("repo");
    (tmp, repo)
}

#[test]
fn sarif_of_corpus_repositories_validates_against_the_official_schema() {
    let Some(corpus) = corpus() else {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("shared corpus absent: SARIF corpus validation skipped");
        }
        return;
    };
    let v = sarif_validator();
    for name in [
        "getsentry__sentry-mcp",
        "dyoshikawa__rulesync",
        "triggerdotdev__trigger.dev",
    ] {
        let (_tmp, repo) = corpus_repo(&corpus, name);
        let n = check_sarif(&v, &["check", s(&repo), "--all-dirs"]);
        assert!(n > 0, "{name}");
        check_sarif(&v, &["check", s(&repo)]);
    }
}

#[test]
fn github_commands_and_gitlab_code_quality() {
    let ex = example();
    let (code, out, _) = run(&["check", s(&ex), "--format", "github"]);
    assert_eq!(code, 1);
    let (_, doc) = json(&["check", s(&ex), "--format", "json"]);
    let n = doc["findings"].as_array().unwrap().len();
    let commands: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(commands.len(), out.lines().count(), "{out}");
    assert!(commands.len() >= n);
    for l in &commands {
        let (head, _) = l[2..].split_once("::").unwrap();
        let level = head.split(' ').next().unwrap();
        assert!(["error", "warning", "notice"].contains(&level), "{l}");
    }
    assert!(
        commands
            .iter()
            .any(|l| l.starts_with("::warning file=") && l.contains(",line=")),
        "{out}"
    );

    let (code, gl) = json(&["check", s(&ex), "--all-dirs", "--format", "gitlab"]);
    assert_eq!(code, 1);
    let issues = gl.as_array().unwrap();
    assert!(!issues.is_empty());
    let mut prints: Vec<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    prints.sort();
    prints.dedup();
    assert_eq!(prints.len(), issues.len(), "fingerprints are unique");
    for i in issues {
        assert!(["info", "minor", "major", "critical", "blocker"]
            .contains(&i["severity"].as_str().unwrap()));
        assert!(i["location"]["path"].is_string());
        assert!(i["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
        assert!(i["check_name"].is_string() && i["description"].is_string());
    }
}

/// On this repository, the committed `playbookdiff.toml` leaves the test
/// fixtures, the oracle's fixtures, fixture homes and managed roots and
/// the example out: `check --all-dirs` reports only the
/// repository's own configuration (none today), where without the file
/// it checks every fixture as a launch directory.
#[test]
fn this_repository_checks_only_its_own_configuration() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap();
    let (code, v) = json(&["check", s(&root), "--all-dirs", "--format", "json"]);
    let text = v["findings"].to_string() + &v["directories"].to_string();
    for excluded in [
        "tests/fixtures/",
        "tests/cases/",
        "oracle/fixtures/",
        "oracle/homes/",
        "oracle/managed/",
        "oracle/guard/fixture",
        "examples/",
    ] {
        assert!(!text.contains(excluded), "{excluded} in {text}");
    }
    assert_eq!(code, 0, "{text}");
    // Without the file, the fixtures flood the report.
    let empty = tempfile::NamedTempFile::new().unwrap();
    let (code, all) = json(&[
        "check",
        s(&root),
        "--all-dirs",
        "--config",
        s(empty.path()),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert!(all["directories"].as_array().unwrap().len() > 50);
    assert!(all["summary"]["medium"].as_u64().unwrap() > 50);
}

/// `[agent-versions]` selects the modelled release; `--agent-version`
/// replaces it. `explain` says a finding is accepted and why.
#[test]
fn agent_versions_of_the_file_and_explain_of_an_accepted_finding() {
    let tmp = repo();
    let r = s(tmp.path());
    write(
        tmp.path(),
        "playbookdiff.toml",
        "[agent-versions]\ncodex = \"0.142.3\"\n",
    );
    let (_, v) = json(&["check", r, "--format", "json"]);
    assert_eq!(
        v["configs"]["codex"]["agentProfile"]["version"], "0.142.3",
        "{}",
        v["configs"]["codex"]["agentProfile"]
    );
    let (_, v) = json(&[
        "check",
        r,
        "--format",
        "json",
        "--agent-version",
        "codex=0.171.0",
    ]);
    assert_eq!(v["configs"]["codex"]["agentProfile"]["version"], "0.171.0");
    write(
        tmp.path(),
        "playbookdiff.toml",
        "[agent-versions]\ncodex = \"x y\"\n",
    );
    let (code, _, err) = run(&["check", r]);
    assert_eq!(code, 2);
    assert!(
        err.contains("playbookdiff.toml:2:9: `x y` is not a version"),
        "{err}"
    );

    std::fs::remove_file(tmp.path().join("playbookdiff.toml")).unwrap();
    let (_, v) = json(&["check", r, "--format", "json"]);
    let id = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["actionable"] == true)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, out, _) = run(&["explain", &id, r]);
    assert!(
        flat(&out).contains("(fails the run: check exits 1)"),
        "{out}"
    );
    assert_eq!(
        run(&["check", r, "--accept", &id, "--reason", "on purpose"]).0,
        0
    );
    let (code, out, _) = run(&["explain", &id, r]);
    assert_eq!(code, 0);
    let out = flat(&out);
    assert!(
        out.contains("(accepted: it does not fail the run)"),
        "{out}"
    );
    assert!(out.contains("accepted on purpose"), "{out}");
}

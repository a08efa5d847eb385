//! The command line as a user runs it: exit statuses, the one-line errors,
//! the JSON surface, aliases and colour.

use assert_cmd::Command;
use std::path::Path;

/// A small repository: `.git`, `CLAUDE.md`, `apps/api/` with a file.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::write(root.join("CLAUDE.md"), "# Project\n\nUse pnpm.\n").unwrap();
    std::fs::create_dir_all(root.join("apps/api/src")).unwrap();
    std::fs::write(root.join("apps/api/src/main.ts"), "").unwrap();
    dir
}

fn playbookdiff() -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

fn compile_in(repo: &Path) -> Command {
    let mut cmd = playbookdiff();
    cmd.arg("compile").arg(repo);
    cmd
}

fn json_of(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("stdout is JSON")
}

/// Runs `cmd`, expects status 2, nothing on stdout and exactly one line on
/// stderr, starting `error: `; returns that line. Every test of a refused
/// argument or repository in this binary goes through it.
pub(crate) fn refused(cmd: &mut Command) -> String {
    let output = cmd.assert().code(2).get_output().clone();
    assert!(output.stdout.is_empty(), "stdout: {:?}", output.stdout);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr:?}");
    assert!(stderr.starts_with("error: "), "{stderr:?}");
    stderr.trim_end().to_string()
}

#[test]
fn compiles_with_status_zero_and_a_header() {
    let repo = repository();
    let out = compile_in(repo.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("PlaybookDiff: Claude Code\n"), "{text}");
    for section in [
        "Instructions (",
        "Skills (",
        "MCP servers (",
        "Diagnostics (",
        "Assumptions (",
    ] {
        assert!(text.contains(section), "no {section} in {text}");
    }
}

#[test]
fn json_has_the_contract_shape() {
    let repo = repository();
    let v = json_of(compile_in(repo.path()).args(["--harness", "codex", "--json"]));
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["harness"], "codex");
    assert_eq!(v["context"]["repositoryRoot"], ".");
    assert_eq!(v["context"]["cwd"], ".");
    assert_eq!(v["context"]["targetPath"], serde_json::Value::Null);
    assert_eq!(v["context"]["mode"], "repo");
    for key in [
        "instructions",
        "skills",
        "mcpServers",
        "diagnostics",
        "assumptions",
    ] {
        assert!(v[key].is_array(), "{key}");
    }
}

#[test]
fn format_json_equals_json_flag_and_is_deterministic() {
    let repo = repository();
    let a = compile_in(repo.path())
        .arg("--json")
        .output()
        .unwrap()
        .stdout;
    let b = compile_in(repo.path())
        .args(["--format", "json"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(a, b);
    assert!(a.ends_with(b"}\n"));
}

#[test]
fn harness_defaults_to_claude_code() {
    let repo = repository();
    let v = json_of(compile_in(repo.path()).arg("--json"));
    assert_eq!(v["harness"], "claude-code");
}

#[test]
fn path_is_an_alias_of_target() {
    let repo = repository();
    let v = json_of(compile_in(repo.path()).args(["--json", "--path", "apps/api/src/main.ts"]));
    assert_eq!(v["context"]["targetPath"], "apps/api/src/main.ts");
    let w = json_of(compile_in(repo.path()).args(["--json", "--target", "apps/api/src/main.ts"]));
    assert_eq!(v, w);
}

#[test]
fn cwd_target_and_mode_reach_the_context() {
    let repo = repository();
    let target = repo.path().join("apps/api/src/new.ts");
    let v = json_of(
        compile_in(repo.path())
            .args([
                "--json",
                "--cwd",
                "apps/api/",
                "--mode",
                "local",
                "--home",
                playbookdiff_testkit::corpus::empty_home(),
                "--target",
            ])
            .arg(&target),
    );
    assert_eq!(v["context"]["cwd"], "apps/api");
    assert_eq!(v["context"]["targetPath"], "apps/api/src/new.ts");
    assert_eq!(v["context"]["mode"], "local");
}

#[test]
fn repo_defaults_to_the_enclosing_git_root() {
    let repo = repository();
    // From apps/api, `--cwd ..` is apps: --cwd starts where the user stands.
    let v = json_of(
        playbookdiff()
            .current_dir(repo.path().join("apps/api"))
            .args(["compile", "--json", "--cwd", ".."]),
    );
    assert_eq!(v["context"]["cwd"], "apps");
    let text = playbookdiff()
        .current_dir(repo.path().join("apps/api"))
        .arg("compile")
        .output()
        .unwrap()
        .stdout;
    assert!(String::from_utf8(text)
        .unwrap()
        .contains("  repository  ../..\n  cwd         apps/api\n"));
}

#[test]
fn bad_paths_are_refused_with_one_line_naming_the_option() {
    let repo = repository();
    let elsewhere = tempfile::tempdir().unwrap();
    let cases: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        (
            vec!["--cwd".into(), "../".into()],
            "--cwd '../' is outside REPO",
        ),
        (
            vec!["--target".into(), "apps/../../x".into()],
            "--target 'apps/../../x' is outside REPO",
        ),
        (
            vec!["--path".into(), elsewhere.path().into()],
            "is outside REPO",
        ),
        (
            vec!["--cwd".into(), elsewhere.path().into()],
            "is outside REPO",
        ),
        (vec!["--cwd".into(), "".into()], "--cwd is empty"),
        (vec!["--target".into(), "   ".into()], "--target is empty"),
        (
            vec!["--cwd".into(), "apps/web".into()],
            "--cwd 'apps/web' is not an existing directory",
        ),
        (
            vec!["--cwd".into(), "CLAUDE.md".into()],
            "--cwd 'CLAUDE.md' is not an existing directory",
        ),
    ];
    for (args, expected) in cases {
        let line = refused(compile_in(repo.path()).args(&args));
        assert!(line.contains(expected), "{line:?} lacks {expected:?}");
    }
}

#[test]
fn unknown_harness_mode_and_format_are_refused_in_one_line() {
    let repo = repository();
    for (args, expected) in [
        (["--harness", "windsurf"], "use one of: claude-code, codex"),
        (["--harness", ""], "--harness"),
        (["--mode", "global"], "use one of: repo, local"),
        (["--format", "yaml"], "use one of: text, json"),
    ] {
        let line = refused(compile_in(repo.path()).args(args));
        assert!(line.contains(expected), "{line:?} lacks {expected:?}");
    }
}

#[test]
fn parse_errors_are_short_and_exit_two() {
    let repo = repository();
    let line = refused(compile_in(repo.path()).arg("--targte"));
    assert!(line.contains("--target"), "{line}");
    let line = refused(compile_in(repo.path()).args(["--json", "--format", "text"]));
    assert!(line.contains("--json"), "{line}");
    refused(playbookdiff().arg("frobnicate"));
}

#[test]
fn a_repo_that_is_not_a_readable_directory_is_refused() {
    let repo = repository();
    let line = refused(&mut compile_in(&repo.path().join("does-not-exist")));
    assert!(line.starts_with("error: REPO '"), "{line}");
    assert!(line.contains("does-not-exist"), "{line}");
    let line = refused(&mut compile_in(&repo.path().join("CLAUDE.md")));
    assert!(line.contains("is not a directory"), "{line}");
    let line = refused(playbookdiff().args(["compile", ""]));
    assert!(line.contains("REPO"), "{line}");
    assert!(!line.contains("use one of"), "{line}");
    let line = refused(playbookdiff().args(["compile", "  "]));
    assert!(line.contains("REPO is empty"), "{line}");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_repository_is_refused() {
    let repo = repository();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), repo.path().join("linked")).unwrap();
    let line = refused(compile_in(repo.path()).args(["--cwd", "linked"]));
    assert!(line.contains("--cwd 'linked'"), "{line}");
}

#[test]
fn colour_follows_clicolor_force_and_no_color() {
    let repo = repository();
    // Not a terminal: no colour.
    let plain = compile_in(repo.path()).output().unwrap().stdout;
    assert!(!plain.contains(&0x1b));
    // Forced: colour.
    let forced = compile_in(repo.path())
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap()
        .stdout;
    assert!(forced.contains(&0x1b));
    // NO_COLOR wins over everything.
    let none = compile_in(repo.path())
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
        .stdout;
    assert!(!none.contains(&0x1b));
    assert_eq!(none, plain);
    // JSON never carries colour.
    let json = compile_in(repo.path())
        .env("CLICOLOR_FORCE", "1")
        .arg("--json")
        .output()
        .unwrap()
        .stdout;
    assert!(!json.contains(&0x1b));
}

#[test]
fn help_and_version_exit_zero() {
    let help = playbookdiff()
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8(help).unwrap();
    assert!(
        help.contains("compile") && help.contains("Examples:"),
        "{help}"
    );
    let help = playbookdiff()
        .args(["compile", "--help"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8(help).unwrap();
    for needle in [
        "--harness",
        "claude-code",
        "--path",
        "--json",
        "--cwd",
        "--mode",
        "Examples:",
    ] {
        assert!(help.contains(needle), "compile --help lacks {needle}");
    }
    playbookdiff().arg("--version").assert().success();
}

/// Help and the version are output like any other: a write that fails (a
/// full disk) exits 2 with one line, not 0 with nothing said; the view's
/// options that belong to `check`, and `compile` given several harnesses,
/// are answered with the command to run.
#[test]
fn help_that_cannot_be_written_and_misplaced_options_exit_two() {
    let full = Path::new("/dev/full");
    if full.exists() {
        for args in [
            &["--help"][..],
            &["check", "--help"][..],
            &["--version"][..],
        ] {
            let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("playbookdiff"))
                .args(args)
                .stdout(std::fs::File::create(full).unwrap())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.starts_with("error: cannot write the output"), "{err}");
        }
    }
    let repo = repository();
    let line = refused(playbookdiff().arg(repo.path()).arg("--all-dirs"));
    assert!(
        line.contains("--all-dirs is an option of `check`")
            && line.contains("run: playbookdiff check "),
        "{line}"
    );
    let line = refused(
        playbookdiff()
            .current_dir(repo.path())
            .args(["check", "help"]),
    );
    assert!(
        line.contains("for help, add --help to the command"),
        "{line}"
    );
    let line =
        refused(compile_in(repo.path()).args(["--harness", "codex", "--harness", "opencode"]));
    assert!(
        line.contains("compile shows what one harness receives")
            && line.contains("playbookdiff check "),
        "{line}"
    );
}

#[test]
fn no_command_shows_the_side_by_side_view_of_the_current_repository() {
    let dir = repository();
    let out = playbookdiff()
        .current_dir(dir.path().join("apps/api"))
        .assert()
        .code(0)
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("agent receives"), "{text}");
    assert!(text.contains("launched in apps/api"), "{text}");
}

#[test]
fn explain_without_an_id_names_the_missing_argument() {
    let line = refused(playbookdiff().arg("explain"));
    assert!(line.contains("<FINDING_ID>"), "{line}");
    assert!(!line.contains("provided: ("), "{line}");
}

#[test]
fn the_word_help_shows_the_help_unless_a_directory_is_named_help() {
    let empty = tempfile::tempdir().unwrap();
    let out = playbookdiff()
        .current_dir(empty.path())
        .arg("help")
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Usage: playbookdiff"), "{text}");
    assert!(out.stderr.is_empty());
    let out = playbookdiff()
        .current_dir(empty.path())
        .args(["help", "check"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Usage: playbookdiff check"), "{text}");
    // A repository directory named `help` is still a REPO.
    let parent = tempfile::tempdir().unwrap();
    std::fs::create_dir(parent.path().join("help")).unwrap();
    std::fs::write(parent.path().join("help/CLAUDE.md"), "# Help\n").unwrap();
    let out = playbookdiff()
        .current_dir(parent.path())
        .arg("help")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("PlaybookDiff: Claude Code <-> Codex"),
        "{text}"
    );
    assert!(text.contains("Repository help,"), "{text}");
}

#[test]
fn explain_help_describes_its_own_json_document() {
    let out = playbookdiff()
        .args(["explain", "--help"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("effective-agent-config"), "{text}");
    assert!(text.contains("finding"), "{text}");
    assert!(text.contains("check.schema.json"), "{text}");
}

#[test]
fn run_inside_a_repository_the_launch_directory_is_where_the_user_stands() {
    let repo = repository();
    let out = playbookdiff()
        .current_dir(repo.path().join("apps/api"))
        .env("NO_COLOR", "1")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("Repository ../.., launched in apps/api, repo mode"),
        "{text}"
    );
    // And the pointers analyse that same context from here: REPO given,
    // so --cwd is relative to it.
    assert!(
        text.contains("  playbookdiff check ../.. --cwd apps/api"),
        "{text}"
    );
    let out = playbookdiff()
        .current_dir(repo.path().join("apps/api"))
        .args(["check", "../..", "--cwd", "apps/api"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  repository  ../..\n  cwd         apps/api\n"),
        "{text}"
    );
    // `--root`: the current directory is the repository, launched at its root.
    let out = playbookdiff()
        .current_dir(repo.path().join("apps/api"))
        .args(["check", "--root"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  repository  .\n  cwd         . (the repository root)\n"),
        "{text}"
    );
}

#[test]
fn agent_version_picks_the_profile_per_harness() {
    let repo = repository();
    let v = json_of(
        compile_in(repo.path())
            .args(["--harness", "codex", "--json"])
            .args(["--agent-version", "codex=0.142.3"]),
    );
    assert_eq!(v["agentProfile"]["version"], "0.142.3");
    assert!(v["agentProfile"].get("requested").is_none(), "{v}");
    // A release inside the bisected window is its own profile, without a
    // diagnostic.
    let v = json_of(
        compile_in(repo.path())
            .args(["--harness", "codex", "--json"])
            .args(["--agent-version", "codex=0.150.0"]),
    );
    assert_eq!(v["agentProfile"]["version"], "0.150.0");
    assert!(v["agentProfile"].get("requested").is_none(), "{v}");
    let unknown = |v: &serde_json::Value| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "unknown-agent-version")
    };
    assert!(!unknown(&v), "{v}");
    // One outside it uses the nearest older profile and says so.
    let v = json_of(
        compile_in(repo.path())
            .args(["--harness", "codex", "--json"])
            .args(["--agent-version", "codex=0.180.0"]),
    );
    assert_eq!(v["agentProfile"]["version"], "0.171.0");
    assert_eq!(v["agentProfile"]["requested"], "0.180.0");
    assert!(unknown(&v), "{v}");
    // The windows start before the oldest profiles: at the first release
    // of the last twelve months for Claude Code (2.0.59), at the first
    // from which every fact is bisected for Codex (0.63.0), and at the
    // first Copilot CLI release that sends each instruction file as a
    // block of its own (0.0.388).
    // Their first releases are modelled without a diagnostic; an older one
    // gets the window's first release and the diagnostic.
    for (harness, first, older) in [
        ("claude-code", "2.0.59", "2.0.58"),
        ("codex", "0.63.0", "0.61.0"),
        ("copilot", "0.0.368", "0.0.366"),
    ] {
        let at = |release: &str| {
            json_of(
                compile_in(repo.path())
                    .args(["--harness", harness, "--json"])
                    .args(["--agent-version", &format!("{harness}={release}")]),
            )
        };
        let v = at(first);
        assert_eq!(v["agentProfile"]["version"], first, "{v}");
        assert!(!unknown(&v), "{v}");
        let v = at(older);
        assert_eq!(v["agentProfile"]["version"], first, "{v}");
        assert_eq!(v["agentProfile"]["requested"], older, "{v}");
        assert!(unknown(&v), "{v}");
    }
    // Without the option: the newest profiled release.
    let v = json_of(compile_in(repo.path()).args(["--harness", "codex", "--json"]));
    assert_eq!(v["agentProfile"]["version"], "0.171.0");
    // check passes each harness its own version (status 1: CLAUDE.md has
    // no Codex counterpart).
    let out = playbookdiff()
        .arg("check")
        .arg(repo.path())
        .args(["--json", "--agent-version", "claude-code=2.1.197"])
        .args(["--agent-version", "codex=0.142.3"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let text = v.to_string();
    assert!(
        text.contains(r#""agentProfile":{"version":"2.1.197"}"#),
        "{text}"
    );
    assert!(
        text.contains(r#""agentProfile":{"version":"0.142.3"}"#),
        "{text}"
    );
}

#[test]
fn agent_version_of_an_unknown_harness_is_refused_with_a_suggestion() {
    let repo = repository();
    let line = refused(compile_in(repo.path()).args(["--agent-version", "codx=0.171.0"]));
    assert!(line.contains("--agent-version"), "{line}");
    assert!(line.contains("did you mean `codex`?"), "{line}");
    let line = refused(compile_in(repo.path()).args(["--agent-version", "windsurf=1.0"]));
    assert!(line.contains("use one of: claude-code, codex"), "{line}");
    let line = refused(compile_in(repo.path()).args(["--agent-version", "codex"]));
    assert!(line.contains("HARNESS=VERSION"), "{line}");
}

/// A value that is not a release number is refused (status 2, one line
/// naming the accepted form), in every spelling a user mistypes; a
/// release number the profiles lack is accepted and modelled by the
/// nearest profile.
#[test]
fn agent_version_that_is_not_a_version_is_refused() {
    let repo = repository();
    for bad in [
        "codex=abc",
        "codex=latest",
        "codex=v0.171.0",
        "codex=0..1",
        "codex=",
    ] {
        let line = refused(compile_in(repo.path()).args(["--agent-version", bad]));
        assert!(line.contains("is not a version"), "{bad}: {line}");
        assert!(line.contains("digits separated by dots"), "{bad}: {line}");
    }
    for good in ["codex=0.171.0", "codex=0.172.0-alpha.1", "codex=1.0"] {
        compile_in(repo.path())
            .args(["--agent-version", good])
            .assert()
            .success();
    }
}

/// A Codex fixture whose nine skills fit the default model's listing
/// budget but not 8,000 characters.
fn budget_fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../playbookdiff-codex/tests/fixtures/skill_advertisement_budget")
}

fn budget_messages(v: &serde_json::Value) -> Vec<String> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "skill-listing-budget")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn context_window_sets_the_codex_skill_listing_budget() {
    let dir = budget_fixture();
    let compiled = |window: Option<&str>| {
        let mut cmd = compile_in(&dir);
        cmd.args(["--harness", "codex", "--json"]);
        if let Some(w) = window {
            cmd.args(["--context-window", w]);
        }
        json_of(&mut cmd)
    };
    // Default: the release's default model (500,000 tokens for 0.171.0),
    // named in the assumptions; everything fits.
    let v = compiled(None);
    assert!(budget_messages(&v).is_empty(), "{v}");
    let assumptions = v["assumptions"].to_string();
    assert!(assumptions.contains("500000 tokens"), "{assumptions}");
    assert!(assumptions.contains("--context-window"), "{assumptions}");
    // Unknown: 8,000 characters, and the descriptions are shortened.
    let v = compiled(Some("unknown"));
    let m = budget_messages(&v);
    assert_eq!(m.len(), 1, "{v}");
    assert!(m[0].contains("8000 characters"), "{}", m[0]);
    // A small window: 2% of 20,000 tokens is 400 tokens.
    let v = compiled(Some("20_000"));
    let m = budget_messages(&v);
    assert_eq!(m.len(), 1, "{v}");
    assert!(m[0].contains("400 tokens (2% of 20000 tokens"), "{}", m[0]);
    // check, explain, diff and the view take it too.
    let out = playbookdiff()
        .arg("check")
        .arg(&dir)
        .args(["--json", "--harness", "codex", "--harness", "claude-code"])
        .args(["--context-window", "unknown"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("8000 characters"),
        "{out:?}"
    );
    for args in [
        &["--context-window", "unknown"][..],
        &["explain", "x", "--context-window", "unknown"][..],
        &["diff", "HEAD", "--context-window", "unknown"][..],
    ] {
        let out = playbookdiff().args(args).arg(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("--context-window"), "{args:?}: {err}");
    }
}

#[test]
fn a_bad_context_window_is_refused_in_one_line() {
    let repo = repository();
    for (value, says) in [
        ("0", "at least 1 token"),
        ("-5", "at least 1 token, not a negative number"),
        ("400k", "whole number of tokens"),
        ("", "whole number of tokens"),
        ("99999999999999999999999", "too many tokens"),
    ] {
        let line = refused(compile_in(repo.path()).arg(format!("--context-window={value}")));
        assert!(line.contains("--context-window"), "{line}");
        assert!(line.contains(says), "{value}: {line}");
    }
    // A negative number as its own word is the option's value, answered
    // by the option, not taken for an unknown option `-5`.
    let line = refused(compile_in(repo.path()).args(["--context-window", "-5"]));
    assert!(
        line.contains("--context-window") && line.contains("not a negative number"),
        "{line}"
    );
    for cmd in [&["check"][..], &["diff", "HEAD"][..], &[][..]] {
        let line = refused(
            playbookdiff()
                .args(cmd)
                .arg(repo.path())
                .args(["--context-window", "zero"]),
        );
        assert!(line.contains("whole number of tokens"), "{line}");
    }
}

/// A trust entry for a directory the repository does not have (a typo)
/// is refused: it would change nothing and say nothing.
#[test]
fn a_trust_entry_for_a_missing_directory_is_refused() {
    let repo = repository();
    std::fs::create_dir_all(repo.path().join("apps/api")).unwrap();
    for cmd in [&["check"][..], &["compile"][..], &["explain", "x"][..]] {
        let line = refused(
            playbookdiff()
                .args(cmd)
                .arg(repo.path())
                .args(["--trust", "apps/api=trusted,apps/apu=untrusted"]),
        );
        assert!(
            line.contains("--trust: `apps/apu` is not a directory of the repository"),
            "{cmd:?}: {line}"
        );
    }
    compile_in(repo.path())
        .args(["--trust", "apps/api=trusted", "--json"])
        .assert()
        .success();
}

#[test]
fn trust_entries_reach_codex() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../playbookdiff-codex/tests/fixtures/x27_untrusted_project");
    let servers = |v: &serde_json::Value| v["mcpServers"].as_array().unwrap().len();
    // Not given: assumed trusted, the .codex layer's server applies.
    let v = json_of(compile_in(&dir).args(["--harness", "codex", "--json"]));
    assert_eq!(servers(&v), 1, "{v}");
    // Explicitly untrusted: no layer, and 0.171.0 sends no AGENTS.md.
    let v =
        json_of(compile_in(&dir).args(["--harness", "codex", "--json", "--trust", "untrusted"]));
    assert_eq!(servers(&v), 0, "{v}");
    assert!(v.to_string().contains("project-untrusted"), "{v}");
    assert!(
        v["assumptions"]
            .to_string()
            .contains("trust entries (given)"),
        "{v}"
    );
    // No entry at all: no layer either.
    let v = json_of(compile_in(&dir).args(["--harness", "codex", "--json", "--trust", "none"]));
    assert_eq!(servers(&v), 0, "{v}");
    let repo = repository();
    for (value, says) in [
        ("maybe", "unknown trust level"),
        ("../x=trusted", "not a directory inside the repository"),
        ("a=", "unknown trust level"),
    ] {
        let line = refused(compile_in(repo.path()).arg(format!("--trust={value}")));
        assert!(line.contains("--trust"), "{line}");
        assert!(line.contains(says), "{value}: {line}");
    }
}

/// One harness named twice is not "one harness": the error says it was
/// repeated, and one harness named once says to repeat `--harness`.
#[test]
fn a_harness_named_twice_is_refused_as_repeated() {
    let repo = repository();
    let line = refused(playbookdiff().arg("check").arg(repo.path()).args([
        "--harness",
        "codex",
        "--harness",
        "codex",
    ]));
    assert!(line.contains("names codex more than once"), "{line}");
    let line = refused(
        playbookdiff()
            .arg("check")
            .arg(repo.path())
            .args(["--harness", "codex"]),
    );
    assert!(line.contains("repeat --harness"), "{line}");
}

/// An AGENTS.md over Claude Code's 4 MiB read limit with no CLAUDE.md:
/// from 2.1.281 the fallback would read it, so the only problem is its
/// size (no advice to bridge it, no claim that the release predates the
/// fallback, no `agents-md-fallback` saying it loads); 2.1.197 has no
/// fallback and is told to bridge it. Each harness tells one story of the
/// file: Codex sends its first `project_doc_max_bytes` (the budget cut, no
/// "unknown"), OpenCode sends it whole (text not analysed), Claude Code
/// skips it; so the comparison finds that Claude Code lacks it.
#[test]
fn an_agents_md_too_large_for_the_fallback_is_reported_as_too_large() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let line = "Use pnpm for everything here.\n";
    let text = format!("# Big\n\n{}", line.repeat(4 * 1024 * 1024 / line.len() + 1));
    std::fs::write(dir.path().join("AGENTS.md"), &text).unwrap();
    let codes = |version: &str| -> Vec<String> {
        let v = json_of(compile_in(dir.path()).args([
            "--harness",
            "claude-code",
            "--agent-version",
            &format!("claude-code={version}"),
            "--format",
            "json",
        ]));
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["source"]["path"] == "AGENTS.md")
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    };
    let new = codes("2.1.332");
    assert!(new.contains(&"file-too-large".to_string()), "{new:?}");
    assert!(!new.contains(&"agents-md-fallback".to_string()), "{new:?}");
    assert!(
        !new.contains(&"agents-md-not-bridged".to_string()),
        "{new:?}"
    );
    let old = codes("2.1.197");
    assert!(
        old.contains(&"agents-md-not-bridged".to_string()),
        "{old:?}"
    );

    let out = playbookdiff()
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let view = String::from_utf8(out.stdout).unwrap();
    assert!(!view.contains("predates the AGENTS.md fallback"), "{view}");

    let codex = json_of(compile_in(dir.path()).args(["--harness", "codex", "--format", "json"]));
    let at_agents: Vec<&str> = codex["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"]["path"] == "AGENTS.md")
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(at_agents, ["instruction-budget-exceeded"], "{codex:#}");
    let sent = &codex["instructions"][0];
    assert_eq!(sent["truncatedAtByte"], 32768, "{sent:#}");
    assert_eq!(sent["content"].as_str().unwrap(), &text[..32768]);

    // The harnesses that read AGENTS.md, or might (Claude Code's fallback).
    let out = playbookdiff()
        .arg("check")
        .arg(dir.path())
        .args(["--format", "json"])
        .args([
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--harness",
            "opencode",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let check: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let missing: Vec<&serde_json::Value> = check["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["type"] == "missing")
        .collect();
    assert_eq!(missing.len(), 1, "{check:#}");
    assert_eq!(
        missing[0]["presentIn"],
        serde_json::json!(["codex", "opencode"])
    );
    assert_eq!(missing[0]["absentFrom"], serde_json::json!(["claude-code"]));
    assert!(
        missing[0]["absences"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("Claude Code skips it"),
        "{:#}",
        missing[0]
    );
    assert!(
        !view.contains("file-too-large (Claude Code, Codex and OpenCode)"),
        "{view}"
    );
}

/// Help text into a pipe wraps at 80 columns like every other output
/// (clap alone wraps at 100 when standard output is no terminal), and at
/// `COLUMNS` when it is set: every command's help, its usage lines
/// included (clap never wraps those), as `--help` and as `help COMMAND`.
/// Only one word wider than the width (a path, a finding id) may pass it.
#[test]
fn every_help_fits_the_width() {
    let top = playbookdiff().arg("--help").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.len() >= 6, "{commands:?}");
    let mut runs: Vec<Vec<&str>> = vec![vec!["--help"]];
    for c in &commands {
        runs.push(vec![c, "--help"]);
        runs.push(vec!["help", c]);
    }
    // `None`: no COLUMNS, into a pipe (80 columns).
    for columns in [Some(40), Some(80), None] {
        let width = columns.unwrap_or(80);
        for args in &runs {
            let mut cmd = playbookdiff();
            match columns {
                Some(n) => cmd.env("COLUMNS", n.to_string()),
                None => cmd.env_remove("COLUMNS"),
            };
            let out = cmd.args(args).output().unwrap();
            assert!(out.status.success(), "{args:?}");
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.contains("Usage: playbookdiff"), "{args:?}: {text}");
            let wide: Vec<&str> = text
                .lines()
                .filter(|l| l.chars().count() > width && l.trim().contains(' '))
                .collect();
            assert!(wide.is_empty(), "{args:?} at {width}: {wide:#?}");
        }
    }
}

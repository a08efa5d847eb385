//! What a new user runs into, on fixtures shaped like the real cases: run
//! from a package's `web/src`, a package given as REPO inside the
//! monorepo's work tree, a misspelt command, a command after its options,
//! a misspelt harness; completions, the manual page and `--color`.

use crate::snapshots::run_in;
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

use playbookdiff_testkit::corpus as support;

fn playbookdiff() -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

/// A monorepo shaped like the case that was reported: a git work tree with
/// root `CLAUDE.md` and `AGENTS.md`, a `web/` package with its own pair and
/// `web/src/AGENTS.md` (Codex reads it from `web/src`; Claude Code has no
/// `web/src/CLAUDE.md`), committed.
fn monorepo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("web/src")).unwrap();
    std::fs::write(root.join("CLAUDE.md"), "# Monorepo\n\nUse pnpm.\n").unwrap();
    std::fs::write(root.join("AGENTS.md"), "# Monorepo\n\nUse pnpm.\n").unwrap();
    std::fs::write(root.join("web/CLAUDE.md"), "# Web\n\nRun pnpm dev.\n").unwrap();
    std::fs::write(root.join("web/AGENTS.md"), "# Web\n\nRun pnpm dev.\n").unwrap();
    std::fs::write(
        root.join("web/src/AGENTS.md"),
        "# Sources\n\nComponents live in components/.\n",
    )
    .unwrap();
    support::git(root, &["init", "-q", "."]);
    support::git(root, &["add", "-A"]);
    support::git(root, &["commit", "-q", "-m", "init"]);
    dir
}

fn json_in(dir: &Path, args: &[&str]) -> (Value, String) {
    let out = playbookdiff().current_dir(dir).args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}; stderr: {stderr}"));
    (v, stderr)
}

fn instruction_paths(config: &Value) -> Vec<String> {
    config["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["applicability"] == "effective")
        .map(|i| i["source"]["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn run_from_web_src_the_launch_directory_is_web_src() {
    let repo = monorepo();
    let here = repo.path().join("web/src");
    let (v, stderr) = json_in(&here, &["compile", "--harness", "codex", "--json"]);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(v["context"]["cwd"], "web/src");
    assert_eq!(
        instruction_paths(&v),
        ["AGENTS.md", "web/AGENTS.md", "web/src/AGENTS.md"]
    );
    // check from there finds what only Codex receives in web/src (of the
    // Claude Code and Codex pair).
    let (v, _) = json_in(
        &here,
        &[
            "check",
            "--json",
            "--harness",
            "claude-code",
            "--harness",
            "codex",
        ],
    );
    assert_eq!(v["context"]["cwd"], "web/src");
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.iter()
            .any(|i| i.starts_with("instruction:missing:codex-only:web/src:")),
        "{ids:?}"
    );
    // --cwd starts where the user stands.
    let (v, _) = json_in(&here, &["compile", "--cwd", "..", "--json"]);
    assert_eq!(v["context"]["cwd"], "web");
    // The text header names the repository from here and the launch
    // directory.
    let out = playbookdiff()
        .current_dir(&here)
        .args(["check", "--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  repository  ../..\n  cwd         web/src\n"),
        "{text}"
    );
    // --root: the current directory is the repository root.
    let (v, _) = json_in(
        &here,
        &["compile", "--harness", "codex", "--root", "--json"],
    );
    assert_eq!(v["context"]["cwd"], ".");
    assert_eq!(instruction_paths(&v), ["AGENTS.md"]);
}

#[test]
fn a_package_given_as_repo_is_a_launch_directory_of_the_work_tree() {
    let repo = monorepo();
    let (v, stderr) = json_in(repo.path(), &["compile", "web", "--json"]);
    assert_eq!(v["context"]["cwd"], "web");
    // The root CLAUDE.md is received too, as `claude` started in web sees it.
    assert_eq!(instruction_paths(&v), ["CLAUDE.md", "web/CLAUDE.md"]);
    // One note, wrapped at 80 columns (standard error is not a terminal).
    assert!(stderr.lines().all(|l| l.chars().count() <= 80), "{stderr}");
    assert_eq!(
        stderr.split_whitespace().collect::<Vec<_>>().join(" "),
        "note: REPO 'web' is inside the git work tree '.': analysed as --cwd web there (--root: REPO as the root)"
    );
    // With --rev too, and a directory name that needs quoting is quoted.
    std::fs::create_dir_all(repo.path().join("with space")).unwrap();
    std::fs::write(repo.path().join("with space/AGENTS.md"), "# Spaced\n").unwrap();
    support::git(repo.path(), &["add", "-A"]);
    support::git(repo.path(), &["commit", "-q", "-m", "spaced"]);
    let (v, stderr) = json_in(
        repo.path(),
        &["compile", "--rev", "HEAD", "with space", "--json"],
    );
    assert_eq!(v["context"]["cwd"], "with space");
    assert!(
        stderr
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("analysed as --cwd 'with space' there"),
        "{stderr}"
    );
    // --cwd is relative to REPO.
    let (v, _) = json_in(repo.path(), &["compile", "web", "--cwd", "src", "--json"]);
    assert_eq!(v["context"]["cwd"], "web/src");
    // --target starts where --cwd does (output contract, "Command line"):
    // at REPO when it is given, else at the current directory, with or
    // without --rev.
    let (v, _) = json_in(
        repo.path(),
        &["compile", "web", "--target", "a.ts", "--json"],
    );
    assert_eq!(v["context"]["targetPath"], "web/a.ts");
    let web = repo.path().join("web");
    for rev in [&[][..], &["--rev", "HEAD"][..]] {
        let mut args = vec!["compile", "--target", "src/a.ts", "--json"];
        args.extend_from_slice(rev);
        let (v, _) = json_in(&web, &args);
        assert_eq!(v["context"]["cwd"], "web", "{rev:?}");
        assert_eq!(v["context"]["targetPath"], "web/src/a.ts", "{rev:?}");
        let mut args = vec!["compile", "--target", "../CLAUDE.md", "--json"];
        args.extend_from_slice(rev);
        let (v, _) = json_in(&web, &args);
        assert_eq!(v["context"]["targetPath"], "CLAUDE.md", "{rev:?}");
    }
    // From outside the work tree, the work tree is named from REPO.
    let parent = repo.path().parent().unwrap();
    let name = repo.path().file_name().unwrap().to_str().unwrap();
    let (v, stderr) = json_in(parent, &["check", &format!("{name}/web"), "--json"]);
    assert_eq!(v["context"]["cwd"], "web");
    assert!(
        stderr.contains(&format!("inside the git work tree '{name}'")),
        "{stderr}"
    );
    // --root says otherwise: REPO is the root, and no note.
    let (v, stderr) = json_in(repo.path(), &["compile", "web", "--root", "--json"]);
    assert_eq!(v["context"]["cwd"], ".");
    assert_eq!(instruction_paths(&v), ["CLAUDE.md"]);
    assert!(stderr.is_empty(), "{stderr}");
    // The text names the work tree and the launch directory.
    let out = playbookdiff()
        .current_dir(repo.path())
        .args(["check", "web"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  repository  .\n  cwd         web\n"),
        "{text}"
    );
}

/// Runs `args` in `dir`; expects exit status 2, nothing on standard output
/// and one line on standard error ([`crate::cli::refused`]); returns it.
fn refused_in(dir: &Path, args: &[&str]) -> String {
    crate::cli::refused(playbookdiff().current_dir(dir).args(args))
}

#[test]
fn habits_get_one_line_saying_what_to_do() {
    let repo = monorepo();
    let dir = repo.path();
    // The misspelt harness is answered with every registered one.
    let harnesses: Vec<&str> = playbookdiff_registry::adapters()
        .iter()
        .map(|a| a.harness().as_str())
        .collect();
    let harness_answer = format!(
        "error: invalid value 'claude' for '--harness <HARNESS>'; did you mean 'claude-code'? (one of: {}) (see 'playbookdiff compile --help')",
        harnesses.join(", ")
    );
    let cases: [(&[&str], &str); 7] = [
        (
            &["checks"],
            "error: unknown command 'checks'; did you mean 'check'? (no directory 'checks' exists either; see 'playbookdiff --help')",
        ),
        (
            &["explian", "some:id"],
            "error: unknown command 'explian'; did you mean 'explain'? (no directory 'explian' exists either; see 'playbookdiff --help')",
        ),
        (
            &["--json", "check"],
            "error: put the command first: playbookdiff check --json",
        ),
        (
            &["--harness", "codex", "check"],
            "error: put the command first: playbookdiff check --harness codex",
        ),
        (
            &["web", "check", "--all-dirs"],
            "error: put the command first: playbookdiff check web --all-dirs",
        ),
        (
            &["compile", "--harness", "claude"],
            &harness_answer,
        ),
        (
            &["check", "--format", "jsn"],
            "error: invalid value 'jsn' for '--format <FORMAT>'; did you mean 'json'? (one of: text, json, markdown, sarif, github, gitlab, html) (see 'playbookdiff check --help')",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(refused_in(dir, args), expected, "{args:?}");
    }
    // A directory named like a command is still the repository.
    std::fs::create_dir(dir.join("checks")).unwrap();
    let out = playbookdiff()
        .current_dir(dir)
        .args(["checks", "--root"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn completions_and_the_manual_page_come_from_the_command_line() {
    let bash = playbookdiff()
        .args(["completions", "bash"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let bash = String::from_utf8(bash).unwrap();
    for word in ["playbookdiff", "check", "explain", "--all-dirs", "--root"] {
        assert!(bash.contains(word), "bash completion lacks {word}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        playbookdiff()
            .args(["completions", shell])
            .assert()
            .success();
    }
    let line = refused_in(Path::new("."), &["completions", "tcsh"]);
    assert!(line.contains("bash"), "{line}");
    let man = playbookdiff()
        .arg("man")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let man = String::from_utf8(man).unwrap();
    assert!(man.starts_with(".ie"), "{}", &man[..40.min(man.len())]);
    assert!(man.contains(".TH playbookdiff 1"), "not section 1");
    assert!(man.contains("check"), "the commands are listed");
}

/// The manual page is one page: it names no page that is not generated
/// (`playbookdiff-check(1)`), and each command has its own section with
/// every option its `--help` lists.
#[test]
fn the_manual_page_holds_every_command_and_its_options() {
    let man = playbookdiff().arg("man").output().unwrap();
    assert!(man.status.success());
    let man = String::from_utf8(man.stdout).unwrap();
    assert_eq!(man.matches(".TH ").count(), 1, "one page");
    let refs = regex::Regex::new(r"playbookdiff[-\\]+[a-z]+\(1\)").unwrap();
    assert!(refs.find(&man).is_none(), "{:?}", refs.find(&man));
    // roff writes `-` as `\-`.
    let plain = man.replace("\\-", "-");
    let options = regex::Regex::new(r"(?m)^\s+(?:-[a-zA-Z], )?(--[a-z][a-z-]*)").unwrap();
    for command in ["check", "explain", "compile", "diff", "completions", "man"] {
        let heading = format!(".SH \"PLAYBOOKDIFF {}\"", command.to_uppercase());
        let at = plain
            .find(&heading)
            .unwrap_or_else(|| panic!("no section {heading}"));
        let section = &plain[at + heading.len()..];
        let section = &section[..section.find("\n.SH ").unwrap_or(section.len())];
        let help = playbookdiff().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        let mut n = 0;
        for c in options.captures_iter(&help) {
            let option = &c[1];
            if option == "--help" || option == "--version" {
                continue;
            }
            n += 1;
            assert!(
                section.contains(option),
                "{command}: {option} is not in its section of the page"
            );
        }
        if command == "check" {
            assert!(n >= 10, "{command}: {n} options read from --help");
        }
    }
}

#[test]
fn color_always_and_never_override_the_terminal() {
    let repo = monorepo();
    let run = |extra: &[&str], env: Option<(&str, &str)>| {
        let mut cmd = playbookdiff();
        cmd.current_dir(repo.path()).arg("check").args(extra);
        if let Some((k, v)) = env {
            cmd.env(k, v);
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    // Not a terminal: no colour by default, colour when asked, even with
    // NO_COLOR (an explicit option wins over the environment).
    assert!(!run(&[], None).contains('\u{1b}'));
    assert!(run(&["--color", "always"], None).contains('\u{1b}'));
    assert!(run(&["--color", "always"], Some(("NO_COLOR", "1"))).contains('\u{1b}'));
    assert!(!run(&["--color", "never"], Some(("CLICOLOR_FORCE", "1"))).contains('\u{1b}'));
    // JSON is never coloured.
    assert!(!run(&["--color", "always", "--json"], None).contains('\u{1b}'));
}

/// The words a user reads: no `(s)` plural and no "the model has no kind
/// for it" in any message, label or help text of the workspace's sources
/// (string literals of `crates/*/src`); what is left out is "not modelled
/// by PlaybookDiff".
#[test]
fn messages_use_real_plurals_and_one_vocabulary() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut bad = Vec::new();
    let mut sources = Vec::new();
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                sources.push(path);
            }
        }
    }
    let files = sources.len();
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            // A letter followed by `(s)` inside a string literal.
            let plural = line.match_indices("(s)").any(|(i, _)| {
                i > 0
                    && line.as_bytes()[i - 1].is_ascii_alphabetic()
                    && line[..i].matches('"').count() % 2 == 1
            });
            if plural || line.contains("has no kind for") {
                bad.push(format!("{}:{}: {}", path.display(), n + 1, code));
            }
        }
    }
    assert!(files > 50, "{files} source files read");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The fixture of the trial's duplicate skill: `dup` in `.claude/skills`
/// and in `.agents/skills` with different descriptions, `pkg/AGENTS.md`,
/// and a `.codex/config.toml` that does not parse. Recorded as oracle cases
/// `cli.dup_skills_refusing_codex` (from `.` and `pkg`).
fn dup_skills_fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dup_skills_refusing_codex")
}

/// OpenCode 1.18.33 lists `dup` at startup from both launch directories
/// (the recorded cases), whichever definition it keeps: the view has one
/// effective, advertised `dup` and a warning that the definition is not
/// decided, and `check` against Claude Code reports the differing
/// description, never a scope gap.
#[test]
fn a_skill_name_opencode_finds_twice_is_received_at_startup() {
    let dir = dup_skills_fixture();
    for cwd in [".", "pkg"] {
        let (cfg, err) = json_in(
            &dir,
            &[
                "compile",
                "--root",
                "--harness",
                "opencode",
                "--cwd",
                cwd,
                "--json",
                ".",
            ],
        );
        let dups: Vec<&Value> = cfg["skills"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["name"] == "dup")
            .collect();
        let effective: Vec<&&Value> = dups
            .iter()
            .filter(|s| s["applicability"] == "effective")
            .collect();
        assert_eq!(effective.len(), 1, "{cwd}: {dups:#?} {err}");
        assert_eq!(effective[0]["loadPhase"], "startup");
        assert_eq!(effective[0]["advertisement"]["state"], "advertised");
        assert_eq!(dups.len(), 2);
        let warning = cfg["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "skill-name-collision")
            .expect("collision warning");
        assert_eq!(warning["severity"], "warning");
        assert!(
            warning["message"]
                .as_str()
                .unwrap()
                .contains("not decided by the repository"),
            "{warning}"
        );
        let (check, _) = json_in(
            &dir,
            &[
                "check",
                "--root",
                "--harness",
                "claude-code",
                "--harness",
                "opencode",
                "--cwd",
                cwd,
                "--format",
                "json",
                ".",
            ],
        );
        let ids: Vec<&str> = check["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["id"].as_str().unwrap())
            .collect();
        assert!(
            ids.iter()
                .any(|id| id.starts_with("skill:different:both:dup:")),
            "{cwd}: {ids:?}"
        );
        assert!(
            !ids.iter().any(|id| id.starts_with("skill:scope-gap:")),
            "{cwd}: {ids:?}"
        );
    }
}

/// Codex 0.142.3 and 0.171.0 exit 1 on the fixture ("Error parsing project
/// config file .codex/config.toml", recorded): every item of its view is
/// excluded with the refusal as reason, and the refusal says to fix the
/// syntax at the file and line, not "the named keys".
#[test]
fn an_agent_that_refuses_to_start_receives_nothing() {
    let dir = dup_skills_fixture();
    for cwd in [".", "pkg"] {
        let (cfg, _) = json_in(
            &dir,
            &[
                "compile",
                "--root",
                "--harness",
                "codex",
                "--cwd",
                cwd,
                "--json",
                ".",
            ],
        );
        let mut items = 0;
        for list in ["instructions", "skills", "mcpServers"] {
            for item in cfg[list].as_array().unwrap() {
                items += 1;
                let applicability = item["applicability"].as_str().unwrap();
                assert!(
                    !matches!(applicability, "effective" | "conditional"),
                    "{cwd} {list}: {item:#}"
                );
                if applicability == "excluded" {
                    assert!(
                        item["reason"]
                            .as_str()
                            .unwrap()
                            .contains("Codex refuses the configuration and does not start"),
                        "{item:#}"
                    );
                }
            }
        }
        assert!(items >= 1, "{cwd}: {cfg:#}");
        let refused = cfg["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "config-refused")
            .expect("config-refused");
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.ends_with("fix the syntax at `.codex/config.toml:3`."),
            "{message}"
        );
        assert!(!message.contains("named keys"), "{message}");
    }
}

/// An `AGENTS.md` that is not valid UTF-8, read by Codex and OpenCode: the
/// finding about it lists the problem once, naming both harnesses.
#[test]
fn a_problem_several_harnesses_report_is_one_evidence_row() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("AGENTS.md"),
        b"# Rules\n\nUse pnpm \xff here.\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("CLAUDE.md"), "# Claude\n\nUse npm.\n").unwrap();
    // Copilot CLI reads both files too: the three harnesses of the row.
    let (_, text) = run_in(
        dir.path(),
        &[
            "check",
            "--root",
            ".",
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--harness",
            "opencode",
        ],
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("problem ") && l.contains("invalid-utf8"))
        .collect();
    assert_eq!(
        rows,
        ["  problem      invalid-utf8 in AGENTS.md:3 (Codex and OpenCode)"],
        "{text}"
    );
}

/// `check` with no finding ends with its result, without the hint to
/// explain a finding id.
#[test]
fn check_without_findings_does_not_offer_explain() {
    let dir = tempfile::tempdir().unwrap();
    let (_, text) = run_in(dir.path(), &["check", "--root", "."]);
    assert!(
        text.contains("Result: no compatibility divergence"),
        "{text}"
    );
    assert!(!text.contains("explain ID"), "{text}");
}

/// A directory whose name is not UTF-8 is a problem row named by its lossy
/// name and a marker, never an empty path column.
#[test]
fn a_name_that_is_not_utf8_is_shown_with_a_marker() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join(std::ffi::OsStr::from_bytes(b"bad\xffdir"));
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("AGENTS.md"), "# x\n").unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# a\n").unwrap();
    let (_, text) = run_in(dir.path(), &["check", "--all-dirs", "--root", "."]);
    // The code follows the name on its line, or on the next one when the
    // list of harnesses is too long to share it.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.lines()
            .any(|l| l.starts_with("  bad\u{fffd}dir (name not UTF-8)"))
            && flat.contains("bad\u{fffd}dir (name not UTF-8) unreadable ("),
        "{text}"
    );
    assert!(!text.contains("  -  unreadable"), "{text}");
}

/// `explain` shows the differing paragraphs of an indented code block with
/// their indentation, as the agents receive them.
#[test]
fn explain_keeps_code_blocks_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("CLAUDE.md"),
        "# Build\n\nRun this:\n\n    npm ci\n    npm run build\n",
    )
    .unwrap();
    std::fs::write(
        root.join("AGENTS.md"),
        "# Build\n\nRun this:\n\n    pnpm install\n    pnpm build\n",
    )
    .unwrap();
    let pair = ["--root", "--harness", "claude-code", "--harness", "codex"];
    let (v, _) = json_in(
        root,
        &[&["check"][..], &pair, &["--format", "json", "."]].concat(),
    );
    let id = v["findings"][0]["id"].as_str().unwrap().to_string();
    let (_, text) = run_in(
        root,
        &[&["explain", id.as_str()][..], &pair, &["."]].concat(),
    );
    for line in [
        "     |     npm ci",
        "     |     npm run build",
        "     |     pnpm install",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?}: {text}");
    }
}

/// Standard output of `args` run in `dir` with `HOME` and `CODEX_HOME` in
/// `home` (so no user layer of whoever runs the test is read), after
/// checking that it exited `code` and that every line fits 80 columns.
fn fits_80_columns(dir: &Path, home: &Path, args: &[&str], code: i32) -> String {
    let out = playbookdiff()
        .current_dir(dir)
        .env("HOME", home)
        .env("CODEX_HOME", home.join(".codex"))
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in text.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 80,
            "{args:?} printed a line of {} columns:\n{line}",
            unicode_width::UnicodeWidthStr::width(line)
        );
    }
    text
}

/// The command line's own reports, not only the renderers' text, fit 80
/// columns when standard output is no terminal: the `guard install` plan
/// and what `--write` did (they name a long hook command and notes), `guard
/// status`, `guard log`, `guard audit` and what `check --accept` recorded
/// printed one line each of up to 430 columns. Their words are all there,
/// wrapped.
#[test]
fn the_commands_own_reports_fit_80_columns() {
    let repo = monorepo();
    let dir = repo.path();
    let home = tempfile::tempdir().unwrap();
    let program = "/opt/playbookdiff/release/bin/playbookdiff-guard";
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    for host in ["claude-code", "codex", "opencode"] {
        let plan = ["guard", "install", "--host", host, "--program", program];
        let text = words(&fits_80_columns(dir, home.path(), &plan, 0));
        assert!(text.contains("would change"), "{text}");
        assert!(
            text.contains(&format!("{program} hook --host {host}")),
            "{text}"
        );
        assert!(text.contains("run again with --write"), "{text}");
        let write = [&plan[..], &["--write"]].concat();
        let text = words(&fits_80_columns(dir, home.path(), &write, 0));
        assert!(text.starts_with("changed "), "{text}");
    }
    let status = words(&fits_80_columns(dir, home.path(), &["guard", "status"], 0));
    assert!(status.contains("claude-code: guarded"), "{status}");
    assert!(
        status.contains("could switch it off: `disableAllHooks: true`"),
        "{status}"
    );
    let payload = serde_json::json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": dir.join("CLAUDE.md"), "content": "x"},
        "cwd": dir,
    });
    playbookdiff()
        .current_dir(dir)
        .args(["guard", "hook", "--host", "claude-code"])
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let log = words(&fits_80_columns(dir, home.path(), &["guard", "log"], 0));
    assert!(
        log.contains("claude-code Write deny agent-config CLAUDE.md"),
        "{log}"
    );
    let audit = ["guard", "audit", "--write-baseline"];
    let text = words(&fits_80_columns(dir, home.path(), &audit, 0));
    assert!(text.contains("wrote the baseline"), "{text}");
    let text = words(&fits_80_columns(dir, home.path(), &["guard", "audit"], 0));
    assert!(text.contains("no deny rule is gone or weaker"), "{text}");

    let (check, _) = json_in(dir, &["check", "--format", "json"]);
    let id = check["findings"][0]["id"].as_str().unwrap().to_string();
    let reason = "Codex reads the package's own sources guide; Claude Code does not need it";
    let accept = ["check", "--accept", &id, "--reason", reason];
    let text = words(&fits_80_columns(dir, home.path(), &accept, 0));
    assert!(text.starts_with(&format!("Accepted {id} in ")), "{text}");
    assert!(text.ends_with(reason), "{text}");
}

/// `guard` and `round` take the repository with `--repo`; `compile`,
/// `check`, `explain`, `diff` and `upgrade` as the argument REPO. Given
/// the other way, the answer is the command line written the right way,
/// not "unexpected argument" (with `--repo` even "did you mean
/// '--reason'?"); any other mistake in a subcommand points to that
/// subcommand's own help.
#[test]
fn the_repository_given_the_other_commands_way_is_answered() {
    let repo = monorepo();
    let dir = repo.path();
    let cases: [(&[&str], &str); 9] = [
        // A misspelt value in the same line is written as it is meant, so
        // the line given runs (it repeated `--host claude`, which clap
        // then refused).
        (
            &["guard", "install", "--host", "claude", "web"],
            "error: guard install takes the repository with --repo; run: playbookdiff guard install --host claude-code --repo web (with `claude-code` for `claude`)",
        ),
        (
            &["check", "--repo", "web", "--harness", "claude", "--harness", "codex"],
            "error: check takes the repository as its argument REPO, not --repo; run: playbookdiff check web --harness claude-code --harness codex (with `claude-code` for `claude`)",
        ),
        (
            &["guard", "status", "web"],
            "error: guard status takes the repository with --repo; run: playbookdiff guard status --repo web",
        ),
        (
            &["guard", "install", "--host", "codex", "web"],
            "error: guard install takes the repository with --repo; run: playbookdiff guard install --host codex --repo web",
        ),
        // The brief id a directory that names no brief: the repository
        // was meant (it said the briefs folder `briefs/` did not exist).
        (
            &["round", "rulings", "web"],
            "error: round rulings takes the repository with --repo; run: playbookdiff round rulings --repo web",
        ),
        (
            &["round", "context", "api", "web"],
            "error: round context takes the repository with --repo; run: playbookdiff round context api --repo web",
        ),
        (
            &["check", "--repo", "web", "--all-dirs"],
            "error: check takes the repository as its argument REPO, not --repo; run: playbookdiff check web --all-dirs",
        ),
        (
            &["compile", "--repo=web"],
            "error: compile takes the repository as its argument REPO, not --repo; run: playbookdiff compile web",
        ),
        (
            &["guard", "status", "no-such-dir"],
            "error: unexpected argument 'no-such-dir' found (see 'playbookdiff guard status --help')",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(refused_in(dir, args), expected, "{args:?}");
    }
    // The rewritten command lines run.
    for args in [
        &["guard", "install", "--host", "claude-code", "--repo", "web"][..],
        &["guard", "status", "--repo", "web"][..],
        &["check", "web", "--all-dirs"][..],
    ] {
        let out = playbookdiff().current_dir(dir).args(args).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {out:?}"
        );
    }
}

/// `upgrade` given a release that has no profile of its own models it as
/// another (`1.0.0` as Claude Code 2.0.59, the oldest modelled release), as
/// `--agent-version` does; a note on standard error says so, since the
/// report itself names only the releases as given. Profiled releases get
/// no note.
#[test]
fn upgrade_says_which_release_stands_for_one_without_a_profile() {
    let repo = monorepo();
    let run = |range: &str| {
        let out = playbookdiff()
            .current_dir(repo.path())
            .args(["upgrade", "claude-code", range])
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let note = run("1.0.0..2.1.332");
    assert!(
        note.starts_with("note: Claude Code 1.0.0 has no version profile"),
        "{note}"
    );
    assert!(note.contains("2.0.59"), "{note}");
    assert!(!note.contains("2.1.332 has no"), "{note}");
    assert_eq!(run("2.1.197..2.1.332"), "");
}

/// The view is a summary: a directory outside git read whole (a home
/// directory, `/tmp`) can hold thousands of problems, which printed tens
/// of thousands of lines before the table. It shows ten, counts the rest
/// in its heading and names the `check` that lists them all.
#[test]
fn the_view_shows_ten_problems_and_points_to_check_for_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("CLAUDE.md"), "# Root\n").unwrap();
    for i in 0..14 {
        let pkg = root.join(format!("pkg{i:02}"));
        std::fs::create_dir(&pkg).unwrap();
        std::fs::write(pkg.join("AGENTS.md"), format!("# Package {i}\n")).unwrap();
    }
    let text = |args: &[&str]| {
        let out = playbookdiff()
            .current_dir(root)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    // The problems section: its heading's count, and its rows (a row
    // starts two spaces in, its message four).
    let section = |t: &str| -> (usize, usize) {
        let start = t
            .find("Problems in the repository (")
            .expect("a problems section");
        let rest = &t[start + "Problems in the repository (".len()..];
        let n = rest[..rest.find(')').unwrap()].parse().unwrap();
        let body = rest.split("\n\n").next().unwrap();
        let rows = body
            .lines()
            .skip(1)
            .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && !l.starts_with("  +"))
            .count();
        (n, rows)
    };
    let check = text(&["check"]);
    let (all, rows) = section(&check);
    assert!(all >= 14, "{check}");
    assert_eq!(rows, all, "{check}");
    let view = text(&[]);
    assert_eq!(section(&view), (all, 10), "{view}");
    assert!(
        view.contains(&format!("  +{} more: see `playbookdiff check`\n", all - 10)),
        "{view}"
    );
}

/// The help says what the analysis reads: the repository only by default,
/// and with `--mode local` the user's and the machine's agent
/// configuration too (it said "reads no home-directory or machine-wide
/// configuration", and `local` "also personal files present in the working
/// tree", while `--home` and `--managed-root` exist for that mode).
#[test]
fn the_help_says_what_local_mode_reads() {
    let out = playbookdiff().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!help.contains("reads no home-directory"), "{help}");
    assert!(
        help.contains("--mode local also reads the user's and the machine's agent configuration"),
        "{help}"
    );
    assert!(
        help.contains("local: Also personal files present in the working tree, and the user's and the machine's agent configuration"),
        "{help}"
    );
}

/// `playbookdiff help WORD` gives WORD's help; for a word that names no
/// command (and no directory, which would be REPO) it printed the top
/// help with exit status 0, as if the topic existed. Now it says the word
/// is no command, with the closest one, in one line (exit status 2).
#[test]
fn help_of_a_word_that_is_no_command_says_so() {
    let repo = monorepo();
    let dir = repo.path();
    let line = refused_in(dir, &["help", "chek"]);
    assert!(
        line.starts_with("error: no help for 'chek': it is no command; did you mean 'check'? (the commands: compile, check, explain, diff,"),
        "{line}"
    );
    assert!(line.ends_with("; see 'playbookdiff --help')"), "{line}");
    assert!(refused_in(dir, &["help", "nonsense"])
        .starts_with("error: no help for 'nonsense': it is no command; (the commands: "));
    for args in [&["help", "check"][..], &["help", "web"][..], &["help"][..]] {
        let out = playbookdiff().current_dir(dir).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .contains("Usage: playbookdiff"));
    }
}

/// A package of a monorepo given as REPO is a launch directory of the
/// work tree (the note says "analysed as --cwd web there"). `diff`, which
/// compares commits of the whole repository, said the package "is not a
/// git repository" and to "run diff in a git repository"; now it gives
/// the command at the work tree's root. `check --all-dirs`, which checks
/// every launch directory of the work tree whatever the launch directory,
/// says so in a note instead of leaving the user with "--cwd web".
#[test]
fn a_package_as_repo_for_diff_and_all_dirs_is_answered_for_the_work_tree() {
    let repo = monorepo();
    let dir = repo.path();
    assert_eq!(
        refused_in(dir, &["diff", "HEAD~1..HEAD", "web"]),
        "error: REPO 'web' is inside the git work tree '.' but is not its root, and diff compares commits of a whole repository; run: playbookdiff diff 'HEAD~1..HEAD' ."
    );
    assert_eq!(
        refused_in(&dir.join("web"), &["diff", "HEAD", "src"]),
        "error: REPO 'src' is inside the git work tree '..' but is not its root, and diff compares commits of a whole repository; run: playbookdiff diff HEAD .."
    );
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(outside.path().join("plain")).unwrap();
    assert!(refused_in(outside.path(), &["diff", "HEAD", "plain"])
        .starts_with("error: REPO 'plain' is not a git repository"));

    let flat = |t: &[u8]| {
        String::from_utf8_lossy(t)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (here, args) in [
        (dir.to_path_buf(), &["check", "web", "--all-dirs"][..]),
        (dir.join("web"), &["check", "--all-dirs"][..]),
    ] {
        let out = playbookdiff()
            .current_dir(&here)
            .args(args)
            .output()
            .unwrap();
        let stderr = flat(&out.stderr);
        assert!(
            stderr.contains("note: --all-dirs checks every launch directory of the repository"),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.ends_with("not only those in web"),
            "{args:?}: {stderr}"
        );
        assert!(
            flat(&out.stdout).contains("checked 3 launch directories"),
            "{args:?}"
        );
    }
    let out = playbookdiff()
        .current_dir(dir)
        .args(["check", "--all-dirs"])
        .output()
        .unwrap();
    assert!(out.stderr.is_empty(), "{:?}", flat(&out.stderr));
}

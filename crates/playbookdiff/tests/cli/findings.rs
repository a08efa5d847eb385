//! What a new user meets first, on fixtures shaped like public repositories
//! (`tests/fixtures/`): `cloudflare_like` (a pnpm monorepo with a
//! boilerplate `CLAUDE.md` bridge, a package whose `CLAUDE.md` says `npm`
//! where its `AGENTS.md` says `pnpm`, a broken import, a dangling link and
//! a link stored as text), `getsentry_skills_like` (27 skills only Codex
//! finds, through `.agents/skills -> ../skills`), `getsentry_mcp_like` and
//! `kanbus_like` (a long `AGENTS.md` that a committed `AGENTS.override.md`
//! shadows for Codex). Each fixture is copied, links and all, into a
//! temporary directory first, so it is analysed as a repository of its own
//! and never as part of this work tree.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A copy of fixture `name` in a fresh temporary directory, symbolic links
/// kept as links.
fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join(name);
    copy_tree(&src, &dest);
    (tmp, dest)
}

fn copy_tree(src: &Path, dest: &Path) {
    std::fs::create_dir_all(dest).unwrap();
    let mut entries: Vec<_> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let (from, to) = (e.path(), dest.join(e.file_name()));
        let ty = e.file_type().unwrap();
        if ty.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(&from).unwrap(), &to).unwrap();
        } else if ty.is_dir() {
            copy_tree(&from, &to);
        } else {
            std::fs::copy(&from, &to).unwrap();
        }
    }
}

/// `playbookdiff ARGS…` beside the fixture; `check` and `explain` between Claude Code and
/// Codex, the pair these fixtures are written for (each registered harness
/// adds its own findings to a default run).
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    // These fixtures are shaped after Claude Code and Codex repositories:
    // every command but `compile` compares that pair.
    let pair: &[&str] = if !matches!(args.first(), Some(&"compile")) {
        &["--harness", "claude-code", "--harness", "codex"]
    } else {
        &[]
    };
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .current_dir(dir.parent().unwrap())
        .args(args)
        .args(pair)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let (_, out) = run(dir, args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn findings(v: &Value) -> &Vec<Value> {
    v["findings"].as_array().unwrap()
}

fn with_type<'a>(v: &'a Value, ty: &str) -> Vec<&'a Value> {
    findings(v).iter().filter(|f| f["type"] == ty).collect()
}

/// `text` with every run of whitespace as one space (wrapped lines joined).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// npm against pnpm in one package: the two texts give the agents
/// different commands, so the finding is `different` and medium (check
/// exits 1), names both commands, and `explain` shows both paragraphs and
/// says which file to edit for which text to win.
#[test]
fn npm_against_pnpm_in_one_scope_is_actionable() {
    let (_tmp, repo) = fixture("cloudflare_like");
    let args = ["check", "cloudflare_like", "--cwd", "packages/wrangler"];
    let v = json(&repo, &[&args[..], &["--format", "json"]].concat());
    let diff = with_type(&v, "different");
    assert_eq!(diff.len(), 1, "{v:#}");
    let f = diff[0];
    assert_eq!(f["category"], "instruction");
    assert_eq!(f["severity"], "medium");
    assert_eq!(f["actionable"], true);
    assert!(f["id"]
        .as_str()
        .unwrap()
        .starts_with("instruction:different:both:packages/wrangler:"));
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.contains("`npm test`") && msg.contains("`pnpm test -F wrangler`"),
        "{msg}"
    );
    assert!(with_type(&v, "unknown").is_empty(), "{v:#}");
    let (code, _) = run(&repo, &args);
    assert_eq!(code, 1);

    let id = f["id"].as_str().unwrap();
    let (_, text) = run(
        &repo,
        &[
            "explain",
            id,
            "cloudflare_like",
            "--cwd",
            "packages/wrangler",
        ],
    );
    let text = flat(&text);
    assert!(
        text.contains("| Run the wrangler tests with `npm test`."),
        "{text}"
    );
    assert!(
        text.contains("| Run the wrangler tests with `pnpm test -F wrangler`."),
        "{text}"
    );
    assert!(
        text.contains("Claude Code: edit `packages/wrangler/CLAUDE.md:5` so it says what `packages/wrangler/AGENTS.md:5` says (Codex's text wins)"),
        "{text}"
    );
    assert!(
        text.contains("Codex: or edit `packages/wrangler/AGENTS.md:5` so it says what `packages/wrangler/CLAUDE.md:5` says (Claude Code's text wins)"),
        "{text}"
    );
}

/// A `missing` instruction carries the paragraphs the other side lacks, and
/// `explain` shows them.
#[test]
fn a_missing_instruction_shows_its_paragraphs() {
    let (_tmp, repo) = fixture("kanbus_like");
    let v = json(&repo, &["check", "kanbus_like", "--format", "json"]);
    let f = findings(&v)
        .iter()
        .find(|f| f["type"] == "missing" && f["category"] == "instruction")
        .unwrap_or_else(|| panic!("{v:#}"));
    let paras = f["paragraphs"].as_array().unwrap();
    assert!(!paras.is_empty(), "{f:#}");
    assert_eq!(paras[0]["sides"][0]["source"]["path"], "AGENTS.override.md");
    let (_, text) = run(
        &repo,
        &["explain", f["id"].as_str().unwrap(), "kanbus_like"],
    );
    assert!(text.contains("conda run -n py311 <command>"), "{text}");
}

/// The most common bridge, a `CLAUDE.md` with a heading, one boilerplate
/// sentence and `See @AGENTS.md`: low (check does not fail on it), with a
/// message that says the import is there, and no remedy that proposes the
/// import again. Its id is the one it had as a medium finding.
#[test]
fn boilerplate_beside_an_existing_bridge_is_low() {
    let (_tmp, repo) = fixture("cloudflare_like");
    let v = json(&repo, &["check", "cloudflare_like", "--format", "json"]);
    let id = "instruction:missing:claude-code-only:root:8ef75972f25f";
    let f = findings(&v)
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(f["severity"], "low");
    assert_eq!(f["actionable"], false);
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("which imports `AGENTS.md`"),
        "{f:#}"
    );
    let (_, text) = run(&repo, &["explain", id, "cloudflare_like"]);
    let text = flat(&text);
    assert!(text.contains("already imports `AGENTS.md`"), "{text}");
    assert!(!text.contains("line `@AGENTS.md`"), "{text}");
    assert!(
        text.contains("| This file provides guidance to Claude Code"),
        "{text}"
    );
}

/// A broken import, a dangling link and a link stored as text are rows of
/// the view and of `check`, each with its file and what to do, never a
/// count; the finding about the broken file carries the problem and its
/// fix instead of a remedy built on the broken text.
#[test]
fn repository_problems_come_first() {
    let (_tmp, repo) = fixture("cloudflare_like");
    for cmd in [&["cloudflare_like"][..], &["check", "cloudflare_like"][..]] {
        let (_, text) = run(&repo, cmd);
        let problems = text
            .find("Problems in the repository (4)")
            .unwrap_or_else(|| panic!("{text}"));
        let findings = text.find("Findings:").unwrap();
        assert!(problems < findings, "{text}");
        let flat = flat(&text);
        for row in [
            "packages/create-cloudflare/CLAUDE.md symlink-dangling (Claude Code)",
            "packages/miniflare/CLAUDE.md:1 import-missing (Claude Code)",
            "packages/vite-plugin-cloudflare/CLAUDE.md:1 symlink-stored-as-text (Claude Code)",
        ] {
            assert!(flat.contains(row), "{row}: {text}");
        }
        assert!(
            flat.contains("Create `packages/miniflare/AGENTS.md`, or correct or remove the line."),
            "{text}"
        );
        assert!(
            !flat.contains("warnings about the repository itself"),
            "{text}"
        );
    }
    let v = json(&repo, &["check", "cloudflare_like", "--format", "json"]);
    let f = findings(&v)
        .iter()
        .find(|f| f["id"] == "instruction:missing:claude-code-only:packages/miniflare:e19b27f5c68f")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(f["problems"][0]["code"], "import-missing");
    let (_, text) = run(
        &repo,
        &["explain", f["id"].as_str().unwrap(), "cloudflare_like"],
    );
    let text = flat(&text);
    assert!(text.contains("problem (import-missing)"), "{text}");
    assert!(
        text.contains("Claude Code: fix the repository first: `@./AGENTS.md` names no file"),
        "{text}"
    );
    assert!(!text.contains("move the text of"), "{text}");
}

/// 27 skills only Codex finds share a cause: one group in the view, in
/// `check` and in Markdown, naming every skill in `check`; JSON keeps the
/// 27 findings. The findings are ordered by severity, then startup before
/// on demand, then path.
#[test]
fn one_sided_skills_are_one_group() {
    let (_tmp, repo) = fixture("getsentry_skills_like");
    let v = json(
        &repo,
        &["check", "getsentry_skills_like", "--format", "json"],
    );
    let skills: Vec<&Value> = findings(&v)
        .iter()
        .filter(|f| f["category"] == "skill")
        .collect();
    assert_eq!(skills.len(), 27, "{v:#}");
    let (_, view) = run(&repo, &["getsentry_skills_like"]);
    let flat_view = flat(&view);
    assert!(
        flat_view.contains("27 skills only Codex can use (at startup):"),
        "{view}"
    );
    assert!(!flat_view.contains("+17 more"), "{view}");
    // The rows too: one row for the 27 skills whose cells read the same,
    // their names wrapped below it (at most three lines), within 80
    // columns.
    let section: Vec<&str> = view
        .lines()
        .skip_while(|l| *l != "Skills")
        .skip(1)
        .take_while(|l| *l != "MCP servers")
        .collect();
    assert!(section[0].starts_with("! 27 skills "), "{view}");
    assert!(section[0].ends_with("-                  startup"), "{view}");
    assert!(section.len() <= 4, "{view}");
    let names = section[1..].join(" ");
    assert!(names.starts_with("    sentry-skills:agents-md, "), "{view}");
    let shown = names.matches(", ").count();
    assert!(
        names.ends_with(&format!(", +{} more", 27 - shown)),
        "{view}"
    );
    assert!(view.lines().all(|l| l.chars().count() <= 80), "{view}");
    let (_, text) = run(&repo, &["check", "getsentry_skills_like"]);
    let flat_text = flat(&text);
    assert!(
        flat_text.contains("MEDIUM Skill capability gap (27 findings)"),
        "{text}"
    );
    assert!(flat_text.contains("typing-exclusion-worker"), "{text}");
    assert_eq!(text.matches("MEDIUM").count(), 1, "{text}");
    let (_, md) = run(
        &repo,
        &["check", "getsentry_skills_like", "--format", "markdown"],
    );
    assert!(flat(&md).contains("27 skills only Codex can use"), "{md}");

    let (_tmp2, repo) = fixture("cloudflare_like");
    let v = json(&repo, &["check", "cloudflare_like", "--format", "json"]);
    let order: Vec<(String, String)> = findings(&v)
        .iter()
        .filter(|f| f["category"] == "instruction")
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_string(),
                f["scope"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            ("medium".into(), "packages/miniflare".into()),
            ("medium".into(), "packages/vite-plugin-cloudflare".into()),
            ("medium".into(), "packages/wrangler".into()),
            ("low".into(), ".".into()),
        ]
    );
}

/// The finding received at startup in the launch directory comes first
/// among findings of its severity, before 27 one-sided skills, so it never
/// falls into "+N more".
#[test]
fn the_startup_finding_of_the_launch_directory_comes_first() {
    let (_tmp, repo) = fixture("getsentry_skills_like");
    std::fs::remove_file(repo.join("CLAUDE.md")).unwrap();
    std::fs::write(repo.join("CLAUDE.md"), "Use `npm test` to run the tests.\n").unwrap();
    let (_, view) = run(&repo, &["getsentry_skills_like"]);
    let root = view
        .find("instruction:missing:codex-only:root:")
        .unwrap_or_else(|| panic!("{view}"));
    let skills = view
        .find("skills only Codex can use")
        .unwrap_or_else(|| panic!("{view}"));
    assert!(root < skills, "{view}");
}

/// `--target` in the default view: the on-demand files the target triggers
/// read `by target` (explained in the legend); the other on-demand files
/// stay `on demand`, and without a target nothing reads `by target`.
#[test]
fn the_target_marks_the_on_demand_items_it_triggers() {
    let (_tmp, repo) = fixture("cloudflare_like");
    // The row of `path` in the Instructions section of the view.
    let row = |view: &str, path: &str| -> String {
        view.lines()
            .skip_while(|l| *l != "Instructions")
            .take_while(|l| *l != "Skills")
            .find(|l| l.contains(path))
            .unwrap_or_else(|| panic!("{path}: {view}"))
            .to_string()
    };
    let (_, view) = run(
        &repo,
        &[
            "cloudflare_like",
            "--target",
            "packages/wrangler/src/index.ts",
        ],
    );
    assert!(
        row(&view, "/wrangler/CLAUDE.md").contains("by target"),
        "{view}"
    );
    assert!(
        row(&view, "/miniflare/CLAUDE.md").contains("on demand"),
        "{view}"
    );
    assert!(
        !row(&view, "/miniflare/CLAUDE.md").contains("by target"),
        "{view}"
    );
    assert!(
        flat(&view)
            .contains("by target = on demand, and reading or editing the target triggers it."),
        "{view}"
    );
    // Codex has nothing there: no mark in its column.
    assert!(
        row(&view, "/wrangler/CLAUDE.md").trim_end().ends_with('-'),
        "{view}"
    );
    let (_, view) = run(&repo, &["cloudflare_like"]);
    assert!(!view.contains("by target"), "{view}");
    assert!(
        row(&view, "/wrangler/CLAUDE.md").contains("on demand"),
        "{view}"
    );
}

/// A long `AGENTS.md` that a committed `AGENTS.override.md` hides from
/// Codex (the real repository: 458 lines behind a 29-line override): a
/// repository problem in front of the view, with the row shown as
/// `shadowed` and not counted among those no agent loads, even with a
/// Claude Code release that reads no AGENTS.md; evidence of the Codex
/// finding in `check`, and its remedy in `explain`. In local mode the
/// override can be the user's own, and it is information only.
#[test]
fn a_committed_override_that_shadows_agents_md_is_a_warning_in_front() {
    let (_tmp, repo) = fixture("kanbus_like");
    let old = ["--agent-version", "claude-code=2.1.197"];
    let (_, view) = run(&repo, &[&["kanbus_like"][..], &old].concat());
    let problems = view
        .find("Problems in the repository")
        .unwrap_or_else(|| panic!("{view}"));
    let row = view
        .find("AGENTS.md:1-459  instruction-shadowed (Codex)")
        .unwrap_or_else(|| panic!("{view}"));
    assert!(
        problems < row && row < view.find("Findings:").unwrap(),
        "{view}"
    );
    assert!(
        flat(&view).contains(
            "Codex never receives `AGENTS.md` (459 lines): `AGENTS.override.md` (9 lines) in the repository root hides it"
        ),
        "{view}"
    );
    let line = view
        .lines()
        .skip_while(|l| *l != "Instructions")
        .find(|l| l.starts_with("  AGENTS.md ") || l.starts_with("! AGENTS.md "))
        .unwrap_or_else(|| panic!("{view}"));
    assert!(line.trim_end().ends_with("shadowed"), "{line}");
    // The three nested AGENTS.md files no agent loads from the root are
    // counted; the shadowed one is not among them.
    assert!(
        view.contains("3 more that no agent loads from here (pass --cwd to look there)"),
        "{view}"
    );

    let (code, text) = run(&repo, &[&["check", "kanbus_like"][..], &old].concat());
    assert_eq!(code, 1, "{text}");
    let block = text
        .split("\n\n")
        .find(|b| b.contains("instruction:missing:codex-only:root:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        block.contains("problem      instruction-shadowed in AGENTS.md:1-459 (Codex)"),
        "{block}"
    );
    let v = json(
        &repo,
        &[&["check", "kanbus_like", "--format", "json"][..], &old].concat(),
    );
    let f = findings(&v)
        .iter()
        .find(|f| {
            f["id"]
                .as_str()
                .unwrap()
                .starts_with("instruction:missing:codex-only:root:")
        })
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(f["problems"][0]["code"], "instruction-shadowed");
    let (_, text) = run(
        &repo,
        &[
            &["explain", f["id"].as_str().unwrap(), "kanbus_like"][..],
            &old,
        ]
        .concat(),
    );
    assert!(
        flat(&text).contains("Codex: fix the repository first: Codex never receives `AGENTS.md`"),
        "{text}"
    );
    assert!(
        flat(&text).contains("move its text into `AGENTS.md` and delete `AGENTS.override.md`"),
        "{text}"
    );

    // With the newer Claude Code, which reads AGENTS.md, the scope gap on
    // AGENTS.md carries the problem too.
    let v = json(&repo, &["check", "kanbus_like", "--format", "json"]);
    let gap = findings(&v)
        .iter()
        .find(|f| f["type"] == "scope-gap")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(
        gap["problems"][0]["code"], "instruction-shadowed",
        "{gap:#}"
    );

    let (_, view) = run(
        &repo,
        &[
            "kanbus_like",
            "--mode",
            "local",
            "--home",
            playbookdiff_testkit::corpus::empty_home(),
        ],
    );
    assert!(!view.contains("instruction-shadowed"), "{view}");
}

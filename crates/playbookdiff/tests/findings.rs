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

fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .current_dir(dir.parent().unwrap())
        .args(args)
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

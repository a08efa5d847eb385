//! Faults a new user met on a first run, each as the whole kind: counts
//! with the right noun form in every message, the harness's product name
//! in `compile`'s header, one-line advice for `diff` outside git, and the
//! assumptions about how the repository was read in the view.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn playbookdiff() -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.env("NO_COLOR", "1").env("COLUMNS", "80");
    cmd
}

/// Every `.rs` file below `crates/*/src`.
fn sources() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A count formatted into a message (`{n}`, `{}`, `{total}`) and then a
/// plural noun reads "1 launch directories" when the count is 1: every
/// string literal of the sources that does so must use
/// `remedy::count`, or say in a comment `count >= 2` (or `not a count`,
/// within the ten lines above) why it cannot read "1 ...s". Units after a
/// size (`bytes`, `characters`, `tokens`), a limit ("more than {}
/// directories"), a fraction (`{pos}/{len}`) and debug-formatted names
/// (`{p:?}`) are left out.
#[test]
fn counts_before_plural_nouns_agree_with_the_count() {
    let plural = regex::Regex::new(
        r"(^|[^/]|than )\{[a-z_.()0-9]*\}\+? (more )?(launch |changed |accepted |stale |MCP |instruction |repository |differing )?(directories|paths|contexts|findings|files|skills|servers|instructions|entries|lines|items|rows|problems|diagnostics|harnesses|agents|commits|revisions|changes|imports|links|rules|warnings|errors|groups|packages|paragraphs|sources)\b",
    )
    .unwrap();
    let files = sources();
    let mut bad = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Test modules hold expected output, not messages.
        let end = lines
            .iter()
            .position(|l| l.trim_start().starts_with("#[cfg(test)]"))
            .unwrap_or(lines.len());
        for (n, line) in lines[..end].iter().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let in_literal = plural.captures_iter(line).any(|c| {
                let m = c.get(0).unwrap();
                !c[1].starts_with("than") && line[..m.start()].matches('"').count() % 2 == 1
            });
            let excused = lines[n.saturating_sub(10)..=n]
                .iter()
                .any(|l| l.contains("count >= 2") || l.contains("not a count"));
            if in_literal && !excused {
                bad.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(files.len() > 50, "{} source files read", files.len());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = playbookdiff().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A git repository with one committed `AGENTS.md` and one more commit
/// that changes it: `diff HEAD~1..HEAD` has one changed path and one
/// context.
fn two_commits() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("AGENTS.md"), "# Rules\n\nUse pnpm.\n").unwrap();
    crate::support::git(root, &["init", "-q", "."]);
    crate::support::git(root, &["add", "-A"]);
    crate::support::git(root, &["commit", "-q", "-m", "one"]);
    std::fs::write(root.join("AGENTS.md"), "# Rules\n\nUse npm.\n").unwrap();
    crate::support::git(root, &["commit", "-q", "-am", "two"]);
    dir
}

#[test]
fn one_changed_path_and_one_context_are_singular() {
    let repo = two_commits();
    for format in ["text", "markdown"] {
        let (code, out, err) = run(repo.path(), &["diff", "HEAD~1..HEAD", "--format", format]);
        assert!(code == 0 || code == 1, "{code}: {err}");
        assert!(out.contains("1 changed path"), "{out}");
        assert!(!out.contains("1 changed paths"), "{out}");
        assert!(!out.contains("1 contexts"), "{out}");
    }
}

#[test]
fn one_launch_directory_is_singular() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# Rules\n").unwrap();
    for format in ["text", "markdown"] {
        let (_, out, err) = run(dir.path(), &["check", "--all-dirs", "--format", format]);
        assert!(out.contains("1 launch directory "), "{out}{err}");
        assert!(!out.contains("1 launch directories"), "{out}");
    }
}

/// `compile`'s header names the harness as the view does (`OpenCode`),
/// never by its contract id.
#[test]
fn compile_names_the_harness_by_its_product_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# Rules\n").unwrap();
    for (id, name) in [
        ("opencode", "OpenCode"),
        ("codex", "Codex"),
        ("claude-code", "Claude Code"),
    ] {
        let (code, out, _) = run(dir.path(), &["compile", "--harness", id]);
        assert_eq!(code, 0);
        assert_eq!(out.lines().next(), Some(&*format!("PlaybookDiff: {name}")));
    }
}

/// `diff` outside git: exit 2, one line, naming what to run instead; the
/// `--rev` of other commands keeps its own advice (drop `--rev`).
#[test]
fn diff_outside_git_says_what_to_do_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# Rules\n").unwrap();
    let (code, out, err) = run(dir.path(), &["diff", "HEAD~1..HEAD"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("is not a git repository"), "{err}");
    assert!(err.contains("`playbookdiff check`"), "{err}");
    assert!(!err.contains("drop the revision"), "{err}");
    let (code, _, err) = run(dir.path(), &["check", "--rev", "HEAD"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("drop --rev"), "{err}");
}

/// A directory that is not a git work tree is read whole in repo mode
/// (files git would ignore included): the assumption every adapter
/// states is in the view's and `check`'s "Not known" section, and is
/// absent in a git work tree.
#[test]
fn the_view_shows_that_a_directory_outside_git_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# Rules\n").unwrap();
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for args in [&[][..], &["check"][..]] {
        let (_, out, _) = run(dir.path(), args);
        let out = flat(&out);
        let known = out.find("Not known to this analysis").expect(&out);
        let note = out
            .find(
                "Not a git work tree (no .git at the repository root): repo mode reads every file",
            )
            .expect(&out);
        assert!(note > known, "{out}");
    }
    crate::support::git(dir.path(), &["init", "-q", "."]);
    let (_, out, _) = run(dir.path(), &[]);
    assert!(!flat(&out).contains("Not a git work tree"), "{out}");
}

/// A directory whose name is not valid UTF-8 is reported as such, with
/// the advice to rename it, never "fix its permissions" (the directory
/// holding it was listed).
#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_is_reported_with_its_own_advice() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# Rules\n").unwrap();
    let bad = dir.path().join(std::ffi::OsStr::from_bytes(b"bad\xffdir"));
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("AGENTS.md"), "# Below\n").unwrap();
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for args in [
        &[][..],
        &["check"][..],
        &["compile", "--harness", "codex"][..],
    ] {
        let (code, out, err) = run(dir.path(), args);
        assert!(code == 0 || code == 1, "{args:?}: {err}");
        let out = flat(&out);
        assert!(out.contains("is not valid UTF-8"), "{args:?}: {out}");
        assert!(
            out.contains("rename it with a UTF-8 name"),
            "{args:?}: {out}"
        );
        assert!(!out.contains("permissions"), "{args:?}: {out}");
    }
}

/// The `invalid-utf8` diagnostics of `dir` compiled for `harness` from
/// `cwd`: (path, first line).
fn invalid_utf8(dir: &Path, harness: &str, cwd: &str) -> Vec<(String, u64)> {
    let (code, out, err) = run(
        dir,
        &["compile", "--harness", harness, "--cwd", cwd, "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "invalid-utf8")
        .map(|d| {
            (
                d["source"]["path"].as_str().unwrap().to_string(),
                d["source"]["lines"]["start"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// A malformed file an agent reads on demand is reported from every
/// launch directory that can reach it, at the line of its first invalid
/// byte: from the root, OpenCode's `sub/AGENTS.md` and Claude Code's
/// `sub/CLAUDE.md` (both on demand); Codex reads `sub/AGENTS.md` only when
/// launched in `sub`, and reports it from there.
#[test]
fn a_malformed_on_demand_file_is_reported_from_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("AGENTS.md"), "# Root\n").unwrap();
    std::fs::write(root.join("CLAUDE.md"), "@AGENTS.md\n").unwrap();
    std::fs::write(root.join("sub/AGENTS.md"), b"# Sub\nbad \xff here\n").unwrap();
    std::fs::write(root.join("sub/CLAUDE.md"), b"# Sub\n\nok\n\xfe\n").unwrap();
    assert_eq!(
        invalid_utf8(root, "opencode", "."),
        [("sub/AGENTS.md".to_string(), 2)]
    );
    assert_eq!(
        invalid_utf8(root, "claude-code", "."),
        [("sub/CLAUDE.md".to_string(), 4)]
    );
    assert_eq!(invalid_utf8(root, "codex", "."), []);
    assert_eq!(
        invalid_utf8(root, "codex", "sub"),
        [("sub/AGENTS.md".to_string(), 2)]
    );
    // The view shows it among the repository's problems, with its line.
    // The harnesses of the assertions above (Copilot CLI reads
    // `sub/AGENTS.md` on demand too).
    let (_, view, _) = run(
        root,
        &[
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--harness",
            "opencode",
        ],
    );
    assert!(
        view.contains("sub/AGENTS.md:2  invalid-utf8 (OpenCode)"),
        "{view}"
    );
}

/// The row of `path` in the Instructions section of `view`.
fn instruction_row<'a>(view: &'a str, path: &str) -> Option<&'a str> {
    view.lines()
        .skip_while(|l| *l != "Instructions")
        .take_while(|l| *l != "Skills")
        .find(|l| {
            l.get(2..)
                .is_some_and(|r| r.starts_with(&format!("{path} ")))
        })
}

/// A `CLAUDE.md` that holds only `@AGENTS.md` is the bridge Claude Code
/// loads at startup: its row says so (`startup (bridge)`), with or
/// without OpenCode (which reads AGENTS.md instead, so its `CLAUDE.md` is
/// shadowed), and it is never counted among files "not loaded by any
/// agent"; the bridge adds no text, so no finding names it.
#[test]
fn a_claude_md_that_only_imports_agents_md_is_shown_as_the_bridge() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("CLAUDE.md"), "@AGENTS.md\n").unwrap();
    std::fs::write(root.join("AGENTS.md"), "# Rules\n\nUse pnpm.\n").unwrap();
    crate::support::git(root, &["init", "-q", "."]);
    crate::support::git(root, &["add", "-A"]);
    crate::support::git(root, &["commit", "-q", "-m", "init"]);
    let pair = ["--harness", "claude-code", "--harness", "codex"];
    let (_, view, _) = run(root, &pair);
    let row = instruction_row(&view, "CLAUDE.md").unwrap_or_else(|| panic!("{view}"));
    let cells: Vec<&str> = row
        .split("   ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(cells, ["CLAUDE.md", "startup (bridge)", "-"], "{view}");
    assert!(!view.contains("not loaded by any agent"), "{view}");
    // The harnesses that read CLAUDE.md or AGENTS.md.
    let three = [
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ];
    let (_, view, _) = run(root, &three);
    let row = instruction_row(&view, "CLAUDE.md").unwrap_or_else(|| panic!("{view}"));
    assert!(row.starts_with("  CLAUDE.md "), "{view}");
    let cells: Vec<&str> = row
        .split("   ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cells,
        ["CLAUDE.md", "startup (bridge)", "-", "shadowed"],
        "{view}"
    );
    let (code, out, _) = run(root, &[&["check", "--format", "json"][..], &three].concat());
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("\"instruction:"), "{out}");
}

/// Each reason an item is not loaded has its own word, the same in the
/// view, `check` and `explain`: a skill Codex refuses (no description) is
/// `excluded`, a CLAUDE.md OpenCode skips for AGENTS.md is `shadowed`,
/// and "not loaded" is kept for items loaded only from other launch
/// directories; the view's legend explains each word it uses.
#[test]
fn refused_and_shadowed_items_have_their_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".agents/skills/bad")).unwrap();
    std::fs::write(
        root.join(".agents/skills/bad/SKILL.md"),
        "---\nname: bad\n---\nbody\n",
    )
    .unwrap();
    std::fs::write(root.join("AGENTS.md"), "# Rules\n\nUse pnpm.\n").unwrap();
    std::fs::write(root.join("CLAUDE.md"), "# Rules\n\nUse npm.\n").unwrap();
    std::fs::create_dir(root.join("pkg")).unwrap();
    std::fs::write(root.join("pkg/AGENTS.md"), "# Package\n\nRun make.\n").unwrap();
    crate::support::git(root, &["init", "-q", "."]);
    crate::support::git(root, &["add", "-A"]);
    // The harnesses whose words differ here (Gemini CLI reads none of
    // these files but `.agents/skills`).
    let three = [
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ];
    let (_, view, _) = run(root, &three);
    let skills: Vec<&str> = view
        .lines()
        .skip_while(|l| *l != "Skills")
        .take_while(|l| *l != "MCP servers")
        .collect();
    let bad = skills
        .iter()
        .find(|l| l.starts_with("! bad "))
        .expect(&view);
    assert!(bad.contains(" excluded "), "{view}");
    assert!(!bad.contains("not loaded"), "{view}");
    let claude = instruction_row(&view, "CLAUDE.md").expect(&view);
    assert!(claude.trim_end().ends_with("shadowed"), "{view}");
    let flat = view.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("excluded = the agent finds it, but refuses it"),
        "{view}"
    );
    assert!(
        flat.contains("shadowed = the agent has it, but another file"),
        "{view}"
    );
    // pkg/AGENTS.md: Codex reads it only when launched in pkg.
    let pkg = instruction_row(&view, "pkg/AGENTS.md").expect(&view);
    assert!(pkg.contains(" not loaded "), "{view}");
    assert!(flat.contains("not loaded = the agent has it, but not from this launch directory"));
    let (_, json, _) = run(root, &[&["check", "--format", "json"][..], &three].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let id = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .find(|id| id.starts_with("skill:") && id.contains(":bad:"))
        .expect(&json)
        .to_string();
    let (_, out, _) = run(root, &[&["explain", id.as_str()][..], &three].concat());
    assert!(
        out.contains(".agents/skills/bad/SKILL.md:1-3  (excluded)"),
        "{out}"
    );
    for args in [vec!["explain", id.as_str()], vec!["check"]] {
        let (_, out, _) = run(root, &[&args[..], &three].concat());
        assert!(!out.contains("not loaded"), "{args:?}: {out}");
        assert!(out.contains("Codex refuses"), "{args:?}: {out}");
    }
}

//! `check`, `explain` and the side-by-side view as a user runs them: exit
//! statuses, the JSON document of the contract, aliases, `--all-dirs` and
//! the Markdown report. Fixtures are the compare crate's.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../playbookdiff-compare/tests/fixtures")
        .join(name)
}

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

/// `text` with every run of whitespace as one space (wrapped lines and
/// continued commands joined).
fn flat(text: &str) -> String {
    text.replace(" \\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let (code, out, err) = run(args);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}")),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn parity_exits_zero_with_the_contract_document() {
    let dir = fixture("parity");
    let (code, v) = json(&[
        "check",
        s(&dir),
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["context"]["cwd"], ".");
    assert_eq!(v["context"]["repositoryRoot"], ".");
    assert_eq!(v["harnesses"], serde_json::json!(["claude-code", "codex"]));
    assert_eq!(v["configs"]["claude-code"]["harness"], "claude-code");
    assert_eq!(v["configs"]["codex"]["harness"], "codex");
    assert_eq!(v["findings"], serde_json::json!([]));
    assert_eq!(
        v["summary"],
        serde_json::json!({"high": 0, "medium": 0, "low": 0, "info": 0})
    );
    let (code, text, _) = run(&[
        "check",
        s(&dir),
        "--harness",
        "claude-code",
        "--harness",
        "codex",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("No compatibility findings."), "{text}");
    assert!(
        text.contains("no compatibility divergence detected"),
        "{text}"
    );
}

#[test]
fn informational_findings_exit_zero_actionable_ones_exit_one() {
    const TWO: [&str; 4] = ["--harness", "claude-code", "--harness", "codex"];
    let wording = fixture("different_wording");
    let args = [&["check", s(&wording), "--json"][..], &TWO].concat();
    let (code, v) = json(&args);
    assert_eq!(code, 0);
    assert_eq!(v["summary"]["info"], 1);
    let f = &v["findings"][0];
    assert_eq!(f["category"], "instruction");
    assert_eq!(f["type"], "unknown");
    assert_eq!(f["severity"], "info");
    assert_eq!(f["actionable"], false);

    let fx = fixture("cwd_target");
    let args = [
        &[
            "check",
            s(&fx),
            "--cwd",
            ".",
            "--path",
            "apps/api/file.ts",
            "--json",
        ][..],
        &TWO,
    ]
    .concat();
    let (code, v) = json(&args);
    assert_eq!(code, 1);
    assert_eq!(v["summary"]["medium"], 2);
    assert_eq!(v["context"]["targetPath"], "apps/api/file.ts");
    let f = &v["findings"][0];
    assert_eq!(f["presentIn"], serde_json::json!(["claude-code"]));
    assert_eq!(f["absentFrom"], serde_json::json!(["codex"]));
    assert_eq!(f["actionable"], true);
    assert!(f["items"][0]["source"]["path"].is_string());
    assert!(f["message"].as_str().unwrap().ends_with('.'));

    let args = [
        &[
            "check",
            s(&fx),
            "--cwd",
            "apps/api",
            "--path",
            "apps/api/file.ts",
            "--json",
        ][..],
        &TWO,
    ]
    .concat();
    let (code, _) = json(&args);
    assert_eq!(code, 0);
}

#[test]
fn explicit_harnesses_and_refusals() {
    let dir = fixture("mcp_one_sided");
    let (code, v) = json(&[
        "check",
        s(&dir),
        "--harness",
        "codex",
        "--harness",
        "claude-code",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["harnesses"], serde_json::json!(["claude-code", "codex"]));
    assert!(v["findings"][0]["id"]
        .as_str()
        .unwrap()
        .starts_with("mcp:capability-gap:claude-code-only:database:"));
    for args in [
        vec!["check", s(&dir), "--harness", "codex"],
        vec!["check", s(&dir), "--harness", "windsurf"],
        vec!["check", "/nonexistent/repository"],
        vec!["check", s(&dir), "--cwd", "../../etc"],
        vec!["check", s(&dir), "--format", "xml"],
        vec!["frobnicate-not-a-repo"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error"), "{err}");
    }
    for args in [
        vec!["--help"],
        vec!["--version"],
        vec!["check", "--help"],
        vec!["explain", "--help"],
    ] {
        assert_eq!(run(&args).0, 0, "{args:?}");
    }
}

#[test]
fn explain_prints_evidence_reasons_and_a_fix() {
    let dir = fixture("fr17_partial_bridges");
    let (code, v) = json(&["check", s(&dir), "--cwd", "packages/b", "--json"]);
    assert_eq!(code, 1);
    // Codex's (with any other harness reading AGENTS.md), not Claude Code's.
    let id = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .find(|id| id.starts_with("instruction:missing:codex") && id.contains("-only:packages/b:"))
        .unwrap_or_else(|| panic!("{v}"))
        .to_string();
    let (code, text, _) = run(&["explain", &id, s(&dir), "--cwd", "packages/b"]);
    assert_eq!(code, 0);
    let text = flat(&text);
    assert!(text.contains("packages/b/AGENTS.md:1"), "{text}");
    assert!(text.contains("why: Loaded at startup"), "{text}");
    assert!(text.contains("no CLAUDE.md beside it"), "{text}");
    // No `packages/b/CLAUDE.md`: the fix creates it, as the reason says.
    assert!(
        text.contains("create `packages/b/CLAUDE.md` holding the line `@AGENTS.md`"),
        "{text}"
    );
    let (code, v) = json(&["explain", &id, s(&dir), "--cwd", "packages/b", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["finding"]["id"], id.as_str());
    assert!(v["finding"]["remedies"][0]["action"]
        .as_str()
        .unwrap()
        .contains("@AGENTS.md"));
    // The same id in another context is not there: exit 2, one line.
    let (code, out, err) = run(&["explain", &id, s(&dir)]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("not found for this analysis context"), "{err}");

    let dir = fixture("symlinked_skill");
    let (code, _, err) = run(&[
        "explain",
        "skill:capability-gap:codex-only:release:000000000000",
        s(&dir),
    ]);
    assert_eq!(code, 2, "{err}");

    let dir = fixture("agents_skills_only");
    let (_, v) = json(&["check", s(&dir), "--json"]);
    let id = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .find(|id| id.starts_with("skill:"))
        .unwrap_or_else(|| panic!("{v}"))
        .to_string();
    let (_, text, _) = run(&["explain", &id, s(&dir)]);
    let text = flat(&text);
    assert!(
        text.contains(
            "make `.claude/skills/release` a symbolic link to `../../.agents/skills/release`"
        ),
        "{text}"
    );
}

#[test]
fn the_view_fits_eighty_columns_and_points_further() {
    let dir = fixture("cwd_target");
    let out = playbookdiff()
        .current_dir(&dir)
        .args([".", "--root", "--target", "apps/api/file.ts"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        // Paths of this fixture are short: every line fits.
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    assert!(text.contains("agent receives"));
    let two = playbookdiff()
        .current_dir(&dir)
        .args([".", "--root", "--target", "apps/api/file.ts"])
        .args(["--harness", "claude-code", "--harness", "codex"])
        .output()
        .unwrap();
    let two = String::from_utf8(two.stdout).unwrap();
    assert!(two.contains("What each agent receives"), "{two}");
    assert!(
        two.contains("! apps/api/AGENTS.md = apps/api/CLAUDE.md"),
        "{two}"
    );
    // The pointers analyse the same context again.
    assert!(
        text.contains("playbookdiff check --root --target apps/api/file.ts --format json"),
        "{text}"
    );
    assert!(
        text.contains("playbookdiff explain ID --root --target apps/api/file.ts"),
        "{text}"
    );
    assert_eq!(
        text.matches("user-level configuration is outside the analysis")
            .count(),
        1
    );
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn all_dirs_checks_every_configured_directory_and_groups() {
    let dir = fixture("fr17_partial_bridges");
    const TWO: [&str; 4] = ["--harness", "claude-code", "--harness", "codex"];
    let args = [&["check", s(&dir), "--all-dirs", "--json"][..], &TWO].concat();
    let (code, v) = json(&args);
    assert_eq!(code, 1);
    assert_eq!(v["allDirs"], true);
    let dirs: Vec<&str> = v["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["cwd"].as_str().unwrap())
        .collect();
    assert_eq!(dirs, [".", "packages/a", "packages/b"]);
    assert_eq!(v["directories"][1]["findings"], serde_json::json!([]));
    let f: Vec<&serde_json::Value> = v["findings"].as_array().unwrap().iter().collect();
    assert_eq!(f.len(), 2, "{f:?}");
    let missing = f.iter().find(|f| f["type"] == "missing").unwrap();
    assert_eq!(missing["directories"], serde_json::json!(["packages/b"]));
    assert!(v["groups"].as_array().unwrap().len() >= 2);
    // Each directory's pane: what each agent receives at startup there,
    // in order, each item and list stored once.
    let startup = |dir: usize, h: &str| -> Vec<String> {
        let list = v["directories"][dir]["receives"][h]["instructions"]
            .as_u64()
            .unwrap() as usize;
        v["received"]["lists"][list]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let item = &v["received"]["items"][i.as_u64().unwrap() as usize];
                assert_eq!(item["harness"], h);
                item["source"]["path"].as_str().unwrap().to_string()
            })
            .collect()
    };
    assert_eq!(startup(0, "codex"), ["AGENTS.md"]);
    assert_eq!(startup(0, "claude-code"), ["CLAUDE.md"]);
    assert_eq!(startup(1, "codex"), ["AGENTS.md", "packages/a/AGENTS.md"]);
    assert_eq!(startup(2, "codex"), ["AGENTS.md", "packages/b/AGENTS.md"]);
    assert_eq!(startup(2, "claude-code"), ["CLAUDE.md"]);
    assert_eq!(
        v["directories"][0]["receives"]["claude-code"]["onDemand"], 1,
        "packages/a/CLAUDE.md, once the agent touches packages/a"
    );
    let items = v["received"]["items"].as_array().unwrap();
    let root_agents_md = items
        .iter()
        .filter(|i| i["source"]["path"] == "AGENTS.md")
        .count();
    assert_eq!(root_agents_md, 1, "stored once for three directories");
    let (code, text, err) = run(&[&["check", s(&dir), "--all-dirs"][..], &TWO].concat());
    assert_eq!(code, 1);
    // No progress bar when standard error is not a terminal.
    assert!(err.is_empty(), "{err}");
    let text = flat(&text);
    assert!(text.contains("In 1 of 3 directories: Codex receives the text of `packages/b/AGENTS.md`, which Claude Code has nothing equivalent for. packages/b e.g. playbookdiff explain instruction:missing:codex-only:packages/b:"), "{text}");
    // Agreeing everywhere exits 0.
    let (code, _, _) = run(&["check", s(&fixture("cwd_target")), "--all-dirs"]);
    assert_eq!(code, 1);
    let (code, _, _) = run(&[
        &["check", s(&fixture("nested_both")), "--all-dirs"][..],
        &TWO,
    ]
    .concat());
    assert_eq!(code, 1);
    let (code, _, _) = run(&[&["check", s(&fixture("parity")), "--all-dirs"][..], &TWO].concat());
    assert_eq!(code, 0);
    let (code, _, err) = run(&["check", s(&dir), "--all-dirs", "--cwd", "packages"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn markdown_has_a_table_per_category_and_collapsed_details() {
    let dir = fixture("mcp_one_sided");
    let (code, md, _) = run(&["check", s(&dir), "--format", "markdown"]);
    assert_eq!(code, 1);
    assert!(md.starts_with("## PlaybookDiff"));
    assert!(md.contains("### MCP servers"));
    assert!(md.contains("| Severity | Finding | Where |"));
    assert!(md.contains("<details><summary>"));
    assert!(md.contains("</details>"));
    let (_, md, _) = run(&[
        "check",
        s(&fixture("fr17_partial_bridges")),
        "--all-dirs",
        "--format",
        "markdown",
    ]);
    assert!(md.contains("| medium | 1 of 3 |"), "{md}");
}

#[test]
fn output_is_deterministic() {
    let dir = fixture("pointer_stub");
    let a = run(&["check", s(&dir), "--json"]);
    let b = run(&["check", s(&dir), "--json"]);
    assert_eq!(a, b);
    let a = run(&["check", s(&dir), "--all-dirs", "--json"]);
    let b = run(&["check", s(&dir), "--all-dirs", "--json"]);
    assert_eq!(a, b);
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/monorepo")
}

/// The default view of the example, with `extra` arguments.
fn example_view(extra: &[&str]) -> String {
    let out = playbookdiff()
        .current_dir(example().join("../.."))
        .args(["examples/monorepo", "--root"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    text
}

#[test]
fn the_view_of_the_example_shows_three_columns_in_eighty() {
    let text = example_view(&[
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ]);
    assert!(
        text.starts_with("PlaybookDiff: Claude Code <-> Codex <-> OpenCode\n"),
        "{text}"
    );
    let head = text.lines().find(|l| l.contains("agent receives")).unwrap();
    for h in ["Claude Code", "Codex", "OpenCode"] {
        assert!(head.contains(h), "{head}");
    }
    let lines: Vec<&str> = text.lines().collect();
    // OpenCode reads no `.mcp.json` or `.codex/config.toml`.
    let github = lines.iter().find(|l| l.starts_with("! github")).unwrap();
    assert!(github.ends_with(" -"), "{github}");
    let deploy = lines.iter().find(|l| l.starts_with("! deploy")).unwrap();
    assert!(deploy.ends_with(" startup"), "{deploy}");
}

/// Without `--harness`, the view compares every registered harness, in
/// registry order, and names each in its first line.
#[test]
fn the_default_view_compares_every_registered_harness() {
    let text = example_view(&[]);
    let names: Vec<&str> = playbookdiff_registry::harnesses()
        .iter()
        .map(|h| h.display_name())
        .collect();
    // The title, wrapped at 80 columns, up to the repository line.
    let title: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Repository "))
        .map(str::trim)
        .collect();
    assert_eq!(
        title.join(" "),
        format!("PlaybookDiff: {}", names.join(" <-> ")),
        "{text}"
    );
}

#[test]
fn the_view_of_the_example_says_why_rows_differ_and_what_each_cell_means() {
    let text = example_view(&["--harness", "claude-code", "--harness", "codex"]);
    let lines: Vec<&str> = text.lines().collect();
    let db = lines.iter().position(|l| l.starts_with("! db ")).unwrap();
    assert!(lines[db].contains("needs approval (stdio)"), "{text}");
    assert_eq!(lines[db + 1].trim(), "differs: args", "{text}");
    let docs = lines
        .iter()
        .find(|l| l.starts_with("! docs-search"))
        .unwrap();
    assert!(docs.contains("needs approval (sse)"), "{docs}");
    assert!(!docs.contains("unknown"), "{docs}");
    let github = lines.iter().find(|l| l.starts_with("  github")).unwrap();
    assert!(github.contains("startup (stdio)"), "{github}");
    let flat = flat(&text);
    assert!(flat.contains("- = the agent has nothing of that name or file."));
    assert!(flat.contains("not loaded = the agent has it, but not from this launch directory."));
    assert!(
        flat.contains("launched in . (the repository root)"),
        "{flat}"
    );
}

#[test]
fn all_dirs_groups_by_path_and_each_example_id_is_about_the_files_named() {
    let repo = example();
    // The three harnesses the groups below are about.
    let (code, text, err) = run(&[
        "check",
        s(&repo),
        "--all-dirs",
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(!text.contains("\n  cwd "), "{text}");
    // The root CLAUDE.md and the packages' own CLAUDE.md are separate
    // groups.
    let flat_text = flat(&text);
    assert!(
        flat_text.contains(
            "In 5 of 5 directories: Claude Code receives the text of `CLAUDE.md`, which Codex"
        ),
        "{flat_text}"
    );
    assert!(
        flat_text
            .contains("Claude Code receives the text of the launch directory's own `CLAUDE.md`"),
        "{flat_text}"
    );
    // Every group's example runs, and explains a finding about a file the
    // sentence names, seen from a directory the group lists.
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.contains("e.g. playbookdiff explain"))
        .collect();
    assert!(blocks.len() >= 8, "{text}");
    for block in blocks {
        let sentence = flat(block.split("\n  e.g.").next().unwrap());
        // A long command is continued on the next lines (` \\`).
        let block = block.replace(" \\\n", " ");
        let command = block
            .lines()
            .find_map(|l| l.trim().strip_prefix("e.g. playbookdiff "))
            .unwrap();
        let args: Vec<&str> = command.split_whitespace().collect();
        let repo_arg = repo.to_str().unwrap();
        assert!(args.contains(&repo_arg), "{command}");
        let mut with_json = args.clone();
        with_json.extend([
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--harness",
            "opencode",
        ]);
        with_json.push("--json");
        let (code, out, err) = run(&with_json);
        assert_eq!(code, 0, "{command}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let cwd = v["context"]["cwd"].as_str().unwrap();
        let shown = if cwd == "." { ". (the root)" } else { cwd };
        assert!(sentence.contains(shown), "{cwd} not listed in {sentence}");
        let f = &v["finding"];
        if f["category"] != "instruction" {
            continue;
        }
        let named: Vec<String> = sentence
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        let paths: Vec<&str> = f["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["source"]["path"].as_str().unwrap())
            .collect();
        assert!(
            paths.iter().any(|p| named.iter().any(|n| {
                *p == n.as_str()
                    || (n.ends_with('/') && p.starts_with(n.as_str()))
                    || (!n.contains('/') && p.ends_with(&format!("/{n}")))
                    || (n.contains('/') && p.ends_with(&format!("/{n}")))
            })),
            "{sentence}: the example is about {paths:?}"
        );
    }
}

#[test]
fn check_explain_and_compile_text_of_the_example_fit_eighty_columns() {
    let repo = example();
    let repo = s(&repo);
    // The first finding in packages/ui, whichever harnesses it names.
    let (_, v) = json(&["check", repo, "--cwd", "packages/ui", "--json"]);
    let id = v["findings"][0]["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("instruction:missing:"), "{id}");
    for args in [
        vec!["check", repo],
        vec!["check", repo, "--cwd", "apps/api"],
        vec![
            "check",
            repo,
            "--cwd",
            "packages/ui",
            "--target",
            "packages/ui/src/button.tsx",
        ],
        vec!["explain", &id, repo, "--cwd", "packages/ui"],
        vec!["compile", repo],
        vec!["compile", repo, "--harness", "codex", "--cwd", "apps/web"],
    ] {
        let (code, text, err) = run(&args);
        assert!(code == 0 || code == 1, "{args:?}: {err}");
        for line in text.lines() {
            // The repository's absolute path is the only thing allowed to
            // push a line past 80 columns (with the `--root` the commands
            // carry because the example lies inside this project).
            let line = line.replace(repo, "REPO").replace(" --root", "");
            // A finding id naming four harnesses is wider than 78 columns;
            // it is never broken, so alone on its line it may pass 80.
            let bare = line.trim_end_matches(" \\").trim_start();
            let id_alone = !bare.contains(' ')
                && bare.ends_with(|c: char| c.is_ascii_hexdigit())
                && bare.matches(':').count() >= 4;
            assert!(line.chars().count() <= 80 || id_alone, "{args:?}: {line:?}");
        }
    }
}

/// `check --all-dirs` shows the problems in the repository as `check`
/// does, each once however many launch directories report it.
#[test]
fn all_dirs_shows_each_problem_in_the_repository_once() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    let write = |p: &str, t: &str| {
        let p = r.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    };
    write("AGENTS.md", "# Rules\n\nUse pnpm.\n");
    write(
        "CLAUDE.md",
        "@AGENTS.md\n\nSee @docs/missing.md for more.\n",
    );
    write("packages/a/AGENTS.md", "# A\n\nUse vitest.\n");
    write("packages/a/CLAUDE.md", "@AGENTS.md\n");
    write("packages/b/AGENTS.md", "# B\n\nUse jest.\n");
    write("packages/b/CLAUDE.md", "@AGENTS.md\n");
    let rs = s(r);
    let (_, single, _) = run(&[
        "check",
        rs,
        "--harness",
        "claude-code",
        "--harness",
        "codex",
    ]);
    assert!(
        single.contains("Problems in the repository (1)"),
        "{single}"
    );
    let (_, text, _) = run(&[
        "check",
        rs,
        "--all-dirs",
        "--harness",
        "claude-code",
        "--harness",
        "codex",
    ]);
    assert!(
        text.contains("Problems in the repository (1): fix these first"),
        "{text}"
    );
    assert_eq!(text.matches("import-missing").count(), 1, "{text}");
    assert!(
        flat(&text).contains("reported from 3 launch directories: ., packages/a, packages/b"),
        "{text}"
    );
    // Before the findings, like `check`.
    assert!(
        text.find("Problems in the repository").unwrap() < text.find("Findings:").unwrap(),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

/// Where launch directories word the same problem differently (here
/// `agents-md-not-bridged` of Claude Code 2.1.197, which has no AGENTS.md
/// fallback, with no `CLAUDE.md` anywhere: at the root the nested
/// `AGENTS.md` lies below the launch directory and the reason is only that
/// no `CLAUDE.md` is beside it; at its own directory the reason adds that
/// this release predates the fallback), `--all-dirs` shows the wording of
/// the first directory in path order, the root, whichever worker finishes
/// first: the report is the same on every run.
#[test]
fn all_dirs_words_each_problem_as_the_first_directory_does_on_every_run() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    std::fs::create_dir_all(r.join(".git")).unwrap();
    let n = 24;
    for i in 0..n {
        let d = r.join(format!("packages/p{i:02}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("AGENTS.md"), format!("# P{i}\n\nUse vitest.\n")).unwrap();
    }
    let version = "claude-code=2.1.197";
    let args = [
        "check",
        s(r),
        "--all-dirs",
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--agent-version",
        version,
    ];
    let first = run(&args).1;
    let root = flat(
        &run(&[
            "check",
            s(r),
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--agent-version",
            version,
        ])
        .1,
    );
    let own = flat(
        &run(&[
            "check",
            s(r),
            "--cwd",
            "packages/p00",
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--agent-version",
            version,
        ])
        .1,
    );
    // The wording that differs: the sentence after the file's name, up
    // to the fix (which adds to a CLAUDE.md or creates one).
    let said = |text: &str| -> String {
        let at = text
            .find("does not read `packages/p00/AGENTS.md`")
            .unwrap_or_else(|| panic!("{text}"));
        let rest = &text[at..];
        let fix = [" Add ", " Create "]
            .iter()
            .filter_map(|w| rest.find(w))
            .min()
            .unwrap_or(rest.len());
        rest[..fix].to_string()
    };
    assert_ne!(
        said(&root),
        said(&own),
        "the fixture words the problem differently per directory"
    );
    assert!(flat(&first).contains(&said(&root)), "{first}");
    for _ in 0..3 {
        assert_eq!(run(&args).1, first);
    }
}

/// `check --all-dirs` on a chain of nested directories, each with an
/// `AGENTS.md` and a `CLAUDE.md` (`scripts/gen-deep-chain.py`): every
/// launch directory is checked. How its work grows with the depth is
/// `work::the_work_of_a_deep_chain_grows_with_the_square_of_its_depth`.
#[test]
fn all_dirs_on_a_deep_chain_checks_every_level() {
    let tmp = tempfile::tempdir().unwrap();
    let depth = 100;
    crate::work::deep_chain(tmp.path(), depth);
    let (code, out, err) = run(&["check", s(tmp.path()), "--all-dirs"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains(&format!("checked     {depth} launch directories")),
        "{out}"
    );
}

/// `check` on a repository with many MCP servers (each named in
/// `.mcp.json`, `.codex/config.toml` and `opencode.json`, a third and a
/// fifth of them with another command, so findings exist) and many skills
/// in `.claude/skills` (read by Claude Code and OpenCode): the findings
/// are grouped and counted. How its work grows with the number of servers
/// is `work::the_work_of_check_on_many_servers_and_skills_grows_linearly`.
#[test]
fn check_on_many_mcp_servers_and_skills_groups_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (servers, skills) = (3000, 200);
    crate::work::many_servers_and_skills(tmp.path(), servers, skills);
    // The repository configures Claude Code, Codex and OpenCode.
    let (code, out, err) = run(&[
        "check",
        s(tmp.path()),
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ]);
    assert_eq!(code, 1, "{err}");
    // Every third server differs in Codex, every fifth in OpenCode.
    let differing = (0..servers).filter(|k| k % 3 == 0 || k % 5 == 0).count();
    assert!(
        out.contains(&format!(
            "{skills} skills only Claude Code and OpenCode can use"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "ids mcp:different:all:s0:3594ab5a99b6, +{} more",
            differing - 1
        )),
        "{out}"
    );
}

/// A paragraph of thousands of characters (here a CLAUDE.md of one line,
/// as a binary file read as text also is) is quoted in a pull-request
/// comment as an excerpt of 400 characters ending in ` …`; it was quoted
/// whole.
#[test]
fn markdown_quotes_a_long_paragraph_as_an_excerpt() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    std::fs::create_dir(r.join(".git")).unwrap();
    let long = "word ".repeat(1000);
    std::fs::write(r.join("CLAUDE.md"), format!("{long}\n")).unwrap();
    let rs = r.to_str().unwrap();
    let (code, out, err) = run(&["check", rs, "--format", "markdown"]);
    assert_eq!(code, 1, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("- only claude-code: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.chars().count() < 450,
        "{} chars: {line}",
        line.chars().count()
    );
    assert!(line.ends_with(" …"), "{line}");
}

/// A directory whose name holds a tab, a space, `%`, `,` and `:`: every
/// forge format points at the real path of its `CLAUDE.md`. GitHub's
/// `file=` property is escaped exactly as GitHub documents it (`%`, CR,
/// LF, `:`, `,`) and holds the tab itself (it once read `tab\tdir`, a
/// path that does not exist); GitLab's `location.path` is the path; a
/// SARIF `uri` is the path percent-encoded.
#[test]
fn forge_formats_point_at_the_real_path_of_a_hostile_directory_name() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    std::fs::create_dir(r.join(".git")).unwrap();
    let dir = "tab\tdir 100%,a:b";
    std::fs::create_dir(r.join(dir)).unwrap();
    std::fs::write(r.join(dir).join("CLAUDE.md"), "Use pnpm.\n").unwrap();
    std::fs::write(r.join("CLAUDE.md"), "Root.\n").unwrap();
    let path = format!("{dir}/CLAUDE.md");
    let rs = r.to_str().unwrap();
    let args = |format: &'static str| {
        vec![
            "check",
            rs,
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--format",
            format,
        ]
    };
    let (code, github, err) = run(&args("github"));
    assert_eq!(code, 1, "{err}");
    let escaped = path
        .replace('%', "%25")
        .replace(':', "%3A")
        .replace(',', "%2C");
    assert!(github.contains(&format!("file={escaped},")), "{github}");
    let (_, gitlab, _) = run(&args("gitlab"));
    let v: serde_json::Value = serde_json::from_str(&gitlab).unwrap();
    let paths: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["location"]["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&path.as_str()), "{paths:?}");
    let (_, sarif, _) = run(&args("sarif"));
    let v: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let uris: Vec<String> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        uris.contains(&"tab%09dir%20100%25%2Ca%3Ab/CLAUDE.md".to_string()),
        "{uris:?}"
    );
}

/// Each place of a finding's evidence is named once per harness, in
/// every format that lists places: Copilot CLI reaches the root's
/// `AGENTS.md` both as the root's and as the launch directory's file, two
/// items from the same lines, which the Markdown report listed as
/// `AGENTS.md:1-4, AGENTS.md:1-4`.
#[test]
fn evidence_names_each_place_once() {
    let check = |format: &str| {
        let out = playbookdiff()
            .current_dir(example().join("../.."))
            .args(["check", "examples/monorepo", "--root", "--all-dirs"])
            .args(["--format", format])
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let markdown = check("markdown");
    let mut lists = 0;
    // `harness: `place`, `place`` in a cell, one per `<br>`; `- harness
    // `place`: why` in the details.
    for cell in markdown.split(['|', '\n']).flat_map(|c| c.split("<br>")) {
        let Some((_, places)) = cell.trim().split_once(": <code>") else {
            continue;
        };
        lists += 1;
        let places: Vec<&str> = places.split(", ").collect();
        let mut unique = places.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), places.len(), "{cell}");
    }
    assert!(lists > 20, "{markdown}");
    let details: Vec<&str> = markdown.lines().filter(|l| l.starts_with("- ")).collect();
    for pair in details.windows(2) {
        assert_ne!(pair[0], pair[1], "{markdown}");
    }
    let text = check("text");
    assert!(!text.contains("AGENTS.md:1-4, AGENTS.md:1-4"), "{text}");
}

/// A capability gap's sentence names every harness compared: each one
/// receives the item, lacks it, or has it without receiving it (Gemini
/// CLI's `review` skill of a parent directory, `not loaded` in the view,
/// was left out of the sentence of the `review` finding).
#[test]
fn a_capability_gap_names_every_harness() {
    let out = playbookdiff()
        .current_dir(example().join("../.."))
        .args(["check", "examples/monorepo", "--root", "--all-dirs"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names = [
        "Claude Code",
        "Codex",
        "Copilot CLI",
        "Cursor",
        "Gemini CLI",
        "OpenCode",
    ];
    let mut gaps = 0;
    for f in json["findings"].as_array().unwrap() {
        if f["type"] != "capability-gap" || f["category"] != "skill" {
            continue;
        }
        gaps += 1;
        let message = f["message"].as_str().unwrap();
        for name in names {
            assert!(message.contains(name), "{name} left out: {message}");
        }
    }
    assert!(gaps > 0, "{json}");
}

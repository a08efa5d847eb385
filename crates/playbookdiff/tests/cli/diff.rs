//! `playbookdiff diff` on scripted histories: throwaway repositories built
//! here with the `git` binary (the product reads them with gix), one
//! commit per step, and the expected agent-level changes, introduced,
//! resolved and unchanged findings, in JSON and text, and exit statuses.

use assert_cmd::Command;
use playbookdiff_testkit::corpus::git;
use serde_json::Value;
use std::path::Path;

/// A scripted history: a repository and its commits.
struct History {
    dir: tempfile::TempDir,
}

impl History {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q", "-b", "main"]);
        History { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, rel: &str, text: &str) -> &Self {
        let p = self.root().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&p);
        std::fs::write(p, text).unwrap();
        self
    }

    fn link(&self, rel: &str, target: &str) -> &Self {
        let p = self.root().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&p);
        std::os::unix::fs::symlink(target, p).unwrap();
        self
    }

    fn commit(&self, message: &str) -> &Self {
        git(self.root(), &["add", "-A"]);
        git(self.root(), &["commit", "-qm", message, "--allow-empty"]);
        self
    }

    /// `playbookdiff diff RANGE REPO ARGS…` between Claude Code and Codex,
    /// the pair these histories are written for (each registered harness
    /// adds its own findings to a default run): status, stdout, stderr.
    fn diff(&self, range: &str, args: &[&str]) -> (i32, String, String) {
        let pair = ["--harness", "claude-code", "--harness", "codex"];
        self.diff_as_configured(range, &[&pair[..], args].concat())
    }

    /// `playbookdiff diff RANGE REPO ARGS…` with the harnesses of the
    /// repository's `playbookdiff.toml` (every registered one without it).
    fn diff_as_configured(&self, range: &str, args: &[&str]) -> (i32, String, String) {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .arg("diff")
            .arg(range)
            .arg(self.root())
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    fn json(&self, range: &str) -> (i32, Value) {
        let (code, out, err) = self.diff(range, &["--format", "json"]);
        assert!(code == 0 || code == 1, "{range}: {err}");
        (code, serde_json::from_str(&out).unwrap())
    }
}

/// The base of most histories: Codex and Claude Code receive the same
/// root instructions (CLAUDE.md imports AGENTS.md).
fn bridged() -> History {
    let h = History::new();
    h.write("AGENTS.md", "# Rules\n\nUse pnpm.\n")
        .write("CLAUDE.md", "@AGENTS.md\n")
        .write("src/main.ts", "export {};\n")
        .commit("base");
    h
}

fn ids(v: &Value, list: &str) -> Vec<String> {
    v["findings"][list]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect()
}

/// The changes of `harness` under launch directory `cwd` (no target).
fn agent<'a>(v: &'a Value, cwd: &str, harness: &str) -> Option<&'a Value> {
    v["directories"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["cwd"] == cwd && d.get("targetPath").is_none())
        .flat_map(|d| d["agents"].as_array().unwrap())
        .find(|a| a["harness"] == harness)
}

fn changes(a: &Value, list: &str) -> Vec<(String, String)> {
    a[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let what = c
                .get("path")
                .filter(|_| list == "instructions")
                .or_else(|| c.get("name"))
                .unwrap();
            (
                c["change"].as_str().unwrap().to_string(),
                what.as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn adding_a_nested_agents_md_introduces_a_finding() {
    let h = bridged();
    h.write("apps/api/AGENTS.md", "# API\n\nUse tokio.\n")
        .commit("nested");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 1, "an introduced actionable finding exits 1");
    assert_eq!(v["changedPaths"], serde_json::json!(["apps/api/AGENTS.md"]));
    let analysed: Vec<&str> = v["analysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cwd"].as_str().unwrap())
        .collect();
    assert_eq!(analysed, [".", "apps/api"]);
    let codex = agent(&v, "apps/api", "codex").expect("codex changes in apps/api");
    assert_eq!(
        changes(codex, "instructions"),
        [pair("added", "apps/api/AGENTS.md")]
    );
    assert_eq!(
        codex["instructions"][0]["paragraphs"][1]["added"],
        "Use tokio."
    );
    let introduced = ids(&v, "introduced");
    assert_eq!(introduced.len(), 1, "{introduced:?}");
    assert!(
        introduced[0].starts_with("instruction:missing:"),
        "{introduced:?}"
    );
    assert!(ids(&v, "resolved").is_empty());
    assert_eq!(v["summary"]["introducedActionable"], 1);
    let f = &v["findings"]["introduced"][0];
    assert_eq!(f["directories"], serde_json::json!(["apps/api"]));

    // The same in text.
    let (code, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert_eq!(code, 1);
    assert!(text.contains("apps/api"), "{text}");
    assert!(
        text.contains("added     instruction apps/api/AGENTS.md"),
        "{text}"
    );
    assert!(text.contains("+ Use tokio."), "{text}");
    assert!(text.contains("Introduced findings (1)"), "{text}");
    assert!(text.contains(&introduced[0]), "{text}");
    assert!(text.contains("exit status 1"), "{text}");
}

#[test]
fn an_agents_md_bridge_resolves_a_finding() {
    let h = History::new();
    h.write("AGENTS.md", "# Rules\n\nUse pnpm.\n")
        .write("CLAUDE.md", "# Claude\n")
        .commit("two files");
    h.write("CLAUDE.md", "# Claude\n\n@AGENTS.md\n")
        .commit("bridge");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 0, "nothing introduced");
    let resolved = ids(&v, "resolved");
    assert!(
        resolved
            .iter()
            .any(|id| id.starts_with("instruction:missing:")),
        "{resolved:?}"
    );
    assert!(ids(&v, "introduced").is_empty(), "{v:#}");
    let claude = agent(&v, ".", "claude-code").expect("claude changes");
    let c = changes(claude, "instructions");
    assert!(c.contains(&pair("added", "AGENTS.md")), "{c:?}");
    assert!(agent(&v, ".", "codex").is_none(), "codex receives the same");
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(text.contains("Resolved findings (1)"), "{text}");
    assert!(text.contains(&resolved[0]), "{text}");
}

#[test]
fn changing_an_mcp_server_url_redefines_it() {
    let h = bridged();
    h.write(
        ".mcp.json",
        r#"{ "mcpServers": { "docs": { "type": "http", "url": "https://docs.example.com/mcp" } } }"#,
    )
    .write(
        ".codex/config.toml",
        "[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\n",
    )
    .commit("mcp");
    h.write(
        ".mcp.json",
        r#"{ "mcpServers": { "docs": { "type": "http", "url": "https://docs.example.org/mcp" } } }"#,
    )
    .commit("url");
    let (_, v) = h.json("HEAD~1..HEAD");
    assert_eq!(v["changedPaths"], serde_json::json!([".mcp.json"]));
    let claude = agent(&v, ".", "claude-code").expect("claude changes");
    assert_eq!(changes(claude, "mcpServers"), [pair("redefined", "docs")]);
    let fields = claude["mcpServers"][0]["fields"].as_array().unwrap();
    assert!(fields.iter().any(|f| f == "url"), "{fields:?}");
    assert!(agent(&v, ".", "codex").is_none());
    // The two harnesses now disagree on the URL.
    let introduced = ids(&v, "introduced");
    assert!(
        introduced.iter().any(|id| id.starts_with("mcp:")),
        "{introduced:?}"
    );
    // The same in text.
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(
        text.contains("redefined MCP server docs (.mcp.json): url"),
        "{text}"
    );
    assert!(
        text.contains(&format!("Introduced findings ({})", introduced.len())),
        "{text}"
    );
    for id in &introduced {
        assert!(text.contains(id.as_str()), "{text}");
    }
}

#[test]
fn renaming_a_skill_removes_one_and_adds_another() {
    let h = bridged();
    h.write(
        ".claude/skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release.\n---\nSteps.\n",
    )
    .commit("skill");
    std::fs::remove_dir_all(h.root().join(".claude/skills/release")).unwrap();
    h.write(
        ".claude/skills/ship/SKILL.md",
        "---\nname: ship\ndescription: Cut a release.\n---\nSteps.\n",
    )
    .commit("rename skill");
    let (_, v) = h.json("HEAD~1..HEAD");
    let claude = agent(&v, ".", "claude-code").expect("claude changes");
    assert_eq!(
        changes(claude, "skills"),
        [pair("removed", "release"), pair("added", "ship")]
    );
    let introduced = ids(&v, "introduced");
    let resolved = ids(&v, "resolved");
    assert!(
        introduced
            .iter()
            .any(|i| i.starts_with("skill:") && i.contains("ship")),
        "{introduced:?}"
    );
    assert!(
        resolved
            .iter()
            .any(|i| i.starts_with("skill:") && i.contains("release")),
        "{resolved:?}"
    );
    // The same in text.
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(
        text.contains("removed   skill release (.claude/skills/release/SKILL.md)"),
        "{text}"
    );
    assert!(
        text.contains("added     skill ship (.claude/skills/ship/SKILL.md)"),
        "{text}"
    );
    for id in introduced.iter().chain(&resolved) {
        assert!(text.contains(id.as_str()), "{text}");
    }
}

#[test]
fn turning_a_file_into_a_symbolic_link() {
    let h = History::new();
    h.write("AGENTS.md", "# Rules\n\nUse pnpm.\n")
        .write("CLAUDE.md", "# Rules\n\nUse yarn.\n")
        .commit("two texts");
    h.link("CLAUDE.md", "AGENTS.md").commit("link");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(v["changedPaths"], serde_json::json!(["CLAUDE.md"]));
    let claude = agent(&v, ".", "claude-code").expect("claude changes");
    let edited = &claude["instructions"][0];
    assert_eq!(edited["change"], "edited");
    assert_eq!(edited["path"], "CLAUDE.md");
    assert_eq!(edited["head"]["resolvedPath"], "AGENTS.md");
    assert_eq!(
        edited["paragraphs"],
        serde_json::json!([{ "removed": "Use yarn.", "added": "Use pnpm." }])
    );
    // The differing texts were a finding; one text resolves it.
    assert!(!ids(&v, "resolved").is_empty(), "{v:#}");
    assert!(ids(&v, "introduced").is_empty(), "{v:#}");
    assert_eq!(code, 0);
    // The same in text.
    let (code, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert_eq!(code, 0);
    assert!(text.contains("edited    instruction CLAUDE.md"), "{text}");
    assert!(
        text.contains("- Use [-yarn.-]") && text.contains("+ Use {+pnpm.+}"),
        "{text}"
    );
    assert!(text.contains("Introduced findings (0)"), "{text}");
    for id in ids(&v, "resolved") {
        assert!(text.contains(id.as_str()), "{text}");
    }
}

#[test]
fn a_commit_touching_only_source_files_affects_no_directory() {
    let h = bridged();
    h.write("src/main.ts", "export const x = 1;\n")
        .write("src/lib/util.ts", "export {};\n")
        .commit("code");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 0);
    assert_eq!(
        v["changedPaths"],
        serde_json::json!(["src/lib/util.ts", "src/main.ts"])
    );
    assert_eq!(v["analysed"], serde_json::json!([]));
    assert_eq!(v["directories"], serde_json::json!([]));
    assert_eq!(v["summary"]["introduced"], 0);
    let (code, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert_eq!(code, 0);
    assert!(text.contains("0 contexts analysed"), "{text}");
}

#[test]
fn a_rename_is_seen_from_both_directories() {
    let h = bridged();
    h.write("apps/api/AGENTS.md", "# API\n\nUse tokio.\n")
        .commit("api");
    git(h.root(), &["mv", "apps/api", "apps/server"]);
    h.commit("rename");
    let (_, v) = h.json("HEAD~1..HEAD");
    assert_eq!(
        v["changedPaths"],
        serde_json::json!(["apps/api/AGENTS.md", "apps/server/AGENTS.md"])
    );
    let analysed: Vec<&str> = v["analysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cwd"].as_str().unwrap())
        .collect();
    assert_eq!(analysed, [".", "apps/api", "apps/server"]);
    let codex_new = agent(&v, "apps/server", "codex").expect("codex in apps/server");
    assert_eq!(
        changes(codex_new, "instructions"),
        [pair("added", "apps/server/AGENTS.md")]
    );
    let codex_old = agent(&v, "apps/api", "codex").expect("codex in apps/api");
    assert_eq!(
        changes(codex_old, "instructions"),
        [pair("removed", "apps/api/AGENTS.md")]
    );
    // Claude Code lacked the API text before and lacks the server text now.
    assert_eq!(ids(&v, "introduced").len(), 1, "{v:#}");
    assert_eq!(ids(&v, "resolved").len(), 1, "{v:#}");
    // The same in text.
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(
        text.contains("added     instruction apps/server/AGENTS.md"),
        "{text}"
    );
    assert!(
        text.contains("removed   instruction apps/api/AGENTS.md"),
        "{text}"
    );
    assert!(
        text.contains(&ids(&v, "introduced")[0]) && text.contains(&ids(&v, "resolved")[0]),
        "{text}"
    );
}

#[test]
fn a_merge_base_range_compares_against_the_fork_point() {
    let h = bridged();
    git(h.root(), &["checkout", "-q", "-b", "topic"]);
    h.write("apps/web/AGENTS.md", "# Web\n\nUse vite.\n")
        .commit("topic change");
    git(h.root(), &["checkout", "-q", "main"]);
    h.write("AGENTS.md", "# Rules\n\nUse pnpm.\n\nRun the tests.\n")
        .commit("main moves on");
    let (_, v) = h.json("main...topic");
    assert_eq!(v["base"]["mergeBase"], true);
    assert_eq!(v["base"]["revision"], "main");
    assert_eq!(v["head"]["revision"], "topic");
    // Only the topic's own change: main's later edit of AGENTS.md is not in it.
    assert_eq!(v["changedPaths"], serde_json::json!(["apps/web/AGENTS.md"]));
    // Two dots compare the tips: both changes.
    let (_, v2) = h.json("main..topic");
    assert_eq!(
        v2["changedPaths"],
        serde_json::json!(["AGENTS.md", "apps/web/AGENTS.md"])
    );
    assert!(v2["base"].get("mergeBase").is_none());
    let root_codex = agent(&v2, ".", "codex").expect("codex at the root");
    let edited = &root_codex["instructions"][0];
    assert_eq!(edited["change"], "edited");
    assert_eq!(
        edited["paragraphs"],
        serde_json::json!([{ "removed": "Run the tests." }])
    );
    // The same in text.
    let (_, text, _) = h.diff("main...topic", &[]);
    assert!(text.contains("base        merge base of main ("), "{text}");
    assert!(
        text.contains("added     instruction apps/web/AGENTS.md"),
        "{text}"
    );
    assert!(!text.contains("Run the tests."), "{text}");
    let (_, text, _) = h.diff("main..topic", &[]);
    assert!(text.contains("- Run the tests."), "{text}");
}

#[test]
fn a_single_revision_is_compared_with_the_working_tree() {
    let h = bridged();
    h.write("AGENTS.md", "# Rules\n\nUse npm.\n");
    let (code, v) = h.json("HEAD");
    assert_eq!(v["head"]["commit"], Value::Null);
    assert_eq!(v["changedPaths"], serde_json::json!(["AGENTS.md"]));
    let codex = agent(&v, ".", "codex").expect("codex changes");
    assert_eq!(codex["instructions"][0]["change"], "edited");
    assert_eq!(code, 0, "both harnesses receive the edit: {v:#}");
    let (_, text, _) = h.diff("HEAD", &[]);
    assert!(text.contains("head        the working tree"), "{text}");
    // Nothing uncommitted: nothing changed.
    h.write("AGENTS.md", "# Rules\n\nUse pnpm.\n");
    let (code, v) = h.json("HEAD");
    assert_eq!(code, 0);
    assert_eq!(v["changedPaths"], serde_json::json!([]));
}

#[test]
fn markdown_is_escaped_and_summarizes() {
    let h = bridged();
    h.write("apps/api/AGENTS.md", "# API\n\nUse <b>tokio</b>.\n")
        .commit("nested");
    let (code, md, _) = h.diff("HEAD~1..HEAD", &["--format", "markdown"]);
    assert_eq!(code, 1);
    assert!(md.starts_with("### PlaybookDiff"), "{md}");
    assert!(md.contains("| apps/api | Codex |"), "{md}");
    assert!(md.contains("**Introduced findings: 1**"), "{md}");
    assert!(!md.contains("<b>"), "{md}");
}

#[test]
fn errors_are_one_line_with_status_2() {
    let h = bridged();
    let plain = tempfile::tempdir().unwrap();
    let cases: Vec<(&Path, &str, &str)> = vec![
        (h.root(), "nope..HEAD", "revision 'nope' names no commit"),
        (h.root(), "HEAD..", "invalid range"),
        (h.root(), "a..b..c", "invalid range"),
        (h.root(), "HEAD....HEAD", "invalid range 'HEAD....HEAD'"),
        (
            h.root(),
            "HEAD~7",
            "revision 'HEAD~7' names no commit: the history has no commit before HEAD",
        ),
        (
            h.root(),
            "HEAD~99..HEAD",
            "the history has no commit before HEAD",
        ),
        (
            h.root(),
            "HEAD^2..HEAD",
            "HEAD has no parent (it is the first commit), so HEAD^2 names nothing",
        ),
        (plain.path(), "HEAD~1..HEAD", "is not a git repository"),
    ];
    for (repo, range, expected) in cases {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["diff", range])
            .arg(repo)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{range}: {err}");
        assert!(out.stdout.is_empty());
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{range}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        for internal in ["delegate", "NthAncestor", "input=", "traverse"] {
            assert!(!err.contains(internal), "{range}: {err}");
        }
    }
    // Past the end of a longer history: the count of commits there is.
    h.write("AGENTS.md", "# Rules\n\nUse npm.\n").commit("two");
    h.write("AGENTS.md", "# Rules\n\nUse yarn.\n")
        .commit("three");
    let (code, _, err) = h.diff("HEAD~99..HEAD", &[]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim_end(),
        "error: revision 'HEAD~99' names no commit: the history has only 2 commits before HEAD; pick a smaller N (`git log --oneline --first-parent HEAD` lists them)"
    );
    let (code, _, err) = h.diff("HEAD~1~9..HEAD", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the history has only 1 commit before HEAD~1;"),
        "{err}"
    );
}

/// A shallow clone (what CI checks out by default) has commits whose
/// parents it does not hold: the revision past the cut is reported as
/// missing history with the fetch to run, not as a name that means
/// nothing. A repository without a commit says so.
#[test]
fn a_shallow_clone_and_an_empty_repository_are_named_as_such() {
    let h = bridged();
    h.write("AGENTS.md", "# Rules\n\nUse npm.\n").commit("two");
    h.write("AGENTS.md", "# Rules\n\nUse yarn.\n")
        .commit("three");
    let clones = tempfile::tempdir().unwrap();
    let shallow = clones.path().join("shallow");
    let url = format!("file://{}", h.root().display());
    git(
        clones.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &url,
            shallow.to_str().unwrap(),
        ],
    );
    for range in ["HEAD~1..HEAD", "HEAD~2", "HEAD^..HEAD"] {
        let err = crate::cli::refused(
            Command::cargo_bin("playbookdiff")
                .unwrap()
                .args(["diff", range])
                .arg(&shallow),
        );
        assert!(
            err.contains("is not in this clone") && err.contains("git fetch --unshallow"),
            "{range}: {err}"
        );
    }
    let empty = clones.path().join("empty");
    git(clones.path(), &["init", "-q", empty.to_str().unwrap()]);
    for args in [&["diff", "HEAD"][..], &["check", "--rev", "HEAD"][..]] {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(args)
            .arg(&empty)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("the repository has no commit yet"),
            "{args:?}: {err}"
        );
    }
}

/// A `.git` that git cannot open (a worktree whose repository moved) is
/// named as such, not as a directory without `.git`.
#[test]
fn a_git_entry_that_cannot_be_opened_is_not_called_missing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".git"),
        "gitdir: /nonexistent/worktrees/x\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "# Rules\n").unwrap();
    for args in [&["diff", "HEAD"][..], &["check", "--rev", "HEAD"][..]] {
        let err = crate::cli::refused(
            Command::cargo_bin("playbookdiff")
                .unwrap()
                .args(args)
                .arg(dir.path()),
        );
        assert!(
            err.contains("holds a .git that git cannot open") && !err.contains("no .git"),
            "{args:?}: {err}"
        );
    }
}

/// Two literal secrets added to one `.mcp.json` in one commit (a header of
/// an existing server, an environment value of a new one) are two problems
/// introduced, told apart by the server they are about, and every format
/// names both.
#[test]
fn two_secrets_in_one_file_are_two_problems_in_every_format() {
    let h = bridged();
    h.write(
        ".mcp.json",
        r#"{ "mcpServers": { "docs": { "type": "http", "url": "https://docs.example.com/mcp" } } }"#,
    )
    .commit("server");
    h.write(
        ".mcp.json",
        concat!(
            "{ \"mcpServers\": {\n",
            "  \"docs\": { \"type\": \"http\", \"url\": \"https://docs.example.com/mcp\",\n",
            "    \"headers\": { \"Authorization\": \"Bearer sk_live_abcdefghijklmnopqrstuvwx\" } },\n",
            "  \"newsrv\": { \"command\": \"srv\",\n",
            "    \"env\": { \"TOKEN\": \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\" } }\n",
            "} }\n"
        ),
    )
    .commit("secrets");
    let (_, v) = h.json("HEAD~1..HEAD");
    let subjects: Vec<&str> = v["problems"]["introduced"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["code"] == "mcp-literal-secret")
        .map(|p| p["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects, ["docs", "newsrv"], "{v:#}");
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    for server in ["`docs`", "`newsrv`"] {
        assert!(
            text.lines()
                .any(|l| l.contains("mcp-literal-secret .mcp.json") && l.contains(server)),
            "{server}: {text}"
        );
    }
    for format in ["markdown", "github", "gitlab", "sarif"] {
        let (_, out, err) = h.diff("HEAD~1..HEAD", &["--format", format]);
        assert!(!out.is_empty(), "{format}: {err}");
        let out = out.replace('\\', "");
        for server in [
            "MCP server `docs` has a literal",
            "MCP server `newsrv` has a literal",
        ] {
            assert!(out.contains(server), "{format} lacks {server}: {out}");
        }
        assert!(
            !out.contains("sk_live_") && !out.contains("ghp_"),
            "{format}"
        );
    }
}

#[test]
fn a_changed_path_scoped_rule_is_analysed_with_a_target_it_matches() {
    let h = bridged();
    h.write("src/api/handler.ts", "export {};\n")
        .write(
            ".claude/rules/api.md",
            "---\npaths: [\"src/api/**\"]\n---\nValidate every request body.\n",
        )
        .commit("rule");
    h.write(
        ".claude/rules/api.md",
        "---\npaths: [\"src/api/**\"]\n---\nValidate every request body with zod.\n",
    )
    .commit("edit rule");
    let (_, v) = h.json("HEAD~1..HEAD");
    let analysed: Vec<(String, Option<String>)> = v["analysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["cwd"].as_str().unwrap().to_string(),
                c.get("targetPath").map(|t| t.as_str().unwrap().to_string()),
            )
        })
        .collect();
    assert_eq!(
        analysed,
        [
            (".".to_string(), None),
            (".".to_string(), Some("src/api/handler.ts".to_string()))
        ]
    );
    // With the target, the rule applies, and its edit is what changed.
    let with_target = v["directories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["targetPath"] == "src/api/handler.ts")
        .expect("changes under the target");
    let claude = with_target["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["harness"] == "claude-code")
        .unwrap();
    assert_eq!(claude["instructions"][0]["change"], "edited");
    assert_eq!(claude["instructions"][0]["path"], ".claude/rules/api.md");
}

/// The contexts `diff` analysed: (launch directory, target).
fn analysed(v: &Value) -> Vec<(String, Option<String>)> {
    v["analysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["cwd"].as_str().unwrap().to_string(),
                c.get("targetPath").map(|t| t.as_str().unwrap().to_string()),
            )
        })
        .collect()
}

/// A path-scoped item's file, its text before and after, and the targets
/// expected by launch directory.
type ScopeCase = (
    &'static str,
    String,
    String,
    Vec<(&'static str, &'static str)>,
);

/// The targets derived for a path-scoped item are the ones its harness
/// would load it for: a rule's `paths` are anchored at the directory that
/// holds its `.claude` (so `src/**` of `apps/api/.claude/rules` is
/// `apps/api/src/...`, never the root's `src/`), a skill's at the launch
/// directory, both with Claude Code's matcher (a pattern without `/`
/// matches at any depth). Claude Code is the only registered harness with
/// path-scoped items; Codex and OpenCode derive nothing.
#[test]
fn a_path_scoped_item_gets_the_target_its_harness_anchors_it_at() {
    let rule = |paths: &str| format!("---\npaths: [{paths}]\n---\nValidate every request body.\n");
    let skill = |paths: &str| {
        format!("---\nname: api\ndescription: API work.\npaths: [{paths}]\n---\nUse zod.\n")
    };
    let cases: Vec<ScopeCase> = vec![
        (
            "apps/api/.claude/rules/r.md",
            "Validate every request body.\n".into(),
            rule("\"src/**\""),
            vec![
                (".", "apps/api/src/x.ts"),
                ("apps/api", "apps/api/src/x.ts"),
            ],
        ),
        (
            "apps/api/.claude/rules/r.md",
            rule("\"lib/*.ts\""),
            rule("\"src/*.ts\""),
            vec![
                (".", "apps/api/src/x.ts"),
                ("apps/api", "apps/api/src/x.ts"),
            ],
        ),
        (
            ".claude/rules/r.md",
            "Validate every request body.\n".into(),
            rule("\"src/*.ts\""),
            vec![(".", "src/main.ts"), ("apps/api", "src/main.ts")],
        ),
        (
            "apps/api/.claude/rules/r.md",
            rule("\"lib/**\""),
            rule("\"*.ts\""),
            vec![
                (".", "apps/api/src/x.ts"),
                ("apps/api", "apps/api/src/x.ts"),
            ],
        ),
        (
            "apps/api/.claude/skills/api/SKILL.md",
            skill("\"lib/*.ts\""),
            skill("\"src/*.ts\""),
            vec![(".", "src/main.ts"), ("apps/api", "apps/api/src/x.ts")],
        ),
    ];
    for (file, before, after, expected) in cases {
        let h = bridged();
        h.write("apps/api/CLAUDE.md", "# API\n")
            .write("apps/api/src/x.ts", "export {};\n")
            .write(file, &before)
            .commit("base with the item");
        h.write(file, &after).commit("scope the item");
        let (_, v) = h.json("HEAD~1..HEAD");
        let targets: Vec<(String, String)> = analysed(&v)
            .into_iter()
            .filter_map(|(cwd, t)| t.map(|t| (cwd, t)))
            .collect();
        let expected: Vec<(String, String)> = expected.iter().map(|(c, t)| pair(c, t)).collect();
        assert_eq!(targets, expected, "{file}: {after}");
    }
}

/// An edit anywhere in a long paragraph shows the words that changed, in
/// text (`[-removed-]`, `{+added+}`) and in Markdown (`<del>`, `<ins>`):
/// at its start, middle and end, a one-word change, and a paragraph
/// wholly replaced (shown from its start), on the longest paragraph of a
/// real `CLAUDE.md` (over 500 characters, where the excerpts of both
/// sides used to read the same).
#[test]
fn an_edit_in_a_long_paragraph_shows_the_changed_words() {
    let Some(corpus) = playbookdiff_testkit::corpus::corpus_root(
        "an_edit_in_a_long_paragraph_shows_the_changed_words",
    ) else {
        return;
    };
    let file = "apps/webapp/CLAUDE.md";
    let tree = playbookdiff_testkit::corpus::materialize(
        &corpus,
        "triggerdotdev__trigger.dev",
        playbookdiff_testkit::corpus::Form::Tar,
    );
    let text = std::fs::read_to_string(tree.root.join(file)).unwrap();
    let long = text.lines().max_by_key(|l| l.len()).unwrap().to_string();
    assert!(
        long.len() > 500 && long.contains("can name any org/project"),
        "{long}"
    );
    // (old words, new words, expected text marks, expected Markdown marks)
    let cases = [
        (
            "route must resolve",
            "route should resolve",
            "[-must-]",
            "{+should+}",
        ),
        (
            "can name any org",
            "can name every org",
            "[-any-]",
            "{+every+}",
        ),
        (
            "access on OSS.",
            "access on OSS and Cloud.",
            "[-OSS.-]",
            "{+OSS and Cloud.+}",
        ),
        (
            "is permissive",
            "is lenient",
            "[-permissive-]",
            "{+lenient+}",
        ),
    ];
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let run = |edited: &str| {
        let h = History::new();
        std::fs::create_dir_all(h.root().join("apps/webapp")).unwrap();
        h.write(file, &text).commit("base");
        h.write(file, &text.replacen(&long, edited, 1))
            .commit("edit");
        let (_, out, err) = h.diff("HEAD~1..HEAD", &[]);
        let (_, md, _) = h.diff("HEAD~1..HEAD", &["--format", "markdown"]);
        assert!(err.is_empty(), "{err}");
        (one_line(&out), md)
    };
    for (old, new, removed, added) in cases {
        let (out, md) = run(&long.replacen(old, new, 1));
        assert!(out.contains(removed), "{old}: {out}");
        assert!(out.contains(added), "{new}: {out}");
        let strip = |m: &str| m[2..m.len() - 2].to_string();
        assert!(
            md.contains(&format!("<del>{}</del>", strip(removed))),
            "{old}: {md}"
        );
        assert!(
            md.contains(&format!("<ins>{}</ins>", strip(added))),
            "{new}: {md}"
        );
    }
    let (out, md) = run("- Deploy only after the canary is healthy and the rollback is rehearsed.");
    assert!(
        out.contains("+ - Deploy only after the canary is healthy"),
        "{out}"
    );
    assert!(out.contains("- - **A PAT route must resolve"), "{out}");
    assert!(
        md.contains("Deploy only after the canary is healthy"),
        "{md}"
    );
}

/// A bare repository (`git clone --bare`) has commits and no working
/// tree: `diff REV` is refused in one line that names the two-commit form
/// (it read git's own directory as the working tree and reported its files
/// as removed instructions), while `A..B` and `A...B` give what they give
/// in a clone with a working tree. The commands that read the working
/// tree refuse it too; `--rev` reads the commit.
#[test]
fn a_bare_repository_compares_commits_and_has_no_working_tree() {
    let h = bridged();
    h.write("apps/api/AGENTS.md", "# API\n\nUse tokio.\n")
        .commit("nested");
    let tmp = tempfile::tempdir().unwrap();
    let bare = tmp.path().join("bare.git");
    git(
        tmp.path(),
        &[
            "clone",
            "-q",
            "--bare",
            h.root().to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    let run = |dir: &Path, args: &[&str]| {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(args)
            .env("NO_COLOR", "1")
            .current_dir(dir)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for rev in ["HEAD", "HEAD~1", "main"] {
        for args in [&["diff", rev][..], &["diff", rev, "."][..]] {
            let (code, out, err) = run(&bare, args);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(out.is_empty(), "{out}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains("is a bare git repository") && err.contains("..HEAD"),
                "{err}"
            );
        }
    }
    let json = |dir: &Path, range: &str| {
        let (code, out, err) = run(dir, &["diff", range, ".", "--format", "json"]);
        assert!(code == 0 || code == 1, "{range}: {err}");
        let mut v: Value = serde_json::from_str(&out).unwrap();
        v["repository"] = Value::Null;
        (code, v)
    };
    for range in ["HEAD~1..HEAD", "HEAD~1...HEAD"] {
        let (code, v) = json(&bare, range);
        assert_eq!(
            (code, &v),
            (json(h.root(), range).0, &json(h.root(), range).1),
            "{range}"
        );
        assert_eq!(v["changedPaths"], serde_json::json!(["apps/api/AGENTS.md"]));
    }
    for args in [&["check", "."][..], &["compile", "."][..], &["."][..]] {
        let (code, _, err) = run(&bare, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("--rev HEAD"), "{err}");
    }
    let (code, out, err) = run(&bare, &["check", ".", "--rev", "HEAD", "--format", "json"]);
    assert!(code == 0 || code == 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["findings"].as_array().is_some(), "{v}");
    assert!(
        !out.contains("objects/") && !out.contains("refs/heads"),
        "{out}"
    );
}

/// A submodule is another repository: a commit records only its commit
/// (a gitlink), and repo mode reads a working tree as git would commit it,
/// so neither side enters it; both name it in one diagnostic. On a clean
/// tree `diff HEAD` reports nothing (it listed the submodule's files as
/// added), an edit inside the submodule's checkout is not this
/// repository's change, and an edit in the superproject still is. Local
/// mode reads the submodule's files, as an agent launched in the
/// superproject sees them.
#[test]
fn a_submodule_is_read_alike_from_a_commit_and_from_the_working_tree() {
    let lib = History::new();
    let skill = "---\nname: lint\ndescription: Lint it.\n---\nRun lint.\n";
    lib.write("AGENTS.md", "# Lib\n\nUse tabs.\n")
        .write("CLAUDE.md", "@AGENTS.md\n")
        .write(".claude/skills/lint/SKILL.md", skill)
        .write(".agents/skills/lint/SKILL.md", skill)
        .commit("lib");
    let h = bridged();
    git(
        h.root(),
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            lib.root().to_str().unwrap(),
            "vendor/lib",
        ],
    );
    h.commit("add the submodule");
    let (code, v) = h.json("HEAD");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["changedPaths"], serde_json::json!([]), "{v:#}");
    assert_eq!(v["analysed"], serde_json::json!([]), "{v:#}");
    // Both sides of one compilation agree, and name the submodule.
    let compile = |args: &[&str]| {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .arg("compile")
            .arg(h.root())
            .args(["--format", "json"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let sources = |list: &str| -> Vec<String> {
            v[list]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["source"]["path"].as_str().unwrap().to_string())
                .collect()
        };
        let named = v["diagnostics"].as_array().unwrap().iter().any(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("`vendor/lib` is a submodule"))
        });
        (sources("instructions"), sources("skills"), named)
    };
    let working = compile(&[]);
    assert_eq!(working, compile(&["--rev", "HEAD"]));
    assert!(working.2, "the submodule is named as not analysed");
    assert!(
        !working
            .0
            .iter()
            .chain(&working.1)
            .any(|p| p.starts_with("vendor/")),
        "{working:?}"
    );
    let local = compile(&[
        "--mode",
        "local",
        "--home",
        playbookdiff_testkit::corpus::empty_home(),
    ]);
    assert!(
        local.1.iter().any(|p| p.starts_with("vendor/lib/")),
        "{local:?}"
    );
    // An edit inside the checkout is the submodule's, one beside it ours.
    h.write("vendor/lib/AGENTS.md", "# Lib\n\nUse spaces.\n");
    let (_, v) = h.json("HEAD");
    assert_eq!(v["changedPaths"], serde_json::json!([]), "{v:#}");
    h.write("AGENTS.md", "# Rules\n\nUse yarn.\n");
    let (_, v) = h.json("HEAD");
    assert_eq!(v["changedPaths"], serde_json::json!(["AGENTS.md"]), "{v:#}");
}

// ----- Forge formats and the project configuration -----

/// Base: a root bridged to AGENTS.md and an MCP server for Claude Code
/// only. Head: the server defined differently for Codex (a finding with
/// files on both sides), a nested AGENTS.md (a new finding), and the
/// capability gap resolved.
fn forge_history() -> History {
    let h = bridged();
    h.write(
        ".mcp.json",
        r#"{"mcpServers": {"db": {"command": "db-server"}}}"#,
    )
    .commit("claude server");
    h.write(
        ".codex/config.toml",
        "[mcp_servers.db]\ncommand = \"other-db\"\n",
    )
    .write("apps/api/AGENTS.md", "# API\n\nUse tokio.\n")
    .commit("codex server and nested instructions");
    h
}

fn sarif_validator() -> jsonschema::Validator {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/vendor/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

#[test]
fn forge_formats_show_the_head_s_findings_with_their_baseline_state() {
    let h = forge_history();
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 1);
    let introduced = ids(&v, "introduced");
    let unchanged = ids(&v, "unchanged");
    let resolved = ids(&v, "resolved");
    assert_eq!(introduced.len(), 2, "{v:#}");
    assert!(!unchanged.is_empty() && !resolved.is_empty(), "{v:#}");

    // SARIF: valid against the official schema; one result per introduced
    // (new) and unchanged finding, fingerprinted by its stable id; the
    // files of both sides as related locations; resolved ones left out.
    let (code, out, err) = h.diff("HEAD~1..HEAD", &["--format", "sarif"]);
    assert_eq!(code, 1, "{err}");
    let sarif: Value = serde_json::from_str(&out).unwrap();
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let state = |id: &str| {
        results
            .iter()
            .find(|r| r["partialFingerprints"]["playbookdiffFindingId/v1"] == id)
            .map(|r| r["baselineState"].as_str().unwrap().to_string())
    };
    for id in &introduced {
        assert_eq!(state(id).as_deref(), Some("new"), "{id}");
    }
    for id in &unchanged {
        assert_eq!(state(id).as_deref(), Some("unchanged"), "{id}");
    }
    for id in &resolved {
        assert_eq!(state(id), None, "{id} is resolved: not a result");
    }
    let finding_results = results
        .iter()
        .filter(|r| r["partialFingerprints"]["playbookdiffFindingId/v1"].is_string())
        .count();
    assert_eq!(finding_results, introduced.len() + unchanged.len());
    let mcp = results
        .iter()
        .find(|r| r["ruleId"] == "mcp-different")
        .expect("the redefined server");
    let related: Vec<&str> = mcp["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        related.contains(&".mcp.json") && related.contains(&".codex/config.toml"),
        "{related:?}"
    );
    assert_eq!(
        mcp["properties"]["directories"],
        serde_json::json!([".", "apps/api"])
    );

    // GitHub workflow commands: the introduced findings are warnings on
    // their files, the unchanged ones notices.
    let (code, out, _) = h.diff("HEAD~1..HEAD", &["--format", "github"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    // Besides the problems in the repository the change introduces.
    let finding_lines = lines.iter().filter(|l| l.contains("%0AId: ")).count();
    assert_eq!(finding_lines, introduced.len() + unchanged.len(), "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("::warning file=apps/api/AGENTS.md,line=1,endLine=3,")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("::warning file=.mcp.json,")),
        "{out}"
    );
    for id in &unchanged {
        let l = lines.iter().find(|l| l.contains(id.as_str())).unwrap();
        assert!(
            l.starts_with("::notice ") && l.contains("::Unchanged by this change: "),
            "{l}"
        );
    }

    // GitLab Code Quality: one issue per head finding, its fingerprint
    // derived from the stable id.
    let (code, out, _) = h.diff("HEAD~1..HEAD", &["--format", "gitlab"]);
    assert_eq!(code, 1);
    let issues: Value = serde_json::from_str(&out).unwrap();
    // The findings' issues; the problem introduced (Claude Code's invalid
    // JSON) is an issue of its own, "claude-code: " and its message.
    let issues: Vec<&Value> = issues
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            !i["description"]
                .as_str()
                .unwrap()
                .starts_with("claude-code: ")
        })
        .collect();
    assert_eq!(issues.len(), introduced.len() + unchanged.len());
    for i in &issues {
        let d = i["description"].as_str().unwrap();
        assert!(
            introduced
                .iter()
                .chain(&unchanged)
                .any(|id| d.ends_with(&format!("[{id}]"))),
            "{d}"
        );
        assert_eq!(i["fingerprint"].as_str().unwrap().len(), 64);
    }
    let fingerprints: std::collections::BTreeSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(fingerprints.len(), issues.len());
}

#[test]
fn the_configuration_file_accepts_excludes_and_sets_the_threshold() {
    let h = forge_history();
    let (_, v) = h.json("HEAD~1..HEAD");
    let introduced = ids(&v, "introduced");
    assert_eq!(v["failOn"], "medium");
    assert_eq!(v["summary"]["failing"], 2);
    // The nested AGENTS.md Claude Code does not read is also a problem in
    // the repository; the finding about that file decides for it (counted
    // once, and accepting the finding accepts the problem).
    let problem = &v["problems"]["introduced"][0];
    assert_eq!(problem["code"], "agents-md-not-bridged");
    assert_eq!(
        problem["findings"].as_array().unwrap().len(),
        1,
        "{problem}"
    );
    assert!(v["problems"]["resolved"].as_array().unwrap().is_empty());

    // Accepting both introduced findings: reported, counted, not failing.
    let accepted: String = introduced
        .iter()
        .map(|id| format!("[[accepted]]\nid = \"{id}\"\nreason = \"intended, ADR 9\"\n\n"))
        .collect();
    h.write("playbookdiff.toml", &accepted);
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(ids(&v, "introduced"), introduced);
    assert_eq!(v["summary"]["introducedAccepted"], 2);
    assert_eq!(v["summary"]["failing"], 0);
    for f in v["findings"]["introduced"].as_array().unwrap() {
        assert_eq!(f["accepted"]["reason"], "intended, ADR 9", "{f}");
    }
    let (code, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert_eq!(code, 0);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("accepted intended, ADR 9"), "{text}");
    assert!(
        flat.contains(
            "Result: 2 introduced findings, 2 accepted and 1 introduced problem in the repository; none fails the run (fail-on medium, exit status 0)."
        ),
        "{text}"
    );
    let (_, sarif, _) = h.diff("HEAD~1..HEAD", &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    let suppressed = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["suppressions"][0]["justification"] == "intended, ADR 9")
        .count();
    assert_eq!(suppressed, 2);

    // fail-on: the file's, under --fail-on and --exit-zero.
    h.write("playbookdiff.toml", "fail-on = \"high\"\n");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!((code, &v["failOn"]), (0, &Value::from("high")));
    let (code, _, _) = h.diff("HEAD~1..HEAD", &["--fail-on", "medium"]);
    assert_eq!(code, 1);
    h.write("playbookdiff.toml", "");
    let (code, out, _) = h.diff("HEAD~1..HEAD", &["--exit-zero", "--quiet"]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = h.diff("HEAD~1..HEAD", &["--quiet"]);
    assert_eq!(code, 1);
    assert!(out.contains("exit status 1"), "{out}");

    // exclude: the nested directory is no launch directory, its file no
    // changed path, its finding gone; the rest is still compared.
    h.write("playbookdiff.toml", "exclude = [\"apps/\"]\n");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 1, "the redefined server still fails");
    assert_eq!(
        v["changedPaths"],
        serde_json::json!([".codex/config.toml"]),
        "{v:#}"
    );
    let analysed: Vec<&str> = v["analysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cwd"].as_str().unwrap())
        .collect();
    assert_eq!(analysed, ["."]);
    assert!(
        ids(&v, "introduced")
            .iter()
            .all(|id| !id.starts_with("instruction:missing:")),
        "{v:#}"
    );

    // harnesses and agent versions: read and checked as `check` does.
    h.write(
        "playbookdiff.toml",
        "harnesses = [\"claude-code\", \"codx\"]\n",
    );
    let (code, _, err) = h.diff_as_configured("HEAD~1..HEAD", &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("playbookdiff.toml:1:29: unknown harness `codx`; did you mean `codex`?"),
        "{err}"
    );
    h.write(
        "playbookdiff.toml",
        "[agent-versions]\ncodex = \"0.142.3\"\n",
    );
    let (code, _) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 1);
    h.write(
        "playbookdiff.toml",
        "[agent-versions]\ncodex = \"not a version\"\n",
    );
    let (code, _, err) = h.diff("HEAD~1..HEAD", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("playbookdiff.toml:2:9: "), "{err}");
    h.write(
        "playbookdiff.toml",
        "harnesses = [\"codex\", \"claude-code\"]\n",
    );
    let (_, v) = h.json("HEAD~1..HEAD");
    assert_eq!(v["harnesses"], serde_json::json!(["claude-code", "codex"]));
}

/// `[agent-versions]` of `playbookdiff.toml` chooses the release `diff`
/// models, and `--agent-version` replaces it: a skill below a
/// `.cursor-plugin` manifest is namespaced by Codex 0.171.0 (`cup:three`)
/// but not by 0.142.3 (`three`), so the same commit adds a differently
/// named skill under each (fidelity row X13).
#[test]
fn agent_versions_choose_the_release_diff_models() {
    let h = bridged();
    h.write(
        ".agents/skills/cu/.cursor-plugin/plugin.json",
        "{\"name\": \"cup\"}\n",
    )
    .write(
        ".agents/skills/cu/three/SKILL.md",
        "---\ndescription: Below a .cursor-plugin manifest.\n---\n\nBody.\n",
    )
    .commit("plugin skill");
    let added = |v: &Value| -> Vec<(String, String)> {
        changes(agent(v, ".", "codex").expect("codex changes"), "skills")
    };

    h.write(
        "playbookdiff.toml",
        "[agent-versions]\ncodex = \"0.142.3\"\n",
    );
    let (_, v) = h.json("HEAD~1..HEAD");
    assert_eq!(added(&v), [pair("added", "three")]);

    h.write(
        "playbookdiff.toml",
        "[agent-versions]\ncodex = \"0.171.0\"\n",
    );
    let (_, v) = h.json("HEAD~1..HEAD");
    assert_eq!(added(&v), [pair("added", "cup:three")]);

    let (code, out, err) = h.diff(
        "HEAD~1..HEAD",
        &["--format", "json", "--agent-version", "codex=0.142.3"],
    );
    assert!(code == 0 || code == 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(added(&v), [pair("added", "three")]);
}

// ----- What a new user expects to read (issue 13) -----

#[test]
fn a_rule_whose_paths_change_is_rescoped_with_old_and_new_paths() {
    let h = bridged();
    h.write("src/api/handler.ts", "export {};\n")
        .write("src/web/page.ts", "export {};\n")
        .write(
            ".claude/rules/api.md",
            "---\npaths: [\"src/api/**\"]\n---\nValidate every request body.\n",
        )
        .commit("rule");
    h.write(
        ".claude/rules/api.md",
        "---\npaths: [\"src/api/**\", \"src/web/**\"]\n---\nValidate every request body.\n",
    )
    .commit("widen the rule");
    let (_, v) = h.json("HEAD~1..HEAD");
    let claude = agent(&v, ".", "claude-code").expect("claude changes at the root");
    assert_eq!(
        changes(claude, "instructions"),
        [pair("rescoped", ".claude/rules/api.md")],
        "{claude}"
    );
    let c = &claude["instructions"][0];
    assert_eq!(c["base"]["paths"], serde_json::json!(["src/api/**"]));
    assert_eq!(
        c["head"]["paths"],
        serde_json::json!(["src/api/**", "src/web/**"])
    );
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        one_line.contains(
            "rescoped instruction .claude/rules/api.md:4-4 [rule] (paths [src/api/**] -> [src/api/**, src/web/**])"
        ),
        "{text}"
    );
    assert!(!text.contains("edited"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn swapped_paragraphs_are_reordered_not_added_and_removed() {
    let h = History::new();
    h.write("AGENTS.md", "# Rules\n\nFirst.\n\nSecond.\n")
        .write("CLAUDE.md", "@AGENTS.md\n")
        .commit("base");
    h.write("AGENTS.md", "# Rules\n\nSecond.\n\nFirst.\n")
        .commit("swap");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 0);
    let codex = agent(&v, ".", "codex").expect("codex changes");
    assert_eq!(
        changes(codex, "instructions"),
        [pair("reordered", "AGENTS.md")],
        "{codex}"
    );
    let paragraphs = codex["instructions"][0]["paragraphs"].as_array().unwrap();
    assert_eq!(paragraphs.len(), 1, "{paragraphs:?}");
    assert!(paragraphs[0]["moved"].is_string(), "{paragraphs:?}");
    assert!(paragraphs[0].get("added").is_none(), "{paragraphs:?}");
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(
        text.contains("reordered instruction AGENTS.md:1-5 [agents-md] (a paragraph moved)"),
        "{text}"
    );
    assert!(
        !text.contains("+ Second.") && !text.contains("- Second."),
        "{text}"
    );
    assert!(text.contains("~ Second."), "{text}");
    // A moved paragraph beside an edited one: the edit is an edit.
    h.write("AGENTS.md", "# Rules\n\nFirst, changed.\n\nSecond.\n")
        .commit("edit");
    let (_, text, _) = h.diff("HEAD~2..HEAD", &[]);
    assert!(text.contains("edited    instruction AGENTS.md"), "{text}");
    assert!(text.contains("+ First, changed."), "{text}");
}

#[test]
fn a_change_that_breaks_a_configuration_file_introduces_a_problem_and_fails() {
    let h = bridged();
    h.write(
        ".mcp.json",
        r#"{ "mcpServers": { "docs": { "type": "http", "url": "https://docs.example.com/mcp" } } }"#,
    )
    .write(
        ".codex/config.toml",
        "[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\n",
    )
    .commit("servers");
    // Invalid JSON for Claude Code, and a key Codex refuses (an HTTP
    // server with `command` and `url`).
    h.write(".mcp.json", "{ \"mcpServers\": { \"docs\": \n")
        .write(
            ".codex/config.toml",
            "[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\ncommand = \"docs-server\"\n",
        )
        .commit("break both");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 1, "{v:#}");
    let codes = |list: &str| -> Vec<String> {
        v["problems"][list]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["code"].as_str().unwrap().to_string())
            .collect()
    };
    let introduced = codes("introduced");
    assert!(
        introduced.contains(&"invalid-json".to_string()),
        "{introduced:?}"
    );
    assert!(
        introduced.contains(&"config-refused".to_string()),
        "{introduced:?}"
    );
    let json = v["problems"]["introduced"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "invalid-json")
        .unwrap();
    assert_eq!(json["source"]["path"], ".mcp.json");
    assert_eq!(json["harnesses"], serde_json::json!(["claude-code"]));
    assert_eq!(json["directories"], serde_json::json!(["."]));
    assert!(
        v["summary"]["failing"].as_u64().unwrap() >= 2,
        "{}",
        v["summary"]
    );
    assert_eq!(
        v["summary"]["introducedProblems"].as_u64(),
        Some(introduced.len() as u64)
    );
    let (code, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert_eq!(code, 1);
    assert!(
        text.contains("Problems in the repository the change introduces"),
        "{text}"
    );
    assert!(text.contains("invalid-json .mcp.json:"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    // `--fail-on high` still fails on an error; `never` does not.
    assert_eq!(h.diff("HEAD~1..HEAD", &["--fail-on", "high"]).0, 1);
    assert_eq!(h.diff("HEAD~1..HEAD", &["--exit-zero"]).0, 0);
    let (_, md, _) = h.diff("HEAD~1..HEAD", &["--format", "markdown"]);
    assert!(
        md.contains("**Introduced problems in the repository: "),
        "{md}"
    );

    // Fixing both resolves them: listed as resolved, exit 0.
    h.write(
        ".mcp.json",
        r#"{ "mcpServers": { "docs": { "type": "http", "url": "https://docs.example.com/mcp" } } }"#,
    )
    .write(
        ".codex/config.toml",
        "[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\n",
    )
    .commit("fix");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 0, "{v:#}");
    assert!(v["problems"]["introduced"].as_array().unwrap().is_empty());
    let resolved: Vec<&str> = v["problems"]["resolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert!(resolved.contains(&"invalid-json"), "{resolved:?}");
    assert!(resolved.contains(&"config-refused"), "{resolved:?}");
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(
        text.contains("Problems in the repository the change resolves"),
        "{text}"
    );
}

#[test]
fn a_changed_redacted_value_redefines_the_server_by_field_never_by_value() {
    let h = bridged();
    let mcp = |token: &str, key: &str| {
        format!(
            r#"{{ "mcpServers": {{ "docs": {{ "type": "http", "url": "https://u:{key}@docs.example.com/mcp", "headers": {{ "Authorization": "Bearer {token}" }}, "env": {{ "LOG_LEVEL": "debug" }} }} }} }}"#
        )
    };
    h.write(".mcp.json", &mcp("tok-OLD-value-1", "pw-OLD-1"))
        .commit("server");
    h.write(".mcp.json", &mcp("tok-NEW-value-2", "pw-NEW-2"))
        .commit("rotate the token and the URL's password");
    let (_, v) = h.json("HEAD~1..HEAD");
    let claude = agent(&v, ".", "claude-code").expect("claude changes");
    assert_eq!(changes(claude, "mcpServers"), [pair("redefined", "docs")]);
    let fields: Vec<&str> = claude["mcpServers"][0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(fields, ["headers.Authorization", "url"], "{claude}");
    let (_, text, _) = h.diff("HEAD~1..HEAD", &[]);
    assert!(
        text.contains("redefined MCP server docs (.mcp.json): headers.Authorization, url"),
        "{text}"
    );
    for secret in ["tok-OLD", "tok-NEW", "pw-OLD", "pw-NEW"] {
        assert!(!text.contains(secret), "{text}");
        assert!(!v.to_string().contains(secret), "{v}");
    }
    // The same values again: nothing redefined.
    h.write(".mcp.json", &mcp("tok-NEW-value-2", "pw-NEW-2"))
        .write("src/other.ts", "export {};\n")
        .commit("unrelated");
    let (_, v) = h.json("HEAD~1..HEAD");
    assert!(agent(&v, ".", "claude-code").is_none(), "{v:#}");
}

/// `cd /tmp && playbookdiff diff /some/repo` took the path as the revision
/// and blamed the current directory; the answer now names the mistake and
/// the corrected command, in one line, exit 2.
#[test]
fn a_directory_given_as_the_revision_gets_the_corrected_command() {
    let h = bridged();
    let elsewhere = tempfile::tempdir().unwrap();
    let repo = h.root().display().to_string();
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(elsewhere.path())
        .args(["diff", &repo])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("the first argument of diff is the revision"),
        "{err}"
    );
    assert!(
        err.contains(&format!("playbookdiff diff REV {repo}")),
        "{err}"
    );
    assert!(!err.contains("is not a git repository"), "{err}");
    // A revision that is also the name of a directory stays a revision.
    h.write("HEAD/readme.md", "x\n");
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(h.root())
        .args(["diff", "HEAD"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("first argument of diff"), "{err}");
}

/// Claude Code settings with a PreToolUse hook on `matcher`, two deny
/// rules or only the first (`both_denies`), and plugin `kit` enabled or
/// not.
fn claude_settings(matcher: &str, both_denies: bool, enabled: bool) -> String {
    let denies = if both_denies {
        r#""Read(.env)", "Bash(curl:*)""#
    } else {
        r#""Read(.env)""#
    };
    let plugins = if enabled {
        r#", "enabledPlugins": { "kit@local": true }"#
    } else {
        ""
    };
    format!(
        r#"{{
  "hooks": {{
    "PreToolUse": [
      {{ "matcher": "{matcher}",
        "hooks": [{{ "type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh" }}] }}
    ]
  }},
  "permissions": {{ "deny": [{denies}] }}{plugins}
}}
"#
    )
}

fn subagent(name: &str, tools: &str) -> String {
    format!("---\nname: {name}\ndescription: Reviews {name}.\ntools: {tools}\n---\nReview.\n")
}

const CODEX_HOOKS: &str = r#"{ "hooks": { "PreToolUse": [ { "matcher": "Bash",
  "hooks": [{ "type": "command", "command": "python3 .codex/hooks/guard.py" }] } ] } }
"#;

/// Hooks, subagents, plugins and permissions changed in one commit: each
/// change is listed for the agent it reaches, matched by what names it
/// for the agent (a hook's file, event, matcher and command; a subagent's
/// or plugin's name; a rule's key and value), with the fields that
/// changed, in JSON and in text; a hook script edited alone changes no
/// item, and lines moving in a settings file are no change.
#[test]
fn hooks_subagents_plugins_and_permissions_changes_are_listed_per_agent() {
    let h = bridged();
    h.write(".claude/settings.json", &claude_settings("Bash", true, false))
        .write(".claude/hooks/guard.sh", "#!/bin/sh\nexit 0\n")
        .write(".claude/agents/review.md", &subagent("review", "Read, Grep"))
        .write(".claude/agents/old.md", &subagent("old", "Read"))
        .write(
            ".claude-plugin/marketplace.json",
            r#"{ "name": "local", "owner": {"name": "t"}, "plugins": [{"name": "kit", "source": "./plugins/kit"}] }"#,
        )
        .write("plugins/kit/.claude-plugin/plugin.json", r#"{"name": "kit"}"#)
        .write(".codex/hooks.json", CODEX_HOOKS)
        .write(".codex/hooks/guard.py", "import sys\n")
        .commit("surfaces");
    h.write(
        ".claude/settings.json",
        &claude_settings("Bash|Write", false, true),
    )
    .write(
        ".claude/agents/review.md",
        &subagent("review", "Read, Grep, Bash"),
    )
    .write(".claude/agents/new.md", &subagent("new", "Read"))
    .write(
        ".codex/hooks.json",
        &CODEX_HOOKS.replace("python3 .codex", "python3 -u .codex"),
    )
    .commit("changed");
    std::fs::remove_file(h.root().join(".claude/agents/old.md")).unwrap();
    h.commit("old removed");
    let (_, v) = h.json("HEAD~2..HEAD");
    let claude = agent(&v, ".", "claude-code").expect("Claude Code changes");
    assert_eq!(
        changes(claude, "hooks"),
        [pair("redefined", "PreToolUse Bash|Write")],
        "{claude:#}"
    );
    assert_eq!(claude["hooks"][0]["fields"], serde_json::json!(["matcher"]));
    assert_eq!(
        changes(claude, "subagents"),
        [
            pair("added", "new"),
            pair("removed", "old"),
            pair("redefined", "review")
        ]
    );
    assert_eq!(
        claude["subagents"][2]["fields"],
        serde_json::json!(["tools"])
    );
    assert_eq!(
        changes(claude, "permissions"),
        [pair("removed", "permissions.deny Bash(curl:*)")]
    );
    assert_eq!(changes(claude, "plugins"), [pair("redefined", "kit")]);
    let plugin_fields = claude["plugins"][0]["fields"].as_array().unwrap();
    assert!(
        plugin_fields.contains(&serde_json::json!("enabledBy")),
        "{plugin_fields:?}"
    );
    let codex = agent(&v, ".", "codex").expect("Codex changes");
    assert_eq!(
        changes(codex, "hooks"),
        [pair("redefined", "PreToolUse Bash")]
    );
    assert_eq!(
        codex["hooks"][0]["fields"],
        serde_json::json!(["handler.command"])
    );
    for a in [claude, codex] {
        for list in ["subagents", "commands", "outputStyles", "plugins"] {
            if a["harness"] == "codex" {
                assert!(a.get(list).is_none(), "{list}: {a:#}");
            }
        }
    }

    let (_, text, _) = h.diff("HEAD~2..HEAD", &[]);
    for line in [
        "redefined hook PreToolUse Bash|Write (.claude/settings.json): matcher",
        "added     subagent new (.claude/agents/new.md)",
        "removed   subagent old (.claude/agents/old.md)",
        "redefined subagent review (.claude/agents/review.md): tools",
        "removed   permission permissions.deny Bash(curl:*) (.claude/settings.json)",
        "redefined hook PreToolUse Bash (.codex/hooks.json): handler.command",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let (_, md, _) = h.diff("HEAD~2..HEAD", &["--format", "markdown"]);
    assert!(md.contains("subagent review"), "{md}");

    // Only a hook script edited, and a blank line moving the settings'
    // lines: the directory is analysed (a source changed), nothing changes.
    h.write(".claude/hooks/guard.sh", "#!/bin/sh\nexit 2\n")
        .write(
            ".claude/settings.json",
            &format!("\n{}", claude_settings("Bash|Write", false, true)),
        )
        .commit("script");
    let (_, v) = h.json("HEAD~1..HEAD");
    assert_eq!(v["summary"]["affectedContexts"], 1, "{v:#}");
    assert!(agent(&v, ".", "claude-code").is_none(), "{v:#}");
}

/// The guard's registration in Claude Code's project settings, with
/// `extra` (a JSON member and a comma, or nothing) first.
fn guarded_settings(extra: &str) -> String {
    format!(
        r#"{{{extra}
  "hooks": {{
    "PreToolUse": [{{"matcher": "Write|Edit|Bash", "hooks": [{{"type": "command", "command": "/opt/bin/playbookdiff-guard hook --host claude-code || exit 2"}}]}}]
  }}
}}
"#
    )
}

/// A guard finding gained or lost between two revisions is introduced or
/// resolved, once for the repository (at the root).
#[test]
fn a_commit_switching_the_guard_off_introduces_a_guard_finding() {
    let h = bridged();
    h.write(".claude/settings.json", &guarded_settings(""))
        .commit("guarded");
    h.write(
        ".claude/settings.json",
        &guarded_settings("\n  \"disableAllHooks\": true,"),
    )
    .commit("switched off");
    let key = "claude-code|disable-all-hooks|.claude/settings.json";
    let guard = |v: &Value, list: &str| -> Vec<Value> {
        v["findings"][list]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["category"] == "guard")
            .cloned()
            .collect()
    };
    // Only a `switchable` finding (the setting that could switch it off)
    // goes the other way.
    let only_switchable = |fs: &[Value]| fs.iter().all(|f| f["type"] == "switchable");
    let (code, v) = h.json("HEAD~1..HEAD");
    assert_eq!(code, 1, "switching the guard off is actionable");
    let introduced = guard(&v, "introduced");
    assert_eq!(introduced.len(), 1, "{introduced:#?}");
    assert_eq!(introduced[0]["key"], key);
    assert_eq!(introduced[0]["type"], "switched-off");
    assert_eq!(introduced[0]["directories"], serde_json::json!(["."]));
    assert!(only_switchable(&guard(&v, "resolved")), "{v:#}");
    // Back again: resolved.
    let (_, v) = h.json("HEAD..HEAD~1");
    let resolved = guard(&v, "resolved");
    assert_eq!(resolved.len(), 1, "{resolved:#?}");
    assert_eq!(resolved[0]["key"], key);
    assert!(only_switchable(&guard(&v, "introduced")), "{v:#}");
    // A commit that changes no guard file leaves the guard findings
    // unchanged, introduced nowhere.
    h.write("AGENTS.md", "# Rules\n\nUse pnpm.\nBe brief.\n")
        .commit("rules");
    let (_, v) = h.json("HEAD~1..HEAD");
    assert!(guard(&v, "introduced").is_empty(), "{v:#}");
    assert!(guard(&v, "resolved").is_empty(), "{v:#}");
}

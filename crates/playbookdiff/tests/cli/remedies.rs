//! Remedies ("To make them agree") on repositories shaped like the ones a
//! new user tried: a remedy never moves a file into itself nor proposes
//! an edit already there, points at the real cause (a committed
//! `AGENTS.override.md` shadowing `AGENTS.md` for Codex, a directory below
//! the launch directory), concerns only its own MCP server, turns a
//! command into a skill instead of linking a commands folder, and, for
//! the kinds that can be applied mechanically, resolves its finding when
//! applied. Each repository is written into a temporary directory and
//! committed with git first.

use crate::support::git;
use assert_cmd::Command;
use playbookdiff_testkit::fs::{link, write};
use regex::Regex;
use serde_json::Value;
use std::path::Path;

/// `playbookdiff ARGS…` run in `dir`; the JSON document it prints.
fn check_json(dir: &Path, args: &[&str]) -> Value {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .arg("check")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}{}", String::from_utf8_lossy(&out.stderr)))
}

/// A repository of `files` (path, text) in a fresh temporary directory,
/// committed.
fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for (path, text) in files {
        write(t.path(), path, text);
    }
    git(t.path(), &["init", "-q"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "fixture"]);
    t
}

/// Every finding of `v` (a `check` or `check --all-dirs` document).
fn findings(v: &Value) -> Vec<&Value> {
    v["findings"].as_array().unwrap().iter().collect()
}

/// The one finding whose id starts with `prefix`.
fn finding<'a>(v: &'a Value, prefix: &str) -> &'a Value {
    let found: Vec<&Value> = findings(v)
        .into_iter()
        .filter(|f| f["id"].as_str().unwrap().starts_with(prefix))
        .collect();
    assert_eq!(found.len(), 1, "{prefix}: {:#?}", ids(v));
    found[0]
}

fn ids(v: &Value) -> Vec<&str> {
    findings(v)
        .into_iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect()
}

/// The remedies of finding `f` for `harness`.
fn remedies_for<'a>(f: &'a Value, harness: &str) -> Vec<&'a str> {
    f["remedies"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|r| r["harness"] == harness)
                .map(|r| r["action"].as_str().unwrap())
                .collect()
        })
        .unwrap_or_default()
}

/// Every remedy's sentence anywhere in the document `v`.
fn all_actions(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(rs)) = m.get("remedies") {
                out.extend(
                    rs.iter()
                        .filter_map(|r| r["action"].as_str())
                        .map(String::from),
                );
            }
            m.values().for_each(|x| all_actions(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| all_actions(x, out)),
        _ => {}
    }
}

/// The ways a remedy can name one file as both the source and the
/// destination of an edit: "`A` into `A`", "a line `@N` to `D/N`" (a file
/// importing itself), "make `L` a symbolic link to `T`" with `T` resolving
/// to `L`.
fn self_edits(action: &str) -> Vec<String> {
    let mut out = Vec::new();
    let into = Regex::new(r"`([^`]+)`\s+into\s+`([^`]+)`").unwrap();
    for c in into.captures_iter(action) {
        if c[1] == c[2] {
            out.push(c[0].to_string());
        }
    }
    let import = Regex::new(r"a line `@([^`]+)` to `([^`]+)`").unwrap();
    for c in import.captures_iter(action) {
        let into = Path::new(&c[2]);
        let imported = into.parent().unwrap().join(c[1].trim_start_matches("./"));
        if imported == into {
            out.push(c[0].to_string());
        }
    }
    let symlink = Regex::new(r"make `([^`]+)` a symbolic link to `([^`]+)`").unwrap();
    for c in symlink.captures_iter(action) {
        let from = Path::new(&c[1]);
        let mut target = from.parent().unwrap().to_path_buf();
        for part in c[2].split('/') {
            match part {
                ".." => {
                    target.pop();
                }
                "." => {}
                p => target.push(p),
            }
        }
        if target == from {
            out.push(c[0].to_string());
        }
    }
    out
}

#[test]
fn the_self_edit_detector_finds_what_it_is_for() {
    assert_eq!(
        self_edits("put the text of `pkg/AGENTS.md` into `pkg/AGENTS.md`").len(),
        1
    );
    assert_eq!(
        self_edits("add a line `@CLAUDE.md` to `a/CLAUDE.md`").len(),
        1
    );
    assert_eq!(
        self_edits("make `a/.claude/skills/x` a symbolic link to `../skills/x`").len(),
        1
    );
    assert!(self_edits("put the text of `a/CLAUDE.md` into `a/AGENTS.md`").is_empty());
    assert!(self_edits("add a line `@AGENTS.md` to `a/CLAUDE.md`").is_empty());
}

/// The new-user trial's first repository: a root `CLAUDE.md` importing
/// `AGENTS.md` and `docs/style.md`; `pkg` with `AGENTS.md`, a committed
/// `AGENTS.override.md` and `CLAUDE.md`; `pkg/api` with `AGENTS.md`; two
/// Codex MCP servers with literal secrets (`docs` in `env`, `remote` in its
/// URL) and two OpenCode ones (`oc` with a literal header, `oclocal`).
const F1: &[(&str, &str)] = &[
    ("CLAUDE.md", "# Root\n\n@AGENTS.md\n@docs/style.md\n"),
    ("AGENTS.md", "# Agents\n\nUse cargo test.\n"),
    ("docs/style.md", "# Style\n\nWrap at 80.\n"),
    ("pkg/AGENTS.md", "# Pkg\n\nPkg rules: run make pkg.\n"),
    ("pkg/AGENTS.override.md", "# Pkg override\n\nOverride: run make fast.\n"),
    ("pkg/CLAUDE.md", "# Pkg claude\n\nClaude pkg: use pnpm.\n"),
    ("pkg/api/AGENTS.md", "# API\n\nAPI rules: run make api.\n"),
    (
        ".codex/config.toml",
        "[mcp_servers.docs]\ncommand = \"docs-server\"\nenv = { TOKEN = \"FAKESECRET_1\" }\n\n\
         [mcp_servers.remote]\nurl = \"https://u:FAKESECRET_2@h/x\"\n",
    ),
    (
        "opencode.json",
        "{\n  \"mcp\": {\n    \"oc\": {\n      \"type\": \"remote\",\n      \"url\": \"https://oc.example/mcp\",\n      \
         \"headers\": { \"X-Key\": \"FAKESECRET_3\" }\n    },\n    \"oclocal\": {\n      \
         \"type\": \"local\",\n      \"command\": [\"oc-local\"]\n    }\n  }\n}\n",
    ),
];

/// In `pkg` the override shadows `AGENTS.md` for Codex, and `pkg/api` is
/// below the launch directory: the Codex remedies say so, and none moves
/// a file into itself.
#[test]
fn codex_remedies_name_the_shadowing_override_and_the_launch_directory() {
    let t = repo(F1);
    // The three harnesses of these findings (Copilot CLI reads the
    // `AGENTS.md` files too, which changes their ids).
    let v = check_json(
        t.path(),
        &[
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--harness",
            "opencode",
        ],
    );
    let pkg = remedies_for(
        finding(&v, "instruction:missing:opencode-only:pkg:"),
        "codex",
    );
    assert_eq!(pkg.len(), 1, "{pkg:#?}");
    for phrase in [
        "from `.` nothing in `pkg` reaches it",
        "(`--cwd pkg`)",
        "`pkg/AGENTS.override.md` shadows `pkg/AGENTS.md`",
        "merge the text of `pkg/AGENTS.md` into `pkg/AGENTS.override.md`, or delete the override",
    ] {
        assert!(pkg[0].contains(phrase), "{phrase:?} not in {:?}", pkg[0]);
    }
    let api = remedies_for(
        finding(&v, "instruction:missing:opencode-only:pkg/api:"),
        "codex",
    );
    assert_eq!(api.len(), 1, "{api:#?}");
    assert!(
        api[0].contains("from `.` nothing in `pkg/api` reaches it; launched in `pkg/api` (`--cwd pkg/api`) it reads `pkg/api/AGENTS.md`"),
        "{api:?}"
    );
    // The root `CLAUDE.md` already imports `AGENTS.md`: no agent is told
    // to add that import again.
    let root = finding(&v, "instruction:missing:claude-code-only:root:8ef75972f25f");
    for h in ["codex", "opencode"] {
        let r = remedies_for(root, h);
        assert_eq!(r.len(), 1, "{h}: {r:#?}");
        assert!(
            r[0].contains("`CLAUDE.md` already imports `AGENTS.md`"),
            "{r:?}"
        );
        assert!(!r[0].contains("replace it with a line"), "{r:?}");
    }
    let mut actions = Vec::new();
    all_actions(&v, &mut actions);
    let bad: Vec<String> = actions.iter().flat_map(|a| self_edits(a)).collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A server's finding carries its own secret warning only, then the
/// remedy that adds it to the agents that lack it; no secret is printed.
#[test]
fn mcp_remedies_concern_their_own_server() {
    let t = repo(F1);
    let v = check_json(t.path(), &[]);
    let cases = [
        (
            "mcp:capability-gap:codex-only:docs:",
            "codex",
            "mcp_servers.docs.env.TOKEN",
            "mcp_servers.remote",
        ),
        (
            "mcp:capability-gap:codex-only:remote:",
            "codex",
            "mcp_servers.remote.url",
            "mcp_servers.docs",
        ),
        (
            "mcp:capability-gap:opencode-only:oc:",
            "opencode",
            "MCP server \"oc\"",
            "oclocal",
        ),
    ];
    for (id, owner, own, other) in cases {
        let f = finding(&v, id);
        let own_side = remedies_for(f, owner);
        assert_eq!(own_side.len(), 1, "{id}: {own_side:#?}");
        assert!(own_side[0].contains(own), "{id}: {own_side:?}");
        let text = f.to_string();
        assert!(!text.contains(other), "{id} mentions {other}: {text}");
    }
    // `oclocal` has no secret: nothing about `oc`'s header, and the
    // remedies that add it are there.
    let f = finding(&v, "mcp:capability-gap:opencode-only:oclocal:");
    assert!(f.get("problems").is_none(), "{f:#}");
    assert!(remedies_for(f, "opencode").is_empty(), "{f:#}");
    assert!(remedies_for(f, "codex")[0].contains("[mcp_servers.oclocal]"));
    assert!(remedies_for(f, "claude-code")[0].contains("`oclocal` under `mcpServers`"));
    // A server with a secret warning still gets the remedies that add it.
    for id in [
        "mcp:capability-gap:codex-only:docs:",
        "mcp:capability-gap:codex-only:remote:",
    ] {
        let f = finding(&v, id);
        assert!(
            remedies_for(f, "claude-code")[0].contains("under `mcpServers` in `.mcp.json`"),
            "{f:#}"
        );
        assert!(
            remedies_for(f, "opencode")[0].contains("to `opencode.json`"),
            "{f:#}"
        );
    }
    let f = finding(&v, "mcp:capability-gap:opencode-only:oc:");
    assert!(
        remedies_for(f, "codex")[0].contains("[mcp_servers.oc]"),
        "{f:#}"
    );
    assert!(
        !v.to_string().contains("FAKESECRET"),
        "a secret value is printed"
    );
}

/// No remedy on the trial's repository or on any fixture of this crate or
/// the comparison crate, at any launch directory, names one file as the
/// source and the destination of an edit.
#[test]
fn no_remedy_on_any_fixture_edits_a_file_into_itself() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = playbookdiff_testkit::all_fixtures(&manifest.join("tests/fixtures"));
    dirs.extend(playbookdiff_testkit::all_fixtures(
        &manifest.join("../playbookdiff-compare/tests/fixtures"),
    ));
    assert!(dirs.len() >= 20, "{dirs:?}");
    let mut bad = Vec::new();
    let mut seen = 0;
    let trial = repo(F1);
    for dir in dirs.into_iter().chain([trial.path().to_path_buf()]) {
        let t = playbookdiff_testkit::copy_to_temp(&dir);
        let v = check_json(t.path(), &["--all-dirs"]);
        let mut actions = Vec::new();
        all_actions(&v, &mut actions);
        seen += actions.len();
        for a in actions {
            for e in self_edits(&a) {
                bad.push(format!("{}: {e} in {a:?}", dir.display()));
            }
        }
    }
    assert!(seen > 50, "only {seen} remedies seen");
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Applies `action` to the repository at `root` when it is of a kind that
/// can be applied mechanically; false otherwise.
/// - "add a line `@N` to `F`": appends the line to `F`;
/// - "make `L` a symbolic link to `T`": replaces `L` with that link;
/// - "move the text of `A` into `B` and replace it with a line `@N`";
/// - "`A` already imports `N` …; move its other lines into `B`";
/// - "`C` is a command …: create `S` holding its text under front matter
///   with `name: N`".
fn apply(root: &Path, action: &str) -> bool {
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let append = |p: &str, text: &str| {
        let old = std::fs::read_to_string(root.join(p)).unwrap_or_default();
        write(root, p, format!("{old}\n{text}"));
    };
    let caps = |re: &str| Regex::new(re).unwrap().captures(action);
    if let Some(c) =
        caps(r"^move the text of `([^`]+)` into `([^`]+)` and replace it with a line `@([^`]+)`")
    {
        let text = read(&c[1]);
        append(&c[2], &text);
        write(root, &c[1], format!("@{}\n", &c[3]));
        return true;
    }
    if let Some(c) =
        caps(r"^`([^`]+)` already imports `[^`]+`.*move its other lines into `([^`]+)`")
    {
        let text = read(&c[1]);
        let (imports, other): (Vec<&str>, Vec<&str>) =
            text.lines().partition(|l| l.starts_with('@'));
        append(&c[2], &other.join("\n"));
        write(root, &c[1], imports.join("\n") + "\n");
        return true;
    }
    if let Some(c) = caps(r"^add a line `@([^`]+)` to `([^`]+)`") {
        append(&c[2], &format!("@{}\n", &c[1]));
        return true;
    }
    if let Some(c) = caps(r"^create `([^`]+)` holding the line `@([^`]+)`") {
        assert!(!root.join(&c[1]).exists(), "{action}: `{}` exists", &c[1]);
        write(root, &c[1], format!("@{}\n", &c[2]));
        return true;
    }
    if let Some(c) = caps(r"^make `([^`]+)` a symbolic link to `([^`]+)`") {
        let _ = std::fs::remove_file(root.join(&c[1]));
        link(root, &c[2], &c[1]);
        return true;
    }
    if let Some(c) = caps(
        r"^`([^`]+)` is a command.*create `([^`]+)` holding its text under front matter with `name: ([^`]+)`",
    ) {
        let text = read(&c[1]);
        let body = match text
            .strip_prefix("---\n")
            .and_then(|t| t.split_once("\n---\n"))
        {
            Some((_, body)) => body.to_string(),
            None => text,
        };
        write(
            root,
            &c[2],
            format!(
                "---\nname: {}\ndescription: Applies a change.\n---\n{body}",
                &c[3]
            ),
        );
        return true;
    }
    false
}

/// A launch directory, the repository's files, the id prefix of a finding
/// and the harness whose remedy is applied.
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

/// For every remedy of a kind that can be applied mechanically (an import
/// line, a symbolic link, moving a `CLAUDE.md`'s text into `AGENTS.md`,
/// a command made a skill), applying it to a copy of the repository
/// makes its finding disappear on the next `check`, launched in the same
/// directory.
#[test]
fn applied_remedies_resolve_their_findings() {
    let cases: &[Case] = &[
        // Launched in `pkg`: Codex reads `pkg/AGENTS.md`, which Claude
        // Code 2.1.197 (no `AGENTS.md` fallback) does not.
        (
            "pkg",
            &[("pkg/AGENTS.md", "# Pkg\n\nRun make pkg.\n")],
            "instruction:missing:codex-only:pkg:",
            "claude-code",
        ),
        // Launched in `pkg`: Claude Code reads `pkg/CLAUDE.md`, Codex
        // nothing.
        (
            "pkg",
            &[("pkg/CLAUDE.md", "# Pkg\n\nUse pnpm in pkg.\n")],
            "instruction:missing:claude-code-only:pkg:",
            "codex",
        ),
        // A `CLAUDE.md` that imports `AGENTS.md` and says more.
        (
            ".",
            &[
                ("AGENTS.md", "# Agents\n\nUse cargo test.\n"),
                ("CLAUDE.md", "# Root\n\nAlso run cargo fmt.\n\n@AGENTS.md\n"),
            ],
            "instruction:missing:claude-code-only:root:",
            "codex",
        ),
        // A skill only Claude Code has.
        (
            ".",
            &[(
                ".claude/skills/deploy/SKILL.md",
                "---\nname: deploy\ndescription: Deploys the app.\n---\nRun make deploy.\n",
            )],
            "skill:capability-gap:claude-code-only:deploy:",
            "codex",
        ),
        // A Claude Code command (skill `opsx:apply`).
        (
            ".",
            &[(
                ".claude/commands/opsx/apply.md",
                "---\ndescription: Applies a change.\n---\nApply the change.\n",
            )],
            "skill:capability-gap:claude-code-only:opsx-apply:",
            "codex",
        ),
    ];
    for (cwd, files, id, harness) in cases {
        let t = repo(files);
        let args = [
            "--cwd",
            cwd,
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--agent-version",
            "claude-code=2.1.197",
        ];
        let before = check_json(t.path(), &args);
        let f = finding(&before, id);
        let rs = remedies_for(f, harness);
        assert_eq!(rs.len(), 1, "{id}: {f:#}");
        assert!(apply(t.path(), rs[0]), "{id}: not applicable: {:?}", rs[0]);
        let after = check_json(t.path(), &args);
        assert!(
            !ids(&after).iter().any(|i| i.starts_with(id)),
            "{id} remains after {:?}: {:#?}",
            rs[0],
            ids(&after)
        );
    }
}

/// What `action` proposes to create or add that could already be there:
/// the link of "make `L` a symbolic link to `T`" (there when `L` already
/// leads where `T` does), the file of "create `F` holding" (there when
/// anything is at `F`), the import of "add a line `@N` to `F`" (a line
/// `@N` outside fenced and indented code), the entry of "add `"instructions": ["X"]`
/// to `opencode.json`". Each as (what, whether it is already in the
/// repository at `root`).
fn proposed(root: &Path, action: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let text = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_default();
    for c in Regex::new(r"make `([^`]+)` a symbolic link to `([^`]+)`")
        .unwrap()
        .captures_iter(action)
    {
        let link = root.join(&c[1]);
        let target = link.parent().unwrap().join(&c[2]);
        let same = match (link.canonicalize(), target.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        out.push((c[0].to_string(), same));
    }
    for c in Regex::new(r"create `([^`]+)` holding")
        .unwrap()
        .captures_iter(action)
    {
        let there = std::fs::symlink_metadata(root.join(&c[1])).is_ok();
        out.push((c[0].to_string(), there));
    }
    for c in Regex::new(r"add a line `@([^`]+)` to `([^`]+)`")
        .unwrap()
        .captures_iter(action)
    {
        let mut fenced = false;
        let has = text(&c[2]).lines().any(|l| {
            let t = l.trim_start();
            if t.starts_with("```") || t.starts_with("~~~") {
                fenced = !fenced;
            }
            let indented = l.starts_with("    ") || l.starts_with('\t');
            !fenced && !indented && t.trim_end() == format!("@{}", &c[1])
        });
        out.push((c[0].to_string(), has));
    }
    for c in Regex::new(r#"add `"instructions": \["([^"]+)"\]` to `opencode\.json`"#)
        .unwrap()
        .captures_iter(action)
    {
        let listed = text("opencode.json").contains(&format!("\"{}\"", &c[1]));
        out.push((c[0].to_string(), listed));
    }
    out
}

/// Every remedy of `check --all-dirs` on the repository at `root` that
/// proposes what is already there; the number of remedies seen.
fn already_there(root: &Path) -> (Vec<String>, usize) {
    let v = check_json(root, &["--all-dirs"]);
    let mut actions = Vec::new();
    all_actions(&v, &mut actions);
    let bad = actions
        .iter()
        .flat_map(|a| {
            proposed(root, a)
                .into_iter()
                .filter(|(_, there)| *there)
                .map(move |(what, _)| format!("{what} in {a:?}"))
        })
        .collect();
    (bad, actions.len())
}

/// No remedy proposes a link, a file, an import line or an `instructions`
/// entry that is already there, on any fixture of any crate, the trial's
/// repository, and every corpus repository (extracted with its links),
/// at every launch directory. (The skills of a Claude Code plugin that
/// Codex names `plugin:name` and OpenCode `name` once gave OpenCode a
/// link to make at the very path Codex reads them from.)
#[test]
fn no_remedy_proposes_what_is_already_there() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = Vec::new();
    for e in std::fs::read_dir(manifest.join("..")).unwrap() {
        let fixtures = e.unwrap().path().join("tests/fixtures");
        if fixtures.is_dir() {
            dirs.extend(playbookdiff_testkit::all_fixtures(&fixtures));
        }
    }
    dirs.sort();
    assert!(dirs.len() >= 100, "{}", dirs.len());
    let mut bad = Vec::new();
    let mut seen = 0;
    let trial = repo(F1);
    for dir in dirs.into_iter().chain([trial.path().to_path_buf()]) {
        let t = playbookdiff_testkit::copy_to_temp(&dir);
        let (b, n) = already_there(t.path());
        seen += n;
        bad.extend(b.into_iter().map(|b| format!("{}: {b}", dir.display())));
    }
    assert!(seen > 50, "only {seen} remedies seen");
    if let Some(corpus) = crate::support::corpus_root("no_remedy_proposes_what_is_already_there") {
        for name in crate::support::repositories(&corpus) {
            let m = crate::support::materialize(&corpus, &name, crate::support::Form::Tar);
            let (b, _) = already_there(&m.root);
            bad.extend(b.into_iter().map(|b| format!("{name}: {b}")));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A repository shaped like a skills plugin (getsentry/skills): the
/// skills under `skills/`, `.agents/skills` a link to them, a Claude Code
/// plugin manifest. Codex names each skill in the plugin's namespace
/// (`sentry-skills:commit`), OpenCode by its plain name, both reading the
/// same `SKILL.md`: one skill each, not one gap per name and side, and no
/// remedy to link `.agents/skills/<name>`, which is already there.
#[test]
fn one_skill_file_under_two_names_is_one_skill_with_no_link_to_make() {
    let names = ["commit", "code-review", "find-bugs"];
    let mut files: Vec<(String, String)> = vec![(
        ".claude-plugin/plugin.json".to_string(),
        "{\"name\": \"sentry-skills\", \"description\": \"Skills.\"}\n".to_string(),
    )];
    for n in names {
        files.push((
            format!("skills/{n}/SKILL.md"),
            format!("---\nname: {n}\ndescription: Does {n}.\n---\n\nSteps for {n}.\n"),
        ));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let t = repo(&borrowed);
    link(t.path(), "../skills", ".agents/skills");
    let v = check_json(t.path(), &[]);
    let skill_ids: Vec<&str> = ids(&v)
        .into_iter()
        .filter(|i| i.starts_with("skill:"))
        .collect();
    for id in &skill_ids {
        assert!(
            !id.contains(":codex-only:") && !id.contains(":opencode-only:"),
            "{skill_ids:#?}"
        );
    }
    // Each skill is one finding at most: Claude Code lacks it until the
    // plugin is installed.
    assert!(skill_ids.len() <= names.len(), "{skill_ids:#?}");
    let (bad, _) = already_there(t.path());
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The remedy of `harness` in finding `f`.
fn remedy_of<'a>(f: &'a Value, harness: &str) -> &'a str {
    f["remedies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["harness"] == harness)
        .and_then(|r| r["action"].as_str())
        .unwrap_or_else(|| panic!("no {harness} remedy: {f:#}"))
}

/// A deny one harness holds and another lacks is a permission gap with a
/// remedy in the other harness's own format (a Claude Code
/// `permissions.deny` rule, an OpenCode `permission` entry, Codex's
/// read-only sandbox or a prefix rule); applying the Claude Code and
/// OpenCode remedies resolves the gaps between them, each adapter reading
/// the rule the other's remedy wrote as the same scope.
#[test]
fn a_permission_gap_remedy_applied_resolves_it() {
    let harnesses = [
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ];
    let t = repo(&[
        ("AGENTS.md", "# Rules\n"),
        ("CLAUDE.md", "@AGENTS.md\n"),
        (
            ".claude/settings.json",
            r#"{ "permissions": { "deny": ["Bash(curl:*)", "Read(./.env)"] } }"#,
        ),
        (".codex/config.toml", "sandbox_mode = \"read-only\"\n"),
        (
            "opencode.json",
            r#"{ "permission": { "webfetch": "deny" } }"#,
        ),
    ]);
    let v = check_json(t.path(), &harnesses);
    let gap = |v: &Value, slug: &str| -> Vec<String> {
        findings(v)
            .into_iter()
            .filter(|f| {
                f["id"]
                    .as_str()
                    .unwrap()
                    .starts_with("permission:capability-gap:")
                    && f["id"].as_str().unwrap().contains(slug)
            })
            .map(|f| f["absentFrom"].to_string())
            .collect()
    };
    let curl = finding(&v, "permission:capability-gap:claude-code-only:shell-curl");
    assert_eq!(curl["severity"], "medium");
    let oc = remedy_of(curl, "opencode");
    assert!(oc.contains(r#""bash": {"curl *": "deny"}"#), "{oc}");
    assert!(remedy_of(curl, "codex").contains(r#"prefix_rule(pattern = ["curl"]"#));
    let env = finding(&v, "permission:capability-gap:claude-code-only:read-.env");
    assert!(remedy_of(env, "opencode").contains(r#""read": {".env": "deny"}"#));
    assert!(remedy_of(env, "codex").contains("Codex has no setting"));
    let edit = finding(&v, "permission:capability-gap:codex-only:edit");
    assert!(remedy_of(edit, "claude-code").contains(r#"add `"Edit"` to `permissions.deny`"#));
    assert!(remedy_of(edit, "opencode").contains(r#""edit": "deny""#));
    let fetch = finding(&v, "permission:capability-gap:opencode-only:web-fetch");
    assert!(remedy_of(fetch, "claude-code").contains(r#"add `"WebFetch"`"#));

    // The remedies for Claude Code and OpenCode, applied.
    write(
        t.path(),
        ".claude/settings.json",
        r#"{ "permissions": { "deny": ["Bash(curl:*)", "Read(./.env)", "Edit", "WebFetch"] } }"#,
    );
    write(
        t.path(),
        "opencode.json",
        r#"{ "permission": { "webfetch": "deny", "edit": "deny",
             "bash": {"curl *": "deny"}, "read": {".env": "deny"} } }"#,
    );
    let v = check_json(t.path(), &harnesses);
    for slug in ["shell-curl", "read-.env", "edit", "web-fetch"] {
        for absent in gap(&v, slug) {
            assert_eq!(absent, r#"["codex"]"#, "{slug}: {absent}");
        }
    }
    assert!(gap(&v, ":edit:").is_empty(), "every harness refuses edits");
}

/// Codex custom agents (`.codex/agents/*.toml`) are compared with Claude
/// Code subagents and OpenCode agents by name: one every harness can call
/// is no gap, one only Codex defines is a Codex-only gap with the file to
/// add for each other harness, and one Codex lacks has the TOML file as
/// Codex's remedy.
#[test]
fn codex_custom_agents_are_compared_with_the_other_harnesses_subagents() {
    let agent_md = |name: &str| {
        format!("---\nname: {name}\ndescription: Reviews.\nmode: subagent\n---\nReview.\n")
    };
    let agent_toml = |name: &str| {
        format!(
            "name = \"{name}\"\ndescription = \"Reviews.\"\ndeveloper_instructions = \"Review.\"\n"
        )
    };
    let t = repo(&[
        ("AGENTS.md", "# Rules\n"),
        ("CLAUDE.md", "@AGENTS.md\n"),
        (".claude/agents/review.md", &agent_md("review")),
        (".opencode/agent/review.md", &agent_md("review")),
        (".codex/agents/review.toml", &agent_toml("review")),
        (".codex/agents/triage.toml", &agent_toml("triage")),
        (".claude/agents/docs.md", &agent_md("docs")),
        (".opencode/agent/docs.md", &agent_md("docs")),
    ]);
    let v = check_json(
        t.path(),
        &[
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--harness",
            "opencode",
        ],
    );
    let subagent_ids: Vec<&str> = findings(&v)
        .into_iter()
        .filter(|f| f["category"] == "subagent")
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(
        !subagent_ids.iter().any(|id| id.contains(":review:")),
        "{subagent_ids:?}"
    );
    let triage = finding(&v, "subagent:capability-gap:codex-only:triage");
    assert!(remedy_of(triage, "claude-code").contains(".claude/agents/triage.md"));
    assert!(remedy_of(triage, "opencode").contains(".opencode/agent/triage.md"));
    let docs = finding(&v, "subagent:capability-gap:claude-code+opencode-only:docs");
    assert!(remedy_of(docs, "codex").contains(".codex/agents/docs.toml"));
}

//! An agent that would not start: Codex refusing an invalid
//! `.codex/config.toml` (`project_doc_max_bytes = "x"`, Codex 0.171.0),
//! OpenCode refusing a schema-invalid `opencode.json` (an MCP `command`
//! that is a string, OpenCode 1.18.33), and both at once
//! (`tests/fixtures/refused_*`). Each refusing agent has one `high`
//! finding "would not start" at the refused file and no finding about its
//! instructions, skills or MCP servers; the view gives it one line
//! instead of a column. Both refusals were seen with the real agents on
//! `refused_both`, from `.` and from `apps/api`: Codex 0.142.3 and 0.171.0
//! (`codex mcp list`, the project trusted) exit 1 with "failed to load
//! configuration" ("failed to load bootstrap configuration" in 0.171.0),
//! `invalid type: string "x", expected usize in project_doc_max_bytes`;
//! OpenCode 1.18.33 (`opencode debug config`) exits 1 with "Configuration
//! is invalid at opencode.json", `Expected array ... mcp.db.command`.
//! Each fixture is copied into a temporary directory
//! and analysed from there with a relative REPO, so the output names no
//! machine path.

use crate::snapshots::run_in as run;
use serde_json::Value;
use std::path::Path;

/// A copy of fixture `name` at `<temporary directory>/<name>`.
fn fixture(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    playbookdiff_testkit::copy_tree(
        &playbookdiff_testkit::fixture!(name),
        &tmp.path().join(name),
    );
    tmp
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let (_, out) = run(dir, &[args, &["--format", "json"]].concat());
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn findings(v: &Value) -> &Vec<Value> {
    v["findings"].as_array().unwrap()
}

/// The findings that name harness `h` on either side, other than its
/// `agent` finding.
fn pairwise_of<'a>(v: &'a Value, h: &str) -> Vec<&'a Value> {
    findings(v)
        .iter()
        .filter(|f| f["category"] != "agent")
        .filter(|f| {
            f["presentIn"].as_array().unwrap().iter().any(|x| x == h)
                || f["absentFrom"].as_array().unwrap().iter().any(|x| x == h)
                || f["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|i| i["harness"] == h)
        })
        .collect()
}

fn agent_findings(v: &Value) -> Vec<&Value> {
    findings(v)
        .iter()
        .filter(|f| f["category"] == "agent")
        .collect()
}

fn assert_fits(text: &str) {
    for line in text.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 80,
            "wider than 80: {line}"
        );
    }
}

/// (fixture, harness, refused file, its first line, finding id) of each
/// refusing agent.
const REFUSALS: [(&str, &str, &str, u64, &str); 4] = [
    (
        "refused_codex",
        "codex",
        ".codex/config.toml",
        1,
        "agent:refused:codex-only:.codex/config.toml:4fbffa684f20",
    ),
    (
        "refused_opencode",
        "opencode",
        "opencode.json",
        4,
        "agent:refused:opencode-only:opencode.json:4d15c57f6975",
    ),
    (
        "refused_both",
        "codex",
        ".codex/config.toml",
        1,
        "agent:refused:codex-only:.codex/config.toml:4fbffa684f20",
    ),
    (
        "refused_both",
        "opencode",
        "opencode.json",
        4,
        "agent:refused:opencode-only:opencode.json:4d15c57f6975",
    ),
];

/// Each refusing agent: listed in `refused` with its `config-refused`
/// diagnostic, one `high` finding at the refused file and line with a
/// remedy naming that file, the same id from every launch directory (it
/// depends on the file, not on the directory, the line or the message),
/// and no pairwise finding; check exits 1.
#[test]
fn a_refusing_agent_has_one_high_finding_and_no_pairwise_ones() {
    for (name, h, file, line, id) in REFUSALS {
        let tmp = fixture(name);
        for cwd in [".", "apps/api"] {
            let (code, _) = run(tmp.path(), &["check", name, "--cwd", cwd]);
            assert_eq!(code, 1, "{name} {cwd}");
            let v = json(tmp.path(), &["check", name, "--cwd", cwd]);
            let refused: Vec<&Value> = v["refused"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["harness"] == h)
                .collect();
            assert_eq!(refused.len(), 1, "{name} {cwd}: {}", v["refused"]);
            assert_eq!(refused[0]["code"], "config-refused");
            assert_eq!(refused[0]["source"]["path"], file);
            // The compared harnesses stay every harness asked for.
            assert_eq!(
                v["harnesses"].as_array().unwrap().len(),
                playbookdiff_registry::harnesses().len()
            );
            let mine: Vec<&Value> = agent_findings(&v)
                .into_iter()
                .filter(|f| f["absentFrom"][0] == h)
                .collect();
            assert_eq!(mine.len(), 1, "{name} {cwd}");
            let f = mine[0];
            assert_eq!(f["id"], id, "{name} {cwd}");
            assert_eq!(f["type"], "refused");
            assert_eq!(f["severity"], "high");
            assert_eq!(f["actionable"], true);
            assert_eq!(f["problems"][0]["code"], "config-refused");
            assert_eq!(f["problems"][0]["source"]["path"], file);
            assert_eq!(f["problems"][0]["source"]["lines"]["start"], line);
            let fix = f["remedies"][0]["action"].as_str().unwrap();
            assert!(fix.contains(&format!("`{file}` line {line}")), "{fix}");
            assert!(
                pairwise_of(&v, h).is_empty(),
                "{name} {cwd}: {:?}",
                pairwise_of(&v, h)
            );
        }
    }
}

/// With the file fixed, the same repository gives Codex findings of its
/// own (the fixture's skill is one-sided for it): the absence of pairwise
/// findings above comes from the refusal, not from the fixture.
#[test]
fn once_the_file_is_fixed_the_agent_is_compared_again() {
    let tmp = fixture("refused_codex");
    let v = json(tmp.path(), &["check", "refused_codex"]);
    assert!(agent_findings(&v).len() == 1 && pairwise_of(&v, "codex").is_empty());
    std::fs::write(
        tmp.path().join("refused_codex/.codex/config.toml"),
        "[mcp_servers.db]\ncommand = \"npx\"\nargs = [\"-y\", \"db-mcp\"]\n",
    )
    .unwrap();
    let v = json(tmp.path(), &["check", "refused_codex"]);
    assert!(agent_findings(&v).is_empty(), "{:?}", agent_findings(&v));
    assert!(v.get("refused").is_none());
    assert!(!pairwise_of(&v, "codex").is_empty());
}

/// Only Claude Code starts when Codex and OpenCode, the others compared,
/// refuse: no finding compares anything, the view has one column and a
/// line per refusing agent.
#[test]
fn when_only_one_agent_starts_nothing_is_compared() {
    let tmp = fixture("refused_both");
    let three = [
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--harness",
        "opencode",
    ];
    let v = json(
        tmp.path(),
        &[&["check", "refused_both"][..], &three].concat(),
    );
    assert_eq!(agent_findings(&v).len(), 2);
    assert_eq!(findings(&v).len(), 2, "{}", v["findings"]);
    assert_eq!(v["summary"]["high"], 2);
    let (_, view) = run(tmp.path(), &[&["refused_both"][..], &three].concat());
    let head = view
        .lines()
        .find(|l| l.contains("receives"))
        .expect("the table heading");
    assert!(head.contains("Claude Code"), "{head}");
    assert!(
        !head.contains("Codex") && !head.contains("OpenCode"),
        "{head}"
    );
    assert!(view.contains("Codex would not start: it refuses .codex/config.toml:1"));
    assert!(view.contains("OpenCode would not start: it refuses opencode.json:4-7"));
}

/// `explain` on the finding shows the refused file and line, the agent's
/// refusal in its own words, and what to fix.
#[test]
fn explain_shows_the_refusal() {
    let tmp = fixture("refused_codex");
    let (code, out) = run(tmp.path(), &["explain", REFUSALS[0].4, "refused_codex"]);
    assert_eq!(code, 0, "{out}");
    assert_fits(&out);
    assert!(
        out.contains("  .codex/config.toml:1  (config-refused)"),
        "{out}"
    );
    // Codex 0.171.0's words.
    assert!(
        out.contains("failed to load bootstrap configuration"),
        "{out}"
    );
    assert!(out.contains("To make it start"), "{out}");
    // Only the refusing agent has a section.
    assert!(
        !out.contains("\nClaude Code\n") && !out.contains("\nOpenCode\n"),
        "{out}"
    );
}

/// `check --all-dirs`: the refusal is one finding and one problem row for
/// every launch directory it stops the agent in, not one per directory.
#[test]
fn all_dirs_reports_one_refusal_per_file() {
    let tmp = fixture("refused_codex");
    let v = json(tmp.path(), &["check", "refused_codex", "--all-dirs"]);
    let agent = agent_findings(&v);
    assert_eq!(agent.len(), 1, "{}", v["findings"]);
    assert_eq!(agent[0]["id"], REFUSALS[0].4);
    assert_eq!(
        agent[0]["directories"],
        serde_json::json!([".", "apps/api"])
    );
    assert!(pairwise_of(&v, "codex").is_empty());
    let (_, text) = run(tmp.path(), &["check", "refused_codex", "--all-dirs"]);
    assert_fits(&text);
    assert_eq!(text.matches("config-refused (Codex)").count(), 1, "{text}");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Codex would not start: it refuses the configuration in `.codex/config.toml`"
        ),
        "{text}"
    );
}

/// The view and `check` of each fixture, as a reader sees them.
#[test]
fn the_view_and_check_of_a_refusing_agent() {
    for name in ["refused_codex", "refused_opencode", "refused_both"] {
        let tmp = fixture(name);
        let (_, view) = run(tmp.path(), &[name]);
        let (_, check) = run(tmp.path(), &["check", name]);
        assert_fits(&view);
        assert_fits(&check);
        insta::assert_snapshot!(format!("{name}_view"), view);
        insta::assert_snapshot!(format!("{name}_check"), check);
    }
}

/// The Markdown report gives the refusing agents a table of their own,
/// first, and its details name the agent as absent, not an empty side.
#[test]
fn markdown_lists_the_agents_that_would_not_start_first() {
    let tmp = fixture("refused_codex");
    let (code, md) = run(
        tmp.path(),
        &["check", "refused_codex", "--format", "markdown"],
    );
    assert_eq!(code, 1);
    let agents = md.find("### Agents that would not start").expect(&md);
    assert!(agents < md.find("### Instructions").expect(&md), "{md}");
    assert!(
        md.contains("- high agent refused; absent from codex\n"),
        "{md}"
    );
    assert!(!md.contains("present in ,"), "{md}");
}

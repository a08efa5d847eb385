//! `round audit` on a real history: one round on branch `brief/012`
//! from `main`, with a ruling signed by a key `main` lists, a ruling
//! signed by a key it does not list, a brief widened on the branch, a new
//! dependency, an agent's instructions changed and a binary file. Each is
//! a finding with its severity; the exit status fails the round only for
//! the errors.

use crate::mcp::Mcp;
use crate::rulings::{
    commit_all, commit_row, git_in, guard_write, keygen, Committer, BRIEF, BRIEF_PATH,
};
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn audit(root: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(root)
        .env_remove("PLAYBOOKDIFF_BRIEF")
        .args(["round", "audit"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `main` holds the brief, alice's key and a package; the branch
/// `brief/012` is checked out, nothing changed yet.
fn round_repository(alice_pub: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let admin = Committer::unsigned("admin@example.com");
    git_in(root, &admin, &["init", "-q", "-b", "main"], None);
    write(
        root,
        ".github/allowed_signers",
        &format!("alice@example.com {alice_pub}\n"),
    );
    write(root, BRIEF_PATH, BRIEF);
    write(root, "package.json", "{\"dependencies\": {\"a\": \"1\"}}\n");
    write(root, "CLAUDE.md", "# Project\n");
    write(root, "src/a.rs", "fn a() {}\n");
    commit_all(root, &admin, "brief 012 approved");
    git_in(root, &admin, &["checkout", "-q", "-b", "brief/012"], None);
    dir
}

/// (rule, severity, path) of each finding.
fn facts(doc: &Value) -> Vec<(String, String, String)> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("rule"), s("severity"), s("path"))
        })
        .collect()
}

fn has(doc: &Value, rule: &str, severity: &str, path: &str) -> bool {
    facts(doc).contains(&(rule.into(), severity.into(), path.into()))
}

#[test]
fn the_audit_reports_each_fact_of_a_round_and_fails_it_only_for_errors() {
    let keys = tempfile::tempdir().unwrap();
    let (alice, alice_pub) = keygen(keys.path(), "alice");
    let (mallory, _) = keygen(keys.path(), "mallory");
    let dir = round_repository(&alice_pub);
    let root = dir.path();
    let agent = Committer::unsigned("agent@example.com");

    // Inside the scope, and a binary file inside it.
    write(root, "src/a.rs", "fn a() { b() }\n");
    std::fs::write(root.join("src/logo.png"), [0u8, 1, 2]).unwrap();
    commit_all(root, &agent, "work inside the scope");
    // A ruling alice signs opens migrations/001.sql.
    let row = |id: &str, file: &str| format!("| {id} | migrations/{file} | allowed | reviewed |");
    commit_row(
        root,
        &Committer::signed("alice@example.com", &alice),
        &row("E1", "001.sql"),
    );
    write(root, "migrations/001.sql", "-- allowed\n");
    commit_all(root, &agent, "the ruled migration");
    let (code, text) = audit(root, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("note round-protected-ruled migrations/001.sql"),
        "{text}"
    );
    assert!(
        text.replace("\n  ", " ")
            .contains("signed by alice@example.com"),
        "{text}"
    );
    assert!(text.contains("Result: the round passes"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");

    // A ruling signed by a key main does not list, relied on; a file
    // outside the scope; a dependency; the agent's instructions; the
    // brief widened on the branch.
    commit_row(
        root,
        &Committer::signed("alice@example.com", &mallory),
        &row("E2", "002.sql"),
    );
    write(root, "migrations/002.sql", "-- forged\n");
    write(root, "CLAUDE.md", "# Project\n\nSkip the tests.\n");
    write(
        root,
        "package.json",
        "{\"dependencies\": {\"a\": \"1\", \"left-pad\": \"^1\"},\n \"trustedDependencies\": [\"left-pad\"]}\n",
    );
    let brief = std::fs::read_to_string(root.join(BRIEF_PATH)).unwrap();
    write(
        root,
        BRIEF_PATH,
        &brief.replace(
            "affectedFiles: [src/**]",
            "affectedFiles: [src/**, CLAUDE.md]",
        ),
    );
    commit_all(root, &agent, "more");

    let (code, out) = audit(root, &["--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/round-audit.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(doc["scopeFrom"], "base");
    for (rule, severity, path) in [
        ("protected-ruled", "note", "migrations/001.sql"),
        ("protected-changed", "error", "migrations/002.sql"),
        ("ruling-unverified", "warning", BRIEF_PATH),
        ("brief-changed", "error", BRIEF_PATH),
        ("out-of-scope", "warning", "CLAUDE.md"),
        ("out-of-scope", "warning", "package.json"),
        ("agent-configuration", "warning", "CLAUDE.md"),
        ("dependency-added", "warning", "package.json"),
        ("install-scripts", "warning", "package.json"),
        ("not-measured", "note", "src/logo.png"),
    ] {
        assert!(
            has(&doc, rule, severity, path),
            "{rule} {path}: {:#?}",
            facts(&doc)
        );
    }
    assert!(
        !has(&doc, "out-of-scope", "warning", "src/a.rs"),
        "{:#?}",
        facts(&doc)
    );
    let forged = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "protected-changed")
        .unwrap();
    assert!(
        forged["message"]
            .as_str()
            .unwrap()
            .contains("ruling E2 allows it but does not count"),
        "{forged}"
    );
    assert_eq!(doc["counts"]["changedFiles"], 7, "{:#}", doc["counts"]);
    assert_eq!(doc["counts"]["readAsText"], 6);
    assert_eq!(doc["agents"][0]["agents"][0]["harness"], "claude-code");
}

#[test]
fn forge_formats_fingerprint_rule_file_and_subject() {
    let keys = tempfile::tempdir().unwrap();
    let (_, alice_pub) = keygen(keys.path(), "alice");
    let dir = round_repository(&alice_pub);
    let root = dir.path();
    let agent = Committer::unsigned("agent@example.com");
    write(root, "migrations/002.sql", "-- one\n");
    write(root, "README.md", "hello\n");
    commit_all(root, &agent, "outside");

    let sarif = |root: &Path| {
        let (code, out) = audit(root, &["--format", "sarif"]);
        assert_eq!(code, 1);
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let first = sarif(root);
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/vendor/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::draft4::options().build(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&first)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let results = first["runs"][0]["results"].as_array().unwrap().clone();
    let rule_ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(
        rule_ids.contains(&"round-protected-changed"),
        "{rule_ids:?}"
    );
    assert!(rule_ids.contains(&"round-out-of-scope"), "{rule_ids:?}");

    // A second change of the same file: other lines and message, the
    // same fingerprint.
    write(root, "migrations/002.sql", "-- two\n-- lines\n");
    commit_all(root, &agent, "again");
    let second = sarif(root);
    let print = |doc: &Value| -> Vec<String> {
        doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"]["playbookdiffIssue/v1"].to_string())
            .collect()
    };
    assert_eq!(print(&first), print(&second));

    let (code, github) = audit(root, &["--format", "github"]);
    assert_eq!(code, 1);
    assert!(
        github
            .lines()
            .any(|l| l.starts_with("::error file=migrations/002.sql,")),
        "{github}"
    );
    let (_, gitlab) = audit(root, &["--format", "gitlab"]);
    let issues: Value = serde_json::from_str(&gitlab).unwrap();
    assert!(issues
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["check_name"] == "round-protected-changed" && i["severity"] == "critical"));
}

#[test]
fn a_base_that_cannot_be_found_is_a_finding_and_no_brief_is_a_usage_error() {
    let keys = tempfile::tempdir().unwrap();
    let (_, alice_pub) = keygen(keys.path(), "alice");
    let dir = round_repository(&alice_pub);
    let root = dir.path();
    let (code, text) = audit(root, &["--base", "no-such-branch"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("error round-not-measured"), "{text}");
    assert!(
        text.contains("the base `no-such-branch` is not in this repository"),
        "{text}"
    );
    assert!(text.contains("Changed files: not measured"), "{text}");
    let agent = Committer::unsigned("agent@example.com");
    git_in(root, &agent, &["checkout", "-q", "main"], None);
    let (code, _) = audit(root, &[]);
    assert_eq!(code, 2, "no brief named on main");
}

#[test]
fn the_guard_reads_the_scope_from_the_base_branch_and_follows_it_when_it_moves() {
    let keys = tempfile::tempdir().unwrap();
    let (_, alice_pub) = keygen(keys.path(), "alice");
    let dir = round_repository(&alice_pub);
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let root = root.as_path();
    let (d, out) = guard_write(root, "README.md", None);
    assert!(d == "allow" && out.contains("brief-scope"), "{out}");
    // The round's copy widens affectedFiles and adds nothing the guard
    // reads: README.md is still outside the brief, committed or not.
    let brief = std::fs::read_to_string(root.join(BRIEF_PATH)).unwrap();
    let widened = brief.replace(
        "affectedFiles: [src/**]",
        "affectedFiles: [src/**, README.md]\noutOfScope: warn",
    );
    write(root, BRIEF_PATH, &widened);
    let (_, out) = guard_write(root, "README.md", None);
    assert!(out.contains("brief-scope"), "{out}");
    commit_all(root, &Committer::unsigned("agent@example.com"), "widen");
    let (_, out) = guard_write(root, "README.md", None);
    assert!(out.contains("brief-scope"), "{out}");
    // A person makes the base stricter: the next call reads the moved
    // base (its cache is keyed by the base commit).
    let admin = Committer::unsigned("admin@example.com");
    git_in(root, &admin, &["checkout", "-q", "main"], None);
    write(
        root,
        BRIEF_PATH,
        &brief.replace("baseBranch: main", "baseBranch: main\noutOfScope: deny"),
    );
    commit_all(root, &admin, "outside the scope is refused");
    git_in(root, &admin, &["checkout", "-q", "brief/012"], None);
    let (d, out) = guard_write(root, "README.md", None);
    assert_eq!(d, "deny", "{out}");
    assert_eq!(guard_write(root, "src/a.rs", None).0, "allow");
}

#[test]
fn a_round_over_mcp_starts_checks_escalates_and_audits() {
    let keys = tempfile::tempdir().unwrap();
    let (_, alice_pub) = keygen(keys.path(), "alice");
    let dir = round_repository(&alice_pub);
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let repo = root.to_str().unwrap();
    let mut mcp = Mcp::start();

    let tools = mcp.request("tools/list", serde_json::json!({}));
    let read_only = |name: &str| {
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["annotations"]["readOnlyHint"].clone())
    };
    assert_eq!(read_only("round_context"), Some(Value::Bool(true)));
    assert_eq!(read_only("round_check"), Some(Value::Bool(true)));
    assert_eq!(read_only("round_audit"), Some(Value::Bool(true)));
    assert_eq!(read_only("round_escalate"), Some(Value::Bool(false)));

    let packet = mcp.call(
        "round_context",
        serde_json::json!({"repo": repo, "brief": "012"}),
    );
    assert_eq!(
        packet["structuredContent"]["brief"]["id"], "012",
        "{packet}"
    );

    let check = |mcp: &mut Mcp, path: &str| {
        let r = mcp.call(
            "round_check",
            serde_json::json!({"repo": repo, "path": path}),
        );
        r["structuredContent"].clone()
    };
    assert_eq!(check(&mut mcp, "src/b.rs")["verdict"], "allow");
    assert_eq!(check(&mut mcp, "README.md")["verdict"], "warn");
    let protected = check(&mut mcp, "migrations/002.sql");
    assert_eq!(protected["verdict"], "deny");
    assert!(protected["reason"]
        .as_str()
        .unwrap()
        .contains("playbookdiff round escalate '012' --path 'migrations/002.sql'"));

    // No table yet: the escalation makes one with the memo's columns.
    let before = BRIEF.split("| Id").next().unwrap();
    write(&root, BRIEF_PATH, before);
    let escalated = mcp.call(
        "round_escalate",
        serde_json::json!({"repo": repo, "path": "migrations/002.sql", "reason": "a rename",
            "options": ["rename the column"], "recommendation": "rename"}),
    );
    assert_ne!(escalated["isError"], true, "{escalated}");
    let after = std::fs::read_to_string(root.join(BRIEF_PATH)).unwrap();
    assert!(
        after.len() > before.len() && after.contains("| E1 | migrations/002.sql | pending"),
        "{after}"
    );
    let refused = mcp.call(
        "round_escalate",
        serde_json::json!({"repo": repo, "path": "migrations/002.sql", "reason": " ",
            "options": ["x"], "recommendation": "x"}),
    );
    assert_eq!(refused["isError"], true, "{refused}");

    write(&root, "migrations/002.sql", "-- unruled\n");
    commit_all(&root, &Committer::unsigned("agent@example.com"), "unruled");
    let audit = mcp.call("round_audit", serde_json::json!({"repo": repo}));
    let doc = &audit["structuredContent"];
    assert_eq!(doc["fails"], true, "{audit}");
    assert!(has(doc, "protected-changed", "error", "migrations/002.sql"));
}

//! `round context` as a user runs it: which brief (argument, variable,
//! branch, CI variables on a detached head), refusals with exit 2 and one
//! line, the packet's text within 80 columns and its JSON against the
//! committed schema.

use assert_cmd::Command;
use playbookdiff_testkit::corpus::git;
use std::path::Path;

const BRIEF: &str = "---
id: \"012\"
title: Rotate the tokens
status: approved
affectedFiles: [src/auth/**]
protectedFiles: [migrations/**, /etc/passwd]
baseBranch: main
---
# Rotate the tokens

Read [the design](../docs/design.md) and [the log](../docs/log.md).

## Rulings

| Id | Path | Status |
| --- | --- | --- |
| R1 | migrations/002.sql | pending |
";

/// A repository on branch `branch` with brief 012 in `folder`, a CLAUDE.md
/// and an AGENTS.md where the scope lies, and two linked documents (the
/// second 200 characters long).
fn repository(branch: &str, folder: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", branch]);
    let write = |path: &str, text: &str| {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(&format!("{folder}/012.md"), BRIEF);
    write(&format!("{folder}/013.md"), "---\nid: \"013\"\n---\n");
    write("CLAUDE.md", "Use tabs.\n");
    write("src/auth/AGENTS.md", "Rotate with care.\n");
    write("docs/design.md", "Tokens rotate daily.\n");
    write("docs/log.md", &"x".repeat(200));
    dir
}

/// `playbookdiff round SUB` in `root`, with no brief variable and no CI
/// variable set.
fn round_sub(root: &Path, sub: &str) -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.current_dir(root)
        .env("NO_COLOR", "1")
        .env_remove("PLAYBOOKDIFF_BRIEF");
    for v in playbookdiff_round::select::CI_BRANCH_VARIABLES {
        cmd.env_remove(v);
    }
    cmd.args(["round", sub]);
    cmd
}

fn round(root: &Path) -> Command {
    round_sub(root, "context")
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// The one line a refusal prints, with exit status 2 and nothing on
/// standard output.
fn refusal(cmd: &mut Command) -> String {
    let out = cmd.assert().code(2).stdout("").get_output().stderr.clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

#[test]
fn the_branch_names_the_brief_and_the_packet_says_what_it_must() {
    let repo = repository("alice/brief/012", "briefs");
    let text = stdout(&mut round(repo.path()));
    assert!(
        text.starts_with("Round brief 012: Rotate the tokens\n"),
        "{text}"
    );
    assert!(text.contains("named by the branch alice/brief/012"));
    assert!(text.contains("May write (affectedFiles):\n  src/auth/**\n"));
    assert!(text.contains("  migrations/**\n"));
    assert!(text.contains("/etc/passwd (cannot be read: `/etc/passwd` is an absolute path"));
    assert!(text.contains("This list is not known in full"));
    assert!(text.contains("line 17: id: R1; path: migrations/002.sql; status: pending"));
    assert!(text.contains("briefs/012.md:6: `protectedFiles`"));
    // Codex reads the scope's AGENTS.md when launched there; Claude Code
    // the root's CLAUDE.md.
    assert!(text.contains("launched from src/auth:"));
    assert!(
        text.contains("Codex: instructions src/auth/AGENTS.md;"),
        "{text}"
    );
    assert!(
        text.contains("Claude Code: instructions CLAUDE.md;"),
        "{text}"
    );
    assert!(text.contains("docs/design.md (21 chars): inlined below"));
    assert!(text.contains("\n──── docs/design.md\nTokens rotate daily.\n"));
    assert!(text.contains("\n──── briefs/012.md\n---\nid: \"012\"\n"));
    let head = &text[..text.find("\n──── ").unwrap()];
    for line in head.lines() {
        assert!(line.chars().count() <= 80, "over 80 columns: {line}");
    }
}

/// The brief and each inlined document are quoted within 80 columns too:
/// a prose line, a list item and an indented line wider than that go on
/// under their own text, every word kept in its order; a line that fits
/// is as it was.
#[test]
fn quoted_brief_and_document_lines_fit_80_columns() {
    let repo = repository("brief/012", "briefs");
    let long =
        "The API (apps/api) serves the web app (apps/web); UI components live in packages/ui.";
    let doc = format!("{long}\n\n- {long}\n    {long}\nTokens rotate daily.\n");
    std::fs::write(repo.path().join("docs/design.md"), &doc).unwrap();
    let text = stdout(round(repo.path()).env_remove("COLUMNS"));
    for line in text.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 80,
            "over 80 columns: {line}"
        );
    }
    let quoted = &text[text.find("\n──── docs/design.md\n").unwrap()..];
    assert!(quoted.contains(
        "\nThe API (apps/api) serves the web app (apps/web); UI components live in\npackages/ui.\n\n- The API"
    ), "{quoted}");
    assert!(
        quoted.contains("live in\n  packages/ui.\n    The API"),
        "{quoted}"
    );
    assert!(
        quoted.contains("\n    packages/ui.\nTokens rotate daily.\n"),
        "{quoted}"
    );
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words(quoted).contains(&words(&doc)), "{quoted}");
}

#[test]
fn the_budget_names_what_does_not_fit() {
    let repo = repository("brief/012", "briefs");
    let budget = (BRIEF.chars().count() + 21 + 199).to_string();
    let text = stdout(round(repo.path()).args(["--budget", &budget]));
    assert!(text.contains("docs/design.md (21 chars): inlined below"));
    assert!(text.contains("docs/log.md (200 chars): over the budget, read it at that path"));
    assert!(!text.contains("──── docs/log.md"));
}

#[test]
fn the_json_packet_follows_its_schema() {
    let repo = repository("brief/012", "briefs");
    let out = stdout(round(repo.path()).args(["--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/round-context.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(doc["brief"]["id"], "012");
    assert_eq!(
        doc["brief"]["namedBy"],
        serde_json::json!({"kind": "branch", "branch": "brief/012"})
    );
    assert_eq!(doc["brief"]["outOfScope"], "warn");
    assert_eq!(doc["scopeReadable"], true);
    assert_eq!(doc["protectedReadable"], false);
    assert_eq!(doc["rulings"][0]["cells"]["status"], "pending");
    assert_eq!(doc["agents"][0]["cwd"], "src/auth");
    assert_eq!(doc["budgetChars"], 60_000);
}

#[test]
fn the_argument_then_the_variable_then_the_branch() {
    let repo = repository("brief-013", "briefs");
    let named = |cmd: &mut Command| stdout(cmd).lines().next().unwrap().to_string();
    assert_eq!(named(&mut round(repo.path())), "Round brief 013");
    assert_eq!(
        named(round(repo.path()).env("PLAYBOOKDIFF_BRIEF", "012")),
        "Round brief 012: Rotate the tokens"
    );
    // Set to spaces, the variable is as unset.
    assert_eq!(
        named(round(repo.path()).env("PLAYBOOKDIFF_BRIEF", " ")),
        "Round brief 013"
    );
    assert_eq!(
        named(
            round(repo.path())
                .env("PLAYBOOKDIFF_BRIEF", "013")
                .arg("012")
        ),
        "Round brief 012: Rotate the tokens"
    );
}

#[test]
fn a_detached_head_reads_the_forge_variables_and_only_then() {
    let repo = repository("main", "briefs");
    let root = repo.path();
    let line = refusal(round(root).env("GITHUB_HEAD_REF", "brief/012"));
    assert!(line.contains("branch `main` names none"), "{line}");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "x"]);
    git(root, &["checkout", "-q", "--detach"]);
    let line = refusal(&mut round(root));
    assert!(
        line.contains("no brief named: give ID, set PLAYBOOKDIFF_BRIEF"),
        "{line}"
    );
    let text = stdout(
        round(root)
            .env("GITHUB_HEAD_REF", "")
            .env("CI_COMMIT_REF_NAME", "brief/012"),
    );
    assert!(
        text.contains("named by CI_COMMIT_REF_NAME (branch brief/012)"),
        "{text}"
    );
}

#[test]
fn an_unknown_or_empty_id_is_refused() {
    let repo = repository("brief/999", "briefs");
    let line = refusal(&mut round(repo.path()));
    assert!(line.contains("no brief in `briefs/` has id `999` (named by the branch brief/999); known ids: 012, 013"), "{line}");
    let line = refusal(round(repo.path()).args(["--brief", ""]));
    assert!(line.contains("the brief id is empty"), "{line}");
    // A file that is not text is named, not passed over in silence.
    std::fs::write(repo.path().join("briefs/999.md"), b"---\nid: \xff\n---\n").unwrap();
    let line = refusal(&mut round(repo.path()));
    assert!(
        line.ends_with("known ids: 012, 013; not UTF-8 text, so not read: briefs/999.md\n"),
        "{line}"
    );
    // Two briefs with one id: neither is chosen.
    std::fs::write(repo.path().join("briefs/copy.md"), BRIEF).unwrap();
    let line = refusal(round(repo.path()).arg("012"));
    assert!(
        line.contains("both briefs/012.md and briefs/copy.md have this id"),
        "{line}"
    );
}

#[test]
fn the_briefs_folder_comes_from_the_project_configuration() {
    let repo = repository("brief/012", "plans/rounds");
    let line = refusal(&mut round(repo.path()));
    assert!(
        line.contains("the briefs folder `briefs/` does not exist"),
        "{line}"
    );
    std::fs::write(
        repo.path().join("playbookdiff.toml"),
        "briefs = \"plans/rounds\"\n",
    )
    .unwrap();
    let text = stdout(&mut round(repo.path()));
    assert!(
        text.contains("file plans/rounds/012.md, named by the branch brief/012"),
        "{text}"
    );
    std::fs::write(
        repo.path().join("playbookdiff.toml"),
        "briefs = \"../elsewhere\"\n",
    )
    .unwrap();
    let line = refusal(&mut round(repo.path()));
    assert!(
        line.contains("is not a folder inside the repository"),
        "{line}"
    );
}

fn escalate(root: &Path) -> Command {
    round_sub(root, "escalate")
}

#[test]
fn an_escalation_is_a_pending_row_the_packet_then_shows() {
    let repo = repository("brief/012", "briefs");
    let brief = repo.path().join("briefs/012.md");
    // The table lacks the memo's columns: refused, the brief unchanged.
    let args = [
        "--path",
        "migrations/002.sql",
        "--reason",
        "a rename",
        "--option",
        "rename",
        "--option",
        "add a column",
        "--recommendation",
        "rename",
    ];
    let line = refusal(escalate(repo.path()).args(args));
    assert!(
        line.contains("the Rulings table has no `reason` column"),
        "{line}"
    );
    assert_eq!(std::fs::read_to_string(&brief).unwrap(), BRIEF);
    let with_columns = BRIEF.replace(
        "| Id | Path | Status |\n| --- | --- | --- |\n| R1 | migrations/002.sql | pending |\n",
        "| Id | Path | Status | Reason | Options | Recommendation |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    std::fs::write(&brief, &with_columns).unwrap();
    let out = stdout(escalate(repo.path()).args(args));
    // Wrapped at 80 columns, as every text output.
    assert_eq!(out, "Escalation E1 for migrations/002.sql added to briefs/012.md as pending; a person\n  rules on it.\n");
    let text = stdout(&mut round(repo.path()));
    assert!(text.contains(
        "line 17: id: E1; path: migrations/002.sql; status: pending; reason: a rename;\n    options: (1) rename (2) add a column; recommendation: rename\n"
    ), "{text}");
    // An empty part is refused and nothing is written.
    let before = std::fs::read_to_string(&brief).unwrap();
    let mut empty = args;
    empty[3] = " ";
    let line = refusal(escalate(repo.path()).args(empty));
    assert!(line.contains("the memo's reason is empty"), "{line}");
    assert_eq!(std::fs::read_to_string(&brief).unwrap(), before);
}

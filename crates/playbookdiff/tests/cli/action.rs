//! The GitHub Action (`action.yml`) and its shell logic
//! (`scripts/github-action.sh`), run here with a stub `playbookdiff`, a
//! fake event file, `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY`: a pull
//! request, a push, a pull request from a fork and an unknown revision.
//! Skipped, with a note, when `bash`, `git` or `jq` is missing.

#![allow(clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn tools() -> bool {
    let ok = have("bash") && have("git") && have("jq");
    if !ok {
        eprintln!("bash, git or jq missing: the Action script tests are skipped");
    }
    ok
}

/// The stub: logs its arguments, prints a canned document per format and
/// exits with `$STUB_STATUS`.
const STUB: &str = r#"#!/usr/bin/env bash
printf '%s\n' "$*" >> "$STUB_LOG"
format=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--format" ]; then format="$a"; fi
  prev="$a"
done
case "$1:$format" in
  diff:json) printf '{"summary":{"introduced":3,"introducedActionable":2,"resolved":1,"unchanged":4},"analysed":[{"cwd":"."},{"cwd":"apps/api"}]}\n' ;;
  check:json) printf '{"findings":[{"id":"a"},{"id":"b"}],"failing":1,"summary":{"accepted":1}}\n' ;;
  *:markdown) printf '## stub report for %s\n' "$1" ;;
  *:github) printf '::warning file=CLAUDE.md,line=1::stub finding\n' ;;
  *:sarif) printf '{"version":"2.1.0","runs":[]}\n' ;;
esac
exit "${STUB_STATUS:-0}"
"#;

struct Fixture {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    repo: PathBuf,
    base: String,
    head: String,
}

use playbookdiff_testkit::corpus::git;

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("CLAUDE.md"), "# Rules\n").unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    let base = git(&repo, &["rev-parse", "HEAD"]);
    std::fs::write(repo.join("AGENTS.md"), "# Other\n").unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "head"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    let stub = dir.join("playbookdiff-stub");
    std::fs::write(&stub, STUB).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    Fixture {
        _tmp: tmp,
        dir,
        repo,
        base,
        head,
    }
}

struct Run {
    code: i32,
    stdout: String,
    outputs: BTreeMap<String, String>,
    summary: String,
    calls: Vec<String>,
}

/// Runs the script with `event` (name and payload) and extra environment.
fn run(f: &Fixture, event: Option<(&str, serde_json::Value)>, env: &[(&str, &str)]) -> Run {
    let out_file = f.dir.join("github_output");
    let summary_file = f.dir.join("step_summary");
    let log = f.dir.join("stub.log");
    for p in [&out_file, &summary_file, &log] {
        let _ = std::fs::remove_file(p);
    }
    let mut cmd = Command::new("bash");
    cmd.arg(workspace().join("scripts/github-action.sh"));
    for (k, _) in std::env::vars() {
        if k.starts_with("INPUT_") || k.starts_with("GITHUB_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("PLAYBOOKDIFF", f.dir.join("playbookdiff-stub"))
        .env("STUB_LOG", &log)
        .env("GITHUB_OUTPUT", &out_file)
        .env("GITHUB_STEP_SUMMARY", &summary_file)
        .env("GITHUB_WORKSPACE", &f.repo)
        .env("GITHUB_SHA", &f.head);
    if let Some((name, payload)) = event {
        let path = f.dir.join("event.json");
        std::fs::write(&path, payload.to_string()).unwrap();
        cmd.env("GITHUB_EVENT_NAME", name)
            .env("GITHUB_EVENT_PATH", &path);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    let mut outputs = BTreeMap::new();
    for line in read(&out_file).lines() {
        let (k, v) = line.split_once('=').expect("name=value lines");
        assert!(
            outputs.insert(k.to_string(), v.to_string()).is_none(),
            "{k} set twice"
        );
    }
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        outputs,
        summary: read(&summary_file),
        calls: read(&log).lines().map(str::to_string).collect(),
    }
}

fn pull_request(f: &Fixture, base: &str, head_repo: &str) -> serde_json::Value {
    serde_json::json!({
        "pull_request": {
            "base": {"sha": base, "repo": {"full_name": "team/project"}},
            "head": {"sha": f.head, "repo": {"full_name": head_repo}}
        }
    })
}

#[test]
fn a_pull_request_is_diffed_from_base_to_head() {
    if !tools() {
        return;
    }
    let f = fixture();
    let event = pull_request(&f, &f.base, "team/project");
    let r = run(&f, Some(("pull_request", event)), &[("STUB_STATUS", "1")]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let o = |k: &str| r.outputs.get(k).map(String::as_str).unwrap_or("");
    assert_eq!(o("mode"), "diff");
    assert_eq!(o("result"), "new-regressions");
    assert_eq!(o("introduced-count"), "3");
    assert_eq!(o("introduced-actionable-count"), "2");
    assert_eq!(o("introduced-informational-count"), "1");
    assert_eq!(o("resolved-count"), "1");
    assert_eq!(o("unchanged-count"), "4");
    assert_eq!(o("analyzed-target-count"), "2");
    assert_eq!(o("baseline-sha"), f.base);
    assert_eq!(o("candidate-sha"), f.head);
    assert_eq!(o("fork"), "false");
    assert!(!r.outputs.contains_key("sarif"));
    let range = format!("{}..{}", f.base, f.head);
    let repo = f.repo.to_str().unwrap();
    assert_eq!(
        r.calls,
        [
            format!("diff {range} {repo} --format json"),
            format!("diff {range} {repo} --format markdown"),
            format!("diff {range} {repo} --format github"),
        ]
    );
    assert_eq!(r.summary, "## stub report for diff\n");
    assert!(r
        .stdout
        .starts_with("::warning file=CLAUDE.md,line=1::stub finding\n"));
    assert!(r
        .stdout
        .contains("::error title=PlaybookDiff::findings fail the run"));

    // No new regression: exit 0, and a branch name resolves to its commit.
    let r = run(
        &f,
        Some(("pull_request", pull_request(&f, "HEAD~1", "team/project"))),
        &[],
    );
    assert_eq!(r.code, 0);
    assert_eq!(r.outputs["result"], "no-new-regressions");
    assert_eq!(r.outputs["baseline-sha"], f.base);
}

#[test]
fn a_push_is_checked_in_every_launch_directory() {
    if !tools() {
        return;
    }
    let f = fixture();
    let push = serde_json::json!({"after": f.head});
    let sarif = f.dir.join("out.sarif");
    let r = run(
        &f,
        Some(("push", push.clone())),
        &[
            ("INPUT_FAIL_ON", "high"),
            ("INPUT_SARIF", sarif.to_str().unwrap()),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    let repo = f.repo.to_str().unwrap();
    assert_eq!(
        r.calls,
        [
            format!("check {repo} --all-dirs --fail-on high --format json"),
            format!("check {repo} --all-dirs --fail-on high --format markdown"),
            format!("check {repo} --all-dirs --fail-on high --format github"),
            format!("check {repo} --all-dirs --fail-on high --format sarif"),
        ]
    );
    assert_eq!(r.outputs["mode"], "check");
    assert_eq!(r.outputs["result"], "passed");
    assert_eq!(r.outputs["findings-count"], "2");
    assert_eq!(r.outputs["failing-count"], "1");
    assert_eq!(r.outputs["accepted-count"], "1");
    assert_eq!(r.outputs["candidate-sha"], f.head);
    assert_eq!(r.outputs["sarif"], sarif.to_str().unwrap());
    assert!(std::fs::read_to_string(&sarif).unwrap().contains("2.1.0"));
    assert_eq!(r.summary, "## stub report for check\n");
    // A launch directory instead of all; a failing check.
    let r = run(
        &f,
        Some(("push", push)),
        &[
            ("INPUT_CWD", "apps/api"),
            ("INPUT_PATH", "apps/api/a b.ts"),
            ("STUB_STATUS", "1"),
        ],
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.outputs["result"], "failed");
    assert_eq!(
        r.calls[0],
        format!("check {repo} --cwd apps/api --target apps/api/a b.ts --format json")
    );
}

#[test]
fn a_pull_request_from_a_fork_is_analysed_without_upload() {
    if !tools() {
        return;
    }
    let f = fixture();
    let sarif = f.dir.join("out.sarif");
    let r = run(
        &f,
        Some((
            "pull_request",
            pull_request(&f, &f.base, "someone/project-fork"),
        )),
        &[("INPUT_SARIF", sarif.to_str().unwrap())],
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.outputs["fork"], "true");
    assert_eq!(r.outputs["mode"], "diff");
    // The SARIF file is written; action.yml skips the upload on `fork`.
    assert!(sarif.is_file());
    let action = std::fs::read_to_string(workspace().join("action.yml")).unwrap();
    assert!(action.contains("steps.run.outputs.fork != 'true'"));
}

#[test]
fn an_unknown_revision_fails_with_a_hint() {
    if !tools() {
        return;
    }
    let f = fixture();
    let missing = "0123456789abcdef0123456789abcdef01234567";
    let r = run(
        &f,
        Some(("pull_request", pull_request(&f, missing, "team/project"))),
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert_eq!(r.outputs["result"], "error");
    assert!(r.calls.is_empty(), "{:?}", r.calls);
    assert!(
        r.stdout.contains(&format!(
            "::error title=PlaybookDiff::the baseline revision '{missing}' is not in the checkout"
        )),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("fetch-depth: 0"), "{}", r.stdout);
    // An option-like revision is refused, not passed to git.
    let r = run(
        &f,
        None,
        &[("INPUT_BASELINE", "--all"), ("INPUT_CANDIDATE", "HEAD")],
    );
    assert_eq!(r.code, 2);
    assert!(r.stdout.contains("is not a revision"), "{}", r.stdout);
    // One revision without the other.
    let r = run(&f, None, &[("INPUT_CANDIDATE", "HEAD")]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.contains("set both inputs"), "{}", r.stdout);
    // playbookdiff itself refusing (exit 2) is an error too.
    let r = run(
        &f,
        Some(("pull_request", pull_request(&f, &f.base, "team/project"))),
        &[("STUB_STATUS", "2")],
    );
    assert_eq!(r.code, 2);
    assert_eq!(r.outputs["result"], "error");
}

/// The Action passes inputs through the environment (never interpolated
/// into a script), uses no token or secret, and declares the original
/// Action's outputs.
#[test]
fn the_action_is_composite_read_only_and_declares_the_outputs() {
    #[derive(serde::Deserialize)]
    struct Step {
        #[serde(default)]
        run: Option<String>,
        #[serde(default)]
        uses: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Runs {
        using: String,
        steps: Vec<Step>,
    }
    #[derive(serde::Deserialize)]
    struct Action {
        outputs: BTreeMap<String, serde_json::Value>,
        runs: Runs,
    }
    let text = std::fs::read_to_string(workspace().join("action.yml")).unwrap();
    let a: Action = serde_saphyr::from_str(&text).unwrap();
    assert_eq!(a.runs.using, "composite");
    for s in &a.runs.steps {
        if let Some(run) = &s.run {
            assert!(!run.contains("${{"), "interpolation in a script: {run}");
        }
    }
    assert!(a.runs.steps.iter().any(|s| s
        .run
        .as_deref()
        .is_some_and(|r| r.contains("scripts/github-action.sh"))));
    let uses: Vec<&str> = a
        .runs
        .steps
        .iter()
        .filter_map(|s| s.uses.as_deref())
        .collect();
    assert_eq!(uses, ["github/codeql-action/upload-sarif@v3"]);
    for word in ["secrets.", "github.token", "GITHUB_TOKEN"] {
        assert!(!text.contains(word), "{word}");
    }
    for output in [
        "result",
        "introduced-count",
        "introduced-actionable-count",
        "introduced-informational-count",
        "resolved-count",
        "unchanged-count",
        "baseline-sha",
        "candidate-sha",
        "analyzed-target-count",
    ] {
        assert!(a.outputs.contains_key(output), "{output}");
    }
    // Every output the script writes reaches the workflow: declared, or
    // read by a later step of the Action (`fork`). A composite Action
    // passes on only what it declares.
    let script = std::fs::read_to_string(workspace().join("scripts/github-action.sh")).unwrap();
    let written: std::collections::BTreeSet<&str> = script
        .lines()
        .filter_map(|l| l.trim().strip_prefix("output "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    assert!(written.contains("accepted-count"), "{written:?}");
    for name in written {
        let read = text.contains(&format!("steps.run.outputs.{name} "));
        assert!(
            a.outputs.contains_key(name) || read,
            "the script writes output `{name}`, which action.yml neither declares nor reads"
        );
    }
}

#[test]
fn a_pull_request_with_the_real_binary_gives_annotations_sarif_and_a_summary() {
    if !tools() {
        return;
    }
    let f = fixture();
    let sarif = f.dir.join("out.sarif");
    let bin = env!("CARGO_BIN_EXE_playbookdiff");
    // The fixture's files hold headings only: low findings, failing from
    // fail-on low.
    let env = [
        ("PLAYBOOKDIFF", bin),
        ("INPUT_SARIF", sarif.to_str().unwrap()),
        ("INPUT_FAIL_ON", "low"),
    ];
    let r = run(
        &f,
        Some(("pull_request", pull_request(&f, &f.base, "team/project"))),
        &env,
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert_eq!(r.outputs["result"], "new-regressions");
    let introduced: usize = r.outputs["introduced-count"].parse().unwrap();
    assert!(introduced > 0);
    assert!(r.summary.starts_with("### PlaybookDiff"), "{}", r.summary);
    let annotations: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("::notice file=AGENTS.md,line=1,"))
        .collect();
    assert_eq!(annotations.len(), 1, "{}", r.stdout);
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    let new = results
        .iter()
        .filter(|r| r["baselineState"] == "new")
        .count();
    assert_eq!(new, introduced, "{log:#}");
    assert_eq!(r.outputs["sarif"], sarif.to_str().unwrap());

    // The default threshold, medium, passes.
    let r = run(
        &f,
        Some(("pull_request", pull_request(&f, &f.base, "team/project"))),
        &[("PLAYBOOKDIFF", bin)],
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.outputs["result"], "no-new-regressions");
}

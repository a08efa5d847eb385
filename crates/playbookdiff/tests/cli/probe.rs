//! `round probe` as a user runs it: each verdict (fixed, not-fixed,
//! vacuous, flaky, invalid) from a real repository with a base branch and
//! a round branch, its exit status, the timeout, standard input closed,
//! refusals with exit 2 and one line, and an interrupted probe that
//! leaves no worktree, no temporary folder and no process behind.

use assert_cmd::Command;
use playbookdiff_testkit::corpus::git;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// The check every probe runs: fails with "token expired" (exit 1) while
/// `src/token` says `bug`, passes once it says `fixed`.
const CHECK: &str = "if grep -q fixed src/token; then echo ok; \
                     else echo 'token expired'; exit 1; fi\n";

/// A repository whose `main` has the defect and whose branch `brief/7`
/// (checked out) fixes it, with brief 7 declaring `probe` (YAML lines
/// under the front matter's `probe:` key) on both.
struct Round {
    dir: tempfile::TempDir,
    /// An empty folder the command uses as TMPDIR, outside the repository.
    tmp: tempfile::TempDir,
}

impl Round {
    fn new(probe: &str) -> Round {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q", "-b", "main"]);
        let brief = format!(
            "---\nid: \"7\"\nbaseBranch: main\naffectedFiles: [src/**]\nprobe:\n{probe}---\n# Fix the token\n"
        );
        write(root, "briefs/7.md", &brief);
        write(root, "check.sh", CHECK);
        write(root, "src/token", "bug\n");
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "base"]);
        git(root, &["checkout", "-qb", "brief/7"]);
        write(root, "src/token", "fixed\n");
        git(root, &["commit", "-qam", "fix"]);
        Round {
            dir,
            tmp: tempfile::tempdir().unwrap(),
        }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    /// `playbookdiff round probe EXTRA` in the repository, with no brief
    /// variable and no CI variable set.
    fn std_probe(&self, extra: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("playbookdiff"));
        cmd.current_dir(self.root())
            .env("NO_COLOR", "1")
            .env("TMPDIR", self.tmp.path())
            .env_remove("PLAYBOOKDIFF_BRIEF")
            .args(["round", "probe"])
            .args(extra);
        for v in playbookdiff_round::select::CI_BRANCH_VARIABLES {
            cmd.env_remove(v);
        }
        cmd
    }

    fn probe(&self, extra: &[&str]) -> Command {
        let mut cmd = Command::from_std(self.std_probe(extra));
        cmd.timeout(Duration::from_secs(120));
        cmd
    }

    /// The JSON report and the exit status.
    fn json(&self, extra: &[&str]) -> (Value, i32) {
        let out = self
            .probe(&[extra, &["--format", "json"]].concat())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        (json, out.status.code().unwrap_or(-1))
    }

    /// Holds that the probe left no worktree and no temporary folder.
    fn assert_clean(&self) {
        let worktrees = git(self.root(), &["worktree", "list", "--porcelain"]);
        assert_eq!(
            worktrees.matches("worktree ").count(),
            1,
            "a worktree is left:\n{worktrees}"
        );
        let left: Vec<_> = std::fs::read_dir(self.tmp.path()).unwrap().collect();
        assert!(left.is_empty(), "temporary files are left: {left:?}");
    }
}

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn outcomes(side: &Value) -> Vec<&str> {
    side["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect()
}

const SIGNATURE: &str = "  fails: {output: token expired, exit: 1}\n";

#[test]
fn fixed_when_the_base_fails_with_the_signature_and_the_head_passes() {
    let round = Round::new(&format!("  run: sh check.sh\n{SIGNATURE}"));
    let (json, status) = round.json(&[]);
    assert_eq!(status, 0);
    assert_eq!(json["judgement"]["verdict"], "fixed");
    assert_eq!(outcomes(&json["base"]), ["defect", "defect"]);
    assert_eq!(outcomes(&json["head"]), ["passed", "passed"]);
    assert_eq!(json["base"]["revision"], "main");
    assert_eq!(
        json["base"]["commit"].as_str(),
        Some(git(round.root(), &["rev-parse", "main"]).as_str())
    );
    assert_eq!(json["head"]["runs"][0]["outputTail"][0], "ok");
    round.assert_clean();
    // The text says the verdict first, within 80 columns.
    let out = round
        .probe(&[])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("Probe of brief 7 (briefs/7.md): fixed\n"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn not_fixed_when_the_head_still_fails_with_the_signature() {
    let round = Round::new(&format!("  run: sh check.sh\n{SIGNATURE}"));
    let (json, status) = round.json(&["--head", "main"]);
    assert_eq!(status, 1);
    assert_eq!(json["judgement"]["verdict"], "not-fixed");
    assert_eq!(outcomes(&json["head"]), ["defect", "defect"]);
    round.assert_clean();
}

#[test]
fn vacuous_when_the_base_passes_and_the_head_is_then_not_run() {
    // Measured against the fixed branch as its own base: nothing fails.
    let round = Round::new(&format!("  run: sh check.sh\n{SIGNATURE}"));
    let (json, status) = round.json(&["--base", "brief/7"]);
    assert_eq!(status, 1);
    assert_eq!(json["judgement"]["verdict"], "vacuous");
    assert_eq!(outcomes(&json["base"]), ["passed", "passed"]);
    assert_eq!(json["head"], Value::Null);
    round.assert_clean();
}

#[test]
fn flaky_when_runs_on_one_side_end_differently() {
    // The first run at each side fails with the signature, later ones
    // pass: a marker outside the worktree remembers the first.
    let marks = tempfile::tempdir().unwrap();
    let run = format!(
        "  run: \"if [ -e {m}/$PLAYBOOKDIFF_PROBE_SIDE ]; then exit 0; fi; touch {m}/$PLAYBOOKDIFF_PROBE_SIDE; echo token expired; exit 1\"\n",
        m = marks.path().display()
    );
    let round = Round::new(&format!("{run}{SIGNATURE}"));
    let (json, status) = round.json(&["--runs", "3"]);
    assert_eq!(status, 1);
    assert_eq!(json["judgement"]["verdict"], "flaky");
    assert_eq!(outcomes(&json["base"]), ["defect", "passed", "passed"]);
    assert!(json["judgement"]["reason"]
        .as_str()
        .unwrap()
        .contains("at the base"));
    round.assert_clean();
}

#[test]
fn invalid_when_the_base_fails_for_another_reason() {
    // The declared signature is not what the check prints.
    let round = Round::new("  run: sh check.sh\n  fails: {output: null pointer}\n");
    let (json, status) = round.json(&[]);
    assert_eq!(status, 1);
    assert_eq!(json["judgement"]["verdict"], "invalid");
    assert_eq!(outcomes(&json["base"]), ["other-failure", "other-failure"]);
    // The text shows the output of the runs that did not end as expected.
    let out = round
        .probe(&[])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out)
        .unwrap()
        .contains("    | token expired"));
    round.assert_clean();
}

#[test]
fn invalid_when_the_setup_fails_and_the_runs_are_then_not_run() {
    // The setup fails as the run would with the defect: still a failed
    // setup, never the defect's signature.
    let round = Round::new(&format!(
        "  setup: echo token expired; exit 1\n  run: sh check.sh\n{SIGNATURE}"
    ));
    let (json, status) = round.json(&[]);
    assert_eq!(status, 1);
    assert_eq!(json["judgement"]["verdict"], "invalid");
    assert_eq!(json["base"]["setup"]["exit"], 1);
    assert_eq!(json["base"]["setup"]["outcome"], "other-failure");
    assert_eq!(outcomes(&json["base"]), Vec::<&str>::new());
    round.assert_clean();
}

#[test]
fn a_run_past_its_timeout_is_killed_with_its_group_and_invalid() {
    let pids = tempfile::tempdir().unwrap();
    let run = format!(
        "  run: \"sleep 300 & echo $! > {}/pid; wait\"\n",
        pids.path().display()
    );
    let round = Round::new(&format!("{run}{SIGNATURE}"));
    let started = Instant::now();
    let (json, status) = round.json(&["--timeout", "1", "--runs", "1"]);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(status, 1);
    assert_eq!(json["judgement"]["verdict"], "invalid");
    assert_eq!(outcomes(&json["base"]), ["timed-out"]);
    assert_eq!(json["base"]["runs"][0]["exit"], Value::Null);
    assert_no_process(&pids.path().join("pid"));
    round.assert_clean();
}

#[test]
fn standard_input_is_closed() {
    // `cat` reads standard input: given the test's text it would print
    // it, and with the terminal's it would wait; closed, it ends at once.
    let run = "  run: \"cat; echo token expired; exit 1\"\n  timeout: 20\n";
    let round = Round::new(&format!("{run}  fails: {{output: token expired}}\n"));
    let out = round
        .probe(&["--format", "json", "--base", "main", "--head", "main"])
        .write_stdin("from the caller\n")
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outcomes(&json["base"]), ["defect", "defect"]);
    assert_eq!(json["base"]["runs"][0]["outputTail"][0], "token expired");
}

/// The processes whose ids `file` lists are gone (or zombies awaiting
/// their reaper, which run nothing).
fn assert_no_process(file: &Path) {
    let ids = std::fs::read_to_string(file).unwrap();
    for id in ids.split_whitespace() {
        let stat = std::fs::read_to_string(format!("/proc/{id}/stat")).unwrap_or_default();
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        assert!(
            stat.is_empty() || state.starts_with('Z'),
            "process {id} is still running: {stat}"
        );
    }
}

#[test]
fn an_interrupted_probe_kills_its_processes_and_removes_its_worktree() {
    for signal in ["INT", "TERM"] {
        let pids = tempfile::tempdir().unwrap();
        let file = pids.path().join("pids");
        let run = format!(
            "  run: \"echo $$ >> {f}; sleep 300 & echo $! >> {f}; wait\"\n",
            f = file.display()
        );
        let round = Round::new(&format!("{run}{SIGNATURE}"));
        let child = round
            .std_probe(&[])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while std::fs::read_to_string(&file).map_or(0, |t| t.lines().count()) < 2 {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the run never started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let pid = child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}").as_str(), pid.as_str()])
            .status()
            .unwrap();
        assert!(sent.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "SIG{signal}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("interrupted by SIG{signal}")),
            "{stderr}"
        );
        assert_no_process(&file);
        round.assert_clean();
    }
}

#[test]
fn refusals_are_one_line_with_exit_2() {
    let cases: [(&str, &[&str], &str); 4] = [
        (
            "  run: sh check.sh\n",
            &[],
            "briefs/7.md:5: probe: `fails` is missing",
        ),
        (
            &format!("  run: sh check.sh\n{SIGNATURE}"),
            &["--base", "nowhere"],
            "`nowhere` names no commit",
        ),
        (
            &format!("  run: sh check.sh\n{SIGNATURE}"),
            &["--base=--help"],
            "names no commit",
        ),
        (
            &format!("  run: sh check.sh\n{SIGNATURE}"),
            &["--runs", "0"],
            "0 is not in 1..=20",
        ),
    ];
    for (probe, extra, says) in cases {
        let round = Round::new(probe);
        let out = round
            .probe(extra)
            .assert()
            .code(2)
            .stdout("")
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
        round.assert_clean();
    }
    // A brief without a probe says how to declare one.
    let round = Round::new("  run: x\n");
    write(
        round.root(),
        "briefs/7.md",
        "---\nid: \"7\"\nbaseBranch: main\n---\n",
    );
    let out = round.probe(&[]).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("declares no probe"), "{stderr}");
}

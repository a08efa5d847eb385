//! The round end to end with the real Claude Code
//! (`scripts/oracle/round_e2e.py`, committed as
//! `oracle/round/claude-code/<version>.json` and `.payloads.jsonl`): the
//! recorded run shows each step of a round, and every hook payload the
//! agent sent gets the decision and rule it got in the run when replayed
//! through `playbookdiff guard hook` on the same round rebuilt.
//!
//! The round is rebuilt as the script built it: the fixture with a
//! person's key (made with `ssh-keygen`) in `.github/allowed_signers`,
//! committed on `main` with the guard installed, the branch `brief/014`;
//! then, phase by phase as the payloads name them, the agent's escalation
//! (the recorded command, run), a ruling committed unsigned, the same
//! signed by a key the signers file does not list, and the person's
//! ruling signed by the listed key.

use crate::guard_replay::{answer, copy_tree, is_pre};
use crate::rulings::{commit_all, git_in, keygen, Committer};
use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

const PERSON: &str = "person@example.com";
const AGENT: &str = "agent@example.com";

fn oracle_round() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../oracle/round")
}

/// Every recorded run: (version, observations, payload lines).
fn recorded() -> Vec<(String, Value, Vec<Value>)> {
    let dir = oracle_round().join("claude-code");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(version) = name.strip_suffix(".payloads.jsonl") else {
            continue;
        };
        let lines = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let observed = std::fs::read_to_string(dir.join(format!("{version}.json"))).unwrap();
        out.push((
            version.to_string(),
            serde_json::from_str(&observed).unwrap(),
            lines,
        ));
    }
    assert!(!out.is_empty(), "no recorded round under oracle/round");
    out
}

/// The round as the script left it before the agent started: (work
/// directory holding `repo/` and `home/`, the keys' directory).
struct Rebuilt {
    work: tempfile::TempDir,
    keys: tempfile::TempDir,
}

impl Rebuilt {
    fn new() -> Rebuilt {
        let keys = tempfile::tempdir().unwrap();
        let (person, person_pub) = keygen(keys.path(), "person");
        keygen(keys.path(), "intruder");
        let work = tempfile::tempdir().unwrap();
        let repo = work.path().join("repo");
        copy_tree(&oracle_round().join("fixture"), &repo);
        std::fs::create_dir_all(repo.join(".github")).unwrap();
        std::fs::write(
            repo.join(".github/allowed_signers"),
            format!("{PERSON} namespaces=\"git\" {person_pub}\n"),
        )
        .unwrap();
        let admin = Committer::unsigned(PERSON);
        git_in(&repo, &admin, &["init", "-q", "-b", "main"], None);
        Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["guard", "install", "--host", "claude-code", "--write"])
            .current_dir(&repo)
            .env("HOME", work.path().join("home"))
            .assert()
            .success();
        commit_all(&repo, &Committer::signed(PERSON, &person), "Brief approved");
        git_in(&repo, &admin, &["checkout", "-q", "-b", "brief/014"], None);
        Rebuilt { work, keys }
    }

    fn repo(&self) -> PathBuf {
        self.work.path().join("repo")
    }

    fn key(&self, name: &str) -> PathBuf {
        self.keys.path().join(name)
    }

    fn playbookdiff(&self, args: &[&str]) {
        Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(args)
            .current_dir(self.repo())
            .env_remove("PLAYBOOKDIFF_BRIEF")
            .assert()
            .success();
    }

    /// The command the agent ran through Bash, run here as it ran there
    /// (`playbookdiff` is this build's).
    fn run_agents_command(&self, command: &str) {
        let bin = assert_cmd::cargo::cargo_bin("playbookdiff");
        let path = format!(
            "{}:{}",
            bin.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let ok = std::process::Command::new("sh")
            .args(["-c", command])
            .current_dir(self.repo())
            .env("PATH", path)
            .env_remove("PLAYBOOKDIFF_BRIEF")
            .status()
            .unwrap();
        assert!(ok.success(), "{command}");
    }

    /// The script's move into `phase` (`round_e2e.py`'s `MOVES`).
    fn move_to(&self, phase: &str) {
        let repo = self.repo();
        let reset = || {
            let who = Committer::unsigned(AGENT);
            git_in(&repo, &who, &["reset", "-q", "--soft", "HEAD~1"], None);
        };
        let rule = |reason: &str| {
            let args = ["round", "rule", "--row", "E1", "--ruling", "allow"];
            self.playbookdiff(&[&args[..], &["--reason", reason]].concat());
        };
        match phase {
            "forged-unsigned" => {
                rule("forged: allowed by the agent");
                commit_all(&repo, &Committer::unsigned(AGENT), "Ruling E1 (unsigned)");
            }
            "forged-unlisted" => {
                reset();
                let intruder = self.key("intruder");
                let who = Committer::signed(PERSON, &intruder);
                commit_all(&repo, &who, "Ruling E1 (unlisted key)");
            }
            "ruled" => {
                reset();
                rule("one reviewed migration");
                let person = self.key("person");
                commit_all(&repo, &Committer::signed(PERSON, &person), "Ruling E1");
            }
            other => panic!("unknown phase {other}"),
        }
    }

    fn hook(&self, payload: &Value) -> (String, Option<String>) {
        let text = payload
            .to_string()
            .replace("<repo>", &self.repo().display().to_string())
            .replace("<work>", &self.work.path().display().to_string());
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["guard", "hook", "--host", "claude-code"])
            .current_dir(self.repo())
            .env("HOME", self.work.path().join("home"))
            .env_remove("PLAYBOOKDIFF_BRIEF")
            .write_stdin(text)
            .output()
            .unwrap();
        answer(
            out.status.code().unwrap_or(-1),
            &String::from_utf8_lossy(&out.stdout),
        )
    }
}

#[test]
fn every_recorded_payload_of_the_round_gets_the_decision_it_got() {
    for (version, _, lines) in recorded() {
        let round = Rebuilt::new();
        let mut phase = "approved".to_string();
        let mut changed = Vec::new();
        for line in &lines {
            let line_phase = line["phase"].as_str().unwrap();
            if line_phase != phase {
                round.move_to(line_phase);
                phase = line_phase.to_string();
            }
            let payload = &line["payload"];
            if !is_pre(payload) && payload["tool_name"] == "Bash" {
                // The command ran between its two hook calls.
                round.run_agents_command(payload["tool_input"]["command"].as_str().unwrap());
            }
            let got = round.hook(payload);
            let want = (
                line["decision"].as_str().unwrap().to_string(),
                line["rule"].as_str().map(str::to_string),
            );
            if got != want {
                changed.push(format!(
                    "{version} {}: recorded {want:?}, now {got:?}",
                    line["row"]
                ));
            }
        }
        assert!(lines.len() >= 8, "{version}: only {} payloads", lines.len());
        assert!(
            changed.is_empty(),
            "decisions changed:\n{}",
            changed.join("\n")
        );
    }
}

fn row<'a>(observed: &'a Value, id: &str) -> &'a Value {
    observed["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no row {id}"))
}

/// The facts the run exists for, as the agent showed them: what changed
/// on disk and what the model read, beside the guard's decision.
#[test]
fn the_recorded_round_shows_each_step() {
    for (version, observed, _) in recorded() {
        let step = |id: &str, decision: &str, changed: bool| {
            let r = row(&observed, id);
            assert_eq!(r["hook"]["decision"], decision, "{version} {id}");
            assert_eq!(r["changed"], changed, "{version} {id}");
            r
        };
        step("write-in-scope", "allow", true);
        let warned = step("edit-out-of-scope", "warn", true);
        assert_eq!(warned["hook"]["rule"], "brief-scope");
        let context = warned["guardInContext"].as_str().unwrap_or_default();
        assert!(
            context.contains("outside brief 014"),
            "{version}: the model did not read the warning: {warned}"
        );
        let refused = step("write-protected", "deny", false);
        let told = refused["told"].as_str().unwrap();
        assert!(
            told.contains("playbookdiff round escalate '014' --path 'migrations/002_rotation.sql'"),
            "{version}: {told}"
        );
        step("escalate", "allow", true);
        step("write-protected-forged-unsigned", "deny", false);
        step("write-protected-forged-unlisted", "deny", false);
        step("write-protected-ruled", "allow", true);
        step("write-other-protected", "deny", false);
        // Why each forged ruling did not count, as `round rulings` said
        // after each move.
        let why = |phase: &str| observed["rulingsByPhase"][phase][0]["whyNot"].clone();
        let unsigned = why("forged-unsigned");
        assert!(
            unsigned.as_str().unwrap().contains("not signed"),
            "{unsigned}"
        );
        let unlisted = why("forged-unlisted");
        assert!(
            unlisted
                .as_str()
                .unwrap()
                .contains("not in the base branch's allowed signers"),
            "{unlisted}"
        );
        assert_eq!(why("ruled"), Value::Null);
        let rows = &observed["rulings"]["report"]["rows"];
        assert_eq!(rows[0]["id"], "E1");
        assert_eq!(rows[0]["verified"], true);
        assert_eq!(rows[0]["signer"], PERSON);
        assert_eq!(rows.as_array().unwrap().len(), 1);
    }
}

/// `round audit` at the recorded round's end, as the script ran it: the
/// round itself passes (exit 0) with the out-of-scope write a warning and
/// the ruled protected file a note; the same round whose ruling is
/// rewritten unsigned, or signed by the key the base branch does not
/// list, fails (exit 1) for the protected file that ruling opened.
#[test]
fn the_recorded_audit_fails_the_round_only_for_a_forged_ruling() {
    for (version, observed, _) in recorded() {
        let audit = &observed["audit"];
        let findings = |name: &str| -> Vec<(String, String, String)> {
            audit[name]["report"]["findings"]
                .as_array()
                .unwrap_or_else(|| panic!("{version}: no audit {name}: {audit}"))
                .iter()
                .map(|f| {
                    let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                    (s("severity"), s("rule"), s("path"))
                })
                .collect()
        };
        let f = |s: &str, r: &str, p: &str| (s.to_string(), r.to_string(), p.to_string());
        assert_eq!(audit["round"]["exit"], 0, "{version}");
        assert_eq!(
            findings("round"),
            [
                f("warning", "out-of-scope", "README.md"),
                f("note", "protected-ruled", "migrations/002_rotation.sql"),
            ],
            "{version}"
        );
        for forged in ["forged-unsigned", "forged-unlisted"] {
            assert_eq!(audit[forged]["exit"], 1, "{version} {forged}");
            let found = findings(forged);
            assert!(
                found.contains(&f(
                    "error",
                    "protected-changed",
                    "migrations/002_rotation.sql"
                )),
                "{version} {forged}: {found:?}"
            );
            assert!(
                found
                    .iter()
                    .all(|x| x.0 != "error" || x.1 == "protected-changed"),
                "{version} {forged}: {found:?}"
            );
        }
    }
}

//! The hook payloads the real agents sent to the guard in the end-to-end
//! runs (`scripts/oracle/guard_e2e.py`, committed as
//! `oracle/guard/<agent>/<version>.payloads.jsonl`), replayed through
//! `playbookdiff guard hook` without any agent: every PreToolUse payload
//! must get the decision and rule it got in the run.
//!
//! Each run is replayed on its own copy of `oracle/guard/fixture/` with the
//! guard installed for the run's host, the payloads in the order the agent
//! sent them (PostToolUse ones too: the PreToolUse replay before each takes
//! the fingerprint they compare with); `<repo>` and `<work>` in a payload
//! become the copy's paths.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn oracle_guard() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../oracle/guard")
}

/// Copies `from` into `to`, keeping symbolic links as links.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src).unwrap(), &dst).unwrap();
        } else if kind.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The fixture as a work tree on `main` with the guard installed for
/// `host`; returns the temporary directory (`<work>`) holding `repo/`.
fn fixture_for(host: &str) -> tempfile::TempDir {
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("repo");
    copy_tree(&oracle_guard().join("fixture"), &repo);
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "install", "--host", host, "--write"])
        .current_dir(&repo)
        .env("HOME", work.path().join("home"))
        .assert()
        .success();
    work
}

/// The decision and rule of one answer in the host's protocol.
pub(crate) fn answer(status: i32, stdout: &str) -> (String, Option<String>) {
    if status == 2 {
        return ("deny".into(), None);
    }
    let Ok(v) = serde_json::from_str::<Value>(stdout.trim()) else {
        return (
            if stdout.trim().is_empty() {
                "allow"
            } else {
                "unreadable"
            }
            .into(),
            None,
        );
    };
    if let (Some(d), Some(rule)) = (v["decision"].as_str(), v["rule"].as_str()) {
        return (d.into(), Some(rule.to_string()));
    }
    // Claude Code and Codex nest the answer; Copilot CLI's and Gemini
    // CLI's are at the top.
    let spec = if v["hookSpecificOutput"].is_object() {
        &v["hookSpecificOutput"]
    } else {
        &v
    };
    let reason = spec["permissionDecisionReason"]
        .as_str()
        .or(v["reason"].as_str())
        .or(v["systemMessage"].as_str())
        .unwrap_or("");
    let rule = reason
        .split_once("rule `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(id, _)| id.to_string());
    let decision = match spec["permissionDecision"]
        .as_str()
        .or(v["decision"].as_str())
    {
        Some(d) => d,
        None if v.get("systemMessage").is_some() => "warn",
        None => "allow",
    };
    (decision.into(), rule)
}

fn replay(host: &str, work: &Path, payload: &Value) -> (String, Option<String>) {
    let text = payload
        .to_string()
        .replace("<repo>", &work.join("repo").display().to_string())
        .replace("<work>", &work.display().to_string());
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "hook", "--host", host])
        .current_dir(work.join("repo"))
        .env("HOME", work.join("home"))
        .write_stdin(text)
        .output()
        .unwrap();
    answer(
        out.status.code().unwrap_or(-1),
        &String::from_utf8_lossy(&out.stdout),
    )
}

/// Whether a payload asks before the tool: Claude Code's and Codex's
/// `PreToolUse`, Gemini CLI's `BeforeTool`, OpenCode's plugin's event, a
/// Copilot CLI payload without a `toolResult`.
pub(crate) fn is_pre(payload: &Value) -> bool {
    if payload.get("toolName").is_some() {
        return payload["toolResult"].is_null();
    }
    matches!(
        payload["hook_event_name"]
            .as_str()
            .or(payload["event"].as_str()),
        Some("PreToolUse" | "BeforeTool")
    )
}

/// Every end-to-end result file (`oracle/guard/<agent>/<version>.json`).
fn results() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for agent in std::fs::read_dir(oracle_guard()).unwrap() {
        let agent = agent.unwrap().path();
        if !agent.is_dir() || agent.ends_with("fixture") {
            continue;
        }
        for file in std::fs::read_dir(&agent).unwrap() {
            let file = file.unwrap().path();
            let name = file.display().to_string();
            if name.ends_with(".json") {
                let text = std::fs::read_to_string(&file).unwrap();
                out.push((name, serde_json::from_str(&text).unwrap()));
            }
        }
    }
    out
}

/// Every recorded run: (file and mode) to its lines, in the order sent.
fn runs() -> BTreeMap<(String, String), Vec<Value>> {
    let mut runs: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for agent in std::fs::read_dir(oracle_guard()).unwrap() {
        let agent = agent.unwrap().path();
        if !agent.is_dir() || agent.ends_with("fixture") {
            continue;
        }
        for file in std::fs::read_dir(&agent).unwrap() {
            let file = file.unwrap().path();
            let name = file.display().to_string();
            if !name.ends_with(".payloads.jsonl") {
                continue;
            }
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                let v: Value = serde_json::from_str(line).unwrap();
                let mode = v["mode"].as_str().unwrap().to_string();
                runs.entry((name.clone(), mode)).or_default().push(v);
            }
        }
    }
    runs
}

#[test]
fn every_recorded_payload_gets_the_decision_it_got_from_the_agent_run() {
    let runs = runs();
    assert!(!runs.is_empty(), "no recorded payloads under oracle/guard");
    let (mut replayed, mut changed) = (0, Vec::new());
    for ((file, mode), lines) in &runs {
        let host = lines[0]["host"].as_str().unwrap();
        let work = fixture_for(host);
        for line in lines {
            let got = replay(host, work.path(), &line["payload"]);
            let want = (
                line["decision"].as_str().unwrap().to_string(),
                line["rule"].as_str().map(str::to_string),
            );
            replayed += 1;
            if got != want {
                changed.push(format!(
                    "{file} {mode} {}: recorded {want:?}, now {got:?}",
                    line["row"]
                ));
            }
        }
    }
    assert!(
        replayed >= 40 * runs.len(),
        "only {replayed} payloads replayed"
    );
    assert!(
        changed.is_empty(),
        "decisions changed:\n{}",
        changed.join("\n")
    );
}

#[test]
fn the_recorded_decisions_deny_every_protected_row_and_allow_every_control() {
    for ((file, mode), lines) in runs() {
        for line in lines.iter().filter(|l| is_pre(&l["payload"])) {
            let row = line["row"].as_str().unwrap();
            let decision = line["decision"].as_str().unwrap();
            if row.starts_with("control-") {
                assert_eq!(decision, "allow", "{file} {mode} {row}");
            } else {
                assert_eq!(decision, "deny", "{file} {mode} {row}");
            }
        }
    }
}

/// Protected rows the agent itself stopped before calling the hook (file
/// suffix, row id): Claude Code 2.1.197 checks "read before write" before
/// PreToolUse hooks, and the guard refused the read of `.env`, so the
/// write never reached the guard; the file stayed byte-identical (2.1.332
/// runs the hook first). Recorded in docs/guard.md.
const AGENT_STOPPED_FIRST: &[(&str, &str)] = &[
    ("claude-code/2.1.197.json", "write-env"),
    ("claude-code/2.1.197.json", "edit-env"),
    // Gemini CLI 0.61.0's file tools refuse `.env` themselves ("Path not
    // in workspace"), before its BeforeTool hooks.
    ("gemini/0.61.0.json", "write-env"),
    ("gemini/0.61.0.json", "edit-env"),
    ("gemini/0.61.0.json", "read-env-tool"),
];

/// Rows after which the agent sent no further request within the run's
/// time, so the model was told nothing (file suffix, row id): Copilot CLI
/// 1.0.24 refused the 100 KB command of `guard-missing-large` (its output
/// shows "Denied by preToolUse hook: Refused by playbookdiff guard: the
/// guard could not start or answer") and then went silent, its log ending
/// after the refusal; the row is the table's last, and the files stayed
/// byte-identical. Recorded in docs/guard.md.
const AGENT_WENT_SILENT: &[(&str, &str)] = &[("copilot/1.0.24.json", "guard-missing-large")];

/// The bar, held on every recorded run: each protected row left
/// its files byte-identical and the model read the rule and what to do
/// instead; each row made while the guard's program was gone
/// (`guard-missing`) left its files byte-identical too; each harmless
/// control ran and was not reported as refused.
#[test]
fn every_recorded_run_kept_the_protected_files_and_ran_the_controls() {
    let results = results();
    assert!(results.len() >= 3, "end-to-end results for three agents");
    for (file, result) in results {
        for run in result["runs"].as_array().unwrap() {
            let mode = run["mode"].as_str().unwrap();
            let rows = run["rows"].as_array().unwrap();
            assert!(rows.len() >= 40, "{file} {mode}: {} rows", rows.len());
            for row in rows {
                let id = row["id"].as_str().unwrap();
                let told = row["told"].as_str().unwrap_or("");
                let refused = told.contains("Refused by playbookdiff guard");
                if row["kind"] == "protected" {
                    assert_eq!(
                        row["hashesBefore"], row["hashesAfter"],
                        "{file} {mode} {id}"
                    );
                    let stopped_first = AGENT_STOPPED_FIRST
                        .iter()
                        .any(|(f, r)| file.ends_with(f) && id == *r);
                    if stopped_first {
                        assert_eq!(
                            row["hook"]["decision"], "no hook call",
                            "{file} {mode} {id}"
                        );
                        continue;
                    }
                    assert!(
                        refused && told.contains("(rule `") && told.contains("Instead:"),
                        "{file} {mode} {id}: the model read {told:?}"
                    );
                } else if row["kind"] == "guard-missing" {
                    // The program was gone: no guard ran, the host's shell
                    // failed and `|| exit 2` (the plugin's throw) blocked.
                    assert_eq!(
                        row["hashesBefore"], row["hashesAfter"],
                        "{file} {mode} {id}"
                    );
                    assert_eq!(
                        row["hook"]["decision"], "no hook call",
                        "{file} {mode} {id}"
                    );
                    let silent = AGENT_WENT_SILENT
                        .iter()
                        .any(|(f, r)| file.ends_with(f) && id == *r);
                    assert!(
                        silent || !told.is_empty(),
                        "{file} {mode} {id}: no tool result"
                    );
                } else {
                    assert_eq!(row["hook"]["decision"], "allow", "{file} {mode} {id}");
                    assert!(!refused, "{file} {mode} {id}: the model read {told:?}");
                    assert!(!told.is_empty(), "{file} {mode} {id}: no tool result");
                }
            }
        }
    }
}

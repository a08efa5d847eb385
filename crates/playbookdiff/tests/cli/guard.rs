//! `playbookdiff guard`: the hook's exit statuses and answers, the
//! fingerprint after a shell call, the kill switch, `install` twice on
//! the corpus, `audit` against a baseline.

use assert_cmd::Command;
use proptest::prelude::*;
use std::path::Path;

/// A work tree with a `.git` directory on `main`, `CLAUDE.md` importing
/// `docs/guide.md`, and a harmless file.
fn work_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("CLAUDE.md"), "# Rules\n\n@docs/guide.md\n").unwrap();
    std::fs::write(root.join("docs/guide.md"), "Be brief.\n").unwrap();
    std::fs::write(root.join("main.txt"), "x\n").unwrap();
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::write(root.join("scripts/check.sh"), "#!/bin/sh\n").unwrap();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let hooks = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/check.sh"}]}]}}"#;
    std::fs::write(root.join(".claude/settings.json"), hooks).unwrap();
    dir
}

fn payload(root: &Path, event: &str, tool: &str, input: serde_json::Value) -> String {
    serde_json::json!({
        "session_id": "t1", "cwd": root, "hook_event_name": event,
        "tool_name": tool, "tool_input": input,
    })
    .to_string()
}

struct Out {
    status: i32,
    stdout: String,
}

fn hook(host: &str, stdin: impl Into<Vec<u8>>) -> Out {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "hook", "--host", host])
        .env("HOME", "/nonexistent-home")
        .write_stdin(stdin.into())
        .output()
        .unwrap();
    Out {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}

fn decision(out: &Out) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(&out.stdout).ok()?;
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .or_else(|| v["decision"].as_str())
        .map(str::to_string)
}

#[test]
fn the_hook_answers_in_each_hosts_protocol_and_never_exits_1() {
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let write = |p: &str| {
        payload(
            &root,
            "PreToolUse",
            "Write",
            serde_json::json!({"file_path": root.join(p)}),
        )
    };

    let denied = hook("claude-code", write("CLAUDE.md"));
    assert_eq!(
        (denied.status, decision(&denied).as_deref()),
        (0, Some("deny"))
    );
    assert!(
        denied.stdout.contains("rule `agent-config`"),
        "{}",
        denied.stdout
    );
    // Imported by CLAUDE.md, so agent configuration too.
    let imported = hook("claude-code", write("docs/guide.md"));
    assert_eq!(
        decision(&imported).as_deref(),
        Some("deny"),
        "{}",
        imported.stdout
    );
    let script = hook("claude-code", write("scripts/check.sh"));
    assert_eq!(
        decision(&script).as_deref(),
        Some("deny"),
        "a hook's script: {}",
        script.stdout
    );
    let allowed = hook("claude-code", write("main.txt"));
    assert_eq!((allowed.status, allowed.stdout.as_str()), (0, ""));

    let codex = hook(
        "codex",
        payload(
            &root,
            "PreToolUse",
            "Bash",
            serde_json::json!({"command": "echo x > AGENTS.md"}),
        ),
    );
    assert_eq!(
        (codex.status, decision(&codex).as_deref()),
        (0, Some("deny"))
    );
    let oc = hook(
        "opencode",
        serde_json::json!({"tool": "write", "cwd": root, "args": {"filePath": "main.txt"}})
            .to_string(),
    );
    assert_eq!((oc.status, decision(&oc).as_deref()), (0, Some("allow")));

    let garbage = hook("claude-code", "{not json");
    assert_eq!(
        (garbage.status, decision(&garbage).as_deref()),
        (0, Some("deny"))
    );
    let unknown_host = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "hook", "--host", "cursor"])
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(unknown_host.status.code(), Some(2));

    let log = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "log", "--repo"])
        .arg(&root)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(
        log.contains("claude-code Write deny agent-config CLAUDE.md"),
        "{log}"
    );
    assert!(log.contains("claude-code Write allow allowed"), "{log}");
}

/// On disk, a write from a nested repository (a vendored clone under the
/// work tree) through `..`, and an absolute write from a `cwd` outside
/// every work tree, are decided by the work tree they land in; the
/// user's agent settings and kill switch in `$HOME` are refused. Each
/// was allowed before.
#[test]
fn writes_into_another_work_tree_or_the_home_are_decided_there() {
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let lib = root.join("vendor/lib");
    std::fs::create_dir_all(lib.join(".git")).unwrap();
    std::fs::write(lib.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    let outside = tempfile::tempdir().unwrap();
    let outside = std::fs::canonicalize(outside.path()).unwrap();
    let home = tempfile::tempdir().unwrap();
    let home = std::fs::canonicalize(home.path()).unwrap();
    let run = |cwd: &Path, tool: &str, input: serde_json::Value| {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["guard", "hook", "--host", "claude-code"])
            .env("HOME", &home)
            .write_stdin(payload(cwd, "PreToolUse", tool, input))
            .output()
            .unwrap();
        decision(&Out {
            status: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        })
    };
    let bash =
        |cwd: &Path, command: &str| run(cwd, "Bash", serde_json::json!({ "command": command }));
    let write =
        |cwd: &Path, path: &Path| run(cwd, "Write", serde_json::json!({ "file_path": path }));
    let deny = Some("deny".to_string());
    assert_eq!(bash(&lib, "echo x > ../../CLAUDE.md"), deny);
    assert_eq!(
        bash(&lib, "echo x > ../../docs/guide.md"),
        deny,
        "an import of CLAUDE.md"
    );
    assert_eq!(write(&lib, &root.join(".claude/settings.json")), deny);
    assert_eq!(write(&outside, &root.join("CLAUDE.md")), deny);
    assert_eq!(bash(&lib, "echo x > ../../main.txt"), None);
    assert_eq!(write(&outside, &root.join("main.txt")), None);
    assert_eq!(write(&root, &home.join(".claude/settings.json")), deny);
    assert_eq!(bash(&root, "rm ~/.playbookdiff/HALT"), deny);
    assert_eq!(write(&root, &home.join("notes.txt")), None);
}

#[test]
fn the_log_outside_git_says_where_it_is_kept_and_what_to_pass() {
    let t = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "log", "--repo"])
        .arg(t.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("keeps no ledger") && err.contains("pass --repo DIR inside the"),
        "{err}"
    );
}

#[test]
fn a_protected_file_changed_by_an_allowed_shell_call_stops_the_session() {
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let bash =
        |event: &str, cmd: &str| payload(&root, event, "Bash", serde_json::json!({"command": cmd}));
    // A command the parser reads as harmless, which changes CLAUDE.md
    // (here the test stands in for it between the two hooks).
    let pre = hook("claude-code", bash("PreToolUse", "make docs"));
    assert_eq!(pre.stdout, "");
    std::fs::write(root.join("CLAUDE.md"), "# Rules, rewritten\n").unwrap();
    let post = hook("claude-code", bash("PostToolUse", "make docs"));
    assert!(
        post.stdout.contains("\"decision\":\"block\""),
        "{}",
        post.stdout
    );
    assert!(
        post.stdout
            .contains("protected files changed outside the guard: CLAUDE.md; a person must review"),
        "{}",
        post.stdout
    );
    let next = hook("claude-code", bash("PreToolUse", "ls"));
    assert_eq!(decision(&next).as_deref(), Some("deny"), "{}", next.stdout);
    assert!(next.stdout.contains("rule `tamper`"));
    // An unchanged run leaves no mark.
    let t2 = work_tree();
    let root2 = std::fs::canonicalize(t2.path()).unwrap();
    let bash2 = |event: &str| payload(&root2, event, "Bash", serde_json::json!({"command": "ls"}));
    hook("claude-code", bash2("PreToolUse"));
    assert_eq!(hook("claude-code", bash2("PostToolUse")).stdout, "");
    assert_eq!(hook("claude-code", bash2("PreToolUse")).stdout, "");
}

/// A rewrite that keeps the size and sets the modification time back
/// (`touch -r`) still changes the status-change time; one within the
/// clock's tick of an earlier write keeps every stamp, and the content
/// hash of a recently changed file catches it. Both stop the session.
#[test]
fn a_same_size_rewrite_with_its_time_set_back_stops_the_session() {
    for wait in [false, true] {
        let t = work_tree();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let bash = |event: &str| {
            payload(
                &root,
                event,
                "Bash",
                serde_json::json!({"command": "make docs"}),
            )
        };
        let file = root.join("docs/guide.md");
        if wait {
            // Old enough that its fingerprint is its metadata alone.
            std::thread::sleep(std::time::Duration::from_millis(2100));
        }
        let before = std::fs::metadata(&file).unwrap().modified().unwrap();
        assert_eq!(hook("claude-code", bash("PreToolUse")).stdout, "");
        std::fs::write(&file, "Be short.\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(before)
            .unwrap();
        assert_eq!(std::fs::metadata(&file).unwrap().len(), 10);
        let post = hook("claude-code", bash("PostToolUse"));
        assert!(
            post.stdout
                .contains("protected files changed outside the guard: docs/guide.md;"),
            "{}",
            post.stdout
        );
    }
}

/// A shell call whose protected files did not change rewrites nothing:
/// the cached list keeps its file, and the snapshot is a link to it.
#[test]
fn an_unchanged_tree_rewrites_no_cache_or_snapshot() {
    use std::os::unix::fs::MetadataExt;
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let bash = |event: &str| payload(&root, event, "Bash", serde_json::json!({"command": "ls"}));
    let state = root.join(".git/playbookdiff");
    hook("claude-code", bash("PreToolUse"));
    hook("claude-code", bash("PostToolUse"));
    let cache = std::fs::metadata(state.join("protected-files")).unwrap();
    hook("claude-code", bash("PreToolUse"));
    let snapshot = std::fs::metadata(state.join("before-shell-t1")).unwrap();
    let again = std::fs::metadata(state.join("protected-files")).unwrap();
    assert_eq!(again.ino(), cache.ino());
    assert_eq!(again.mtime_nsec(), cache.mtime_nsec());
    assert_eq!(snapshot.ino(), cache.ino());
    assert_eq!(hook("claude-code", bash("PostToolUse")).stdout, "");
    assert!(!state.join("before-shell-t1").exists());
    assert!(state.join("protected-files").exists());
    // A list emptied, or written by an earlier release (no header), is
    // rebuilt, not taken as a tree without protected files.
    for stale in ["", "68:1796442395.380337793:10207350\tCLAUDE.md\n"] {
        std::fs::write(state.join("protected-files"), stale).unwrap();
        hook("claude-code", bash("PreToolUse"));
        let list = std::fs::read_to_string(state.join("protected-files")).unwrap();
        assert!(list.starts_with("# playbookdiff guard"), "{list}");
        assert!(list.contains("\tdocs/guide.md"), "{list}");
        hook("claude-code", bash("PostToolUse"));
    }
}

/// A payload larger than the guard decides is refused, and read to its
/// end first: Codex 0.142.3 runs the call when writing the payload fails
/// because the hook stopped reading, whatever the hook answers.
#[test]
fn an_oversized_payload_is_read_to_its_end_and_refused() {
    use std::io::Write as _;
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let big = "x".repeat(6 * 1024 * 1024);
    let text = payload(
        &root,
        "PreToolUse",
        "Write",
        serde_json::json!({"file_path": "notes.txt", "content": big}),
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("playbookdiff"))
        .args(["guard", "hook", "--host", "codex"])
        .env("HOME", "/nonexistent-home")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Slowly, as a loaded host may write: the guard must still be reading.
    for chunk in text.as_bytes().chunks(1024 * 1024) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        stdin
            .write_all(chunk)
            .expect("the guard reads the whole payload");
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let answer = String::from_utf8_lossy(&out.stdout);
    assert!(
        answer.contains("deny") || out.status.code() == Some(2),
        "{answer}"
    );
}

#[test]
fn the_kill_switch_denies_every_call_until_removed() {
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let call = payload(
        &root,
        "PreToolUse",
        "Read",
        serde_json::json!({"file_path": root.join("main.txt")}),
    );
    assert_eq!(hook("claude-code", call.clone()).stdout, "");
    std::fs::create_dir_all(root.join(".git/playbookdiff")).unwrap();
    std::fs::write(root.join(".git/playbookdiff/HALT"), "").unwrap();
    let halted = hook("claude-code", call.clone());
    assert!(halted.stdout.contains("rule `halt`"), "{}", halted.stdout);
    std::fs::remove_file(root.join(".git/playbookdiff/HALT")).unwrap();
    assert_eq!(hook("claude-code", call).stdout, "");
}

#[test]
fn an_invalid_guard_table_denies_every_write() {
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    std::fs::write(
        root.join("playbookdiff.toml"),
        "[guard]\nallow-secrets = [\"*\"]\n",
    )
    .unwrap();
    let out = hook(
        "claude-code",
        payload(
            &root,
            "PreToolUse",
            "Write",
            serde_json::json!({"file_path": root.join("main.txt")}),
        ),
    );
    assert!(
        out.stdout.contains("rule `policy-unreadable`") && out.stdout.contains("allow-secrets"),
        "{}",
        out.stdout
    );
}

proptest! {
    #![proptest_config(playbookdiff_testkit::proptest_cases(48))]

    /// No input makes `guard hook` exit with a status its host reads as
    /// "run it" without a decision: the status is 0 or 2, and an empty
    /// answer (an allow) comes only from a payload the guard read.
    #[test]
    fn no_input_escapes_the_deny_protocol(
        noise in proptest::collection::vec(any::<u8>(), 0..200),
        tool in prop_oneof![Just("Write"), Just("Bash"), Just("Read"), Just("apply_patch"), Just("Zap"), Just("")],
        text in "[ -~]{0,40}",
        shape in 0..5u8,
        host in 0..5usize,
    ) {
        let host = ["claude-code", "codex", "opencode", "gemini", "copilot"][host];
        let stdin: Vec<u8> = match shape {
            0 => noise,
            1 => serde_json::json!({"cwd": "/tmp", "tool_name": tool, "tool_input": {"command": text, "file_path": text}}).to_string().into_bytes(),
            2 => serde_json::json!({"cwd": text, "tool": tool.to_lowercase(), "args": {"command": text, "filePath": text}}).to_string().into_bytes(),
            3 => serde_json::json!({"cwd": "/tmp", "toolName": tool.to_lowercase(), "toolArgs": text}).to_string().into_bytes(),
            _ => format!("{{\"cwd\":\"/tmp\",\"tool_name\":\"{tool}\",\"tool_input\":{text}").into_bytes(),
        };
        let out = hook(host, stdin.clone());
        prop_assert!(out.status == 0 || out.status == 2, "status {}", out.status);
        // Copilot CLI runs the call on any failing hook: only a deny on
        // standard output stops it, so the guard never exits 2 there.
        if host == "copilot" {
            prop_assert_eq!(out.status, 0, "{}", out.stdout);
        }
        if out.status == 0 && host != "opencode" && out.stdout.is_empty() {
            let h = playbookdiff_guard::Host::from_id(host).unwrap();
            prop_assert!(playbookdiff_guard::host::parse(h, &stdin).is_ok());
        }
        if host == "opencode" && out.status == 0 {
            prop_assert!(decision(&out).is_some(), "{}", out.stdout);
        }
    }
}

#[test]
#[allow(clippy::print_stderr)] // says that the corpus is absent
fn install_twice_on_the_corpus_changes_nothing_the_second_time() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        eprintln!("note: ../shared/corpus is absent; the install test checks a fresh tree only");
        return;
    };
    let mut repos: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("repo"))
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    repos.push(work_tree().keep());
    for repo in repos {
        let copy = playbookdiff_testkit::copy_to_temp(&repo);
        for host in ["claude-code", "codex", "opencode"] {
            let run = |write: bool| {
                let mut c = Command::cargo_bin("playbookdiff").unwrap();
                c.args([
                    "guard",
                    "install",
                    "--host",
                    host,
                    "--program",
                    "/usr/local/bin/playbookdiff",
                    "--repo",
                ])
                .arg(copy.path());
                if write {
                    c.arg("--write");
                }
                let out = c.output().unwrap();
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{}: {}",
                    repo.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
                String::from_utf8_lossy(&out.stdout).into_owned()
            };
            let plan = run(false);
            assert!(
                plan.contains("would change") || plan.contains("unchanged"),
                "{plan}"
            );
            let first = run(true);
            let target = first
                .split_whitespace()
                .nth(1)
                .unwrap()
                .trim_end_matches(':')
                .to_string();
            let after_first = std::fs::read(&target).unwrap();
            let second = run(true);
            assert!(
                second.starts_with("unchanged "),
                "{}: {host}: {second}",
                repo.display()
            );
            assert_eq!(std::fs::read(&target).unwrap(), after_first);
        }
    }
}

#[test]
fn audit_fails_on_a_weakened_baseline_and_passes_on_a_new_rule() {
    let t = work_tree();
    let root = t.path();
    let audit = |extra: &[&str]| {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["guard", "audit", "--repo"])
            .arg(root)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    assert_eq!(audit(&[]).0, Some(2));
    assert_eq!(audit(&["--write-baseline"]).0, Some(0));
    let (status, text) = audit(&[]);
    assert_eq!(status, Some(0), "{text}");
    assert!(text.contains("agent-config") && text.contains("egress"));
    let path = root.join(".playbookdiff/guard-baseline.json");
    let mut baseline: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    // A matcher the policy no longer has, and a rule that is gone.
    baseline["rules"][0]["matchers"]
        .as_array_mut()
        .unwrap()
        .push("**/RULES.md".into());
    baseline["rules"].as_array_mut().unwrap().push(serde_json::json!({"id": "old-rule", "verdict": "deny", "matchers": [], "fingerprint": "0"}));
    std::fs::write(&path, baseline.to_string()).unwrap();
    let (status, text) = audit(&[]);
    assert_eq!(status, Some(1), "{text}");
    assert!(
        text.contains("no longer matches **/RULES.md")
            && text.contains("`old-rule` is in the baseline and gone"),
        "{text}"
    );
    // A rule the baseline does not know passes.
    baseline["rules"]
        .as_array_mut()
        .unwrap()
        .retain(|r| r["id"] != "old-rule" && r["id"] != "egress");
    baseline["rules"][0]["matchers"]
        .as_array_mut()
        .unwrap()
        .pop();
    std::fs::write(&path, baseline.to_string()).unwrap();
    assert_eq!(audit(&[]).0, Some(0));
}

/// Runs the plugin module `guard install --host opencode` wrote, under
/// Node, calling `hook` with OpenCode 1.18.33's arguments: before a tool
/// `(input {tool, sessionID, callID}, output {args})`, after it `(input
/// {tool, sessionID, callID, args}, result {title, output, metadata})`.
/// Prints `allowed` or `threw: MESSAGE`; `None` without `node`.
fn opencode_plugin_call(root: &Path, hook: &str, tool: &str, args: &str) -> Option<String> {
    let plugin = root.join(".opencode/plugin/playbookdiff-guard.js");
    let (input, output) = if hook == "tool.execute.before" {
        (
            format!("{{tool: {tool:?}, sessionID: 's', callID: 'c'}}"),
            format!("{{args: {args}}}"),
        )
    } else {
        (
            format!("{{tool: {tool:?}, sessionID: 's', callID: 'c', args: {args}}}"),
            "{title: 't', output: 'done', metadata: {}}".to_string(),
        )
    };
    let script = format!(
        "const m = await import({:?});\n\
         const h = await m.PlaybookdiffGuard({{directory: {:?}}});\n\
         try {{ await h[{hook:?}]({input}, {output}); console.log('allowed'); }}\n\
         catch (e) {{ console.log('threw: ' + e.message); }}",
        plugin.display().to_string(),
        root.display().to_string(),
    );
    let out = std::process::Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .env("HOME", "/nonexistent-home")
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn the_opencode_plugin_reads_the_arguments_where_opencode_passes_them() {
    let dir = work_tree();
    let root = dir.path();
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "install", "--host", "opencode", "--write"])
        .current_dir(root)
        .env("HOME", "/nonexistent-home")
        .assert()
        .success();
    let cases = [
        (
            "tool.execute.before",
            "bash",
            "{command: 'ls'}",
            Some("allowed"),
        ),
        (
            "tool.execute.before",
            "bash",
            "{command: 'echo x > CLAUDE.md'}",
            None,
        ),
        (
            "tool.execute.before",
            "write",
            "{filePath: 'main.txt', content: 'y'}",
            Some("allowed"),
        ),
        (
            "tool.execute.before",
            "write",
            "{filePath: '.mcp.json', content: '{}'}",
            None,
        ),
        (
            "tool.execute.after",
            "bash",
            "{command: 'ls'}",
            Some("allowed"),
        ),
        (
            "tool.execute.after",
            "bash",
            "{command: 'echo hi > main.txt'}",
            Some("allowed"),
        ),
        (
            "tool.execute.after",
            "write",
            "{filePath: 'main.txt', content: 'y'}",
            Some("allowed"),
        ),
    ];
    for (hook, tool, args, want) in cases {
        let Some(got) = opencode_plugin_call(root, hook, tool, args) else {
            playbookdiff_testkit::corpus::visible(
                "guard: skipped the OpenCode plugin test: node is not installed",
            );
            return;
        };
        match want {
            Some(w) => assert_eq!(got, w, "{hook} {tool} {args}"),
            None => assert!(
                got.starts_with("threw: Refused by playbookdiff guard (rule `agent-config`)"),
                "{hook} {tool} {args}: {got}"
            ),
        }
    }
}

//! Gemini CLI and Copilot CLI as hosts: their payloads read into calls
//! and the guard's answer in each one's protocol. The payload shapes are
//! those Gemini CLI 0.61.0 and Copilot CLI 1.0.24 and 1.0.102 sent to the
//! guard in runs offline with a scripted model (docs/guard.md, "Gemini
//! CLI and Copilot CLI"); a deny in these answers kept `CLAUDE.md` and
//! `AGENTS.md` byte-identical there, and the model read the reason.

use playbookdiff_guard::host::{self, Answer};
use playbookdiff_guard::{rules, Action, Decision, Event, Host};
use std::path::PathBuf;

fn gemini(tool: &str, input: &str) -> Vec<u8> {
    format!(
        r#"{{"session_id":"s","transcript_path":"/t","cwd":"/r","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"{tool}","tool_input":{input}}}"#
    )
    .into_bytes()
}

fn copilot(tool: &str, args: &str) -> Vec<u8> {
    serde_json::json!({
        "sessionId": "s", "timestamp": 1, "cwd": "/r", "toolName": tool, "toolArgs": args,
    })
    .to_string()
    .into_bytes()
}

fn action(host: Host, bytes: &[u8]) -> Action {
    host::parse(host, bytes)
        .unwrap_or_else(|e| panic!("{}: {}", String::from_utf8_lossy(bytes), e.0))
        .action
}

#[test]
fn gemini_tools_are_read() {
    let g = Host::Gemini;
    assert_eq!(
        action(
            g,
            &gemini(
                "write_file",
                r#"{"file_path":"/r/CLAUDE.md","content":"x"}"#
            )
        ),
        Action::Write(vec!["/r/CLAUDE.md".into()])
    );
    assert_eq!(
        action(
            g,
            &gemini(
                "replace",
                r#"{"file_path":"GEMINI.md","old_string":"a","new_string":"b"}"#
            )
        ),
        Action::Write(vec!["GEMINI.md".into()])
    );
    assert_eq!(
        action(
            g,
            &gemini(
                "web_fetch",
                r#"{"prompt":"read <https://example.com/x> please"}"#
            )
        ),
        Action::Fetch("https://example.com/x".into())
    );
    assert_eq!(
        action(
            g,
            &gemini("read_many_files", r#"{"include":[".env","src/**"]}"#)
        ),
        Action::ReadPatterns(vec![".env".into(), "src/**".into()])
    );
    // `dir_path` moves the directory the command's paths resolve in.
    let call = host::parse(
        g,
        &gemini(
            "run_shell_command",
            r#"{"command":"echo x > rules.md","dir_path":".claude"}"#,
        ),
    )
    .unwrap();
    assert_eq!(call.cwd, PathBuf::from("/r/.claude"));
    assert_eq!(call.action, Action::Shell("echo x > rules.md".into()));
    let before = host::parse(g, &gemini("run_shell_command", r#"{"command":"ls"}"#)).unwrap();
    assert_eq!(before.event, Event::PreToolUse);
    let text = String::from_utf8(gemini("run_shell_command", r#"{"command":"ls"}"#))
        .unwrap()
        .replace("BeforeTool", "AfterTool");
    assert_eq!(
        host::parse(g, text.as_bytes()).unwrap().event,
        Event::PostToolUse
    );
}

#[test]
fn copilot_tools_are_read() {
    let c = Host::Copilot;
    assert_eq!(
        action(
            c,
            &copilot(
                "edit",
                r#"{"path":"/r/CLAUDE.md","old_str":"a","new_str":"b"}"#
            )
        ),
        Action::Write(vec!["/r/CLAUDE.md".into()])
    );
    assert_eq!(
        action(
            c,
            &copilot("create", r#"{"path":"/r/notes.txt","file_text":"ok"}"#)
        ),
        Action::Write(vec!["/r/notes.txt".into()])
    );
    assert_eq!(
        action(c, &copilot("view", r#"{"path":"/r/.env"}"#)),
        Action::Read(vec!["/r/.env".into()])
    );
    assert_eq!(
        action(
            c,
            &copilot(
                "bash",
                r#"{"command":"echo x >> AGENTS.md","description":"x"}"#
            )
        ),
        Action::Shell("echo x >> AGENTS.md".into())
    );
    assert_eq!(
        action(
            c,
            &copilot("write_bash", r#"{"shellId":"1","input":"rm CLAUDE.md"}"#)
        ),
        Action::Shell("rm CLAUDE.md".into())
    );
    assert_eq!(
        action(c, &copilot("report_intent", r#"{"intent":"x"}"#)),
        Action::Harmless
    );
    // The patch of `apply_patch` is the arguments' text itself.
    let patch = "*** Begin Patch\n*** Add File: CLAUDE.md\n+x\n*** End Patch\n";
    assert!(
        matches!(action(c, &copilot("apply_patch", patch)), Action::Patch(ops) if ops.len() == 1)
    );
    // After the tool, the arguments come as an object beside the result.
    let post = serde_json::json!({
        "sessionId": "s", "timestamp": 1, "cwd": "/r", "toolName": "create",
        "toolArgs": {"path": "/r/notes.txt", "file_text": "ok"},
        "toolResult": {"resultType": "success"},
    });
    let call = host::parse(c, post.to_string().as_bytes()).unwrap();
    assert_eq!(call.event, Event::PostToolUse);
}

fn deny() -> Decision {
    Decision::of(&rules::PAYLOAD, "a test", Vec::new())
}

fn json(a: &Answer) -> serde_json::Value {
    serde_json::from_str(&a.stdout).unwrap_or_else(|e| panic!("{e}: {}", a.stdout))
}

/// A deny is JSON on standard output with exit 0 in each host's words;
/// Copilot CLI, which runs the call when a hook fails, gets its deny on
/// standard output even when the guard cannot decide.
#[test]
fn each_host_reads_its_own_deny() {
    let d = deny();
    let g = host::answer(Host::Gemini, Event::PreToolUse, &d);
    assert_eq!((g.status, &json(&g)["decision"]), (0, &"deny".into()));
    assert_eq!(json(&g)["reason"], d.reason.as_str());
    let c = host::answer(Host::Copilot, Event::PreToolUse, &d);
    assert_eq!(c.status, 0);
    assert_eq!(json(&c)["permissionDecision"], "deny");
    assert_eq!(json(&c)["permissionDecisionReason"], d.reason.as_str());
    let failed = host::cannot_decide(Host::Copilot, "the payload cannot be read");
    assert_eq!(failed.status, 0);
    assert_eq!(json(&failed)["permissionDecision"], "deny");
    let failed = host::cannot_decide(Host::Gemini, "the payload cannot be read");
    assert_eq!((failed.status, failed.stdout.as_str()), (2, ""));
    assert!(failed.stderr.starts_with("Refused by playbookdiff guard"));
}

/// An allow prints nothing, so each host's own permission checks apply.
#[test]
fn an_allow_prints_nothing() {
    let allow = Decision::of(&rules::ALLOWED, "a test", Vec::new());
    for h in [Host::Gemini, Host::Copilot] {
        let a = host::answer(h, Event::PreToolUse, &allow);
        assert_eq!((a.stdout.as_str(), a.status), ("", 0), "{h:?}");
    }
}

#[test]
fn the_agents_own_names_are_taken() {
    assert_eq!(Host::from_id("gemini-cli"), Some(Host::Gemini));
    assert_eq!(Host::from_id("copilot-cli"), Some(Host::Copilot));
    assert_eq!(Host::from_id("copilot"), Some(Host::Copilot));
}

/// A warning reaches the person (`systemMessage`) and, in Claude Code
/// before the tool, the model too (`additionalContext`): with the
/// `systemMessage` alone, the round's end-to-end run with Claude Code
/// 2.1.332 (`oracle/round/claude-code/`) showed the model nothing.
#[test]
fn a_warning_reaches_claude_codes_model() {
    let warn = Decision::of(&rules::BRIEF_SCOPE, "`README.md`", Vec::new());
    let a = host::answer(Host::ClaudeCode, Event::PreToolUse, &warn);
    assert_eq!(a.status, 0);
    let v = json(&a);
    assert_eq!(v["systemMessage"], warn.reason.as_str());
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(
        v["hookSpecificOutput"]["additionalContext"],
        warn.reason.as_str()
    );
    // No decision: the agent's own permission checks still apply.
    assert!(v["hookSpecificOutput"].get("permissionDecision").is_none());
    let codex = host::answer(Host::Codex, Event::PreToolUse, &warn);
    assert!(json(&codex).get("hookSpecificOutput").is_none());
}

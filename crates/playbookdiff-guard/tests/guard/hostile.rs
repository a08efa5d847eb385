//! Malformed and hostile payloads: each is a deny with a reason, never an
//! allow and never a panic.

use playbookdiff_guard::fs::MemoryFs;
use playbookdiff_guard::{
    decide, host, rules, Decision, GuardConfig, Host, Policy, Situation, Verdict,
};
use std::path::PathBuf;

fn policy() -> Policy {
    let surfaces = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.surfaces().iter().copied())
        .collect();
    let mut p = Policy::new(PathBuf::from("/r"), surfaces, Ok(GuardConfig::default()));
    p.home = Some(PathBuf::from("/home/u"));
    p
}

/// The decision the command makes for `bytes`: a payload that cannot be
/// read is a deny of its rule, else the policy's decision.
fn decision(host: Host, bytes: &[u8]) -> Decision {
    let fs = MemoryFs::default()
        .file("/r/CLAUDE.md")
        .link("/r/loop", "loop")
        .link("/r/a", "b")
        .link("/r/b", "a");
    match host::parse(host, bytes) {
        Ok(call) => {
            let p = policy();
            decide(
                &Situation {
                    policy: &p,
                    fs: &fs,
                    trees: &playbookdiff_guard::NoWorkTrees,
                    halt: None,
                    tampered: None,
                },
                &call,
            )
        }
        Err(bad) => Decision::of(&rules::PAYLOAD, &bad.0, Vec::new()),
    }
}

fn claude(tool: &str, input: &str) -> Vec<u8> {
    format!(r#"{{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"{tool}","tool_input":{input}}}"#).into_bytes()
}

fn hostile() -> Vec<(Host, Vec<u8>)> {
    let long = "x".repeat(10 * 1024 * 1024);
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let c = Host::ClaudeCode;
    vec![
        (c, b"".to_vec()),
        (c, b"{".to_vec()),
        (c, br#"{"cwd":"/r","tool_name":"Write","tool_input":{"file_path":"/r/CLAU"#.to_vec()),
        (c, b"null".to_vec()),
        (c, b"[]".to_vec()),
        (c, b"42".to_vec()),
        (c, b"\xff\xfe{}".to_vec()),
        (c, deep.into_bytes()),
        (c, br#"{"tool_name":"Write","tool_input":{"file_path":"/r/x"}}"#.to_vec()),
        (c, br#"{"cwd":"r","tool_name":"Write","tool_input":{"file_path":"/r/x"}}"#.to_vec()),
        (c, br#"{"cwd":42,"tool_name":"Write","tool_input":{"file_path":"/r/x"}}"#.to_vec()),
        (c, br#"{"cwd":"/r","tool_name":["Write"],"tool_input":{"file_path":"/r/x"}}"#.to_vec()),
        (c, br#"{"cwd":"/r","tool_input":{"file_path":"/r/x"}}"#.to_vec()),
        (c, claude("Write", r#""/r/x""#)),
        (c, claude("Write", r#"{"file_path":7}"#)),
        (c, claude("Write", r#"{"file_path":""}"#)),
        (c, claude("Write", r#"{"file_path":null}"#)),
        (c, claude("Write", r#"{"file_path":"/r/x\u0000/../CLAUDE.md"}"#)),
        (c, claude("Bash", r#"{"command":"echo \u0000 > x"}"#)),
        (c, claude("Bash", r#"{"command":{"sh":"ls"}}"#)),
        (c, claude("Bash", &format!(r#"{{"command":"echo {long}"}}"#))),
        (c, claude("Bash", &format!(r#"{{"command":"echo {}"}}"#, "y".repeat(100_000)))),
        (c, claude("Bash", &format!(r#"{{"command":"{}ls{}"}}"#, "(".repeat(20_000), ")".repeat(20_000)))),
        (c, claude("Bash", &format!(r#"{{"command":"echo {}x{}"}}"#, "$(".repeat(5_000), ")".repeat(5_000)))),
        (c, claude("Bash", &format!(r#"{{"command":"{}"}}"#, "{ ".repeat(10_000)))),
        (c, claude("Frobnicate", "{}")),
        (c, claude("mcp__evil__write_file", r#"{"path":"/r/CLAUDE.md"}"#)),
        (c, br#"{"cwd":"/r","hook_event_name":"Exfiltrate","tool_name":"Bash","tool_input":{"command":"ls"}}"#.to_vec()),
        (c, claude("Write", r#"{"file_path":"/r/src/../../r/./CLAUDE.md"}"#)),
        (c, claude("Write", r#"{"file_path":"../../../../home/u/.bashrc"}"#)),
        (c, claude("Write", r#"{"file_path":"/r/loop/x"}"#)),
        (c, claude("Write", r#"{"file_path":"/r/a"}"#)),
        (c, claude("Bash", r#"{"command":"$(printf 'rm CLAUDE.md')"}"#)),
        (Host::Codex, br#"{"cwd":"/r","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** End Patch"}}"#.to_vec()),
        (Host::Codex, br#"{"cwd":"/r","tool_name":"apply_patch","tool_input":{"command":"*** Update File:   \n"}}"#.to_vec()),
        (Host::Codex, br#"{"cwd":"/r","tool_name":"apply_patch","tool_input":{}}"#.to_vec()),
        (Host::Codex, br#"{"cwd":"/r","tool_name":"Bash","tool_input":{"command":["bash",7]}}"#.to_vec()),
        (Host::OpenCode, br#"{"cwd":"/r","args":{"filePath":"x"}}"#.to_vec()),
        (Host::OpenCode, br#"{"cwd":"/r","tool":"write","args":"CLAUDE.md"}"#.to_vec()),
        (Host::OpenCode, br#"{"cwd":"/r","tool":"teleport","args":{}}"#.to_vec()),
        (Host::Gemini, br#"{"cwd":"/r","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":9}}"#.to_vec()),
        (Host::Gemini, br#"{"cwd":"/r","hook_event_name":"BeforeTool","tool_name":"save_memory","tool_input":{"fact":"x"}}"#.to_vec()),
        (Host::Gemini, br#"{"cwd":"/r","hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"summarise http://a.example and https://b.example"}}"#.to_vec()),
        (Host::Copilot, br#"{"cwd":"/r","toolName":"edit","toolArgs":"{\"path\": "}"#.to_vec()),
        (Host::Copilot, br#"{"cwd":"/r","toolName":"bash","toolArgs":"[1]"}"#.to_vec()),
        (Host::Copilot, br#"{"cwd":"/r","toolName":"teleport","toolArgs":"{}"}"#.to_vec()),
    ]
}

#[test]
fn every_hostile_payload_is_a_deny_with_a_reason() {
    let payloads = hostile();
    assert!(payloads.len() >= 30, "{}", payloads.len());
    for (host, bytes) in payloads {
        let shown: String = String::from_utf8_lossy(&bytes).chars().take(120).collect();
        let d = std::panic::catch_unwind(|| decision(host, &bytes))
            .unwrap_or_else(|_| panic!("panicked on {shown}"));
        assert_eq!(d.verdict, Verdict::Deny, "{shown}: {}", d.reason);
        assert!(
            d.reason
                .starts_with("Refused by playbookdiff guard (rule `"),
            "{shown}: {}",
            d.reason
        );
        assert!(
            d.reason.len() < 1_000,
            "{shown}: the reason is {} bytes",
            d.reason.len()
        );
    }
}

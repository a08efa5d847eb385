//! MCP servers from `.mcp.json`: transports, placeholders, secrets,
//! approval and local disabling.

use crate::common::*;
use playbookdiff_model::{
    Applicability::*, ConfiguredValue, DiagnosticCode as D, LoadPhase::*, SourceScope, Transport,
};

#[test]
fn project_mcp_server_is_a_stdio_startup_server_pending_approval_and_never_runtime_verified() {
    let cfg = compile("project_mcp_json", at_root());
    assert_eq!(cfg.mcp_servers.len(), 1);
    let s = server(&cfg, "filesystem");
    assert_eq!(s.transport, Transport::Stdio);
    assert_eq!((s.load_phase, s.applicability), (Startup, Conditional));
    assert_eq!(s.command.as_deref(), Some("npx"));
    assert_eq!(
        s.args.as_deref().unwrap()[1],
        "@modelcontextprotocol/server-filesystem"
    );
    assert!(!s.runtime_verified);
    assert!(!s.capabilities.known);
    assert_eq!(s.source.path.as_str(), ".mcp.json");
    let l = s.source.lines.unwrap();
    assert_eq!((l.start, l.end), (3, 6));
    assert_eq!(diags(&cfg, D::McpApprovalUnknown).len(), 1);
    assert_eq!(diags(&cfg, D::McpRuntimeUnknown).len(), 1);
}

#[test]
fn multiple_mcp_servers_keep_file_order_lines_and_transports_and_settings_approval() {
    let cfg = compile("multiple_mcp_servers", at_root());
    let names: Vec<&str> = cfg.mcp_servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["github", "docs", "db"]);
    let lines: Vec<(u32, u32)> = cfg
        .mcp_servers
        .iter()
        .map(|s| s.source.lines.map(|l| (l.start, l.end)).unwrap())
        .collect();
    assert_eq!(lines, [(3, 6), (7, 10), (11, 15)]);
    let transports: Vec<Transport> = cfg.mcp_servers.iter().map(|s| s.transport).collect();
    assert_eq!(
        transports,
        [Transport::Http, Transport::Stdio, Transport::Stdio]
    );
    let gh = server(&cfg, "github");
    assert_eq!(gh.applicability, Effective);
    assert!(
        gh.reason.contains("enabledMcpjsonServers") && gh.reason.contains(".claude/settings.json"),
        "{}",
        gh.reason
    );
    assert_eq!(server(&cfg, "docs").applicability, Conditional);
    assert_eq!(server(&cfg, "db").applicability, Conditional);
    assert_unique_ids(&cfg);
}

#[test]
fn an_approval_in_shared_project_settings_states_the_trust_it_depends_on() {
    let cfg = compile("multiple_mcp_servers", at_root());
    assert!(server(&cfg, "github").reason.contains("trusted workspace"));
    assert!(cfg.assumptions.iter().any(|a| a.contains("trusted")));
    // No approval from project settings, no trust assumption.
    let cfg = compile("project_mcp_json", at_root());
    assert!(!cfg.assumptions.iter().any(|a| a.contains("trusted")));
}

#[test]
fn placeholders_in_command_args_env_url_and_headers_are_kept_verbatim() {
    // Spec "MCP configuration"; field report 18 (`${CLAUDE_PROJECT_DIR}`).
    let cfg = compile("mcp_env_placeholders", at_root());
    let t = server(&cfg, "tools");
    assert_eq!(
        t.command.as_deref(),
        Some("${CLAUDE_PROJECT_DIR}/bin/tools-server")
    );
    assert_eq!(
        t.args.as_deref().unwrap(),
        [
            "--root",
            "${CLAUDE_PROJECT_DIR}/data",
            "--token",
            "${TOOLS_TOKEN}",
            "--port=${PORT:-8080}"
        ]
    );
    let env: Vec<(&str, &ConfiguredValue)> =
        t.env.iter().map(|e| (e.name.as_str(), &e.value)).collect();
    assert_eq!(
        env,
        [
            (
                "API_KEY",
                &ConfiguredValue::Reference {
                    expression: "${API_KEY}".into()
                }
            ),
            (
                "MODE",
                &ConfiguredValue::Reference {
                    expression: "${MODE:-development}".into()
                }
            ),
        ]
    );
    let r = server(&cfg, "remote");
    assert_eq!(
        r.url.as_deref(),
        Some("${API_BASE_URL:-https://api.example.com}/mcp")
    );
    assert_eq!(
        r.headers[0].value,
        ConfiguredValue::Reference {
            expression: "Bearer ${API_TOKEN}".into()
        }
    );
    assert!(diags(&cfg, D::McpLiteralSecret).is_empty());
    // The analyser's own environment is never substituted.
    let json = serde_json::to_string(&cfg).unwrap();
    if let Ok(home) = std::env::var("HOME") {
        assert!(!json.contains(&home));
    }
}

#[test]
fn literal_mcp_secrets_are_redacted_everywhere_and_reported_by_server_name() {
    // Field report 19.
    let cfg = compile("mcp_literal_secret", at_root());
    let json = serde_json::to_string(&cfg).unwrap();
    for secret in [
        "ghp_LiteralSecretValue0123456789abcdef",
        "ghp_EnvSecretValue0123456789abcdefXYZ",
        "hunter2secretpw",
        "qwertyUIOP123456",
        "sk-live-HeaderSecret0123456789",
    ] {
        assert!(!json.contains(secret), "{secret} leaked");
    }
    let gh = server(&cfg, "github");
    assert_eq!(gh.args.as_deref().unwrap()[3], "<redacted>");
    let token = gh
        .env
        .iter()
        .find(|e| e.name == "GITHUB_PERSONAL_ACCESS_TOKEN")
        .unwrap();
    assert_eq!(token.value, ConfiguredValue::redacted());
    let search = server(&cfg, "search");
    assert_eq!(
        search.url.as_deref(),
        Some("https://<redacted>@search.example.com/mcp?api_key=<redacted>")
    );
    assert_eq!(search.headers[0].value, ConfiguredValue::redacted());
    let d = diags(&cfg, D::McpLiteralSecret);
    let names: Vec<bool> = ["github", "search"]
        .iter()
        .map(|n| d.iter().any(|d| d.message.contains(&format!("`{n}`"))))
        .collect();
    assert_eq!(names, [true, true]);
    assert!(d
        .iter()
        .all(|d| d.source.as_ref().unwrap().path.as_str() == ".mcp.json"));
}

#[test]
fn sse_transport_is_unknown_with_an_unsupported_transport_diagnostic() {
    let cfg = compile("mcp_sse_transport", at_root());
    let s = server(&cfg, "events");
    assert_eq!(s.transport, Transport::Unknown);
    assert_eq!(s.declared_type.as_deref(), Some("sse"));
    assert_eq!(s.url.as_deref(), Some("https://events.example.com/sse"));
    let d = diags_at(&cfg, D::McpTransportUnsupported, ".mcp.json");
    assert_eq!(d.len(), 1);
    assert_eq!(lines_of(d[0]), (3, 6));
}

#[test]
fn websocket_transport_is_unknown_with_an_unsupported_transport_diagnostic() {
    let cfg = compile("mcp_websocket_transport", at_root());
    let s = server(&cfg, "live");
    assert_eq!(s.transport, Transport::Unknown);
    assert_eq!(s.declared_type.as_deref(), Some("ws"));
    assert_eq!(s.url.as_deref(), Some("wss://live.example.com/mcp"));
    let d = diags_at(&cfg, D::McpTransportUnsupported, ".mcp.json");
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("`ws`"));
    assert!(diags(&cfg, D::McpInvalidEntry).is_empty());
}

#[test]
fn disabled_mcpjson_servers_in_local_settings_exclude_the_server_in_local_mode_with_that_file_as_provenance(
) {
    // Field report 9.
    let cfg = compile("mcp_disabled_locally", at_root().local());
    let gh = server(&cfg, "github");
    assert_eq!(gh.applicability, Excluded);
    assert!(
        gh.reason.contains(".claude/settings.local.json"),
        "{}",
        gh.reason
    );
    let d = diags_at(&cfg, D::McpServerDisabled, ".claude/settings.local.json");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].source.as_ref().unwrap().scope, SourceScope::Local);
    assert!(d[0].message.contains("`github`"));
    // Rejection beats the project approval; the other server stays approved.
    assert_eq!(server(&cfg, "docs").applicability, Effective);
}

#[test]
fn disabled_mcpjson_servers_in_local_settings_are_not_read_in_repo_mode_and_the_output_says_so() {
    let cfg = compile("mcp_disabled_locally", at_root());
    let gh = server(&cfg, "github");
    assert_eq!(
        gh.applicability, Effective,
        "approved by the project settings; the local layer is not read"
    );
    assert!(
        gh.reason.contains(".claude/settings.local.json"),
        "the reason names the local layer: {}",
        gh.reason
    );
    let d = diags_at(
        &cfg,
        D::LocalConfigUnavailable,
        ".claude/settings.local.json",
    );
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message.contains("MCP") || d[0].message.contains(".mcp.json"),
        "{}",
        d[0].message
    );
    assert!(diags(&cfg, D::McpServerDisabled).is_empty());
}

#[test]
fn an_entry_its_schema_rejects_is_skipped_alone_with_a_diagnostic_at_its_line() {
    // Random repositories (`fuzz.claude-code.10`, 2.1.332): an entry that is
    // a stdio server without a command, has neither command nor url, or has
    // a field of the wrong type is not in the `init` line's servers; the
    // valid entries beside it are.
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".mcp.json",
        r#"{
  "mcpServers": {
    "typed": { "type": "stdio" },
    "empty": {},
    "numeric": { "command": 3 },
    "typenum": { "type": 3, "command": "npx" },
    "urlnum": { "type": "http", "url": 3 },
    "good": { "command": "npx" },
    "web": { "type": "http", "url": "https://example.invalid/mcp" }
  }
}
"#,
    );
    let cfg = compile_dir(t.path(), &at_root());
    let names: Vec<&str> = cfg.mcp_servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["good", "web"], "{:#?}", cfg.diagnostics);
    let lines: Vec<u32> = diags_at(&cfg, D::McpInvalidEntry, ".mcp.json")
        .iter()
        .map(|d| lines_of(d).0)
        .collect();
    assert_eq!(lines, [3, 4, 5, 6, 7], "{:#?}", cfg.diagnostics);
    for d in diags_at(&cfg, D::McpInvalidEntry, ".mcp.json") {
        assert!(d.message.contains("skips this entry"), "{}", d.message);
    }
}

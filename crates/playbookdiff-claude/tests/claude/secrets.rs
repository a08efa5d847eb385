//! No secret value reaches the output: not from the analyser's environment,
//! not from literal values committed in `.mcp.json`.

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{AnalysisContext, DiagnosticCode};
use playbookdiff_source::{Repo, WorkingTree};
use playbookdiff_testkit::host_variable;

const LITERALS: &[&str] = &[
    "sk-live-4f9a8b7c6d5e4f3a2b1c",
    "hunter2-literal-password",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "s3cr3t-url-password",
    "query-secret-value-987",
    "Bearer-literal-abcdef123456",
    "default-secret-in-placeholder-XYZ123abc",
];

#[test]
fn no_secret_value_appears_in_json_output() {
    // A value in the analyser's own environment must never be expanded:
    // the file refers to a variable that is set in this process.
    let (name, value) = host_variable();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".mcp.json"),
        r#"{ "mcpServers": {
  "a": { "command": "node", "args": ["server.js", "--api-key", "sk-live-4f9a8b7c6d5e4f3a2b1c", "--token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
         "env": { "HOST_VALUE": "${HOST_VARIABLE}", "DB_PASSWORD": "hunter2-literal-password",
                  "WITH_DEFAULT": "${MISSING:-default-secret-in-placeholder-XYZ123abc}" } },
  "b": { "type": "http", "url": "https://user:s3cr3t-url-password@mcp.example.com/x?api_key=query-secret-value-987",
         "headers": { "Authorization": "Bearer-literal-abcdef123456", "X-Token": "${HOST_VARIABLE}" } }
} }"#
            .replace("HOST_VARIABLE", name),
    )
    .unwrap();
    let tree = WorkingTree::open(dir.path()).unwrap();
    let repo = Repo::new(&tree);
    let cfg = playbookdiff_claude::ADAPTER.compile(&repo, &AnalysisContext::at_root(), None);
    let json = serde_json::to_string_pretty(&cfg).unwrap();
    for secret in LITERALS {
        assert!(!json.contains(secret), "{secret} leaked:\n{json}");
    }
    assert!(!json.contains(&value), "{name} was expanded:\n{json}");
    // The placeholder itself is kept symbolically.
    assert!(json.contains(&format!("${{{name}}}")));
    assert!(cfg
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::McpLiteralSecret));
}

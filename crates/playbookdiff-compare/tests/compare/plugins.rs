//! An MCP server only a plugin brings, on repositories compiled by the
//! Claude Code and Codex adapters: a project plugin whose `.mcp.json`
//! names `db` gives Claude Code `plugin:kit:db` once the user registers the
//! marketplace, and Codex nothing; the comparison says so as one `info`
//! capability-gap of category `mcp` whose subject asks Codex's remedy for
//! `db`. A server some harness also configures as its own is left to the
//! MCP comparison.

use playbookdiff_compare::{
    compare, Category, Comparison, Finding, FindingSeverity, FindingType, Subject,
};
use playbookdiff_model::{Applicability, Transport};
use playbookdiff_testkit::fs::write;
use std::path::Path;

/// A marketplace at the root listing `plugins/kit`, whose `.mcp.json`
/// defines `db`, enabled in the project settings.
fn repo() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".claude-plugin/marketplace.json",
        r#"{"name": "m", "plugins": [{"name": "kit", "source": "./plugins/kit"}]}"#,
    );
    write(
        r,
        "plugins/kit/.claude-plugin/plugin.json",
        r#"{"name": "kit"}"#,
    );
    write(
        r,
        "plugins/kit/.mcp.json",
        r#"{"mcpServers": {"db": {"command": "db-mcp"}}}"#,
    );
    write(
        r,
        ".claude/settings.json",
        r#"{"enabledPlugins": {"kit@m": true}}"#,
    );
    write(r, "AGENTS.md", "# Rules\n");
    t
}

fn check(root: &Path) -> Comparison {
    let ctx = playbookdiff_testkit::at_root();
    let a = playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, root, &ctx);
    let b = playbookdiff_testkit::compile_dir(&playbookdiff_codex::ADAPTER, root, &ctx);
    compare(&[&a, &b])
}

fn plugin_findings(c: &Comparison) -> Vec<&Finding> {
    c.findings.iter().filter(|f| f.key == "db|plugin").collect()
}

/// The plugin's server is one `info` capability-gap from Claude Code,
/// absent from Codex, its evidence the plugin's `.mcp.json` (conditional:
/// the plugin waits for the user step, which the message names), its
/// subject the server `db` so Codex's remedy is a `[mcp_servers.db]`.
#[test]
fn an_mcp_server_only_a_plugin_brings_is_a_capability_gap() {
    let t = repo();
    let c = check(t.path());
    let fs = plugin_findings(&c);
    assert_eq!(fs.len(), 1, "{:#?}", c.findings);
    let f = fs[0];
    assert_eq!(f.category, Category::Mcp);
    assert_eq!(f.kind, FindingType::CapabilityGap);
    assert_eq!(f.severity, FindingSeverity::Info);
    assert_eq!(f.present_in, [playbookdiff_claude::HARNESS]);
    assert_eq!(f.absent_from, [playbookdiff_codex::HARNESS]);
    assert!(
        f.id.starts_with("mcp:capability-gap:claude-code-only:db:"),
        "{}",
        f.id
    );
    assert!(f.message.contains("`plugin:kit:db`"), "{}", f.message);
    assert!(
        f.message.contains("claude plugin marketplace add ."),
        "{}",
        f.message
    );
    assert_eq!(f.items.len(), 1);
    assert_eq!(f.items[0].source.path.as_str(), "plugins/kit/.mcp.json");
    assert_eq!(f.items[0].applicability, Applicability::Conditional);
    assert_eq!(f.absences.len(), 1);
    match &f.subject {
        Some(Subject::Mcp { name, transport }) => {
            assert_eq!(name, "db");
            assert_eq!(*transport, Transport::Unknown);
        }
        other => panic!("{other:?}"),
    }
}

/// Once the repository's `.mcp.json` configures `db` for Claude Code too,
/// the plugin's copy is no finding of its own: the MCP comparison reports
/// the server Codex lacks.
#[test]
fn a_server_also_configured_outside_the_plugin_is_compared_as_a_server() {
    let t = repo();
    write(
        t.path(),
        ".mcp.json",
        r#"{"mcpServers": {"db": {"command": "db-mcp"}}}"#,
    );
    let c = check(t.path());
    assert!(plugin_findings(&c).is_empty(), "{:#?}", c.findings);
    assert!(c.findings.iter().any(|f| f.key == "db|presence"));
}

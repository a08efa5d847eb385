//! A configuration file that starts with a UTF-8 byte order mark: each
//! adapter does what its agent was seen to do with every kind of such
//! file (oracle cases `oracle.bom_config`, `oracle.bom_claude_settings`,
//! `oracle.bom_github_mcp`, `oracle.bom_codex_hooks`; instruction files and
//! `SKILL.md`: `compare.bom_crlf_skills`, `claude.c29_bom_import_and_rule`).
//!
//! Read as if the mark were not there: Claude Code's `.mcp.json` and
//! `.claude/settings.json`, Codex's `.codex/config.toml`, OpenCode's
//! `opencode.json(c)`. Refused (`JSON.parse` or `serde_json` rejects the
//! mark): Gemini CLI's `.gemini/settings.json` (it does not start), Copilot
//! CLI's JSON files (skipped), Codex's `.codex/hooks.json` (skipped with a
//! warning).

use playbookdiff_model::{EffectiveAgentConfig, Severity};
use playbookdiff_testkit::{at_root, compile_dir};

const BOM: &str = "\u{feff}";

/// What a file with a mark gives.
enum Expect {
    /// The MCP server of this name is read.
    Server(&'static str),
    /// The output style of this name is the active one.
    Style(&'static str),
    /// A diagnostic of this code at the file, one there that names the
    /// mark, and no server or hook.
    Refused(&'static str),
}

struct Row {
    harness: &'static str,
    version: &'static str,
    files: &'static [(&'static str, &'static str)],
    marked: &'static str,
    expect: Expect,
}

const MCP_JSON: &str = r#"{"mcpServers": {"bom": {"command": "bom-server", "args": ["x"]}}}"#;

const ROWS: &[Row] = &[
    Row {
        harness: "claude-code",
        version: "2.1.332",
        files: &[(".mcp.json", MCP_JSON)],
        marked: ".mcp.json",
        expect: Expect::Server("bom"),
    },
    Row {
        harness: "claude-code",
        version: "2.1.197",
        files: &[
            (".claude/settings.json", r#"{"outputStyle": "Bom"}"#),
            (
                ".claude/output-styles/bom.md",
                "---\nname: Bom\ndescription: d\n---\nOne word.\n",
            ),
        ],
        marked: ".claude/settings.json",
        expect: Expect::Style("Bom"),
    },
    Row {
        harness: "codex",
        version: "0.171.0",
        files: &[(
            ".codex/config.toml",
            "[mcp_servers.bom]\ncommand = \"bom-server\"\n",
        )],
        marked: ".codex/config.toml",
        expect: Expect::Server("bom"),
    },
    Row {
        harness: "codex",
        version: "0.142.3",
        files: &[(
            ".codex/hooks.json",
            r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
        )],
        marked: ".codex/hooks.json",
        expect: Expect::Refused("hooks-file-invalid"),
    },
    Row {
        harness: "opencode",
        version: "1.18.33",
        files: &[(
            "opencode.jsonc",
            r#"{"mcp": {"bom": {"type": "local", "command": ["bom-server"]}}}"#,
        )],
        marked: "opencode.jsonc",
        expect: Expect::Server("bom"),
    },
    Row {
        harness: "opencode",
        version: "1.18.33",
        files: &[(
            ".opencode/opencode.json",
            r#"{"mcp": {"bom": {"type": "local", "command": ["bom-server"]}}}"#,
        )],
        marked: ".opencode/opencode.json",
        expect: Expect::Server("bom"),
    },
    Row {
        harness: "gemini",
        version: "0.34.0",
        files: &[(".gemini/settings.json", MCP_JSON)],
        marked: ".gemini/settings.json",
        expect: Expect::Refused("config-refused"),
    },
    Row {
        harness: "copilot",
        version: "1.0.102",
        files: &[(".mcp.json", MCP_JSON)],
        marked: ".mcp.json",
        expect: Expect::Refused("invalid-json"),
    },
    Row {
        harness: "copilot",
        version: "1.0.102",
        files: &[(".github/mcp.json", MCP_JSON)],
        marked: ".github/mcp.json",
        expect: Expect::Refused("invalid-json"),
    },
    Row {
        harness: "copilot",
        version: "1.0.24",
        files: &[(
            ".github/hooks/guard.json",
            r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "true"}]}}"#,
        )],
        marked: ".github/hooks/guard.json",
        expect: Expect::Refused("invalid-json"),
    },
];

fn compile(row: &Row) -> EffectiveAgentConfig {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    for (path, text) in row.files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let text = if *path == row.marked {
            format!("{BOM}{text}")
        } else {
            text.to_string()
        };
        std::fs::write(p, text).unwrap();
    }
    let adapter = playbookdiff_registry::by_id(row.harness).unwrap();
    compile_dir(adapter, dir.path(), &at_root().version(row.version))
}

/// Every kind of configuration file, with a mark, gives what the agent
/// was seen to do: read as without the mark, or refused with a
/// diagnostic at the file's line 1 that says so.
#[test]
fn a_byte_order_mark_is_handled_as_each_agent_does() {
    for row in ROWS {
        let config = compile(row);
        let what = format!("{} {} {}", row.harness, row.version, row.marked);
        match row.expect {
            Expect::Server(name) => {
                assert!(
                    config.mcp_servers.iter().any(|s| s.name == name),
                    "{what}: no server {name}: {:#?}",
                    config.diagnostics
                );
                assert!(
                    !config
                        .diagnostics
                        .iter()
                        .any(|d| d.severity != Severity::Info
                            && d.source
                                .as_ref()
                                .is_some_and(|s| s.path.as_str() == row.marked)),
                    "{what}: {:#?}",
                    config.diagnostics
                );
            }
            Expect::Style(name) => {
                assert!(
                    config
                        .output_styles
                        .iter()
                        .any(|s| s.name == name && s.active),
                    "{what}: {:#?}",
                    config.output_styles
                );
            }
            Expect::Refused(code) => {
                let d = config
                    .diagnostics
                    .iter()
                    .find(|d| d.code.as_str() == code)
                    .unwrap_or_else(|| panic!("{what}: no {code}: {:#?}", config.diagnostics));
                let source = d.source.as_ref().expect("a file");
                assert_eq!(source.path.as_str(), row.marked, "{what}");
                let says_why = config.diagnostics.iter().any(|d| {
                    d.message.contains("byte order mark")
                        && d.source
                            .as_ref()
                            .is_some_and(|s| s.path.as_str() == row.marked)
                });
                assert!(says_why, "{what}: {:#?}", config.diagnostics);
                assert!(config.mcp_servers.is_empty(), "{what}");
                assert!(config.hooks.is_empty(), "{what}");
            }
        }
    }
}

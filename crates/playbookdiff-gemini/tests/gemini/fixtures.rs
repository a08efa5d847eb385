//! What Gemini CLI receives from each fixture, per release: the facts each
//! fixture exists for (the same cases are recorded with the real agent in
//! `oracle/observations/gemini/`).

use playbookdiff_gemini::ADAPTER;
use playbookdiff_model::{
    Applicability, DiagnosticCode, EffectiveAgentConfig, LoadPhase, Transport,
};
use playbookdiff_testkit::{at_root, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// Compiles fixture `name` from `cwd` as release `version`.
fn run(name: &str, cwd: &str, version: &str) -> EffectiveAgentConfig {
    KIT.compile_dir(&KIT.fixture(name), &at_root().cwd(cwd).version(version))
}

/// The context files sent at startup, in order (imports left out).
fn startup(cfg: &EffectiveAgentConfig) -> Vec<String> {
    cfg.received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup && i.imported_from.is_none())
        .map(|i| i.source.path.to_string())
        .collect()
}

/// 0.61 sorts by absolute path (a child before its parent's file, names
/// mixed); 0.34 groups by name in `context.fileName` order, top down.
#[test]
fn order_by_release() {
    assert_eq!(
        startup(&run("abs_path_order", "Alpha", "0.61.0")),
        ["AGENTS.md", "Alpha/GEMINI.md", "GEMINI.md"]
    );
    assert_eq!(
        startup(&run("abs_path_order", "Alpha", "0.34.0")),
        ["GEMINI.md", "Alpha/GEMINI.md", "AGENTS.md"]
    );
    // A string fileName replaces GEMINI.md in 0.34 and adds to it in 0.61.
    assert_eq!(
        startup(&run("abs_path_order", "Beta", "0.34.0")),
        ["AGENTS.md", "Beta/AGENTS.md"]
    );
    assert_eq!(
        startup(&run("abs_path_order", "Beta", "0.61.0")),
        ["AGENTS.md", "Beta/AGENTS.md", "GEMINI.md"]
    );
}

/// Only the launch directory's `.gemini/settings.json` applies: from
/// `sub/` the root's fileName and MCP server do nothing. (From the root,
/// 0.34's downward search also finds `sub/AGENTS.md`, and 0.61 keeps
/// `GEMINI.md` beside the configured `AGENTS.md`.)
#[test]
fn settings_only_from_cwd() {
    for (v, at_root) in [
        ("0.34.0", &["AGENTS.md", "sub/AGENTS.md"][..]),
        ("0.61.0", &["AGENTS.md", "GEMINI.md"][..]),
    ] {
        let root = run("settings_only_cwd", ".", v);
        assert_eq!(startup(&root), at_root, "{v}");
        assert_eq!(root.mcp_servers.len(), 1, "{v}");
        let sub = run("settings_only_cwd", "sub", v);
        assert_eq!(startup(&sub), ["GEMINI.md", "sub/GEMINI.md"], "{v}");
        assert!(sub.mcp_servers.is_empty(), "{v}");
        assert!(sub
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::WorkspaceSettingsNotApplied));
    }
}

/// Imports are inlined five deep; a missing one, one in backticks and an
/// e-mail-like word are not imports (the missing one is reported).
#[test]
fn imports_five_deep() {
    for v in ["0.34.0", "0.61.0"] {
        let cfg = run("imports_depth", ".", v);
        let imported: Vec<String> = cfg
            .received_instructions()
            .into_iter()
            .filter(|i| i.imported_from.is_some())
            .map(|i| i.source.path.to_string())
            .collect();
        assert_eq!(
            imported,
            [
                "docs/a.md",
                "docs/b.md",
                "docs/c.md",
                "docs/d.md",
                "docs/e.md"
            ],
            "{v}"
        );
        let failed: Vec<&str> = cfg
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ContextImportFailed)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(failed.len(), 2, "{v}: {failed:?}");
        assert!(failed.iter().any(|m| m.contains("@docs/missing.md")));
        assert!(failed.iter().any(|m| m.contains("@f.md")));
    }
}

/// Below cwd: 0.34 sends every file its downward search finds at startup;
/// 0.61 sends none at startup and adds the target's on demand.
#[test]
fn below_cwd_by_release() {
    assert_eq!(
        startup(&run("below_cwd", ".", "0.34.0")),
        [
            "GEMINI.md",
            "other/GEMINI.md",
            "pkg/GEMINI.md",
            "pkg/deep/GEMINI.md"
        ]
    );
    assert_eq!(startup(&run("below_cwd", ".", "0.61.0")), ["GEMINI.md"]);
    let cfg = KIT.compile_dir(
        &KIT.fixture("below_cwd"),
        &at_root().target("pkg/deep/x.ts").version("0.61.0"),
    );
    let on_demand: Vec<String> = cfg
        .instructions
        .iter()
        .filter(|i| {
            i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective
        })
        .map(|i| i.source.path.to_string())
        .collect();
    assert_eq!(on_demand, ["pkg/GEMINI.md", "pkg/deep/GEMINI.md"]);
}

/// A context file below cwd that is a symbolic link: 0.34's downward
/// search takes it for no file and leaves it out (the reason says so),
/// while the upward search from a launch directory holding it follows the
/// link (recorded: `gemini.link_below_cwd`, fuzz seed 389).
#[test]
fn link_below_cwd() {
    assert_eq!(
        startup(&run("link_below_cwd", ".", "0.34.0")),
        ["GEMINI.md", "plain/GEMINI.md"]
    );
    for v in ["0.34.0", "0.61.0"] {
        assert_eq!(
            startup(&run("link_below_cwd", "linked", v)),
            ["GEMINI.md", "linked/GEMINI.md"],
            "{v}"
        );
    }
    let cfg = run("link_below_cwd", ".", "0.34.0");
    let linked = cfg
        .instructions
        .iter()
        .find(|i| i.source.path.to_string() == "linked/GEMINI.md")
        .expect("the linked file is listed");
    assert_eq!(linked.applicability, Applicability::Excluded);
    assert!(linked.reason.contains("symbolic link"), "{}", linked.reason);
}

/// `context.memoryBoundaryMarkers` stops the upward search (0.61); 0.34
/// looks for `.git` only.
#[test]
fn boundary_markers() {
    assert_eq!(
        startup(&run("boundary_markers", "pkg", "0.61.0")),
        ["pkg/GEMINI.md"]
    );
    assert_eq!(
        startup(&run("boundary_markers", "pkg", "0.34.0")),
        ["GEMINI.md", "pkg/GEMINI.md"]
    );
}

/// Skills of cwd's `.gemini/skills` and `.agents/skills` only; `.agents`
/// wins a clash; `.claude/skills` is ignored; a skill without a
/// description is skipped.
#[test]
fn skills_of_cwd_only() {
    let cfg = run("skills_cwd_only", ".", "0.61.0");
    let effective: Vec<(String, String)> = cfg
        .skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective)
        .map(|s| (s.name.clone(), s.source.path.to_string()))
        .collect();
    assert_eq!(
        effective,
        [
            (
                "alpha".to_string(),
                ".agents/skills/alpha/SKILL.md".to_string()
            ),
            (
                "beta".to_string(),
                ".agents/skills/beta/SKILL.md".to_string()
            ),
        ]
    );
    let sub = run("skills_cwd_only", "sub", "0.61.0");
    let names: Vec<&str> = sub
        .skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["delta"]);
}

/// A settings file with a trailing comma stops Gemini CLI: an error at
/// its line, and nothing is received.
#[test]
fn malformed_settings_refuse() {
    let cfg = run("malformed_settings", ".", "0.61.0");
    let err = cfg
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::InvalidJson)
        .expect("invalid-json");
    assert_eq!(
        err.source.as_ref().and_then(|s| s.lines).map(|l| l.start),
        Some(2)
    );
    assert!(cfg.received_instructions().is_empty());
}

/// MCP servers of the launch directory's settings: a command is stdio,
/// `httpUrl` and a bare `url` are HTTP, `mcp.excluded` blocks one, an entry
/// without command or url is kept (it never connects) and reported; from
/// `sub/` none apply.
#[test]
fn mcp_servers_of_cwd() {
    for v in ["0.34.0", "0.61.0"] {
        let cfg = run("mcp_servers", ".", v);
        let servers: Vec<(String, Transport, Applicability)> = cfg
            .mcp_servers
            .iter()
            .map(|s| (s.name.clone(), s.transport, s.applicability))
            .collect();
        assert_eq!(
            servers,
            [
                (
                    "broken".to_string(),
                    Transport::Unknown,
                    Applicability::Effective
                ),
                (
                    "docs".to_string(),
                    Transport::Stdio,
                    Applicability::Effective
                ),
                (
                    "events".to_string(),
                    Transport::Http,
                    Applicability::Effective
                ),
                ("off".to_string(), Transport::Stdio, Applicability::Excluded),
                ("web".to_string(), Transport::Http, Applicability::Effective),
            ],
            "{v}"
        );
        assert!(
            cfg.diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::McpInvalidEntry
                    && d.message.contains("\"broken\""))
        );
        assert!(run("mcp_servers", "sub", v).mcp_servers.is_empty(), "{v}");
    }
}

/// Commands (named with `:` for each folder) are user-invoked items never
/// sent to the model; `plan.toml` runs as `/workspace.plan`, the built-in
/// `/plan` holding its name (seen with both releases); a repository's
/// extensions are reported, ignored.
#[test]
fn commands_are_items_and_extensions_are_reported() {
    for v in ["0.34.0", "0.61.0"] {
        let cfg = run("extras", ".", v);
        let names: Vec<(&str, bool)> = cfg
            .commands
            .iter()
            .map(|c| (c.name.as_str(), c.listed_to_model))
            .collect();
        assert_eq!(
            names,
            [("git:commit", false), ("workspace.plan", false)],
            "{v}"
        );
        assert!(cfg.commands[1].reason.contains("built-in command `/plan`"));
        assert_eq!(cfg.commands[0].description.as_deref(), Some("Commit"));
        let said: Vec<&str> = cfg
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ItemNotModelled)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(said.len(), 1, "{v}: only the extensions: {said:#?}");
        assert!(said[0].contains("extensions only from"), "{v}");
        assert_eq!(startup(&cfg), ["GEMINI.md"], "{v}");
    }
}

/// `file_name_edges`: `context.fileName` at its edges, from each folder
/// holding its own settings (recorded with 0.34.0 and 0.61.0, cases
/// `gemini.file_name_edges.in-*`). A list of blank names replaces
/// `GEMINI.md` in 0.34, so nothing loads, while 0.61 drops the blank names
/// and keeps `GEMINI.md`; a list holding a number stops both releases.
#[test]
fn file_name_edges_by_release() {
    assert!(startup(&run("file_name_edges", "blank", "0.34.0")).is_empty());
    assert_eq!(
        startup(&run("file_name_edges", "blank", "0.61.0")),
        ["GEMINI.md", "blank/GEMINI.md"]
    );
    for v in ["0.34.0", "0.61.0"] {
        let cfg = run("file_name_edges", "nonstring", v);
        assert!(
            cfg.diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::ConfigRefused),
            "{v}"
        );
        let bad = cfg
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::InvalidValue)
            .expect("the value is reported");
        assert_eq!(
            bad.source.as_ref().map(|s| s.path.as_str()),
            Some("nonstring/.gemini/settings.json"),
            "{v}"
        );
    }
}

/// `agent_schema`: both releases list only the subagents whose front
/// matter Gemini CLI's strict schema of a local agent accepts (a slug
/// `name`, a non-empty `description`, typed optional keys and no other),
/// skip `_draft.md` and the symbolic link silently, refuse a file that
/// starts with a byte-order mark or whose front matter `...` closes, take
/// `----` as the closing fence and `yes` as text (recorded with 0.34.0 and
/// 0.61.0, case `gemini.agent_schema`); each refused file is a diagnostic,
/// the remote agent one that says it is not modelled.
#[test]
fn subagents_as_the_schema_accepts_them() {
    for v in ["0.34.0", "0.61.0"] {
        let cfg = run("agent_schema", ".", v);
        let names: Vec<&str> = cfg.subagents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(
            names,
            ["four-dashes", "good", "snake_case-1", "yes-desc"],
            "{v}"
        );
        assert_eq!(cfg.subagents[3].description.as_deref(), Some("yes"), "{v}");
        let refused: Vec<&str> = cfg
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::SubagentInvalid)
            .filter_map(|d| d.source.as_ref().and_then(|s| s.path.file_name()))
            .collect();
        assert_eq!(
            refused,
            [
                "bom.md",
                "dots.md",
                "empty-desc.md",
                "extra-key.md",
                "has-space.md",
                "hot.md",
                "null-model.md",
                "upper.md",
                "zero-turns.md"
            ],
            "{v}"
        );
        assert!(cfg
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::ItemNotModelled && d.message.contains("remote.md")));
    }
}

/// `agents_commands`: with `experimental.enableAgents` both releases load
/// the subagent files with a name and a description (`conditional` on the
/// user's acknowledgement), skip the one without a description and the
/// file that is not `.md`; the commands are the `.toml` files that parse,
/// named by folder, `plan` renamed as the built-in `/plan` holds it, a
/// malformed one (added to a copy) a diagnostic with its line, and so is
/// each file whose `prompt` or `description` is missing or not a string.
#[test]
fn agents_and_commands_as_the_agent_loads_them() {
    let dir = playbookdiff_testkit::copy_to_temp(&KIT.fixture("agents_commands"));
    std::fs::write(
        dir.path().join(".gemini/commands/broken.toml"),
        "prompt = \"no closing quote\n",
    )
    .unwrap();
    // Valid TOML that `TomlCommandDefSchema` refuses (the fuzzer's
    // `description = "d"`): no `prompt`, or a `prompt` or `description`
    // that is not a string.
    for (file, text) in [
        ("noprompt.toml", "description = \"d\"\n"),
        ("numprompt.toml", "prompt = 3\n"),
        ("numdesc.toml", "prompt = \"p\"\ndescription = 1\n"),
    ] {
        std::fs::write(dir.path().join(".gemini/commands").join(file), text).unwrap();
    }
    for v in ["0.34.0", "0.61.0"] {
        let cfg = KIT.compile_dir(dir.path(), &at_root().version(v));
        let agents: Vec<(&str, Applicability)> = cfg
            .subagents
            .iter()
            .map(|a| (a.name.as_str(), a.applicability))
            .collect();
        assert_eq!(
            agents,
            [
                ("reviewer", Applicability::Conditional),
                ("tester", Applicability::Conditional)
            ],
            "{v}"
        );
        let commands: Vec<&str> = cfg.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(commands, ["deploy:staging", "workspace.plan"], "{v}");
        let bad = cfg
            .diagnostics
            .iter()
            .find(|d| {
                d.source
                    .as_ref()
                    .is_some_and(|s| s.path.as_str().ends_with("broken.toml"))
            })
            .expect("the malformed command is reported");
        assert_eq!(
            bad.source.as_ref().and_then(|s| s.lines).map(|l| l.start),
            Some(1)
        );
        // Skipped, not refused: the agent starts (fuzzer seed 216).
        assert_eq!(bad.severity, playbookdiff_model::Severity::Warning, "{v}");
        assert!(cfg
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::SubagentInvalid
                && d.message.contains("nodescription.md")));
        let refused: Vec<&str> = cfg
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::InvalidValue)
            .filter_map(|d| d.source.as_ref().and_then(|s| s.path.file_name()))
            .collect();
        assert_eq!(
            refused,
            ["noprompt.toml", "numdesc.toml", "numprompt.toml"],
            "{v}"
        );
    }
}

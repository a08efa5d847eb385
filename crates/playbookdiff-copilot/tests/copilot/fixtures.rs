//! What Copilot CLI receives from each fixture, per release: the facts
//! each fixture exists for, as seen in the first model request of Copilot
//! CLI 1.0.102 and 1.0.24 run on the same fixtures.

use playbookdiff_copilot::ADAPTER;
use playbookdiff_model::{
    Applicability, DiagnosticCode, EffectiveAgentConfig, LoadPhase, Transport,
};
use playbookdiff_testkit::{at_root, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));
const NEW: &str = "1.0.102";
const OLD: &str = "1.0.24";

/// Compiles fixture `name` from `cwd` as release `version`.
fn run(name: &str, cwd: &str, version: &str) -> EffectiveAgentConfig {
    KIT.compile_dir(&KIT.fixture(name), &at_root().cwd(cwd).version(version))
}

/// The files sent at startup, in order (imports left out).
fn startup(cfg: &EffectiveAgentConfig) -> Vec<String> {
    cfg.received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup && i.imported_from.is_none())
        .map(|i| i.source.path.to_string())
        .collect()
}

/// The applicability of the entry of `path`.
fn state(cfg: &EffectiveAgentConfig, path: &str) -> Option<(LoadPhase, Applicability)> {
    cfg.instruction_at(path)
        .map(|i| (i.load_phase, i.applicability))
}

/// Both releases: root's copilot-instructions, then the root's and cwd's
/// AGENTS/CLAUDE/GEMINI (case-insensitive), then the directories between
/// closest first; an identical GEMINI.md is left out; no `.claude/CLAUDE.md`
/// of the root or cwd; nothing below cwd at start.
#[test]
fn always_on_order_from_a_subdirectory() {
    for v in [NEW, OLD] {
        let cfg = run("instruction_chain", "a/b", v);
        assert_eq!(
            startup(&cfg),
            [
                ".github/copilot-instructions.md",
                "AGENTS.md",
                "CLAUDE.md",
                "a/b/agents.md",
                "a/.github/copilot-instructions.md",
                "a/AGENTS.md",
            ],
            "{v}"
        );
        assert_eq!(
            state(&cfg, "GEMINI.md").map(|s| s.1),
            Some(Applicability::Shadowed),
            "identical text"
        );
        for p in [".claude/CLAUDE.md", "a/b/.claude/CLAUDE.md"] {
            assert_eq!(
                state(&cfg, p).map(|s| s.1),
                Some(Applicability::OutOfScope),
                "{p}"
            );
        }
    }
}

/// Below cwd: 1.0.102 injects on view (effective for a target there),
/// 1.0.24 never.
#[test]
fn below_cwd_by_release() {
    let ctx = at_root().cwd("a/b").target("a/b/c/main.rs");
    let new = KIT.compile_dir(&KIT.fixture("instruction_chain"), &ctx.clone().version(NEW));
    assert_eq!(
        state(&new, "a/b/c/AGENTS.md"),
        Some((LoadPhase::OnDemand, Applicability::Effective))
    );
    let old = KIT.compile_dir(&KIT.fixture("instruction_chain"), &ctx.version(OLD));
    assert_eq!(
        state(&old, "a/b/c/AGENTS.md").map(|s| s.1),
        Some(Applicability::Excluded)
    );
}

/// 1.0.102 inlines `@docs/extra.md`, `applyTo: "**"` and unscoped files
/// and rules, and puts specific globs on demand; 1.0.24 inlines every
/// instruction file with the pattern prefix, no import, no rule.
#[test]
fn path_instructions_by_release() {
    let new = run("path_instructions", ".", NEW);
    assert_eq!(
        startup(&new),
        [
            "AGENTS.md",
            ".github/instructions/all.instructions.md",
            ".github/instructions/plain.instructions.md",
            ".claude/rules/terse.md",
        ]
    );
    let imported: Vec<&str> = new
        .received_instructions()
        .into_iter()
        .filter(|i| i.imported_from.is_some())
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(imported, ["docs/extra.md"]);
    for p in [
        ".github/instructions/nested/src.instructions.md",
        ".github/instructions/python.instructions.md",
        ".claude/rules/src.md",
    ] {
        assert_eq!(
            state(&new, p),
            Some((LoadPhase::OnDemand, Applicability::Conditional)),
            "{p}"
        );
    }
    let all = new
        .instruction_at(".github/instructions/all.instructions.md")
        .unwrap();
    assert!(all.content.starts_with("---\napplyTo"), "front matter sent");

    let old = run("path_instructions", ".", OLD);
    assert_eq!(
        old.received_instructions()
            .iter()
            .filter(|i| i.imported_from.is_some())
            .count(),
        0
    );
    assert!(old.instruction_at(".claude/rules/terse.md").is_none());
    let src = old
        .instruction_at(".github/instructions/nested/src.instructions.md")
        .unwrap();
    assert_eq!(src.applicability, Applicability::Effective);
    assert!(src
        .content
        .starts_with("This instruction applies to files matching the pattern: src/**"));
}

/// A target matching `applyTo` makes the file effective on demand.
#[test]
fn target_matching_apply_to() {
    let ctx = at_root().target("src/main.rs").version(NEW);
    let cfg = KIT.compile_dir(&KIT.fixture("path_instructions"), &ctx);
    assert_eq!(
        state(&cfg, ".github/instructions/nested/src.instructions.md"),
        Some((LoadPhase::OnDemand, Applicability::Effective))
    );
    assert_eq!(
        state(&cfg, ".github/instructions/python.instructions.md").map(|s| s.1),
        Some(Applicability::Conditional)
    );
}

/// Skills from `.github`, `.agents`, `.claude` and commands as skills; the
/// same from `sub/`.
#[test]
fn skills_and_commands() {
    for cwd in [".", "sub"] {
        let cfg = run("skills_agents_mcp", cwd, NEW);
        let names: Vec<&str> = cfg.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["alpha", "beta", "gamma", "deploy"], "{cwd}");
    }
}

/// 1.0.102: `.mcp.json` wins over `.github/mcp.json`, which applies alone;
/// 1.0.24: a `command` entry without `args` drops the whole `.mcp.json`,
/// and `.github/mcp.json` is never read.
#[test]
fn mcp_by_release() {
    let effective = |cfg: &EffectiveAgentConfig| -> Vec<String> {
        cfg.mcp_servers
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.clone())
            .collect()
    };
    let new = run("skills_agents_mcp", ".", NEW);
    assert_eq!(effective(&new), ["no-args", "remote", "with-args"]);
    assert_eq!(
        new.mcp_server("github-only").map(|s| s.applicability),
        Some(Applicability::Shadowed)
    );
    assert_eq!(new.mcp_server("remote").unwrap().transport, Transport::Http);
    let old = run("skills_agents_mcp", ".", OLD);
    assert!(effective(&old).is_empty());
    assert_eq!(
        effective(&run("github_mcp_only", ".", NEW)),
        ["github-only"]
    );
    assert!(effective(&run("github_mcp_only", ".", OLD)).is_empty());
}

/// Only prompt files are left as `item-not-modelled`: custom agents and
/// hooks are items (module `hooks_agents`).
#[test]
fn only_prompt_files_are_not_modelled() {
    for v in [NEW, OLD] {
        let cfg = run("skills_agents_mcp", ".", v);
        let at: Vec<String> = cfg
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ItemNotModelled)
            .filter_map(|d| d.source.as_ref().map(|s| s.path.to_string()))
            .collect();
        assert_eq!(at, [".github/prompts/p.prompt.md"], "{v}");
    }
}

/// Malformed files are diagnostics with file and 1-based line.
#[test]
fn malformed_files_name_file_and_line() {
    let cfg = run("malformed", ".", NEW);
    let json = cfg
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::InvalidJson)
        .expect("invalid .mcp.json");
    let src = json.source.as_ref().unwrap();
    assert_eq!(src.path.as_str(), ".mcp.json");
    assert_eq!(src.lines.map(|l| l.start), Some(3));
    let yaml = cfg
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::InvalidYaml)
        .expect("invalid front matter");
    assert_eq!(
        yaml.source.as_ref().unwrap().path.as_str(),
        ".github/instructions/bad.instructions.md"
    );
    assert!(yaml.source.as_ref().unwrap().lines.is_some());
    // Copilot CLI 1.0.102 then reads `applyTo` from its line: the file is
    // listed for the glob `[unclosed`, on demand.
    let bad = cfg
        .instruction_at(".github/instructions/bad.instructions.md")
        .unwrap();
    assert_eq!(bad.load_phase, LoadPhase::OnDemand);
    assert_eq!(bad.paths.as_deref(), Some(&["[unclosed".to_string()][..]));
}

/// A `CLAUDE.md` that only imports `AGENTS.md` (Claude Code's bridge):
/// 1.0.102 sends `AGENTS.md` and then again inside `CLAUDE.md`; 1.0.24
/// sends `AGENTS.md` and the token `@AGENTS.md` as written.
#[test]
fn claude_bridge_by_release() {
    let new = run("claude_bridge", ".", NEW);
    let sent: Vec<&str> = new
        .received_instructions()
        .into_iter()
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(sent, ["AGENTS.md", "CLAUDE.md", "AGENTS.md"]);
    let imported = new.received_instructions()[2];
    assert!(imported.imported_from.is_some());
    assert!(imported.reason.contains("twice"), "{}", imported.reason);
    let old = run("claude_bridge", ".", OLD);
    assert_eq!(startup(&old), ["AGENTS.md", "CLAUDE.md"]);
    assert_eq!(
        old.instruction_at("CLAUDE.md").unwrap().content.trim(),
        "@AGENTS.md"
    );
}

/// Writes `files` (path, text) into a fresh directory.
fn repo_of(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// Facts seen on corpus repositories (cases `corpus.biomejs__biome`,
/// `corpus.humanlayer__humanlayer`, `corpus.CharlesWiltgen__Axiom.in-axiom-codex`):
/// 1.0.24 sends `&`, `<`, `>` as entities, 1.0.102 as written; a command
/// file whose front matter does not open it is not a skill; the launch
/// directory's own `.mcp.json` applies.
#[test]
fn entities_commands_and_the_launch_directory_mcp_file() {
    let dir = repo_of(&[
        ("AGENTS.md", "> [!NOTE]\n> a <b> & c\n"),
        (
            ".claude/commands/good.md",
            "---\ndescription: Good.\n---\nGo.\n",
        ),
        (
            ".claude/commands/late.md",
            "\n---\ndescription: Late.\n---\nGo.\n",
        ),
        (
            "tool/.mcp.json",
            "{\"mcpServers\": {\"t\": {\"command\": \"t\", \"args\": []}}}\n",
        ),
        ("tool/AGENTS.md", "Tool.\n"),
    ]);
    let compile = |cwd: &str, v: &str| KIT.compile_dir(dir.path(), &at_root().cwd(cwd).version(v));
    let old = compile(".", OLD);
    assert_eq!(
        old.instruction_at("AGENTS.md").unwrap().content,
        "&gt; [!NOTE]\n&gt; a &lt;b&gt; &amp; c\n"
    );
    let new = compile(".", NEW);
    assert_eq!(
        new.instruction_at("AGENTS.md").unwrap().content,
        "> [!NOTE]\n> a <b> & c\n"
    );
    for cfg in [&old, &new] {
        let listed: Vec<&str> = cfg
            .skills
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(listed, ["good"]);
        assert!(cfg.mcp_servers.is_empty(), "no server from the root");
    }
    for v in [OLD, NEW] {
        let names: Vec<String> = compile("tool", v)
            .mcp_servers
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.clone())
            .collect();
        assert_eq!(names, ["t"], "{v}");
    }
}

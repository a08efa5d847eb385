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

/// The `task` tool lists the repository's custom agents from 1.0.12 on;
/// 1.0.11 lists none (bisected on this fixture: `helper` and `reviewer`
/// listed by 1.0.12, not by 1.0.11; the releases before 1.0.11: module
/// `older`).
#[test]
fn custom_agents_listed_from_1_0_12() {
    let listed = |v: &str| -> Vec<String> {
        let cfg = run("skills_agents_mcp", ".", v);
        let mut names: Vec<String> = cfg
            .subagents
            .iter()
            .filter(|a| a.applicability == Applicability::Effective && a.listed_by.is_some())
            .map(|a| a.name.clone())
            .collect();
        names.sort();
        names
    };
    assert_eq!(listed("1.0.12"), ["helper", "reviewer"]);
    assert!(listed("1.0.11").is_empty());
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
/// 1.0.24 sends `&`, `<`, `>` as entities (seen on case
/// `oracle.copilot_markdown_filter`: `a < b && c > d`), 1.0.102 as written; a command
/// file whose front matter does not open it is not a skill; the launch
/// directory's own `.mcp.json` applies.
#[test]
fn entities_commands_and_the_launch_directory_mcp_file() {
    let dir = repo_of(&[
        ("AGENTS.md", "> [!NOTE]\n> a < b && c > d\n"),
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
        "&gt; [!NOTE]\n&gt; a &lt; b &amp;&amp; c &gt; d\n"
    );
    let new = compile(".", NEW);
    assert_eq!(
        new.instruction_at("AGENTS.md").unwrap().content,
        "> [!NOTE]\n> a < b && c > d\n"
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

/// The skills listed (effective), as `name path`, sorted.
fn listed(cfg: &EffectiveAgentConfig) -> Vec<String> {
    let mut v: Vec<String> = cfg
        .skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective)
        .map(|s| format!("{} {}", s.name, s.source.path))
        .collect();
    v.sort();
    v
}

/// Seen with both releases on case `oracle.copilot_skill_rules`, one
/// change per skill: front matter that does not parse, a description over
/// 1024 UTF-16 units, a field of the wrong type, or a name outside the
/// release's characters drops the skill, each with `skill-field-invalid`;
/// 1.0.24 reads one level and lists dot folders, 1.0.102 searches deeper,
/// skips dot folders and accepts `:` in a name.
#[test]
fn skill_front_matter_names_and_search() {
    let skill = |name: &str, extra: &str| {
        format!("---\nname: {name}\ndescription: A skill.\n{extra}---\n\nBody.\n")
    };
    let long = format!("---\nname: long\ndescription: {}\n---\n", "é".repeat(1025));
    let files = [
        (
            ".agents/skills/ok/SKILL.md",
            skill("ok", "allowed-tools: Read, Write\n"),
        ),
        (
            ".agents/skills/colon/SKILL.md",
            "---\nname: colon\ndescription: Covers this: a colon.\n---\n".to_string(),
        ),
        (".agents/skills/long/SKILL.md", long),
        (
            ".agents/skills/typed/SKILL.md",
            skill("typed", "user-invocable: \"no\"\n"),
        ),
        (".agents/skills/umlaut/SKILL.md", skill("über", "")),
        (".agents/skills/lead/SKILL.md", skill("\"-lead\"", "")),
        (".agents/skills/ns/SKILL.md", skill("\"ns:tool\"", "")),
        (".agents/skills/.dot/SKILL.md", skill("dot", "")),
        (".agents/skills/group/deep/SKILL.md", skill("deep", "")),
        (".agents/skills/group/clash/SKILL.md", skill("clash", "")),
        (".claude/skills/clash/SKILL.md", skill("clash", "")),
    ];
    let owned: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let dir = repo_of(&owned);
    let compile = |v: &str| KIT.compile_dir(dir.path(), &at_root().version(v));
    let old = compile(OLD);
    assert_eq!(
        listed(&old),
        [
            "clash .claude/skills/clash/SKILL.md",
            "dot .agents/skills/.dot/SKILL.md",
            "ok .agents/skills/ok/SKILL.md",
        ]
    );
    let new = compile(NEW);
    assert_eq!(
        listed(&new),
        [
            "clash .agents/skills/group/clash/SKILL.md",
            "deep .agents/skills/group/deep/SKILL.md",
            "ns:tool .agents/skills/ns/SKILL.md",
            "ok .agents/skills/ok/SKILL.md",
        ]
    );
    let refused = |cfg: &EffectiveAgentConfig| {
        cfg.diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::SkillFieldInvalid)
            .count()
    };
    // colon (YAML), long, typed, umlaut, lead; 1.0.24 also ns.
    assert_eq!(refused(&new), 5);
    assert_eq!(refused(&old), 6);
}

/// Seen with both releases on case `oracle.copilot_rule_links.in-sub-deeper`:
/// path-specific files are read in the git root and in the launch
/// directory, not in the directories between (`.claude/rules` by 1.0.102
/// only).
#[test]
fn path_specific_files_of_the_root_and_the_launch_directory() {
    let dir = repo_of(&[
        (".github/instructions/root.instructions.md", "Root.\n"),
        (
            "sub/.github/instructions/between.instructions.md",
            "Between.\n",
        ),
        ("sub/.claude/rules/between.md", "Between rule.\n"),
        (
            "sub/deeper/.github/instructions/cwd.instructions.md",
            "Cwd.\n",
        ),
        ("sub/deeper/.claude/rules/cwd.md", "Cwd rule.\n"),
    ]);
    let compile = |v: &str| KIT.compile_dir(dir.path(), &at_root().cwd("sub/deeper").version(v));
    let sent = |cfg: &EffectiveAgentConfig| -> Vec<String> {
        startup(cfg)
            .into_iter()
            .filter(|p| p.contains(".github/instructions/") || p.contains(".claude/rules/"))
            .collect()
    };
    assert_eq!(
        sent(&compile(OLD)),
        [
            ".github/instructions/root.instructions.md",
            "sub/deeper/.github/instructions/cwd.instructions.md",
        ]
    );
    assert_eq!(
        sent(&compile(NEW)),
        [
            ".github/instructions/root.instructions.md",
            "sub/deeper/.github/instructions/cwd.instructions.md",
            "sub/deeper/.claude/rules/cwd.md",
        ]
    );
}

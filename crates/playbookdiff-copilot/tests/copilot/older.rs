//! The releases before 1.0.11: the facts bisected between the first
//! modelled release and 1.0.11, each asserted on the fixture (or the
//! oracle fixture) it was bisected on, at the last release without it
//! and the first with it.

use playbookdiff_copilot::ADAPTER;
use playbookdiff_model::{Applicability, EffectiveAgentConfig, LoadPhase, Verdict};
use playbookdiff_testkit::{at_root, Kit};
use std::path::PathBuf;

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// Compiles fixture `name` from `cwd` as release `version`.
fn run(name: &str, cwd: &str, version: &str) -> EffectiveAgentConfig {
    KIT.compile_dir(&KIT.fixture(name), &at_root().cwd(cwd).version(version))
}

/// Compiles the oracle fixture `name` (`oracle/fixtures/NAME`) from its
/// root as release `version`.
fn run_oracle(name: &str, version: &str) -> EffectiveAgentConfig {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures")
        .join(name);
    KIT.compile_dir(&dir, &at_root().version(version))
}

/// The files sent at startup, in order (imports left out).
fn startup(cfg: &EffectiveAgentConfig) -> Vec<String> {
    cfg.received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup && i.imported_from.is_none())
        .map(|i| i.source.path.to_string())
        .collect()
}

/// The files of the directories between the git root and the launch
/// directory are sent from 1.0.11 on; 1.0.10 sends those of the root and
/// of `a/b` (case `copilot.instruction_chain.in-a-b`), and 0.0.410, which
/// finds the names only as written, not `a/b/agents.md` (as 0.0.403 was
/// seen to).
#[test]
fn ancestors_from_1_0_11_and_names_in_any_case_from_0_0_411() {
    let root = [".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md"];
    let cfg = run("instruction_chain", "a/b", "1.0.10");
    assert_eq!(startup(&cfg), [&root[..], &["a/b/agents.md"]].concat());
    for p in ["a/AGENTS.md", "a/.github/copilot-instructions.md"] {
        let e = cfg.instruction_at(p).expect(p);
        assert_eq!(e.applicability, Applicability::OutOfScope, "{p}");
        assert!(e.reason.contains("from 1.0.11 on"), "{}", e.reason);
    }
    assert_eq!(
        startup(&run("instruction_chain", "a/b", "0.0.411")).len(),
        4
    );
    assert_eq!(startup(&run("instruction_chain", "a/b", "0.0.410")), root);
    let variants = |v| startup(&run_oracle("name_case_variants", v));
    assert!(variants("0.0.410").is_empty());
    assert_eq!(variants("0.0.411"), ["Agents.md", "claude.md"]);
}

/// Path-specific files with a specific `applyTo` are listed in a table
/// to view up to 1.0.3, inlined from 1.0.6 to 1.0.30, listed again from
/// 1.0.32 (case `copilot.path_instructions`).
#[test]
fn path_instructions_on_demand_before_1_0_6() {
    let table = |v| -> Vec<String> {
        let cfg = run("path_instructions", ".", v);
        let mut t: Vec<String> = cfg
            .instructions
            .iter()
            .filter(|i| i.load_phase == LoadPhase::OnDemand && i.paths.is_some())
            .map(|i| i.source.path.to_string())
            .collect();
        t.sort();
        t
    };
    let listed = [
        ".github/instructions/nested/src.instructions.md",
        ".github/instructions/python.instructions.md",
    ];
    assert_eq!(table("1.0.3"), listed);
    assert!(table("1.0.6").is_empty());
    assert_eq!(table("1.0.32"), listed);
}

/// The `task` tool lists the custom agents before 1.0.11 and from 1.0.12
/// on; 1.0.11 alone lists none (case `copilot.skills_agents_mcp`).
#[test]
fn custom_agents_unlisted_by_1_0_11_alone() {
    let listed = |v: &str| {
        run("skills_agents_mcp", ".", v)
            .subagents
            .iter()
            .filter(|a| a.applicability == Applicability::Effective && a.listed_by.is_some())
            .count()
    };
    assert_eq!(listed("1.0.10"), 2);
    assert_eq!(listed("1.0.11"), 0);
    assert_eq!(listed("1.0.12"), 2);
    assert_eq!(listed("0.0.372"), 0);
    assert_eq!(listed("0.0.376"), 1);
}

/// Before 0.0.410 a skill needs a `name` of ASCII letters, digits and `-`
/// anywhere (case `oracle.copilot_skill_rules`: `-lead` listed, `a.b_c`
/// and `no-fm-name` not); from 0.0.410 on the folder names a skill without
/// one, and a name may hold `.` and `_` but not start with `-`.
#[test]
fn skill_names_before_and_after_0_0_410() {
    let names = |v| -> Vec<String> {
        run_oracle("copilot_skill_rules", v)
            .skills
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.clone())
            .collect()
    };
    let has = |v, n: &str| names(v).iter().any(|x| x == n);
    assert!(has("0.0.409", "-lead") && !has("0.0.409", "a.b_c") && !has("0.0.409", "no-fm-name"));
    assert!(!has("0.0.410", "-lead") && has("0.0.410", "a.b_c") && has("0.0.410", "no-fm-name"));
}

/// Before 1.0.6 a hooks file holding a Claude Code group (`matcher` and
/// `hooks`) is refused whole: none of its hooks runs (case
/// `copilot.hook_matchers.read-src-a.txt`, 0.0.403 fired none).
#[test]
fn a_group_refuses_its_hooks_file_before_1_0_6() {
    let runs = |v| -> Vec<bool> {
        run_oracle("copilot_hook_matchers", v)
            .hooks
            .iter()
            .filter(|h| h.source.path.as_str() == ".github/hooks/matchers.json")
            .map(|h| matches!(h.runs, Verdict::Yes))
            .collect()
    };
    let before = runs("1.0.3");
    assert!(!before.is_empty() && before.iter().all(|r| !r));
    assert!(runs("1.0.6").iter().all(|r| *r));
}

/// Of `AGENTS.md` and `GEMINI.md` of one directory with one text, 0.0.390
/// sends both, 0.0.394 the first alone (case `copilot.instruction_chain`).
#[test]
fn named_repeats_left_out_from_0_0_394() {
    let sent = [".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md"];
    let old = run("instruction_chain", ".", "0.0.390");
    assert_eq!(startup(&old), [&sent[..], &["GEMINI.md"]].concat());
    assert_eq!(startup(&run("instruction_chain", ".", "0.0.394")), sent);
}

/// Up to 0.0.384 one source is sent: the git root's
/// `.github/copilot-instructions.md` before its `AGENTS.md` (case
/// `copilot.instruction_chain`, seen with 0.0.376 and 0.0.384), else
/// `AGENTS.md` (case `copilot.path_instructions`); the launch directory's
/// `AGENTS.md` is listed in a table for its directory; 0.0.388 sends every
/// file as a block.
#[test]
fn one_source_before_0_0_388() {
    let chain = run("instruction_chain", ".", "0.0.384");
    assert_eq!(startup(&chain), [".github/copilot-instructions.md"]);
    let agents = chain.instruction_at("AGENTS.md").expect("AGENTS.md");
    assert_eq!(agents.applicability, Applicability::Shadowed);
    assert_eq!(startup(&run("instruction_chain", ".", "0.0.388")).len(), 4);
    let paths = run("path_instructions", ".", "0.0.376");
    assert_eq!(startup(&paths)[0], "AGENTS.md");
    let deep = run("instruction_chain", "a/b/c", "0.0.384");
    let nested = deep.instruction_at("a/b/c/AGENTS.md").expect("nested");
    assert_eq!(nested.load_phase, LoadPhase::OnDemand);
    assert_eq!(nested.paths.as_deref(), Some(&["a/b/c/".to_string()][..]));
    let between = deep.instruction_at("a/AGENTS.md").expect("a/AGENTS.md");
    assert_eq!(between.applicability, Applicability::OutOfScope);
}

/// Claude Code's custom agents and commands are read from 0.0.399 on,
/// `.agents/skills` from 0.0.401 on (case `copilot.skills_agents_mcp`).
#[test]
fn claude_agents_and_commands_from_0_0_399_agents_skills_from_0_0_401() {
    let cfg = |v| run("skills_agents_mcp", ".", v);
    let agents = |v| -> Vec<String> {
        let mut a: Vec<String> = cfg(v)
            .subagents
            .iter()
            .filter(|a| a.applicability == Applicability::Effective)
            .map(|a| a.name.clone())
            .collect();
        a.sort();
        a
    };
    let skills = |v| -> Vec<String> {
        let mut s: Vec<String> = cfg(v)
            .skills
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.clone())
            .collect();
        s.sort();
        s
    };
    assert_eq!(agents("0.0.394"), ["reviewer"]);
    assert_eq!(agents("0.0.399"), ["helper", "reviewer"]);
    assert_eq!(skills("0.0.394"), ["alpha", "gamma"]);
    assert_eq!(skills("0.0.399"), ["alpha", "deploy", "gamma"]);
    assert_eq!(skills("0.0.401"), ["alpha", "beta", "deploy", "gamma"]);
}

/// 0.0.369 reads no skill, 0.0.370 does (case `copilot.skills_agents_mcp`);
/// a skill whose `user-invocable` is not true or false is listed by
/// 0.0.388, not by 0.0.389 (case `oracle.copilot_skill_rules`: `bad-type`).
#[test]
fn skills_from_0_0_370_flags_checked_from_0_0_389() {
    let listed = |cfg: EffectiveAgentConfig| -> Vec<String> {
        cfg.skills
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.clone())
            .collect()
    };
    assert!(listed(run("skills_agents_mcp", ".", "0.0.369")).is_empty());
    assert_eq!(
        listed(run("skills_agents_mcp", ".", "0.0.370")),
        ["alpha", "gamma"]
    );
    let bad = |v| {
        listed(run_oracle("copilot_skill_rules", v))
            .iter()
            .any(|n| n == "bad-type")
    };
    assert!(bad("0.0.388") && !bad("0.0.389"));
}

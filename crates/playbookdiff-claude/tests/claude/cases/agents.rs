//! Subagents (`.claude/agents`), output styles (`.claude/output-styles`
//! and `outputStyle`) and plugins enabled in project settings, on fixture
//! `subagents_and_styles` (recorded with 2.1.197 and 2.1.332: `init.agents`
//! `helper`, `review`, `typo`; the request lists each as `- name:
//! description (Tools: ...)`; `# Output Style: Terse` from the root, none
//! from `a`; the plugin `kit` not loaded).

use crate::common::*;
use playbookdiff_model::{Applicability::*, DiagnosticCode as D, PluginLoad, Subagent};

fn agent<'c>(cfg: &'c playbookdiff_model::EffectiveAgentConfig, path: &str) -> &'c Subagent {
    cfg.subagents
        .iter()
        .find(|a| a.source.path.as_str() == path)
        .unwrap_or_else(|| panic!("no subagent at {path}"))
}

/// Every `.md` below `.claude/agents` with a `name` and a `description` is
/// a subagent, subfolders included, listed by the `Agent` tool with its
/// tools as written; a file without `description` is skipped with a
/// warning at its front matter.
#[test]
fn subagents_are_found_recursively_and_a_file_without_description_is_skipped() {
    let cfg = compile("subagents_and_styles", at_root());
    let mut names: Vec<&str> = cfg
        .subagents
        .iter()
        .filter(|a| a.applicability == Effective)
        .map(|a| a.name.as_str())
        .collect();
    names.sort();
    assert_eq!(names, ["helper", "review", "typo"]);
    let review = agent(&cfg, ".claude/agents/review.md");
    assert_eq!(
        review.tools.as_deref(),
        Some(&["Read".to_string(), "Grep".to_string()][..])
    );
    assert_eq!(review.model.as_deref(), Some("sonnet"));
    assert_eq!(review.listed_by.as_deref(), Some("Agent"));
    assert_eq!(review.source.lines.map(|l| (l.start, l.end)), Some((1, 6)));
    assert!(agent(&cfg, ".claude/agents/team/helper.md").tools.is_none());
    assert!(!cfg.subagents.iter().any(|a| a.name == "nodesc"));
    let skipped = diags(&cfg, D::SubagentInvalid);
    assert_eq!(skipped.len(), 1);
    assert_eq!(
        skipped[0].source.as_ref().unwrap().path.as_str(),
        ".claude/agents/nodesc.md"
    );
}

/// A tool name Claude Code does not have (OpenCode's lower-case `read`) is
/// reported at the line of its `tools`; its real tools (`Bash`, `Read`,
/// `mcp__x__y`, `Bash(git:*)`) are not.
#[test]
fn a_tool_claude_code_does_not_have_is_reported() {
    let cfg = compile("subagents_and_styles", at_root());
    let unknown = diags(&cfg, D::SubagentToolUnknown);
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert!(unknown[0].message.contains("`read`"));
    let at = unknown[0].source.as_ref().unwrap();
    assert_eq!(at.path.as_str(), ".claude/agents/typo.md");
    // The line that lists it, `tools: read, Bash`.
    assert_eq!(at.lines.map(|l| (l.start, l.end)), Some((4, 4)));
    for tool in [
        "Bash",
        "Read",
        "mcp__x__y",
        "Bash(git:*)",
        "Agent(review)",
        "Task",
    ] {
        assert!(playbookdiff_claude_tools_known(tool), "{tool}");
    }
    for tool in ["read", "write", "Shell", "bash"] {
        assert!(!playbookdiff_claude_tools_known(tool), "{tool}");
    }
}

fn playbookdiff_claude_tools_known(tool: &str) -> bool {
    playbookdiff_claude::is_subagent_tool(tool)
}

/// From `a`, the subagent of `a/.claude/agents` wins the name `review`;
/// the root's is shadowed, with a duplicate note at the loser.
#[test]
fn the_subagent_closest_to_the_launch_directory_wins_its_name() {
    let cfg = compile("subagents_and_styles", at_root().cwd("a"));
    assert_eq!(
        agent(&cfg, "a/.claude/agents/review.md").applicability,
        Effective
    );
    assert_eq!(
        agent(&cfg, ".claude/agents/review.md").applicability,
        Shadowed
    );
    let dup = diags(&cfg, D::SubagentDuplicate);
    assert_eq!(dup.len(), 1);
    assert_eq!(
        dup[0].source.as_ref().unwrap().path.as_str(),
        ".claude/agents/review.md"
    );
}

/// `outputStyle` selects a style by its front-matter `name` (`Terse`), and
/// a style without front matter is named by its file (`plain`); from `a`,
/// whose settings select `Nope`, no style is active and the setting is
/// reported at its line.
#[test]
fn output_style_is_selected_by_name_and_an_unknown_one_is_reported() {
    let cfg = compile("subagents_and_styles", at_root());
    let active: Vec<&str> = cfg
        .output_styles
        .iter()
        .filter(|o| o.active)
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(active, ["Terse"]);
    let plain = cfg
        .output_styles
        .iter()
        .find(|o| o.name == "plain")
        .unwrap();
    assert_eq!(plain.applicability, Conditional);
    assert!(diags(&cfg, D::OutputStyleUnknown).is_empty());

    let from_a = compile("subagents_and_styles", at_root().cwd("a"));
    assert!(from_a.output_styles.iter().all(|o| !o.active));
    let unknown = diags(&from_a, D::OutputStyleUnknown);
    assert_eq!(unknown.len(), 1);
    let at = unknown[0].source.as_ref().unwrap();
    assert_eq!(at.path.as_str(), "a/.claude/settings.json");
    assert_eq!(at.lines.map(|l| l.start), Some(1));
}

/// A project plugin enabled in `enabledPlugins` does not load from the
/// repository alone: it is listed with the step it waits for and what it
/// brings (`kit:critic`), and the setting gets `plugin-needs-user-step`
/// at its line.
#[test]
fn an_enabled_project_plugin_waits_for_a_user_step_with_its_contributions() {
    let cfg = compile("subagents_and_styles", at_root());
    let kit = cfg.plugins.iter().find(|p| p.name == "kit").unwrap();
    assert_eq!(kit.marketplace.as_deref(), Some("local"));
    assert!(kit.enabled_by.is_some());
    match &kit.load {
        PluginLoad::AfterUserStep { step } => {
            assert!(step.contains("claude plugin marketplace add ."), "{step}")
        }
        other => panic!("{other:?}"),
    }
    let names: Vec<&str> = kit.contributions.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["kit:critic"]);
    assert!(!cfg.subagents.iter().any(|a| a.name.contains("critic")));
    let step = diags(&cfg, D::PluginNeedsUserStep);
    assert_eq!(step.len(), 1);
    let at = step[0].source.as_ref().unwrap();
    assert_eq!(at.path.as_str(), ".claude/settings.json");
    // `"kit@local": true`
    assert_eq!(at.lines.map(|l| (l.start, l.end)), Some((4, 4)));
    assert!(
        !step[0].message.contains("  "),
        "one space between words: {}",
        step[0].message
    );
}

/// Front matter that is not YAML, even after Claude Code's retry: the
/// subagent is skipped (`subagent-invalid` at the bad line); an output
/// style keeps its file name (`invalid-frontmatter`).
#[test]
fn front_matter_that_is_not_yaml_skips_a_subagent() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "---\nname: x\ndescription: [unclosed\n  - a: b: c\n---\nBody.\n";
    write(dir.path(), ".claude/agents/x.md", bad);
    write(dir.path(), ".claude/output-styles/y.md", bad);
    let cfg = compile_dir(dir.path(), &at_root());
    assert!(cfg.subagents.is_empty());
    assert_eq!(diags(&cfg, D::SubagentInvalid).len(), 1);
    let at = diags(&cfg, D::InvalidFrontmatter);
    assert_eq!(at.len(), 1, "{at:?}");
    assert_eq!(
        at[0].source.as_ref().unwrap().path.as_str(),
        ".claude/output-styles/y.md"
    );
    let names: Vec<&str> = cfg.output_styles.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["y"]);
}

/// A plugin's `.mcp.json` may hold its servers as the top-level object
/// (`{"sentry": {...}}`, as getsentry/sentry-mcp's plugins do) or under
/// `mcpServers`, and the manifest's `mcpServers` adds to them; an entry
/// that is not an object is no server. Each is `plugin:P:S`, with its file.
#[test]
fn a_plugin_brings_the_servers_of_its_mcp_json_in_either_form_and_its_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        ".claude-plugin/marketplace.json",
        r#"{"name": "m", "plugins": [{"name": "p", "source": "./plugins/p"}]}"#,
    );
    write(
        r,
        "plugins/p/.claude-plugin/plugin.json",
        r#"{"name": "p", "mcpServers": {"inline": {"command": "x"}}}"#,
    );
    write(
        r,
        "plugins/p/.mcp.json",
        r#"{"sentry": {"type": "http", "url": "https://mcp.sentry.dev/mcp"}, "note": "x"}"#,
    );
    let cfg = compile_dir(r, &at_root());
    let p = cfg.plugins.iter().find(|p| p.name == "p").unwrap();
    let servers: Vec<(&str, &str)> = p
        .contributions
        .iter()
        .filter(|c| c.kind == playbookdiff_model::ContributionKind::McpServer)
        .map(|c| (c.name.as_str(), c.source.path.as_str()))
        .collect();
    assert_eq!(
        servers,
        [
            ("plugin:p:inline", "plugins/p/.claude-plugin/plugin.json"),
            ("plugin:p:sentry", "plugins/p/.mcp.json"),
        ]
    );
    write(
        r,
        "plugins/p/.mcp.json",
        r#"{"mcpServers": {"db": {"command": "db-mcp"}}}"#,
    );
    let cfg = compile_dir(r, &at_root());
    let p = cfg.plugins.iter().find(|p| p.name == "p").unwrap();
    let names: Vec<&str> = p
        .contributions
        .iter()
        .filter(|c| c.kind == playbookdiff_model::ContributionKind::McpServer)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["plugin:p:db", "plugin:p:inline"]);
}

//! The oracle's comparison of subagents, commands, output styles and
//! plugins (the surfaces beside instructions, skills and MCP servers), one
//! function per agent: each returns `(aspect, agent's view, adapter's
//! view)` triples that `oracle.rs` records as disagreements when the two
//! differ. An aspect the observation does not hold (recorded before the
//! recorder wrote it, and written only when present) is not compared.

use playbookdiff_model::{Applicability, EffectiveAgentConfig, PluginLoad, SourceScope, Subagent};
use serde_json::Value;
use std::collections::BTreeSet;

/// One compared aspect: its name, the agent's view, the adapter's.
pub(crate) type Aspect = (&'static str, String, String);

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn joined(v: impl IntoIterator<Item = String>) -> String {
    v.into_iter().collect::<Vec<_>>().join(", ")
}

/// Whether the agent lists subagent `a` to the model: callable, effective,
/// not brought by a plugin, or brought by one the user installed and
/// enabled (scope `plugin`), whose subagents Claude Code lists.
fn listed(a: &Subagent) -> bool {
    let loaded = a.plugin.is_none() || a.source.scope == SourceScope::Plugin;
    a.mode.callable() && a.applicability == Applicability::Effective && loaded
}

/// Claude Code's `Tools:` text for a subagent: its tools as written, or
/// `All tools`.
fn claude_tools(a: &Subagent) -> String {
    match &a.tools {
        Some(t) if !t.is_empty() => t.join(", "),
        _ => "All tools".to_string(),
    }
}

/// Claude Code: the subagents of the `init` line (`subagents`), the
/// request's agent list with descriptions and tools (`subagent-listing`,
/// when recorded), the output style whose body reaches the request
/// (`output-style`) and the plugins of the `init` line (`plugins`).
pub(crate) fn claude(obs: &Value, cfg: &EffectiveAgentConfig) -> Vec<Aspect> {
    let mut out = Vec::new();
    let names: BTreeSet<String> = cfg
        .subagents
        .iter()
        .filter(|a| listed(a))
        .map(|a| a.name.clone())
        .collect();
    out.push((
        "subagents",
        joined(strings(&obs["init"]["agents"])),
        joined(names),
    ));
    if let Some(seen) = obs["startup"]["agentsListed"].as_array() {
        let theirs: BTreeSet<String> = seen
            .iter()
            .map(|a| {
                format!(
                    "{}: {} (Tools: {})",
                    a["name"].as_str().unwrap_or(""),
                    a["description"].as_str().unwrap_or(""),
                    a["tools"].as_str().unwrap_or("")
                )
            })
            .collect();
        let ours: BTreeSet<String> = cfg
            .subagents
            .iter()
            .filter(|a| listed(a))
            .map(|a| {
                format!(
                    "{}: {} (Tools: {})",
                    a.name,
                    a.description.as_deref().unwrap_or(""),
                    claude_tools(a)
                )
            })
            .collect();
        out.push(("subagent-listing", joined(theirs), joined(ours)));
    }
    let style = obs["startup"]["outputStyle"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let active = cfg
        .output_styles
        .iter()
        .find(|o| o.active && o.applicability == Applicability::Effective)
        .map(|o| o.name.clone())
        .unwrap_or_default();
    out.push(("output-style", style, active));
    let loaded: BTreeSet<String> = cfg
        .plugins
        .iter()
        .filter(|p| p.load == PluginLoad::Loaded)
        .map(|p| p.name.clone())
        .collect();
    out.push((
        "plugins",
        joined(strings(&obs["init"]["plugins"])),
        joined(loaded),
    ));
    out
}

/// The start of the note on custom slash commands in the `task` tool's
/// description of OpenCode up to 1.15.0 (the profile's
/// `TaskToolCommandNote`): a `- ` line the recorder reads like an agent's
/// entry, which names no agent.
const OPENCODE_TASK_NOTE: &str = "When you are instructed to execute custom slash commands";

/// OpenCode: the agents of `debug config` (`subagents`, every name), those
/// its `task` tool lists to the model (`task-agents`, when recorded: the
/// recorder writes `agentModes` with them), and the commands of `debug
/// config` (`commands`).
pub(crate) fn opencode(obs: &Value, cfg: &EffectiveAgentConfig) -> Vec<Aspect> {
    let mut out = Vec::new();
    let all: BTreeSet<String> = cfg.subagents.iter().map(|a| a.name.clone()).collect();
    out.push((
        "subagents",
        joined(strings(&obs["config"]["agents"])),
        joined(all),
    ));
    if obs["config"].get("agentModes").is_some() {
        let ours: BTreeSet<String> = cfg
            .subagents
            .iter()
            .filter(|a| listed(a))
            .map(|a| a.name.clone())
            .collect();
        let mut theirs = strings(&obs["startup"]["taskAgents"]);
        theirs.retain(|n| !n.starts_with(OPENCODE_TASK_NOTE));
        out.push(("task-agents", joined(theirs), joined(ours)));
    }
    let commands: BTreeSet<String> = cfg.commands.iter().map(|c| c.name.clone()).collect();
    out.push((
        "commands",
        joined(strings(&obs["config"]["commands"])),
        joined(commands),
    ));
    out
}

/// Copilot CLI: the custom agents its `task` tool lists to the model
/// (`task-agents`, when recorded: the recorder writes `taskAgents` with
/// the first request).
pub(crate) fn copilot(obs: &Value, cfg: &EffectiveAgentConfig) -> Vec<Aspect> {
    let Some(theirs) = obs["startup"].get("taskAgents") else {
        return Vec::new();
    };
    let ours: BTreeSet<String> = cfg
        .subagents
        .iter()
        .filter(|a| listed(a))
        .map(|a| a.name.clone())
        .collect();
    vec![("task-agents", joined(strings(theirs)), joined(ours))]
}

/// Gemini CLI, the workspace trusted and every subagent file acknowledged
/// by the recorder (the user's state the adapter cannot see, so a
/// `conditional` subagent counts as loaded): the subagents, the project's
/// and the user's extensions', its request lists in
/// `<available_subagents>` (`subagents`), and the
/// commands of the launch directory that run, by the name that runs them
/// (`commands`), and the built-in tools the policies and extensions
/// withhold from a headless run or add to it (`tools-withheld`,
/// `tools-added`, against the tools an empty home's run offers); each
/// when recorded.
pub(crate) fn gemini(obs: &Value, cfg: &EffectiveAgentConfig) -> Vec<Aspect> {
    let mut out = Vec::new();
    if let Some(theirs) = obs["startup"].get("subagentsListed") {
        let ours: BTreeSet<String> = cfg
            .subagents
            .iter()
            .filter(|a| a.applicability != Applicability::Excluded)
            .map(|a| a.name.clone())
            .collect();
        out.push(("subagents", joined(strings(theirs)), joined(ours)));
    }
    if let Some(theirs) = obs.get("commands") {
        let ours: BTreeSet<String> = cfg.commands.iter().map(|c| c.name.clone()).collect();
        out.push(("commands", joined(strings(theirs)), joined(ours)));
    }
    if let Some(baseline) = obs.get("toolsBaseline") {
        let baseline = strings(baseline);
        let (withheld, offered) = gemini_headless_tools(cfg);
        let ours = withheld.intersection(&baseline).cloned();
        out.push((
            "tools-withheld",
            joined(strings(&obs["toolsWithheld"])),
            joined(ours),
        ));
        let ours = offered.difference(&baseline).cloned();
        out.push((
            "tools-added",
            joined(strings(&obs["toolsAdded"])),
            joined(ours),
        ));
    }
    out
}

/// The tools Gemini CLI withholds from a headless run and those it offers
/// there by the adapter's permission settings: a setting with a bare tool
/// name (no condition, no wildcard) that is honoured decides every call
/// of its tool; a deny withholds it, and so does an `ask_user` the
/// adapter reports as a deny in a headless run (`permission-not-honoured`
/// at its rule); an allow or another ask offers it. An honoured allow or
/// ask with a condition (`run_shell_command (commandPrefix "git")`)
/// offers its tool too: no rule without a condition outranks it, and
/// `PolicyEngine.getExcludedTools` stops at the first rule of the tool
/// that is not a conditional deny.
fn gemini_headless_tools(cfg: &EffectiveAgentConfig) -> (BTreeSet<String>, BTreeSet<String>) {
    use playbookdiff_model::{DiagnosticCode, PermissionEffect, Verdict};
    let headless_deny = |p: &playbookdiff_model::PermissionSetting| {
        cfg.diagnostics.iter().any(|d| {
            d.code == DiagnosticCode::PermissionNotHonoured
                && d.source.as_ref() == Some(&p.source)
                && d.message.contains(&format!("`{}`", p.value))
        })
    };
    let (mut withheld, mut offered) = (BTreeSet::new(), BTreeSet::new());
    let deciding = cfg
        .permissions
        .iter()
        .filter(|p| p.honoured == Verdict::Yes && !p.value.contains([' ', '*', '(']));
    for p in deciding {
        let denies = p.effect == PermissionEffect::Deny
            || (p.effect == PermissionEffect::Ask && headless_deny(p));
        if denies {
            withheld.insert(p.value.clone());
        } else {
            offered.insert(p.value.clone());
        }
    }
    let conditional = cfg.permissions.iter().filter(|p| {
        p.honoured == Verdict::Yes && p.effect != PermissionEffect::Deny && !headless_deny(p)
    });
    for p in conditional {
        if let Some((tool, _)) = p.value.split_once(" (") {
            if !tool.contains(['*', '(']) {
                offered.insert(tool.to_string());
            }
        }
    }
    let offered = offered.difference(&withheld).cloned().collect();
    (withheld, offered)
}

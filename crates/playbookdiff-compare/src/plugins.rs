//! MCP servers that only a plugin brings: a plugin's server (Claude
//! Code's `plugin:P:S`) that no harness configures as a server of its own
//! is a `capability-gap` of category `mcp` from the plugin's harness, with
//! the other harnesses' remedies asked for the server `S`. The plugin
//! loads only after a user step (registering its marketplace, installing
//! it), so the one side that has the server has it conditionally: the
//! severity is `info`, as for any item only a conditional side has
//! (`medium` for a plugin that loads from the repository alone).
//!
//! A server that some harness also configures under the bare name `S`,
//! or that its own harness receives as `plugin:P:S` (a plugin the user
//! installed, in local mode), is left to the MCP comparison
//! ([`crate::mcp`]), which compares definitions; one plugin server is one finding, whatever its number of
//! launch directories (the key is the server's name and `plugin`).

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::{display_name, names};
use playbookdiff_model::{
    Applicability, ContributionKind, EffectiveAgentConfig, Harness, LoadPhase, Plugin,
    PluginContribution, PluginLoad, Transport,
};
use std::collections::BTreeSet;

/// One MCP server a plugin of one harness brings.
struct PluginServer<'a> {
    harness: Harness,
    plugin: &'a Plugin,
    contribution: &'a PluginContribution,
    /// The server's own key (`S` of `plugin:P:S`).
    name: &'a str,
}

/// Adds a finding for each MCP server only a plugin brings.
pub(crate) fn compare(configs: &[&EffectiveAgentConfig], findings: &mut Vec<Finding>) {
    let configured: BTreeSet<&str> = configs
        .iter()
        .flat_map(|c| c.mcp_servers.iter())
        .filter(|s| crate::mcp::received(s))
        .map(|s| s.name.as_str())
        .collect();
    let mut seen = BTreeSet::new();
    for server in plugin_servers(configs) {
        // A plugin the user installed (local mode) has its server among
        // the harness's own, under its full name: the MCP comparison
        // reports it, with its transport.
        let own = configured.contains(server.contribution.name.as_str());
        if own || configured.contains(server.name) || !seen.insert((server.harness, server.name)) {
            continue;
        }
        findings.push(finding(&server, configs));
    }
}

/// Every MCP server of every plugin of `configs`, in configuration order.
fn plugin_servers<'a>(configs: &[&'a EffectiveAgentConfig]) -> Vec<PluginServer<'a>> {
    let mut out = Vec::new();
    for c in configs {
        for p in &c.plugins {
            for k in p
                .contributions
                .iter()
                .filter(|k| k.kind == ContributionKind::McpServer)
            {
                out.push(PluginServer {
                    harness: c.harness,
                    plugin: p,
                    contribution: k,
                    name: server_key(&p.name, &k.name),
                });
            }
        }
    }
    out
}

/// `S` of a contribution named `plugin:P:S` (Claude Code's spelling),
/// else the name as it is.
fn server_key<'n>(plugin: &str, name: &'n str) -> &'n str {
    name.strip_prefix("plugin:")
        .and_then(|rest| rest.strip_prefix(plugin))
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(name)
}

/// When the plugin loads, in one clause.
fn load_clause(p: &Plugin) -> String {
    match &p.load {
        PluginLoad::Loaded => "which loads from the repository".to_string(),
        PluginLoad::AfterUserStep { step } => {
            format!("which loads only once {}", step.trim_end_matches('.'))
        }
        PluginLoad::Remote => "which comes from outside the repository".to_string(),
    }
}

/// The finding about `server`: present (conditionally) in its plugin's
/// harness, absent from every other harness of `configs`.
fn finding(server: &PluginServer<'_>, configs: &[&EffectiveAgentConfig]) -> Finding {
    let present = [server.harness];
    let absent: Vec<Harness> = configs
        .iter()
        .map(|c| c.harness)
        .filter(|h| *h != server.harness)
        .collect();
    let cname = crate::code_span(server.name);
    let clause = load_clause(server.plugin);
    let (applicability, severity) = match server.plugin.load {
        PluginLoad::Loaded => (Applicability::Effective, FindingSeverity::Medium),
        _ => (Applicability::Conditional, FindingSeverity::Info),
    };
    let mut f = FindingDraft {
        direction: id::only(&present),
        present_in: present.to_vec(),
        absent_from: absent.clone(),
        items: vec![FindingItem {
            harness: server.harness,
            id: server.plugin.id.clone(),
            source: server.contribution.source.clone(),
            load_phase: LoadPhase::Startup,
            applicability,
            reason: format!("It comes with the plugin `{}`, {clause}.", server.plugin.name),
        }],
        message: format!(
            "MCP server {cname} comes only with the {} plugin {} (as {}), {clause}; {} {} no MCP server of that name.",
            display_name(server.harness),
            crate::code_span(&server.plugin.name),
            crate::code_span(&server.contribution.name),
            names(&absent),
            if absent.len() == 1 { "configures" } else { "configure" }
        ),
        subject: Some(Subject::Mcp {
            name: server.name.to_string(),
            transport: Transport::Unknown,
        }),
        ..FindingDraft::named(
            Category::Mcp,
            (FindingType::CapabilityGap, severity),
            server.name,
            "plugin",
        )
    }
    .build();
    f.absences = absent
        .iter()
        .map(|h| crate::Absence {
            harness: *h,
            reason: format!(
                "{} configures no MCP server named {cname} under this context.",
                display_name(*h)
            ),
        })
        .collect();
    f
}

//! Custom agents: `.codex/agents/*.toml`.
//!
//! Codex 0.171.0 (Codex subagents documentation, "Custom agents"; harness
//! facts B-sub): each TOML file of a project `.codex/agents/` defines one
//! agent, loaded as a configuration layer for the sessions it spawns, so
//! it is read only where the `.codex` layer is (a trusted project). A file
//! needs `name`, `description` and `developer_instructions`; `model`,
//! `sandbox_mode`, `mcp_servers` and the other configuration keys are
//! optional. The main agent spawns one by `name` with its `spawn_agent`
//! tool, whose description lists the agents; a custom agent of a built-in
//! name (`default`, `worker`, `explorer`) replaces it. Codex has no tool
//! list per agent: `sandbox_mode` is what limits one.

use crate::{Cx, TrustLevel};
use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    AgentMode, Applicability, Diagnostic, DiagnosticCode, LoadPhase, RepoPath, SourceFormat,
    SourceRef, Subagent,
};
use std::collections::BTreeMap;

/// The tool whose description lists the custom agents to the model.
const LISTED_BY: &str = "spawn_agent";

/// The fields a custom agent file must have.
const REQUIRED: &[&str] = &["name", "description", "developer_instructions"];

/// The custom agents of every trusted `.codex/agents/` from the project
/// root to `cwd` (`chain`, root first); a closer file wins a name.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, chain: &[RepoPath]) -> Vec<Subagent> {
    let mut found: Vec<Subagent> = Vec::new();
    for dir in chain {
        let Some(root) = dir.join(".codex/agents").filter(|r| cx.repo.is_dir(r)) else {
            continue;
        };
        if cx.trust_for(dir) != Some(TrustLevel::Trusted) {
            continue;
        }
        let mut files: Vec<RepoPath> = cx
            .repo
            .list_dir(&root)
            .iter()
            .filter(|e| e.name.ends_with(".toml"))
            .filter_map(|e| root.join(&e.name))
            .filter(|f| cx.repo.is_file(f))
            .collect();
        files.sort();
        for f in files {
            found.extend(read(cx, &f));
        }
    }
    let settled = settle(found);
    for a in settled
        .iter()
        .filter(|a| a.applicability == Applicability::Shadowed)
    {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SubagentDuplicate,
                format!(
                    "{} defines the custom agent `{}` again; {}.",
                    problems::quote(&a.source.path),
                    a.name,
                    a.reason
                ),
            )
            .at(a.source.clone()),
        );
    }
    settled
}

/// The last definition of each name (the closest to the launch
/// directory) wins; the others are shadowed.
fn settle(mut found: Vec<Subagent>) -> Vec<Subagent> {
    let mut last: BTreeMap<String, RepoPath> = BTreeMap::new();
    for a in &found {
        last.insert(a.name.clone(), a.source.path.clone());
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let total: BTreeMap<String, usize> = found.iter().fold(BTreeMap::new(), |mut m, a| {
        *m.entry(a.name.clone()).or_insert(0) += 1;
        m
    });
    for a in &mut found {
        let n = seen.entry(a.name.clone()).or_insert(0);
        *n += 1;
        if *n < total[&a.name] {
            a.applicability = Applicability::Shadowed;
            a.reason = format!(
                "`{}`, closer to the launch directory, defines the same name and wins",
                last[&a.name]
            );
        }
    }
    found
}

/// One agent file, or `None` when Codex skips it (reported).
fn read(cx: &mut Cx<'_, '_>, path: &RepoPath) -> Option<Subagent> {
    let source = SourceRef::project(path.clone(), SourceFormat::Toml);
    let text = cx.repo.read_text(path, READ_LIMIT).ok()?;
    let table: toml::Table = match toml::from_str(&text.text) {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map(|s| text.line_of(s.start)).unwrap_or(1);
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SubagentInvalid,
                    format!(
                        "{} is not valid TOML ({}); Codex skips this custom agent.",
                        problems::quote(path),
                        e.message()
                    ),
                )
                .at(source.with_lines(line, line)),
            );
            return None;
        }
    };
    let field = |k: &str| table.get(k).and_then(|v| v.as_str()).map(str::to_string);
    if let Some(missing) = REQUIRED.iter().find(|k| field(k).is_none()) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SubagentInvalid,
                format!(
                    "{} has no string `{missing}`; Codex needs `name`, `description` and \
                     `developer_instructions` in a custom agent file, so it skips this one.",
                    problems::quote(path)
                ),
            )
            .at(source),
        );
        return None;
    }
    let name = field("name")?;
    let lines = text.lines_of(0, text.text.len());
    Some(Subagent {
        id: format!("codex:subagent:{path}"),
        name,
        source: source.with_lines(lines.0.max(1), lines.1.max(1)),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: format!(
            "a custom agent of the trusted project layer; listed to the model in the `{LISTED_BY}` tool"
        ),
        mode: AgentMode::Subagent,
        description: field("description"),
        tools: None,
        disallowed_tools: Vec::new(),
        model: field("model"),
        listed_by: Some(LISTED_BY.to_string()),
        plugin: None,
    })
}

//! The files the agents read as configuration because another
//! configuration file names them: imports (`@docs/x.md` in `CLAUDE.md`),
//! OpenCode's `instructions` globs and extra skill paths, Codex's
//! fallback instruction names. The adapters' [`Surface`]s cannot list
//! them (they depend on file content), so the guard asks each adapter's
//! compilation for its sources, once, and protects them like the
//! surfaces ([`crate::Policy::with_sources`]).
//!
//! This module reads the repository (through `playbookdiff-source`); the
//! command caches its answer, so a hook call never compiles.
//!
//! [`Surface`]: playbookdiff_adapter::Surface

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Mode};
use playbookdiff_source::{Repo, SourceTree};

/// Every source path (repository-relative, [`paths`]) that `adapters`
/// compile from `tree` launched at its root, in local mode (personal
/// files included), sorted and without repeats.
pub fn compiled(adapters: &[&dyn Adapter], tree: &dyn SourceTree) -> Vec<String> {
    let repo = Repo::new(tree);
    let context = AnalysisContext {
        mode: Mode::Local,
        ..AnalysisContext::at_root()
    };
    let mut out: Vec<String> = adapters
        .iter()
        .flat_map(|a| paths(&a.compile(&repo, &context, None)))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every file `config` names as a source: instructions, skills, MCP
/// servers, subagents, commands, output styles, plugins and what each
/// plugin brings (repository-relative).
pub fn paths(config: &EffectiveAgentConfig) -> Vec<String> {
    let refs = config
        .instructions
        .iter()
        .map(|i| &i.source)
        .chain(config.skills.iter().map(|s| &s.source))
        .chain(config.mcp_servers.iter().map(|m| &m.source))
        .chain(config.subagents.iter().map(|a| &a.source))
        .chain(config.commands.iter().map(|c| &c.source))
        .chain(config.output_styles.iter().map(|o| &o.source))
        .chain(config.plugins.iter().map(|p| &p.source))
        .chain(
            config
                .plugins
                .iter()
                .flat_map(|p| p.contributions.iter().map(|c| &c.source)),
        );
    refs.map(|r| r.path.as_str().to_string()).collect()
}

/// The files the hooks registered in a hooks JSON file (Claude Code's
/// settings, Codex's `hooks.json`, a plugin's `hooks/hooks.json`: `{"hooks":
/// {EVENT: [{"hooks": [{"command": ...}]}]}}`) run: each word of a
/// command that names a path, relative to the work tree
/// (`$CLAUDE_PROJECT_DIR/`, `${CLAUDE_PROJECT_DIR}/`, `./` and a
/// `root_prefix` taken off). `exists` says whether a candidate is a file
/// of the work tree; only those are returned. Text that is not such JSON
/// names none.
pub fn hook_scripts(text: &str, root_prefix: &str, exists: impl Fn(&str) -> bool) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let Some(events) = value.get("hooks").and_then(|h| h.as_object()) else {
        return Vec::new();
    };
    let commands = events
        .values()
        .filter_map(|list| list.as_array())
        .flatten()
        .filter_map(|entry| entry.get("hooks").and_then(|h| h.as_array()))
        .flatten()
        .filter_map(|hook| hook.get("command").and_then(|c| c.as_str()));
    let mut out: Vec<String> = commands
        .flat_map(|c| shlex::split(c).unwrap_or_default())
        .filter_map(|word| script_path(&word, root_prefix))
        .filter(|p| exists(p))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `word` as a work-tree path, when it names one.
fn script_path(word: &str, root_prefix: &str) -> Option<String> {
    let prefixes = ["$CLAUDE_PROJECT_DIR/", "${CLAUDE_PROJECT_DIR}/", "./"];
    let mut w = word;
    for p in prefixes.iter().copied().chain([root_prefix]) {
        if !p.is_empty() {
            if let Some(rest) = w.strip_prefix(p) {
                w = rest;
            }
        }
    }
    let plain = !w.is_empty() && !w.starts_with(['-', '/', '$', '~']) && !w.contains(['=', '*']);
    (plain && (w.contains('/') || w.contains('.'))).then(|| w.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn hook_commands_name_their_scripts() {
        let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/check.sh --strict"},
            {"type": "command", "command": "python3 tools/hook.py"},
            {"type": "command", "command": "node /r/abs/run.js"},
            {"type": "command", "command": "echo missing/file.sh"}
        ]}]}}"#;
        let files = ["scripts/check.sh", "tools/hook.py", "abs/run.js"];
        let found = super::hook_scripts(text, "/r/", |p| files.contains(&p));
        assert_eq!(found, ["abs/run.js", "scripts/check.sh", "tools/hook.py"]);
        assert!(super::hook_scripts("not json", "/r/", |_| true).is_empty());
    }
}

//! Claude Code plugins defined in the repository: detected, never loaded.
//!
//! A plugin is a directory with `.claude-plugin/plugin.json`; a marketplace
//! is a `.claude-plugin/marketplace.json` whose `plugins[].source` names
//! plugin directories (a string path relative to the directory holding
//! that `.claude-plugin`, or a remote source). Once installed
//! (`/plugin install`), a plugin adds, under its name as namespace, the
//! skills of `skills/<name>/SKILL.md`, the commands of
//! `commands/**/*.md`, the agents of `agents/*.md`, the hooks of
//! `hooks/hooks.json` and the MCP servers of its `.mcp.json` (or the
//! manifest's `skills`, `commands`, `agents`, `hooks`, `mcpServers`
//! fields). The repository alone installs nothing, so none of it is
//! listed; each plugin is reported as `plugin-not-installed`, and so is
//! each of its skill files, so that a comparison that finds the skill with
//! another agent says why Claude Code lacks it.
//!
//! Only the manifests at the repository root and in the launch directory's
//! ancestors are looked for (plus the local plugins their marketplaces
//! name), so detection costs a few lookups, not a walk of the repository.
//!
//! Source: fidelity C25 (Claude Code plugin documentation: plugin
//! structure and marketplaces; the corpus repository getsentry/skills,
//! whose skills Codex lists as `sentry-skills:<name>` while Claude Code
//! lists none of them: recorded with 2.1.197 and 2.1.332, `init.plugins`
//! empty).

use crate::json::JsonDoc;
use crate::Compiler;
use playbookdiff_adapter::problems;
use playbookdiff_model::remedy::count;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use serde_json::Value;
use std::collections::BTreeSet;

/// Names listed in a message before "and N more".
const LISTED: usize = 8;

/// One plugin directory and where it was declared.
struct Plugin {
    root: RepoPath,
    name: String,
    /// The manifest (`plugin.json`) or, without one, the marketplace that
    /// names the directory.
    declared_at: SourceRef,
    manifest: Option<Value>,
}

/// Reports the plugins of the repository ([module documentation](self)).
pub fn compile(cx: &mut Compiler<'_, '_>) {
    let mut plugins: Vec<Plugin> = Vec::new();
    let mut remote: Vec<(String, SourceRef)> = Vec::new();
    let mut dirs: Vec<RepoPath> = cx.context.cwd.ancestors_root_first();
    dirs.retain(crate::outside_dot_claude);
    let mut seen: BTreeSet<RepoPath> = BTreeSet::new();
    for dir in dirs {
        if let Some(p) = manifest_plugin(cx, &dir, None) {
            if seen.insert(p.root.clone()) {
                plugins.push(p);
            }
        }
        let Some(market) = dir.join(".claude-plugin/marketplace.json") else {
            continue;
        };
        if !cx.repo.is_file(&market) {
            continue;
        }
        let Some(doc) = read_json(cx, &market) else {
            continue;
        };
        let source = cx.source_ref(
            &market,
            playbookdiff_model::SourceScope::Project,
            SourceFormat::Json,
        );
        let entries = doc
            .value
            .get("plugins")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, e) in entries.iter().enumerate() {
            let name = e
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let at = match doc.span(&["plugins", &i.to_string()]) {
                Some((s, l)) => source.clone().with_lines(s, l),
                None => source.clone(),
            };
            let Some(rel) = e.get("source").and_then(Value::as_str) else {
                if !name.is_empty() {
                    remote.push((name, at));
                }
                continue;
            };
            let Some(root) = dir
                .join(rel.trim_start_matches("./"))
                .or_else(|| (rel == "./" || rel == ".").then(|| dir.clone()))
            else {
                remote.push((name, at));
                continue;
            };
            if !cx.repo.is_dir(&root) || !seen.insert(root.clone()) {
                continue;
            }
            match manifest_plugin(cx, &root, Some(&name)) {
                Some(p) => plugins.push(p),
                None => plugins.push(Plugin {
                    name: if name.is_empty() {
                        root.file_name().unwrap_or("plugin").to_string()
                    } else {
                        name
                    },
                    root,
                    declared_at: at,
                    manifest: None,
                }),
            }
        }
    }
    for p in &plugins {
        report(cx, p);
        crate::hooks::plugin(cx, &p.root, &p.name, p.manifest.as_ref());
    }
    for (name, at) in remote {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::PluginNotInstalled,
                format!(
                    "The marketplace `{}` lists the Claude Code plugin `{name}` from outside the repository; what it \
                     would add once installed is unknown.",
                    at.path
                ),
            )
            .at(at),
        );
    }
    if !plugins.is_empty() {
        cx.out.assumptions.push(
            "The Claude Code plugins defined in the repository are not installed: the repository alone installs \
             none, so their skills, commands, agents, hooks and MCP servers are not listed."
                .to_string(),
        );
    }
}

/// The plugin whose manifest is `dir/.claude-plugin/plugin.json`, if any.
fn manifest_plugin(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    listed_as: Option<&str>,
) -> Option<Plugin> {
    let manifest = dir.join(".claude-plugin/plugin.json")?;
    if !cx.repo.is_file(&manifest) {
        return None;
    }
    let doc = read_json(cx, &manifest);
    let value = doc.map(|d| d.value);
    let name = value
        .as_ref()
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
        .map(str::to_string)
        .or_else(|| listed_as.filter(|n| !n.is_empty()).map(str::to_string))
        .unwrap_or_else(|| dir.file_name().unwrap_or("plugin").to_string());
    Some(Plugin {
        root: dir.clone(),
        name,
        declared_at: cx.source_ref(
            &manifest,
            playbookdiff_model::SourceScope::Project,
            SourceFormat::Json,
        ),
        manifest: value,
    })
}

/// Parses a JSON file, reporting a file that is not JSON.
fn read_json(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<JsonDoc> {
    let text = cx.read(path, SourceFormat::Json)?;
    match JsonDoc::parse(&text.text) {
        Ok(d) => Some(d),
        Err(e) => {
            cx.diag(problems::invalid_syntax(
                path,
                "JSON",
                &e,
                "Claude Code cannot read this plugin manifest",
                SourceFormat::Json,
            ));
            None
        }
    }
}

/// The directories a component is read from: the manifest's field (a path
/// or a list of paths relative to the plugin root) when given, else the
/// default directory.
fn component_dirs(p: &Plugin, field: &str, default: &str) -> Vec<String> {
    match p.manifest.as_ref().and_then(|m| m.get(field)) {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => vec![default.to_string()],
    }
}

fn under(root: &RepoPath, rel: &str) -> Option<RepoPath> {
    let rel = rel.trim_start_matches("./").trim_end_matches('/');
    if rel.is_empty() || rel == "." {
        Some(root.clone())
    } else {
        root.join(rel)
    }
}

/// `a, b, c and 4 more`, each in backticks.
fn some(names: &[String]) -> String {
    let shown: Vec<String> = names
        .iter()
        .take(LISTED)
        .map(|n| format!("`{n}`"))
        .collect();
    let mut s = shown.join(", ");
    if names.len() > LISTED {
        s.push_str(&format!(" and {} more", names.len() - LISTED));
    }
    s
}

/// Reports plugin `p`, which the repository alone does not install:
/// what it would add once installed, and each of its skills at its file.
fn report(cx: &mut Compiler<'_, '_>, p: &Plugin) {
    let ns = &p.name;
    let skills = plugin_skills(cx, p);
    let names: Vec<String> = skills.iter().map(|(n, _)| n.clone()).collect();
    let adds = adds_phrase(
        &[
            (&names, "skill", "skills"),
            (&plugin_commands(cx, p), "command", "commands"),
            (&plugin_agents(cx, p), "agent", "agents"),
        ],
        plugin_hooks(cx, p),
        &plugin_servers(cx, p),
    );
    let root = if p.root.is_root() {
        "the repository root".to_string()
    } else {
        format!("`{}`", p.root)
    };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::PluginNotInstalled,
            format!(
                "{root} is the Claude Code plugin `{ns}`; once installed (`/plugin install`) it adds {adds}. The \
                 repository alone does not install it, so none of these are listed for Claude Code."
            ),
        )
        .at(p.declared_at.clone()),
    );
    for (name, file) in skills {
        let source = cx.source_ref(
            &file,
            playbookdiff_model::SourceScope::Project,
            SourceFormat::Markdown,
        );
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::PluginNotInstalled,
                format!(
                    "`{file}` is the skill `{name}` of the Claude Code plugin `{ns}` (`{}`): Claude Code offers it \
                     only once the plugin is installed, which the repository alone does not do.",
                    p.declared_at.path
                ),
            )
            .at(source),
        );
    }
}

/// What a plugin adds, for its report: each kind of component with its
/// count and first names, then hooks, then MCP servers; "nothing the
/// analysis can find" when there is none.
fn adds_phrase(named: &[(&Vec<String>, &str, &str)], hooks: bool, servers: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (names, one, many) in named {
        if !names.is_empty() {
            parts.push(format!(
                "{} ({})",
                count(names.len(), one, many),
                some(names)
            ));
        }
    }
    if hooks {
        parts.push("hooks".to_string());
    }
    if !servers.is_empty() {
        parts.push(format!(
            "{} ({})",
            count(servers.len(), "MCP server", "MCP servers"),
            some(servers)
        ));
    }
    if parts.is_empty() {
        "nothing the analysis can find".to_string()
    } else {
        parts.join(", ")
    }
}

/// The plugin's skills, `<dir>/<name>/SKILL.md`, each as `plugin:name`
/// with its file, sorted.
fn plugin_skills(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<(String, RepoPath)> {
    let ns = &p.name;
    let mut skills: Vec<(String, RepoPath)> = Vec::new();
    for d in component_dirs(p, "skills", "skills") {
        let Some(dir) = under(&p.root, &d) else {
            continue;
        };
        if !cx.repo.is_dir(&dir) {
            continue;
        }
        for e in cx.repo.list_dir(&dir).to_vec() {
            let Some(f) = dir.join(&e.name).and_then(|s| s.join("SKILL.md")) else {
                continue;
            };
            if cx.repo.is_file(&f) {
                skills.push((format!("{ns}:{}", e.name), f));
            }
        }
    }
    skills.sort();
    skills
}

/// The plugin's commands, `**/*.md` below each commands directory, named
/// by path (`plugin:dir:name`), sorted.
fn plugin_commands(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<String> {
    let ns = &p.name;
    let mut commands: Vec<String> = Vec::new();
    for d in component_dirs(p, "commands", "commands") {
        let Some(dir) = under(&p.root, &d) else {
            continue;
        };
        let mut stack = vec![dir.clone()];
        let mut visited = BTreeSet::new();
        while let Some(cur) = stack.pop() {
            if !cx.repo.is_dir(&cur) || !visited.insert(cx.repo_real(&cur)) {
                continue;
            }
            for e in cx.repo.list_dir(&cur).to_vec() {
                let Some(f) = cur.join(&e.name) else { continue };
                if cx.repo.is_dir(&f) {
                    stack.push(f);
                } else if e.name.ends_with(".md") {
                    let rel = crate::relative_to(&f, &dir).unwrap_or_default();
                    commands.push(format!(
                        "{ns}:{}",
                        rel.trim_end_matches(".md").replace('/', ":")
                    ));
                }
            }
        }
    }
    commands.sort();
    commands
}

/// The plugin's agents, `*.md` in each agents directory, sorted.
fn plugin_agents(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<String> {
    let ns = &p.name;
    let mut agents: Vec<String> = Vec::new();
    for d in component_dirs(p, "agents", "agents") {
        let Some(dir) = under(&p.root, &d) else {
            continue;
        };
        if !cx.repo.is_dir(&dir) {
            continue;
        }
        for e in cx.repo.list_dir(&dir).to_vec() {
            if e.name.ends_with(".md") && dir.join(&e.name).is_some_and(|f| cx.repo.is_file(&f)) {
                agents.push(format!("{ns}:{}", e.name.trim_end_matches(".md")));
            }
        }
    }
    agents.sort();
    agents
}

/// Whether the plugin has hooks: in its manifest or `hooks/hooks.json`.
fn plugin_hooks(cx: &Compiler<'_, '_>, p: &Plugin) -> bool {
    p.manifest
        .as_ref()
        .is_some_and(|m| m.get("hooks").is_some())
        || p.root
            .join("hooks/hooks.json")
            .is_some_and(|f| cx.repo.is_file(&f))
}

/// The names of the plugin's MCP servers: the manifest's `mcpServers`
/// object, or the servers of the file it names (else its `.mcp.json`).
fn plugin_servers(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<String> {
    let mut servers: Vec<String> = Vec::new();
    let inline = p.manifest.as_ref().and_then(|m| m.get("mcpServers"));
    let file = match inline {
        Some(Value::String(s)) => under(&p.root, s),
        Some(_) => None,
        None => p.root.join(".mcp.json"),
    };
    if let Some(Value::Object(m)) = inline {
        servers.extend(m.keys().cloned());
    } else if let Some(f) = file.filter(|f| cx.repo.is_file(f)) {
        if let Ok(t) = cx.repo.read_text(&f, crate::READ_LIMIT) {
            if let Ok(d) = JsonDoc::parse(&t.text) {
                if let Some(m) = d.value.get("mcpServers").and_then(Value::as_object) {
                    servers.extend(m.keys().cloned());
                }
            }
        }
    }
    servers
}

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
//! manifest's `skills`, `commands`, `agents`, `hooks` fields; its
//! `mcpServers` adds to the `.mcp.json`'s servers). The repository alone installs nothing, so none of it is
//! received: each plugin is an item of `plugins` whose load waits for a
//! user step (registering the marketplace, installing the plugin; seen with
//! 2.1.197 and 2.1.332, surfaces reference), with what it brings named as
//! Claude Code names it (`plugin:skill`, `plugin:agent`, `plugin:P:S`).
//! Each plugin is also reported as `plugin-not-installed`, and so is each
//! of its skill files, so that a comparison that finds the skill with
//! another agent says why Claude Code lacks it; a plugin that
//! `enabledPlugins` turns on gets `plugin-needs-user-step` at that setting,
//! and so does an enabled plugin the repository does not define.
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
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_adapter::problems;
use playbookdiff_model::remedy::count;
use playbookdiff_model::{
    ContributionKind, Diagnostic, DiagnosticCode, PluginContribution, PluginLoad, RepoPath,
    SourceFormat, SourceRef, SourceScope,
};
use serde_json::Value;
use std::collections::BTreeSet;

/// Names listed in a message before "and N more".
const LISTED: usize = 8;

/// A marketplace: its `name` and the directory that holds its
/// `.claude-plugin`.
type Market = (String, RepoPath);

/// One plugin directory and where it was declared.
struct Plugin {
    root: RepoPath,
    name: String,
    /// The manifest (`plugin.json`) or, without one, the marketplace that
    /// names the directory.
    declared_at: SourceRef,
    manifest: Option<Value>,
    /// The marketplace that lists it.
    market: Option<Market>,
}

/// Reports the plugins of the repository ([module documentation](self)).
pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let mut plugins: Vec<Plugin> = Vec::new();
    let mut remote: Vec<(String, SourceRef, Option<Market>)> = Vec::new();
    let mut dirs: Vec<RepoPath> = cx.context.cwd.ancestors_root_first();
    dirs.retain(crate::outside_dot_claude);
    let mut seen: BTreeSet<RepoPath> = BTreeSet::new();
    for dir in dirs {
        if let Some(p) = manifest_plugin(cx, &dir, None) {
            if seen.insert(p.root.clone()) {
                plugins.push(p);
            }
        }
        let Some(market) = dir.join(crate::MARKETPLACE.relative()) else {
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
        let market_name = doc
            .value
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
            .map(|n| (n.to_string(), dir.clone()));
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
                    remote.push((name, at, market_name.clone()));
                }
                continue;
            };
            let Some(root) = dir
                .join(rel.trim_start_matches("./"))
                .or_else(|| (rel == "./" || rel == ".").then(|| dir.clone()))
            else {
                remote.push((name, at, market_name.clone()));
                continue;
            };
            if !cx.repo.is_dir(&root) || !seen.insert(root.clone()) {
                continue;
            }
            match manifest_plugin(cx, &root, Some(&name)) {
                Some(p) => plugins.push(Plugin {
                    market: market_name.clone(),
                    ..p
                }),
                None => plugins.push(Plugin {
                    market: market_name.clone(),
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
        let parts = Parts::of(cx, p);
        report(cx, p, &parts);
        crate::hooks::plugin(cx, &p.root, &p.name, p.manifest.as_ref());
        let item = item(cx, p, parts, settings);
        cx.out.plugins.push(item);
    }
    for (name, at, market) in remote {
        let enabled_by = enabled_by(settings, &name, market.as_ref());
        let id = cx.unique_id(format!("claude-code:plugin:{}#{name}", at.path));
        cx.out.plugins.push(playbookdiff_model::Plugin {
            id,
            name: name.clone(),
            source: at.clone(),
            marketplace: market.map(|m| m.0),
            enabled_by,
            load: PluginLoad::Remote,
            contributions: Vec::new(),
        });
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
    let installed = crate::installed::compile(cx, settings);
    enabled_elsewhere(cx, settings, installed.as_ref());
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
    let manifest = dir.join(crate::PLUGIN_MANIFEST.relative())?;
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
        market: None,
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
fn report(cx: &mut Compiler<'_, '_>, p: &Plugin, parts: &Parts) {
    let ns = &p.name;
    let skills = parts.skills.clone();
    let adds = adds_phrase(
        &[
            (&first(&parts.skills), "skill", "skills"),
            (&first(&parts.commands), "command", "commands"),
            (&first(&parts.agents), "agent", "agents"),
        ],
        parts.hooks.is_some(),
        &first(&parts.servers),
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
fn plugin_commands(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<(String, RepoPath)> {
    let ns = &p.name;
    let mut commands: Vec<(String, RepoPath)> = Vec::new();
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
                    let name = format!("{ns}:{}", rel.trim_end_matches(".md").replace('/', ":"));
                    commands.push((name, f));
                }
            }
        }
    }
    commands.sort();
    commands
}

/// The plugin's agents, `*.md` in each agents directory, each as
/// `plugin:name` with its file, sorted.
fn plugin_agents(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<(String, RepoPath)> {
    let ns = &p.name;
    let mut agents: Vec<(String, RepoPath)> = Vec::new();
    for d in component_dirs(p, "agents", "agents") {
        let Some(dir) = under(&p.root, &d) else {
            continue;
        };
        if !cx.repo.is_dir(&dir) {
            continue;
        }
        for e in cx.repo.list_dir(&dir).to_vec() {
            let Some(f) = dir.join(&e.name).filter(|f| cx.repo.is_file(f)) else {
                continue;
            };
            if e.name.ends_with(".md") {
                agents.push((format!("{ns}:{}", e.name.trim_end_matches(".md")), f));
            }
        }
    }
    agents.sort();
    agents
}

/// The file that registers the plugin's hooks, when it has some: its
/// manifest (a `hooks` field) or `hooks/hooks.json`.
fn plugin_hooks(cx: &Compiler<'_, '_>, p: &Plugin) -> Option<RepoPath> {
    if p.manifest
        .as_ref()
        .is_some_and(|m| m.get("hooks").is_some())
    {
        return Some(p.declared_at.path.clone());
    }
    p.root
        .join("hooks/hooks.json")
        .filter(|f| cx.repo.is_file(f))
}

/// The names of the plugin's MCP servers, each with its file: those of
/// its `.mcp.json`, then those the manifest's `mcpServers` adds (an
/// object of servers, a file, or a list of either). A file holds its
/// servers under `mcpServers` or as its top-level object, and an entry
/// that is not an object is no server (Claude Code 2.1.332's plugin
/// loader: `.mcp.json` "in addition" to the manifest's, `mcpServers ||`
/// the whole file, each entry validated).
fn plugin_servers(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<(String, RepoPath)> {
    let mut servers: Vec<(String, RepoPath)> = Vec::new();
    if let Some(f) = p.root.join(crate::MCP_JSON.relative()) {
        servers.extend(servers_of_file(cx, &f));
    }
    let declared = p.manifest.as_ref().and_then(|m| m.get("mcpServers"));
    let entries = match declared {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(v) => vec![v],
        None => Vec::new(),
    };
    for entry in entries {
        match entry {
            Value::String(s) => {
                if let Some(f) = under(&p.root, s) {
                    servers.extend(servers_of_file(cx, &f));
                }
            }
            Value::Object(m) => {
                let at = &p.declared_at.path;
                servers.extend(server_names(m).map(|k| (k, at.clone())));
            }
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    servers.retain(|(name, _)| seen.insert(name.clone()));
    servers
}

/// The servers of one plugin MCP file, when it is a readable JSON object.
fn servers_of_file(cx: &Compiler<'_, '_>, f: &RepoPath) -> Vec<(String, RepoPath)> {
    if !cx.repo.is_file(f) {
        return Vec::new();
    }
    let Ok(t) = cx.repo.read_text(f, crate::READ_LIMIT) else {
        return Vec::new();
    };
    let Ok(d) = JsonDoc::parse(&t.text) else {
        return Vec::new();
    };
    let map = match d.value.get("mcpServers") {
        Some(Value::Object(m)) => m,
        _ => match &d.value {
            Value::Object(m) if !m.contains_key("mcpServers") => m,
            _ => return Vec::new(),
        },
    };
    server_names(map).map(|k| (k, f.clone())).collect()
}

/// The keys of `map` whose value is an object (a server definition).
fn server_names(map: &serde_json::Map<String, Value>) -> impl Iterator<Item = String> + '_ {
    map.iter()
        .filter(|(_, v)| v.is_object())
        .map(|(k, _)| k.clone())
}

/// What one plugin brings, each with its file, as the agent names it.
struct Parts {
    skills: Vec<(String, RepoPath)>,
    commands: Vec<(String, RepoPath)>,
    agents: Vec<(String, RepoPath)>,
    hooks: Option<RepoPath>,
    /// Server keys (not yet `plugin:P:S`).
    servers: Vec<(String, RepoPath)>,
    styles: Vec<(String, RepoPath)>,
}

impl Parts {
    /// Looks each kind up once.
    fn of(cx: &Compiler<'_, '_>, p: &Plugin) -> Parts {
        Parts {
            skills: plugin_skills(cx, p),
            commands: plugin_commands(cx, p),
            agents: plugin_agents(cx, p),
            hooks: plugin_hooks(cx, p),
            servers: plugin_servers(cx, p),
            styles: plugin_styles(cx, p),
        }
    }

    /// Every part as a contribution named as Claude Code names it
    /// (`plugin:skill`, `plugin:agent`, `plugin:P:S` for an MCP server),
    /// sorted by kind then name.
    fn contributions(self, cx: &Compiler<'_, '_>, plugin: &str) -> Vec<PluginContribution> {
        let mut out = Vec::new();
        let mut add = |kind, name: String, file: &RepoPath| {
            out.push(PluginContribution {
                kind,
                name,
                source: cx.source_ref(file, SourceScope::Project, format_of(file)),
            })
        };
        for (n, f) in &self.skills {
            add(ContributionKind::Skill, n.clone(), f);
        }
        for (n, f) in &self.commands {
            add(ContributionKind::Command, n.clone(), f);
        }
        for (n, f) in &self.agents {
            add(ContributionKind::Agent, n.clone(), f);
        }
        if let Some(f) = &self.hooks {
            add(ContributionKind::Hooks, format!("{plugin}:hooks"), f);
        }
        for (n, f) in &self.servers {
            add(
                ContributionKind::McpServer,
                format!("plugin:{plugin}:{n}"),
                f,
            );
        }
        for (n, f) in &self.styles {
            add(ContributionKind::OutputStyle, n.clone(), f);
        }
        out.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
        out
    }
}

/// The syntax of a plugin file, by its extension.
fn format_of(file: &RepoPath) -> SourceFormat {
    if file.as_str().ends_with(".json") {
        SourceFormat::Json
    } else {
        SourceFormat::Markdown
    }
}

/// The names of `parts`, for a message.
fn first(parts: &[(String, RepoPath)]) -> Vec<String> {
    parts.iter().map(|(n, _)| n.clone()).collect()
}

/// The plugin's output styles, `*.md` in each output-styles directory
/// (`outputStyles` in the manifest, else `output-styles/`), each as
/// `plugin:name` with its file, sorted.
fn plugin_styles(cx: &Compiler<'_, '_>, p: &Plugin) -> Vec<(String, RepoPath)> {
    let mut styles = Vec::new();
    for d in component_dirs(p, "outputStyles", "output-styles") {
        let Some(dir) = under(&p.root, &d).filter(|d| cx.repo.is_dir(d)) else {
            continue;
        };
        for e in cx.repo.list_dir(&dir).to_vec() {
            let Some(f) = dir.join(&e.name).filter(|f| cx.repo.is_file(f)) else {
                continue;
            };
            if let Some(stem) = e.name.strip_suffix(".md") {
                styles.push((format!("{}:{stem}", p.name), f));
            }
        }
    }
    styles.sort();
    styles
}

/// The `enabledPlugins` entry of the settings read that turns on the
/// plugin `name` (`"name@marketplace": true`), the last layer's.
fn enabled_by(settings: &Settings, name: &str, market: Option<&Market>) -> Option<SourceRef> {
    let key = format!("{name}@{}", market.map(|m| m.0.as_str()).unwrap_or(""));
    let mut found = None;
    for (v, layer) in settings.values("enabledPlugins") {
        let Some(map) = v.as_object() else { continue };
        for (k, on) in map {
            let matches = if market.is_some() {
                *k == key
            } else {
                k.split('@').next() == Some(name)
            };
            if matches {
                found = (on == &Value::Bool(true)).then(|| layer.at(&["enabledPlugins", k]));
            }
        }
    }
    found
}

/// The step a user takes before Claude Code loads plugin `p`.
fn user_step(p: &Plugin) -> String {
    match &p.market {
        Some((m, dir)) => format!(
            "the marketplace `{m}` is registered (`claude plugin marketplace add {}`) and `{}@{m}` installed",
            if dir.is_root() { "." } else { dir.as_str() },
            p.name
        ),
        None => format!(
            "it is installed from a marketplace or passed with `--plugin-dir {}`",
            if p.root.is_root() { "." } else { p.root.as_str() }
        ),
    }
}

/// The model's item for plugin `p`: loaded only after a user step, with
/// what it brings; a plugin that project settings enable gets
/// `plugin-needs-user-step` at that setting.
fn item(
    cx: &mut Compiler<'_, '_>,
    p: &Plugin,
    parts: Parts,
    settings: &Settings,
) -> playbookdiff_model::Plugin {
    let enabled = enabled_by(settings, &p.name, p.market.as_ref());
    let step = user_step(p);
    if let Some(at) = &enabled {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::PluginNeedsUserStep,
                format!(
                    "`{}` enables the Claude Code plugin `{}`, but Claude Code does not load it from the repository \
                     alone: only once {step}. Until then none of what it brings is loaded.",
                    at.path, p.name
                ),
            )
            .at(at.clone()),
        );
    }
    let id = cx.unique_id(format!("claude-code:plugin:{}", p.root));
    playbookdiff_model::Plugin {
        id,
        name: p.name.clone(),
        source: p.declared_at.clone(),
        marketplace: p.market.as_ref().map(|m| m.0.clone()),
        enabled_by: enabled,
        load: PluginLoad::AfterUserStep { step },
        contributions: parts.contributions(cx, &p.name),
    }
}

/// The diagnostic for the plugin `key` (of marketplace `market`) that the
/// setting `at` enables and the repository does not define; `local` when
/// the user's `installed_plugins.json` was read and does not list it
/// (what Claude Code then does was not observed, so only what the
/// analysis found is said).
fn enabled_not_defined(at: &SourceRef, key: &str, market: &str, local: bool) -> Diagnostic {
    let message = if local {
        format!(
            "`{}` enables the Claude Code plugin `{key}`, which neither the repository defines nor the user's \
             `installed_plugins.json` lists, so the analysis found no copy of it to read and what it brings is \
             unknown; install it (`claude plugin install {key}`) or remove it from `enabledPlugins`.",
            at.path
        )
    } else {
        format!(
            "`{}` enables the Claude Code plugin `{key}`, which the repository does not define: Claude Code loads \
             it only once the user has added the marketplace `{market}` and installed the plugin; what it brings \
             is unknown to the analysis.",
            at.path
        )
    };
    Diagnostic::new(DiagnosticCode::PluginNeedsUserStep, message).at(at.clone())
}

/// The plugins `enabledPlugins` turns on that the repository does not
/// define (`"plugin-dev@claude-plugins-official": true`): each comes from a
/// marketplace the user must have added and the plugin installed, so it is
/// listed as remote, with `plugin-needs-user-step` at the setting. In
/// local mode `installed` holds the keys the user's
/// `installed_plugins.json` lists, which [`crate::installed`] has
/// reported; any other key enabled is said not to be installed there.
fn enabled_elsewhere(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    installed: Option<&BTreeSet<String>>,
) {
    let known: std::collections::HashSet<String> =
        cx.out.plugins.iter().map(|p| p.name.clone()).collect();
    let mut seen = BTreeSet::new();
    for (v, layer) in settings.values("enabledPlugins") {
        let Some(map) = v.as_object() else { continue };
        for (key, on) in map {
            let (name, market) = key.split_once('@').unwrap_or((key.as_str(), ""));
            let accounted = installed.is_some_and(|i| i.contains(key));
            if on != &Value::Bool(true)
                || known.contains(name)
                || accounted
                || !seen.insert(key.clone())
            {
                continue;
            }
            let at = layer.at(&["enabledPlugins", key]);
            cx.diag(enabled_not_defined(&at, key, market, installed.is_some()));
            let id = cx.unique_id(format!("claude-code:plugin:{key}"));
            cx.out.plugins.push(playbookdiff_model::Plugin {
                id,
                name: name.to_string(),
                source: at.clone(),
                marketplace: (!market.is_empty()).then(|| market.to_string()),
                enabled_by: Some(at),
                load: PluginLoad::Remote,
                contributions: Vec::new(),
            });
        }
    }
}

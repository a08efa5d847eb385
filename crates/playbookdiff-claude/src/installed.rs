//! The plugins the user installed, read in local mode: what an installed
//! and enabled plugin gives Claude Code, in the layer `plugin`.
//!
//! Claude Code keeps the plugins it installed in
//! `~/.claude/plugins/installed_plugins.json` (in `$CLAUDE_CONFIG_DIR`
//! when set): `{"version": 2, "plugins": {"name@marketplace": [{"scope",
//! "installPath", "version", "projectPath"?}]}}` (version 1 holds one
//! object per key instead of a list), and the marketplaces it knows in
//! `known_marketplaces.json` (`{"name": {"source": {"source":
//! "github" | "directory" | ...}, "installLocation"}}`). A plugin loads
//! when it is installed (an entry of scope `user` or `managed`, or of
//! scope `project` or `local` whose `projectPath` is this project) and the
//! settings layer of highest precedence that names it in `enabledPlugins`
//! sets it `true`. It loads from its `installPath`, except a plugin of a
//! `directory` marketplace, which loads from the marketplace's own
//! directory (`installLocation` joined with the plugin's `source` in the
//! marketplace's `.claude-plugin/marketplace.json`).
//!
//! What it gives, each named under the plugin's namespace as Claude Code
//! names it: the skills of `skills/<name>/SKILL.md` (`plugin:name`), the
//! commands of `commands/**/*.md` (`plugin:name`, listed as skills), the
//! subagents of `agents/*.md` (`plugin:name`), the hooks of
//! `hooks/hooks.json`, the MCP servers of `.mcp.json`
//! (`plugin:<plugin>:<server>`) and the output styles of
//! `output-styles/*.md` (`plugin:name`; the active one is the first with
//! `force-for-plugin: true`, else the one `outputStyle` names).
//!
//! Sources: observed with Claude Code 2.1.197 and 2.1.332 on case
//! `oracle.local_user_layers.home-claude-plugins` (the `init` line's
//! `plugins` with each one's path: the `installPath` of a GitHub
//! marketplace's plugin; `false` and not named in `enabledPlugins` load
//! nothing; an enabled key not installed loads nothing); the files as
//! `claude plugin marketplace add` and `claude plugin install` 2.1.332
//! write them; the `directory` source on case
//! `oracle.local_user_layers.home-claude-plugins-directory` (both
//! releases load the plugin from the marketplace's directory, not from
//! the `installPath` copy).

use crate::settings::Settings;
use crate::user::Places;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, ContributionKind, Diagnostic, DiagnosticCode, LoadPhase, OutputStyle, Plugin,
    PluginContribution, PluginLoad, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::EntryKind;
use serde_json::Value;
use std::collections::BTreeSet;

/// One entry of `installed_plugins.json` that applies to this project.
struct Installed {
    /// `name@marketplace`.
    key: String,
    /// Its entry, with its lines.
    at: SourceRef,
    /// `installPath`, as written (absolute).
    install_path: Option<String>,
}

impl Installed {
    fn name(&self) -> &str {
        self.key.split('@').next().unwrap_or(&self.key)
    }

    fn marketplace(&self) -> Option<&str> {
        self.key.split_once('@').map(|(_, m)| m)
    }
}

/// Compiles the plugins the user installed ([module documentation](self)):
/// each enabled one is loaded, its items added in the layer `plugin`;
/// each one not enabled is a `plugin-not-enabled` diagnostic. Returns the
/// keys (`name@marketplace`) of the entries it read, each of which it
/// has accounted for; `None` outside local mode (nothing is read).
pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) -> Option<BTreeSet<String>> {
    let places = cx.user?;
    let mut forced = Vec::new();
    let entries = installed(cx, &places);
    let keys = entries.iter().map(|e| e.key.clone()).collect();
    for entry in entries {
        match enablement(settings, &entry.key) {
            Some((true, on)) => forced.extend(load(cx, &places, &entry, on)),
            Some((false, off)) => not_enabled(cx, &entry, Some(off)),
            None => not_enabled(cx, &entry, None),
        }
    }
    settle_styles(cx, settings, &forced);
    Some(keys)
}

/// Decides which output style is active once the plugins' styles are
/// listed, as Claude Code does (2.1.197 and 2.1.332: the first plugin
/// style with `force-for-plugin: true` is used whatever `outputStyle`
/// says, "Using forced plugin output style"; else the style
/// `outputStyle` names, a plugin's as `plugin:name`): `forced` are the
/// ids of the forced styles, in load order. A `plugin:name` that no
/// enabled plugin gives is `output-style-unknown`.
fn settle_styles(cx: &mut Compiler<'_, '_>, settings: &Settings, forced: &[String]) {
    let selected = settings
        .values("outputStyle")
        .last()
        .and_then(|(v, l)| v.as_str().map(|s| (s.to_string(), l.at(&["outputStyle"]))));
    if let Some(first) = forced.first() {
        let name = cx
            .out
            .output_styles
            .iter()
            .find(|o| &o.id == first)
            .map(|o| o.name.clone())
            .unwrap_or_default();
        for o in cx.out.output_styles.iter_mut() {
            if &o.id == first {
                o.applicability = Applicability::Effective;
                o.active = true;
                o.reason = format!(
                    "{}; `force-for-plugin: true` makes it the active style whatever `outputStyle` selects: its \
                     body reaches the system prompt under `# Output Style: {name}`",
                    o.reason
                );
            } else if o.active || selected.as_ref().is_some_and(|(n, _)| *n == o.name) {
                o.active = false;
                o.applicability = Applicability::Shadowed;
                o.reason = format!(
                    "{}; the plugin style `{name}` is forced (`force-for-plugin: true`) and used instead",
                    o.reason
                );
            }
        }
        return;
    }
    let Some((name, at)) = selected.filter(|(n, _)| n.contains(':')) else {
        return;
    };
    let Some(o) = cx
        .out
        .output_styles
        .iter_mut()
        .find(|o| o.name == name && o.source.scope == SourceScope::Plugin)
    else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::OutputStyleUnknown,
                format!(
                    "`outputStyle` in `{}` selects `{name}`, which no installed and enabled plugin gives (a plugin's \
                     style is `plugin:name`); Claude Code keeps the default style.",
                    at.path
                ),
            )
            .at(at),
        );
        return;
    };
    o.applicability = Applicability::Effective;
    o.active = true;
    o.reason = format!(
        "{}; selected by `outputStyle` in `{}`: its body reaches the system prompt under `# Output Style: {name}`",
        o.reason, at.path
    );
    o.selected_by = Some(at);
}

/// The entries of `installed_plugins.json` that apply to this project, in
/// key order; a file that is not JSON is reported.
fn installed(cx: &mut Compiler<'_, '_>, places: &Places<'_>) -> Vec<Installed> {
    let Some(path) = places.in_home("plugins/installed_plugins.json") else {
        return Vec::new();
    };
    let Some(doc) = read_json(cx, &path) else {
        return Vec::new();
    };
    let source = crate::user::source_ref(&path, SourceFormat::Json);
    let project = crate::user::project_key(cx);
    let Some(plugins) = doc.value.get("plugins").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, v) in plugins {
        let records: Vec<(usize, &Value)> = match v {
            Value::Array(a) => a.iter().enumerate().collect(),
            other => vec![(usize::MAX, other)],
        };
        let Some((i, record)) = records
            .into_iter()
            .find(|(_, r)| applies(r, project.as_deref()))
        else {
            continue;
        };
        let index = i.to_string();
        let span: Vec<&str> = if i == usize::MAX {
            vec!["plugins", key]
        } else {
            vec!["plugins", key, &index]
        };
        let at = match doc.span(&span) {
            Some((s, e)) => source.clone().with_lines(s, e),
            None => source.clone(),
        };
        out.push(Installed {
            key: key.clone(),
            at,
            install_path: record
                .get("installPath")
                .and_then(Value::as_str)
                .map(str::to_string),
        });
    }
    out
}

/// True when the install record `r` applies to the project `project`: a
/// `user` or `managed` install (or one without a scope, version 1), or a
/// `project` or `local` install whose `projectPath` is the project.
fn applies(r: &Value, project: Option<&str>) -> bool {
    match r.get("scope").and_then(Value::as_str) {
        None | Some("user" | "managed") => true,
        Some(_) => {
            let path = r.get("projectPath").and_then(Value::as_str);
            path.is_some() && path == project
        }
    }
}

/// Reads and parses the machine JSON file `path`; `None` when absent,
/// unreadable or not JSON (reported, with its line).
fn read_json(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<crate::json::JsonDoc> {
    if cx.kind_at(path).is_none() || !cx.expect_file(path, SourceFormat::Json) {
        return None;
    }
    let text = cx.read(path, SourceFormat::Json)?;
    match crate::json::JsonDoc::parse(&text.text) {
        Ok(doc) => Some(doc),
        Err(e) => {
            let source = crate::user::source_ref(path, SourceFormat::Json);
            let d = Diagnostic::new(
                DiagnosticCode::InvalidJson,
                format!(
                    "`{path}` is not valid JSON ({}); Claude Code cannot tell which plugins are installed, and the \
                     analysis lists none of them.",
                    e.message
                ),
            );
            cx.diag(d.at(e.at_line(source)));
            None
        }
    }
}

/// Whether the settings enable the plugin `key`: the value of the layer
/// of highest precedence that names it in `enabledPlugins` (`true` only
/// when it is the JSON `true`), with where; `None` when no layer names it.
fn enablement(settings: &Settings, key: &str) -> Option<(bool, SourceRef)> {
    settings
        .values("enabledPlugins")
        .into_iter()
        .rev()
        .find_map(|(v, layer)| {
            let on = v.as_object()?.get(key)?;
            Some((on == &Value::Bool(true), layer.at(&["enabledPlugins", key])))
        })
}

/// Reports the installed plugin `entry`, which Claude Code does not load:
/// `off` is the `enabledPlugins` value that turns it off, `None` when no
/// settings layer names it.
fn not_enabled(cx: &mut Compiler<'_, '_>, entry: &Installed, off: Option<SourceRef>) {
    let key = &entry.key;
    let (why, at) = match off {
        Some(at) => (format!("`{}` sets it `false`", at.path), at),
        None => (
            "no settings layer names it in `enabledPlugins`".to_string(),
            entry.at.clone(),
        ),
    };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::PluginNotEnabled,
            format!(
                "The Claude Code plugin `{key}` is installed (`{}`), but {why}: Claude Code loads none of its skills, \
                 commands, agents, hooks or MCP servers. Enable it with `claude plugin enable {key}`.",
                entry.at.path
            ),
        )
        .at(at),
    );
}

/// Reports the enabled plugin `entry`, whose files the analysis does not
/// read: `why` says why. What Claude Code does with such an entry was not
/// observed, so the message says only what the analysis did.
fn not_loaded(cx: &mut Compiler<'_, '_>, entry: &Installed, why: &str) {
    let key = &entry.key;
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::PluginNotLoaded,
            format!(
                "The Claude Code plugin `{key}` is enabled and listed in `{}`, but {why}, so the analysis did not \
                 read it and what it brings is unknown; install it again (`claude plugin install {key}`) for its \
                 files to lie in the user's Claude Code directory.",
                entry.at.path
            ),
        )
        .at(entry.at.clone()),
    );
}

/// The directory the plugin `entry` loads from, on the machine
/// ([module documentation](self)); `None`, reported, when it cannot be
/// read.
fn root(cx: &mut Compiler<'_, '_>, places: &Places<'_>, entry: &Installed) -> Option<RepoPath> {
    let root = match directory_marketplace(cx, places, entry) {
        Some(r) => Some(r),
        None => entry.install_path.as_deref().and_then(|p| places.named(p)),
    };
    let Some(root) = root else {
        let why = match &entry.install_path {
            Some(_) => "its `installPath` lies outside the user's Claude Code directory",
            None => "its entry has no `installPath`",
        };
        not_loaded(cx, entry, why);
        return None;
    };
    if cx.kind_at(&root) != Some(EntryKind::Dir) {
        not_loaded(cx, entry, &format!("its directory `{root}` is missing"));
        return None;
    }
    Some(root)
}

/// For a plugin of a `directory` marketplace: the plugin's directory in
/// that marketplace (its `source` in the marketplace's manifest); `None`
/// for another marketplace or when it cannot be found.
fn directory_marketplace(
    cx: &mut Compiler<'_, '_>,
    places: &Places<'_>,
    entry: &Installed,
) -> Option<RepoPath> {
    let known = places.in_home("plugins/known_marketplaces.json")?;
    let doc = read_json(cx, &known)?;
    let market = doc.value.get(entry.marketplace()?)?;
    if market["source"]["source"].as_str() != Some("directory") {
        return None;
    }
    let dir = places.named(market.get("installLocation")?.as_str()?)?;
    let manifest = dir.join(crate::MARKETPLACE.relative())?;
    let text = places
        .machine
        .read_text(&manifest, crate::READ_LIMIT)
        .ok()?;
    let value: Value = serde_json::from_str(&text.text).ok()?;
    let listed = value["plugins"]
        .as_array()?
        .iter()
        .find(|p| p["name"].as_str() == Some(entry.name()))?;
    let rel = listed["source"].as_str()?.trim_start_matches("./");
    if rel.is_empty() || rel == "." {
        Some(dir)
    } else {
        dir.join(rel.trim_end_matches('/'))
    }
}

/// Loads the enabled plugin `entry` (enabled by `on`): its skills,
/// commands, subagents, hooks and MCP servers join the configuration in
/// the layer `plugin`, and the plugin is listed as loaded with them.
fn load(
    cx: &mut Compiler<'_, '_>,
    places: &Places<'_>,
    entry: &Installed,
    on: SourceRef,
) -> Vec<String> {
    let Some(root) = root(cx, places, entry) else {
        return Vec::new();
    };
    let mut given = Vec::new();
    given.extend(skills(cx, places, &root, entry));
    given.extend(commands(cx, places, &root, entry));
    given.extend(subagents(cx, places, &root, entry));
    given.extend(servers(cx, &root, entry));
    let (styles, forced) = styles(cx, places, &root, entry);
    given.extend(styles);
    if let Some(file) = root.join("hooks/hooks.json") {
        if crate::hooks::installed_plugin(cx, &file, &entry.key) {
            given.push(contribution(
                ContributionKind::Hooks,
                format!("{}:hooks", entry.name()),
                &file,
                entry,
            ));
        }
    }
    given.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    let id = cx.unique_id(format!("claude-code:plugin:{}", entry.key));
    cx.out.plugins.push(Plugin {
        id,
        name: entry.name().to_string(),
        source: entry.at.clone().in_plugin(&entry.key),
        marketplace: entry.marketplace().map(str::to_string),
        enabled_by: Some(on),
        load: PluginLoad::Loaded,
        contributions: given,
    });
    forced
}

/// One contribution of `entry`, from `file`, in the layer `plugin`.
fn contribution(
    kind: ContributionKind,
    name: String,
    file: &RepoPath,
    entry: &Installed,
) -> PluginContribution {
    let format = if file.as_str().ends_with(".json") {
        SourceFormat::Json
    } else {
        SourceFormat::Markdown
    };
    PluginContribution {
        kind,
        name,
        source: crate::user::source_ref(file, format).in_plugin(&entry.key),
    }
}

/// The reason of an item the plugin `entry` gives.
fn given_by(entry: &Installed) -> String {
    format!(
        "given by the plugin `{}`, installed and enabled by the user, in every project",
        entry.key
    )
}

/// The plugin's skills, `skills/<name>/SKILL.md`, offered as
/// `plugin:name`.
fn skills(
    cx: &mut Compiler<'_, '_>,
    places: &Places<'_>,
    root: &RepoPath,
    entry: &Installed,
) -> Vec<PluginContribution> {
    let Some(dir) = root.join("skills") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ent in places.list(&dir) {
        let Some(file) = dir.join(&ent.name).and_then(|d| d.join("SKILL.md")) else {
            continue;
        };
        if ent.kind != EntryKind::Dir || cx.kind_at(&file).is_none() {
            continue;
        }
        let name = format!("{}:{}", entry.name(), ent.name);
        if add_skill(cx, &file, &name, entry) {
            out.push(contribution(ContributionKind::Skill, name, &file, entry));
        }
    }
    out
}

/// The plugin's commands, `commands/**/*.md`, offered as `plugin:name`
/// (directories joined by `:`), listed as skills.
fn commands(
    cx: &mut Compiler<'_, '_>,
    places: &Places<'_>,
    root: &RepoPath,
    entry: &Installed,
) -> Vec<PluginContribution> {
    let Some(dir) = root.join("commands") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for file in crate::user::markdown_below(places, &dir) {
        let Some(rel) = crate::relative_to(&file, &dir) else {
            continue;
        };
        let name = format!(
            "{}:{}",
            entry.name(),
            rel.trim_end_matches(".md").replace('/', ":")
        );
        if add_skill(cx, &file, &name, entry) {
            out.push(contribution(ContributionKind::Command, name, &file, entry));
        }
    }
    out
}

/// Adds the skill or command `file` of the plugin `entry` as `name`; false
/// when Claude Code skips it (reported).
fn add_skill(cx: &mut Compiler<'_, '_>, file: &RepoPath, name: &str, entry: &Installed) -> bool {
    if !cx.expect_file(file, SourceFormat::Markdown) {
        return false;
    }
    let Some(mut s) = crate::skills::plugin_skill(cx, file, name, &given_by(entry)) else {
        return false;
    };
    s.source = s.source.in_plugin(&entry.key);
    cx.out.skills.push(s);
    true
}

/// The plugin's subagents, `agents/*.md`, listed as `plugin:name`.
fn subagents(
    cx: &mut Compiler<'_, '_>,
    places: &Places<'_>,
    root: &RepoPath,
    entry: &Installed,
) -> Vec<PluginContribution> {
    let Some(dir) = root.join("agents") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ent in places.list(&dir) {
        let Some(file) = dir.join(&ent.name).filter(|_| ent.name.ends_with(".md")) else {
            continue;
        };
        if ent.kind != EntryKind::File || !cx.expect_file(&file, SourceFormat::Markdown) {
            continue;
        }
        let Some(mut a) = crate::agents::read_subagent(cx, &file) else {
            continue;
        };
        a.name = format!("{}:{}", entry.name(), a.name);
        a.source = a.source.in_plugin(&entry.key);
        a.plugin = Some(entry.name().to_string());
        a.reason = format!(
            "{}; listed to the model in the `Agent` tool as `- {}: description (Tools: ...)`",
            given_by(entry),
            a.name
        );
        a.id = cx.unique_id(format!("claude-code:subagent:{file}"));
        out.push(contribution(
            ContributionKind::Agent,
            a.name.clone(),
            &file,
            entry,
        ));
        cx.out.subagents.push(a);
    }
    out
}

/// The plugin's MCP servers, in its `.mcp.json`, started as
/// `plugin:<plugin>:<server>` with no approval.
fn servers(
    cx: &mut Compiler<'_, '_>,
    root: &RepoPath,
    entry: &Installed,
) -> Vec<PluginContribution> {
    let Some(file) = root.join(crate::MCP_JSON.relative()) else {
        return Vec::new();
    };
    if cx.kind_at(&file).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for mut server in crate::mcp::plugin_servers(cx, &file) {
        server.name = format!("plugin:{}:{}", entry.name(), server.name);
        server.id = cx.unique_id(format!("claude-code:mcp:{}", server.name));
        server.source = server.source.in_plugin(&entry.key);
        server.applicability = playbookdiff_model::Applicability::Effective;
        server.reason = format!("{}; started with no approval", given_by(entry));
        out.push(contribution(
            ContributionKind::McpServer,
            server.name.clone(),
            &file,
            entry,
        ));
        cx.out.mcp_servers.push(server);
    }
    out
}

/// The plugin's output styles, `output-styles/*.md`, listed as output
/// styles of the layer `plugin` (not active until [`settle_styles`]
/// decides) and as the plugin's contributions, each named
/// `plugin:NAME` with NAME its front matter `name`, else the file name
/// without `.md` (Claude Code 2.1.197 and 2.1.332, the plugin
/// output-style loader); and the ids of those whose front matter sets
/// `force-for-plugin: true`.
fn styles(
    cx: &mut Compiler<'_, '_>,
    places: &Places<'_>,
    root: &RepoPath,
    entry: &Installed,
) -> (Vec<PluginContribution>, Vec<String>) {
    let Some(dir) = root.join("output-styles") else {
        return (Vec::new(), Vec::new());
    };
    let (mut given, mut forced) = (Vec::new(), Vec::new());
    for e in places.list(&dir) {
        let (Some(stem), Some(file)) = (e.name.strip_suffix(".md"), dir.join(&e.name)) else {
            continue;
        };
        if e.kind != EntryKind::File {
            continue;
        }
        let Some((meta, source, _)) =
            crate::agents::read_meta(cx, &file, crate::agents::Role::OutputStyle)
        else {
            continue;
        };
        let own = meta.get("name").and_then(crate::frontmatter::text_field);
        let name = format!(
            "{}:{}",
            entry.name(),
            own.as_deref().filter(|n| !n.is_empty()).unwrap_or(stem)
        );
        let id = cx.unique_id(format!("claude-code:output-style:{file}"));
        if matches!(meta.get("force-for-plugin"), Some(Value::Bool(true))) {
            forced.push(id.clone());
        }
        cx.out.output_styles.push(OutputStyle {
            id,
            name: name.clone(),
            source: source.in_plugin(&entry.key),
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Conditional,
            reason: format!("{}; the user may select it", given_by(entry)),
            description: meta
                .get("description")
                .and_then(crate::frontmatter::text_field),
            active: false,
            selected_by: None,
        });
        given.push(contribution(
            ContributionKind::OutputStyle,
            name,
            &file,
            entry,
        ));
    }
    (given, forced)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_install_applies_to_its_scope() {
        let user = serde_json::json!({"scope": "user"});
        let project = serde_json::json!({"scope": "project", "projectPath": "/w/app"});
        let v1 = serde_json::json!({"installPath": "/h/.claude/plugins/cache/m/p/1"});
        assert!(applies(&user, None));
        assert!(applies(&v1, Some("/w/app")));
        assert!(applies(&project, Some("/w/app")));
        assert!(!applies(&project, Some("/w/other")));
        assert!(!applies(&project, None));
    }
}

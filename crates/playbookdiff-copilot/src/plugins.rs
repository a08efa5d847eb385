//! Installed plugins (local mode): what `copilot plugin install` records
//! in the user's `~/.copilot/config.json` and unpacks below
//! `~/.copilot/installed-plugins/MARKETPLACE/NAME`.
//!
//! Read in 1.0.24's `app.js` (the plugin loaders) and seen with 1.0.24
//! and 1.0.102 (cases `oracle.local_user_layers.home-copilot-plugins` and
//! `home-copilot-plugins-snake`):
//!
//! * the list is `installedPlugins` of `config.json`, else
//!   `installed_plugins` (the key 1.0.24's installer writes): both
//!   releases load the plugin of either key alone, and of both keys only
//!   `installedPlugins`' plugin;
//! * an entry with `enabled` other than `true` gives nothing (the plugin
//!   `off` of `enabled: false` loaded nothing), unless `enabledPlugins`
//!   of the files the release reads says otherwise
//!   ([`Profile::enabled_plugins`]);
//! * the plugin's folder is its `cache_path`, else
//!   `installed-plugins/MARKETPLACE/NAME` of the home, but for its skills
//!   and commands `installed-plugins/NAME@MARKETPLACE`
//!   ([`Plugin::skills_root`]);
//! * a plugin gives the `SKILL.md` skills of its `skills` folder and the
//!   commands of its `commands` folder, listed as skills named by their
//!   file (`session.skills_loaded`, after the user's skills), the custom
//!   agents of its `agents` folder, listed in the `task` tool as
//!   `PLUGIN:ID`, and the MCP servers of its `.mcp.json` (`source:
//!   "plugin"`).
//!
//! Each item's provenance has scope `plugin` and names the plugin as
//! `NAME@MARKETPLACE`. A plugin's hooks (its manifest's `hooks`, else
//! `hooks.json`, else `hooks/hooks.json`) are read by the hooks module.
//! Not modelled: the managed settings' `enabledPlugins` and a
//! repository's (1.0.102), the manifest's own `skills`, `commands`,
//! `agents` and `mcpServers` entries, and `.github/mcp.json`.

use crate::json::{self, Loaded};
use crate::profile::EnabledPlugins;
use crate::Profile;
use playbookdiff_model::{Diagnostic, RepoPath};
use playbookdiff_source::{EntryKind, Machine};
use serde_json::{Map, Value};
use std::path::Path;

/// The user's configuration file that lists the installed plugins.
const CONFIG: &str = ".copilot/config.json";

/// The folder the installer unpacks plugins into, below the home.
const INSTALLED_DIR: &str = ".copilot/installed-plugins";

/// The keys of [`CONFIG`] that list installed plugins, the first present
/// taken.
const LIST_KEYS: [&str; 2] = ["installedPlugins", "installed_plugins"];

/// One enabled installed plugin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plugin {
    /// Its name, the prefix of its agents' ids.
    pub name: String,
    /// `NAME@MARKETPLACE`, as the agent keys it.
    pub key: String,
    /// Its folder on the machine.
    pub root: RepoPath,
    /// The folder its skills and commands are read from: [`Plugin::root`]
    /// when the entry has a `cache_path`, else
    /// `installed-plugins/NAME@MARKETPLACE`, where the installer puts
    /// nothing (1.0.24 `app.js`, the plugin skill loader; seen with 1.0.24
    /// and 1.0.102 on case
    /// `oracle.local_user_layers.home-copilot-plugins-no-cache`: the
    /// plugin's agent and MCP server loaded, its skill and command not).
    pub skills_root: RepoPath,
}

impl Plugin {
    /// `rel` inside the plugin's folder.
    pub(crate) fn path(&self, rel: &str) -> Option<RepoPath> {
        self.root.join(rel)
    }
}

/// The enabled installed plugins of `machine` under `profile`, in the
/// order of the list; an entry without a string `name` or whose folder
/// is not on the machine's home is skipped, and a `config.json` that
/// cannot be read is reported in `diags`.
pub(crate) fn installed(
    machine: &Machine,
    profile: &Profile,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Plugin> {
    let Some(config) = read(machine, CONFIG, diags) else {
        return Vec::new();
    };
    let map = enabled_map(machine, profile, &config, diags);
    let map = map.as_ref();
    let list = LIST_KEYS
        .iter()
        .find_map(|k| config.get(*k))
        .and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(|e| Some((entry(machine, e)?, e)))
        .filter(|(p, e)| {
            let own = e.get("enabled") == Some(&Value::Bool(true));
            let mapped = map.map(|m| m.get(&p.key) == Some(&Value::Bool(true)));
            match profile.enabled_plugins {
                EnabledPlugins::Filter => own && mapped != Some(false),
                EnabledPlugins::Decide => mapped.unwrap_or(own),
            }
        })
        .map(|(p, _)| p)
        .collect()
}

/// `enabledPlugins` as the release reads it: of `config` (the user's
/// `config.json`) while [`Profile::enabled_plugins_in_config`], then of
/// `settings.json` while [`Profile::enabled_plugins_in_settings`], a key
/// of the latter over the former (assumed); `None` when neither file
/// the release reads holds an object there, or the release reads none
/// ([`Profile::enabled_plugins_read`]).
fn enabled_map(
    machine: &Machine,
    profile: &Profile,
    config: &Map<String, Value>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Map<String, Value>> {
    let of = |v: &Map<String, Value>| v.get("enabledPlugins").and_then(Value::as_object).cloned();
    if !profile.enabled_plugins_read {
        return None;
    }
    let mut map = profile
        .enabled_plugins_in_config
        .then(|| of(config))
        .flatten();
    if profile.enabled_plugins_in_settings {
        if let Some(more) = read(machine, SETTINGS, diags).and_then(|s| of(&s)) {
            map.get_or_insert_with(Map::new).extend(more);
        }
    }
    map
}

/// The user's settings file whose `enabledPlugins` 1.0.102 reads.
const SETTINGS: &str = ".copilot/settings.json";

/// The top-level object of the user's JSON file `rel` (below the home),
/// `None` when absent or unusable (reported in `diags`).
fn read(machine: &Machine, rel: &str, diags: &mut Vec<Diagnostic>) -> Option<Map<String, Value>> {
    let path = RepoPath::on_machine("~", rel)?;
    let effect = "the plugins Copilot CLI loads are unknown";
    match json::load_user(machine, &path, effect, diags) {
        Loaded::File(j) => Some(j.value),
        _ => None,
    }
}

/// The plugin of one list entry, `None` without a string `name`.
fn entry(machine: &Machine, e: &Value) -> Option<Plugin> {
    let text = |k: &str| e.get(k).and_then(Value::as_str);
    let name = text("name")?;
    let marketplace = text("marketplace").unwrap_or_default();
    let installed = |folder: &str| RepoPath::on_machine("~", &format!("{INSTALLED_DIR}/{folder}"));
    let (root, skills_root) = match text("cache_path") {
        Some(abs) => {
            let root = machine.name_of(None, Path::new(abs))?;
            (root.clone(), root)
        }
        None => (
            installed(&format!("{marketplace}/{name}"))?,
            installed(&format!("{name}@{marketplace}"))?,
        ),
    };
    Some(Plugin {
        name: name.to_string(),
        key: format!("{name}@{marketplace}"),
        root,
        skills_root,
    })
}

/// The `*.md` files of the folder `rel` of `base` (a plugin's
/// [`Plugin::root`] or [`Plugin::skills_root`]) on `machine`, by name.
pub(crate) fn markdown_files(machine: &Machine, base: &RepoPath, rel: &str) -> Vec<RepoPath> {
    let Some(dir) = base.join(rel) else {
        return Vec::new();
    };
    let mut out: Vec<RepoPath> = machine
        .list_dir(&dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.kind == EntryKind::File && e.name.ends_with(".md"))
        .filter_map(|e| dir.child(&e.name))
        .collect();
    out.sort();
    out
}

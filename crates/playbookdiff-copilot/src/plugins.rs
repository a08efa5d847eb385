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
//!   `off` of `enabled: false` loaded nothing);
//! * the plugin's folder is its `cache_path`, else
//!   `installed-plugins/MARKETPLACE/NAME` of the home;
//! * a plugin gives the `SKILL.md` skills of its `skills` folder and the
//!   commands of its `commands` folder, listed as skills named by their
//!   file (`session.skills_loaded`, after the user's skills), the custom
//!   agents of its `agents` folder, listed in the `task` tool as
//!   `PLUGIN:ID`, and the MCP servers of its `.mcp.json` (`source:
//!   "plugin"`).
//!
//! Each item's provenance has scope `plugin` and names the plugin as
//! `NAME@MARKETPLACE`. Not modelled: `enabledPlugins` (of `config.json`
//! in 1.0.24, of `settings.json` and managed settings in 1.0.102), the
//! manifest's own `skills`, `commands`, `agents`, `hooks` and
//! `mcpServers` entries, `.github/mcp.json`, and plugin hooks
//! (`hooks.json`); 1.0.24's skill loader looks for a plugin without
//! `cache_path` in `installed-plugins/NAME@MARKETPLACE` (its code; not
//! seen).

use crate::json::{self, Loaded};
use playbookdiff_model::{Diagnostic, RepoPath};
use playbookdiff_source::{EntryKind, Machine};
use serde_json::Value;
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
}

impl Plugin {
    /// `rel` inside the plugin's folder.
    pub(crate) fn path(&self, rel: &str) -> Option<RepoPath> {
        self.root.join(rel)
    }
}

/// The enabled installed plugins of `machine`, in the order of the list;
/// an entry without a string `name` or whose folder is not on the
/// machine's home is skipped, and a `config.json` that cannot be read is
/// reported in `diags`.
pub(crate) fn installed(machine: &Machine, diags: &mut Vec<Diagnostic>) -> Vec<Plugin> {
    let Some(path) = RepoPath::on_machine("~", CONFIG) else {
        return Vec::new();
    };
    let effect = "the plugins it lists are unknown";
    let Loaded::File(j) = json::load_user(machine, &path, effect, diags) else {
        return Vec::new();
    };
    let list = LIST_KEYS
        .iter()
        .find_map(|k| j.value.get(*k))
        .and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter(|e| e.get("enabled") == Some(&Value::Bool(true)))
        .filter_map(|e| entry(machine, e))
        .collect()
}

/// The plugin of one list entry, `None` without a string `name`.
fn entry(machine: &Machine, e: &Value) -> Option<Plugin> {
    let text = |k: &str| e.get(k).and_then(Value::as_str);
    let name = text("name")?;
    let marketplace = text("marketplace").unwrap_or_default();
    let root = match text("cache_path") {
        Some(abs) => machine.name_of(None, Path::new(abs))?,
        None => RepoPath::on_machine("~", &format!("{INSTALLED_DIR}/{marketplace}/{name}"))?,
    };
    Some(Plugin {
        name: name.to_string(),
        key: format!("{name}@{marketplace}"),
        root,
    })
}

/// The `*.md` files of the plugin's folder `rel` on `machine`, by name.
pub(crate) fn markdown_files(machine: &Machine, plugin: &Plugin, rel: &str) -> Vec<RepoPath> {
    let Some(dir) = plugin.path(rel) else {
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

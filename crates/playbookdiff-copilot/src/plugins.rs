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
//! * a plugin gives the `SKILL.md` skills of its `skills` folders and the
//!   commands of its `commands` folders, listed as skills named by their
//!   file (`session.skills_loaded`, after the user's skills), the custom
//!   agents of its `agents` paths, listed in the `task` tool as
//!   `PLUGIN:ID` (the folders or files its manifest names, [`paths`]),
//!   and the MCP servers of its `.mcp.json`, else `.github/mcp.json`,
//!   else its manifest's `mcpServers` (`source: "plugin"`).
//!
//! Each item's provenance has scope `plugin` and names the plugin as
//! `NAME@MARKETPLACE`. A plugin's hooks (its manifest's `hooks`, else
//! `hooks.json`, else `hooks/hooks.json`) are read by the hooks module.
//! The repository's `enabledPlugins` ([`REPOSITORY_SETTINGS`]) is read
//! where the release reads it
//! ([`Profile::enabled_plugins_in_repository`]), over the user's map,
//! and so is the managed settings' ([`MANAGED_SETTINGS`],
//! [`Profile::enabled_plugins_managed`]), over every other map: seen with
//! 1.0.102 on cases `oracle.copilot_plugins_user_vs_repo.*` (the
//! repository's `false` over the user's `true`, the managed `true` over
//! the repository's `false`) and
//! `oracle.copilot_plugins_local_settings.home-copilot-plugins` (both
//! `.local` files read). Not modelled: the managed settings 1.0.102
//! fetches for the user's account (its code's `managed_settings`
//! service), which no file shows.

use crate::json::{self, JsonFile, Loaded};
use crate::profile::EnabledPlugins;
use crate::{Cx, Profile};
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
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
/// order of the list, with `repository` the repository's `enabledPlugins`
/// ([`repository_map`]); an entry without a string `name` is skipped,
/// and an enabled one whose `cache_path` lies outside the home is
/// reported in `diags` ([`unread_cache_path`]). A `config.json` that
/// cannot be read is reported once, where its trust is read
/// ([`crate::trust`], whose message names the plugins too); the other
/// files' problems go to `diags`.
pub(crate) fn installed(
    machine: &Machine,
    profile: &Profile,
    repository: Option<&Map<String, Value>>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Plugin> {
    let Some(config) = read(machine, CONFIG, &mut Vec::new()) else {
        return Vec::new();
    };
    let mut map = enabled_map(machine, profile, &config, diags);
    if let Some(more) = repository {
        map.get_or_insert_with(Map::new).extend(more.clone());
    }
    let managed = profile
        .enabled_plugins_managed
        .then(|| read_managed(machine, diags))
        .flatten();
    if let Some(more) = managed {
        map.get_or_insert_with(Map::new).extend(more);
    }
    let map = map.as_ref();
    let list = LIST_KEYS
        .iter()
        .find_map(|k| config.get(*k))
        .and_then(Value::as_array);
    let enabled = |e: &Value, key: &str| {
        let own = e.get("enabled") == Some(&Value::Bool(true));
        let mapped = map.map(|m| m.get(key) == Some(&Value::Bool(true)));
        match profile.enabled_plugins {
            EnabledPlugins::Filter => own && mapped != Some(false),
            EnabledPlugins::Decide => mapped.unwrap_or(own),
        }
    };
    let mut out = Vec::new();
    for e in list.into_iter().flatten() {
        let Some(key) = key_of(e).filter(|k| enabled(e, k)) else {
            continue;
        };
        match entry(machine, e) {
            Some(p) => out.push(p),
            None => diags.extend(unread_cache_path(e, &key)),
        }
    }
    out
}

/// `name@marketplace` of a list entry, `None` without a string `name`.
fn key_of(e: &Value) -> Option<String> {
    let text = |k: &str| e.get(k).and_then(Value::as_str);
    Some(format!(
        "{}@{}",
        text("name")?,
        text("marketplace").unwrap_or_default()
    ))
}

/// The enabled plugin `key` whose entry `e` names a `cache_path` the
/// analysis does not read (outside the home, or not absolute): a
/// `user-config-unavailable` diagnostic at the user's `config.json`,
/// saying what was not read; `None` for an entry without one. What
/// Copilot CLI does with such a folder is not claimed.
fn unread_cache_path(e: &Value, key: &str) -> Option<Diagnostic> {
    e.get("cache_path").and_then(Value::as_str)?;
    let at = RepoPath::on_machine("~", CONFIG)?;
    let message = format!(
        "The Copilot CLI plugin `{key}` is enabled in `{at}`, but its `cache_path` lies outside the home, so the \
         analysis did not read its folder and what it brings is unknown; install it again for its folder to lie \
         in `~/.copilot`."
    );
    let d = Diagnostic::new(DiagnosticCode::UserConfigUnavailable, message);
    Some(d.at(SourceRef {
        scope: SourceScope::User,
        ..SourceRef::project(at, SourceFormat::Json)
    }))
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

/// The repository's settings files, below the git root, whose
/// `enabledPlugins` a release of [`Profile::enabled_plugins_in_repository`]
/// reads, a later file's key over an earlier's (the order and merge of
/// 1.0.24's repository settings loader, which reads them for other keys).
/// Seen with 1.0.102: `.github/copilot/settings.local.json` turning
/// `kit@acme` off and `.claude/settings.local.json` turning the disabled
/// `off@acme` on (case
/// `oracle.copilot_plugins_local_settings.home-copilot-plugins`); the
/// order between two files naming one plugin is not observed.
pub(crate) const REPOSITORY_SETTINGS: [&str; 4] = [
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".github/copilot/settings.json",
    ".github/copilot/settings.local.json",
];

/// `enabledPlugins` of the repository's settings ([`REPOSITORY_SETTINGS`]
/// at the git root) merged, `None` when the release reads none or no file
/// holds an object there; a file that cannot be read is reported.
pub(crate) fn repository_map(cx: &mut Cx<'_, '_>, profile: &Profile) -> Option<Map<String, Value>> {
    if !profile.enabled_plugins_in_repository {
        return None;
    }
    let root = crate::git_root(cx);
    let effect = "the plugins Copilot CLI loads are unknown";
    let mut map: Option<Map<String, Value>> = None;
    for rel in REPOSITORY_SETTINGS {
        let Some(path) = root.join(rel) else {
            continue;
        };
        if let Loaded::File(f) = json::load(cx, &path, effect) {
            if let Some(more) = f.value.get("enabledPlugins").and_then(Value::as_object) {
                map.get_or_insert_with(Map::new).extend(more.clone());
            }
        }
    }
    map
}

/// The managed settings file of the machine whose `enabledPlugins` a
/// release of [`Profile::enabled_plugins_managed`] reads (named in
/// 1.0.102's code; seen with 1.0.102 on case
/// `oracle.local_user_layers.home-copilot-plugins.managed-copilot-enabled-plugins`).
pub(crate) const MANAGED_SETTINGS: &str = "etc/github-copilot/managed-settings.json";

/// `enabledPlugins` of [`MANAGED_SETTINGS`], `None` when absent or not an
/// object; a file that cannot be read is reported in `diags`.
fn read_managed(machine: &Machine, diags: &mut Vec<Diagnostic>) -> Option<Map<String, Value>> {
    let path = RepoPath::on_machine("/", MANAGED_SETTINGS)?;
    let effect = "the plugins Copilot CLI loads are unknown";
    match json::load_user(machine, &path, effect, diags) {
        Loaded::File(j) => j.value.get("enabledPlugins")?.as_object().cloned(),
        _ => None,
    }
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

/// The folders of a plugin, in order, whose `plugin.json` is its
/// manifest (1.0.24 `app.js`, the manifest reader: `.plugin`, the folder
/// itself, `.github/plugin`, `.claude-plugin`).
const MANIFEST_DIRS: [&str; 4] = [".plugin/", "", ".github/plugin/", ".claude-plugin/"];

/// The manifest of the plugin whose folder is `base` on `machine`: the
/// first `plugin.json` of [`MANIFEST_DIRS`] that parses (one that does
/// not is reported in `diags` and the next tried, as the release does).
pub(crate) fn manifest(
    machine: &Machine,
    base: &RepoPath,
    diags: &mut Vec<Diagnostic>,
) -> Option<JsonFile> {
    let effect = "Copilot CLI reads the plugin without this manifest";
    MANIFEST_DIRS.iter().find_map(|dir| {
        let path = base.join(&format!("{dir}plugin.json"))?;
        match json::load_user(machine, &path, effect, diags) {
            Loaded::File(f) => Some(f),
            _ => None,
        }
    })
}

/// A manifest's path `rel` inside the plugin's folder `base`, a leading
/// `./` dropped; `None` when it leaves the folder (the release's error
/// "path escapes plugin directory").
pub(crate) fn inside(base: &RepoPath, rel: &str) -> Option<RepoPath> {
    let path = base.join(rel.strip_prefix("./").unwrap_or(rel))?;
    let root = format!("{}/", base.as_str());
    (path == *base || path.as_str().starts_with(&root)).then_some(path)
}

/// The paths a plugin whose folder is `base` gives for `kind` (`skills`,
/// `commands` or `agents`), as its manifest's entry of that name says
/// (1.0.24 `app.js`, the manifest path resolver; seen with 1.0.24 and
/// 1.0.102, case `oracle.local_user_layers.home-copilot-plugin-manifest`):
/// without an entry, the folder `kind`; a string or an array of strings,
/// those paths instead of it; `{"paths": [...]}`, those paths after it,
/// or instead of it with `"exclusive": true`. A path leaving the folder,
/// or an entry of another shape, gives nothing (the release's error).
pub(crate) fn paths(machine: &Machine, base: &RepoPath, kind: &str) -> Vec<RepoPath> {
    let entry = manifest(machine, base, &mut Vec::new()).and_then(|m| m.value.get(kind).cloned());
    let listed = |v: &Value| -> Option<Vec<RepoPath>> {
        v.as_array()?
            .iter()
            .map(|p| inside(base, p.as_str()?))
            .collect()
    };
    let default = base.join(kind).into_iter();
    let out = match &entry {
        None => Some(default.collect()),
        Some(Value::String(p)) => inside(base, p).map(|p| vec![p]),
        Some(v @ Value::Array(_)) => listed(v),
        Some(Value::Object(o)) => o.get("paths").and_then(listed).map(|more| {
            if o.get("exclusive")
                .is_some_and(|e| e.as_bool() == Some(true))
            {
                more
            } else {
                default.chain(more).collect()
            }
        }),
        Some(_) => None,
    };
    out.unwrap_or_default()
}

/// The `*.md` files of the folder `dir` on `machine`, by name.
pub(crate) fn markdown_in(machine: &Machine, dir: &RepoPath) -> Vec<RepoPath> {
    let mut out: Vec<RepoPath> = machine
        .list_dir(dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.kind == EntryKind::File && e.name.ends_with(".md"))
        .filter_map(|e| dir.child(&e.name))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paths of `kind` for a plugin whose `plugin.json` holds
    /// `manifest` (none when `None`), as `~/`-relative strings.
    fn paths_of(manifest: Option<&str>, kind: &str) -> Vec<String> {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("p");
        std::fs::create_dir_all(&dir).unwrap();
        if let Some(m) = manifest {
            std::fs::write(dir.join("plugin.json"), m).unwrap();
        }
        let machine = Machine::new(Some(home.path().to_path_buf()));
        let base = RepoPath::on_machine("~", "p").unwrap();
        paths(&machine, &base, kind)
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    /// The manifest path shapes of 1.0.24's resolver, each seen on case
    /// `oracle.local_user_layers.home-copilot-plugin-manifest`.
    #[test]
    fn a_manifest_entry_replaces_or_extends_the_default_folder() {
        let cases: &[(Option<&str>, &[&str])] = &[
            (None, &["~/p/skills"]),
            (Some(r#"{"name": "p"}"#), &["~/p/skills"]),
            (Some(r#"{"skills": "./more"}"#), &["~/p/more"]),
            (Some(r#"{"skills": ["a", "./b"]}"#), &["~/p/a", "~/p/b"]),
            (
                Some(r#"{"skills": {"paths": ["a"]}}"#),
                &["~/p/skills", "~/p/a"],
            ),
            (
                Some(r#"{"skills": {"paths": ["a"], "exclusive": true}}"#),
                &["~/p/a"],
            ),
            // Leaving the folder, or another shape: the release's error.
            (Some(r#"{"skills": "../other"}"#), &[]),
            (Some(r#"{"skills": ["a", "../../x"]}"#), &[]),
            (Some(r#"{"skills": {"exclusive": true}}"#), &[]),
            (Some(r#"{"skills": 3}"#), &[]),
        ];
        for (manifest, want) in cases {
            assert_eq!(paths_of(*manifest, "skills"), *want, "{manifest:?}");
        }
    }
}

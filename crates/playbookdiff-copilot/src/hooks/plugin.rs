//! The hooks of the installed plugins (local mode).
//!
//! Read in 1.0.24's `app.js` (the plugin hook loader and the manifest
//! reader) and seen with 1.0.24 and 1.0.102 (case
//! `oracle.hooks_copilot_gemini.home-copilot-plugin-hooks`): each enabled
//! installed plugin ([`crate::plugins::installed`]) gives the hooks of
//! one file, the first of
//!
//! 1. its manifest's `hooks`: a path inside the plugin's folder (a
//!    leading `./` dropped) when a string and that file exists, or the
//!    events object itself ([`crate::plugins::manifest`]);
//! 2. its `hooks.json`;
//! 3. its `hooks/hooks.json`.
//!
//! A plugin with both `hooks.json` and `hooks/hooks.json` ran only the
//! first's hooks; a manifest `hooks` (path or object) won over
//! `hooks.json`; a disabled plugin's hooks did not run. A manifest path
//! that leaves the plugin's folder gives no hooks (the loader's error).
//! The hooks run in the plugin's folder, with `CLAUDE_PLUGIN_ROOT` its
//! folder and `CLAUDE_PROJECT_DIR` the project's; they load with the
//! user's hooks and run without the folder's trust: seen with 1.0.24 and
//! 1.0.102 (case
//! `oracle.hooks_copilot_gemini.home-copilot-plugin-hooks-untrusted`,
//! `trusted_folders` naming another folder): every enabled plugin's hooks
//! ran, while 1.0.102 ran none of the repository's.

use super::{Origin, Release};
use crate::json::{self, JsonFile, Loaded};
use crate::plugins::{self, Plugin};
use crate::trust::FolderTrust;
use crate::{Cx, Profile};
use playbookdiff_model::{Diagnostic, DiagnosticCode, Hook};
use playbookdiff_source::{EntryKind, Machine};
use serde_json::Value;

/// The hooks files a plugin is looked up for after its manifest, the
/// first that parses taken.
const HOOKS_FILES: [&str; 2] = ["hooks.json", "hooks/hooks.json"];

/// What a problem with a plugin's hooks file costs.
const EFFECT: &str = "Copilot CLI runs none of the plugin's hooks";

/// The hooks of the enabled installed plugins on `machine`, plugin by
/// plugin in the order of the list, each with scope `plugin` and the
/// plugin's `NAME@MARKETPLACE`.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    version: &str,
    machine: &Machine,
) -> Vec<Hook> {
    let mut out = Vec::new();
    let repository = crate::plugins::repository_map(cx, profile);
    for plugin in plugins::installed(machine, profile, repository.as_ref(), &mut Vec::new()) {
        let Some(file) = hooks_file(machine, &plugin, &mut cx.diags) else {
            continue;
        };
        let release = Release {
            profile,
            name: format!("Copilot CLI {version}"),
            root: plugin.root.clone(),
            trust: FolderTrust::Assumed,
            plugin: Some(&plugin),
        };
        let before = cx.diags.len();
        let mut hooks = release.read(cx, &file, Origin::Plugin);
        scripts_on_machine(cx, machine, &mut hooks, before);
        out.extend(hooks);
    }
    out
}

/// The file whose `hooks` the plugin registers (see the module), `None`
/// when it has none.
fn hooks_file(machine: &Machine, plugin: &Plugin, diags: &mut Vec<Diagnostic>) -> Option<JsonFile> {
    if let Some(manifest) = plugins::manifest(machine, &plugin.root, diags) {
        match manifest.value.get("hooks") {
            Some(Value::String(rel)) => {
                let path = plugins::inside(&plugin.root, rel)?;
                match json::load_user(machine, &path, EFFECT, diags) {
                    Loaded::File(f) => return Some(f),
                    Loaded::Missing => {}
                    _ => return None,
                }
            }
            Some(Value::Object(_)) => return Some(manifest),
            _ => {}
        }
    }
    HOOKS_FILES.iter().find_map(|rel| {
        let path = plugin.path(rel)?;
        match json::load_user(machine, &path, EFFECT, diags) {
            Loaded::File(f) => Some(f),
            _ => None,
        }
    })
}

/// The scripts of a plugin's `hooks`, which lie on the machine rather
/// than in the repository, looked up there; the toolkit's reports (from
/// `cx.diags[before..]`) of a script that is there are withdrawn.
fn scripts_on_machine(cx: &mut Cx<'_, '_>, machine: &Machine, hooks: &mut [Hook], before: usize) {
    let mut found = Vec::new();
    for s in hooks.iter_mut().filter_map(|h| h.script.as_mut()) {
        s.present = machine
            .stat(&s.path)
            .is_ok_and(|st| st.kind == EntryKind::File);
        if s.present {
            found.push(s.path.to_string());
        }
    }
    let mut i = 0;
    cx.diags.retain(|d| {
        i += 1;
        !(i > before
            && d.code == DiagnosticCode::HookScriptMissing
            && d.subject.as_ref().is_some_and(|p| found.contains(p)))
    });
}

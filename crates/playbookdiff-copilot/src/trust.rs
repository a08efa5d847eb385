//! The folder's trust, read in local mode from the user's
//! `~/.copilot/config.json`.
//!
//! Copilot CLI keeps the folders the user trusts in `trusted_folders` of
//! `~/.copilot/config.json` (both profiled releases; 1.0.102 keeps them
//! there beside its user settings of `settings.json`, changelog 1.0.97).
//! A folder is trusted when it is one of them or lies below one (1.0.24
//! `app.js`, `isFolderTrusted`: the entries compared by `path.relative`
//! after `realpath`, case-insensitively where the file system is). The releases that ask
//! for trust ([`crate::Profile::trust_gates_hooks_and_mcp`]) run the
//! repository's hooks and start its MCP servers only in a trusted folder;
//! in `-p` mode they do not ask (seen with 1.0.102 on cases
//! `oracle.hooks_copilot_gemini.home-copilot-untrusted` and
//! `oracle.local_user_layers.home-copilot-untrusted`: no repository hook
//! ran and no workspace server started when the list named only another
//! folder). The analysis resolves an entry's links, `.` and `..` and
//! compares the paths case-sensitively ([`contains`]).

use crate::json::{self, Loaded};
use crate::{Cx, Profile};
use playbookdiff_model::{RepoPath, SourceRef};
use playbookdiff_source::Machine;
use serde_json::Value;
use std::path::Path;

/// The user's configuration file below the home.
pub(crate) const CONFIG: &str = ".copilot/config.json";

/// Whether the launch directory is a folder the user trusts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FolderTrust {
    /// Not known: repo mode, or no user configuration was read; the
    /// analysis assumes a trusted folder and says so.
    Assumed,
    /// `trusted_folders` (at this source) names cwd or a folder above it.
    Trusted(SourceRef),
    /// `trusted_folders` is read (at this source, or absent from the
    /// file) and names neither cwd nor a folder above it.
    NotTrusted(Option<SourceRef>),
}

/// The trust of cwd on `machine` (local mode): `trusted_folders` of
/// `~/.copilot/config.json`. [`FolderTrust::Assumed`] without a machine,
/// without the repository's absolute path, or when the file is missing
/// or unusable.
///
/// A `config.json` that cannot be used is reported here, once, also for
/// the releases that read its hooks ([`crate::Profile::user_settings`]).
pub(crate) fn read(
    cx: &mut Cx<'_, '_>,
    machine: Option<&Machine>,
    profile: &Profile,
) -> FolderTrust {
    let Some(machine) = machine else {
        return FolderTrust::Assumed;
    };
    let Some(path) = RepoPath::on_machine("~", CONFIG) else {
        return FolderTrust::Assumed;
    };
    // The one report of this file: the plugins it lists are read too
    // ([`crate::plugins::installed`]).
    let effect = if profile.user_settings == CONFIG {
        "the folder's trust and the plugins Copilot CLI loads are unknown, and Copilot CLI runs none of the hooks it registers"
    } else {
        "the folder's trust and the plugins Copilot CLI loads are unknown"
    };
    let Loaded::File(j) = json::load_user(machine, &path, effect, &mut cx.diags) else {
        return FolderTrust::Assumed;
    };
    let Some(root) = cx.repo.tree().absolute_root() else {
        return FolderTrust::Assumed;
    };
    let cwd = if cx.context.cwd.is_root() {
        root.to_path_buf()
    } else {
        root.join(cx.context.cwd.as_str())
    };
    let Some(list) = j.value.get("trusted_folders") else {
        return FolderTrust::NotTrusted(None);
    };
    let source = j.source(&["trusted_folders"]);
    let names = |f: &Value| {
        f.as_str()
            .is_some_and(|f| Path::new(f).is_absolute() && contains(machine, Path::new(f), &cwd))
    };
    if list.as_array().is_some_and(|a| a.iter().any(names)) {
        FolderTrust::Trusted(source)
    } else {
        FolderTrust::NotTrusted(Some(source))
    }
}

/// True when `dir` is `folder` or lies below it, `folder` resolved as
/// Copilot CLI resolves it ([`Machine::real_path`]: links, `.` and `..`)
/// and the names compared case-sensitively, as it compares them on a
/// case-sensitive file system (1.0.24 `app.js`, `isFolderTrusted`:
/// `path.relative`, lower-cased only where the file system ignores case;
/// seen with 1.0.102 on cases
/// `oracle.local_user_layers.home-copilot-trusted-case`, `-dotdot` and
/// `-link`).
fn contains(machine: &Machine, folder: &Path, dir: &Path) -> bool {
    dir.strip_prefix(machine.real_path(folder)).is_ok()
}

impl FolderTrust {
    /// The sentence that says why the repository's hooks and MCP servers
    /// wait, for [`FolderTrust::NotTrusted`].
    pub(crate) fn not_trusted_reason(&self) -> Option<String> {
        match self {
            FolderTrust::NotTrusted(_) => Some("the launch directory is not in `trusted_folders` of `~/.copilot/config.json` (nor below a folder there): Copilot CLI asks for trust when an interactive session starts and waits for it; in `-p` mode it does not ask".to_string()),
            _ => None,
        }
    }

    /// The file that decided, when read.
    pub(crate) fn source(&self) -> Option<SourceRef> {
        match self {
            FolderTrust::Trusted(s) | FolderTrust::NotTrusted(Some(s)) => Some(s.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_holds_its_folder_and_below_after_links_and_by_case() {
        let t = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(real.join("repo/pkg")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(real.join("repo"), real.join("link")).unwrap();
        let machine = Machine::new(None);
        let cwd = real.join("repo/pkg");
        let at = |s: &str| real.join(s);
        for (entry, holds) in [
            (at("repo"), true),
            (at("repo/pkg"), true),
            (at("repo/missing/.."), true),
            (at("./repo/"), true),
            (at("link"), cfg!(unix)),
            (at("REPO"), false),
            (at("repo/pkg/sub"), false),
            (at("rep"), false),
        ] {
            assert_eq!(
                contains(&machine, &entry, &cwd),
                holds,
                "{}",
                entry.display()
            );
        }
    }
}

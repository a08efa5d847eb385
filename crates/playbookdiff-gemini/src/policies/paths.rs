//! The policy files of the machine's tiers: the system's folder, the
//! settings' `adminPolicyPaths` and `policyPaths`, the user's folder.
//!
//! Gemini CLI (`getPolicyDirectories` and `createPolicyEngineConfig` in
//! `packages/core/src/policy/config.ts`, 0.34.0 and 0.61.0) reads, in
//! this order, `/etc/gemini-cli/policies` (tier `admin`), the admin
//! policy paths (tier `admin`), then the user's policy paths in place of
//! `~/.gemini/policies` when there are some (tier `user`), else that
//! folder. A path is a folder (its `.toml` files, regular files only, by
//! name) or one `.toml` file (`readPolicyFiles`); `~` is the home
//! (`resolvePath`), and a relative path is resolved from the launch
//! directory (the process's working directory). From the release of
//! [`Profile::settings_policy_paths`] on, the paths come from the
//! `--policy` and `--admin-policy` flags or else the merged settings'
//! `policyPaths` and `adminPolicyPaths` (both merged by union, system
//! defaults first, then the user's, the workspace's and the system's
//! settings); the admin paths are ignored ("Security Warning: Ignoring
//! --admin-policy") when the system's folder holds a `.toml` file.
//! 0.34.0 reads only the `--policy` flag (`policyPaths: argv.policy` in
//! `dist/src/config/config.js`) and has no admin paths. The analysis
//! takes Gemini CLI as launched without those flags (an assumption of
//! the compilation). Seen with 0.34.0 and 0.61.0 on case
//! `oracle.local_gemini_policies.home-gemini-settings-policies`.

use super::{folder, Place, Rule, Tier, ADMIN_DIR, USER_DIR};
use crate::settings::Settings;
use crate::{Cx, Profile};
use playbookdiff_model::{RepoPath, SourceFormat, SourceRef, SourceScope};
use playbookdiff_source::Machine;

/// A settings key that names policy files or folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PathsKey {
    /// `policyPaths`: the user tier, in place of `~/.gemini/policies`.
    User,
    /// `adminPolicyPaths`: the admin tier.
    Admin,
}

impl PathsKey {
    fn key(self) -> &'static str {
        match self {
            PathsKey::User => "policyPaths",
            PathsKey::Admin => "adminPolicyPaths",
        }
    }
}

/// Why the rules of the admin policy paths decide nothing.
const ADMIN_IGNORED: &str = "Gemini CLI ignores `adminPolicyPaths` when the system's `/etc/gemini-cli/policies` holds a `.toml` file (\"Security Warning: Ignoring --admin-policy\").";

/// The rules of the machine's policy tiers, in the order Gemini CLI loads
/// them: the system's folder, the admin policy paths, the user's policy
/// paths or else `~/.gemini/policies`.
pub(super) fn rules(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: &Machine,
    all: &Settings,
) -> Vec<Rule> {
    let mut out = Vec::new();
    let admin_dir = RepoPath::on_machine("/", ADMIN_DIR);
    if let Some(dir) = &admin_dir {
        out.extend(folder(cx, Place::Machine(machine), dir, Tier::Admin, None));
    }
    let (admin, user) = if profile.settings_policy_paths {
        (merged(all, PathsKey::Admin), merged(all, PathsKey::User))
    } else {
        (Vec::new(), Vec::new())
    };
    let ignored = !admin.is_empty() && admin_dir.is_some_and(|d| holds_toml(machine, &d));
    for path in &admin {
        let mut rules = read(cx, machine, path, Tier::Admin);
        if ignored {
            rules
                .iter_mut()
                .for_each(|r| r.dropped = Some(ADMIN_IGNORED));
        }
        out.extend(rules);
    }
    if user.is_empty() {
        if let Some(dir) = RepoPath::on_machine("~", USER_DIR) {
            out.extend(folder(cx, Place::Machine(machine), &dir, Tier::User, None));
        }
    }
    for path in &user {
        out.extend(read(cx, machine, path, Tier::User));
    }
    out
}

/// The merged list at `key`: every settings file's entries, the system
/// defaults' first, then the user's, the workspace's and the system's,
/// each once (`MergeStrategy.UNION`).
fn merged(all: &Settings, key: PathsKey) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for file in all.by_precedence().into_iter().rev() {
        for entry in playbookdiff_adapter::json::strings(file.get(&[key.key()])) {
            if !entry.is_empty() && !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    out
}

/// Whether the folder `dir` holds an entry whose name ends `.toml`.
fn holds_toml(machine: &Machine, dir: &RepoPath) -> bool {
    machine
        .list_dir(dir)
        .is_ok_and(|e| e.iter().any(|e| e.name.ends_with(".toml")))
}

/// The rules of the policy path `path` (a folder, or a `.toml` file) in
/// tier `tier`; none when it names nothing readable.
fn read(cx: &mut Cx<'_, '_>, machine: &Machine, path: &str, tier: Tier) -> Vec<Rule> {
    let Some((place, at)) = resolve(cx, machine, path) else {
        return Vec::new();
    };
    if place.list_dir(cx, &at).is_some() {
        return folder(cx, place, &at, tier, None);
    }
    if !path.ends_with(".toml") {
        return Vec::new();
    }
    let source = SourceRef {
        scope: SourceScope::of_path(&at),
        ..SourceRef::project(at, SourceFormat::Toml)
    };
    super::file(cx, place, source, tier)
}

/// Where the policy path `path` lies: `~` and `~/...` below the home,
/// an absolute path on the machine, a relative one below the launch
/// directory (in the repository); `None` for a path that leaves it or
/// cannot be named.
fn resolve<'m>(cx: &Cx<'_, '_>, machine: &'m Machine, path: &str) -> Option<(Place<'m>, RepoPath)> {
    let path = path.trim_end_matches('/');
    if path == "~" {
        return Some((Place::Machine(machine), RepoPath::on_machine("~", "")?));
    }
    if let Some(rest) = path.strip_prefix("~/") {
        return Some((Place::Machine(machine), RepoPath::on_machine("~", rest)?));
    }
    if let Some(rest) = path.strip_prefix('/') {
        return Some((Place::Machine(machine), RepoPath::on_machine("/", rest)?));
    }
    let rel = path.trim_start_matches("./");
    Some((Place::Repo, cx.context.cwd.join(rel)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Workspace;

    #[test]
    fn the_paths_are_merged_by_union_lowest_precedence_first() {
        let file = |text: &str| crate::settings::parse_manifest(RepoPath::root(), text).unwrap();
        let all = Settings {
            user: file(r#"{"policyPaths": ["~/a", "~/b"]}"#),
            workspace: file(r#"{"policyPaths": ["~/b", "p"], "adminPolicyPaths": ["/x"]}"#),
            system: Workspace::default(),
            defaults: file(r#"{"policyPaths": ["/d"]}"#),
        };
        assert_eq!(merged(&all, PathsKey::User), ["/d", "~/a", "~/b", "p"]);
        assert_eq!(merged(&all, PathsKey::Admin), ["/x"]);
    }
}

//! `guard status` (and `check`): per agent, whether the guard is
//! registered, in which layers, and what switches it off, from the hosts'
//! own files. Pure functions over texts; the caller reads the files.

use crate::install::{marker, target, Places, Scope};
use std::path::{Path, PathBuf};

/// One layer that registers the guard: its scope, file and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    /// The scope.
    pub scope: Scope,
    /// The registration file ([`crate::install::target`]).
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// One agent's guard: the layers that register it and what switches it
/// off or could.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostStatus {
    /// The agent.
    pub host: crate::Host,
    /// The layers holding the guard's registration, managed first.
    pub layers: Vec<Layer>,
    /// What switches it off now (`active`) or could.
    pub switches: Vec<Switch>,
}

impl HostStatus {
    /// Whether some layer registers the guard and nothing switches it off.
    pub fn guarded(&self) -> bool {
        !self.layers.is_empty() && !self.switches.iter().any(|s| s.active)
    }

    /// `guarded`, `not guarded` or `guarded, but switched off`.
    pub fn verdict(&self) -> &'static str {
        match (self.layers.is_empty(), self.guarded()) {
            (true, _) => "not guarded",
            (false, true) => "guarded",
            (false, false) => "guarded, but switched off",
        }
    }

    /// The command that registers the guard where no layer does.
    pub fn install_remedy(&self) -> Option<String> {
        self.layers.is_empty().then(|| {
            format!(
                "playbookdiff guard install --host {} --scope {} --write",
                self.host.id(),
                best_scope(self.host).as_str()
            )
        })
    }
}

/// The guard's status for `host`, from the files `read` returns (the
/// caller's I/O; `None`: missing or unreadable).
pub fn status(
    host: crate::Host,
    places: &Places,
    files: &SwitchFiles,
    read: impl Fn(&Path) -> Option<String>,
) -> HostStatus {
    let layers: Vec<Layer> = [Scope::Managed, Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let path = target(host, scope, places).ok()?;
            let text = read(&path).filter(|t| t.contains(&marker(host)))?;
            Some(Layer { scope, path, text })
        })
        .collect();
    let switches = switches(host, files, &layers);
    HostStatus {
        host,
        layers,
        switches,
    }
}

/// The files `guard status` reads for the switches, as text (empty when
/// missing).
#[derive(Clone, Debug, Default)]
pub struct SwitchFiles {
    /// `.claude/settings.json` and `.claude/settings.local.json`.
    pub claude_settings: Vec<(String, String)>,
    /// The project's `.codex/config.toml`.
    pub codex_config: String,
    /// `$CODEX_HOME/config.toml` (the trusted hashes).
    pub codex_user_config: String,
    /// `/etc/codex/requirements.toml`, when present.
    pub codex_requirements: Option<String>,
}

impl SwitchFiles {
    /// The switch files of the work tree and user of `places`, read with
    /// `read` (the caller's I/O; `None`: missing or unreadable).
    pub fn read(places: &Places, read: impl Fn(&Path) -> Option<String>) -> SwitchFiles {
        let root = &places.root;
        SwitchFiles {
            claude_settings: [".claude/settings.json", ".claude/settings.local.json"]
                .iter()
                .map(|f| (f.to_string(), read(&root.join(f)).unwrap_or_default()))
                .collect(),
            codex_config: read(&root.join(".codex/config.toml")).unwrap_or_default(),
            codex_user_config: places
                .codex_home
                .as_ref()
                .and_then(|h| read(&h.join("config.toml")))
                .unwrap_or_default(),
            codex_requirements: read(Path::new("/etc/codex/requirements.toml")),
        }
    }
}

/// One thing that switches a guard off or could: whether it does now,
/// and the sentence with its remedy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Whether it switches the guard off now.
    pub active: bool,
    /// What it is and what to do.
    pub line: String,
}

/// What switches `host`'s guard off (`layers`: the scopes and files that
/// register it). Sources: surfaces-and-guard's table "switched off by".
pub fn switches(host: crate::Host, files: &SwitchFiles, layers: &[Layer]) -> Vec<Switch> {
    let managed = layers.iter().any(|l| l.scope == Scope::Managed);
    let sw = |active: bool, line: String| Switch { active, line };
    let mut out = Vec::new();
    match host {
        crate::Host::ClaudeCode => {
            for (name, text) in &files.claude_settings {
                let v: Option<serde_json::Value> = serde_json::from_str(text).ok();
                if v.and_then(|v| v["disableAllHooks"].as_bool()) == Some(true) {
                    out.push(sw(!managed, format!("`disableAllHooks: true` in {name} turns off user and project hooks; remove it, or install with --scope managed")));
                }
            }
            if !managed {
                out.push(sw(false, "`disableAllHooks: true` in a project's .claude/settings.json, or `--settings` with it; only the managed layer survives".into()));
            }
        }
        crate::Host::Codex => {
            let pinned = files
                .codex_requirements
                .as_deref()
                .is_some_and(|t| !codex_hooks_disabled(t) && t.contains("hooks"));
            if codex_hooks_disabled(&files.codex_config) && !pinned {
                out.push(sw(true, "`[features] hooks = false` in .codex/config.toml (a trusted project) turns every hook off; remove it, or pin `[features] hooks = true` in /etc/codex/requirements.toml".into()));
            } else if !pinned {
                out.push(sw(false, "`[features] hooks = false` in a trusted project's .codex/config.toml; pin `[features] hooks = true` in /etc/codex/requirements.toml".into()));
            }
            for layer in layers.iter().filter(|l| l.scope != Scope::Managed) {
                let entries = crate::codex_trust::entries(
                    &layer.path.to_string_lossy(),
                    &layer.text,
                    &marker(host),
                );
                let trusted = !entries.is_empty()
                    && entries
                        .iter()
                        .all(|e| crate::codex_trust::is_trusted(&files.codex_user_config, e));
                if !trusted {
                    out.push(sw(!managed, format!("the {} hook {} has no trusted hash (or one of an older command) in $CODEX_HOME/config.toml, so Codex does not run it; run `playbookdiff guard install --host codex --scope user --write`, trust it in Codex, or install with --scope managed", layer.scope.as_str(), layer.path.display())));
                }
            }
        }
        crate::Host::OpenCode => out.push(sw(
            false,
            "`opencode --pure` starts without plugins, and so without the guard".into(),
        )),
    }
    out
}

/// The scope `guard status` proposes for an unguarded `host`: managed
/// where the host has it.
pub fn best_scope(host: crate::Host) -> Scope {
    match host {
        crate::Host::OpenCode => Scope::Project,
        _ => Scope::Managed,
    }
}

/// Whether a Codex `config.toml` text turns hooks off (`[features]
/// hooks = false`, or the older `codex_hooks = false`).
pub fn codex_hooks_disabled(config: &str) -> bool {
    let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else {
        return false;
    };
    let features = doc.get("features");
    ["hooks", "codex_hooks"]
        .iter()
        .any(|k| features.and_then(|f| f.get(k)).and_then(|v| v.as_bool()) == Some(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_switches_are_read() {
        assert!(codex_hooks_disabled("[features]\nhooks = false\n"));
        assert!(!codex_hooks_disabled("[features]\nhooks = true\n"));
    }

    #[test]
    fn a_codex_hook_is_trusted_only_with_its_current_hash() {
        let places = Places {
            root: PathBuf::from("/r"),
            home: Some(PathBuf::from("/h")),
            codex_home: Some(PathBuf::from("/h/.codex")),
            xdg_config: None,
        };
        let hooks = crate::install::merged(crate::Host::Codex, None, "/bin/pd")
            .unwrap()
            .unwrap();
        let user = PathBuf::from("/h/.codex/hooks.json");
        let entries = crate::codex_trust::entries(
            "/h/.codex/hooks.json",
            &hooks,
            &marker(crate::Host::Codex),
        );
        let config = crate::codex_trust::trusted(None, &entries)
            .unwrap()
            .unwrap();
        let read = |config: String| {
            let hooks = hooks.clone();
            let user = user.clone();
            move |p: &Path| {
                if p == user {
                    Some(hooks.clone())
                } else if p == Path::new("/h/.codex/config.toml") {
                    Some(config.clone())
                } else {
                    None
                }
            }
        };
        let run = |config: String| {
            let r = read(config);
            let files = SwitchFiles::read(&places, &r);
            status(crate::Host::Codex, &places, &files, &r)
        };
        let trusted = run(config.clone());
        assert_eq!(trusted.layers.len(), 1);
        assert!(trusted.guarded(), "{trusted:?}");
        let stale = config.replace("sha256:", "sha256:0");
        let untrusted = run(stale);
        assert_eq!(untrusted.verdict(), "guarded, but switched off");
        assert!(untrusted
            .switches
            .iter()
            .any(|s| s.active && s.line.contains("no trusted hash")));
        let none = run(String::new());
        assert!(!none.guarded());
    }
}

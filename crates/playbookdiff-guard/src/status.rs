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
    /// `$CODEX_HOME/config.toml` (the trusted hashes): `None` when it
    /// was not read (no `$CODEX_HOME` known, as in `check`'s repository
    /// mode), empty when it is missing.
    pub codex_user_config: Option<String>,
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
                .map(|h| read(&h.join("config.toml")).unwrap_or_default()),
            codex_requirements: read(Path::new("/etc/codex/requirements.toml")),
        }
    }
}

/// What can switch a guard off. Sources: surfaces-and-guard's table
/// "switched off by" (Claude Code 2.1.197 and 2.1.332, Codex 0.171.0,
/// OpenCode 1.18.33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwitchKind {
    /// Claude Code's `disableAllHooks: true` in a settings layer: user
    /// and project hooks do not run; managed ones do.
    DisableAllHooks,
    /// Codex's `[features] hooks = false` in a trusted project's
    /// `.codex/config.toml`: no hook runs unless
    /// `/etc/codex/requirements.toml` pins hooks on.
    HooksFeatureOff,
    /// A Codex user or project hook without the trusted hash of its
    /// current command in `$CODEX_HOME/config.toml`: Codex skips it.
    UntrustedHash,
    /// `opencode --pure`: OpenCode starts without plugins.
    Pure,
    /// Gemini CLI's `--skip-trust`: the workspace settings, and so a
    /// project registration, are dropped.
    SkipTrust,
    /// Copilot CLI 1.0.102 runs a repository's hooks only in a folder the
    /// user trusts.
    UntrustedFolder,
    /// Claude Code and Gemini CLI read project settings only from the
    /// launch directory (`<cwd>/.claude/settings.json`,
    /// `<cwd>/.gemini/settings.json`, never a parent's): launched in a
    /// subdirectory, the hook registered at the root does not run (the
    /// `settings-not-in-cwd` and `workspace-settings-not-applied`
    /// diagnostics; verified with Claude Code 2.1.332 and Gemini CLI
    /// 0.61.0, `docs/fidelity.md`).
    LaunchedBelow,
    /// The host runs the call when the hook fails or times out (Gemini
    /// CLI after a timeout; Copilot CLI after any failure): a guard that
    /// is killed, or an executable that is not the guard, lets it through.
    FailsOpen,
}

impl SwitchKind {
    /// The switch's short name, as finding keys spell it
    /// (`disable-all-hooks`, `hooks-feature-off`, `untrusted-hash`,
    /// `pure`).
    pub fn as_str(self) -> &'static str {
        match self {
            SwitchKind::DisableAllHooks => "disable-all-hooks",
            SwitchKind::HooksFeatureOff => "hooks-feature-off",
            SwitchKind::UntrustedHash => "untrusted-hash",
            SwitchKind::Pure => "pure",
            SwitchKind::SkipTrust => "skip-trust",
            SwitchKind::UntrustedFolder => "untrusted-folder",
            SwitchKind::LaunchedBelow => "launched-below",
            SwitchKind::FailsOpen => "fails-open",
        }
    }
}

/// One thing that switches a guard off or could: whether it does now,
/// what it is, and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Which switch.
    pub kind: SwitchKind,
    /// Whether it switches the guard off now.
    pub active: bool,
    /// What it is, one clause (no remedy).
    pub what: String,
    /// What to do about it, one clause.
    pub remedy: String,
    /// The repository file (relative to the work tree's root) that holds
    /// the switch, when a file of the repository does.
    pub file: Option<String>,
}

impl Switch {
    /// The sentence `guard status` prints: what it is, then the remedy.
    pub fn line(&self) -> String {
        format!("{}; {}", self.what, self.remedy)
    }
}

/// What switches `host`'s guard off (`layers`: the scopes and files that
/// register it). Sources: surfaces-and-guard's table "switched off by".
pub fn switches(host: crate::Host, files: &SwitchFiles, layers: &[Layer]) -> Vec<Switch> {
    let managed = layers.iter().any(|l| l.scope == Scope::Managed);
    match host {
        crate::Host::ClaudeCode => {
            let mut out = claude_switches(files, managed);
            out.extend(launched_below(layers, ".claude/settings.json"));
            out
        }
        crate::Host::Codex => codex_switches(files, layers, managed),
        crate::Host::OpenCode => vec![Switch {
            kind: SwitchKind::Pure,
            active: false,
            what: "`opencode --pure` starts without plugins, and so without the guard".into(),
            remedy: "launch OpenCode without `--pure`; OpenCode has no layer that survives it"
                .into(),
            file: None,
        }],
        crate::Host::Gemini => gemini_switches(layers, managed),
        crate::Host::Copilot => copilot_switches(),
    }
}

/// Gemini CLI 0.61.0: `--skip-trust` drops the workspace settings; a
/// hook that times out lets the call run (its bundle's
/// `executeCommandHook`: a timed-out hook is a failed hook, non-fatal).
fn gemini_switches(layers: &[Layer], managed: bool) -> Vec<Switch> {
    let mut out = Vec::new();
    if !managed && !layers.is_empty() && layers.iter().all(|l| l.scope == Scope::Project) {
        out.extend(launched_below(layers, ".gemini/settings.json"));
        out.push(Switch {
            kind: SwitchKind::SkipTrust,
            active: false,
            what: "`gemini --skip-trust` drops the workspace's .gemini/settings.json, and so the guard registered there".into(),
            remedy: "install with --scope user or --scope managed (/etc/gemini-cli/settings.json)".into(),
            file: None,
        });
    }
    out.push(fails_open(
        "Gemini CLI runs the call when the hook times out (after 120 s)",
    ));
    out
}

/// Copilot CLI: hooks only in a trusted folder (1.0.102), and the call
/// runs when the hook fails or times out (1.0.24's `app.js`,
/// `preToolsExecution`).
fn copilot_switches() -> Vec<Switch> {
    vec![
        Switch {
            kind: SwitchKind::UntrustedFolder,
            active: false,
            what: "Copilot CLI 1.0.102 runs the repository's hooks only in a folder the user trusts".into(),
            remedy: "trust the repository's root (`trusted_folders` in ~/.copilot/config.json)".into(),
            file: None,
        },
        fails_open(
            "Copilot CLI runs the call when the hook fails or times out (after 120 s); only a deny on standard output blocks it",
        ),
    ]
}

/// Claude Code and Gemini CLI launched below the directory whose
/// `settings` file (`.claude/settings.json`) registers the guard read no
/// settings file but the launch directory's: when only the project
/// layer registers it, the guard does not run there.
fn launched_below(layers: &[Layer], settings: &str) -> Option<Switch> {
    let project_only = !layers.is_empty() && layers.iter().all(|l| l.scope == Scope::Project);
    project_only.then(|| Switch {
        kind: SwitchKind::LaunchedBelow,
        active: false,
        what: format!(
            "the agent launched in a subdirectory reads only that directory's {settings}, so the hook registered at the repository root does not run there"
        ),
        remedy: "launch the agent at the repository root, or install with --scope user or --scope managed".into(),
        file: None,
    })
}

/// A host that runs the call when the hook fails: `what` says when.
fn fails_open(what: &str) -> Switch {
    Switch {
        kind: SwitchKind::FailsOpen,
        active: false,
        what: what.into(),
        remedy: "keep the registration `guard install` writes (it answers a deny when the guard cannot start) and the guard executable where only its owner can replace it; nothing in the host blocks the call after a timeout".into(),
        file: None,
    }
}

/// Claude Code: `disableAllHooks` in the project's settings files.
fn claude_switches(files: &SwitchFiles, managed: bool) -> Vec<Switch> {
    let mut out = Vec::new();
    for (name, text) in &files.claude_settings {
        let v: Option<serde_json::Value> = serde_json::from_str(text).ok();
        if v.and_then(|v| v["disableAllHooks"].as_bool()) == Some(true) {
            out.push(Switch {
                kind: SwitchKind::DisableAllHooks,
                active: !managed,
                what: format!(
                    "`disableAllHooks: true` in {name} turns off user and project hooks{}",
                    if managed {
                        " (not the managed layer's)"
                    } else {
                        ""
                    }
                ),
                remedy: format!(
                    "remove `disableAllHooks` from {name}, or install with --scope managed"
                ),
                file: Some(name.clone()),
            });
        }
    }
    if !managed && out.is_empty() {
        out.push(Switch {
            kind: SwitchKind::DisableAllHooks,
            active: false,
            what: "`disableAllHooks: true` in a project's .claude/settings.json, or `--settings` with it, turns off user and project hooks".into(),
            remedy: "install with --scope managed: only the managed layer survives it".into(),
            file: None,
        });
    }
    out
}

/// Codex: `[features] hooks = false` in the project, and hooks without a
/// trusted hash.
fn codex_switches(files: &SwitchFiles, layers: &[Layer], managed: bool) -> Vec<Switch> {
    let pinned = files
        .codex_requirements
        .as_deref()
        .is_some_and(|t| !codex_hooks_disabled(t) && t.contains("hooks"));
    let mut out = Vec::new();
    if !pinned {
        let off = codex_hooks_disabled(&files.codex_config);
        out.push(Switch {
            kind: SwitchKind::HooksFeatureOff,
            active: off,
            what: if off {
                "`[features] hooks = false` in .codex/config.toml (a trusted project) turns every hook off".into()
            } else {
                "`[features] hooks = false` in a trusted project's .codex/config.toml would turn every hook off".into()
            },
            remedy: format!(
                "{}pin `[features] hooks = true` in /etc/codex/requirements.toml",
                if off { "remove `hooks = false` from .codex/config.toml, or " } else { "" }
            ),
            file: off.then(|| ".codex/config.toml".to_string()),
        });
    }
    for layer in layers.iter().filter(|l| l.scope != Scope::Managed) {
        out.extend(untrusted(files, layer, managed));
    }
    out
}

/// A Codex user or project layer whose hooks lack their trusted hash:
/// active when the user's `config.toml` was read and lacks it, else a
/// switch that could be (repository mode does not read the user's file).
fn untrusted(files: &SwitchFiles, layer: &Layer, managed: bool) -> Option<Switch> {
    let host = crate::Host::Codex;
    let entries =
        crate::codex_trust::entries(&layer.path.to_string_lossy(), &layer.text, &marker(host));
    let user = files.codex_user_config.as_deref();
    let trusted = !entries.is_empty()
        && entries
            .iter()
            .all(|e| user.is_some_and(|u| crate::codex_trust::is_trusted(u, e)));
    if trusted {
        return None;
    }
    let (active, what) = match user {
        Some(_) => (!managed, format!("the {} hook {} has no trusted hash (or one of an older command) in $CODEX_HOME/config.toml, so Codex does not run it", layer.scope.as_str(), layer.path.display())),
        None => (false, format!("whether Codex runs the {} hook {} depends on its trusted hash in $CODEX_HOME/config.toml, which was not read", layer.scope.as_str(), layer.path.display())),
    };
    Some(Switch {
        kind: SwitchKind::UntrustedHash,
        active,
        what,
        remedy: "run `playbookdiff guard install --host codex --scope user --write`, trust it in Codex, or install with --scope managed".into(),
        file: None,
    })
}

/// The scope `guard status` proposes for an unguarded `host`: managed
/// where the host has it.
pub fn best_scope(host: crate::Host) -> Scope {
    match host {
        crate::Host::OpenCode | crate::Host::Copilot => Scope::Project,
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
            ..Places::default()
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
            .any(|s| s.active && s.kind == SwitchKind::UntrustedHash));
        let none = run(String::new());
        assert!(!none.guarded());
    }

    /// Without the user's `config.toml` (as `check` reads a repository),
    /// whether Codex trusts a project hook is open: a switch that could
    /// hold, not one that does.
    #[test]
    fn an_unread_trust_file_is_not_a_switch_that_holds() {
        let places = Places {
            root: PathBuf::from("/r"),
            ..Places::default()
        };
        let hooks = crate::install::merged(crate::Host::Codex, None, "/bin/pd")
            .unwrap()
            .unwrap();
        let read = |p: &Path| (p == Path::new("/r/.codex/hooks.json")).then(|| hooks.clone());
        let files = SwitchFiles::read(&places, read);
        assert_eq!(files.codex_user_config, None);
        let s = status(crate::Host::Codex, &places, &files, read);
        assert_eq!(s.verdict(), "guarded");
        let trust = s
            .switches
            .iter()
            .find(|w| w.kind == SwitchKind::UntrustedHash)
            .unwrap();
        assert!(
            !trust.active && trust.what.contains("was not read"),
            "{trust:?}"
        );
    }
}

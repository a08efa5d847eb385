//! The guard's findings in `check`: per agent of the check that the
//! guard serves, whether it is guarded and what switches it off, read by
//! the guard crate's status logic ([`playbookdiff_guard::status`]) from
//! the layers the check reads.
//!
//! Only a repository that opts in to the guard gets them: one with a
//! `[guard]` table in its configuration file, or whose own files register
//! the guard's hook for some agent (`guard install --scope project`). A
//! repository that does neither gets none, so `check` on a repository
//! without the guard says nothing about it.
//!
//! The layers read follow the check's mode: repository mode reads the
//! repository's own files (as committed, or as `--rev` names them);
//! local mode adds the user's files under the home and the managed files
//! (`/etc/claude-code`, `/etc/codex`, under `--managed-root` when given).
//!
//! The findings are the repository's, not a launch directory's: `check
//! --all-dirs` reports them once, with the root, and `diff` compares them
//! between the two revisions at the root.

use crate::context::OpenedContext;

use playbookdiff_compare::{guard_finding, Finding, FindingProblem, FindingType, GuardGap, Remedy};
use playbookdiff_guard::install::{Places, Scope};
use playbookdiff_guard::status::{self, HostStatus, Switch, SwitchFiles};
use playbookdiff_guard::Host;
use playbookdiff_model::{DiagnosticCode, EffectiveAgentConfig, Harness, Mode, RepoPath};
use playbookdiff_source::{Machine, Repo};
use std::path::{Path, PathBuf};

/// The most bytes of a registration or switch file read: 1 MiB.
const FILE_LIMIT: u64 = 1024 * 1024;

/// Where the registration and switch files are read: the repository's
/// root on disk, and in local mode the machine whose user and managed
/// files count.
#[derive(Clone, Copy)]
pub(crate) struct Layers<'a> {
    /// The repository's root (its files are read through the analysed
    /// tree, so a commit's are the commit's).
    pub root: &'a Path,
    /// Local mode's machine; `None` in repository mode.
    pub machine: Option<&'a Machine>,
}

impl<'a> Layers<'a> {
    /// The layers of `opened`'s check.
    pub(crate) fn of(opened: &'a OpenedContext) -> Layers<'a> {
        Layers {
            root: &opened.root,
            machine: opened
                .machine
                .as_ref()
                .filter(|_| opened.context.mode == Mode::Local),
        }
    }
}

/// The guard findings of the check of `configs` (one per harness
/// compared, at the repository's root) in the repository `repo`, read
/// from `layers`; `opted_in` when the configuration file has a `[guard]`
/// table. Empty when the repository does not opt in.
pub(crate) fn findings(
    layers: Layers<'_>,
    repo: &Repo<'_>,
    configs: &[EffectiveAgentConfig],
    opted_in: bool,
) -> Vec<Finding> {
    let reader = Reader { layers, repo };
    let places = reader.places();
    let read = |p: &Path| reader.read(p);
    let files = SwitchFiles::read(&places, read);
    let statuses: Vec<(&EffectiveAgentConfig, HostStatus)> = configs
        .iter()
        .filter_map(|c| {
            let host = Host::from_id(c.harness.as_str())?;
            Some((c, status::status(host, &places, &files, read)))
        })
        .collect();
    let registered = statuses
        .iter()
        .any(|(_, s)| s.layers.iter().any(|l| l.scope == Scope::Project));
    if !opted_in && !registered {
        return Vec::new();
    }
    let local = layers.machine.is_some();
    statuses
        .iter()
        .flat_map(|(c, s)| of_host(c, s, &places, local))
        .collect()
}

/// One agent's guard findings: not guarded, or each switch that
/// switches it off (now or could).
fn of_host(
    config: &EffectiveAgentConfig,
    s: &HostStatus,
    places: &Places,
    local: bool,
) -> Vec<Finding> {
    let h = config.harness;
    let name = h.display_name();
    if s.layers.is_empty() {
        let read = if local {
            "the repository's, the user's or the managed ones"
        } else {
            "the repository's own; `--mode local` adds the user's and the managed ones"
        };
        return vec![guard_finding(GuardGap {
            harness: h,
            kind: FindingType::Unguarded,
            what: "registration".into(),
            message: format!(
                "{name} does not call the guard before a tool runs: no configuration layer this check reads ({read}) registers `guard hook --host {}`, so nothing stops {name} from writing the agents' configuration or the secrets the guard protects.",
                s.host.id()
            ),
            problems: Vec::new(),
            remedies: s
                .install_remedy()
                .map(|r| remedy(h, format!("register the guard: `{r}`")))
                .into_iter()
                .collect(),
        })];
    }
    let from = layers_phrase(s);
    s.switches
        .iter()
        .map(|sw| Switch {
            what: shown(&sw.what, places),
            remedy: shown(&sw.remedy, places),
            ..sw.clone()
        })
        .map(|sw| switch_finding(config, &sw, &from))
        .collect()
}

/// `text` with the paths of `places` as a report names them: the
/// repository's relative to its root, the home's as `~/...`, so that no
/// path of the machine the check ran on reaches the report.
fn shown(text: &str, places: &Places) -> String {
    let mut out = text.replace(&format!("{}/", places.root.display()), "");
    if let Some(home) = &places.home {
        out = out.replace(&format!("{}/", home.display()), "~/");
    }
    out
}

/// `the project layer and the user layer`.
fn layers_phrase(s: &HostStatus) -> String {
    let parts: Vec<String> = s
        .layers
        .iter()
        .map(|l| format!("the {} layer", l.scope.as_str()))
        .collect();
    parts.join(" and ")
}

fn switch_finding(config: &EffectiveAgentConfig, sw: &Switch, from: &str) -> Finding {
    let h = config.harness;
    let name = h.display_name();
    let (kind, message) = if sw.active {
        (
            FindingType::SwitchedOff,
            format!(
                "{name}'s guard, registered in {from}, is switched off: {}.",
                sw.what
            ),
        )
    } else {
        (
            FindingType::Switchable,
            format!(
                "{name} is guarded from {from}, and could be switched off: {}.",
                sw.what
            ),
        )
    };
    let what = match &sw.file {
        Some(f) => format!("{}|{f}", sw.kind.as_str()),
        None => sw.kind.as_str().to_string(),
    };
    guard_finding(GuardGap {
        harness: h,
        kind,
        what,
        message,
        problems: sw
            .file
            .as_deref()
            .map(|f| disabled_at(config, f))
            .unwrap_or_default(),
        remedies: vec![remedy(h, sw.remedy.clone())],
    })
}

/// The agent's own `hooks-disabled` diagnostics about the repository file
/// `file` (each with its line): the evidence of a switch there.
fn disabled_at(config: &EffectiveAgentConfig, file: &str) -> Vec<FindingProblem> {
    config
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::HooksDisabled)
        .filter(|d| d.source.as_ref().is_some_and(|s| s.path.as_str() == file))
        .map(|d| FindingProblem {
            harness: config.harness,
            code: d.code,
            message: d.message.clone(),
            source: d.source.clone(),
        })
        .collect()
}

fn remedy(harness: Harness, action: String) -> Remedy {
    Remedy { harness, action }
}

/// Reads the registration and switch files: the repository's through the
/// analysed tree, the user's and the managed ones from the machine in
/// local mode only.
struct Reader<'a, 'r> {
    layers: Layers<'a>,
    repo: &'a Repo<'r>,
}

impl Reader<'_, '_> {
    /// The places: the repository's root, and in local mode the homes of
    /// the check's machine (`--home`, `CODEX_HOME`, `XDG_CONFIG_HOME`).
    fn places(&self) -> Places {
        let machine = self.layers.machine;
        let home = machine.and_then(|m| m.home()).map(Path::to_path_buf);
        let var = |name: &str, default: &str| {
            machine
                .and_then(|m| m.var(name))
                .map(Path::to_path_buf)
                .or_else(|| home.as_ref().map(|h| h.join(default)))
        };
        Places {
            root: self.layers.root.to_path_buf(),
            codex_home: var("CODEX_HOME", ".codex"),
            xdg_config: var("XDG_CONFIG_HOME", ".config"),
            copilot_home: var("COPILOT_HOME", ".copilot"),
            home,
        }
    }

    /// The text of `path`: under the repository's root through the
    /// analysed tree; elsewhere (a home, `/etc`) from disk in local mode,
    /// absolute machine paths under the machine's root.
    fn read(&self, path: &Path) -> Option<String> {
        if let Ok(rel) = path.strip_prefix(self.layers.root) {
            let rel = RepoPath::new(rel.to_str()?)?;
            return self
                .repo
                .read_text(&rel, FILE_LIMIT)
                .ok()
                .map(|t| t.text.clone());
        }
        let machine = self.layers.machine?;
        let on_disk: PathBuf = match path.strip_prefix("/etc") {
            Ok(rest) if machine.home().is_none_or(|h| !path.starts_with(h)) => {
                machine.root().join("etc").join(rest)
            }
            _ => path.to_path_buf(),
        };
        let meta = std::fs::metadata(&on_disk).ok()?;
        (meta.is_file() && meta.len() <= FILE_LIMIT)
            .then(|| std::fs::read_to_string(&on_disk).ok())
            .flatten()
    }
}

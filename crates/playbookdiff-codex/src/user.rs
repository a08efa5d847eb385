//! The user's and the machine's layers, read in local mode: the global
//! instructions of `$CODEX_HOME`, the system (`/etc/codex/config.toml`),
//! user (`$CODEX_HOME/config.toml`) and profile
//! (`$CODEX_HOME/NAME.config.toml` under `--profile NAME`) configuration
//! layers, and the project trust entries the user's configuration holds.
//!
//! Profiles, seen with Codex 0.142.3 and 0.171.0 (`codex --profile NAME
//! debug prompt-input`, case
//! `oracle.local_user_layers.home-codex-profile`): the profile's file is a
//! layer above the user's `config.toml` and below the project's layers
//! (its `project_doc_max_bytes` wins over the user's, a project's over
//! it); a missing profile file adds nothing; a legacy `profile = "NAME"`
//! in `config.toml`, and a `[profiles.NAME]` table when `--profile NAME`
//! is given, make Codex refuse to start ("legacy `profile` config is no
//! longer supported; use `--profile NAME` with `NAME.config.toml`").
//!
//! Sources: harness facts B1 ("Global (`CODEX_HOME`, default `~/.codex`):
//! `AGENTS.override.md` if it is non-empty, otherwise `AGENTS.md`"; the
//! global text comes before the project chain) and B2 (`CODEX_HOME`
//! default `~/.codex`; precedence project > user `config.toml` >
//! `/etc/codex/config.toml`; `projects.<path>.trust_level`); openai/codex
//! `codex-rs/core/src/config_loader` (the system and user layers below
//! the project layers) and `project_doc.rs` (`get_user_instructions`).

use crate::config::LoadedLayer;
use crate::{TrustEntry, TrustLevel};
use playbookdiff_adapter::READ_LIMIT;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase, Mode,
    RepoPath, Resolution, ResolutionStrategy, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{Machine, SourceError, TextFile};
use std::path::Path;
use std::sync::Arc;

/// The variable that moves Codex's home (harness facts B2).
pub(crate) const HOME_VAR: &str = "CODEX_HOME";

/// What local mode reads of one machine for Codex.
pub(crate) struct MachineLayers {
    /// The configuration layers that exist, lowest precedence first:
    /// system, then user.
    pub layers: Vec<LoadedLayer>,
    /// The trust entries of the user's configuration for directories of
    /// the repository, in file order.
    pub trust: Vec<TrustEntry>,
    /// Problems met while reading.
    pub diagnostics: Vec<Diagnostic>,
    /// Codex's home as provenance names it (`~/.codex`, `$CODEX_HOME`).
    pub home: RepoPath,
}

/// The layer of a machine path: `managed` under a fixed machine
/// directory, `user` otherwise.
pub(crate) fn scope_of(path: &RepoPath) -> SourceScope {
    match path.machine_parts() {
        Some(("/", _)) => SourceScope::Managed,
        _ => SourceScope::User,
    }
}

/// Reads the machine's layers in local mode (`None` in repo mode or
/// without a machine). `root` is the repository root on disk, against
/// which the trust entries' absolute paths are matched.
pub(crate) fn read(
    machine: Option<&Machine>,
    mode: Mode,
    root: Option<&Path>,
) -> Option<MachineLayers> {
    let machine = machine.filter(|_| mode == Mode::Local)?;
    let home = machine.user_dir(Some(HOME_VAR), ".codex")?;
    let mut out = MachineLayers {
        layers: Vec::new(),
        trust: Vec::new(),
        diagnostics: Vec::new(),
        home: home.clone(),
    };
    let profile = machine
        .profile()
        .and_then(|name| home.join(&format!("{name}.config.toml")));
    let files = [
        RepoPath::on_machine("/etc/codex", "config.toml"),
        home.join("config.toml"),
        profile.clone(),
    ];
    for path in files.into_iter().flatten() {
        if let Some(text) = read_text(machine, &path, SourceFormat::Toml, &mut out.diagnostics) {
            out.layers.push(LoadedLayer {
                dir: RepoPath::root(),
                path,
                resolved: None,
                text,
            });
        }
    }
    let user_file = home.join("config.toml");
    let user = out
        .layers
        .iter()
        .find(|l| Some(&l.path) == user_file.as_ref());
    let user_text = user.map(|u| u.text.text.as_str());
    let missing = machine
        .profile()
        .zip(profile.as_ref())
        .and_then(|(name, path)| profile_not_found(machine, name, path, user_text));
    if let (Some(user), Some(root)) = (user, root) {
        out.trust = trust_entries(&user.text.text, root);
    }
    out.diagnostics.extend(missing);
    Some(out)
}

/// `--profile name` when its file `path` does not exist and the user's
/// `config.toml` text `user` holds no `[profiles.name]` table (which
/// [`legacy_profiles`] reports): a `codex-profile-not-found` diagnostic,
/// as Codex 0.142.3 and 0.171.0 behave (they start with the other
/// layers alone; case `oracle.local_user_layers.home-codex-profile-missing`).
fn profile_not_found(
    machine: &Machine,
    name: &str,
    path: &RepoPath,
    user: Option<&str>,
) -> Option<Diagnostic> {
    if !matches!(machine.stat(path), Err(SourceError::NotFound(_))) {
        return None;
    }
    let legacy = user
        .and_then(|t| t.trim_start_matches('\u{feff}').parse::<toml::Table>().ok())
        .and_then(|doc| doc.get("profiles")?.as_table()?.get(name).cloned());
    if legacy.is_some() {
        return None;
    }
    let message = format!(
        "`--profile {name}` names a profile that neither `{path}` nor a `[profiles.{name}]` table defines: Codex \
         starts without a word and applies the other layers alone, so no setting of the profile is applied; \
         create `{path}` or start Codex with a profile that exists."
    );
    let d = Diagnostic::new(DiagnosticCode::CodexProfileNotFound, message);
    Some(d.at(SourceRef {
        scope: SourceScope::User,
        ..SourceRef::project(path.clone(), SourceFormat::Toml)
    }))
}

/// The user's layers among the machine's parsed layers `layers`: the
/// files in Codex's home `home` (`config.toml` and a profile's file), the
/// layers whose `[hooks.state]` Codex reads.
pub(crate) fn user_layers<'b, 'a>(
    layers: &'b [crate::config::Layer<'a>],
    home: &RepoPath,
) -> Vec<&'b crate::config::Layer<'a>> {
    layers
        .iter()
        .filter(|l| l.loaded.path.starts_with(home))
        .collect()
}

/// The text of the machine file `path`; `None` when absent, or unreadable
/// (reported in `diags`).
fn read_text(
    machine: &Machine,
    path: &RepoPath,
    format: SourceFormat,
    diags: &mut Vec<Diagnostic>,
) -> Option<Arc<TextFile>> {
    match machine.read_text(path, READ_LIMIT) {
        Ok(t) => Some(t),
        Err(SourceError::NotFound(_)) => None,
        Err(e) => {
            let effect = "what it contributes is unknown";
            let mut d = playbookdiff_adapter::problems::read_error(path, &e, effect, format);
            if let Some(s) = d.source.as_mut() {
                s.scope = scope_of(path);
            }
            diags.push(d);
            None
        }
    }
}

/// The `[projects."<path>"] trust_level` entries of the user's
/// `config.toml` text whose path is the repository root `root` or a
/// directory below it, as repository directories. An entry of another
/// value, or a file that does not parse, gives nothing (the parse error
/// is the layer's own diagnostic).
fn trust_entries(text: &str, root: &Path) -> Vec<TrustEntry> {
    let Ok(doc) = text.trim_start_matches('\u{feff}').parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(projects) = doc.get("projects").and_then(toml::Value::as_table) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (dir, entry) in projects {
        let level = match entry.get("trust_level").and_then(toml::Value::as_str) {
            Some("trusted") => TrustLevel::Trusted,
            Some("untrusted") => TrustLevel::Untrusted,
            _ => continue,
        };
        let Ok(rel) = Path::new(dir).strip_prefix(root) else {
            continue;
        };
        if let Some(dir) = rel.to_str().and_then(RepoPath::new) {
            out.push(TrustEntry { dir, level });
        }
    }
    out
}

/// The global instructions: `AGENTS.override.md` of Codex's home when it
/// is not blank, else its `AGENTS.md` when not blank; the other one, when
/// present and not blank, is listed shadowed. The winner comes first in
/// the context, before the project chain (order 0), its text trimmed of
/// surrounding whitespace as Codex sends it (openai/codex
/// `AgentsMdManager::load_global_instructions`); Codex puts the line
/// `--- project-doc ---` between it and the project chain
/// (`AGENTS_MD_SEPARATOR`, harness facts B1).
pub(crate) fn global_instructions(
    machine: &Machine,
    home: &RepoPath,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Instruction> {
    let read: Vec<(RepoPath, Arc<TextFile>)> = ["AGENTS.override.md", "AGENTS.md"]
        .iter()
        .filter_map(|n| home.join(n))
        .filter_map(|p| read_text(machine, &p, SourceFormat::Markdown, diags).map(|t| (p, t)))
        .filter(|(_, t)| !t.text.trim().is_empty())
        .collect();
    let mut out = Vec::new();
    for (i, (path, text)) in read.iter().enumerate() {
        let mut source = SourceRef {
            scope: SourceScope::User,
            ..SourceRef::project(path.clone(), SourceFormat::Markdown)
        };
        if text.line_count() > 0 {
            source = source.with_lines(1, text.line_count());
        }
        let (applicability, reason, order, resolution) = if i == 0 {
            (
                Applicability::Effective,
                format!("The user's global instructions in `{home}`, loaded at startup in every project before the project chain."),
                Some(0),
                None,
            )
        } else {
            (
                Applicability::Shadowed,
                format!(
                    "`{}` is not blank, so Codex uses it instead of this file.",
                    read[0].0
                ),
                None,
                Some(Resolution {
                    strategy: ResolutionStrategy::Shadowed,
                    sources: vec![read[0].0.clone()],
                }),
            )
        };
        out.push(Instruction {
            id: format!("codex:agents-md:{path}"),
            kind: InstructionKind::AgentsMd,
            source,
            load_phase: LoadPhase::Startup,
            applicability,
            reason,
            order,
            applies_to: RepoPath::root(),
            imported_from: None,
            bytes: text.bytes,
            truncated_at_byte: None,
            paths: None,
            resolution,
            import_spans: Vec::new(),
            // `load_global_instructions` sends the text trimmed.
            content: text.text.trim().to_string(),
        });
    }
    out
}

/// The legacy profile settings of the user's `config.toml` (`user`, parsed)
/// that make Codex refuse to start (see the module documentation): a
/// top-level `profile`, and the `[profiles.NAME]` table of the profile
/// `selected`. Each is `(why, where)`.
pub(crate) fn legacy_profiles(
    user: &crate::config::Layer<'_>,
    selected: Option<&str>,
) -> Vec<(String, SourceRef)> {
    let file = playbookdiff_adapter::problems::quote(&user.loaded.path);
    let mut out = Vec::new();
    if let Some((k, v)) = crate::config::get(&user.table, "profile") {
        out.push((
            format!("{file} sets the legacy `profile` selector, which this Codex release no longer supports (move the profile's settings into `$CODEX_HOME/NAME.config.toml` and start Codex with `--profile NAME`)"),
            user.source(crate::config::extent(k, v)),
        ));
    }
    let table = crate::config::get(&user.table, "profiles").and_then(|(_, v)| match v.get_ref() {
        toml::de::DeValue::Table(t) => Some(t),
        _ => None,
    });
    if let (Some(t), Some(name)) = (table, selected) {
        if let Some((k, v)) = crate::config::get(t, name) {
            out.push((
                format!("{file} holds the legacy table `[profiles.{name}]`, which Codex refuses beside `--profile {name}` (move its settings into `$CODEX_HOME/{name}.config.toml`)"),
                user.source(crate::config::extent(k, v)),
            ));
        }
    }
    out
}

//! The plugin namespace of a skill (fidelity X13): the `name` of the
//! nearest plugin manifest, which qualifies the skill's name.

use super::loading::Parsed;
use crate::profile::Facts;
use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::{EntryKind, Repo, Resolved};

/// The longest qualified skill name Codex accepts, in characters
/// (`MAX_QUALIFIED_NAME_LEN`, `validate_len` in
/// `codex-rs/core-skills/src/loader.rs`).
pub(super) const MAX_QUALIFIED_NAME_CHARS: usize = 128;

/// The plugin namespace of a skill (X13): the `name` of the plugin
/// manifest of the nearest directory, from the skill's own folder up to
/// the repository root, that holds one of the release's manifest files
/// ([`Facts::plugin_manifests`], tried in order), read as JSON; a blank
/// or absent `name` gives that directory's name, and a manifest that is
/// not valid JSON (or whose `name` is not text) is passed over. The real
/// path of a linked skill is tried before the path it was found at
/// (openai/codex `codex-rs/utils/plugins/src/plugin_namespace.rs`,
/// `plugin_namespace_for_skill_path`; `loader/namespace.rs`). Seen with
/// both profiled releases on fixture `x13_plugin_namespaces`.
///
/// Returns the namespace and the manifest's path.
pub(crate) fn plugin_namespace(
    cx: &Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    facts: &Facts,
) -> Option<(String, RepoPath)> {
    let starts = [real.parent(), file.parent()];
    for start in starts.into_iter().flatten() {
        if let Some(found) = namespace_from(cx.repo, start, facts.plugin_manifests) {
            return found;
        }
    }
    None
}

/// The answer of [`plugin_namespace`] from directory `start` up to the
/// repository root: `None` when no directory there holds a manifest that
/// parses, else what the nearest one says (`Some(None)`: a blank name at
/// the root, no namespace). Computed once per repository and `start`
/// ([`Repo::memo`]): it depends on the repository and `manifests` only,
/// and every launch directory asks it for the same skills.
pub(super) fn namespace_from(
    repo: &Repo<'_>,
    start: RepoPath,
    manifests: &'static [&'static str],
) -> Option<Option<(String, RepoPath)>> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, &'static [&'static str]);
    #[derive(serde::Deserialize)]
    struct Manifest {
        #[serde(default)]
        name: String,
    }
    repo.memo(Key(start.clone(), manifests), || {
        let mut dir = Some(start);
        while let Some(d) = dir {
            for m in manifests {
                let Some(path) = d.join(m) else { continue };
                if !matches!(
                    repo.resolve(&path),
                    Resolved::Inside {
                        kind: EntryKind::File,
                        ..
                    }
                ) {
                    continue;
                }
                let Ok(text) = repo.read_text(&path, READ_LIMIT) else {
                    continue;
                };
                let Ok(manifest) = serde_json::from_str::<Manifest>(&text.text) else {
                    continue;
                };
                let name = if manifest.name.trim().is_empty() {
                    if d.is_root() {
                        return Some(None);
                    }
                    d.file_name().unwrap_or_default().to_string()
                } else {
                    manifest.name
                };
                return Some(Some((name, path)));
            }
            dir = d.parent();
        }
        None
    })
}

/// Puts a loaded skill's name in its plugin namespace
/// ([`plugin_namespace`]): `<plugin>:<name>`, rejected when longer than
/// [`MAX_QUALIFIED_NAME_CHARS`]; `report` emits the diagnostic.
pub(super) fn qualify(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    facts: &Facts,
    parsed: &mut Parsed,
    report: bool,
) {
    let Some((ns, manifest)) = plugin_namespace(cx, file, real, facts) else {
        return;
    };
    let base = parsed.name.clone().unwrap_or_default();
    let qualified = format!("{ns}:{base}");
    let n = qualified.chars().count();
    if n > MAX_QUALIFIED_NAME_CHARS {
        if report {
            cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!(
                    "Codex refuses {}: the plugin manifest {} puts the skill in namespace {}, and the qualified name {} is {n} characters, over Codex's limit of {MAX_QUALIFIED_NAME_CHARS}; shorten the skill name or the plugin name.",
                    problems::quote(file),
                    problems::quote(&manifest),
                    problems::quote(&ns),
                    problems::quote(&qualified),
                ),
            )
            .at(SourceRef::project(manifest, SourceFormat::Json)),
            );
        }
        parsed.invalid = Some(format!(
            "its qualified name in plugin namespace {ns} is {n} characters, over the limit of {MAX_QUALIFIED_NAME_CHARS}"
        ));
        return;
    }
    parsed.name = Some(qualified);
    parsed.namespace = Some((ns, manifest));
}

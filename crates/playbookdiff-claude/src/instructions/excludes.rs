//! `claudeMdExcludes`: one mechanism for memory files, rules and imported
//! files (harness facts A4; fidelity C10).

use super::{Job, Placement};
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, RepoPath, Resolution, SourceRef,
};
use playbookdiff_source::TextFile;

/// When a `claudeMdExcludes` pattern matches `path`: reports it and lists
/// the file as one excluded entry (its imports are never read, so they are
/// not listed) with the settings file as resolution. Returns true when
/// excluded. One mechanism for memory files and rules (harness facts A4).
#[allow(clippy::too_many_arguments)]
pub(super) fn excluded(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    path: &RepoPath,
    text: &TextFile,
    body_start: usize,
    place: &mut Placement,
    source: &SourceRef,
    paths: Option<Vec<String>>,
    jobs: &mut Vec<Job>,
) -> bool {
    let Some(ex) = settings.excluded_by(path) else {
        return false;
    };
    let (raw, layer) = (ex.raw.clone(), ex.layer.path.clone());
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InstructionExcluded,
            format!("`{path}` is excluded by the `claudeMdExcludes` pattern `{raw}` in `{layer}`."),
        )
        .at(source.clone()),
    );
    place.applicability = Applicability::Excluded;
    place.reason = format!("excluded by claudeMdExcludes `{raw}` in `{layer}`");
    let id = cx.unique_id(format!("claude-code:{}:{}", place.kind, path));
    jobs.push(Job::Push(Box::new(excluded_entry(
        id, text, body_start, place, source, paths, None, layer,
    ))));
    true
}

/// The entry of a file `claudeMdExcludes` removes: listed with its text
/// (never expanded: the agent reads neither it nor what it imports), the
/// settings file as resolution.
#[allow(clippy::too_many_arguments)]
pub(super) fn excluded_entry(
    id: String,
    text: &TextFile,
    body_start: usize,
    place: &Placement,
    source: &SourceRef,
    paths: Option<Vec<String>>,
    imported_from: Option<&str>,
    layer: RepoPath,
) -> Instruction {
    let body = &text.text[body_start..];
    let (ls, le) = text.lines_of(body_start, text.text.len());
    Instruction {
        id,
        kind: place.kind.to_string(),
        source: source.clone().with_lines(ls, le.max(ls)),
        load_phase: place.load_phase,
        applicability: Applicability::Excluded,
        reason: place.reason.clone(),
        order: None,
        applies_to: place.applies_to.clone(),
        imported_from: imported_from.map(str::to_string),
        bytes: body.len() as u64,
        truncated_at_byte: None,
        paths,
        resolution: Some(Resolution {
            strategy: "excluded".into(),
            sources: vec![layer],
        }),
        import_spans: Vec::new(),
        content: body.to_string(),
    }
}

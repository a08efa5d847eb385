//! `claudeMdExcludes`: one mechanism for memory files, rules and imported
//! files (harness facts A4; fidelity C10).

use super::{Job, Placement};
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, RepoPath, Resolution,
    ResolutionStrategy, SourceRef,
};
use playbookdiff_source::TextFile;

/// A file as it would be listed: its text from byte `body_start`, its
/// placement and source.
pub(super) struct Listed<'a> {
    pub(super) text: &'a TextFile,
    pub(super) body_start: usize,
    pub(super) place: &'a Placement,
    pub(super) source: &'a SourceRef,
}

/// When a `claudeMdExcludes` pattern matches `path`: reports it and lists
/// the file as one excluded entry (its imports are never read, so they are
/// not listed) with the settings file as resolution; `paths` are a rule's
/// as written. Returns true when excluded. One mechanism for memory files
/// and rules (harness facts A4).
pub(super) fn excluded(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    path: &RepoPath,
    file: &Listed<'_>,
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
        .at(file.source.clone()),
    );
    let mut place = file.place.clone();
    place.applicability = Applicability::Excluded;
    place.reason = format!("excluded by claudeMdExcludes `{raw}` in `{layer}`");
    let id = cx.unique_id(format!("claude-code:{}:{}", place.kind, path));
    let file = Listed {
        place: &place,
        ..*file
    };
    let entry = excluded_entry(id, &file, paths, None, layer);
    jobs.push(Job::Push(Box::new(entry)));
    true
}

/// The entry of a file `claudeMdExcludes` removes: listed with its text
/// (never expanded: the agent reads neither it nor what it imports), the
/// settings file as resolution; `imported_from` is the entry id of the
/// file that imports it.
pub(super) fn excluded_entry(
    id: String,
    file: &Listed<'_>,
    paths: Option<Vec<String>>,
    imported_from: Option<&str>,
    layer: RepoPath,
) -> Instruction {
    let Listed {
        text,
        body_start,
        place,
        source,
    } = *file;
    let body = &text.text[body_start..];
    let (ls, le) = text.lines_of(body_start, text.text.len());
    Instruction {
        id,
        kind: place.kind,
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
            strategy: ResolutionStrategy::Excluded,
            sources: vec![layer],
        }),
        import_spans: Vec::new(),
        content: body.to_string(),
    }
}

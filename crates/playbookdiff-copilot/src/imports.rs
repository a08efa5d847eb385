//! `@path` imports of instruction files, which Copilot CLI 1.0.102 inlines
//! as `<imported_custom_instruction source="...">` in place of the token
//! (changelog 1.0.66; seen with 1.0.102: `see @docs/extra.md for details`
//! became the imported text between the two halves of the line). 1.0.24
//! sends the token as written. A token is `@` followed by a path, outside
//! code (the toolkit's Markdown scan), resolved from the importing file's
//! directory. Seen with 1.0.102 (the fuzzer's seeds 18, 64 and 65 and
//! their probes): an imported file's own imports are inlined inside its
//! element, and so on down; a file already imported into the block, or the
//! block's own file, is not inlined again (an empty element
//! `skipped="already-loaded"` stands for it); a file sent as a block of
//! its own before is imported in full. `GEMINI.md` is sent with its
//! tokens as written.

use crate::Cx;
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::{ByteSpan, Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::TextFile;
use std::sync::Arc;

/// One import inlined.
pub(crate) struct Imported {
    /// The imported file.
    pub path: RepoPath,
    /// The file whose token imports it: the block's own file, or an
    /// imported file for an import nested in another.
    pub by: RepoPath,
    /// Its text.
    pub text: Arc<TextFile>,
    /// The token's bytes in the importing text.
    pub span: ByteSpan,
}

/// Whether Copilot CLI inlines the imports of always-on file `path`: not
/// those of `GEMINI.md` (seen with 1.0.102 on fuzzer seeds 24, 43 and 52:
/// `See @packages/Index.js` and `@apps/CLAUDE.md` of a `GEMINI.md` were
/// sent as written, those of `AGENTS.md`, `CLAUDE.md`,
/// `.claude/CLAUDE.md` and `.github/copilot-instructions.md` inlined).
pub(crate) fn inlined_in(path: &RepoPath) -> bool {
    !path
        .file_name()
        .is_some_and(|n| n.eq_ignore_ascii_case("GEMINI.md"))
}

/// The imports of `file` (text `text`) that Copilot CLI inlines, in the
/// order they are sent: each after the one holding its token, an imported
/// file's own imports right after it; a file already in the list, or
/// `file` itself, is not imported again. A token naming no file is a
/// diagnostic at its line.
pub(crate) fn expand(cx: &mut Cx<'_, '_>, file: &RepoPath, text: &TextFile) -> Vec<Imported> {
    let mut loaded = vec![file.clone()];
    let mut out = Vec::new();
    expand_into(cx, file, text, &mut loaded, &mut out);
    out
}

/// [`expand`] of `file` inside a block that has `loaded` already.
fn expand_into(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    text: &TextFile,
    loaded: &mut Vec<RepoPath>,
    out: &mut Vec<Imported>,
) {
    for (path, span) in tokens(cx, file, text) {
        if loaded.contains(&path) {
            continue;
        }
        let Ok(imported) = crate::instructions::read(cx, &path) else {
            continue;
        };
        loaded.push(path.clone());
        out.push(Imported {
            path: path.clone(),
            by: file.clone(),
            text: imported.clone(),
            span,
        });
        expand_into(cx, &path, &imported, loaded, out);
    }
}

/// The files the `@` tokens of `file` (text `text`) name, with each
/// token's bytes, in token order; a token naming no file is a diagnostic
/// at its line.
fn tokens(cx: &mut Cx<'_, '_>, file: &RepoPath, text: &TextFile) -> Vec<(RepoPath, ByteSpan)> {
    let dir = file.parent().unwrap_or_else(RepoPath::root);
    let mut out = Vec::new();
    for t in &text.markdown(0).imports {
        let raw = t.raw.trim_end_matches(['.', ',', ';', ':', ')']);
        let rel = raw.strip_prefix("./").unwrap_or(raw);
        if rel.is_empty() || rel.starts_with('/') || rel.starts_with('~') {
            continue;
        }
        let Some(path) = dir.join(rel) else { continue };
        if !cx.repo.is_file(&path) {
            if rel.contains('.') || rel.contains('/') {
                let line = text.text[..t.start].matches('\n').count() as u32 + 1;
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ImportMissing,
                        format!("{} imports `@{raw}`, which names no file of the repository; Copilot CLI leaves the token as written.", quote(file)),
                    )
                    .at(SourceRef::project(file.clone(), SourceFormat::Markdown).with_lines(line, line)),
                );
            }
            continue;
        }
        let span = ByteSpan {
            start: t.start as u64,
            end: (t.start + 1 + raw.len()) as u64,
        };
        out.push((path, span));
    }
    out
}

//! `@path` imports of instruction files, which Copilot CLI 1.0.102 inlines
//! as `<imported_custom_instruction source="...">` in place of the token
//! (changelog 1.0.66; seen with 1.0.102: `see @docs/extra.md for details`
//! became the imported text between the two halves of the line). 1.0.24
//! sends the token as written. A token is `@` followed by a path, outside
//! code (the toolkit's Markdown scan), resolved from the importing file's
//! directory; the analysis follows one level (the imported file's own
//! tokens are kept as written).

use crate::Cx;
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::{ByteSpan, Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::TextFile;
use std::sync::Arc;

/// One import inlined.
pub(crate) struct Imported {
    /// The imported file.
    pub path: RepoPath,
    /// Its text.
    pub text: Arc<TextFile>,
    /// The token's bytes in the importing text.
    pub span: ByteSpan,
}

/// The imports of `file` (text `text`) that Copilot CLI inlines, in token
/// order; a token naming no file is a diagnostic at its line.
pub(crate) fn expand(cx: &mut Cx<'_, '_>, file: &RepoPath, text: &TextFile) -> Vec<Imported> {
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
        let Ok(imported) = crate::instructions::read(cx, &path) else {
            continue;
        };
        out.push(Imported {
            path,
            text: imported,
            span: ByteSpan {
                start: t.start as u64,
                end: (t.start + 1 + raw.len()) as u64,
            },
        });
    }
    out
}

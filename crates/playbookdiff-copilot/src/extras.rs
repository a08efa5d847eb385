//! Prompt files: `.github/prompts/*.prompt.md`, which Copilot CLI does not
//! load (seen with 1.0.102 and 1.0.24), reported with their source; and
//! the listing of a git-root folder the other modules share.

use crate::Cx;
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};

/// Reports the prompt files of the git root.
pub(crate) fn report(cx: &mut Cx<'_, '_>) {
    for f in files(cx, ".github/prompts", ".prompt.md") {
        note(cx, &f, SourceFormat::Markdown, format!("{} is a prompt file, which Copilot CLI does not load (seen with 1.0.102 and 1.0.24).", quote(&f)));
    }
}

/// One `item-not-modelled` diagnostic at `file`.
fn note(cx: &mut Cx<'_, '_>, file: &RepoPath, format: SourceFormat, message: String) {
    cx.diag(
        Diagnostic::new(DiagnosticCode::ItemNotModelled, message)
            .at(SourceRef::project(file.clone(), format)),
    );
}

/// The files of the git root's folder `dir` whose name ends with
/// `suffix`, by name.
pub(crate) fn files(cx: &Cx<'_, '_>, dir: &str, suffix: &str) -> Vec<RepoPath> {
    let Some(base) = crate::git_root(cx).join(dir).filter(|b| cx.repo.is_dir(b)) else {
        return Vec::new();
    };
    let mut out: Vec<RepoPath> = cx
        .repo
        .list_dir(&base)
        .iter()
        .filter(|e| e.name.ends_with(suffix))
        .filter_map(|e| base.child(&e.name))
        .filter(|f| cx.repo.is_file(f))
        .collect();
    out.sort();
    out
}

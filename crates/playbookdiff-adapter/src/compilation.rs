//! The state every adapter's compilation holds.

use crate::problems;
use playbookdiff_model::{AnalysisContext, Diagnostic, Harness};
use playbookdiff_source::Repo;

/// Shared state of one compilation: the repository, the analysis context
/// and the diagnostics collected so far. An adapter keeps its own state
/// beside it (or uses it as is).
pub struct Compilation<'r, 't> {
    /// The repository, read only.
    pub repo: &'r Repo<'t>,
    /// The analysis context.
    pub context: &'r AnalysisContext,
    /// The diagnostics reported so far, in the order reported.
    pub diags: Vec<Diagnostic>,
}

impl<'r, 't> Compilation<'r, 't> {
    /// A compilation of `repo` under `context` by `harness`, starting with
    /// the problems of [`problems::at_start`].
    pub fn new(repo: &'r Repo<'t>, context: &'r AnalysisContext, harness: Harness) -> Self {
        Compilation {
            repo,
            context,
            diags: problems::at_start(repo, context, harness.display_name()),
        }
    }

    /// Records a diagnostic.
    pub fn diag(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The diagnostics in the order reported, each once
    /// ([`problems::dedupe`]).
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        problems::dedupe(self.diags)
    }
}

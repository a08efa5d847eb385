//! The state every adapter's compilation holds.

use crate::problems;
use playbookdiff_model::{AnalysisContext, Diagnostic, Harness, SourceRef};
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
    /// Why the agent refuses the configuration and does not start, in the
    /// order reported, each with the offending file and lines when known
    /// (empty when it starts).
    pub refusals: Vec<(String, Option<SourceRef>)>,
}

impl<'r, 't> Compilation<'r, 't> {
    /// A compilation of `repo` under `context` by `harness`, starting with
    /// the problems of [`problems::at_start`].
    pub fn new(repo: &'r Repo<'t>, context: &'r AnalysisContext, harness: Harness) -> Self {
        Compilation {
            repo,
            context,
            diags: problems::at_start(repo, context, harness.display_name()),
            refusals: Vec::new(),
        }
    }

    /// Records a diagnostic.
    pub fn diag(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Records the diagnostic of a problem that makes the agent refuse the
    /// configuration and exit before loading anything; `why` is the short
    /// reason the adapter's summary of the refusal repeats.
    pub fn refuse(&mut self, d: Diagnostic, why: impl Into<String>) {
        self.refusals.push((why.into(), d.source.clone()));
        self.diags.push(d);
    }

    /// Reports the one `config-refused` error of the refusals collected
    /// ([`problems::config_refused`], in the harness's `words`); returns
    /// whether there was one, that is whether the agent does not start.
    pub fn report_refusals(&mut self, words: &problems::Refusal) -> bool {
        match problems::config_refused(&self.refusals, &self.context.cwd, words) {
            Some(d) => {
                self.diags.push(d);
                true
            }
            None => false,
        }
    }

    /// Reports each configuration layer of `layers` that the analysis
    /// never reads, in the analysis mode ([`problems::unread_layer`]), in
    /// the order given.
    pub fn report_unread_layers(&mut self, layers: &[problems::UnreadLayer]) {
        let mode = self.context.mode.as_str();
        for l in layers {
            let d = problems::unread_layer(l.code, l.what, mode, l.effect, l.todo);
            self.diags.push(d);
        }
    }

    /// The diagnostics in the order reported, each once
    /// ([`problems::dedupe`]).
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        problems::dedupe(self.diags)
    }
}

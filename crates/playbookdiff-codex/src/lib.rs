//! Placeholder: the adapter is being written.

use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness};
use playbookdiff_source::Repo;

/// Compiles what the harness receives from `repo` under `context`.
/// Never fails: problems are diagnostics in the result.
pub fn compile(_repo: &Repo<'_>, context: &AnalysisContext) -> EffectiveAgentConfig {
    EffectiveAgentConfig::new(Harness::Codex, context.clone())
}

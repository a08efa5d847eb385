//! What the check renderers are fed: one context, or every launch directory.

use playbookdiff_compare::matrix::Matrix;
use playbookdiff_compare::{Comparison, Finding};
use playbookdiff_model::{
    AnalysisContext, DiagnosticCode, EffectiveAgentConfig, Harness, RepoPath,
};

/// A compatibility check under one context.
#[derive(Clone, Debug)]
pub struct CheckReport<'a> {
    /// How to name the repository to the user (REPO as given).
    pub repository: &'a str,
    /// The analysed context.
    pub context: &'a AnalysisContext,
    /// One configuration per compared harness, in the compared order.
    pub configs: &'a [EffectiveAgentConfig],
    /// The comparison of `configs`.
    pub comparison: &'a Comparison,
}

impl CheckReport<'_> {
    /// The compared harnesses.
    pub fn harnesses(&self) -> Vec<Harness> {
        self.configs.iter().map(|c| c.harness).collect()
    }
}

/// A compatibility check of every launch directory.
#[derive(Clone, Debug)]
pub struct MatrixReport<'a> {
    /// How to name the repository to the user.
    pub repository: &'a str,
    /// The context at the repository root (target and mode as given).
    pub context: &'a AnalysisContext,
    /// The configurations at the repository root.
    pub root_configs: &'a [EffectiveAgentConfig],
    /// Every checked launch directory with its finding ids, in path order.
    pub directories: &'a [(RepoPath, Comparison)],
    /// The findings merged and grouped.
    pub matrix: &'a Matrix,
}

impl MatrixReport<'_> {
    /// The compared harnesses.
    pub fn harnesses(&self) -> Vec<Harness> {
        self.root_configs.iter().map(|c| c.harness).collect()
    }
}

/// Diagnostic codes that say what no repository analysis can know: layers
/// outside the repository, runtime state, assumptions.
pub const UNKNOWABLE: &[DiagnosticCode] = &[
    DiagnosticCode::UserConfigUnavailable,
    DiagnosticCode::ManagedConfigUnavailable,
    DiagnosticCode::LocalConfigUnavailable,
    DiagnosticCode::ProjectTrustAssumed,
    DiagnosticCode::ProjectRootAssumed,
    DiagnosticCode::McpApprovalUnknown,
    DiagnosticCode::McpRuntimeUnknown,
    DiagnosticCode::SkillUserStateUnknown,
];

/// Each unknowable code present in `configs` once, with the harnesses it
/// concerns, in table order.
pub fn unknowable(configs: &[EffectiveAgentConfig]) -> Vec<(DiagnosticCode, Vec<Harness>)> {
    UNKNOWABLE
        .iter()
        .filter_map(|code| {
            let hs: Vec<Harness> = configs
                .iter()
                .filter(|c| c.diagnostics.iter().any(|d| d.code == *code))
                .map(|c| c.harness)
                .collect();
            (!hs.is_empty()).then_some((*code, hs))
        })
        .collect()
}

/// Warnings and errors per harness (the repository's own problems).
pub fn problems(configs: &[EffectiveAgentConfig]) -> Vec<(Harness, usize)> {
    configs
        .iter()
        .map(|c| {
            (
                c.harness,
                c.diagnostics
                    .iter()
                    .filter(|d| d.severity != playbookdiff_model::Severity::Info)
                    .count(),
            )
        })
        .collect()
}

/// `path:lines` of each item of `harness` in `f`, at most `max`, then `+N`.
pub fn evidence(f: &Finding, harness: Harness, max: usize) -> Option<String> {
    let locs: Vec<String> = f
        .items
        .iter()
        .filter(|i| i.harness == harness)
        .map(|i| crate::text::location(&i.source))
        .collect();
    if locs.is_empty() {
        return None;
    }
    let mut s = locs
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if locs.len() > max {
        s.push_str(&format!(", +{}", locs.len() - max));
    }
    Some(s)
}

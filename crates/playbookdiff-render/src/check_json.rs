//! The JSON documents of `check` and `explain` (output contract,
//! "Compatibility check").

use crate::report::{CheckReport, MatrixReport};
use playbookdiff_compare::matrix::{Group, MatrixFinding};
use playbookdiff_compare::{AcceptedFinding, FailOn, Finding, Summary};
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness, RepoPath};
use serde::Serialize;
use serde_json::{Map, Value};

fn configs_map(configs: &[EffectiveAgentConfig]) -> Map<String, Value> {
    configs
        .iter()
        .map(|c| {
            (
                c.harness.as_str().to_string(),
                serde_json::to_value(c).expect("the model serializes"),
            )
        })
        .collect()
}

fn pretty(v: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("the report serializes");
    s.push('\n');
    s
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CheckDoc<'a> {
    schema_version: u32,
    context: &'a AnalysisContext,
    harnesses: Vec<Harness>,
    configs: Map<String, Value>,
    findings: &'a [Finding],
    summary: Summary,
    fail_on: FailOn,
    failing: usize,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    stale_accepted: &'a [AcceptedFinding],
}

/// `check --format json`: `schemaVersion`, `context`, `harnesses`,
/// `configs` (one `EffectiveAgentConfig` per harness), `findings`,
/// `summary`, `failOn` (the threshold), `failing` (how many findings fail
/// the run) and, when there are, `staleAccepted` (accepted ids that no
/// longer occur).
pub fn check_json(r: &CheckReport<'_>) -> String {
    pretty(&CheckDoc {
        schema_version: playbookdiff_model::SCHEMA_VERSION,
        context: r.context,
        harnesses: r.harnesses(),
        configs: configs_map(r.configs),
        findings: &r.comparison.findings,
        summary: r.comparison.summary,
        fail_on: r.gate.fail_on,
        failing: r.gate.failing(&r.comparison.findings),
        stale_accepted: &r.gate.stale,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DirEntry<'a> {
    cwd: &'a RepoPath,
    findings: Vec<&'a str>,
    summary: Summary,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatrixDoc<'a> {
    schema_version: u32,
    context: &'a AnalysisContext,
    harnesses: Vec<Harness>,
    all_dirs: bool,
    configs: Map<String, Value>,
    directories: Vec<DirEntry<'a>>,
    groups: &'a [Group],
    findings: &'a [MatrixFinding],
    summary: Summary,
    fail_on: FailOn,
    failing: usize,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    stale_accepted: &'a [AcceptedFinding],
}

/// `check --all-dirs --format json`: the `check` document (with `configs`
/// at the repository root), plus `allDirs: true`, `directories` (every
/// checked launch directory with the ids of its findings and its summary)
/// and `groups`; `findings` lists each finding once with the `directories`
/// where it occurs, and `summary` counts those unique findings.
pub fn matrix_json(r: &MatrixReport<'_>) -> String {
    pretty(&MatrixDoc {
        schema_version: playbookdiff_model::SCHEMA_VERSION,
        context: r.context,
        harnesses: r.harnesses(),
        all_dirs: true,
        configs: configs_map(r.root_configs),
        directories: r
            .matrix
            .directories
            .iter()
            .map(|d| DirEntry {
                cwd: &d.cwd,
                findings: d.findings.iter().map(String::as_str).collect(),
                summary: d.summary,
            })
            .collect(),
        groups: &r.matrix.groups,
        findings: &r.matrix.findings,
        summary: r.matrix.summary,
        fail_on: r.gate.fail_on,
        failing: r.gate.failing(r.matrix.findings.iter().map(|f| &f.finding)),
        stale_accepted: &r.gate.stale,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExplainDoc<'a> {
    schema_version: u32,
    context: &'a AnalysisContext,
    harnesses: Vec<Harness>,
    finding: &'a Finding,
}

/// `explain --format json`: `schemaVersion`, `context`, `harnesses` and the
/// `finding`.
pub fn explain_json(r: &CheckReport<'_>, finding: &Finding) -> String {
    pretty(&ExplainDoc {
        schema_version: playbookdiff_model::SCHEMA_VERSION,
        context: r.context,
        harnesses: r.harnesses(),
        finding,
    })
}

//! Files generated from the model: the JSON Schema of the JSON document and
//! the diagnostics reference.
//!
//! Both are committed (`schema/effective-agent-config.schema.json`,
//! `docs/diagnostics.md`); this crate's `generated` test fails when a
//! committed copy differs from what these functions produce.

use playbookdiff_model::{
    DiagnosticCode, DiagnosticKind, EffectiveAgentConfig, Severity, SCHEMA_VERSION,
};
use std::fmt::Write as _;

/// The JSON Schema (draft 2020-12) of the contract's JSON document, generated
/// from [`EffectiveAgentConfig`]'s types and doc comments, with
/// `schemaVersion` pinned to [`SCHEMA_VERSION`]. Pretty-printed, ending with
/// a newline.
pub fn json_schema() -> String {
    let mut schema = schemars::schema_for!(EffectiveAgentConfig);
    if let Some(version) = schema
        .as_object_mut()
        .and_then(|root| root.get_mut("properties"))
        .and_then(|properties| properties.get_mut("schemaVersion"))
        .and_then(|v| v.as_object_mut())
    {
        version.insert("const".to_string(), SCHEMA_VERSION.into());
    }
    let mut out =
        serde_json::to_string_pretty(&schema).expect("a JSON Schema always serializes to JSON");
    out.push('\n');
    out
}

/// The document of `check --format json` (and, with the optional fields,
/// `check --all-dirs --format json`), for its JSON Schema only: the
/// renderers in `check_json.rs` write the same keys.
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct CheckDocument {
    /// Always 1.
    schema_version: u32,
    /// The analysed context (for `--all-dirs`: the repository root).
    context: playbookdiff_model::AnalysisContext,
    /// The compared harnesses.
    harnesses: Vec<playbookdiff_model::Harness>,
    /// One configuration per harness, keyed by harness name (for
    /// `--all-dirs`: at the repository root).
    configs: std::collections::BTreeMap<String, EffectiveAgentConfig>,
    /// The harnesses that would not start from the launch directory (they
    /// refuse the configuration: a `config-refused` diagnostic), each with
    /// that diagnostic; absent when every harness starts, and with
    /// `--all-dirs` (each has an `agent` `refused` finding there). Such a
    /// harness is left out of every instruction, skill and MCP finding and
    /// has one `agent` `refused` finding of severity `high` instead.
    #[serde(default)]
    refused: Option<Vec<playbookdiff_compare::Refusal>>,
    /// The findings (for `--all-dirs`: each once, with `directories`).
    findings: Vec<playbookdiff_compare::Finding>,
    /// Findings counted by severity.
    summary: playbookdiff_compare::Summary,
    /// The least severity of a not-accepted finding that fails the run
    /// (`--fail-on`, `fail-on` in `playbookdiff.toml`; `never` with
    /// `--exit-zero`).
    fail_on: playbookdiff_compare::FailOn,
    /// How many findings (not accepted, at or above `failOn`) and problems
    /// in the repository (`failingProblems`) fail the run: the exit status
    /// is 1 when this is not 0.
    failing: usize,
    /// The problems in the repository (an agent drops or refuses
    /// configuration: invalid JSON or TOML, a file it cannot read…) that
    /// fail the run on their own: an `error` weighs as a `high` finding, a
    /// `warning` as a `medium` one, against `failOn`, unless a finding has
    /// evidence in the same file (that finding decides). The rule `diff`
    /// applies to an introduced problem. Absent when none.
    #[serde(default)]
    failing_problems: Option<Vec<playbookdiff_compare::delta::DiffProblem>>,
    /// Accepted ids in `playbookdiff.toml` that no finding has any more
    /// (absent when none).
    #[serde(default)]
    stale_accepted: Option<Vec<playbookdiff_compare::AcceptedFinding>>,
    /// `--all-dirs` only: always `true`.
    #[serde(default)]
    all_dirs: Option<bool>,
    /// `--all-dirs` only: every checked launch directory.
    #[serde(default)]
    directories: Option<Vec<DirectorySummary>>,
    /// `--all-dirs` only: every item and list of items the directories'
    /// `receives` name, each once (absent when no directory has any).
    #[serde(default)]
    received: Option<playbookdiff_compare::received::Received>,
    /// `--all-dirs` only: the findings grouped by kind and direction.
    #[serde(default)]
    groups: Option<Vec<playbookdiff_compare::matrix::Group>>,
}

/// One launch directory of `check --all-dirs`.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct DirectorySummary {
    /// The launch directory.
    cwd: playbookdiff_model::RepoPath,
    /// The ids of its findings.
    findings: Vec<String>,
    /// Its findings counted by severity.
    summary: playbookdiff_compare::Summary,
    /// What each harness receives there when the session starts, keyed by
    /// harness: indexes into `received.lists` (instructions in the order
    /// the agent receives them, skills, MCP servers) and the count of
    /// items it receives only on demand.
    #[serde(default)]
    receives: Option<std::collections::BTreeMap<String, playbookdiff_compare::received::Receives>>,
}

/// The JSON Schema of the `check --format json` document
/// (`schema/check.schema.json`).
pub fn check_schema() -> String {
    let schema = schemars::schema_for!(CheckDocument);
    let mut out =
        serde_json::to_string_pretty(&schema).expect("a JSON Schema always serializes to JSON");
    out.push('\n');
    out
}

/// The Markdown reference of every diagnostic code (`docs/diagnostics.md`),
/// generated from the diagnostic table: one section per code with its
/// default severity, summary and documentation, in table order.
pub fn diagnostics_doc() -> String {
    let mut out = String::new();
    out.push_str("# Diagnostics\n\n");
    out.push_str(
        "<!-- Generated from the diagnostic table in \
         crates/playbookdiff-model/src/diagnostics.rs. Do not edit by hand: \
         run `UPDATE_GENERATED=1 cargo test -p playbookdiff-render` to regenerate. -->\n\n",
    );
    out.push_str(
        "Every diagnostic has a stable kebab-case `code`, a `severity` and a \
         one-sentence `message`, and usually a `source` (file and lines). A \
         code is never reused for another meaning. Diagnostics describe the \
         analysed repository and the limits of the analysis; they never change \
         the exit code of `playbookdiff compile`.\n\n",
    );
    out.push_str("Severities:\n\n");
    for (severity, meaning) in [
        (
            Severity::Error,
            "something is wrong and changes what the agent receives.",
        ),
        (
            Severity::Warning,
            "probably not what the author meant, or a real risk.",
        ),
        (
            Severity::Info,
            "a fact, or a limit of the analysis, worth knowing.",
        ),
    ] {
        let _ = writeln!(out, "- `{}`: {meaning}", severity.as_str());
    }
    out.push_str("\nThe severity listed below is the default; an adapter may report a code at another severity where its message says why.\n\nKinds:\n\n");
    for kind in DiagnosticKind::ALL {
        let _ = writeln!(out, "- `{}`: {}", kind.as_str(), kind.meaning());
    }
    out.push_str("\nThe owner is the harness whose rule the code describes (`any`: every harness may report it); since is the PlaybookDiff version that added the code.\n\n");

    out.push_str(
        "| Code | Default severity | Kind | Owner | Since | Summary |\n|---|---|---|---|---|---|\n",
    );
    for code in DiagnosticCode::ALL {
        let _ = writeln!(
            out,
            "| [`{c}`](#{c}) | {} | {} | {} | {} | {} |",
            code.severity().as_str(),
            code.kind().as_str(),
            code.owner().unwrap_or("any"),
            code.since(),
            escape_table_cell(code.summary()),
            c = code.as_str(),
        );
    }

    for code in DiagnosticCode::ALL {
        let _ = write!(
            out,
            "\n## `{}`\n\n- Default severity: `{}`\n- Kind: `{}`\n- Owner: `{}`\n- Since: {}\n- Summary: {}\n\n{}\n",
            code.as_str(),
            code.severity().as_str(),
            code.kind().as_str(),
            code.owner().unwrap_or("any"),
            code.since(),
            code.summary(),
            documentation_paragraph(code.documentation()),
        );
    }
    out
}

/// The doc-comment lines of a code, each stripped of the one space that
/// follows `///`, without leading or trailing blank lines.
fn documentation_paragraph(doc: &str) -> String {
    let lines: Vec<&str> = doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect();
    lines.join("\n").trim().to_string()
}

fn escape_table_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_describes_the_contract_document() {
        let v: serde_json::Value = serde_json::from_str(&json_schema()).unwrap();
        assert_eq!(v["title"], "EffectiveAgentConfig");
        assert_eq!(v["properties"]["schemaVersion"]["const"], SCHEMA_VERSION);
        let props = &v["properties"];
        for key in [
            "schemaVersion",
            "harness",
            "context",
            "instructions",
            "skills",
            "mcpServers",
            "diagnostics",
            "assumptions",
        ] {
            assert!(props.get(key).is_some(), "schema lacks {key}");
        }
    }

    #[test]
    fn every_code_has_a_section() {
        let doc = diagnostics_doc();
        for code in DiagnosticCode::ALL {
            assert!(
                doc.contains(&format!("\n## `{}`\n", code.as_str())),
                "no section for {}",
                code.as_str()
            );
        }
    }

    #[test]
    fn documentation_loses_only_the_doc_comment_space() {
        assert_eq!(documentation_paragraph(" a\n b `c`\n"), "a\nb `c`");
    }
}

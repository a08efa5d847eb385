//! The JSON documents of `check` and `explain` (output contract,
//! "Compatibility check").

use crate::json::{pretty, write_at, write_pretty};
use crate::report::{CheckReport, MatrixReport};
use playbookdiff_compare::delta::DiffProblem;
use playbookdiff_compare::matrix::{Group, MatrixFinding};
use playbookdiff_compare::received::{Received, Receives};
use playbookdiff_compare::{AcceptedFinding, FailOn, Finding, Refusal, Summary};
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness, RepoPath};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// `configs`: one `EffectiveAgentConfig` per harness, keyed by the
/// harness id, in the order given, serialized in place (no intermediate
/// JSON value).
struct Configs<'a>(&'a [EffectiveAgentConfig]);

impl Serialize for Configs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for c in self.0 {
            map.serialize_entry(c.harness.as_str(), c)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CheckDoc<'a> {
    schema_version: u32,
    context: &'a AnalysisContext,
    harnesses: Vec<Harness>,
    configs: Configs<'a>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    refused: &'a [Refusal],
    findings: &'a [Finding],
    summary: Summary,
    fail_on: FailOn,
    failing: usize,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    failing_problems: &'a [DiffProblem],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    stale_accepted: &'a [AcceptedFinding],
}

/// `check --format json`: `schemaVersion`, `context`, `harnesses`,
/// `configs` (one `EffectiveAgentConfig` per harness), when some harness
/// would not start `refused` (each with its `config-refused` diagnostic:
/// left out of the comparison), `findings`, `summary`, `failOn` (the
/// threshold), `failing` (how many findings and problems in the
/// repository fail the run), when some do `failingProblems` (the problems
/// that fail it on their own) and, when there are, `staleAccepted`
/// (accepted ids that no longer occur).
pub fn check_json(r: &CheckReport<'_>) -> String {
    pretty(&check_doc(r))
}

/// Writes [`check_json`]'s document into `out` as it is serialized.
/// Errors: those of `out`.
pub fn write_check_json<W: Write + ?Sized>(out: &mut W, r: &CheckReport<'_>) -> io::Result<()> {
    write_pretty(out, &check_doc(r))
}

fn check_doc<'a>(r: &'a CheckReport<'_>) -> CheckDoc<'a> {
    CheckDoc {
        schema_version: playbookdiff_model::SCHEMA_VERSION,
        context: r.context,
        harnesses: r.harnesses(),
        configs: Configs(r.configs),
        refused: &r.comparison.refused,
        findings: &r.comparison.findings,
        summary: r.comparison.summary,
        fail_on: r.gate.fail_on,
        failing: r.gate.failing(&r.comparison.findings),
        failing_problems: &r.gate.problems,
        stale_accepted: &r.gate.stale,
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DirEntry<'a> {
    cwd: &'a RepoPath,
    findings: &'a [String],
    summary: Summary,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    receives: &'a BTreeMap<Harness, Receives>,
}

/// `directories`: one [`DirEntry`] per checked launch directory, made as
/// it is serialized.
struct Directories<'a>(&'a [playbookdiff_compare::matrix::DirectoryFindings]);

impl Serialize for Directories<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for d in self.0 {
            seq.serialize_element(&DirEntry {
                cwd: &d.cwd,
                findings: &d.findings,
                summary: d.summary,
                receives: &d.receives,
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatrixDoc<'a> {
    schema_version: u32,
    context: &'a AnalysisContext,
    harnesses: Vec<Harness>,
    all_dirs: bool,
    configs: Configs<'a>,
    directories: Directories<'a>,
    #[serde(skip_serializing_if = "Received::is_empty")]
    received: &'a Received,
    groups: &'a [Group],
    findings: &'a [MatrixFinding],
    summary: Summary,
    fail_on: FailOn,
    failing: usize,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    failing_problems: &'a [DiffProblem],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    stale_accepted: &'a [AcceptedFinding],
}

/// `check --all-dirs --format json`: the `check` document (with `configs`
/// at the repository root), plus `allDirs: true`, `directories` (every
/// checked launch directory with the ids of its findings and its summary)
/// and `groups`; `findings` lists each finding once with the `directories`
/// where it occurs, and `summary` counts those unique findings.
pub fn matrix_json(r: &MatrixReport<'_>) -> String {
    pretty(&matrix_doc(r))
}

/// Writes [`matrix_json`]'s document into `out` as it is serialized (at
/// 1,000,000 files the document is tens of megabytes; it is never held
/// whole in memory). Errors: those of `out`.
///
/// With many findings and a second core, the findings are serialized on
/// two threads in alternate runs of `FINDINGS_PER_RUN`: this thread
/// writes the members before `findings` (the root's configurations above
/// all) and every even run straight to `out`, a second thread serializes
/// every odd run into memory, and this one copies each such run out in
/// its place. The same bytes in about half the time; at most
/// `RUNS_AHEAD` serialized runs wait in memory at once, so memory stays
/// bounded however many findings there are (at 1,000,000 files the
/// findings are tens of megabytes of JSON).
pub fn write_matrix_json<W: Write + ?Sized>(out: &mut W, r: &MatrixReport<'_>) -> io::Result<()> {
    let doc = matrix_doc(r);
    let n = doc.findings.len();
    let parallel =
        n >= PARALLEL_FINDINGS && std::thread::available_parallelism().is_ok_and(|p| p.get() > 1);
    if !parallel {
        return write_pretty(out, &doc);
    }
    let runs: Vec<&[MatrixFinding]> = doc.findings.chunks(FINDINGS_PER_RUN).collect();
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<io::Result<Vec<u8>>>(RUNS_AHEAD);
        let runs = &runs;
        s.spawn(move || {
            for run in runs.iter().skip(1).step_by(2) {
                let mut buf = Vec::new();
                let r = findings_members(&mut buf, run, false).map(|()| buf);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    break;
                }
            }
        });
        let mut w = io::BufWriter::with_capacity(64 * 1024, &mut *out);
        let written = write_matrix_doc(&mut w, &doc, |w| {
            for (k, run) in runs.iter().enumerate() {
                if k % 2 == 0 {
                    findings_members(w, run, k == 0)?;
                } else {
                    let buf = rx
                        .recv()
                        .map_err(|_| io::Error::other("the findings could not be serialized"))??;
                    w.write_all(&buf)?;
                }
            }
            Ok(())
        })
        .and_then(|()| w.write_all(b"\n"));
        // The second thread stops at its next send once `rx` is dropped.
        drop(rx);
        match written {
            Ok(()) => w.into_inner().map(drop).map_err(|e| e.into_error()),
            Err(e) => {
                drop(w.into_parts());
                Err(e)
            }
        }
    })
}

/// From how many findings [`write_matrix_json`] serializes on two threads.
const PARALLEL_FINDINGS: usize = 64;

/// How many findings [`write_matrix_json`] serializes in one run on one
/// thread.
const FINDINGS_PER_RUN: usize = 16;

/// How many runs the second thread of [`write_matrix_json`] may hold
/// serialized ahead of the writing thread: 1,024 findings, enough to keep
/// it busy while the writing thread writes the configurations of the
/// 100,000-file benchmark tree.
const RUNS_AHEAD: usize = 64;

/// The elements of the `findings` array (two levels deep in the
/// document), each preceded by its separator: a newline when it is the
/// first of the array (`first`), else a comma and a newline, then the
/// indent.
fn findings_members<W: Write + ?Sized>(
    w: &mut W,
    findings: &[MatrixFinding],
    first: bool,
) -> io::Result<()> {
    for (i, f) in findings.iter().enumerate() {
        w.write_all(if first && i == 0 {
            b"\n    "
        } else {
            b",\n    "
        })?;
        write_at(w, f, 2)?;
    }
    Ok(())
}

/// Writes `doc` as [`write_pretty`] does (without the final newline), one
/// member at a time, with `findings` writing the elements of the
/// non-empty `findings` array. The members and their order are
/// [`MatrixDoc`]'s (a test holds the two to the same bytes).
fn write_matrix_doc<W: Write + ?Sized>(
    w: &mut W,
    doc: &MatrixDoc<'_>,
    findings: impl FnOnce(&mut W) -> io::Result<()>,
) -> io::Result<()> {
    fn member<W: Write + ?Sized>(w: &mut W, key: &str, v: &impl Serialize) -> io::Result<()> {
        w.write_all(b",\n  \"")?;
        w.write_all(key.as_bytes())?;
        w.write_all(b"\": ")?;
        write_at(w, v, 1)
    }
    w.write_all(b"{\n  \"schemaVersion\": ")?;
    write_at(w, &doc.schema_version, 1)?;
    member(w, "context", doc.context)?;
    member(w, "harnesses", &doc.harnesses)?;
    member(w, "allDirs", &doc.all_dirs)?;
    member(w, "configs", &doc.configs)?;
    member(w, "directories", &doc.directories)?;
    if !doc.received.is_empty() {
        member(w, "received", doc.received)?;
    }
    member(w, "groups", &doc.groups)?;
    w.write_all(b",\n  \"findings\": [")?;
    findings(w)?;
    w.write_all(b"\n  ]")?;
    member(w, "summary", &doc.summary)?;
    member(w, "failOn", &doc.fail_on)?;
    member(w, "failing", &doc.failing)?;
    if !doc.failing_problems.is_empty() {
        member(w, "failingProblems", &doc.failing_problems)?;
    }
    if !doc.stale_accepted.is_empty() {
        member(w, "staleAccepted", &doc.stale_accepted)?;
    }
    w.write_all(b"\n}")
}

fn matrix_doc<'a>(r: &'a MatrixReport<'_>) -> MatrixDoc<'a> {
    MatrixDoc {
        schema_version: playbookdiff_model::SCHEMA_VERSION,
        context: r.context,
        harnesses: r.harnesses(),
        all_dirs: true,
        configs: Configs(r.root_configs),
        directories: Directories(&r.matrix.directories),
        received: &r.matrix.received,
        groups: &r.matrix.groups,
        findings: &r.matrix.findings,
        summary: r.matrix.summary,
        fail_on: r.gate.fail_on,
        failing: r.gate.failing(r.matrix.findings.iter().map(|f| &f.finding)),
        failing_problems: &r.gate.problems,
        stale_accepted: &r.gate.stale,
    }
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
    pretty(&explain_doc(r, finding))
}

/// Writes [`explain_json`]'s document into `out`. Errors: those of `out`.
pub fn write_explain_json<W: Write + ?Sized>(
    out: &mut W,
    r: &CheckReport<'_>,
    finding: &Finding,
) -> io::Result<()> {
    write_pretty(out, &explain_doc(r, finding))
}

fn explain_doc<'a>(r: &'a CheckReport<'_>, finding: &'a Finding) -> ExplainDoc<'a> {
    ExplainDoc {
        schema_version: playbookdiff_model::SCHEMA_VERSION,
        context: r.context,
        harnesses: r.harnesses(),
        finding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value};

    /// `check --all-dirs` JSON with enough findings to be written on two
    /// threads: the same bytes as the document serialized whole, with and
    /// without stale accepted ids.
    #[test]
    fn matrix_json_on_two_threads_is_the_document() {
        use playbookdiff_compare::matrix::MatrixBuilder;
        use playbookdiff_compare::{compare, AcceptedFinding};
        let a = crate::text::tests::sample();
        let mut b = a.clone();
        b.harness = Harness::new("codex", "Codex");
        b.instructions.clear();
        let base = compare(&[&a, &b]);
        assert!(!base.findings.is_empty());
        let mut builder = MatrixBuilder::new();
        for d in 0..80 {
            let mut cmp = base.clone();
            for f in &mut cmp.findings {
                f.id = format!("{}-{d:02}", f.id);
            }
            builder.add(RepoPath::new(&format!("d{d:02}")).unwrap(), cmp);
        }
        let matrix = builder.finish();
        assert!(matrix.findings.len() >= PARALLEL_FINDINGS);
        let configs = vec![a, b];
        let ctx = AnalysisContext::at_root();
        let via = crate::Via::default();
        for stale in [
            Vec::new(),
            vec![AcceptedFinding {
                id: "instruction:missing:codex-only:root:0123456789ab".into(),
                reason: "r".into(),
                directories: Vec::new(),
            }],
        ] {
            let gate = crate::Gate {
                fail_on: FailOn::default(),
                stale,
                ..crate::Gate::default()
            };
            let r = MatrixReport {
                repository: ".",
                context: &ctx,
                root_configs: &configs,
                matrix: &matrix,
                via: &via,
                gate: &gate,
                problems: &[],
            };
            let mut written = Vec::new();
            write_matrix_json(&mut written, &r).unwrap();
            let whole = serde_json::to_string_pretty(&matrix_doc(&r)).unwrap() + "\n";
            assert_eq!(String::from_utf8(written).unwrap(), whole);
        }
    }

    /// `configs` was first built as a `serde_json::Value` map; serializing
    /// the configurations in place writes the same bytes, in the given
    /// order (the output contract is unchanged).
    #[test]
    fn configs_serialize_as_the_value_map_did() {
        let a = crate::text::tests::sample();
        let mut b = a.clone();
        b.harness = Harness::new("codex", "Codex");
        b.instructions.truncate(1);
        let configs = vec![b, a];
        let as_values: Map<String, Value> = configs
            .iter()
            .map(|c| {
                (
                    c.harness.as_str().to_string(),
                    serde_json::to_value(c).unwrap(),
                )
            })
            .collect();
        let in_place = pretty(&Configs(&configs));
        assert_eq!(in_place, pretty(&as_values));
        assert!(in_place.find("\"codex\"").unwrap() < in_place.find("\"claude-code\"").unwrap());
        let mut written = Vec::new();
        write_pretty(&mut written, &Configs(&configs)).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), in_place);
    }
}

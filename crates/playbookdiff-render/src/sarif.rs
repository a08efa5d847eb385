//! `--format sarif`: a SARIF 2.1.0 log (OASIS standard, errata 01) for
//! GitHub code scanning and other SARIF readers.
//!
//! One run, tool `PlaybookDiff`; one rule per finding kind
//! (`instruction-missing`, `mcp-capability-gap`, …) and per diagnostic code
//! that occurs, each with a short description and help text. Each finding
//! is a result at the file of its first item (lines as `region`), with every
//! item's file (both sides) as a related location, and its stable id as
//! the partial fingerprint `playbookdiffFindingId/v1`, so a forge tracks
//! the same finding across runs whatever its lines. An accepted finding
//! carries an `external` suppression (status `accepted`) whose
//! justification is the recorded reason. Warnings and errors the harness
//! adapters report about repository files are results too, under their
//! diagnostic code.
//!
//! The structures below are the subset of the SARIF object model this
//! renderer writes, named after the specification's properties; the tests
//! in the CLI crate's `tests/cli/team.rs` and `tests/cli/diff.rs` validate
//! the output of `check` and `diff` against the official schema
//! (`schema/vendor/sarif-schema-2.1.0.json`).

use crate::forge::{
    diagnostic_rule_id, finding_description, finding_help, finding_rule_id, finding_title,
    start_line, uri_path, ForgeDiagnostic, ForgeFinding, ForgeReport,
};
use playbookdiff_compare::{Finding, FindingSeverity};
use playbookdiff_model::{Diagnostic, Severity, SourceRef};
use serde::Serialize;
use std::collections::BTreeMap;

/// The `$schema` URI written into the log.
pub const SARIF_SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The partial fingerprint key holding a finding's stable id.
pub const FINGERPRINT_KEY: &str = "playbookdiffFindingId/v1";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    results: Vec<SarifResult<'a>>,
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Text,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
    properties: BTreeMap<&'static str, serde_json::Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    end_line: u32,
}

#[derive(Serialize)]
struct Suppression<'a> {
    kind: &'static str,
    status: &'static str,
    justification: &'a str,
}

/// The base the URIs are relative to: the repository root, as GitHub
/// code scanning names it.
const SRCROOT: &str = "%SRCROOT%";

/// Where `path` is: relative to [`SRCROOT`] for a repository file; for a
/// file of the user's or the machine's, relative to a base id the
/// analysis does not define (SARIF 2.1.0 §3.4.4: a consumer that knows
/// it resolves it): `HOME` for `~/...`, `NAME` for `$NAME/...`; a file below `/` is an absolute `file:` URI (a fixed
/// machine path, such as `/etc/codex/config.toml`, not the analyser's).
fn artifact(path: &playbookdiff_model::RepoPath) -> ArtifactLocation {
    match path.machine_parts() {
        None => ArtifactLocation {
            uri: uri_path(path.as_str()),
            uri_base_id: Some(SRCROOT.to_string()),
        },
        Some(("/", rest)) => ArtifactLocation {
            uri: format!("file:///{}", uri_path(rest)),
            uri_base_id: None,
        },
        Some((label, rest)) => ArtifactLocation {
            uri: uri_path(rest),
            uri_base_id: Some(match label {
                "~" => "HOME".to_string(),
                var => var.trim_start_matches('$').to_string(),
            }),
        },
    }
}

fn physical(source: &SourceRef) -> PhysicalLocation {
    PhysicalLocation {
        artifact_location: artifact(&source.path),
        region: start_line(source.lines.as_ref()).map(|(start_line, end_line)| Region {
            start_line,
            end_line,
        }),
    }
}

fn finding_level(s: FindingSeverity) -> &'static str {
    match s {
        FindingSeverity::High => "error",
        FindingSeverity::Medium => "warning",
        FindingSeverity::Low | FindingSeverity::Info => "note",
    }
}

fn diagnostic_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Rules in order of first use, by id.
#[derive(Default)]
struct Rules {
    list: Vec<Rule>,
}

impl Rules {
    fn index(&mut self, id: &str, make: impl FnOnce() -> Rule) -> usize {
        if let Some(i) = self.list.iter().position(|r| r.id == id) {
            return i;
        }
        self.list.push(make());
        self.list.len() - 1
    }
}

/// The SARIF 2.1.0 log of `report`, pretty-printed, ending with a
/// newline. Paths are repository-relative URIs against the base id
/// `%SRCROOT%` (the repository root); lines are 1-based.
pub fn sarif(report: &ForgeReport<'_>) -> String {
    crate::json::pretty(&log(report))
}

/// Writes [`sarif`]'s log into `out` as it is serialized. Errors: those
/// of `out`.
pub fn write_sarif<W: std::io::Write + ?Sized>(
    out: &mut W,
    report: &ForgeReport<'_>,
) -> std::io::Result<()> {
    crate::json::write_pretty(out, &log(report))
}

fn log<'a>(report: &'a ForgeReport<'_>) -> Log<'a> {
    let mut rules = Rules::default();
    let mut results = Vec::new();
    for ff in &report.findings {
        let f = ff.finding;
        let rule_id = finding_rule_id(f.category, f.kind);
        let rule_index = rules.index(&rule_id, || finding_rule(f, &rule_id));
        results.push(finding_result(ff, rule_id, rule_index));
    }
    for fd in &report.diagnostics {
        let d = &*fd.diagnostic;
        let rule_id = diagnostic_rule_id(d);
        let rule_index = rules.index(rule_id, || diagnostic_rule(d, rule_id));
        if let Some(result) = diagnostic_result(fd, rule_id, rule_index) {
            results.push(result);
        }
    }
    log_of(rules.list, results)
}

/// Writes the SARIF 2.1.0 log of `issues` (one rule per rule id, in
/// order of first use; each issue's fingerprint as the partial
/// fingerprint `playbookdiffIssue/v1`) into `out`. Errors: those of `out`.
pub fn write_sarif_issues<W: std::io::Write + ?Sized>(
    out: &mut W,
    issues: &[crate::forge::ForgeIssue],
) -> std::io::Result<()> {
    use crate::forge::IssueLevel;
    let level = |l: IssueLevel| match l {
        IssueLevel::Error => "error",
        IssueLevel::Warning => "warning",
        IssueLevel::Note => "note",
    };
    let mut rules = Rules::default();
    let mut results = Vec::new();
    for i in issues {
        let rule_index = rules.index(i.rule_id, || Rule {
            id: i.rule_id.to_string(),
            name: i.rule_id.to_string(),
            short_description: Text {
                text: i.title.to_string(),
            },
            full_description: Text {
                text: i.title.to_string(),
            },
            help: Text {
                text: i.help.to_string(),
            },
            default_configuration: Configuration {
                level: level(i.level),
            },
            properties: RuleProperties {
                tags: vec!["round"],
            },
        });
        results.push(SarifResult {
            rule_id: i.rule_id.to_string(),
            rule_index,
            level: level(i.level),
            message: Text {
                text: i.message.clone(),
            },
            locations: i
                .source
                .iter()
                .map(|s| Location {
                    id: None,
                    physical_location: physical(s),
                    message: None,
                })
                .collect(),
            related_locations: Vec::new(),
            partial_fingerprints: BTreeMap::from([("playbookdiffIssue/v1", i.fingerprint.clone())]),
            suppressions: Vec::new(),
            baseline_state: None,
            properties: BTreeMap::new(),
        });
    }
    let log = log_of(rules.list, results);
    crate::json::write_pretty(out, &log)
}

/// The rule `rule_id` of finding `f`'s kind: its title as the short
/// description and, in upper camel case, as the name.
fn finding_rule(f: &Finding, rule_id: &str) -> Rule {
    let title = finding_title(f.category, f.kind);
    Rule {
        id: rule_id.to_string(),
        name: title
            .split([' ', '-'])
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect(),
        short_description: Text { text: title },
        full_description: Text {
            text: finding_description(f.category, f.kind).to_string(),
        },
        help: Text {
            text: finding_help(f.category, f.kind),
        },
        default_configuration: Configuration {
            level: finding_level(f.severity),
        },
        properties: RuleProperties {
            tags: vec!["agent-configuration", f.category.as_str()],
        },
    }
}

/// The result of one finding: its message with the remedies, where it is,
/// its stable id as the fingerprint, its acceptance as a suppression.
fn finding_result<'a>(
    ff: &'a ForgeFinding<'_>,
    rule_id: String,
    rule_index: usize,
) -> SarifResult<'a> {
    let f = ff.finding;
    let (locations, related) = finding_locations(f);
    let mut text = f.message.clone();
    if !f.remedies.is_empty() {
        for r in &f.remedies {
            text.push_str(&format!(" Fix for {}: {}", r.harness.as_str(), r.action));
        }
    }
    SarifResult {
        rule_id,
        rule_index,
        level: finding_level(f.severity),
        message: Text { text },
        locations,
        related_locations: related,
        partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, f.id.clone())]),
        suppressions: f
            .accepted
            .as_ref()
            .map(|a| Suppression {
                kind: "external",
                status: "accepted",
                justification: &a.reason,
            })
            .into_iter()
            .collect(),
        baseline_state: ff.baseline.map(|b| b.as_str()),
        properties: finding_properties(ff),
    }
}

/// Where finding `f` is: the file of its first item (else its first
/// source, else its launch directory), and every item's file as a related
/// location with the harness's reason.
fn finding_locations(f: &Finding) -> (Vec<Location>, Vec<Location>) {
    let mut locations = Vec::new();
    let mut related = Vec::new();
    for (i, item) in f.items.iter().enumerate() {
        if i == 0 {
            locations.push(Location {
                id: None,
                physical_location: physical(&item.source),
                message: None,
            });
        }
        related.push(Location {
            id: Some(i),
            physical_location: physical(&item.source),
            message: Some(Text {
                text: format!("{}: {}", item.harness.as_str(), item.reason),
            }),
        });
    }
    if locations.is_empty() {
        if let Some(source) = f.first_source() {
            locations.push(Location {
                id: None,
                physical_location: physical(source),
                message: None,
            });
        } else if let Some(dir) = &f.scope {
            locations.push(Location {
                id: None,
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: if dir.is_root() {
                            String::new()
                        } else {
                            format!("{}/", uri_path(dir.as_str()))
                        },
                        uri_base_id: Some(SRCROOT.to_string()),
                    },
                    region: None,
                },
                message: None,
            });
        }
    }
    (locations, related)
}

/// A finding's properties: its id, severity, the harnesses on each side
/// and, under `check --all-dirs`, its launch directories.
fn finding_properties(ff: &ForgeFinding<'_>) -> BTreeMap<&'static str, serde_json::Value> {
    let f = ff.finding;
    let mut properties = BTreeMap::new();
    properties.insert("findingId", f.id.clone().into());
    properties.insert("severity", f.severity.as_str().into());
    properties.insert(
        "presentIn",
        f.present_in
            .iter()
            .map(|h| h.as_str())
            .collect::<Vec<_>>()
            .into(),
    );
    properties.insert(
        "absentFrom",
        f.absent_from
            .iter()
            .map(|h| h.as_str())
            .collect::<Vec<_>>()
            .into(),
    );
    if !ff.directories.is_empty() {
        properties.insert(
            "directories",
            ff.directories
                .iter()
                .map(|d| d.as_str())
                .collect::<Vec<_>>()
                .into(),
        );
    }
    properties
}

/// The rule `rule_id` of diagnostic `d`'s code, described by the code's
/// documentation.
fn diagnostic_rule(d: &Diagnostic, rule_id: &str) -> Rule {
    Rule {
        id: rule_id.to_string(),
        name: rule_id.to_string(),
        short_description: Text {
            text: d.code.summary().to_string(),
        },
        full_description: Text {
            text: d.code.documentation().replace('\n', " ").trim().to_string(),
        },
        help: Text {
            text: d.code.documentation().replace('\n', " ").trim().to_string(),
        },
        default_configuration: Configuration {
            level: diagnostic_level(d.code.severity()),
        },
        properties: RuleProperties {
            tags: vec!["agent-configuration", "diagnostic"],
        },
    }
}

/// The result of a diagnostic about a repository file, at that file;
/// `None` for a diagnostic with no file.
fn diagnostic_result<'a>(
    fd: &ForgeDiagnostic<'_>,
    rule_id: &str,
    rule_index: usize,
) -> Option<SarifResult<'a>> {
    let d = &*fd.diagnostic;
    let source = d.source.as_ref()?;
    let fingerprint = crate::gitlab::fingerprint(&[
        "diagnostic",
        fd.harness.as_str(),
        rule_id,
        source.path.as_str(),
        &d.message,
    ]);
    let mut properties = BTreeMap::new();
    properties.insert("harness", fd.harness.as_str().into());
    Some(SarifResult {
        rule_id: rule_id.to_string(),
        rule_index,
        level: diagnostic_level(d.severity),
        message: Text {
            text: format!("{}: {}", fd.harness.as_str(), d.message),
        },
        locations: vec![Location {
            id: None,
            physical_location: physical(source),
            message: None,
        }],
        related_locations: Vec::new(),
        partial_fingerprints: BTreeMap::from([("playbookdiffDiagnostic/v1", fingerprint)]),
        suppressions: Vec::new(),
        baseline_state: None,
        properties,
    })
}

/// The SARIF 2.1.0 log of one run of PlaybookDiff with `rules` and
/// `results`.
fn log_of(rules: Vec<Rule>, results: Vec<SarifResult<'_>>) -> Log<'_> {
    Log {
        schema: SARIF_SCHEMA_URI,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "PlaybookDiff",
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            results,
            column_kind: "unicodeCodePoints",
        }],
    }
}

//! `--format gitlab`: a GitLab Code Quality report (a JSON array of
//! issues, the subset of the Code Climate format GitLab reads:
//! `description`, `check_name`, `fingerprint`, `severity`,
//! `location.path`, `location.lines.begin`; GitLab documentation, "Code
//! Quality", "Implement a custom tool").
//!
//! Severity: `critical` for high findings and error diagnostics, `major`
//! for medium findings and warnings, `minor` for low, `info` for info and
//! for accepted findings, whose description starts with `Accepted` and
//! the reason. The fingerprint is a SHA-256 of the finding's stable id, so
//! GitLab tracks a finding across pipelines whatever its lines.

use crate::forge::{finding_rule_id, start_line, ForgeReport};
use playbookdiff_compare::FindingSeverity;
use playbookdiff_model::Severity;
use serde::Serialize;
use sha2::{Digest, Sha256};

#[derive(Serialize)]
struct Issue {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
}

/// Lower-case hex SHA-256 of `parts` joined by NUL bytes.
pub fn fingerprint(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0u8]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The Code Quality report of `report`, pretty-printed, ending with a
/// newline. A finding without a file (none in practice) points at
/// `playbookdiff.toml`'s directory, the repository root, line 1.
pub fn gitlab(report: &ForgeReport<'_>) -> String {
    crate::json::pretty(&issues(report))
}

/// Writes [`gitlab`]'s report into `out` as it is serialized. Errors:
/// those of `out`.
pub fn write_gitlab<W: std::io::Write + ?Sized>(
    out: &mut W,
    report: &ForgeReport<'_>,
) -> std::io::Result<()> {
    crate::json::write_pretty(out, &issues(report))
}

/// Writes the Code Quality report of `issues` (`round audit`) into
/// `out`: `critical` for errors, `major` for warnings, `info` for notes;
/// each issue's own fingerprint; a file-less issue at `.`, line 1.
/// Errors: those of `out`.
pub fn write_gitlab_issues<W: std::io::Write + ?Sized>(
    out: &mut W,
    issues: &[crate::forge::ForgeIssue],
) -> std::io::Result<()> {
    use crate::forge::IssueLevel;
    let list: Vec<Issue> = issues
        .iter()
        .map(|i| Issue {
            description: format!(
                "{}{}",
                crate::forge::outside_prefix(i.source.as_ref()),
                i.message
            ),
            check_name: i.rule_id.to_string(),
            fingerprint: i.fingerprint.clone(),
            severity: match i.level {
                IssueLevel::Error => "critical",
                IssueLevel::Warning => "major",
                IssueLevel::Note => "info",
            },
            location: Location {
                path: crate::forge::repository_file(i.source.as_ref())
                    .map_or_else(|| ".".to_string(), |s| s.path.as_str().to_string()),
                lines: Lines {
                    begin: crate::forge::repository_file(i.source.as_ref())
                        .and_then(|s| start_line(s.lines.as_ref()))
                        .map_or(1, |l| l.0),
                },
            },
        })
        .collect();
    crate::json::write_pretty(out, &list)
}

fn issues(report: &ForgeReport<'_>) -> Vec<Issue> {
    let mut issues = Vec::new();
    for ff in &report.findings {
        let f = ff.finding;
        let source = f.first_source();
        let severity = match (&f.accepted, f.severity) {
            (Some(_), _) => "info",
            (None, FindingSeverity::High) => "critical",
            (None, FindingSeverity::Medium) => "major",
            (None, FindingSeverity::Low) => "minor",
            (None, FindingSeverity::Info) => "info",
        };
        let mut description = match &f.accepted {
            Some(a) => format!("Accepted ({}): {}", a.reason, f.message),
            None => f.message.clone(),
        };
        description.insert_str(0, &crate::forge::outside_prefix(source));
        let source = crate::forge::repository_file(source);
        description.push_str(&format!(" [{}]", f.id));
        issues.push(Issue {
            description,
            check_name: finding_rule_id(f.category, f.kind),
            fingerprint: fingerprint(&["finding", &f.id]),
            severity,
            location: Location {
                path: source.map_or_else(|| ".".to_string(), |s| s.path.as_str().to_string()),
                lines: Lines {
                    begin: source
                        .and_then(|s| start_line(s.lines.as_ref()))
                        .map_or(1, |l| l.0),
                },
            },
        });
    }
    for fd in &report.diagnostics {
        let d = &*fd.diagnostic;
        let Some(source) = &d.source else { continue };
        let outside = crate::forge::outside_prefix(Some(source));
        let placed = crate::forge::repository_file(Some(source));
        issues.push(Issue {
            description: format!("{}: {outside}{}", fd.harness.as_str(), d.message),
            check_name: d.code.as_str().to_string(),
            fingerprint: fingerprint(&[
                "diagnostic",
                fd.harness.as_str(),
                d.code.as_str(),
                source.path.as_str(),
                &d.message,
            ]),
            severity: match d.severity {
                Severity::Error => "critical",
                Severity::Warning => "major",
                Severity::Info => "info",
            },
            location: Location {
                path: placed.map_or_else(|| ".".to_string(), |s| s.path.as_str().to_string()),
                lines: Lines {
                    begin: placed
                        .and_then(|s| start_line(s.lines.as_ref()))
                        .map_or(1, |l| l.0),
                },
            },
        });
    }
    issues
}

//! `playbookdiff round audit`: the audit of a round as text, JSON
//! (`schema/round-audit.schema.json`) and the forge formats (SARIF,
//! GitHub, GitLab through [`ForgeIssue`], fingerprinted by rule, file and
//! subject).
//!
//! Text: a header naming the brief, the two sides and where the scope
//! was read; the counts, each with what was measured beside it; each
//! finding (severity, rule, file and line, then the message, wrapped);
//! what each agent receives differently (`diff`'s lines); a result line.
//! Every line is wrapped to the output width (80 columns by default).

use crate::forge::{ForgeIssue, IssueLevel};
use crate::layout::{clean, columns, wrap, wrap_hanging};
use playbookdiff_model::{Lines, RepoPath, SourceFormat, SourceRef};
use playbookdiff_round::audit::{AuditFinding, AuditReport, AuditSeverity, ScopeSource};
use std::fmt::Write as _;

/// The report as pretty-printed JSON, ending with a newline.
pub fn audit_json(report: &AuditReport) -> String {
    crate::json::pretty(report)
}

/// The JSON Schema of the report (`schema/round-audit.schema.json`).
pub fn audit_schema() -> String {
    playbookdiff_round::audit::json_schema()
}

fn line(out: &mut String, text: &str) {
    out.push_str(&wrap(text, "", columns()));
}

fn item(out: &mut String, text: &str) {
    out.push_str(&wrap_hanging(text, "  ", "    ", columns()));
}

fn side(s: &playbookdiff_round::audit::AuditSide) -> String {
    match &s.commit {
        Some(c) => format!("{} ({})", s.revision, c.get(..7).unwrap_or(c)),
        None => format!("{} (not found)", s.revision),
    }
}

/// The report as text (module doc for the layout).
pub fn audit_text(r: &AuditReport) -> String {
    let mut out = String::new();
    line(
        &mut out,
        &format!("Audit of round {} ({})", clean(&r.brief), clean(&r.path)),
    );
    item(
        &mut out,
        &format!("from {} to {}", side(&r.base), side(&r.head)),
    );
    let scope = match r.scope_from {
        ScopeSource::Base => "the brief as the base holds it",
        ScopeSource::Head => "the brief as the head holds it (the base has none)",
    };
    let oos = serde_json::to_value(r.out_of_scope)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    item(&mut out, &format!("scope: {scope}; outOfScope: {oos}"));
    counts(&mut out, r);
    findings(&mut out, &r.findings);
    agents(&mut out, r);
    let c = &r.counts;
    let verdict = if r.fails { "FAILS" } else { "passes" };
    let _ = writeln!(out);
    line(
        &mut out,
        &format!(
            "Result: the round {verdict}: {}, {}, {}.",
            plural(c.errors, "error", "errors"),
            plural(c.warnings, "warning", "warnings"),
            plural(c.notes, "note", "notes")
        ),
    );
    out
}

/// `n thing` or `n things`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn counts(out: &mut String, r: &AuditReport) {
    let c = &r.counts;
    if r.base.commit.is_none() {
        out.push('\n');
        line(out, "Changed files: not measured (no base to compare with)");
        return;
    }
    let not_read = c.changed_files - c.read_as_text;
    out.push('\n');
    line(
        out,
        &format!(
            "Changed files: {} (measured: {} read as text, {not_read} not)",
            c.changed_files, c.read_as_text
        ),
    );
    item(
        out,
        &format!(
            "in affectedFiles {}, outside {}, protected {}",
            c.in_scope, c.out_of_scope, c.protected
        ),
    );
    item(out, &format!("manifests read: {}", c.manifests));
    line(
        out,
        &format!(
            "Rulings: {} (measured: {} verified)",
            plural(c.rulings, "row", "rows"),
            c.rulings_verified
        ),
    );
    line(
        out,
        &format!(
            "Agents: {} where an agent receives something different",
            plural(c.agent_contexts, "context", "contexts")
        ),
    );
}

fn findings(out: &mut String, list: &[AuditFinding]) {
    if list.is_empty() {
        out.push('\n');
        line(out, "No findings.");
        return;
    }
    for f in list {
        out.push('\n');
        let place = match (&f.path, f.line) {
            (Some(p), Some(l)) => format!(" {}:{l}", clean(p)),
            (Some(p), None) => format!(" {}", clean(p)),
            _ => String::new(),
        };
        line(
            out,
            &format!("{} {}{place}", f.severity.as_str(), f.rule.id()),
        );
        out.push_str(&wrap(&clean(&f.message), "  ", columns()));
    }
}

fn agents(out: &mut String, r: &AuditReport) {
    if r.agents.is_empty() {
        return;
    }
    out.push('\n');
    line(
        out,
        "What each agent receives differently (as `diff` says it):",
    );
    for ctx in &r.agents {
        let at = match &ctx.target_path {
            Some(t) => format!("{} (target {})", clean(&ctx.cwd), clean(t)),
            None => clean(&ctx.cwd).into_owned(),
        };
        item(out, &at);
        for a in &ctx.agents {
            out.push_str(&wrap(a.harness.display_name(), "    ", columns()));
            let mut lines: Vec<String> = a
                .instructions
                .iter()
                .map(crate::diff::instruction_line)
                .collect();
            let lists = [
                ("skill", a.skills.as_slice()),
                ("MCP server", a.mcp_servers.as_slice()),
            ];
            for (what, list) in lists.into_iter().chain(a.surfaces()) {
                lines.extend(list.iter().map(|c| crate::diff::capability_line(what, c)));
            }
            for l in lines {
                out.push_str(&wrap_hanging(&l, "      ", "        ", columns()));
            }
        }
    }
}

/// The findings as forge issues, fingerprinted by rule, file and subject
/// ([`AuditFinding::fingerprint_parts`]).
pub fn forge_issues(r: &AuditReport) -> Vec<ForgeIssue> {
    r.findings
        .iter()
        .map(|f| ForgeIssue {
            rule_id: f.rule.id(),
            title: f.rule.title(),
            help: f.rule.help(),
            level: match f.severity {
                AuditSeverity::Error => IssueLevel::Error,
                AuditSeverity::Warning => IssueLevel::Warning,
                AuditSeverity::Note => IssueLevel::Note,
            },
            message: f.message.clone(),
            source: f.path.as_deref().and_then(RepoPath::new).map(|p| {
                let mut s = SourceRef::project(p, format_of(f.path.as_deref()));
                s.lines = f.line.map(|l| Lines { start: l, end: l });
                s
            }),
            fingerprint: crate::gitlab::fingerprint(&f.fingerprint_parts()),
        })
        .collect()
}

/// The syntax a forge location names, by the file's extension (program
/// code for any other file).
fn format_of(path: Option<&str>) -> SourceFormat {
    let ext = path.and_then(|p| p.rsplit_once('.')).map(|(_, e)| e);
    match ext {
        Some("md") => SourceFormat::Markdown,
        Some("json") => SourceFormat::Json,
        Some("toml") => SourceFormat::Toml,
        Some("yml" | "yaml") => SourceFormat::Yaml,
        _ => SourceFormat::Code,
    }
}

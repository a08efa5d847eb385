//! The parts of the `diff` renderings that only `playbookdiff upgrade`
//! has: its head (the harness and its two releases), the behaviours the
//! upgrade changes with their first release and evidence, and its result
//! line. Everything else (the changes per launch directory, the problems
//! in the repository) is `diff`'s own rendering.

use crate::check_markdown::esc;
use crate::diff::{DiffDocument, UpgradeChange, UpgradeSides};
use crate::forge::ForgeDiagnostic;
use crate::layout::{clean, columns, wrap, wrap_hanging};
use crate::text::{dim, heading, Painter};
use playbookdiff_compare::delta::AgentDelta;
use playbookdiff_model::remedy::count;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use std::borrow::Cow;
use std::fmt::Write as _;

/// The head of the text: repository, harness, the two releases, counts.
pub(crate) fn header(out: &mut String, p: &Painter, doc: &DiffDocument, u: &UpgradeSides) {
    let _ = writeln!(out, "{}", p.paint("PlaybookDiff: upgrade", heading()));
    let _ = writeln!(out, "  repository  {}", clean(&doc.repository));
    let _ = writeln!(out, "  harness     {}", clean(u.harness.display_name()));
    let _ = writeln!(out, "  from        {}", clean(&u.from));
    let _ = writeln!(out, "  to          {}", clean(&u.to));
    out.push_str(&wrap(&counts(doc, u), "", columns()));
}

fn counts(doc: &DiffDocument, u: &UpgradeSides) -> String {
    format!(
        "{} between the two; {} analysed; {} with changes for the model.",
        count(u.changes.len(), "behaviour changes", "behaviours change"),
        count(doc.summary.affected_contexts, "context", "contexts"),
        doc.directories.iter().filter(|d| for_model(d)).count()
    )
}

/// True when a step changes what the model receives at its context, not
/// only how the agent would treat it
/// ([`AgentDelta::changes_for_model`]).
fn for_model(d: &crate::diff::DiffContext) -> bool {
    d.agents.iter().any(AgentDelta::changes_for_model)
}

/// The behaviours the upgrade changes, each with its first release, what
/// it does, its evidence, the id to accept it with and where it matters.
pub(crate) fn changes_text(out: &mut String, p: &Painter, u: &UpgradeSides) {
    let _ = writeln!(
        out,
        "\n{}",
        p.paint("Behaviours that change between the releases", heading())
    );
    if u.changes.is_empty() {
        let none = format!(
            "no bisected behaviour starts after {} up to {}: a change above comes \
             from the profile of {}",
            clean(&u.from),
            clean(&u.to),
            clean(&u.to)
        );
        out.push_str(&wrap_hanging(&none, "  ", "    ", columns()));
    }
    for c in &u.changes {
        let r = &c.change;
        let _ = writeln!(out, "  {} {}", clean(r.since), clean(r.fact));
        out.push_str(&wrap_hanging(&clean(r.summary), "    ", "    ", columns()));
        let evidence = format!("evidence: {}", clean(r.evidence));
        out.push_str(&p.paint(&wrap_hanging(&evidence, "    ", "      ", columns()), dim()));
        out.push_str(&wrap_hanging(&where_text(c), "    ", "      ", columns()));
    }
}

/// Where a change matters, and whether it is accepted.
fn where_text(c: &UpgradeChange) -> String {
    let here = match c.directories.len() {
        0 => "changes nothing here".to_string(),
        n => format!(
            "changes what the model receives at {}: {}",
            count(n, "context", "contexts"),
            c.directories
                .iter()
                .map(|d| clean(d.as_str()).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    match &c.accepted {
        Some(reason) => format!("{here}; accepted: {}", clean(reason)),
        None if c.directories.is_empty() => here,
        None => format!("{here}; accept with id {}", clean(&c.id)),
    }
}

/// The result line: how many changes fail the run, and the exit status.
pub(crate) fn result_line(doc: &DiffDocument, u: &UpgradeSides) -> String {
    let affecting = u
        .changes
        .iter()
        .filter(|c| !c.directories.is_empty())
        .count();
    let unexplained = doc
        .directories
        .iter()
        .filter(|d| {
            for_model(d)
                && !u
                    .changes
                    .iter()
                    .any(|c| d.release.as_deref() == Some(c.change.since))
        })
        .count();
    if !doc.directories.iter().any(for_model) && doc.summary.failing == 0 {
        return "Result: the model receives the same here after the upgrade (exit status 0)."
            .to_string();
    }
    let accepted = u
        .changes
        .iter()
        .filter(|c| c.accepted.is_some() && !c.directories.is_empty())
        .count();
    let rest = if unexplained > 0 {
        format!(
            ", and the profile of {} at {} no bisected behaviour explains",
            clean(&u.to),
            count(unexplained, "context", "contexts")
        )
    } else {
        String::new()
    };
    let failing = doc.summary.failing;
    format!(
        "Result: {} what the model receives here, {accepted} accepted{rest}; {} (exit status {}).",
        count(affecting, "behaviour changes", "behaviours change"),
        match failing {
            0 => "none fails the run".to_string(),
            1 => "1 fails the run".to_string(),
            n => format!("{n} fail the run"),
        },
        u8::from(failing > 0)
    )
}

/// The head of the Markdown comment.
pub(crate) fn markdown_header(out: &mut String, doc: &DiffDocument, u: &UpgradeSides) {
    let _ = writeln!(
        out,
        "### PlaybookDiff: {} {} to {}\n",
        esc(u.harness.display_name()),
        esc(&u.from),
        esc(&u.to)
    );
    let _ = writeln!(out, "{}\n", esc(&counts(doc, u)));
}

/// The behaviours as a Markdown list.
pub(crate) fn changes_markdown(out: &mut String, u: &UpgradeSides) {
    let _ = writeln!(out, "**Behaviours that change: {}**\n", u.changes.len());
    for c in &u.changes {
        let r = &c.change;
        let _ = writeln!(
            out,
            "- **{}** `{}`: {} Evidence: {} ({}; `{}`)",
            esc(r.since),
            esc(r.fact),
            esc(r.summary),
            esc(r.evidence),
            esc(&where_text(c)),
            c.id.replace('`', "'")
        );
    }
    if !u.changes.is_empty() {
        out.push('\n');
    }
}

/// For the forge formats: one `agent-upgrade-change` warning per launch
/// directory and release whose behaviour changes, not accepted, what the
/// model receives, at the first file that changes there.
pub(crate) fn forge_diagnostics(d: &DiffDocument) -> Vec<ForgeDiagnostic<'static>> {
    let Some(u) = &d.upgrade else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ctx in &d.directories {
        let Some(release) = &ctx.release else {
            continue;
        };
        let causes: Vec<&UpgradeChange> = u
            .changes
            .iter()
            .filter(|c| c.change.since == release.as_str() && c.accepted.is_none())
            .collect();
        let Some(path) = ctx.agents.iter().find_map(first_path) else {
            continue;
        };
        if causes.is_empty() {
            continue;
        }
        let facts: Vec<String> = causes
            .iter()
            .map(|c| {
                format!(
                    "{} ({})",
                    c.change.fact,
                    c.change.summary.trim_end_matches('.')
                )
            })
            .collect();
        let ids: Vec<&str> = causes.iter().map(|c| c.id.as_str()).collect();
        let message = format!(
            "From {} {release} on, launched in `{}`, the model receives `{path}` differently: {}. Review it, then accept it in playbookdiff.toml with the id {}.",
            u.harness.display_name(),
            ctx.cwd,
            facts.join("; "),
            ids.join(", ")
        );
        out.push(ForgeDiagnostic {
            harness: u.harness,
            diagnostic: Cow::Owned(
                Diagnostic::new(DiagnosticCode::AgentUpgradeChange, message)
                    .at(SourceRef::project(path.clone(), format_of(&path))),
            ),
        });
    }
    out
}

/// The first file a delta changes: an instruction's, else a skill's, an
/// MCP server's or another surface's.
fn first_path(a: &AgentDelta) -> Option<RepoPath> {
    a.instructions
        .first()
        .map(|c| c.path.clone())
        .or_else(|| a.skills.first().map(|c| c.path.clone()))
        .or_else(|| a.mcp_servers.first().map(|c| c.path.clone()))
        .or_else(|| {
            a.surfaces()
                .find_map(|(_, l)| l.first().map(|c| c.path.clone()))
        })
}

/// The syntax of a changed file, by its extension.
fn format_of(path: &RepoPath) -> SourceFormat {
    let p = path.as_str();
    if p.ends_with(".json") {
        SourceFormat::Json
    } else if p.ends_with(".toml") {
        SourceFormat::Toml
    } else if p.ends_with(".yaml") || p.ends_with(".yml") {
        SourceFormat::Yaml
    } else {
        SourceFormat::Markdown
    }
}

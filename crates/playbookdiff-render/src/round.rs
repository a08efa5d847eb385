//! `playbookdiff round context`: the context packet as text and as JSON.
//!
//! Text: a header naming the brief and what named it, the files it may
//! write and must not change, the rulings as written, the brief's
//! problems, what each agent receives per launch directory, the linked
//! documents with their sizes, then the brief and each inlined document
//! whole, each under a rule line naming its path. Every line this module
//! writes is wrapped to the output width (80 columns by default), the
//! brief's and the documents' own lines too: a line wider than that goes
//! on under its own indentation (and list marker), cut at spaces.

use crate::layout::{columns, width, wrap, wrap_hanging, wrap_quoted_hanging};
use playbookdiff_round::packet::{AgentReceives, ContextPacket};
use playbookdiff_round::rulings::{Decision, RulingsReport};
use std::fmt::Write as _;

/// The packet as pretty-printed JSON ([`ContextPacket`]), ending with a
/// newline.
pub fn context_json(packet: &ContextPacket) -> String {
    let mut out = serde_json::to_string_pretty(packet).unwrap_or_default();
    out.push('\n');
    out
}

/// The JSON Schema of the packet (`schema/round-context.schema.json`).
pub fn context_schema() -> String {
    playbookdiff_round::packet::json_schema()
}

/// The packet as text (module doc for the layout).
pub fn context_text(packet: &ContextPacket) -> String {
    let mut out = String::new();
    header(&mut out, packet);
    scope(&mut out, packet);
    rulings(&mut out, packet);
    agents(&mut out, packet);
    documents(&mut out, packet);
    whole_texts(&mut out, packet);
    out
}

fn line(out: &mut String, text: &str) {
    out.push_str(&wrap(text, "", columns()));
}

fn item(out: &mut String, text: &str) {
    out.push_str(&wrap_hanging(text, "  ", "    ", columns()));
}

fn header(out: &mut String, p: &ContextPacket) {
    let b = &p.brief;
    let title = b
        .title
        .as_deref()
        .map(|t| format!(": {t}"))
        .unwrap_or_default();
    line(out, &format!("Round brief {}{title}", b.id));
    let by = b.named_by.describe();
    item(out, &format!("file {}, named by {by}", b.path));
    let status = b.status.as_deref().unwrap_or("not given");
    let base = b.base_branch.as_deref().unwrap_or("not given");
    let oos = match b.out_of_scope {
        playbookdiff_round::OutOfScope::Warn => "warn",
        playbookdiff_round::OutOfScope::Ask => "ask",
        playbookdiff_round::OutOfScope::Deny => "deny",
    };
    item(
        out,
        &format!("status {status}; base branch {base}; a write outside the scope: {oos}"),
    );
}

fn scope(out: &mut String, p: &ContextPacket) {
    for (title, list, readable) in [
        ("May write (affectedFiles):", &p.may_write, p.scope_readable),
        (
            "Must not change (protectedFiles):",
            &p.must_not_change,
            p.protected_readable,
        ),
    ] {
        out.push('\n');
        line(out, title);
        if list.is_empty() {
            item(out, "none given");
        }
        for e in list {
            match &e.problem {
                None => item(out, &e.pattern),
                Some(why) => item(out, &format!("{} (cannot be read: {why})", e.pattern)),
            }
        }
        if !readable {
            item(
                out,
                "This list is not known in full; treat the files it means as unknown.",
            );
        }
    }
}

fn rulings(out: &mut String, p: &ContextPacket) {
    out.push('\n');
    line(
        out,
        "Rulings (as written; `playbookdiff round rulings` says which count):",
    );
    if p.rulings.is_empty() {
        item(out, "none");
    }
    for r in &p.rulings {
        let cells: Vec<String> = r
            .cells
            .iter()
            .map(|(k, v)| format!("{k}: {}", v.as_str().unwrap_or_default()))
            .collect();
        item(out, &format!("line {}: {}", r.line, cells.join("; ")));
    }
    if !p.problems.is_empty() {
        out.push('\n');
        line(out, "Problems in the brief:");
        for pr in &p.problems {
            let at = pr.line.map(|l| format!(":{l}")).unwrap_or_default();
            item(out, &format!("{}{at}: {}", p.brief.path, pr.message));
        }
    }
}

fn agents(out: &mut String, p: &ContextPacket) {
    out.push('\n');
    line(out, "What each agent receives where the scope lies:");
    if p.agents.is_empty() {
        item(
            out,
            "no launch directory: the scope names no readable pattern",
        );
    }
    for dir in &p.agents {
        item(out, &format!("launched from {}:", dir.cwd));
        for h in &dir.harnesses {
            out.push_str(&wrap_hanging(&agent_line(h), "    ", "      ", columns()));
        }
    }
}

fn agent_line(h: &AgentReceives) -> String {
    let list = |items: &[String]| {
        if items.is_empty() {
            "none".to_string()
        } else {
            items.join(", ")
        }
    };
    format!(
        "{}: instructions {}; skills {}; MCP servers {}; hooks {}; {} diagnostic{}",
        h.harness.display_name(),
        list(&h.instructions),
        list(&h.skills),
        list(&h.mcp_servers),
        list(&h.hooks),
        h.diagnostics,
        if h.diagnostics == 1 { "" } else { "s" }
    )
}

fn documents(out: &mut String, p: &ContextPacket) {
    out.push('\n');
    line(
        out,
        &format!(
            "Linked documents (budget {} chars, {} used by the brief and those inlined):",
            p.budget_chars, p.used_chars
        ),
    );
    if p.documents.is_empty() {
        item(out, "none");
    }
    for d in &p.documents {
        let text = match (&d.problem, d.chars, &d.text) {
            (Some(why), _, _) => format!("{}: cannot be read ({why})", d.path),
            (None, Some(n), Some(_)) => format!("{} ({n} chars): inlined below", d.path),
            (None, n, _) => format!(
                "{} ({} chars): over the budget, read it at that path",
                d.path,
                n.unwrap_or(0)
            ),
        };
        item(out, &text);
    }
}

fn whole_texts(out: &mut String, p: &ContextPacket) {
    let inlined = p
        .documents
        .iter()
        .filter_map(|d| d.text.as_ref().map(|t| (&d.path, t)));
    for (path, text) in std::iter::once((&p.brief.path, &p.brief.text)).chain(inlined) {
        let _ = writeln!(out, "\n──── {path}");
        for l in text.lines() {
            out.push_str(&quoted_line(l));
        }
    }
}

/// One line of a brief or a document, ending with a newline: as it is
/// when it fits the output width, else wrapped at spaces
/// ([`wrap_quoted_hanging`]), the lines after the first indented under
/// its text (after its indentation and a list marker `- `, `* `, `1. `).
fn quoted_line(l: &str) -> String {
    if width(l) <= columns() {
        return format!("{l}\n");
    }
    let body = l.trim_start();
    let lead = &l[..l.len() - body.len()];
    let marker = body
        .split_once(' ')
        .map(|(m, _)| m)
        .filter(|m| {
            matches!(*m, "-" | "*" | "+" | ">")
                || (m.len() > 1
                    && m.ends_with('.')
                    && m[..m.len() - 1].bytes().all(|b| b.is_ascii_digit()))
        })
        .map_or(0, |m| m.len() + 1);
    let rest = " ".repeat(width(lead) + marker);
    wrap_quoted_hanging(body, lead, &rest, columns())
}

/// `round rulings` as pretty-printed JSON ([`RulingsReport`]), ending with
/// a newline.
pub fn rulings_json(report: &RulingsReport) -> String {
    let mut out = serde_json::to_string_pretty(report).unwrap_or_default();
    out.push('\n');
    out
}

/// The JSON Schema of `round rulings --format json`
/// (`schema/round-rulings.schema.json`).
pub fn rulings_schema() -> String {
    playbookdiff_round::rulings::json_schema()
}

/// `round rulings` as text: where the signers were read, then one entry
/// per row (id, path, status, verified or not) with who signed or why it
/// does not count, wrapped to the output width.
pub fn rulings_text(report: &RulingsReport) -> String {
    let mut out = String::new();
    line(
        &mut out,
        &format!("Rulings of brief {} ({})", report.brief, report.path),
    );
    item(&mut out, &format!("allowed signers: {}", report.signers));
    for p in &report.signer_problems {
        item(&mut out, &format!("not used: {p}"));
    }
    out.push('\n');
    if report.rows.is_empty() {
        line(&mut out, "No rows.");
    }
    for r in &report.rows {
        let state = match (&r.signer, r.decision) {
            (Some(who), _) => format!("verified, signed by {who}"),
            (None, Decision::Pending | Decision::Unknown) => "no ruling".to_string(),
            (None, _) => "NOT verified".to_string(),
        };
        let id = if r.id.is_empty() { "(no id)" } else { &r.id };
        line(
            &mut out,
            &format!("{id} {} {}: {state}", r.path, r.decision.word()),
        );
        if let (Some(why), Decision::Allow | Decision::Deny) = (&r.why_not, r.decision) {
            item(&mut out, &format!("line {}: {why}", r.line));
        } else if let Some(c) = &r.commit {
            item(&mut out, &format!("line {}: commit {}", r.line, short(c)));
        }
    }
    out
}

fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

//! `check --format markdown`: a compact report for a pull-request comment,
//! one table per category, detail collapsed in `<details>`.
//!
//! Text from the repository is escaped: `|`, `<`, `>`, backticks and line
//! breaks cannot break the table or inject markup.

use crate::check_text::counts;
use crate::report::{evidence, CheckReport, MatrixReport};
use playbookdiff_compare::{display_name, Category, Finding};
use playbookdiff_model::Harness;
use std::fmt::Write as _;

fn versus(hs: &[Harness]) -> String {
    hs.iter()
        .map(|h| display_name(*h))
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// Escapes text for a Markdown table cell or paragraph.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '*' | '_' | '`' | '[' | ']' | '#' | '~' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Inline code that cannot be closed by the content (HTML, so Markdown
/// emphasis does not apply inside; only `<`, `>`, `&` and `|` are escaped).
fn code(s: &str) -> String {
    let mut out = String::from("<code>");
    for c in s.chars() {
        match c {
            '|' => out.push_str("&#124;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push_str("</code>");
    out
}

/// The message with its backtick spans kept as code, escaped.
fn message(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&code(part));
        } else {
            out.push_str(&esc(part));
        }
    }
    out
}

fn tables(
    out: &mut String,
    findings: &[&Finding],
    hs: &[Harness],
    dirs: Option<&dyn Fn(&str) -> String>,
) {
    for cat in [Category::Instruction, Category::Skill, Category::Mcp] {
        let fs: Vec<&&Finding> = findings.iter().filter(|f| f.category == cat).collect();
        if fs.is_empty() {
            continue;
        }
        let title = match cat {
            Category::Instruction => "Instructions",
            Category::Skill => "Skills",
            Category::Mcp => "MCP servers",
        };
        let _ = writeln!(out, "\n### {title}\n");
        if dirs.is_some() {
            let _ = writeln!(
                out,
                "| Severity | Finding | Where | Directories |\n|---|---|---|---|"
            );
        } else {
            let _ = writeln!(out, "| Severity | Finding | Where |\n|---|---|---|");
        }
        for f in fs {
            let where_: Vec<String> = hs
                .iter()
                .filter_map(|h| evidence(f, *h, 2).map(|e| format!("{}: {}", h.as_str(), code(&e))))
                .collect();
            let _ = write!(
                out,
                "| {} | {} | {} |",
                f.severity.as_str(),
                message(&f.message),
                where_.join("<br>")
            );
            if let Some(d) = dirs {
                let _ = write!(out, " {} |", d(&f.id));
            }
            out.push('\n');
        }
    }
}

fn details(out: &mut String, findings: &[&Finding]) {
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n<details><summary>Details: ids, evidence and fixes</summary>\n"
    );
    for f in findings {
        let _ = writeln!(out, "#### {}\n", code(&f.id));
        let _ = writeln!(
            out,
            "- {} {} {}; present in {}{}",
            f.severity.as_str(),
            f.category.as_str(),
            f.kind.as_str(),
            f.present_in
                .iter()
                .map(|h| h.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            if f.absent_from.is_empty() {
                String::new()
            } else {
                format!(
                    ", absent from {}",
                    f.absent_from
                        .iter()
                        .map(|h| h.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        );
        for i in f.items.iter().take(6) {
            let _ = writeln!(
                out,
                "- {} {}: {}",
                i.harness.as_str(),
                code(&crate::text::location(&i.source)),
                message(&i.reason)
            );
        }
        for a in &f.absences {
            let _ = writeln!(
                out,
                "- {} lacks it: {}",
                a.harness.as_str(),
                message(&a.reason)
            );
        }
        for d in &f.differences {
            let vals: Vec<String> = d
                .values
                .iter()
                .map(|v| {
                    format!(
                        "{} {}",
                        v.harness.as_str(),
                        code(v.value.as_deref().unwrap_or("(not set)"))
                    )
                })
                .collect();
            let _ = writeln!(out, "- {}: {}", code(&d.field), vals.join(" vs "));
        }
        for p in f.paragraphs.iter().take(5) {
            if let Some(d) = &p.diff {
                let _ = writeln!(out, "- reworded: {}", esc(d));
            } else if let Some(s) = p.sides.first() {
                let _ = writeln!(out, "- only {}: {}", s.harness.as_str(), esc(&s.text));
            }
        }
        for r in &f.remedies {
            let _ = writeln!(
                out,
                "- fix for {}: {}",
                display_name(r.harness),
                message(&r.action)
            );
        }
        out.push('\n');
    }
    let _ = writeln!(out, "</details>");
}

/// The Markdown report of one context.
pub fn check_markdown(r: &CheckReport<'_>) -> String {
    let hs = r.harnesses();
    let mut out = String::new();
    let s = &r.comparison.summary;
    let _ = writeln!(out, "## PlaybookDiff: {}\n", esc(&versus(&hs)));
    let _ = writeln!(
        out,
        "Launched in {}{}, {} mode: **{}**.",
        code(r.context.cwd.as_str()),
        r.context
            .target_path
            .as_ref()
            .map(|t| format!(", target {}", code(t.as_str())))
            .unwrap_or_default(),
        r.context.mode.as_str(),
        counts(s)
    );
    if r.comparison.findings.is_empty() {
        let _ = writeln!(
            out,
            "\nNo compatibility findings: both harnesses receive the same configuration."
        );
        return out;
    }
    let fs: Vec<&Finding> = r.comparison.findings.iter().collect();
    tables(&mut out, &fs, &hs, None);
    details(&mut out, &fs);
    let _ = writeln!(
        out,
        "\n<sub>Run <code>playbookdiff explain ID</code> with the same options for the evidence and a fix.</sub>"
    );
    out
}

/// The Markdown report of every launch directory.
pub fn matrix_markdown(r: &MatrixReport<'_>) -> String {
    let hs = r.harnesses();
    let mut out = String::new();
    let m = r.matrix;
    let total = r.directories.len();
    let _ = writeln!(
        out,
        "## PlaybookDiff: {} in every launch directory\n",
        esc(&versus(&hs))
    );
    let _ = writeln!(
        out,
        "{total} launch directories checked, {} mode: **{}** (each counted once).",
        r.context.mode.as_str(),
        counts(&m.summary)
    );
    if m.groups.is_empty() {
        let _ = writeln!(out, "\nNo compatibility findings in any launch directory.");
        return out;
    }
    let _ = writeln!(out, "\n| Severity | Directories | What |\n|---|---|---|");
    for g in &m.groups {
        let _ = writeln!(
            out,
            "| {} | {} of {total} | {} |",
            g.severity.as_str(),
            g.directories.len(),
            message(&g.summary)
        );
    }
    let fs: Vec<&Finding> = m.findings.iter().map(|f| &f.finding).collect();
    let dirs = |id: &str| {
        m.findings
            .iter()
            .find(|f| f.finding.id == id)
            .map(|f| {
                let shown: Vec<String> = f
                    .directories
                    .iter()
                    .take(3)
                    .map(|d| code(d.as_str()))
                    .collect();
                let more = f.directories.len().saturating_sub(3);
                if more > 0 {
                    format!("{} +{more}", shown.join(" "))
                } else {
                    shown.join(" ")
                }
            })
            .unwrap_or_default()
    };
    let mut body = String::new();
    tables(&mut body, &fs, &hs, Some(&dirs));
    details(&mut body, &fs);
    let _ = writeln!(
        out,
        "\n<details><summary>Every finding</summary>\n{body}\n</details>"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_text_cannot_break_the_table_or_inject_markup() {
        assert_eq!(esc("a|b<script>*x*"), "a\\|b&lt;script&gt;\\*x\\*");
        assert_eq!(code("a|b</code>"), "<code>a&#124;b&lt;/code&gt;</code>");
        assert_eq!(
            message("see `x|y` and *z*"),
            "see <code>x&#124;y</code> and \\*z\\*"
        );
        assert!(!esc("line\nbreak").contains('\n'));
    }
}

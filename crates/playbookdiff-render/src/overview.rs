//! The default view (`playbookdiff [REPO]`): what each harness receives
//! side by side, then the findings, then what no analysis of the
//! repository can know, with pointers to `check` and `explain`.
//!
//! Fits 80 columns (long paths are shortened in the middle) and reads well
//! without colour: rows where the harnesses differ are marked `!`.

use crate::check_text::{counts, severity_style, vs, wrap, wrap_hanging, WIDTH};
use crate::report::{problems, unknowable, CheckReport};
use crate::text::{clean, dim, heading, Painter};
use playbookdiff_compare::{display_name, names, Category, Cell, Row};
use std::fmt::Write as _;

/// At most this many rows per category; the rest are counted.
const MAX_ROWS: usize = 12;

/// Shortens `s` to `width` characters, keeping both ends.
fn fit(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width {
        return format!("{s:<width$}");
    }
    let keep = width.saturating_sub(1);
    let head = keep / 3;
    let tail = keep - head;
    let chars: Vec<char> = s.chars().collect();
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[n - tail..]);
    out
}

/// The cell's state, with its note when both fit in `width`.
fn cell_text(c: &Cell, width: usize) -> String {
    match c.reception {
        None => "-".to_string(),
        Some(r) if c.note.is_empty() => r.label().to_string(),
        Some(r) => {
            let full = format!("{} ({})", r.label(), c.note);
            if full.chars().count() <= width {
                full
            } else {
                r.label().to_string()
            }
        }
    }
}

/// Renders the default view.
pub fn overview_text(r: &CheckReport<'_>, color: bool) -> String {
    let p = Painter { color };
    let hs = r.harnesses();
    let cmp = r.comparison;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        p.paint(&format!("PlaybookDiff: {}", vs(&hs)), heading())
    );
    let target = r
        .context
        .target_path
        .as_ref()
        .map(|t| format!(", target {}", clean(t.as_str())))
        .unwrap_or_default();
    out.push_str(&wrap(
        &format!(
            "{}, launched in {}{target}, {} mode",
            clean(r.repository),
            clean(r.context.cwd.as_str()),
            r.context.mode.as_str()
        ),
        "",
        WIDTH,
    ));

    // Columns: marker (2), label, then one column per harness.
    let col = 18usize;
    let label_w = WIDTH.saturating_sub(2 + (col + 1) * hs.len()).max(20);
    let mut head = format!("\n  {}", fit("What each agent receives", label_w));
    for h in &hs {
        head.push(' ');
        head.push_str(&fit(display_name(*h), col));
    }
    let _ = writeln!(out, "{}", p.paint(head.trim_end(), heading()));
    let mut differing = 0;
    for (cat, title) in [
        (Category::Instruction, "Instructions"),
        (Category::Skill, "Skills"),
        (Category::Mcp, "MCP servers"),
    ] {
        let rows: Vec<&Row> = cmp
            .rows
            .iter()
            .filter(|x| x.category == cat && x.received_anywhere())
            .collect();
        let hidden = cmp
            .rows
            .iter()
            .filter(|x| x.category == cat && !x.received_anywhere())
            .count();
        let _ = writeln!(out, "{}", p.paint(title, heading()));
        if rows.is_empty() {
            let _ = writeln!(out, "  {}", p.paint("none", dim()));
        }
        // Differences first, so a long list still shows them.
        let mut ordered: Vec<&Row> = rows.iter().filter(|x| !x.agree).copied().collect();
        ordered.extend(rows.iter().filter(|x| x.agree).copied());
        for row in ordered.iter().take(MAX_ROWS) {
            if !row.agree {
                differing += 1;
            }
            let mut line = format!(
                "{} {}",
                if row.agree { " " } else { "!" },
                fit(&clean(&row.label), label_w)
            );
            for c in &row.cells {
                line.push(' ');
                line.push_str(&fit(&cell_text(c, col), col));
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        if ordered.len() > MAX_ROWS {
            let more = ordered.len() - MAX_ROWS;
            let more_diff = ordered[MAX_ROWS..].iter().filter(|x| !x.agree).count();
            differing += more_diff;
            let _ = writeln!(
                out,
                "  {}",
                p.paint(
                    &format!("+{more} more ({more_diff} differing): see `check --format json`"),
                    dim()
                )
            );
        }
        if hidden > 0 {
            let _ = writeln!(
                out,
                "  {}",
                p.paint(
                    &format!("{hidden} more not loaded by any agent from here (pass --cwd to look there)"),
                    dim()
                )
            );
        }
    }
    let _ = writeln!(
        out,
        "{}",
        p.paint(
            if differing > 0 {
                "! = the agents differ. on demand = after a file there is read or edited."
            } else {
                "on demand = after a file there is read or edited."
            },
            dim()
        )
    );

    // Findings.
    let s = &cmp.summary;
    let _ = writeln!(
        out,
        "\n{}",
        p.paint(&format!("Findings: {}", counts(s)), heading())
    );
    if cmp.findings.is_empty() {
        let _ = writeln!(
            out,
            "  None: both agents receive the same configuration from here."
        );
    }
    for f in cmp.findings.iter().take(10) {
        let sev = format!("  {:<7} ", f.severity.as_str());
        let body = wrap(&clean(&f.message), "          ", WIDTH);
        let _ = write!(out, "{}", p.paint(&sev, severity_style(f.severity)));
        out.push_str(body.trim_start());
        let _ = writeln!(out, "          {}", p.paint(&f.id, dim()));
    }
    if cmp.findings.len() > 10 {
        let _ = writeln!(
            out,
            "  +{} more: see `playbookdiff check`",
            cmp.findings.len() - 10
        );
    }

    // What no analysis can know, once.
    let unk = unknowable(r.configs);
    let probs: Vec<String> = problems(r.configs)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(h, n)| format!("{} {n}", display_name(h)))
        .collect();
    if !unk.is_empty() || !probs.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            p.paint("Not known to this analysis", heading())
        );
        for (code, hs) in unk {
            out.push_str(&wrap_hanging(
                &format!("- {} ({})", code.summary(), names(&hs)),
                "  ",
                "    ",
                WIDTH,
            ));
        }
        if !probs.is_empty() {
            out.push_str(&wrap_hanging(
                &format!(
                    "- warnings about the repository itself: {}; see `playbookdiff compile --harness NAME`",
                    probs.join(", ")
                ),
                "  ",
                "    ",
                WIDTH,
            ));
        }
    }

    let _ = writeln!(out, "\n{}", p.paint("Next", heading()));
    let _ = writeln!(
        out,
        "  playbookdiff check                 findings with evidence; exits 1 on medium"
    );
    let _ = writeln!(
        out,
        "  playbookdiff check --format json   everything, for tools"
    );
    let _ = writeln!(
        out,
        "  playbookdiff explain ID            one finding: why, and how to fix it"
    );
    let _ = writeln!(
        out,
        "  playbookdiff check --all-dirs      every package of a monorepo at once"
    );
    out
}

//! `check`, `check --all-dirs` and `explain` for people.
//!
//! Plain text that reads well without colour and fits 80 columns where the
//! repository's own paths allow; colour only emphasizes. Every string taken
//! from the repository is printed with control characters escaped.

pub(crate) use crate::layout::{columns, width, wrap, wrap_hanging};
use crate::report::{
    context_args, cwd_label, evidence, problems, profiles_label, repository_label,
    repository_problems, target_label, CheckReport, Gate, MatrixReport, Via,
};
use crate::text::{clean, dim, heading, location, Painter};
use anstyle::{AnsiColor, Style};
use playbookdiff_compare::group::{group, Group};
use playbookdiff_compare::matrix::{Group as MatrixGroup, MatrixFinding};
use playbookdiff_compare::{
    display_name, names, Category, FailOn, Finding, FindingItem, FindingSeverity, Summary,
};
use playbookdiff_model::remedy::count;
use playbookdiff_model::{AnalysisContext, Harness};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The indentation of a finding row's continuation lines: under the
/// row's value, after `  {label:<12} ` (two spaces, a label such as a
/// harness's name of up to 12 characters, a space).
const LABEL_INDENT: &str = "               ";

/// The indentation of a header value (`  repository  `).
const HEADER_VALUE: &str = "              ";

pub(crate) fn severity_style(s: FindingSeverity) -> Style {
    match s {
        FindingSeverity::High | FindingSeverity::Medium => {
            Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold()
        }
        FindingSeverity::Low => Style::new().fg_color(Some(AnsiColor::Cyan.into())),
        FindingSeverity::Info => Style::new().dimmed(),
    }
}

pub(crate) fn vs(hs: &[Harness]) -> String {
    hs.iter()
        .map(|h| display_name(*h))
        .collect::<Vec<_>>()
        .join(" <-> ")
}

pub(crate) fn counts(s: &Summary) -> String {
    let mut out = format!(
        "{} high, {} medium, {} low, {} info",
        s.high, s.medium, s.low, s.info
    );
    if s.accepted > 0 {
        out.push_str(&format!(" ({} accepted)", s.accepted));
    }
    out
}

/// The header: title, repository, launch directory (unless `all_dirs`),
/// target and mode.
fn header(
    out: &mut String,
    p: &Painter,
    title: &str,
    repository: &str,
    ctx: &AnalysisContext,
    via: &Via,
    all_dirs: bool,
) {
    out.push_str(&p.title(title, heading()));
    let mut rows = vec![("repository", repository_label(repository, via))];
    if !all_dirs {
        rows.push(("cwd", cwd_label(ctx, via)));
    }
    rows.push(("target", target_label(ctx, via)));
    rows.push(("mode", ctx.mode.as_str().to_string()));
    for (k, v) in rows {
        out.push_str(&wrap_hanging(
            &v,
            &format!("  {k:<11} "),
            HEADER_VALUE,
            columns(),
        ));
    }
}

/// The header row naming the agent releases modelled, when recorded.
fn agents_row(out: &mut String, configs: &[playbookdiff_model::EffectiveAgentConfig]) {
    if let Some(v) = profiles_label(configs) {
        out.push_str(&wrap_hanging(&v, "  agents      ", HEADER_VALUE, columns()));
    }
}

/// One finding: severity and kind, the message, the evidence per harness,
/// the id.
///
/// An `agent` finding (a harness that would not start) reads "Codex
/// would not start", with the refused file as that harness's evidence and
/// the fix under it; the other harnesses have no row.
pub(crate) fn finding_block(out: &mut String, p: &Painter, f: &Finding, harnesses: &[Harness]) {
    let sev = format!("{:<7}", f.severity.as_str().to_uppercase());
    // An `agent` or a `guard` finding is about the agents it names alone.
    let agent = matches!(f.category, Category::Agent | Category::Guard);
    let title = match f.category {
        Category::Agent => format!("{} would not start", names(&f.absent_from)),
        Category::Guard => format!("{} guard {}", names(&f.absent_from), f.kind.label()),
        _ => format!("{} {}", f.category.title(), f.kind.label()),
    };
    let _ = writeln!(
        out,
        "\n{}{title}",
        p.paint(&sev, severity_style(f.severity)),
    );
    out.push_str(&wrap(&clean(&f.message), "  ", columns()));
    let rows = if agent { &f.absent_from[..] } else { harnesses };
    for h in rows {
        let ev = evidence(f, *h, 4).unwrap_or_else(|| "(nothing)".to_string());
        out.push_str(&wrap_hanging(
            &clean(&ev),
            &format!("  {:<12} ", h.as_str()),
            LABEL_INDENT,
            columns(),
        ));
    }
    // One row per problem (code and place), naming every harness that
    // reports it: each harness words it its own way.
    let mut rows: Vec<(String, String, Vec<Harness>)> = Vec::new();
    for pr in &f.problems {
        let at = pr
            .source
            .as_ref()
            .map(|s| format!(" in {}", location(s)))
            .unwrap_or_default();
        let code = pr.code.as_str().to_string();
        match rows.iter_mut().find(|(c, a, _)| *c == code && *a == at) {
            Some((_, _, hs)) if !hs.contains(&pr.harness) => hs.push(pr.harness),
            Some(_) => {}
            None => rows.push((code, at, vec![pr.harness])),
        }
    }
    for (code, at, hs) in rows {
        out.push_str(&wrap_hanging(
            &clean(&format!(
                "{code}{at} ({})",
                playbookdiff_compare::names(&hs)
            )),
            &format!("  {:<12} ", "problem"),
            LABEL_INDENT,
            columns(),
        ));
    }
    if agent {
        for rem in &f.remedies {
            out.push_str(&wrap_hanging(
                &clean(&rem.action),
                &format!("  {:<12} ", "fix"),
                "               ",
                columns(),
            ));
        }
    }
    if let Some(a) = &f.accepted {
        out.push_str(&wrap_hanging(
            &clean(&a.reason),
            &format!("  {:<12} ", "accepted"),
            LABEL_INDENT,
            columns(),
        ));
    }
    let _ = writeln!(out, "{}", p.paint(&labelled_id("  id  ", &f.id), dim()));
}

/// `label` followed by finding id `id` on one line when both fit the
/// columns, else the label alone and the id on the next line, unindented:
/// an id is never broken, and an id naming three harnesses
/// (`claude-code+copilot+opencode-only`) passes 80 columns after a label.
fn labelled_id(label: &str, id: &str) -> String {
    if width(label) + width(id) <= columns() {
        format!("{label}{id}")
    } else {
        format!("{}\n{id}", label.trim_end())
    }
}

/// Findings that share a cause: one [`finding_block`] for a group of one,
/// else the count and the cause with every name, the evidence of the
/// first per harness and how many more, the first id and how many more.
pub(crate) fn group_block(out: &mut String, p: &Painter, g: &Group<'_>, harnesses: &[Harness]) {
    let f = g.first();
    let n = g.findings.len();
    if n == 1 {
        return finding_block(out, p, f, harnesses);
    }
    let sev = format!("{:<7}", f.severity.as_str().to_uppercase());
    // count >= 2: one finding returned above.
    let title = wrap(
        &format!("{} {} ({n} findings)", f.category.title(), f.kind.label()),
        "       ",
        columns(),
    );
    let _ = write!(
        out,
        "\n{}{}",
        p.paint(&sev, severity_style(f.severity)),
        &title[sev.len()..]
    );
    out.push_str(&wrap(&clean(&g.summary(usize::MAX)), "  ", columns()));
    for h in harnesses {
        let ev = match evidence(f, *h, 1) {
            None => "(nothing)".to_string(),
            Some(e) => {
                let others = g.findings[1..]
                    .iter()
                    .filter(|x| x.items.iter().any(|i| i.harness == *h))
                    .count();
                if others > 0 {
                    format!("{e}, +{others} more")
                } else {
                    e
                }
            }
        };
        out.push_str(&wrap_hanging(
            &clean(&ev),
            &format!("  {:<12} ", h.as_str()),
            LABEL_INDENT,
            columns(),
        ));
    }
    if let Some(a) = &f.accepted {
        out.push_str(&wrap_hanging(
            &clean(&a.reason),
            &format!("  {:<12} ", "accepted"),
            LABEL_INDENT,
            columns(),
        ));
    }
    for line in crate::layout::id_lines(2, "ids ", &clean(&f.id), n - 1, columns()) {
        let _ = writeln!(out, "{}", p.paint(&line, dim()));
    }
}

/// The repository problems of `configs`, one block each: where, the code
/// and the harnesses, then the diagnostic's message (what to do).
pub(crate) fn problems_section(
    out: &mut String,
    p: &Painter,
    configs: &[playbookdiff_model::EffectiveAgentConfig],
) {
    problems_section_at_most(out, p, configs, usize::MAX, "");
}

/// [`problems_section`] with at most `max` problems, then one line that
/// counts the others and names `command`, which lists them all (the
/// view's `playbookdiff check …`); the heading counts every problem.
pub(crate) fn problems_section_at_most(
    out: &mut String,
    p: &Painter,
    configs: &[playbookdiff_model::EffectiveAgentConfig],
    max: usize,
    command: &str,
) {
    let probs = repository_problems(configs);
    if probs.is_empty() {
        return;
    }
    let places = Places::of(probs.iter().map(|pr| pr.source));
    problems_heading(out, p, probs.len(), places);
    let more = probs.len().saturating_sub(max);
    for pr in probs.into_iter().take(max) {
        problem_row(
            out,
            pr.source,
            pr.subject,
            pr.code,
            &pr.harnesses,
            pr.message,
        );
    }
    if more > 0 {
        out.push_str(&wrap(
            &format!("+{more} more: see `{command}`"),
            "  ",
            columns(),
        ));
    }
}

/// Where the problems of a section lie: in the repository, in the
/// user's own files on the machine (local mode: `~/...`, `$VAR/...`,
/// `/etc/...`), or in both.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Places {
    Repository,
    Machine,
    Both,
}

impl Places {
    /// The places of the problems at `sources` (a problem about no file
    /// counts as the repository's).
    fn of<'a>(sources: impl Iterator<Item = Option<&'a playbookdiff_model::SourceRef>>) -> Places {
        let (mut repo, mut machine) = (false, false);
        for s in sources {
            match s {
                Some(s) if s.path.is_on_machine() => machine = true,
                _ => repo = true,
            }
        }
        match (repo, machine) {
            (false, true) => Places::Machine,
            (true, true) => Places::Both,
            _ => Places::Repository,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Places::Repository => "the repository",
            Places::Machine => "your own configuration",
            Places::Both => "the repository and your own configuration",
        }
    }
}

/// The heading of a "Problems in the repository" section holding `n`
/// problems lying in `places` ("Problems in your own configuration" when
/// local mode finds them in the user's files).
fn problems_heading(out: &mut String, p: &Painter, n: usize, places: Places) {
    out.push('\n');
    out.push_str(&p.title(
        &format!("Problems in {} ({n}): fix these first", places.words()),
        heading(),
    ));
}

/// Where a problem about no file (nor a subject) is: said in words, not
/// with a sign a reader could take for a path.
const NO_FILE: &str = "(no file)";

/// One problem in the repository: where (its file and lines, else its
/// subject, else [`NO_FILE`]) beside its code and harnesses, then its
/// message.
fn problem_row(
    out: &mut String,
    source: Option<&playbookdiff_model::SourceRef>,
    subject: Option<&str>,
    code: playbookdiff_model::DiagnosticCode,
    harnesses: &[Harness],
    message: &str,
) {
    let at = source
        .map(location)
        .or_else(|| subject.map(str::to_string))
        .unwrap_or_else(|| NO_FILE.to_string());
    out.push_str(&crate::layout::pair_lines(
        "  ",
        &clean(&at),
        &format!("{} ({})", code.as_str(), names(harnesses)),
        columns(),
    ));
    out.push_str(&wrap(&clean(message), "    ", columns()));
}

/// The problems in the repository of every launch directory, each once
/// (the section `check` shows for one directory): where, the code and the
/// harnesses, the message, and the launch directories it is reported from
/// when that is not every one.
fn matrix_problems(
    out: &mut String,
    p: &Painter,
    problems: &[playbookdiff_compare::delta::DiffProblem],
    total: usize,
) {
    if problems.is_empty() {
        return;
    }
    let places = Places::of(problems.iter().map(|pr| pr.source.as_ref()));
    problems_heading(out, p, problems.len(), places);
    for pr in problems {
        problem_row(
            out,
            pr.source.as_ref(),
            pr.subject.as_deref(),
            pr.code,
            &pr.harnesses,
            &pr.message,
        );
        let n = pr.directories.len();
        if n < total || total > 1 {
            let dirs: Vec<String> = pr
                .directories
                .iter()
                .take(8)
                .map(|d| clean(d.as_str()).into_owned())
                .collect();
            let more = n.saturating_sub(8);
            let mut list = dirs.join(", ");
            if more > 0 {
                list.push_str(&format!(", +{more} more"));
            }
            out.push_str(&wrap(
                &format!(
                    "reported from {}: {list}",
                    count(n, "launch directory", "launch directories")
                ),
                "    ",
                columns(),
            ));
        }
    }
}

/// `check --format text`.
pub fn check_text(r: &CheckReport<'_>, color: crate::Color) -> String {
    let p = Painter { color };
    let hs = r.harnesses();
    let mut out = String::new();
    header(
        &mut out,
        &p,
        &format!("PlaybookDiff check: {}", vs(&hs)),
        r.repository,
        r.context,
        r.via,
        false,
    );
    agents_row(&mut out, r.configs);
    problems_section(&mut out, &p, r.configs);
    let s = &r.comparison.summary;
    out.push('\n');
    out.push_str(&wrap(&format!("Findings: {}", counts(s)), "", columns()));
    if r.comparison.findings.is_empty() {
        let _ = writeln!(out, "  No compatibility findings.");
    }
    for g in group(&r.comparison.findings) {
        group_block(&mut out, &p, &g, &r.comparison.harnesses);
    }
    footer(
        &mut out,
        r.configs,
        (r.gate, r.gate.failing(&r.comparison.findings), s),
        false,
        &context_args(r.repository, r.context, r.via, true),
    );
    out
}

/// The sentence after "Result: ": what fails the run (the findings, the
/// problems in the repository of `gate`, or both), else why nothing does,
/// with the exit status.
fn result(gate: &Gate, failing: usize, s: &Summary) -> String {
    let problems = gate.problems.len();
    let findings = failing - problems;
    let finding_part = match (findings, gate.fail_on) {
        (0, _) => None,
        (n, FailOn::Medium) if problems == 0 => Some(format!(
            "{n} actionable finding{}: the harnesses receive different configuration",
            if n == 1 { "" } else { "s" }
        )),
        (n, FailOn::Medium) => Some(format!(
            "{n} actionable finding{}",
            if n == 1 { "" } else { "s" }
        )),
        (n, t) => Some(format!(
            "{n} finding{} at or above {} and not accepted",
            if n == 1 { "" } else { "s" },
            t.as_str()
        )),
    };
    let problem_part = (problems > 0).then(|| {
        format!(
            "{} in the repository make{} an agent drop or refuse configuration ({})",
            count(problems, "problem", "problems"),
            if problems == 1 { "s" } else { "" },
            gate.problems
                .iter()
                .map(|p| match &p.source {
                    Some(src) => format!("{} in {}", p.code.as_str(), clean(src.path.as_str())),
                    None => p.code.as_str().to_string(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    match (finding_part, problem_part) {
        (Some(f), Some(p)) => format!("{f}; {p} (exit status 1)."),
        (Some(x), None) | (None, Some(x)) => format!("{x} (exit status 1)."),
        (None, None) if s.total() == 0 => {
            "no compatibility divergence detected (exit status 0).".to_string()
        }
        (None, None) if gate.fail_on == FailOn::Medium && s.accepted == 0 => {
            let below = match (s.low > 0, s.info > 0) {
                (true, false) => "the low ones above are cosmetic",
                (false, true) => "the informational ones above need a person's judgement",
                _ => "the low ones above are cosmetic, the informational ones need a person's judgement",
            };
            format!("no actionable finding; {below} (exit status 0).")
        }
        (None, None) => format!(
            "no finding fails the run (fail-on {}) (exit status 0).",
            gate.fail_on.as_str()
        ),
    }
}

fn footer(
    out: &mut String,
    configs: &[playbookdiff_model::EffectiveAgentConfig],
    (gate, failing, s): (&Gate, usize, &Summary),
    all_dirs: bool,
    args: &str,
) {
    if !gate.stale.is_empty() {
        let _ = writeln!(
            out,
            "\nAccepted in playbookdiff.toml but no longer found (remove these entries):"
        );
        for a in &gate.stale {
            out.push_str(&wrap_hanging(
                &clean(&format!("- {} ({})", a.id, a.reason)),
                "  ",
                "    ",
                columns(),
            ));
        }
    }
    let probs: Vec<String> = problems(configs)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(h, n)| format!("{} {n}", display_name(h)))
        .collect();
    if !probs.is_empty() {
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "Diagnostics (warnings and errors about the repository{}): {}; see `playbookdiff compile{args} --harness NAME`.",
                if all_dirs { ", at the root" } else { "" },
                probs.join(", ")
            ),
            "",
            columns(),
        ));
    }
    let unknown = crate::report::unknown_items(configs, columns());
    if !unknown.is_empty() {
        let _ = writeln!(out, "\nNot known to this analysis:");
        out.push_str(&unknown);
    }
    let accepted = if s.accepted > 0 {
        format!(
            " {} accepted in playbookdiff.toml {} reported above and do{} not fail the run.",
            s.accepted,
            if s.accepted == 1 { "is" } else { "are" },
            if s.accepted == 1 { "es" } else { "" }
        )
    } else {
        String::new()
    };
    let result = result(gate, failing, s);
    out.push('\n');
    out.push_str(&wrap(&format!("Result: {result}{accepted}"), "", columns()));
    // Nothing to explain without a finding.
    if s.total() > 0 {
        out.push_str(&wrap(
            &format!(
                "More: `playbookdiff explain ID{args}{}` shows the evidence and a fix; `--format json` everything.",
                if all_dirs { " --cwd DIR" } else { "" }
            ),
            "",
            columns(),
        ));
    }
}

/// `check --all-dirs --format text`: groups first, with how many launch
/// directories each concerns.
pub fn matrix_text(r: &MatrixReport<'_>, color: crate::Color) -> String {
    let p = Painter { color };
    let hs = r.harnesses();
    let mut out = String::new();
    header(
        &mut out,
        &p,
        &format!("PlaybookDiff check --all-dirs: {}", vs(&hs)),
        r.repository,
        r.context,
        r.via,
        true,
    );
    agents_row(&mut out, r.root_configs);
    let m = r.matrix;
    let total = m.directories.len();
    let with = m
        .directories
        .iter()
        .filter(|d| !d.findings.is_empty())
        .count();
    // The last line of the header, before the problems (printed after
    // them, it hung under the problem list as if it were one).
    out.push_str(&wrap_hanging(
        &format!(
            "{} (the root and every directory holding agent configuration); {with} with findings",
            count(total, "launch directory", "launch directories")
        ),
        &format!("  {:<11} ", "checked"),
        HEADER_VALUE,
        columns(),
    ));
    matrix_problems(&mut out, &p, r.problems, r.matrix.directories.len());
    out.push('\n');
    out.push_str(&wrap(
        &format!(
            "Findings: {} (each counted once across directories)",
            counts(&m.summary)
        ),
        "",
        columns(),
    ));
    if m.groups.is_empty() {
        out.push_str(&wrap(
            "No compatibility findings in any launch directory.",
            "  ",
            columns(),
        ));
    }
    let by_id: HashMap<&str, &MatrixFinding> = m
        .findings
        .iter()
        .map(|f| (f.finding.id.as_str(), f))
        .collect();
    for g in &m.groups {
        group_lines(&mut out, &p, r, g, &by_id);
    }
    footer(
        &mut out,
        r.root_configs,
        (
            r.gate,
            r.gate.failing(m.findings.iter().map(|f| &f.finding)),
            &m.summary,
        ),
        true,
        &context_args(r.repository, r.context, r.via, false),
    );
    out
}

/// One group of `check --all-dirs`: its severity and summary with how
/// many launch directories it concerns, the first 8 of them, whether it
/// is accepted, and the commands to explain and to accept it.
fn group_lines(
    out: &mut String,
    p: &Painter,
    r: &MatrixReport<'_>,
    g: &MatrixGroup,
    by_id: &HashMap<&str, &MatrixFinding>,
) {
    let total = r.matrix.directories.len();
    let sev = format!("{:<7}", g.severity.as_str().to_uppercase());
    let line = format!(
        "In {} of {total} director{}: {}.",
        g.directories.len(),
        if total == 1 { "y" } else { "ies" },
        g.summary
    );
    let _ = write!(out, "\n{}", p.paint(&sev, severity_style(g.severity)));
    let wrapped = wrap(&clean(&line), "       ", columns());
    out.push_str(wrapped.trim_start());
    out.push_str(&wrap(&group_directories(g), "  ", columns()));
    // Accepted findings are marked as `check` marks them: the reason
    // after `accepted`, with how many of the group when not all.
    let accepted: Vec<&MatrixFinding> = g
        .findings
        .iter()
        .filter_map(|id| by_id.get(id.as_str()).copied())
        .filter(|f| f.finding.accepted.is_some())
        .collect();
    if let Some(a) = accepted.first().and_then(|f| f.finding.accepted.as_ref()) {
        let reason = if accepted.len() == g.findings.len() {
            clean(&a.reason).into_owned()
        } else {
            // count >= 2: some but not all of a group's findings.
            format!(
                "in {} of {} directories (not failing there): {}",
                accepted.len(),
                g.findings.len(),
                clean(&a.reason)
            )
        };
        out.push_str(&wrap_hanging(
            &reason,
            &format!("  {:<12} ", "accepted"),
            LABEL_INDENT,
            columns(),
        ));
    }
    if let Some(id) = g.findings.first() {
        group_commands(out, p, r, g, id, by_id, accepted.len());
    }
}

/// The first 8 launch directories of group `g` (the root as `. (the
/// root)`), then how many more.
fn group_directories(g: &MatrixGroup) -> String {
    let dirs: Vec<String> = g
        .directories
        .iter()
        .take(8)
        .map(|d| {
            if d.is_root() {
                ". (the root)".to_string()
            } else {
                clean(d.as_str()).into_owned()
            }
        })
        .collect();
    let more = g.directories.len().saturating_sub(8);
    let mut list = dirs.join(", ");
    if more > 0 {
        list.push_str(&format!(", +{more} more"));
    }
    list
}

/// The `explain` command for the group's example finding `id` (from its
/// first launch directory), and, when the group has findings not yet
/// accepted (`accepted` of them are), the command that accepts them all.
fn group_commands(
    out: &mut String,
    p: &Painter,
    r: &MatrixReport<'_>,
    g: &MatrixGroup,
    id: &str,
    by_id: &HashMap<&str, &MatrixFinding>,
    accepted: usize,
) {
    let mut ctx = r.context.clone();
    if let Some(dir) = by_id.get(id).and_then(|f| f.directories.first()) {
        ctx.cwd = dir.clone();
    }
    let command = format!(
        "playbookdiff explain {}{}",
        clean(id),
        context_args(r.repository, &ctx, r.via, true)
    );
    for line in crate::layout::command_lines(&command, "  e.g. ", "    ", columns()).lines() {
        out.push_str(&p.paint(line, dim()));
        out.push('\n');
    }
    // Accepting the example id under --all-dirs records every
    // finding of the group: one per directory for a file of each
    // directory, one per name for skills and MCP servers (the same
    // id in every directory), so they are counted as findings.
    if g.findings.len() > 1 && accepted < g.findings.len() {
        out.push_str(&p.paint(
            &wrap(
                // count >= 2: the group has more than one finding.
                &format!(
                    "to accept its {} findings (one entry each):",
                    g.findings.len()
                ),
                "  ",
                columns(),
            ),
            dim(),
        ));
        let command = format!(
            "playbookdiff check --all-dirs{} --accept {} --reason TEXT",
            context_args(r.repository, r.context, r.via, false),
            clean(id)
        );
        for line in crate::layout::command_lines(&command, "    ", "      ", columns()).lines() {
            out.push_str(&p.paint(line, dim()));
            out.push('\n');
        }
    }
}

/// `explain --format text`: the finding, the evidence on each side with
/// the reason, why a side lacks it, and what would make the harnesses
/// agree.
pub fn explain_text(r: &CheckReport<'_>, f: &Finding, color: crate::Color) -> String {
    let p = Painter { color };
    // The sides: the harnesses compared, or for an agent that would not
    // start, that agent alone.
    let agent = matches!(f.category, Category::Agent | Category::Guard);
    let hs = if agent {
        f.absent_from.clone()
    } else {
        r.comparison.harnesses.clone()
    };
    let mut out = String::new();
    explain_head(&mut out, &p, r, f);
    for h in &hs {
        let _ = writeln!(out, "\n{}", p.paint(display_name(*h), heading()));
        if agent {
            refusal_lines(&mut out, f, *h);
        } else {
            side_lines(&mut out, r, f, *h);
        }
    }
    differences_section(&mut out, &p, f);
    paragraphs_section(&mut out, &p, f);
    remedies_section(&mut out, &p, f);
    out
}

/// The finding's id, its facts one per line (severity and whether it
/// fails the run, kind, sides, context, acceptance), then its message.
fn explain_head(out: &mut String, p: &Painter, r: &CheckReport<'_>, f: &Finding) {
    let _ = writeln!(
        out,
        "{}",
        p.paint(&labelled_id("Finding ", &f.id), heading())
    );
    for (k, v) in [
        (
            "severity",
            format!(
                "{}{}",
                f.severity.as_str(),
                match (&f.accepted, r.gate.fail_on.fails(f)) {
                    (Some(_), _) => " (accepted: it does not fail the run)".to_string(),
                    (None, true) => " (fails the run: check exits 1)".to_string(),
                    (None, false) if f.actionable =>
                        format!(" (actionable; below fail-on {})", r.gate.fail_on.as_str()),
                    (None, false) => String::new(),
                }
            ),
        ),
        (
            "kind",
            format!("{} {}", f.category.as_str(), f.kind.as_str()),
        ),
        (
            "present in",
            if f.present_in.is_empty() {
                "-".into()
            } else {
                names(&f.present_in)
            },
        ),
        (
            "absent from",
            if f.absent_from.is_empty() {
                "-".into()
            } else {
                names(&f.absent_from)
            },
        ),
        ("repository", repository_label(r.repository, r.via)),
        ("cwd", cwd_label(r.context, r.via)),
        ("target", target_label(r.context, r.via)),
        ("mode", r.context.mode.as_str().to_string()),
        (
            "agents",
            profiles_label(r.configs).unwrap_or_else(|| "-".to_string()),
        ),
    ]
    .into_iter()
    .chain(
        f.accepted
            .as_ref()
            .map(|a| ("accepted", clean(&a.reason).into_owned())),
    ) {
        out.push_str(&wrap_hanging(
            &v,
            &format!("  {k:<12} "),
            "               ",
            columns(),
        ));
    }
    let _ = writeln!(out);
    out.push_str(&wrap(&clean(&f.message), "", columns()));
}

/// For an agent that would not start: each refusal of harness `h`, at its
/// file, with the agent's message.
fn refusal_lines(out: &mut String, f: &Finding, h: Harness) {
    for pr in f.problems.iter().filter(|pr| pr.harness == h) {
        let at = pr
            .source
            .as_ref()
            .map_or_else(|| NO_FILE.to_string(), location);
        out.push_str(&crate::layout::pair_lines(
            "  ",
            &clean(&at),
            &format!("({})", pr.code.as_str()),
            columns(),
        ));
        out.push_str(&wrap(&clean(&pr.message), "    ", columns()));
    }
}

/// Harness `h`'s side of the finding: its items (the first 12) with their
/// state, link target, problems and reason, or why it has nothing; then
/// what its absence means.
fn side_lines(out: &mut String, r: &CheckReport<'_>, f: &Finding, h: Harness) {
    let items: Vec<_> = f.items.iter().filter(|i| i.harness == h).collect();
    if items.is_empty() {
        let why = f
            .absences
            .iter()
            .find(|a| a.harness == h)
            .map(|a| a.reason.clone())
            .unwrap_or_else(|| {
                format!("{} has nothing for it under this context.", display_name(h))
            });
        out.push_str(&wrap(&clean(&format!("nothing: {why}")), "  ", columns()));
        return;
    }
    for i in items.iter().take(12) {
        item_lines(out, r, f, i);
    }
    if items.len() > 12 {
        let _ = writeln!(out, "  +{} more (see --format json)", items.len() - 12);
    }
    if let Some(a) = f
        .absences
        .iter()
        .find(|a| a.harness == h && !items.iter().any(|i| i.reason == a.reason))
    {
        out.push_str(&wrap(&clean(&format!("so: {}", a.reason)), "  ", columns()));
    }
}

/// One item of a side: where it is and its state, the file a link leads
/// to, the problems reported at its file, and why it is there.
fn item_lines(out: &mut String, r: &CheckReport<'_>, f: &Finding, i: &FindingItem) {
    let state = crate::report::item_state(
        f.category,
        i.load_phase,
        i.applicability,
        r.context.target_path.is_some(),
    );
    out.push_str(&crate::layout::pair_lines(
        "  ",
        &clean(&location(&i.source)),
        &format!("({state})"),
        columns(),
    ));
    if let Some(res) = &i.source.resolved_path {
        let _ = writeln!(
            out,
            "    links to {}",
            crate::layout::shorten_path_left(
                &clean(res.as_str()),
                columns().saturating_sub(13).max(20)
            )
        );
    }
    for pr in f.problems.iter().filter(|pr| {
        pr.harness == i.harness
            && pr.source.as_ref().is_some_and(|s| {
                s.path == i.source.path || Some(&s.path) == i.source.resolved_path.as_ref()
            })
    }) {
        out.push_str(&wrap(
            &clean(&format!("problem ({}): {}", pr.code.as_str(), pr.message)),
            "    ",
            columns(),
        ));
    }
    out.push_str(&wrap(
        &clean(&format!("why: {}", i.reason)),
        "    ",
        columns(),
    ));
}

/// "What differs": each differing field with each harness's value.
fn differences_section(out: &mut String, p: &Painter, f: &Finding) {
    if f.differences.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", p.paint("What differs", heading()));
    for d in &f.differences {
        out.push_str(&crate::layout::wrap_quoted(
            &clean(&d.field),
            "  ",
            columns(),
            3,
        ));
        for v in &d.values {
            let first = format!("    {:<12} ", v.harness.as_str());
            let value = crate::layout::wrap_quoted(
                &clean(v.value.as_deref().unwrap_or("(not set)")),
                &" ".repeat(crate::layout::width(&first)),
                columns(),
                4,
            );
            out.push_str(&first);
            out.push_str(value.trim_start());
        }
    }
}

/// "Paragraphs": the first 20 differing paragraphs, each side's text (8
/// lines at most) and the word diff.
fn paragraphs_section(out: &mut String, p: &Painter, f: &Finding) {
    if f.paragraphs.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", p.paint("Paragraphs", heading()));
    for (n, para) in f.paragraphs.iter().enumerate().take(20) {
        for side in &para.sides {
            let head = format!("  {}. {} ", n + 1, side.harness.as_str());
            let _ = writeln!(
                out,
                "{head}{}",
                crate::layout::shorten_path_left(
                    &clean(&location(&side.source)),
                    columns()
                        .saturating_sub(crate::layout::width(&head))
                        .max(20)
                )
            );
            for line in side.text.lines().take(8) {
                paragraph_line(out, line);
            }
        }
        if let Some(d) = &para.diff {
            let sim = para
                .similarity
                .map(|s| format!(" ({s}% similar)"))
                .unwrap_or_default();
            out.push_str(&crate::layout::wrap_quoted(
                &clean(&format!("diff{sim}: {d}")),
                "     ",
                columns(),
                12,
            ));
        }
    }
    if f.paragraphs.len() > 20 {
        let _ = writeln!(
            out,
            "  +{} more (see --format json)",
            f.paragraphs.len() - 20
        );
    }
}

/// One line of a paragraph's text, after `     | `.
fn paragraph_line(out: &mut String, line: &str) {
    if line.trim().is_empty() {
        out.push_str("     |\n");
        return;
    }
    // Indentation is kept (code blocks, nested lists):
    // it goes into the prefix, so wrapped lines keep it.
    // At most what leaves 20 columns for the text
    // (a diagram indented by 40 spaces, at 40 columns).
    let body = line.trim_start();
    let indent: String = clean(&line[..line.len() - body.len()])
        .chars()
        .take(columns().saturating_sub(7 + 20))
        .collect();
    out.push_str(&crate::layout::wrap_quoted(
        &clean(body),
        &format!("     | {indent}"),
        columns(),
        3,
    ));
}

/// "To make them agree" ("To make it start" for an agent that would not
/// start): each remedy, and for an `unknown` finding, that a person
/// decides.
fn remedies_section(out: &mut String, p: &Painter, f: &Finding) {
    let to = match f.category {
        Category::Agent => "To make it start",
        Category::Guard => "To guard it",
        _ => "To make them agree",
    };
    let _ = writeln!(out, "\n{}", p.paint(to, heading()));
    if f.remedies.is_empty() {
        let _ = writeln!(
            out,
            "  Read both sides above; no mechanical fix is known for this kind of finding."
        );
    }
    for rem in &f.remedies {
        out.push_str(&wrap(
            &clean(&format!("{}: {}", display_name(rem.harness), rem.action)),
            "  ",
            columns(),
        ));
    }
    if f.kind == playbookdiff_compare::FindingType::Unknown {
        let _ = writeln!(out);
        out.push_str(&wrap(
            "PlaybookDiff compares text, not meaning: it cannot tell whether differently worded paragraphs say the same. It never guesses; a person decides.",
            "",
            columns(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result line names what the run has: a low finding is never
    /// called informational, nor an informational one cosmetic; failing
    /// problems are named with their code and file.
    #[test]
    fn the_result_line_names_what_there_is() {
        let gate = Gate::default();
        let of = |low, info| Summary {
            low,
            info,
            ..Summary::default()
        };
        let table = [
            (of(1, 0), "the low ones above are cosmetic (exit status 0)."),
            (
                of(0, 2),
                "the informational ones above need a person's judgement (exit status 0).",
            ),
            (
                of(1, 1),
                "the low ones above are cosmetic, the informational ones need a person's judgement (exit status 0).",
            ),
            (of(0, 0), "no compatibility divergence detected (exit status 0)."),
        ];
        for (s, end) in table {
            let line = result(&gate, 0, &s);
            assert!(line.ends_with(end), "{s:?}: {line}");
        }
        let mut problem = playbookdiff_compare::delta::ProblemSet::at_one_revision();
        let mut d = playbookdiff_model::Diagnostic::new(
            playbookdiff_model::DiagnosticCode::InvalidJson,
            "bad",
        );
        d.source = Some(playbookdiff_model::SourceRef::project(
            playbookdiff_model::RepoPath::new(".mcp.json").unwrap(),
            playbookdiff_model::SourceFormat::Json,
        ));
        problem.add_one(
            &playbookdiff_model::RepoPath::root(),
            Harness::new("alpha", "Alpha"),
            &d,
        );
        let gate = Gate {
            problems: problem.finish(),
            ..Gate::default()
        };
        let line = result(&gate, 1, &of(0, 0));
        assert_eq!(
            line,
            "1 problem in the repository makes an agent drop or refuse configuration (invalid-json in .mcp.json) (exit status 1)."
        );
        let line = result(
            &gate,
            3,
            &Summary {
                medium: 2,
                ..Summary::default()
            },
        );
        assert!(
            line.starts_with("2 actionable findings; 1 problem"),
            "{line}"
        );
    }

    /// A problem about no file (nor a subject) says so in words.
    #[test]
    fn a_problem_without_a_file_shows_no_dash() {
        let mut out = String::new();
        problem_row(
            &mut out,
            None,
            None,
            playbookdiff_model::DiagnosticCode::Unreadable,
            &[Harness::new("alpha", "Alpha")],
            "the directory cannot be read",
        );
        assert!(
            out.starts_with("  (no file)  unreadable (Alpha)\n"),
            "{out:?}"
        );
    }
}

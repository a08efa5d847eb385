//! `playbookdiff diff` and `playbookdiff upgrade`: the document
//! ([`DiffDocument`], serialized as is for `--format json`, its schema
//! generated from the same types) and its text and Markdown renderings.
//! An upgrade is a diff of one harness with itself at two releases of the
//! agent on one tree: the document then holds [`UpgradeSides`], and each
//! [`DiffContext`] the release whose changes it shows.

use crate::check_markdown::esc;
use crate::check_text::severity_style;
use crate::layout::{clean, columns, wrap, wrap_hanging};
use crate::text::{dim, heading, Painter};
use playbookdiff_compare::delta::{
    AgentDelta, CapabilityChange, Change, DiffFinding, DiffProblem, FindingDelta,
    InstructionChange, ProblemDelta,
};
use playbookdiff_compare::FailOn;
use playbookdiff_model::profile::ReleaseChange;
use playbookdiff_model::remedy::count;
use playbookdiff_model::{Harness, RepoPath};
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Write as _;

/// One side of a diff.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffSide {
    /// The revision as given; `null` for the working tree.
    pub revision: Option<String>,
    /// The commit's full id; `null` for the working tree.
    pub commit: Option<String>,
    /// True when the base is the merge base of the two revisions of
    /// `A...B` (then `revision` is `A`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub merge_base: bool,
}

/// One analysed context: a launch directory and, for a changed
/// path-scoped rule or skill, a target its patterns match.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalysedContext {
    /// The launch directory.
    pub cwd: RepoPath,
    /// The target, when one was derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_path: Option<RepoPath>,
}

/// What changed for the agents under one context.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffContext {
    /// The launch directory.
    pub cwd: RepoPath,
    /// The target, when one was derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_path: Option<RepoPath>,
    /// Per agent that receives something differently, in harness order.
    pub agents: Vec<AgentDelta>,
    /// For `upgrade`: the release from which these changes hold, the
    /// `since` of the [`UpgradeChange`]s that cause them (compared with
    /// the release before it in the upgrade's steps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
}

/// What `playbookdiff upgrade` compares: one harness at two releases of
/// the agent, on one tree.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeSides {
    /// The harness upgraded.
    pub harness: Harness,
    /// The release in use (FROM), as the agent prints it.
    pub from: String,
    /// The release upgraded to (TO).
    pub to: String,
    /// Each behaviour that changes between the two, oldest first, with
    /// where it changes what the model receives here.
    pub changes: Vec<UpgradeChange>,
}

/// One behaviour an upgrade changes: a fact of the adapter's version
/// table, the first release that shows it and its evidence.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeChange {
    /// `upgrade:<harness>:<fact>`, the id `[[accepted]]` in
    /// `playbookdiff.toml` takes to accept it.
    pub id: String,
    /// The fact, its first release, what it does and its evidence.
    #[serde(flatten)]
    pub change: ReleaseChange,
    /// The contexts where the release that brings it changes what the
    /// model receives (empty: nothing here).
    pub directories: Vec<RepoPath>,
    /// The reason it is accepted, when `playbookdiff.toml` accepts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
}

impl UpgradeChange {
    /// True when it changes what the model receives and is not accepted.
    pub fn fails(&self) -> bool {
        !self.directories.is_empty() && self.accepted.is_none()
    }
}

/// Counts of a diff.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffSummary {
    /// Files, links and submodules that differ between the two sides.
    pub changed_paths: usize,
    /// Contexts analysed (launch directories and derived targets).
    pub affected_contexts: usize,
    /// Findings at head only.
    pub introduced: usize,
    /// Of those, severity `medium` or `high`.
    pub introduced_actionable: usize,
    /// Of those, accepted in `playbookdiff.toml`.
    pub introduced_accepted: usize,
    /// Introduced findings that fail the run (not accepted, and at or
    /// above `failOn`) plus introduced problems in the repository at or
    /// above it (an error weighs as `high`, a warning as `medium`). The
    /// diff exits 1 when > 0.
    pub failing: usize,
    /// Findings at base only.
    pub resolved: usize,
    /// Findings at both.
    pub unchanged: usize,
    /// Problems in the repository at head only.
    pub introduced_problems: usize,
    /// Problems in the repository at base only.
    pub resolved_problems: usize,
}

/// The document of `playbookdiff diff --format json`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffDocument {
    /// Always 1.
    pub schema_version: u32,
    /// REPO as given (or found from the current directory).
    pub repository: String,
    /// The older side.
    pub base: DiffSide,
    /// The newer side (the working tree for a single REV).
    pub head: DiffSide,
    /// The harnesses analysed.
    pub harnesses: Vec<Harness>,
    /// The least severity of an introduced, not accepted finding that
    /// fails the run (`--fail-on`, `fail-on` in `playbookdiff.toml`,
    /// `never` with `--exit-zero`).
    pub fail_on: FailOn,
    /// Repository-relative paths that differ, sorted.
    pub changed_paths: Vec<RepoPath>,
    /// Every context analysed, sorted: the affected launch directories
    /// derived from `changedPaths`, each followed by its derived targets.
    pub analysed: Vec<AnalysedContext>,
    /// The contexts where an agent receives something differently.
    pub directories: Vec<DiffContext>,
    /// Findings by stable id: introduced, resolved, unchanged.
    pub findings: FindingDelta,
    /// Problems in the repository (warning and error diagnostics of kind
    /// `repository-problem`) by code and file: introduced, resolved.
    pub problems: ProblemDelta,
    /// Counts.
    pub summary: DiffSummary,
    /// For `upgrade`: the harness, the two releases and the behaviours
    /// that change between them (the sides `base` and `head` are then
    /// both the analysed tree).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade: Option<UpgradeSides>,
}

/// `diff --format json`: the document, pretty-printed, ending with a
/// newline.
pub fn diff_json(doc: &DiffDocument) -> String {
    crate::json::pretty(doc)
}

/// Writes [`diff_json`]'s document into `out` as it is serialized.
/// Errors: those of `out`.
pub fn write_diff_json<W: std::io::Write + ?Sized>(
    out: &mut W,
    doc: &DiffDocument,
) -> std::io::Result<()> {
    crate::json::write_pretty(out, doc)
}

/// The JSON Schema of [`DiffDocument`] (`schema/diff.schema.json`).
pub fn diff_schema() -> String {
    let schema = schemars::schema_for!(DiffDocument);
    let mut out =
        serde_json::to_string_pretty(&schema).expect("a JSON Schema always serializes to JSON");
    out.push('\n');
    out
}

fn side_label(s: &DiffSide) -> String {
    match (&s.revision, &s.commit) {
        (Some(r), Some(c)) if s.merge_base => {
            format!("merge base of {} ({})", clean(r), &c[..c.len().min(7)])
        }
        (Some(r), Some(c)) => format!("{} ({})", clean(r), &c[..c.len().min(7)]),
        _ => "the working tree".to_string(),
    }
}

fn context_label(cwd: &RepoPath, target: Option<&RepoPath>) -> String {
    let dir = if cwd.is_root() {
        ". (the repository root)".to_string()
    } else {
        clean(cwd.as_str()).into_owned()
    };
    match target {
        Some(t) => format!("{dir}, target {}", clean(t.as_str())),
        None => dir,
    }
}

pub(crate) fn instruction_line(c: &InstructionChange) -> String {
    let at = |s: &Option<playbookdiff_compare::delta::PieceState>| {
        s.as_ref()
            .and_then(|s| s.lines)
            .map(|l| format!(":{}-{}", l.start, l.end))
            .unwrap_or_default()
    };
    let place = match c.change {
        Change::Removed => at(&c.base),
        _ => at(&c.head),
    };
    let extra = match c.change {
        Change::Reordered if !c.paragraphs.is_empty() => {
            let n = c.paragraphs.iter().filter(|p| p.is_move()).count();
            match n {
                1 => " (a paragraph moved)".to_string(),
                // count >= 2 (or 0): one is the arm above.
                n => format!(" ({n} paragraphs moved)"),
            }
        }
        Change::Reordered => {
            let o = |s: &Option<playbookdiff_compare::delta::PieceState>| {
                s.as_ref()
                    .and_then(|s| s.order)
                    .map_or("-".to_string(), |o| o.to_string())
            };
            format!(" (position {} -> {})", o(&c.base), o(&c.head))
        }
        Change::Rescoped => {
            let d = |s: &Option<playbookdiff_compare::delta::PieceState>| {
                s.as_ref().map_or("-".to_string(), |s| {
                    format!("{} {}", kebab(&s.load_phase), kebab(&s.applicability))
                })
            };
            let paths = |s: &Option<playbookdiff_compare::delta::PieceState>| {
                s.as_ref().and_then(|s| s.paths.clone())
            };
            let (old_paths, new_paths) = (paths(&c.base), paths(&c.head));
            let scope =
                (d(&c.base) != d(&c.head)).then(|| format!("{} -> {}", d(&c.base), d(&c.head)));
            let globs = (old_paths != new_paths).then(|| {
                let show = |p: Option<Vec<String>>| match p {
                    Some(v) => format!(
                        "[{}]",
                        v.iter().map(|g| clean(g)).collect::<Vec<_>>().join(", ")
                    ),
                    None => "none".to_string(),
                };
                format!("paths {} -> {}", show(old_paths), show(new_paths))
            });
            let parts: Vec<String> = [scope, globs].into_iter().flatten().collect();
            format!(" ({})", parts.join("; "))
        }
        _ => String::new(),
    };
    format!(
        "{:<9} instruction {}{place} [{}]{extra}",
        c.change.as_str(),
        clean(c.path.as_str()),
        clean(c.kind.as_str())
    )
}

pub(crate) fn capability_line(what: &str, c: &CapabilityChange) -> String {
    let fields = if c.fields.is_empty() {
        String::new()
    } else {
        format!(": {}", c.fields.join(", "))
    };
    format!(
        "{:<9} {what} {} ({}){fields}",
        c.change.as_str(),
        clean(&c.name),
        clean(c.path.as_str())
    )
}

/// A value's contract spelling (`on-demand`, `out-of-scope`).
fn kebab<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// How changed words are marked: `(open, close)` for the base side, then
/// for the head side.
type Marks = [(&'static str, &'static str); 2];

/// Changed words in text: `[-removed-]`, `{+added+}` (as `git diff
/// --word-diff=plain` marks them).
const TEXT_MARKS: Marks = [("[-", "-]"), ("{+", "+}")];

/// Changed words in Markdown: struck out and underlined (HTML `del` and
/// `ins`, which GitHub and GitLab render).
const MARKDOWN_MARKS: Marks = [("<del>", "</del>"), ("<ins>", "</ins>")];

/// The lines of one changed paragraph, each with its mark (`~` moved, `-`
/// base, `+` head), its text through `escape`. A paragraph edited in
/// place shows the words that changed (marked with `marks`) and the
/// unchanged text around them ([`crate::words::changed_words`]), or, when
/// only its whitespace changed, the changed run made visible
/// ([`crate::words::changed_whitespace`]); one
/// added, removed, moved or wholly replaced shows its start
/// ([`excerpt`]).
fn paragraph_lines(
    para: &playbookdiff_compare::delta::ParagraphChange,
    escape: &dyn Fn(&str) -> String,
    marks: Marks,
) -> Vec<(&'static str, String)> {
    if let (Some(a), Some(b)) = (&para.removed, &para.added) {
        let changed =
            crate::words::changed_whitespace(a, b).or_else(|| crate::words::changed_words(a, b));
        if let Some((old, new)) = changed {
            let [(o1, c1), (o2, c2)] = marks;
            return vec![
                ("-", crate::words::render(&old, o1, c1, escape)),
                ("+", crate::words::render(&new, o2, c2, escape)),
            ];
        }
    }
    [("~", &para.moved), ("-", &para.removed), ("+", &para.added)]
        .into_iter()
        .filter_map(|(mark, text)| text.as_ref().map(|t| (mark, escape(&excerpt(t)))))
        .collect()
}

fn excerpt(s: &str) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut cut: String = one.chars().take(100).collect();
    if one.chars().count() > 100 {
        cut.push('…');
    }
    cut
}

fn finding_lines(out: &mut String, p: &Painter, title: &str, list: &[DiffFinding]) {
    let _ = writeln!(
        out,
        "\n{}",
        p.paint(&format!("{title} ({})", list.len()), heading())
    );
    for f in list {
        let sev = format!("{:<7}", f.finding.severity.as_str().to_uppercase());
        let _ = writeln!(
            out,
            "  {}{} {}",
            p.paint(&sev, severity_style(f.finding.severity)),
            f.finding.category.title(),
            f.finding.kind.label()
        );
        out.push_str(&wrap(&clean(&f.finding.message), "    ", columns()));
        let dirs: Vec<String> = f
            .directories
            .iter()
            .map(|d| clean(d.as_str()).into_owned())
            .collect();
        out.push_str(&wrap(&format!("in {}", dirs.join(", ")), "    ", columns()));
        if let Some(a) = &f.finding.accepted {
            out.push_str(&wrap(
                &format!("accepted {}", clean(&a.reason)),
                "    ",
                columns(),
            ));
        }
        let _ = writeln!(
            out,
            "    {}",
            p.paint(&format!("id  {}", f.finding.id), dim())
        );
    }
}

/// One problem in the repository: the severity, the code, the file and
/// what in it (the subject), the harnesses, the message, the launch
/// directories.
fn problem_text(p: &DiffProblem) -> (String, String) {
    let at = p.source.as_ref().map_or(String::new(), |s| {
        let lines = s.lines.map(|l| format!(":{}", l.start)).unwrap_or_default();
        format!(" {}{lines}", clean(s.path.as_str()))
    });
    let about = p
        .subject
        .as_ref()
        .map(|s| format!(" `{}`", clean(s)))
        .unwrap_or_default();
    let head = format!(
        "{} {}{about} ({})",
        p.code.as_str(),
        at.trim_start(),
        playbookdiff_compare::names(&p.harnesses)
    );
    (head, clean(&p.message).into_owned())
}

fn problem_lines(out: &mut String, p: &Painter, title: &str, list: &[DiffProblem]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{}",
        p.paint(&format!("{title} ({})", list.len()), heading())
    );
    for pr in list {
        let sev = format!("{:<7}", pr.severity.as_str().to_uppercase());
        let (head, message) = problem_text(pr);
        out.push_str(&fitted(
            &format!("{} {head}", p.paint(&sev, severity_style(pr.weight()))),
            "  ",
            "          ",
        ));
        out.push_str(&wrap(&message, "    ", columns()));
        let dirs: Vec<String> = pr
            .directories
            .iter()
            .map(|d| clean(d.as_str()).into_owned())
            .collect();
        out.push_str(&wrap(&format!("in {}", dirs.join(", ")), "    ", columns()));
    }
}

/// `diff --format text`: the two sides, the changed contexts with what
/// each agent receives differently (instructions, then skills, MCP
/// servers, hooks, subagents, commands, output styles, plugins and
/// permissions, a line each; changed paragraphs marked `-`/`+`,
/// the words changed in place `[-…-]`/`{+…+}`, moved ones `~`), the problems in the repository the change introduces
/// and resolves (when there are),
/// then the introduced and resolved findings, the unchanged ones counted,
/// and the result.
pub fn diff_text(doc: &DiffDocument, color: crate::Color) -> String {
    let p = Painter { color };
    let mut out = String::new();
    match &doc.upgrade {
        Some(u) => crate::upgrade::header(&mut out, &p, doc, u),
        None => header(&mut out, &p, doc),
    }
    for d in &doc.directories {
        let _ = writeln!(out, "\n{}", p.paint(&directory_label(d), heading()));
        for a in &d.agents {
            let _ = writeln!(out, "  {}", clean(a.harness.display_name()));
            let line = |out: &mut String, text: &str| {
                out.push_str(&fitted(text, "    ", "              "));
            };
            for c in &a.instructions {
                line(&mut out, &instruction_line(c));
                for para in &c.paragraphs {
                    for (mark, text) in
                        paragraph_lines(para, &|t| clean(t).into_owned(), TEXT_MARKS)
                    {
                        let first = format!("      {mark} ");
                        let room = columns().saturating_sub(crate::layout::width(&first));
                        let text = change_in_view(&text, room);
                        out.push_str(&paragraph_line(&text, &first));
                    }
                }
            }
            for c in &a.skills {
                line(&mut out, &capability_line("skill", c));
            }
            for c in &a.mcp_servers {
                line(&mut out, &capability_line("MCP server", c));
            }
            for (what, list) in a.surfaces() {
                for c in list {
                    line(&mut out, &capability_line(what, c));
                }
            }
        }
    }
    problem_lines(
        &mut out,
        &p,
        "Problems in the repository the change introduces",
        &doc.problems.introduced,
    );
    problem_lines(
        &mut out,
        &p,
        "Problems in the repository the change resolves",
        &doc.problems.resolved,
    );
    if let Some(u) = &doc.upgrade {
        crate::upgrade::changes_text(&mut out, &p, u);
    } else {
        finding_lines(
            &mut out,
            &p,
            "Introduced findings",
            &doc.findings.introduced,
        );
        finding_lines(&mut out, &p, "Resolved findings", &doc.findings.resolved);
        let _ = writeln!(out, "\nUnchanged findings: {}", doc.summary.unchanged);
    }
    let _ = writeln!(out);
    out.push_str(&wrap(&result_line(doc), "", columns()));
    out
}

/// The head of `diff`'s text: the repository, the two sides, the counts.
fn header(out: &mut String, p: &Painter, doc: &DiffDocument) {
    let _ = writeln!(out, "{}", p.paint("PlaybookDiff: diff", heading()));
    let _ = writeln!(out, "  repository  {}", clean(&doc.repository));
    let _ = writeln!(out, "  base        {}", side_label(&doc.base));
    let _ = writeln!(out, "  head        {}", side_label(&doc.head));
    out.push_str(&wrap(
        &format!(
            "{}; {} analysed; {} with changes for an agent.",
            count(doc.summary.changed_paths, "changed path", "changed paths"),
            count(doc.summary.affected_contexts, "context", "contexts"),
            doc.directories.len()
        ),
        "",
        columns(),
    ));
}

/// A directory's heading: its context, and for `upgrade` the release
/// whose changes it shows.
pub(crate) fn directory_label(d: &DiffContext) -> String {
    let context = context_label(&d.cwd, d.target_path.as_ref());
    match &d.release {
        Some(r) => format!("{context}, from {}", clean(r)),
        None => context,
    }
}

/// `text` after `first` on one line when it fits the width (its own
/// spacing kept), else wrapped at spaces with continuations after `rest`.
/// `text` after `first`, wrapped with `rest` before the lines that follow
/// when it is too wide. The first word and the spaces after it stay as
/// they are (a change word padded to one column, `edited    instruction`),
/// so the lines of one list stay aligned whether they wrap or not; a
/// word wider than a line is cut into pieces that fit.
fn fitted(text: &str, first: &str, rest: &str) -> String {
    if crate::layout::width(first) + crate::layout::width(text) <= columns() {
        format!("{first}{text}\n")
    } else {
        let word = text.find(' ').unwrap_or(text.len());
        let body = text[word..].trim_start();
        let head = format!("{first}{}", &text[..text.len() - body.len()]);
        let wrapped = wrap_hanging(body, &head, rest, columns());
        // A word no line holds (a URL in a permission rule the
        // repository wrote) is cut into pieces rather than passing the
        // width.
        if wrapped
            .lines()
            .all(|l| crate::layout::width(l) <= columns())
        {
            wrapped
        } else {
            crate::layout::wrap_quoted_hanging(body, &head, rest, columns())
        }
    }
}

/// A line of a paragraph's text after its mark (`first`, `      + `): as
/// it is when it fits the width, else wrapped under the text, a word
/// wider than a line (a changed URL, which [`change_in_view`] keeps) cut
/// into pieces, so no line passes the width.
fn paragraph_line(text: &str, first: &str) -> String {
    if crate::layout::width(first) + crate::layout::width(text) <= columns() {
        format!("{first}{text}\n")
    } else {
        crate::layout::wrap_quoted_hanging(text, first, "        ", columns())
    }
}

/// `text` with each unchanged word (outside [`TEXT_MARKS`]) wider than
/// `room` columns less two left out (`…` standing for it): such a word
/// (a long URL of the context) would pass the width, as no line breaks
/// inside a word. Changed words are kept whatever their width.
fn without_wide_words(text: &str, room: usize) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut marked = false;
    for w in text.split(' ') {
        let opens = TEXT_MARKS.iter().any(|(o, _)| w.contains(o));
        let closes = TEXT_MARKS.iter().any(|(_, c)| w.contains(c));
        let keep = marked || opens || crate::layout::width(w) + 2 <= room;
        if keep {
            out.push(w);
        } else if out.last() != Some(&"…") {
            out.push("…");
        }
        marked = (marked || opens) && !closes;
    }
    out.join(" ")
}

/// A word-diff side `text` whose first changed word (marked with
/// [`TEXT_MARKS`]) would not end within `room` columns on its first line:
/// the unchanged words before it are left out from the start (`… `
/// standing for them) until it does, or none is left. Text without a
/// mark, or whose first change already fits, is returned as it is; so
/// the `-` and `+` lines of an edit differ on their first line whenever
/// the change fits there.
fn change_in_view(text: &str, room: usize) -> String {
    let text = &without_wide_words(text, room);
    let first_change = |t: &str| TEXT_MARKS.iter().filter_map(|(open, _)| t.find(open)).min();
    let Some(at) = first_change(text) else {
        return text.to_string();
    };
    let ends = |t: &str, at: usize| {
        let end = t[at..].find(' ').map_or(t.len(), |i| at + i);
        crate::layout::width(&t[..end]) <= room
    };
    if ends(text, at) {
        return text.to_string();
    }
    let mut lead: Vec<&str> = text[..at].split(' ').collect();
    let rest = &text[at..];
    lead.retain(|w| *w != "…");
    while !lead.is_empty() {
        lead.remove(0);
        let shorter = if lead.iter().all(|w| w.is_empty()) {
            format!("… {}", rest)
        } else {
            format!("… {}{rest}", lead.join(" "))
        };
        if ends(&shorter, shorter.find(rest).unwrap_or(0)) {
            return shorter;
        }
    }
    format!("… {rest}")
}

fn plural_s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn result_line(doc: &DiffDocument) -> String {
    if let Some(u) = &doc.upgrade {
        return crate::upgrade::result_line(doc, u);
    }
    let s = &doc.summary;
    if s.introduced == 0 && s.introduced_problems == 0 {
        return "Result: no introduced finding (exit status 0).".to_string();
    }
    let accepted = if s.introduced_accepted > 0 {
        format!(", {} accepted", s.introduced_accepted)
    } else {
        String::new()
    };
    let mut what = match s.introduced {
        0 => "no introduced finding".to_string(),
        n => format!("{n} introduced finding{}{accepted}", plural_s(n)),
    };
    if s.introduced_problems > 0 {
        what.push_str(&format!(
            " and {} introduced problem{} in the repository",
            s.introduced_problems,
            plural_s(s.introduced_problems)
        ));
    }
    let failing = match s.failing {
        0 => "none fails the run".to_string(),
        1 => "1 fails the run".to_string(),
        n => format!("{n} fail the run"),
    };
    format!(
        "Result: {what}; {failing} (fail-on {}, exit status {}).",
        doc.fail_on.as_str(),
        u8::from(s.failing > 0)
    )
}

/// Most paragraphs one Markdown row shows; the rest are counted.
const MARKDOWN_PARAGRAPHS: usize = 3;

/// The changed paragraphs of `c` for its Markdown table cell: each on a
/// line of its own (`<br>`), marked `-`, `+` or `~`, changed words struck
/// out or underlined; at most [`MARKDOWN_PARAGRAPHS`], then how many more.
fn paragraph_cell(c: &InstructionChange) -> String {
    let mut out = String::new();
    for p in c.paragraphs.iter().take(MARKDOWN_PARAGRAPHS) {
        for (mark, text) in paragraph_lines(p, &|t| esc(t), MARKDOWN_MARKS) {
            let _ = write!(out, "<br>{} {text}", esc(mark));
        }
    }
    if c.paragraphs.len() > MARKDOWN_PARAGRAPHS {
        let more = c.paragraphs.len() - MARKDOWN_PARAGRAPHS;
        let _ = write!(
            out,
            "<br>({})",
            count(more, "more paragraph", "more paragraphs")
        );
    }
    out
}

/// `diff --format markdown`: a compact pull-request comment of at most
/// [`crate::check_markdown::COMMENT_LIMIT`] characters (when everything
/// does not fit: the first change rows and findings, and how many more
/// the JSON lists). Everything taken from the repository is escaped.
pub fn diff_markdown(doc: &DiffDocument) -> String {
    let mut rows: Vec<String> = Vec::new();
    for d in &doc.directories {
        for a in &d.agents {
            let mut lines: Vec<String> = a.instructions.iter().map(instruction_line).collect();
            let mut paragraphs: Vec<String> = a.instructions.iter().map(paragraph_cell).collect();
            lines.extend(a.skills.iter().map(|c| capability_line("skill", c)));
            lines.extend(
                a.mcp_servers
                    .iter()
                    .map(|c| capability_line("MCP server", c)),
            );
            for (what, list) in a.surfaces() {
                lines.extend(list.iter().map(|c| capability_line(what, c)));
            }
            paragraphs.resize(lines.len(), String::new());
            for (l, paras) in lines.iter().zip(&paragraphs) {
                rows.push(format!(
                    "| {} | {} | {}{paras} |",
                    esc(&directory_label(d)),
                    esc(a.harness.display_name()),
                    esc(l.split_whitespace().collect::<Vec<_>>().join(" ").as_str())
                ));
            }
        }
    }
    let finding_line = |f: &DiffFinding| {
        let accepted = f
            .finding
            .accepted
            .as_ref()
            .map(|a| format!(" Accepted: {}.", esc(&a.reason)))
            .unwrap_or_default();
        format!(
            "- **{}** {} {}: {}{accepted} (`{}`)",
            f.finding.severity.as_str(),
            f.finding.category.title(),
            f.finding.kind.label(),
            esc(&f.finding.message),
            f.finding.id.replace('`', "'")
        )
    };
    let problem_line = |p: &DiffProblem| {
        let (head, message) = problem_text(p);
        format!(
            "- **{}** {}: {}",
            p.severity.as_str(),
            esc(&head),
            esc(&message)
        )
    };
    let problems_in: Vec<String> = doc.problems.introduced.iter().map(problem_line).collect();
    let problems_out: Vec<String> = doc.problems.resolved.iter().map(problem_line).collect();
    let introduced: Vec<String> = doc.findings.introduced.iter().map(finding_line).collect();
    let resolved: Vec<String> = doc.findings.resolved.iter().map(finding_line).collect();
    let total =
        rows.len() + problems_in.len() + problems_out.len() + introduced.len() + resolved.len();
    crate::check_markdown::fit(total, |shown| {
        let mut budget = shown;
        let mut take = |list: &[String]| {
            let n = budget.min(list.len());
            budget -= n;
            list[..n].to_vec()
        };
        let rows_shown = take(&rows);
        let problems_in_shown = take(&problems_in);
        let problems_out_shown = take(&problems_out);
        let introduced_shown = take(&introduced);
        let resolved_shown = take(&resolved);
        let mut out = String::new();
        match &doc.upgrade {
            Some(u) => crate::upgrade::markdown_header(&mut out, doc, u),
            None => {
                let _ = writeln!(out, "### PlaybookDiff: agent configuration changes\n");
                let _ = writeln!(
                    out,
                    "Base {}, head {}: {}, {} analysed.\n",
                    esc(&side_label(&doc.base)),
                    esc(&side_label(&doc.head)),
                    count(doc.summary.changed_paths, "changed path", "changed paths"),
                    count(doc.summary.affected_contexts, "context", "contexts")
                );
            }
        }
        if !rows_shown.is_empty() {
            let _ = writeln!(out, "| Context | Agent | Change |\n|---|---|---|");
            for r in &rows_shown {
                let _ = writeln!(out, "{r}");
            }
            out.push('\n');
        }
        for (title, all, list) in [
            ("Introduced", &problems_in, &problems_in_shown),
            ("Resolved", &problems_out, &problems_out_shown),
        ] {
            if all.is_empty() {
                continue;
            }
            // not a count: `title` is "Introduced" or "Resolved".
            let _ = writeln!(
                out,
                "**{title} problems in the repository: {}**\n",
                all.len()
            );
            for l in list.iter() {
                let _ = writeln!(out, "{l}");
            }
            if !list.is_empty() {
                out.push('\n');
            }
        }
        for (title, all, list) in [
            ("Introduced", &introduced, &introduced_shown),
            ("Resolved", &resolved, &resolved_shown),
        ] {
            // not a count: the title (`Introduced`, `Resolved`).
            let _ = writeln!(out, "**{title} findings: {}**\n", all.len());
            for l in list.iter() {
                let _ = writeln!(out, "{l}");
            }
            if !list.is_empty() {
                out.push('\n');
            }
        }
        match &doc.upgrade {
            Some(u) => crate::upgrade::changes_markdown(&mut out, u),
            None => {
                let _ = writeln!(out, "Unchanged findings: {}.\n", doc.summary.unchanged);
            }
        }
        if shown < total {
            let _ = writeln!(
                out,
                "**{} not shown, see the JSON**: <code>playbookdiff diff RANGE --format json</code> lists every one.\n",
                count(total - shown, "more change or finding", "more changes and findings")
            );
        }
        let _ = writeln!(out, "{}", esc(&result_line(doc)));
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_markdown::COMMENT_LIMIT;
    use playbookdiff_model::InstructionKind;

    /// A change line too wide for the terminal wraps after its change
    /// word's column: `rescoped` lines up with `edited` above it.
    #[test]
    fn change_words_stay_aligned_when_a_line_wraps() {
        let short = format!("{:<9} instruction AGENTS.md [agents-md]", "edited");
        let long = format!(
            "{:<9} instruction {}rule.md [rule] (paths a/** -> b/**)",
            "rescoped",
            "docs/very/long/".repeat(4)
        );
        let (a, b) = crate::layout::with_width(80, || {
            (
                fitted(&short, "    ", "      "),
                fitted(&long, "    ", "      "),
            )
        });
        let column = |line: &str| line.find("instruction").unwrap();
        assert_eq!(column(&a), column(b.lines().next().unwrap()), "{a}{b}");
        assert!(b.lines().count() > 1, "{b}");
        assert!(b.lines().all(|l| l.chars().count() <= 80), "{b}");
    }
    /// Paragraph text in a Markdown cell is escaped around the marks:
    /// nothing in it opens an element or ends the cell.
    #[test]
    fn markdown_paragraphs_escape_the_text_between_their_marks() {
        let change = |removed: &str, added: &str| InstructionChange {
            change: Change::Edited,
            path: RepoPath::new("CLAUDE.md").unwrap(),
            kind: InstructionKind::Memory,
            base: None,
            head: None,
            paragraphs: vec![playbookdiff_compare::delta::ParagraphChange {
                removed: Some(removed.into()),
                added: Some(added.into()),
                moved: None,
            }],
        };
        let cell = paragraph_cell(&change(
            "Run <b>make</b> | then deploy the app to staging.",
            "Run <b>make</b> | then deploy the <script> to staging.",
        ));
        assert!(cell.contains("<del>app</del>"), "{cell}");
        assert!(cell.contains("<ins>&lt;script&gt;</ins>"), "{cell}");
        assert!(!cell.contains("<b>") && !cell.contains(" | "), "{cell}");
        let many = InstructionChange {
            paragraphs: vec![change("a", "b").paragraphs[0].clone(); 5],
            ..change("a", "b")
        };
        assert!(paragraph_cell(&many).ends_with("<br>(2 more paragraphs)"));
    }
    use playbookdiff_compare::compare;
    use playbookdiff_model::{
        AnalysisContext, Applicability, EffectiveAgentConfig, McpServer, SourceFormat, SourceRef,
    };

    #[test]
    fn markdown_too_long_for_a_comment_is_cut_with_a_count() {
        let ctx = AnalysisContext::at_root();
        let mut claude =
            EffectiveAgentConfig::new(Harness::new("claude-code", "Claude Code"), ctx.clone());
        claude.mcp_servers = (0..1500)
            .map(|i| {
                let name = format!("server-{i:04}");
                McpServer::new(
                    format!("mcp:{name}"),
                    &name,
                    SourceRef::project(RepoPath::new(".mcp.json").unwrap(), SourceFormat::Json)
                        .with_lines(1, 1),
                    Applicability::Effective,
                )
            })
            .collect();
        let codex = EffectiveAgentConfig::new(Harness::new("codex", "Codex"), ctx);
        let cmp = compare(&[&claude, &codex]);
        assert_eq!(cmp.findings.len(), 1500);
        let introduced: Vec<DiffFinding> = cmp
            .findings
            .into_iter()
            .map(|finding| DiffFinding {
                finding,
                directories: vec![RepoPath::root()],
            })
            .collect();
        let side = |r: &str| DiffSide {
            revision: Some(r.into()),
            commit: Some("0".repeat(40)),
            merge_base: false,
        };
        let doc = |introduced: Vec<DiffFinding>| DiffDocument {
            schema_version: 1,
            repository: ".".into(),
            base: side("main"),
            head: side("topic"),
            harnesses: vec![claude.harness, codex.harness],
            fail_on: FailOn::Medium,
            changed_paths: vec![RepoPath::new(".mcp.json").unwrap()],
            analysed: Vec::new(),
            directories: Vec::new(),
            summary: DiffSummary {
                introduced: introduced.len(),
                ..DiffSummary::default()
            },
            findings: FindingDelta {
                introduced,
                ..FindingDelta::default()
            },
            problems: ProblemDelta::default(),
            upgrade: None,
        };
        let md = diff_markdown(&doc(introduced.clone()));
        let n = md.chars().count();
        assert!(n <= COMMENT_LIMIT, "{n}");
        assert!(n > COMMENT_LIMIT - 2_000, "nearly full: {n}");
        let shown = md.lines().filter(|l| l.starts_with("- **")).count();
        assert!(shown > 10 && shown < 1500, "{shown}");
        assert!(
            md.contains(&format!(
                "**{} not shown, see the JSON**",
                count(
                    1500 - shown,
                    "more change or finding",
                    "more changes and findings"
                )
            )),
            "{}",
            &md[md.len() - 400..]
        );
        assert!(md.contains("**Introduced findings: 1500**"));
        // A report that fits is whole, without the sentence.
        let small = diff_markdown(&doc(introduced[..3].to_vec()));
        assert_eq!(small.lines().filter(|l| l.starts_with("- **")).count(), 3);
        assert!(!small.contains("not shown"), "{small}");
    }

    /// At any width, an edit whose change fits on the first line shows it
    /// there on both sides (the unchanged words before it are left out
    /// first), so the `-` and `+` first lines never read the same; a side
    /// without a change, or whose change already fits, is unchanged.
    #[test]
    fn the_first_change_is_on_the_first_line_when_it_fits() {
        let lead = "… agents read [Spec](https://agentskills.io/specification) and more";
        for room in [20, 32, 40, 60, 72] {
            for mark in ["[-old-]", "{+edit+}"] {
                let text = format!("{lead} {mark} after");
                let shown = change_in_view(&text, room);
                let end = shown.find(mark).expect("the change kept") + mark.len();
                assert!(
                    crate::layout::width(&shown[..end]) <= room
                        || shown.starts_with(&format!("… {mark}")),
                    "{room}: {shown}"
                );
                assert!(shown.ends_with(&format!("{mark} after")), "{shown}");
                if crate::layout::width(&text[..text.find(mark).unwrap() + mark.len()]) <= room {
                    assert_eq!(shown, text);
                }
            }
        }
        assert_eq!(change_in_view("no change here", 40), "no change here");
        // An unchanged word wider than the line is left out, on a side
        // with or without a change; a changed one is kept.
        let url = "[Spec](https://agentskills.io/specification)";
        for room in [20, 32, 40] {
            for text in [
                format!("… {url}"),
                format!("… {url} {{+edit+}} after"),
                format!("{{+{url}+}}"),
            ] {
                let shown = change_in_view(&text, room);
                assert_eq!(shown.contains(url), text.contains("{+["), "{room}: {shown}");
            }
        }
    }
}

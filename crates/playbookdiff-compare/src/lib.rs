//! Cross-harness comparison of [`EffectiveAgentConfig`] values.
//!
//! [`compare`] takes what two or more harnesses receive under the same
//! [`AnalysisContext`](playbookdiff_model::AnalysisContext) and returns a
//! [`Comparison`]: the items aligned side by side ([`Row`]) and the
//! [`Finding`]s, each with a stable id, a severity and the evidence on each
//! side.
//!
//! Two items are the same when they resolve to the same repository file
//! (`source.resolvedPath` through symbolic links; an imported piece names
//! the imported file) or carry identical text after line-ending
//! normalization. Skills are matched by name, MCP servers by name.
//!
//! Architecture invariant: this crate knows no harness's rules. It reads
//! only the model (paths, phases, applicability, names, definitions); it
//! never asks which file a harness would read, and it does no I/O.
//!
//! ```
//! use playbookdiff_compare::compare;
//! use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness};
//!
//! let a = EffectiveAgentConfig::new(Harness::new("alpha", "Alpha"), AnalysisContext::at_root());
//! let b = EffectiveAgentConfig::new(Harness::new("beta", "Beta"), AnalysisContext::at_root());
//! let c = compare(&[&a, &b]);
//! assert!(c.findings.is_empty());
//! assert_eq!(c.summary.total(), 0);
//! ```

mod agents;
pub mod baseline;
pub mod concrete;
pub mod delta;
mod draft;
pub mod finding;
pub mod group;
mod hooks;
pub mod id;
mod instructions;
pub mod matrix;
mod mcp;
pub mod paragraphs;
mod permissions;
mod plugins;
pub mod received;
mod skills;
pub mod state;
mod surface_delta;

pub use baseline::{Acceptance, AcceptedFinding, Baseline, Coverage, FailOn};
pub use finding::*;
pub use state::Reception;

use draft::FindingDraft;

use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticKind, EffectiveAgentConfig, Harness, LoadPhase, RepoPath,
    ResolutionStrategy, Severity, SourceRef, SourceScope,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The result of comparing harnesses under one context.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// The harnesses compared, in the order given: those that start (a
    /// harness in [`Comparison::refused`] is left out). Each row has one
    /// cell per harness listed here.
    pub harnesses: Vec<Harness>,
    /// The harnesses that would not start from the launch directory (they
    /// refuse the configuration), in the order given: left out of the
    /// rows and of every instruction, skill and MCP finding; each has one
    /// `agent` `refused` finding of severity `high` instead.
    pub refused: Vec<Refusal>,
    /// Every item aligned across the harnesses that start, instructions
    /// first.
    pub rows: Vec<Row>,
    /// The findings: by severity, then startup before on demand, then
    /// path ([`group::sort`]).
    pub findings: Vec<Finding>,
    /// The findings counted by severity.
    pub summary: Summary,
}

impl Comparison {
    /// The finding with id `id`.
    pub fn finding(&self, id: &str) -> Option<&Finding> {
        self.findings.iter().find(|f| f.id == id)
    }
}

/// One item aligned across harnesses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// What the row is about.
    pub category: Category,
    /// The file (instructions) or the name (skills, MCP servers).
    pub label: String,
    /// One cell per harness, in [`Comparison::harnesses`] order.
    pub cells: Vec<Cell>,
    /// True when every harness receives the item the same way.
    pub agree: bool,
    /// The fields whose definitions differ (`args`, `env.KEY`), for skills
    /// and MCP servers whose cells alone would read the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differs: Vec<String>,
}

impl Row {
    /// True when at least one harness receives (or may receive) the item.
    pub fn received_anywhere(&self) -> bool {
        self.cells
            .iter()
            .any(|c| c.reception.is_some_and(Reception::is_received))
    }
}

/// How one harness has the item of a row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Cell {
    /// `None` when the harness has nothing for the row.
    pub reception: Option<Reception>,
    /// A short note: the piece kind (`import`, `rule`), the transport, the
    /// invocation.
    pub note: String,
    /// True when the context's targetPath triggers the item: it is
    /// received on demand and the adapter made it `effective` for the
    /// target (an on-demand item that no target reaches stays
    /// `conditional`; see [`Cell::triggers`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub triggered: bool,
    /// True when another source wins the item's slot (applicability
    /// `shadowed`: an `AGENTS.override.md` beside an `AGENTS.md`, a skill
    /// of the same name that takes precedence).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shadowed: bool,
    /// Why the harness does not load the item from this launch directory,
    /// when reception is `not-loaded`: the item's applicability
    /// (`excluded`: refused or removed by a setting; `shadowed`;
    /// `unavailable`: outside what the mode reads; `out-of-scope`: loaded
    /// only from other launch directories). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_loaded: Option<Applicability>,
    /// The layer the item comes from when it is the user's own, which
    /// only local mode reads: `user` or `managed` (a file of the home or
    /// the machine), `plugin` (a plugin installed there), `local` (a
    /// personal file of the working tree, or this project's entry in a
    /// user file). Absent for the project's items and the built-in ones;
    /// see `Cell::in_layer_of`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<SourceScope>,
}

impl Cell {
    fn absent() -> Cell {
        Cell {
            reception: None,
            note: String::new(),
            triggered: false,
            shadowed: false,
            not_loaded: None,
            layer: None,
        }
    }

    /// The cell of an item with this reception, note, phase and
    /// applicability.
    pub(crate) fn of(
        reception: Reception,
        note: String,
        phase: LoadPhase,
        applicability: Applicability,
    ) -> Cell {
        Cell {
            reception: Some(reception),
            note,
            triggered: Cell::triggers(phase, applicability),
            shadowed: applicability == Applicability::Shadowed,
            not_loaded: (reception == Reception::NotLoaded).then_some(applicability),
            layer: None,
        }
    }

    /// The same cell, marked with the layer of `source` when that is the
    /// user's own ([`Cell::layer`]): a path on the machine (`~/...`,
    /// `$VAR/...`, `/etc/...`), or scope `local` for an item the mode
    /// reads (repo mode lists a personal file as `unavailable`, unread).
    /// Repo mode reads no user layer, so its cells carry none.
    pub(crate) fn in_layer_of(mut self, source: &SourceRef) -> Cell {
        let own = source.path.is_on_machine()
            || (source.scope == SourceScope::Local
                && self.not_loaded != Some(Applicability::Unavailable));
        self.layer = match source.scope {
            SourceScope::Project | SourceScope::Builtin => None,
            scope => own.then_some(scope),
        };
        self
    }

    /// Whether an item with this phase and applicability is one the
    /// target triggers: loadPhase `on-demand` and applicability
    /// `effective` (output contract, "Common fields": an on-demand item is
    /// `conditional` unless the target reaches it).
    pub fn triggers(phase: LoadPhase, applicability: Applicability) -> bool {
        phase == LoadPhase::OnDemand && applicability == Applicability::Effective
    }
}

/// Compares what `configs` receive. Two or more configurations of
/// different harnesses compiled for the same context; with fewer than two,
/// there is nothing to compare and the result is empty.
///
/// A harness that would not start ([`EffectiveAgentConfig::starts`] is
/// false: the agent refuses the configuration) receives nothing, so
/// comparing its items would report noise ("Codex lacks `review`"): it is
/// left out of the rows and the pairwise findings, listed in
/// [`Comparison::refused`], and has one `high` finding of its own
/// ([`refusal_finding`]). The rows still align the items of a single
/// harness that starts; findings between items need two.
pub fn compare(configs: &[&EffectiveAgentConfig]) -> Comparison {
    compare_settled(configs, &|_| false)
}

/// [`compare`] for a caller that already holds a finding of some ids from
/// elsewhere and keeps that copy: `check --all-dirs` keeps each finding as
/// the first launch directory in path order sees it (see
/// [`matrix::MatrixBuilder`]), and the other directories' copies only
/// list and count it. A finding whose id `settled` answers true for may
/// be built in outline: its id, category, type, severity, sides, items,
/// key and scope as [`compare`] builds them (what orders, counts,
/// accepts and excludes it), with an empty message and no absences,
/// paragraphs, problems or subject. Today the instruction `missing`
/// findings are, the ones every launch directory repeats (the root's
/// files). `settled` must keep answering true for an id once it has.
/// Everything else (rows, order, summary, ids) is what [`compare`]
/// returns.
pub fn compare_settled(
    configs: &[&EffectiveAgentConfig],
    settled: &dyn Fn(&str) -> bool,
) -> Comparison {
    compare_with(configs, settled, Rows::Keep(Vec::new()))
}

/// [`compare_settled`] without the aligned rows: [`Comparison::rows`] is
/// empty, and everything else (findings, order, summary, ids) is what
/// [`compare_settled`] returns. For a caller that keeps only the findings
/// (`check --all-dirs`): the rows, one per file, skill and MCP server of
/// every launch directory, are then not built at all.
pub fn compare_settled_findings(
    configs: &[&EffectiveAgentConfig],
    settled: &dyn Fn(&str) -> bool,
) -> Comparison {
    compare_with(configs, settled, Rows::Skip(Row::blank()))
}

/// [`compare_settled`], with the rows `rows` keeps.
fn compare_with(
    configs: &[&EffectiveAgentConfig],
    settled: &dyn Fn(&str) -> bool,
    mut rows: Rows,
) -> Comparison {
    let starting: Vec<&EffectiveAgentConfig> =
        configs.iter().copied().filter(|c| c.starts()).collect();
    let harnesses: Vec<Harness> = starting.iter().map(|c| c.harness).collect();
    let mut refused = Vec::new();
    let mut findings = Vec::new();
    if configs.len() >= 2 {
        if !starting.is_empty() {
            let diagnostics: Vec<DiagnosticIndex<'_>> =
                starting.iter().map(|c| DiagnosticIndex::new(c)).collect();
            instructions::compare(&starting, &diagnostics, &mut rows, &mut findings, settled);
            skills::compare(&starting, &diagnostics, &mut rows, &mut findings);
            mcp::compare(&starting, &mut rows, &mut findings);
            hooks::compare(&starting, &mut rows, &mut findings);
            agents::compare(&starting, &diagnostics, &mut rows, &mut findings);
            permissions::compare(&starting, &mut findings);
            plugins::compare(&starting, &mut findings);
            if starting.len() < 2 {
                findings.clear();
            }
        }
        for c in configs {
            if let Some(d) = c.refusal() {
                let r = Refusal {
                    harness: c.harness,
                    code: d.code,
                    message: d.message.clone(),
                    source: d.source.clone(),
                };
                findings.push(refusal_finding(&r));
                refused.push(r);
            }
        }
    }
    findings.sort_by(|a, b| a.id.cmp(&b.id));
    findings.dedup_by(|a, b| a.id == b.id);
    group::sort(&mut findings);
    attach_problems(&starting, &mut findings, settled);
    own_layers(&mut findings);
    let summary = Summary::of(&findings);
    Comparison {
        harnesses,
        refused,
        rows: rows.into_rows(),
        findings,
        summary,
    }
}

/// Says, on each finding whose evidence on the receiving side comes only
/// from the user's own files (local mode: the user's home, the machine's
/// managed files, the personal files of the working tree), that only
/// those give it: "Only your own configuration gives Claude Code this:
/// `~/.claude/skills/deploy/SKILL.md` (user)." A finding with any
/// repository evidence is left as it is, and so is every finding of repo
/// mode, which reads none of these files.
fn own_layers(findings: &mut [Finding]) {
    for f in findings.iter_mut().filter(|f| !f.message.is_empty()) {
        if let Some(files) = own_files(f) {
            f.message = format!(
                "{} Only your own configuration gives {} this: {files}.",
                f.message,
                names(&f.present_in)
            );
        }
    }
}

/// The files, as code spans with their scope (`` `~/.claude.json` (user)
/// ``), that give the harnesses of `f` what it is about, when they all
/// are the user's own (on the machine, or personal files of the working
/// tree that are read); `None` when any is a repository file, or there is
/// none.
pub(crate) fn own_files(f: &Finding) -> Option<String> {
    let received: Vec<&FindingItem> = f
        .items
        .iter()
        .filter(|i| f.present_in.contains(&i.harness))
        .collect();
    let own = |i: &&FindingItem| {
        i.source.path.is_on_machine()
            || (i.source.scope == SourceScope::Local && i.applicability == Applicability::Effective)
    };
    if received.is_empty() || !received.iter().all(own) {
        return None;
    }
    let mut files: Vec<String> = received
        .iter()
        .map(|i| {
            format!(
                "{} ({})",
                code_span(i.source.path.as_str()),
                i.source.scope.as_str()
            )
        })
        .collect();
    files.dedup();
    Some(files.join(", "))
}

/// The one finding of a harness that would not start: category `agent`,
/// type `refused`, severity `high`, absent from that harness, no items;
/// its evidence is the refusal itself, as its only
/// [`Finding::problems`] entry (so the remedy is to fix that file). The
/// logical key is the refused file (`<path>|refused`, `-` when the
/// diagnostic names none), so the id is the same from every launch
/// directory the same file stops the agent in, and `check --all-dirs`
/// lists it once.
pub fn refusal_finding(r: &Refusal) -> Finding {
    let file = r.source.as_ref().map(|s| s.path.as_str()).unwrap_or("-");
    let key = format!("{file}|refused");
    let direction = id::only(&[r.harness]);
    let at = match &r.source {
        Some(s) => match s.lines {
            Some(l) => format!(" in {} (line {})", code_span(s.path.as_str()), l.start),
            None => format!(" in {}", code_span(s.path.as_str())),
        },
        None => String::new(),
    };
    let name = display_name(r.harness);
    let mut f = FindingDraft {
        category: Category::Agent,
        kind: FindingType::Refused,
        severity: FindingSeverity::High,
        direction,
        slug: id::slug(file),
        key,
        present_in: Vec::new(),
        absent_from: vec![r.harness],
        items: Vec::new(),
        message: format!(
            "{name} would not start from this launch directory: it refuses its configuration{at}, so it receives none of the instructions, skills and MCP servers compared here and is left out of the comparison."
        ),
        scope: None,
        subject: None,
    }
    .build();
    f.problems = vec![FindingProblem {
        harness: r.harness,
        code: r.code,
        message: r.message.clone(),
        source: r.source.clone(),
    }];
    f
}

/// The repository problems (warning or error diagnostics of kind
/// repository-problem) each harness reports about the files its evidence
/// comes from, attached to every finding as [`Finding::problems`]. An
/// instruction that wins its slot over other files (resolution
/// `override`, such as an `AGENTS.override.md` hiding the `AGENTS.md`
/// beside it) also brings the problems reported at the files it hides:
/// they explain what it replaces. An MCP server is one entry of a
/// configuration file that holds others: only the problems placed within
/// its entry's lines (or placed at no line) are its own, so one server's
/// literal secret is not another's.
/// A finding `settled` answers true for (built in outline, see
/// [`compare_settled`]) gets none.
pub(crate) fn attach_problems(
    configs: &[&EffectiveAgentConfig],
    findings: &mut [Finding],
    settled: &dyn Fn(&str) -> bool,
) {
    let mut hides: HashMap<(Harness, &RepoPath), Vec<&RepoPath>> = HashMap::new();
    for c in configs {
        for i in &c.instructions {
            if let Some(r) = i
                .resolution
                .as_ref()
                .filter(|r| r.strategy == ResolutionStrategy::Override)
            {
                hides
                    .entry((c.harness, &i.source.path))
                    .or_default()
                    .extend(r.sources.iter());
            }
        }
    }
    let mut by_file: HashMap<(Harness, &RepoPath), Vec<&Diagnostic>> = HashMap::new();
    for c in configs {
        for d in &c.diagnostics {
            if d.code.kind() != DiagnosticKind::RepositoryProblem || d.severity == Severity::Info {
                continue;
            }
            let Some(s) = &d.source else { continue };
            by_file.entry((c.harness, &s.path)).or_default().push(d);
        }
    }
    if by_file.is_empty() {
        return;
    }
    for f in findings
        .iter_mut()
        .filter(|f| f.category != Category::Agent && !settled(&f.id))
    {
        let mut out: Vec<FindingProblem> = Vec::new();
        for i in &f.items {
            let hidden = hides
                .get(&(i.harness, &i.source.path))
                .into_iter()
                .flatten()
                .copied();
            for path in [Some(&i.source.path), i.source.resolved_path.as_ref()]
                .into_iter()
                .flatten()
                .chain(hidden)
            {
                for d in by_file.get(&(i.harness, path)).into_iter().flatten() {
                    if matches!(f.category, Category::Mcp | Category::Hook) && !within(d, &i.source)
                    {
                        continue;
                    }
                    let p = FindingProblem {
                        harness: i.harness,
                        code: d.code,
                        message: d.message.clone(),
                        source: d.source.clone(),
                    };
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        f.problems = out;
    }
}

/// Whether diagnostic `d` lies within the lines of `item` (true when either
/// has no lines, or `d` is about another file than `item`'s own).
fn within(d: &Diagnostic, item: &SourceRef) -> bool {
    let Some(at) = d.source.as_ref() else {
        return true;
    };
    match (at.lines, item.lines) {
        (Some(a), Some(b)) if at.path == item.path => a.start >= b.start && a.end <= b.end,
        _ => true,
    }
}

/// Names of harnesses for a sentence: "Claude Code", "Claude Code and Codex".
pub fn names(hs: &[Harness]) -> String {
    let v: Vec<&str> = hs.iter().map(|h| display_name(*h)).collect();
    match v.len() {
        0 => "no harness".to_string(),
        1 => v[0].to_string(),
        _ => format!("{} and {}", v[..v.len() - 1].join(", "), v[v.len() - 1]),
    }
}

/// What the caller found about one agent's guard (`playbookdiff guard
/// status` read from the configuration layers the check reads), for
/// [`guard_finding`].
#[derive(Clone, Debug, PartialEq)]
pub struct GuardGap {
    /// The agent.
    pub harness: Harness,
    /// [`FindingType::Unguarded`], [`FindingType::SwitchedOff`] or
    /// [`FindingType::Switchable`].
    pub kind: FindingType,
    /// What the key names besides the agent: `registration` for an
    /// unguarded agent, else the switch (`disable-all-hooks`,
    /// `hooks-feature-off`, `untrusted-hash`, `pure`) and the repository
    /// file holding it, when one does.
    pub what: String,
    /// The sentence for people: what holds and why it matters.
    pub message: String,
    /// The evidence: the agent's own diagnostics about the file holding
    /// the switch (`hooks-disabled` at its line), when there is one.
    pub problems: Vec<FindingProblem>,
    /// What to do: the command or the setting to change.
    pub remedies: Vec<Remedy>,
}

/// The finding of one agent's guard: category `guard`, absent from that
/// agent, no items (its evidence is [`GuardGap::problems`]). Severity:
/// `high` for a guard switched off now, `medium` for an agent no layer
/// guards, `info` for a switch that could. The logical key is
/// `<agent>|<what>`, so the id does not move with wording or lines.
pub fn guard_finding(g: GuardGap) -> Finding {
    let severity = match g.kind {
        FindingType::SwitchedOff => FindingSeverity::High,
        FindingType::Switchable => FindingSeverity::Info,
        _ => FindingSeverity::Medium,
    };
    let key = format!("{}|{}", g.harness.as_str(), g.what);
    let mut f = FindingDraft {
        category: Category::Guard,
        kind: g.kind,
        severity,
        direction: id::only(&[g.harness]),
        slug: id::slug(&g.what),
        key,
        present_in: Vec::new(),
        absent_from: vec![g.harness],
        items: Vec::new(),
        message: g.message,
        scope: None,
        subject: None,
    }
    .build();
    f.problems = g.problems;
    f.remedies = g.remedies;
    f
}

pub use playbookdiff_model::remedy::code_span;

/// The product name of a harness, for sentences (its
/// [`Harness::display_name`]; this crate knows no harness).
pub fn display_name(h: Harness) -> &'static str {
    h.display_name()
}

/// The diagnostics of one configuration by the file they point at
/// (`source.path` and `source.resolvedPath`), built once per comparison so
/// that finding why a harness lacks an item does not scan every
/// diagnostic for every finding.
pub(crate) struct DiagnosticIndex<'a> {
    harness: Harness,
    by_file: HashMap<&'a RepoPath, Vec<(usize, &'a str)>>,
}

impl<'a> DiagnosticIndex<'a> {
    pub(crate) fn new(config: &'a EffectiveAgentConfig) -> Self {
        let mut by_file: HashMap<&'a RepoPath, Vec<(usize, &'a str)>> = HashMap::new();
        for (i, d) in config.diagnostics.iter().enumerate() {
            let Some(s) = &d.source else { continue };
            by_file
                .entry(&s.path)
                .or_default()
                .push((i, d.message.as_str()));
            if let Some(r) = s.resolved_path.as_ref().filter(|r| **r != s.path) {
                by_file.entry(r).or_default().push((i, d.message.as_str()));
            }
        }
        DiagnosticIndex {
            harness: config.harness,
            by_file,
        }
    }
}

/// Why a harness lacks an item about `files`: its diagnostics about those
/// files (in the order it lists them, each message once), else `fallback`.
pub(crate) fn absence(
    diagnostics: &DiagnosticIndex<'_>,
    files: &[RepoPath],
    fallback: String,
) -> Absence {
    let mut hits: Vec<(usize, &str)> = files
        .iter()
        .filter_map(|f| diagnostics.by_file.get(f))
        .flatten()
        .copied()
        .collect();
    hits.sort_unstable();
    hits.dedup_by_key(|h| h.0);
    let mut msgs: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (_, m) in hits {
        if seen.insert(m) {
            msgs.push(m);
        }
    }
    Absence {
        harness: diagnostics.harness,
        reason: if msgs.is_empty() {
            fallback
        } else {
            msgs.join(" ")
        },
    }
}

/// Where a comparison puts its aligned rows: built and kept, or not built
/// at all (`check --all-dirs` keeps only the findings).
pub(crate) enum Rows {
    /// Every row, built.
    Keep(Vec<Row>),
    /// No row: this blank one takes the marks (`agree`, `differs`) of each
    /// item in turn, and is dropped.
    Skip(Row),
}

impl Rows {
    /// Pushes the row `make` builds and returns it for the caller to mark
    /// (`agree`, `differs`); when rows are skipped, nothing is built and
    /// the blank row is returned, cleared.
    pub(crate) fn push(&mut self, make: impl FnOnce() -> Row) -> &mut Row {
        match self {
            Rows::Keep(rows) => {
                rows.push(make());
                rows.last_mut().expect("just pushed")
            }
            Rows::Skip(blank) => {
                *blank = Row::blank();
                blank
            }
        }
    }

    /// The rows built so far, when they are kept.
    pub(crate) fn kept(&mut self) -> Option<&mut Vec<Row>> {
        match self {
            Rows::Keep(rows) => Some(rows),
            Rows::Skip(_) => None,
        }
    }

    /// The rows for [`Comparison::rows`]: none when skipped.
    fn into_rows(self) -> Vec<Row> {
        match self {
            Rows::Keep(rows) => rows,
            Rows::Skip(_) => Vec::new(),
        }
    }
}

impl Row {
    /// The row of one item: its `category`, its `label` and one cell per
    /// harness; not yet judged to agree, no differing field named.
    pub(crate) fn new(category: Category, label: String, cells: Vec<Cell>) -> Row {
        Row {
            category,
            label,
            cells,
            agree: false,
            differs: Vec::new(),
        }
    }

    /// An instruction row with no label and no cells.
    fn blank() -> Row {
        Row::new(Category::Instruction, String::new(), Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_span_is_not_closed_by_backticks_inside() {
        assert_eq!(code_span("db"), "`db`");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`a"), "`` `a ``");
        assert_eq!(code_span("x``y`"), "``` x``y` ```");
    }
}

//! What the forge formats (SARIF, GitHub workflow commands, GitLab Code
//! Quality) are fed, from any report kind.
//!
//! A [`ForgeReport`] is a flat list of findings (each with the launch
//! directories it occurs in and, for a comparison of two revisions, whether
//! it is new), the repository's own warnings and errors, and the stale
//! accepted ids. [`ForgeReport::from_check`], [`ForgeReport::from_matrix`]
//! and [`ForgeReport::from_diff`] build it from `check`, `check --all-dirs`
//! and `diff` (with [`ForgeFinding::baseline`] set), so every forge format
//! serves every command through the same three functions.

use crate::diff::DiffDocument;
use crate::report::{CheckReport, Gate, MatrixReport};
use playbookdiff_compare::delta::DiffFinding;
use playbookdiff_compare::{AcceptedFinding, Category, FailOn, Finding, FindingType};
use playbookdiff_model::{Diagnostic, EffectiveAgentConfig, Harness, RepoPath, Severity};
use std::borrow::Cow;

/// Where a finding stands between a base and a head revision (SARIF
/// `baselineState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaselineState {
    /// Only in the head revision: introduced.
    New,
    /// In both revisions.
    Unchanged,
    /// Only in the base revision: resolved.
    Absent,
}

impl BaselineState {
    /// The SARIF spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BaselineState::New => "new",
            BaselineState::Unchanged => "unchanged",
            BaselineState::Absent => "absent",
        }
    }
}

/// One finding for a forge format.
#[derive(Clone, Debug)]
pub struct ForgeFinding<'a> {
    /// The finding.
    pub finding: &'a Finding,
    /// The launch directories where it occurs (`check --all-dirs`); empty
    /// for a single context.
    pub directories: &'a [RepoPath],
    /// For a comparison of two revisions: where the finding stands.
    pub baseline: Option<BaselineState>,
}

/// A diagnostic of one harness's configuration that a forge shows: a
/// warning or an error about a repository file.
#[derive(Clone, Debug)]
pub struct ForgeDiagnostic<'a> {
    /// The harness whose analysis reported it.
    pub harness: Harness,
    /// The diagnostic: borrowed from a configuration, or built from one
    /// of `diff`'s problems in the repository ([`playbookdiff_compare::delta::DiffProblem::diagnostic`]).
    pub diagnostic: Cow<'a, Diagnostic>,
}

/// Everything a forge format shows.
#[derive(Clone, Debug)]
pub struct ForgeReport<'a> {
    /// The findings, in report order.
    pub findings: Vec<ForgeFinding<'a>>,
    /// Warnings and errors about repository files, each once.
    pub diagnostics: Vec<ForgeDiagnostic<'a>>,
    /// Accepted ids that no finding has any more.
    pub stale: &'a [AcceptedFinding],
    /// The threshold that fails the run.
    pub fail_on: FailOn,
}

/// The warnings and errors of `configs` that point at a file, each
/// (harness, code, file, message) once.
pub fn repository_diagnostics(configs: &[EffectiveAgentConfig]) -> Vec<ForgeDiagnostic<'_>> {
    let mut out: Vec<ForgeDiagnostic<'_>> = Vec::new();
    for c in configs {
        for d in &c.diagnostics {
            if d.severity == Severity::Info || d.source.is_none() {
                continue;
            }
            let dup = out.iter().any(|o| {
                o.harness == c.harness
                    && o.diagnostic.code == d.code
                    && o.diagnostic.source == d.source
                    && o.diagnostic.message == d.message
            });
            if !dup {
                out.push(ForgeDiagnostic {
                    harness: c.harness,
                    diagnostic: Cow::Borrowed(d),
                });
            }
        }
    }
    out
}

/// `shown` and then each problem in the repository that fails the run
/// ([`Gate::problems`]) and no diagnostic of `shown` is (same code and
/// file): a problem reported from a launch directory other than the root
/// fails `check --all-dirs` too, and a forge must show why.
fn with_failing<'a>(mut shown: Vec<ForgeDiagnostic<'a>>, gate: &Gate) -> Vec<ForgeDiagnostic<'a>> {
    for p in &gate.problems {
        let path = p.source.as_ref().map(|s| &s.path);
        let covered = shown.iter().any(|d| {
            d.diagnostic.code == p.code && d.diagnostic.source.as_ref().map(|s| &s.path) == path
        });
        if let (false, Some(h)) = (covered, p.harnesses.first()) {
            shown.push(ForgeDiagnostic {
                harness: *h,
                diagnostic: Cow::Owned(p.diagnostic()),
            });
        }
    }
    shown
}

impl<'a> ForgeReport<'a> {
    /// The findings and diagnostics of `check` under one context.
    pub fn from_check(r: &CheckReport<'a>) -> Self {
        ForgeReport {
            findings: r
                .comparison
                .findings
                .iter()
                .map(|f| ForgeFinding {
                    finding: f,
                    directories: &[],
                    baseline: None,
                })
                .collect(),
            diagnostics: with_failing(repository_diagnostics(r.configs), r.gate),
            stale: &r.gate.stale,
            fail_on: r.gate.fail_on,
        }
    }

    /// The findings of `diff` at its head: the introduced ones
    /// ([`BaselineState::New`]), then the unchanged ones
    /// ([`BaselineState::Unchanged`]), each with the launch directories it
    /// occurs in. Resolved findings are left out: they no longer exist at
    /// the head, and a forge (GitHub code scanning, GitLab's merge request
    /// widget) closes what a report of the head no longer holds. No
    /// diagnostics and no stale accepted ids: a diff analyses the affected
    /// launch directories only, so an accepted id it does not meet may
    /// still occur elsewhere. The diagnostics are the problems in the
    /// repository the change introduces, each once (as the text report
    /// lists them).
    pub fn from_diff(d: &'a DiffDocument) -> Self {
        let with = |list: &'a [DiffFinding], state| {
            list.iter().map(move |f| ForgeFinding {
                finding: &f.finding,
                directories: &f.directories,
                baseline: Some(state),
            })
        };
        ForgeReport {
            findings: with(&d.findings.introduced, BaselineState::New)
                .chain(with(&d.findings.unchanged, BaselineState::Unchanged))
                .collect(),
            diagnostics: d
                .problems
                .introduced
                .iter()
                .filter_map(|p| {
                    Some(ForgeDiagnostic {
                        harness: *p.harnesses.first()?,
                        diagnostic: Cow::Owned(p.diagnostic()),
                    })
                })
                .chain(crate::upgrade::forge_diagnostics(d))
                .collect(),
            stale: &[],
            fail_on: d.fail_on,
        }
    }

    /// The findings of `check --all-dirs` (each once, with its
    /// directories) and the diagnostics at the repository root.
    pub fn from_matrix(r: &MatrixReport<'a>) -> Self {
        ForgeReport {
            findings: r
                .matrix
                .findings
                .iter()
                .map(|f| ForgeFinding {
                    finding: &f.finding,
                    directories: &f.directories,
                    baseline: None,
                })
                .collect(),
            diagnostics: with_failing(repository_diagnostics(r.root_configs), r.gate),
            stale: &r.gate.stale,
            fail_on: r.gate.fail_on,
        }
    }
}

/// The rule id of a finding kind: `instruction-missing`,
/// `skill-capability-gap`, `mcp-different`.
pub fn finding_rule_id(category: Category, kind: FindingType) -> String {
    format!("{}-{}", category.as_str(), kind.as_str())
}

/// A short title for a finding kind: "Instruction missing".
pub fn finding_title(category: Category, kind: FindingType) -> String {
    format!("{} {}", category.title(), kind.label())
}

/// One sentence: what a finding kind means.
pub fn finding_description(category: Category, kind: FindingType) -> &'static str {
    match (category, kind) {
        (Category::Instruction, FindingType::Missing) => {
            "One harness receives instruction content that another has nothing equivalent for, so the model follows different rules depending on the agent."
        }
        (Category::Instruction, FindingType::ScopeGap) => {
            "The same instruction file reaches the harnesses at different times: at startup for one, only on demand (or never) for another."
        }
        (Category::Instruction, FindingType::Different) => {
            "The harnesses receive different content for the same instruction slot."
        }
        (Category::Instruction, FindingType::Unknown) => {
            "The harnesses receive differently worded instructions in the same scope; whether they mean the same cannot be decided without reading them."
        }
        (Category::Instruction, FindingType::CapabilityGap) => {
            "An instruction capability is available to one harness only."
        }
        (Category::Skill, FindingType::CapabilityGap) => {
            "A skill is available to one harness only, or is invoked differently."
        }
        (Category::Skill, FindingType::ScopeGap) => {
            "A skill is available at startup to one harness and later or never to another."
        }
        (Category::Skill, FindingType::Different) => {
            "A skill of the same name has a different definition in each harness."
        }
        (Category::Mcp, FindingType::CapabilityGap) => {
            "An MCP server is configured for one harness only, so its tools exist for one agent and not the other."
        }
        (Category::Mcp, FindingType::Different) => {
            "An MCP server of the same name is configured differently (command, arguments, URL, environment variable names)."
        }
        (Category::Hook, FindingType::CapabilityGap) => {
            "A hook runs on an agent event for one harness only, so a guard or automation the repository sets up holds for one agent and not the other."
        }
        (Category::Hook, FindingType::Different) => {
            "Hooks on the same agent event differ between the harnesses."
        }
        (Category::Guard, FindingType::SwitchedOff) => {
            "A setting switches off the guard an agent calls before a tool runs, so that agent can write its own configuration and the secrets the guard protects; remove the setting, or register the guard in the managed layer."
        }
        (Category::Guard, FindingType::Switchable) => {
            "A setting or a command-line option could switch off the guard an agent calls before a tool runs, and no layer that survives it registers the guard."
        }
        (Category::Guard, _) | (_, FindingType::Unguarded) => {
            "The repository uses the guard, and an agent does not call it before a tool runs, so nothing stops that agent from writing the agents' configuration or the secrets the guard protects; register the guard for it."
        }
        (_, FindingType::SwitchedOff | FindingType::Switchable) => {
            "Something switches off, or could switch off, the guard an agent calls before a tool runs."
        }
        (Category::Agent, _) | (_, FindingType::Refused) => {
            "An agent refuses the repository's configuration and would not start, so it receives none of the instructions, skills and MCP servers the other agents receive; fix the file the finding names."
        }
        (Category::Subagent, FindingType::CapabilityGap) => {
            "A subagent can be called by the main agent of one harness only, so work that agent delegates to it is done without it in the other."
        }
        (Category::Permission, FindingType::CapabilityGap) => {
            "A permission rule refuses an action for one harness only, so what the repository forbids one agent another may do (matched approximately, by kind of action and pattern)."
        }
        (Category::Permission, FindingType::Different) => {
            "Permission rules refuse the same action differently between the harnesses."
        }
        (Category::Subagent, FindingType::Different) => {
            "A subagent of the same name is described differently to each harness's main agent, which decides by its description when to delegate."
        }
        (_, FindingType::Unknown) => {
            "Equivalence cannot be decided deterministically (for example two redacted values)."
        }
        (_, FindingType::Missing) => "One harness receives an item another lacks.",
        (_, FindingType::ScopeGap) => {
            "The same item reaches the harnesses at different times."
        }
    }
}

/// The help text of a finding kind: what it means and what to do (plain
/// text, a few sentences).
pub fn finding_help(category: Category, kind: FindingType) -> String {
    let what = finding_description(category, kind);
    format!(
        "{what} Run `playbookdiff explain ID` with the same options for the evidence and a fix. If the difference is intended, accept it: `playbookdiff check --accept ID --reason TEXT` records it in playbookdiff.toml, and it no longer fails the run."
    )
}

/// The rule id of a diagnostic: its code.
pub fn diagnostic_rule_id(d: &Diagnostic) -> &'static str {
    d.code.as_str()
}

/// `path` for a URI reference (RFC 3986): characters other than
/// unreserved ones and `/` are percent-encoded, byte by byte in UTF-8.
pub fn uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// How much an issue weighs in a forge (SARIF `level`; GitHub `error`,
/// `warning`, `notice`; GitLab `critical`, `major`, `info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssueLevel {
    /// Fails the run.
    Error,
    /// Should be looked at.
    Warning,
    /// For the record.
    Note,
}

/// One issue of a report that is not a comparison of agents (`round
/// audit`), for the same three forge emitters: [`crate::sarif::write_sarif_issues`],
/// [`crate::github::github_issues`], [`crate::gitlab::write_gitlab_issues`].
#[derive(Clone, Debug)]
pub struct ForgeIssue {
    /// The rule id (`round-out-of-scope`).
    pub rule_id: &'static str,
    /// The rule's title, a few words.
    pub title: &'static str,
    /// What to do, one sentence.
    pub help: &'static str,
    /// How much it weighs.
    pub level: IssueLevel,
    /// The message, for people.
    pub message: String,
    /// The file and lines, when there is a file.
    pub source: Option<playbookdiff_model::SourceRef>,
    /// The parts the fingerprint is made of (never the message or the
    /// line): hashed with [`crate::gitlab::fingerprint`].
    pub fingerprint: String,
}

/// The source of an issue when it is a file of the repository (a forge
/// annotates only those); `None` for a file of the user's or the
/// machine's (`~/.claude.json`, `$CODEX_HOME/config.toml`,
/// `/etc/codex/...`), which no forge can place in the repository.
pub(crate) fn repository_file(
    source: Option<&playbookdiff_model::SourceRef>,
) -> Option<&playbookdiff_model::SourceRef> {
    source.filter(|s| !s.path.is_on_machine())
}

/// "`path:N`: " naming a file outside the repository before a message
/// that a forge cannot place ([`repository_file`]); empty otherwise.
pub(crate) fn outside_prefix(source: Option<&playbookdiff_model::SourceRef>) -> String {
    match source {
        Some(s) if s.path.is_on_machine() => {
            let line = start_line(s.lines.as_ref()).map_or(String::new(), |(l, _)| format!(":{l}"));
            format!("{}{line}: ", s.path)
        }
        _ => String::new(),
    }
}

/// The first 1-based line of a source, when known and valid.
pub(crate) fn start_line(lines: Option<&playbookdiff_model::Lines>) -> Option<(u32, u32)> {
    lines
        .filter(|l| l.start >= 1)
        .map(|l| (l.start, l.end.max(l.start)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_paths_are_percent_encoded() {
        assert_eq!(uri_path("apps/api/CLAUDE.md"), "apps/api/CLAUDE.md");
        assert_eq!(uri_path("a b/#c%.md"), "a%20b/%23c%25.md");
        assert_eq!(uri_path("é"), "%C3%A9");
        // Every name decodes back to the real path.
        for path in [
            "tab\tdir/CLAUDE.md",
            "a b/é.md",
            "100%/x",
            "a:b,c/d",
            "cr\r\nlf",
            "#?[]@!$&'()*+;=",
        ] {
            let uri = uri_path(path);
            assert!(uri.bytes().all(|b| b.is_ascii_graphic()), "{uri}");
            let mut bytes = Vec::new();
            let mut rest = uri.as_bytes();
            while let Some((&b, tail)) = rest.split_first() {
                if b == b'%' {
                    let hex = std::str::from_utf8(&tail[..2]).unwrap();
                    bytes.push(u8::from_str_radix(hex, 16).unwrap());
                    rest = &tail[2..];
                } else {
                    bytes.push(b);
                    rest = tail;
                }
            }
            assert_eq!(String::from_utf8(bytes).unwrap(), path, "{uri}");
        }
    }

    #[test]
    fn every_kind_has_help() {
        for c in [
            Category::Instruction,
            Category::Skill,
            Category::Mcp,
            Category::Hook,
            Category::Agent,
            Category::Subagent,
            Category::Permission,
            Category::Guard,
        ] {
            for k in [
                FindingType::Missing,
                FindingType::CapabilityGap,
                FindingType::ScopeGap,
                FindingType::Different,
                FindingType::Unknown,
                FindingType::Refused,
                FindingType::Unguarded,
                FindingType::SwitchedOff,
                FindingType::Switchable,
            ] {
                let h = finding_help(c, k);
                assert!(h.contains("--accept"), "{h}");
                assert!(finding_rule_id(c, k).starts_with(c.as_str()));
            }
        }
    }
}

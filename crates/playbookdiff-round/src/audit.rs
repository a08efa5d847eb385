//! `round audit`: what a round changed against its brief (issue 31, step
//! 5; docs/rounds.md, "The audit").
//!
//! The caller reads the two revisions (the base: the brief's
//! `baseBranch`, or `--base`, merged with HEAD's history at their merge
//! base; the head: HEAD) and hands over what changed; [`audit`] decides
//! one finding per fact, each with a [`AuditRule`], a [`AuditSeverity`],
//! a file and a subject (what a forge fingerprints: rule, file and
//! subject, never the message or the line).
//!
//! The scope is the brief **as the base holds it**: an agent that widens
//! `affectedFiles`, drops `protectedFiles` or softens `outOfScope` on its
//! branch changes nothing the audit allows, and the change is itself a
//! finding ([`AuditRule::BriefChanged`]). The rulings are the rows at the
//! head, each counted only when its signature verifies
//! ([`crate::rulings`]).
//!
//! What cannot be measured is a finding ([`AuditRule::NotMeasured`]),
//! never silence: a binary file, a manifest that is not text, a ruling
//! whose signature a squash or rebase merge dropped, a brief the base
//! does not hold, a base that cannot be found.

use crate::brief::Brief;
use crate::dependencies::{self, Manifest};
use crate::rulings::{CheckedRuling, Decision, NotCounted};
use crate::signature::Unverified;
use crate::OutOfScope;
use playbookdiff_compare::delta::AgentDelta;
use serde::Serialize;

/// How much a finding weighs: only [`AuditSeverity::Error`] fails the
/// round (exit status 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AuditSeverity {
    /// Fails the round.
    Error,
    /// A person should look; the round passes.
    Warning,
    /// For the record.
    Note,
}

impl AuditSeverity {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditSeverity::Error => "error",
            AuditSeverity::Warning => "warning",
            AuditSeverity::Note => "note",
        }
    }
}

/// The kinds of audit finding, a closed set; each has one id, title and
/// help ([`AuditRule::id`], [`AuditRule::title`], [`AuditRule::help`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AuditRule {
    /// A file changed outside `affectedFiles`.
    OutOfScope,
    /// A file `protectedFiles` names changed, no verified ruling allowing
    /// it (or a verified ruling denying it).
    ProtectedChanged,
    /// A protected file changed under a verified ruling that allows it.
    ProtectedRuled,
    /// A ruling (allowed or denied) whose signature does not verify.
    RulingUnverified,
    /// The brief's scope changed on the round's branch.
    BriefChanged,
    /// What the models receive changed for an agent.
    AgentConfiguration,
    /// A dependency the base does not declare.
    DependencyAdded,
    /// An install-script approval or the package's own install script
    /// changed.
    InstallScripts,
    /// A manifest that cannot be parsed.
    ManifestUnreadable,
    /// Something that could not be measured.
    NotMeasured,
}

impl AuditRule {
    /// Every rule, in the order of [`AuditRule::id`]'s documentation.
    pub const ALL: [AuditRule; 10] = [
        AuditRule::OutOfScope,
        AuditRule::ProtectedChanged,
        AuditRule::ProtectedRuled,
        AuditRule::RulingUnverified,
        AuditRule::BriefChanged,
        AuditRule::AgentConfiguration,
        AuditRule::DependencyAdded,
        AuditRule::InstallScripts,
        AuditRule::ManifestUnreadable,
        AuditRule::NotMeasured,
    ];

    /// The rule id, as SARIF, GitHub and GitLab show it
    /// (`round-out-of-scope`, …).
    pub fn id(self) -> &'static str {
        match self {
            AuditRule::OutOfScope => "round-out-of-scope",
            AuditRule::ProtectedChanged => "round-protected-changed",
            AuditRule::ProtectedRuled => "round-protected-ruled",
            AuditRule::RulingUnverified => "round-ruling-unverified",
            AuditRule::BriefChanged => "round-brief-changed",
            AuditRule::AgentConfiguration => "round-agent-configuration",
            AuditRule::DependencyAdded => "round-dependency-added",
            AuditRule::InstallScripts => "round-install-scripts",
            AuditRule::ManifestUnreadable => "round-manifest-unreadable",
            AuditRule::NotMeasured => "round-not-measured",
        }
    }

    /// A title, a few words.
    pub fn title(self) -> &'static str {
        match self {
            AuditRule::OutOfScope => "Changed outside the brief's affectedFiles",
            AuditRule::ProtectedChanged => "Protected file changed without a verified ruling",
            AuditRule::ProtectedRuled => "Protected file changed under a verified ruling",
            AuditRule::RulingUnverified => "Ruling whose signature does not verify",
            AuditRule::BriefChanged => "Brief changed on the round's branch",
            AuditRule::AgentConfiguration => "What an agent receives changed",
            AuditRule::DependencyAdded => "Dependency added",
            AuditRule::InstallScripts => "Install-script approval changed",
            AuditRule::ManifestUnreadable => "Manifest cannot be parsed",
            AuditRule::NotMeasured => "Not measured",
        }
    }

    /// What to do, one sentence.
    pub fn help(self) -> &'static str {
        match self {
            AuditRule::OutOfScope => "Revert the change, or widen the brief on the base branch.",
            AuditRule::ProtectedChanged => {
                "Revert the change, or escalate (`playbookdiff round escalate`) and have a \
                 person rule in a signed commit."
            }
            AuditRule::ProtectedRuled => "Review the change against the ruling.",
            AuditRule::RulingUnverified => {
                "Have a person listed in the base branch's allowed signers rule again in a \
                 signed commit."
            }
            AuditRule::BriefChanged => {
                "Revert the brief's scope on the branch; a person changes the brief on the \
                 base branch."
            }
            AuditRule::AgentConfiguration => {
                "Review what the models now receive (`playbookdiff diff`)."
            }
            AuditRule::DependencyAdded => "Review the new dependency before merging.",
            AuditRule::InstallScripts => {
                "Review which packages may run install scripts before merging."
            }
            AuditRule::ManifestUnreadable => "Fix the manifest at the line given.",
            AuditRule::NotMeasured => "Check by hand what the audit could not measure.",
        }
    }
}

/// One fact of the audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditFinding {
    /// Its kind.
    pub rule: AuditRule,
    /// How much it weighs.
    pub severity: AuditSeverity,
    /// The repository-relative file it is about, when there is one.
    pub path: Option<String>,
    /// 1-based line in that file, when known.
    pub line: Option<u32>,
    /// What it is about within the file (a dependency's section and
    /// name, a ruling's id, a front matter key, an agent); with the rule
    /// and the file, its fingerprint.
    pub subject: String,
    /// What happened, one or two sentences.
    pub message: String,
}

impl AuditFinding {
    /// The parts its fingerprint is made of: the rule id, the file and the
    /// subject (never the message or the line).
    pub fn fingerprint_parts(&self) -> [&str; 3] {
        [
            self.rule.id(),
            self.path.as_deref().unwrap_or(""),
            &self.subject,
        ]
    }
}

/// How a file changed between base and head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Only at the head.
    Added,
    /// At both, different.
    Modified,
    /// Only at the base.
    Deleted,
}

/// One changed file, as the caller read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    /// Repository-relative path.
    pub path: String,
    /// How it changed.
    pub change: Change,
    /// Its text at the base and at the head: `Ok(None)` when absent on
    /// that side, `Err(why)` when it is not read as text (binary, not
    /// UTF-8, too large, a Git LFS pointer).
    pub base: Result<Option<String>, String>,
    /// See `base`.
    pub head: Result<Option<String>, String>,
}

/// Where the audit's scope was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScopeSource {
    /// The brief as the base holds it.
    Base,
    /// The base does not hold the brief: the head's copy (a finding says
    /// so).
    Head,
}

/// What each agent receives differently in one context (`diff`'s
/// per-agent account).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentChanges {
    /// The launch directory (`.` for the root).
    pub cwd: String,
    /// The target file, for a path-scoped item.
    pub target_path: Option<String>,
    /// Each agent whose received configuration differs.
    pub agents: Vec<AgentDelta>,
}

/// One side of the audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditSide {
    /// The revision as named (`main`, `HEAD`).
    pub revision: String,
    /// Its commit (hex), when found; the base's is the merge base.
    pub commit: Option<String>,
}

/// The counts beside which the text says what was measured.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditCounts {
    /// Files changed between base and head.
    pub changed_files: usize,
    /// Of those, the files whose contents were read as text on both
    /// sides they exist on.
    pub read_as_text: usize,
    /// Files inside `affectedFiles` (the brief itself excluded).
    pub in_scope: usize,
    /// Files outside it.
    pub out_of_scope: usize,
    /// Protected files changed.
    pub protected: usize,
    /// Manifests changed and read.
    pub manifests: usize,
    /// Rows of the Rulings table, and how many verify.
    pub rulings: usize,
    /// Rows that are rulings whose signature verifies.
    pub rulings_verified: usize,
    /// Launch directories and targets where an agent receives something
    /// different.
    pub agent_contexts: usize,
    /// Findings by severity.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Notes.
    pub notes: usize,
}

/// The audit of one round (`round audit --format json`,
/// `schema/round-audit.schema.json`).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditReport {
    /// 1.
    pub schema_version: u32,
    /// The brief's id.
    pub brief: String,
    /// The brief's repository-relative path.
    pub path: String,
    /// Where the scope was read.
    pub scope_from: ScopeSource,
    /// The scope's `outOfScope`.
    pub out_of_scope: OutOfScope,
    /// The base.
    pub base: AuditSide,
    /// The head.
    pub head: AuditSide,
    /// The counts.
    pub counts: AuditCounts,
    /// Every finding, errors first, then by file and subject.
    pub findings: Vec<AuditFinding>,
    /// `diff`'s account of what each agent receives differently.
    pub agents: Vec<AgentChanges>,
    /// True when an error fails the round (exit status 1).
    pub fails: bool,
}

/// What the audit is computed from.
pub struct AuditInputs<'a> {
    /// The brief the scope is read from (the base's copy, else the
    /// head's).
    pub scope: &'a Brief,
    /// Where it was read.
    pub scope_from: ScopeSource,
    /// The brief as committed at the head, when it is there.
    pub head_brief: Option<&'a Brief>,
    /// The brief's repository-relative path.
    pub path: &'a str,
    /// The base and the head.
    pub sides: (AuditSide, AuditSide),
    /// Every changed file.
    pub changed: &'a [ChangedFile],
    /// The head's Rulings rows, checked.
    pub rulings: &'a [CheckedRuling],
    /// What each agent receives differently.
    pub agents: Vec<AgentChanges>,
    /// What the caller could not measure: (file, subject, message).
    pub unmeasured: Vec<(Option<String>, String, String)>,
}

/// The audit: one finding per fact (module doc), sorted, counted.
pub fn audit(inputs: AuditInputs<'_>) -> AuditReport {
    let mut findings = Vec::new();
    let mut counts = AuditCounts {
        changed_files: inputs.changed.len(),
        rulings: inputs.rulings.len(),
        rulings_verified: inputs.rulings.iter().filter(|r| r.verdict.is_ok()).count(),
        ..AuditCounts::default()
    };
    scope_findings(&inputs, &mut counts, &mut findings);
    ruling_findings(&inputs, &mut findings);
    brief_findings(&inputs, &mut findings);
    for file in inputs.changed {
        counts.read_as_text += usize::from(file.base.is_ok() && file.head.is_ok());
        counts.manifests += manifest_findings(file, &mut findings);
        content_findings(file, &mut findings);
    }
    agent_findings(&inputs.agents, &mut findings);
    counts.agent_contexts = inputs.agents.len();
    for (path, subject, message) in inputs.unmeasured {
        findings.push(not_measured(path, subject, AuditSeverity::Error, message));
    }
    findings.sort_by(|a, b| {
        (a.severity, &a.path, &a.subject, a.rule.id()).cmp(&(
            b.severity,
            &b.path,
            &b.subject,
            b.rule.id(),
        ))
    });
    findings.dedup();
    let by = |s: AuditSeverity| findings.iter().filter(|f| f.severity == s).count();
    counts.errors = by(AuditSeverity::Error);
    counts.warnings = by(AuditSeverity::Warning);
    counts.notes = by(AuditSeverity::Note);
    AuditReport {
        schema_version: 1,
        brief: inputs.scope.id.clone(),
        path: inputs.path.to_string(),
        scope_from: inputs.scope_from,
        out_of_scope: inputs.scope.out_of_scope,
        base: inputs.sides.0,
        head: inputs.sides.1,
        fails: counts.errors > 0,
        counts,
        findings,
        agents: inputs.agents,
    }
}

fn finding(
    rule: AuditRule,
    severity: AuditSeverity,
    path: &str,
    subject: &str,
    message: String,
) -> AuditFinding {
    AuditFinding {
        rule,
        severity,
        path: Some(path.to_string()).filter(|p| !p.is_empty()),
        line: None,
        subject: subject.to_string(),
        message,
    }
}

fn not_measured(
    path: Option<String>,
    subject: String,
    severity: AuditSeverity,
    message: String,
) -> AuditFinding {
    AuditFinding {
        rule: AuditRule::NotMeasured,
        severity,
        path,
        line: None,
        subject,
        message: format!("measured: {message}"),
    }
}

/// Out of scope, protected, and the rulings a protected change relies on.
fn scope_findings(inputs: &AuditInputs<'_>, counts: &mut AuditCounts, out: &mut Vec<AuditFinding>) {
    let brief = inputs.scope;
    if brief.protected_unreadable() {
        out.push(finding(
            AuditRule::BriefChanged,
            AuditSeverity::Error,
            inputs.path,
            "protectedFiles",
            "a `protectedFiles` pattern cannot be read, so no change can be checked against it"
                .into(),
        ));
    }
    for file in inputs.changed.iter().filter(|f| f.path != inputs.path) {
        let rel = file.path.as_str();
        if brief.protected_files.iter().any(|p| p.matches(rel)) {
            counts.protected += 1;
            out.push(protected(brief, inputs.rulings, rel));
        } else if brief.affected_files.iter().any(|p| p.matches(rel)) {
            counts.in_scope += 1;
        } else {
            counts.out_of_scope += 1;
            let severity = match brief.out_of_scope {
                OutOfScope::Deny => AuditSeverity::Error,
                OutOfScope::Ask | OutOfScope::Warn => AuditSeverity::Warning,
            };
            let word = match brief.out_of_scope {
                OutOfScope::Warn => "warn",
                OutOfScope::Ask => "ask",
                OutOfScope::Deny => "deny",
            };
            out.push(finding(
                AuditRule::OutOfScope,
                severity,
                rel,
                "",
                format!(
                    "`{rel}` is outside brief {}'s affectedFiles (outOfScope: {word})",
                    brief.id
                ),
            ));
        }
    }
}

/// The finding of a changed protected file: ruled (a verified ruling
/// allows it and none denies it), or not, naming the ruling relied on.
fn protected(brief: &Brief, rulings: &[CheckedRuling], rel: &str) -> AuditFinding {
    let names = |r: &&CheckedRuling| crate::FilePattern::new(r.path()).matches(rel);
    let verified = |d: Decision| {
        rulings
            .iter()
            .filter(names)
            .find(|r| r.decision == d && r.verdict.is_ok())
    };
    let base = format!("`{rel}` is protected by brief {}", brief.id);
    if let Some(r) = verified(Decision::Deny) {
        let message = format!("{base} and ruling {} denies it", r.id());
        return finding(
            AuditRule::ProtectedChanged,
            AuditSeverity::Error,
            rel,
            "",
            message,
        );
    }
    if let Some(r) = verified(Decision::Allow) {
        let signer = r
            .verdict
            .as_ref()
            .map(|s| s.principals.clone())
            .unwrap_or_default();
        let message = format!("{base}; ruling {} allows it, signed by {signer}", r.id());
        return finding(
            AuditRule::ProtectedRuled,
            AuditSeverity::Note,
            rel,
            "",
            message,
        );
    }
    let relied = rulings
        .iter()
        .filter(names)
        .find(|r| r.decision == Decision::Allow);
    let message = match relied {
        Some(r) => format!(
            "{base}; ruling {} allows it but does not count: {}",
            r.id(),
            why_not(r)
        ),
        None => format!("{base} and no ruling allows it"),
    };
    finding(
        AuditRule::ProtectedChanged,
        AuditSeverity::Error,
        rel,
        "",
        message,
    )
}

fn why_not(r: &CheckedRuling) -> String {
    r.verdict
        .as_ref()
        .err()
        .map(NotCounted::sentence)
        .unwrap_or_default()
}

/// Each ruling (allowed or denied) that does not verify: a warning (the
/// protected change that relies on one is the error), and a not-measured
/// finding when a squash or rebase merge dropped its signature.
fn ruling_findings(inputs: &AuditInputs<'_>, out: &mut Vec<AuditFinding>) {
    for r in inputs.rulings {
        if !matches!(r.decision, Decision::Allow | Decision::Deny) || r.verdict.is_ok() {
            continue;
        }
        let subject = format!("ruling {}", r.id());
        let rewritten = matches!(
            &r.verdict,
            Err(NotCounted::Signature {
                why: Unverified::Unsigned { rewritten: true }
                    | Unverified::OpenPgp { rewritten: true },
                ..
            })
        );
        let mut f = finding(
            AuditRule::RulingUnverified,
            AuditSeverity::Warning,
            inputs.path,
            &subject,
            format!(
                "ruling {} ({}) does not count: {}",
                r.id(),
                r.path(),
                why_not(r)
            ),
        );
        f.line = Some(r.row.line);
        out.push(f);
        if rewritten {
            out.push(not_measured(
                Some(inputs.path.to_string()),
                subject,
                AuditSeverity::Warning,
                format!(
                    "no; ruling {}'s commit was rewritten by a squash or rebase merge, which \
                     dropped its signature, so whether a person signed it cannot be known",
                    r.id()
                ),
            ));
        }
    }
}

/// The brief's scope as the head holds it, against the scope read.
fn brief_findings(inputs: &AuditInputs<'_>, out: &mut Vec<AuditFinding>) {
    let path = inputs.path;
    if inputs.sides.0.commit.is_none() {
        // Nothing was compared: the missing base is the finding.
        return;
    }
    if inputs.scope_from == ScopeSource::Head {
        out.push(not_measured(
            Some(path.to_string()),
            "scope".into(),
            AuditSeverity::Warning,
            format!(
                "no; the base does not hold brief {}, so its scope is read from the round's \
                 own branch, which the round could have changed",
                inputs.scope.id
            ),
        ));
        return;
    }
    let Some(head) = inputs.head_brief else {
        let message = "the brief is not at the head: the round removed or moved it".into();
        out.push(finding(
            AuditRule::BriefChanged,
            AuditSeverity::Error,
            path,
            "file",
            message,
        ));
        return;
    };
    let base = inputs.scope;
    let raw = |ps: &[crate::FilePattern]| ps.iter().map(|p| p.raw.clone()).collect::<Vec<_>>();
    let fields = [
        ("id", vec![base.id.clone()], vec![head.id.clone()]),
        (
            "affectedFiles",
            raw(&base.affected_files),
            raw(&head.affected_files),
        ),
        (
            "protectedFiles",
            raw(&base.protected_files),
            raw(&head.protected_files),
        ),
        (
            "outOfScope",
            vec![format!("{:?}", base.out_of_scope)],
            vec![format!("{:?}", head.out_of_scope)],
        ),
        (
            "baseBranch",
            base.base_branch.iter().cloned().collect(),
            head.base_branch.iter().cloned().collect(),
        ),
    ];
    for (key, was, now) in fields {
        if was != now {
            out.push(finding(
                AuditRule::BriefChanged,
                AuditSeverity::Error,
                path,
                key,
                format!(
                    "`{key}` of brief {} changed on the round's branch ([{}] -> [{}]); the \
                     audit and the guard read the base's",
                    base.id,
                    was.join(", "),
                    now.join(", ")
                ),
            ));
        }
    }
}

/// The dependencies a manifest adds and the approvals it changes; 1 when
/// the file is a manifest read on every side it exists on, else 0.
fn manifest_findings(file: &ChangedFile, out: &mut Vec<AuditFinding>) -> usize {
    let Some(kind) = Manifest::of(&file.path) else {
        return 0;
    };
    let path = file.path.as_str();
    let mut read = |side: &Result<Option<String>, String>| -> Result<dependencies::Declared, ()> {
        match side {
            Ok(None) | Err(_) => Ok(dependencies::Declared::default()),
            Ok(Some(text)) => kind.read(text).map_err(|e| {
                out.push(AuditFinding {
                    rule: AuditRule::ManifestUnreadable,
                    severity: AuditSeverity::Warning,
                    path: Some(path.to_string()),
                    line: e.line,
                    subject: String::new(),
                    message: format!(
                        "`{path}` cannot be parsed, so its dependencies are not measured: {}",
                        e.message
                    ),
                });
            }),
        }
    };
    let base = read(&file.base);
    let head = read(&file.head);
    let (Ok(base), Ok(head)) = (base, head) else {
        return 0;
    };
    for a in dependencies::added(&base, &head) {
        out.push(finding(
            AuditRule::DependencyAdded,
            AuditSeverity::Warning,
            path,
            &format!("{} {}", a.section, a.name),
            format!(
                "`{}` added to {} of `{path}` ({})",
                a.name, a.section, a.requirement
            ),
        ));
    }
    for (key, was, now) in dependencies::approvals_changed(&base, &head) {
        let show = |v: Option<String>| v.unwrap_or_else(|| "absent".into());
        out.push(finding(
            AuditRule::InstallScripts,
            AuditSeverity::Warning,
            path,
            &key,
            format!(
                "`{key}` of `{path}` changed: {} -> {}",
                show(was),
                show(now)
            ),
        ));
    }
    usize::from(file.base.is_ok() && file.head.is_ok())
}

/// A changed file whose contents were not read as text: its path is
/// measured, its contents are not (a warning for a manifest, whose
/// dependencies are then unknown; a note otherwise).
fn content_findings(file: &ChangedFile, out: &mut Vec<AuditFinding>) {
    let manifest = Manifest::of(&file.path).is_some();
    for (side, read) in [("base", &file.base), ("head", &file.head)] {
        let Err(why) = read else { continue };
        let (severity, what) = if manifest {
            (AuditSeverity::Warning, "its dependencies are not measured")
        } else {
            (
                AuditSeverity::Note,
                "its path is measured, its contents are not",
            )
        };
        out.push(not_measured(
            Some(file.path.clone()),
            format!("contents at {side}"),
            severity,
            format!("no; at the {side} it is {why}: {what}"),
        ));
    }
}

/// One warning per context and file whose change alters what an agent
/// receives there, naming each agent and what changed for it.
fn agent_findings(agents: &[AgentChanges], out: &mut Vec<AuditFinding>) {
    for ctx in agents {
        let at = match &ctx.target_path {
            Some(t) => format!("{} (target {t})", ctx.cwd),
            None => ctx.cwd.clone(),
        };
        let mut by_file: Vec<(&str, Vec<String>)> = Vec::new();
        for a in &ctx.agents {
            let (file, kinds) = what_changed(a);
            let said = format!("{} ({kinds})", a.harness.display_name());
            match by_file.iter_mut().find(|(f, _)| *f == file) {
                Some((_, list)) => list.push(said),
                None => by_file.push((file, vec![said])),
            }
        }
        for (file, list) in by_file {
            out.push(finding(
                AuditRule::AgentConfiguration,
                AuditSeverity::Warning,
                file,
                &format!("launched in {at}"),
                format!(
                    "In launch directory `{at}`, what the agents receive changed: {}",
                    list.join(", ")
                ),
            ));
        }
    }
}

/// The first file that changed what agent `a` receives, and the counts of
/// what changed (`instruction pieces: 1, skill: 2`).
fn what_changed(a: &AgentDelta) -> (&str, String) {
    let mut files: Vec<&str> = a.instructions.iter().map(|c| c.path.as_str()).collect();
    let mut kinds = Vec::new();
    if !a.instructions.is_empty() {
        kinds.push(format!("instruction pieces: {}", a.instructions.len()));
    }
    let lists = [
        ("skill", a.skills.as_slice()),
        ("MCP server", a.mcp_servers.as_slice()),
    ];
    for (what, list) in lists.into_iter().chain(a.surfaces()) {
        if !list.is_empty() {
            kinds.push(format!("{what}: {}", list.len()));
            files.extend(list.iter().map(|c| c.path.as_str()));
        }
    }
    (files.first().copied().unwrap_or(""), kinds.join(", "))
}

/// The JSON Schema (draft 2020-12) of [`AuditReport`], pretty-printed,
/// ending with a newline (`schema/round-audit.schema.json`).
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(AuditReport);
    let mut out = serde_json::to_string_pretty(&schema).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brief::parse;

    const BRIEF: &str =
        "---\nid: \"012\"\naffectedFiles: [src/**]\nprotectedFiles: [migrations/**]\n\
        outOfScope: deny\nbaseBranch: main\n---\n";

    fn changed(path: &str, base: Option<&str>, head: Option<&str>) -> ChangedFile {
        let change = match (base, head) {
            (None, _) => Change::Added,
            (_, None) => Change::Deleted,
            _ => Change::Modified,
        };
        ChangedFile {
            path: path.into(),
            change,
            base: Ok(base.map(str::to_string)),
            head: Ok(head.map(str::to_string)),
        }
    }

    fn run(head_brief: &str, files: &[ChangedFile]) -> AuditReport {
        run_with(head_brief, files, &[])
    }

    fn run_with(head_brief: &str, files: &[ChangedFile], rulings: &[CheckedRuling]) -> AuditReport {
        let scope = parse(BRIEF);
        let head = parse(head_brief);
        let side = |r: &str| AuditSide {
            revision: r.into(),
            commit: Some(format!("{r}-commit")),
        };
        audit(AuditInputs {
            scope: &scope,
            scope_from: ScopeSource::Base,
            head_brief: Some(&head),
            path: "briefs/012.md",
            sides: (side("main"), side("HEAD")),
            changed: files,
            rulings,
            agents: Vec::new(),
            unmeasured: Vec::new(),
        })
    }

    fn rules(r: &AuditReport) -> Vec<(&'static str, &str, &str)> {
        r.findings
            .iter()
            .map(|f| {
                (
                    f.rule.id(),
                    f.severity.as_str(),
                    f.path.as_deref().unwrap_or(""),
                )
            })
            .collect()
    }

    #[test]
    fn scope_protected_and_the_brief_read_from_the_base() {
        let widened = BRIEF.replace("[src/**]", "[src/**, README.md]");
        let r = run(
            &widened,
            &[
                changed("src/a.rs", Some("a"), Some("b")),
                changed("README.md", Some("a"), Some("b")),
                changed("migrations/002.sql", None, Some("x")),
                changed("briefs/012.md", Some(BRIEF), Some(&widened)),
            ],
        );
        assert_eq!(
            rules(&r),
            [
                ("round-out-of-scope", "error", "README.md"),
                ("round-brief-changed", "error", "briefs/012.md"),
                ("round-protected-changed", "error", "migrations/002.sql"),
            ],
            "README.md stays out of scope though the head's brief lists it"
        );
        assert_eq!(r.findings[1].subject, "affectedFiles");
        assert!(r.fails);
        assert_eq!(
            (r.counts.in_scope, r.counts.out_of_scope, r.counts.protected),
            (1, 1, 1)
        );
    }

    #[test]
    fn dependencies_approvals_and_what_is_not_measured() {
        let pkg = |deps: &str| format!("{{\"dependencies\":{{{deps}}}}}");
        let mut binary = changed("src/logo.png", None, None);
        binary.head = Err("not UTF-8 text".into());
        let r = run(
            BRIEF,
            &[
                changed(
                    "src/package.json",
                    Some(&pkg("\"a\":\"1\"")),
                    Some(&pkg("\"a\":\"1\",\"b\":\"2\"")),
                ),
                changed(
                    "src/Cargo.toml",
                    Some("[dependencies]\n"),
                    Some("[dependencies\nx = 1\n"),
                ),
                binary,
            ],
        );
        let found = rules(&r);
        assert!(
            found.contains(&("round-dependency-added", "warning", "src/package.json")),
            "{found:?}"
        );
        let bad = r
            .findings
            .iter()
            .find(|f| f.rule == AuditRule::ManifestUnreadable)
            .unwrap();
        assert_eq!(
            (bad.path.as_deref(), bad.line),
            (Some("src/Cargo.toml"), Some(1))
        );
        let png = r
            .findings
            .iter()
            .find(|f| f.rule == AuditRule::NotMeasured)
            .unwrap();
        assert!(
            png.message.starts_with("measured: no; at the head"),
            "{}",
            png.message
        );
        assert!(!r.fails, "warnings and notes do not fail the round");
        assert_eq!(r.counts.changed_files - r.counts.read_as_text, 1);
    }

    /// A ruling a forge's squash merge rewrote: the protected change that
    /// relies on it fails the round, and what cannot be known is said.
    #[test]
    fn a_rewritten_ruling_is_relied_on_and_not_measured() {
        let table = "## Rulings\n\n| Id | Path | Status |\n| --- | --- | --- |\n\
            | E1 | migrations/002.sql | allowed |\n";
        let head = format!("{BRIEF}{table}");
        let row = parse(&head).rulings[0].clone();
        let squashed = CheckedRuling {
            row,
            decision: Decision::Allow,
            commit: Some("0123456789".into()),
            verdict: Err(NotCounted::Signature {
                commit: "0123456789".into(),
                why: Unverified::OpenPgp { rewritten: true },
            }),
        };
        let files = [changed("migrations/002.sql", None, Some("x"))];
        let r = run_with(&head, &files, &[squashed]);
        let found = rules(&r);
        assert!(found.contains(&("round-protected-changed", "error", "migrations/002.sql")));
        assert!(found.contains(&("round-ruling-unverified", "warning", "briefs/012.md")));
        let lost = r
            .findings
            .iter()
            .find(|f| f.rule == AuditRule::NotMeasured)
            .unwrap();
        assert!(
            lost.message.contains("squash or rebase merge"),
            "{}",
            lost.message
        );
        assert_eq!((lost.subject.as_str(), r.fails), ("ruling E1", true));
    }
}

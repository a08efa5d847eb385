//! The finding model of a compatibility check (output contract,
//! "Compatibility check").

use playbookdiff_model::{
    Applicability, DiagnosticCode, Harness, HookTrigger, LoadPhase, PermissionScope, RepoPath,
    SourceRef, Transport,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a finding is about.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Instruction content.
    Instruction,
    /// A skill.
    Skill,
    /// An MCP server.
    Mcp,
    /// Hooks on one event (a [`HookTrigger`]).
    Hook,
    /// An agent as a whole: it refuses the configuration and would not
    /// start ([`FindingType::Refused`]).
    Agent,
    /// A subagent (custom agent) the main agent can delegate to.
    Subagent,
    /// What permission rules refuse (a kind of action and a pattern, a
    /// [`PermissionScope`]).
    Permission,
    /// The guard (`playbookdiff guard`): whether an agent calls it before
    /// a tool runs, and what switches it off. Only in a repository that
    /// opts in to the guard (`docs/findings.md`, "Guard").
    Guard,
}

impl Category {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Instruction => "instruction",
            Category::Skill => "skill",
            Category::Mcp => "mcp",
            Category::Hook => "hook",
            Category::Subagent => "subagent",
            Category::Permission => "permission",
            Category::Agent => "agent",
            Category::Guard => "guard",
        }
    }

    /// The capitalized name for people ("Instruction", "Skill", "MCP").
    pub fn title(self) -> &'static str {
        match self {
            Category::Instruction => "Instruction",
            Category::Skill => "Skill",
            Category::Mcp => "MCP",
            Category::Hook => "Hook",
            Category::Subagent => "Subagent",
            Category::Permission => "Permission",
            Category::Agent => "Agent",
            Category::Guard => "Guard",
        }
    }
}

/// The kind of difference.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FindingType {
    /// Instruction content one harness receives and another has nothing
    /// equivalent for.
    Missing,
    /// A skill or MCP server available to one harness only, or with
    /// different invocation.
    CapabilityGap,
    /// The same source at a different load phase or applicability.
    ScopeGap,
    /// Same name or slot, different definition or content.
    Different,
    /// Equivalence cannot be decided deterministically.
    Unknown,
    /// The agent refuses the configuration and would not start from the
    /// launch directory, so it receives nothing (category `agent`).
    Refused,
    /// No configuration layer the check reads registers the guard for
    /// the agent (category `guard`).
    Unguarded,
    /// A setting switches the agent's guard off now (category `guard`).
    SwitchedOff,
    /// A setting or a command-line option could switch the agent's guard
    /// off, and no layer that survives it registers the guard (category
    /// `guard`).
    Switchable,
}

impl FindingType {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingType::Missing => "missing",
            FindingType::CapabilityGap => "capability-gap",
            FindingType::ScopeGap => "scope-gap",
            FindingType::Different => "different",
            FindingType::Unknown => "unknown",
            FindingType::Refused => "refused",
            FindingType::Unguarded => "unguarded",
            FindingType::SwitchedOff => "switched-off",
            FindingType::Switchable => "switchable",
        }
    }

    /// Words for people ("capability gap").
    pub fn label(self) -> &'static str {
        match self {
            FindingType::Missing => "missing",
            FindingType::CapabilityGap => "capability gap",
            FindingType::ScopeGap => "scope gap",
            FindingType::Different => "different",
            FindingType::Unknown => "unknown",
            FindingType::Refused => "would not start",
            FindingType::Unguarded => "missing",
            FindingType::SwitchedOff => "switched off",
            FindingType::Switchable => "could be switched off",
        }
    }
}

/// How much a finding matters.
///
/// `high`: certain to break a workflow (an agent that would not start);
/// `medium`: what the model receives differs; `low`: a cosmetic
/// difference; `info`: equivalence cannot be decided.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FindingSeverity {
    /// Certain to break a workflow.
    High,
    /// What the model receives differs.
    Medium,
    /// Cosmetic.
    Low,
    /// Undecidable without reading meaning.
    Info,
}

impl FindingSeverity {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingSeverity::High => "high",
            FindingSeverity::Medium => "medium",
            FindingSeverity::Low => "low",
            FindingSeverity::Info => "info",
        }
    }

    /// True for `medium` and `high`: a check with such a finding exits 1.
    pub fn is_actionable(self) -> bool {
        matches!(self, FindingSeverity::High | FindingSeverity::Medium)
    }
}

/// One piece of evidence: an item of one harness's configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindingItem {
    /// The harness whose configuration holds the item.
    pub harness: Harness,
    /// The item's id in that harness's `EffectiveAgentConfig`.
    pub id: String,
    /// Where the item comes from (path and lines).
    pub source: SourceRef,
    /// When that harness receives it.
    pub load_phase: LoadPhase,
    /// Whether that harness receives it under the context.
    pub applicability: Applicability,
    /// The adapter's sentence: why it was discovered and why it has this
    /// applicability.
    pub reason: String,
}

/// A harness that lacks the item, and what its analysis says about the
/// files involved (diagnostics pointing at them), if anything.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Absence {
    /// The harness.
    pub harness: Harness,
    /// Why it lacks the item: diagnostic messages of that harness about the
    /// same files, or a sentence saying that nothing in its configuration
    /// corresponds.
    pub reason: String,
}

/// One paragraph that differs, for `unknown` and coverage `missing`
/// findings: a person judges whether the texts mean the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParagraphDiff {
    /// The paragraph on each side that has one (one entry for a paragraph
    /// only one side has).
    pub sides: Vec<ParagraphSide>,
    /// A word-level diff of the two sides (`[-removed-]{+added+}`), when
    /// there are two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Similarity of the two sides, 0 to 100, when there are two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similarity: Option<u8>,
}

/// A paragraph as one harness receives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParagraphSide {
    /// The harness.
    pub harness: Harness,
    /// The file and lines of the paragraph.
    pub source: SourceRef,
    /// The paragraph, line endings normalized.
    pub text: String,
}

/// One field of an MCP server or skill that differs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FieldDifference {
    /// The field (`command`, `args`, `env.API_KEY`…).
    pub field: String,
    /// Its value per harness, as the model shows it (secrets stay
    /// redacted; `null` when the harness does not set it).
    pub values: Vec<FieldValue>,
}

/// A field's value in one harness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FieldValue {
    /// The harness.
    pub harness: Harness,
    /// The value, `null` when unset.
    pub value: Option<String>,
}

/// What a finding is about, for tools that suggest a fix: the files, the
/// directory or the name involved. Not part of the JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// Instruction content from `files` (resolved repository files),
    /// received in directory `dir`.
    Instruction {
        /// The directory the content applies to.
        dir: RepoPath,
        /// The files, as the present side names them (links resolved).
        files: Vec<RepoPath>,
        /// The path globs of a path-scoped piece, when there are.
        paths: Option<Vec<String>>,
        /// For text that only bridges to files every harness already
        /// receives (an import of them plus boilerplate): those files.
        /// Empty otherwise. A fix must not propose that import again.
        bridge: Vec<RepoPath>,
    },
    /// A skill.
    Skill {
        /// Its name.
        name: String,
        /// Its `SKILL.md` files on the present side (links resolved).
        files: Vec<RepoPath>,
    },
    /// A subagent.
    Subagent {
        /// Its name.
        name: String,
        /// Its files on the present side.
        files: Vec<RepoPath>,
        /// Its description on the present side.
        description: Option<String>,
    },
    /// An MCP server.
    Mcp {
        /// Its name.
        name: String,
        /// Its transport on the side that has it: the one every present
        /// harness agrees on, [`Transport::Unknown`] when they differ.
        transport: Transport,
    },
    /// What permission rules of the present harnesses refuse.
    Permission {
        /// The kind of action and pattern.
        scope: PermissionScope,
    },
    /// Hooks on one event, as the first present harness registers them.
    Hook {
        /// The event's cross-harness meaning.
        trigger: HookTrigger,
        /// The matcher as written, when there is one.
        matcher: Option<String>,
        /// The command line as written (secrets redacted), when there is one.
        command: Option<String>,
        /// The repository script it runs, when it names one.
        script: Option<RepoPath>,
    },
}

/// A problem in the repository that one harness reports about a file of a
/// finding's evidence (a diagnostic of kind repository-problem).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindingProblem {
    /// The harness that reports it.
    pub harness: Harness,
    /// The diagnostic code (`import-missing`, `symlink-dangling`, …;
    /// `docs/diagnostics.md`).
    pub code: DiagnosticCode,
    /// The diagnostic's message: what is wrong and what to do.
    pub message: String,
    /// The file (and lines) it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
}

/// A harness that would not start from the launch directory: it refuses
/// the configuration (a diagnostic whose code
/// [`stops_the_agent`](DiagnosticCode::stops_the_agent)), so the comparison
/// leaves it out and reports one `agent` `refused` finding for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Refusal {
    /// The harness.
    pub harness: Harness,
    /// The diagnostic code (`config-refused`; `docs/diagnostics.md`).
    pub code: DiagnosticCode,
    /// The diagnostic's message: what the agent refuses and what to do.
    pub message: String,
    /// The file and lines it refuses, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
}

/// A suggestion that would make one harness agree with the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Remedy {
    /// The harness whose configuration the suggestion changes.
    pub harness: Harness,
    /// One sentence: what to change.
    pub action: String,
}

/// One difference between harnesses (output contract, "Finding").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Stable id: `<category>:<type>:<direction>:<slug>:<hash>`, derived
    /// from the category, the type, the logical key and the direction only
    /// (see `docs/findings.md`).
    pub id: String,
    /// What it is about.
    pub category: Category,
    /// The kind of difference.
    #[serde(rename = "type")]
    pub kind: FindingType,
    /// How much it matters.
    pub severity: FindingSeverity,
    /// True for `medium` and `high`.
    pub actionable: bool,
    /// Harnesses that have the item (or have it sooner).
    pub present_in: Vec<Harness>,
    /// Harnesses that lack it (or have it later or never).
    pub absent_from: Vec<Harness>,
    /// The evidence on each side.
    pub items: Vec<FindingItem>,
    /// One sentence a person reads in a pull request.
    pub message: String,
    /// The logical key the id is derived from, readable.
    pub key: String,
    /// The directory of the scope the finding is about, for instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<RepoPath>,
    /// Why each lacking harness lacks the item.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absences: Vec<Absence>,
    /// Paragraphs that differ (instruction `unknown` and coverage `missing`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paragraphs: Vec<ParagraphDiff>,
    /// Fields that differ (skills and MCP servers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<FieldDifference>,
    /// What would make the harnesses agree; filled by the caller, which
    /// knows the harnesses' conventions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remedies: Vec<Remedy>,
    /// Set when the configuration file accepts this id: the difference is
    /// intended. Still reported and counted, it never fails a run
    /// ([`crate::baseline`]); filled by the caller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<crate::baseline::Acceptance>,
    /// Problems in the repository (warning or error diagnostics of kind
    /// repository-problem) that a harness reports about the files of this
    /// finding's evidence: a broken import, a dangling link, a link stored
    /// as text. Fixing them comes before any other remedy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<FindingProblem>,
    /// What the finding is about, for suggesting a fix.
    #[serde(skip)]
    #[schemars(skip)]
    pub subject: Option<Subject>,
}

impl Finding {
    /// What a group of findings names this one by: for a skill or an MCP
    /// server, its name (the key is `name|aspect`, and a name may itself
    /// hold `|`: `|pipe|` is a valid server name), else the key's first
    /// part (an instruction's scope directory).
    pub fn item_name(&self) -> &str {
        match self.category {
            Category::Skill | Category::Mcp | Category::Subagent | Category::Permission => self
                .key
                .rsplit_once('|')
                .map_or(self.key.as_str(), |(name, _aspect)| name),
            _ => self.key.split('|').next().unwrap_or_default(),
        }
    }

    /// The file (and lines) a finding points at first: its first item's
    /// source, else (an `agent` finding, which has no items) the first
    /// source among its problems.
    pub fn first_source(&self) -> Option<&SourceRef> {
        self.items
            .first()
            .map(|i| &i.source)
            .or_else(|| self.problems.iter().find_map(|p| p.source.as_ref()))
    }
}

/// Findings counted by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// `high` findings.
    pub high: usize,
    /// `medium` findings.
    pub medium: usize,
    /// `low` findings.
    pub low: usize,
    /// `info` findings.
    pub info: usize,
    /// Findings among the above that the configuration file accepts
    /// (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub accepted: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// Counts `findings`.
    pub fn of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Summary {
        let mut s = Summary::default();
        for f in findings {
            match f.severity {
                FindingSeverity::High => s.high += 1,
                FindingSeverity::Medium => s.medium += 1,
                FindingSeverity::Low => s.low += 1,
                FindingSeverity::Info => s.info += 1,
            }
            if f.accepted.is_some() {
                s.accepted += 1;
            }
        }
        s
    }

    /// `high + medium`.
    pub fn actionable(&self) -> usize {
        self.high + self.medium
    }

    /// Every finding.
    pub fn total(&self) -> usize {
        self.high + self.medium + self.low + self.info
    }
}

//! What changed between two revisions: for one agent under one context,
//! the instructions, skills, MCP servers, hooks, subagents, commands,
//! output styles, plugins and permissions it receives differently
//! ([`agent_delta`]); for a set of findings, which were introduced,
//! resolved or kept ([`finding_delta`], by stable id); for the problems
//! in the repository the agents report, which the change introduced or
//! resolved ([`problem_delta`]).
//!
//! Like the rest of this crate it reads only the model: items are matched
//! by their source file (instructions) or name (skills, MCP servers), never
//! by a harness's rules.

use crate::paragraphs::{normalize, split};
use crate::{Finding, FindingSeverity, Reception};
use playbookdiff_model::{
    Applicability, DiagnosticCode, DiagnosticKind, EffectiveAgentConfig, Harness, Instruction,
    InstructionKind, LoadPhase, RepoPath, Severity, SourceRef,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// How an item changed between the base and the head revision.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Received at head only.
    Added,
    /// Received at base only.
    Removed,
    /// Received at both, at another place in the order, or with the same
    /// paragraphs in another order (instructions; `paragraphs` then lists
    /// the moved ones).
    Reordered,
    /// Received at both, with other text (instructions).
    Edited,
    /// Received at both, but differently: at startup, on demand, or only
    /// under a condition (its load phase or applicability changed), or for
    /// other files (a path-scoped rule's front-matter `paths` changed).
    Rescoped,
    /// Received at both, with another definition (skills, MCP servers).
    Redefined,
}

impl Change {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Reordered => "reordered",
            Change::Edited => "edited",
            Change::Rescoped => "rescoped",
            Change::Redefined => "redefined",
        }
    }
}

/// Where an instruction piece stands at one revision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PieceState {
    /// Its place in the context (0-based), when it is in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<u32>,
    /// When it loads.
    pub load_phase: LoadPhase,
    /// Whether it applies under the context.
    pub applicability: Applicability,
    /// Its 1-based lines in the file, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<playbookdiff_model::Lines>,
    /// The file it is really read from, when a link leads elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_path: Option<RepoPath>,
    /// The path globs that scope it (a rule's front-matter `paths`), as
    /// written; absent when it is not path-scoped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
}

/// One paragraph removed, added, replaced by another (both set), or
/// moved (the same text at another place among the piece's paragraphs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParagraphChange {
    /// The paragraph at base (normalized text); for a piece edited only
    /// in line endings, trailing whitespace or a byte order mark, its
    /// first differing line as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// The paragraph at head (normalized text, or the line as it is,
    /// as for `removed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added: Option<String>,
    /// A paragraph present at both revisions with the same normalized
    /// text, at another place relative to the others (neither `removed`
    /// nor `added` is then set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<String>,
}

impl ParagraphChange {
    /// True for a paragraph that only moved.
    pub fn is_move(&self) -> bool {
        self.moved.is_some()
    }
}

/// One instruction piece that changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstructionChange {
    /// How.
    pub change: Change,
    /// The file the piece comes from (`source.path`).
    pub path: RepoPath,
    /// What kind of file the piece comes from.
    pub kind: InstructionKind,
    /// The piece at base; absent when added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<PieceState>,
    /// The piece at head; absent when removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<PieceState>,
    /// The paragraphs that differ (`edited`; every paragraph for `added`
    /// and `removed`; the moved ones for `reordered`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paragraphs: Vec<ParagraphChange>,
}

/// One skill or MCP server that changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CapabilityChange {
    /// How (`added`, `removed`, `redefined`).
    pub change: Change,
    /// Its name.
    pub name: String,
    /// The file that defines it (at head, else at base).
    pub path: RepoPath,
    /// The fields whose values differ (`redefined`), in the JSON spelling
    /// of the configuration document (`url`, `env`, `description`…); a
    /// redacted value that changed is named down to its key
    /// (`env.API_KEY`, `headers.Authorization`), never its value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
}

/// What one agent receives differently at head than at base, under one
/// context. Only items the agent receives (or may receive) count: one
/// listed as out of scope, excluded, shadowed or unavailable at a revision
/// is absent from it there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentDelta {
    /// The agent.
    pub harness: Harness,
    /// Instruction pieces added, removed, reordered, edited or rescoped, in
    /// head order (removed ones after).
    pub instructions: Vec<InstructionChange>,
    /// Skills added, removed or redefined, by name.
    pub skills: Vec<CapabilityChange>,
    /// MCP servers added, removed or redefined, by name.
    pub mcp_servers: Vec<CapabilityChange>,
    /// Hooks that may run, added, removed or redefined (a changed
    /// matcher, command or timeout: `matcher`, `handler.command`,
    /// `handler.timeoutSeconds`), named by event and matcher
    /// (`PreToolUse Write|Edit`). A hook a setting turns off is absent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<CapabilityChange>,
    /// Subagents (custom agents) received, by name (a changed tool list:
    /// `tools`, `disallowedTools`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subagents: Vec<CapabilityChange>,
    /// Commands received (where they are not skills), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CapabilityChange>,
    /// Output styles received, by name (the active one selected or not:
    /// `active`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_styles: Vec<CapabilityChange>,
    /// Plugins declared, by name (one enabled or made loadable:
    /// `enabledBy`, `load`; what it brings: `contributions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<CapabilityChange>,
    /// Permission rules and modes the agent honours: a rule by key and
    /// value (`permissions.deny Bash(curl:*)`, added or removed), a mode
    /// by key (`sandbox_mode`, `redefined` with `value`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<CapabilityChange>,
}

impl AgentDelta {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.instructions.is_empty()
            && self.skills.is_empty()
            && self.mcp_servers.is_empty()
            && self.surfaces().all(|(_, list)| list.is_empty())
    }

    /// The changes of hooks, subagents, commands, output styles, plugins
    /// and permissions, in that order, each with the word that names its
    /// kind in a sentence (`hook`, `output style`).
    pub fn surfaces(&self) -> impl Iterator<Item = (&'static str, &[CapabilityChange])> {
        [
            ("hook", self.hooks.as_slice()),
            ("subagent", &self.subagents),
            ("command", &self.commands),
            ("output style", &self.output_styles),
            ("plugin", &self.plugins),
            ("permission", &self.permissions),
        ]
        .into_iter()
    }
}

/// An instruction's identity across revisions: its file, its kind, and
/// which occurrence of that pair it is (a file split around its imports
/// gives several pieces).
type PieceKey = (RepoPath, InstructionKind, usize);

/// True when the agent receives (or may receive) the item from this
/// launch directory: items listed as out of scope, excluded, shadowed or
/// unavailable are not part of what it receives.
pub(crate) fn received(phase: LoadPhase, applicability: Applicability) -> bool {
    Reception::of(phase, applicability).is_received()
}

fn keyed(list: &[Instruction]) -> Vec<(PieceKey, &Instruction)> {
    let mut sorted: Vec<&Instruction> = list
        .iter()
        .filter(|i| received(i.load_phase, i.applicability))
        .collect();
    sorted.sort_by_key(|i| (i.order.is_none(), i.order));
    let mut seen: HashMap<(RepoPath, InstructionKind), usize> = HashMap::new();
    sorted
        .into_iter()
        .map(|i| {
            let k = (i.source.path.clone(), i.kind);
            let n = seen.entry(k.clone()).or_default();
            *n += 1;
            ((k.0, k.1, *n), i)
        })
        .collect()
}

fn state(i: &Instruction) -> PieceState {
    PieceState {
        order: i.order,
        load_phase: i.load_phase,
        applicability: i.applicability,
        lines: i.source.lines,
        resolved_path: i.source.resolved_path.clone(),
        paths: i.paths.clone(),
    }
}

/// The first line that differs between `base` and `head`, two texts
/// whose paragraphs are equal once normalized (they differ only in line
/// endings, trailing whitespace, outer blank lines or a byte order mark),
/// as it is: its `\r`, trailing spaces and byte order mark kept, its
/// line feed kept only when one side lacks it. An agent receives these
/// bytes, so such an edit is `edited` with this one change, never an
/// edit without a visible difference.
pub fn first_changed_line(base: &str, head: &str) -> ParagraphChange {
    let mut a = base.split_inclusive('\n');
    let mut b = head.split_inclusive('\n');
    let (x, y) = loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => break (x.unwrap_or(""), y.unwrap_or("")),
        }
    };
    let (x, y) = match (x.strip_suffix('\n'), y.strip_suffix('\n')) {
        (Some(x), Some(y)) => (x, y),
        _ => (x, y),
    };
    ParagraphChange {
        removed: Some(x.to_string()),
        added: Some(y.to_string()),
        moved: None,
    }
}

/// The paragraphs of `base` and `head` that differ, in head order
/// (removed ones where they stood). A paragraph whose normalized text is
/// removed at one place and added at another is one `moved` change (at its
/// head place), not a removal and an addition; repeated texts are paired
/// one for one.
pub fn paragraph_changes(base: &str, head: &str) -> Vec<ParagraphChange> {
    let a: Vec<String> = split(base).into_iter().map(|p| p.text).collect();
    let b: Vec<String> = split(head).into_iter().map(|p| p.text).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b);
    // Texts both removed somewhere and added somewhere: moves.
    let mut removed_count: HashMap<&str, usize> = HashMap::new();
    let mut added_count: HashMap<&str, usize> = HashMap::new();
    for op in &ops {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        for t in &a[old] {
            *removed_count.entry(t.as_str()).or_default() += 1;
        }
        for t in &b[new] {
            *added_count.entry(t.as_str()).or_default() += 1;
        }
    }
    let mut moves: HashMap<&str, (usize, usize)> = HashMap::new();
    for (t, r) in &removed_count {
        if let Some(n) = added_count.get(t) {
            let m = (*r).min(*n);
            moves.insert(t, (m, m));
        }
    }
    let mut out = Vec::new();
    for op in &ops {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let mut removed: Vec<&String> = Vec::new();
        for t in &a[old] {
            match moves.get_mut(t.as_str()) {
                Some((left, _)) if *left > 0 => *left -= 1,
                _ => removed.push(t),
            }
        }
        let mut added: Vec<Option<&String>> = Vec::new();
        let mut moved_here: Vec<(usize, &String)> = Vec::new();
        for t in &b[new] {
            match moves.get_mut(t.as_str()) {
                Some((_, left)) if *left > 0 => {
                    *left -= 1;
                    moved_here.push((added.len(), t));
                    added.push(None);
                }
                _ => added.push(Some(t)),
            }
        }
        // Pair what is left in place: a removal beside an addition is a
        // replacement; moved paragraphs keep their head place.
        let mut removed = removed.into_iter();
        let mut moved_here = moved_here.into_iter().peekable();
        for (k, t) in added.iter().enumerate() {
            match t {
                Some(t) => out.push(ParagraphChange {
                    removed: removed.next().cloned(),
                    added: Some((*t).clone()),
                    moved: None,
                }),
                None => {
                    if let Some((_, m)) = moved_here.next_if(|(at, _)| *at == k) {
                        out.push(ParagraphChange {
                            moved: Some(m.clone()),
                            ..ParagraphChange::default()
                        });
                    }
                }
            }
        }
        for r in removed {
            out.push(ParagraphChange {
                removed: Some(r.clone()),
                ..ParagraphChange::default()
            });
        }
    }
    out
}

/// What `head` receives differently from `base`: the same harness under
/// the same context at two revisions.
pub fn agent_delta(base: &EffectiveAgentConfig, head: &EffectiveAgentConfig) -> AgentDelta {
    let instructions = instruction_changes(&base.instructions, &head.instructions);
    let skills = capabilities(
        base.skills
            .iter()
            .filter(|s| received(s.load_phase, s.applicability))
            .map(|s| (s.name.clone(), s.source.path.clone(), to_value(s))),
        head.skills
            .iter()
            .filter(|s| received(s.load_phase, s.applicability))
            .map(|s| (s.name.clone(), s.source.path.clone(), to_value(s))),
    );
    let mut mcp_servers = capabilities(
        base.mcp_servers
            .iter()
            .filter(|s| received(s.load_phase, s.applicability))
            .map(|s| (s.name.clone(), s.source.path.clone(), to_value(s))),
        head.mcp_servers
            .iter()
            .filter(|s| received(s.load_phase, s.applicability))
            .map(|s| (s.name.clone(), s.source.path.clone(), to_value(s))),
    );
    redacted_changes(base, head, &mut mcp_servers);
    let surfaces = crate::surface_delta::surface_changes(base, head);
    AgentDelta {
        harness: head.harness,
        instructions,
        skills,
        mcp_servers,
        hooks: surfaces.hooks,
        subagents: surfaces.subagents,
        commands: surfaces.commands,
        output_styles: surfaces.output_styles,
        plugins: surfaces.plugins,
        permissions: surfaces.permissions,
    }
}

/// The changes of the instructions received at two revisions (`base`,
/// `head`): pieces added, removed, edited, rescoped or reordered.
fn instruction_changes(base: &[Instruction], head: &[Instruction]) -> Vec<InstructionChange> {
    let a = keyed(base);
    let b = keyed(head);
    let in_a: HashMap<&PieceKey, &Instruction> = a.iter().map(|(k, i)| (k, *i)).collect();
    let in_b: HashMap<&PieceKey, &Instruction> = b.iter().map(|(k, i)| (k, *i)).collect();

    let moved = moved(&a, &b, &in_a, &in_b);

    let mut instructions = Vec::new();
    for (k, h) in &b {
        let Some(old) = in_a.get(k) else {
            instructions.push(InstructionChange {
                change: Change::Added,
                path: k.0.clone(),
                kind: k.1,
                base: None,
                head: Some(state(h)),
                paragraphs: paragraph_changes("", &h.content),
            });
            continue;
        };
        let mut push = |change: Change, paragraphs: Vec<ParagraphChange>| {
            instructions.push(InstructionChange {
                change,
                path: k.0.clone(),
                kind: k.1,
                base: Some(state(old)),
                head: Some(state(h)),
                paragraphs,
            })
        };
        // Paragraphs that only moved make the piece `reordered` (with the
        // moved ones listed), any other text change `edited`.
        let mut reordered = Vec::new();
        if old.content != h.content {
            let paragraphs = if normalize(&old.content) == normalize(&h.content) {
                vec![first_changed_line(&old.content, &h.content)]
            } else {
                paragraph_changes(&old.content, &h.content)
            };
            if !paragraphs.is_empty() && paragraphs.iter().all(ParagraphChange::is_move) {
                reordered = paragraphs;
            } else {
                push(Change::Edited, paragraphs);
            }
        }
        if Reception::of(old.load_phase, old.applicability)
            != Reception::of(h.load_phase, h.applicability)
            || old.paths != h.paths
        {
            push(Change::Rescoped, Vec::new());
        }
        if moved.contains(k) || !reordered.is_empty() {
            push(Change::Reordered, reordered);
        }
    }
    for (k, old) in &a {
        if !in_b.contains_key(k) {
            instructions.push(InstructionChange {
                change: Change::Removed,
                path: k.0.clone(),
                kind: k.1,
                base: Some(state(old)),
                head: None,
                paragraphs: paragraph_changes(&old.content, ""),
            });
        }
    }
    instructions
}

/// The common pieces (of `a` and `b`, looked up in `in_a` and `in_b`)
/// whose place in the context changed.
fn moved<'k>(
    a: &'k [(PieceKey, &Instruction)],
    b: &'k [(PieceKey, &Instruction)],
    in_a: &HashMap<&PieceKey, &Instruction>,
    in_b: &HashMap<&PieceKey, &Instruction>,
) -> std::collections::HashSet<&'k PieceKey> {
    // Order: the common pieces that hold a place in the context on both
    // sides (an `order`), in base order and in head order; those outside a
    // longest common subsequence moved. A piece without a place on one
    // side (conditional, on demand without a target) only follows the
    // listing, so it never moved: its change of place is a rescope.
    let placed = |k: &PieceKey| {
        in_a.get(k).is_some_and(|i| i.order.is_some())
            && in_b.get(k).is_some_and(|i| i.order.is_some())
    };
    let common_a: Vec<&PieceKey> = a.iter().map(|(k, _)| k).filter(|k| placed(k)).collect();
    let common_b: Vec<&PieceKey> = b.iter().map(|(k, _)| k).filter(|k| placed(k)).collect();
    let mut moved: std::collections::HashSet<&PieceKey> = std::collections::HashSet::new();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &common_a, &common_b) {
        if !matches!(op, similar::DiffOp::Equal { .. }) {
            let (_, _, new) = op.as_tag_tuple();
            for k in &common_b[new] {
                moved.insert(*k);
            }
        }
    }
    moved
}

/// Adds to `changes` the MCP servers received at both revisions whose
/// redacted values changed (a literal `env` or header value, a URL's
/// credentials: shown the same, `<redacted>`), naming each such field
/// (`env.API_KEY`, `headers.Authorization`, `url`), never a value: the
/// values are compared by their fingerprints
/// ([`McpServer::secret_fingerprints`](playbookdiff_model::McpServer::secret_fingerprints)).
/// A fingerprint of 0 (unknown) is never taken for a change.
fn redacted_changes(
    base: &EffectiveAgentConfig,
    head: &EffectiveAgentConfig,
    changes: &mut Vec<CapabilityChange>,
) {
    fn first(c: &EffectiveAgentConfig) -> BTreeMap<String, &playbookdiff_model::McpServer> {
        let mut m: BTreeMap<String, &playbookdiff_model::McpServer> = BTreeMap::new();
        for s in c
            .mcp_servers
            .iter()
            .filter(|s| received(s.load_phase, s.applicability))
        {
            m.entry(s.name.clone()).or_insert(s);
        }
        m
    }
    let (a, b) = (first(base), first(head));
    for (name, new) in &b {
        let Some(old) = a.get(name) else { continue };
        let (fa, fb) = (old.secret_fingerprints(), new.secret_fingerprints());
        let changed: Vec<String> = fb
            .iter()
            .filter(|(k, v)| fa.get(*k).is_some_and(|o| o != *v && *o != 0 && **v != 0))
            .map(|(k, _)| k.clone())
            .collect();
        if changed.is_empty() {
            continue;
        }
        match changes
            .iter_mut()
            .find(|c| c.name == *name && c.change == Change::Redefined)
        {
            Some(c) => {
                for f in changed {
                    if !c.fields.contains(&f) {
                        c.fields.push(f);
                    }
                }
                c.fields.sort();
            }
            None => changes.push(CapabilityChange {
                change: Change::Redefined,
                name: name.clone(),
                path: new.source.path.clone(),
                fields: changed,
            }),
        }
    }
    changes.sort_by(|x, y| x.name.cmp(&y.name).then(x.change.cmp(&y.change)));
}

/// An item as its JSON document, for a field-by-field comparison that
/// needs no knowledge of the fields.
pub(crate) fn to_value<T: Serialize>(item: &T) -> serde_json::Value {
    serde_json::to_value(item).unwrap_or(serde_json::Value::Null)
}

/// What a field of an item's JSON document (an MCP server, a skill…)
/// counts for in `redefined`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FieldRole {
    /// Says how the item was found, not what it is (`id`, `reason`,
    /// `otherSources`): left out.
    Finding,
    /// Says where the item is written (`source`, `metadataSources`):
    /// compared without `lines`, which move when text above them changes.
    Location,
    /// Part of the definition: compared as written.
    Definition,
}

impl FieldRole {
    /// The role of the field named `key` (its JSON spelling).
    fn of(key: &str) -> FieldRole {
        match key {
            "id" | "reason" | "otherSources" => FieldRole::Finding,
            "source" | "metadataSources" => FieldRole::Location,
            _ => FieldRole::Definition,
        }
    }
}

pub(crate) fn definition_fields(a: &serde_json::Value, b: &serde_json::Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let ma = a.as_object().unwrap_or(&empty);
    let mb = b.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = ma.keys().chain(mb.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for k in keys {
        let (va, vb) = (ma.get(k), mb.get(k));
        let differs = match FieldRole::of(k) {
            FieldRole::Finding => false,
            FieldRole::Location => strip_lines(va) != strip_lines(vb),
            FieldRole::Definition => va != vb,
        };
        if !differs {
            continue;
        }
        match (k.as_str(), va, vb) {
            // A skill's advertisement is named down to its fields, so that
            // a new cap or budget is told apart from a changed listing.
            ("advertisement", Some(a), Some(b)) if a.is_object() && b.is_object() => out.extend(
                definition_fields(a, b)
                    .into_iter()
                    .map(|f| format!("{k}.{f}")),
            ),
            _ => out.push(k.clone()),
        }
    }
    out
}

/// Fields of a redefined item that describe how the agent would treat it,
/// not what the model receives: a skill listing's per-description cap,
/// its aggregate budget and why the budget would shorten it (Claude Code
/// 2.1.105 `skillListingMaxDescChars`, 2.1.19 listing budget). The text,
/// state and shortening of the listing entry are other fields.
const METADATA_FIELDS: &[&str] = &[
    "advertisement.descriptionLimitChars",
    "advertisement.aggregateBudget",
    "advertisement.budgetCause",
];

impl CapabilityChange {
    /// True when the model receives something different: an item added
    /// or removed, or redefined in a field other than the metadata of a
    /// skill listing (`advertisement.descriptionLimitChars`,
    /// `advertisement.aggregateBudget`, `advertisement.budgetCause`).
    pub fn changes_for_model(&self) -> bool {
        self.change != Change::Redefined
            || self
                .fields
                .iter()
                .any(|f| !METADATA_FIELDS.contains(&f.as_str()))
    }
}

impl AgentDelta {
    /// True when what the model receives differs (text, presence, order):
    /// any instruction change, or a capability change other than a
    /// metadata-only redefinition ([`CapabilityChange::changes_for_model`]).
    /// A delta that is not empty but has none is listed and fails nothing.
    pub fn changes_for_model(&self) -> bool {
        !self.instructions.is_empty()
            || self
                .skills
                .iter()
                .chain(&self.mcp_servers)
                .chain(self.surfaces().flat_map(|(_, list)| list))
                .any(CapabilityChange::changes_for_model)
    }
}

pub(crate) fn strip_lines(v: Option<&serde_json::Value>) -> Option<serde_json::Value> {
    let mut v = v?.clone();
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("lines");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    Some(v)
}

fn capabilities(
    base: impl Iterator<Item = (String, RepoPath, serde_json::Value)>,
    head: impl Iterator<Item = (String, RepoPath, serde_json::Value)>,
) -> Vec<CapabilityChange> {
    // First definition of a name wins, as in the comparison.
    let mut a: BTreeMap<String, (RepoPath, serde_json::Value)> = BTreeMap::new();
    for (n, p, v) in base {
        a.entry(n).or_insert((p, v));
    }
    let mut b: BTreeMap<String, (RepoPath, serde_json::Value)> = BTreeMap::new();
    for (n, p, v) in head {
        b.entry(n).or_insert((p, v));
    }
    let mut out = Vec::new();
    for (name, (path, v)) in &b {
        match a.get(name) {
            None => out.push(CapabilityChange {
                change: Change::Added,
                name: name.clone(),
                path: path.clone(),
                fields: Vec::new(),
            }),
            Some((_, old)) => {
                let fields = definition_fields(old, v);
                if !fields.is_empty() {
                    out.push(CapabilityChange {
                        change: Change::Redefined,
                        name: name.clone(),
                        path: path.clone(),
                        fields,
                    });
                }
            }
        }
    }
    for (name, (path, _)) in &a {
        if !b.contains_key(name) {
            out.push(CapabilityChange {
                change: Change::Removed,
                name: name.clone(),
                path: path.clone(),
                fields: Vec::new(),
            });
        }
    }
    out.sort_by(|x, y| x.name.cmp(&y.name).then(x.change.cmp(&y.change)));
    out
}

/// A finding of a diff, with the launch directories it occurs in at the
/// revision it is reported from (head for introduced and unchanged, base
/// for resolved).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffFinding {
    /// The finding, as `check` reports it.
    #[serde(flatten)]
    pub finding: Finding,
    /// Where it occurs, sorted.
    pub directories: Vec<RepoPath>,
}

/// Findings by stable id at two revisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindingDelta {
    /// At head only.
    pub introduced: Vec<DiffFinding>,
    /// At base only.
    pub resolved: Vec<DiffFinding>,
    /// At both (as at head).
    pub unchanged: Vec<DiffFinding>,
}

impl FindingDelta {
    /// Introduced findings of severity `medium` or `high`: a diff with one
    /// exits 1.
    pub fn introduced_actionable(&self) -> usize {
        self.introduced
            .iter()
            .filter(|f| f.finding.severity.is_actionable())
            .count()
    }
}

/// Collects findings per launch directory into one list by id (the first
/// occurrence of an id is kept, with every directory it occurs in).
#[derive(Default)]
pub struct FindingSet {
    by_id: BTreeMap<String, DiffFinding>,
}

impl FindingSet {
    /// An empty set.
    pub fn new() -> Self {
        FindingSet::default()
    }

    /// Adds the findings of launch directory `dir`.
    pub fn add(&mut self, dir: &RepoPath, findings: impl IntoIterator<Item = Finding>) {
        for f in findings {
            let e = self
                .by_id
                .entry(f.id.clone())
                .or_insert_with(|| DiffFinding {
                    finding: f,
                    directories: Vec::new(),
                });
            if !e.directories.contains(dir) {
                e.directories.push(dir.clone());
                e.directories.sort();
            }
        }
    }
}

fn rank(f: &DiffFinding) -> (crate::Category, FindingSeverity, String) {
    (f.finding.category, f.finding.severity, f.finding.id.clone())
}

/// Introduced (head only), resolved (base only) and unchanged (both)
/// findings by stable id, each list by category, severity, then id.
pub fn finding_delta(base: FindingSet, head: FindingSet) -> FindingDelta {
    let mut base = base.by_id;
    let mut out = FindingDelta::default();
    for (id, f) in head.by_id {
        if base.remove(&id).is_some() {
            out.unchanged.push(f);
        } else {
            out.introduced.push(f);
        }
    }
    out.resolved = base.into_values().collect();
    for list in [&mut out.introduced, &mut out.resolved, &mut out.unchanged] {
        list.sort_by_key(rank);
    }
    out
}

/// A problem in the repository (a diagnostic of kind
/// `repository-problem` with severity `warning` or `error`: invalid JSON,
/// a configuration Codex refuses, a broken import…) at one revision, with
/// the harnesses that report it and the launch directories it is reported
/// from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffProblem {
    /// The diagnostic code (`docs/diagnostics.md`).
    pub code: DiagnosticCode,
    /// The diagnostic's severity (`warning` or `error`).
    pub severity: Severity,
    /// The harnesses that report it, in harness order.
    pub harnesses: Vec<Harness>,
    /// The message of the first harness reporting it from the first
    /// launch directory in path order (whatever order directories are
    /// checked in): what is wrong, what the harness does, what to do.
    pub message: String,
    /// The file (and lines) it is about, when it is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
    /// What in that file it is about (an MCP server, a key), when the
    /// diagnostic says (`Diagnostic::subject`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The launch directories it is reported from, sorted.
    pub directories: Vec<RepoPath>,
    /// The ids of the head's findings whose evidence is in the same file
    /// (introduced or unchanged), sorted: such a finding already weighs
    /// what the problem does to the agents, and decides in its place
    /// whether the run fails ([`ProblemDelta::failing`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
}

impl DiffProblem {
    /// The first reporting harness's diagnostic it stands for (code,
    /// severity, message, file and subject), for reports that show
    /// diagnostics.
    pub fn diagnostic(&self) -> playbookdiff_model::Diagnostic {
        let mut d = playbookdiff_model::Diagnostic::new(self.code, self.message.clone())
            .with_severity(self.severity);
        d.source = self.source.clone();
        d.subject = self.subject.clone();
        d
    }

    /// How much it weighs against `fail-on`: an `error` (the harness loses
    /// configuration or does not start) as a `high` finding, a `warning`
    /// as a `medium` one; both are actionable.
    pub fn weight(&self) -> FindingSeverity {
        match self.severity {
            Severity::Error => FindingSeverity::High,
            _ => FindingSeverity::Medium,
        }
    }

    /// Sets [`DiffProblem::findings`]: the ids of the findings of `files`
    /// with evidence in the problem's file (an item from it, or a problem
    /// of the finding's own about it, as a "would not start" finding has),
    /// sorted, each once; none when the problem is about no file.
    pub fn link(&mut self, files: &FindingFiles<'_>) {
        self.findings.clear();
        let Some(source) = &self.source else {
            return;
        };
        self.findings = files.ids(&source.path).map(str::to_string).collect();
        self.findings.sort();
        self.findings.dedup();
    }

    /// True when the problem fails the run on its own under `fail_on`:
    /// its [`DiffProblem::weight`] reaches the threshold and no finding is
    /// linked to it ([`DiffProblem::link`]), and it is not one the findings
    /// measure alone (`agents-md-not-bridged`). A linked finding weighs what
    /// the agents receive from that file (and may be accepted), so it
    /// decides alone: a problem is never counted twice. The one rule of
    /// `check`, `check --all-dirs` and `diff` (for an introduced problem).
    pub fn fails(&self, fail_on: crate::FailOn) -> bool {
        self.findings.is_empty() && self.may_fail(fail_on)
    }

    /// True when the problem fails the run under `fail_on` unless a
    /// finding is linked to it: [`DiffProblem::fails`] before linking, so
    /// that a problem that cannot fail is never linked.
    pub fn may_fail(&self, fail_on: crate::FailOn) -> bool {
        !self.measured_by_findings() && fail_on.reaches(self.weight())
    }

    /// True for a problem whose whole effect the comparison measures as
    /// findings in the launch directories it matters to, and nowhere
    /// else: an `AGENTS.md` that no `CLAUDE.md` bridges
    /// (`agents-md-not-bridged`) is a `missing` finding where Codex reads
    /// it and Claude Code does not; from another launch directory (the
    /// root, for `apps/api/AGENTS.md`) neither agent reads it, so counted
    /// alone it would fail a directory where the agents agree. Such a
    /// problem is still reported; it never fails the run on its own.
    fn measured_by_findings(&self) -> bool {
        self.code == DiagnosticCode::AgentsMdNotBridged
    }
}

/// The ids of findings by the files their evidence is in: the path and
/// the resolved path of each item's source and of each of the finding's
/// own problems. Built once for a set of findings, so that linking each
/// problem to them ([`DiffProblem::link`]) is one look-up, not a pass over
/// every finding's items.
#[derive(Default)]
pub struct FindingFiles<'f> {
    by_file: HashMap<&'f RepoPath, Vec<&'f str>>,
}

impl<'f> FindingFiles<'f> {
    /// The index of `findings`.
    pub fn new(findings: impl IntoIterator<Item = &'f Finding>) -> Self {
        let mut files = FindingFiles::default();
        for f in findings {
            let sources = f
                .items
                .iter()
                .map(|i| &i.source)
                .chain(f.problems.iter().filter_map(|p| p.source.as_ref()));
            for s in sources {
                files.add(&s.path, &f.id);
                if let Some(resolved) = &s.resolved_path {
                    files.add(resolved, &f.id);
                }
            }
        }
        files
    }

    fn add(&mut self, path: &'f RepoPath, id: &'f str) {
        let ids = self.by_file.entry(path).or_default();
        if ids.last() != Some(&id) {
            ids.push(id);
        }
    }

    /// The ids of the findings with evidence in `path`, in the order the
    /// findings came, possibly repeated.
    pub fn ids(&self, path: &RepoPath) -> impl Iterator<Item = &'f str> + '_ {
        self.by_file.get(path).into_iter().flatten().copied()
    }
}

/// Problems in the repository at two revisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProblemDelta {
    /// Reported at head only: the change introduced them.
    pub introduced: Vec<DiffProblem>,
    /// Reported at base only: the change resolved them.
    pub resolved: Vec<DiffProblem>,
    /// How many are reported at both revisions.
    pub unchanged: usize,
}

impl ProblemDelta {
    /// Links every introduced problem about a file to the head's findings
    /// (introduced and unchanged) with evidence in that file
    /// ([`DiffProblem::link`]).
    pub fn link(&mut self, findings: &FindingDelta) {
        if self.introduced.is_empty() {
            return;
        }
        let files = FindingFiles::new(
            findings
                .introduced
                .iter()
                .chain(&findings.unchanged)
                .map(|f| &f.finding),
        );
        for p in &mut self.introduced {
            p.link(&files);
        }
    }

    /// How many introduced problems fail the run on their own under
    /// `fail_on` ([`DiffProblem::fails`]).
    pub fn failing(&self, fail_on: crate::FailOn) -> usize {
        self.introduced.iter().filter(|p| p.fails(fail_on)).count()
    }
}

/// A problem's identity across launch directories (and revisions): its
/// code, the file it is about, what in that file it is about (the
/// diagnostic's `subject`: an MCP server, a key), and, within one
/// revision, its first line. The message does not count (it names the
/// launch directory). Across revisions ([`ProblemSet::new`]) the line
/// does not count either (it moves when text above it changes), so two
/// problems of one code about one file and one subject are one there.
type ProblemKey = (
    DiagnosticCode,
    Option<RepoPath>,
    Option<String>,
    Option<u32>,
);

/// True for a problem in the repository: a warning or error diagnostic of
/// kind `repository-problem`.
pub fn is_problem(d: &playbookdiff_model::Diagnostic) -> bool {
    d.code.kind() == DiagnosticKind::RepositoryProblem && d.severity != Severity::Info
}

/// Collects the problems in the repository of each launch directory's
/// configurations into one list by `ProblemKey`.
#[derive(Default)]
pub struct ProblemSet {
    by_key: BTreeMap<ProblemKey, DiffProblem>,
    with_lines: bool,
}

impl ProblemSet {
    /// An empty set for comparing two revisions (lines ignored).
    pub fn new() -> Self {
        ProblemSet::default()
    }

    /// An empty set for the launch directories of one revision (`check
    /// --all-dirs`): problems at other lines of one file stay apart.
    pub fn at_one_revision() -> Self {
        ProblemSet {
            with_lines: true,
            ..ProblemSet::default()
        }
    }

    /// Adds the problems in the repository ([`is_problem`]) that `configs`
    /// report from launch directory `dir`.
    pub fn add(&mut self, dir: &RepoPath, configs: &[EffectiveAgentConfig]) {
        for c in configs {
            for d in c.diagnostics.iter().filter(|d| is_problem(d)) {
                self.add_one(dir, c.harness, d);
            }
        }
    }

    /// Adds one problem `harness` reports from `dir`.
    pub fn add_one(
        &mut self,
        dir: &RepoPath,
        harness: Harness,
        d: &playbookdiff_model::Diagnostic,
    ) {
        let line = if self.with_lines {
            d.source.as_ref().and_then(|s| s.lines).map(|l| l.start)
        } else {
            None
        };
        let key = (
            d.code,
            d.source.as_ref().map(|s| s.path.clone()),
            d.subject.clone(),
            line,
        );
        let e = self.by_key.entry(key).or_insert_with(|| DiffProblem {
            code: d.code,
            severity: d.severity,
            harnesses: Vec::new(),
            message: d.message.clone(),
            source: d.source.clone(),
            subject: d.subject.clone(),
            directories: Vec::new(),
            findings: Vec::new(),
        });
        if d.severity < e.severity {
            e.severity = d.severity;
        }
        // The words of the first launch directory in path order, whatever
        // order the directories arrive in (a message may name its launch
        // directory), so the report is the same on every run.
        if e.directories.first().is_some_and(|first| dir < first) {
            e.message = d.message.clone();
            e.source = d.source.clone();
        }
        if !e.harnesses.contains(&harness) {
            e.harnesses.push(harness);
            e.harnesses.sort();
        }
        if !e.directories.contains(dir) {
            e.directories.push(dir.clone());
            e.directories.sort();
        }
    }

    /// Every problem once, by file (those about no file first), then code.
    pub fn finish(self) -> Vec<DiffProblem> {
        let mut out: Vec<DiffProblem> = self.by_key.into_values().collect();
        out.sort_by(|a, b| {
            let key = |p: &DiffProblem| {
                (
                    p.source.as_ref().map(|s| s.path.clone()),
                    p.source.as_ref().and_then(|s| s.lines).map(|l| l.start),
                    p.code.as_str(),
                    p.subject.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        out
    }
}

/// The problems in the repository reported at head only (introduced) and
/// at base only (resolved), each list by severity, code, then file.
pub fn problem_delta(base: ProblemSet, head: ProblemSet) -> ProblemDelta {
    let mut base = base.by_key;
    let mut out = ProblemDelta::default();
    for (k, p) in head.by_key {
        if base.remove(&k).is_some() {
            out.unchanged += 1;
        } else {
            out.introduced.push(p);
        }
    }
    out.resolved = base.into_values().collect();
    for list in [&mut out.introduced, &mut out.resolved] {
        list.sort_by(|a, b| {
            (
                a.severity,
                a.code.as_str(),
                a.source.as_ref().map(|s| &s.path),
                &a.subject,
            )
                .cmp(&(
                    b.severity,
                    b.code.as_str(),
                    b.source.as_ref().map(|s| &s.path),
                    &b.subject,
                ))
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_added_removed_and_replaced() {
        let c = paragraph_changes("# A\n\nkeep\n\nold\n", "# A\n\nkeep\n\nnew\n\nmore\n");
        assert_eq!(
            c,
            [
                ParagraphChange {
                    removed: Some("old".into()),
                    added: Some("new".into()),
                    moved: None,
                },
                ParagraphChange {
                    removed: None,
                    added: Some("more".into()),
                    moved: None,
                },
            ]
        );
        assert!(paragraph_changes("a\n\nb", "a\r\n\r\nb  ").is_empty());
        // Such an edit still changes what the agent receives: its first
        // differing line, as it is, is the change shown.
        for (base, head, removed, added) in [
            ("a\nb\n", "a\r\nb\r\n", "a", "a\r"),
            ("a\nb\n", "a\nb  \n", "b", "b  "),
            ("# T\nb\n", "\u{feff}# T\nb\n", "# T", "\u{feff}# T"),
            ("a\nb\n", "a\nb", "b\n", "b"),
        ] {
            let c = first_changed_line(base, head);
            assert_eq!(
                (c.removed.as_deref(), c.added.as_deref()),
                (Some(removed), Some(added)),
                "{head:?}"
            );
        }
    }

    #[test]
    fn swapped_paragraphs_are_one_move_not_an_addition_and_a_removal() {
        let moved = |t: &str| ParagraphChange {
            moved: Some(t.into()),
            ..ParagraphChange::default()
        };
        assert_eq!(
            paragraph_changes("First.\n\nSecond.\n", "Second.\n\nFirst.\n"),
            [moved("Second.")]
        );
        // Three paragraphs rotated, one edited: the moves stay moves, the
        // edit stays a replacement.
        let c = paragraph_changes("A.\n\nB.\n\nC.\n", "C.\n\nA.\n\nB, changed.\n");
        assert_eq!(
            c,
            [
                moved("C."),
                ParagraphChange {
                    removed: Some("B.".into()),
                    added: Some("B, changed.".into()),
                    moved: None,
                },
            ]
        );
        // A repeated paragraph moves once per copy that moved.
        let c = paragraph_changes("X.\n\nY.\n\nX.\n", "Y.\n\nX.\n\nX.\n\nX.\n");
        assert!(c.iter().filter(|p| p.is_move()).count() <= 1, "{c:?}");
        assert_eq!(
            c.iter()
                .filter(|p| p.added.as_deref() == Some("X."))
                .count(),
            1,
            "{c:?}"
        );
    }

    #[test]
    fn problems_are_introduced_and_resolved_by_code_and_file() {
        use playbookdiff_model::{AnalysisContext, Diagnostic, SourceFormat};
        let h = Harness::new("alpha", "Alpha");
        let config = |diags: Vec<Diagnostic>| {
            let mut c = EffectiveAgentConfig::new(h, AnalysisContext::at_root());
            c.diagnostics = diags;
            c
        };
        let at = |code: DiagnosticCode, path: &str, line: u32| {
            let mut d = Diagnostic::new(code, format!("{path} is wrong at line {line}"));
            d.source = Some(
                SourceRef::project(RepoPath::new(path).unwrap(), SourceFormat::Json)
                    .with_lines(line, line),
            );
            d
        };
        let root = RepoPath::root();
        let mut base = ProblemSet::new();
        base.add(
            &root,
            &[config(vec![
                at(DiagnosticCode::InvalidToml, "a.toml", 1),
                at(DiagnosticCode::ImportMissing, "CLAUDE.md", 3),
            ])],
        );
        let mut head = ProblemSet::new();
        head.add(
            &root,
            &[config(vec![
                // Moved down a line: the same problem.
                at(DiagnosticCode::ImportMissing, "CLAUDE.md", 4),
                at(DiagnosticCode::InvalidJson, ".mcp.json", 1),
                // Info is no problem to act on.
                at(DiagnosticCode::ExcludeMachineSpecific, "x.json", 1),
            ])],
        );
        let d = problem_delta(base, head);
        let codes = |l: &[DiffProblem]| l.iter().map(|p| p.code).collect::<Vec<_>>();
        assert_eq!(codes(&d.introduced), [DiagnosticCode::InvalidJson]);
        assert_eq!(codes(&d.resolved), [DiagnosticCode::InvalidToml]);
        assert_eq!(d.unchanged, 1);
        assert_eq!(d.introduced[0].weight(), FindingSeverity::High);
        assert_eq!(d.introduced[0].harnesses, [h]);
        assert_eq!(d.introduced[0].directories, [root]);
    }

    /// A problem links to every finding with evidence in its file, by each
    /// way a finding holds a file (an item's path, an item's resolved
    /// path, a problem of the finding's own), sorted and each once, and to
    /// no finding about other files; a problem about no file links to none.
    #[test]
    fn a_problem_links_to_the_findings_with_evidence_in_its_file() {
        use crate::draft::FindingDraft;
        use playbookdiff_model::SourceFormat;
        let h = Harness::new("alpha", "Alpha");
        let file = |p: &str| SourceRef::project(RepoPath::new(p).unwrap(), SourceFormat::Markdown);
        let finding = |id: &str, items: Vec<SourceRef>, problems: Vec<SourceRef>| {
            let mut draft = FindingDraft::named(
                crate::Category::Instruction,
                (crate::FindingType::Missing, FindingSeverity::Medium),
                id,
                "a",
            );
            draft.items = items
                .into_iter()
                .map(|source| crate::FindingItem {
                    harness: h,
                    id: id.into(),
                    source,
                    load_phase: LoadPhase::Startup,
                    applicability: Applicability::Effective,
                    reason: String::new(),
                })
                .collect();
            let mut f = draft.build_as(id.into());
            f.problems = problems
                .into_iter()
                .map(|s| crate::FindingProblem {
                    harness: h,
                    code: DiagnosticCode::InvalidJson,
                    message: String::new(),
                    source: Some(s),
                })
                .collect();
            f
        };
        let mut linked = file("CLAUDE.md");
        linked.resolved_path = Some(RepoPath::new("AGENTS.md").unwrap());
        let findings = [
            finding("z-item", vec![file("AGENTS.md"), file("AGENTS.md")], vec![]),
            finding("a-resolved", vec![linked], vec![]),
            finding("m-problem", vec![file("other.md")], vec![file("AGENTS.md")]),
            finding("other", vec![file("other.md")], vec![]),
            finding("z-item", vec![file("AGENTS.md")], vec![]),
        ];
        let files = FindingFiles::new(&findings);
        let problem = |source: Option<SourceRef>| DiffProblem {
            code: DiagnosticCode::InvalidJson,
            severity: Severity::Error,
            harnesses: vec![h],
            message: String::new(),
            source,
            subject: None,
            directories: vec![RepoPath::root()],
            findings: vec!["stale".into()],
        };
        let mut p = problem(Some(file("AGENTS.md")));
        p.link(&files);
        assert_eq!(p.findings, ["a-resolved", "m-problem", "z-item"]);
        let mut p = problem(Some(file("README.md")));
        p.link(&files);
        assert!(p.findings.is_empty());
        let mut p = problem(None);
        p.link(&files);
        assert!(p.findings.is_empty());
    }

    /// The one rule of `check`, `check --all-dirs` and `diff`: an error
    /// fails from `high`, a warning from `medium` (an unreadable file, a
    /// FIFO where a file is read, invalid JSON…), nothing under `never`,
    /// and a problem a finding is linked to never fails on its own.
    #[test]
    fn a_problem_fails_by_its_weight_unless_a_finding_decides() {
        use crate::FailOn;
        use playbookdiff_model::{AnalysisContext, Diagnostic, SourceFormat};
        let h = Harness::new("alpha", "Alpha");
        for (code, severity) in [
            (DiagnosticCode::Unreadable, Severity::Warning),
            (DiagnosticCode::NotARegularFile, Severity::Warning),
            (DiagnosticCode::NotARegularFile, Severity::Error),
            (DiagnosticCode::InvalidJson, Severity::Error),
            (DiagnosticCode::InvalidToml, Severity::Error),
        ] {
            let mut d = Diagnostic::new(code, "x").with_severity(severity);
            d.source = Some(SourceRef::project(
                RepoPath::new(".mcp.json").unwrap(),
                SourceFormat::Json,
            ));
            let mut c = EffectiveAgentConfig::new(h, AnalysisContext::at_root());
            c.diagnostics = vec![d];
            let mut set = ProblemSet::at_one_revision();
            set.add(&RepoPath::root(), &[c]);
            let mut p = set.finish().remove(0);
            p.link(&FindingFiles::default());
            let error = severity == Severity::Error;
            for (t, fails) in [
                (FailOn::High, error),
                (FailOn::Medium, true),
                (FailOn::Low, true),
                (FailOn::Info, true),
                (FailOn::Never, false),
            ] {
                assert_eq!(p.fails(t), fails, "{code:?} {severity:?} {}", t.as_str());
            }
            p.findings = vec!["mcp:different:both:a:0123456789ab".into()];
            assert!(FailOn::ALL.iter().all(|t| !p.fails(*t)), "{code:?}");
        }
        // An unbridged AGENTS.md is measured by its findings only.
        let mut d = Diagnostic::new(DiagnosticCode::AgentsMdNotBridged, "x");
        d.source = Some(SourceRef::project(
            RepoPath::new("apps/api/AGENTS.md").unwrap(),
            SourceFormat::Markdown,
        ));
        let mut c = EffectiveAgentConfig::new(h, AnalysisContext::at_root());
        c.diagnostics = vec![d];
        let mut set = ProblemSet::at_one_revision();
        set.add(&RepoPath::root(), &[c]);
        let p = set.finish().remove(0);
        assert!(FailOn::ALL.iter().all(|t| !p.fails(*t)));
    }

    /// A skill's advertisement is named down to its fields; a new cap or
    /// budget alone changes nothing the model receives, a new state does.
    #[test]
    fn listing_metadata_alone_is_no_change_for_the_model() {
        let a =
            serde_json::json!({"advertisement": {"state": "advertised", "descriptionChars": 28}});
        let b = serde_json::json!({"advertisement": {"state": "advertised", "descriptionChars": 28,
            "descriptionLimitChars": 1536, "aggregateBudget": {"chars": 15000}}});
        let fields = definition_fields(&a, &b);
        assert_eq!(
            fields,
            [
                "advertisement.aggregateBudget",
                "advertisement.descriptionLimitChars"
            ]
        );
        let change = |change, fields: Vec<String>| CapabilityChange {
            change,
            name: "dedupe".into(),
            path: RepoPath::new(".claude/commands/dedupe.md").unwrap(),
            fields,
        };
        assert!(!change(Change::Redefined, fields).changes_for_model());
        let c = serde_json::json!({"advertisement": {"state": "hidden", "descriptionChars": 28}});
        let fields = definition_fields(&a, &c);
        assert_eq!(fields, ["advertisement.state"]);
        assert!(change(Change::Redefined, fields).changes_for_model());
        assert!(change(Change::Added, Vec::new()).changes_for_model());
    }

    #[test]
    fn fields_ignore_lines_and_ids() {
        let a = serde_json::json!({"id": "x1", "url": "https://a", "source": {"path": "p", "lines": {"start": 1, "end": 2}}});
        let b = serde_json::json!({"id": "x2", "url": "https://b", "source": {"path": "p", "lines": {"start": 3, "end": 4}}});
        assert_eq!(definition_fields(&a, &b), ["url"]);
    }

    /// Every field that says how an item was found is left out, every
    /// location is compared by its path (not its lines), and any other
    /// field counts.
    #[test]
    fn each_field_counts_by_its_role() {
        let at = |path: &str, start: u32| serde_json::json!([{"path": path, "lines": {"start": start, "end": start}}]);
        let a = serde_json::json!({"id": "a", "reason": "r1", "otherSources": ["x"], "metadataSources": at("s/SKILL.md", 1), "description": "d"});
        let b = serde_json::json!({"id": "b", "reason": "r2", "otherSources": ["y"], "metadataSources": at("s/SKILL.md", 9), "description": "d"});
        assert!(definition_fields(&a, &b).is_empty());
        let c = serde_json::json!({"id": "a", "reason": "r1", "otherSources": ["x"], "metadataSources": at("t/SKILL.md", 1), "description": "e"});
        assert_eq!(
            definition_fields(&a, &c),
            ["description", "metadataSources"]
        );
    }

    /// Root `CLAUDE.md` imports `AGENTS.md`; launched in `services/pay`
    /// the import is conditional (outside the launch directory, so it
    /// waits for an approval) and has no place in the context. When a rule
    /// that the target matched stops matching it, the rule is rescoped,
    /// and the import, which has no place on either side, did not move:
    /// the diff said `reordered (position - -> -)` for it.
    #[test]
    fn a_piece_without_a_place_on_either_side_is_never_reordered() {
        use playbookdiff_testkit::fs::write;
        let dir = |go_paths: &str| {
            let t = tempfile::tempdir().expect("tempdir");
            let r = t.path();
            write(r, "CLAUDE.md", "@AGENTS.md\n");
            write(r, "AGENTS.md", "# Team rules\n\nUse pnpm.\n");
            write(
                r,
                ".claude/rules/go.md",
                format!("---\npaths:\n  - \"{go_paths}\"\n---\nGo rules\n"),
            );
            write(r, "services/pay/src/main.go", "");
            let ctx = playbookdiff_testkit::at_root()
                .cwd("services/pay")
                .target("services/pay/src/main.go");
            playbookdiff_testkit::compile_dir(&playbookdiff_claude::ADAPTER, r, &ctx)
        };
        let base = dir("services/**/*.go");
        let head = dir("services/**/*.ts");
        let agents = |c: &EffectiveAgentConfig| {
            c.instructions
                .iter()
                .find(|i| i.source.path.as_str() == "AGENTS.md")
                .map(|i| (i.order, i.applicability))
        };
        assert_eq!(agents(&base), Some((None, Applicability::Conditional)));
        assert_eq!(agents(&head), Some((None, Applicability::Conditional)));
        let d = agent_delta(&base, &head);
        let changes: Vec<(String, Change)> = d
            .instructions
            .iter()
            .map(|c| (c.path.to_string(), c.change))
            .collect();
        assert_eq!(
            changes,
            [(".claude/rules/go.md".to_string(), Change::Rescoped)],
            "{changes:?}"
        );
    }
}

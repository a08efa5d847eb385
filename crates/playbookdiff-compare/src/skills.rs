//! Skills, matched by name; among several skills of one name on one side,
//! the best received one represents it, preferring one whose resolved
//! `SKILL.md` another side has too.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::state::Reception;
use crate::{absence, display_name, names, Cell, DiagnosticIndex, Row, Rows};
use playbookdiff_model::{
    AdvertisementState, EffectiveAgentConfig, Harness, Permission, RepoPath, Skill,
};
use std::collections::{BTreeMap, HashMap};

fn file_of(s: &Skill) -> RepoPath {
    s.source
        .resolved_path
        .clone()
        .unwrap_or_else(|| s.source.path.clone())
}

/// The file of `s` that [`file_of`] names, borrowed.
fn file_ref(s: &Skill) -> &RepoPath {
    s.source.resolved_path.as_ref().unwrap_or(&s.source.path)
}

fn reception(s: &Skill) -> Reception {
    Reception::of(s.load_phase, s.applicability)
}

fn item(h: Harness, s: &Skill) -> FindingItem {
    FindingItem {
        harness: h,
        id: s.id.clone(),
        source: s.source.clone(),
        load_phase: s.load_phase,
        applicability: s.applicability,
        reason: s.reason.clone(),
    }
}

fn perm(p: Permission) -> &'static str {
    match p {
        Permission::Allowed => "allowed",
        Permission::Blocked => "blocked",
        Permission::Unknown => "unknown",
    }
}

fn adv(a: AdvertisementState) -> &'static str {
    match a {
        AdvertisementState::Advertised
        | AdvertisementState::BudgetRisk
        | AdvertisementState::Shortened => "advertised",
        AdvertisementState::Hidden | AdvertisementState::Omitted => "hidden",
        AdvertisementState::Unknown => "unknown",
    }
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn loose(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One skill across the harnesses: the names it goes by and the skills
/// each harness has under them (one list per harness, in `configs`
/// order).
///
/// Skills are matched by name; and two names whose skills read the same
/// resolved `SKILL.md`, received under each name, are one skill with two
/// names when no harness has both (Codex names a plugin's skill `plugin:name` where OpenCode reads
/// the same file as `name`): the same file received under two names is
/// not two gaps.
struct Entry<'c> {
    /// The names; most entries have one. Of several, the first is the one
    /// most harnesses use (else the shortest non-empty one), the others
    /// follow sorted.
    names: Vec<&'c str>,
    sides: Vec<Vec<&'c Skill>>,
}

impl<'c> Entry<'c> {
    /// The entry's name in rows and finding keys: its names joined with
    /// ` = ` (the one name of most entries, so their ids stay those of a
    /// match by name).
    fn label(&self) -> String {
        self.names.join(" = ")
    }

    /// The names for a sentence about a skill lacking: "`a`", "`a` or `b`".
    fn either(&self) -> String {
        let spans: Vec<String> = self.names.iter().map(|n| crate::code_span(n)).collect();
        match spans.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => spans.concat(),
        }
    }

    /// The skill for a sentence: its first name, then each other name with
    /// the harnesses that use it ("`a` (Codex names it `p:a`)").
    fn phrase(&self, sides: &[Side<'_>]) -> String {
        let first = crate::code_span(self.names[0]);
        let others: Vec<String> = self.names[1..]
            .iter()
            .filter_map(|other| {
                let hs: Vec<Harness> = sides
                    .iter()
                    .filter(|side| side.skill.is_some_and(|s| s.name == *other))
                    .map(|side| side.harness)
                    .collect();
                let verb = if hs.len() == 1 { "names" } else { "name" };
                (!hs.is_empty())
                    .then(|| format!("{} {verb} it {}", names(&hs), crate::code_span(other)))
            })
            .collect();
        if others.is_empty() {
            first
        } else {
            format!("{first} ({})", others.join("; "))
        }
    }
}

/// The skills of `configs` as [`Entry`] values, in the order of their
/// first name. A harness's own built-in skills (scope `builtin`, such as
/// the system skills Codex writes into its home) are not compared: every
/// installation of the release has them, so a gap there says nothing of
/// the repository or of the user's configuration.
fn entries<'c>(configs: &[&'c EffectiveAgentConfig]) -> Vec<Entry<'c>> {
    let n = configs.len();
    let mut by_name: BTreeMap<&str, Vec<Vec<&Skill>>> = BTreeMap::new();
    for (h, c) in configs.iter().enumerate() {
        for s in c
            .skills
            .iter()
            .filter(|s| s.source.scope != playbookdiff_model::SourceScope::Builtin)
        {
            by_name
                .entry(s.name.as_str())
                .or_insert_with(|| vec![Vec::new(); n])[h]
                .push(s);
        }
    }
    let groups: Vec<(&str, Vec<Vec<&Skill>>)> = by_name.into_iter().collect();
    // Union-find over the names: a name joins the first name seen with the
    // same received file when their harnesses are disjoint.
    let mut parent: Vec<usize> = (0..groups.len()).collect();
    let mut has: Vec<Vec<bool>> = groups
        .iter()
        .map(|(_, sides)| sides.iter().map(|v| !v.is_empty()).collect())
        .collect();
    let mut by_file: HashMap<&RepoPath, usize> = HashMap::new();
    for (i, (_, sides)) in groups.iter().enumerate() {
        for s in sides
            .iter()
            .flatten()
            .filter(|s| reception(s).is_received())
        {
            let Some(&j) = by_file.get(file_ref(s)) else {
                by_file.insert(file_ref(s), i);
                continue;
            };
            let (a, b) = (root(&mut parent, j), root(&mut parent, i));
            if a != b && (0..n).all(|h| !(has[a][h] && has[b][h])) {
                parent[b] = a;
                has[a] = (0..n).map(|h| has[a][h] || has[b][h]).collect();
            }
        }
    }
    let mut merged: BTreeMap<usize, Entry<'c>> = BTreeMap::new();
    for (i, (name, sides)) in groups.into_iter().enumerate() {
        let r = root(&mut parent, i);
        let e = merged.entry(r).or_insert_with(|| Entry {
            names: Vec::new(),
            sides: vec![Vec::new(); n],
        });
        e.names.push(name);
        for (h, v) in sides.into_iter().enumerate() {
            e.sides[h].extend(v);
        }
    }
    let mut out: Vec<Entry<'c>> = merged.into_values().collect();
    for e in out.iter_mut().filter(|e| e.names.len() > 1) {
        let first = e
            .names
            .iter()
            .copied()
            .min_by_key(|name| {
                let users = e
                    .sides
                    .iter()
                    .filter(|v| v.iter().any(|s| s.name == *name))
                    .count();
                (std::cmp::Reverse(users), name.is_empty(), name.len(), *name)
            })
            .expect("two names");
        e.names.retain(|n| *n != first);
        e.names.insert(0, first);
    }
    out
}

fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// One harness's side of an [`Entry`]: the harness, its diagnostics (why
/// it may lack the skill) and the skill that represents it there, if any.
#[derive(Clone, Copy)]
struct Side<'a> {
    harness: Harness,
    diagnostics: &'a DiagnosticIndex<'a>,
    skill: Option<&'a Skill>,
}

impl Side<'_> {
    fn reception(&self) -> Option<Reception> {
        self.skill.map(reception)
    }

    fn received(&self) -> bool {
        self.reception().is_some_and(Reception::is_received)
    }
}

/// One entry as its row and findings see it: its label (the key's name)
/// and one [`Side`] per harness, in `configs` order.
struct Case<'a> {
    entry: &'a Entry<'a>,
    label: String,
    sides: Vec<Side<'a>>,
}

impl<'a> Case<'a> {
    /// The case of `entry`: on each side, among several skills of the
    /// entry, the best received one, preferring one whose resolved
    /// `SKILL.md` another skill of the entry has too, then the first path.
    fn new(
        entry: &'a Entry<'a>,
        configs: &[&EffectiveAgentConfig],
        diagnostics: &'a [DiagnosticIndex<'a>],
    ) -> Case<'a> {
        let all_files: Vec<&RepoPath> = entry.sides.iter().flatten().map(|s| file_ref(s)).collect();
        let sides = entry
            .sides
            .iter()
            .zip(configs)
            .zip(diagnostics)
            .map(|((v, c), diagnostics)| Side {
                harness: c.harness,
                diagnostics,
                skill: v
                    .iter()
                    .min_by_key(|s| {
                        let s: &Skill = s;
                        let file = file_ref(s);
                        let shared = all_files.iter().filter(|f| **f == file).count() > 1;
                        (reception(s), !shared, &s.source.path)
                    })
                    .copied(),
            })
            .collect();
        Case {
            entry,
            label: entry.label(),
            sides,
        }
    }

    fn harnesses(&self, pick: impl Fn(&Side<'a>) -> bool) -> Vec<Harness> {
        self.sides
            .iter()
            .filter(|s| pick(s))
            .map(|s| s.harness)
            .collect()
    }

    /// The skill of every side, when every side has one.
    fn all(&self) -> Option<Vec<&'a Skill>> {
        self.sides.iter().map(|s| s.skill).collect()
    }

    /// The files the receiving sides read, sorted, each once.
    fn files(&self) -> Vec<RepoPath> {
        let mut v: Vec<RepoPath> = self
            .sides
            .iter()
            .filter(|s| s.received())
            .filter_map(|s| s.skill.map(file_of))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// A draft about this skill and one `aspect`, with the evidence of
    /// every side that has it and the subject the remedies are asked
    /// about; symmetric over every side until the caller says otherwise.
    /// The id's readable part is the skill's first name alone (a skill
    /// with two names would otherwise show a cut of `a = p:a`, such as
    /// `a---p`); the hash still covers every name.
    fn draft(&self, kind: (FindingType, FindingSeverity), aspect: &str) -> FindingDraft {
        FindingDraft {
            slug: id::slug(self.entry.names[0]),
            direction: id::symmetric(self.sides.len()),
            present_in: self.harnesses(|_| true),
            items: self
                .sides
                .iter()
                .filter_map(|side| side.skill.map(|s| item(side.harness, s)))
                .collect(),
            subject: Some(Subject::Skill {
                name: self.entry.names[0].to_string(),
                files: self.files(),
            }),
            ..FindingDraft::named(Category::Skill, kind, &self.label, aspect)
        }
    }

    fn phrase(&self) -> String {
        self.entry.phrase(&self.sides)
    }

    fn row(&self) -> Row {
        Row::new(
            Category::Skill,
            self.label.clone(),
            self.sides.iter().map(|side| cell(side.skill)).collect(),
        )
    }
}

/// The cell of a side holding `skill`.
fn cell(skill: Option<&Skill>) -> Cell {
    let Some(s) = skill else {
        return Cell::absent();
    };
    let note = if s.invocation.implicit == Permission::Blocked {
        "explicit"
    } else {
        ""
    };
    Cell::of(
        reception(s),
        note.to_string(),
        s.load_phase,
        s.applicability,
    )
    .in_layer_of(&s.source)
}

/// Compares the skills of `configs` (each with its `diagnostics`): one
/// row per [`Entry`], and its findings.
pub(crate) fn compare<'a>(
    configs: &[&'a EffectiveAgentConfig],
    diagnostics: &[DiagnosticIndex<'a>],
    rows: &mut Rows,
    findings: &mut Vec<Finding>,
) {
    for entry in entries(configs) {
        let case = Case::new(&entry, configs, diagnostics);
        let row = rows.push(|| case.row());
        let (agree, differs) = judge(&case, findings);
        row.agree = agree;
        row.differs = differs;
    }
}

/// The findings about one skill, pushed onto `findings`: whether its row
/// agrees and the fields that differ.
fn judge(case: &Case<'_>, findings: &mut Vec<Finding>) -> (bool, Vec<String>) {
    if !case.sides.iter().any(Side::received) {
        return (true, Vec::new());
    }
    let Some(all) = case.all() else {
        findings.push(presence(case));
        return (false, Vec::new());
    };
    let recs: Vec<Reception> = all.iter().map(|s| reception(s)).collect();
    if recs.iter().any(|r| *r != recs[0]) {
        findings.push(availability(case, &all));
        return (false, Vec::new());
    }
    let mut differs = Vec::new();
    let invoked = invocation(case, &all);
    let invoked_differs = invoked.is_some();
    let listed = (!invoked_differs)
        .then(|| advertisement(case, &all))
        .flatten();
    for (field, f) in [
        ("invocation", invoked),
        ("description", description(case, &all)),
        ("listing", listed),
    ] {
        if let Some(f) = f {
            differs.push(field.to_string());
            findings.push(f);
        }
    }
    (differs.is_empty(), differs)
}

/// Some sides have no skill of the entry's names: a `capability-gap` for
/// the sides that receive it (info when each has it only conditionally).
fn presence(case: &Case<'_>) -> Finding {
    let received: Vec<&Side<'_>> = case.sides.iter().filter(|s| s.received()).collect();
    let conditional = received
        .iter()
        .all(|s| s.reception() == Some(Reception::Conditional));
    let severity = if conditional {
        FindingSeverity::Info
    } else {
        FindingSeverity::Medium
    };
    let present_in = case.harnesses(Side::received);
    let mut f = FindingDraft {
        direction: id::only(&present_in),
        message: format!(
            "Skill {}{}; {}.",
            case.phrase(),
            available(&received),
            lacking(case)
        ),
        present_in,
        absent_from: case.harnesses(|s| !s.received()),
        ..case.draft((FindingType::CapabilityGap, severity), "presence")
    }
    .build();
    let files = case.files();
    let cname = case.entry.either();
    f.absences = case
        .sides
        .iter()
        .filter(|s| s.skill.is_none())
        .map(|s| {
            absence(
                s.diagnostics,
                &files,
                format!(
                    "{} discovers no skill named {cname} under this context.",
                    display_name(s.harness)
                ),
            )
        })
        .collect();
    f
}

/// The clause naming every side that does not receive the skill: those
/// without one share "Cursor has no skill of that name", each that has
/// one it does not load its own ("Gemini CLI has one it does not load"),
/// so that no harness is left out of the sentence.
fn lacking(case: &Case<'_>) -> String {
    let absent = case.harnesses(|s| s.skill.is_none());
    let these = if case.entry.names.len() == 1 {
        "that name"
    } else {
        "these names"
    };
    let verb = if absent.len() == 1 { "has" } else { "have" };
    (!absent.is_empty())
        .then(|| format!("{} {verb} no skill of {these}", names(&absent)))
        .into_iter()
        .chain(
            case.sides
                .iter()
                .filter(|s| s.skill.is_some() && !s.received())
                .map(|s| format!("{} has one it does not load", display_name(s.harness))),
        )
        .collect::<Vec<_>>()
        .join("; ")
}

/// How the `received` sides have a skill, to follow its name in a
/// sentence: " is available to Codex and OpenCode at startup" when they
/// all have it at the same reception, else each with its own (": Codex has
/// it at startup, but OpenCode has it on demand"), so that no side is
/// given another's loadPhase.
fn available(received: &[&Side<'_>]) -> String {
    let sides: Vec<(Harness, Reception)> = received
        .iter()
        .filter_map(|s| s.reception().map(|r| (s.harness, r)))
        .collect();
    let top = sides.iter().map(|(_, r)| *r).min();
    match top {
        Some(top) if sides.iter().all(|(_, r)| *r == top) => {
            let hs: Vec<Harness> = sides.iter().map(|(h, _)| *h).collect();
            format!(" is available to {} {}", names(&hs), top.phrase())
        }
        _ => format!(
            ": {}",
            crate::state::sides_phrase(&sides, "has it", "have it")
        ),
    }
}

/// Every side has the skill (`all`, one per side) but not at the same
/// reception: a `scope-gap` from the sides that have it soonest (info when
/// one side has it conditionally).
fn availability(case: &Case<'_>, all: &[&Skill]) -> Finding {
    let recs: Vec<Reception> = all.iter().map(|s| reception(s)).collect();
    let top = *recs.iter().min().expect("two sides or more");
    let first: Vec<Harness> = case.harnesses(|s| s.reception() == Some(top));
    let later_never = recs.contains(&Reception::NotLoaded);
    let severity = if recs.contains(&Reception::Conditional) {
        FindingSeverity::Info
    } else {
        FindingSeverity::Medium
    };
    let sides: Vec<(Harness, Reception)> = case.sides.iter().map(|s| s.harness).zip(recs).collect();
    let mut f = FindingDraft {
        direction: if later_never {
            id::only(&first)
        } else {
            id::first(&first)
        },
        present_in: first,
        absent_from: case.harnesses(|s| s.reception() != Some(top)),
        message: format!(
            "Skill {}: {}.",
            case.phrase(),
            crate::state::sides_phrase(&sides, "has it", "have it")
        ),
        ..case.draft((FindingType::ScopeGap, severity), "availability")
    }
    .build();
    f.absences = case
        .sides
        .iter()
        .zip(all)
        .filter(|(side, _)| side.reception() != Some(top))
        .map(|(side, s)| crate::Absence {
            harness: side.harness,
            reason: s.reason.clone(),
        })
        .collect();
    f
}

/// The sides invoke the skill differently (explicitly, implicitly): a
/// `capability-gap`, or an `unknown` when one side cannot be decided.
fn invocation(case: &Case<'_>, all: &[&Skill]) -> Option<Finding> {
    let inv: Vec<(Permission, Permission)> = all
        .iter()
        .map(|s| (s.invocation.explicit, s.invocation.implicit))
        .collect();
    if inv.iter().all(|x| *x == inv[0]) {
        return None;
    }
    let unknown = inv
        .iter()
        .any(|(e, i)| *e == Permission::Unknown || *i == Permission::Unknown);
    let detail: Vec<String> = case
        .sides
        .iter()
        .zip(&inv)
        .map(|(side, (e, i))| {
            let name = display_name(side.harness);
            format!("{name} explicit {}, implicit {}", perm(*e), perm(*i))
        })
        .collect();
    let (kind, message) = if unknown {
        (
            (FindingType::Unknown, FindingSeverity::Info),
            format!(
                "Skill {} is invoked differently and one side cannot be decided ({}).",
                case.phrase(),
                detail.join("; ")
            ),
        )
    } else {
        (
            (FindingType::CapabilityGap, FindingSeverity::Medium),
            format!(
                "Skill {} is invoked differently: {}.",
                case.phrase(),
                detail.join("; ")
            ),
        )
    };
    let mut f = FindingDraft {
        message,
        ..case.draft(kind, "invocation")
    }
    .build();
    let explicit: Vec<Permission> = inv.iter().map(|x| x.0).collect();
    let implicit: Vec<Permission> = inv.iter().map(|x| x.1).collect();
    f.differences = [
        ("invocation.explicit", explicit),
        ("invocation.implicit", implicit),
    ]
    .into_iter()
    .filter(|(_, vals)| vals.iter().any(|v| *v != vals[0]))
    .map(|(field, vals)| FieldDifference {
        field: field.to_string(),
        values: case
            .sides
            .iter()
            .zip(vals)
            .map(|(side, v)| FieldValue {
                harness: side.harness,
                value: Some(perm(v).to_string()),
            })
            .collect(),
    })
    .collect();
    Some(f)
}

/// Different files give the skill different descriptions: a `different`
/// (low when they differ only in case, punctuation or spacing). The
/// descriptions of one file are never compared.
fn description(case: &Case<'_>, all: &[&Skill]) -> Option<Finding> {
    if all.iter().all(|s| file_ref(s) == file_ref(all[0])) {
        return None;
    }
    let descs: Vec<Option<String>> = all
        .iter()
        .map(|s| s.description.as_deref().map(words))
        .collect();
    if descs.iter().all(|d| *d == descs[0]) {
        return None;
    }
    let cosmetic = descs.iter().all(|d| d.is_some())
        && descs
            .iter()
            .all(|d| loose(d.as_deref().unwrap_or("")) == loose(descs[0].as_deref().unwrap_or("")));
    let severity = if cosmetic {
        FindingSeverity::Low
    } else {
        FindingSeverity::Medium
    };
    let mut f = FindingDraft {
        message: format!(
            "Skill {} has a different description for {}; the model decides when to use a skill from it.",
            case.phrase(),
            names(&case.harnesses(|_| true))
        ),
        ..case.draft((FindingType::Different, severity), "description")
    }
    .build();
    f.differences = vec![FieldDifference {
        field: "description".to_string(),
        values: case
            .sides
            .iter()
            .zip(descs)
            .map(|(side, value)| FieldValue {
                harness: side.harness,
                value,
            })
            .collect(),
    }];
    Some(f)
}

/// The sides list the skill to the model differently (advertised, hidden):
/// a `different` (low), or an `unknown` when one side cannot be decided.
fn advertisement(case: &Case<'_>, all: &[&Skill]) -> Option<Finding> {
    let ads: Vec<&str> = all.iter().map(|s| adv(s.advertisement.state)).collect();
    if ads.iter().all(|a| *a == ads[0]) {
        return None;
    }
    let kind = if ads.contains(&"unknown") {
        (FindingType::Unknown, FindingSeverity::Info)
    } else {
        (FindingType::Different, FindingSeverity::Low)
    };
    let listed: Vec<String> = case
        .sides
        .iter()
        .zip(&ads)
        .map(|(side, a)| format!("{} {a}", display_name(side.harness)))
        .collect();
    let message = format!(
        "Skill {} is listed to the model differently: {}.",
        case.phrase(),
        listed.join(", ")
    );
    Some(
        FindingDraft {
            message,
            ..case.draft(kind, "advertisement")
        }
        .build(),
    )
}

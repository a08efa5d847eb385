//! Skills, matched by name; among several skills of one name on one side,
//! the best received one represents it, preferring one whose resolved
//! `SKILL.md` another side has too.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::state::Reception;
use crate::{absence, display_name, names, Cell, Row, Rows};
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
    fn phrase(&self, configs: &[&EffectiveAgentConfig], rep: &[Option<&Skill>]) -> String {
        let first = crate::code_span(self.names[0]);
        let others: Vec<String> = self.names[1..]
            .iter()
            .filter_map(|other| {
                let hs: Vec<Harness> = (0..configs.len())
                    .filter(|&h| rep[h].is_some_and(|s| s.name == *other))
                    .map(|h| configs[h].harness)
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
/// first name.
fn entries<'c>(configs: &[&'c EffectiveAgentConfig]) -> Vec<Entry<'c>> {
    let n = configs.len();
    let mut by_name: BTreeMap<&str, Vec<Vec<&Skill>>> = BTreeMap::new();
    for (h, c) in configs.iter().enumerate() {
        for s in &c.skills {
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

/// How the `received` harnesses have a skill, to follow its name in a
/// sentence: " is available to Codex and OpenCode at startup" when they
/// all have it as `top`, else each with its own reception (": Codex has it
/// at startup, but OpenCode has it on demand"), so that no side is given
/// another's loadPhase.
fn available(received: &[usize], rep: &[Option<&Skill>], cx: &Ctx<'_>, top: Reception) -> String {
    let sides: Vec<(Harness, Reception)> = received
        .iter()
        .filter_map(|&h| rep[h].map(|s| (cx.h(h), reception(s))))
        .collect();
    if sides.iter().all(|(_, r)| *r == top) {
        let hs: Vec<Harness> = sides.iter().map(|(h, _)| *h).collect();
        return format!(" is available to {} {}", names(&hs), top.phrase());
    }
    format!(
        ": {}",
        crate::state::sides_phrase(&sides, "has it", "have it")
    )
}

struct Ctx<'c> {
    configs: &'c [&'c EffectiveAgentConfig],
}

impl Ctx<'_> {
    fn h(&self, i: usize) -> Harness {
        self.configs[i].harness
    }

    fn hs(&self, v: &[usize]) -> Vec<Harness> {
        v.iter().map(|&i| self.h(i)).collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn finding(
        &self,
        kind: FindingType,
        severity: FindingSeverity,
        name: &str,
        aspect: &str,
        direction: String,
        present: &[usize],
        absent: &[usize],
        items: Vec<FindingItem>,
        message: String,
    ) -> Finding {
        FindingDraft {
            direction,
            present_in: self.hs(present),
            absent_from: self.hs(absent),
            items,
            message,
            ..FindingDraft::named(Category::Skill, (kind, severity), name, aspect)
        }
        .build()
    }
}

pub(crate) fn compare(
    configs: &[&EffectiveAgentConfig],
    diagnostics: &[crate::DiagnosticIndex<'_>],
    rows: &mut Rows,
    findings: &mut Vec<Finding>,
) {
    let n = configs.len();
    let cx = Ctx { configs };
    for entry in entries(configs) {
        let sides = &entry.sides;
        let label = entry.label();
        let name = &label.as_str();
        let all_files: Vec<&RepoPath> = sides.iter().flatten().map(|s| file_ref(s)).collect();
        let rep: Vec<Option<&Skill>> = sides
            .iter()
            .map(|v| {
                v.iter()
                    .min_by_key(|s| {
                        let s: &Skill = s;
                        let file = file_ref(s);
                        let shared = all_files.iter().filter(|f| **f == file).count() > 1;
                        (reception(s), !shared, &s.source.path)
                    })
                    .copied()
            })
            .collect();
        let row = rows.push(|| Row {
            category: Category::Skill,
            label: name.to_string(),
            cells: rep
                .iter()
                .map(|r| match r {
                    None => Cell::absent(),
                    Some(s) => Cell::of(
                        reception(s),
                        if s.invocation.implicit == Permission::Blocked {
                            "explicit".to_string()
                        } else {
                            String::new()
                        },
                        s.load_phase,
                        s.applicability,
                    ),
                })
                .collect(),
            agree: false,
            differs: Vec::new(),
        });
        let received: Vec<usize> = (0..n)
            .filter(|&h| rep[h].is_some_and(|s| reception(s).is_received()))
            .collect();
        if received.is_empty() {
            row.agree = true;
            continue;
        }
        // What a finding about the skill shows; most names agree and need
        // none of it, so it is built only for a finding.
        let items = || -> Vec<FindingItem> {
            (0..n)
                .filter_map(|h| rep[h].map(|s| item(cx.h(h), s)))
                .collect()
        };
        let files = || -> Vec<RepoPath> {
            let mut v: Vec<RepoPath> = received
                .iter()
                .filter_map(|&h| rep[h].map(file_of))
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let subject = || Subject::Skill {
            name: entry.names[0].to_string(),
            files: files(),
        };
        let cname = || entry.phrase(configs, &rep);
        let present: Vec<usize> = (0..n).filter(|&h| rep[h].is_some()).collect();
        if present.len() < n {
            let absent: Vec<usize> = (0..n).filter(|h| !present.contains(h)).collect();
            let conditional = received
                .iter()
                .all(|&h| rep[h].is_some_and(|s| reception(s) == Reception::Conditional));
            let top = received
                .iter()
                .map(|&h| reception(rep[h].expect("r")))
                .min()
                .expect("r");
            let mut f = cx.finding(
                FindingType::CapabilityGap,
                if conditional {
                    FindingSeverity::Info
                } else {
                    FindingSeverity::Medium
                },
                name,
                "presence",
                id::only(&cx.hs(&received)),
                &received,
                &absent,
                items(),
                format!(
                    "Skill {}{}; {} {} no skill of {}.",
                    cname(),
                    available(&received, &rep, &cx, top),
                    names(&cx.hs(&absent)),
                    if absent.len() == 1 { "has" } else { "have" },
                    if entry.names.len() == 1 {
                        "that name"
                    } else {
                        "these names"
                    },
                ),
            );
            let files = files();
            let cname = entry.either();
            f.absences = absent
                .iter()
                .map(|&h| {
                    absence(
                        &diagnostics[h],
                        &files,
                        format!(
                            "{} discovers no skill named {cname} under this context.",
                            display_name(cx.h(h))
                        ),
                    )
                })
                .collect();
            f.subject = Some(Subject::Skill {
                name: entry.names[0].to_string(),
                files,
            });
            findings.push(f);
            continue;
        }
        let recs: Vec<Reception> = (0..n)
            .map(|h| reception(rep[h].expect("present")))
            .collect();
        if recs.iter().any(|r| *r != recs[0]) {
            let top = *recs.iter().min().expect("n");
            let first: Vec<usize> = (0..n).filter(|&h| recs[h] == top).collect();
            let later: Vec<usize> = (0..n).filter(|&h| recs[h] != top).collect();
            let direction = if later.iter().any(|&h| recs[h] == Reception::NotLoaded) {
                id::only(&cx.hs(&first))
            } else {
                id::first(&cx.hs(&first))
            };
            let conditional = recs.contains(&Reception::Conditional);
            let sides: Vec<(Harness, Reception)> = (0..n).map(|h| (cx.h(h), recs[h])).collect();
            let sides = crate::state::sides_phrase(&sides, "has it", "have it");
            let mut f = cx.finding(
                FindingType::ScopeGap,
                if conditional {
                    FindingSeverity::Info
                } else {
                    FindingSeverity::Medium
                },
                name,
                "availability",
                direction,
                &first,
                &later,
                items(),
                format!("Skill {}: {}.", cname(), sides),
            );
            f.absences = later
                .iter()
                .map(|&h| crate::Absence {
                    harness: cx.h(h),
                    reason: rep[h].expect("present").reason.clone(),
                })
                .collect();
            f.subject = Some(subject());
            findings.push(f);
            continue;
        }
        let all: Vec<usize> = (0..n).collect();
        let sym = id::symmetric(n);
        let mut agree = true;
        let mut differs: Vec<String> = Vec::new();
        // Invocation.
        let inv: Vec<(Permission, Permission)> = (0..n)
            .map(|h| {
                let s = rep[h].expect("present");
                (s.invocation.explicit, s.invocation.implicit)
            })
            .collect();
        let inv_differs = inv.iter().any(|x| *x != inv[0]);
        if inv_differs {
            agree = false;
            differs.push("invocation".to_string());
            let unknown = inv
                .iter()
                .any(|(e, i)| *e == Permission::Unknown || *i == Permission::Unknown);
            let mut differences = Vec::new();
            for (field, pick) in [
                ("invocation.explicit", 0usize),
                ("invocation.implicit", 1usize),
            ] {
                let vals: Vec<Permission> = inv
                    .iter()
                    .map(|x| if pick == 0 { x.0 } else { x.1 })
                    .collect();
                if vals.iter().any(|v| *v != vals[0]) {
                    differences.push(FieldDifference {
                        field: field.to_string(),
                        values: (0..n)
                            .map(|h| FieldValue {
                                harness: cx.h(h),
                                value: Some(perm(vals[h]).to_string()),
                            })
                            .collect(),
                    });
                }
            }
            let detail: Vec<String> = (0..n)
                .map(|h| {
                    format!(
                        "{} explicit {}, implicit {}",
                        display_name(cx.h(h)),
                        perm(inv[h].0),
                        perm(inv[h].1)
                    )
                })
                .collect();
            let mut f = if unknown {
                cx.finding(
                    FindingType::Unknown,
                    FindingSeverity::Info,
                    name,
                    "invocation",
                    sym.clone(),
                    &all,
                    &[],
                    items(),
                    format!(
                        "Skill {} is invoked differently and one side cannot be decided ({}).",
                        cname(),
                        detail.join("; ")
                    ),
                )
            } else {
                cx.finding(
                    FindingType::CapabilityGap,
                    FindingSeverity::Medium,
                    name,
                    "invocation",
                    sym.clone(),
                    &all,
                    &[],
                    items(),
                    format!(
                        "Skill {} is invoked differently: {}.",
                        cname(),
                        detail.join("; ")
                    ),
                )
            };
            f.differences = differences;
            f.subject = Some(subject());
            findings.push(f);
        }
        // Description.
        let same_file =
            (0..n).all(|h| file_ref(rep[h].expect("p")) == file_ref(rep[0].expect("p")));
        // The descriptions are compared only between different files.
        let descs: Vec<Option<String>> = if same_file {
            Vec::new()
        } else {
            (0..n)
                .map(|h| rep[h].expect("p").description.as_deref().map(words))
                .collect()
        };
        if !same_file && descs.iter().any(|d| *d != descs[0]) {
            agree = false;
            differs.push("description".to_string());
            let cosmetic = descs.iter().all(|d| d.is_some())
                && descs.iter().all(|d| {
                    loose(d.as_deref().unwrap_or("")) == loose(descs[0].as_deref().unwrap_or(""))
                });
            let mut f = cx.finding(
                FindingType::Different,
                if cosmetic { FindingSeverity::Low } else { FindingSeverity::Medium },
                name,
                "description",
                sym.clone(),
                &all,
                &[],
                items(),
                format!(
                    "Skill {} has a different description for {}; the model decides when to use a skill from it.",
                    cname(),
                    names(&cx.hs(&all))
                ),
            );
            f.differences = vec![FieldDifference {
                field: "description".to_string(),
                values: (0..n)
                    .map(|h| FieldValue {
                        harness: cx.h(h),
                        value: descs[h].clone(),
                    })
                    .collect(),
            }];
            f.subject = Some(subject());
            findings.push(f);
        }
        // Advertisement, unless the invocation difference explains it.
        let ads: Vec<&str> = (0..n)
            .map(|h| adv(rep[h].expect("p").advertisement.state))
            .collect();
        if !inv_differs && ads.iter().any(|a| *a != ads[0]) {
            agree = false;
            differs.push("listing".to_string());
            let unknown = ads.contains(&"unknown");
            let mut f = cx.finding(
                if unknown {
                    FindingType::Unknown
                } else {
                    FindingType::Different
                },
                if unknown {
                    FindingSeverity::Info
                } else {
                    FindingSeverity::Low
                },
                name,
                "advertisement",
                sym.clone(),
                &all,
                &[],
                items(),
                format!(
                    "Skill {} is listed to the model differently: {}.",
                    cname(),
                    (0..n)
                        .map(|h| format!("{} {}", display_name(cx.h(h)), ads[h]))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            f.subject = Some(subject());
            findings.push(f);
        }
        row.agree = agree;
        row.differs = differs;
    }
}

//! Subagents, matched by name: one the main agent of only some harnesses
//! can call is a `capability-gap`; one every harness can call, with
//! different descriptions (what the main agent decides to delegate by), is
//! `different`. Primary agents (a mode the user switches to, never listed
//! to the model) are not compared.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::state::Reception;
use crate::{absence, display_name, names, Cell, DiagnosticIndex, Row, Rows};
use playbookdiff_model::{Applicability, EffectiveAgentConfig, Harness, RepoPath, Subagent};
use std::collections::BTreeMap;

/// One harness's side of a subagent name: its definitions (callable ones,
/// in order) and the one that represents it (the first received, else the
/// first).
struct Side<'a> {
    harness: Harness,
    rep: Option<&'a Subagent>,
    all: Vec<&'a Subagent>,
    diagnostics: &'a DiagnosticIndex<'a>,
}

impl Side<'_> {
    fn received(&self) -> bool {
        self.rep.is_some_and(|a| reception(a).is_received())
    }
}

fn reception(a: &Subagent) -> Reception {
    Reception::of(a.load_phase, a.applicability)
}

fn item(h: Harness, a: &Subagent) -> FindingItem {
    FindingItem {
        harness: h,
        id: a.id.clone(),
        source: a.source.clone(),
        load_phase: a.load_phase,
        applicability: a.applicability,
        reason: a.reason.clone(),
    }
}

/// A cell's note: the tools it may use, or "all tools".
fn note(a: &Subagent) -> String {
    match &a.tools {
        Some(t) if !t.is_empty() => format!("tools: {}", t.join(", ")),
        _ if !a.disallowed_tools.is_empty() => {
            format!("all tools but {}", a.disallowed_tools.join(", "))
        }
        _ => "all tools".to_string(),
    }
}

/// Compares the subagents of `configs` (one [`DiagnosticIndex`] each, in
/// the same order), adding one row per name and the findings.
pub(crate) fn compare(
    configs: &[&EffectiveAgentConfig],
    diagnostics: &[DiagnosticIndex<'_>],
    rows: &mut Rows,
    findings: &mut Vec<Finding>,
) {
    let mut by_name: BTreeMap<&str, Vec<Vec<&Subagent>>> = BTreeMap::new();
    for (i, c) in configs.iter().enumerate() {
        for a in c.subagents.iter().filter(|a| a.mode.callable()) {
            by_name
                .entry(a.name.as_str())
                .or_insert_with(|| vec![Vec::new(); configs.len()])[i]
                .push(a);
        }
    }
    for (name, per) in by_name {
        let sides: Vec<Side<'_>> = per
            .into_iter()
            .zip(configs.iter().zip(diagnostics))
            .map(|(all, (c, d))| Side {
                harness: c.harness,
                rep: all
                    .iter()
                    .copied()
                    .find(|a| reception(a).is_received())
                    .or_else(|| all.first().copied()),
                all,
                diagnostics: d,
            })
            .collect();
        let agree = sides.iter().all(|s| s.received()) || sides.iter().all(|s| !s.received());
        let row = rows.push(|| {
            let cells = sides
                .iter()
                .map(|s| match s.rep {
                    Some(a) => Cell::of(reception(a), note(a), a.load_phase, a.applicability)
                        .in_layer_of(&a.source),
                    None => Cell::absent(),
                })
                .collect();
            let mut row = Row::new(Category::Subagent, name.to_string(), cells);
            row.agree = agree;
            row
        });
        let differs = if agree {
            description(name, &sides)
        } else {
            None
        };
        row.agree = agree && differs.is_none();
        if let Some(f) = differs {
            row.differs = vec!["description".to_string()];
            findings.push(f);
        }
        if !agree {
            findings.push(presence(name, &sides));
        }
    }
}

/// The files of the present sides' representatives, resolved.
fn files(sides: &[Side<'_>]) -> Vec<RepoPath> {
    let mut v: Vec<RepoPath> = sides
        .iter()
        .filter(|s| s.received())
        .filter_map(|s| s.rep)
        .map(|a| {
            a.source
                .resolved_path
                .clone()
                .unwrap_or_else(|| a.source.path.clone())
        })
        .collect();
    v.dedup();
    v
}

/// Some harnesses can call subagent `name` and others cannot: a
/// `capability-gap` (medium) from the sides that can.
fn presence(name: &str, sides: &[Side<'_>]) -> Finding {
    let present: Vec<Harness> = sides
        .iter()
        .filter(|s| s.received())
        .map(|s| s.harness)
        .collect();
    let absent: Vec<Harness> = sides
        .iter()
        .filter(|s| !s.received())
        .map(|s| s.harness)
        .collect();
    let cname = crate::code_span(name);
    let files = files(sides);
    let description = sides
        .iter()
        .find(|s| s.received())
        .and_then(|s| s.rep)
        .and_then(|a| a.description.clone());
    let mut f = FindingDraft {
        direction: id::only(&present),
        present_in: present.clone(),
        absent_from: absent.clone(),
        items: sides
            .iter()
            .flat_map(|s| s.all.iter().map(|a| item(s.harness, a)))
            .collect(),
        message: format!(
            "Subagent {cname} can be called by the main agent of {} only: {} {} no subagent of that name it can call.",
            names(&present),
            names(&absent),
            if absent.len() == 1 { "has" } else { "have" }
        ),
        subject: Some(Subject::Subagent {
            name: name.to_string(),
            files: files.clone(),
            description,
        }),
        ..FindingDraft::named(
            Category::Subagent,
            (FindingType::CapabilityGap, FindingSeverity::Medium),
            name,
            "presence",
        )
    }
    .build();
    f.absences = sides
        .iter()
        .filter(|s| !s.received())
        .map(|s| {
            let why = match s.rep {
                Some(a) if a.applicability != Applicability::Effective => a.reason.clone(),
                _ => format!(
                    "{} has no subagent named {cname} under this context.",
                    display_name(s.harness)
                ),
            };
            absence(s.diagnostics, &files, why)
        })
        .collect();
    f
}

/// Every harness can call subagent `name`, from different files whose
/// descriptions differ: the main agents delegate to it on different
/// grounds, a `different` (medium).
fn description(name: &str, sides: &[Side<'_>]) -> Option<Finding> {
    let reps: Vec<&Subagent> = sides.iter().filter_map(|s| s.rep).collect();
    if reps.len() < 2 || reps.iter().all(|a| a.source.path == reps[0].source.path) {
        return None;
    }
    let words = |a: &Subagent| {
        a.description
            .as_deref()
            .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    if reps.iter().all(|a| words(a) == words(reps[0])) {
        return None;
    }
    let all: Vec<Harness> = sides.iter().map(|s| s.harness).collect();
    let mut f = FindingDraft {
        direction: id::symmetric(sides.len()),
        present_in: all.clone(),
        items: sides
            .iter()
            .filter_map(|s| s.rep.map(|a| item(s.harness, a)))
            .collect(),
        message: format!(
            "Subagent {} is described differently to the main agent of {}, which decides by its description when to delegate.",
            crate::code_span(name),
            names(&all)
        ),
        ..FindingDraft::named(
            Category::Subagent,
            (FindingType::Different, FindingSeverity::Medium),
            name,
            "description",
        )
    }
    .build();
    f.differences = vec![FieldDifference {
        field: "description".to_string(),
        values: sides
            .iter()
            .map(|s| FieldValue {
                harness: s.harness,
                value: s.rep.and_then(words),
            })
            .collect(),
    }];
    Some(f)
}

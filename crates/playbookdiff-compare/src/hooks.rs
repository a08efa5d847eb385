//! Hooks, matched by the event's cross-harness meaning
//! ([`HookTrigger`]): one row per trigger, and a `capability-gap` where
//! some harnesses may run a hook on it and others run none.
//!
//! A hook "may run" when it applies (`effective`) and nothing turns it
//! off (`runs` is `yes` or `unknown`: Codex's hash trust is state the
//! analysis cannot see, and a Codex hook that may run is a guard Codex may
//! have). A hook that only a plugin to install brings (`conditional`), or
//! that a setting turns off, does not count. Which tools a matcher covers
//! and what a handler checks are not compared: two guards on the same
//! trigger are taken as equivalent.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::state::Reception;
use crate::{display_name, names, Cell, Row, Rows};
use playbookdiff_model::{EffectiveAgentConfig, Harness, Hook, HookTrigger, LoadPhase};
use std::collections::BTreeMap;

/// One harness's hooks on one trigger.
struct Side<'a> {
    harness: Harness,
    hooks: Vec<&'a Hook>,
}

impl Side<'_> {
    /// The hooks that may run.
    fn running(&self) -> impl Iterator<Item = &&Hook> {
        self.hooks.iter().filter(|h| h.may_run())
    }

    fn on(&self) -> bool {
        self.running().next().is_some()
    }

    fn cell(&self) -> Cell {
        if self.hooks.is_empty() {
            return Cell::absent();
        }
        let running = self.running().count();
        let unknown = self.running().any(|h| h.runs.as_str() == "unknown");
        let reception = match (running, unknown) {
            (0, _) => Reception::NotLoaded,
            (_, true) => Reception::Conditional,
            _ => Reception::Startup,
        };
        let mut note = playbookdiff_model::remedy::count(running, "hook", "hooks");
        if running < self.hooks.len() {
            note.push_str(&format!(" ({} off)", self.hooks.len() - running));
        }
        let first = self.hooks[0];
        Cell::of(reception, note, LoadPhase::Startup, first.applicability)
            .in_layer_of(&first.source)
    }
}

/// Compares the hooks of `configs`: one row per trigger, and its finding.
pub(crate) fn compare(
    configs: &[&EffectiveAgentConfig],
    rows: &mut Rows,
    findings: &mut Vec<Finding>,
) {
    let mut by_trigger: BTreeMap<HookTrigger, Vec<Side<'_>>> = BTreeMap::new();
    for (i, c) in configs.iter().enumerate() {
        for h in &c.hooks {
            let Some(t) = h.trigger else { continue };
            let sides = by_trigger.entry(t).or_insert_with(|| {
                configs
                    .iter()
                    .map(|c| Side {
                        harness: c.harness,
                        hooks: Vec::new(),
                    })
                    .collect()
            });
            sides[i].hooks.push(h);
        }
    }
    for (trigger, sides) in &by_trigger {
        let row = rows.push(|| Row {
            category: Category::Hook,
            label: trigger.to_string(),
            cells: sides.iter().map(Side::cell).collect(),
            agree: false,
            differs: Vec::new(),
        });
        let gap = sides.iter().any(Side::on) && !sides.iter().all(Side::on);
        row.agree = !gap;
        if gap {
            findings.push(presence(*trigger, sides));
        }
    }
}

/// Some sides may run a hook on `trigger`, others none: a `capability-gap`
/// for those that do, `high` for a trigger that can stop a tool call.
fn presence(trigger: HookTrigger, sides: &[Side<'_>]) -> Finding {
    let on: Vec<Harness> = sides.iter().filter(|s| s.on()).map(|s| s.harness).collect();
    let off: Vec<Harness> = sides
        .iter()
        .filter(|s| !s.on())
        .map(|s| s.harness)
        .collect();
    let rep = sides
        .iter()
        .find_map(|s| s.running().next().copied())
        .expect("a side that is on has a running hook");
    let severity = match trigger {
        HookTrigger::PreToolUse | HookTrigger::PermissionRequest => FindingSeverity::High,
        _ => FindingSeverity::Medium,
    };
    let what = match &rep.script {
        Some(s) => format!(" (`{}`)", s.path),
        None => String::new(),
    };
    let why: Vec<String> = sides
        .iter()
        .filter(|s| !s.on())
        .map(|s| absence_reason(s, trigger))
        .collect();
    let mut f = FindingDraft {
        direction: id::only(&on),
        present_in: on.clone(),
        absent_from: off,
        items: sides
            .iter()
            .flat_map(|s| s.hooks.iter().map(|h| item(s.harness, h)))
            .collect(),
        message: format!(
            "A {trigger} hook{what} runs for {} only; {}.",
            names(&on),
            why.join("; ")
        ),
        subject: Some(Subject::Hook {
            trigger,
            matcher: rep.matcher.clone(),
            command: rep.handler.command.clone(),
            script: rep.script.as_ref().map(|s| s.path.clone()),
        }),
        ..FindingDraft::named(
            Category::Hook,
            (FindingType::CapabilityGap, severity),
            trigger.as_str(),
            "presence",
        )
    }
    .build();
    f.absences = sides
        .iter()
        .filter(|s| !s.on())
        .map(|s| crate::Absence {
            harness: s.harness,
            reason: absence_reason(s, trigger),
        })
        .collect();
    f
}

/// Why a side runs no hook on `trigger`, in words.
fn absence_reason(s: &Side<'_>, trigger: HookTrigger) -> String {
    match s.hooks.first() {
        None => format!(
            "{} has no {trigger} hook under this context",
            display_name(s.harness)
        ),
        Some(h) => match &h.runs {
            playbookdiff_model::Verdict::No { reason, .. } => {
                format!("{} does not run it: {reason}", display_name(s.harness))
            }
            _ => format!(
                "{} does not run it: {}",
                display_name(s.harness),
                h.reason.trim_end_matches('.')
            ),
        },
    }
}

fn item(harness: Harness, h: &Hook) -> FindingItem {
    FindingItem {
        harness,
        id: h.id.clone(),
        source: h.source.clone(),
        load_phase: h.load_phase,
        applicability: h.applicability,
        reason: h.reason.clone(),
    }
}

//! Permission rules, matched by what they refuse in terms the harnesses
//! share ([`PermissionScope`], set by each adapter): a `capability-gap`
//! where some harnesses refuse an action (a Claude Code
//! `permissions.deny` rule, an OpenCode `permission` deny, Codex's
//! read-only sandbox) and others have no rule that refuses it.
//!
//! A rule counts when the harness may honour it (`honoured` is `yes` or
//! `unknown`). A harness holds a scope when one of its rules covers it
//! ([`PermissionScope::covers`]: the same kind of action, and no pattern,
//! the same pattern as written, or a shorter command prefix). The
//! equivalence is approximate: patterns are compared as written, not as
//! globs, and what a mode refuses is the adapter's reading of the agent's
//! documentation. A scope another scope of the same holders covers is
//! left out, so `Bash` and `Bash(curl:*)` denied together give one
//! finding.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::{display_name, id, names};
use playbookdiff_model::{
    Applicability, EffectiveAgentConfig, Harness, LoadPhase, PermissionScope, PermissionSetting,
};
use std::collections::BTreeSet;

/// One harness's honoured denies.
struct Side<'a> {
    harness: Harness,
    denies: Vec<(&'a PermissionSetting, &'a PermissionScope)>,
}

impl Side<'_> {
    /// The first rule of this side that refuses `scope`.
    fn holding(&self, scope: &PermissionScope) -> Option<&PermissionSetting> {
        self.denies
            .iter()
            .find(|(_, s)| s.covers(scope))
            .map(|(p, _)| *p)
    }
}

/// Compares the permission denies of `configs`: one finding per scope
/// some harnesses refuse and others do not.
pub(crate) fn compare(configs: &[&EffectiveAgentConfig], findings: &mut Vec<Finding>) {
    let sides: Vec<Side<'_>> = configs
        .iter()
        .map(|c| Side {
            harness: c.harness,
            denies: c
                .permissions
                .iter()
                .filter(|p| p.honoured.may_apply())
                .filter_map(|p| Some((p, p.denies.as_ref()?)))
                .collect(),
        })
        .collect();
    let scopes: BTreeSet<&PermissionScope> = sides
        .iter()
        .flat_map(|s| s.denies.iter().map(|(_, scope)| *scope))
        .collect();
    let holders = |scope: &PermissionScope| -> Vec<bool> {
        sides.iter().map(|s| s.holding(scope).is_some()).collect()
    };
    for scope in &scopes {
        let held = holders(scope);
        if held.iter().all(|h| *h) {
            continue;
        }
        let redundant = scopes
            .iter()
            .any(|t| t != scope && t.covers(scope) && holders(t) == held);
        if !redundant {
            findings.push(gap(scope, &sides));
        }
    }
}

/// Some sides refuse what `scope` covers, others do not: a
/// `capability-gap` (medium) from the sides that refuse it.
fn gap(scope: &PermissionScope, sides: &[Side<'_>]) -> Finding {
    let (on, off): (Vec<&Side<'_>>, Vec<&Side<'_>>) =
        sides.iter().partition(|s| s.holding(scope).is_some());
    let present: Vec<Harness> = on.iter().map(|s| s.harness).collect();
    let absent: Vec<Harness> = off.iter().map(|s| s.harness).collect();
    let rules: Vec<String> = on
        .iter()
        .filter_map(|s| s.holding(scope))
        .map(|p| format!("`{}` in `{}`", rule_text(p), p.source.path))
        .collect();
    let label = label(scope);
    let mut f = FindingDraft {
        direction: id::only(&present),
        present_in: present.clone(),
        absent_from: absent,
        items: on
            .iter()
            .filter_map(|s| Some(item(s.harness, s.holding(scope)?)))
            .collect(),
        message: format!(
            "{} {} refused by {} only ({}); {} {} no rule that refuses {} (rules are matched approximately: by kind of action and pattern as written).",
            capitalized(&scope.phrase()),
            if scope.pattern.is_some() { "are" } else { "is" },
            names(&present),
            rules.join(", "),
            names(&off.iter().map(|s| s.harness).collect::<Vec<_>>()),
            if off.len() == 1 { "has" } else { "have" },
            if scope.pattern.is_some() { "them" } else { "it" },
        ),
        subject: Some(Subject::Permission {
            scope: scope.clone(),
        }),
        ..FindingDraft::named(
            Category::Permission,
            (FindingType::CapabilityGap, FindingSeverity::Medium),
            &label,
            "deny",
        )
    }
    .build();
    f.absences = off
        .iter()
        .map(|s| crate::Absence {
            harness: s.harness,
            reason: format!(
                "{} has no permission rule that refuses {} under this context",
                display_name(s.harness),
                scope.phrase()
            ),
        })
        .collect();
    f
}

/// The name of a scope in ids and groups: `shell:curl`, `edit`.
fn label(scope: &PermissionScope) -> String {
    match &scope.pattern {
        Some(p) => format!("{}:{p}", scope.action.as_str()),
        None => scope.action.as_str().to_string(),
    }
}

/// A rule as written: a key whose value is the rule
/// (`permissions.deny Bash(curl:*)`), or a key set to a mode or an effect
/// (`sandbox_mode = read-only`, `permission.bash.rm * = deny`).
fn rule_text(p: &PermissionSetting) -> String {
    if matches!(p.value.as_str(), "deny" | "allow" | "ask")
        || p.effect == playbookdiff_model::PermissionEffect::Mode
    {
        format!("{} = {}", p.key, p.value)
    } else {
        format!("{} {}", p.key, p.value)
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn item(harness: Harness, p: &PermissionSetting) -> FindingItem {
    FindingItem {
        harness,
        id: p.id.clone(),
        source: p.source.clone(),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: format!("{} refuses it", rule_text(p)),
    }
}

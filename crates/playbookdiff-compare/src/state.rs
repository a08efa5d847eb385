//! When a harness receives an item, reduced from `loadPhase` and
//! `applicability` to what matters for a comparison.

use playbookdiff_model::{Applicability, LoadPhase};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a harness receives an item under the analysed context, best first.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Reception {
    /// Received when the session starts.
    Startup,
    /// Received once the agent touches a path (effective, or conditional on
    /// a path not given as target): certain to arrive in that case.
    OnDemand,
    /// Received only under something the analysis cannot know (an approval,
    /// a runtime state).
    Conditional,
    /// Listed, but not received from this launch directory (out of scope,
    /// excluded, shadowed, unavailable).
    NotLoaded,
}

impl Reception {
    /// The reception of an item with this phase and applicability.
    pub fn of(phase: LoadPhase, applicability: Applicability) -> Reception {
        match (applicability, phase) {
            (Applicability::Effective, LoadPhase::Startup) => Reception::Startup,
            (Applicability::Effective, LoadPhase::OnDemand) => Reception::OnDemand,
            (Applicability::Conditional, LoadPhase::OnDemand) => Reception::OnDemand,
            (Applicability::Conditional, LoadPhase::Startup) => Reception::Conditional,
            _ => Reception::NotLoaded,
        }
    }

    /// True when the harness receives (or may receive) the item.
    pub fn is_received(self) -> bool {
        self != Reception::NotLoaded
    }

    /// Words for a table cell.
    pub fn label(self) -> &'static str {
        match self {
            Reception::Startup => "startup",
            Reception::OnDemand => "on demand",
            Reception::Conditional => "conditional",
            Reception::NotLoaded => "not loaded",
        }
    }

    /// Words for a sentence ("at startup", "on demand").
    pub fn phrase(self) -> &'static str {
        match self {
            Reception::Startup => "at startup",
            Reception::OnDemand => "on demand",
            Reception::Conditional => "only after an approval or a runtime condition",
            Reception::NotLoaded => "never from this launch directory",
        }
    }
}

/// How several harnesses have one item, for a sentence: the harnesses
/// grouped by reception, best first, each group with `singular` or
/// `plural` and the reception's phrase, the last group after "but"
/// ("Claude Code and OpenCode receive it at startup, but Codex never from
/// this launch directory"). `sides` holds one reception per harness.
pub fn sides_phrase(
    sides: &[(playbookdiff_model::Harness, Reception)],
    singular: &str,
    plural: &str,
) -> String {
    let mut recs: Vec<Reception> = sides.iter().map(|(_, r)| *r).collect();
    recs.sort();
    recs.dedup();
    let parts: Vec<String> = recs
        .iter()
        .map(|r| {
            let hs: Vec<playbookdiff_model::Harness> = sides
                .iter()
                .filter(|(_, x)| x == r)
                .map(|(h, _)| *h)
                .collect();
            let who = crate::names(&hs);
            match r {
                Reception::NotLoaded => format!("{who} never from this launch directory"),
                r if hs.len() == 1 => format!("{who} {singular} {}", r.phrase()),
                r => format!("{who} {plural} {}", r.phrase()),
            }
        })
        .collect();
    match parts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}, but {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_model::Harness;

    const A: Harness = Harness::new("alpha", "Alpha");
    const B: Harness = Harness::new("beta", "Beta");
    const C: Harness = Harness::new("gamma", "Gamma");

    #[test]
    fn sides_are_grouped_by_reception_best_first() {
        let sides = [
            (A, Reception::Startup),
            (B, Reception::NotLoaded),
            (C, Reception::Startup),
        ];
        assert_eq!(
            sides_phrase(&sides, "receives it", "receive it"),
            "Alpha and Gamma receive it at startup, but Beta never from this launch directory"
        );
        let sides = [(A, Reception::OnDemand), (B, Reception::Startup)];
        assert_eq!(
            sides_phrase(&sides, "has it", "have it"),
            "Beta has it at startup, but Alpha has it on demand"
        );
    }
}

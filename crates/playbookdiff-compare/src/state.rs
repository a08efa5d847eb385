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

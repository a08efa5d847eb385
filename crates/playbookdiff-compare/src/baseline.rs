//! Accepted findings (a baseline) and the severity that fails a run.
//!
//! A team accepts a finding by its stable id with a reason
//! (`playbookdiff check --accept ID --reason TEXT` writes it into
//! `playbookdiff.toml`). An accepted finding is still reported and counted,
//! marked as accepted with its reason; it never fails a run. An accepted id
//! that no longer occurs is *stale*: the difference was fixed or changed
//! identity, and the entry can go.
//!
//! Ids are derived from paths, directories, names, load states and the
//! direction only ([`crate::id`]), so rewording or reordering other text
//! keeps them. Rewording the very text a finding is about can change which
//! finding exists (a `missing` piece that is reworded on one side becomes
//! another piece), which re-opens it under a new id: that is intended, a
//! changed difference deserves a new look.

use crate::finding::{Finding, FindingSeverity};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Why a reported finding is accepted (on [`Finding::accepted`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Acceptance {
    /// The reason recorded with the id in the configuration file.
    pub reason: String,
}

/// One accepted finding as the configuration file records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AcceptedFinding {
    /// The finding's stable id, as `check` prints it.
    pub id: String,
    /// Why the difference is intended.
    pub reason: String,
}

/// The accepted findings of a configuration file, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    by_id: BTreeMap<String, String>,
}

impl Baseline {
    /// A baseline of `entries`; a repeated id keeps its last reason.
    pub fn new(entries: impl IntoIterator<Item = AcceptedFinding>) -> Self {
        Baseline {
            by_id: entries.into_iter().map(|e| (e.id, e.reason)).collect(),
        }
    }

    /// True when nothing is accepted.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The reason `id` is accepted, if it is.
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.by_id.get(id).map(String::as_str)
    }

    /// Marks each finding of `findings` whose id is accepted
    /// ([`Finding::accepted`]) and clears the mark of the others.
    pub fn apply<'a>(&self, findings: impl IntoIterator<Item = &'a mut Finding>) {
        for f in findings {
            f.accepted = self.reason(&f.id).map(|r| Acceptance {
                reason: r.to_string(),
            });
        }
    }

    /// The accepted entries whose id is not among `occurring`, in id order.
    pub fn stale<'a>(&self, occurring: impl IntoIterator<Item = &'a str>) -> Vec<AcceptedFinding> {
        let seen: std::collections::HashSet<&str> = occurring.into_iter().collect();
        self.by_id
            .iter()
            .filter(|(id, _)| !seen.contains(id.as_str()))
            .map(|(id, reason)| AcceptedFinding {
                id: id.clone(),
                reason: reason.clone(),
            })
            .collect()
    }
}

/// The least severity of a not-accepted finding that fails a run
/// (`--fail-on`, `fail-on`). `never`: findings never fail it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum FailOn {
    /// Only `high` findings.
    High,
    /// `medium` and `high` findings (actionable ones): the default.
    #[default]
    Medium,
    /// Every finding but `info`.
    Low,
    /// Every finding.
    Info,
    /// No finding.
    Never,
}

impl FailOn {
    /// Every value, strictest threshold last.
    pub const ALL: [FailOn; 5] = [
        FailOn::High,
        FailOn::Medium,
        FailOn::Low,
        FailOn::Info,
        FailOn::Never,
    ];

    /// The spelling of the option and the configuration file.
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::High => "high",
            FailOn::Medium => "medium",
            FailOn::Low => "low",
            FailOn::Info => "info",
            FailOn::Never => "never",
        }
    }

    /// True when a finding of `severity` reaches the threshold.
    pub fn reaches(self, severity: FindingSeverity) -> bool {
        let least = match self {
            FailOn::High => FindingSeverity::High,
            FailOn::Medium => FindingSeverity::Medium,
            FailOn::Low => FindingSeverity::Low,
            FailOn::Info => FindingSeverity::Info,
            FailOn::Never => return false,
        };
        // `FindingSeverity` orders from high to info.
        severity <= least
    }

    /// True when `f` fails the run: not accepted, and its severity reaches
    /// the threshold.
    pub fn fails(self, f: &Finding) -> bool {
        f.accepted.is_none() && self.reaches(f.severity)
    }

    /// How many of `findings` fail the run.
    pub fn failing<'a>(self, findings: impl IntoIterator<Item = &'a Finding>) -> usize {
        findings.into_iter().filter(|f| self.fails(f)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        use FindingSeverity::*;
        let table = [
            (FailOn::High, [true, false, false, false]),
            (FailOn::Medium, [true, true, false, false]),
            (FailOn::Low, [true, true, true, false]),
            (FailOn::Info, [true, true, true, true]),
            (FailOn::Never, [false, false, false, false]),
        ];
        for (t, expect) in table {
            let got = [High, Medium, Low, Info].map(|s| t.reaches(s));
            assert_eq!(got, expect, "{}", t.as_str());
        }
        assert_eq!(FailOn::default(), FailOn::Medium);
    }

    #[test]
    fn stale_entries_are_those_that_no_longer_occur() {
        let b = Baseline::new([
            AcceptedFinding {
                id: "a".into(),
                reason: "r1".into(),
            },
            AcceptedFinding {
                id: "b".into(),
                reason: "r2".into(),
            },
        ]);
        let stale = b.stale(["a", "c"]);
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].id, "b");
        assert_eq!(b.reason("a"), Some("r1"));
        assert_eq!(b.reason("c"), None);
    }
}

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
use playbookdiff_model::RepoPath;
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
    /// The launch directories the finding was accepted from (`check
    /// --accept` records them), sorted, each once; empty for an entry that
    /// names none (written by hand, or before directories were recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directories: Vec<RepoPath>,
}

/// The launch directories a check covered, which decide the accepted
/// entries it can call stale ([`Baseline::stale`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage<'a> {
    /// Every launch directory (`check --all-dirs`): an accepted id none of
    /// them produces is stale.
    Every,
    /// One launch directory (`check`, `check --cwd DIR`): an accepted id it
    /// does not produce is stale only when the entry was accepted from
    /// that directory alone; another launch directory may still produce
    /// it, and an entry that names no directory may belong to any.
    One(&'a RepoPath),
}

/// The accepted findings of a configuration file, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    by_id: BTreeMap<String, AcceptedFinding>,
}

impl Baseline {
    /// A baseline of `entries`; a repeated id keeps its last entry.
    pub fn new(entries: impl IntoIterator<Item = AcceptedFinding>) -> Self {
        Baseline {
            by_id: entries.into_iter().map(|e| (e.id.clone(), e)).collect(),
        }
    }

    /// True when nothing is accepted.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The reason `id` is accepted, if it is.
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.by_id.get(id).map(|e| e.reason.as_str())
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

    /// The accepted entries whose id is not among `occurring` and that a
    /// check of `covered` can tell are no longer produced ([`Coverage`]),
    /// in id order.
    pub fn stale<'a>(
        &self,
        occurring: impl IntoIterator<Item = &'a str>,
        covered: Coverage<'_>,
    ) -> Vec<AcceptedFinding> {
        let seen: std::collections::HashSet<&str> = occurring.into_iter().collect();
        self.by_id
            .values()
            .filter(|e| !seen.contains(e.id.as_str()))
            .filter(|e| match covered {
                Coverage::Every => true,
                Coverage::One(cwd) => e.directories.len() == 1 && e.directories[0] == *cwd,
            })
            .cloned()
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
    fn stale_entries_are_those_that_no_longer_occur_where_they_were_accepted() {
        let dir = |s: &str| RepoPath::new(s).unwrap();
        let entry = |id: &str, dirs: &[&str]| AcceptedFinding {
            id: id.into(),
            reason: format!("r-{id}"),
            directories: dirs.iter().map(|d| dir(d)).collect(),
        };
        let b = Baseline::new([
            entry("a", &["."]),
            entry("b", &["."]),
            entry("c", &["apps/web"]),
            entry("d", &[".", "apps/web"]),
            entry("e", &[]),
        ]);
        let ids = |v: Vec<AcceptedFinding>| v.into_iter().map(|e| e.id).collect::<Vec<_>>();
        // Every launch directory checked: whatever none produces.
        assert_eq!(ids(b.stale(["a"], Coverage::Every)), ["b", "c", "d", "e"]);
        // The root alone: only what was accepted from the root alone.
        assert_eq!(ids(b.stale(["a"], Coverage::One(&dir(".")))), ["b"]);
        // Another launch directory: never an entry of the root's.
        assert_eq!(ids(b.stale([], Coverage::One(&dir("apps/web")))), ["c"]);
        assert_eq!(
            ids(b.stale(["c"], Coverage::One(&dir("apps/web")))),
            [] as [&str; 0]
        );
        assert_eq!(b.reason("a"), Some("r-a"));
        assert_eq!(b.reason("z"), None);
    }
}

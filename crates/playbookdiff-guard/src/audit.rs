//! Self-audit: every deny rule with a fingerprint of its matchers
//! ([`surface`]), compared with a committed baseline ([`compare`]). A
//! rule that is gone, or whose verdict or matchers are weaker than the
//! baseline's, fails the audit; a new rule or a new matcher passes.

use crate::policy::Policy;
use crate::rules::{self, Verdict};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One rule of the deny surface.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleState {
    /// The rule id.
    pub id: String,
    /// Its verdict (`deny`, `ask`, `warn`).
    pub verdict: String,
    /// Its matchers, sorted: fixed ones and those the policy adds
    /// (adapter surfaces, `[guard] protect`).
    pub matchers: Vec<String>,
    /// The first 16 hex digits of the SHA-256 of id, verdict and matchers.
    pub fingerprint: String,
}

/// The baseline file's content.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// The deny surface, by rule.
    pub rules: Vec<RuleState>,
}

/// The deny surface of `policy`: every rule that is not an allow.
pub fn surface(policy: &Policy) -> Baseline {
    let config = policy.guard_config();
    let rules = rules::ALL
        .iter()
        .filter(|r| r.verdict != Verdict::Allow)
        .map(|r| {
            let mut matchers: Vec<String> = r.matchers.iter().map(|m| m.to_string()).collect();
            if r.id == rules::AGENT_CONFIG.id {
                matchers.extend(policy.surfaces.iter().map(|s| s.pattern.to_string()));
            }
            if r.id == rules::PROTECTED.id {
                matchers.extend(config.protect.iter().cloned());
            }
            matchers.sort();
            matchers.dedup();
            let verdict = r.verdict.as_str().to_string();
            let mut h = Sha256::new();
            h.update(r.id.as_bytes());
            h.update([0]);
            h.update(verdict.as_bytes());
            for m in &matchers {
                h.update([0]);
                h.update(m.as_bytes());
            }
            let digest = h.finalize();
            let fingerprint = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
            RuleState {
                id: r.id.to_string(),
                verdict,
                matchers,
                fingerprint,
            }
        })
        .collect();
    Baseline { rules }
}

/// One failure of the audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weakening {
    /// The baseline's rule is gone.
    Removed(String),
    /// The rule's verdict is weaker (`deny` to `ask`).
    Verdict {
        /// The rule id.
        id: String,
        /// The baseline's verdict.
        was: String,
        /// The current one.
        now: String,
    },
    /// The rule lost these matchers.
    Matchers {
        /// The rule id.
        id: String,
        /// Matchers in the baseline, not now.
        lost: Vec<String>,
    },
}

impl std::fmt::Display for Weakening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Weakening::Removed(id) => write!(f, "rule `{id}` is in the baseline and gone"),
            Weakening::Verdict { id, was, now } => write!(f, "rule `{id}` was {was}, is {now}"),
            Weakening::Matchers { id, lost } => {
                write!(f, "rule `{id}` no longer matches {}", lost.join(", "))
            }
        }
    }
}

fn strength(v: &str) -> u8 {
    match v {
        "deny" => 3,
        "ask" => 2,
        "warn" => 1,
        _ => 0,
    }
}

/// What `current` weakens against `baseline` (empty: the audit passes).
pub fn compare(baseline: &Baseline, current: &Baseline) -> Vec<Weakening> {
    let mut out = Vec::new();
    for old in &baseline.rules {
        let Some(now) = current.rules.iter().find(|r| r.id == old.id) else {
            out.push(Weakening::Removed(old.id.clone()));
            continue;
        };
        if strength(&now.verdict) < strength(&old.verdict) {
            out.push(Weakening::Verdict {
                id: old.id.clone(),
                was: old.verdict.clone(),
                now: now.verdict.clone(),
            });
        }
        let lost: Vec<String> = old
            .matchers
            .iter()
            .filter(|m| !now.matchers.contains(m))
            .cloned()
            .collect();
        if !lost.is_empty() {
            out.push(Weakening::Matchers {
                id: old.id.clone(),
                lost,
            });
        }
    }
    out
}

//! The analysis context: which repository, launch directory and target.

use crate::RepoPath;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the analysis may read (spec 000 and 004, "Analysis modes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Reproducible repository-visible configuration only.
    Repo,
    /// Also machine-local files present in the tree (e.g. `CLAUDE.local.md`).
    Local,
}

impl Mode {
    /// The contract spelling, `"repo"` or `"local"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Repo => "repo",
            Mode::Local => "local",
        }
    }
}

/// A coding agent whose discovery rules PlaybookDiff models: its contract
/// id (`claude-code`, `codex`, …) and its product name for sentences
/// (`Claude Code`).
///
/// Harness identity is open: each adapter crate declares its own constant
/// with [`Harness::new`], and nothing outside that crate (and the adapter
/// registry) names one. Equality, hashing and order use the id alone, so
/// harnesses sort in contract order (by id). Serialized as the id string.
#[derive(Clone, Copy, Debug)]
pub struct Harness {
    id: &'static str,
    name: &'static str,
}

impl Harness {
    /// A harness with contract id `id` (lower-case kebab case, e.g.
    /// `claude-code`) and product name `name` (e.g. `Claude Code`).
    pub const fn new(id: &'static str, name: &'static str) -> Harness {
        Harness { id, name }
    }

    /// The contract spelling, e.g. `claude-code` or `codex`.
    pub fn as_str(self) -> &'static str {
        self.id
    }

    /// The product name for sentences, e.g. `"Claude Code"`. A harness read
    /// back from JSON has only its id, which then stands in for the name.
    pub const fn display_name(self) -> &'static str {
        self.name
    }
}

impl PartialEq for Harness {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Harness {}

impl std::hash::Hash for Harness {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl PartialOrd for Harness {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Harness {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id.cmp(other.id)
    }
}

impl fmt::Display for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Harness {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id)
    }
}

impl<'de> Deserialize<'de> for Harness {
    /// Reads the id. The model knows no harness, so each distinct id read
    /// is interned once for the life of the process and also serves as the
    /// display name.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use std::sync::{Mutex, OnceLock};
        static INTERNED: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
        let s = String::deserialize(deserializer)?;
        if s.is_empty()
            || !s
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(serde::de::Error::custom(format!(
                "`{s}` is not a harness id (lower-case letters, digits and `-`)"
            )));
        }
        let mut known = INTERNED
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let id = match known.iter().find(|k| **k == s) {
            Some(k) => *k,
            None => {
                let k: &'static str = Box::leak(s.into_boxed_str());
                known.push(k);
                k
            }
        };
        Ok(Harness::new(id, id))
    }
}

impl JsonSchema for Harness {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Harness".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A harness id: `claude-code` (Claude Code), `codex` (OpenAI Codex CLI), or the id of another registered adapter.",
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9-]*$"
        })
    }
}

/// The four independent values every adapter receives
/// (spec 000 and 004, "Analysis context").
///
/// `cwd` and `targetPath` are not interchangeable: `cwd` is where the agent
/// starts; `targetPath` is one path it is expected to read or edit later.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisContext {
    /// The logical repository boundary; always `"."` when serialized.
    pub repository_root: RepoPath,
    /// The launch directory, relative to the repository root.
    pub cwd: RepoPath,
    /// The path the agent will touch, relative to the repository root.
    pub target_path: Option<RepoPath>,
    /// What the analysis may read.
    pub mode: Mode,
}

impl AnalysisContext {
    /// A context at the repository root with no target, in repo mode.
    pub fn at_root() -> Self {
        AnalysisContext {
            repository_root: RepoPath::root(),
            cwd: RepoPath::root(),
            target_path: None,
            mode: Mode::Repo,
        }
    }
}

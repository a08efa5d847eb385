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

/// A coding agent whose discovery rules PlaybookDiff models.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Harness {
    /// Claude Code (spec 000).
    ClaudeCode,
    /// OpenAI Codex CLI (spec 004).
    Codex,
}

impl Harness {
    /// Every supported harness, in a fixed order.
    pub const ALL: [Harness; 2] = [Harness::ClaudeCode, Harness::Codex];

    /// The contract spelling, `"claude-code"` or `"codex"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude-code",
            Harness::Codex => "codex",
        }
    }

    /// Parses the contract spelling.
    pub fn parse(s: &str) -> Option<Harness> {
        Harness::ALL.into_iter().find(|h| h.as_str() == s)
    }
}

impl fmt::Display for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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

//! The normalized model of PlaybookDiff.
//!
//! Every harness adapter compiles what its agent receives from a repository
//! into one [`EffectiveAgentConfig`]; every renderer and every comparison reads
//! only this model. The serialized form is the stable JSON surface described
//! in the project's output contract (`schemaVersion` 1): keys are camelCase,
//! paths are repository-relative POSIX paths and the repository root is `"."`.
//!
//! Architecture invariant: this crate does no I/O. It knows no file system,
//! no git, no terminal and no environment variable.

mod agents;
mod config;
mod context;
pub mod diagnostics;
mod hooks;
pub mod layout;
mod path;
pub mod profile;
pub mod redact;
pub mod remedy;

pub use agents::*;
pub use config::*;
pub use context::*;
pub use diagnostics::{Diagnostic, DiagnosticCode, DiagnosticKind, Severity};
pub use hooks::*;
pub use path::RepoPath;

/// The version of the JSON document this crate serializes.
///
/// Bumped only when a name or meaning of the output contract changes.
pub const SCHEMA_VERSION: u32 = 1;

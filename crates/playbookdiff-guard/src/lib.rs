//! The guard: one policy engine that every coding agent calls before a
//! tool runs (Claude Code and Codex through their `PreToolUse` hooks,
//! OpenCode through a plugin's `tool.execute.before`).
//!
//! The flow of one call:
//!
//! ```text
//! host payload (stdin bytes) ──host::parse──▶ Call (tool, cwd, Action)
//! Call + Policy + Fs ──decide──▶ Decision (verdict, rule id, reason)
//! Decision ──host::answer──▶ the host's own protocol (stdout, exit status)
//! ```
//!
//! [`Policy`] is what is protected: every registered harness's
//! configuration as its adapter declares it ([`playbookdiff_adapter::Surface`],
//! handed in by the caller from the registry), the guard's own files,
//! secrets, `.git`, shell start-up files and the `[guard]` table of
//! `playbookdiff.toml`. [`rules::Rule`] is the one rule table: every
//! decision names its rule and says what to do instead.
//!
//! Architecture invariant: the decision core does no I/O. Everything it
//! needs from the file system (links, directory entries, a remote's URL)
//! it asks through the [`Fs`] trait, which the command implements on disk
//! and tests implement in memory; nothing here reads the environment,
//! prints or exits.

pub mod audit;
pub mod brief_scope;
pub mod codex_trust;
mod decide;
pub mod fingerprint;
pub mod fs;
pub mod git_hook;
pub mod glob_reads;
pub mod globs;
pub mod host;
pub mod install;
pub mod ledger;
pub mod patch;
pub mod policy;
pub mod rules;
pub mod shell;
pub mod sources;
pub mod status;

pub use decide::{decide, Decision, NoWorkTrees, Situation, WorkTrees};
pub use fs::{Entry, Fs};
pub use host::{Action, Call, Event, Host};
pub use policy::{GuardConfig, Policy};
pub use rules::{Rule, Verdict};

/// The most bytes of a hook payload the guard reads: 4 MiB (4,194,304
/// bytes). A larger payload is refused unread (a deny), so that no input
/// can hold the guard for long.
pub const PAYLOAD_LIMIT: usize = 4 * 1024 * 1024;

/// The longest shell command the guard parses: 64 KiB (65,536 bytes). A
/// longer one is refused (a deny): parsing time grows with the text, and
/// no command an agent needs is that long.
pub const COMMAND_LIMIT: usize = 64 * 1024;

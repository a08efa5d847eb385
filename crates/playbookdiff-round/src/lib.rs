//! Rounds of agent work under a brief a person approved.
//!
//! A brief is a Markdown file under the briefs folder (`briefs/` unless
//! `playbookdiff.toml` names another) whose front matter says what the
//! round may write (`affectedFiles`), what it must not change
//! (`protectedFiles`), what a write outside the scope gets (`outOfScope`)
//! and the base branch, and whose `## Rulings` table holds the rulings.
//! The idea and the words (brief, round, ruling) come from the
//! spec-harness seed document.
//!
//! - [`brief`] reads one brief into a [`Brief`] and its problems;
//! - [`select`] says which brief a round works under, from what the
//!   command line, the environment and git give it;
//! - [`packet`] builds the context packet an agent starts from;
//! - [`escalate`] and [`rule`] write a memo and a ruling into the
//!   Rulings table; [`rulings`] says which rows count, from their
//!   commits' SSH signatures ([`signature`]) and the base branch's
//!   allowed signers ([`signers`]);
//! - [`probe`] reads a brief's probe and judges its runs at the base
//!   and the head (the command runs them).
//! - [`audit`] says what a round changed against its brief, with the
//!   dependencies its manifests add ([`dependencies`]).
//!
//! Architecture invariant: this crate reads no file, environment variable
//! or git object itself. The caller hands it texts, names and compiled
//! configurations; it returns values and problems, never panics.

pub mod audit;
pub mod brief;
pub mod dependencies;
pub mod escalate;
pub mod packet;
pub mod pattern;
pub mod probe;
pub mod rule;
pub mod rulings;
pub mod select;
pub mod signature;
pub mod signers;

pub use brief::{Brief, BriefProblem, OutOfScope, Ruling};
pub use pattern::FilePattern;

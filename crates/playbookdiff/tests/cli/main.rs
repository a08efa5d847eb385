//! Integration tests of the `playbookdiff` CLI crate, one binary for the
//! crate: one module per area (shared helpers are in `playbookdiff-testkit`).
//! Run one area with `cargo test -p playbookdiff --test cli <module>::`.

mod action;
mod audit;
mod bom;
mod check;
mod cli;
mod corpus;
mod corpus_check;
mod corpus_width;
mod diff;
mod docs;
mod findings;
mod first_run;
mod gate;
mod guard;
mod guard_check;
mod guard_install;
mod guard_replay;
mod html;
mod layout;
mod local_diagnostics;
mod local_mode;
mod mcp;
mod new_user;
mod oracle;
mod oracle_surfaces;
mod outside_root;
mod pre_commit;
mod probe;
mod properties;
mod read_once;
mod read_only;
mod readme;
mod refused;
mod remedies;
mod repo_mode;
mod revisions;
mod round;
mod round_replay;
mod rulings;
mod secrets;
mod six_harnesses;
mod snapshots;
mod symlinks;
mod team;
mod upgrade;
mod work;

/// Counts allocations, the measure of work of the `work` tests.
#[global_allocator]
static ALLOCATOR: playbookdiff_testkit::work::Allocator = playbookdiff_testkit::work::ALLOCATOR;

/// The corpus, `tar` and `git` helpers under the name the modules use.
use playbookdiff_testkit::corpus as support;

//! Integration tests of the `playbookdiff` CLI crate, one binary for the
//! crate: one module per area; `support` holds the helpers they share
//! (git, the corpus). Run one area with
//! `cargo test -p playbookdiff --test cli <module>::`.

mod action;
mod check;
mod cli;
mod corpus;
mod corpus_check;
mod corpus_width;
mod diff;
mod findings;
mod new_user;
mod oracle;
mod pre_commit;
mod properties;
mod read_once;
mod read_only;
mod readme;
mod repo_mode;
mod revisions;
mod secrets;
mod support;
mod symlinks;
mod team;

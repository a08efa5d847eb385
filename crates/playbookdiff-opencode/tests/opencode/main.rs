//! Integration tests of the OpenCode adapter, one binary for the crate
//! (fixtures under `tests/fixtures/`, remedies, per-fixture summary
//! snapshots).

mod fixtures;
mod hooks;
mod layout;
mod remedies;
mod summaries;

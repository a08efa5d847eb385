//! Integration tests of the Copilot CLI adapter, one binary for the crate
//! (fixtures under `tests/fixtures/`, remedies, per-fixture summary
//! snapshots).

mod fixtures;
mod layout;
mod remedies;
mod summaries;

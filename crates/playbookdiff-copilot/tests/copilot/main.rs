//! Integration tests of the Copilot CLI adapter, one binary for the crate
//! (fixtures under `tests/fixtures/`, remedies, per-fixture summary
//! snapshots).

mod fixtures;
mod hooks_agents;
mod layout;
mod older;
mod remedies;
mod summaries;

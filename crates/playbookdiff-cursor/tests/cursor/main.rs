//! Integration tests of the Cursor adapter, one binary for the crate
//! (fixtures under `tests/fixtures/`, remedies, per-fixture summary
//! snapshots). Every fact tested is Cursor's documentation, not an
//! observation of the agent.

mod facts;
mod layout;
mod remedies;
mod summaries;

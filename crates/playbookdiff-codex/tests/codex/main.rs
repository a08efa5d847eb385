//! Integration tests of the Codex adapter, one binary for the crate: one
//! module per area (fixtures under `tests/fixtures/`, fidelity to the
//! profiled Codex versions, remedies, scope and malformed input,
//! per-fixture summary snapshots).

mod fidelity;
mod fixtures;
mod hooks;
mod layout;
mod remedies;
mod scope_and_malformed_input;
mod summaries;

//! Integration tests of the OpenCode adapter, one binary for the crate
//! (fixtures under `tests/fixtures/`).

mod fixtures;
mod summaries;

//! The guard's integration tests: the decision table, hostile payloads,
//! and the invariant that protection follows the adapters.

mod globs;
mod hostile;
mod hosts;
mod surfaces;
mod table;

//! Integration tests of the adapter registry, one binary for the crate.

mod indexed_names;
mod invariants;
mod literals;
mod message_style;
mod shared_repo;

//! Integration tests of the adapter registry, one binary for the crate.

mod invariants;
mod message_style;

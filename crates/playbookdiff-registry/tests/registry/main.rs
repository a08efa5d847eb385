//! Integration tests of the adapter registry, one binary for the crate.

mod bisected;
mod indexed_names;
mod invariants;
mod message_style;
mod rust_lexer;
mod shared_repo;
mod target_tests;

//! Integration tests of the compare crate, one binary for the crate.

mod behaviours;
mod settled;
mod sides;
mod subagents;

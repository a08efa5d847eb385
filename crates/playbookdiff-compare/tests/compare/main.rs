//! Integration tests of the compare crate, one binary for the crate.

mod behaviours;
mod hooks;
mod permissions;
mod plugins;
mod revisions;
mod settled;
mod sides;
mod subagents;

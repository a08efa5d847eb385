//! Integration tests of the Claude Code adapter, one binary for the crate.
//!
//! `cases` holds the fixture tests (spec 000 "Fixture checklist" and the
//! Claude Code field reports): every directory under `tests/fixtures/` is a
//! tiny repository; each test compiles one under a stated context and
//! asserts the facts the case exists for. `common` holds their helpers.
//! `hostile`, `properties` and `secrets` test hostile trees, the path
//! matcher's properties and that no secret value reaches the output.

/// Counts allocations, the measure of work of the tests that bound the
/// cost of a compilation (`playbookdiff_testkit::work`).
#[global_allocator]
static ALLOCATOR: playbookdiff_testkit::work::Allocator = playbookdiff_testkit::work::ALLOCATOR;

mod cases;
mod common;
mod hostile;
mod layout;
mod properties;
mod remedies;
mod secrets;
mod summaries;

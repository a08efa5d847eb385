//! Fixture tests of the Claude Code adapter (spec 000 "Fixture checklist"
//! and the Claude Code field reports): every directory under
//! `tests/fixtures/` is a tiny repository; each test compiles one under a
//! stated context and asserts the facts the case exists for.

mod cases;
mod common;

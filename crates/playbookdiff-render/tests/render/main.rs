//! Integration tests of the render crate, one binary for the crate:
//! generated files, the configuration schema, issue references.

mod config_schema;
mod generated;
mod issue_references;

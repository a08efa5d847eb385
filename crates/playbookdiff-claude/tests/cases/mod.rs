//! The fixture tests, one module per area.

mod imports;
mod instructions;
mod mcp;
mod read_only;
mod rules;
mod settings;
mod skills;
mod symlinks;

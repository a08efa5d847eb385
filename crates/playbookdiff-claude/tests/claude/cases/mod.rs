//! The fixture tests, one module per area.

mod agents;
mod fidelity;
mod imports;
mod instructions;
mod malformed;
mod mcp;
mod read_only;
mod rules;
mod scope;
mod settings;
mod skills;
mod symlinks;

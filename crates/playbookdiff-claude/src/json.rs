//! Strict JSON with key lines: the toolkit's [`playbookdiff_adapter::json`],
//! which Claude Code's settings and `.mcp.json` are read with.

pub(crate) use playbookdiff_adapter::json::*;

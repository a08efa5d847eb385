//! The files the agents read as configuration because another
//! configuration file names them: imports (`@docs/x.md` in `CLAUDE.md`),
//! OpenCode's `instructions` globs and extra skill paths, Codex's
//! fallback instruction names. The adapters' [`Surface`]s cannot list
//! them (they depend on file content), so the guard asks each adapter's
//! compilation for its sources, once, and protects them like the
//! surfaces ([`crate::Policy::with_sources`]).
//!
//! This module reads the repository (through `playbookdiff-source`); the
//! command caches its answer, so a hook call never compiles.
//!
//! [`Surface`]: playbookdiff_adapter::Surface

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{AnalysisContext, Mode};
use playbookdiff_source::{Repo, SourceTree};

/// Every source path (repository-relative) that `adapters` compile from
/// `tree` launched at its root, in local mode (personal files included),
/// sorted and without repeats.
pub fn compiled(adapters: &[&dyn Adapter], tree: &dyn SourceTree) -> Vec<String> {
    let repo = Repo::new(tree);
    let context = AnalysisContext {
        mode: Mode::Local,
        ..AnalysisContext::at_root()
    };
    let mut out: Vec<String> = adapters
        .iter()
        .flat_map(|a| {
            let config = a.compile(&repo, &context, None);
            let paths: Vec<String> = config
                .instructions
                .iter()
                .map(|i| i.source.path.as_str().to_string())
                .chain(
                    config
                        .skills
                        .iter()
                        .map(|s| s.source.path.as_str().to_string()),
                )
                .chain(
                    config
                        .mcp_servers
                        .iter()
                        .map(|m| m.source.path.as_str().to_string()),
                )
                .collect();
            paths
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

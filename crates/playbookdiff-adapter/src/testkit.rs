//! What every adapter's fixture tests need (feature `testkit`, for
//! dev-dependencies only): compile a fixture directory under a context
//! given as strings, and find an item of the result or fail the test with
//! what was missing.

use playbookdiff_model::{
    AnalysisContext, EffectiveAgentConfig, Instruction, McpServer, Mode, RepoPath, Skill,
};
use playbookdiff_source::{Repo, WorkingTree};
use std::path::Path;

/// An adapter crate's `compile` function.
pub type Compile = fn(&Repo<'_>, &AnalysisContext) -> EffectiveAgentConfig;

/// `s` as a repository path. Panics on an invalid one (a test's typo).
pub fn rp(s: &str) -> RepoPath {
    RepoPath::new(s).unwrap_or_else(|| panic!("invalid test path {s:?}"))
}

/// What `compile` gives for the repository at `root` launched in `cwd`
/// (repository-relative, `"."` for the root), with `target` as targetPath,
/// in `mode`. Panics when `root` cannot be opened.
pub fn compile_dir(
    compile: Compile,
    root: &Path,
    cwd: &str,
    target: Option<&str>,
    mode: Mode,
) -> EffectiveAgentConfig {
    let tree =
        WorkingTree::open(root).unwrap_or_else(|e| panic!("fixture {} opens: {e}", root.display()));
    let repo = Repo::new(&tree);
    let ctx = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: rp(cwd),
        target_path: target.map(rp),
        mode,
    };
    compile(&repo, &ctx)
}

/// The instruction entry read from `path`; panics when there is none.
pub fn inst<'a>(c: &'a EffectiveAgentConfig, path: &str) -> &'a Instruction {
    c.instruction_at(path)
        .unwrap_or_else(|| panic!("no instruction {path}"))
}

/// The skill read from `path`; panics when there is none.
pub fn skill<'a>(c: &'a EffectiveAgentConfig, path: &str) -> &'a Skill {
    c.skill_at(path)
        .unwrap_or_else(|| panic!("no skill {path}"))
}

/// The MCP server named `name`; panics when there is none.
pub fn server<'a>(c: &'a EffectiveAgentConfig, name: &str) -> &'a McpServer {
    c.mcp_server(name)
        .unwrap_or_else(|| panic!("no server {name}"))
}

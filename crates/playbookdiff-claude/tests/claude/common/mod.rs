//! Helpers of the Claude Code adapter's tests: the shared test kit
//! (`playbookdiff-testkit`) with this crate's adapter bound, so a test says
//! `compile("fixture", at_root().cwd("apps/a"))`, and the symlink fixtures
//! built in a temporary directory.

#![allow(dead_code)]

pub(crate) use playbookdiff_testkit::fs::*;
pub(crate) use playbookdiff_testkit::trees::{DeniedFiles, LockedDirs, MemTree};
pub(crate) use playbookdiff_testkit::*;

use playbookdiff_model::EffectiveAgentConfig;
use std::path::{Path, PathBuf};

/// This crate's adapter and fixtures.
pub(crate) static KIT: Kit = Kit::new(&playbookdiff_claude::ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// The directory of this crate's fixture `name`.
pub(crate) fn fixture(name: &str) -> PathBuf {
    KIT.fixture(name)
}

/// Every fixture directory of this crate, sorted.
pub(crate) fn all_fixtures() -> Vec<PathBuf> {
    KIT.all_fixtures()
}

/// Compiles the repository at `dir` under `ctx` with the Claude Code adapter.
pub(crate) fn compile_dir(dir: &Path, ctx: &Ctx) -> EffectiveAgentConfig {
    KIT.compile_dir(dir, ctx)
}

/// Compiles the repository `tree` under `ctx` with the Claude Code adapter.
pub(crate) fn compile_tree(
    tree: &dyn playbookdiff_source::SourceTree,
    ctx: &Ctx,
) -> EffectiveAgentConfig {
    KIT.compile_tree(tree, ctx)
}

/// Writes `text` to `root/rel`, creating directories (the kit's
/// [`playbookdiff_testkit::fs::write`] for text).
pub(crate) fn write(root: &Path, rel: &str, text: &str) {
    playbookdiff_testkit::fs::write(root, rel, text)
}

/// Compiles fixture `name` under `ctx`.
pub(crate) fn compile(name: &str, ctx: Ctx) -> EffectiveAgentConfig {
    compile_dir(&fixture(name), &ctx)
}

// ----- Symlink fixtures, built in a temporary directory -----

/// `.claude/rules` with a symlinked rule file, a symlinked rule directory,
/// a dangling rule link and a link that leaves the repository.
pub(crate) fn rule_symlinks() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "shared/rules/security.md", "# Security\n");
    write(r, "shared/rules/extra/logging.md", "# Logging\n");
    write(r, ".claude/rules/local.md", "# Local\n");
    link(
        r,
        "../../shared/rules/security.md",
        ".claude/rules/security.md",
    );
    link(r, "../../shared/rules/extra", ".claude/rules/extra");
    link(r, "nowhere.md", ".claude/rules/dangling.md");
    link(r, "/etc/hostname", ".claude/rules/outside.md");
    t
}

/// A root `CLAUDE.md` that is a symbolic link to `AGENTS.md`; in the
/// monorepo below it only `apps/a` has the `CLAUDE.md` link, `apps/b` has
/// `AGENTS.md` alone (field report 17).
pub(crate) fn claude_md_symlink_bridge() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "AGENTS.md", "# Shared agents\n");
    link(r, "AGENTS.md", "CLAUDE.md");
    write(r, "apps/a/AGENTS.md", "# A agents\n");
    link(r, "AGENTS.md", "apps/a/CLAUDE.md");
    write(r, "apps/a/src/main.ts", "export {};\n");
    write(r, "apps/b/AGENTS.md", "# B agents\n");
    write(r, "apps/b/src/main.ts", "export {};\n");
    t
}

/// Every symlink fixture, for the read-only test.
pub(crate) fn symlink_fixtures() -> Vec<tempfile::TempDir> {
    vec![rule_symlinks(), claude_md_symlink_bridge()]
}

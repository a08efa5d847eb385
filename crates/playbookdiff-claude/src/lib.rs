//! Claude Code discovery: what Claude Code receives from a repository.
//!
//! Implements spec 000 (the Claude Code adapter specification) over the
//! read-only [`Repo`]: startup ancestor instructions, nested on-demand
//! instructions, `@path` imports, `.claude/rules`, `claudeMdExcludes`,
//! project settings from `<cwd>/.claude/`, skills, and the project
//! `.mcp.json`. [`compile`] never fails: every problem becomes a
//! diagnostic in the returned [`EffectiveAgentConfig`].
//!
//! Architecture invariant: this crate reads only through
//! `playbookdiff_source::Repo`, never writes, never executes, never
//! contacts an MCP server and never reads the analyser's environment.

mod instructions;
pub mod matcher;
mod mcp;
pub mod remedy;
mod settings;
mod skills;

use playbookdiff_model::{
    AnalysisContext, Applicability, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness,
    LoadPhase, Mode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{Repo, Resolved};
use std::collections::HashMap;

/// Entry names whose presence makes a directory hold Claude Code
/// configuration (a candidate launch directory for `check --all-dirs`).
pub const CONFIG_ENTRY_NAMES: &[&str] = &["CLAUDE.md", "CLAUDE.local.md", ".claude", ".mcp.json"];

/// Claude Code skips memory files over 4 MiB (harness facts A1); the same
/// limit bounds every file this adapter reads.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Compiles what Claude Code receives from `repo` under `context`.
///
/// Never fails and never panics on repository content: problems are
/// diagnostics in the result. Source: spec 000.
pub fn compile(repo: &Repo<'_>, context: &AnalysisContext) -> EffectiveAgentConfig {
    let mut cx = Compiler::new(repo, context);
    cx.walk_problems();
    let settings = settings::load(&mut cx);
    instructions::compile(&mut cx, &settings);
    skills::compile(&mut cx, &settings);
    mcp::compile(&mut cx, &settings);
    cx.finish()
}

/// Shared state of one compilation.
pub(crate) struct Compiler<'a, 'r> {
    pub repo: &'a Repo<'r>,
    pub ctx: &'a AnalysisContext,
    pub out: EffectiveAgentConfig,
    ids: HashMap<String, u32>,
    target_outside_reported: bool,
}

impl<'a, 'r> Compiler<'a, 'r> {
    fn new(repo: &'a Repo<'r>, ctx: &'a AnalysisContext) -> Self {
        let mut out = EffectiveAgentConfig::new(Harness::ClaudeCode, ctx.clone());
        out.assumptions.push(match ctx.mode {
            Mode::Repo => "Repo mode: only repository-defined configuration is compiled; ~/.claude, managed policy, \
                           CLAUDE.local.md and .claude/settings.local.json are not read."
                .to_string(),
            Mode::Local => "Local mode: CLAUDE.local.md and .claude/settings.local.json in the tree are read; \
                            ~/.claude and managed policy are not."
                .to_string(),
        });
        out.assumptions.push(format!(
            "Claude Code starts in `{}` and the repository root is its project root.",
            ctx.cwd
        ));
        out.assumptions.push(
            "Files below the launch directory load on demand once the agent reads or edits a file in their directory \
             (Read, Edit and Write do this; Bash, Grep and Glob are reported not to)."
                .to_string(),
        );
        out.diagnostics.push(Diagnostic::new(
            DiagnosticCode::UserConfigUnavailable,
            "~/.claude/CLAUDE.md, ~/.claude/rules, ~/.claude/skills, ~/.claude/settings.json and user MCP servers in \
             ~/.claude.json are not read; they can add to what Claude Code receives.",
        ));
        out.diagnostics.push(Diagnostic::new(
            DiagnosticCode::ManagedConfigUnavailable,
            "Managed policy (managed CLAUDE.md, managed-settings.json, server-managed settings) is not read; it can add \
             instructions and cannot be excluded.",
        ));
        Compiler {
            repo,
            ctx,
            out,
            ids: HashMap::new(),
            target_outside_reported: false,
        }
    }

    /// A unique id from `base`: the first use is `base`, later ones `base~2`…
    pub fn unique_id(&mut self, base: String) -> String {
        let n = self.ids.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base
        } else {
            format!("{base}~{n}")
        }
    }

    pub fn diag(&mut self, d: Diagnostic) {
        self.out.diagnostics.push(d);
    }

    fn walk_problems(&mut self) {
        let problems = self.repo.walk_problems().to_vec();
        for p in problems.iter().take(20) {
            self.diag(Diagnostic::new(
                DiagnosticCode::Unreadable,
                format!(
                    "`{}` could not be listed ({}); configuration below it is unknown.",
                    p.path, p.message
                ),
            ));
        }
        if problems.len() > 20 {
            self.diag(Diagnostic::new(
                DiagnosticCode::Unreadable,
                format!(
                    "{} more directories could not be listed.",
                    problems.len() - 20
                ),
            ));
        }
    }

    /// The source reference for `path` with its resolved target when it is
    /// reached through a symbolic link.
    pub fn source_ref(
        &self,
        path: &RepoPath,
        scope: SourceScope,
        format: SourceFormat,
    ) -> SourceRef {
        let mut s = SourceRef::project(path.clone(), format);
        s.scope = scope;
        if let Resolved::Inside {
            real,
            via_link: true,
            ..
        } = self.repo.resolve(path)
        {
            s.resolved_path = Some(real);
        }
        s
    }

    /// Reports why `path` (which exists as an index entry) cannot be read
    /// as a file: a dangling link, a link out of the repository, a loop.
    /// Returns true when it resolves to a readable file.
    pub fn check_link(&mut self, path: &RepoPath, format: SourceFormat) -> bool {
        match self.repo.resolve(path) {
            Resolved::Inside {
                kind: playbookdiff_source::EntryKind::File,
                ..
            } => true,
            Resolved::Inside { .. } | Resolved::Missing => false,
            Resolved::Dangling { link, target } => {
                self.diag(
                    Diagnostic::new(
                        DiagnosticCode::SymlinkDangling,
                        format!("`{link}` links to `{target}`, which does not exist; nothing is loaded from `{path}`."),
                    )
                    .at(SourceRef::project(path.clone(), format)),
                );
                false
            }
            Resolved::Outside { link, .. } => {
                self.diag(
                    Diagnostic::new(
                        DiagnosticCode::SymlinkOutsideRepository,
                        format!(
                            "`{link}` links outside the repository; repo mode does not read `{path}` because its \
                             content is not reproducible from the repository."
                        ),
                    )
                    .at(SourceRef::project(path.clone(), format)),
                );
                false
            }
            Resolved::Loop { link } => {
                self.diag(
                    Diagnostic::new(
                        DiagnosticCode::SymlinkLoop,
                        format!(
                            "`{link}` is part of a symbolic link loop; `{path}` cannot be loaded."
                        ),
                    )
                    .at(SourceRef::project(path.clone(), format)),
                );
                false
            }
        }
    }

    /// Reads a text file with the adapter's size limit, reporting a too
    /// large file, an unreadable one and invalid UTF-8.
    pub fn read(
        &mut self,
        path: &RepoPath,
        format: SourceFormat,
    ) -> Option<std::sync::Arc<playbookdiff_source::TextFile>> {
        match self.repo.read_text(path, MAX_FILE_BYTES) {
            Ok(t) => {
                if t.invalid_utf8 {
                    self.diag(
                        Diagnostic::new(
                            DiagnosticCode::InvalidUtf8,
                            format!(
                                "`{path}` is not valid UTF-8; invalid bytes are shown as U+FFFD."
                            ),
                        )
                        .at(SourceRef::project(path.clone(), format)),
                    );
                }
                Some(t)
            }
            Err(playbookdiff_source::SourceError::TooLarge { len, .. }) => {
                self.diag(
                    Diagnostic::new(
                        DiagnosticCode::FileTooLarge,
                        format!(
                            "`{path}` is {len} bytes; Claude Code skips files over 4 MiB, so nothing from it is \
                             loaded. Split it or move detail into imported files."
                        ),
                    )
                    .at(SourceRef::project(path.clone(), format)),
                );
                None
            }
            Err(e) => {
                if self.repo.kind(path).is_some() && self.check_link(path, format) {
                    self.diag(
                        Diagnostic::new(
                            DiagnosticCode::Unreadable,
                            format!("{e}; its content is unknown."),
                        )
                        .at(SourceRef::project(path.clone(), format)),
                    );
                }
                None
            }
        }
    }

    /// The directory the target path lies in: the target itself when it is a
    /// directory, else its parent.
    pub fn target_dir(&self) -> Option<RepoPath> {
        let t = self.ctx.target_path.as_ref()?;
        if self.repo.is_dir(t) {
            Some(t.clone())
        } else {
            Some(t.parent().unwrap_or_else(RepoPath::root))
        }
    }

    /// Placement of an item owned by directory `dir` off the startup chain
    /// (neither cwd nor an ancestor of it): below cwd it loads on demand
    /// ([`Compiler::on_demand`]); near a target outside cwd it is
    /// conditional (on-demand loading there is undocumented; reported once
    /// as `target-outside-cwd`); anywhere else it is out of scope. One
    /// rule for instructions, rules roots and skills.
    pub fn off_chain(&mut self, dir: &RepoPath) -> (LoadPhase, Applicability, String) {
        let cwd = self.ctx.cwd.clone();
        if strictly_below(dir, &cwd) {
            let (a, r) = self.on_demand(dir);
            return (LoadPhase::OnDemand, a, r);
        }
        if self.target_dir().is_some_and(|td| td.starts_with(dir)) {
            if !self.target_outside_reported {
                self.target_outside_reported = true;
                self.diag(Diagnostic::new(
                    DiagnosticCode::TargetOutsideCwd,
                    format!(
                        "The target is outside the launch directory `{cwd}`; Claude Code documents on-demand loading \
                         only below the launch directory, so instructions, rules and skills near the target are \
                         conditional."
                    ),
                ));
            }
            return (
                LoadPhase::OnDemand,
                Applicability::Conditional,
                format!("`{dir}` is outside the launch directory; on-demand loading there is undocumented"),
            );
        }
        (
            LoadPhase::OnDemand,
            Applicability::OutOfScope,
            format!("`{dir}` is neither the launch directory, an ancestor of it, nor below it"),
        )
    }

    /// For an item below the launch directory owned by directory `dir`:
    /// effective on demand when the target lies in `dir`'s subtree, else
    /// conditional; with the sentence saying why.
    pub fn on_demand(&self, dir: &RepoPath) -> (Applicability, String) {
        match self.target_dir() {
            Some(td) if td.starts_with(dir) => (
                Applicability::Effective,
                format!(
                    "loads on demand after a file in `{dir}` is read or edited; the target `{}` is there",
                    self.ctx.target_path.as_ref().map(|p| p.as_str()).unwrap_or("")
                ),
            ),
            Some(_) => (
                Applicability::Conditional,
                format!("would load on demand after a file in `{dir}` is read or edited; the target is elsewhere"),
            ),
            None => (
                Applicability::Conditional,
                format!("would load on demand after a file in `{dir}` is read or edited; no target was given"),
            ),
        }
    }

    fn finish(mut self) -> EffectiveAgentConfig {
        // Context order: effective startup, effective on-demand, the rest in
        // discovery order.
        let mut next = 0u32;
        for phase in [LoadPhase::Startup, LoadPhase::OnDemand] {
            for i in self.out.instructions.iter_mut() {
                if i.applicability == Applicability::Effective && i.load_phase == phase {
                    i.order = Some(next);
                    next += 1;
                }
            }
        }
        self.out
            .instructions
            .sort_by_key(|i| i.order.unwrap_or(u32::MAX));
        self.out
    }
}

/// True when `dir` lies at or below `cwd` but is not `cwd` itself.
pub(crate) fn strictly_below(dir: &RepoPath, cwd: &RepoPath) -> bool {
    dir != cwd && dir.starts_with(cwd)
}

/// True when no component of `p` is `.claude` (memory files and roots of
/// `.claude` directories must not sit inside another `.claude`).
pub(crate) fn outside_dot_claude(p: &RepoPath) -> bool {
    !p.components().any(|c| c == ".claude")
}

//! Instructions: CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, rules and
//! `@path` imports.
//!
//! Source: spec 000 "Instructions", "Startup discovery", "Nested on-demand
//! discovery", "Imports", "Rules"; harness facts A1–A5.
//!
//! Order at startup: directories from the repository root to cwd; within a
//! directory `CLAUDE.md`, `.claude/CLAUDE.md` (both load, verified at the
//! root and generalized to every level), the unconditional rules of that
//! directory's `.claude/rules`, then `CLAUDE.local.md`. An import expands
//! inline where it stands, splitting the importing file into pieces.
//!
//! On demand, for each directory below cwd (or on the way to a target
//! outside it): `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`, then
//! that directory's `.claude/rules`, unconditional rules before path-scoped
//! ones, whose `paths` are relative to that directory (fidelity C14).
//!
//! Each real file enters the context at most once: Claude Code's memory
//! loader keeps a set of the files it has processed. Files are discovered
//! first and expanded afterwards in context order (startup before on
//! demand, effective before the rest), so the first inclusion is the one
//! the agent receives; a later import of the same file is reported as
//! `import-repeated`. This also bounds the work: an import graph in which
//! every file imports the next one forty times costs one expansion per
//! file, not forty to the power of the depth.
//!
//! One module per concept of the agent: [`memory`] files and the AGENTS.md
//! fallback, [`rules`], `@path` [`imports`] (where a token leads:
//! [`import_targets`]), [`excludes`] (`claudeMdExcludes`) and the AGENTS.md
//! [`bridge`]. This module discovers the files in context order and lists
//! them.

mod bridge;
mod excludes;
mod import_targets;
mod imports;
mod memory;
mod rules;

use self::bridge::agents_md_bridges;
use self::imports::{expand, ExpandJob};
use self::memory::{agents_md_fallback, fallback_files, memory_dirs, memory_files, top_file};
use self::rules::rules_root;
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, ByteSpan, Diagnostic, DiagnosticCode, Instruction, LoadPhase, RepoPath,
    SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{Resolved, TextFile};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The documented import recursion limit (harness facts A2: four hops in
/// current docs; five in older ones).
pub const MAX_IMPORT_HOPS: usize = 4;

/// How a file enters the context.
#[derive(Clone)]
struct Placement {
    kind: &'static str,
    scope: SourceScope,
    load_phase: LoadPhase,
    applicability: Applicability,
    reason: String,
    applies_to: RepoPath,
}

impl Placement {
    /// The position of its group in context order
    /// ([`group_of`]) for the launch directory `cwd`.
    fn group(&self, cwd: &RepoPath) -> u8 {
        group_of(
            self.load_phase,
            self.applicability,
            cwd.starts_with(&self.applies_to),
        )
    }
}

/// The position of an entry's group in context order: effective at
/// startup; effective on demand from the directories a read walks into
/// (their memory files and rules roots); effective on demand from the
/// startup chain (path-scoped rules of the launch directory and its
/// ancestors, which Claude Code attaches after the nested files: seen with
/// 2.1.197 and 2.1.332, fixture `c13_target_outside_cwd`); then everything
/// else. `on_chain` is true when the entry's directory is cwd or an
/// ancestor of it.
fn group_of(phase: LoadPhase, applicability: Applicability, on_chain: bool) -> u8 {
    match (applicability, phase) {
        (Applicability::Effective, LoadPhase::Startup) => 0,
        (Applicability::Effective, _) if !on_chain => 1,
        (Applicability::Effective, _) => 2,
        _ => 3,
    }
}

/// Which part of a file a job lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The file's entry, then the files it imports.
    Whole,
    /// The entry of a path-scoped rule alone: its imports were listed at
    /// startup by a [`Part::Imports`] job.
    Entry,
    /// The files a path-scoped rule imports, without the rule: Claude Code
    /// loads them at startup whatever the rule's `paths` (fidelity C12).
    Imports,
}

/// A discovered top-level file, listed once discovery is complete. Each
/// kind is boxed: the list is grown and sorted, and a job inline is
/// hundreds of bytes.
enum Job {
    /// A memory or rule file to split at its imports and expand.
    Expand(Box<Expansion>),
    /// An entry listed as it is (excluded, unavailable).
    Push(Box<Instruction>),
}

/// A memory or rule file to split at its imports and expand ([`Job::Expand`]).
struct Expansion {
    path: RepoPath,
    text: Arc<TextFile>,
    body_start: usize,
    place: Placement,
    source: SourceRef,
    paths: Option<Vec<String>>,
    part: Part,
    /// The entry's id, when fixed at discovery (a path-scoped rule, whose
    /// imports are listed before it).
    id: Option<String>,
}

impl Job {
    fn group(&self, cwd: &RepoPath) -> u8 {
        match self {
            Job::Expand(e) => e.place.group(cwd),
            Job::Push(i) => group_of(
                i.load_phase,
                i.applicability,
                cwd.starts_with(&i.applies_to),
            ),
        }
    }
}

/// State of one instruction compilation beside the shared [`Compiler`].
struct Loader<'s> {
    settings: &'s Settings,
    /// Import spans of path-scoped rules, found when their imports were
    /// listed at startup, for the rule's own entry.
    rule_spans: HashMap<RepoPath, Vec<ByteSpan>>,
    /// Imported files already listed as excluded.
    excluded_imports: HashSet<RepoPath>,
}

/// The repository directory a piece from `dir` applies to: `dir` itself,
/// or the root for a directory above the repository root (its files apply
/// to the whole repository).
fn applies_to_of(dir: &RepoPath) -> RepoPath {
    if dir.is_above_root() {
        RepoPath::root()
    } else {
        dir.clone()
    }
}

pub fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let mut loader = Loader {
        settings,
        rule_spans: HashMap::new(),
        excluded_imports: HashSet::new(),
    };
    let cwd = cx.ctx.cwd.clone();
    // With --outside-root, the directories above the root come first,
    // furthest first (fidelity C4: the walk goes up to `/`).
    let mut startup_dirs = cx.above_root_dirs();
    startup_dirs.extend(cwd.ancestors_root_first());
    let mut nested_generalized = false;
    let mut jobs: Vec<Job> = Vec::new();
    let fallback = agents_md_fallback(cx, &startup_dirs);

    // Startup: (above the root →) root → cwd.
    for dir in &startup_dirs {
        // Under the fallback the memory files here are absent, dangling or
        // not files (still listed, to be reported); AGENTS.md takes
        // CLAUDE.md's place, before the rules and CLAUDE.local.md.
        let mut files = memory_files(dir);
        if fallback {
            let at = files
                .iter()
                .position(|(_, kind, _)| *kind == "local-memory")
                .unwrap_or(files.len());
            files.splice(at..at, fallback_files(dir));
        }
        for (path, kind, dot_claude) in files {
            if cx.kind_at(&path).is_none() {
                continue;
            }
            let by_fallback = fallback && path.file_name() == Some("AGENTS.md");
            // An AGENTS.md over the size limit is skipped like any memory
            // file (its `file-too-large` diagnostic says so): the fallback
            // loads nothing from it, so no diagnostic says it loads.
            let too_large = !path.is_above_root()
                && matches!(
                    cx.repo.read_text(&path, crate::READ_LIMIT),
                    Err(playbookdiff_source::SourceError::TooLarge { .. })
                );
            if by_fallback && !too_large {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::AgentsMdFallback,
                        format!(
                            "`{path}` loads at startup because no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` \
                             is on the path from the repository root to the launch directory: Claude Code {} reads \
                             `AGENTS.md` there instead (2.1.277 and later).",
                            cx.profile.version
                        ),
                    )
                    .at(SourceRef::project(path.clone(), SourceFormat::Markdown)),
                );
            }
            if dot_claude && !dir.is_root() && !dir.is_above_root() {
                nested_generalized = true;
            }
            let place = Placement {
                kind,
                scope: if kind == "local-memory" {
                    SourceScope::Local
                } else {
                    SourceScope::Project
                },
                load_phase: LoadPhase::Startup,
                applicability: Applicability::Effective,
                reason: match (by_fallback, dir == &cwd) {
                    _ if dir.is_above_root() => format!(
                        "loaded at startup from `{dir}`, a directory above the repository root (read with \
                         --outside-root){}",
                        if by_fallback { ", by the AGENTS.md fallback (2.1.277 and later)" } else { "" }
                    ),
                    (false, true) => "loaded at startup from the launch directory".to_string(),
                    (false, false) => format!("loaded at startup from `{dir}`, an ancestor of the launch directory"),
                    (true, _) => "loaded at startup by the AGENTS.md fallback (2.1.277 and later): no CLAUDE.md \
                                  from the repository root to the launch directory"
                        .to_string(),
                },
                applies_to: applies_to_of(dir),
            };
            if kind == "local-memory" {
                // Rules of this directory come before CLAUDE.local.md.
                rules_root(cx, settings, dir, None, &mut jobs);
            }
            top_file(cx, settings, &path, place, &mut jobs);
        }
        if cx
            .kind_at(&dir.join("CLAUDE.local.md").unwrap_or_else(RepoPath::root))
            .is_none()
        {
            rules_root(cx, settings, dir, None, &mut jobs);
        }
    }

    // Below cwd (on demand) and on the way to a target outside cwd
    // (conditional). Directories beside the path are not in scope.
    for dir in memory_dirs(cx) {
        let (load_phase, applicability, reason) = cx.off_chain(&dir);
        if applicability == Applicability::OutOfScope {
            continue;
        }
        for (path, kind, dot_claude) in memory_files(&dir) {
            if cx.repo.kind(&path).is_none() {
                continue;
            }
            if dot_claude {
                nested_generalized = true;
            }
            let place = Placement {
                kind,
                scope: if kind == "local-memory" {
                    SourceScope::Local
                } else {
                    SourceScope::Project
                },
                load_phase,
                applicability,
                reason: reason.clone(),
                applies_to: dir.clone(),
            };
            top_file(cx, settings, &path, place, &mut jobs);
        }
        // The directory's own rules root follows its memory files
        // (fidelity C14).
        let base = (load_phase, applicability, reason);
        rules_root(cx, settings, &dir, Some(&base), &mut jobs);
    }
    if nested_generalized {
        cx.diag(Diagnostic::new(
            DiagnosticCode::DotClaudeMemoryGeneralized,
            "A `.claude/CLAUDE.md` below the repository root is treated like the root one (loaded after `CLAUDE.md` in \
             the same directory); this is verified at the root only.",
        ));
    }

    // List and expand in context order (a stable sort keeps discovery order
    // within each group), so that a file's first inclusion is the one the
    // agent receives first.
    jobs.sort_by_key(|j| j.group(&cwd));
    let mut repeated_any = false;
    for job in jobs {
        match job {
            Job::Push(i) => cx.out.instructions.push(*i),
            Job::Expand(e) => {
                let Expansion {
                    path,
                    text,
                    body_start,
                    place,
                    source,
                    paths,
                    part,
                    id,
                } = *e;
                let real = cx.repo_real(&path);
                // A rule's imports part expands without the rule itself,
                // which is not in the context yet; a whole file is
                // included once.
                if part != Part::Imports {
                    if let Some(first) = cx.included.get(&real).cloned() {
                        repeated_any = true;
                        let how = first.describe(&path);
                        let what = if real == path {
                            format!("`{path}` is already in the context ({how})")
                        } else {
                            format!("`{path}` is `{real}`, which is already in the context ({how})")
                        };
                        cx.diag_once(
                            &path,
                            &real,
                            Diagnostic::new(
                                DiagnosticCode::ImportRepeated,
                                format!(
                                    "{what}; Claude Code includes each file once, so it is not loaded again here."
                                ),
                            )
                            .at(source.clone()),
                        );
                        continue;
                    }
                    cx.included.insert(
                        real.clone(),
                        crate::Inclusion {
                            by: path.clone(),
                            imported: false,
                        },
                    );
                }
                let mut stack = vec![real];
                let job = ExpandJob {
                    path: &path,
                    text: &text,
                    body_start,
                    part,
                    id,
                    place: &place,
                    imported_from: None,
                    source,
                    paths,
                };
                repeated_any |= expand(cx, &mut loader, job, &mut stack);
            }
        }
    }
    if repeated_any {
        cx.out.assumptions.push(
            "Each file enters the context once: Claude Code's memory loader skips a file it has already processed, so \
             a file imported again (or reached again through a link) is listed where it was first included."
                .to_string(),
        );
    }

    agents_md_bridges(cx);
}

impl Compiler<'_, '_> {
    /// The real path of `p` (itself when not a link).
    pub(crate) fn repo_real(&self, p: &RepoPath) -> RepoPath {
        if p.is_above_root() {
            return match self.above_reach(p) {
                Some(playbookdiff_source::Reach::Above { real, .. }) => real.to_repo_path(),
                Some(playbookdiff_source::Reach::Repository { real, .. }) => real,
                _ => p.clone(),
            };
        }
        match self.repo.resolve(p) {
            Resolved::Inside { real, .. } => real,
            Resolved::Outside { .. } => self
                .outside_target(p)
                .map_or_else(|| p.clone(), |(real, _)| real),
            _ => p.clone(),
        }
    }
}

/// The placement of a directory off the startup chain
/// ([`Compiler::off_chain`]): phase, applicability and why.
type OffChain = (LoadPhase, Applicability, String);

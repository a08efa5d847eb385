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
//! `import-repeated`. Before `NestedSkipsStartupFiles` (profile), a read
//! starts that set empty: a file loaded at startup that the read reaches
//! again enters a second time, on demand. This also bounds the work: an
//! import graph in which every file imports the next one forty times
//! costs one expansion per file and phase, not forty to the power of the
//! depth.
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
use self::memory::{
    agents_md_fallback, memory_dirs, memory_files, report_fallback, startup_files, top_file,
};
use self::rules::{rule_file, rules_root};
use crate::profile::Fact;
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, ByteSpan, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase,
    RepoPath, SourceRef, SourceScope,
};
use playbookdiff_source::{Resolved, TextFile};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The documented import recursion limit (harness facts A2: four hops in
/// current docs; five in older ones).
pub(crate) const MAX_IMPORT_HOPS: usize = 4;

/// How a file enters the context.
#[derive(Clone)]
struct Placement {
    kind: InstructionKind,
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

/// Compiles the instructions of the launch directory into `cx.out`: the
/// files found at startup and on demand, listed in context order, then
/// the AGENTS.md files no instruction bridges.
pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let mut jobs: Vec<Job> = Vec::new();
    let mut generalized = startup(cx, settings, &mut jobs);
    generalized |= on_demand(cx, settings, &mut jobs);
    if generalized {
        cx.diag(Diagnostic::new(
            DiagnosticCode::DotClaudeMemoryGeneralized,
            "A `.claude/CLAUDE.md` below the repository root is treated like the root one (loaded after `CLAUDE.md` in \
             the same directory); this is verified at the root only.",
        ));
    }

    // List and expand in context order (a stable sort keeps discovery order
    // within each group), so that a file's first inclusion is the one the
    // agent receives first.
    let cwd = cx.context.cwd.clone();
    jobs.sort_by_key(|j| j.group(&cwd));
    let mut loader = Loader {
        settings,
        rule_spans: HashMap::new(),
        excluded_imports: HashSet::new(),
    };
    let mut repeated_any = false;
    for job in jobs {
        match job {
            Job::Push(i) => cx.out.instructions.push(*i),
            Job::Expand(e) => repeated_any |= expand_top(cx, &mut loader, *e),
        }
    }
    if !cx.profile.has(Fact::NestedSkipsStartupFiles) {
        startup_file_attached_again(cx);
    }
    read_target_not_attached(cx);
    if repeated_any {
        cx.out.assumptions.push(
            "Each file enters the context once: Claude Code's memory loader skips a file it has already processed, so \
             a file imported again (or reached again through a link) is listed where it was first included."
                .to_string(),
        );
    }

    agents_md_bridges(cx);
}

/// The target the model reads is not attached to that read as memory when
/// it is itself a memory file or rule: Claude Code skips every nested
/// memory file already in its record of files read (`readFileState`),
/// and the read has just put the target there, so the model sees the
/// file only as the text it asked for. The files the target imports are
/// still attached (they are not in that record). Source: the shipped
/// loader of 2.1.197 and 2.1.332 (`if (readFileState.has(path))
/// continue` before a `nested_memory` attachment); seen with both
/// (`claude.import_outside_cwd.read-apps-api-CLAUDE.md`, random
/// repositories `fuzz.claude-code.178`, `fuzz.claude-code.186`,
/// `fuzz.claude-code.17`).
fn read_target_not_attached(cx: &mut Compiler<'_, '_>) {
    let Some(target) = cx.context.target_path.clone() else {
        return;
    };
    for i in cx.out.instructions.iter_mut() {
        let on_read =
            i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective;
        if on_read && i.source.path == target {
            i.applicability = Applicability::Shadowed;
            i.reason = format!(
                "the target `{target}` itself: the model receives it as the file it reads, and Claude Code does \
                 not attach a file already read as memory again"
            );
        }
    }
}

/// Before [`Fact::NestedSkipsStartupFiles`], reading a file below cwd's
/// `.claude/` attaches cwd's `.claude/CLAUDE.md` a second time, with the
/// files it imports: the nested walk from cwd to the file read takes
/// `.claude` for a directory whose `CLAUDE.md` is that file, and the
/// loader of 2.1.197 skips only files in its record of files read or
/// already attached on demand, not those of the startup request. The
/// startup entries stay; on-demand copies (ids `…~N`) applying to
/// `.claude` are added. Seen with 2.1.197 (`fuzz.claude-code.106`: reading
/// `.claude/rules/deep/Web0.md` attaches `.claude/CLAUDE.md`; seeds 138,
/// 255, 268, 318); 2.1.332 attaches nothing there. Reading
/// `.claude/CLAUDE.md` itself attaches its imports again, not the file,
/// which the read has put in the record of files read
/// ([`read_target_not_attached`], which runs after this; 2.1.197,
/// `fuzz.claude-code.1003`: reading `.claude/CLAUDE.md` attaches its
/// import `@../util.md` again).
fn startup_file_attached_again(cx: &mut Compiler<'_, '_>) {
    let Some(target) = cx.context.target_path.clone() else {
        return;
    };
    let Some(dot_claude) = cx.context.cwd.join(".claude") else {
        return;
    };
    let Some(memory) = dot_claude.join("CLAUDE.md") else {
        return;
    };
    if !target.starts_with(&dot_claude) || target == dot_claude {
        return;
    }
    let at_startup = |i: &Instruction| {
        i.load_phase == LoadPhase::Startup && i.applicability == Applicability::Effective
    };
    let Some(top) = cx
        .out
        .instructions
        .iter()
        .find(|i| at_startup(i) && i.source.path == memory)
    else {
        return;
    };
    // The file and what it imports, in listing order (an import follows
    // the file that imports it).
    let mut ids: HashMap<String, String> = HashMap::new();
    ids.insert(top.id.clone(), String::new());
    let mut again = Vec::new();
    for i in &cx.out.instructions {
        let of_top = i.id == top.id
            || i.imported_from
                .as_ref()
                .is_some_and(|f| ids.contains_key(f));
        if of_top && at_startup(i) {
            ids.insert(i.id.clone(), String::new());
            again.push(i.clone());
        }
    }
    for mut i in again {
        let id = cx.unique_id(i.id.clone());
        ids.insert(i.id.clone(), id.clone());
        i.id = id;
        i.imported_from = i.imported_from.and_then(|f| ids.get(&f).cloned());
        i.load_phase = LoadPhase::OnDemand;
        i.applies_to = dot_claude.clone();
        i.reason = format!(
            "attached again when a file below `{dot_claude}/` is read: this Claude Code release takes `{dot_claude}` \
             for a directory whose `CLAUDE.md` is `{memory}`, already loaded at startup"
        );
        cx.out.instructions.push(i);
    }
}

/// Lists the files that load at startup: in each directory from (above
/// the root →) the root to cwd, its memory files, then its rules, then
/// the AGENTS.md fallback's files, `CLAUDE.local.md` last. Returns true when
/// a `.claude/CLAUDE.md` below the root was found.
fn startup(cx: &mut Compiler<'_, '_>, settings: &Settings, jobs: &mut Vec<Job>) -> bool {
    machine_layers(cx, settings, jobs);
    // With --outside-root, the directories above the root come first,
    // furthest first (fidelity C4: the walk goes up to `/`).
    let mut startup_dirs = cx.above_root_dirs();
    startup_dirs.extend(cx.context.cwd.ancestors_root_first());
    let fallback = agents_md_fallback(cx, settings, &startup_dirs);
    let mut generalized = false;
    for dir in &startup_dirs {
        let mut rules_listed = false;
        for (path, kind, dot_claude) in startup_files(dir, fallback) {
            if cx.kind_at(&path).is_none() {
                continue;
            }
            let by_fallback = fallback && path.file_name() == Some("AGENTS.md");
            if by_fallback {
                report_fallback(cx, &path);
            }
            generalized |= dot_claude && !dir.is_root() && !dir.is_above_root();
            let place = startup_place(cx, dir, kind, by_fallback);
            if !rules_listed && (kind == InstructionKind::LocalMemory || by_fallback) {
                // Rules of this directory come before CLAUDE.local.md, and
                // before the AGENTS.md fallback's files (2.1.332 sends a
                // root rule, then AGENTS.md: random repository
                // `fuzz.claude-code.32`).
                rules_root(cx, settings, dir, None, jobs);
                rules_listed = true;
            }
            top_file(cx, settings, &path, place, jobs);
        }
        if !rules_listed {
            rules_root(cx, settings, dir, None, jobs);
        }
    }
    generalized
}

/// In local mode, lists the machine's memory files first, in Claude
/// Code's order (memory documentation, "Determine memory type": managed
/// policy, then user memory, then the project's): the managed
/// `/etc/claude-code/CLAUDE.md`, the user's `CLAUDE.md` in the
/// configuration home, then the user's rules, which load before the
/// project's ("User-level rules are loaded before project rules"). Their
/// `paths` match files relative to the repository root, the only place a
/// user rule sees (harness facts A3, anthropics/claude-code#25562).
fn machine_layers(cx: &mut Compiler<'_, '_>, settings: &Settings, jobs: &mut Vec<Job>) {
    let Some(places) = cx.user else {
        return;
    };
    let files = [
        (places.managed("CLAUDE.md"), "managed policy"),
        (places.in_home("CLAUDE.md"), "the user's memory"),
    ];
    for (path, what) in files {
        let Some(path) = path.filter(|p| cx.kind_at(p).is_some()) else {
            continue;
        };
        let place = Placement {
            kind: InstructionKind::Memory,
            scope: crate::user::scope_of(&path),
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: format!("{what}, loaded at startup in every project"),
            applies_to: RepoPath::root(),
        };
        top_file(cx, settings, &path, place, jobs);
    }
    let Some(root) = places
        .in_home("rules")
        .filter(|_| cx.profile.has(crate::profile::Fact::ProjectRules))
    else {
        return;
    };
    let mut rules = Vec::new();
    for f in crate::user::markdown_below(&places, &root) {
        rule_file(cx, settings, &RepoPath::root(), &f, None, &mut rules);
    }
    for job in &mut rules {
        if let Job::Expand(e) = job {
            e.place.scope = SourceScope::User;
            e.place.reason = if e.paths.is_some() {
                format!("the user's rule in `{root}`: {}", e.place.reason)
            } else {
                format!("the user's rule in `{root}`, loaded at startup in every project")
            };
        }
    }
    rules.sort_by_key(|j| match j {
        Job::Expand(e) => e.paths.is_some(),
        Job::Push(i) => i.paths.is_some(),
    });
    jobs.extend(rules);
}

/// Lists the files below cwd (on demand) and on the way to a target
/// outside cwd (conditional): each directory's memory files, then its
/// rules root (fidelity C14). Directories beside the path are not in
/// scope. Returns true when a `.claude/CLAUDE.md` was found.
fn on_demand(cx: &mut Compiler<'_, '_>, settings: &Settings, jobs: &mut Vec<Job>) -> bool {
    let mut generalized = false;
    for dir in memory_dirs(cx) {
        let (load_phase, applicability, reason) = cx.off_chain(&dir);
        if applicability == Applicability::OutOfScope {
            continue;
        }
        for (path, kind, dot_claude) in memory_files(&dir) {
            if cx.repo.kind(&path).is_none() {
                continue;
            }
            generalized |= dot_claude;
            let place = Placement {
                kind,
                scope: scope_of(kind),
                load_phase,
                applicability,
                reason: reason.clone(),
                applies_to: dir.clone(),
            };
            top_file(cx, settings, &path, place, jobs);
        }
        let base = (load_phase, applicability, reason);
        rules_root(cx, settings, &dir, Some(&base), jobs);
    }
    generalized
}

/// The scope of a memory file of `kind`: `CLAUDE.local.md` is personal.
fn scope_of(kind: InstructionKind) -> SourceScope {
    if kind == InstructionKind::LocalMemory {
        SourceScope::Local
    } else {
        SourceScope::Project
    }
}

/// Where a memory file of `kind` in the startup directory `dir` enters
/// the context, and why (`by_fallback`: loaded by the AGENTS.md fallback).
fn startup_place(
    cx: &Compiler<'_, '_>,
    dir: &RepoPath,
    kind: InstructionKind,
    by_fallback: bool,
) -> Placement {
    let reason = match (by_fallback, dir == &cx.context.cwd) {
        _ if dir.is_above_root() => format!(
            "loaded at startup from `{dir}`, a directory above the repository root (read with --outside-root){}",
            if by_fallback { ", by the AGENTS.md fallback (2.1.281 and later)" } else { "" }
        ),
        (false, true) => "loaded at startup from the launch directory".to_string(),
        (false, false) => format!("loaded at startup from `{dir}`, an ancestor of the launch directory"),
        (true, _) => "loaded at startup by the AGENTS.md fallback (2.1.281 and later): no CLAUDE.md from the \
                      repository root to the launch directory"
            .to_string(),
    };
    Placement {
        kind,
        scope: scope_of(kind),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason,
        applies_to: applies_to_of(dir),
    }
}

/// Lists the top-level file of `e` and what it imports, unless the file is
/// already in the context (reported); returns true when something was
/// repeated.
fn expand_top(cx: &mut Compiler<'_, '_>, loader: &mut Loader<'_>, e: Expansion) -> bool {
    let Expansion {
        path,
        text,
        body_start,
        place,
        source,
        paths,
        part,
        id,
    } = e;
    let real = cx.repo_real(&path);
    // A rule's imports part expands without the rule itself, which is not
    // in the context yet; a whole file is included once.
    if part != Part::Imports {
        let (phase, applicability) = (place.load_phase, place.applicability);
        if let Some(first) = cx.included_before(&real, phase, applicability).cloned() {
            report_included(cx, &path, &real, &first, &source);
            return true;
        }
        let by = path.clone();
        let inclusion = crate::Inclusion {
            by,
            imported: false,
            load_phase: phase,
        };
        cx.included.insert(real.clone(), inclusion);
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
    expand(cx, loader, job, &mut stack)
}

/// Reports the top-level file `path` (real path `real`), already in the
/// context as `first` says: it is not loaded again.
fn report_included(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    real: &RepoPath,
    first: &crate::Inclusion,
    source: &SourceRef,
) {
    let how = first.describe(path);
    let what = if real == path {
        format!("`{path}` is already in the context ({how})")
    } else {
        format!("`{path}` is `{real}`, which is already in the context ({how})")
    };
    let d = Diagnostic::new(
        DiagnosticCode::ImportRepeated,
        format!("{what}; Claude Code includes each file once, so it is not loaded again here."),
    );
    cx.diag_once(path, real, d.at(source.clone()));
}

impl Compiler<'_, '_> {
    /// The real path of `p` (itself when not a link).
    pub(crate) fn repo_real(&self, p: &RepoPath) -> RepoPath {
        if p.is_on_machine() {
            return p.clone();
        }
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

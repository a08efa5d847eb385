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

use crate::matcher::{claude_paths, has_non_text, written_paths, PathPatterns};
use crate::settings::Settings;
use crate::{outside_dot_claude, Compiler};
use playbookdiff_model::{
    Applicability, ByteSpan, Diagnostic, DiagnosticCode, Instruction, LoadPhase, Mode, RepoPath,
    Resolution, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Resolved, TextFile};
use std::collections::{BTreeSet, HashMap, HashSet};
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

/// The memory files of directory `dir`, in load order, with their kind and
/// whether the file is the `.claude/CLAUDE.md` variant.
fn memory_files(dir: &RepoPath) -> Vec<(RepoPath, &'static str, bool)> {
    let mut v = Vec::new();
    for (name, kind) in [
        ("CLAUDE.md", "memory"),
        (".claude/CLAUDE.md", "memory"),
        ("CLAUDE.local.md", "local-memory"),
    ] {
        if let Some(p) = dir.join(name) {
            v.push((p, kind, name == ".claude/CLAUDE.md"));
        }
    }
    v
}

/// The files the AGENTS.md fallback loads in directory `dir`, where
/// `CLAUDE.md` and `.claude/CLAUDE.md` would load (fidelity C16).
fn fallback_files(dir: &RepoPath) -> Vec<(RepoPath, &'static str, bool)> {
    ["AGENTS.md", ".claude/AGENTS.md"]
        .into_iter()
        .filter_map(|name| dir.join(name).map(|p| (p, "memory", false)))
        .collect()
}

/// True when memory file `p` is there for the AGENTS.md fallback's test: a
/// file, or a link to one. A dangling link is not (2.1.332 loads the root
/// AGENTS.md beside a `CLAUDE.md` linking to a missing file: corpus case
/// `corpus.biomejs__biome`); a link leaving the repository is assumed to
/// reach a file.
fn memory_present(cx: &Compiler<'_, '_>, p: &RepoPath) -> bool {
    if p.is_above_root() {
        return matches!(cx.kind_at(p), Some(EntryKind::File | EntryKind::Symlink));
    }
    match cx.repo.kind(p) {
        None => false,
        Some(EntryKind::Symlink) => matches!(
            cx.repo.resolve(p),
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } | Resolved::Outside { .. }
        ),
        Some(kind) => kind == EntryKind::File,
    }
}

/// True when the profile has the AGENTS.md fallback (2.1.277 and later)
/// and no memory file exists from the repository root to the launch
/// directory (`startup_dirs`). What lies above the repository root is
/// unknown; the analysis assumes no memory file there and says so.
fn agents_md_fallback(cx: &mut Compiler<'_, '_>, startup_dirs: &[RepoPath]) -> bool {
    if !cx.profile.has(crate::profile::Fact::AgentsMdFallback) {
        return false;
    }
    let memory_on_path = startup_dirs
        .iter()
        .flat_map(memory_files)
        .any(|(p, _, _)| memory_present(cx, &p));
    // With --outside-root, `startup_dirs` starts above the root, where a
    // link counts as present (it is not followed).
    if memory_on_path || cx.outside.is_some() {
        let any_agents = startup_dirs
            .iter()
            .flat_map(fallback_files)
            .any(|(p, _, _)| cx.kind_at(&p).is_some());
        if !memory_on_path && any_agents {
            cx.out.assumptions.push(
                "AGENTS.md fallback: the first-party API (the fallback is off on Bedrock, Vertex and Foundry) and \
                 the default `instructionFiles` setting."
                    .to_string(),
            );
        }
        return !memory_on_path;
    }
    if memory_on_path {
        return false;
    }
    let any_agents = startup_dirs
        .iter()
        .flat_map(fallback_files)
        .any(|(p, _, _)| cx.repo.kind(&p).is_some());
    if any_agents {
        cx.out.assumptions.push(
            "AGENTS.md fallback: no CLAUDE.md above the repository root, the first-party API (the fallback is off on \
             Bedrock, Vertex and Foundry) and the default `instructionFiles` setting."
                .to_string(),
        );
    }
    true
}

/// The directories off the startup chain, in this launch directory's scope
/// (below cwd, or on the way to a target outside it), that hold a memory
/// file or a `.claude/rules` directory. Sorted by depth, then path.
fn memory_dirs(cx: &Compiler<'_, '_>) -> Vec<RepoPath> {
    let mut dirs = BTreeSet::new();
    for rel in ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] {
        dirs.extend(cx.off_chain_owners(rel));
    }
    dirs.extend(
        cx.off_chain_owners(".claude/rules")
            .into_iter()
            .filter(|o| o.join(".claude/rules").is_some_and(|r| cx.repo.is_dir(&r))),
    );
    let mut dirs: Vec<RepoPath> = dirs.into_iter().collect();
    dirs.sort_by(|a, b| a.depth().cmp(&b.depth()).then(a.cmp(b)));
    dirs
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
                    text: &text,
                    body_start,
                    part,
                    id,
                };
                repeated_any |= expand(
                    cx,
                    &mut loader,
                    &path,
                    &job,
                    &place,
                    None,
                    source,
                    &mut stack,
                    paths,
                );
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

/// Lists one memory file (as a job) after reporting what keeps it out.
fn top_file(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    path: &RepoPath,
    mut place: Placement,
    jobs: &mut Vec<Job>,
) {
    let format = SourceFormat::Markdown;
    if !cx.expect_file(path, format) {
        return;
    }
    let source = cx.source_ref(path, place.scope, format);
    if place.kind == "local-memory" && cx.ctx.mode == Mode::Repo {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::LocalConfigUnavailable,
                format!(
                    "`{path}` is a personal, usually git-ignored file; repo mode lists it as unavailable instead of \
                     reading it (use --mode local to include it)."
                ),
            )
            .at(source.clone()),
        );
        // Its size comes from the file's metadata: repo mode never reads
        // personal content.
        let bytes = cx
            .repo
            .tree()
            .stat(&cx.repo_real(path))
            .map(|s| s.len)
            .unwrap_or(0);
        let id = cx.unique_id(format!("claude-code:{}:{}", place.kind, path));
        jobs.push(Job::Push(Box::new(Instruction {
            id,
            kind: place.kind.to_string(),
            source,
            load_phase: place.load_phase,
            applicability: Applicability::Unavailable,
            reason: "CLAUDE.local.md is personal configuration, not read in repo mode".to_string(),
            order: None,
            applies_to: place.applies_to,
            imported_from: None,
            bytes,
            truncated_at_byte: None,
            paths: None,
            resolution: None,
            import_spans: Vec::new(),
            content: String::new(),
        })));
        return;
    }
    let Some(text) = cx.read(path, format) else {
        return;
    };
    // Front matter is stripped from memory files too; a `paths:` there
    // means nothing (fidelity, settled assumptions).
    let body_start = crate::body_start(&cx.profile, &text);
    if excluded(
        cx, settings, path, &text, body_start, &mut place, &source, None, jobs,
    ) {
        return;
    }
    link_stored_as_text(cx, path, &source);
    jobs.push(Job::Expand(Box::new(Expansion {
        path: path.clone(),
        text,
        body_start,
        place,
        source,
        paths: None,
        part: Part::Whole,
        id: None,
    })));
}

/// A memory file whose whole content is the name of another file beside it
/// (`CLAUDE.md` reading `AGENTS.md`) is a symbolic link that was checked out
/// as a text file (git with `core.symlinks=false`, an archive without
/// links): the agent then receives that one word, not the file's content.
fn link_stored_as_text(cx: &mut Compiler<'_, '_>, path: &RepoPath, source: &SourceRef) {
    if path.is_above_root() {
        return;
    }
    // The target may be absent from this checkout; a lone `*.md` name still
    // reads as a link stored as text.
    let Some(t) = cx
        .repo
        .link_stored_as_text(path)
        .filter(|(t, exists)| *exists || t.to_ascii_lowercase().ends_with(".md"))
        .map(|(t, _)| t)
    else {
        return;
    };
    let target = path
        .parent()
        .and_then(|d| d.join(&t))
        .unwrap_or_else(RepoPath::root);
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::SymlinkStoredAsText,
            format!(
                "`{path}` contains only `{t}`: it looks like a symbolic link checked out as a text file, so Claude \
                 Code receives the word `{t}`, not the content of `{target}`. Write `@{t}` in it instead, which \
                 works on every checkout."
            ),
        )
        .at(source.clone().with_lines(1, 1)),
    );
}

/// When a `claudeMdExcludes` pattern matches `path`: reports it and lists
/// the file as one excluded entry (its imports are never read, so they are
/// not listed) with the settings file as resolution. Returns true when
/// excluded. One mechanism for memory files and rules (harness facts A4).
#[allow(clippy::too_many_arguments)]
fn excluded(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    path: &RepoPath,
    text: &TextFile,
    body_start: usize,
    place: &mut Placement,
    source: &SourceRef,
    paths: Option<Vec<String>>,
    jobs: &mut Vec<Job>,
) -> bool {
    let Some(ex) = settings.excluded_by(path) else {
        return false;
    };
    let (raw, layer) = (ex.raw.clone(), ex.layer.path.clone());
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InstructionExcluded,
            format!("`{path}` is excluded by the `claudeMdExcludes` pattern `{raw}` in `{layer}`."),
        )
        .at(source.clone()),
    );
    place.applicability = Applicability::Excluded;
    place.reason = format!("excluded by claudeMdExcludes `{raw}` in `{layer}`");
    let id = cx.unique_id(format!("claude-code:{}:{}", place.kind, path));
    jobs.push(Job::Push(Box::new(excluded_entry(
        id, text, body_start, place, source, paths, None, layer,
    ))));
    true
}

/// The entry of a file `claudeMdExcludes` removes: listed with its text
/// (never expanded: the agent reads neither it nor what it imports), the
/// settings file as resolution.
#[allow(clippy::too_many_arguments)]
fn excluded_entry(
    id: String,
    text: &TextFile,
    body_start: usize,
    place: &Placement,
    source: &SourceRef,
    paths: Option<Vec<String>>,
    imported_from: Option<&str>,
    layer: RepoPath,
) -> Instruction {
    let body = &text.text[body_start..];
    let (ls, le) = text.lines_of(body_start, text.text.len());
    Instruction {
        id,
        kind: place.kind.to_string(),
        source: source.clone().with_lines(ls, le.max(ls)),
        load_phase: place.load_phase,
        applicability: Applicability::Excluded,
        reason: place.reason.clone(),
        order: None,
        applies_to: place.applies_to.clone(),
        imported_from: imported_from.map(str::to_string),
        bytes: body.len() as u64,
        truncated_at_byte: None,
        paths,
        resolution: Some(Resolution {
            strategy: "excluded".into(),
            sources: vec![layer],
        }),
        import_spans: Vec::new(),
        content: body.to_string(),
    }
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

/// What one `@token` resolves to.
enum Import {
    /// A regular file inside the repository.
    File(RepoPath),
    /// Not an import of a repository file, and already reported (outside the
    /// repository, a directory, a broken link, an unlisted directory).
    Reported,
    /// Names nothing: a mention, a look-alike or a missing file.
    Unresolved,
}

/// The outcome of the first `@token` of a given spelling in one file; later
/// tokens spelled the same way in that file have the same outcome.
#[derive(Clone)]
enum Seen {
    /// Imported (or already in the context): later ones are repeats.
    Imported(RepoPath),
    /// Anything else, already reported once.
    Reported,
}

/// Repeated imports of one file from the file being expanded.
struct Repeat {
    raw: String,
    line: u32,
    count: usize,
    how: String,
}

/// The repeated imports of the file being expanded, by imported file, in
/// the order of their first repeat.
#[derive(Default)]
struct Repeats {
    list: Vec<(RepoPath, Repeat)>,
    index: HashMap<RepoPath, usize>,
}

impl Repeats {
    fn add(&mut self, real: &RepoPath, raw: &str, line: u32, how: String) {
        match self.index.get(real) {
            Some(&i) => self.list[i].1.count += 1,
            None => {
                self.index.insert(real.clone(), self.list.len());
                self.list.push((
                    real.clone(),
                    Repeat {
                        raw: raw.to_string(),
                        line,
                        count: 1,
                        how,
                    },
                ));
            }
        }
    }
}

/// Lists the file `path` (its text from byte `body_start`, HTML comments
/// the agent removes taken out, trimmed) as one entry, whole, `@path` text
/// included, then each file it imports as its own entry after it,
/// depth-first in order of first appearance, the first time that file
/// enters the context (up to [`MAX_IMPORT_HOPS`]); fidelity C5. A file that
/// is empty or only white space is dropped with its imports. An import of
/// a file already in the context, a cycle or an import too deep is
/// reported once per (importing file, imported file). Returns true when an
/// import here or in an imported file was a repeat.
///
/// Relative imports resolve from the directory of the file's real path: a
/// memory file that is a symbolic link imports beside its target (fidelity
/// C11; the shipped 2.1.197 loader resolves includes from the resolved
/// path, and 2.1.197 and 2.1.332 were seen doing so). `claudeMdExcludes`
/// applies to imported files as to the others (C10): an excluded import
/// is listed as excluded and nothing of it is read further.
///
/// `job.part` says what to list: for [`Part::Entry`] only the entry (with
/// the spans its [`Part::Imports`] job found), for [`Part::Imports`] only
/// the imported files, with `place` their startup placement.
#[allow(clippy::too_many_arguments)]
fn expand(
    cx: &mut Compiler<'_, '_>,
    loader: &mut Loader<'_>,
    path: &RepoPath,
    job: &ExpandJob<'_>,
    place: &Placement,
    imported_from: Option<&str>,
    source: SourceRef,
    stack: &mut Vec<RepoPath>,
    paths: Option<Vec<String>>,
) -> bool {
    let (text, body_start, part) = (job.text, job.body_start, job.part);
    let body = &text.text[body_start..];
    let depth = stack.len() - 1;
    let importer = stack.last().cloned().unwrap_or_else(|| path.clone());
    let dir = cx.repo_real(path).parent().unwrap_or_else(RepoPath::root);
    let scanned = text.parsed_as(|t| {
        ScanAt(
            body_start,
            crate::imports::scan(t.get(body_start..).unwrap_or("")),
        )
    });
    // The cache holds the scan of one start; another start scans anew.
    let owned;
    let scanned: &crate::imports::Scan = if scanned.0 == body_start {
        &scanned.1
    } else {
        owned = crate::imports::scan(body);
        &owned
    };
    let (content, map) = crate::imports::strip(body, &scanned.removed);
    // The agent sends each memory file's text trimmed at both ends
    // (`content.trim()` in the loader of 2.1.197 and 2.1.332; seen in the
    // request body as `@AGENTS.md\n\nContents of …` for a CLAUDE.md that
    // is `@AGENTS.md\n`).
    let lead = content.len() - crate::js_trim_start(&content).len();
    let content = crate::js_trim(&content).to_string();
    let map = move |off: usize| map(off).saturating_sub(lead);
    if content.is_empty() {
        if part == Part::Imports {
            return false;
        }
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InstructionEmpty,
                format!("`{path}` is empty or only white space; Claude Code drops it (and anything it would import)."),
            )
            .at(source.clone()),
        );
        return false;
    }

    let id = match &job.id {
        Some(id) => id.clone(),
        // An imported file's entry names the top-level file it was reached
        // from: `claude-code:import:AGENTS.md<CLAUDE.md#1`.
        None => cx.unique_id(match imported_from {
            Some(parent) => format!("claude-code:{}:{path}<{}#1", place.kind, file_of(parent)),
            None => format!("claude-code:{}:{path}#1", place.kind),
        }),
    };
    // The file's own entry: its body's lines, its text without imports.
    let entry = |id: String, paths, import_spans: Vec<ByteSpan>, content: String| {
        let (ls, le) = text.lines_of(body_start, text.text.len());
        Instruction {
            id,
            kind: place.kind.to_string(),
            source: source.clone().with_lines(ls, le.max(ls)),
            load_phase: place.load_phase,
            applicability: place.applicability,
            reason: place.reason.clone(),
            order: None,
            applies_to: place.applies_to.clone(),
            imported_from: imported_from.map(str::to_string),
            bytes: content.len() as u64,
            truncated_at_byte: None,
            paths,
            resolution: None,
            import_spans,
            content,
        }
    };
    if part == Part::Entry {
        let import_spans = loader.rule_spans.remove(path).unwrap_or_default();
        cx.out
            .instructions
            .push(entry(id, paths, import_spans, content));
        return false;
    }
    // The entry comes first, the files it imports after it; a rule's
    // imports part lists only those (its entry comes later, in its own
    // group).
    let at_entry = cx.out.instructions.len();
    if part != Part::Imports {
        cx.out
            .instructions
            .push(entry(id.clone(), paths.clone(), Vec::new(), content));
    }

    let mut spans: Vec<ByteSpan> = Vec::new();
    let mut seen: HashMap<&str, Seen> = HashMap::new();
    let mut repeats = Repeats::default();
    let mut repeated_below = false;
    for tok in &scanned.imports {
        let line = text.line_of(body_start + tok.start);
        let span = ByteSpan {
            start: map(tok.start) as u64,
            end: map(tok.end) as u64,
        };
        match seen.get(tok.path.as_str()).cloned() {
            Some(Seen::Imported(real)) => {
                spans.push(span);
                let how = cx
                    .included
                    .get(&real)
                    .map(|i| i.describe(path))
                    .unwrap_or_default();
                repeats.add(&real, &tok.raw, line, how);
                continue;
            }
            Some(Seen::Reported) => continue,
            None => {}
        }
        seen.insert(tok.path.as_str(), Seen::Reported);
        let at = source.clone().with_lines(line, line);
        let target = match resolve_import(cx, &dir, &tok.path, &tok.raw, &at) {
            Import::File(t) => t,
            Import::Reported => continue,
            Import::Unresolved => {
                let rest = &body[tok.end..];
                let rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
                lookalike(cx, &dir, &tok.raw, rest, &at);
                continue;
            }
        };
        let real = cx.repo_real(&target);
        spans.push(span);
        if stack.contains(&real) {
            cx.diag_once(
                &importer,
                &real,
                Diagnostic::new(
                    DiagnosticCode::ImportCycle,
                    format!(
                        "`@{}` imports `{real}`, which is already being imported on this chain; Claude Code stops \
                         there silently (each file is processed once).",
                        tok.raw
                    ),
                )
                .at(at),
            );
            continue;
        }
        if let Some(how) = cx.included.get(&real).map(|i| i.describe(path)) {
            seen.insert(tok.path.as_str(), Seen::Imported(real.clone()));
            repeats.add(&real, &tok.raw, line, how);
            continue;
        }
        if cx.unreadable_imports.contains(&real) {
            continue;
        }
        if depth + 1 > MAX_IMPORT_HOPS {
            cx.diag_once(
                &importer,
                &real,
                Diagnostic::new(
                    DiagnosticCode::ImportDepthExceeded,
                    format!(
                        "`@{}` is {} import hops from a top-level file; Claude Code follows at most {MAX_IMPORT_HOPS} \
                         (older versions 5), so it is not loaded.",
                        tok.raw,
                        depth + 1
                    ),
                )
                .at(at),
            );
            continue;
        }
        if let Some(ex) = loader.settings.excluded_by(&target) {
            let (raw, layer) = (ex.raw.clone(), ex.layer.path.clone());
            if loader.excluded_imports.insert(real.clone()) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InstructionExcluded,
                        format!(
                            "`@{}` imports `{target}`, which the `claudeMdExcludes` pattern `{raw}` in `{layer}` \
                             excludes: excludes apply to imported files too, so neither it nor what it imports is \
                             loaded.",
                            tok.raw
                        ),
                    )
                    .at(at.clone()),
                );
                if let Some(imported) = cx.read(&target, SourceFormat::Markdown) {
                    let mut child = place.clone();
                    child.kind = "import";
                    child.reason = format!("imported by `@{}` in `{path}`; excluded by claudeMdExcludes `{raw}` in `{layer}`", tok.raw);
                    let child_body = crate::body_start(&cx.profile, &imported);
                    let child_source = cx.source_ref(&target, child.scope, SourceFormat::Markdown);
                    let child_id =
                        cx.unique_id(format!("claude-code:import:{target}<{}#1", file_of(&id)));
                    let entry = excluded_entry(
                        child_id,
                        &imported,
                        child_body,
                        &child,
                        &child_source,
                        None,
                        Some(&id),
                        layer,
                    );
                    cx.out.instructions.push(entry);
                }
            }
            continue;
        }
        let name = target.file_name().unwrap_or("");
        if !crate::imports::text_file(name) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ImportNotText,
                    format!(
                        "`@{}` names `{target}`, whose extension is not one Claude Code imports (it skips \
                         \"non-text\" files); nothing is loaded from it.",
                        tok.raw
                    ),
                )
                .at(at),
            );
            continue;
        }
        let format = SourceFormat::Markdown;
        let Some(imported) = cx.read(&target, format) else {
            cx.unreadable_imports.insert(real);
            continue;
        };
        let mut child = place.clone();
        child.kind = "import";
        if place.applicability == Applicability::Effective && !target.starts_with(&cx.ctx.cwd) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ImportOutsideCwd,
                    format!(
                        "`@{}` resolves to `{target}`, outside the launch directory `{}`: an interactive session asks \
                         once for approval before loading it, so it is conditional.",
                        tok.raw, cx.ctx.cwd
                    ),
                )
                .at(at),
            );
            child.applicability = Applicability::Conditional;
            child.reason = format!("imported from `{path}`; outside the launch directory, so it needs a one-time approval");
        } else if part == Part::Imports {
            child.reason = format!(
                "imported by `@{}` in the path-scoped rule `{path}`; Claude Code loads a path-scoped rule's imports \
                 with its root's unconditional rules, whether or not its paths match",
                tok.raw
            );
            cx.diag_once(
                path,
                path,
                Diagnostic::new(
                    DiagnosticCode::RuleImportUnscoped,
                    format!(
                        "`{path}` is path-scoped, but `@{}` in it loads with the unconditional rules of its root (at \
                         startup for the launch directory and its ancestors) whatever the rule's `paths`: Claude Code \
                         scopes the rule, not what it imports. Move that text into the rule to scope it.",
                        tok.raw
                    ),
                )
                .at(at.clone()),
            );
        } else {
            child.reason = format!("imported by `@{}` in `{path}`", tok.raw);
        }
        seen.insert(tok.path.as_str(), Seen::Imported(real.clone()));
        cx.included.insert(
            real.clone(),
            crate::Inclusion {
                by: path.clone(),
                imported: true,
            },
        );
        let child_source = cx.source_ref(&target, child.scope, format);
        let child_body = crate::body_start(&cx.profile, &imported);
        stack.push(real);
        let child_job = ExpandJob {
            text: &imported,
            body_start: child_body,
            part: Part::Whole,
            id: None,
        };
        repeated_below |= expand(
            cx,
            loader,
            &target,
            &child_job,
            &child,
            Some(&id),
            child_source,
            stack,
            None,
        );
        stack.pop();
    }
    if part == Part::Imports {
        // The rule's entry comes later, in its own group, with these spans.
        loader.rule_spans.insert(path.clone(), spans);
    } else {
        cx.out.instructions[at_entry].import_spans = spans;
    }
    // `@path` glued to an opening mark (`(@docs/a.md)`) reads as an import
    // but is not one.
    let glued = text.markdown(body_start);
    let mut glued_seen: HashSet<&str> = HashSet::new();
    for tok in &glued.glued {
        if scanned.imports.iter().any(|i| i.start == tok.start) || !glued_seen.insert(&tok.raw) {
            continue;
        }
        let line = text.line_of(body_start + tok.start);
        let before = body[..tok.start].chars().next_back().unwrap_or(' ');
        glued_lookalike(
            cx,
            &dir,
            &tok.raw,
            before,
            &source.clone().with_lines(line, line),
        );
    }

    let any = repeated_below || !repeats.list.is_empty();
    for (real, r) in repeats.list {
        let others = match r.count {
            1 => String::new(),
            2 => ", as does 1 later import in this file".to_string(),
            n => format!(", as do {} later imports in this file", n - 1),
        };
        cx.diag_once(
            &importer,
            &real,
            Diagnostic::new(
                DiagnosticCode::ImportRepeated,
                format!(
                    "`@{}` imports `{real}`, which is already in the context ({}){others}; Claude Code includes \
                     each file once, so it is not included again here.",
                    r.raw, r.how
                ),
            )
            .at(source.clone().with_lines(r.line, r.line)),
        );
    }
    any
}

/// What one [`expand`] call lists: the file's text from `body_start`, the
/// part of it, and the entry's id when fixed at discovery.
struct ExpandJob<'t> {
    text: &'t TextFile,
    body_start: usize,
    part: Part,
    id: Option<String>,
}

/// The file named in an entry id (`claude-code:memory:CLAUDE.md#1` gives
/// `CLAUDE.md`, `claude-code:import:a.md<CLAUDE.md#1` gives `a.md`).
fn file_of(id: &str) -> &str {
    let from = id.split(':').nth(2).unwrap_or(id);
    from.split(['#', '<']).next().unwrap_or(from)
}

/// The import scan of a file's body starting at byte `.0`, cached per file.
struct ScanAt(usize, crate::imports::Scan);

/// Resolves an `@token` to a repository file, reporting what it names when
/// that is not a file it can import: a place outside the repository, a
/// directory, a broken link, or a directory the walk could not list. One
/// diagnostic per token: a reported token is not also "missing".
fn resolve_import(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    path: &str,
    raw: &str,
    at: &SourceRef,
) -> Import {
    let outside = |cx: &mut Compiler<'_, '_>, why: &str| {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportOutsideRepository,
                format!("`@{raw}` {why}; repo mode does not follow it, so its content is unknown."),
            )
            .at(at.clone()),
        );
        Import::Reported
    };
    let not_a_file = |cx: &mut Compiler<'_, '_>, candidate: &RepoPath, kind: EntryKind| {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::NotARegularFile,
                format!(
                    "`@{raw}` names `{candidate}`, which is {}; an import includes a file, so nothing is \
                     imported.",
                    crate::kind_phrase(kind)
                ),
            )
            .at(at.clone()),
        );
        Import::Reported
    };
    if path.starts_with("~/") || path == "~" {
        return outside(cx, "resolves in the user's home directory");
    }
    let candidate = if let Some(abs) = path.strip_prefix('/') {
        let root = cx
            .repo
            .tree()
            .absolute_root()
            .map(|p| p.to_string_lossy().trim_start_matches('/').to_string());
        let rel = root.and_then(|r| {
            abs.strip_prefix(&r)
                .filter(|rest| rest.is_empty() || rest.starts_with('/'))
                .map(|s| s.trim_start_matches('/').to_string())
        });
        match rel.and_then(|rel| RepoPath::new(&rel)) {
            Some(p) => p,
            None => return outside(cx, "is an absolute path outside the repository"),
        }
    } else {
        match dir.join(path) {
            Some(p) => p,
            // With `--outside-root`, a path climbing above the root is read
            // through the view of the directories there, as Claude Code
            // reads it (then as an external import, see `expand`).
            None => match cx.outside.and_then(|a| join_climbing(dir, path, a.len())) {
                Some(p) => p,
                None => return outside(cx, "climbs above the repository root"),
            },
        }
    };
    if candidate.is_above_root() {
        // Imported by a file above the root (--outside-root): read through
        // the same view, links not followed.
        return match cx.kind_at(&candidate) {
            Some(EntryKind::File | EntryKind::Symlink) => Import::File(candidate),
            Some(kind) => not_a_file(cx, &candidate, kind),
            None => Import::Unresolved,
        };
    }
    match cx.repo.resolve(&candidate) {
        Resolved::Inside {
            kind: EntryKind::File,
            ..
        } => Import::File(candidate),
        Resolved::Inside { kind, .. } => not_a_file(cx, &candidate, kind),
        Resolved::Outside { .. } => outside(
            cx,
            "goes through a symbolic link that leaves the repository",
        ),
        // A link loop or a dangling link is reported as such, not as a
        // missing file.
        Resolved::Loop { .. } | Resolved::Dangling { .. } => {
            cx.check_link(&candidate, SourceFormat::Markdown);
            Import::Reported
        }
        Resolved::Missing => match cx.unlisted_ancestor(&candidate) {
            Some((d, why)) => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::Unreadable,
                        format!(
                            "`@{raw}` names `{candidate}`, but `{d}` could not be listed ({why}); whether the file \
                             exists, and what it would add, is unknown."
                        ),
                    )
                    .at(at.clone()),
                );
                Import::Reported
            }
            None => Import::Unresolved,
        },
    }
}

/// `dir` joined with the relative POSIX path `rel`, normalized lexically,
/// where `..` may climb above the repository root: the result is then a
/// [`RepoPath::above_root`] path (`.` joined with `../../a.md` gives
/// `../../a.md`). `None` when it climbs more than `levels` directories
/// above the root (the directories the `--outside-root` view covers).
fn join_climbing(dir: &RepoPath, rel: &str, levels: usize) -> Option<RepoPath> {
    let mut parts: Vec<&str> = dir.components().collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_none_or(|l| *l == "..") {
                    parts.push("..");
                } else {
                    parts.pop();
                }
            }
            other => parts.push(other),
        }
    }
    let up = parts.iter().take_while(|p| **p == "..").count();
    if up > levels {
        return None;
    }
    let rest = parts[up..].join("/");
    let rest = RepoPath::new(if rest.is_empty() { "." } else { &rest })?;
    Some(RepoPath::above_root(up, &rest))
}

/// True when an unresolved token reads like a file path rather than a
/// mention (`@user`, `@scope/package`).
fn looks_like_path(raw: &str) -> bool {
    let last = raw.rsplit('/').next().unwrap_or(raw);
    raw.starts_with("./")
        || raw.starts_with("../")
        || raw.starts_with('/')
        || last.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// Characters that end an `@path` in prose but are part of the token the
/// agent reads (`@docs/a.md,`, `@docs/a.md's`, `(@docs/a.md)`).
fn is_prose_punctuation(c: char) -> bool {
    ",.;:!?)]}>'\"`*_\u{2019}".contains(c)
}

/// The longest part of `raw` that names a file and is followed by prose
/// punctuation (`docs/a.md` in `docs/a.md,` or `docs/a.md's`), with that
/// file.
fn file_before_punctuation(
    cx: &Compiler<'_, '_>,
    dir: &RepoPath,
    raw: &str,
) -> Option<(usize, RepoPath)> {
    raw.char_indices()
        .rev()
        .filter(|&(i, c)| i > 0 && is_prose_punctuation(c))
        .find_map(|(i, _)| {
            dir.join(&raw[..i])
                .filter(|p| cx.repo.is_file(p))
                .map(|p| (i, p))
        })
}

/// Reports an unresolved `@token`: a look-alike when punctuation glued to
/// the path or a space in it hides an existing file; a missing import when
/// it reads like a path. Source: field reports 3 and 4.
fn lookalike(cx: &mut Compiler<'_, '_>, dir: &RepoPath, raw: &str, rest: &str, at: &SourceRef) {
    if let Some((i, p)) = file_before_punctuation(cx, dir, raw) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportLookalike,
                format!(
                    "`@{raw}` is not imported: the `{}` after `{}` makes it a different path. Put a space after \
                     `@{}` to import `{p}`.",
                    &raw[i..],
                    &raw[..i],
                    &raw[..i]
                ),
            )
            .at(at.clone()),
        );
        return;
    }
    let mut joined = raw.to_string();
    for word in rest.split_whitespace().take(6) {
        joined.push(' ');
        joined.push_str(word);
        for cand in [
            joined.as_str(),
            joined.trim_end_matches(is_prose_punctuation),
        ] {
            if let Some(p) = dir.join(cand) {
                if cx.repo.is_file(&p) {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::ImportLookalike,
                            format!(
                                "`@{cand}` is not imported: an import path ends at the first space, so only `@{raw}` \
                                 is read as a path. Rename `{p}` without spaces."
                            ),
                        )
                        .at(at.clone()),
                    );
                    return;
                }
            }
        }
    }
    // `@docs/gone.md.`: the path without its trailing punctuation is what
    // the author meant; it names no file either.
    let trimmed = raw.trim_end_matches(is_prose_punctuation);
    let meant = if looks_like_path(raw) { raw } else { trimmed };
    if looks_like_path(meant) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportMissing,
                match dir.join(meant) {
                    Some(target) => format!(
                        "`@{meant}` names no file (resolved from `{dir}`): Claude Code receives the line as literal text, not the content of `{target}`. Create `{target}`, or correct or remove the line."
                    ),
                    None => format!(
                        "`@{meant}` names no file (resolved from `{dir}`): Claude Code receives the line as literal text. Correct or remove the line."
                    ),
                },
            )
            .at(at.clone()),
        );
    }
}

/// Reports `@path` glued to an opening punctuation mark (`(@docs/a.md)`)
/// when the path, without punctuation after it, names a file: it reads as
/// an import but is not one. Source: field report 3.
fn glued_lookalike(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    raw: &str,
    before: char,
    at: &SourceRef,
) {
    let hit = dir
        .join(raw)
        .filter(|p| cx.repo.is_file(p))
        .map(|p| (raw.len(), p))
        .or_else(|| file_before_punctuation(cx, dir, raw));
    let Some((i, p)) = hit else { return };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ImportLookalike,
            format!(
                "`@{raw}` follows `{before}` without a space, so it is not imported: an import must start a line or \
                 follow a space. Write `@{}` with spaces around it to import `{p}`.",
                &raw[..i]
            ),
        )
        .at(at.clone()),
    );
}

/// The placement of a directory off the startup chain
/// ([`Compiler::off_chain`]): phase, applicability and why.
type OffChain = (LoadPhase, Applicability, String);

/// Claude Code takes the rules of a root in the order the file system lists
/// them, unsorted (fidelity "Settled assumptions"; the oracle test compares
/// runs of rules as sets for that reason), so the path order given here is
/// an approximation, stated once per result that has two rules in a root.
const RULE_ORDER: &str = "Rules of one `.claude/rules` root are listed in path order; Claude Code takes them in the \
                          order the file system lists the directory, which is unsorted, so their order may differ.";

/// The rules of `dir/.claude/rules`, recursively, ordered by path: the
/// unconditional ones first, then the path-scoped ones.
///
/// `nested` is `None` for a rules root on the startup chain (the launch
/// directory or an ancestor), whose unconditional rules load at startup;
/// for a root off the chain it is the placement of `dir`
/// ([`Compiler::off_chain`]): Claude Code reads such a root when a file
/// below `dir` is read, after `dir`'s memory files, unconditional rules
/// first; the `paths` of its rules are relative to `dir` (fidelity C14;
/// anthropics/claude-code#95104; seen with 2.1.197 and 2.1.332 through a
/// scripted model).
fn rules_root(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    dir: &RepoPath,
    nested: Option<&OffChain>,
    jobs: &mut Vec<Job>,
) {
    let Some(root) = dir.join(".claude/rules") else {
        return;
    };
    if root.is_above_root() {
        rules_root_above(cx, settings, dir, &root, jobs);
        return;
    }
    if !cx.repo.is_dir(&root) {
        return;
    }
    // Iterative walk through links, with cycle detection on real paths.
    let mut files: Vec<RepoPath> = Vec::new();
    let mut seen: HashSet<RepoPath> = HashSet::new();
    let mut stack = vec![root.clone()];
    let mut has_subdirs = false;
    while let Some(d) = stack.pop() {
        let real = cx.repo_real(&d);
        if !seen.insert(real) {
            continue;
        }
        for ent in cx.repo.list_dir(&d).to_vec() {
            let Some(p) = d.join(&ent.name) else { continue };
            let kind = match ent.kind {
                EntryKind::Symlink => {
                    let resolved = cx.repo.resolve(&p);
                    let inside_cwd = matches!(&resolved, Resolved::Inside { real, .. } if real.starts_with(&cx.ctx.cwd));
                    let follows =
                        inside_cwd || !cx.profile.has(crate::profile::Fact::RuleLinksInsideCwdOnly);
                    let broken =
                        matches!(resolved, Resolved::Dangling { .. } | Resolved::Loop { .. });
                    let d = if broken && !follows {
                        broken_rule_link_note(cx, &p)
                    } else {
                        rule_link_note(cx, &p, follows)
                    };
                    cx.diag(d.at(SourceRef::project(p.clone(), SourceFormat::Markdown)));
                    if !follows {
                        // Still say when the link is broken; a link leaving
                        // the repository is covered by the note (the agent
                        // does not follow it).
                        if matches!(resolved, Resolved::Dangling { .. } | Resolved::Loop { .. }) {
                            cx.check_link(&p, SourceFormat::Markdown);
                        }
                        continue;
                    }
                    match resolved {
                        Resolved::Inside { kind, .. } => kind,
                        // Read above the root with --outside-root.
                        Resolved::Outside { .. }
                            if matches!(cx.outside_target(&p), Some((_, EntryKind::File))) =>
                        {
                            EntryKind::File
                        }
                        _ => {
                            cx.check_link(&p, SourceFormat::Markdown);
                            continue;
                        }
                    }
                }
                k => k,
            };
            match kind {
                EntryKind::Dir => {
                    has_subdirs = true;
                    stack.push(p);
                }
                EntryKind::File if ent.name.ends_with(".md") => files.push(p),
                EntryKind::Other if ent.name.ends_with(".md") => {
                    cx.expect_file(&p, SourceFormat::Markdown);
                }
                _ => {}
            }
        }
    }
    files.sort();
    if files.len() > 1 && !cx.out.assumptions.iter().any(|a| a == RULE_ORDER) {
        cx.out.assumptions.push(RULE_ORDER.to_string());
    }
    if has_subdirs {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::RuleOrderAssumed,
                format!(
                    "`{root}` has subdirectories; the order of rules across them is undocumented, so they are ordered \
                     by path."
                ),
            )
            .at(SourceRef::project(root.clone(), SourceFormat::Markdown)),
        );
    }
    let mut rules = Vec::new();
    for f in files {
        rule_file(cx, settings, dir, &f, nested, &mut rules);
    }
    // Unconditional rules before path-scoped ones (a stable sort keeps
    // path order within each).
    rules.sort_by_key(|j| match j {
        Job::Expand(e) => e.paths.is_some(),
        Job::Push(i) => i.paths.is_some(),
    });
    jobs.extend(rules);
}

/// The `rule-symlink-conflict` note for the link `p` in a rules root:
/// whether the profiled release follows it (`follows`), and what the
/// other releases do (fidelity: case `claude.c04_above_root_links`).
fn rule_link_note(cx: &Compiler<'_, '_>, p: &RepoPath, follows: bool) -> Diagnostic {
    let v = &cx.profile.version;
    let message = if !cx.profile.has(crate::profile::Fact::RuleLinksInsideCwdOnly) {
        format!(
            "`{p}` is a symbolic link: Claude Code {v} follows every rule link, wherever it leads; 2.1.332 follows \
             only links whose target lies inside the launch directory and skipped the others when observed."
        )
    } else if follows {
        format!(
            "`{p}` is a symbolic link whose target lies inside the launch directory `{}`: Claude Code {v} follows it \
             (links leading anywhere else are skipped).",
            cx.ctx.cwd
        )
    } else {
        format!(
            "`{p}` is a symbolic link whose target lies outside the launch directory `{}`: Claude Code {v} skipped such \
             links when observed, so it is not loaded (2.1.197 follows it).",
            cx.ctx.cwd
        )
    };
    Diagnostic::new(DiagnosticCode::RuleSymlinkConflict, message)
}

/// The `rule-symlink-conflict` note for a broken link `p` (a missing
/// target or a loop) that the profiled release does not follow: its
/// target is nowhere, so the note must not say it lies outside the launch
/// directory (which contradicted the `symlink-loop` or broken-link
/// diagnostic of the same link).
fn broken_rule_link_note(cx: &Compiler<'_, '_>, p: &RepoPath) -> Diagnostic {
    let v = &cx.profile.version;
    Diagnostic::new(
        DiagnosticCode::RuleSymlinkConflict,
        format!(
            "`{p}` is a symbolic link that leads to no file (a missing target or a loop): Claude Code {v} \
             follows only links whose target lies inside the launch directory `{}`, so it is not loaded \
             (2.1.197 tries to follow it).",
            cx.ctx.cwd
        ),
    )
}

/// [`rules_root`] of a directory above the repository root (read with
/// `--outside-root`): its `.md` files, listed through the [`Ancestors`]
/// view, recursively, in path order (an approximation, as in the
/// repository). Symbolic links (a linked file or directory, or
/// `.claude/rules` itself) are followed as the profiled release does
/// ([`Fact::RuleLinksInsideCwdOnly`]): 2.1.197 follows every one to a place
/// the view covers; 2.1.332 only one leading into the launch directory.
/// Directories are listed once by their real place (a loop ends there),
/// at most 10,000 of them.
///
/// [`Ancestors`]: playbookdiff_source::Ancestors
/// [`Fact::RuleLinksInsideCwdOnly`]: crate::profile::Fact::RuleLinksInsideCwdOnly
fn rules_root_above(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    dir: &RepoPath,
    root: &RepoPath,
    jobs: &mut Vec<Job>,
) {
    use playbookdiff_source::Reach;
    let Some(anc) = cx.outside else {
        return;
    };
    let inside_only = cx.profile.has(crate::profile::Fact::RuleLinksInsideCwdOnly);
    // Where a link leads, when the release follows it: `Some(kind)`.
    let follow = |cx: &mut Compiler<'_, '_>, p: &RepoPath| -> Option<EntryKind> {
        let (kind, into_cwd) = match cx.above_reach(p)? {
            Reach::Above { kind, .. } => (kind, false),
            Reach::Repository { real, kind } => (kind, real.starts_with(&cx.ctx.cwd)),
            // 2.1.332 skips a link leading out of the launch directory
            // before reading it; `read` reports a broken link, or one
            // leading elsewhere that 2.1.197 follows.
            Reach::Elsewhere if inside_only => {
                let d = rule_link_note(cx, p, false);
                let at = cx.source_ref(p, SourceScope::Project, SourceFormat::Markdown);
                cx.diag(d.at(at));
                return None;
            }
            _ => {
                cx.read(p, SourceFormat::Markdown);
                return None;
            }
        };
        let follows = into_cwd || !inside_only;
        let d = rule_link_note(cx, p, follows);
        let at = cx.source_ref(p, SourceScope::Project, SourceFormat::Markdown);
        cx.diag(d.at(at));
        follows.then_some(kind)
    };
    match cx.kind_at(root) {
        Some(EntryKind::Dir) => {}
        Some(EntryKind::Symlink) => {
            if follow(cx, root) != Some(EntryKind::Dir) {
                return;
            }
        }
        _ => return,
    }
    let mut files: Vec<RepoPath> = Vec::new();
    let mut stack = vec![root.clone()];
    let mut listed: HashSet<RepoPath> = HashSet::new();
    // Bounded like any listing: at most this many directories.
    let mut budget = 10_000usize;
    while let Some(d) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
        // List the directory at its real place (links on the way resolved).
        let real = match cx.above_reach(&d) {
            Some(Reach::Above {
                real,
                kind: EntryKind::Dir,
                ..
            }) => real,
            _ => continue,
        };
        if !listed.insert(real.to_repo_path()) {
            continue;
        }
        let Ok(entries) = anc.list_dir(&real) else {
            continue;
        };
        for ent in entries {
            let Some(p) = d.join(&ent.name) else { continue };
            let kind = match ent.kind {
                EntryKind::Symlink => match follow(cx, &p) {
                    Some(k) => k,
                    None => continue,
                },
                k => k,
            };
            match kind {
                EntryKind::Dir => stack.push(p),
                EntryKind::File if ent.name.ends_with(".md") => files.push(p),
                EntryKind::Other if ent.name.ends_with(".md") => {
                    // `read` reports what cannot be read.
                    cx.read(&p, SourceFormat::Markdown);
                }
                _ => {}
            }
        }
    }
    files.sort();
    if files.len() > 1 && !cx.out.assumptions.iter().any(|a| a == RULE_ORDER) {
        cx.out.assumptions.push(RULE_ORDER.to_string());
    }
    let mut rules = Vec::new();
    for f in files {
        rule_file(cx, settings, dir, &f, None, &mut rules);
    }
    rules.sort_by_key(|j| match j {
        Job::Expand(e) => e.paths.is_some(),
        Job::Push(i) => i.paths.is_some(),
    });
    jobs.extend(rules);
}

/// What a rule file says whatever the launch directory: its text, source,
/// where its body starts, and its `paths` (the patterns Claude Code uses,
/// and as written), as [`read_rule`] reads them.
struct RuleRead {
    text: Arc<TextFile>,
    source: SourceRef,
    body_start: usize,
    /// The compiled `paths` patterns of a path-scoped rule.
    patterns: Option<Arc<PathPatterns>>,
    written: Option<Vec<String>>,
}

/// [`read_rule`] of the rule file `path`, read once per run and release
/// ([`playbookdiff_source::Repo::memo`]) and shared by every launch
/// directory of `check --all-dirs`: the diagnostics of the reading are kept
/// with it and reported again, in the same order, by every caller. `None`
/// when the file cannot be read.
fn shared_rule(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<Arc<RuleRead>> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, String);
    type Read = Arc<(Option<Arc<RuleRead>>, Vec<Diagnostic>)>;
    let repo = cx.repo;
    let key = Key(path.clone(), cx.profile.version.clone());
    let read: Read = repo.memo(key, || {
        let before = cx.out.diagnostics.len();
        let rule = read_rule(cx, path).map(Arc::new);
        let diags = cx.out.diagnostics.split_off(before);
        Arc::new((rule, diags))
    });
    cx.out.diagnostics.extend(read.1.iter().cloned());
    read.0.clone()
}

/// Reads the rule file `path` and its front matter as this release reads
/// them, reporting what is wrong in them (a hidden, unclosed or invalid
/// front matter, `paths` that are not text, `globs` instead of `paths`).
/// Depends only on the file and the release.
fn read_rule(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<RuleRead> {
    let format = SourceFormat::Markdown;
    let text = cx.read(path, format)?;
    let source = cx.source_ref(path, SourceScope::Project, format);
    let front = crate::read_front_matter(&cx.profile, &text);
    let fm = front.read();
    let mut body_start = crate::body_start(&cx.profile, &text);
    let mut patterns: Option<Vec<String>> = None;
    let mut written: Option<Vec<String>> = None;
    if front.hidden {
        cx.diag(crate::front_matter_hidden_by_bom(
            path,
            &source,
            "the rule has no `paths`, loads unconditionally and sends its `---` block as text",
        ));
    }
    if let Some(fm) = fm {
        body_start = fm.body_offset;
        match &fm.value {
            Ok(v) => {
                if fm.repaired {
                    crate::repaired_note(cx, path, &source, fm.start_line);
                }
                let pv = v.get("paths").filter(|p| !p.is_null());
                if let Some(pv) = pv {
                    patterns = claude_paths(pv);
                    written = patterns.as_ref().map(|_| written_paths(pv));
                    if has_non_text(pv) {
                        let l = crate::key_line(fm, "paths");
                        let what = if patterns.is_some() {
                            "values that are not text are skipped"
                        } else {
                            "the rule has no usable pattern, so it loads unconditionally"
                        };
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::InvalidValue,
                                format!("`paths` in `{path}` is neither a string nor a list of strings; {what}."),
                            )
                            .at(source.clone().with_lines(l, l)),
                        );
                    }
                } else if v.get("globs").is_some() {
                    let l = crate::key_line(fm, "globs");
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::RuleGlobsNotPaths,
                            format!(
                                "`{path}` scopes itself with `globs:`, which Claude Code does not read; it loads \
                                 unconditionally. Rename the key to `paths:`."
                            ),
                        )
                        .at(source.clone().with_lines(l, l)),
                    );
                }
            }
            Err(e) => {
                let l = e.line.unwrap_or(fm.start_line);
                let msg = crate::yaml_message(&e.message);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!(
                            "The front matter of `{path}` is not valid YAML ({msg}), even after Claude Code's retry \
                             with special values quoted and tabs expanded; Claude Code then reads no `paths`, so the \
                             rule loads unconditionally."
                        ),
                    )
                    .at(source.clone().with_lines(l, l)),
                );
            }
        }
    } else if crate::unclosed_front_matter(&text) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidFrontmatter,
                format!(
                    "`{path}` opens front matter with `---` but no later `---` closes it; the whole file is read \
                     as plain Markdown, so the rule has no `paths` and loads unconditionally."
                ),
            )
            .at(source.clone().with_lines(1, 1)),
        );
    }
    Some(RuleRead {
        text,
        source,
        body_start,
        patterns: patterns.as_deref().map(PathPatterns::shared),
        written,
    })
}

fn rule_file(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    owner: &RepoPath,
    path: &RepoPath,
    nested: Option<&OffChain>,
    jobs: &mut Vec<Job>,
) {
    let Some(rule) = shared_rule(cx, path) else {
        return;
    };
    let text = rule.text.clone();
    let source = rule.source.clone();
    let body_start = rule.body_start;
    let patterns = &rule.patterns;
    let written = rule.written.clone();
    let mut place = match nested {
        None => Placement {
            kind: "rule",
            scope: SourceScope::Project,
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: format!("unconditional rule in `{owner}/.claude/rules`, loaded at startup"),
            applies_to: applies_to_of(owner),
        },
        Some((phase, applicability, why)) => Placement {
            kind: "rule",
            scope: SourceScope::Project,
            load_phase: *phase,
            applicability: *applicability,
            reason: format!("unconditional rule in `{owner}/.claude/rules`: {why}"),
            applies_to: owner.clone(),
        },
    };
    // Where an unconditional rule of this root loads: a path-scoped rule's
    // imports load there (fidelity C12).
    let unconditional = place.clone();
    if patterns.is_some() {
        place.load_phase = LoadPhase::OnDemand;
    }
    if excluded(
        cx,
        settings,
        path,
        &text,
        body_start,
        &mut place,
        &source,
        written.clone(),
        jobs,
    ) {
        return;
    }
    if let Some(compiled) = patterns {
        cx.invalid_patterns(compiled, &source, |p, err| {
            format!("The pattern `{p}` in `{path}` is invalid ({err}) and matches nothing; escape `[` as `\\[`.")
        });
        let (applicability, reason) = path_scoped(cx, owner, compiled, path, &source);
        place.applicability = applicability;
        place.reason = reason;
        // Its imports load where an unconditional rule of its root would
        // (at startup on the startup chain; fidelity C12), before the rule.
        let id = cx.unique_id(format!("claude-code:rule:{path}#1"));
        jobs.push(Job::Expand(Box::new(Expansion {
            path: path.clone(),
            text: text.clone(),
            body_start,
            place: unconditional,
            source: source.clone(),
            paths: None,
            part: Part::Imports,
            id: Some(id.clone()),
        })));
        jobs.push(Job::Expand(Box::new(Expansion {
            path: path.clone(),
            text,
            body_start,
            place,
            source,
            paths: written,
            part: Part::Entry,
            id: Some(id),
        })));
        return;
    }
    jobs.push(Job::Expand(Box::new(Expansion {
        path: path.clone(),
        text,
        body_start,
        place,
        source,
        paths: written,
        part: Part::Whole,
        id: None,
    })));
}

/// Whether a path-scoped rule of the rules root in `owner` loads for the
/// target, and why: its patterns are matched against the target relative
/// to `owner` (the directory holding that `.claude`), and only a target
/// inside the launch directory loads anything on demand (fidelity C1,
/// C13).
fn path_scoped(
    cx: &mut Compiler<'_, '_>,
    owner: &RepoPath,
    compiled: &PathPatterns,
    path: &RepoPath,
    source: &SourceRef,
) -> (Applicability, String) {
    let Some(t) = cx.ctx.target_path.clone() else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::PathScopedConditional,
                format!(
                    "`{path}` applies only to paths matching {} (relative to {}); give --target to decide it.",
                    compiled
                        .patterns
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if owner.is_root() { "the repository root".to_string() } else { format!("`{owner}`") }
                ),
            )
            .at(source.clone()),
        );
        return (
            Applicability::Conditional,
            "path-scoped rule; loads when a matching file is read, and no target was given".into(),
        );
    };
    let rel = cx.relative_to_owner(&t, owner);
    let hit = rel
        .as_deref()
        .and_then(|r| compiled.matched(r, cx.repo.is_dir(&t)));
    match hit {
        Some(m) if !t.starts_with(&cx.ctx.cwd) => {
            cx.target_outside_cwd();
            (
                Applicability::Conditional,
                format!(
                    "path-scoped rule; the target `{t}` matches `{m}` but is outside the launch directory, where \
                     Claude Code loads nothing on demand"
                ),
            )
        }
        Some(m) => (
            Applicability::Effective,
            format!("path-scoped rule; the target `{t}` matches `{m}`"),
        ),
        None => (
            Applicability::Conditional,
            format!("path-scoped rule; the target `{t}` matches none of its patterns"),
        ),
    }
}

/// AGENTS.md files Claude Code never receives: not imported by any listed
/// instruction and not the target of a CLAUDE.md link. Source: field
/// report 11; harness facts A5. An AGENTS.md that an import names but
/// that cannot be read is bridged: its `unreadable` diagnostic says why
/// its text is unknown, and advice to add the import it has is wrong.
fn agents_md_bridges(cx: &mut Compiler<'_, '_>) {
    for d in unbridged(cx) {
        cx.diag(d);
    }
}

/// The `agents-md-not-bridged` diagnostics of [`agents_md_bridges`], from
/// what the compilation holds so far (borrowed, not copied).
fn unbridged(cx: &Compiler<'_, '_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let reached: HashSet<&RepoPath> = cx
        .out
        .instructions
        .iter()
        .map(|i| i.source.resolved_path.as_ref().unwrap_or(&i.source.path))
        .chain(cx.included.keys())
        .chain(cx.unreadable_imports.iter())
        .collect();
    let excluded: HashSet<&RepoPath> = cx
        .out
        .instructions
        .iter()
        .filter(|i| i.applicability == Applicability::Excluded)
        .map(|i| &i.source.path)
        .collect();
    let cwd = cx.ctx.cwd.clone();
    // The AGENTS.md fallback (2.1.277 and later) reads AGENTS.md on the
    // root-to-cwd path only when no memory file is there (fidelity C16).
    let fallback = cx.profile.has(crate::profile::Fact::AgentsMdFallback);
    // The first memory file on that path, named by the reasons below.
    let memory_on_path: Option<RepoPath> = cwd
        .ancestors_root_first()
        .iter()
        .flat_map(memory_files)
        .map(|(p, _, _)| p)
        .find(|p| memory_present(cx, p));
    // Only AGENTS.md files in this launch directory's scope: on the path
    // from the root to cwd, below cwd, or on the way to the target.
    let mut dirs: Vec<RepoPath> = cwd
        .ancestors_root_first()
        .into_iter()
        .filter(|d| {
            d.join("AGENTS.md")
                .is_some_and(|p| cx.repo.kind(&p).is_some())
        })
        .collect();
    dirs.extend(cx.off_chain_owners("AGENTS.md"));
    for dir in dirs {
        let Some(agents) = dir.join("AGENTS.md") else {
            continue;
        };
        if !outside_dot_claude(&dir) || !cx.repo.is_file(&agents) {
            continue;
        }
        let real = cx.repo_real(&agents);
        if reached.contains(&real) {
            continue;
        }
        let claude = dir.join("CLAUDE.md").unwrap_or_else(RepoPath::root);
        let beside: Vec<RepoPath> = memory_files(&dir)
            .into_iter()
            .filter(|(p, kind, _)| *kind == "memory" && cx.repo.kind(p).is_some())
            .map(|(p, _, _)| p)
            .collect();
        // A memory file beside it that is a copy of it, or a link to it
        // stored as text (reported as `symlink-stored-as-text`), needs no
        // second report.
        let agents_text = normalized(cx, &agents);
        if beside.iter().any(|m| {
            normalized(cx, m)
                .is_some_and(|t| Some(&t) == agents_text.as_ref() || t.0 == "AGENTS.md")
        }) {
            continue;
        }
        // With the fallback, an AGENTS.md on the path with no memory file
        // there is read by it: if it was not reached, the file could not be
        // taken (too large, unreadable), and its own diagnostic says so.
        let on_path = cwd.starts_with(&dir);
        if fallback && beside.is_empty() && on_path && memory_on_path.is_none() {
            continue;
        }
        // No memory file beside it: the reason names the one on the path
        // from the root to the launch directory when there is one, since
        // that file, not the absence of any, is what keeps the AGENTS.md
        // fallback (2.1.277 and later) off.
        let version = &cx.profile.version;
        let why = match (beside.first(), &memory_on_path) {
            (Some(m), _) if excluded.contains(m) => {
                format!("`{m}` is excluded by claudeMdExcludes")
            }
            (Some(m), _) => format!("`{m}` neither imports it nor links to it"),
            (None, None) if on_path => format!(
                "there is no CLAUDE.md beside it, and Claude Code {version} predates the AGENTS.md fallback of \
                 2.1.277 (which reads AGENTS.md when no CLAUDE.md is on the path)"
            ),
            (None, Some(m)) if on_path && fallback => format!(
                "there is no CLAUDE.md beside it, and the AGENTS.md fallback of 2.1.277 and later applies only \
                 when no CLAUDE.md is on the path from the repository root to the launch directory, and `{m}` is"
            ),
            (None, Some(m)) if on_path => format!(
                "there is no CLAUDE.md beside it, and Claude Code {version} predates the AGENTS.md fallback of \
                 2.1.277 (which, besides, reads AGENTS.md only when no CLAUDE.md is on the path, and `{m}` is)"
            ),
            (None, None) if fallback => "there is no CLAUDE.md beside it, and the AGENTS.md fallback (2.1.277 and \
                later) reads AGENTS.md only from the repository root to the launch directory, not below it on \
                demand"
                .to_string(),
            (None, Some(m)) if fallback => format!(
                "there is no CLAUDE.md beside it, and the AGENTS.md fallback (2.1.277 and later) is off, since \
                 `{m}` is on the path from the repository root to the launch directory (and the fallback never \
                 reads AGENTS.md below the launch directory)"
            ),
            (None, _) => "there is no CLAUDE.md beside it".to_string(),
        };
        // A CLAUDE.md with text of its own keeps it beside the import: the
        // advice says to reconcile the two first, or Claude Code receives
        // both texts where they disagree.
        let own = if beside.first().is_some_and(|m| !excluded.contains(m)) {
            format!(" (first remove from `{claude}` what `{agents}` says differently, or Claude Code receives both texts)")
        } else {
            String::new()
        };
        // With no CLAUDE.md beside it, the advice creates one: "add a line
        // to" a file that does not exist would send the user looking.
        let fix = if beside.is_empty() {
            format!("Create `{claude}` holding the line `@AGENTS.md`, or make it a symbolic link to `AGENTS.md`.")
        } else {
            format!("Add a line `@AGENTS.md` to `{claude}`{own}, or make `{claude}` a symbolic link to `AGENTS.md`.")
        };
        out.push(
            Diagnostic::new(
                DiagnosticCode::AgentsMdNotBridged,
                format!("Claude Code does not read `{agents}`: {why}. {fix}"),
            )
            .at(SourceRef::project(agents.clone(), SourceFormat::Markdown)),
        );
    }
    out
}

/// The text of `path` with line endings normalized and surrounding white
/// space trimmed (read through the shared cache), `None` when unreadable.
fn normalized(cx: &Compiler<'_, '_>, path: &RepoPath) -> Option<Arc<Normalized>> {
    cx.repo
        .read_text(path, crate::READ_LIMIT)
        .ok()
        .map(|t| t.parsed_as(|text| Normalized(text.replace("\r\n", "\n").trim().to_string())))
}

/// A file's text with CRLF line ends made LF and trimmed ([`normalized`]),
/// computed once per file and shared.
#[derive(PartialEq, Eq)]
struct Normalized(String);

#[cfg(test)]
mod tests {
    use super::join_climbing;
    use playbookdiff_model::RepoPath;

    #[test]
    fn join_climbing_names_places_above_the_root_with_dot_dot() {
        let p = |s: &str| RepoPath::new(s).unwrap();
        let j = |d: &RepoPath, r: &str, l| join_climbing(d, r, l).map(|p| p.to_string());
        assert_eq!(
            j(&RepoPath::root(), "../../a.md", 2).as_deref(),
            Some("../../a.md")
        );
        assert_eq!(j(&RepoPath::root(), "../../a.md", 1), None);
        assert_eq!(
            j(&p("pkg"), "../../x/./a.md", 1).as_deref(),
            Some("../x/a.md")
        );
        assert_eq!(j(&p("pkg"), "../a.md", 0).as_deref(), Some("a.md"));
        let above = RepoPath::above_root(1, &p("sub"));
        assert_eq!(j(&above, "../../b.md", 2).as_deref(), Some("../../b.md"));
        assert_eq!(j(&above, "c.md", 1).as_deref(), Some("../sub/c.md"));
        assert_eq!(j(&RepoPath::root(), "..", 1).as_deref(), Some(".."));
    }
}

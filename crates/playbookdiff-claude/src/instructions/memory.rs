//! Memory files: `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md` of
//! each directory, and the AGENTS.md fallback that takes their place when
//! none is on the startup path (2.1.281 and later; fidelity C16).
//!
//! Source: spec 000 "Startup discovery", "Nested on-demand discovery";
//! harness facts A1.

use super::excludes::{excluded, Listed};
use super::{Expansion, Job, Part, Placement};
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, Mode, RepoPath,
    SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Resolved};
use std::collections::BTreeSet;

/// The memory files of directory `dir`, in load order, with their kind and
/// whether the file is the `.claude/CLAUDE.md` variant.
pub(super) fn memory_files(dir: &RepoPath) -> Vec<(RepoPath, InstructionKind, bool)> {
    let mut v = Vec::new();
    for (name, kind) in [
        ("CLAUDE.md", InstructionKind::Memory),
        (".claude/CLAUDE.md", InstructionKind::Memory),
        ("CLAUDE.local.md", InstructionKind::LocalMemory),
    ] {
        if let Some(p) = dir.join(name) {
            v.push((p, kind, name == ".claude/CLAUDE.md"));
        }
    }
    v
}

/// The files the AGENTS.md fallback loads in directory `dir`, where
/// `CLAUDE.md` and `.claude/CLAUDE.md` would load (fidelity C16).
pub(super) fn fallback_files(dir: &RepoPath) -> Vec<(RepoPath, InstructionKind, bool)> {
    ["AGENTS.md", ".claude/AGENTS.md"]
        .into_iter()
        .filter_map(|name| dir.join(name).map(|p| (p, InstructionKind::Memory, false)))
        .collect()
}

/// The memory files of the startup directory `dir`, in load order: under
/// the AGENTS.md fallback, its `AGENTS.md` files come after `CLAUDE.md`,
/// before `CLAUDE.local.md` (the memory files are then absent, blank,
/// dangling or not files, and still listed to be reported); the caller
/// lists the directory's rules before the first of them.
pub(super) fn startup_files(
    dir: &RepoPath,
    fallback: bool,
) -> Vec<(RepoPath, InstructionKind, bool)> {
    let mut files = memory_files(dir);
    if fallback {
        let at = files
            .iter()
            .position(|(_, kind, _)| *kind == InstructionKind::LocalMemory)
            .unwrap_or(files.len());
        files.splice(at..at, fallback_files(dir));
    }
    files
}

/// Reports that `path` loads at startup by the AGENTS.md fallback. An
/// AGENTS.md over the size limit is skipped like any memory file (its
/// `file-too-large` diagnostic says so): the fallback loads nothing from
/// it, so no diagnostic says it loads.
pub(super) fn report_fallback(cx: &mut Compiler<'_, '_>, path: &RepoPath) {
    let too_large = !path.is_above_root()
        && matches!(
            cx.repo.read_text(path, crate::READ_LIMIT),
            Err(playbookdiff_source::SourceError::TooLarge { .. })
        );
    if too_large {
        return;
    }
    let d = Diagnostic::new(
        DiagnosticCode::AgentsMdFallback,
        format!(
            "`{path}` loads at startup because no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` is on the \
             path from the repository root to the launch directory: Claude Code {} reads `AGENTS.md` there \
             instead (2.1.281 and later).",
            cx.profile.version
        ),
    );
    cx.diag(d.at(SourceRef::project(path.clone(), SourceFormat::Markdown)));
}

/// True when memory file `p` is there for the AGENTS.md fallback's test: a
/// file that is not [`blank`], or a link to one. A dangling link is not (2.1.332 loads the root
/// AGENTS.md beside a `CLAUDE.md` linking to a missing file: corpus case
/// `corpus.biomejs__biome`); a link leaving the repository is assumed to
/// reach a file.
pub(super) fn memory_present(cx: &Compiler<'_, '_>, p: &RepoPath) -> bool {
    if p.is_above_root() {
        return matches!(cx.kind_at(p), Some(EntryKind::File | EntryKind::Symlink));
    }
    match cx.repo.kind(p) {
        None => false,
        Some(EntryKind::Symlink) => match cx.repo.resolve(p) {
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } => !blank(cx, p),
            Resolved::Outside { .. } => true,
            _ => false,
        },
        Some(kind) => kind == EntryKind::File && !blank(cx, p),
    }
}

/// True when the memory file at `p` holds only white space, a byte order
/// mark included (JavaScript's `trim` removes it): Claude Code counts such
/// a file as absent for the AGENTS.md fallback (2.1.332 loads the root
/// `AGENTS.md` beside an empty `CLAUDE.md`, and beside one holding a BOM and
/// a newline: random repository `fuzz.claude-code.32`). A file that cannot
/// be read counts as present.
fn blank(cx: &Compiler<'_, '_>, p: &RepoPath) -> bool {
    cx.repo
        .read_text(p, crate::READ_LIMIT)
        .is_ok_and(|t| crate::js_trim(&t.text).is_empty())
}

/// True when the profile has the AGENTS.md fallback (2.1.281 and later)
/// and no memory file exists from the repository root to the launch
/// directory (`startup_dirs`). A memory file `claudeMdExcludes` removes
/// does not count (2.1.332 loads AGENTS.md beside a `.claude/CLAUDE.md`
/// excluded by `**/CLAUDE.md`: random repository `fuzz.claude-code.71`).
/// What lies above the repository root is unknown; the analysis assumes no
/// memory file there and says so.
pub(super) fn agents_md_fallback(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    startup_dirs: &[RepoPath],
) -> bool {
    if !cx.profile.has(crate::profile::Fact::AgentsMdFallback) {
        return false;
    }
    let memory_on_path = startup_dirs
        .iter()
        .flat_map(memory_files)
        .any(|(p, _, _)| memory_present(cx, &p) && settings.excluded_by(&p).is_none());
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
pub(super) fn memory_dirs(cx: &Compiler<'_, '_>) -> Vec<RepoPath> {
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

/// Lists one memory file (as a job) after reporting what keeps it out.
pub(super) fn top_file(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    path: &RepoPath,
    place: Placement,
    jobs: &mut Vec<Job>,
) {
    let format = SourceFormat::Markdown;
    if !cx.expect_file(path, format) {
        return;
    }
    let source = cx.source_ref(path, place.scope, format);
    if place.kind == InstructionKind::LocalMemory && cx.context.mode == Mode::Repo {
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
            kind: place.kind,
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
    let listed = Listed {
        text: &text,
        body_start,
        place: &place,
        source: &source,
    };
    if excluded(cx, settings, path, &listed, None, jobs) {
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
pub(super) fn link_stored_as_text(cx: &mut Compiler<'_, '_>, path: &RepoPath, source: &SourceRef) {
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

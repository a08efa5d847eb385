//! The AGENTS.md bridge: an `AGENTS.md` that no listed instruction imports
//! and no `CLAUDE.md` links to never reaches Claude Code (field report 11;
//! harness facts A5).

use super::memory::{memory_files, memory_present};
use crate::{outside_dot_claude, Compiler};
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, InstructionKind, RepoPath, SourceFormat, SourceRef,
};
use std::collections::HashSet;
use std::sync::Arc;

/// AGENTS.md files Claude Code never receives: not imported by any listed
/// instruction and not the target of a CLAUDE.md link. Source: field
/// report 11; harness facts A5. An AGENTS.md that an import names but
/// that cannot be read is bridged: its `unreadable` diagnostic says why
/// its text is unknown, and advice to add the import it has is wrong.
pub(super) fn agents_md_bridges(cx: &mut Compiler<'_, '_>) {
    for d in unbridged(cx) {
        cx.diag(d);
    }
}

/// The `agents-md-not-bridged` diagnostics of [`agents_md_bridges`], from
/// what the compilation holds so far (borrowed, not copied).
pub(super) fn unbridged(cx: &Compiler<'_, '_>) -> Vec<Diagnostic> {
    let seen = Seen::of(cx);
    agents_md_dirs(cx)
        .into_iter()
        .filter_map(|dir| unbridged_in(cx, &seen, &dir))
        .collect()
}

/// What the compilation holds that decides whether an AGENTS.md is
/// bridged.
struct Seen<'c> {
    /// The real files the instructions reach (listed, included or named by
    /// an import that could not read them).
    reached: HashSet<&'c RepoPath>,
    /// The files `claudeMdExcludes` removes.
    excluded: HashSet<&'c RepoPath>,
    /// Whether the release has the AGENTS.md fallback (2.1.281 and later),
    /// which reads AGENTS.md on the root-to-cwd path only when no memory
    /// file is there (fidelity C16).
    fallback: bool,
    /// The first memory file on that path, named by the reasons.
    memory_on_path: Option<RepoPath>,
}

impl<'c> Seen<'c> {
    fn of(cx: &'c Compiler<'_, '_>) -> Self {
        let instructions = &cx.out.instructions;
        Seen {
            reached: instructions
                .iter()
                .map(|i| i.source.resolved_path.as_ref().unwrap_or(&i.source.path))
                .chain(cx.included.keys())
                .chain(cx.unreadable_imports.iter())
                .collect(),
            excluded: instructions
                .iter()
                .filter(|i| i.applicability == Applicability::Excluded)
                .map(|i| &i.source.path)
                .collect(),
            fallback: cx.profile.has(crate::profile::Fact::AgentsMdFallback),
            memory_on_path: cx
                .context
                .cwd
                .ancestors_root_first()
                .iter()
                .flat_map(memory_files)
                .map(|(p, _, _)| p)
                .find(|p| memory_present(cx, p)),
        }
    }
}

/// The directories holding an AGENTS.md in this launch directory's scope:
/// on the path from the root to cwd, below cwd, or on the way to the
/// target.
fn agents_md_dirs(cx: &Compiler<'_, '_>) -> Vec<RepoPath> {
    let mut dirs: Vec<RepoPath> = cx
        .context
        .cwd
        .ancestors_root_first()
        .into_iter()
        .filter(|d| {
            d.join("AGENTS.md")
                .is_some_and(|p| cx.repo.kind(&p).is_some())
        })
        .collect();
    dirs.extend(cx.off_chain_owners("AGENTS.md"));
    dirs
}

/// The `agents-md-not-bridged` diagnostic of the AGENTS.md in `dir`, when
/// Claude Code does not read it.
fn unbridged_in(cx: &Compiler<'_, '_>, seen: &Seen<'_>, dir: &RepoPath) -> Option<Diagnostic> {
    let agents = dir.join("AGENTS.md")?;
    if !outside_dot_claude(dir) || !cx.repo.is_file(&agents) {
        return None;
    }
    if seen.reached.contains(&cx.repo_real(&agents)) {
        return None;
    }
    let beside: Vec<RepoPath> = memory_files(dir)
        .into_iter()
        .filter(|(p, kind, _)| *kind == InstructionKind::Memory && cx.repo.kind(p).is_some())
        .map(|(p, _, _)| p)
        .collect();
    // A memory file beside it that is a copy of it, or a link to it stored
    // as text (reported as `symlink-stored-as-text`), needs no second
    // report.
    let agents_text = normalized(cx, &agents);
    if beside.iter().any(|m| {
        normalized(cx, m).is_some_and(|t| Some(&t) == agents_text.as_ref() || t.0 == "AGENTS.md")
    }) {
        return None;
    }
    // With the fallback, an AGENTS.md on the path with no memory file there
    // is read by it: if it was not reached, the file could not be taken
    // (too large, unreadable), and its own diagnostic says so.
    let on_path = cx.context.cwd.starts_with(dir);
    if seen.fallback && beside.is_empty() && on_path && seen.memory_on_path.is_none() {
        return None;
    }
    let why = why_unbridged(seen, &cx.profile.version, beside.first(), on_path);
    let claude = dir.join("CLAUDE.md").unwrap_or_else(RepoPath::root);
    let fix = bridge_fix(seen, &claude, &agents, beside.first());
    let d = Diagnostic::new(
        DiagnosticCode::AgentsMdNotBridged,
        format!("Claude Code does not read `{agents}`: {why}. {fix}"),
    );
    Some(d.at(SourceRef::project(agents.clone(), SourceFormat::Markdown)))
}

/// Why Claude Code `version` does not read an AGENTS.md, whose directory
/// holds the memory file `beside` (if any) and lies on the root-to-cwd
/// path when `on_path`. With no memory file beside it, the reason names
/// the one on the path from the root to the launch directory when there is
/// one, since that file, not the absence of any, is what keeps the
/// AGENTS.md fallback (2.1.281 and later) off.
fn why_unbridged(
    seen: &Seen<'_>,
    version: &str,
    beside: Option<&RepoPath>,
    on_path: bool,
) -> String {
    let fallback = seen.fallback;
    match (beside, &seen.memory_on_path) {
        (Some(m), _) if seen.excluded.contains(m) => {
            format!("`{m}` is excluded by claudeMdExcludes")
        }
        (Some(m), _) => format!("`{m}` neither imports it nor links to it"),
        (None, None) if on_path => format!(
            "there is no CLAUDE.md beside it, and Claude Code {version} predates the AGENTS.md fallback of \
             2.1.281 (which reads AGENTS.md when no CLAUDE.md is on the path)"
        ),
        (None, Some(m)) if on_path && fallback => format!(
            "there is no CLAUDE.md beside it, and the AGENTS.md fallback of 2.1.281 and later applies only \
             when no CLAUDE.md is on the path from the repository root to the launch directory, and `{m}` is"
        ),
        (None, Some(m)) if on_path => format!(
            "there is no CLAUDE.md beside it, and Claude Code {version} predates the AGENTS.md fallback of \
             2.1.281 (which, besides, reads AGENTS.md only when no CLAUDE.md is on the path, and `{m}` is)"
        ),
        (None, None) if fallback => "there is no CLAUDE.md beside it, and the AGENTS.md fallback (2.1.281 and \
            later) reads AGENTS.md only from the repository root to the launch directory, not below it on \
            demand"
            .to_string(),
        (None, Some(m)) if fallback => format!(
            "there is no CLAUDE.md beside it, and the AGENTS.md fallback (2.1.281 and later) is off, since \
             `{m}` is on the path from the repository root to the launch directory (and the fallback never \
             reads AGENTS.md below the launch directory)"
        ),
        (None, _) => "there is no CLAUDE.md beside it".to_string(),
    }
}

/// What to do so that Claude Code reads `agents`: import it from `claude`,
/// or create `claude` when there is no memory file `beside` it ("add a
/// line to" a file that does not exist would send the user looking). A
/// CLAUDE.md with text of its own keeps it beside the import: the advice
/// says to reconcile the two first, or Claude Code receives both texts
/// where they disagree.
fn bridge_fix(
    seen: &Seen<'_>,
    claude: &RepoPath,
    agents: &RepoPath,
    beside: Option<&RepoPath>,
) -> String {
    let Some(m) = beside else {
        return format!(
            "Create `{claude}` holding the line `@AGENTS.md`, or make it a symbolic link to `AGENTS.md`."
        );
    };
    let own = if seen.excluded.contains(m) {
        String::new()
    } else {
        format!(" (first remove from `{claude}` what `{agents}` says differently, or Claude Code receives both texts)")
    };
    format!("Add a line `@AGENTS.md` to `{claude}`{own}, or make `{claude}` a symbolic link to `AGENTS.md`.")
}

/// The text of `path` with line endings normalized and surrounding white
/// space trimmed (read through the shared cache), `None` when unreadable.
pub(super) fn normalized(cx: &Compiler<'_, '_>, path: &RepoPath) -> Option<Arc<Normalized>> {
    cx.repo
        .read_text(path, crate::READ_LIMIT)
        .ok()
        .map(|t| t.parsed_as(|text| Normalized(text.replace("\r\n", "\n").trim().to_string())))
}

/// A file's text with CRLF line ends made LF and trimmed ([`normalized`]),
/// computed once per file and shared.
#[derive(PartialEq, Eq)]
pub(super) struct Normalized(String);

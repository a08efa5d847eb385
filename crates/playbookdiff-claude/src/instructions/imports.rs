//! `@path` imports: a listed file split at its imports, each imported file
//! listed after it, depth-first, once per context (fidelity C5, C11).
//! The token scanner is [`crate::imports`]; where a token leads is
//! [`super::import_targets`].

use super::excludes::excluded_entry;
use super::import_targets::{glued_lookalike, lookalike, resolve_import, Import};
use super::{Loader, Part, Placement, MAX_IMPORT_HOPS};
use crate::Compiler;
use playbookdiff_model::{
    Applicability, ByteSpan, Diagnostic, DiagnosticCode, Instruction, RepoPath, SourceFormat,
    SourceRef,
};
use playbookdiff_source::TextFile;
use std::collections::{HashMap, HashSet};

/// The outcome of the first `@token` of a given spelling in one file; later
/// tokens spelled the same way in that file have the same outcome.
#[derive(Clone)]
pub(super) enum Seen {
    /// Imported (or already in the context): later ones are repeats.
    Imported(RepoPath),
    /// Anything else, already reported once.
    Reported,
}

/// Repeated imports of one file from the file being expanded.
pub(super) struct Repeat {
    raw: String,
    line: u32,
    count: usize,
    how: String,
}

/// The repeated imports of the file being expanded, by imported file, in
/// the order of their first repeat.
#[derive(Default)]
pub(super) struct Repeats {
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
pub(super) fn expand(
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
pub(super) struct ExpandJob<'t> {
    pub(super) text: &'t TextFile,
    pub(super) body_start: usize,
    pub(super) part: Part,
    pub(super) id: Option<String>,
}

/// The file named in an entry id (`claude-code:memory:CLAUDE.md#1` gives
/// `CLAUDE.md`, `claude-code:import:a.md<CLAUDE.md#1` gives `a.md`).
pub(super) fn file_of(id: &str) -> &str {
    let from = id.split(':').nth(2).unwrap_or(id);
    from.split(['#', '<']).next().unwrap_or(from)
}

/// The import scan of a file's body starting at byte `.0`, cached per file.
pub(super) struct ScanAt(usize, crate::imports::Scan);

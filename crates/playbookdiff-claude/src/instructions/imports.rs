//! `@path` imports: a listed file split at its imports, each imported file
//! listed after it, depth-first, once per context (fidelity C5, C11).
//! The token scanner is [`crate::imports`]; where a token leads is
//! [`super::import_targets`].

use super::excludes::{excluded_entry, Listed};
use super::import_targets::{glued_lookalike, lookalike, resolve_import, Import};
use super::{Loader, Part, Placement, MAX_IMPORT_HOPS};
use crate::imports::ImportRef;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, ByteSpan, Diagnostic, DiagnosticCode, Instruction, InstructionKind, RepoPath,
    SourceFormat, SourceRef,
};
use playbookdiff_source::TextFile;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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
/// the imported files, with `job.place` their startup placement.
///
/// `stack` holds the real paths of the files being expanded, the
/// top-level file first.
pub(super) fn expand(
    cx: &mut Compiler<'_, '_>,
    loader: &mut Loader<'_>,
    job: ExpandJob<'_>,
    stack: &mut Vec<RepoPath>,
) -> bool {
    let trim_end = cx.profile.has(crate::profile::Fact::MemoryTextTrimmed);
    let mut body = body_of(job.text, job.body_start, trim_end);
    if body.content.is_empty() {
        if job.part != Part::Imports {
            report_empty(cx, &job);
        }
        return false;
    }
    let id = match &job.id {
        Some(id) => id.clone(),
        None => cx.unique_id(entry_id(&job)),
    };
    if job.part == Part::Entry {
        let spans = loader.rule_spans.remove(job.path).unwrap_or_default();
        let paths = job.paths.clone();
        cx.out
            .instructions
            .push(entry(&job, id, paths, spans, body.content));
        return false;
    }
    // The entry comes first, the files it imports after it; a rule's
    // imports part lists only those (its entry comes later, in its own
    // group).
    let at_entry = cx.out.instructions.len();
    if job.part != Part::Imports {
        let content = std::mem::take(&mut body.content);
        let e = entry(&job, id.clone(), job.paths.clone(), Vec::new(), content);
        cx.out.instructions.push(e);
    }
    let mut file = Importing::new(cx, &job, &id, stack);
    for (tok, span) in body.scan.1.imports.iter().zip(&body.spans) {
        import_token(cx, loader, &mut file, tok, *span, stack);
    }
    let Importing {
        spans,
        repeats,
        repeated_below,
        importer,
        dir,
        ..
    } = file;
    if job.part == Part::Imports {
        // The rule's entry comes later, in its own group, with these spans.
        loader.rule_spans.insert(job.path.clone(), spans);
    } else {
        cx.out.instructions[at_entry].import_spans = spans;
    }
    report_glued(cx, &job, &dir, &body.scan.1);
    let any = repeated_below || !repeats.list.is_empty();
    report_repeats(cx, &importer, &job.source, repeats);
    any
}

/// A file's body as the agent sends it: from `body_start`, the HTML
/// comments it removes taken out, trimmed at both ends (`content.trim()`
/// in the loader of 2.1.197 and 2.1.332; seen in the request body as
/// `@AGENTS.md\n\nContents of …` for a CLAUDE.md that is `@AGENTS.md\n`);
/// before [`crate::profile::Fact::MemoryTextTrimmed`], trimmed at the
/// start only: the file's trailing line end is sent (2.1.73, case
/// `claude.c12_rule_imports`: `Root\n`).
struct Body {
    /// The import scan of the body.
    scan: Arc<ScanAt>,
    /// The text sent.
    content: String,
    /// Where each import of `scan` stands in `content`, in scan order.
    spans: Vec<ByteSpan>,
}

/// [`Body`] of `text` from byte `body_start`; the scan is cached per file
/// for one start, another start scans anew.
fn body_of(text: &TextFile, body_start: usize, trim_end: bool) -> Body {
    let body = &text.text[body_start..];
    let cached = text.parsed_as(|t| {
        ScanAt(
            body_start,
            crate::imports::scan(t.get(body_start..).unwrap_or("")),
        )
    });
    let scan = if cached.0 == body_start {
        cached
    } else {
        Arc::new(ScanAt(body_start, crate::imports::scan(body)))
    };
    let (content, map) = crate::imports::strip(body, &scan.1.removed);
    let lead = content.len() - crate::js_trim_start(&content).len();
    let at = |off: usize| map(off).saturating_sub(lead) as u64;
    let spans = scan
        .1
        .imports
        .iter()
        .map(|t| ByteSpan {
            start: at(t.start),
            end: at(t.end),
        })
        .collect();
    let content = if trim_end {
        crate::js_trim(&content)
    } else {
        crate::js_trim_start(&content)
    }
    .to_string();
    Body {
        scan,
        content,
        spans,
    }
}

/// Reports a file that is empty or only white space: the agent drops it
/// and anything it would import.
fn report_empty(cx: &mut Compiler<'_, '_>, job: &ExpandJob<'_>) {
    let path = job.path;
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InstructionEmpty,
            format!("`{path}` is empty or only white space; Claude Code drops it (and anything it would import)."),
        )
        .at(job.source.clone()),
    );
}

/// The id base of a file's entry (made unique by the caller). An imported
/// file's entry names the top-level file it was reached from:
/// `claude-code:import:AGENTS.md<CLAUDE.md#1`.
fn entry_id(job: &ExpandJob<'_>) -> String {
    let (kind, path) = (job.place.kind, job.path);
    match job.imported_from {
        Some(parent) => format!("claude-code:{kind}:{path}<{}#1", file_of(parent)),
        None => format!("claude-code:{kind}:{path}#1"),
    }
}

/// The file's own entry: its body's lines, its text without imports.
fn entry(
    job: &ExpandJob<'_>,
    id: String,
    paths: Option<Vec<String>>,
    import_spans: Vec<ByteSpan>,
    content: String,
) -> Instruction {
    let (ls, le) = job.text.lines_of(job.body_start, job.text.text.len());
    let place = job.place;
    Instruction {
        id,
        kind: place.kind,
        source: job.source.clone().with_lines(ls, le.max(ls)),
        load_phase: place.load_phase,
        applicability: place.applicability,
        reason: place.reason.clone(),
        order: None,
        applies_to: place.applies_to.clone(),
        imported_from: job.imported_from.map(str::to_string),
        bytes: content.len() as u64,
        truncated_at_byte: None,
        paths,
        resolution: None,
        import_spans,
        content,
    }
}

/// The imports of the file being expanded, as [`import_token`] goes
/// through them.
struct Importing<'j, 'b> {
    job: &'j ExpandJob<'j>,
    /// The id of the file's entry.
    id: &'j str,
    /// The directory relative imports resolve from: that of the file's
    /// real path.
    dir: RepoPath,
    /// The file the imports are reported against (the top of `stack`).
    importer: RepoPath,
    /// Import hops from the top-level file to this one.
    depth: usize,
    /// The outcome of the first token of each spelling.
    seen: HashMap<&'b str, Seen>,
    repeats: Repeats,
    /// The spans of the imports that name a repository file.
    spans: Vec<ByteSpan>,
    /// True when an import in an imported file was a repeat.
    repeated_below: bool,
}

impl<'j> Importing<'j, '_> {
    fn new(cx: &Compiler<'_, '_>, job: &'j ExpandJob<'j>, id: &'j str, stack: &[RepoPath]) -> Self {
        Importing {
            job,
            id,
            dir: cx
                .repo_real(job.path)
                .parent()
                .unwrap_or_else(RepoPath::root),
            importer: stack.last().cloned().unwrap_or_else(|| job.path.clone()),
            depth: stack.len() - 1,
            seen: HashMap::new(),
            repeats: Repeats::default(),
            spans: Vec::new(),
            repeated_below: false,
        }
    }
}

/// One `@token` that names a repository file.
struct Hit<'t> {
    tok: &'t ImportRef,
    target: RepoPath,
    real: RepoPath,
    line: u32,
    /// The token's line in the importing file.
    at: SourceRef,
}

/// Lists what the `@token` `tok` imports (its span in the entry is
/// `span`), or reports why it imports nothing.
fn import_token<'b>(
    cx: &mut Compiler<'_, '_>,
    loader: &mut Loader<'_>,
    file: &mut Importing<'_, 'b>,
    tok: &'b ImportRef,
    span: ByteSpan,
    stack: &mut Vec<RepoPath>,
) {
    let job = file.job;
    let line = job.text.line_of(job.body_start + tok.start);
    match file.seen.get(tok.path.as_str()).cloned() {
        Some(Seen::Imported(real)) => {
            file.spans.push(span);
            let how = cx
                .included
                .get(&real)
                .map(|i| i.describe(job.path))
                .unwrap_or_default();
            file.repeats.add(&real, &tok.raw, line, how);
            return;
        }
        Some(Seen::Reported) => return,
        None => {}
    }
    file.seen.insert(tok.path.as_str(), Seen::Reported);
    let at = job.source.clone().with_lines(line, line);
    let target = match resolve_import(cx, &file.dir, &tok.path, &tok.raw, &at) {
        Import::File(t) => t,
        Import::Reported => return,
        Import::Unresolved => {
            let rest = &job.text.text[job.body_start + tok.end..];
            let rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
            lookalike(cx, &file.dir, &tok.raw, rest, &at);
            return;
        }
    };
    let real = cx.repo_real(&target);
    file.spans.push(span);
    let hit = Hit {
        tok,
        target,
        real,
        line,
        at,
    };
    if !blocked(cx, loader, file, &hit, stack) {
        load(cx, loader, file, hit, stack);
    }
}

/// Reports why `hit` is not loaded here, when it is not: a cycle, a file
/// already in the context, one that could not be read, one too many hops
/// deep, excluded, or not text.
fn blocked<'b>(
    cx: &mut Compiler<'_, '_>,
    loader: &mut Loader<'_>,
    file: &mut Importing<'_, 'b>,
    hit: &Hit<'b>,
    stack: &[RepoPath],
) -> bool {
    let (raw, real) = (&hit.tok.raw, &hit.real);
    if stack.contains(real) {
        let d = Diagnostic::new(
            DiagnosticCode::ImportCycle,
            format!(
                "`@{raw}` imports `{real}`, which is already being imported on this chain; Claude Code stops \
                 there silently (each file is processed once)."
            ),
        );
        cx.diag_once(&file.importer, real, d.at(hit.at.clone()));
        return true;
    }
    let place = file.job.place;
    if let Some(how) = cx
        .included_before(real, place.load_phase, place.applicability)
        .map(|i| i.describe(file.job.path))
    {
        file.seen
            .insert(hit.tok.path.as_str(), Seen::Imported(real.clone()));
        file.repeats.add(real, raw, hit.line, how);
        return true;
    }
    if cx.unreadable_imports.contains(real) {
        return true;
    }
    if file.depth + 1 > MAX_IMPORT_HOPS {
        let d = Diagnostic::new(
            DiagnosticCode::ImportDepthExceeded,
            format!(
                "`@{raw}` is {} import hops from a top-level file; Claude Code follows at most {MAX_IMPORT_HOPS} \
                 (older versions 5), so it is not loaded.",
                file.depth + 1
            ),
        );
        cx.diag_once(&file.importer, real, d.at(hit.at.clone()));
        return true;
    }
    if excluded_import(cx, loader, file, hit) {
        return true;
    }
    not_text(cx, hit)
}

/// When a `claudeMdExcludes` pattern matches the imported file: reports it
/// and lists it as excluded (once per file); returns true then.
fn excluded_import(
    cx: &mut Compiler<'_, '_>,
    loader: &mut Loader<'_>,
    file: &Importing<'_, '_>,
    hit: &Hit<'_>,
) -> bool {
    let Some(ex) = loader.settings.excluded_by(&hit.target) else {
        return false;
    };
    let (raw, layer) = (ex.raw.clone(), ex.layer.path.clone());
    if !loader.excluded_imports.insert(hit.real.clone()) {
        return true;
    }
    let (target, tok, path) = (&hit.target, &hit.tok.raw, file.job.path);
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InstructionExcluded,
            format!(
                "`@{tok}` imports `{target}`, which the `claudeMdExcludes` pattern `{raw}` in `{layer}` \
                 excludes: excludes apply to imported files too, so neither it nor what it imports is \
                 loaded."
            ),
        )
        .at(hit.at.clone()),
    );
    let Some(imported) = cx.read(target, SourceFormat::Markdown) else {
        return true;
    };
    let mut child = file.job.place.clone();
    child.kind = InstructionKind::Import;
    child.reason = format!(
        "imported by `@{tok}` in `{path}`; excluded by claudeMdExcludes `{raw}` in `{layer}`"
    );
    let listed = Listed {
        text: &imported,
        body_start: crate::body_start(&cx.profile, &imported),
        place: &child,
        source: &cx.source_ref(target, child.scope, SourceFormat::Markdown),
    };
    let id = cx.unique_id(format!(
        "claude-code:import:{target}<{}#1",
        file_of(file.id)
    ));
    let entry = excluded_entry(id, &listed, None, Some(file.id), layer);
    cx.out.instructions.push(entry);
    true
}

/// Reports an import of a file whose extension Claude Code does not
/// import; returns true then.
fn not_text(cx: &mut Compiler<'_, '_>, hit: &Hit<'_>) -> bool {
    let target = &hit.target;
    if crate::imports::text_file(target.file_name().unwrap_or("")) {
        return false;
    }
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ImportNotText,
            format!(
                "`@{}` names `{target}`, whose extension is not one Claude Code imports (it skips \
                 \"non-text\" files); nothing is loaded from it.",
                hit.tok.raw
            ),
        )
        .at(hit.at.clone()),
    );
    true
}

/// Reads the imported file of `hit`, includes it in the context and
/// expands it in its turn.
fn load<'b>(
    cx: &mut Compiler<'_, '_>,
    loader: &mut Loader<'_>,
    file: &mut Importing<'_, 'b>,
    hit: Hit<'b>,
    stack: &mut Vec<RepoPath>,
) {
    let format = SourceFormat::Markdown;
    let Some(imported) = cx.read(&hit.target, format) else {
        cx.unreadable_imports.insert(hit.real);
        return;
    };
    let child = child_place(cx, file.job, &hit);
    file.seen
        .insert(hit.tok.path.as_str(), Seen::Imported(hit.real.clone()));
    cx.included.insert(
        hit.real.clone(),
        crate::Inclusion {
            by: file.job.path.clone(),
            imported: true,
            load_phase: child.load_phase,
        },
    );
    stack.push(hit.real);
    let child_job = ExpandJob {
        path: &hit.target,
        text: &imported,
        body_start: crate::body_start(&cx.profile, &imported),
        part: Part::Whole,
        id: None,
        place: &child,
        imported_from: Some(file.id),
        source: cx.source_ref(&hit.target, child.scope, format),
        paths: None,
    };
    file.repeated_below |= expand(cx, loader, child_job, stack);
    stack.pop();
}

/// Where the file `hit` imports enters the context: as the importing file
/// does, except an import outside the launch directory (it needs a
/// one-time approval) and a path-scoped rule's import (it loads with its
/// root's unconditional rules); both reported.
fn child_place(cx: &mut Compiler<'_, '_>, job: &ExpandJob<'_>, hit: &Hit<'_>) -> Placement {
    let (path, raw, target) = (job.path, &hit.tok.raw, &hit.target);
    let mut child = job.place.clone();
    child.kind = InstructionKind::Import;
    let cwd = &cx.context.cwd;
    if job.place.applicability == Applicability::Effective && !target.starts_with(cwd) {
        let d = Diagnostic::new(
            DiagnosticCode::ImportOutsideCwd,
            format!(
                "`@{raw}` resolves to `{target}`, outside the launch directory `{cwd}`: an interactive session asks \
                 once for approval before loading it, so it is conditional."
            ),
        );
        cx.diag(d.at(hit.at.clone()));
        child.applicability = Applicability::Conditional;
        child.reason = format!(
            "imported from `{path}`; outside the launch directory, so it needs a one-time approval"
        );
    } else if job.part == Part::Imports {
        child.reason = format!(
            "imported by `@{raw}` in the path-scoped rule `{path}`; Claude Code loads a path-scoped rule's imports \
             with its root's unconditional rules, whether or not its paths match"
        );
        cx.diag_once(
            path,
            path,
            Diagnostic::new(
                DiagnosticCode::RuleImportUnscoped,
                format!(
                    "`{path}` is path-scoped, but `@{raw}` in it loads with the unconditional rules of its root (at \
                     startup for the launch directory and its ancestors) whatever the rule's `paths`: Claude Code \
                     scopes the rule, not what it imports. Move that text into the rule to scope it."
                ),
            )
            .at(hit.at.clone()),
        );
    } else {
        child.reason = format!("imported by `@{raw}` in `{path}`");
    }
    child
}

/// Reports each `@path` glued to an opening mark (`(@docs/a.md)`): it
/// reads as an import but is not one.
fn report_glued(
    cx: &mut Compiler<'_, '_>,
    job: &ExpandJob<'_>,
    dir: &RepoPath,
    scanned: &crate::imports::Scan,
) {
    let (text, body_start) = (job.text, job.body_start);
    let body = &text.text[body_start..];
    let glued = text.markdown(body_start);
    let mut glued_seen: HashSet<&str> = HashSet::new();
    for tok in &glued.glued {
        if scanned.imports.iter().any(|i| i.start == tok.start) || !glued_seen.insert(&tok.raw) {
            continue;
        }
        let line = text.line_of(body_start + tok.start);
        let before = body[..tok.start].chars().next_back().unwrap_or(' ');
        let at = job.source.clone().with_lines(line, line);
        glued_lookalike(cx, dir, &tok.raw, before, &at);
    }
}

/// Reports each file imported again from the file at `source` (once per
/// importing and imported file), with how many later imports repeat it.
fn report_repeats(
    cx: &mut Compiler<'_, '_>,
    importer: &RepoPath,
    source: &SourceRef,
    repeats: Repeats,
) {
    for (real, r) in repeats.list {
        let others = match r.count {
            1 => String::new(),
            2 => ", as does 1 later import in this file".to_string(),
            n => format!(", as do {} later imports in this file", n - 1),
        };
        cx.diag_once(
            importer,
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
}

/// What one [`expand`] call lists: the file `path`, its text from
/// `body_start`, the part of it, the entry's id when fixed at discovery,
/// its placement and source, the file that imports it (by entry id) and
/// the `paths` of a rule as written.
pub(super) struct ExpandJob<'t> {
    pub(super) path: &'t RepoPath,
    pub(super) text: &'t TextFile,
    pub(super) body_start: usize,
    pub(super) part: Part,
    pub(super) id: Option<String>,
    pub(super) place: &'t Placement,
    pub(super) imported_from: Option<&'t str>,
    pub(super) source: SourceRef,
    pub(super) paths: Option<Vec<String>>,
}

/// The file named in an entry id (`claude-code:memory:CLAUDE.md#1` gives
/// `CLAUDE.md`, `claude-code:import:a.md<CLAUDE.md#1` gives `a.md`).
pub(super) fn file_of(id: &str) -> &str {
    let from = id.split(':').nth(2).unwrap_or(id);
    from.split(['#', '<']).next().unwrap_or(from)
}

/// The import scan of a file's body starting at byte `.0`, cached per file.
pub(super) struct ScanAt(usize, crate::imports::Scan);

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

use crate::matcher::{split_paths, PathPattern};
use crate::settings::Settings;
use crate::{outside_dot_claude, strictly_below, Compiler};
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, LoadPhase, Mode, RepoPath, Resolution,
    Severity, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Resolved};
use std::collections::{BTreeSet, HashSet};

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

/// The memory files of directory `dir`, in load order, with their kind.
fn memory_files(dir: &RepoPath) -> Vec<(RepoPath, &'static str)> {
    let mut v = Vec::new();
    for (name, kind) in [
        ("CLAUDE.md", "memory"),
        (".claude/CLAUDE.md", "memory"),
        ("CLAUDE.local.md", "local-memory"),
    ] {
        if let Some(p) = dir.join(name) {
            v.push((p, kind));
        }
    }
    v
}

/// Every directory below or beside the ancestor chain that holds a memory
/// file or a `.claude/rules` root, from the one-walk index.
fn memory_dirs(cx: &Compiler<'_, '_>) -> BTreeSet<RepoPath> {
    let mut dirs = BTreeSet::new();
    for name in ["CLAUDE.md", "CLAUDE.local.md"] {
        for p in cx.repo.files_named(name) {
            let Some(parent) = p.parent() else { continue };
            if outside_dot_claude(&parent) {
                dirs.insert(parent);
            } else if parent.file_name() == Some(".claude") && name == "CLAUDE.md" {
                if let Some(owner) = parent.parent() {
                    if outside_dot_claude(&owner) {
                        dirs.insert(owner);
                    }
                }
            }
        }
    }
    dirs
}

pub fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let cwd = cx.ctx.cwd.clone();
    let startup_dirs = cwd.ancestors_root_first();
    let mut nested_generalized = false;

    // Startup: root → cwd.
    for dir in &startup_dirs {
        for (path, kind) in memory_files(dir) {
            if cx.repo.kind(&path).is_none() {
                continue;
            }
            if path.as_str().ends_with(".claude/CLAUDE.md") && !dir.is_root() {
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
                reason: if dir == &cwd {
                    "loaded at startup from the launch directory".to_string()
                } else {
                    format!("loaded at startup from `{dir}`, an ancestor of the launch directory")
                },
                applies_to: dir.clone(),
            };
            if kind == "local-memory" {
                // Rules of this directory come before CLAUDE.local.md.
                rules_root(cx, settings, dir, LoadPhase::Startup);
            }
            top_file(cx, settings, &path, place);
        }
        if cx
            .repo
            .kind(&dir.join("CLAUDE.local.md").unwrap_or_else(RepoPath::root))
            .is_none()
        {
            rules_root(cx, settings, dir, LoadPhase::Startup);
        }
    }

    // Below cwd (on demand) and elsewhere (out of scope).
    let startup: HashSet<RepoPath> = startup_dirs.iter().cloned().collect();
    let mut below: Vec<RepoPath> = memory_dirs(cx)
        .into_iter()
        .filter(|d| !startup.contains(d))
        .collect();
    below.sort_by(|a, b| a.depth().cmp(&b.depth()).then(a.cmp(b)));
    let target_dir = cx.target_dir();
    let mut target_outside_reported = false;
    for dir in below {
        let (load_phase, applicability, reason) = if strictly_below(&dir, &cwd) {
            let (a, r) = cx.on_demand(&dir);
            (LoadPhase::OnDemand, a, r)
        } else if target_dir.as_ref().is_some_and(|td| td.starts_with(&dir)) {
            if !target_outside_reported {
                target_outside_reported = true;
                cx.diag(Diagnostic::new(
                    DiagnosticCode::TargetOutsideCwd,
                    format!(
                        "The target is outside the launch directory `{cwd}`; Claude Code documents on-demand loading \
                         only for subdirectories of the launch directory, so instructions near the target are conditional."
                    ),
                ));
            }
            (
                LoadPhase::OnDemand,
                Applicability::Conditional,
                format!("`{dir}` is outside the launch directory; on-demand loading there is undocumented"),
            )
        } else {
            (
                LoadPhase::OnDemand,
                Applicability::OutOfScope,
                format!("`{dir}` is neither the launch directory, an ancestor of it, nor below it"),
            )
        };
        for (path, kind) in memory_files(&dir) {
            if cx.repo.kind(&path).is_none() {
                continue;
            }
            if path.as_str().ends_with(".claude/CLAUDE.md") {
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
            top_file(cx, settings, &path, place);
        }
    }
    if nested_generalized {
        cx.diag(Diagnostic::new(
            DiagnosticCode::DotClaudeMemoryGeneralized,
            "A `.claude/CLAUDE.md` below the repository root is treated like the root one (loaded after `CLAUDE.md` in \
             the same directory); this is verified at the root only.",
        ));
    }

    nested_rules_roots(cx, &cwd);
    agents_md_bridges(cx);
}

/// Lists one memory or rule file and expands its imports.
fn top_file(cx: &mut Compiler<'_, '_>, settings: &Settings, path: &RepoPath, mut place: Placement) {
    let format = SourceFormat::Markdown;
    if !cx.check_link(path, format) {
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
        let bytes = cx
            .repo
            .read_text(path, crate::MAX_FILE_BYTES)
            .map(|t| t.bytes)
            .unwrap_or(0);
        let id = cx.unique_id(format!("claude-code:{}:{}", place.kind, path));
        cx.out.instructions.push(Instruction {
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
            paths: None,
            resolution: None,
            content: String::new(),
        });
        return;
    }
    if let Some(ex) = settings.excluded_by(path) {
        let (raw, layer) = (ex.raw.clone(), ex.layer.clone());
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InstructionExcluded,
                format!(
                    "`{path}` is excluded by the `claudeMdExcludes` pattern `{raw}` in `{}`.",
                    layer.path
                ),
            )
            .at(source.clone()),
        );
        place.applicability = Applicability::Excluded;
        place.reason = format!("excluded by claudeMdExcludes `{raw}` in `{}`", layer.path);
        let Some(text) = cx.read(path, format) else {
            return;
        };
        let id = cx.unique_id(format!("claude-code:{}:{}", place.kind, path));
        let lines = text.line_count().max(1);
        cx.out.instructions.push(Instruction {
            id,
            kind: place.kind.to_string(),
            source: source.with_lines(1, lines),
            load_phase: place.load_phase,
            applicability: Applicability::Excluded,
            reason: place.reason,
            order: None,
            applies_to: place.applies_to,
            imported_from: None,
            bytes: text.bytes,
            paths: None,
            resolution: Some(Resolution {
                strategy: "excluded".into(),
                sources: vec![layer.path],
            }),
            content: text.text.clone(),
        });
        return;
    }
    let Some(text) = cx.read(path, format) else {
        return;
    };
    let mut stack = vec![cx.repo_real(path)];
    expand(cx, path, &text, 0, &place, None, source, &mut stack, None);
}

impl Compiler<'_, '_> {
    /// The real path of `p` (itself when not a link).
    pub(crate) fn repo_real(&self, p: &RepoPath) -> RepoPath {
        match self.repo.resolve(p) {
            Resolved::Inside { real, .. } => real,
            _ => p.clone(),
        }
    }
}

/// Splits `text` (the file `path`, starting at byte `body_start`) at its
/// expandable imports and pushes the pieces, recursing into imported files
/// up to [`MAX_IMPORT_HOPS`].
#[allow(clippy::too_many_arguments)]
fn expand(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    text: &playbookdiff_source::TextFile,
    body_start: usize,
    place: &Placement,
    imported_from: Option<&str>,
    source: SourceRef,
    stack: &mut Vec<RepoPath>,
    paths: Option<Vec<String>>,
) {
    let body = &text.text[body_start..];
    let depth = stack.len() - 1;
    let dir = path.parent().unwrap_or_else(RepoPath::root);
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let mut imports: Vec<(usize, RepoPath, Placement)> = Vec::new(); // (piece index before it, file, placement)
    let mut cursor = 0usize;
    for tok in text.import_tokens(body_start).iter() {
        let abs_start = body_start + tok.start;
        let line = text.line_of(abs_start);
        let at = source.clone().with_lines(line, line);
        let Some(target) = resolve_import(cx, &dir, &tok.raw, &at) else {
            lookalike(cx, &dir, &tok.raw, &tok.rest_of_line, &at);
            continue;
        };
        let real = cx.repo_real(&target);
        if depth + 1 > MAX_IMPORT_HOPS {
            cx.diag(
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
        if stack.contains(&real) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ImportCycle,
                    format!(
                        "`@{}` imports `{real}`, which is already being imported on this chain; the analysis stops \
                         here (a safety behaviour: Claude Code's own handling of cycles is undocumented).",
                        tok.raw
                    ),
                )
                .at(at),
            );
            continue;
        }
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
        } else {
            child.reason = format!("imported by `@{}` in `{path}`", tok.raw);
        }
        pieces.push((cursor, tok.start));
        imports.push((pieces.len(), target, child));
        cursor = tok.end;
    }
    pieces.push((cursor, body.len()));

    let id_base = format!("claude-code:{}:{}", place.kind, path);
    // An imported file's pieces name the top-level file they were reached
    // from: `claude-code:import:AGENTS.md<CLAUDE.md#1`.
    let id_base = match imported_from {
        Some(parent) => {
            let from = parent.split(':').nth(2).unwrap_or(parent);
            let from = from.split(['#', '<']).next().unwrap_or(from);
            format!("{id_base}<{from}")
        }
        None => id_base,
    };
    let mut import_iter = imports.into_iter().peekable();
    let mut emitted_any = false;
    let mut first_piece_id: Option<String> = None;
    for (idx, (s, e)) in pieces.iter().enumerate() {
        // Imports that come before piece idx.
        while let Some((before, _, _)) = import_iter.peek() {
            if *before > idx {
                break;
            }
            let (_, target, child) = import_iter.next().expect("peeked");
            let parent_id = first_piece_id.clone().unwrap_or_else(|| id_base.clone());
            import_file(cx, &target, &child, &parent_id, stack);
        }
        let piece = &body[*s..*e];
        let last = idx + 1 == pieces.len();
        if piece.trim().is_empty() && (emitted_any || !last) {
            continue;
        }
        let (ls, le) = text.lines_of(body_start + s, body_start + e);
        let id = cx.unique_id(format!("{id_base}#{}", idx + 1));
        if first_piece_id.is_none() {
            first_piece_id = Some(id.clone());
        }
        emitted_any = true;
        cx.out.instructions.push(Instruction {
            id,
            kind: place.kind.to_string(),
            source: source.clone().with_lines(ls, le),
            load_phase: place.load_phase,
            applicability: place.applicability,
            reason: place.reason.clone(),
            order: None,
            applies_to: place.applies_to.clone(),
            imported_from: imported_from.map(str::to_string),
            bytes: piece.len() as u64,
            paths: paths.clone(),
            resolution: None,
            content: piece.to_string(),
        });
    }
    for (_, target, child) in import_iter {
        let parent_id = first_piece_id.clone().unwrap_or_else(|| id_base.clone());
        import_file(cx, &target, &child, &parent_id, stack);
    }
}

fn import_file(
    cx: &mut Compiler<'_, '_>,
    target: &RepoPath,
    place: &Placement,
    parent_id: &str,
    stack: &mut Vec<RepoPath>,
) {
    let format = SourceFormat::Markdown;
    let Some(text) = cx.read(target, format) else {
        return;
    };
    let source = cx.source_ref(target, place.scope, format);
    stack.push(cx.repo_real(target));
    expand(
        cx,
        target,
        &text,
        0,
        place,
        Some(parent_id),
        source,
        stack,
        None,
    );
    stack.pop();
}

/// Resolves an `@token` to a repository file, reporting imports that leave
/// the repository. `None` when it is not an import of a repository file.
fn resolve_import(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    raw: &str,
    at: &SourceRef,
) -> Option<RepoPath> {
    let outside = |cx: &mut Compiler<'_, '_>, why: &str| {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportOutsideRepository,
                format!("`@{raw}` {why}; repo mode does not follow it, so its content is unknown."),
            )
            .at(at.clone()),
        );
    };
    if raw.starts_with("~/") || raw == "~" {
        outside(cx, "resolves in the user's home directory");
        return None;
    }
    let candidate = if let Some(abs) = raw.strip_prefix('/') {
        let root = cx
            .repo
            .tree()
            .absolute_root()
            .map(|p| p.to_string_lossy().trim_start_matches('/').to_string());
        match root.and_then(|r| {
            abs.strip_prefix(&r)
                .map(|s| s.trim_start_matches('/').to_string())
        }) {
            Some(rel) => RepoPath::new(&rel),
            None => {
                if looks_like_path(raw) {
                    outside(cx, "is an absolute path outside the repository");
                }
                return None;
            }
        }
    } else {
        match dir.join(raw) {
            Some(p) => Some(p),
            None => {
                outside(cx, "climbs above the repository root");
                return None;
            }
        }
    }?;
    match cx.repo.resolve(&candidate) {
        Resolved::Inside {
            kind: EntryKind::File,
            ..
        } => Some(candidate),
        Resolved::Outside { .. } => {
            outside(
                cx,
                "goes through a symbolic link that leaves the repository",
            );
            None
        }
        // A link loop or a dangling link is reported as such, not as a
        // missing file.
        Resolved::Loop { .. } | Resolved::Dangling { .. } => {
            cx.check_link(&candidate, SourceFormat::Markdown);
            None
        }
        _ => None,
    }
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

/// Reports an unresolved `@token`: a look-alike when trailing punctuation
/// or a space hides an existing file; a missing import when it reads like
/// a path. Source: field reports 3 and 4.
fn lookalike(cx: &mut Compiler<'_, '_>, dir: &RepoPath, raw: &str, rest: &str, at: &SourceRef) {
    let trimmed = raw.trim_end_matches(|c: char| ",.;:!?)]}'\"`*_".contains(c));
    if trimmed != raw && !trimmed.is_empty() {
        if let Some(p) = dir.join(trimmed) {
            if cx.repo.is_file(&p) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ImportLookalike,
                        format!(
                            "`@{raw}` is not imported: the trailing `{}` makes it a different path. Put a space after \
                             `@{trimmed}` to import `{p}`.",
                            &raw[trimmed.len()..]
                        ),
                    )
                    .at(at.clone()),
                );
                return;
            }
        }
    }
    let mut joined = raw.to_string();
    for word in rest.split_whitespace().take(6) {
        joined.push(' ');
        joined.push_str(word);
        for cand in [
            joined.as_str(),
            joined.trim_end_matches(|c: char| ",.;:!?)".contains(c)),
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
    if looks_like_path(raw) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportMissing,
                format!("`@{raw}` names no file (resolved from `{dir}`); the text stays literal in the context."),
            )
            .at(at.clone()),
        );
    }
}

/// The rules of `dir/.claude/rules`, recursively, ordered by path.
fn rules_root(cx: &mut Compiler<'_, '_>, settings: &Settings, dir: &RepoPath, _phase: LoadPhase) {
    let Some(root) = dir.join(".claude/rules") else {
        return;
    };
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
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::RuleSymlinkConflict,
                            format!(
                                "`{p}` is a symbolic link: the documentation says rule links are followed, users report \
                                 them skipped (claude-code #90523); the analysis follows the documentation."
                            ),
                        )
                        .at(SourceRef::project(p.clone(), SourceFormat::Markdown)),
                    );
                    match cx.repo.resolve(&p) {
                        Resolved::Inside { kind, .. } => kind,
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
                _ => {}
            }
        }
    }
    files.sort();
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
    for f in files {
        rule_file(cx, settings, dir, &f);
    }
}

fn rule_file(cx: &mut Compiler<'_, '_>, settings: &Settings, owner: &RepoPath, path: &RepoPath) {
    let format = SourceFormat::Markdown;
    let Some(text) = cx.read(path, format) else {
        return;
    };
    let source = cx.source_ref(path, SourceScope::Project, format);
    let mut body_start = 0usize;
    let mut patterns: Option<Vec<String>> = None;
    if let Some(fm) = text.front_matter() {
        body_start = fm.body_offset;
        match &fm.value {
            Ok(v) => {
                if let Some(pv) = v.get("paths") {
                    match split_paths(pv) {
                        Some(p) if !p.is_empty() => patterns = Some(p),
                        Some(_) => {}
                        None => cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::InvalidValue,
                                format!("`paths` in `{path}` is neither a string nor a list of strings; the rule loads unconditionally."),
                            )
                            .at(source.clone().with_lines(fm.start_line, fm.end_line)),
                        ),
                    }
                } else if v.get("globs").is_some() {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::RuleGlobsNotPaths,
                            format!(
                                "`{path}` scopes itself with `globs:`, which Claude Code does not read; it loads \
                                 unconditionally. Rename the key to `paths:`."
                            ),
                        )
                        .at(source.clone().with_lines(fm.start_line, fm.end_line)),
                    );
                }
            }
            Err((msg, line)) => {
                let l = line.unwrap_or(fm.start_line);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!(
                            "The front matter of `{path}` is not valid YAML ({msg}); Claude Code was observed to load \
                             such a rule unconditionally (claude-code #19014), and so does the analysis."
                        ),
                    )
                    .at(source.clone().with_lines(l, l)),
                );
            }
        }
    }
    let mut place = Placement {
        kind: "rule",
        scope: SourceScope::Project,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: format!("unconditional rule in `{owner}/.claude/rules`, loaded at startup"),
        applies_to: owner.clone(),
    };
    if let Some(pats) = &patterns {
        place.load_phase = LoadPhase::OnDemand;
        let compiled: Vec<PathPattern> = pats.iter().map(|p| PathPattern::new(p)).collect();
        for p in &compiled {
            if let Some(err) = &p.error {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidGlob,
                        format!("The pattern `{}` in `{path}` is invalid ({err}) and matches nothing; escape `[` as `\\[`.", p.raw),
                    )
                    .at(source.clone()),
                );
            }
        }
        match cx.ctx.target_path.clone() {
            Some(t) => match compiled.iter().find(|p| p.is_match(t.as_str())) {
                Some(m) => {
                    place.reason =
                        format!("path-scoped rule; the target `{t}` matches `{}`", m.raw);
                    if m.is_root_level() {
                        anchor_note(cx, path, &m.raw, &source);
                    }
                }
                None => {
                    place.applicability = Applicability::Conditional;
                    place.reason =
                        format!("path-scoped rule; the target `{t}` matches none of its patterns");
                    if let Some(p) = compiled.iter().find(|p| {
                        p.is_root_level()
                            && t.file_name().is_some_and(|n| p.is_match(n))
                            && t.depth() > 1
                    }) {
                        let raw = p.raw.clone();
                        anchor_note(cx, path, &raw, &source);
                    }
                }
            },
            None => {
                place.applicability = Applicability::Conditional;
                place.reason =
                    "path-scoped rule; loads when a matching file is read, and no target was given"
                        .into();
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::PathScopedConditional,
                        format!(
                            "`{path}` applies only to paths matching {}; give --target to decide it.",
                            pats.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
                        ),
                    )
                    .at(source.clone()),
                );
            }
        }
    }
    if let Some(ex) = settings.excluded_by(path) {
        let (raw, layer) = (ex.raw.clone(), ex.layer.path.clone());
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InstructionExcluded,
                format!("The rule `{path}` is excluded by the `claudeMdExcludes` pattern `{raw}` in `{layer}`."),
            )
            .at(source.clone()),
        );
        place.applicability = Applicability::Excluded;
        place.reason = format!("excluded by claudeMdExcludes `{raw}` in `{layer}`");
    }
    let mut stack = vec![cx.repo_real(path)];
    expand(
        cx, path, &text, body_start, &place, None, source, &mut stack, patterns,
    );
}

fn anchor_note(cx: &mut Compiler<'_, '_>, path: &RepoPath, raw: &str, source: &SourceRef) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::RulePatternAnchorConflict,
            format!(
                "`{raw}` in `{path}` has no `/`: the documentation anchors it at the repository root, a report says it \
                 matches at any depth (claude-code #95526); the analysis follows the documentation."
            ),
        )
        .at(source.clone()),
    );
}

/// `.claude/rules` roots below the launch directory: detected, not read.
fn nested_rules_roots(cx: &mut Compiler<'_, '_>, cwd: &RepoPath) {
    let roots: Vec<RepoPath> = cx
        .repo
        .files_named("rules")
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.file_name() == Some(".claude")))
        .cloned()
        .collect();
    let td = cx.target_dir();
    for root in roots {
        let Some(owner) = root.parent().and_then(|d| d.parent()) else {
            continue;
        };
        if !strictly_below(&owner, cwd) || !outside_dot_claude(&owner) || !cx.repo.is_dir(&root) {
            continue;
        }
        let reached = td.as_ref().is_some_and(|t| t.starts_with(&owner));
        let d = Diagnostic::new(
            DiagnosticCode::NestedRulesRootUnresolved,
            format!(
                "`{root}` is a rules root below the launch directory; Claude Code loads such rules on demand, but their \
                 traversal, order and glob anchor are undocumented, so they are not read{}.",
                if reached { " (the target reaches it)" } else { "" }
            ),
        )
        .at(SourceRef::project(root.clone(), SourceFormat::Markdown));
        cx.diag(if reached {
            d
        } else {
            d.with_severity(Severity::Info)
        });
    }
}

/// AGENTS.md files Claude Code never receives: not imported by any listed
/// instruction and not the target of a CLAUDE.md link. Source: field
/// report 11; harness facts A5.
fn agents_md_bridges(cx: &mut Compiler<'_, '_>) {
    let reached: HashSet<RepoPath> = cx
        .out
        .instructions
        .iter()
        .map(|i| {
            i.source
                .resolved_path
                .clone()
                .unwrap_or_else(|| i.source.path.clone())
        })
        .collect();
    for agents in cx.repo.files_named("AGENTS.md").to_vec() {
        let Some(dir) = agents.parent() else { continue };
        if !outside_dot_claude(&dir) || !cx.repo.is_file(&agents) {
            continue;
        }
        let real = cx.repo_real(&agents);
        if reached.contains(&real) {
            continue;
        }
        let claude = dir.join("CLAUDE.md").unwrap_or_else(RepoPath::root);
        let has_claude = cx.repo.kind(&claude).is_some();
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::AgentsMdNotBridged,
                format!(
                    "Claude Code does not read `{agents}`: {} Add a line `@AGENTS.md` to `{claude}`, or make `{claude}` a \
                     symbolic link to `AGENTS.md`.",
                    if has_claude {
                        format!("`{claude}` exists but neither imports it nor links to it.")
                    } else {
                        "there is no CLAUDE.md beside it.".to_string()
                    }
                ),
            )
            .at(SourceRef::project(agents.clone(), SourceFormat::Markdown)),
        );
    }
}

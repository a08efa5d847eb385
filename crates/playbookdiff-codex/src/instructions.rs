//! The project instruction chain (spec 004 "Project instructions"; harness
//! facts B1; field reports 12, 13, 14).
//!
//! From the repository root down to cwd inclusive, each directory gives at
//! most one non-empty file, tried in the order `AGENTS.override.md`,
//! `AGENTS.md`, then each `project_doc_fallback_filenames` entry. Selected
//! files are received root first. The chain never extends below cwd,
//! whatever targetPath is: `AGENTS.md` and `AGENTS.override.md` files below
//! cwd, or in a directory on the way to targetPath, are listed
//! `out-of-scope`; those of other directories (siblings) are not listed.
//! The byte budget (`project_doc_max_bytes`) is applied as Codex applies
//! it: a file that crosses it is cut, later files dropped. A file over the
//! read limit ([`READ_LIMIT`]) is read only as far as the budget reaches
//! (Codex reads no further either), so what Codex sends of it is known.

use crate::config::{read_error, Settings};
use crate::{not_a_file, place, strictly_below, target_only_dirs, Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::remedy::grouped;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase, RepoPath,
    Resolution, ResolutionStrategy, Severity, SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Resolved, SourceError, TextFile};
use std::sync::Arc;

const OVERRIDE: &str = "AGENTS.override.md";
const DEFAULT: &str = "AGENTS.md";

/// One existing candidate file of a directory's slot.
struct Candidate {
    name: String,
    path: RepoPath,
    resolved: Option<RepoPath>,
    state: State,
}

enum State {
    /// Read; empty when only white space.
    Read(Arc<TextFile>),
    /// The first bytes of a file larger than the read limit, as far as
    /// `project_doc_max_bytes` reaches (Codex reads no further), and the
    /// file's size in bytes.
    Start { text: Arc<TextFile>, len: u64 },
    /// Larger than the read limit and not read: content unknown, size
    /// known.
    TooLarge(u64),
    /// A link out of the repository: Codex reads it, repo mode does not.
    Outside,
}

impl Candidate {
    fn is_empty(&self) -> bool {
        matches!(&self.state, State::Read(t) | State::Start { text: t, .. } if t.text.trim().is_empty())
    }

    fn bytes(&self) -> u64 {
        match &self.state {
            State::Read(t) => t.bytes,
            State::Start { len, .. } | State::TooLarge(len) => *len,
            State::Outside => 0,
        }
    }

    fn instruction(
        &self,
        dir: &RepoPath,
        applicability: Applicability,
        reason: String,
    ) -> Instruction {
        let (content, lines) = match &self.state {
            State::Read(t) | State::Start { text: t, .. } => {
                (t.text.clone(), (t.line_count() > 0).then(|| t.line_count()))
            }
            _ => (String::new(), None),
        };
        let mut source = SourceRef::project(self.path.clone(), SourceFormat::Markdown);
        if let Some(n) = lines {
            source = source.with_lines(1, n);
        }
        source.resolved_path = self.resolved.clone();
        Instruction {
            id: format!("codex:agents-md:{}", self.path),
            kind: InstructionKind::AgentsMd,
            source,
            load_phase: LoadPhase::Startup,
            applicability,
            reason,
            order: None,
            applies_to: dir.clone(),
            imported_from: None,
            bytes: self.bytes(),
            truncated_at_byte: None,
            paths: None,
            resolution: None,
            import_spans: Vec::new(),
            content,
        }
    }
}

/// Compiles the chain for `chain` (root first, ending at cwd).
///
/// Shape: effective entries by `order` (0 = repository root), then the
/// other chain entries (shadowed, excluded because empty, unavailable) in
/// chain order, then out-of-scope files by path.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    chain: &[RepoPath],
    settings: &Settings,
) -> Vec<Instruction> {
    let mut names: Vec<String> = vec![OVERRIDE.to_string(), DEFAULT.to_string()];
    for n in &settings.fallback_filenames {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    let tried = names.join(", ");
    let cwd = cx.context.cwd.clone();

    let mut effective: Vec<Instruction> = Vec::new();
    let mut others: Vec<Instruction> = Vec::new();
    for dir in chain {
        let cands = candidates(cx, dir, &names, Some(settings.max_bytes));
        // `agents_md_paths`: the first name present as a file is this
        // directory's; `read_agents_md` then drops it when blank, so a blank
        // first file leaves the directory with nothing (X7).
        let Some(first) = cands.first() else {
            continue;
        };
        let first_path = first.path.clone();
        let here = place(dir);
        for (i, c) in cands.iter().enumerate() {
            if i > 0 {
                let why = if first.is_empty() {
                    format!("{first_path} is taken for {here} (the first of {tried} present there) and, being blank, dropped, so Codex loads nothing from {here}; this file is never read.")
                } else {
                    format!("{first_path} wins the slot of {here}: Codex loads at most one file per directory, the first of {tried} present.")
                };
                if i == 1 && first.name == OVERRIDE && !first.is_empty() && !c.is_empty() {
                    override_shadows(cx, first, c, &here);
                }
                let mut inst = c.instruction(dir, Applicability::Shadowed, why);
                inst.resolution = Some(Resolution {
                    strategy: ResolutionStrategy::Shadowed,
                    sources: vec![first_path.clone()],
                });
                others.push(inst);
                continue;
            }
            let losers: Vec<RepoPath> = cands[1..].iter().map(|c| c.path.clone()).collect();
            if c.is_empty() {
                let mut inst = c.instruction(
                    dir,
                    Applicability::Excluded,
                    format!("Empty (white space only): Codex takes this file for {here}, the first of {tried} present there, and drops it because it is blank, so {here} contributes nothing."),
                );
                inst.resolution = Some(Resolution {
                    strategy: ResolutionStrategy::Excluded,
                    sources: losers.clone(),
                });
                if let Some(next) = cands[1..].iter().find(|c| !c.is_empty()) {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::EmptyInstructionPrecedence,
                            format!("{} is empty and comes before {} in {q_here}: Codex takes the first file present, drops it because it is blank, and so loads nothing from {q_here}; delete the empty file.", problems::quote(&c.path), problems::quote(&next.path), q_here = problems::quote(&here)),
                        )
                        .at(SourceRef::project(c.path.clone(), SourceFormat::Markdown)),
                    );
                }
                others.push(inst);
                continue;
            }
            let scope_note = if c.name == OVERRIDE {
                "; AGENTS.override.md replaces the other files of this directory only, and instructions selected in parent directories still load"
            } else {
                ""
            };
            let (applicability, reason) = match c.state {
                State::Outside => (
                    Applicability::Unavailable,
                    format!("Codex takes this file for {here} (the first of {tried} present there), but it is a symbolic link out of the repository, which repo mode does not read{scope_note}."),
                ),
                _ => (
                    Applicability::Effective,
                    format!("Loaded at startup: the first of {tried} present in {here}, on the chain from the repository root down to cwd {cwd}{scope_note}."),
                ),
            };
            let mut inst = c.instruction(dir, applicability, reason);
            if !losers.is_empty() {
                inst.resolution = Some(Resolution {
                    strategy: ResolutionStrategy::Override,
                    sources: losers,
                });
            }
            if applicability == Applicability::Effective {
                inst.order = Some(effective.len() as u32);
                effective.push(inst);
            } else {
                others.push(inst);
            }
        }
    }

    let dropped = budget(cx, settings, &mut effective);
    effective.extend(dropped);

    let mut out_of_scope = out_of_scope(cx, &cwd);
    out_of_scope.sort_by(|a, b| a.source.path.cmp(&b.source.path));
    effective.extend(others);
    effective.extend(out_of_scope);
    effective
}

/// Reports a non-empty file (`shadowed`, the first after the override)
/// that an `AGENTS.override.md` of its directory hides: Codex reads one
/// file per directory, the first of `AGENTS.override.md`, `AGENTS.md` and
/// the fallback names present (openai/codex `agents_md_paths`; oracle case
/// `codex.root_agents_override`, 0.142.3 and 0.171.0). The override is
/// meant as a personal file; committed, it silently replaces the shared
/// text for every Codex user. A warning in repo mode, which reads only
/// what the repository holds; information in local mode, which also reads
/// personal files, where an override is the user's own as Codex intends. The
/// diagnostic points at the shadowed file and its lines, so that it is
/// evidence of every finding about what Codex lacks from it.
fn override_shadows(cx: &mut Cx<'_, '_>, winner: &Candidate, shadowed: &Candidate, here: &str) {
    let lines = |c: &Candidate| match &c.state {
        State::Read(t) => Some(t.line_count()),
        State::Start { .. } => None,
        _ => None,
    };
    let size = |c: &Candidate| match lines(c) {
        Some(1) => " (1 line)".to_string(),
        // count >= 2: one line is the arm above.
        Some(n) => format!(" ({n} lines)"),
        None => format!(
            " ({})",
            playbookdiff_model::remedy::count(c.bytes() as usize, "byte", "bytes")
        ),
    };
    let (o, a) = (&winner.path, &shadowed.path);
    let local = cx.context.mode == playbookdiff_model::Mode::Local;
    let mut at = SourceRef::project(a.clone(), SourceFormat::Markdown);
    if let Some(n) = lines(shadowed).filter(|n| *n > 0) {
        at = at.with_lines(1, n);
    }
    let mut d = Diagnostic::new(
        DiagnosticCode::InstructionShadowed,
        format!(
            "Codex never receives `{a}`{}: `{o}`{} in {here} hides it, because Codex reads one instruction file per directory, the first of `{OVERRIDE}` and `{DEFAULT}` present{}. If the override holds what everyone needs, move its text into `{a}` and delete `{o}`; if it is personal, remove it from the repository and add it to `.gitignore`.",
            size(shadowed),
            size(winner),
            if local { " (local mode reads personal files too: a personal override is what Codex intends)" } else { "" },
        ),
    )
    .at(at);
    if local {
        d = d.with_severity(Severity::Info);
    }
    cx.diag(d);
}

/// The existing candidate files of `dir`, in trial order. Missing names,
/// directories, special files, dangling links and loops are not candidates
/// (Codex checks that each name is a file or a link); links out of the
/// repository are, unread. A directory or special file is reported
/// (`not-a-regular-file`).
///
/// `budget` is `project_doc_max_bytes` for a directory of the chain Codex
/// reads, `None` for one it never reads. A file over the read limit is
/// read only as far as the budget (Codex's `read_agents_md` reads each file
/// through `take(remaining)`, so it never reads more either), so that what
/// Codex sends of it is known; when the budget is beyond the read limit
/// (or the file cannot be read in part), the file is a `file-too-large`
/// diagnostic saying what Codex sends is unknown; nothing is said when
/// Codex sends none of it (a budget of 0, a directory it never reads).
fn candidates(
    cx: &mut Cx<'_, '_>,
    dir: &RepoPath,
    names: &[String],
    budget: Option<u64>,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for name in names {
        let Some(path) = dir.join(name) else { continue };
        let r = cx.resolve(&path);
        match r {
            Resolved::Missing
            | Resolved::Inside {
                kind: EntryKind::Symlink,
                ..
            } => {}
            Resolved::Inside {
                kind: kind @ (EntryKind::Dir | EntryKind::Other),
                via_link,
                ..
            } => report_not_a_file(cx, &path, dir, kind, via_link),
            Resolved::Inside { real, via_link, .. } => {
                let resolved = via_link.then_some(real);
                match cx.repo.read_text(&path, READ_LIMIT) {
                    Ok(t) => {
                        if t.invalid_utf8 {
                            invalid_utf8(cx, &path, &t);
                        }
                        out.push(Candidate {
                            name: name.clone(),
                            path,
                            resolved,
                            state: State::Read(t),
                        });
                    }
                    Err(SourceError::TooLarge { len, limit, .. }) => {
                        let state = too_large(cx, &path, len, limit, budget);
                        out.push(Candidate {
                            name: name.clone(),
                            path,
                            resolved,
                            state,
                        });
                    }
                    Err(e) => read_error(cx, &path, e, SourceFormat::Markdown),
                }
            }
            Resolved::Outside { .. } => {
                cx.link_problem(
                    &r,
                    &format!("The instruction file {}", problems::quote(&path)),
                    "",
                    SourceFormat::Markdown,
                );
                out.push(Candidate {
                    name: name.clone(),
                    path,
                    resolved: None,
                    state: State::Outside,
                });
            }
            other => {
                let effect = if matches!(other, Resolved::Loop { .. }) {
                    "the Codex source stops loading every project instruction file on this error"
                } else {
                    "Codex does not load it and tries the next name in this directory"
                };
                cx.link_problem(
                    &other,
                    &format!("The instruction file {}", problems::quote(&path)),
                    effect,
                    SourceFormat::Markdown,
                );
            }
        }
    }
    out
}

/// Reports instruction file `path`, read as `t`, as not valid UTF-8, at
/// the line of its first invalid byte.
fn invalid_utf8(cx: &mut Cx<'_, '_>, path: &RepoPath, t: &TextFile) {
    let line = t.invalid_utf8_line();
    let mut src = SourceRef::project(path.clone(), SourceFormat::Markdown);
    if let Some(n) = line {
        src = src.with_lines(n, n);
    }
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InvalidUtf8,
            format!("{q_path}{at} is not valid UTF-8; Codex warns and reads it with replacement characters, as shown here; save it as UTF-8.", q_path = problems::quote(path), at = line.map(|n| format!(" (line {n})")).unwrap_or_default()),
        )
        .at(src),
    );
}

/// The state of candidate `path`, `len` bytes, over the read limit `limit`
/// (see [`candidates`] for `budget`): its first `budget` bytes when the
/// budget is within the read limit and they can be read, else unread (and
/// reported when Codex sends some of it).
fn too_large(
    cx: &mut Cx<'_, '_>,
    path: &RepoPath,
    len: u64,
    limit: u64,
    budget: Option<u64>,
) -> State {
    let Some(budget) = budget.filter(|b| *b > 0) else {
        return State::TooLarge(len);
    };
    if budget <= limit {
        if let Ok((bytes, len)) = cx.repo.read_prefix(path, budget) {
            let text = Arc::new(TextFile::from_bytes(&bytes));
            // The cut may split a UTF-8 character (Codex sends it as
            // U+FFFD); only an invalid byte before the end is the file's.
            if std::str::from_utf8(&bytes).is_err_and(|e| e.error_len().is_some()) {
                invalid_utf8(cx, path, &text);
            }
            return State::Start { text, len };
        }
    }
    cx.diag(problems::read_error(
        path,
        &SourceError::TooLarge {
            path: path.clone(),
            len,
            limit,
        },
        &format!(
            "the analysis does not read what Codex sends of it (up to project_doc_max_bytes = {budget} bytes), which is unknown"
        ),
        SourceFormat::Markdown,
    ));
    State::TooLarge(len)
}

/// Reports an instruction file name held by a directory or a special file
/// (`not-a-regular-file`). Codex skips such an entry and tries the next
/// name; reached through a link, the Codex source opens it, fails to read
/// it and loads no project instruction file at all. The message does not
/// depend on cwd.
fn report_not_a_file(
    cx: &mut Cx<'_, '_>,
    path: &RepoPath,
    dir: &RepoPath,
    kind: EntryKind,
    via_link: bool,
) {
    // Seen with 0.142.3 and 0.171.0: a link to a directory is skipped like
    // a directory, and the next name of the directory loads (X31).
    let _ = via_link;
    let effect = format!(
        "Codex never loads it as instructions and tries the next name in {}",
        place(dir)
    );
    not_a_file(
        cx,
        path,
        kind,
        via_link,
        &effect,
        SourceFormat::Markdown,
        Severity::Warning,
    );
}

/// `project_doc_max_bytes` (X8; openai/codex `codex-rs/core/src/project_doc.rs`,
/// `read_agents_md`; seen with `codex debug prompt-input`): one budget
/// over the chain, root first. A file that fits is sent whole; the file
/// that crosses the budget is cut at that byte (`truncatedAtByte`, its
/// `content` holding exactly the bytes sent, a split UTF-8 character as
/// U+FFFD); every later file is dropped (`excluded`, returned to be listed
/// after the effective ones). The separators between files are not
/// counted. `0` loads no project file. One diagnostic names the cut file,
/// the byte and the dropped files.
fn budget(
    cx: &mut Cx<'_, '_>,
    settings: &Settings,
    effective: &mut Vec<Instruction>,
) -> Vec<Instruction> {
    let limit = settings.max_bytes;
    let total: u64 = effective.iter().map(|i| i.bytes).sum();
    if total <= limit {
        return Vec::new();
    }
    let set_by = match &settings.max_bytes_source {
        Some(s) => format!("set in {}", problems::quote(&s.path)),
        None => "the default".to_string(),
    };
    let mut remaining = limit;
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    let mut cut: Option<(String, u64, u64)> = None;
    for mut inst in effective.drain(..) {
        if remaining == 0 {
            inst.applicability = Applicability::Excluded;
            inst.order = None;
            inst.reason.push_str(&format!(" Dropped: the files before it use up project_doc_max_bytes = {limit} ({set_by}), so Codex sends none of it."));
            dropped.push(inst);
            continue;
        }
        if inst.bytes > remaining {
            let n = remaining as usize;
            let bytes = inst.content.as_bytes();
            let sent = String::from_utf8_lossy(&bytes[..n.min(bytes.len())]).into_owned();
            cut = Some((inst.source.path.to_string(), remaining, inst.bytes));
            inst.reason.push_str(&format!(
                " Cut: project_doc_max_bytes = {limit} ({set_by}) leaves {} of its {} bytes, so Codex sends only those.",
                grouped(remaining),
                grouped(inst.bytes)
            ));
            inst.truncated_at_byte = Some(remaining);
            inst.content = sent;
            remaining = 0;
        } else {
            remaining -= inst.bytes;
        }
        inst.order = Some(kept.len() as u32);
        kept.push(inst);
    }
    *effective = kept;
    let names: Vec<String> = dropped
        .iter()
        .map(|i| problems::quote(&i.source.path))
        .collect();
    let cut_words = match &cut {
        Some((p, at, of)) => format!(
            "{} is cut after byte {} of {}",
            problems::quote(p),
            grouped(*at),
            grouped(*of)
        ),
        None => "no file is cut".to_string(),
    };
    let drop_words = if names.is_empty() {
        "no file is dropped".to_string()
    } else {
        // "no file is cut and dropped: `x`" read as if nothing were
        // dropped: the dropped files are the subject of their clause.
        let verb = if names.len() == 1 { "is" } else { "are" };
        format!("{} {verb} dropped", names.join(", "))
    };
    let zero = if limit == 0 {
        " With 0, Codex loads no project instruction file."
    } else {
        ""
    };
    let msg = format!(
        "The `AGENTS.md` chain for cwd {} is {} bytes, over project_doc_max_bytes = {limit} ({set_by}): Codex fills the budget root first, so {cut_words} and {drop_words}.{zero} Shorten the files or raise project_doc_max_bytes.",
        problems::quote(&cx.context.cwd),
        grouped(total),
    );
    let source = settings.max_bytes_source.clone().or_else(|| {
        cut.as_ref()
            .and_then(|(p, _, _)| RepoPath::new(p))
            .or_else(|| dropped.first().map(|i| i.source.path.clone()))
            .map(|p| SourceRef::project(p, SourceFormat::Markdown))
    });
    let mut d = Diagnostic::new(DiagnosticCode::InstructionBudgetExceeded, msg);
    d.source = source;
    cx.diag(d);
    dropped
}

/// `AGENTS.md` and `AGENTS.override.md` files below cwd and in the
/// directories on the way to targetPath (see [`target_only_dirs`]): listed
/// so the scope gap stays visible (field report 13: a nested file below
/// cwd is never loaded, whatever file is edited). Files in other
/// directories are not visited: the subtree below cwd is answered from the
/// sorted index, so the cost is that of what is listed. Read best effort;
/// an entry that is not a regular file is reported and not listed.
fn out_of_scope(cx: &mut Cx<'_, '_>, cwd: &RepoPath) -> Vec<Instruction> {
    let target = cx.context.target_path.clone();
    let target_dirs = target_only_dirs(cx.context);
    let mut found: Vec<(&str, RepoPath)> = Vec::new();
    for name in [DEFAULT, OVERRIDE] {
        for p in cx.repo.files_named_under(name, cwd) {
            if p.parent().as_ref() != Some(cwd) {
                found.push((name, p.clone()));
            }
        }
        for d in &target_dirs {
            if let Some(p) = d.join(name).filter(|p| cx.repo.kind(p).is_some()) {
                found.push((name, p));
            }
        }
    }
    let mut out = Vec::new();
    for (name, path) in found {
        let Some(dir) = path.parent() else { continue };
        let (state, resolved) = match cx.resolve(&path) {
            Resolved::Inside {
                real,
                kind: EntryKind::File,
                via_link,
            } => match cx.repo.read_text(&path, READ_LIMIT) {
                Ok(t) => (State::Read(t), via_link.then_some(real)),
                Err(SourceError::TooLarge { len, .. }) => {
                    (State::TooLarge(len), via_link.then_some(real))
                }
                Err(_) => (State::Outside, None),
            },
            Resolved::Inside { kind, via_link, .. } => {
                report_not_a_file(cx, &path, &dir, kind, via_link);
                continue;
            }
            _ => (State::Outside, None),
        };
        let reason = if strictly_below(&dir, cwd) {
            let target_note = match &target {
                Some(t) if t.starts_with(&dir) => {
                    format!(", even though targetPath {t} lies inside {dir}")
                }
                _ => String::new(),
            };
            format!("Below cwd {cwd}: Codex builds the instruction chain only from the repository root down to cwd, so this file is never loaded in this session, whatever file is edited{target_note} (openai/codex#13288).")
        } else {
            let t = target.as_ref().map(ToString::to_string).unwrap_or_default();
            format!("On the way to targetPath {t} but not on the path from the repository root to cwd {cwd}, so Codex never loads this file in this session, even when that file is edited.")
        };
        let c = Candidate {
            name: name.to_string(),
            path,
            resolved,
            state,
        };
        out.push(c.instruction(&dir, Applicability::OutOfScope, reason));
    }
    out
}

/// Instruction files of `dirs`, which lie above the nested project root
/// `root` (a directory holding `.git`): Codex starts its chain at `root`,
/// so they are listed `out-of-scope`.
pub(crate) fn above_project_root(
    cx: &mut Cx<'_, '_>,
    dirs: &[RepoPath],
    root: &RepoPath,
) -> Vec<Instruction> {
    let names = [OVERRIDE.to_string(), DEFAULT.to_string()];
    let mut out = Vec::new();
    for dir in dirs {
        for c in candidates(cx, dir, &names, None) {
            out.push(c.instruction(
                dir,
                Applicability::OutOfScope,
                format!("Above the project root {root}: {root} holds a .git entry, so Codex takes it as the project root and reads no instruction file above it."),
            ));
        }
    }
    out
}

//! Instructions: the project instruction files and the `instructions`
//! globs.
//!
//! OpenCode 1.18.33, `Instruction.systemPaths` and `Instruction.resolve` in
//! `packages/opencode/src/session/instruction.ts` (shipped code checked in
//! the release; seen in the request it sends, each file as `Instructions
//! from: <absolute path>` followed by its text):
//!
//! * For `AGENTS.md`, then `CLAUDE.md`, then `CONTEXT.md`: every directory
//!   from cwd up to the worktree where that name exists (`findUp`, any kind
//!   of entry). The first name found anywhere wins and all its files are
//!   taken, closest to cwd first; the other names are not read at all
//!   ("the first project-level match wins"). A directory named `AGENTS.md`
//!   therefore wins too, and reads as nothing.
//! * Then each relative `instructions` entry, globbed from cwd and from
//!   every parent up to the worktree (`globUp`), every match taken; `~/`
//!   and absolute entries are outside the repository (in local mode a
//!   `~/` entry without a wildcard is read from the user's home:
//!   [`crate::user::config_instruction`]); URLs are fetched at run time. A file already taken is not taken again. A leading `..`
//!   climbs from each directory tried: `../x.md` from cwd `a` takes `x.md`
//!   (seen with 1.18.33), and from the root names a file above the
//!   repository.
//! * A file whose text is empty is left out; white space alone counts as
//!   text.
//! * On demand: when the agent reads a file below cwd, the first of the
//!   three names in each directory from the file's directory up to (not
//!   including) cwd is attached, once per message (seen with `opencode
//!   debug agent build --tool read`).

use crate::profile::EmptyFiles;
use crate::{
    glob, place, strictly_below, target_only_dirs, user, Cx, Walk, INSTRUCTION_FILES, READ_LIMIT,
};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase, RepoPath,
    Resolution, ResolutionStrategy, SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Machine, Resolved, SourceError, TextFile};
use std::collections::HashSet;
use std::sync::Arc;

use crate::config::Merged;

/// The instruction kind of a file name.
fn kind_of(name: &str) -> InstructionKind {
    match name {
        "AGENTS.md" => InstructionKind::AgentsMd,
        "CLAUDE.md" => InstructionKind::Memory,
        _ => InstructionKind::ContextMd,
    }
}

/// What reading a file gave.
enum Read {
    Text(Arc<TextFile>),
    NotAFile(EntryKind),
    Outside,
    TooLarge(u64),
    Missing,
}

/// True when OpenCode reads `t` as empty text and so leaves the file out
/// (its `Instruction.system` keeps a file only when the text read is not
/// empty): the text is decoded as UTF-8 with a leading byte order mark
/// dropped, so a file holding only a BOM is empty, while one holding only
/// white space is not. Source: OpenCode 1.18.33 (`readFileString`, a
/// `TextDecoder` decode); random repository `fuzz.opencode.140`.
fn empty_as_read(t: &TextFile) -> bool {
    t.text
        .strip_prefix('\u{feff}')
        .unwrap_or(&t.text)
        .is_empty()
}

/// True when the release leaves the file of text `t` out of the request:
/// it is empty as read ([`empty_as_read`]) and the release leaves empty
/// files out ([`EmptyFiles::LeftOut`]).
fn left_out(empty: EmptyFiles, t: &TextFile) -> bool {
    empty == EmptyFiles::LeftOut && empty_as_read(t)
}

/// Reads instruction file `path`. When `report` (OpenCode can reach the
/// file from the launch directory, at startup or on demand), a file that
/// is not valid UTF-8 is an `invalid-utf8` diagnostic at the line of its
/// first invalid byte, and a read error an `unreadable` one.
fn read(cx: &mut Cx<'_, '_>, path: &RepoPath, report: bool) -> (Read, Option<RepoPath>) {
    let r = cx.repo.resolve(path);
    let resolved = match &r {
        Resolved::Inside { real, via_link, .. } if *via_link => Some(real.clone()),
        _ => None,
    };
    let state = match &r {
        Resolved::Inside {
            kind: EntryKind::File,
            ..
        } => match cx.repo.read_text(path, READ_LIMIT) {
            Ok(t) => {
                if report && t.invalid_utf8 {
                    cx.diag(problems::invalid_utf8(path, SourceFormat::Markdown, &t));
                }
                Read::Text(t)
            }
            Err(SourceError::TooLarge { len, .. }) => Read::TooLarge(len),
            Err(e) => {
                if report {
                    cx.diag(problems::read_error(
                        path,
                        &e,
                        "what OpenCode reads from it is unknown",
                        SourceFormat::Markdown,
                    ));
                }
                Read::Missing
            }
        },
        Resolved::Inside { kind, .. } => Read::NotAFile(*kind),
        Resolved::Outside { .. } => {
            cx.link_problem(
                &r,
                &format!("The instruction file {path}"),
                "OpenCode reads nothing from it",
            );
            Read::Outside
        }
        _ => Read::Missing,
    };
    (state, resolved)
}

/// Reports instruction file `path`, `len` bytes, over the read limit:
/// OpenCode reads instruction files whole, with no size limit, so it sends
/// it; the analysis does not read it (its entry is effective with an empty
/// `content` and `bytes` its size, compared by file only).
fn too_large(cx: &mut Cx<'_, '_>, path: &RepoPath, len: u64) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::FileTooLarge,
            format!(
                "{path} is {} bytes, over the {}-byte read limit; OpenCode would send it whole, but its text is not analysed.",
                playbookdiff_model::remedy::grouped(len),
                playbookdiff_model::remedy::grouped(READ_LIMIT)
            ),
        )
        .at(SourceRef::project(path.clone(), SourceFormat::Markdown)),
    );
}

/// An instruction file as found: its path, its kind (`AGENTS.md`,
/// `instructions`, …), the file a link led to (when one did), its text
/// when read, and the directory it applies to.
struct Found<'a> {
    path: &'a RepoPath,
    kind: InstructionKind,
    resolved: Option<RepoPath>,
    text: Option<&'a TextFile>,
    applies_to: RepoPath,
}

impl Found<'_> {
    /// The entry for this file, loaded at `phase` with `applicability`;
    /// `reason` says why.
    fn entry(self, phase: LoadPhase, applicability: Applicability, reason: String) -> Instruction {
        let Found {
            path,
            kind,
            resolved,
            text,
            applies_to,
        } = self;
        let mut source = SourceRef::project(path.clone(), SourceFormat::Markdown);
        if let Some(t) = text {
            if t.line_count() > 0 {
                source = source.with_lines(1, t.line_count());
            }
        }
        source.resolved_path = resolved;
        Instruction {
            id: format!("opencode:{kind}:{path}"),
            kind,
            source,
            load_phase: phase,
            applicability,
            reason,
            order: None,
            applies_to,
            imported_from: None,
            import_spans: Vec::new(),
            bytes: text.map(|t| t.bytes).unwrap_or(0),
            paths: None,
            resolution: None,
            truncated_at_byte: None,
            content: text.map(|t| t.text.clone()).unwrap_or_default(),
        }
    }
}

/// Compiles the instruction entries.
///
/// Shape: effective startup entries by `order` (instruction files closest
/// to cwd first, then `instructions` matches), effective on-demand entries
/// (closest to the target first), then the rest: shadowed, excluded,
/// unavailable, conditional and out-of-scope entries.
///
/// `machine` is the user's machine in local mode (`None` in repo mode);
/// `empty` is what the release does with an empty instruction file.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    merged: &Merged,
    machine: Option<&Machine>,
    empty: EmptyFiles,
) -> Vec<Instruction> {
    let chain = cx.up_chain();
    let cwd = cx.context.cwd.clone();
    let mut effective: Vec<Instruction> = Vec::new();
    let mut others: Vec<Instruction> = Vec::new();
    let mut taken: HashSet<RepoPath> = HashSet::new();

    // The winning name and its files, closest first.
    let mut winner: Option<(&str, Vec<RepoPath>)> = None;
    for name in INSTRUCTION_FILES {
        let found: Vec<RepoPath> = chain
            .iter()
            .filter_map(|d| d.join(name))
            .filter(|p| cx.exists(p))
            .collect();
        if !found.is_empty() {
            winner = Some((name, found));
            break;
        }
    }
    if let Some((name, files)) = &winner {
        let kind = kind_of(name);
        let earlier: Vec<&str> = INSTRUCTION_FILES
            .iter()
            .take_while(|n| *n != name)
            .copied()
            .collect();
        let why_name = if earlier.is_empty() {
            format!("OpenCode takes {name} from every directory from cwd {cwd} up to the repository root where it exists, closest first")
        } else {
            format!("no {} exists from cwd {cwd} up to the repository root, so OpenCode falls back to {name} and takes it from every directory on that path where it exists, closest first", earlier.join(" or "))
        };
        for path in files {
            let dir = path.parent().unwrap_or_else(RepoPath::root);
            let (state, resolved) = read(cx, path, true);
            match state {
                Read::Text(t) if left_out(empty, &t) => others.push(Found { path, kind, resolved, text: Some(&t), applies_to: dir }.entry(LoadPhase::Startup, Applicability::Excluded, format!("{why_name}; this file is empty, so OpenCode leaves it out (and still does not read the other names)."))),
                Read::Text(t) => {
                    taken.insert(path.clone());
                    effective.push(Found { path, kind, resolved, text: Some(&t), applies_to: dir.clone() }.entry(LoadPhase::Startup, Applicability::Effective, format!("Found in {}: {why_name}.", place(&dir))));
                }
                Read::NotAFile(k) => {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::NotARegularFile,
                            format!("{path} is {}, not a regular file, yet OpenCode counts it as found: it reads nothing from it and no longer falls back to the names after {name}; replace it with a regular file or rename it.", kind_phrase(k)),
                        )
                        .at(SourceRef::project(path.clone(), SourceFormat::Markdown)),
                    );
                    others.push(Found { path, kind, resolved, text: None, applies_to: dir }.entry(LoadPhase::Startup, Applicability::Excluded, format!("{why_name}; this entry is not a regular file, so nothing is read from it.")));
                }
                Read::Outside => others.push(Found { path, kind, resolved, text: None, applies_to: dir }.entry(LoadPhase::Startup, Applicability::Unavailable, format!("{why_name}; this file is a symbolic link out of the repository, which the analysis does not read."))),
                Read::TooLarge(len) => {
                    too_large(cx, path, len);
                    // OpenCode reads it whole (it has no size limit): it
                    // is received at startup, only its text is unknown
                    // here (empty `content`, `bytes` its size).
                    taken.insert(path.clone());
                    let mut e = Found { path, kind, resolved, text: None, applies_to: dir.clone() }.entry(LoadPhase::Startup, Applicability::Effective, format!("Found in {}: {why_name}. Its text is not analysed: the file is over the {READ_LIMIT}-byte read limit.", place(&dir)));
                    e.bytes = len;
                    effective.push(e);
                }
                Read::Missing => {}
            }
        }
        // The names OpenCode does not read because an earlier one won.
        for other in INSTRUCTION_FILES.iter().filter(|n| *n != name) {
            for d in &chain {
                let Some(p) = d.join(other) else { continue };
                if !cx.repo.is_file(&p) {
                    continue;
                }
                let (state, resolved) = read(cx, &p, false);
                let t = match &state {
                    Read::Text(t) => Some(t.clone()),
                    _ => None,
                };
                let mut e = Found { path: &p, kind: kind_of(other), resolved, text: t.as_deref(), applies_to: d.clone() }.entry(LoadPhase::Startup, Applicability::Shadowed, format!("OpenCode reads only the first of AGENTS.md, CLAUDE.md, CONTEXT.md that exists from cwd {cwd} up to the repository root, and {name} exists there ({}), so {other} is not read in any directory.", files.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(", ")));
                e.resolution = Some(Resolution {
                    strategy: ResolutionStrategy::Shadowed,
                    sources: files.clone(),
                });
                others.push(e);
            }
        }
    }

    config_instructions(
        cx,
        merged,
        (&chain, machine),
        Collected {
            taken: &mut taken,
            effective: &mut effective,
            others: &mut others,
            empty,
        },
    );
    let mut on_demand = below_cwd(cx, &taken, &mut others);

    let mut out = Vec::new();
    for (i, mut e) in effective.into_iter().chain(on_demand.drain(..)).enumerate() {
        e.order = Some(i as u32);
        out.push(e);
    }
    out.extend(others);
    out
}

/// Where the entries of `instructions` go: the files already taken (a
/// file is taken once), the entries OpenCode sends at startup, in order,
/// and the others.
struct Collected<'a> {
    taken: &'a mut HashSet<RepoPath>,
    effective: &'a mut Vec<Instruction>,
    others: &'a mut Vec<Instruction>,
    /// What the release does with an empty file.
    empty: EmptyFiles,
}

/// The files matched by the merged `instructions` entries, each tried
/// from the directories of `chain` (cwd first), and in local mode (a
/// `machine`) the user's files a `~/` entry names.
fn config_instructions(
    cx: &mut Cx<'_, '_>,
    merged: &Merged,
    (chain, machine): (&[RepoPath], Option<&Machine>),
    mut into: Collected<'_>,
) {
    for (pattern, src) in &merged.instructions {
        if let Some(m) = machine.filter(|_| user::is_home_file(pattern)) {
            take_home_file(cx, m, pattern, src, &mut into);
            continue;
        }
        if !followed_entry(cx, pattern, src) {
            continue;
        }
        let scan = match_entry(cx, pattern, src, chain, &mut into);
        report_unmatched(cx, pattern, src, &scan);
    }
}

/// Whether the analysis follows the `instructions` entry `pattern`: not
/// for a URL, a path outside the repository, or `..` after a wildcard,
/// each reported at `src`.
fn followed_entry(cx: &mut Cx<'_, '_>, pattern: &str, src: &SourceRef) -> bool {
    if pattern.starts_with("https://") || pattern.starts_with("http://") {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ItemNotModelled,
                format!("The instructions entry {pattern:?} is a URL: OpenCode fetches it at every start (5 s timeout) and sends its text after the files, or nothing when the fetch fails; the analysis never fetches it, so that text is unknown."),
            )
            .at(src.clone()),
        );
        return false;
    }
    if pattern.starts_with("~/") || pattern.starts_with('/') {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::UserConfigUnavailable,
                format!("The instructions entry {pattern:?} names files outside the repository; OpenCode reads them on the developer's machine, the analysis does not."),
            )
            .at(src.clone()),
        );
        return false;
    }
    // `..` in the literal part climbs from each directory it is tried
    // from: `../x.md` from `a` is `x.md` (seen with 1.18.33). After a
    // wildcard the glob library resolves it within the walk, which the
    // analysis does not model.
    let segments: Vec<&str> = pattern.split('/').collect();
    let literal = segments.iter().take_while(|s| !glob::is_magic(s)).count();
    if segments[literal..].contains(&"..") {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ItemNotModelled,
                format!("The instructions entry {pattern:?} has `..` after a wildcard; OpenCode's glob library resolves it while walking, which the analysis does not model, so the entry is taken to match nothing; name the files without `..` after the wildcard."),
            )
            .at(src.clone()),
        );
        return false;
    }
    true
}

/// Adds the user's file the `~/` entry `pattern` (written at `src`) names,
/// read on `machine`; a file that is absent sends nothing, and says so.
fn take_home_file(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    pattern: &str,
    src: &SourceRef,
    into: &mut Collected<'_>,
) {
    match user::config_instruction(machine, pattern, &src.path, &mut cx.diags) {
        Some(i) if i.applicability == Applicability::Effective => into.effective.push(i),
        Some(i) => into.others.push(i),
        None => cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!("The instructions entry {pattern:?} names a file of the user's that does not exist or cannot be read, so OpenCode loads nothing for it (silently)."),
            )
            .at(src.clone()),
        ),
    }
}

/// What globbing one `instructions` entry from every directory found.
struct EntryScan {
    /// From some directory, the entry climbs above the repository root.
    above_root: bool,
    /// How many files it matched, counting those already taken.
    matched: usize,
}

/// Globs `pattern` from every directory of `chain` (cwd first, up to the
/// root) and takes each file it matches that is not taken yet.
fn match_entry(
    cx: &mut Cx<'_, '_>,
    pattern: &str,
    src: &SourceRef,
    chain: &[RepoPath],
    into: &mut Collected<'_>,
) -> EntryScan {
    let segments: Vec<&str> = pattern.split('/').collect();
    let literal = segments.iter().take_while(|s| !glob::is_magic(s)).count();
    let climbs = segments[..literal].contains(&"..");
    let prefix = segments[..literal].join("/");
    let mut scan = EntryScan {
        above_root: false,
        matched: 0,
    };
    for dir in chain {
        if climbs && dir.join(&prefix).is_none() {
            scan.above_root = true;
            continue;
        }
        match glob::scan(cx, dir, pattern) {
            Err(why) => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidGlob,
                        format!("The instructions entry {pattern:?} is not a valid glob ({why}), so it matches nothing."),
                    )
                    .at(src.clone()),
                );
                break;
            }
            Ok((paths, truncated)) => {
                if truncated {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::Unreadable,
                            format!("The instructions entry {pattern:?} reaches more than {} directories below {}; the analysis stopped there, so more files may match.", crate::walk::MAX_DIRS, place(dir)),
                        )
                        .at(src.clone()),
                    );
                }
                for p in paths {
                    scan.matched += 1;
                    if !into.taken.insert(p.clone()) {
                        continue;
                    }
                    let how = match_reason(cx, pattern, src, dir);
                    take_match(cx, &p, &how, into);
                }
            }
        }
    }
    scan
}

/// How a file matches the entry `pattern` of `src` globbed from `dir`,
/// for the entry's reason ("matches the instructions entry … from cwd").
fn match_reason(cx: &Cx<'_, '_>, pattern: &str, src: &SourceRef, dir: &RepoPath) -> String {
    let cwd = &cx.context.cwd;
    if dir == cwd {
        format!(
            "matches the instructions entry {pattern:?} of {} from cwd",
            src.path
        )
    } else {
        format!("matches the instructions entry {pattern:?} of {} from {}, a parent of cwd {cwd} (OpenCode tries each entry from cwd and every parent up to the repository root)", src.path, place(dir))
    }
}

/// Reads the matched file `p` and adds its entry: effective when it has
/// text (or is too large to read), excluded when empty, unavailable when
/// unreadable. `how` says how it matched.
fn take_match(cx: &mut Cx<'_, '_>, p: &RepoPath, how: &str, into: &mut Collected<'_>) {
    let (state, resolved) = read(cx, p, true);
    let found = |text| Found {
        path: p,
        kind: InstructionKind::Instructions,
        resolved,
        text,
        applies_to: p.parent().unwrap_or_else(RepoPath::root),
    };
    match state {
        Read::Text(t) if !left_out(into.empty, &t) => into.effective.push(found(Some(&t)).entry(
            LoadPhase::Startup,
            Applicability::Effective,
            format!("This file {how}; OpenCode sends it after the AGENTS.md files."),
        )),
        Read::Text(t) => into.others.push(found(Some(&t)).entry(
            LoadPhase::Startup,
            Applicability::Excluded,
            format!("This file {how}, but it is empty, so OpenCode leaves it out."),
        )),
        Read::TooLarge(len) => {
            too_large(cx, p, len);
            let mut e = found(None).entry(
                LoadPhase::Startup,
                Applicability::Effective,
                format!(
                    "This file {how}; OpenCode sends it after the AGENTS.md files. Its text is not analysed: the file is over the {READ_LIMIT}-byte read limit."
                ),
            );
            e.bytes = len;
            into.effective.push(e);
        }
        _ => into.others.push(found(None).entry(
            LoadPhase::Startup,
            Applicability::Unavailable,
            format!("This file {how}, but its text cannot be read by the analysis."),
        )),
    }
}

/// Reports an `instructions` entry that climbs above the repository root
/// from some directory, or else one that matches no file.
fn report_unmatched(cx: &mut Cx<'_, '_>, pattern: &str, src: &SourceRef, scan: &EntryScan) {
    let cwd = &cx.context.cwd;
    let d = if scan.above_root {
        Diagnostic::new(
            DiagnosticCode::UserConfigUnavailable,
            format!("The instructions entry {pattern:?} climbs above the repository root from some of the directories OpenCode tries it from (cwd and every parent up to the root); what it names there OpenCode reads on the developer's machine, the analysis does not."),
        )
    } else if scan.matched == 0 {
        Diagnostic::new(
            DiagnosticCode::InvalidValue,
            format!("The instructions entry {pattern:?} matches no file from cwd {cwd} up to the repository root, so OpenCode loads nothing for it (silently); relative entries are resolved from the launch directory and its parents, not from the configuration file."),
        )
    } else {
        return;
    };
    cx.diag(d.at(src.clone()));
}

/// Instruction files below cwd: attached on demand when the agent reads a
/// file in or below their directory; those on the way to a target outside
/// cwd are out of scope.
fn below_cwd(
    cx: &mut Cx<'_, '_>,
    taken: &HashSet<RepoPath>,
    others: &mut Vec<Instruction>,
) -> Vec<Instruction> {
    let cwd = cx.context.cwd.clone();
    let target = cx.context.target_path.clone();
    let mut dirs: Vec<RepoPath> = Vec::new();
    for name in INSTRUCTION_FILES {
        for p in cx.repo.files_named_under(name, &cwd) {
            if let Some(d) = p.parent() {
                if strictly_below(&d, &cwd) {
                    dirs.push(d);
                }
            }
        }
    }
    let target_dirs = target_only_dirs(cx.context);
    for d in &target_dirs {
        if INSTRUCTION_FILES
            .iter()
            .any(|name| d.join(name).is_some_and(|p| cx.exists(&p)))
        {
            dirs.push(d.clone());
        }
    }
    // Each directory once, by path (a sort and a dedup: the subtree of the
    // root can hold thousands).
    dirs.sort();
    dirs.dedup();
    let target_inside = target.as_ref().is_some_and(|t| t.starts_with(&cwd));
    if let Some(t) = &target {
        if !target_inside {
            cx.diag(Diagnostic::new(
                DiagnosticCode::TargetOutsideCwd,
                format!("targetPath {t} is outside cwd {cwd}; OpenCode attaches instruction files on demand only for files read below the launch directory, so none are attached for it."),
            ));
        }
    }
    let mut effective: Vec<(usize, Instruction)> = Vec::new();
    for dir in dirs {
        let Some(name) = INSTRUCTION_FILES
            .iter()
            .find(|n| dir.join(n).is_some_and(|p| cx.exists(&p)))
        else {
            continue;
        };
        let Some(path) = dir.join(name) else { continue };
        if taken.contains(&path) {
            continue;
        }
        let (state, resolved) = read(cx, &path, dir.starts_with(&cwd));
        let text = match &state {
            Read::Text(t) => Some(t.clone()),
            _ => None,
        };
        let kind = kind_of(name);
        if !dir.starts_with(&cwd) {
            others.push(Found { path: &path, kind, resolved, text: text.as_deref(), applies_to: dir.clone() }.entry(LoadPhase::OnDemand, Applicability::OutOfScope, format!("{dir} is on the way to targetPath but not below cwd {cwd}; OpenCode attaches instruction files on demand only below the launch directory.")));
            continue;
        }
        let hit = target.as_ref().is_some_and(|t| strictly_below(t, &dir));
        let blank = text.as_ref().is_none_or(|t| empty_as_read(t));
        if target.as_ref() == Some(&path) {
            others.push(read_itself(Found {
                path: &path,
                kind,
                resolved,
                text: text.as_deref(),
                applies_to: dir.clone(),
            }));
        } else if hit && !blank {
            let depth = dir.depth();
            effective.push((
                depth,
                Found { path: &path, kind, resolved, text: text.as_deref(), applies_to: dir.clone() }.entry(LoadPhase::OnDemand, Applicability::Effective, format!("{dir} is below cwd {cwd} and holds targetPath; when the agent reads a file there, OpenCode attaches the first of AGENTS.md, CLAUDE.md, CONTEXT.md of each directory from the file's up to cwd, once.")),
            ));
        } else {
            let why = if blank {
                "it is empty or unreadable, so nothing would be attached".to_string()
            } else {
                "OpenCode attaches it only when the agent reads a file in or below that directory"
                    .to_string()
            };
            others.push(
                Found {
                    path: &path,
                    kind,
                    resolved,
                    text: text.as_deref(),
                    applies_to: dir.clone(),
                }
                .entry(
                    LoadPhase::OnDemand,
                    Applicability::Conditional,
                    format!("{name} in {dir}, below cwd {cwd}: {why}."),
                ),
            );
        }
    }
    // Closest to the target first, as OpenCode walks up from the file.
    effective.sort_by_key(|(d, _)| std::cmp::Reverse(*d));
    effective.into_iter().map(|(_, e)| e).collect()
}

/// The instruction file the agent reads as targetPath: OpenCode's read
/// tool does not attach the file it reads as an instruction to that read
/// (1.18.33: reading `b/AGENTS.md` attaches nothing, reading `a/x.py`
/// attaches `a/AGENTS.md`, cases `opencode.blank_on_demand.read-b-agents`
/// and `opencode.blank_on_demand.read-a-x`; found by the fuzzer, case
/// `fuzz.opencode.505`).
fn read_itself(found: Found<'_>) -> Instruction {
    let path = found.path.clone();
    found.entry(
        LoadPhase::OnDemand,
        Applicability::Shadowed,
        format!(
            "{path} is targetPath itself: the model receives it as the file it reads, and OpenCode does not attach \
             the file it reads as an instruction"
        ),
    )
}

/// "a directory" or "a special file (…)" for an entry that is not a
/// regular file.
pub(crate) fn kind_phrase(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Dir => "a directory",
        EntryKind::File => "a regular file",
        EntryKind::Symlink => "a symbolic link",
        EntryKind::Other => "a special file (a FIFO, a socket or a device)",
    }
}

/// For a release whose read attaches no instruction file
/// ([`crate::profile::Profile::read_attaches_instructions`] false): each
/// file OpenCode would attach on a read below cwd is out of scope, with
/// the reason, and out of the request order.
pub(crate) fn without_read_attachments(instructions: &mut [Instruction], version: &str) {
    for i in instructions.iter_mut().filter(|i| {
        i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective
    }) {
        i.applicability = Applicability::OutOfScope;
        i.order = None;
        i.reason = format!(
            "{} OpenCode {version}'s read tool attaches no instruction file (from {} on it does).",
            i.reason,
            crate::profile::since(crate::profile::Fact::ReadAttachesInstructions)
        );
    }
}

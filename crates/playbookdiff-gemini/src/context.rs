//! Context files: which `GEMINI.md` (or `context.fileName`) files Gemini
//! CLI sends, in which order, with their imports.
//!
//! Gemini CLI (`packages/core/src/utils/memoryDiscovery.ts`), per release
//! ([`Profile`]):
//!
//! * the names are `context.fileName` of the workspace settings (a string
//!   or a list), else `GEMINI.md` (`getAllGeminiMdFilenames`); 0.61 keeps
//!   `GEMINI.md` after the configured names;
//! * at startup, every directory from the project root down to cwd is
//!   searched for each name (`fs.access`: any entry; a directory is then
//!   skipped when read, `EISDIR`); 0.61 sorts the result as absolute-path
//!   strings, 0.34 groups it by name and adds a downward search below cwd
//!   that finds regular files only, no link
//!   ([`crate::profile::Order`], [`crate::profile::Boundary`]);
//! * two names reaching one file (a link) are read once, the first found
//!   kept (`deduplicatePathsByFileIdentity`);
//! * each file's text has its imports inlined ([`crate::imports`]) and is
//!   trimmed; an empty result is left out (`concatenateInstructions`);
//! * 0.61, on demand: when the agent reads or lists a path below cwd, the
//!   files of the directories from that path up to the project root that
//!   are not yet loaded are appended to the tool's output, top first
//!   (`loadJitSubdirectoryMemory`, `packages/core/src/tools/jit-context.ts`;
//!   seen with 0.61.0 after a scripted `read_file`: `--- Newly Discovered
//!   Project Context ---`).

use crate::blocked::has_blocked_segment;
use crate::extensions::Extension;
use crate::imports::{self, Expansion};
use crate::profile::{Boundary, Order};
use crate::settings::{FileNames, Settings};
use crate::{Cx, Profile, DEFAULT_CONTEXT_FILE, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_adapter::scope::{place, strictly_below, target_only_dirs};
use playbookdiff_model::remedy::count;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase, RepoPath,
    SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Machine, Resolved, TextFile};
use std::collections::HashSet;
use std::sync::Arc;

/// The search of one compilation: names, project root, directories.
struct Search {
    /// The context file names, in `context.fileName` order.
    names: Vec<String>,
    /// The project root the upward search stops at.
    top: RepoPath,
    /// The directories searched at startup, top first.
    up: Vec<RepoPath>,
    /// Where each context file's imports must stay ([`import_root`]).
    imports: ImportRoot,
}

/// How `processImports` finds the directory a context file's imports
/// must stay inside (`findProjectRoot` in
/// `packages/core/src/utils/memoryImportProcessor.ts`): from the file's
/// own directory up, the first holding a marker, else the file's own
/// directory. It starts from the file, not from cwd, so it is not the
/// project root of the context search (seen with 0.61.0, fuzzer seed
/// 394: with `memoryBoundaryMarkers: []`, `docs/GUIDE.md` cannot import
/// `../CLAUDE.md`).
enum ImportRoot {
    /// 0.61: an entry named by `context.memoryBoundaryMarkers` (default
    /// `.git`); with `[]`, the file's own directory.
    Markers(Vec<String>),
    /// 0.34: a `.git` directory ([`git_directory`]).
    GitDirectory,
}

/// The directory context file `file`'s imports must stay inside. A
/// repository without a `.git` entry is assumed to have one at its root,
/// as for the project root ([`search`]).
fn import_root(cx: &Cx<'_, '_>, rule: &ImportRoot, file: &RepoPath) -> RepoPath {
    let dir = file.parent().unwrap_or_else(RepoPath::root);
    let marked = |d: &RepoPath| match rule {
        ImportRoot::Markers(markers) => holds_marker(cx, d, markers),
        ImportRoot::GitDirectory => git_directory(cx, d),
    };
    let found = dir.ancestors_root_first().into_iter().rev().find(marked);
    let git = match rule {
        ImportRoot::Markers(markers) => markers.iter().any(|m| m == ".git"),
        ImportRoot::GitDirectory => true,
    };
    match found {
        Some(d) => d,
        None if git && !cx.repo.has_git_marker() => RepoPath::root(),
        None => dir,
    }
}

/// Compiles the context entries.
///
/// Shape: effective startup entries by `order` (each context file followed
/// by the files it imports, depth first), effective on-demand entries,
/// then excluded, conditional and out-of-scope entries.
///
/// In local mode (`machine` given) the user's global context files come
/// first, then those of the user's active `extensions` ([`crate::user`]).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    settings: &Settings,
    (machine, extensions): (Option<&Machine>, &[Extension]),
) -> Vec<Instruction> {
    let search = search(cx, profile, settings);
    let mut global = machine
        .map(|m| crate::user::global_context(m, &search.names, &mut cx.diags))
        .unwrap_or_default();
    if let Some(m) = machine {
        global.extend(crate::user::extension_context(m, extensions, &mut cx.diags));
    }
    let mut b = Builder {
        imports: &search.imports,
        effective: global,
        others: Vec::new(),
    };
    let mut startup = startup_files(cx, profile, &search);
    if profile.order == Order::AbsolutePath {
        // JavaScript's `sort` of absolute paths: with one common prefix,
        // the order of the repository-relative paths.
        startup.sort();
    }
    let why = startup_reason(profile, &search);
    for (path, dir) in &startup {
        b.add(
            cx,
            path,
            dir,
            (LoadPhase::Startup, Applicability::Effective),
            &why,
        );
    }
    let loaded: HashSet<RepoPath> = startup.iter().map(|(p, _)| p.clone()).collect();
    above_top(cx, &search, &mut b);
    below_cwd(cx, profile, &search, &loaded, &mut b);
    b.finish()
}

/// The context file names `context.fileName` gives (`setGeminiMdFilename`
/// in `packages/core/src/tools/memoryTool.ts`), each trimmed. From 0.44
/// ([`Profile::file_name_keeps_default`]) blank names are dropped and
/// `GEMINI.md` is added unless named. Before, a blank string keeps
/// `GEMINI.md`, but a list replaces it whole, even when its names are all
/// blank: they match no file, so no context file loads (seen with 0.34.0,
/// case `gemini.file_name_edges.in-blank`; the same rewrite in the
/// packages of 0.43.0 and 0.44.0).
fn context_names(configured: Option<FileNames>, profile: &Profile) -> Vec<String> {
    let default = || vec![DEFAULT_CONTEXT_FILE.to_string()];
    let Some(FileNames { names, list }) = configured else {
        return default();
    };
    let replaces_whole = list && !names.is_empty() && !profile.file_name_keeps_default;
    let mut named: Vec<String> = names
        .iter()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect();
    if named.is_empty() && !replaces_whole {
        return default();
    }
    if profile.file_name_keeps_default && !named.iter().any(|n| n == DEFAULT_CONTEXT_FILE) {
        named.push(DEFAULT_CONTEXT_FILE.to_string());
    }
    named
}

/// The names, the project root and the startup directories.
fn search(cx: &mut Cx<'_, '_>, profile: &Profile, settings: &Settings) -> Search {
    let names = context_names(settings.file_names(cx), profile);
    let cwd = cx.context.cwd.clone();
    let chain = cwd.ancestors_root_first();
    let imports = match profile.boundary {
        Boundary::Markers => ImportRoot::Markers(
            settings
                .boundary_markers(cx)
                .unwrap_or_else(|| vec![".git".to_string()]),
        ),
        Boundary::GitDirectoryAndParent => ImportRoot::GitDirectory,
    };
    let top = match &imports {
        ImportRoot::Markers(markers) => {
            let found = chain.iter().rev().find(|d| holds_marker(cx, d, markers));
            match found {
                Some(d) => d.clone(),
                None if markers.iter().any(|m| m == ".git") && !cx.repo.has_git_marker() => {
                    cx.diag(Diagnostic::new(
                        DiagnosticCode::ProjectRootAssumed,
                        "The repository root has no `.git` entry; Gemini CLI would take the nearest directory holding `.git` above cwd as the project root, or cwd alone when there is none. The analysis assumes the supplied repositoryRoot is the project root.",
                    ));
                    RepoPath::root()
                }
                None => {
                    if !markers.is_empty() {
                        cx.diag(Diagnostic::new(
                            DiagnosticCode::ProjectRootAssumed,
                            format!("No directory from cwd {} up to the repository root holds a boundary marker ({}), so Gemini CLI takes cwd alone as the project: it reads no context file above cwd (unless a marker lies above the repository, which the analysis cannot see).", problems::quote(&cwd), markers.join(", ")),
                        ));
                    }
                    cwd.clone()
                }
            }
        }
        ImportRoot::GitDirectory => chain
            .iter()
            .rev()
            .find(|d| git_directory(cx, d))
            .cloned()
            .unwrap_or_else(RepoPath::root),
    };
    let mut up: Vec<RepoPath> = chain.into_iter().filter(|d| d.starts_with(&top)).collect();
    if profile.boundary == Boundary::GitDirectoryAndParent && !top.is_root() {
        if let Some(p) = top.parent() {
            up.insert(0, p);
        }
    }
    Search {
        names,
        top,
        up,
        imports,
    }
}

/// Whether `dir` holds an entry named by one of `markers` (markers with
/// `..` or an absolute path are skipped, as Gemini CLI skips them).
fn holds_marker(cx: &Cx<'_, '_>, dir: &RepoPath, markers: &[String]) -> bool {
    markers.iter().any(|m| {
        if m.starts_with('/') || m.contains("..") {
            return false;
        }
        if m == ".git" && cx.repo.holds_git_marker(dir) {
            return true;
        }
        dir.join(m).is_some_and(|p| cx.repo.kind(&p).is_some())
    })
}

/// Whether `dir` holds a `.git` directory (0.34's test; the repository
/// root's `.git` counts when the repository has one).
fn git_directory(cx: &Cx<'_, '_>, dir: &RepoPath) -> bool {
    if dir.is_root() {
        return cx.repo.has_git_marker();
    }
    dir.join(".git")
        .is_some_and(|p| cx.repo.kind(&p) == Some(EntryKind::Dir))
}

/// The startup files with their directory, before sorting: for 0.61 every
/// name in every directory, top first, one path per file; for 0.34 by
/// name, each name's upward files then its downward ones.
fn startup_files(cx: &mut Cx<'_, '_>, profile: &Profile, s: &Search) -> Vec<(RepoPath, RepoPath)> {
    let mut out: Vec<(RepoPath, RepoPath)> = Vec::new();
    let mut seen: HashSet<RepoPath> = HashSet::new();
    let mut push =
        |cx: &Cx<'_, '_>, path: RepoPath, dir: RepoPath, out: &mut Vec<(RepoPath, RepoPath)>| {
            let identity = match cx.repo.resolve(&path) {
                Resolved::Inside { real, .. } => real,
                _ => path.clone(),
            };
            if seen.insert(identity) {
                out.push((path, dir));
            }
        };
    match profile.order {
        Order::AbsolutePath => {
            for dir in &s.up {
                for name in &s.names {
                    if let Some(p) = dir.join(name).filter(|p| exists(cx, p)) {
                        push(cx, p, dir.clone(), &mut out);
                    }
                }
            }
        }
        Order::ByName => {
            let down = profile
                .downward_max_dirs
                .map(|max| downward(cx, &s.names, max))
                .unwrap_or_default();
            for name in &s.names {
                for dir in &s.up {
                    if let Some(p) = dir.join(name).filter(|p| exists(cx, p)) {
                        push(cx, p, dir.clone(), &mut out);
                    }
                }
                let mut mine: Vec<&RepoPath> = down
                    .iter()
                    .filter(|p| p.file_name() == Some(name.as_str()))
                    .collect();
                mine.sort();
                for p in mine {
                    let dir = p.parent().unwrap_or_else(RepoPath::root);
                    push(cx, p.clone(), dir, &mut out);
                }
            }
        }
    }
    out
}

/// Whether anything is at `path` (`fs.access`: links followed; a link
/// out of the repository is assumed to exist).
fn exists(cx: &Cx<'_, '_>, path: &RepoPath) -> bool {
    matches!(
        cx.repo.resolve(path),
        Resolved::Inside { .. } | Resolved::Outside { .. }
    )
}

/// 0.34's downward search (`bfsFileSearch`): breadth first from cwd over
/// at most `max` directories, `.git` skipped; the regular files named by
/// `names` it meets. It judges each entry by its own type (`Dirent`:
/// `isDirectory()`, `isFile()`), so a link is neither followed nor found,
/// whether it points to a directory or to a file (seen with 0.34.0: a
/// `sub dir/AGENTS.md` linking to a file of the repository is not sent).
fn downward(cx: &Cx<'_, '_>, names: &[String], max: usize) -> Vec<RepoPath> {
    let mut queue = std::collections::VecDeque::from([cx.context.cwd.clone()]);
    let mut scanned = 0;
    let mut found = Vec::new();
    while scanned < max {
        let Some(dir) = queue.pop_front() else { break };
        scanned += 1;
        for e in cx.repo.list_dir(&dir) {
            let Some(p) = dir.child(&e.name) else {
                continue;
            };
            if e.kind == EntryKind::Dir {
                if e.name != ".git" {
                    queue.push_back(p);
                }
            } else if e.kind == EntryKind::File && names.iter().any(|n| n == &e.name) {
                found.push(p);
            }
        }
    }
    found
}

/// Why the startup files load, for their entries.
fn startup_reason(profile: &Profile, s: &Search) -> String {
    let names = s.names.join(", ");
    let top = place(&s.top);
    match profile.order {
        Order::AbsolutePath => format!("Gemini CLI looks for {names} in every directory from the project root ({top}) down to cwd at startup and sends them sorted as absolute paths"),
        Order::ByName => format!("Gemini CLI looks for {names} from cwd up to the project root ({top}) and, in a search of at most {}, below cwd at startup; it sends them grouped by name, each name's files from the top down", scanned(profile)),
    }
}

/// "200 directories": the most the downward search scans.
fn scanned(profile: &Profile) -> String {
    count(
        profile.downward_max_dirs.unwrap_or(0),
        "directory",
        "directories",
    )
}

/// The files named like context files in directories between the
/// repository root and the project root, which Gemini CLI does not read.
fn above_top(cx: &mut Cx<'_, '_>, s: &Search, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    for dir in cwd.ancestors_root_first() {
        if s.up.contains(&dir) {
            continue;
        }
        for name in &s.names {
            let Some(p) = dir.join(name).filter(|p| cx.repo.is_file(p)) else {
                continue;
            };
            let why = format!("{} holds the project's boundary marker, and Gemini CLI reads no context file above the project root", place(&s.top));
            b.add(
                cx,
                &p,
                &dir,
                (LoadPhase::Startup, Applicability::Excluded),
                &why,
            );
        }
    }
}

/// The files below cwd: 0.61 adds them on demand, 0.34 found the ones it
/// reads with its downward search (already taken), and leaves out the rest.
fn below_cwd(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    s: &Search,
    loaded: &HashSet<RepoPath>,
    b: &mut Builder,
) {
    let cwd = cx.context.cwd.clone();
    let target = cx.context.target_path.clone();
    let mut files: Vec<RepoPath> = Vec::new();
    // A name with a `/` (`./AGENTS.md`, `docs/GUIDE.md`) is no entry name,
    // so no lookup by entry name finds it.
    for name in s.names.iter().filter(|n| !n.contains('/')) {
        for p in cx.repo.files_named_under(name, &cwd) {
            if p.parent().is_some_and(|d| strictly_below(&d, &cwd)) && !loaded.contains(p) {
                files.push(p.clone());
            }
        }
    }
    files.sort();
    if let Some(t) = &target {
        if !t.starts_with(&cwd) && profile.on_demand {
            cx.diag(Diagnostic::new(
                DiagnosticCode::TargetOutsideCwd,
                format!("targetPath {} is outside cwd {}; Gemini CLI adds context files on demand only for paths inside the workspace (the launch directory), so none are added for it.", problems::quote(t), problems::quote(&cwd)),
            ));
        }
    }
    // Top first, each directory's in name order, as `findUpwardGeminiFiles`
    // returns them.
    let rank = |p: &RepoPath| {
        s.names
            .iter()
            .position(|n| Some(n.as_str()) == p.file_name())
    };
    files.sort_by_key(|p| (p.depth(), p.parent(), rank(p)));
    for p in files {
        let dir = p.parent().unwrap_or_else(RepoPath::root);
        if !profile.on_demand {
            let why = if cx.repo.kind(&p) == Some(EntryKind::Symlink) {
                format!("{} lies below cwd {cwd} and is a symbolic link, which Gemini CLI 0.34's downward search takes for neither a file nor a directory; it adds no context file on demand", place(&dir))
            } else {
                format!("{} lies below cwd {cwd} beyond the directories Gemini CLI 0.34's downward search scans (at most {}), or in a directory it skips; it adds no context file on demand", place(&dir), scanned(profile))
            };
            b.add(
                cx,
                &p,
                &dir,
                (LoadPhase::Startup, Applicability::Excluded),
                &why,
            );
            continue;
        }
        if has_blocked_segment(&dir, &cwd, profile) {
            let why = format!("{} lies below cwd {cwd} under a `node_modules`, `.git` or `.env` directory, whose paths Gemini CLI's tools refuse as outside the workspace; it adds no context file on demand there", place(&dir));
            b.add(
                cx,
                &p,
                &dir,
                (LoadPhase::OnDemand, Applicability::Excluded),
                &why,
            );
            continue;
        }
        let hit = target.as_ref().is_some_and(|t| {
            t.starts_with(&dir) && t != &p && !has_blocked_segment(t, &cwd, profile)
        });
        let (applicability, why) = if hit {
            (Applicability::Effective, format!("{} lies below cwd {cwd} on the way to targetPath; when the agent reads or lists a path there, Gemini CLI appends the context files of the directories between it and the project root that are not yet loaded to the tool's output", place(&dir)))
        } else {
            (Applicability::Conditional, format!("{} lies below cwd {cwd}; Gemini CLI adds it only when the agent reads, lists or writes a path in or below that directory", place(&dir)))
        };
        b.add(cx, &p, &dir, (LoadPhase::OnDemand, applicability), &why);
    }
    for d in target_only_dirs(cx.context) {
        for name in &s.names {
            let Some(p) = d.join(name).filter(|p| cx.repo.is_file(p)) else {
                continue;
            };
            let why = format!("{} is on the way to targetPath but outside cwd {cwd}; Gemini CLI reads context files only from the project root down to cwd and, on demand, below cwd", place(&d));
            b.add(
                cx,
                &p,
                &d,
                (LoadPhase::OnDemand, Applicability::OutOfScope),
                &why,
            );
        }
    }
}

/// What reading a context file gave.
enum Read {
    /// Its text.
    Text(Arc<TextFile>),
    /// Not sent: the sentence says why.
    Skipped(&'static str),
}

/// Reads context file `path`; problems Gemini CLI reports become
/// diagnostics.
fn read(cx: &mut Cx<'_, '_>, path: &RepoPath) -> Read {
    let r = cx.repo.resolve(path);
    match &r {
        Resolved::Inside {
            kind: EntryKind::File,
            ..
        } => match cx.repo.read_text(path, READ_LIMIT) {
            Ok(t) => {
                if t.invalid_utf8 {
                    cx.diag(problems::invalid_utf8(path, SourceFormat::Markdown, &t));
                }
                Read::Text(t)
            }
            Err(e) => {
                cx.diag(problems::read_error(
                    path,
                    &e,
                    "what Gemini CLI reads from it is unknown",
                    SourceFormat::Markdown,
                ));
                Read::Skipped("the analysis cannot read it")
            }
        },
        Resolved::Inside { .. } => {
            Read::Skipped("it is not a regular file, which Gemini CLI skips (`EISDIR`)")
        }
        Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link } => {
            if let Some(d) = problems::link_problem(
                &r,
                link,
                Some(&format!("The context file {path}")),
                "what Gemini CLI reads from it is unknown",
                SourceFormat::Markdown,
            ) {
                cx.diag(d);
            }
            Read::Skipped("it is a symbolic link the analysis cannot follow")
        }
        Resolved::Missing => Read::Skipped("it does not exist"),
    }
}

/// The entries in the making: effective ones in order, then the others.
struct Builder<'s> {
    /// How each context file's imports are confined.
    imports: &'s ImportRoot,
    effective: Vec<Instruction>,
    others: Vec<Instruction>,
}

impl Builder<'_> {
    /// Adds the entry of context file `path` in `dir` (and, when it loads,
    /// the entries of its imports), at `phase` with `applicability`
    /// unless reading shows it is not sent; `why` starts the reason.
    fn add(
        &mut self,
        cx: &mut Cx<'_, '_>,
        path: &RepoPath,
        dir: &RepoPath,
        (phase, applicability): (LoadPhase, Applicability),
        why: &str,
    ) {
        let loads = applicability == Applicability::Effective;
        let text = match read(cx, path) {
            Read::Text(t) => t,
            Read::Skipped(reason) => {
                let a = if loads {
                    Applicability::Excluded
                } else {
                    applicability
                };
                let e = entry(
                    path,
                    dir,
                    None,
                    phase,
                    a,
                    format!("{why}; this one is not sent: {reason}."),
                );
                self.others.push(e);
                return;
            }
        };
        let expansion = if loads || applicability == Applicability::Conditional {
            let root = import_root(cx, self.imports, path);
            imports::expand(cx, path, &text, &root)
        } else {
            Expansion {
                spans: Vec::new(),
                imports: Vec::new(),
            }
        };
        if loads
            && playbookdiff_adapter::js::trim(&text.text).is_empty()
            && expansion.imports.is_empty()
        {
            let e = entry(
                path,
                dir,
                Some(&text),
                phase,
                Applicability::Excluded,
                format!(
                    "{why}; this one is empty (white space or a byte order mark only), so Gemini CLI leaves it out."
                ),
            );
            self.others.push(e);
            return;
        }
        let mut e = entry(
            path,
            dir,
            Some(&text),
            phase,
            applicability,
            format!("Found in {}: {why}.", place(dir)),
        );
        e.import_spans = expansion.spans;
        let into = if loads {
            &mut self.effective
        } else {
            &mut self.others
        };
        let mut ids: Vec<(RepoPath, String)> = vec![(path.clone(), e.id.clone())];
        into.push(e);
        for imp in expansion.imports {
            let parent_id = ids
                .iter()
                .rev()
                .find(|(p, _)| *p == imp.parent)
                .map(|(_, id)| id.clone());
            let mut i = entry(&imp.path, dir, Some(&imp.text), phase, applicability, format!("Imported by {} with `@`: Gemini CLI inlines the imported text in place of the token.", imp.parent));
            i.kind = InstructionKind::Import;
            i.id = format!("gemini:import:{}<{}", imp.path, imp.parent);
            i.imported_from = parent_id;
            i.import_spans = imp.spans;
            ids.push((imp.path.clone(), i.id.clone()));
            into.push(i);
        }
    }

    /// The entries: effective ones numbered, then the others.
    fn finish(self) -> Vec<Instruction> {
        let mut out = self.effective;
        for (i, e) in out.iter_mut().enumerate() {
            e.order = Some(i as u32);
        }
        out.extend(self.others);
        out
    }
}

/// The entry of context file `path` in `dir` with text `text` (when read).
fn entry(
    path: &RepoPath,
    dir: &RepoPath,
    text: Option<&TextFile>,
    phase: LoadPhase,
    applicability: Applicability,
    reason: String,
) -> Instruction {
    let mut source = SourceRef::project(path.clone(), SourceFormat::Markdown);
    if let Some(t) = text.filter(|t| t.line_count() > 0) {
        source = source.with_lines(1, t.line_count());
    }
    Instruction {
        id: format!("gemini:context-file:{path}"),
        kind: InstructionKind::ContextFile,
        source,
        load_phase: phase,
        applicability,
        reason,
        order: None,
        applies_to: dir.clone(),
        imported_from: None,
        import_spans: Vec::new(),
        bytes: text.map(|t| t.bytes).unwrap_or(0),
        paths: None,
        resolution: None,
        truncated_at_byte: None,
        content: text.map(|t| t.text.clone()).unwrap_or_default(),
    }
}

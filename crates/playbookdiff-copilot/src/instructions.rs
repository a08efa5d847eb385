//! Instructions: which files Copilot CLI puts into its system prompt as
//! `<custom_instruction>` blocks, in which order, and which it injects on
//! demand.
//!
//! Seen with 1.0.102 and 1.0.24 (the first model request, launched in
//! `x/y/z` and in `a/b` of fixtures with every name):
//!
//! * first `.github/copilot-instructions.md` of the git root, then the
//!   launch directory's;
//! * then `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` of the git root, then of
//!   the launch directory (names matched case-insensitively: `agents.md`
//!   loads); neither's `.claude/CLAUDE.md` is read;
//! * then each directory between, closest to the launch directory first,
//!   with `.github/copilot-instructions.md`, `AGENTS.md`, `CLAUDE.md`,
//!   `.claude/CLAUDE.md`, `GEMINI.md`;
//! * 1.0.102 leaves out a text identical to one already sent ("AGENTS.md +
//!   GEMINI.md"), byte for byte but for a leading byte order mark (case
//!   `oracle.copilot_user_blank_repeat.home-copilot-blank-bom`): texts
//!   that differ only in white space are all sent (seen with 1.0.102:
//!   `same text` with one, three and no trailing line ends, and with
//!   leading spaces; case
//!   `oracle.edge_bom_only.in-web.read-web-api-main.py`: a file holding a
//!   byte order mark and one holding a BOM and CRLF); 1.0.24 leaves out an
//!   empty file and a repeat only among the names of one directory
//!   ([`AlwaysOnTexts`]); 1.0.30 to 1.0.63 leave out an empty file and a
//!   repeat of any earlier block, the first one sent
//!   ([`Profile::repeats_left_out_anywhere`]);
//! * nothing below the launch directory at start; 1.0.102 injects such a
//!   file as a `<system_reminder>` when the agent views a file there;
//! * then the path-specific instructions and `.claude/rules`
//!   ([`crate::scoped`]).
//!
//! 1.0.102 inlines `@path` imports as `<imported_custom_instruction>`
//! (changelog 1.0.66); 1.0.24 sends the token as written.
//!
//! Older releases (bisected): before 1.0.11 nothing of the directories
//! between is sent ([`Profile::ancestor_instructions`]); before 0.0.411
//! the three names are found only as written
//! ([`Profile::instruction_names_any_case`]); before 0.0.394 a text
//! identical to an earlier one of its directory is sent again
//! ([`Profile::named_repeats_left_out`]).

use crate::profile::AlwaysOnTexts;
use crate::{shared_note, Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_adapter::scope::{place, strictly_below};
use playbookdiff_model::{
    Applicability, ByteSpan, Diagnostic, Instruction, InstructionKind, LoadPhase, RepoPath,
    Resolution, ResolutionStrategy, SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Machine, Resolved, TextFile};
use std::sync::Arc;

/// The repository-wide file of a directory.
pub(crate) const COPILOT_INSTRUCTIONS: &str = ".github/copilot-instructions.md";

/// The agent-instruction names read in the git root and the launch
/// directory, in Copilot CLI's order (case-insensitive).
pub(crate) const NAMES: &[&str] = &["AGENTS.md", "CLAUDE.md", "GEMINI.md"];

/// The files read in a directory between the root and the launch
/// directory, in Copilot CLI's order.
const BETWEEN: &[&str] = &[
    COPILOT_INSTRUCTIONS,
    "AGENTS.md",
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "GEMINI.md",
];

/// The instruction kind of a file Copilot CLI reads, by name.
pub(crate) fn kind_of(path: &RepoPath) -> InstructionKind {
    let name = path.file_name().unwrap_or_default().to_ascii_uppercase();
    match name.as_str() {
        "AGENTS.MD" => InstructionKind::AgentsMd,
        "CLAUDE.MD" => InstructionKind::Memory,
        _ => InstructionKind::Instructions,
    }
}

/// Where an always-on file stands, which decides whether 1.0.24 leaves
/// it out ([`AlwaysOnTexts::PerDirectory`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Slot {
    /// `.github/copilot-instructions.md` of the git root or the launch
    /// directory.
    RepositoryWide,
    /// `AGENTS.md`, `CLAUDE.md` or `GEMINI.md` of the git root or the
    /// launch directory.
    Named,
    /// A file of a directory between them.
    Between,
}

/// An always-on file: its path, the directory it applies to, its slot.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct AlwaysOn {
    /// The file.
    pub path: RepoPath,
    /// The directory it applies to.
    pub dir: RepoPath,
    /// Where it stands.
    pub slot: Slot,
}

/// The always-on files in the order Copilot CLI sends them; those of
/// the directories between come after the others, also where the
/// release does not read them ([`Profile::ancestor_instructions`]:
/// [`compile`] gives them as not sent).
fn always_on(cx: &Cx<'_, '_>, profile: &Profile) -> Vec<AlwaysOn> {
    let root = crate::git_root(cx);
    let cwd = cx.context.cwd.clone();
    let mut dirs = vec![root.clone()];
    if cwd != root {
        dirs.push(cwd.clone());
    }
    let at = |path, dir: &RepoPath, slot| AlwaysOn {
        path,
        dir: dir.clone(),
        slot,
    };
    let mut out = Vec::new();
    for d in &dirs {
        out.extend(find(cx, d, COPILOT_INSTRUCTIONS).map(|p| at(p, d, Slot::RepositoryWide)));
    }
    for d in &dirs {
        for name in NAMES {
            out.extend(find_named(cx, profile, d, name).map(|p| at(p, d, Slot::Named)));
        }
    }
    let mut between: Vec<RepoPath> = crate::chain(cx)
        .into_iter()
        .filter(|d| *d != root && *d != cwd)
        .collect();
    between.reverse();
    for d in &between {
        for name in BETWEEN {
            out.extend(find(cx, d, name).map(|p| at(p, d, Slot::Between)));
        }
    }
    out
}

/// The file `name` of `dir` as the release of `profile` finds it: in
/// any letter case ([`find`]) where
/// [`Profile::instruction_names_any_case`], else only as written.
fn find_named(
    cx: &Cx<'_, '_>,
    profile: &Profile,
    dir: &RepoPath,
    name: &'static str,
) -> Option<RepoPath> {
    find(cx, dir, name)
        .filter(|p| profile.instruction_names_any_case || p.file_name() == Some(name))
}

/// The file `rel` of `dir` (its last component matched
/// case-insensitively, as Copilot CLI matches), when it is a file or a
/// link to one.
///
/// Looked up once per directory and name on one `Repo`: the git root's
/// files are looked up from every launch directory below it.
pub(crate) fn find(cx: &Cx<'_, '_>, dir: &RepoPath, rel: &'static str) -> Option<RepoPath> {
    /// The memo key: the directory and the relative path.
    #[derive(Hash, PartialEq, Eq)]
    struct Found(RepoPath, &'static str);
    cx.repo
        .memo(Found(dir.clone(), rel), || find_uncached(cx, dir, rel))
}

/// [`find`], looked up.
fn find_uncached(cx: &Cx<'_, '_>, dir: &RepoPath, rel: &str) -> Option<RepoPath> {
    let full = dir.join(rel)?;
    let parent = full.parent()?;
    let name = full.file_name()?;
    cx.repo
        .list_dir(&parent)
        .iter()
        .filter(|e| e.name.eq_ignore_ascii_case(name))
        .map(|e| parent.child(&e.name))
        .find_map(|p| p.filter(|p| !cx.repo.is_dir(p)))
}

/// Compiles the instruction entries: effective startup entries by
/// `order` (each followed by its imports), then the path-specific ones,
/// then on-demand, shadowed, excluded and out-of-scope entries.
///
/// In local mode (`machine` given) the user's instructions come first and
/// the user's path-specific files after the repository's ([`crate::user`]).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: Option<&Machine>,
) -> Vec<Instruction> {
    let mut b = Builder::default();
    if !profile.instruction_blocks {
        crate::one_source::compile(cx, profile, machine, &mut b);
        not_read(cx, &mut b);
        below_cwd(cx, profile, &mut b);
        return b.finish();
    }
    if let Some(m) = machine {
        crate::user::always_on(m, profile, &mut b, &mut cx.diags);
    }
    let top = crate::git_root(cx);
    let mut taken: Vec<(String, RepoPath)> = Vec::new();
    for file in always_on(cx, profile) {
        let why = format!(
            "Copilot CLI reads {} of {} at startup{}",
            file.path.file_name().unwrap_or_default(),
            place(&file.dir),
            shared_note(&file.path)
        );
        if file.slot == Slot::Between && !profile.ancestor_instructions {
            b.others.push(not_between(cx, &file));
            continue;
        }
        if file.slot == Slot::Between {
            let id = between_id(&file.path, &top);
            if let Some((_, first)) = taken.iter().find(|(i, _)| *i == id) {
                let e = same_id(cx, &file, first, &why);
                b.others.push(e);
                continue;
            }
            taken.push((id, file.path.clone()));
        }
        b.add(cx, profile, &file, &why);
    }
    crate::scoped::compile(cx, profile, &mut b);
    if let Some(m) = machine {
        crate::scoped::listed_dirs(cx, profile, m, &mut b);
        crate::user::listed_agents(m, &mut b, &mut cx.diags);
        crate::user::path_specific(m, profile, &mut b, &mut cx.diags);
    }
    not_read(cx, &mut b);
    below_cwd(cx, profile, &mut b);
    b.finish()
}

/// The key under which Copilot CLI keeps a file of the directories
/// between: its path from the git root `top` in lower case, each run of
/// characters other than `a`-`z` and `0`-`9` made one `-` (1.0.24
/// `app.js`, the instruction loader: the entry's id is `inherited-` and
/// that, and of entries with one id only the first is kept). So
/// `n/ü/CLAUDE.md` and `n/CLAUDE.md` are one entry and the second is not
/// sent, while `n/AGENTS.md` is (seen with 1.0.24 and 1.0.102 on fuzzer
/// seed 155, `fuzz.copilot.155`, and a probe launched in `n/ü/b`).
fn between_id(path: &RepoPath, top: &RepoPath) -> String {
    let rel = path.strip_prefix(top).unwrap_or(path.as_str());
    let mut id = String::new();
    for c in rel.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            id.push(c);
        } else if !id.ends_with('-') {
            id.push('-');
        }
    }
    id
}

/// The entry of between-directory `file`, which is not sent because
/// `first`, found before it, has its key ([`between_id`]).
fn same_id(cx: &mut Cx<'_, '_>, file: &AlwaysOn, first: &RepoPath, why: &str) -> Instruction {
    let text = read(cx, &file.path).ok();
    let mut e = entry(
        &file.path,
        &file.dir,
        text.as_deref(),
        (LoadPhase::Startup, Applicability::Shadowed),
        format!("{why}; but its path, in lower case with every run of other characters than letters and digits made `-`, is that of {first}, found first, and Copilot CLI keeps one file per such key, so it does not send this one."),
    );
    e.resolution = Some(Resolution {
        strategy: ResolutionStrategy::Shadowed,
        sources: vec![first.clone()],
    });
    e
}

/// The entry of `file`, of a directory between the git root and the
/// launch directory, which a release before 1.0.11 does not read
/// ([`Profile::ancestor_instructions`]).
fn not_between(cx: &mut Cx<'_, '_>, file: &AlwaysOn) -> Instruction {
    let text = read(cx, &file.path).ok();
    let since = crate::profile::since(crate::profile::Fact::AncestorInstructions);
    entry(
        &file.path,
        &file.dir,
        text.as_deref(),
        (LoadPhase::Startup, Applicability::OutOfScope),
        format!("{} lies between the git root and the launch directory; Copilot CLI reads the files of those directories from {since} on, this release only those of the git root and the launch directory.", place(&file.dir)),
    )
}

/// The `.claude/CLAUDE.md` of the git root and of the launch directory,
/// which Copilot CLI does not read (seen with 1.0.102 and 1.0.24).
fn not_read(cx: &mut Cx<'_, '_>, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    let top = crate::git_root(cx);
    let mut dirs = vec![top.clone()];
    if cwd != top {
        dirs.push(cwd);
    }
    for d in dirs {
        let Some(p) = find(cx, &d, ".claude/CLAUDE.md") else {
            continue;
        };
        let why = format!("Copilot CLI reads `.claude/CLAUDE.md` only in the directories between the git root and the launch directory, not in {} (seen with 1.0.102 and 1.0.24); Claude Code reads it", place(&d));
        let text = read(cx, &p).ok();
        b.others.push(entry(
            &p,
            &d,
            text.as_deref(),
            (LoadPhase::Startup, Applicability::OutOfScope),
            format!("{why}."),
        ));
    }
}

/// The instruction files below the launch directory: 1.0.102 injects one
/// when the agent views a file in its directory or below; 1.0.24 never.
fn below_cwd(cx: &mut Cx<'_, '_>, profile: &Profile, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    let target = cx.context.target_path.clone();
    // The three names in one pass over cwd's subtree, not one pass each.
    cx.repo.prefetch_named_under(NAMES, &cwd);
    let mut files: Vec<RepoPath> = NAMES
        .iter()
        .flat_map(|n| cx.repo.files_named_under(n, &cwd).to_vec())
        .filter(|p| {
            p.parent()
                .is_some_and(|d| strictly_below(&d, &cwd) && d.file_name() != Some(".claude"))
        })
        .collect();
    files.sort();
    for p in files {
        let dir = p.parent().unwrap_or_else(RepoPath::root);
        let (phase, a, why) = if !profile.nested_on_demand {
            (LoadPhase::Startup, Applicability::Excluded, format!("{} lies below the launch directory, and Copilot CLI 1.0.24 reads nothing below it, not even when the agent views a file there", place(&dir)))
        } else if target
            .as_ref()
            .is_some_and(|t| t.starts_with(&dir) && *t != p)
        {
            (LoadPhase::OnDemand, Applicability::Effective, format!("{} lies below the launch directory on the way to targetPath; when the agent views a file there, Copilot CLI injects this file as \"Custom instructions from {p}\" into the next message{}", place(&dir), shared_note(&p)))
        } else {
            (LoadPhase::OnDemand, Applicability::Conditional, format!("{} lies below the launch directory; Copilot CLI injects this file only when the agent views a file there{}", place(&dir), shared_note(&p)))
        };
        let text = read(cx, &p).ok();
        b.others.push(entry(
            &p,
            &dir,
            text.as_deref(),
            (phase, a),
            format!("{why}."),
        ));
    }
}

/// Reads instruction file `path`; a problem is a diagnostic and `Err`.
pub(crate) fn read(cx: &mut Cx<'_, '_>, path: &RepoPath) -> Result<Arc<TextFile>, ()> {
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
                Ok(t)
            }
            Err(e) => {
                cx.diag(problems::read_error(
                    path,
                    &e,
                    "what Copilot CLI reads from it is unknown",
                    SourceFormat::Markdown,
                ));
                Err(())
            }
        },
        Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link } => {
            let what = format!("The instruction file {path}");
            if let Some(d) = problems::link_problem(
                &r,
                link,
                Some(&what),
                "what Copilot CLI reads from it is unknown",
                SourceFormat::Markdown,
            ) {
                cx.diag(d);
            }
            Err(())
        }
        _ => Err(()),
    }
}

/// The entries in the making: effective ones in order, then the others.
#[derive(Default)]
pub(crate) struct Builder {
    effective: Vec<Instruction>,
    pub others: Vec<Instruction>,
}

impl Builder {
    /// Adds always-on `file` (and, in 1.0.102, its imports): effective
    /// unless unreadable, empty or a repeat where the release leaves it
    /// out ([`Profile::always_on_texts`]); `why` starts the reason.
    ///
    /// The file is read once per directory and release on one `Repo`
    /// ([`prepare`]; the git root's files are in every launch directory's
    /// chain); only the comparison with the texts sent before it is made
    /// here.
    pub(crate) fn add(
        &mut self,
        cx: &mut Cx<'_, '_>,
        profile: &Profile,
        file: &AlwaysOn,
        why: &str,
    ) {
        /// The memo key: the file, the reason's start and the release.
        #[derive(Hash, PartialEq, Eq)]
        struct Key(AlwaysOn, String, &'static str);
        let key = Key(file.clone(), why.to_string(), profile.release);
        match cx.memo_read(key, |cx| prepare(cx, profile, file, why)) {
            Prepared::NotSent(e) => self.others.push(e),
            Prepared::Text(s) => self.place(cx, s, profile, file.slot, why),
        }
    }

    /// The effective entry whose text `e` repeats, when the release
    /// leaves `e` out for it ([`AlwaysOnTexts`]): any earlier block
    /// (from 1.0.30, [`Profile::repeats_left_out_anywhere`]), or an
    /// earlier `AGENTS.md`, `CLAUDE.md` or `GEMINI.md` of the same
    /// directory (1.0.24).
    fn repeated(&self, e: &Instruction, profile: &Profile, slot: Slot) -> Option<&Instruction> {
        let named_here = |x: &Instruction| {
            x.applies_to == e.applies_to
                && x.source.path.parent().as_ref() == Some(&x.applies_to)
                && NAMES.iter().any(|n| {
                    x.source
                        .path
                        .file_name()
                        .is_some_and(|f| f.eq_ignore_ascii_case(n))
                })
        };
        // From 1.0.30 (`repeats_left_out_anywhere`, bisected, behaviour
        // `copilot.repeat-without-bom`) any earlier block counts and the
        // texts are compared without a leading byte order mark (case
        // `oracle.copilot_user_blank_repeat.home-copilot-blank-bom`: the
        // user's BOM and line end, then an `AGENTS.md` of one line end,
        // which is not sent; home fuzzer seed 5).
        let anywhere = profile.always_on_texts == AlwaysOnTexts::AnyRepeat
            || profile.repeats_left_out_anywhere;
        let named = slot == Slot::Named && profile.named_repeats_left_out;
        if !anywhere && !named {
            return None;
        }
        let text = |c: &str| {
            if anywhere {
                c.trim_start_matches('\u{feff}').to_string()
            } else {
                c.to_string()
            }
        };
        self.effective.iter().find(|x| {
            x.imported_from.is_none()
                && text(&x.content) == text(&e.content)
                && (anywhere || named_here(x))
        })
    }

    /// Adds the text of `s` and its imports unless it repeats a text sent
    /// already ([`Builder::repeated`]; then it is shadowed, its imports
    /// are not sent and their problems not reported).
    fn place(
        &mut self,
        cx: &mut Cx<'_, '_>,
        s: Sendable,
        profile: &Profile,
        slot: Slot,
        why: &str,
    ) {
        let Sendable {
            text,
            entry: e,
            imports,
            diags,
        } = s;
        let (path, dir) = (&e.source.path, &e.applies_to);
        let startup = (LoadPhase::Startup, Applicability::Effective);
        if let Some(first) = self.repeated(&e, profile, slot) {
            let mut e = entry(path, dir, Some(&text), startup, format!("{why}; its text is identical to that of {}, which Copilot CLI already sends, so it sends this one no more (it names them \"{} + {}\").", first.source.path, first.source.path.file_name().unwrap_or_default(), path.file_name().unwrap_or_default()));
            e.applicability = Applicability::Shadowed;
            e.resolution = Some(Resolution {
                strategy: ResolutionStrategy::Shadowed,
                sources: vec![first.source.path.clone()],
            });
            self.others.push(e);
            return;
        }
        cx.diags.extend(diags);
        self.effective.push(e);
        for mut i in imports {
            if self
                .effective
                .iter()
                .any(|e| e.source.path == i.source.path)
            {
                i.reason.push_str(&format!(" Its text already reached the model as {} itself, so Copilot CLI sends it twice (seen with 1.0.102: a `CLAUDE.md` that is only `@AGENTS.md`, a bridge for Claude Code, repeats `AGENTS.md`).", i.source.path));
            }
            self.effective.push(i);
        }
    }

    /// Adds a finished effective entry (a path-specific file inlined).
    pub(crate) fn push_effective(&mut self, e: Instruction) {
        self.effective.push(e);
    }

    /// How many entries are in the making.
    pub(crate) fn len(&self) -> usize {
        self.effective.len() + self.others.len()
    }

    /// Whether an entry of `path` is in the making.
    pub(crate) fn holds(&self, path: &RepoPath) -> bool {
        self.effective
            .iter()
            .chain(&self.others)
            .any(|e| e.source.path == *path)
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

/// An always-on file as read, before it is compared with the texts sent
/// before it ([`Builder::add`]).
#[derive(Clone)]
enum Prepared {
    /// Unreadable, or empty where blank files are left out: an entry of
    /// what is not sent.
    NotSent(Instruction),
    /// A text sent unless identical to one sent before it.
    Text(Sendable),
}

/// A text Copilot CLI sends unless it sent an identical one before.
#[derive(Clone)]
struct Sendable {
    /// The file's text.
    text: Arc<TextFile>,
    /// Its entry as sent (`content` is the text sent).
    entry: Instruction,
    /// Its imports as sent (1.0.102), in token order.
    imports: Vec<Instruction>,
    /// What reading the imports reported, reported when the text is sent.
    diags: Vec<Diagnostic>,
}

/// Reads always-on file `path` of `dir` and, when it is sent, its
/// imports; `why` starts the reason. What reading the file reports goes
/// to `cx`, what reading its imports reports to the [`Sendable`].
fn prepare(cx: &mut Cx<'_, '_>, profile: &Profile, file: &AlwaysOn, why: &str) -> Prepared {
    let (path, dir) = (&file.path, &file.dir);
    let startup = (LoadPhase::Startup, Applicability::Effective);
    let Ok(text) = read(cx, path) else {
        let e = entry(
            path,
            dir,
            None,
            (LoadPhase::Startup, Applicability::Excluded),
            format!("{why}; the analysis cannot read this one, so what it sends is unknown."),
        );
        return Prepared::NotSent(e);
    };
    let left_out = profile.always_on_texts == AlwaysOnTexts::PerDirectory
        && file.slot != Slot::Between
        && text.bytes == 0;
    if left_out {
        let mut e = entry(
            path,
            dir,
            Some(&text),
            startup,
            format!(
                "{why}; this one is empty (no byte), so Copilot CLI 1.0.24 sends nothing for it."
            ),
        );
        e.applicability = Applicability::Excluded;
        return Prepared::NotSent(e);
    }
    let mut e = entry(path, dir, Some(&text), startup, format!("{why}."));
    if profile.markdown_filter {
        e.content = sent_text(profile, &text.text);
        e.reason.push_str(&filter_note(&text.text));
    }
    let before = cx.diags.len();
    let imports = if profile.imports_inlined && crate::imports::inlined_in(path) {
        crate::imports::expand(cx, path, &text)
    } else {
        Vec::new()
    };
    let diags = cx.diags.split_off(before);
    e.import_spans = imports
        .iter()
        .filter(|i| i.by == *path)
        .map(|i| i.span)
        .collect();
    let imports = imports
        .into_iter()
        .map(|imp| {
            let nested = if imp.by == *path {
                String::new()
            } else {
                format!(", inside the import of {} in the block of {path}", imp.by)
            };
            let mut i = entry(&imp.path, dir, Some(&imp.text), startup, format!("Imported by {} with `@`: Copilot CLI 1.0.102 keeps the token and inserts the imported text after it as `<imported_custom_instruction>` (changelog 1.0.66){nested}.", imp.by));
            i.kind = InstructionKind::Import;
            i.id = format!("copilot:import:{}<{}", imp.path, path);
            i.imported_from = Some(e.id.clone());
            i
        })
        .collect();
    Prepared::Text(Sendable {
        text,
        entry: e,
        imports,
        diags,
    })
}

/// `text` as the release sends it in a `<custom_instruction>` block:
/// 1.0.24 through its Markdown filter ([`crate::filter`]).
pub(crate) fn sent_text(profile: &Profile, text: &str) -> String {
    if profile.markdown_filter {
        crate::filter::markdown(text)
    } else {
        text.to_string()
    }
}

/// The sentence a reason ends with when 1.0.24's Markdown filter changed
/// `text`, saying what of it the model may not reproduce.
pub(crate) fn filter_note(text: &str) -> String {
    let mut note = " Copilot CLI 1.0.24 filters the Markdown before sending it: links and images lose an address that is not an http or https URL, raw HTML outside a short list is removed with its content, and `&`, `<` and `>` arrive as entities.".to_string();
    if let Some(what) = crate::filter::unmodelled(text) {
        note.push_str(&format!(" The text holds {what}, which the filter changes in ways the analysis does not model, so the content shown may differ there."));
    }
    note
}

/// The entry of file `path` applying to `dir` with text `text` (when
/// read), its kind from its name.
pub(crate) fn entry(
    path: &RepoPath,
    dir: &RepoPath,
    text: Option<&TextFile>,
    (phase, applicability): (LoadPhase, Applicability),
    reason: String,
) -> Instruction {
    let mut source = SourceRef::project(path.clone(), SourceFormat::Markdown);
    if let Some(t) = text.filter(|t| t.line_count() > 0) {
        source = source.with_lines(1, t.line_count());
    }
    let kind = kind_of(path);
    Instruction {
        id: format!("copilot:{kind}:{path}"),
        kind,
        source,
        load_phase: phase,
        applicability,
        reason,
        order: None,
        applies_to: dir.clone(),
        imported_from: None,
        import_spans: Vec::<ByteSpan>::new(),
        bytes: text.map(|t| t.bytes).unwrap_or(0),
        paths: None,
        resolution: None,
        truncated_at_byte: None,
        content: text.map(|t| t.text.clone()).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::between_id;
    use playbookdiff_model::RepoPath;

    /// Paths that differ only in characters other than ASCII letters and
    /// digits share a key; case does not count (1.0.24 `app.js`).
    #[test]
    fn between_keys_fold_other_characters() {
        let key = |p: &str| between_id(&RepoPath::new(p).unwrap(), &RepoPath::root());
        assert_eq!(key("n/ü/CLAUDE.md"), key("n/CLAUDE.md"));
        assert_eq!(key("n/ü/CLAUDE.md"), "n-claude-md");
        assert_ne!(key("n/AGENTS.md"), key("n/CLAUDE.md"));
        assert_eq!(key("a b/CLAUDE.md"), key("A/b/claude.md"));
        let top = RepoPath::new("sub").unwrap();
        assert_eq!(
            between_id(&RepoPath::new("sub/x/AGENTS.md").unwrap(), &top),
            "x-agents-md"
        );
    }
}

//! The problems every adapter meets, said one way: links that cannot be
//! followed, entries that are not regular files, files over the read limit
//! or unreadable, invalid UTF-8, directories the walk could not list,
//! invalid JSON, TOML or YAML, front matter that is never closed, and
//! repeated diagnostics.
//!
//! One message voice: each message says what is wrong, why it matters (what
//! the harness does), and what to do, in that order; every repository path
//! is quoted with [`quote`] (a Markdown code span). The adapter supplies
//! only the part that is its own: `effect`, what its harness does with the
//! file (e.g. "Codex skips the skill"), written as a clause that follows
//! "so".

use playbookdiff_model::remedy::code_span;
use playbookdiff_model::{
    AnalysisContext, Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{
    EntryKind, IoKind, Machine, ParseError, Repo, Resolved, SourceError, TextFile, WalkCause,
    WalkProblem,
};
use std::collections::HashSet;
use std::fmt::Display;
use std::sync::Arc;

/// The most directories the walk could not list that are reported one by
/// one; the rest are counted in one more diagnostic.
pub const MAX_LISTING_PROBLEMS: usize = 20;

/// `path` (or any repository name) quoted for a message: a Markdown code
/// span, `` `CLAUDE.md` ``, with a longer fence when the name holds a
/// backtick.
pub fn quote(path: impl Display) -> String {
    code_span(&path.to_string())
}

fn at(path: &RepoPath, format: SourceFormat) -> SourceRef {
    SourceRef {
        scope: SourceScope::of_path(path),
        ..SourceRef::project(path.clone(), format)
    }
}

/// The diagnostic for a path whose resolution `r` is a link problem (a
/// dangling link, a link out of the repository, a loop), pointing at
/// `path`; `None` for any other resolution. `what`, when given, names the
/// item first ("the skill folder `x`"); `effect` says what the harness
/// does with a dangling link or a loop. A link out of the repository gets
/// no `effect`: every harness follows it and reads its target where that
/// exists on the machine, which the analysis never reads (oracle case
/// `claude.c04_above_root_links`: Claude Code 2.1.197 and 2.1.332 load a
/// `.claude/CLAUDE.md`, Codex 0.142.3 and 0.171.0 an `AGENTS.md`, linking
/// outside; OpenCode 1.18.33 and Codex 0.171.0 load `loop/AGENTS.md ->
/// /tmp/outside.md` from `loop`). A caller whose harness skips the link
/// (Claude Code 2.1.332 for a rule link leaving the launch directory)
/// does not call this for it.
pub fn link_problem(
    r: &Resolved,
    path: &RepoPath,
    what: Option<&str>,
    effect: &str,
    format: SourceFormat,
) -> Option<Diagnostic> {
    let what = what.map_or_else(String::new, |w| format!("{w}: "));
    let d = match r {
        Resolved::Dangling { link, target } => Diagnostic::new(
            DiagnosticCode::SymlinkDangling,
            format!(
                "{what}the symbolic link {} points at {}, which does not exist, so {effect}; fix the link's target.",
                quote(link),
                quote(target)
            ),
        ),
        Resolved::Outside { link, target } => Diagnostic::new(
            DiagnosticCode::SymlinkOutsideRepository,
            format!(
                "{what}the symbolic link {} points outside the repository ({}): the agent follows it and receives that file wherever it exists, but its content is not repository state, so PlaybookDiff does not read it and cannot say what the agent receives there; vendor the content into the repository.",
                quote(link),
                quote(target)
            ),
        ),
        Resolved::Loop { link } => {
            Diagnostic::new(DiagnosticCode::SymlinkLoop, loop_message(&what, link, effect))
        }
        Resolved::Inside { .. } | Resolved::Missing => return None,
    };
    Some(d.at(at(path, format)))
}

/// `path` is a symbolic link that loops: the `symlink-loop` diagnostic of
/// [`link_problem`] for a loop at `path` itself, `effect` saying what the
/// harness does with it.
pub fn link_loop(path: &RepoPath, effect: &str, format: SourceFormat) -> Diagnostic {
    Diagnostic::new(DiagnosticCode::SymlinkLoop, loop_message("", path, effect))
        .at(at(path, format))
}

/// The words of a `symlink-loop` diagnostic: `what` (empty, or the item
/// named and a colon) and the looping `link`.
fn loop_message(what: &str, link: &RepoPath, effect: &str) -> String {
    format!(
        "{what}symbolic links loop at {}, so {effect}; break the loop.",
        quote(link)
    )
}

/// `path`, on the machine, is a symbolic link to nothing that exists:
/// the `symlink-dangling` diagnostic a dangling link in the repository
/// gets, `effect` saying what the harness does with it. Its target is not
/// named: it may be an absolute path of the analyser's machine.
pub fn link_dangling(path: &RepoPath, effect: &str, format: SourceFormat) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::SymlinkDangling,
        format!(
            "the symbolic link {} points at nothing that exists, so {effect}; fix the link's target or remove the link.",
            quote(path)
        ),
    )
    .at(at(path, format))
}

/// The symbolic links that loop or dangle which `machine` met while a
/// harness listed or read the user's and the machine's folders
/// ([`Machine::loops_met`], [`Machine::dangling_met`]), each a
/// `symlink-loop` or `symlink-dangling` diagnostic at the link, as the
/// repository walk gives one, except those already in `diags` (the
/// adapter read the entry and reported it). The words name no harness,
/// so that the harnesses reading the same folder share one problem.
///
/// What the agents do with a link to nothing: they skip the entry and
/// start, as the analysis does (oracle case
/// `oracle.local_user_layers.home-dangling-links`: a skill folder `gone
/// -> missing` in each user skills folder and Gemini CLI's extensions,
/// a rule `gone.md -> missing.md`; Claude Code 2.1.197 and 2.1.332 list
/// the real `standup` skill beside it and load no rule, Copilot CLI
/// 1.0.24 and 1.0.102, Gemini CLI 0.34.0 and 0.61.0 and OpenCode 1.18.33
/// list no `gone`, and each starts). Codex is not recorded on it. Each
/// harness's local-mode test holds the diagnostic.
pub fn machine_links(machine: &Machine, diags: &[Diagnostic]) -> Vec<Diagnostic> {
    let reported = |p: &RepoPath| {
        diags.iter().any(|d| {
            matches!(
                d.code,
                DiagnosticCode::SymlinkLoop | DiagnosticCode::SymlinkDangling
            ) && d.source.as_ref().is_some_and(|s| &s.path == p)
        })
    };
    let effect = "the agent reads nothing through it";
    let loops = machine
        .loops_met()
        .into_iter()
        .filter(|p| !reported(p))
        .map(|p| link_loop(&p, effect, SourceFormat::Text));
    let dangling = machine
        .dangling_met()
        .into_iter()
        .filter(|p| !reported(p))
        .map(|p| link_dangling(&p, effect, SourceFormat::Text));
    loops.chain(dangling).collect()
}

/// "a directory" or "a special file (…)" for an entry that is not a
/// regular file.
pub fn kind_phrase(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Dir => "a directory",
        EntryKind::File => "a regular file",
        EntryKind::Symlink => "a symbolic link",
        EntryKind::Other => "a special file (a FIFO, a socket or a device)",
    }
}

/// `path`, which the harness reads as a file, resolves to `kind` (reached
/// through a link when `via_link`): a `not-a-regular-file` diagnostic.
pub fn not_a_file(
    path: &RepoPath,
    kind: EntryKind,
    via_link: bool,
    effect: &str,
    format: SourceFormat,
) -> Diagnostic {
    let link = if via_link {
        " (through a symbolic link)"
    } else {
        ""
    };
    Diagnostic::new(
        DiagnosticCode::NotARegularFile,
        format!(
            "{} is {}{link}, not a regular file, so {effect}; replace it with a regular file or rename it.",
            quote(path),
            kind_phrase(kind)
        ),
    )
    .at(at(path, format))
}

/// What a harness does with a file of the user's that is not valid UTF-8,
/// as the agent was seen to do (each adapter cites its oracle case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonUtf8 {
    /// The harness (its product name) loads the file, each invalid byte
    /// read as U+FFFD, as the analysis reads it (Node's `utf8` decoding).
    Replaced(&'static str),
    /// The harness (its product name) leaves the file out.
    Skipped(&'static str),
    /// Not observed: the agent may read the bytes differently.
    Unobserved,
}

/// How a harness reads one kind of the user's Markdown files
/// ([`read_user_markdown`]).
#[derive(Clone, Copy, Debug)]
pub struct UserMarkdown<'a> {
    /// What the harness does without the file, a clause after "so" (for
    /// a file that cannot be read).
    pub effect: &'a str,
    /// What the harness does with a file that is not valid UTF-8.
    pub non_utf8: NonUtf8,
}

/// The text of the user's Markdown file `path` (at most `limit` bytes),
/// `None` when it is absent, cannot be read, or is not valid UTF-8 and
/// the harness skips such a file (`how.non_utf8`); a failed read is
/// [`read_error`] and invalid UTF-8 is [`invalid_utf8_as`] (their source
/// in the path's layer), pushed to `diags`.
pub fn read_user_markdown(
    machine: &Machine,
    path: &RepoPath,
    limit: u64,
    how: &UserMarkdown<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Arc<TextFile>> {
    match machine.read_text(path, limit) {
        Ok(t) if t.invalid_utf8 => {
            diags.push(invalid_utf8_as(
                path,
                SourceFormat::Markdown,
                &t,
                how.non_utf8,
            ));
            (!matches!(how.non_utf8, NonUtf8::Skipped(_))).then_some(t)
        }
        Ok(t) => Some(t),
        Err(SourceError::NotFound(_)) => None,
        Err(e) => {
            diags.push(read_error(path, &e, how.effect, SourceFormat::Markdown));
            None
        }
    }
}

/// A failed read of `path`: `file-too-large` over the read limit,
/// `not-a-regular-file` for an entry that is no regular file (a FIFO,
/// a socket, a device), else `unreadable`. `effect` says what the harness does without the file.
pub fn read_error(
    path: &RepoPath,
    e: &SourceError,
    effect: &str,
    format: SourceFormat,
) -> Diagnostic {
    let p = quote(path);
    let d = match e {
        SourceError::TooLarge { len, limit, .. } => Diagnostic::new(
            DiagnosticCode::FileTooLarge,
            format!(
                "{p} is {} bytes, over the {}-byte limit, so {effect}; split it or shrink it.",
                playbookdiff_model::remedy::grouped(*len),
                playbookdiff_model::remedy::grouped(*limit)
            ),
        ),
        // Not a regular file (a FIFO, a socket, a device): the code the
        // walk of a repository gives it, in every layer.
        SourceError::Io {
            message,
            kind: kind @ IoKind::WrongKind,
            ..
        } => Diagnostic::new(
            DiagnosticCode::NotARegularFile,
            format!(
                "{p} could not be read ({message}), so {effect}; {}.",
                io_remedy(*kind, "it", "its")
            ),
        ),
        // A link loop: the code and words of a loop the repository walk
        // meets, in every layer.
        SourceError::Io {
            kind: IoKind::Loop, ..
        } => return link_loop(path, effect, format),
        SourceError::Io { message, kind, .. } => Diagnostic::new(
            DiagnosticCode::Unreadable,
            format!(
                "{p} could not be read ({message}), so {effect}; {}.",
                io_remedy(*kind, "it", "its")
            ),
        ),
        SourceError::NotFound(_) => Diagnostic::new(
            DiagnosticCode::Unreadable,
            format!("{p} disappeared while it was analysed, so {effect}; run again."),
        ),
    };
    d.at(at(path, format))
}

/// What to do about an entry that could not be read for `kind`, with
/// `it` / `its` naming the entry ("fix its permissions", "fetch it with
/// `git lfs pull`").
pub fn io_remedy(kind: IoKind, it: &str, its: &str) -> String {
    match kind {
        IoKind::Denied => format!("fix {its} permissions"),
        IoKind::WrongKind => format!("replace {it} with a regular file"),
        IoKind::LfsPointer => {
            format!("fetch {its} content with `git lfs pull`, or commit {it} without LFS")
        }
        IoKind::GitObject => "check the repository with `git fsck`".to_string(),
        IoKind::Loop => "break the loop".to_string(),
        IoKind::Other => format!("check that {it} can be read, for example with `cat`"),
    }
}

/// `path`, read as `text`, is not valid UTF-8: an `invalid-utf8`
/// diagnostic at the line of the first invalid byte (1-based), for a
/// harness whose handling was not observed ([`NonUtf8::Unobserved`]).
pub fn invalid_utf8(path: &RepoPath, format: SourceFormat, text: &TextFile) -> Diagnostic {
    invalid_utf8_as(path, format, text, NonUtf8::Unobserved)
}

/// [`invalid_utf8_as`] when `text` (read from `path`) is not valid UTF-8,
/// else `None`.
pub fn utf8_problem(
    path: &RepoPath,
    format: SourceFormat,
    text: &TextFile,
    how: NonUtf8,
) -> Option<Diagnostic> {
    text.invalid_utf8
        .then(|| invalid_utf8_as(path, format, text, how))
}

/// `path`, read as `text`, is not valid UTF-8, and the harness handles
/// such a file as `how` says: an `invalid-utf8` diagnostic at the line of
/// the first invalid byte (1-based).
pub fn invalid_utf8_as(
    path: &RepoPath,
    format: SourceFormat,
    text: &TextFile,
    how: NonUtf8,
) -> Diagnostic {
    let line = text.invalid_utf8_line();
    let mut source = at(path, format);
    if let Some(n) = line {
        source = source.with_lines(n, n);
    }
    let effect = match how {
        NonUtf8::Replaced(h) => format!("{h} reads each invalid byte as U+FFFD"),
        NonUtf8::Skipped(h) => format!("{h} does not load it"),
        NonUtf8::Unobserved => {
            "the analysis reads invalid bytes as U+FFFD and the agent may read them differently"
                .to_string()
        }
    };
    Diagnostic::new(
        DiagnosticCode::InvalidUtf8,
        format!(
            "{}{} is not valid UTF-8, so {effect}; save it as UTF-8.",
            quote(path),
            line.map(|n| format!(" (line {n})")).unwrap_or_default()
        ),
    )
    .at(source)
}

/// The directories the walk of `repo` could not list, at most
/// [`MAX_LISTING_PROBLEMS`] one by one and the rest counted, as
/// `unreadable` diagnostics (a submodule as `submodule-not-analysed`). `harness` is the product name.
pub fn listing_problems(repo: &Repo<'_>, harness: &str) -> Vec<Diagnostic> {
    let problems = repo.walk_problems();
    let mut out: Vec<Diagnostic> = problems
        .iter()
        .take(MAX_LISTING_PROBLEMS)
        .map(|p| {
            let code = match p.cause {
                WalkCause::Submodule => DiagnosticCode::SubmoduleNotAnalysed,
                _ => DiagnosticCode::Unreadable,
            };
            let d = Diagnostic::new(code, walk_message(p, harness));
            // An entry without a path of its own (a name that is not
            // UTF-8) is named by its lossy name, marked as such; a
            // directory (no file, so no source) by its path, so that the
            // report shows where and two directories stay two problems.
            match &p.entry {
                Some(name) if p.path.is_root() => d.about(format!("{name} (name not UTF-8)")),
                Some(name) => d.about(format!("{}/{name} (name not UTF-8)", p.path)),
                None => d.about(p.path.to_string()),
            }
        })
        .collect();
    if problems.len() > MAX_LISTING_PROBLEMS {
        out.push(Diagnostic::new(
            DiagnosticCode::Unreadable,
            format!(
                "{} could not be shown, so what {harness} would find there is unknown; each of the first {MAX_LISTING_PROBLEMS} above says why and what to do.",
                playbookdiff_model::remedy::count(problems.len() - MAX_LISTING_PROBLEMS, "more directory or entry", "more directories or entries")
            ),
        ));
    }
    out
}

/// The message of one [`WalkProblem`], its advice chosen by its cause.
fn walk_message(p: &WalkProblem, harness: &str) -> String {
    let q = quote(&p.path);
    let why = &p.message;
    match p.cause {
        WalkCause::Unlisted(kind) => format!(
            "{q} could not be listed ({why}), so what {harness} would find below it is unknown; {}.",
            io_remedy(kind, "it", "its")
        ),
        WalkCause::NonUtf8Name => format!(
            "In {q}, {why}, so that entry and what is below it are not analysed: what {harness} would find there is unknown, and a program that reads names as UTF-8 text cannot open it by that name either; rename it with a UTF-8 name."
        ),
        WalkCause::TooManyEntries => format!(
            "{q} was not read whole ({why}), so what {harness} would find in the rest is unknown; analyse a smaller directory, or exclude generated trees in `playbookdiff.toml`."
        ),
        WalkCause::Submodule => format!(
            "{q} is {why}, so what {harness} would find in it is unknown; analyse the submodule as a repository of its own."
        ),
        WalkCause::UnsafeName => format!(
            "{q}: {why}, and what {harness} would find there is unknown; rename the entry in the repository."
        ),
    }
}

/// `path` is not valid `language` (`JSON`, `JSONC`, `TOML`, `YAML`), as
/// `error` says (the parser's words, on its 1-based line when known):
/// `invalid-json` (JSON and JSONC), `invalid-toml` or, for YAML,
/// `invalid-yaml`.
pub fn invalid_syntax(
    path: &RepoPath,
    language: &str,
    error: &ParseError,
    effect: &str,
    format: SourceFormat,
) -> Diagnostic {
    let code = match language {
        "JSON" | "JSONC" => DiagnosticCode::InvalidJson,
        "TOML" => DiagnosticCode::InvalidToml,
        _ => DiagnosticCode::InvalidYaml,
    };
    let on = error
        .line
        .map_or_else(String::new, |l| format!(" on line {l}"));
    let why = &error.message;
    Diagnostic::new(
        code,
        format!(
            "{} is not valid {language}{on} ({why}), so {effect}; fix the {language}.",
            quote(path)
        ),
    )
    .at(error.at_line(at(path, format)))
}

/// `path` opens front matter with `---` on line 1 but no later `---` line
/// closes it: an `invalid-frontmatter` diagnostic at line 1.
pub fn unclosed_front_matter(path: &RepoPath, effect: &str) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::InvalidFrontmatter,
        format!(
            "{} opens front matter with `---` on line 1 but no later `---` line closes it, so {effect}; close the front matter with a `---` line.",
            quote(path)
        ),
    )
    .at(at(path, SourceFormat::Markdown).with_lines(1, 1))
}

/// cwd names no directory of the repository, so `harness` (the product
/// name) cannot start there: an `unreadable` diagnostic.
pub fn cwd_not_a_directory(cwd: &RepoPath, harness: &str) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::Unreadable,
        format!(
            "cwd {} is not a directory in the repository, so {harness} cannot start there; pass an existing directory as --cwd.",
            quote(cwd)
        ),
    )
}

/// The problems every compilation starts with, in this order: the
/// directories the walk could not list ([`listing_problems`]) and, when
/// cwd names no directory of the repository,
/// [`cwd_not_a_directory`]. `harness` is the product name.
pub fn at_start(repo: &Repo<'_>, context: &AnalysisContext, harness: &str) -> Vec<Diagnostic> {
    let mut out = listing_problems(repo, harness);
    if !repo.is_dir(&context.cwd) {
        out.push(cwd_not_a_directory(&context.cwd, harness));
    }
    out
}

/// A configuration layer outside the repository that the analysis never
/// reads (user, managed or global files): `what` names it with its usual
/// locations, `mode` is the analysis mode (`repo`, …), `effect` says what
/// the layer can change, `todo` what to do. `code` is one of the
/// `*-config-unavailable` codes. The message reads "{what}: not read in
/// {mode} mode, yet {effect}; {todo}." (`what` may be singular or plural).
pub fn unread_layer(
    code: DiagnosticCode,
    what: &str,
    mode: &str,
    effect: &str,
    todo: &str,
) -> Diagnostic {
    // Joined rather than formatted: every compilation reports several.
    Diagnostic::new(
        code,
        [
            what,
            ": not read in ",
            mode,
            " mode, yet ",
            effect,
            "; ",
            todo,
            ".",
        ]
        .concat(),
    )
}

/// A configuration layer outside the repository that the analysis never
/// reads, in a harness's words: the fields of [`unread_layer`] but the
/// mode, which the analysis context gives
/// ([`crate::Compilation::report_unread_layers`]).
#[derive(Clone, Copy, Debug)]
pub struct UnreadLayer {
    /// One of the `*-config-unavailable` codes.
    pub code: DiagnosticCode,
    /// The layer, with its usual locations.
    pub what: &'static str,
    /// What the layer can change.
    pub effect: &'static str,
    /// What to do.
    pub todo: &'static str,
}

/// `diagnostics` without repeats (same code, severity, message and source),
/// first occurrence kept, order otherwise unchanged.
///
/// The diagnostics are compared in place (no key is copied or formatted):
/// every compilation of `check --all-dirs` runs this over all its
/// diagnostics.
pub fn dedupe(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let keep: Vec<bool> = {
        let mut seen: HashSet<DedupeKey<'_>> = HashSet::with_capacity(diagnostics.len());
        diagnostics
            .iter()
            .map(|d| seen.insert(DedupeKey(d)))
            .collect()
    };
    diagnostics
        .into_iter()
        .zip(keep)
        .filter_map(|(d, k)| k.then_some(d))
        .collect()
}

/// What makes two diagnostics repeats for [`dedupe`]: the same code,
/// severity, message and source (the subject is not compared).
struct DedupeKey<'a>(&'a Diagnostic);

impl PartialEq for DedupeKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        a.code == b.code
            && a.severity == b.severity
            && a.message == b.message
            && a.source == b.source
    }
}

impl Eq for DedupeKey<'_> {}

impl std::hash::Hash for DedupeKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // A subset of the compared fields: equal keys hash alike.
        self.0.code.hash(state);
        self.0.message.hash(state);
        self.0.source.as_ref().map(|s| &s.path).hash(state);
    }
}

/// How a harness refuses a configuration and what follows, in its own
/// words, for [`config_refused`], whose message reads "`refuses` OWNER
/// `noun` and does not start from cwd `cwd` ("`prints`"): `reasons`.
/// `then`; fix the named keys." (or "fix the syntax at `file`:line" when a
/// file does not parse), OWNER naming the layers of the refused files:
/// `project` for the project's, "the user's", "the managed", or "the
/// merged" for files of several layers.
#[derive(Clone, Copy, Debug)]
pub struct Refusal {
    /// What the agent does, naming it ("Codex refuses to load").
    pub refuses: &'static str,
    /// What it refuses ("configuration", "settings").
    pub noun: &'static str,
    /// The owner of the project's layer, for a refusal of the project's
    /// files only ("this project's", "this workspace's").
    pub project: &'static str,
    /// What the agent prints when it refuses a file's syntax or keys,
    /// quoted in the message; not quoted when every refusal is of a file
    /// that is no regular file, which fails before the agent says so.
    pub prints: &'static str,
    /// What the analysis shows in consequence, a sentence without its
    /// full stop.
    pub then: &'static str,
}

/// One reason a harness refuses its configuration: a short clause (naming
/// the key, or the file that does not parse or cannot be read), where it
/// stands when known, and what kind of cause it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The short reason ("`mcp_servers.t.args` is 1, not a string").
    pub why: String,
    /// The offending file and lines.
    pub at: Option<SourceRef>,
    /// What is wrong: a key, the file's syntax, or the file itself.
    pub cause: RefusedCause,
    /// What the agent prints for this refusal when it is not the
    /// harness's usual words ([`Refusal::prints`]): a setting the release
    /// refuses with a message of its own.
    pub said: Option<&'static str>,
}

/// What a refusal is about, which decides what the message says to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedCause {
    /// A key or value ("fix the named keys").
    Key,
    /// A file that does not parse: a syntax error or bytes that are not
    /// UTF-8, which no key can fix ("fix the syntax at `file`:line").
    Syntax,
    /// A file the agent cannot read at all: a directory or a special file
    /// (a FIFO, a socket, a device) where a file belongs ("replace `file`
    /// with a regular file").
    NotAFile,
}

/// The one `config-refused` error for the refusals a compilation collected
/// from launch directory `cwd`, or `None` when there are none: the reasons
/// joined with "; " in the harness's `words`, pointing at the first
/// refusal that has a source. It ends with what to do: "fix the syntax at
/// `file`:line" for a file that does not parse (the first such refusal
/// with a source), "fix the named keys" for the others, both when there
/// are both.
pub fn config_refused(refusals: &[Refused], cwd: &RepoPath, words: &Refusal) -> Option<Diagnostic> {
    if refusals.is_empty() {
        return None;
    }
    let reasons: Vec<&str> = refusals.iter().map(|r| r.why.as_str()).collect();
    let Refusal {
        refuses,
        noun,
        prints,
        then,
        ..
    } = words;
    let owner = refused_owner(refusals, words);
    let todo = refusal_todo(refusals);
    // A file that is no regular file fails the read before the agent can
    // print its refusal: a directory gives another error, a FIFO blocks.
    let printed = if let Some(said) = refusals.iter().find_map(|r| r.said) {
        format!(" (\"{said}\")")
    } else if refusals.iter().all(|r| r.cause == RefusedCause::NotAFile) {
        String::new()
    } else {
        format!(" (\"{prints}\")")
    };
    let message = format!(
        "{refuses} {owner} {noun} and does not start from cwd {}{printed}: {}. {then}; {todo}.",
        quote(cwd),
        reasons.join("; ")
    );
    let mut d = Diagnostic::new(DiagnosticCode::ConfigRefused, message);
    d.source = refusals.iter().find_map(|r| r.at.clone());
    Some(d)
}

/// Whose configuration a refusal names, by the layers of the refused
/// files (their sources' scope): the project's (`words.project`), "the
/// user's" or "the managed" when every file is of that layer, "the
/// merged" when they are of several (a refusal without a file counts as
/// the project's).
fn refused_owner(refusals: &[Refused], words: &Refusal) -> &'static str {
    let scope = |r: &Refused| r.at.as_ref().map_or(SourceScope::Project, |s| s.scope);
    let first = refusals.first().map_or(SourceScope::Project, scope);
    if refusals.iter().any(|r| scope(r) != first) {
        return "the merged";
    }
    match first {
        SourceScope::User | SourceScope::Local => "the user's",
        SourceScope::Managed => "the managed",
        SourceScope::Plugin => "a plugin's",
        SourceScope::Project | SourceScope::Builtin => words.project,
    }
}

/// What a `config-refused` message says to do: "fix the syntax at
/// `file`:line" for a file that does not parse (the first such refusal
/// with a source), "fix the named keys" for the others, both when there
/// are both; "replace `file` with a regular file" first for a file that
/// cannot be read.
fn refusal_todo(refusals: &[Refused]) -> String {
    let first_at = |cause: RefusedCause, lines: bool| {
        refusals.iter().filter(|r| r.cause == cause).find_map(|r| {
            r.at.as_ref().map(|s| {
                let line = match s.lines {
                    Some(l) if lines => format!(":{}", l.start),
                    _ => String::new(),
                };
                quote(format!("{}{line}", s.path))
            })
        })
    };
    let syntax_at = first_at(RefusedCause::Syntax, true);
    let keys = refusals.iter().any(|r| r.cause == RefusedCause::Key);
    let syntax = refusals.iter().any(|r| r.cause == RefusedCause::Syntax);
    let fix = match (syntax, syntax_at, keys) {
        (false, _, false) => None,
        (true, Some(at), false) => Some(format!("fix the syntax at {at}")),
        (true, Some(at), true) => Some(format!("fix the syntax at {at} and the named keys")),
        (true, None, false) => Some("fix the syntax of the named file".to_string()),
        (true, None, true) => {
            Some("fix the syntax of the named file and the named keys".to_string())
        }
        (false, _, true) => Some("fix the named keys".to_string()),
    };
    if !refusals.iter().any(|r| r.cause == RefusedCause::NotAFile) {
        return fix.unwrap_or_default();
    }
    let replace = match first_at(RefusedCause::NotAFile, false) {
        Some(at) => format!("replace {at} with a regular file"),
        None => "replace the named file with a regular file".to_string(),
    };
    match fix {
        Some(fix) => format!("{replace}, and {fix}"),
        None => replace,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rp(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    #[test]
    fn a_problem_of_a_machine_file_is_in_its_layer() {
        let denied = |p: &RepoPath| SourceError::Io {
            path: p.clone(),
            message: "denied".into(),
            kind: IoKind::Denied,
        };
        for (path, scope) in [
            (rp("a/AGENTS.md"), SourceScope::Project),
            (
                RepoPath::on_machine("~", ".gemini/GEMINI.md").unwrap(),
                SourceScope::User,
            ),
            (
                RepoPath::on_machine("/etc/codex", "AGENTS.md").unwrap(),
                SourceScope::Managed,
            ),
        ] {
            let d = read_error(&path, &denied(&path), "x", SourceFormat::Markdown);
            assert_eq!(d.source.map(|s| s.scope), Some(scope), "{path}");
        }
    }

    /// A refusal names the layer of the refused files: the project's in
    /// the harness's words, the user's, the managed, or the merged one.
    #[test]
    fn a_refusal_names_whose_configuration_it_is() {
        let words = Refusal {
            refuses: "X refuses",
            noun: "settings",
            project: "this workspace's",
            prints: "p",
            then: "t",
        };
        let at = |path: &str| {
            let p = rp(path);
            Refused {
                said: None,
                why: "w".into(),
                at: Some(SourceRef {
                    scope: SourceScope::of_path(&p),
                    ..SourceRef::project(p, SourceFormat::Json)
                }),
                cause: RefusedCause::Syntax,
            }
        };
        let user = Refused {
            at: Some(SourceRef {
                scope: SourceScope::User,
                ..SourceRef::project(rp("u.json"), SourceFormat::Json)
            }),
            ..at("u.json")
        };
        let message = |rs: &[Refused]| config_refused(rs, &rp("."), &words).unwrap().message;
        let project = at(".x/settings.json");
        assert!(message(std::slice::from_ref(&project))
            .starts_with("X refuses this workspace's settings"));
        assert!(message(std::slice::from_ref(&user)).starts_with("X refuses the user's settings"));
        assert!(message(&[project, user]).starts_with("X refuses the merged settings"));
    }

    /// Each cause of a refusal says what to do, first for a file that
    /// cannot be read; keys and syntax keep their words.
    #[test]
    fn a_refusal_says_what_to_do_for_each_cause() {
        let refused = |cause, path: &str| Refused {
            said: None,
            why: "w".into(),
            at: Some(SourceRef::project(rp(path), SourceFormat::Toml).with_lines(2, 2)),
            cause,
        };
        let words = Refusal {
            refuses: "X refuses",
            noun: "configuration",
            project: "this project's",
            prints: "p",
            then: "t",
        };
        let todo = |rs: &[Refused]| {
            config_refused(rs, &rp("a"), &words)
                .expect("a refusal")
                .message
        };
        let file = refused(RefusedCause::NotAFile, ".codex/config.toml");
        let key = refused(RefusedCause::Key, "b.toml");
        let syntax = refused(RefusedCause::Syntax, "c.toml");
        assert!(todo(std::slice::from_ref(&file))
            .ends_with("; replace `.codex/config.toml` with a regular file."));
        assert!(todo(&[file.clone(), key.clone()]).ends_with(
            "; replace `.codex/config.toml` with a regular file, and fix the named keys."
        ));
        assert!(todo(std::slice::from_ref(&key)).ends_with("; fix the named keys."));
        assert!(todo(std::slice::from_ref(&key)).contains("(\"p\")"));
        // A refusal in the agent's own words is quoted instead.
        let own = Refused {
            said: Some("no longer supported"),
            ..key.clone()
        };
        let message = todo(&[key.clone(), own]);
        assert!(message.contains("(\"no longer supported\")"), "{message}");
        assert!(!message.contains("(\"p\")"), "{message}");
        assert!(todo(&[syntax.clone(), key])
            .ends_with("; fix the syntax at `c.toml:2` and the named keys."));
        assert!(todo(&[syntax, file]).ends_with(
            "; replace `.codex/config.toml` with a regular file, and fix the syntax at `c.toml:2`."
        ));
    }

    /// Each cause of an unreadable entry gets its own advice: only a
    /// refusal of the operating system says "permissions"; a name that is
    /// not UTF-8 says to rename it.
    #[test]
    fn each_cause_of_an_unreadable_entry_has_its_own_advice() {
        let walk = |cause: WalkCause, message: &str| {
            walk_message(
                &WalkProblem {
                    path: rp("docs"),
                    message: message.into(),
                    cause,
                    entry: None,
                },
                "Codex",
            )
        };
        let causes = [
            walk(WalkCause::Unlisted(IoKind::Denied), "permission denied"),
            walk(WalkCause::Unlisted(IoKind::Other), "file name too long"),
            walk(
                WalkCause::Unlisted(IoKind::GitObject),
                "cannot read its tree",
            ),
            walk(
                WalkCause::NonUtf8Name,
                "the name `a\u{fffd}b` is not valid UTF-8",
            ),
            walk(WalkCause::TooManyEntries, "more than 10 entries"),
            walk(WalkCause::Submodule, "a submodule (commit abc1234)"),
            walk(WalkCause::UnsafeName, "an entry named `..`"),
        ];
        let reads = |kind: IoKind| {
            read_error(
                &rp("AGENTS.md"),
                &SourceError::Io {
                    path: rp("AGENTS.md"),
                    message: "x".into(),
                    kind,
                },
                "its text is unknown",
                SourceFormat::Markdown,
            )
            .message
        };
        let reads = [
            reads(IoKind::Denied),
            reads(IoKind::WrongKind),
            reads(IoKind::LfsPointer),
            reads(IoKind::GitObject),
            reads(IoKind::Other),
        ];
        let advice = |m: &String| m.rsplit_once("; ").expect(m).1.to_string();
        for (i, m) in causes.iter().chain(reads.iter()).enumerate() {
            let permissions = m.contains("permissions");
            assert_eq!(permissions, i == 0 || i == causes.len(), "{m}");
        }
        assert!(
            advice(&causes[3]).contains("rename it with a UTF-8 name"),
            "{}",
            causes[3]
        );
        assert!(causes[3].contains("not valid UTF-8"), "{}", causes[3]);
        assert!(reads[2].contains("git lfs pull"), "{}", reads[2]);
        let mut all: Vec<String> = causes.iter().chain(reads.iter()).map(advice).collect();
        let n = all.len();
        all.sort();
        all.dedup();
        // A directory and a file share the words of a cause they share
        // (permissions, a git object, another error of the system).
        assert_eq!(all.len(), n - 3, "{all:#?}");
    }

    #[test]
    fn every_message_quotes_its_paths_and_ends_with_what_to_do() {
        let p = rp("a/CLAUDE.md");
        let link = rp("a");
        let f = SourceFormat::Markdown;
        let ds = vec![
            link_problem(
                &Resolved::Dangling {
                    link: link.clone(),
                    target: "../x".into(),
                },
                &p,
                None,
                "nothing is loaded",
                f,
            )
            .unwrap(),
            link_problem(
                &Resolved::Outside {
                    link: link.clone(),
                    target: "/etc".into(),
                },
                &p,
                Some("the skill folder `a`"),
                "nothing is loaded",
                f,
            )
            .unwrap(),
            link_problem(&Resolved::Loop { link }, &p, None, "nothing is loaded", f).unwrap(),
            not_a_file(&p, EntryKind::Dir, false, "nothing is loaded", f),
            read_error(
                &p,
                &SourceError::TooLarge {
                    path: p.clone(),
                    len: 9,
                    limit: 4,
                },
                "nothing is loaded",
                f,
            ),
            invalid_utf8(&p, f, &TextFile::from_bytes(b"a\n\xff\n")),
            invalid_syntax(
                &p,
                "JSON",
                &ParseError::on_line("expected `}`", 3),
                "nothing is loaded",
                f,
            ),
            unclosed_front_matter(&p, "the file has no metadata"),
            invalid_syntax(
                &p,
                "JSONC",
                &ParseError::on_line("expected `,`", 2),
                "nothing is loaded",
                f,
            ),
            cwd_not_a_directory(&p, "Codex").at(at(&p, f)),
        ];
        for d in &ds {
            assert!(d.message.contains('`'), "{}", d.message);
            assert!(!d.message.contains(" a/CLAUDE.md "), "{}", d.message);
            let (_, last) = d.message.rsplit_once("; ").expect("what to do last");
            assert!(last.ends_with('.'), "{}", d.message);
            assert_eq!(
                d.source.as_ref().map(|s| s.path.as_str()),
                Some("a/CLAUDE.md")
            );
        }
        assert_eq!(ds[6].code, DiagnosticCode::InvalidJson);
        assert!(ds[6].message.contains("on line 3"), "{}", ds[6].message);
        assert_eq!(ds[8].code, DiagnosticCode::InvalidJson);
        assert!(
            ds[8].message.contains("not valid JSONC"),
            "{}",
            ds[8].message
        );
        let d = unread_layer(
            DiagnosticCode::ManagedConfigUnavailable,
            "Managed configuration (`/etc/x.json`)",
            "repo",
            "it can override any repository value",
            "ask the administrator what it enforces",
        );
        assert_eq!(d.message, "Managed configuration (`/etc/x.json`): not read in repo mode, yet it can override any repository value; ask the administrator what it enforces.");
        assert_eq!(quote("a`b"), "``a`b``");
        assert!(link_problem(&Resolved::Missing, &p, None, "x", f).is_none());
    }

    #[test]
    fn dedupe_keeps_the_first_of_equal_diagnostics() {
        let a = Diagnostic::new(DiagnosticCode::ImportCycle, "x");
        let b = Diagnostic::new(DiagnosticCode::ImportCycle, "y");
        let out = dedupe(vec![a.clone(), b.clone(), a.clone()]);
        assert_eq!(out, vec![a, b]);
    }

    #[test]
    fn dedupe_keeps_diagnostics_that_differ_in_severity_or_source_only() {
        let path = RepoPath::new("a/SKILL.md").unwrap();
        let bare = Diagnostic::new(DiagnosticCode::ImportCycle, "x");
        let warning = bare
            .clone()
            .with_severity(playbookdiff_model::Severity::Error);
        let at = bare
            .clone()
            .at(SourceRef::project(path.clone(), SourceFormat::Markdown));
        let at_lines = bare
            .clone()
            .at(SourceRef::project(path, SourceFormat::Markdown).with_lines(1, 2));
        let mut subject = at.clone();
        subject.subject = Some("s".to_string());
        let all = vec![
            bare.clone(),
            warning.clone(),
            at.clone(),
            at_lines.clone(),
            subject,
            at_lines.clone(),
            bare.clone(),
        ];
        assert_eq!(dedupe(all), vec![bare, warning, at, at_lines]);
    }
}

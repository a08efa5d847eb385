//! The one table of diagnostic codes.
//!
//! Every code is declared once in `declare_codes!` below with its default
//! severity, its kind, the harness that owns it (if one does), the version
//! that added it, a one-line summary and its documentation; `docs/diagnostics.md`
//! is generated from this table and a test fails when it is stale. Codes are
//! stable kebab-case identifiers and are never reused for another meaning.

use crate::SourceRef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How serious a diagnostic is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Something is wrong and changes what the agent receives.
    Error,
    /// Probably not what the author meant, or a real risk.
    Warning,
    /// A fact or a limit of the analysis worth knowing.
    Info,
}

impl Severity {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about the analysed repository or about the analysis' limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// Stable kebab-case code from the diagnostic table.
    pub code: DiagnosticCode,
    /// How serious it is.
    pub severity: Severity,
    /// One sentence or two: what, why it matters, what to do.
    pub message: String,
    /// The file (and lines) the finding is about, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
    /// What in that file it is about, when one file can hold several
    /// problems of one code: an MCP server's name (`github`), or a key
    /// path below it (`github.env.TOKEN`). With `code` and `source.path` it
    /// is the problem's identity across launch directories and revisions
    /// (`diff`'s problems introduced and resolved). Absent when the file
    /// holds at most one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: DiagnosticCode, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            source: None,
            subject: None,
        }
    }

    /// The same diagnostic about `subject` within its file (see
    /// [`Diagnostic::subject`]).
    pub fn about(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// The same diagnostic pointing at `source`.
    pub fn at(mut self, source: SourceRef) -> Self {
        self.source = Some(source);
        self
    }

    /// The same diagnostic with another severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
}

/// What a diagnostic is about: the table's `kind` column. Renderers group
/// by it (for instance, "what the analysis cannot know" lists the
/// [`DiagnosticKind::Unknowable`] and [`DiagnosticKind::Assumption`] codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiagnosticKind {
    /// Something in the repository is wrong or risky: a malformed or
    /// unreadable file, a broken link, a budget at risk. Fixing the
    /// repository removes it.
    RepositoryProblem,
    /// State outside the repository that no repository analysis can read:
    /// user, managed and personal layers, runtime and approval state.
    Unknowable,
    /// A premise about state outside the repository that the result
    /// depends on (project trust, project root).
    Assumption,
    /// An item applies only under something the context does not fix
    /// (which files are touched, an approval).
    Conditional,
    /// A harness rule that changes what is received, reported where it
    /// applies (an exclusion, an override, a layer not applied).
    Behaviour,
    /// A limit of the analysis: behaviour that is undocumented, disputed
    /// or not modelled, where the analysis picks one reading and says so.
    Limit,
}

impl DiagnosticKind {
    /// Every kind, in the order the reference lists them.
    pub const ALL: [DiagnosticKind; 6] = [
        DiagnosticKind::RepositoryProblem,
        DiagnosticKind::Unknowable,
        DiagnosticKind::Assumption,
        DiagnosticKind::Conditional,
        DiagnosticKind::Behaviour,
        DiagnosticKind::Limit,
    ];

    /// What the kind means, one sentence for the generated reference.
    pub fn meaning(self) -> &'static str {
        match self {
            DiagnosticKind::RepositoryProblem => "something in the repository is wrong or risky; fixing the repository removes it.",
            DiagnosticKind::Unknowable => "state outside the repository (user, managed and personal layers, runtime and approval state) that no repository analysis can read.",
            DiagnosticKind::Assumption => "a premise about state outside the repository that the result depends on.",
            DiagnosticKind::Conditional => "an item applies only under something the context does not fix (files touched, an approval).",
            DiagnosticKind::Behaviour => "a harness rule that changes what is received, reported where it applies.",
            DiagnosticKind::Limit => "behaviour that is undocumented, disputed or not modelled; the analysis picks one reading and says so.",
        }
    }

    /// A short kebab-case name for tables and the generated reference.
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticKind::RepositoryProblem => "repository-problem",
            DiagnosticKind::Unknowable => "unknowable",
            DiagnosticKind::Assumption => "assumption",
            DiagnosticKind::Conditional => "conditional",
            DiagnosticKind::Behaviour => "behaviour",
            DiagnosticKind::Limit => "limit",
        }
    }

    /// True for what no repository analysis can know: unknowable state and
    /// the assumptions made about it.
    pub fn cannot_be_known(self) -> bool {
        matches!(
            self,
            DiagnosticKind::Unknowable | DiagnosticKind::Assumption
        )
    }
}

macro_rules! owner {
    (any) => {
        None
    };
    ($id:literal) => {
        Some($id)
    };
}

/// Declares the table. One row per code:
/// `Variant = "code", Severity, Kind, owner, "since", "summary";` where
/// `owner` is `any` or the id of the one harness whose rule the code
/// describes (data for the generated reference; nothing branches on it),
/// and `since` is the PlaybookDiff version that added the code.
macro_rules! declare_codes {
    ($( $(#[doc = $doc:literal])* $variant:ident = $code:literal, $sev:ident, $kind:ident, $owner:tt, $since:literal, $summary:literal; )*) => {
        /// A stable diagnostic code. Serialized as its kebab-case string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
        pub enum DiagnosticCode {
            $( $(#[doc = $doc])* #[serde(rename = $code)] $variant, )*
        }

        impl DiagnosticCode {
            /// Every code, in table order.
            pub const ALL: &'static [DiagnosticCode] = &[ $( DiagnosticCode::$variant, )* ];

            /// The kebab-case code.
            pub fn as_str(self) -> &'static str {
                match self { $( DiagnosticCode::$variant => $code, )* }
            }

            /// The default severity.
            pub fn severity(self) -> Severity {
                match self { $( DiagnosticCode::$variant => Severity::$sev, )* }
            }

            /// What the diagnostic is about.
            pub fn kind(self) -> DiagnosticKind {
                match self { $( DiagnosticCode::$variant => DiagnosticKind::$kind, )* }
            }

            /// The id of the one harness whose rule the code describes
            /// (e.g. `codex`), or `None` when any harness may report it.
            pub fn owner(self) -> Option<&'static str> {
                match self { $( DiagnosticCode::$variant => owner!($owner), )* }
            }

            /// The PlaybookDiff version that added the code, e.g. `0.1.0`.
            pub fn since(self) -> &'static str {
                match self { $( DiagnosticCode::$variant => $since, )* }
            }

            /// A one-line summary.
            pub fn summary(self) -> &'static str {
                match self { $( DiagnosticCode::$variant => $summary, )* }
            }

            /// The documentation: what it means, why it matters, what to do,
            /// and the source of the behaviour.
            pub fn documentation(self) -> &'static str {
                match self { $( DiagnosticCode::$variant => concat!($($doc, "\n"),*), )* }
            }
        }
    };
}

declare_codes! {
    // ----- Version profiles -----
    /// The agent version asked for (`--agent-version`) is not one the
    /// adapter has been checked against, so the analysis applies the nearest
    /// older profiled version (or the oldest, for a request older than every
    /// profile). Behaviour that changed between the two releases may differ.
    /// Ask for a profiled version (listed in the message) to remove it.
    /// Source: the adapters' version tables.
    UnknownAgentVersion = "unknown-agent-version", Info, Limit, any, "0.1.0", "the requested agent version has no profile; the nearest older one is used";
    /// After an upgrade of the agent (`playbookdiff upgrade HARNESS
    /// FROM..TO`), the model receives something different from this file
    /// at a launch directory, because a behaviour of the agent changed at
    /// the release named in the message (a fact of the adapter's version
    /// table, with the first release bisection found). Reported by
    /// `upgrade` in the forge formats, once per launch directory and
    /// release, at the first file that changes. Review the change, then
    /// accept it in `playbookdiff.toml` (`[[accepted]]` with the id
    /// `upgrade:<harness>:<fact>` the message names) or adapt the
    /// repository. Source: the adapters' version tables and
    /// `oracle/bisect/`.
    AgentUpgradeChange = "agent-upgrade-change", Warning, Behaviour, any, "0.1.0", "an agent upgrade changes what the model receives";
    // ----- Unavailable layers (both harnesses) -----
    /// Personal configuration present in the working tree (`CLAUDE.local.md`,
    /// `.claude/settings.local.json`) is not reproducible repository state, so
    /// repo mode lists it as `unavailable` instead of reading it. Run with
    /// `--mode local` to include it. Source: spec 000 "Repo mode".
    LocalConfigUnavailable = "local-config-unavailable", Info, Unknowable, any, "0.1.0", "a local, personal configuration file is not read in repo mode";
    /// The user's home configuration (`~/.claude/…`, `$CODEX_HOME/…`) can
    /// add instructions, skills and MCP servers that the analysis cannot see.
    /// Source: spec 000 and 004 "Repo mode".
    UserConfigUnavailable = "user-config-unavailable", Info, Unknowable, any, "0.1.0", "user-level configuration is outside the analysis";
    /// Enterprise, server-managed and system policy can add or remove
    /// configuration that no repository shows. Source: spec 000 and 004
    /// "Unsupported in the current release".
    ManagedConfigUnavailable = "managed-config-unavailable", Info, Unknowable, any, "0.1.0", "managed or system policy is outside the analysis";
    /// Claude Code reads `CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules`
    /// and `CLAUDE.local.md` in every directory from the launch directory
    /// up to the filesystem root (the root itself excluded), and
    /// `.mcp.json` in every one of them, so files above the repository
    /// root (a parent folder holding several checkouts, the home
    /// directory) add to what it receives; skills and commands stop at the
    /// git root. The analysis reads only the repository, so it cannot see
    /// them, unless `--mode local --outside-root` lets it read them (then
    /// this diagnostic is not given). Source: fidelity C3 and C4 (maintainer answer in
    /// anthropics/claude-code#722, "cwd to /"; anthropics/claude-code#49124;
    /// anthropics/claude-code#93010; `.mcp.json`
    /// seen from ancestors with 2.1.197 and 2.1.332).
    OutsideRootUnseen = "outside-root-unseen", Info, Unknowable, "claude-code", "0.1.0", "files above the repository root are outside the analysis";

    // ----- Reading the tree -----
    /// A file or directory could not be read (permissions, a name too long
    /// for the operating system, an I/O error). What it would have
    /// contributed is unknown.
    Unreadable = "unreadable", Warning, RepositoryProblem, any, "0.1.0", "a file or directory could not be read";
    /// A git submodule (a directory the index or the commit records as a
    /// gitlink) is another repository: repo mode and a commit read none of
    /// its files, so what an agent launched in the superproject would
    /// attach from it on demand is unknown. Not a fault of the repository,
    /// so it never fails `check` or `diff`; `--mode local` reads a
    /// checked-out submodule as the agents do, and the submodule can be
    /// analysed on its own (`playbookdiff SUBMODULE --root`).
    SubmoduleNotAnalysed = "submodule-not-analysed", Info, Limit, any, "0.1.0", "a git submodule is another repository, and its files are not analysed";
    /// A file is larger than the harness loads or than the analysis reads
    /// (the read limit, 4 MiB for every file of every adapter); the message
    /// says what the harness does with it, one account per file and
    /// harness. Claude Code skips a memory file over 4 MiB, `AGENTS.md`
    /// read by its fallback included, and loads nothing from it (harness
    /// facts A1, "A file over 4 MiB is skipped"). Codex has no size limit
    /// but reads an `AGENTS.md` only as far as `project_doc_max_bytes`
    /// reaches (openai/codex `codex-rs/core/src/project_doc.rs` reads each
    /// file through `take(remaining)`): the analysis reads that much of a
    /// larger file, so what Codex sends is known and the cut is reported as
    /// `instruction-budget-exceeded`; this code is given only when the
    /// budget reaches beyond the read limit. OpenCode reads instruction
    /// files whole: one over the read limit is received, and its text,
    /// unread, is compared by file only. A file over the read limit is
    /// never read whole (at most the start a harness receives of it).
    FileTooLarge = "file-too-large", Warning, RepositoryProblem, any, "0.1.0", "a file is too large to be loaded";
    /// A file is not valid UTF-8. Invalid sequences are replaced by U+FFFD
    /// in the analysis; the agent may read it differently.
    InvalidUtf8 = "invalid-utf8", Warning, RepositoryProblem, any, "0.1.0", "a file is not valid UTF-8";
    /// A symbolic link points outside the repository. The agent follows it
    /// and receives its target wherever that exists on the machine;
    /// PlaybookDiff does not read outside the repository (with `--mode
    /// local --outside-root` the Claude Code adapter reads a target in a
    /// directory above the root instead of reporting it), so what the agent
    /// receives there is unknown to the analysis. Evidence, per harness and
    /// release: oracle case `claude.c04_above_root_links`, where
    /// `.claude/CLAUDE.md` links outside the repository (Claude Code 2.1.197
    /// and 2.1.332 load its target) and `AGENTS.md` does too (Codex 0.142.3
    /// and 0.171.0 load its target); OpenCode 1.18.33 and Codex 0.171.0
    /// load `loop/AGENTS.md -> /tmp/outside.md` from `loop`. Not reported
    /// for a `.claude/rules` link that the release skips (Claude Code
    /// 2.1.332 skips a rule link leading out of the launch directory): that
    /// link gets `rule-symlink-conflict` instead.
    SymlinkOutsideRepository = "symlink-outside-repository", Warning, RepositoryProblem, any, "0.1.0", "a symbolic link points outside the repository";
    /// A symbolic link points at nothing. The agent cannot load it either.
    SymlinkDangling = "symlink-dangling", Warning, RepositoryProblem, any, "0.1.0", "a symbolic link points at a path that does not exist";
    /// A chain of symbolic links loops (or exceeds 40 hops). It is not followed.
    SymlinkLoop = "symlink-loop", Warning, RepositoryProblem, any, "0.1.0", "a symbolic link loops";

    // ----- Parsing -----
    /// YAML front matter could not be parsed. The message gives the line.
    /// Claude Code retries once with unquoted values holding YAML special
    /// characters quoted and leading tabs expanded (then this is
    /// information: the agent reads it, other tools may not); only when the
    /// retry fails too does it load a rule unconditionally and a skill with
    /// empty metadata (fidelity C2; harness facts A7; anthropics/claude-code#19014).
    InvalidFrontmatter = "invalid-frontmatter", Warning, RepositoryProblem, any, "0.1.0", "front matter is not valid YAML";
    /// A JSON file (`.mcp.json`, `.claude/settings.json`) could not be
    /// parsed. The harness rejects it, so nothing in it applies. Claude Code
    /// reads strict JSON: comments and trailing commas are errors.
    InvalidJson = "invalid-json", Error, RepositoryProblem, any, "0.1.0", "a JSON configuration file is invalid";
    /// A JSON object repeats a key (`.mcp.json`, `.claude/settings.json`).
    /// JSON leaves the meaning undefined and Claude Code does not document
    /// it; JavaScript's `JSON.parse` keeps the last occurrence, and so does
    /// the analysis. Keep one occurrence.
    JsonDuplicateKey = "json-duplicate-key", Warning, RepositoryProblem, any, "0.1.0", "a JSON object repeats a key";
    /// A TOML file (`.codex/config.toml`) could not be parsed. Nothing in it
    /// applies.
    InvalidToml = "invalid-toml", Error, RepositoryProblem, any, "0.1.0", "a TOML configuration file is invalid";
    /// A configuration value has the wrong type or shape and is ignored.
    InvalidValue = "invalid-value", Warning, RepositoryProblem, any, "0.1.0", "a configuration value has the wrong shape";

    // ----- Claude Code instructions -----
    /// An `@path` import names a file that does not exist. The text stays
    /// literal in the context. Source: spec 000 "Imports".
    ImportMissing = "import-missing", Warning, RepositoryProblem, "claude-code", "0.1.0", "an @path import names a missing file";
    /// An `@path` import resolves outside the repository. Repo mode does not
    /// follow it. Source: spec 000 "Imports".
    ImportOutsideRepository = "import-outside-repository", Warning, RepositoryProblem, "claude-code", "0.1.0", "an @path import resolves outside the repository";
    /// An `@path` import resolves inside the repository but outside the
    /// launch directory: an interactive session asks for a one-time approval
    /// first, so the content is conditional. Source: spec 000 "Imports".
    ImportOutsideCwd = "import-outside-cwd", Info, Conditional, "claude-code", "0.1.0", "an @path import outside the launch directory needs approval";
    /// Imports form a cycle. The analysis stops at the repeated file; this is
    /// an analyzer safety behaviour, not a documented harness behaviour.
    /// Source: spec 000 "Imports".
    ImportCycle = "import-cycle", Warning, RepositoryProblem, "claude-code", "0.1.0", "@path imports form a cycle";
    /// Imports nest deeper than the documented four hops; deeper files are
    /// not loaded. Older documentation said five. Source: harness facts A2.
    ImportDepthExceeded = "import-depth-exceeded", Warning, RepositoryProblem, "claude-code", "0.1.0", "@path imports nest deeper than four hops";
    /// A file that is already in the context is imported again (or reached
    /// again through another path to the same file). Assumption: each file
    /// is included once. Claude Code's memory loader keeps a set of the
    /// files it has processed and skips one it has seen, so the file is not
    /// included a second time; the analysis expands each real file once,
    /// the first time in context order (startup before on demand). Reported
    /// once per importing file and imported file.
    ImportRepeated = "import-repeated", Info, Behaviour, "claude-code", "0.1.0", "a file already in the context is not included again";
    /// An `@path` import names a file whose extension Claude Code does not
    /// import (it skips "non-text" files such as images and PDFs; a file
    /// without an extension is imported). Source: the shipped 2.1.197 and
    /// 2.1.332 loader.
    ImportNotText = "import-not-text", Warning, RepositoryProblem, "claude-code", "0.1.0", "an @path import names a file Claude Code does not import";
    /// A memory file, rule or imported file is empty or only white space
    /// (after front matter and HTML comments); Claude Code drops it, with
    /// whatever it would import. Source: fidelity "Settled assumptions".
    InstructionEmpty = "instruction-empty", Info, Behaviour, "claude-code", "0.1.0", "an empty instruction file is dropped";
    /// A path-scoped rule (`paths:` in `.claude/rules/*.md`) imports a file
    /// with `@path`: Claude Code holds the rule back until a matching file
    /// is read, but loads what it imports at startup, whatever the target
    /// (fidelity C12). Seen in the first request of Claude Code 2.1.197
    /// and 2.1.332, which holds the imported file at startup with the rule
    /// as its parent; the shipped 2.1.197 rules walker keeps every file a
    /// rule brings in that has no `paths` of its own. Spec 000 says
    /// nothing of imports in rules. To scope that text, move it into the
    /// rule.
    RuleImportUnscoped = "rule-import-unscoped", Info, Behaviour, "claude-code", "0.1.0", "a path-scoped rule's import loads at startup";
    /// Claude Code 2.1.281 and later load `AGENTS.md` (and
    /// `.claude/AGENTS.md`) where `CLAUDE.md` would load when no
    /// `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` exists from
    /// the root down to the launch directory (option `instructionFiles`,
    /// default `claude-md-or-agents-md`; not on Bedrock, Vertex or
    /// Foundry). This deviates from spec 000, which predates it: the spec
    /// has Claude Code read `CLAUDE.md` only. Evidence:
    /// `mods/agents-md/README.md` at tag v2.1.277 of anthropics/claude-code
    /// and the 2.1.277 changelog, which announce it, while bisection over
    /// the published releases found 2.1.280 without it and 2.1.281 the
    /// first with it (`oracle/bisect/claude-code.json`); observed: the first request of 2.1.332
    /// holds the root `AGENTS.md`, its imports and `.claude/AGENTS.md`,
    /// 2.1.197 holds none of them, and a `CLAUDE.md` below the launch
    /// directory does not turn the fallback off. Unlike the
    /// documentation's "nested ones on demand", 2.1.332 loaded no
    /// `AGENTS.md` below the launch directory when a file there was read,
    /// so those are not listed. Reported for the versions whose profile
    /// has the fallback.
    AgentsMdFallback = "agents-md-fallback", Info, Behaviour, "claude-code", "0.1.0", "AGENTS.md loads because no CLAUDE.md is on the path (2.1.281 and later)";
    /// Text reads as an `@path` import but is not one: trailing punctuation
    /// (`@docs/a.md,`) or a space in the path (`@My Docs/a.md`) makes the
    /// agent keep it literal (anthropics/claude-code#86060, anthropics/claude-code#56927). Write the path
    /// alone, followed by a space or a line end.
    ImportLookalike = "import-lookalike", Warning, RepositoryProblem, "claude-code", "0.1.0", "text looks like an @path import but is not imported";
    /// A `claudeMdExcludes` pattern removes this instruction or rule file.
    /// Source: harness facts A4.
    InstructionExcluded = "instruction-excluded", Info, Behaviour, "claude-code", "0.1.0", "claudeMdExcludes removes an instruction file";
    /// A `claudeMdExcludes` pattern is an absolute path of one machine; the
    /// result depends on where the repository is checked out. Start
    /// portable patterns with `**/`.
    ExcludeMachineSpecific = "exclude-machine-specific", Info, RepositoryProblem, "claude-code", "0.1.0", "a claudeMdExcludes pattern depends on the checkout location";
    /// A repository has `AGENTS.md` where Claude Code has no bridge to it:
    /// Claude Code reads `CLAUDE.md`, not `AGENTS.md`. Add `@AGENTS.md` to a
    /// `CLAUDE.md` beside it, or make `CLAUDE.md` a symbolic link to it.
    /// Claude Code 2.1.281 and later read `AGENTS.md` from the root to the
    /// launch directory when no `CLAUDE.md` is on that path
    /// (`agents-md-fallback`), but never one below it. Source: spec 000
    /// "Instructions"; harness facts A5; anthropics/claude-code#89825;
    /// fidelity C16.
    AgentsMdNotBridged = "agents-md-not-bridged", Warning, RepositoryProblem, "claude-code", "0.1.0", "an AGENTS.md has no CLAUDE.md bridge";
    /// A file holds nothing but the path of another entry beside it
    /// (`CLAUDE.md` reading `AGENTS.md`, a `.agents/skills` file reading
    /// `../skills`): a symbolic link checked out as a text file, as git does
    /// with `core.symlinks=false` (common on Windows) or an archive that
    /// drops links. A memory file then gives the agent that one word, a
    /// skills root gives it no skills. Use an `@AGENTS.md` import, which
    /// works on every checkout, or restore the link (harness facts A5).
    SymlinkStoredAsText = "symlink-stored-as-text", Warning, RepositoryProblem, any, "0.1.0", "a file looks like a symbolic link stored as text";
    /// The target lies outside the launch directory. Claude Code loads
    /// nothing on demand for a file outside its working directory: no
    /// nested `CLAUDE.md`, no path-scoped rule, no nested rules root or
    /// skill; such items are conditional (fidelity C13; older source
    /// `pathInAllowedWorkingPath`; anthropics/claude-code#65257; seen with 2.1.197
    /// and 2.1.332 through a scripted model). OpenCode attaches instruction
    /// files on demand only below the launch directory too
    /// (`Instruction.resolve`, seen with 1.18.33).
    TargetOutsideCwd = "target-outside-cwd", Info, Behaviour, any, "0.1.0", "the target path is outside the launch directory";
    /// `.claude/CLAUDE.md` below the repository root is loaded by extension
    /// of the verified root-level behaviour, not by independent
    /// verification. Source: spec 000 "Unresolved semantics".
    DotClaudeMemoryGeneralized = "dot-claude-memory-generalized", Info, Limit, "claude-code", "0.1.0", ".claude/CLAUDE.md below the root is assumed to load like the root one";

    // ----- Claude Code rules -----
    /// A `.claude/rules/` root below the launch directory (or near a target
    /// outside it) exists. Its traversal, order and glob anchor are
    /// undocumented, so it is not read.
    /// Source: spec 000 "Rules".
    /// No longer reported: nested rules roots are read on demand as Claude
    /// Code reads them, after the memory files of their directory,
    /// unconditional rules first, `paths` relative to that directory
    /// (fidelity C14; anthropics/claude-code#95104; seen with 2.1.197 and
    /// 2.1.332, fixture `c14_nested_rules_on_demand`); kept so the code is
    /// never reused.
    NestedRulesRootUnresolved = "nested-rules-root-unresolved", Warning, Limit, "claude-code", "0.1.0", "a nested .claude/rules root is not read";
    /// A path-scoped rule or skill is relevant only when the agent touches a
    /// matching path; without a matching `--target` it stays conditional.
    PathScopedConditional = "path-scoped-conditional", Info, Conditional, "claude-code", "0.1.0", "a path-scoped item depends on which files are touched";
    /// A rule uses `globs:` instead of `paths:`. Claude Code does not read
    /// `globs:`, so the rule loads unconditionally (anthropics/claude-code#17204).
    RuleGlobsNotPaths = "rule-globs-not-paths", Warning, RepositoryProblem, "claude-code", "0.1.0", "a rule uses globs: instead of paths:";
    /// A path pattern is invalid (e.g. an unclosed bracket). It matches
    /// nothing, as documented. Escape `[` as `\[`. Source: harness facts A3.
    InvalidGlob = "invalid-glob", Warning, RepositoryProblem, any, "0.1.0", "a path pattern is invalid and matches nothing";
    /// A `.claude/rules` entry (or a `.claude/rules` directory above the
    /// repository root) is a symbolic link. The documentation says links
    /// are followed with cycle detection; users report them skipped
    /// (anthropics/claude-code#90523, anthropics/claude-code#88405). Both
    /// are right, depending on the release: observed with the oracle (case
    /// `claude.c04_above_root_links` and its `.in-pkg` launch), 2.1.197
    /// follows every link, wherever it leads, and names the rule by the
    /// link's target; 2.1.332 follows a link only when its target lies
    /// inside the launch directory and skips the others, even targets
    /// elsewhere in the repository. The analysis does what the profiled
    /// release does and says which.
    RuleSymlinkConflict = "rule-symlink-conflict", Info, Limit, "claude-code", "0.1.0", "a symlinked rule: followed or skipped, by release and by where it leads";
    /// A rules root has subdirectories; the order of rules across them is
    /// undocumented. The analysis orders by path. Source: spec 000 fixture
    /// checklist ("recursive rule ordering").
    RuleOrderAssumed = "rule-order-assumed", Info, Limit, "claude-code", "0.1.0", "the order of rules in subdirectories is assumed";
    /// A root-level pattern such as `*.md` is documented as matching only
    /// project-root files, but matches at any depth (anthropics/claude-code#95526).
    /// No longer reported: the analysis matches `paths` gitignore-style as
    /// Claude Code does (fidelity C1); kept so the code is never reused.
    RulePatternAnchorConflict = "rule-pattern-anchor-conflict", Info, Limit, "claude-code", "0.1.0", "a pattern's anchoring is disputed";

    // ----- Claude Code settings -----
    /// A `.claude/settings.json` in an ancestor of the launch directory is not
    /// read: project settings load only from `<cwd>/.claude/`. Source: spec
    /// 000 "claudeMdExcludes"; harness facts A6.
    SettingsNotInCwd = "settings-not-in-cwd", Info, Behaviour, "claude-code", "0.1.0", "project settings outside the launch directory are not read";
    /// `skillOverrides` is applied as documented (`off`, `name-only`,
    /// `user-invocable-only`); the mapping onto the model is stated. Source:
    /// harness facts A6; spec 000 "Skills".
    SkillOverrideApplied = "skill-override-applied", Info, Behaviour, "claude-code", "0.1.0", "a skillOverrides entry changes a skill";
    /// A `skillOverrides` entry has an unknown value or names no discovered
    /// skill; it changes nothing the analysis can show.
    SkillOverrideUnresolved = "skill-override-unresolved", Warning, RepositoryProblem, "claude-code", "0.1.0", "a skillOverrides entry cannot be applied";

    // ----- Skills -----
    /// Two skills share a name. Both are kept with distinct ids and cross
    /// references; Claude Code qualifies colliding names by directory at
    /// runtime (e.g. `apps/web:deploy`), depending also on names the
    /// analysis cannot see. Source: spec 000 "Skills"; codex docs: same-name
    /// skills are not merged.
    SkillNameCollision = "skill-name-collision", Info, Behaviour, any, "0.1.0", "two skills share a name";
    /// The skill listing may exceed the documented budget, so descriptions
    /// may be shortened or dropped, by how much the adapter does not
    /// compute; or a description passes the cap per description. Claude
    /// Code from 2.1.19 on: `skill-listing-shortened` gives the text a
    /// listing over its budget shows instead.
    SkillBudgetRisk = "skill-budget-risk", Warning, RepositoryProblem, any, "0.1.0", "skill descriptions may exceed the listing budget";
    /// Claude Code before 2.1.19, whose listing budget shortens
    /// descriptions instead: the skill listing keeps skills while their entries fit in
    /// 15,000 characters (`SLASH_COMMAND_TOOL_CHAR_BUDGET`) and leaves the
    /// rest out, whole, so the model is not told of them. The message names
    /// the first skill left out and counts the others. Source: 2.0.76 and
    /// 2.0.77 `cli.js`; case `claude.c30_listing_char_budget`.
    SkillListingOverBudget = "skill-listing-over-budget", Warning, RepositoryProblem, "claude-code", "0.1.0", "skills left out of the listing by its 15,000-character budget";
    /// Claude Code from 2.1.19 on: the skill listing passes its budget, so
    /// descriptions are shortened as the release computes it: 2.1.19 cuts
    /// each description longer than one equal share of 15,000 UTF-16 code
    /// units; from 2.1.129 each description is kept whole or dropped (the
    /// name stays listed), in listing order for a fresh installation,
    /// against 1% of the context window at three characters a token, the
    /// bundled skills' entries counted first. The message names the
    /// shortened skills and the budget; each skill's advertisement holds
    /// the text shown. Source: 2.1.19 `cli.js` (`u82`), 2.1.197 (`Yio`)
    /// and 2.1.332 (`q3n`); case `claude.c31_listing_shortened`.
    SkillListingShortened = "skill-listing-shortened", Warning, RepositoryProblem, "claude-code", "0.1.0", "the skill listing's budget shortens or drops descriptions";
    /// A `SKILL.md` sits deeper than `<skills-root>/<name>/SKILL.md` and is
    /// not discovered.
    SkillNotDiscovered = "skill-not-discovered", Warning, RepositoryProblem, any, "0.1.0", "a SKILL.md is not at a discoverable depth";
    /// A skill directory has no `SKILL.md`.
    SkillMissingFile = "skill-missing-file", Warning, RepositoryProblem, any, "0.1.0", "a skill directory has no SKILL.md";
    /// A `.claude/commands` directory off the launch directory's path
    /// (below it, or on the way to the target). Claude Code offers the
    /// commands of the launch directory and its ancestors as skills
    /// (`/name`, `/dir:name`; fidelity C23, modelled and checked against
    /// 2.1.197 and 2.1.332); whether reading a file below a nested commands
    /// directory adds its commands is not observed, so they are not
    /// listed. Launch Claude Code in that directory, or move the commands
    /// to `.claude/skills/<name>/SKILL.md`. Source: spec 000 "Skills".
    LegacyCommandsUnsupported = "legacy-commands-unsupported", Info, Limit, "claude-code", "0.1.0", "legacy .claude/commands off the launch directory's path are not modelled";
    /// The harness loads something the model has no item for: an OpenCode
    /// plugin module, or instructions fetched from a URL at run time
    /// (custom agents and commands are items: `subagents`, `commands`).
    /// The diagnostic names it and the file (and lines) that define it, so
    /// it stays visible, but it is not compared across harnesses. Review it
    /// by hand; a plugin runs code from the repository. Source: each
    /// adapter's documentation of what its harness loads (OpenCode:
    /// `packages/opencode/src/config/config.ts`).
    ItemNotModelled = "item-not-modelled", Info, Limit, any, "0.1.0", "an agent, command, plugin or remote text the harness loads is not modelled";
    /// The repository defines a Claude Code plugin (`.claude-plugin/plugin.json`,
    /// or a local plugin named by `.claude-plugin/marketplace.json`). Once
    /// installed it adds skills, commands, agents, hooks and MCP servers
    /// under its name; the repository alone installs nothing, so none of
    /// them are received: the plugin is listed under `plugins` with what it
    /// brings, not loaded until that step. The message names what it would
    /// add; each of its
    /// skill files gets one too, so a comparison that finds the skill with
    /// another agent says why Claude Code lacks it. Source: fidelity C25
    /// (Claude Code plugin documentation; getsentry/skills recorded with
    /// 2.1.197 and 2.1.332: no plugin, none of its skills listed).
    PluginNotInstalled = "plugin-not-installed", Info, Unknowable, "claude-code", "0.1.0", "a Claude Code plugin in the repository is not installed";
    // ----- Subagents, commands, output styles, plugins -----
    /// A subagent file the agent skips: Claude Code needs front matter
    /// `name` and `description` (a file without either, or whose front
    /// matter is not YAML, is not loaded); Codex needs `name`,
    /// `description` and `developer_instructions` in `.codex/agents/*.toml`.
    /// Add the missing field. Source: Claude Code sub-agents documentation
    /// (harness facts A9); Codex subagents documentation.
    SubagentInvalid = "subagent-invalid", Warning, RepositoryProblem, any, "0.1.0", "a subagent file the agent skips";
    /// A subagent lists a tool (`tools`, `disallowedTools`) that is not a
    /// tool of that harness at the profiled release (for Claude Code:
    /// `Read`, `Edit`, `Bash`, ..., `mcp__server__tool`, or a rule such as
    /// `Bash(git:*)`; a lower-case `read` is OpenCode's spelling). The
    /// agent ignores the name, so the subagent has fewer tools than the
    /// file seems to give it. Source: Claude Code sub-agents documentation
    /// and the tool names of the shipped 2.1.197 and 2.1.332.
    SubagentToolUnknown = "subagent-tool-unknown", Warning, RepositoryProblem, any, "0.1.0", "a subagent names a tool the harness does not have";
    /// Two subagents (or two commands) share a name; the message says which
    /// one the agent keeps (Claude Code: the one closest to the launch
    /// directory; OpenCode: the one read last, the repository root's
    /// `.opencode` over closer ones, configuration keys over files). Source:
    /// harness facts A9; OpenCode `config/agent.ts`, seen with `opencode
    /// debug config`.
    SubagentDuplicate = "subagent-duplicate", Info, Behaviour, any, "0.1.0", "two subagents or commands share a name; one wins";
    /// `outputStyle` in a settings file names no output style: neither a
    /// built-in one (`default`, `Explanatory`, `Learning`) nor the front
    /// matter `name` (else the file name) of a style in
    /// `.claude/output-styles/`. Claude Code then keeps the default style.
    /// Source: Claude Code output-styles documentation (harness facts A10).
    OutputStyleUnknown = "output-style-unknown", Warning, RepositoryProblem, "claude-code", "0.1.0", "outputStyle names no output style";
    /// `enabledPlugins` in project settings turns on a plugin that Claude
    /// Code does not load from the repository alone: the marketplace that
    /// lists it must first be registered in the user's home (`claude plugin
    /// marketplace add DIR`, or `/plugin marketplace add`) and the plugin
    /// installed; `extraKnownMarketplaces` in project settings does not do
    /// it in `-p` mode. What the plugin brings is listed as not loaded
    /// until that step. Source: observed with Claude Code 2.1.197 and
    /// 2.1.332 (surfaces reference: a project marketplace loads only once
    /// registered).
    PluginNeedsUserStep = "plugin-needs-user-step", Info, Behaviour, "claude-code", "0.1.0", "an enabled project plugin loads only after a user step";
    /// In local mode, a plugin the user installed
    /// (`~/.claude/plugins/installed_plugins.json`) that no settings layer
    /// enables: `enabledPlugins` sets it `false`, or names it nowhere.
    /// Claude Code loads none of it. Source: observed with Claude Code
    /// 2.1.197 and 2.1.332 (case
    /// `oracle.local_user_layers.home-claude-plugins`: `off@team`, set
    /// `false`, and `stray@team`, not named, load nothing).
    PluginNotEnabled = "plugin-not-enabled", Info, Behaviour, "claude-code", "0.1.0", "an installed plugin is not enabled";
    /// In local mode, a plugin that is installed and enabled but whose
    /// files the analysis cannot read: its `installPath` is missing, is
    /// outside the user's home, or its entry in `installed_plugins.json`
    /// is malformed. Claude Code reports a missing install ("not cached
    /// at ...") and loads none of it. Source: Claude Code 2.1.332's plugin
    /// loader (`plugin-cache-miss`).
    PluginNotLoaded = "plugin-not-loaded", Warning, Unknowable, "claude-code", "0.1.0", "an enabled plugin's installed files cannot be read";
    /// In local mode, a Gemini CLI extension the user installed
    /// (`~/.gemini/extensions/NAME`) that
    /// `~/.gemini/extensions/extension-enablement.json` turns off for the
    /// launch directory (the last override matching it starts with `!`).
    /// Gemini CLI loads none of its context files, MCP servers, commands,
    /// skills, hooks or subagents there. Source: `ExtensionEnablementManager.isEnabled`
    /// (`packages/cli/src/config/extensions/extensionEnablement.ts`);
    /// seen with Gemini CLI 0.34.0 and 0.61.0 (case
    /// `oracle.local_gemini_extensions.home-gemini-extensions`: `!/*` and a
    /// rule naming the launch directory).
    ExtensionDisabled = "extension-disabled", Info, Behaviour, "gemini", "0.1.0", "an installed Gemini CLI extension is disabled here";
    /// In local mode, a folder of `~/.gemini/extensions` that Gemini CLI
    /// skips: no `gemini-extension.json`, a manifest that is not JSON,
    /// lacks a string `name` or `version`, or whose `name` holds a
    /// character other than letters, digits and `-`; or a second folder
    /// holding an extension of a name already loaded. Nothing of it is
    /// loaded. Source: `_buildExtension`, `loadExtensionConfig` and
    /// `validateName` (`packages/cli/src/config/extension-manager.ts`,
    /// 0.34.0 and 0.61.0).
    ExtensionSkipped = "extension-skipped", Warning, RepositoryProblem, "gemini", "0.1.0", "a Gemini CLI extension folder is skipped";
    /// Whether a user disabled a skill is unknown in repo mode.
    SkillUserStateUnknown = "skill-user-state-unknown", Info, Unknowable, "codex", "0.1.0", "user-side skill settings are unknown";

    // ----- MCP -----
    /// An MCP server uses a transport not modelled by PlaybookDiff (SSE,
    /// WebSocket); its transport is `unknown`. Source: spec 000 "MCP".
    McpTransportUnsupported = "mcp-transport-unsupported", Warning, Limit, any, "0.1.0", "an MCP transport is not modelled";
    /// An MCP entry is malformed (no `command` or `url`, wrong types); the
    /// harness cannot start it as written.
    McpInvalidEntry = "mcp-invalid-entry", Warning, RepositoryProblem, any, "0.1.0", "an MCP server entry is malformed";
    /// A literal secret-looking value is committed in an MCP configuration.
    /// It is redacted in all output. Use a `${VAR}` placeholder (Claude Code)
    /// or `env_vars` / `bearer_token_env_var` (Codex) instead.
    McpLiteralSecret = "mcp-literal-secret", Warning, RepositoryProblem, any, "0.1.0", "an MCP configuration contains a literal secret";
    /// MCP servers are never contacted: approval, authentication,
    /// connection, tools and server instructions are unknown.
    McpRuntimeUnknown = "mcp-runtime-unknown", Info, Unknowable, any, "0.1.0", "MCP runtime state is unknown";
    /// Project MCP servers need a one-time approval in an interactive Claude
    /// Code session unless settings enable them; `-p` and SDK sessions load
    /// them without asking. Source: spec 000 "MCP configuration".
    McpApprovalUnknown = "mcp-approval-unknown", Info, Unknowable, "claude-code", "0.1.0", "project MCP servers need approval";
    /// A settings layer lists a `.mcp.json` server in
    /// `disabledMcpjsonServers`, so Claude Code does not start it (rejection
    /// beats approval). The diagnostic points at that settings file: the
    /// provenance of the exclusion. Source: harness facts A6;
    /// anthropics/claude-code#3106.
    McpServerDisabled = "mcp-server-disabled", Info, Behaviour, "claude-code", "0.1.0", "a settings layer disables an .mcp.json server";
    /// An `.mcp.json` that is neither in the launch directory nor in one of
    /// its ancestors is not read by Claude Code, which reads `.mcp.json` from
    /// the launch directory up (fidelity C3; anthropics/claude-code#42465).
    McpJsonNotAtRoot = "mcp-json-not-at-root", Info, Behaviour, "claude-code", "0.1.0", "an .mcp.json off the launch directory's path is ignored";
    /// Two `.mcp.json` files on the launch directory's path define a server
    /// of the same name: the file closer to the launch directory replaces
    /// the other's definition whole (fidelity C3; seen with Claude Code
    /// 2.1.197 and 2.1.332).
    McpServerOverridden = "mcp-server-overridden", Info, Behaviour, "claude-code", "0.1.0", "a closer .mcp.json replaces a server of the same name";
    /// In local mode, a setting that several settings layers give: the
    /// layer of higher precedence decides (Claude Code: managed, local,
    /// project, user, highest first; settings documentation, "Settings
    /// precedence"), and the value it overrides is kept in this
    /// diagnostic, at the overridden layer's line. Codex: a
    /// `sandbox_mode` or `approval_policy` that the managed requirements
    /// of `/etc/codex/requirements.toml` do not allow, which Codex
    /// replaces with the value it falls back to (openai/codex
    /// `apply_requirement_constrained_value`; seen with 0.142.3 and
    /// 0.171.0).
    SettingOverridden = "setting-overridden", Info, Behaviour, any, "0.1.0", "a settings layer of higher precedence overrides a value";
    /// The same MCP server is defined in more than one layer. No longer
    /// reported: Codex deep-merges the layers' tables key by key (fidelity
    /// X5, `merge_toml_values`), which the analysis models; kept so the
    /// code is never reused. Source: spec 004 "Duplicate server names
    /// across layers".
    McpDuplicateUnresolved = "mcp-duplicate-unresolved", Warning, Limit, "codex", "0.1.0", "an MCP server is defined in several layers";

    // ----- Codex -----
    /// Repo mode assumes that the project's `.codex/` layers are trusted
    /// (`projects.<path>.trust_level = "trusted"` in the user's
    /// configuration). An untrusted project skips every `.codex/` layer,
    /// including its `[mcp_servers]` (openai/codex#9676), and from 0.150.0
    /// an explicitly untrusted one also loses its `AGENTS.md` (fidelity
    /// X27); `.agents/skills` are not trust-gated. Trust is an input the
    /// analysis cannot see: `--trust` gives it. Source: spec 004 "Repo
    /// mode"; harness facts B2.
    ProjectTrustAssumed = "project-trust-assumed", Info, Assumption, "codex", "0.1.0", "project .codex/ layers are assumed trusted";
    /// The supplied repositoryRoot is assumed to be the root the harness
    /// finds itself: for Codex the directory its `project_root_markers`
    /// (default `.git`) mark, for OpenCode the top level of the git
    /// repository (its worktree, where every upward search stops; without
    /// git, the file system root). The root has no `.git` entry, or a
    /// directory between the root and cwd has one, so the harness may start
    /// its searches elsewhere. Source: spec 004 "Analysis context"; harness
    /// facts B3; OpenCode `Project.fromDirectory`.
    ProjectRootAssumed = "project-root-assumed", Info, Assumption, any, "0.1.0", "the harness may find another project root";
    /// `project_root_markers` is set in a project `.codex/config.toml`. The
    /// value is recorded but not applied: Codex reads it only from user,
    /// system and CLI layers, and the analysis keeps the supplied
    /// repositoryRoot. Source: spec 004 "Unresolved semantics"; harness facts B3.
    ProjectRootMarkersIgnored = "project-root-markers-ignored", Warning, RepositoryProblem, "codex", "0.1.0", "project_root_markers in a project layer is not applied";
    /// `--profile NAME` names a profile that neither
    /// `$CODEX_HOME/NAME.config.toml` nor a `[profiles.NAME]` table of the
    /// user's `config.toml` defines. Codex 0.142.3 and 0.171.0 start
    /// without a word and apply the other layers alone (`codex --profile
    /// nope debug prompt-input` and `mcp list` exit 0, case
    /// `oracle.local_user_layers.home-codex-profile-missing`), so the
    /// profile's settings the user expects are not applied.
    CodexProfileNotFound = "codex-profile-not-found", Warning, Behaviour, "codex", "0.1.0", "--profile names a profile no file defines";
    /// A `.codex/config.toml` outside the directories from the repository
    /// root to cwd (e.g. below cwd) is never applied in this session.
    /// Source: spec 004 "Project configuration".
    ConfigLayerNotApplied = "config-layer-not-applied", Info, Behaviour, "codex", "0.1.0", "a .codex/config.toml is not on the root-to-cwd path";
    /// An `.agents/skills` folder on the path from the project root to cwd
    /// that the analysed Codex release does not read: releases before the
    /// one the message names list the skills of `.codex/skills` folders
    /// only (bisected with `codex exec`, case `codex.duplicate_skill_names`),
    /// so none of its skills is listed. Upgrade Codex, or move the skills
    /// to `.codex/skills`. Source: the adapter's version table,
    /// `oracle/bisect/codex.json`.
    SkillRootNotRead = "skill-root-not-read", Info, Behaviour, "codex", "0.1.0", "the analysed Codex release does not read this .agents/skills folder";
    /// A project `.codex/config.toml` sets a key that Codex ignores (with a
    /// warning) in project layers, e.g. `model_provider` or `profiles`.
    /// Source: harness facts B2.
    ConfigKeyNotAllowed = "config-key-not-allowed", Warning, RepositoryProblem, "codex", "0.1.0", "a key Codex ignores in project configuration";
    /// The `AGENTS.md` chain exceeds `project_doc_max_bytes`. No longer
    /// reported: Codex spends one budget root-first over the chain
    /// (fidelity X8, `read_agents_md`), which `instruction-budget-exceeded`
    /// reports with the cut and dropped files; kept so the code is never
    /// reused. Source: spec 004 "Project instruction byte budget".
    InstructionBudgetRisk = "instruction-budget-risk", Warning, RepositoryProblem, "codex", "0.1.0", "the AGENTS.md chain exceeds project_doc_max_bytes (no longer reported)";
    /// An empty instruction file precedes a non-empty one in the same
    /// directory. Codex takes the first candidate that is a file and drops
    /// it when blank, so that directory contributes nothing: the non-empty
    /// file after it is never read (fidelity X7). Delete the empty file.
    /// Source: openai/codex `agents_md_paths`, `read_agents_md`; seen with
    /// `codex debug prompt-input`.
    EmptyInstructionPrecedence = "empty-instruction-precedence", Warning, RepositoryProblem, "codex", "0.1.0", "an empty instruction file hides the next one";
    /// A non-empty `AGENTS.md` (or fallback file) that a committed
    /// `AGENTS.override.md` of the same directory hides from Codex: Codex
    /// reads one instruction file per directory, the first of
    /// `AGENTS.override.md`, `AGENTS.md` and the fallback names present, so
    /// the shadowed file is never read, however long it is. The override is
    /// meant as a personal file: move what it holds into `AGENTS.md` and
    /// delete it, or keep it out of the repository. Reported at the
    /// shadowed file; information in local mode, which also reads personal
    /// files, where an override is the user's own as Codex intends. Source: openai/codex `agents_md_paths` (candidate
    /// order, one file per directory); oracle case
    /// `codex.root_agents_override`, recorded with 0.142.3 and 0.171.0
    /// (only the override's text is received).
    InstructionShadowed = "instruction-shadowed", Warning, RepositoryProblem, "codex", "0.1.0", "a committed AGENTS.override.md hides the AGENTS.md beside it";
    /// A SKILL.md lacks the `name` or `description` Codex requires; the
    /// skill is not listed. Source: harness facts B5.
    SkillFieldMissing = "skill-field-missing", Warning, RepositoryProblem, any, "0.1.0", "a SKILL.md lacks name or description";
    /// A `SKILL.md` file (not its folder) is a symbolic link. No longer
    /// reported: Codex follows only directory links while it looks for
    /// skills, so it does not load such a file (fidelity X12), which the
    /// analysis models; kept so the code is never reused. Source: field
    /// report 15; openai/codex#22506, openai/codex#31592.
    SkillSymlinkDisputed = "skill-symlink-disputed", Info, Limit, "codex", "0.1.0", "a symlinked SKILL.md file: documentation and reports disagree";
    /// A `[[skills.config]]` entry disables a skill, and the documentation
    /// disagreed on what its `path` names. No longer reported: Codex reads
    /// `[[skills.config]]` only from user and session layers, never from the
    /// repository (fidelity X2); kept so the code is never reused. Source:
    /// spec 004 "Unresolved semantics".
    SkillConfigPathAmbiguous = "skill-config-path-ambiguous", Warning, Limit, "codex", "0.1.0", "skills.config path semantics are unresolved";
    /// A skill root the Codex source scans but the documentation does not
    /// describe (`.codex/skills`). No longer reported: the root is modelled
    /// (fidelity X26); kept so the code is never reused. Source: harness
    /// facts B5.
    SkillRootUnmodelled = "skill-root-unmodelled", Info, Limit, "codex", "0.1.0", "an undocumented skill root is not modelled";
    /// A YAML metadata file (`agents/openai.yaml`) could not be parsed; the
    /// invocation policy it may set is unknown.
    InvalidYaml = "invalid-yaml", Warning, RepositoryProblem, any, "0.1.0", "a YAML metadata file is invalid";
    /// An MCP value uses a `${VAR}` placeholder. Codex never expands
    /// placeholders in `config.toml`: the server receives the text verbatim
    /// (fidelity X24; no expansion in the config loader). Use `env_vars`,
    /// `bearer_token_env_var` or `env_http_headers`. Source: harness facts
    /// B4.
    McpInterpolationUndocumented = "mcp-interpolation-undocumented", Warning, RepositoryProblem, "codex", "0.1.0", "a ${VAR} placeholder Codex sends verbatim";
    /// A path that must be a regular file (a memory file, a rule,
    /// `AGENTS.md`, `SKILL.md`, `agents/openai.yaml`, `.mcp.json`, a settings
    /// file, `.codex/config.toml`, the target of an `@path` import) is a
    /// directory, a FIFO, a socket or a device, so it is never read as that
    /// file, and the harness does not load it either. Codex checks that an
    /// instruction or skill file is a regular file and skips anything else;
    /// a project `.codex/config.toml` that cannot be read as a file stops
    /// Codex with an error, so for that file the severity is raised to error
    /// when the layer applies. Replace the entry with a regular file or
    /// rename it. Source: openai/codex `codex-rs/core/src/project_doc.rs`,
    /// `codex-rs/core-skills/src/loader.rs`,
    /// `codex-rs/core/src/config_loader/mod.rs`.
    NotARegularFile = "not-a-regular-file", Warning, RepositoryProblem, any, "0.1.0", "a file the harness reads is a directory or a special file";
    /// A `SKILL.md` front matter field has the wrong type: `name` or
    /// `description` is a list or a mapping where text is expected. Codex
    /// deserializes the front matter into text fields, fails on it and does
    /// not list the skill. Write the value as a string. Source: openai/codex
    /// `codex-rs/core-skills/src/loader.rs` (`SkillFrontmatter`); harness facts B5.
    SkillFieldInvalid = "skill-field-invalid", Warning, RepositoryProblem, any, "0.1.0", "a SKILL.md field has the wrong type";
    /// The skill listing Codex builds at startup does not fit its budget
    /// (2 % of the model's context window in tokens, each line costed at
    /// ceil(bytes / 4); 8,000 characters when the window is unknown): it
    /// first shortens every description evenly, then lists names only, then
    /// omits skills. The message names the shortened and omitted skills and
    /// says which are certain from the repository alone and which depend on
    /// the bundled skills of a fresh installation (a list of more than five
    /// skills as its count and three names; each skill's own entry says what
    /// the budget does to it); user and admin skills can only shorten more.
    /// Source: openai/codex
    /// `codex-rs/core-skills/src/render.rs` (`default_skill_metadata_budget`,
    /// `build_available_skills`).
    SkillListingBudget = "skill-listing-budget", Warning, RepositoryProblem, "codex", "0.1.0", "the skill listing exceeds Codex's budget: descriptions shortened or skills omitted";
    /// The AGENTS.md chain is longer than `project_doc_max_bytes`: Codex
    /// keeps the files root-first until the budget is spent, cuts the file
    /// that crosses it at that byte and drops every later file (`0` loads no
    /// project file). The message names the cut file, the byte and the
    /// dropped files. Source: openai/codex `codex-rs/core/src/project_doc.rs`
    /// (`read_agents_md`); seen with `codex debug prompt-input`.
    InstructionBudgetExceeded = "instruction-budget-exceeded", Warning, RepositoryProblem, "codex", "0.1.0", "project_doc_max_bytes cuts or drops AGENTS.md files";
    /// The agent refuses to load the merged configuration, so it does not
    /// start in this project: nothing it would receive or configure
    /// applies. Fix the named key. Codex: an MCP field of the other
    /// transport, a literal `bearer_token`, both `command` and `url`,
    /// invalid TOML, a wrong-typed value or a string that is none of an
    /// enum setting's values (`approval_policy = "bogus"`) in a trusted
    /// project layer (openai/codex `codex-rs/config/src/mcp_types.rs`,
    /// `codex-rs/core/src/config_loader`; seen with `codex mcp list`); a
    /// project `.codex/config.toml` that is a directory or a FIFO, trusted
    /// or not (Codex reads every project layer before it looks at trust,
    /// and fails on any error but "not found", or blocks on a FIFO:
    /// `load_project_layers` in `codex-rs/core/src/config_loader/mod.rs`).
    /// OpenCode: invalid JSONC, a value its configuration schema rejects
    /// (an MCP entry of the wrong shape, a wrong-typed `instructions` or
    /// `skills`), a missing `{file:…}` (sst/opencode
    /// `packages/opencode/src/config/config.ts`, `InvalidError`; seen with
    /// 1.18.33 exiting with "Configuration is invalid at opencode.json").
    /// An OpenCode top-level string setting outside its values is refused
    /// too (`"share": "bogus"`: 1.18.33 says `Expected "manual" | "auto" |
    /// "disabled"`; likewise `autoupdate`, `layout`, `logLevel`,
    /// `permission`). Not modelled: a nested string outside its values
    /// (`"permission": {"edit": "bogus"}`, refused by 1.18.33) is not
    /// reported.
    ConfigRefused = "config-refused", Error, RepositoryProblem, any, "0.1.0", "the agent refuses this configuration and does not start";
    /// The trust entries given with `--trust` make Codex skip part of the
    /// project: a `.codex/config.toml` layer whose directory (else the
    /// project root) is not trusted applies nothing (fidelity X28,
    /// `ProjectTrustContext::decision_for_dir`), and releases from 0.150.0
    /// send no project `AGENTS.md` when cwd is explicitly untrusted
    /// (fidelity X27; openai/codex#41499). Seen with `codex debug
    /// prompt-input` and `codex mcp list` of 0.142.3 and 0.171.0.
    ProjectUntrusted = "project-untrusted", Info, Behaviour, "codex", "0.1.0", "an untrusted directory's .codex layer or AGENTS.md is not loaded";

    // ----- Hooks -----
    /// A hook's command runs a script of the repository that does not
    /// exist there (the path is resolved from the command line as the agent
    /// would: `$CLAUDE_PROJECT_DIR` and `"$CLAUDE_PROJECT_DIR"` are the
    /// project root, `${CLAUDE_PLUGIN_ROOT}` the plugin's directory, a
    /// relative path the launch directory). When the event fires the command
    /// fails (Claude Code shows a hook error and goes on: the guard it was
    /// meant to be does not hold). Add the script or fix the path. For the
    /// hooks of a plugin that is not installed the severity is info: they
    /// run only once installed, and a plugin's package may add the script.
    /// Source:
    /// Claude Code hooks documentation ("Reference scripts by path");
    /// seed 001 (`$CLAUDE_PROJECT_DIR` resolution).
    HookScriptMissing = "hook-script-missing", Warning, RepositoryProblem, any, "0.1.0", "a hook runs a script that is not in the repository";
    /// A hook is registered for an event the profiled release does not
    /// have, so it never fires with that release. Check the event's
    /// spelling; the message names the release. Source: each adapter's
    /// event table (Claude Code 2.1.332 and 2.1.197, Codex 0.171.0, Gemini
    /// CLI 0.34.0 and 0.61.0 `HookEventName`, Copilot CLI 1.0.24's hooks
    /// file schema, from the agents' code).
    HookEventUnknown = "hook-event-unknown", Warning, RepositoryProblem, any, "0.1.0", "a hook's event does not exist in the profiled release";
    /// A hook's matcher does not do what it says: the event ignores
    /// matchers and fires on every occurrence (Claude Code `Stop`,
    /// `UserPromptSubmit` and others), or the matcher names only tools the
    /// harness does not have (`Edit` in Codex, whose hooks see `Bash` and
    /// `apply_patch`), so the hook never fires. Remove the matcher
    /// or name a tool of that harness. Source: Claude Code hooks
    /// documentation ("Matchers"); Codex `codex-rs/hooks`.
    HookMatcherIneffective = "hook-matcher-ineffective", Warning, RepositoryProblem, any, "0.1.0", "a hook's matcher is ignored or can never match";
    /// A hook's script blocks (`exit 2`, or a `decision` or
    /// `permissionDecision` of `block` or `deny`) on an event that cannot
    /// block: the agent shows the message and goes on (a `PostToolUse` hook
    /// runs after the tool did its work). Move the check to a blocking event
    /// such as `PreToolUse`. Source: Claude Code hooks documentation ("Exit
    /// code 2 behavior per event").
    HookBlockIneffective = "hook-block-ineffective", Warning, RepositoryProblem, any, "0.1.0", "a hook blocks on an event that cannot block";
    /// A hooks file the agent cannot parse: Codex warns `failed to parse
    /// hooks config FILE`, registers no hook from that file and starts
    /// anyway (seen with 0.142.3 and 0.171.0 on a `.codex/hooks.json` that
    /// starts with a byte order mark, which its JSON parser rejects: oracle
    /// case `oracle.bom_codex_hooks`). Fix the JSON (save the file without
    /// the mark). Source: those observations.
    HooksFileInvalid = "hooks-file-invalid", Warning, RepositoryProblem, "codex", "0.1.0", "a hooks file the agent cannot parse registers no hook";
    /// In local mode, Codex's system skills folder
    /// (`$CODEX_HOME/skills/.system`) holds a marker other than the
    /// analysed release's: on start Codex removes the folder and writes
    /// its own system skills there, so a skill added or edited in it is
    /// lost. Keep personal skills in `$CODEX_HOME/skills` or
    /// `~/.agents/skills`. Source: openai/codex `codex-rs/skills/src/lib.rs`
    /// (`install_system_skills`); seen with 0.142.3 (oracle case
    /// `oracle.local_user_layers.home-codex-system-skills`).
    SystemSkillsReplaced = "system-skills-replaced", Info, Behaviour, "codex", "0.1.0", "Codex rewrites a system skills folder whose marker is not its own";
    /// A `[features]` key other than `hooks` in Codex's managed
    /// requirements (`/etc/codex/requirements.toml`, which pins it for
    /// every layer) or in a machine configuration layer (local mode). Such
    /// keys change Codex's own tools and messages, not the skills,
    /// instructions, MCP servers or hooks the analysis lists, so they are
    /// named and not modelled; the diagnostic says what each key that was
    /// seen to change the model's input does. Source: `codex debug
    /// prompt-input` of Codex 0.142.3 and 0.171.0 with one key at a time
    /// (case `oracle.local_user_layers.home-codex-skills.managed-codex-features`);
    /// openai/codex `codex-rs/features/src/lib.rs`.
    FeatureNotModelled = "feature-not-modelled", Info, Limit, "codex", "0.1.0", "a Codex feature key that changes only Codex's own tools or messages is not modelled";
    /// A setting turns hooks off: Claude Code `disableAllHooks: true` in a
    /// settings layer (the project's own hooks and the user's do not run;
    /// managed hooks still do), Codex `[features] hooks = false` in a
    /// project `.codex/config.toml`. Every hook it affects says `runs: no`
    /// and names the setting's file and line. A Codex release before
    /// 0.124.0 runs no hook as it comes (its hooks feature is off): each
    /// file that registers hooks gets this diagnostic at its first
    /// registration, and none of its hooks is listed. When the closest
    /// layer that sets `[features] codex_hooks` sets it `true`, the hooks
    /// of `hooks.json` files for the release's events of the feature run
    /// (from 0.114.0) and are listed; the others (a `[hooks]` table, another
    /// event) get this diagnostic, naming that layer. Source: seen with
    /// Claude Code 2.1.332 and 2.1.197 and Codex 0.171.0 (surfaces and
    /// guard reference); Codex 0.123.0 and 0.124.0 fired by a `codex exec`
    /// turn (oracle case `oracle.codex_hooks_fire`); the feature bisected
    /// by firing (cases `oracle.codex_hooks_feature` and
    /// `oracle.codex_hooks_fire.home-codex-hooks-feature`).
    HooksDisabled = "hooks-disabled", Info, Behaviour, any, "0.1.0", "a setting turns hooks off";
    /// Codex runs a project hook only when the project is trusted and the
    /// hook's hash is trusted in the user's `config.toml`
    /// (`[hooks.state."<path>:<event>:<i>:<j>"] trusted_hash`), or with
    /// `--dangerously-bypass-hook-trust`; neither is visible from the
    /// repository, so the hook's `runs` is `unknown`. Copilot CLI 1.0.102
    /// runs the hooks of `.github/hooks/*.json` and `.claude/settings.json`
    /// in `-p` mode only in a folder the user trusts (`trusted_folders` in
    /// `~/.copilot/config.json`), likewise `unknown`. OpenCode runs a
    /// plugin unless launched with `--pure`. Source: Codex 0.171.0
    /// (`hooks/list` of the app server; surfaces and guard reference);
    /// Copilot CLI 1.0.102 (gemini-copilot reference); OpenCode 1.18.33
    /// `--pure`.
    HookTrustUnknown = "hook-trust-unknown", Info, Unknowable, any, "0.1.0", "whether the agent runs the repository's hooks depends on trust it records elsewhere";
    /// A hook handler the analysis lists but does not model: a Claude Code
    /// `prompt`, `agent` or `http` handler, or an OpenCode plugin module
    /// read for its hook names only (the module is code and is never run).
    /// Review what it does by hand. Source: Claude Code hooks documentation;
    /// OpenCode plugins documentation.
    HookNotModelled = "hook-not-modelled", Info, Limit, any, "0.1.0", "part of a hook is not modelled";
    /// A permission rule or mode the agent was seen not to honour in the
    /// analysed context: Claude Code applies a project `permissions.allow`
    /// rule not in `-p` mode (the same rule in user settings was), while a
    /// project `deny` holds even under `--dangerously-skip-permissions`.
    /// Source: seen with Claude Code 2.1.332 and 2.1.197 (surfaces and
    /// guard reference).
    PermissionNotHonoured = "permission-not-honoured", Info, Behaviour, any, "0.1.0", "a permission setting is not honoured in every mode";
    // ----- Gemini CLI -----
    /// A `.gemini/settings.json` of a directory above the launch directory
    /// does nothing: Gemini CLI applies only the launch directory's own
    /// workspace settings (with the user's and the system's), so that
    /// file's `context.fileName`, MCP servers and hooks are ignored. Copy
    /// what is needed into the launch directory's `.gemini/settings.json`.
    /// Source: `loadSettings` in `packages/cli/src/config/settings.ts`;
    /// seen with Gemini CLI 0.61.0 and 0.34.0 launched in `sub/`.
    WorkspaceSettingsNotApplied = "workspace-settings-not-applied", Info, Behaviour, "gemini", "0.1.0", "a .gemini/settings.json above the launch directory is not applied";
    /// The launch directory's `.gemini/policies` holds policy files that
    /// Gemini CLI never reads: the workspace tier of its policy engine is
    /// turned off (`disableWorkspacePolicies` is `true` and nothing clears
    /// it), so their rules allow, ask or deny nothing. Put the rules in
    /// each user's `~/.gemini/policies` or the system's
    /// `/etc/gemini-cli/policies`. Source: `resolveWorkspacePolicyState`
    /// in `packages/cli/src/config/policy.ts`; seen with Gemini CLI
    /// 0.34.0 and 0.61.0 (case
    /// `oracle.local_gemini_policies.home-gemini-policies`: a workspace
    /// deny of `read_file` left the tool offered).
    WorkspacePoliciesIgnored = "workspace-policies-ignored", Info, Behaviour, "gemini", "0.1.0", "Gemini CLI does not read the workspace's .gemini/policies";
    /// An `@path` import of a Gemini CLI context file is not inlined: the
    /// file is missing or unreadable, resolves outside the project root,
    /// is already being imported (a cycle), or lies deeper than five
    /// imports. Gemini CLI sends an HTML comment in its place (`<!-- Import
    /// failed: ... -->`, `<!-- File already processed: ... -->`) or, past
    /// the depth limit, the text unprocessed. Fix the path, or put the
    /// `@` text in backticks when it is not meant as an import. Source:
    /// `processImports` in `packages/core/src/utils/memoryImportProcessor.ts`.
    ContextImportFailed = "context-import-failed", Warning, RepositoryProblem, "gemini", "0.1.0", "an @path import of a Gemini CLI context file is not inlined";
    // ----- Cursor -----
    /// The harness's behaviour is modelled from its documentation and
    /// public issue threads only: no release of the agent could be run and
    /// observed, so every item of the result (what loads, when, in which
    /// order) is the documentation's word, not a fact checked against the
    /// agent. Every Cursor result carries it. Check a result that matters in
    /// Cursor itself (its Rules and MCP settings list what is loaded).
    /// Source: `docs/fidelity.md` ("Cursor: not verified").
    BehaviourUnverified = "behaviour-unverified", Info, Assumption, "cursor", "0.1.0", "the harness's behaviour is modelled from its documentation, not observed";
    /// A `.cursor/rules` file Cursor does not load as a rule: a plain
    /// `.md` file (Cursor's rules documentation: only `.mdc` files are
    /// project rules; third-party guides disagree). Rename it to `.mdc`
    /// with front matter if it is meant as a rule. (A rule whose
    /// `alwaysApply` is not a boolean is an `invalid-value` warning.)
    /// Source: <https://cursor.com/docs/context/rules>.
    RuleNotLoaded = "rule-not-loaded", Info, Behaviour, "cursor", "0.1.0", "a .cursor/rules file is not loaded as a rule";
}

impl DiagnosticCode {
    /// True for the codes that say the agent refuses the configuration and
    /// does not start at all (`config-refused`): it receives nothing, so a
    /// comparison leaves it out and reports that it would not start
    /// instead. The one place this is decided: renderers and the
    /// comparison ask the code, never a harness name. Source: Codex 0.142.3
    /// and 0.171.0 ("failed to load configuration", "failed to load bootstrap
    /// configuration"), OpenCode 1.18.33
    /// ("Configuration is invalid"), both exiting before any prompt.
    pub fn stops_the_agent(self) -> bool {
        matches!(self, DiagnosticCode::ConfigRefused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for c in DiagnosticCode::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "duplicate code {s}");
            assert!(
                s.chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'),
                "{s} is not kebab-case"
            );
            assert!(
                !c.documentation().trim().is_empty(),
                "{s} has no documentation"
            );
        }
    }

    #[test]
    fn only_a_refused_configuration_stops_the_agent() {
        let stopping: Vec<&str> = DiagnosticCode::ALL
            .iter()
            .filter(|c| c.stops_the_agent())
            .map(|c| c.as_str())
            .collect();
        assert_eq!(stopping, ["config-refused"]);
        // It stays a repository problem: fixing the file removes it.
        assert_eq!(
            DiagnosticCode::ConfigRefused.kind(),
            DiagnosticKind::RepositoryProblem
        );
    }

    #[test]
    fn serializes_as_the_code() {
        let v = serde_json::to_value(DiagnosticCode::ImportCycle).unwrap();
        assert_eq!(v, serde_json::json!("import-cycle"));
    }
}

//! The harness adapter interface ([`Adapter`]) and the toolkit every adapter
//! shares.
//!
//! An adapter crate implements one harness's discovery rules and exposes
//! them through one [`Adapter`] value; the registry (`playbookdiff-registry`)
//! lists those values, and the command line, the launch-directory search and
//! the suggestions iterate it. Nothing outside an adapter crate and the
//! registry names a harness.
//!
//! Architecture invariant: like the adapters, this crate reads only through
//! [`Repo`], never writes, never executes and never fails: problems are
//! diagnostics.

/// The most bytes any adapter reads from one file: 4 MiB (4,194,304
/// bytes). A larger file is not read and gets a `file-too-large`
/// diagnostic ([`problems::read_error`]).
///
/// Source: Claude Code skips a memory file over 4 MiB (harness facts A1,
/// the Claude Code memory documentation); every adapter applies the same
/// bound to every file, so that one huge file cannot exhaust the memory of
/// a run.
pub const READ_LIMIT: u64 = 4 * 1024 * 1024;

pub mod hooks;
pub mod js;
pub mod json;
pub mod jsonc;
pub mod problems;
pub mod scope;

mod compilation;
pub use compilation::{exclude_refused, Compilation};

use playbookdiff_model::profile::{Coverage, ReleaseChange, Releases};
use playbookdiff_model::{
    AnalysisContext, EffectiveAgentConfig, Harness, HookTrigger, Instruction, PermissionScope,
    RepoPath, Skill, Transport,
};
use playbookdiff_source::Repo;

/// One harness adapter: its identity, the files it owns, the releases it
/// models, its compilation and its suggestions.
///
/// Implementations are unit structs registered once in
/// `playbookdiff-registry`; every method is cheap and pure apart from
/// [`Adapter::compile`], which reads the repository through [`Repo`].
pub trait Adapter: Sync {
    /// The harness this adapter models (its contract id and product name).
    fn harness(&self) -> Harness;

    /// Entry names whose presence makes a directory hold this harness's
    /// configuration (e.g. `CLAUDE.md`, `.claude`): the candidate launch
    /// directories of `check --all-dirs`. The harness's own configuration
    /// directories among them are [`Adapter::own_directories`].
    fn config_entry_names(&self) -> &'static [&'static str];

    /// The entry names this adapter looks up by name below a launch
    /// directory ([`Repo::files_named_under`]: nested instruction files,
    /// `skills`, `SKILL.md`, ...), besides its
    /// [`Adapter::config_entry_names`]. A caller about to compile many
    /// launch directories (`check --all-dirs`, `diff`) answers all of them
    /// in one pass over the tree with [`Repo::prefetch_named`] instead of
    /// one pass per name. A name left out costs a pass, never a wrong
    /// answer. None by default.
    fn indexed_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// The harness's own configuration directories among
    /// [`Adapter::config_entry_names`] (`.claude`, `.codex`): a file inside
    /// one is configuration of the directory that holds it, so no directory
    /// inside one is a launch directory of `check --all-dirs`. None by
    /// default.
    fn own_directories(&self) -> &'static [&'static str] {
        &[]
    }

    /// For an item of this harness's compilation from launch directory
    /// `cwd` whose loading depends on the target path (a path-scoped rule
    /// or skill: front-matter `paths`), one test per pattern as written:
    /// a target passes it when that pattern matches it the way the harness
    /// matches (anchored where the harness anchors it, in its glob
    /// dialect). `diff` asks it to find, for each pattern of a changed
    /// item, a target that makes the item load. Empty when the item is not
    /// path-scoped, or the harness has no path-scoped items (the default).
    fn target_tests(&self, item: Scoped<'_>, cwd: &RepoPath) -> Vec<TargetTest> {
        let _ = (item, cwd);
        Vec::new()
    }

    /// The environment variables that move this harness's user
    /// directories (`CODEX_HOME`, `CLAUDE_CONFIG_DIR`, `XDG_CONFIG_HOME`),
    /// which the CLI reads in local mode, only to find those directories
    /// (never to expand `${VAR}` in a file). None by default.
    fn home_variables(&self) -> &'static [&'static str] {
        &[]
    }

    /// The environment variables whose value this harness reads as
    /// configuration (OpenCode's `OPENCODE_CONFIG_CONTENT`, Copilot CLI's
    /// `COPILOT_CUSTOM_INSTRUCTIONS_DIRS`), which the CLI reads in local
    /// mode without `--home` and hands to the adapter through the
    /// [`playbookdiff_source::Machine`]. None by default.
    fn environment(&self) -> &'static [EnvVariable] {
        &[]
    }

    /// Personal files, relative to the directory that holds them (e.g.
    /// `CLAUDE.local.md`), that this adapter reports as unavailable in repo
    /// mode. They are usually git-ignored; repo mode's file rule keeps them
    /// visible (never read) instead of hiding them. None by default.
    fn personal_paths(&self) -> &'static [&'static str] {
        &[]
    }

    /// True when `path` is this harness's configuration: its file name or
    /// one of its directories is one of [`Adapter::config_entry_names`]
    /// (so everything under `.claude/` is Claude Code configuration).
    /// Adapters with finer rules override it.
    fn owns_path(&self, path: &RepoPath) -> bool {
        let names = self.config_entry_names();
        path.components().any(|c| names.contains(&c))
    }

    /// The harness's layout: every path it reads as configuration
    /// ([`Surface`]: instruction files at any depth, its own
    /// directories, settings, MCP files, skills, subagents, hook
    /// registrations and plugin manifests, with their keys, tokens, scopes
    /// and how far the analysis models them), the user's and managed files
    /// too. The single source of what is that harness's configuration: the
    /// compilation reads these paths, the guard protects those inside the
    /// repository, `playbookdiff layout` prints them. The repository's
    /// rows are a superset of every file [`Adapter::compile`] reports as a
    /// source, which each adapter's layout test and the guard's tests
    /// check. None by default.
    fn surfaces(&self) -> &'static [Surface] {
        &[]
    }

    /// The agent releases this adapter's behaviour tables are checked
    /// against, oldest first (the agent's own version strings); the newest
    /// is the default profile.
    fn profiled_versions(&self) -> &'static [&'static str];

    /// Which other releases are modelled with their own facts: by default
    /// none ([`Coverage::Profiled`]); [`Coverage::Bisected`] when every
    /// fact of the adapter's version table has its first release found by
    /// bisection, so every release between the oldest and newest profiled
    /// ones is modelled exactly.
    fn coverage(&self) -> Coverage {
        Coverage::Profiled
    }

    /// The first release of the modelled window under
    /// [`Coverage::Bisected`] (by default the oldest profiled one): every
    /// release from it to the newest profiled one maps to its own profile
    /// without a diagnostic.
    fn first_modelled(&self) -> &'static str {
        self.profiled_versions().first().copied().unwrap_or("0")
    }

    /// The releases this adapter models, as
    /// [`playbookdiff_model::profile::select_profile`] takes them.
    fn releases(&self) -> Releases<'static> {
        Releases {
            profiled: self.profiled_versions(),
            coverage: self.coverage(),
            first: self.first_modelled(),
        }
    }

    /// The behaviours that changed at a release of the modelled window,
    /// each with the first release that shows it, oldest first; none by
    /// default. `playbookdiff upgrade` names them as the cause of what an
    /// upgrade changes.
    fn release_changes(&self) -> Vec<ReleaseChange> {
        Vec::new()
    }

    /// The rows of the adapter's version table whose facts the bisected
    /// changes do not give back (a fact that differs between two rows
    /// without a first release found by bisection), by release; empty by
    /// default, and for every [`Coverage::Bisected`] adapter (the
    /// registry's `bisected` test).
    fn rows_not_reached(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// Compiles what release `version` of the harness receives from `repo`
    /// under `context` (`None`: the newest profiled release; an unprofiled
    /// one uses the nearest older profile and says so in a diagnostic).
    /// Never fails: problems are diagnostics in the result.
    fn compile(
        &self,
        repo: &Repo<'_>,
        context: &AnalysisContext,
        version: Option<&str>,
    ) -> EffectiveAgentConfig;

    /// [`Adapter::compile`] with every input the repository cannot tell
    /// ([`Inputs`]): the release, and the model's context window for
    /// harnesses whose listing depends on it. An adapter that takes no
    /// input besides the release ignores the others. Never fails.
    fn compile_with(
        &self,
        repo: &Repo<'_>,
        context: &AnalysisContext,
        inputs: &Inputs<'_>,
    ) -> EffectiveAgentConfig {
        self.compile(repo, context, inputs.version)
    }

    /// One sentence saying what would make this harness receive what
    /// another receives (`gap`) in `scene` (the repository, read only, and
    /// the launch directory), naming only this harness's files; `None`
    /// when the harness has no such convention. It never proposes an edit
    /// that is already in the repository, nor moving a file into itself,
    /// and says so when nothing in the repository can close the gap from
    /// this launch directory.
    fn remedy(&self, gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String>;

    /// What would make the harness refuse what `scope` covers, which
    /// another harness's permission rules refuse: the rule or setting in
    /// the harness's own format, and where it goes, saying so when the
    /// harness's equivalent is approximate or when it has none. `None` by
    /// default (no suggestion).
    fn deny_remedy(&self, scope: &PermissionScope) -> Option<String> {
        let _ = scope;
        None
    }
}

pub use playbookdiff_model::layout::{Analysis, ReleaseLayout, Scope, Surface, SurfaceKind};

/// An item of a compilation whose loading may depend on the target path:
/// the question of [`Adapter::target_tests`].
#[derive(Clone, Copy, Debug)]
pub enum Scoped<'a> {
    /// An instruction piece (its `paths` and `applies_to` are read).
    Instruction(&'a Instruction),
    /// A skill (its `paths` are read).
    Skill(&'a Skill),
}

impl Scoped<'_> {
    /// The item's path globs as written (front-matter `paths`), if any.
    pub fn paths(&self) -> Option<&[String]> {
        match self {
            Scoped::Instruction(i) => i.paths.as_deref(),
            Scoped::Skill(s) => s.paths.as_deref(),
        }
    }

    /// The file the item comes from.
    pub fn file(&self) -> &RepoPath {
        match self {
            Scoped::Instruction(i) => &i.source.path,
            Scoped::Skill(s) => &s.source.path,
        }
    }
}

/// Whether a target (a repository-relative path, and whether it is a
/// directory) matches one pattern of a path-scoped item, so the item loads
/// for it: an answer of [`Adapter::target_tests`].
pub type TargetTest = Box<dyn Fn(&RepoPath, bool) -> bool + Send + Sync>;

/// Where a remedy is asked ([`Adapter::remedy`]): the repository, which a
/// remedy may read (through [`Repo`], as a compilation does) to see what
/// is really there (a file that shadows another, an import already
/// present), and the launch directory of the analysis.
#[derive(Clone, Copy)]
pub struct Scene<'a, 't> {
    /// The analysed repository.
    pub repo: &'a Repo<'t>,
    /// The launch directory (repository-relative, the root is `"."`).
    pub cwd: &'a RepoPath,
}

impl Scene<'_, '_> {
    /// Whether the agent launched in [`Scene::cwd`] walks through `dir`:
    /// `dir` is the root, the launch directory or a directory between.
    pub fn on_launch_chain(&self, dir: &RepoPath) -> bool {
        self.cwd.starts_with(dir)
    }

    /// Whether anything is at `path`: an entry (a dangling link too) or a
    /// path that resolves through links to one.
    pub fn exists(&self, path: &RepoPath) -> bool {
        self.repo.kind(path).is_some()
            || !matches!(
                self.repo.resolve(path),
                playbookdiff_source::Resolved::Missing
            )
    }

    /// What would give `harness` the skill `name` whose `SKILL.md` (or
    /// command file) another harness reads at `file`, where `harness`
    /// reads skills from `skills_root`: the link or file of
    /// [`skill_link`](playbookdiff_model::remedy::skill_link), unless
    /// something is already at that place ([`skill_place`](playbookdiff_model::remedy::skill_place)):
    /// then the sentence says so and points at the reasons, since no
    /// remedy proposes what already exists.
    pub fn skill_remedy(
        &self,
        file: &RepoPath,
        name: &str,
        skills_root: &str,
        harness: &str,
    ) -> String {
        use playbookdiff_model::remedy::{code_span, skill_link, skill_place};
        let place = skill_place(file, name, skills_root);
        if RepoPath::new(&place).is_some_and(|p| self.exists(&p)) {
            return format!(
                "`{place}` already exists, so nothing is to be linked or created there; the reasons above say why {harness} has no skill {} from it",
                code_span(name)
            );
        }
        skill_link(file, name, skills_root, harness)
    }

    /// Whether the Markdown file `file` holds an import line of `name`
    /// (`@name` or `@./name`, outside code and comments), the name of a
    /// file beside it. False when it cannot be read (at most
    /// [`READ_LIMIT`] bytes).
    pub fn imports(&self, file: &RepoPath, name: &str) -> bool {
        let Ok(text) = self.repo.read_text(file, READ_LIMIT) else {
            return false;
        };
        let scan = text.markdown(0);
        scan.imports
            .iter()
            .any(|t| t.raw.strip_prefix("./").unwrap_or(&t.raw) == name)
    }
}

/// What one harness lacks that another receives: the question an
/// [`Adapter::remedy`] answers. Paths are repository-relative and name the
/// files on the side that has the item (links resolved).
#[derive(Clone, Copy, Debug)]
pub enum Gap<'a> {
    /// The harness has nothing equivalent to the instruction text of
    /// `file`, which applies to directory `dir`; `paths` are the path globs
    /// of a path-scoped piece.
    Instruction {
        /// The file holding the text.
        file: &'a RepoPath,
        /// The directory the text applies to.
        dir: &'a RepoPath,
        /// The globs of a path-scoped piece, when it is one.
        paths: Option<&'a [String]>,
    },
    /// The harness receives the instruction text of `files` later (on
    /// demand, or from a deeper launch directory) than another.
    LateInstruction {
        /// The files holding the text.
        files: &'a [RepoPath],
    },
    /// The harness lacks skill `name`, whose `SKILL.md` another harness
    /// reads at `file`.
    Skill {
        /// The skill's name.
        name: &'a str,
        /// Its `SKILL.md` on the side that has it.
        file: &'a RepoPath,
    },
    /// The harness has skill `name` later (from a deeper launch directory)
    /// than another, which reads it from `files`.
    LateSkill {
        /// The skill's name.
        name: &'a str,
        /// Its `SKILL.md` files on the side that has it sooner.
        files: &'a [RepoPath],
    },
    /// The harness's main agent cannot call subagent `name`, which another
    /// harness defines at `file`.
    Subagent {
        /// The subagent's name.
        name: &'a str,
        /// Its file on the side that has it.
        file: &'a RepoPath,
    },
    /// The harness does not start MCP server `name`.
    Mcp {
        /// The server's name.
        name: &'a str,
        /// Its transport where another harness starts it, so the remedy
        /// shows a local (command) or a remote (url) entry.
        transport: Transport,
    },
    /// The harness runs no hook on `trigger`, on which another runs one:
    /// the repository `script` it runs, else its `command` line (secrets
    /// redacted), for the tools `matcher` names.
    Hook {
        /// The event's cross-harness meaning.
        trigger: HookTrigger,
        /// The matcher as the other harness writes it, when it has one.
        matcher: Option<&'a str>,
        /// The command line as the other harness writes it, when it has one.
        command: Option<&'a str>,
        /// The repository script the other harness runs, when it names one.
        script: Option<&'a RepoPath>,
    },
}

/// The model's context window, an input of the analysis the repository
/// cannot tell (the user picks the model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ContextWindow {
    /// Not given: each adapter takes the window of its release's default
    /// model, and names it as an assumption.
    #[default]
    ReleaseDefault,
    /// A window of this many tokens (at least 1).
    Tokens(std::num::NonZeroU64),
    /// A model whose window the agent does not know (a custom model).
    Unknown,
}

/// A trust decision the user's agent configuration records for one
/// directory of the repository (Codex: `[projects."<path>"] trust_level`
/// in `~/.codex/config.toml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustEntry {
    /// The directory, repository-relative (the root is `"."`).
    pub dir: RepoPath,
    /// The recorded level.
    pub level: TrustLevel,
}

/// A recorded trust level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrustLevel {
    /// `trusted`.
    Trusted,
    /// `untrusted`.
    Untrusted,
}

/// What a compilation takes besides the repository and the analysis
/// context: the inputs only the user knows, given on the command line.
/// `Inputs::default()` is the newest profiled release with every other
/// input at its documented default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs<'a> {
    /// The agent release to model (`None`: the newest profiled one).
    pub version: Option<&'a str>,
    /// The model's context window.
    pub context_window: ContextWindow,
    /// The trust entries the user's configuration holds for directories of
    /// the repository; `None` when not given, for which an adapter whose
    /// harness gates on trust assumes the project trusted and says so;
    /// `Some(&[])` means the user's configuration holds no entry.
    pub trust: Option<&'a [TrustEntry]>,
    /// The directories above the repository root, when the user lets the
    /// analysis read them (`--outside-root`, local mode only); `None` (the
    /// default): an adapter whose harness reads above the root says that it
    /// cannot see those files instead.
    pub outside_root: Option<&'a playbookdiff_source::Ancestors>,
    /// The user's and the machine's configuration places, read in local
    /// mode (`--mode local`); `None` (the default, and always in repo
    /// mode): an adapter reports its user and managed layers as unread.
    pub machine: Option<&'a playbookdiff_source::Machine>,
}

/// One compilation an adapter is asked for: the repository, the analysis
/// context, the profiled release chosen for it and every other input.
#[derive(Clone, Copy)]
pub struct Request<'a, 'r> {
    /// The repository, read only.
    pub repo: &'a Repo<'r>,
    /// The analysis context (repositoryRoot, cwd, targetPath, mode).
    pub context: &'a AnalysisContext,
    /// The release whose behaviour is modelled: an entry of the adapter's
    /// profiled versions, or under [`Coverage::Bisected`] any release
    /// between them, already chosen (see
    /// [`playbookdiff_model::profile::select_profile`]).
    pub version: &'a str,
    /// The inputs only the user knows; their `version` is the release asked
    /// for (`None`: the newest), which [`Request::version`] resolves. An
    /// adapter that takes no input besides the release ignores them.
    pub inputs: &'a Inputs<'a>,
}

/// An adapter's compilation of one [`Request`]: what the harness release
/// receives. Never fails: problems are diagnostics in the result.
pub type Compile = fn(&Request<'_, '_>) -> EffectiveAgentConfig;

/// A variable of the agent's environment whose value is configuration
/// ([`Adapter::environment`]): what the CLI hands the adapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvVariable {
    /// A file or directory (OpenCode's `OPENCODE_CONFIG`), read as the
    /// machine path `$NAME` ([`playbookdiff_source::Machine::with_var`]).
    Path(&'static str),
    /// Configuration text (OpenCode's `OPENCODE_CONFIG_CONTENT`), read
    /// as the file `$NAME` ([`playbookdiff_source::Machine::with_text`]).
    Text(&'static str),
    /// Directories separated by the character (Copilot CLI's
    /// `COPILOT_CUSTOM_INSTRUCTIONS_DIRS`, `,`), each entry trimmed, empty
    /// and repeated entries dropped, the `N`th named `$NAME[N]`
    /// ([`playbookdiff_source::Machine::with_list`]).
    DirList(&'static str, char),
}

impl EnvVariable {
    /// The variable's name.
    pub fn name(self) -> &'static str {
        match self {
            EnvVariable::Path(n) | EnvVariable::Text(n) | EnvVariable::DirList(n, _) => n,
        }
    }

    /// `machine` with this variable holding `value`, a path in it made
    /// absolute by `absolute` (relative to where the agent starts).
    pub fn give(
        self,
        machine: playbookdiff_source::Machine,
        value: &str,
        absolute: &dyn Fn(&str) -> std::path::PathBuf,
    ) -> playbookdiff_source::Machine {
        match self {
            EnvVariable::Path(name) => machine.with_var(name, absolute(value)),
            EnvVariable::Text(name) => machine.with_text(name, value),
            EnvVariable::DirList(name, _) => {
                let dirs = self.entries(value).into_iter().map(absolute).collect();
                machine.with_list(name, dirs)
            }
        }
    }

    /// The entries of the list `value` as the agent splits it (for a
    /// [`EnvVariable::DirList`]; the whole value, trimmed, otherwise),
    /// trimmed, empty and repeated ones dropped, in order.
    pub fn entries(self, value: &str) -> Vec<&str> {
        let parts: Vec<&str> = match self {
            EnvVariable::DirList(_, sep) => value.split(sep).collect(),
            _ => vec![value],
        };
        let mut out: Vec<&str> = Vec::new();
        for p in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }
}

/// An [`Adapter`] assembled from what a harness declares: the usual way to
/// implement the interface, so that each adapter crate states only its own
/// facts and version selection is written once.
///
/// ```
/// use playbookdiff_adapter::{Adapter, Declared};
/// use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness, RepoPath};
///
/// const H: Harness = Harness::new("example", "Example");
/// static EXAMPLE: Declared =
///     Declared::new(H, |r| EffectiveAgentConfig::new(H, r.context.clone()))
///         .owning(&["EXAMPLE.md"])
///         .profiled(&["1.0.0", "1.2.0"]);
/// assert!(EXAMPLE.owns_path(&RepoPath::new("docs/EXAMPLE.md").unwrap()));
/// assert_eq!(EXAMPLE.profiled_versions().last(), Some(&"1.2.0"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    /// The harness.
    pub harness: Harness,
    /// See [`Adapter::config_entry_names`].
    pub config_entry_names: &'static [&'static str],
    /// See [`Adapter::personal_paths`].
    pub personal_paths: &'static [&'static str],
    /// See [`Adapter::home_variables`].
    pub home_variables: &'static [&'static str],
    /// See [`Adapter::environment`].
    pub environment: &'static [EnvVariable],
    /// See [`Adapter::indexed_names`].
    pub indexed_names: &'static [&'static str],
    /// See [`Adapter::own_directories`].
    pub own_directories: &'static [&'static str],
    /// See [`Adapter::target_tests`].
    pub target_tests: fn(Scoped<'_>, &RepoPath) -> Vec<TargetTest>,
    /// See [`Adapter::surfaces`].
    pub surfaces: &'static [Surface],
    /// See [`Adapter::profiled_versions`]; not empty, oldest first.
    pub profiled_versions: &'static [&'static str],
    /// See [`Adapter::coverage`].
    pub coverage: Coverage,
    /// See [`Adapter::first_modelled`]; `None`: the oldest profiled
    /// release.
    pub first_modelled: Option<&'static str>,
    /// See [`Adapter::release_changes`].
    pub release_changes: fn() -> Vec<ReleaseChange>,
    /// See [`Adapter::rows_not_reached`].
    pub rows_not_reached: fn() -> Vec<&'static str>,
    /// The compilation under one profiled release with the other inputs.
    pub compile: Compile,
    /// See [`Adapter::remedy`].
    pub remedy: fn(&Gap<'_>, &Scene<'_, '_>) -> Option<String>,
    /// See [`Adapter::deny_remedy`].
    pub deny_remedy: fn(&PermissionScope) -> Option<String>,
}

impl Declared {
    /// The adapter of `harness`, compiled by `compile`; it owns no
    /// entry names, profiles no release and suggests nothing until the
    /// builder methods below say otherwise.
    pub const fn new(harness: Harness, compile: Compile) -> Declared {
        Declared {
            harness,
            config_entry_names: &[],
            personal_paths: &[],
            home_variables: &[],
            environment: &[],
            indexed_names: &[],
            own_directories: &[],
            surfaces: &[],
            target_tests: |_, _| Vec::new(),
            profiled_versions: &[],
            coverage: Coverage::Profiled,
            first_modelled: None,
            release_changes: Vec::new,
            rows_not_reached: Vec::new,
            compile,
            remedy: |_, _| None,
            deny_remedy: |_| None,
        }
    }

    /// With these owned entry names ([`Adapter::config_entry_names`]).
    pub const fn owning(mut self, names: &'static [&'static str]) -> Declared {
        self.config_entry_names = names;
        self
    }

    /// Looking up these names below a launch directory
    /// ([`Adapter::indexed_names`]).
    pub const fn indexing(mut self, names: &'static [&'static str]) -> Declared {
        self.indexed_names = names;
        self
    }

    /// With these own configuration directories
    /// ([`Adapter::own_directories`]).
    pub const fn directories(mut self, names: &'static [&'static str]) -> Declared {
        self.own_directories = names;
        self
    }

    /// Reading these paths as configuration ([`Adapter::surfaces`]).
    pub const fn reading(mut self, surfaces: &'static [Surface]) -> Declared {
        self.surfaces = surfaces;
        self
    }

    /// With this answer to [`Adapter::target_tests`].
    pub const fn scoping(
        mut self,
        tests: fn(Scoped<'_>, &RepoPath) -> Vec<TargetTest>,
    ) -> Declared {
        self.target_tests = tests;
        self
    }

    /// With these personal files ([`Adapter::personal_paths`]).
    pub const fn personal(mut self, paths: &'static [&'static str]) -> Declared {
        self.personal_paths = paths;
        self
    }

    /// With these variables moving its user directories
    /// ([`Adapter::home_variables`]).
    pub const fn homed_by(mut self, names: &'static [&'static str]) -> Declared {
        self.home_variables = names;
        self
    }

    /// With these variables read as configuration
    /// ([`Adapter::environment`]).
    pub const fn environment(mut self, vars: &'static [EnvVariable]) -> Declared {
        self.environment = vars;
        self
    }

    /// With these profiled releases, oldest first
    /// ([`Adapter::profiled_versions`]).
    pub const fn profiled(mut self, versions: &'static [&'static str]) -> Declared {
        self.profiled_versions = versions;
        self
    }

    /// Modelling every release between the oldest and newest profiled
    /// ones ([`Coverage::Bisected`]), whose behaviours that changed in
    /// that window are `changes` ([`Adapter::release_changes`]) and whose
    /// version table's rows those changes do not give back are
    /// `not_reached` ([`Adapter::rows_not_reached`]).
    pub const fn bisected(
        mut self,
        changes: fn() -> Vec<ReleaseChange>,
        not_reached: fn() -> Vec<&'static str>,
    ) -> Declared {
        self.coverage = Coverage::Bisected;
        self.release_changes = changes;
        self.rows_not_reached = not_reached;
        self
    }

    /// Modelling every release from `first` (a release before the oldest
    /// profiled one, whose behaviours' boundaries bisection found too) to
    /// the newest profiled one ([`Adapter::first_modelled`]); with
    /// [`Declared::bisected`].
    pub const fn modelled_from(mut self, first: &'static str) -> Declared {
        self.first_modelled = Some(first);
        self
    }

    /// With these suggestions for a deny another harness holds
    /// ([`Adapter::deny_remedy`]).
    pub const fn denying(mut self, remedy: fn(&PermissionScope) -> Option<String>) -> Declared {
        self.deny_remedy = remedy;
        self
    }

    /// With these suggestions ([`Adapter::remedy`]).
    pub const fn remedies(
        mut self,
        remedy: fn(&Gap<'_>, &Scene<'_, '_>) -> Option<String>,
    ) -> Declared {
        self.remedy = remedy;
        self
    }
}

impl Adapter for Declared {
    fn harness(&self) -> Harness {
        self.harness
    }

    fn config_entry_names(&self) -> &'static [&'static str] {
        self.config_entry_names
    }

    fn personal_paths(&self) -> &'static [&'static str] {
        self.personal_paths
    }

    fn home_variables(&self) -> &'static [&'static str] {
        self.home_variables
    }

    fn environment(&self) -> &'static [EnvVariable] {
        self.environment
    }

    fn indexed_names(&self) -> &'static [&'static str] {
        self.indexed_names
    }

    fn profiled_versions(&self) -> &'static [&'static str] {
        self.profiled_versions
    }

    fn coverage(&self) -> Coverage {
        self.coverage
    }

    fn first_modelled(&self) -> &'static str {
        match self.first_modelled {
            Some(first) => first,
            None => self.profiled_versions.first().copied().unwrap_or("0"),
        }
    }

    fn release_changes(&self) -> Vec<ReleaseChange> {
        (self.release_changes)()
    }

    fn rows_not_reached(&self) -> Vec<&'static str> {
        (self.rows_not_reached)()
    }

    fn own_directories(&self) -> &'static [&'static str] {
        self.own_directories
    }

    fn target_tests(&self, item: Scoped<'_>, cwd: &RepoPath) -> Vec<TargetTest> {
        (self.target_tests)(item, cwd)
    }

    fn surfaces(&self) -> &'static [Surface] {
        self.surfaces
    }

    /// [`Adapter::compile_with`] with the other inputs at their defaults.
    fn compile(
        &self,
        repo: &Repo<'_>,
        context: &AnalysisContext,
        version: Option<&str>,
    ) -> EffectiveAgentConfig {
        self.compile_with(
            repo,
            context,
            &Inputs {
                version,
                ..Inputs::default()
            },
        )
    }

    /// Picks the profile with [`playbookdiff_model::profile::select_profile`]
    /// (the newest for `None`, else the exact or nearest older one, with an
    /// `unknown-agent-version` diagnostic when not exact), compiles under
    /// it with the other inputs, and records it as `agentProfile`.
    fn compile_with(
        &self,
        repo: &Repo<'_>,
        context: &AnalysisContext,
        inputs: &Inputs<'_>,
    ) -> EffectiveAgentConfig {
        let (profile, diagnostic) = playbookdiff_model::profile::select_profile(
            self.harness.display_name(),
            &self.releases(),
            inputs.version,
        );
        // A fresh record of the link loops and links to nothing met in
        // the user's folders, reported once for all adapters.
        let watched = inputs.machine.map(playbookdiff_source::Machine::watched);
        let inputs = &Inputs {
            machine: watched.as_ref(),
            ..*inputs
        };
        let mut out = (self.compile)(&Request {
            repo,
            context,
            version: &profile.version,
            inputs,
        });
        if let Some(m) = &watched {
            let links = problems::machine_links(m, &out.diagnostics);
            out.diagnostics.extend(links);
        }
        out.diagnostics.extend(diagnostic);
        out.agent_profile = Some(profile);
        out
    }

    fn remedy(&self, gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
        (self.remedy)(gap, scene)
    }

    fn deny_remedy(&self, scope: &PermissionScope) -> Option<String> {
        (self.deny_remedy)(scope)
    }
}

/// The layouts `playbookdiff layout` prints for `adapter`'s harness: one
/// per profiled release, oldest first, when `requested` is `None`;
/// otherwise the one of the release
/// [`playbookdiff_model::profile::select_profile`] picks for it (the exact
/// profile, or the nearest older one with an `unknown-agent-version`
/// diagnostic in [`ReleaseLayout::diagnostics`]). Each holds the rows of
/// [`Adapter::surfaces`] that release reads ([`Surface::read_by`]), in
/// table order.
pub fn layouts(adapter: &dyn Adapter, requested: Option<&str>) -> Vec<ReleaseLayout> {
    let profiled = adapter.profiled_versions();
    let one = |release: &str, diagnostics: Vec<playbookdiff_model::Diagnostic>| ReleaseLayout {
        harness: adapter.harness(),
        name: adapter.harness().display_name(),
        release: release.to_string(),
        diagnostics,
        surfaces: adapter
            .surfaces()
            .iter()
            .filter(|s| s.read_by(release))
            .copied()
            .collect(),
    };
    match requested {
        None => profiled.iter().map(|v| one(v, Vec::new())).collect(),
        Some(v) => {
            let name = adapter.harness().display_name();
            let (profile, diagnostic) =
                playbookdiff_model::profile::select_profile(name, &adapter.releases(), Some(v));
            vec![one(&profile.version, diagnostic.into_iter().collect())]
        }
    }
}

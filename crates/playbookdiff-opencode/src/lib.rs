//! The OpenCode adapter: what OpenCode receives from a repository.
//!
//! [`ADAPTER`] turns a [`Repo`](playbookdiff_source::Repo) and an [`AnalysisContext`] into one
//! [`EffectiveAgentConfig`] following the behaviour of the OpenCode release
//! named in [`PROFILED_VERSIONS`] (and of every release from 1.1.53 on,
//! whose differences the `profile` module's table keys by the release
//! bisection found for each), read from its shipped code (the
//! `opencode-ai` npm package; sources in the `sst/opencode` repository,
//! `packages/opencode/src/session/instruction.ts`,
//! `packages/opencode/src/config/config.ts`, `config/paths.ts`,
//! `config/variable.ts`, `skill/skill.ts`) and checked with the release
//! itself (`opencode debug config`, `debug skill`, `debug agent`, and the
//! request it sends to a model; `docs/fidelity.md`):
//!
//! * **Instructions** (`instructions`): the first of `AGENTS.md`,
//!   `CLAUDE.md`, `CONTEXT.md` that exists in any directory from cwd up to
//!   the repository root (the git worktree), taken from *every* such
//!   directory, closest first; then the files matched by the
//!   `instructions` globs of the merged configuration, each pattern tried
//!   from cwd and every parent up to the root. Below cwd, the first of the
//!   three names per directory is attached on demand when the agent reads a
//!   file there.
//! * **Configuration** (`config`): `opencode.json` and `opencode.jsonc`
//!   from the root down to cwd (the `.jsonc` after the `.json` of the same
//!   directory), then `.opencode/opencode.json(c)` from cwd *up* to the root,
//!   deep-merged in that order; `instructions` lists are joined.
//! * **Skills** (`skills`): `SKILL.md` files under `.claude/skills` and
//!   `.agents/skills` of every directory from cwd up to the root, under
//!   `.opencode/skill` and `.opencode/skills` of the same directories, and
//!   under each `skills.paths` entry (relative to cwd); a skill needs a
//!   `name` in its front matter and is listed to the model only with a
//!   `description`; of two skills with one name only one is kept, which one
//!   is not certain.
//! * **MCP servers** (`mcp`): the merged `mcp` object, `local` servers as
//!   stdio, `remote` ones as HTTP; `{env:VAR}` and `{file:path}` kept
//!   symbolic, literal values redacted.
//! * **Agents, commands, plugins** (`extras`): listed as diagnostics with
//!   their source, since the model has no item for them.
//! * **Hooks and permissions** (`hooks`): the hook names written in each
//!   plugin module of `.opencode/plugin(s)`, and the `permission` setting.
//!
//! Architecture invariant: the adapter never fails and never panics; every
//! file is read through [`Repo::read_text`](playbookdiff_source::Repo::read_text) with [`READ_LIMIT`] (in local
//! mode the user's global instructions through
//! [`playbookdiff_source::Machine`], with the same limit); no literal
//! secret from the repository is written anywhere in the result.

mod config;
mod extras;
mod glob;
mod hooks;
mod instructions;
mod mcp;
mod profile;
pub mod remedy;
mod remote;
mod schema;
mod skills;
mod user;
mod walk;

use playbookdiff_adapter::problems::{self, UnreadLayer};
pub(crate) use playbookdiff_adapter::scope::{place, strictly_below, target_only_dirs};
use playbookdiff_adapter::{
    scope, Compilation, Declared, EnvVariable, Request, Scope, Surface, SurfaceKind,
};
use playbookdiff_model::{
    AnalysisContext, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness, Mode, RepoPath,
    SourceFormat,
};
use playbookdiff_source::Resolved;

/// OpenCode, contract id `opencode`.
pub const HARNESS: Harness = Harness::new("opencode", "OpenCode");

/// What OpenCode does with a user's file that is not valid UTF-8: it
/// reads each invalid byte as U+FFFD and loads the file (seen with
/// 1.18.33: on case `oracle.local_user_layers.home-opencode-non-utf8` the
/// global `AGENTS.md` sent and the skill listed; on case
/// `oracle.local_user_layers.home-opencode-non-utf8-config` the server
/// `a\u{fffd}` of the global `opencode.json` configured).
pub(crate) const NON_UTF8: problems::NonUtf8 = problems::NonUtf8::Replaced(HARNESS.display_name());

/// Entry names whose presence makes a directory hold OpenCode
/// configuration (a candidate launch directory for `check --all-dirs`).
/// `.claude` and `.agents`, which OpenCode also reads skills from, belong
/// to the harnesses that define them.
pub const CONFIG_ENTRY_NAMES: &[&str] = &[
    "AGENTS.md",
    "CLAUDE.md",
    "CONTEXT.md",
    "opencode.json",
    "opencode.jsonc",
    ".opencode",
];

/// OpenCode's own configuration directory: `.opencode` (its
/// `opencode.json` layer, skills, agents and commands; opencode.ai/docs
/// "Config" and "Agent Skills"). OpenCode has no path-scoped item (its
/// `instructions` globs load at startup, its skills carry no `paths`), so
/// it keeps the default [`playbookdiff_adapter::Adapter::target_tests`]
/// (none).
pub const OWN_DIRECTORIES: &[&str] = &[".opencode"];

/// The names looked up below a launch directory besides
/// [`CONFIG_ENTRY_NAMES`]: skills' `SKILL.md`.
pub const INDEXED_NAMES: &[&str] = &["SKILL.md"];

use playbookdiff_adapter::READ_LIMIT;

/// The project instruction file names, in the order OpenCode tries them:
/// the first name found anywhere from cwd up to the root wins, in every
/// directory where it exists. Source: `FILES` in
/// `packages/opencode/src/session/instruction.ts` (`CLAUDE.md` is left out
/// when `OPENCODE_DISABLE_CLAUDE_CODE_PROMPT` is set).
pub const INSTRUCTION_FILES: &[&str] = &["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/// How OpenCode refuses a configuration: it validates the merged project
/// configuration against its schema and exits 1 with "Configuration is
/// invalid at <file>" (or "is not valid JSON(C)") before reading any
/// instruction, skill or MCP server (sst/opencode
/// `packages/opencode/src/config/config.ts`, `InvalidError` and
/// `JsonError`; seen with 1.18.33, from the root and from a subdirectory):
/// one `config-refused` error at the first offending file and line, and
/// every item it would have received `excluded`.
const REFUSAL: problems::Refusal = problems::Refusal {
    refuses: "OpenCode refuses",
    noun: "configuration",
    project: "this project's",
    prints: "Configuration is invalid",
    then: "It loads no instruction, skill or MCP server, so all are shown excluded",
};

/// OpenCode releases this adapter's behaviour is checked against, oldest
/// first; the newest is the default profile. Observations are recorded
/// under `oracle/observations/opencode/` (see `docs/fidelity.md`).
pub const PROFILED_VERSIONS: &[&str] = &["1.18.33"];

/// The configuration layers of a directory, in the order OpenCode reads
/// them: `opencode.json` then `opencode.jsonc`, from the root down to
/// cwd, then the same names inside `.opencode` from cwd up to the root
/// (`packages/opencode/src/config/config.ts`; opencode.ai/docs "Config").
pub const CONFIG_FILES: [Surface; 2] = [
    Surface::new(SurfaceKind::Settings, "**/opencode.json")
        .keys(&[
            "instructions",
            "skills.paths",
            "agent",
            "command",
            "mode",
            "plugin",
        ])
        .tokens(&["{env:VAR}", "{file:path}"]),
    Surface::new(SurfaceKind::Settings, "**/opencode.jsonc")
        .keys(&[
            "instructions",
            "skills.paths",
            "agent",
            "command",
            "mode",
            "plugin",
        ])
        .tokens(&["{env:VAR}", "{file:path}"]),
];

/// OpenCode's layout ([`playbookdiff_adapter::Adapter::surfaces`]): its
/// instruction files ([`INSTRUCTION_FILES`]) in every directory, the
/// configuration layers ([`CONFIG_FILES`], also inside `.opencode`),
/// everything under `.opencode` (agents, commands, skills, plugin
/// modules), the skills it reads from `.claude/skills` and
/// `.agents/skills`, and the user's and managed files local mode reads.
/// Sources: `packages/opencode/src/session/instruction.ts`,
/// `config/agent.ts`, `config/command.ts`, `config/plugin.ts`;
/// opencode.ai/docs "Config", "Agent Skills", "Plugins".
pub const SURFACES: &[Surface] = &[
    Surface::new(SurfaceKind::Instructions, "**/AGENTS.md")
        .note("The first of AGENTS.md, CLAUDE.md, CONTEXT.md in each directory from the launch directory up."),
    Surface::new(SurfaceKind::Instructions, "**/CLAUDE.md"),
    Surface::new(SurfaceKind::Instructions, "**/CONTEXT.md"),
    Surface::new(SurfaceKind::Instructions, CONFIG_FILES[0].pattern).keys(&["instructions"]),
    Surface::new(SurfaceKind::Instructions, "~/.config/opencode/AGENTS.md")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Instructions, "~/.claude/CLAUDE.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), when the global AGENTS.md is absent."),
    Surface::new(SurfaceKind::Skills, "**/.opencode/{skill,skills}/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.claude/skills/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.agents/skills/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "~/.config/opencode/{skill,skills}/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "~/.claude/skills/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "~/.agents/skills/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Subagents, "**/.opencode/{agent,agents,mode,modes}/**/*.md")
        .keys(&["description", "mode", "model", "tools", "disable"]),
    Surface::new(SurfaceKind::Subagents, CONFIG_FILES[0].pattern).keys(&["agent", "mode"]),
    Surface::new(SurfaceKind::Commands, "**/.opencode/{command,commands}/**/*.md")
        .keys(&["description", "agent"]),
    Surface::new(SurfaceKind::Commands, CONFIG_FILES[0].pattern).keys(&["command"]),
    Surface::new(SurfaceKind::Plugins, "**/.opencode/{plugin,plugins}/*.{js,ts}")
        .note("Modules OpenCode imports and runs; their hooks are the names they export."),
    Surface::new(SurfaceKind::Plugins, CONFIG_FILES[0].pattern)
        .keys(&["plugin"])
        .reported(),
    Surface::new(SurfaceKind::Hooks, "**/.opencode/{plugin,plugins}/*.{js,ts}")
        .note("The hook names a plugin module writes (`tool.execute.before`...); `--pure` turns them off."),
    Surface::new(SurfaceKind::McpServers, CONFIG_FILES[0].pattern)
        .keys(&["mcp"])
        .tokens(&["{env:VAR}", "{file:path}"]),
    CONFIG_FILES[0],
    CONFIG_FILES[1],
    Surface::new(SurfaceKind::Settings, "**/.opencode/opencode.json"),
    Surface::new(SurfaceKind::Settings, "**/.opencode/opencode.jsonc"),
    Surface::new(SurfaceKind::Settings, "~/.config/opencode/{config.json,opencode.json,opencode.jsonc}")
        .keys(&["instructions", "mcp", "agent", "command", "permission", "skills.paths"])
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), merged in that order."),
    Surface::new(SurfaceKind::Subagents, "~/.config/opencode/{agent,agents,mode,modes}/**/*.md")
        .keys(&["description", "mode", "model", "tools", "disable"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Commands, "~/.config/opencode/{command,commands}/**/*.md")
        .keys(&["description", "agent"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Plugins, "~/.config/opencode/{plugin,plugins}/*.{js,ts}")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`): the hook names each module writes, never run."),
    Surface::new(SurfaceKind::Directory, "~/.opencode/**")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), after the project's `.opencode` directories: configuration, agents, commands, plugins and skills."),
    Surface::new(SurfaceKind::Settings, "/etc/opencode/opencode.json")
        .scope(Scope::Managed)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Permissions, CONFIG_FILES[0].pattern).keys(&["permission"]),
    Surface::new(SurfaceKind::Directory, "**/.opencode/**"),
];

/// The note of a user or managed file read in local mode only.
const LOCAL_ONLY: &str = "Read in local mode only (`--mode local`).";

/// The OpenCode adapter for `playbookdiff-registry`: what OpenCode receives
/// from a repository under an analysis context
/// (`ADAPTER.compile(repo, context, version)`).
///
/// Shape: an [`EffectiveAgentConfig`] with harness `opencode`; instructions
/// in context order first (effective startup entries by `order`: the
/// instruction files closest to cwd first, then the `instructions` globs),
/// then on-demand entries below cwd, then shadowed, excluded, unavailable
/// and out-of-scope entries; skills in discovery order, out-of-scope ones
/// last; MCP servers by name; diagnostics in discovery order without
/// duplicates; assumptions one sentence each. Never fails.
pub static ADAPTER: Declared = Declared::new(HARNESS, compile)
    .owning(CONFIG_ENTRY_NAMES)
    .reading(SURFACES)
    .directories(OWN_DIRECTORIES)
    .indexing(INDEXED_NAMES)
    .homed_by(&[user::CONFIG_VAR, remote::DATA_VAR])
    .environment(&[
        EnvVariable::Path(user::CONFIG_FILE_VAR),
        EnvVariable::Path(user::CONFIG_DIR_VAR),
        EnvVariable::Text(user::CONFIG_CONTENT_VAR),
        EnvVariable::Text(remote::AUTH_CONTENT_VAR),
    ])
    .profiled(PROFILED_VERSIONS)
    .bisected(profile::changes, profile::not_reached)
    .modelled_from(profile::FIRST_MODELLED)
    .remedies(remedy::for_gap)
    .denying(remedy::deny);

/// The compilation for one OpenCode release of the modelled window
/// ([`profile::of`]): the release's facts that differ from the profiled
/// one's are said in the assumptions.
fn compile(req: &Request<'_, '_>) -> EffectiveAgentConfig {
    let Request {
        repo,
        context,
        version,
        inputs,
    } = *req;
    let mut out = EffectiveAgentConfig::new(HARNESS, context.clone());
    let mut cx = Cx::new(repo, context, HARNESS);
    check_worktree(&mut cx);

    let machine = inputs.machine.filter(|_| context.mode == Mode::Local);
    let facts = profile::of(version);
    let layers = config::load(&mut cx, machine);
    let merged = config::merge(&mut cx, &layers, facts.instruction_lists);

    out.instructions = instructions::compile(&mut cx, &merged, machine, facts.empty_files);
    if !facts.read_attaches_instructions {
        instructions::without_read_attachments(&mut out.instructions, version);
    }
    if let Some(g) = user::global_instruction(inputs.machine, context.mode, &mut cx.diags) {
        user::prepend(&mut out.instructions, g);
    }
    if facts.skills_found {
        out.skills = skills::compile(&mut cx, &merged, machine);
    }
    if machine.is_some() && facts.builtin_customize_skill {
        skills::add_builtin(&mut out.skills, &profile::BUILTIN_SKILL, version);
    }
    out.mcp_servers = mcp::compile(&mut cx, &layers, &merged);
    extras::compile(&mut cx, &layers, machine, &facts, &mut out);
    (out.hooks, out.permissions) = hooks::compile(&mut cx, &layers, machine);
    if cx.report_refusals(&REFUSAL) {
        playbookdiff_adapter::exclude_refused(&mut out, HARNESS.display_name());
    }
    let remote = machine.map(remote::layers).unwrap_or_default();
    let unread = match (machine, remote.is_empty()) {
        (None, _) => UNREAD_LAYERS,
        (Some(_), true) => LOCAL_UNREAD_LAYERS,
        // The sign-ins name the remote layers (first note) themselves.
        (Some(_), false) => &LOCAL_UNREAD_LAYERS[1..],
    };
    cx.diags.extend(remote);
    unavailable(&mut cx, unread, &out);

    out.assumptions = assumptions(context, machine.is_some());
    out.assumptions.extend(facts.assumptions(version));
    out.diagnostics = cx.into_diagnostics();
    out
}

/// Shared state of one compilation (the toolkit's).
pub(crate) type Cx<'r, 't> = Compilation<'r, 't>;

/// What OpenCode's compilation asks of the shared state.
pub(crate) trait Walk {
    /// The directories OpenCode walks from cwd up to its worktree, closest
    /// first: the repository root, or the root of the checked-out
    /// submodule (a directory holding `.git`) that holds cwd
    /// ([`scope::work_tree_chain`]).
    fn up_chain(&self) -> Vec<RepoPath>;

    /// True when `path` exists for OpenCode's `exists` check (Node's
    /// `existsSync`, which follows links): any kind of entry, a link that
    /// resolves inside the repository, or a link out of it (whose target
    /// the analysis cannot see; it is assumed to exist).
    fn exists(&self, path: &RepoPath) -> bool;

    /// Reports why `path` could not be followed, when `r` is a link
    /// problem (the toolkit's [`problems::link_problem`] message); `what`
    /// names the item, `effect` says what OpenCode does. Returns true when a
    /// diagnostic was emitted.
    fn link_problem(&mut self, r: &Resolved, what: &str, effect: &str) -> bool;
}

impl Walk for Cx<'_, '_> {
    fn up_chain(&self) -> Vec<RepoPath> {
        let mut v = scope::work_tree_chain(self.repo, &self.context.cwd);
        v.reverse();
        v
    }

    fn exists(&self, path: &RepoPath) -> bool {
        matches!(
            self.repo.resolve(path),
            Resolved::Inside { .. } | Resolved::Outside { .. }
        )
    }

    fn link_problem(&mut self, r: &Resolved, what: &str, effect: &str) -> bool {
        let (Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link }) = r
        else {
            return false;
        };
        let Some(d) = problems::link_problem(r, link, Some(what), effect, SourceFormat::Markdown)
        else {
            return false;
        };
        self.diag(d);
        true
    }
}

/// OpenCode's worktree is the top level of the git repository that holds
/// cwd (`Project.fromDirectory`: the nearest `.git` above cwd, then `git
/// rev-parse --show-toplevel`); without one it is `/`, and every upward
/// walk goes to the file system root. The analysis takes the nearest
/// directory holding `.git` between cwd and repositoryRoot as the worktree
/// (a checked-out submodule: [`Walk::up_chain`] stops there), else
/// repositoryRoot, and says so.
fn check_worktree(cx: &mut Cx<'_, '_>) {
    let (_, d) = scope::project_root(
        cx.repo,
        &cx.up_chain(),
        |d| format!("{d} holds a `.git` entry, so OpenCode takes {d} as its worktree and stops every upward search (`AGENTS.md`, `opencode.json`, `.opencode`, skills) there: nothing above it is read; pass {d} as the repository to analyse it on its own."),
        "The repository root has no `.git` entry, so OpenCode would treat the launch directory as a non-git project whose worktree is the file system root, and search for AGENTS.md, opencode.json, .opencode and skills above the repository too; the analysis assumes the supplied repositoryRoot is the worktree.",
    );
    cx.diags.extend(d);
}

/// The layers outside the repository that repo mode does not read; local
/// mode reads the first (the global instructions), not yet the others.
const UNREAD_LAYERS: &[UnreadLayer] = &[
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "Global instructions (`~/.config/opencode/AGENTS.md`, else `~/.claude/CLAUDE.md`)",
        effect: "OpenCode places the first that exists before the project's instruction files, so the received instructions may start with more text",
        todo: "check those files on the developer's machine",
    },
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "User configuration (`~/.config/opencode/opencode.json(c)`, OPENCODE_CONFIG, OPENCODE_CONFIG_DIR, OPENCODE_CONFIG_CONTENT, a remote `.well-known/opencode`)",
        effect: "it can add instructions, skills paths and MCP servers, or disable servers the repository configures",
        todo: "treat the result as the repository's contribution only",
    },
    UnreadLayer {
        code: DiagnosticCode::ManagedConfigUnavailable,
        what: "Managed configuration (`/etc/opencode/opencode.json(c)` and managed preferences)",
        effect: "it is merged after the project's and can override any repository value",
        todo: "ask the administrator what it enforces",
    },
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "User skills (`~/.claude/skills`, `~/.agents/skills`, `~/.config/opencode/skill`, `~/.config/opencode/skills`) with OpenCode's built-in customize-opencode skill",
        effect: "a user skill or the built-in one with the same name as a repository skill can take its place",
        todo: "list them with `opencode debug skill`",
    },
];

/// The layers outside the repository that local mode does not read yet.
const LOCAL_UNREAD_LAYERS: &[UnreadLayer] = &[
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "Configuration fetched from a remote `.well-known/opencode`",
        effect: "it can add instructions, skills paths, agents, commands and MCP servers, or disable servers the repository configures",
        todo: "check those settings on the developer's machine",
    },
    UnreadLayer {
        code: DiagnosticCode::ManagedConfigUnavailable,
        what: "Managed preferences (macOS only) and a remote configuration of the user's organisation",
        effect: "they are merged after the project's and can override any repository value",
        todo: "ask the administrator what they enforce",
    },
];

/// One diagnostic per layer outside the repository that can change a
/// modelled surface (instructions, skills, MCP servers).
fn unavailable(cx: &mut Cx<'_, '_>, unread: &[UnreadLayer], out: &EffectiveAgentConfig) {
    cx.report_unread_layers(unread);
    if !out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpRuntimeUnknown,
            "MCP servers are repository-configured and runtime-unverified: the analysis never starts or contacts them, so authentication, reachability, tools and resources are unknown; run OpenCode and check `opencode mcp list` for the live state.",
        ));
    }
}

/// The premises every OpenCode result depends on; `user_layers_read` in
/// local mode with the user's machine.
fn assumptions(context: &AnalysisContext, user_layers_read: bool) -> Vec<String> {
    vec![
        "The supplied repositoryRoot, or the checked-out submodule holding cwd, is OpenCode's worktree (the top level of the git repository holding cwd), where every upward search stops.".to_string(),
        format!("OpenCode starts in cwd {}; startup instructions, configuration layers and skills depend on cwd, and files below cwd add instructions only when the agent reads a file there.", context.cwd),
        if user_layers_read {
            "No environment variable other than OPENCODE_CONFIG, OPENCODE_CONFIG_DIR and OPENCODE_CONFIG_CONTENT (OPENCODE_DISABLE_* in particular), and no remote or managed configuration, changes the values of the repository and of the user's configuration.".to_string()
        } else {
            "No environment variable (OPENCODE_CONFIG*, OPENCODE_DISABLE_*), user, remote or managed configuration changes the repository-defined values.".to_string()
        },
        "Files matched by one `instructions` glob are taken in path order; OpenCode takes them in the unsorted walk order of the npm `glob` package.".to_string(),
        "MCP servers are repository-configured and runtime-unverified.".to_string(),
    ]
}

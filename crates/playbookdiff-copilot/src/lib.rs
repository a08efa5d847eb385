//! The GitHub Copilot CLI adapter: what Copilot CLI receives from a
//! repository.
//!
//! [`ADAPTER`] turns a [`Repo`](playbookdiff_source::Repo) and an
//! [`AnalysisContext`] into one [`EffectiveAgentConfig`] following the
//! behaviour of a Copilot CLI release of [`PROFILED_VERSIONS`] (the
//! `@github/copilot` npm package), observed in the first request it sends
//! to a model (its `<custom_instruction>` blocks, the table of path-specific
//! files, `<available_skills>`) and in its `--output-format json` events
//! (`session.skills_loaded`, `session.mcp_servers_loaded`), and read in its
//! changelog:
//!
//! * **Instructions** (`instructions`): `.github/copilot-instructions.md`,
//!   `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` of the git root, the launch
//!   directory and the directories between; path-specific
//!   `.github/instructions` files and `.claude/rules` (`scoped`); `@path`
//!   imports in 1.0.102 (`imports`).
//! * **Skills** (`skills`): `.github/skills`, `.agents/skills`,
//!   `.claude/skills` and `.claude/commands`; in local mode the user's and
//!   the release's built-in ones.
//! * **MCP servers** (`mcp`): `.mcp.json`, else `.github/mcp.json`.
//! * **Hooks** (`hooks`): `.github/hooks/*.json`, and in 1.0.102 the
//!   Claude-format hooks of `.claude/settings.json`, run in the project
//!   root; in 1.0.102 only in a trusted folder.
//! * **Custom agents** (`agents`): `.github/agents/*.md` and
//!   `.claude/agents/*.md`, listed in the `task` tool.
//! * **Prompt files** (`extras`): not loaded, reported with their source.
//! * **Installed plugins** (`plugins`, local mode): their skills,
//!   commands, agents, MCP servers and hooks, scope `plugin`.
//!
//! Copilot CLI reads the files of other agents (`AGENTS.md`, `CLAUDE.md`,
//! `GEMINI.md`, `.claude/rules`, `.claude/skills`, `.claude/commands`,
//! `.claude/agents`, `.mcp.json`, Claude-format hooks): each such item's
//! reason says that a change made for that agent changes what Copilot CLI
//! receives.
//!
//! Architecture invariant: the adapter never fails and never panics; every
//! file is read through [`Repo::read_text`](playbookdiff_source::Repo::read_text)
//! with [`READ_LIMIT`]; no literal secret from the repository is written
//! anywhere in the result.

mod agents;
mod extras;
mod filter;
mod hooks;
mod imports;
mod instructions;
mod json;
mod mcp;
mod one_source;
mod plugins;
mod profile;
pub mod remedy;
mod scoped;
mod skills;
mod tolerant;
mod trust;
mod user;

use playbookdiff_adapter::problems::UnreadLayer;
use playbookdiff_adapter::{
    Compilation, Declared, EnvVariable, Request, Scope, Scoped, Surface, SurfaceKind, TargetTest,
    READ_LIMIT,
};
use playbookdiff_model::{
    AnalysisContext, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness, Mode, RepoPath,
};

pub(crate) use profile::Profile;

/// GitHub Copilot CLI, contract id `copilot`.
pub const HARNESS: Harness = Harness::new("copilot", "Copilot CLI");

/// Entry names whose presence makes a directory hold Copilot CLI
/// configuration (a candidate launch directory for `check --all-dirs`):
/// the instruction files it reads in every directory of the launch chain,
/// and `.github` (copilot-instructions, instructions, skills, agents,
/// hooks, MCP). `.claude` and `.agents`, which it also reads, belong to the
/// harnesses that define them.
pub const CONFIG_ENTRY_NAMES: &[&str] = &["AGENTS.md", "CLAUDE.md", "GEMINI.md", ".github"];

/// Copilot CLI's own configuration directory: `.github`.
pub const OWN_DIRECTORIES: &[&str] = &[".github"];

/// Copilot CLI releases this adapter's behaviour is checked against,
/// oldest first; the newest is the default profile.
pub const PROFILED_VERSIONS: &[&str] = &["1.0.24", "1.0.102"];

/// The MCP files of a directory, in the order Copilot CLI tries them:
/// `.mcp.json`, then (1.0.102) `.github/mcp.json` (seen with both
/// releases; the profile says which a release reads).
pub const MCP_FILES: [Surface; 2] = [
    Surface::new(SurfaceKind::McpServers, "**/.mcp.json").keys(&["mcpServers"]),
    Surface::new(SurfaceKind::McpServers, "**/.github/mcp.json")
        .keys(&["mcpServers"])
        .since("1.0.102"),
];

/// Copilot CLI's layout ([`playbookdiff_adapter::Adapter::surfaces`]):
/// its own `.github` files, the other agents' files it reads too, and
/// the user's files local mode reads (see the crate
/// documentation and its modules for the observations).
pub const SURFACES: &[Surface] = &[
    Surface::new(SurfaceKind::Instructions, "**/AGENTS.md").tokens(&["@path"]),
    Surface::new(SurfaceKind::Instructions, "**/CLAUDE.md").tokens(&["@path"]),
    Surface::new(SurfaceKind::Instructions, "**/GEMINI.md").tokens(&["@path"]),
    Surface::new(
        SurfaceKind::Instructions,
        "**/.github/copilot-instructions.md",
    )
    .tokens(&["@path"]),
    Surface::new(
        SurfaceKind::Instructions,
        "~/.copilot/copilot-instructions.md",
    )
    .scope(Scope::User)
    .note(LOCAL_ONLY),
    Surface::new(
        SurfaceKind::Rules,
        ".github/instructions/**/*.instructions.md",
    )
    .keys(&["applyTo"]),
    Surface::new(SurfaceKind::Rules, ".claude/rules/**/*.md")
        .keys(&["paths"])
        .since("1.0.102"),
    Surface::new(SurfaceKind::Rules, "~/.copilot/instructions/**")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "**/.github/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.agents/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.claude/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "~/.copilot/skills/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "~/.agents/skills/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "~/.claude/skills/*/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), by 1.0.24; 1.0.102 does not read it."),
    Surface::new(SurfaceKind::Commands, "**/.claude/commands/*.md").note("Offered as skills."),
    Surface::new(SurfaceKind::Commands, ".github/prompts/*.prompt.md")
        .reported()
        .note("Not loaded by Copilot CLI."),
    Surface::new(SurfaceKind::Subagents, "**/.github/agents/*.md")
        .keys(&[
            "name",
            "description",
            "tools",
            "model",
            "disable-model-invocation",
            "infer",
        ])
        .note("`NAME.agent.md` wins over `NAME.md`."),
    Surface::new(SurfaceKind::Subagents, "**/.claude/agents/*.md").keys(&[
        "name",
        "description",
        "tools",
        "model",
        "disable-model-invocation",
        "infer",
    ]),
    Surface::new(SurfaceKind::Subagents, "~/.copilot/agents/*.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`); `NAME.agent.md` wins over `NAME.md`."),
    Surface::new(SurfaceKind::Subagents, "~/.claude/agents/*.md")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Plugins, "~/.copilot/installed-plugins/**")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`): each enabled plugin's skills, commands, custom agents, MCP servers and hooks."),
    Surface::new(SurfaceKind::Hooks, ".github/hooks/*.json")
        .keys(&["hooks", "disableAllHooks"])
        .tokens(&["$CLAUDE_PROJECT_DIR"]),
    Surface::new(SurfaceKind::Hooks, ".claude/settings.json")
        .keys(&["hooks", "disableAllHooks"])
        .tokens(&["$CLAUDE_PROJECT_DIR"])
        .since("1.0.102"),
    MCP_FILES[0],
    MCP_FILES[1],
    Surface::new(SurfaceKind::McpServers, "~/.copilot/mcp-config.json")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Hooks, "~/.copilot/hooks/*.json")
        .keys(&["hooks", "disableAllHooks"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Settings, "~/.copilot/config.json")
        .keys(&["trusted_folders", "hooks", "disableAllHooks"])
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`): the trusted folders, which gate workspace MCP servers and hooks (1.0.102), and the hooks of 1.0.24."),
    Surface::new(SurfaceKind::Settings, "~/.copilot/settings.json")
        .keys(&["hooks", "disableAllHooks"])
        .scope(Scope::User)
        .since("1.0.102")
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Settings, "/etc/github-copilot/managed-settings.json")
        .keys(&["enabledPlugins"])
        .scope(Scope::Managed)
        .since("1.0.81")
        .note("Read in local mode only (`--mode local`): its `enabledPlugins`, over every other map."),
    Surface::new(SurfaceKind::Directory, "**/.github/**"),
];

/// The note of a user file read in local mode only.
const LOCAL_ONLY: &str = "Read in local mode only (`--mode local`).";

/// The Copilot CLI adapter for `playbookdiff-registry`: what Copilot CLI
/// receives from a repository under an analysis context.
///
/// Shape: an [`EffectiveAgentConfig`] with harness `copilot`; instructions
/// in the order the release sends them (each followed by its imports),
/// then on-demand, shadowed, excluded and out-of-scope entries; skills in
/// discovery order; MCP servers by name; diagnostics in discovery order
/// without duplicates. Never fails.
pub static ADAPTER: Declared = Declared::new(HARNESS, compile)
    .owning(CONFIG_ENTRY_NAMES)
    .reading(SURFACES)
    .directories(OWN_DIRECTORIES)
    .scoping(target_tests)
    .environment(&[EnvVariable::DirList(user::INSTRUCTIONS_DIRS_VAR, ',')])
    .profiled(PROFILED_VERSIONS)
    .bisected(profile::changes, profile::not_reached)
    .modelled_from(profile::FIRST_MODELLED)
    .remedies(remedy::for_gap);

/// Shared state of one compilation (the toolkit's).
pub(crate) type Cx<'r, 't> = Compilation<'r, 't>;

/// The compilation for one release of [`PROFILED_VERSIONS`].
fn compile(req: &Request<'_, '_>) -> EffectiveAgentConfig {
    let Request {
        repo,
        context,
        version,
        inputs,
    } = *req;
    let profile = &profile::of(version);
    let mut out = EffectiveAgentConfig::new(HARNESS, context.clone());
    let mut cx = Cx::new(repo, context, HARNESS);
    let machine = inputs.machine.filter(|_| context.mode == Mode::Local);
    out.instructions = instructions::compile(&mut cx, profile, machine);
    out.skills = skills::compile(&mut cx, profile, machine);
    let trust = trust::read(&mut cx, machine, profile);
    out.mcp_servers = mcp::compile(&mut cx, profile, machine, &trust);
    out.hooks = hooks::compile(&mut cx, profile, version, machine, &trust);
    out.subagents = agents::compile(&mut cx, profile, machine);
    extras::report(&mut cx);
    unavailable(&mut cx, &out, profile, machine, &trust);
    out.assumptions = assumptions(context);
    if trust != trust::FolderTrust::Assumed {
        // The folder's trust is read, not assumed.
        out.assumptions
            .retain(|a| !a.starts_with("The repository is trusted"));
    }
    out.diagnostics = cx.into_diagnostics();
    out
}

/// The directories Copilot CLI walks from its git root down to cwd, git
/// root first: the nearest directory holding `.git` at or above cwd (a
/// checked-out submodule's root when cwd lies in one; seen with 1.0.24 and
/// 1.0.102 on case `oracle.submodule_checked_out.in-libs-sub`: nothing of
/// the superproject loaded), else the repository root.
///
/// Found once per launch directory and `Repo` ([`Repo::memo`]): every
/// surface asks for it, and finding the git root stats each directory on
/// the way.
///
/// [`Repo::memo`]: playbookdiff_source::Repo::memo
pub(crate) fn chain(cx: &Cx<'_, '_>) -> Vec<RepoPath> {
    /// The memo key: the launch directory.
    #[derive(Hash, PartialEq, Eq)]
    struct ChainOf(RepoPath);
    let cwd = &cx.context.cwd;
    cx.repo.memo(ChainOf(cwd.clone()), || {
        playbookdiff_adapter::scope::work_tree_chain(cx.repo, cwd)
    })
}

/// The git root of [`chain`].
pub(crate) fn git_root(cx: &Cx<'_, '_>) -> RepoPath {
    chain(cx).into_iter().next().unwrap_or_else(RepoPath::root)
}

/// The note for a file of another agent's convention that Copilot CLI
/// reads (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `.claude/...`): ends a
/// reason; empty for Copilot CLI's own files (`.github/...`, the user's
/// `~/.copilot/...`).
pub(crate) fn shared_note(path: &RepoPath) -> &'static str {
    let own = path.as_str().contains(".github/") || path.as_str().starts_with("~/.copilot/");
    if own {
        ""
    } else {
        "; the file belongs to another agent's convention, so a change made for that agent changes what Copilot CLI receives too"
    }
}

/// For a path-specific item (`applyTo` or `paths`), one test per glob,
/// matched against the target's repository path as Copilot CLI matches
/// (relative to the git root, `*` within one directory).
fn target_tests(item: Scoped<'_>, _cwd: &RepoPath) -> Vec<TargetTest> {
    let Some(paths) = item.paths() else {
        return Vec::new();
    };
    paths
        .iter()
        .filter_map(|g| scoped::matcher(g))
        .map(|m| Box::new(move |t: &RepoPath, _dir: bool| m.is_match(t.as_str())) as TargetTest)
        .collect()
}

/// The layers outside the repository repo mode does not read: the user's
/// instructions, then the user's other items.
const UNREAD_LAYERS: &[UnreadLayer] = &[
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "User instructions (`~/.copilot/copilot-instructions.md`, `~/.copilot/instructions/**/*.instructions.md`, `COPILOT_CUSTOM_INSTRUCTIONS_DIRS`)",
        effect: "Copilot CLI adds them to the project's instructions",
        todo: "check those files on the developer's machine",
    },
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "User skills, agents, hooks and MCP servers (`~/.copilot/skills`, `~/.claude/skills`, `~/.agents/skills`, `~/.copilot/agents`, `~/.claude/agents`, `~/.copilot/hooks`, `~/.copilot/mcp-config.json`) and Copilot CLI's built-in skills",
        effect: "they add skills, custom agents and MCP servers the model is told about, and hooks that run",
        todo: "list them with `copilot skill list` and `copilot mcp list`",
    },
];

/// What local mode still does not read of the user's configuration (it
/// reads the user's skills, `~/.copilot/agents`, `~/.claude/agents`,
/// `~/.copilot/mcp-config.json`, the hooks of `~/.copilot/hooks` and of
/// the user's settings, their `disabledSkills`, `trusted_folders`, the
/// skills, commands, agents, MCP servers and hooks of the installed
/// plugins, their manifests' paths included, and lists the release's
/// built-in skills).
const LOCAL_UNREAD_LAYERS: UnreadLayer = UnreadLayer {
    code: DiagnosticCode::UserConfigUnavailable,
    what: "The managed settings Copilot CLI fetches for the user's account",
    effect: "their `enabledPlugins` can turn installed plugins on or off",
    todo: "list them with `copilot plugin list`",
};

/// One diagnostic per layer outside the repository that can change a
/// modelled surface (in local mode, those still unread), and the trust the
/// analysis cannot see.
fn unavailable(
    cx: &mut Cx<'_, '_>,
    out: &EffectiveAgentConfig,
    profile: &Profile,
    local: Option<&playbookdiff_source::Machine>,
    trust: &trust::FolderTrust,
) {
    match local {
        Some(_) => cx.report_unread_layers(&[LOCAL_UNREAD_LAYERS]),
        None => cx.report_unread_layers(UNREAD_LAYERS),
    }
    let assumed = *trust == trust::FolderTrust::Assumed;
    if assumed && profile.trust_gates_hooks_and_mcp && !out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::ProjectTrustAssumed,
            "Copilot CLI starts workspace MCP servers only in a folder the user trusts (`trusted_folders` in `~/.copilot/config.json`, or a prompt); the analysis cannot see that state and assumes the repository is trusted.",
        ));
    }
    if !out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpRuntimeUnknown,
            "MCP servers are repository-configured and runtime-unverified: the analysis never starts or contacts them, so reachability, tools and resources are unknown; run Copilot CLI and check `copilot mcp list` for the live state.",
        ));
    }
}

/// The premises every Copilot CLI result depends on.
fn assumptions(context: &AnalysisContext) -> Vec<String> {
    vec![
        "The supplied repositoryRoot is the git root Copilot CLI starts its search from.".to_string(),
        format!("Copilot CLI starts in cwd {}: the instruction files of the git root, of cwd and of the directories between load at startup; files below cwd only when the agent views a file there (1.0.102).", context.cwd),
        "The repository is trusted (`trusted_folders` in `~/.copilot/config.json`) for its MCP servers: otherwise Copilot CLI 1.0.102 starts no workspace MCP server in `-p` mode (its hooks, gated the same way, are listed with `runs: unknown`).".to_string(),
        "No environment variable (COPILOT_CUSTOM_INSTRUCTIONS_DIRS, COPILOT_HOME) or user configuration changes the repository-defined values.".to_string(),
        "MCP servers are repository-configured and runtime-unverified.".to_string(),
    ]
}

//! The Gemini CLI adapter: what Gemini CLI receives from a repository.
//!
//! [`ADAPTER`] turns a [`Repo`](playbookdiff_source::Repo) and an
//! [`AnalysisContext`] into one [`EffectiveAgentConfig`] following the
//! behaviour of a Gemini CLI release of [`PROFILED_VERSIONS`], read from its
//! code (the `@google/gemini-cli` npm package; sources in the
//! `google-gemini/gemini-cli` repository, `packages/core/src/utils/
//! memoryDiscovery.ts`, `memoryImportProcessor.ts`, `packages/cli/src/
//! config/settings.ts`, `packages/core/src/skills/skillLoader.ts` and
//! `skillManager.ts`) and checked with the release itself (the first
//! request it sends to a model, `docs/fidelity.md`):
//!
//! * **Context files** (`context`): `GEMINI.md`, or the names of
//!   `context.fileName`, in the directories from the project root down to
//!   cwd; 0.61 sorts them as absolute-path strings, 0.34 groups them by
//!   name and adds a downward search below cwd (module `profile`). `@path`
//!   imports are inlined (module `imports`). 0.61 also adds the files of the
//!   directories between a file the agent reads and cwd, on demand.
//! * **Settings** (`settings`): only `<cwd>/.gemini/settings.json` of the
//!   repository applies (`context.fileName`, `context.memoryBoundaryMarkers`,
//!   `mcpServers`); a malformed one stops the agent.
//! * **Skills** (`skills`): `.gemini/skills` and `.agents/skills` of cwd.
//! * **MCP servers** (`mcp`): `mcpServers` of the workspace settings.
//! * **Permissions** (`policies`): the workspace settings' `tools.exclude`,
//!   `tools.allowed`, `tools.core` and `tools.confirmationRequired` as
//!   rules of the policy engine.
//! * **Hooks** (`hooks`): `hooks` of the workspace settings, under Gemini
//!   CLI's own event names, each mapped to its cross-harness meaning.
//! * **Commands** (`commands`): `.gemini/commands/**/*.toml`
//!   (user-invoked, never sent to the model).
//! * **Subagents** (`extras`): `.gemini/agents/*.md` (loaded only once
//!   acknowledged); a repository's extensions, which Gemini CLI ignores,
//!   are reported.
//!
//! In local mode (`--mode local`) the user's and the machine's layers are
//! read too, each item in its scope: the user's global context
//! (`~/.gemini/GEMINI.md`), skills (`~/.gemini/skills`,
//! `~/.agents/skills`) and commands (`~/.gemini/commands`), the user's
//! extensions (`~/.gemini/extensions`, module `extensions`: each item in
//! the layer `plugin`, named `extension:NAME`), and the settings Gemini
//! CLI merges (system defaults, user, workspace, system), their hooks
//! included, and the policy engine's rules (module `policies`: the
//! system's and the user's `policies/*.toml` or the policy files the
//! settings' `policyPaths` and `adminPolicyPaths` name, the extensions'
//! policies and `excludeTools`, and the settings' `tools.exclude`,
//! `tools.allowed`, `tools.core` and `tools.confirmationRequired`, the
//! workspace's in repo mode too) as permission settings. The workspace's
//! `.gemini/policies`, which Gemini CLI never reads, is reported.
//!
//! Architecture invariant: the adapter never fails and never panics; every
//! file is read through [`Repo::read_text`](playbookdiff_source::Repo::read_text)
//! with [`READ_LIMIT`]; no literal secret from the repository is written
//! anywhere in the result.

mod blocked;
mod commands;
mod context;
mod extensions;
mod extras;
mod frontmatter;
mod hooks;
mod imports;
mod mcp;
mod policies;
mod profile;
pub mod remedy;
mod settings;
mod skills;
mod user;

use playbookdiff_adapter::problems::{self, UnreadLayer};
use playbookdiff_adapter::{
    Compilation, Declared, Request, Scope, Surface, SurfaceKind, READ_LIMIT,
};
use playbookdiff_model::{
    AnalysisContext, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness, Mode,
};

pub(crate) use profile::Profile;

/// Gemini CLI, contract id `gemini`.
pub const HARNESS: Harness = Harness::new("gemini", "Gemini CLI");

/// What Gemini CLI does with a user's file that is not valid UTF-8: it
/// reads each invalid byte as U+FFFD and loads the file (seen with 0.34.0
/// and 0.61.0: on case `oracle.local_user_layers.home-gemini-non-utf8`
/// `~/.gemini/GEMINI.md` sent, the skill, the subagent and the command
/// listed; on case
/// `oracle.local_user_layers.home-gemini-non-utf8-settings` the server of
/// `~/.gemini/settings.json` listed).
pub(crate) const NON_UTF8: problems::NonUtf8 = problems::NonUtf8::Replaced(HARNESS.display_name());

/// Entry names whose presence makes a directory hold Gemini CLI
/// configuration (a candidate launch directory for `check --all-dirs`):
/// its default context file and its configuration directory. `.agents`,
/// which Gemini CLI also reads skills from, belongs to the harnesses that
/// define it.
pub const CONFIG_ENTRY_NAMES: &[&str] = &["GEMINI.md", ".gemini"];

/// Gemini CLI's own configuration directory: `.gemini` (settings, skills,
/// commands, agents; `GEMINI_DIR` in `packages/core/src/utils/paths.ts`).
/// Gemini CLI has no path-scoped item, so it keeps the default
/// [`playbookdiff_adapter::Adapter::target_tests`] (none).
pub const OWN_DIRECTORIES: &[&str] = &[".gemini"];

/// The names looked up below a launch directory besides
/// [`CONFIG_ENTRY_NAMES`]: `AGENTS.md` and `CONTEXT.md`, the names of
/// Gemini CLI's own `context.fileName` example (`docs/cli/gemini-md.md`:
/// `["AGENTS.md", "CONTEXT.md", "GEMINI.md"]`). Any other configured name
/// costs one more pass over the tree, never a wrong answer.
pub const INDEXED_NAMES: &[&str] = &["AGENTS.md", "CONTEXT.md"];

/// The default context file name, used when the workspace settings set no
/// `context.fileName` (`DEFAULT_CONTEXT_FILENAME` in
/// `packages/core/src/tools/memoryTool.ts`).
pub const DEFAULT_CONTEXT_FILE: &str = "GEMINI.md";

/// Gemini CLI releases this adapter's behaviour is checked against, oldest
/// first; the newest is the default profile. Observations are recorded
/// under `oracle/observations/gemini/` (see `docs/fidelity.md`).
pub const PROFILED_VERSIONS: &[&str] = &["0.34.0", "0.61.0"];

/// How Gemini CLI refuses a configuration: a workspace `settings.json`
/// that is not JSON (after comments are stripped) or not an object stops
/// it with exit code 52 and "Error in <file>: ... Please fix the
/// configuration file(s) and try again." (`FatalConfigError` in
/// `packages/cli/src/config/settings.ts`).
const REFUSAL: problems::Refusal = problems::Refusal {
    refuses: "Gemini CLI refuses",
    noun: "settings",
    project: "this workspace's",
    prints: "Please fix the configuration",
    then: "It does not start, so every context file, skill and MCP server is shown excluded",
};

/// The workspace settings: `.gemini/settings.json` of the launch
/// directory only (`packages/cli/src/config/settings.ts`; seen with 0.34.0
/// and 0.61.0).
pub const SETTINGS: Surface = Surface::new(SurfaceKind::Settings, "**/.gemini/settings.json")
    .keys(&["context.fileName", "context.memoryBoundaryMarkers", "experimental.enableAgents"])
    .tokens(&["$VAR", "${VAR}"])
    .note("Read from the launch directory only, in a trusted workspace; invalid JSON stops Gemini CLI.");

/// The note of a user or system file read in local mode only.
const LOCAL_ONLY: &str = "Read in local mode only (`--mode local`).";

/// Gemini CLI's layout ([`playbookdiff_adapter::Adapter::surfaces`]):
/// `GEMINI.md` in every directory (and the names `context.fileName`
/// gives), `.gemini` (settings, skills, commands, agents), the
/// `.agents` skills root, and the user's and system files local mode
/// reads. Sources: `GEMINI_DIR` in
/// `packages/core/src/utils/paths.ts`, `docs/cli/gemini-md.md`, the
/// settings, commands, subagents, hooks and extensions documentation.
pub const SURFACES: &[Surface] = &[
    Surface::new(SurfaceKind::Instructions, "**/GEMINI.md")
        .tokens(&["@path"])
        .note("Or the names `context.fileName` gives, in every directory from the root to the launch directory."),
    Surface::new(SurfaceKind::Instructions, SETTINGS.pattern).keys(&["context.fileName"]),
    Surface::new(SurfaceKind::Instructions, "~/.gemini/GEMINI.md")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "**/.gemini/skills/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.agents/skills/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "~/.gemini/skills/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Skills, "~/.agents/skills/**/SKILL.md")
        .keys(&["name", "description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Commands, "**/.gemini/commands/**/*.toml")
        .keys(&["description"])
        .note("Run by the user, never sent to the model."),
    Surface::new(SurfaceKind::Commands, "~/.gemini/commands/**/*.toml")
        .keys(&["description"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Subagents, "**/.gemini/agents/*.md")
        .keys(&["name", "description", "tools", "model"])
        .note("Loaded only once the user acknowledged each file."),
    Surface::new(SurfaceKind::Subagents, "~/.gemini/agents/*.md")
        .keys(&["name", "description", "tools", "model"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Hooks, SETTINGS.pattern)
        .keys(&["hooks", "hooksConfig.enabled", "hooksConfig.disabled"])
        .tokens(&["$GEMINI_PROJECT_DIR", "$CLAUDE_PROJECT_DIR", "$GEMINI_CWD"]),
    Surface::new(SurfaceKind::Plugins, "**/.gemini/extensions/**")
        .reported()
        .note("Ignored by Gemini CLI: extensions come only from ~/.gemini/extensions."),
    Surface::new(SurfaceKind::Plugins, "~/.gemini/extensions/*/gemini-extension.json")
        .keys(&["name", "version", "contextFileName", "mcpServers"])
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), with `extension-enablement.json`; its `commands/` and `skills/` too."),
    Surface::new(SurfaceKind::Plugins, "~/.gemini/extensions/**")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`): each active extension's context files, commands, skills, hooks, subagents and policies."),
    Surface::new(SurfaceKind::McpServers, SETTINGS.pattern)
        .keys(&["mcpServers", "mcp.allowed", "mcp.excluded"])
        .tokens(&["$VAR", "${VAR}"]),
    SETTINGS,
    Surface::new(SurfaceKind::Permissions, SETTINGS.pattern)
        .keys(&["tools.exclude", "tools.allowed", "tools.core", "tools.confirmationRequired", "policyPaths", "adminPolicyPaths"])
        .note("Rules of the policy engine: `tools.exclude` withholds, `tools.allowed` runs without confirmation, `tools.core` keeps only the built-in tools it names, `tools.confirmationRequired` asks (0.39.1); `policyPaths` and `adminPolicyPaths` (0.36.0, local mode) name policy files or folders of the user and admin tiers."),
    Surface::new(SurfaceKind::Settings, "~/.gemini/settings.json")
        .keys(&["context.fileName", "context.memoryBoundaryMarkers", "mcpServers", "mcp.allowed", "mcp.excluded", "hooks", "hooksConfig.enabled", "hooksConfig.disabled", "tools.exclude", "tools.allowed", "tools.core", "tools.confirmationRequired", "policyPaths", "adminPolicyPaths"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Settings, "/etc/gemini-cli/settings.json")
        .keys(&["context.fileName", "context.memoryBoundaryMarkers", "mcpServers", "mcp.allowed", "mcp.excluded", "hooks", "hooksConfig.enabled", "hooksConfig.disabled", "tools.exclude", "tools.allowed", "tools.core", "tools.confirmationRequired", "policyPaths", "adminPolicyPaths"])
        .scope(Scope::Managed)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Settings, "/etc/gemini-cli/system-defaults.json")
        .keys(&["context.fileName", "context.memoryBoundaryMarkers", "mcpServers", "mcp.allowed", "mcp.excluded", "hooks", "hooksConfig.enabled", "hooksConfig.disabled", "tools.exclude", "tools.allowed", "tools.core", "tools.confirmationRequired", "policyPaths", "adminPolicyPaths"])
        .scope(Scope::Managed)
        .note("Read in local mode only (`--mode local`), below the user's settings."),
    Surface::new(SurfaceKind::Permissions, "**/.gemini/policies/*.toml")
        .reported()
        .note("Ignored by Gemini CLI: its policy engine's workspace tier is turned off."),
    Surface::new(SurfaceKind::Permissions, "~/.gemini/policies/*.toml")
        .keys(&["rule.toolName", "rule.decision", "rule.priority", "rule.modes", "rule.argsPattern", "rule.commandPrefix", "rule.mcpName"])
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Permissions, "/etc/gemini-cli/policies/*.toml")
        .keys(&["rule.toolName", "rule.decision", "rule.priority", "rule.modes", "rule.argsPattern", "rule.commandPrefix", "rule.mcpName"])
        .scope(Scope::Managed)
        .note("Read in local mode only (`--mode local`); above the user's policies."),
    Surface::new(SurfaceKind::Permissions, "~/.gemini/extensions/*/policies/*.toml")
        .keys(&["rule.toolName", "rule.decision", "rule.priority"])
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), below the user's policies; an `allow` rule is dropped."),
    Surface::new(SurfaceKind::Permissions, "~/.gemini/extensions/*/gemini-extension.json")
        .keys(&["excludeTools"])
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`): the tools named are withheld from the model."),
    Surface::new(SurfaceKind::Directory, "**/.gemini/**"),
];

/// The Gemini CLI adapter for `playbookdiff-registry`: what Gemini CLI
/// receives from a repository under an analysis context.
///
/// Shape: an [`EffectiveAgentConfig`] with harness `gemini`; context files
/// in the order the release sends them (each followed by the files it
/// imports), then on-demand files (0.61), then excluded, conditional and
/// out-of-scope entries; skills by name; MCP servers by name; diagnostics
/// in discovery order without duplicates. Never fails.
pub static ADAPTER: Declared = Declared::new(HARNESS, compile)
    .owning(CONFIG_ENTRY_NAMES)
    .reading(SURFACES)
    .directories(OWN_DIRECTORIES)
    .indexing(INDEXED_NAMES)
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

    let all = settings::Settings {
        user: machine_settings(&mut cx, machine, settings::user_path()),
        workspace: settings::load(&mut cx),
        system: machine_settings(&mut cx, machine, settings::system_path()),
        defaults: machine_settings(&mut cx, machine, settings::system_defaults_path()),
    };
    let ws = &all.workspace;
    let launch_dir = extensions::launch_dir(repo.tree().absolute_root(), &context.cwd);
    let launch_dir = machine.zip(launch_dir).map(|(m, d)| m.real_path(&d));
    let exts = match machine {
        Some(m) => extensions::load(&mut cx, m, launch_dir.as_deref()),
        None => Vec::new(),
    };
    out.instructions = context::compile(&mut cx, profile, &all, (machine, &exts));
    out.skills = skills::compile(&mut cx, profile, (machine, &exts));
    out.mcp_servers = mcp::compile(&mut cx, &all, &exts);
    out.hooks = hooks::compile(&mut cx, &all, (machine, &exts), version);
    out.commands = commands::compile(&mut cx, profile, ws, (machine, &exts));
    out.subagents = extras::subagents(&mut cx, profile, ws);
    if let Some(m) = machine {
        extras::user_subagents(&mut cx, profile, (&all, m), &mut out.subagents);
        extras::extension_subagents(&mut cx, profile, (&all, m, &exts), &mut out.subagents);
    }
    out.permissions = policies::compile(&mut cx, profile, (machine, &exts), &all);
    policies::withheld_mcp_tools(&out.permissions, &mut out.mcp_servers);
    out.plugins = extensions::plugins(&exts, &out);
    extras::report(&mut cx);
    policies::report_workspace(&mut cx);
    if cx.report_refusals(&REFUSAL) {
        playbookdiff_adapter::exclude_refused(&mut out, HARNESS.display_name());
    }
    let unread = if machine.is_some() {
        LOCAL_UNREAD_LAYERS
    } else {
        UNREAD_LAYERS
    };
    unavailable(&mut cx, unread, &out);
    out.assumptions = assumptions(context, profile, machine.is_some());
    if !exts.is_empty() && launch_dir.is_none() {
        out.assumptions.push("No override of `extension-enablement.json` turns an extension off here: the launch directory's absolute path, which the overrides are matched against, is unknown (a revision, not a working tree).".to_string());
    }
    if profile.system_settings_secured && all.system.path.is_some() {
        out.assumptions.push("The system settings file and every directory above it are owned by root and not writable by group or others: Gemini CLI 0.61 skips the file otherwise, with a security warning.".to_string());
    }
    if profile.system_settings_secured && all.defaults.path.is_some() {
        out.assumptions.push("The system defaults file and every directory above it are owned by root and not writable by group or others: Gemini CLI 0.61 skips it otherwise, with a security warning.".to_string());
    }
    out.diagnostics = cx.into_diagnostics();
    out
}

/// The layers outside the repository that can change a modelled surface
/// (context files, skills, MCP servers); local mode reads the first and
/// part of the second ([`LOCAL_UNREAD_LAYERS`]).
const UNREAD_LAYERS: &[UnreadLayer] = &[
        UnreadLayer {
            code: DiagnosticCode::UserConfigUnavailable,
            what: "Global context (`~/.gemini/GEMINI.md`, or the `context.fileName` names there)",
            effect: "Gemini CLI sends it before the project's context files",
            todo: "check that file on the developer's machine",
        },
        UnreadLayer {
            code: DiagnosticCode::UserConfigUnavailable,
            what: "User settings (`~/.gemini/settings.json`), policies (`~/.gemini/policies/`) and extensions (`~/.gemini/extensions/`)",
            effect: "they can add MCP servers, skills, context files and context.fileName names, and allow or withhold tools",
            todo: "treat the result as the repository's contribution only",
        },
        UnreadLayer {
            code: DiagnosticCode::ManagedConfigUnavailable,
            what: "System settings (`/etc/gemini-cli/settings.json`, `GEMINI_CLI_SYSTEM_SETTINGS_PATH`) and system defaults",
            effect: "system settings override the workspace's, and can change context.fileName or MCP servers",
            todo: "ask the administrator what they set",
        },
        UnreadLayer {
            code: DiagnosticCode::UserConfigUnavailable,
            what: "User skills (`~/.gemini/skills`, `~/.agents/skills`) and Gemini CLI's built-in skills",
            effect: "the workspace's skills win a name clash with them, but they add skills the model is told about",
            todo: "list them with `gemini skills list`",
        },
];

/// The settings file `path` of `machine` (local mode); empty in repo mode.
fn machine_settings(
    cx: &mut Cx<'_, '_>,
    machine: Option<&playbookdiff_source::Machine>,
    path: Option<playbookdiff_model::RepoPath>,
) -> settings::Workspace {
    match (machine, path) {
        (Some(m), Some(p)) => settings::load_machine(cx, m, p),
        _ => settings::Workspace::default(),
    }
}

/// The layers local mode does not read yet: the user's global context,
/// skills and commands, the release's built-in skills, the user's
/// extensions (module `extensions`: context files, MCP servers, commands,
/// skills; module `hooks`: their hooks; module `extras`: their
/// subagents; module `policies`: their policies and `excludeTools`), the
/// user's and the system's policies (module `policies`), and the user's,
/// system defaults' and system settings' `context.fileName`,
/// `context.memoryBoundaryMarkers`, `mcpServers`, `mcp.allowed`,
/// `mcp.excluded`, `hooks`, `hooksConfig`, tool lists (`tools.exclude`,
/// `tools.allowed`, `tools.core`, `tools.confirmationRequired`) and
/// policy paths (`policyPaths`, `adminPolicyPaths`: module `policies`)
/// are read. The launch flags that add rules (`--policy`,
/// `--admin-policy`, `--allowed-tools`) are an assumption of the
/// compilation, not a layer.
const LOCAL_UNREAD_LAYERS: &[UnreadLayer] = &[];

/// One diagnostic per layer of `unread`, and the runtime note on MCP
/// servers.
fn unavailable(cx: &mut Cx<'_, '_>, unread: &[UnreadLayer], out: &EffectiveAgentConfig) {
    cx.report_unread_layers(unread);
    if !out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpRuntimeUnknown,
            "MCP servers are repository-configured and runtime-unverified: the analysis never starts or contacts them, so reachability, tools and resources are unknown (a server that fails to start is missing from the tools); run Gemini CLI and check `gemini mcp list` for the live state.",
        ));
    }
}

/// The premises every Gemini CLI result depends on; `user_layers_read` in
/// local mode with the user's machine.
fn assumptions(
    context: &AnalysisContext,
    profile: &Profile,
    user_layers_read: bool,
) -> Vec<String> {
    let settings = if user_layers_read {
        "Gemini CLI starts without `--extensions` (`-e`, which names the extensions to load instead of `extension-enablement.json`), no admin or security setting blocks an extension (`admin.extensions.enabled`, `security.allowedExtensions`, `security.blockGitExtensions`), and no environment variable (GEMINI_CLI_SYSTEM_SETTINGS_PATH, GEMINI_CLI_SYSTEM_DEFAULTS_PATH, GEMINI_CLI_HOME) moves a settings file, and no launch flag adds policy rules or replaces a settings list (`--policy`, `--admin-policy`, `--allowed-tools`, `--allowed-mcp-server-names`, `--approval-mode`): the policies are those of the settings and the policy folders they name."
    } else {
        "No user, system or extension setting changes `context.fileName`, `context.memoryBoundaryMarkers` or the MCP servers, and no environment variable (GEMINI_CLI_SYSTEM_SETTINGS_PATH, GEMINI_CLI_HOME) moves a settings file."
    };
    let mut out = vec![
        format!("Gemini CLI starts in cwd {}: only that directory's `.gemini/settings.json` applies, skills come from that directory alone, and context files depend on it.", context.cwd),
        profile.trust_assumption().to_string(),
        settings.to_string(),
        "MCP servers are repository-configured and runtime-unverified.".to_string(),
    ];
    if profile.boundary == profile::Boundary::GitDirectoryAndParent {
        out.push("No context file lies in the directory above the repository root: Gemini CLI 0.34 searches up to the parent of the git root (without a git root, up to the parent of the home directory), which the analysis does not read.".to_string());
    }
    out
}

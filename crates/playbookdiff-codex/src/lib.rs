//! The Codex adapter: what OpenAI Codex CLI receives from a repository.
//!
//! [`ADAPTER`] turns a [`Repo`](playbookdiff_source::Repo) and an [`AnalysisContext`] into one
//! [`EffectiveAgentConfig`] following spec 004 (`shared/seeds/004_*.txt`,
//! "Codex harness specification") and harness facts section B:
//!
//! * **Instructions** (spec 004 "Project instructions"): the `AGENTS.md`
//!   chain from the repository root down to cwd inclusive, at most one
//!   non-empty file per directory (`AGENTS.override.md`, `AGENTS.md`, then
//!   `project_doc_fallback_filenames`), root first. `AGENTS.md` and
//!   `AGENTS.override.md` files below cwd, or in a directory on the way to
//!   targetPath, are listed `out-of-scope`; losers of a slot are
//!   `shadowed`; a blank first file is `excluded` and its directory gives
//!   nothing. `project_doc_max_bytes` is applied root first: the file
//!   crossing it is cut (`truncatedAtByte`), later files are dropped.
//! * **Configuration** (spec 004 "Project configuration"): `.codex/config.toml`
//!   from the root to cwd, closest layer winning; only keys that affect
//!   instructions, skills and MCP are read. Layers below cwd or on the way
//!   to targetPath are reported as not applied.
//! * **Skills** (spec 004 "Skills"; `skills` module): every `SKILL.md`
//!   up to six levels below `.agents/skills` of every directory from the
//!   root to cwd and below each project `.codex/skills`, symlinked
//!   directories followed inside the repository only; the listing budget
//!   computed as Codex computes it (shortened and omitted skills named).
//!   Facts that differ between releases are in [`profile::TABLE`]. Skills in `.agents/skills` below cwd, or of a
//!   directory on the way to targetPath, are listed `out-of-scope` so the
//!   scope gap stays visible; they never count towards collisions or
//!   budgets.
//! * **MCP servers** (spec 004 "MCP configuration"): `[mcp_servers.*]` of the
//!   applicable layers, secrets redacted, placeholders and variable names
//!   kept symbolic, duplicates across layers left unresolved.
//! * **Hooks and permissions** (`hooks` module): `.codex/hooks.json` and
//!   `[hooks]` of the applicable layers, whose `runs` is unknown in repo
//!   mode (hook trust lives in the user's configuration, which local mode
//!   reads, with the user's and the system's hooks); `sandbox_mode` and
//!   `approval_policy`.
//!
//! **Scope of what is listed.** Only the root-to-cwd path, the subtree
//! below cwd (the gap with Claude Code's on-demand loading) and the
//! directories on the way to targetPath are looked at. Items in any other
//! directory (a sibling package) are not listed at all, so one
//! compilation costs what is in scope, not the size of the repository:
//! [`Repo::files_named_under`](playbookdiff_source::Repo::files_named_under) answers from the sorted index.
//!
//! Architecture invariant: the adapter never fails and never panics. A
//! broken file is a diagnostic; every file is read through
//! [`Repo::read_text`](playbookdiff_source::Repo::read_text) with a limit ([`READ_LIMIT`]), and in local mode the
//! user's and the machine's through [`playbookdiff_source::Machine`] with the same limit; nothing recurses over
//! the depth of the analysed tree; no literal secret from the repository
//! is written anywhere in the result, messages included.
//!
//! Phase 3 inspects no machine-local Codex state in either mode: every
//! layer outside the repository gets a diagnostic instead.

mod agents;
mod config;
mod hook_trust;
pub use playbookdiff_adapter::hooks::command_hook_hash;
mod hooks;
mod instructions;
mod mcp;
mod modes;
pub mod profile;
pub mod remedy;
mod requirements;
mod skill_file;
mod skills;
mod user;

use playbookdiff_adapter::problems::{self, UnreadLayer};
pub(crate) use playbookdiff_adapter::scope::{place, strictly_below, target_only_dirs};
use playbookdiff_adapter::{scope, Compilation, Declared, Request, Scope, Surface, SurfaceKind};
pub use playbookdiff_adapter::{ContextWindow, Inputs, TrustEntry, TrustLevel};
use playbookdiff_model::{
    AnalysisContext, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness, RepoPath, Severity,
    SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Resolved};

/// Entry names whose presence makes a directory hold Codex configuration
/// (a candidate launch directory for `check --all-dirs`).
pub const CONFIG_ENTRY_NAMES: &[&str] = &["AGENTS.md", "AGENTS.override.md", ".agents", ".codex"];

use playbookdiff_adapter::READ_LIMIT;

/// Codex's own configuration directories: `.codex` (the project
/// `config.toml` layer) and `.agents` (the `.agents/skills` root); spec
/// 004 "Configuration layers" and "Skills". Codex has no path-scoped
/// item (no `paths` on instructions or skills), so it keeps the default
/// [`playbookdiff_adapter::Adapter::target_tests`] (none).
pub const OWN_DIRECTORIES: &[&str] = &[".agents", ".codex"];

/// The documented default of `project_doc_max_bytes`, in bytes (32 KiB).
/// Source: spec 004 "Project instruction byte budget".
pub const DEFAULT_PROJECT_DOC_MAX_BYTES: u64 = 32_768;

/// The documented skill-listing budget as a fraction of the model's
/// context window (2 %). Source: spec 004 "Invocation".
pub const SKILL_BUDGET_CONTEXT_FRACTION: f64 = 0.02;

/// The documented skill-listing budget in characters when the context
/// window is unknown (8,000). Repo mode never knows the window, so this is
/// the budget it checks. Source: spec 004 "Invocation".
pub const SKILL_BUDGET_FALLBACK_CHARS: u64 = 8_000;

/// The assumption recorded for trust-gated `.codex/` layers
/// (spec 004 "Repo mode"; field report 16).
pub const TRUST_ASSUMPTION: &str = "The project is assumed trusted by Codex (projects.<path>.trust_level = \"trusted\"), so its .codex/config.toml layers from the repository root to cwd apply; an untrusted project skips them, MCP servers included.";

/// How Codex refuses a configuration (X4, X6; openai/codex
/// `codex-rs/config/src/mcp_types.rs`, the config loader; seen with `codex
/// mcp list` of both profiled releases): one `config-refused` error saying
/// Codex does not start, and every MCP server it would have started shown
/// `unavailable`. What it prints is the release's
/// ([`profile::Facts::refusal_prints`]).
const REFUSAL: problems::Refusal = problems::Refusal {
    refuses: "Codex refuses to load",
    noun: "configuration",
    project: "this project's",
    prints: "failed to load configuration",
    then: "It loads no instruction, skill or MCP server, so all are shown excluded",
};

/// Codex releases this adapter's behaviour tables are checked against,
/// oldest first; the newest is the default profile. Observations of each
/// are recorded under `oracle/observations/` (see `docs/fidelity.md`).
pub const PROFILED_VERSIONS: &[&str] = &["0.142.3", "0.171.0"];

/// The names looked up below a launch directory besides
/// [`CONFIG_ENTRY_NAMES`]: skills' `SKILL.md` and nested `.codex`
/// directories' `config.toml`.
pub const INDEXED_NAMES: &[&str] = &["SKILL.md", "config.toml"];

/// Codex, contract id `codex`.
pub const HARNESS: Harness = Harness::new("codex", "Codex");

/// `.codex/config.toml` of every directory from the root to cwd: a project
/// configuration layer, read only for a trusted project (spec 004
/// "Project configuration"; fidelity X28).
pub const CONFIG: Surface = Surface::new(SurfaceKind::Settings, "**/.codex/config.toml")
    .keys(&[
        "project_doc_max_bytes",
        "project_doc_fallback_filenames",
        "features",
        "skills",
    ])
    .note("Read only when the project is trusted; the closest layer wins.");

/// `.codex/hooks.json` beside a configuration layer (surfaces and guard
/// reference, Codex 0.171.0).
pub const HOOKS_JSON: Surface = Surface::new(SurfaceKind::Hooks, "**/.codex/hooks.json")
    .keys(&["hooks"])
    .note("A project hook runs only once the user trusts its hash.");

/// Codex's layout ([`playbookdiff_adapter::Adapter::surfaces`]):
/// `AGENTS.md` and `AGENTS.override.md` in every directory, the `.codex`
/// layer (`config.toml`, `hooks.json`, custom agents and the scripts kept
/// beside them), the `.agents` and `.codex` skills roots, plugin manifests
/// that name a skill namespace, and the user's and system files local
/// mode reads. Sources: spec 004 "Configuration layers",
/// "Skills"; surfaces-and-guard (hooks in `.codex/hooks.json`); the Codex
/// subagents documentation; [`profile::Facts::plugin_manifests`].
pub const SURFACES: &[Surface] = &[
    Surface::new(SurfaceKind::Instructions, "**/AGENTS.md")
        .note("One file per directory from the root to the launch directory."),
    Surface::new(SurfaceKind::Instructions, "**/AGENTS.override.md")
        .note("Replaces the AGENTS.md of its directory."),
    Surface::new(SurfaceKind::Instructions, CONFIG.pattern)
        .keys(&["project_doc_fallback_filenames", "project_doc_max_bytes"]),
    Surface::new(SurfaceKind::Instructions, "~/.codex/AGENTS.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`), with `AGENTS.override.md` beside it."),
    Surface::new(SurfaceKind::Instructions, "~/.codex/AGENTS.override.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`); replaces the global `AGENTS.md`."),
    Surface::new(SurfaceKind::Skills, "**/.agents/skills/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.codex/skills/**/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "~/.agents/skills/**/SKILL.md")
        .scope(Scope::User)
        .keys(&["name", "description"])
        .note("Read in local mode only (`--mode local`), listed with the project's skills."),
    Surface::new(SurfaceKind::Skills, "~/.codex/skills/**/SKILL.md")
        .scope(Scope::User)
        .keys(&["name", "description"])
        .note("Read in local mode only (`--mode local`): the user's skills, and the system skills of `.system` (scope `builtin`)."),
    Surface::new(SurfaceKind::Skills, "/etc/codex/skills/**/SKILL.md")
        .scope(Scope::Managed)
        .keys(&["name", "description"])
        .note("Read in local mode only (`--mode local`), listed with the project's skills."),
    Surface::new(SurfaceKind::Subagents, "**/.codex/agents/*.toml").keys(&[
        "name",
        "description",
        "developer_instructions",
        "model",
        "sandbox_mode",
    ]),
    HOOKS_JSON,
    Surface::new(SurfaceKind::Hooks, CONFIG.pattern).keys(&["hooks", "features.hooks"]),
    Surface::new(SurfaceKind::Plugins, "**/.codex-plugin/plugin.json")
        .scope(Scope::Plugin)
        .keys(&["name"])
        .note("Puts the skills below it in the plugin's namespace (`plugin:skill`)."),
    Surface::new(SurfaceKind::Plugins, "**/.claude-plugin/plugin.json")
        .scope(Scope::Plugin)
        .keys(&["name"])
        .since(profile::CLAUDE_PLUGIN_SINCE),
    Surface::new(SurfaceKind::Plugins, "**/.cursor-plugin/plugin.json")
        .scope(Scope::Plugin)
        .keys(&["name"])
        .since(profile::CURSOR_PLUGIN_SINCE),
    Surface::new(SurfaceKind::McpServers, CONFIG.pattern)
        .keys(&["mcp_servers"])
        .tokens(&["env_vars", "bearer_token_env_var"]),
    CONFIG,
    Surface::new(SurfaceKind::Settings, "~/.codex/config.toml")
        .scope(Scope::User)
        .keys(&["mcp_servers", "projects", "hooks", "hooks.state"])
        .note("Read in local mode only (`--mode local`): MCP servers, hooks and the user's trust in each hook, the trust of projects; not yet its other settings."),
    Surface::new(SurfaceKind::Settings, "~/.codex/*.config.toml")
        .scope(Scope::User)
        .keys(&["mcp_servers", "hooks", "skills.config", "sandbox_mode", "approval_policy"])
        .note("The layer of `--profile NAME` (`NAME.config.toml`), read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Hooks, "~/.codex/hooks.json")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Settings, "/etc/codex/config.toml")
        .scope(Scope::Managed)
        .keys(&["mcp_servers", "hooks"])
        .note("Read in local mode only (`--mode local`); its hooks run as managed."),
    Surface::new(SurfaceKind::Hooks, "/etc/codex/hooks.json")
        .scope(Scope::Managed)
        .note("Read in local mode only (`--mode local`); its hooks run as managed."),
    Surface::new(SurfaceKind::Settings, "/etc/codex/requirements.toml")
        .scope(Scope::Managed)
        .keys(&["mcp_servers"])
        .note("Read in local mode only (`--mode local`): the MCP servers it allows; not yet its other requirements."),
    Surface::new(SurfaceKind::Permissions, CONFIG.pattern)
        .keys(&["sandbox_mode", "approval_policy"]),
    Surface::new(SurfaceKind::Directory, "**/.codex/**")
        .note("Hook scripts and files a setting names are read from here too."),
    Surface::new(SurfaceKind::Directory, "**/.agents/**"),
];

/// The Codex adapter (spec 004) for `playbookdiff-registry`: what Codex
/// receives from a repository under an analysis context
/// (`ADAPTER.compile(repo, context, version)`, or `compile_with` to give
/// the [`Inputs`] it reads: the context window sets the skill listing
/// budget, the trust entries which `.codex/` layers apply).
///
/// Shape: an [`EffectiveAgentConfig`] with harness `codex`; instructions in
/// context order first (effective entries by `order`, then shadowed,
/// excluded and unavailable chain entries, then out-of-scope files below
/// cwd or on the way to targetPath, by path); skills closest scan location
/// first, then out-of-scope ones; MCP servers by name;
/// diagnostics in discovery order without duplicates; assumptions one
/// sentence each. Never fails and never panics: problems are diagnostics.
pub static ADAPTER: Declared = Declared::new(HARNESS, compile)
    .owning(CONFIG_ENTRY_NAMES)
    .reading(SURFACES)
    .directories(OWN_DIRECTORIES)
    .indexing(INDEXED_NAMES)
    .homed_by(&["CODEX_HOME"])
    .profiled(PROFILED_VERSIONS)
    .bisected(profile::changes, profile::not_reached)
    .modelled_from(profile::FIRST_MODELLED)
    .remedies(remedy::for_gap)
    .denying(remedy::deny);

/// The context window in tokens the skill listing budget is computed for,
/// and where it comes from: [`ContextWindow::ReleaseDefault`] is the
/// window of the release's default model
/// ([`profile::Facts::default_context_window`]); `None` for
/// [`ContextWindow::Unknown`], for which Codex budgets 8,000 characters
/// (`default_skill_metadata_budget` in
/// `codex-rs/core-skills/src/render.rs`).
pub fn listing_window(window: ContextWindow, facts: &profile::Facts) -> Option<u64> {
    match window {
        ContextWindow::ReleaseDefault => Some(facts.default_context_window),
        ContextWindow::Tokens(n) => Some(n.get()),
        ContextWindow::Unknown => None,
    }
}

/// The compilation for one profiled release (spec 004, whole document).
fn compile(req: &Request<'_, '_>) -> EffectiveAgentConfig {
    let Request {
        repo,
        context,
        version,
        inputs,
    } = *req;
    let facts = profile::facts_for(version);
    let mut out = EffectiveAgentConfig::new(HARNESS, context.clone());
    let machine = user::read(inputs.machine, context.mode, repo.tree().absolute_root());
    // The user's trust entries stand in for `--trust` when it is not given.
    let user_trust = machine
        .as_ref()
        .filter(|m| inputs.trust.is_none() && !m.trust.is_empty())
        .map(|m| m.trust.clone());
    let mut cx = Cx {
        base: Compilation::new(repo, context, HARNESS),
        trust: inputs.trust.or(user_trust.as_deref()),
        project_root: RepoPath::root(),
        skill_rules: skill_file::Rules::of(&facts),
    };
    let chain = context.cwd.ancestors_root_first();

    // A nested `.git` moves Codex's project root: nothing above it is read.
    let nested_root = check_project_root(&mut cx, &chain);
    if let Some(r) = &nested_root {
        cx.project_root = r.clone();
    }
    let (above, chain): (Vec<RepoPath>, Vec<RepoPath>) = match &nested_root {
        Some(r) => chain.into_iter().partition(|d| !d.starts_with(r)),
        None => (Vec::new(), chain),
    };

    let loaded = if facts.project_config {
        config::load_layers(&mut cx, &chain)
    } else {
        config::release_reads_no_layer(&mut cx, &chain, version, profile::PROJECT_CONFIG_SINCE)
    };
    let mut all_layers = match &machine {
        Some(m) => {
            cx.diags.extend(m.diagnostics.iter().cloned());
            config::parse_layers(&mut cx, &m.layers)
        }
        None => Vec::new(),
    };
    if let (Some(m), Some(view)) = (&machine, inputs.machine) {
        let user_file = m.home.join("config.toml");
        let user = all_layers
            .iter()
            .find(|l| Some(&l.loaded.path) == user_file.as_ref());
        for (why, at) in user
            .map(|u| user::legacy_profiles(u, view.profile()))
            .unwrap_or_default()
        {
            cx.refuse(why, Some(at));
        }
    }
    let machine_count = all_layers.len();
    all_layers.extend(config::parse_layers(&mut cx, &loaded));
    let layers = &all_layers[machine_count..];
    let settings = config::resolve_settings(&mut cx, layers, &all_layers, &facts);
    config::report_off_chain_layers(&mut cx);

    out.instructions = instructions::compile(&mut cx, &chain, &settings);
    if facts.untrusted_drops_agents_md && cx.trust_for(&context.cwd) == Some(TrustLevel::Untrusted)
    {
        untrusted_chain(&mut cx, &mut out, version);
    }
    // The user's layer loads whatever the project's trust.
    if let (Some(m), Some(machine_view)) = (&machine, inputs.machine) {
        let global = user::global_instructions(machine_view, &m.home, &mut cx.diags);
        prepend_global(&mut out.instructions, global);
    }
    let user_skills = machine
        .as_ref()
        .zip(inputs.machine)
        .map(|(m, v)| skills::LocalSkills {
            system: skills::SystemSkills {
                machine: v,
                home: &m.home,
                version,
            },
            rules: skills::user_rules(
                &user::user_layers(&all_layers[..machine_count], &m.home),
                &skills::Places {
                    machine: v,
                    root: repo.tree().absolute_root(),
                },
            ),
        });
    out.skills = skills::compile(
        &mut cx,
        &chain,
        layers,
        &facts,
        inputs.context_window,
        user_skills,
    );
    // The system and user layers hold MCP servers too, below the project's.
    out.mcp_servers = mcp::compile(&mut cx, &all_layers);
    let required = machine
        .as_ref()
        .and(inputs.machine)
        .and_then(|view| requirements::read(&mut cx, view));
    let required = required
        .as_ref()
        .and_then(|loaded| requirements::parse(&mut cx, loaded));
    if let Some(allow) = required.as_ref().and_then(requirements::mcp_allowlist) {
        allow.apply(&mut out.mcp_servers);
    }
    if let Some(r) = &required {
        requirements::features_not_modelled(&mut cx, r, "pins");
    }
    for l in &all_layers[..machine_count] {
        requirements::features_not_modelled(&mut cx, l, "sets");
    }
    let machine_layers = &all_layers[..machine_count];
    let hook_layers = hooks::HookLayers {
        chain: &chain,
        project: layers,
        machine: machine.as_ref().zip(inputs.machine).map(|(m, view)| {
            let user = user::user_layers(machine_layers, &m.home);
            hooks::MachineHooks {
                layers: machine_layers,
                machine: view,
                home: m.home.clone(),
                trust: hook_trust::HookTrust::read(&user, view, repo.tree().absolute_root()),
                requirements: required.as_ref(),
            }
        }),
    };
    out.hooks = hooks::compile(&mut cx, &hook_layers, &facts, version);
    let mode_requirements = required
        .as_ref()
        .map(|r| modes::ModeRequirements::read(&mut cx, r))
        .unwrap_or_default();
    let trusted = cx.trust_for(&context.cwd) == Some(TrustLevel::Trusted);
    let local_modes = machine.as_ref().map(|_| modes::LocalModes {
        requirements: &mode_requirements,
        trusted,
    });
    out.permissions = modes::compile(&mut cx, &all_layers, &facts, local_modes);
    out.subagents = agents::compile(&mut cx, &chain);
    if let Some(r) = &nested_root {
        out.instructions
            .extend(instructions::above_project_root(&mut cx, &above, r));
        out.skills
            .extend(skills::above_project_root(&mut cx, &above, r, &facts));
    }

    let refusal = problems::Refusal {
        prints: facts.refusal_prints,
        ..REFUSAL
    };
    if cx.report_refusals(&refusal) {
        playbookdiff_adapter::exclude_refused(&mut out, HARNESS.display_name());
    }
    let unread = if machine.is_some() {
        LOCAL_UNREAD_LAYERS
    } else {
        UNREAD_LAYERS
    };
    unavailable_layers(
        &mut cx,
        unread,
        loaded.first().map(|l| l.path.clone()),
        &out,
    );

    let trust_inputs = Inputs {
        trust: cx.trust,
        ..*inputs
    };
    out.assumptions = assumptions(context, version, &facts, &trust_inputs);
    if let Some(m) = &machine {
        let profile = inputs.machine.and_then(|v| v.profile());
        local_assumption(&mut out.assumptions, &m.home, profile);
    }
    out.diagnostics = cx.base.into_diagnostics();
    out
}

/// In local mode, says which machine layers were read in place of repo
/// mode's "no user, system or managed configuration".
fn local_assumption(assumptions: &mut [String], home: &RepoPath, profile: Option<&str>) {
    let profile = match profile {
        Some(name) => format!(", the profile `{home}/{name}.config.toml` (--profile {name})"),
        None => String::new(),
    };
    if let Some(a) = assumptions
        .iter_mut()
        .find(|a| a.starts_with("No CLI flag"))
    {
        *a = format!(
            "Local mode: the global instructions, `config.toml`, `hooks.json` and `skills` of `{home}`{profile} \
             (the system skills of `skills/.system` as the release leaves them on start), \
             its trust entries for this project and for hooks, the user's `~/.agents/skills`, \
             `/etc/codex/config.toml`, `hooks.json` and `skills`, and the MCP servers, hooks, sandbox \
             modes and approval policies of `/etc/codex/requirements.toml` are read; no CLI flag, \
             -c override or other managed requirement changes the values."
        );
    }
}

/// Puts the global instructions `global` before the project chain: the
/// effective one takes order 0 and the chain's orders move down by one.
fn prepend_global(
    instructions: &mut Vec<playbookdiff_model::Instruction>,
    global: Vec<playbookdiff_model::Instruction>,
) {
    if global.iter().any(|g| g.order.is_some()) {
        for i in instructions.iter_mut() {
            i.order = i.order.map(|o| o + 1);
        }
    }
    instructions.splice(0..0, global);
}

/// Shared state of one compilation: the toolkit's (the repository, the
/// context and the diagnostics collected so far, reached through `Deref`)
/// and Codex's own.
pub(crate) struct Cx<'r, 't> {
    base: Compilation<'r, 't>,
    /// The trust entries given ([`Inputs::trust`]); `None`: assumed trusted.
    pub trust: Option<&'r [TrustEntry]>,
    /// Codex's project root: the repository root, or a nested directory
    /// holding `.git` between it and cwd.
    pub project_root: RepoPath,
    /// What the release accepts in a skill's front matter
    /// ([`profile::Facts::long_description`],
    /// [`profile::Facts::skill_name_from_folder`]).
    pub(crate) skill_rules: skill_file::Rules,
}

impl<'r, 't> std::ops::Deref for Cx<'r, 't> {
    type Target = Compilation<'r, 't>;
    fn deref(&self) -> &Self::Target {
        &self.base
    }
}

impl std::ops::DerefMut for Cx<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.base
    }
}

impl Cx<'_, '_> {
    /// Codex's trust decision for directory `dir` (fidelity X28; openai/codex
    /// `ProjectTrustContext::decision_for_dir` in the config loader): the
    /// entry of `dir` itself, else the project root's, else none. Every
    /// directory is trusted when no entries were given (the assumption).
    /// Seen with 0.142.3 and 0.171.0 on fixture `x28_per_directory_trust`.
    pub(crate) fn trust_for(&self, dir: &RepoPath) -> Option<TrustLevel> {
        let Some(entries) = self.trust else {
            return Some(TrustLevel::Trusted);
        };
        let level = |d: &RepoPath| entries.iter().rev().find(|e| &e.dir == d).map(|e| e.level);
        level(dir).or_else(|| level(&self.project_root))
    }

    /// Records that Codex refuses the configuration because of `why`
    /// (a clause naming the key), found at `at`.
    pub(crate) fn refuse(&mut self, why: impl Into<String>, at: Option<SourceRef>) {
        self.base.refusals.push(problems::Refused {
            said: None,
            why: why.into(),
            at,
            cause: problems::RefusedCause::Key,
        });
    }

    /// A refusal of `cause` that the release words its own way, `said`
    /// (quoted in place of its usual words): a setting it no longer
    /// supports, a file it fails to read.
    pub(crate) fn refuse_saying(
        &mut self,
        (why, at): (String, SourceRef),
        cause: problems::RefusedCause,
        said: &'static str,
    ) {
        self.base.refusals.push(problems::Refused {
            said: Some(said),
            why,
            at: Some(at),
            cause,
        });
    }

    /// Records that Codex refuses the configuration because a file does
    /// not parse (`why` names it), at `at` (the line when known).
    pub(crate) fn refuse_syntax(&mut self, why: impl Into<String>, at: Option<SourceRef>) {
        self.base.refusals.push(problems::Refused {
            said: None,
            why: why.into(),
            at,
            cause: problems::RefusedCause::Syntax,
        });
    }

    /// Records that Codex refuses the configuration because it cannot
    /// read a file at all (`why` names it: a directory or a special file
    /// where the file belongs), at `at`.
    pub(crate) fn refuse_unreadable(&mut self, why: impl Into<String>, at: Option<SourceRef>) {
        self.base.refusals.push(problems::Refused {
            said: None,
            why: why.into(),
            at,
            cause: problems::RefusedCause::NotAFile,
        });
    }

    /// [`Repo::resolve`](playbookdiff_source::Repo::resolve) for a path that may legitimately be absent:
    /// a name missing inside a directory reached through a working link is
    /// `Missing`, not `Dangling` (the link itself is fine).
    pub(crate) fn resolve(&self, path: &RepoPath) -> Resolved {
        match self.repo.resolve(path) {
            Resolved::Dangling { link, target } if &link != path => {
                match self.repo.resolve(&link) {
                    Resolved::Inside { .. } => Resolved::Missing,
                    _ => Resolved::Dangling { link, target },
                }
            }
            r => r,
        }
    }

    /// Reports why `path` could not be followed, when `r` is a link
    /// problem. `what` names the item for the message ("the skill folder
    /// x"); `effect` says what Codex does with it. Returns true when a
    /// diagnostic was emitted.
    pub(crate) fn link_problem(
        &mut self,
        r: &Resolved,
        what: &str,
        effect: &str,
        format: SourceFormat,
    ) -> bool {
        let (Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link }) = r
        else {
            return false;
        };
        let Some(d) = problems::link_problem(r, link, Some(what), effect, format) else {
            return false;
        };
        self.diag(d);
        true
    }
}

/// Reports that `path`, named like a file Codex reads, resolves to `kind`
/// (a directory, a FIFO, a socket, a device) and is never read; `effect`
/// says what Codex does instead. The message names no launch directory,
/// so launches from several directories report it once.
pub(crate) fn not_a_file(
    cx: &mut Cx<'_, '_>,
    path: &RepoPath,
    kind: EntryKind,
    via_link: bool,
    effect: &str,
    format: SourceFormat,
    severity: Severity,
) {
    let d = problems::not_a_file(path, kind, via_link, effect, format).with_severity(severity);
    cx.diag(d);
}

/// Spec 004 "Analysis context": repositoryRoot is assumed to be Codex's
/// project root. Codex walks up from cwd to the first directory holding a
/// marker (default `.git`); a `.git` between the root and cwd, or none at
/// the root, breaks that assumption (harness facts B3).
///
/// Returns the nested directory Codex takes as the project root, if any:
/// the chain then starts there, and what lies above is listed
/// `out-of-scope`.
fn check_project_root(cx: &mut Cx<'_, '_>, chain: &[RepoPath]) -> Option<RepoPath> {
    // Closest to cwd first: Codex stops at the first marker walking up.
    let (root, d) = scope::project_root(
        cx.repo,
        chain.iter().rev(),
        |d| format!("{d} holds a `.git` entry, so Codex with the default project_root_markers takes {d} as the project root: instruction files, skills and `.codex/config.toml` layers above it are not read, and are listed out of scope; pass {d} as the repository to see Codex's view (user configuration can change the markers)."),
        "The repository root has no `.git` entry, so Codex with the default project_root_markers would look for a project root above it, or use cwd alone; the analysis assumes the supplied repositoryRoot is the project root.",
    );
    cx.diags.extend(d);
    root
}

/// An explicitly untrusted launch directory (fidelity X27): releases with
/// [`profile::Facts::untrusted_drops_agents_md`] send no project
/// `AGENTS.md` (the 0.150.0 release notes; openai/codex#41499; seen with
/// 0.171.0 on fixture `x27_untrusted_project`, not with 0.142.3), so every
/// received chain file is shown `excluded`.
fn untrusted_chain(cx: &mut Cx<'_, '_>, out: &mut EffectiveAgentConfig, version: &str) {
    let mut dropped = Vec::new();
    for i in &mut out.instructions {
        if i.applicability == playbookdiff_model::Applicability::Effective {
            i.applicability = playbookdiff_model::Applicability::Excluded;
            i.order = None;
            i.reason = format!("The trust entry given for cwd `{}` (or the project root) is untrusted, and Codex {version} sends no project AGENTS.md for an untrusted project.", cx.context.cwd);
            dropped.push(problems::quote(&i.source.path));
        }
    }
    if dropped.is_empty() {
        return;
    }
    let d = Diagnostic::new(
        DiagnosticCode::ProjectUntrusted,
        format!("The project is untrusted for cwd {} (the trust entry given), so Codex {version} sends none of its `AGENTS.md` files: {}; trust the project in `~/.codex/config.toml` to receive them.", problems::quote(&cx.context.cwd), dropped.join(", ")),
    );
    cx.diag(d);
}

/// The layers outside the repository that repo mode does not read; local
/// mode reads the first three (global instructions, user and system
/// configuration) and the user's skills of the last
/// ([`LOCAL_UNREAD_LAYERS`] says what it still does not read).
const UNREAD_LAYERS: &[UnreadLayer] = &[
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "Global instructions (`$CODEX_HOME/AGENTS.override.md`, `$CODEX_HOME/AGENTS.md`)",
        effect: "Codex puts their text before the project chain, an input the analysis cannot see",
        todo: "check `~/.codex` on the developer's machine",
    },
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "User configuration (`~/.codex/config.toml`, a --profile file, CLI flags and -c overrides)",
        effect: "it can set project_doc_fallback_filenames, project_doc_max_bytes, project_root_markers, skills.config and mcp_servers",
        todo: "treat the result as the repository's contribution only",
    },
    UnreadLayer {
        code: DiagnosticCode::ManagedConfigUnavailable,
        what: "System configuration (`/etc/codex/config.toml`) with managed requirements (`requirements.toml`, organization policy)",
        effect: "it can add or forbid MCP servers and other settings",
        todo: "ask the administrator what it enforces",
    },
    UnreadLayer {
        code: DiagnosticCode::UserConfigUnavailable,
        what: "User, admin and bundled system skills (`$HOME/.agents/skills`, `$CODEX_HOME/skills`, `/etc/codex/skills`)",
        effect: "they share the skill listing budget and names with repository skills",
        todo: "list them with /skills in Codex",
    },
];

/// The layers local mode still does not read: the managed requirements
/// other than the MCP server allowlist and the hooks ([`requirements`])
/// and the allowed modes ([`modes`]).
const LOCAL_UNREAD_LAYERS: &[UnreadLayer] = &[
    UnreadLayer {
        code: DiagnosticCode::ManagedConfigUnavailable,
        what: "Managed requirements other than allowed MCP servers, hooks, sandbox modes, approval policies and features (`/etc/codex/requirements.toml`: organization policy)",
        effect: "they constrain what the user and the project may set",
        todo: "ask the administrator what it enforces",
    },
];

/// Spec 004 "Repo mode" and "Unsupported in the current release": one
/// diagnostic per layer outside the repository that can change a
/// supported surface. Phase 3 reads no machine-local state in either mode.
fn unavailable_layers(
    cx: &mut Cx<'_, '_>,
    unread: &[UnreadLayer],
    first_layer: Option<RepoPath>,
    out: &EffectiveAgentConfig,
) {
    cx.report_unread_layers(unread);
    if let (Some(first), None) = (first_layer, cx.trust) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ProjectTrustAssumed,
                "The project's `.codex/config.toml` layers are applied on the assumption that the project is trusted; an untrusted project skips them (MCP servers included), so confirm the trust level in `~/.codex/config.toml`.",
            )
            .at(SourceRef::project(first, SourceFormat::Toml)),
        );
    }
    // Once the machine's layers are read (local mode), so are the user's
    // `[[skills.config]]` rules.
    if std::ptr::eq(unread, UNREAD_LAYERS)
        && out
            .skills
            .iter()
            .any(|s| s.applicability == playbookdiff_model::Applicability::Effective)
    {
        cx.diag(Diagnostic::new(
            DiagnosticCode::SkillUserStateUnknown,
            "A user's ~/.codex/config.toml can disable any skill with [[skills.config]] enabled = false, so a discovered repository skill is not proof that it is active for every developer.",
        ));
    }
    if !out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpRuntimeUnknown,
            "MCP servers are repository-configured and runtime-unverified: the analysis never starts them, so authentication, reachability, tools, resources and server instructions are unknown; run Codex and check /mcp for the live state.",
        ));
    }
}

/// The premises every Codex result depends on (spec 004 "Analysis modes"),
/// the model's context window among them, stated with its value and its
/// source.
fn assumptions(
    context: &AnalysisContext,
    version: &str,
    facts: &profile::Facts,
    inputs: &Inputs<'_>,
) -> Vec<String> {
    let trust = match inputs.trust {
        None => TRUST_ASSUMPTION.to_string(),
        Some([]) => "The user's configuration holds no trust entry for the project (given), so Codex loads no .codex/config.toml layer (MCP servers included); AGENTS.md files and skills still load.".to_string(),
        Some(entries) => {
            let list: Vec<String> = entries
                .iter()
                .map(|e| format!("`{}` {}", e.dir, match e.level { TrustLevel::Trusted => "trusted", TrustLevel::Untrusted => "untrusted" }))
                .collect();
            format!("The user's configuration holds these trust entries (given): {}; Codex loads a .codex/config.toml layer only when its directory, else the project root, is trusted.", list.join(", "))
        }
    };
    let window = inputs.context_window;
    let window = match (window, listing_window(window, facts)) {
        (ContextWindow::ReleaseDefault, Some(n)) => format!("The model is the default model of Codex {version}, whose context window of {n} tokens sets the skill listing budget (2% of it, {} tokens); pass --context-window for another model.", n * 2 / 100),
        (_, Some(n)) => format!("The model's context window is {n} tokens (given), which sets the skill listing budget (2% of it, {} tokens).", (n * 2 / 100).max(1)),
        (_, None) => format!("The model's context window is unknown to Codex (given), so the skill listing budget is {SKILL_BUDGET_FALLBACK_CHARS} characters."),
    };
    vec![
        "The supplied repositoryRoot is the project root Codex finds with its project_root_markers (default .git); user configuration can change the markers.".to_string(),
        trust,
        format!("Codex starts in cwd {}; the instruction chain and skill scan depend on cwd only, never on targetPath.", context.cwd),
        "No CLI flag, -c override, profile, user, system or managed configuration changes the repository-defined values.".to_string(),
        window,
        "MCP servers are repository-configured and runtime-unverified.".to_string(),
    ]
}

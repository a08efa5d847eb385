//! The Cursor adapter: what Cursor's agent receives from a repository,
//! from Cursor's documentation and public issue threads only.
//!
//! No release of Cursor can be run and observed here (it installs by a
//! download script, not a package), so unlike the other adapters nothing
//! of this one is checked against the agent: every result carries the
//! `behaviour-unverified` diagnostic and the assumption saying so, and
//! `docs/fidelity.md` lists Cursor as not verified. [`ADAPTER`] turns a
//! [`Repo`](playbookdiff_source::Repo) and an [`AnalysisContext`] into one
//! [`EffectiveAgentConfig`] as the documentation describes Cursor
//! [`PROFILED_VERSIONS`]:
//!
//! * **Instructions** (`rules`, `instructions`): project rules
//!   `.cursor/rules/**/*.mdc` with front matter `alwaysApply`, `globs` and
//!   `description` (always, auto-attached, agent-requested or manual),
//!   nested `.cursor/rules` of subdirectories, `AGENTS.md` of the
//!   workspace and nested ones, and the legacy `.cursorrules`
//!   (<https://cursor.com/docs/context/rules>).
//! * **Skills** (`skills`): `SKILL.md` of `.cursor/skills`,
//!   `.agents/skills`, `.claude/skills` and `.codex/skills`
//!   (<https://cursor.com/docs/context/skills>).
//! * **Commands** (`commands`): `.cursor/commands/*.md`
//!   (<https://cursor.com/docs/agent/chat/commands>).
//! * **MCP servers** (`mcp`): `mcpServers` of `.cursor/mcp.json`
//!   (<https://cursor.com/docs/context/mcp>).
//! * **Hooks** (`hooks`): `.cursor/hooks.json`
//!   (<https://cursor.com/docs/agent/hooks>).
//!
//! The workspace is the launch directory (`cwd`): Cursor opens a folder and
//! reads that folder's configuration; files above it are not read.
//!
//! Architecture invariant: the adapter never fails and never panics; every
//! file is read through [`Repo::read_text`](playbookdiff_source::Repo::read_text)
//! with [`READ_LIMIT`]; no literal secret from the repository is written
//! anywhere in the result, and no `${env:VAR}` is expanded.

mod commands;
mod hooks;
mod instructions;
mod json;
mod mcp;
pub mod remedy;
mod rules;
mod skills;

use playbookdiff_adapter::problems::UnreadLayer;
use playbookdiff_adapter::{
    Compilation, Declared, Request, Scope, Scoped, Surface, SurfaceKind, TargetTest, READ_LIMIT,
};
use playbookdiff_model::{
    AnalysisContext, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness, Mode, RepoPath,
};

/// Cursor (its agent, in the editor and the `cursor-agent` CLI), contract
/// id `cursor`.
pub const HARNESS: Harness = Harness::new("cursor", "Cursor");

/// Entry names whose presence makes a directory hold Cursor configuration
/// (a candidate launch directory for `check --all-dirs`): `.cursor`
/// (rules, skills, commands, MCP, hooks), the legacy `.cursorrules` and
/// `AGENTS.md` (<https://cursor.com/docs/context/rules>).
pub const CONFIG_ENTRY_NAMES: &[&str] = &[".cursor", ".cursorrules", "AGENTS.md"];

/// Cursor's own configuration directory: `.cursor`.
pub const OWN_DIRECTORIES: &[&str] = &[".cursor"];

/// The names Cursor looks up below the workspace: nested `.cursor`
/// directories (their rules) and nested `AGENTS.md` files.
pub const INDEXED_NAMES: &[&str] = &[".cursor", "AGENTS.md"];

/// The Cursor behaviour this adapter models, oldest first: one profile,
/// `2.4`, the release from which the documentation read in December 2026
/// describes every modelled surface (skills arrived in 2.4, hooks in 1.7,
/// commands in 1.6, per Cursor's changelog as third parties quote it). It
/// is an assumption, not a checked release: no Cursor release was observed.
pub const PROFILED_VERSIONS: &[&str] = &["2.4"];

/// The note of a user row of [`SURFACES`].
const LOCAL_ONLY: &str = "Read in local mode only (`--mode local`), as documented, not observed.";

/// Cursor's layout ([`playbookdiff_adapter::Adapter::surfaces`]): what it
/// reads from a repository as configuration, and the user's files local
/// mode reads, from the pages cited in the crate
/// documentation. Every row is the documentation's word, not observed.
pub const SURFACES: &[Surface] = &[
    Surface::new(SurfaceKind::Instructions, "**/AGENTS.md")
        .note("The workspace's in every request; a nested one when a file of its folder is in context."),
    Surface::new(SurfaceKind::Instructions, "**/.cursorrules")
        .note("Legacy, deprecated; the workspace's in every request."),
    Surface::new(SurfaceKind::Rules, "**/.cursor/rules/**/*.mdc")
        .keys(&["alwaysApply", "globs", "description"])
        .note("Always, auto-attached by glob, agent-requested or manual; a nested folder's rules apply to that folder."),
    Surface::new(SurfaceKind::Rules, "**/.cursor/rules/**/*.md")
        .reported()
        .note("Not a rule per the documentation (`rule-not-loaded`)."),
    Surface::new(SurfaceKind::Skills, "**/.cursor/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.agents/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.claude/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "**/.codex/skills/*/SKILL.md")
        .keys(&["name", "description"]),
    Surface::new(SurfaceKind::Skills, "~/.cursor/skills/*/SKILL.md")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Commands, "**/.cursor/commands/*.md"),
    Surface::new(SurfaceKind::Commands, "~/.cursor/commands/*.md")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::McpServers, "**/.cursor/mcp.json")
        .keys(&["mcpServers"])
        .tokens(&["${env:NAME}", "${userHome}", "${workspaceFolder}"])
        .note("A server runs once switched on in Cursor's MCP settings."),
    Surface::new(SurfaceKind::McpServers, "~/.cursor/mcp.json")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Hooks, "**/.cursor/hooks.json").keys(&["version", "hooks"]),
    Surface::new(SurfaceKind::Hooks, "~/.cursor/hooks.json")
        .scope(Scope::User)
        .note(LOCAL_ONLY),
    Surface::new(SurfaceKind::Directory, "**/.cursor/**"),
];

/// The Cursor adapter for `playbookdiff-registry`: what Cursor's agent
/// receives from a repository under an analysis context, as documented.
///
/// Shape: an [`EffectiveAgentConfig`] with harness `cursor`; instructions
/// in the assumed order (always-applied rules by path, then `AGENTS.md`,
/// then `.cursorrules`), then on-demand and excluded entries; skills and
/// commands in discovery order; MCP servers by name; hooks in file order;
/// diagnostics in discovery order without duplicates, always with
/// `behaviour-unverified`. Never fails.
pub static ADAPTER: Declared = Declared::new(HARNESS, compile)
    .owning(CONFIG_ENTRY_NAMES)
    .indexing(INDEXED_NAMES)
    .reading(SURFACES)
    .directories(OWN_DIRECTORIES)
    .scoping(target_tests)
    .profiled(PROFILED_VERSIONS)
    .remedies(remedy::for_gap);

/// Shared state of one compilation (the toolkit's).
pub(crate) type Cx<'r, 't> = Compilation<'r, 't>;

/// The compilation of the documented behaviour.
fn compile(req: &Request<'_, '_>) -> EffectiveAgentConfig {
    let Request {
        repo,
        context,
        inputs,
        ..
    } = *req;
    let mut out = EffectiveAgentConfig::new(HARNESS, context.clone());
    let mut cx = Cx::new(repo, context, HARNESS);
    cx.diag(unverified());
    // The nested `AGENTS.md` files and `.cursor` directories in one pass
    // over cwd's subtree, not one pass each.
    repo.prefetch_named_under(INDEXED_NAMES, &context.cwd);
    // Local mode: the user's layers of `~/.cursor` too.
    let machine = inputs.machine.filter(|_| context.mode == Mode::Local);
    out.instructions = instructions::compile(&mut cx);
    out.skills = skills::compile(&mut cx, machine);
    out.commands = commands::compile(&mut cx, machine);
    out.mcp_servers = mcp::compile(&mut cx, machine);
    out.hooks = hooks::compile(&mut cx, machine);
    unavailable(&mut cx, &out, machine.is_some());
    out.assumptions = assumptions(context);
    if machine.is_some() {
        out.assumptions.push(LOCAL_ASSUMPTION.to_string());
    }
    out.diagnostics = cx.into_diagnostics();
    out
}

/// The diagnostic every Cursor result carries: nothing of it is observed.
fn unverified() -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::BehaviourUnverified,
        "Cursor's behaviour is modelled from its documentation (cursor.com/docs: rules, skills, commands, MCP, hooks) and public issue threads, not observed: no Cursor release could be run, so what loads, when and in which order is unverified; check what matters in Cursor's Rules and MCP settings.",
    )
}

/// For a path-scoped rule (`globs`), one test per glob, matched against
/// the target's path relative to the folder holding the rule's `.cursor`
/// directory ([`rules::matcher`]).
fn target_tests(item: Scoped<'_>, _cwd: &RepoPath) -> Vec<TargetTest> {
    let Some(paths) = item.paths() else {
        return Vec::new();
    };
    let base = rules::base_of(item.file());
    paths
        .iter()
        .filter_map(|g| rules::matcher(g))
        .map(|m| {
            let base = base.clone();
            Box::new(move |t: &RepoPath, _dir: bool| rules::matches(&m, &base, t)) as TargetTest
        })
        .collect()
}

/// What local mode reads of `~/.cursor`, and what it cannot.
const LOCAL_ASSUMPTION: &str = "Local mode: the user's `~/.cursor/skills`, `~/.cursor/commands`, `~/.cursor/mcp.json` and `~/.cursor/hooks.json` are read, as Cursor's documentation describes them (skills, commands, MCP and hooks pages; documented, not observed); a workspace item of the same name is assumed to win. User Rules and Team Rules live in Cursor's settings store, not in files, and stay unread.";

/// User Rules and Team Rules: kept in Cursor's settings and the team
/// dashboard, not in files, so local mode cannot read them either.
const RULES_LAYER: UnreadLayer = UnreadLayer {
    code: DiagnosticCode::UserConfigUnavailable,
    what: "User Rules (Cursor Settings) and Team Rules (the team dashboard)",
    effect: "Cursor adds them to every request beside the project rules",
    todo: "check them in Cursor Settings → Rules",
};

/// [`RULES_LAYER`] in local mode, which reads the user's files but not
/// Cursor's settings store.
const RULES_LAYER_LOCAL: UnreadLayer = UnreadLayer {
    effect: "Cursor adds them to every request beside the project rules; they live in Cursor's settings store, not in files, so local mode cannot read them either",
    ..RULES_LAYER
};

/// The user's files of `~/.cursor`, which repo mode does not read.
const USER_FILES_LAYER: UnreadLayer = UnreadLayer {
    code: DiagnosticCode::UserConfigUnavailable,
    what: "User skills, commands, MCP servers and hooks (`~/.cursor/skills`, `~/.cursor/commands`, `~/.cursor/mcp.json`, `~/.cursor/hooks.json`)",
    effect: "they add skills, commands, MCP servers and hooks to the project's",
    todo: "check those files on the developer's machine",
};

/// One diagnostic per layer outside the repository that can change a
/// modelled surface (the user's files only in repo mode: `local` reads
/// them), and the runtime state the analysis cannot see.
fn unavailable(cx: &mut Cx<'_, '_>, out: &EffectiveAgentConfig, local: bool) {
    if local {
        cx.report_unread_layers(&[RULES_LAYER_LOCAL]);
    } else {
        cx.report_unread_layers(&[RULES_LAYER, USER_FILES_LAYER]);
    }
    if !out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpRuntimeUnknown,
            "MCP servers are repository-configured and runtime-unverified: the analysis never starts or contacts them, and Cursor starts one only once it is switched on in its MCP settings; check the live state there.",
        ));
    }
}

/// The premises every Cursor result depends on.
fn assumptions(context: &AnalysisContext) -> Vec<String> {
    vec![
        "Not verified against the agent: this result follows Cursor's documentation (cursor.com/docs, read December 2026, Cursor 2.4 and later) and public issue threads; no Cursor release was observed.".to_string(),
        format!("Cursor's workspace is cwd {}: its `.cursor` directory, `AGENTS.md` and `.cursorrules` apply; nothing above it is read; nested `.cursor/rules` and `AGENTS.md` below it apply when a file of their folder is in context.", context.cwd),
        "The order of the always-applied pieces (rules by path, then `AGENTS.md`, then `.cursorrules`) is assumed; the documentation says only that rules are put at the start of the model context.".to_string(),
        "The skill directories (`.cursor/skills`, `.agents/skills`, `.claude/skills`, `.codex/skills`) come from third-party accounts of Cursor's skills page.".to_string(),
        "MCP servers are repository-configured and runtime-unverified; `${env:VAR}` placeholders are never expanded.".to_string(),
    ]
}

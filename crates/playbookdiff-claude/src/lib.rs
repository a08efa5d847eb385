//! Claude Code discovery: what Claude Code receives from a repository.
//!
//! Implements spec 000 (the Claude Code adapter specification) over the
//! read-only [`Repo`]: startup ancestor instructions, nested on-demand
//! instructions, `@path` imports, `.claude/rules`, `claudeMdExcludes`,
//! project settings from `<cwd>/.claude/`, skills, the project
//! `.mcp.json`, and the hooks and permissions of the settings. [`ADAPTER`] never fails: every problem becomes a
//! diagnostic in the returned [`EffectiveAgentConfig`].
//!
//! In local mode it also reads the user's and the machine's layers
//! (`~/.claude`, `~/.claude.json`, `/etc/claude-code`) through
//! `playbookdiff_source::Machine` (the `user` module).
//!
//! Architecture invariant: this crate reads only through
//! `playbookdiff_source::Repo` and, in local mode, `Machine`; it never
//! writes, never executes, never contacts an MCP server and never reads
//! the analyser's environment.

mod agents;
pub mod frontmatter;
mod gitignore;
mod hooks;
pub mod imports;
mod installed;
mod instructions;
mod json;
mod listing;
pub mod matcher;
mod mcp;
mod plugins;
pub mod profile;
pub mod remedy;
mod scoping;
mod settings;
mod skills;
mod tools;
mod user;

pub(crate) use playbookdiff_adapter::scope::strictly_below;
use playbookdiff_adapter::{
    problems, Compilation, ContextWindow, Declared, Request, Scope, Surface, SurfaceKind,
};
use playbookdiff_model::{
    AnalysisContext, Applicability, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Harness,
    LoadPhase, Mode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{AncestorPath, Ancestors, EntryKind, Reach, Repo, Resolved};
use std::collections::{HashMap, HashSet};

/// Entry names whose presence makes a directory hold Claude Code
/// configuration (a candidate launch directory for `check --all-dirs`).
pub const CONFIG_ENTRY_NAMES: &[&str] = &["CLAUDE.md", "CLAUDE.local.md", ".claude", ".mcp.json"];

/// Claude Code's own configuration directory: the project settings,
/// rules, skills, commands and agents of the directory that holds it
/// (harness facts: "Claude Code memory", "Settings").
pub const OWN_DIRECTORIES: &[&str] = &[".claude"];

/// Personal files, relative to the directory that holds them, that this
/// adapter reports as unavailable in repo mode. They are usually
/// git-ignored, so repo mode's file rule keeps them visible (never read)
/// rather than hiding them.
pub const PERSONAL_PATHS: &[&str] = &["CLAUDE.local.md", ".claude/settings.local.json"];

use playbookdiff_adapter::READ_LIMIT;

pub use agents::is_tool as is_subagent_tool;

/// Claude Code releases this adapter's behaviour tables are checked against,
/// oldest first; the newest is the default profile. Observations of each
/// are recorded under `oracle/observations/` (see `docs/fidelity.md`).
pub const PROFILED_VERSIONS: &[&str] = &["2.1.197", "2.1.332"];

/// The names looked up below a launch directory besides
/// [`CONFIG_ENTRY_NAMES`]: nested `AGENTS.md` (read through a bridge),
/// the `rules`, `skills` and `commands` directories of nested `.claude`
/// directories (`Compiler::off_chain_owners`) and each skill's `SKILL.md`.
pub const INDEXED_NAMES: &[&str] = &["AGENTS.md", "SKILL.md", "commands", "rules", "skills"];

/// Claude Code, contract id `claude-code`.
pub const HARNESS: Harness = Harness::new("claude-code", "Claude Code");

/// `.claude/settings.json` of the launch directory: the project settings
/// layer (harness facts A6, "Settings"; no parent fallback).
pub const SETTINGS: Surface = Surface::new(SurfaceKind::Settings, "**/.claude/settings.json")
    .keys(&["claudeMdExcludes", "outputStyle", "skillOverrides"])
    .note("Read from the launch directory only, never from its parents.");

/// `.claude/settings.local.json` of the root and the launch directory:
/// the personal settings layer, read in local mode (harness facts A6).
pub const SETTINGS_LOCAL: Surface =
    Surface::new(SurfaceKind::Settings, "**/.claude/settings.local.json")
        .scope(Scope::Local)
        .keys(&["claudeMdExcludes", "outputStyle", "skillOverrides"]);

/// `.mcp.json` of the launch directory and its ancestors: project MCP
/// servers (harness facts "MCP"; fidelity C3).
pub const MCP_JSON: Surface = Surface::new(SurfaceKind::McpServers, "**/.mcp.json")
    .keys(&["mcpServers"])
    .tokens(&["${VAR}", "${VAR:-default}"]);

/// A plugin marketplace (`.claude-plugin/marketplace.json` of the root
/// and the launch directory's ancestors): its `plugins[].source` names
/// plugin directories (fidelity C25).
pub const MARKETPLACE: Surface = Surface::new(
    SurfaceKind::Plugins,
    "**/.claude-plugin/marketplace.json",
)
.keys(&["name", "plugins"])
.note("Detected, never loaded: a user step registers the marketplace and installs its plugins.");

/// A plugin manifest (`.claude-plugin/plugin.json` of a plugin directory;
/// fidelity C25).
pub const PLUGIN_MANIFEST: Surface =
    Surface::new(SurfaceKind::Plugins, "**/.claude-plugin/plugin.json")
        .scope(Scope::Plugin)
        .keys(&[
            "name",
            "skills",
            "commands",
            "agents",
            "hooks",
            "mcpServers",
            "outputStyles",
        ]);

/// Claude Code's layout ([`playbookdiff_adapter::Adapter::surfaces`]):
/// memory files in every directory, `.claude` (settings, rules, skills,
/// commands, agents, output styles, hook scripts kept there),
/// `.mcp.json`, plugin marketplaces and manifests and what a plugin
/// brings, and the user's and managed files the analysis does not read.
/// Sources: harness facts "Claude Code memory", "Settings", "MCP",
/// "Plugins"; surfaces-and-guard "Surfaces at start-up"; the Claude Code
/// documentation (hooks, subagents, output styles, plugins).
pub const SURFACES: &[Surface] = &[
    Surface::new(SurfaceKind::Instructions, "**/CLAUDE.md")
        .tokens(&["@path"])
        .note("From the launch directory up at start-up, below it when the agent reads a file there."),
    Surface::new(SurfaceKind::Instructions, "**/.claude/CLAUDE.md").tokens(&["@path"]),
    Surface::new(SurfaceKind::Instructions, "**/AGENTS.md")
        .tokens(&["@path"])
        .since(profile::AGENTS_MD_FALLBACK_SINCE)
        .note("Where no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is, from 2.1.281 on (`instructionFiles`)."),
    Surface::new(SurfaceKind::Instructions, "**/.claude/AGENTS.md")
        .tokens(&["@path"])
        .since(profile::AGENTS_MD_FALLBACK_SINCE),
    Surface::new(SurfaceKind::Instructions, "**/CLAUDE.local.md")
        .scope(Scope::Local)
        .tokens(&["@path"]),
    Surface::new(SurfaceKind::Instructions, "~/.claude/CLAUDE.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Instructions, "/etc/claude-code/CLAUDE.md")
        .scope(Scope::Managed)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Rules, "**/.claude/rules/**/*.md")
        .keys(&["paths"])
        .tokens(&["@path"])
        .since(profile::PROJECT_RULES_SINCE),
    Surface::new(SurfaceKind::Rules, "~/.claude/rules/**/*.md")
        .scope(Scope::User)
        .since(profile::PROJECT_RULES_SINCE)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Skills, "**/.claude/skills/**/SKILL.md")
        .keys(&["name", "description", "paths", "disable-model-invocation"]),
    Surface::new(SurfaceKind::Skills, "~/.claude/skills/**/SKILL.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Commands, "**/.claude/commands/**/*.md")
        .keys(&["description"]),
    Surface::new(SurfaceKind::Commands, "~/.claude/commands/**/*.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`); offered as skills."),
    Surface::new(SurfaceKind::Subagents, "**/.claude/agents/**/*.md")
        .keys(&["name", "description", "tools", "disallowedTools", "model"]),
    Surface::new(SurfaceKind::Subagents, "~/.claude/agents/**/*.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::OutputStyles, "**/.claude/output-styles/*.md")
        .keys(&["name", "description"])
        .note("The style `outputStyle` names replaces part of the system prompt."),
    Surface::new(SurfaceKind::OutputStyles, "~/.claude/output-styles/*.md")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    SETTINGS,
    SETTINGS_LOCAL,
    Surface::new(SurfaceKind::Settings, "~/.claude/settings.json")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Settings, "/etc/claude-code/managed-settings.json")
        .scope(Scope::Managed)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Permissions, SETTINGS.pattern)
        .keys(&["permissions.allow", "permissions.deny", "permissions.ask", "permissions.defaultMode"]),
    Surface::new(SurfaceKind::Permissions, SETTINGS_LOCAL.pattern)
        .scope(Scope::Local)
        .keys(&["permissions.allow", "permissions.deny", "permissions.ask", "permissions.defaultMode"]),
    Surface::new(SurfaceKind::Hooks, SETTINGS.pattern)
        .keys(&["hooks", "disableAllHooks"])
        .tokens(&["$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}"]),
    Surface::new(SurfaceKind::Hooks, SETTINGS_LOCAL.pattern)
        .scope(Scope::Local)
        .keys(&["hooks", "disableAllHooks"])
        .tokens(&["$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}"]),
    MCP_JSON,
    Surface::new(SurfaceKind::McpServers, SETTINGS.pattern).keys(&[
        "enableAllProjectMcpServers",
        "enabledMcpjsonServers",
        "disabledMcpjsonServers",
    ]),
    Surface::new(SurfaceKind::McpServers, "~/.claude.json")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`)."),
    Surface::new(SurfaceKind::Plugins, "~/.claude/plugins/**")
        .scope(Scope::User)
        .note("Read in local mode only (`--mode local`): `installed_plugins.json` and each enabled plugin's skills, commands, subagents, hooks, MCP servers and output styles."),
    MARKETPLACE,
    PLUGIN_MANIFEST,
    Surface::new(SurfaceKind::Plugins, SETTINGS.pattern)
        .keys(&["enabledPlugins", "extraKnownMarketplaces"]),
    Surface::new(SurfaceKind::Skills, "**/skills/*/SKILL.md")
        .scope(Scope::Plugin)
        .note("In a plugin directory, named `plugin:skill`."),
    Surface::new(SurfaceKind::Commands, "**/commands/**/*.md").scope(Scope::Plugin),
    Surface::new(SurfaceKind::Subagents, "**/agents/*.md").scope(Scope::Plugin),
    Surface::new(SurfaceKind::Hooks, "**/hooks/hooks.json")
        .scope(Scope::Plugin)
        .keys(&["hooks"])
        .tokens(&["${CLAUDE_PLUGIN_ROOT}"]),
    Surface::new(SurfaceKind::McpServers, MCP_JSON.pattern)
        .scope(Scope::Plugin)
        .keys(&["mcpServers"])
        .tokens(&["${CLAUDE_PLUGIN_ROOT}", "${VAR}"]),
    Surface::new(SurfaceKind::OutputStyles, "**/output-styles/*.md").scope(Scope::Plugin),
    Surface::new(SurfaceKind::Directory, "**/.claude/**")
        .note("Hook scripts and files a setting names are read from here too."),
];

/// The Claude Code adapter (spec 000), as `playbookdiff-registry` lists it:
/// what Claude Code receives from a repository under an analysis context
/// (`ADAPTER.compile(repo, context, version)`). Never fails and never
/// panics on repository content: problems are diagnostics in the result.
pub static ADAPTER: Declared = Declared::new(HARNESS, compile)
    .owning(CONFIG_ENTRY_NAMES)
    .reading(SURFACES)
    .directories(OWN_DIRECTORIES)
    .scoping(scoping::target_tests)
    .indexing(INDEXED_NAMES)
    .personal(PERSONAL_PATHS)
    .homed_by(&["CLAUDE_CONFIG_DIR"])
    .profiled(PROFILED_VERSIONS)
    .bisected(profile::changes, profile::not_reached)
    .modelled_from(profile::FIRST_MODELLED)
    .remedies(remedy::for_gap)
    .denying(remedy::deny);

/// What the Claude Code release `req.version` (one of
/// [`PROFILED_VERSIONS`]) receives. Of the user's inputs it reads
/// `outside_root`, the directories above the repository root it may read
/// (fidelity C3, C4). Source: spec 000.
fn compile(req: &Request<'_, '_>) -> EffectiveAgentConfig {
    let profile = profile::Profile::for_version(req.version);
    let mut cx = Compiler::new(req.repo, req.context, profile, req.inputs.outside_root);
    cx.user = user::Places::of(req.inputs.machine, req.context.mode);
    cx.context_window = req.inputs.context_window;
    user::notes(&mut cx);
    cx.walk_problems();
    let settings = settings::load(&mut cx);
    instructions::compile(&mut cx, &settings);
    skills::compile(&mut cx, &settings);
    mcp::compile(&mut cx, &settings);
    hooks::compile(&mut cx, &settings);
    agents::compile(&mut cx, &settings);
    plugins::compile(&mut cx, &settings);
    if cx.user.is_some() {
        skills::budget(&mut cx);
    }
    cx.finish()
}

/// How a real file first entered the context.
#[derive(Clone, Debug)]
pub(crate) struct Inclusion {
    /// The importing file, or the path the file was loaded as.
    pub by: RepoPath,
    /// True when it was imported, false when loaded as a memory or rule file.
    pub imported: bool,
    /// When it entered: at startup or on demand (a read).
    pub load_phase: LoadPhase,
}

impl Inclusion {
    /// In words, as seen from the file `here`.
    pub(crate) fn describe(&self, here: &RepoPath) -> String {
        match (self.imported, &self.by == here) {
            (true, true) => "imported earlier in this file".to_string(),
            (true, false) => format!("imported by `{}`", self.by),
            (false, _) => format!("loaded as `{}`", self.by),
        }
    }
}

impl Compiler<'_, '_> {
    /// How the real file `real` entered the context before, when that
    /// keeps it from entering again where `place` would put it: always,
    /// except that before [`profile::Fact::NestedSkipsStartupFiles`] a
    /// file loaded at startup enters again when a read reaches it (the
    /// nested loader of 2.1.197 starts each read with an empty set of
    /// processed files; `fuzz.claude-code.34`: reading `lib/main.ts`
    /// attaches `lib/CLAUDE.local.md` and its import `@../CLAUDE.local.md`,
    /// the root's `CLAUDE.local.md`, loaded at startup).
    pub(crate) fn included_before(
        &self,
        real: &RepoPath,
        phase: LoadPhase,
        applicability: Applicability,
    ) -> Option<&Inclusion> {
        let first = self.included.get(real)?;
        let read_reaches_startup_file = first.load_phase == LoadPhase::Startup
            && phase == LoadPhase::OnDemand
            && applicability == Applicability::Effective;
        if read_reaches_startup_file && !self.profile.has(profile::Fact::NestedSkipsStartupFiles) {
            return None;
        }
        Some(first)
    }
}

/// Shared state of one compilation: the toolkit's (the repository, the
/// context and the diagnostics collected so far, reached through `Deref`)
/// and Claude Code's own.
pub(crate) struct Compiler<'a, 'r> {
    base: Compilation<'a, 'r>,
    /// The release whose behaviour is modelled.
    pub profile: profile::Profile,
    /// The directories above the repository root, when the user lets the
    /// analysis read them (`--outside-root`); `None`: they are unseen.
    pub outside: Option<&'a Ancestors>,
    /// In local mode, where the user's and the machine's configuration
    /// lies ([`user::Places`]); `None` in repo mode.
    pub user: Option<user::Places<'a>>,
    /// The model's context window (`--context-window`), which sizes the
    /// skill listing's budget ([`listing`]).
    pub context_window: ContextWindow,
    pub out: EffectiveAgentConfig,
    ids: HashMap<String, u32>,
    target_outside_reported: bool,
    /// Real files already in the context, with how each was first
    /// included (Claude Code includes each file once in its context).
    pub included: HashMap<RepoPath, Inclusion>,
    /// Real files an import failed to read (reported once).
    pub unreadable_imports: HashSet<RepoPath>,
    /// Diagnostics reported once per (code, file, target).
    reported: HashSet<(DiagnosticCode, RepoPath, RepoPath)>,
    /// Directories the walk could not list, with why (built on first use).
    unlisted: Option<HashMap<RepoPath, String>>,
}

impl<'a, 'r> std::ops::Deref for Compiler<'a, 'r> {
    type Target = Compilation<'a, 'r>;
    fn deref(&self) -> &Self::Target {
        &self.base
    }
}

impl std::ops::DerefMut for Compiler<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.base
    }
}

impl<'a, 'r> Compiler<'a, 'r> {
    fn new(
        repo: &'a Repo<'r>,
        ctx: &'a AnalysisContext,
        profile: profile::Profile,
        outside: Option<&'a Ancestors>,
    ) -> Self {
        let mut out = EffectiveAgentConfig::new(HARNESS, ctx.clone());
        out.assumptions.push(match ctx.mode {
            Mode::Repo => "Repo mode: only repository-defined configuration is compiled; ~/.claude, managed policy, \
                           CLAUDE.local.md and .claude/settings.local.json are not read."
                .to_string(),
            Mode::Local => "Local mode: CLAUDE.local.md and .claude/settings.local.json in the tree are read; \
                            ~/.claude and managed policy are not."
                .to_string(),
        });
        out.assumptions.push(format!(
            "Claude Code starts in `{}` and the repository root is its project root.",
            ctx.cwd
        ));
        out.assumptions.push(
            "Files below the launch directory load on demand once the agent reads or edits a file in their directory \
             (Read, Edit and Write do this; Bash, Grep and Glob are reported not to)."
                .to_string(),
        );
        out.diagnostics.push(Diagnostic::new(
            DiagnosticCode::UserConfigUnavailable,
            "~/.claude/CLAUDE.md, ~/.claude/rules, ~/.claude/skills, ~/.claude/settings.json and user MCP servers in \
             ~/.claude.json are not read; they can add to what Claude Code receives.",
        ));
        out.diagnostics.push(Diagnostic::new(
            DiagnosticCode::ManagedConfigUnavailable,
            "Managed policy (managed CLAUDE.md, managed-settings.json, server-managed settings) is not read; it can add \
             instructions and cannot be excluded.",
        ));
        // Fidelity C3, C4: the startup walk and `.mcp.json` go on above
        // the repository root, which the analysis reads only when asked.
        match outside {
            None => {
                out.diagnostics.push(Diagnostic::new(
                    DiagnosticCode::OutsideRootUnseen,
                    "CLAUDE.md, .claude/CLAUDE.md, .claude/rules, CLAUDE.local.md and .mcp.json in the directories \
                     above the repository root are not read; Claude Code reads them in every directory from the launch \
                     directory up to the filesystem root, so they can add to what it receives (--mode local \
                     --outside-root reads them).",
                ));
                out.assumptions.push(
                    "No CLAUDE.md, .claude/CLAUDE.md, .claude/rules, CLAUDE.local.md or .mcp.json lies in a directory \
                     above the repository root."
                        .to_string(),
                );
            }
            Some(a) => out.assumptions.push(format!(
                "Read above the repository root (--outside-root): CLAUDE.md, .claude/CLAUDE.md, .claude/rules, \
                 CLAUDE.local.md and .mcp.json of {} up to the filesystem root (excluded); their paths start with \
                 `..`. Symbolic links there are followed as Claude Code follows them, to the repository or a directory \
                 above its root, never further.",
                playbookdiff_model::remedy::count(a.len(), "directory", "directories")
            )),
        }
        // Claude Code's own notes come before the listing problems
        // (`walk_problems`), so the toolkit's start problems are not used.
        let base = Compilation {
            repo,
            context: ctx,
            diags: std::mem::take(&mut out.diagnostics),
            refusals: Vec::new(),
        };
        Compiler {
            base,
            profile,
            outside,
            user: None,
            context_window: ContextWindow::ReleaseDefault,
            out,
            ids: HashMap::new(),
            target_outside_reported: false,
            included: HashMap::new(),
            unreadable_imports: HashSet::new(),
            reported: HashSet::new(),
            unlisted: None,
        }
    }

    /// `read(self)` computed once per run for `key`
    /// ([`playbookdiff_source::Repo::memo`]) and shared by every launch
    /// directory of `check --all-dirs`: the diagnostics `read` reports are
    /// kept with its answer and reported again, in the same order, by every
    /// caller. For reading that depends only on the repository and `key`
    /// (a file and the release); the key type is private to the caller.
    pub(crate) fn memo_read<K, T>(&mut self, key: K, read: impl FnOnce(&mut Self) -> T) -> T
    where
        K: std::hash::Hash + Eq + Send + Sync + 'static,
        T: Clone + Send + Sync + 'static,
    {
        let repo = self.repo;
        let memo: std::sync::Arc<(T, Vec<Diagnostic>)> = repo.memo(key, || {
            let before = self.diags.len();
            let value = read(self);
            let diags = self.diags.split_off(before);
            std::sync::Arc::new((value, diags))
        });
        self.diags.extend(memo.1.iter().cloned());
        memo.0.clone()
    }

    /// A unique id from `base`: the first use is `base`, later ones `base~2`…
    pub(crate) fn unique_id(&mut self, base: String) -> String {
        if let Some(n) = self.ids.get_mut(&base) {
            *n += 1;
            return format!("{base}~{n}");
        }
        self.ids.insert(base.clone(), 1);
        base
    }

    /// Reports each pattern of `compiled` that Claude Code's matcher
    /// rejects (it matches nothing): an `invalid-glob` diagnostic at
    /// `source`, worded by `message(pattern, reason)`.
    pub(crate) fn invalid_patterns(
        &mut self,
        compiled: &matcher::PathPatterns,
        source: &SourceRef,
        message: impl Fn(&str, &str) -> String,
    ) {
        for (pattern, reason) in &compiled.errors {
            let d = Diagnostic::new(DiagnosticCode::InvalidGlob, message(pattern, reason));
            self.diag(d.at(source.clone()));
        }
    }

    /// Reports `d` unless a diagnostic with its code was already reported
    /// for the pair (`file`, `target`).
    pub(crate) fn diag_once(&mut self, file: &RepoPath, target: &RepoPath, d: Diagnostic) {
        if self.reported.insert((d.code, file.clone(), target.clone())) {
            self.diag(d);
        }
    }

    /// When `path` lies below a directory the walk could not list: that
    /// directory and why. Whether such a path exists is unknown.
    pub(crate) fn unlisted_ancestor(&mut self, path: &RepoPath) -> Option<(RepoPath, String)> {
        if self.repo.walk_problems().is_empty() {
            return None;
        }
        let repo = self.repo;
        let unlisted = self.unlisted.get_or_insert_with(|| {
            let mut m = HashMap::new();
            for p in repo.walk_problems() {
                if !p.cause.hides_subtree() {
                    continue;
                }
                m.entry(p.path.clone()).or_insert_with(|| p.message.clone());
            }
            m
        });
        let mut up = path.parent();
        while let Some(d) = up {
            if let Some(why) = unlisted.get(&d) {
                return Some((d, why.clone()));
            }
            up = d.parent();
        }
        None
    }

    fn walk_problems(&mut self) {
        for d in problems::listing_problems(self.repo, HARNESS.display_name()) {
            self.diag(d);
        }
    }

    /// The source reference for `path` with its resolved target when it is
    /// reached through a symbolic link.
    pub(crate) fn source_ref(
        &self,
        path: &RepoPath,
        scope: SourceScope,
        format: SourceFormat,
    ) -> SourceRef {
        if path.is_on_machine() {
            return user::source_ref(path, format);
        }
        if path.is_above_root() {
            let mut s = SourceRef::outside_root(path.clone(), scope, format);
            s.resolved_path = match self.above_reach(path) {
                Some(Reach::Above {
                    real,
                    via_link: true,
                    ..
                }) => Some(real.to_repo_path()),
                Some(Reach::Repository { real, .. }) => Some(real),
                _ => None,
            };
            return s;
        }
        let mut s = SourceRef::project(path.clone(), format);
        s.scope = scope;
        match self.repo.resolve(path) {
            Resolved::Inside {
                real,
                via_link: true,
                ..
            } => s.resolved_path = Some(real),
            Resolved::Outside { .. } => {
                s.resolved_path = self.outside_target(path).map(|(real, _)| real);
            }
            _ => {}
        }
        s
    }

    /// Where the path `path` above the repository root leads once links are
    /// followed, through the `--outside-root` view; `None` without it or
    /// for a path inside the repository.
    pub(crate) fn above_reach(&self, path: &RepoPath) -> Option<Reach> {
        if !path.is_above_root() {
            return None;
        }
        Some(self.outside?.resolve(&AncestorPath::from_repo_path(path)?))
    }

    /// With `--outside-root`, where a symbolic link inside the repository
    /// that leaves it leads, when that is a place above the root the view
    /// covers: its path there (`../../shared/a.md`) and kind. Claude Code
    /// follows such a link (case `claude.c04_above_root_links`: a
    /// `.claude/CLAUDE.md` linking outside loads with 2.1.197 and 2.1.332).
    /// `None` without the flag, or when the link leads elsewhere.
    pub(crate) fn outside_target(&self, path: &RepoPath) -> Option<(RepoPath, EntryKind)> {
        let anc = self.outside?;
        let abs = self.repo.tree().absolute_root()?.join(path.as_str());
        match anc.resolve_abs(&abs, None) {
            Reach::Above { real, kind, .. } => Some((real.to_repo_path(), kind)),
            _ => None,
        }
    }

    /// Reports why `path` (which exists as an index entry) cannot be read
    /// as a file: a dangling link, a link out of the repository, a loop.
    /// Returns true when it resolves to a readable file.
    pub(crate) fn check_link(&mut self, path: &RepoPath, format: SourceFormat) -> bool {
        match self.repo.resolve(path) {
            Resolved::Inside {
                kind: playbookdiff_source::EntryKind::File,
                ..
            } => true,
            Resolved::Outside { .. } if self.outside_target(path).is_some() => {
                match self.outside_target(path) {
                    Some((_, EntryKind::File)) => true,
                    Some((real, kind)) => {
                        let effect = "Claude Code does not load it";
                        let mut d = problems::not_a_file(path, kind, true, effect, format);
                        d.message = format!(
                            "{} (It leads to `{real}`, above the repository root.)",
                            d.message
                        );
                        self.diag(d);
                        false
                    }
                    None => false,
                }
            }
            r => {
                let effect = format!("Claude Code loads nothing from {}", problems::quote(path));
                if let Some(d) = problems::link_problem(&r, path, None, &effect, format) {
                    self.diag(d);
                }
                false
            }
        }
    }

    /// Like [`Compiler::check_link`] for a path that must be a regular file
    /// (a memory file, `SKILL.md`, `.mcp.json`, a settings file): a
    /// directory or a special file (FIFO, socket, device) there is reported,
    /// not skipped silently. Returns true when it resolves to a readable file.
    pub(crate) fn expect_file(&mut self, path: &RepoPath, format: SourceFormat) -> bool {
        if path.is_on_machine() {
            return self.expect_machine_file(path, format);
        }
        if path.is_above_root() {
            // A link is reported by `read`, which does not follow it.
            return match self.kind_at(path) {
                Some(EntryKind::File | EntryKind::Symlink) => true,
                Some(kind) => {
                    let mut d = problems::not_a_file(
                        path,
                        kind,
                        false,
                        "Claude Code does not load it",
                        format,
                    );
                    mark_outside(&mut d);
                    self.diag(d);
                    false
                }
                None => false,
            };
        }
        match self.repo.resolve(path) {
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } => true,
            Resolved::Inside { kind, via_link, .. } => {
                let effect = "Claude Code does not load it";
                self.diag(problems::not_a_file(path, kind, via_link, effect, format));
                false
            }
            _ => self.check_link(path, format),
        }
    }

    /// Reads a text file with the adapter's size limit, reporting a too
    /// large file, an unreadable one and invalid UTF-8.
    pub(crate) fn read(
        &mut self,
        path: &RepoPath,
        format: SourceFormat,
    ) -> Option<std::sync::Arc<playbookdiff_source::TextFile>> {
        if path.is_on_machine() {
            return self.read_on_machine(path, format);
        }
        if path.is_above_root() {
            return self.read_above_root(path, format);
        }
        if self.outside.is_some() && matches!(self.repo.resolve(path), Resolved::Outside { .. }) {
            // A link leaving the repository for a place above the root:
            // read there, as Claude Code does.
            if let Some((real, EntryKind::File)) = self.outside_target(path) {
                return self.read_above_root(&real, format);
            }
        }
        match self.repo.read_text(path, READ_LIMIT) {
            Ok(t) => {
                if t.invalid_utf8 {
                    self.diag(problems::invalid_utf8(path, format, &t));
                }
                Some(t)
            }
            Err(e @ playbookdiff_source::SourceError::TooLarge { .. }) => {
                let effect =
                    "Claude Code skips it (its limit is 4 MiB) and nothing from it is loaded";
                self.diag(problems::read_error(path, &e, effect, format));
                None
            }
            Err(e) => {
                if self.repo.kind(path).is_some() && self.check_link(path, format) {
                    let effect = "its content is unknown";
                    self.diag(problems::read_error(path, &e, effect, format));
                }
                None
            }
        }
    }

    /// [`Compiler::read`] of a file above the repository root, through the
    /// [`Ancestors`] view: symbolic links are followed as Claude Code
    /// follows them (case `claude.c04_above_root_links`: a linked
    /// `CLAUDE.md` and `.mcp.json` above the root load with 2.1.197 and
    /// 2.1.332), to a place the view covers or into the repository, never
    /// elsewhere; never over the size limit, never a file that is not
    /// regular. A link's target is in the entry's `resolvedPath`.
    fn read_above_root(
        &mut self,
        path: &RepoPath,
        format: SourceFormat,
    ) -> Option<std::sync::Arc<playbookdiff_source::TextFile>> {
        let anc = self.outside?;
        let at = AncestorPath::from_repo_path(path)?;
        let real = match anc.resolve(&at) {
            Reach::Missing => return None,
            Reach::Repository { real, .. } => return self.read(&real, format),
            Reach::Above {
                real,
                kind: EntryKind::File,
                ..
            } => real,
            Reach::Above { kind, via_link, .. } => {
                let mut d = problems::not_a_file(
                    path,
                    kind,
                    via_link,
                    "Claude Code does not load it",
                    format,
                );
                mark_outside(&mut d);
                self.diag(d);
                return None;
            }
            r => {
                let why = match r {
                    Reach::Dangling => (
                        DiagnosticCode::SymlinkDangling,
                        "is a symbolic link to nothing, so Claude Code loads nothing from it",
                    ),
                    Reach::Loop => (
                        DiagnosticCode::SymlinkLoop,
                        "is a symbolic link that loops (or chains too many links), so Claude Code loads nothing from it",
                    ),
                    _ => (
                        DiagnosticCode::SymlinkOutsideRepository,
                        "is a symbolic link that leads out of the directories the analysis reads (the repository and \
                         those above its root): Claude Code follows it, the analysis does not, so what it adds is unknown",
                    ),
                };
                let d = Diagnostic::new(why.0, format!("`{path}` {}.", why.1)).at(self.source_ref(
                    path,
                    SourceScope::Project,
                    format,
                ));
                self.diag(d);
                return None;
            }
        };
        match anc.read_file(&real, READ_LIMIT) {
            Ok(bytes) => {
                let t = playbookdiff_source::TextFile::from_bytes(&bytes);
                if t.invalid_utf8 {
                    let mut d = problems::invalid_utf8(path, format, &t);
                    mark_outside(&mut d);
                    self.diag(d);
                }
                Some(std::sync::Arc::new(t))
            }
            Err(playbookdiff_source::SourceError::NotFound(_)) => None,
            Err(e) => {
                let effect =
                    "Claude Code may read it; the analysis does not, so its content is unknown";
                let mut d = problems::read_error(path, &e, effect, format);
                mark_outside(&mut d);
                self.diag(d);
                None
            }
        }
    }

    /// The kind of entry `path` names (links not followed), inside the
    /// repository or, with `--outside-root`, above it. `None` when absent.
    pub(crate) fn kind_at(&self, path: &RepoPath) -> Option<EntryKind> {
        if path.is_on_machine() {
            return self.machine()?.stat(path).ok().map(|s| s.kind);
        }
        if !path.is_above_root() {
            return self.repo.kind(path);
        }
        let at = AncestorPath::from_repo_path(path)?;
        self.outside?.stat(&at).ok().map(|s| s.kind)
    }

    /// `path` relative to the directory `owner` of a rules root, for
    /// matching `paths`: for an ancestor above the repository root, the
    /// repository's own place in it comes first (`repo/src/a.ts`).
    pub(crate) fn relative_to_owner(&self, path: &RepoPath, owner: &RepoPath) -> Option<String> {
        if !owner.is_above_root() {
            return relative_to(path, owner);
        }
        let at = AncestorPath::from_repo_path(owner)?;
        if !at.rel.is_root() {
            return None;
        }
        let base = self.outside?.root_from(at.levels_up)?;
        Some(if path.is_root() {
            base
        } else {
            format!("{base}/{path}")
        })
    }

    /// The directories above the repository root that the analysis reads,
    /// furthest first (`../..`, `..`), each as [`RepoPath::above_root`]
    /// names it. Empty without `--outside-root`.
    pub(crate) fn above_root_dirs(&self) -> Vec<RepoPath> {
        let n = self.outside.map_or(0, Ancestors::len);
        (1..=n)
            .rev()
            .map(|l| RepoPath::above_root(l, &RepoPath::root()))
            .collect()
    }

    /// The directory the target path lies in: the target itself when it is a
    /// directory, else its parent.
    pub(crate) fn target_dir(&self) -> Option<RepoPath> {
        let t = self.context.target_path.as_ref()?;
        if self.repo.is_dir(t) {
            Some(t.clone())
        } else {
            Some(t.parent().unwrap_or_else(RepoPath::root))
        }
    }

    /// The directories off the startup chain that are in this launch
    /// directory's scope and hold `rel` (a path relative to its owner:
    /// `CLAUDE.md`, `.claude/skills`): those below cwd, from the by-name
    /// index ([`Repo::files_named_under`], so the cost is that of the
    /// answer, not of the repository), and those on the way to a target
    /// outside cwd. Directories beside the path (neither ancestors of cwd,
    /// below it, nor on the target's path) are never listed. Owners inside
    /// a `.claude` directory are left out. Sorted by depth, then path.
    pub(crate) fn off_chain_owners(&self, rel: &str) -> Vec<RepoPath> {
        let cwd = &self.context.cwd;
        let Some(name) = rel.rsplit('/').next() else {
            return Vec::new();
        };
        let mut owners: Vec<RepoPath> = Vec::new();
        for p in self.repo.files_named_under(name, cwd) {
            let owner = if p.as_str() == rel {
                Some(RepoPath::root())
            } else {
                p.as_str()
                    .strip_suffix(rel)
                    .and_then(|o| o.strip_suffix('/'))
                    .and_then(RepoPath::new)
            };
            if let Some(o) = owner {
                if strictly_below(&o, cwd) && outside_dot_claude(&o) {
                    owners.push(o);
                }
            }
        }
        if let Some(td) = self.target_dir() {
            for d in td.ancestors_root_first() {
                if cwd.starts_with(&d) || d.starts_with(cwd) || !outside_dot_claude(&d) {
                    continue;
                }
                if d.join(rel).is_some_and(|p| self.repo.kind(&p).is_some()) {
                    owners.push(d);
                }
            }
        }
        owners.sort_by(|a, b| a.depth().cmp(&b.depth()).then(a.cmp(b)));
        owners.dedup();
        owners
    }

    /// Placement of an item owned by directory `dir` off the startup chain
    /// (neither cwd nor an ancestor of it), one rule for instructions, rules
    /// roots and skills: below cwd it loads on demand
    /// ([`Compiler::on_demand`]); on the way to a target outside cwd it is
    /// conditional (on-demand loading there is undocumented; reported once
    /// as `target-outside-cwd`). Callers pass only directories from
    /// [`Compiler::off_chain_owners`]; any other directory is out of scope
    /// (Claude Code never discovers it from this launch directory).
    pub(crate) fn off_chain(&mut self, dir: &RepoPath) -> (LoadPhase, Applicability, String) {
        let cwd = self.context.cwd.clone();
        if strictly_below(dir, &cwd) {
            let (a, r) = self.on_demand(dir);
            return (LoadPhase::OnDemand, a, r);
        }
        if self.target_dir().is_some_and(|td| td.starts_with(dir)) {
            self.target_outside_cwd();
            return (
                LoadPhase::OnDemand,
                Applicability::Conditional,
                format!(
                    "`{dir}` is outside the launch directory; Claude Code loads nothing on demand for a file there"
                ),
            );
        }
        (
            LoadPhase::OnDemand,
            Applicability::OutOfScope,
            format!(
                "`{dir}` is neither the launch directory, an ancestor of it, below it, nor on the way to the target"
            ),
        )
    }

    /// Reports once that the target lies outside the launch directory, so
    /// that nothing (memory files, rules, skills) loads on demand for it.
    /// Source: fidelity C13 (older source `pathInAllowedWorkingPath`;
    /// anthropics/claude-code#65257), seen with 2.1.197 and 2.1.332.
    pub(crate) fn target_outside_cwd(&mut self) {
        if self.target_outside_reported {
            return;
        }
        self.target_outside_reported = true;
        let cwd = self.context.cwd.clone();
        self.diag(Diagnostic::new(
            DiagnosticCode::TargetOutsideCwd,
            format!(
                "The target is outside the launch directory `{cwd}`; Claude Code loads nothing on demand for a file \
                 outside its working directory (no nested CLAUDE.md, no path-scoped rule, no nested rules or skills), \
                 so what would attach to the target is conditional."
            ),
        ));
    }

    /// For an item below the launch directory owned by directory `dir`:
    /// effective on demand when the target lies in `dir`'s subtree, else
    /// conditional; with the sentence saying why.
    pub(crate) fn on_demand(&self, dir: &RepoPath) -> (Applicability, String) {
        match self.target_dir() {
            Some(td) if td.starts_with(dir) => (
                Applicability::Effective,
                format!(
                    "loads on demand after a file in `{dir}` is read or edited; the target `{}` is there",
                    self.context.target_path.as_ref().map(|p| p.as_str()).unwrap_or("")
                ),
            ),
            Some(_) => (
                Applicability::Conditional,
                format!("would load on demand after a file in `{dir}` is read or edited; the target is elsewhere"),
            ),
            None => (
                Applicability::Conditional,
                format!("would load on demand after a file in `{dir}` is read or edited; no target was given"),
            ),
        }
    }

    fn finish(mut self) -> EffectiveAgentConfig {
        // Context order: effective startup, effective on-demand, the rest in
        // discovery order.
        let mut next = 0u32;
        for phase in [LoadPhase::Startup, LoadPhase::OnDemand] {
            for i in self.out.instructions.iter_mut() {
                if i.applicability == Applicability::Effective && i.load_phase == phase {
                    i.order = Some(next);
                    next += 1;
                }
            }
        }
        self.out
            .instructions
            .sort_by_key(|i| i.order.unwrap_or(u32::MAX));
        let mut out = self.out;
        out.diagnostics = self.base.diags;
        out
    }
}

/// Marks the file a diagnostic points at as lying above the repository
/// root (the toolkit builds repository references).
fn mark_outside(d: &mut Diagnostic) {
    if let Some(s) = d.source.as_mut() {
        s.outside_root = s.path.is_above_root();
    }
}

/// True when no component of `p` is `.claude` (memory files and roots of
/// `.claude` directories must not sit inside another `.claude`).
pub(crate) fn outside_dot_claude(p: &RepoPath) -> bool {
    !p.components().any(|c| c == ".claude")
}

/// "a directory" or "a special file (…)", for an entry kind that is not a
/// regular file (the toolkit's wording).
pub(crate) fn kind_phrase(kind: EntryKind) -> &'static str {
    problems::kind_phrase(kind)
}

pub(crate) use playbookdiff_adapter::js::{trim as js_trim, trim_start as js_trim_start};

/// The front matter of `text` as Claude Code reads it
/// ([`frontmatter::parse`]), parsed once per file and shared.
pub(crate) fn front_matter(
    text: &playbookdiff_source::TextFile,
) -> std::sync::Arc<Option<frontmatter::FrontMatter>> {
    text.parsed_as(frontmatter::parse)
}

/// The front matter of a file as this release reads it: the parsed front
/// matter ([`front_matter`]) and whether a byte order mark hides it.
pub(crate) struct ReadFrontMatter {
    parsed: std::sync::Arc<Option<frontmatter::FrontMatter>>,
    /// Before [`profile::Fact::FrontMatterAfterBom`] a mark before the
    /// opening `---` leaves the file without front matter.
    pub(crate) hidden: bool,
}

impl ReadFrontMatter {
    /// The front matter Claude Code reads: `None` when there is none or a
    /// byte order mark hides it.
    pub(crate) fn read(&self) -> Option<&frontmatter::FrontMatter> {
        if self.hidden {
            None
        } else {
            self.parsed.as_ref().as_ref()
        }
    }
}

/// The front matter this release reads in `text` ([`ReadFrontMatter`]):
/// before [`profile::Fact::FrontMatterAfterBom`] a mark before the opening
/// `---` hides it (seen with 2.1.197: a rule with `paths` loads at startup
/// with its `---` block as text, a skill lists `---` as its description).
pub(crate) fn read_front_matter(
    profile: &profile::Profile,
    text: &playbookdiff_source::TextFile,
) -> ReadFrontMatter {
    let parsed = front_matter(text);
    let hidden = parsed.is_some()
        && text.text.starts_with('\u{feff}')
        && !profile.has(profile::Fact::FrontMatterAfterBom);
    ReadFrontMatter { parsed, hidden }
}

/// The `invalid-frontmatter` diagnostic for a file whose front matter a
/// byte order mark hides ([`ReadFrontMatter::hidden`]), placed at line 1 of
/// `source`; `consequence` says what the file then is ("the rule has no
/// `paths`, ...").
pub(crate) fn front_matter_hidden_by_bom(
    path: &RepoPath,
    source: &SourceRef,
    consequence: &str,
) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::InvalidFrontmatter,
        format!(
            "`{path}` starts with a byte order mark before its `---`; this Claude Code release then does not \
             read the front matter, so {consequence}. Save the file without the mark."
        ),
    )
    .at(source.clone().with_lines(1, 1))
}

/// Where the text Claude Code reads of a memory file or rule starts: after
/// the front matter this release reads ([`read_front_matter`]), else at
/// the start, a byte order mark included. The agent's Markdown lexer sees
/// the mark as a character of the first line: `\u{feff}```` opens no code
/// block, so an `@` import on the next lines counts (seen with 2.1.197 and
/// 2.1.332, case `fuzz.claude-code.47`), and an `@` right after the mark
/// counts, the mark being white space to the agent's import pattern (case
/// `claude.c29_bom_import_and_rule`); the text sent is trimmed of it.
/// Releases before [`profile::Fact::MemoryBomStripped`] send the mark
/// with the text (seen on `CLAUDE.md`); the adapter's text does not yet
/// tell them apart, only `upgrade` names the change.
pub(crate) fn body_start(
    profile: &profile::Profile,
    text: &playbookdiff_source::TextFile,
) -> usize {
    match read_front_matter(profile, text).read() {
        Some(f) => f.body_offset,
        _ => 0,
    }
}

/// True when `text` opens front matter (its first line is `---`) that no
/// later `---` closes: the file is then plain Markdown.
pub(crate) fn unclosed_front_matter(text: &playbookdiff_source::TextFile) -> bool {
    let t = text.text.strip_prefix('\u{feff}').unwrap_or(&text.text);
    let first = t.split('\n').next().unwrap_or("");
    first.trim_end() == "---" && front_matter(text).is_none()
}

/// When `text`, the file `path` at `source`, opens front matter that no
/// later `---` closes ([`unclosed_front_matter`]): reports an
/// `invalid-frontmatter` diagnostic at line 1 saying that the whole file
/// is read as plain Markdown, so `effect` (what the file then lacks).
/// One wording for rules and skills.
pub(crate) fn report_unclosed_front_matter(
    cx: &mut Compiler<'_, '_>,
    text: &playbookdiff_source::TextFile,
    path: &RepoPath,
    source: &SourceRef,
    effect: &str,
) {
    if !unclosed_front_matter(text) {
        return;
    }
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InvalidFrontmatter,
            format!(
                "`{path}` opens front matter with `---` but no later `---` closes it; the whole file is read as \
                 plain Markdown, so {effect}."
            ),
        )
        .at(source.clone().with_lines(1, 1)),
    );
}

/// The file line of the top-level key `key` ([`frontmatter::key_line`]).
pub(crate) fn key_line(fm: &frontmatter::FrontMatter, key: &str) -> u32 {
    frontmatter::key_line(fm, key)
}

/// Notes that front matter parsed only after Claude Code's repair (plain
/// values with YAML special characters quoted, tabs expanded): the agent
/// reads it, other YAML readers may not.
pub(crate) fn repaired_note(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    source: &SourceRef,
    line: u32,
) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InvalidFrontmatter,
            format!(
                "The front matter of `{path}` is not valid YAML as written; Claude Code retries with unquoted values \
                 holding YAML special characters quoted (and leading tabs expanded), and that reading is used. Quote \
                 the values so other tools read it the same way."
            ),
        )
        .at(source.clone().with_lines(line, line))
        .with_severity(playbookdiff_model::Severity::Info),
    );
}

/// `path` relative to the directory `base` as a POSIX path (`""` for
/// `base` itself), or `None` when `path` is not inside `base`.
pub(crate) fn relative_to(path: &RepoPath, base: &RepoPath) -> Option<String> {
    if base.is_root() {
        return Some(if path.is_root() {
            String::new()
        } else {
            path.as_str().to_string()
        });
    }
    if !path.starts_with(base) {
        return None;
    }
    Some(
        path.as_str()
            .strip_prefix(base.as_str())
            .unwrap_or("")
            .trim_start_matches('/')
            .to_string(),
    )
}

/// The YAML parser's message in words for people: without its position
/// (the diagnostic's lines carry the file line), without names of Rust
/// types, and with resource limits spelled out.
pub(crate) fn yaml_message(raw: &str) -> String {
    let mut m = raw.trim();
    m = m.strip_prefix("error:").unwrap_or(m).trim_start();
    // `line N column M: ` as the parser prefixes it.
    if let Some(rest) = m.strip_prefix("line ") {
        if let Some(i) = rest.find(": ") {
            if rest[..i]
                .chars()
                .all(|c| c.is_ascii_digit() || c == ' ' || c.is_ascii_alphabetic())
            {
                m = &rest[i + 2..];
            }
        }
    }
    if let Some(breach) = m.strip_prefix("budget breached:") {
        let kind = breach.trim().split([' ', '{']).next().unwrap_or("");
        return match kind {
            "Depth" => "nesting deeper than 64 levels".to_string(),
            "Aliases" | "AliasAnchorRatio" | "Nodes" | "Events" | "MergeKeys" => {
                "an alias expands too much (more than 25,000 values)".to_string()
            }
            "Anchors" => "too many anchors".to_string(),
            "Documents" => "too many YAML documents".to_string(),
            _ => "too large or too deeply nested to read safely".to_string(),
        };
    }
    if m.starts_with("cannot deserialize null into string") {
        return "a key is empty or null; keys must be text".to_string();
    }
    if m == "expected string scalar" {
        return "a key is a list or a mapping; keys must be text".to_string();
    }
    if let Some(key) = m.strip_prefix("duplicate mapping key: ") {
        let key = key.split(", set ").next().unwrap_or(key);
        return format!("the key `{key}` appears twice");
    }
    // Whatever else the parser says, without advice about Rust types.
    let m = m.split("; use ").next().unwrap_or(m);
    let m = match m.find(" at line ") {
        Some(i) => &m[..i],
        None => m,
    };
    if m.is_empty() {
        "invalid YAML".to_string()
    } else {
        m.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::yaml_message;

    #[test]
    fn yaml_messages_are_for_people() {
        assert_eq!(
            yaml_message(
                "error: line 1 column 1: cannot deserialize null into string; use Option<String>"
            ),
            "a key is empty or null; keys must be text"
        );
        assert_eq!(
            yaml_message("error: line 3 column 9: budget breached: Depth { depth: 65 }"),
            "nesting deeper than 64 levels"
        );
        assert_eq!(
            yaml_message("error: line 6 column 14: budget breached: Nodes { nodes: 25001 }"),
            "an alias expands too much (more than 25,000 values)"
        );
        assert_eq!(
            yaml_message(
                "error: line 2 column 2: tabs disallowed within this context (block indentation)"
            ),
            "tabs disallowed within this context (block indentation)"
        );
        assert_eq!(
            yaml_message("error: line 2 column 1: duplicate mapping key: a, set DuplicateKeyPolicy in Options if acceptable"),
            "the key `a` appears twice"
        );
    }
}

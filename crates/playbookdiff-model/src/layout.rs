//! The harness layout: where each harness reads each kind of configuration
//! from, as data (`playbookdiff layout`, `schema/layout.schema.json`).
//!
//! An adapter declares its layout once, as a table of [`Surface`] values
//! (its `SURFACES` constant); its compilation reads the files of that
//! table, the guard protects its repository paths, and `playbookdiff
//! layout` prints it ([`LayoutDocument`]). Each adapter crate has a test
//! that every file its compilation reads matches a row of its table and
//! that every row of its table is read.

use crate::{Diagnostic, Harness};
use schemars::JsonSchema;
use serde::Serialize;

/// What kind of agent configuration a [`Surface`] holds: the closed set of
/// things an agent reads from a repository as configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SurfaceKind {
    /// Instruction files (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`) and the
    /// files they import.
    Instructions,
    /// Path-scoped rules (`.claude/rules`, `.github/instructions`).
    Rules,
    /// Skills (`SKILL.md` in a skills directory).
    Skills,
    /// Commands the user invokes by name (`.claude/commands`).
    Commands,
    /// Subagents and custom agents (`.claude/agents`, `.codex/agents`).
    Subagents,
    /// Output styles, which replace part of the system prompt.
    OutputStyles,
    /// Hook registrations and the scripts hooks run.
    Hooks,
    /// Plugins, plugin marketplaces and plugin modules.
    Plugins,
    /// MCP server registrations (`.mcp.json`, `[mcp_servers]`).
    McpServers,
    /// Settings and configuration layers (`.claude/settings.json`,
    /// `.codex/config.toml`, `opencode.json`).
    Settings,
    /// Permission settings: what the agent may do without asking.
    Permissions,
    /// The harness's own configuration directory as a whole: the rows of
    /// the other kinds name the files in it the agent reads by name; a
    /// setting or a hook may name any other file in it.
    Directory,
}

impl SurfaceKind {
    /// Every kind, in the order a layout lists them.
    pub const ALL: [SurfaceKind; 12] = [
        SurfaceKind::Instructions,
        SurfaceKind::Rules,
        SurfaceKind::Skills,
        SurfaceKind::Commands,
        SurfaceKind::Subagents,
        SurfaceKind::OutputStyles,
        SurfaceKind::Hooks,
        SurfaceKind::Plugins,
        SurfaceKind::McpServers,
        SurfaceKind::Settings,
        SurfaceKind::Permissions,
        SurfaceKind::Directory,
    ];

    /// The kind's name in output (`instructions`, `output-styles`,
    /// `mcp-servers`...), as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            SurfaceKind::Instructions => "instructions",
            SurfaceKind::Rules => "rules",
            SurfaceKind::Skills => "skills",
            SurfaceKind::Commands => "commands",
            SurfaceKind::Subagents => "subagents",
            SurfaceKind::OutputStyles => "output-styles",
            SurfaceKind::Hooks => "hooks",
            SurfaceKind::Plugins => "plugins",
            SurfaceKind::McpServers => "mcp-servers",
            SurfaceKind::Settings => "settings",
            SurfaceKind::Permissions => "permissions",
            SurfaceKind::Directory => "directory",
        }
    }
}

/// Whose file a [`Surface`] is: the configuration scopes the agents know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Committed with the repository, shared by the team.
    Project,
    /// In the repository's working tree but personal (usually
    /// git-ignored: `CLAUDE.local.md`, `.claude/settings.local.json`);
    /// read in local mode only.
    Local,
    /// In the user's home directory (`~/.claude/settings.json`): outside
    /// the repository, read in local mode only.
    User,
    /// Installed machine-wide by an administrator (`/etc/...`): outside
    /// the repository, read in local mode only.
    Managed,
    /// Inside a plugin the repository ships (a directory a marketplace
    /// names, with its own manifest).
    Plugin,
}

impl Scope {
    /// The scope's name in output (`project`, `local`, `user`, `managed`,
    /// `plugin`), as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::User => "user",
            Scope::Managed => "managed",
            Scope::Plugin => "plugin",
        }
    }

    /// True when a surface of this scope is a path inside the analysed
    /// repository (project, local, plugin); false for the user's and the
    /// administrator's files (their paths start with `~/` or `/`).
    pub fn in_repository(self) -> bool {
        matches!(self, Scope::Project | Scope::Local | Scope::Plugin)
    }
}

/// How far the analysis models a [`Surface`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Analysis {
    /// Compiled into items of the model (instructions, skills, MCP
    /// servers, hooks, subagents...), with provenance.
    Modelled,
    /// Read and listed as diagnostics with their source, with no item of
    /// their own in the model.
    ReportedOnly,
    /// Not read: outside the repository (a user or managed file local
    /// mode does not read either), or a file the analysis does not open;
    /// a diagnostic or an assumption says what it could change.
    NotRead,
}

impl Analysis {
    /// The value's name in output (`modelled`, `reported-only`,
    /// `not-read`), as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            Analysis::Modelled => "modelled",
            Analysis::ReportedOnly => "reported-only",
            Analysis::NotRead => "not-read",
        }
    }
}

/// One row of a harness's layout: a set of paths of one [`SurfaceKind`]
/// and [`Scope`], the settings keys read from them, the tokens the agent
/// expands in them, and how far the analysis models them.
///
/// `path` is a glob in `globset` syntax with `literal_separator` (`*`
/// stays in one directory, `**/` is any depth): over repository-relative
/// POSIX paths for the repository's scopes (`**/CLAUDE.md` is an
/// instruction file by that name in every directory, `**/.claude/**`
/// everything under every `.claude`), from `~/` (the user's home) or `/`
/// (the machine) for the others.
///
/// Built with [`Surface::new`] and the `const` builder methods, so an
/// adapter's table is a `const` the code that reads files uses too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Surface {
    /// What the paths hold.
    pub kind: SurfaceKind,
    /// The glob (see above).
    #[serde(rename = "path")]
    pub pattern: &'static str,
    /// Whose files they are.
    pub scope: Scope,
    /// The keys read from the file, as dotted paths (`permissions.allow`,
    /// `mcp_servers.<name>`); empty when the file is read whole (Markdown)
    /// or for every key.
    #[serde(default, skip_serializing_if = "no_strings")]
    pub keys: &'static [&'static str],
    /// The tokens the agent expands in what it reads there (`@path`
    /// imports, `$CLAUDE_PROJECT_DIR`, `${VAR}`), as written in the file;
    /// the analysis never expands one from its own environment.
    #[serde(default, skip_serializing_if = "no_strings")]
    pub tokens: &'static [&'static str],
    /// How far the analysis models it.
    pub analysis: Analysis,
    /// The first release that reads it (`None`: every modelled release);
    /// a layout of an older release leaves the row out.
    #[serde(skip)]
    pub since: Option<&'static str>,
    /// One sentence on what the row holds, or why the analysis does not
    /// read it; may be empty.
    #[serde(default, skip_serializing_if = "no_text")]
    pub note: &'static str,
}

fn no_strings(s: &&[&str]) -> bool {
    s.is_empty()
}

fn no_text(s: &&str) -> bool {
    s.is_empty()
}

impl Surface {
    /// A surface of `kind` at `pattern`: project scope, read whole by
    /// every profiled release, no token, modelled.
    pub const fn new(kind: SurfaceKind, pattern: &'static str) -> Surface {
        Surface {
            kind,
            pattern,
            scope: Scope::Project,
            keys: &[],
            tokens: &[],
            analysis: Analysis::Modelled,
            since: None,
            note: "",
        }
    }

    /// With scope `scope`.
    pub const fn scope(mut self, scope: Scope) -> Surface {
        self.scope = scope;
        self
    }

    /// Reading these keys (dotted paths).
    pub const fn keys(mut self, keys: &'static [&'static str]) -> Surface {
        self.keys = keys;
        self
    }

    /// Expanding these tokens.
    pub const fn tokens(mut self, tokens: &'static [&'static str]) -> Surface {
        self.tokens = tokens;
        self
    }

    /// Listed as diagnostics only ([`Analysis::ReportedOnly`]).
    pub const fn reported(mut self) -> Surface {
        self.analysis = Analysis::ReportedOnly;
        self
    }

    /// Not read by the analysis ([`Analysis::NotRead`]).
    pub const fn not_read(mut self) -> Surface {
        self.analysis = Analysis::NotRead;
        self
    }

    /// Read from release `version` on (a profiled release).
    pub const fn since(mut self, version: &'static str) -> Surface {
        self.since = Some(version);
        self
    }

    /// With this one-sentence note.
    pub const fn note(mut self, note: &'static str) -> Surface {
        self.note = note;
        self
    }

    /// The pattern relative to the directory that holds it: without its
    /// leading `**/` (`**/.claude/settings.json` gives
    /// `.claude/settings.json`, which a reader joins to each directory it
    /// looks in); the pattern itself when it has none.
    pub fn relative(&self) -> &'static str {
        self.pattern.strip_prefix("**/").unwrap_or(self.pattern)
    }

    /// True when [`Surface::pattern`] is a path inside the repository
    /// ([`Scope::in_repository`]).
    pub fn in_repository(&self) -> bool {
        self.scope.in_repository()
    }

    /// True when release `version` reads this surface: always without
    /// [`Surface::since`], else when `version` is at least `since`
    /// ([`crate::profile::compare_versions`]).
    pub fn read_by(&self, version: &str) -> bool {
        self.since
            .is_none_or(|since| crate::profile::at_least(version, since))
    }
}

/// The document of `playbookdiff layout --format json`
/// (`schema/layout.schema.json`): for each harness and profiled release,
/// every surface it reads.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LayoutDocument {
    /// Always 1.
    pub schema_version: u32,
    /// One entry per harness and release, harnesses in registry order,
    /// releases oldest first.
    pub layouts: Vec<ReleaseLayout>,
}

/// One harness release's layout.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseLayout {
    /// The harness (its contract id).
    pub harness: Harness,
    /// The product name, e.g. `Claude Code`.
    pub name: &'static str,
    /// The profiled release whose layout this is (the agent's own version
    /// string).
    pub release: String,
    /// Why this release was picked when another was asked for
    /// (`--agent-version` naming a release without a profile: the nearest
    /// older profile, `unknown-agent-version`); absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    /// Its surfaces, in the adapter's table order.
    pub surfaces: Vec<Surface>,
}

//! The facts that differ between Gemini CLI releases, in one table keyed
//! by version range; the compilation asks [`of`] and never compares
//! version strings.
//!
//! [`TABLE`] holds the facts of the first modelled release
//! ([`FIRST_MODELLED`]) and of the two profiled releases; each fact that
//! differs between two rows has its own first release in [`CHANGES`],
//! found by bisection over the published releases with the real agent
//! (`scripts/oracle/bisect.py`, `oracle/bisect/gemini.json`; the registry's
//! `bisected` test fails when the two disagree), so [`of`] models every
//! release from 0.19.4 to 0.61.0: the first row's facts, each replaced by
//! the next row's from its first release on.

use playbookdiff_model::profile::{
    facts_of, BuiltinSkill, FactsMemo, ProfileRow, ReleaseChange, TableFact,
};

/// How the context files found at startup are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Sorted as absolute-path strings (JavaScript's default `sort`, by
    /// UTF-16 code unit), so `Alpha/GEMINI.md` comes before the root's
    /// `GEMINI.md`: `getEnvironmentMemoryPaths` returns `unique.sort()`
    /// (`packages/core/src/utils/memoryDiscovery.ts`); seen with 0.61.0 from
    /// `Alpha/` with `["GEMINI.md","AGENTS.md"]`: `AGENTS.md`,
    /// `Alpha/GEMINI.md`, `GEMINI.md`.
    AbsolutePath,
    /// Grouped by name in `context.fileName` order; within a name the
    /// directories from the top down to cwd, then the downward search's
    /// matches sorted (`getGeminiMdFilePathsInternalForEachDir` in the
    /// shipped `memoryDiscovery.js` of 0.34.0); seen with 0.34.0.
    ByName,
}

/// Which entry marks the project root, where the upward search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Boundary {
    /// The first directory from cwd up holding any entry named in
    /// `context.memoryBoundaryMarkers` (default `[".git"]`, a directory or
    /// the file of a submodule or worktree: `fs.access`); without one, cwd
    /// alone (`findProjectRoot` and `getEnvironmentMemoryPaths`, 0.61).
    Markers,
    /// The first directory from cwd up holding a `.git` *directory*
    /// (`fs.lstat(...).isDirectory()`); the setting is not read. The search
    /// then also takes the parent of that directory; without one it goes up
    /// to the parent of the home directory (0.34 `findProjectRoot` and
    /// `ultimateStopDir`).
    GitDirectoryAndParent,
}

/// The built-in commands of 0.19.4 that 0.61.0 registers too, under
/// default settings (API-key auth, a release build, checkpointing off),
/// `/agents` and `/permissions` apart (they come with subagents and with
/// folder trust): a workspace command of one of these names runs as
/// `/workspace.NAME` (`BuiltinCommandLoader` and `SlashCommandResolver` in
/// `packages/cli/src/services/`; seen with 0.61.0 and 0.34.0:
/// `.gemini/commands/plan.toml` runs as `/workspace.plan`).
const COMMANDS: &[&str] = &[
    "about",
    "auth",
    "bug",
    "chat",
    "clear",
    "commands",
    "compress",
    "copy",
    "corgi",
    "directory",
    "docs",
    "editor",
    "extensions",
    "footer",
    "help",
    "hooks",
    "ide",
    "init",
    "mcp",
    "memory",
    "model",
    "policies",
    "privacy",
    "quit",
    "resume",
    "rewind",
    "settings",
    "setup-github",
    "shortcuts",
    "skills",
    "stats",
    "terminal-setup",
    "theme",
    "tools",
    "vim",
];

/// A built-in command some releases of the window register and others do
/// not ([`Profile::builtin_commands`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaterCommand {
    /// `/bug-memory`, "Capture a V8 heap snapshot to disk to attach to a
    /// bug report".
    BugMemory,
    /// `/gemma`, "Check local Gemma model routing status".
    Gemma,
    /// `/export-session`, "Export the current session to a JSON file".
    ExportSession,
    /// `/tasks`, "Toggle background tasks view", which replaces `/shells`
    /// ("Toggle background shells view").
    TasksForShells,
    /// `/plan`, registered from 0.34.0 on (bisected: a workspace `plan`
    /// command runs as `/plan` with 0.33.2, as `/workspace.plan` with
    /// 0.34.0).
    Plan,
}

impl LaterCommand {
    /// Every variant, in the order of [`Profile::later_commands`]' bits.
    const ALL: [LaterCommand; 5] = [
        LaterCommand::BugMemory,
        LaterCommand::Gemma,
        LaterCommand::ExportSession,
        LaterCommand::TasksForShells,
        LaterCommand::Plan,
    ];

    /// This command's bit in [`Profile::later_commands`].
    const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The name the release registers with this command, and without it.
    const fn names(self) -> (&'static str, Option<&'static str>) {
        match self {
            LaterCommand::BugMemory => ("bug-memory", None),
            LaterCommand::Gemma => ("gemma", None),
            LaterCommand::ExportSession => ("export-session", None),
            LaterCommand::TasksForShells => ("tasks", Some("shells")),
            LaterCommand::Plan => ("plan", None),
        }
    }
}

/// A built-in skill a release of the modelled window ships
/// ([`Profile::builtin_skills`]); its name and description as the
/// release's `SKILL.md` holds them (0.34.0's
/// `dist/src/skills/builtin/`, 0.61.0's `bundle/builtin/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShippedSkill {
    /// `skill-creator`, from 0.26.0 on (bisected).
    SkillCreator,
    /// `antigravity-support`, from 0.51.0 on (bisected).
    AntigravitySupport,
}

impl ShippedSkill {
    /// Every variant, in the order of [`Profile::builtin_skills`]' bits,
    /// which is the release's listing order (its directory order).
    const ALL: [ShippedSkill; 2] = [ShippedSkill::AntigravitySupport, ShippedSkill::SkillCreator];

    /// This skill's bit in [`Profile::builtin_skills`].
    const fn bit(self) -> u8 {
        match self {
            ShippedSkill::SkillCreator => 0b01,
            ShippedSkill::AntigravitySupport => 0b10,
        }
    }

    /// The skill as the release ships it.
    const fn skill(self) -> BuiltinSkill {
        match self {
            ShippedSkill::SkillCreator => BuiltinSkill {
                name: "skill-creator",
                description: "Guide for creating effective skills. This skill should be used when users want to create a new skill (or update an existing skill) that extends Gemini CLI's capabilities with specialized knowledge, workflows, or tool integrations.",
            },
            ShippedSkill::AntigravitySupport => BuiltinSkill {
                name: "antigravity-support",
                description: "Use when the user asks questions, seeks help, or requests instructions related to installing, setting up, or migrating to Antigravity CLI. This skill provides the latest up to date details, requirements, and commands sourced from the official Antigravity CLI documentation.",
            },
        }
    }
}

impl Profile {
    /// The built-in skills of this release, in its listing order.
    pub(crate) fn shipped_skills(&self) -> Vec<BuiltinSkill> {
        ShippedSkill::ALL
            .iter()
            .filter(|k| self.builtin_skills & k.bit() != 0)
            .map(|k| k.skill())
            .collect()
    }
}

/// The behaviour of one range of releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The first release these facts hold for (a row of [`TABLE`] or the
    /// `since` of a change of [`CHANGES`]); with a directory, the key of
    /// what a compilation may share with another of the same facts.
    pub release: &'static str,
    /// The order of the startup context files.
    pub order: Order,
    /// Where the upward search stops.
    pub boundary: Boundary,
    /// The most directories the downward search below cwd scans
    /// (`discoveryMaxDirs`, 200), or `None` when there is no downward
    /// search (removed by google-gemini/gemini-cli#26941).
    pub downward_max_dirs: Option<usize>,
    /// Whether context files between a file the agent reads and cwd are
    /// added to the tool's output (`loadJitSubdirectoryMemory`, on by
    /// default in 0.61; behind `experimental.jitContext`, off, in 0.34).
    pub on_demand: bool,
    /// Whether `context.fileName` adds to `GEMINI.md` (0.61:
    /// `setGeminiMdFilename` keeps the current names after the configured
    /// ones; seen with 0.61.0, `"fileName": "AGENTS.md"` still sent
    /// `GEMINI.md`) rather than replacing it (0.34; seen with 0.34.0).
    pub file_name_keeps_default: bool,
    /// Whether subagents (`.gemini/agents/*.md`) also need
    /// `experimental.enableAgents: true`.
    pub agents_need_flag: bool,
    /// The [`LaterCommand`]s this release registers, one bit each
    /// ([`LaterCommand::bit`]).
    pub later_commands: u8,
    /// Whether folder trust is on by default: a headless run in an
    /// untrusted folder exits with code 55 (`GEMINI_CLI_TRUST_WORKSPACE`
    /// trusts it without the prompt), an untrusted folder loses its
    /// workspace settings, skills, MCP servers and subagents, and
    /// `/permissions` is registered (`getFolderTrust()` in
    /// `BuiltinCommandLoader`). Off in 0.34.0, whose code holds neither.
    pub folder_trust: bool,
    /// Whether the system settings file is skipped ("Security Warning:
    /// Skipping system settings file") unless it and every directory
    /// above it are owned by root and not writable by group or others
    /// (`isFileAndDirectorySecureSync` in 0.61.0's bundle; seen with
    /// 0.61.0: a system file below the world-writable `/tmp` was not
    /// applied). 0.34.0 reads it as it is.
    pub system_settings_secured: bool,
    /// Whether the workspace refuses a path with a `.git`, `.env` or
    /// `node_modules` segment below a workspace directory, so that no
    /// context file is added on demand for it
    /// ([`crate::blocked::has_blocked_segment`]). 0.34.0 has no such rule.
    pub blocked_segments: bool,
    /// Whether the Windows short names of those segments (`git~1`,
    /// `node_m~1`) are refused too (`*_SFN_REGEX` in 0.61.0's bundle).
    pub blocked_short_names: bool,
    /// The built-in skills the release ships, one bit per
    /// [`ShippedSkill`] (`builtin/NAME/SKILL.md` of its package, loaded
    /// by `SkillManager.discoverBuiltinSkills` first, so any other skill
    /// of the same name replaces one).
    pub builtin_skills: u8,
    /// Whether an extension's command renamed on a name clash is
    /// `/EXTENSION:NAME` (`getRenamedName` with `isExtensionPrefix` in
    /// `SlashCommandResolver`; seen with 0.61.0) rather than
    /// `/EXTENSION.NAME` (seen with 0.34.0), both on case
    /// `oracle.local_gemini_extensions.home-gemini-extensions`.
    pub extension_command_colon: bool,
    /// Whether a headless run (`gemini -p`) turns an `ask_user` rule into
    /// `deny` before the tools are offered, so that a tool whose deciding
    /// rule asks is withheld from the model (`applyNonInteractiveMode` in
    /// `PolicyEngine.getExcludedTools`, 0.34.0; seen with 0.34.0 on case
    /// `oracle.local_gemini_policies.home-gemini-policies`:
    /// `google_web_search` withheld). From 0.37.2 on such a tool stays
    /// offered (seen with 0.61.0) and is decided per call.
    pub headless_ask_denies: bool,
    /// Whether the settings' `tools.core` adds policy rules: each entry
    /// an `allow` of priority 4.25 (`CORE_TOOLS_FLAG_PRIORITY`, outside
    /// `plan` mode), under them a `*` deny of priority 4.24 ("Core Tools
    /// Allowlist Enforcement"), so the tools named are offered to a
    /// headless run and every other tool, an MCP server's too, is denied
    /// (`createPolicyEngineConfig` in 0.61.0's bundle; seen with 0.61.0 on
    /// case `oracle.local_gemini_tool_lists.home-gemini-tool-lists`:
    /// `replace` and `activate_skill` added). 0.34.0 only registers the
    /// built-in tools `tools.core` names.
    pub core_tools_policy: bool,
    /// Whether the merged settings' `policyPaths` and `adminPolicyPaths`
    /// name policy files or folders: `policyPaths` in place of
    /// `~/.gemini/policies` (user tier), `adminPolicyPaths` in the admin
    /// tier unless the system's policies folder holds a `.toml` file
    /// (`loadCliConfig` passes `argv.policy ?? settings.policyPaths` and
    /// `argv.adminPolicy ?? settings.adminPolicyPaths`, 0.61.0's bundle;
    /// seen with 0.61.0 on case
    /// `oracle.local_gemini_policies.home-gemini-settings-policies`).
    /// 0.34.0 reads only the `--policy` flag (`policyPaths: argv.policy`
    /// in `dist/src/config/config.js`).
    pub settings_policy_paths: bool,
    /// Whether the settings' `tools.confirmationRequired` adds an
    /// `ask_user` rule of priority 4.35 (`CONFIRMATION_REQUIRED_PRIORITY`)
    /// per entry (`createPolicyEngineConfig`, 0.61.0's bundle; seen with
    /// 0.61.0 on case
    /// `oracle.local_gemini_policies.home-gemini-settings-policies`:
    /// `replace` offered to a headless run). 0.34.0 has no such setting.
    pub confirmation_required: bool,
    /// Whether a `tools.allowed` entry with a shell command
    /// (`run_shell_command(git status)`) also adds a deny of the shell
    /// tool 0.01 under the allow, priority 4.29 ("Narrowing
    /// Enforcement", `mapToolsToRules` in `createPolicyEngineConfig`,
    /// 0.61.0's bundle), so that every other command is denied; the tool
    /// stays offered (a conditional allow outranks the deny). 0.34.0
    /// leaves other commands to the lower rules.
    pub shell_allow_narrowing: bool,
}

impl Profile {
    /// The built-in command names registered under default settings,
    /// `/agents` apart (it comes with subagents).
    pub(crate) fn builtin_commands(&self) -> impl Iterator<Item = &'static str> + '_ {
        let later = LaterCommand::ALL.into_iter().filter_map(|c| {
            let (with, without) = c.names();
            if self.later_commands & c.bit() != 0 {
                Some(with)
            } else {
                without
            }
        });
        let trust = self.folder_trust.then_some("permissions");
        COMMANDS.iter().copied().chain(later).chain(trust)
    }

    /// What the analysis assumes about folder trust, one sentence.
    pub(crate) fn trust_assumption(&self) -> &'static str {
        if self.folder_trust {
            "The folder is trusted: Gemini CLI checks folder trust, an untrusted folder loses its workspace settings, skills, MCP servers and subagents, and a headless run in an untrusted folder exits with code 55."
        } else {
            "Folder trust is off by default in this Gemini CLI release, so the workspace's settings, skills and MCP servers apply (an administrator or the user can turn folder trust on)."
        }
    }
}

/// The table, oldest first: the facts of the first modelled release, then
/// of each profiled release ([`crate::PROFILED_VERSIONS`]). A release
/// between two rows has the older row's facts, each replaced by the newer
/// row's from its first release in [`CHANGES`] on.
const TABLE: &[Profile] = &[
    // Only the facts bisection found to change before 0.34.0 differ from
    // the next row; the others are that row's, which the sampled releases
    // (`oracle/bisect/gemini.older.json`) did not contradict.
    Profile {
        release: FIRST_MODELLED,
        order: Order::ByName,
        boundary: Boundary::GitDirectoryAndParent,
        downward_max_dirs: Some(200),
        on_demand: false,
        file_name_keeps_default: false,
        agents_need_flag: true,
        later_commands: 0,
        folder_trust: false,
        system_settings_secured: false,
        blocked_segments: false,
        blocked_short_names: false,
        builtin_skills: 0,
        extension_command_colon: false,
        headless_ask_denies: true,
        core_tools_policy: false,
        settings_policy_paths: false,
        confirmation_required: false,
        shell_allow_narrowing: false,
    },
    Profile {
        release: "0.34.0",
        order: Order::ByName,
        boundary: Boundary::GitDirectoryAndParent,
        downward_max_dirs: Some(200),
        on_demand: false,
        file_name_keeps_default: false,
        agents_need_flag: true,
        later_commands: 0b1_0000,
        folder_trust: false,
        system_settings_secured: false,
        blocked_segments: false,
        blocked_short_names: false,
        builtin_skills: 0b01,
        extension_command_colon: false,
        headless_ask_denies: true,
        core_tools_policy: false,
        settings_policy_paths: false,
        confirmation_required: false,
        shell_allow_narrowing: false,
    },
    Profile {
        release: "0.61.0",
        order: Order::AbsolutePath,
        boundary: Boundary::Markers,
        downward_max_dirs: None,
        on_demand: true,
        file_name_keeps_default: true,
        agents_need_flag: false,
        later_commands: 0b1_1111,
        folder_trust: true,
        system_settings_secured: true,
        blocked_segments: true,
        blocked_short_names: true,
        builtin_skills: 0b11,
        extension_command_colon: true,
        headless_ask_denies: false,
        core_tools_policy: true,
        settings_policy_paths: true,
        confirmation_required: true,
        shell_allow_narrowing: true,
    },
];

/// A field of [`Profile`] that differs between the rows of [`TABLE`] (a
/// [`LaterCommand`] for each bit of [`Profile::later_commands`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// [`Profile::order`], [`Profile::downward_max_dirs`] and
    /// [`Profile::on_demand`] together: the on-demand context of 0.40.0,
    /// for a few releases before it ([`Fact::JitContextOffAgain`] ends
    /// them).
    JitContextEarly,
    /// The three fields of [`Fact::JitContextEarly`] back to the first
    /// row's values (which no later row holds: [`Fact::Order`],
    /// [`Fact::DownwardMaxDirs`] and [`Fact::OnDemand`] bring the newer
    /// ones back at 0.40.0).
    JitContextOffAgain,
    /// [`Profile::order`].
    Order,
    /// [`Profile::boundary`].
    Boundary,
    /// [`Profile::downward_max_dirs`].
    DownwardMaxDirs,
    /// [`Profile::on_demand`].
    OnDemand,
    /// [`Profile::file_name_keeps_default`].
    FileNameKeepsDefault,
    /// [`Profile::agents_need_flag`].
    AgentsNeedFlag,
    /// One bit of [`Profile::later_commands`].
    Command(LaterCommand),
    /// [`Profile::folder_trust`].
    FolderTrust,
    /// [`Profile::system_settings_secured`].
    SystemSettingsSecured,
    /// [`Profile::blocked_segments`].
    BlockedSegments,
    /// [`Profile::blocked_short_names`].
    BlockedShortNames,
    /// One bit of [`Profile::builtin_skills`].
    Shipped(ShippedSkill),
    /// [`Profile::extension_command_colon`].
    ExtensionCommandColon,
    /// [`Profile::headless_ask_denies`].
    HeadlessAskDenies,
    /// [`Profile::core_tools_policy`].
    CoreToolsPolicy,
    /// [`Profile::settings_policy_paths`].
    SettingsPolicyPaths,
    /// [`Profile::confirmation_required`].
    ConfirmationRequired,
    /// [`Profile::shell_allow_narrowing`].
    ShellAllowNarrowing,
}

/// [`Fact::JitContextOffAgain`] takes the first row's values, not
/// `newer`'s.
impl TableFact<Profile> for Fact {
    fn take(self, facts: &mut Profile, newer: &Profile) {
        match self {
            Fact::JitContextEarly => jit_context(facts, newer),
            Fact::JitContextOffAgain => jit_context(facts, &TABLE[0]),
            Fact::Order => facts.order = newer.order,
            Fact::Boundary => facts.boundary = newer.boundary,
            Fact::DownwardMaxDirs => facts.downward_max_dirs = newer.downward_max_dirs,
            Fact::OnDemand => facts.on_demand = newer.on_demand,
            Fact::FileNameKeepsDefault => {
                facts.file_name_keeps_default = newer.file_name_keeps_default
            }
            Fact::AgentsNeedFlag => facts.agents_need_flag = newer.agents_need_flag,
            Fact::Command(c) => {
                facts.later_commands =
                    (facts.later_commands & !c.bit()) | (newer.later_commands & c.bit())
            }
            Fact::FolderTrust => facts.folder_trust = newer.folder_trust,
            Fact::SystemSettingsSecured => {
                facts.system_settings_secured = newer.system_settings_secured
            }
            Fact::BlockedSegments => facts.blocked_segments = newer.blocked_segments,
            Fact::BlockedShortNames => facts.blocked_short_names = newer.blocked_short_names,
            Fact::Shipped(k) => {
                facts.builtin_skills =
                    (facts.builtin_skills & !k.bit()) | (newer.builtin_skills & k.bit())
            }
            Fact::ExtensionCommandColon => {
                facts.extension_command_colon = newer.extension_command_colon
            }
            Fact::HeadlessAskDenies => facts.headless_ask_denies = newer.headless_ask_denies,
            Fact::CoreToolsPolicy => facts.core_tools_policy = newer.core_tools_policy,
            Fact::SettingsPolicyPaths => facts.settings_policy_paths = newer.settings_policy_paths,
            Fact::ConfirmationRequired => facts.confirmation_required = newer.confirmation_required,
            Fact::ShellAllowNarrowing => facts.shell_allow_narrowing = newer.shell_allow_narrowing,
        }
    }
}

/// Copies the three fields of the on-demand context ([`Fact::JitContextEarly`])
/// of `from` into `facts`.
fn jit_context(facts: &mut Profile, from: &Profile) {
    facts.order = from.order;
    facts.downward_max_dirs = from.downward_max_dirs;
    facts.on_demand = from.on_demand;
}

/// One fact's change: the newer row's value holds from release `since` on.
pub(crate) type Change = playbookdiff_model::profile::FactChange<Fact>;

/// The first release the adapter models: the first Gemini CLI release of
/// the last twelve months (npm publish time 2025-12-05), which the
/// recorder observes (behaviour `gemini.window-start`). An older release
/// gets this one's profile, with a diagnostic.
pub(crate) const FIRST_MODELLED: &str = "0.19.4";

/// Every fact that differs between two rows of [`TABLE`], with the first
/// release that shows the next row's value, oldest first.
pub(crate) const CHANGES: &[Change] = &[
    Change {
        fact: Fact::Shipped(ShippedSkill::SkillCreator),
        name: "builtin_skill_creator",
        since: "0.26.0",
        summary: "The release ships the built-in skill `skill-creator`, listed to the model before the user's and the workspace's skills.",
        evidence: "bisected on the agent's code: the package of 0.25.0 holds no `builtin/skill-creator/SKILL.md`, that of 0.26.0 does; the bundled skills recorded at 0.25.0 are none, at 0.27.0 `skill-creator`",
    },
    Change {
        fact: Fact::Command(LaterCommand::Plan),
        name: "command_plan",
        since: "0.34.0",
        summary: "The built-in `/plan` is registered: a workspace command named `plan` runs as `/workspace.plan`.",
        evidence: "bisected (case `gemini.extras`): 0.33.2 runs the workspace command `plan` as `/plan`, 0.34.0 as `/workspace.plan`",
    },
    Change {
        fact: Fact::JitContextEarly,
        name: "jit_context_early",
        since: "0.35.0",
        summary: "On-demand context for a few releases: the startup context files are sorted as absolute paths, none below the launch directory is sent at startup, and reading a file below it adds those between them.",
        evidence: "bisected (case `gemini.abs_path_order.in-Alpha`): 0.34.0 sends `GEMINI.md`, `Alpha/GEMINI.md`, `AGENTS.md`, 0.35.0 `AGENTS.md`, `Alpha/GEMINI.md`, `GEMINI.md`; the sampled 0.35.3 also sends no file below the launch directory at startup and adds them on a read",
    },
    Change {
        fact: Fact::AgentsNeedFlag,
        name: "agents_need_flag",
        since: "0.36.0",
        summary: "Subagents in `.gemini/agents/*.md` load without `experimental.enableAgents`.",
        evidence: "bisected (case `gemini.extras`): 0.35.3 lists no subagent, 0.36.0 lists `reviewer`",
    },
    Change {
        fact: Fact::ExtensionCommandColon,
        name: "extension_command_colon",
        since: "0.36.0",
        summary: "An extension's command renamed on a name clash runs as `/EXTENSION:NAME`, not `/EXTENSION.NAME`.",
        evidence: "bisected on the agent's code: the package of 0.35.3 lacks `isExtensionPrefix` (the test in `SlashCommandResolver.getRenamedName` that picks `:` for an extension), that of 0.36.0 holds it; seen with 0.34.0 (`/docs-kit.deploy`) and 0.61.0 (`/docs-kit:deploy`) on case `oracle.local_gemini_extensions.home-gemini-extensions`",
    },
    Change {
        fact: Fact::SettingsPolicyPaths,
        name: "settings_policy_paths",
        since: "0.36.0",
        summary: "The settings' `policyPaths` (in place of `~/.gemini/policies`) and `adminPolicyPaths` (the admin tier) name policy files and folders.",
        evidence: "bisected (case `oracle.local_gemini_policies.home-gemini-settings-policies`, `toolsWithheld`): 0.35.3 offers `glob` and `read_file`, which the policies of `~/team-policies` and `~/org-policies/org.toml` deny, 0.36.0 withholds both",
    },
    Change {
        fact: Fact::JitContextOffAgain,
        name: "jit_context_off_again",
        since: "0.36.0",
        summary: "On-demand context off again until 0.40.0: the startup context files grouped by name, the downward search below the launch directory back, nothing added on reading a file.",
        evidence: "bisected (case `gemini.abs_path_order.in-Alpha`): 0.35.3 sends `AGENTS.md`, `Alpha/GEMINI.md`, `GEMINI.md`, 0.36.0 `GEMINI.md`, `Alpha/GEMINI.md`, `AGENTS.md` again (as 0.38.0 and 0.39.1 do)",
    },
    Change {
        fact: Fact::HeadlessAskDenies,
        name: "headless_ask_denies",
        since: "0.37.2",
        summary: "A headless run keeps offering a tool whose deciding policy rule is `ask_user` (decided per call) instead of withholding it.",
        evidence: "bisected (case `oracle.local_gemini_policies.home-gemini-policies`, `toolsWithheld`): 0.36.0 withholds `google_web_search`, whose user rule is `ask_user`, 0.37.2 offers it; the change is google-gemini/gemini-cli#23668 (no `applyNonInteractiveMode` in `getExcludedTools`)",
    },
    Change {
        fact: Fact::Command(LaterCommand::TasksForShells),
        name: "command_tasks",
        since: "0.37.2",
        summary: "The built-in `/tasks` replaces `/shells`: a workspace command named `tasks` runs as `/workspace.tasks`, one named `shells` as itself.",
        evidence: "bisected on the agent's code: the package of 0.36.0 holds `Toggle background shells view`, that of 0.37.2 `Toggle background tasks view` instead",
    },
    Change {
        fact: Fact::FolderTrust,
        name: "folder_trust",
        since: "0.39.1",
        summary: "Folder trust is on: a headless run in an untrusted folder exits with code 55, an untrusted folder loses its workspace settings, skills, MCP servers and subagents, and `/permissions` is registered.",
        evidence: "bisected on the agent's code: the package of 0.39.0 lacks `GEMINI_CLI_TRUST_WORKSPACE` (the variable that trusts the workspace of a headless run), that of 0.39.1 holds it; `/permissions` is registered when folder trust is on (`getFolderTrust()`)",
    },
    Change {
        fact: Fact::CoreToolsPolicy,
        name: "core_tools_policy",
        since: "0.39.1",
        summary: "The settings' `tools.core` adds policy rules: an `allow` for each tool it names and a `*` deny under them, so the named tools run without confirmation and every other tool, an MCP server's too, is denied.",
        evidence: "bisected on the agent's code: the package of 0.39.0 lacks `Core Tools Allowlist Enforcement` (the `*` deny `createPolicyEngineConfig` adds under `tools.core`), that of 0.39.1 holds it; seen with 0.61.0 on case `oracle.local_gemini_tool_lists.home-gemini-tool-lists` (`toolsAdded`: `activate_skill`, `replace`)",
    },
    Change {
        fact: Fact::ConfirmationRequired,
        name: "confirmation_required",
        since: "0.39.1",
        summary: "The settings' `tools.confirmationRequired` adds an `ask_user` rule of priority 4.35 for each tool it names.",
        evidence: "bisected (case `oracle.local_gemini_policies.home-gemini-settings-policies`, `toolsAdded`): 0.39.0 does not offer `replace`, which `tools.confirmationRequired` names, to a headless run, 0.39.1 does",
    },
    Change {
        fact: Fact::ShellAllowNarrowing,
        name: "shell_allow_narrowing",
        since: "0.39.1",
        summary: "A `tools.allowed` entry with a shell command also denies every other shell command (a deny of `run_shell_command` at priority 4.29).",
        evidence: "bisected on the agent's code: the package of 0.39.0 lacks `(Narrowing Enforcement)` (the source of the deny `createPolicyEngineConfig` adds under a shell command of `tools.allowed`), that of 0.39.1 holds it; the tool list does not show it (the command's allow outranks the deny)",
    },
    Change {
        fact: Fact::Order,
        name: "order",
        since: MEMORY_REWRITE_SINCE,
        summary: "The startup context files are sorted as absolute paths, not grouped by name.",
        evidence: "bisected (case `gemini.abs_path_order.in-Alpha`): 0.39.1 sends `GEMINI.md`, `Alpha/GEMINI.md`, `AGENTS.md`; 0.40.0 `AGENTS.md`, `Alpha/GEMINI.md`, `GEMINI.md`",
    },
    Change {
        fact: Fact::Boundary,
        name: "boundary",
        since: MEMORY_REWRITE_SINCE,
        summary: "The upward search stops at the first directory holding an entry of `context.memoryBoundaryMarkers` (default `.git`), not above it.",
        evidence: "bisected (case `gemini.boundary_markers.in-pkg`): 0.39.1 sends the parent's `GEMINI.md` and `pkg/GEMINI.md`, 0.40.0 only `pkg/GEMINI.md`",
    },
    Change {
        fact: Fact::DownwardMaxDirs,
        name: "downward_max_dirs",
        since: MEMORY_REWRITE_SINCE,
        summary: "No context file below the launch directory is sent at startup (the downward search is gone).",
        evidence: "bisected (case `gemini.below_cwd`): 0.39.1 sends `other/GEMINI.md`, `pkg/GEMINI.md` and `pkg/deep/GEMINI.md` too, 0.40.0 only the root's `GEMINI.md`",
    },
    Change {
        fact: Fact::OnDemand,
        name: "on_demand",
        since: MEMORY_REWRITE_SINCE,
        summary: "Reading a file below the launch directory adds the context files between it and the launch directory to the tool's output.",
        evidence: "bisected (case `gemini.below_cwd.read-pkg-deep-x.ts`): reading `pkg/deep/x.ts` adds nothing with 0.39.1, `pkg/GEMINI.md` and `pkg/deep/GEMINI.md` with 0.40.0",
    },
    Change {
        fact: Fact::Command(LaterCommand::Gemma),
        name: "command_gemma",
        since: "0.40.0",
        summary: "The built-in `/gemma` is registered: a workspace command named `gemma` runs as `/workspace.gemma`.",
        evidence: "bisected on the agent's code: the package of 0.39.1 lacks `Check local Gemma model routing status`, that of 0.40.0 holds it",
    },
    Change {
        fact: Fact::Command(LaterCommand::BugMemory),
        name: "command_bug_memory",
        since: "0.42.0",
        summary: "The built-in `/bug-memory` is registered: a workspace command named `bug-memory` runs as `/workspace.bug-memory`.",
        evidence: "bisected on the agent's code: the package of 0.41.2 lacks `Capture a V8 heap snapshot to disk to attach to a bug report`, that of 0.42.0 holds it",
    },
    Change {
        fact: Fact::Command(LaterCommand::ExportSession),
        name: "command_export_session",
        since: "0.43.0",
        summary: "The built-in `/export-session` is registered: a workspace command named `export-session` runs as `/workspace.export-session`.",
        evidence: "bisected on the agent's code: the package of 0.42.0 lacks `Export the current session to a JSON file`, that of 0.43.0 holds it",
    },
    Change {
        fact: Fact::FileNameKeepsDefault,
        name: "file_name_keeps_default",
        since: "0.44.0",
        summary: "`context.fileName` adds its names to `GEMINI.md` instead of replacing it.",
        evidence: "bisected (case `gemini.settings_only_cwd`, `\"fileName\": \"AGENTS.md\"`): 0.43.0 sends `AGENTS.md` only, 0.44.0 `AGENTS.md` and `GEMINI.md`",
    },
    Change {
        fact: Fact::Shipped(ShippedSkill::AntigravitySupport),
        name: "builtin_skill_antigravity_support",
        since: "0.47.0",
        summary: "The release also ships the built-in skill `antigravity-support`, listed before `skill-creator`.",
        evidence: "bisected on the agent's code: the package of 0.45.2 holds no `builtin/antigravity-support/SKILL.md`, that of 0.47.0 does; the bundled skills recorded at 0.45.2 are `skill-creator`, at 0.51.0 both",
    },
    Change {
        fact: Fact::BlockedSegments,
        name: "blocked_segments",
        since: "0.51.0",
        summary: "The workspace refuses paths with a `.git`, `.env` or `node_modules` segment below the launch directory: reading one adds no context file on demand.",
        evidence: "bisected on the agent's code: the package of 0.47.0 lacks `clean === \".env\" || clean === \"node_modules\"` (in `isPathWithinWorkspace`), that of 0.51.0 holds it; seen with 0.61.0 (case `fuzz.gemini.234`): reading `node_modules/core/lib/GEMINI.md` adds no `node_modules/GEMINI.md`",
    },
    Change {
        fact: Fact::SystemSettingsSecured,
        name: "system_settings_secured",
        since: "0.60.0",
        summary: "The system settings file is skipped unless it and every directory above it are owned by root and not writable by group or others.",
        evidence: "bisected on the agent's code: the package of 0.59.0 lacks `isFileAndDirectorySecureSync`, that of 0.60.0 holds it",
    },
    Change {
        fact: Fact::BlockedShortNames,
        name: "blocked_short_names",
        since: "0.60.0",
        summary: "The Windows short names of the refused segments (`git~1`, `node_m~1`) are refused too.",
        evidence: "bisected on the agent's code: the package of 0.59.0 lacks `NODE_MODULES_SFN_REGEX`, that of 0.60.0 holds it",
    },
];

/// The first release of the rewritten context discovery (ordered by
/// absolute path, bounded by markers, no downward search, files added on
/// demand): four facts of [`CHANGES`] start there.
const MEMORY_REWRITE_SINCE: &str = "0.40.0";

/// The facts of release `version` ([`facts_of`] over [`TABLE`] and
/// [`CHANGES`]). A release outside the window gets the facts of the
/// nearest end (the caller has said so with a diagnostic).
pub(crate) fn of(version: &str) -> Profile {
    static FACTS: FactsMemo<Profile> = FactsMemo::new();
    FACTS.get(version, || facts_of(TABLE, CHANGES, version))
}

impl ProfileRow for Profile {
    fn release(&self) -> &'static str {
        self.release
    }

    fn set_release(&mut self, release: &'static str) {
        self.release = release;
    }
}

/// [`CHANGES`] as the adapter's
/// [`playbookdiff_adapter::Adapter::release_changes`].
pub(crate) fn changes() -> Vec<ReleaseChange> {
    playbookdiff_model::profile::release_changes(CHANGES)
}

/// The rows of [`TABLE`] that [`CHANGES`] do not give back (a fact that
/// differs between rows without a bisected first release), as the
/// adapter's [`playbookdiff_adapter::Adapter::rows_not_reached`].
pub(crate) fn not_reached() -> Vec<&'static str> {
    playbookdiff_model::profile::rows_not_reached(TABLE, CHANGES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first modelled release has the first row, and every profiled
    /// version exactly one of the others.
    #[test]
    fn one_row_per_profiled_version() {
        let rows: Vec<&str> = TABLE.iter().map(|p| p.release).collect();
        assert_eq!(rows[0], FIRST_MODELLED);
        assert_eq!(rows[1..], *crate::PROFILED_VERSIONS);
    }

    /// Each row is its own release's facts: the changes up to it turn the
    /// first row into it, and none applies to the first.
    #[test]
    fn the_changes_join_the_rows() {
        for row in TABLE {
            assert_eq!(of(row.release), *row, "{}", row.release);
        }
    }

    /// On-demand context comes and goes before 0.40.0, the three facts
    /// together.
    #[test]
    fn on_demand_context_comes_and_goes() {
        let jit = |v| {
            let p = of(v);
            (p.order, p.downward_max_dirs, p.on_demand)
        };
        let off = (Order::ByName, Some(200), false);
        let on = (Order::AbsolutePath, None, true);
        assert_eq!(jit("0.34.0"), off);
        assert_eq!(jit("0.35.3"), on);
        assert_eq!(jit("0.39.1"), off);
        assert_eq!(jit("0.40.0"), on);
        assert_eq!(of("0.35.3").boundary, Boundary::GitDirectoryAndParent);
    }

    /// `/plan` is a built-in command from its first release on: a
    /// workspace `plan` command runs as itself before.
    #[test]
    fn plan_is_built_in_from_its_release() {
        let has_plan = |v| of(v).builtin_commands().any(|c| c == "plan");
        assert!(!has_plan(FIRST_MODELLED));
        assert!(!has_plan("0.29.0"));
        assert!(!has_plan("0.33.2"));
        assert!(has_plan("0.34.0"));
        assert!(has_plan("0.61.0"));
        assert_eq!(of("0.20.0").release, FIRST_MODELLED);
    }
}

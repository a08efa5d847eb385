//! The facts that differ between Codex releases, in one table keyed by
//! version range.
//!
//! [`TABLE`] holds the facts of the first modelled release
//! ([`FIRST_MODELLED`]) and of the two profiled releases; each fact that
//! differs between two rows has its own first release in [`CHANGES`],
//! found by bisection over the published releases with the real agent
//! (`scripts/oracle/bisect.py`, `oracle/bisect/codex.json`; the registry's
//! `bisected` test fails when the two disagree), so [`facts_for`] models
//! every release from 0.63.0 to 0.171.0: the first row's facts, each
//! replaced by the next row's from its first release on. Everything not
//! in this table is the same in every modelled release. Each fact says where it comes from: the
//! openai/codex sources (`codex-rs/...` paths) and the release's own
//! `codex debug prompt-input` output on a small repository (before 0.120.0,
//! the first request of `codex exec`).

use playbookdiff_model::profile::{at_least, FactsMemo, ReleaseChange};

/// How the skill listing names each `SKILL.md`
/// (`codex-rs/core-skills/src/render.rs`, `SkillLine`, the alias plan).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillPathStyle {
    /// `(file: /absolute/path/SKILL.md)`, the real path of a linked skill
    /// folder: the line's cost depends on where the repository is checked
    /// out.
    Absolute,
    /// `(file: rN/<path below the skills root>)` with a table of roots
    /// (`- `rN` = `/absolute/root``) above the list; the table is not
    /// charged to the budget.
    Aliased,
}

/// What a release does with a skill description over 1,024 characters
/// (`crate::skill_file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LongDescription {
    /// The skill is refused and not listed (0.120.0 to 0.141.0, case
    /// `codex.x34_long_description_boundary`: of skills of 20, 1,024 and
    /// 1,025 characters, the last is not listed; case
    /// `codex.x17_listing_budget`, 30 skills whose descriptions are 1,039
    /// characters long: none listed by 0.141.0).
    Refused,
    /// The skill is listed with the description cut to 1,021 characters
    /// followed by `...` (0.142.0 on).
    Cut,
}

/// A skill bundled with a release (`$CODEX_HOME/skills/.system/<name>`),
/// installed on first start: it is listed before every repository skill
/// and takes its share of the listing budget. Only its size is kept, as
/// the release lists it (the recorder's `systemSkills`, with
/// `descriptionChars`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundledSkill {
    /// The skill's name.
    pub name: &'static str,
    /// Its description's length in characters (all ASCII, so also bytes).
    pub description_chars: usize,
}

/// The facts of one version range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The context window of the release's default model, in tokens: the
    /// skill listing budget is 2 % of it when the caller gives no window.
    /// Measured with `codex debug prompt-input` (the 2 % budget that
    /// reproduces the shortened listing: 5,440 tokens for 0.142.3, 10,000
    /// for 0.171.0).
    pub default_context_window: u64,
    /// How the listing names skill files.
    pub skill_paths: SkillPathStyle,
    /// The bundled system skills of a fresh installation, by name.
    pub bundled_skills: &'static [BundledSkill],
    /// An explicitly untrusted project (`trust_level = "untrusted"`) loses
    /// its project AGENTS.md chain (openai/codex#41499; seen with 0.171.0,
    /// not with 0.142.3).
    pub untrusted_drops_agents_md: bool,
    /// `project_doc_fallback_filenames` entries holding `/`, or equal to
    /// `.` or `..`, are ignored (`candidate_filenames`); older releases
    /// join them to the directory as written (`docs/GUIDE.md` loads the
    /// file of that subdirectory): 0.142.3 joins, 0.171.0 ignores.
    pub fallback_names_must_be_plain: bool,
    /// The plugin manifest files, relative to a directory, that put the
    /// skills below it in a plugin namespace, in the order tried
    /// (`DISCOVERABLE_PLUGIN_MANIFEST_PATHS` in openai/codex
    /// `codex-rs/utils/plugins` and later `exec-server-protocol`): 0.171.0
    /// adds `.cursor-plugin/plugin.json`; neither reads an Agent Plugins
    /// `plugin.json` in the directory itself (seen on fixture
    /// `x13_plugin_namespaces`).
    pub plugin_manifests: &'static [&'static str],
    /// The error Codex prints when it refuses the project configuration
    /// and does not start (`codex mcp list` on a trusted project whose
    /// `.codex/config.toml` sets `project_doc_max_bytes = "x"`, or an MCP
    /// server with both `command` and `url`): 0.142.3 "failed to load
    /// configuration", 0.171.0 "failed to load bootstrap configuration".
    pub refusal_prints: &'static str,
    /// What the release does with a skill description over 1,024
    /// characters: refuses the skill, or lists it with the description cut.
    pub long_description: LongDescription,
    /// The events a hook can be registered for: those the app server's
    /// `hooks/list` lists when the project registers one hook for each
    /// event of 0.171.0 (case `oracle.codex_hook_events`, from 0.128.0),
    /// and before it those that fire in a whole `codex exec` turn (case
    /// `oracle.codex_hooks_fire`); a hook of any other event is not
    /// loaded.
    pub hook_events: &'static [&'static str],
    /// The release runs the hooks of `hooks.json` files and of the
    /// `[hooks]` tables of configuration layers as it comes; before,
    /// none fires (case `oracle.codex_hooks_fire`, observed through a
    /// whole `codex exec` turn: 0.123.0 fires none of its hooks, 0.124.0
    /// those of both files). The hooks of the releases before are the
    /// feature `codex_hooks`, "under development" and off (`codex
    /// features list` of 0.115.0 and 0.120.0; "stable" and on in
    /// 0.125.0), which reads `hooks.json` files only: a layer that sets
    /// `[features] codex_hooks = true` turns them on (case
    /// `oracle.codex_hooks_feature`, bisected: 0.113.0 fires none,
    /// 0.114.0 `SessionStart` and `Stop`, 0.116.0 `UserPromptSubmit` too,
    /// 0.117.0 `PreToolUse` and `PostToolUse` too): see
    /// [`Facts::feature_hook_events`].
    pub hooks_run: bool,
    /// On a release that does not run hooks as they come
    /// ([`Facts::hooks_run`] false), the events whose hooks of
    /// `hooks.json` files run when the closest layer that sets
    /// `[features] codex_hooks` sets it `true` (case
    /// `oracle.codex_hooks_feature`, a hook for each event of 0.171.0 in
    /// `.codex/hooks.json`, one whole `codex exec` turn; bisected: 0.113.0
    /// fires none, 0.114.0 `SessionStart` and `Stop`, 0.116.0
    /// `UserPromptSubmit` too, 0.117.0 `PreToolUse` and `PostToolUse`
    /// too). Empty: the feature runs no hook.
    pub feature_hook_events: &'static [&'static str],
    /// A hook that is not managed runs only once the user trusts its
    /// hash (`[hooks.state."KEY"] trusted_hash`, `hook_trust.rs`);
    /// before, every hook a trusted project or the user registers runs
    /// (case `oracle.codex_hooks_fire`: the app server's `hooks/list` of
    /// 0.128.0 gives no hook a trust status, that of 0.129.0 each
    /// `untrusted`; 0.124.0 and 0.125.0 fire the hooks no trust entry
    /// names, and the user's in an untrusted project too).
    pub hook_trust: bool,
    /// `approval_policy = "untrusted"`, when it is the value the
    /// configuration layers leave, makes Codex refuse to start
    /// ("approval_policy = \"untrusted\" is no longer supported; remove
    /// this setting"); the same policy reached as the first one the
    /// managed requirements allow still starts and is applied. Seen with
    /// 0.171.0, not with 0.142.3 (case
    /// `oracle.local_user_layers.home-codex-approval-untrusted`, and
    /// `...home-codex-global.managed-codex-approval-legacy`).
    pub untrusted_policy_refused: bool,
    /// `on-failure`, from a layer or from the managed requirements, is
    /// applied as `on-request` (the model is told the `on-request`
    /// policy). Seen with 0.171.0; 0.142.3 applies `on-failure` (cases
    /// `oracle.local_user_layers.home-codex-approval-on-failure` and
    /// `...home-codex-global.managed-codex-approval-legacy`).
    pub on_failure_as_on_request: bool,
    /// A trusted project's `.codex/config.toml` is a configuration layer
    /// (its settings, MCP servers and `project_doc_fallback_filenames`);
    /// before, Codex reads no project configuration at all (case
    /// `codex.fr16_project_config_needs_trust`, observed through `codex
    /// exec`: 0.77.0 lists no MCP server, 0.79.0 the project's `search`).
    pub project_config: bool,
    /// The `.agents/skills` folders from the project root to cwd are
    /// skills roots; before, only `.codex/skills` folders are (case
    /// `codex.x26_codex_skills_root`, observed through `codex exec`:
    /// 0.77.0 and 0.92.0 list its two `.codex/skills` skills and not the
    /// `.agents/skills` one, 0.107.0 all three; from 0.94.0 on, by
    /// bisection).
    pub agents_skills: bool,
    /// A `SKILL.md` whose front matter has no `name` is named after its
    /// folder; before, the skill is refused and not listed (case
    /// `codex.x27_untrusted_project`, observed through `codex exec`: its
    /// skill `kept` has a description and no name).
    pub skill_name_from_folder: bool,
}

/// The hook events of the first release that runs hooks as it comes
/// ([`HOOKS_SINCE`]) to 0.128.0: `SessionStart`, `UserPromptSubmit`,
/// `PreToolUse`, `PostToolUse` and `Stop` fire in a whole `codex exec`
/// turn of 0.124.0 and 0.125.0 (case `oracle.codex_hooks_fire`);
/// `PermissionRequest`, which no such turn raises, is in the code from
/// 0.122.0 on (behaviour `codex.hook-event-permission-request`); the
/// app server's `hooks/list` of 0.128.0 lists these six (case
/// `oracle.codex_hook_events`).
const HOOK_EVENTS_FIRST: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "SessionStart",
    "UserPromptSubmit",
    "Stop",
];

/// The events of the feature `codex_hooks` from 0.114.0 on
/// ([`Facts::feature_hook_events`], behaviour `codex.hooks-feature`).
const FEATURE_HOOK_EVENTS_0_114: &[&str] = &["SessionStart", "Stop"];

/// The events of the feature from 0.116.0 on (behaviour
/// `codex.hooks-feature-prompt-event`).
const FEATURE_HOOK_EVENTS_0_116: &[&str] = &["SessionStart", "UserPromptSubmit", "Stop"];

/// The events of the feature from 0.117.0 on (behaviour
/// `codex.hooks-feature-tool-events`), to the last release before
/// [`HOOKS_SINCE`].
const FEATURE_HOOK_EVENTS_0_117: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "SessionStart",
    "UserPromptSubmit",
    "Stop",
];

/// The hook events from 0.129.0 on (case `oracle.codex_hook_events`).
const HOOK_EVENTS_0_129: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "UserPromptSubmit",
    "Stop",
];

/// The hook events from 0.133.0 on (case `oracle.codex_hook_events`).
const HOOK_EVENTS_0_133: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SubagentStart",
    "SubagentStop",
    "UserPromptSubmit",
    "Stop",
];

/// The hook events from 0.145.0 on (case `oracle.codex_hook_events`).
const HOOK_EVENTS_0_145: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "UserPromptSubmit",
    "Stop",
];

/// The hook events from 0.150.0 on (case `oracle.codex_hook_events`).
const HOOK_EVENTS_0_150: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "Interrupt",
    "UserPromptSubmit",
    "Stop",
];

/// The hook events from 0.164.0 on, those of the profiled 0.171.0 (case
/// `oracle.codex_hook_events`; `StopFailure`, an event of its code, is
/// not listed by `hooks/list`, and is left out).
const HOOK_EVENTS_0_171: &[&str] = &[
    "PreModelRequest",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "Interrupt",
    "UserPromptSubmit",
    "Stop",
];

/// One row of the table: the facts from release `from` on.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The first release the facts hold for.
    pub from: &'static str,
    /// The facts.
    pub facts: Facts,
}

/// A system skill of `name` whose description is `description_chars`
/// characters long.
const fn skill(name: &'static str, description_chars: usize) -> BundledSkill {
    BundledSkill {
        name,
        description_chars,
    }
}

// The system skills each release writes, named after the first release
// that writes them, as listed with an empty `CODEX_HOME` (case
// `oracle.local_user_layers.home-codex-approval-untrusted`, trusted, to
// 0.148.0; `...home-codex-approval-on-failure` after, which every release
// starts): each set's first release in [`CHANGES`].

/// 0.77.0 to 0.110.0, and 0.113.0 to 0.114.0: two skills.
const SYSTEM_SKILLS_0_77: &[BundledSkill] =
    &[skill("skill-creator", 225), skill("skill-installer", 225)];

/// 0.111.0 alone: `slides` and `spreadsheets` added, gone again in
/// 0.113.0 (0.112.0 was not published).
const SYSTEM_SKILLS_0_111: &[BundledSkill] = &[
    skill("skill-creator", 225),
    skill("skill-installer", 225),
    skill("slides", 143),
    skill("spreadsheets", 151),
];

/// 0.115.0 and 0.116.0: `openai-docs` added.
const SYSTEM_SKILLS_0_115: &[BundledSkill] = &[
    skill("openai-docs", 372),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.117.0 to 0.123.0: `imagegen` and `plugin-creator` added.
const SYSTEM_SKILLS_0_117: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 372),
    skill("plugin-creator", 397),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.124.0 to 0.130.0: `openai-docs` described anew.
const SYSTEM_SKILLS_0_124: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 361),
    skill("plugin-creator", 397),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.131.0: `plugin-creator` described anew.
const SYSTEM_SKILLS_0_131: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 361),
    skill("plugin-creator", 412),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.132.0: `plugin-creator` described anew.
const SYSTEM_SKILLS_0_132: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 361),
    skill("plugin-creator", 368),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.133.0 to 0.135.0: `plugin-creator` described anew.
const SYSTEM_SKILLS_0_133: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 361),
    skill("plugin-creator", 471),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.136.0 to 0.144.6: `openai-docs` described anew; the set of the
/// profiled 0.142.3.
const SYSTEM_SKILLS_0_136: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 447),
    skill("plugin-creator", 471),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.145.0 to 0.146.1: `openai-docs` described anew.
const SYSTEM_SKILLS_0_145: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 496),
    skill("plugin-creator", 471),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.147.0: `openai-docs` described anew.
const SYSTEM_SKILLS_0_147: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 459),
    skill("plugin-creator", 471),
    skill("skill-creator", 225),
    skill("skill-installer", 225),
];

/// 0.148.0 to 0.158.0: `skill-creator` described anew.
const SYSTEM_SKILLS_0_148: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 459),
    skill("plugin-creator", 471),
    skill("skill-creator", 106),
    skill("skill-installer", 225),
];

/// 0.159.0 to 0.168.0: `plugin-creator` gone.
const SYSTEM_SKILLS_0_159: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 459),
    skill("skill-creator", 106),
    skill("skill-installer", 225),
];

/// 0.169.0 on, the set of the profiled 0.171.0: `openai-docs` described
/// anew.
const SYSTEM_SKILLS_0_171: &[BundledSkill] = &[
    skill("imagegen", 570),
    skill("openai-docs", 624),
    skill("skill-creator", 106),
    skill("skill-installer", 225),
];

/// The marker each profiled release writes beside its system skills
/// (`$CODEX_HOME/skills/.system/.codex-system-skills.marker`), a
/// fingerprint of the skills the release embeds (openai/codex
/// `codex-rs/skills/src/lib.rs`, `install_system_skills`): on start Codex
/// keeps a `.system` folder whose marker is its own, edits included, and
/// otherwise removes the folder and writes its own skills there. Seen by
/// starting each release with an empty `CODEX_HOME`; case
/// `oracle.local_user_layers.home-codex-system-skills` holds a folder with
/// the 0.171.0 marker, kept by 0.171.0 and replaced by 0.142.3. Every
/// release between has a marker of its own, not recorded here.
pub const SYSTEM_SKILLS_MARKERS: &[(&str, &str)] = &[
    ("0.142.3", "709378001f6a976e"),
    ("0.171.0", "c97ed5ddabec1e4"),
];

/// The system skills marker of `version` ([`SYSTEM_SKILLS_MARKERS`]),
/// `None` for a release whose marker was not recorded.
pub fn system_skills_marker(version: &str) -> Option<&'static str> {
    SYSTEM_SKILLS_MARKERS
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, m)| *m)
}

/// The table, oldest first: the first modelled release, then the profiled
/// ones. A release between two rows has the older row's facts, each
/// replaced by the newer row's from its first release in [`CHANGES`] on.
pub const TABLE: &[Row] = &[
    // Only the facts bisection found to change before 0.142.3 differ from
    // the next row; the others are that row's, which the sampled releases
    // (`oracle/bisect/codex.older.json`) did not contradict. The system
    // skills go through the sets of [`CHANGES`].
    Row {
        from: FIRST_MODELLED,
        facts: Facts {
            default_context_window: 272_000,
            skill_paths: SkillPathStyle::Absolute,
            bundled_skills: &[],
            untrusted_drops_agents_md: false,
            fallback_names_must_be_plain: false,
            plugin_manifests: &[".codex-plugin/plugin.json"],
            refusal_prints: "failed to load configuration",
            long_description: LongDescription::Refused,
            hook_events: HOOK_EVENTS_FIRST,
            hooks_run: false,
            feature_hook_events: &[],
            hook_trust: false,
            untrusted_policy_refused: false,
            on_failure_as_on_request: false,
            project_config: false,
            agents_skills: false,
            skill_name_from_folder: false,
        },
    },
    Row {
        from: "0.142.3",
        facts: Facts {
            default_context_window: 272_000,
            skill_paths: SkillPathStyle::Absolute,
            bundled_skills: SYSTEM_SKILLS_0_136,
            untrusted_drops_agents_md: false,
            fallback_names_must_be_plain: false,
            plugin_manifests: &[".codex-plugin/plugin.json", ".claude-plugin/plugin.json"],
            refusal_prints: "failed to load configuration",
            long_description: LongDescription::Cut,
            hook_events: HOOK_EVENTS_0_133,
            hooks_run: true,
            feature_hook_events: FEATURE_HOOK_EVENTS_0_117,
            hook_trust: true,
            untrusted_policy_refused: false,
            on_failure_as_on_request: false,
            project_config: true,
            agents_skills: true,
            skill_name_from_folder: true,
        },
    },
    Row {
        from: "0.171.0",
        facts: Facts {
            default_context_window: 500_000,
            skill_paths: SkillPathStyle::Aliased,
            bundled_skills: SYSTEM_SKILLS_0_171,
            untrusted_drops_agents_md: true,
            fallback_names_must_be_plain: true,
            plugin_manifests: &[
                ".codex-plugin/plugin.json",
                ".claude-plugin/plugin.json",
                ".cursor-plugin/plugin.json",
            ],
            refusal_prints: "failed to load bootstrap configuration",
            long_description: LongDescription::Cut,
            hook_events: HOOK_EVENTS_0_171,
            hooks_run: true,
            feature_hook_events: FEATURE_HOOK_EVENTS_0_117,
            hook_trust: true,
            untrusted_policy_refused: true,
            on_failure_as_on_request: true,
            project_config: true,
            agents_skills: true,
            skill_name_from_folder: true,
        },
    },
];

/// A field of [`Facts`] that differs between the rows of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// [`Facts::default_context_window`].
    DefaultContextWindow,
    /// [`Facts::skill_paths`].
    SkillPaths,
    /// [`Facts::bundled_skills`]: the set a release writes from the
    /// change's first release on (each set is its own change: skills
    /// added, removed or described anew).
    SystemSkills(&'static [BundledSkill]),
    /// [`Facts::untrusted_drops_agents_md`].
    UntrustedDropsAgentsMd,
    /// [`Facts::fallback_names_must_be_plain`].
    FallbackNamesMustBePlain,
    /// [`Facts::plugin_manifests`]: `.claude-plugin/plugin.json` added.
    ClaudePluginManifest,
    /// [`Facts::plugin_manifests`]: `.cursor-plugin/plugin.json` added.
    PluginManifests,
    /// [`Facts::refusal_prints`].
    RefusalPrints,
    /// [`Facts::long_description`].
    LongDescription,
    /// [`Facts::untrusted_policy_refused`].
    UntrustedPolicyRefused,
    /// [`Facts::on_failure_as_on_request`].
    OnFailureAsOnRequest,
    /// [`Facts::project_config`].
    ProjectConfig,
    /// [`Facts::agents_skills`].
    AgentsSkills,
    /// [`Facts::skill_name_from_folder`].
    SkillNameFromFolder,
    /// [`Facts::hook_events`]: the events from the change's first
    /// release on (each new event is its own change).
    HookEvents(&'static [&'static str]),
    /// [`Facts::hooks_run`].
    HooksRun,
    /// [`Facts::feature_hook_events`]: the events from the change's first
    /// release on.
    FeatureHookEvents(&'static [&'static str]),
    /// [`Facts::hook_trust`].
    HookTrust,
}

impl Fact {
    /// Copies this field of `newer` into `facts` ([`Fact::ClaudePluginManifest`]
    /// and [`Fact::PluginManifests`] both copy [`Facts::plugin_manifests`]);
    /// [`Fact::SystemSkills`] and [`Fact::HookEvents`] set their own list,
    /// whatever `newer` holds.
    fn take(self, facts: &mut Facts, newer: &Facts) {
        match self {
            Fact::DefaultContextWindow => {
                facts.default_context_window = newer.default_context_window
            }
            Fact::SkillPaths => facts.skill_paths = newer.skill_paths,
            Fact::SystemSkills(set) => facts.bundled_skills = set,
            Fact::HookEvents(events) => facts.hook_events = events,
            Fact::FeatureHookEvents(events) => facts.feature_hook_events = events,
            Fact::UntrustedDropsAgentsMd => {
                facts.untrusted_drops_agents_md = newer.untrusted_drops_agents_md
            }
            Fact::FallbackNamesMustBePlain => {
                facts.fallback_names_must_be_plain = newer.fallback_names_must_be_plain
            }
            Fact::ClaudePluginManifest | Fact::PluginManifests => {
                facts.plugin_manifests = newer.plugin_manifests
            }
            Fact::RefusalPrints => facts.refusal_prints = newer.refusal_prints,
            Fact::LongDescription => facts.long_description = newer.long_description,
            Fact::UntrustedPolicyRefused => {
                facts.untrusted_policy_refused = newer.untrusted_policy_refused
            }
            Fact::OnFailureAsOnRequest => {
                facts.on_failure_as_on_request = newer.on_failure_as_on_request
            }
            Fact::ProjectConfig => facts.project_config = newer.project_config,
            Fact::AgentsSkills => facts.agents_skills = newer.agents_skills,
            Fact::SkillNameFromFolder => {
                facts.skill_name_from_folder = newer.skill_name_from_folder
            }
            Fact::HooksRun => facts.hooks_run = newer.hooks_run,
            Fact::HookTrust => facts.hook_trust = newer.hook_trust,
        }
    }
}

/// One fact's change: the newer row's value holds from release `since` on.
pub type Change = playbookdiff_model::profile::FactChange<Fact>;

/// The first release the adapter models. npm's publish times of Codex do
/// not follow the version order (0.63.0 2026-04-07, 0.74.0 2026-09-16,
/// 0.77.0 2026-01-15: re-publications), and every release from 0.21.0 on
/// carries a time in the last twelve months, so no publish-time rule
/// gives the window's start. It is the release from which every fact is
/// bisected: the releases 0.63.0 to 0.75.0 sampled before 0.77.0
/// (`oracle/bisect/codex.older.json`) agree with 0.77.0 on every case but
/// the system skills ([`SYSTEM_SKILLS_SINCE`]). No release
/// before 0.120.0 has `codex debug prompt-input` (bisected, behaviour
/// `codex.debug-prompt-input`: 0.118.0 takes it for `codex debug` =
/// `codex sandbox` and exits 2), so the recorder observes those through
/// the first request `codex exec` sends to a fake Responses API, a method
/// that agrees with `codex debug prompt-input` on the committed cases of
/// 0.142.3 and 0.171.0 (`oracle/bisect/codex.methods.json`). An older
/// release gets this one's profile, with a diagnostic.
pub const FIRST_MODELLED: &str = "0.63.0";

/// The first release that writes its bundled system skills into
/// `$CODEX_HOME/skills/.system` and lists them ([`Fact::SystemSkills`]).
pub const SYSTEM_SKILLS_SINCE: &str = "0.77.0";

/// The first release that reads a trusted project's `.codex/config.toml`
/// ([`Fact::ProjectConfig`]).
pub const PROJECT_CONFIG_SINCE: &str = "0.79.0";

/// The first release whose skills roots include `.agents/skills`
/// ([`Fact::AgentsSkills`]).
pub const AGENTS_SKILLS_SINCE: &str = "0.94.0";

/// The first release that reads `.claude-plugin/plugin.json`
/// ([`Fact::ClaudePluginManifest`]); the layout's row starts there.
pub const CLAUDE_PLUGIN_SINCE: &str = "0.122.0";

/// The first release that runs a repository's hooks as it comes
/// ([`Fact::HooksRun`]).
pub const HOOKS_SINCE: &str = "0.124.0";

/// The first release that reads `.cursor-plugin/plugin.json`
/// ([`Fact::PluginManifests`]); the layout's row starts there.
pub const CURSOR_PLUGIN_SINCE: &str = "0.145.0";

/// Every fact that differs between the rows of [`TABLE`], with the first
/// release that shows the newer value, oldest first. A fact is named by
/// its field of [`Facts`].
pub const CHANGES: &[Change] = &[
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_77),
        name: "system_skills",
        since: SYSTEM_SKILLS_SINCE,
        summary: "The release writes its bundled system skills into `$CODEX_HOME/skills/.system` on start and lists them first: `skill-creator` and `skill-installer`.",
        evidence: "bisected through `codex exec` (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): 0.75.0 lists no system skill, 0.77.0 `skill-creator` and `skill-installer` (descriptions of 225 and 225 characters)",
    },
    Change {
        fact: Fact::ProjectConfig,
        name: "project_config",
        since: PROJECT_CONFIG_SINCE,
        summary: "A trusted project's `.codex/config.toml` is a configuration layer: its settings and MCP servers apply.",
        evidence: "bisected through `codex exec` (case `codex.fr16_project_config_needs_trust`, trusted): `codex mcp list` of 0.77.0 lists no MCP server, that of 0.79.0 the project's `search`",
    },
    Change {
        fact: Fact::AgentsSkills,
        name: "agents_skills",
        since: AGENTS_SKILLS_SINCE,
        summary: "The `.agents/skills` folders from the project root to cwd are skills roots beside `.codex/skills`.",
        evidence: "bisected through `codex exec` (case `codex.duplicate_skill_names`, trusted): 0.93.0 lists no skill, 0.94.0 the root's `.agents/skills/deploy`",
    },
    Change {
        fact: Fact::SkillNameFromFolder,
        name: "skill_name_from_folder",
        since: "0.110.0",
        summary: "A `SKILL.md` without `name` is listed under its folder's name, no longer refused.",
        evidence: "bisected through `codex exec` (case `codex.x27_untrusted_project`, trusted): 0.107.0 lists no skill, 0.110.0 `kept`, whose `SKILL.md` has a description and no name",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_111),
        name: "system_skills_slides",
        since: "0.111.0",
        summary: "The system skills gain `slides` and `spreadsheets`.",
        evidence: "bisected through `codex exec` (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): 0.110.0 lists `skill-creator` and `skill-installer`, 0.111.0 `slides` (143 characters) and `spreadsheets` (151) too",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_77),
        name: "system_skills_slides_gone",
        since: "0.113.0",
        summary: "The system skills `slides` and `spreadsheets` are gone again.",
        evidence: "bisected through `codex exec` (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): 0.111.0 lists `slides` and `spreadsheets`, 0.113.0 (the next release) neither",
    },
    Change {
        fact: Fact::FeatureHookEvents(FEATURE_HOOK_EVENTS_0_114),
        name: "hooks_feature",
        since: "0.114.0",
        summary: "With `[features] codex_hooks = true`, the hooks of `hooks.json` files for `SessionStart` and `Stop` run (hooks run as they come only from 0.124.0 on).",
        evidence: "bisected by firing (case `oracle.codex_hooks_feature`, the feature on in `.codex/config.toml`, a hook for each event of 0.171.0 in `.codex/hooks.json`, one whole `codex exec` turn): 0.113.0 fires none, 0.114.0 `SessionStart` and `Stop`",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_115),
        name: "system_skills_openai_docs",
        since: "0.115.0",
        summary: "The system skills gain `openai-docs`.",
        evidence: "bisected through `codex exec` (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): 0.114.0 lists `skill-creator` and `skill-installer`, 0.115.0 `openai-docs` (372 characters) too",
    },
    Change {
        fact: Fact::FeatureHookEvents(FEATURE_HOOK_EVENTS_0_116),
        name: "hooks_feature_prompt_event",
        since: "0.116.0",
        summary: "With `[features] codex_hooks = true`, the hooks of `hooks.json` files for `UserPromptSubmit` run too.",
        evidence: "bisected by firing (case `oracle.codex_hooks_feature`): 0.115.0 fires `SessionStart` and `Stop`, 0.116.0 `UserPromptSubmit` too",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_117),
        name: "system_skills_five",
        since: "0.117.0",
        summary: "The system skills gain `imagegen` and `plugin-creator`: five.",
        evidence: "bisected through `codex exec` (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): 0.116.0 lists three system skills, 0.117.0 `imagegen` (570 characters) and `plugin-creator` (397) too",
    },
    Change {
        fact: Fact::FeatureHookEvents(FEATURE_HOOK_EVENTS_0_117),
        name: "hooks_feature_tool_events",
        since: "0.117.0",
        summary: "With `[features] codex_hooks = true`, the hooks of `hooks.json` files for `PreToolUse` and `PostToolUse` run too.",
        evidence: "bisected by firing (case `oracle.codex_hooks_feature`): 0.116.0 fires `SessionStart`, `UserPromptSubmit` and `Stop`, 0.117.0 `PreToolUse` and `PostToolUse` too",
    },
    Change {
        fact: Fact::ClaudePluginManifest,
        name: "claude_plugin_manifest",
        since: CLAUDE_PLUGIN_SINCE,
        summary: "`.claude-plugin/plugin.json` is a plugin manifest too: the skills below it are listed as `plugin:skill`.",
        evidence: "bisected (case `codex.x13_plugin_namespaces`): 0.121.0 lists the skill below a `.claude-plugin` manifest as `two` and one below it inside a `.codex-plugin` plugin as `outer:nine`, 0.122.0 as `clp:two` and `inner:nine`",
    },
    Change {
        fact: Fact::HooksRun,
        name: "hooks_run",
        since: HOOKS_SINCE,
        summary: "The hooks of `.codex/hooks.json` and of the `[hooks]` tables of `.codex/config.toml` run: `PreToolUse`, `PermissionRequest`, `PostToolUse`, `SessionStart`, `UserPromptSubmit` and `Stop`.",
        evidence: "bisected by firing (case `oracle.codex_hooks_fire`, a hook for each event of 0.171.0 in both files, trusted, one whole `codex exec` turn): 0.123.0 fires none, 0.124.0 `SessionStart`, `UserPromptSubmit`, `PreToolUse`, `PostToolUse` and `Stop` of both files; `codex features list` shows `codex_hooks` under development and off in 0.120.0, stable and on in 0.125.0",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_124),
        name: "system_skill_texts_0_124",
        since: "0.124.0",
        summary: "The system skill `openai-docs` has a new description (361 characters, was 372).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `openai-docs` is listed with a description of 372 characters by 0.123.0, of 361 by 0.124.0",
    },
    Change {
        fact: Fact::HookEvents(HOOK_EVENTS_0_129),
        name: "hook_events_compact",
        since: "0.129.0",
        summary: "Hooks registered for `PreCompact` and `PostCompact` are loaded.",
        evidence: "bisected (case `oracle.codex_hook_events`, a hook for each event of 0.171.0): the app server's `hooks/list` of 0.128.0 leaves out `PreCompact` and `PostCompact`, that of 0.129.0 lists them",
    },
    Change {
        fact: Fact::HookTrust,
        name: "hook_trust",
        since: "0.129.0",
        summary: "A hook that is not managed runs only once the user trusts its hash (`/hooks`); before, every hook of a trusted project and of the user runs.",
        evidence: "bisected (case `oracle.codex_hooks_fire`, a hook for each event in `.codex/hooks.json` and `.codex/config.toml`): the app server's `hooks/list` of 0.128.0 gives no hook a trust status, that of 0.129.0 gives each `untrusted`",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_131),
        name: "system_skill_texts_0_131",
        since: "0.131.0",
        summary: "The system skill `plugin-creator` has a new description (412 characters, was 397).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `plugin-creator` is listed with a description of 397 characters by 0.130.0, of 412 by 0.131.0",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_132),
        name: "system_skill_texts_0_132",
        since: "0.132.0",
        summary: "The system skill `plugin-creator` has a new description (368 characters, was 412).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `plugin-creator` is listed with a description of 412 characters by 0.131.0, of 368 by 0.132.0",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_133),
        name: "system_skill_texts_0_133",
        since: "0.133.0",
        summary: "The system skill `plugin-creator` has a new description (471 characters, was 368).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `plugin-creator` is listed with a description of 368 characters by 0.132.0, of 471 by 0.133.0",
    },
    Change {
        fact: Fact::HookEvents(HOOK_EVENTS_0_133),
        name: "hook_events_subagent",
        since: "0.133.0",
        summary: "Hooks registered for `SubagentStart` and `SubagentStop` are loaded.",
        evidence: "bisected (case `oracle.codex_hook_events`, a hook for each event of 0.171.0): the app server's `hooks/list` of 0.132.0 leaves out `SubagentStart` and `SubagentStop`, that of 0.133.0 lists them",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_136),
        name: "system_skill_texts_0_136",
        since: "0.136.0",
        summary: "The system skill `openai-docs` has a new description (447 characters, was 361).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `openai-docs` is listed with a description of 361 characters by 0.135.0, of 447 by 0.136.0",
    },
    Change {
        fact: Fact::LongDescription,
        name: "long_description",
        since: "0.142.0",
        summary: "A skill whose description is over 1,024 characters is listed with the description cut to 1,021 characters and `...`, no longer refused.",
        evidence: "bisected (case `codex.x34_long_description_boundary`, skills of 20, 1,024 and 1,025 characters): 0.141.0 lists `short` and `at-limit`, not `over-limit`; 0.142.0 lists all three, `over-limit` cut to 1,021 characters and `...`",
    },
    Change {
        fact: Fact::OnFailureAsOnRequest,
        name: "on_failure_as_on_request",
        since: "0.143.0",
        summary: "The approval policy `on-failure` is applied as `on-request`.",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-on-failure`, the user's `approval_policy = \"on-failure\"`): 0.142.5 tells the model the `on-failure` policy, 0.143.0 the `on-request` one",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_145),
        name: "system_skill_texts_0_145",
        since: "0.145.0",
        summary: "The system skill `openai-docs` has a new description (496 characters, was 447).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `openai-docs` is listed with a description of 447 characters by 0.144.6, of 496 by 0.145.0",
    },
    Change {
        fact: Fact::PluginManifests,
        name: "plugin_manifests",
        since: CURSOR_PLUGIN_SINCE,
        summary: "`.cursor-plugin/plugin.json` is a plugin manifest too: the skills below it are listed as `plugin:skill`.",
        evidence: "bisected (case `codex.x13_plugin_namespaces`): 0.144.6 lists the skill below a `.cursor-plugin` manifest as `three`, 0.145.0 as `cup:three`",
    },
    Change {
        fact: Fact::HookEvents(HOOK_EVENTS_0_145),
        name: "hook_event_session_end",
        since: "0.145.0",
        summary: "Hooks registered for `SessionEnd` are loaded.",
        evidence: "bisected (case `oracle.codex_hook_events`, a hook for each event of 0.171.0): the app server's `hooks/list` of 0.144.6 leaves out `SessionEnd`, that of 0.145.0 lists it",
    },
    Change {
        fact: Fact::SkillPaths,
        name: "skill_paths",
        since: "0.147.0",
        summary: "The skill listing names each file by a root alias (`rN/...`) below a table of roots, a linked skill folder by the link's path.",
        evidence: "bisected (case `codex.x12_file_symlink_not_loaded`): 0.146.1 lists the linked folder's skill at its target `library/folder/SKILL.md`, 0.147.0 at `.agents/skills/dirlink/SKILL.md`",
    },
    Change {
        fact: Fact::RefusalPrints,
        name: "refusal_prints",
        since: "0.147.0",
        summary: "A configuration Codex refuses is reported as `failed to load bootstrap configuration`.",
        evidence: "bisected on the agent's code: the executable of 0.146.1 lacks the text `failed to load bootstrap configuration`, that of 0.147.0 holds it",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_147),
        name: "system_skill_texts_0_147",
        since: "0.147.0",
        summary: "The system skill `openai-docs` has a new description (459 characters, was 496).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `openai-docs` is listed with a description of 496 characters by 0.146.1, of 459 by 0.147.0",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_148),
        name: "system_skill_texts_0_148",
        since: "0.148.0",
        summary: "The system skill `skill-creator` has a new description (106 characters, was 225).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, trusted): `skill-creator` is listed with a description of 225 characters by 0.147.0, of 106 by 0.148.0",
    },
    Change {
        fact: Fact::UntrustedPolicyRefused,
        name: "untrusted_policy_refused",
        since: "0.149.0",
        summary: "A configuration that leaves `approval_policy = \"untrusted\"` makes Codex refuse to start.",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-untrusted`, the user's `approval_policy = \"untrusted\"`): 0.148.0 starts and tells the model the `untrusted` policy, 0.149.0 exits with `approval_policy = \"untrusted\" is no longer supported`",
    },
    Change {
        fact: Fact::UntrustedDropsAgentsMd,
        name: "untrusted_drops_agents_md",
        since: "0.150.0",
        summary: "A project marked untrusted loses its AGENTS.md chain.",
        evidence: "bisected (case `codex.x27_untrusted_project`, run with its trust entries): 0.149.1 sends the root AGENTS.md (`Root instructions.`), 0.150.0 none (openai/codex#41499)",
    },
    Change {
        fact: Fact::HookEvents(HOOK_EVENTS_0_150),
        name: "hook_event_interrupt",
        since: "0.150.0",
        summary: "Hooks registered for `Interrupt` are loaded.",
        evidence: "bisected (case `oracle.codex_hook_events`, a hook for each event of 0.171.0): the app server's `hooks/list` of 0.149.1 leaves out `Interrupt`, that of 0.150.0 lists it",
    },
    Change {
        fact: Fact::FallbackNamesMustBePlain,
        name: "fallback_names_must_be_plain",
        since: "0.156.0",
        summary: "`project_doc_fallback_filenames` entries holding `/` (or `.`, `..`) are ignored.",
        evidence: "bisected (case `codex.x30_fallback_names_with_slash`): 0.155.1 loads `docs/GUIDE.md` named as `docs/GUIDE.md` (`Guide text.`), 0.156.0 loads nothing",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_159),
        name: "bundled_skills",
        since: "0.159.0",
        summary: "The system skill `plugin-creator` is gone.",
        evidence: "bisected on the agent's code: the executable of 0.158.0 holds the skill `name: plugin-creator`, that of 0.159.0 does not; case `oracle.local_user_layers.home-codex-approval-on-failure` (trusted) lists it with 0.158.0, not with 0.159.0",
    },
    Change {
        fact: Fact::HookEvents(HOOK_EVENTS_0_171),
        name: "hook_event_pre_model_request",
        since: "0.164.0",
        summary: "Hooks registered for `PreModelRequest` are loaded.",
        evidence: "bisected (case `oracle.codex_hook_events`, a hook for each event of 0.171.0): the app server's `hooks/list` of 0.163.0 leaves out `PreModelRequest`, that of 0.164.0 lists it",
    },
    Change {
        fact: Fact::SystemSkills(SYSTEM_SKILLS_0_171),
        name: "system_skill_texts_0_169",
        since: "0.169.0",
        summary: "The system skill `openai-docs` has a new description (624 characters, was 459).",
        evidence: "bisected (case `oracle.local_user_layers.home-codex-approval-on-failure`, trusted): `openai-docs` is listed with a description of 459 characters by 0.168.0, of 624 by 0.169.0",
    },
    Change {
        fact: Fact::DefaultContextWindow,
        name: "default_context_window",
        since: "0.169.1",
        summary: "The default model's context window is 500,000 tokens, so the skill listing budget (2 %) is 10,000 tokens.",
        evidence: "bisected (case `codex.x17_listing_budget`): the listing of 0.169.0 cuts the descriptions as 0.142.3 does, that of 0.169.1 as 0.171.0 does",
    },
];

/// The facts for `version`: the first row's, with each fact of
/// [`CHANGES`] taken from its first release on from the row it leads to
/// (the first row whose `from` is at or after the change's `since`).
/// Computed once per release ([`FactsMemo`]).
pub fn facts_for(version: &str) -> Facts {
    static FACTS: FactsMemo<Facts> = FactsMemo::new();
    FACTS.get(version, || {
        let mut facts = TABLE[0].facts;
        for c in CHANGES.iter().filter(|c| at_least(version, c.since)) {
            c.fact.take(&mut facts, &row_of(c).facts);
        }
        facts
    })
}

/// The row whose facts change `c` brings: the first at or after its
/// release (the last row for a change after every row).
fn row_of(c: &Change) -> &'static Row {
    TABLE
        .iter()
        .find(|r| at_least(r.from, c.since))
        .unwrap_or(&TABLE[TABLE.len() - 1])
}

/// [`CHANGES`] as the adapter's
/// [`playbookdiff_adapter::Adapter::release_changes`].
pub fn changes() -> Vec<ReleaseChange> {
    playbookdiff_model::profile::release_changes(CHANGES)
}

/// The rows of [`TABLE`] whose facts [`facts_for`] does not give back at
/// their first release (a fact that differs between rows without a
/// bisected first release in [`CHANGES`]), as the adapter's
/// [`playbookdiff_adapter::Adapter::rows_not_reached`].
pub fn not_reached() -> Vec<&'static str> {
    TABLE
        .iter()
        .filter(|r| facts_for(r.from) != r.facts)
        .map(|r| r.from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profiled_version_has_its_row() {
        for v in crate::PROFILED_VERSIONS {
            assert!(TABLE.iter().any(|r| r.from == *v), "{v}");
        }
        assert_eq!(facts_for("0.146.1").skill_paths, SkillPathStyle::Absolute);
        assert_eq!(facts_for("0.147.0").skill_paths, SkillPathStyle::Aliased);
        assert_eq!(facts_for("0.142.3"), TABLE[1].facts);
        assert_eq!(facts_for("0.171.0"), TABLE[2].facts);
        // Before 0.142.3: the first row's facts until each change.
        assert_eq!(facts_for(FIRST_MODELLED), TABLE[0].facts);
        assert!(facts_for("0.75.0").bundled_skills.is_empty());
        assert_eq!(facts_for("0.77.0").bundled_skills, SYSTEM_SKILLS_0_77);
        assert_eq!(facts_for("0.114.0").bundled_skills, SYSTEM_SKILLS_0_77);
        assert_eq!(facts_for("0.115.0").bundled_skills.len(), 3);
        assert_eq!(facts_for("0.116.0").bundled_skills, SYSTEM_SKILLS_0_115);
        assert_eq!(facts_for("0.117.0").bundled_skills.len(), 5);
        assert_eq!(facts_for("0.135.0").bundled_skills, SYSTEM_SKILLS_0_133);
        assert_eq!(
            facts_for("0.136.0").bundled_skills,
            TABLE[1].facts.bundled_skills
        );
        assert_eq!(facts_for("0.158.0").bundled_skills, SYSTEM_SKILLS_0_148);
        assert!(!facts_for("0.77.0").project_config && facts_for("0.79.0").project_config);
        assert!(!facts_for("0.93.0").agents_skills && facts_for("0.94.0").agents_skills);
        assert!(!facts_for("0.107.0").skill_name_from_folder);
        assert!(facts_for("0.110.0").skill_name_from_folder);
        assert_eq!(
            facts_for("0.121.0").plugin_manifests,
            &[".codex-plugin/plugin.json"]
        );
        assert_eq!(
            facts_for("0.122.0").plugin_manifests,
            TABLE[1].facts.plugin_manifests
        );
        assert_eq!(facts_for("0.145.0").plugin_manifests.len(), 3);
        assert_eq!(
            facts_for("0.141.0").long_description,
            LongDescription::Refused
        );
        assert_eq!(facts_for("0.142.0").long_description, LongDescription::Cut);
        assert!(facts_for("0.200.0").untrusted_drops_agents_md);
        let mid = facts_for("0.156.0");
        assert!(mid.untrusted_drops_agents_md && mid.fallback_names_must_be_plain);
        assert_eq!(mid.default_context_window, 272_000);
        assert_eq!(mid.bundled_skills, SYSTEM_SKILLS_0_148);
        assert!(!facts_for("0.142.5").on_failure_as_on_request);
        assert!(facts_for("0.143.0").on_failure_as_on_request);
        assert!(!facts_for("0.63.0").hooks_run && !facts_for("0.123.0").hooks_run);
        assert!(facts_for(HOOKS_SINCE).hooks_run && facts_for("0.142.3").hooks_run);
        assert_eq!(facts_for("0.124.0").hook_events, HOOK_EVENTS_FIRST);
        assert!(!facts_for("0.128.0").hook_trust && facts_for("0.129.0").hook_trust);
        assert_eq!(facts_for("0.128.0").hook_events.len(), 6);
        assert!(facts_for("0.129.0").hook_events.contains(&"PreCompact"));
        assert!(!facts_for("0.132.0").hook_events.contains(&"SubagentStart"));
        assert!(facts_for("0.133.0").hook_events.contains(&"SubagentStop"));
        assert!(!facts_for("0.144.6").hook_events.contains(&"SessionEnd"));
        assert!(facts_for("0.145.0").hook_events.contains(&"SessionEnd"));
        assert!(!facts_for("0.149.1").hook_events.contains(&"Interrupt"));
        assert!(facts_for("0.150.0").hook_events.contains(&"Interrupt"));
        assert!(!facts_for("0.163.0")
            .hook_events
            .contains(&"PreModelRequest"));
        assert_eq!(facts_for("0.164.0").hook_events, HOOK_EVENTS_0_171);
        assert!(!facts_for("0.148.0").untrusted_policy_refused);
        assert!(facts_for("0.149.0").untrusted_policy_refused);
    }
}

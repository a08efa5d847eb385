//! The facts that differ between Copilot CLI releases, in one table keyed
//! by version range; the compilation asks [`of`] and never compares
//! version strings.
//!
//! [`TABLE`] holds the facts of the first modelled release, of 1.0.11
//! and of the two profiled releases; each fact that differs between rows
//! has its own first release in [`CHANGES`], found by bisection over the
//! published releases with the real agent (`scripts/oracle/bisect.py`,
//! `oracle/bisect/copilot.json`; the registry's `bisected` test fails when
//! the two disagree), so [`of`] models every release from
//! [`FIRST_MODELLED`] to 1.0.102: the first row's facts, each replaced by
//! a later row's from its first release on. Two facts come and go: the
//! path-specific instructions load on demand before 1.0.6 and from
//! 1.0.32, inlined between; the custom agents are listed but by 1.0.11.
//! The releases sampled before 1.0.24 (`oracle/bisect/copilot.older.json`)
//! differ from their profiles in the skills the recorder sees, not in
//! what the model receives: 1.0.11 to 1.0.20 print no
//! `session.skills_loaded` event, though their `skill` tool lists what
//! 1.0.24's event does (behaviour `copilot.skills-loaded-event`, not a
//! fact).

use playbookdiff_adapter::hooks::Events;
use playbookdiff_adapter::problems::NonUtf8;
use playbookdiff_model::profile::{
    facts_of, BuiltinSkill, FactsMemo, ProfileRow, ReleaseChange, TableFact,
};

/// How `.github/instructions/**/*.instructions.md` reach the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathInstructions {
    /// Without `applyTo`, or with `applyTo: "**"`: inlined raw at startup,
    /// front matter included; with a specific glob: listed in a table and
    /// injected as a `<system_reminder>` when the agent views a matching
    /// file (changelog 1.0.26, 1.0.35, 1.0.100; seen with 1.0.102).
    OnDemand,
    /// All inlined at startup; a specific `applyTo` is prefixed "This
    /// instruction applies to files matching the pattern: <glob>" (seen
    /// with 1.0.24).
    InlinedWithPrefix,
}

/// Where a release looks for `SKILL.md` below a skill root
/// (`.github/skills`, `.agents/skills`, `.claude/skills`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkillSearch {
    /// Only `<root>/<folder>/SKILL.md` (seen with 1.0.24 on case
    /// `oracle.copilot_skill_rules`: `.agents/skills/group/nested/SKILL.md`
    /// not listed; its source reads one `readdir` of the root).
    OneLevel,
    /// Any depth: a folder without `SKILL.md` is searched further, in name
    /// order, depth first; a folder with one is not; a link to a folder is
    /// read for its `SKILL.md` but not searched (seen with 1.0.102 on case
    /// `oracle.copilot_skill_rules`: `l1/l2/l3/l4/deep5/SKILL.md` listed,
    /// `base/sub/SKILL.md` not; of two skills named `dupname`,
    /// `a-first/x/SKILL.md` listed rather than `dup/SKILL.md`; on case
    /// `oracle.link_loops` the skill `real` was named by its own path, not
    /// through the link `loop -> .`).
    Nested,
}

/// Which always-on instruction files a release sends as blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AlwaysOnTexts {
    /// In the git root and the launch directory, a file of no bytes is
    /// left out (one line end is sent), and of `AGENTS.md`, `CLAUDE.md`
    /// and `GEMINI.md` of one directory a file whose text is that of an
    /// earlier one; a file of a directory between them is sent in any
    /// case, empty or a repeat (1.0.24 `app.js`, the instruction loader:
    /// each file is kept when its text is truthy, the three names of a
    /// directory pass through one merge of equal texts, the files between
    /// are pushed as read; seen on fuzzer seeds 4, 13 and 17).
    PerDirectory,
    /// Every file, blank ones too, but a text identical to one already
    /// sent (seen with 1.0.102: fuzzer seeds 8, 17 and 24, an empty
    /// `AGENTS.md` and `.github/copilot-instructions.md` of `""` and
    /// `"\n"`, each an empty `<custom_instruction>`; "AGENTS.md +
    /// GEMINI.md" for two equal texts).
    AnyRepeat,
}

/// How a release validates an MCP file's servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum McpSchema {
    /// The file against one schema: a name of ASCII letters, digits, `_`,
    /// `.`, `@`, `-` and inner `/` (while [`Profile::mcp_names_checked`]);
    /// a local entry (`type` absent, `local`
    /// or `stdio`) with a string `command` and, while
    /// [`Profile::mcp_requires_args`], a list of strings `args`; a remote
    /// one with `type` `http` or `sse` and a string `url`; string maps for
    /// `env` and `headers`, a list of strings for `tools`. One entry that
    /// fails starts no server of the file; without `mcpServers`, the
    /// top-level object is taken only when every entry has a string
    /// `command` or `url` (1.0.24 `app.js`, the workspace MCP loader and
    /// its schema; seen on fuzzer seed 0: a server named `git hub0` left
    /// the file's two servers out).
    WholeFile,
    /// Each entry apart: one Copilot CLI cannot start is left out, the
    /// file's other servers still start (seen with 1.0.102, fuzzer seeds
    /// 11 and 17: `{"type": "stdio"}` and `"oops"`).
    PerEntry,
}

/// How a release reads the user's `~/.copilot/mcp-config.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UserJson {
    /// With `jsonc-parser`'s error-tolerant `parse`: the values read
    /// before an error are kept, and a text whose value is not an object
    /// is read as `key=value` lines ([`crate::tolerant`]; 1.0.24 `app.js`,
    /// the config store's reader; seen with 1.0.24 on cases
    /// `oracle.copilot_user_mcp_json.*` and `fuzz.copilot.home.8`: a file
    /// cut after a server, or inside the next one's `args`, or missing
    /// its last brace still starts every server read).
    Tolerant,
    /// JSON with comments, trailing commas and missing commas; any other
    /// fault (a cut, an unquoted key) refuses the whole file (seen with
    /// 1.0.102 on the same cases, which `jsonc-parser`'s crate reads alike
    /// with those three allowances: [`crate::json::lenient_options`]).
    Lenient,
}

/// A skill a release ships in its `builtin-skills/NAME/SKILL.md` and
/// lists with `source: "builtin"` after every discovered skill
/// ([`Profile::builtin_skills`]). 1.0.102 also ships `discover-resources`,
/// which it lists only under the feature flag `DISCOVER_RESOURCES` (off
/// by default; its code filters the skill out otherwise, and it was not
/// listed on case `oracle.local_user_layers.home-copilot-skills`): not
/// modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShippedSkill {
    /// `customize-cloud-agent`, the cloud agent's setup steps.
    CustomizeCloudAgent,
    /// `github-pr-media`, media uploads for a pull request.
    GithubPrMedia,
}

impl ShippedSkill {
    /// Every variant, in the order of [`Profile::builtin_skills`]' bits
    /// (by name).
    const ALL: [ShippedSkill; 2] = [
        ShippedSkill::CustomizeCloudAgent,
        ShippedSkill::GithubPrMedia,
    ];

    /// This skill's bit in [`Profile::builtin_skills`].
    const fn bit(self) -> u8 {
        match self {
            ShippedSkill::CustomizeCloudAgent => 0b01,
            ShippedSkill::GithubPrMedia => 0b10,
        }
    }

    /// The skill as the release of `profile` ships it (the description of
    /// its `SKILL.md`, folded lines joined by one space).
    const fn skill(self, profile: &Profile) -> BuiltinSkill {
        match (self, profile.cloud_agent_skill_description) {
            (ShippedSkill::CustomizeCloudAgent, CloudAgentSkillDescription::Setup) => BuiltinSkill {
                name: "customize-cloud-agent",
                description: CLOUD_AGENT_SETUP,
            },
            (ShippedSkill::CustomizeCloudAgent, CloudAgentSkillDescription::SetupAndWhen) => {
                BuiltinSkill {
                    name: "customize-cloud-agent",
                    description: CLOUD_AGENT_SETUP_AND_WHEN,
                }
            }
            (ShippedSkill::GithubPrMedia, _) => BuiltinSkill {
                name: "github-pr-media",
                description: "Upload an image or video to GitHub's user attachments API and embed it in a pull request description or comment. Use when asked to add screenshots, diagrams, recordings, or other media to a PR or GitHub comment.",
            },
        }
    }
}

/// The description of `customize-cloud-agent` in 1.0.24.
const CLOUD_AGENT_SETUP: &str = "Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings.";

/// The description of `customize-cloud-agent` in 1.0.102.
const CLOUD_AGENT_SETUP_AND_WHEN: &str = "Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings. Use when the user mentions copilot-setup-steps, copilot setup steps, or wants to configure the cloud agent environment.";

/// How `enabledPlugins` chooses among the installed plugins
/// ([`crate::plugins`]; which files' maps are read:
/// [`Profile::enabled_plugins_in_config`],
/// [`Profile::enabled_plugins_in_settings`]). Seen with 1.0.24 and
/// 1.0.102 on cases
/// `oracle.local_user_layers.home-copilot-plugins-enabled-config`,
/// `-settings` and `home-copilot-plugins-enabled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EnabledPlugins {
    /// A map keeps only the entries it maps to `true`, and of those the
    /// ones `enabled` in their entry (1.0.24 `app.js`: `pR`, then each
    /// loader skips `!enabled`; `off@acme: true` with `enabled: false`
    /// loaded nothing).
    Filter,
    /// A map decides alone: a plugin it maps to `true` loads even when
    /// its entry says `enabled: false`, one it maps to `false` or does
    /// not name does not; without a map, the entry's `enabled` decides
    /// (1.0.102).
    Decide,
}

/// Which description a release's `customize-cloud-agent` has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CloudAgentSkillDescription {
    /// What the skill is for (1.0.24).
    Setup,
    /// That, then when to use it ("Use when the user mentions
    /// copilot-setup-steps, ..."; 1.0.102).
    SetupAndWhen,
}

impl Profile {
    /// The built-in skills this release lists, by name.
    pub(crate) fn shipped_skills(&self) -> Vec<BuiltinSkill> {
        ShippedSkill::ALL
            .iter()
            .filter(|k| self.builtin_skills & k.bit() != 0)
            .map(|k| k.skill(self))
            .collect()
    }
}

/// The behaviour of one range of releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The first release these facts hold for (a row of [`TABLE`] or the
    /// `since` of a change of [`CHANGES`]); with a directory, the key of
    /// what a compilation shares with the others on one `Repo`
    /// ([`playbookdiff_adapter::Compilation::memo_read`]).
    pub release: &'static str,
    /// Whether `@path` imports in instruction files are inlined as
    /// `<imported_custom_instruction>` (changelog 1.0.66; seen with
    /// 1.0.102) or left as written (seen with 1.0.24).
    pub imports_inlined: bool,
    /// How path-specific instructions load.
    pub path_instructions: PathInstructions,
    /// Whether instruction text passes Copilot CLI's Markdown filter before
    /// it is sent ([`crate::filter`]; seen with 1.0.24: `> [!NOTE]` of
    /// biomejs/biome's `AGENTS.md` arrived as `&gt; [!NOTE]`, a link as
    /// `<a>text</a>`; 1.0.102 sends the text as written).
    pub markdown_filter: bool,
    /// Whether `.claude/rules/*.md` are read (changelog 1.0.89; ignored by
    /// 1.0.24), and with them the front-matter key `paths` of an
    /// instruction file without `applyTo`, the user's included (bisected
    /// on case `fuzz.copilot.home.0`: first in 1.0.89 too).
    pub claude_rules: bool,
    /// Whether instruction files below the launch directory are injected
    /// when the agent views a file there (1.0.102: "Custom instructions
    /// from sub/AGENTS.md. Apply these to any code you write here"; 1.0.24
    /// injects nothing).
    pub nested_on_demand: bool,
    /// The MCP configuration files of a directory, the first existing one
    /// applies (1.0.102: `.mcp.json`, else `.github/mcp.json`; 1.0.24:
    /// `.mcp.json` only).
    pub mcp_files: &'static [&'static str],
    /// Whether a local (command) MCP server needs `args` (1.0.24 skips one
    /// without; seen with 1.0.24).
    pub mcp_requires_args: bool,
    /// Whether Claude-format hooks in `.claude/settings.json` run
    /// (1.0.102; 1.0.24 runs `.github/hooks/*.json` only).
    pub claude_hooks: bool,
    /// Whether hooks and workspace MCP servers need the folder to be
    /// trusted in `-p` mode (1.0.102; 1.0.24 ran them untrusted).
    pub trust_gates_hooks_and_mcp: bool,
    /// Where `SKILL.md` files are searched below a skill root.
    pub skill_search: SkillSearch,
    /// Whether a skill folder whose name starts with `.` is listed (seen
    /// on cases `oracle.hostile_names` and `oracle.copilot_skill_rules`:
    /// 1.0.24 listed `.agents/skills/.hidden` and `.dotted`; 1.0.102 lists
    /// neither, nor `group/.hid` one level deeper).
    pub skill_dot_folders: bool,
    /// The characters a skill name may hold besides ASCII letters and
    /// digits, never first (1.0.24's source: `/^[a-zA-Z0-9][a-zA-Z0-9._\-
    /// ]*$/`, seen on case `oracle.copilot_skill_rules`, where `naïve`,
    /// `-lead`, `_lead`, `.lead`, `a@b`, `a/b`, `a+b` and `ns:tool2` were not
    /// listed; 1.0.102 lists `ns:tool2` too, the others not).
    pub skill_name_punctuation: &'static str,
    /// Whether the matchers of the tool events filter the hooks they
    /// group (1.0.102); 1.0.24 ignores them
    /// ([`crate::hooks::EVENTS_1_0_24`]).
    pub hook_matchers: bool,
    /// Whether a hooks file may register `preMcpToolCall` (and
    /// `PreMcpToolCall`), before an MCP tool runs.
    pub pre_mcp_tool_call_event: bool,
    /// Whether a hooks file may register `userPromptTransformed`, after
    /// the prompt is put into its model-facing form. Every release of the
    /// window that has it has `preMcpToolCall` too (bisected: 1.0.73 and
    /// 1.0.55).
    pub user_prompt_transformed_event: bool,
    /// Which always-on files are sent and which are left out as empty or
    /// as repeats (bisected on the empty file: 1.0.63 leaves an empty
    /// `AGENTS.md` out, 1.0.64 sends it; the rule on repeats is taken to
    /// change with it, not bisected apart).
    pub always_on_texts: AlwaysOnTexts,
    /// Whether one MCP server entry the release's schema refuses stops
    /// every server of its file (1.0.24) or only itself (1.0.102;
    /// bisected on fuzzer seed 0: 1.0.88 starts no server of
    /// `sub/.mcp.json`, whose `http` entry has no `url`, 1.0.89 its
    /// `local`).
    pub mcp_schema: McpSchema,
    /// Whether, under [`McpSchema::WholeFile`], a server name outside
    /// ASCII letters, digits, `_`, `.`, `@`, `-` and inner `/` refuses its
    /// file (1.0.24 `app.js`, the workspace MCP loader's schema; bisected
    /// on fuzzer seed 0: 1.0.80 starts no server of the `.mcp.json`
    /// holding `git hub0`, 1.0.81 starts `git hub0` and `files2`).
    pub mcp_names_checked: bool,
    /// Whether `.github/instructions` files are found by their suffix in
    /// any case (`.Instructions.md`: seen with 1.0.102 on fuzzer seeds 92
    /// and 100; 1.0.75 `app.js` globs with `nocase`) or only as
    /// `.instructions.md` (1.0.24 `app.js`: the same glob without
    /// `nocase`; seen on fuzzer seeds 10 and 14; bisected on fuzzer seed
    /// 92, see [`CHANGES`]).
    pub instructions_suffix_any_case: bool,
    /// The user's skill roots below the home, in the order their skills
    /// are taken, after the repository's (seen on case
    /// `oracle.local_user_layers.home-copilot-skills`: with both releases
    /// the project's `build` listed rather than the user's, and
    /// `~/.copilot/skills/lint` rather than `~/.agents/skills/lint`; 1.0.24
    /// lists `~/.claude/skills/tidy`, 1.0.102 does not read that root;
    /// bisected: 1.0.34 lists it, 1.0.39 does not); `~/.agents/skills`
    /// from 1.0.11 (1.0.24 `app.js`, the skill roots: the source
    /// `personal-agents`, which 1.0.10's code lacks; before it the user's
    /// skills come from `~/.copilot/skills` and `~/.claude/skills`).
    pub user_skill_roots: &'static [&'static str],
    /// The user's settings file below the home, whose `hooks` run (with
    /// its `disableAllHooks`): 1.0.24 reads `~/.copilot/config.json`
    /// (`loadAllHooks` in its `app.js`); 1.0.102 `~/.copilot/settings.json`
    /// and not the `hooks` of `config.json` (seen on case
    /// `oracle.hooks_copilot_gemini.home-copilot-hooks`; changelog 1.0.35
    /// "User settings are now stored in ~/.copilot/settings.json", 1.0.93
    /// "Read user settings only from ~/.copilot/settings.json"; bisected:
    /// 1.0.92 runs the hooks of `config.json` and not those of
    /// `settings.json`, and no release was published between 1.0.92 and
    /// 1.0.102, so no release reads both).
    pub user_settings: &'static str,
    /// Whether the `task` tool lists the repository's custom agents
    /// ([`crate::agents`]) to the model: 1.0.12 on (case
    /// `copilot.skills_agents_mcp`: `helper` and `reviewer` listed); 1.0.11
    /// lists none, its `task` tool naming no user-provided agent, nor do
    /// 0.0.368 and 0.0.372 (0.0.376 lists `reviewer`).
    pub custom_agents_listed: bool,
    /// The built-in skills the release lists, one bit per
    /// [`ShippedSkill`] ([`Profile::shipped_skills`]): after every
    /// discovered skill, so a project's or the user's skill of the same
    /// name replaces one (seen with 1.0.24 and 1.0.102 on case
    /// `oracle.local_user_layers.home-copilot-builtin-skill`: the user's
    /// `customize-cloud-agent` listed, the built-in one not).
    pub builtin_skills: u8,
    /// The description of the built-in `customize-cloud-agent`.
    pub cloud_agent_skill_description: CloudAgentSkillDescription,
    /// How `enabledPlugins` chooses among the installed plugins.
    pub enabled_plugins: EnabledPlugins,
    /// Whether `enabledPlugins` is read at all (1.0.22 on; before, the
    /// entries' `enabled` alone decides).
    pub enabled_plugins_read: bool,
    /// Whether `enabledPlugins` of `~/.copilot/config.json` is read
    /// (1.0.22 to 1.0.92, with [`Profile::enabled_plugins_read`]).
    pub enabled_plugins_in_config: bool,
    /// Whether `enabledPlugins` of `~/.copilot/settings.json` is read;
    /// with both maps, a key of this one is assumed to win (not seen).
    pub enabled_plugins_in_settings: bool,
    /// Whether `enabledPlugins` of the repository's settings
    /// ([`crate::plugins::REPOSITORY_SETTINGS`]) is read, its keys
    /// assumed to win over the user's (case
    /// `oracle.copilot_repo_enabled_plugins.home-copilot-plugins`: 1.0.24
    /// ignores both files, 1.0.102 honours both).
    pub enabled_plugins_in_repository: bool,
    /// Whether `enabledPlugins` of the managed settings
    /// ([`crate::plugins::MANAGED_SETTINGS`]) is read, its keys assumed to
    /// win over every other map's (case
    /// `oracle.local_user_layers.home-copilot-plugins.managed-copilot-enabled-plugins`:
    /// 1.0.24 ignores the file, 1.0.102 honours it).
    pub enabled_plugins_managed: bool,
    /// Whether the user's instruction files
    /// (`~/.copilot/copilot-instructions.md`,
    /// `~/.copilot/instructions/**/*.instructions.md`) that are not valid
    /// UTF-8 are left out (seen with 1.0.102 on case
    /// `oracle.local_user_layers.home-copilot-non-utf8`: neither sent,
    /// the user's skill of the case listed); 1.0.24 sends them, each
    /// invalid byte read as U+FFFD. A repository's file is sent by both
    /// (case `oracle.edge_bytes`).
    pub non_utf8_instructions_skipped: bool,
    /// Whether the user's custom agents (`~/.copilot/agents`) that are not
    /// valid UTF-8 are left out (seen with 1.0.102 on the same case: the
    /// `task` tool does not list `latin1-agent`, 1.0.24's does).
    pub non_utf8_agents_skipped: bool,
    /// Whether the instruction files of the directories between the git
    /// root and the launch directory are sent (case
    /// `copilot.instruction_chain.in-a-b`: 1.0.10 sends those of the root
    /// and of `a/b` only, 1.0.11 also `a/AGENTS.md` and
    /// `a/.github/copilot-instructions.md`).
    pub ancestor_instructions: bool,
    /// Whether, under [`AlwaysOnTexts::PerDirectory`], of `AGENTS.md`,
    /// `CLAUDE.md` and `GEMINI.md` of one directory a text identical to
    /// an earlier one's is left out (case `copilot.instruction_chain`:
    /// 0.0.390 sends the root's `GEMINI.md`, whose text is `AGENTS.md`'s,
    /// as a block of its own, 0.0.394 does not).
    pub named_repeats_left_out: bool,
    /// Whether, under [`AlwaysOnTexts::PerDirectory`], an always-on file
    /// whose text, without a byte order mark, is that of any block sent
    /// before it (the user's file, another directory's, a directory
    /// between) is left out, the first one sent (1.0.30 and 1.0.63
    /// `app.js`, the instruction loader: after the per-directory merge,
    /// every `home`, `repo` and `model` block passes one set of texts
    /// normalized by a function that removes U+FEFF and other invisible
    /// characters, zero-width and bidirectional marks, anywhere; 1.0.24
    /// keeps blocks by id alone). The adapter removes a leading byte
    /// order mark only, as for [`AlwaysOnTexts::AnyRepeat`].
    pub repeats_left_out_anywhere: bool,
    /// Whether `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` are found in any
    /// letter case (case `oracle.name_case_variants`: 0.0.410 sends
    /// neither `Agents.md` nor `claude.md`, 0.0.411 both).
    pub instruction_names_any_case: bool,
    /// Whether the `*.json` files of the user's `~/.copilot/hooks` run
    /// (case `oracle.hooks_copilot_gemini.home-copilot-hooks`: 0.0.420
    /// runs none of `marks.json`'s hooks, 0.0.423 runs them).
    pub user_hooks_folder: bool,
    /// Whether the `hooks` of the user's settings file
    /// ([`Profile::user_settings`]) run (same case: 1.0.7 does not run
    /// `config.json`'s `config-prompt`, 1.0.10 does).
    pub user_settings_hooks: bool,
    /// Whether `disableAllHooks: true` turns off the hooks of its own
    /// file (changelog 1.0.4; case
    /// `oracle.hooks_copilot_gemini.home-copilot-hooks`: 1.0.3 fires
    /// `user-off` of `~/.copilot/hooks/off.json`, which sets it, 1.0.6
    /// does not).
    pub disable_all_hooks: bool,
    /// Whether a hooks file may group handlers as Claude Code does
    /// (`{"matcher": ..., "hooks": [...]}`, flattened one level); a
    /// release without it validates each entry as a handler (`type:
    /// "command"`, 0.0.403 `index.js`: the hooks file schema), so one
    /// group refuses the file and none of its hooks run (case
    /// `copilot.hook_matchers.read-src-a.txt`: 0.0.403 fires no hook of
    /// `matchers.json`).
    pub hook_groups: bool,
    /// Which skill names a release takes.
    pub skill_names: SkillNames,
    /// How the user's `~/.copilot/mcp-config.json` is read.
    pub user_mcp_json: UserJson,
    /// Whether a path-specific instruction file whose front matter is not
    /// valid YAML still gives its `applyTo` from its line
    /// ([`crate::scoped::apply_to`]); without it the file has no
    /// `applyTo` and is inlined whole, as one without front matter (1.0.24
    /// `app.js`: the instruction reader keeps only `excludeAgent: []` and
    /// the text when the front matter does not parse; seen with 1.0.24 on
    /// case `oracle.copilot_broken_front_matter.home-copilot-broken-front-matter`:
    /// the repository's and the user's file inlined, listed by 1.0.102
    /// for `src/**` and `lib/**`).
    pub front_matter_line_fallback: bool,
    /// The repository's skill roots, in the order a directory's skills
    /// are listed ([`crate::skills::ROOTS`] from the release that reads
    /// `.agents/skills`). 0.0.388 reads `.github/skills` and
    /// `.claude/skills` only (case `copilot.skills_agents_mcp`: `alpha`
    /// and `gamma` listed, `.agents/skills/beta` not; 0.0.388 `index.js`,
    /// the skill loader: those two roots of the git root, then
    /// `~/.copilot/skills` and `~/.claude/skills`; bisected: 0.0.400
    /// does not list `beta`, 0.0.401 does). Before 0.0.399 the agent's
    /// code reads the roots of the git root alone, not of the directories
    /// down to the launch directory (0.0.388 `index.js`; 0.0.399 reads
    /// them): not modelled, no case tells them apart.
    pub skill_roots: &'static [&'static str],
    /// Whether Claude Code's commands (`.claude/commands/*.md`) are
    /// listed as skills (case `copilot.skills_agents_mcp`: 0.0.388 does
    /// not list `deploy`; its `index.js` holds no loader of
    /// `.claude/commands`; bisected: 0.0.394 does not list it, 0.0.399
    /// does).
    pub claude_commands: bool,
    /// Whether custom agents are read from Claude Code's folders
    /// (`.claude/agents`, and `~/.claude/agents` in local mode) besides
    /// `.github/agents` and `~/.copilot/agents` (case
    /// `copilot.skills_agents_mcp`: 0.0.388 lists `reviewer` of
    /// `.github/agents`, not `helper` of `.claude/agents`; 0.0.388
    /// `index.js`, the agent loader `M1e`: `~/.copilot/agents`, then the
    /// git root's `.github/agents`, then the remote agents of a
    /// github.com repository, nothing else; bisected: 0.0.394 lists
    /// `reviewer` alone, 0.0.399 both).
    pub claude_agents: bool,
    /// Whether each always-on instruction file is sent as a
    /// `<custom_instruction>` block of its own, from the git root, the
    /// launch directory and the directories between ([`crate::instructions`]),
    /// or one source alone is inlined without a block
    /// ([`crate::one_source`]: 0.0.368 to 0.0.384; case
    /// `copilot.instruction_chain`: 0.0.384 sends
    /// `.github/copilot-instructions.md` alone, without a block, 0.0.388
    /// also `AGENTS.md`, `GEMINI.md` and `CLAUDE.md`, each a block).
    pub instruction_blocks: bool,
    /// Whether skills are read at all: 0.0.368's code holds no skill
    /// loader (no `SKILL.md`; its `task` and other tools list none), and
    /// lists no skill (case `copilot.skills_agents_mcp`).
    pub skills_read: bool,
    /// Whether a skill whose `user-invocable` or
    /// `disable-model-invocation` is not a boolean is refused; 0.0.388's
    /// skill schema (`index.js`: `name`, `description` and
    /// `allowed-tools` alone) lists it (case `oracle.copilot_skill_rules`:
    /// `bad-type`, whose `user-invocable` is `"no"`, listed).
    pub skill_flags_checked: bool,
}

/// Which skill names a release takes, besides the length
/// ([`Profile::skill_name_punctuation`] for [`SkillNames::Punctuated`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkillNames {
    /// A `name` in the front matter, of ASCII letters, digits and `-`
    /// anywhere (0.0.403 `index.js`, the skill schema: `/^[a-zA-Z0-9-]+$/`,
    /// `name` required; case `oracle.copilot_skill_rules`: 0.0.409 lists
    /// `-lead`, not `a.b_c` nor `no-fm-name`, whose front matter has no
    /// `name`).
    HyphensOnly,
    /// The `name` of the front matter, else the folder's; a letter or
    /// digit first, then letters, digits and the profile's punctuation
    /// (0.0.410 and later).
    Punctuated,
}

impl Profile {
    /// What the release does with a user's instruction file that is not
    /// valid UTF-8 ([`Profile::non_utf8_instructions_skipped`]).
    pub(crate) fn user_instructions_non_utf8(&self) -> NonUtf8 {
        non_utf8(self.non_utf8_instructions_skipped)
    }

    /// What the release does with a user's custom agent that is not valid
    /// UTF-8 ([`Profile::non_utf8_agents_skipped`]).
    pub(crate) fn user_agents_non_utf8(&self) -> NonUtf8 {
        non_utf8(self.non_utf8_agents_skipped)
    }

    /// The hook events of these facts, with the Claude Code spellings
    /// taken for them ([`crate::hooks::events_of`]).
    pub(crate) fn hook_events(&self) -> &'static Events {
        let table = match (
            self.pre_mcp_tool_call_event,
            self.user_prompt_transformed_event,
        ) {
            (false, false) => crate::hooks::Table::Of1_0_24,
            (true, false) => crate::hooks::Table::PreMcpToolCall,
            (_, true) => crate::hooks::Table::Of1_0_102,
        };
        crate::hooks::events_of(table, self.hook_matchers)
    }
}

/// A user's file that is not valid UTF-8 is left out (`skipped`) or read
/// with each invalid byte as U+FFFD.
fn non_utf8(skipped: bool) -> NonUtf8 {
    let name = crate::HARNESS.display_name();
    if skipped {
        NonUtf8::Skipped(name)
    } else {
        NonUtf8::Replaced(name)
    }
}

/// The facts of 1.0.24, the oldest profiled release.
const OF_1_0_24: Profile = Profile {
    release: "1.0.24",
    imports_inlined: false,
    path_instructions: PathInstructions::InlinedWithPrefix,
    markdown_filter: true,
    claude_rules: false,
    nested_on_demand: false,
    mcp_files: &[".mcp.json"],
    mcp_requires_args: true,
    claude_hooks: false,
    trust_gates_hooks_and_mcp: false,
    skill_search: SkillSearch::OneLevel,
    skill_dot_folders: true,
    skill_name_punctuation: "._- ",
    hook_matchers: false,
    pre_mcp_tool_call_event: false,
    user_prompt_transformed_event: false,
    always_on_texts: AlwaysOnTexts::PerDirectory,
    mcp_schema: McpSchema::WholeFile,
    mcp_names_checked: true,
    instructions_suffix_any_case: false,
    user_skill_roots: &[".copilot/skills", ".agents/skills", ".claude/skills"],
    user_settings: ".copilot/config.json",
    custom_agents_listed: true,
    builtin_skills: ShippedSkill::CustomizeCloudAgent.bit(),
    cloud_agent_skill_description: CloudAgentSkillDescription::Setup,
    enabled_plugins: EnabledPlugins::Filter,
    enabled_plugins_read: true,
    enabled_plugins_in_config: true,
    enabled_plugins_in_settings: false,
    enabled_plugins_in_repository: false,
    enabled_plugins_managed: false,
    non_utf8_instructions_skipped: false,
    non_utf8_agents_skipped: false,
    ancestor_instructions: true,
    named_repeats_left_out: true,
    repeats_left_out_anywhere: false,
    instruction_names_any_case: true,
    user_hooks_folder: true,
    user_settings_hooks: true,
    disable_all_hooks: true,
    hook_groups: true,
    skill_names: SkillNames::Punctuated,
    user_mcp_json: UserJson::Tolerant,
    front_matter_line_fallback: false,
    skill_roots: crate::skills::ROOTS,
    claude_commands: true,
    claude_agents: true,
    instruction_blocks: true,
    skills_read: true,
    skill_flags_checked: true,
};

/// The facts of 1.0.11, the release before which every fact bisected
/// before 1.0.24 changes: 1.0.24's but for the facts that change after
/// it. Its custom agents are not listed (1.0.10 and 1.0.12 list them).
const OF_1_0_11: Profile = Profile {
    release: "1.0.11",
    custom_agents_listed: false,
    builtin_skills: 0,
    enabled_plugins_read: false,
    ..OF_1_0_24
};

/// The facts of the first modelled release ([`FIRST_MODELLED`]): 1.0.11's
/// but for the facts bisection found to change before 1.0.11.
const OF_0_0_368: Profile = Profile {
    release: FIRST_MODELLED,
    custom_agents_listed: false,
    path_instructions: PathInstructions::OnDemand,
    ancestor_instructions: false,
    named_repeats_left_out: false,
    instruction_names_any_case: false,
    user_hooks_folder: false,
    user_settings_hooks: false,
    disable_all_hooks: false,
    hook_groups: false,
    skill_names: SkillNames::HyphensOnly,
    skill_roots: &[".github/skills", ".claude/skills"],
    user_skill_roots: &[".copilot/skills", ".claude/skills"],
    claude_commands: false,
    claude_agents: false,
    instruction_blocks: false,
    skills_read: false,
    skill_flags_checked: false,
    ..OF_1_0_11
};

/// The facts of 0.0.376, the row the changes up to it take their values
/// from: 0.0.368's, but the `task` tool lists the custom agents (as
/// 0.0.368 and 0.0.372 do not, case `copilot.skills_agents_mcp`) and
/// skills are read.
const OF_0_0_376: Profile = Profile {
    release: "0.0.376",
    custom_agents_listed: true,
    skills_read: true,
    ..OF_0_0_368
};

/// The table, oldest first: the facts of the first modelled release
/// ([`OF_0_0_368`]), of 0.0.376 ([`OF_0_0_376`]), of 1.0.11
/// ([`OF_1_0_11`]: the values of the facts that change before it, and of
/// the one that 1.0.11 alone has) and of each profiled release
/// ([`crate::PROFILED_VERSIONS`]).
const TABLE: &[Profile] = &[
    OF_0_0_368,
    OF_0_0_376,
    OF_1_0_11,
    OF_1_0_24,
    Profile {
        release: "1.0.102",
        imports_inlined: true,
        path_instructions: PathInstructions::OnDemand,
        markdown_filter: false,
        claude_rules: true,
        nested_on_demand: true,
        mcp_files: &[".mcp.json", ".github/mcp.json"],
        mcp_requires_args: false,
        claude_hooks: true,
        trust_gates_hooks_and_mcp: true,
        skill_search: SkillSearch::Nested,
        skill_dot_folders: false,
        skill_name_punctuation: "._- :",
        hook_matchers: true,
        pre_mcp_tool_call_event: true,
        user_prompt_transformed_event: true,
        always_on_texts: AlwaysOnTexts::AnyRepeat,
        mcp_schema: McpSchema::PerEntry,
        mcp_names_checked: false,
        instructions_suffix_any_case: true,
        user_skill_roots: &[".copilot/skills", ".agents/skills"],
        user_settings: ".copilot/settings.json",
        custom_agents_listed: true,
        builtin_skills: ShippedSkill::CustomizeCloudAgent.bit() | ShippedSkill::GithubPrMedia.bit(),
        cloud_agent_skill_description: CloudAgentSkillDescription::SetupAndWhen,
        enabled_plugins: EnabledPlugins::Decide,
        enabled_plugins_read: true,
        enabled_plugins_in_config: false,
        enabled_plugins_in_settings: true,
        enabled_plugins_in_repository: true,
        enabled_plugins_managed: true,
        non_utf8_instructions_skipped: true,
        non_utf8_agents_skipped: true,
        ancestor_instructions: true,
        named_repeats_left_out: true,
        repeats_left_out_anywhere: true,
        instruction_names_any_case: true,
        user_hooks_folder: true,
        user_settings_hooks: true,
        disable_all_hooks: true,
        hook_groups: true,
        skill_names: SkillNames::Punctuated,
        user_mcp_json: UserJson::Lenient,
        front_matter_line_fallback: true,
        skill_roots: crate::skills::ROOTS,
        claude_commands: true,
        claude_agents: true,
        instruction_blocks: true,
        skills_read: true,
        skill_flags_checked: true,
    },
];

/// A field of [`Profile`] that differs between the rows of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// [`Profile::imports_inlined`].
    ImportsInlined,
    /// [`Profile::path_instructions`].
    PathInstructions,
    /// [`Profile::markdown_filter`].
    MarkdownFilter,
    /// [`Profile::claude_rules`].
    ClaudeRules,
    /// [`Profile::nested_on_demand`].
    NestedOnDemand,
    /// [`Profile::mcp_files`].
    McpFiles,
    /// [`Profile::mcp_requires_args`].
    McpRequiresArgs,
    /// [`Profile::claude_hooks`].
    ClaudeHooks,
    /// [`Profile::trust_gates_hooks_and_mcp`].
    TrustGatesHooksAndMcp,
    /// [`Profile::skill_search`].
    SkillSearch,
    /// [`Profile::skill_dot_folders`].
    SkillDotFolders,
    /// [`Profile::skill_name_punctuation`].
    SkillNamePunctuation,
    /// [`Profile::hook_matchers`].
    HookMatchers,
    /// [`Profile::pre_mcp_tool_call_event`].
    PreMcpToolCallEvent,
    /// [`Profile::user_prompt_transformed_event`].
    UserPromptTransformedEvent,
    /// [`Profile::always_on_texts`].
    AlwaysOnTexts,
    /// [`Profile::mcp_schema`].
    McpSchema,
    /// [`Profile::mcp_names_checked`].
    McpNamesChecked,
    /// [`Profile::instructions_suffix_any_case`].
    InstructionsSuffixAnyCase,
    /// [`Profile::user_skill_roots`].
    UserSkillRoots,
    /// [`Profile::user_settings`].
    UserSettings,
    /// [`Profile::custom_agents_listed`].
    CustomAgentsListed,
    /// One bit of [`Profile::builtin_skills`].
    Shipped(ShippedSkill),
    /// [`Profile::cloud_agent_skill_description`].
    CloudAgentSkillDescription,
    /// [`Profile::enabled_plugins`].
    EnabledPlugins,
    /// [`Profile::enabled_plugins_read`].
    EnabledPluginsRead,
    /// [`Profile::enabled_plugins_in_config`].
    EnabledPluginsInConfig,
    /// [`Profile::enabled_plugins_in_settings`].
    EnabledPluginsInSettings,
    /// [`Profile::enabled_plugins_in_repository`].
    EnabledPluginsInRepository,
    /// [`Profile::enabled_plugins_managed`].
    EnabledPluginsManaged,
    /// [`Profile::non_utf8_instructions_skipped`].
    NonUtf8InstructionsSkipped,
    /// [`Profile::non_utf8_agents_skipped`].
    NonUtf8AgentsSkipped,
    /// [`Profile::ancestor_instructions`].
    AncestorInstructions,
    /// [`Profile::named_repeats_left_out`].
    NamedRepeatsLeftOut,
    /// [`Profile::repeats_left_out_anywhere`].
    RepeatsLeftOutAnywhere,
    /// [`Profile::instruction_names_any_case`].
    InstructionNamesAnyCase,
    /// [`Profile::user_hooks_folder`].
    UserHooksFolder,
    /// [`Profile::user_settings_hooks`].
    UserSettingsHooks,
    /// [`Profile::disable_all_hooks`].
    DisableAllHooks,
    /// [`Profile::hook_groups`].
    HookGroups,
    /// [`Profile::skill_names`].
    SkillNames,
    /// [`Profile::user_mcp_json`].
    UserMcpJson,
    /// [`Profile::front_matter_line_fallback`].
    FrontMatterLineFallback,
    /// [`Profile::skill_roots`].
    SkillRoots,
    /// [`Profile::claude_commands`].
    ClaudeCommands,
    /// [`Profile::claude_agents`].
    ClaudeAgents,
    /// [`Profile::instruction_blocks`].
    InstructionBlocks,
    /// [`Profile::skills_read`].
    SkillsRead,
    /// [`Profile::skill_flags_checked`].
    SkillFlagsChecked,
}

impl TableFact<Profile> for Fact {
    fn take(self, facts: &mut Profile, newer: &Profile) {
        let (f, n) = (facts, newer);
        match self {
            Fact::ImportsInlined => f.imports_inlined = n.imports_inlined,
            Fact::PathInstructions => f.path_instructions = n.path_instructions,
            Fact::MarkdownFilter => f.markdown_filter = n.markdown_filter,
            Fact::ClaudeRules => f.claude_rules = n.claude_rules,
            Fact::NestedOnDemand => f.nested_on_demand = n.nested_on_demand,
            Fact::McpFiles => f.mcp_files = n.mcp_files,
            Fact::McpRequiresArgs => f.mcp_requires_args = n.mcp_requires_args,
            Fact::ClaudeHooks => f.claude_hooks = n.claude_hooks,
            Fact::TrustGatesHooksAndMcp => {
                f.trust_gates_hooks_and_mcp = n.trust_gates_hooks_and_mcp
            }
            Fact::SkillSearch => f.skill_search = n.skill_search,
            Fact::SkillDotFolders => f.skill_dot_folders = n.skill_dot_folders,
            Fact::SkillNamePunctuation => f.skill_name_punctuation = n.skill_name_punctuation,
            Fact::HookMatchers => f.hook_matchers = n.hook_matchers,
            Fact::PreMcpToolCallEvent => f.pre_mcp_tool_call_event = n.pre_mcp_tool_call_event,
            Fact::UserPromptTransformedEvent => {
                f.user_prompt_transformed_event = n.user_prompt_transformed_event
            }
            Fact::AlwaysOnTexts => f.always_on_texts = n.always_on_texts,
            Fact::McpSchema => f.mcp_schema = n.mcp_schema,
            Fact::McpNamesChecked => f.mcp_names_checked = n.mcp_names_checked,
            Fact::InstructionsSuffixAnyCase => {
                f.instructions_suffix_any_case = n.instructions_suffix_any_case
            }
            Fact::UserSkillRoots => f.user_skill_roots = n.user_skill_roots,
            Fact::UserSettings => f.user_settings = n.user_settings,
            Fact::CustomAgentsListed => f.custom_agents_listed = n.custom_agents_listed,
            Fact::Shipped(k) => {
                f.builtin_skills = (f.builtin_skills & !k.bit()) | (n.builtin_skills & k.bit())
            }
            Fact::CloudAgentSkillDescription => {
                f.cloud_agent_skill_description = n.cloud_agent_skill_description
            }
            Fact::EnabledPlugins => f.enabled_plugins = n.enabled_plugins,
            Fact::EnabledPluginsRead => f.enabled_plugins_read = n.enabled_plugins_read,
            Fact::EnabledPluginsInConfig => {
                f.enabled_plugins_in_config = n.enabled_plugins_in_config
            }
            Fact::EnabledPluginsInSettings => {
                f.enabled_plugins_in_settings = n.enabled_plugins_in_settings
            }
            Fact::EnabledPluginsInRepository => {
                f.enabled_plugins_in_repository = n.enabled_plugins_in_repository
            }
            Fact::EnabledPluginsManaged => f.enabled_plugins_managed = n.enabled_plugins_managed,
            Fact::NonUtf8InstructionsSkipped => {
                f.non_utf8_instructions_skipped = n.non_utf8_instructions_skipped
            }
            Fact::NonUtf8AgentsSkipped => f.non_utf8_agents_skipped = n.non_utf8_agents_skipped,
            Fact::AncestorInstructions => f.ancestor_instructions = n.ancestor_instructions,
            Fact::NamedRepeatsLeftOut => f.named_repeats_left_out = n.named_repeats_left_out,
            Fact::RepeatsLeftOutAnywhere => {
                f.repeats_left_out_anywhere = n.repeats_left_out_anywhere
            }
            Fact::InstructionNamesAnyCase => {
                f.instruction_names_any_case = n.instruction_names_any_case
            }
            Fact::UserHooksFolder => f.user_hooks_folder = n.user_hooks_folder,
            Fact::UserSettingsHooks => f.user_settings_hooks = n.user_settings_hooks,
            Fact::DisableAllHooks => f.disable_all_hooks = n.disable_all_hooks,
            Fact::HookGroups => f.hook_groups = n.hook_groups,
            Fact::SkillNames => f.skill_names = n.skill_names,
            Fact::UserMcpJson => f.user_mcp_json = n.user_mcp_json,
            Fact::FrontMatterLineFallback => {
                f.front_matter_line_fallback = n.front_matter_line_fallback
            }
            Fact::SkillRoots => f.skill_roots = n.skill_roots,
            Fact::ClaudeCommands => f.claude_commands = n.claude_commands,
            Fact::ClaudeAgents => f.claude_agents = n.claude_agents,
            Fact::InstructionBlocks => f.instruction_blocks = n.instruction_blocks,
            Fact::SkillsRead => f.skills_read = n.skills_read,
            Fact::SkillFlagsChecked => f.skill_flags_checked = n.skill_flags_checked,
        }
    }
}

/// One fact's change: the newer row's value holds from release `since` on.
pub(crate) type Change = playbookdiff_model::profile::FactChange<Fact>;

/// Every fact that differs between the rows of [`TABLE`], with the first
/// release that shows the newer value, oldest first.
pub(crate) const CHANGES: &[Change] = &[
    Change {
        fact: Fact::SkillsRead,
        name: "skills_read",
        since: "0.0.370",
        summary: "Skills are read (`.github/skills` and `.claude/skills` of the git root, `~/.copilot/skills` and `~/.claude/skills`) and listed to the model by the `skill` tool.",
        evidence: "bisected (case `copilot.skills_agents_mcp`, `startup.skillsListed`): 0.0.369 lists no skill, 0.0.370 `alpha` and `gamma` (0.0.368 `index.js` holds no skill loader, no `SKILL.md`)",
    },
    Change {
        fact: Fact::CustomAgentsListed,
        name: "task_agents_listed",
        since: "0.0.376",
        summary: "The `task` tool lists the repository's custom agents to the model.",
        evidence: "bisected (case `copilot.skills_agents_mcp`, `startup.taskAgents`): the `task` tool of 0.0.372 names no custom agent, that of 0.0.376 `reviewer`; no release was published between them",
    },
    Change {
        fact: Fact::InstructionBlocks,
        name: "instruction_blocks",
        since: "0.0.388",
        summary: "Each always-on instruction file is sent as a `<custom_instruction>` block of its own, those of the launch directory too, instead of one source alone (the Copilot files, else `AGENTS.md`, else `CLAUDE.md`, else `GEMINI.md` of the git root).",
        evidence: "bisected (case `copilot.instruction_chain`): 0.0.384 sends `.github/copilot-instructions.md` alone, inlined without a block, 0.0.388 also `AGENTS.md`, `GEMINI.md` and `CLAUDE.md`, each a block (0.0.376 and 0.0.384 `index.js`, the instruction loader, returns at the first source found)",
    },
    Change {
        fact: Fact::SkillFlagsChecked,
        name: "user_invocable_checked",
        since: "0.0.389",
        summary: "A skill whose `user-invocable` or `disable-model-invocation` is not true or false is not listed.",
        evidence: "bisected (case `oracle.copilot_skill_rules`, `startup.skillsListed`): 0.0.388 lists `bad-type`, whose `user-invocable` is `\"no\"`, 0.0.389 does not (0.0.388 `index.js`, the skill schema: `name`, `description` and `allowed-tools` alone)",
    },
    Change {
        fact: Fact::NamedRepeatsLeftOut,
        name: "named_repeats_left_out",
        since: "0.0.394",
        summary: "Of `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` of one directory, a text identical to an earlier one's is not sent again.",
        evidence: "bisected (case `copilot.instruction_chain`): 0.0.390 sends the root's `GEMINI.md`, whose text is that of `AGENTS.md`, as a fourth block, 0.0.394 sends three",
    },
    Change {
        fact: Fact::ClaudeAgents,
        name: "claude_agents",
        since: "0.0.399",
        summary: "Custom agents are read from Claude Code's `.claude/agents` (and `~/.claude/agents`) too.",
        evidence: "bisected (case `copilot.skills_agents_mcp`, `startup.taskAgents`): the `task` tool of 0.0.394 lists `reviewer` of `.github/agents` alone, that of 0.0.399 also `helper` of `.claude/agents` (0.0.388 `index.js`, the agent loader: `~/.copilot/agents` and the git root's `.github/agents` only; 0.0.399 `index.js`: a second pass over `~/.claude/agents` and the `.claude/agents` folders)",
    },
    Change {
        fact: Fact::ClaudeCommands,
        name: "claude_commands",
        since: "0.0.399",
        summary: "Claude Code's commands (`.claude/commands/*.md`) are listed as skills, named by their file.",
        evidence: "bisected (case `copilot.skills_agents_mcp`, `startup.skillsListed`): the `skill` tool of 0.0.394 does not list `deploy` of `.claude/commands`, that of 0.0.399 does",
    },
    Change {
        fact: Fact::SkillRoots,
        name: "skill_roots",
        since: "0.0.401",
        summary: "Skills are read from `.agents/skills` too, between `.github/skills` and `.claude/skills`.",
        evidence: "bisected (case `copilot.skills_agents_mcp`, `startup.skillsListed`): the `skill` tool of 0.0.400 lists `alpha` and `gamma`, that of 0.0.401 also `beta` of `.agents/skills` (0.0.399 `index.js`, the skill loader: the roots `.github/skills` and `.claude/skills` alone)",
    },
    Change {
        fact: Fact::SkillNames,
        name: "skill_names",
        since: "0.0.410",
        summary: "A skill without a `name` is named by its folder, and a name may hold `.`, `_` and spaces but no longer start with `-`.",
        evidence: "bisected (case `oracle.copilot_skill_rules`): 0.0.409 lists `-lead` and neither `a.b_c` nor `no-fm-name`, whose front matter has no `name`; 0.0.410 lists those two and not `-lead`",
    },
    Change {
        fact: Fact::InstructionNamesAnyCase,
        name: "instruction_names_any_case",
        since: "0.0.411",
        summary: "`AGENTS.md`, `CLAUDE.md` and `GEMINI.md` are found in any letter case (`Agents.md`, `claude.md`).",
        evidence: "bisected (case `oracle.name_case_variants`): 0.0.410 sends no instruction block, 0.0.411 `Agents.md` and `claude.md`",
    },
    Change {
        fact: Fact::UserHooksFolder,
        name: "user_hooks_folder",
        since: "0.0.423",
        summary: "The hooks of the user's `~/.copilot/hooks/*.json` run.",
        evidence: "bisected (case `oracle.hooks_copilot_gemini.home-copilot-hooks`): 0.0.420 fires the repository's `github-prompt` and `github-session-start` only, 0.0.423 also `user-prompt` and `user-session-start` of `~/.copilot/hooks/marks.json`",
    },
    Change {
        fact: Fact::PathInstructions,
        name: "path_instructions_inlined",
        since: "1.0.6",
        summary: "Path-specific instructions are all inlined at startup, one with a specific `applyTo` after the line naming its pattern, instead of listed in a table to view.",
        evidence: "bisected (case `copilot.path_instructions`): 1.0.3 lists `src/**` and `**/*.py` in its table of files to view, 1.0.6 inlines all four files",
    },
    Change {
        fact: Fact::HookGroups,
        name: "hook_groups",
        since: "1.0.6",
        summary: "A hooks file may group handlers as Claude Code does (`{\"matcher\": ..., \"hooks\": [...]}`); before, one group refuses the whole file.",
        evidence: "bisected (case `copilot.hook_matchers.read-src-a.txt`): 1.0.3 fires no hook of `.github/hooks/matchers.json`, which holds a group, 1.0.6 fires them; no release was published between them",
    },
    Change {
        fact: Fact::DisableAllHooks,
        name: "disable_all_hooks",
        since: "1.0.6",
        summary: "`disableAllHooks: true` turns off the hooks of its own file.",
        evidence: "bisected (case `oracle.hooks_copilot_gemini.home-copilot-hooks`): 1.0.3 fires `user-off` of `~/.copilot/hooks/off.json`, which sets it, 1.0.6 does not; no release was published between them (changelog 1.0.4)",
    },
    Change {
        fact: Fact::UserSettingsHooks,
        name: "user_settings_hooks",
        since: "1.0.10",
        summary: "The hooks of the user's settings file (`~/.copilot/config.json`) run.",
        evidence: "bisected (case `oracle.hooks_copilot_gemini.home-copilot-hooks`): 1.0.7 does not fire `config-prompt`, 1.0.10 does; no release was published between them",
    },
    Change {
        fact: Fact::AncestorInstructions,
        name: "ancestor_instructions",
        since: "1.0.11",
        summary: "The instruction files of the directories between the git root and the launch directory are sent.",
        evidence: "bisected (case `copilot.instruction_chain.in-a-b`): 1.0.10 sends the files of the root and of `a/b`, 1.0.11 also `a/.github/copilot-instructions.md` and `a/AGENTS.md`",
    },
    Change {
        fact: Fact::CustomAgentsListed,
        name: "custom_agents_unlisted",
        since: "1.0.11",
        summary: "The `task` tool lists no custom agent of the repository (1.0.11 alone).",
        evidence: "bisected (case `copilot.skills_agents_mcp`): the `task` tool of 1.0.10 names `helper` and `reviewer`, that of 1.0.11 none",
    },
    Change {
        fact: Fact::UserSkillRoots,
        name: "user_agents_skills",
        since: "1.0.11",
        summary: "The user's skills are read from `~/.agents/skills` too, after `~/.copilot/skills`.",
        evidence: "bisected on the agent's code (behaviour `copilot.user-agents-skills`): 1.0.10 lacks the skill source `personal-agents`, 1.0.11 holds it (1.0.24 `app.js`: `~/.agents/skills` between `~/.copilot/skills` and `~/.claude/skills`); case `oracle.local_user_layers.home-copilot-agents-skill` recorded on both sides",
    },
    Change {
        fact: Fact::CustomAgentsListed,
        name: "custom_agents_listed",
        since: "1.0.12",
        summary: "The `task` tool lists the repository's custom agents to the model.",
        evidence: "bisected (case `copilot.skills_agents_mcp`): the `task` tool of 1.0.11 names no custom agent, that of 1.0.12 `helper` and `reviewer`",
    },
    Change {
        fact: Fact::EnabledPluginsRead,
        name: "enabled_plugins_read",
        since: "1.0.22",
        summary: "`enabledPlugins` chooses among the installed plugins.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-plugins-enabled-config`, `startup.taskAgents`): 1.0.20 lists the agent of `tools`, which `config.json`'s map leaves out, 1.0.22 does not",
    },
    Change {
        fact: Fact::Shipped(ShippedSkill::CustomizeCloudAgent),
        name: "builtin_skill_customize_cloud_agent",
        since: "1.0.24",
        summary: "The release ships the built-in skill `customize-cloud-agent`, listed to the model after the discovered skills.",
        evidence: "bisected on the agent's code (the files its executable unpacks): 1.0.22 holds no `name: customize-cloud-agent`, 1.0.24 does (1.0.11 to 1.0.20 print no `session.skills_loaded` event)",
    },
    Change {
        fact: Fact::RepeatsLeftOutAnywhere,
        name: "repeats_left_out_anywhere",
        since: "1.0.30",
        summary: "An always-on file whose text, without a byte order mark, is that of any block sent before it is not sent again; the first one is.",
        evidence: "bisected (case `oracle.copilot_user_blank_repeat.home-copilot-blank-bom`: the user's BOM and line end, then an `AGENTS.md` of a line end): 1.0.24 sends two blank blocks, 1.0.30 one, the first release after 1.0.24 that runs here (1.0.30 `app.js`, the instruction loader: one set of normalized texts over the `home`, `repo` and `model` blocks)",
    },
    Change {
        fact: Fact::PathInstructions,
        name: "path_instructions",
        since: "1.0.32",
        summary: "Path-specific instructions with a specific `applyTo` are listed at startup and injected when the agent views a matching file; the others are inlined raw.",
        evidence: "bisected (case `copilot.path_instructions`): 1.0.24 sends no table of on-demand instructions, 1.0.32 lists `src/**` and `**/*.py` (1.0.30 is published without the executable for this platform)",
    },
    Change {
        fact: Fact::EnabledPluginsInSettings,
        name: "enabled_plugins_in_settings",
        since: "1.0.32",
        summary: "`enabledPlugins` of `~/.copilot/settings.json` chooses among the installed plugins too.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-plugins-enabled-settings`, `startup.taskAgents`): 1.0.24 lists the agent of `tools`, which the map leaves out, 1.0.32 does not (1.0.30 is published without the executable for this platform)",
    },
    Change {
        fact: Fact::MarkdownFilter,
        name: "markdown_filter",
        since: "1.0.32",
        summary: "Instruction text is sent as written, not through the Markdown filter.",
        evidence: "bisected (case `oracle.copilot_markdown_filter`): 1.0.24 rewrites `.github/copilot-instructions.md` and `AGENTS.md`, 1.0.32 sends them as written (1.0.30 cannot run here)",
    },
    Change {
        fact: Fact::HookMatchers,
        name: "hook_matchers",
        since: "1.0.39",
        summary: "The matchers of the tool events filter the hooks they group.",
        evidence: "bisected (case `copilot.hook_matchers.read-src-a.txt`): a `view` call fires the `bash` hook `github-pre-bash` with 1.0.34, not with 1.0.39 (1.0.35 cannot run here; changelog 1.0.36)",
    },
    Change {
        fact: Fact::UserSkillRoots,
        name: "user_skill_roots",
        since: "1.0.39",
        summary: "The user's skills are read from `~/.copilot/skills` and `~/.agents/skills`, no longer from `~/.claude/skills`.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-skills`): 1.0.34 lists `~/.claude/skills/tidy`, 1.0.39 does not (1.0.35 cannot run here)",
    },
    Change {
        fact: Fact::CloudAgentSkillDescription,
        name: "cloud_agent_skill_description",
        since: "1.0.40",
        summary: "The description of the built-in skill `customize-cloud-agent` says when to use it (\"Use when the user mentions copilot-setup-steps, ...\").",
        evidence: "bisected on the agent's code (the files its executable unpacks): 1.0.39 lacks `Use when the user mentions copilot-setup-steps`, 1.0.40 holds it (1.0.35 cannot run here)",
    },
    Change {
        fact: Fact::InstructionsSuffixAnyCase,
        name: "instructions_suffix_any_case",
        since: "1.0.40",
        summary: "`.github/instructions` files are found by their suffix in any case (`.Instructions.md`).",
        evidence: "bisected (case `fuzz.copilot.92`): 1.0.39 inlines `lower.instructions.md` only, 1.0.40 `Upper.Instructions.md` too",
    },
    Change {
        fact: Fact::FrontMatterLineFallback,
        name: "front_matter_line_fallback",
        since: "1.0.48",
        summary: "A path-specific instruction file whose front matter is not valid YAML gives its `applyTo` from its line, and is listed for it rather than inlined whole.",
        evidence: "bisected (case `oracle.copilot_broken_front_matter.home-copilot-broken-front-matter`): 1.0.47 inlines the user's file, 1.0.48 lists it for `lib/**`",
    },
    Change {
        fact: Fact::McpRequiresArgs,
        name: "mcp_requires_args",
        since: "1.0.49",
        summary: "A local MCP server without `args` is loaded.",
        evidence: "bisected (case `copilot.skills_agents_mcp`): 1.0.48 lists none of the workspace's servers, 1.0.49 lists `no-args` with the others",
    },
    Change {
        fact: Fact::SkillSearch,
        name: "skill_search",
        since: "1.0.55",
        summary: "Skills are searched at any depth below a skill root.",
        evidence: "bisected (case `oracle.copilot_skill_rules`): 1.0.50 does not list `l1/l2/l3/l4/deep5/SKILL.md`, 1.0.55 does (1.0.52 and 1.0.54 cannot run here; changelog 1.0.55)",
    },
    Change {
        fact: Fact::SkillDotFolders,
        name: "skill_dot_folders",
        since: "1.0.55",
        summary: "A skill folder whose name starts with `.` is not listed.",
        evidence: "bisected (case `oracle.hostile_names`): 1.0.50 lists `.agents/skills/.hidden`, 1.0.55 does not",
    },
    Change {
        fact: Fact::NestedOnDemand,
        name: "nested_on_demand",
        since: "1.0.55",
        summary: "Instruction files below the launch directory are injected when the agent views a file there.",
        evidence: "bisected on the agent's code (the files its executable unpacks): 1.0.50 lacks `Apply these to any code you write here`, 1.0.55 holds it",
    },
    Change {
        fact: Fact::PreMcpToolCallEvent,
        name: "pre_mcp_tool_call_event",
        since: "1.0.55",
        summary: "A hooks file may register `preMcpToolCall`.",
        evidence: "bisected on the agent's code (the files its executable unpacks): 1.0.50 lacks `preMcpToolCall`, 1.0.55 holds it",
    },
    Change {
        fact: Fact::McpFiles,
        name: "mcp_files",
        since: "1.0.61",
        summary: "`.github/mcp.json` configures MCP servers when the directory has no `.mcp.json`.",
        evidence: "bisected (case `copilot.github_mcp_only`): 1.0.60 lists no server, 1.0.61 lists `github-only` (changelog 1.0.61)",
    },
    Change {
        fact: Fact::UserMcpJson,
        name: "user_mcp_json",
        since: "1.0.62",
        summary: "The user's `~/.copilot/mcp-config.json` is no longer read error-tolerantly: comments and trailing or missing commas pass, a cut file starts none of its servers.",
        evidence: "bisected (case `fuzz.copilot.home.8`, a file cut after its first server): 1.0.61 starts `search0`, 1.0.62 none (1.0.77 cannot run here); 1.0.62 was seen to start the servers of the rows with comments and trailing commas (cases `oracle.copilot_user_mcp_json.*`), its missing commas not observed",
    },
    Change {
        fact: Fact::AlwaysOnTexts,
        name: "always_on_texts",
        since: "1.0.64",
        summary: "Every always-on instruction file is sent, an empty or white-space-only one as an empty block of its own, but a text identical to one already sent.",
        evidence: "bisected (case `fuzz.copilot.17`, an empty `AGENTS.md`): 1.0.63 sends two instruction blocks, 1.0.64 three, the empty file one of them; the rule on repeated texts is taken to change with it (not bisected apart)",
    },
    Change {
        fact: Fact::ImportsInlined,
        name: "imports_inlined",
        since: "1.0.66",
        summary: "`@path` imports in instruction files are inlined.",
        evidence: "bisected (case `oracle.edge_import_chain`): 1.0.65 sends `AGENTS.md` and `CLAUDE.md` as written, 1.0.66 with their imports inlined (changelog 1.0.66)",
    },
    Change {
        fact: Fact::ClaudeHooks,
        name: "claude_hooks",
        since: "1.0.66",
        summary: "Claude-format hooks in `.claude/settings.json` run.",
        evidence: "bisected (case `oracle.hooks_copilot_gemini`): 1.0.65 fires the GitHub hooks only, 1.0.66 also `claude-prompt` and `claude-session-start`",
    },
    Change {
        fact: Fact::EnabledPlugins,
        name: "enabled_plugins",
        since: "1.0.71",
        summary: "`enabledPlugins` decides alone which installed plugins load (`true` loads one whose entry says `enabled: false`).",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-plugins-enabled-settings`, `skills`): 1.0.70 lists no plugin skill, 1.0.71 those of `kit` and `off`; the agents and MCP servers follow from 1.0.69 (`copilot.enabled-plugins-settings-agents`), and 1.0.55 to 1.0.70 list plugin skills unlike either profile (none of a plugin of `installedPlugins` without a map): not modelled",
    },
    Change {
        fact: Fact::UserPromptTransformedEvent,
        name: "user_prompt_transformed_event",
        since: "1.0.73",
        summary: "A hooks file may register `userPromptTransformed`.",
        evidence: "bisected on the agent's code (the files its executable unpacks): 1.0.71 lacks `userPromptTransformed`, 1.0.73 holds it",
    },
    Change {
        fact: Fact::NonUtf8AgentsSkipped,
        name: "non_utf8_agents_skipped",
        since: "1.0.75",
        summary: "A user's custom agent that is not valid UTF-8 is left out.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-non-utf8`, `startup.taskAgents`): the `task` tool of 1.0.73 lists `latin1-agent`, that of 1.0.75 does not (1.0.74 was not published)",
    },
    Change {
        fact: Fact::Shipped(ShippedSkill::GithubPrMedia),
        name: "builtin_skill_github_pr_media",
        since: "1.0.78",
        summary: "The release ships the built-in skill `github-pr-media`, listed to the model after the discovered skills.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-skills`, `builtinSkills`): 1.0.75 lists `customize-cloud-agent`, 1.0.78 also `github-pr-media` (1.0.77 is published without the executable for this platform)",
    },
    Change {
        fact: Fact::NonUtf8InstructionsSkipped,
        name: "non_utf8_instructions_skipped",
        since: "1.0.81",
        summary: "A user's instruction file that is not valid UTF-8 is left out.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-non-utf8`, `startup.instructions` and `startup.inlined`): 1.0.80 sends `~/.copilot/copilot-instructions.md` and inlines `latin1.instructions.md`, 1.0.81 neither (1.0.77 cannot run here)",
    },
    Change {
        fact: Fact::TrustGatesHooksAndMcp,
        name: "trust_gates_hooks_and_mcp",
        since: "1.0.81",
        summary: "Hooks and workspace MCP servers need the folder to be trusted in `-p` mode.",
        evidence: "bisected on the agent's code (the files its executable unpacks): 1.0.80 lacks `folder not trusted; skipping repo hooks`, 1.0.81 holds it; no run in an untrusted folder was observed, and the changelog speaks of trust for prompt mode from 1.0.49 on",
    },
    Change {
        fact: Fact::McpNamesChecked,
        name: "mcp_names_checked",
        since: "1.0.81",
        summary: "An MCP server whose name holds other characters than ASCII letters, digits, `_`, `.`, `@`, `-` and `/` starts, and no longer stops the servers of its file.",
        evidence: "bisected (case `fuzz.copilot.0`): 1.0.80 starts no server of the `.mcp.json` beside `git hub0`, 1.0.81 starts `files2` and `git hub0`",
    },
    Change {
        fact: Fact::EnabledPluginsInRepository,
        name: "enabled_plugins_in_repository",
        since: "1.0.81",
        summary: "`enabledPlugins` of the repository's settings (`.claude/settings.json`, `.github/copilot/settings.json`) chooses among the installed plugins too.",
        evidence: "bisected (case `oracle.copilot_repo_enabled_plugins.home-copilot-plugins`, `startup.taskAgents`): 1.0.80 lists the agent of `kit` alone, 1.0.81 that of `off` alone: `.claude/settings.json` maps `kit` to false and `.github/copilot/settings.json` the disabled `off` to true, both read from 1.0.81",
    },
    Change {
        fact: Fact::EnabledPluginsManaged,
        name: "enabled_plugins_managed",
        since: "1.0.81",
        summary: "`enabledPlugins` of the managed settings (`/etc/github-copilot/managed-settings.json`) chooses among the installed plugins too.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-plugins.managed-copilot-enabled-plugins`, `startup.taskAgents`): 1.0.80 lists the agent of `kit`, which the managed map sets to false, 1.0.81 that of `off`, which it sets to true",
    },
    Change {
        fact: Fact::SkillNamePunctuation,
        name: "skill_name_punctuation",
        since: "1.0.88",
        summary: "A skill name may hold `:`.",
        evidence: "bisected (case `oracle.copilot_skill_rules`): 1.0.87 does not list `ns:tool2`, 1.0.88 does",
    },
    Change {
        fact: Fact::ClaudeRules,
        name: "claude_rules",
        since: "1.0.89",
        summary: "`.claude/rules/*.md` are read as instructions; `paths` is read where `applyTo` is absent.",
        evidence: "bisected (case `oracle.name_case_variants`): 1.0.88 inlines no rule, 1.0.89 `.claude/rules/Rule.Md` (changelog 1.0.89); and (case `fuzz.copilot.home.0`) 1.0.88 does not list a user instruction file with `paths:` in the table, 1.0.89 lists it for that pattern",
    },
    Change {
        fact: Fact::McpSchema,
        name: "mcp_schema",
        since: "1.0.89",
        summary: "An MCP server entry Copilot CLI cannot start is left out alone; the other servers of its file start.",
        evidence: "bisected (case `fuzz.copilot.0`, launched in `sub/`): 1.0.88 starts no server of `sub/.mcp.json`, whose `http` entry has no `url`, 1.0.89 starts its `local`",
    },
    Change {
        fact: Fact::EnabledPluginsInConfig,
        name: "enabled_plugins_in_config",
        since: "1.0.102",
        summary: "`enabledPlugins` of `~/.copilot/config.json` is no longer read.",
        evidence: "bisected (case `oracle.local_user_layers.home-copilot-plugins-enabled-config`, `startup.taskAgents`): 1.0.92 lists the agents of `kit` and `off`, as its map says, 1.0.102 those of `kit` and `tools`, as their entries say; no release was published between them",
    },
    Change {
        fact: Fact::UserSettings,
        name: "user_settings",
        since: "1.0.102",
        summary: "The user's hooks are read from `~/.copilot/settings.json`, no longer from `~/.copilot/config.json`.",
        evidence: "bisected (case `oracle.hooks_copilot_gemini.home-copilot-hooks`): 1.0.92 fires `config-prompt` and not `settings-start`, 1.0.102 the reverse; no release was published between them (changelog 1.0.93)",
    },
];

/// The first release the adapter models: the first release of the last
/// twelve months by the agent's changelog (`copilot.window-start`,
/// `oracle/bisect/copilot.dates.json`: 0.0.366 of 2025-12-03, 0.0.368 of
/// 2025-12-10; npm's publish times do not follow the version order),
/// observed. A release published without the executable for this
/// platform runs as the JavaScript it ships on a pinned Node.js 24;
/// 1.0.10 is the first whose code reads `COPILOT_PROVIDER_BASE_URL`
/// (`copilot.provider-endpoint`), an older one reaches the recorder's
/// endpoint through the Copilot API route of its code
/// (`COPILOT_ENABLE_ALT_PROVIDERS`, `GITHUB_COPILOT_API_TOKEN`,
/// `COPILOT_API_URL`, `COPILOT_AGENT_MODEL`), and one before 0.0.376
/// (`copilot.api-token-login`) with a GitHub token variable beside
/// `COPILOT_API_URL`, which it takes as its login without asking GitHub
/// (0.0.372 `index.js`, `tryGitHubTokenLogin`; 0.0.368 asks that host's
/// GraphQL API for the user's Copilot API, which the recorder answers
/// with itself). 0.0.368 to 0.0.384 send one source of instructions
/// ([`Profile::instruction_blocks`]; 0.0.368's and 0.0.372's `index.js`
/// hold the loader of 0.0.376); 0.0.368 reads no skill
/// ([`Profile::skills_read`]). A release before this one gets its
/// profile, with a diagnostic.
pub(crate) const FIRST_MODELLED: &str = "0.0.368";

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

/// The first release of `fact`'s newer value ([`CHANGES`]), for the
/// messages that name the releases of the older one.
pub(crate) fn since(fact: Fact) -> &'static str {
    CHANGES
        .iter()
        .find(|c| c.fact == fact)
        .map_or(TABLE[TABLE.len() - 1].release, |c| c.since)
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

    /// The first modelled release, 0.0.376, 1.0.11 and every profiled
    /// version have exactly one row.
    #[test]
    fn one_row_per_profiled_version() {
        let rows: Vec<&str> = TABLE.iter().map(|p| p.release).collect();
        assert_eq!(rows[..3], [FIRST_MODELLED, "0.0.376", "1.0.11"]);
        assert_eq!(rows[3..], *crate::PROFILED_VERSIONS);
    }

    /// Each profiled release is its own row: the changes of the window
    /// turn the older row into the newer one, and none applies to the
    /// older.
    #[test]
    fn the_changes_join_the_rows() {
        for row in TABLE {
            assert_eq!(of(row.release), *row, "{}", row.release);
        }
    }

    /// Every fact that differs between the rows has a bisected change.
    #[test]
    fn every_row_is_reached_by_the_changes() {
        assert_eq!(not_reached(), Vec::<&str>::new());
    }

    /// The facts bisected last change at their first releases: the
    /// user's `~/.claude/skills` read up to 1.0.38, an empty instruction
    /// file sent from 1.0.64; the window's first release lists no custom
    /// agent, 1.0.12 does; the user's hooks come from `config.json` up to
    /// 1.0.92, from `settings.json` in 1.0.102; Claude Code's agents and
    /// commands are read from 0.0.399, `.agents/skills` from 0.0.401, the
    /// user's `~/.agents/skills` from 1.0.11; a repeat of any earlier block
    /// is left out from 1.0.30.
    #[test]
    fn bisected_boundaries() {
        let skills = |v| of(v).user_skill_roots.contains(&".claude/skills");
        assert!(skills("1.0.34") && !skills("1.0.39"));
        let agents = |v| of(v).user_skill_roots.contains(&".agents/skills");
        assert!(!agents("1.0.10") && agents("1.0.11"));
        assert!(!of("1.0.29").repeats_left_out_anywhere && of("1.0.30").repeats_left_out_anywhere);
        assert_eq!(of("1.0.63").always_on_texts, AlwaysOnTexts::PerDirectory);
        assert_eq!(of("1.0.64").always_on_texts, AlwaysOnTexts::AnyRepeat);
        assert_eq!(of("1.0.64").release, "1.0.64");
        assert_eq!(of(FIRST_MODELLED), TABLE[0]);
        assert!(!of("1.0.11").custom_agents_listed && of("1.0.12").custom_agents_listed);
        assert!(of("1.0.10").custom_agents_listed && !of(FIRST_MODELLED).custom_agents_listed);
        assert!(!of("0.0.372").custom_agents_listed && of("0.0.376").custom_agents_listed);
        assert!(!of("1.0.10").ancestor_instructions && of("1.0.11").ancestor_instructions);
        assert!(!of("0.0.410").instruction_names_any_case);
        assert!(of("0.0.411").instruction_names_any_case);
        assert_eq!(of("1.0.3").path_instructions, PathInstructions::OnDemand);
        assert_eq!(
            of("1.0.6").path_instructions,
            PathInstructions::InlinedWithPrefix
        );
        assert_eq!(
            of("1.0.24").path_instructions,
            PathInstructions::InlinedWithPrefix
        );
        assert_eq!(of("1.0.32").path_instructions, PathInstructions::OnDemand);
        assert!(!of("1.0.7").user_settings_hooks && of("1.0.10").user_settings_hooks);
        assert_eq!(of("1.0.20").release, "1.0.12");
        assert!(of("1.0.80").mcp_names_checked && !of("1.0.81").mcp_names_checked);
        assert_eq!(of("1.0.88").mcp_schema, McpSchema::WholeFile);
        assert_eq!(of("1.0.89").mcp_schema, McpSchema::PerEntry);
        assert!(!of("1.0.39").instructions_suffix_any_case);
        assert!(of("1.0.40").instructions_suffix_any_case);
        assert_eq!(of("1.0.92").user_settings, ".copilot/config.json");
        assert_eq!(of("1.0.102").user_settings, ".copilot/settings.json");
        let names = |v| -> Vec<&str> { of(v).shipped_skills().iter().map(|b| b.name).collect() };
        assert_eq!(names("1.0.22"), Vec::<&str>::new());
        assert_eq!(names("1.0.24"), ["customize-cloud-agent"]);
        assert_eq!(names("1.0.75"), ["customize-cloud-agent"]);
        assert_eq!(
            names("1.0.78"),
            ["customize-cloud-agent", "github-pr-media"]
        );
        assert_eq!(of("1.0.70").enabled_plugins, EnabledPlugins::Filter);
        assert_eq!(of("1.0.71").enabled_plugins, EnabledPlugins::Decide);
        assert!(
            !of("1.0.24").enabled_plugins_in_settings && of("1.0.32").enabled_plugins_in_settings
        );
        assert!(of("1.0.92").enabled_plugins_in_config);
        assert!(!of("1.0.20").enabled_plugins_read && of("1.0.22").enabled_plugins_read);
        assert!(!of("1.0.102").enabled_plugins_in_config);
        assert_eq!(of("1.0.61").user_mcp_json, UserJson::Tolerant);
        assert_eq!(of("1.0.62").user_mcp_json, UserJson::Lenient);
        assert!(
            !of("1.0.47").front_matter_line_fallback && of("1.0.48").front_matter_line_fallback
        );
        assert!(!of("0.0.369").skills_read && of("0.0.370").skills_read);
        assert!(!of("0.0.384").instruction_blocks && of("0.0.388").instruction_blocks);
        assert!(!of("0.0.388").skill_flags_checked && of("0.0.389").skill_flags_checked);
        assert!(!of("0.0.394").claude_agents && of("0.0.399").claude_agents);
        assert!(!of("0.0.394").claude_commands && of("0.0.399").claude_commands);
        let agents_root = |v| of(v).skill_roots.contains(&".agents/skills");
        assert!(!agents_root("0.0.400") && agents_root("0.0.401"));
        let short = |v| of(v).shipped_skills()[0].description == CLOUD_AGENT_SETUP;
        assert!(short("1.0.39") && !short("1.0.40"));
    }
}

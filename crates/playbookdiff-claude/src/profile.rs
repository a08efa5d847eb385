//! The one table of Claude Code behaviour that changed between releases.
//!
//! Each row names a behaviour, the range of releases it holds for, and its
//! evidence. Every `since` is the first release that shows the behaviour,
//! found by bisection over the published releases between the profiled
//! ones with the real agent (`scripts/oracle/bisect.py`; the probes and
//! observations are in `oracle/bisect/claude-code.json`, and the
//! registry's `bisected` test fails when a row and that file disagree), so
//! [`Profile::for_version`] models every release from [`FIRST_MODELLED`]
//! (2.0.59) to 2.1.332. The rows before 2.1.197 come from releases
//! sampled before the oldest profile (`oracle/bisect/claude-code.older.json`)
//! and bisected where they differ from it.
//! The compiler asks the profile, never the version string, so a new
//! release is one row (or one range bound) here.
//!
//! Behaviour that holds for every profiled version (`PROFILED_VERSIONS`:
//! 2.1.197 and 2.1.332) is not a row: it is simply what the adapter does,
//! checked against both releases by the recorded observations. That
//! includes the gitignore-style `paths` matcher (C1), the front-matter
//! retry (C2), `.mcp.json` from the launch directory up (C3), imports as
//! their own blocks (C5), skills named by directory (C17), and skipping a
//! `.mcp.json` entry with a `url` but no `type` alone (C24; 2.1.88 rejected
//! the whole file, which predates every profile).

use playbookdiff_model::profile::{at_least, compare_versions, ReleaseChange};
use std::cmp::Ordering;

/// A behaviour that is not the same in every Claude Code release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// `.claude/rules/**/*.md` (project and user) load as instructions.
    /// Before, a rules directory is not read at all.
    ProjectRules,
    /// Legacy commands (`.claude/commands/**/*.md`) are skills: the skill
    /// listing shows them. Before, they are left out of it.
    CommandsListedAsSkills,
    /// The skill listing shows a description as written. Before, the
    /// listing is `<available_skills>` XML in the `Skill` tool's
    /// description, and each description is followed by its source in
    /// parentheses: ` (project)` for the repository's skills and commands,
    /// ` (user)` for the user's, ` (managed)` for the managed policy's,
    /// ahead of the ` - ` and `when_to_use` (2.0.76 `cli.js`: the skill
    /// loader's description `${description} (${source})`, the listing's
    /// `${description} - ${whenToUse}`). The listing budget of those
    /// releases counts each skill's `<skill>` XML; from this release on its
    /// `- name: description` line ([`Fact::SkillListingShortensDescriptions`]).
    SkillListingWithoutSource,
    /// A `SKILL.md` that starts with a byte order mark is a skill (listed,
    /// its front matter hidden until [`Fact::FrontMatterAfterBom`]).
    /// Before, it is no skill at all.
    SkillWithBomListed,
    /// Hooks can be registered for `InstructionsLoaded`. Before, the event
    /// does not exist.
    InstructionsLoadedHookEvent,
    /// A memory file that starts with a byte order mark is sent without
    /// it. Before, the mark is the first character of the text sent.
    MemoryBomStripped,
    /// With no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` from
    /// `/` down to the launch directory, `AGENTS.md` and
    /// `.claude/AGENTS.md` load where `CLAUDE.md` would (option
    /// `instructionFiles`, default `claude-md-or-agents-md`).
    AgentsMdFallback,
    /// The skill listing shows a front-matter `name` that differs from the
    /// directory name as a display label: `- dir (name): description`.
    SkillDisplayLabel,
    /// The skill listing keeps one entry per name: a `.claude/skills` skill
    /// beats a legacy command of the same name, and a command of the
    /// launch directory beats an ancestor's (fidelity C23). Before, every
    /// one is listed.
    SkillListingOnePerName,
    /// Skill and command front-matter booleans (`disable-model-invocation`,
    /// `user-invocable`) accept, case-insensitively, `yes`/`no`, `on`/`off`
    /// and `1`/`0` besides `true`/`false`. Before, only a YAML boolean
    /// counts: under YAML 1.2, `yes` is the text "yes" and is ignored.
    LenientFrontMatterBooleans,
    /// A rule reached through a symbolic link (a linked `.md` file, a
    /// linked directory in a rules root, or a linked `.claude/rules`)
    /// loads only when the link's target lies inside the launch directory;
    /// other links are skipped. Before, every link is followed, wherever it
    /// leads.
    RuleLinksInsideCwdOnly,
    /// The skill listing shows a description on one line: the line breaks
    /// of a multi-line `description` (a YAML block scalar) become spaces.
    /// Before, the description is listed with its line breaks.
    SkillDescriptionOneLine,
    /// A `SKILL.md` that starts with a byte order mark has its front matter
    /// read. Before, the mark hides it: the skill has no metadata.
    FrontMatterAfterBom,
    /// The skill listing escapes `<` as `&lt;` and `>` as `&gt;` in a
    /// description (`&` and quotes stay as written). Before, the
    /// description is listed as written.
    SkillDescriptionEscaped,
    /// Hooks can be registered for `DirectoryAdded`. Before, the event
    /// does not exist and a hook registered for it never fires.
    DirectoryAddedHookEvent,
    /// Hooks can be registered for `PreModelSwitch` and
    /// `PostModelSwitch`. Before, those events do not exist.
    ModelSwitchHookEvents,
    /// Hooks can be registered for `PreSkillShellCommand`. Before, the
    /// event does not exist.
    PreSkillShellCommandHookEvent,
    /// Launched from a subdirectory, the git root's
    /// `.claude/settings.local.json` is read besides the launch
    /// directory's. Before, local settings are read from the launch
    /// directory only, as project settings are.
    LocalSettingsAtGitRoot,
    /// Reading a file, the nested memory loader skips a file the startup
    /// request already holds. Before, a startup file the loader reaches
    /// again is attached a second time: reading a file below the launch
    /// directory's `.claude/` attaches its `.claude/CLAUDE.md` with its
    /// imports (`fuzz.claude-code.106`), and an on-demand file's import of
    /// a startup file attaches that file (`fuzz.claude-code.34`).
    NestedSkipsStartupFiles,
    /// The skill listing's budget shortens descriptions instead of leaving
    /// skills out: every skill stays listed. 2.1.19 cuts every description
    /// longer than one equal share of 15,000 UTF-16 code units to the
    /// share less one and `…` (names only when the share is below 20;
    /// 2.1.19 `cli.js`, `u82`: 1,060 for case
    /// `claude.c30_listing_char_budget`'s fourteen skills, 367 for case
    /// `claude.c31_listing_shortened`'s forty), computed by the adapter
    /// (`crate::listing`). Later releases change the budget
    /// ([`Fact::SkillListingBudgetFromContextWindow`]) and how it is spent
    /// ([`Fact::SkillListingDropsDescriptionsByUse`]).
    /// Before, the listing takes
    /// the skills in its order while their entries, each with a line end,
    /// fit in 15,000 characters (`SLASH_COMMAND_TOOL_CHAR_BUDGET`), and
    /// leaves the first that does not and every later one out, whole,
    /// with the note `Showing N of M skills due to token limits`; no
    /// description is capped (2.0.76, 2.0.77 and 2.1.18 `cli.js`; case
    /// `claude.c30_listing_char_budget`: 2.0.76 lists eleven of its
    /// fourteen skills, 2.0.77 to 2.1.18 twelve, 2.1.19 all fourteen).
    SkillListingShortensDescriptions,
    /// The listing's budget is 2% of the context window's characters
    /// (four a token: 16,000 for the default model's 200,000 tokens)
    /// instead of 15,000, in UTF-16 code units, shared equally by every
    /// entry, the release's own bundled skills' too; every longer
    /// description is cut to one share (computed by the adapter,
    /// `crate::listing`). Before, the budget is 15,000 UTF-16 code units
    /// ([`Fact::SkillListingShortensDescriptions`]).
    SkillListingBudgetFromContextWindow,
    /// The bundled skills' entries are listed whole first, and the rest
    /// of the budget is shared equally by the repository's skills and the
    /// release's built-in prompt commands (`init`, `review`,
    /// `security-review`; 2.1.122's `Q96`, computed by the adapter,
    /// `crate::listing`). Before, the bundled skills share the budget with
    /// the others.
    SkillListingBundledFirst,
    /// The listing's budget is 1% of the window's characters
    /// (`skillListingBudgetFraction`'s default). Before, 2%.
    SkillListingOnePercent,
    /// The listing's budget and shares are counted in terminal columns
    /// (2.1.122's `O8`): a CJK character counts two. Before, in UTF-16
    /// code units.
    SkillListingInColumns,
    /// The default model's context window is 1,000,000 tokens. Before,
    /// 200,000 (the listing budget of 2.1.122 is 8,000 characters, 1% of
    /// it at four characters a token).
    DefaultWindowMillionTokens,
    /// The listing's budget counts three characters a token of the
    /// default model. Before, four (2.1.122's `igK`, 2.1.129's `g_6`).
    SkillListingThreeCharsPerToken,
    /// Over its budget the listing keeps each description whole (up to the
    /// cap, [`Fact::SkillDescriptionCap`]) or drops it, the name staying
    /// listed: the skills most used first, then in listing order, each
    /// kept while its description fits what is left (2.1.197's `Yio` and
    /// 2.1.332's `q3n` with their usage score; computed by the adapter in
    /// `crate::listing` for a fresh installation, which has no usage).
    /// Before, every description is cut to one equal share
    /// ([`Fact::SkillListingBudgetFromContextWindow`]).
    SkillListingDropsDescriptionsByUse,
    /// Each description of the skill listing is capped at 1,536
    /// characters (`skillListingMaxDescChars`): a longer one is cut to its
    /// first 1,535 and `…`. Before, no description is capped (the
    /// installed package lacks the setting's name).
    SkillDescriptionCap,
    /// Each description of the skill listing is capped at 250 characters
    /// (`MAX_LISTING_DESC_CHARS`, 2.1.97 `cli.js`), until
    /// [`Fact::SkillDescriptionCap`] raises it to 1,536. Before, no
    /// description is capped.
    SkillDescriptionShortCap,
    /// A memory file's text is sent trimmed at both ends. Before, it keeps
    /// its trailing line end (`Root\n` for a `CLAUDE.md` that is `Root` and
    /// a line end; case `claude.c12_rule_imports`). The same release as
    /// [`Fact::MemoryBomStripped`]: JavaScript's `trim` removes a byte
    /// order mark too.
    MemoryTextTrimmed,
    /// The rules of a `.claude/rules` root are taken in the order the file
    /// system lists the directory, which the analysis cannot know. Before,
    /// in path order (case `claude.c04_above_root_links`: `above.md`
    /// before `linked.md`, whose directory lists `linked.md` first).
    RulesInListingOrder,
    /// The skills of a `.claude/skills` directory are listed in the order
    /// the file system lists it. Before, by name (case
    /// `claude.c17_skill_identity`: `deploy-app`, `lint`, `review`, whose
    /// directory lists `review` first); legacy commands follow them in no
    /// fixed order (2.0.77 listed the commands of case
    /// `claude.c23_legacy_commands_as_skills` in two orders in three runs).
    SkillsInListingOrder,
    /// The skill listing is sorted by name, whatever the file system's
    /// order ([`Fact::SkillsInListingOrder`] ends), as `localeCompare`
    /// orders names, each skills directory on the launch directory's chain
    /// apart, the nearest first.
    SkillListingSorted,
}

impl Fact {
    /// The fact's name, as the bisection results name it.
    pub const fn name(self) -> &'static str {
        match self {
            Fact::ProjectRules => "ProjectRules",
            Fact::CommandsListedAsSkills => "CommandsListedAsSkills",
            Fact::SkillListingWithoutSource => "SkillListingWithoutSource",
            Fact::SkillWithBomListed => "SkillWithBomListed",
            Fact::InstructionsLoadedHookEvent => "InstructionsLoadedHookEvent",
            Fact::MemoryBomStripped => "MemoryBomStripped",
            Fact::AgentsMdFallback => "AgentsMdFallback",
            Fact::SkillDisplayLabel => "SkillDisplayLabel",
            Fact::SkillListingOnePerName => "SkillListingOnePerName",
            Fact::LenientFrontMatterBooleans => "LenientFrontMatterBooleans",
            Fact::RuleLinksInsideCwdOnly => "RuleLinksInsideCwdOnly",
            Fact::SkillDescriptionOneLine => "SkillDescriptionOneLine",
            Fact::FrontMatterAfterBom => "FrontMatterAfterBom",
            Fact::SkillDescriptionEscaped => "SkillDescriptionEscaped",
            Fact::DirectoryAddedHookEvent => "DirectoryAddedHookEvent",
            Fact::ModelSwitchHookEvents => "ModelSwitchHookEvents",
            Fact::PreSkillShellCommandHookEvent => "PreSkillShellCommandHookEvent",
            Fact::LocalSettingsAtGitRoot => "LocalSettingsAtGitRoot",
            Fact::NestedSkipsStartupFiles => "NestedSkipsStartupFiles",
            Fact::SkillListingShortensDescriptions => "SkillListingShortensDescriptions",
            Fact::SkillListingBudgetFromContextWindow => "SkillListingBudgetFromContextWindow",
            Fact::SkillListingBundledFirst => "SkillListingBundledFirst",
            Fact::SkillListingOnePercent => "SkillListingOnePercent",
            Fact::SkillListingInColumns => "SkillListingInColumns",
            Fact::DefaultWindowMillionTokens => "DefaultWindowMillionTokens",
            Fact::SkillListingThreeCharsPerToken => "SkillListingThreeCharsPerToken",
            Fact::SkillListingDropsDescriptionsByUse => "SkillListingDropsDescriptionsByUse",
            Fact::SkillDescriptionCap => "SkillDescriptionCap",
            Fact::SkillDescriptionShortCap => "SkillDescriptionShortCap",
            Fact::MemoryTextTrimmed => "MemoryTextTrimmed",
            Fact::RulesInListingOrder => "RulesInListingOrder",
            Fact::SkillsInListingOrder => "SkillsInListingOrder",
            Fact::SkillListingSorted => "SkillListingSorted",
        }
    }
}

/// One row of the table: `fact` holds from release `since` (inclusive)
/// until release `until` (exclusive; `None`: still holds); `summary` says
/// what the agent does from then on, `evidence` what shows it.
struct Row {
    fact: Fact,
    since: &'static str,
    until: Option<&'static str>,
    summary: &'static str,
    evidence: &'static str,
}

/// The behaviours that changed within the modelled window, oldest first
/// (the adapter's [`playbookdiff_adapter::Adapter::release_changes`]).
pub fn changes() -> Vec<ReleaseChange> {
    let mut out: Vec<ReleaseChange> = TABLE
        .iter()
        .map(|r| ReleaseChange {
            fact: r.fact.name(),
            since: r.since,
            summary: r.summary,
            evidence: r.evidence,
        })
        .collect();
    out.sort_by(|a, b| compare_versions(a.since, b.since));
    out
}

/// The releases at which a fact of the table stops (`until`): no
/// bisection result names such an end, so each is a boundary not
/// bisected, as the adapter's
/// [`playbookdiff_adapter::Adapter::rows_not_reached`]. A fact that
/// starts is bisected by its row's `since` (the registry's `bisected`
/// test).
pub fn not_reached() -> Vec<&'static str> {
    TABLE.iter().filter_map(|r| r.until).collect()
}

/// The first release the adapter models: the first published in the last
/// twelve months (npm publish time 2025-12-05), which the recorder runs
/// offline like every later one (`oracle/bisect/claude-code.older.json`).
/// Every release from it to the newest profiled one maps to its own
/// profile; an older one gets this one's, with a diagnostic.
pub const FIRST_MODELLED: &str = "2.0.59";

/// The first release that reads `.claude/rules` ([`Fact::ProjectRules`]);
/// the layout's rules rows start there.
pub const PROJECT_RULES_SINCE: &str = "2.0.64";

/// The first release that loads `AGENTS.md` where no `CLAUDE.md` is
/// ([`Fact::AgentsMdFallback`]); the layout's `AGENTS.md` rows start there.
pub const AGENTS_MD_FALLBACK_SINCE: &str = "2.1.281";

/// The table. Versions are Claude Code's own (`claude --version`).
const TABLE: &[Row] = &[
    Row {
        fact: Fact::ProjectRules,
        since: PROJECT_RULES_SINCE,
        until: None,
        summary: "Rules in .claude/rules load as instructions.",
        evidence: "bisected (case `claude.c04_above_root_links`): 2.0.62 sends CLAUDE.md files only, 2.0.64 also the rules of `.claude/rules` (`docs/inner-rule.md` among them)",
    },
    Row {
        fact: Fact::CommandsListedAsSkills,
        since: "2.0.73",
        until: None,
        summary: "Legacy commands in .claude/commands are listed to the model as skills.",
        evidence: "bisected (case `claude.c23_legacy_commands_as_skills`): 2.0.72 lists the `.claude/skills` skill `deploy` only, 2.0.73 also the commands `review`, `deploy` (`Deploy with the old script.`) and `frontend:component`",
    },
    Row {
        fact: Fact::SkillListingWithoutSource,
        since: "2.0.77",
        until: None,
        summary: "The skill listing shows each description as written, no longer followed by its source (` (project)`).",
        evidence: "bisected (case `claude.c17_skill_identity`): 2.0.76 lists `deploy-app` as `Ship the app to staging. (project)` in the Skill tool's `<available_skills>`, 2.0.77 as `Ship the app to staging.`",
    },
    Row {
        fact: Fact::MemoryBomStripped,
        since: "2.1.79",
        until: None,
        summary: "A memory file's byte order mark is not sent.",
        evidence: "bisected (case `compare.bom_crlf_skills`): 2.1.78 sends `CLAUDE.md` with its byte order mark as the first character, 2.1.79 without it",
    },
    Row {
        fact: Fact::SkillWithBomListed,
        since: "2.1.69",
        until: None,
        summary: "A SKILL.md that starts with a byte order mark is a skill (listed with `---` as its description until 2.1.239).",
        evidence: "bisected (case `compare.bom_crlf_skills`): 2.1.68 lists `crlf-c` only, 2.1.69 also `bom-c`, whose SKILL.md starts with a byte order mark, described as `---`",
    },
    Row {
        fact: Fact::InstructionsLoadedHookEvent,
        since: "2.1.69",
        until: None,
        summary: "Hooks can be registered for InstructionsLoaded.",
        evidence: "bisected on the agent's code: 2.1.68 lacks `InstructionsLoaded`, 2.1.69 has it (the recorder's InstructionsLoaded hook fires from 2.1.69 on, per the sampled releases)",
    },
    Row {
        fact: Fact::AgentsMdFallback,
        since: AGENTS_MD_FALLBACK_SINCE,
        until: None,
        summary: "Where no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is, from / down to the launch directory, AGENTS.md and .claude/AGENTS.md load in their place.",
        evidence: "bisected (case `claude.c16_agents_md_fallback`): the first request of 2.1.280 holds no instruction file, that of 2.1.281 the root `AGENTS.md`, its import and `.claude/AGENTS.md`; the 2.1.277 changelog and anthropics/claude-code `mods/agents-md/README.md` at tag v2.1.277 announce it earlier",
    },
    Row {
        fact: Fact::SkillDisplayLabel,
        since: "2.1.290",
        until: None,
        summary: "The skill listing shows a front-matter name that differs from the directory name as a label: `dir (name)`.",
        evidence: "bisected (case `claude.c17_skill_identity`): 2.1.289 lists `deploy-app`, 2.1.290 `deploy-app (ship)` for `.claude/skills/deploy-app` with `name: ship`",
    },
    Row {
        fact: Fact::SkillListingOnePerName,
        since: "2.1.216",
        until: None,
        summary: "The skill listing keeps one entry per name: a skill beats a legacy command of that name, the launch directory's command an ancestor's.",
        evidence: "bisected (case `claude.c23_legacy_commands_as_skills`): 2.1.215 lists both `deploy` (skill and command, `Deploy with the old script.`) and both `review` commands, 2.1.216 the skill's `deploy` and the launch directory's `review` only",
    },
    Row {
        fact: Fact::LenientFrontMatterBooleans,
        since: "2.1.218",
        until: None,
        summary: "Front-matter booleans of skills and commands accept yes/no, on/off and 1/0 besides true/false.",
        evidence: "bisected (case `claude.skill_invocation`): 2.1.217 lists the skill with `disable-model-invocation: yes` (`Booleans spelled yes/no.`), 2.1.218 keeps it from the model, as the 2.1.218 changelog quoted in anthropics/claude-code#80398 says",
    },
    Row {
        fact: Fact::RuleLinksInsideCwdOnly,
        since: "2.1.232",
        until: None,
        summary: "A rule reached through a symbolic link loads only when the link's target lies inside the launch directory.",
        evidence: "bisected (case `claude.c04_above_root_links`): 2.1.231 loads every linked rule, `shared/out-rule.md` outside the repository included, named by the link's target; 2.1.232 skips the linked rules whose target is outside the launch directory",
    },
    Row {
        fact: Fact::SkillDescriptionOneLine,
        since: "2.1.300",
        until: None,
        summary: "The skill listing shows a multi-line description on one line.",
        evidence: "bisected (case `claude.c27_skill_fields`): `description: |` with two lines is listed with its line break by 2.1.299 and as `First line. Second line.` by 2.1.300",
    },
    Row {
        fact: Fact::SkillDescriptionEscaped,
        since: "2.1.300",
        until: None,
        summary: "The skill listing escapes < and > in a description as &lt; and &gt;.",
        evidence: "bisected (case `claude.c27_skill_fields`): `description: Uses <tags> & \"quotes\" in text.` is listed as written by 2.1.299 and as `Uses &lt;tags&gt; & \"quotes\" in text.` by 2.1.300",
    },
    Row {
        fact: Fact::FrontMatterAfterBom,
        since: "2.1.239",
        until: None,
        summary: "A SKILL.md that starts with a byte order mark has its front matter read.",
        evidence: "bisected (case `compare.bom_crlf_skills`): `.claude/skills/bom-c/SKILL.md` starting with a byte order mark is listed with `---` (its first line) by 2.1.238 and with its front-matter description by 2.1.239",
    },
    Row {
        fact: Fact::DirectoryAddedHookEvent,
        since: "2.1.219",
        until: None,
        summary: "Hooks can be registered for DirectoryAdded.",
        evidence: "bisected on the agent's code (the installed package holds the event's name): 2.1.218 lacks `DirectoryAdded`, 2.1.219 has it",
    },
    Row {
        fact: Fact::ModelSwitchHookEvents,
        since: "2.1.251",
        until: None,
        summary: "Hooks can be registered for PreModelSwitch and PostModelSwitch.",
        evidence: "bisected on the agent's code: 2.1.250 lacks `PreModelSwitch` and `PostModelSwitch`, 2.1.251 has both",
    },
    Row {
        fact: Fact::PreSkillShellCommandHookEvent,
        since: "2.1.332",
        until: None,
        summary: "Hooks can be registered for PreSkillShellCommand.",
        evidence: "bisected on the agent's code: 2.1.331 lacks `PreSkillShellCommand`, 2.1.332 has it",
    },
    Row {
        fact: Fact::LocalSettingsAtGitRoot,
        since: "2.1.211",
        until: None,
        summary: "Launched from a subdirectory, the git root's .claude/settings.local.json is read besides the launch directory's.",
        evidence: "bisected (case `fuzz.claude-code.19`, launched from `vendor/sub dir`): 2.1.210 lists `search0`, which the root's `.claude/settings.local.json` names in `disabledMcpjsonServers`, 2.1.211 drops it; the 2.1.211 changelog announces it, and the settings loader of 2.1.332 adds the git root's local settings file to the launch directory's (2.1.197 joins the launch directory only)",
    },
    Row {
        fact: Fact::NestedSkipsStartupFiles,
        since: "2.1.277",
        until: None,
        summary: "Reading a file below the launch directory's .claude/ no longer attaches its .claude/CLAUDE.md, loaded at startup, a second time.",
        evidence: "bisected (case `fuzz.claude-code.106`, reading `.claude/rules/deep/Web0.md`): 2.1.276 attaches `.claude/CLAUDE.md` a second time, 2.1.277 attaches nothing; the nested loader of 2.1.197 skips only files read or attached on demand, that of 2.1.332 also a file the startup request announced with the same text",
    },
    Row {
        fact: Fact::SkillListingShortensDescriptions,
        since: "2.1.19",
        until: None,
        summary: "The skill listing's budget shortens descriptions and lists every skill; before, the skills past its 15,000 characters are left out, whole.",
        evidence: "bisected (case `claude.c30_listing_char_budget`, fourteen skills of 1,200-character descriptions): 2.1.18 lists twelve and notes `Showing 12 of 14 skills due to token limits`, 2.1.19 all fourteen, each description cut to 1,060 characters; 2.0.76 and 2.1.18 `cli.js` sum each entry's length and one until the sum passes `SLASH_COMMAND_TOOL_CHAR_BUDGET` (15000), 2.1.19's `u82` cuts every description longer than an equal share of it (case `claude.c31_listing_shortened`: 367 UTF-16 code units, a description of 367 whole, one of 368 cut)",
    },
    Row {
        fact: Fact::SkillListingBudgetFromContextWindow,
        since: "2.1.32",
        until: None,
        summary: "The skill listing's budget is 2% of the context window's characters instead of 15,000; every description is cut to one equal share of it.",
        evidence: "bisected (case `claude.c30_listing_char_budget`, fourteen skills of 1,200-character descriptions): 2.1.31 cuts each description to 1,060 characters, one share of 15,000, 2.1.32 to 1,131, one share of 16,000 (2% of a window of 200,000 tokens at four characters each; case `claude.c31_listing_shortened`: 392 code units for forty skills)",
    },
    Row {
        fact: Fact::SkillListingBundledFirst,
        since: "2.1.63",
        until: None,
        summary: "The skill listing lists the bundled skills whole first; the other descriptions share the rest of its budget.",
        evidence: "bisected (case `claude.c31_listing_shortened`, forty skills): 2.1.50 cuts every description to 381 UTF-16 code units, one share of 16,000 among its forty skills and its bundled `claude-developer-platform`, 2.1.63 to 389, 16,000 less its bundled `simplify` (95 columns) shared by forty; 2.1.51 to 2.1.59 list no skill in their first request and 2.1.61 and 2.1.62 no bundled skill (392), so 2.1.63 is the first release that can show it; 2.1.122's `Q96` and 2.1.197's `Yio` set apart the entries `source === \"bundled\"`",
    },
    Row {
        fact: Fact::SkillListingOnePercent,
        since: "2.1.86",
        until: None,
        summary: "The skill listing's budget is 1% of the context window's characters instead of 2%.",
        evidence: "bisected (case `claude.c31_listing_shortened`): 2.1.85 cuts every description to 356 UTF-16 code units (16,000 less its bundled skills' 1,412 columns, shared by forty), 2.1.86 to 169 (8,000 less 885); 2.1.122's `h5$` takes `skillListingBudgetFraction`, 0.01 by default",
    },
    Row {
        fact: Fact::SkillListingInColumns,
        since: "2.1.88",
        until: None,
        summary: "The skill listing's budget is counted in terminal columns instead of UTF-16 code units: a CJK character counts two.",
        evidence: "bisected (case `claude.c31_listing_shortened`): 2.1.87 cuts its CJK description to 168 UTF-16 code units and `…`, as the others, 2.1.88 to 84 characters (168 columns); 2.1.122's `Q96` measures entries with `O8` and cuts with `X7`",
    },
    Row {
        fact: Fact::DefaultWindowMillionTokens,
        since: "2.1.129",
        until: None,
        summary: "The default model's context window, which sizes the skill listing's budget, is 1,000,000 tokens instead of 200,000.",
        evidence: "bisected (case `claude.c31_listing_shortened`): 2.1.128 cuts every description to 123 columns, one share of 8,000 (1% of 200,000 tokens at four characters each) after its bundled skills, 2.1.129 keeps 35 of the forty descriptions whole under 40,000 (1% of 1,000,000 tokens at four; 200,000 tokens would keep 8); the same adjacent releases as `SkillListingDropsDescriptionsByUse`",
    },
    Row {
        fact: Fact::SkillListingThreeCharsPerToken,
        since: "2.1.139",
        until: None,
        summary: "The skill listing's budget counts three characters a token of the default model instead of four.",
        evidence: "bisected (case `claude.c31_listing_shortened`): 2.1.138 keeps 35 of the forty descriptions (40,000 columns, 1% of 1,000,000 tokens at four characters each), 2.1.139 24 (30,000, at three); 2.1.197's `GE` gives 3 for any model outside its list of older ones, 2.1.129's `g_6` 4 for every model",
    },
    Row {
        fact: Fact::SkillListingDropsDescriptionsByUse,
        since: "2.1.129",
        until: None,
        summary: "Over its budget the skill listing keeps each description whole or drops it (the name stays), most used skills first, then in listing order.",
        evidence: "bisected (case `claude.c30_listing_char_budget`, fourteen skills of 1,200-character descriptions): 2.1.128 cuts each description to 323 characters, 2.1.129 lists all fourteen whole; case `claude.c31_listing_shortened` (forty skills): 2.1.197 keeps `s01` to `s22` and `s38` to `s40` whole and lists `s23` to `s37` by name, 2.1.332 `s01` to `s21`; 2.1.197's `Yio` and 2.1.332's `q3n` spend what is left after the names, skill by skill, in order of use",
    },
    Row {
        fact: Fact::SkillDescriptionCap,
        since: "2.1.105",
        until: None,
        summary: "Each description of the skill listing is capped at 1,536 characters.",
        evidence: "bisected on the agent's code: 2.1.104 lacks `skillListingMaxDescChars`, 2.1.105 has it",
    },
    Row {
        fact: Fact::SkillDescriptionShortCap,
        since: "2.1.86",
        until: None,
        summary: "Each description of the skill listing is capped at 250 characters (1,536 from 2.1.105).",
        evidence: "bisected (case `claude.c30_listing_char_budget`, fourteen skills of 1,200-character descriptions): 2.1.85 cuts each to 1,030 characters, one share of 16,000 after its bundled skills, 2.1.86 to 250 (its share of 8,000 would be 497); 2.1.97 `cli.js` caps each description at `MAX_LISTING_DESC_CHARS` (250), in the entry whose length the budget sums too",
    },
    Row {
        fact: Fact::MemoryTextTrimmed,
        since: "2.1.79",
        until: None,
        summary: "A memory file's text is sent without its trailing line end.",
        evidence: "bisected (case `claude.c12_rule_imports`): 2.1.78 sends `CLAUDE.md` as `Root\\n`, 2.1.79 as `Root`",
    },
    Row {
        fact: Fact::RulesInListingOrder,
        since: "2.1.113",
        until: None,
        summary: "The rules of a .claude/rules directory are read in the order the file system lists them, no longer by path.",
        evidence: "bisected (case `claude.c04_above_root_links`): 2.1.112 sends `mid/.claude/rules/above.md` before `linked.md`, 2.1.113 after it, as the directory lists them",
    },
    Row {
        fact: Fact::SkillsInListingOrder,
        since: "2.1.113",
        until: None,
        summary: "The skills of a .claude/skills directory are listed in the order the file system lists them, no longer by name.",
        evidence: "bisected (case `claude.c17_skill_identity`): 2.1.112 lists `deploy-app`, `lint`, `review`, 2.1.113 `review` first, as the directory lists them",
    },
    Row {
        fact: Fact::SkillListingSorted,
        since: "2.1.154",
        until: None,
        summary: "The skill listing is sorted by name, the nearest skills directory first.",
        evidence: "bisected (case `claude.c17_skill_identity`): 2.1.153 lists `review` first, as the directory lists it, 2.1.154 `deploy-app`, `lint`, `review`; bisected too (case `claude.skill_listing_dir_order`, launched in `lib/sub`): 2.1.153 lists the nearest directory first too but `lib`'s `m-lib` before `c-lib`, as the directory lists them, 2.1.154 `lib/sub`'s, `lib`'s, then the root's skills, each by name; bisected too (case `claude.skill_listing_name_order`): 2.1.154 sorts names as `localeCompare` does (`a_b` before `a-b`, `B` after `a2`, `db_query` before `Test-Runner`), 2.1.153 not",
    },
];

/// The behaviour of one profiled Claude Code release, read from `TABLE`.
#[derive(Clone, Debug)]
pub struct Profile {
    /// The profiled version, e.g. `2.1.332`.
    pub version: String,
}

impl Profile {
    /// The profile of `version` (an entry of `PROFILED_VERSIONS`).
    pub fn for_version(version: &str) -> Self {
        Profile {
            version: version.to_string(),
        }
    }

    /// True when `fact` holds for this release.
    pub fn has(&self, fact: Fact) -> bool {
        TABLE.iter().filter(|r| r.fact == fact).any(|r| {
            at_least(&self.version, r.since)
                && r.until
                    .is_none_or(|u| compare_versions(&self.version, u) == Ordering::Less)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_has_a_row() {
        for f in [
            Fact::ProjectRules,
            Fact::CommandsListedAsSkills,
            Fact::SkillListingWithoutSource,
            Fact::SkillWithBomListed,
            Fact::InstructionsLoadedHookEvent,
            Fact::MemoryBomStripped,
            Fact::AgentsMdFallback,
            Fact::SkillDisplayLabel,
            Fact::SkillListingOnePerName,
            Fact::LenientFrontMatterBooleans,
            Fact::RuleLinksInsideCwdOnly,
            Fact::SkillDescriptionOneLine,
            Fact::FrontMatterAfterBom,
            Fact::SkillDescriptionEscaped,
            Fact::DirectoryAddedHookEvent,
            Fact::ModelSwitchHookEvents,
            Fact::PreSkillShellCommandHookEvent,
            Fact::LocalSettingsAtGitRoot,
            Fact::NestedSkipsStartupFiles,
            Fact::SkillListingShortensDescriptions,
            Fact::SkillListingBudgetFromContextWindow,
            Fact::SkillListingBundledFirst,
            Fact::SkillListingOnePercent,
            Fact::SkillListingInColumns,
            Fact::DefaultWindowMillionTokens,
            Fact::SkillListingThreeCharsPerToken,
            Fact::SkillListingDropsDescriptionsByUse,
            Fact::SkillDescriptionCap,
            Fact::SkillDescriptionShortCap,
            Fact::MemoryTextTrimmed,
            Fact::RulesInListingOrder,
            Fact::SkillsInListingOrder,
            Fact::SkillListingSorted,
        ] {
            assert!(TABLE.iter().any(|r| r.fact == f), "{f:?}");
        }
    }

    #[test]
    fn ranges_split_the_profiled_versions() {
        let old = Profile::for_version("2.1.197");
        let new = Profile::for_version("2.1.332");
        assert!(!old.has(Fact::AgentsMdFallback));
        assert!(new.has(Fact::AgentsMdFallback));
        assert!(Profile::for_version("2.1.281").has(Fact::AgentsMdFallback));
        assert!(!Profile::for_version("2.1.280").has(Fact::AgentsMdFallback));
        assert!(!old.has(Fact::SkillDisplayLabel) && new.has(Fact::SkillDisplayLabel));
        assert!(!old.has(Fact::SkillListingOnePerName) && new.has(Fact::SkillListingOnePerName));
        assert!(!old.has(Fact::LenientFrontMatterBooleans));
        assert!(new.has(Fact::LenientFrontMatterBooleans));
        assert!(Profile::for_version("2.1.218").has(Fact::LenientFrontMatterBooleans));
        assert!(!Profile::for_version("2.1.217").has(Fact::LenientFrontMatterBooleans));
        // A release between the profiled ones has the hook events of its
        // own first releases.
        let mid = Profile::for_version("2.1.230");
        assert!(mid.has(Fact::DirectoryAddedHookEvent));
        assert!(!mid.has(Fact::ModelSwitchHookEvents));
        assert!(!mid.has(Fact::PreSkillShellCommandHookEvent));
        assert!(!old.has(Fact::LocalSettingsAtGitRoot));
        assert!(new.has(Fact::LocalSettingsAtGitRoot));
        assert!(!old.has(Fact::NestedSkipsStartupFiles));
        assert!(new.has(Fact::NestedSkipsStartupFiles));
        assert!(!Profile::for_version("2.0.76").has(Fact::SkillListingWithoutSource));
        assert!(Profile::for_version("2.0.77").has(Fact::SkillListingWithoutSource));
        // The skill listing's three ways of spending its budget.
        let fit = |v: &str| crate::listing::Fit::of(&Profile::for_version(v));
        use crate::listing::Fit;
        assert_eq!(fit("2.1.18"), Fit::LeavesOut);
        assert_eq!(fit("2.1.19"), Fit::EqualShare);
        assert_eq!(fit("2.1.31"), Fit::EqualShare);
        assert_eq!(fit("2.1.32"), Fit::WindowShare);
        assert_eq!(fit("2.1.128"), Fit::WindowShare);
        // Within the window's share: bundled skills first, 1%, columns.
        for (fact, last_without, first) in [
            (Fact::SkillListingBundledFirst, "2.1.62", "2.1.63"),
            (Fact::SkillListingOnePercent, "2.1.85", "2.1.86"),
            (Fact::SkillDescriptionShortCap, "2.1.85", "2.1.86"),
            (Fact::SkillListingInColumns, "2.1.87", "2.1.88"),
            (Fact::DefaultWindowMillionTokens, "2.1.128", "2.1.129"),
            (Fact::SkillListingThreeCharsPerToken, "2.1.138", "2.1.139"),
        ] {
            assert!(!Profile::for_version(last_without).has(fact), "{fact:?}");
            assert!(Profile::for_version(first).has(fact), "{fact:?}");
        }
        assert_eq!(fit("2.1.129"), Fit::ByUse);
        assert_eq!(fit("2.1.332"), Fit::ByUse);
    }
}

//! The facts that differ between OpenCode releases, in one table keyed by
//! version range; the compilation asks [`of`] and never compares version
//! strings.
//!
//! [`TABLE`] holds the facts of the first modelled release
//! ([`FIRST_MODELLED`]), of 1.15.13 (a sampled release: the bundled skill
//! comes and goes between the others) and of the profiled release
//! ([`crate::PROFILED_VERSIONS`]); each fact that differs between two rows
//! has its own first release in [`CHANGES`], found by bisection over the
//! published releases with the real agent (`scripts/oracle/bisect.py`,
//! `oracle/bisect/opencode.json`; the registry's `bisected` test fails
//! when the two disagree), so [`of`] models every release from 1.0.152 to
//! 1.18.33: the first row's facts, each replaced by the next row's from
//! its first release on. Everything not in this table is the same in
//! every modelled release, as far as the releases sampled before 1.18.33
//! showed (`oracle/bisect/opencode.older.json`).

use playbookdiff_model::profile::{
    facts_of, BuiltinSkill, FactsMemo, ProfileRow, ReleaseChange, TableFact,
};

/// Where the release lists the skills to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkillListing {
    /// In the description of the `skill` tool only ("Invoke this tool to
    /// load a skill when a task matches one of the available skills listed
    /// below", then `<available_skills>`; `SkillTool` in the shipped code
    /// of 1.2.20).
    SkillTool,
    /// In the system prompt (`Skill.fmt(list, { verbose: true })`, the
    /// same `<available_skills>` block; shipped code of 1.2.27, seen with
    /// 1.2.27 and 1.18.33).
    SystemPrompt,
}

/// What a release does with an instruction file whose text is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EmptyFiles {
    /// It sends the file, an "Instructions from:" line and no text (seen
    /// with 1.1.34: the empty `AGENTS.md` of case
    /// `opencode.instruction_sources` is sent first).
    Sent,
    /// It leaves the file out (`Instruction.system` keeps a file only when
    /// its text is not empty; seen with 1.1.53 and 1.18.33).
    LeftOut,
}

/// What a release does with a folder of a plural name (`agents`,
/// `commands`, `plugins`, `tools`) in a configuration directory (each
/// `.opencode` from cwd up to the worktree, the user's global one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PluralFolders {
    /// It refuses to start: "Directory "agents" in .opencode is not valid.
    /// Rename the directory to "agent" or remove it. This is a common
    /// typo." (`assertValid` over `{agents,commands,plugins,tools}/` in the
    /// shipped code of 1.0.152 and 1.0.185, which read `agent/`,
    /// `command/`, `mode/` and `plugin/` only; exit 1 with case
    /// `opencode.agents_and_commands`).
    Refused,
    /// It reads `agents/`, `commands/` and `modes/` beside the singular
    /// folders (`{agent,agents}/**/*.md` in the shipped code of 1.1.11).
    Read,
}

/// How a release names an agent or command in a subfolder of a plural
/// folder (`.opencode/agents/team/helper.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PluralNesting {
    /// By its file name alone (`helper`): the shipped code of 1.1.11 takes
    /// the path below `/agent/` or `/command/` only, the singular folder,
    /// and the file name otherwise (seen with 1.1.11: `helper`,
    /// `commit`).
    FileName,
    /// By its path below the folder (`team/helper`; seen with 1.1.16 and
    /// 1.18.33).
    Path,
}

/// How a release merges the `instructions` lists of two configuration
/// layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InstructionLists {
    /// The later layer's list replaces the earlier one
    /// (`mergeConfigWithPlugins` of 1.0.185's shipped code joins `plugin`
    /// lists only; seen with 1.0.185: `.opencode/opencode.json`'s
    /// `dot-root.md` alone, the root `opencode.jsonc`'s list dropped).
    Replaced,
    /// The lists are joined without repeats (`mergeConfigConcatArrays` of
    /// 1.1.11 and later).
    Joined,
}

/// The behaviour of one range of releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The first release these facts hold for (a row of [`TABLE`] or the
    /// `since` of a change of [`CHANGES`]).
    pub release: &'static str,
    /// Where the skills are listed to the model.
    pub skill_listing: SkillListing,
    /// Whether the `task` tool's description tells the model to run custom
    /// slash commands through it ("When you are instructed to execute
    /// custom slash commands. Use the Task tool with the slash command
    /// invocation as the entire prompt."; seen with 1.2.1 and 1.14.34).
    pub task_tool_command_note: bool,
    /// Whether the release lists its bundled skill `customize-opencode` to
    /// the model beside the repository's (seen with 1.15.13; its location
    /// is not `<built-in>`, so it reads as an installed skill).
    pub bundled_customize_skill: bool,
    /// Whether the release lists its built-in skill `customize-opencode`
    /// (location `<built-in>`; `Skill.state` in 1.18.33's shipped code sets
    /// it before any discovered skill, so a user's or the project's skill
    /// of that name replaces it; seen with 1.18.33, cases
    /// `oracle.local_user_layers.home-opencode-env` and
    /// `.home-opencode-builtin-skill`).
    pub builtin_customize_skill: bool,
    /// Whether a read of a file below cwd attaches the instruction files
    /// on its way (the read tool's `loaded` metadata). The read tool of
    /// 1.1.34's shipped code returns the file and nothing more (`preview`
    /// and `truncated` its only metadata); 1.1.53 attaches them (case
    /// `opencode.fallback_levels.read-a-b-c-d-x.ts`).
    pub read_attaches_instructions: bool,
    /// What the release does with an empty instruction file.
    pub empty_files: EmptyFiles,
    /// What the release does with a folder of a plural name.
    pub plural_folders: PluralFolders,
    /// How it names an agent or command in a subfolder of a plural folder.
    pub plural_nesting: PluralNesting,
    /// Whether the release finds skills at all (1.0.185's shipped code
    /// holds no `SKILL.md` and no `skill` tool; 1.1.11 finds them).
    pub skills_found: bool,
    /// How it merges the `instructions` lists of two layers.
    pub instruction_lists: InstructionLists,
}

/// The name of the bundled skill of [`Profile::bundled_customize_skill`].
pub(crate) const BUNDLED_SKILL: &str = "customize-opencode";

impl Profile {
    /// What the analysis says about the facts of release `v` (whose
    /// profile this is) that the model receives beside the repository's
    /// items, one sentence each; none for the profiled release.
    pub(crate) fn assumptions(&self, v: &str) -> Vec<String> {
        let mut out = Vec::new();
        if self.skill_listing == SkillListing::SkillTool {
            out.push(format!("OpenCode {v} lists the skills in the description of its `skill` tool, not in the system prompt."));
        }
        if self.task_tool_command_note {
            out.push(format!("The `task` tool's description in OpenCode {v} tells the model to run custom slash commands through that tool."));
        }
        if !self.read_attaches_instructions {
            out.push(format!(
                "OpenCode {v} attaches no instruction file when the agent reads a file below cwd."
            ));
        }
        if self.empty_files == EmptyFiles::Sent {
            out.push(format!(
                "OpenCode {v} sends an empty instruction file too, with no text."
            ));
        }
        if !self.skills_found {
            out.push(format!(
                "OpenCode {v} finds no skill: it has no `skill` tool."
            ));
        }
        if self.instruction_lists == InstructionLists::Replaced {
            out.push(format!("In OpenCode {v} a later configuration file's `instructions` list replaces an earlier one's."));
        }
        if self.plural_folders == PluralFolders::Refused {
            out.push(format!("OpenCode {v} reads the singular `.opencode` folders only (`agent`, `command`, `mode`, `plugin`) and refuses to start on a plural one."));
        } else if self.plural_nesting == PluralNesting::FileName {
            out.push(format!("OpenCode {v} names an agent or command in a subfolder of `agents` or `commands` by its file name alone."));
        }
        if self.bundled_customize_skill {
            out.push(format!(
                "OpenCode {v} also lists its bundled skill `{BUNDLED_SKILL}` to the model."
            ));
        }
        out
    }
}

/// The first release the adapter models: the first published release of
/// the twelve months before 2026-12-05 (1.0.133 was the newest release on
/// 2025-12-05, and 1.0.98, the one published before 1.0.152, older still;
/// docs/fidelity.md "OpenCode"), and the first the recorder observes
/// (behaviour `opencode.runs-offline`: 1.0.98 installs the provider
/// package of the recorder's endpoint at the first request, which fails
/// offline). Within the window, the request of 1.1.27 is not observed: it
/// fetches the models.dev catalogue from its fixed address, offline in
/// vain, and stops before its first request. An older release gets this
/// one's profile, with a diagnostic.
pub(crate) const FIRST_MODELLED: &str = "1.0.152";

/// The table, oldest first. A release between two rows has the older
/// row's facts, each replaced by the newer row's from its first release in
/// [`CHANGES`] on.
const TABLE: &[Profile] = &[
    Profile {
        // The facts of 1.0.152 to 1.0.185, as the releases observed there
        // showed them (1.0.152, 1.0.162, 1.0.185); 1.1.11 reads the plural
        // folders, finds skills and joins `instructions` lists, 1.1.16
        // names a plural folder's nested files by path (1.1.16, 1.1.27,
        // 1.1.31, 1.1.34); from 1.1.53 to 1.2.20 the read attaches files
        // and empty files are left out (1.1.53, 1.1.56, 1.1.65, 1.2.1,
        // 1.2.15, 1.2.20).
        release: FIRST_MODELLED,
        skill_listing: SkillListing::SkillTool,
        task_tool_command_note: true,
        bundled_customize_skill: false,
        builtin_customize_skill: false,
        read_attaches_instructions: false,
        empty_files: EmptyFiles::Sent,
        plural_folders: PluralFolders::Refused,
        plural_nesting: PluralNesting::FileName,
        skills_found: false,
        instruction_lists: InstructionLists::Replaced,
    },
    Profile {
        release: "1.15.13",
        skill_listing: SkillListing::SystemPrompt,
        task_tool_command_note: false,
        bundled_customize_skill: true,
        builtin_customize_skill: false,
        read_attaches_instructions: true,
        empty_files: EmptyFiles::LeftOut,
        plural_folders: PluralFolders::Read,
        plural_nesting: PluralNesting::Path,
        skills_found: true,
        instruction_lists: InstructionLists::Joined,
    },
    Profile {
        release: "1.18.33",
        skill_listing: SkillListing::SystemPrompt,
        task_tool_command_note: false,
        bundled_customize_skill: false,
        builtin_customize_skill: true,
        read_attaches_instructions: true,
        empty_files: EmptyFiles::LeftOut,
        plural_folders: PluralFolders::Read,
        plural_nesting: PluralNesting::Path,
        skills_found: true,
        instruction_lists: InstructionLists::Joined,
    },
];

/// A field of [`Profile`] that differs between two rows of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// [`Profile::skill_listing`].
    SkillsInSystemPrompt,
    /// [`Profile::task_tool_command_note`].
    TaskToolCommandNote,
    /// [`Profile::bundled_customize_skill`]: the skill added.
    BundledCustomizeSkill,
    /// [`Profile::bundled_customize_skill`]: the skill gone.
    BundledCustomizeSkillGone,
    /// [`Profile::builtin_customize_skill`].
    BuiltinCustomizeSkill,
    /// [`Profile::read_attaches_instructions`].
    ReadAttachesInstructions,
    /// [`Profile::empty_files`].
    EmptyFilesLeftOut,
    /// [`Profile::plural_folders`].
    PluralFoldersRead,
    /// [`Profile::plural_nesting`].
    NestedNamesByPath,
    /// [`Profile::skills_found`].
    SkillsFound,
    /// [`Profile::instruction_lists`].
    InstructionsJoined,
}

impl TableFact<Profile> for Fact {
    fn take(self, facts: &mut Profile, newer: &Profile) {
        match self {
            Fact::SkillsInSystemPrompt => facts.skill_listing = newer.skill_listing,
            Fact::TaskToolCommandNote => {
                facts.task_tool_command_note = newer.task_tool_command_note
            }
            Fact::BundledCustomizeSkill | Fact::BundledCustomizeSkillGone => {
                facts.bundled_customize_skill = newer.bundled_customize_skill
            }
            Fact::BuiltinCustomizeSkill => {
                facts.builtin_customize_skill = newer.builtin_customize_skill
            }
            Fact::ReadAttachesInstructions => {
                facts.read_attaches_instructions = newer.read_attaches_instructions
            }
            Fact::EmptyFilesLeftOut => facts.empty_files = newer.empty_files,
            Fact::PluralFoldersRead => facts.plural_folders = newer.plural_folders,
            Fact::NestedNamesByPath => facts.plural_nesting = newer.plural_nesting,
            Fact::SkillsFound => facts.skills_found = newer.skills_found,
            Fact::InstructionsJoined => facts.instruction_lists = newer.instruction_lists,
        }
    }
}

/// One fact's change: the next row's value holds from release `since` on.
pub(crate) type Change = playbookdiff_model::profile::FactChange<Fact>;

/// Every fact that differs between two rows of [`TABLE`], with the first
/// release that shows the next row's value, oldest first.
pub(crate) const CHANGES: &[Change] = &[
    Change {
        fact: Fact::PluralFoldersRead,
        name: "PluralFoldersRead",
        since: "1.1.11",
        summary: "The plural `.opencode` folders (`agents`, `commands`, `modes`) are read; a release before refuses to start on `agents`, `commands`, `plugins` or `tools`.",
        evidence: "bisected (case `opencode.agents_and_commands`): 1.0.185 exits 1 on `.opencode/agents` (\"Directory ... is not valid\"), 1.1.11 starts (no release published between them)",
    },
    Change {
        fact: Fact::SkillsFound,
        name: "SkillsFound",
        since: "1.1.11",
        summary: "Skills are found and offered to the model.",
        evidence: "bisected (case `opencode.duplicate_skill_names`): `debug skill` of 1.0.185 lists none, that of 1.1.11 `dup` (no release published between them)",
    },
    Change {
        fact: Fact::InstructionsJoined,
        name: "InstructionsJoined",
        since: "1.1.11",
        summary: "The `instructions` lists of the configuration files are joined; before, a later file's list replaced an earlier one's.",
        evidence: "bisected (case `opencode.instruction_sources`): 1.0.185 keeps `.opencode/opencode.json`'s `dot-root.md` alone, 1.1.11 the root `opencode.jsonc`'s list too (no release published between them)",
    },
    Change {
        fact: Fact::NestedNamesByPath,
        name: "NestedNamesByPath",
        since: "1.1.16",
        summary: "An agent or command in a subfolder of `agents` or `commands` is named by its path (`team/helper`), not by its file name alone.",
        evidence: "bisected (case `opencode.agents_and_commands`): 1.1.11 names `helper` and `commit`, 1.1.16 `team/helper` and `git/commit` (no release published between them)",
    },
    Change {
        fact: Fact::EmptyFilesLeftOut,
        name: "EmptyFilesLeftOut",
        since: "1.1.53",
        summary: "An empty instruction file is left out of the request.",
        evidence: "bisected (case `opencode.instruction_sources`): 1.1.34 sends the empty `AGENTS.md` first, 1.1.53 leaves it out (no release published between them)",
    },
    Change {
        fact: Fact::ReadAttachesInstructions,
        name: "ReadAttachesInstructions",
        since: "1.1.53",
        summary: "A read of a file below cwd attaches the instruction files on its way.",
        evidence: "bisected (case `opencode.fallback_levels.read-a-b-c-d-x.ts`): the read of 1.1.34 attaches no file, that of 1.1.53 `a/b/c/AGENTS.md`, `a/b/CONTEXT.md`, `a/AGENTS.md` (no release published between them)",
    },
    Change {
        fact: Fact::SkillsInSystemPrompt,
        name: "SkillsInSystemPrompt",
        since: "1.2.27",
        summary: "The skills are listed in the system prompt instead of the `skill` tool's description.",
        evidence: "bisected (case `opencode.duplicate_skill_names`): 1.2.20 lists no skill in the system prompt (its shipped code lists them in the `skill` tool's description), 1.2.27 lists `dup` there",
    },
    Change {
        fact: Fact::TaskToolCommandNote,
        name: "TaskToolCommandNote",
        since: "1.15.3",
        summary: "The `task` tool's description no longer tells the model to run custom slash commands through it.",
        evidence: "bisected (case `opencode.agents_and_commands`): the `task` tool's description of 1.15.0 holds \"When you are instructed to execute custom slash commands\", that of 1.15.3 does not",
    },
    Change {
        fact: Fact::BundledCustomizeSkill,
        name: "BundledCustomizeSkill",
        since: "1.15.0",
        summary: "The bundled skill `customize-opencode` is listed to the model beside the repository's skills.",
        evidence: "bisected (case `opencode.duplicate_skill_names`): 1.14.41 lists `dup` at startup, 1.15.0 `customize-opencode` and `dup`",
    },
    Change {
        fact: Fact::BundledCustomizeSkillGone,
        name: "BundledCustomizeSkillGone",
        since: "1.17.18",
        summary: "The bundled skill `customize-opencode` is no longer listed to the model.",
        evidence: "bisected (case `opencode.duplicate_skill_names`): 1.17.11 lists `customize-opencode` and `dup`, 1.17.18 only `dup` (1.17.15, published without the executable for this platform, left out)",
    },
    Change {
        fact: Fact::BuiltinCustomizeSkill,
        name: "BuiltinCustomizeSkill",
        since: BUILTIN_SINCE,
        summary: "The built-in skill `customize-opencode` (location `<built-in>`) is listed to the model before the discovered skills, which replace it by name.",
        evidence: BUILTIN_EVIDENCE,
    },
];

/// The first release that shows `fact`'s newer value (its change in
/// [`CHANGES`]; every fact there has one).
pub(crate) fn since(fact: Fact) -> &'static str {
    CHANGES
        .iter()
        .find(|c| c.fact == fact)
        .map_or(FIRST_MODELLED, |c| c.since)
}

/// The first release that lists the built-in skill
/// ([`Fact::BuiltinCustomizeSkill`]).
const BUILTIN_SINCE: &str = "1.17.18";

/// How [`BUILTIN_SINCE`] was found.
const BUILTIN_EVIDENCE: &str =
    "bisected (case `oracle.local_user_layers.home-opencode-env`, `startup.builtinListed`)";

/// The built-in skill of [`Profile::builtin_customize_skill`], as
/// 1.18.33's shipped code holds it (`Skill.state`).
pub(crate) const BUILTIN_SKILL: BuiltinSkill = BuiltinSkill {
    name: BUNDLED_SKILL,
    description: "Use ONLY when the user is editing or creating opencode's own configuration: opencode.json, opencode.jsonc, files under .opencode/, or files under ~/.config/opencode/. Also use when creating or fixing opencode agents, subagents, skills, plugins, MCP servers, or permission rules. Do not use for the user's own application code, or for any project that is not configuring opencode itself.",
};

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

    /// The last row is the profiled release, and the first the window's
    /// start.
    #[test]
    fn rows_end_at_the_profiled_release() {
        assert_eq!(TABLE[0].release, FIRST_MODELLED);
        assert_eq!([TABLE[TABLE.len() - 1].release], crate::PROFILED_VERSIONS);
    }

    /// Each row is its own release's facts: the changes up to it turn the
    /// first row into it.
    #[test]
    fn the_changes_join_the_rows() {
        for row in TABLE {
            assert_eq!(of(row.release), *row, "{}", row.release);
        }
    }

    /// The bundled skill is listed from its first release to the last
    /// before it went, and by no other release.
    #[test]
    fn the_bundled_skill_comes_and_goes() {
        assert!(!of(FIRST_MODELLED).bundled_customize_skill);
        assert!(!of("1.14.41").bundled_customize_skill);
        assert!(of("1.15.0").bundled_customize_skill);
        assert!(of("1.17.11").bundled_customize_skill);
        assert!(!of("1.17.18").bundled_customize_skill);
        assert!(!of("1.18.33").bundled_customize_skill);
        assert_eq!(of("1.2.20").skill_listing, SkillListing::SkillTool);
        assert_eq!(of("1.2.27").skill_listing, SkillListing::SystemPrompt);
        assert!(of("1.18.33").assumptions("1.18.33").is_empty());
        assert_eq!(of(FIRST_MODELLED).assumptions(FIRST_MODELLED).len(), 7);
        assert_eq!(of("1.1.11").assumptions("1.1.11").len(), 5);
        assert_eq!(of("1.1.16").assumptions("1.1.16").len(), 4);
        assert_eq!(of("1.1.53").assumptions("1.1.53").len(), 2);
        let mid = of("1.16.0").assumptions("1.16.0");
        assert_eq!(mid.len(), 1);
        assert!(mid[0].contains("OpenCode 1.16.0 also lists"), "{mid:?}");
    }
}

#[cfg(test)]
mod older {
    use super::*;

    /// The read attaches files and empty files are left out from 1.1.53
    /// on; 1.1.34, the release published before it, does neither.
    #[test]
    fn the_read_and_empty_files_change_at_1_1_53() {
        let old = of("1.1.34");
        assert!(!old.read_attaches_instructions);
        assert_eq!(old.empty_files, EmptyFiles::Sent);
        let new = of("1.1.53");
        assert!(new.read_attaches_instructions);
        assert_eq!(new.empty_files, EmptyFiles::LeftOut);
        assert_eq!(since(Fact::ReadAttachesInstructions), "1.1.53");
    }

    /// Before 1.1.11 the plural folders refuse the start, no skill is
    /// found and a later `instructions` list replaces an earlier one;
    /// 1.1.11 does none of it but still names a plural folder's nested
    /// file by its name; 1.1.16 names it by its path.
    #[test]
    fn the_plural_folders_skills_and_lists_change_at_1_1_11() {
        let old = of("1.0.185");
        assert_eq!(old.plural_folders, PluralFolders::Refused);
        assert!(!old.skills_found);
        assert_eq!(old.instruction_lists, InstructionLists::Replaced);
        let mid = of("1.1.11");
        assert_eq!(mid.plural_folders, PluralFolders::Read);
        assert!(mid.skills_found);
        assert_eq!(mid.instruction_lists, InstructionLists::Joined);
        assert_eq!(mid.plural_nesting, PluralNesting::FileName);
        assert_eq!(of("1.1.16").plural_nesting, PluralNesting::Path);
        assert_eq!(of("1.0.152"), of(FIRST_MODELLED));
    }
}

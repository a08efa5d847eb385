//! The one table of Claude Code behaviour that changed between releases.
//!
//! Each row names a behaviour, the range of releases it holds for, and its
//! evidence. [`Profile::for_version`] reads the table for one profiled
//! version; the compiler asks the profile, never the version string, so a
//! new release is one row (or one range bound) here.
//!
//! Behaviour that holds for every profiled version (`PROFILED_VERSIONS`:
//! 2.1.197 and 2.1.332) is not a row: it is simply what the adapter does,
//! checked against both releases by the recorded observations. That
//! includes the gitignore-style `paths` matcher (C1), the front-matter
//! retry (C2), `.mcp.json` from the launch directory up (C3), imports as
//! their own blocks (C5), skills named by directory (C17), and skipping a
//! `.mcp.json` entry with a `url` but no `type` alone (C24; 2.1.88 rejected
//! the whole file, which predates every profile).

use playbookdiff_model::profile::{at_least, compare_versions};
use std::cmp::Ordering;

/// A behaviour that is not the same in every Claude Code release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
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
    /// Hooks can be registered for `PreModelSwitch`, `PostModelSwitch`,
    /// `DirectoryAdded` and `PreSkillShellCommand`. Before, those events
    /// do not exist and hooks registered for them never fire.
    LaterHookEvents,
}

/// One row of the table: `fact` holds from release `since` (inclusive)
/// until release `until` (exclusive; `None`: still holds), per `evidence`.
struct Row {
    fact: Fact,
    since: &'static str,
    until: Option<&'static str>,
    #[allow(dead_code)]
    evidence: &'static str,
}

/// The table. Versions are Claude Code's own (`claude --version`).
const TABLE: &[Row] = &[
    Row {
        fact: Fact::AgentsMdFallback,
        since: "2.1.277",
        until: None,
        evidence: "anthropics/claude-code `mods/agents-md/README.md` at tag v2.1.277 and the 2.1.277 changelog; \
                   observed: 2.1.332 sends AGENTS.md in the first request, 2.1.197 does not",
    },
    Row {
        fact: Fact::SkillDisplayLabel,
        since: "2.1.332",
        until: None,
        evidence: "observed: 2.1.332 lists `rev (y)` for `.claude/skills/rev` with `name: y`, 2.1.197 lists `rev`; \
                   the first release with the label is not pinned down, so the range starts where it was first seen",
    },
    Row {
        fact: Fact::SkillListingOnePerName,
        since: "2.1.332",
        until: None,
        evidence: "observed (fixture `c23_legacy_commands_as_skills`): 2.1.197 lists both `deploy` (skill and \
                   command) and both `review` commands; 2.1.332 lists the skill's `deploy` and the launch directory's \
                   `review` only; the first release that deduplicates is not pinned down",
    },
    Row {
        fact: Fact::LenientFrontMatterBooleans,
        since: "2.1.218",
        until: None,
        evidence: "2.1.218 changelog as quoted in anthropics/claude-code#80398; observed (fixture \
                   `skill_invocation`): with 2.1.332 `disable-model-invocation: yes` keeps the skill from the model, \
                   2.1.197 lists it",
    },
    Row {
        fact: Fact::RuleLinksInsideCwdOnly,
        since: "2.1.332",
        until: None,
        evidence: "observed (case `claude.c04_above_root_links`, also `.in-pkg`): 2.1.197 loads every linked rule, \
                   above the root, inside the repository and leaving it, named by the link's target; 2.1.332 loads \
                   the linked rules whose target is inside the launch directory and skips the others (launched in \
                   `pkg`, even those inside the repository); the first release that skips is not pinned down",
    },
    Row {
        fact: Fact::SkillDescriptionOneLine,
        since: "2.1.332",
        until: None,
        evidence: "observed (case `claude.c27_skill_fields`): `description: |` with two lines is listed as \
                   `First line. Second line.` by 2.1.332 and with its line break by 2.1.197; the first release that \
                   joins the lines is not pinned down",
    },
    Row {
        fact: Fact::FrontMatterAfterBom,
        since: "2.1.332",
        until: None,
        evidence: "observed (case `compare.bom_crlf_skills`): `.claude/skills/bom-c/SKILL.md` starting with a byte \
                   order mark is listed with its front-matter description by 2.1.332 and with `---` (its first line) \
                   by 2.1.197, which also leaves it out of `init.skills` as a skill without front matter; the first \
                   release that reads it is not pinned down",
    },
    Row {
        fact: Fact::LaterHookEvents,
        since: "2.1.332",
        until: None,
        evidence: "the hook event lists in the code of 2.1.332 and 2.1.197 (surfaces and guard reference): 2.1.197 \
                   lacks PreModelSwitch, PostModelSwitch, DirectoryAdded and PreSkillShellCommand; the first release \
                   that has them is not pinned down",
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
            Fact::AgentsMdFallback,
            Fact::SkillDisplayLabel,
            Fact::SkillListingOnePerName,
            Fact::LenientFrontMatterBooleans,
            Fact::RuleLinksInsideCwdOnly,
            Fact::SkillDescriptionOneLine,
            Fact::FrontMatterAfterBom,
            Fact::LaterHookEvents,
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
        assert!(Profile::for_version("2.1.277").has(Fact::AgentsMdFallback));
        assert!(!Profile::for_version("2.1.276").has(Fact::AgentsMdFallback));
        assert!(!old.has(Fact::SkillDisplayLabel) && new.has(Fact::SkillDisplayLabel));
        assert!(!old.has(Fact::SkillListingOnePerName) && new.has(Fact::SkillListingOnePerName));
        assert!(!old.has(Fact::LenientFrontMatterBooleans));
        assert!(new.has(Fact::LenientFrontMatterBooleans));
        assert!(Profile::for_version("2.1.218").has(Fact::LenientFrontMatterBooleans));
        assert!(!Profile::for_version("2.1.217").has(Fact::LenientFrontMatterBooleans));
    }
}

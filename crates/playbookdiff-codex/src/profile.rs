//! The facts that differ between Codex releases, in one table keyed by
//! version range.
//!
//! Each [`Row`] holds the facts of the releases from its `from` version
//! (inclusive) up to the next row's `from` (exclusive); [`facts_for`] picks
//! the row of a profiled version. Everything not in this table is the same
//! in every profiled release. Each fact says where it comes from: the
//! openai/codex sources (`codex-rs/...` paths) and the release's own
//! `codex debug prompt-input` output on a small repository.

use playbookdiff_model::profile::compare_versions;
use std::cmp::Ordering;

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

/// A skill bundled with a release (`$CODEX_HOME/skills/.system/<name>`),
/// installed on first start: it is listed before every repository skill
/// and takes its share of the listing budget. Only its size is kept.
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
    /// The events a hook can be registered for (`HookEventName` in
    /// openai/codex `codex-rs/hooks`, 0.171.0). The 0.142.3 row repeats
    /// the 0.171.0 list: its own was not read.
    pub hook_events: &'static [&'static str],
}

/// The hook events of 0.171.0 (its code; surfaces and guard reference).
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
    "StopFailure",
];

/// One row of the table: the facts from release `from` on.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The first release the facts hold for.
    pub from: &'static str,
    /// The facts.
    pub facts: Facts,
}

/// Bundled skills of 0.142.3 (seen in its listing with an empty
/// `CODEX_HOME`).
const BUNDLED_0_142: &[BundledSkill] = &[
    BundledSkill {
        name: "imagegen",
        description_chars: 570,
    },
    BundledSkill {
        name: "openai-docs",
        description_chars: 447,
    },
    BundledSkill {
        name: "plugin-creator",
        description_chars: 471,
    },
    BundledSkill {
        name: "skill-creator",
        description_chars: 225,
    },
    BundledSkill {
        name: "skill-installer",
        description_chars: 225,
    },
];

/// Bundled skills of 0.171.0 (seen in its listing with an empty
/// `CODEX_HOME`).
const BUNDLED_0_171: &[BundledSkill] = &[
    BundledSkill {
        name: "imagegen",
        description_chars: 570,
    },
    BundledSkill {
        name: "openai-docs",
        description_chars: 624,
    },
    BundledSkill {
        name: "skill-creator",
        description_chars: 106,
    },
    BundledSkill {
        name: "skill-installer",
        description_chars: 225,
    },
];

/// The table, oldest first. A profiled version uses the last row whose
/// `from` it reaches.
pub const TABLE: &[Row] = &[
    Row {
        from: "0.142.3",
        facts: Facts {
            default_context_window: 272_000,
            skill_paths: SkillPathStyle::Absolute,
            bundled_skills: BUNDLED_0_142,
            untrusted_drops_agents_md: false,
            fallback_names_must_be_plain: false,
            plugin_manifests: &[".codex-plugin/plugin.json", ".claude-plugin/plugin.json"],
            refusal_prints: "failed to load configuration",
            hook_events: HOOK_EVENTS_0_171,
        },
    },
    Row {
        from: "0.171.0",
        facts: Facts {
            default_context_window: 500_000,
            skill_paths: SkillPathStyle::Aliased,
            bundled_skills: BUNDLED_0_171,
            untrusted_drops_agents_md: true,
            fallback_names_must_be_plain: true,
            plugin_manifests: &[
                ".codex-plugin/plugin.json",
                ".claude-plugin/plugin.json",
                ".cursor-plugin/plugin.json",
            ],
            refusal_prints: "failed to load bootstrap configuration",
            hook_events: HOOK_EVENTS_0_171,
        },
    },
];

/// The facts for `version` (an entry of [`crate::PROFILED_VERSIONS`]);
/// a version older than every row gets the first row.
pub fn facts_for(version: &str) -> Facts {
    TABLE
        .iter()
        .rev()
        .find(|r| compare_versions(version, r.from) != Ordering::Less)
        .unwrap_or(&TABLE[0])
        .facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profiled_version_has_its_row() {
        for v in crate::PROFILED_VERSIONS {
            assert!(TABLE.iter().any(|r| r.from == *v), "{v}");
        }
        assert_eq!(facts_for("0.150.0").skill_paths, SkillPathStyle::Absolute);
        assert_eq!(facts_for("0.171.0").skill_paths, SkillPathStyle::Aliased);
        assert!(facts_for("0.200.0").untrusted_drops_agents_md);
    }
}

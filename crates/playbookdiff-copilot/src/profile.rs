//! The facts that differ between Copilot CLI releases, in one table keyed
//! by release ([`PROFILES`]); the compilation asks [`of`] and never compares
//! version strings.

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

/// The behaviour of one profiled release.
#[derive(Debug)]
pub(crate) struct Profile {
    /// The release (one of [`crate::PROFILED_VERSIONS`]); with a
    /// directory, the key of what a compilation shares with the others on
    /// one `Repo` ([`playbookdiff_adapter::Compilation::memo_read`]).
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
    /// 1.0.24).
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
    /// Whether an empty or white-space-only instruction file is sent as a
    /// block of its own (1.0.102: fuzzer seeds 8, 17 and 24, an empty
    /// `AGENTS.md` and `.github/copilot-instructions.md` of `""` and
    /// `"\n"`, each an empty `<custom_instruction>`); not seen with
    /// 1.0.24, which the adapter assumes leaves it out.
    pub sends_blank_files: bool,
    /// The hook events a hooks file may register, with the Claude Code
    /// spellings taken for them ([`crate::hooks::EVENTS_1_0_24`],
    /// [`crate::hooks::EVENTS_1_0_102`]).
    pub hook_events: &'static playbookdiff_adapter::hooks::Events,
    /// The user's skill roots below the home, in the order their skills
    /// are taken, after the repository's (seen on case
    /// `oracle.local_user_layers.home-copilot-skills`: with both releases
    /// the project's `build` listed rather than the user's, and
    /// `~/.copilot/skills/lint` rather than `~/.agents/skills/lint`; 1.0.24
    /// lists `~/.claude/skills/tidy`, 1.0.102 does not read that root).
    pub user_skill_roots: &'static [&'static str],
}

/// Every profiled release and its behaviour, oldest first; the versions
/// are those of [`crate::PROFILED_VERSIONS`].
const PROFILES: &[Profile] = &[
    Profile {
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
        sends_blank_files: false,
        hook_events: &crate::hooks::EVENTS_1_0_24,
        user_skill_roots: &[".copilot/skills", ".agents/skills", ".claude/skills"],
    },
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
        sends_blank_files: true,
        hook_events: &crate::hooks::EVENTS_1_0_102,
        user_skill_roots: &[".copilot/skills", ".agents/skills"],
    },
];

/// The behaviour of profiled release `version` (one of
/// [`crate::PROFILED_VERSIONS`]; anything else gets the newest).
pub(crate) fn of(version: &str) -> &'static Profile {
    let newest = &PROFILES[PROFILES.len() - 1];
    PROFILES
        .iter()
        .find(|p| p.release == version)
        .unwrap_or(newest)
}

#[cfg(test)]
mod tests {
    /// Every profiled version has exactly one row.
    #[test]
    fn one_row_per_profiled_version() {
        let rows: Vec<&str> = super::PROFILES.iter().map(|p| p.release).collect();
        assert_eq!(rows, crate::PROFILED_VERSIONS);
    }
}

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

/// The behaviour of one profiled release.
#[derive(Debug)]
pub(crate) struct Profile {
    /// Whether `@path` imports in instruction files are inlined as
    /// `<imported_custom_instruction>` (changelog 1.0.66; seen with
    /// 1.0.102) or left as written (seen with 1.0.24).
    pub imports_inlined: bool,
    /// How path-specific instructions load.
    pub path_instructions: PathInstructions,
    /// Whether the text of a `<custom_instruction>` block is sent with
    /// `&`, `<` and `>` as HTML entities (seen with 1.0.24: `> [!NOTE]`
    /// of biomejs/biome's `AGENTS.md` arrived as `&gt; [!NOTE]`; 1.0.102
    /// sends the text as written).
    pub html_escaped: bool,
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
}

/// Every profiled release and its behaviour, oldest first; the versions
/// are those of [`crate::PROFILED_VERSIONS`].
const PROFILES: &[(&str, Profile)] = &[
    (
        "1.0.24",
        Profile {
            imports_inlined: false,
            path_instructions: PathInstructions::InlinedWithPrefix,
            html_escaped: true,
            claude_rules: false,
            nested_on_demand: false,
            mcp_files: &[".mcp.json"],
            mcp_requires_args: true,
            claude_hooks: false,
            trust_gates_hooks_and_mcp: false,
        },
    ),
    (
        "1.0.102",
        Profile {
            imports_inlined: true,
            path_instructions: PathInstructions::OnDemand,
            html_escaped: false,
            claude_rules: true,
            nested_on_demand: true,
            mcp_files: &[".mcp.json", ".github/mcp.json"],
            mcp_requires_args: false,
            claude_hooks: true,
            trust_gates_hooks_and_mcp: true,
        },
    ),
];

/// The behaviour of profiled release `version` (one of
/// [`crate::PROFILED_VERSIONS`]; anything else gets the newest).
pub(crate) fn of(version: &str) -> &'static Profile {
    let newest = &PROFILES[PROFILES.len() - 1];
    &PROFILES
        .iter()
        .find(|(v, _)| *v == version)
        .unwrap_or(newest)
        .1
}

#[cfg(test)]
mod tests {
    /// Every profiled version has exactly one row.
    #[test]
    fn one_row_per_profiled_version() {
        let rows: Vec<&str> = super::PROFILES.iter().map(|(v, _)| *v).collect();
        assert_eq!(rows, crate::PROFILED_VERSIONS);
    }
}

//! The facts that differ between Gemini CLI releases, in one table keyed
//! by release ([`PROFILES`]); the compilation asks [`of`] and never compares
//! version strings.

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

/// The behaviour of one profiled release.
#[derive(Debug)]
pub(crate) struct Profile {
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
    /// The built-in commands registered under default settings (API-key
    /// auth, a release build, checkpointing off), `/agents` apart (it
    /// comes with subagents): a workspace command of one of these names
    /// runs as `/workspace.NAME` (`BuiltinCommandLoader` and
    /// `SlashCommandResolver` in `packages/cli/src/services/`; seen with
    /// 0.61.0 and 0.34.0: `.gemini/commands/plan.toml` runs as
    /// `/workspace.plan`).
    pub builtin_commands: &'static [&'static str],
    /// What the analysis assumes about folder trust, one sentence.
    pub trust_assumption: &'static str,
    /// Whether the system settings file is skipped ("Security Warning:
    /// Skipping system settings file") unless it and every directory
    /// above it are owned by root and not writable by group or others
    /// (`isFileAndDirectorySecureSync` in 0.61.0's bundle; seen with
    /// 0.61.0: a system file below the world-writable `/tmp` was not
    /// applied). 0.34.0 reads it as it is.
    pub system_settings_secured: bool,
}

/// Every profiled release and its behaviour, oldest first; the versions
/// are those of [`crate::PROFILED_VERSIONS`].
const PROFILES: &[(&str, Profile)] = &[
    (
        "0.34.0",
        Profile {
            order: Order::ByName,
            boundary: Boundary::GitDirectoryAndParent,
            downward_max_dirs: Some(200),
            on_demand: false,
            file_name_keeps_default: false,
            agents_need_flag: true,
            builtin_commands: &[
                "about", "auth", "bug", "chat", "clear", "commands", "compress", "copy",
                "corgi", "directory", "docs", "editor", "extensions", "footer", "help",
                "hooks", "ide", "init", "mcp", "memory", "model", "plan", "policies",
                "privacy", "quit", "resume", "rewind", "settings", "setup-github", "shells",
                "shortcuts", "skills", "stats", "terminal-setup", "theme", "tools", "vim",
            ],
            trust_assumption: "Folder trust is off by default in Gemini CLI 0.34, so the workspace's settings, skills and MCP servers apply (an administrator or the user can turn folder trust on).",
            system_settings_secured: false,
        },
    ),
    (
        "0.61.0",
        Profile {
            order: Order::AbsolutePath,
            boundary: Boundary::Markers,
            downward_max_dirs: None,
            on_demand: true,
            file_name_keeps_default: true,
            agents_need_flag: false,
            builtin_commands: &[
                "about", "auth", "bug", "bug-memory", "chat", "clear", "commands", "compress",
                "copy", "corgi", "directory", "docs", "editor", "export-session", "extensions",
                "footer", "gemma", "help", "hooks", "ide", "init", "mcp", "memory", "model",
                "permissions", "plan", "policies", "privacy", "quit", "resume", "rewind",
                "settings", "setup-github", "shortcuts", "skills", "stats", "tasks",
                "terminal-setup", "theme", "tools", "vim",
            ],
            trust_assumption: "The folder is trusted: Gemini CLI 0.61 checks folder trust, an untrusted folder loses its workspace settings, skills, MCP servers and subagents, and a headless run in an untrusted folder exits with code 55.",
            system_settings_secured: true,
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

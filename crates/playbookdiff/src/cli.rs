//! The command line: clap definitions shared by every command.
//!
//! [`ContextArgs`] (REPO, `--cwd`, `--target`/`--path`, `--mode`) is
//! flattened into each command that analyses a repository, so every command
//! names its analysis context the same way.

use clap::{Args, Parser, Subcommand, ValueEnum};
use playbookdiff_model::{Harness, Mode};
use std::path::PathBuf;

const ABOUT: &str = "Show what each coding agent receives from a repository: instructions, \
skills and MCP servers, from which file and lines, and what the analysis cannot know.";

const LONG_ABOUT: &str = "Show what each coding agent receives from a repository: instructions, \
skills and MCP servers, from which file and lines, and what the analysis cannot know.

PlaybookDiff reads the repository only. It runs nothing, contacts no server and reads no \
home-directory or machine-wide configuration; what those could add is reported as diagnostics.";

const TOP_EXAMPLES: &str = "\
Examples:
  playbookdiff compile --harness claude-code
  playbookdiff compile path/to/repo --harness codex --cwd apps/api --json";

const COMPILE_EXAMPLES: &str = "\
Examples:
  # What Claude Code receives when launched at the root of the current repository
  playbookdiff compile

  # What Codex receives when launched in apps/api, as JSON
  playbookdiff compile path/to/repo --harness codex --cwd apps/api --format json

  # Also what loads once the agent touches a given file
  playbookdiff compile --cwd apps/api --target apps/api/src/main.ts

  # Include personal files present in the working tree (e.g. CLAUDE.local.md)
  playbookdiff compile --mode local

Exit status: 0 when the configuration was compiled (diagnostics never change it);
2 when the command could not be carried out (bad arguments, unreadable REPO, internal error).";

/// The `playbookdiff` command line.
#[derive(Debug, Parser)]
#[command(
    name = "playbookdiff",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = TOP_EXAMPLES,
    arg_required_else_help = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile what one harness receives from a repository under one context.
    ///
    /// Lists every instruction piece in the order the agent receives it,
    /// every skill and every MCP server, each with the file and lines it
    /// comes from and whether it applies under the given context, then the
    /// diagnostics and the assumptions the result depends on.
    #[command(after_help = COMPILE_EXAMPLES)]
    Compile(CompileArgs),
}

/// Which repository, launch directory, target and mode to analyse.
#[derive(Debug, Clone, Default, Args)]
pub struct ContextArgs {
    /// The repository root [default: the nearest ancestor of the current
    /// directory that holds `.git`, else the current directory]
    #[arg(value_name = "REPO")]
    pub repo: Option<PathBuf>,

    /// The directory the agent is launched from, relative to REPO (or
    /// absolute inside it) [default: REPO]
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,

    /// A path the agent will read or edit later, relative to REPO (or
    /// absolute inside it); it need not exist
    #[arg(long, visible_alias = "path", value_name = "PATH")]
    pub target: Option<String>,

    /// What the analysis may read
    #[arg(long, value_enum, default_value_t = ModeArg::Repo, value_name = "MODE")]
    pub mode: ModeArg,
}

/// Arguments of `playbookdiff compile`.
#[derive(Debug, Clone, Args)]
pub struct CompileArgs {
    /// The analysis context.
    #[command(flatten)]
    pub context: ContextArgs,

    /// The coding agent to compile for
    #[arg(long, value_enum, default_value_t = HarnessArg::ClaudeCode, value_name = "HARNESS")]
    pub harness: HarnessArg,

    /// Output format
    #[arg(long, value_enum, default_value_t = FormatArg::Text, value_name = "FORMAT")]
    pub format: FormatArg,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

impl CompileArgs {
    /// The output format, `--json` folded in.
    pub fn output_format(&self) -> FormatArg {
        if self.json {
            FormatArg::Json
        } else {
            self.format
        }
    }
}

/// `--harness` values, spelled as in the output contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HarnessArg {
    /// Claude Code
    #[value(name = "claude-code")]
    ClaudeCode,
    /// OpenAI Codex CLI
    #[value(name = "codex")]
    Codex,
}

impl From<HarnessArg> for Harness {
    fn from(value: HarnessArg) -> Self {
        match value {
            HarnessArg::ClaudeCode => Harness::ClaudeCode,
            HarnessArg::Codex => Harness::Codex,
        }
    }
}

/// `--mode` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ModeArg {
    /// Committed, reproducible configuration only
    #[default]
    Repo,
    /// Also personal files present in the working tree
    Local,
}

impl From<ModeArg> for Mode {
    fn from(value: ModeArg) -> Self {
        match value {
            ModeArg::Repo => Mode::Repo,
            ModeArg::Local => Mode::Local,
        }
    }
}

/// `--format` values of `compile`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// A listing for people
    Text,
    /// The JSON document described by schema/effective-agent-config.schema.json
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn json_and_path_aliases() {
        let cli =
            Cli::try_parse_from(["playbookdiff", "compile", "--path", "a/b.ts", "--json"]).unwrap();
        let Command::Compile(args) = cli.command;
        assert_eq!(args.context.target.as_deref(), Some("a/b.ts"));
        assert_eq!(args.output_format(), FormatArg::Json);
        assert_eq!(args.harness, HarnessArg::ClaudeCode);
        assert_eq!(args.context.mode, ModeArg::Repo);
    }
}

//! The command line: clap definitions shared by every command.
//!
//! [`ContextArgs`] (REPO, `--cwd`, `--target`/`--path`, `--mode`) is
//! flattened into each command that analyses a repository, so every command
//! names its analysis context the same way.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use playbookdiff_compare::FailOn;
use playbookdiff_model::{Harness, Mode, RepoPath};
use playbookdiff_registry::{ContextWindow, Inputs, TrustEntry, TrustLevel};
use playbookdiff_render::{Format, Report};
use std::num::NonZeroU64;
use std::path::PathBuf;

const ABOUT: &str = "Show what each coding agent receives from a repository: instructions, \
skills, MCP servers, hooks and permissions, from which file and lines, and what the analysis cannot know.";

const LONG_ABOUT: &str = "Show what each coding agent receives from a repository: instructions, \
skills, MCP servers, hooks and permissions, from which file and lines, and what the analysis cannot know.

The analysis only reads: it runs nothing and contacts no server. By default (--mode repo) it \
reads the repository only; --mode local also reads the user's and the machine's agent \
configuration. What it does not read is reported as diagnostics.";

const TOP_EXAMPLES: &str = "\
Without a command, shows what each harness receives from REPO side by side,
the findings, and what the analysis cannot know (exit status 0).

Examples:
  # The current repository, launched in the current directory
  playbookdiff

  # Another repository, launched in its apps/api
  playbookdiff path/to/repo --cwd apps/api

  # Findings for tools; exit status 1 when one is actionable
  playbookdiff check --format json

  # One finding: the evidence on each side and a fix
  playbookdiff explain ID

  # Every package of a monorepo
  playbookdiff check --all-dirs

  # Everything one harness receives
  playbookdiff compile --harness codex";

const CHECK_EXAMPLES: &str = "\
Examples:
  # Compare every supported harness launched at the repository root
  playbookdiff check

  # Launched in apps/api, about to edit a file, as JSON
  playbookdiff check --cwd apps/api --path apps/api/src/main.ts --json

  # Every directory holding agent configuration, as a pull-request comment
  playbookdiff check --all-dirs --format markdown

  # Annotations for GitHub, a Code Quality report for GitLab, SARIF
  playbookdiff check --format github
  playbookdiff check --all-dirs --format gitlab > gl-code-quality-report.json
  playbookdiff check --format sarif > playbookdiff.sarif

  # Accept an intended difference (recorded in playbookdiff.toml)
  playbookdiff check --accept ID --reason \"Codex-only release notes\"

playbookdiff.toml in REPO (or --config PATH) sets the harnesses, exclude
patterns, fail-on and accepted findings; see docs/ci.md.

Exit status: 0 when nothing fails the run; 1 when something does (in any
checked directory): by default a finding of severity medium or high that is
not accepted, or a problem in the repository that makes an agent drop or
refuse configuration (an error weighs as high, a warning as medium)
(--fail-on, --exit-zero); 2 when the analysis could not run (bad
arguments, bad playbookdiff.toml, unreadable REPO, internal error).";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  # A finding that `playbookdiff check --cwd apps/api` printed
  playbookdiff explain instruction:missing:codex-only:apps/api:0123456789ab \\
    --cwd apps/api

Pass the same REPO, --cwd, --target and --mode as the check that reported the
id. Exit status: 0 when the finding was explained; 2 when no finding has this
id in that context, or the analysis could not run.";

const COMPILE_EXAMPLES: &str = "\
Examples:
  # What Claude Code receives, launched in the current directory
  playbookdiff compile

  # What Codex receives when launched in apps/api, as JSON
  playbookdiff compile path/to/repo --harness codex --cwd apps/api --json

  # Also what loads once the agent touches a given file
  playbookdiff compile --cwd apps/api --target apps/api/src/main.ts

  # Include personal files present in the working tree (CLAUDE.local.md)
  playbookdiff compile --mode local

Exit status: 0 when the configuration was compiled (diagnostics never change
it); 2 when the command could not be carried out (bad arguments, unreadable
REPO, internal error).";

/// The `playbookdiff` command line.
#[derive(Debug, Parser)]
#[command(
    name = "playbookdiff",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = TOP_EXAMPLES,
    disable_help_subcommand = true,
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
    /// The command to run; without one, the side-by-side view.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The side-by-side view's options.
    #[command(flatten)]
    pub view: ViewArgs,

    /// When to colour the text output: auto (on a terminal, unless
    /// NO_COLOR is set), always, never
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto, global = true)]
    pub color: ColorArg,
}

/// `--color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum ColorArg {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR and CLICOLOR_FORCE
    /// are honoured)
    #[default]
    Auto,
    /// Always, even into a pipe or a file
    Always,
    /// Never
    Never,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compile what one harness receives from a repository under one context.
    ///
    /// Lists every instruction piece in the order the agent receives it,
    /// every skill and every MCP server, each with the file and lines it
    /// comes from and whether it applies under the given context, then the
    /// diagnostics and the assumptions the result depends on.
    #[command(after_help = COMPILE_EXAMPLES)]
    Compile(CompileArgs),

    /// Compare what several harnesses receive and report the differences.
    ///
    /// Each finding has a stable id, a type (missing, capability-gap,
    /// scope-gap, different, unknown, refused), a severity (high: an agent
    /// would not start; medium: what the model receives differs; low:
    /// cosmetic; info: undecidable) and the evidence on each side.
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),

    /// Explain one finding of `check`: the evidence on each side, why each
    /// side receives or lacks it, and what would make the harnesses agree.
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(ExplainArgs),

    /// What each agent receives differently between two revisions, and the
    /// findings that introduces, resolves or keeps.
    ///
    /// The launch directories whose received configuration can change are
    /// derived from the changed paths; each is compiled at both revisions
    /// from git objects (nothing is checked out, no hook or git process
    /// runs).
    #[command(after_help = DIFF_EXAMPLES)]
    Diff(DiffArgs),

    /// What one agent receives differently after an upgrade from release
    /// FROM to release TO, and which behaviour of the agent causes each
    /// change.
    ///
    /// Each change names the behaviour of the adapter's version table, the
    /// first release that shows it (found by bisection with the real
    /// agent) and its evidence. Exit status 1 when the model receives
    /// something different and playbookdiff.toml does not accept it.
    ///
    /// A release outside the modelled releases, or without a profile, is
    /// modelled as the nearest one, with a note. Exit status 2 when FROM
    /// and TO map to the same profile: there is nothing to compare.
    #[command(after_help = UPGRADE_EXAMPLES)]
    Upgrade(UpgradeArgs),

    /// Where each harness reads its configuration: for each profiled
    /// release, every surface kind with its paths, settings keys, expanded
    /// tokens and scopes, and whether the analysis models it.
    ///
    /// Printed from the adapters' own tables, the ones `compile` reads the
    /// repository with; no repository is read.
    #[command(after_help = LAYOUT_EXAMPLES)]
    Layout(LayoutArgs),

    /// Guard the agents' own configuration: a hook every agent calls before
    /// a tool runs, its installation, status, ledger and self-audit.
    ///
    /// `guard hook` answers the hooks of Claude Code, Codex, Gemini CLI
    /// and Copilot CLI and OpenCode's plugin: writes to any agent's
    /// configuration (the repository's, the user's and the machine's),
    /// secrets, `.git` and shell start-up files are refused, shell commands are
    /// parsed (redirections, `tee`, `cp`, `sed -i`, `bash -c` bodies...),
    /// force pushes, `--no-verify`, `sudo` and network access to hosts not
    /// allowed are refused, each with the rule and what to do instead
    /// (docs/guard.md).
    #[command(subcommand, after_help = GUARD_EXAMPLES)]
    Guard(GuardCommand),

    /// Rounds of agent work under a brief a person approved (docs/rounds.md).
    ///
    /// `round context` prints the packet an agent starts a round from: the
    /// brief whole, the files it may write and must not change, the
    /// rulings table as written, what each agent receives where the scope
    /// lies, and the documents the brief links to, inlined up to a budget
    /// of characters.
    #[command(subcommand, after_help = ROUND_EXAMPLES)]
    Round(RoundCommand),

    /// Print a shell completion script for playbookdiff.
    ///
    /// Generated from the command line's own definition (clap_complete), so
    /// it always offers the commands, options and values of this build.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),

    /// Print the manual page of playbookdiff (roff, section 1).
    ///
    /// Generated from the command line's own definition (clap_mangen).
    #[command(
        after_help = "Example:\n  playbookdiff man > playbookdiff.1 && man ./playbookdiff.1"
    )]
    Man,

    /// Serve the analysis to agents over the Model Context Protocol (stdio).
    ///
    /// Tools `compile`, `check`, `explain`, `diff` and `layout` answer with
    /// the JSON documents of `--format json`, and for rounds of work under
    /// a brief `round_context`, `round_check`, `round_escalate` and
    /// `round_audit`; the fidelity report is the resource
    /// `playbookdiff://fidelity`. Read-only but for `round_escalate`, which
    /// writes the brief's Rulings row; runs until standard input closes. See docs/mcp.md to add it to Claude Code, Codex or
    /// OpenCode.
    #[command(after_help = "Example:\n  claude mcp add playbookdiff -- playbookdiff mcp")]
    Mcp,
}

const GUARD_EXAMPLES: &str = "\
Examples:
  # What installing the guard for Claude Code in this repository would change
  playbookdiff guard install --host claude-code

  # Install it where a project cannot switch it off (as root)
  playbookdiff guard install --host claude-code --scope managed --write

  # Whether each agent is guarded, and what could switch the guard off
  playbookdiff guard status

  # The decisions of the guard, newest last
  playbookdiff guard log

Exit status: `guard hook` exits 0 with its answer in the host's protocol, or 2
(a refusal every host honours) when it cannot answer; never 1. `guard audit`
exits 1 when a rule of the baseline is gone or weaker. Otherwise 0, or 2 when
the command could not be carried out.";

const ROUND_EXAMPLES: &str = "\
Examples:
  # The packet of the brief the branch names (brief/ID, brief-ID, */brief/ID)
  playbookdiff round context

  # The packet of brief 012, as JSON
  playbookdiff round context 012 --format json

  # Ask a person for a protected file
  playbookdiff round escalate --path migrations/002.sql \\
    --reason \"the token column needs a rename\" \\
    --option \"rename the column\" --option \"add a new column\" \\
    --recommendation \"rename the column: one migration\"

  # Whether the round fixed the defect its probe shows (runs the
  # repository's code, in temporary worktrees)
  playbookdiff round probe

Which brief: ID (or --brief), else PLAYBOOKDIFF_BRIEF, else the branch
checked out, else on a detached head the branch the forge's CI names
(GITHUB_HEAD_REF, GITHUB_REF_NAME, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME,
CI_COMMIT_REF_NAME). Exit status: 0, or 2 when no brief is named, the id
names no brief, or the command could not be carried out; `round probe`
exits 1 for any verdict but fixed.";

/// The `round` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum RoundCommand {
    /// Print the context packet an agent starts a round from.
    Context(RoundContextArgs),
    /// Raise a memo (path, reason, options, recommendation) when the brief
    /// is not enough: a pending row of the brief's Rulings table, for a
    /// person to rule on.
    Escalate(RoundEscalateArgs),
    /// Rule on a row of the brief's Rulings table (allow or deny, the
    /// path, a reason); the ruling counts once committed with an SSH
    /// signature of a key the base branch's allowed signers list.
    Rule(RoundRuleArgs),
    /// List each row of the Rulings table: verified or not, and why.
    Rulings(RoundRulingsArgs),
    /// Run the brief's probe at the base and at the head: fixed, not-fixed,
    /// vacuous, flaky or invalid. THIS RUNS THE REPOSITORY'S CODE.
    ///
    /// The probe (`probe:` in the brief's front matter, or a `## Probe`
    /// section) declares a setup, a run and the defect's signature (text
    /// its output holds, an exit status). Each side is checked out in a
    /// temporary git worktree, where the setup runs once and the run
    /// `runs` times through `sh -c`, with no standard input, in a process
    /// group of its own, killed when it ends, times out or the command is
    /// interrupted; the worktrees are removed in every case. Only this
    /// command runs code: `check`, `compile` and the others never do.
    #[command(after_help = PROBE_NOTES)]
    Probe(RoundProbeArgs),
    /// Audit the round: what base..HEAD changed against the brief as the
    /// base holds it (scope, protected files and their rulings, agent
    /// configuration, dependencies, what could not be measured). Exit
    /// status 1 when the round should fail, 0 otherwise.
    Audit(RoundAuditArgs),
    /// What the guard would answer to a write of PATH under the brief:
    /// allowed, warned, asked or refused, with the rule and the reason the
    /// model would read. Writes nothing.
    Check(RoundCheckArgs),
}

const PROBE_NOTES: &str = "\
Verdicts: fixed (every base run fails with the defect's signature, every
head run passes), not-fixed (the head fails with it too), vacuous (the base
passes: the probe does not show the defect), flaky (runs on one side end
differently), invalid (a setup fails, a run times out, or a side fails
another way). The head is not run when the base decides.

Exit status: 0 fixed, 1 any other verdict, 2 when the probe cannot be run
(no brief, no probe or one that cannot be read, a revision that names no
commit) or a signal interrupted it.";

/// Arguments of `playbookdiff round probe`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundProbeArgs {
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// The revision that has the defect [default: the brief's baseBranch,
    /// else origin/baseBranch]
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// The revision that should not have it (committed state only)
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub head: String,
    /// Runs per side [default: the probe's `runs`, else 2]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(playbookdiff_round::probe::MAX_RUNS)))]
    pub runs: Option<u32>,
    /// Seconds each setup and run may take [default: the probe's
    /// `timeout`, else 120]
    #[arg(long, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=playbookdiff_round::probe::MAX_TIMEOUT_SECS))]
    pub timeout: Option<u64>,
    /// The output format
    #[arg(long, value_enum, default_value_t = RoundFormat::Text)]
    pub format: RoundFormat,
}

/// A person's ruling: allow or deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RulingArg {
    /// The round may change the path
    Allow,
    /// The round may not change the path
    Deny,
}

/// Arguments of `playbookdiff round rule`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundRuleArgs {
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// The row ruled on, by its id (`E1`)
    #[arg(long, value_name = "ROW")]
    pub row: String,
    /// The ruling
    #[arg(long, value_enum)]
    pub ruling: RulingArg,
    /// The path ruled on, relative to the repository root [default: the
    /// row's path]
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// Why; the round reads it
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
}

impl RoundCommand {
    /// Which brief and repository the subcommand works on.
    pub(crate) fn target(&self) -> &RoundBriefArgs {
        match self {
            RoundCommand::Context(a) => &a.target,
            RoundCommand::Escalate(a) => &a.target,
            RoundCommand::Rule(a) => &a.target,
            RoundCommand::Rulings(a) => &a.target,
            RoundCommand::Probe(a) => &a.target,
            RoundCommand::Audit(a) => &a.target,
            RoundCommand::Check(a) => &a.target,
        }
    }
}

/// Arguments of `playbookdiff round rulings`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundRulingsArgs {
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// The output format
    #[arg(long, value_enum, default_value_t = RoundFormat::Text)]
    pub format: RoundFormat,
}

/// Arguments of `playbookdiff round check`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundCheckArgs {
    /// The file, relative to the repository root
    #[arg(long, value_name = "PATH")]
    pub path: String,
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// The output format
    #[arg(long, value_enum, default_value_t = RoundFormat::Text)]
    pub format: RoundFormat,
}

/// Arguments of `playbookdiff round audit`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundAuditArgs {
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// What the round is measured from: a branch or commit [default: the
    /// brief's baseBranch, as a local branch, else origin's]; the audit
    /// starts at its merge base with HEAD
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// The output format
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
}

/// The formats of `round audit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AuditFormat {
    /// Text for people, 80 columns
    Text,
    /// The JSON document of schema/round-audit.schema.json
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF readers
    Sarif,
    /// GitHub Actions workflow commands: annotations on the files
    Github,
    /// A GitLab Code Quality report
    Gitlab,
}

impl AuditFormat {
    /// The render crate's format.
    pub(crate) fn format(self) -> Format {
        match self {
            AuditFormat::Text => Format::Text,
            AuditFormat::Json => Format::Json,
            AuditFormat::Sarif => Format::Sarif,
            AuditFormat::Github => Format::Github,
            AuditFormat::Gitlab => Format::Gitlab,
        }
    }
}

/// The formats of `round context` and `round rulings`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RoundFormat {
    /// Text for a person or an agent, 80 columns
    Text,
    /// The JSON document of schema/round-context.schema.json (context)
    /// or schema/round-rulings.schema.json (rulings)
    Json,
}

/// Which brief and repository a `round` subcommand works on.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundBriefArgs {
    /// The brief's id (its front matter `id`) [default: PLAYBOOKDIFF_BRIEF,
    /// else the branch]
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// The brief's id, as ID
    #[arg(long, value_name = "ID", conflicts_with = "id")]
    pub brief: Option<String>,
    /// The repository's root, taken as given [default: the git work tree
    /// of the current directory]
    #[arg(long, value_name = "REPO")]
    pub repo: Option<PathBuf>,
}

/// Arguments of `playbookdiff round escalate`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundEscalateArgs {
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// The file the brief does not let the round change, relative to the
    /// repository root
    #[arg(long, value_name = "PATH")]
    pub path: String,
    /// Why the brief is not enough
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    /// An option the person may choose; repeat for each
    #[arg(long = "option", value_name = "TEXT", required = true)]
    pub options: Vec<String>,
    /// The option recommended, and why
    #[arg(long, value_name = "TEXT")]
    pub recommendation: String,
}

/// Arguments of `playbookdiff round context`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RoundContextArgs {
    /// Which brief.
    #[command(flatten)]
    pub target: RoundBriefArgs,
    /// The output format
    #[arg(long, value_enum, default_value_t = RoundFormat::Text)]
    pub format: RoundFormat,
    /// Characters the brief and the inlined documents may hold together
    #[arg(long, value_name = "CHARS",
          default_value_t = playbookdiff_round::packet::DEFAULT_BUDGET_CHARS)]
    pub budget: usize,
    /// The inputs only the user knows: releases, context window, trust.
    #[command(flatten)]
    pub agent: AgentInputArgs,
}

/// The `guard` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum GuardCommand {
    /// Answer one hook call: reads the host's payload on standard input,
    /// writes the decision in the host's protocol.
    Hook(GuardHookArgs),
    /// Register the hook in a host's own files (a plan without --write).
    Install(GuardInstallArgs),
    /// Whether each agent is guarded, from which layer, and what can switch
    /// the guard off.
    Status(GuardRepoArgs),
    /// Show the guard's ledger of decisions.
    Log(GuardLogArgs),
    /// Print every deny rule with a fingerprint of its matchers and compare
    /// them with the committed baseline.
    Audit(GuardAuditArgs),
    /// What git's pre-commit hook runs: refuses (exit 1) a commit whose
    /// staged changes touch a file the round's brief protects without a
    /// verified ruling.
    PreCommit(GuardRepoArgs),
}

/// The values of `--host`: the guard's hosts, each a registered
/// harness (its id and product name from the registry).
fn host_parser() -> impl TypedValueParser<Value = playbookdiff_guard::Host> {
    let values = playbookdiff_guard::Host::ALL.into_iter().map(|h| {
        let name =
            playbookdiff_registry::by_id(h.id()).map_or(h.id(), |a| a.harness().display_name());
        PossibleValue::new(h.id()).help(name)
    });
    PossibleValuesParser::new(values).try_map(|id| {
        playbookdiff_guard::Host::from_id(&id).ok_or_else(|| format!("unknown host `{id}`"))
    })
}

/// Arguments of `playbookdiff guard hook`.
#[derive(Debug, Clone, Args)]
pub(crate) struct GuardHookArgs {
    /// The agent whose hook payload arrives on standard input
    #[arg(long, value_parser = host_parser())]
    pub host: playbookdiff_guard::Host,
}

/// Where `guard install` registers the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScopeArg {
    /// The repository's own files (the project can switch them off)
    Project,
    /// The user's files in the home directory (Copilot CLI:
    /// $COPILOT_HOME/hooks, by default ~/.copilot/hooks)
    User,
    /// The machine's managed files (/etc): the layer a project cannot
    /// switch off (OpenCode and Copilot CLI have none)
    Managed,
}

/// Arguments of `playbookdiff guard install`.
#[derive(Debug, Clone, Args)]
pub(crate) struct GuardInstallArgs {
    /// The agent to guard
    #[arg(long, value_parser = host_parser(), required_unless_present = "git_hook")]
    pub host: Option<playbookdiff_guard::Host>,
    /// Install git's pre-commit hook instead: it refuses a commit that
    /// changes a file the round's brief protects without a verified
    /// ruling, whoever commits (docs/rounds.md)
    #[arg(long, conflicts_with_all = ["host", "scope"])]
    pub git_hook: bool,
    /// Which of the agent's configuration layers gets the hook
    #[arg(long, value_enum, default_value = "project")]
    pub scope: ScopeArg,
    /// Change the files (without it, print the plan)
    #[arg(long)]
    pub write: bool,
    /// The executable the hook runs: `playbookdiff-guard` (run as `hook --host H`), or `playbookdiff` or a wrapper (run as `guard hook --host H`) [default: playbookdiff-guard beside this executable, else this one]
    #[arg(long, value_name = "PATH")]
    pub program: Option<PathBuf>,
    /// The repository [default: the git work tree of the current directory]
    #[arg(long, value_name = "REPO")]
    pub repo: Option<PathBuf>,
}

/// Arguments of guard commands that read one repository.
#[derive(Debug, Clone, Args)]
pub(crate) struct GuardRepoArgs {
    /// The repository [default: the git work tree of the current directory]
    #[arg(long, value_name = "REPO")]
    pub repo: Option<PathBuf>,
}

/// Arguments of `playbookdiff guard log`.
#[derive(Debug, Clone, Args)]
pub(crate) struct GuardLogArgs {
    /// The repository [default: the git work tree of the current directory]
    #[arg(long, value_name = "REPO")]
    pub repo: Option<PathBuf>,
    /// Show only the last N decisions
    #[arg(long, short = 'n', value_name = "N")]
    pub last: Option<usize>,
}

/// Arguments of `playbookdiff guard audit`.
#[derive(Debug, Clone, Args)]
pub(crate) struct GuardAuditArgs {
    /// The repository [default: the git work tree of the current directory]
    #[arg(long, value_name = "REPO")]
    pub repo: Option<PathBuf>,
    /// The baseline file [default: .playbookdiff/guard-baseline.json in REPO]
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write the current deny surface as the baseline
    #[arg(long)]
    pub write_baseline: bool,
}

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  playbookdiff completions bash \\
    > ~/.local/share/bash-completion/completions/playbookdiff

  # zsh, with fpath+=~/.zfunc in ~/.zshrc
  playbookdiff completions zsh > ~/.zfunc/_playbookdiff

  playbookdiff completions fish > ~/.config/fish/completions/playbookdiff.fish";

/// Arguments of `playbookdiff completions`.
#[derive(Debug, Clone, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

const UPGRADE_EXAMPLES: &str = "\
Examples:
  # What Claude Code 2.1.332 changes from 2.1.197, here
  playbookdiff upgrade claude-code 2.1.197..2.1.332
  # At every launch directory, as JSON
  playbookdiff upgrade codex 0.142.3..0.171.0 --all-dirs --format json
  # Accept a change (then it no longer fails the run), in playbookdiff.toml:
  #   [[accepted]]
  #   id = \"upgrade:claude-code:AgentsMdFallback\"
  #   reason = \"we want AGENTS.md read\"
";

const DIFF_EXAMPLES: &str = "\
Examples:
  # Two commits
  playbookdiff diff main..HEAD

  # A topic branch against its merge base with main
  playbookdiff diff main...topic

  # The last commit against the working tree, as JSON
  playbookdiff diff HEAD --format json

Exit status: 0 when no introduced finding fails the run; 1 when one does (not
accepted in playbookdiff.toml, and of severity medium or high, or the
--fail-on / fail-on threshold); 2 when the diff could not run (not a git
repository, unknown revision, invalid range, a bad playbookdiff.toml).";

/// Arguments of `playbookdiff diff`.
#[derive(Debug, Clone, Args)]
pub(crate) struct DiffArgs {
    /// A..B (commit A against commit B), A...B (B against its merge base
    /// with A) or REV (that commit against the working tree)
    #[arg(value_name = "RANGE")]
    pub range: String,

    /// The root of the git repository [default: the nearest ancestor of the
    /// current directory that holds `.git`]
    #[arg(value_name = "REPO")]
    pub repo: Option<PathBuf>,

    /// The harnesses to compare; repeat the option [default: all supported]
    #[arg(long, value_name = "HARNESS", value_parser = harness_parser())]
    pub harness: Vec<Harness>,

    /// The inputs only the user knows: releases, context window, trust.
    #[command(flatten)]
    pub agent: AgentInputArgs,

    /// Output format
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser(Report::Diff))]
    pub format: Format,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// The project configuration file (harnesses, agent versions,
    /// exclude, accepted findings, fail-on) [default: playbookdiff.toml in
    /// REPO]
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// The least severity of an introduced finding, not accepted, that
    /// fails the run (exit status 1) [default: fail-on in
    /// playbookdiff.toml, else medium]
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOnArg>,

    /// Exit 0 whatever the findings (as --fail-on never); 2 still means the
    /// diff could not run
    #[arg(long, conflicts_with = "fail_on")]
    pub exit_zero: bool,

    /// Print nothing unless an introduced finding fails the run
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `playbookdiff upgrade HARNESS FROM..TO [REPO]`.
#[derive(Debug, Args)]
pub(crate) struct UpgradeArgs {
    /// The harness upgraded
    #[arg(value_name = "HARNESS", value_parser = harness_parser())]
    pub harness: Harness,

    /// The release in use and the one upgraded to, as the agent prints
    /// them (e.g. 2.1.197..2.1.332)
    #[arg(value_name = "FROM..TO")]
    pub releases: String,

    /// The analysis context.
    #[command(flatten)]
    pub context: ContextArgs,

    /// Every directory that holds the harness's configuration as a launch
    /// directory (and the root), sharing one walk of the tree; --cwd is not
    /// allowed with it
    #[arg(long, conflicts_with = "cwd")]
    pub all_dirs: bool,

    /// Output format
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser(Report::Diff))]
    pub format: Format,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// The project configuration file (exclude, accepted changes)
    /// [default: playbookdiff.toml in REPO]
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Exit 0 whatever changes; 2 still means the command could not run
    #[arg(long)]
    pub exit_zero: bool,

    /// Print nothing unless a change fails the run
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl UpgradeArgs {
    /// The output format, `--json` folded in.
    pub(crate) fn output_format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }
}

impl DiffArgs {
    /// The output format, `--json` folded in.
    pub(crate) fn output_format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }
}

/// Options of the side-by-side view (no command).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ViewArgs {
    /// The analysis context.
    #[command(flatten)]
    pub context: ContextArgs,

    /// The harnesses to compare; repeat the option [default: all supported]
    #[arg(long, value_name = "HARNESS", value_parser = harness_parser())]
    pub harness: Vec<Harness>,
}

/// Arguments of `playbookdiff check`.
#[derive(Debug, Clone, Args)]
pub(crate) struct CheckArgs {
    /// The analysis context.
    #[command(flatten)]
    pub context: ContextArgs,

    /// The harnesses to compare; repeat the option [default: all supported]
    #[arg(long, value_name = "HARNESS", value_parser = harness_parser())]
    pub harness: Vec<Harness>,

    /// Check every directory that holds agent configuration as a launch
    /// directory (and the root), sharing one walk of the tree; --cwd is not
    /// allowed with it
    #[arg(long, conflicts_with = "cwd")]
    pub all_dirs: bool,

    /// Output format
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser(Report::Check))]
    pub format: Format,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// The project configuration file [default: playbookdiff.toml in REPO]
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// The least severity of a finding, not accepted, that fails the run
    /// (exit status 1) [default: fail-on in playbookdiff.toml, else medium]
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOnArg>,

    /// Exit 0 whatever the findings (as --fail-on never); 2 still means the
    /// analysis could not run
    #[arg(long, conflicts_with = "fail_on")]
    pub exit_zero: bool,

    /// Print nothing unless a finding fails the run
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Record the finding with this id as accepted in playbookdiff.toml,
    /// with --reason, and exit; the id must occur in this analysis
    #[arg(long, value_name = "FINDING_ID", requires = "reason")]
    pub accept: Option<String>,

    /// Why the finding accepted with --accept is intended
    #[arg(long, value_name = "TEXT", requires = "accept")]
    pub reason: Option<String>,
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    /// Only high findings
    High,
    /// Medium and high findings (the actionable ones)
    Medium,
    /// Every finding but info
    Low,
    /// Every finding
    Info,
    /// No finding (as --exit-zero)
    Never,
}

impl From<FailOnArg> for FailOn {
    fn from(value: FailOnArg) -> Self {
        match value {
            FailOnArg::High => FailOn::High,
            FailOnArg::Medium => FailOn::Medium,
            FailOnArg::Low => FailOn::Low,
            FailOnArg::Info => FailOn::Info,
            FailOnArg::Never => FailOn::Never,
        }
    }
}

impl CheckArgs {
    /// The output format, `--json` folded in.
    pub(crate) fn output_format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }
}

/// Arguments of `playbookdiff explain`.
#[derive(Debug, Clone, Args)]
pub(crate) struct ExplainArgs {
    /// The id of a finding, as `check` prints it
    #[arg(value_name = "FINDING_ID")]
    pub finding_id: String,

    /// The analysis context.
    #[command(flatten)]
    pub context: ContextArgs,

    /// The harnesses to compare; repeat the option [default: all supported]
    #[arg(long, value_name = "HARNESS", value_parser = harness_parser())]
    pub harness: Vec<Harness>,

    /// Output format
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser(Report::Explain))]
    pub format: Format,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// The project configuration file [default: playbookdiff.toml in REPO]
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

impl ExplainArgs {
    /// The output format, `--json` folded in.
    pub(crate) fn output_format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }
}

/// Which repository, launch directory, target and mode to analyse.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ContextArgs {
    /// The repository root [default: the nearest ancestor of the current
    /// directory that holds `.git`, else the current directory]
    #[arg(value_name = "REPO")]
    pub repo: Option<PathBuf>,

    /// The directory the agent is launched from: relative to REPO when
    /// REPO is given, else to the current directory; or absolute inside
    /// the repository [default: the current directory when REPO is not
    /// given and it lies inside the repository, else REPO]
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,

    /// Analyse REPO (or the current directory) as the repository root even
    /// when it lies inside a larger git work tree [default: a REPO inside a
    /// work tree is the launch directory within that work tree]
    #[arg(long)]
    pub root: bool,

    /// A path the agent will read or edit later, relative like --cwd (to
    /// REPO when given, else to the current directory) or absolute inside
    /// the repository; it need not exist
    #[arg(long, visible_alias = "path", value_name = "PATH")]
    pub target: Option<String>,

    /// What the analysis may read
    #[arg(long, value_enum, default_value_t = ModeArg::Repo, value_name = "MODE")]
    pub mode: ModeArg,

    /// The inputs only the user knows: releases, context window, trust.
    #[command(flatten)]
    pub agent: AgentInputArgs,

    /// Analyse this commit of REPO (HEAD, main~2, a tag or an id), read from
    /// its git objects, instead of the working tree; --cwd and --target are
    /// then paths in that commit
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,

    /// With --mode local, also read what Claude Code reads above the
    /// repository root: CLAUDE.md, .claude/CLAUDE.md, .claude/rules,
    /// CLAUDE.local.md and .mcp.json of every directory up to the
    /// filesystem root (their paths start with `..`) [default: not read,
    /// and said so]
    #[arg(long)]
    pub outside_root: bool,

    /// With --mode local, the home directory whose agent configuration is
    /// read (~/.claude, ~/.claude.json, ~/.codex, ~/.agents,
    /// ~/.config/opencode, ~/.opencode, ~/.gemini, ~/.copilot, ~/.cursor)
    /// [default: the home directory of the user running the command]
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,

    /// With --mode local, the directory that stands for `/` when the
    /// managed configuration is read (/etc/claude-code, /etc/codex,
    /// /etc/gemini-cli, /etc/github-copilot, /etc/opencode), e.g. a copy of
    /// another machine's files [default: /]
    #[arg(long, value_name = "DIR")]
    pub managed_root: Option<PathBuf>,

    /// With --mode local, the configuration profile the agents are started
    /// with: Codex's `codex --profile NAME` reads
    /// $CODEX_HOME/NAME.config.toml above the user's config.toml
    /// [default: none]
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
}

/// The compilation inputs a user gives and the repository cannot show:
/// `--agent-version`, `--context-window` and `--trust`, shared by every
/// command that compiles.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct AgentInputArgs {
    /// The release of a harness to model, e.g. codex=0.171.0; repeat the
    /// option for several harnesses [default: the newest profiled release
    /// of each]
    #[arg(long, value_name = "HARNESS=VERSION", value_parser = parse_agent_version)]
    pub agent_version: Vec<AgentVersion>,

    /// The context window of the user's model in tokens, e.g. 400000, or
    /// `unknown` for a model the agent knows no window for; it sets the
    /// skill listing budget of harnesses that size it by the window (see
    /// README) [default: the window of the modelled release's default
    /// model, stated in the assumptions]
    #[arg(long, value_name = "TOKENS", value_parser = parse_context_window,
          allow_negative_numbers = true)]
    pub context_window: Option<ContextWindow>,

    /// The trust entries of the user's agent configuration for directories
    /// of REPO (Codex: `[projects."<path>"] trust_level`): LEVEL for the
    /// repository root, DIR=LEVEL[,DIR=LEVEL...] for directories relative
    /// to REPO, or `none` for no entry; LEVEL is trusted or untrusted
    /// [default: not known; the project is assumed trusted, as the
    /// assumptions say]
    #[arg(long, value_name = "[DIR=]LEVEL", value_parser = parse_trust)]
    pub trust: Option<TrustArg>,
}

impl AgentInputArgs {
    /// The version asked for `harness` with `--agent-version`, if any (the
    /// last one when given more than once).
    pub(crate) fn agent_version(&self, harness: Harness) -> Option<&str> {
        self.agent_version
            .iter()
            .rev()
            .find(|v| v.harness == harness)
            .map(|v| v.version.as_str())
    }

    /// The inputs of `harness`'s compilation at release `version` (the
    /// caller resolves it, see [`AgentInputArgs::agent_version`]) with
    /// `--context-window`.
    pub(crate) fn inputs<'a>(&'a self, version: Option<&'a str>) -> Inputs<'a> {
        Inputs {
            version,
            context_window: self.context_window.unwrap_or_default(),
            trust: self.trust.as_ref().map(|t| t.0.as_slice()),
            outside_root: None,
            machine: None,
        }
    }
}

/// Parses `--context-window`: a whole number of tokens, at least 1
/// (`_` separators allowed, as in `400_000`), or `unknown`. Errors are one
/// sentence saying what to pass.
pub(crate) fn parse_context_window(s: &str) -> Result<ContextWindow, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("unknown") {
        return Ok(ContextWindow::Unknown);
    }
    let digits: String = t.chars().filter(|c| *c != '_').collect();
    if let Some(negative) = digits.strip_prefix('-') {
        if !negative.is_empty() && negative.chars().all(|c| c.is_ascii_digit()) {
            return Err(
                "a context window holds at least 1 token, not a negative number; pass `unknown` for a model without a known window"
                    .to_string(),
            );
        }
    }
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(
            "expected a whole number of tokens, e.g. 400000, or `unknown` for a model without a known window"
                .to_string(),
        );
    }
    match digits.parse::<u64>().ok().and_then(NonZeroU64::new) {
        Some(n) => Ok(ContextWindow::Tokens(n)),
        None if digits.chars().all(|c| c == '0') => Err(
            "a context window holds at least 1 token; pass `unknown` for a model without a known window"
                .to_string(),
        ),
        None => Err(format!(
            "too many tokens for a context window; pass at most {}",
            u64::MAX
        )),
    }
}

/// `--trust`: the trust entries given, in order (empty for `none`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TrustArg(pub Vec<TrustEntry>);

/// Parses `--trust`: `none`, a LEVEL for the repository root, or
/// DIR=LEVEL entries separated by commas (DIR relative to REPO, inside
/// it). Errors are one sentence saying what to pass.
pub(crate) fn parse_trust(s: &str) -> Result<TrustArg, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(TrustArg(Vec::new()));
    }
    let level = |l: &str| match l.trim().to_ascii_lowercase().as_str() {
        "trusted" => Ok(TrustLevel::Trusted),
        "untrusted" => Ok(TrustLevel::Untrusted),
        other => Err(format!(
            "unknown trust level `{other}`; use trusted or untrusted, as [DIR=]LEVEL, or none"
        )),
    };
    let mut out = Vec::new();
    for part in t.split(',') {
        let (dir, l) = part.split_once('=').unwrap_or((".", part));
        let Some(dir) = RepoPath::new(dir.trim()).filter(|_| !dir.trim().is_empty()) else {
            return Err(format!(
                "`{}` is not a directory inside the repository; give DIR relative to REPO, e.g. apps/api=trusted",
                dir.trim()
            ));
        };
        out.push(TrustEntry {
            dir,
            level: level(l)?,
        });
    }
    Ok(TrustArg(out))
}

const LAYOUT_EXAMPLES: &str = "\
Examples:
  # Every harness, every profiled release
  playbookdiff layout

  # What Codex 0.142.3 reads, as JSON
  playbookdiff layout --harness codex --agent-version codex=0.142.3 --json

Each row is a path glob (`**/` is any directory; `~/` the user's home, `/`
the machine: never read), its scope (project, local, user, managed,
plugin) and whether the analysis models it (modelled, reported-only:
listed as diagnostics, not-read).

Exit status: 0; 2 for a bad argument.";

/// Arguments of `playbookdiff layout`.
#[derive(Debug, Clone, Args)]
pub(crate) struct LayoutArgs {
    /// The harnesses to show; repeat the option [default: all supported]
    #[arg(long, value_name = "HARNESS", value_parser = harness_parser())]
    pub harness: Vec<Harness>,

    /// The release of a harness to show, e.g. codex=0.171.0; repeat the
    /// option for several harnesses [default: every profiled release of
    /// each]
    #[arg(long, value_name = "HARNESS=VERSION", value_parser = parse_agent_version)]
    pub agent_version: Vec<AgentVersion>,

    /// Output format
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser(Report::Layout))]
    pub format: Format,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

impl LayoutArgs {
    /// The output format, `--json` folded in.
    pub(crate) fn output_format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }

    /// The release asked for `harness` with `--agent-version`, if any (the
    /// last one when given more than once).
    pub(crate) fn agent_version(&self, harness: Harness) -> Option<&str> {
        self.agent_version
            .iter()
            .rev()
            .find(|v| v.harness == harness)
            .map(|v| v.version.as_str())
    }
}

/// Arguments of `playbookdiff compile`.
#[derive(Debug, Clone, Args)]
pub(crate) struct CompileArgs {
    /// The analysis context.
    #[command(flatten)]
    pub context: ContextArgs,

    /// The coding agent to compile for
    #[arg(long, value_name = "HARNESS", value_parser = harness_parser(),
          default_value = playbookdiff_registry::adapters()[0].harness().as_str())]
    pub harness: Harness,

    /// Output format
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser(Report::Config))]
    pub format: Format,

    /// Same as `--format json`
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

impl CompileArgs {
    /// The output format, `--json` folded in.
    pub(crate) fn output_format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }
}

/// `--harness` values: the ids of the registered adapters, spelled as in
/// the output contract, each with its product name as help.
fn harness_parser() -> impl TypedValueParser<Value = Harness> {
    let values = playbookdiff_registry::adapters()
        .iter()
        .map(|a| PossibleValue::new(a.harness().as_str()).help(a.harness().display_name()));
    PossibleValuesParser::new(values).try_map(|id| {
        playbookdiff_registry::by_id(&id)
            .map(|a| a.harness())
            .ok_or_else(|| format!("unknown harness `{id}`"))
    })
}

/// One `--agent-version HARNESS=VERSION`: the release of a harness to
/// model (e.g. `codex=0.171.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AgentVersion {
    /// The harness.
    pub harness: Harness,
    /// The agent's own version string, e.g. `2.1.332`.
    pub version: String,
}

/// Parses `HARNESS=VERSION` against the registry. Errors are one sentence:
/// a missing `=`, a version that is not one
/// ([`playbookdiff_model::profile::is_version`]), or an unknown harness
/// (with the closest registered id, or the list of ids).
pub(crate) fn parse_agent_version(s: &str) -> Result<AgentVersion, String> {
    let example = playbookdiff_registry::adapters()
        .last()
        .map(|a| {
            let v = a.profiled_versions().last().copied().unwrap_or("1.0.0");
            format!("{}={v}", a.harness())
        })
        .unwrap_or_default();
    let Some((id, version)) = s.split_once('=') else {
        return Err(format!("expected HARNESS=VERSION, e.g. {example}"));
    };
    let Some(adapter) = playbookdiff_registry::by_id(id.trim()) else {
        return Err(playbookdiff_registry::unknown_harness(id.trim()));
    };
    let version = version.trim();
    if !playbookdiff_model::profile::is_version(version) {
        return Err(format!(
            "`{}` is not a version; give {}, e.g. {example}",
            version.escape_debug(),
            playbookdiff_model::profile::VERSION_FORMS
        ));
    }
    Ok(AgentVersion {
        harness: adapter.harness(),
        version: version.to_string(),
    })
}

/// `--mode` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ModeArg {
    /// Committed, reproducible configuration only
    #[default]
    Repo,
    /// Also personal files present in the working tree, and the user's
    /// and the machine's agent configuration (--home, --managed-root)
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

/// `--format` values of a command: the formats its report is rendered in
/// ([`Report::formats`]), each with its help line.
fn format_parser(report: Report) -> impl TypedValueParser<Value = Format> {
    let values = report
        .formats()
        .iter()
        .map(move |f| PossibleValue::new(f.as_str()).help(report.help(*f)));
    PossibleValuesParser::new(values)
        .try_map(|s| Format::parse(&s).ok_or_else(|| format!("unknown format `{s}`")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// At 80 columns (a pipe, a file, a terminal of that width) the help
    /// of every command shows each line of its examples and exit-status
    /// text as written: clap re-wraps a longer line, which breaks a
    /// command in two (`completions bash >` / its path) and leaves comment
    /// fragments that read like commands.
    #[test]
    fn help_examples_are_never_broken_at_80_columns() {
        let mut top = Cli::command().term_width(80);
        top.build();
        let mut commands = vec![top.clone()];
        commands.extend(top.get_subcommands().cloned());
        for cmd in commands {
            let mut cmd = cmd.term_width(80);
            let name = cmd.get_name().to_string();
            let written = cmd.get_after_help().map(ToString::to_string);
            let help = cmd.render_help().to_string();
            let shown: Vec<&str> = help.lines().map(str::trim_end).collect();
            let written = written.unwrap_or_else(|| panic!("{name} has no examples"));
            for line in written.lines() {
                assert!(
                    shown.contains(&line.trim_end()),
                    "{name}: `{line}` is re-wrapped in --help at 80 columns:\n{help}"
                );
            }
        }
    }

    #[test]
    fn check_takes_repeated_harnesses_and_aliases() {
        let cli = Cli::try_parse_from([
            "playbookdiff",
            "check",
            "repo",
            "--harness",
            "codex",
            "--harness",
            "claude-code",
            "--path",
            "a.ts",
            "--json",
        ])
        .unwrap();
        let Some(Command::Check(args)) = cli.command else {
            panic!("check expected")
        };
        let ids: Vec<&str> = args.harness.iter().map(|h| h.as_str()).collect();
        assert_eq!(ids, ["codex", "claude-code"]);
        assert_eq!(args.context.target.as_deref(), Some("a.ts"));
        assert_eq!(args.output_format(), Format::Json);
        let cli =
            Cli::try_parse_from(["playbookdiff", "explain", "x:y", "repo", "--cwd", "a"]).unwrap();
        let Some(Command::Explain(args)) = cli.command else {
            panic!("explain expected")
        };
        assert_eq!(args.finding_id, "x:y");
        assert_eq!(
            args.context.repo.as_deref(),
            Some(std::path::Path::new("repo"))
        );
        let cli = Cli::try_parse_from(["playbookdiff", "some/repo", "--cwd", "a"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.view.context.cwd.as_deref(), Some("a"));
    }

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn json_and_path_aliases() {
        let cli =
            Cli::try_parse_from(["playbookdiff", "compile", "--path", "a/b.ts", "--json"]).unwrap();
        let Some(Command::Compile(args)) = cli.command else {
            panic!("compile expected")
        };
        assert_eq!(args.context.target.as_deref(), Some("a/b.ts"));
        assert_eq!(args.output_format(), Format::Json);
        assert_eq!(
            args.harness,
            playbookdiff_registry::adapters()[0].harness(),
            "the first registered harness is the default"
        );
        assert_eq!(args.context.mode, ModeArg::Repo);
    }
}

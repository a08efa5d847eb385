//! The remedies Codex's adapter gives (`Adapter::remedy`): each names the
//! files Codex reads (`AGENTS.md`, `.agents/skills`, `[mcp_servers]` in
//! `.codex/config.toml`).

use playbookdiff_adapter::Gap;
use playbookdiff_model::Transport;
use playbookdiff_testkit::{rp, Kit};

static KIT: Kit = Kit::new(&playbookdiff_codex::ADAPTER, env!("CARGO_MANIFEST_DIR"));

#[test]
fn remedies_name_codex_files() {
    let (file, dir) = (rp("apps/api/CLAUDE.md"), rp("apps/api"));
    let skill = rp(".claude/skills/x/SKILL.md");
    KIT.assert_remedies(&[
        (
            Gap::Instruction {
                file: &file,
                dir: &dir,
                paths: None,
            },
            "`apps/api/AGENTS.md`",
        ),
        (
            Gap::Skill {
                name: "x",
                file: &skill,
            },
            "make `.agents/skills/x` a symbolic link to `../../.claude/skills/x`",
        ),
    ]);
}

#[test]
fn a_server_name_with_a_backtick_stays_inside_one_code_span() {
    let gap = Gap::Mcp {
        name: "a`b",
        transport: Transport::Stdio,
    };
    KIT.assert_remedies(&[(gap, "add a ``[mcp_servers."), (gap, "]`` table")]);
}

/// A server another harness reaches over HTTP is a `url` table for Codex,
/// never a command; a local one keeps its command and args.
#[test]
fn a_server_gets_the_table_of_its_transport() {
    KIT.assert_mcp_remedy(
        "docs",
        Transport::Http,
        &["with the same url;", "!command", "`bearer_token_env_var`"],
    );
    KIT.assert_mcp_remedy(
        "fs",
        Transport::Stdio,
        &["with the same command and args;", "!url"],
    );
}

/// The files of the new-user trial's first fixture: a root `CLAUDE.md`
/// that imports `AGENTS.md` and `docs/style.md`, a package whose
/// committed `AGENTS.override.md` shadows its `AGENTS.md` for Codex, and a
/// package below it with an `AGENTS.md` only.
const SHADOWED: &[(&str, &str)] = &[
    ("CLAUDE.md", "# Root\n\n@AGENTS.md\n@docs/style.md\n"),
    ("AGENTS.md", "Use cargo test.\n"),
    ("docs/style.md", "Wrap at 80.\n"),
    ("pkg/AGENTS.md", "Run make pkg.\n"),
    ("pkg/AGENTS.override.md", "Run make fast.\n"),
    ("pkg/CLAUDE.md", "Use pnpm.\n"),
    ("pkg/api/AGENTS.md", "Run make api.\n"),
];

/// Never "put the text of `pkg/AGENTS.md` into `pkg/AGENTS.md`": in `pkg`
/// the override is what Codex reads, and from the root Codex reads nothing
/// in `pkg` at all; both are said, and the edit names the override.
#[test]
fn an_agents_md_that_an_override_shadows_names_the_override_never_itself() {
    KIT.assert_instruction_remedy(
        SHADOWED,
        ".",
        "pkg/AGENTS.md",
        "pkg",
        &[
            "from `.` nothing in `pkg` reaches it",
            "launched in `pkg` (`--cwd pkg`) it reads `pkg/AGENTS.override.md`",
            "`pkg/AGENTS.override.md` shadows `pkg/AGENTS.md`",
            "merge the text of `pkg/AGENTS.md` into `pkg/AGENTS.override.md`, or delete the override",
            "!into `pkg/AGENTS.md`",
        ],
    );
    // Launched in `pkg`, the override is the whole story.
    KIT.assert_instruction_remedy(
        SHADOWED,
        "pkg",
        "pkg/AGENTS.md",
        "pkg",
        &[
            "in `pkg`, `pkg/AGENTS.override.md` shadows `pkg/AGENTS.md` for Codex",
            "!nothing in",
        ],
    );
}

/// An `AGENTS.md` below the launch directory is what Codex would read
/// there itself: the remedy says it never reads it from here and where to
/// launch, and proposes no edit of the file into itself.
#[test]
fn an_agents_md_below_the_launch_directory_says_where_to_launch() {
    KIT.assert_instruction_remedy(
        SHADOWED,
        ".",
        "pkg/api/AGENTS.md",
        "pkg/api",
        &[
            "from `.` nothing in `pkg/api` reaches it; launched in `pkg/api` (`--cwd pkg/api`) it reads `pkg/api/AGENTS.md`",
            "only an `AGENTS.md` from the root to `.` would reach it",
            "!into `pkg/api/AGENTS.md`",
        ],
    );
    // A `CLAUDE.md` below the launch directory: the move is right for a
    // launch there, and the sentence says it does nothing from here.
    KIT.assert_instruction_remedy(
        &[("data/CLAUDE.md", "Data rules.\n")],
        ".",
        "data/CLAUDE.md",
        "data",
        &[
            "from `.` nothing in `data` reaches it",
            "for that launch move the text of `data/CLAUDE.md` into `data/AGENTS.md`",
        ],
    );
}

/// A `CLAUDE.md` that already imports `AGENTS.md` is not told to add the
/// import again: only its other lines move.
#[test]
fn a_claude_md_that_already_imports_agents_md_moves_its_other_lines_only() {
    KIT.assert_instruction_remedy(
        SHADOWED,
        ".",
        "CLAUDE.md",
        ".",
        &[
            "`CLAUDE.md` already imports `AGENTS.md`, which Codex reads; move its other lines into `AGENTS.md`",
            "!replace it with a line",
        ],
    );
}

/// A Claude Code command (`.claude/commands/opsx/apply.md`, skill
/// `opsx:apply`) becomes a `SKILL.md` of its own; a link to the commands
/// folder would give Codex no skill.
#[test]
fn a_command_is_made_a_skill_never_linked() {
    KIT.assert_skill_remedy(
        "opsx:apply",
        ".claude/commands/opsx/apply.md",
        &[
            "create `.agents/skills/opsx-apply/SKILL.md` holding its text under front matter with `name: opsx:apply`",
            "!symbolic link",
        ],
    );
}

/// A subagent another harness defines: a custom agent file in Codex's own
/// format, `.codex/agents/NAME.toml` with its three required fields.
#[test]
fn a_missing_subagent_is_a_custom_agent_file() {
    let file = rp(".claude/agents/review.md");
    let gap = Gap::Subagent {
        name: "review",
        file: &file,
    };
    KIT.assert_remedies(&[
        (gap, "add `.codex/agents/review.toml`"),
        (gap, "`name = \"review\"`"),
        (gap, "`developer_instructions`"),
        (gap, "trusted project"),
    ]);
}

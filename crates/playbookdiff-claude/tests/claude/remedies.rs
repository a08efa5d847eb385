//! The remedies Claude Code's adapter gives (`Adapter::remedy`): each
//! names the files Claude Code reads (`CLAUDE.md` and its `@` imports,
//! `.claude/skills`, `.mcp.json`) and never proposes an import that is
//! already there.

use crate::common::KIT;
use playbookdiff_adapter::Gap;
use playbookdiff_model::Transport;
use playbookdiff_testkit::rp;

#[test]
fn remedies_name_claude_files() {
    let (file, dir) = (rp("apps/api/AGENTS.md"), rp("apps/api"));
    let skill = rp(".agents/skills/x/SKILL.md");
    let style = rp("apps/api/docs/style.md");
    KIT.assert_remedies(&[
        (
            Gap::Instruction {
                file: &file,
                dir: &dir,
                paths: None,
            },
            "create `apps/api/CLAUDE.md` holding the line `@AGENTS.md`, or make it a symbolic link to `AGENTS.md`",
        ),
        (
            Gap::Instruction {
                file: &style,
                dir: &dir,
                paths: None,
            },
            "import it from `apps/api/CLAUDE.md` with a line `@docs/style.md`",
        ),
        (
            Gap::Skill {
                name: "x",
                file: &skill,
            },
            "make `.claude/skills/x` a symbolic link to `../../.agents/skills/x`",
        ),
    ]);
}

/// A `CLAUDE.md` beside the file that does not import it: the remedy adds
/// the line to it; with none beside the file (the empty repository of
/// `remedies_name_claude_files`) it creates one, as the
/// `agents-md-not-bridged` diagnostic says, never "add a line to" a file
/// that is not there.
#[test]
fn the_bridge_is_added_to_an_existing_claude_md_and_created_otherwise() {
    KIT.assert_instruction_remedy(
        &[
            ("pkg/CLAUDE.md", "# Pkg\n\nUse make.\n"),
            ("pkg/AGENTS.md", "Run make pkg.\n"),
        ],
        "pkg",
        "pkg/AGENTS.md",
        "pkg",
        &[
            "add a line `@AGENTS.md` to `pkg/CLAUDE.md`, or make `pkg/CLAUDE.md` a symbolic link to `AGENTS.md`",
            "!create",
        ],
    );
    KIT.assert_instruction_remedy(
        &[
            ("CLAUDE.md", "# Root\n\nUse make.\n"),
            ("pkg/AGENTS.md", "Run make pkg.\n"),
        ],
        "pkg",
        "pkg/AGENTS.md",
        "pkg",
        &[
            "create `pkg/CLAUDE.md` holding the line `@AGENTS.md`, or make it a symbolic link to `AGENTS.md`",
            "!add a line",
        ],
    );
}

/// The import is already in the `CLAUDE.md` beside the file: the remedy
/// says so instead of proposing it again.
#[test]
fn an_import_that_is_already_there_is_not_proposed_again() {
    KIT.assert_instruction_remedy(
        &[
            ("pkg/CLAUDE.md", "# Pkg\n\n@./AGENTS.md\n"),
            ("pkg/AGENTS.md", "Run make pkg.\n"),
        ],
        ".",
        "pkg/AGENTS.md",
        "pkg",
        &[
            "`pkg/CLAUDE.md` already has the line `@AGENTS.md`",
            "!add a line",
        ],
    );
}

/// A server another harness reaches over HTTP is an `http` entry with a
/// url in `.mcp.json`; a local one keeps command, args and environment.
#[test]
fn a_server_gets_the_entry_of_its_transport() {
    KIT.assert_mcp_remedy(
        "docs",
        Transport::Http,
        &["`\"type\": \"http\"` and the same url", "!command"],
    );
    KIT.assert_mcp_remedy(
        "fs",
        Transport::Stdio,
        &["the same command, args and environment", "!url"],
    );
}

/// A subagent another harness defines: the file to add in Claude Code's
/// own format, `.claude/agents/NAME.md` with `name` and `description`.
#[test]
fn a_missing_subagent_is_added_under_claude_agents() {
    let file = rp(".opencode/agent/review.md");
    let gap = Gap::Subagent {
        name: "review",
        file: &file,
    };
    KIT.assert_remedies(&[
        (gap, "add `.claude/agents/review.md`"),
        (gap, "`name: review`"),
        (gap, "as in `.opencode/agent/review.md`"),
    ]);
}

//! The remedies OpenCode's adapter gives (`Adapter::remedy`): each names
//! the files and entries OpenCode reads (`instructions` and `mcp` in
//! `opencode.json`, `.opencode/skills`, a skill's `name`).

use playbookdiff_adapter::Gap;
use playbookdiff_model::Transport;
use playbookdiff_opencode::ADAPTER;
use playbookdiff_testkit::{rp, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

#[test]
fn remedies_name_opencode_files() {
    let (file, dir) = (rp("apps/api/CLAUDE.md"), rp("apps/api"));
    let claude_skill = rp(".claude/skills/x/SKILL.md");
    let other_skill = rp("skills/x/SKILL.md");
    let late = [rp("apps/api/AGENTS.md")];
    KIT.assert_remedies(&[
        (
            Gap::Instruction {
                file: &file,
                dir: &dir,
                paths: None,
            },
            "\"instructions\": [\"apps/api/CLAUDE.md\"]",
        ),
        (
            Gap::Skill {
                name: "x",
                file: &claude_skill,
            },
            "`name: x`",
        ),
        (
            Gap::Skill {
                name: "x",
                file: &other_skill,
            },
            ".opencode/skills/x",
        ),
        (
            Gap::Mcp {
                name: "gh",
                transport: Transport::Stdio,
            },
            "\"gh\": {\"type\": \"local\", \"command\": [...]}",
        ),
        // A remote server is a `remote` entry with a url, never a command.
        (
            Gap::Mcp {
                name: "docs",
                transport: Transport::Http,
            },
            "\"docs\": {\"type\": \"remote\", \"url\": ...}",
        ),
        (
            Gap::Mcp {
                name: "docs",
                transport: Transport::Http,
            },
            "!command",
        ),
        (
            Gap::LateInstruction { files: &late },
            "\"apps/api/AGENTS.md\"",
        ),
    ]);
}

/// A `CLAUDE.md` that already imports the `AGENTS.md` OpenCode reads is
/// not listed in `instructions` (OpenCode would send its `@AGENTS.md`
/// line as text): its other lines move into that `AGENTS.md`.
#[test]
fn a_claude_md_that_already_imports_agents_md_moves_its_other_lines_only() {
    KIT.assert_instruction_remedy(
        &[
            ("CLAUDE.md", "# Root\n\n@AGENTS.md\n@docs/style.md\n"),
            ("AGENTS.md", "Use cargo test.\n"),
        ],
        ".",
        "CLAUDE.md",
        ".",
        &[
            "`CLAUDE.md` already imports `AGENTS.md`, which OpenCode reads instead of it; move its other lines into `AGENTS.md`",
            "!\"instructions\"",
        ],
    );
}

/// A Claude Code command becomes a `SKILL.md` under `.opencode/skills`,
/// never a link to the commands folder.
#[test]
fn a_command_is_made_a_skill_never_linked() {
    KIT.assert_skill_remedy(
        "opsx:apply",
        "web/.claude/commands/opsx/apply.md",
        &[
            "create `web/.opencode/skills/opsx-apply/SKILL.md`",
            "!symbolic link",
        ],
    );
}

/// A subagent another harness defines: an agent file in OpenCode's own
/// format, `.opencode/agent/NAME.md` of mode `subagent`.
#[test]
fn a_missing_subagent_is_an_opencode_agent_file() {
    let file = rp(".claude/agents/review.md");
    let gap = Gap::Subagent {
        name: "review",
        file: &file,
    };
    KIT.assert_remedies(&[
        (gap, "add `.opencode/agent/review.md`"),
        (gap, "`mode: subagent`"),
        (gap, "as in `.claude/agents/review.md`"),
    ]);
}

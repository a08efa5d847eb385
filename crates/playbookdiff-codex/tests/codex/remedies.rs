//! The remedies Codex's adapter gives (`Adapter::remedy`): each names the
//! files Codex reads (`AGENTS.md`, `.agents/skills`, `[mcp_servers]` in
//! `.codex/config.toml`).

use playbookdiff_adapter::Gap;
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
    let gap = Gap::Mcp { name: "a`b" };
    KIT.assert_remedies(&[(gap, "add a ``[mcp_servers."), (gap, "]`` table")]);
}

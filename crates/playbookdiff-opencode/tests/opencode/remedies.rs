//! The remedies OpenCode's adapter gives (`Adapter::remedy`): each names
//! the files and entries OpenCode reads (`instructions` and `mcp` in
//! `opencode.json`, `.opencode/skills`, a skill's `name`).

use playbookdiff_adapter::Gap;
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
        (Gap::Mcp { name: "gh" }, "\"gh\""),
        (
            Gap::LateInstruction { files: &late },
            "\"apps/api/AGENTS.md\"",
        ),
    ]);
}

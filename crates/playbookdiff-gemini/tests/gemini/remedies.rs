//! The remedies Gemini CLI's adapter gives (`Adapter::remedy`): each names
//! what Gemini CLI reads (`context.fileName` and `mcpServers` in the launch
//! directory's `.gemini/settings.json`, `@path` in `GEMINI.md`, the launch
//! directory's `.gemini/skills`).

use playbookdiff_adapter::Gap;
use playbookdiff_gemini::ADAPTER;
use playbookdiff_model::Transport;
use playbookdiff_testkit::{rp, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

#[test]
fn remedies_name_gemini_files() {
    let (agents, root) = (rp("AGENTS.md"), rp("."));
    let (rule, rules) = (rp(".claude/rules/style.md"), rp(".claude/rules"));
    let skill = rp(".claude/skills/x/SKILL.md");
    let late = [rp("apps/api/GEMINI.md")];
    KIT.assert_remedies(&[
        // A file on the launch chain: its name goes into context.fileName.
        (
            Gap::Instruction {
                file: &agents,
                dir: &root,
                paths: None,
            },
            "\"context\": {\"fileName\": [\"GEMINI.md\", \"AGENTS.md\"]}",
        ),
        // Any other file: an @path import from GEMINI.md.
        (
            Gap::Instruction {
                file: &rule,
                dir: &rules,
                paths: None,
            },
            "`@./.claude/rules/style.md`",
        ),
        (
            Gap::LateInstruction { files: &late },
            "`@./apps/api/GEMINI.md`",
        ),
        (
            Gap::Skill {
                name: "x",
                file: &skill,
            },
            "`.gemini/skills/x` a symbolic link to `../../.claude/skills/x`",
        ),
        (
            Gap::Mcp {
                name: "gh",
                transport: Transport::Stdio,
            },
            "\"mcpServers\": {\"gh\": {\"command\": ..., \"args\": [...]}}",
        ),
        (
            Gap::Mcp {
                name: "docs",
                transport: Transport::Http,
            },
            "\"docs\": {\"httpUrl\": ...}",
        ),
    ]);
}

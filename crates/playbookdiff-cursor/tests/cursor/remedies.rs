//! The remedies Cursor's adapter gives (`Adapter::remedy`): each names a
//! file in Cursor's own format.

use playbookdiff_adapter::Gap;
use playbookdiff_cursor::ADAPTER;
use playbookdiff_model::{HookTrigger, Transport};
use playbookdiff_testkit::{rp, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

#[test]
fn remedies_name_cursor_files() {
    let (rule, rules) = (rp(".claude/rules/style.md"), rp("."));
    let globs = vec!["src/**".to_string()];
    let late = [rp("apps/api/AGENTS.md")];
    let skill = rp(".claude/skills/ship/SKILL.md");
    KIT.assert_remedies(&[
        (
            Gap::Instruction {
                file: &rule,
                dir: &rules,
                paths: None,
            },
            "`.cursor/rules/claude-rules-style-md.mdc` with front matter `alwaysApply: true`",
        ),
        (
            Gap::Instruction {
                file: &rule,
                dir: &rules,
                paths: Some(&globs),
            },
            "`globs: src/**`",
        ),
        (Gap::LateInstruction { files: &late }, "`alwaysApply: true`"),
        (
            Gap::Skill {
                name: "ship",
                file: &skill,
            },
            "`.cursor/skills/ship`",
        ),
        (
            Gap::Mcp {
                name: "docs",
                transport: Transport::Stdio,
            },
            "`.cursor/mcp.json`",
        ),
        (
            Gap::Hook {
                trigger: HookTrigger::UserPromptSubmit,
                matcher: None,
                command: Some("echo hi"),
                script: None,
            },
            "\"beforeSubmitPrompt\"",
        ),
        (
            Gap::Hook {
                trigger: HookTrigger::Notification,
                matcher: None,
                command: Some("echo hi"),
                script: None,
            },
            "Cursor has no hook event for `Notification`",
        ),
    ]);
}

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

/// A hook another harness runs becomes an entry of `hooks` in the launch
/// directory's settings under Gemini CLI's own event name (`BeforeTool`
/// for `PreToolUse`, `AfterAgent` for `Stop`), matching Gemini CLI's tool
/// names, its script named from the project directory; a trigger Gemini
/// CLI has no event for says so.
#[test]
fn hook_remedies_use_gemini_event_names() {
    use playbookdiff_model::HookTrigger;
    let script = rp(".claude/hooks/guard.sh");
    let gap = |trigger| Gap::Hook {
        trigger,
        matcher: Some("Write|Edit"),
        command: None,
        script: Some(&script),
    };
    KIT.assert_remedies(&[
        (gap(HookTrigger::PreToolUse), "add to `.gemini/settings.json`"),
        (gap(HookTrigger::PreToolUse), r#""hooks": {"BeforeTool": [{"matcher": "write_file|replace|run_shell_command", "hooks": [{"type": "command", "command": "$GEMINI_PROJECT_DIR/.claude/hooks/guard.sh"}]}]}"#),
        (gap(HookTrigger::PreToolUse), "!Write|Edit"),
        (gap(HookTrigger::Stop), r#""AfterAgent""#),
        (gap(HookTrigger::UserPromptSubmit), r#""BeforeAgent""#),
        (gap(HookTrigger::PermissionRequest), "Gemini CLI has no `PermissionRequest` hook event"),
    ]);
    // From a subdirectory, that directory's settings, and the script
    // written from there.
    KIT.assert_remedies_in(
        &[(".claude/hooks/guard.sh", "exit 0")],
        "apps/web",
        &[
            (
                gap(HookTrigger::PreToolUse),
                "add to `apps/web/.gemini/settings.json`",
            ),
            (
                gap(HookTrigger::PreToolUse),
                "$GEMINI_PROJECT_DIR/../../.claude/hooks/guard.sh",
            ),
        ],
    );
}

//! The remedies Copilot CLI's adapter gives (`Adapter::remedy`): each names
//! what Copilot CLI reads.

use playbookdiff_adapter::Gap;
use playbookdiff_copilot::ADAPTER;
use playbookdiff_model::Transport;
use playbookdiff_testkit::{rp, Kit};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

#[test]
fn remedies_name_copilot_files() {
    let (rule, rules) = (rp(".claude/rules/style.md"), rp(".claude/rules"));
    let globs = vec!["src/**".to_string()];
    let late = [rp("apps/api/AGENTS.md")];
    KIT.assert_remedies(&[
        (
            Gap::Instruction {
                file: &rule,
                dir: &rules,
                paths: None,
            },
            "`@.claude/rules/style.md`",
        ),
        (
            Gap::Instruction {
                file: &rule,
                dir: &rules,
                paths: Some(&globs),
            },
            "`applyTo: \"src/**\"`",
        ),
        (
            Gap::LateInstruction { files: &late },
            "`@apps/api/AGENTS.md`",
        ),
        (
            Gap::Mcp {
                name: "docs",
                transport: Transport::Stdio,
            },
            "`.mcp.json`",
        ),
    ]);
}

/// A hook another harness runs becomes a `.github/hooks/*.json` file in
/// Copilot CLI's own format (`bash`) under its own event name
/// (`preToolUse`, `agentStop` for `Stop`); a trigger it has no event for
/// says so.
#[test]
fn hook_remedies_use_copilot_hook_files() {
    use playbookdiff_model::HookTrigger;
    let script = rp(".claude/hooks/guard.sh");
    let gap = |trigger| Gap::Hook {
        trigger,
        matcher: Some("Write|Edit"),
        command: None,
        script: Some(&script),
    };
    KIT.assert_remedies(&[
        (gap(HookTrigger::PreToolUse), "create `.github/hooks/pretooluse.json`"),
        (gap(HookTrigger::PreToolUse), r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./.claude/hooks/guard.sh"}]}}"#),
        (gap(HookTrigger::Stop), r#""agentStop""#),
        (gap(HookTrigger::UserPromptSubmit), r#""userPromptSubmitted""#),
        (gap(HookTrigger::PreToolUse), "trusts"),
        (gap(HookTrigger::PostCompact), "Copilot CLI has no `PostCompact` hook event"),
    ]);
}

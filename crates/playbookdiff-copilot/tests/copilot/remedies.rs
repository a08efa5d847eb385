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

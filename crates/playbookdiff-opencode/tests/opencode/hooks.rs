//! Plugin modules' hook names and the `permission` setting.

use playbookdiff_model::{HookTrigger, PermissionEffect, SourceFormat, Verdict};
use playbookdiff_testkit::fs::write;
use playbookdiff_testkit::{at_root, Kit};

static KIT: Kit = Kit::new(&playbookdiff_opencode::ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// Each hook name written in a plugin module is a hook on the trigger of
/// the same meaning, at the name's line, the module being its script; a
/// module below cwd's chain is not read.
#[test]
fn plugin_modules_hooks_are_listed_by_the_names_they_write() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "AGENTS.md", "# Rules\n");
    write(
        t.path(),
        ".opencode/plugin/guard.ts",
        "export const Guard = async () => ({\n  \"tool.execute.before\": async (input, output) => {\n    if (input.tool === \"write\") throw new Error(\"no\")\n  },\n  event: async ({ event }) => { if (event.type === \"session.created\") {} },\n})\n",
    );
    write(
        t.path(),
        "pkg/.opencode/plugin/other.js",
        "export const X = async () => ({ \"tool.execute.after\": async () => {} })\n",
    );
    write(
        t.path(),
        "opencode.json",
        "{\n  \"permission\": {\n    \"edit\": \"deny\",\n    \"bash\": { \"git push\": \"ask\" }\n  }\n}\n",
    );
    let cfg = KIT.compile_dir(t.path(), &at_root());
    let got: Vec<(&str, Option<HookTrigger>, u32)> = cfg
        .hooks
        .iter()
        .map(|h| (h.event.as_str(), h.trigger, h.source.lines.unwrap().start))
        .collect();
    assert_eq!(
        got,
        [
            ("tool.execute.before", Some(HookTrigger::PreToolUse), 2),
            ("session.created", Some(HookTrigger::SessionStart), 5),
        ]
    );
    for h in &cfg.hooks {
        assert_eq!(h.source.format, SourceFormat::Code);
        assert_eq!(h.runs, Verdict::Yes);
        assert_eq!(
            h.script.as_ref().unwrap().path.as_str(),
            ".opencode/plugin/guard.ts"
        );
    }
    let p: Vec<(&str, &str, PermissionEffect)> = cfg
        .permissions
        .iter()
        .map(|p| (p.key.as_str(), p.value.as_str(), p.effect))
        .collect();
    assert_eq!(
        p,
        [
            ("permission.edit", "deny", PermissionEffect::Deny),
            ("permission.bash.git push", "ask", PermissionEffect::Ask),
        ]
    );
}

//! Hooks compared across harnesses: one row per event meaning, and a
//! capability gap where some harnesses may run a hook and others none.

use crate::sides::{config, HARNESSES};
use playbookdiff_compare::{compare, Category, FindingSeverity, FindingType};
use playbookdiff_model::{
    Applicability, Hook, HookHandler, HookTrigger, LoadPhase, RepoPath, SourceFormat, SourceRef,
    Verdict,
};

/// A hook on `trigger` registered in `file` at `line`, with `runs` and
/// `applicability`.
fn hook(
    file: &str,
    line: u32,
    trigger: HookTrigger,
    runs: Verdict,
    applicability: Applicability,
) -> Hook {
    Hook {
        id: format!("x:hook:{file}:{trigger}:0:0"),
        event: trigger.to_string(),
        trigger: Some(trigger),
        matcher: None,
        handler: HookHandler {
            kind: "command".into(),
            command: Some("guard.sh".into()),
            timeout_seconds: None,
        },
        source: SourceRef::project(RepoPath::new(file).unwrap(), SourceFormat::Json)
            .with_lines(line, line),
        script: None,
        runs,
        load_phase: LoadPhase::Startup,
        applicability,
        reason: "Registered.".into(),
    }
}

fn on(file: &str, line: u32, trigger: HookTrigger) -> Hook {
    hook(file, line, trigger, Verdict::Yes, Applicability::Effective)
}

/// A PreToolUse hook one harness runs and the other lacks is a high
/// capability gap present in the first, absent from the second; a
/// SessionStart one is medium; a trigger both have agrees.
#[test]
fn a_guard_only_one_harness_runs_is_a_high_capability_gap() {
    let mut a = config(0);
    let mut b = config(1);
    a.hooks = vec![
        on("a.json", 3, HookTrigger::PreToolUse),
        on("a.json", 9, HookTrigger::SessionStart),
        on("a.json", 12, HookTrigger::Stop),
    ];
    b.hooks = vec![on("b.json", 1, HookTrigger::Stop)];
    let c = compare(&[&a, &b]);
    let hooks: Vec<_> = c
        .findings
        .iter()
        .filter(|f| f.category == Category::Hook)
        .collect();
    assert_eq!(hooks.len(), 2, "{hooks:#?}");
    let pre = hooks
        .iter()
        .find(|f| f.key.starts_with("PreToolUse"))
        .unwrap();
    assert_eq!(pre.kind, FindingType::CapabilityGap);
    assert_eq!(pre.severity, FindingSeverity::High);
    assert_eq!(pre.present_in, [HARNESSES[0]]);
    assert_eq!(pre.absent_from, [HARNESSES[1]]);
    assert!(
        pre.id
            .starts_with("hook:capability-gap:alpha-only:PreToolUse:"),
        "{}",
        pre.id
    );
    let start = hooks
        .iter()
        .find(|f| f.key.starts_with("SessionStart"))
        .unwrap();
    assert_eq!(start.severity, FindingSeverity::Medium);
    let rows: Vec<(&str, bool)> = c
        .rows
        .iter()
        .filter(|r| r.category == Category::Hook)
        .map(|r| (r.label.as_str(), r.agree))
        .collect();
    assert_eq!(
        rows,
        [
            ("PreToolUse", false),
            ("SessionStart", false),
            ("Stop", true)
        ]
    );
}

/// A hook that does not run (turned off, or only a plugin to install
/// brings it) does not count: against a harness without the hook, no
/// finding; against one that runs it, the gap names why it does not.
/// A hook whose running is unknown (trust) counts as one that may run.
#[test]
fn only_hooks_that_may_run_count() {
    let off = Verdict::No {
        reason: "`disableAllHooks: true` in `a.json` turns hooks off".into(),
        source: None,
    };
    let unknown = Verdict::Unknown {
        reason: "hash trust".into(),
    };
    let mut a = config(0);
    let b = config(1);
    a.hooks = vec![
        hook(
            "a.json",
            3,
            HookTrigger::PreToolUse,
            off.clone(),
            Applicability::Effective,
        ),
        hook(
            "p.json",
            3,
            HookTrigger::Stop,
            unknown.clone(),
            Applicability::Conditional,
        ),
    ];
    assert!(compare(&[&a, &b]).findings.is_empty());

    let mut b = config(1);
    b.hooks = vec![hook(
        "b.json",
        1,
        HookTrigger::PreToolUse,
        unknown,
        Applicability::Effective,
    )];
    let c = compare(&[&a, &b]);
    assert_eq!(c.findings.len(), 1);
    let f = &c.findings[0];
    assert_eq!(f.present_in, [HARNESSES[1]]);
    assert!(
        f.absences[0].reason.contains("disableAllHooks"),
        "{}",
        f.absences[0].reason
    );
}

/// The id of a hook finding depends on the trigger and the sides, not on
/// the file, the line or the command.
#[test]
fn hook_finding_ids_do_not_depend_on_lines_or_files() {
    let ids = |file: &str, line: u32| {
        let mut a = config(0);
        a.hooks = vec![on(file, line, HookTrigger::PreToolUse)];
        compare(&[&a, &config(1)]).findings[0].id.clone()
    };
    assert_eq!(ids("a.json", 3), ids("other/b.json", 40));
}

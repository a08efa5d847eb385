//! Hooks between two revisions ([`agent_delta`]): matched by file, event,
//! matcher and command, so moving or inserting hooks changes none of the
//! others; a changed matcher or command pairs with the hook it replaced.

use crate::sides::config;
use playbookdiff_compare::delta::{agent_delta, Change};
use playbookdiff_model::{
    Applicability, Hook, HookHandler, LoadPhase, RepoPath, SourceFormat, SourceRef, Verdict,
};

fn hook(at: usize, line: u32, matcher: &str, command: &str) -> Hook {
    Hook {
        id: format!("x:hook:s.json:PreToolUse:{at}:0"),
        event: "PreToolUse".into(),
        trigger: None,
        matcher: Some(matcher.into()),
        handler: HookHandler {
            kind: "command".into(),
            command: Some(command.into()),
            timeout_seconds: None,
        },
        source: SourceRef::project(RepoPath::new("s.json").unwrap(), SourceFormat::Json)
            .with_lines(line, line),
        script: None,
        runs: Verdict::Yes,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: "Registered.".into(),
    }
}

fn changes(base: Vec<Hook>, head: Vec<Hook>) -> Vec<(Change, String, Vec<String>)> {
    let (mut a, mut b) = (config(0), config(0));
    a.hooks = base;
    b.hooks = head;
    agent_delta(&a, &b)
        .hooks
        .into_iter()
        .map(|c| (c.change, c.name, c.fields))
        .collect()
}

#[test]
fn hooks_are_matched_by_what_they_run_not_by_position() {
    let guard = |at, line| hook(at, line, "Bash", "guard.sh");
    let lint = |at, line| hook(at, line, "Write", "lint.sh");
    // Swapped, and moved down by lines: no change.
    assert_eq!(
        changes(vec![guard(0, 3), lint(1, 7)], vec![lint(0, 5), guard(1, 9)]),
        []
    );
    // One inserted before the others: one addition, nothing else.
    let new = hook(0, 2, "Read", "audit.sh");
    assert_eq!(
        changes(
            vec![guard(0, 3), lint(1, 7)],
            vec![new, guard(1, 5), lint(2, 9)]
        ),
        [(Change::Added, "PreToolUse Read".into(), vec![])]
    );
    // A changed command and a changed matcher: each pairs with the hook
    // it replaced; one removed is removed.
    let mut timed = guard(0, 3);
    timed.handler.timeout_seconds = Some(5);
    assert_eq!(
        changes(
            vec![guard(0, 3), lint(1, 7)],
            vec![
                hook(0, 3, "Bash", "guard2.sh"),
                hook(1, 7, "Edit", "lint.sh")
            ]
        ),
        [
            (
                Change::Redefined,
                "PreToolUse Bash".into(),
                vec!["handler.command".into()]
            ),
            (
                Change::Redefined,
                "PreToolUse Edit".into(),
                vec!["matcher".into()]
            ),
        ]
    );
    assert_eq!(
        changes(vec![guard(0, 3), lint(1, 7)], vec![timed]),
        [
            (
                Change::Redefined,
                "PreToolUse Bash".into(),
                vec!["handler.timeoutSeconds".into()]
            ),
            (Change::Removed, "PreToolUse Write".into(), vec![]),
        ]
    );
    // A hook that stops running is removed for the agent.
    let mut off = guard(0, 3);
    off.runs = Verdict::No {
        reason: "disableAllHooks".into(),
        source: None,
    };
    assert_eq!(
        changes(vec![guard(0, 3)], vec![off]),
        [(Change::Removed, "PreToolUse Bash".into(), vec![])]
    );
}

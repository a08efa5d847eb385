//! Permission denies compared across harnesses by what they refuse: a
//! capability gap where some harnesses refuse an action and others have
//! no rule that covers it.

use crate::sides::config;
use playbookdiff_compare::{compare, Category, Finding, FindingType, Subject};
use playbookdiff_model::{
    ActionKind, PermissionEffect, PermissionScope, PermissionSetting, RepoPath, SourceFormat,
    SourceRef, Verdict,
};

fn scope(action: ActionKind, pattern: Option<&str>) -> PermissionScope {
    PermissionScope {
        action,
        pattern: pattern.map(str::to_string),
    }
}

/// A deny rule written `value` in `file`, refusing `denies`, honoured as
/// `honoured`.
fn deny(file: &str, value: &str, denies: PermissionScope, honoured: Verdict) -> PermissionSetting {
    PermissionSetting {
        id: format!("x:permission:{file}:deny:{value}"),
        key: "deny".into(),
        value: value.into(),
        effect: PermissionEffect::Deny,
        source: SourceRef::project(RepoPath::new(file).unwrap(), SourceFormat::Json)
            .with_lines(2, 2),
        honoured,
        denies: Some(denies),
    }
}

fn gaps(a: &[PermissionSetting], b: &[PermissionSetting]) -> Vec<Finding> {
    let (mut x, mut y) = (config(0), config(1));
    x.permissions = a.to_vec();
    y.permissions = b.to_vec();
    compare(&[&x, &y])
        .findings
        .into_iter()
        .filter(|f| f.category == Category::Permission)
        .collect()
}

fn scopes(fs: &[Finding]) -> Vec<(PermissionScope, bool)> {
    fs.iter()
        .map(|f| match &f.subject {
            Some(Subject::Permission { scope }) => {
                (scope.clone(), f.present_in[0] == config(0).harness)
            }
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Each kind of action refused on one side only is a medium capability
/// gap from that side, with the rule as evidence and the other side's
/// absence said; the same scope on both sides, a shorter command prefix
/// or a whole kind on the other side is no gap.
#[test]
fn a_deny_one_harness_holds_and_another_lacks_is_a_capability_gap() {
    let yes = || Verdict::Yes;
    let a = [
        deny(
            "a.json",
            "Bash(curl:*)",
            scope(ActionKind::Shell, Some("curl")),
            yes(),
        ),
        deny(
            "a.json",
            "Read(.env)",
            scope(ActionKind::Read, Some(".env")),
            yes(),
        ),
        deny(
            "a.json",
            "Bash(git push:*)",
            scope(ActionKind::Shell, Some("git push")),
            yes(),
        ),
        deny(
            "a.json",
            "Edit(x.md)",
            scope(ActionKind::Edit, Some("x.md")),
            yes(),
        ),
    ];
    let b = [
        deny(
            "b.json",
            "git *",
            scope(ActionKind::Shell, Some("git")),
            yes(),
        ),
        deny("b.json", "edit", scope(ActionKind::Edit, None), yes()),
        deny(
            "b.json",
            "webfetch",
            scope(ActionKind::WebFetch, None),
            yes(),
        ),
    ];
    let fs = gaps(&a, &b);
    let mut got = scopes(&fs);
    got.sort();
    let mut want = vec![
        (scope(ActionKind::Shell, Some("curl")), true),
        (scope(ActionKind::Read, Some(".env")), true),
        (scope(ActionKind::Shell, Some("git")), false),
        (scope(ActionKind::Edit, None), false),
        (scope(ActionKind::WebFetch, None), false),
    ];
    want.sort();
    assert_eq!(got, want, "{fs:#?}");
    let curl = fs
        .iter()
        .find(|f| f.message.contains("`curl`"))
        .expect("the curl gap");
    assert_eq!(curl.kind, FindingType::CapabilityGap);
    assert_eq!(curl.severity.as_str(), "medium");
    assert_eq!(curl.items.len(), 1);
    assert_eq!(curl.items[0].source.path.as_str(), "a.json");
    assert_eq!(curl.absences.len(), 1);
    assert!(
        curl.id.starts_with("permission:capability-gap:"),
        "{}",
        curl.id
    );
    assert!(curl.message.contains("approximately"), "{}", curl.message);
}

/// A rule the agent does not honour refuses nothing; a rule without a
/// shared meaning is not compared; a scope a broader one of the same
/// side covers is one finding, not two.
#[test]
fn only_honoured_translatable_rules_count_once() {
    let no = Verdict::No {
        reason: "off".into(),
        source: None,
    };
    let mut other = deny(
        "a.json",
        "mcp__db",
        scope(ActionKind::Shell, None),
        Verdict::Yes,
    );
    other.denies = None;
    let a = [
        deny(
            "a.json",
            "Bash",
            scope(ActionKind::Shell, None),
            Verdict::Yes,
        ),
        deny(
            "a.json",
            "Bash(rm:*)",
            scope(ActionKind::Shell, Some("rm")),
            Verdict::Yes,
        ),
        deny("a.json", "Read", scope(ActionKind::Read, None), no),
        other,
    ];
    let fs = gaps(&a, &[]);
    assert_eq!(
        scopes(&fs),
        [(scope(ActionKind::Shell, None), true)],
        "{fs:#?}"
    );
    let unknown = Verdict::Unknown {
        reason: "a flag may replace it".into(),
    };
    let fs = gaps(
        &[deny(
            "a.json",
            "edit",
            scope(ActionKind::Edit, None),
            unknown,
        )],
        &[],
    );
    assert_eq!(fs.len(), 1, "a rule that may be honoured counts");
}

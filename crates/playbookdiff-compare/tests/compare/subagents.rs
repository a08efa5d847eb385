//! Subagents compared by name (configurations written here, test-only
//! harnesses): one only some main agents can call is a `capability-gap`
//! from those sides, whatever the number of harnesses; one every side can
//! call from different files with different descriptions is `different`;
//! primary agents and subagents a harness does not load are not callable.

use crate::sides::{config, HARNESSES};
use playbookdiff_compare::{compare, Category, FindingSeverity, FindingType, Subject};
use playbookdiff_model::{
    AgentMode, Applicability, LoadPhase, RepoPath, SourceFormat, SourceRef, Subagent,
};

fn subagent(name: &str, path: &str, description: &str) -> Subagent {
    Subagent {
        id: format!("x:subagent:{path}"),
        name: name.to_string(),
        source: SourceRef::project(RepoPath::new(path).unwrap(), SourceFormat::Markdown),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: "found".to_string(),
        mode: AgentMode::Subagent,
        description: Some(description.to_string()),
        tools: None,
        disallowed_tools: Vec::new(),
        model: None,
        listed_by: Some("Agent".to_string()),
        plugin: None,
    }
}

/// With 2 to 5 harnesses, a subagent only the first can call is one
/// medium capability-gap, present in the first, absent from every other,
/// its id `subagent:capability-gap:<first>-only:<name>:…`, its subject the
/// file to copy.
#[test]
fn a_subagent_only_one_main_agent_can_call_is_a_capability_gap() {
    for n in 2..=HARNESSES.len() {
        let mut cs: Vec<_> = (0..n).map(config).collect();
        cs[0]
            .subagents
            .push(subagent("review", ".claude/agents/review.md", "Reviews."));
        let refs: Vec<_> = cs.iter().collect();
        let c = compare(&refs);
        let fs: Vec<_> = c
            .findings
            .iter()
            .filter(|f| f.category == Category::Subagent)
            .collect();
        assert_eq!(fs.len(), 1, "{n} harnesses");
        let f = fs[0];
        assert_eq!(f.kind, FindingType::CapabilityGap);
        assert_eq!(f.severity, FindingSeverity::Medium);
        assert_eq!(f.present_in, [HARNESSES[0]]);
        assert_eq!(f.absent_from, HARNESSES[1..n]);
        assert!(
            f.id.starts_with("subagent:capability-gap:alpha-only:review:"),
            "{}",
            f.id
        );
        assert_eq!(f.absences.len(), n - 1);
        match &f.subject {
            Some(Subject::Subagent { name, files, .. }) => {
                assert_eq!(name, "review");
                assert_eq!(files[0].as_str(), ".claude/agents/review.md");
            }
            other => panic!("{other:?}"),
        }
        let row = c
            .rows
            .iter()
            .find(|r| r.category == Category::Subagent)
            .unwrap();
        assert!(!row.agree);
    }
}

/// A primary agent (not listed to the model), or a subagent the harness
/// does not load (excluded, shadowed), does not count as callable: the
/// side that has only that is absent; a primary agent alone makes no row.
#[test]
fn primary_and_unloaded_agents_are_not_callable() {
    for (mode, applicability) in [
        (AgentMode::Primary, Applicability::Effective),
        (AgentMode::Subagent, Applicability::Excluded),
        (AgentMode::All, Applicability::Shadowed),
    ] {
        let mut a = config(0);
        let mut b = config(1);
        a.subagents.push(subagent("review", "a.md", "Reviews."));
        let mut other = subagent("review", "b.md", "Reviews.");
        other.mode = mode;
        other.applicability = applicability;
        b.subagents.push(other);
        let c = compare(&[&a, &b]);
        let gap: Vec<_> = c
            .findings
            .iter()
            .filter(|f| f.category == Category::Subagent)
            .collect();
        assert_eq!(gap.len(), 1, "{mode:?} {applicability:?}");
        assert_eq!(gap[0].absent_from, [HARNESSES[1]]);
    }
    let mut a = config(0);
    let b = config(1);
    let mut lead = subagent("lead", "lead.md", "Leads.");
    lead.mode = AgentMode::Primary;
    a.subagents.push(lead);
    let c = compare(&[&a, &b]);
    assert!(c.rows.iter().all(|r| r.category != Category::Subagent));
    assert!(c.findings.is_empty());
}

/// Every side can call it: no gap; the same description (spacing aside)
/// agrees; another description from another file is one `different`
/// with the field `description`.
#[test]
fn descriptions_of_one_subagent_are_compared() {
    let mut a = config(0);
    let mut b = config(1);
    a.subagents
        .push(subagent("review", "a.md", "Reviews  a change."));
    b.subagents
        .push(subagent("review", "b.md", "Reviews a change."));
    assert!(compare(&[&a, &b]).findings.is_empty());
    b.subagents[0].description = Some("Writes code.".to_string());
    let c = compare(&[&a, &b]);
    assert_eq!(c.findings.len(), 1);
    let f = &c.findings[0];
    assert_eq!(
        (f.category, f.kind),
        (Category::Subagent, FindingType::Different)
    );
    assert_eq!(f.differences[0].field, "description");
    assert!(
        f.id.starts_with("subagent:different:both:review:"),
        "{}",
        f.id
    );
}

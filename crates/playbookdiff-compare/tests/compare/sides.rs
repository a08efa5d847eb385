//! The comparison on configurations written here rather than compiled
//! (test-only harnesses `alpha`, `beta`, `gamma`, ...): how many sides a
//! sentence speaks of, and what each side is said to receive.

use playbookdiff_compare::{compare, Comparison, Finding, FindingType};
use playbookdiff_model::{
    Advertisement, AdvertisementState, AnalysisContext, Applicability, EffectiveAgentConfig,
    Harness, Instruction, InstructionKind, Invocation, LoadPhase, Permission, RepoPath, Skill,
    SourceFormat, SourceRef,
};

pub(crate) const HARNESSES: [Harness; 5] = [
    Harness::new("alpha", "Alpha"),
    Harness::new("beta", "Beta"),
    Harness::new("gamma", "Gamma"),
    Harness::new("delta", "Delta"),
    Harness::new("epsilon", "Epsilon"),
];

fn rp(s: &str) -> RepoPath {
    RepoPath::new(s).unwrap()
}

/// An empty configuration of the `i`-th test harness.
pub(crate) fn config(i: usize) -> EffectiveAgentConfig {
    EffectiveAgentConfig::new(HARNESSES[i], AnalysisContext::at_root())
}

/// A skill `name` read from `path` (resolved to `file` when they differ),
/// received at startup, allowed both ways, advertised.
pub(crate) fn skill(name: &str, path: &str, file: &str) -> Skill {
    let mut source = SourceRef::project(rp(path), SourceFormat::Markdown);
    if path != file {
        source.resolved_path = Some(rp(file));
    }
    Skill {
        id: format!("skill:{path}:{name}"),
        name: name.to_string(),
        directory_name: name.rsplit(':').next().unwrap().to_string(),
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: "Found in a skill root.".to_string(),
        description: Some("Reviews a change.".to_string()),
        invocation: Invocation {
            explicit: Permission::Allowed,
            implicit: Permission::Allowed,
        },
        advertisement: Advertisement::new(AdvertisementState::Advertised, 17),
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

/// An instruction of `path` with `text`, applying to `dir`, received with
/// `phase` and `applicability`, scoped to `globs` when given.
pub(crate) fn instruction(
    path: &str,
    text: &str,
    dir: &str,
    (phase, applicability): (LoadPhase, Applicability),
    globs: Option<&[&str]>,
) -> Instruction {
    Instruction {
        id: format!("instruction:{path}"),
        kind: if globs.is_some() {
            InstructionKind::Rule
        } else {
            InstructionKind::Memory
        },
        source: SourceRef::project(rp(path), SourceFormat::Markdown),
        load_phase: phase,
        applicability,
        reason: format!("{path} is read."),
        order: Some(0),
        applies_to: rp(dir),
        imported_from: None,
        bytes: text.len() as u64,
        truncated_at_byte: None,
        paths: globs.map(|g| g.iter().map(|s| s.to_string()).collect()),
        resolution: None,
        import_spans: Vec::new(),
        content: text.to_string(),
    }
}

pub(crate) const STARTUP: (LoadPhase, Applicability) =
    (LoadPhase::Startup, Applicability::Effective);
pub(crate) const ON_DEMAND: (LoadPhase, Applicability) =
    (LoadPhase::OnDemand, Applicability::Conditional);

pub(crate) fn compare_all(configs: &[EffectiveAgentConfig]) -> Comparison {
    let refs: Vec<&EffectiveAgentConfig> = configs.iter().collect();
    compare(&refs)
}

fn of_kind(c: &Comparison, kind: FindingType) -> Vec<&Finding> {
    c.findings.iter().filter(|f| f.kind == kind).collect()
}

/// Every skill of `alpha` also given to `beta` under a namespaced name
/// (`plugin:<name>`), read from the same file through a link: one skill
/// with two names. Whatever the other sides hold, the findings are those
/// of the comparison where `beta` uses the plain names, but for the
/// entry's key and wording; no finding is about a skill against itself.
#[test]
fn one_file_under_two_names_is_one_skill() {
    let names = ["review", "commit", "deploy"];
    for others in 0..3 {
        let plain: Vec<EffectiveAgentConfig> = (0..2 + others)
            .map(|i| {
                let mut c = config(i);
                if i < 2 {
                    c.skills = names
                        .iter()
                        .map(|n| {
                            skill(
                                n,
                                &format!(".agents/skills/{n}/SKILL.md"),
                                &format!("skills/{n}/SKILL.md"),
                            )
                        })
                        .collect();
                }
                c
            })
            .collect();
        let mut renamed = plain.clone();
        for s in &mut renamed[1].skills {
            s.name = format!("plugin:{}", s.name);
        }
        let a = compare_all(&plain);
        let b = compare_all(&renamed);
        let facts = |c: &Comparison| -> Vec<_> {
            c.findings
                .iter()
                .map(|f| {
                    (
                        f.kind,
                        f.severity,
                        f.present_in.clone(),
                        f.absent_from.clone(),
                    )
                })
                .collect()
        };
        assert_eq!(facts(&a), facts(&b), "{:#?}", b.findings);
        assert_eq!(b.findings.len(), names.len() * usize::from(others > 0));
        for f in &b.findings {
            // The plain name, then the other with the side that uses it.
            assert!(
                f.message.contains("(Beta names it `plugin:"),
                "{}",
                f.message
            );
            assert!(!f.present_in.is_empty() && f.absent_from.iter().all(|h| h.as_str() != "beta"));
            // The id's readable part is the first name alone, never a cut
            // of the joined label (`commit---plugin`).
            let slug = f.id.rsplit(':').nth(1).unwrap();
            assert!(names.contains(&slug), "{}", f.id);
            // Its hash covers both names: not the id of the plain match.
            assert!(a.findings.iter().all(|p| p.id != f.id), "{}", f.id);
        }
        let labels: Vec<&str> = b.rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "commit = plugin:commit",
                "deploy = plugin:deploy",
                "review = plugin:review"
            ]
        );
    }
}

/// Two names of one file stay two skills when one harness has both (its
/// two names are two skills to it), and two files under two names are
/// never joined; the ids of skills matched by name do not change.
#[test]
fn names_are_joined_only_across_harnesses_and_only_by_file() {
    let mut a = config(0);
    let mut b = config(1);
    a.skills = vec![
        skill("x", "skills/x/SKILL.md", "skills/x/SKILL.md"),
        skill("p:x", ".agents/skills/x/SKILL.md", "skills/x/SKILL.md"),
        skill("y", "skills/y/SKILL.md", "skills/y/SKILL.md"),
    ];
    b.skills = vec![
        skill("p:x", ".agents/skills/x/SKILL.md", "skills/x/SKILL.md"),
        skill("other:y", "skills/y2/SKILL.md", "skills/y2/SKILL.md"),
    ];
    let c = compare_all(&[a.clone(), b.clone()]);
    let labels: Vec<&str> = c.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["other:y", "p:x", "x", "y"]);
    // The same ids as a comparison of the lone names.
    let gaps = of_kind(&c, FindingType::CapabilityGap);
    let ids: Vec<&str> = gaps.iter().map(|f| f.id.as_str()).collect();
    a.skills.remove(1);
    b.skills.remove(0);
    let alone = compare_all(&[a, b]);
    for f in &alone.findings {
        assert!(ids.contains(&f.id.as_str()), "{} not in {ids:?}", f.id);
    }
}

/// Several sides that have one text (or one skill) in different scopes are
/// each described with their own: no sentence gives every side the
/// loadPhase, globs or directory of one side, and one side's several
/// files in several directories are not all placed in one.
#[test]
fn each_side_is_described_with_its_own_scope() {
    let text = "Use strict TypeScript.\n\nRun pnpm test before a commit.\n";
    // Alpha on demand for `**/*.ts` (a rule), Beta at startup, Gamma not.
    let mut a = config(0);
    let mut b = config(1);
    a.instructions = vec![instruction(
        ".alpha/rules/style.md",
        text,
        ".",
        ON_DEMAND,
        Some(&["**/*.ts"]),
    )];
    b.instructions = vec![instruction(
        ".beta/memories/style.md",
        text,
        ".",
        STARTUP,
        None,
    )];
    let c = compare_all(&[a, b, config(2)]);
    let [f] = &of_kind(&c, FindingType::Missing)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert!(
        f.message.contains(
            ": Alpha on demand for paths matching `**/*.ts` (the repository root), Beta at startup in the repository root; Gamma receives nothing"
        ),
        "{}",
        f.message
    );

    // The same text in three directories, each on demand in its own, on
    // two sides; the third side lacks it.
    let dirs = ["apps/api", "apps/web", "scripts"];
    let nested = |i: usize| {
        let mut c = config(i);
        c.instructions = dirs
            .iter()
            .map(|d| instruction(&format!("{d}/NOTES.md"), text, d, ON_DEMAND, None))
            .collect();
        c
    };
    let c = compare_all(&[nested(0), config(1), nested(2)]);
    let [f] = &of_kind(&c, FindingType::Missing)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert!(
        f.message.contains(
            "(the same text) on demand, each file in its own directory; Beta receives nothing"
        ),
        "{}",
        f.message
    );
    assert!(!f.message.contains("in `apps/api`"), "{}", f.message);

    // One side alone with the same text in several directories.
    let c = compare_all(&[nested(0), config(1)]);
    let [f] = &of_kind(&c, FindingType::Missing)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert!(
        f.message.contains("each file in its own directory"),
        "{}",
        f.message
    );

    // A skill at startup on one side, on demand on another, absent from a
    // third.
    let mut a = config(0);
    let mut b = config(1);
    a.skills = vec![skill(
        "review",
        "skills/review/SKILL.md",
        "skills/review/SKILL.md",
    )];
    let mut late = a.skills[0].clone();
    late.load_phase = LoadPhase::OnDemand;
    b.skills = vec![late];
    let c = compare_all(&[a, b, config(2)]);
    let [f] = &of_kind(&c, FindingType::CapabilityGap)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert_eq!(
        f.message,
        "Skill `review`: Alpha has it at startup, but Beta has it on demand; Gamma has no skill of that name."
    );
}

/// Four and five harnesses: the same text in other scopes on several
/// sides is one finding whose sentence gives each side its own scope; a
/// skill every side has at different receptions is one `scope-gap`
/// naming each side's; nothing is said of one side that is another's.
#[test]
fn many_sides_keep_their_own_scopes() {
    let text = "Run pnpm test before a commit.\n";
    let mut configs: Vec<EffectiveAgentConfig> = (0..5).map(config).collect();
    configs[0].instructions = vec![instruction("AGENTS.md", text, ".", STARTUP, None)];
    configs[1].instructions = vec![instruction(
        ".beta/rules/test.md",
        text,
        ".",
        ON_DEMAND,
        Some(&["**/*.ts"]),
    )];
    configs[3].instructions = vec![instruction("AGENTS.md", text, ".", STARTUP, None)];
    let c = compare_all(&configs);
    let [f] = &of_kind(&c, FindingType::Missing)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert_eq!(
        f.message,
        "Alpha, Beta and Delta receive the text of `.beta/rules/test.md` and `AGENTS.md` (the same text): Alpha at startup in the repository root, Beta on demand for paths matching `**/*.ts` (the repository root), Delta at startup in the repository root; Gamma and Epsilon receive nothing equivalent."
    );
    assert!(
        f.id.starts_with("instruction:missing:alpha+beta+delta-only:root:"),
        "{}",
        f.id
    );

    // Every one of four sides has the text: a scope-gap, each side with
    // its own reception.
    let mut four: Vec<EffectiveAgentConfig> = configs[..4].to_vec();
    four[2].instructions = vec![instruction("AGENTS.md", text, ".", ON_DEMAND, None)];
    let c = compare_all(&four);
    let [f] = &of_kind(&c, FindingType::ScopeGap)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert_eq!(
        f.message,
        "`.beta/rules/test.md` and `AGENTS.md` (the same text): Alpha and Delta receive it at startup, but Beta and Gamma receive it on demand."
    );

    // A skill at three receptions among five sides.
    let mut five: Vec<EffectiveAgentConfig> = (0..5).map(config).collect();
    for (i, c) in five.iter_mut().enumerate() {
        let mut s = skill("review", "skills/review/SKILL.md", "skills/review/SKILL.md");
        if i % 2 == 1 {
            s.load_phase = LoadPhase::OnDemand;
        }
        c.skills = vec![s];
    }
    let c = compare_all(&five);
    let [f] = &of_kind(&c, FindingType::ScopeGap)[..] else {
        panic!("{:#?}", c.findings)
    };
    assert_eq!(
        f.message,
        "Skill `review`: Alpha, Gamma and Epsilon have it at startup, but Beta and Delta have it on demand."
    );
}

/// Rewording is compared between every two sides that each receive text
/// the others lack in one scope, however many sides there are: with `n`
/// sides whose one file says the same thing with another command, each
/// two sides get one `different` finding (n × (n − 1) / 2 of them), a
/// paragraph every side holds word for word agrees, and the paragraph
/// only one side has, which no other side rewords, is that side's one
/// `missing`, absent from every other side.
#[test]
fn rewording_is_compared_between_every_two_sides() {
    let tools = ["pnpm", "npm", "yarn", "bun", "deno"];
    let deploy = "Deploy only from the main branch, never from a fork.";
    for n in 2..=5 {
        let configs: Vec<EffectiveAgentConfig> = (0..n)
            .map(|i| {
                let mut text = format!(
                    "# Notes\n\nRun the tests with `{} test` before a commit.\n\nKeep functions short.\n",
                    tools[i]
                );
                if i == 0 {
                    text.push_str(&format!("\n{deploy}\n"));
                }
                let mut c = config(i);
                c.instructions = vec![instruction(
                    &format!(".{}/NOTES.md", HARNESSES[i].as_str()),
                    &text,
                    ".",
                    STARTUP,
                    None,
                )];
                c
            })
            .collect();
        let c = compare_all(&configs);
        let different = of_kind(&c, FindingType::Different);
        let mut pairs: Vec<(usize, usize)> = different
            .iter()
            .map(|f| {
                let at = |h| HARNESSES.iter().position(|x| *x == h).unwrap();
                assert_eq!(f.present_in.len(), 2, "{}", f.message);
                assert_eq!(f.paragraphs.len(), 1, "{}", f.message);
                assert!(
                    f.message.contains(&format!(
                        "{} reads `{} test`",
                        f.present_in[0].display_name(),
                        tools[at(f.present_in[0])]
                    )),
                    "{}",
                    f.message
                );
                let (a, b) = (at(f.present_in[0]), at(f.present_in[1]));
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort();
        let every_two: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        assert_eq!(pairs, every_two, "n = {n}");
        let ids: std::collections::BTreeSet<&str> =
            different.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids.len(), every_two.len(), "n = {n}: one id per pair");
        let [m] = &of_kind(&c, FindingType::Missing)[..] else {
            panic!("n = {n}: {:#?}", c.findings)
        };
        assert_eq!(m.present_in, [HARNESSES[0]], "n = {n}");
        let mut absent = m.absent_from.clone();
        absent.sort();
        let mut others = HARNESSES[1..n].to_vec();
        others.sort();
        assert_eq!(absent, others, "n = {n}");
        let texts: Vec<&str> = m
            .paragraphs
            .iter()
            .map(|p| p.sides[0].text.as_str())
            .collect();
        assert_eq!(texts, [deploy], "n = {n}");
        assert_eq!(
            c.findings.len(),
            every_two.len() + 1,
            "n = {n}: {:#?}",
            c.findings
        );
    }
}

//! Repository skills (spec 004 "Skills", "Invocation"; fidelity rows X1,
//! X2, X3, X9-X20, X26), as openai/codex `codex-rs/core-skills` loads and
//! lists them, checked with `codex debug prompt-input` of each profiled
//! release.
//!
//! **Roots** (`loader.rs`, `skill_roots_in_layer_of_stack_inner`,
//! `repo_agents_skill_roots`): `.codex/skills` of every project `.codex`
//! folder from cwd up to the repository root (a `.codex` folder makes a
//! layer with or without `config.toml`, and these roots are scanned even
//! for an untrusted project), then `.agents/skills` of every directory from
//! the repository root down to cwd.
//!
//! **Walk** (`discover_skills_under_root`): breadth first, every
//! `SKILL.md` file in a directory at most six levels below the root (the
//! root itself included, where a `SKILL.md` is named after the root
//! directory), at most 2,000 directories per root; names starting with `.`
//! are skipped; a symbolic link is followed only when it leads to a
//! directory (a `SKILL.md` that is a link to a file is not loaded). A
//! skill reached twice (through a link) is listed once.
//!
//! **Each skill** ([`crate::skill_file`]): front matter read with
//! serde_yaml 0.9; `description` required; `name` defaults to the folder's
//! name; whitespace collapsed; names over 64 characters rejected;
//! `agents/openai.yaml` fails open; `policy.allow_implicit_invocation:
//! false` hides the skill from the model-visible list and from the budget
//! (X1); `policy.products` without `codex` drops it (X16).
//!
//! **Listing budget** ([`listing`], X17): computed as Codex computes it,
//! naming the skills whose descriptions are shortened and those omitted.
//!
//! Skills under `.agents/skills` below cwd, and of the directories on the
//! way to targetPath, are listed `out-of-scope` so the scope gap stays
//! visible; they take no part in collisions or budgets. Skills of other
//! directories (siblings) are not listed.
//!
//! In local mode the user's skills ([`user`]), the system skills
//! ([`system`]) and the user's `[[skills.config]]` rules ([`rules`]) join
//! them, the rules applied before the budget.
//!
//! One module per concept: the roots and the whole compilation here, the
//! walk of a root in [`discovery`], one skill in [`loading`], its plugin
//! [`namespace`], the user's [`rules`], and the [`listing`] budget.

mod discovery;
mod listing;
mod loading;
mod namespace;
mod rules;
mod system;
mod user;

pub(crate) use self::rules::{Places, SkillRule};
pub(crate) use self::system::SystemSkills;

/// What local mode adds to the skills: the user's, the administrator's
/// and the system skills, and the user's `[[skills.config]]` rules.
pub(crate) struct LocalSkills<'a> {
    /// The system skills of the release, and the machine and Codex's home
    /// the user's skills are read from.
    pub system: SystemSkills<'a>,
    /// The user's rules, in the order Codex applies them.
    pub rules: Vec<SkillRule>,
}

/// The rules of the user's `layers` ([`rules`]).
pub(crate) fn user_rules(layers: &[&Layer<'_>], places: &Places<'_>) -> Vec<SkillRule> {
    rules::read(layers, places)
}

use self::discovery::walk;
use self::listing::budget;
use self::loading::{build, parse_front_matter, policy, skill_file_not_a_file, Parsed};
use self::namespace::qualify;
use crate::config::Layer;
use crate::profile::Facts;
use crate::{
    strictly_below, target_only_dirs, ContextWindow, Cx, READ_LIMIT, SKILL_BUDGET_CONTEXT_FRACTION,
    SKILL_BUDGET_FALLBACK_CHARS,
};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    AdvertisementState, AggregateBudget, Applicability, Diagnostic, DiagnosticCode, RepoPath,
    Skill, SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Resolved};
use std::collections::{BTreeMap, HashSet};

/// A skills root Codex scans.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    /// The directory whose `.agents` or `.codex` holds the root.
    pub scan_dir: RepoPath,
    /// The root itself (`<scan_dir>/.agents/skills` or `<scan_dir>/.codex/skills`).
    pub path: RepoPath,
}

/// Compiles the skills for `chain` (root first, ending at cwd) under the
/// release `facts`, the listing budget computed for the model's
/// `context_window` ([`crate::listing_window`]).
///
/// Shape: in-scope skills in the order Codex lists them (by name, then
/// path), then out-of-scope skills by path. Ids are
/// `codex:skill:<SKILL.md path>`.
///
/// In local mode `user` is the machine, Codex's home on it and the
/// release, whose user skills ([`user`]) and system skills ([`system`])
/// are listed and budgeted with the project's, and the user's
/// `[[skills.config]]` rules, which exclude the skills they disable
/// ([`rules`]) before the budget is computed.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    chain: &[RepoPath],
    layers: &[Layer<'_>],
    facts: &Facts,
    context_window: ContextWindow,
    user: Option<LocalSkills<'_>>,
) -> Vec<Skill> {
    let roots = roots(cx, chain, facts);
    let mut skills = Vec::new();
    let mut seen = HashSet::new();
    for root in &roots {
        walk(cx, root, facts, &mut skills, &mut seen);
    }
    if let Some(u) = &user {
        user::compile(cx, u.system.machine, u.system.home, &mut skills);
        u.system.compile(cx, facts, &mut skills);
        rules::apply(&u.rules, &mut skills);
    }
    skills.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| a.source.path.cmp(&b.source.path))
    });
    ignore_project_skills_config(cx, layers);
    collisions(cx, &mut skills);
    budget(cx, &mut skills, &roots, facts, context_window);
    let mut outside = out_of_scope(cx, facts);
    outside.sort_by(|a, b| a.source.path.cmp(&b.source.path));
    skills.extend(outside);
    skills
}

fn aggregate_budget() -> AggregateBudget {
    AggregateBudget {
        max_context_fraction: SKILL_BUDGET_CONTEXT_FRACTION,
        fallback_chars: SKILL_BUDGET_FALLBACK_CHARS,
        computed_chars: None,
    }
}

/// The roots in Codex's order: `.codex/skills` closest to cwd first, then
/// `.agents/skills` from the repository root down to cwd. Only roots that
/// are directories (links followed inside the repository) are returned;
/// a link problem is reported. A release without
/// [`Facts::agents_skills`] has the `.codex/skills` roots only, and each
/// `.agents/skills` folder is reported as not read.
fn roots(cx: &mut Cx<'_, '_>, chain: &[RepoPath], facts: &Facts) -> Vec<Root> {
    let mut out = Vec::new();
    let agents = chain
        .iter()
        .filter_map(|d| d.join(".agents/skills").map(|p| (d.clone(), p)));
    let (agents, unread): (Vec<_>, Vec<_>) = agents.partition(|_| facts.agents_skills);
    for (_, path) in unread {
        agents_root_not_read(cx, &path);
    }
    let candidates = chain
        .iter()
        .rev()
        .filter_map(|d| d.join(".codex/skills").map(|p| (d.clone(), p)))
        .chain(agents)
        .collect::<Vec<_>>();
    for (scan_dir, path) in candidates {
        match cx.resolve(&path) {
            Resolved::Inside {
                kind: EntryKind::Dir,
                ..
            } => out.push(Root { scan_dir, path }),
            Resolved::Missing => {}
            Resolved::Inside { .. } => {
                if let Some((t, true)) = cx.repo.link_stored_as_text(&path) {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::SymlinkStoredAsText,
                            format!(
                                "{q} is a file containing only {t}: a symbolic link checked out as text, so Codex \
                                 finds no skills there; restore the link, or copy the skills into {q}.",
                                q = problems::quote(&path)
                            ),
                        )
                        .at(SourceRef::project(path.clone(), SourceFormat::Markdown)),
                    );
                }
            }
            other => {
                cx.link_problem(
                    &other,
                    &format!("The skills root {}", problems::quote(&path)),
                    "Codex finds no skills there",
                    SourceFormat::Markdown,
                );
            }
        }
    }
    out
}

/// An `.agents/skills` folder that a release without
/// [`Facts::agents_skills`] does not read: reported when it exists.
fn agents_root_not_read(cx: &mut Cx<'_, '_>, path: &RepoPath) {
    if matches!(cx.resolve(path), Resolved::Missing) {
        return;
    }
    let msg = format!("{q} is not read: Codex releases before {since} list the skills of `.codex/skills` folders only, so none of its skills is listed; upgrade Codex, or move the skills to `.codex/skills`.", q = problems::quote(path), since = crate::profile::AGENTS_SKILLS_SINCE);
    cx.diag(
        Diagnostic::new(DiagnosticCode::SkillRootNotRead, msg)
            .at(SourceRef::project(path.clone(), SourceFormat::Markdown)),
    );
}

/// `[[skills.config]]` in a project layer: Codex reads skill rules only
/// from user, session and in-memory layers (`skill_config_rules_from_stack`),
/// so it disables nothing (X2).
fn ignore_project_skills_config(cx: &mut Cx<'_, '_>, layers: &[Layer<'_>]) {
    use crate::config::{describe, get, invalid_value};
    use toml::de::DeValue;
    for l in layers {
        let Some((k, v)) = get(&l.table, "skills") else {
            continue;
        };
        let DeValue::Table(t) = v.get_ref() else {
            invalid_value(
                cx,
                l,
                k,
                v,
                "skills",
                "a table (with [[skills.config]] entries)",
            );
            continue;
        };
        let config = get(t, "config");
        // Codex still type-checks the entries: a wrong type stops it.
        if let Some((_, DeValue::Array(items))) = config.map(|(k, v)| (k, v.get_ref())) {
            for item in items.iter() {
                let DeValue::Table(e) = item.get_ref() else {
                    continue;
                };
                for (field, expected) in [("path", "a path string"), ("enabled", "true or false")] {
                    let Some((fk, fv)) = get(e, field) else {
                        continue;
                    };
                    let ok = match field {
                        "path" => fv.get_ref().is_str(),
                        _ => fv.get_ref().as_bool().is_some(),
                    };
                    if !ok {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::InvalidValue,
                                format!("A skills.config entry in {} sets {field} to {} where Codex expects {expected}, so Codex rejects this configuration; fix it.", problems::quote(&l.loaded.path), describe(fv.get_ref())),
                            )
                            .at(l.source(crate::config::extent(fk, fv))),
                        );
                    }
                }
            }
        }
        if config.is_some() {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ConfigKeyNotAllowed,
                    format!("{} sets [[skills.config]], which Codex reads only from user and session configuration, never from a project layer, so it disables no skill; move it to `~/.codex/config.toml`, or remove the skill from the repository.", problems::quote(&l.loaded.path)),
                )
                .at(l.source(crate::config::extent(k, v))),
            );
        }
    }
}

/// Splits `X/.agents/skills/<rest...>` into `X` and the components after
/// `skills`, for the last `.agents/skills` in `p`.
fn split_skills_root(p: &RepoPath) -> Option<(RepoPath, Vec<String>)> {
    let parts: Vec<&str> = p.components().collect();
    let i = (0..parts.len().saturating_sub(1))
        .rev()
        .find(|&i| parts[i] == ".agents" && parts[i + 1] == "skills")?;
    let dir = RepoPath::new(&parts[..i].join("/"))?;
    Some((dir, parts[i + 2..].iter().map(|s| s.to_string()).collect()))
}

/// Same-name in-scope skills: kept apart (Codex lists both),
/// cross-referenced, reported once per name.
fn collisions(cx: &mut Cx<'_, '_>, skills: &mut [Skill]) {
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in skills.iter().enumerate() {
        if matches!(
            s.applicability,
            Applicability::Effective | Applicability::Conditional
        ) {
            by_name.entry(s.name.clone()).or_default().push(i);
        }
    }
    for (name, idx) in by_name {
        if idx.len() < 2 {
            continue;
        }
        let ids: Vec<String> = idx.iter().map(|&i| skills[i].id.clone()).collect();
        let paths: Vec<String> = idx
            .iter()
            .map(|&i| problems::quote(&skills[i].source.path))
            .collect();
        for &i in &idx {
            let own = skills[i].id.clone();
            skills[i].cross_references = ids.iter().filter(|id| **id != own).cloned().collect();
        }
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNameCollision,
                // count >= 2: a collision.
                format!("{} skills are named {name:?} ({}); Codex does not merge them and lists both under that name, so `${name}` does not say which one is meant; rename one.", idx.len(), paths.join(", ")),
            )
            .at(skills[idx[0]].source.clone()),
        );
    }
}

/// Skills in `.agents/skills` below cwd and of the directories on the way
/// to targetPath (see [`target_only_dirs`]); other directories are not
/// visited. The subtree below cwd is answered from the sorted index, so
/// the cost is that of what is listed. A `SKILL.md` that is not a regular
/// file is reported and not listed.
fn out_of_scope(cx: &mut Cx<'_, '_>, facts: &Facts) -> Vec<Skill> {
    let cwd = cx.context.cwd.clone();
    let target = cx.context.target_path.clone();
    let mut found: Vec<(RepoPath, RepoPath, String)> = Vec::new();
    let mut take = |file: &RepoPath, want: &dyn Fn(&RepoPath) -> bool| {
        if let Some((dir, rest)) = split_skills_root(file) {
            if rest.len() == 2 && want(&dir) {
                found.push((file.clone(), dir, rest[0].clone()));
            }
        }
    };
    for file in cx.repo.files_named_under("SKILL.md", &cwd) {
        take(file, &|dir| strictly_below(dir, &cwd));
    }
    for d in target_only_dirs(cx.context) {
        let Some(root) = d.join(".agents/skills") else {
            continue;
        };
        for file in cx.repo.files_named_under("SKILL.md", &root) {
            take(file, &|dir| dir == &d);
        }
    }
    let mut out = Vec::new();
    for (file, dir, dir_name) in found {
        let Some(skill_dir) = file.parent() else {
            continue;
        };
        let text = match cx.resolve(&file) {
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } => cx.repo.read_text(&file, READ_LIMIT).ok(),
            Resolved::Inside { kind, via_link, .. } => {
                skill_file_not_a_file(cx, &file, kind, via_link);
                continue;
            }
            _ => None,
        };
        let mut parsed = match &text {
            Some(t) => parse_front_matter(cx, &file, &dir_name, t, false),
            None => Parsed {
                name: None,
                namespace: None,
                description: None,
                lines: None,
                invalid: None,
            },
        };
        if parsed.invalid.is_none() && text.is_some() {
            let real = match cx.resolve(&file) {
                Resolved::Inside { real, .. } => real,
                _ => file.clone(),
            };
            qualify(cx, &file, &real, facts, &mut parsed, false);
        }
        let (pol, meta) = policy(cx, &skill_dir, false);
        let root = Root {
            scan_dir: dir.clone(),
            path: dir.join(".agents/skills").unwrap_or_else(|| dir.clone()),
        };
        let mut s = build(cx, &root, &dir_name, &file, &parsed, pol, meta);
        s.applicability = Applicability::OutOfScope;
        s.advertisement.state = AdvertisementState::Hidden;
        s.reason = if strictly_below(&dir, &cwd) {
            let note = match &target {
                Some(t) if t.starts_with(&dir) => {
                    format!(", even though targetPath {t} lies inside {dir}")
                }
                _ => String::new(),
            };
            format!("In the .agents/skills of {dir}, below cwd {cwd}: Codex scans only from cwd up to the repository root, so this skill is not available in this session{note}.")
        } else {
            let t = target.as_ref().map(ToString::to_string).unwrap_or_default();
            format!("In the .agents/skills of {dir}, on the way to targetPath {t} but not on the path from cwd {cwd} up to the repository root, so Codex does not discover it in this session.")
        };
        out.push(s);
    }
    out
}

/// Skills of the `.agents/skills` roots of `dirs`, which lie above the
/// nested project root `root`: Codex scans skill roots only from `root`
/// down to cwd, so they are listed `out-of-scope`.
pub(crate) fn above_project_root(
    cx: &mut Cx<'_, '_>,
    dirs: &[RepoPath],
    root: &RepoPath,
    facts: &Facts,
) -> Vec<Skill> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for dir in dirs {
        let Some(path) = dir.join(".agents/skills") else {
            continue;
        };
        if cx.repo.is_dir(&path) {
            let r = Root {
                scan_dir: dir.clone(),
                path,
            };
            walk(cx, &r, facts, &mut out, &mut seen);
        }
    }
    for s in &mut out {
        s.applicability = Applicability::OutOfScope;
        s.advertisement.state = AdvertisementState::Hidden;
        s.reason = format!("Above the project root {root}: {root} holds a .git entry, so Codex takes it as the project root and scans no skill root above it.");
    }
    out
}

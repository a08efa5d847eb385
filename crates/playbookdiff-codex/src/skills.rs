//! Repository skills (spec 004 "Skills", "Invocation"; fidelity rows X1,
//! X2, X3, X9-X20, X26), as openai/codex `codex-rs/core-skills` loads and
//! lists them, checked with `codex debug prompt-input` of each profiled
//! release.
//!
//! **Roots** (`loader.rs`, `skill_roots_from_layer_stack_inner`,
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
//! **Listing budget** ([`budget`], X17): computed as Codex computes it,
//! naming the skills whose descriptions are shortened and those omitted.
//!
//! Skills under `.agents/skills` below cwd, and of the directories on the
//! way to targetPath, are listed `out-of-scope` so the scope gap stays
//! visible; they take no part in collisions or budgets. Skills of other
//! directories (siblings) are not listed.

use crate::config::Layer;
use crate::profile::{Facts, SkillPathStyle};
use crate::skill_file::{self, Parsed as FileParse};
use crate::{
    not_a_file, strictly_below, target_only_dirs, ContextWindow, Cx, READ_LIMIT,
    SKILL_BUDGET_CONTEXT_FRACTION, SKILL_BUDGET_FALLBACK_CHARS,
};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Advertisement, AdvertisementState, AggregateBudget, Applicability, BudgetCause, Diagnostic,
    DiagnosticCode, Invocation, LoadPhase, Permission, RepoPath, Severity, Skill, SourceFormat,
    SourceRef,
};
use playbookdiff_source::{EntryKind, Repo, Resolved, TextFile};
use std::collections::{BTreeMap, HashSet, VecDeque};

/// Directories below a skills root Codex descends into (`MAX_SCAN_DEPTH`).
const MAX_SCAN_DEPTH: usize = 6;
/// Directories Codex visits per skills root (`MAX_SKILLS_DIRS_PER_ROOT`).
const MAX_DIRS_PER_ROOT: usize = 2000;
/// `CODEX_HOME` assumed when a release lists absolute paths: the bundled
/// skills' lines cost as if Codex's home were this directory.
pub const ASSUMED_CODEX_HOME: &str = "/home/user/.codex";
/// The repository's absolute path assumed when a release lists absolute
/// paths and the tree has none (a tree that is not on disk).
const ASSUMED_REPOSITORY_PATH: &str = "/repo";

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
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    chain: &[RepoPath],
    layers: &[Layer<'_>],
    facts: &Facts,
    context_window: ContextWindow,
) -> Vec<Skill> {
    let roots = roots(cx, chain);
    let mut skills = Vec::new();
    let mut seen = HashSet::new();
    for root in &roots {
        walk(cx, root, facts, &mut skills, &mut seen);
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
    }
}

/// The roots in Codex's order: `.codex/skills` closest to cwd first, then
/// `.agents/skills` from the repository root down to cwd. Only roots that
/// are directories (links followed inside the repository) are returned;
/// a link problem is reported.
fn roots(cx: &mut Cx<'_, '_>, chain: &[RepoPath]) -> Vec<Root> {
    let mut out = Vec::new();
    let candidates = chain
        .iter()
        .rev()
        .filter_map(|d| d.join(".codex/skills").map(|p| (d.clone(), p)))
        .chain(
            chain
                .iter()
                .filter_map(|d| d.join(".agents/skills").map(|p| (d.clone(), p))),
        )
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

/// What a walk of one skills root meets, in walk order
/// ([`found_under`]).
enum Found {
    /// A diagnostic of the walk.
    Diag(Diagnostic),
    /// A `SKILL.md` regular file at `file` (`real`: its real path), named
    /// `dir_name` for Codex, as [`read_skill`] reads it, with the
    /// diagnostics of that reading.
    Skill {
        file: RepoPath,
        real: RepoPath,
        dir_name: String,
        read: Option<(Parsed, skill_file::Policy, Option<SourceRef>)>,
        diags: Vec<Diagnostic>,
    },
    /// A skill Codex would read that the analysis cannot (a folder linked
    /// out of the repository).
    Unavailable(Skill),
}

/// Walks one root breadth first as Codex does and loads every `SKILL.md`
/// it finds, each named in its plugin namespace under the release
/// `facts`; `seen` holds the real paths already loaded (a skill reached
/// again is skipped, its diagnostics with it).
///
/// The walk and the reading of each skill do not depend on the launch
/// directory: they are done once per repository, root and release
/// ([`found_under`]); here they are replayed and each skill is placed
/// for this launch directory ([`build`]).
fn walk(
    cx: &mut Cx<'_, '_>,
    root: &Root,
    facts: &Facts,
    out: &mut Vec<Skill>,
    seen: &mut HashSet<RepoPath>,
) {
    for found in found_under(cx, root, facts).iter() {
        match found {
            Found::Diag(d) => cx.diag(d.clone()),
            Found::Skill {
                file,
                real,
                dir_name,
                read,
                diags,
            } => {
                if !seen.insert(real.clone()) {
                    continue;
                }
                cx.diags.extend(diags.iter().cloned());
                let Some(skill_dir) = file.parent() else {
                    continue;
                };
                let Some((parsed, pol, meta)) = read else {
                    out.push(unavailable(
                        &root.scan_dir,
                        &skill_dir,
                        dir_name,
                        "its SKILL.md could not be read",
                    ));
                    continue;
                };
                let mut skill = build(cx, root, dir_name, file, parsed, *pol, meta.clone());
                if real != file {
                    skill.source.resolved_path = Some(real.clone());
                }
                out.push(skill);
            }
            Found::Unavailable(s) => out.push(s.clone()),
        }
    }
}

/// What a breadth-first walk of `root` meets ([`Found`], in order),
/// computed once per repository, root and plugin manifest names
/// ([`Repo::memo`]): every launch directory below the root walks it.
fn found_under(cx: &mut Cx<'_, '_>, root: &Root, facts: &Facts) -> std::sync::Arc<Vec<Found>> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, RepoPath, &'static [&'static str]);
    let repo = cx.repo;
    let key = Key(
        root.path.clone(),
        root.scan_dir.clone(),
        facts.plugin_manifests,
    );
    repo.memo(key, || {
        let before = cx.diags.len();
        let mut found = Vec::new();
        walk_root(cx, root, facts, &mut found);
        let tail = cx.diags.split_off(before);
        found.extend(tail.into_iter().map(Found::Diag));
        std::sync::Arc::new(found)
    })
}

/// Moves the diagnostics reported since `before` to `found`.
fn flush(cx: &mut Cx<'_, '_>, before: usize, found: &mut Vec<Found>) {
    let d = cx.diags.split_off(before);
    found.extend(d.into_iter().map(Found::Diag));
}

/// The walk of [`found_under`]: diagnostics are reported to `cx` and
/// moved to `found` before each skill, in order.
fn walk_root(cx: &mut Cx<'_, '_>, root: &Root, facts: &Facts, found: &mut Vec<Found>) {
    let before = cx.diags.len();
    let real_root = match cx.resolve(&root.path) {
        Resolved::Inside { real, .. } => real,
        _ => return,
    };
    let mut visited: HashSet<RepoPath> = HashSet::from([real_root.clone()]);
    let mut queue: VecDeque<(RepoPath, RepoPath, usize)> =
        VecDeque::from([(root.path.clone(), real_root.clone(), 0)]);
    let mut truncated = false;
    while let Some((shown, real, depth)) = queue.pop_front() {
        let entries = cx.repo.list_dir(&real).to_vec();
        for e in entries {
            if e.name.starts_with('.') {
                continue;
            }
            let (Some(shown_child), Some(real_child)) = (shown.join(&e.name), real.join(&e.name))
            else {
                continue;
            };
            let mut enqueue = |cx_target: RepoPath, queue: &mut VecDeque<_>| {
                if depth + 1 > MAX_SCAN_DEPTH {
                    return;
                }
                if visited.len() >= MAX_DIRS_PER_ROOT {
                    truncated = true;
                    return;
                }
                if visited.insert(cx_target.clone()) {
                    queue.push_back((shown_child.clone(), cx_target, depth + 1));
                }
            };
            if depth == 0
                && e.kind == EntryKind::Dir
                && cx
                    .repo
                    .files_named_under("SKILL.md", &real_child)
                    .is_empty()
            {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillMissingFile,
                        format!("{q_shown_child} holds no `SKILL.md` at any depth Codex scans, so Codex lists no skill for it; add `SKILL.md` with a description, or move the folder out of {}.", problems::quote(&root.path), q_shown_child = problems::quote(&shown_child)),
                    )
                    .at(SourceRef::project(shown_child.clone(), SourceFormat::Markdown)),
                );
            }
            if e.name == "SKILL.md" && e.kind == EntryKind::Dir {
                skill_file_not_a_file(cx, &shown_child, EntryKind::Dir, false);
            }
            match e.kind {
                EntryKind::Dir => enqueue(real_child, &mut queue),
                EntryKind::Symlink => match cx.resolve(&real_child) {
                    Resolved::Inside {
                        kind: EntryKind::Dir,
                        real: target,
                        ..
                    } => enqueue(target, &mut queue),
                    Resolved::Inside {
                        kind: EntryKind::File,
                        ..
                    } if e.name == "SKILL.md" => {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::SkillNotDiscovered,
                                format!("{q_shown_child} is a symbolic link to a file; Codex follows only links to directories while it looks for skills, so it does not load this `SKILL.md`; make the folder the link instead.", q_shown_child = problems::quote(&shown_child)),
                            )
                            .at(SourceRef::project(shown_child.clone(), SourceFormat::Markdown)),
                        );
                    }
                    Resolved::Inside { .. } | Resolved::Missing => {}
                    r @ Resolved::Outside { .. } => {
                        cx.link_problem(
                            &r,
                            &format!("The skill folder {}", problems::quote(&shown_child)),
                            "",
                            SourceFormat::Markdown,
                        );
                        if e.name != "SKILL.md" {
                            flush(cx, before, found);
                            found.push(Found::Unavailable(unavailable(
                                &root.scan_dir,
                                &shown_child,
                                &e.name,
                                "its folder is a symbolic link out of the repository",
                            )));
                        }
                    }
                    other => {
                        cx.link_problem(
                            &other,
                            &format!("The skill folder {}", problems::quote(&shown_child)),
                            "Codex cannot load what is behind it",
                            SourceFormat::Markdown,
                        );
                    }
                },
                EntryKind::File if e.name == "SKILL.md" => {
                    flush(cx, before, found);
                    found.push(read_found(cx, &shown_child, &real_child, facts));
                }
                EntryKind::Other if e.name == "SKILL.md" => {
                    skill_file_not_a_file(cx, &shown_child, EntryKind::Other, false);
                }
                _ => {}
            }
        }
    }
    if truncated {
        cx.diag(Diagnostic::new(
            DiagnosticCode::SkillNotDiscovered,
            format!("{} holds more than {MAX_DIRS_PER_ROOT} directories; Codex stops scanning a skills root after that many, so skills in the directories it does not reach are not loaded; keep the skills root small.", problems::quote(&root.path)),
        )
        .at(SourceRef::project(root.path.clone(), SourceFormat::Markdown)));
    }
    report_too_deep(cx, root, &real_root);
}

/// `SKILL.md` files more than six directories below a root: Codex never
/// reaches them.
fn report_too_deep(cx: &mut Cx<'_, '_>, root: &Root, real_root: &RepoPath) {
    let base = real_root.components().count();
    let deep: Vec<RepoPath> = cx
        .repo
        .files_named_under("SKILL.md", real_root)
        .iter()
        .filter(|p| p.components().count() > base + MAX_SCAN_DEPTH + 1)
        .filter(|p| !p.components().skip(base).any(|c| c.starts_with('.')))
        .cloned()
        .collect();
    for p in deep {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNotDiscovered,
                format!("{q_p} is more than {MAX_SCAN_DEPTH} directories below the skills root {}, deeper than Codex looks, so it does not load this skill; move it up.", problems::quote(&root.path), q_p = problems::quote(&p)),
            )
            .at(SourceRef::project(p.clone(), SourceFormat::Markdown)),
        );
    }
}

/// What the analysis makes of one `SKILL.md`.
#[derive(Clone)]
pub(crate) struct Parsed {
    name: Option<String>,
    /// The plugin namespace the name was qualified with, and its manifest.
    namespace: Option<(String, RepoPath)>,
    description: Option<String>,
    /// Lines of the front matter.
    lines: Option<(u32, u32)>,
    /// Why Codex rejects it, when it does.
    invalid: Option<String>,
}

/// Reads `file` (found in the folder named `dir_name`) as Codex does;
/// `report` emits diagnostics.
pub(crate) fn parse_front_matter(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    dir_name: &str,
    text: &TextFile,
    report: bool,
) -> Parsed {
    let src = SourceRef::project(file.clone(), SourceFormat::Markdown);
    let mut p = Parsed {
        name: None,
        namespace: None,
        description: None,
        lines: None,
        invalid: None,
    };
    if text.invalid_utf8 {
        let line = text.text.find('\u{fffd}').map(|o| text.line_of(o));
        if report {
            let at = line.map(|n| format!(" (line {n})")).unwrap_or_default();
            let mut s = src.clone();
            if let Some(n) = line {
                s = s.with_lines(n, n);
            }
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidUtf8,
                    format!("{q_file} is not valid UTF-8{at}; Codex reads `SKILL.md` as UTF-8 text, fails on it and does not list this skill; save it as UTF-8.", q_file = problems::quote(file)),
                )
                .at(s),
            );
        }
        p.invalid = Some("it is not valid UTF-8".to_string());
        return p;
    }
    let Some(block) = skill_file::block(&text.text) else {
        let (why, msg, lines) = if skill_file::opens(&text.text) {
            ("its front matter is never closed", format!("{q_file} opens its front matter with --- on line 1 but no later --- line closes it, so Codex finds no front matter and does not load the skill; close the front matter with a --- line.", q_file = problems::quote(file)), Some((1, 1)))
        } else if text.text.starts_with('\u{feff}') {
            ("a byte-order mark precedes its front matter", format!("{q_file} starts with a byte-order mark before its --- line, so Codex finds no front matter and does not load the skill; save it as UTF-8 without a byte-order mark.", q_file = problems::quote(file)), Some((1, 1)))
        } else {
            ("it has no YAML front matter", format!("{} does not start with a `---` line opening YAML front matter, so Codex does not load it as a skill; put front matter with a description at the very top.", problems::quote(file)), None)
        };
        if report {
            let mut s = src.clone();
            if let Some((a, b)) = lines {
                s = s.with_lines(a, b);
            }
            cx.diag(Diagnostic::new(DiagnosticCode::InvalidFrontmatter, msg).at(s));
        }
        p.lines = lines;
        p.invalid = Some(why.to_string());
        return p;
    };
    p.lines = Some((1, block.end_line));
    match skill_file::parse(&block.yaml, dir_name) {
        FileParse::Ok {
            name,
            description,
            repaired: _,
        } => {
            p.name = Some(name);
            p.description = Some(description);
        }
        FileParse::Rejected { why, line } => {
            if report {
                let (code, fix) = if why.contains("description") {
                    (
                        DiagnosticCode::SkillFieldMissing,
                        "add a non-empty description",
                    )
                } else if why.contains("not text") || why.contains("metadata") {
                    (
                        DiagnosticCode::SkillFieldInvalid,
                        "write the field as a single string (metadata as a mapping)",
                    )
                } else if why.contains("limit") {
                    (DiagnosticCode::InvalidValue, "shorten it")
                } else {
                    (DiagnosticCode::InvalidFrontmatter, "fix the YAML")
                };
                let at = match line {
                    Some(l) => src.clone().with_lines(l + 1, l + 1),
                    None => src.clone().with_lines(1, block.end_line),
                };
                let at_line = line
                    .map(|l| format!(" (line {})", l + 1))
                    .unwrap_or_default();
                cx.diag(
                    Diagnostic::new(
                        code,
                        format!(
                            "Codex refuses {q_file}: {why}{at_line}; {fix}.",
                            q_file = problems::quote(file)
                        ),
                    )
                    .at(at),
                );
            }
            p.invalid = Some(why);
        }
    }
    p
}

/// The policy of `<skill>/agents/openai.yaml` and the file as a metadata
/// source when it exists (`load_skill_metadata`: anything Codex cannot
/// read is ignored and the defaults apply).
pub(crate) fn policy(
    cx: &mut Cx<'_, '_>,
    skill_dir: &RepoPath,
    report: bool,
) -> (skill_file::Policy, Option<SourceRef>) {
    let default = skill_file::Policy::default();
    let Some(path) = skill_dir.join("agents/openai.yaml") else {
        return (default, None);
    };
    let resolved = match cx.resolve(&path) {
        Resolved::Inside {
            kind: EntryKind::File,
            real,
            via_link,
        } => via_link.then_some(real),
        Resolved::Missing => return (default, None),
        Resolved::Inside { kind, via_link, .. } => {
            if report {
                not_a_file(
                    cx,
                    &path,
                    kind,
                    via_link,
                    "Codex ignores it and the skill keeps the default policy (implicit invocation allowed)",
                    SourceFormat::Yaml,
                    Severity::Warning,
                );
            }
            return (default, None);
        }
        other => {
            if report {
                cx.link_problem(
                    &other,
                    &format!("The skill metadata {}", problems::quote(&path)),
                    "Codex ignores it and the skill keeps the default policy",
                    SourceFormat::Yaml,
                );
            }
            return (default, None);
        }
    };
    let mut src = SourceRef::project(path.clone(), SourceFormat::Yaml);
    src.resolved_path = resolved;
    let Ok(text) = cx.repo.read_text(&path, READ_LIMIT) else {
        return (default, Some(src));
    };
    let line = text
        .text
        .lines()
        .position(|l| l.trim_start().starts_with("allow_implicit_invocation"))
        .map(|i| i as u32 + 1);
    match line {
        Some(l) => src = src.with_lines(l, l),
        None if text.line_count() > 0 => src = src.with_lines(1, text.line_count()),
        None => {}
    }
    let p = skill_file::policy(&text.text);
    if p.ignored && report {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidYaml,
                format!("{q_path} does not match what Codex reads (invalid YAML, a value of the wrong type such as allow_implicit_invocation: no instead of false, or an unknown product), so Codex ignores the whole file: the skill keeps the defaults (implicit invocation allowed, listed for every product); write true or false and known product names.", q_path = problems::quote(&path)),
            )
            .with_severity(Severity::Warning)
            .at(src.clone()),
        );
    }
    (p, Some(src))
}

/// The `SKILL.md` at `file` (`real`: its real path) as [`read_skill`]
/// reads it, with the diagnostics of that reading.
fn read_found(cx: &mut Cx<'_, '_>, file: &RepoPath, real: &RepoPath, facts: &Facts) -> Found {
    // Codex names a skill without `name` after the real folder holding it.
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    let dir_name = real
        .parent()
        .and_then(|d| d.file_name().map(str::to_string))
        .unwrap_or_else(|| skill_dir.file_name().unwrap_or("skill").to_string());
    let before = cx.diags.len();
    let read = match file.parent() {
        Some(skill_dir) => read_skill(cx, file, real, &skill_dir, &dir_name, facts),
        None => None,
    };
    let diags = cx.diags.split_off(before);
    Found::Skill {
        file: file.clone(),
        real: real.clone(),
        dir_name,
        read,
        diags,
    }
}

/// Reads the `SKILL.md` at `file` (`real`: its real path; `skill_dir`: its
/// folder, named `dir_name` for Codex) as Codex does, whatever the launch
/// directory: its front matter qualified in its plugin namespace, and the
/// policy of its `agents/openai.yaml`. `None` when it cannot be read
/// (reported).
fn read_skill(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    skill_dir: &RepoPath,
    dir_name: &str,
    facts: &Facts,
) -> Option<(Parsed, skill_file::Policy, Option<SourceRef>)> {
    let text = match cx.repo.read_text(file, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            crate::config::read_error(cx, file, e, SourceFormat::Markdown);
            return None;
        }
    };
    let mut parsed = parse_front_matter(cx, file, dir_name, &text, true);
    if parsed.invalid.is_none() {
        qualify(cx, file, real, facts, &mut parsed, true);
    }
    let (pol, meta) = policy(cx, skill_dir, true);
    Some((parsed, pol, meta))
}

/// The longest qualified skill name Codex accepts, in characters
/// (`MAX_QUALIFIED_NAME_LEN`, `validate_len` in
/// `codex-rs/core-skills/src/loader.rs`).
const MAX_QUALIFIED_NAME_CHARS: usize = 128;

/// The plugin namespace of a skill (X13): the `name` of the plugin
/// manifest of the nearest directory, from the skill's own folder up to
/// the repository root, that holds one of the release's manifest files
/// ([`Facts::plugin_manifests`], tried in order), read as JSON; a blank
/// or absent `name` gives that directory's name, and a manifest that is
/// not valid JSON (or whose `name` is not text) is passed over. The real
/// path of a linked skill is tried before the path it was found at
/// (openai/codex `codex-rs/utils/plugins/src/plugin_namespace.rs`,
/// `plugin_namespace_for_skill_path`; `loader/namespace.rs`). Seen with
/// both profiled releases on fixture `x13_plugin_namespaces`.
///
/// Returns the namespace and the manifest's path.
pub(crate) fn plugin_namespace(
    cx: &Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    facts: &Facts,
) -> Option<(String, RepoPath)> {
    let starts = [real.parent(), file.parent()];
    for start in starts.into_iter().flatten() {
        if let Some(found) = namespace_from(cx.repo, start, facts.plugin_manifests) {
            return found;
        }
    }
    None
}

/// The answer of [`plugin_namespace`] from directory `start` up to the
/// repository root: `None` when no directory there holds a manifest that
/// parses, else what the nearest one says (`Some(None)`: a blank name at
/// the root, no namespace). Computed once per repository and `start`
/// ([`Repo::memo`]): it depends on the repository and `manifests` only,
/// and every launch directory asks it for the same skills.
fn namespace_from(
    repo: &Repo<'_>,
    start: RepoPath,
    manifests: &'static [&'static str],
) -> Option<Option<(String, RepoPath)>> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, &'static [&'static str]);
    #[derive(serde::Deserialize)]
    struct Manifest {
        #[serde(default)]
        name: String,
    }
    repo.memo(Key(start.clone(), manifests), || {
        let mut dir = Some(start);
        while let Some(d) = dir {
            for m in manifests {
                let Some(path) = d.join(m) else { continue };
                if !matches!(
                    repo.resolve(&path),
                    Resolved::Inside {
                        kind: EntryKind::File,
                        ..
                    }
                ) {
                    continue;
                }
                let Ok(text) = repo.read_text(&path, READ_LIMIT) else {
                    continue;
                };
                let Ok(manifest) = serde_json::from_str::<Manifest>(&text.text) else {
                    continue;
                };
                let name = if manifest.name.trim().is_empty() {
                    if d.is_root() {
                        return Some(None);
                    }
                    d.file_name().unwrap_or_default().to_string()
                } else {
                    manifest.name
                };
                return Some(Some((name, path)));
            }
            dir = d.parent();
        }
        None
    })
}

/// Puts a loaded skill's name in its plugin namespace
/// ([`plugin_namespace`]): `<plugin>:<name>`, rejected when longer than
/// [`MAX_QUALIFIED_NAME_CHARS`]; `report` emits the diagnostic.
fn qualify(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    facts: &Facts,
    parsed: &mut Parsed,
    report: bool,
) {
    let Some((ns, manifest)) = plugin_namespace(cx, file, real, facts) else {
        return;
    };
    let base = parsed.name.clone().unwrap_or_default();
    let qualified = format!("{ns}:{base}");
    let n = qualified.chars().count();
    if n > MAX_QUALIFIED_NAME_CHARS {
        if report {
            cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!(
                    "Codex refuses {}: the plugin manifest {} puts the skill in namespace {}, and the qualified name {} is {n} characters, over Codex's limit of {MAX_QUALIFIED_NAME_CHARS}; shorten the skill name or the plugin name.",
                    problems::quote(file),
                    problems::quote(&manifest),
                    problems::quote(&ns),
                    problems::quote(&qualified),
                ),
            )
            .at(SourceRef::project(manifest, SourceFormat::Json)),
            );
        }
        parsed.invalid = Some(format!(
            "its qualified name in plugin namespace {ns} is {n} characters, over the limit of {MAX_QUALIFIED_NAME_CHARS}"
        ));
        return;
    }
    parsed.name = Some(qualified);
    parsed.namespace = Some((ns, manifest));
}

/// Reports a `SKILL.md` that is a directory or a special file: Codex reads
/// only a regular file of that name (a directory is scanned as a folder).
fn skill_file_not_a_file(cx: &mut Cx<'_, '_>, file: &RepoPath, kind: EntryKind, via_link: bool) {
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    not_a_file(
        cx,
        file,
        kind,
        via_link,
        &format!(
            "Codex does not read it as a skill file and lists no skill for {}",
            problems::quote(&skill_dir)
        ),
        SourceFormat::Markdown,
        Severity::Warning,
    );
}

/// Assembles a skill from its parsed parts.
fn build(
    cx: &Cx<'_, '_>,
    root: &Root,
    dir_name: &str,
    file: &RepoPath,
    parsed: &Parsed,
    pol: skill_file::Policy,
    meta: Option<SourceRef>,
) -> Skill {
    let cwd = &cx.context.cwd;
    let scan_dir = &root.scan_dir;
    let mut source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    if let Some((s, e)) = parsed.lines {
        source = source.with_lines(s, e);
    }
    let place = if scan_dir == cwd {
        "cwd itself"
    } else if scan_dir.is_root() {
        "the repository root"
    } else {
        ""
    };
    // The skills root's own name (`.agents/skills`, `.codex/skills`),
    // whether it lies at the repository root or below a directory.
    let (dot, root_name) = match root.path.as_str().rsplit_once("/.") {
        Some((_, r)) => (".", r),
        None => ("", root.path.as_str()),
    };
    // Joined rather than formatted: every launch directory builds every
    // skill of its roots.
    let found = if place.is_empty() {
        [
            "Found in the ",
            dot,
            root_name,
            " of ",
            scan_dir.as_str(),
            ", a parent of cwd",
        ]
        .concat()
    } else {
        ["Found in the ", dot, root_name, " of ", place].concat()
    };
    let implicit = match pol.allow_implicit {
        Some(false) => Permission::Blocked,
        _ => Permission::Allowed,
    };
    let (applicability, reason, invocation, state) = match &parsed.invalid {
        Some(why) => (
            Applicability::Excluded,
            format!("{found}, but {why}, so Codex does not load it."),
            Invocation { explicit: Permission::Blocked, implicit: Permission::Blocked },
            AdvertisementState::Hidden,
        ),
        None if !pol.for_codex => (
            Applicability::Excluded,
            format!("{found}, but its agents/openai.yaml lists policy.products without codex, so the Codex CLI drops it."),
            Invocation { explicit: Permission::Blocked, implicit: Permission::Blocked },
            AdvertisementState::Hidden,
        ),
        None if implicit == Permission::Blocked => (
            Applicability::Effective,
            format!("{found}: loaded at startup, but agents/openai.yaml sets policy.allow_implicit_invocation: false, so Codex leaves it out of the skill list the model sees (and out of the listing budget); the user can still invoke it by name."),
            Invocation { explicit: Permission::Allowed, implicit },
            AdvertisementState::Hidden,
        ),
        None => (
            Applicability::Effective,
            [
                found.as_str(),
                ": Codex scans the project's skill roots from cwd ",
                cwd.as_str(),
                " up to the repository root and lists each skill's name, description and path at startup.",
            ]
            .concat(),
            Invocation { explicit: Permission::Allowed, implicit },
            AdvertisementState::Advertised,
        ),
    };
    let description = parsed.description.clone();
    Skill {
        id: ["codex:skill:", file.as_str()].concat(),
        name: parsed.name.clone().unwrap_or_else(|| dir_name.to_string()),
        directory_name: dir_name.to_string(),
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason,
        description: description.clone(),
        invocation,
        advertisement: Advertisement {
            description_limit_chars: Some(skill_file::DESCRIPTION_SHOWN_LIMIT as u64),
            aggregate_budget: Some(aggregate_budget()),
            ..Advertisement::new(
                state,
                description
                    .as_deref()
                    .map_or(0, |d| d.chars().count() as u64),
            )
        },
        paths: None,
        metadata_sources: meta.into_iter().collect(),
        cross_references: Vec::new(),
    }
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

fn unavailable(scan_dir: &RepoPath, skill_dir: &RepoPath, dir_name: &str, why: &str) -> Skill {
    let file = skill_dir
        .join("SKILL.md")
        .unwrap_or_else(|| skill_dir.clone());
    Skill {
        id: format!("codex:skill:{file}"),
        name: dir_name.to_string(),
        directory_name: dir_name.to_string(),
        source: SourceRef::project(file, SourceFormat::Markdown),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Unavailable,
        reason: format!("Found in the .agents/skills of {scan_dir}, but {why}; Codex would read it, repo mode does not."),
        description: None,
        invocation: Invocation { explicit: Permission::Unknown, implicit: Permission::Unknown },
        advertisement: Advertisement {
            aggregate_budget: Some(aggregate_budget()),
            ..Advertisement::new(AdvertisementState::Unknown, 0)
        },
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

/// How the budget is counted (`SkillMetadataBudget`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Budget {
    /// Tokens, each line costed at ceil(bytes / 4).
    Tokens(usize),
    /// Characters, when the context window is unknown.
    Chars(usize),
}

impl Budget {
    /// 2 % of `window` tokens (at least 1), or 8,000 characters for an
    /// unknown (`None` or `0`) window (`default_skill_metadata_budget`).
    pub(crate) fn for_window(window: Option<u64>) -> Budget {
        match window {
            Some(w) if w > 0 => {
                let w = usize::try_from(w).unwrap_or(usize::MAX);
                Budget::Tokens((w.saturating_mul(2) / 100).max(1))
            }
            _ => Budget::Chars(SKILL_BUDGET_FALLBACK_CHARS as usize),
        }
    }

    fn limit(self) -> usize {
        match self {
            Budget::Tokens(n) | Budget::Chars(n) => n,
        }
    }

    fn cost_counts(self, chars: usize, bytes: usize) -> usize {
        match self {
            Budget::Tokens(_) => bytes.div_ceil(4),
            Budget::Chars(_) => chars,
        }
    }

    /// The cost of `line` rendered with at most `description_chars` of its
    /// description ([`Line::size`]), followed by a newline.
    fn line_cost(self, line: &Line, description_chars: usize) -> usize {
        let (chars, bytes) = line.size(description_chars);
        self.cost_counts(chars + 1, bytes + 1)
    }
}

/// One line of the listing: `- name: description (file: path)`.
pub(crate) struct Line {
    pub name: String,
    /// The description as listed (at most 1,024 characters).
    pub description: String,
    pub path: String,
}

impl Line {
    /// The characters and bytes of the line rendered with at most
    /// `description_chars` characters of its description: the length of
    /// `- name: description (file: path)` (`- name: (file: path)` with no
    /// description), counted without building it, since the budget costs
    /// every line of every launch directory.
    fn size(&self, description_chars: usize) -> (usize, usize) {
        // "- " + ": " + "(file: " + ")"
        const FIXED: usize = 2 + 2 + 7 + 1;
        let chars = FIXED + self.name.chars().count() + self.path.chars().count();
        let bytes = FIXED + self.name.len() + self.path.len();
        if description_chars == 0 || self.description.is_empty() {
            return (chars, bytes);
        }
        let (dc, db) = if description_chars >= self.description.len() {
            // At least as many characters as the description has bytes:
            // all of it.
            (self.description.chars().count(), self.description.len())
        } else {
            self.description
                .chars()
                .take(description_chars)
                .fold((0, 0), |(c, b), ch| (c + 1, b + ch.len_utf8()))
        };
        // The description and the space after it.
        (chars + dc + 1, bytes + db + 1)
    }

    /// The line as Codex renders it, with at most `description_chars`
    /// characters of its description.
    #[cfg(test)]
    fn render(&self, description_chars: usize) -> String {
        if description_chars == 0 || self.description.is_empty() {
            format!("- {}: (file: {})", self.name, self.path)
        } else {
            let d: String = self.description.chars().take(description_chars).collect();
            format!("- {}: {} (file: {})", self.name, d, self.path)
        }
    }
}

/// What the budget does to one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Listed whole.
    Full,
    /// Listed with the first n characters of its description (0: name and
    /// path only).
    Cut(usize),
    /// Not listed.
    Omitted,
}

/// The fate of each line, in order, as `render_skill_lines_from_lines`
/// decides it: everything whole when it fits; otherwise, when every line
/// fits without its description, description characters are handed out
/// one at a time round-robin while they fit (so unused shares go to
/// longer descriptions); otherwise lines without descriptions are taken
/// in order while they fit and the rest are omitted.
pub(crate) fn fates(lines: &[Line], budget: Budget) -> Vec<Fate> {
    let limit = budget.limit();
    let full: usize = lines.iter().map(|l| budget.line_cost(l, usize::MAX)).sum();
    if full <= limit {
        return vec![Fate::Full; lines.len()];
    }
    let minimum: Vec<usize> = lines.iter().map(|l| budget.line_cost(l, 0)).collect();
    let min_total: usize = minimum.iter().sum();
    if min_total <= limit {
        let mut remaining = limit - min_total;
        // extra[i][k]: the cost of k description characters beyond the bare line.
        let extra: Vec<Vec<usize>> = lines
            .iter()
            .map(|l| {
                let (c0, b0) = l.size(0);
                let (c0, b0) = (c0 + 1, b0 + 1);
                let base = budget.cost_counts(c0, b0);
                let mut v = vec![0];
                let (mut pc, mut pb) = (0, 0);
                for ch in l.description.chars() {
                    pc += 1;
                    pb += ch.len_utf8();
                    v.push(
                        budget
                            .cost_counts(c0 + pc + 1, b0 + pb + 1)
                            .saturating_sub(base),
                    );
                }
                v
            })
            .collect();
        let mut alloc = vec![0usize; lines.len()];
        loop {
            let mut changed = false;
            for i in 0..lines.len() {
                if alloc[i] + 1 >= extra[i].len() {
                    continue;
                }
                let delta = extra[i][alloc[i] + 1].saturating_sub(extra[i][alloc[i]]);
                if delta <= remaining {
                    alloc[i] += 1;
                    remaining -= delta;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        return alloc
            .iter()
            .zip(lines)
            .map(|(&a, l)| {
                if a >= l.description.chars().count() {
                    Fate::Full
                } else {
                    Fate::Cut(a)
                }
            })
            .collect();
    }
    let mut used = 0;
    minimum
        .iter()
        .zip(lines)
        .map(|(&c, l)| {
            if used + c <= limit {
                used += c;
                if l.description.is_empty() {
                    Fate::Full
                } else {
                    Fate::Cut(0)
                }
            } else {
                Fate::Omitted
            }
        })
        .collect()
}

/// The listing budget (X17; openai/codex `codex-rs/core-skills/src/render.rs`):
/// the lines of the skills the model may invoke (effective, implicit
/// invocation allowed), the release's bundled skills first, then by name
/// and path, costed against 2 % of the context window. Run twice: with
/// the bundled skills of a fresh installation (the prediction) and with
/// the repository's skills alone (what is certain). Shortened and omitted
/// skills get that state, the kept characters and the cause, and one
/// diagnostic names them.
fn budget(
    cx: &mut Cx<'_, '_>,
    skills: &mut [Skill],
    roots: &[Root],
    facts: &Facts,
    context_window: ContextWindow,
) {
    let window = crate::listing_window(context_window, facts);
    let b = Budget::for_window(window);
    let listed: Vec<usize> = (0..skills.len())
        .filter(|&i| {
            skills[i].applicability == Applicability::Effective
                && skills[i].advertisement.state == AdvertisementState::Advertised
        })
        .collect();
    if listed.is_empty() {
        return;
    }
    let abs_root = cx
        .repo
        .tree()
        .absolute_root()
        .map(|p| p.to_string_lossy().trim_end_matches('/').to_string())
        .unwrap_or_else(|| ASSUMED_REPOSITORY_PATH.to_string());
    // Roots holding a loaded skill, in scan order, for the aliases.
    let root_of = |s: &Skill| {
        roots
            .iter()
            .position(|r| s.source.path.starts_with(&r.path))
    };
    let mut used_roots: Vec<usize> = skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective)
        .filter_map(root_of)
        .collect();
    used_roots.sort_unstable();
    used_roots.dedup();
    let project_codex_roots = used_roots
        .iter()
        .filter(|&&r| roots[r].path.as_str().contains(".codex/skills"))
        .count();
    let repo_line = |s: &Skill, with_bundled: bool| -> Line {
        let path = match facts.skill_paths {
            SkillPathStyle::Absolute => {
                let real = s.source.resolved_path.as_ref().unwrap_or(&s.source.path);
                format!("{abs_root}/{real}")
            }
            SkillPathStyle::Aliased => {
                let r = root_of(s).unwrap_or(0);
                let mut n = used_roots.iter().position(|&u| u == r).unwrap_or(0);
                if with_bundled && n >= project_codex_roots {
                    n += 1;
                }
                let rel = s
                    .source
                    .path
                    .as_str()
                    .strip_prefix(roots.get(r).map_or("", |r| r.path.as_str()))
                    .unwrap_or(s.source.path.as_str())
                    .trim_start_matches('/');
                format!("r{n}/{rel}")
            }
        };
        Line {
            name: s.name.clone(),
            description: skill_file::shown_description(s.description.as_deref().unwrap_or("")),
            path,
        }
    };
    let bundled: Vec<Line> = facts
        .bundled_skills
        .iter()
        .map(|k| Line {
            name: k.name.to_string(),
            description: "x".repeat(k.description_chars),
            path: match facts.skill_paths {
                SkillPathStyle::Absolute => {
                    format!("{ASSUMED_CODEX_HOME}/skills/.system/{}/SKILL.md", k.name)
                }
                SkillPathStyle::Aliased => format!("r{project_codex_roots}/{}/SKILL.md", k.name),
            },
        })
        .collect();
    let alone: Vec<Line> = listed
        .iter()
        .map(|&i| repo_line(&skills[i], false))
        .collect();
    let mut with: Vec<Line> = bundled;
    let nb = with.len();
    with.extend(listed.iter().map(|&i| repo_line(&skills[i], true)));
    let fate_alone = fates(&alone, b);
    let fate_with = fates(&with, b);
    let mut shortened = Vec::new();
    let mut omitted = Vec::new();
    let (mut certain, mut with_bundled) = (Vec::new(), Vec::new());
    for (k, &i) in listed.iter().enumerate() {
        let fate = fate_with[nb + k];
        if fate == Fate::Full {
            continue;
        }
        let cause = if fate_alone[k] == Fate::Full {
            BudgetCause::WithBundled
        } else {
            BudgetCause::Certain
        };
        let s = &mut skills[i];
        let total = with[nb + k].description.chars().count();
        let name = s.name.clone();
        match fate {
            Fate::Cut(n) => {
                s.advertisement.state = AdvertisementState::Shortened;
                s.advertisement.shown_description_chars = Some(n as u64);
                s.reason.push_str(&format!(
                    " The listing budget keeps {n} of the {total} characters of its description."
                ));
                shortened.push(format!("{name} ({n} of {total} characters)"));
            }
            _ => {
                s.advertisement.state = AdvertisementState::Omitted;
                s.reason.push_str(" The listing budget leaves it out of the skill list the model sees; the user can still invoke it by name.");
                omitted.push(name.clone());
            }
        }
        s.advertisement.budget_cause = Some(cause);
        match cause {
            BudgetCause::Certain => certain.push(name),
            BudgetCause::WithBundled => with_bundled.push(name),
        }
    }
    if shortened.is_empty() && omitted.is_empty() {
        return;
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let budget_words = match b {
        Budget::Tokens(n) => {
            let source = match context_window {
                ContextWindow::ReleaseDefault => "the context window of this Codex release's default model; the user's model is an input the analysis cannot know, so pass --context-window for another model",
                _ => "the context window given with --context-window",
            };
            format!(
                "{n} tokens (2% of {} tokens, {source})",
                window.unwrap_or(0)
            )
        }
        Budget::Chars(n) => format!("{n} characters (the context window given as unknown)"),
    };
    let d = Diagnostic::new(
        DiagnosticCode::SkillListingBudget,
        // count >= 2: the skills a fresh installation bundles.
        format!(
            "The skill list Codex shows the model from cwd {} does not fit its budget of {budget_words}: descriptions shortened: {}; skills omitted: {}. Certain from the repository's skills alone: {}; only together with the {} skills a fresh Codex installation bundles: {}. User and admin skills the analysis cannot see take more of the budget. Shorten the descriptions, or set policy.allow_implicit_invocation: false in `agents/openai.yaml` for skills the model need not pick on its own.",
            problems::quote(&cx.context.cwd),
            list(&shortened),
            list(&omitted),
            list(&certain),
            nb,
            list(&with_bundled),
        ),
    );
    cx.diag(d);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Line::size`] counts what [`Line::render`] writes, for every
    /// description length, in characters and bytes (multi-byte text
    /// included).
    #[test]
    fn line_size_is_the_length_of_the_rendered_line() {
        let lines = [
            ("a", "", "r0/a/SKILL.md"),
            ("deploy", "Ships it.", "r1/deploy/SKILL.md"),
            (
                "événement",
                "Déploie «vite» 🚀 ok",
                "/repo/.agents/skills/é/SKILL.md",
            ),
        ];
        for (name, description, path) in lines {
            let l = Line {
                name: name.to_string(),
                description: description.to_string(),
                path: path.to_string(),
            };
            for n in [0, 1, 2, 5, 19, 20, 21, usize::MAX] {
                let r = l.render(n);
                assert_eq!(l.size(n), (r.chars().count(), r.len()), "{r:?}");
            }
        }
    }
}

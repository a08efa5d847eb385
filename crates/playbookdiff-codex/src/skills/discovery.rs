//! Where Codex finds skills: the breadth-first walk of each skills root
//! (`discover_skills_under_root` in `codex-rs/core-skills/src/loader.rs`),
//! at most six levels and 2,000 directories deep, links followed only to
//! directories, each skill listed once.

use super::loading::{build, read_found, skill_file_not_a_file, unavailable, Parsed};
use super::Root;
use crate::profile::Facts;
use crate::skill_file;
use crate::Cx;
use playbookdiff_adapter::problems;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, Skill, SourceFormat, SourceRef};
use playbookdiff_source::{EntryKind, Resolved};
use std::collections::{HashSet, VecDeque};

/// Directories below a skills root Codex descends into (`MAX_SCAN_DEPTH`).
pub(super) const MAX_SCAN_DEPTH: usize = 6;

/// Directories Codex visits per skills root (`MAX_SKILLS_DIRS_PER_ROOT`).
pub(super) const MAX_DIRS_PER_ROOT: usize = 2000;

/// What a walk of one skills root meets, in walk order
/// ([`found_under`]).
pub(super) enum Found {
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
pub(super) fn walk(
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
pub(super) fn found_under(
    cx: &mut Cx<'_, '_>,
    root: &Root,
    facts: &Facts,
) -> std::sync::Arc<Vec<Found>> {
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
pub(super) fn flush(cx: &mut Cx<'_, '_>, before: usize, found: &mut Vec<Found>) {
    let d = cx.diags.split_off(before);
    found.extend(d.into_iter().map(Found::Diag));
}

/// The walk of [`found_under`]: diagnostics are reported to `cx` and
/// moved to `found` before each skill, in order.
pub(super) fn walk_root(cx: &mut Cx<'_, '_>, root: &Root, facts: &Facts, found: &mut Vec<Found>) {
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
pub(super) fn report_too_deep(cx: &mut Cx<'_, '_>, root: &Root, real_root: &RepoPath) {
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

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
/// computed once per repository, root, plugin manifest names and skill
/// file rules ([`Repo::memo`]): every launch directory below the root
/// walks it, and a release with other rules (an upgrade's steps) walks it
/// again.
pub(super) fn found_under(
    cx: &mut Cx<'_, '_>,
    root: &Root,
    facts: &Facts,
) -> std::sync::Arc<Vec<Found>> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(
        RepoPath,
        RepoPath,
        &'static [&'static str],
        crate::skill_file::Rules,
    );
    let repo = cx.repo;
    let key = Key(
        root.path.clone(),
        root.scan_dir.clone(),
        facts.plugin_manifests,
        cx.skill_rules,
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
    let Resolved::Inside {
        real: real_root, ..
    } = cx.resolve(&root.path)
    else {
        return;
    };
    let mut walk = RootWalk {
        root,
        facts,
        before: cx.diags.len(),
        visited: HashSet::from([real_root.clone()]),
        queue: VecDeque::from([(root.path.clone(), real_root.clone(), 0)]),
        truncated: false,
    };
    while let Some((shown, real, depth)) = walk.queue.pop_front() {
        for e in cx.repo.list_dir(&real).to_vec() {
            if e.name.starts_with('.') {
                continue;
            }
            let (Some(shown), Some(real)) = (shown.join(&e.name), real.join(&e.name)) else {
                continue;
            };
            let entry = Entry {
                name: &e.name,
                kind: e.kind,
                shown,
                real,
                depth,
            };
            walk.visit(cx, &entry, found);
        }
    }
    if walk.truncated {
        cx.diag(Diagnostic::new(
            DiagnosticCode::SkillNotDiscovered,
            format!("{} holds more than {MAX_DIRS_PER_ROOT} directories; Codex stops scanning a skills root after that many, so skills in the directories it does not reach are not loaded; keep the skills root small.", problems::quote(&root.path)),
        )
        .at(SourceRef::project(root.path.clone(), SourceFormat::Markdown)));
    }
    report_too_deep(cx, root, &real_root);
}

/// The state of one [`walk_root`]: breadth first, each directory once by
/// its real path.
struct RootWalk<'w> {
    root: &'w Root,
    facts: &'w Facts,
    /// How many diagnostics `cx` held when the walk began.
    before: usize,
    visited: HashSet<RepoPath>,
    /// Directories to list: as shown (below the root), real, and depth.
    queue: VecDeque<(RepoPath, RepoPath, usize)>,
    /// True when the walk stopped at [`MAX_DIRS_PER_ROOT`].
    truncated: bool,
}

/// One entry of a listed directory, `depth` levels below the root: its
/// path as shown (below the root) and real.
struct Entry<'e> {
    name: &'e str,
    kind: EntryKind,
    shown: RepoPath,
    real: RepoPath,
    depth: usize,
}

impl RootWalk<'_> {
    /// Reports, queues or reads the entry `e`.
    fn visit(&mut self, cx: &mut Cx<'_, '_>, e: &Entry<'_>, found: &mut Vec<Found>) {
        let skill_md = e.name == "SKILL.md";
        if e.depth == 0 && e.kind == EntryKind::Dir {
            self.report_without_skill(cx, e);
        }
        if skill_md && e.kind == EntryKind::Dir {
            skill_file_not_a_file(cx, &e.shown, EntryKind::Dir, false);
        }
        match e.kind {
            EntryKind::Dir => self.enqueue(e, e.real.clone()),
            EntryKind::Symlink => self.visit_link(cx, e, found),
            EntryKind::File if skill_md => {
                flush(cx, self.before, found);
                found.push(read_found(cx, &e.shown, &e.real, self.facts));
            }
            EntryKind::Other if skill_md => {
                skill_file_not_a_file(cx, &e.shown, EntryKind::Other, false);
            }
            _ => {}
        }
    }

    /// Queues the directory of `e`, whose real path is `target`, unless it
    /// is too deep, the walk is full or it was listed already.
    fn enqueue(&mut self, e: &Entry<'_>, target: RepoPath) {
        if e.depth + 1 > MAX_SCAN_DEPTH {
            return;
        }
        if self.visited.len() >= MAX_DIRS_PER_ROOT {
            self.truncated = true;
            return;
        }
        if self.visited.insert(target.clone()) {
            self.queue.push_back((e.shown.clone(), target, e.depth + 1));
        }
    }

    /// Reports a folder right below the root that holds no `SKILL.md` at
    /// any depth.
    fn report_without_skill(&self, cx: &mut Cx<'_, '_>, e: &Entry<'_>) {
        if !cx.repo.files_named_under("SKILL.md", &e.real).is_empty() {
            return;
        }
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillMissingFile,
                format!("{q_shown_child} holds no `SKILL.md` at any depth Codex scans, so Codex lists no skill for it; add `SKILL.md` with a description, or move the folder out of {}.", problems::quote(&self.root.path), q_shown_child = problems::quote(&e.shown)),
            )
            .at(SourceRef::project(e.shown.clone(), SourceFormat::Markdown)),
        );
    }

    /// Follows the link `e` as Codex does: only to a directory; a
    /// `SKILL.md` that links to a file is not loaded, and a folder linking
    /// out of the repository is listed unavailable.
    fn visit_link(&mut self, cx: &mut Cx<'_, '_>, e: &Entry<'_>, found: &mut Vec<Found>) {
        let shown = &e.shown;
        match cx.resolve(&e.real) {
            Resolved::Inside {
                kind: EntryKind::Dir,
                real: target,
                ..
            } => self.enqueue(e, target),
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } if e.name == "SKILL.md" => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillNotDiscovered,
                        format!("{q_shown_child} is a symbolic link to a file; Codex follows only links to directories while it looks for skills, so it does not load this `SKILL.md`; make the folder the link instead.", q_shown_child = problems::quote(shown)),
                    )
                    .at(SourceRef::project(shown.clone(), SourceFormat::Markdown)),
                );
            }
            Resolved::Inside { .. } | Resolved::Missing => {}
            r @ Resolved::Outside { .. } => {
                let what = format!("The skill folder {}", problems::quote(shown));
                cx.link_problem(&r, &what, "", SourceFormat::Markdown);
                if e.name != "SKILL.md" {
                    flush(cx, self.before, found);
                    found.push(Found::Unavailable(unavailable(
                        &self.root.scan_dir,
                        shown,
                        e.name,
                        "its folder is a symbolic link out of the repository",
                    )));
                }
            }
            other => {
                let what = format!("The skill folder {}", problems::quote(shown));
                let effect = "Codex cannot load what is behind it";
                cx.link_problem(&other, &what, effect, SourceFormat::Markdown);
            }
        }
    }
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

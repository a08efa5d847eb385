//! Rules: the `.md` files of a directory's `.claude/rules`, recursively,
//! unconditional ones first, path-scoped ones (`paths` in front matter)
//! matched against the target relative to that directory (fidelity C1,
//! C12, C13, C14).
//!
//! Source: spec 000 "Rules"; harness facts A3.

use super::excludes::{excluded, Listed};
use super::{applies_to_of, Expansion, Job, OffChain, Part, Placement};
use crate::matcher::{claude_paths, has_non_text, written_paths, PathPatterns};
use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, InstructionKind, LoadPhase, RepoPath, SourceFormat,
    SourceRef, SourceScope,
};
use playbookdiff_source::{Ancestors, DirEntry, EntryKind, Reach, Resolved, TextFile};
use std::collections::HashSet;
use std::sync::Arc;

/// Claude Code takes the rules of a root in the order the file system lists
/// them, unsorted (fidelity "Settled assumptions"; the oracle test compares
/// runs of rules as sets for that reason), so the path order given here is
/// an approximation, stated once per result that has two rules in a root.
/// Releases before [`Fact::RulesInListingOrder`] take them in path order,
/// as given here: no assumption.
///
/// [`Fact::RulesInListingOrder`]: crate::profile::Fact::RulesInListingOrder
pub(super) const RULE_ORDER: &str = "Rules of one `.claude/rules` root are listed in path order; Claude Code takes them in the \
                          order the file system lists the directory, which is unsorted, so their order may differ.";

/// The rules of `dir/.claude/rules`, recursively, ordered by path: the
/// unconditional ones first, then the path-scoped ones.
///
/// `nested` is `None` for a rules root on the startup chain (the launch
/// directory or an ancestor), whose unconditional rules load at startup;
/// for a root off the chain it is the placement of `dir`
/// ([`Compiler::off_chain`]): Claude Code reads such a root when a file
/// below `dir` is read, after `dir`'s memory files, unconditional rules
/// first; the `paths` of its rules are relative to `dir` (fidelity C14;
/// anthropics/claude-code#95104; seen with 2.1.197 and 2.1.332 through a
/// scripted model).
///
/// A root above the repository root is read only with `--outside-root`,
/// through the [`Ancestors`] view ([`RulesTree::Above`]).
///
/// [`Ancestors`]: playbookdiff_source::Ancestors
pub(super) fn rules_root(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    dir: &RepoPath,
    nested: Option<&OffChain>,
    jobs: &mut Vec<Job>,
) {
    if !cx.profile.has(crate::profile::Fact::ProjectRules) {
        return;
    }
    let Some(root) = dir.join(".claude/rules") else {
        return;
    };
    let tree = match cx.outside {
        _ if !root.is_above_root() => RulesTree::Repository,
        Some(anc) => RulesTree::Above(anc),
        None => return,
    };
    if !tree.is_dir(cx, &root) {
        return;
    }
    let Found {
        mut files,
        has_subdirs,
    } = walk(cx, &tree, &root);
    files.sort();
    let listing_order = cx.profile.has(crate::profile::Fact::RulesInListingOrder);
    if listing_order && files.len() > 1 && !cx.out.assumptions.iter().any(|a| a == RULE_ORDER) {
        cx.out.assumptions.push(RULE_ORDER.to_string());
    }
    if has_subdirs && matches!(tree, RulesTree::Repository) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::RuleOrderAssumed,
                format!(
                    "`{root}` has subdirectories; the order of rules across them is undocumented, so they are ordered \
                     by path."
                ),
            )
            .at(SourceRef::project(root.clone(), SourceFormat::Markdown)),
        );
    }
    let mut rules = Vec::new();
    for f in files {
        rule_file(cx, settings, dir, &f, nested, &mut rules);
    }
    // Unconditional rules before path-scoped ones (a stable sort keeps
    // path order within each).
    rules.sort_by_key(|j| match j {
        Job::Expand(e) => e.paths.is_some(),
        Job::Push(i) => i.paths.is_some(),
    });
    jobs.extend(rules);
}

/// The most directories one rules root is walked through (9,999): a bound
/// like any listing's.
const MAX_RULE_DIRS: usize = 10_000;

/// Where a rules root is listed: in the repository, through its index, or
/// above the repository root through the `--outside-root` view (an
/// approximation in path order, as in the repository). Symbolic links
/// (a linked file or directory, or `.claude/rules` itself) are followed as
/// the profiled release does ([`Fact::RuleLinksInsideCwdOnly`]): 2.1.197
/// follows every one to a place the analysis sees; 2.1.332 only one
/// leading into the launch directory.
///
/// [`Fact::RuleLinksInsideCwdOnly`]: crate::profile::Fact::RuleLinksInsideCwdOnly
enum RulesTree<'v> {
    Repository,
    Above(&'v Ancestors),
}

/// The `.md` files of a rules root ([`walk`]), and whether it has
/// subdirectories.
#[derive(Default)]
struct Found {
    files: Vec<RepoPath>,
    has_subdirs: bool,
}

/// The `.md` files below `root`, recursively, links followed as
/// [`RulesTree::follow`] says. Each directory is listed once by its real
/// place (a loop ends there), at most [`MAX_RULE_DIRS`] of them.
fn walk(cx: &mut Compiler<'_, '_>, tree: &RulesTree<'_>, root: &RepoPath) -> Found {
    let mut found = Found::default();
    let mut listed: HashSet<RepoPath> = HashSet::new();
    let mut stack = vec![root.clone()];
    let mut budget = MAX_RULE_DIRS;
    while let Some(d) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
        let Some((real, entries)) = tree.list(cx, &d) else {
            continue;
        };
        if !listed.insert(real) {
            continue;
        }
        for ent in entries {
            let Some(p) = d.join(&ent.name) else { continue };
            let kind = match ent.kind {
                EntryKind::Symlink => match tree.follow(cx, &p) {
                    Some(k) => k,
                    None => continue,
                },
                k => k,
            };
            let markdown = ent.name.ends_with(".md");
            match kind {
                EntryKind::Dir => {
                    found.has_subdirs = true;
                    stack.push(p);
                }
                EntryKind::File if markdown => found.files.push(p),
                EntryKind::Other if markdown => tree.not_a_file(cx, &p),
                _ => {}
            }
        }
    }
    found
}

impl RulesTree<'_> {
    /// Whether the rules root `root` is a directory, a link the release
    /// follows to one included.
    fn is_dir(&self, cx: &mut Compiler<'_, '_>, root: &RepoPath) -> bool {
        match self {
            RulesTree::Repository => cx.repo.is_dir(root),
            RulesTree::Above(_) => match cx.kind_at(root) {
                Some(EntryKind::Dir) => true,
                Some(EntryKind::Symlink) => self.follow(cx, root) == Some(EntryKind::Dir),
                _ => false,
            },
        }
    }

    /// The real place of directory `d` (links on the way resolved) and its
    /// entries; `None` when it is no directory the analysis can list.
    fn list(&self, cx: &Compiler<'_, '_>, d: &RepoPath) -> Option<(RepoPath, Vec<DirEntry>)> {
        match self {
            RulesTree::Repository => Some((cx.repo_real(d), cx.repo.list_dir(d).to_vec())),
            RulesTree::Above(anc) => match cx.above_reach(d) {
                Some(Reach::Above {
                    real,
                    kind: EntryKind::Dir,
                    ..
                }) => Some((real.to_repo_path(), anc.list_dir(&real).ok()?)),
                _ => None,
            },
        }
    }

    /// What the link `p` leads to when the profiled release follows it,
    /// after reporting the link (`rule-symlink-conflict`, or why it leads
    /// nowhere); `None` when the release does not follow it or it leads
    /// to nothing the analysis sees.
    fn follow(&self, cx: &mut Compiler<'_, '_>, p: &RepoPath) -> Option<EntryKind> {
        match self {
            RulesTree::Repository => follow_in_repository(cx, p),
            RulesTree::Above(_) => follow_above(cx, p),
        }
    }

    /// Reports the `.md` entry `p` that is neither a file nor a directory.
    fn not_a_file(&self, cx: &mut Compiler<'_, '_>, p: &RepoPath) {
        match self {
            RulesTree::Repository => {
                cx.expect_file(p, SourceFormat::Markdown);
            }
            // `read` reports what cannot be read.
            RulesTree::Above(_) => {
                cx.read(p, SourceFormat::Markdown);
            }
        }
    }
}

/// [`RulesTree::follow`] for a link inside the repository.
fn follow_in_repository(cx: &mut Compiler<'_, '_>, p: &RepoPath) -> Option<EntryKind> {
    let resolved = cx.repo.resolve(p);
    let inside_cwd =
        matches!(&resolved, Resolved::Inside { real, .. } if real.starts_with(&cx.context.cwd));
    let follows = inside_cwd || !cx.profile.has(crate::profile::Fact::RuleLinksInsideCwdOnly);
    let broken = matches!(resolved, Resolved::Dangling { .. } | Resolved::Loop { .. });
    let d = if broken && !follows {
        broken_rule_link_note(cx, p)
    } else {
        rule_link_note(cx, p, follows)
    };
    cx.diag(d.at(SourceRef::project(p.clone(), SourceFormat::Markdown)));
    if !follows {
        // Still say when the link is broken; a link leaving the
        // repository is covered by the note (the agent does not follow it).
        if broken {
            cx.check_link(p, SourceFormat::Markdown);
        }
        return None;
    }
    match resolved {
        Resolved::Inside { kind, .. } => Some(kind),
        // Read above the root with --outside-root.
        Resolved::Outside { .. } if matches!(cx.outside_target(p), Some((_, EntryKind::File))) => {
            Some(EntryKind::File)
        }
        _ => {
            cx.check_link(p, SourceFormat::Markdown);
            None
        }
    }
}

/// [`RulesTree::follow`] for a link above the repository root.
fn follow_above(cx: &mut Compiler<'_, '_>, p: &RepoPath) -> Option<EntryKind> {
    let inside_only = cx.profile.has(crate::profile::Fact::RuleLinksInsideCwdOnly);
    let (kind, into_cwd) = match cx.above_reach(p)? {
        Reach::Above { kind, .. } => (kind, false),
        Reach::Repository { real, kind } => (kind, real.starts_with(&cx.context.cwd)),
        // 2.1.332 skips a link leading out of the launch directory before
        // reading it; `read` reports a broken link, or one leading
        // elsewhere that 2.1.197 follows.
        Reach::Elsewhere if inside_only => {
            let d = rule_link_note(cx, p, false);
            let at = cx.source_ref(p, SourceScope::Project, SourceFormat::Markdown);
            cx.diag(d.at(at));
            return None;
        }
        _ => {
            cx.read(p, SourceFormat::Markdown);
            return None;
        }
    };
    let follows = into_cwd || !inside_only;
    let d = rule_link_note(cx, p, follows);
    let at = cx.source_ref(p, SourceScope::Project, SourceFormat::Markdown);
    cx.diag(d.at(at));
    follows.then_some(kind)
}

/// The `rule-symlink-conflict` note for the link `p` in a rules root:
/// whether the profiled release follows it (`follows`), and what the
/// other releases do (fidelity: case `claude.c04_above_root_links`).
pub(super) fn rule_link_note(cx: &Compiler<'_, '_>, p: &RepoPath, follows: bool) -> Diagnostic {
    let v = &cx.profile.version;
    let message = if !cx.profile.has(crate::profile::Fact::RuleLinksInsideCwdOnly) {
        format!(
            "`{p}` is a symbolic link: Claude Code {v} follows every rule link, wherever it leads; 2.1.332 follows \
             only links whose target lies inside the launch directory and skipped the others when observed."
        )
    } else if follows {
        format!(
            "`{p}` is a symbolic link whose target lies inside the launch directory `{}`: Claude Code {v} follows it \
             (links leading anywhere else are skipped).",
            cx.context.cwd
        )
    } else {
        format!(
            "`{p}` is a symbolic link whose target lies outside the launch directory `{}`: Claude Code {v} skipped such \
             links when observed, so it is not loaded (2.1.197 follows it).",
            cx.context.cwd
        )
    };
    Diagnostic::new(DiagnosticCode::RuleSymlinkConflict, message)
}

/// The `rule-symlink-conflict` note for a broken link `p` (a missing
/// target or a loop) that the profiled release does not follow: its
/// target is nowhere, so the note must not say it lies outside the launch
/// directory (which contradicted the `symlink-loop` or broken-link
/// diagnostic of the same link).
pub(super) fn broken_rule_link_note(cx: &Compiler<'_, '_>, p: &RepoPath) -> Diagnostic {
    let v = &cx.profile.version;
    Diagnostic::new(
        DiagnosticCode::RuleSymlinkConflict,
        format!(
            "`{p}` is a symbolic link that leads to no file (a missing target or a loop): Claude Code {v} \
             follows only links whose target lies inside the launch directory `{}`, so it is not loaded \
             (2.1.197 tries to follow it).",
            cx.context.cwd
        ),
    )
}

/// What a rule file says whatever the launch directory: its text, source,
/// where its body starts, and its `paths` (the patterns Claude Code uses,
/// and as written), as [`read_rule`] reads them.
pub(super) struct RuleRead {
    text: Arc<TextFile>,
    source: SourceRef,
    body_start: usize,
    /// The compiled `paths` patterns of a path-scoped rule.
    patterns: Option<Arc<PathPatterns>>,
    written: Option<Vec<String>>,
}

/// [`read_rule`] of the rule file `path`, read once per run and release
/// ([`playbookdiff_source::Repo::memo`]) and shared by every launch
/// directory of `check --all-dirs`: the diagnostics of the reading are kept
/// with it and reported again, in the same order, by every caller. `None`
/// when the file cannot be read.
pub(super) fn shared_rule(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<Arc<RuleRead>> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, String);
    let key = Key(path.clone(), cx.profile.version.clone());
    cx.memo_read(key, |cx| read_rule(cx, path).map(Arc::new))
}

/// Reads the rule file `path` and its front matter as this release reads
/// them, reporting what is wrong in them (a hidden, unclosed or invalid
/// front matter, `paths` that are not text, `globs` instead of `paths`).
/// Depends only on the file and the release.
pub(super) fn read_rule(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<RuleRead> {
    let format = SourceFormat::Markdown;
    let text = cx.read(path, format)?;
    let source = cx.source_ref(path, SourceScope::Project, format);
    let front = crate::read_front_matter(&cx.profile, &text);
    let fm = front.read();
    let mut body_start = crate::body_start(&cx.profile, &text);
    let mut patterns: Option<Vec<String>> = None;
    let mut written: Option<Vec<String>> = None;
    if front.hidden {
        cx.diag(crate::front_matter_hidden_by_bom(
            path,
            &source,
            "the rule has no `paths`, loads unconditionally and sends its `---` block as text",
        ));
    }
    if let Some(fm) = fm {
        body_start = fm.body_offset;
        match &fm.value {
            Ok(v) => {
                if fm.repaired {
                    crate::repaired_note(cx, path, &source, fm.start_line);
                }
                let pv = v.get("paths").filter(|p| !p.is_null());
                if let Some(pv) = pv {
                    patterns = claude_paths(pv);
                    written = patterns.as_ref().map(|_| written_paths(pv));
                    if has_non_text(pv) {
                        let l = crate::key_line(fm, "paths");
                        let what = if patterns.is_some() {
                            "values that are not text are skipped"
                        } else {
                            "the rule has no usable pattern, so it loads unconditionally"
                        };
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::InvalidValue,
                                format!("`paths` in `{path}` is neither a string nor a list of strings; {what}."),
                            )
                            .at(source.clone().with_lines(l, l)),
                        );
                    }
                } else if v.get("globs").is_some() {
                    let l = crate::key_line(fm, "globs");
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::RuleGlobsNotPaths,
                            format!(
                                "`{path}` scopes itself with `globs:`, which Claude Code does not read; it loads \
                                 unconditionally. Rename the key to `paths:`."
                            ),
                        )
                        .at(source.clone().with_lines(l, l)),
                    );
                }
            }
            Err(e) => {
                let l = e.line.unwrap_or(fm.start_line);
                let msg = crate::yaml_message(&e.message);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!(
                            "The front matter of `{path}` is not valid YAML ({msg}), even after Claude Code's retry \
                             with special values quoted and tabs expanded; Claude Code then reads no `paths`, so the \
                             rule loads unconditionally."
                        ),
                    )
                    .at(source.clone().with_lines(l, l)),
                );
            }
        }
    } else {
        let effect = "the rule has no `paths` and loads unconditionally";
        crate::report_unclosed_front_matter(cx, &text, path, &source, effect);
    }
    Some(RuleRead {
        text,
        source,
        body_start,
        patterns: patterns.as_deref().map(PathPatterns::shared),
        written,
    })
}

pub(super) fn rule_file(
    cx: &mut Compiler<'_, '_>,
    settings: &Settings,
    owner: &RepoPath,
    path: &RepoPath,
    nested: Option<&OffChain>,
    jobs: &mut Vec<Job>,
) {
    let Some(rule) = shared_rule(cx, path) else {
        return;
    };
    let text = rule.text.clone();
    let source = rule.source.clone();
    let body_start = rule.body_start;
    let patterns = &rule.patterns;
    let written = rule.written.clone();
    let mut place = match nested {
        None => Placement {
            kind: InstructionKind::Rule,
            scope: SourceScope::Project,
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: format!("unconditional rule in `{owner}/.claude/rules`, loaded at startup"),
            applies_to: applies_to_of(owner),
        },
        Some((phase, applicability, why)) => Placement {
            kind: InstructionKind::Rule,
            scope: SourceScope::Project,
            load_phase: *phase,
            applicability: *applicability,
            reason: format!("unconditional rule in `{owner}/.claude/rules`: {why}"),
            applies_to: owner.clone(),
        },
    };
    // Where an unconditional rule of this root loads: a path-scoped rule's
    // imports load there (fidelity C12).
    let unconditional = place.clone();
    if patterns.is_some() {
        place.load_phase = LoadPhase::OnDemand;
    }
    let listed = Listed {
        text: &text,
        body_start,
        place: &place,
        source: &source,
    };
    if excluded(cx, settings, path, &listed, written.clone(), jobs) {
        return;
    }
    // A job listing `part` of this rule.
    let job = |place, paths, part, id| {
        Job::Expand(Box::new(Expansion {
            path: path.clone(),
            text: text.clone(),
            body_start,
            place,
            source: source.clone(),
            paths,
            part,
            id,
        }))
    };
    if let Some(compiled) = patterns {
        cx.invalid_patterns(compiled, &source, |p, err| {
            format!("The pattern `{p}` in `{path}` is invalid ({err}) and matches nothing; escape `[` as `\\[`.")
        });
        let (applicability, reason) = path_scoped(cx, owner, compiled, path, &source);
        place.applicability = applicability;
        place.reason = reason;
        // Its imports load where an unconditional rule of its root would
        // (at startup on the startup chain; fidelity C12), before the rule.
        let id = cx.unique_id(format!("claude-code:rule:{path}#1"));
        jobs.push(job(unconditional, None, Part::Imports, Some(id.clone())));
        jobs.push(job(place, written, Part::Entry, Some(id)));
        return;
    }
    jobs.push(job(place, written, Part::Whole, None));
}

/// Whether a path-scoped rule of the rules root in `owner` loads for the
/// target, and why: its patterns are matched against the target relative
/// to `owner` (the directory holding that `.claude`), and only a target
/// inside the launch directory loads anything on demand (fidelity C1,
/// C13).
pub(super) fn path_scoped(
    cx: &mut Compiler<'_, '_>,
    owner: &RepoPath,
    compiled: &PathPatterns,
    path: &RepoPath,
    source: &SourceRef,
) -> (Applicability, String) {
    let Some(t) = cx.context.target_path.clone() else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::PathScopedConditional,
                format!(
                    "`{path}` applies only to paths matching {} (relative to {}); give --target to decide it.",
                    compiled
                        .patterns
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if owner.is_root() { "the repository root".to_string() } else { format!("`{owner}`") }
                ),
            )
            .at(source.clone()),
        );
        return (
            Applicability::Conditional,
            "path-scoped rule; loads when a matching file is read, and no target was given".into(),
        );
    };
    let rel = cx.relative_to_owner(&t, owner);
    let hit = rel
        .as_deref()
        .and_then(|r| compiled.matched(r, cx.repo.is_dir(&t)));
    match hit {
        Some(m) if !t.starts_with(&cx.context.cwd) => {
            cx.target_outside_cwd();
            (
                Applicability::Conditional,
                format!(
                    "path-scoped rule; the target `{t}` matches `{m}` but is outside the launch directory, where \
                     Claude Code loads nothing on demand"
                ),
            )
        }
        Some(m) => (
            Applicability::Effective,
            format!("path-scoped rule; the target `{t}` matches `{m}`"),
        ),
        None => (
            Applicability::Conditional,
            format!("path-scoped rule; the target `{t}` matches none of its patterns"),
        ),
    }
}

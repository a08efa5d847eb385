//! `playbookdiff diff A..B | A...B | REV`: what each agent receives
//! differently at two revisions, and which findings that introduces or
//! resolves.
//!
//! 1. Both sides are opened as trees: a commit through [`GitTree`](playbookdiff_source::GitTree) (read
//!    from git objects, nothing checked out), the working tree for the head
//!    of a single `REV`. Each is walked once into a [`Repo`].
//! 2. The changed paths come from the trees' blob ids (commit against
//!    commit), or from hashing the working tree's files like git does.
//! 3. The affected launch directories are derived from them (see
//!    [`affected`]), then every affected directory is compiled by every
//!    chosen adapter at both revisions on the two shared `Repo`s, compared,
//!    and the per-agent changes and the findings by stable id reported.
//!
//! The project configuration (`playbookdiff.toml` at the repository root,
//! or `--config`) is read as `check` reads it, from the working tree: its
//! harnesses and agent versions are those compared at both revisions; its
//! `exclude` patterns leave files out of both walks, of the changed paths
//! and of the launch directories, and the findings and diagnostics about
//! excluded files only out of the comparison; its accepted findings are
//! marked (an accepted introduced finding does not fail the run); its
//! `fail-on` (under `--fail-on` and `--exit-zero`) is the threshold.
//!
//! Problems in the repository (diagnostics of kind `repository-problem`,
//! warning or error: invalid JSON, a configuration Codex refuses, a
//! broken import) are compared by code and file like findings by id: one
//! the change introduces fails the run like a `medium` finding (`high` for
//! an error), unless a finding has evidence in the same file (that finding
//! then decides, as it weighs what the agents receive; the rule of
//! `DiffProblem::fails`, which `check` shares); one it resolves is listed
//! as resolved.

use crate::check::{analyse_at, launch_directories, Outcome, Policy};
use crate::cli::DiffArgs;
use crate::compile::compile;
use crate::context::{find_repository_root, UsageError};
use crate::exit::ExitStatus;
use crate::project;
use playbookdiff_compare::delta::{
    agent_delta, finding_delta, problem_delta, FindingSet, ProblemSet,
};
use playbookdiff_compare::FailOn;
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness, Mode, RepoPath};
use playbookdiff_registry::{Inputs, Scoped, TargetTest};
use playbookdiff_render::diff::{DiffContext, DiffDocument, DiffSide, DiffSummary};
use playbookdiff_render::report::shell_word;
use playbookdiff_source::{
    CommitId, EntryKind, GitError, GitRepository, GitView, Repo, RepoOptions, SourceTree,
    Visibility, WalkScope, WorkingTree,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which two revisions a RANGE names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Range {
    /// `A..B`: commit A against commit B.
    TwoDot(String, String),
    /// `A...B`: the merge base of A and B against B.
    ThreeDot(String, String),
    /// `REV`: that commit against the working tree.
    AgainstWorkingTree(String),
}

/// Parses RANGE. Errors: an empty side, more than one range operator, a
/// run of more than three dots.
pub(crate) fn parse_range(raw: &str) -> Result<Range, UsageError> {
    let bad = || {
        UsageError(format!(
            "invalid range '{}'; pass A..B (two commits), A...B (B against its merge base with A) or a single REV (that commit against the working tree)",
            raw.escape_debug()
        ))
    };
    let raw_t = raw.trim();
    if raw_t.is_empty() {
        return Err(bad());
    }
    // A side that begins or ends with '.' is a run of more than three dots
    // (`A....B`): git names no ref that way (git-check-ref-format).
    let side_ok = |x: &str| !x.is_empty() && !x.starts_with('.') && !x.ends_with('.');
    // git reads a side left out (`v1..`, `...topic`) as HEAD; here each
    // side is written, so say how.
    for op in ["...", ".."] {
        if let Some((a, b)) = raw_t.split_once(op) {
            let full = match (a.is_empty(), b.is_empty()) {
                (false, true) if side_ok(a) => format!("{a}{op}HEAD"),
                (true, false) if side_ok(b) => format!("HEAD{op}{b}"),
                _ => break,
            };
            return Err(UsageError(format!(
                "invalid range '{}': a side is left out, which git reads as HEAD; write both sides, e.g. {}",
                raw.escape_debug(),
                full.escape_debug()
            )));
        }
    }
    if let Some((a, b)) = raw_t.split_once("...") {
        if !side_ok(a) || !side_ok(b) || b.contains("..") || a.contains("..") {
            return Err(bad());
        }
        return Ok(Range::ThreeDot(a.to_string(), b.to_string()));
    }
    if let Some((a, b)) = raw_t.split_once("..") {
        if !side_ok(a) || !side_ok(b) || b.contains("..") {
            return Err(bad());
        }
        return Ok(Range::TwoDot(a.to_string(), b.to_string()));
    }
    Ok(Range::AgainstWorkingTree(raw_t.to_string()))
}

/// One analysis context of the diff: a launch directory and, for a
/// changed path-scoped rule or skill, a target its `paths` match.
type Ctx = (RepoPath, Option<RepoPath>);

/// Refuses `diff PATH` (REPO omitted) when PATH is an existing directory
/// and not a commit of the repository around the current directory: the
/// first positional argument is the revision, so the user meant
/// `diff REV PATH`. Errors: one [`UsageError`] line showing the corrected
/// command.
fn mistaken_directory(first: &str, current_dir: Option<&Path>) -> Result<(), UsageError> {
    let candidate = match current_dir {
        Some(here) => here.join(first),
        None => PathBuf::from(first),
    };
    if first.trim().is_empty() || !candidate.is_dir() {
        return Ok(());
    }
    let names_a_commit = current_dir
        .map(find_repository_root)
        .and_then(|root| GitRepository::open(&root).ok())
        .is_some_and(|git| git.commit(first).is_ok());
    if names_a_commit {
        return Ok(());
    }
    Err(UsageError(format!(
        "'{}' is a directory, but the first argument of diff is the revision (A..B, A...B or REV); run `playbookdiff diff REV {}`",
        first.escape_debug(),
        playbookdiff_render::report::shell_path(first)
    )))
}

/// The refusal of a REPO that holds no `.git`: inside a larger git work
/// tree (a package of a monorepo), the command line to run at that work
/// tree's root, since diff compares commits of a whole repository; else
/// that it is no repository at all.
fn not_a_repository(
    root: &Path,
    label: &str,
    range: &str,
    current_dir: Option<&Path>,
) -> UsageError {
    let work_tree = crate::context::find_repository_root(root);
    if work_tree != root {
        let shown = match current_dir {
            Some(here) => crate::context::relative_label(here, &work_tree),
            None => work_tree.display().to_string(),
        };
        let shell = playbookdiff_render::report::shell_path;
        return UsageError(format!(
            "REPO '{label}' is inside the git work tree '{shown}' but is not its root, and diff compares commits of a whole repository; run: playbookdiff diff {} {}",
            shell(range),
            shell(&shown)
        ));
    }
    UsageError(format!(
        "REPO '{label}' is not a git repository (no .git at its root), and diff compares two of its commits; run diff in a git repository, or `playbookdiff check` to analyse this directory as it is"
    ))
}

/// `diff REV` in a bare repository: there is no working tree to compare
/// REV with (a bare repository's directory holds git's own files, which
/// are no agent's configuration); two revisions can be compared.
fn bare_against_working_tree(label: &str, rev: &str) -> UsageError {
    let range = if rev == "HEAD" {
        "HEAD~1..HEAD".to_string()
    } else {
        format!("{rev}..HEAD")
    };
    UsageError(format!(
        "REPO '{label}' is a bare git repository: it has no working tree to compare {rev} with; compare two commits instead, e.g. `playbookdiff diff {} {}`",
        shell_word(&range),
        playbookdiff_render::report::shell_path(label)
    ))
}

/// Runs `diff` and renders the document into `out` (nothing with
/// `--quiet` when the run passes). Status 1 when an introduced finding is
/// actionable.
pub(crate) fn run_diff(
    args: &DiffArgs,
    current_dir: Option<&Path>,
    color: playbookdiff_render::Color,
    out: &mut crate::sink::Sink,
) -> Result<Outcome, UsageError> {
    let doc = document(args, current_dir)?;
    let status = ExitStatus::failing_if(doc.summary.failing > 0);
    if !(args.quiet && status == ExitStatus::Success) {
        out.render(|w| playbookdiff_render::format::diff(w, &doc, args.output_format(), color));
    }
    Ok(Outcome {
        output: String::new(),
        status,
    })
}

/// The `diff` document of `args` (what `run_diff` renders; `round
/// audit` takes its per-agent account from it).
///
/// # Errors
/// A one-line [`UsageError`]: a range or repository that cannot be
/// read, a revision that names no commit, an invalid configuration.
pub(crate) fn document(
    args: &DiffArgs,
    current_dir: Option<&Path>,
) -> Result<DiffDocument, UsageError> {
    let opened = open_repository(args, current_dir)?;
    let (root, label, git) = (&opened.root, &opened.label, &opened.git);
    let loaded = project::load(args.config.as_deref(), root, current_dir)?;
    let hs = crate::check::harnesses(&args.harness, loaded.as_ref())?;
    let fail_on = if args.exit_zero {
        Some(FailOn::Never)
    } else {
        args.fail_on.map(FailOn::from)
    };
    let policy = Policy::new(loaded.as_ref(), fail_on)?;
    let revisions = revisions(git, &opened.range, &args.range)?;
    let base_tree = git
        .tree(&revisions.base_commit)
        .map_err(|e| UsageError(e.to_string()))?;
    let head_git = match &revisions.head_commit {
        Some(c) => Some(git.tree(c).map_err(|e| UsageError(e.to_string()))?),
        None => None,
    };
    let worktree = match &revisions.head_commit {
        Some(_) => None,
        None => Some(WorkingTree::open(root).map_err(|e| {
            UsageError(format!(
                "REPO '{label}' cannot be read ({e}); pass a readable repository directory"
            ))
        })?),
    };
    let head_tree: &dyn SourceTree = match (&head_git, &worktree) {
        (Some(t), _) => t,
        (None, Some(w)) => w,
        (None, None) => unreachable!("one head is always opened"),
    };
    // One walk of each side. Two commits: the base is walked whole, and
    // the head's walk borrows every subtree whose tree id is the same at
    // both (most of them), so it lists only the directories a change
    // reaches. Against the working tree, the two walks run side by side.
    let options = walk_options(root, &hs, &policy);
    let base;
    let head;
    if head_git.is_some() {
        base = Repo::with_options(&base_tree, options(&base_tree));
        head = Repo::sharing(head_tree, options(head_tree), &base);
    } else {
        (base, head) = std::thread::scope(|s| {
            let b = s.spawn(|| Repo::with_options(&base_tree, options(&base_tree)));
            let h = Repo::with_options(head_tree, options(head_tree));
            (b.join().expect("the walk does not panic"), h)
        });
    }
    let mut changed = match &head_git {
        Some(h) => base_tree.changed_paths(h),
        None => base_tree.changed_against(&head),
    };
    changed.retain(|p| !policy.excludes(p));
    let mut analysed = analyse_changes(&base, &head, &changed, &hs, args, &policy);
    add_guard_findings(&mut analysed, root, [&base, &head], &policy);
    // Both walks and trees are done with.
    crate::context::release_at_exit(head);
    crate::context::release_at_exit(base);
    crate::context::release_at_exit((base_tree, head_git, worktree));

    Ok(diff_document(
        opened.label,
        revisions,
        hs,
        &policy,
        changed,
        analysed,
    ))
}

/// The repository `diff` compares, opened: its root, its label for the
/// output (as given, or relative to the current directory), and the
/// range, parsed.
struct OpenedRepository {
    root: PathBuf,
    label: String,
    git: GitRepository,
    range: Range,
}

/// Parses the range and opens REPO (else the repository around the
/// current directory) as a git repository. Errors: a usage error that
/// says what to pass instead (a directory given as the range, no such
/// directory, no git repository, a bare repository compared with its
/// working tree).
fn open_repository(
    args: &DiffArgs,
    current_dir: Option<&Path>,
) -> Result<OpenedRepository, UsageError> {
    if args.repo.is_none() {
        mistaken_directory(&args.range, current_dir)?;
    }
    let range = parse_range(&args.range)?;
    let (root, label) = match (&args.repo, current_dir) {
        (Some(r), Some(here)) => (here.join(r), r.display().to_string()),
        (Some(r), None) => (r.clone(), r.display().to_string()),
        (None, Some(here)) => {
            let root = find_repository_root(here);
            let label = crate::context::relative_label(here, &root);
            (root, label)
        }
        (None, None) => {
            return Err(UsageError(
                "REPO: the current directory cannot be determined; pass REPO explicitly".into(),
            ))
        }
    };
    if !root.is_dir() {
        return Err(UsageError(format!(
            "REPO '{label}' is not a directory; pass the root of a git repository"
        )));
    }
    let git = GitRepository::open(&root).map_err(|e| match e {
        GitError::NotARepository => not_a_repository(&root, &label, &args.range, current_dir),
        e => UsageError(format!("REPO '{label}': {e}")),
    })?;
    if let Range::AgainstWorkingTree(rev) = &range {
        if !git.has_work_tree() {
            return Err(bare_against_working_tree(&label, rev));
        }
    }
    Ok(OpenedRepository {
        root,
        label,
        git,
        range,
    })
}

/// The two sides of a range: the base revision as given and its commit
/// (the merge base for `A...B`), and the head revision and commit (none
/// for the working tree).
struct Revisions {
    base_rev: String,
    base_commit: CommitId,
    head_rev: Option<String>,
    head_commit: Option<CommitId>,
    merge_base: bool,
}

/// Resolves `range` (`given`, as typed) to its commits in `git`. Errors:
/// a revision that names no commit, or no merge base.
fn revisions(git: &GitRepository, range: &Range, given: &str) -> Result<Revisions, UsageError> {
    let commit = |rev: &str| git.commit(rev).map_err(|e| UsageError(e.to_string()));
    Ok(match range {
        Range::TwoDot(a, b) => Revisions {
            base_rev: a.clone(),
            base_commit: commit(a)?,
            head_rev: Some(b.clone()),
            head_commit: Some(commit(b)?),
            merge_base: false,
        },
        Range::ThreeDot(a, b) => {
            let (ca, cb) = (commit(a)?, commit(b)?);
            let mb = git
                .merge_base(&ca, &cb, given)
                .map_err(|e| UsageError(e.to_string()))?;
            Revisions {
                base_rev: a.clone(),
                base_commit: mb,
                head_rev: Some(b.clone()),
                head_commit: Some(cb),
                merge_base: true,
            }
        }
        Range::AgainstWorkingTree(r) => Revisions {
            base_rev: r.clone(),
            base_commit: commit(r)?,
            head_rev: None,
            head_commit: None,
            merge_base: false,
        },
    })
}

/// The walk options of a side of `diff`. A commit holds only committed
/// files; the working tree is seen as repo mode sees it (tracked files
/// and untracked ones no ignore rule matches, the harnesses' personal
/// files included).
fn walk_options<'a>(
    root: &'a Path,
    hs: &[Harness],
    policy: &'a Policy,
) -> impl Fn(&dyn SourceTree) -> RepoOptions + 'a {
    let personal: Vec<&str> = hs
        .iter()
        .filter_map(|h| playbookdiff_registry::adapter(*h))
        .flat_map(|a| a.personal_paths().iter().copied())
        .collect();
    move |tree: &dyn SourceTree| RepoOptions {
        visibility: if tree.is_commit() {
            Visibility::Committed
        } else {
            GitView::open(root, &personal)
                .map_or(Visibility::WorkingTree, |g| Visibility::Git(Box::new(g)))
        },
        excludes: policy.exclusion.walker_patterns().to_vec(),
        scope: WalkScope::Whole,
    }
}

/// Every context the `changed` paths affect, analysed at both
/// revisions: the launch directories, then the targets derived from the
/// changed path-scoped items; in context order.
fn analyse_changes(
    base: &Repo<'_>,
    head: &Repo<'_>,
    changed: &[RepoPath],
    hs: &[Harness],
    args: &DiffArgs,
    policy: &Policy,
) -> Vec<Analysed> {
    let changed_set: BTreeSet<&RepoPath> = changed.iter().collect();
    let dirs: Vec<Ctx> = affected(base, head, changed, hs, args, policy)
        .into_iter()
        .map(|d| (d, None))
        .collect();
    let mut analysed = analyse_contexts(base, head, &dirs, hs, args, policy, &changed_set);
    let targets = derived_targets(base, head, &analysed, &changed_set);
    analysed.extend(analyse_contexts(
        base,
        head,
        &targets,
        hs,
        args,
        policy,
        &changed_set,
    ));
    analysed.sort_by(|a, b| a.context.cmp(&b.context));
    analysed
}

/// Adds the guard's findings of each revision ([`crate::guard_check`]:
/// the repository's own files as each side holds them) to the root's
/// context, when it is analysed, so that a guard finding gained or lost
/// between the two (a commit adding `disableAllHooks: true`) is
/// introduced or resolved like any other, once for the repository. The
/// files the guard's status reads are configuration at the root, so a
/// change to one always brings the root among the affected directories.
fn add_guard_findings(
    analysed: &mut [Analysed],
    root: &Path,
    [base, head]: [&Repo<'_>; 2],
    policy: &Policy,
) {
    let Some(a) = analysed
        .iter_mut()
        .find(|a| a.context.0.is_root() && a.context.1.is_none())
    else {
        return;
    };
    let layers = crate::guard_check::Layers {
        root,
        machine: None,
    };
    for (repo, configs, findings) in [
        (base, &a.base_configs, &mut a.base_findings),
        (head, &a.head_configs, &mut a.head_findings),
    ] {
        findings.extend(crate::guard_check::findings(
            layers,
            repo,
            configs,
            policy.guard,
        ));
        policy.baseline.apply(findings);
    }
}

/// The `diff` document: the revisions, what changed, each analysed
/// context, the findings and problems introduced, resolved and
/// unchanged, and the summary that decides the exit status.
fn diff_document(
    label: String,
    revisions: Revisions,
    hs: Vec<Harness>,
    policy: &Policy,
    changed: Vec<RepoPath>,
    analysed: Vec<Analysed>,
) -> DiffDocument {
    let contexts: Vec<Ctx> = analysed.iter().map(|a| a.context.clone()).collect();
    let mut base_set = FindingSet::new();
    let mut head_set = FindingSet::new();
    let mut base_problems = ProblemSet::new();
    let mut head_problems = ProblemSet::new();
    let mut directories = Vec::new();
    for a in analysed {
        base_set.add(&a.context.0, a.base_findings);
        head_set.add(&a.context.0, a.head_findings);
        base_problems.add(&a.context.0, &a.base_configs);
        head_problems.add(&a.context.0, &a.head_configs);
        if !a.agents.is_empty() {
            directories.push(DiffContext {
                cwd: a.context.0.clone(),
                target_path: a.context.1.clone(),
                agents: a.agents,
                release: None,
            });
        }
    }
    let findings = finding_delta(base_set, head_set);
    let mut problems = problem_delta(base_problems, head_problems);
    problems.link(&findings);
    let failing_problems = problems.failing(policy.fail_on);
    let summary = DiffSummary {
        changed_paths: changed.len(),
        affected_contexts: contexts.len(),
        introduced: findings.introduced.len(),
        introduced_actionable: findings.introduced_actionable(),
        introduced_accepted: findings
            .introduced
            .iter()
            .filter(|f| f.finding.accepted.is_some())
            .count(),
        failing: policy
            .fail_on
            .failing(findings.introduced.iter().map(|f| &f.finding))
            + failing_problems,
        resolved: findings.resolved.len(),
        unchanged: findings.unchanged.len(),
        introduced_problems: problems.introduced.len(),
        resolved_problems: problems.resolved.len(),
    };
    DiffDocument {
        schema_version: 1,
        repository: label,
        base: DiffSide {
            revision: Some(revisions.base_rev),
            commit: Some(revisions.base_commit.hex()),
            merge_base: revisions.merge_base,
        },
        head: DiffSide {
            revision: revisions.head_rev,
            commit: revisions.head_commit.as_ref().map(|c| c.hex()),
            merge_base: false,
        },
        harnesses: hs,
        fail_on: policy.fail_on,
        changed_paths: changed,
        analysed: contexts
            .iter()
            .map(|(d, t)| playbookdiff_render::diff::AnalysedContext {
                cwd: d.clone(),
                target_path: t.clone(),
            })
            .collect(),
        directories,
        findings,
        problems,
        summary,
        upgrade: None,
    }
}

/// The governing directory of a configuration path: the directory that
/// holds its first component owned by an adapter (`apps/api` for
/// `apps/api/.claude/rules/x.md` and for `apps/api/AGENTS.md`).
fn governing_dir(path: &RepoPath, hs: &[Harness]) -> Option<RepoPath> {
    let adapters: Vec<_> = hs
        .iter()
        .filter_map(|h| playbookdiff_registry::adapter(*h))
        .collect();
    let mut dir = RepoPath::root();
    for c in path.components() {
        if adapters.iter().any(|a| a.config_entry_names().contains(&c)) {
            return Some(dir);
        }
        dir = dir.join(c)?;
    }
    None
}

/// True when `a` is `b` or one of its ancestors.
fn is_ancestor_or_self(a: &RepoPath, b: &RepoPath) -> bool {
    a.is_root() || b == a || b.starts_with(a)
}

/// Every file path a configuration names as a source: instruction files
/// (and where their links lead), skills and their metadata, MCP server
/// definitions, the files that register hooks and the scripts they run,
/// permissions, subagents, commands, output styles, plugins and what they
/// bring.
fn sources(c: &EffectiveAgentConfig) -> BTreeSet<RepoPath> {
    let mut out = BTreeSet::new();
    let mut add = |s: &playbookdiff_model::SourceRef| {
        out.insert(s.path.clone());
        if let Some(r) = &s.resolved_path {
            out.insert(r.clone());
        }
    };
    for i in &c.instructions {
        add(&i.source);
    }
    for s in &c.skills {
        add(&s.source);
        s.metadata_sources.iter().for_each(&mut add);
    }
    for m in &c.mcp_servers {
        add(&m.source);
        m.other_sources.iter().for_each(&mut add);
    }
    c.hooks.iter().for_each(|h| add(&h.source));
    c.permissions.iter().for_each(|p| add(&p.source));
    c.subagents.iter().for_each(|s| add(&s.source));
    c.commands.iter().for_each(|s| add(&s.source));
    c.output_styles.iter().for_each(|s| add(&s.source));
    for p in &c.plugins {
        add(&p.source);
        p.contributions.iter().for_each(|c| add(&c.source));
    }
    for i in &c.instructions {
        if let Some(r) = &i.resolution {
            out.extend(r.sources.iter().cloned());
        }
    }
    out.extend(
        c.hooks
            .iter()
            .filter_map(|h| Some(h.script.as_ref()?.path.clone())),
    );
    out
}

/// The launch directories whose received configuration can change,
/// sorted:
///
/// * every launch directory (the root and each directory holding an
///   adapter's configuration entry, at either revision) whose chain holds
///   a changed configuration path, or below which one lies (nested files
///   an agent loads on demand): the configuration's governing directory is
///   an ancestor of the launch directory, or the other way round;
/// * when a changed path is no adapter's configuration (a source file, an
///   imported document, the target of a link), every launch directory
///   whose configuration at either revision names it as a source.
///
/// Then, for each changed path-scoped rule or skill (`paths`) of an
/// affected directory, a target its patterns match ([`derived_targets`]),
/// so its loading is compared too. No cap: each directory's compilation
/// shares the two walks. A directory the configuration's `exclude`
/// matches is never a launch directory, as for `check --all-dirs`.
pub(crate) fn affected(
    base: &Repo<'_>,
    head: &Repo<'_>,
    changed: &[RepoPath],
    hs: &[Harness],
    args: &DiffArgs,
    policy: &Policy,
) -> Vec<RepoPath> {
    if changed.is_empty() {
        return Vec::new();
    }
    let mut candidates: BTreeSet<RepoPath> = launch_directories(base, hs, &policy.exclusion)
        .into_iter()
        .collect();
    candidates.extend(launch_directories(head, hs, &policy.exclusion));
    let mut governing: Vec<RepoPath> = Vec::new();
    let mut others: BTreeSet<&RepoPath> = BTreeSet::new();
    for p in changed {
        match governing_dir(p, hs) {
            Some(g) => governing.push(g),
            None => {
                others.insert(p);
            }
        }
    }
    governing.sort();
    governing.dedup();
    let mut dirs: BTreeSet<RepoPath> = candidates
        .iter()
        .filter(|d| {
            governing
                .iter()
                .any(|g| is_ancestor_or_self(g, d) || is_ancestor_or_self(d, g))
        })
        .cloned()
        .collect();
    if !others.is_empty() {
        let rest: Vec<RepoPath> = candidates.difference(&dirs).cloned().collect();
        let hit = std::sync::Mutex::new(Vec::new());
        parallel(&rest, |d| {
            let ctx = context_at(d, None);
            let names = hs.iter().any(|h| {
                [base, head].iter().any(|repo| {
                    let s = sources(&compile(*h, repo, &ctx, &inputs(args, policy, *h)));
                    others.iter().any(|o| s.contains(*o))
                })
            });
            if names {
                hit.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(d.clone());
            }
        });
        dirs.extend(hit.into_inner().unwrap_or_else(|e| e.into_inner()));
    }

    dirs.into_iter().collect()
}

/// What each changed path-scoped instruction or skill of `configs` (its
/// file is in `changed`) needs of a target to load from `cwd`, as its
/// harness's adapter answers, one test per pattern
/// ([`playbookdiff_registry::Adapter::target_tests`]).
fn changed_scopes(
    configs: &[EffectiveAgentConfig],
    cwd: &RepoPath,
    changed: &BTreeSet<&RepoPath>,
) -> Vec<TargetTest> {
    let mut tests = Vec::new();
    for c in configs {
        let Some(adapter) = playbookdiff_registry::adapter(c.harness) else {
            continue;
        };
        let items = c
            .instructions
            .iter()
            .map(Scoped::Instruction)
            .chain(c.skills.iter().map(Scoped::Skill));
        for item in items {
            if item.paths().is_some() && changed.contains(item.file()) {
                tests.extend(adapter.target_tests(item, cwd));
            }
        }
    }
    tests
}

/// For each analysed launch directory with changed path-scoped items, a
/// target for each of their patterns at either revision (a changed file
/// first, else the first in path order), once per file.
fn derived_targets(
    base: &Repo<'_>,
    head: &Repo<'_>,
    analysed: &[Analysed],
    changed: &BTreeSet<&RepoPath>,
) -> Vec<Ctx> {
    let mut out = Vec::new();
    for a in analysed {
        let mut targets: BTreeSet<RepoPath> = BTreeSet::new();
        for test in &a.scopes {
            for repo in [base, head] {
                if let Some(t) = first_target(repo, test, changed) {
                    targets.insert(t);
                }
            }
        }
        out.extend(targets.into_iter().map(|t| (a.context.0.clone(), Some(t))));
    }
    out
}

/// The first file of `repo` (a changed one first, else in path order)
/// that passes `test`.
fn first_target(
    repo: &Repo<'_>,
    test: &TargetTest,
    changed: &BTreeSet<&RepoPath>,
) -> Option<RepoPath> {
    if let Some(c) = changed
        .iter()
        .find(|c| repo.kind(c) == Some(EntryKind::File) && test(c, false))
    {
        return Some((*c).clone());
    }
    let mut best: Option<RepoPath> = None;
    for d in repo.directories() {
        for e in repo.list_dir(&d) {
            if e.kind != EntryKind::File {
                continue;
            }
            let Some(path) = d.join(&e.name) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| path < *b) && test(&path, false) {
                best = Some(path);
            }
        }
    }
    best
}

/// What `h` is compiled with: the command line's release, else the
/// configuration file's, and the command line's context window.
fn inputs<'a>(args: &'a DiffArgs, policy: &'a Policy, h: Harness) -> Inputs<'a> {
    args.agent
        .inputs(policy.version(args.agent.agent_version(h), h))
}

fn context_at(cwd: &RepoPath, target: Option<RepoPath>) -> AnalysisContext {
    AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: cwd.clone(),
        target_path: target,
        mode: Mode::Repo,
    }
}

/// Runs `work` on every item, spread over the available cores (at most 8).
fn parallel<T: Sync>(items: &[T], work: impl Fn(&T) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8)
        .min(items.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                work(item);
            });
        }
    });
}

struct Analysed {
    context: Ctx,
    /// What a target needs to load each of its changed path-scoped items.
    scopes: Vec<TargetTest>,
    agents: Vec<playbookdiff_compare::delta::AgentDelta>,
    base_findings: Vec<playbookdiff_compare::Finding>,
    head_findings: Vec<playbookdiff_compare::Finding>,
    /// The configurations compiled at each revision, for their problems
    /// in the repository.
    base_configs: Vec<EffectiveAgentConfig>,
    head_configs: Vec<EffectiveAgentConfig>,
}

/// Compiles and compares every context at both revisions, in context
/// order, as `check` does under `policy` (excluded files left out,
/// accepted findings marked).
fn analyse_contexts(
    base: &Repo<'_>,
    head: &Repo<'_>,
    contexts: &[Ctx],
    hs: &[Harness],
    args: &DiffArgs,
    policy: &Policy,
    changed: &BTreeSet<&RepoPath>,
) -> Vec<Analysed> {
    let results = std::sync::Mutex::new(BTreeMap::new());
    let indexed: Vec<(usize, &Ctx)> = contexts.iter().enumerate().collect();
    parallel(&indexed, |(i, (dir, target))| {
        let ctx = context_at(dir, target.clone());
        let side = |repo: &Repo<'_>| {
            let (configs, cmp) = analyse_at(repo, hs, &ctx, policy, &|h| inputs(args, policy, h));
            (configs, cmp.findings)
        };
        let (mut bc, bf) = side(base);
        let (mut hc, hf) = side(head);
        let mut scopes = changed_scopes(&bc, dir, changed);
        scopes.extend(changed_scopes(&hc, dir, changed));
        let agents = bc
            .iter()
            .zip(&hc)
            .map(|(b, h)| agent_delta(b, h))
            .filter(|d| !d.is_empty())
            .collect();
        // A launch directory that exists at one revision only has no
        // problems at the other (only "cwd is not a directory").
        for (repo, configs) in [(base, &mut bc), (head, &mut hc)] {
            if !repo.is_dir(dir) {
                configs.iter_mut().for_each(|c| c.diagnostics.clear());
            }
        }
        results.lock().unwrap_or_else(|e| e.into_inner()).insert(
            *i,
            Analysed {
                context: (dir.clone(), target.clone()),
                scopes,
                agents,
                base_findings: bf,
                head_findings: hf,
                base_configs: bc,
                head_configs: hc,
            },
        );
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_values()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(
            parse_range("main..topic").unwrap(),
            Range::TwoDot("main".into(), "topic".into())
        );
        assert_eq!(
            parse_range("main...topic").unwrap(),
            Range::ThreeDot("main".into(), "topic".into())
        );
        assert_eq!(
            parse_range("HEAD~1").unwrap(),
            Range::AgainstWorkingTree("HEAD~1".into())
        );
        for bad in [
            "",
            "..b",
            "a..",
            "a..b..c",
            "...b",
            "a...",
            "a...b..c",
            "HEAD....HEAD",
            "a.....b",
        ] {
            let e = parse_range(bad).unwrap_err();
            assert!(e.0.starts_with("invalid range"), "{bad}: {e}");
        }
        // A side left out is answered with the range written in full.
        for (bad, full) in [
            ("v1..", "e.g. v1..HEAD"),
            ("..v2", "e.g. HEAD..v2"),
            ("main...", "e.g. main...HEAD"),
            ("...topic", "e.g. HEAD...topic"),
        ] {
            let e = parse_range(bad).unwrap_err();
            assert!(
                e.0.contains("a side is left out") && e.0.ends_with(full),
                "{bad}: {e}"
            );
        }
        for bad in ["..", "...", "a....", "....b"] {
            let e = parse_range(bad).unwrap_err();
            assert!(!e.0.contains("a side is left out"), "{bad}: {e}");
        }
    }

    #[test]
    fn ancestry() {
        let r = |s: &str| RepoPath::new(s).unwrap();
        assert!(is_ancestor_or_self(&r("."), &r("a/b")));
        assert!(is_ancestor_or_self(&r("a"), &r("a/b")));
        assert!(is_ancestor_or_self(&r("a/b"), &r("a/b")));
        assert!(!is_ancestor_or_self(&r("a/b"), &r("a")));
        assert!(!is_ancestor_or_self(&r("a"), &r("ab")));
    }
}

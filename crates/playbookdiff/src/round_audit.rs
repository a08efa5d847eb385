//! `playbookdiff round audit`: reads the two revisions of a round with
//! gix (the base: `--base`, else the brief's `baseBranch`, at its merge
//! base with HEAD; the head: HEAD), the brief at each, the changed files,
//! the rulings and `diff`'s per-agent account, and hands them to
//! `playbookdiff_round::audit`, which decides (docs/rounds.md, "The
//! audit").

use crate::check::Outcome;
use crate::cli::{DiffArgs, RoundAuditArgs};
use crate::context::UsageError;
use crate::exit::ExitStatus;
use crate::round::Found;
use playbookdiff_model::RepoPath;
use playbookdiff_round::audit::{
    self, AgentChanges, AuditInputs, AuditSide, Change, ChangedFile, ScopeSource,
};
use playbookdiff_source::{CommitId, GitRepository, GitTree, SourceError, SourceTree};
use std::path::Path;

/// The largest file read as text, in bytes (16 MiB): a larger one is
/// measured by its path only, and a finding says so.
const MAX_TEXT_BYTES: u64 = 16 << 20;

/// Carries out `round audit`: the report in the chosen format; exit
/// status 1 when a finding fails the round.
///
/// # Errors
/// A one-line [`UsageError`] (exit 2) when no brief is named or found,
/// or the repository is no git repository.
pub(crate) fn run(args: &RoundAuditArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    let found = crate::round::find(&args.target, here)?;
    let git = GitRepository::open(&found.root).map_err(|e| {
        UsageError(format!(
            "{}: not a git repository ({e}); the audit compares two commits of one",
            found.root.display()
        ))
    })?;
    let report = report(&git, &found, args.base.as_deref(), here);
    let mut out = Vec::new();
    playbookdiff_render::format::round_audit(&mut out, &report, args.format.format())
        .map_err(|e| UsageError(format!("the report cannot be written ({e})")))?;
    Ok(Outcome {
        output: String::from_utf8_lossy(&out).into_owned(),
        status: ExitStatus::failing_if(report.fails),
    })
}

/// The audit of the round `found` works under, from `base` (else the
/// brief's `baseBranch`) to HEAD. A side that cannot be found is a
/// finding of what could not be measured, not an error.
pub(crate) fn report(
    git: &GitRepository,
    found: &Found,
    base: Option<&str>,
    here: Option<&Path>,
) -> audit::AuditReport {
    let head = git.commit("HEAD").ok();
    let head_side = AuditSide {
        revision: "HEAD".into(),
        commit: head.as_ref().map(CommitId::hex),
    };
    let base_name = base
        .map(str::to_string)
        .or_else(|| found.brief.base_branch.clone());
    let resolved = match (&base_name, &head) {
        (Some(name), Some(h)) => resolve_base(git, name, h),
        (None, _) => Err("no base: the brief names no `baseBranch`; pass --base REV".into()),
        (Some(_), None) => Err("HEAD names no commit yet".into()),
    };
    let base_side = AuditSide {
        revision: base_name.unwrap_or_else(|| "(none)".into()),
        commit: resolved.as_ref().ok().map(CommitId::hex),
    };
    match (resolved, head) {
        (Ok(b), Some(h)) => measured(git, found, (base_side, head_side), (&b, &h), here),
        (Err(why), _) => unmeasured(found, (base_side, head_side), why),
        (Ok(_), None) => unmeasured(found, (base_side, head_side), "no HEAD".into()),
    }
}

/// The merge base of `name` (a local branch, else `origin`'s, else any
/// revision git names) and `head`.
fn resolve_base(git: &GitRepository, name: &str, head: &CommitId) -> Result<CommitId, String> {
    let commit = [
        format!("refs/heads/{name}"),
        format!("refs/remotes/origin/{name}"),
        name.to_string(),
    ]
    .iter()
    .find_map(|rev| git.commit(rev).ok())
    .ok_or_else(|| format!("no; the base `{name}` is not in this repository (fetch it)"))?;
    git.merge_base(&commit, head, &format!("{name}...HEAD"))
        .map_err(|e| format!("no; {e}"))
}

/// The report when the two sides cannot be compared: one error saying
/// why, the scope of the working tree's brief named for the record.
fn unmeasured(found: &Found, sides: (AuditSide, AuditSide), why: String) -> audit::AuditReport {
    audit::audit(AuditInputs {
        scope: &found.brief,
        scope_from: ScopeSource::Head,
        head_brief: Some(&found.brief),
        path: &found.path,
        sides,
        changed: &[],
        rulings: &[],
        agents: Vec::new(),
        unmeasured: vec![(None, "base".into(), why)],
    })
}

fn measured(
    git: &GitRepository,
    found: &Found,
    sides: (AuditSide, AuditSide),
    commits: (&CommitId, &CommitId),
    here: Option<&Path>,
) -> audit::AuditReport {
    let trees = (git.tree(commits.0), git.tree(commits.1));
    let (base_tree, head_tree) = match trees {
        (Ok(b), Ok(h)) => (b, h),
        (Err(e), _) | (_, Err(e)) => {
            return unmeasured(found, sides, format!("no; a tree cannot be read ({e})"))
        }
    };
    let changed = changed_files(&base_tree, &head_tree);
    let at = |tree: &GitTree| text_at(tree, &found.path).ok().flatten();
    let base_brief = at(&base_tree).map(|t| playbookdiff_round::brief::parse(&t));
    let head_brief = at(&head_tree).map(|t| playbookdiff_round::brief::parse(&t));
    let (scope, scope_from) = match &base_brief {
        Some(b) => (b, ScopeSource::Base),
        None => (
            head_brief.as_ref().unwrap_or(&found.brief),
            ScopeSource::Head,
        ),
    };
    let rulings = match &head_brief {
        Some(b) => crate::round_rulings::check(&found.root, &found.path, b).0,
        None => Vec::new(),
    };
    let mut unmeasured = Vec::new();
    let agents = agent_changes(&found.root, commits, here).unwrap_or_else(|why| {
        unmeasured.push((
            None,
            "agents".into(),
            format!("no; `diff` could not run ({why})"),
        ));
        Vec::new()
    });
    audit::audit(AuditInputs {
        scope,
        scope_from,
        head_brief: head_brief.as_ref(),
        path: &found.path,
        sides,
        changed: &changed,
        rulings: &rulings,
        agents,
        unmeasured,
    })
}

/// Every path whose blob differs between the trees, with its text on
/// each side.
fn changed_files(base: &GitTree, head: &GitTree) -> Vec<ChangedFile> {
    base.changed_paths(head)
        .into_iter()
        .map(|p| {
            let (b, h) = (text_at(base, p.as_str()), text_at(head, p.as_str()));
            let change = match (&b, &h) {
                (Ok(None), _) => Change::Added,
                (_, Ok(None)) => Change::Deleted,
                _ => Change::Modified,
            };
            ChangedFile {
                path: p.as_str().to_string(),
                change,
                base: b,
                head: h,
            }
        })
        .collect()
}

/// The text of `path` in `tree`: `Ok(None)` when absent, `Err(why)` when
/// it is not read as text (not a regular file, a Git LFS pointer, larger
/// than [`MAX_TEXT_BYTES`], NUL bytes or not UTF-8).
fn text_at(tree: &GitTree, path: &str) -> Result<Option<String>, String> {
    let rel = RepoPath::new(path).ok_or_else(|| "not a repository path".to_string())?;
    match tree.read_file(&rel, MAX_TEXT_BYTES) {
        Err(SourceError::NotFound(_)) => Ok(None),
        Err(SourceError::TooLarge { len, .. }) => Err(format!("{len} bytes, over the limit")),
        Err(SourceError::Io { message, .. }) => Err(message),
        Ok(bytes) if bytes.contains(&0) => Err("a binary file".into()),
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| "not UTF-8 text".into()),
    }
}

/// `diff BASE..HEAD`'s account of what each agent receives differently,
/// per context, for every registered harness.
fn agent_changes(
    root: &Path,
    commits: (&CommitId, &CommitId),
    here: Option<&Path>,
) -> Result<Vec<AgentChanges>, String> {
    let args = DiffArgs {
        range: format!("{}..{}", commits.0.hex(), commits.1.hex()),
        repo: Some(root.to_path_buf()),
        harness: Vec::new(),
        agent: Default::default(),
        format: playbookdiff_render::Format::Json,
        json: false,
        config: None,
        fail_on: None,
        exit_zero: true,
        quiet: false,
    };
    let doc = crate::diff::document(&args, here).map_err(|e| e.0)?;
    Ok(doc
        .directories
        .into_iter()
        .map(|d| AgentChanges {
            cwd: d.cwd.as_str().to_string(),
            target_path: d.target_path.map(|t| t.as_str().to_string()),
            agents: d.agents,
        })
        .collect())
}

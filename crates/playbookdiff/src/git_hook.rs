//! `guard install --git-hook` and `guard pre-commit`, the command git's
//! pre-commit hook runs: a commit that changes a file the round's brief
//! protects is refused unless a verified ruling allows it, whoever makes
//! it (an agent's file tool, a shell command, a person).
//!
//! What a commit changes is read with `git diff --cached`: git runs the
//! hook with the index of the commit being made (`GIT_INDEX_FILE` for
//! `commit -a` and `commit PATH`), which only git itself reads as git
//! will commit it. Everything else (the brief, the rulings' signatures)
//! is read as `guard hook` reads it.

use crate::check::Outcome;
use crate::cli::GuardInstallArgs;
use crate::exit::ExitStatus;
use crate::guard_disk::GitDirs;
use playbookdiff_guard::git_hook::{self, Step};
use playbookdiff_guard::Verdict;
use std::path::{Path, PathBuf};

/// Installs the pre-commit hook (a plan without `--write`).
///
/// # Errors
/// One line: not a git work tree, a hook that cannot be kept, a file
/// that cannot be read or written.
pub(crate) fn install(a: &GuardInstallArgs, here: Option<&Path>) -> Result<Outcome, String> {
    let (root, git) = crate::guard::repo_root(a.repo.as_deref(), here)?;
    let git = git.ok_or("not a git work tree; run it inside the repository, or give --repo")?;
    let dir = hooks_dir(&root, &git);
    let hook = dir.join(git_hook::HOOK);
    let chained = dir.join(git_hook::CHAINED);
    let existing = match std::fs::read_to_string(&hook) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("`{}` cannot be read ({e})", hook.display())),
    };
    let program = match &a.program {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map_err(|e| format!("this executable's path cannot be found ({e}); give --program"))?,
    };
    let steps = git_hook::plan(
        existing.as_deref(),
        chained.exists(),
        &program.to_string_lossy(),
    )
    .map_err(|e| e.sentence())?;
    let mut out = String::new();
    for step in &steps {
        out.push_str(&apply(step, &hook, &chained, a.write)?);
    }
    if !a.write && steps.iter().any(|s| *s != Step::Unchanged) {
        out.push_str("Nothing was changed; run again with --write to make the change.\n");
    }
    Ok(Outcome {
        output: out,
        status: ExitStatus::Success,
    })
}

fn apply(step: &Step, hook: &Path, chained: &Path, write: bool) -> Result<String, String> {
    let (h, c) = (hook.display(), chained.display());
    let verb = if write { "changed" } else { "would change" };
    match step {
        Step::Unchanged => Ok(format!("unchanged {h}: it already runs the guard\n")),
        Step::KeepExisting => {
            if write {
                std::fs::rename(hook, chained)
                    .map_err(|e| format!("`{h}` cannot be moved to `{c}` ({e})"))?;
            }
            Ok(format!(
                "{verb} {h}: the existing hook is kept as {c} and run first\n"
            ))
        }
        Step::Write(text) => {
            if write {
                write_executable(hook, text)?;
            }
            Ok(format!(
                "{verb} {h}: runs `guard pre-commit` before each commit\n"
            ))
        }
    }
}

fn write_executable(path: &Path, text: &str) -> Result<(), String> {
    let shown = path.display();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("`{}` cannot be created ({e})", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("`{shown}` cannot be written ({e})"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("`{shown}` cannot be made executable ({e})"))?;
    }
    Ok(())
}

/// git's hooks folder: `core.hooksPath` of the repository's own
/// configuration when set (relative to the work tree), else `hooks` in
/// the common git directory.
fn hooks_dir(root: &Path, git: &GitDirs) -> PathBuf {
    let config = std::fs::read_to_string(git.common.join("config")).unwrap_or_default();
    let mut in_core = false;
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            in_core = line.eq_ignore_ascii_case("[core]");
        } else if let (true, Some((k, v))) = (in_core, line.split_once('=')) {
            if k.trim().eq_ignore_ascii_case("hookspath") {
                return root.join(v.trim().trim_matches('"'));
            }
        }
    }
    git.common.join("hooks")
}

/// `guard pre-commit`: exit 0 when the staged changes may be committed,
/// 1 with one line per refused file, 2 when it cannot decide (git
/// refuses the commit on any status but 0).
///
/// # Errors
/// One line when the work tree or the staged changes cannot be read.
pub(crate) fn pre_commit(repo: Option<&Path>, here: Option<&Path>) -> Result<Outcome, String> {
    let (root, git) = crate::guard::repo_root(repo, here)?;
    let branch = git.as_ref().and_then(GitDirs::branch);
    let variable = crate::brief_disk::brief_variable();
    let state = git.as_ref().map(|g| g.common.join("playbookdiff"));
    let scope = crate::brief_disk::active_scope(&root, branch, variable.as_deref(), state);
    let Some(scope) = scope else {
        return Ok(Outcome {
            output: String::new(),
            status: ExitStatus::Success,
        });
    };
    let mut refused = Vec::new();
    let mut warned = Vec::new();
    for rel in staged(&root)? {
        match scope.write(&rel) {
            Some(d) if d.verdict >= Verdict::Ask => refused.push(d.reason),
            Some(d) => warned.push(d.reason),
            None => {}
        }
    }
    let mut output = String::new();
    for w in &warned {
        output.push_str(&format!("warning: {w}\n"));
    }
    for r in &refused {
        output.push_str(&format!("{r}\n"));
    }
    let status = if refused.is_empty() {
        ExitStatus::Success
    } else {
        output.push_str("The commit is refused; nothing was committed.\n");
        ExitStatus::Failing
    };
    Ok(Outcome { output, status })
}

/// The repository-relative paths the commit being made changes (added,
/// changed, deleted; both sides of a rename), from `git diff --cached`.
fn staged(root: &Path) -> Result<Vec<String>, String> {
    let out = std::process::Command::new("git")
        .args([
            "diff",
            "--cached",
            "--name-only",
            "-z",
            "--no-renames",
            "--no-ext-diff",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("git cannot be run ({e}); the staged changes cannot be read"))?;
    if !out.status.success() {
        return Err(format!(
            "the staged changes cannot be read ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out
        .stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect())
}

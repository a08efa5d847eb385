//! `playbookdiff guard`: the I/O around the guard's decision core
//! (`playbookdiff-guard`): reading the payload, the repository's state
//! (git directories, `[guard]`, the kill switch, the tamper mark), the
//! ledger, the fingerprint of protected files around shell calls, and the
//! hosts' files for `install` and `status`.

use crate::cli::{
    GuardAuditArgs, GuardCommand, GuardInstallArgs, GuardLogArgs, GuardRepoArgs, ScopeArg,
};
use crate::exit::ExitStatus;
use crate::guard_disk::{self as disk, Freshness, GitDirs, State};
use playbookdiff_guard::host::Answer;
use playbookdiff_guard::install::{self, Scope};
use playbookdiff_guard::status;
use playbookdiff_guard::{audit, ledger, Host};
use playbookdiff_render::paragraph;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs a `guard` subcommand; `guard hook` writes its own answer.
pub(crate) fn run(
    command: &GuardCommand,
    here: Option<&Path>,
) -> Result<crate::check::Outcome, String> {
    match command {
        GuardCommand::Hook(a) => Ok(outcome_of(disk::hook(a.host))),
        GuardCommand::Install(a) => install(a, here),
        GuardCommand::Status(a) => status(a, here),
        GuardCommand::Log(a) => log(a, here),
        GuardCommand::Audit(a) => audit_cmd(a, here),
        GuardCommand::PreCommit(a) => crate::git_hook::pre_commit(a.repo.as_deref(), here),
    }
}

/// `playbookdiff guard hook --host HOST`, exactly as `guard install`
/// registers it, answered without building the whole command line's
/// parser (a hook runs before every tool call, so its start-up counts);
/// `None` for any other command line, which clap reads as usual (with the
/// same answer for this one).
pub(crate) fn fast_hook(args: &[std::ffi::OsString]) -> Option<ExitStatus> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    let ["guard", "hook", "--host", id] = words.as_slice() else {
        return None;
    };
    let host = Host::from_id(id)?;
    Some(outcome_of(disk::hook(host)).status)
}

fn outcome_of(answer: Answer) -> crate::check::Outcome {
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(answer.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    if !answer.stderr.is_empty() {
        let _ = std::io::stderr().write_all(answer.stderr.as_bytes());
    }
    let status = match (written, answer.status) {
        (Ok(()), 0) => ExitStatus::Success,
        _ => ExitStatus::CouldNotRun,
    };
    crate::check::Outcome {
        output: String::new(),
        status,
    }
}

/// The repository a command is about.
pub(crate) fn repo_root(
    given: Option<&Path>,
    here: Option<&Path>,
) -> Result<(PathBuf, Option<GitDirs>), String> {
    let start = given
        .or(here)
        .ok_or("the current directory cannot be read; give --repo")?;
    let start = std::fs::canonicalize(start).map_err(|e| {
        format!(
            "`{}` cannot be read ({e}); give an existing directory with --repo",
            start.display()
        )
    })?;
    let git = GitDirs::find(&start);
    let root = git.as_ref().map_or(start, |g| g.root.clone());
    Ok((root, git))
}

/// The places registration files are found from, for the work tree at
/// `root`, from the environment.
fn places(root: &Path) -> install::Places {
    install::Places::new(root.to_path_buf(), |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// A file's text for the install plan: `Ok(None)` when it is missing.
fn read_existing(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("`{}` cannot be read ({e})", path.display())),
    }
}

fn install(a: &GuardInstallArgs, here: Option<&Path>) -> Result<crate::check::Outcome, String> {
    let Some(host) = a.host.filter(|_| !a.git_hook) else {
        return crate::git_hook::install(a, here);
    };
    let scope = match a.scope {
        ScopeArg::Project => Scope::Project,
        ScopeArg::User => Scope::User,
        ScopeArg::Managed => Scope::Managed,
    };
    let (root, _) = repo_root(a.repo.as_deref(), here)?;
    let program = match &a.program {
        Some(p) => p.clone(),
        None => default_program()?,
    };
    let program = program.to_string_lossy().into_owned();
    let changes = install::plan(host, scope, &places(&root), &program, read_existing)?;
    let mut out = String::new();
    for change in &changes {
        out.push_str(&apply(change, a.write)?);
    }
    let target = &changes[0].path;
    for note in install::notes(host, scope, target) {
        out.push_str(&paragraph(&format!("note: {note}"), "", "  "));
    }
    if changes.iter().any(|c| c.text.is_some()) && !a.write {
        out.push_str(&paragraph(
            "Nothing was changed; run again with --write to make the change.",
            "",
            "  ",
        ));
    }
    Ok(crate::check::Outcome {
        output: out,
        status: ExitStatus::Success,
    })
}

/// The program a registration runs by default: the hook executable
/// (`playbookdiff-guard`, which starts faster) beside this one when it is
/// there, else this executable.
fn default_program() -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("this executable's path cannot be found ({e}); give --program"))?;
    let hook = exe.with_file_name(install::HOOK_PROGRAM);
    Ok(if hook.is_file() { hook } else { exe })
}

/// Writes one planned change when `write`; the plan's paragraph for it,
/// wrapped to the output's width.
fn apply(change: &install::FileChange, write: bool) -> Result<String, String> {
    let shown = change.path.display();
    let Some(text) = &change.text else {
        return Ok(paragraph(
            &format!("unchanged {shown}: the guard is already registered there"),
            "",
            "  ",
        ));
    };
    if !write {
        return Ok(paragraph(
            &format!("would change {shown}: {}", change.why),
            "",
            "  ",
        ));
    }
    if let Some(dir) = change.path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("`{}` cannot be created ({e})", dir.display()))?;
    }
    std::fs::write(&change.path, text).map_err(|e| format!("`{shown}` cannot be written ({e})"))?;
    Ok(paragraph(
        &format!("changed {shown}: {}", change.why),
        "",
        "  ",
    ))
}

/// One agent's guard layers and switches, for `guard status`, each a
/// paragraph wrapped to the output's width.
fn status(a: &GuardRepoArgs, here: Option<&Path>) -> Result<crate::check::Outcome, String> {
    let (root, _) = repo_root(a.repo.as_deref(), here)?;
    let mut out = String::new();
    for s in host_statuses(&root) {
        let item = |text: String| paragraph(&text, "  ", "    ");
        out.push_str(&paragraph(
            &format!("{}: {}", s.host.id(), s.verdict()),
            "",
            "  ",
        ));
        for layer in &s.layers {
            out.push_str(&item(format!(
                "hook in the {} layer: {}",
                layer.scope.as_str(),
                layer.path.display()
            )));
        }
        if let Some(remedy) = s.install_remedy() {
            out.push_str(&item(format!("remedy: {remedy}")));
        }
        for sw in &s.switches {
            let word = if sw.active {
                "switched off"
            } else {
                "could switch it off"
            };
            out.push_str(&item(format!("{word}: {}", sw.line())));
        }
    }
    Ok(crate::check::Outcome {
        output: out,
        status: ExitStatus::Success,
    })
}

/// Every host's guard status for the work tree at `root`, from the files
/// on disk and the environment's homes.
pub(crate) fn host_statuses(root: &Path) -> Vec<status::HostStatus> {
    let places = places(root);
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let files = status::SwitchFiles::read(&places, read);
    Host::ALL
        .into_iter()
        .map(|host| status::status(host, &places, &files, read))
        .collect()
}

fn log(a: &GuardLogArgs, here: Option<&Path>) -> Result<crate::check::Outcome, String> {
    let (root, git) = repo_root(a.repo.as_deref(), here)?;
    let git = git.ok_or_else(|| {
        format!(
            "`{}` is not in a git work tree, so the guard keeps no ledger there (it \
             writes one under git's common directory); pass --repo DIR inside the \
             git work tree the guard runs in",
            root.display()
        )
    })?;
    let path = git.common.join("playbookdiff/guard.jsonl");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("`{}` cannot be read ({e})", path.display())),
    };
    let records: Vec<ledger::Record> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let skip = a.last.map_or(0, |n| records.len().saturating_sub(n));
    let mut out = String::new();
    if records.is_empty() {
        out.push_str(&paragraph(
            "The guard has recorded no decision in this repository.",
            "",
            "  ",
        ));
    }
    for r in records.iter().skip(skip) {
        let record = format!(
            "{} {} {} {} {}{}",
            r.time,
            r.host,
            if r.tool.is_empty() { "-" } else { &r.tool },
            r.decision,
            r.rule,
            if r.paths.is_empty() {
                String::new()
            } else {
                format!(" {}", r.paths.join(" "))
            }
        );
        out.push_str(&paragraph(&record, "", "    "));
    }
    Ok(crate::check::Outcome {
        output: out,
        status: ExitStatus::Success,
    })
}

fn audit_cmd(a: &GuardAuditArgs, here: Option<&Path>) -> Result<crate::check::Outcome, String> {
    let (root, _) = repo_root(a.repo.as_deref(), here)?;
    let policy = State::at_root(&root).policy(Freshness::Checked);
    if let Err(e) = &policy.config {
        return Err(format!(
            "`[guard]` cannot be used ({e}); fix playbookdiff.toml"
        ));
    }
    let current = audit::surface(&policy);
    let path = a
        .baseline
        .clone()
        .unwrap_or_else(|| root.join(".playbookdiff/guard-baseline.json"));
    let mut out = String::new();
    for r in &current.rules {
        out.push_str(&format!(
            "{:<18} {:<5} {} ({} matchers)\n",
            r.id,
            r.verdict,
            r.fingerprint,
            r.matchers.len()
        ));
    }
    if a.write_baseline {
        let text = serde_json::to_string_pretty(&current).map_err(|e| e.to_string())? + "\n";
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("`{}` cannot be created ({e})", dir.display()))?;
        }
        std::fs::write(&path, text)
            .map_err(|e| format!("`{}` cannot be written ({e})", path.display()))?;
        out.push_str(&paragraph(
            &format!("wrote the baseline {}", path.display()),
            "",
            "  ",
        ));
        return Ok(crate::check::Outcome {
            output: out,
            status: ExitStatus::Success,
        });
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!("the baseline `{}` cannot be read ({e}); write it with `playbookdiff guard audit --write-baseline` and commit it", path.display())
    })?;
    let baseline: audit::Baseline = serde_json::from_str(&text)
        .map_err(|e| format!("the baseline `{}` is not valid ({e})", path.display()))?;
    let weakened = audit::compare(&baseline, &current);
    for w in &weakened {
        out.push_str(&paragraph(&format!("weakened: {w}"), "", "  "));
    }
    if weakened.is_empty() {
        out.push_str(&paragraph(
            &format!("no deny rule is gone or weaker than in {}", path.display()),
            "",
            "  ",
        ));
    }
    Ok(crate::check::Outcome {
        output: out,
        status: ExitStatus::failing_if(!weakened.is_empty()),
    })
}

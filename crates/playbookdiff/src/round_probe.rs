//! `playbookdiff round probe`: runs the brief's probe in a temporary git
//! worktree at the base and at the head, and says whether the round fixed
//! the defect (`playbookdiff_round::probe` reads the probe and judges).
//!
//! This is the one command that runs the repository's code, and only the
//! commands the brief declares (`setup`, `run`). Each runs through `sh -c`
//! in the worktree, with standard input closed, in a process group of its
//! own that is killed when it ends, when it times out and when the command
//! is interrupted (SIGINT, SIGTERM, SIGHUP); the worktrees are removed
//! (`git worktree remove --force`, then `git worktree prune`) in every
//! one of those cases. Git runs with hooks and the file-system monitor
//! switched off, so nothing but the declared commands runs.

use crate::check::Outcome;
use crate::cli::{RoundFormat, RoundProbeArgs};
use crate::context::UsageError;
use crate::exit::ExitStatus;
use playbookdiff_round::probe::{
    self, classify, judge, judge_base, Ended, Probe, ProbeReading, ProbeReport, RunOutcome,
    RunReport, Side, SideReport,
};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::Command;
use tokio::signal::unix::{signal, Signal, SignalKind};

/// The most output of one run read for the signature, in bytes (64 MiB,
/// the last ones when there are more).
const MAX_OUTPUT_BYTES: u64 = 64 << 20;

/// The variable each setup and run finds set to `base` or `head`.
pub(crate) const SIDE_VARIABLE: &str = "PLAYBOOKDIFF_PROBE_SIDE";

/// Runs the probe of the brief the arguments name.
///
/// # Errors
/// A one-line [`UsageError`] (exit 2) when no brief is found, it declares
/// no probe or one that cannot be read, a revision does not name a
/// commit, a worktree cannot be made, or a signal interrupts the run.
pub(crate) fn run(args: &RoundProbeArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    let found = crate::round::find(&args.target, here)?;
    let mut declared = match probe::read(&found.brief) {
        ProbeReading::Declared(p) => p,
        ProbeReading::Absent => {
            return Err(UsageError(format!(
                "brief `{}` ({}) declares no probe; add `probe:` (run, fails) to its front matter or a `## Probe` section",
                found.brief.id, found.path
            )))
        }
        ProbeReading::Unreadable(problems) => {
            let first = problems.first().map_or(String::new(), |p| {
                format!("{}:{}: {}", found.path, p.line.unwrap_or(1), p.message)
            });
            return Err(UsageError(first));
        }
    };
    declared.runs = args.runs.unwrap_or(declared.runs);
    declared.timeout_secs = args.timeout.unwrap_or(declared.timeout_secs);
    let base = base_revision(&found.root, args.base.as_deref(), &found.brief)?;
    let head = revision(&found.root, &args.head)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| UsageError(format!("the probe cannot start ({e})")))?;
    let (base, head, judgement) = runtime.block_on(async {
        let mut runner = Runner::new(&found.root, &declared)?;
        runner.both(base, head).await
    })?;
    let report = ProbeReport {
        brief: found.brief.id.clone(),
        path: found.path.clone(),
        probe: declared,
        base,
        head,
        judgement,
    };
    let output = match args.format {
        RoundFormat::Text => playbookdiff_render::round_probe::probe_text(&report),
        RoundFormat::Json => playbookdiff_render::round_probe::probe_json(&report),
    };
    Ok(Outcome {
        output,
        status: ExitStatus::failing_if(report.judgement.verdict != probe::Verdict::Fixed),
    })
}

/// A revision as given and the commit it names.
struct Revision {
    given: String,
    commit: String,
}

/// `--base`, else the brief's `baseBranch` as a local branch, else as
/// `origin/BRANCH`.
fn base_revision(
    root: &Path,
    given: Option<&str>,
    brief: &playbookdiff_round::Brief,
) -> Result<Revision, UsageError> {
    if let Some(rev) = given {
        return revision(root, rev);
    }
    let Some(branch) = brief.base_branch.as_deref() else {
        return Err(UsageError(format!(
            "brief `{}` names no baseBranch; give the base with --base REV",
            brief.id
        )));
    };
    revision(root, &format!("refs/heads/{branch}"))
        .or_else(|_| revision(root, &format!("refs/remotes/origin/{branch}")))
        .map(|r| Revision {
            given: branch.to_string(),
            ..r
        })
        .map_err(|_| {
            UsageError(format!(
                "the base branch `{branch}` is neither a local branch nor origin/{branch}; fetch it, or give the base with --base REV"
            ))
        })
}

/// The commit `rev` names in the repository at `root`.
fn revision(root: &Path, rev: &str) -> Result<Revision, UsageError> {
    let not_a_commit = || {
        UsageError(format!(
            "`{rev}` names no commit of the repository; give a branch, tag or commit id"
        ))
    };
    if rev.is_empty() || rev.starts_with('-') {
        return Err(not_a_commit());
    }
    let out = git(root)
        .args(["rev-parse", "--verify", "--quiet", "--end-of-options"])
        .arg(format!("{rev}^{{commit}}"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| UsageError(format!("git cannot be run ({e}); install git")))?;
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || commit.is_empty() {
        return Err(not_a_commit());
    }
    Ok(Revision {
        given: rev.to_string(),
        commit,
    })
}

/// git in `root`, with hooks and the file-system monitor off (a
/// post-checkout hook would otherwise run the repository's code
/// undeclared) and the variables that would point it elsewhere removed.
fn git(root: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new("git");
    cmd.current_dir(root).args([
        "-c",
        "core.hooksPath=/dev/null",
        "-c",
        "core.fsmonitor=false",
    ]);
    for v in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"] {
        cmd.env_remove(v);
    }
    cmd
}

/// Why a probe stopped before its verdict.
enum Stop {
    /// A signal (its name) asked the command to stop.
    Interrupted(&'static str),
    /// Something the probe needs failed (a worktree, a temporary folder).
    Failed(String),
}

impl From<Stop> for UsageError {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Interrupted(name) => UsageError(format!(
                "interrupted by {name}: the probe's processes were killed and its worktrees removed"
            )),
            Stop::Failed(why) => UsageError(why),
        }
    }
}

/// The signals that stop a probe: Ctrl-C, a polite kill, a closed
/// terminal. Listening replaces their default action, so they reach
/// [`Interrupts::recv`] instead of ending the command mid-way.
struct Interrupts {
    int: Signal,
    term: Signal,
    hup: Signal,
}

impl Interrupts {
    fn new() -> std::io::Result<Self> {
        Ok(Interrupts {
            int: signal(SignalKind::interrupt())?,
            term: signal(SignalKind::terminate())?,
            hup: signal(SignalKind::hangup())?,
        })
    }

    /// The name of the next signal received.
    async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.int.recv() => "SIGINT",
            _ = self.term.recv() => "SIGTERM",
            _ = self.hup.recv() => "SIGHUP",
        }
    }
}

/// Runs the probe's sides, one worktree at a time.
struct Runner<'a> {
    root: &'a Path,
    probe: &'a Probe,
    interrupts: Interrupts,
}

type Sides = (SideReport, Option<SideReport>, probe::Judgement);

impl<'a> Runner<'a> {
    fn new(root: &'a Path, probe: &'a Probe) -> Result<Self, UsageError> {
        let interrupts = Interrupts::new()
            .map_err(|e| UsageError(format!("the probe cannot listen for signals ({e})")))?;
        Ok(Runner {
            root,
            probe,
            interrupts,
        })
    }

    /// The base, then the head unless the base decided the verdict.
    async fn both(&mut self, base: Revision, head: Revision) -> Result<Sides, UsageError> {
        let base = self.side(Side::Base, base).await?;
        let mut base_runs = Vec::new();
        let base_outcomes = base.outcomes(&mut base_runs);
        if let Some(j) = judge_base(&base_outcomes) {
            return Ok((base, None, j));
        }
        let head = self.side(Side::Head, head).await?;
        let mut head_runs = Vec::new();
        let j = judge(&base_outcomes, &head.outcomes(&mut head_runs));
        Ok((base, Some(head), j))
    }

    /// One side in a worktree of its own, removed whatever happens.
    async fn side(&mut self, side: Side, rev: Revision) -> Result<SideReport, Stop> {
        let tmp = tempfile::Builder::new()
            .prefix("playbookdiff-probe-")
            .tempdir()
            .map_err(|e| Stop::Failed(format!("no temporary folder for the probe ({e})")))?;
        let worktree = tmp.path().join(side.word());
        let result = match self.add_worktree(&worktree, &rev.commit).await {
            Ok(()) => self.runs(side, &worktree, tmp.path()).await,
            Err(stop) => Err(stop),
        };
        remove_worktree(self.root, &worktree, tmp).await;
        let (setup, runs) = result?;
        Ok(SideReport {
            side,
            revision: rev.given,
            commit: rev.commit,
            setup,
            runs,
        })
    }

    async fn add_worktree(&mut self, worktree: &Path, commit: &str) -> Result<(), Stop> {
        let mut cmd = Command::from(git(self.root));
        cmd.args(["worktree", "add", "--detach", "--quiet"])
            .arg(worktree)
            .arg(commit)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let (ended, _) = self.supervise(cmd, None).await?;
        match ended {
            Ended::Exited(0) => Ok(()),
            _ => Err(Stop::Failed(format!(
                "git cannot make a worktree at commit {commit}; run `git worktree prune` and try again"
            ))),
        }
    }

    /// The setup (when declared and it passes) and the runs.
    async fn runs(
        &mut self,
        side: Side,
        worktree: &Path,
        logs: &Path,
    ) -> Result<(Option<RunReport>, Vec<RunReport>), Stop> {
        let setup = match &self.probe.setup {
            None => None,
            Some(command) => {
                let log = logs.join(format!("{}-setup.log", side.word()));
                let done = self.shell(command, side, worktree, &log).await?;
                Some(done.report(probe::setup_outcome(done.ended)))
            }
        };
        let mut runs = Vec::new();
        if setup
            .as_ref()
            .is_none_or(|s| s.outcome == RunOutcome::Passed)
        {
            for n in 1..=self.probe.runs {
                let log = logs.join(format!("{}-{n}.log", side.word()));
                let done = self.shell(&self.probe.run, side, worktree, &log).await?;
                runs.push(done.report(classify(&self.probe.fails, done.ended, &done.output)));
            }
        }
        Ok((setup, runs))
    }

    /// One `sh -c COMMAND` in the worktree, its output in `log`.
    async fn shell(
        &mut self,
        command: &str,
        side: Side,
        worktree: &Path,
        log: &Path,
    ) -> Result<Done, Stop> {
        let file = std::fs::File::create(log)
            .and_then(|f| Ok((f.try_clone()?, f)))
            .map_err(|e| Stop::Failed(format!("the probe's output cannot be kept ({e})")))?;
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .current_dir(worktree)
            .env(SIDE_VARIABLE, side.word())
            .stdout(file.0)
            .stderr(file.1);
        for v in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"] {
            cmd.env_remove(v);
        }
        let timeout = Duration::from_secs(self.probe.timeout_secs);
        let (ended, took) = self.supervise(cmd, Some(timeout)).await?;
        Ok(Done {
            ended,
            took,
            output: read_output(log),
        })
    }

    /// Starts `cmd` with no input in a process group of its own and waits
    /// for it, the timeout or a signal; the group is killed in every case.
    async fn supervise(
        &mut self,
        mut cmd: Command,
        timeout: Option<Duration>,
    ) -> Result<(Ended, Duration), Stop> {
        cmd.stdin(Stdio::null()).process_group(0).kill_on_drop(true);
        let started = Instant::now();
        let mut child = cmd
            .spawn()
            .map_err(|e| Stop::Failed(format!("the probe cannot start a process ({e})")))?;
        let group = child.id();
        let limit = timeout.unwrap_or(Duration::MAX);
        let ended = tokio::select! {
            status = child.wait() => Ok(status.map_or(Ended::Signalled(0), ended_of)),
            _ = tokio::time::sleep(limit) => Ok(Ended::TimedOut),
            name = self.interrupts.recv() => Err(Stop::Interrupted(name)),
        };
        kill_group(group);
        let _ = child.wait().await;
        ended.map(|e| (e, started.elapsed()))
    }
}

/// A setup or run that ended: how, after how long, and its output.
struct Done {
    ended: Ended,
    took: Duration,
    output: String,
}

impl Done {
    /// The report of this setup or run, with its `outcome`.
    fn report(&self, outcome: RunOutcome) -> RunReport {
        RunReport {
            outcome,
            exit: match self.ended {
                Ended::Exited(n) => Some(n),
                _ => None,
            },
            millis: u64::try_from(self.took.as_millis()).unwrap_or(u64::MAX),
            output_tail: probe::tail(&self.output),
        }
    }
}

/// How an exit status reads as [`Ended`].
fn ended_of(status: std::process::ExitStatus) -> Ended {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ended::Exited(code),
        (None, Some(sig)) => Ended::Signalled(sig),
        (None, None) => Ended::Signalled(0),
    }
}

/// Kills every process of the group `leader` started (the leader's id is
/// the group's); a group with no process left is no error.
fn kill_group(leader: Option<u32>) {
    let pid = leader
        .and_then(|id| i32::try_from(id).ok())
        .and_then(rustix::process::Pid::from_raw);
    if let Some(pid) = pid {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// Removes the worktree and its temporary folder, then prunes git's
/// record of it; a failure leaves nothing to do but `git worktree prune`,
/// which runs anyway.
async fn remove_worktree(root: &Path, worktree: &Path, tmp: tempfile::TempDir) {
    let mut remove = Command::from(git(root));
    remove
        .args(["worktree", "remove", "--force", "--force"])
        .arg(worktree)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    let _ = remove.status().await;
    let _ = tmp.close();
    let mut prune = Command::from(git(root));
    prune
        .args(["worktree", "prune"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    let _ = prune.status().await;
}

/// The run's output, lossily decoded: the last [`MAX_OUTPUT_BYTES`].
fn read_output(log: &Path) -> String {
    let Ok(mut file) = std::fs::File::open(log) else {
        return String::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    if len > MAX_OUTPUT_BYTES {
        let _ = file.seek(SeekFrom::Start(len - MAX_OUTPUT_BYTES));
    }
    let mut bytes = Vec::new();
    let _ = file.take(MAX_OUTPUT_BYTES).read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

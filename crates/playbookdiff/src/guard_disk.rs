//! The guard on disk: the I/O around the guard's decision core
//! (`playbookdiff-guard`) for one hook call (reading the payload, the
//! repository's state: git directories, `[guard]`, the kill switch, the
//! tamper mark, the cached list of protected files; writing the ledger and
//! the fingerprint around shell calls). Compiled into both executables:
//! `playbookdiff guard hook` and the small `playbookdiff-guard` both run
//! [`hook`].

use playbookdiff_guard::host::{self, Answer};
use playbookdiff_guard::install;
use playbookdiff_guard::{ledger, Decision, Entry, Fs, GuardConfig, Host, Policy, Situation};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// One hook call: the payload from standard input, the decision under
/// `catch_unwind` (a panic is a refusal: [`host::cannot_decide`]), the
/// ledger written; the
/// answer for the caller to print.
pub(crate) fn hook(host: Host) -> Answer {
    std::panic::set_hook(Box::new(|_| {}));
    let mut bytes = Vec::new();
    let limit = playbookdiff_guard::PAYLOAD_LIMIT as u64 + 1;
    if let Err(e) = std::io::stdin().lock().take(limit).read_to_end(&mut bytes) {
        return host::cannot_decide(host, &format!("the hook payload cannot be read ({e})"));
    }
    // The decision runs on a thread with a large stack (64 MiB, reserved,
    // not committed): a stack overflow aborts the process, which a host
    // may read as "run it", where a panic is caught.
    let decided = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || std::panic::catch_unwind(|| answer(host, &bytes)))
        .map(|t| t.join());
    match decided {
        Ok(Ok(Ok(a))) => a,
        _ => host::cannot_decide(host, "the guard met an internal error"),
    }
}

/// The answer to payload `bytes` from `host`, with the ledger written.
fn answer(host: Host, bytes: &[u8]) -> Answer {
    let call = match host::parse(host, bytes) {
        Ok(c) => c,
        Err(bad) => {
            let rule = if bad.0.contains("does not know the tool") {
                &playbookdiff_guard::rules::UNKNOWN_TOOL
            } else {
                &playbookdiff_guard::rules::PAYLOAD
            };
            let d = Decision::of(rule, &bad.0, Vec::new());
            return host::answer(host, playbookdiff_guard::Event::PreToolUse, &d);
        }
    };
    let state = State::of(&call.cwd);
    let shell = matches!(call.action, playbookdiff_guard::Action::Shell(_));
    // A shell call stats every protected file anyway (the fingerprint),
    // so it also checks the cache; a file tool's call trusts it.
    let policy = state.policy(if shell {
        Freshness::Checked
    } else {
        Freshness::Trusted
    });
    let situation = Situation {
        policy: &policy,
        fs: &DiskFs,
        halt: state.halt(),
        tampered: state.tampered(),
    };
    let mut decision = playbookdiff_guard::decide(&situation, &call);
    match call.event {
        playbookdiff_guard::Event::PreToolUse
            if shell && decision.verdict <= playbookdiff_guard::Verdict::Warn =>
        {
            state.snapshot(call.session.as_deref());
        }
        playbookdiff_guard::Event::PostToolUse if shell && situation.tampered.is_none() => {
            if let Some(changed) = state.changed_since_snapshot(call.session.as_deref()) {
                state.mark_tampered(&changed);
                decision = Decision::of(
                    &playbookdiff_guard::rules::TAMPER,
                    &format!(
                        "protected files changed outside the guard: {}; a person must review",
                        changed.join(", ")
                    ),
                    changed,
                );
            }
        }
        _ => {}
    }
    state.record(host, &call, &decision);
    host::answer(host, call.event, &decision)
}

/// What the guard would answer to a write of the repository-relative
/// `rel` in the work tree at `root` under brief `id` (a file tool's
/// write, as Claude Code sends it), without running anything, writing the
/// ledger or reading the standard input: the same decision core
/// ([`playbookdiff_guard::decide`]) with the same policy as a hook call,
/// the brief named by `id` instead of `PLAYBOOKDIFF_BRIEF`.
pub(crate) fn would_answer(root: &Path, rel: &str, id: &str) -> Decision {
    let payload = serde_json::json!({
        "session_id": "round-check", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": root.join(rel), "content": ""},
    });
    let call = match host::parse(Host::ClaudeCode, payload.to_string().as_bytes()) {
        Ok(c) => c,
        Err(bad) => return Decision::of(&playbookdiff_guard::rules::PAYLOAD, &bad.0, Vec::new()),
    };
    let state = State::of(&call.cwd);
    let mut policy = state.policy(Freshness::Checked);
    policy.brief = crate::brief_disk::active_scope(
        &state.root,
        policy.branch.clone(),
        Some(id),
        state.state_dir(),
    )
    .map(std::sync::Arc::new);
    let situation = Situation {
        policy: &policy,
        fs: &DiskFs,
        halt: state.halt(),
        tampered: state.tampered(),
    };
    playbookdiff_guard::decide(&situation, &call)
}

/// Whether the cached list of protected files is checked against the
/// files' fingerprints before use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Freshness {
    /// Each listed file is stat'ed; a change rebuilds the list.
    Checked,
    /// The list is used as cached (rebuilt only when missing).
    Trusted,
}

/// The file system, read only.
struct DiskFs;

impl Fs for DiskFs {
    fn entry(&self, path: &Path) -> Entry {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(path) {
                Ok(t) => Entry::Link(t),
                Err(_) => Entry::Unreadable,
            },
            Ok(m) if m.is_dir() => Entry::Dir,
            Ok(_) => Entry::File,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Entry::Missing,
            Err(e) if e.raw_os_error() == Some(20) => Entry::Missing, // ENOTDIR
            Err(_) => Entry::Unreadable,
        }
    }

    fn names(&self, dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|rd| {
                rd.take(10_000)
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn remote_url(&self, root: &Path, name: &str) -> Option<String> {
        let git = GitDirs::find(root)?;
        let text = std::fs::read_to_string(git.common.join("config")).ok()?;
        let header = format!("[remote \"{name}\"]");
        let mut inside = false;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                inside = line == header;
            } else if inside {
                if let Some((k, v)) = line.split_once('=') {
                    if k.trim() == "url" {
                        return Some(v.trim().to_string());
                    }
                }
            }
        }
        None
    }
}

/// Git's directories of a work tree.
pub(crate) struct GitDirs {
    /// The work tree's root.
    pub(crate) root: PathBuf,
    /// Its git directory (`.git`, or what a `.git` file points at).
    pub(crate) dir: PathBuf,
    /// The common directory (shared by linked work trees).
    pub(crate) common: PathBuf,
}

impl GitDirs {
    /// The git work tree holding `start`, found by walking up to a
    /// directory with a `.git` entry.
    pub(crate) fn find(start: &Path) -> Option<GitDirs> {
        let mut here = Some(start);
        while let Some(dir) = here {
            let dot = dir.join(".git");
            if let Ok(m) = std::fs::metadata(&dot) {
                let git = if m.is_dir() {
                    dot
                } else {
                    let text = std::fs::read_to_string(&dot).ok()?;
                    let target = text.trim().strip_prefix("gitdir:")?.trim();
                    dir.join(target)
                };
                let common = std::fs::read_to_string(git.join("commondir"))
                    .ok()
                    .map(|c| git.join(c.trim()))
                    .unwrap_or_else(|| git.clone());
                let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
                return Some(GitDirs {
                    root: canon(dir),
                    dir: canon(&git),
                    common: canon(&common),
                });
            }
            here = dir.parent();
        }
        None
    }

    pub(crate) fn branch(&self) -> Option<String> {
        let head = std::fs::read_to_string(self.dir.join("HEAD")).ok()?;
        head.trim()
            .strip_prefix("ref: refs/heads/")
            .map(str::to_string)
    }
}

/// The repository state one hook call reads and writes.
pub(crate) struct State {
    root: PathBuf,
    git: Option<GitDirs>,
    home: Option<PathBuf>,
}

impl State {
    /// The state of the work tree at `root` without a home directory (no
    /// kill switch of the user), for `guard audit`.
    pub(crate) fn at_root(root: &Path) -> State {
        State {
            root: root.to_path_buf(),
            git: GitDirs::find(root),
            home: None,
        }
    }

    /// The state of the work tree holding `cwd`, with `$HOME`.
    pub(crate) fn of(cwd: &Path) -> State {
        let git = GitDirs::find(cwd);
        let root = git
            .as_ref()
            .map(|g| g.root.clone())
            .unwrap_or_else(|| std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf()));
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .map(|h| std::fs::canonicalize(&h).unwrap_or(h));
        State { root, git, home }
    }

    /// `<git-common-dir>/playbookdiff`: the ledger, the tamper mark, the
    /// snapshots and one place of the kill switch.
    fn state_dir(&self) -> Option<PathBuf> {
        self.git.as_ref().map(|g| g.common.join("playbookdiff"))
    }

    /// The policy of the work tree; `check` says whether the cached list
    /// of protected files is checked against the files first.
    pub(crate) fn policy(&self, check: Freshness) -> Policy {
        let config = match std::fs::read_to_string(self.root.join("playbookdiff.toml")) {
            Ok(text) => GuardConfig::from_toml(&text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(GuardConfig::default()),
            Err(e) => Err(format!("playbookdiff.toml cannot be read ({e})")),
        };
        let surfaces = playbookdiff_registry::adapters()
            .iter()
            .flat_map(|a| a.surfaces().iter().copied())
            .collect();
        let mut policy = Policy::new(self.root.clone(), surfaces, config);
        policy.home = self.home.clone();
        let listed = self.protected_files(&policy, check);
        policy = policy.with_sources(listed);
        if let Some(g) = &self.git {
            policy.git_dirs = vec![g.dir.clone(), g.common.clone()];
            policy.branch = g.branch();
        }
        let variable = crate::brief_disk::brief_variable();
        policy.brief = crate::brief_disk::active_scope(
            &self.root,
            policy.branch.clone(),
            variable.as_deref(),
            self.state_dir(),
        )
        .map(std::sync::Arc::new);
        policy
    }

    /// The kill switch's places: `<git-common-dir>/playbookdiff/HALT` and
    /// `~/.playbookdiff/HALT`.
    fn halt_files(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .state_dir()
            .map(|d| d.join("HALT"))
            .into_iter()
            .collect();
        out.extend(
            self.home
                .as_ref()
                .map(|h| h.join(".playbookdiff").join("HALT")),
        );
        out
    }

    fn halt(&self) -> Option<String> {
        self.halt_files()
            .into_iter()
            .find(|p| std::fs::symlink_metadata(p).is_ok())
            .map(|p| p.to_string_lossy().into_owned())
    }

    fn tampered(&self) -> Option<Vec<String>> {
        let text = std::fs::read_to_string(self.state_dir()?.join("tampered")).ok()?;
        Some(
            text.lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
        )
    }

    fn mark_tampered(&self, files: &[String]) {
        if let Some(dir) = self.state_dir() {
            let _ = std::fs::create_dir_all(&dir);
            let _ = std::fs::write(dir.join("tampered"), files.join("\n") + "\n");
        }
    }

    fn record(&self, host: Host, call: &playbookdiff_guard::Call, decision: &Decision) {
        let Some(dir) = self.state_dir() else { return };
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let record = ledger::Record::new(ledger::rfc3339(now), host, Some(call), decision);
        let _ = std::fs::create_dir_all(&dir);
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("guard.jsonl"))
        {
            let _ = f.write_all((record.line() + "\n").as_bytes());
        }
    }

    /// The protected files of the work tree (repository-relative): the
    /// files the adapters' compilations read (imports and configured
    /// globs included) and every file a protecting rule matches, from the
    /// cache `protected-files` (one `fingerprint<TAB>path` line each),
    /// rebuilt (one compilation per adapter and one walk) when missing or,
    /// when `check` asks, when a listed file changed since.
    fn protected_files(&self, policy: &Policy, check: Freshness) -> Vec<String> {
        let Some(dir) = self.state_dir() else {
            return Vec::new();
        };
        let cache = dir.join("protected-files");
        if let Ok(text) = std::fs::read_to_string(&cache) {
            let listed = text.lines().filter_map(|l| l.split_once('\t'));
            let fresh = || {
                listed
                    .clone()
                    .all(|(print, rel)| fingerprint_is(&self.root.join(rel), print))
            };
            if check == Freshness::Trusted || fresh() {
                return listed.map(|(_, rel)| rel.to_string()).collect();
            }
        }
        let mut files = walk_protected(&self.root, policy);
        files.extend(self.hook_scripts());
        if let Ok(tree) = playbookdiff_source::WorkingTree::open(&self.root) {
            files.extend(playbookdiff_guard::sources::compiled(
                playbookdiff_registry::adapters(),
                &tree,
            ));
        }
        files.sort();
        files.dedup();
        let text: Vec<String> = files
            .iter()
            .map(|rel| format!("{}\t{rel}", fingerprint(&self.root.join(rel))))
            .collect();
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(&cache, text.join("\n"));
        files
    }

    /// The scripts the project's hook registrations run.
    fn hook_scripts(&self) -> Vec<String> {
        let prefix = format!("{}/", self.root.display());
        install::PROJECT_HOOK_FILES
            .iter()
            .filter_map(|f| std::fs::read_to_string(self.root.join(f)).ok())
            .flat_map(|text| {
                playbookdiff_guard::sources::hook_scripts(&text, &prefix, |rel| {
                    self.root.join(rel).is_file()
                })
            })
            .collect()
    }

    fn snapshot_file(&self, session: Option<&str>) -> Option<PathBuf> {
        let name: String = session
            .unwrap_or("none")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(80)
            .collect();
        Some(self.state_dir()?.join(format!("snapshot-{name}")))
    }

    /// Records the protected files' fingerprints before a shell call: the
    /// cached list, which the call's policy has just checked against the
    /// files (or rebuilt), so nothing is read twice.
    fn snapshot(&self, session: Option<&str>) {
        let (Some(file), Some(dir)) = (self.snapshot_file(session), self.state_dir()) else {
            return;
        };
        let _ = std::fs::copy(dir.join("protected-files"), file);
    }

    /// The protected files whose fingerprint changed since the snapshot
    /// of this session (`None`: none changed, or no snapshot).
    fn changed_since_snapshot(&self, session: Option<&str>) -> Option<Vec<String>> {
        let file = self.snapshot_file(session)?;
        let text = std::fs::read_to_string(&file).ok()?;
        let _ = std::fs::remove_file(&file);
        let changed: Vec<String> = text
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .filter(|(print, rel)| !fingerprint_is(&self.root.join(rel), print))
            .map(|(_, rel)| rel.to_string())
            .collect();
        (!changed.is_empty()).then_some(changed)
    }
}

/// A file's fingerprint: size, modification time (ns) and inode
/// (`SIZE:SECONDS.NANOSECONDS:INODE`); `-` when missing.
fn fingerprint(path: &Path) -> String {
    match Print::of(path) {
        Some(p) => format!("{}:{}.{}:{}", p.len, p.mtime, p.nsec, p.ino),
        None => "-".into(),
    }
}

/// Whether `path`'s fingerprint is `print` (as [`fingerprint`] writes
/// it), without writing the current one: a shell call compares every
/// protected file.
fn fingerprint_is(path: &Path, print: &str) -> bool {
    match (Print::of(path), Print::parse(print)) {
        (None, None) => print == "-",
        (now, before) => now.is_some() && now == before,
    }
}

/// The parts of a fingerprint.
#[derive(PartialEq, Eq)]
struct Print {
    len: u64,
    mtime: i64,
    nsec: i64,
    ino: u64,
}

impl Print {
    /// `print` as [`fingerprint`] writes it, when it is one.
    fn parse(print: &str) -> Option<Print> {
        let (len, rest) = print.split_once(':')?;
        let (time, ino) = rest.split_once(':')?;
        let (mtime, nsec) = time.split_once('.')?;
        Some(Print {
            len: len.parse().ok()?,
            mtime: mtime.parse().ok()?,
            nsec: nsec.parse().ok()?,
            ino: ino.parse().ok()?,
        })
    }

    /// The fingerprint of `path` now, links not followed.
    fn of(path: &Path) -> Option<Print> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::symlink_metadata(path).ok()?;
        Some(Print {
            len: m.len(),
            mtime: m.mtime(),
            nsec: m.mtime_nsec(),
            ino: m.ino(),
        })
    }
}

/// Every protected file of the work tree (repository-relative), skipping
/// `.git`, `node_modules` and `target`.
fn walk_protected(root: &Path, policy: &Policy) -> Vec<String> {
    let walker = walkdir::WalkDir::new(root).follow_links(false).into_iter();
    let walker = walker.filter_entry(|e| {
        !(e.file_type().is_dir()
            && matches!(
                e.file_name().to_str(),
                Some(".git" | "node_modules" | "target")
            ))
    });
    let mut out = Vec::new();
    for e in walker.filter_map(|e| e.ok()) {
        if e.file_type().is_dir() {
            continue;
        }
        let Ok(rel) = e.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel.to_string_lossy();
        if policy.write_rule(&rel).is_some() {
            out.push(rel.into_owned());
        }
    }
    out.sort();
    out
}

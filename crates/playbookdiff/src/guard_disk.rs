//! The guard on disk: the I/O around the guard's decision core
//! (`playbookdiff-guard`) for one hook call (reading the payload, the
//! repository's state: git directories, `[guard]`, the kill switch, the
//! tamper mark, the cached list of protected files; writing the ledger and
//! the fingerprint around shell calls). Compiled into both executables:
//! `playbookdiff guard hook` and the small `playbookdiff-guard` both run
//! [`hook`].

use playbookdiff_guard::fingerprint::{Meta, Print, Stamp};
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
    let mut stdin = std::io::stdin().lock();
    let read = (&mut stdin).take(limit).read_to_end(&mut bytes);
    // The rest of a payload too large to decide is read and dropped: a
    // host writes the whole payload, and Codex 0.142.3 runs the call when
    // that write fails because the hook stopped reading (its refusal is
    // then ignored; docs/guard.md, "Tested with the real agents").
    let _ = std::io::copy(&mut stdin.take(DRAIN_LIMIT), &mut std::io::sink());
    if let Err(e) = read {
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

/// The first line of the cached list of protected files: a list without
/// it (written by an earlier release of the guard, or emptied) is rebuilt.
const CACHE_HEADER: &str = "# playbookdiff guard: protected files, fingerprint<TAB>path\n";

/// The name of a shell call's snapshot, before the session's: not the
/// `snapshot-` of earlier releases, which copied the list onto that name
/// (and so, onto a hard link, into the list itself).
const SNAPSHOT_PREFIX: &str = "before-shell-";

/// The most bytes of standard input read and dropped after a payload
/// larger than [`playbookdiff_guard::PAYLOAD_LIMIT`]: 1 GiB.
const DRAIN_LIMIT: u64 = 1 << 30;

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
        trees: &DiskTrees {
            home: state.home.clone(),
        },
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
        trees: &DiskTrees {
            home: state.home.clone(),
        },
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

/// The other work trees on disk: the policy of one is built as a hook
/// call in it would build it (its `[guard]`, its brief, its cached list
/// of protected files), with the call's home directory.
struct DiskTrees {
    home: Option<PathBuf>,
}

impl playbookdiff_guard::WorkTrees for DiskTrees {
    fn policy(&self, root: &Path) -> Option<std::sync::Arc<Policy>> {
        let root = std::fs::canonicalize(root).ok()?;
        let state = State {
            git: GitDirs::find(&root),
            root,
            home: self.home.clone(),
        };
        Some(std::sync::Arc::new(state.policy(Freshness::Trusted)))
    }
}

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
    /// cache `protected-files` ([`CACHE_HEADER`], then one
    /// `fingerprint<TAB>path` line each, [`Print`]'s text),
    /// rebuilt (one compilation per adapter and one walk) when missing or,
    /// when `check` asks, when a listed file changed since.
    fn protected_files(&self, policy: &Policy, check: Freshness) -> Vec<String> {
        let Some(dir) = self.state_dir() else {
            return Vec::new();
        };
        let cache = dir.join("protected-files");
        let read = std::fs::read_to_string(&cache).ok();
        if let Some(text) = read.as_deref().and_then(|t| t.strip_prefix(CACHE_HEADER)) {
            let listed = listed(text);
            let fresh = || Prints::open(&self.root).differing(&listed).is_empty();
            if check == Freshness::Trusted || fresh() {
                return listed.iter().map(|(_, rel)| rel.to_string()).collect();
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
        let (prints, now) = (Prints::open(&self.root), now());
        let text: Vec<String> = files
            .iter()
            .map(|rel| format!("{}\t{rel}", prints.take(rel, now)))
            .collect();
        let _ = std::fs::create_dir_all(&dir);
        replace(&cache, &format!("{CACHE_HEADER}{}", text.join("\n")));
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
        Some(self.state_dir()?.join(format!("{SNAPSHOT_PREFIX}{name}")))
    }

    /// Records the protected files' fingerprints before a shell call: the
    /// cached list, which the call's policy has just checked against the
    /// files (or rebuilt), so nothing is read twice. The cache is only
    /// ever replaced, never written in place, so a hard link to it is a
    /// snapshot that nothing rewrites (a copy where links fail).
    fn snapshot(&self, session: Option<&str>) {
        let (Some(file), Some(dir)) = (self.snapshot_file(session), self.state_dir()) else {
            return;
        };
        let cache = dir.join("protected-files");
        let _ = std::fs::remove_file(&file);
        if std::fs::hard_link(&cache, &file).is_err() {
            let _ = std::fs::copy(&cache, &file);
        }
    }

    /// The protected files whose fingerprint changed since the snapshot
    /// of this session (`None`: none changed, or no snapshot).
    fn changed_since_snapshot(&self, session: Option<&str>) -> Option<Vec<String>> {
        let file = self.snapshot_file(session)?;
        let text = std::fs::read_to_string(&file).ok()?;
        let _ = std::fs::remove_file(&file);
        let changed: Vec<String> = Prints::open(&self.root)
            .differing(&listed(&text))
            .into_iter()
            .map(str::to_string)
            .collect();
        (!changed.is_empty()).then_some(changed)
    }
}

/// The fingerprints ([`Print`]) of files of the work tree, read through
/// one handle on its root: each file is `lstat`ed relative to it
/// (`fstatat`), so the kernel resolves only the path inside the tree and
/// no absolute path is built per file.
struct Prints {
    root: PathBuf,
    dir: Option<std::os::fd::OwnedFd>,
}

/// The most protected files one thread compares; a longer list is split
/// across threads (at most [`MAX_THREADS`]), each making its own
/// `fstatat` calls: on the 100,000-file benchmark tree (923 protected
/// files) two threads halve the wall time of the comparison on an idle
/// two-core machine (docs/performance.md, "The guard's hook").
const FILES_PER_THREAD: usize = 256;

/// The most threads that compare fingerprints: two, as many as a small
/// machine has cores; more only add their start-up to every shell call.
const MAX_THREADS: usize = 2;

/// The most bytes of a racily changed file read for its hash: 16 MiB; a
/// longer one is not examined (its fingerprint never matches).
const HASHED_LIMIT: u64 = 16 * 1024 * 1024;

impl Prints {
    fn open(root: &Path) -> Prints {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        Prints {
            root: root.to_path_buf(),
            dir: rustix::fs::open(root, flags, Mode::empty()).ok(),
        }
    }

    /// The metadata of `rel`, links not followed: `Ok(None)` when there
    /// is no such file, `Err(())` when it cannot be examined.
    // `stat`'s field types differ between targets (`i64` here, `c_long`
    // or `u32` elsewhere), so the conversions are kept everywhere.
    #[allow(clippy::useless_conversion)]
    fn meta(&self, rel: &str) -> Result<Option<Meta>, ()> {
        use rustix::fs::AtFlags;
        use rustix::io::Errno;
        let dir = self.dir.as_ref().ok_or(())?;
        let s = match rustix::fs::statat(dir, rel, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(s) => s,
            Err(Errno::NOENT | Errno::NOTDIR) => return Ok(None),
            Err(_) => return Err(()),
        };
        let stamp = |secs: i64, nanos: u32| Stamp { secs, nanos };
        Ok(Some(Meta {
            len: s.st_size.try_into().map_err(|_| ())?,
            mtime: stamp(
                s.st_mtime.try_into().map_err(|_| ())?,
                s.st_mtime_nsec.try_into().map_err(|_| ())?,
            ),
            ctime: stamp(
                s.st_ctime.try_into().map_err(|_| ())?,
                s.st_ctime_nsec.try_into().map_err(|_| ())?,
            ),
            ino: s.st_ino.try_into().map_err(|_| ())?,
        }))
    }

    /// The content of `rel` as a fingerprint hashes it: a link's target,
    /// nothing for a directory, a file's bytes (at most [`HASHED_LIMIT`]).
    fn content(&self, rel: &str) -> Option<Vec<u8>> {
        use std::os::unix::ffi::OsStrExt;
        let path = self.root.join(rel);
        let m = std::fs::symlink_metadata(&path).ok()?;
        if m.file_type().is_symlink() {
            return Some(
                std::fs::read_link(&path)
                    .ok()?
                    .as_os_str()
                    .as_bytes()
                    .to_vec(),
            );
        }
        if m.is_dir() {
            return Some(Vec::new());
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .ok()?
            .take(HASHED_LIMIT + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        (bytes.len() as u64 <= HASHED_LIMIT).then_some(bytes)
    }

    /// The fingerprint of `rel` now.
    fn take(&self, rel: &str, now: Stamp) -> Print {
        Print::taken(self.meta(rel), now, || self.content(rel))
    }

    /// Whether `rel` still has the fingerprint written as `print`,
    /// compared as bytes ([`Print::matches_text`]: no number parsed).
    fn matches(&self, rel: &str, print: &str) -> bool {
        Print::matches_text(print.as_bytes(), self.meta(rel), || self.content(rel))
    }

    /// The paths of `listed` (`(fingerprint, path)` pairs) whose file no
    /// longer has its fingerprint, in list order; a long list is split
    /// across threads, and a thread that fails counts all of its part.
    fn differing<'l>(&self, listed: &[(&'l str, &'l str)]) -> Vec<&'l str> {
        let threads = listed
            .len()
            .div_ceil(FILES_PER_THREAD)
            .clamp(1, MAX_THREADS);
        let part = listed.len().div_ceil(threads).max(1);
        let one = |part: &[(&'l str, &'l str)]| -> Vec<&'l str> {
            part.iter()
                .filter(|(print, rel)| !self.matches(rel, print))
                .map(|(_, rel)| *rel)
                .collect()
        };
        let mut parts = listed.chunks(part);
        let Some(first) = parts.next() else {
            return Vec::new();
        };
        std::thread::scope(|s| {
            let others: Vec<_> = parts.map(|p| (p, s.spawn(move || one(p)))).collect();
            let mut out = one(first);
            for (p, t) in others {
                match t.join() {
                    Ok(found) => out.extend(found),
                    Err(_) => out.extend(p.iter().map(|(_, rel)| *rel)),
                }
            }
            out
        })
    }
}

/// The time now as the file system stamps it.
fn now() -> Stamp {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Stamp {
        secs: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        nanos: d.subsec_nanos(),
    }
}

/// The cached list's lines as `(fingerprint, path)` pairs (a line
/// without a tab is left out), split with `memchr`'s vector search: a
/// shell call splits one line per protected file.
fn listed(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1);
    let mut rest = text;
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        let line = &rest[..end];
        rest = rest.get(end + 1..).unwrap_or("");
        if let Some(tab) = memchr::memchr(b'\t', line.as_bytes()) {
            out.push((&line[..tab], &line[tab + 1..]));
        }
    }
    out
}

/// Writes `text` to `path` by renaming a new file over it, so that a
/// reader (and a snapshot linked to the old file) never sees it half
/// written or changed.
fn replace(path: &Path, text: &str) {
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
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

//! Read-only access to the user's and the machine's configuration, which
//! local mode reads besides the repository.
//!
//! The agents read user files from the home directory (`~/.claude`,
//! `~/.codex`, `~/.config/opencode`), from the directory a harness's own
//! variable names instead (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
//! `XDG_CONFIG_HOME`), and managed files from fixed machine directories
//! (`/etc/claude-code`, `/etc/codex`). A [`Machine`] holds where each of
//! these places is on this machine, as the command line and the
//! environment gave them; an adapter names a file of it with a
//! [`RepoPath::on_machine`] path (`~/.claude/CLAUDE.md`,
//! `$CODEX_HOME/config.toml`, `/etc/codex/config.toml`), so provenance and
//! messages never carry the analyser's absolute paths and stay the same on
//! every machine with the same files.
//!
//! The machine's root (`/`) may stand elsewhere ([`Machine::with_root`]):
//! tests lay out `/etc/...` in a fixture.
//!
//! Symbolic links are followed (a user's `~/.claude/CLAUDE.md` is often a
//! link into a dotfiles repository, and the agents follow it); a file is
//! read only when it is a regular file within the caller's size limit.
//! Nothing here writes; the values of the environment are taken as given
//! by the caller, never read here.

use crate::text::TextFile;
use crate::tree::{io_err, is_loop, kind_of, DirEntry, EntryKind, IoKind, SourceError, Stat};
use playbookdiff_model::RepoPath;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What is wrong with a symbolic link the machine met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkFault {
    /// Following it loops (`ELOOP`).
    Loop,
    /// It points at nothing that exists (`ENOENT` on following it).
    Dangling,
}

/// The symbolic links that loop or dangle which [`Machine::list_dir`]
/// listed, or [`Machine::stat`] and [`Machine::read_text`] were asked
/// for, shared by the clones of one [`Machine::watched`] copy. A record
/// of what was read, not part of where things lie: equality ignores it.
#[derive(Clone, Debug, Default)]
struct LoopsMet(Arc<Mutex<Vec<(RepoPath, LinkFault)>>>);

impl PartialEq for LoopsMet {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LoopsMet {}

/// Where the user's and the machine's configuration lies on this machine:
/// the home directory (when known), the directories the harnesses'
/// own variables name (when set), and the directory standing for the
/// machine's root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    home: Option<PathBuf>,
    /// `(NAME, directory)` for each harness variable set, sorted by name
    /// (`NAME[N]` for the `N`th directory a list variable names).
    vars: Vec<(String, PathBuf)>,
    /// `(NAME, text)` for each harness variable whose text is
    /// configuration, sorted by name.
    texts: Vec<(String, String)>,
    root: PathBuf,
    /// The configuration profile the user starts the agents with.
    profile: Option<String>,
    loops: LoopsMet,
}

impl Machine {
    /// The machine with home directory `home` (`None`: unknown, so no
    /// `~/` path can be read), no harness variable set, and its own root
    /// `/`.
    pub fn new(home: Option<PathBuf>) -> Self {
        Machine {
            home,
            vars: Vec::new(),
            texts: Vec::new(),
            root: PathBuf::from("/"),
            profile: None,
            loops: LoopsMet::default(),
        }
    }

    /// This machine with the harness variable `name` (e.g. `CODEX_HOME`)
    /// naming the directory `dir`: its files are then read there and named
    /// `$NAME/...`. A `name` that is not letters, digits and `_` is
    /// ignored.
    pub fn with_var(mut self, name: &str, dir: PathBuf) -> Self {
        if RepoPath::on_machine(&format!("${name}"), ".").is_none() {
            return self;
        }
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.to_string(), dir));
        self.vars.sort();
        self
    }

    /// This machine with the harness variable `name` holding `text`, which
    /// the agent reads as configuration (OpenCode's
    /// `OPENCODE_CONFIG_CONTENT`): [`Machine::read_text`] of the path
    /// `$NAME` gives it, so its lines are lines of that text. A `name` that
    /// is not letters, digits and `_` is ignored.
    pub fn with_text(mut self, name: &str, text: &str) -> Self {
        if RepoPath::on_machine(&format!("${name}"), ".").is_none() || name.contains('[') {
            return self;
        }
        self.texts.retain(|(n, _)| n != name);
        self.texts.push((name.to_string(), text.to_string()));
        self.texts.sort();
        self
    }

    /// This machine with the harness variable `name` listing the
    /// directories `dirs` (Copilot CLI's
    /// `COPILOT_CUSTOM_INSTRUCTIONS_DIRS`, split as the agent splits it):
    /// the `N`th, from 1, is named `$NAME[N]` ([`Machine::listed`]).
    pub fn with_list(mut self, name: &str, dirs: Vec<PathBuf>) -> Self {
        let prefix = format!("{name}[");
        self.vars.retain(|(n, _)| !n.starts_with(&prefix));
        for (i, dir) in dirs.into_iter().enumerate() {
            self = self.with_var(&format!("{name}[{}]", i + 1), dir);
        }
        self
    }

    /// The directories the list variable `name` names, in its order, as
    /// `$NAME[1]`, `$NAME[2]`, ...; empty when it is not set.
    pub fn listed(&self, name: &str) -> Vec<RepoPath> {
        (1..)
            .map(|n| format!("{name}[{n}]"))
            .take_while(|label| self.var(label).is_some())
            .filter_map(|label| RepoPath::on_machine(&format!("${label}"), "."))
            .collect()
    }

    /// The text the harness variable `name` holds, when it was given
    /// with [`Machine::with_text`].
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }

    /// The text variable a machine path `p` names (`$NAME`, nothing
    /// after it), when [`Machine::with_text`] gave one.
    fn text_of(&self, p: &RepoPath) -> Option<&str> {
        match p.machine_parts()? {
            (label, "") => self.text(label.strip_prefix('$')?),
            _ => None,
        }
    }

    /// This machine with the directory `root` standing for `/` when a
    /// fixed machine path (`/etc/codex/config.toml`) is read.
    pub fn with_root(mut self, root: PathBuf) -> Self {
        self.root = root;
        self
    }

    /// This machine with the configuration profile `name` selected, as
    /// the agent started with `--profile NAME` selects it (Codex reads
    /// `$CODEX_HOME/NAME.config.toml`). A name that is empty or holds a
    /// character other than letters, digits, `-`, `_` and `.` (or starts
    /// with `.`) is ignored: it could name a file elsewhere.
    pub fn with_profile(mut self, name: &str) -> Self {
        if is_profile_name(name) {
            self.profile = Some(name.to_string());
        }
        self
    }

    /// The configuration profile selected, when one is.
    pub fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    /// True when the home directory is known.
    pub fn has_home(&self) -> bool {
        self.home.is_some()
    }

    /// The home directory, when known.
    pub fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }

    /// The directory standing for `/` when a fixed machine path is read
    /// (`/` itself unless [`Machine::with_root`] set another).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The place a harness keeps its user files: `$NAME` when the variable
    /// `var` is set, else `default` in the home (`default` relative to
    /// it, e.g. `.claude`). As a [`RepoPath::on_machine`] path.
    pub fn user_dir(&self, var: Option<&str>, default: &str) -> Option<RepoPath> {
        if let Some(v) = var.filter(|v| self.var(v).is_some()) {
            return RepoPath::on_machine(&format!("${v}"), ".");
        }
        RepoPath::on_machine("~", default)
    }

    /// The directory the harness variable `name` names, when set.
    pub fn var(&self, name: &str) -> Option<&Path> {
        self.vars
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d.as_path())
    }

    /// The machine path naming the absolute path `abs` that a user file
    /// holds (Claude Code's `installPath`): `$NAME/...` when it lies in
    /// the directory of the harness variable `var` (when set), else
    /// `~/...` when it lies in the home; `None` elsewhere, or for a path
    /// that is not absolute or leaves its place through `..`. Both the
    /// places as given and their real paths (links followed) are tried.
    pub fn name_of(&self, var: Option<&str>, abs: &Path) -> Option<RepoPath> {
        if !abs.is_absolute() {
            return None;
        }
        let mut places: Vec<(String, &Path)> = Vec::new();
        if let Some((v, dir)) = var.and_then(|v| Some((v, self.var(v)?))) {
            places.push((format!("${v}"), dir));
        }
        if let Some(home) = self.home() {
            places.push(("~".to_string(), home));
        }
        for (label, dir) in places {
            let real = std::fs::canonicalize(dir).ok();
            for base in std::iter::once(dir).chain(real.as_deref()) {
                let Ok(rest) = abs.strip_prefix(base) else {
                    continue;
                };
                let rest = rest.to_str()?;
                return RepoPath::on_machine(&label, if rest.is_empty() { "." } else { rest });
            }
        }
        None
    }

    /// The absolute path the agent itself names the machine path `p` by
    /// (what a user file keyed by path holds, such as Codex's
    /// `[hooks.state."<path>:..."]`): the home or the variable's directory
    /// as given joined with the rest, and a fixed machine path as written
    /// (`/etc/codex/config.toml`, whatever [`Machine::with_root`] set).
    /// `None` for a path that is not on the machine or whose place is
    /// unknown. Nothing is read.
    pub fn agent_path(&self, p: &RepoPath) -> Option<PathBuf> {
        match p.machine_parts()? {
            ("/", rest) => Some(Path::new("/").join(rest)),
            _ => self.abs(p),
        }
    }

    /// `abs`, an absolute path of this machine as a user file names it (a
    /// folder the user trusts), with its symbolic links, `.` and `..`
    /// resolved as `realpath` resolves them; for a path that does not
    /// exist, its longest existing ancestor resolved and the rest joined,
    /// `..` then taken by name (what Copilot CLI's `isFolderTrusted` does
    /// with each entry, 1.0.24 `app.js`). Only metadata is read. A
    /// relative path is returned as given.
    pub fn real_path(&self, abs: &Path) -> PathBuf {
        if !abs.is_absolute() {
            return abs.to_path_buf();
        }
        let mut rest = Vec::new();
        let mut at = abs.to_path_buf();
        loop {
            if let Ok(real) = std::fs::canonicalize(&at) {
                return lexical(&real.join(rest.iter().rev().collect::<PathBuf>()));
            }
            match (at.file_name().map(|n| n.to_os_string()), at.parent()) {
                (Some(name), Some(parent)) => {
                    rest.push(name);
                    at = parent.to_path_buf();
                }
                _ => return lexical(abs),
            }
        }
    }

    /// The absolute path of the machine path `p`; `None` for a path that
    /// is not on the machine or whose place is unknown (no home, a
    /// variable not set).
    fn abs(&self, p: &RepoPath) -> Option<PathBuf> {
        let (label, rest) = p.machine_parts()?;
        let base = match label {
            "~" => self.home.clone()?,
            "/" => self.root.clone(),
            v => self.var(v.strip_prefix('$')?)?.to_path_buf(),
        };
        Some(if rest.is_empty() {
            base
        } else {
            base.join(rest)
        })
    }

    fn place(&self, p: &RepoPath) -> Result<PathBuf, SourceError> {
        self.abs(p).ok_or_else(|| SourceError::NotFound(p.clone()))
    }

    /// The kind and size of `p`, a symbolic link followed (the kind of
    /// what it leads to; `Symlink` for a link to nothing or a loop, each
    /// recorded for [`Machine::loops_met`] or [`Machine::dangling_met`]).
    /// Errors: `NotFound`; `Io` when it cannot be examined.
    pub fn stat(&self, p: &RepoPath) -> Result<Stat, SourceError> {
        if let Some(text) = self.text_of(p) {
            return Ok(Stat {
                kind: EntryKind::File,
                len: text.len() as u64,
            });
        }
        let abs = self.place(p)?;
        match std::fs::metadata(&abs) {
            Ok(md) => Ok(Stat {
                kind: kind_of(md.file_type()),
                len: md.len(),
            }),
            Err(e) => match std::fs::symlink_metadata(&abs) {
                Ok(md) => {
                    self.met_link(p.clone(), &e, md.file_type());
                    Ok(Stat {
                        kind: kind_of(md.file_type()),
                        len: md.len(),
                    })
                }
                Err(_) => Err(io_err(p, e)),
            },
        }
    }

    /// This machine with an empty record of the link loops its listings
    /// meet ([`Machine::loops_met`]): one per compilation, so that each
    /// harness reports the loops of the folders it reads.
    pub fn watched(&self) -> Machine {
        Machine {
            loops: LoopsMet::default(),
            ..self.clone()
        }
    }

    /// The entries that [`Machine::list_dir`] listed, on this machine
    /// since [`Machine::watched`], and that are symbolic links that loop
    /// (`ELOOP`): sorted, each once.
    pub fn loops_met(&self) -> Vec<RepoPath> {
        self.links_met(LinkFault::Loop)
    }

    /// The symbolic links to nothing that exists (`ENOENT` on following
    /// them) that [`Machine::list_dir`] listed, or [`Machine::stat`] and
    /// [`Machine::read_text`] were asked for, on this machine since
    /// [`Machine::watched`]: sorted, each once. The agents find no file
    /// there, as the analysis does; the record lets the caller say why.
    pub fn dangling_met(&self) -> Vec<RepoPath> {
        self.links_met(LinkFault::Dangling)
    }

    /// The links met with `fault`, sorted, each once.
    fn links_met(&self, fault: LinkFault) -> Vec<RepoPath> {
        let mut out: Vec<RepoPath> = self
            .loops
            .0
            .lock()
            .map(|v| {
                v.iter()
                    .filter(|(_, f)| *f == fault)
                    .map(|(p, _)| p.clone())
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out.dedup();
        out
    }

    /// The entries of directory `p`, sorted by name, each link's kind
    /// that of what it leads to (`Symlink` for a link to nothing or a
    /// loop, recorded for [`Machine::dangling_met`] or
    /// [`Machine::loops_met`]); entries whose
    /// names are not valid UTF-8 are left out. Errors: `NotFound`; `Io`
    /// when `p` is not a directory or cannot be listed.
    pub fn list_dir(&self, p: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        let abs = self.place(p)?;
        let md = std::fs::metadata(&abs).map_err(|e| io_err(p, e))?;
        if !md.is_dir() {
            return Err(SourceError::Io {
                path: p.clone(),
                message: "not a directory".into(),
                kind: IoKind::WrongKind,
            });
        }
        let mut out = Vec::new();
        for ent in std::fs::read_dir(&abs).map_err(|e| io_err(p, e))? {
            let ent = ent.map_err(|e| io_err(p, e))?;
            let Ok(name) = ent.file_name().into_string() else {
                continue;
            };
            let kind = match std::fs::metadata(ent.path()) {
                Ok(md) => kind_of(md.file_type()),
                Err(e) => {
                    if let (Some(at), Ok(t)) = (p.child(&name), ent.file_type()) {
                        self.met_link(at, &e, t);
                    }
                    EntryKind::Symlink
                }
            };
            out.push(DirEntry {
                name,
                kind,
                non_utf8_name: false,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Records `at`, of file type `t` (links not followed), whose
    /// following failed with `e`: a loop (`ELOOP`), or a link to nothing
    /// (`ENOENT` on a symbolic link). Any other failure is not recorded.
    fn met_link(&self, at: RepoPath, e: &std::io::Error, t: std::fs::FileType) {
        let fault = if is_loop(e) {
            LinkFault::Loop
        } else if t.is_symlink() && e.kind() == std::io::ErrorKind::NotFound {
            LinkFault::Dangling
        } else {
            return;
        };
        if let Ok(mut v) = self.loops.0.lock() {
            v.push((at, fault));
        }
    }

    /// True when `p` is a symbolic link that loops (`ELOOP` on following
    /// it). Only metadata is read.
    pub fn is_loop(&self, p: &RepoPath) -> bool {
        self.abs(p)
            .is_some_and(|abs| std::fs::metadata(abs).is_err_and(|e| is_loop(&e)))
    }

    /// The text of the file `p`, a symbolic link followed, at most `limit`
    /// bytes (for `$NAME` of a text variable, its text). Errors:
    /// `NotFound` (also for a link to nothing, recorded for
    /// [`Machine::dangling_met`]); `TooLarge` over the limit (not read);
    /// `Io` of kind `WrongKind` when it is not a regular file (never
    /// opened), `Denied` or `Other` when it cannot be read.
    pub fn read_text(&self, p: &RepoPath, limit: u64) -> Result<Arc<TextFile>, SourceError> {
        if let Some(text) = self.text_of(p) {
            if text.len() as u64 > limit {
                return Err(SourceError::TooLarge {
                    path: p.clone(),
                    len: text.len() as u64,
                    limit,
                });
            }
            return Ok(Arc::new(TextFile::from_bytes(text.as_bytes())));
        }
        let abs = self.place(p)?;
        let md = std::fs::metadata(&abs).map_err(|e| {
            if let Ok(link) = std::fs::symlink_metadata(&abs) {
                self.met_link(p.clone(), &e, link.file_type());
            }
            io_err(p, e)
        })?;
        if !md.is_file() {
            return Err(SourceError::Io {
                path: p.clone(),
                message: "not a regular file".into(),
                kind: IoKind::WrongKind,
            });
        }
        let too_large = |len: u64| SourceError::TooLarge {
            path: p.clone(),
            len,
            limit,
        };
        if md.len() > limit {
            return Err(too_large(md.len()));
        }
        let f = std::fs::File::open(&abs).map_err(|e| io_err(p, e))?;
        let mut buf = Vec::with_capacity(md.len() as usize);
        f.take(limit + 1)
            .read_to_end(&mut buf)
            .map_err(|e| io_err(p, e))?;
        if buf.len() as u64 > limit {
            return Err(too_large(buf.len() as u64));
        }
        Ok(Arc::new(TextFile::from_bytes(&buf)))
    }
}

/// True for a profile name that names a file in its directory and no
/// other: letters, digits, `-`, `_` and `.`, not starting with `.`.
pub fn is_profile_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// `p` with its `.` and `..` resolved by name (a `..` at the root stays
/// at the root, as `path.resolve` does).
fn lexical(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() || out.as_os_str().is_empty() {
                    out.push(Component::RootDir);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place() -> (tempfile::TempDir, Machine) {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        std::fs::create_dir_all(home.join(".claude/skills/deploy")).unwrap();
        std::fs::write(home.join(".claude/CLAUDE.md"), "Be brief.\n").unwrap();
        std::fs::create_dir_all(t.path().join("codex")).unwrap();
        std::fs::write(t.path().join("codex/AGENTS.md"), "Codex notes.\n").unwrap();
        std::fs::create_dir_all(t.path().join("root/etc/codex")).unwrap();
        std::fs::write(t.path().join("root/etc/codex/config.toml"), "x = 1\n").unwrap();
        let m = Machine::new(Some(home))
            .with_var("CODEX_HOME", t.path().join("codex"))
            .with_root(t.path().join("root"));
        (t, m)
    }

    fn p(label: &str, rel: &str) -> RepoPath {
        RepoPath::on_machine(label, rel).unwrap()
    }

    #[test]
    fn reads_each_place_by_its_label() {
        let (_t, m) = place();
        let user = m.read_text(&p("~", ".claude/CLAUDE.md"), 100).unwrap();
        assert_eq!(user.text, "Be brief.\n");
        let codex = m.user_dir(Some("CODEX_HOME"), ".codex").unwrap();
        assert_eq!(codex.as_str(), "$CODEX_HOME");
        let agents = m.read_text(&codex.join("AGENTS.md").unwrap(), 100).unwrap();
        assert_eq!(agents.text, "Codex notes.\n");
        assert_eq!(
            m.user_dir(Some("CLAUDE_CONFIG_DIR"), ".claude")
                .unwrap()
                .as_str(),
            "~/.claude",
            "an unset variable falls back to the home"
        );
        let managed = m.read_text(&p("/etc/codex", "config.toml"), 100).unwrap();
        assert_eq!(managed.text, "x = 1\n");
        let names: Vec<String> = m
            .list_dir(&p("~", ".claude"))
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["CLAUDE.md", "skills"]);
    }

    #[test]
    fn a_profile_name_names_one_file_of_its_directory() {
        let m = Machine::new(None);
        assert_eq!(
            m.clone().with_profile("work-2.fast").profile(),
            Some("work-2.fast")
        );
        for bad in ["", "../x", "a/b", ".hidden", "a b"] {
            assert_eq!(m.clone().with_profile(bad).profile(), None, "{bad:?}");
        }
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        let (_t, m) = place();
        let big = m.read_text(&p("~", ".claude/CLAUDE.md"), 3);
        assert!(matches!(big, Err(SourceError::TooLarge { len: 10, .. })));
        let dir = m.read_text(&p("~", ".claude"), 100);
        assert!(matches!(
            dir,
            Err(SourceError::Io {
                kind: IoKind::WrongKind,
                ..
            })
        ));
        let missing = p("~", ".claude/none.md");
        assert_eq!(
            m.read_text(&missing, 100).err(),
            Some(SourceError::NotFound(missing))
        );
        let unknown = Machine::new(None);
        assert!(!unknown.has_home());
        assert!(matches!(
            unknown.stat(&p("~", ".claude")),
            Err(SourceError::NotFound(_))
        ));
        assert!(matches!(
            m.stat(&RepoPath::new("CLAUDE.md").unwrap()),
            Err(SourceError::NotFound(_))
        ));
    }

    #[test]
    fn text_and_list_variables_read_as_their_places() {
        let (t, m) = place();
        let m = m
            .with_text("CONTENT", "{\n  \"a\": 1\n}")
            .with_list("DIRS", vec![t.path().join("codex"), t.path().join("home")]);
        let content = RepoPath::on_machine("$CONTENT", ".").unwrap();
        let text = m.read_text(&content, 1_000).unwrap();
        assert_eq!(text.line_count(), 3);
        assert_eq!(m.stat(&content).unwrap().kind, EntryKind::File);
        assert!(matches!(
            m.read_text(&content, 4),
            Err(SourceError::TooLarge { .. })
        ));
        let listed = m.listed("DIRS");
        let names: Vec<&str> = listed.iter().map(|p| p.as_str()).collect();
        assert_eq!(names, ["$DIRS[1]", "$DIRS[2]"]);
        let agents = listed[0].join("AGENTS.md").unwrap();
        assert_eq!(m.read_text(&agents, 100).unwrap().text, "Codex notes.\n");
        assert!(m.listed("NONE").is_empty());
        let fewer = m.with_list("DIRS", vec![t.path().join("home")]);
        assert_eq!(fewer.listed("DIRS").len(), 1);
    }

    /// A listing records the entries that loop, each watched copy its
    /// own; a dangling link is no loop, and a read of a loop is `Loop`.
    #[cfg(unix)]
    #[test]
    fn a_listing_records_the_link_loops_it_meets() {
        let (t, m) = place();
        let skills = t.path().join("home/.claude/skills");
        std::os::unix::fs::symlink("loop", skills.join("loop")).unwrap();
        std::os::unix::fs::symlink("nowhere", skills.join("gone")).unwrap();
        let dir = p("~", ".claude/skills");
        let watched = m.watched();
        assert!(m.loops_met().is_empty());
        watched.list_dir(&dir).unwrap();
        watched.list_dir(&dir).unwrap();
        assert_eq!(watched.loops_met(), [p("~", ".claude/skills/loop")]);
        assert!(m.watched().loops_met().is_empty());
        assert!(m.is_loop(&p("~", ".claude/skills/loop")));
        assert!(!m.is_loop(&p("~", ".claude/skills/gone")));
        let read = m.read_text(&p("~", ".claude/skills/loop"), 100);
        assert!(matches!(
            read,
            Err(SourceError::Io {
                kind: IoKind::Loop,
                ..
            })
        ));
    }

    /// A listing, a stat and a read record the links to nothing they
    /// meet, apart from the loops; a missing file that is no link is not
    /// recorded, and a link to nothing still reads as `NotFound`.
    #[cfg(unix)]
    #[test]
    fn a_listing_and_a_read_record_the_links_to_nothing_they_meet() {
        let (t, m) = place();
        let claude = t.path().join("home/.claude");
        std::os::unix::fs::symlink("nowhere", claude.join("skills/gone")).unwrap();
        std::os::unix::fs::symlink("loop", claude.join("skills/loop")).unwrap();
        std::os::unix::fs::symlink("none.md", claude.join("rules.md")).unwrap();
        let watched = m.watched();
        watched.list_dir(&p("~", ".claude/skills")).unwrap();
        assert_eq!(watched.dangling_met(), [p("~", ".claude/skills/gone")]);
        assert_eq!(watched.loops_met(), [p("~", ".claude/skills/loop")]);
        let link = p("~", ".claude/rules.md");
        assert_eq!(
            watched.read_text(&link, 100).err(),
            Some(SourceError::NotFound(link.clone()))
        );
        assert_eq!(watched.stat(&link).unwrap().kind, EntryKind::Symlink);
        assert!(watched.read_text(&p("~", ".claude/none.md"), 100).is_err());
        assert_eq!(
            watched.dangling_met(),
            [link, p("~", ".claude/skills/gone")]
        );
        assert!(m.watched().dangling_met().is_empty());
    }
}

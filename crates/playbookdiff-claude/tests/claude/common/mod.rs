//! Shared helpers for the fixture tests: compile a fixture repository under
//! a context, pick items out of the result, build symlink fixtures in a
//! temporary directory, and snapshot a tree to prove it is left untouched.

#![allow(dead_code)]

use playbookdiff_model::{
    AnalysisContext, Applicability, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Instruction,
    LoadPhase, McpServer, Mode, RepoPath, Skill,
};
use playbookdiff_source::{Repo, WorkingTree};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The directory of fixture `name`.
pub fn fixture(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    assert!(p.is_dir(), "no fixture {name}");
    p
}

/// Every fixture directory, sorted.
pub fn all_fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

/// A compilation context.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub cwd: &'static str,
    pub target: Option<&'static str>,
    pub mode: Mode,
    /// The Claude Code version to model; `None` for the newest profile.
    pub version: Option<&'static str>,
}

/// cwd at the repository root, no target, repo mode.
pub fn at_root() -> Ctx {
    Ctx {
        cwd: ".",
        target: None,
        mode: Mode::Repo,
        version: None,
    }
}

impl Ctx {
    pub fn cwd(mut self, cwd: &'static str) -> Self {
        self.cwd = cwd;
        self
    }
    pub fn target(mut self, t: &'static str) -> Self {
        self.target = Some(t);
        self
    }
    pub fn version(mut self, v: &'static str) -> Self {
        self.version = Some(v);
        self
    }
    pub fn local(mut self) -> Self {
        self.mode = Mode::Local;
        self
    }
}

/// Compiles the repository at `dir` under `ctx`.
pub fn compile_dir(dir: &Path, ctx: &Ctx) -> EffectiveAgentConfig {
    let tree = WorkingTree::open(dir).expect("open fixture");
    let repo = Repo::new(&tree);
    let context = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: RepoPath::new(ctx.cwd).expect("cwd"),
        target_path: ctx.target.map(|t| RepoPath::new(t).expect("target")),
        mode: ctx.mode,
    };
    playbookdiff_adapter::Adapter::compile(
        &playbookdiff_claude::ADAPTER,
        &repo,
        &context,
        ctx.version,
    )
}

/// Compiles the repository `tree` under `ctx`.
pub fn compile_tree(tree: &dyn playbookdiff_source::SourceTree, ctx: &Ctx) -> EffectiveAgentConfig {
    let repo = Repo::new(tree);
    let context = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: RepoPath::new(ctx.cwd).expect("cwd"),
        target_path: ctx.target.map(|t| RepoPath::new(t).expect("target")),
        mode: ctx.mode,
    };
    playbookdiff_adapter::Adapter::compile(
        &playbookdiff_claude::ADAPTER,
        &repo,
        &context,
        ctx.version,
    )
}

/// A working tree in which listing the directories in `locked` fails, as
/// for a directory without read permission (which a test running as root
/// cannot produce with `chmod`).
pub struct LockedDirs {
    pub inner: WorkingTree,
    pub locked: Vec<&'static str>,
}

impl playbookdiff_source::SourceTree for LockedDirs {
    fn list_dir(
        &self,
        dir: &RepoPath,
    ) -> Result<Vec<playbookdiff_source::DirEntry>, playbookdiff_source::SourceError> {
        if self.locked.contains(&dir.as_str()) {
            return Err(playbookdiff_source::SourceError::Io {
                path: dir.clone(),
                message: "permission denied".into(),
            });
        }
        self.inner.list_dir(dir)
    }
    fn stat(
        &self,
        path: &RepoPath,
    ) -> Result<playbookdiff_source::Stat, playbookdiff_source::SourceError> {
        self.inner.stat(path)
    }
    fn read_file(
        &self,
        path: &RepoPath,
        limit: u64,
    ) -> Result<Vec<u8>, playbookdiff_source::SourceError> {
        self.inner.read_file(path, limit)
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, playbookdiff_source::SourceError> {
        self.inner.read_link(path)
    }
    fn absolute_root(&self) -> Option<&Path> {
        self.inner.absolute_root()
    }
}

/// A repository held in memory (files only; directories are implied), for
/// tests that need thousands of files without writing them to disk.
#[derive(Default)]
pub struct MemTree {
    files: BTreeMap<String, Vec<u8>>,
}

impl MemTree {
    /// Adds the file `rel` with `text`.
    pub fn file(&mut self, rel: &str, text: &str) {
        self.files.insert(rel.to_string(), text.as_bytes().to_vec());
    }

    fn is_dir(&self, p: &str) -> bool {
        p == "."
            || self
                .files
                .range(format!("{p}/")..)
                .next()
                .is_some_and(|(k, _)| k.starts_with(&format!("{p}/")))
    }
}

impl playbookdiff_source::SourceTree for MemTree {
    fn list_dir(
        &self,
        dir: &RepoPath,
    ) -> Result<Vec<playbookdiff_source::DirEntry>, playbookdiff_source::SourceError> {
        use playbookdiff_source::{DirEntry, EntryKind};
        if !self.is_dir(dir.as_str()) {
            return Err(playbookdiff_source::SourceError::NotFound(dir.clone()));
        }
        let prefix = if dir.is_root() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut out: Vec<DirEntry> = Vec::new();
        for (k, _) in self.files.range(prefix.clone()..) {
            let Some(rest) = k.strip_prefix(&prefix) else {
                break;
            };
            let (name, kind) = match rest.split_once('/') {
                Some((d, _)) => (d, EntryKind::Dir),
                None => (rest, EntryKind::File),
            };
            if out.last().is_some_and(|e| e.name == name) {
                continue;
            }
            out.push(DirEntry {
                name: name.to_string(),
                kind,
                non_utf8_name: false,
            });
        }
        Ok(out)
    }
    fn stat(
        &self,
        path: &RepoPath,
    ) -> Result<playbookdiff_source::Stat, playbookdiff_source::SourceError> {
        use playbookdiff_source::{EntryKind, Stat};
        match self.files.get(path.as_str()) {
            Some(b) => Ok(Stat {
                kind: EntryKind::File,
                len: b.len() as u64,
            }),
            None if self.is_dir(path.as_str()) => Ok(Stat {
                kind: EntryKind::Dir,
                len: 0,
            }),
            None => Err(playbookdiff_source::SourceError::NotFound(path.clone())),
        }
    }
    fn read_file(
        &self,
        path: &RepoPath,
        _limit: u64,
    ) -> Result<Vec<u8>, playbookdiff_source::SourceError> {
        self.files
            .get(path.as_str())
            .cloned()
            .ok_or_else(|| playbookdiff_source::SourceError::NotFound(path.clone()))
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, playbookdiff_source::SourceError> {
        Err(playbookdiff_source::SourceError::NotFound(path.clone()))
    }
}

/// The diagnostics whose source is `path` at line `line`.
pub fn diags_on_line<'c>(
    cfg: &'c EffectiveAgentConfig,
    path: &str,
    line: u32,
) -> Vec<&'c Diagnostic> {
    cfg.diagnostics
        .iter()
        .filter(|d| {
            d.source.as_ref().is_some_and(|s| {
                s.path.as_str() == path && s.lines.is_some_and(|l| l.start == line)
            })
        })
        .collect()
}

/// Compiles fixture `name` under `ctx`.
pub fn compile(name: &str, ctx: Ctx) -> EffectiveAgentConfig {
    compile_dir(&fixture(name), &ctx)
}

/// The received context: effective entries sorted by `order`, as
/// `(path, content)`.
pub fn received(cfg: &EffectiveAgentConfig) -> Vec<(String, String)> {
    cfg.received_instructions()
        .iter()
        .map(|i| (i.source.path.to_string(), i.content.clone()))
        .collect()
}

/// The source paths of the received context, in order (one per piece).
pub fn received_paths(cfg: &EffectiveAgentConfig) -> Vec<String> {
    received(cfg).into_iter().map(|(p, _)| p).collect()
}

/// Every instruction piece from `path`.
pub fn pieces<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> Vec<&'c Instruction> {
    cfg.instructions
        .iter()
        .filter(|i| i.source.path.as_str() == path)
        .collect()
}

/// The only instruction piece from `path`.
pub fn one<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> &'c Instruction {
    let v = pieces(cfg, path);
    assert_eq!(v.len(), 1, "expected one piece from {path}, got {v:#?}");
    v[0]
}

/// The skill whose `SKILL.md` is at `path`.
pub fn skill<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> &'c Skill {
    cfg.skills
        .iter()
        .find(|s| s.source.path.as_str() == path)
        .unwrap_or_else(|| panic!("no skill {path}: {:#?}", cfg.skills))
}

/// The MCP server named `name`.
pub fn server<'c>(cfg: &'c EffectiveAgentConfig, name: &str) -> &'c McpServer {
    cfg.mcp_servers
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no server {name}"))
}

/// Every diagnostic with `code`.
pub fn diags(cfg: &EffectiveAgentConfig, code: DiagnosticCode) -> Vec<&Diagnostic> {
    cfg.diagnostics.iter().filter(|d| d.code == code).collect()
}

/// The diagnostics with `code` whose source is `path`.
pub fn diags_at<'c>(
    cfg: &'c EffectiveAgentConfig,
    code: DiagnosticCode,
    path: &str,
) -> Vec<&'c Diagnostic> {
    cfg.diagnostics
        .iter()
        .filter(|d| d.code == code && d.source.as_ref().is_some_and(|s| s.path.as_str() == path))
        .collect()
}

/// The source lines of a diagnostic as `(start, end)`.
pub fn lines_of(d: &Diagnostic) -> (u32, u32) {
    let l = d
        .source
        .as_ref()
        .and_then(|s| s.lines)
        .expect("diagnostic has lines");
    (l.start, l.end)
}

/// Asserts an instruction's placement.
pub fn assert_placed(
    i: &Instruction,
    phase: LoadPhase,
    applicability: Applicability,
    order: Option<u32>,
) {
    assert_eq!(
        (i.load_phase, i.applicability, i.order),
        (phase, applicability, order),
        "{}",
        i.id
    );
}

/// Every id referenced by `importedFrom` names an instruction of the result.
pub fn assert_imported_from_resolves(cfg: &EffectiveAgentConfig) {
    for i in &cfg.instructions {
        if let Some(parent) = &i.imported_from {
            assert!(
                cfg.instructions.iter().any(|p| &p.id == parent),
                "{} names a missing parent {parent}",
                i.id
            );
        }
    }
}

/// Ids are unique.
pub fn assert_unique_ids(cfg: &EffectiveAgentConfig) {
    let mut seen = std::collections::BTreeSet::new();
    for id in cfg
        .instructions
        .iter()
        .map(|i| &i.id)
        .chain(cfg.skills.iter().map(|s| &s.id))
        .chain(cfg.mcp_servers.iter().map(|s| &s.id))
    {
        assert!(seen.insert(id.clone()), "duplicate id {id}");
    }
}

// ----- Symlink fixtures, built in a temporary directory -----

/// Writes `text` to `root/rel`, creating directories.
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Creates the symbolic link `root/rel` pointing at `target`.
pub fn link(root: &Path, target: &str, rel: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, p).unwrap();
}

/// `.claude/rules` with a symlinked rule file, a symlinked rule directory,
/// a dangling rule link and a link that leaves the repository.
pub fn rule_symlinks() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "shared/rules/security.md", "# Security\n");
    write(r, "shared/rules/extra/logging.md", "# Logging\n");
    write(r, ".claude/rules/local.md", "# Local\n");
    link(
        r,
        "../../shared/rules/security.md",
        ".claude/rules/security.md",
    );
    link(r, "../../shared/rules/extra", ".claude/rules/extra");
    link(r, "nowhere.md", ".claude/rules/dangling.md");
    link(r, "/etc/hostname", ".claude/rules/outside.md");
    t
}

/// A root `CLAUDE.md` that is a symbolic link to `AGENTS.md`; in the
/// monorepo below it only `apps/a` has the `CLAUDE.md` link, `apps/b` has
/// `AGENTS.md` alone (field report 17).
pub fn claude_md_symlink_bridge() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "AGENTS.md", "# Shared agents\n");
    link(r, "AGENTS.md", "CLAUDE.md");
    write(r, "apps/a/AGENTS.md", "# A agents\n");
    link(r, "AGENTS.md", "apps/a/CLAUDE.md");
    write(r, "apps/a/src/main.ts", "export {};\n");
    write(r, "apps/b/AGENTS.md", "# B agents\n");
    write(r, "apps/b/src/main.ts", "export {};\n");
    t
}

/// Every symlink fixture, for the read-only test.
pub fn symlink_fixtures() -> Vec<tempfile::TempDir> {
    vec![rule_symlinks(), claude_md_symlink_bridge()]
}

// ----- Tree snapshots -----

/// What the read-only test compares: for every entry (links not followed),
/// its kind, its bytes or link target, and its modification time.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    File {
        bytes: Vec<u8>,
        mtime: std::time::SystemTime,
    },
    Dir {
        mtime: std::time::SystemTime,
    },
    Link {
        target: PathBuf,
        mtime: std::time::SystemTime,
    },
}

/// Snapshots the tree at `root`.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        let md = std::fs::symlink_metadata(&p).unwrap();
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        let mtime = md.modified().unwrap();
        let e = if md.file_type().is_symlink() {
            Entry::Link {
                target: std::fs::read_link(&p).unwrap(),
                mtime,
            }
        } else if md.is_dir() {
            for c in std::fs::read_dir(&p).unwrap() {
                stack.push(c.unwrap().path());
            }
            Entry::Dir { mtime }
        } else {
            Entry::File {
                bytes: std::fs::read(&p).unwrap(),
                mtime,
            }
        };
        out.insert(rel, e);
    }
    out
}

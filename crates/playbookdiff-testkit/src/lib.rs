//! The helpers every crate's integration tests share, so that a test reads
//! as the facts it asserts: where a fixture repository is, under which
//! analysis context (repositoryRoot, cwd, targetPath, mode, release) an
//! adapter compiles it, and which instruction, skill, MCP server or
//! diagnostic of the resulting [`EffectiveAgentConfig`] a test looks at.
//!
//! Dev-only (`publish = false`): a crate lists it under
//! `[dev-dependencies]`. It depends on the model, the source and the adapter
//! interface only; a test passes the adapter it compiles with (its crate's
//! `ADAPTER`, or one from `playbookdiff_registry`), so no adapter depends on
//! another through it. Every helper panics with a message naming what it
//! looked for: a failed lookup is a failed test.
//!
//! - [`fixture!`] / [`fixtures_dir!`]: the calling crate's `tests/fixtures/`;
//!   [`all_fixtures`], [`copy_to_temp`].
//! - [`Ctx`] → [`AnalysisContext`]; [`compile_dir`], [`compile_tree`];
//!   [`Kit`]: one adapter crate's adapter and fixtures bound once.
//! - [`find`]: entries by path or name, diagnostics by code ([`Code`]).
//! - [`fs`]: writing files, links and FIFOs into a temporary repository,
//!   and [`fs::snapshot`] to prove a tree is left untouched.
//! - [`trees`]: in-memory and failing [`SourceTree`]s.
//! - [`corpus`]: the shared corpus of public repositories, `tar`
//!   extraction, scripted `git`, lines `cargo test` shows.
//! - [`oracle`]: the recorded observations of the real agents.
//! - [`work`]: work, not time: allocations counted by the test binary's
//!   allocator, measured alone in a child process, and the ratio of the
//!   work of a run of size `2n` to one of size `n`.
//! - [`summary()`]: a compact text summary of a result, for snapshots;
//!   [`assert_fixture_summaries`] snapshots it for every fixture of a crate.
//! - [`host_variable`]: a variable set in the test's own environment;
//!   [`proptest_cases`]: the property tests' configuration.

pub mod corpus;
pub mod find;
pub mod fs;
pub mod layout;
pub mod oracle;
pub mod summary;
pub mod trees;
pub mod work;

pub use find::*;
pub use summary::{assert_fixture_summaries, stale_snapshots, summary};

use playbookdiff_adapter::{Adapter, Gap, Scene};
use playbookdiff_model::{
    AnalysisContext, Applicability, DiagnosticCode, EffectiveAgentConfig, Mode, RepoPath, Transport,
};
use playbookdiff_source::{Repo, SourceTree, WorkingTree};
use std::path::{Path, PathBuf};

/// The directory `tests/fixtures/<name>` of the crate whose test calls it
/// (its `CARGO_MANIFEST_DIR`); panics when there is no such directory.
#[macro_export]
macro_rules! fixture {
    ($name:expr) => {
        $crate::fixture_in(env!("CARGO_MANIFEST_DIR"), $name)
    };
}

/// The directory `tests/fixtures/` of the crate whose test calls it.
#[macro_export]
macro_rules! fixtures_dir {
    () => {
        ::std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
    };
}

/// `<manifest_dir>/tests/fixtures/<name>`; panics when it is not a
/// directory. [`fixture!`] passes the caller's `CARGO_MANIFEST_DIR`.
pub fn fixture_in(manifest_dir: &str, name: &str) -> PathBuf {
    let p = Path::new(manifest_dir).join("tests/fixtures").join(name);
    assert!(
        p.is_dir(),
        "no fixture {name} in {manifest_dir}/tests/fixtures"
    );
    p
}

/// Every directory directly under `dir` (a fixtures directory), sorted by
/// path.
pub fn all_fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

/// A copy of the tree at `src` in a new temporary directory (removed on
/// drop): files byte for byte, directories, and symbolic links as links
/// with the same target text (not followed), so a test may change the copy
/// and never the fixture.
pub fn copy_to_temp(src: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    copy_tree(src, dir.path());
    dir
}

/// Copies the tree at `src` into `dest` (created with its parents if
/// missing), as [`copy_to_temp`] does.
pub fn copy_tree(src: &Path, dest: &Path) {
    std::fs::create_dir_all(dest).expect("mkdir");
    for entry in std::fs::read_dir(src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let entry = entry.expect("directory entry");
        let (from, to) = (entry.path(), dest.join(entry.file_name()));
        let kind = entry.file_type().expect("file type");
        if kind.is_symlink() {
            let target = std::fs::read_link(&from).expect("link target");
            std::os::unix::fs::symlink(target, &to).expect("link");
        } else if kind.is_dir() {
            copy_tree(&from, &to);
        } else {
            std::fs::copy(&from, &to).expect("copy");
        }
    }
}

/// An analysis context as a test states it: cwd and targetPath as
/// repository-relative `/`-separated paths (`.` is the root), the mode, and
/// the release to model (`None`: the adapter's newest profile). The
/// repositoryRoot is always the root of the compiled tree.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// The launch directory (cwd).
    pub cwd: String,
    /// The targetPath, if any.
    pub target: Option<String>,
    /// Repo or local mode.
    pub mode: Mode,
    /// The harness release to model; `None` for the newest profile.
    pub version: Option<String>,
}

/// cwd at the repository root, no targetPath, repo mode, newest profile.
pub fn at_root() -> Ctx {
    Ctx {
        cwd: ".".into(),
        target: None,
        mode: Mode::Repo,
        version: None,
    }
}

impl Ctx {
    /// With cwd `cwd`.
    pub fn cwd(mut self, cwd: &str) -> Self {
        self.cwd = cwd.into();
        self
    }
    /// With targetPath `t`.
    pub fn target(mut self, t: &str) -> Self {
        self.target = Some(t.into());
        self
    }
    /// Modelling release `v`.
    pub fn version(mut self, v: &str) -> Self {
        self.version = Some(v.into());
        self
    }
    /// In local mode.
    pub fn local(mut self) -> Self {
        self.mode = Mode::Local;
        self
    }
    /// The [`AnalysisContext`]; panics on an invalid path.
    pub fn context(&self) -> AnalysisContext {
        AnalysisContext {
            repository_root: RepoPath::root(),
            cwd: rp(&self.cwd),
            target_path: self.target.as_deref().map(rp),
            mode: self.mode,
        }
    }
}

/// `s` as a [`RepoPath`]; panics when it is not a valid repository path.
pub fn rp(s: &str) -> RepoPath {
    RepoPath::new(s).unwrap_or_else(|| panic!("invalid test path {s:?}"))
}

/// Compiles the repository on disk at `dir` with `adapter` under `ctx`.
pub fn compile_dir(adapter: &dyn Adapter, dir: &Path, ctx: &Ctx) -> EffectiveAgentConfig {
    let tree = WorkingTree::open(dir).unwrap_or_else(|e| panic!("open {}: {e:?}", dir.display()));
    compile_tree(adapter, &tree, ctx)
}

/// Compiles the repository `tree` with `adapter` under `ctx`.
pub fn compile_tree(
    adapter: &dyn Adapter,
    tree: &dyn SourceTree,
    ctx: &Ctx,
) -> EffectiveAgentConfig {
    let repo = Repo::new(tree);
    adapter.compile(&repo, &ctx.context(), ctx.version.as_deref())
}

/// One adapter crate's tests: its adapter and its fixtures, so that a test
/// says `KIT.run("case", "apps/api")`. A crate declares it once, with its
/// own adapter:
///
/// ```
/// use playbookdiff_adapter::Declared;
/// use playbookdiff_model::{EffectiveAgentConfig, Harness};
/// use playbookdiff_testkit::Kit;
///
/// const H: Harness = Harness::new("example", "Example");
/// static EXAMPLE: Declared =
///     Declared::new(H, |r| EffectiveAgentConfig::new(H, r.context.clone())).profiled(&["1.0"]);
/// static KIT: Kit = Kit::new(&EXAMPLE, env!("CARGO_MANIFEST_DIR"));
///
/// let repo = tempfile::tempdir().unwrap();
/// let cfg = KIT.compile_at(repo.path(), ".", None);
/// assert_eq!(cfg.harness, H);
/// assert_eq!(cfg.agent_profile.unwrap().version, "1.0");
/// ```
#[derive(Clone, Copy)]
pub struct Kit {
    /// The adapter every compilation uses.
    pub adapter: &'static dyn Adapter,
    /// The crate's `CARGO_MANIFEST_DIR`; its fixtures are in
    /// `tests/fixtures/` below it.
    pub manifest_dir: &'static str,
}

impl Kit {
    /// The kit of the crate at `manifest_dir` (pass
    /// `env!("CARGO_MANIFEST_DIR")`) compiling with `adapter`.
    pub const fn new(adapter: &'static dyn Adapter, manifest_dir: &'static str) -> Kit {
        Kit {
            adapter,
            manifest_dir,
        }
    }

    /// The directory of fixture `name`; panics when there is none.
    pub fn fixture(&self, name: &str) -> PathBuf {
        fixture_in(self.manifest_dir, name)
    }

    /// The crate's `tests/fixtures/` directory.
    pub fn fixtures_dir(&self) -> PathBuf {
        Path::new(self.manifest_dir).join("tests/fixtures")
    }

    /// Every fixture directory of the crate, sorted by path.
    pub fn all_fixtures(&self) -> Vec<PathBuf> {
        all_fixtures(&self.fixtures_dir())
    }

    /// Compiles the repository on disk at `dir` under `ctx`.
    pub fn compile_dir(&self, dir: &Path, ctx: &Ctx) -> EffectiveAgentConfig {
        compile_dir(self.adapter, dir, ctx)
    }

    /// Compiles the repository `tree` under `ctx`.
    pub fn compile_tree(&self, tree: &dyn SourceTree, ctx: &Ctx) -> EffectiveAgentConfig {
        compile_tree(self.adapter, tree, ctx)
    }

    /// Compiles the repository on disk at `dir` launched in `cwd`
    /// (repository-relative, `.` for the root) with targetPath `target`
    /// if any, in repo mode as the newest profiled release.
    pub fn compile_at(&self, dir: &Path, cwd: &str, target: Option<&str>) -> EffectiveAgentConfig {
        let ctx = at_root().cwd(cwd);
        let ctx = match target {
            Some(t) => ctx.target(t),
            None => ctx,
        };
        self.compile_dir(dir, &ctx)
    }

    /// Compiles fixture `name` launched in `cwd`, as [`Kit::compile_at`]
    /// without a targetPath.
    pub fn run(&self, name: &str, cwd: &str) -> EffectiveAgentConfig {
        self.compile_at(&self.fixture(name), cwd, None)
    }

    /// Compiles fixture `fixture` at `cwd` ([`Kit::run`]) and asserts the
    /// skill applicability its entry in `table` gives ([`SkillTable`]);
    /// returns the result for the test's other facts. Panics when `table`
    /// does not parse or has no entry for `fixture` at `cwd`.
    pub fn run_skill_table(&self, table: &str, fixture: &str, cwd: &str) -> EffectiveAgentConfig {
        let t = SkillTable::parse(table);
        let e = t.entry(fixture, cwd);
        let cfg = self.run(fixture, cwd);
        e.assert_holds(&cfg);
        cfg
    }

    /// Asserts every entry of `table` ([`SkillTable`]): each fixture
    /// compiled at its `cwd` gives its skills the applicability listed.
    /// Fails naming every row of every entry that does not hold.
    pub fn assert_skill_table(&self, table: &str) {
        let wrong: Vec<String> = SkillTable::parse(table)
            .expect
            .iter()
            .flat_map(|e| e.mismatches(&self.run(&e.fixture, &e.cwd)))
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// Asserts the remedy for instruction file `file` received in `dir`
    /// (not path-scoped) in a repository holding `files` launched in
    /// `cwd`: the sentence contains every phrase, and none starting with
    /// `!` ([`Kit::assert_remedies_in`]).
    pub fn assert_instruction_remedy(
        &self,
        files: &[(&str, &str)],
        cwd: &str,
        file: &str,
        dir: &str,
        phrases: &[&str],
    ) {
        let (file, dir) = (rp(file), rp(dir));
        let gap = Gap::Instruction {
            file: &file,
            dir: &dir,
            paths: None,
        };
        let table: Vec<(Gap<'_>, &str)> = phrases.iter().map(|p| (gap, *p)).collect();
        self.assert_remedies_in(files, cwd, &table);
    }

    /// Asserts the remedy for skill `name` another harness reads at `file`
    /// (a `SKILL.md` or a command file) in an empty repository: the
    /// sentence contains every phrase, and none starting with `!`.
    pub fn assert_skill_remedy(&self, name: &str, file: &str, phrases: &[&str]) {
        let file = rp(file);
        let gap = Gap::Skill { name, file: &file };
        let table: Vec<(Gap<'_>, &str)> = phrases.iter().map(|p| (gap, *p)).collect();
        self.assert_remedies(&table);
    }

    /// Asserts the remedy for MCP server `name`, reached over `transport`
    /// where another harness starts it, in an empty repository: the
    /// sentence contains every phrase, and none starting with `!`.
    pub fn assert_mcp_remedy(&self, name: &str, transport: Transport, phrases: &[&str]) {
        let gap = Gap::Mcp { name, transport };
        let table: Vec<(Gap<'_>, &str)> = phrases.iter().map(|p| (gap, *p)).collect();
        self.assert_remedies(&table);
    }

    /// Asserts the adapter's remedies ([`Adapter::remedy`]) in an empty
    /// repository launched at the root: for every row `(gap, phrase)` the
    /// sentence for `gap` contains `phrase` (the files of this harness it
    /// names, the way it says them). Fails naming every row that differs
    /// or has no remedy, not only the first.
    pub fn assert_remedies(&self, table: &[(Gap<'_>, &str)]) {
        self.assert_remedies_in(&[], ".", table);
    }

    /// [`Kit::assert_remedies`] in a repository holding `files` (pairs of
    /// a repository-relative path and its text, held in memory) launched
    /// in `cwd`. A phrase starting with `!` must NOT occur in the sentence
    /// (e.g. an edit that is already there).
    pub fn assert_remedies_in(&self, files: &[(&str, &str)], cwd: &str, table: &[(Gap<'_>, &str)]) {
        let mut tree = trees::MemTree::default();
        for (path, text) in files {
            tree.file(path, text);
        }
        let repo = Repo::new(&tree);
        let cwd = rp(cwd);
        let scene = Scene {
            repo: &repo,
            cwd: &cwd,
        };
        let wrong: Vec<String> = table
            .iter()
            .filter_map(|(gap, phrase)| {
                let r = self.adapter.remedy(gap, &scene);
                match (r, phrase.strip_prefix('!')) {
                    (Some(r), None) if r.contains(phrase) => None,
                    (Some(r), Some(not)) if !r.contains(not) => None,
                    (Some(r), _) => Some(format!("{gap:?}: {phrase:?} against {r:?}")),
                    (None, _) => Some(format!("{gap:?}: no remedy, want {phrase:?}")),
                }
            })
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// Proves the adapter reports a skills root stored as a text file
    /// instead of finding no skills silently (corpus findings: a link
    /// checked out as a regular file holding its target, as git does with
    /// `core.symlinks=false`). Builds `skills/deploy/SKILL.md` holding
    /// `skill_md` and the file `skills_root` (e.g. `.claude/skills`)
    /// holding `../skills`, compiles at the root, and asserts that no skill
    /// is listed and that exactly one `symlink-stored-as-text` diagnostic
    /// is placed at `skills_root`.
    pub fn assert_skills_root_stored_as_text_is_reported(&self, skills_root: &str, skill_md: &str) {
        let t = tempfile::tempdir().expect("temporary directory");
        fs::write(t.path(), "skills/deploy/SKILL.md", skill_md);
        fs::write(t.path(), skills_root, "../skills");
        let cfg = self.compile_at(t.path(), ".", None);
        assert!(cfg.skills.is_empty(), "{:#?}", cfg.skills);
        let d = diags(&cfg, DiagnosticCode::SymlinkStoredAsText);
        assert_eq!(d.len(), 1, "{:#?}", cfg.diagnostics);
        let at = d[0].source.as_ref().expect("placed");
        assert_eq!(at.path.as_str(), skills_root);
    }
}

/// The proptest configuration of a property test: `PROPTEST_CASES` cases
/// when that variable is set (a longer run), else `default`; no failure
/// persistence files are written into the source tree. Rejected cases
/// (`prop_assume!`) may number as many as the cases, at least proptest's
/// default 1,024: with a fixed limit a long run aborts on "Too many global
/// rejects" (Claude Code's case-folding property rejects every input
/// holding a non-ASCII letter: a 100,000-case run reached the default).
pub fn proptest_cases(default: u32) -> proptest::test_runner::Config {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    proptest::test_runner::Config {
        cases: n,
        max_global_rejects: n.max(1024),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// A variable set in this process's environment, with its value: cargo sets
/// `CARGO_MANIFEST_DIR` for a test run; `PATH` is the fallback. A test that
/// proves a `${VAR}` reference is never expanded refers to it, and never
/// sets a variable (tests of one binary share the process).
pub fn host_variable() -> (&'static str, String) {
    ["CARGO_MANIFEST_DIR", "PATH"]
        .into_iter()
        .find_map(|n| {
            std::env::var(n)
                .ok()
                .filter(|v| v.len() >= 8)
                .map(|v| (n, v))
        })
        .expect("CARGO_MANIFEST_DIR or PATH is set")
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_source::EntryKind;

    #[test]
    fn a_copy_keeps_bytes_directories_and_link_text() {
        let src = tempfile::tempdir().unwrap();
        fs::write(src.path(), "a/b.md", "text\n");
        fs::link(src.path(), "missing.md", "a/dangling.md");
        let copy = copy_to_temp(src.path());
        assert_eq!(
            std::fs::read(copy.path().join("a/b.md")).unwrap(),
            b"text\n"
        );
        let link = std::fs::read_link(copy.path().join("a/dangling.md")).unwrap();
        assert_eq!(link, Path::new("missing.md"));
        assert_eq!(
            fs::snapshot(src.path()).keys().collect::<Vec<_>>(),
            fs::snapshot(copy.path()).keys().collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_memory_tree_implies_its_directories() {
        let mut t = trees::MemTree::default();
        t.file("a/b/c.md", "x");
        t.file("a/d.md", "y");
        let names: Vec<(String, EntryKind)> = t
            .list_dir(&rp("a"))
            .unwrap()
            .into_iter()
            .map(|e| (e.name, e.kind))
            .collect();
        assert_eq!(
            names,
            [
                ("b".to_string(), EntryKind::Dir),
                ("d.md".to_string(), EntryKind::File)
            ]
        );
        assert_eq!(t.stat(&rp("a/b")).unwrap().kind, EntryKind::Dir);
        assert!(t.read_file(&rp("a/x.md"), 10).is_err());
    }

    #[test]
    fn a_context_states_cwd_target_and_mode() {
        let ctx = at_root()
            .cwd("apps/api")
            .target("apps/api/x.ts")
            .local()
            .context();
        assert_eq!(ctx.cwd, rp("apps/api"));
        assert_eq!(ctx.target_path, Some(rp("apps/api/x.ts")));
        assert_eq!(ctx.mode, Mode::Local);
        assert!(ctx.repository_root.is_root());
    }
}

/// A table of expected skill applicability, kept as data beside a crate's
/// fixture tests (`tests/<crate>/skills.toml`) so that the facts read and
/// change as rows, not as code. The TOML shape:
///
/// ```toml
/// [[expect]]
/// fixture = "skill_missing_fields"   # a directory of tests/fixtures/
/// cwd = "."                          # the launch directory (default ".")
/// [expect.skills]
/// ".agents/skills/nodesc/SKILL.md" = "excluded"   # path of the SKILL.md = applicability
/// ```
///
/// Applicability values are the JSON contract's kebab-case names
/// (`effective`, `shadowed`, `excluded`, `out-of-scope`, ...).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillTable {
    /// The entries, in file order.
    pub expect: Vec<SkillTableEntry>,
}

/// One entry of a [`SkillTable`]: a fixture, a launch directory and the
/// applicability of each listed skill there.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillTableEntry {
    /// The fixture directory's name.
    pub fixture: String,
    /// The launch directory, repository-relative; `.` when absent.
    #[serde(default = "root_cwd")]
    pub cwd: String,
    /// Path of each skill's `SKILL.md` (or command file) → applicability.
    pub skills: std::collections::BTreeMap<String, Applicability>,
}

fn root_cwd() -> String {
    ".".to_string()
}

impl SkillTable {
    /// Parses `text` (the TOML above). Panics with the parser's message,
    /// which names the line, when it does not parse.
    pub fn parse(text: &str) -> SkillTable {
        toml::from_str(text).unwrap_or_else(|e| panic!("skill table: {e}"))
    }

    /// The entry for `fixture` at `cwd`. Panics when there is none.
    pub fn entry(&self, fixture: &str, cwd: &str) -> &SkillTableEntry {
        self.expect
            .iter()
            .find(|e| e.fixture == fixture && e.cwd == cwd)
            .unwrap_or_else(|| panic!("skill table: no entry for {fixture} at {cwd}"))
    }
}

impl SkillTableEntry {
    /// Asserts the entry on `cfg`, the fixture compiled at the entry's
    /// `cwd`; fails naming every row that does not hold and the skills
    /// found.
    pub fn assert_holds(&self, cfg: &EffectiveAgentConfig) {
        let wrong = self.mismatches(cfg);
        assert!(wrong.is_empty(), "{wrong:#?}\nskills: {:#?}", cfg.skills);
    }

    /// The rows that `cfg` does not satisfy ([`skill_mismatches`]), each
    /// prefixed with the entry's fixture and launch directory.
    pub fn mismatches(&self, cfg: &EffectiveAgentConfig) -> Vec<String> {
        let rows: Vec<(&str, Applicability)> =
            self.skills.iter().map(|(p, a)| (p.as_str(), *a)).collect();
        skill_mismatches(cfg, &rows)
            .into_iter()
            .map(|m| format!("{} at {}: {m}", self.fixture, self.cwd))
            .collect()
    }
}

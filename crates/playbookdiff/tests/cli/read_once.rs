//! One walk, each file read once: both adapters, in every context, compiled
//! on one `Repo` list each directory at most once and read each file at
//! most once through the `SourceTree`.

use playbookdiff_model::{AnalysisContext, Mode, RepoPath};
use playbookdiff_source::{DirEntry, Repo, SourceError, SourceTree, Stat, WorkingTree};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

/// A `WorkingTree` that counts calls per path.
struct CountingTree {
    inner: WorkingTree,
    list_dir: Mutex<BTreeMap<RepoPath, usize>>,
    read_file: Mutex<BTreeMap<RepoPath, usize>>,
    stat: Mutex<BTreeMap<RepoPath, usize>>,
    read_link: Mutex<BTreeMap<RepoPath, usize>>,
}

impl CountingTree {
    fn open(root: &Path) -> Self {
        CountingTree {
            inner: WorkingTree::open(root).unwrap(),
            list_dir: Mutex::default(),
            read_file: Mutex::default(),
            stat: Mutex::default(),
            read_link: Mutex::default(),
        }
    }
}

fn count(map: &Mutex<BTreeMap<RepoPath, usize>>, path: &RepoPath) {
    *map.lock().unwrap().entry(path.clone()).or_default() += 1;
}

/// The paths counted more than once.
fn repeated(map: &Mutex<BTreeMap<RepoPath, usize>>) -> Vec<(RepoPath, usize)> {
    map.lock()
        .unwrap()
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(p, n)| (p.clone(), *n))
        .collect()
}

impl SourceTree for CountingTree {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<DirEntry>, SourceError> {
        count(&self.list_dir, dir);
        self.inner.list_dir(dir)
    }
    fn stat(&self, path: &RepoPath) -> Result<Stat, SourceError> {
        count(&self.stat, path);
        self.inner.stat(path)
    }
    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        count(&self.read_file, path);
        self.inner.read_file(path, limit)
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        count(&self.read_link, path);
        self.inner.read_link(path)
    }
    fn absolute_root(&self) -> Option<&Path> {
        self.inner.absolute_root()
    }
    fn has_git_marker(&self) -> bool {
        self.inner.has_git_marker()
    }
}

fn rp(s: &str) -> RepoPath {
    RepoPath::new(s).unwrap()
}

/// Every directory holding a CLAUDE.md or AGENTS.md, the root included.
fn launch_dirs(repo: &Repo<'_>) -> Vec<RepoPath> {
    let mut dirs: Vec<RepoPath> = ["CLAUDE.md", "AGENTS.md"]
        .iter()
        .flat_map(|name| repo.files_named(name))
        .filter_map(|p| p.parent())
        .collect();
    dirs.push(RepoPath::root());
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Compiles both harnesses, both modes, from every launch directory, with
/// and without a target, all on one `Repo`, and asserts the counts.
/// Returns (directories listed, files read, contexts compiled).
fn assert_one_walk_and_read_once(
    what: &str,
    root: &Path,
    targets: &[&str],
) -> (usize, usize, usize) {
    let tree = CountingTree::open(root);
    let repo = Repo::new(&tree);
    let listed_by_walk = tree.list_dir.lock().unwrap().len();
    let mut contexts = 0;
    for cwd in launch_dirs(&repo) {
        for target in std::iter::once(None).chain(targets.iter().map(|t| Some(rp(t)))) {
            for mode in [Mode::Repo, Mode::Local] {
                let ctx = AnalysisContext {
                    repository_root: RepoPath::root(),
                    cwd: cwd.clone(),
                    target_path: target.clone(),
                    mode,
                };
                for adapter in playbookdiff_registry::adapters() {
                    adapter.compile(&repo, &ctx, None);
                }
                contexts += 1;
            }
        }
    }
    assert_eq!(
        repeated(&tree.list_dir),
        vec![],
        "{what}: directories listed more than once"
    );
    assert_eq!(
        tree.list_dir.lock().unwrap().len(),
        listed_by_walk,
        "{what}: directories listed after the walk"
    );
    assert_eq!(
        repeated(&tree.read_file),
        vec![],
        "{what}: files read more than once"
    );
    assert_eq!(
        repeated(&tree.read_link),
        vec![],
        "{what}: links read more than once"
    );
    let files = tree.read_file.lock().unwrap().len();
    (listed_by_walk, files, contexts)
}

#[test]
fn the_example_monorepo_is_walked_once_and_each_file_read_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/monorepo");
    let (dirs, files, contexts) = assert_one_walk_and_read_once(
        "examples/monorepo",
        &root,
        &[
            "apps/api/src/routes/users.ts",
            "apps/web/src/App.tsx",
            "packages/legacy-forms/form.ts",
        ],
    );
    assert!(
        dirs >= 10 && files >= 10 && contexts >= 20,
        "{dirs} {files} {contexts}"
    );
}

#[test]
fn every_corpus_repository_is_walked_once_and_each_file_read_once() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !corpus.is_dir() {
        return; // A clone elsewhere: the corpus test prints the note.
    }
    let mut repos: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path().join("repo"))
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    assert!(!repos.is_empty());
    for repo in repos {
        let name = repo
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        assert_one_walk_and_read_once(
            &name,
            &repo,
            &["apps/webapp/app/v3/x.ts", "packages/core/package.json"],
        );
    }
}

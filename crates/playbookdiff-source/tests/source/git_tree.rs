//! `GitTree` on repositories scripted with the `git` binary (only to build
//! them; the tree itself is read with gix): listing, links from mode 120000
//! entries, submodules and LFS pointers reported, changed paths between
//! commits, and refusals.

use playbookdiff_model::RepoPath;
use playbookdiff_source::{
    EntryKind, GitError, GitRepository, Repo, Resolved, SourceError, SourceTree,
};
use std::path::Path;
use std::process::Command;

fn rp(s: &str) -> RepoPath {
    RepoPath::new(s).unwrap()
}

use playbookdiff_testkit::corpus::git;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository whose second commit holds a link, a submodule entry and
/// an LFS pointer; the working tree stores the link as text
/// (`core.symlinks=false`).
fn scripted() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["config", "core.symlinks", "false"]);
    write(root, "AGENTS.md", "# Rules\n\nBe brief.\n");
    write(root, "apps/api/AGENTS.md", "# API\n");
    write(root, "src/main.rs", "fn main() {}\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "one"]);
    // A link CLAUDE.md -> AGENTS.md, written into the index directly as git
    // does for a link on a checkout without symlink support.
    let target = {
        let out = Command::new("git")
            .args(["hash-object", "-w", "--stdin"])
            .current_dir(root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(b"AGENTS.md")?;
                c.wait_with_output()
            })
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    git(
        root,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("120000,{target},CLAUDE.md"),
        ],
    );
    // What a checkout with core.symlinks=false writes for it.
    write(root, "CLAUDE.md", "AGENTS.md");
    let head = git(root, &["rev-parse", "HEAD"]);
    git(
        root,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{head},vendor/lib"),
        ],
    );
    write(
        root,
        "docs/big.md",
        "version https://git-lfs.github.com/spec/v1\noid sha256:0000\nsize 12345\n",
    );
    write(root, "apps/api/AGENTS.md", "# API\n\nUse tokio.\n");
    git(root, &["add", "docs/big.md", "apps/api/AGENTS.md"]);
    git(root, &["commit", "-qm", "two"]);
    dir
}

#[test]
fn lists_reads_and_resolves_links_from_tree_entries() {
    let dir = scripted();
    let git = GitRepository::open(dir.path()).unwrap();
    let head = git.commit("HEAD").unwrap();
    assert_eq!(head.hex().len(), 40);
    let tree = git.tree(&head).unwrap();
    let names: Vec<(String, EntryKind)> = tree
        .list_dir(&RepoPath::root())
        .unwrap()
        .into_iter()
        .map(|e| (e.name, e.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("AGENTS.md".to_string(), EntryKind::File),
            ("CLAUDE.md".to_string(), EntryKind::Symlink),
            ("apps".to_string(), EntryKind::Dir),
            ("docs".to_string(), EntryKind::Dir),
            ("src".to_string(), EntryKind::Dir),
            ("vendor".to_string(), EntryKind::Dir),
        ]
    );
    assert_eq!(tree.read_link(&rp("CLAUDE.md")).unwrap(), "AGENTS.md");
    assert_eq!(
        tree.read_file(&rp("AGENTS.md"), 1000).unwrap(),
        b"# Rules\n\nBe brief.\n"
    );
    assert_eq!(tree.stat(&rp("AGENTS.md")).unwrap().len, 19);
    assert!(matches!(
        tree.read_file(&rp("AGENTS.md"), 3),
        Err(SourceError::TooLarge { len: 19, .. })
    ));
    assert!(matches!(
        tree.read_file(&rp("nope.md"), 10),
        Err(SourceError::NotFound(_))
    ));

    // Through the one-walk index: the link resolves inside the commit even
    // though the working tree holds it as a text file.
    let repo = Repo::new(&tree);
    assert!(std::fs::symlink_metadata(dir.path().join("CLAUDE.md"))
        .unwrap()
        .is_file());
    assert_eq!(
        repo.resolve(&rp("CLAUDE.md")),
        Resolved::Inside {
            real: rp("AGENTS.md"),
            kind: EntryKind::File,
            via_link: true
        }
    );
    assert_eq!(
        repo.read_text(&rp("CLAUDE.md"), 100).unwrap().text,
        "# Rules\n\nBe brief.\n"
    );
    assert!(repo.has_git_marker());

    // The submodule is listed, never opened, and reported.
    assert_eq!(repo.kind(&rp("vendor/lib")), Some(EntryKind::Other));
    let problems = repo.walk_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, rp("vendor/lib"));
    assert!(problems[0].message.contains("submodule"), "{problems:?}");

    // The LFS pointer is refused as such.
    match tree.read_file(&rp("docs/big.md"), 10_000) {
        Err(SourceError::Io { message, .. }) => {
            assert!(message.contains("Git LFS pointer"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn changed_paths_between_commits() {
    let dir = scripted();
    let git = GitRepository::open(dir.path()).unwrap();
    let one = git.tree(&git.commit("HEAD~1").unwrap()).unwrap();
    let two = git.tree(&git.commit("main").unwrap()).unwrap();
    let changed: Vec<String> = one
        .changed_paths(&two)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        changed,
        [
            "CLAUDE.md",
            "apps/api/AGENTS.md",
            "docs/big.md",
            "vendor/lib"
        ]
    );
    assert!(two.changed_paths(&two).is_empty());
    let base = git
        .merge_base(
            &git.commit("HEAD~1").unwrap(),
            &git.commit("HEAD").unwrap(),
            "x",
        )
        .unwrap();
    assert_eq!(base, git.commit("HEAD~1").unwrap());
}

#[test]
fn refusals_are_one_line() {
    let dir = scripted();
    let git = GitRepository::open(dir.path()).unwrap();
    for rev in ["nope", "HEAD~9", "", "--all", "HEAD:AGENTS.md"] {
        let e = git.commit(rev).unwrap_err();
        assert!(matches!(e, GitError::UnknownRevision { .. }), "{rev}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
    let plain = tempfile::tempdir().unwrap();
    assert_eq!(
        GitRepository::open(plain.path()).err(),
        Some(GitError::NotARepository)
    );
    // A directory inside a repository is not its root.
    assert_eq!(
        GitRepository::open(&dir.path().join("apps")).err(),
        Some(GitError::NotARepository)
    );
}

/// `changed_paths` against git's own `git diff-tree -r --no-renames`: a
/// directory replaced by a file, a subtree removed, a mode change, an
/// added subtree, and an unchanged subtree with the same id on both sides.
#[test]
fn changed_paths_agree_with_git_diff_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    write(root, "a/b/c.md", "c\n");
    write(root, "a/d.md", "d\n");
    write(root, "x/y.sh", "echo\n");
    write(root, "keep/deep/k.md", "k\n");
    write(root, "gone/one/two.md", "2\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "one"]);
    std::fs::remove_dir_all(root.join("a")).unwrap();
    std::fs::remove_dir_all(root.join("gone")).unwrap();
    write(root, "a", "now a file\n");
    write(root, "new/sub/n.md", "n\n");
    git(root, &["add", "-A"]);
    git(root, &["update-index", "--chmod=+x", "x/y.sh"]);
    git(root, &["commit", "-qm", "two"]);
    let expected: Vec<String> = git(
        root,
        &[
            "diff-tree",
            "-r",
            "--no-renames",
            "--name-only",
            "HEAD~1",
            "HEAD",
        ],
    )
    .lines()
    .map(str::to_string)
    .collect();
    let repo = GitRepository::open(root).unwrap();
    let one = repo.tree(&repo.commit("HEAD~1").unwrap()).unwrap();
    let two = repo.tree(&repo.commit("HEAD").unwrap()).unwrap();
    let got: Vec<String> = one
        .changed_paths(&two)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        got,
        [
            "a",
            "a/b/c.md",
            "a/d.md",
            "gone/one/two.md",
            "new/sub/n.md",
            "x/y.sh"
        ]
    );
    assert_eq!(got, expected);
    let back: Vec<String> = two
        .changed_paths(&one)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(back, got);
    // Leaves of the whole commit, as `git ls-tree -r --name-only`.
    let mut leaves: Vec<String> = two.leaf_paths().iter().map(|p| p.to_string()).collect();
    leaves.sort();
    let listed: Vec<String> = git(root, &["ls-tree", "-r", "--name-only", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(leaves, listed);
}

/// A working tree that counts the files read through it.
struct Counting<'a> {
    inner: &'a playbookdiff_source::WorkingTree,
    reads: std::sync::Mutex<Vec<String>>,
}

impl SourceTree for Counting<'_> {
    fn list_dir(&self, dir: &RepoPath) -> Result<Vec<playbookdiff_source::DirEntry>, SourceError> {
        self.inner.list_dir(dir)
    }
    fn stat(&self, path: &RepoPath) -> Result<playbookdiff_source::Stat, SourceError> {
        self.inner.stat(path)
    }
    fn read_file(&self, path: &RepoPath, limit: u64) -> Result<Vec<u8>, SourceError> {
        self.reads.lock().unwrap().push(path.to_string());
        self.inner.read_file(path, limit)
    }
    fn read_link(&self, path: &RepoPath) -> Result<String, SourceError> {
        self.inner.read_link(path)
    }
    fn absolute_root(&self) -> Option<&Path> {
        self.inner.absolute_root()
    }
    fn has_git_marker(&self) -> bool {
        self.inner.has_git_marker()
    }
}

#[test]
fn against_the_working_tree_the_index_spares_reading_unchanged_files() {
    use playbookdiff_source::{GitView, RepoOptions, Visibility, WorkingTree};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    let names: Vec<String> = (0..20).map(|i| format!("docs/f{i:02}.md")).collect();
    // Files last modified long before the index is written, so that no
    // entry is racily clean.
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    let age = |rel: &str| {
        std::fs::File::options()
            .write(true)
            .open(root.join(rel))
            .unwrap()
            .set_modified(past)
            .unwrap();
    };
    for n in &names {
        write(root, n, "same size text\n");
        age(n);
    }
    write(root, "CLAUDE.md", "# Rules\n");
    age("CLAUDE.md");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    // Edited, same size: changed. Touched, same bytes: unchanged. Grown:
    // changed without a read. Added and removed.
    write(root, "docs/f00.md", "SAME SIZE TEXT\n");
    std::fs::File::options()
        .write(true)
        .open(root.join("docs/f01.md"))
        .unwrap()
        .set_modified(std::time::SystemTime::now())
        .unwrap();
    write(root, "docs/f02.md", "a longer text than before\n");
    write(root, "AGENTS.md", "# New\n");
    std::fs::remove_file(root.join("docs/f03.md")).unwrap();

    let repo = GitRepository::open(root).unwrap();
    let head = repo.tree(&repo.commit("HEAD").unwrap()).unwrap();
    let wt = WorkingTree::open(root).unwrap();
    let expected = [
        rp("AGENTS.md"),
        rp("docs/f00.md"),
        rp("docs/f02.md"),
        rp("docs/f03.md"),
    ];

    // In git's view: only the files whose stat data moved are read.
    let counting = Counting {
        inner: &wt,
        reads: Default::default(),
    };
    let walked = Repo::with_options(
        &counting,
        RepoOptions {
            visibility: Visibility::Git(Box::new(GitView::open(root, &[]).unwrap())),
            ..RepoOptions::default()
        },
    );
    counting.reads.lock().unwrap().clear();
    assert_eq!(head.changed_against(&walked), expected);
    let mut reads = counting.reads.lock().unwrap().clone();
    reads.sort();
    assert_eq!(reads, ["docs/f00.md", "docs/f01.md"]);

    // Without the index, every same-size file is read, with the same
    // result.
    let counting = Counting {
        inner: &wt,
        reads: Default::default(),
    };
    let walked = Repo::new(&counting);
    counting.reads.lock().unwrap().clear();
    assert_eq!(head.changed_against(&walked), expected);
    assert_eq!(counting.reads.lock().unwrap().len(), names.len() - 2 + 1);
}

/// `read_prefix` gives the start of a file and its size, in a working tree
/// (read no further than the prefix) and in a commit (the blob decoded
/// whole, within the 64 MiB bound, then cut), through a link inside the
/// repository too; it refuses what is not a regular file.
#[test]
fn read_prefix_gives_the_start_of_a_file_and_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    let text = "0123456789".repeat(1000);
    write(root, "AGENTS.md", &text);
    write(root, "sub/x.md", "x");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "one"]);
    let work = playbookdiff_source::WorkingTree::open(root).unwrap();
    let repo = GitRepository::open(root).unwrap();
    let head = repo.tree(&repo.commit("HEAD").unwrap()).unwrap();
    for tree in [&work as &dyn SourceTree, &head] {
        let (start, len) = tree.read_prefix(&rp("AGENTS.md"), 25).unwrap();
        assert_eq!((start.as_slice(), len), (&text.as_bytes()[..25], 10_000));
        let (all, len) = tree.read_prefix(&rp("sub/x.md"), 25).unwrap();
        assert_eq!((all.as_slice(), len), (&b"x"[..], 1));
        assert!(tree.read_prefix(&rp("sub"), 25).is_err());
        // The same through `Repo`, shared between callers.
        let r = Repo::new(tree);
        let (a, _) = r.read_prefix(&rp("AGENTS.md"), 10).unwrap();
        let (b, _) = r.read_prefix(&rp("AGENTS.md"), 10).unwrap();
        assert_eq!(a.as_slice(), b"0123456789");
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        assert!(matches!(
            r.read_prefix(&rp("missing.md"), 10),
            Err(SourceError::NotFound(_))
        ));
    }
}

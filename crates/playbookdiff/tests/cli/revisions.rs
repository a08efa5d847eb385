//! `--rev REV`: the commit read from git objects agrees with the extracted
//! tree on every corpus repository and keeps its symbolic links; refusals
//! are one line with status 2.
//!
//! Repositories are built here with the `git` binary; the product reads
//! them with gix.

use assert_cmd::Command;
use playbookdiff_model::RepoPath;
use playbookdiff_source::{EntryKind, GitRepository, Repo};
use playbookdiff_testkit::corpus::git;
use std::path::{Path, PathBuf};

fn run(repo: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(args)
        .arg(repo)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[allow(clippy::print_stderr)]
fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if root.is_dir() {
        Some(root)
    } else {
        eprintln!("note: ../shared/corpus is absent; the corpus revision test checks nothing");
        None
    }
}

/// The symbolic links under `dir`, repository-relative, sorted.
fn links_on_disk(dir: &Path, rel: &str, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir.join(rel)).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        if rel.is_empty() && name == ".git" {
            continue;
        }
        let p = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let ft = e.file_type().unwrap();
        if ft.is_symlink() {
            out.push(p);
        } else if ft.is_dir() {
            links_on_disk(dir, &p, out);
        }
    }
}

/// The symbolic links of a walked tree, sorted.
fn links_in(repo: &Repo<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for d in repo.directories() {
        for e in repo.list_dir(&d) {
            if e.kind == EntryKind::Symlink {
                out.push(d.join(&e.name).unwrap().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn compile_at_head_agrees_with_the_extracted_tree_on_the_corpus() {
    let Some(corpus) = corpus_root() else { return };
    let mut names: Vec<String> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| corpus.join(n).join("repo.tar").is_file())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut with_links = 0;
    for name in &names {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let status = std::process::Command::new("tar")
            .arg("-xf")
            .arg(corpus.join(name).join("repo.tar"))
            .current_dir(root)
            .status()
            .unwrap();
        assert!(status.success(), "{name}: tar");
        let root = if root.join("repo").is_dir() {
            root.join("repo")
        } else {
            root.to_path_buf()
        };
        git(&root, &["init", "-q", "-b", "main"]);
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-qm", "corpus", "--no-verify"]);

        // The commit has the links the extracted tree has.
        let mut on_disk = Vec::new();
        links_on_disk(&root, "", &mut on_disk);
        on_disk.sort();
        let repo = GitRepository::open(&root).unwrap();
        let tree = repo.tree(&repo.commit("HEAD").unwrap()).unwrap();
        let walked = Repo::new(&tree);
        assert_eq!(links_in(&walked), on_disk, "{name}: links");
        if !on_disk.is_empty() {
            with_links += 1;
            let first = RepoPath::new(&on_disk[0]).unwrap();
            assert_eq!(walked.kind(&first), Some(EntryKind::Symlink), "{name}");
        }

        // And both harnesses receive the same from it.
        for harness in ["claude-code", "codex"] {
            let (c1, worktree, e1) = run(&root, &["compile", "--harness", harness, "--json"]);
            let (c2, at_head, e2) = run(
                &root,
                &["compile", "--harness", harness, "--json", "--rev", "HEAD"],
            );
            assert_eq!((c1, c2), (0, 0), "{name} {harness}: {e1} {e2}");
            assert_eq!(worktree, at_head, "{name} {harness}");
        }
        let (c1, worktree, _) = run(&root, &["check", "--json"]);
        let (c2, at_head, _) = run(&root, &["check", "--json", "--rev", "HEAD"]);
        assert_eq!(c1, c2, "{name}");
        assert_eq!(worktree, at_head, "{name}: check");
    }
    assert!(with_links > 0, "no corpus repository has a symbolic link");
}

fn scripted() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("AGENTS.md"), "# Old\n\nUse tabs.\n").unwrap();
    std::fs::create_dir_all(root.join("apps/api")).unwrap();
    std::fs::write(root.join("apps/api/main.ts"), "").unwrap();
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "one"]);
    std::fs::write(root.join("AGENTS.md"), "# New\n\nUse spaces.\n").unwrap();
    dir
}

#[test]
fn a_revision_is_analysed_instead_of_the_working_tree() {
    let dir = scripted();
    let (code, out, err) = run(dir.path(), &["compile", "--harness", "codex", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Use spaces."));
    let (code, out, err) = run(
        dir.path(),
        &[
            "compile",
            "--harness",
            "codex",
            "--json",
            "--rev",
            "HEAD",
            "--cwd",
            "apps/api",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Use tabs.") && !out.contains("Use spaces."));
    let (code, out, _) = run(dir.path(), &["compile", "--rev", "main"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("  repository  "),
        "the header names the repository: {out}"
    );
    assert!(out.contains(" at main ("), "{out}");
    // check, explain and the default view take it too.
    let (code, _, err) = run(dir.path(), &["check", "--rev", "HEAD"]);
    assert!(code == 0 || code == 1, "{err}");
    let (code, out, err) = run(dir.path(), &["--rev", "HEAD"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" at HEAD ("), "{out}");
    let (code, _, err) = run(dir.path(), &["explain", "x:y", "--rev", "HEAD"]);
    assert_eq!(code, 2);
    assert!(err.contains("was not found"), "{err}");
}

#[test]
fn refusals_are_one_line_with_status_2() {
    let dir = scripted();
    let plain = tempfile::tempdir().unwrap();
    let cases: Vec<(&Path, Vec<&str>, &str)> = vec![
        (
            dir.path(),
            vec!["compile", "--rev", "nope"],
            "--rev: revision 'nope' names no commit",
        ),
        (
            dir.path(),
            vec!["check", "--rev", "HEAD~5"],
            "revision 'HEAD~5' names no commit: the history has no commit before HEAD",
        ),
        (
            plain.path(),
            vec!["compile", "--rev", "HEAD"],
            "is not a git repository",
        ),
        (
            dir.path(),
            vec![
                "compile",
                "--rev",
                "HEAD",
                "--mode",
                "local",
                "--home",
                playbookdiff_testkit::corpus::empty_home(),
            ],
            "--mode local",
        ),
        (
            dir.path(),
            vec!["compile", "--rev", "HEAD", "--cwd", "apps/missing"],
            "is not a directory in commit",
        ),
        (
            dir.path(),
            vec!["compile", "--rev", "HEAD", "--cwd", "../x"],
            "is outside REPO",
        ),
    ];
    for (repo, args, expected) in cases {
        let (code, out, err) = run(repo, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn a_revision_is_not_filtered_by_the_working_tree_index_or_ignore_files() {
    let dir = scripted();
    // AGENTS.md is committed, then untracked and ignored in the working tree.
    git(dir.path(), &["rm", "-q", "--cached", "AGENTS.md"]);
    std::fs::write(dir.path().join(".gitignore"), "AGENTS.md\n").unwrap();
    let (code, out, err) = run(
        dir.path(),
        &["compile", "--harness", "codex", "--json", "--rev", "HEAD"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Use tabs."), "{out}");
    // The working tree in repo mode no longer sees it.
    let (_, out, _) = run(dir.path(), &["compile", "--harness", "codex", "--json"]);
    assert!(!out.contains("Use spaces."), "{out}");
}

/// A bare repository holds commits and no working tree: without `--rev`
/// it is refused with the option to add (it was read as a plain directory
/// of git internals and reported "no findings"); with `--rev` it is
/// analysed.
#[test]
fn a_bare_repository_is_refused_without_a_revision() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "-q"]);
    std::fs::write(work.join("AGENTS.md"), "# Rules\n\nUse tabs.\n").unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "init"]);
    let bare = tmp.path().join("bare.git");
    git(
        tmp.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    for cmd in [&["check"][..], &["compile"][..], &[][..]] {
        let (code, out, err) = run(&bare, cmd);
        assert_eq!(code, 2, "{cmd:?}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("is a bare git repository") && err.contains("--rev HEAD"),
            "{err}"
        );
    }
    let (code, out, err) = run(
        &bare,
        &["compile", "--harness", "codex", "--rev", "HEAD", "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["instructions"][0]["source"]["path"], "AGENTS.md", "{v}");
}

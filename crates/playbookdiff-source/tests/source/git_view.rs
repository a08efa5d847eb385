//! Repo mode's file rule against git itself: on a table of ignore rules,
//! the files a `Repo` shows are exactly those `git ls-files --cached
//! --others --exclude-standard` lists (tracked files, and untracked files
//! no ignore rule matches). Needs the `git` command.

use playbookdiff_model::RepoPath;
use playbookdiff_source::{
    EntryKind, FileRule, GitView, Repo, RepoOptions, Visibility, WalkScope, WorkingTree,
};
use std::collections::BTreeSet;
use std::path::Path;

use playbookdiff_testkit::corpus::git;

use playbookdiff_testkit::fs::write;

/// Every file (not directory) the repo shows, walking the listings.
fn shown_files(repo: &Repo<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in repo.directories() {
        for e in repo.list_dir(&d) {
            if e.kind != EntryKind::Dir {
                out.insert(d.child(&e.name).unwrap().as_str().to_string());
            }
        }
    }
    out
}

fn git_view(root: &Path) -> RepoOptions {
    RepoOptions {
        visibility: Visibility::Git(Box::new(GitView::open(root, &["CLAUDE.local.md"]).unwrap())),
        ..RepoOptions::default()
    }
}

/// The table: (path, content). Comments say what each case is for.
const FILES: &[(&str, &str)] = &[
    (".gitignore", "node_modules/\n*.log\n!keep.log\n/build\ndocs/**/*.tmp\ndist\n# a comment\n\\#hash\nfoo/bar/\ntrailing.txt   \nlogs/\n!logs/keep\n*.md\n!CLAUDE.md\n!AGENTS.md\nvendor/\nCLAUDE.local.md\n[abc].cfg\n"),
    ("CLAUDE.md", "root"),
    ("AGENTS.md", "root"),
    ("notes.md", "ignored by *.md"),
    ("CLAUDE.local.md", "personal, kept visible"),
    ("node_modules/pkg/CLAUDE.md", "ignored directory"),
    ("packages/a/node_modules/x/AGENTS.md", "ignored directory at depth"),
    ("app.log", "ignored by *.log"),
    ("keep.log", "re-included by !keep.log"),
    ("build/out.js", "anchored /build"),
    ("src/build/out.js", "not matched by the anchored /build"),
    ("docs/a/b/c.tmp", "docs/**/*.tmp"),
    ("docs/c.tmp", "docs/**/*.tmp matches zero directories"),
    ("docs/a/keep.txt", "not a .tmp"),
    ("sub/dist", "dist, a file at depth"),
    ("sub/dist2", "not dist"),
    ("#hash", "escaped # pattern"),
    ("hash", "not #hash"),
    ("foo/bar/x.txt", "foo/bar/ is relative to the .gitignore"),
    ("x/foo/bar/x.txt", "a pattern with a slash is anchored"),
    ("trailing.txt", "trailing spaces are ignored"),
    ("logs/keep", "cannot re-include below an excluded directory"),
    ("a.cfg", "[abc].cfg"),
    ("d.cfg", "not [abc].cfg"),
    ("sub/.gitignore", "!important.log\nlocal/\n/only-here.txt\n"),
    ("sub/important.log", "re-included by the deeper file"),
    ("sub/other.log", "still ignored by the root file"),
    ("sub/local/x.txt", "ignored by the deeper file"),
    ("sub/only-here.txt", "anchored to sub"),
    ("sub/deeper/only-here.txt", "not anchored there"),
    ("secret.txt", "ignored by .git/info/exclude"),
    ("vendor/lib.js", "tracked though ignored (git add -f)"),
    ("vendor/deep/tracked.md", "tracked though ignored at depth"),
    ("vendor/other.js", "ignored, untracked"),
    ("tracked.log", "tracked though ignored at the root"),
];

#[test]
fn repo_mode_shows_what_git_lists() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (p, t) in FILES {
        write(root, p, t);
    }
    std::os::unix::fs::symlink("CLAUDE.md", root.join("link.md")).unwrap();
    git(root, &["init", "-q"]);
    write(root, ".git/info/exclude", "secret.txt\n");
    git(root, &["add", "-A"]);
    git(
        root,
        &[
            "add",
            "-f",
            "vendor/lib.js",
            "vendor/deep/tracked.md",
            "tracked.log",
        ],
    );
    let listed = git(
        root,
        &["ls-files", "--cached", "--others", "--exclude-standard"],
    );
    let expected: BTreeSet<String> = listed.lines().map(str::to_string).collect();

    let tree = WorkingTree::open(root).unwrap();
    let repo = Repo::with_options(&tree, git_view(root));
    assert_eq!(
        repo.file_rule(),
        FileRule::Git {
            index_problem: None
        }
    );
    let mut shown = shown_files(&repo);
    // The personal file stays visible though git ignores it, so that the
    // adapter can report it as unavailable; everything else is git's list.
    assert!(shown.remove("CLAUDE.local.md"));
    assert!(!expected.contains("CLAUDE.local.md"));
    assert_eq!(shown, expected);
    // A few facts the table exists for, spelled out.
    for p in [
        "keep.log",
        "src/build/out.js",
        "sub/important.log",
        "vendor/lib.js",
        "vendor/deep/tracked.md",
        "tracked.log",
        "sub/deeper/only-here.txt",
    ] {
        assert!(expected.contains(p), "{p}");
    }
    for p in [
        "node_modules/pkg/CLAUDE.md",
        "app.log",
        "logs/keep",
        "sub/other.log",
        "secret.txt",
        "vendor/other.js",
        "notes.md",
        "link.md",
    ] {
        assert!(!expected.contains(p), "{p}");
    }
    assert!(repo
        .files_named("CLAUDE.md")
        .iter()
        .all(|p| !p.as_str().contains("node_modules")));
    assert_eq!(repo.kind(&RepoPath::new("node_modules").unwrap()), None);
    assert_eq!(
        repo.kind(&RepoPath::new("vendor").unwrap()),
        Some(EntryKind::Dir)
    );

    // Local mode (every entry) sees the ignored files too.
    let all = Repo::new(&tree);
    let every = shown_files(&all);
    assert!(every.contains("node_modules/pkg/CLAUDE.md"));
    assert!(every.is_superset(&expected));
}

#[test]
fn a_launch_directory_walks_only_its_chain_and_subtree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "CLAUDE.md", "root");
    write(root, ".claude/rules/a.md", "rule");
    write(root, "apps/web/CLAUDE.md", "web");
    write(root, "apps/web/src/CLAUDE.md", "src");
    write(root, "apps/api/CLAUDE.md", "api");
    write(root, "libs/x/CLAUDE.md", "x");
    let tree = WorkingTree::open(root).unwrap();
    let cwd = RepoPath::new("apps/web").unwrap();
    let repo = Repo::with_options(
        &tree,
        RepoOptions {
            scope: WalkScope::Launch {
                cwd: cwd.clone(),
                entry_names: vec![".claude".to_string()],
            },
            ..RepoOptions::default()
        },
    );
    let listed: Vec<String> = repo
        .directories()
        .iter()
        .map(|d| d.as_str().to_string())
        .collect();
    // The chain, the root's .claude walked whole, the subtree of cwd; not
    // apps/api or libs (listed as entries of their parents, never opened).
    assert_eq!(
        listed,
        [
            ".",
            ".claude",
            ".claude/rules",
            "apps",
            "apps/api",
            "apps/web",
            "apps/web/src",
            "libs"
        ]
    );
    assert!(repo.directories().len() < 9);
    assert_eq!(
        repo.files_named_under("CLAUDE.md", &cwd),
        [
            RepoPath::new("apps/web/CLAUDE.md").unwrap(),
            RepoPath::new("apps/web/src/CLAUDE.md").unwrap()
        ]
    );
    // Asking beyond the walked part lists it then, and answers the same as
    // a whole walk.
    let whole = Repo::new(&tree);
    assert_eq!(
        repo.files_named("CLAUDE.md"),
        whole.files_named("CLAUDE.md")
    );
    assert_eq!(repo.directories(), whole.directories());
}

/// The index is read only when an ignored entry is met: a damaged index
/// (git's header, a truncated body) is reported once it was needed, and a
/// header that is not git's when the view is opened.
#[test]
fn the_index_is_read_when_an_ignored_entry_needs_it() {
    let make = |ignored: bool| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "CLAUDE.md", "root");
        write(root, ".gitignore", "CLAUDE.local.md\nbuild/\n");
        write(
            root,
            "CLAUDE.local.md",
            "personal, kept visible without the index",
        );
        if ignored {
            write(root, "build/out.js", "ignored");
        }
        git(root, &["init", "-q"]);
        git(root, &["add", "-A"]);
        // Git's signature and version 2, then a body cut short.
        let index = root.join(".git/index");
        let bytes = std::fs::read(&index).unwrap();
        std::fs::write(&index, &bytes[..bytes.len().min(40)]).unwrap();
        dir
    };
    let rule = |root: &Path| {
        let tree = WorkingTree::open(root).unwrap();
        let repo = Repo::with_options(&tree, git_view(root));
        let shown = shown_files(&repo);
        (repo.file_rule(), shown)
    };
    let clean = make(false);
    let (r, shown) = rule(clean.path());
    assert_eq!(
        r,
        FileRule::Git {
            index_problem: None
        }
    );
    assert!(shown.contains("CLAUDE.local.md"));
    let needed = make(true);
    let (r, shown) = rule(needed.path());
    match r {
        FileRule::Git {
            index_problem: Some(p),
        } => assert!(p.starts_with("the git index could not be read"), "{p}"),
        other => panic!("{other:?}"),
    }
    assert!(!shown.contains("build/out.js"));
    let foreign = make(false);
    std::fs::write(foreign.path().join(".git/index"), b"not an index at all").unwrap();
    let view = GitView::open(foreign.path(), &[]).unwrap();
    assert!(view
        .index_problem()
        .is_some_and(|p| p.contains("signature")));
}

//! `Repo::sharing`: the walk of a second commit that borrows the listings
//! of the subtrees whose tree id is the same in a first one answers every
//! question as a walk of its own does, while listing only what changed.

use playbookdiff_model::RepoPath;
use playbookdiff_source::{GitRepository, Repo, RepoOptions, Visibility, WalkScope};
use playbookdiff_testkit::corpus::git;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn options(excludes: &[&str]) -> RepoOptions {
    RepoOptions {
        visibility: Visibility::Committed,
        excludes: excludes.iter().map(|s| s.to_string()).collect(),
        scope: WalkScope::Whole,
    }
}

/// Two commits: the second edits one nested file, adds a directory and
/// removes another; an unchanged subtree holds a submodule (a walk
/// problem) and files every by-name question finds.
fn two_commits() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    for (p, t) in [
        ("AGENTS.md", "# Root\n"),
        ("apps/api/AGENTS.md", "# API\n"),
        ("apps/api/src/main.rs", "fn main() {}\n"),
        ("apps/web/CLAUDE.md", "# Web\n"),
        ("apps/web/.claude/skills/s/SKILL.md", "---\nname: s\n---\n"),
        ("libs/a/x/AGENTS.md", "# x\n"),
        ("libs/a/x/y/AGENTS.md", "# y\n"),
        ("libs/b/CLAUDE.md", "# b\n"),
        ("vendor/gen/AGENTS.md", "# generated\n"),
        ("docs/guide.md", "guide\n"),
    ] {
        write(root, p, t);
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "one"]);
    let head = git(root, &["rev-parse", "HEAD"]);
    git(
        root,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{head},libs/a/sub"),
        ],
    );
    git(root, &["commit", "-qm", "submodule"]);
    let base = git(root, &["rev-parse", "HEAD"]);
    write(root, "apps/api/AGENTS.md", "# API\n\nUse tokio.\n");
    write(root, "new/pkg/AGENTS.md", "# new\n");
    git(root, &["rm", "-rq", "docs"]);
    // Not `add -A`, which would drop the submodule (no directory on disk).
    git(root, &["add", "apps", "new"]);
    git(root, &["commit", "-qm", "two"]);
    let head = git(root, &["rev-parse", "HEAD"]);
    (dir, base, head)
}

/// Every directory, its listing, and the by-name answers, as text.
fn answers(repo: &Repo<'_>, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for d in repo.directories() {
        let entries: Vec<String> = repo
            .list_dir(&d)
            .iter()
            .map(|e| format!("{}:{:?}", e.name, e.kind))
            .collect();
        out.push(format!("{d} = {}", entries.join(" ")));
        for name in names {
            let under: Vec<&str> = repo
                .files_named_under(name, &d)
                .iter()
                .map(|p| p.as_str())
                .collect();
            out.push(format!("{name} under {d}: {}", under.join(" ")));
        }
    }
    for p in repo.walk_problems() {
        out.push(format!("problem {}: {}", p.path, p.message));
    }
    out
}

#[test]
fn a_shared_walk_answers_as_its_own_walk() {
    let (dir, base_rev, head_rev) = two_commits();
    let git = GitRepository::open(dir.path()).unwrap();
    let base_tree = git.tree(&git.commit(&base_rev).unwrap()).unwrap();
    let head_tree = git.tree(&git.commit(&head_rev).unwrap()).unwrap();
    let names = ["AGENTS.md", "CLAUDE.md", "SKILL.md", "missing.md"];
    for excludes in [&[][..], &["vendor/"][..]] {
        let base = Repo::with_options(&base_tree, options(excludes));
        let alone = Repo::with_options(&head_tree, options(excludes));
        let shared = Repo::sharing(&head_tree, options(excludes), &base);
        // The batched pass over both, as `diff` asks it.
        base.prefetch_named(&names);
        shared.prefetch_named(&names);
        assert_eq!(answers(&shared, &names), answers(&alone, &names));
        // The submodule of the unchanged `libs` is the head's problem too.
        assert!(
            shared
                .walk_problems()
                .iter()
                .any(|p| p.path.as_str() == "libs/a/sub"),
            "{:?}",
            shared.walk_problems()
        );
        // Only the changed directories and their children were listed:
        // the root, `apps`, `apps/api`, `new`, `new/pkg` (not `libs`,
        // `apps/web` or `vendor`, borrowed).
        assert!(
            shared.entry_count() < alone.entry_count() / 2,
            "{} entries listed, {} alone",
            shared.entry_count(),
            alone.entry_count()
        );
    }
    // Answers asked one name and one directory at a time, no prefetch.
    let base = Repo::with_options(&base_tree, options(&[]));
    let alone = Repo::with_options(&head_tree, options(&[]));
    let shared = Repo::sharing(&head_tree, options(&[]), &base);
    for d in ["libs", "libs/a", "apps", "."] {
        let d = RepoPath::new(d).unwrap_or_else(RepoPath::root);
        assert_eq!(
            shared.files_named_under("AGENTS.md", &d),
            alone.files_named_under("AGENTS.md", &d),
            "{d}"
        );
    }
}

#[test]
fn views_that_differ_share_nothing() {
    let (dir, base_rev, head_rev) = two_commits();
    let git = GitRepository::open(dir.path()).unwrap();
    let base_tree = git.tree(&git.commit(&base_rev).unwrap()).unwrap();
    let head_tree = git.tree(&git.commit(&head_rev).unwrap()).unwrap();
    let base = Repo::with_options(&base_tree, options(&["vendor/"]));
    let alone = Repo::with_options(&head_tree, options(&[]));
    let shared = Repo::sharing(&head_tree, options(&[]), &base);
    let names = ["AGENTS.md"];
    assert_eq!(answers(&shared, &names), answers(&alone, &names));
    assert_eq!(shared.entry_count(), alone.entry_count());
}

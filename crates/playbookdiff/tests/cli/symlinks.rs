//! `--cwd` and `--target` through symbolic links: analysed where they lead
//! inside the repository (as an agent launched there sees it), shown as
//! given in the header, refused when they lead out of the repository.
#![cfg(unix)]

use assert_cmd::Command;
use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), target).unwrap();
        } else if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The example monorepo with `apps/apilink -> api` and `apps/up -> ..`.
fn example_with_links() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/monorepo");
    copy_dir(&example, dir.path());
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::create_dir_all(dir.path().join("apps/api/src")).unwrap();
    std::os::unix::fs::symlink("api", dir.path().join("apps/apilink")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("apps/up")).unwrap();
    dir
}

fn run(repo: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(args)
        .arg(repo)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(repo: &Path, args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(repo, args);
    assert!(code == 0 || code == 1, "{args:?}: {code} {err}");
    assert!(err.is_empty(), "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_symlinked_cwd_is_analysed_in_the_directory_it_leads_to() {
    let repo = example_with_links();
    for harness in ["claude-code", "codex"] {
        let via = json(
            repo.path(),
            &[
                "compile",
                "--harness",
                harness,
                "--cwd",
                "apps/apilink",
                "--json",
            ],
        );
        let direct = json(
            repo.path(),
            &[
                "compile",
                "--harness",
                harness,
                "--cwd",
                "apps/api",
                "--json",
            ],
        );
        assert_eq!(via, direct, "{harness}");
        assert_eq!(via["context"]["cwd"], "apps/api");
        let paths: Vec<&str> = via["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["source"]["path"].as_str().unwrap())
            .collect();
        assert!(
            !paths.iter().any(|p| p.starts_with("apps/apilink")),
            "{harness}: {paths:?}"
        );
    }
    let claude = json(repo.path(), &["compile", "--cwd", "apps/apilink", "--json"]);
    let own = claude["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["source"]["path"] == "apps/api/CLAUDE.md")
        .unwrap();
    assert_eq!(own["applicability"], "effective");
    assert_eq!(own["loadPhase"], "startup");
}

#[test]
fn the_header_shows_the_link_and_where_it_leads() {
    let repo = example_with_links();
    let (code, text, err) = run(repo.path(), &["compile", "--cwd", "apps/apilink"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        text.contains("  cwd         apps/api (via apps/apilink)\n"),
        "{text}"
    );
    let (_, text, err) = run(repo.path(), &["check", "--cwd", "apps/apilink"]);
    assert!(err.is_empty(), "{err}");
    assert!(
        text.contains("  cwd         apps/api (via apps/apilink)\n"),
        "{text}"
    );
    let (code, text, err) = run(repo.path(), &["--cwd", "apps/apilink"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        text.contains("launched in apps/api (via apps/apilink)"),
        "{text}"
    );
    // The pointers name the directory the link leads to.
    assert!(
        text.contains("--cwd apps/api\n") || text.contains("--cwd apps/api "),
        "{text}"
    );
    assert!(!text.contains("--cwd apps/apilink"), "{text}");
}

#[test]
fn a_cwd_linking_to_an_ancestor_is_that_ancestor_without_duplicates() {
    let repo = example_with_links();
    for harness in ["claude-code", "codex"] {
        let via = json(
            repo.path(),
            &[
                "compile",
                "--harness",
                harness,
                "--cwd",
                "apps/up",
                "--json",
            ],
        );
        let root = json(repo.path(), &["compile", "--harness", harness, "--json"]);
        assert_eq!(via, root, "{harness}");
        let ids: Vec<&str> = via["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap())
            .collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(ids.len(), unique.len(), "{harness}: {ids:?}");
    }
    let (_, text, _) = run(repo.path(), &["compile", "--cwd", "apps/up"]);
    assert!(
        text.contains("  cwd         . (the repository root, via apps/up)\n"),
        "{text}"
    );
}

#[test]
fn a_target_in_a_symlinked_directory_is_resolved() {
    let repo = example_with_links();
    let v = json(
        repo.path(),
        &["check", "--target", "apps/apilink/src/new.ts", "--json"],
    );
    assert_eq!(v["context"]["targetPath"], "apps/api/src/new.ts");
    let direct = json(
        repo.path(),
        &["check", "--target", "apps/api/src/new.ts", "--json"],
    );
    assert_eq!(v, direct);
    let (_, text, _) = run(
        repo.path(),
        &["check", "--target", "apps/apilink/src/new.ts"],
    );
    assert!(
        text.contains("  target      apps/api/src/new.ts (via apps/apilink/src/new.ts)\n"),
        "{text}"
    );
}

#[test]
fn a_target_leading_out_of_the_repository_through_a_link_is_refused() {
    let repo = example_with_links();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join("out")).unwrap();
    for target in ["out/new.ts", "out", "out/a/b.ts"] {
        for command in [&["check"][..], &["compile"][..], &[][..]] {
            let mut args: Vec<&str> = command.to_vec();
            args.extend(["--target", target]);
            let (code, out, err) = run(repo.path(), &args);
            assert_eq!(code, 2, "{args:?}: {out}");
            assert!(out.is_empty(), "{args:?}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with("error: --target") && err.contains("symbolic link"),
                "{err}"
            );
        }
    }
}

//! The shared corpus as tests meet it: `../shared/corpus/<owner>__<name>/`
//! beside the workspace, holding `repo.tar` (the exact tree, symbolic links
//! included, some of them dangling) and `repo/` (the same files with links
//! stored as small text files, as a checkout with `core.symlinks=false`
//! gives). Tests use both forms, and skip with a visible line when the
//! corpus is absent. Also [`git`], which scripts throwaway repositories.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The workspace root (the directory of the top `Cargo.toml`).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A line on standard error that `cargo test` shows without
/// `--nocapture`: written to the stream itself, not through `eprintln!`,
/// which the test harness captures.
pub fn visible(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// `../shared/corpus` from the workspace root, or `None` after printing a
/// visible `skipped` line naming `test`.
pub fn corpus_root(test: &str) -> Option<PathBuf> {
    let root = workspace().join("../shared/corpus");
    if root.is_dir() {
        Some(root)
    } else {
        visible(&format!(
            "skipped: {test}: ../shared/corpus is absent, nothing checked"
        ));
        None
    }
}

/// Every `<owner>__<name>` folder with a `repo.tar` and a `repo/`, sorted.
pub fn repositories(corpus: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus)
        .expect("corpus directory")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("repo").is_dir() && e.path().join("repo.tar").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The two forms of one corpus repository.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `repo.tar` extracted into a temporary directory, links intact.
    Tar,
    /// `repo/` as stored, links as text files.
    LinksAsText,
}

impl Form {
    /// Both forms, the tar first.
    pub const BOTH: [Form; 2] = [Form::Tar, Form::LinksAsText];
}

/// A repository on disk in one form; a temporary extraction is removed on
/// drop.
pub struct Materialized {
    /// The repository's root directory.
    pub root: PathBuf,
    _temp: Option<tempfile::TempDir>,
}

/// `name`'s repository in `form`.
pub fn materialize(corpus: &Path, name: &str, form: Form) -> Materialized {
    match form {
        Form::LinksAsText => Materialized {
            root: corpus.join(name).join("repo"),
            _temp: None,
        },
        Form::Tar => {
            let dir = tempfile::tempdir().expect("temporary directory");
            extract(&corpus.join(name).join("repo.tar"), dir.path());
            Materialized {
                root: dir.path().join("repo"),
                _temp: Some(dir),
            }
        }
    }
}

/// Extracts `tar` into `dest` with the `tar` crate: symbolic links are
/// created as stored, whether or not their target exists.
pub fn extract(tar: &Path, dest: &Path) {
    let file = std::fs::File::open(tar).unwrap_or_else(|e| panic!("{}: {e}", tar.display()));
    tar::Archive::new(file)
        .unpack(dest)
        .unwrap_or_else(|e| panic!("{}: {e}", tar.display()));
}

/// Runs git in `dir` with no user, system or global configuration and a
/// fixed author and date (the same history has the same commit ids on
/// every run); returns its standard output, trimmed. Panics when git
/// fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("HOME", dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("git prints UTF-8")
        .trim()
        .to_string()
}

/// An empty directory to pass as `--home` to a `--mode local` run, made
/// once per test process (and kept until it exits), so that the run reads
/// no user layer of whoever runs the tests: the answer is the same on
/// every machine. A UTF-8 path, since it is given as an argument.
///
/// Panics when the directory cannot be made (a test environment fault).
pub fn empty_home() -> &'static str {
    static HOME: std::sync::OnceLock<(tempfile::TempDir, String)> = std::sync::OnceLock::new();
    let (_, path) = HOME.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("playbookdiff-empty-home")
            .tempdir()
            .expect("a temporary directory for an empty home");
        let path = dir
            .path()
            .to_str()
            .expect("a UTF-8 temporary path")
            .to_owned();
        (dir, path)
    });
    path
}

//! The git side of signed rulings: the brief as committed at HEAD, the
//! blame of a row's line and the commit objects (read with gix through
//! `playbookdiff_source::GitRepository`), and the allowed signers file as
//! the base branch holds it. `playbookdiff_round::rulings` decides.

use playbookdiff_model::RepoPath;
use playbookdiff_round::rulings::{self, CheckedRuling, History};
use playbookdiff_round::signers::{self, AllowedSigners};
use playbookdiff_round::Brief;
use playbookdiff_source::{CommitId, GitRepository, SourceTree};
use std::path::Path;

/// The allowed signers file when the base branch's `playbookdiff.toml`
/// names none (`allowed-signers`).
pub(crate) const DEFAULT_ALLOWED_SIGNERS: &str = ".github/allowed_signers";

/// The largest file read from a commit here: 1 MiB (1,048,576 bytes).
const MAX_BYTES: u64 = 1 << 20;

/// The brief at `path` in the repository at `root`, through git.
struct GitHistory<'a> {
    git: &'a GitRepository,
    head: Option<CommitId>,
    path: &'a str,
}

impl History for GitHistory<'_> {
    fn brief_at_head(&self) -> Result<Option<String>, String> {
        let Some(head) = &self.head else {
            return Ok(None);
        };
        match read_at(self.git, head, self.path) {
            Ok(text) => Ok(Some(text)),
            Err(ReadAt::Missing) => Ok(None),
            Err(ReadAt::Failed(e)) => Err(e),
        }
    }

    fn blame(&self, line: u32) -> Result<String, String> {
        let head = self.head.as_ref().ok_or("no commit yet")?;
        self.git
            .blame_line(head, self.path, line)
            .map(|c| c.hex())
            .map_err(|e| e.to_string())
    }

    fn commit_object(&self, id: &str) -> Result<Vec<u8>, String> {
        let commit = self.git.commit(id).map_err(|e| e.to_string())?;
        self.git.commit_object(&commit).map_err(|e| e.to_string())
    }
}

enum ReadAt {
    Missing,
    Failed(String),
}

fn read_at(git: &GitRepository, commit: &CommitId, path: &str) -> Result<String, ReadAt> {
    let tree = git
        .tree(commit)
        .map_err(|e| ReadAt::Failed(e.to_string()))?;
    let rel = RepoPath::new(path).ok_or(ReadAt::Missing)?;
    match tree.read_file(&rel, MAX_BYTES) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| ReadAt::Failed(format!("{path} is not UTF-8 text"))),
        Err(playbookdiff_source::SourceError::NotFound(_)) => Err(ReadAt::Missing),
        Err(e) => Err(ReadAt::Failed(e.to_string())),
    }
}

/// The allowed signers of the rulings, and where they were read (`FILE
/// on BRANCH`): the file `allowed-signers` in the base branch's
/// `playbookdiff.toml` names (default [`DEFAULT_ALLOWED_SIGNERS`]), as the
/// base branch holds it. The base branch is the brief's `baseBranch`, as
/// a local branch or, failing that, `origin`'s.
///
/// # Errors
/// One sentence: no `baseBranch`, no such branch, no such file.
pub(crate) fn allowed_signers(
    git: &GitRepository,
    brief: &Brief,
) -> Result<(AllowedSigners, String), String> {
    let Some(base) = brief.base_branch.as_deref() else {
        return Err(
            "the brief names no `baseBranch`, whose allowed signers decide who may rule; add one"
                .into(),
        );
    };
    let commit = [
        format!("refs/heads/{base}"),
        format!("refs/remotes/origin/{base}"),
    ]
    .iter()
    .find_map(|rev| git.commit(rev).ok())
    .ok_or_else(|| format!("the base branch `{base}` is not in this repository; fetch it"))?;
    let file = match read_at(git, &commit, playbookdiff_config::FILE_NAME) {
        Ok(text) => configured_file(&text),
        Err(_) => None,
    }
    .unwrap_or_else(|| DEFAULT_ALLOWED_SIGNERS.to_string());
    match read_at(git, &commit, &file) {
        Ok(text) => Ok((signers::parse(&text), format!("{file} on {base}"))),
        Err(ReadAt::Missing) => Err(format!(
            "the base branch `{base}` has no allowed signers file `{file}`; a person adds it there"
        )),
        Err(ReadAt::Failed(e)) => Err(format!("`{file}` on `{base}` cannot be read ({e})")),
    }
}

/// `allowed-signers` of a `playbookdiff.toml` text, when set.
fn configured_file(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let value = table.get("allowed-signers")?.as_str()?.trim();
    let inside =
        !value.is_empty() && !value.starts_with('/') && !value.split('/').any(|c| c == "..");
    inside.then(|| value.to_string())
}

/// The rows of `brief` (at repository-relative `path` under `root`), each
/// checked ([`rulings::check`]), with where the allowed signers were read
/// or why they could not be, and the lines of that file that allow no one.
pub(crate) fn check(
    root: &Path,
    path: &str,
    brief: &Brief,
) -> (Vec<CheckedRuling>, String, Vec<String>) {
    let git = match GitRepository::open(root) {
        Ok(g) => g,
        Err(e) => {
            let why = format!("the repository's history cannot be read ({e})");
            let none = Err(why.clone());
            let history = NoGit(why.clone());
            return (rulings::check(brief, &history, &none), why, Vec::new());
        }
    };
    let history = GitHistory {
        head: git.commit("HEAD").ok(),
        git: &git,
        path,
    };
    let found = allowed_signers(&git, brief);
    let (signers, source, problems) = match found {
        Ok((s, source)) => {
            let problems = s
                .problems
                .iter()
                .map(|p| format!("line {}: {}", p.line, p.message))
                .collect();
            (Ok(s), source, problems)
        }
        Err(why) => (Err(why.clone()), why, Vec::new()),
    };
    (rulings::check(brief, &history, &signers), source, problems)
}

/// A repository whose history cannot be read: every row fails with why.
struct NoGit(String);

impl History for NoGit {
    fn brief_at_head(&self) -> Result<Option<String>, String> {
        Err(self.0.clone())
    }
    fn blame(&self, _line: u32) -> Result<String, String> {
        Err(self.0.clone())
    }
    fn commit_object(&self, _id: &str) -> Result<Vec<u8>, String> {
        Err(self.0.clone())
    }
}

/// What the verdicts of the rulings depend on besides the rows' text:
/// HEAD's commit and the base branch's (`HEAD <id> BASE <id>`), or `None`
/// when either cannot be read (then nothing is cached).
pub(crate) fn history_key(root: &Path, brief: &Brief) -> Option<String> {
    let git = GitRepository::open(root).ok()?;
    let head = git.commit("HEAD").ok()?;
    let base = brief.base_branch.as_deref()?;
    let base = [
        format!("refs/heads/{base}"),
        format!("refs/remotes/origin/{base}"),
    ]
    .iter()
    .find_map(|rev| git.commit(rev).ok())?;
    Some(format!("HEAD {} BASE {}", head.hex(), base.hex()))
}

/// The text of the brief at repository-relative `path` as the base branch
/// (the brief's `baseBranch`) holds it, when it does.
pub(crate) fn brief_at_base(root: &Path, path: &str, brief: &Brief) -> Option<String> {
    let git = GitRepository::open(root).ok()?;
    let base = brief.base_branch.as_deref()?;
    let commit = [
        format!("refs/heads/{base}"),
        format!("refs/remotes/origin/{base}"),
    ]
    .iter()
    .find_map(|rev| git.commit(rev).ok())?;
    read_at(&git, &commit, path).ok()
}

//! The briefs on disk: every brief of the briefs folder read, and the
//! brief the guard works under for one hook call (`PLAYBOOKDIFF_BRIEF`,
//! else the branch; docs/rounds.md). Compiled into `playbookdiff` and the
//! small `playbookdiff-guard`.

use crate::round_rulings;
use playbookdiff_guard::brief_scope::{BriefScope, VerifiedRulings};
use playbookdiff_round::rulings::Decision;
use playbookdiff_round::select::{self, Head, Sources, BRIEF_VARIABLE};
use playbookdiff_round::{Brief, FilePattern};
use std::path::{Path, PathBuf};

/// The briefs folder when `playbookdiff.toml` names none.
pub(crate) const DEFAULT_BRIEFS: &str = "briefs";

/// Every `*.md` file below `dir`, not following symbolic links, in path
/// order, parsed; and the paths of those that are not UTF-8 text.
pub(crate) fn read_briefs(root: &Path, dir: &Path) -> (Vec<(String, Brief)>, Vec<String>) {
    let mut briefs = Vec::new();
    let mut unreadable = Vec::new();
    let files = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"));
    for entry in files {
        let path = posix_relative(root, entry.path());
        match std::fs::read_to_string(entry.path()) {
            Ok(text) => briefs.push((path, playbookdiff_round::brief::parse(&text))),
            Err(_) => unreadable.push(path),
        }
    }
    (briefs, unreadable)
}

fn posix_relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The brief the guard works under in the work tree at `root` on
/// `branch` (`None`: detached or unknown), with `variable` the value of
/// `PLAYBOOKDIFF_BRIEF`: `None` when nothing names one (the guard answers
/// as without rounds); [`BriefScope::Unusable`] when the named brief
/// cannot be found or the briefs folder cannot be read. The brief's
/// scope is the base branch's copy's when the base holds the brief
/// ([`scope_from_base`]). Costs one walk of the briefs folder and, when
/// the base commit is not the one cached, one read of the brief at the
/// base branch ([`base_text`]); the
/// rulings' commits are read only for a protected path a ruling names
/// ([`Rulings`]).
pub(crate) fn active_scope(
    root: &Path,
    branch: Option<String>,
    variable: Option<&str>,
    state_dir: Option<PathBuf>,
) -> Option<BriefScope> {
    let head = branch.map_or(Head::Unknown, Head::Branch);
    let sources = Sources {
        flag: None,
        variable,
        head,
        ci: Vec::new(),
    };
    let selection = select::select(&sources).ok()?;
    let folder = match briefs_folder(root) {
        Ok(f) => f,
        Err(why) => return Some(BriefScope::Unusable(why)),
    };
    let (briefs, _) = read_briefs(root, &root.join(&folder));
    let mut matching = briefs.into_iter().filter(|(_, b)| b.id == selection.id);
    let found = match (matching.next(), matching.next()) {
        (Some(one), None) => one,
        (Some(_), Some(_)) => {
            return Some(BriefScope::Unusable(format!(
                "two briefs have the id `{}` ({})",
                selection.id,
                selection.by.describe()
            )))
        }
        (None, _) => {
            return Some(BriefScope::Unusable(format!(
                "no brief in `{folder}/` has the id `{}` ({})",
                selection.id,
                selection.by.describe()
            )))
        }
    };
    let (path, mut brief) = found;
    // The scope is the base branch's copy's: the brief is writable (an
    // escalation is a row of it), so the round's copy may widen it.
    if let Some(text) = base_text(root, &path, &brief, state_dir.as_deref()) {
        let base = playbookdiff_round::brief::parse(&text);
        scope_from_base(&mut brief, base);
    }
    let rulings = Rulings {
        root: root.to_path_buf(),
        path: path.clone(),
        brief: brief.clone(),
        state_dir,
    };
    Some(BriefScope::Read {
        path,
        brief: Box::new(brief),
        rulings: Box::new(rulings),
    })
}

/// Takes `affectedFiles`, `outOfScope` and `baseBranch` from the base
/// branch's copy of the brief, and adds its `protectedFiles` to the
/// working copy's (a round may protect more, never less). The Rulings
/// rows stay the working copy's: a row counts only when its commit's
/// signature verifies, wherever it is written.
fn scope_from_base(brief: &mut Brief, base: Brief) {
    let mine: Vec<String> = brief
        .protected_files
        .iter()
        .map(|p| p.raw.clone())
        .collect();
    let more = base
        .protected_files
        .into_iter()
        .filter(|p| !mine.contains(&p.raw));
    brief.protected_files.extend(more);
    brief.affected_files = base.affected_files;
    brief.out_of_scope = base.out_of_scope;
    brief.base_branch = base.base_branch;
}

/// The brief at repository-relative `path` as the base branch holds it
/// (`None`: the base branch or the brief there is not found). Cached in
/// `<state_dir>/brief-base` under the base commit's id, which is read
/// from the ref files without opening the repository
/// ([`base_commit_id`]): a call whose base has not moved reads one small
/// file; a moved base reads the brief from git objects again.
fn base_text(root: &Path, path: &str, brief: &Brief, state_dir: Option<&Path>) -> Option<String> {
    let cache = state_dir.map(|d| d.join("brief-base"));
    let commit = state_dir
        .and_then(Path::parent)
        .zip(brief.base_branch.as_deref())
        .and_then(|(common, base)| base_commit_id(common, base));
    let key = commit.map(|c| format!("{c} {path}\n"));
    if let (Some(key), Some(cache)) = (&key, &cache) {
        if let Some(rest) = std::fs::read_to_string(cache)
            .ok()
            .and_then(|t| t.strip_prefix(key.as_str()).map(str::to_string))
        {
            return rest.strip_prefix("present\n").map(str::to_string);
        }
    }
    let text = round_rulings::brief_at_base(root, path, brief);
    if let (Some(key), Some(cache)) = (key, cache) {
        let body = match &text {
            Some(t) => format!("{key}present\n{t}"),
            None => format!("{key}absent\n"),
        };
        let _ = std::fs::create_dir_all(cache.parent().unwrap_or(&cache));
        let _ = std::fs::write(&cache, body);
    }
    text
}

/// The commit id (hex) of branch `base` in the git common directory
/// `common`: `refs/heads/BASE`, else `refs/remotes/origin/BASE`, each as
/// a loose ref file or a line of `packed-refs` (git's "gitrepository-
/// layout"). `None` when neither is found or a ref is symbolic (then the
/// caller reads through gix and caches nothing).
pub(crate) fn base_commit_id(common: &Path, base: &str) -> Option<String> {
    if base
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return None;
    }
    let packed = std::fs::read_to_string(common.join("packed-refs")).unwrap_or_default();
    let names = [
        format!("refs/heads/{base}"),
        format!("refs/remotes/origin/{base}"),
    ];
    names.iter().find_map(|name| {
        let loose = std::fs::read_to_string(common.join(name)).ok();
        let id = loose.map(|t| t.trim().to_string()).or_else(|| {
            packed.lines().find_map(|l| {
                let (id, n) = l.split_once(' ')?;
                (n.trim() == name).then(|| id.to_string())
            })
        })?;
        let hex = id.len() >= 40 && id.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then_some(id)
    })
}

/// `PLAYBOOKDIFF_BRIEF`, as the hook's environment holds it.
pub(crate) fn brief_variable() -> Option<String> {
    std::env::var(BRIEF_VARIABLE).ok()
}

/// The briefs folder, from `briefs` in `playbookdiff.toml` (default
/// [`DEFAULT_BRIEFS`]).
///
/// # Errors
/// `playbookdiff.toml` cannot be read, or `briefs` is not a folder inside
/// the repository.
fn briefs_folder(root: &Path) -> Result<String, String> {
    let text = match std::fs::read_to_string(root.join(playbookdiff_config::FILE_NAME)) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(DEFAULT_BRIEFS.into()),
        Err(e) => return Err(format!("playbookdiff.toml cannot be read ({e})")),
    };
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| format!("playbookdiff.toml: {}", e.message()))?;
    let Some(value) = table.get("briefs") else {
        return Ok(DEFAULT_BRIEFS.into());
    };
    let folder = value
        .as_str()
        .unwrap_or_default()
        .trim()
        .trim_end_matches('/');
    if folder.is_empty() || folder.starts_with('/') || folder.split('/').any(|c| c == "..") {
        return Err("`briefs` in playbookdiff.toml is not a folder inside the repository".into());
    }
    Ok(folder.to_string())
}

/// The verified rulings of one brief, checked from git objects when a
/// protected path is written and an `allowed` row names it. The verdicts
/// are kept in `<git-common-dir>/playbookdiff/rulings` for one HEAD and
/// base commit: a later call reads them instead of blaming the brief
/// again (a row's verdict depends only on its text and those commits).
struct Rulings {
    root: PathBuf,
    path: String,
    brief: Brief,
    state_dir: Option<PathBuf>,
}

impl VerifiedRulings for Rulings {
    fn allowing(&self, rel: &str) -> Option<String> {
        let names = |r: &playbookdiff_round::Ruling, d: Decision| {
            Decision::of(r.cell("status").unwrap_or_default()) == d
                && FilePattern::new(r.cell("path").unwrap_or_default()).matches(rel)
        };
        if !self.brief.rulings.iter().any(|r| names(r, Decision::Allow)) {
            return None;
        }
        let verified = self.verified_lines();
        let counts = |r: &playbookdiff_round::Ruling, d: Decision| {
            names(r, d)
                && verified
                    .iter()
                    .any(|v| Some(v.as_str()) == row_text(&self.brief, r))
        };
        if self.brief.rulings.iter().any(|r| counts(r, Decision::Deny)) {
            return None;
        }
        self.brief
            .rulings
            .iter()
            .find(|r| counts(r, Decision::Allow))
            .map(|r| r.cell("id").unwrap_or_default().to_string())
    }
}

impl Rulings {
    /// The text of each row whose ruling is verified, from the cache when
    /// it was written for the same HEAD and base commits and knows every
    /// row, else checked and cached.
    fn verified_lines(&self) -> Vec<String> {
        let key = round_rulings::history_key(&self.root, &self.brief);
        let cache = self.state_dir.as_ref().map(|d| d.join("rulings"));
        let rows: Vec<&str> = self
            .brief
            .rulings
            .iter()
            .filter_map(|r| row_text(&self.brief, r))
            .collect();
        if let (Some(key), Some(text)) = (
            &key,
            cache.as_ref().and_then(|c| std::fs::read_to_string(c).ok()),
        ) {
            let mut lines = text.lines();
            let known: Vec<(&str, &str)> = lines
                .by_ref()
                .skip(1)
                .filter_map(|l| l.split_once('\t'))
                .collect();
            let same = text.lines().next() == Some(&format!("{key} {}", self.path));
            if same && rows.iter().all(|r| known.iter().any(|(_, t)| t == r)) {
                return known
                    .iter()
                    .filter(|(v, _)| *v == "1")
                    .map(|(_, t)| t.to_string())
                    .collect();
            }
        }
        let (checked, _, _) = round_rulings::check(&self.root, &self.path, &self.brief);
        let verdicts: Vec<(bool, &str)> = checked
            .iter()
            .filter_map(|c| Some((c.verdict.is_ok(), row_text(&self.brief, &c.row)?)))
            .collect();
        if let (Some(key), Some(cache)) = (key, cache) {
            let mut text = format!("{key} {}\n", self.path);
            for (ok, row) in &verdicts {
                text.push_str(&format!("{}\t{row}\n", u8::from(*ok)));
            }
            let _ = std::fs::create_dir_all(cache.parent().unwrap_or(&cache));
            let _ = std::fs::write(&cache, text);
        }
        verdicts
            .into_iter()
            .filter(|(ok, _)| *ok)
            .map(|(_, t)| t.to_string())
            .collect()
    }
}

/// The line of `row` in the brief's text, trailing spaces trimmed.
fn row_text<'a>(brief: &'a Brief, row: &playbookdiff_round::Ruling) -> Option<&'a str> {
    let index = usize::try_from(row.line.checked_sub(1)?).ok()?;
    brief.text.lines().nth(index).map(str::trim_end)
}

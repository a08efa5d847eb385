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
/// cannot be found or the briefs folder cannot be read. Costs one walk of
/// the briefs folder when a brief is named; git objects are read only for
/// a protected path a ruling names ([`Rulings`]).
pub(crate) fn active_scope(
    root: &Path,
    branch: Option<String>,
    variable: Option<&str>,
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
    let (path, brief) = found;
    let rulings = Rulings {
        root: root.to_path_buf(),
        path: path.clone(),
        brief: brief.clone(),
    };
    Some(BriefScope::Read {
        path,
        brief,
        rulings: Box::new(rulings),
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
/// protected path is written and an `allowed` row names it.
struct Rulings {
    root: PathBuf,
    path: String,
    brief: Brief,
}

impl VerifiedRulings for Rulings {
    fn allowing(&self, rel: &str) -> Option<String> {
        let candidate = self.brief.rulings.iter().any(|r| {
            Decision::of(r.cell("status").unwrap_or_default()) == Decision::Allow
                && FilePattern::new(r.cell("path").unwrap_or_default()).matches(rel)
        });
        if !candidate {
            return None;
        }
        let (checked, _, _) = round_rulings::check(&self.root, &self.path, &self.brief);
        let denied = checked.iter().any(|c| {
            c.decision == Decision::Deny
                && c.verdict.is_ok()
                && FilePattern::new(c.path()).matches(rel)
        });
        if denied {
            return None;
        }
        checked
            .iter()
            .find(|c| c.allows(rel))
            .map(|c| c.id().to_string())
    }
}

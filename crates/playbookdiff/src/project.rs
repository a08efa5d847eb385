//! The project configuration file: finding it, reading it, and writing an
//! accepted finding into it (`check --accept ID --reason TEXT`).
//!
//! `playbookdiff.toml` is looked for in the repository root: REPO, or
//! without REPO the nearest directory holding `.git` found by walking up
//! from the current directory, so a command run anywhere in the repository
//! finds it. It is not looked for above REPO: a repository analysed inside
//! another one (a test fixture) is not governed by the outer one's file.
//! `--config PATH` names it instead. Parsing and editing are `playbookdiff_config`'s; this
//! module does the file I/O and turns errors into one-line usage errors
//! (exit status 2) that name the file, line and column.

use crate::context::UsageError;
use playbookdiff_compare::AcceptedFinding;
use playbookdiff_config::{ProjectConfig, FILE_NAME};
use std::path::{Path, PathBuf};

/// A configuration file that was found and parsed.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// Where it is.
    pub path: PathBuf,
    /// How to name it in messages (as given, or relative to the current
    /// directory when that is shorter).
    pub label: String,
    /// Its text.
    pub text: String,
    /// Its content.
    pub config: ProjectConfig,
    /// The repository root relative to the file's directory (`""` when the
    /// file is at the root, or not above it), for matching `exclude`
    /// patterns.
    pub repo_prefix: String,
}

/// The file to use for the repository at `root`: `explicit` (from
/// `--config`, relative to `current_dir`), else `playbookdiff.toml` in
/// `root` when there is one.
///
/// The repository's own file is part of the repository and is read like
/// its other files: a symbolic link is followed only to a regular file
/// inside the repository, so neither reading it nor `check --accept`
/// writing it reaches a file elsewhere. A file named with `--config` is the
/// user's choice and is taken as given.
///
/// # Errors
///
/// A [`UsageError`] when `playbookdiff.toml` at the root is a symbolic link
/// that leads out of the repository or nowhere (a loop, a missing target),
/// or is not a regular file (a directory, a FIFO); the message says to fix
/// it or to name a file with `--config`.
pub(crate) fn find(
    explicit: Option<&Path>,
    root: &Path,
    current_dir: Option<&Path>,
) -> Result<Option<PathBuf>, UsageError> {
    if let Some(p) = explicit {
        return Ok(Some(match current_dir {
            Some(here) if p.is_relative() => here.join(p),
            _ => p.to_path_buf(),
        }));
    }
    let candidate = root.join(FILE_NAME);
    let Ok(meta) = std::fs::symlink_metadata(&candidate) else {
        return Ok(None);
    };
    let refuse = |what: &str| -> Result<Option<PathBuf>, UsageError> {
        Err(UsageError(format!(
            "{FILE_NAME} at the repository root {what}; fix or remove it, or name the configuration file with --config PATH"
        )))
    };
    if meta.file_type().is_symlink() {
        let Ok(real) = std::fs::canonicalize(&candidate) else {
            return refuse("is a symbolic link that leads nowhere (a loop or a missing target)");
        };
        let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        if !real.starts_with(&real_root) {
            return refuse(
                "is a symbolic link that leads out of the repository, which PlaybookDiff does not read or write",
            );
        }
        if !real.is_file() {
            return refuse("is a symbolic link to something that is not a regular file");
        }
        return Ok(Some(candidate));
    }
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "a special file (a FIFO, a socket or a device)"
        };
        return refuse(&format!("is {kind}, not a regular file"));
    }
    Ok(Some(candidate))
}

fn label(path: &Path, current_dir: Option<&Path>) -> String {
    current_dir
        .and_then(|here| path.strip_prefix(here).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Finds and parses the configuration of the repository at `root`.
/// `Ok(None)` when there is none (and none was named).
///
/// # Errors
///
/// A [`UsageError`] naming the file (and line and column) when `--config`
/// names a file that cannot be read, when the file is not a valid
/// configuration, or when the repository's own file is a link out of the
/// repository or not a regular file (see [`find`]).
pub(crate) fn load(
    explicit: Option<&Path>,
    root: &Path,
    current_dir: Option<&Path>,
) -> Result<Option<Loaded>, UsageError> {
    let Some(path) = find(explicit, root, current_dir)? else {
        return Ok(None);
    };
    let label = match explicit {
        Some(given) => given.display().to_string(),
        None => label(&path, current_dir),
    };
    let text = read(&path, &label, explicit.is_some())?;
    let config = playbookdiff_config::parse(&text).map_err(|e| UsageError(e.render(&label)))?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let canonical_dir = dir.canonicalize().unwrap_or(dir);
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let repo_prefix = canonical_root
        .strip_prefix(&canonical_dir)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    Ok(Some(Loaded {
        path,
        label,
        text,
        config,
        repo_prefix,
    }))
}

/// The text of the configuration file at `path`, named `label` in
/// messages; `named` when `--config` named it (else it was found at the
/// repository root).
///
/// # Errors
///
/// A [`UsageError`] saying which file, what is wrong (unreadable, or not
/// UTF-8 text, with the 1-based line and column of the first bad byte)
/// and what to do; it blames `--config` only when that option named the
/// file.
fn read(path: &Path, label: &str, named: bool) -> Result<String, UsageError> {
    let what = if named {
        format!("--config '{label}'")
    } else {
        format!("the configuration file '{label}' (found at the repository root)")
    };
    let bytes = std::fs::read(path).map_err(|e| {
        let fix = if named {
            "pass a readable playbookdiff.toml"
        } else {
            "make it readable, or name another file with --config PATH"
        };
        UsageError(format!("{what} cannot be read ({e}); {fix}"))
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        let which = if named {
            "the file --config names"
        } else {
            "the configuration file (found at the repository root)"
        };
        UsageError(format!(
            "{label}:{line}:{column}: {which} is not UTF-8 text; save it as UTF-8, as TOML requires"
        ))
    })
}

/// The header of a configuration file that `--accept` creates.
const NEW_FILE_HEADER: &str = "\
# PlaybookDiff project configuration (see docs/ci.md).
# Accepted findings are differences the team intends; each needs a reason.
";

/// Records each of `entries` as accepted in `loaded`'s file, or in a new
/// `playbookdiff.toml` at `root` when there is none (one `[[accepted]]`
/// entry per id, in order); returns the label of the file written and,
/// per entry, the reason it replaced (an id accepted before).
///
/// # Errors
///
/// A [`UsageError`] when the file cannot be edited or written.
pub(crate) fn write_accepted(
    loaded: Option<&Loaded>,
    root: &Path,
    current_dir: Option<&Path>,
    entries: &[AcceptedFinding],
) -> Result<(String, Vec<Option<String>>), UsageError> {
    let (path, label, text) = match loaded {
        Some(l) => (l.path.clone(), l.label.clone(), l.text.clone()),
        None => {
            let path = root.join(FILE_NAME);
            let label = label(&path, current_dir);
            (path, label, NEW_FILE_HEADER.to_string())
        }
    };
    let mut updated = text;
    let mut replaced = Vec::new();
    for entry in entries {
        let a = playbookdiff_config::accept(&updated, entry)
            .map_err(|e| UsageError(e.render(&label)))?;
        updated = a.text;
        replaced.push(a.previous_reason);
    }
    std::fs::write(&path, updated).map_err(|e| {
        UsageError(format!(
            "'{label}' cannot be written ({e}); check the file's permissions"
        ))
    })?;
    Ok((label, replaced))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_at_the_root_only_or_named() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        std::fs::create_dir_all(top.join("fixtures/a")).unwrap();
        assert_eq!(find(None, top, None).unwrap(), None);
        std::fs::write(top.join(FILE_NAME), "").unwrap();
        assert_eq!(find(None, top, None).unwrap(), Some(top.join(FILE_NAME)));
        // A repository inside another is not governed by its file.
        assert_eq!(find(None, &top.join("fixtures/a"), None).unwrap(), None);
        // --config names any file; its directory above REPO anchors the
        // exclude patterns.
        let named = Path::new("playbookdiff.toml");
        assert_eq!(
            find(Some(named), &top.join("fixtures/a"), Some(top)).unwrap(),
            Some(top.join(FILE_NAME))
        );
        let l = load(Some(named), &top.join("fixtures/a"), Some(top))
            .unwrap()
            .unwrap();
        assert_eq!(l.repo_prefix, "fixtures/a");
        let l = load(None, top, Some(top)).unwrap().unwrap();
        assert_eq!(l.repo_prefix, "");
        assert_eq!(l.label, "playbookdiff.toml");
    }

    #[test]
    fn a_bad_file_is_one_line_with_file_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join(".git")).unwrap();
        std::fs::write(tmp.path().join(FILE_NAME), "\nfail-on = \"sometimes\"\n").unwrap();
        let e = load(None, tmp.path(), Some(tmp.path())).unwrap_err();
        assert!(e.0.starts_with("playbookdiff.toml:2:11: "), "{}", e.0);
        assert!(!e.0.contains('\n'), "{}", e.0);
        let e = load(Some(Path::new("nope.toml")), tmp.path(), Some(tmp.path())).unwrap_err();
        assert!(e.0.contains("'nope.toml' cannot be read"), "{}", e.0);
    }

    #[test]
    fn a_file_that_is_not_utf8_is_named_with_its_line_and_not_blamed_on_config() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("sub")).unwrap();
        std::fs::write(tmp.path().join(FILE_NAME), b"# ok\nfail-on = \"h\xe9\"\n").unwrap();
        // Found at the root (the current directory is below it).
        let e = load(None, tmp.path(), Some(&tmp.path().join("sub"))).unwrap_err();
        assert!(
            e.0.starts_with(&format!(
                "{}:2:13: the configuration file (found at the repository root) is not UTF-8 text",
                tmp.path().join(FILE_NAME).display(),
            )),
            "{}",
            e.0
        );
        assert!(!e.0.contains("--config"), "{}", e.0);
        assert!(
            e.0.ends_with("save it as UTF-8, as TOML requires"),
            "{}",
            e.0
        );
        // Named with --config: the option is named.
        let e = load(Some(Path::new(FILE_NAME)), tmp.path(), Some(tmp.path())).unwrap_err();
        assert!(
            e.0.starts_with("playbookdiff.toml:2:13: the file --config names is not UTF-8 text"),
            "{}",
            e.0
        );
    }
}

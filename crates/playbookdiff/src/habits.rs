//! What people type by habit, answered in one line: a misspelt command
//! (`checks`), a command after options or after REPO
//! (`playbookdiff --json check`, `playbookdiff repo check`), a misspelt
//! value (`--harness claude`).
//!
//! The command line reads its first free word as REPO when it is no
//! command, so without these checks `playbookdiff checks` would analyse a
//! directory named `checks`, or fail to find it. A word that names an
//! existing file or directory is always REPO: these answers only replace
//! the error a missing REPO would give.

use crate::cli::Cli;
use clap::CommandFactory;
use std::ffi::OsString;
use std::path::Path;

/// The names of the commands, as typed.
pub(crate) fn command_names() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// The candidate closest to `given` when it is a likely misspelling of it:
/// Levenshtein distance (in chars, case folded) at most a third of the
/// candidate's length (at least 1), or one is a prefix of the other
/// (3 chars at least). Ties go to the first candidate.
pub(crate) fn closest<'a>(given: &str, candidates: &'a [String]) -> Option<&'a str> {
    let given = given.to_lowercase();
    candidates
        .iter()
        .map(|c| (strsim::levenshtein(&given, c), c.as_str()))
        .filter(|(d, c)| {
            *d <= (c.chars().count() / 3).max(1)
                || (given.chars().count() >= 3 && (c.starts_with(&given) || given.starts_with(c)))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// When the REPO of the view is no existing path but reads as a command:
/// the one line to print instead (exit status 2). `args` are the
/// arguments as given (the program name first); `current_dir` is where a
/// relative REPO starts.
pub(crate) fn misread_repository(
    repo: Option<&Path>,
    args: &[OsString],
    current_dir: Option<&Path>,
) -> Option<String> {
    let repo = repo?;
    let word = repo.to_str()?;
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let present = match current_dir {
        Some(here) => exists(&here.join(repo)),
        None => repo.is_absolute() && exists(repo),
    };
    if present {
        return None;
    }
    let names = command_names();
    if names.iter().any(|n| n == word) {
        return Some(put_command_first(word, args));
    }
    let close = closest(word, &names)?;
    Some(format!(
        "unknown command '{word}'; did you mean '{close}'? (no directory '{word}' exists either; see 'playbookdiff --help')"
    ))
}

/// "put the command first", with the command line rewritten that way.
pub(crate) fn put_command_first(command: &str, args: &[OsString]) -> String {
    let mut rest: Vec<String> = Vec::new();
    let mut moved = false;
    for a in args.iter().skip(1) {
        let a = a.to_string_lossy();
        if !moved && a == command {
            moved = true;
            continue;
        }
        rest.push(shell_word(&a));
    }
    let mut line = format!("put the command first: playbookdiff {command}");
    for r in rest {
        line.push(' ');
        line.push_str(&r);
    }
    line
}

/// The view (no command) prints text for people only: the line that says
/// so and gives the command for tools, `check` with the same arguments
/// and `--format json` (`--json`, `--format X` and `--format=X` left out).
fn view_is_text(words: &[String]) -> String {
    let mut rest: Vec<String> = Vec::new();
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
            continue;
        }
        if w == "--format" {
            skip = true;
            continue;
        }
        if w == "--json" || w.starts_with("--format=") {
            continue;
        }
        rest.push(shell_word(w));
    }
    let mut line = String::from(
        "the view (no command) prints text for people only; for JSON run: playbookdiff check",
    );
    for r in rest {
        line.push(' ');
        line.push_str(&r);
    }
    line.push_str(" --format json");
    line
}

pub(crate) use playbookdiff_render::report::shell_word;

/// When the command line failed to parse and reads as a habit: a
/// misspelt command first (`playbookdiff explian ID`), or a command after
/// options or REPO (`playbookdiff --json check`, `playbookdiff repo
/// check`). A word naming an existing path is never taken for a command.
pub(crate) fn misparsed(args: &[OsString], current_dir: Option<&Path>) -> Option<String> {
    let names = command_names();
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let first = words.first()?;
    if names.contains(first) {
        return None;
    }
    let exists = |w: &str| match current_dir {
        Some(here) => std::fs::symlink_metadata(here.join(w)).is_ok(),
        None => false,
    };
    if let Some(command) = words[1..].iter().find(|w| names.contains(w) && !exists(w)) {
        return Some(put_command_first(command, args));
    }
    if words
        .iter()
        .any(|w| w == "--json" || w == "--format" || w.starts_with("--format="))
    {
        return Some(view_is_text(&words));
    }
    if let Some(option) = words.iter().find_map(|w| check_only_option(w)) {
        let mut line = format!(
            "{option} is an option of `check`, not of the view (no command); run: playbookdiff check"
        );
        for w in &words {
            line.push(' ');
            line.push_str(&shell_word(w));
        }
        return Some(line);
    }
    if !first.starts_with('-') && !exists(first) {
        if let Some(close) = closest(first, &names) {
            return Some(format!(
                "unknown command '{first}'; did you mean '{close}'? (no directory '{first}' exists either; see 'playbookdiff --help')"
            ));
        }
    }
    None
}

/// The names of the command and subcommands the arguments start with
/// (`["guard", "status"]` for `playbookdiff guard status mini`), as far
/// as each word names a subcommand of the one before; empty for the view.
pub(crate) fn command_path(args: &[OsString]) -> Vec<String> {
    let mut cmd = Cli::command();
    let mut path = Vec::new();
    for a in args.iter().skip(1) {
        let Some(sub) = a.to_str().and_then(|w| cmd.find_subcommand(w)).cloned() else {
            break;
        };
        path.push(sub.get_name().to_string());
        cmd = sub;
    }
    path
}

/// How a command takes the repository: `--repo DIR` (`guard`, `round`)
/// or the argument REPO (`check`, `compile`, …); `None` for a command
/// that reads no repository (`layout`, `mcp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RepoSpelling {
    Option,
    Argument,
}

/// The [`RepoSpelling`] of the command at `path` ([`command_path`]).
fn repo_spelling(path: &[String]) -> Option<RepoSpelling> {
    let mut cmd = Cli::command();
    for name in path {
        cmd = cmd.find_subcommand(name)?.clone();
    }
    let repo = cmd.get_arguments().find(|a| a.get_id() == "repo")?;
    Some(match repo.get_long() {
        Some(_) => RepoSpelling::Option,
        None => RepoSpelling::Argument,
    })
}

/// When the repository was given the other command's way: `--repo DIR`
/// to a command that takes REPO as its argument (`check --repo web`), or
/// a free word naming an existing directory to a command that takes
/// `--repo` (`guard status web`, `round context ID web`). `unexpected` is
/// the word clap did not expect; the answer is the line to print with the
/// command line rewritten.
pub(crate) fn repo_given_the_other_way(
    args: &[OsString],
    unexpected: &str,
    current_dir: Option<&Path>,
) -> Option<String> {
    let path = command_path(args);
    let command = path.join(" ");
    let words: Vec<String> = args
        .iter()
        .skip(1 + path.len())
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (words, fixed) = corrected_values(&path, &words);
    let mut line = format!("playbookdiff {command}");
    match repo_spelling(&path)? {
        RepoSpelling::Argument if unexpected == "--repo" || unexpected.starts_with("--repo=") => {
            for w in &words {
                match w.strip_prefix("--repo=") {
                    Some(dir) => line.push_str(&format!(" {}", shell_word(dir))),
                    None if w == "--repo" => {}
                    None => line.push_str(&format!(" {}", shell_word(w))),
                }
            }
            Some(format!(
                "{command} takes the repository as its argument REPO, not --repo; run: {line}{fixed}"
            ))
        }
        RepoSpelling::Option if !unexpected.starts_with('-') => {
            let here = current_dir?;
            if !here.join(unexpected).is_dir() {
                return None;
            }
            for w in &words {
                if w == unexpected {
                    line.push_str(" --repo");
                }
                line.push_str(&format!(" {}", shell_word(w)));
            }
            Some(format!(
                "{command} takes the repository with --repo; run: {line}{fixed}"
            ))
        }
        _ => None,
    }
}

/// `words` (after the command path `path`) with each misspelt value of an
/// option that takes one of a closed set (`--host claude`) replaced by
/// the value it most likely means ([`closest`]: `claude-code`), so that a
/// command line rewritten for the user runs as given; and the clause that
/// names each replacement (` (with \`claude-code\` for \`claude\`)`),
/// empty when nothing was replaced.
fn corrected_values(path: &[String], words: &[String]) -> (Vec<String>, String) {
    let mut cmd = Cli::command();
    for name in path {
        match cmd.find_subcommand(name) {
            Some(sub) => cmd = sub.clone(),
            None => return (words.to_vec(), String::new()),
        }
    }
    let mut out = words.to_vec();
    let mut notes = Vec::new();
    for i in 1..out.len() {
        let Some(long) = out[i - 1].strip_prefix("--") else {
            continue;
        };
        let Some(arg) = cmd.get_arguments().find(|a| a.get_long() == Some(long)) else {
            continue;
        };
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        if values.is_empty() || values.contains(&out[i]) {
            continue;
        }
        if let Some(close) = closest(&out[i], &values) {
            notes.push(format!("`{close}` for `{}`", out[i]));
            out[i] = close.to_string();
        }
    }
    let fixed = match notes.is_empty() {
        true => String::new(),
        false => format!(" (with {})", notes.join(", ")),
    };
    (out, fixed)
}

/// `playbookdiff help WORD` (read as `WORD --help`) where WORD names no
/// command and no existing path: the top help would answer, as if WORD
/// were REPO, with exit status 0. The line that says WORD is no command
/// instead, with the closest command when there is one.
pub(crate) fn help_of_no_command(args: &[OsString], current_dir: Option<&Path>) -> Option<String> {
    let [_, word, flag] = args else {
        return None;
    };
    let word = word.to_str()?;
    if flag != "--help" || word.starts_with('-') || command_names().iter().any(|n| n == word) {
        return None;
    }
    if current_dir.is_none_or(|here| std::fs::symlink_metadata(here.join(word)).is_ok()) {
        return None;
    }
    let names = command_names();
    let hint = match closest(word, &names) {
        Some(close) => format!("did you mean '{close}'? "),
        None => String::new(),
    };
    Some(format!(
        "no help for '{word}': it is no command; {hint}(the commands: {}; see 'playbookdiff --help')",
        names.join(", ")
    ))
}

/// `compile` given `--harness` more than once: it compiles for one
/// harness, and `check` compares several; the line that says so with the
/// `check` command to run (`None` for any other command line).
pub(crate) fn compile_compares(args: &[OsString]) -> Option<String> {
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let harnesses = words
        .iter()
        .filter(|w| *w == "--harness" || w.starts_with("--harness="))
        .count();
    if words.first().map(String::as_str) != Some("compile") || harnesses < 2 {
        return None;
    }
    let mut line = String::from(
        "compile shows what one harness receives (one --harness); to compare several run: playbookdiff check",
    );
    for w in &words[1..] {
        line.push(' ');
        line.push_str(&shell_word(w));
    }
    Some(line)
}

/// `word` (`--all-dirs`, `--fail-on=high`, `-q`) when it names an option
/// that `check` has and the view (no command) has not: the option as
/// typed, without a value.
fn check_only_option(word: &str) -> Option<String> {
    let name = word.split('=').next().unwrap_or(word);
    let top = Cli::command();
    let check = top.find_subcommand("check")?;
    let names = |cmd: &clap::Command, name: &str| {
        cmd.get_arguments().any(|a| {
            if let Some(long) = name.strip_prefix("--") {
                a.get_long() == Some(long)
                    || a.get_all_aliases().is_some_and(|all| all.contains(&long))
            } else if let Some(short) = name.strip_prefix('-') {
                let mut chars = short.chars();
                matches!((chars.next(), chars.next()), (Some(c), None) if a.get_short() == Some(c))
            } else {
                false
            }
        })
    };
    (name.starts_with('-') && names(check, name) && !names(&top, name)).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn closest_command() {
        let names = command_names();
        assert_eq!(closest("checks", &names), Some("check"));
        assert_eq!(closest("chek", &names), Some("check"));
        assert_eq!(closest("explian", &names), Some("explain"));
        assert_eq!(closest("compil", &names), Some("compile"));
        assert_eq!(closest("apps", &names), None);
        assert_eq!(closest("src", &names), None);
    }

    #[test]
    fn typo_is_not_read_as_a_repository() {
        let here = tempfile::tempdir().unwrap();
        let args = os(&["playbookdiff", "checks"]);
        let line = misread_repository(Some(Path::new("checks")), &args, Some(here.path()));
        assert_eq!(
            line.as_deref(),
            Some("unknown command 'checks'; did you mean 'check'? (no directory 'checks' exists either; see 'playbookdiff --help')")
        );
        // A directory of that name is the repository.
        std::fs::create_dir(here.path().join("checks")).unwrap();
        assert_eq!(
            misread_repository(Some(Path::new("checks")), &args, Some(here.path())),
            None
        );
    }

    #[test]
    fn parse_errors_that_are_habits() {
        let here = tempfile::tempdir().unwrap();
        let cases: [(&[&str], Option<&str>); 11] = [
            (&["playbookdiff", "repo", "--all-dirs"], Some("--all-dirs is an option of `check`, not of the view (no command); run: playbookdiff check repo --all-dirs")),
            (&["playbookdiff", "--fail-on=high"], Some("--fail-on is an option of `check`, not of the view (no command); run: playbookdiff check --fail-on=high")),
            (&["playbookdiff", "-q", "--cwd", "a b"], Some("-q is an option of `check`, not of the view (no command); run: playbookdiff check -q --cwd 'a b'")),
            (&["playbookdiff", "--config", "pd.toml"], Some("--config is an option of `check`, not of the view (no command); run: playbookdiff check --config pd.toml")),
            (&["playbookdiff", "--json"], Some("the view (no command) prints text for people only; for JSON run: playbookdiff check --format json")),
            (&["playbookdiff", "repo", "--format", "json", "--cwd", "a b"], Some("the view (no command) prints text for people only; for JSON run: playbookdiff check repo --cwd 'a b' --format json")),
            (&["playbookdiff", "--json", "check"], Some("put the command first: playbookdiff check --json")),
            (&["playbookdiff", "repo", "check"], Some("put the command first: playbookdiff check repo")),
            (&["playbookdiff", "explian", "x"], Some("unknown command 'explian'; did you mean 'explain'? (no directory 'explian' exists either; see 'playbookdiff --help')")),
            (&["playbookdiff", "check", "--bogus"], None),
            (&["playbookdiff", "--bogus"], None),
        ];
        for (args, expected) in cases {
            assert_eq!(
                misparsed(&os(args), Some(here.path())).as_deref(),
                expected,
                "{args:?}"
            );
        }
    }

    #[test]
    fn compile_with_several_harnesses_points_to_check() {
        let args = os(&[
            "playbookdiff",
            "compile",
            "repo",
            "--harness",
            "codex",
            "--harness=opencode",
        ]);
        assert_eq!(
            compile_compares(&args).as_deref(),
            Some("compile shows what one harness receives (one --harness); to compare several run: playbookdiff check repo --harness codex --harness=opencode")
        );
        assert_eq!(
            compile_compares(&os(&["playbookdiff", "compile", "--harness", "codex"])),
            None
        );
        assert_eq!(
            compile_compares(&os(&[
                "playbookdiff",
                "check",
                "--harness",
                "a",
                "--harness",
                "b"
            ])),
            None
        );
    }

    #[test]
    fn command_after_options() {
        let here = tempfile::tempdir().unwrap();
        let args = os(&[
            "playbookdiff",
            "--harness",
            "codex",
            "check",
            "--cwd",
            "a b",
        ]);
        let line = misread_repository(Some(Path::new("check")), &args, Some(here.path()));
        assert_eq!(
            line.as_deref(),
            Some("put the command first: playbookdiff check --harness codex --cwd 'a b'")
        );
    }
}

//! The git pre-commit hook (`playbookdiff guard install --git-hook`):
//! it runs `playbookdiff guard pre-commit`, which refuses a commit that
//! changes a file the round's brief protects without a verified ruling,
//! whoever makes the commit (any agent, a shell command, a person).
//!
//! [`plan`] is text to text: the caller reads the hooks folder and
//! carries the plan out. An existing hook is kept: it is moved to
//! [`CHAINED`] beside the new one, which runs it first with the same
//! arguments and standard input and stops the commit when it fails; a
//! hook that already runs the guard is left as it is. Nothing is ever
//! overwritten: a [`CHAINED`] file already there stops the plan.

/// The hook's file name in git's hooks folder (githooks(5)).
pub const HOOK: &str = "pre-commit";

/// Where an existing hook is kept, beside the new one.
pub const CHAINED: &str = "pre-commit.before-playbookdiff";

/// The line that marks a hook as the guard's.
pub const MARKER: &str = "# playbookdiff guard pre-commit";

/// One file change of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The hook already runs the guard: nothing to do.
    Unchanged,
    /// Move the existing hook to [`CHAINED`] (keeping its mode).
    KeepExisting,
    /// Write the hook with this text, executable.
    Write(String),
}

/// Why the hook cannot be installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// A hook and a [`CHAINED`] file both exist and the hook is not the
    /// guard's: installing would lose one.
    BothExist,
}

impl PlanError {
    /// One line: what is wrong and what to do.
    pub fn sentence(&self) -> String {
        match self {
            PlanError::BothExist => format!(
                "both `{HOOK}` and `{CHAINED}` exist in the hooks folder; merge them into `{HOOK}` by hand, then install again"
            ),
        }
    }
}

/// The steps that install the hook running `program` (`playbookdiff` or
/// a wrapper, run as `PROGRAM guard pre-commit`), given the text of the
/// existing hook and whether a [`CHAINED`] file exists.
///
/// # Errors
/// [`PlanError::BothExist`] when an existing hook could not be kept.
pub fn plan(
    existing: Option<&str>,
    chained_exists: bool,
    program: &str,
) -> Result<Vec<Step>, PlanError> {
    match existing {
        Some(text) if text.contains(MARKER) => Ok(vec![Step::Unchanged]),
        Some(_) if chained_exists => Err(PlanError::BothExist),
        Some(_) => Ok(vec![Step::KeepExisting, Step::Write(script(program, true))]),
        None => Ok(vec![Step::Write(script(program, chained_exists))]),
    }
}

/// The hook: runs the kept hook first when there is one, then the guard.
/// `program` is quoted for the shell.
pub fn script(program: &str, chain: bool) -> String {
    let quoted = format!("'{}'", program.replace('\'', "'\\''"));
    let chained = if chain {
        format!(
            "# The hook that was here before, kept and run first (as git\n\
             # would: only when executable).\n\
             kept=\"$(dirname \"$0\")/{CHAINED}\"\n\
             if [ -x \"$kept\" ]; then \"$kept\" \"$@\" || exit $?; fi\n"
        )
    } else {
        String::new()
    };
    format!(
        "#!/bin/sh\n{MARKER}\n\
         # Refuses a commit that changes a file the round's brief protects\n\
         # without a verified ruling (playbookdiff docs/rounds.md).\n\
         {chained}exec {quoted} guard pre-commit\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_idempotently_and_an_existing_hook_is_chained() {
        let fresh = plan(None, false, "/bin/playbookdiff").unwrap();
        let Step::Write(text) = &fresh[0] else {
            panic!("{fresh:?}")
        };
        assert!(text.starts_with("#!/bin/sh\n"));
        assert!(text.ends_with("exec '/bin/playbookdiff' guard pre-commit\n"));
        assert!(!text.contains(CHAINED));
        assert_eq!(plan(Some(text), false, "x").unwrap(), [Step::Unchanged]);
        let kept = plan(Some("#!/bin/sh\nmake lint\n"), false, "/bin/p").unwrap();
        assert_eq!(kept[0], Step::KeepExisting);
        let Step::Write(text) = &kept[1] else {
            panic!("{kept:?}")
        };
        assert!(text.contains(&format!("kept=\"$(dirname \"$0\")/{CHAINED}\"")));
        assert!(text.contains("if [ -x \"$kept\" ]; then \"$kept\" \"$@\" || exit $?; fi"));
        assert_eq!(
            plan(Some("#!/bin/sh\n"), true, "p"),
            Err(PlanError::BothExist)
        );
        let quoted = script("/opt/it's/playbookdiff", false);
        assert!(quoted.contains("exec '/opt/it'\\''s/playbookdiff' guard pre-commit"));
    }
}

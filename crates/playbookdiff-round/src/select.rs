//! Which brief a round works under (spec-harness seed, "Which brief";
//! issue 31, step 1).
//!
//! The first of these names it, and it is never guessed:
//! 1. `--brief ID` (an empty one is refused: it usually is `--brief "$ID"`
//!    with the variable unset);
//! 2. the variable `PLAYBOOKDIFF_BRIEF` (set to nothing or to spaces, it is
//!    as unset: settings files set it whether or not a round is under way);
//! 3. the branch checked out: `brief/ID`, `brief-ID` or `*/brief/ID`;
//! 4. on a detached head, the branch the forge's CI names, the first set
//!    of `GITHUB_HEAD_REF`, `GITHUB_REF_NAME`,
//!    `CI_MERGE_REQUEST_SOURCE_BRANCH_NAME`, `CI_COMMIT_REF_NAME`.
//!
//! The caller reads the flag, the variables and the branch; this module
//! only decides.

use serde::Serialize;

/// The variable naming the brief.
pub const BRIEF_VARIABLE: &str = "PLAYBOOKDIFF_BRIEF";

/// The forge CI variables naming the branch on a detached head, in the
/// order they are asked. GitHub sets `GITHUB_HEAD_REF` on a pull request
/// and `GITHUB_REF_NAME` on a push; GitLab sets
/// `CI_MERGE_REQUEST_SOURCE_BRANCH_NAME` in a merge request pipeline and
/// `CI_COMMIT_REF_NAME` in every pipeline (GitHub and GitLab CI
/// documentation of predefined variables).
pub const CI_BRANCH_VARIABLES: [&str; 4] = [
    "GITHUB_HEAD_REF",
    "GITHUB_REF_NAME",
    "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
    "CI_COMMIT_REF_NAME",
];

/// What HEAD is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// A branch is checked out; its short name (`brief/012`).
    Branch(String),
    /// No branch is checked out (a CI checkout of one commit).
    Detached,
    /// No git repository, or HEAD could not be read.
    Unknown,
}

/// What the caller found; `variable` and `ci` as read from the
/// environment (`ci`: name and value of each set [`CI_BRANCH_VARIABLES`]
/// entry, in that order).
#[derive(Debug, Clone)]
pub struct Sources<'a> {
    /// `--brief` or the positional ID, when given.
    pub flag: Option<&'a str>,
    /// [`BRIEF_VARIABLE`], when set.
    pub variable: Option<&'a str>,
    /// HEAD.
    pub head: Head,
    /// The CI variables that are set, in [`CI_BRANCH_VARIABLES`] order.
    pub ci: Vec<(&'a str, &'a str)>,
}

/// What named the brief.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum NamedBy {
    /// The command line.
    Argument,
    /// [`BRIEF_VARIABLE`].
    Variable,
    /// The branch checked out.
    Branch {
        /// Its short name.
        branch: String,
    },
    /// A forge CI variable, on a detached head.
    CiVariable {
        /// The variable.
        variable: String,
        /// The branch it names.
        branch: String,
    },
}

impl NamedBy {
    /// What named the brief, in words that follow "named by": `the
    /// command line`, `PLAYBOOKDIFF_BRIEF`, `the branch brief/012`,
    /// `GITHUB_HEAD_REF (branch brief/012)`.
    pub fn describe(&self) -> String {
        match self {
            NamedBy::Argument => "the command line".to_string(),
            NamedBy::Variable => BRIEF_VARIABLE.to_string(),
            NamedBy::Branch { branch } => format!("the branch {branch}"),
            NamedBy::CiVariable { variable, branch } => format!("{variable} (branch {branch})"),
        }
    }
}

/// A brief id and what named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The id, trimmed, never empty.
    pub id: String,
    /// What named it.
    pub by: NamedBy,
}

/// Why no brief is selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotSelected {
    /// `--brief` (or ID) was given empty.
    EmptyArgument,
    /// Nothing names a brief; the branch, when one was read, is kept.
    Nothing {
        /// The branch HEAD or a CI variable named, which is no brief's.
        branch: Option<String>,
    },
}

impl NotSelected {
    /// One line saying what is wrong and what to do.
    pub fn sentence(&self) -> String {
        match self {
            NotSelected::EmptyArgument => "the brief id is empty (was it `--brief \"$ID\"` with ID unset?); give the id of a brief".to_string(),
            NotSelected::Nothing { branch } => format!(
                "no brief named{}: give ID, set {BRIEF_VARIABLE}, or work on a branch brief/ID",
                branch.as_ref().map(|b| format!(" (branch `{b}` names none)")).unwrap_or_default()
            ),
        }
    }
}

/// Decides which brief the round works under (module doc for the order).
///
/// # Errors
/// [`NotSelected`] when the argument is empty or nothing names a brief.
pub fn select(sources: &Sources<'_>) -> Result<Selection, NotSelected> {
    if let Some(flag) = sources.flag {
        let id = flag.trim();
        if id.is_empty() {
            return Err(NotSelected::EmptyArgument);
        }
        return Ok(Selection {
            id: id.to_string(),
            by: NamedBy::Argument,
        });
    }
    if let Some(id) = sources.variable.map(str::trim).filter(|v| !v.is_empty()) {
        return Ok(Selection {
            id: id.to_string(),
            by: NamedBy::Variable,
        });
    }
    let (branch, by) = match &sources.head {
        Head::Branch(b) => (b.clone(), NamedBy::Branch { branch: b.clone() }),
        Head::Detached => match sources.ci.iter().find(|(_, v)| !v.trim().is_empty()) {
            Some((name, value)) => (
                value.trim().to_string(),
                NamedBy::CiVariable {
                    variable: name.to_string(),
                    branch: value.trim().to_string(),
                },
            ),
            None => return Err(NotSelected::Nothing { branch: None }),
        },
        Head::Unknown => return Err(NotSelected::Nothing { branch: None }),
    };
    match brief_of_branch(&branch) {
        Some(id) => Ok(Selection {
            id: id.to_string(),
            by,
        }),
        None => Err(NotSelected::Nothing {
            branch: Some(branch),
        }),
    }
}

/// The brief id a branch name carries: `brief/ID`, `brief-ID` or
/// `*/brief/ID` (one or more components before `brief/`). `None` for any
/// other name and for an empty ID.
pub fn brief_of_branch(branch: &str) -> Option<&str> {
    let id = branch
        .strip_prefix("brief/")
        .or_else(|| branch.strip_prefix("brief-"))
        .or_else(|| branch.rsplit_once("/brief/").map(|(_, id)| id))?;
    Some(id).filter(|id| !id.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(head: Head) -> Sources<'static> {
        Sources {
            flag: None,
            variable: None,
            head,
            ci: Vec::new(),
        }
    }

    #[test]
    fn branch_names() {
        for (branch, id) in [
            ("brief/012-rotate", Some("012-rotate")),
            ("brief-012", Some("012")),
            ("alice/brief/012", Some("012")),
            ("team/alice/brief/7", Some("7")),
            ("brief/", None),
            ("brief-", None),
            ("main", None),
            ("briefs/012", None),
            ("alice/brief-012", None),
        ] {
            assert_eq!(brief_of_branch(branch), id, "{branch}");
        }
    }

    #[test]
    fn the_argument_wins_and_an_empty_one_is_refused() {
        let mut s = on(Head::Branch("brief/1".into()));
        s.variable = Some("2");
        s.flag = Some("3");
        assert_eq!(select(&s).map(|s| s.id), Ok("3".to_string()));
        s.flag = Some(" ");
        assert_eq!(select(&s), Err(NotSelected::EmptyArgument));
    }

    #[test]
    fn an_empty_variable_is_as_unset() {
        let mut s = on(Head::Branch("brief/1".into()));
        s.variable = Some("  ");
        let got = select(&s).unwrap();
        assert_eq!(
            (got.id.as_str(), got.by),
            (
                "1",
                NamedBy::Branch {
                    branch: "brief/1".into()
                }
            )
        );
        s.variable = Some("2");
        assert_eq!(select(&s).map(|s| s.by), Ok(NamedBy::Variable));
    }

    #[test]
    fn ci_variables_count_only_on_a_detached_head() {
        let mut s = on(Head::Branch("main".into()));
        s.ci = vec![("GITHUB_HEAD_REF", "brief/9")];
        assert_eq!(
            select(&s),
            Err(NotSelected::Nothing {
                branch: Some("main".into())
            })
        );
        s.head = Head::Detached;
        s.ci = vec![("GITHUB_HEAD_REF", ""), ("CI_COMMIT_REF_NAME", "x/brief/9")];
        let got = select(&s).unwrap();
        assert_eq!(got.id, "9");
        assert_eq!(
            got.by,
            NamedBy::CiVariable {
                variable: "CI_COMMIT_REF_NAME".into(),
                branch: "x/brief/9".into()
            }
        );
    }

    #[test]
    fn nothing_is_guessed() {
        assert_eq!(
            select(&on(Head::Detached)),
            Err(NotSelected::Nothing { branch: None })
        );
        assert_eq!(
            select(&on(Head::Unknown)),
            Err(NotSelected::Nothing { branch: None })
        );
        let line = select(&on(Head::Branch("main".into())))
            .unwrap_err()
            .sentence();
        assert!(line.contains("branch `main` names none") && line.contains(BRIEF_VARIABLE));
    }
}

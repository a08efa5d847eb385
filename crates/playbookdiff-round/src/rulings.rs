//! Which rows of a brief's Rulings table are rulings that count (issue
//! 31, step 4).
//!
//! A row counts when the commit that last changed its line (git blame of
//! the brief as committed at HEAD) is signed by a key the base branch's
//! allowed signers file lists ([`crate::signature::verify`]). So an agent
//! that writes a row, or changes a person's row, cannot make it count: its
//! commit is unsigned or signed by a key that is not listed, and a list
//! changed on the round's own branch is not read.
//!
//! The git objects are read by the caller through [`History`]; this
//! module decides.

use crate::brief::{self, Brief, Ruling};
use crate::pattern::FilePattern;
use crate::signature::{self, CommitObject, Signer, Unverified};
use crate::signers::AllowedSigners;
use serde::Serialize;

/// What a row's `status` cell says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// `allowed` (or `allow`): the round may change the row's path.
    Allow,
    /// `denied` (or `deny`): it may not.
    Deny,
    /// `pending`: no one has ruled.
    Pending,
    /// Anything else: not a ruling.
    Unknown,
}

impl Decision {
    /// The decision a `status` cell names (case and spaces ignored).
    pub fn of(status: &str) -> Decision {
        match status.trim().to_ascii_lowercase().as_str() {
            "allowed" | "allow" => Decision::Allow,
            "denied" | "deny" => Decision::Deny,
            "pending" | "" => Decision::Pending,
            _ => Decision::Unknown,
        }
    }

    /// The word a ruling writes into the `status` cell.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Allow => "allowed",
            Decision::Deny => "denied",
            Decision::Pending => "pending",
            Decision::Unknown => "unknown",
        }
    }
}

/// The git objects the verification reads, for one brief.
pub trait History {
    /// The brief's text as committed at HEAD; `Ok(None)` when HEAD has no
    /// such file (or there is no commit yet).
    ///
    /// # Errors
    /// Why the objects cannot be read.
    fn brief_at_head(&self) -> Result<Option<String>, String>;

    /// The id (hex) of the commit that last changed 1-based `line` of the
    /// brief as committed at HEAD.
    ///
    /// # Errors
    /// Why the history cannot be walked.
    fn blame(&self, line: u32) -> Result<String, String>;

    /// The raw commit object `id` (the bytes git hashes, without the
    /// `commit <size>\0` prefix).
    ///
    /// # Errors
    /// Why the object cannot be read.
    fn commit_object(&self, id: &str) -> Result<Vec<u8>, String>;
}

/// Why a row does not count, when no signature is at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotCounted {
    /// Pending, or a status that is no ruling.
    NoRuling,
    /// The row is not committed as it is written (changed since HEAD).
    NotCommitted,
    /// The allowed signers cannot be read from the base branch: why.
    NoSigners(String),
    /// The history cannot be read: why.
    History(String),
    /// The last commit of the row does not carry a signature that counts.
    Signature {
        /// The commit (hex).
        commit: String,
        /// Why.
        why: Unverified,
    },
}

impl NotCounted {
    /// One sentence: why the row is not a ruling that counts.
    pub fn sentence(&self) -> String {
        match self {
            NotCounted::NoRuling => "no one has ruled on it".into(),
            NotCounted::NotCommitted => {
                "the row is not committed as written; commit it signed".into()
            }
            NotCounted::NoSigners(why) => why.clone(),
            NotCounted::History(why) => format!("the history cannot be read ({why})"),
            NotCounted::Signature { commit, why } => {
                let short = commit.get(..7).unwrap_or(commit);
                format!("commit {short}: {}", why.sentence())
            }
        }
    }
}

/// One row and whether it counts.
#[derive(Debug, Clone)]
pub struct CheckedRuling {
    /// The row as written in the working tree.
    pub row: Ruling,
    /// What its `status` cell says.
    pub decision: Decision,
    /// The last commit of the row (hex), when found.
    pub commit: Option<String>,
    /// Who signed it, or why it does not count.
    pub verdict: Result<Signer, NotCounted>,
}

impl CheckedRuling {
    /// The row's `id` cell.
    pub fn id(&self) -> &str {
        self.row.cell("id").unwrap_or_default()
    }

    /// The row's `path` cell.
    pub fn path(&self) -> &str {
        self.row.cell("path").unwrap_or_default()
    }

    /// Whether this is a verified ruling allowing `rel`
    /// (repository-relative; the row's path is a pattern, see
    /// [`FilePattern`]).
    pub fn allows(&self, rel: &str) -> bool {
        self.decision == Decision::Allow
            && self.verdict.is_ok()
            && FilePattern::new(self.path()).matches(rel)
    }
}

/// Checks every row of `brief` (as read from the working tree): a row
/// that is a ruling (allowed or denied) counts when the same line is in
/// the brief as committed at HEAD and the commit blame gives for it is
/// signed by an allowed signer of the base branch (`signers`: the file as
/// read from the base branch, or why it cannot be).
pub fn check(
    brief: &Brief,
    history: &dyn History,
    signers: &Result<AllowedSigners, String>,
) -> Vec<CheckedRuling> {
    let committed = history.brief_at_head();
    brief
        .rulings
        .iter()
        .map(|row| {
            let decision = Decision::of(row.cell("status").unwrap_or_default());
            let (commit, verdict) = match decision {
                Decision::Allow | Decision::Deny => one(brief, row, &committed, history, signers),
                _ => (None, Err(NotCounted::NoRuling)),
            };
            CheckedRuling {
                row: row.clone(),
                decision,
                commit,
                verdict,
            }
        })
        .collect()
}

fn one(
    brief: &Brief,
    row: &Ruling,
    committed: &Result<Option<String>, String>,
    history: &dyn History,
    signers: &Result<AllowedSigners, String>,
) -> (Option<String>, Result<Signer, NotCounted>) {
    let head_text = match committed {
        Err(e) => return (None, Err(NotCounted::History(e.clone()))),
        Ok(None) => return (None, Err(NotCounted::NotCommitted)),
        Ok(Some(t)) => t,
    };
    let Some(line) = committed_line(brief, row, head_text) else {
        return (None, Err(NotCounted::NotCommitted));
    };
    let commit = match history.blame(line) {
        Ok(c) => c,
        Err(e) => return (None, Err(NotCounted::History(e))),
    };
    let verdict =
        match (history.commit_object(&commit), signers) {
            (Err(e), _) => Err(NotCounted::History(e)),
            (_, Err(why)) => Err(NotCounted::NoSigners(why.clone())),
            (Ok(raw), Ok(signers)) => signature::verify(&CommitObject::parse(&raw), signers)
                .map_err(|why| NotCounted::Signature {
                    commit: commit.clone(),
                    why,
                }),
        };
    (Some(commit), verdict)
}

/// The 1-based line of `row` in the committed brief: a row of its
/// Rulings table whose line reads exactly as the working tree's does.
fn committed_line(brief: &Brief, row: &Ruling, head_text: &str) -> Option<u32> {
    let wanted = line_text(&brief.text, row.line)?;
    brief::parse(head_text)
        .rulings
        .iter()
        .find(|r| line_text(head_text, r.line) == Some(wanted))
        .map(|r| r.line)
}

fn line_text(text: &str, line: u32) -> Option<&str> {
    let index = usize::try_from(line.checked_sub(1)?).ok()?;
    text.lines().nth(index).map(str::trim_end)
}

/// One row as `round rulings` reports it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RowReport {
    /// The row's `id` cell.
    pub id: String,
    /// The row's `path` cell.
    pub path: String,
    /// 1-based line of the row in the brief's file (working tree).
    pub line: u32,
    /// What its `status` cell says.
    pub decision: Decision,
    /// Whether the row is a ruling that counts.
    pub verified: bool,
    /// The last commit of the row (hex), when found.
    pub commit: Option<String>,
    /// The principals of the allowed signers line that verified it.
    pub signer: Option<String>,
    /// Why it does not count, in one sentence; `None` when it does.
    pub why_not: Option<String>,
    /// True when the row's last commit was rewritten by a squash or
    /// rebase merge, which dropped its signature.
    pub rewritten: bool,
}

/// What `round rulings` reports for one brief.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RulingsReport {
    /// The brief's id.
    pub brief: String,
    /// The brief's repository-relative path.
    pub path: String,
    /// Where the allowed signers were read (`FILE` on `BRANCH`), or why
    /// they could not be.
    pub signers: String,
    /// The allowed signers lines that allow no one, as `line N: why`.
    pub signer_problems: Vec<String>,
    /// Every row, in file order.
    pub rows: Vec<RowReport>,
}

/// The JSON Schema (draft 2020-12) of [`RulingsReport`], pretty-printed,
/// ending with a newline (`schema/round-rulings.schema.json`).
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(RulingsReport);
    let mut out = serde_json::to_string_pretty(&schema).unwrap_or_default();
    out.push('\n');
    out
}

impl RowReport {
    /// The report of one checked row.
    pub fn of(c: &CheckedRuling) -> RowReport {
        let rewritten = matches!(
            &c.verdict,
            Err(NotCounted::Signature {
                why: Unverified::Unsigned { rewritten: true }
                    | Unverified::OpenPgp { rewritten: true },
                ..
            })
        );
        RowReport {
            id: c.id().to_string(),
            path: c.path().to_string(),
            line: c.row.line,
            decision: c.decision,
            verified: c.verdict.is_ok(),
            commit: c.commit.clone(),
            signer: c.verdict.as_ref().ok().map(|s| s.principals.clone()),
            why_not: c.verdict.as_ref().err().map(NotCounted::sentence),
            rewritten,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoHistory(Option<String>);

    impl History for NoHistory {
        fn brief_at_head(&self) -> Result<Option<String>, String> {
            Ok(self.0.clone())
        }
        fn blame(&self, _line: u32) -> Result<String, String> {
            Ok("0123456789abcdef".into())
        }
        fn commit_object(&self, _id: &str) -> Result<Vec<u8>, String> {
            Ok(b"tree 1\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nm\n".to_vec())
        }
    }

    const BRIEF: &str =
        "---\nid: a\n---\n## Rulings\n\n| Id | Path | Status |\n| --- | --- | --- |\n\
| E1 | a.sql | allowed |\n| E2 | b.sql | pending |\n";

    #[test]
    fn pending_uncommitted_and_unsigned_rows_do_not_count() {
        let brief = brief::parse(BRIEF);
        let signers = Ok(AllowedSigners::default());
        let uncommitted = check(&brief, &NoHistory(None), &signers);
        assert_eq!(uncommitted[0].verdict, Err(NotCounted::NotCommitted));
        assert_eq!(uncommitted[1].verdict, Err(NotCounted::NoRuling));
        // A row changed since HEAD is not the committed row.
        let older = BRIEF.replace("allowed", "pending");
        let changed = check(&brief, &NoHistory(Some(older)), &signers);
        assert_eq!(changed[0].verdict, Err(NotCounted::NotCommitted));
        let committed = check(&brief, &NoHistory(Some(BRIEF.into())), &signers);
        assert_eq!(committed[0].commit.as_deref(), Some("0123456789abcdef"));
        assert!(matches!(
            &committed[0].verdict,
            Err(NotCounted::Signature {
                why: Unverified::Unsigned { rewritten: false },
                ..
            })
        ));
        assert!(!committed[0].allows("a.sql"));
        let report = RowReport::of(&committed[0]);
        assert!(report
            .why_not
            .unwrap()
            .starts_with("commit 0123456: the commit is not signed"));
    }
}

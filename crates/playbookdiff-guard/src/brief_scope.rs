//! The round's brief, as the guard reads it (issue 31, step 3;
//! docs/rounds.md): a write to a file the brief protects
//! (`protectedFiles`) is refused unless a verified ruling allows it, and
//! the refusal carries the `playbookdiff round escalate` command as the
//! next step; a write inside `affectedFiles` is allowed; any other write
//! gets the brief's `outOfScope` verdict (warn: it runs, the model is
//! told and the ledger records it; ask; deny). When `protectedFiles`
//! cannot be read every write is refused but to the brief itself, and a
//! brief that is named but cannot be found refuses every write.
//!
//! These verdicts add to the guard's own rules: the stronger one decides
//! ([`crate::decide`]). Which rulings are verified is asked through
//! [`VerifiedRulings`], which the caller implements from git objects,
//! only for a path a ruling names.

use crate::decide::Decision;
use crate::rules::{self, Verdict};
use playbookdiff_round::{Brief, OutOfScope};
use std::fmt;

/// Which verified ruling allows a path.
pub trait VerifiedRulings: Send + Sync {
    /// The id of a ruling that allows the repository-relative `rel` and
    /// whose signature verifies, if any. Called only for a protected
    /// path, so an implementation may read git objects.
    fn allowing(&self, rel: &str) -> Option<String>;
}

/// The active brief, or why it cannot be used.
pub enum BriefScope {
    /// The brief named for the round, read.
    Read {
        /// Its repository-relative path.
        path: String,
        /// The brief.
        brief: Box<Brief>,
        /// Its verified rulings.
        rulings: Box<dyn VerifiedRulings>,
    },
    /// A brief is named (by `PLAYBOOKDIFF_BRIEF` or the branch) but cannot
    /// be used: why, in one sentence.
    Unusable(String),
}

impl fmt::Debug for BriefScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BriefScope::Read { path, brief, .. } => f
                .debug_struct("Read")
                .field("path", path)
                .field("id", &brief.id)
                .finish_non_exhaustive(),
            BriefScope::Unusable(why) => f.debug_tuple("Unusable").field(why).finish(),
        }
    }
}

impl BriefScope {
    /// What the brief says of a write to the repository-relative `rel`:
    /// `None` when it allows it.
    pub fn write(&self, rel: &str) -> Option<Decision> {
        let (path, brief, rulings) = match self {
            BriefScope::Unusable(why) => {
                let subject = format!("a write to `{rel}` while {why}");
                return Some(Decision::of(
                    &rules::BRIEF_UNREADABLE,
                    &subject,
                    vec![rel.into()],
                ));
            }
            BriefScope::Read {
                path,
                brief,
                rulings,
            } => (path, brief, rulings),
        };
        if rel == path {
            return None;
        }
        if brief.protected_unreadable() {
            let subject = format!(
                "a write to `{rel}` while brief {} has a `protectedFiles` pattern that cannot be read ({path})",
                brief.id
            );
            return Some(Decision::of(
                &rules::BRIEF_UNREADABLE,
                &subject,
                vec![rel.into()],
            ));
        }
        if brief.protected_files.iter().any(|p| p.matches(rel)) {
            return match rulings.allowing(rel) {
                Some(_) => None,
                None => Some(protected(brief, rel)),
            };
        }
        if brief.affected_files.iter().any(|p| p.matches(rel)) {
            return None;
        }
        let verdict = match brief.out_of_scope {
            OutOfScope::Warn => Verdict::Warn,
            OutOfScope::Ask => Verdict::Ask,
            OutOfScope::Deny => Verdict::Deny,
        };
        let subject = format!(
            "`{rel}` is outside brief {}'s affectedFiles (outOfScope: {})",
            brief.id,
            verdict.as_str()
        );
        Some(Decision::with(
            &rules::BRIEF_SCOPE,
            verdict,
            &subject,
            vec![rel.into()],
        ))
    }
}

impl BriefScope {
    /// What the brief says of a change to every path below the
    /// directory `dir` (repository-relative; empty for the root): a
    /// recursive removal, a move of the directory, a tree copied into
    /// it. A refusal when a `protectedFiles` pattern may match a path
    /// there (its base directory lies in `dir`, or `dir` in it: the
    /// files below are not listed, so a pattern that may match is taken
    /// to match); `None` otherwise, and when the brief cannot be read
    /// (the write to `dir` itself says so).
    pub fn below(&self, dir: &str) -> Option<Decision> {
        let BriefScope::Read { brief, .. } = self else {
            return None;
        };
        let dir = dir.trim_end_matches('/');
        let inside = |a: &str, b: &str| a.is_empty() || a == b || b.starts_with(&format!("{a}/"));
        let pattern = brief.protected_files.iter().find(|p| {
            p.base_directory()
                .is_some_and(|base| inside(dir, &base) || inside(&base, dir))
        })?;
        let shown = if dir.is_empty() { "." } else { dir };
        let mut d = protected(brief, &format!("{shown}/"));
        d.reason = d.reason.replacen(
            &format!("a write to `{shown}/`"),
            &format!(
                "a change to every path below `{shown}`, where `{}`",
                pattern.raw
            ),
            1,
        );
        Some(d)
    }
}

/// The refusal of a protected file, with the escalation as the next step.
fn protected(brief: &Brief, rel: &str) -> Decision {
    let subject = format!(
        "a write to `{rel}`, which brief {} protects (protectedFiles) and no verified ruling allows",
        brief.id
    );
    let mut d = Decision::of(&rules::BRIEF_PROTECTED, &subject, vec![rel.into()]);
    let quoted = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    d.reason.push_str(&format!(
        " Next step: `playbookdiff round escalate {} --path {} --reason WHY --option OPTION --recommendation WHICH`.",
        quoted(&brief.id),
        quoted(rel)
    ));
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_round::brief::parse;

    struct Allowing(&'static str);

    impl VerifiedRulings for Allowing {
        fn allowing(&self, rel: &str) -> Option<String> {
            (rel == self.0).then(|| "E1".to_string())
        }
    }

    fn scope(front: &str) -> BriefScope {
        BriefScope::Read {
            path: "briefs/012.md".into(),
            brief: Box::new(parse(&format!("---\nid: \"012\"\n{front}---\n"))),
            rulings: Box::new(Allowing("migrations/001.sql")),
        }
    }

    const FRONT: &str = "affectedFiles: [src/**]\nprotectedFiles: [migrations/**]\n";

    #[test]
    fn protected_affected_and_out_of_scope() {
        let s = scope(FRONT);
        assert_eq!(s.write("src/a.rs"), None);
        assert_eq!(s.write("briefs/012.md"), None);
        assert_eq!(
            s.write("migrations/001.sql"),
            None,
            "a verified ruling allows it"
        );
        let d = s.write("migrations/002.sql").unwrap();
        assert_eq!((d.verdict, d.rule.id), (Verdict::Deny, "brief-protected"));
        assert!(
            d.reason
                .contains("`playbookdiff round escalate '012' --path 'migrations/002.sql'"),
            "{}",
            d.reason
        );
        let d = s.write("README.md").unwrap();
        assert_eq!((d.verdict, d.rule.id), (Verdict::Warn, "brief-scope"));
        for (word, verdict) in [("ask", Verdict::Ask), ("deny", Verdict::Deny)] {
            let s = scope(&format!("{FRONT}outOfScope: {word}\n"));
            assert_eq!(s.write("README.md").map(|d| d.verdict), Some(verdict));
        }
    }

    #[test]
    fn an_unreadable_protected_list_refuses_all_but_the_brief() {
        let s = scope("affectedFiles: [src/**]\nprotectedFiles: [/etc/**]\n");
        assert_eq!(s.write("briefs/012.md"), None);
        let d = s.write("src/a.rs").unwrap();
        assert_eq!((d.verdict, d.rule.id), (Verdict::Deny, "brief-unreadable"));
        let u = BriefScope::Unusable(
            "brief `9` is named by the branch but no brief has that id".into(),
        );
        assert_eq!(u.write("src/a.rs").map(|d| d.verdict), Some(Verdict::Deny));
    }
}

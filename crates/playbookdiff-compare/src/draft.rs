//! [`FindingDraft`]: what a comparison step knows of a finding, with named
//! fields, turned into a [`Finding`] (its id derived per [`crate::id`])
//! in one place.

use crate::finding::*;
use crate::id;
use playbookdiff_model::{Harness, RepoPath};

/// A finding before its id: every field a comparison step decides. The
/// parts a finding shows only with its evidence (absences, paragraphs,
/// differences, problems) are set on the built [`Finding`].
pub(crate) struct FindingDraft {
    /// What the finding is about.
    pub category: Category,
    /// The kind of difference.
    pub kind: FindingType,
    /// How much it matters.
    pub severity: FindingSeverity,
    /// The direction token of the id ([`id::only`], [`id::first`],
    /// [`id::symmetric`]).
    pub direction: String,
    /// The readable part of the id ([`id::slug`], [`id::dir_slug`]).
    pub slug: String,
    /// The logical key the id's hash covers.
    pub key: String,
    /// The harnesses that have the item (or have it sooner).
    pub present_in: Vec<Harness>,
    /// The harnesses that lack it (or have it later).
    pub absent_from: Vec<Harness>,
    /// The evidence on each side.
    pub items: Vec<FindingItem>,
    /// The sentence for people.
    pub message: String,
    /// The directory the finding is about (instructions).
    pub scope: Option<RepoPath>,
    /// What the remedies are asked about.
    pub subject: Option<Subject>,
}

impl FindingDraft {
    /// A draft about the item `name` (a skill or an MCP server) and one of
    /// its `aspect`s (`presence`, `invocation`, ...): key `name|aspect`,
    /// slug from `name`, symmetric over no harness until the caller sets
    /// the sides, direction and message.
    pub(crate) fn named(
        category: Category,
        (kind, severity): (FindingType, FindingSeverity),
        name: &str,
        aspect: &str,
    ) -> FindingDraft {
        FindingDraft {
            category,
            kind,
            severity,
            direction: String::new(),
            slug: id::slug(name),
            key: format!("{name}|{aspect}"),
            present_in: Vec::new(),
            absent_from: Vec::new(),
            items: Vec::new(),
            message: String::new(),
            scope: None,
            subject: None,
        }
    }

    /// The id the draft's finding gets ([`id::finding_id`]).
    pub(crate) fn id(&self) -> String {
        id::finding_id(
            self.category,
            self.kind,
            &self.direction,
            &self.slug,
            &self.key,
        )
    }

    /// The finding: its id, `actionable` from the severity, nothing
    /// attached yet (no absences, paragraphs, differences, remedies,
    /// acceptance or problems).
    pub(crate) fn build(self) -> Finding {
        let id = self.id();
        self.build_as(id)
    }

    /// [`FindingDraft::build`] with the id the caller already derived from
    /// this draft (to decide, from the id, how much to build).
    pub(crate) fn build_as(self, id: String) -> Finding {
        Finding {
            id,
            category: self.category,
            kind: self.kind,
            severity: self.severity,
            actionable: self.severity.is_actionable(),
            present_in: self.present_in,
            absent_from: self.absent_from,
            items: self.items,
            message: self.message,
            key: self.key,
            scope: self.scope,
            absences: Vec::new(),
            paragraphs: Vec::new(),
            differences: Vec::new(),
            remedies: Vec::new(),
            accepted: None,
            problems: Vec::new(),
            subject: self.subject,
        }
    }
}

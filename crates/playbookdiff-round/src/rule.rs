//! `round rule`: a person's ruling on a row of the Rulings table (issue
//! 31, step 4), written into the row: its `status` becomes `allowed` or
//! `denied`, its `decision` cell the person's reason, and its `path` the
//! path the ruling is about. Writing the row is not what makes it count:
//! the person commits it signed ([`crate::rulings`]).
//!
//! [`write_ruling`] is text to text: the caller reads and writes the file.

use crate::brief::{Brief, Ruling};
use crate::escalate::escape;
use crate::rulings::Decision;

/// The column a ruling's reason goes into; added to a table that lacks it.
pub const DECISION_COLUMN: &str = "decision";

/// What a person rules on one row.
#[derive(Debug, Clone)]
pub struct RulingInput {
    /// The row's `id` (`E1`).
    pub id: String,
    /// [`Decision::Allow`] or [`Decision::Deny`].
    pub decision: Decision,
    /// The path ruled on, when it is not the row's own (repository-relative).
    pub path: Option<String>,
    /// Why.
    pub reason: String,
}

/// Why a ruling was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleError {
    /// No row has that id: the ids there are.
    UnknownRow {
        /// The id asked for.
        id: String,
        /// The ids of the table's rows.
        known: Vec<String>,
    },
    /// The reason is empty.
    EmptyReason,
    /// The path is empty, absolute or leaves the repository.
    BadPath(String),
    /// The row's table has no `status` or `path` column.
    MissingColumn(&'static str),
}

impl RuleError {
    /// One line saying what is wrong and what to do.
    pub fn sentence(&self) -> String {
        match self {
            RuleError::UnknownRow { id, known } => format!(
                "the Rulings table has no row `{id}`; its rows: {}",
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            ),
            RuleError::EmptyReason => {
                "the ruling's reason is empty; say why, the round reads it".into()
            }
            RuleError::BadPath(p) => format!(
                "`{p}` is not a path inside the repository; give it relative to the repository root"
            ),
            RuleError::MissingColumn(c) => {
                format!("the Rulings table has no `{c}` column; add it to the table's header")
            }
        }
    }
}

/// The brief's text with the ruling written into row `input.id`: status,
/// path and decision cells replaced (a `Decision` column appended to the
/// table when it has none), other cells kept.
///
/// # Errors
/// [`RuleError`] for an unknown row, an empty reason, a bad path or a
/// table without `status` or `path`; the text is then unchanged.
pub fn write_ruling(brief: &Brief, input: &RulingInput) -> Result<String, RuleError> {
    if input.reason.trim().is_empty() {
        return Err(RuleError::EmptyReason);
    }
    let row = brief
        .rulings
        .iter()
        .find(|r| r.cell("id") == Some(input.id.trim()))
        .ok_or_else(|| RuleError::UnknownRow {
            id: input.id.clone(),
            known: brief
                .rulings
                .iter()
                .filter_map(|r| r.cell("id").map(str::to_string))
                .collect(),
        })?;
    for column in ["status", "path"] {
        if row.cell(column).is_none() {
            return Err(RuleError::MissingColumn(column));
        }
    }
    let path = input
        .path
        .clone()
        .unwrap_or_else(|| row.cell("path").unwrap_or_default().to_string());
    let path = path.trim();
    if path.is_empty() || path.starts_with(['/', '~']) || path.split('/').any(|c| c == "..") {
        return Err(RuleError::BadPath(path.to_string()));
    }
    let mut lines: Vec<String> = brief.text.split('\n').map(str::to_string).collect();
    if row.cell(DECISION_COLUMN).is_none() {
        add_decision_column(&mut lines, &brief.rulings);
    }
    let cells = ruled_cells(row, input.decision, path, &input.reason);
    if let Some(line) = lines.get_mut(index(row.line)) {
        *line = format!("| {} |", cells.join(" | "));
    }
    Ok(lines.join("\n"))
}

fn ruled_cells(row: &Ruling, decision: Decision, path: &str, reason: &str) -> Vec<String> {
    let mut cells: Vec<String> = row
        .cells
        .iter()
        .map(|(column, value)| match column.as_str() {
            "status" => decision.word().to_string(),
            "path" => escape(path),
            DECISION_COLUMN => escape(reason),
            _ => escape(value.as_str().unwrap_or_default()),
        })
        .collect();
    if row.cell(DECISION_COLUMN).is_none() {
        cells.push(escape(reason));
    }
    cells
}

/// Appends a `Decision` column to the table holding `rows`: its header
/// and delimiter lines (the two lines above the first row) and each row.
fn add_decision_column(lines: &mut [String], rows: &[Ruling]) {
    let Some(first) = rows.first() else { return };
    let header = index(first.line).saturating_sub(2);
    let append = |line: &mut String, cell: &str| {
        let kept = line.trim_end().trim_end_matches('|').trim_end().to_string();
        *line = format!("{kept} | {cell} |");
    };
    if let Some(l) = lines.get_mut(header) {
        append(l, "Decision");
    }
    if let Some(l) = lines.get_mut(header + 1) {
        append(l, "---");
    }
    for row in rows {
        if let Some(l) = lines.get_mut(index(row.line)) {
            append(l, "");
        }
    }
}

fn index(line: u32) -> usize {
    usize::try_from(line.saturating_sub(1)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brief::parse;

    const BRIEF: &str = "---\nid: a\n---\n## Rulings\n\n\
| Id | Path | Status | Reason | Options | Recommendation |\n\
| --- | --- | --- | --- | --- | --- |\n\
| E1 | migrations/002.sql | pending | r | (1) a | a |\n\
| E2 | Cargo.toml | pending | r | (1) b | b |\n\n## Notes\n";

    fn input(id: &str) -> RulingInput {
        RulingInput {
            id: id.into(),
            decision: Decision::Allow,
            path: None,
            reason: "one migration | reviewed".into(),
        }
    }

    #[test]
    fn a_ruling_fills_status_and_decision_and_adds_the_column() {
        let out = write_ruling(&parse(BRIEF), &input("E2")).unwrap();
        let rows = parse(&out).rulings;
        assert_eq!(rows.len(), 2, "{out}");
        assert_eq!(rows[1].cell("status"), Some("allowed"));
        assert_eq!(rows[1].cell("decision"), Some("one migration | reviewed"));
        assert_eq!(rows[1].cell("options"), Some("(1) b"));
        assert_eq!(rows[0].cell("status"), Some("pending"));
        assert_eq!(rows[0].cell("decision"), Some(""));
        assert!(out.ends_with("\n\n## Notes\n"), "{out}");
        // A second ruling uses the column now there.
        let again = RulingInput {
            decision: Decision::Deny,
            path: Some("migrations/003.sql".into()),
            ..input("E1")
        };
        let out = write_ruling(&parse(&out), &again).unwrap();
        let rows = parse(&out).rulings;
        assert_eq!(rows[0].cell("status"), Some("denied"));
        assert_eq!(rows[0].cell("path"), Some("migrations/003.sql"));
        assert_eq!(rows[0].cells.len(), 7);
    }

    #[test]
    fn refusals() {
        let b = parse(BRIEF);
        let e = write_ruling(&b, &input("E9")).unwrap_err();
        assert_eq!(
            e,
            RuleError::UnknownRow {
                id: "E9".into(),
                known: vec!["E1".into(), "E2".into()]
            }
        );
        let empty = RulingInput {
            reason: " ".into(),
            ..input("E1")
        };
        assert_eq!(write_ruling(&b, &empty), Err(RuleError::EmptyReason));
        let outside = RulingInput {
            path: Some("../etc".into()),
            ..input("E1")
        };
        assert_eq!(
            write_ruling(&b, &outside),
            Err(RuleError::BadPath("../etc".into()))
        );
    }
}

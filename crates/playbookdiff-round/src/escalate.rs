//! `round escalate`: a memo the agent raises when the brief is not enough,
//! written into the brief's `## Rulings` table as a pending row (issue 31,
//! step 4, its first half). A person rules on it; how a ruling is signed
//! and verified is not built yet (docs/rounds.md).
//!
//! [`add_pending_row`] is text to text: the caller reads and writes the
//! file.

use crate::brief::Ruling;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// The columns a memo fills, in the order a new table gets them.
pub const MEMO_COLUMNS: [&str; 6] = [
    "id",
    "path",
    "status",
    "reason",
    "options",
    "recommendation",
];

/// The status of a row no person has ruled on.
pub const PENDING: &str = "pending";

/// What the agent asks: the path it needs, why, the options it sees and
/// the one it recommends.
#[derive(Debug, Clone)]
pub struct Memo {
    /// Repository-relative POSIX path the memo is about.
    pub path: String,
    /// Why the brief is not enough.
    pub reason: String,
    /// The options, at least one.
    pub options: Vec<String>,
    /// The option the agent recommends.
    pub recommendation: String,
}

/// Why a memo was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EscalateError {
    /// A part is empty (or spaces only): which.
    EmptyPart(&'static str),
    /// The path is absolute or leaves the repository.
    PathOutside(String),
    /// The Rulings table lacks a column the memo fills: which.
    MissingColumn(String),
}

impl EscalateError {
    /// One line saying what is wrong and what to do.
    pub fn sentence(&self) -> String {
        match self {
            EscalateError::EmptyPart(part) => {
                format!("the memo's {part} is empty; say it, a person rules on what the memo says")
            }
            EscalateError::PathOutside(p) => format!(
                "`{p}` is not a path inside the repository; give it relative to the repository root"
            ),
            EscalateError::MissingColumn(c) => format!(
                "the Rulings table has no `{c}` column; add it to the table's header (columns: {})",
                MEMO_COLUMNS.join(", ")
            ),
        }
    }
}

/// The brief's text with the memo added as a pending row, and the row's
/// id (`E1`, `E2`…: one more than the highest `E<n>` in the `id` column).
///
/// The row goes after the last row of the first table below the
/// `## Rulings` heading; with a heading but no table, a table with
/// [`MEMO_COLUMNS`] is inserted under the heading; without the heading,
/// the heading and the table are appended. An existing table's other
/// columns get empty cells. `|` in a part is escaped, line breaks become
/// spaces.
///
/// # Errors
/// [`EscalateError`] for an empty part, a path outside the repository or
/// a table without a column the memo fills; the text is then unchanged.
pub fn add_pending_row(
    text: &str,
    rulings: &[Ruling],
    memo: &Memo,
) -> Result<(String, String), EscalateError> {
    check(memo)?;
    let id = next_id(rulings);
    let values = [
        id.clone(),
        memo.path.trim().to_string(),
        PENDING.to_string(),
        memo.reason.clone(),
        numbered(&memo.options),
        memo.recommendation.clone(),
    ];
    let cell = |column: &str| {
        MEMO_COLUMNS
            .iter()
            .position(|c| *c == column)
            .map(|i| escape(&values[i]))
    };
    let out = match locate(text) {
        Place::Table { header, end } => {
            for c in MEMO_COLUMNS {
                if !header.iter().any(|h| h == c) {
                    return Err(EscalateError::MissingColumn(c.to_string()));
                }
            }
            let cells: Vec<String> = header.iter().map(|h| cell(h).unwrap_or_default()).collect();
            splice(text, end, &row(&cells))
        }
        Place::Heading { end } => splice(text, end, &format!("\n{}", new_table(&values))),
        Place::Nothing => {
            let sep = if text.ends_with('\n') { "" } else { "\n" };
            format!("{text}{sep}\n## Rulings\n\n{}", new_table(&values))
        }
    };
    Ok((out, id))
}

fn check(memo: &Memo) -> Result<(), EscalateError> {
    let empty = |s: &str| s.trim().is_empty();
    if empty(&memo.path) {
        return Err(EscalateError::EmptyPart("path"));
    }
    if empty(&memo.reason) {
        return Err(EscalateError::EmptyPart("reason"));
    }
    if memo.options.is_empty() || memo.options.iter().any(|o| empty(o)) {
        return Err(EscalateError::EmptyPart("option"));
    }
    if empty(&memo.recommendation) {
        return Err(EscalateError::EmptyPart("recommendation"));
    }
    let path = memo.path.trim();
    if path.starts_with('/') || path.starts_with('~') || path.split('/').any(|c| c == "..") {
        return Err(EscalateError::PathOutside(path.to_string()));
    }
    Ok(())
}

fn next_id(rulings: &[Ruling]) -> String {
    let highest = rulings
        .iter()
        .filter_map(|r| r.cell("id")?.strip_prefix('E')?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    format!("E{}", highest + 1)
}

fn numbered(options: &[String]) -> String {
    let parts: Vec<String> = options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("({}) {}", i + 1, o.trim()))
        .collect();
    parts.join(" ")
}

/// `value` as one table cell: line breaks become spaces, `|` is escaped.
pub(crate) fn escape(value: &str) -> String {
    let one_line: Vec<&str> = value.split_whitespace().collect();
    one_line.join(" ").replace('|', "\\|")
}

fn row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

fn new_table(values: &[String; 6]) -> String {
    let header: Vec<String> = MEMO_COLUMNS.iter().map(|c| capitalized(c)).collect();
    let rule = vec!["---".to_string(); MEMO_COLUMNS.len()];
    let cells: Vec<String> = values.iter().map(|v| escape(v)).collect();
    format!("{}{}{}", row(&header), row(&rule), row(&cells))
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `text` with `insert` at byte `at`, where `at` is a line start.
fn splice(text: &str, at: usize, insert: &str) -> String {
    let (before, after) = text.split_at(at);
    let sep = if before.is_empty() || before.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    format!("{before}{sep}{insert}{after}")
}

enum Place {
    /// The table's header (lower-cased) and the byte just past its last line.
    Table {
        header: Vec<String>,
        end: usize,
    },
    /// The byte just past the heading's line.
    Heading {
        end: usize,
    },
    Nothing,
}

fn locate(text: &str) -> Place {
    let mut events = Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter();
    let mut heading_end: Option<usize> = None;
    let mut title: Option<(HeadingLevel, String)> = None;
    while let Some((event, range)) = events.next() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                if heading_end.is_some() {
                    break;
                }
                title = Some((level, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, s)) = title.as_mut() {
                    s.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((HeadingLevel::H2, s)) = title.take() {
                    if s.trim() == "Rulings" {
                        heading_end = Some(line_end(text, range));
                    }
                }
            }
            Event::Start(Tag::Table(_)) if heading_end.is_some() => {
                return table(text, &mut events);
            }
            _ => {}
        }
    }
    heading_end.map_or(Place::Nothing, |end| Place::Heading { end })
}

fn table<'a>(text: &str, events: &mut impl Iterator<Item = (Event<'a>, Range<usize>)>) -> Place {
    let mut header = Vec::new();
    let mut in_head = false;
    for (event, range) in events {
        match event {
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableCell) if in_head => header.push(String::new()),
            Event::Text(t) | Event::Code(t) if in_head => {
                if let Some(h) = header.last_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Table) => {
                let header = header.iter().map(|h| h.trim().to_lowercase()).collect();
                return Place::Table {
                    header,
                    end: line_end(text, range),
                };
            }
            _ => {}
        }
    }
    Place::Nothing
}

/// The byte just past the line holding the last byte of `range`.
fn line_end(text: &str, range: Range<usize>) -> usize {
    let last = range.end.saturating_sub(1).max(range.start);
    text[last..].find('\n').map_or(text.len(), |i| last + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brief::parse;

    fn memo() -> Memo {
        Memo {
            path: "migrations/002.sql".into(),
            reason: "the token column | needs a rename".into(),
            options: vec!["rename it".into(), "add a new\ncolumn".into()],
            recommendation: "rename it".into(),
        }
    }

    fn escalate(text: &str) -> (String, String) {
        add_pending_row(text, &parse(text).rulings, &memo()).unwrap()
    }

    #[test]
    fn a_row_goes_after_the_last_row_with_the_table_s_columns() {
        let text = "---\nid: a\n---\n## Rulings\n\n| Id | Path | Status | Reason | Options | Recommendation | Signed |\n\
                    | --- | --- | --- | --- | --- | --- | --- |\n| E4 | a | allowed | r | o | o | yes |\n\n## Notes\n";
        let (out, id) = escalate(text);
        assert_eq!(id, "E5");
        let rows = parse(&out).rulings;
        assert_eq!(rows.len(), 2);
        let r = &rows[1];
        assert_eq!(r.cell("id"), Some("E5"));
        assert_eq!(r.cell("status"), Some(PENDING));
        assert_eq!(r.cell("path"), Some("migrations/002.sql"));
        assert_eq!(r.cell("reason"), Some("the token column | needs a rename"));
        assert_eq!(
            r.cell("options"),
            Some("(1) rename it (2) add a new column")
        );
        assert_eq!(r.cell("signed"), Some(""));
        assert!(out.ends_with("\n\n## Notes\n"), "{out}");
    }

    #[test]
    fn a_table_is_made_under_the_heading_or_with_it() {
        for text in [
            "---\nid: a\n---\n# A\n\n## Rulings\n\nNone yet.\n",
            "---\nid: a\n---\n# A\n",
        ] {
            let (out, id) = escalate(text);
            assert_eq!(id, "E1");
            let rows = parse(&out).rulings;
            assert_eq!(rows.len(), 1, "{out}");
            assert_eq!(rows[0].cells.keys().collect::<Vec<_>>(), MEMO_COLUMNS);
            assert_eq!(rows[0].cell("recommendation"), Some("rename it"));
        }
    }

    #[test]
    fn empty_parts_and_missing_columns_are_refused() {
        let text = "---\nid: a\n---\n## Rulings\n\n| Id | Path | Status |\n| --- | --- | --- |\n";
        let rulings = parse(text).rulings;
        let refused = |m: Memo| add_pending_row(text, &rulings, &m).unwrap_err();
        assert_eq!(
            refused(Memo {
                path: " ".into(),
                ..memo()
            }),
            EscalateError::EmptyPart("path")
        );
        assert_eq!(
            refused(Memo {
                reason: "".into(),
                ..memo()
            }),
            EscalateError::EmptyPart("reason")
        );
        assert_eq!(
            refused(Memo {
                options: vec![],
                ..memo()
            }),
            EscalateError::EmptyPart("option")
        );
        assert_eq!(
            refused(Memo {
                options: vec!["a".into(), " ".into()],
                ..memo()
            }),
            EscalateError::EmptyPart("option")
        );
        assert_eq!(
            refused(Memo {
                recommendation: "\n".into(),
                ..memo()
            }),
            EscalateError::EmptyPart("recommendation")
        );
        assert_eq!(
            refused(Memo {
                path: "../x".into(),
                ..memo()
            }),
            EscalateError::PathOutside("../x".into())
        );
        assert_eq!(
            refused(memo()),
            EscalateError::MissingColumn("reason".into())
        );
    }
}

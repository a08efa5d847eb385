//! One brief: front matter, file patterns and the `## Rulings` table.
//!
//! Front matter keys (spec-harness seed, "Briefs"): `id`, `title`,
//! `status`, `affectedFiles` and `protectedFiles` (lists of patterns, see
//! [`crate::pattern`]), `outOfScope` (`warn`, `ask` or `deny`; default
//! `warn`) and `baseBranch`. The YAML is read with the workspace's YAML
//! reader (serde-saphyr, through `playbookdiff_source::markdown`), the
//! table with pulldown-cmark's tables extension.
//!
//! Reading never fails: [`parse`] returns what it could read plus one
//! [`BriefProblem`] per thing it could not, each with its 1-based line.

use crate::pattern::FilePattern;
use playbookdiff_source::markdown::front_matter;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// What a write outside `affectedFiles` gets (front matter `outOfScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OutOfScope {
    /// Allowed, with a warning after the write (the default).
    #[default]
    Warn,
    /// The agent asks the person first.
    Ask,
    /// Refused.
    Deny,
}

/// A problem in a brief: what could not be read, at which 1-based line of
/// the brief's file (`None` when the whole file is concerned).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BriefProblem {
    /// 1-based line in the brief's file.
    pub line: Option<u32>,
    /// What is wrong and what to do, in one sentence.
    pub message: String,
}

/// One row of the `## Rulings` table, as written. No signature has been
/// verified: a row is what the file says, not a ruling that counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Ruling {
    /// 1-based line of the row in the brief's file.
    pub line: u32,
    /// The row's cells keyed by the table's header (lower-cased, trimmed),
    /// in column order; every value is text.
    #[schemars(with = "BTreeMap<String, String>")]
    pub cells: serde_json::Map<String, Value>,
}

impl Ruling {
    /// The text of the cell under `column` (lower-case header), if any.
    pub fn cell(&self, column: &str) -> Option<&str> {
        self.cells.get(column).and_then(Value::as_str)
    }
}

/// A brief as read from its file.
#[derive(Debug, Clone)]
pub struct Brief {
    /// Front matter `id`; empty when missing (a problem says so).
    pub id: String,
    /// Front matter `title`, when given.
    pub title: Option<String>,
    /// Front matter `status` (`draft`, `approved`, …) as written.
    pub status: Option<String>,
    /// Front matter `baseBranch`, when given.
    pub base_branch: Option<String>,
    /// Front matter `outOfScope`.
    pub out_of_scope: OutOfScope,
    /// The files the round may write.
    pub affected_files: Vec<FilePattern>,
    /// The files the round must not change.
    pub protected_files: Vec<FilePattern>,
    /// The rows of the `## Rulings` table, in file order.
    pub rulings: Vec<Ruling>,
    /// The whole file.
    pub text: String,
    /// What could not be read.
    pub problems: Vec<BriefProblem>,
}

/// Reads one brief from its text. Problems (with 1-based lines): no front
/// matter, invalid YAML, a missing or non-text `id`, a key of the wrong
/// type, an unknown `outOfScope`, a pattern that cannot be read (each in
/// [`Brief::problems`] and kept in its list, see [`FilePattern::problem`]).
pub fn parse(text: &str) -> Brief {
    let mut brief = Brief {
        id: String::new(),
        title: None,
        status: None,
        base_branch: None,
        out_of_scope: OutOfScope::default(),
        affected_files: Vec::new(),
        protected_files: Vec::new(),
        rulings: Vec::new(),
        text: text.to_string(),
        problems: Vec::new(),
    };
    let body_offset = match front_matter(text) {
        None => {
            brief.problem(
                Some(1),
                "no front matter: a brief starts with a `---` block naming its id",
            );
            0
        }
        Some(fm) => {
            match fm.value {
                Ok(value) => brief.read_keys(&value, &fm.yaml, fm.start_line),
                Err(e) => brief.problem(
                    e.line.or(Some(fm.start_line)),
                    &format!("the front matter is not valid YAML ({})", e.message),
                ),
            }
            fm.body_offset
        }
    };
    brief.rulings = rulings_table(text, body_offset, &mut brief.problems);
    brief
}

impl Brief {
    fn problem(&mut self, line: Option<u32>, message: &str) {
        self.problems.push(BriefProblem {
            line,
            message: message.to_string(),
        });
    }

    fn read_keys(&mut self, value: &Value, yaml: &str, first_line: u32) {
        let line_of = |key: &str| key_line(yaml, key).map(|l| l + first_line + 1);
        let Some(map) = value.as_object() else {
            self.problem(Some(first_line), "the front matter is not a map of keys");
            return;
        };
        self.id = self.text_key(map, "id", line_of("id")).unwrap_or_default();
        if self.id.is_empty()
            && !map
                .get("id")
                .is_some_and(|v| !v.is_string() && !v.is_null())
        {
            self.problem(
                Some(first_line),
                "the front matter has no `id`; give the brief one",
            );
        }
        self.title = self.text_key(map, "title", line_of("title"));
        self.status = self.text_key(map, "status", line_of("status"));
        self.base_branch = self.text_key(map, "baseBranch", line_of("baseBranch"));
        self.out_of_scope = self.read_out_of_scope(map.get("outOfScope"), line_of("outOfScope"));
        self.affected_files = self.read_patterns(map, "affectedFiles", line_of("affectedFiles"));
        self.protected_files = self.read_patterns(map, "protectedFiles", line_of("protectedFiles"));
    }

    fn text_key(
        &mut self,
        map: &serde_json::Map<String, Value>,
        key: &str,
        line: Option<u32>,
    ) -> Option<String> {
        match map.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => {
                self.problem(line, &format!("`{key}` must be text"));
                None
            }
        }
    }

    fn read_out_of_scope(&mut self, value: Option<&Value>, line: Option<u32>) -> OutOfScope {
        match value.map(|v| v.as_str().map(str::trim)) {
            None => OutOfScope::Warn,
            Some(Some("warn")) => OutOfScope::Warn,
            Some(Some("ask")) => OutOfScope::Ask,
            Some(Some("deny")) => OutOfScope::Deny,
            Some(_) => {
                // Fails closed: an unreadable verdict is the strictest one.
                self.problem(
                    line,
                    "`outOfScope` must be `warn`, `ask` or `deny`; read as `deny`",
                );
                OutOfScope::Deny
            }
        }
    }

    fn read_patterns(
        &mut self,
        map: &serde_json::Map<String, Value>,
        key: &str,
        line: Option<u32>,
    ) -> Vec<FilePattern> {
        let items: Vec<Value> = match map.get(key) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::String(s)) => vec![Value::String(s.clone())],
            Some(Value::Array(a)) => a.clone(),
            Some(_) => vec![Value::Null],
        };
        let patterns: Vec<FilePattern> = items
            .iter()
            .map(|v| FilePattern::new(v.as_str().unwrap_or_default()))
            .collect();
        for (item, p) in items.iter().zip(&patterns) {
            if !item.is_string() {
                self.problem(
                    line,
                    &format!("`{key}`: every entry must be a text pattern"),
                );
            } else if let Some(why) = p.problem() {
                self.problem(line, &format!("`{key}`: {why}"));
            }
        }
        patterns
    }

    /// True when some `affectedFiles` pattern cannot be read, or none is
    /// given: the scope is then not known in full.
    pub fn scope_unreadable(&self) -> bool {
        self.affected_files.is_empty() || self.affected_files.iter().any(|p| p.problem().is_some())
    }

    /// True when some `protectedFiles` pattern cannot be read.
    pub fn protected_unreadable(&self) -> bool {
        self.protected_files.iter().any(|p| p.problem().is_some())
    }
}

/// 0-based line within `yaml` of the top-level `key:`.
fn key_line(yaml: &str, key: &str) -> Option<u32> {
    let prefix = format!("{key}:");
    let index = yaml.lines().position(|l| l.starts_with(&prefix))?;
    u32::try_from(index).ok()
}

/// The rows of the first table after a `## Rulings` heading in `text`
/// (from byte `from`). No heading: no rows, no problem. A heading without
/// a table before the next heading: no rows, no problem (no ruling yet).
fn rulings_table(text: &str, from: usize, problems: &mut Vec<BriefProblem>) -> Vec<Ruling> {
    let body = &text[from..];
    let line_at = |offset: usize| line_of(text, from + offset);
    let mut events = Parser::new_ext(body, Options::ENABLE_TABLES).into_offset_iter();
    let mut in_rulings = false;
    let mut heading: Option<String> = None;
    while let Some((event, range)) = events.next() {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) if heading.is_some() => heading.get_or_insert_default().push_str(&t),
            Event::End(TagEnd::Heading(level)) => {
                let h = heading.take().unwrap_or_default();
                if in_rulings {
                    return Vec::new();
                }
                in_rulings = level == pulldown_cmark::HeadingLevel::H2 && h.trim() == "Rulings";
            }
            Event::Start(Tag::Table(_)) if in_rulings => {
                return table_rows(&mut events, line_at(range.start), &line_at, problems)
            }
            _ => {}
        }
    }
    Vec::new()
}

fn table_rows<'a>(
    events: &mut impl Iterator<Item = (Event<'a>, std::ops::Range<usize>)>,
    table_line: u32,
    line_at: &dyn Fn(usize) -> u32,
    problems: &mut Vec<BriefProblem>,
) -> Vec<Ruling> {
    let mut header: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut row_line = table_line;
    for (event, range) in events {
        match event {
            Event::Start(Tag::TableHead) => row.clear(),
            Event::Start(Tag::TableRow) => {
                row.clear();
                row_line = line_at(range.start);
            }
            Event::Start(Tag::TableCell) => row.push(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(cell) = row.last_mut() {
                    cell.push_str(&t);
                }
            }
            Event::End(TagEnd::TableHead) => {
                header = row.iter().map(|h| h.trim().to_lowercase()).collect()
            }
            Event::End(TagEnd::TableRow) => {
                let cells = header
                    .iter()
                    .cloned()
                    .zip(row.iter().map(|c| Value::String(c.trim().to_string())));
                rows.push(Ruling {
                    line: row_line,
                    cells: cells.collect(),
                });
            }
            Event::End(TagEnd::Table) => break,
            _ => {}
        }
    }
    if header.iter().any(String::is_empty) {
        problems.push(BriefProblem {
            line: Some(table_line),
            message: "the Rulings table has a column without a header".to_string(),
        });
    }
    rows
}

/// 1-based line of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> u32 {
    let newlines = text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRIEF: &str = "---
id: 012-rotate
title: Rotate the tokens
status: approved
affectedFiles:
  - src/auth/**
  - docs/auth.md
protectedFiles: [migrations/**, /etc/passwd]
outOfScope: ask
baseBranch: main
---
# Rotate the tokens

See [the design](docs/design.md).

## Rulings

| Id | Path | Status | Decision |
| --- | --- | --- | --- |
| R1 | migrations/002.sql | allowed | `add a column` |
| R2 | Cargo.toml | pending | |

## Notes

| not | rulings |
| --- | --- |
| a | b |
";

    #[test]
    fn front_matter_patterns_and_rulings() {
        let b = parse(BRIEF);
        assert_eq!(b.id, "012-rotate");
        assert_eq!(b.title.as_deref(), Some("Rotate the tokens"));
        assert_eq!(b.status.as_deref(), Some("approved"));
        assert_eq!(b.base_branch.as_deref(), Some("main"));
        assert_eq!(b.out_of_scope, OutOfScope::Ask);
        let raw = |v: &[FilePattern]| v.iter().map(|p| p.raw.clone()).collect::<Vec<_>>();
        assert_eq!(raw(&b.affected_files), ["src/auth/**", "docs/auth.md"]);
        assert_eq!(raw(&b.protected_files), ["migrations/**", "/etc/passwd"]);
        assert!(!b.scope_unreadable());
        assert!(b.protected_unreadable());
        // The rooted pattern is a problem at its key's line, never nothing.
        assert_eq!(b.problems.len(), 1, "{:?}", b.problems);
        assert_eq!(b.problems[0].line, Some(8));
        assert!(b.problems[0].message.contains("outside the repository"));
        assert_eq!(b.rulings.len(), 2);
        let columns: Vec<&String> = b.rulings[0].cells.keys().collect();
        assert_eq!(columns, ["id", "path", "status", "decision"]);
        assert_eq!(b.rulings[0].line, 20);
        assert_eq!(b.rulings[0].cell("path"), Some("migrations/002.sql"));
        assert_eq!(b.rulings[0].cell("decision"), Some("add a column"));
        assert_eq!(b.rulings[1].cell("status"), Some("pending"));
        assert_eq!(b.rulings[1].cell("decision"), Some(""));
    }

    #[test]
    fn malformed_briefs_are_problems_with_lines() {
        let cases: [(&str, Option<u32>, &str); 6] = [
            ("# no front matter\n", Some(1), "no front matter"),
            ("---\nid: [\n---\n", Some(2), "not valid YAML"),
            ("---\ntitle: x\n---\n", Some(1), "no `id`"),
            ("---\nid: [a]\n---\n", Some(2), "`id` must be text"),
            (
                "---\nid: a\noutOfScope: maybe\n---\n",
                Some(3),
                "`outOfScope` must be",
            ),
            (
                "---\nid: a\naffectedFiles: [3]\n---\n",
                Some(3),
                "must be a text pattern",
            ),
        ];
        for (text, line, says) in cases {
            let b = parse(text);
            let found = b.problems.iter().find(|p| p.message.contains(says));
            assert_eq!(
                found.map(|p| p.line),
                Some(line),
                "{text:?}: {:?}",
                b.problems
            );
        }
    }

    #[test]
    fn an_unreadable_out_of_scope_is_deny_and_no_scope_is_unreadable() {
        let b = parse("---\nid: a\noutOfScope: maybe\n---\n");
        assert_eq!(b.out_of_scope, OutOfScope::Deny);
        assert!(b.scope_unreadable());
        assert!(b.rulings.is_empty());
    }
}

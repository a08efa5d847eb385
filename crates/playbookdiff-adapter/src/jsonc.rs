//! A JSON or JSONC syntax tree (from `jsonc_parser`, parsed with each
//! agent's own options) turned into a `serde_json` value with the 1-based
//! lines of its keys: the one conversion OpenCode's `opencode.json`,
//! Gemini CLI's `settings.json` and Copilot CLI's JSON files share.

use jsonc_parser::ast::{ObjectPropName, Value as Ast};
use jsonc_parser::common::Ranged;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// For each key path: the 1-based lines `(first, last)` from its key to the
/// end of its value.
pub type Spans = HashMap<Vec<String>, (u32, u32)>;

/// Byte offsets of a text to 1-based lines.
pub struct LineIndex(Vec<usize>);

impl LineIndex {
    /// The index of `text`'s line starts.
    pub fn new(text: &str) -> Self {
        let mut v = vec![0];
        v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex(v)
    }

    /// The 1-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        self.0.partition_point(|&s| s <= offset) as u32
    }
}

/// The error of JavaScript's `JSON.parse` on text that starts with a
/// UTF-8 byte order mark (U+FEFF), at line 1; `None` for any other text.
/// An agent that reads its JSON with `JSON.parse` rejects such a file:
/// Gemini CLI 0.34.0 and 0.61.0 stop on a workspace `.gemini/settings.json`
/// (`Unexpected token '\u{feff}'`, exit 52), Copilot CLI 1.0.102 lists no
/// server of such a `.mcp.json` or `.github/mcp.json` (oracle cases
/// `oracle.bom_config`, `oracle.bom_github_mcp`). OpenCode, whose JSONC
/// reader skips the mark, reads such a file.
pub fn byte_order_mark(text: &str) -> Option<playbookdiff_source::ParseError> {
    text.starts_with('\u{feff}').then(|| {
        playbookdiff_source::ParseError::on_line(
            "it starts with a UTF-8 byte order mark (U+FEFF), which JSON.parse rejects: save it without one",
            1,
        )
    })
}

/// `ast` as a value (the last of repeated keys wins, as in JavaScript's
/// `JSON.parse`), with the lines of every key path at most `max_depth`
/// keys deep.
pub fn to_value(ast: &Ast<'_>, max_depth: usize, lines: &LineIndex) -> (Value, Spans) {
    let mut spans = Spans::new();
    let mut walk = Walk {
        path: Vec::new(),
        spans: &mut spans,
        max_depth,
        lines,
    };
    let value = walk.convert(ast);
    (value, spans)
}

/// The state of one conversion.
struct Walk<'a> {
    path: Vec<String>,
    spans: &'a mut Spans,
    max_depth: usize,
    lines: &'a LineIndex,
}

impl Walk<'_> {
    fn convert(&mut self, v: &Ast<'_>) -> Value {
        match v {
            Ast::StringLit(s) => Value::String(s.value.to_string()),
            Ast::NumberLit(n) => serde_json::from_str::<Value>(n.value).unwrap_or(Value::Null),
            Ast::BooleanLit(b) => Value::Bool(b.value),
            Ast::NullKeyword(_) => Value::Null,
            Ast::Array(a) => Value::Array(a.elements.iter().map(|e| self.convert(e)).collect()),
            Ast::Object(o) => {
                let mut m = Map::new();
                for p in &o.properties {
                    let name = match &p.name {
                        ObjectPropName::String(s) => s.value.to_string(),
                        ObjectPropName::Word(w) => w.value.to_string(),
                    };
                    self.path.push(name.clone());
                    if self.path.len() <= self.max_depth {
                        let r = p.range();
                        let span = (
                            self.lines.line(r.start),
                            self.lines.line(r.end.saturating_sub(1)),
                        );
                        self.spans.insert(self.path.clone(), span);
                    }
                    let child = self.convert(&p.value);
                    self.path.pop();
                    m.insert(name, child);
                }
                Value::Object(m)
            }
        }
    }
}

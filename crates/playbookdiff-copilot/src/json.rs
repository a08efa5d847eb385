//! JSON files Copilot CLI reads (`.mcp.json`, `.github/mcp.json`, hook
//! files, `.claude/settings.json`), parsed with the 1-based lines of each
//! key so that every item and problem names its file and line. Copilot CLI
//! reads them with `JSON.parse` (no comments, no trailing commas; the last
//! of repeated keys wins).

use crate::{Cx, READ_LIMIT};
use jsonc_parser::ast::{ObjectPropName, Value as Ast};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};
use playbookdiff_adapter::problems;
use playbookdiff_model::{RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::{ParseError, Resolved};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Key paths deeper than this are not given lines (`mcpServers.<name>.<field>`).
const MAX_SPAN_DEPTH: usize = 3;

/// For each key path: the 1-based lines from its key to the end of its value.
type Spans = HashMap<Vec<String>, (u32, u32)>;

/// One parsed JSON file whose top level is an object.
pub(crate) struct JsonFile {
    /// The file.
    pub path: RepoPath,
    /// The top-level object.
    pub value: Map<String, Value>,
    /// Lines of key paths up to [`MAX_SPAN_DEPTH`].
    spans: Spans,
}

impl JsonFile {
    /// The file as a source, with the lines of `key` when known.
    pub(crate) fn source(&self, key: &[&str]) -> SourceRef {
        let mut s = SourceRef::project(self.path.clone(), SourceFormat::Json);
        let k: Vec<String> = key.iter().map(|s| s.to_string()).collect();
        if let Some((a, b)) = self.spans.get(&k) {
            s = s.with_lines(*a, *b);
        }
        s
    }
}

/// What reading a JSON file gave.
pub(crate) enum Loaded {
    /// No regular file there.
    Missing,
    /// Present but unusable; a diagnostic says why.
    Broken,
    /// Parsed.
    File(JsonFile),
}

/// The strict `JSON.parse` grammar.
fn parse_options() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parses JSON text; errors carry the parser's message and the 1-based
/// line.
pub(crate) fn parse(text: &str) -> Result<(Value, Spans), ParseError> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(t.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line = |offset: usize| starts.partition_point(|&s| s <= offset) as u32;
    let r = jsonc_parser::parse_to_ast(t, &CollectOptions::default(), &parse_options())
        .map_err(|e| ParseError::on_line(e.kind().to_string(), line(e.range().start)))?;
    let Some(ast) = r.value else {
        return Err(ParseError::on_line("no value", line(t.len())));
    };
    let mut spans = HashMap::new();
    let value = convert(&ast, &mut Vec::new(), &mut spans, &line);
    Ok((value, spans))
}

/// Converts the AST to a JSON value, recording key spans.
fn convert(
    v: &Ast<'_>,
    path: &mut Vec<String>,
    spans: &mut Spans,
    line: &dyn Fn(usize) -> u32,
) -> Value {
    match v {
        Ast::StringLit(s) => Value::String(s.value.to_string()),
        Ast::NumberLit(n) => serde_json::from_str::<Value>(n.value).unwrap_or(Value::Null),
        Ast::BooleanLit(b) => Value::Bool(b.value),
        Ast::NullKeyword(_) => Value::Null,
        Ast::Array(a) => Value::Array(
            a.elements
                .iter()
                .map(|e| convert(e, path, spans, line))
                .collect(),
        ),
        Ast::Object(o) => {
            let mut m = Map::new();
            for p in &o.properties {
                let name = match &p.name {
                    ObjectPropName::String(s) => s.value.to_string(),
                    ObjectPropName::Word(w) => w.value.to_string(),
                };
                path.push(name.clone());
                if path.len() <= MAX_SPAN_DEPTH {
                    let r = p.range();
                    spans.insert(path.clone(), (line(r.start), line(r.end.saturating_sub(1))));
                }
                let child = convert(&p.value, path, spans, line);
                path.pop();
                m.insert(name, child);
            }
            Value::Object(m)
        }
    }
}

/// Reads and parses `path`; `effect` says what Copilot CLI does when the
/// file is unusable (it skips the file and goes on).
pub(crate) fn load(cx: &mut Cx<'_, '_>, path: &RepoPath, effect: &str) -> Loaded {
    let r = cx.repo.resolve(path);
    match &r {
        Resolved::Missing => return Loaded::Missing,
        Resolved::Inside { .. } => {}
        Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link } => {
            let what = format!("The Copilot CLI file {path}");
            if let Some(d) =
                problems::link_problem(&r, link, Some(&what), effect, SourceFormat::Json)
            {
                cx.diag(d);
            }
            return Loaded::Broken;
        }
    }
    if !cx.repo.is_file(path) {
        return Loaded::Missing;
    }
    let text = match cx.repo.read_text(path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            cx.diag(problems::read_error(path, &e, effect, SourceFormat::Json));
            return Loaded::Broken;
        }
    };
    match parse(&text.text) {
        Ok((Value::Object(value), spans)) => Loaded::File(JsonFile {
            path: path.clone(),
            value,
            spans,
        }),
        Ok(_) => {
            let e = ParseError::on_line("the top level is not an object", 1);
            cx.diag(problems::invalid_syntax(
                path,
                "JSON",
                &e,
                effect,
                SourceFormat::Json,
            ));
            Loaded::Broken
        }
        Err(e) => {
            cx.diag(problems::invalid_syntax(
                path,
                "JSON",
                &e,
                effect,
                SourceFormat::Json,
            ));
            Loaded::Broken
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    /// `JSON.parse` takes neither comments nor trailing commas; an error
    /// names its 1-based line.
    #[test]
    fn strict_json_with_lines() {
        assert!(parse("{\n\"a\": 1\n}").is_ok());
        assert_eq!(parse("{\n\"a\": 1,\n}").unwrap_err().line, Some(2));
        assert_eq!(parse("{\n// c\n\"a\": 1\n}").unwrap_err().line, Some(2));
    }
}

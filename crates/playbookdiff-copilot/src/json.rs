//! JSON files Copilot CLI reads (`.mcp.json`, `.github/mcp.json`, hook
//! files, `.claude/settings.json`), parsed with the 1-based lines of each
//! key so that every item and problem names its file and line. Copilot CLI
//! reads them with `JSON.parse` (no comments, no trailing commas; the last
//! of repeated keys wins).

use crate::profile::UserJson;
use crate::{Cx, READ_LIMIT};
use jsonc_parser::{CollectOptions, ParseOptions};
use playbookdiff_adapter::jsonc::{self, LineIndex, Spans};
use playbookdiff_adapter::problems;
use playbookdiff_model::{Diagnostic, RepoPath, SourceFormat, SourceRef, SourceScope};
use playbookdiff_source::{Machine, ParseError, Resolved, SourceError};
use serde_json::{Map, Value};

/// Key paths deeper than this are not given lines (a hook handler's
/// `hooks.<event>.<i>.hooks.<j>` is five deep).
const MAX_SPAN_DEPTH: usize = 5;

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
        let mut s = SourceRef {
            scope: SourceScope::of_path(&self.path),
            ..SourceRef::project(self.path.clone(), SourceFormat::Json)
        };
        let k: Vec<String> = key.iter().map(|s| s.to_string()).collect();
        if let Some((a, b)) = self.spans.get(&k) {
            s = s.with_lines(*a, *b);
        }
        s
    }

    /// The 1-based lines `(first, last)` of the value at `key`, when known.
    pub(crate) fn span(&self, key: &[&str]) -> Option<(u32, u32)> {
        let k: Vec<String> = key.iter().map(|s| s.to_string()).collect();
        self.spans.get(&k).copied()
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

/// The grammar with which 1.0.102 reads the user's
/// `~/.copilot/mcp-config.json` ([`UserJson::Lenient`]): JSON with
/// comments, trailing commas and missing commas, nothing else (seen on
/// cases `oracle.copilot_user_mcp_json.*`: an unquoted key refuses the
/// file). The other extensions of the crate (single quotes, hexadecimal
/// numbers...) are assumed refused, not observed.
pub(crate) fn lenient_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_missing_commas: true,
        ..parse_options()
    }
}

/// Parses JSON text; errors carry the parser's message and the 1-based
/// line.
pub(crate) fn parse(text: &str) -> Result<(Value, Spans), ParseError> {
    parse_with(text, &parse_options())
}

/// Parses text with the grammar `options` (a byte order mark refused, as
/// `JSON.parse` refuses it); errors carry the parser's message and the
/// 1-based line.
fn parse_with(text: &str, options: &ParseOptions) -> Result<(Value, Spans), ParseError> {
    if let Some(e) = jsonc::byte_order_mark(text) {
        return Err(e);
    }
    let lines = LineIndex::new(text);
    let line = |offset: usize| lines.line(offset);
    let r = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), options)
        .map_err(|e| ParseError::on_line(e.kind().to_string(), line(e.range().start)))?;
    let Some(ast) = r.value else {
        return Err(ParseError::on_line("no value", line(text.len())));
    };
    Ok(jsonc::to_value(&ast, MAX_SPAN_DEPTH, &lines))
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
    from_text(path, &text.text, effect, &mut cx.diags)
}

/// Reads and parses the user's file `path` on `machine` (local mode), as
/// [`load`] reads a repository file; problems go to `diags`, in the
/// user's layer. A file that is not valid UTF-8 is read with each invalid
/// byte as U+FFFD, as Copilot CLI reads it (seen with 1.0.24 and 1.0.102
/// on case `oracle.local_user_layers.home-copilot-non-utf8-json`: the
/// server of `~/.copilot/mcp-config.json` listed; the user's other JSON
/// files are taken to be read the same way, not observed).
pub(crate) fn load_user(
    machine: &Machine,
    path: &RepoPath,
    effect: &str,
    diags: &mut Vec<Diagnostic>,
) -> Loaded {
    match user_text(machine, path, effect, diags) {
        Ok(text) => from_text(path, &text, effect, diags),
        Err(u) => u.into(),
    }
}

/// Reads the user's configuration file `path` on `machine` as a release
/// reads it (`how`): error-tolerantly ([`UserJson::Tolerant`], a fault
/// reported with its line and what was kept) or with comments, trailing
/// and missing commas ([`UserJson::Lenient`], a fault refuses the file
/// with `effect`).
pub(crate) fn load_user_config(
    machine: &Machine,
    path: &RepoPath,
    how: UserJson,
    effect: &str,
    diags: &mut Vec<Diagnostic>,
) -> Loaded {
    let text = match user_text(machine, path, effect, diags) {
        Ok(t) => t,
        Err(u) => return u.into(),
    };
    match how {
        UserJson::Lenient => parsed(path, parse_with(&text, &lenient_options()), effect, diags),
        UserJson::Tolerant => tolerant_file(path, &text, diags),
    }
}

/// Why a user's file gave no text.
enum Unread {
    /// No regular file there.
    Missing,
    /// Unreadable; a diagnostic says why.
    Broken,
}

impl From<Unread> for Loaded {
    fn from(u: Unread) -> Self {
        match u {
            Unread::Missing => Loaded::Missing,
            Unread::Broken => Loaded::Broken,
        }
    }
}

/// The text of the user's file `path` (invalid UTF-8 replaced, reported);
/// `Err` with why when it cannot be read.
fn user_text(
    machine: &Machine,
    path: &RepoPath,
    effect: &str,
    diags: &mut Vec<Diagnostic>,
) -> Result<String, Unread> {
    match machine.read_text(path, READ_LIMIT) {
        Ok(t) => {
            let how = problems::NonUtf8::Replaced(crate::HARNESS.display_name());
            diags.extend(problems::utf8_problem(path, SourceFormat::Json, &t, how));
            Ok(t.text.clone())
        }
        Err(SourceError::NotFound(_)) => Err(Unread::Missing),
        Err(e) => {
            diags.push(problems::read_error(path, &e, effect, SourceFormat::Json));
            Err(Unread::Broken)
        }
    }
}

/// The user's file `path` holding `text`, read error-tolerantly
/// ([`crate::tolerant`]): the first fault is reported with its line and
/// the values kept; a text whose value is not an object is read as
/// `key=value` lines, as the release does.
fn tolerant_file(path: &RepoPath, text: &str, diags: &mut Vec<Diagnostic>) -> Loaded {
    let read = crate::tolerant::parse(text, MAX_SPAN_DEPTH);
    let object = match read.value {
        Some(Value::Object(m)) => Some(m),
        _ => None,
    };
    if let Some(e) = &read.error {
        let effect = if object.is_some() {
            "Copilot CLI reads the file error-tolerantly: it keeps every value read before the fault and goes on after it"
        } else {
            "Copilot CLI reads no object from it and takes its `key=value` lines instead"
        };
        diags.push(problems::invalid_syntax(
            path,
            "JSON",
            e,
            effect,
            SourceFormat::Json,
        ));
    }
    let (value, spans) = match object {
        Some(m) => (m, read.spans),
        None => (crate::tolerant::key_value_lines(text), Spans::new()),
    };
    Loaded::File(JsonFile {
        path: path.clone(),
        value,
        spans,
    })
}

/// The file `path` holding `text`, parsed; a problem is reported in
/// `diags` with `effect`.
fn from_text(path: &RepoPath, text: &str, effect: &str, diags: &mut Vec<Diagnostic>) -> Loaded {
    parsed(path, parse(text), effect, diags)
}

/// The file `path` as `result` parsed it; a problem (a fault, a top level
/// that is not an object) is reported in `diags` with `effect`.
fn parsed(
    path: &RepoPath,
    result: Result<(Value, Spans), ParseError>,
    effect: &str,
    diags: &mut Vec<Diagnostic>,
) -> Loaded {
    let e = match result {
        Ok((Value::Object(value), spans)) => {
            return Loaded::File(JsonFile {
                path: path.clone(),
                value,
                spans,
            })
        }
        Ok(_) => ParseError::on_line("the top level is not an object", 1),
        Err(e) => e,
    };
    diags.push(problems::invalid_syntax(
        path,
        "JSON",
        &e,
        effect,
        SourceFormat::Json,
    ));
    Loaded::Broken
}

#[cfg(test)]
mod tests {
    use super::{lenient_options, parse, parse_with};

    /// `JSON.parse` takes neither comments nor trailing commas; an error
    /// names its 1-based line.
    #[test]
    fn strict_json_with_lines() {
        assert!(parse("{\n\"a\": 1\n}").is_ok());
        assert_eq!(parse("{\n\"a\": 1,\n}").unwrap_err().line, Some(2));
        assert_eq!(parse("{\n// c\n\"a\": 1\n}").unwrap_err().line, Some(2));
    }

    /// The grammar of 1.0.102's user MCP file, row by row as the agent
    /// read the files of cases `oracle.copilot_user_mcp_json.*`: comments,
    /// trailing and missing commas pass; a cut, a missing brace, an
    /// unquoted key and a `key=value` line refuse the file.
    #[test]
    fn the_lenient_grammar_matches_1_0_102() {
        let e = r#"{"command": "npx", "args": []}"#;
        let ok = |t: &str| parse_with(t, &lenient_options()).is_ok();
        assert!(ok(&format!(
            "// a\n{{ /* b */ \"mcpServers\": {{\"first\": {e}}} }}"
        )));
        assert!(ok(&format!(
            "{{\"mcpServers\": {{\"a\": {e},\n\"b\": {e},}},}}"
        )));
        assert!(ok(&format!(
            "{{\"mcpServers\": {{\"a\": {e}\n\"b\": {e}}}}}"
        )));
        assert!(!ok(&format!("{{\"mcpServers\": {{\"a\": {e},\n\"b\"")));
        assert!(!ok(&format!("{{\"mcpServers\": {{\"a\": {e}\n")));
        assert!(!ok(&format!("{{mcpServers: {{\"a\": {e}}}}}")));
        assert!(!ok("mcpServers=first\n"));
    }
}

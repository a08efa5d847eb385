//! The JSON files Cursor reads (`.cursor/mcp.json`, `.cursor/hooks.json`),
//! parsed strictly with the lines of their keys, so that every item and
//! problem names its file and line. Whether Cursor accepts comments or
//! trailing commas is not documented; the analysis assumes strict JSON.

use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::json::JsonDoc;
use playbookdiff_adapter::problems;
use playbookdiff_model::{RepoPath, SourceFormat, SourceRef, SourceScope};
use playbookdiff_source::{Machine, ParseError, Resolved, SourceError};
use serde_json::{Map, Value};

/// One parsed JSON file whose top level is an object.
pub(crate) struct JsonFile {
    /// The file.
    pub path: RepoPath,
    /// The top-level object.
    pub value: Map<String, Value>,
    /// The parsed document, for the lines of its keys.
    doc: JsonDoc,
}

impl JsonFile {
    /// The file as a source, with the lines of `key` when known.
    pub(crate) fn source(&self, key: &[&str]) -> SourceRef {
        let s = SourceRef {
            scope: SourceScope::of_path(&self.path),
            ..SourceRef::project(self.path.clone(), SourceFormat::Json)
        };
        match self.doc.span(key) {
            Some((a, b)) => s.with_lines(a, b),
            None => s,
        }
    }

    /// The lines of `key`, when known.
    pub(crate) fn span(&self, key: &[&str]) -> Option<(u32, u32)> {
        self.doc.span(key)
    }
}

/// Reads and parses `path`; `None` when it is missing or unusable (a
/// diagnostic then says why, and that `effect` follows).
pub(crate) fn load(cx: &mut Cx<'_, '_>, path: &RepoPath, effect: &str) -> Option<JsonFile> {
    let r = cx.repo.resolve(path);
    match &r {
        Resolved::Missing => return None,
        Resolved::Inside { .. } => {}
        Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link } => {
            let what = format!("The Cursor file {path}");
            if let Some(d) =
                problems::link_problem(&r, link, Some(&what), effect, SourceFormat::Json)
            {
                cx.diag(d);
            }
            return None;
        }
    }
    if !cx.repo.is_file(path) {
        return None;
    }
    let text = match cx.repo.read_text(path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            cx.diag(problems::read_error(path, &e, effect, SourceFormat::Json));
            return None;
        }
    };
    parse(cx, path, &text.text, effect)
}

/// Reads and parses the user's file `path` on `machine` (local mode);
/// `None` when it is missing or unusable (a diagnostic then says why, and
/// that `effect` follows). Its items and problems are in the user's layer.
pub(crate) fn load_user(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    path: &RepoPath,
    effect: &str,
) -> Option<JsonFile> {
    let text = match machine.read_text(path, READ_LIMIT) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => return None,
        Err(e) => {
            cx.diag(problems::read_error(path, &e, effect, SourceFormat::Json));
            return None;
        }
    };
    let before = cx.diags.len();
    let file = parse(cx, path, &text.text, effect);
    for d in &mut cx.diags[before..] {
        if let Some(s) = d.source.as_mut() {
            s.scope = SourceScope::of_path(&s.path);
        }
    }
    file
}

/// Parses `text`, the content of `path`, as an object.
fn parse(cx: &mut Cx<'_, '_>, path: &RepoPath, text: &str, effect: &str) -> Option<JsonFile> {
    let (doc, value) = match JsonDoc::parse(text) {
        Ok(d) => match d.value.as_object().cloned() {
            Some(m) => (d, m),
            None => {
                let e = ParseError::on_line("the top level is not an object", 1);
                cx.diag(problems::invalid_syntax(
                    path,
                    "JSON",
                    &e,
                    effect,
                    SourceFormat::Json,
                ));
                return None;
            }
        },
        Err(e) => {
            cx.diag(problems::invalid_syntax(
                path,
                "JSON",
                &e,
                effect,
                SourceFormat::Json,
            ));
            return None;
        }
    };
    Some(JsonFile {
        path: path.clone(),
        value,
        doc,
    })
}

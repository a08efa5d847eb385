//! The workspace settings: `<cwd>/.gemini/settings.json`, and nothing else
//! of the repository.
//!
//! Gemini CLI (`loadSettings` in `packages/cli/src/config/settings.ts`)
//! merges system defaults, user, workspace and system settings; the
//! workspace file is `.gemini/settings.json` of the working directory
//! itself (skipped when that directory is the home directory). Seen with
//! 0.61.0 and 0.34.0: launched in `sub/`, the root's `.gemini/settings.json`
//! (its `context.fileName`, MCP servers and hooks) did nothing. The text is
//! read with comments stripped (`strip-json-comments`) and parsed with
//! `JSON.parse`: no trailing commas. A file that does not parse, or whose
//! top level is not an object, stops the agent (exit 52). `$VAR` and
//! `${VAR}` are expanded from the environment; the analysis never expands
//! them.
//!
//! In local mode the user's `~/.gemini/settings.json` is read too, below
//! the workspace's, the system's `/etc/gemini-cli/settings.json` above
//! it, and the system defaults `/etc/gemini-cli/system-defaults.json`
//! below the user's ([`Settings`]): `mergeSettings` in both profiled
//! releases (0.34.0 `dist/src/config/settings.js`, 0.61.0 `bundle/`)
//! merges schema defaults, system defaults, user, workspace, then system
//! settings, the last value winning, `mcpServers` merged one server at a
//! time (`SHALLOW_MERGE`).

use crate::{Cx, READ_LIMIT};
use jsonc_parser::{CollectOptions, ParseOptions};
use playbookdiff_adapter::jsonc::{self, LineIndex, Spans};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{Machine, ParseError, Resolved, SourceError};
use serde_json::{Map, Value};

/// Key paths deeper than this are not given lines (a hook handler's
/// `hooks.<event>.<i>.hooks.<j>` is five deep).
const MAX_SPAN_DEPTH: usize = 5;

/// The workspace settings as far as the adapter reads them.
#[derive(Default)]
pub(crate) struct Workspace {
    /// The file, when it exists.
    pub path: Option<RepoPath>,
    /// The parsed object; `None` when missing or refused.
    value: Option<Value>,
    /// For each key path up to [`MAX_SPAN_DEPTH`]: the 1-based lines from
    /// its key to the end of its value.
    spans: Spans,
}

impl Workspace {
    /// The value at `key`, when present.
    pub(crate) fn get(&self, key: &[&str]) -> Option<&Value> {
        let mut v = self.value.as_ref()?;
        for k in key {
            v = v.as_object()?.get(*k)?;
        }
        Some(v)
    }

    /// The 1-based lines `(first, last)` of `key`, when known.
    pub(crate) fn span(&self, key: &[&str]) -> Option<(u32, u32)> {
        let k: Vec<String> = key.iter().map(|s| s.to_string()).collect();
        self.spans.get(&k).copied()
    }

    /// The settings file as a source, with the lines of `key` when known.
    pub(crate) fn source(&self, key: &[&str]) -> Option<SourceRef> {
        let path = self.path.clone()?;
        let mut s = SourceRef {
            scope: SourceScope::of_path(&path),
            ..SourceRef::project(path, SourceFormat::Json)
        };
        let k: Vec<String> = key.iter().map(|s| s.to_string()).collect();
        if let Some((a, b)) = self.spans.get(&k) {
            s = s.with_lines(*a, *b);
        }
        Some(s)
    }

    /// `context.fileName` (a string or a list of strings), when set and
    /// well formed; a malformed value is reported and ignored.
    /// A value `setGeminiMdFilename` throws on ([`breaks_file_names`])
    /// stops Gemini CLI: reported as a refusal, and `None`.
    pub(crate) fn file_names(&self, cx: &mut Cx<'_, '_>) -> Option<FileNames> {
        let key = ["context", "fileName"];
        if self.get(&key).is_some_and(breaks_file_names) {
            let at = self.source(&key);
            let file = at
                .as_ref()
                .map(|s| problems::quote(&s.path))
                .unwrap_or_default();
            let mut d = Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!("`context.fileName` in {file} is neither a string nor a list of strings: Gemini CLI prints \"Invalid configuration in\" the file, then fails on the value (a `TypeError`, exit 1) and does not start; give it a string or a list of strings."),
            );
            d.source = at;
            cx.refuse(
                d,
                format!("`context.fileName` in {file} is neither a string nor a list of strings"),
            );
            return None;
        }
        let names = self.strings(cx, &key)?;
        let list = self.get(&key).is_some_and(Value::is_array);
        Some(FileNames { names, list })
    }

    /// `context.memoryBoundaryMarkers` (a list of strings), when set.
    pub(crate) fn boundary_markers(&self, cx: &mut Cx<'_, '_>) -> Option<Vec<String>> {
        self.strings(cx, &["context", "memoryBoundaryMarkers"])
    }

    /// The `mcpServers` object, empty when unset.
    pub(crate) fn mcp_servers(&self) -> Map<String, Value> {
        self.get(&["mcpServers"])
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    }

    /// A string or list of strings at `key`; anything else is an
    /// `invalid-value` diagnostic and `None` (Gemini CLI's schema check
    /// only warns, and the value then does not name files).
    fn strings(&self, cx: &mut Cx<'_, '_>, key: &[&str]) -> Option<Vec<String>> {
        let v = self.get(key)?;
        let list = match v {
            Value::String(s) => Some(vec![s.clone()]),
            Value::Array(a) => a.iter().map(|x| x.as_str().map(str::to_string)).collect(),
            _ => None,
        };
        if list.is_none() {
            if let Some(src) = self.source(key) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("`{}` in {} is neither a string nor a list of strings; Gemini CLI warns and the analysis takes the default.", key.join("."), problems::quote(&src.path)),
                    )
                    .at(src),
                );
            }
        }
        list
    }
}

/// The parse options of `JSON.parse`, after `strip-json-comments` when
/// `comments` (settings files; an extension's manifest has none).
fn parse_options(comments: bool) -> ParseOptions {
    ParseOptions {
        allow_comments: comments,
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

/// Parses settings text (comments allowed when `comments`); errors carry
/// the parser's message and the 1-based line.
fn parse(text: &str, comments: bool) -> Result<(Value, Spans), ParseError> {
    if let Some(e) = jsonc::byte_order_mark(text) {
        return Err(e);
    }
    let lines = LineIndex::new(text);
    let line = |offset: usize| lines.line(offset);
    let r = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &parse_options(comments))
        .map_err(|e| ParseError::on_line(e.kind().to_string(), line(e.range().start)))?;
    let Some(ast) = r.value else {
        return Err(ParseError::on_line(
            "no value, only white space or comments",
            line(text.len()),
        ));
    };
    Ok(jsonc::to_value(&ast, MAX_SPAN_DEPTH, &lines))
}

/// An extension's manifest `path` holding `text`, as `JSON.parse` reads
/// it (no comments); the parser's error when it is not a JSON object.
pub(crate) fn parse_manifest(path: RepoPath, text: &str) -> Result<Workspace, ParseError> {
    let (value, spans) = parse(text, false)?;
    if !value.is_object() {
        return Err(ParseError::on_line("the top level is not an object", 1));
    }
    Ok(Workspace {
        path: Some(path),
        value: Some(value),
        spans,
    })
}

/// The workspace settings file of a launch directory.
pub(crate) fn path_in(dir: &RepoPath) -> Option<RepoPath> {
    dir.join(crate::SETTINGS.relative())
}

/// Reads and parses `<cwd>/.gemini/settings.json`; reports the settings
/// files of the directories above cwd, which Gemini CLI does not apply.
pub(crate) fn load(cx: &mut Cx<'_, '_>) -> Workspace {
    report_not_applied(cx);
    let Some(path) = path_in(&cx.context.cwd) else {
        return Workspace::default();
    };
    let r = cx.repo.resolve(&path);
    match &r {
        Resolved::Missing => return Workspace::default(),
        Resolved::Inside { .. } => {}
        Resolved::Dangling { link, .. }
        | Resolved::Outside { link, .. }
        | Resolved::Loop { link } => {
            if let Some(d) = problems::link_problem(
                &r,
                link,
                Some(&format!("The workspace settings {path}")),
                "what Gemini CLI reads from it is unknown",
                SourceFormat::Json,
            ) {
                cx.diag(d);
            }
            return Workspace::default();
        }
    }
    if !cx.repo.is_file(&path) {
        return Workspace::default();
    }
    let text = match cx.repo.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            cx.diag(problems::read_error(
                &path,
                &e,
                "its context.fileName, MCP servers and hooks are unknown",
                SourceFormat::Json,
            ));
            return Workspace::default();
        }
    };
    from_text(cx, path, &text.text)
}

/// The settings file `path` holding `text`; an empty [`Workspace`] when
/// Gemini CLI refuses it (reported: it stops with exit 52).
fn from_text(cx: &mut Cx<'_, '_>, path: RepoPath, text: &str) -> Workspace {
    let refused = |cx: &mut Cx<'_, '_>, d: Diagnostic, why: String| {
        cx.refuse(d, why);
    };
    let at = SourceRef {
        scope: SourceScope::of_path(&path),
        ..SourceRef::project(path.clone(), SourceFormat::Json)
    };
    match parse(text, true) {
        Ok((value, spans)) if value.is_object() => Workspace {
            path: Some(path),
            value: Some(value),
            spans,
        },
        Ok(_) => {
            refused(
                cx,
                Diagnostic::new(
                    DiagnosticCode::InvalidJson,
                    format!("{} does not hold a JSON object, so Gemini CLI stops (\"Settings file is not a valid JSON object.\", exit 52); make the top level an object.", problems::quote(&path)),
                )
                .at(at),
                format!("{} does not hold a JSON object", problems::quote(&path)),
            );
            Workspace::default()
        }
        Err(e) => {
            let on = e.line.map(|l| format!(" (line {l})")).unwrap_or_default();
            refused(
                cx,
                problems::invalid_syntax(
                    &path,
                    "JSON",
                    &e,
                    "Gemini CLI stops before sending anything (exit 52; it allows comments but not trailing commas)",
                    SourceFormat::Json,
                ),
                format!("{} is not valid JSON{on}", problems::quote(&path)),
            );
            Workspace::default()
        }
    }
}

/// The settings Gemini CLI merges that the adapter reads: the system
/// defaults, the user's and the system's (local mode) and the launch
/// directory's.
#[derive(Default)]
pub(crate) struct Settings {
    /// `/etc/gemini-cli/system-defaults.json` (managed), merged first,
    /// below the user's; empty in repo mode or when absent.
    pub defaults: Workspace,
    /// `~/.gemini/settings.json`, empty in repo mode or when absent.
    pub user: Workspace,
    /// `<cwd>/.gemini/settings.json`.
    pub workspace: Workspace,
    /// `/etc/gemini-cli/settings.json` (managed), merged last, empty in
    /// repo mode or when absent.
    pub system: Workspace,
}

/// Whether `setGeminiMdFilename` (`packages/core/src/tools/memoryTool.ts`)
/// throws on `context.fileName` value `v`: it calls `trim` on each name of
/// a value JavaScript takes as true, so a number other than 0, `true`, an
/// object, or a list holding anything but strings (seen with 0.34.0 and
/// 0.61.0, `["AGENTS.md", 1]`: exit 1, case
/// `gemini.file_name_edges.in-nonstring`). A false value (`null`,
/// `false`, 0) is skipped for `GEMINI.md`.
fn breaks_file_names(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) | Value::String(_) => false,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::Array(a) => a.iter().any(|x| !x.is_string()),
        Value::Bool(true) | Value::Object(_) => true,
    }
}

/// `context.fileName` as a settings file writes it.
pub(crate) struct FileNames {
    /// The names, untrimmed.
    pub names: Vec<String>,
    /// Whether the value is a list rather than one string (before 0.44 a
    /// list replaces `GEMINI.md` even when its names are all blank).
    pub list: bool,
}

impl Settings {
    /// The files by precedence, the winner of a value first: system,
    /// workspace, user, system defaults.
    pub(crate) fn by_precedence(&self) -> [&Workspace; 4] {
        [&self.system, &self.workspace, &self.user, &self.defaults]
    }

    /// The value at `key` as merged (the first file of
    /// [`Settings::by_precedence`] that sets it).
    pub(crate) fn get(&self, key: &[&str]) -> Option<&Value> {
        self.by_precedence().into_iter().find_map(|f| f.get(key))
    }

    /// `context.fileName` as merged: the system's, else the workspace's,
    /// else the user's, else the system defaults'.
    pub(crate) fn file_names(&self, cx: &mut Cx<'_, '_>) -> Option<FileNames> {
        self.by_precedence()
            .into_iter()
            .find_map(|f| f.file_names(cx))
    }

    /// `context.memoryBoundaryMarkers` as merged, in the same order as
    /// [`Settings::file_names`] (a list is replaced whole).
    pub(crate) fn boundary_markers(&self, cx: &mut Cx<'_, '_>) -> Option<Vec<String>> {
        self.by_precedence()
            .into_iter()
            .find_map(|f| f.boundary_markers(cx))
    }
}

/// The user's settings file, as provenance names it.
pub(crate) fn user_path() -> Option<RepoPath> {
    RepoPath::on_machine("~", ".gemini/settings.json")
}

/// The system settings file, as provenance names it (`getSystemSettingsPath`
/// on Linux, both profiled releases; `GEMINI_CLI_SYSTEM_SETTINGS_PATH`
/// moves it, which the analysis does not read: `--managed-root` stands
/// for `/`).
pub(crate) fn system_path() -> Option<RepoPath> {
    RepoPath::on_machine("/", "etc/gemini-cli/settings.json")
}

/// The system defaults file, as provenance names it
/// (`getSystemDefaultsPath`, both profiled releases: `system-defaults.json`
/// beside the system settings; `GEMINI_CLI_SYSTEM_DEFAULTS_PATH` moves
/// it, which the analysis does not read).
pub(crate) fn system_defaults_path() -> Option<RepoPath> {
    RepoPath::on_machine("/", "etc/gemini-cli/system-defaults.json")
}

/// Reads and parses the machine's settings file `path` (the user's
/// `~/.gemini/settings.json`, or the system's) on `machine`; empty when
/// absent. A file that does not parse stops Gemini CLI as a workspace
/// file does (`loadSettings` collects the errors of every scope and
/// exits 52).
pub(crate) fn load_machine(cx: &mut Cx<'_, '_>, machine: &Machine, path: RepoPath) -> Workspace {
    match machine.read_text(&path, READ_LIMIT) {
        Ok(t) => {
            let non_utf8 = problems::utf8_problem(&path, SourceFormat::Json, &t, crate::NON_UTF8);
            cx.diags.extend(non_utf8);
            from_text(cx, path, &t.text)
        }
        Err(SourceError::NotFound(_)) => Workspace::default(),
        Err(e) => {
            cx.diag(problems::read_error(
                &path,
                &e,
                "its context.fileName and MCP servers are unknown",
                SourceFormat::Json,
            ));
            Workspace::default()
        }
    }
}

/// One `workspace-settings-not-applied` diagnostic per
/// `.gemini/settings.json` of a directory above cwd.
fn report_not_applied(cx: &mut Cx<'_, '_>) {
    let cwd = cx.context.cwd.clone();
    for dir in cwd.ancestors_root_first() {
        if dir == cwd {
            continue;
        }
        let Some(p) = path_in(&dir) else { continue };
        if cx.repo.is_file(&p) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::WorkspaceSettingsNotApplied,
                    format!("{} is not applied from cwd {}: Gemini CLI reads only the launch directory's own `.gemini/settings.json`, so its context.fileName, MCP servers and hooks do nothing here; copy what is needed into `{}`.", problems::quote(&p), problems::quote(&cwd), path_in(&cwd).map(|p| p.to_string()).unwrap_or_default()),
                )
                .at(SourceRef::project(p, SourceFormat::Json)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    /// Comments are stripped; a trailing comma is an error with its line.
    #[test]
    fn comments_yes_trailing_commas_no() {
        assert!(parse("{\n// c\n\"a\": 1 /* x */\n}", true).is_ok());
        let e = parse("{\n\"a\": 1,\n}", true).unwrap_err();
        assert_eq!(e.line, Some(2), "the line of the trailing comma");
    }
}

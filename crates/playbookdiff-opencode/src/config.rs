//! Project configuration layers and their merge.
//!
//! OpenCode 1.18.33 (`Config.loadInstanceState` in
//! `packages/opencode/src/config/config.ts`, `ConfigPaths` in
//! `config/paths.ts`) reads, after the user's global files:
//!
//! 1. `opencode.json` and `opencode.jsonc` in every directory from the
//!    worktree root down to cwd, root first, the `.jsonc` after the `.json`
//!    of the same directory (`ConfigPaths.files`: collected upward with
//!    `.jsonc` first, then reversed);
//! 2. `.opencode/opencode.json` then `.opencode/opencode.jsonc` of every
//!    directory from cwd *up* to the root (`ConfigPaths.directories`, not
//!    reversed), so the root's `.opencode` is merged last and wins.
//!
//! In local mode the user's global files come first (`Config.getGlobal`:
//! `config.json`, `opencode.json`, then `opencode.jsonc` of the global
//! configuration directory, [`crate::user::config_dir`]), merged among
//! themselves with `mergeDeep` alone (a later file's `instructions` list
//! replaces an earlier one's), then below the project's layers, which win
//! every value (seen with 1.18.33, case
//! `oracle.local_user_layers.home-opencode-config`: the project's `docs`
//! server replaces the user's, the user's `opencode.jsonc` list replaces
//! its `config.json` list). A global file that is not valid JSONC stops
//! OpenCode as a project file does (case
//! `oracle.local_user_layers.home-opencode-config-invalid`).
//!
//! Each file is JSONC (comments and trailing commas; Microsoft's
//! `jsonc-parser` with `allowTrailingComma`); any syntax error stops
//! OpenCode with "is not valid JSON(C)". `{env:VAR}` is replaced in the raw
//! text before parsing and `{file:path}` by the trimmed content of a file
//! relative to the config file's directory (a missing file stops OpenCode);
//! the analysis expands neither inside strings (values stay symbolic), but
//! inlines a `{file:path}` written outside a string, where it is JSON
//! syntax (`"enabled": {file:flag.txt}`). Layers are deep-merged (`mergeDeep`:
//! objects key by key, arrays and scalars replaced), except `instructions`,
//! whose lists are joined without repeats (from 1.1.11 on; before, a later
//! list replaces the earlier, [`InstructionLists`]). An empty file (0 bytes) counts as
//! `{}`; one of only white space or comments is refused.
//! Unknown top-level keys are dropped silently (seen with 1.18.33: `"bogus":
//! 1` loads).

use crate::profile::InstructionLists;
use crate::{place, Cx, Walk, READ_LIMIT};
use jsonc_parser::{CollectOptions, ParseOptions};
use playbookdiff_adapter::jsonc::{self, LineIndex};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, RepoPath, Severity, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, ParseError, Resolved, SourceError, TextFile};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Key paths deeper than this are not given lines (`mcp.<name>.<field>`).
const MAX_SPAN_DEPTH: usize = 3;

/// One project configuration file that OpenCode merges for this cwd.
pub(crate) struct Layer {
    /// The file.
    pub path: RepoPath,
    /// The parsed document; `None` when the file is missing, unreadable
    /// or invalid (a diagnostic says which).
    pub doc: Option<Doc>,
}

impl Layer {
    /// The file as a source reference, with the lines of the value at
    /// `key` when known.
    pub(crate) fn source(&self, key: &[&str]) -> SourceRef {
        let mut s = SourceRef {
            scope: self.scope(),
            ..SourceRef::project(self.path.clone(), SourceFormat::Json)
        };
        if let Some((a, b)) = self.doc.as_ref().and_then(|d| d.span(key)) {
            s = s.with_lines(a, b);
        }
        s
    }

    /// The layer the file belongs to: the project's, or the user's for a
    /// global file.
    pub(crate) fn scope(&self) -> SourceScope {
        SourceScope::of_path(&self.path)
    }

    /// True for a file of the user's global configuration directory (not
    /// `~/.opencode`, nor a layer an `OPENCODE_CONFIG*` variable gives):
    /// the files merged among themselves first.
    pub(crate) fn is_global(&self) -> bool {
        let in_place = self.path.machine_parts().is_some_and(|(label, _)| {
            label == "~" || label.strip_prefix('$') == Some(crate::user::CONFIG_VAR)
        });
        self.scope() == SourceScope::User && in_place && self.path.parent() != home_dir()
    }

    /// The value at `key` in this layer, when present.
    pub(crate) fn get(&self, key: &[&str]) -> Option<&Value> {
        let mut v = &self.doc.as_ref()?.value;
        for k in key {
            v = v.as_object()?.get(*k)?;
        }
        Some(v)
    }
}

/// A parsed JSONC document with the lines of its keys.
#[derive(Debug)]
pub(crate) struct Doc {
    /// The value.
    pub value: Value,
    /// For each key path up to [`MAX_SPAN_DEPTH`]: the 1-based lines from
    /// its key to the end of its value.
    spans: HashMap<Vec<String>, (u32, u32)>,
}

impl Doc {
    /// The lines of the value at `key`, when indexed.
    pub(crate) fn span(&self, key: &[&str]) -> Option<(u32, u32)> {
        let k: Vec<String> = key.iter().map(|s| s.to_string()).collect();
        self.spans.get(&k).copied()
    }
}

/// The merged configuration, as far as the adapter reads it.
pub(crate) struct Merged {
    /// `instructions` entries, joined across layers without repeats, each
    /// with the `instructions` value of the first layer that lists it.
    pub instructions: Vec<(String, SourceRef)>,
    /// `skills.paths` of the last layer that sets it (arrays are replaced),
    /// with that setting's source.
    pub skill_paths: Vec<(String, SourceRef)>,
    /// `skills.urls` of the last layer that sets it.
    pub skill_urls: Vec<(String, SourceRef)>,
    /// The merged `mcp` object.
    pub mcp: Map<String, Value>,
}

/// The parse options of OpenCode's JSONC reader: comments and trailing
/// commas, nothing else beyond JSON.
fn parse_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parses JSONC text as OpenCode does. Errors give the parser's message
/// and the 1-based line. An empty file (0 bytes) is `{}`; a file of only
/// white space or comments holds no value, which OpenCode refuses as not
/// valid JSON(C) (seen with 1.18.33: `opencode.jsonc_edges.in-whitespace`
/// and `.in-comment_only` in `oracle/observations/opencode/1.18.33/`).
pub(crate) fn parse(text: &str) -> Result<Doc, ParseError> {
    if text.is_empty() {
        return Ok(Doc {
            value: Value::Object(Map::new()),
            spans: HashMap::new(),
        });
    }
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = LineIndex::new(t);
    let r = jsonc_parser::parse_to_ast(t, &CollectOptions::default(), &parse_options())
        // The end of the error range: OpenCode names the line after the
        // last one for a file that ends too early.
        .map_err(|e| ParseError::on_line(e.kind().to_string(), lines.line(e.range().end)))?;
    let Some(ast) = r.value else {
        return Err(ParseError::on_line(
            "no value, only white space or comments",
            lines.line(t.len()),
        ));
    };
    let (value, spans) = jsonc::to_value(&ast, MAX_SPAN_DEPTH, &lines);
    Ok(Doc { value, spans })
}

/// `mergeDeep` (remeda): objects merged key by key, anything else replaced
/// by the later value.
pub(crate) fn merge_deep(base: &mut Value, later: &Value) {
    match (base, later) {
        (Value::Object(b), Value::Object(l)) => {
            for (k, v) in l {
                match b.get_mut(k) {
                    Some(existing) if existing.is_object() && v.is_object() => {
                        merge_deep(existing, v)
                    }
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, l) => *b = l.clone(),
    }
}

/// The global configuration files, in the order OpenCode merges them
/// (`Config.getGlobal` in OpenCode 1.18.33's `config/config.ts`).
pub(crate) const GLOBAL_FILES: [&str; 3] = ["config.json", "opencode.json", "opencode.jsonc"];

/// Finds, reads and parses the layers in OpenCode's merge order: in local
/// mode (a `machine`) the user's global files and `$OPENCODE_CONFIG`, then
/// the project's, then the user's `~/.opencode` ([`home_dir`]),
/// `$OPENCODE_CONFIG_DIR` and `$OPENCODE_CONFIG_CONTENT`, then the managed
/// files ([`managed_dir`]).
pub(crate) fn load(cx: &mut Cx<'_, '_>, machine: Option<&Machine>) -> Vec<Layer> {
    let mut out = machine.map(|m| user_layers(cx, m)).unwrap_or_default();
    if let Some(m) = machine {
        out.extend(variable_layer(cx, m, crate::user::CONFIG_FILE_VAR));
    }
    for dir in cx.up_chain().into_iter().rev() {
        for name in crate::CONFIG_FILES.map(|s| s.relative()) {
            if let Some(path) = dir.join(name) {
                if let Some(l) = read_layer(cx, &path) {
                    out.push(l);
                }
            }
        }
    }
    for dir in cx.up_chain() {
        let Some(dot) = dir.join(".opencode") else {
            continue;
        };
        if !cx.exists(&dot) {
            continue;
        }
        for name in crate::CONFIG_FILES.map(|s| s.relative()) {
            if let Some(path) = dot.join(name) {
                if let Some(l) = read_layer(cx, &path) {
                    out.push(l);
                }
            }
        }
    }
    if let Some(m) = machine {
        out.extend(home_dir_layers(cx, m));
        out.extend(machine_dir_layers(cx, m, crate::user::env_dir(m)));
        out.extend(variable_layer(cx, m, crate::user::CONFIG_CONTENT_VAR));
        out.extend(managed_layers(cx, m));
    }
    out
}

/// The layer the variable `name` gives on `machine`, named `$NAME`: the
/// file `OPENCODE_CONFIG` names (a missing one counts as empty, as
/// OpenCode reads it with `readFileStringSafe`), or the text of
/// `OPENCODE_CONFIG_CONTENT`, whose lines are lines of that text. `None`
/// when the variable is not set. Seen with 1.18.33, case
/// `oracle.local_user_layers.home-opencode-env`: the file's server is
/// loaded and the project's wins a name over it; the text's wins over
/// `$OPENCODE_CONFIG_DIR/opencode.json`, which wins over the project's.
fn variable_layer(cx: &mut Cx<'_, '_>, machine: &Machine, name: &str) -> Option<Layer> {
    if machine.var(name).is_none() && machine.text(name).is_none() {
        return None;
    }
    read_user_layer(cx, machine, RepoPath::on_machine(&format!("${name}"), ".")?)
}

/// OpenCode's managed configuration directory on Linux, as provenance
/// names it (`managedConfigDir` in 1.18.33: `/etc/opencode`, moved by
/// `OPENCODE_TEST_MANAGED_CONFIG_DIR`, which the analysis does not read:
/// `--managed-root` stands for `/`).
pub(crate) fn managed_dir() -> Option<RepoPath> {
    RepoPath::on_machine("/", "etc/opencode")
}

/// The managed layers present on `machine`: `opencode.json` then
/// `opencode.jsonc` of [`managed_dir`], merged after every other layer,
/// so they win every value (seen with 1.18.33, case
/// `oracle.local_user_layers.home-opencode-dot-opencode.managed-opencode-policy`).
fn managed_layers(cx: &mut Cx<'_, '_>, machine: &Machine) -> Vec<Layer> {
    machine_dir_layers(cx, machine, managed_dir())
}

/// The configuration files ([`crate::CONFIG_FILES`], in merge order) of
/// the machine's directory `dir` present on `machine`; none when `dir`
/// cannot be named.
fn machine_dir_layers(cx: &mut Cx<'_, '_>, machine: &Machine, dir: Option<RepoPath>) -> Vec<Layer> {
    let Some(dir) = dir else {
        return Vec::new();
    };
    crate::CONFIG_FILES
        .map(|s| s.relative())
        .into_iter()
        .filter_map(|name| dir.join(name))
        .filter_map(|path| read_user_layer(cx, machine, path))
        .collect()
}

/// The `.opencode` directory of the user's home, as provenance names it.
/// OpenCode 1.18.33 reads it after the project's `.opencode` directories
/// (`ConfigPaths.directories`: `up({targets: [".opencode"], start: home,
/// stop: home})`), so its `opencode.json(c)` wins over the project's
/// values, and its agents and commands over the project's files.
pub(crate) fn home_dir() -> Option<RepoPath> {
    RepoPath::on_machine("~", ".opencode")
}

/// The layers of the user's `~/.opencode` present on `machine`, in merge
/// order.
fn home_dir_layers(cx: &mut Cx<'_, '_>, machine: &Machine) -> Vec<Layer> {
    machine_dir_layers(cx, machine, home_dir())
}

/// The user's global layers present on `machine`, in merge order.
fn user_layers(cx: &mut Cx<'_, '_>, machine: &Machine) -> Vec<Layer> {
    let Some(dir) = crate::user::config_dir(machine) else {
        return Vec::new();
    };
    GLOBAL_FILES
        .iter()
        .filter_map(|name| dir.join(name))
        .filter_map(|path| read_user_layer(cx, machine, path))
        .collect()
}

/// Reads one global layer of the user's; `None` when it is absent. A
/// `{file:...}` reference there names a file relative to the user's
/// configuration directory, which the analysis neither checks nor
/// inlines (its value stays symbolic).
fn read_user_layer(cx: &mut Cx<'_, '_>, machine: &Machine, path: RepoPath) -> Option<Layer> {
    let text = match machine.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => return None,
        Err(e) => {
            cx.diag(problems::read_error(
                &path,
                &e,
                "its MCP servers, instructions, agents and commands are unknown",
                SourceFormat::Json,
            ));
            return Some(Layer { path, doc: None });
        }
    };
    let non_utf8 = problems::utf8_problem(&path, SourceFormat::Json, &text, crate::NON_UTF8);
    cx.diags.extend(non_utf8);
    let doc = parse_layer(cx, &path, &text.text);
    Some(Layer { path, doc })
}

/// Reads one layer; `None` when nothing is there. OpenCode reads with
/// `readFileStringSafe`: a missing or unreadable file counts as empty.
fn read_layer(cx: &mut Cx<'_, '_>, path: &RepoPath) -> Option<Layer> {
    let r = cx.repo.resolve(path);
    match &r {
        Resolved::Missing => return None,
        Resolved::Inside {
            kind: kind @ (EntryKind::Dir | EntryKind::Other),
            via_link,
            ..
        } => {
            refuse_not_a_file(cx, path, *kind, *via_link);
            return Some(Layer {
                path: path.clone(),
                doc: None,
            });
        }
        Resolved::Inside { .. } => {}
        _ => {
            cx.link_problem(
                &r,
                &format!("The OpenCode configuration {path}"),
                "OpenCode reads nothing from it",
            );
            return None;
        }
    }
    let layer = |doc| Layer {
        path: path.clone(),
        doc,
    };
    let text: Arc<TextFile> = match cx.repo.read_text(path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            // OpenCode itself reads any size; unreadable, it treats the
            // file as empty.
            cx.diag(problems::read_error(
                path,
                &e,
                "its MCP servers, instructions and skills settings are unknown",
                SourceFormat::Json,
            ));
            return Some(layer(None));
        }
    };
    let inlined = inline_bare_file_refs(cx, path, &text.text);
    let doc = parse_layer(cx, path, &inlined);
    if doc.is_some() {
        check_file_references(cx, path, &text.text);
    }
    Some(layer(doc))
}

/// Parses the text of the layer `path`; `None` (OpenCode refuses to
/// start, reported) when it is not valid JSONC or not an object.
fn parse_layer(cx: &mut Cx<'_, '_>, path: &RepoPath, text: &str) -> Option<Doc> {
    let at = SourceRef {
        scope: SourceScope::of_path(path),
        ..SourceRef::project(path.clone(), SourceFormat::Json)
    };
    match parse(text) {
        Ok(doc) => {
            if !doc.value.is_object() {
                cx.refuse(
                    Diagnostic::new(
                        DiagnosticCode::InvalidJson,
                        format!("{path} does not hold a JSON object, so OpenCode refuses to start (\"Configuration is invalid\"); make the top level an object."),
                    )
                    .at(at),
                    format!("{} does not hold a JSON object", problems::quote(path)),
                );
                return None;
            }
            Some(doc)
        }
        Err(e) => {
            let on = e.line.map(|l| format!(" (line {l})")).unwrap_or_default();
            cx.refuse(
                problems::invalid_syntax(
                    path,
                    "JSONC",
                    &e,
                    "OpenCode refuses to start (\"is not valid JSON(C)\")",
                    SourceFormat::Json,
                ),
                format!("{} is not valid JSONC{on}", problems::quote(path)),
            );
            None
        }
    }
}

/// Reports a configuration file (`path`) that is a directory or a special
/// file (`kind`; reached through a link when `via_link`), and refuses the
/// configuration. Observed with OpenCode 1.18.33 (`opencode debug config`,
/// offline, docs/fidelity.md "OpenCode configuration that is not a
/// file"): a directory `opencode.json` ends the start with "Unexpected
/// error" and `BadResource: FileSystem.readFile`, exit 1; a FIFO blocks
/// the read, and OpenCode waits without starting until killed.
fn refuse_not_a_file(cx: &mut Cx<'_, '_>, path: &RepoPath, kind: EntryKind, via_link: bool) {
    let effect = match kind {
        EntryKind::Other => "OpenCode's read of it blocks (a FIFO) or fails, and OpenCode does not start",
        _ => "OpenCode fails to read it (\"Unexpected error\", `BadResource: FileSystem.readFile`) and does not start",
    };
    cx.refuse(
        problems::not_a_file(path, kind, via_link, effect, SourceFormat::Json)
            .with_severity(Severity::Error),
        format!(
            "{} is {}, not a regular file",
            problems::quote(path),
            problems::kind_phrase(kind)
        ),
    );
}

/// `text` with every `{file:path}` token that stands outside a JSON string
/// and outside a comment replaced as OpenCode replaces it before parsing:
/// by the trimmed content of the repository file it names (relative to the
/// config file's directory), escaped as inside a JSON string. So
/// `"enabled": {file:flag.txt}` with `flag.txt` holding `false` reads as
/// `"enabled": false` (`substitute` in `packages/opencode/src/config/
/// variable.ts`; seen with 1.18.33, `oracle/observations/opencode/1.18.33/
/// opencode.jsonc_edges.in-file_unquoted.json`). Tokens inside strings are
/// left as written, so their values stay symbolic; a token naming a file
/// outside the repository, a missing file or a file the analysis cannot
/// read is left as written too (the text then fails to parse, as OpenCode
/// fails on the missing file).
fn inline_bare_file_refs<'t>(
    cx: &mut Cx<'_, '_>,
    path: &RepoPath,
    text: &'t str,
) -> std::borrow::Cow<'t, str> {
    if !text.contains("{file:") {
        return std::borrow::Cow::Borrowed(text);
    }
    let dir = path.parent().unwrap_or_else(RepoPath::root);
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut copied) = (0usize, 0usize);
    let mut string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if string {
            match b {
                b'\\' => i += 1,
                b'"' => string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => string = true,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                continue;
            }
            b'{' if text[i..].starts_with("{file:") => {
                if let Some(end) = text[i..].find('}').map(|n| i + n) {
                    let reference = &text[i + 6..end];
                    let content = if reference.is_empty()
                        || reference.starts_with("~/")
                        || reference.starts_with('/')
                    {
                        None
                    } else {
                        dir.join(reference)
                            .filter(|t| cx.repo.is_file(t))
                            .and_then(|t| cx.repo.read_text(&t, READ_LIMIT).ok())
                    };
                    if let Some(content) = content {
                        let escaped = serde_json::to_string(content.text.trim())
                            .unwrap_or_else(|_| "\"\"".to_string());
                        out.push_str(&text[copied..i]);
                        out.push_str(&escaped[1..escaped.len() - 1]);
                        copied = end + 1;
                        i = end + 1;
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// `{file:path}` references outside `//` comment lines: OpenCode replaces
/// each with the trimmed content of the file, resolved from the config
/// file's directory (`~/` from the home directory), and refuses to start
/// when it is missing (`config/variable.ts`, seen with 1.18.33: "bad file
/// reference"). The analysis never inlines the content.
fn check_file_references(cx: &mut Cx<'_, '_>, path: &RepoPath, text: &str) {
    let dir = path.parent().unwrap_or_else(RepoPath::root);
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let mut rest = line;
        let mut col = 0;
        while let Some(i) = rest.find("{file:") {
            let Some(j) = rest[i..].find('}') else { break };
            let before = &line[..col + i];
            let reference = &rest[i + 6..i + j];
            col += i + j + 1;
            rest = &rest[i + j + 1..];
            if before.trim_start().starts_with("//") || reference.is_empty() {
                continue;
            }
            let line_no = text[..start].matches('\n').count() as u32 + 1;
            let src =
                SourceRef::project(path.clone(), SourceFormat::Json).with_lines(line_no, line_no);
            if reference.starts_with("~/") || reference.starts_with('/') {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::UserConfigUnavailable,
                        format!("{} inlines `{{file:{reference}}}`, a file outside the repository; OpenCode refuses to start when it is missing on the developer's machine, and the analysis does not read it.", problems::quote(path)),
                    )
                    .at(src),
                );
                continue;
            }
            let target = dir.join(reference);
            let found = target.as_ref().is_some_and(|t| cx.repo.is_file(t));
            if !found {
                cx.refuse(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("{} inlines `{{file:{reference}}}`, but no such file exists in the repository (relative to {}), so OpenCode refuses to start (\"bad file reference\") unless the file is created locally; add it or remove the reference.", problems::quote(path), place(&dir)),
                    )
                    .with_severity(Severity::Error)
                    .at(src),
                    format!("{} inlines the missing file {reference:?}", problems::quote(path)),
                );
            }
        }
    }
}

/// The kinds of JSON value a typed setting accepts.
#[derive(Clone, Copy)]
enum Kind {
    String,
    Boolean,
    Array,
    Object,
}

impl Kind {
    fn holds(self, v: &Value) -> bool {
        match self {
            Kind::String => v.is_string(),
            Kind::Boolean => v.is_boolean(),
            Kind::Array => v.is_array(),
            Kind::Object => v.is_object(),
        }
    }
}

/// Top-level settings that OpenCode 1.18.33's configuration schema types
/// (`Config.Info` in `packages/opencode/src/config/config.ts`), besides
/// the ones [`merge`] reads, with the kinds of value each accepts and how
/// a message names them. Any other value, `null` included, makes OpenCode
/// refuse the file ("Configuration is invalid ... Expected string |
/// undefined, got 5 model"): seen with `opencode debug config` for every
/// key here. Each file is validated on its own, before the merge.
const TYPED_SETTINGS: &[(&str, &[Kind], &str)] = &[
    ("$schema", &[Kind::String], "a string"),
    ("model", &[Kind::String], "a string"),
    ("small_model", &[Kind::String], "a string"),
    ("default_agent", &[Kind::String], "a string"),
    ("username", &[Kind::String], "a string"),
    (
        "share",
        &[Kind::String],
        "\"manual\", \"auto\" or \"disabled\"",
    ),
    (
        "logLevel",
        &[Kind::String],
        "\"DEBUG\", \"INFO\", \"WARN\" or \"ERROR\"",
    ),
    ("layout", &[Kind::String], "\"auto\" or \"stretch\""),
    ("snapshot", &[Kind::Boolean], "true or false"),
    ("autoshare", &[Kind::Boolean], "true or false"),
    (
        "autoupdate",
        &[Kind::Boolean, Kind::String],
        "true, false or \"notify\"",
    ),
    ("plugin", &[Kind::Array], "a list"),
    ("disabled_providers", &[Kind::Array], "a list"),
    ("enabled_providers", &[Kind::Array], "a list"),
    ("agent", &[Kind::Object], "an object"),
    ("mode", &[Kind::Object], "an object"),
    ("command", &[Kind::Object], "an object"),
    ("provider", &[Kind::Object], "an object"),
    ("tools", &[Kind::Object], "an object"),
    ("experimental", &[Kind::Object], "an object"),
    ("compaction", &[Kind::Object], "an object"),
    ("watcher", &[Kind::Object], "an object"),
    ("server", &[Kind::Object], "an object"),
    ("enterprise", &[Kind::Object], "an object"),
    ("references", &[Kind::Object], "an object"),
    (
        "permission",
        &[Kind::String, Kind::Object],
        "\"ask\", \"allow\", \"deny\" or an object",
    ),
    (
        "formatter",
        &[Kind::Boolean, Kind::Object],
        "true, false or an object",
    ),
    (
        "lsp",
        &[Kind::Boolean, Kind::Object],
        "true, false or an object",
    ),
];

/// Settings of [`TYPED_SETTINGS`] whose string value must be one of a
/// fixed set (literals in OpenCode 1.18.33's schema: `share`,
/// `autoupdate`, `LayoutConfig`, `LogLevel`, `PermissionActionConfig`),
/// with the strings accepted, case included. Any other string makes
/// OpenCode refuse the file ("Configuration is invalid ... Expected
/// \"manual\" | \"auto\" | \"disabled\", got \"bogus\" share"): seen with
/// `opencode debug config` for each key set to `"bogus"`, and each listed
/// string seen accepted. Free strings (`model`, `default_agent`,
/// `username`...) take any value.
const STRING_VARIANTS: &[(&str, &[&str])] = &[
    ("share", &["manual", "auto", "disabled"]),
    ("autoupdate", &["notify"]),
    ("layout", &["auto", "stretch"]),
    ("logLevel", &["DEBUG", "INFO", "WARN", "ERROR"]),
    ("permission", &["ask", "allow", "deny"]),
];

/// Whether `v`, a value of a kind `key` accepts, is also one of the
/// strings [`STRING_VARIANTS`] allows it (true for other keys and kinds).
fn a_known_variant(key: &str, v: &Value) -> bool {
    let Some(text) = v.as_str() else {
        return true;
    };
    STRING_VARIANTS
        .iter()
        .find(|(k, _)| *k == key)
        .is_none_or(|(_, known)| known.contains(&text))
}

/// Merges the layers in order: the values the adapter reads, and
/// diagnostics for settings of the wrong shape. `lists` says how the
/// release merges two `instructions` lists (joined from 1.1.11 on; before,
/// a later layer's list replaces the earlier).
pub(crate) fn merge(cx: &mut Cx<'_, '_>, layers: &[Layer], lists: InstructionLists) -> Merged {
    let mut m = Merged {
        instructions: Vec::new(),
        skill_paths: Vec::new(),
        skill_urls: Vec::new(),
        mcp: Map::new(),
    };
    let mut mcp = Value::Object(Map::new());
    for l in layers {
        for &(key, kinds, want) in TYPED_SETTINGS {
            if let Some(v) = l.get(&[key]) {
                if !kinds.iter().any(|k| k.holds(v)) || !a_known_variant(key, v) {
                    wrong_shape(cx, l, &[key], want);
                }
            }
        }
        if let Some(v) = l.get(&["instructions"]) {
            match strings(v) {
                Some(list) => {
                    if lists == InstructionLists::Replaced {
                        m.instructions.clear();
                    } else if l.is_global() {
                        // Among the global files, `mergeDeep` alone: the
                        // later list replaces the earlier.
                        m.instructions.retain(|(_, s)| s.scope != SourceScope::User);
                        // (Only global files precede: none of the
                        // project's or of `~/.opencode` is dropped.)
                    }
                    for s in list {
                        if !m.instructions.iter().any(|(x, _)| *x == s) {
                            m.instructions.push((s, l.source(&["instructions"])));
                        }
                    }
                }
                None => wrong_shape(cx, l, &["instructions"], "a list of paths, globs or URLs"),
            }
        }
        if let Some(skills) = l.get(&["skills"]) {
            if !skills.is_object() {
                wrong_shape(cx, l, &["skills"], "an object with paths and urls");
            }
        }
        for (key, slot) in [("paths", &mut m.skill_paths), ("urls", &mut m.skill_urls)] {
            if let Some(v) = l.get(&["skills", key]) {
                match strings(v) {
                    Some(list) => {
                        let src = l.source(&["skills", key]);
                        *slot = list.into_iter().map(|s| (s, src.clone())).collect()
                    }
                    None => wrong_shape(cx, l, &["skills", key], "a list of strings"),
                }
            }
        }
        if let Some(v) = l.get(&["mcp"]) {
            if v.is_object() {
                merge_deep(&mut mcp, v);
            } else {
                wrong_shape(cx, l, &["mcp"], "an object of servers by name");
            }
        }
    }
    if let Value::Object(o) = mcp {
        m.mcp = o;
    }
    m
}

/// The strings of a JSON array of strings; `None` for anything else.
pub(crate) fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|e| e.as_str().map(str::to_string))
        .collect()
}

/// A setting OpenCode's schema rejects: it refuses to start.
fn wrong_shape(cx: &mut Cx<'_, '_>, l: &Layer, key: &[&str], want: &str) {
    cx.refuse(
        Diagnostic::new(
            DiagnosticCode::InvalidValue,
            format!("`{}` in {} must be {want}; OpenCode validates its configuration and refuses to start (\"Configuration is invalid\").", key.join("."), l.path),
        )
        .with_severity(Severity::Error)
        .at(l.source(key)),
        format!("`{}` in {} must be {want}", key.join("."), problems::quote(&l.path)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_accepts_comments_and_trailing_commas_only() {
        let d = parse("// c\n{\n  \"a\": [1, 2,],\n  /* x */ \"b\": {\"c\": true},\n}\n").unwrap();
        assert_eq!(d.value["a"], serde_json::json!([1, 2]));
        assert_eq!(d.span(&["b"]), Some((4, 4)));
        assert_eq!(d.span(&["b", "c"]), Some((4, 4)));
        for bad in [
            "{'a': 1}",
            "{a: 1}",
            "{\"a\": 0x10}",
            "{\"a\": 1 \"b\": 2}",
            "{\"a\": 1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("").unwrap().value, serde_json::json!({}));
        let e = parse("{\n\"a\": ,\n}").unwrap_err();
        assert_eq!(e.line, Some(2));
    }

    #[test]
    fn merge_deep_replaces_arrays_and_merges_objects() {
        let mut a = serde_json::json!({"x": {"type": "local", "command": ["a", "b"], "environment": {"A": "1"}}});
        let b = serde_json::json!({"x": {"command": ["c"], "environment": {"B": "2"}}});
        merge_deep(&mut a, &b);
        assert_eq!(
            a,
            serde_json::json!({"x": {"type": "local", "command": ["c"], "environment": {"A": "1", "B": "2"}}})
        );
    }
}

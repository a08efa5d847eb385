//! Project settings that change discovery: `claudeMdExcludes`,
//! `skillOverrides`, `enabledMcpjsonServers`, `disabledMcpjsonServers`,
//! `enableAllProjectMcpServers`.
//!
//! Source: spec 000 "`claudeMdExcludes`" — project settings load only from
//! `<cwd>/.claude/` with no parent fallback; harness facts A6 (local
//! settings also at the git root since v2.1.211; strict JSON).

use crate::json::{dotted, JsonDoc};
use crate::profile::Fact;
use crate::Compiler;
use globset::{GlobBuilder, GlobMatcher};
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, Mode, RepoPath, Severity, SourceFormat, SourceRef, SourceScope,
};
use serde_json::Value;

/// One settings file that was read and applies.
#[derive(Debug, Clone)]
pub(crate) struct SettingsLayer {
    pub source: SourceRef,
    pub value: serde_json::Map<String, Value>,
    doc: JsonDoc,
}

impl SettingsLayer {
    /// The lines `(first, last)` of the value at `path`, when indexed.
    pub(crate) fn lines(&self, path: &[&str]) -> Option<(u32, u32)> {
        self.doc.span(path)
    }

    /// The source of the value at `path` (`["claudeMdExcludes", "2"]`),
    /// with its lines when the key is found; the file otherwise.
    pub(crate) fn at(&self, path: &[&str]) -> SourceRef {
        match self.doc.span(path) {
            Some((s, e)) => self.source.clone().with_lines(s, e),
            None => self.source.clone(),
        }
    }
}

/// A compiled `claudeMdExcludes` pattern.
pub(crate) struct ExcludePattern {
    pub raw: String,
    /// The settings file and the pattern's line.
    pub layer: SourceRef,
    matcher: Option<GlobMatcher>,
}

/// The discovery-affecting settings of the analysed context.
#[derive(Default)]
pub(crate) struct Settings {
    pub layers: Vec<SettingsLayer>,
    pub excludes: Vec<ExcludePattern>,
    /// Local settings files present in the tree but not read (repo mode).
    pub unread_local: Vec<RepoPath>,
    /// Absolute path prefix standing for the repository root when matching
    /// excludes (`/` + …); the analysed checkout's when known.
    abs_root: String,
}

/// The JSON shape Claude Code's settings schema gives a key this adapter
/// reads (harness facts A4, A6).
#[derive(Clone, Copy)]
enum Shape {
    StringArray,
    Bool,
    Object,
}

/// The settings keys that change discovery, with their shapes.
const TYPED_KEYS: &[(&str, Shape)] = &[
    ("claudeMdExcludes", Shape::StringArray),
    ("enabledMcpjsonServers", Shape::StringArray),
    ("disabledMcpjsonServers", Shape::StringArray),
    ("enableAllProjectMcpServers", Shape::Bool),
    ("skillOverrides", Shape::Object),
];

/// The most shape errors reported for one settings file.
const MAX_SHAPE_ERRORS: usize = 10;

impl Settings {
    /// The first exclude pattern matching the file at `path`, if any.
    pub(crate) fn excluded_by(&self, path: &RepoPath) -> Option<&ExcludePattern> {
        if self.excludes.is_empty() {
            return None;
        }
        if path.is_on_machine() {
            // The user's and the managed files are matched by their own
            // absolute paths, which the analysis does not name; managed
            // memory cannot be excluded (harness facts A4).
            return None;
        }
        let abs = if path.is_root() {
            self.abs_root.clone()
        } else if path.is_above_root() {
            // `../CLAUDE.md` (read with --outside-root): the root's parent's
            // `CLAUDE.md`, the absolute path Claude Code matches.
            let up = path.components().take_while(|c| *c == "..").count();
            let mut base = self.abs_root.as_str();
            for _ in 0..up {
                base = &base[..base.rfind('/').unwrap_or(0)];
            }
            let rest: Vec<&str> = path.components().skip(up).collect();
            format!("{base}/{}", rest.join("/"))
        } else {
            format!("{}/{}", self.abs_root, path)
        };
        self.excludes
            .iter()
            .find(|p| p.matcher.as_ref().is_some_and(|m| m.is_match(&abs)))
    }

    /// Every value of `key` across layers, lowest precedence first, with
    /// its layer.
    pub(crate) fn values<'s>(&'s self, key: &str) -> Vec<(&'s Value, &'s SettingsLayer)> {
        self.layers
            .iter()
            .filter_map(|l| l.value.get(key).map(|v| (v, l)))
            .collect()
    }

    /// The string array `key` merged across layers (arrays merge), each
    /// string with its source line.
    pub(crate) fn string_list(&self, key: &str) -> Vec<(String, SourceRef)> {
        let mut out = Vec::new();
        for (v, layer) in self.values(key) {
            if let Value::Array(items) = v {
                for (i, it) in items.iter().enumerate() {
                    if let Value::String(s) = it {
                        out.push((s.clone(), layer.at(&[key, &i.to_string()])));
                    }
                }
            }
        }
        out
    }
}

/// Reports each key repeated in the JSON file `path`: the parsed value
/// keeps the last occurrence, as JavaScript's `JSON.parse` does.
pub(crate) fn report_duplicates(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    source: &SourceRef,
    doc: &JsonDoc,
) {
    for d in &doc.duplicates {
        let (first, last) = (d.lines[0], d.lines[d.lines.len() - 1]);
        let lines = d
            .lines
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::JsonDuplicateKey,
                format!(
                    "`{}` appears {} times in `{path}` (lines {lines}). Which one Claude Code uses is undocumented; \
                     JavaScript's JSON.parse keeps the last (line {last}), and so does the analysis. Keep one.",
                    dotted(&d.path),
                    d.lines.len()
                ),
            )
            .at(source.clone().with_lines(first, last)),
        );
    }
    if doc.duplicates.len() >= crate::json::MAX_DUPLICATES {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::JsonDuplicateKey,
                format!(
                    "`{path}` repeats more keys than the {} reported here.",
                    crate::json::MAX_DUPLICATES
                ),
            )
            .at(source.clone()),
        );
    }
}

/// The value at `v` does not have `shape`: what it is instead, in words.
fn shape_error(key: &str, v: &Value, shape: Shape) -> Option<(Vec<String>, String)> {
    let kind = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    match (shape, v) {
        (Shape::StringArray, Value::Array(items)) => {
            let bad = items.iter().filter(|it| !it.is_string()).count();
            items.iter().position(|it| !it.is_string()).map(|i| {
                let more = if bad > 1 {
                    // count >= 2: `bad > 1`.
                    format!(" ({bad} entries are not strings)")
                } else {
                    String::new()
                };
                (
                    vec![key.to_string(), i.to_string()],
                    format!(
                        "entry {} of `{key}` is {}, not a string{more}",
                        i + 1,
                        kind(&items[i])
                    ),
                )
            })
        }
        (Shape::StringArray, _) => Some((
            vec![key.to_string()],
            format!("`{key}` is {}, not an array of strings", kind(v)),
        )),
        (Shape::Bool, Value::Bool(_)) | (Shape::Object, Value::Object(_)) => None,
        (Shape::Bool, _) => Some((
            vec![key.to_string()],
            format!("`{key}` is {}, not true or false", kind(v)),
        )),
        (Shape::Object, _) => Some((
            vec![key.to_string()],
            format!("`{key}` is {}, not an object", kind(v)),
        )),
    }
}

/// Reads the settings layers that apply to `cwd`.
pub(crate) fn load(cx: &mut Compiler<'_, '_>) -> Settings {
    let cwd = cx.context.cwd.clone();
    let mut settings = Settings {
        abs_root: cx
            .repo
            .tree()
            .absolute_root()
            .map(|p| p.to_string_lossy().trim_end_matches('/').to_string())
            .unwrap_or_else(|| "/repository".to_string()),
        ..Settings::default()
    };
    report_ancestor_settings(cx, &cwd);
    for (path, scope) in candidates(cx, &cwd, &mut settings) {
        if let Some(layer) = read_layer(cx, &path, scope) {
            if shape_errors(cx, &path, &layer) == 0 {
                settings.layers.push(layer);
            }
        }
    }
    read_excludes(cx, &mut settings);
    report_overridden(cx, &settings);
    settings
}

/// The settings whose value replaces another layer's, rather than
/// merging with it, that this adapter reads.
const SCALAR_KEYS: &[&str] = &["outputStyle", "enableAllProjectMcpServers"];

/// Reports each scalar setting of [`SCALAR_KEYS`] that a layer of higher
/// precedence sets again to another value: the overridden value, kept at
/// its own line, and the layer that wins. Arrays merge across layers and
/// are not overridden (harness facts A4).
fn report_overridden(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    for key in SCALAR_KEYS {
        let values = settings.values(key);
        let Some((winner, top)) = values.last() else {
            continue;
        };
        for (v, layer) in &values[..values.len() - 1] {
            if v == winner {
                continue;
            }
            let d = Diagnostic::new(
                DiagnosticCode::SettingOverridden,
                format!(
                    "`{key}` is `{v}` in `{}` ({} settings), overridden by `{winner}` in `{}` ({} settings), \
                     which takes precedence.",
                    layer.source.path,
                    layer.source.scope.as_str(),
                    top.source.path,
                    top.source.scope.as_str()
                ),
            );
            cx.diag(d.at(layer.at(&[key])));
        }
    }
}

/// Ancestors' project settings are not read: says so where they exist.
fn report_ancestor_settings(cx: &mut Compiler<'_, '_>, cwd: &RepoPath) {
    for dir in cwd.ancestors_root_first() {
        if &dir == cwd {
            continue;
        }
        if let Some(p) = dir.join(crate::SETTINGS.relative()) {
            if cx.repo.kind(&p).is_some() {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SettingsNotInCwd,
                        format!(
                            "`{p}` is not read: Claude Code loads project settings only from `<cwd>/.claude/` \
                             (here `{cwd}/.claude/`), without looking in parent directories."
                        ),
                    )
                    .at(SourceRef::project(p.clone(), SourceFormat::Json)),
                );
            }
        }
    }
}

/// The settings files to read, lowest precedence first: in local mode
/// the user's `settings.json`; cwd's `.claude/settings.json`; in local
/// mode the `settings.local.json` files of the root (from
/// [`Fact::LocalSettingsAtGitRoot`] on) and cwd (in repo mode those are
/// recorded as unread and reported), then the managed
/// `managed-settings.json` and the files of `managed-settings.d` in name
/// order. Claude Code's precedence, highest first: managed, command line,
/// local, project, user (harness facts A6; settings documentation,
/// "Settings precedence"; the drop-in directory merges after the file,
/// alphabetically).
fn candidates(
    cx: &mut Compiler<'_, '_>,
    cwd: &RepoPath,
    settings: &mut Settings,
) -> Vec<(RepoPath, SourceScope)> {
    let mut candidates: Vec<(RepoPath, SourceScope)> = Vec::new();
    let places = cx.user;
    if let Some(p) = places.and_then(|u| u.in_home("settings.json")) {
        candidates.push((p, SourceScope::User));
    }
    if let Some(p) = cwd.join(crate::SETTINGS.relative()) {
        candidates.push((p, SourceScope::Project));
    }
    let mut local = Vec::new();
    if cx.profile.has(Fact::LocalSettingsAtGitRoot) {
        local.extend(RepoPath::root().join(crate::SETTINGS_LOCAL.relative()));
    }
    if let Some(p) = cwd.join(crate::SETTINGS_LOCAL.relative()) {
        if !local.contains(&p) {
            local.push(p);
        }
    }
    for p in local {
        if cx.repo.kind(&p).is_none() {
            continue;
        }
        match cx.context.mode {
            Mode::Local => candidates.push((p, SourceScope::Local)),
            Mode::Repo => {
                settings.unread_local.push(p.clone());
                cx.diag(
                Diagnostic::new(
                    DiagnosticCode::LocalConfigUnavailable,
                    format!(
                        "`{p}` is personal configuration and is not read in repo mode; it can exclude instructions, \
                         override skills and disable .mcp.json servers (run with --mode local to include it)."
                    ),
                )
                .at(SourceRef { scope: SourceScope::Local, ..SourceRef::project(p.clone(), SourceFormat::Json) }),
                )
            }
        }
    }
    if let Some(places) = places {
        candidates.extend(
            places
                .managed("managed-settings.json")
                .into_iter()
                .chain(managed_drop_ins(&places))
                .map(|p| (p, SourceScope::Managed)),
        );
    }
    candidates
}

/// The `.json` files of the managed `managed-settings.d`, in name order.
fn managed_drop_ins(places: &crate::user::Places<'_>) -> Vec<RepoPath> {
    let Some(dir) = places.managed("managed-settings.d") else {
        return Vec::new();
    };
    places
        .list(&dir)
        .into_iter()
        .filter(|e| e.name.ends_with(".json") && !e.name.starts_with('.'))
        .filter_map(|e| dir.child(&e.name))
        .collect()
}

/// Reads and parses settings file `path`; `None` when it is absent, not
/// a file, unreadable, not valid JSON or not an object (each reported).
fn read_layer(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    scope: SourceScope,
) -> Option<SettingsLayer> {
    if cx.kind_at(path).is_none() || !cx.expect_file(path, SourceFormat::Json) {
        return None;
    }
    let text = cx.read(path, SourceFormat::Json)?;
    let source = SourceRef {
        scope,
        ..cx.source_ref(path, scope, SourceFormat::Json)
    };
    let doc = match JsonDoc::parse(&text.text) {
        Ok(doc) => doc,
        Err(e) => {
            let msg = &e.message;
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidJson,
                    format!("`{path}` is not valid JSON ({msg}); Claude Code rejects it, so none of its settings apply."),
                )
                .at(e.at_line(source)),
            );
            return None;
        }
    };
    report_duplicates(cx, path, &source, &doc);
    let Value::Object(map) = doc.value.clone() else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidJson,
                format!("`{path}` is not a JSON object; it is ignored."),
            )
            .at(source),
        );
        return None;
    };
    Some(SettingsLayer {
        source,
        value: map,
        doc,
    })
}

/// Reports each typed key of `layer` (file `path`) whose value has the
/// wrong type (the first [`MAX_SHAPE_ERRORS`]); returns how many there
/// are. A value of the wrong type fails Claude Code's settings schema,
/// and a file with a schema error is skipped whole
/// (anthropics/claude-code#75081: "Files with errors are skipped
/// entirely, not just the invalid settings").
fn shape_errors(cx: &mut Compiler<'_, '_>, path: &RepoPath, layer: &SettingsLayer) -> usize {
    let mut errors = 0usize;
    for (key, shape) in TYPED_KEYS {
        let Some(v) = layer.value.get(*key) else {
            continue;
        };
        let Some((at, what)) = shape_error(key, v, *shape) else {
            continue;
        };
        errors += 1;
        if errors > MAX_SHAPE_ERRORS {
            continue;
        }
        let at: Vec<&str> = at.iter().map(String::as_str).collect();
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!(
                    "In `{path}`, {what}. Claude Code skips a settings file that fails its schema entirely \
                     (anthropics/claude-code#75081), so none of the settings in `{path}` apply."
                ),
            )
            .at(layer.at(&at))
            .with_severity(Severity::Error),
        );
    }
    errors
}

/// `claudeMdExcludes`: arrays merge across layers (every layer here holds
/// an array of strings); an invalid or absolute pattern is reported.
fn read_excludes(cx: &mut Compiler<'_, '_>, settings: &mut Settings) {
    let mut patterns: Vec<(String, SourceRef)> = settings.string_list("claudeMdExcludes");
    for (raw, src) in patterns.drain(..) {
        let matcher = GlobBuilder::new(&raw)
            .literal_separator(true)
            .build()
            .ok()
            .map(|g| g.compile_matcher());
        if matcher.is_none() {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidGlob,
                    format!("`claudeMdExcludes` pattern `{raw}` is invalid and excludes nothing."),
                )
                .at(src.clone()),
            );
        } else if raw.starts_with('/') {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ExcludeMachineSpecific,
                    format!(
                        "`claudeMdExcludes` pattern `{raw}` is an absolute path: it matches only where the \
                         repository is checked out at that location. Start it with `**/` to make it portable."
                    ),
                )
                .at(src.clone()),
            );
        }
        settings.excludes.push(ExcludePattern {
            raw,
            layer: src,
            matcher,
        });
    }
}

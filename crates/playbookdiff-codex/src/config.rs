//! Project configuration layers: `.codex/config.toml` in every directory
//! from the repository root to cwd (spec 004 "Project configuration";
//! harness facts B2, B3).
//!
//! Layers are parsed with `toml::de::DeTable`, which keeps byte spans, so
//! every value can point at its lines. A layer that does not parse applies
//! nothing (`invalid-toml`). For a scalar key the closest layer to cwd
//! wins; an array (`project_doc_fallback_filenames`, `skills.config`) is
//! replaced whole by the closest layer that sets it, as Codex's layer merge
//! replaces every non-table value. Only keys that affect instructions,
//! skills or MCP are read. A layer that is not valid UTF-8 is invalid TOML
//! too: Codex cannot read it either way.
//!
//! Layers off the root-to-cwd path are reported (`config-layer-not-applied`)
//! only below cwd and in the directories on the way to targetPath.

use crate::{
    not_a_file, strictly_below, target_only_dirs, Cx, TrustLevel, DEFAULT_PROJECT_DOC_MAX_BYTES,
    READ_LIMIT,
};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, RepoPath, Severity, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Resolved, SourceError, TextFile};
use std::ops::Range;
use std::sync::Arc;
use toml::de::{DeString, DeTable, DeValue};
use toml::Spanned;

/// Keys Codex ignores (with a warning) in a project `.codex/config.toml`
/// (harness facts B2).
const KEYS_NOT_ALLOWED_IN_PROJECT: &[&str] = &[
    "openai_base_url",
    "chatgpt_base_url",
    "apps_mcp_product_sku",
    "model_provider",
    "model_providers",
    "notify",
    "profile",
    "profiles",
    "experimental_realtime_ws_base_url",
    "otel",
    // `PROJECT_LOCAL_CONFIG_DENYLIST` (X23).
    "experimental_realtime_webrtc_call_base_url",
];

/// The kinds of TOML value a typed setting accepts.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    String,
    Integer,
    Boolean,
    Table,
}

impl Kind {
    fn holds(self, v: &DeValue<'_>) -> bool {
        matches!(
            (self, v),
            (Kind::String, DeValue::String(_))
                | (Kind::Integer, DeValue::Integer(_))
                | (Kind::Boolean, DeValue::Boolean(_))
                | (Kind::Table, DeValue::Table(_))
        )
    }
}

/// Top-level settings that Codex deserializes into typed fields of its
/// configuration (`ConfigToml` in openai/codex `codex-rs/core/src/config`)
/// whatever they do, with the kinds of value each accepts and how a
/// message names them. A value of any other kind stops Codex before it
/// loads anything ("invalid type: integer `5`, expected a string",
/// "wanted string or table", "expected struct ToolsToml"): seen with
/// `codex debug prompt-input` of 0.142.3 and 0.171.0 on a trusted project
/// for every key here, each set to a value of another kind. Keys Codex
/// strips from a project layer ([`KEYS_NOT_ALLOWED_IN_PROJECT`]) are never
/// read, so never refused; `project_doc_*`, `project_root_markers` and the
/// tables of `skills` are checked where they are read.
const TYPED_SETTINGS: &[(&str, &[Kind], &str)] = &[
    ("model", &[Kind::String], "a string"),
    ("review_model", &[Kind::String], "a string"),
    ("model_reasoning_effort", &[Kind::String], "a string"),
    ("instructions", &[Kind::String], "a string"),
    ("developer_instructions", &[Kind::String], "a string"),
    (
        "approval_policy",
        &[Kind::String, Kind::Table],
        "a string or a table",
    ),
    (
        "sandbox_mode",
        &[Kind::String, Kind::Table],
        "a string or a table",
    ),
    (
        "model_reasoning_summary",
        &[Kind::String, Kind::Table],
        "a string or a table",
    ),
    (
        "model_verbosity",
        &[Kind::String, Kind::Table],
        "a string or a table",
    ),
    (
        "file_opener",
        &[Kind::String, Kind::Table],
        "a string or a table",
    ),
    (
        "web_search",
        &[Kind::String, Kind::Table],
        "a string or a table",
    ),
    ("model_context_window", &[Kind::Integer], "an integer"),
    (
        "model_auto_compact_token_limit",
        &[Kind::Integer],
        "an integer",
    ),
    ("hide_agent_reasoning", &[Kind::Boolean], "true or false"),
    (
        "show_raw_agent_reasoning",
        &[Kind::Boolean],
        "true or false",
    ),
    ("tools", &[Kind::Table], "a table"),
    ("history", &[Kind::Table], "a table"),
    ("tui", &[Kind::Table], "a table"),
    ("features", &[Kind::Table], "a table"),
    ("shell_environment_policy", &[Kind::Table], "a table"),
    ("sandbox_workspace_write", &[Kind::Table], "a table"),
    ("projects", &[Kind::Table], "a table"),
    ("mcp_servers", &[Kind::Table], "a table of servers"),
];

/// Typed settings whose string value must be one of a fixed set of
/// variants (Rust enums in Codex's `ConfigToml`), with the variants Codex
/// accepts. Any other string stops Codex before it loads anything
/// ("unknown variant `bogus`, expected one of `untrusted`, `on-failure`,
/// `on-request`, `granular`, `never`"): seen with `codex debug
/// prompt-input` of 0.142.3 and 0.171.0 on a trusted project, each key set
/// to `"bogus"`; both releases list the same variants. A table, where
/// [`TYPED_SETTINGS`] allows one, is not checked further.
/// `model_reasoning_effort` is not here: both releases start with any
/// string there.
const STRING_VARIANTS: &[(&str, &[&str])] = &[
    (
        "approval_policy",
        &["untrusted", "on-failure", "on-request", "granular", "never"],
    ),
    (
        "sandbox_mode",
        &["read-only", "workspace-write", "danger-full-access"],
    ),
    (
        "model_reasoning_summary",
        &["auto", "concise", "detailed", "none"],
    ),
    ("model_verbosity", &["low", "medium", "high"]),
    (
        "file_opener",
        &["vscode", "vscode-insiders", "windsurf", "cursor", "none"],
    ),
    ("web_search", &["disabled", "cached", "indexed", "live"]),
];

/// Refuses the configuration when the value of a [`TYPED_SETTINGS`] key
/// that wins (the closest layer to cwd that sets it: Codex merges the
/// layers before it reads them, so a closer layer's value replaces a
/// wrong one) is of a kind Codex does not accept. `mcp_servers` of the
/// wrong kind already has its own diagnostic (`mcp-invalid-entry`), so it
/// only refuses.
fn check_typed_settings(cx: &mut Cx<'_, '_>, layers: &[Layer<'_>]) {
    for &(key, kinds, expected) in TYPED_SETTINGS {
        let Some((layer, k, v)) = layers
            .iter()
            .rev()
            .find_map(|l| get(&l.table, key).map(|(k, v)| (l, k, v)))
        else {
            continue;
        };
        if kinds.iter().any(|kind| kind.holds(v.get_ref())) {
            if let DeValue::String(text) = v.get_ref() {
                let known = STRING_VARIANTS
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, known)| *known);
                if let Some(known) = known.filter(|known| !known.contains(&text.as_ref())) {
                    let one_of = known
                        .iter()
                        .map(|x| format!("`{x}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    refuse_value(
                        cx,
                        layer,
                        k,
                        v,
                        key,
                        "a string that is none of its values",
                        &format!("one of {one_of}"),
                    );
                }
            }
            continue;
        }
        if key == "mcp_servers" {
            cx.refuse(
                format!(
                    "{key} in {} is {}, not {expected}",
                    problems::quote(&layer.loaded.path),
                    describe(v.get_ref())
                ),
                Some(layer.source(extent(k, v))),
            );
        } else {
            invalid_value(cx, layer, k, v, key, expected);
        }
    }
}

/// A `.codex/config.toml` read from the tree, not yet parsed.
pub(crate) struct LoadedLayer {
    /// The directory holding `.codex/`.
    pub dir: RepoPath,
    /// `<dir>/.codex/config.toml` as Codex names it.
    pub path: RepoPath,
    /// The real file when a symbolic link was followed.
    pub resolved: Option<RepoPath>,
    /// The file's text.
    pub text: Arc<TextFile>,
}

/// A parsed layer, borrowing its text.
pub(crate) struct Layer<'a> {
    /// The file.
    pub loaded: &'a LoadedLayer,
    /// The parsed document with spans (byte offsets after any BOM).
    pub table: DeTable<'a>,
    bom: usize,
}

impl<'a> Layer<'a> {
    /// `loaded` parsed, a byte order mark skipped; the parser's error
    /// otherwise.
    pub(crate) fn parse(loaded: &'a LoadedLayer) -> Result<Self, toml::de::Error> {
        let text = loaded.text.text.as_str();
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        Ok(Layer {
            loaded,
            table: DeTable::parse(body)?.into_inner(),
            bom: text.len() - body.len(),
        })
    }

    /// A TOML source reference to this file covering `span`.
    pub(crate) fn source(&self, span: Range<usize>) -> SourceRef {
        let (s, e) = self
            .loaded
            .text
            .lines_of(span.start + self.bom, span.end + self.bom);
        let mut r =
            SourceRef::project(self.loaded.path.clone(), SourceFormat::Toml).with_lines(s, e);
        r.resolved_path = self.loaded.resolved.clone();
        if self.loaded.path.is_on_machine() {
            r.scope = crate::user::scope_of(&self.loaded.path);
        }
        r
    }
}

/// What the applicable layers decide for the instruction chain.
pub(crate) struct Settings {
    /// `project_doc_fallback_filenames` in array order, empty names,
    /// repeats and names that leave the directory dropped (default empty).
    pub fallback_filenames: Vec<String>,
    /// Where `project_doc_fallback_filenames` was set, `None` for the default.
    pub fallback_source: Option<SourceRef>,
    /// The `project_doc_max_bytes` in force, in bytes.
    pub max_bytes: u64,
    /// Where `project_doc_max_bytes` was set, `None` for the default.
    pub max_bytes_source: Option<SourceRef>,
}

/// What `v` is, for a message about a value of the wrong type: "a
/// string", "a negative number (-5)", "an array whose items are not all
/// strings (item 2 is an integer)". A string's text is never quoted (it
/// could be a secret).
pub(crate) fn describe(v: &DeValue<'_>) -> String {
    fn article(v: &DeValue<'_>) -> &'static str {
        match v {
            DeValue::String(_) => "a string",
            DeValue::Integer(_) => "an integer",
            DeValue::Float(_) => "a decimal number",
            DeValue::Boolean(_) => "a boolean",
            DeValue::Datetime(_) => "a date-time",
            DeValue::Array(_) => "an array",
            DeValue::Table(_) => "a table",
        }
    }
    match v {
        DeValue::Integer(i) if i.as_str().starts_with('-') => {
            format!("a negative number ({})", i.as_str())
        }
        DeValue::Integer(i) if u64::from_str_radix(i.as_str(), i.radix()).is_err() => {
            "a number too large for Codex".to_string()
        }
        DeValue::Float(f) if f.as_str().starts_with('-') => {
            format!("a negative decimal number ({})", f.as_str())
        }
        DeValue::Boolean(b) => format!("the boolean {b}"),
        DeValue::Array(a) if a.is_empty() => "an empty array".to_string(),
        DeValue::Array(a) => match a.iter().position(|i| !i.get_ref().is_str()) {
            Some(n) => format!(
                "an array whose items are not all strings (item {} is {})",
                n + 1,
                article(a[n].get_ref())
            ),
            None => "an array of strings".to_string(),
        },
        other => article(other).to_string(),
    }
}

/// `name` as a TOML key: bare when it is made of ASCII letters, digits,
/// `-` and `_`, quoted otherwise (`"a.b"`), so a dotted server name is
/// not mistaken for a nested table in a message.
pub(crate) fn toml_key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if bare {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

/// The key/value pair named `key` in `t`.
pub(crate) fn get<'b, 'a>(
    t: &'b DeTable<'a>,
    key: &str,
) -> Option<(&'b Spanned<DeString<'a>>, &'b Spanned<DeValue<'a>>)> {
    t.iter().find(|(k, _)| k.get_ref().as_ref() == key)
}

/// The byte range covering `v`, its key and everything nested in it.
pub(crate) fn extent(key: &Spanned<DeString<'_>>, v: &Spanned<DeValue<'_>>) -> Range<usize> {
    span_union(Some(key.span()), v)
}

/// The union of `first` and the spans of `v` and its descendants,
/// computed with an explicit stack so deep nesting cannot overflow the
/// call stack. Empty spans (implicit tables) are ignored.
pub(crate) fn span_union(first: Option<Range<usize>>, v: &Spanned<DeValue<'_>>) -> Range<usize> {
    let mut lo = usize::MAX;
    let mut hi = 0usize;
    let mut take = |r: Range<usize>| {
        if r.start < r.end {
            lo = lo.min(r.start);
            hi = hi.max(r.end);
        }
    };
    if let Some(f) = first.clone() {
        take(f);
    }
    let mut stack = vec![v];
    while let Some(n) = stack.pop() {
        take(n.span());
        match n.get_ref() {
            DeValue::Table(t) => {
                for (k, c) in t.iter() {
                    take(k.span());
                    stack.push(c);
                }
            }
            DeValue::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    if lo == usize::MAX {
        first.unwrap_or_else(|| v.span())
    } else {
        lo..hi
    }
}

/// Reports a failed read of `path`.
pub(crate) fn read_error(
    cx: &mut Cx<'_, '_>,
    path: &RepoPath,
    e: SourceError,
    format: SourceFormat,
) {
    cx.diag(playbookdiff_adapter::problems::read_error(
        path,
        &e,
        "what it contributes is unknown",
        format,
    ));
}

/// For a release without [`crate::profile::Facts::project_config`]: no
/// project layer is read; each `<dir>/.codex/config.toml` of `chain` that
/// exists is reported as not applied (`version`: the release analysed;
/// `since`: the first release that reads the layer, found by bisection).
pub(crate) fn release_reads_no_layer(
    cx: &mut Cx<'_, '_>,
    chain: &[RepoPath],
    version: &str,
    since: &str,
) -> Vec<LoadedLayer> {
    for dir in chain {
        let Some(path) = dir.join(crate::CONFIG.relative()) else {
            continue;
        };
        if matches!(cx.resolve(&path), Resolved::Missing) {
            continue;
        }
        let msg = format!("{q} is not read: Codex {version} reads no project `.codex/config.toml` (releases from {since} on do), so none of its settings or MCP servers apply; upgrade Codex to use it.", q = problems::quote(&path));
        cx.diag(
            Diagnostic::new(DiagnosticCode::ConfigLayerNotApplied, msg)
                .at(SourceRef::project(path.clone(), SourceFormat::Toml)),
        );
    }
    Vec::new()
}

/// Reads `<dir>/.codex/config.toml` for every directory of `chain` (root
/// first), following links inside the repository only.
pub(crate) fn load_layers(cx: &mut Cx<'_, '_>, chain: &[RepoPath]) -> Vec<LoadedLayer> {
    let mut out = Vec::new();
    for dir in chain {
        let Some(path) = dir.join(crate::CONFIG.relative()) else {
            continue;
        };
        let r = cx.resolve(&path);
        if let Resolved::Inside {
            kind: kind @ (EntryKind::Dir | EntryKind::Other),
            via_link,
            ..
        } = r
        {
            unreadable_layer(cx, &path, kind, via_link);
            continue;
        }
        if !matches!(r, Resolved::Missing) && cx.trust_for(dir) != Some(TrustLevel::Trusted) {
            let why = match cx.trust_for(dir) {
                Some(_) => "the trust entry given for it (or for the project root) is untrusted",
                None => "no trust entry given names it or the project root",
            };
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ProjectUntrusted,
                    format!("{q_path} is not loaded: {why}, and Codex loads a project `.codex/config.toml` layer only from a trusted directory (fidelity X28), so none of its settings or MCP servers apply; trust {q_dir} in `~/.codex/config.toml` to use it.", q_dir = problems::quote(dir), q_path = problems::quote(&path)),
                )
                .at(SourceRef::project(path.clone(), SourceFormat::Toml)),
            );
            continue;
        }
        match r {
            Resolved::Missing
            | Resolved::Inside {
                kind: EntryKind::Symlink,
                ..
            } => {}
            Resolved::Inside { real, via_link, .. } => match cx.repo.read_text(&path, READ_LIMIT) {
                Ok(text) if text.invalid_utf8 => {
                    // Lossy decoding put U+FFFD where the first bad byte was.
                    let line = text.text.find('\u{fffd}').map(|o| text.line_of(o));
                    let at = line.map(|n| format!(" at line {n}")).unwrap_or_default();
                    let mut src = SourceRef::project(path.clone(), SourceFormat::Toml);
                    if let Some(n) = line {
                        src = src.with_lines(n, n);
                    }
                    src.resolved_path = via_link.then_some(real);
                    cx.refuse_syntax(format!("{path} is not valid UTF-8{at}"), Some(src.clone()));
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::InvalidToml,
                            format!("{q_path} is not valid TOML: it is not valid UTF-8{at}, which TOML requires, so Codex refuses to load it and does not start in this trusted project; save it as UTF-8.", q_path = problems::quote(&path)),
                        )
                        .at(src),
                    );
                }
                Ok(text) => out.push(LoadedLayer {
                    dir: dir.clone(),
                    path: path.clone(),
                    resolved: via_link.then_some(real),
                    text,
                }),
                Err(e) => read_error(cx, &path, e, SourceFormat::Toml),
            },
            other => {
                cx.link_problem(
                    &other,
                    &format!("The config layer {}", problems::quote(&path)),
                    "Codex cannot read this layer and nothing in it applies",
                    SourceFormat::Toml,
                );
            }
        }
    }
    out
}

/// Reports a project `.codex/config.toml` (`path`) that is a directory or
/// a special file (`kind`; reached through a link when `via_link`), and
/// refuses the configuration, trusted project or not. Codex reads each
/// project layer with `tokio::fs::read_to_string` before it looks at
/// trust, and any failure but "not found" ends the load with "Failed to
/// read project config file"; a FIFO blocks that read until something
/// writes to it. Either way Codex does not start (openai/codex
/// `codex-rs/core/src/config_loader/mod.rs`, `load_project_layers`).
fn unreadable_layer(cx: &mut Cx<'_, '_>, path: &RepoPath, kind: EntryKind, via_link: bool) {
    let effect = match kind {
        EntryKind::Other => "Codex's read of it as its project configuration blocks (a FIFO) or fails, and Codex does not start, so none of its settings or MCP servers apply",
        _ => "Codex cannot read it as its project configuration and stops with an error instead of loading it, so none of its settings or MCP servers apply",
    };
    not_a_file(
        cx,
        path,
        kind,
        via_link,
        effect,
        SourceFormat::Toml,
        Severity::Error,
    );
    cx.refuse_unreadable(
        format!(
            "{} is {}, not a regular file",
            problems::quote(path),
            problems::kind_phrase(kind)
        ),
        Some(SourceRef::project(path.clone(), SourceFormat::Toml)),
    );
}

/// Parses each loaded layer; a layer that does not parse is reported with
/// its line (`invalid-toml`) and applies nothing. The parser's message is
/// used, never its rendered snippet, which could quote a secret.
pub(crate) fn parse_layers<'a>(cx: &mut Cx<'_, '_>, loaded: &'a [LoadedLayer]) -> Vec<Layer<'a>> {
    let mut out = Vec::new();
    for l in loaded {
        if l.text.invalid_utf8 {
            refuse_non_utf8(cx, l);
            continue;
        }
        let text = l.text.text.as_str();
        let (bom, body) = match text.strip_prefix('\u{feff}') {
            Some(b) => (3, b),
            None => (0, text),
        };
        match DeTable::parse(body) {
            Ok(t) => out.push(Layer {
                loaded: l,
                table: t.into_inner(),
                bom,
            }),
            Err(e) => {
                let line = e.span().map(|s| l.text.line_of(s.start + bom));
                let at = line.map(|n| format!(" at line {n}")).unwrap_or_default();
                let mut src = layer_source(&l.path);
                if let Some(n) = line {
                    src = src.with_lines(n, n);
                }
                src.resolved_path = l.resolved.clone();
                cx.refuse_syntax(
                    format!("{} is not valid TOML{at}", problems::quote(&l.path)),
                    Some(src.clone()),
                );
                let when = stops_when(&l.path);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidToml,
                        format!("{} is not valid TOML{at} ({}), so Codex refuses to load it and does not start {when}; fix the syntax.", problems::quote(&l.path), e.message().trim()),
                    )
                    .at(src),
                );
            }
        }
    }
    out
}

/// The provenance of the configuration layer `path`, in the layer its
/// path names (the project's, the user's `$CODEX_HOME`, the managed
/// `/etc/codex`).
fn layer_source(path: &RepoPath) -> SourceRef {
    SourceRef {
        scope: SourceScope::of_path(path),
        ..SourceRef::project(path.clone(), SourceFormat::Toml)
    }
}

/// When a layer that does not parse stops Codex: a project's layer is
/// loaded only in a trusted project, the machine's layers in any (seen
/// for bytes that are not UTF-8 with 0.142.3 and 0.171.0, case
/// `oracle.local_user_layers.home-codex-non-utf8`).
fn stops_when(path: &RepoPath) -> &'static str {
    if path.is_on_machine() {
        "in any project, trusted or not"
    } else {
        "in this trusted project"
    }
}

/// Refuses the machine's layer `l` (local mode) that is not valid UTF-8:
/// Codex fails to read it and does not start, trusted project or not
/// ("Failed to read config file ...: invalid utf-8 sequence", seen with
/// 0.142.3 and 0.171.0, case
/// `oracle.local_user_layers.home-codex-non-utf8`). A project layer's is
/// refused when it is loaded ([`load_layers`]).
fn refuse_non_utf8(cx: &mut Cx<'_, '_>, l: &LoadedLayer) {
    let line = l.text.invalid_utf8_line();
    let at = line.map(|n| format!(" at line {n}")).unwrap_or_default();
    let mut src = layer_source(&l.path);
    if let Some(n) = line {
        src = src.with_lines(n, n);
    }
    src.resolved_path = l.resolved.clone();
    let q_path = problems::quote(&l.path);
    cx.refuse_saying(
        (format!("{q_path} is not valid UTF-8{at}"), src.clone()),
        problems::RefusedCause::Syntax,
        "Failed to read config file",
    );
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InvalidToml,
            format!("{q_path} is not valid TOML: it is not valid UTF-8{at}, which TOML requires, so Codex fails to read it and does not start; save it as UTF-8."),
        )
        .at(src),
    );
}

/// Checks every project layer (`layers`) for keys a project may not set
/// and for `project_root_markers`, then resolves the instruction settings
/// over `all` (the machine's layers, in local mode, then the project's),
/// the layer of highest precedence first: a `project_doc_max_bytes` or
/// `project_doc_fallback_filenames` of the user's `config.toml` applies
/// below the project's (seen with Codex 0.142.3 and 0.171.0, case
/// `oracle.local_user_layers.home-codex-settings`).
pub(crate) fn resolve_settings(
    cx: &mut Cx<'_, '_>,
    layers: &[Layer<'_>],
    all: &[Layer<'_>],
    facts: &crate::profile::Facts,
) -> Settings {
    for layer in layers {
        for (k, v) in layer.table.iter() {
            let key = k.get_ref().as_ref();
            if KEYS_NOT_ALLOWED_IN_PROJECT.contains(&key) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ConfigKeyNotAllowed,
                        format!("{} sets `{key}`, which Codex ignores (with a warning) in a project `.codex/config.toml`; move it to `~/.codex/config.toml` if it is meant.", problems::quote(&layer.loaded.path)),
                    )
                    .at(layer.source(extent(k, v))),
                );
            }
            // `features.respect_system_proxy` is stripped too (X23).
            if key == "features" {
                if let DeValue::Table(t) = v.get_ref() {
                    if let Some((fk, fv)) = get(t, "respect_system_proxy") {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::ConfigKeyNotAllowed,
                                format!("{} sets `features.respect_system_proxy`, which Codex ignores (with a warning) in a project `.codex/config.toml`; move it to `~/.codex/config.toml` if it is meant.", problems::quote(&layer.loaded.path)),
                            )
                            .at(layer.source(extent(fk, fv))),
                        );
                    }
                }
            }
            if key == "project_root_markers" {
                let shown = match string_array(v) {
                    Some(items) => format!("= {items:?}"),
                    None => format!("to {}, not an array of strings,", describe(v.get_ref())),
                };
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ProjectRootMarkersIgnored,
                        format!("{} sets project_root_markers {shown} which is recorded but not applied: Codex reads the markers only from user, system and CLI layers, so the analysis keeps the supplied repositoryRoot; set it in `~/.codex/config.toml` if it is meant.", problems::quote(&layer.loaded.path)),
                    )
                    .at(layer.source(extent(k, v))),
                );
            }
        }
    }

    check_typed_settings(cx, layers);

    let mut settings = Settings {
        fallback_filenames: Vec::new(),
        fallback_source: None,
        max_bytes: DEFAULT_PROJECT_DOC_MAX_BYTES,
        max_bytes_source: None,
    };
    for layer in all.iter().rev() {
        let Some((k, v)) = get(&layer.table, "project_doc_fallback_filenames") else {
            continue;
        };
        match string_array(v) {
            Some(names) => {
                for n in names {
                    let escapes = n.starts_with('/') || n.split('/').any(|c| c == "..");
                    // X30: newer releases ignore a name holding `/` or equal
                    // to `.` (`candidate_filenames`); older ones join it.
                    let not_plain = n.contains('/') || n == ".";
                    if not_plain && !escapes && facts.fallback_names_must_be_plain {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::InvalidValue,
                                format!("{} lists {n:?} in project_doc_fallback_filenames; this Codex release accepts only plain file names there and ignores it with a warning (older releases read it relative to each directory); use a plain file name.", problems::quote(&layer.loaded.path)),
                            )
                            .at(layer.source(extent(k, v))),
                        );
                        continue;
                    }
                    if escapes {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::InvalidValue,
                                format!("{} lists {n:?} in project_doc_fallback_filenames; an absolute name or one with `..` reads outside the directory being checked, so the analysis ignores it; use a plain file name.", problems::quote(&layer.loaded.path)),
                            )
                            .at(layer.source(extent(k, v))),
                        );
                    } else if !n.is_empty() && !settings.fallback_filenames.contains(&n) {
                        settings.fallback_filenames.push(n);
                    }
                }
                settings.fallback_source = Some(layer.source(extent(k, v)));
                break;
            }
            None => invalid_value(
                cx,
                layer,
                k,
                v,
                "project_doc_fallback_filenames",
                "an array of file names",
            ),
        }
    }
    for layer in all.iter().rev() {
        let Some((k, v)) = get(&layer.table, "project_doc_max_bytes") else {
            continue;
        };
        let parsed = match v.get_ref() {
            DeValue::Integer(i) => u64::from_str_radix(i.as_str(), i.radix()).ok(),
            _ => None,
        };
        match parsed {
            Some(n) => {
                settings.max_bytes = n;
                settings.max_bytes_source = Some(layer.source(extent(k, v)));
                break;
            }
            None => invalid_value(
                cx,
                layer,
                k,
                v,
                "project_doc_max_bytes",
                "a non-negative integer number of bytes",
            ),
        }
    }
    settings
}

/// An array whose items are all strings.
pub(crate) fn string_array(v: &Spanned<DeValue<'_>>) -> Option<Vec<String>> {
    let DeValue::Array(a) = v.get_ref() else {
        return None;
    };
    a.iter()
        .map(|i| i.get_ref().as_str().map(str::to_string))
        .collect()
}

/// Refuses the configuration for a value of the wrong shape
/// (`config-refused`) and reports the value (`invalid-value`), at the key's
/// line; the message describes the value, never quotes it.
pub(crate) fn invalid_value(
    cx: &mut Cx<'_, '_>,
    layer: &Layer<'_>,
    k: &Spanned<DeString<'_>>,
    v: &Spanned<DeValue<'_>>,
    key: &str,
    expected: &str,
) {
    refuse_value(cx, layer, k, v, key, &describe(v.get_ref()), expected);
}

/// [`invalid_value`] with the value described as `what` ("a string that
/// is none of its values"), never quoting the value itself.
fn refuse_value(
    cx: &mut Cx<'_, '_>,
    layer: &Layer<'_>,
    k: &Spanned<DeString<'_>>,
    v: &Spanned<DeValue<'_>>,
    key: &str,
    what: &str,
    expected: &str,
) {
    let at = layer.source(extent(k, v));
    cx.refuse(
        format!(
            "{key} in {} is {what}, not {expected}",
            problems::quote(&layer.loaded.path),
        ),
        Some(at.clone()),
    );
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::InvalidValue,
            format!("{} sets {key} to {what} where Codex expects {expected}, so Codex rejects this configuration and does not start; fix it.", problems::quote(&layer.loaded.path)),
        )
        .at(at),
    );
}

/// Reports `.codex/config.toml` files below cwd and in the directories on
/// the way to targetPath: never applied in this session (spec 004 "Project
/// configuration"). Layers of other directories are not visited; the
/// subtree below cwd is answered from the sorted index.
pub(crate) fn report_off_chain_layers(cx: &mut Cx<'_, '_>) {
    let cwd = cx.context.cwd.clone();
    let mut found: Vec<(RepoPath, RepoPath)> = Vec::new();
    for p in cx.repo.files_named_under("config.toml", &cwd) {
        let Some(codex_dir) = p.parent() else {
            continue;
        };
        if codex_dir.file_name() != Some(".codex") {
            continue;
        }
        match codex_dir.parent() {
            Some(dir) if strictly_below(&dir, &cwd) => found.push((p.clone(), dir)),
            _ => {}
        }
    }
    for dir in target_only_dirs(cx.context) {
        if let Some(p) = dir
            .join(crate::CONFIG.relative())
            .filter(|p| cx.repo.kind(p).is_some())
        {
            found.push((p, dir));
        }
    }
    for (p, dir) in found {
        if let Resolved::Inside {
            kind: kind @ (EntryKind::Dir | EntryKind::Other),
            via_link,
            ..
        } = cx.resolve(&p)
        {
            let effect = format!("Codex started in {} or in a directory below it cannot read it as its project configuration and stops with an error", problems::quote(&dir));
            not_a_file(
                cx,
                &p,
                kind,
                via_link,
                &effect,
                SourceFormat::Toml,
                Severity::Warning,
            );
            continue;
        }
        let msg = if strictly_below(&dir, &cwd) {
            format!("{} is below cwd {}; Codex applies `.codex/config.toml` layers only from the project root down to cwd, so nothing in it applies in this session; start Codex in {} to use it.", problems::quote(&p), problems::quote(&cwd), problems::quote(&dir))
        } else {
            let t = cx
                .context
                .target_path
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            format!("{} is on the way to targetPath {} but not on the path from the repository root to cwd {}, so nothing in it applies in this session; start Codex in {} to use it.", problems::quote(&p), problems::quote(&t), problems::quote(&cwd), problems::quote(&dir))
        };
        cx.diag(
            Diagnostic::new(DiagnosticCode::ConfigLayerNotApplied, msg)
                .at(SourceRef::project(p.clone(), SourceFormat::Toml)),
        );
    }
}

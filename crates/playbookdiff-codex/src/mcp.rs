//! MCP servers from `[mcp_servers.<name>]` in the applicable project layers
//! (spec 004 "MCP configuration", "Duplicate server names across layers";
//! harness facts B4).
//!
//! stdio fields: `command`, `args`, `env`, `env_vars`, `cwd`; streamable
//! HTTP fields: `url`, `bearer_token_env_var`, `http_headers`,
//! `env_http_headers`; common: `enabled`, `enabled_tools`,
//! `disabled_tools`. Variable names stay symbolic (`Host`), `${VAR}`
//! placeholders stay verbatim (`Reference`), literals are redacted. A server
//! defined in several layers keeps every provenance and is left unknown.
//! Servers are never contacted: `runtimeVerified` and
//! `capabilities.known` are always false.
//!
//! A server name Codex refuses (anything but ASCII letters, digits, `-`
//! and `_`, such as the quoted `[mcp_servers."a.b"]`) is kept under its
//! exact name, `excluded`, and reported; messages quote such names so a
//! dotted name is not read as a nested table.

use crate::config::{describe, extent, get, string_array, toml_key, Layer};
use crate::Cx;
use playbookdiff_adapter::problems;
use playbookdiff_model::redact::{
    classify_value, has_placeholder, is_variable_name, looks_like_secret, REDACTED,
};
use playbookdiff_model::{
    Applicability, ConfiguredValue, Diagnostic, DiagnosticCode, McpServer, NamedValue, RepoPath,
    SourceFormat, SourceRef, Transport,
};
use std::collections::BTreeMap;
use toml::de::{DeString, DeTable, DeValue};
use toml::Spanned;

/// Documented fields the normalized model has no place for, by the shape
/// the documentation gives them: accepted without being listed in
/// `unknownFields` (harness facts B4), their type checked.
const DOCUMENTED_UNMODELLED: &[(Shape, &[&str])] = &[
    (Shape::Seconds, &["startup_timeout_sec", "tool_timeout_sec"]),
    (Shape::Millis, &["startup_timeout_ms"]),
    (Shape::Bool, &["required"]),
    (
        Shape::Str,
        &["default_tools_approval_mode", "oauth_resource"],
    ),
    (Shape::Table, &["tools"]),
    (Shape::Strings, &["scopes"]),
    (Shape::Any, &["experimental_environment"]),
    // Accepted by `mcp_types.rs` (X22).
    (
        Shape::Any,
        &["supports_parallel_tool_calls", "oauth", "name"],
    ),
];

/// The shape a documented, unmodelled field must have.
#[derive(Clone, Copy)]
enum Shape {
    /// Any value: the documentation gives no type.
    Any,
    /// A non-negative integer or decimal number (seconds).
    Seconds,
    /// A non-negative integer (milliseconds).
    Millis,
    Bool,
    Str,
    Table,
    Strings,
}

/// The shape of `key` when it is a documented, unmodelled field.
fn unmodelled_shape(key: &str) -> Option<Shape> {
    DOCUMENTED_UNMODELLED
        .iter()
        .find(|(_, fields)| fields.contains(&key))
        .map(|&(shape, _)| shape)
}

/// The expected description when `v` does not have `shape`.
fn shape_mismatch(shape: Shape, v: &Spanned<DeValue<'_>>) -> Option<&'static str> {
    let r = v.get_ref();
    let (ok, expected) = match shape {
        Shape::Any => (true, "any value"),
        Shape::Seconds => (
            match r {
                DeValue::Integer(i) => !i.as_str().starts_with('-'),
                DeValue::Float(f) => !f.as_str().starts_with('-'),
                _ => false,
            },
            "a non-negative number of seconds",
        ),
        Shape::Millis => (
            matches!(r, DeValue::Integer(i) if u64::from_str_radix(i.as_str(), i.radix()).is_ok()),
            "a non-negative number of milliseconds",
        ),
        Shape::Bool => (r.is_bool(), "true or false"),
        Shape::Str => (r.is_str(), "a string"),
        Shape::Table => (r.is_table(), "a table"),
        Shape::Strings => (string_array(v).is_some(), "an array of strings"),
    };
    (!ok).then_some(expected)
}

/// True when Codex accepts `name` as an MCP server name: one or more ASCII
/// letters, digits, `-` or `_` (openai/codex
/// `codex-rs/core/src/mcp_connection_manager.rs`, `validate_mcp_server_name`; a
/// server with another name fails to start).
fn valid_server_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

type Def<'b, 'a> = (
    &'b Layer<'a>,
    &'b Spanned<DeString<'a>>,
    &'b Spanned<DeValue<'a>>,
);

/// Compiles every `[mcp_servers.*]` table of `layers` (root first).
///
/// Shape: one [`McpServer`] per server name, sorted by name; id
/// `codex:mcp:<name>`.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, layers: &[Layer<'_>]) -> Vec<McpServer> {
    let mut defs: BTreeMap<String, Vec<Def<'_, '_>>> = BTreeMap::new();
    for layer in layers {
        let Some((k, v)) = get(&layer.table, "mcp_servers") else {
            continue;
        };
        match v.get_ref() {
            DeValue::Table(t) => {
                for (name, def) in t.iter() {
                    defs.entry(name.get_ref().to_string())
                        .or_default()
                        .push((layer, name, def));
                }
            }
            other => cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpInvalidEntry,
                    format!("{} sets mcp_servers to {} where Codex expects a table of servers ([mcp_servers.<name>] tables), so Codex rejects this configuration and no MCP server of this layer applies; write one [mcp_servers.<name>] table per server.", problems::quote(&layer.loaded.path), describe(other)),
                )
                .at(layer.source(extent(k, v))),
            ),
        }
    }
    let mut out = Vec::new();
    for (name, ds) in defs {
        out.push(merged(cx, &name, &ds));
    }
    out
}

/// Fields whose tables Codex merges key by key across layers
/// (`merge_toml_values`); every other value comes whole from the closest
/// layer that sets it.
const MERGED_TABLES: &[&str] = &["env", "http_headers", "env_http_headers", "tools"];

/// The fields of a server defined in `ds` (root first) after Codex's deep
/// merge, each with the layer it comes from, in first-definition order.
fn merged_fields<'b, 'a>(
    ds: &[Def<'b, 'a>],
) -> Vec<(
    &'b Layer<'a>,
    &'b Spanned<DeString<'a>>,
    &'b Spanned<DeValue<'a>>,
)> {
    let mut fields: Vec<(&Layer<'_>, &Spanned<DeString<'_>>, &Spanned<DeValue<'_>>)> = Vec::new();
    for (layer, _, def) in ds {
        let DeValue::Table(t) = def.get_ref() else {
            continue;
        };
        for (fk, fv) in t.iter() {
            let key = fk.get_ref().as_ref();
            let table_merge = MERGED_TABLES.contains(&key)
                && fv.get_ref().is_table()
                && fields
                    .iter()
                    .filter(|(_, k, _)| k.get_ref().as_ref() == key)
                    .all(|(_, _, v)| v.get_ref().is_table());
            if !table_merge {
                fields.retain(|(_, k, _)| k.get_ref().as_ref() != key);
            }
            fields.push((*layer, fk, fv));
        }
    }
    fields
}

/// Keeps the last entry of each name (the closest layer's), in the order
/// of first appearance.
fn closest_wins(v: &mut Vec<NamedValue>) {
    let mut seen = std::collections::HashSet::new();
    let mut rev: Vec<NamedValue> = v
        .drain(..)
        .rev()
        .filter(|n| seen.insert(n.name.clone()))
        .collect();
    rev.reverse();
    *v = rev;
}

/// A server defined in one or more layers (X5; openai/codex
/// `merge_toml_values`, openai/codex#23547; seen with `codex mcp list`): tables are
/// merged key by key, other values come from the closest layer, and the
/// merged definition is checked as Codex checks it. The closest definition
/// is the source; the others are `otherSources`.
fn merged(cx: &mut Cx<'_, '_>, name: &str, ds: &[Def<'_, '_>]) -> McpServer {
    if let Some(bad) = ds.iter().find(|(_, _, d)| !d.get_ref().is_table()) {
        return single(cx, name, *bad, &[]);
    }
    let Some(closest) = ds.last() else {
        return empty_server(
            name,
            SourceRef::project(RepoPath::root(), SourceFormat::Toml),
        );
    };
    let fields = merged_fields(ds);
    let mut s = single(cx, name, *closest, &fields);
    if ds.len() > 1 {
        s.other_sources = ds[..ds.len() - 1]
            .iter()
            .map(|(l, k, d)| l.source(extent(k, d)))
            .collect();
        let list: Vec<String> = ds
            .iter()
            .map(|(l, _, _)| l.loaded.path.to_string())
            .collect();
        s.reason.push_str(&format!(" Defined in {} layers ({}), which Codex merges: tables key by key, other values from the closest layer.", ds.len(), list.join(", ")));
    }
    s
}

fn empty_server(name: &str, source: SourceRef) -> McpServer {
    McpServer::new(
        format!("codex:mcp:{name}"),
        name,
        source,
        Applicability::Effective,
    )
}

/// Reporting helpers for one field of one server definition.
struct Field<'l, 'a> {
    layer: &'l Layer<'a>,
    server: String,
    key: String,
    source: SourceRef,
}

impl Field<'_, '_> {
    /// The key path this field is, below `mcp_servers` (`t.env.TOKEN`):
    /// the diagnostics' subject.
    fn subject(&self) -> String {
        format!("{}.{}", self.server, self.key)
    }

    fn at(&self) -> String {
        format!(
            "`mcp_servers.{}.{}` in {}",
            toml_key(&self.server),
            self.key,
            problems::quote(&self.layer.loaded.path)
        )
    }

    fn bad_type(&self, cx: &mut Cx<'_, '_>, v: &DeValue<'_>, expected: &str) {
        cx.refuse(
            format!("{} is {}, not {expected}", self.at(), describe(v)),
            Some(self.source.clone()),
        );
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("{} is {} where Codex expects {expected}, so Codex rejects this configuration and does not start; fix it.", self.at(), describe(v)),
            )
            .at(self.source.clone()),
        );
    }

    fn literal_secret(&self, cx: &mut Cx<'_, '_>, what: &str, remedy: &str) {
        let message = if self.source.path.is_on_machine() {
            format!("{} holds a literal {what} that looks like a secret; it is redacted here and lies in a file outside the repository, so keep the file private or pass it through {remedy} instead.", self.at())
        } else {
            format!("{} holds a literal {what} that looks like a secret; it is redacted here but committed in the repository, so rotate it and pass it through {remedy} instead.", self.at())
        };
        cx.diag(
            Diagnostic::new(DiagnosticCode::McpLiteralSecret, message)
                .at(self.source.clone())
                .about(self.subject()),
        );
    }

    fn placeholder(&self, cx: &mut Cx<'_, '_>, remedy: &str) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInterpolationUndocumented,
                format!("{} uses a ${{...}} placeholder, which Codex never expands in config.toml, so the server receives the text verbatim; use {remedy} instead.", self.at()),
            )
            .at(self.source.clone()),
        );
    }

    fn not_a_variable(&self, cx: &mut Cx<'_, '_>, value: &str) {
        let (code, msg) = if looks_like_secret(value, None) {
            (
                DiagnosticCode::McpLiteralSecret,
                format!("{} must name an environment variable but holds what looks like the secret itself; it is redacted here but committed in the repository, so rotate it, keep it in the environment and write the variable's name here.", self.at()),
            )
        } else {
            (
                DiagnosticCode::McpInvalidEntry,
                format!("{} must name an environment variable, but holds a value that is not a variable name; it is redacted here; write the variable's name and keep the value in the environment.", self.at()),
            )
        };
        cx.diag(
            Diagnostic::new(code, msg)
                .at(self.source.clone())
                .about(self.subject()),
        );
    }
}

/// A `NAME = value` map of literal strings: placeholders kept as
/// references, literals redacted, secret-looking literals reported.
fn literal_map(
    cx: &mut Cx<'_, '_>,
    f: &Field<'_, '_>,
    v: &DeValue<'_>,
    what: &str,
    remedy: &str,
) -> Vec<NamedValue> {
    let DeValue::Table(t) = v else {
        f.bad_type(cx, v, "a table of strings");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, val) in t.iter() {
        let name = k.get_ref().to_string();
        let item = Field {
            layer: f.layer,
            server: f.server.clone(),
            key: format!("{}.{}", f.key, toml_key(&name)),
            source: f.layer.source(extent(k, val)),
        };
        let Some(s) = val.get_ref().as_str() else {
            item.bad_type(cx, val.get_ref(), "a string");
            continue;
        };
        // The one classification shared with Claude Code: placeholders stay
        // references (a secret-looking default is redacted), literals go.
        let (value, secret) = classify_value(&name, s);
        if matches!(value, ConfiguredValue::Reference { .. }) {
            item.placeholder(cx, remedy);
        }
        if secret {
            item.literal_secret(cx, what, remedy);
        }
        out.push(NamedValue { name, value });
    }
    out
}

/// A `HEADER = "VARIABLE"` map: each value names a host variable.
fn variable_map(cx: &mut Cx<'_, '_>, f: &Field<'_, '_>, v: &DeValue<'_>) -> Vec<NamedValue> {
    let DeValue::Table(t) = v else {
        f.bad_type(cx, v, "a table of variable names");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, val) in t.iter() {
        let name = k.get_ref().to_string();
        let item = Field {
            layer: f.layer,
            server: f.server.clone(),
            key: format!("{}.{}", f.key, toml_key(&name)),
            source: f.layer.source(extent(k, val)),
        };
        match val.get_ref().as_str() {
            Some(var) => out.push(NamedValue {
                name,
                value: host_variable(cx, &item, var),
            }),
            None => item.bad_type(cx, val.get_ref(), "a variable name"),
        }
    }
    out
}

/// `Host{variable}` for a variable name; a value that is not a name is
/// redacted and reported (someone may have pasted the secret itself).
fn host_variable(cx: &mut Cx<'_, '_>, f: &Field<'_, '_>, var: &str) -> ConfiguredValue {
    if is_variable_name(var) && !looks_like_secret(var, None) {
        ConfiguredValue::Host {
            variable: var.to_string(),
        }
    } else {
        f.not_a_variable(cx, var);
        ConfiguredValue::redacted_literal(var)
    }
}

/// One definition in one layer (spec 004 "MCP configuration").
fn single(
    cx: &mut Cx<'_, '_>,
    name: &str,
    (layer, key, def): Def<'_, '_>,
    fields: &[(&Layer<'_>, &Spanned<DeString<'_>>, &Spanned<DeValue<'_>>)],
) -> McpServer {
    let mut s = empty_server(name, layer.source(extent(key, def)));
    let path = layer.loaded.path.clone();
    let shown = toml_key(name);
    let DeValue::Table(t) = def.get_ref() else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("mcp_servers.{shown} in {q_path} is {} where Codex expects a table, so Codex rejects this configuration; write it as [mcp_servers.{shown}].", describe(def.get_ref()), q_path = problems::quote(&path)),
            )
            .at(s.source.clone()),
        );
        s.reason = format!("Declared in {path}, but not as a table, so Codex cannot start it.");
        return s;
    };
    let own: Vec<_> = t.iter().map(|(k, v)| (layer, k, v)).collect();
    let fields = if fields.is_empty() { &own[..] } else { fields };
    let mut read = FieldsRead::default();
    for &(layer, fk, fv) in fields {
        read.present.push(fk.get_ref().to_string());
        let f = Field {
            layer,
            server: name.to_string(),
            key: toml_key(fk.get_ref()),
            source: layer.source(extent(fk, fv)),
        };
        if !stdio_field(cx, &mut s, &f, fv, &mut read) && !http_field(cx, &mut s, &f, fv) {
            other_field(cx, &mut s, &f, (fk, fv), &mut read);
        }
    }
    closest_wins(&mut s.env);
    closest_wins(&mut s.headers);
    s.transport = transport(cx, &s, name, &path, &read.nested_tables);
    refuse_foreign_fields(cx, &s, &shown, &read.present);
    set_reason(cx, &mut s, name, layer, &read);
    s
}

/// What reading a server's fields found besides the server itself:
/// whether it is enabled, the note on its `cwd`, the keys holding a
/// table, and every key present.
struct FieldsRead {
    enabled: bool,
    cwd_note: String,
    nested_tables: Vec<String>,
    present: Vec<String>,
}

impl Default for FieldsRead {
    fn default() -> Self {
        FieldsRead {
            enabled: true,
            cwd_note: String::new(),
            nested_tables: Vec::new(),
            present: Vec::new(),
        }
    }
}

/// Reads field `f` (value `fv`) when it is one of a stdio server's
/// (`command`, `args`, `env`, `env_vars`, `cwd`); returns whether it was.
fn stdio_field(
    cx: &mut Cx<'_, '_>,
    s: &mut McpServer,
    f: &Field<'_, '_>,
    fv: &Spanned<DeValue<'_>>,
    read: &mut FieldsRead,
) -> bool {
    let v = fv.get_ref();
    match f.key.as_str() {
        "command" => match v.as_str() {
            Some(c) => {
                if s.set_command(c) {
                    f.literal_secret(cx, "command word", "env_vars");
                } else if has_placeholder(c) {
                    f.placeholder(cx, "env_vars and a wrapper script");
                }
            }
            None => f.bad_type(cx, v, "a string"),
        },
        "args" => match string_array(fv) {
            Some(a) => {
                if s.set_args(&a) {
                    f.literal_secret(cx, "argument", "env_vars");
                }
                if a.iter().any(|x| has_placeholder(x)) {
                    f.placeholder(cx, "env_vars");
                }
            }
            None => f.bad_type(cx, v, "an array of strings"),
        },
        "env" => s
            .env
            .extend(literal_map(cx, f, v, "environment value", "env_vars")),
        "env_vars" => env_vars(cx, f, v, &mut s.env),
        "cwd" => match v.as_str() {
            Some(c) => read.cwd_note = cwd_description(&cx.context.cwd, c),
            None => f.bad_type(cx, v, "a path string"),
        },
        _ => return false,
    }
    true
}

/// Reads field `f` (value `fv`) when it is one of a streamable HTTP
/// server's (`url`, `bearer_token_env_var`, `http_headers`,
/// `env_http_headers`); returns whether it was.
fn http_field(
    cx: &mut Cx<'_, '_>,
    s: &mut McpServer,
    f: &Field<'_, '_>,
    fv: &Spanned<DeValue<'_>>,
) -> bool {
    let v = fv.get_ref();
    match f.key.as_str() {
        "url" => match v.as_str() {
            Some(u) => {
                if s.set_url(u) {
                    f.literal_secret(
                        cx,
                        "credential or query value in the URL",
                        "bearer_token_env_var or env_http_headers",
                    );
                }
                if has_placeholder(u) {
                    f.placeholder(cx, "bearer_token_env_var or env_http_headers");
                }
            }
            None => f.bad_type(cx, v, "a URL string"),
        },
        "bearer_token_env_var" => match v.as_str() {
            Some(var) => {
                let value = host_variable(cx, f, var);
                s.headers.push(NamedValue {
                    name: "Authorization".to_string(),
                    value,
                });
            }
            None => f.bad_type(cx, v, "a variable name"),
        },
        "http_headers" => s.headers.extend(literal_map(
            cx,
            f,
            v,
            "header value",
            "env_http_headers or bearer_token_env_var",
        )),
        "env_http_headers" => s.headers.extend(variable_map(cx, f, v)),
        _ => return false,
    }
    true
}

/// Reads any other field `f` (key `fk`, value `fv`): `enabled`, the tool
/// lists, the fields Codex knows but the analysis does not model (their
/// shape checked), and unknown fields, which are listed.
fn other_field(
    cx: &mut Cx<'_, '_>,
    s: &mut McpServer,
    f: &Field<'_, '_>,
    (fk, fv): (&Spanned<DeString<'_>>, &Spanned<DeValue<'_>>),
    read: &mut FieldsRead,
) {
    let v = fv.get_ref();
    match f.key.as_str() {
        "enabled" => match v.as_bool() {
            Some(b) => read.enabled = b,
            None => f.bad_type(cx, v, "true or false"),
        },
        "enabled_tools" | "disabled_tools" => match string_array(fv) {
            Some(tools) if f.key == "enabled_tools" => s.enabled_tools = Some(tools),
            Some(tools) => s.disabled_tools = Some(tools),
            None => f.bad_type(cx, v, "an array of tool names"),
        },
        k if unmodelled_shape(k).is_some() => {
            if let Some(expected) = unmodelled_shape(k).and_then(|sh| shape_mismatch(sh, fv)) {
                f.bad_type(cx, v, expected);
            }
        }
        _ => {
            if v.is_table() {
                read.nested_tables.push(f.key.clone());
            }
            s.unknown_fields.push(fk.get_ref().to_string());
        }
    }
}

/// The server's transport: stdio with a `command`, streamable HTTP with
/// a `url`; with both or neither, Codex refuses the configuration
/// (reported, with what a nested table header meant when there is one).
fn transport(
    cx: &mut Cx<'_, '_>,
    s: &McpServer,
    name: &str,
    path: &RepoPath,
    nested_tables: &[String],
) -> Transport {
    let shown = toml_key(name);
    match (s.command.is_some(), s.url.is_some()) {
        (true, false) => Transport::Stdio,
        (false, true) => Transport::Http,
        (both, _) => {
            let what = if both {
                "both `command` and `url`"
            } else {
                "neither `command` nor `url`"
            };
            // `[mcp_servers.a.b]` makes `b` a table inside server `a`: say so,
            // since the author probably meant one server named "a.b".
            let msg = match nested_tables.first() {
                Some(k) if !both => format!("mcp_servers.{shown} in {path} has {what} but a table {k}: the header [mcp_servers.{shown}.{k}] declares {k} inside server {shown}, not a server named \"{name}.{k}\" (a name Codex would refuse anyway), so Codex rejects server {shown}; name the server with ASCII letters, digits, - and _ only{}.", if valid_server_name(&format!("{name}-{k}")) { format!(", such as [mcp_servers.{name}-{k}]") } else { String::new() }),
                _ => format!("mcp_servers.{shown} in {path} has {what}, so Codex cannot tell a stdio server from a streamable HTTP one and rejects it; keep exactly one."),
            };
            cx.refuse(
                format!("mcp_servers.{shown} has {what} (\"invalid transport\")"),
                Some(s.source.clone()),
            );
            cx.diag(Diagnostic::new(DiagnosticCode::McpInvalidEntry, msg).at(s.source.clone()));
            Transport::Unknown
        }
    }
}

/// X4: a field of the other transport, or a literal bearer_token, makes
/// Codex refuse the whole configuration ("env is not supported for
/// streamable_http", "bearer_token is not supported for stdio"); each
/// such field of `present` is reported.
fn refuse_foreign_fields(cx: &mut Cx<'_, '_>, s: &McpServer, shown: &str, present: &[String]) {
    let foreign: &[&str] = match s.transport {
        Transport::Stdio => &[
            "http_headers",
            "env_http_headers",
            "bearer_token_env_var",
            "bearer_token",
        ],
        Transport::Http => &["env", "args", "env_vars", "cwd", "bearer_token"],
        Transport::Unknown => &[],
    };
    let kind = if s.transport == Transport::Stdio {
        "stdio"
    } else {
        "streamable_http"
    };
    for k in present.iter().filter(|k| foreign.contains(&k.as_str())) {
        let msg = format!("mcp_servers.{shown}.{k} is not supported for {kind} (\"{k} is not supported for {kind}\")");
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("{msg}, so Codex refuses the whole configuration and does not start; remove {k}{}.", if k == "bearer_token" { " and name the variable holding the token in bearer_token_env_var" } else { "" }),
            )
            .at(s.source.clone()),
        );
        cx.refuse(msg, Some(s.source.clone()));
    }
}

/// The server's applicability and reason: excluded for a name Codex
/// refuses (reported) or `enabled = false`, else configured in the
/// project layer of `layer`.
fn set_reason(
    cx: &mut Cx<'_, '_>,
    s: &mut McpServer,
    name: &str,
    layer: &Layer<'_>,
    read: &FieldsRead,
) {
    let path = &layer.loaded.path;
    let shown = toml_key(name);
    let cwd_note = &read.cwd_note;
    if !valid_server_name(name) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("The MCP server name {shown} in {q_path} has characters other than ASCII letters, digits, - and _, so Codex refuses to start it (invalid MCP server name); rename the table to such a name.", q_path = problems::quote(path)),
            )
            .at(s.source.clone()),
        );
        s.applicability = Applicability::Excluded;
        s.reason = format!("Configured in {path}, but Codex accepts only ASCII letters, digits, - and _ in a server name, so it does not start {shown}; repository-configured and runtime-unverified{cwd_note}.");
        return;
    }
    let cwd = &cx.context.cwd;
    if read.enabled && path.is_on_machine() {
        s.reason = format!("Configured in {path}, the {} configuration, in every project (below the project layers); runtime-unverified{cwd_note}.", crate::user::scope_of(path).as_str());
    } else if read.enabled {
        let dir = crate::place(&layer.loaded.dir);
        s.reason = format!("Configured in {path}, the project layer of {dir} on the path from the repository root to cwd {cwd} (project assumed trusted); repository-configured and runtime-unverified{cwd_note}.");
    } else {
        s.applicability = Applicability::Excluded;
        s.reason = format!(
            "Configured in {path} with `enabled = false`, so Codex does not start it; repository-configured and runtime-unverified{cwd_note}."
        );
    }
}

/// `env_vars`: names forwarded from the developer's environment, as
/// strings or `{ name, source }` tables.
fn env_vars(cx: &mut Cx<'_, '_>, f: &Field<'_, '_>, v: &DeValue<'_>, env: &mut Vec<NamedValue>) {
    let DeValue::Array(items) = v else {
        f.bad_type(cx, v, "an array of variable names");
        return;
    };
    for item in items.iter() {
        if let DeValue::Table(t) = item.get_ref() {
            if let Some((_, src)) = get(t, "source") {
                let ok = matches!(src.get_ref().as_str(), Some("local" | "remote"));
                if !ok {
                    let msg = format!(
                        "{} has an env_vars source other than local or remote",
                        f.at()
                    );
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::McpInvalidEntry,
                            format!("{msg}, so Codex refuses the whole configuration and does not start; write source = \"local\" or \"remote\"."),
                        )
                        .at(f.source.clone()),
                    );
                    cx.refuse(msg, Some(f.source.clone()));
                }
            }
        }
        let var = match item.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            DeValue::Table(t) => name_of(t),
            _ => None,
        };
        match var {
            Some(var) => {
                let value = host_variable(cx, f, &var);
                // A value that is not a variable name may be a pasted secret:
                // never echo it as the entry's name either.
                let name = if matches!(value, ConfiguredValue::Host { .. }) {
                    var
                } else {
                    REDACTED.to_string()
                };
                env.push(NamedValue { name, value });
            }
            None => match item.get_ref() {
                DeValue::Table(_) => f.bad_type(
                    cx,
                    item.get_ref(),
                    "a { name, source } table whose name is a variable name string",
                ),
                other => f.bad_type(cx, other, "a variable name or a { name, source } table"),
            },
        }
    }
}

fn name_of(t: &DeTable<'_>) -> Option<String> {
    get(t, "name")
        .and_then(|(_, v)| v.get_ref().as_str())
        .map(str::to_string)
}

/// Where a stdio server runs (X21): Codex passes `cwd` to the process
/// unchanged (`launch_server` in `codex-rs/rmcp-client`), so a relative
/// one resolves against the directory Codex runs in, the launch cwd, not
/// the `.codex/` folder holding the layer.
fn cwd_description(launch: &RepoPath, c: &str) -> String {
    if c.starts_with('/') || c.starts_with('~') {
        format!("; it runs in {c}, a machine-specific path")
    } else {
        match launch.join(c) {
            Some(p) => format!("; it runs in {p} (cwd {c:?}, relative to the directory Codex is started in, {launch})"),
            None => format!("; its cwd {c:?} (relative to the directory Codex is started in, {launch}) leaves the repository"),
        }
    }
}

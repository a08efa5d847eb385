//! MCP servers: the merged `mcp` object.
//!
//! OpenCode 1.18.33 (`packages/opencode/src/config/mcp.ts`, seen with
//! `opencode debug config`): each entry is `{"type": "local", "command":
//! [..], "environment": {..}, "enabled", "timeout"}`, `{"type": "remote",
//! "url", "headers": {..}, "oauth": {..} | false, "enabled", "timeout"}`, or
//! `{"enabled": bool}` alone (to switch off a server defined in another
//! layer). Layers are deep-merged, so a closer layer can change one field
//! of a server. Any other shape stops OpenCode ("Configuration is
//! invalid"). `enabled: false` keeps the server but never starts it.
//! `{env:VAR}` is replaced by the variable's value (empty when unset) and
//! `{file:path}` by a file's text; `${VAR}` is not expanded and is sent
//! verbatim. `debug config` masks values that came from `{env:…}` as `***`
//! but prints literal ones: the analysis redacts every literal value.

use crate::config::{Layer, Merged};
use crate::Cx;
use playbookdiff_model::redact::looks_like_secret;
use playbookdiff_model::{
    Applicability, ConfiguredValue, Diagnostic, DiagnosticCode, McpServer, NamedValue, Severity,
    SourceRef, Transport,
};
use serde_json::{Map, Value};

/// Keys of a `local` entry.
const LOCAL_KEYS: &[&str] = &["type", "command", "environment", "enabled", "timeout"];
/// Keys of a `remote` entry.
const REMOTE_KEYS: &[&str] = &["type", "url", "headers", "oauth", "enabled", "timeout"];

/// Compiles the servers of the merged configuration, by name.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, layers: &[Layer], merged: &Merged) -> Vec<McpServer> {
    let mut names: Vec<&String> = merged.mcp.keys().collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let defs: Vec<&Layer> = layers
            .iter()
            .filter(|l| l.get(&["mcp", name]).is_some())
            .collect();
        let Some(last) = defs.last() else { continue };
        let source = last.source(&["mcp", name]);
        let other_sources: Vec<SourceRef> = defs[..defs.len() - 1]
            .iter()
            .map(|l| l.source(&["mcp", name]))
            .collect();
        if let Some(s) = server(cx, name, &merged.mcp[name.as_str()], source, other_sources) {
            out.push(s);
        }
    }
    out
}

/// `{env:…}` or `{file:…}` in a value.
fn has_reference(s: &str) -> bool {
    ["{env:", "{file:"]
        .iter()
        .any(|p| s.find(p).is_some_and(|i| s[i..].contains('}')))
}

/// `s` without its `{env:…}` and `{file:…}` references.
fn without_references(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    loop {
        let next = ["{env:", "{file:"]
            .iter()
            .filter_map(|p| rest.find(p))
            .min();
        match next {
            Some(i) => match rest[i..].find('}') {
                Some(j) => {
                    out.push_str(&rest[..i]);
                    rest = &rest[i + j + 1..];
                }
                None => break,
            },
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// The variable of a value that is exactly `{env:VAR}`.
fn whole_env(s: &str) -> Option<&str> {
    let v = s.strip_prefix("{env:")?.strip_suffix('}')?;
    (!v.is_empty() && !v.contains(['{', '}'])).then_some(v)
}

/// Classifies one environment or header value: `{env:VAR}` alone names the
/// developer's variable; a value holding references stays a verbatim
/// expression unless the literal text around them looks like a secret;
/// anything else is a redacted literal. The flag says whether a literal
/// secret was found.
pub(crate) fn classify(name: &str, value: &str) -> (ConfiguredValue, bool) {
    if let Some(var) = whole_env(value) {
        return (
            ConfiguredValue::Host {
                variable: var.to_string(),
            },
            false,
        );
    }
    if has_reference(value) {
        let rest = without_references(value);
        if looks_like_secret(rest.trim(), None) {
            return (ConfiguredValue::redacted_literal(value), true);
        }
        return (
            ConfiguredValue::Reference {
                expression: value.to_string(),
            },
            false,
        );
    }
    (
        ConfiguredValue::redacted_literal(value),
        looks_like_secret(value, Some(name)),
    )
}

/// The string map `field` (`environment`, `headers`) of `server`'s
/// `entry` as named values (none when the entry has no such field);
/// diagnostics for literal secrets (by name only) and `${VAR}`
/// placeholders, at the server's source.
fn named_values(
    cx: &mut Cx<'_, '_>,
    server: &McpServer,
    entry: &Map<String, Value>,
    field: &str,
    invalid: &mut Vec<String>,
) -> Vec<NamedValue> {
    let (name, source) = (&server.name, &server.source);
    let Some(v) = entry.get(field) else {
        return Vec::new();
    };
    let Some(map) = v.as_object() else {
        invalid.push(format!("`{field}` is not an object of strings"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, val) in map {
        let Some(s) = val.as_str() else {
            invalid.push(format!("`{field}.{k}` is not a string"));
            continue;
        };
        let (value, secret) = classify(k, s);
        if secret {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpLiteralSecret,
                    format!("MCP server {name:?} sets {field} {k} to a literal value that looks like a secret (redacted here); {}. Use {{env:{}}} instead and rotate the secret.", playbookdiff_model::redact::secret_location(&source.path), playbookdiff_model::redact::suggested_variable(name, k)),
                )
                .at(source.clone())
                .about(format!("{name}.{field}.{k}")),
            );
        }
        if playbookdiff_model::redact::has_placeholder(s) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("MCP server {name:?} sets {field} {k} with a ${{…}} placeholder, which OpenCode does not expand: the text is sent as written. Write {{env:VAR}} instead."),
                )
                .at(source.clone()),
            );
        }
        out.push(NamedValue {
            name: k.clone(),
            value,
        });
    }
    out
}

/// Builds one server from its merged entry; `None` when the entry is only
/// an `enabled` switch for a server no layer defines.
fn server(
    cx: &mut Cx<'_, '_>,
    name: &str,
    v: &Value,
    source: SourceRef,
    other_sources: Vec<SourceRef>,
) -> Option<McpServer> {
    let empty = Map::new();
    let obj = v.as_object().unwrap_or(&empty);
    let layers_note = if other_sources.is_empty() {
        String::new()
    } else {
        format!(
            " It is defined in {} layers ({}, then {}), deep-merged field by field, the later winning.",
            other_sources.len() + 1,
            other_sources
                .iter()
                .map(|s| s.path.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            source.path
        )
    };
    let enabled = obj.get("enabled").and_then(Value::as_bool).unwrap_or(true);
    let mut s = McpServer::new(
        format!("opencode:mcp:{name}"),
        name,
        source.clone(),
        Applicability::Effective,
    );
    s.other_sources = other_sources;
    let mut invalid: Vec<String> = Vec::new();
    if !v.is_object() {
        invalid.push("the entry is not an object".to_string());
    }
    let ty = obj.get("type").and_then(Value::as_str);
    match ty {
        Some("local") => {
            s.transport = Transport::Stdio;
            s.declared_type = Some("local".to_string());
            match obj.get("command").and_then(crate::config::strings) {
                Some(words) if !words.is_empty() => {
                    let secret_cmd = s.set_command(&words[0]);
                    let secret_args = s.set_args(&words[1..]);
                    if secret_cmd || secret_args {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::McpLiteralSecret,
                                format!("MCP server {name:?} has a command word that looks like a secret (redacted here); pass it through environment with {{env:VAR}}."),
                            )
                            .at(source.clone())
                            .about(format!("{name}.command")),
                        );
                    }
                }
                // The schema takes an empty list (seen with 1.18.33:
                // `opencode.schema_edges.in-local_empty_cmd` starts and
                // lists the server); there is nothing to run.
                Some(_) => cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("MCP server {name:?} has an empty `command`: OpenCode accepts the configuration and lists the server, but has no program to start, so the server fails when OpenCode starts it; name the program and its arguments."),
                    )
                    .with_severity(Severity::Warning)
                    .at(source.clone())
                    .about(format!("{name}.command")),
                ),
                None => invalid.push("`command` must be a list of strings".to_string()),
            }
            s.env = named_values(cx, &s, obj, "environment", &mut invalid);
            s.unknown_fields = unknown(obj, LOCAL_KEYS);
        }
        Some("remote") => {
            s.transport = Transport::Http;
            s.declared_type = Some("remote".to_string());
            match obj.get("url").and_then(Value::as_str) {
                Some(u) => {
                    if s.set_url(u) {
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::McpLiteralSecret,
                                format!("MCP server {name:?} has credentials or key-like values in its url (redacted here); use {{env:VAR}} in a header instead."),
                            )
                            .at(source.clone())
                            .about(format!("{name}.url")),
                        );
                    }
                }
                None => invalid.push("`url` must be a string".to_string()),
            }
            s.headers = named_values(cx, &s, obj, "headers", &mut invalid);
            if let Some(o) = obj.get("oauth") {
                if !(o.is_object() || o == &Value::Bool(false)) {
                    invalid.push("`oauth` must be an object or false".to_string());
                }
            }
            s.unknown_fields = unknown(obj, REMOTE_KEYS);
        }
        Some(other) => invalid.push(format!("`type` is {other:?}, not \"local\" or \"remote\"")),
        None => {
            if obj.keys().all(|k| k == "enabled")
                && obj.get("enabled").is_some_and(Value::is_boolean)
            {
                // `{ "enabled": … }` alone: a switch with nothing to switch.
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("MCP server {name:?} only sets `enabled`, and no repository layer defines the server, so OpenCode starts nothing for it; it may switch a server of the user's configuration."),
                    )
                    .with_severity(Severity::Info)
                    .at(source),
                );
                return None;
            }
            invalid.push("`type` is missing (\"local\" or \"remote\")".to_string());
        }
    }
    if obj.get("enabled").is_some_and(|e| !e.is_boolean()) {
        invalid.push("`enabled` must be true or false".to_string());
    }
    if obj.get("timeout").is_some_and(|t| !t.is_number()) {
        invalid.push("`timeout` must be a number of milliseconds".to_string());
    }
    if !invalid.is_empty() {
        cx.refuse(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("MCP server {name:?} is invalid after merging ({}), so OpenCode refuses to start (\"Configuration is invalid\"); fix the entry.", invalid.join("; ")),
            )
            .with_severity(Severity::Error)
            .at(source.clone()),
            format!("MCP server {name:?} in {}: {}", playbookdiff_adapter::problems::quote(&source.path), invalid.join("; ")),
        );
        s.applicability = Applicability::Excluded;
        s.reason = format!("Configured in {}, but the entry is invalid, so OpenCode does not start at all.{layers_note}", source.path);
        return Some(s);
    }
    if enabled {
        // not a count: the server type (`local`, `remote`).
        s.reason = format!("Configured in the `mcp` object of {}; OpenCode starts {} servers at startup.{layers_note}", source.path, ty.unwrap_or("local"));
    } else {
        s.applicability = Applicability::Excluded;
        s.reason = format!("Configured in {} with `enabled: false`, so OpenCode keeps it switched off.{layers_note}", source.path);
    }
    Some(s)
}

/// The keys of `obj` not in `known`, sorted.
fn unknown(obj: &Map<String, Value>, known: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = obj
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .cloned()
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value, what it becomes and whether it is a literal secret.
    #[test]
    fn values_stay_symbolic_or_redacted() {
        let host = |v: &str| ConfiguredValue::Host { variable: v.into() };
        let reference = |e: &str| ConfiguredValue::Reference {
            expression: e.into(),
        };
        let redacted = ConfiguredValue::redacted;
        for (name, value, want, secret) in [
            ("TOKEN", "{env:MY_TOKEN}", host("MY_TOKEN"), false),
            (
                "Authorization",
                "Bearer {env:GH}",
                reference("Bearer {env:GH}"),
                false,
            ),
            (
                "K",
                "{file:./key.txt}",
                reference("{file:./key.txt}"),
                false,
            ),
            ("LIT", "sk-literal-secret-123", redacted(), true),
            (
                "Authorization",
                "Bearer ghp_0123456789abcdefghij{env:X}",
                redacted(),
                true,
            ),
            // `${VAR}` is not OpenCode's syntax: a literal.
            ("A", "${A}", redacted(), false),
        ] {
            assert_eq!(classify(name, value), (want, secret), "{name} = {value}");
        }
    }
}

//! MCP servers: `mcpServers` of the workspace settings.
//!
//! Gemini CLI (`MCPServerConfig` in `packages/core/src/config/config.ts`,
//! `packages/cli/src/config/settings.ts`): each entry has `command` (with
//! `args`, `env`, `cwd`: stdio), `httpUrl` (streamable HTTP), or `url`
//! (SSE, or streamable HTTP with `"type": "http"`), plus `headers`,
//! `timeout`, `trust`, `includeTools`, `excludeTools`. `mcp.excluded`
//! names servers not to start; `mcp.allowed`, when set, the only ones to
//! start. `$VAR` and `${VAR}` are expanded from the environment. Only the
//! launch directory's settings apply ([`crate::settings`]); a server that
//! fails to start is missing from the tools (seen with 0.61.0 and 0.34.0:
//! `gemini mcp list` says `Disconnected`).

use crate::settings::Workspace;
use crate::Cx;
use playbookdiff_model::redact::{classify_value, secret_name};
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, McpServer, NamedValue, Transport,
};
use serde_json::{Map, Value};

/// The keys of an entry Gemini CLI knows.
const KNOWN: &[&str] = &[
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "httpUrl",
    "headers",
    "tcp",
    "type",
    "timeout",
    "trust",
    "description",
    "includeTools",
    "excludeTools",
    "extension",
    "oauth",
    "authProviderType",
    "targetAudience",
    "targetServiceAccount",
];

/// Compiles the servers of the workspace settings, by name.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, ws: &Workspace) -> Vec<McpServer> {
    let servers = ws.mcp_servers();
    let mut names: Vec<&String> = servers.keys().collect();
    names.sort();
    let excluded = list(ws, &["mcp", "excluded"]);
    let allowed = ws
        .get(&["mcp", "allowed"])
        .map(|_| list(ws, &["mcp", "allowed"]));
    let mut out = Vec::new();
    for name in names {
        let Some(source) = ws.source(&["mcpServers", name]) else {
            continue;
        };
        let mut s = McpServer::new(
            format!("gemini:mcp:{name}"),
            name,
            source,
            Applicability::Effective,
        );
        let Some(entry) = servers[name.as_str()].as_object() else {
            invalid(cx, &mut s, "the entry is not an object");
            out.push(s);
            continue;
        };
        fill(cx, &mut s, entry);
        if excluded.contains(name) {
            s.applicability = Applicability::Excluded;
            s.reason = format!(
                "Configured in {}, but `mcp.excluded` names it, so Gemini CLI does not start it.",
                s.source.path
            );
        } else if allowed.as_ref().is_some_and(|a| !a.contains(name)) {
            s.applicability = Applicability::Excluded;
            s.reason = format!("Configured in {}, but `mcp.allowed` does not name it, so Gemini CLI does not start it.", s.source.path);
        }
        out.push(s);
    }
    out
}

/// The strings of the list at `key` (none when unset or malformed).
fn list(ws: &Workspace, key: &[&str]) -> Vec<String> {
    ws.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Sets transport, command, url and values of `s` from `entry`.
fn fill(cx: &mut Cx<'_, '_>, s: &mut McpServer, entry: &Map<String, Value>) {
    let path = s.source.path.clone();
    let str_of = |k: &str| entry.get(k).and_then(Value::as_str);
    let mut secret = false;
    if let Some(cmd) = str_of("command") {
        s.transport = Transport::Stdio;
        secret |= s.set_command(cmd);
        let args: Vec<String> = entry
            .get("args")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        secret |= s.set_args(&args);
        s.reason = format!("Configured in `mcpServers` of {path}; Gemini CLI starts the command at startup and offers its tools.");
    } else if let Some(u) = str_of("httpUrl") {
        s.transport = Transport::Http;
        s.declared_type = Some("httpUrl".to_string());
        secret |= s.set_url(u);
        s.reason = format!("Configured in `mcpServers` of {path} with `httpUrl`; Gemini CLI connects over streamable HTTP at startup.");
    } else if let Some(u) = str_of("url") {
        let ty = str_of("type");
        s.transport = if ty == Some("http") {
            Transport::Http
        } else {
            Transport::Unknown
        };
        s.declared_type = Some(ty.unwrap_or("url").to_string());
        secret |= s.set_url(u);
        s.reason = format!(
            "Configured in `mcpServers` of {path} with `url`; Gemini CLI connects at startup ({}).",
            if ty == Some("http") {
                "streamable HTTP"
            } else {
                "SSE unless `type` says otherwise"
            }
        );
    } else {
        invalid(cx, s, "it has no `command`, `httpUrl` or `url`");
        return;
    }
    s.env = values(cx, s, entry, "env");
    s.headers = values(cx, s, entry, "headers");
    let tools = |k: &str| {
        entry.get(k).and_then(Value::as_array).map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
    };
    s.enabled_tools = tools("includeTools");
    s.disabled_tools = tools("excludeTools");
    let mut unknown: Vec<String> = entry
        .keys()
        .filter(|k| !KNOWN.contains(&k.as_str()))
        .cloned()
        .collect();
    unknown.sort();
    s.unknown_fields = unknown;
    if secret {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpLiteralSecret,
                format!("MCP server {:?} has a command, argument or url that looks like a secret (redacted here); pass it through `env` with `$VAR` instead and rotate it.", s.name),
            )
            .at(s.source.clone()),
        );
    }
}

/// The string map `field` (`env`, `headers`) of `entry` as named values,
/// literal secrets reported by name only.
fn values(
    cx: &mut Cx<'_, '_>,
    s: &McpServer,
    entry: &Map<String, Value>,
    field: &str,
) -> Vec<NamedValue> {
    let Some(map) = entry.get(field).and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in map {
        let Some(raw) = v.as_str() else { continue };
        let (value, secret) = classify_value(k, raw);
        if secret {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpLiteralSecret,
                    format!("MCP server {:?} sets {field} {k} to a literal value that looks like a secret (redacted here); it is committed to the repository. Write ${} instead and rotate the secret.", s.name, if secret_name(k) { k.as_str() } else { "VAR" }),
                )
                .at(s.source.clone())
                .about(format!("{}.{field}.{k}", s.name)),
            );
        }
        out.push(NamedValue {
            name: k.clone(),
            value,
        });
    }
    out
}

/// Marks `s` as an entry Gemini CLI cannot start, `why` saying why.
fn invalid(cx: &mut Cx<'_, '_>, s: &mut McpServer, why: &str) {
    s.applicability = Applicability::Excluded;
    s.reason = format!(
        "Configured in {}, but {why}, so Gemini CLI cannot start it.",
        s.source.path
    );
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::McpInvalidEntry,
            format!(
                "MCP server {:?} in {}: {why}; give it a `command`, an `httpUrl` or a `url`.",
                s.name,
                playbookdiff_adapter::problems::quote(&s.source.path)
            ),
        )
        .at(s.source.clone()),
    );
}

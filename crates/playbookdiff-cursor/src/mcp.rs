//! MCP servers: `mcpServers` of the workspace's `.cursor/mcp.json`.
//!
//! Cursor's MCP page (<https://cursor.com/docs/context/mcp>): a project's
//! `.cursor/mcp.json` (and the user's `~/.cursor/mcp.json`) holds
//! `mcpServers`, each a local server (`command`, `args`, `env`, `envFile`)
//! started over stdio, or a remote one (`url`, `headers`) reached over
//! streamable HTTP or SSE, which Cursor tells apart itself. Values may hold
//! `${env:NAME}`, `${userHome}`, `${workspaceFolder}`: the analysis keeps
//! them as written and never expands them. A server runs once switched on
//! in Cursor's MCP settings, which the analysis cannot see
//! (`mcp-runtime-unknown`).

use crate::json::{self, JsonFile};
use crate::Cx;
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::redact::classify_value;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, McpServer, NamedValue, Transport,
};
use serde_json::{Map, Value};

/// The MCP file of a workspace.
pub(crate) const MCP_JSON: &str = ".cursor/mcp.json";

/// The keys of an entry the documentation names.
const KNOWN: &[&str] = &[
    "command", "args", "env", "envFile", "url", "headers", "type", "auth",
];

/// The servers of the workspace's MCP file, by name.
pub(crate) fn compile(cx: &mut Cx<'_, '_>) -> Vec<McpServer> {
    let Some(path) = cx.context.cwd.join(MCP_JSON) else {
        return Vec::new();
    };
    let Some(file) = json::load(cx, &path, "Cursor starts none of its MCP servers") else {
        return Vec::new();
    };
    let Some(map) = file.value.get("mcpServers").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out: Vec<McpServer> = map
        .iter()
        .map(|(name, v)| server(cx, &file, name, v))
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The server `name` of `file`, entry `v`.
fn server(cx: &mut Cx<'_, '_>, file: &JsonFile, name: &str, v: &Value) -> McpServer {
    let source = file.source(&["mcpServers", name]);
    let mut s = McpServer::new(
        format!("cursor:mcp:{name}"),
        name,
        source,
        Applicability::Effective,
    );
    match v.as_object() {
        Some(entry) => fill(cx, &mut s, entry),
        None => {
            s.applicability = Applicability::Excluded;
            s.reason = format!(
                "Configured in {}, but the entry is not an object, so Cursor cannot start it.",
                file.path
            );
        }
    }
    s
}

/// Sets transport, command, url and values of `s` from `entry`.
fn fill(cx: &mut Cx<'_, '_>, s: &mut McpServer, entry: &Map<String, Value>) {
    let path = s.source.path.clone();
    let str_of = |k: &str| entry.get(k).and_then(Value::as_str);
    let mut secret = false;
    s.declared_type = str_of("type").map(str::to_string);
    if let Some(cmd) = str_of("command") {
        s.transport = Transport::Stdio;
        secret |= s.set_command(cmd);
        let args = playbookdiff_adapter::json::strings(entry.get("args"));
        secret |= s.set_args(&args);
        s.reason = format!("Configured in `mcpServers` of {path}; Cursor starts the command over stdio once the server is switched on in its MCP settings (documented, not observed).");
    } else if let Some(u) = str_of("url") {
        s.transport = if s.declared_type.as_deref() == Some("sse") {
            Transport::Unknown
        } else {
            Transport::Http
        };
        secret |= s.set_url(u);
        s.reason = format!("Configured in `mcpServers` of {path} with `url`; Cursor connects over streamable HTTP or SSE once the server is switched on (documented, not observed).");
    } else {
        s.applicability = Applicability::Excluded;
        s.reason = format!("Configured in {path}, but it has neither `command` nor `url`, so Cursor cannot start it.");
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("MCP server {:?} in {} has neither `command` nor `url`, so Cursor cannot start it; give it one.", s.name, quote(&path)),
            )
            .at(s.source.clone()),
        );
    }
    secret |= values(s, entry);
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
                format!("MCP server {:?} in {} holds a value that looks like a secret (redacted here); it is committed to the repository. Write `${{env:NAME}}` instead and rotate it.", s.name, quote(&path)),
            )
            .at(s.source.clone()),
        );
    }
}

/// Copies `env` and `headers` into `s`, placeholders kept and literals
/// redacted; true when one looks like a secret.
fn values(s: &mut McpServer, entry: &Map<String, Value>) -> bool {
    let mut secret = false;
    for (field, list) in [("env", &mut s.env), ("headers", &mut s.headers)] {
        let Some(m) = entry.get(field).and_then(Value::as_object) else {
            continue;
        };
        for (k, v) in m {
            let Some(raw) = v.as_str() else { continue };
            let (value, sec) = classify_value(k, raw);
            secret |= sec;
            list.push(NamedValue {
                name: k.clone(),
                value,
            });
        }
    }
    secret
}

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
    Applicability, Diagnostic, DiagnosticCode, McpServer, NamedValue, RepoPath, Transport,
};
use playbookdiff_source::Machine;
use serde_json::{Map, Value};

/// The MCP file of a workspace.
pub(crate) const MCP_JSON: &str = ".cursor/mcp.json";

/// The keys of an entry the documentation names.
const KNOWN: &[&str] = &[
    "command", "args", "env", "envFile", "url", "headers", "type", "auth",
];

/// The servers of the workspace's MCP file, by name; in local mode
/// (`machine` given) then those of the user's `~/.cursor/mcp.json`
/// (<https://cursor.com/docs/context/mcp>: "global" servers, in every
/// project; documented, not observed). The documentation does not say
/// which of two servers of one name wins: the project's is assumed to,
/// and the user's is listed `shadowed` beside it.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, machine: Option<&Machine>) -> Vec<McpServer> {
    let effect = "Cursor starts none of its MCP servers";
    let project = cx
        .context
        .cwd
        .join(MCP_JSON)
        .and_then(|path| json::load(cx, &path, effect));
    let mut out = servers(cx, project.as_ref());
    if let Some(m) = machine {
        let user = RepoPath::on_machine("~", MCP_JSON)
            .and_then(|path| json::load_user(cx, m, &path, effect));
        let mut mine = servers(cx, user.as_ref());
        for s in &mut mine {
            if let Some(p) = out.iter().find(|p| p.name == s.name) {
                s.applicability = Applicability::Shadowed;
                s.reason = format!("{} The workspace's {} configures a server of the same name, which Cursor is assumed to take (the documentation does not say which wins).", s.reason, p.source.path);
            }
        }
        out.extend(mine);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The servers of `file`'s `mcpServers`, in file order.
fn servers(cx: &mut Cx<'_, '_>, file: Option<&JsonFile>) -> Vec<McpServer> {
    let Some(file) = file else {
        return Vec::new();
    };
    let Some(map) = file.value.get("mcpServers").and_then(Value::as_object) else {
        return Vec::new();
    };
    map.iter()
        .map(|(name, v)| server(cx, file, name, v))
        .collect()
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
                format!("MCP server {:?} in {} holds a value that looks like a secret (redacted here){}. Write `${{env:{}}}` instead and rotate it.", s.name, quote(&path), if path.is_on_machine() { ", written in the user's file" } else { "; it is committed to the repository" }, playbookdiff_model::redact::suggested_variable(&s.name, "")),
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

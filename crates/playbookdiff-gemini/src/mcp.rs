//! MCP servers: `mcpServers` of the workspace settings, and in local mode
//! of the user's, the system's and the user's extensions' manifests.
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

use crate::extensions::Extension;
use crate::settings::{Settings, Workspace};
use crate::Cx;
use playbookdiff_model::redact::{classify_value, looks_like_secret};
use playbookdiff_model::{
    Applicability, ConfiguredValue, Diagnostic, DiagnosticCode, McpServer, NamedValue, Transport,
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

/// Compiles the servers of the merged settings, by name: the workspace's
/// `mcpServers`, and in local mode the user's and the system's, merged
/// one server at a time (`SHALLOW_MERGE`): of the files defining a name,
/// the system's wins, then the workspace's, then the user's; the others
/// are listed `shadowed` after it. `mcp.excluded` and `mcp.allowed` are
/// merged the same way, the list of the winning file whole.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    settings: &Settings,
    extensions: &[Extension],
) -> Vec<McpServer> {
    let files = settings.by_precedence();
    let maps: Vec<Map<String, Value>> = files.iter().map(|f| f.mcp_servers()).collect();
    let mut names: Vec<&String> = maps.iter().flat_map(|m| m.keys()).collect();
    names.sort();
    names.dedup();
    let policy = Policy {
        excluded: list(settings, &["mcp", "excluded"]),
        allowed: allowed(settings),
    };
    let mut out = Vec::new();
    for name in names {
        let mut defs = files
            .iter()
            .zip(&maps)
            .filter_map(|(f, m)| Some((*f, m.get(name.as_str())?)));
        let Some((winner, entry)) = defs.next() else {
            continue;
        };
        out.extend(server(cx, winner, (name, entry), &policy));
        for (f, entry) in defs {
            out.extend(shadowed(cx, (f, winner), (name, entry)));
        }
    }
    for ext in extensions.iter().filter(|e| e.active()) {
        for s in extension_servers(cx, ext, &policy, &out) {
            out.push(s);
        }
    }
    for ext in extensions.iter().filter(|e| !e.active()) {
        for mut s in extension_servers(cx, ext, &policy, &[]) {
            s.id = format!("gemini:mcp:{}#{}", s.source.path, s.name);
            s.applicability = Applicability::Excluded;
            s.reason = format!(
                "Configured in `mcpServers` of the user's extension `{}`, which is disabled for this launch directory, so Gemini CLI does not start it (`gemini mcp list` still lists it, as it lists every installed extension's servers).",
                ext.name
            );
            out.push(s);
        }
    }
    out
}

/// The servers of the active extension `ext`'s `mcpServers`, added after
/// those of the settings and of the extensions before it (folder name
/// order): a name already taken keeps its first server, and the
/// extension's is listed `shadowed` (`getMcpServersFromConfig` in
/// `packages/cli/src/commands/mcp/list.ts`, and `McpClientManager`'s
/// "Skipping MCP config for server with name ... as it already exists",
/// 0.34.0 and 0.61.0). At startup the settings' servers and the
/// extensions' start concurrently, so which of two servers of one name
/// runs is a race there; the analysis follows `gemini mcp list`.
fn extension_servers(
    cx: &mut Cx<'_, '_>,
    ext: &Extension,
    policy: &Policy,
    taken: &[McpServer],
) -> Vec<McpServer> {
    let map = ext.manifest.mcp_servers();
    let mut out: Vec<McpServer> = Vec::new();
    for (name, entry) in &map {
        let Some(mut s) = server(cx, &ext.manifest, (name, entry), policy) else {
            continue;
        };
        s.source = s.source.in_plugin(&ext.key());
        s.reason = format!(
            "{} It comes with the user's extension `{}`.",
            s.reason, ext.name
        );
        let first = taken
            .iter()
            .chain(&out)
            .find(|t| t.name == *name && t.applicability != Applicability::Shadowed);
        if let Some(first) = first {
            s.id = format!("gemini:mcp:{}#{name}", s.source.path);
            s.applicability = Applicability::Shadowed;
            s.reason = format!(
                "Configured in `mcpServers` of the user's extension `{}`, but {} defines `{name}` first, so Gemini CLI skips this one (it logs that a server of that name already exists).",
                ext.name, first.source.path
            );
        }
        out.push(s);
    }
    out
}

/// The merged `mcp.excluded` and `mcp.allowed` (`None`: not set).
struct Policy {
    excluded: Vec<String>,
    allowed: Option<Vec<String>>,
}

/// The server `name` of the settings file `file`, holding `entry`, with
/// the merged `policy` applied; `None` when the file has no source.
fn server(
    cx: &mut Cx<'_, '_>,
    file: &Workspace,
    (name, entry): (&str, &Value),
    policy: &Policy,
) -> Option<McpServer> {
    let source = file.source(&["mcpServers", name])?;
    let mut s = McpServer::new(
        format!("gemini:mcp:{name}"),
        name,
        source,
        Applicability::Effective,
    );
    let Some(entry) = entry.as_object() else {
        invalid(cx, &mut s, "the entry is not an object");
        return Some(s);
    };
    fill(cx, &mut s, entry);
    let name = name.to_string();
    if policy.excluded.contains(&name) {
        s.applicability = Applicability::Excluded;
        s.reason = format!(
            "Configured in {}, but `mcp.excluded` names it, so Gemini CLI does not start it.",
            s.source.path
        );
    } else if policy.allowed.as_ref().is_some_and(|a| !a.contains(&name)) {
        s.applicability = Applicability::Excluded;
        s.reason = format!("Configured in {}, but `mcp.allowed` does not name it, so Gemini CLI does not start it.", s.source.path);
    }
    Some(s)
}

/// The server `name` of `file`, holding `entry`, replaced by the one of
/// `winner` (a file of higher precedence): listed `shadowed`, its value
/// kept.
fn shadowed(
    cx: &mut Cx<'_, '_>,
    (file, winner): (&Workspace, &Workspace),
    (name, entry): (&str, &Value),
) -> Option<McpServer> {
    let policy = Policy {
        excluded: Vec::new(),
        allowed: None,
    };
    let mut s = server(cx, file, (name, entry), &policy)?;
    let by = winner
        .path
        .as_ref()
        .map(|p| p.to_string())
        .unwrap_or_default();
    s.id = format!("gemini:mcp:{}#{name}", s.source.path);
    s.applicability = Applicability::Shadowed;
    s.reason = format!(
        "Configured in {}, but {by} defines `{name}` too, and Gemini CLI takes that server whole (`mcpServers` is merged one server at a time: system settings over the workspace's over the user's over the system defaults).",
        s.source.path
    );
    Some(s)
}

/// The strings of the merged list at `key` (none when unset or
/// malformed).
fn list(settings: &Settings, key: &[&str]) -> Vec<String> {
    playbookdiff_adapter::json::strings(settings.get(key))
}

/// The merged `mcp.allowed`, when set.
fn allowed(settings: &Settings) -> Option<Vec<String>> {
    let key = ["mcp", "allowed"];
    settings.get(&key).map(|_| list(settings, &key))
}

/// Sets transport, command, url and values of `s` from `entry`.
fn fill(cx: &mut Cx<'_, '_>, s: &mut McpServer, entry: &Map<String, Value>) {
    let path = s.source.path.clone();
    let str_of = |k: &str| entry.get(k).and_then(Value::as_str);
    let mut secret = false;
    if let Some(cmd) = str_of("command") {
        s.transport = Transport::Stdio;
        secret |= s.set_command(cmd);
        let args = playbookdiff_adapter::json::strings(entry.get("args"));
        secret |= s.set_args(&args);
        s.reason = format!("Configured in `mcpServers` of {path}; Gemini CLI starts the command at startup and offers its tools.");
    } else if let Some(u) = str_of("httpUrl") {
        s.transport = Transport::Http;
        s.declared_type = Some("httpUrl".to_string());
        secret |= s.set_url(u);
        s.reason = format!("Configured in `mcpServers` of {path} with `httpUrl`; Gemini CLI connects over streamable HTTP at startup.");
    } else if let Some(u) = str_of("url") {
        // `type` defaults to `http` (`gemini mcp list` shows `(http)` for a
        // bare `url`; seen with 0.34.0 and 0.61.0); `sse` is the other.
        let ty = str_of("type");
        let http = ty.is_none_or(|t| t == "http");
        s.transport = if http {
            Transport::Http
        } else {
            Transport::Unknown
        };
        s.declared_type = Some(ty.unwrap_or("http").to_string());
        secret |= s.set_url(u);
        s.reason = format!(
            "Configured in `mcpServers` of {path} with `url`; Gemini CLI connects at startup over {}.",
            if http { "streamable HTTP (`type` defaults to `http`)" } else { "the `type` it names" }
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
        let (value, secret) = classify(k, raw);
        if secret {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpLiteralSecret,
                    format!("MCP server {:?} sets {field} {k} to a literal value that looks like a secret (redacted here); {}. Write ${} instead and rotate the secret.", s.name, playbookdiff_model::redact::secret_location(&s.source.path), playbookdiff_model::redact::suggested_variable(&s.name, k)),
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

/// Classifies one `env` or `headers` value: `$VAR` or `${VAR}` alone names
/// the developer's variable; a value holding such references stays a
/// verbatim expression unless the text around them looks like a secret;
/// anything else is a redacted literal (`resolveEnvVarsInObject` in
/// `packages/cli/src/utils/envVarResolver.ts` expands `$VAR` and `${VAR}`).
/// The flag says whether a literal secret was found.
fn classify(name: &str, raw: &str) -> (ConfiguredValue, bool) {
    let var = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let whole = raw
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| raw.strip_prefix('$'))
        .filter(|v| var(v));
    if let Some(v) = whole {
        return (
            ConfiguredValue::Host {
                variable: v.to_string(),
            },
            false,
        );
    }
    let refers = raw.match_indices('$').any(|(i, _)| {
        raw[i + 1..].starts_with('{')
            || raw[i + 1..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    });
    if refers {
        let rest: String = raw.split('$').next().unwrap_or_default().to_string();
        if !looks_like_secret(rest.trim(), None) {
            return (
                ConfiguredValue::Reference {
                    expression: raw.to_string(),
                },
                false,
            );
        }
    }
    classify_value(name, raw)
}

/// Marks `s` as an entry Gemini CLI keeps but cannot connect to, `why`
/// saying why (seen with 0.61.0: an entry with neither `command` nor a url
/// is listed by `gemini mcp list` and is `Disconnected`).
fn invalid(cx: &mut Cx<'_, '_>, s: &mut McpServer, why: &str) {
    s.reason = format!(
        "Configured in {}, but {why}, so Gemini CLI lists it and cannot connect to it.",
        s.source.path
    );
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::McpInvalidEntry,
            format!(
                "MCP server {:?} in {}: {why}, so Gemini CLI never connects to it; give it a `command`, an `httpUrl` or a `url`.",
                s.name,
                playbookdiff_adapter::problems::quote(&s.source.path)
            ),
        )
        .at(s.source.clone()),
    );
}

#[cfg(test)]
mod tests {
    use super::classify;
    use playbookdiff_model::ConfiguredValue;

    /// `$VAR` and `${VAR}` name a variable; text around a reference stays
    /// symbolic; a literal is redacted, and reported when it looks secret.
    #[test]
    fn values_stay_symbolic_or_redacted() {
        let host = |v: &str| ConfiguredValue::Host { variable: v.into() };
        assert_eq!(
            classify("TOKEN", "$DOCS_TOKEN"),
            (host("DOCS_TOKEN"), false)
        );
        assert_eq!(
            classify("TOKEN", "${DOCS_TOKEN}"),
            (host("DOCS_TOKEN"), false)
        );
        assert_eq!(
            classify("Authorization", "Bearer $GH"),
            (
                ConfiguredValue::Reference {
                    expression: "Bearer $GH".into()
                },
                false
            )
        );
        assert!(classify("TOKEN", "ghp_0123456789abcdefghij0123").1);
    }
}

//! MCP servers: `mcpServers` of `.mcp.json` (or, without that key, its
//! top-level object), else (1.0.102)
//! `.github/mcp.json`, in the launch directory and each directory up to the
//! git root (seen with both releases: from `sub/` the root's servers start,
//! and CharlesWiltgen/Axiom's `axiom-codex/.mcp.json` starts when launched
//! there). Of two servers with one name, the one closer to the launch
//! directory is assumed to win.
//!
//! Seen with 1.0.102 (fixture `skills_agents_mcp`, `session.mcp_servers_loaded`
//! with `source: "workspace"`): with both files only `.mcp.json` applies; a
//! `command` entry is started over stdio, a `url` one connected over HTTP;
//! `.vscode/mcp.json` and `.copilot/mcp-config.json` of the repository are
//! ignored. Seen with 1.0.24: only `.mcp.json`, and a `command` entry
//! without `args` made it start no server of the file, as does any entry
//! its schema refuses ([`McpSchema::WholeFile`]). Workspace servers
//! start in `-p` mode only in a trusted folder (1.0.102), which the
//! analysis cannot know (an assumption).
//!
//! In local mode the user's `~/.copilot/mcp-config.json` is read too: its
//! servers start besides the workspace's, and a workspace server of the
//! same name is taken instead of the user's, which is listed `shadowed`
//! (seen with 1.0.102, case
//! `oracle.local_user_layers.home-copilot-mcp-agents`: the user's `notes`
//! starts with no source, `docs` with source `workspace`; with 1.0.24,
//! whose workspace servers lacked `args` and did not start, the user's
//! `docs` and `notes` both started). The servers of the installed
//! plugins come after the user's ([`plugin_servers`]). The user's file is
//! read as the release reads it ([`crate::profile::UserJson`]): 1.0.24
//! keeps the servers read before a fault, 1.0.102 takes comments and
//! trailing or missing commas but refuses a cut file.

use crate::json::{self, JsonFile, Loaded};
use crate::plugins::Plugin;
use crate::profile::{self, Fact, McpSchema};
use crate::trust::FolderTrust;
use crate::{Cx, Profile};
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::redact::classify_value;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, McpServer, NamedValue, RepoPath, Transport,
};
use playbookdiff_source::Machine;
use serde_json::{Map, Value};

/// The keys of an entry Copilot CLI knows.
const KNOWN: &[&str] = &[
    "command", "args", "env", "cwd", "url", "headers", "type", "tools", "timeout",
];

/// Compiles the servers of the MCP file that applies, by name; servers of
/// a file that does not apply are listed shadowed.
///
/// `machine` is the user's machine in local mode (`None` in repo mode).
///
/// Where the release asks for the folder's trust and `trust` says the
/// user has not given it, the workspace's servers are `conditional`: they
/// start once the user trusts the folder ([`crate::trust`]).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: Option<&Machine>,
    trust: &FolderTrust,
) -> Vec<McpServer> {
    /// The memo key of [`in_dir`]: the directory and the release.
    #[derive(Hash, PartialEq, Eq)]
    struct ServersOf(RepoPath, &'static str);
    let mut out: Vec<McpServer> = Vec::new();
    let mut dirs = crate::chain(cx);
    dirs.reverse();
    for dir in dirs {
        // Read once per directory and release on one `Repo`: the git
        // root's files are in every launch directory's chain.
        let key = ServersOf(dir.clone(), profile.release);
        for s in cx.memo_read(key, |cx| in_dir(cx, profile, &dir)) {
            let clash = out
                .iter()
                .any(|o| o.name == s.name && o.applicability == Applicability::Effective);
            let mut s = s;
            if clash && s.applicability == Applicability::Effective {
                s.applicability = Applicability::Shadowed;
                s.reason = format!("{} A server of the same name in a directory closer to the launch directory is taken (assumed).", s.reason);
            }
            out.push(s);
        }
    }
    if let (true, Some(why)) = (
        profile.trust_gates_hooks_and_mcp,
        trust.not_trusted_reason(),
    ) {
        for s in out
            .iter_mut()
            .filter(|s| s.applicability == Applicability::Effective)
        {
            s.applicability = Applicability::Conditional;
            s.reason = format!(
                "{} It starts only in a trusted folder, and {why}.",
                s.reason
            );
        }
    }
    if let Some(m) = machine {
        let user: Vec<McpServer> = user_servers(cx, profile, m)
            .into_iter()
            .map(|s| below_workspace(s, &out))
            .collect();
        out.extend(user);
        for s in plugin_servers(cx, profile, m) {
            let s = below_workspace(s, &out);
            out.push(s);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The user's MCP configuration file, as provenance names it.
fn user_file() -> Option<RepoPath> {
    RepoPath::on_machine("~", ".copilot/mcp-config.json")
}

/// The servers of the user's `~/.copilot/mcp-config.json` on `machine`.
fn user_servers(cx: &mut Cx<'_, '_>, profile: &Profile, machine: &Machine) -> Vec<McpServer> {
    let Some(path) = user_file() else {
        return Vec::new();
    };
    let effect = "Copilot CLI starts none of the user's MCP servers";
    match json::load_user_config(machine, &path, profile.user_mcp_json, effect, &mut cx.diags) {
        Loaded::File(f) => servers(cx, profile, &f, None),
        _ => Vec::new(),
    }
}

/// The servers of the `.mcp.json` of each enabled installed plugin on
/// `machine` ([`crate::plugins`]), scope `plugin` (seen with 1.0.24 and
/// 1.0.102, case `oracle.local_user_layers.home-copilot-plugins`:
/// `kit-docs` started with `source: "plugin"`). A server whose name an
/// earlier one holds is assumed to lose to it.
fn plugin_servers(cx: &mut Cx<'_, '_>, profile: &Profile, machine: &Machine) -> Vec<McpServer> {
    let mut out = Vec::new();
    let repository = crate::plugins::repository_map(cx, profile);
    for plugin in crate::plugins::installed(machine, profile, repository.as_ref(), &mut Vec::new())
    {
        if let Some(f) = plugin_file(machine, &plugin, &mut cx.diags) {
            for mut s in servers(cx, profile, &f, None) {
                s.source = s.source.in_plugin(&plugin.key);
                s.reason = format!(
                    "{} It comes from the installed plugin `{}`.",
                    s.reason, plugin.key
                );
                out.push(s);
            }
        }
    }
    out
}

/// The plugin's MCP files, the first that parses taken (1.0.24 `app.js`,
/// the plugin MCP loader): `.mcp.json`, `.github/mcp.json`.
const PLUGIN_MCP_FILES: [&str; 2] = [".mcp.json", ".github/mcp.json"];

/// The file whose servers the plugin gives: the first of
/// [`PLUGIN_MCP_FILES`], else its manifest's `mcpServers`, a file inside
/// the plugin (a leading `./` dropped) or the servers themselves (seen
/// with 1.0.24 and 1.0.102, case
/// `oracle.local_user_layers.home-copilot-plugin-manifest`: `.mcp.json`
/// and `.github/mcp.json` won over the manifest's servers).
fn plugin_file(
    machine: &Machine,
    plugin: &Plugin,
    diags: &mut Vec<Diagnostic>,
) -> Option<JsonFile> {
    let effect = "Copilot CLI starts none of the plugin's MCP servers";
    let load = |path: RepoPath, diags: &mut Vec<Diagnostic>| match json::load_user(
        machine, &path, effect, diags,
    ) {
        Loaded::File(f) => Some(f),
        _ => None,
    };
    for rel in PLUGIN_MCP_FILES {
        if let Some(f) = plugin.path(rel).and_then(|p| load(p, diags)) {
            return Some(f);
        }
    }
    let manifest = crate::plugins::manifest(machine, &plugin.root, diags)?;
    match manifest.value.get("mcpServers")? {
        Value::String(rel) => load(crate::plugins::inside(&plugin.root, rel)?, diags),
        Value::Object(_) => Some(manifest),
        _ => None,
    }
}

/// The user's server `s`, `shadowed` when an effective workspace server
/// of `workspace` has its name.
fn below_workspace(mut s: McpServer, workspace: &[McpServer]) -> McpServer {
    let taken = workspace
        .iter()
        .find(|w| w.name == s.name && w.applicability == Applicability::Effective);
    if let (Some(w), Applicability::Effective) = (taken, s.applicability) {
        s.applicability = Applicability::Shadowed;
        s.reason = format!(
            "{} The workspace's server of the same name ({}) is taken instead.",
            s.reason, w.source.path
        );
    }
    s.id = format!("copilot:mcp:{}#{}", s.source.path, s.name);
    s
}

/// The servers of directory `dir`'s MCP files.
fn in_dir(cx: &mut Cx<'_, '_>, profile: &Profile, dir: &RepoPath) -> Vec<McpServer> {
    let mut out = Vec::new();
    let mut applied: Option<RepoPath> = None;
    for rel in crate::MCP_FILES.map(|s| s.relative()) {
        let Some(path) = dir.join(rel) else {
            continue;
        };
        let read = profile.mcp_files.contains(&rel);
        let effect = "Copilot CLI starts none of its MCP servers";
        let file = match json::load(cx, &path, effect) {
            Loaded::File(f) => f,
            Loaded::Broken if read && applied.is_none() => {
                applied = Some(path);
                continue;
            }
            _ => continue,
        };
        let why = match (&applied, read) {
            (Some(first), _) => Some(format!(
                "{first} exists, and Copilot CLI then reads no other MCP file"
            )),
            (None, false) => Some(format!(
                "Copilot CLI before {} reads only `.mcp.json`",
                profile::since(Fact::McpFiles)
            )),
            (None, true) => None,
        };
        if why.is_none() {
            applied = Some(path.clone());
        }
        out.extend(servers(cx, profile, &file, why));
    }
    out
}

/// The servers of `file`; `not_applied` says why the file does not apply.
fn servers(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    file: &JsonFile,
    not_applied: Option<String>,
) -> Vec<McpServer> {
    // Without `mcpServers`, the file's top-level object is the servers
    // (seen with 1.0.102, fuzzer seeds 0 and 20: `.mcp.json` holding
    // `{"x0": {"command": ...}}` started `x0`).
    let map = match file.value.get("mcpServers") {
        Some(v) => v.as_object(),
        None => Some(&file.value),
    };
    let Some(map) = map else {
        return Vec::new();
    };
    let refused = match profile.mcp_schema {
        McpSchema::WholeFile if not_applied.is_none() => {
            whole_file_refusal(map, file.value.get("mcpServers").is_none(), profile)
        }
        _ => None,
    };
    if let Some((name, why)) = &refused {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("MCP server {name:?} in {} {why}; Copilot CLI before {} then starts no server of the file.", quote(&file.path), profile::since(Fact::McpSchema)),
            )
            .at(file.source(&["mcpServers", name])),
        );
    }
    let dropped = refused.is_some();
    let mut out = Vec::new();
    for (name, v) in map {
        let source = file.source(&["mcpServers", name]);
        let mut s = McpServer::new(
            format!("copilot:mcp:{name}"),
            name,
            source,
            Applicability::Effective,
        );
        match v.as_object() {
            Some(entry) => fill(cx, &mut s, entry),
            None => {
                s.reason = format!(
                "Configured in {}, but the entry is not an object, so Copilot CLI cannot start it.",
                file.path
            )
            }
        }
        // An entry Copilot CLI cannot start is left out of what it loads,
        // the file's other servers still start (seen with 1.0.102, fuzzer
        // seeds 11 and 17: `{"type": "stdio"}` and `"oops"`).
        if s.transport == Transport::Unknown {
            s.applicability = Applicability::Excluded;
        }
        if let Some(why) = &not_applied {
            s.applicability = Applicability::Shadowed;
            s.reason = format!("Configured in {}, but {why}.", file.path);
        } else if dropped {
            s.applicability = Applicability::Excluded;
            s.reason = format!("Configured in {}, but an entry of the file fails the schema of Copilot CLI before {}, so it starts no server of the file.", file.path, profile::since(Fact::McpSchema));
        }
        out.push(s);
    }
    out
}

/// The first server of `map` (with the reason) that fails the schema of
/// [`McpSchema::WholeFile`], its name too while
/// [`Profile::mcp_names_checked`]; `top_level` when `map` is the file's
/// top-level object (no `mcpServers`).
fn whole_file_refusal(
    map: &Map<String, Value>,
    top_level: bool,
    profile: &Profile,
) -> Option<(String, String)> {
    let first = |why: &dyn Fn(&Value) -> Option<String>| {
        map.iter().find_map(|(k, v)| why(v).map(|w| (k.clone(), w)))
    };
    if top_level {
        let starts = |v: &Value| {
            ["command", "url"]
                .iter()
                .any(|k| v.get(k).is_some_and(Value::is_string))
        };
        let why = |v: &Value| {
            (!starts(v)).then(|| "has neither a string `command` nor a string `url`, so the top-level object is not taken for servers".to_string())
        };
        if let Some(found) = first(&why) {
            return Some(found);
        }
    }
    let name_ok = |n: &str| {
        n.split('/').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.@-".contains(c))
        })
    };
    map.iter().find_map(|(name, v)| {
        let why = if !profile.mcp_names_checked || name_ok(name) {
            entry_refusal(v, profile.mcp_requires_args)?
        } else {
            "has a name outside ASCII letters, digits, `_`, `.`, `@`, `-` and inner `/`".to_string()
        };
        Some((name.clone(), why))
    })
}

/// Why the schema of [`McpSchema::WholeFile`] refuses entry `v`; `None`
/// when it takes it.
fn entry_refusal(v: &Value, requires_args: bool) -> Option<String> {
    let Some(e) = v.as_object() else {
        return Some("is not an object".to_string());
    };
    let strings = |k: &str| {
        e.get(k)
            .is_none_or(|x| x.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
    };
    let string_map = |k: &str| {
        e.get(k).is_none_or(|x| {
            x.as_object()
                .is_some_and(|m| m.values().all(Value::is_string))
        })
    };
    let string = |k: &str| e.get(k).is_some_and(Value::is_string);
    let optional = |k: &str| e.get(k).is_none_or(Value::is_string);
    let ty = e
        .get("type")
        .map(|t| t.as_str().unwrap_or("(not a string)"));
    let local = matches!(ty, None | Some("local") | Some("stdio"))
        && string("command")
        && strings("args")
        && (e.contains_key("args") || !requires_args)
        && optional("cwd")
        && string_map("env");
    let remote = matches!(ty, Some("http") | Some("sse")) && string("url") && string_map("headers");
    let timeout_ok = e
        .get("timeout")
        .is_none_or(|t| t.as_f64().is_some_and(|n| n > 0.0));
    if (local || remote) && strings("tools") && timeout_ok {
        return None;
    }
    Some(match ty {
        Some("http" | "sse") => {
            "is a remote server without a string `url`, or with a field of the wrong type"
                .to_string()
        }
        Some(t) if !matches!(t, "local" | "stdio") => {
            format!("has the `type` {t:?}, neither `local`, `stdio`, `http` nor `sse`")
        }
        _ if string("command") && !e.contains_key("args") => {
            "has a `command` but no `args` (add `\"args\": []`)".to_string()
        }
        _ => "is a local server without a string `command`, or with a field of the wrong type"
            .to_string(),
    })
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
        s.reason = format!("Configured in `mcpServers` of {path}; Copilot CLI starts the command at startup (in a trusted folder) and offers its tools.");
    } else if let Some(u) = str_of("url") {
        s.transport = Transport::Http;
        secret |= s.set_url(u);
        s.reason = format!("Configured in `mcpServers` of {path} with `url`; Copilot CLI connects at startup (in a trusted folder).");
    } else {
        s.reason = format!("Configured in {path}, but it has neither `command` nor `url`, so Copilot CLI cannot start it.");
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("MCP server {:?} in {} has neither `command` nor `url`, so Copilot CLI cannot start it; give it one.", s.name, quote(&path)),
            )
            .at(s.source.clone()),
        );
    }
    for (field, list) in [("env", &mut s.env), ("headers", &mut s.headers)] {
        if let Some(m) = entry.get(field).and_then(Value::as_object) {
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
    }
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
                format!("MCP server {:?} in {} holds a value that looks like a secret (redacted here); {}. Pass it through the environment instead and rotate it.", s.name, quote(&path), if path.is_on_machine() { "it is written in a file of the user's" } else { "it is committed to the repository" }),
            )
            .at(s.source.clone()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::whole_file_refusal;
    use crate::profile;
    use serde_json::json;

    /// 1.0.24's schema: the first entry it refuses, and the reason's
    /// subject (1.0.24 `app.js`).
    #[test]
    fn one_refused_entry_names_the_file_drop() {
        let p = profile::of("1.0.24");
        let refused = |v: serde_json::Value, top: bool| {
            whole_file_refusal(v.as_object().unwrap(), top, &p).map(|(n, _)| n)
        };
        let ok = json!({"a": {"command": "npx", "args": []}, "b": {"type": "sse", "url": "u"}});
        assert_eq!(refused(ok, false), None);
        let name = json!({"git hub0": {"command": "uvx", "args": []}});
        assert_eq!(refused(name, false).as_deref(), Some("git hub0"));
        let remote = json!({"a": {"command": "npx", "args": []}, "r": {"type": "http"}});
        assert_eq!(refused(remote, false).as_deref(), Some("r"));
        let no_args = json!({"s": {"type": "stdio", "command": "srv"}});
        assert_eq!(refused(no_args, false).as_deref(), Some("s"));
        let string = json!({"x": "oops"});
        assert_eq!(refused(string, false).as_deref(), Some("x"));
        let top = json!({"x0": {"command": "c", "args": []}, "files1": {"args": []}});
        assert_eq!(refused(top, true).as_deref(), Some("files1"));
        let slashes =
            json!({"org/tool": {"command": "c", "args": []}, "/x": {"command": "c", "args": []}});
        assert_eq!(refused(slashes, false).as_deref(), Some("/x"));
    }

    /// From 1.0.81 the name is not checked, the entries still are, the
    /// whole file with them, until 1.0.89 (fuzzer seed 0: 1.0.81 starts
    /// `git hub0` and `files2`, no server of `sub/.mcp.json`, whose
    /// `http` entry has no `url`).
    #[test]
    fn names_are_not_checked_from_1_0_81() {
        let p = profile::of("1.0.81");
        assert_eq!(p.mcp_schema, profile::McpSchema::WholeFile);
        let refused = |v: serde_json::Value| {
            whole_file_refusal(v.as_object().unwrap(), false, &p).map(|(n, _)| n)
        };
        let name = json!({"git hub0": {"command": "uvx", "args": []}, "files2": {"command": "npx", "args": []}});
        assert_eq!(refused(name), None);
        let remote = json!({"remote": {"type": "http"}, "local": {"command": "npx", "args": []}});
        assert_eq!(refused(remote).as_deref(), Some("remote"));
    }
}

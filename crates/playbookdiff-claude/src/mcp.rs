//! MCP servers from the project `.mcp.json`.
//!
//! Source: spec 000 "MCP configuration" (project root `.mcp.json`; stdio,
//! HTTP; SSE and WebSocket as `unknown` with a diagnostic; `${VAR}` and
//! `${VAR:-default}` kept symbolic; approval state unknown; capabilities
//! unknown); harness facts A6 (`enabledMcpjsonServers`,
//! `disabledMcpjsonServers`, `enableAllProjectMcpServers`) and A12.

use crate::json::JsonDoc;
use crate::settings::{report_duplicates, Settings};
use crate::Compiler;
use playbookdiff_model::redact::classify_value;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, McpServer, NamedValue, RepoPath, SourceFormat,
    SourceRef, SourceScope, Transport,
};
use serde_json::Value;
use std::collections::HashMap;

const KNOWN_FIELDS: &[&str] = &[
    "type",
    "command",
    "args",
    "env",
    "url",
    "headers",
    "headersHelper",
    "timeout",
    "alwaysLoad",
    "oauth",
    "cwd",
];

/// The servers of one `.mcp.json`, each with its own diagnostics (not yet
/// merged, approved or given an id), as [`read_servers`] finds them.
///
/// They depend only on the file, not on the launch directory, so they are
/// read once per run ([`playbookdiff_source::Repo::memo`], keyed by the
/// path) and shared by every launch directory of `check --all-dirs`; the
/// diagnostics of the reading are kept with them and reported again, in
/// the same order, by every caller.
fn servers_of(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Vec<McpServer> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath);
    cx.memo_read(Key(path.clone()), |cx| read_servers(cx, path))
}

/// Reads the servers of the `.mcp.json` at `path`, reporting what is wrong
/// in it. Depends only on the file (through the repository, and the
/// directories above its root for a path there).
fn read_servers(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Vec<McpServer> {
    if !cx.expect_file(path, SourceFormat::Json) {
        return Vec::new();
    }
    let Some(text) = cx.read(path, SourceFormat::Json) else {
        return Vec::new();
    };
    let source = cx.source_ref(path, SourceScope::Project, SourceFormat::Json);
    let doc = match JsonDoc::parse(&text.text) {
        Ok(v) => v,
        Err(e) => {
            let msg = &e.message;
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidJson,
                    format!("`{path}` is not valid JSON ({msg}); Claude Code loads none of its servers."),
                )
                .at(e.at_line(source)),
            );
            return Vec::new();
        }
    };
    report_duplicates(cx, path, &source, &doc);
    servers_in(cx, path, &doc, &source, &[])
}

/// The servers of an installed plugin's `.mcp.json` at `path` on the
/// machine, read as a project's `.mcp.json` is.
pub(crate) fn plugin_servers(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Vec<McpServer> {
    servers_of(cx, path)
}

/// The servers of the `mcpServers` object at `prefix` of the JSON
/// document `doc` of file `path` (`[]` for a `.mcp.json`; `["projects",
/// "<dir>"]` for a project's entry in `~/.claude.json`), reporting what is
/// wrong in them.
fn servers_in(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    doc: &JsonDoc,
    source: &SourceRef,
    prefix: &[&str],
) -> Vec<McpServer> {
    let mut out = Vec::new();
    let at = |rest: &[&str]| {
        let p: Vec<&str> = prefix.iter().chain(rest).copied().collect();
        match doc.span(&p) {
            Some((s, e)) => source.clone().with_lines(s, e),
            None => source.clone(),
        }
    };
    let holder = prefix
        .iter()
        .try_fold(&doc.value, |v, k| v.get(*k))
        .unwrap_or(&Value::Null);
    // `~/.claude.json` need not hold servers at all.
    if path.is_on_machine() && holder.get("mcpServers").is_none() {
        return out;
    }
    let Some(servers) = holder.get("mcpServers").and_then(Value::as_object) else {
        let what = if holder.get("mcpServers").is_some() {
            "its `mcpServers` is not an object"
        } else {
            "it has no `mcpServers` object"
        };
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpInvalidEntry,
                format!("`{path}` is not usable: {what}; Claude Code finds no servers in it."),
            )
            .at(at(&["mcpServers"])),
        );
        return out;
    };
    for (name, entry) in servers {
        let src = at(&["mcpServers", name]);
        let field = |f: &str| at(&["mcpServers", name, f]);
        let mut server =
            McpServer::new(String::new(), name, src.clone(), Applicability::Conditional);
        let Some(obj) = entry.as_object() else {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpInvalidEntry,
                    format!("The `{path}` entry `{name}` is not an object; Claude Code cannot start it."),
                )
                .at(src),
            );
            continue;
        };
        let mut secret_found = false;
        for f in ["command", "url", "type"] {
            if obj.get(f).is_some_and(|v| !v.is_string()) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("`{f}` of MCP server `{name}` is not a string; Claude Code skips this entry, so it is not listed."),
                    )
                    .at(field(f)),
                );
            }
        }
        if let Some(c) = obj.get("command").and_then(Value::as_str) {
            secret_found |= server.set_command(c);
        }
        if let Some(a) = obj.get("args") {
            match a.as_array().map(|v| {
                v.iter()
                    .map(|x| x.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
            }) {
                Some(Some(args)) => secret_found |= server.set_args(&args),
                _ => cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("`args` of MCP server `{name}` is not an array of strings."),
                    )
                    .at(field("args")),
                ),
            }
        }
        if let Some(u) = obj.get("url").and_then(Value::as_str) {
            secret_found |= server.set_url(u);
        }
        for (f, out) in [("env", &mut server.env), ("headers", &mut server.headers)] {
            match obj.get(f) {
                None => {}
                Some(Value::Object(m)) => {
                    for (k, v) in m {
                        let raw = match v {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        let (value, secret) = classify_value(k, &raw);
                        secret_found |= secret;
                        out.push(NamedValue {
                            name: k.clone(),
                            value,
                        });
                    }
                }
                Some(_) => cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("`{f}` of MCP server `{name}` is not an object."),
                    )
                    .at(field(f)),
                ),
            }
        }
        server.unknown_fields = obj
            .keys()
            .filter(|k| !KNOWN_FIELDS.contains(&k.as_str()))
            .cloned()
            .collect();
        let declared = obj.get("type").and_then(Value::as_str).map(str::to_string);
        server.declared_type = declared.clone();
        // A field of the wrong type was reported above.
        let mistyped = ["command", "url", "type"]
            .iter()
            .any(|f| obj.get(*f).is_some_and(|v| !v.is_string()));
        // An entry with a `url` but no `type` is skipped alone, before the
        // files are merged: it neither starts nor replaces a farther
        // definition (fidelity C24; seen with 2.1.197 and 2.1.332, fixture
        // `c24_mcp_url_without_type`; 2.1.88 rejected the whole file, which
        // predates every profile).
        let mut skipped = false;
        server.transport = match declared.as_deref() {
            None if obj.contains_key("type") => Transport::Unknown,
            None if server.command.is_some() => Transport::Stdio,
            None if server.url.is_some() => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!(
                            "MCP server `{name}` has a `url` but no `type`; Claude Code skips this entry (\"has a url \
                             but no type\"; 2.1.88 rejected the whole file), so it is not listed. Add \
                             `\"type\": \"http\"`."
                        ),
                    )
                    .at(src.clone()),
                );
                skipped = true;
                Transport::Unknown
            }
            None if mistyped => Transport::Unknown,
            None => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("MCP server `{name}` has neither `command` nor `url`; Claude Code skips this entry, so it is not listed."),
                    )
                    .at(src.clone()),
                );
                skipped = true;
                Transport::Unknown
            }
            Some("stdio") if server.command.is_none() && !mistyped => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("MCP server `{name}` is of type `stdio` but has no `command`; Claude Code skips this entry, so it is not listed."),
                    )
                    .at(src.clone()),
                );
                skipped = true;
                Transport::Stdio
            }
            Some("stdio") => Transport::Stdio,
            Some("http") | Some("streamable-http") => Transport::Http,
            Some(t @ ("sse" | "ws" | "websocket")) => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpTransportUnsupported,
                        format!(
                            "MCP server `{name}` uses the `{t}` transport{}; it is not modelled by PlaybookDiff, so its \
                             transport is `unknown`.",
                            if t == "sse" { " (deprecated by Claude Code in favour of http)" } else { "" }
                        ),
                    )
                    .at(src.clone()),
                );
                Transport::Unknown
            }
            Some(other) => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::McpInvalidEntry,
                        format!("MCP server `{name}` has the unknown type `{other}`; Claude Code cannot start it."),
                    )
                    .at(src.clone()),
                );
                Transport::Unknown
            }
        };
        if secret_found {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpLiteralSecret,
                    format!(
                        "MCP server `{name}` has a literal secret-looking value {} `{path}` (redacted \
                         here); use a `${{{}}}` placeholder and keep the value in the environment.",
                        if path.is_on_machine() { "written in" } else { "committed in" },
                        playbookdiff_model::redact::suggested_variable(name, "")
                    ),
                )
                .at(src.clone())
                .about(name.as_str()),
            );
        }
        // An entry its schema rejects (a field of the wrong type, a stdio
        // entry without a command) is skipped alone, as the entry with a
        // `url` but no `type`: it is not in the `init` line's servers
        // (seen with 2.1.332 on random repositories, `scripts/oracle/fuzz.py`,
        // case `fuzz.claude-code.10`).
        if !skipped && !mistyped {
            out.push(server);
        }
    }
    out
}

/// The `.mcp.json` files Claude Code reads from this launch directory: in
/// the launch directory and every ancestor up to the repository root, root
/// first (fidelity C3; shipped and older source, anthropics/claude-code#42465; seen
/// with 2.1.197 and 2.1.332). Files above the repository root are read too:
/// with `--outside-root` they come first (`../.mcp.json`), furthest first;
/// without, the `outside-root-unseen` diagnostic and an assumption say
/// they cannot be seen (see `Compiler::new`).
fn chain(cx: &Compiler<'_, '_>) -> Vec<RepoPath> {
    let mut dirs = cx.above_root_dirs();
    dirs.extend(cx.context.cwd.ancestors_root_first());
    dirs.into_iter()
        .filter(crate::outside_dot_claude)
        .filter_map(|d| d.join(crate::MCP_JSON.relative()))
        .filter(|p| cx.kind_at(p).is_some())
        .collect()
}

/// Compiles the project `.mcp.json` servers of the launch directory and
/// its ancestors, merged, each approved, disabled or conditional as the
/// project settings say.
pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    report_off_chain(cx);
    let global = crate::user::global_config(cx);
    let merged = merge_chain(cx);
    let mut approvals = Approvals::of(settings);
    if let Some(g) = &global {
        approvals.add_project_entry(g);
    }
    let mut conditional = 0usize;
    let mut trust_assumed = false;
    for mut server in merged {
        server.id = cx.unique_id(format!("claude-code:mcp:{}", server.name));
        if !approve(cx, &mut server, &approvals, &mut trust_assumed) {
            conditional += 1;
        }
        if let Some(local) = settings.unread_local.first() {
            server.reason.push_str(&format!(
                "; `{local}` is not read in repo mode and may approve or disable it"
            ));
        }
        cx.out.mcp_servers.push(server);
    }
    if let Some(g) = &global {
        user_and_local_servers(cx, g);
    }
    closing_notes(cx, trust_assumed, conditional);
}

/// The servers of `~/.claude.json` (local mode): the user's (`mcpServers`,
/// in every project) and this project's (`projects["<dir>"].mcpServers`,
/// local scope). Precedence, highest first: local, project (`.mcp.json`),
/// user (MCP documentation, "Scope hierarchy and precedence"; harness
/// facts A12); a server of the same name in a lower layer is kept,
/// shadowed, with the layer that wins. A `.mcp.json` server disabled by
/// an approval setting takes no name: only approved project servers are
/// merged. Neither needs an approval.
fn user_and_local_servers(cx: &mut Compiler<'_, '_>, g: &crate::user::GlobalConfig) {
    let project: Vec<&str> = g.project_prefix();
    let local = servers_in(cx, &g.path, &g.doc, &g.source, &project);
    let user = servers_in(cx, &g.path, &g.doc, &g.source, &[]);
    for mut server in local {
        server.id = cx.unique_id(format!("claude-code:mcp:{}", server.name));
        server.applicability = Applicability::Effective;
        server.source.scope = SourceScope::Local;
        server.reason = format!(
            "configured for this project in `{}` (local scope), which takes precedence over `.mcp.json` and the \
             user's servers",
            g.path
        );
        for other in cx
            .out
            .mcp_servers
            .iter_mut()
            .filter(|o| o.name == server.name)
        {
            shadow(other, &server.source);
        }
        cx.out.mcp_servers.push(server);
    }
    for mut server in user {
        server.id = cx.unique_id(format!("claude-code:mcp:{}", server.name));
        server.applicability = Applicability::Effective;
        server.reason = format!(
            "the user's server in `{}`, started in every project",
            g.path
        );
        let winner = cx
            .out
            .mcp_servers
            .iter()
            .find(|o| {
                o.name == server.name
                    && !matches!(
                        o.applicability,
                        Applicability::Shadowed | Applicability::Excluded
                    )
            })
            .map(|o| o.source.clone());
        if let Some(w) = winner {
            shadow(&mut server, &w);
        }
        cx.out.mcp_servers.push(server);
    }
}

/// Marks `server` shadowed by the server of the same name at `winner`,
/// keeping what it was.
fn shadow(server: &mut McpServer, winner: &SourceRef) {
    server.reason = format!(
        "{}; shadowed by the server of the same name in `{}` ({} scope), which takes precedence",
        server.reason,
        winner.path,
        winner.scope.as_str()
    );
    server.applicability = Applicability::Shadowed;
}

/// Reports the `.mcp.json` files below cwd or on the way to the target:
/// Claude Code does not read them.
fn report_off_chain(cx: &mut Compiler<'_, '_>) {
    for dir in cx.off_chain_owners(crate::MCP_JSON.relative()) {
        let Some(other) = dir.join(crate::MCP_JSON.relative()) else {
            continue;
        };
        if cx.repo.kind(&other).is_some() {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::McpJsonNotAtRoot,
                    format!(
                        "`{other}` is neither in the launch directory nor in one of its ancestors; Claude Code reads \
                         `.mcp.json` only from the launch directory up, so not this one."
                    ),
                )
                .at(SourceRef::project(other.clone(), SourceFormat::Json)),
            );
        }
    }
}

/// The servers of every `.mcp.json` from the root to cwd, merged: root
/// first; a closer file replaces a same-named server whole (reported),
/// and the merged map keeps the position of a name's first appearance
/// (the order of a JavaScript object spread).
fn merge_chain(cx: &mut Compiler<'_, '_>) -> Vec<McpServer> {
    // `slot_of` maps a name to its place in `merged`, so each server costs
    // one look-up rather than a scan of every server merged so far.
    let mut merged: Vec<McpServer> = Vec::new();
    let mut slot_of: HashMap<String, usize> = HashMap::new();
    for path in chain(cx) {
        for server in servers_of(cx, &path) {
            match slot_of.get(&server.name).map(|&i| &mut merged[i]) {
                Some(slot) => {
                    let mut server = server;
                    let replaced = std::mem::take(&mut slot.other_sources);
                    server.other_sources = replaced;
                    server.other_sources.push(slot.source.clone());
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::McpServerOverridden,
                            format!(
                                "MCP server `{}` in `{}` replaces the one of the same name in `{}` (the file closer \
                                 to the launch directory wins, whole, not field by field).",
                                server.name, server.source.path, slot.source.path
                            ),
                        )
                        .at(server.source.clone()),
                    );
                    *slot = server;
                }
                None => {
                    slot_of.insert(server.name.clone(), merged.len());
                    merged.push(server);
                }
            }
        }
    }
    merged
}

/// The approvals of `.mcp.json` servers in the project settings: each
/// name's first entry in `enabledMcpjsonServers` and
/// `disabledMcpjsonServers`, and the last `enableAllProjectMcpServers =
/// true`.
struct Approvals {
    enabled: HashMap<String, SourceRef>,
    disabled: HashMap<String, SourceRef>,
    enable_all: Option<SourceRef>,
}

impl Approvals {
    /// Adds the approvals this project's entry of `~/.claude.json` holds
    /// (`enabledMcpjsonServers`, `disabledMcpjsonServers`,
    /// `enableAllProjectMcpServers`, which the approval dialog of older
    /// releases wrote there), after those of the settings.
    fn add_project_entry(&mut self, g: &crate::user::GlobalConfig) {
        let prefix = g.project_prefix();
        for (key, map) in [
            ("enabledMcpjsonServers", &mut self.enabled),
            ("disabledMcpjsonServers", &mut self.disabled),
        ] {
            for (i, name) in g.project_strings(key).into_iter().enumerate() {
                let index = i.to_string();
                let p: Vec<&str> = prefix
                    .iter()
                    .copied()
                    .chain([key, index.as_str()])
                    .collect();
                map.entry(name).or_insert_with(|| g.at(&p));
            }
        }
        let key = "enableAllProjectMcpServers";
        if self.enable_all.is_none() && g.project_value(key).and_then(Value::as_bool) == Some(true)
        {
            let p: Vec<&str> = prefix.iter().copied().chain([key]).collect();
            self.enable_all = Some(g.at(&p));
        }
    }

    fn of(settings: &Settings) -> Self {
        // Each name's first entry in the list (the one a scan would find).
        let first = |list: Vec<(String, SourceRef)>| {
            let mut m: HashMap<String, SourceRef> = HashMap::new();
            for (n, s) in list {
                m.entry(n).or_insert(s);
            }
            m
        };
        Approvals {
            enabled: first(settings.string_list("enabledMcpjsonServers")),
            disabled: first(settings.string_list("disabledMcpjsonServers")),
            enable_all: settings
                .values("enableAllProjectMcpServers")
                .into_iter()
                .rev()
                .find_map(|(v, l)| {
                    (v.as_bool() == Some(true)).then(|| l.at(&["enableAllProjectMcpServers"]))
                }),
        }
    }
}

/// Sets `server`'s applicability and reason from the approvals: disabled
/// (reported), approved by name or by `enableAllProjectMcpServers`, else
/// conditional on an interactive approval. Returns false for the last.
fn approve(
    cx: &mut Compiler<'_, '_>,
    server: &mut McpServer,
    approvals: &Approvals,
    trust_assumed: &mut bool,
) -> bool {
    let name = server.name.clone();
    let name = name.as_str();
    let file = server.source.path.clone();
    if let Some(s) = approvals.disabled.get(name) {
        server.applicability = Applicability::Excluded;
        server.reason = format!(
            "configured in `{file}` and disabled by disabledMcpjsonServers in `{}`",
            s.path
        );
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::McpServerDisabled,
                format!(
                    "`{}` disables the `.mcp.json` server `{name}` (disabledMcpjsonServers beats any approval), so \
                     Claude Code does not start it.",
                    s.path
                ),
            )
            .at(s.clone()),
        );
    } else if let Some(s) = approvals.enabled.get(name) {
        server.applicability = Applicability::Effective;
        server.reason = format!(
            "configured in `{file}` and approved by enabledMcpjsonServers in `{}`{}",
            s.path,
            trust_note(s, trust_assumed)
        );
    } else if let Some(s) = &approvals.enable_all {
        server.applicability = Applicability::Effective;
        server.reason = format!(
            "configured in `{file}` and approved by enableAllProjectMcpServers in `{}`{}",
            s.path,
            trust_note(s, trust_assumed)
        );
    } else {
        server.reason = format!(
            "configured in `{file}`; an interactive session asks for approval first (-p and SDK sessions load it \
             without asking)"
        );
        return false;
    }
    true
}

/// The notes after the servers: the trust an approval assumes, how many
/// servers wait for an approval, and what is never known of a server.
fn closing_notes(cx: &mut Compiler<'_, '_>, trust_assumed: bool, conditional: usize) {
    if trust_assumed {
        cx.out.assumptions.push(
            "The workspace is trusted: Claude Code honours MCP approvals in the shared .claude/settings.json only in \
             a trusted folder."
                .to_string(),
        );
    }
    if conditional > 0 {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpApprovalUnknown,
            format!(
                "{} conditional: approval is stored per user, and \
                 .claude/settings.local.json or ~/.claude.json may approve or disable them. Approve them for the team \
                 with `enabledMcpjsonServers` in .claude/settings.json.",
                if conditional == 1 { "1 project MCP server is".to_string() } else { format!("{conditional} project MCP servers are") }
            ),
        ));
    }
    if !cx.out.mcp_servers.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::McpRuntimeUnknown,
            "MCP servers are never contacted: authentication, connection, tools, resources, prompts and server \
             instructions are unknown, and local or user servers of the same name would take precedence.",
        ));
    }
}

/// The caveat on an approval from shared project settings: honoured only
/// once the workspace is trusted (harness facts A6). Records that the
/// analysis assumed trust.
fn trust_note(layer: &SourceRef, trust_assumed: &mut bool) -> &'static str {
    if layer.scope == SourceScope::Project {
        *trust_assumed = true;
        " (honoured in a trusted workspace)"
    } else {
        ""
    }
}

//! Subagents of the launch directory's `.gemini/agents`, as items; a
//! repository's extensions, which Gemini CLI ignores, reported.
//!
//! * Subagents: the regular files `.gemini/agents/*.md` of cwd whose name
//!   does not start with `_` (a symbolic link is not a regular file:
//!   `Dirent.isFile()`), each with front matter ([`crate::frontmatter`])
//!   that Gemini CLI's schema of a local agent accepts ([`LOCAL_FIELDS`];
//!   `loadAgentsFromDirectory` and `localAgentSchema` in
//!   `packages/core/src/agents/agentLoader.ts`, 0.34.0 and 0.61.0); a file
//!   it refuses is skipped with an error the headless run does not show.
//!   They load only in a trusted folder and once the user acknowledged
//!   each file (`~/.gemini/acknowledgments/agents.json`, keyed by the
//!   file's SHA-256), and in 0.34 only with `experimental.enableAgents`;
//!   otherwise they are skipped silently (seen with 0.61.0: listed in
//!   `<available_subagents>` only then). The acknowledgement is the user's
//!   state: such a subagent is `conditional`. Remote (A2A) agents, whose
//!   card Gemini CLI fetches over the network, are reported, not listed.
//! * Extensions come only from `~/.gemini/extensions/`; a repository's
//!   `.gemini/extensions` is ignored (seen with 0.61.0 and 0.34.0, case
//!   `oracle.local_gemini_extensions.home-gemini-extensions`: none of its
//!   commands, skills or MCP servers loads).

use crate::extensions::Extension;
use crate::settings::{Settings, Workspace};
use crate::{Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{self, quote};
use playbookdiff_model::{
    AgentMode, Applicability, Diagnostic, DiagnosticCode, LoadPhase, RepoPath, SourceFormat,
    SourceRef, Subagent,
};
use playbookdiff_source::markdown::parse_yaml_with;
use playbookdiff_source::{EntryKind, Machine};
use serde_json::{Map, Value};

/// Reports a repository's `.gemini/extensions`, which Gemini CLI ignores.
pub(crate) fn report(cx: &mut Cx<'_, '_>) {
    let Some(base) = cx.context.cwd.join(".gemini") else {
        return;
    };
    if let Some(ext) = base.child("extensions").filter(|p| cx.repo.is_dir(p)) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ItemNotModelled,
                format!("{} is ignored: Gemini CLI loads extensions only from the user's `~/.gemini/extensions/` (installed with `gemini extensions install`), never from a repository.", quote(&ext)),
            )
            .at(SourceRef::project(ext, SourceFormat::Json)),
        );
    }
}

/// The subagents of cwd's `.gemini/agents`, by file name: `excluded` where
/// the release needs `experimental.enableAgents` and the settings do not
/// set it, else `conditional` on the trust and acknowledgement the
/// analysis cannot see.
pub(crate) fn subagents(cx: &mut Cx<'_, '_>, profile: &Profile, ws: &Workspace) -> Vec<Subagent> {
    let Some(dir) = cx
        .context
        .cwd
        .join(".gemini/agents")
        .filter(|d| cx.repo.is_dir(d))
    else {
        return Vec::new();
    };
    let mut files: Vec<RepoPath> = cx
        .repo
        .list_dir(&dir)
        .iter()
        .filter(|e| e.kind == EntryKind::File)
        .filter(|e| e.name.ends_with(".md") && !e.name.starts_with('_'))
        .filter_map(|e| dir.child(&e.name))
        .collect();
    files.sort();
    let gate = if agents_enabled(profile, ws) {
        Gate::Acknowledgement
    } else {
        Gate::NeedsFlag
    };
    files
        .into_iter()
        .filter_map(|f| subagent(cx, &f, gate))
        .collect()
}

/// Whether the release loads subagents under the workspace's settings:
/// always, or with `experimental.enableAgents: true` where it needs that.
pub(crate) fn agents_enabled(profile: &Profile, ws: &Workspace) -> bool {
    !profile.agents_need_flag
        || ws
            .get(&["experimental", "enableAgents"])
            .and_then(Value::as_bool)
            == Some(true)
}

/// Whether the release loads the subagents of the user's and the
/// extensions' folders under the merged settings `all`: always, or with
/// `experimental.enableAgents: true` where it needs that.
fn agents_enabled_by(profile: &Profile, all: &Settings) -> bool {
    !profile.agents_need_flag
        || all
            .get(&["experimental", "enableAgents"])
            .and_then(Value::as_bool)
            == Some(true)
}

/// What keeps a subagent file from loading.
#[derive(Clone, Copy)]
enum Gate {
    /// The release needs `experimental.enableAgents`, which is not set.
    NeedsFlag,
    /// The folder's trust and the user's acknowledgement of the file.
    Acknowledgement,
    /// None: the user's own (`~/.gemini/agents`), with subagents enabled
    /// (`true`), or in a release that needs `experimental.enableAgents`,
    /// which the merged settings do not set (`false`).
    User(bool),
    /// None: an active extension's, with subagents enabled (`true`), or
    /// in a release that needs `experimental.enableAgents`, which the
    /// merged settings do not set (`false`).
    Extension(bool),
}

/// Adds to `out` the subagents of the `agents/` folder of each active
/// extension of `exts` on `machine` (local mode), as the launch
/// directory's are read (regular `*.md` files not starting with `_`, the
/// same schema), in the extension's layer (`extension:NAME`, scope
/// `plugin`). Gemini CLI registers them after the user's and the
/// project's (`AgentRegistry.loadAgents`, 0.34.0 and 0.61.0), with no
/// trust or acknowledgement, one replacing an earlier of its name
/// (`agents.set`), which is then shadowed; a release that needs
/// `experimental.enableAgents` loads none without it (the merged
/// settings'). Seen with both releases on case
/// `oracle.local_gemini_extensions.home-gemini-extensions` (0.61.0 lists
/// the extension's subagent, 0.34.0 none); the replacement is read in the
/// code (`registerLocalAgent`), not observed.
pub(crate) fn extension_subagents(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    (all, machine, exts): (&Settings, &Machine, &[Extension]),
    out: &mut Vec<Subagent>,
) {
    let enabled = agents_enabled_by(profile, all);
    for ext in exts.iter().filter(|e| e.active()) {
        for file in agent_files(machine, ext) {
            let Ok(text) = machine.read_text(&file, READ_LIMIT) else {
                continue;
            };
            let source = crate::user::machine_source(file.clone(), SourceFormat::Markdown)
                .in_plugin(&ext.key());
            let Some(mut agent) = parsed(cx, &file, &text.text, source, Gate::Extension(enabled))
            else {
                continue;
            };
            agent.plugin = Some(ext.key());
            shadow(out, &agent);
            out.push(agent);
        }
    }
}

/// Adds to `out` the subagents of the user's `~/.gemini/agents` on
/// `machine` (local mode), read as the launch directory's are (regular
/// `*.md` files not starting with `_`, the same schema), scope `user`.
/// Gemini CLI registers them after the project's, with no trust or
/// acknowledgement, one replacing a project subagent of its name, which
/// is then shadowed; a release that needs `experimental.enableAgents`
/// loads none without it (the merged settings'). Source:
/// `AgentRegistry.loadAgents` and `Storage.getUserAgentsDir` (the global
/// `.gemini` folder's `agents`) of 0.61.0's bundle. Seen on case
/// `oracle.local_gemini_extensions.home-gemini-user-agents`: 0.61.0
/// lists the user's `my-helper` and not `_hidden.md`'s; 0.34.0, whose
/// settings there do not set the flag, lists none. The replacement of a
/// project subagent is read in the code, not recorded.
pub(crate) fn user_subagents(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    (all, machine): (&Settings, &Machine),
    out: &mut Vec<Subagent>,
) {
    let enabled = agents_enabled_by(profile, all);
    let Some(dir) = RepoPath::on_machine("~", ".gemini/agents") else {
        return;
    };
    for file in md_files(machine, &dir) {
        let Ok(text) = machine.read_text(&file, READ_LIMIT) else {
            continue;
        };
        let non_utf8 =
            problems::utf8_problem(&file, SourceFormat::Markdown, &text, crate::NON_UTF8);
        cx.diags.extend(non_utf8);
        let source = crate::user::machine_source(file.clone(), SourceFormat::Markdown);
        if let Some(agent) = parsed(cx, &file, &text.text, source, Gate::User(enabled)) {
            shadow(out, &agent);
            out.push(agent);
        }
    }
}

/// The subagent files of `ext`'s `agents/` folder, by name.
fn agent_files(machine: &Machine, ext: &Extension) -> Vec<RepoPath> {
    let Some(dir) = ext.file("agents") else {
        return Vec::new();
    };
    md_files(machine, &dir)
}

/// The subagent files of the machine's folder `dir`: its regular `*.md`
/// files not starting with `_`, by name.
fn md_files(machine: &Machine, dir: &RepoPath) -> Vec<RepoPath> {
    let mut entries = machine.list_dir(dir).unwrap_or_default();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
        .iter()
        .filter(|e| e.kind == EntryKind::File)
        .filter(|e| e.name.ends_with(".md") && !e.name.starts_with('_'))
        .filter_map(|e| dir.child(&e.name))
        .collect()
}

/// Marks the loaded subagents of `out` that `agent`, registered after
/// them under the same name, replaces.
fn shadow(out: &mut [Subagent], agent: &Subagent) {
    if agent.applicability == Applicability::Excluded {
        return;
    }
    for a in out
        .iter_mut()
        .filter(|a| a.name == agent.name && a.applicability != Applicability::Excluded)
    {
        a.applicability = Applicability::Shadowed;
        a.reason = format!(
            "Replaced by the subagent of the same name in `{}`, which Gemini CLI registers later.",
            agent.source.path
        );
    }
}

/// The subagent of `file`; `None` when Gemini CLI refuses the file
/// (reported).
fn subagent(cx: &mut Cx<'_, '_>, file: &RepoPath, gate: Gate) -> Option<Subagent> {
    let text = match cx.repo.read_text(file, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            cx.diag(problems::read_error(
                file,
                &e,
                REFUSED,
                SourceFormat::Markdown,
            ));
            return None;
        }
    };
    let source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    parsed(cx, file, &text.text, source, gate)
}

/// The subagent of `file`, whose text is `text` and whose source (without
/// lines) is `source`; `None` when Gemini CLI refuses it (reported).
fn parsed(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    text: &str,
    mut source: SourceRef,
    gate: Gate,
) -> Option<Subagent> {
    let front = crate::frontmatter::split(text);
    if let Some((_, end_line)) = front {
        source = source.with_lines(1, end_line);
    }
    let meta = match front.map(|(yaml, _)| parse_yaml_with(yaml, true)) {
        None => {
            return refused(
                cx,
                file,
                source,
                "it does not start with `---` front matter",
            )
        }
        Some(Err(e)) => {
            cx.diag(problems::invalid_syntax(
                file,
                "YAML",
                &e.shifted(1),
                REFUSED,
                SourceFormat::Markdown,
            ));
            return None;
        }
        Some(Ok(Value::Object(m))) if is_remote(&m) => return remote(cx, file, source),
        Some(Ok(Value::Object(m))) => m,
        Some(Ok(Value::Array(_))) => return remote(cx, file, source),
        Some(Ok(_)) => return refused(cx, file, source, "its front matter is not a mapping"),
    };
    if let Some(why) = local_agent_problem(&meta) {
        return refused(cx, file, source, &why);
    }
    Some(local_subagent(file, source, &meta, gate))
}

/// What Gemini CLI does with a file it refuses, for the diagnostics.
const REFUSED: &str = "Gemini CLI does not load this subagent";

/// Reports `file` as a subagent Gemini CLI refuses because of `why`.
fn refused(cx: &mut Cx<'_, '_>, file: &RepoPath, source: SourceRef, why: &str) -> Option<Subagent> {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::SubagentInvalid,
            format!(
                "{}: {why}; {REFUSED} (it logs the error only in debug mode).",
                quote(file)
            ),
        )
        .at(source),
    );
    None
}

/// Whether front matter `m` is meant for a remote agent: `kind: remote`,
/// or an agent card (`agent_card_url`, `agent_card_json`).
fn is_remote(m: &Map<String, Value>) -> bool {
    m.get("kind").and_then(Value::as_str) == Some("remote")
        || m.contains_key("agent_card_url")
        || m.contains_key("agent_card_json")
}

/// Reports `file` as remote agents (one mapping, or a list of them),
/// which the analysis does not model.
fn remote(cx: &mut Cx<'_, '_>, file: &RepoPath, source: SourceRef) -> Option<Subagent> {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ItemNotModelled,
            format!("{} defines remote (A2A) agents: Gemini CLI fetches their agent card over the network, which the analysis never does, so they are not listed.", quote(file)),
        )
        .at(source),
    );
    None
}

/// What a field of a local subagent's front matter must hold.
#[derive(Clone, Copy)]
enum Need {
    /// The text `local`.
    Local,
    /// A name matching `^[a-z0-9-_]+$` ("Name must be a valid slug").
    Slug,
    /// A non-empty text.
    NonEmptyText,
    /// A text.
    Text,
    /// A list of texts (tool names; which names Gemini CLI knows is not
    /// checked).
    TextList,
    /// A mapping (MCP servers by name; their entries are not checked).
    Mapping,
    /// A number.
    Number,
    /// A whole number above zero.
    PositiveInteger,
}

impl Need {
    /// Whether `v` satisfies this need.
    fn holds(self, v: &Value) -> bool {
        match self {
            Need::Local => v.as_str() == Some("local"),
            Need::Slug => v.as_str().is_some_and(|s| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_'))
            }),
            Need::NonEmptyText => v.as_str().is_some_and(|s| !s.is_empty()),
            Need::Text => v.is_string(),
            Need::TextList => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
            Need::Mapping => v.is_object(),
            Need::Number => v.is_number(),
            Need::PositiveInteger => v.as_f64().is_some_and(|n| n > 0.0 && n.fract() == 0.0),
        }
    }

    /// The need, as a diagnostic says it.
    fn text(self) -> &'static str {
        match self {
            Need::Local => "the text `local`",
            Need::Slug => "a name of lower-case letters, digits, `-` and `_` only",
            Need::NonEmptyText => "a non-empty text",
            Need::Text => "a text",
            Need::TextList => "a list of texts",
            Need::Mapping => "a mapping",
            Need::Number => "a number",
            Need::PositiveInteger => "a whole number above zero",
        }
    }
}

/// The fields of a local subagent's front matter, whether each is
/// required, and what it must hold: Gemini CLI's `localAgentSchema`
/// (`packages/core/src/agents/agentLoader.ts`), a strict schema, so any
/// other key refuses the file; a key given `null` refuses it too. 0.61.0's
/// schema; 0.34.0's lacks `mcp_servers` (not modelled: 0.34 refuses a file
/// with that key, the adapter lists it).
const LOCAL_FIELDS: &[(&str, bool, Need)] = &[
    ("kind", false, Need::Local),
    ("name", true, Need::Slug),
    ("description", true, Need::NonEmptyText),
    ("display_name", false, Need::Text),
    ("tools", false, Need::TextList),
    ("mcp_servers", false, Need::Mapping),
    ("model", false, Need::Text),
    ("temperature", false, Need::Number),
    ("max_turns", false, Need::PositiveInteger),
    ("timeout_mins", false, Need::PositiveInteger),
];

/// Why Gemini CLI's schema of a local subagent refuses front matter `m`,
/// one clause; `None` when it accepts it.
fn local_agent_problem(m: &Map<String, Value>) -> Option<String> {
    if let Some(k) = m
        .keys()
        .find(|k| !LOCAL_FIELDS.iter().any(|(f, ..)| f == k))
    {
        return Some(format!(
            "its front matter holds `{k}`, a key a subagent may not have"
        ));
    }
    LOCAL_FIELDS
        .iter()
        .find_map(|&(key, required, need)| match m.get(key) {
            None if required => Some(format!("its front matter has no `{key}`")),
            Some(v) if !need.holds(v) => Some(format!("its `{key}` is not {}", need.text())),
            _ => None,
        })
}

/// The local subagent of `file`, from front matter `meta` that Gemini
/// CLI's schema accepts.
fn local_subagent(
    file: &RepoPath,
    source: SourceRef,
    meta: &Map<String, Value>,
    gate: Gate,
) -> Subagent {
    let field = |k: &str| meta.get(k).and_then(Value::as_str).map(str::to_string);
    let (applicability, why) = match gate {
        Gate::NeedsFlag => (Applicability::Excluded, "Found in the launch directory's `.gemini/agents`: this release loads subagents only with `experimental.enableAgents: true`, which the launch directory's settings do not set"),
        Gate::Acknowledgement => (Applicability::Conditional, "Found in the launch directory's `.gemini/agents`: Gemini CLI loads it only in a trusted folder once the user acknowledged this file's exact text (`~/.gemini/acknowledgments/agents.json`), which the analysis cannot know; it then lists it in `<available_subagents>`, else skips it silently"),
        Gate::User(false) => (Applicability::Excluded, "In the user's `~/.gemini/agents`: this release loads subagents only with `experimental.enableAgents: true`, which the settings do not set"),
        Gate::User(true) => (Applicability::Effective, "In the user's `~/.gemini/agents`: Gemini CLI lists it in `<available_subagents>` whatever the folder's trust, with no acknowledgement"),
        Gate::Extension(false) => (Applicability::Excluded, "Given by an extension of the user's: this release loads subagents only with `experimental.enableAgents: true`, which the settings do not set"),
        Gate::Extension(true) => (Applicability::Effective, "Given by an extension of the user's: Gemini CLI lists it in `<available_subagents>` whatever the folder's trust, with no acknowledgement"),
    };
    let tools = meta.get("tools").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    });
    Subagent {
        id: format!("gemini:subagent:{file}"),
        name: field("name").unwrap_or_default(),
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason: format!("{why}."),
        mode: AgentMode::Subagent,
        description: field("description"),
        tools,
        disallowed_tools: Vec::new(),
        model: field("model"),
        listed_by: None,
        plugin: None,
    }
}

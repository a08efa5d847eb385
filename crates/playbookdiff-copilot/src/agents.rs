//! Custom agents: the `*.md` files of `.github/agents` and of Claude Code's
//! `.claude/agents`, in the launch directory and each directory above it
//! up to the git root.
//!
//! Read in Copilot CLI 1.0.24's `app.js` (the agent loader): the
//! directories are searched from the launch directory up to the git root
//! ("project", then "inherited"), `.github` before `.claude`; a file's id
//! is its name without `.agent.md` or `.md` (`.agent.md` wins over `.md`
//! with one stem), and of two agents with one id the first found is kept;
//! the front matter needs a `description` (else the file is skipped with a
//! warning); `name` (else the id) and `description` are listed in the
//! `task` tool under "User-provided custom agents", unless
//! `disable-model-invocation: true` or `infer: false` keeps it for the
//! user alone; `tools` is a list or a comma-separated string, `*` when
//! absent. Seen with 1.0.102 and 1.0.24 (gemini-copilot reference): they
//! load regardless of folder trust.
//!
//! In local mode the user's folders come first, each before the project's
//! of its kind (1.0.24 `app.js`, `K3t`: `~/.copilot/agents` before the
//! `.github/agents` folders, `~/.claude/agents` before the `.claude/agents`
//! ones), so a user agent keeps its id against a project agent. Seen with
//! 1.0.24 and 1.0.102 (case
//! `oracle.local_user_layers.home-copilot-mcp-agents`): the user's
//! `~/.copilot/agents/helper.md` listed in the `task` tool. The agents of
//! the installed plugins come last, each named `PLUGIN:ID`
//! ([`plugin_agents`]).
//!
//! Before 0.0.399 Claude Code's folders are not read
//! ([`Profile::claude_agents`]).

use crate::{Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{self, NonUtf8};
use playbookdiff_adapter::scope::place;
use playbookdiff_model::{
    AgentMode, Applicability, Diagnostic, DiagnosticCode, LoadPhase, RepoPath, SourceFormat,
    SourceRef, SourceScope, Subagent,
};
use playbookdiff_source::{EntryKind, Machine, TextFile};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The agent folders of a directory, in the order Copilot CLI reads them.
const FOLDERS: &[&str] = &[".github/agents", ".claude/agents"];

/// The user's folder read before each of [`FOLDERS`], in the same order.
const USER_FOLDERS: &[&str] = &[".copilot/agents", ".claude/agents"];

/// The pairs of [`FOLDERS`] and [`USER_FOLDERS`] the release of `profile`
/// reads: Claude Code's only with [`Profile::claude_agents`].
fn folders(profile: &Profile) -> impl Iterator<Item = (&'static str, &'static str)> {
    let read = if profile.claude_agents {
        FOLDERS.len()
    } else {
        1
    };
    FOLDERS
        .iter()
        .copied()
        .zip(USER_FOLDERS.iter().copied())
        .take(read)
}

/// The tool whose description lists custom agents to the model.
const LISTED_BY: &str = "task";

/// The custom agents of the launch directory and the directories above
/// it up to the git root, in discovery order; a later one with the id of
/// an earlier one is `shadowed`.
///
/// `machine` is the user's machine in local mode (`None` in repo mode).
/// A release whose `task` tool lists no custom agent
/// ([`Profile::custom_agents_listed`]) gives each agent that would be
/// listed as excluded.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: Option<&Machine>,
) -> Vec<Subagent> {
    let mut dirs = crate::chain(cx);
    dirs.reverse();
    let mut found: Vec<(String, Subagent)> = Vec::new();
    for (folder, user_folder) in folders(profile) {
        if let Some(m) = machine {
            found.extend(user_agents(cx, profile, m, user_folder));
        }
        for dir in &dirs {
            for (id, file) in agent_files(cx, dir, folder) {
                let Ok(text) = read(cx, &file) else { continue };
                let whence = format!("Found in {}", place(dir));
                if let Some(a) = load(cx, (&file, &text), &id, whence) {
                    found.push((id, a));
                }
            }
        }
    }
    if let Some(m) = machine {
        found.extend(plugin_agents(cx, profile, m));
    }
    let mut out = first_id_wins(found);
    if !profile.custom_agents_listed {
        out.iter_mut()
            .filter(|a| a.listed_by.is_some() && a.applicability == Applicability::Effective)
            .for_each(unlisted);
    }
    out
}

/// Marks `a` as not listed: the release's `task` tool names no custom
/// agent (0.0.368 to 0.0.372, and 1.0.11).
fn unlisted(a: &mut Subagent) {
    a.applicability = Applicability::Excluded;
    a.listed_by = None;
    a.reason.push_str(" This release's `task` tool lists no custom agent (0.0.368 to 0.0.372, and 1.0.11 alone: 1.0.10 and 1.0.12 list them), so the model is not told of it.");
}

/// The agents in discovery order; a later one with the id of an earlier
/// one is `shadowed`.
fn first_id_wins(found: Vec<(String, Subagent)>) -> Vec<Subagent> {
    let mut ids: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (id, mut a) in found {
        if ids.contains(&id) {
            a.applicability = Applicability::Shadowed;
            a.reason.push_str(&format!(
                " An agent with the id `{id}` is found first, so Copilot CLI keeps that one."
            ));
        } else {
            ids.push(id);
        }
        out.push(a);
    }
    out
}

/// The agents of the user's `folder` (relative to the home) on
/// `machine`, by id, each with its id.
fn user_agents(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: &Machine,
    folder: &str,
) -> Vec<(String, Subagent)> {
    let Some(base) = RepoPath::on_machine("~", folder) else {
        return Vec::new();
    };
    let names = machine.list_dir(&base).unwrap_or_default();
    let files = by_id(
        names
            .iter()
            .filter(|e| e.kind == EntryKind::File)
            .map(|e| e.name.as_str()),
    );
    let mut out = Vec::new();
    for (id, name) in files {
        let Some(file) = base.join(&name) else {
            continue;
        };
        let how = problems::UserMarkdown {
            effect: "Copilot CLI skips this custom agent",
            non_utf8: profile.user_agents_non_utf8(),
        };
        let Some(text) =
            problems::read_user_markdown(machine, &file, READ_LIMIT, &how, &mut cx.diags)
        else {
            continue;
        };
        let whence = format!("Found in the user's `~/{folder}`");
        if let Some(a) = load(cx, (&file, &text), &id, whence) {
            out.push((id, a));
        }
    }
    out
}

/// The agents of each enabled installed plugin on `machine`
/// ([`crate::plugins`]): the files of its `agents` folder, each with the
/// id `PLUGIN:ID` by which the `task` tool lists it (its front matter's
/// `name` is not used; 1.0.24 `app.js`, the plugin agent loader: `id:
/// \`${pluginName}:${stem}\``, listed by id; seen with 1.0.24 and 1.0.102,
/// case `oracle.local_user_layers.home-copilot-plugins`: `kit:kit-helper`).
fn plugin_agents(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: &Machine,
) -> Vec<(String, Subagent)> {
    let mut out = Vec::new();
    let repository = crate::plugins::repository_map(cx, profile);
    for plugin in crate::plugins::installed(machine, profile, repository.as_ref(), &mut Vec::new())
    {
        for (stem, file) in plugin_files(machine, &plugin.root) {
            let how = problems::UserMarkdown {
                effect: "Copilot CLI skips this custom agent",
                non_utf8: NonUtf8::Unobserved,
            };
            let Some(text) =
                problems::read_user_markdown(machine, &file, READ_LIMIT, &how, &mut cx.diags)
            else {
                continue;
            };
            let id = format!("{}:{stem}", plugin.name);
            let whence = format!("Found in the installed plugin `{}`", plugin.key);
            if let Some(mut a) = load(cx, (&file, &text), &id, whence) {
                a.name = id.clone();
                a.source = a.source.in_plugin(&plugin.key);
                a.plugin = Some(plugin.key.clone());
                out.push((id, a));
            }
        }
    }
    out
}

/// The agent files of the plugin whose folder is `root`, with their ids,
/// path by path of its `agents` paths ([`crate::plugins::paths`]): a
/// file is one agent, a folder's `*.md` files are agents as in
/// [`by_id`] (1.0.24 `app.js`, the plugin agent loader).
fn plugin_files(machine: &Machine, root: &RepoPath) -> Vec<(String, RepoPath)> {
    let mut out = Vec::new();
    for path in crate::plugins::paths(machine, root, "agents") {
        let is_file = machine.stat(&path).is_ok_and(|s| s.kind == EntryKind::File);
        if is_file {
            let name = path.file_name().unwrap_or_default();
            if let Some(stem) = name.strip_suffix(".md") {
                let id = stem.strip_suffix(".agent").unwrap_or(stem).to_string();
                out.push((id, path.clone()));
            }
            continue;
        }
        let files = crate::plugins::markdown_in(machine, &path);
        let names = files.iter().filter_map(|f| f.file_name());
        for (stem, name) in by_id(names) {
            out.extend(path.child(&name).map(|f| (stem, f)));
        }
    }
    out
}

/// The agent file names of one folder by id: of a `NAME.agent.md` and a
/// `NAME.md`, the first.
fn by_id<'n>(names: impl Iterator<Item = &'n str>) -> Vec<(String, String)> {
    let mut by_id: std::collections::BTreeMap<String, (bool, String)> = Default::default();
    for name in names {
        let Some(stem) = name.strip_suffix(".md") else {
            continue;
        };
        let (id, agent_md) = match stem.strip_suffix(".agent") {
            Some(id) => (id.to_string(), true),
            None => (stem.to_string(), false),
        };
        if by_id.get(&id).is_none_or(|(was, _)| agent_md && !was) {
            by_id.insert(id, (agent_md, name.to_string()));
        }
    }
    by_id.into_iter().map(|(id, (_, n))| (id, n)).collect()
}

/// The agent files of `dir`'s `folder` with their ids, by id: of a
/// `NAME.agent.md` and a `NAME.md`, the first.
fn agent_files(cx: &Cx<'_, '_>, dir: &RepoPath, folder: &str) -> Vec<(String, RepoPath)> {
    let Some(base) = dir.join(folder).filter(|b| cx.repo.is_dir(b)) else {
        return Vec::new();
    };
    let entries = cx.repo.list_dir(&base);
    let files: Vec<(String, RepoPath)> = entries
        .iter()
        .filter_map(|e| Some((e.name.clone(), base.child(&e.name)?)))
        .filter(|(_, f)| cx.repo.is_file(f))
        .collect();
    by_id(files.iter().map(|(n, _)| n.as_str()))
        .into_iter()
        .filter_map(|(id, name)| Some((id, base.child(&name)?)))
        .collect()
}

/// The text of the agent file `file`; a failed read is reported.
fn read(cx: &mut Cx<'_, '_>, file: &RepoPath) -> Result<Arc<TextFile>, ()> {
    cx.repo.read_text(file, READ_LIMIT).map_err(|e| {
        let effect = "Copilot CLI skips this custom agent";
        cx.diag(problems::read_error(
            file,
            &e,
            effect,
            SourceFormat::Markdown,
        ));
    })
}

/// The custom agent of `file` holding `text` (id `id`; `whence` starts
/// its reason: where it was found), or `None` when Copilot CLI skips it
/// (reported).
fn load(
    cx: &mut Cx<'_, '_>,
    (file, text): (&RepoPath, &TextFile),
    id: &str,
    whence: String,
) -> Option<Subagent> {
    let fm = text.front_matter();
    let mut source = SourceRef {
        scope: SourceScope::of_path(file),
        ..SourceRef::project(file.clone(), SourceFormat::Markdown)
    };
    let meta = match fm {
        Some(f) => {
            source = source.with_lines(f.start_line, f.end_line);
            match &f.value {
                Ok(Value::Object(m)) => m.clone(),
                Ok(_) => Map::new(),
                Err(e) => {
                    let effect = "Copilot CLI skips this custom agent";
                    cx.diag(problems::invalid_syntax(
                        file,
                        "YAML",
                        e,
                        effect,
                        SourceFormat::Markdown,
                    ));
                    return None;
                }
            }
        }
        None => Map::new(),
    };
    let field = |k: &str| meta.get(k).and_then(Value::as_str).map(str::to_string);
    let Some(description) = field("description") else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SubagentInvalid,
                format!("{} has no string `description` in its front matter; Copilot CLI skips it (\"custom agent markdown frontmatter is malformed\"), so no custom agent comes from this file.", problems::quote(file)),
            )
            .at(source),
        );
        return None;
    };
    let user_only = meta.get("disable-model-invocation") == Some(&Value::Bool(true))
        || meta.get("infer") == Some(&Value::Bool(false));
    let mode = if user_only {
        AgentMode::Primary
    } else {
        AgentMode::Subagent
    };
    let listed = if user_only {
        "the user can select it, but `disable-model-invocation` or `infer: false` keeps it out of the `task` tool"
    } else {
        "Copilot CLI lists its name and description in the `task` tool as a user-provided custom agent, regardless of folder trust"
    };
    Some(Subagent {
        id: format!("copilot:subagent:{file}"),
        name: field("name").unwrap_or_else(|| id.to_string()),
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: format!("{whence}: {listed}{}.", crate::shared_note(file)),
        mode,
        description: Some(description),
        tools: tools(meta.get("tools")),
        disallowed_tools: Vec::new(),
        model: field("model"),
        listed_by: (!user_only).then(|| LISTED_BY.to_string()),
        plugin: None,
    })
}

/// `tools`: a list or a comma-separated string; `None` (every tool) when
/// absent or `*`.
fn tools(v: Option<&Value>) -> Option<Vec<String>> {
    let list: Vec<String> = match v? {
        Value::String(s) => s.split(',').map(|t| t.trim().to_string()).collect(),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(|t| t.trim().to_string())
            .collect(),
        _ => return None,
    };
    let list: Vec<String> = list.into_iter().filter(|t| !t.is_empty()).collect();
    (!list.iter().any(|t| t == "*")).then_some(list)
}

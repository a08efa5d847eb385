//! Commands and subagents of the launch directory's `.gemini`, as items;
//! a repository's extensions, which Gemini CLI ignores, reported.
//!
//! * Commands: `.gemini/commands/**/*.toml` of cwd, named by their path
//!   below that folder with `:` for `/` (`git/commit.toml` is
//!   `/git:commit`); the user runs them, they are never sent to the model
//!   (`FileCommandLoader` in `packages/cli/src/services/`; seen with 0.61.0
//!   and 0.34.0). A file that is not TOML is skipped. A command whose
//!   name a built-in command holds runs as `/workspace.NAME`
//!   (`SlashCommandResolver`; seen with both releases for `plan.toml`).
//! * Subagents: `.gemini/agents/*.md` of cwd, front matter `name` and
//!   `description` required (`packages/core/src/agents/agentLoader.ts`),
//!   load only in a trusted folder and once the user acknowledged each
//!   file (`~/.gemini/acknowledgments/agents.json`, keyed by the file's
//!   SHA-256), and in 0.34 only with `experimental.enableAgents`;
//!   otherwise they are skipped silently (seen with 0.61.0: listed in
//!   `<available_subagents>` only then). The acknowledgement is the user's
//!   state: such a subagent is `conditional`.
//! * Extensions come only from `~/.gemini/extensions/`; a repository's
//!   `.gemini/extensions` is ignored (seen with 0.61.0 and 0.34.0).

use crate::settings::Workspace;
use crate::{Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{self, quote};
use playbookdiff_model::{
    AgentMode, Applicability, Command, Diagnostic, DiagnosticCode, LoadPhase, RepoPath,
    SourceFormat, SourceRef, Subagent,
};
use playbookdiff_source::{EntryKind, ParseError};
use serde_json::Value;
use std::collections::BTreeSet;

/// The deepest folder level of `.gemini/commands` the analysis lists.
const MAX_COMMAND_DEPTH: usize = 8;

/// The commands of cwd's `.gemini/commands`, in file name order, each
/// named as the user runs it.
pub(crate) fn commands(cx: &mut Cx<'_, '_>, profile: &Profile, ws: &Workspace) -> Vec<Command> {
    let Some(dir) = cx.context.cwd.join(".gemini/commands") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    command_files(cx, &dir, "", 0, &mut found);
    let mut commands: Vec<Command> = found
        .into_iter()
        .filter_map(|(path, name)| command(cx, path, name))
        .collect();
    // No command, no name to compare with the built-in ones (whose set
    // would be built at every launch directory for nothing).
    if !commands.is_empty() {
        rename_taken(&mut commands, &builtin_commands(profile, ws));
    }
    commands
}

/// The built-in command names of the release, `/agents` included when
/// subagents are on.
fn builtin_commands(profile: &Profile, ws: &Workspace) -> BTreeSet<&'static str> {
    let mut names: BTreeSet<&str> = profile.builtin_commands().collect();
    if agents_enabled(profile, ws) {
        names.insert("agents");
    }
    names
}

/// Renames each command whose name a built-in command holds as Gemini CLI
/// does: `workspace.NAME`, or `workspace.NAME1`, `workspace.NAME2`, ...
/// while that is taken (`SlashCommandResolver.getRenamedName`).
fn rename_taken(commands: &mut [Command], builtins: &BTreeSet<&str>) {
    let mut taken: BTreeSet<String> = builtins
        .iter()
        .map(|b| b.to_string())
        .chain(commands.iter().map(|c| c.name.clone()))
        .collect();
    for c in commands
        .iter_mut()
        .filter(|c| builtins.contains(c.name.as_str()))
    {
        let base = format!("workspace.{}", c.name);
        let name = std::iter::once(base.clone())
            .chain((1..).map(|i| format!("{base}{i}")))
            .find(|n| !taken.contains(n))
            .unwrap_or(base);
        c.reason = format!("Found in the launch directory's `.gemini/commands`: the built-in command `/{}` holds its name, so the user runs it as `/{name}`; it is never sent to the model.", c.name);
        taken.insert(name.clone());
        c.name = name;
    }
}

/// The command of `path`, named `name`; `None` when Gemini CLI skips the
/// file (reported).
fn command(cx: &mut Cx<'_, '_>, path: RepoPath, name: String) -> Option<Command> {
    let effect = "Gemini CLI skips this command";
    let text = match cx.repo.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            cx.diag(problems::read_error(&path, &e, effect, SourceFormat::Toml));
            return None;
        }
    };
    let table = match text.text.parse::<toml::Table>() {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map_or(1, |s| {
                1 + text.text[..s.start.min(text.text.len())]
                    .matches('\n')
                    .count() as u32
            });
            let err = ParseError::on_line(e.message().to_string(), line);
            cx.diag(problems::invalid_syntax(
                &path,
                "TOML",
                &err,
                effect,
                SourceFormat::Toml,
            ));
            return None;
        }
    };
    let description = table
        .get("description")
        .and_then(toml::Value::as_str)
        .map(str::to_string);
    Some(Command {
        id: format!("gemini:command:{path}"),
        name: name.clone(),
        source: SourceRef::project(path, SourceFormat::Toml),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: format!("Found in the launch directory's `.gemini/commands`: the user runs it as `/{name}`; it is never sent to the model."),
        description,
        agent: None,
        model: None,
        listed_to_model: false,
    })
}

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

/// The `.toml` files below `dir` with their command names (`prefix` holds
/// the folders above, joined by `:`), in name order.
fn command_files(
    cx: &Cx<'_, '_>,
    dir: &RepoPath,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(RepoPath, String)>,
) {
    if depth > MAX_COMMAND_DEPTH {
        return;
    }
    let mut entries: Vec<(String, EntryKind)> = cx
        .repo
        .list_dir(dir)
        .iter()
        .map(|e| (e.name.clone(), e.kind))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, kind) in entries {
        let Some(p) = dir.child(&name) else { continue };
        let full = |n: &str| {
            if prefix.is_empty() {
                n.to_string()
            } else {
                format!("{prefix}:{n}")
            }
        };
        if kind == EntryKind::Dir {
            command_files(cx, &p, &full(&name), depth + 1, out);
        } else if let Some(stem) = name.strip_suffix(".toml") {
            out.push((p, full(stem)));
        }
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
        .filter(|e| e.name.ends_with(".md"))
        .filter_map(|e| dir.child(&e.name))
        .filter(|f| cx.repo.is_file(f))
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
fn agents_enabled(profile: &Profile, ws: &Workspace) -> bool {
    !profile.agents_need_flag
        || ws
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
}

/// The subagent of `file`; `None` when Gemini CLI rejects the file
/// (reported).
fn subagent(cx: &mut Cx<'_, '_>, file: &RepoPath, gate: Gate) -> Option<Subagent> {
    let effect = "Gemini CLI does not load this subagent";
    let text = match cx.repo.read_text(file, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            cx.diag(problems::read_error(
                file,
                &e,
                effect,
                SourceFormat::Markdown,
            ));
            return None;
        }
    };
    let fm = text.front_matter();
    let mut source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    let mut meta = serde_json::Map::new();
    if let Some(f) = fm {
        source = source.with_lines(f.start_line, f.end_line);
        match &f.value {
            Ok(Value::Object(m)) => meta = m.clone(),
            Ok(_) => {}
            Err(e) => {
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
    let field = |k: &str| meta.get(k).and_then(Value::as_str).map(str::to_string);
    let (Some(name), Some(description)) = (field("name"), field("description")) else {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SubagentInvalid,
                format!(
                    "{} needs string `name` and `description` in its front matter; {effect}.",
                    quote(file)
                ),
            )
            .at(source),
        );
        return None;
    };
    let (applicability, why) = match gate {
        Gate::NeedsFlag => (Applicability::Excluded, "this release loads subagents only with `experimental.enableAgents: true`, which the launch directory's settings do not set"),
        Gate::Acknowledgement => (Applicability::Conditional, "Gemini CLI loads it only in a trusted folder once the user acknowledged this file's exact text (`~/.gemini/acknowledgments/agents.json`), which the analysis cannot know; it then lists it in `<available_subagents>`, else skips it silently"),
    };
    let tools = meta.get("tools").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    });
    Some(Subagent {
        id: format!("gemini:subagent:{file}"),
        name,
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason: format!("Found in the launch directory's `.gemini/agents`: {why}."),
        mode: AgentMode::Subagent,
        description: Some(description),
        tools,
        disallowed_tools: Vec::new(),
        model: field("model"),
        listed_by: None,
        plugin: None,
    })
}

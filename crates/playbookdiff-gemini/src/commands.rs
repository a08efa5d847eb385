//! Commands: `.toml` files of the user's `~/.gemini/commands` (local mode)
//! and of the launch directory's `.gemini/commands`, as items.
//!
//! Gemini CLI (`FileCommandLoader` in `packages/cli/src/services/`, both
//! profiled releases): the files matching `**/*.toml` of the user's folder,
//! then of the workspace's, each named by its path below its folder with
//! `:` for `/` (`git/commit.toml` is `/git:commit`); the user runs them,
//! they are never sent to the model (seen with 0.61.0 and 0.34.0). A file
//! that is not TOML, or whose `prompt` is not a string, is skipped. Names are then settled by
//! `SlashCommandResolver.resolve` over the built-in commands and the files
//! in that order: a file command whose name a built-in holds runs as
//! `/workspace.NAME` (or `/user.NAME`; seen with both releases for
//! `plan.toml`); when a user command and a workspace command share a name,
//! both are renamed, `/user.NAME` and `/workspace.NAME`.
//!
//! In local mode the `commands` folders of the user's active extensions
//! follow, by extension name (`getCommandDirectories`); a clash renames
//! the extension's command `/EXTENSION.NAME` and the one holding the name
//! as above (seen with 0.34.0 and 0.61.0 on case
//! `oracle.local_gemini_extensions.home-gemini-extensions`).

use crate::extensions::Extension;
use crate::extras::agents_enabled;
use crate::settings::Workspace;
use crate::{Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{self, quote};
use playbookdiff_model::{
    Applicability, Command, Diagnostic, DiagnosticCode, LoadPhase, RepoPath, Severity,
    SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, ParseError, SourceError, TextFile};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The deepest folder level of a commands folder the analysis lists.
const MAX_COMMAND_DEPTH: usize = 8;

/// The user's commands (`machine` given: local mode), then the commands
/// of cwd's `.gemini/commands`, each in file name order and named as the
/// user runs it.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    ws: &Workspace,
    (machine, extensions): (Option<&Machine>, &[Extension]),
) -> Vec<Command> {
    let mut commands = Vec::new();
    if let Some(m) = machine {
        if let Some(dir) = RepoPath::on_machine("~", ".gemini/commands") {
            commands.extend(machine_commands(cx, m, &dir));
        }
    }
    if let Some(dir) = cx.context.cwd.join(".gemini/commands") {
        let mut found = Vec::new();
        let list = |d: &RepoPath| -> Vec<(String, EntryKind)> {
            cx.repo
                .list_dir(d)
                .iter()
                .map(|e| (e.name.clone(), e.kind))
                .collect()
        };
        command_files(&list, &dir, "", 0, &mut found);
        for (path, name) in found {
            let text = cx.repo.read_text(&path, READ_LIMIT);
            commands.extend(command(cx, path, name, text));
        }
    }
    if let Some(m) = machine {
        commands.extend(extension_commands(cx, m, extensions));
    }
    // No command, no name to compare with the built-in ones (whose set
    // would be built at every launch directory for nothing).
    if !commands.is_empty() {
        resolve(&mut commands, &builtin_commands(profile, ws), profile);
    }
    commands
}

/// The commands of the active `extensions`, in name order (after the
/// user's and the workspace's: `getCommandDirectories`), each in the
/// extension's layer.
fn extension_commands(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    extensions: &[Extension],
) -> Vec<Command> {
    let mut active: Vec<&Extension> = extensions.iter().filter(|e| e.active()).collect();
    active.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = Vec::new();
    for ext in active {
        let Some(dir) = ext.file("commands") else {
            continue;
        };
        for mut c in machine_commands(cx, machine, &dir) {
            c.source = c.source.in_plugin(&ext.key());
            c.reason = format!(
                "Found in {}: the user runs it as `/{}`; it is never sent to the model.",
                folder_of(&c),
                c.name
            );
            out.push(c);
        }
    }
    out
}

/// The commands of the machine's commands folder `dir` (the user's
/// `~/.gemini/commands`, or an extension's `commands`).
fn machine_commands(cx: &mut Cx<'_, '_>, machine: &Machine, dir: &RepoPath) -> Vec<Command> {
    let list = |d: &RepoPath| -> Vec<(String, EntryKind)> {
        machine
            .list_dir(d)
            .unwrap_or_default()
            .into_iter()
            .map(|e| (e.name, e.kind))
            .collect()
    };
    let mut found = Vec::new();
    command_files(&list, dir, "", 0, &mut found);
    let mut out = Vec::new();
    for (path, name) in found {
        let text = machine.read_text(&path, READ_LIMIT);
        if let Ok(t) = &text {
            let non_utf8 = problems::utf8_problem(&path, SourceFormat::Toml, t, crate::NON_UTF8);
            cx.diags.extend(non_utf8);
        }
        out.extend(command(cx, path, name, text));
    }
    out
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

/// Who holds a name first.
#[derive(Clone, Copy)]
enum Holder {
    /// A built-in command.
    Builtin,
    /// The file command at this index.
    File(usize),
}

/// Settles the names of `commands` (the user's, then the workspace's) as
/// `SlashCommandResolver.resolve` does after the built-in commands: a
/// command whose name was met before is renamed `PREFIX.NAME` (`PREFIX`
/// `user` or `workspace`; `PREFIX.NAME1`, `PREFIX.NAME2`, ... while that
/// is taken), and a file command holding that name is renamed the same
/// way; a built-in keeps its name. An extension's command takes its
/// extension's name as `PREFIX`, followed by `:` where the release
/// `profile` says so ([`Profile::extension_command_colon`]).
fn resolve(commands: &mut [Command], builtins: &BTreeSet<&str>, profile: &Profile) {
    let mut held: BTreeMap<String, Holder> = builtins
        .iter()
        .map(|b| (b.to_string(), Holder::Builtin))
        .collect();
    let mut met: BTreeSet<String> = held.keys().cloned().collect();
    for i in 0..commands.len() {
        let name = commands[i].name.clone();
        if met.insert(name.clone()) {
            held.insert(name, Holder::File(i));
            continue;
        }
        let incoming = renamed(&commands[i], &held, profile);
        let owner = held.get(&name).copied();
        let by = match owner {
            Some(Holder::File(j)) => {
                held.remove(&name);
                let moved = renamed(&commands[j], &held, profile);
                let other = commands[i].source.path.clone();
                rename(&mut commands[j], &moved, &format!("the command of {other}"));
                held.insert(moved, Holder::File(j));
                format!("the command of {}", commands[j].source.path)
            }
            Some(Holder::Builtin) => format!("the built-in command `/{name}`"),
            None => format!("another command named `/{name}`"),
        };
        rename(&mut commands[i], &incoming, &by);
        held.insert(incoming, Holder::File(i));
    }
}

/// The name `c` is renamed to: `PREFIX.NAME` (`EXTENSION:NAME` for an
/// extension's command from 0.36 on), or with the first number that makes
/// it free (`SlashCommandResolver.getRenamedName`).
fn renamed(c: &Command, held: &BTreeMap<String, Holder>, profile: &Profile) -> String {
    let (prefix, separator) = match (extension_of(c), c.source.path.is_on_machine()) {
        (Some(name), _) if profile.extension_command_colon => (name, ':'),
        (Some(name), _) => (name, '.'),
        (None, true) => ("user", '.'),
        (None, false) => ("workspace", '.'),
    };
    let base = format!("{prefix}{separator}{}", c.name);
    std::iter::once(base.clone())
        .chain((1..).map(|i| format!("{base}{i}")))
        .find(|n| !held.contains_key(n))
        .unwrap_or(base)
}

/// Renames `c` to `to`, its name held by `by`.
fn rename(c: &mut Command, to: &str, by: &str) {
    c.reason = format!(
        "Found in {}: {by} holds its name, so the user runs it as `/{to}`; it is never sent to the model.",
        folder_of(c)
    );
    c.name = to.to_string();
}

/// The name of the extension that gives `c`, when one does.
fn extension_of(c: &Command) -> Option<&str> {
    c.source.plugin.as_deref()?.strip_prefix("extension:")
}

/// The commands folder of `c`, as its reason names it.
fn folder_of(c: &Command) -> String {
    match (extension_of(c), c.source.path.is_on_machine()) {
        (Some(name), _) => format!("the `commands` folder of the user's extension `{name}`"),
        (None, true) => "the user's `~/.gemini/commands`".to_string(),
        (None, false) => "the launch directory's `.gemini/commands`".to_string(),
    }
}

/// The command of `path`, named `name`, read as `text`; `None` when
/// Gemini CLI skips the file (reported).
fn command(
    cx: &mut Cx<'_, '_>,
    path: RepoPath,
    name: String,
    text: Result<Arc<TextFile>, SourceError>,
) -> Option<Command> {
    let effect = "Gemini CLI skips this command";
    let text = match text {
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
            // A warning: Gemini CLI skips the file and starts (fuzzer
            // seed 216 with 0.61.0, `prompt = [`), where an error would
            // say it does not.
            cx.diag(
                problems::invalid_syntax(&path, "TOML", &err, effect, SourceFormat::Toml)
                    .with_severity(Severity::Warning),
            );
            return None;
        }
    };
    let source = SourceRef {
        scope: SourceScope::of_path(&path),
        ..SourceRef::project(path.clone(), SourceFormat::Toml)
    };
    if let Some(why) = definition_problem(&table) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!(
                    "{} is not a command definition: {why}; {effect}.",
                    quote(&path)
                ),
            )
            .at(source),
        );
        return None;
    }
    let description = table
        .get("description")
        .and_then(toml::Value::as_str)
        .map(str::to_string);
    let mut c = Command {
        id: format!("gemini:command:{path}"),
        name: name.clone(),
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: String::new(),
        description,
        agent: None,
        model: None,
        listed_to_model: false,
    };
    c.reason = format!(
        "Found in {}: the user runs it as `/{name}`; it is never sent to the model.",
        folder_of(&c)
    );
    Some(c)
}

/// Why Gemini CLI's `TomlCommandDefSchema` (`FileCommandLoader.ts`, both
/// profiled releases) refuses `table`, one clause: `prompt` must be a
/// string and `description`, when given, a string (other keys are
/// allowed); `None` when it accepts it.
fn definition_problem(table: &toml::Table) -> Option<&'static str> {
    match (table.get("prompt"), table.get("description")) {
        (None, _) => Some("it has no `prompt`"),
        (Some(p), _) if !p.is_str() => Some("its `prompt` is not a string"),
        (_, Some(d)) if !d.is_str() => Some("its `description` is not a string"),
        _ => None,
    }
}

/// The `.toml` files below `dir` with their command names (`prefix` holds
/// the folders above, joined by `:`), in name order; `list` gives a
/// directory's entries.
fn command_files(
    list: &dyn Fn(&RepoPath) -> Vec<(String, EntryKind)>,
    dir: &RepoPath,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(RepoPath, String)>,
) {
    if depth > MAX_COMMAND_DEPTH {
        return;
    }
    let mut entries = list(dir);
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
            command_files(list, &p, &full(&name), depth + 1, out);
        } else if let Some(stem) = name.strip_suffix(".toml") {
            out.push((p, full(stem)));
        }
    }
}

//! Commands: the Markdown files of the workspace's `.cursor/commands`.
//!
//! Cursor's commands page (<https://cursor.com/docs/agent/chat/commands>,
//! Cursor 1.6): each `.md` file of `.cursor/commands` is a command named
//! after the file; typing `/` in the chat lists them, and the chosen one's
//! text is put into the message. The model is not told about them (only
//! the user runs them), and front matter is not read (as third-party
//! tooling reports, e.g. microsoft/apm#1046). Only the directory's own
//! files are assumed read, not its subdirectories.

use crate::Cx;
use playbookdiff_model::{
    Applicability, Command, LoadPhase, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine};

/// The commands directory of a workspace.
pub(crate) const COMMANDS_DIR: &str = ".cursor/commands";

/// The commands of the workspace, by file name; in local mode
/// (`machine` given) then the user's of `~/.cursor/commands`
/// (<https://cursor.com/docs/agent/chat/commands>: global commands, in
/// every project; documented, not observed). Which of two commands of one
/// name wins is not documented: the workspace's is assumed to, and the
/// user's is listed `shadowed`.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, machine: Option<&Machine>) -> Vec<Command> {
    let mut out = workspace(cx);
    let Some((m, dir)) = machine.zip(RepoPath::on_machine("~", COMMANDS_DIR)) else {
        return out;
    };
    let mut files: Vec<RepoPath> = m
        .list_dir(&dir)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.kind == EntryKind::File && e.name.ends_with(".md"))
        .filter_map(|e| dir.child(&e.name))
        .collect();
    files.sort();
    for path in files {
        let mut c = command(&path);
        c.source.scope = SourceScope::User;
        c.reason = format!("{path} is a command of the user's `~/.cursor/commands`; typing `/{}` in Cursor's chat in any workspace puts its text into the message (documented, not observed).", c.name);
        if let Some(p) = out.iter().find(|p| p.name == c.name) {
            c.applicability = Applicability::Shadowed;
            c.reason = format!("{} The workspace's {} has the same name, which Cursor is assumed to take (the documentation does not say which wins).", c.reason, p.source.path);
        }
        out.push(c);
    }
    out
}

/// The commands of the workspace's `.cursor/commands`, by file name.
fn workspace(cx: &mut Cx<'_, '_>) -> Vec<Command> {
    let Some(dir) = cx.context.cwd.join(COMMANDS_DIR) else {
        return Vec::new();
    };
    if !cx.repo.is_dir(&dir) {
        return Vec::new();
    }
    let mut files: Vec<RepoPath> = cx
        .repo
        .list_dir(&dir)
        .iter()
        .filter(|e| e.kind != EntryKind::Dir && e.name.ends_with(".md"))
        .filter_map(|e| dir.child(&e.name))
        .filter(|p| cx.repo.is_file(p))
        .collect();
    files.sort();
    files.into_iter().map(|p| command(&p)).collect()
}

/// The command of file `path`.
fn command(path: &RepoPath) -> Command {
    let name = path
        .file_name()
        .and_then(|n| n.strip_suffix(".md"))
        .unwrap_or_default()
        .to_string();
    Command {
        id: format!("cursor:command:{path}"),
        reason: format!("{path} is a command of the workspace's `.cursor/commands`; typing `/{name}` in Cursor's chat puts its text into the message (documented, not observed)."),
        name,
        source: SourceRef::project(path.clone(), SourceFormat::Markdown),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        description: None,
        agent: None,
        model: None,
        listed_to_model: false,
    }
}

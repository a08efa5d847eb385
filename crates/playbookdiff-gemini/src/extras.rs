//! Commands, subagents, hooks and extensions: loaded (or ignored) by
//! Gemini CLI, without an item in the model, so each is reported with its
//! source.
//!
//! * Commands: `.gemini/commands/**/*.toml` of cwd, named by their path
//!   below that folder with `:` for `/` (`git/commit.toml` is
//!   `/git:commit`); the user runs them, they are never sent to the model
//!   (`FileCommandLoader` in `packages/cli/src/services/`; seen with 0.61.0
//!   and 0.34.0).
//! * Subagents: `.gemini/agents/*.md` of cwd load only in a trusted folder
//!   and once the user acknowledged each file (`~/.gemini/acknowledgments/
//!   agents.json`, keyed by the file's SHA-256), and in 0.34 only with
//!   `experimental.enableAgents`; otherwise they are skipped silently (seen
//!   with 0.61.0: listed in `<available_subagents>` only then).
//! * Hooks: `hooks` of the workspace settings run commands (seen with 0.61.0:
//!   `BeforeAgent`, in the project directory).
//! * Extensions come only from `~/.gemini/extensions/`; a repository's
//!   `.gemini/extensions` is ignored (seen with 0.61.0 and 0.34.0).

use crate::settings::Workspace;
use crate::{Cx, Profile};
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::EntryKind;

/// The deepest folder level of `.gemini/commands` the analysis lists.
const MAX_COMMAND_DEPTH: usize = 8;

/// Reports the commands, subagents, hooks and extensions of cwd.
pub(crate) fn report(cx: &mut Cx<'_, '_>, profile: &Profile, ws: &Workspace) {
    let cwd = cx.context.cwd.clone();
    let Some(base) = cwd.join(".gemini") else {
        return;
    };
    if let Some(dir) = base.child("commands") {
        let mut found = Vec::new();
        commands(cx, &dir, "", 0, &mut found);
        for (path, name) in found {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::ItemNotModelled,
                    format!("{} defines the Gemini CLI command `/{name}`; the user runs it and it is never sent to the model, so it is not compared with other harnesses.", quote(&path)),
                )
                .at(SourceRef::project(path, SourceFormat::Toml)),
            );
        }
    }
    subagents(cx, profile, ws, &base);
    if let Some(src) = ws.get(&["hooks"]).and_then(|_| ws.source(&["hooks"])) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ItemNotModelled,
                format!("{} configures `hooks`: Gemini CLI runs their commands at the events they name, and they can add context or block the agent; they are not modelled, review them by hand.", quote(&src.path)),
            )
            .at(src),
        );
    }
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
fn commands(
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
            commands(cx, &p, &full(&name), depth + 1, out);
        } else if let Some(stem) = name.strip_suffix(".toml") {
            out.push((p, full(stem)));
        }
    }
}

/// Reports the subagents of `.gemini/agents` and what their loading
/// depends on.
fn subagents(cx: &mut Cx<'_, '_>, profile: &Profile, ws: &Workspace, base: &RepoPath) {
    let Some(dir) = base.child("agents").filter(|d| cx.repo.is_dir(d)) else {
        return;
    };
    let mut files: Vec<String> = cx
        .repo
        .list_dir(&dir)
        .iter()
        .filter(|e| e.name.ends_with(".md"))
        .map(|e| e.name.clone())
        .collect();
    files.sort();
    let flag = ws
        .get(&["experimental", "enableAgents"])
        .and_then(|v| v.as_bool())
        == Some(true);
    for name in files {
        let Some(p) = dir.child(&name) else { continue };
        let state = if profile.agents_need_flag && !flag {
            "this release also needs `experimental.enableAgents: true`, which the workspace settings do not set, so it is not loaded"
        } else {
            "it loads only in a trusted folder and after the user acknowledged this file's exact text (`~/.gemini/acknowledgments/agents.json`), which the analysis cannot know; otherwise Gemini CLI skips it silently"
        };
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ItemNotModelled,
                format!("{} defines a Gemini CLI subagent; {state}. Subagents are not modelled, so it is not compared with other harnesses.", quote(&p)),
            )
            .at(SourceRef::project(p, SourceFormat::Markdown)),
        );
    }
}

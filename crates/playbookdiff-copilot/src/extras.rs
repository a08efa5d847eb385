//! Custom agents, hooks and prompt files: loaded (or ignored) by Copilot
//! CLI without an item in the model, so each is reported with its source.
//!
//! * Custom agents: `.github/agents/*.agent.md` and Claude Code's
//!   `.claude/agents/*.md` of the git root, listed in the `task` tool as
//!   "User-provided custom agents" (seen with 1.0.102: `helper` and
//!   `reviewer` of fixture `skills_agents_mcp`).
//! * Hooks: `.github/hooks/*.json`, and (1.0.102) Claude-format `hooks` in
//!   `.claude/settings.json`; they run in the project root, in `-p` mode
//!   only in a trusted folder (1.0.102; 1.0.24 ran them untrusted).
//! * Prompt files `.github/prompts/*.prompt.md` are not loaded.

use crate::json::{self, Loaded};
use crate::{Cx, Profile};
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};

/// Reports the custom agents, hooks and prompt files of the git root.
pub(crate) fn report(cx: &mut Cx<'_, '_>, profile: &Profile) {
    for (dir, suffix, what) in [
        (".github/agents", ".agent.md", "a Copilot CLI custom agent"),
        (".claude/agents", ".md", "a Claude Code subagent, which Copilot CLI also offers as a custom agent (a change made for Claude Code changes what Copilot CLI offers)"),
    ] {
        for f in files(cx, dir, suffix) {
            note(cx, &f, SourceFormat::Markdown, format!("{} defines {what}; the model sees only its name and description in the `task` tool, so it is not compared with other harnesses.", quote(&f)));
        }
    }
    let trust = if profile.trust_gates_hooks_and_mcp {
        " when the folder is trusted"
    } else {
        ""
    };
    for f in files(cx, ".github/hooks", ".json") {
        let effect = "Copilot CLI runs none of its hooks";
        if let Loaded::File(j) = json::load(cx, &f, effect) {
            if j.value.contains_key("hooks") {
                note(cx, &f, SourceFormat::Json, format!("{} configures Copilot CLI hooks: it runs their commands in the project root at the events they name{trust}; they are not modelled, review them by hand.", quote(&f)));
            }
        }
    }
    if profile.claude_hooks {
        if let Some(f) = crate::git_root(cx)
            .join(".claude/settings.json")
            .filter(|f| cx.repo.is_file(f))
        {
            let effect = "Copilot CLI runs none of its hooks";
            if let Loaded::File(j) = json::load(cx, &f, effect) {
                if j.value.contains_key("hooks") {
                    let src = j.source(&["hooks"]);
                    cx.diag(Diagnostic::new(DiagnosticCode::ItemNotModelled, format!("{} configures Claude Code hooks, which Copilot CLI runs too{trust} (a change made for Claude Code changes what Copilot CLI runs); they are not modelled, review them by hand.", quote(&f))).at(src));
                }
            }
        }
    }
    for f in files(cx, ".github/prompts", ".prompt.md") {
        note(cx, &f, SourceFormat::Markdown, format!("{} is a prompt file, which Copilot CLI does not load (seen with 1.0.102 and 1.0.24).", quote(&f)));
    }
}

/// One `item-not-modelled` diagnostic at `file`.
fn note(cx: &mut Cx<'_, '_>, file: &RepoPath, format: SourceFormat, message: String) {
    cx.diag(
        Diagnostic::new(DiagnosticCode::ItemNotModelled, message)
            .at(SourceRef::project(file.clone(), format)),
    );
}

/// The files of the git root's folder `dir` whose name ends with
/// `suffix`, by name.
fn files(cx: &Cx<'_, '_>, dir: &str, suffix: &str) -> Vec<RepoPath> {
    let Some(base) = crate::git_root(cx).join(dir).filter(|b| cx.repo.is_dir(b)) else {
        return Vec::new();
    };
    let mut out: Vec<RepoPath> = cx
        .repo
        .list_dir(&base)
        .iter()
        .filter(|e| e.name.ends_with(suffix))
        .filter_map(|e| base.child(&e.name))
        .filter(|f| cx.repo.is_file(f))
        .collect();
    out.sort();
    out
}

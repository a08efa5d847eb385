//! Instructions of the releases that send one source alone, without
//! `<custom_instruction>` blocks ([`Profile::instruction_blocks`] false:
//! 0.0.368 to 0.0.384).
//!
//! Read in 0.0.368's, 0.0.372's, 0.0.376's and 0.0.384's `index.js` (the
//! same instruction loader, called with the git root): the source is the user's
//! `~/.copilot/copilot-instructions.md` and the git root's
//! `.github/copilot-instructions.md` when either exists (both joined
//! under "# Repository-specific instructions"), else the git root's
//! `AGENTS.md`, else its `CLAUDE.md`, else its `GEMINI.md`, each name as
//! written; a file that exists is the source even when it is empty. The
//! text is inlined after the tool guidelines. Beside it come the
//! `.github/instructions` files of the git root and the launch directory
//! (inlined when they apply to every file, otherwise listed in a table),
//! or, when there is none, the launch directory's `AGENTS.md` listed in a
//! table of nested files to view; nothing of the directories between is
//! read, nor the user's `~/.copilot/instructions`. Seen on cases
//! `copilot.instruction_chain` and `copilot.instruction_chain.in-a-b`
//! (0.0.368, 0.0.372, 0.0.376 and 0.0.384 send
//! `.github/copilot-instructions.md` alone) and `copilot.path_instructions`
//! (0.0.384: `AGENTS.md`, the two general files inlined, the two others in
//! the table).

use crate::instructions::{
    entry, find, read, AlwaysOn, Builder, Slot, COPILOT_INSTRUCTIONS, NAMES,
};
use crate::{Cx, Profile};
use playbookdiff_adapter::scope::place;
use playbookdiff_model::{
    Applicability, Instruction, LoadPhase, RepoPath, Resolution, ResolutionStrategy,
};
use playbookdiff_source::{EntryKind, Machine};

/// The file `name` of `dir`, its name as written (the loader joins the
/// name to the directory and asks whether that is a file).
fn exact(cx: &Cx<'_, '_>, dir: &RepoPath, name: &'static str) -> Option<RepoPath> {
    find(cx, dir, name).filter(|p| p.as_str().ends_with(name))
}

/// Whether the user's `~/.copilot/copilot-instructions.md` exists on
/// `machine` (blank or not: it makes the Copilot files the source).
fn user_file(machine: Option<&Machine>) -> bool {
    let Some(path) = RepoPath::on_machine("~", ".copilot/copilot-instructions.md") else {
        return false;
    };
    machine.is_some_and(|m| m.stat(&path).is_ok_and(|s| s.kind == EntryKind::File))
}

/// The git root's always-on files in the loader's order, each with its
/// slot: `.github/copilot-instructions.md`, `AGENTS.md`, `CLAUDE.md`,
/// `GEMINI.md`.
fn candidates(cx: &Cx<'_, '_>, root: &RepoPath) -> Vec<AlwaysOn> {
    let repo_wide = exact(cx, root, COPILOT_INSTRUCTIONS).map(|p| (p, Slot::RepositoryWide));
    let named = NAMES
        .iter()
        .filter_map(|n| exact(cx, root, n))
        .map(|p| (p, Slot::Named));
    repo_wide
        .into_iter()
        .chain(named)
        .map(|(path, slot)| AlwaysOn {
            path,
            dir: root.clone(),
            slot,
        })
        .collect()
}

/// Adds the entries of a one-source release to `b`: the user's file
/// (local mode, `machine` given), the source, the git root's files it
/// leaves out, the path-specific files, then the launch directory's
/// `AGENTS.md` when no path-specific file is read, and the launch
/// directory's and the directories' between files as not read.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: Option<&Machine>,
    b: &mut Builder,
) {
    if let Some(m) = machine {
        crate::user::always_on(m, profile, b, &mut cx.diags);
    }
    let root = crate::git_root(cx);
    let found = candidates(cx, &root);
    let copilot_only = user_file(machine)
        || found
            .first()
            .is_some_and(|f| f.slot == Slot::RepositoryWide);
    let source = if copilot_only {
        found.first().filter(|f| f.slot == Slot::RepositoryWide)
    } else {
        found.first()
    };
    for file in &found {
        match source {
            Some(s) if s.path == file.path => {
                let why = format!("This release sends one source of instructions, inlined without a block: {} of {} is that source", file.path.file_name().unwrap_or_default(), place(&root));
                b.add(cx, profile, file, &why);
            }
            _ => b.others.push(left_out(cx, file, source, copilot_only)),
        }
    }
    let before = b.len();
    crate::scoped::compile(cx, profile, b);
    if b.len() == before {
        nested_agents(cx, &root, b);
    }
    not_read(cx, &root, b);
}

/// The entry of the git root's `file`, which the source chosen before it
/// (`source`; the user's file alone when `copilot_only` and the root has
/// none) leaves out.
fn left_out(
    cx: &mut Cx<'_, '_>,
    file: &AlwaysOn,
    source: Option<&AlwaysOn>,
    copilot_only: bool,
) -> Instruction {
    let first = match source {
        Some(s) => s.path.to_string(),
        None if copilot_only => "the user's `~/.copilot/copilot-instructions.md`".to_string(),
        None => "another file".to_string(),
    };
    let text = read(cx, &file.path).ok();
    let mut e = entry(
        &file.path,
        &file.dir,
        text.as_deref(),
        (LoadPhase::Startup, Applicability::Shadowed),
        format!("This release sends one source of instructions (the Copilot files, else `AGENTS.md`, else `CLAUDE.md`, else `GEMINI.md` of the git root): {first} is taken first, so it does not send this file (from {} on, each file is a block of its own).", crate::profile::since(crate::profile::Fact::InstructionBlocks)),
    );
    if let Some(s) = source {
        e.resolution = Some(Resolution {
            strategy: ResolutionStrategy::Shadowed,
            sources: vec![s.path.clone()],
        });
    }
    e
}

/// The launch directory's `AGENTS.md` (not the git root), listed in the
/// table of nested files to view for the directory (`| a/b/ |
/// 'a/b/AGENTS.md' | Agent instructions for a/b/**/* |`).
fn nested_agents(cx: &mut Cx<'_, '_>, root: &RepoPath, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    if cwd == *root {
        return;
    }
    let Some(path) = exact(cx, &cwd, "AGENTS.md") else {
        return;
    };
    let text = read(cx, &path).ok();
    let dir = format!("{cwd}/");
    let mut e = entry(
        &path,
        &cwd,
        text.as_deref(),
        (LoadPhase::OnDemand, Applicability::Conditional),
        format!("This release lists the launch directory's `AGENTS.md` at startup in a table of nested instruction files for `{dir}`, for the agent to view (no path-specific instruction file is read, which would take its place); its text is not sent."),
    );
    e.paths = Some(vec![dir]);
    b.others.push(e);
}

/// The always-on files of the launch directory and of the directories
/// between it and the git root, which a one-source release does not read
/// (the launch directory's `AGENTS.md` aside, [`nested_agents`]).
fn not_read(cx: &mut Cx<'_, '_>, root: &RepoPath, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    let dirs: Vec<RepoPath> = crate::chain(cx).into_iter().filter(|d| d != root).collect();
    for dir in dirs {
        for name in [COPILOT_INSTRUCTIONS, "AGENTS.md", "CLAUDE.md", "GEMINI.md"] {
            let Some(path) = find(cx, &dir, name) else {
                continue;
            };
            if dir == cwd && name == "AGENTS.md" && b.holds(&path) {
                continue;
            }
            let text = read(cx, &path).ok();
            b.others.push(entry(
                &path,
                &dir,
                text.as_deref(),
                (LoadPhase::Startup, Applicability::OutOfScope),
                format!("This release reads the instruction files of the git root alone, not those of {} (from {} on, the launch directory's too).", place(&dir), crate::profile::since(crate::profile::Fact::InstructionBlocks)),
            ));
        }
    }
}

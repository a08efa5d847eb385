//! The user's instructions, read in local mode.
//!
//! Copilot CLI reads, besides the repository's files, the user's
//! `~/.copilot/copilot-instructions.md` and
//! `~/.copilot/instructions/**/*.instructions.md` (harness facts
//! "Copilot CLI discovery": "user `$HOME/.copilot/copilot-instructions.md`
//! and `$HOME/.copilot/instructions/**/*.instructions.md`"). Seen with
//! 1.0.24 and 1.0.102 (case
//! `oracle.local_user_layers.home-copilot-instructions`): the user's
//! `copilot-instructions.md` is the first `<custom_instruction>` block,
//! before the repository's, and a user instruction file with `applyTo:
//! "**"` is inlined after the blocks as the repository's are. A user file
//! with a narrower `applyTo` is listed in the table of on-demand files on
//! both releases (cases `fuzz.copilot.home.4` and `.5`); 1.0.24 puts the
//! file's body in the table's description column, line ends included,
//! and sends its table before the repository's path-specific files.
//! The glob key follows [`crate::scoped::apply_to`]: from the release
//! that reads Claude Code's rules, `paths` when `applyTo` is absent.

use crate::instructions::{entry, sent_text, Builder};
use crate::{Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{NonUtf8, UserMarkdown};
use playbookdiff_model::{
    Applicability, Diagnostic, InstructionKind, LoadPhase, RepoPath, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, TextFile};
use std::sync::Arc;

/// The variable listing more directories whose instruction files Copilot
/// CLI reads (comma-separated; 1.0.24 `app.js`: split on `,`, each entry
/// trimmed, empty ones dropped, repeats removed).
pub(crate) const INSTRUCTIONS_DIRS_VAR: &str = "COPILOT_CUSTOM_INSTRUCTIONS_DIRS";

/// The most directories listed below `~/.copilot/instructions`.
const MAX_DIRS: usize = 1_000;

/// The text of the user's file `path`; `None` when absent, unreadable or
/// not valid UTF-8 where the release skips such a file (`non_utf8`,
/// [`Profile::user_instructions_non_utf8`]); each reported in `diags`, in the user's
/// layer.
pub(crate) fn read(
    machine: &Machine,
    path: &RepoPath,
    non_utf8: NonUtf8,
    diags: &mut Vec<Diagnostic>,
) -> Option<Arc<TextFile>> {
    let how = UserMarkdown {
        effect: "what Copilot CLI reads from it is unknown",
        non_utf8,
    };
    playbookdiff_adapter::problems::read_user_markdown(machine, path, READ_LIMIT, &how, diags)
}

/// Adds the user's `copilot-instructions.md` to `b`, first of the
/// always-on blocks, when it exists and is not blank.
pub(crate) fn always_on(
    machine: &Machine,
    profile: &Profile,
    b: &mut Builder,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(path) = RepoPath::on_machine("~", ".copilot/copilot-instructions.md") else {
        return;
    };
    let non_utf8 = profile.user_instructions_non_utf8();
    let Some(text) = read(machine, &path, non_utf8, diags).filter(|t| !t.text.trim().is_empty())
    else {
        return;
    };
    let why = "The user's instructions, sent at startup in every project as the first \
               custom instruction, before the repository's"
        .to_string();
    let mut e = entry(
        &path,
        &RepoPath::root(),
        Some(&text),
        (LoadPhase::Startup, Applicability::Effective),
        why,
    );
    e.source.scope = SourceScope::User;
    e.content = sent_text(profile, &text.text);
    b.push_effective(e);
}

/// Adds the user's path-specific instruction files to `b`: inlined at
/// startup when they apply to every file, otherwise listed for the paths
/// their `applyTo` (or, from 1.0.89, `paths`) names.
pub(crate) fn path_specific(
    machine: &Machine,
    profile: &Profile,
    b: &mut Builder,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(root) = RepoPath::on_machine("~", ".copilot/instructions") else {
        return;
    };
    for path in files(machine, &root) {
        let Some(text) = read(machine, &path, profile.user_instructions_non_utf8(), diags) else {
            continue;
        };
        diags.extend(crate::scoped::user_front_matter_problem(
            profile, &path, &text,
        ));
        if let Some(name) = crate::scoped::excluded_by(&text) {
            let mut e = crate::scoped::excluded(&path, &RepoPath::root(), &text, name);
            e.source.scope = SourceScope::User;
            b.others.push(e);
            continue;
        }
        let (key, globs) = crate::scoped::apply_to(profile, &text);
        let every = crate::scoped::always(&globs);
        let (phase, a, why) = if every {
            (
                LoadPhase::Startup,
                Applicability::Effective,
                format!(
                    "The user's path-specific instruction file; it applies to every file (`{key}` \
                     absent or `**`), so Copilot CLI inlines it at startup in every project"
                ),
            )
        } else {
            (
                LoadPhase::OnDemand,
                Applicability::Conditional,
                format!(
                    "The user's path-specific instruction file for `{}` (`{key}`); Copilot CLI \
                     lists it at startup and sends its text when the agent views a matching file, \
                     as for the repository's",
                    globs.clone().unwrap_or_default().join(", ")
                ),
            )
        };
        let mut e = entry(&path, &RepoPath::root(), Some(&text), (phase, a), why);
        e.kind = InstructionKind::Instructions;
        e.id = format!("copilot:{}:{path}", e.kind);
        e.source.scope = SourceScope::User;
        e.content = sent_text(profile, &text.text);
        if !every {
            e.paths = globs;
            b.others.push(e);
        } else {
            b.push_effective(e);
        }
    }
}

/// Adds the `AGENTS.md` of each directory of
/// `COPILOT_CUSTOM_INSTRUCTIONS_DIRS` on `machine` to `b`: Copilot CLI
/// does not send its text but lists it in the table of nested `AGENTS.md`
/// files ("| <dir>/ | '<dir>/AGENTS.md' | Agent instructions for
/// <dir>/**/*|"), for the model to read when it works there (seen with
/// 1.0.24 and 1.0.102, case
/// `oracle.local_user_layers.home-copilot-env-dirs`; its
/// `copilot-instructions.md` and `CLAUDE.md` are not read).
pub(crate) fn listed_agents(machine: &Machine, b: &mut Builder, diags: &mut Vec<Diagnostic>) {
    for dir in machine.listed(INSTRUCTIONS_DIRS_VAR) {
        let Some(path) = dir.join("AGENTS.md") else {
            continue;
        };
        if !machine.stat(&path).is_ok_and(|s| s.kind == EntryKind::File) {
            continue;
        }
        let text = read(machine, &path, NonUtf8::Unobserved, diags);
        let why = format!(
            "{dir} is listed in {INSTRUCTIONS_DIRS_VAR}; Copilot CLI names its AGENTS.md in the \
             table of nested AGENTS.md files at startup, for the model to read, and sends \
             none of its text"
        );
        let phase = (LoadPhase::OnDemand, Applicability::Conditional);
        let mut e = entry(&path, &RepoPath::root(), text.as_deref(), phase, why);
        e.source.scope = SourceScope::User;
        e.paths = Some(vec![format!("{dir}/")]);
        b.others.push(e);
    }
}

/// The `*.instructions.md` files below `root` on `machine`, sorted.
pub(crate) fn files(machine: &Machine, root: &RepoPath) -> Vec<RepoPath> {
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    let mut listed = 0;
    while let Some(dir) = stack.pop() {
        listed += 1;
        if listed > MAX_DIRS {
            break;
        }
        for e in machine.list_dir(&dir).unwrap_or_default() {
            let Some(p) = dir.join(&e.name) else {
                continue;
            };
            match e.kind {
                EntryKind::Dir => stack.push(p),
                EntryKind::File if e.name.ends_with(".instructions.md") => out.push(p),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

//! The user's global instructions, read in local mode.
//!
//! OpenCode 1.18.33, `Instruction.systemPaths` (the shipped bundle of
//! `packages/opencode/src/session/instruction.ts`): before the project's
//! files it takes the first of `<config>/AGENTS.md` and
//! `~/.claude/CLAUDE.md` that exists (`existsSafe`; the second unless
//! `OPENCODE_DISABLE_CLAUDE_CODE` or `OPENCODE_DISABLE_CLAUDE_CODE_PROMPT`
//! is set, which the analysis does not read and assumes unset), where
//! `<config>` is OpenCode's global configuration directory,
//! `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` (harness facts
//! "OpenCode", Instructions and Config precedence), or the directory
//! `OPENCODE_CONFIG_DIR` names when it is set. A file whose text is empty
//! sends nothing.

use playbookdiff_adapter::READ_LIMIT;
use playbookdiff_model::{
    Applicability, Diagnostic, Instruction, InstructionKind, LoadPhase, Mode, RepoPath,
    SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, TextFile};
use std::sync::Arc;

/// The variable that moves OpenCode's global configuration directory.
pub(crate) const CONFIG_VAR: &str = "XDG_CONFIG_HOME";

/// The variable naming one more configuration file, merged after the
/// global files and before the project's (OpenCode 1.18.33,
/// `Config.loadInstanceState`: `if (Flag.OPENCODE_CONFIG)` right after
/// the global configuration).
pub(crate) const CONFIG_FILE_VAR: &str = "OPENCODE_CONFIG";

/// The variable naming one more configuration directory, read after the
/// project's and the home's `.opencode` directories
/// (`ConfigPaths.directories` ends with it), whose `AGENTS.md` replaces
/// the global directory's ([`global_instruction`]).
pub(crate) const CONFIG_DIR_VAR: &str = "OPENCODE_CONFIG_DIR";

/// The variable holding configuration text, merged after every
/// configuration directory and before the managed files
/// (`Config.loadInstanceState`: `process.env.OPENCODE_CONFIG_CONTENT`).
pub(crate) const CONFIG_CONTENT_VAR: &str = "OPENCODE_CONFIG_CONTENT";

/// The directory `OPENCODE_CONFIG_DIR` names on `machine`, as provenance
/// names it (`$OPENCODE_CONFIG_DIR`); `None` when it is not set.
pub(crate) fn env_dir(machine: &Machine) -> Option<RepoPath> {
    machine.var(CONFIG_DIR_VAR)?;
    RepoPath::on_machine(&format!("${CONFIG_DIR_VAR}"), ".")
}

/// OpenCode's global configuration directory on `machine`, as provenance
/// names it (`~/.config/opencode`, `$XDG_CONFIG_HOME/opencode`).
pub(crate) fn config_dir(machine: &Machine) -> Option<RepoPath> {
    machine
        .user_dir(Some(CONFIG_VAR), ".config")?
        .join("opencode")
}

/// The global instruction OpenCode sends first, in local mode (`None` in
/// repo mode, without a machine, or when neither file exists); a file
/// that exists but cannot be read is reported in `diags` and sends
/// nothing the analysis can see.
pub(crate) fn global_instruction(
    machine: Option<&Machine>,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Option<Instruction> {
    let machine = machine.filter(|_| mode == Mode::Local)?;
    // The `config` of OpenCode's `Global` service, which
    // `OPENCODE_CONFIG_DIR` replaces (seen with 1.18.33, case
    // `oracle.local_user_layers.home-opencode-env`).
    let dir = env_dir(machine).or_else(|| config_dir(machine))?;
    let candidates = [
        (dir.join("AGENTS.md")?, InstructionKind::AgentsMd),
        (
            RepoPath::on_machine("~", ".claude/CLAUDE.md")?,
            InstructionKind::Memory,
        ),
    ];
    // `existsSafe` is the file system's `exists`, which follows a link:
    // a link to nothing does not exist, and the next candidate is taken
    // (1.18.33 binary: `FileSystem.existsSafe` calls `exists`, an error
    // answered `false`; not recorded by a case).
    let (path, kind) = candidates
        .into_iter()
        .find(|(p, _)| machine.stat(p).is_ok_and(|s| s.kind != EntryKind::Symlink))?;
    let how = playbookdiff_adapter::problems::UserMarkdown {
        effect: "OpenCode may send it; its content is unknown",
        non_utf8: crate::NON_UTF8,
    };
    let text = playbookdiff_adapter::problems::read_user_markdown(
        machine, &path, READ_LIMIT, &how, diags,
    )?;
    let empty = text.text.is_empty();
    let reason = if empty {
        "The user's global instructions, empty, so OpenCode sends nothing from them."
    } else {
        "The user's global instructions (the first of the global AGENTS.md and ~/.claude/CLAUDE.md that exists), sent at startup in every project before the project's files."
    };
    let mut i = user_instruction(path, kind, &text, reason.to_string());
    i.order = (!empty).then_some(0);
    Some(i)
}

/// An instruction of the user's file `path` holding `text`, sent at
/// startup (excluded when the text is empty, as OpenCode leaves an empty
/// file out), in the user's layer, with no order yet.
fn user_instruction(
    path: RepoPath,
    kind: InstructionKind,
    text: &TextFile,
    reason: String,
) -> Instruction {
    let mut source = SourceRef {
        scope: SourceScope::of_path(&path),
        ..SourceRef::project(path.clone(), SourceFormat::Markdown)
    };
    if text.line_count() > 0 {
        source = source.with_lines(1, text.line_count());
    }
    let empty = text.text.is_empty();
    Instruction {
        id: format!("opencode:{kind}:{path}"),
        kind,
        source,
        load_phase: LoadPhase::Startup,
        applicability: if empty {
            Applicability::Excluded
        } else {
            Applicability::Effective
        },
        reason,
        order: None,
        applies_to: RepoPath::root(),
        imported_from: None,
        import_spans: Vec::new(),
        bytes: text.bytes,
        paths: None,
        resolution: None,
        truncated_at_byte: None,
        content: text.text.clone(),
    }
}

/// True for an `instructions` entry naming one file of the user's home
/// (`~/...` without a wildcard), which local mode reads.
pub(crate) fn is_home_file(entry: &str) -> bool {
    entry
        .strip_prefix("~/")
        .is_some_and(|rel| !rel.is_empty() && !rel.contains(['*', '?', '[', '{']))
}

/// The file a `~/...` entry of `instructions` names (`entry`, written in
/// the configuration file `from`), read from the user's home in local
/// mode: OpenCode 1.18.33 expands `~/` to the home directory and sends
/// the file's text after the project's instruction files, in the order of
/// the merged `instructions` list (`Instruction.systemPaths`; seen with
/// 1.18.33, case `oracle.local_user_layers.home-opencode-config`).
/// `None` for an entry that is not [`is_home_file`], or when the file is
/// absent or unreadable (reported in `diags`, in the user's
/// layer).
pub(crate) fn config_instruction(
    machine: &Machine,
    entry: &str,
    from: &RepoPath,
    diags: &mut Vec<Diagnostic>,
) -> Option<Instruction> {
    let rel = entry.strip_prefix("~/").filter(|_| is_home_file(entry))?;
    let path = RepoPath::on_machine("~", rel)?;
    let text = read(machine, &path, diags)?;
    let reason = if text.text.is_empty() {
        format!("The instructions entry {entry:?} of {from} names this file of the user's; it is empty, so OpenCode leaves it out.")
    } else {
        format!("The instructions entry {entry:?} of {from} names this file of the user's; OpenCode sends it after the project's instruction files.")
    };
    Some(user_instruction(
        path,
        InstructionKind::Instructions,
        &text,
        reason,
    ))
}

/// Puts `global` before the project's entries: when it is sent, it takes
/// order 0 and the project's orders move down by one.
pub(crate) fn prepend(instructions: &mut Vec<Instruction>, global: Instruction) {
    if global.order.is_some() {
        for i in instructions.iter_mut() {
            i.order = i.order.map(|o| o + 1);
        }
    }
    instructions.insert(0, global);
}

/// One of the user's skill roots OpenCode scans for `**/SKILL.md`.
pub(crate) struct SkillRoot {
    /// The directory, as provenance names it (`~/.claude/skills`).
    pub dir: RepoPath,
    /// True for the roots shared with other agents (`~/.claude/skills`,
    /// `~/.agents/skills`), scanned before the project's `.claude` and
    /// `.agents` roots, dot entries included; false for OpenCode's own
    /// global configuration directory, scanned after them and before the
    /// project's `.opencode`, dot entries skipped.
    pub external: bool,
}

/// The user's skill roots, in OpenCode's order (1.18.33, `Skill` service
/// in `packages/opencode/src/skill/`: the home's external directories
/// `.claude` and `.agents`, then every configuration directory, the global
/// one first; harness facts "OpenCode", Skills: "globals
/// `~/.config/opencode/skills/`, `~/.claude/skills/`, `~/.agents/skills/`").
/// Seen with 1.18.33: `~/.claude/skills/standup` listed beside the
/// project's skills (case `oracle.local_user_layers.home-claude-skills`).
pub(crate) fn skill_roots(machine: &Machine) -> Vec<SkillRoot> {
    let mut out = Vec::new();
    for rel in [".claude/skills", ".agents/skills"] {
        out.extend(RepoPath::on_machine("~", rel).map(|dir| SkillRoot {
            dir,
            external: true,
        }));
    }
    for sub in ["skill", "skills"] {
        out.extend(
            config_dir(machine)
                .and_then(|c| c.join(sub))
                .map(|dir| SkillRoot {
                    dir,
                    external: false,
                }),
        );
    }
    out
}

/// The user's skill roots OpenCode scans after the project's `.opencode`
/// directories: `skill` and `skills` of the home's `~/.opencode`, then of
/// `$OPENCODE_CONFIG_DIR` (1.18.33, `Skill` discovery: every directory
/// of `ConfigPaths.directories`, which end with these two), dot entries
/// skipped.
pub(crate) fn late_skill_roots(machine: &Machine) -> Vec<SkillRoot> {
    let dirs = [crate::config::home_dir(), env_dir(machine)];
    dirs.into_iter()
        .flatten()
        .flat_map(|d| ["skill", "skills"].map(|sub| d.join(sub)))
        .flatten()
        .map(|dir| SkillRoot {
            dir,
            external: false,
        })
        .collect()
}

/// The most directories [`files_below`] lists below one root (a link loop
/// ends there).
const MAX_DIRS: usize = 2_000;

/// The `SKILL.md` files below `root` on `machine`, links followed, sorted
/// by path; none when it is absent.
pub(crate) fn skill_files(machine: &Machine, root: &SkillRoot) -> Vec<RepoPath> {
    let scan = Scan {
        dot: root.external,
        max_depth: None,
    };
    files_below(machine, &root.dir, scan, &|rel| {
        rel == "SKILL.md" || rel.ends_with("/SKILL.md")
    })
    .into_iter()
    .map(|(p, _)| p)
    .collect()
}

/// How [`files_below`] scans a directory of the user's, as OpenCode's
/// `Glob.scan` does with its options.
#[derive(Clone, Copy)]
pub(crate) struct Scan {
    /// Entries whose name starts with `.` are entered and listed.
    pub dot: bool,
    /// The most directory levels below the root entered (`None`: any).
    pub max_depth: Option<usize>,
}

/// The files below `root` on `machine` whose path relative to it
/// (`/`-separated) passes `keep`, links followed, sorted by path, each
/// with that relative path; none when `root` is absent. At most
/// [`MAX_DIRS`] directories are listed (a link loop ends there).
pub(crate) fn files_below(
    machine: &Machine,
    root: &RepoPath,
    scan: Scan,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<(RepoPath, String)> {
    let mut out = Vec::new();
    let mut stack = vec![(root.clone(), String::new(), 0usize)];
    let mut listed = 0;
    while let Some((dir, rel, depth)) = stack.pop() {
        listed += 1;
        if listed > MAX_DIRS {
            break;
        }
        for e in machine.list_dir(&dir).unwrap_or_default() {
            if e.name.starts_with('.') && !scan.dot {
                continue;
            }
            let Some(p) = dir.join(&e.name) else {
                continue;
            };
            let r = if rel.is_empty() {
                e.name.clone()
            } else {
                format!("{rel}/{}", e.name)
            };
            match e.kind {
                EntryKind::Dir if scan.max_depth.is_none_or(|m| depth < m) => {
                    stack.push((p, r, depth + 1))
                }
                EntryKind::File if keep(&r) => out.push((p, r)),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// The text of the user's file `path`; `None` when absent or unreadable
/// (reported in `diags`, in the user's layer).
pub(crate) fn read(
    machine: &Machine,
    path: &RepoPath,
    diags: &mut Vec<Diagnostic>,
) -> Option<Arc<TextFile>> {
    let how = playbookdiff_adapter::problems::UserMarkdown {
        effect: "OpenCode may load it; its content is unknown",
        non_utf8: crate::NON_UTF8,
    };
    playbookdiff_adapter::problems::read_user_markdown(machine, path, READ_LIMIT, &how, diags)
}

/// The provenance of a skill file: in the user's layer for a machine path,
/// the project's otherwise.
pub(crate) fn skill_source(path: &RepoPath) -> SourceRef {
    let scope = if path.is_on_machine() {
        SourceScope::User
    } else {
        SourceScope::Project
    };
    SourceRef {
        scope,
        ..SourceRef::project(path.clone(), SourceFormat::Markdown)
    }
}

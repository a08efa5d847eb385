//! The user's skills, read in local mode.
//!
//! openai/codex `codex-rs/core-skills` (`skill_roots_in_layer_of_stack_inner`)
//! scans, besides the project's roots, the user's `$HOME/.agents/skills`
//! and the deprecated `$CODEX_HOME/skills` (whose `.system` folder holds
//! the bundled system skills, skipped here as every name starting with
//! `.` is); harness facts B5, "Locations" and "Additional roots in
//! source". Seen with 0.142.3 and 0.171.0: `~/.agents/skills/standup` and
//! `$CODEX_HOME/skills/lint` listed with the project's skills, a user
//! skill named like a project skill listed beside it (case
//! `oracle.local_user_layers.home-codex-skills`). The administrator's
//! `/etc/codex/skills` is listed the same way, in the managed layer (seen
//! with both releases, case
//! `oracle.local_user_layers.home-codex-skills.managed-codex-admin-skills`).
//!
//! The walk is the project roots' ([`super::discovery`]): every `SKILL.md`
//! at most six levels below the root, names starting with `.` skipped, at
//! most 2,000 directories. Not read for user skills: `agents/openai.yaml`
//! (the default policy is assumed: listed, implicit invocation allowed)
//! and plugin namespaces.

use super::loading::{build, parse_front_matter};
use super::Root;
use crate::{skill_file, Cx, READ_LIMIT};
use playbookdiff_model::{Applicability, RepoPath, Skill, SourceFormat, SourceScope};
use playbookdiff_source::{EntryKind, Machine};

/// The deepest level below a root where a `SKILL.md` is loaded.
const MAX_DEPTH: usize = 6;
/// The most directories listed below one root.
const MAX_DIRS: usize = 2_000;

/// The user's skill roots: `~/.agents/skills`, then `skills` in Codex's
/// home `home` (`~/.codex`, `$CODEX_HOME`); then the administrator's
/// `/etc/codex/skills`.
fn roots(home: &RepoPath) -> Vec<RepoPath> {
    [
        RepoPath::on_machine("~", ".agents/skills"),
        home.join("skills"),
        RepoPath::on_machine("/etc/codex", "skills"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The `SKILL.md` files below `root` on `machine`, breadth first, sorted.
pub(super) fn skill_files(machine: &Machine, root: &RepoPath) -> Vec<RepoPath> {
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([(root.clone(), 0usize)]);
    let mut listed = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        listed += 1;
        if listed > MAX_DIRS {
            break;
        }
        for e in machine.list_dir(&dir).unwrap_or_default() {
            let Some(p) = dir.join(&e.name).filter(|_| !e.name.starts_with('.')) else {
                continue;
            };
            match e.kind {
                EntryKind::Dir if depth < MAX_DEPTH => queue.push_back((p, depth + 1)),
                EntryKind::File if e.name == "SKILL.md" && depth > 0 => out.push(p),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// Adds the user's and the administrator's skills of `machine` to `out`,
/// each in its layer (`user`, `managed`); a file that cannot be read is
/// reported and left out.
pub(super) fn compile(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    home: &RepoPath,
    out: &mut Vec<Skill>,
) {
    for root in roots(home) {
        let place = Root {
            scan_dir: RepoPath::root(),
            path: root.clone(),
        };
        let scope = crate::user::scope_of(&root);
        for file in skill_files(machine, &root) {
            let before = cx.diags.len();
            if let Some(s) = read(cx, machine, &place, &file) {
                out.push(s);
            }
            for d in &mut cx.diags[before..] {
                if let Some(s) = d.source.as_mut().filter(|s| s.path.is_on_machine()) {
                    s.scope = scope;
                }
            }
        }
    }
}

/// One user or administrator skill, as [`build`] makes a project's, with
/// its provenance in its root's layer and a reason naming its root.
fn read(cx: &mut Cx<'_, '_>, machine: &Machine, root: &Root, file: &RepoPath) -> Option<Skill> {
    let text = match machine.read_text(file, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            crate::config::read_error(cx, file, e, SourceFormat::Markdown);
            return None;
        }
    };
    let dir_name = file.parent()?.file_name()?.to_string();
    let parsed = parse_front_matter(cx, file, &dir_name, &text, true);
    let pol = skill_file::Policy::default();
    let mut skill = build(cx, root, &dir_name, file, &parsed, pol, None);
    skill.source.scope = crate::user::scope_of(&root.path);
    let whose = match skill.source.scope {
        SourceScope::Managed => "administrator",
        _ => "user",
    };
    let found = format!("The {whose}'s skill in `{}`", root.path);
    skill.reason = match skill.applicability {
        Applicability::Effective => format!(
            "{found}: Codex lists its name, description and path at startup in every project."
        ),
        _ => format!("{found}; {}", skill.reason),
    };
    Some(skill)
}

//! Skills: `SKILL.md` files of the workspace's skill directories.
//!
//! Cursor's skills page (<https://cursor.com/docs/context/skills>): when
//! Cursor starts it discovers skills "from skill directories" and presents
//! them to the agent, which decides when one is relevant; the user can
//! also invoke one with `/`. The page as quoted does not list the
//! directories; third-party accounts of it
//! (<https://dev.to/skillsboard/cursor-skills-what-they-are-and-how-to-use-them-2d4i>)
//! give `.cursor/skills` and `.agents/skills`, and `.claude/skills` and
//! `.codex/skills` for compatibility. A skill is a folder holding a
//! `SKILL.md` with `name` and `description` front matter (the Agent Skills
//! standard). Of two skills with one name the first found is assumed kept,
//! in the order of [`ROOTS`].

use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, Diagnostic, DiagnosticCode, Invocation,
    LoadPhase, Permission, RepoPath, Skill, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, Resolved, TextFile};
use serde_json::Value;

/// The skill directories of the workspace, in the assumed precedence.
pub(crate) const ROOTS: &[&str] = &[
    ".cursor/skills",
    ".agents/skills",
    ".claude/skills",
    ".codex/skills",
];

/// The user's skill directory, read in local mode.
const USER_ROOT: &str = ".cursor/skills";

/// Compiles the skills of the workspace's roots, then in local mode
/// (`machine` given) the user's `~/.cursor/skills`
/// (<https://cursor.com/docs/context/skills>: user skills, in every
/// project; documented, not observed), a name the workspace has already
/// listed `shadowed`.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, machine: Option<&Machine>) -> Vec<Skill> {
    let cwd = cx.context.cwd.clone();
    let mut out: Vec<Skill> = Vec::new();
    for root in ROOTS {
        for file in files(cx, &cwd, root) {
            let text = cx.repo.read_text(&file, READ_LIMIT).ok();
            let place = format!("Found in the {root} of the workspace");
            let s = load(cx, &file, text.as_deref(), &place);
            admit(cx, &mut out, s);
        }
    }
    if let Some(m) = machine {
        for s in user(cx, m) {
            admit(cx, &mut out, s);
        }
    }
    out
}

/// Adds `s` to `out`, `shadowed` when an effective skill of its name is
/// there already (reported).
fn admit(cx: &mut Cx<'_, '_>, out: &mut Vec<Skill>, mut s: Skill) {
    let first = out
        .iter()
        .find(|p| p.name == s.name && p.applicability == Applicability::Effective);
    if let (Some(first), Applicability::Effective) = (first, s.applicability) {
        s.applicability = Applicability::Shadowed;
        s.reason = format!("{} A skill of the same name, {}, is found first, so Cursor is assumed to keep that one.", s.reason, first.source.path);
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNameCollision,
                format!("Two skills of the workspace are named {:?} ({} and {}); Cursor is assumed to keep the first.", s.name, problems::quote(&first.source.path), problems::quote(&s.source.path)),
            )
            .at(s.source.clone()),
        );
    }
    out.push(s);
}

/// The skills of the user's `~/.cursor/skills/*/SKILL.md` on `machine`,
/// in name order, in the user's layer.
fn user(cx: &mut Cx<'_, '_>, machine: &Machine) -> Vec<Skill> {
    let Some(base) = RepoPath::on_machine("~", USER_ROOT) else {
        return Vec::new();
    };
    let mut names: Vec<String> = machine
        .list_dir(&base)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.kind == EntryKind::Dir && !e.name.starts_with('.'))
        .map(|e| e.name)
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let Some(file) = base.child(&name).and_then(|d| d.child("SKILL.md")) else {
            continue;
        };
        let how = problems::UserMarkdown {
            effect: "Cursor cannot load that skill",
            non_utf8: problems::NonUtf8::Unobserved,
        };
        let before = cx.diags.len();
        let Some(text) =
            problems::read_user_markdown(machine, &file, READ_LIMIT, &how, &mut cx.diags)
        else {
            continue;
        };
        let place = format!("Found in the user's `{base}`");
        let mut skill = load(cx, &file, Some(&text), &place);
        skill.source.scope = SourceScope::User;
        for d in &mut cx.diags[before..] {
            if let Some(s) = d.source.as_mut() {
                s.scope = SourceScope::of_path(&s.path);
            }
        }
        out.push(skill);
    }
    out
}

/// The `*/SKILL.md` files of `dir`'s root `root`, in name order; links are
/// followed inside the repository, and one leading out of it is reported.
fn files(cx: &mut Cx<'_, '_>, dir: &RepoPath, root: &str) -> Vec<RepoPath> {
    let Some(base) = dir.join(root).filter(|b| cx.repo.is_dir(b)) else {
        return Vec::new();
    };
    let mut subs: Vec<String> = cx
        .repo
        .list_dir(&base)
        .iter()
        .filter(|e| !e.name.starts_with('.'))
        .map(|e| e.name.clone())
        .collect();
    subs.sort();
    let mut out = Vec::new();
    for name in subs {
        let Some(f) = base.child(&name).and_then(|d| d.child("SKILL.md")) else {
            continue;
        };
        match cx.repo.resolve(&f) {
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } => out.push(f),
            r @ Resolved::Outside { .. } => {
                if let Resolved::Outside { link, .. } = &r {
                    if let Some(d) = problems::link_problem(
                        &r,
                        link,
                        Some(&format!("The skill file {f}")),
                        "Cursor may load a skill from there, which the analysis cannot see",
                        SourceFormat::Markdown,
                    ) {
                        cx.diag(d);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Name and description of a `SKILL.md`'s front matter, and the line of
/// its closing fence; `None` without front matter.
fn fields(text: Option<&TextFile>) -> Option<(Option<String>, Option<String>, u32)> {
    let fm = text?.front_matter()?;
    let s = |k: &str| match &fm.value {
        Ok(Value::Object(m)) => m.get(k).and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    Some((s("name"), s("description"), fm.end_line))
}

/// The skill of `file`, its content `text`, found at `place` ("Found in
/// the .cursor/skills of the workspace").
fn load(cx: &mut Cx<'_, '_>, file: &RepoPath, text: Option<&TextFile>, place: &str) -> Skill {
    let dir_name = file
        .parent()
        .and_then(|d| d.file_name().map(str::to_string))
        .unwrap_or_default();
    let fm = fields(text);
    let mut source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    if let Some((_, _, end)) = fm {
        source = source.with_lines(1, end);
    }
    let has_front_matter = fm.is_some();
    let (name, description) = fm.map(|(n, d, _)| (n, d)).unwrap_or((None, None));
    let missing = match (has_front_matter, &description) {
        (false, _) => Some("it has no `---` front matter"),
        (_, None) => Some("its front matter has no string `description`"),
        _ => None,
    };
    if let Some(why) = missing {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillFieldMissing,
                format!("{} is assumed not loaded as a Cursor skill: {why}; add `name` and `description` front matter (the Agent Skills standard).", problems::quote(file)),
            )
            .at(source.clone()),
        );
    }
    let name = name.unwrap_or_else(|| dir_name.clone());
    let (applicability, reason, allowed, state) = match missing {
        Some(why) => (Applicability::Excluded, format!("{place}, but {why}, so Cursor is assumed to skip it."), Permission::Blocked, AdvertisementState::Hidden),
        None => (Applicability::Effective, format!("{place}; Cursor presents its name and description to the agent at startup, and the user can run it with `/` (documented, not observed)."), Permission::Allowed, AdvertisementState::Advertised),
    };
    Skill {
        id: format!("cursor:skill:{file}"),
        name,
        directory_name: dir_name,
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason,
        advertisement: Advertisement::new(
            state,
            description
                .as_deref()
                .map_or(0, |d| d.chars().count() as u64),
        ),
        description,
        invocation: Invocation {
            explicit: allowed,
            implicit: allowed,
        },
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

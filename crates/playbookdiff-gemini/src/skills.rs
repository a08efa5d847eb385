//! Skills: `SKILL.md` files of the launch directory's `.gemini/skills` and
//! `.agents/skills`.
//!
//! Gemini CLI (`loadSkillsFromDir` in `packages/core/src/skills/
//! skillLoader.ts`, `SkillManager.discoverSkills` in `skillManager.ts`):
//! in each root the files matching `SKILL.md` and `*/SKILL.md` (glob,
//! `node_modules` and `.git` ignored); a file loads when it starts with
//! `---` front matter holding string `name` and `description` (the name's
//! `: \ / < > * ? " |` become `-`); workspace skills load only in a trusted
//! folder; `.agents/skills` is added after `.gemini/skills`, so it wins a
//! name clash. Only cwd's roots are read: seen with 0.61.0 and 0.34.0, none
//! from `sub/`, and `.claude/skills` ignored. Loaded skills are listed to
//! the model in `<available_skills>` (name, description, location).
//!
//! In local mode the user's roots `~/.gemini/skills` and `~/.agents/skills`
//! are read too (`Storage.getUserSkillsDir` and `getUserAgentSkillsDir`),
//! added before the workspace's in both profiled releases
//! (`SkillManager.discoverSkills`: built-in, extensions, user, user
//! `.agents`, then the workspace's), so a workspace skill of the same name
//! wins and Gemini CLI warns "Skill conflict detected". User skills load in
//! an untrusted folder too. The release's built-in skills
//! (`discoverBuiltinSkills`, first and lowest) are listed before them,
//! from the profile's facts ([`Profile::shipped_skills`]); any user or
//! workspace skill of the same name replaces one. The `skills` folders
//! of the user's active extensions ([`crate::extensions`]) come between
//! the built-in skills and the user's, each skill in the layer `plugin`
//! (seen with 0.34.0 and 0.61.0: an extension's `review` lost to the
//! workspace's, case
//! `oracle.local_gemini_extensions.home-gemini-extensions`).

use crate::extensions::Extension;
use crate::profile::Profile;
use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_adapter::scope::place;
use playbookdiff_model::profile::BuiltinSkill;
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, Diagnostic, DiagnosticCode, Invocation,
    LoadPhase, Permission, RepoPath, Skill, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::markdown::parse_yaml_with;
use playbookdiff_source::{EntryKind, Machine, Resolved, TextFile};
use serde_json::Value;
use std::sync::Arc;

/// The skill roots of a launch directory, in the order Gemini CLI adds
/// them (the later wins a name clash).
pub(crate) const ROOTS: &[&str] = &[".gemini/skills", ".agents/skills"];

/// The user's skill roots, in the order Gemini CLI adds them, before
/// the workspace's.
const USER_ROOTS: &[&str] = &[".gemini/skills", ".agents/skills"];

/// Compiles the skills: the user's (local mode, `machine` given), then
/// those of cwd's roots, then the ones of the ancestors' roots, which
/// Gemini CLI does not read.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    (machine, extensions): (Option<&Machine>, &[Extension]),
) -> Vec<Skill> {
    let cwd = cx.context.cwd.clone();
    let mut out: Vec<Skill> = Vec::new();
    if let Some(m) = machine {
        out.extend(profile.shipped_skills().iter().map(|b| builtin(b, profile)));
        for ext in extensions.iter().filter(|e| e.active()) {
            let Some(base) = ext.file("skills") else {
                continue;
            };
            for mut s in user_skills(cx, m, &base, Found::Extension(&ext.name)) {
                s.source = s.source.in_plugin(&ext.key());
                add(cx, &mut out, s);
            }
        }
        for root in USER_ROOTS {
            let Some(base) = RepoPath::on_machine("~", root) else {
                continue;
            };
            for s in user_skills(cx, m, &base, Found::User(root)) {
                add(cx, &mut out, s);
            }
        }
    }
    for root in ROOTS {
        for file in files(cx, &cwd, root) {
            let text = cx.repo.read_text(&file, READ_LIMIT).ok();
            let s = load(cx, &file, Found::Cwd(root), text.as_deref());
            add(cx, &mut out, s);
        }
    }
    for dir in cwd.ancestors_root_first() {
        if dir == cwd {
            continue;
        }
        for (root, mut s) in of_dir(cx, &dir) {
            s.applicability = Applicability::OutOfScope;
            s.reason = format!("Found in the {root} of {}, a parent of cwd {cwd}; Gemini CLI reads skills only from the launch directory's own `.gemini/skills` and `.agents/skills`.", place(&dir));
            out.push(s);
        }
    }
    out
}

/// The built-in skill `b` of the release `profile` is, listed first, in
/// local mode (its provenance `builtin:NAME`, scope `builtin`: the
/// release's own, no file of the machine).
fn builtin(b: &BuiltinSkill, profile: &Profile) -> Skill {
    let reason = format!("Gemini CLI {} ships this skill and lists it to the model at startup, before the user's and the workspace's skills; a skill of theirs with the same name replaces it.", profile.release);
    b.skill("gemini", reason)
}

/// Adds `s` to `out`; an effective skill of the same name added before
/// is shadowed by it (the later wins), with a `skill-name-collision`
/// (none for a built-in skill replaced: Gemini CLI only logs it).
fn add(cx: &mut Cx<'_, '_>, out: &mut Vec<Skill>, s: Skill) {
    if s.applicability == Applicability::Effective {
        if let Some(prev) = out
            .iter_mut()
            .find(|p| p.name == s.name && p.applicability == Applicability::Effective)
        {
            if prev.source.scope == SourceScope::Builtin {
                prev.applicability = Applicability::Shadowed;
                prev.advertisement.state = AdvertisementState::Hidden;
                prev.reason = format!(
                    "{} {} has the same name, so Gemini CLI replaces its built-in skill with it.",
                    prev.reason, s.source.path
                );
                out.push(s);
                return;
            }
            prev.applicability = Applicability::Shadowed;
            prev.reason = format!("{} Skill {} of {} has the same name and is added later, so Gemini CLI keeps that one.", prev.reason, s.name, s.source.path);
            cx.diag(
                Diagnostic::new(DiagnosticCode::SkillNameCollision, collision(prev, &s))
                    .at(s.source.clone()),
            );
        }
    }
    out.push(s);
}

/// The message of a name clash between `prev` and the later `s`.
fn collision(prev: &Skill, s: &Skill) -> String {
    let (a, b) = (
        problems::quote(&prev.source.path),
        problems::quote(&s.source.path),
    );
    if prev.source.path.is_on_machine() {
        format!("Two skills are named {:?} ({a} and {b}); Gemini CLI keeps {b}, added later, and warns \"Skill conflict detected\".", s.name)
    } else {
        format!("Two skills of cwd are named {:?} ({a} and {b}); Gemini CLI keeps the one of `.agents/skills`.", s.name)
    }
}

/// The skills of the machine's root `base` (a user's root or an
/// extension's `skills` folder), found in `found`.
fn user_skills(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    base: &RepoPath,
    found: Found<'_>,
) -> Vec<Skill> {
    let mut out = Vec::new();
    for file in user_files(machine, base) {
        let how = problems::UserMarkdown {
            effect: "Gemini CLI may load this skill; its content is unknown",
            non_utf8: crate::NON_UTF8,
        };
        let Some(text) =
            problems::read_user_markdown(machine, &file, READ_LIMIT, &how, &mut cx.diags)
        else {
            continue;
        };
        out.push(load(cx, &file, found, Some(&text)));
    }
    out
}

/// The `SKILL.md` and `*/SKILL.md` files of the user's root `base` on
/// `machine`, links followed, in name order (names starting with `.` and
/// `node_modules` skipped, as [`files`] does).
fn user_files(machine: &Machine, base: &RepoPath) -> Vec<RepoPath> {
    let Ok(entries) = machine.list_dir(base) else {
        return Vec::new();
    };
    let is_file = |f: &RepoPath| machine.stat(f).is_ok_and(|st| st.kind == EntryKind::File);
    let mut out: Vec<RepoPath> = base
        .child("SKILL.md")
        .filter(|f| is_file(f))
        .into_iter()
        .collect();
    for e in entries {
        if e.name.starts_with('.') || e.name == "node_modules" || e.kind != EntryKind::Dir {
            continue;
        }
        if let Some(f) = base.child(&e.name).and_then(|d| d.child("SKILL.md")) {
            if is_file(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// The skills of `dir`'s roots with their root, each as if `dir` were
/// cwd ([`load`]). Read once per directory on one `Repo`: an ancestor's
/// skills are listed again from every launch directory below it.
fn of_dir(cx: &mut Cx<'_, '_>, dir: &RepoPath) -> Vec<(&'static str, Skill)> {
    /// The memo key: the directory.
    #[derive(Hash, PartialEq, Eq)]
    struct SkillsOf(RepoPath);
    cx.memo_read(SkillsOf(dir.clone()), |cx| {
        let mut out = Vec::new();
        for root in ROOTS {
            for file in files(cx, dir, root) {
                let text = cx.repo.read_text(&file, READ_LIMIT).ok();
                out.push((*root, load(cx, &file, Found::Cwd(root), text.as_deref())));
            }
        }
        out
    })
}

/// The `SKILL.md` files of `dir`'s root `root`: `SKILL.md` and
/// `*/SKILL.md` (the glob's `*` skips names starting with `.`), in name
/// order; links are followed, and one leading out of the repository is
/// reported and left out (the analysis does not read there).
fn files(cx: &mut Cx<'_, '_>, dir: &RepoPath, root: &str) -> Vec<RepoPath> {
    let Some(base) = dir.join(root) else {
        return Vec::new();
    };
    if !cx.repo.is_dir(&base) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(f) = base.child("SKILL.md").filter(|f| cx.repo.is_file(f)) {
        out.push(f);
    }
    let mut subs: Vec<String> = cx
        .repo
        .list_dir(&base)
        .iter()
        .filter(|e| !e.name.starts_with('.') && e.name != "node_modules")
        .map(|e| e.name.clone())
        .collect();
    subs.sort();
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
                    if let Some(d) = problems::link_problem(&r, link, Some(&format!("The skill file {f}")), "Gemini CLI follows the link and may load a skill from there, which the analysis cannot see", SourceFormat::Markdown) {
                        cx.diag(d);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Name and description from front matter `yaml`: YAML strings (YAML 1.2
/// booleans, as js-yaml reads them), else the line parser Gemini CLI
/// falls back to ([`simple_fields`]), also when the YAML parses but either
/// is not a string: a `description` of `true` or `null` is then the text
/// `true` or `null`, and `name: "deploy"` keeps its quotes (listed as
/// `-deploy-`; seen with 0.61.0, fuzzer seeds 4, 11, 12, 15, 20, 35 and
/// 48).
fn fields(yaml: &str) -> (Option<String>, Option<String>) {
    if let Ok(Value::Object(m)) = parse_yaml_with(yaml, true) {
        let s = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        if let (Some(name), Some(description)) = (s("name"), s("description")) {
            return (Some(name), Some(description));
        }
    }
    simple_fields(yaml)
}

/// Gemini CLI's `parseSimpleFrontmatter` (`skillLoader.ts`, 0.34.0 and
/// 0.61.0), over the lines of `yaml` split at `\n` or `\r\n`: the last
/// `name:` line gives the name; the last `description:` line gives the
/// description, with each following line that is indented by spaces or
/// tabs (`/^[ \t]+\S/`), all trimmed, the empty ones dropped, joined by
/// one space. Either is `None` when no such line exists.
fn simple_fields(yaml: &str) -> (Option<String>, Option<String>) {
    let lines: Vec<&str> = yaml
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(v) = line.strip_prefix("name:") {
            name = Some(v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("description:") {
            let mut parts = vec![v.trim()];
            while let Some(next) = lines.get(i + 1).filter(|n| continues(n)) {
                parts.push(next.trim());
                i += 1;
            }
            parts.retain(|p| !p.is_empty());
            description = Some(parts.join(" "));
        }
        i += 1;
    }
    (name, description)
}

/// Whether `line` continues a description: spaces or tabs, then a
/// character that is not white space.
fn continues(line: &str) -> bool {
    let rest = line.trim_start_matches([' ', '\t']);
    rest.len() < line.len() && rest.chars().next().is_some_and(|c| !c.is_whitespace())
}

/// What Gemini CLI reads in the front matter of a `SKILL.md`
/// ([`crate::frontmatter::split`], [`fields`]).
struct SkillFront {
    /// The 1-based line of the closing fence.
    end_line: u32,
    /// `name`, when a string.
    name: Option<String>,
    /// `description`, when a string.
    description: Option<String>,
    /// Whether the YAML does not parse, so both come from Gemini CLI's
    /// line parser ([`simple_fields`]).
    not_yaml: bool,
}

/// The front matter of `text` as Gemini CLI reads a `SKILL.md` (`None`
/// inside when there is none), read once per file and shared by the
/// compilations of every launch directory (an ancestor's skills are read
/// again from each directory below it).
struct ReadFront(Option<SkillFront>);

/// [`ReadFront`] of `text`, parsed on first use.
fn read_front(text: &TextFile) -> Arc<ReadFront> {
    text.parsed_as(|t| {
        ReadFront(crate::frontmatter::split(t).map(|(yaml, end_line)| {
            let (name, description) = fields(yaml);
            SkillFront {
                end_line,
                name,
                description,
                not_yaml: parse_yaml_with(yaml, true).is_err(),
            }
        }))
    })
}

/// The front matter of `file` (at `source`) is not valid YAML, and Gemini
/// CLI reads `name` and `description` from their lines instead
/// ([`simple_fields`]): an informational `invalid-frontmatter`.
fn line_parsed(file: &RepoPath, source: &SourceRef) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::InvalidFrontmatter,
        format!(
            "The front matter of {} is not valid YAML; Gemini CLI then reads `name` and `description` from their own lines, and that reading is used. Fix the YAML so other tools read it the same way.",
            problems::quote(file)
        ),
    )
    .at(source.clone())
    .with_severity(playbookdiff_model::Severity::Info)
}

/// Where a skill file was found, as its reason says it.
#[derive(Clone, Copy)]
enum Found<'a> {
    /// In the root of this name (`.gemini/skills`) of cwd.
    Cwd(&'a str),
    /// In the user's root of this name, below the home.
    User(&'a str),
    /// In the `skills` folder of the user's extension of this name.
    Extension(&'a str),
}

impl std::fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::Cwd(root) => write!(f, "the {root} of cwd"),
            Found::User(root) => write!(f, "the user's `~/{root}`"),
            Found::Extension(name) => {
                write!(f, "the `skills` folder of the user's extension `{name}`")
            }
        }
    }
}

/// The skill of `file`, found in `found`, holding `text` (`None`:
/// unreadable); in the user's layer when found there.
fn load(cx: &mut Cx<'_, '_>, file: &RepoPath, found: Found<'_>, text: Option<&TextFile>) -> Skill {
    let dir_name = file
        .parent()
        .and_then(|d| d.file_name().map(str::to_string))
        .unwrap_or_default();
    let read = text.map(read_front);
    let fm = read.as_deref().and_then(|r| r.0.as_ref());
    let (name, description) = fm
        .map(|f| (f.name.clone(), f.description.clone()))
        .unwrap_or((None, None));
    let mut source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    if let Found::User(_) | Found::Extension(_) = found {
        source.scope = SourceScope::User;
    }
    if let Some(f) = fm {
        source = source.with_lines(1, f.end_line);
    }
    let missing = match (&fm, &name, &description) {
        (None, ..) => Some("it does not start with `---` front matter"),
        (_, None, _) => Some("its front matter has no string `name`"),
        (_, _, None) => Some("its front matter has no string `description`"),
        _ => None,
    };
    if fm.is_some_and(|f| f.not_yaml) {
        cx.diag(line_parsed(file, &source));
    }
    if let Some(why) = missing {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillFieldMissing,
                format!("{} is not loaded as a Gemini CLI skill: {why}; add `name` and `description` front matter.", problems::quote(file)),
            )
            .at(source.clone()),
        );
    }
    let name = name
        .map(|n| n.replace([':', '\\', '/', '<', '>', '*', '?', '"', '|'], "-"))
        .unwrap_or_else(|| dir_name.clone());
    let (applicability, reason, allowed, state) = match missing {
        Some(why) => (Applicability::Excluded, format!("Found in {found}, but {why}, so Gemini CLI skips it."), Permission::Blocked, AdvertisementState::Hidden),
        None => (Applicability::Effective, format!("Found in {found}; Gemini CLI lists its name, description and location to the model at startup."), Permission::Allowed, AdvertisementState::Advertised),
    };
    Skill {
        id: format!("gemini:skill:{file}"),
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

#[cfg(test)]
mod tests {
    use super::fields;

    /// YAML strings first, else the `name:` and `description:` lines as
    /// `parseSimpleFrontmatter` reads them: the last of each, indented
    /// lines continuing the description (the fuzzer's malformed front
    /// matter ends with `  : [unbalanced`, which Gemini CLI appends).
    #[test]
    fn fields_of_front_matter() {
        let cases: &[(&str, Option<&str>, Option<&str>)] = &[
            ("name: a\ndescription: b", Some("a"), Some("b")),
            ("name: a\ndescription: on # c", Some("a"), Some("on")),
            (
                "name: a\ndescription: b c\n  : [unbalanced",
                Some("a"),
                Some("b c : [unbalanced"),
            ),
            ("name: a\nname: z\ndescription: [b", Some("z"), Some("[b")),
            (
                "description: b\n\t more\n  \n  last\nname: \"n\"",
                Some("\"n\""),
                Some("b more"),
            ),
            ("name: a\r\ndescription: 1\r\n", Some("a"), Some("1")),
            ("name: a", Some("a"), None),
        ];
        for &(yaml, name, description) in cases {
            let (n, d) = fields(yaml);
            assert_eq!(
                (n.as_deref(), d.as_deref()),
                (name, description),
                "{yaml:?}"
            );
        }
    }
}

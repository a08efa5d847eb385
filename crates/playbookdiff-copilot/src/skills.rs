//! Skills: `SKILL.md` files under `.github/skills`, `.agents/skills` and
//! `.claude/skills`, and Claude Code's `.claude/commands/*.md` as skills
//! named by their file, in the directories from the git root down to the
//! launch directory (seen with 1.0.102 and 1.0.24: `session.skills_loaded`
//! lists them with `source: "project"`, and the system prompt's
//! `<available_skills>` gives name and description; the command
//! `deploy.md` appeared as skill `deploy`). A change made for Claude Code in
//! `.claude/skills` or `.claude/commands` changes what Copilot CLI
//! receives too.
//!
//! A `SKILL.md` whose front matter Copilot CLI refuses is not listed (seen
//! with 1.0.24 and 1.0.102 on case `oracle.copilot_skill_rules`, one change
//! per skill; 1.0.24's source validates the front matter with a schema and
//! drops the skill on any error): YAML that does not parse (trigger.dev's
//! `drizzle`, whose plain `description` holds `: `), a `name` outside
//! [`Profile::skill_name_punctuation`] or longer than 64, a `description`
//! longer than 1024 (a JavaScript string's length: UTF-16 code units),
//! or a field of the wrong type (`description` a list, `user-invocable:
//! "no"`). A plain-string `allowed-tools` is accepted. A command file with
//! a field of the wrong type is not listed either (seen with 1.0.102,
//! fuzzer seed 400: `description: [a, b]` in `.claude/commands/fix.md`).
//! Before 0.0.410 a skill needs a `name`, of ASCII letters, digits and
//! `-` ([`Profile::skill_names`]). Before 0.0.401 `.agents/skills` is not
//! read ([`Profile::skill_roots`]), before 0.0.399 neither are the
//! commands ([`Profile::claude_commands`]).
//!
//! In local mode the user's roots ([`Profile::user_skill_roots`]:
//! `~/.copilot/skills`, `~/.agents/skills`, and with 1.0.24
//! `~/.claude/skills`) are read after the repository's, searched as the
//! release searches a repository root; of two skills with one name the
//! first found is kept, so a project skill wins over the user's. A skill
//! that `disabledSkills` of the user's settings names is `excluded`
//! ([`disable`]). The release's built-in skills
//! ([`Profile::shipped_skills`]) come last, named `builtin:NAME` with
//! scope `builtin` ([`builtin`]).
//!
//! The directories are searched from the launch directory up to the git
//! root: of two skills with one name in different directories, the one
//! closer to the launch directory is listed (seen with 1.0.24 and
//! 1.0.102: `oracle.copilot_skill_same_name_below`, and fuzzer seed 448,
//! `fuzz.copilot.448`); within one directory the order of [`ROOTS`] is
//! assumed.

use crate::profile::{SkillNames, SkillSearch};
use crate::{Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{self, NonUtf8};
use playbookdiff_adapter::scope::place;
use playbookdiff_model::profile::BuiltinSkill;
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, Diagnostic, DiagnosticCode, Invocation,
    LoadPhase, Permission, RepoPath, Skill, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, TextFile};
use serde_json::Value;

/// The skill roots of a directory, in the order Copilot CLI lists them
/// (the newest releases' [`Profile::skill_roots`]).
pub(crate) const ROOTS: &[&str] = &[".github/skills", ".agents/skills", ".claude/skills"];

/// The longest skill name Copilot CLI accepts, in characters (1.0.24's
/// schema; 1.0.102 listed a name of 64 and not one of 65).
const NAME_MAX: usize = 64;

/// The longest description Copilot CLI accepts, in UTF-16 code units
/// (1.0.24's schema; seen with both releases: 1024 listed, 1030 not).
const DESCRIPTION_MAX: usize = 1024;

/// How deep [`SkillSearch::Nested`] searches below a root: a guard of the
/// analysis (the agent was seen listing a skill 5 folders deep; its own
/// limit is not known).
const NESTED_DEPTH_MAX: usize = 16;

/// Compiles the skills of every directory from cwd up to the git root,
/// then in local mode (`machine` given) the user's; of two with one name
/// the first found is kept, so the directory closer to cwd wins (seen
/// with 1.0.24 and 1.0.102, case `oracle.copilot_skill_same_name_below`).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: Option<&Machine>,
) -> Vec<Skill> {
    let chain = crate::chain(cx);
    let mut out = Vec::new();
    for dir in chain.iter().skip(1).rev() {
        for (s, diags) in of_dir(cx, profile, dir.clone()) {
            cx.diags.extend(diags);
            push(cx, &mut out, s);
        }
    }
    if let Some(top) = chain.first() {
        for s in of_git_root(cx, profile, top.clone()) {
            push(cx, &mut out, s);
        }
    }
    for s in machine.map(|m| of_user(cx, profile, m)).unwrap_or_default() {
        push(cx, &mut out, s);
    }
    for s in machine
        .map(|m| of_plugins(cx, profile, m))
        .unwrap_or_default()
    {
        push(cx, &mut out, s);
    }
    if let Some(m) = machine {
        for b in profile.shipped_skills() {
            out.push(builtin(&b, &out));
        }
        disable(m, profile, &mut out);
    }
    if !profile.skills_read {
        out.iter_mut()
            .filter(|s| s.applicability == Applicability::Effective)
            .for_each(not_read);
    }
    out
}

/// Marks `s` as not read: the release reads no skill
/// ([`Profile::skills_read`]).
fn not_read(s: &mut Skill) {
    let since = crate::profile::since(crate::profile::Fact::SkillsRead);
    s.applicability = Applicability::Excluded;
    s.advertisement = Advertisement::new(AdvertisementState::Hidden, 0);
    s.invocation = Invocation {
        explicit: Permission::Blocked,
        implicit: Permission::Blocked,
    };
    s.reason = format!(
        "{} This release reads no skill (Copilot CLI reads them from {since} on).",
        s.reason
    );
}

/// The release's built-in skill `b` (local mode), listed after every
/// discovered skill in `found`: effective, or shadowed when an effective
/// one of `found` has its name, which Copilot CLI lists instead (seen
/// with 1.0.24 and 1.0.102 on case
/// `oracle.local_user_layers.home-copilot-builtin-skill`). Its provenance
/// is `builtin:NAME`, scope `builtin`; its front matter says
/// `user-invocable: false`, so only the model invokes it.
fn builtin(b: &BuiltinSkill, found: &[Skill]) -> Skill {
    let replaced = found
        .iter()
        .find(|s| s.name == b.name && s.applicability == Applicability::Effective)
        .map(|s| s.source.path.clone());
    let reason = match &replaced {
        Some(p) => format!("Copilot CLI ships this skill (`builtin-skills/{}` of its package), but {p} has the same name and is found first, so Copilot CLI lists that one.", b.name),
        None => format!("Copilot CLI ships this skill (`builtin-skills/{}` of its package) and lists it to the model at startup after the discovered skills; only the model invokes it (`user-invocable: false`).", b.name),
    };
    let mut skill = b.skill("copilot", reason);
    skill.invocation.explicit = Permission::Blocked;
    if replaced.is_some() {
        skill.applicability = Applicability::Shadowed;
        skill.advertisement.state = AdvertisementState::Hidden;
    }
    skill
}

/// Excludes the skills that `disabledSkills` of the user's settings
/// ([`Profile::user_settings`]) names, a project's or the user's alike:
/// Copilot CLI loads them marked `enabled: false` (seen with 1.0.24,
/// which reads `~/.copilot/config.json`, and 1.0.102, which reads
/// `~/.copilot/settings.json` and not the list of `config.json`, on case
/// `oracle.local_user_layers.home-copilot-disabled-skills`). A file that
/// cannot be used is reported where its hooks are read.
fn disable(machine: &Machine, profile: &Profile, skills: &mut [Skill]) {
    let Some(path) = RepoPath::on_machine("~", profile.user_settings) else {
        return;
    };
    let crate::json::Loaded::File(j) = crate::json::load_user(machine, &path, "", &mut Vec::new())
    else {
        return;
    };
    let Some(names) = j.value.get("disabledSkills").and_then(Value::as_array) else {
        return;
    };
    let source = j.source(&["disabledSkills"]);
    for s in skills.iter_mut().filter(|s| {
        s.applicability == Applicability::Effective
            && names.iter().any(|n| n.as_str() == Some(s.name.as_str()))
    }) {
        s.applicability = Applicability::Excluded;
        s.reason =
            format!(
            "{} `disabledSkills` of `{}` (lines {}) names it, so Copilot CLI loads it disabled.",
            s.reason,
            source.path,
            source.lines.map_or(String::new(), |l| format!("{}-{}", l.start, l.end)),
        );
    }
}

/// How Copilot CLI reads a user's `SKILL.md`: one that is not valid UTF-8
/// is listed, its invalid bytes read as U+FFFD (seen with 1.0.24 and
/// 1.0.102, case `oracle.local_user_layers.home-copilot-non-utf8`: the
/// skill `latin1` listed).
const USER_SKILL: problems::UserMarkdown<'static> = problems::UserMarkdown {
    effect: "Copilot CLI may list this skill; its content is unknown",
    non_utf8: NonUtf8::Replaced(crate::HARNESS.display_name()),
};

/// The skills of the user's roots on `machine`, in the release's order.
fn of_user(cx: &mut Cx<'_, '_>, profile: &Profile, machine: &Machine) -> Vec<Skill> {
    let tree = Tree {
        list: &|d| machine_entries(machine, d),
        is_file: &|f| machine_is_file(machine, f),
    };
    let mut out = Vec::new();
    for root in profile.user_skill_roots {
        let Some(base) = RepoPath::on_machine("~", root) else {
            continue;
        };
        let mut files = Vec::new();
        search(&tree, profile, &base, 0, &mut files);
        for file in files {
            let Some(text) = problems::read_user_markdown(
                machine,
                &file,
                READ_LIMIT,
                &USER_SKILL,
                &mut cx.diags,
            ) else {
                continue;
            };
            let found = Found::User(root);
            let mut s = load(cx, &file, found, None, Some(&text));
            refuse_invalid(cx, profile, &mut s, Some(&text));
            out.push(s);
        }
    }
    out
}

/// The skills of the enabled installed plugins on `machine`
/// ([`crate::plugins`]), plugin by plugin: those of its `skills` folders
/// ([`crate::plugins::paths`]), searched as the release searches a
/// repository root, then its commands (the `*.md` files of its
/// `commands` folders), named by their file.
fn of_plugins(cx: &mut Cx<'_, '_>, profile: &Profile, machine: &Machine) -> Vec<Skill> {
    let tree = Tree {
        list: &|d| machine_entries(machine, d),
        is_file: &|f| machine_is_file(machine, f),
    };
    let mut out = Vec::new();
    let repository = crate::plugins::repository_map(cx, profile);
    for plugin in crate::plugins::installed(machine, profile, repository.as_ref(), &mut cx.diags) {
        let mut files = Vec::new();
        for base in crate::plugins::paths(machine, &plugin.skills_root, "skills") {
            search(&tree, profile, &base, 0, &mut files);
        }
        let commands: Vec<RepoPath> =
            crate::plugins::paths(machine, &plugin.skills_root, "commands")
                .iter()
                .flat_map(|d| crate::plugins::markdown_in(machine, d))
                .collect();
        let stems = commands.iter().map(|f| {
            f.file_name()
                .and_then(|n| n.strip_suffix(".md"))
                .map(str::to_string)
        });
        let all = files
            .iter()
            .map(|f| (f, None))
            .chain(commands.iter().zip(stems));
        for (file, command) in all {
            let how = problems::UserMarkdown {
                non_utf8: NonUtf8::Unobserved,
                ..USER_SKILL
            };
            let Some(text) =
                problems::read_user_markdown(machine, file, READ_LIMIT, &how, &mut cx.diags)
            else {
                continue;
            };
            let is_command = command.is_some();
            let mut s = load(cx, file, Found::Plugin(&plugin.key), command, Some(&text));
            s.source = s.source.in_plugin(&plugin.key);
            if is_command {
                if let Some(why) = command_refusal(&text, profile, &s) {
                    exclude(cx, &mut s, why);
                }
            } else {
                refuse_invalid(cx, profile, &mut s, Some(&text));
            }
            out.push(s);
        }
    }
    out
}

/// How [`search`] lists a directory and tells a file: the repository's,
/// or the user's machine.
struct Tree<'a> {
    /// The entries of a directory, by name, with their kinds.
    list: &'a dyn Fn(&RepoPath) -> Vec<(String, EntryKind)>,
    /// Whether a path is a file (a link followed).
    is_file: &'a dyn Fn(&RepoPath) -> bool,
}

/// A directory's entries on the user's `machine`, by name with their
/// kinds (none when it cannot be listed): [`Tree::list`] there.
fn machine_entries(machine: &Machine, d: &RepoPath) -> Vec<(String, EntryKind)> {
    machine
        .list_dir(d)
        .unwrap_or_default()
        .into_iter()
        .map(|e| (e.name, e.kind))
        .collect()
}

/// Whether `f` is a file on the user's `machine`, a link followed:
/// [`Tree::is_file`] there.
fn machine_is_file(machine: &Machine, f: &RepoPath) -> bool {
    machine.stat(f).is_ok_and(|s| s.kind == EntryKind::File)
}

/// Where a skill file was found, as its reason says it.
#[derive(Clone, Copy)]
enum Found<'a> {
    /// In the root of this name (`.github/skills`) of this directory.
    Repo(&'a str, &'a RepoPath),
    /// In the user's root of this name, below the home.
    User(&'a str),
    /// In the installed plugin of this key (`NAME@MARKETPLACE`).
    Plugin(&'a str),
}

/// The skills of git root `top`, the first directory of every chain below
/// it, with those of one name shadowed ([`push`]): the same for every
/// launch directory below it, so compared once per `Repo`.
fn of_git_root(cx: &mut Cx<'_, '_>, profile: &Profile, top: RepoPath) -> Vec<Skill> {
    /// The memo key: the git root and the release.
    #[derive(Hash, PartialEq, Eq)]
    struct SkillsFrom(RepoPath, &'static str);
    cx.memo_read(SkillsFrom(top.clone(), profile.release), |cx| {
        let mut out = Vec::new();
        for (s, diags) in of_dir(cx, profile, top) {
            cx.diags.extend(diags);
            push(cx, &mut out, s);
        }
        out
    })
}

/// The skills of directory `dir` in the order found, each with the
/// diagnostics reading it reported, before names are compared across
/// directories ([`push`]). Read once per directory and release on one
/// `Repo`: the git root's skills are in every launch directory's chain.
fn of_dir(cx: &mut Cx<'_, '_>, profile: &Profile, dir: RepoPath) -> Vec<(Skill, Vec<Diagnostic>)> {
    /// The memo key: the directory and the release.
    #[derive(Hash, PartialEq, Eq)]
    struct SkillsOf(RepoPath, &'static str);
    cx.memo_read(SkillsOf(dir.clone(), profile.release), |cx| {
        let mut out = Vec::new();
        for root in profile.skill_roots {
            for file in skill_files(cx, profile, &dir, root) {
                let before = cx.diags.len();
                let text = cx.repo.read_text(&file, READ_LIMIT).ok();
                let mut s = load(cx, &file, Found::Repo(root, &dir), None, text.as_deref());
                refuse_invalid(cx, profile, &mut s, text.as_deref());
                out.push((s, cx.diags.split_off(before)));
            }
        }
        let commands = if profile.claude_commands {
            command_files(cx, &dir)
        } else {
            Vec::new()
        };
        for file in commands {
            let stem = file
                .file_name()
                .and_then(|n| n.strip_suffix(".md"))
                .unwrap_or_default()
                .to_string();
            let before = cx.diags.len();
            let text = cx.repo.read_text(&file, READ_LIMIT).ok();
            let found = Found::Repo(".claude/commands", &dir);
            let mut s = load(cx, &file, found, Some(stem), text.as_deref());
            if s.applicability == Applicability::Effective {
                if let Some(why) = text
                    .as_deref()
                    .and_then(|t| command_refusal(t, profile, &s))
                {
                    exclude(cx, &mut s, why);
                }
            }
            out.push((s, cx.diags.split_off(before)));
        }
        out
    })
}

/// Adds `s`, shadowing it when an effective skill already has its name.
fn push(cx: &mut Cx<'_, '_>, out: &mut Vec<Skill>, mut s: Skill) {
    let first = out
        .iter()
        .find(|p| p.name == s.name && p.applicability == Applicability::Effective)
        .map(|p| p.source.path.clone());
    if let (Some(first), Applicability::Effective) = (first, s.applicability) {
        s.applicability = Applicability::Shadowed;
        s.reason = format!("{} Skill {} of {first} has the same name and is found first (a directory closer to the launch directory, or an earlier root of one directory), so Copilot CLI lists that one (assumed within one directory: the order of its roots).", s.reason, s.name);
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNameCollision,
                format!("Two skills are named {:?} ({} and {}); Copilot CLI lists one, assumed the first found.", s.name, problems::quote(&first), problems::quote(&s.source.path)),
            )
            .at(s.source.clone()),
        );
    }
    out.push(s);
}

/// The `SKILL.md` files of `dir`'s root `root`, in the order `profile`'s
/// search finds them.
fn skill_files(cx: &Cx<'_, '_>, profile: &Profile, dir: &RepoPath, root: &str) -> Vec<RepoPath> {
    let Some(base) = dir.join(root).filter(|b| cx.repo.is_dir(b)) else {
        return Vec::new();
    };
    let tree = Tree {
        list: &|d| {
            cx.repo
                .list_dir(d)
                .iter()
                .map(|e| (e.name.clone(), e.kind))
                .collect()
        },
        is_file: &|f| cx.repo.is_file(f),
    };
    let mut out = Vec::new();
    search(&tree, profile, &base, 0, &mut out);
    out
}

/// Adds the `SKILL.md` of each subfolder of `folder` by name; with
/// [`SkillSearch::Nested`], searches a real subfolder without one further.
fn search(
    tree: &Tree<'_>,
    profile: &Profile,
    folder: &RepoPath,
    depth: usize,
    out: &mut Vec<RepoPath>,
) {
    let nested = profile.skill_search == SkillSearch::Nested && depth < NESTED_DEPTH_MAX;
    for (name, kind) in (tree.list)(folder) {
        if name.starts_with('.') && !profile.skill_dot_folders {
            continue;
        }
        let Some(sub) = folder.child(&name) else {
            continue;
        };
        match sub.child("SKILL.md").filter(|f| (tree.is_file)(f)) {
            Some(file) => out.push(file),
            None if nested && kind == EntryKind::Dir => search(tree, profile, &sub, depth + 1, out),
            None => {}
        }
    }
}

/// The `.claude/commands/*.md` files of `dir`, by name.
fn command_files(cx: &Cx<'_, '_>, dir: &RepoPath) -> Vec<RepoPath> {
    let Some(base) = dir.join(".claude/commands").filter(|b| cx.repo.is_dir(b)) else {
        return Vec::new();
    };
    let mut out: Vec<RepoPath> = cx
        .repo
        .list_dir(&base)
        .iter()
        .filter(|e| e.name.ends_with(".md"))
        .filter_map(|e| base.child(&e.name))
        .filter(|f| cx.repo.is_file(f))
        .collect();
    out.sort();
    out
}

/// Whether a command file's text, white space and byte order mark
/// trimmed, starts with `---`: then Copilot CLI takes it for front matter
/// and refuses the file when that does not parse (1.0.24 `app.js`, the
/// command loader: a parse error is returned only when
/// `text.trimStart().startsWith("---")`; a file without front matter is
/// listed under its file name, seen with 1.0.102 on fuzzer seeds 22 and
/// 66).
fn opens_front_matter(text: &TextFile) -> bool {
    text.text
        .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .starts_with("---")
}

/// Why Copilot CLI does not list command `s` of file text `text`: with
/// front matter, what refuses a skill's ([`refusal`]: YAML that does not
/// parse, seen with 1.0.102 on fuzzer seed 69, `  : [unbalanced` left
/// `fix.md` out; a field of the wrong type; a name or description too
/// long, seen on seeds 95 and 99, a `name` of 70 letters); without, a
/// file name that is no valid name (1.0.24 `app.js`, the command loader
/// and its schema); `None` when it lists the file.
fn command_refusal(text: &TextFile, profile: &Profile, s: &Skill) -> Option<String> {
    if text.front_matter().is_some() {
        return refusal(text, profile, s);
    }
    (!valid_name(profile, s.name.trim())).then(|| {
        format!(
            "its file name {:?} is no valid skill name (longer than {NAME_MAX} characters, or a character other than {})",
            s.name,
            allowed(profile)
        )
    })
}

/// A command file that starts with `---` ([`opens_front_matter`]) but
/// holds no front matter opened on its first line, which Copilot CLI does
/// not list (seen with 1.0.24 and 1.0.102: humanlayer's
/// `.claude/commands/create_worktree.md`, whose `---` follows an empty
/// line, was the one command of 27 missing from `session.skills_loaded`).
fn skipped_command(file: &RepoPath, dir: &RepoPath, name: String, source: SourceRef) -> Skill {
    Skill {
        id: format!("copilot:skill:{file}"),
        name: name.clone(),
        directory_name: name,
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Excluded,
        reason: format!("Found in the .claude/commands of {}, but its `---` does not open front matter on the first line, so Copilot CLI does not list it as a skill (Claude Code still offers the command).", place(dir)),
        advertisement: Advertisement::new(AdvertisementState::Hidden, 0),
        description: None,
        invocation: Invocation {
            explicit: Permission::Blocked,
            implicit: Permission::Blocked,
        },
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

/// The skill of `file`, `found` there, holding `text` (`None`:
/// unreadable); `command` is the name of a command file (its stem),
/// `None` for a `SKILL.md`.
fn load(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    found: Found<'_>,
    command: Option<String>,
    text: Option<&TextFile>,
) -> Skill {
    let dir_name = command.clone().unwrap_or_else(|| {
        file.parent()
            .and_then(|d| d.file_name().map(str::to_string))
            .unwrap_or_default()
    });
    let fm = text.and_then(TextFile::front_matter);
    let mut source = SourceRef {
        scope: SourceScope::of_path(file),
        ..SourceRef::project(file.clone(), SourceFormat::Markdown)
    };
    let mut value = None;
    if let Some(f) = fm {
        source = source.with_lines(f.start_line, f.end_line);
        match &f.value {
            Ok(v) => value = Some(v),
            Err(e) => cx.diag(problems::invalid_syntax(
                file,
                "YAML",
                e,
                "Copilot CLI cannot read the skill's name and description",
                SourceFormat::Markdown,
            )),
        }
    }
    let field = |k: &str| {
        value
            .as_ref()
            .and_then(|v| v.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    if let (Some(_), None, Found::Repo(_, dir)) = (&command, fm, found) {
        if text.is_some_and(opens_front_matter) {
            return skipped_command(file, dir, dir_name, source);
        }
    }
    // Spaces become `-` (seen with 1.0.24 and 1.0.102: `name: My Skill`
    // of case `oracle.dot_dirs_symlinked` was listed as `My-Skill`).
    let name = field("name")
        .unwrap_or_else(|| dir_name.clone())
        .replace(' ', "-");
    let description = field("description");
    let what = if let (Some(_), Found::Plugin(_)) = (&command, found) {
        "a command of the plugin, which Copilot CLI lists as a skill named by its file"
    } else if command.is_some() {
        "a Claude Code command, which Copilot CLI lists as a skill named by its file"
    } else {
        "a skill"
    };
    let (root, whence) = match found {
        Found::Repo(root, dir) => (root, format!("the {root} of {}", place(dir))),
        Found::User(root) => (root, format!("the user's `~/{root}`")),
        Found::Plugin(key) => ("", format!("the installed plugin `{key}`")),
    };
    let shared = if root.starts_with(".claude") || root.starts_with(".agents") {
        "; Copilot CLI reads this folder of another agent's convention, so a change made for that agent changes what Copilot CLI receives too"
    } else {
        ""
    };
    let reason = format!("Found in {whence}: {what}; Copilot CLI lists its name and description to the model at startup{shared}.");
    Skill {
        id: format!("copilot:skill:{file}"),
        name,
        directory_name: dir_name,
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason,
        advertisement: Advertisement::new(
            AdvertisementState::Advertised,
            description
                .as_deref()
                .map_or(0, |d| d.chars().count() as u64),
        ),
        description,
        invocation: Invocation {
            explicit: Permission::Allowed,
            implicit: Permission::Allowed,
        },
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

/// Marks `s` excluded, with an `invalid-value` diagnostic at its front
/// matter, when Copilot CLI refuses its front matter (see the module
/// documentation); a YAML error was already reported while loading.
fn refuse_invalid(cx: &mut Cx<'_, '_>, profile: &Profile, s: &mut Skill, text: Option<&TextFile>) {
    if let Some(why) = text.and_then(|t| refusal(t, profile, s)) {
        exclude(cx, s, why);
    }
}

/// Marks `s` excluded because Copilot CLI refuses its front matter for
/// `why`, with a `skill-field-invalid` diagnostic at its front matter.
fn exclude(cx: &mut Cx<'_, '_>, s: &mut Skill, why: String) {
    s.applicability = Applicability::Excluded;
    s.advertisement = Advertisement::new(AdvertisementState::Hidden, 0);
    s.invocation = Invocation {
        explicit: Permission::Blocked,
        implicit: Permission::Blocked,
    };
    s.reason = format!("{} Copilot CLI does not list it: {why}.", s.reason);
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::SkillFieldInvalid,
            format!(
                "Copilot CLI does not list the skill of {}: {why}; fix the front matter.",
                problems::quote(&s.source.path)
            ),
        )
        .at(s.source.clone()),
    );
}

/// Why Copilot CLI refuses the front matter of skill `s`, whose file
/// holds `text`, if it does.
fn refusal(text: &TextFile, profile: &Profile, s: &Skill) -> Option<String> {
    // Without front matter opened on the first line and closed by `---`
    // (a blank first line, no close, or YAML's `...`), the skill is not
    // listed: seen with 1.0.24 and 1.0.102, case `oracle.edge_frontmatter`.
    let Some(fm) = text.front_matter().filter(|fm| !fm.closed_by_dots) else {
        return Some(
            "it has no front matter opened on its first line and closed by `---`".to_string(),
        );
    };
    let Ok(value) = &fm.value else {
        return Some("its front matter is not valid YAML".to_string());
    };
    if let Some(why) = wrong_type(value, &fm.yaml, profile) {
        return Some(why);
    }
    // A command is named by its file (seen with 0.0.399, case
    // `copilot.skills_agents_mcp`: `deploy.md`, whose front matter has no
    // `name`, listed as `deploy`).
    let is_skill_file = s.source.path.file_name() == Some("SKILL.md");
    if profile.skill_names == SkillNames::HyphensOnly
        && is_skill_file
        && value.get("name").is_none()
    {
        return Some(format!(
            "its front matter has no `name`, which this release requires (a skill is named by its folder from {} on)",
            crate::profile::since(crate::profile::Fact::SkillNames)
        ));
    }
    if !valid_name(profile, s.name.trim()) {
        return Some(format!(
            "the name {:?} is longer than {NAME_MAX} characters, or holds a character other than {}",
            s.name,
            allowed(profile)
        ));
    }
    let long = s
        .description
        .as_deref()
        .map_or(0, |d| d.encode_utf16().count());
    (long > DESCRIPTION_MAX).then(|| {
        format!("its description is {long} long (UTF-16 code units), over {DESCRIPTION_MAX}")
    })
}

/// A front-matter key, what its value must be (for the message), and the
/// test of that.
type FieldCheck = (&'static str, &'static str, fn(&Value) -> bool);

/// The first front-matter field of a type Copilot CLI's schema refuses;
/// `yaml` is the front matter as written.
fn wrong_type(value: &Value, yaml: &str, profile: &Profile) -> Option<String> {
    let flags: &[&str] = if profile.skill_flags_checked {
        &["user-invocable", "disable-model-invocation"]
    } else {
        &[]
    };
    // `yes`, `on` and the like are YAML 1.1 booleans, text to Copilot CLI
    // (seen with 1.0.102, fuzzer seed 1: `disable-model-invocation: yes`
    // left the skill out); the parser here reads them as booleans.
    for &key in flags {
        if value.get(key).is_some_and(Value::is_boolean)
            && raw_scalar(yaml, key).is_some_and(|raw| !yaml12_bool(raw))
        {
            return Some(format!("`{key}` is not true or false"));
        }
    }
    let text_list =
        |v: &Value| v.is_string() || v.as_array().is_some_and(|a| a.iter().all(Value::is_string));
    let checks: [FieldCheck; 4] = [
        ("name", "text", Value::is_string),
        ("description", "text", Value::is_string),
        ("user-invocable", "true or false", Value::is_boolean),
        (
            "disable-model-invocation",
            "true or false",
            Value::is_boolean,
        ),
    ];
    for (key, what, ok) in checks {
        let checked = key == "name" || key == "description" || flags.contains(&key);
        if checked && value.get(key).is_some_and(|v| !v.is_null() && !ok(v)) {
            return Some(format!("`{key}` is not {what}"));
        }
    }
    // An empty `description:` (YAML null) is refused too (seen with
    // 1.0.102, fuzzer seeds 7 and 11), unlike a missing one.
    if value.get("description").is_some_and(Value::is_null) {
        return Some("`description` is empty (null), not text".to_string());
    }
    let tools = value.get("allowed-tools");
    tools
        .is_some_and(|v| !v.is_null() && !text_list(v))
        .then(|| "`allowed-tools` is neither text nor a list of text".to_string())
}

/// The plain scalar of top-level key `key` in front matter `yaml`, as
/// written (without a trailing comment), when it is on the key's line.
fn raw_scalar<'a>(yaml: &'a str, key: &str) -> Option<&'a str> {
    yaml.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(|v| v.split(" #").next().unwrap_or_default().trim())
        .filter(|v| !v.is_empty())
}

/// Whether `raw` is a boolean of YAML 1.2's core schema (`true`, `false`
/// in three casings), the only ones Copilot CLI takes.
fn yaml12_bool(raw: &str) -> bool {
    matches!(raw, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
}

/// Whether `name` passes the release's name rule
/// ([`Profile::skill_names`]): at most [`NAME_MAX`] characters, and
/// ASCII letters, digits and `-` ([`SkillNames::HyphensOnly`]), or
/// ASCII letters, digits and the profile's punctuation, a letter or digit
/// first ([`SkillNames::Punctuated`]).
fn valid_name(profile: &Profile, name: &str) -> bool {
    let short = name.chars().count() <= NAME_MAX;
    match profile.skill_names {
        SkillNames::HyphensOnly => {
            short && !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        }
        SkillNames::Punctuated => {
            let mut chars = name.chars();
            let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
            first_ok
                && short
                && chars.all(|c| {
                    c.is_ascii_alphanumeric() || profile.skill_name_punctuation.contains(c)
                })
        }
    }
}

/// The characters a skill name may hold under the release's rule, for
/// the messages.
fn allowed(profile: &Profile) -> String {
    match profile.skill_names {
        SkillNames::HyphensOnly => "ASCII letters, digits and `-`".to_string(),
        SkillNames::Punctuated => format!(
            "ASCII letters, digits and {:?} (never first)",
            profile.skill_name_punctuation
        ),
    }
}

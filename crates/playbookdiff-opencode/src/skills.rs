//! Skills.
//!
//! OpenCode 1.18.33 (`Skill` service in `packages/opencode/src/skill/`,
//! shipped code; seen with `opencode debug skill` and in the request it
//! sends) collects `SKILL.md` files in this order:
//!
//! 1. `.claude/skills/**/SKILL.md`, then `.agents/skills/**/SKILL.md`, of
//!    every directory from cwd up to the worktree, closest first (dot
//!    entries included; `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS` drops
//!    `.claude`, `OPENCODE_DISABLE_EXTERNAL_SKILLS` both);
//! 2. `.opencode/skill/**/SKILL.md` and `.opencode/skills/**/SKILL.md` of
//!    the same directories, closest first (dot entries skipped);
//! 3. `**/SKILL.md` below each `skills.paths` entry, relative to cwd; a
//!    leading `~/` names the home and an absolute entry a directory of
//!    the machine (local mode reads both there).
//!
//! Links are followed. A skill needs a string `name` in its front matter
//! (the directory name is never used, and neither name pattern nor
//! directory match is checked); `description`, when present, must be a
//! string. A skill without a description is loaded but not listed to the
//! model. Of two skills with one name only one is kept, whichever OpenCode
//! finishes reading last (it logs "duplicate skill name"), also when they
//! lie in different skill roots: the roots' order decides only which file
//! is usually last, not which one wins. Found files are
//! kept in a set of the paths as found, not of real paths, so a skill
//! folder reached twice through a link is read twice and the name keeps
//! one of the two (the adapter shows the other shadowed). The model is shown every
//! listed skill, sorted by name, as `<name>`, `<description>` and
//! `<location>`, with no budget.

use crate::config::Merged;
use crate::user;
use crate::walk::{self, Opts};
use crate::{place, strictly_below, target_only_dirs, Cx, Walk, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::profile::BuiltinSkill;
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, Diagnostic, DiagnosticCode, Invocation,
    LoadPhase, Permission, RepoPath, Severity, Skill, SourceFormat, SourceRef,
};
use playbookdiff_source::markdown::parse_yaml_with;
use playbookdiff_source::{Machine, Resolved, SourceError, TextFile};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

/// Where a `SKILL.md` was found.
#[derive(Clone)]
struct Origin {
    /// The skill file.
    file: RepoPath,
    /// The directory whose skill root it is (for `skills.paths`, cwd).
    owner: RepoPath,
    /// The root searched, for messages (`.claude/skills`, …).
    root: String,
    /// The text of a skill of the user's (a machine path), read when it
    /// was found; `None` for the repository's, read through the repository.
    machine_text: Option<Arc<TextFile>>,
}

/// Compiles the skills: found ones in OpenCode's search order (each
/// effective, excluded or shadowed), then out-of-scope ones below cwd or on
/// the way to targetPath.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    merged: &Merged,
    machine: Option<&Machine>,
) -> Vec<Skill> {
    let cwd = cx.context.cwd.clone();
    let mut found: Vec<Origin> = Vec::new();
    let global = machine.map(user::skill_roots).unwrap_or_default();
    let (external, config): (Vec<_>, Vec<_>) = global.into_iter().partition(|r| r.external);
    for r in &external {
        machine_scan(cx, machine, r, &mut found);
    }
    let chain = cx.up_chain();
    for dir in &chain {
        for ext in [".claude", ".agents"] {
            let Some(base) = dir.join(ext) else { continue };
            if !cx.exists(&base) {
                continue;
            }
            let Some(root) = base.join("skills") else {
                continue;
            };
            scan(cx, &root, dir, &format!("{ext}/skills"), true, &mut found);
        }
    }
    for r in &config {
        machine_scan(cx, machine, r, &mut found);
    }
    for dir in &chain {
        let Some(base) = dir.join(".opencode") else {
            continue;
        };
        if !cx.exists(&base) {
            continue;
        }
        for sub in ["skill", "skills"] {
            let Some(root) = base.join(sub) else { continue };
            scan(
                cx,
                &root,
                dir,
                &format!(".opencode/{sub}"),
                false,
                &mut found,
            );
        }
    }
    for r in machine.map(user::late_skill_roots).unwrap_or_default() {
        machine_scan(cx, machine, &r, &mut found);
    }
    for (p, src) in &merged.skill_paths {
        if let Some(root) = machine.and_then(|_| user_skill_path(p)) {
            if machine.is_some_and(|m| m.list_dir(&root.dir).is_ok()) {
                machine_scan(cx, machine, &root, &mut found);
            } else {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("skills.paths entry {p:?} names no directory {}, so OpenCode skips it (\"skill path not found\").", if p.starts_with('/') { "on the machine" } else { "in the home" }),
                    )
                    .at(src.clone()),
                );
            }
            continue;
        }
        if p.starts_with("~/") || p.starts_with('/') {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::UserConfigUnavailable,
                    format!("skills.paths entry {p:?} names a directory outside the repository; OpenCode scans it on the developer's machine, the analysis does not."),
                )
                .at(src.clone()),
            );
            continue;
        }
        match cwd.join(p) {
            Some(root) if cx.repo.is_dir(&root) => {
                scan(cx, &root, &cwd, p, false, &mut found);
            }
            _ => cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("skills.paths entry {p:?} is resolved from cwd {cwd} (not from the configuration file) and names no directory there, so OpenCode skips it (\"skill path not found\")."),
                )
                .at(src.clone()),
            ),
        }
    }
    for (u, src) in &merged.skill_urls {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ItemNotModelled,
                format!("skills.urls entry {u:?}: OpenCode downloads the skills listed at that address at startup; the analysis never fetches it, so those skills are unknown."),
            )
            .at(src.clone()),
        );
    }

    // Each file once, where it was first found.
    let keep: Vec<bool> = {
        let mut seen = HashSet::with_capacity(found.len());
        found.iter().map(|o| seen.insert(&o.file)).collect()
    };
    let mut keep = keep.into_iter();
    found.retain(|_| keep.next().unwrap_or(false));
    let taken: HashSet<&RepoPath> = found.iter().map(|o| &o.file).collect();
    let mut skills: Vec<Skill> = found.iter().map(|o| load(cx, o)).collect();
    collisions(cx, &mut skills);
    skills.extend(out_of_scope(cx, &taken));
    skills
}

/// Puts the release's built-in skill `b` first in `skills` (local mode):
/// effective, or shadowed when a discovered skill of its name is
/// effective, since OpenCode sets it before the discovered skills, which
/// replace it by name (1.18.33, `Skill.state`). Its provenance is
/// `builtin:NAME`, scope `builtin`.
pub(crate) fn add_builtin(skills: &mut Vec<Skill>, b: &BuiltinSkill, version: &str) {
    let replaced = skills
        .iter()
        .find(|s| s.name == b.name && s.applicability == Applicability::Effective)
        .map(|s| s.source.path.clone());
    let skill = match replaced {
        Some(p) => {
            let reason = format!("OpenCode {version} ships this skill, but {p} has the same name and replaces it.");
            let mut skill = b.skill("opencode", reason);
            skill.applicability = Applicability::Shadowed;
            skill.advertisement.state = AdvertisementState::Hidden;
            skill
        }
        None => b.skill("opencode", format!("OpenCode {version} ships this skill (location `<built-in>`) and lists it to the model at startup beside the discovered skills.")),
    };
    skills.insert(0, skill);
}

/// Adds every `SKILL.md` below `root` to `found`.
fn scan(
    cx: &mut Cx<'_, '_>,
    root: &RepoPath,
    owner: &RepoPath,
    label: &str,
    dot: bool,
    found: &mut Vec<Origin>,
) {
    let r = cx.repo.resolve(root);
    if cx.link_problem(
        &r,
        &format!("The skill root {root}"),
        "OpenCode finds no skills there",
    ) {
        return;
    }
    let (files, truncated, outside) = &*skill_files(cx, root, dot);
    for link in outside {
        let r = cx.repo.resolve(link);
        cx.link_problem(
            &r,
            &format!("In the skill root {}", problems::quote(root)),
            "",
        );
    }
    if *truncated {
        cx.diag(Diagnostic::new(
            DiagnosticCode::Unreadable,
            format!("The skill root {root} holds more than {} directories; the analysis stopped there, so more skills may exist.", walk::MAX_DIRS),
        ));
    }
    for file in files {
        found.push(Origin {
            file: file.clone(),
            owner: owner.clone(),
            root: label.to_string(),
            machine_text: None,
        });
    }
}

/// The skill root a `skills.paths` entry `~/DIR` names in the home, or
/// an absolute entry `/DIR` on the machine (OpenCode 1.18.33 replaces a
/// leading `~/` with the home directory, takes an absolute entry as it
/// is, and scans `**/SKILL.md` there, dot entries skipped; seen on cases
/// `oracle.local_user_layers.home-opencode-skills-paths` and
/// `oracle.local_user_layers.home-opencode-skills-absolute.managed-opencode-team-skills`);
/// `None` for any other entry. `--managed-root` stands for `/`.
fn user_skill_path(p: &str) -> Option<user::SkillRoot> {
    let dir = match p.strip_prefix("~/") {
        Some(rest) => RepoPath::on_machine("~", rest)?,
        None => RepoPath::on_machine("/", p.strip_prefix('/')?.trim_end_matches('/'))?,
    };
    Some(user::SkillRoot {
        dir,
        external: false,
    })
}

/// Adds every `SKILL.md` below the user's skill root `root` to `found`,
/// with its text; a file that cannot be read is reported in its layer and
/// left out.
fn machine_scan(
    cx: &mut Cx<'_, '_>,
    machine: Option<&Machine>,
    root: &user::SkillRoot,
    found: &mut Vec<Origin>,
) {
    let Some(machine) = machine else {
        return;
    };
    for file in user::skill_files(machine, root) {
        let Some(text) = user::read(machine, &file, &mut cx.diags) else {
            continue;
        };
        found.push(Origin {
            file,
            owner: RepoPath::root(),
            root: root.dir.to_string(),
            machine_text: Some(text),
        });
    }
}

/// The `SKILL.md` files below `root` (links followed, dot entries entered
/// when `dot`), sorted by path, whether the walk was cut at
/// [`walk::MAX_DIRS`], and the links out of the repository it did not
/// follow (OpenCode does: a skill folder there is loaded, seen with
/// 1.18.33 on case `oracle.skill_link_outside`). Computed once per repository, root and `dot`
/// ([`playbookdiff_source::Repo::memo`]): every launch directory below a
/// skill root scans it.
fn skill_files(
    cx: &Cx<'_, '_>,
    root: &RepoPath,
    dot: bool,
) -> Arc<(Vec<RepoPath>, bool, Vec<RepoPath>)> {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, bool);
    cx.repo.memo(Key(root.clone(), dot), || {
        let w = walk::files(
            cx,
            root,
            Opts {
                dot,
                follow: true,
                max_depth: None,
            },
            &|rel| rel == "SKILL.md" || rel.ends_with("/SKILL.md"),
        );
        let files = w.files.into_iter().map(|f| f.path).collect();
        Arc::new((files, w.truncated, w.outside))
    })
}

/// What the front matter gives.
#[derive(Clone)]
struct Parsed {
    name: Option<String>,
    description: Option<String>,
    lines: Option<(u32, u32)>,
    /// Why OpenCode does not load it.
    invalid: Option<String>,
}

/// [`read_front_matter`] of `file`, computed once per repository (it
/// does not depend on the launch directory) with its diagnostics, which
/// are added to `cx` at every call.
fn parse(cx: &mut Cx<'_, '_>, o: &Origin) -> Parsed {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath);
    let repo = cx.repo;
    let (p, diags) = repo.memo(Key(o.file.clone()), || {
        let before = cx.diags.len();
        let p = read_front_matter(cx, o);
        (p, cx.diags.split_off(before))
    });
    cx.diags.extend(diags);
    p
}

/// What OpenCode makes of the front matter of the `SKILL.md` at `file`,
/// reporting what keeps it from loading the skill.
fn read_front_matter(cx: &mut Cx<'_, '_>, o: &Origin) -> Parsed {
    let file = &o.file;
    let q = problems::quote(file);
    let mut p = Parsed {
        name: None,
        description: None,
        lines: None,
        invalid: None,
    };
    let src = user::skill_source(file);
    let read = match &o.machine_text {
        Some(t) => Ok(t.clone()),
        None => cx.repo.read_text(file, READ_LIMIT),
    };
    let text = match read {
        Ok(t) => t,
        Err(e @ SourceError::TooLarge { len, .. }) => {
            p.invalid = Some(format!(
                "it is {} bytes, too large for the analysis to read",
                playbookdiff_model::remedy::grouped(len)
            ));
            cx.diag(problems::read_error(
                file,
                &e,
                "its name and description are unknown",
                SourceFormat::Markdown,
            ));
            return p;
        }
        Err(e) => {
            p.invalid = Some(format!("it cannot be read ({e})"));
            return p;
        }
    };
    // OpenCode splits front matter as gray-matter does
    // ([`crate::extras::split_front_matter`]): a `----` line closes it, a
    // `...` line does not (seen with 1.18.33, cases
    // `oracle.edge_frontmatter`, the `*-dots` skills of every root, and
    // `opencode.agent_edges`, `dash-skill`).
    let Some((yaml, end_line)) = crate::extras::split_front_matter(&text.text) else {
        if text.front_matter().is_some_and(|f| f.closed_by_dots) {
            p.invalid = Some(
                "its front matter is closed by `...`, which OpenCode does not take for a close"
                    .to_string(),
            );
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidFrontmatter,
                    format!("The front matter of {q} ends with a `...` line; OpenCode ends front matter only at a `---` line, so it reads none here and skips the skill; close it with `---`."),
                )
                .at(src),
            );
            return p;
        }
        p.invalid = Some("it has no front matter, so no `name`".to_string());
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillFieldMissing,
                format!("{q} has no front matter; OpenCode loads a skill only with a `name` in its front matter, so it skips this one; add `---\\nname: …\\ndescription: …\\n---`."),
            )
            .at(src),
        );
        return p;
    };
    p.lines = Some((1, end_line));
    let src = src.with_lines(1, end_line);
    // js-yaml's YAML 1.2 booleans: `description: yes` is text (seen with
    // 1.18.33, case `opencode.agent_edges`, `yes-skill`).
    let value = parse_yaml_with(yaml, true).map_err(|e| e.shifted(1));
    let retried = value
        .as_ref()
        .err()
        .and_then(|_| parse_yaml_with(&colons_as_block_scalars(yaml), true).ok());
    let data = match (&value, retried) {
        (Ok(v), _) => v.clone(),
        (Err(_), Some(v)) => v,
        (Err(e), None) => {
            let msg = &e.message;
            let at = e.line.map(|l| format!(" on line {l}")).unwrap_or_default();
            p.invalid = Some("its front matter is not valid YAML".to_string());
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidFrontmatter,
                    format!("The front matter of {q} is not valid YAML ({msg}{at}); OpenCode reports \"Failed to parse skill\" and skips it."),
                )
                .at(src),
            );
            return p;
        }
    };
    let empty = serde_json::Map::new();
    let obj = data.as_object().unwrap_or(&empty);
    match obj.get("name") {
        Some(Value::String(n)) => p.name = Some(n.clone()),
        None | Some(Value::Null) => {
            p.invalid = Some("its front matter has no `name`".to_string());
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SkillFieldMissing,
                    format!("{q} has no `name` in its front matter; OpenCode never uses the directory name instead, so it skips the skill; add `name: {}`.", file.parent().and_then(|d| d.file_name().map(str::to_string)).unwrap_or_default()),
                )
                .at(src),
            );
            return p;
        }
        Some(_) => {
            p.invalid = Some("its `name` is not text".to_string());
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SkillFieldInvalid,
                    format!("`name` in {q} is not text (quote it); OpenCode skips the skill."),
                )
                .at(src),
            );
            return p;
        }
    }
    match obj.get("description") {
        Some(Value::String(d)) => p.description = Some(d.clone()),
        None => {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SkillFieldMissing,
                    format!("{q} has no `description`; OpenCode loads the skill but never lists it to the model; add a description."),
                )
                .at(src),
            );
        }
        Some(_) => {
            p.invalid = Some("its `description` is not text".to_string());
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SkillFieldInvalid,
                    format!(
                        "`description` in {q} is not text (quote it); OpenCode skips the skill."
                    ),
                )
                .at(src),
            );
        }
    }
    p
}

/// OpenCode's second try at front matter that is not valid YAML
/// (`sanitize` in `packages/opencode/src/config/markdown.ts`, used by
/// `ConfigMarkdown.parse` for skills, agents and commands since other
/// harnesses accept such files): every top-level `key: value` line whose
/// unquoted value holds a `:` becomes the block scalar `key: |-` with the
/// value on the next line, indented by two spaces. Comment, blank and
/// indented lines, empty values, `>`, `|` and quoted values stay as they
/// are. Keys are `[A-Za-z_][A-Za-z0-9_]*`. Input and output are the YAML
/// between the fences.
fn colons_as_block_scalars(yaml: &str) -> String {
    let mut out = Vec::new();
    for line in yaml.lines() {
        let trimmed = line.trim();
        let plain = !trimmed.is_empty()
            && !trimmed.starts_with('#')
            && !line.starts_with(char::is_whitespace);
        let entry = plain
            .then(|| line.split_once(':'))
            .flatten()
            .filter(|(k, _)| {
                let k = k.trim_end();
                let mut c = k.chars();
                c.next()
                    .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
                    && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            });
        match entry {
            Some((key, value)) => {
                let value = value.trim();
                let keep = value.is_empty()
                    || value == ">"
                    || value == "|"
                    || value.starts_with('"')
                    || value.starts_with('\'')
                    || !value.contains(':');
                if keep {
                    out.push(line.to_string());
                } else {
                    out.push(format!("{}: |-", key.trim_end()));
                    out.push(format!("  {value}"));
                }
            }
            None => out.push(line.to_string()),
        }
    }
    out.join("\n")
}

/// Loads one found skill. What it gives depends on the launch directory
/// only through whether cwd owns the skill root: it is computed once per
/// repository, origin and that answer ([`playbookdiff_source::Repo::memo`]),
/// with its diagnostics, which are added to `cx` at every call.
fn load(cx: &mut Cx<'_, '_>, o: &Origin) -> Skill {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, RepoPath, String, bool);
    let at_cwd = o.owner == cx.context.cwd;
    let key = Key(o.file.clone(), o.owner.clone(), o.root.clone(), at_cwd);
    let repo = cx.repo;
    let (skill, diags) = repo.memo(key, || {
        let before = cx.diags.len();
        let skill = load_at(cx, o);
        (skill, cx.diags.split_off(before))
    });
    cx.diags.extend(diags);
    skill
}

/// [`load`], computed.
fn load_at(cx: &mut Cx<'_, '_>, o: &Origin) -> Skill {
    let cwd = cx.context.cwd.clone();
    let p = parse(cx, o);
    let dir_name = o
        .file
        .parent()
        .and_then(|d| d.file_name().map(str::to_string))
        .unwrap_or_default();
    let place = if o.owner == cwd {
        "cwd itself".to_string()
    } else if o.owner.is_root() {
        "the repository root".to_string()
    } else {
        format!("{}, a parent of cwd", o.owner)
    };
    let whence = if o.file.is_on_machine() {
        format!("Found in the user's `{}`, in every project", o.root)
    } else {
        format!("Found in the {} of {place}", o.root)
    };
    let (applicability, reason, invocation, state) = match (&p.invalid, &p.description) {
        (Some(why), _) => (
            Applicability::Excluded,
            format!("{whence}, but {why}, so OpenCode does not load it."),
            Invocation {
                explicit: Permission::Blocked,
                implicit: Permission::Blocked,
            },
            AdvertisementState::Hidden,
        ),
        (None, None) => (
            Applicability::Effective,
            format!("{whence}; OpenCode loads it, but without a description it is not listed to the model."),
            Invocation {
                explicit: Permission::Allowed,
                implicit: Permission::Blocked,
            },
            AdvertisementState::Hidden,
        ),
        (None, Some(_)) => (
            Applicability::Effective,
            format!("{whence}; OpenCode lists its name, description and location to the model at startup."),
            Invocation {
                explicit: Permission::Allowed,
                implicit: Permission::Allowed,
            },
            AdvertisementState::Advertised,
        ),
    };
    let mut source = user::skill_source(&o.file);
    if let Some((a, b)) = p.lines {
        source = source.with_lines(a, b);
    }
    if o.file.is_on_machine() {
        // A user's file: never resolved in the repository.
    } else if let Resolved::Inside {
        real,
        via_link: true,
        ..
    } = cx.repo.resolve(&o.file)
    {
        source.resolved_path = Some(real);
    }
    Skill {
        id: format!("opencode:skill:{}", o.file),
        name: p.name.clone().unwrap_or_else(|| dir_name.clone()),
        directory_name: dir_name,
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason,
        description: p.description.clone(),
        invocation,
        advertisement: Advertisement::new(
            state,
            p.description
                .as_deref()
                .map_or(0, |d| d.chars().count() as u64),
        ),
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

/// Same-name skills. OpenCode parses the found files concurrently
/// (`Skill.state` in sst/opencode `packages/opencode/src/skill/`: every
/// match goes through `forEach` with unbounded concurrency, each parse
/// assigning `skills[name]`) and so the last parse to finish wins: usually
/// the one found last, but seen both ways with 1.18.33 (fixture
/// `duplicate_skill_names`, `.claude/skills` and `.agents/skills` of one
/// directory: six runs kept `.agents` five times, `.claude` once; case
/// `cli.dup_skills_refusing_codex.in-pkg` was once seen keeping `.claude`).
/// This holds across skill roots, not only within one: in 1.18.33 the
/// discovery step first gathers the matches of every root (`.claude`,
/// `.agents`, `.opencode`, `skills.paths`) into one set, and only then
/// are all of them parsed in that one concurrent `forEach`. With a 1 MB
/// `.claude/skills/dup/SKILL.md` beside a short `.agents/skills/dup` or
/// `.opencode/skills/dup` one, `.claude` was kept in 4 of 9 and 5 of 8
/// runs. (Earlier OpenCode lines parsed each root's matches before
/// scanning the next root, so there the later root did win; 1.18.33 no
/// longer does.)
/// The last found is effective and the others shadowed; when their texts
/// differ, each reason and a `skill-name-collision` warning say that the
/// model may receive another definition (which one is not decided by the
/// repository). The name is listed at startup whichever wins when all or
/// none have a description; when only some have one, the name is listed
/// only when the kept one does (fuzzer seeds 65 and 73: the described one
/// kept in 3 of 3 recordings), which the texts say too. Copies or links
/// of one text need no warning.
fn collisions(cx: &mut Cx<'_, '_>, skills: &mut [Skill]) {
    // The effective skills of each name, in the order found; one pass, so
    // the cost grows with the number of skills, not with its square.
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in skills.iter().enumerate() {
        if s.applicability == Applicability::Effective {
            by_name.entry(s.name.clone()).or_default().push(i);
        }
    }
    for (name, idx) in by_name {
        if idx.len() < 2 {
            continue;
        }
        let paths: Vec<RepoPath> = idx.iter().map(|&i| skills[i].source.path.clone()).collect();
        let list = paths
            .iter()
            .map(problems::quote)
            .collect::<Vec<_>>()
            .join(", ");
        if same_text(cx, &paths) {
            // Copies or links of one skill: whichever OpenCode keeps, the
            // model sees the same text; the last found stands for it.
            let winner = paths[paths.len() - 1].clone();
            for &i in &idx[..idx.len() - 1] {
                let s = &mut skills[i];
                s.applicability = Applicability::Shadowed;
                s.advertisement.state = AdvertisementState::Hidden;
                s.reason = format!("{} {winner} holds the same text under the same name, and OpenCode keeps one of them; either way the model sees this skill.", s.reason);
            }
            continue;
        }
        // Different texts: OpenCode lists the name at startup whichever
        // definition wins, so the last found stands for it (effective, as
        // OpenCode usually keeps it) and the others are shadowed; which
        // description and text the model receives is the race's, said on
        // each and in one warning.
        let winner = paths[paths.len() - 1].clone();
        // Only a kept definition with a description is listed: when some
        // have one and some not, whether the name is listed at all is the
        // race's too (fuzzer seeds 65 and 73, OpenCode 1.18.33).
        let described = idx
            .iter()
            .filter(|&&i| skills[i].description.is_some())
            .count();
        let listing = if described == 0 || described == idx.len() {
            format!("OpenCode lists {name:?} at startup")
        } else {
            format!("OpenCode lists {name:?} at startup only when the definition it keeps has a description (some of these have none)")
        };
        for &i in &idx[..idx.len() - 1] {
            let s = &mut skills[i];
            s.applicability = Applicability::Shadowed;
            s.advertisement.state = AdvertisementState::Hidden;
            s.reason = format!("{} Other skills share the name {name:?} ({list}); OpenCode lists the name once and keeps the definition it finishes reading last, which is not decided by the repository: the analysis shows {} and this one shadowed, but the model may receive this one instead.", s.reason, problems::quote(&winner));
        }
        let w = &mut skills[idx[idx.len() - 1]];
        w.reason = format!("{} Other skills share the name {name:?} ({list}); {listing} and keeps the definition it finishes reading last, usually this one, but not always: the model may receive another one's description and text.", w.reason);
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNameCollision,
                format!("Skills named {name:?} are defined at {list}; {listing}, but reads these files concurrently and keeps the one it finishes reading last, so which description and text the model receives is not decided by the repository (seen both ways with OpenCode 1.18.33). The analysis shows {}. Rename all but one, or give them the same text.", problems::quote(&winner)),
            )
            .with_severity(Severity::Warning)
            .at(SourceRef::project(winner, SourceFormat::Markdown)),
        );
    }
}

/// True when every file of `paths` reads as the same text (copies, or
/// links to one file). Answered once per repository and list of paths
/// ([`playbookdiff_source::Repo::memo`]): every launch directory below
/// two same-name skills asks it again.
fn same_text(cx: &Cx<'_, '_>, paths: &[RepoPath]) -> bool {
    #[derive(Hash, PartialEq, Eq)]
    struct Key(Vec<RepoPath>);
    cx.repo.memo(Key(paths.to_vec()), || {
        let texts: Vec<Option<_>> = paths
            .iter()
            .map(|p| cx.repo.read_text(p, READ_LIMIT).ok())
            .collect();
        texts.iter().all(|t| match (t, &texts[0]) {
            (Some(t), Some(first)) => t.text == first.text,
            _ => false,
        })
    })
}

/// Skills in skill roots below cwd or on the way to targetPath: OpenCode
/// never searches there from this launch directory.
fn out_of_scope(cx: &mut Cx<'_, '_>, taken: &HashSet<&RepoPath>) -> Vec<Skill> {
    let cwd = cx.context.cwd.clone();
    // Sorted and without repeats, in one pass over the files.
    let mut owners: BTreeSet<RepoPath> = BTreeSet::new();
    for f in cx.repo.files_named_under("SKILL.md", &cwd) {
        if let Some((owner, _)) = split_root(f) {
            if strictly_below(&owner, &cwd) {
                owners.insert(owner);
            }
        }
    }
    owners.extend(target_only_dirs(cx.context));
    let mut out = Vec::new();
    for owner in owners {
        for (root, dot) in [
            (".claude/skills", true),
            (".agents/skills", true),
            (".opencode/skill", false),
            (".opencode/skills", false),
        ] {
            let Some(base) = owner.join(root) else {
                continue;
            };
            let mut found = Vec::new();
            scan(cx, &base, &owner, root, dot, &mut found);
            for o in found {
                if taken.contains(&o.file) {
                    continue;
                }
                let mut s = load(cx, &o);
                s.applicability = Applicability::OutOfScope;
                s.advertisement.state = AdvertisementState::Hidden;
                s.invocation = Invocation {
                    explicit: Permission::Blocked,
                    implicit: Permission::Blocked,
                };
                let why = if owner.starts_with(&cwd) {
                    format!("{} is below cwd {cwd}", place(&owner))
                } else {
                    format!(
                        "{} is on the way to targetPath, not between cwd {cwd} and the root",
                        place(&owner)
                    )
                };
                s.reason = format!("In the {root} of {}, but {why}; OpenCode searches skill roots only from cwd up to the root.", place(&owner));
                out.push(s);
            }
        }
    }
    out
}

/// The directory owning the skill root a `SKILL.md` lies in, and the
/// root's name, when it lies in one of OpenCode's project skill roots.
fn split_root(file: &RepoPath) -> Option<(RepoPath, &'static str)> {
    let s = file.as_str();
    for root in [
        ".claude/skills/",
        ".agents/skills/",
        ".opencode/skill/",
        ".opencode/skills/",
    ] {
        let hit = if s.starts_with(root) {
            Some(0)
        } else {
            s.find(&format!("/{root}")).map(|i| i + 1)
        };
        if let Some(i) = hit {
            let owner = if i == 0 {
                RepoPath::root()
            } else {
                RepoPath::new(&s[..i - 1])?
            };
            return Some((owner, root.trim_end_matches('/')));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_source::markdown::parse_yaml;

    #[test]
    fn unquoted_colons_become_block_scalars_as_in_opencode() {
        let cases: &[(&str, &str)] = &[
            (
                "name: a\ndescription: x: y",
                "name: a\ndescription: |-\n  x: y",
            ),
            ("description: 'x: y'", "description: 'x: y'"),
            ("description: \"x: y\"", "description: \"x: y\""),
            ("description: |\n  x: y", "description: |\n  x: y"),
            ("# c: d\n  e: f: g", "# c: d\n  e: f: g"),
            ("my-key: x: y", "my-key: x: y"),
            ("key : x: y", "key: |-\n  x: y"),
            ("url: https://a.example", "url: |-\n  https://a.example"),
        ];
        for (input, want) in cases {
            assert_eq!(colons_as_block_scalars(input), *want, "{input:?}");
        }
        // The drizzle skill of the corpus: invalid YAML, loaded after the
        // rewrite with its whole description.
        let yaml =
            "name: drizzle\ndescription: Covers the conventions: a schema.\nallowed-tools: Read\n";
        assert!(parse_yaml(yaml).is_err());
        let v = parse_yaml(&colons_as_block_scalars(yaml)).unwrap();
        assert_eq!(v["description"], "Covers the conventions: a schema.");
        assert_eq!(v["allowed-tools"], "Read");
    }
}

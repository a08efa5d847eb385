//! Skills: `.claude/skills/<name>/SKILL.md`, and legacy commands
//! (`.claude/commands/**/*.md`) as skills (fidelity C23).
//!
//! Source: spec 000 "Skills" (discovery from cwd and ancestors, nested on
//! demand, same-name skills kept apart, invocation flags, `paths`, the
//! advertisement budget, `skillOverrides`, legacy commands); harness facts
//! A6–A8.

use crate::matcher::{claude_paths, has_non_text, written_paths, PathPatterns};
use crate::profile::Fact;
use crate::settings::Settings;
use crate::Compiler;
use feruca::{Collator, Locale, Tailoring};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, Diagnostic, DiagnosticCode, Invocation,
    LoadPhase, Permission, RepoPath, Skill, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Resolved};
use serde_json::Value;
use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

/// Per-skill cap on `description` + `when_to_use`, in characters
/// (`skillListingMaxDescChars`, harness facts A7).
pub(crate) const DESCRIPTION_LIMIT_CHARS: u64 = 1536;

/// The per-skill cap from [`Fact::SkillDescriptionShortCap`] to
/// [`Fact::SkillDescriptionCap`], in characters
/// (`MAX_LISTING_DESC_CHARS`, 2.1.97 `cli.js`).
const SHORT_DESCRIPTION_LIMIT_CHARS: u64 = 250;

/// The cap on each listed description of `profile`'s release, in UTF-16
/// code units (a longer one is cut to one less and `…`): 1,536 from
/// [`Fact::SkillDescriptionCap`], 250 from
/// [`Fact::SkillDescriptionShortCap`], none before.
pub(crate) fn description_cap(profile: &crate::profile::Profile) -> Option<u64> {
    if profile.has(Fact::SkillDescriptionCap) {
        Some(DESCRIPTION_LIMIT_CHARS)
    } else if profile.has(Fact::SkillDescriptionShortCap) {
        Some(SHORT_DESCRIPTION_LIMIT_CHARS)
    } else {
        None
    }
}
/// The whole listing's budget before [`Fact::SkillListingShortensDescriptions`],
/// in UTF-16 code units (JavaScript's `length`): `SLASH_COMMAND_TOOL_CHAR_BUDGET`
/// when unset (2.0.76 and 2.0.77 `cli.js`).
pub(crate) const LISTING_CHAR_BUDGET: u64 = 15_000;

/// Parses a front-matter boolean as Claude Code does. With `lenient`
/// (2.1.218 and later, [`Fact::LenientFrontMatterBooleans`]): a YAML
/// boolean, or case-insensitively `true`/`false`, `yes`/`no`, `on`/`off`,
/// `1`/`0`; before, only a YAML boolean (YAML 1.2 reads `yes` as text).
/// `None` for anything else: the field keeps its default.
pub(crate) fn parse_bool(v: &Value, lenient: bool) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        _ if !lenient => None,
        Value::Number(n) => n.as_i64().and_then(|i| match i {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(true),
            "false" | "no" | "off" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    machine_skills(cx);
    let cwd = cx.context.cwd.clone();
    let mut roots: Vec<(RepoPath, RepoPath, LoadPhase, Applicability, String)> = Vec::new();
    // The walk stops at the top of the git work tree holding cwd (a
    // checked-out submodule's root), unlike the memory walk (C4).
    for dir in playbookdiff_adapter::scope::work_tree_chain(cx.repo, &cwd)
        .into_iter()
        .rev()
    {
        if let Some(r) = dir.join(".claude/skills") {
            let reason = if dir == cwd {
                "discovered at startup in the launch directory".to_string()
            } else {
                format!("discovered at startup in `{dir}`, an ancestor of the launch directory")
            };
            roots.push((dir, r, LoadPhase::Startup, Applicability::Effective, reason));
        }
    }
    // Roots off the startup chain in this launch directory's scope: below
    // cwd they load on demand; on the way to a target outside cwd they are
    // conditional. Roots beside the path are never discovered.
    for owner in cx.off_chain_owners(".claude/skills") {
        let (phase, a, reason) = cx.off_chain(&owner);
        if a == Applicability::OutOfScope {
            continue;
        }
        if let Some(r) = owner.join(".claude/skills") {
            roots.push((owner, r, phase, a, reason));
        }
    }

    for (_owner, root, phase, applicability, reason) in roots {
        if !cx.repo.is_dir(&root) {
            if let Some((t, true)) = cx.repo.link_stored_as_text(&root) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SymlinkStoredAsText,
                        format!(
                            "`{root}` is a file containing only `{t}`: a symbolic link checked out as text, so Claude \
                             Code finds no skills there. Restore the link, or copy the skills into `{root}/`."
                        ),
                    )
                    .at(SourceRef::project(root.clone(), SourceFormat::Markdown)),
                );
            } else if cx.repo.kind(&root).is_some() {
                cx.check_link(&root, SourceFormat::Markdown);
            }
            continue;
        }
        for ent in cx.repo.list_dir(&root).to_vec() {
            let Some(dir) = root.join(&ent.name) else {
                continue;
            };
            match cx.repo.resolve(&dir) {
                Resolved::Inside {
                    kind: EntryKind::Dir,
                    ..
                } => {}
                Resolved::Inside { .. } => continue,
                r @ Resolved::Outside { .. } => {
                    outside_skill_folder(cx, &r, &dir);
                    continue;
                }
                _ => {
                    cx.check_link(&dir, SourceFormat::Markdown);
                    continue;
                }
            }
            let Some(skill_md) = dir.join("SKILL.md") else {
                continue;
            };
            let real_dir = cx.repo_real(&dir);
            if cx
                .repo
                .kind(&real_dir.join("SKILL.md").unwrap_or_else(RepoPath::root))
                .is_none()
            {
                // A link back up to the skills directory or above it
                // (`up` -> `..`) reaches only files reported directly.
                let loops_back = cx.repo_real(&root).starts_with(&real_dir);
                let deeper: Vec<RepoPath> = cx
                    .repo
                    .files_named_under("SKILL.md", &real_dir)
                    .iter()
                    .filter(|f| !loops_back && !at_skill_place(f))
                    .cloned()
                    .collect();
                if let Some(d) = deeper.first() {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::SkillNotDiscovered,
                            format!(
                                "`{d}` is not discovered: Claude Code reads only `.claude/skills/<name>/SKILL.md`, one \
                                 level deep. Move it to `{root}/<name>/SKILL.md`."
                            ),
                        )
                        .at(SourceRef::project(d.clone(), SourceFormat::Markdown)),
                    );
                } else {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::SkillMissingFile,
                            format!("`{dir}` is in a skills directory but has no SKILL.md, so it is not a skill."),
                        )
                        .with_severity(playbookdiff_model::Severity::Info),
                    );
                }
                continue;
            }
            if !cx.expect_file(&skill_md, SourceFormat::Markdown) {
                continue;
            }
            if let Some(s) = skill(cx, &skill_md, &ent.name, phase, applicability, &reason) {
                cx.out.skills.push(s);
            }
        }
    }

    legacy_commands(cx);
    overrides(cx, settings);
    collisions(cx);
    listing_order(cx);
    // In local mode the installed plugins' skills share the listing
    // budget: it is computed once they are listed ([`budget`]).
    if cx.user.is_none() {
        budget(cx);
    }
}

/// In local mode, the managed skills (`/etc/claude-code/.claude/skills`)
/// and the user's (`skills` of the configuration home), listed before the
/// project's: on a name they share, the enterprise skill wins over the
/// personal one, which wins over the project's (harness facts A7,
/// "Conflicts: enterprise > personal > project"), and
/// [`collisions`] gives the name to the first one found.
fn machine_skills(cx: &mut Compiler<'_, '_>) {
    let Some(places) = cx.user else {
        return;
    };
    let roots = [
        (places.managed(".claude/skills"), "from the managed policy"),
        (places.in_home("skills"), "the user's skill"),
    ];
    for (root, what) in roots {
        let Some(root) = root else {
            continue;
        };
        for ent in places.list(&root) {
            let Some(skill_md) = root.join(&ent.name).and_then(|d| d.join("SKILL.md")) else {
                continue;
            };
            if ent.kind != EntryKind::Dir || cx.kind_at(&skill_md).is_none() {
                continue;
            }
            if !cx.expect_file(&skill_md, SourceFormat::Markdown) {
                continue;
            }
            let reason = format!("{what}, offered at startup in every project");
            let (phase, a) = (LoadPhase::Startup, Applicability::Effective);
            if let Some(s) = skill(cx, &skill_md, &ent.name, phase, a, &reason) {
                cx.out.skills.push(s);
            }
        }
    }
}

/// The skill or command `file` of an installed plugin, offered at startup
/// in every project as `name` (`plugin:skill`), read as any skill file.
pub(crate) fn plugin_skill(
    cx: &mut Compiler<'_, '_>,
    file: &RepoPath,
    name: &str,
    reason: &str,
) -> Option<Skill> {
    let (phase, a) = (LoadPhase::Startup, Applicability::Effective);
    skill(cx, file, name, phase, a, reason)
}

/// A skill folder that is a link out of the repository: Claude Code
/// follows it and loads the skill there (seen with 2.1.197 and 2.1.332 on
/// case `oracle.skill_link_outside`), which the analysis does not read, in
/// any mode: `symlink-outside-repository` says so, never that the agent
/// does not load it (with `--outside-root` the target can lie in the
/// directories above the root, which are read only for memory files).
fn outside_skill_folder(cx: &mut Compiler<'_, '_>, r: &Resolved, dir: &RepoPath) {
    let what = format!("The skill folder {}", problems::quote(dir));
    if let Some(d) = problems::link_problem(r, dir, Some(&what), "", SourceFormat::Markdown) {
        cx.diag(d);
    }
}

/// True when `file` already lies where Claude Code looks for a skill,
/// `<dir>/.claude/skills/<name>/SKILL.md`: a `skill-not-discovered` hint
/// to move it there would advise what is already so. A folder link in a
/// skills directory (`.claude/skills/up` -> `..`) reaches such a file again
/// below the link; it is a skill where it lies, or out of this launch
/// directory's reach for reasons a move would not change.
fn at_skill_place(file: &RepoPath) -> bool {
    let c: Vec<&str> = file.components().collect();
    matches!(c.as_slice(), [.., ".claude", "skills", _, "SKILL.md"])
}

/// What a `SKILL.md` (or legacy command) says whatever the launch
/// directory, as [`read_skill`] reads it.
struct SkillRead {
    /// The file, with the lines of its front matter.
    source: SourceRef,
    /// The front-matter `name` when it differs from the directory name.
    label: Option<String>,
    description: Option<String>,
    desc_chars: u64,
    disable_model: bool,
    user_invocable: bool,
    /// The compiled `paths` of a path-scoped skill, and as written.
    patterns: Option<std::sync::Arc<PathPatterns>>,
    paths: Option<Vec<String>>,
    /// The `skill-budget-risk` diagnostic of a description over the cap.
    budget_risk: Option<Diagnostic>,
}

/// [`read_skill`] of `path`, read once per run and release
/// ([`playbookdiff_source::Repo::memo`]) and shared by every launch
/// directory of `check --all-dirs`: the diagnostics of the reading are kept
/// with it and reported again, in the same order, by every caller. `None`
/// when the file cannot be read.
fn shared_skill(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    dir_name: &str,
) -> Option<std::sync::Arc<SkillRead>> {
    use std::sync::Arc;
    #[derive(Hash, PartialEq, Eq)]
    struct Key(RepoPath, String, String);
    let key = Key(
        path.clone(),
        dir_name.to_string(),
        cx.profile.version.clone(),
    );
    cx.memo_read(key, |cx| read_skill(cx, path, dir_name).map(Arc::new))
}

/// The skill at `path` (the command `dir_name`) as the launch directory
/// `load_phase`, `applicability` and `reason` place it: its file is read
/// once per run ([`shared_skill`]); what depends on the launch directory
/// (a path-scoped skill against the target, the id) is decided here.
fn skill(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    dir_name: &str,
    load_phase: LoadPhase,
    applicability: Applicability,
    reason: &str,
) -> Option<Skill> {
    let read = shared_skill(cx, path, dir_name)?;
    let source = read.source.clone();
    // The command is the directory name (fidelity C17), or for a legacy
    // command its path below `.claude/commands` (fidelity C23); a
    // front-matter `name` is a display label.
    let name = dir_name.to_string();
    let invocation = Invocation {
        explicit: if read.user_invocable {
            Permission::Allowed
        } else {
            Permission::Blocked
        },
        implicit: if read.disable_model {
            Permission::Blocked
        } else {
            Permission::Allowed
        },
    };
    let mut state = if read.disable_model {
        AdvertisementState::Hidden
    } else {
        AdvertisementState::Advertised
    };
    let mut reason = reason.to_string();
    if let Some(l) = &read.label {
        if cx.profile.has(Fact::SkillDisplayLabel) {
            reason.push_str(&format!("; listed to the model as `{name} ({l})`"));
        }
    }
    let mut load_phase = load_phase;
    let mut applicability = applicability;
    // A path-scoped skill is held back, for the user and the model alike,
    // until a file matching `paths` (relative to the launch directory) is
    // read; then it stays for the session (fidelity C18).
    if let (Some(compiled), Some(written)) = (&read.patterns, &read.paths) {
        if applicability == Applicability::Effective {
            load_phase = LoadPhase::OnDemand;
            let cwd = cx.context.cwd.clone();
            match cx.context.target_path.clone() {
                Some(t) => {
                    let hit = crate::relative_to(&t, &cwd)
                        .and_then(|r| compiled.matched(&r, cx.repo.is_dir(&t)));
                    match hit {
                        Some(m) => reason.push_str(&format!(
                            "; held back until a matching file is read: the target `{t}` matches `{m}`"
                        )),
                        None => {
                            applicability = Applicability::Conditional;
                            if !t.starts_with(&cwd) {
                                cx.target_outside_cwd();
                            }
                            reason.push_str(&format!(
                                "; held back until a file matching its paths is read, and the target `{t}` does not \
                                 activate it"
                            ));
                        }
                    }
                }
                None => {
                    applicability = Applicability::Conditional;
                    reason.push_str("; held back until a file matching its paths is read, and no target was given");
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::PathScopedConditional,
                            format!(
                                "The skill `{name}` is offered only after a file matching {} (relative to the launch \
                                 directory) is read; give --target to decide it.",
                                written.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
                            ),
                        )
                        .at(source.clone()),
                    );
                }
            }
        }
    }
    // Only an advertised skill carries it.
    if let Some(d) = &read.budget_risk {
        state = AdvertisementState::BudgetRisk;
        cx.diag(d.clone());
    }
    let id = cx.unique_id(format!("claude-code:skill:{path}"));
    Some(Skill {
        id,
        name,
        directory_name: dir_name.to_string(),
        source,
        load_phase,
        applicability,
        reason,
        description: read.description.clone(),
        invocation,
        advertisement: advertisement(&cx.profile, cx.context_window, state, read.desc_chars),
        paths: read.paths.clone(),
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    })
}

/// A listed skill's advertisement under the release's budget: the
/// per-skill cap from [`Fact::SkillDescriptionCap`] on; the listing's
/// whole budget from [`Fact::SkillListingShortensDescriptions`] on, as
/// [`crate::listing::aggregate_budget`] gives it for the context window
/// `window`; before, neither (the whole listing's [`LISTING_CHAR_BUDGET`]
/// is applied by [`budget`]).
fn advertisement(
    profile: &crate::profile::Profile,
    window: playbookdiff_adapter::ContextWindow,
    state: AdvertisementState,
    desc_chars: u64,
) -> Advertisement {
    Advertisement {
        description_limit_chars: description_cap(profile),
        aggregate_budget: crate::listing::aggregate_budget(profile, window),
        ..Advertisement::new(state, desc_chars)
    }
}

/// Reads the skill file `path` (the command `dir_name`) and its front
/// matter as this release reads them, reporting what is wrong in them.
/// Depends only on the file, `dir_name` and the release. `None` when the
/// file cannot be read, or is a `SKILL.md` starting with a byte order
/// mark before [`Fact::SkillWithBomListed`] (no skill at all).
fn read_skill(cx: &mut Compiler<'_, '_>, path: &RepoPath, dir_name: &str) -> Option<SkillRead> {
    let text = cx.read(path, SourceFormat::Markdown)?;
    if text.text.starts_with('\u{feff}')
        && path.file_name() == Some("SKILL.md")
        && !cx.profile.has(Fact::SkillWithBomListed)
    {
        return None;
    }
    let mut source = cx.source_ref(path, SourceScope::Project, SourceFormat::Markdown);
    let mut meta = serde_json::Map::new();
    let mut body_start = 0;
    let front = crate::read_front_matter(&cx.profile, &text);
    let fm = front.read();
    if front.hidden {
        cx.diag(crate::front_matter_hidden_by_bom(
            path,
            &source,
            "the skill has no metadata and the `---` line is its description",
        ));
    }
    if let Some(fm) = fm {
        body_start = fm.body_offset;
        source = source.with_lines(fm.start_line, fm.end_line);
        match &fm.value {
            Ok(Value::Object(m)) => {
                meta = m.clone();
                if fm.repaired {
                    crate::repaired_note(cx, path, &source, fm.start_line);
                }
            }
            Ok(Value::Null) => {}
            Ok(_) => cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidFrontmatter,
                    format!("The front matter of `{path}` is not a mapping; the skill loads with empty metadata."),
                )
                .at(source.clone()),
            ),
            Err(e) => {
                let l = e.line.unwrap_or(1);
                let msg = crate::yaml_message(&e.message);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!(
                            "The front matter of `{path}` is not valid YAML ({msg}), even after Claude Code's retry \
                             with special values quoted; Claude Code loads the skill with empty metadata."
                        ),
                    )
                    .at(source.clone().with_lines(l, l)),
                );
            }
        }
        // Text fields given as a list or a mapping are not used (numbers
        // and booleans are turned into text, fidelity C20).
        for (k, fallback) in [
            ("name", "it is not used as the skill's label".to_string()),
            (
                "description",
                "the first line of the body is used instead".to_string(),
            ),
            ("when_to_use", "it is ignored".to_string()),
        ] {
            if let Some(v) = meta.get(k).filter(|v| v.is_array() || v.is_object()) {
                let kind = if v.is_array() { "a list" } else { "a mapping" };
                let l = crate::key_line(fm, k);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("`{k}` in `{path}` is {kind}, not text; {fallback}."),
                    )
                    .at(source.clone().with_lines(l, l)),
                );
            }
        }
    } else {
        let effect = "the skill has no metadata (description, flags)";
        crate::report_unclosed_front_matter(cx, &text, path, &source, effect);
    }
    let text_of = |k: &str| meta.get(k).and_then(crate::frontmatter::text_field);
    // A front-matter `name` is a display label (the command is the
    // directory name, see `skill`).
    let label = text_of("name").filter(|l| !l.trim().is_empty() && l != dir_name);
    let description = text_of("description")
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .or_else(|| first_line_description(&text.text[body_start..]))
        .or_else(|| Some(NO_DESCRIPTION.to_string()));
    let when = text_of("when_to_use")
        .map(|w| w.trim().to_string())
        .unwrap_or_default();
    let description = description.map(|d| with_source(d, path, &cx.profile));
    let description = listed_description(description, &when, &cx.profile);
    let desc_chars = description
        .as_deref()
        .map(|d| d.chars().count())
        .unwrap_or(0) as u64;

    // The source of a front-matter key: its line.
    let key_at = |k: &str| match fm {
        Some(fm) => {
            let l = crate::key_line(fm, k);
            source.clone().with_lines(l, l)
        }
        None => source.clone(),
    };
    let flag = |cx: &mut Compiler<'_, '_>, k: &str| -> Option<bool> {
        let v = meta.get(k)?;
        let lenient = cx.profile.has(Fact::LenientFrontMatterBooleans);
        let b = parse_bool(v, lenient);
        if b.is_none() {
            let accepted = if lenient {
                "true/false, yes/no, on/off, 1/0"
            } else {
                "true or false; this release reads `yes`, `no`, `on`, `off` as text"
            };
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("`{k}` in `{path}` is not a boolean ({accepted}); it is ignored."),
                )
                .at(key_at(k)),
            );
        }
        b
    };
    let disable_model = flag(cx, "disable-model-invocation").unwrap_or(false);
    let user_invocable = flag(cx, "user-invocable").unwrap_or(true);

    let raw_paths = meta.get("paths").filter(|v| !v.is_null());
    let patterns = raw_paths.and_then(claude_paths);
    let paths = patterns.as_ref().and(raw_paths).map(written_paths);
    if raw_paths.is_some_and(has_non_text) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidValue,
                format!("`paths` in `{path}` is neither a string nor a list of strings; what is not text is ignored."),
            )
            .at(key_at("paths")),
        );
    }
    let mut compiled = None;
    if let (Some(pats), Some(_)) = (&patterns, &paths) {
        let c = PathPatterns::shared(pats);
        cx.invalid_patterns(&c, &source, |p, _| {
            format!("The pattern `{p}` in `{path}` is invalid and matches nothing.")
        });
        compiled = Some(c);
    }
    let name = dir_name;
    let cap = description_cap(&cx.profile);
    let budget_risk = cap
        .filter(|&c| !disable_model && desc_chars > c)
        .map(|c| {
            Diagnostic::new(
                DiagnosticCode::SkillBudgetRisk,
                format!(
                    "The description of skill `{name}` is {desc_chars} characters; Claude Code caps each at \
                     {c} by default, so its end is cut. Shorten it."
                ),
            )
            .at(source.clone())
        });
    Some(SkillRead {
        source,
        label,
        description,
        desc_chars,
        disable_model,
        user_invocable,
        patterns: compiled,
        paths,
        budget_risk,
    })
}

/// The description as the skill listing shows it: `when_to_use`, when
/// given, follows the description after ` - ` (seen with 2.1.197 and
/// 2.1.332, case `claude.c27_skill_fields`: `Deploys the app. - When asked
/// to ship a release.`); with [`Fact::SkillDescriptionOneLine`] each line
/// break, with the white space around it, becomes one space; with
/// [`Fact::SkillDescriptionEscaped`] `<` and `>` are listed as `&lt;` and
/// `&gt;` (counted so in the description's characters). `None` when
/// there is neither a description nor `when_to_use`.
fn listed_description(
    description: Option<String>,
    when: &str,
    profile: &crate::profile::Profile,
) -> Option<String> {
    let mut joined = match (description, when.is_empty()) {
        (Some(d), false) => Some(format!("{d} - {when}")),
        (None, false) => Some(when.to_string()),
        (d, true) => d,
    }?;
    if profile.has(Fact::SkillDescriptionOneLine) && joined.contains('\n') {
        joined = joined
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
    }
    if profile.has(Fact::SkillDescriptionEscaped) {
        joined = joined.replace('<', "&lt;").replace('>', "&gt;");
    }
    Some(joined)
}

/// `description` as releases before [`Fact::SkillListingWithoutSource`]
/// list it, followed by the source of the skill file `path` in
/// parentheses: `project` for a file of the repository, `user` or
/// `managed` for one of the machine (2.0.76 `cli.js`: `${description}
/// (${source})`; seen with 2.0.59 to 2.0.76 on case
/// `claude.c17_skill_identity`: `Ship the app to staging. (project)`).
/// From that release on, `description` as it is.
fn with_source(description: String, path: &RepoPath, profile: &crate::profile::Profile) -> String {
    if profile.has(Fact::SkillListingWithoutSource) {
        return description;
    }
    let source = if !path.is_on_machine() {
        "project"
    } else if crate::user::scope_of(path) == SourceScope::Managed {
        "managed"
    } else {
        "user"
    };
    format!("{description} ({source})")
}

/// The description Claude Code lists for a skill with neither a
/// `description` nor a non-empty line in its body (2.1.197 and 2.1.332
/// list an empty `SKILL.md` as `Skill`: cases `fuzz.claude-code.1002`,
/// `fuzz.claude-code.home.2`).
const NO_DESCRIPTION: &str = "Skill";

/// The description Claude Code gives a skill without one: the first
/// non-empty line of the body, heading markers stripped; a line of more
/// than 100 characters becomes its first 97 and `...` (fidelity C19; seen
/// with 2.1.197 and 2.1.332, fixture `c19_description_fallback`: `#
/// Heading here` gives "Heading here", a 126-character heading its first
/// 97 characters and `...`).
fn first_line_description(body: &str) -> Option<String> {
    const MAX_CHARS: usize = 100;
    body.lines()
        .map(|l| crate::js_trim(crate::js_trim(l).trim_start_matches('#')))
        .find(|l| !l.is_empty())
        .map(|l| {
            if l.chars().count() > MAX_CHARS {
                let mut cut: String = l.chars().take(MAX_CHARS - 3).collect();
                cut.push_str("...");
                cut
            } else {
                l.to_string()
            }
        })
}

/// `skillOverrides` (map of skill name to `on`, `name-only`,
/// `user-invocable-only`, `off`). Mapping: `off` → excluded, both
/// invocations blocked, hidden; `user-invocable-only` → implicit blocked,
/// hidden; `name-only` → advertised with `nameOnly`; `on` → unchanged.
fn overrides(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let layers: Vec<(
        serde_json::Map<String, Value>,
        crate::settings::SettingsLayer,
    )> = settings
        .values("skillOverrides")
        .into_iter()
        .filter_map(|(v, l)| v.as_object().map(|m| (m.clone(), l.clone())))
        .collect();
    // Every layer here holds an object: a settings file where it is not
    // one fails the schema and is not applied (settings.rs).
    for (map, layer) in layers {
        for (name, val) in map {
            let src = layer.at(&["skillOverrides", &name]);
            let state = val.as_str().unwrap_or("");
            if !["on", "name-only", "user-invocable-only", "off"].contains(&state) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillOverrideUnresolved,
                        format!(
                            "`skillOverrides.{name}` in `{}` is not one of on, name-only, user-invocable-only, off; it \
                             changes nothing.",
                            src.path
                        ),
                    )
                    .at(src.clone()),
                );
                continue;
            }
            let mut hit = false;
            for s in cx
                .out
                .skills
                .iter_mut()
                .filter(|s| s.name == name || s.directory_name == name)
            {
                hit = true;
                s.metadata_sources.push(src.clone());
                match state {
                    "off" => {
                        s.applicability = Applicability::Excluded;
                        s.invocation = Invocation {
                            explicit: Permission::Blocked,
                            implicit: Permission::Blocked,
                        };
                        s.advertisement.state = AdvertisementState::Hidden;
                        s.reason = format!("turned off by skillOverrides in `{}`", src.path);
                    }
                    "user-invocable-only" => {
                        s.invocation.implicit = Permission::Blocked;
                        s.advertisement.state = AdvertisementState::Hidden;
                    }
                    "name-only" => s.advertisement.name_only = true,
                    _ => {}
                }
            }
            if hit {
                if state != "on" {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::SkillOverrideApplied,
                            format!(
                                "`skillOverrides` sets skill `{name}` to `{state}` ({}).",
                                match state {
                                    "off" => "excluded: not available, not listed",
                                    "user-invocable-only" => "the user may invoke it; the model neither sees nor invokes it",
                                    _ => "listed by name only, without its description",
                                }
                            ),
                        )
                        .at(src.clone()),
                    );
                }
            } else {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillOverrideUnresolved,
                        format!(
                            "`skillOverrides.{name}` in `{}` names no repository skill in this context; it may name a \
                             user, bundled or plugin skill the analysis cannot see.",
                            src.path
                        ),
                    )
                    .at(src.clone())
                    .with_severity(playbookdiff_model::Severity::Info),
                );
            }
        }
    }
}

/// The directory holding the `.claude` of a skill at
/// `<owner>/.claude/skills/<dir>/SKILL.md` (or a command file below
/// `<owner>/.claude/commands/`).
fn owner_of(path: &RepoPath) -> RepoPath {
    if path.is_on_machine() {
        return RepoPath::root();
    }
    let p = path.as_str();
    match p.find(".claude/") {
        Some(0) => RepoPath::root(),
        Some(i) => RepoPath::new(p[..i].trim_end_matches('/')).unwrap_or_else(RepoPath::root),
        None => RepoPath::root(),
    }
}

/// Same-name skills: a skill from a nested `.claude/skills` (below the
/// launch directory) whose name is taken is offered as `<dir>:<name>`,
/// keyed on the directory holding its `.claude` (fidelity C17; seen with
/// 2.1.197 and 2.1.332: `apps/web/.claude/skills/alpha` beside a root
/// `alpha` is `apps/web:alpha`). Skills still sharing a name are kept apart
/// and cross-referenced.
fn collisions(cx: &mut Compiler<'_, '_>) {
    if cx.profile.has(Fact::SkillListingOnePerName) {
        closest_skill_wins(cx);
    }
    let cwd = cx.context.cwd.clone();
    let startup: std::collections::HashSet<String> = cx
        .out
        .skills
        .iter()
        .filter(|s| !crate::strictly_below(&owner_of(&s.source.path), &cwd))
        .map(|s| s.name.clone())
        .collect();
    for s in cx.out.skills.iter_mut() {
        let owner = owner_of(&s.source.path);
        if crate::strictly_below(&owner, &cwd) && startup.contains(&s.name) {
            let qualified = format!("{owner}:{}", s.name);
            s.reason.push_str(&format!(
                "; offered as `{qualified}` because a skill named `{}` is already loaded",
                s.name
            ));
            s.name = qualified;
        }
    }
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in cx.out.skills.iter().enumerate() {
        // A legacy command shadowed by a skill is reported on its own.
        if s.applicability != Applicability::Shadowed {
            by_name.entry(s.name.clone()).or_default().push(i);
        }
    }
    for (name, idx) in by_name {
        if idx.len() < 2 {
            continue;
        }
        let ids: Vec<String> = idx.iter().map(|&i| cx.out.skills[i].id.clone()).collect();
        let paths: Vec<String> = idx
            .iter()
            .map(|&i| format!("`{}`", cx.out.skills[i].source.path))
            .collect();
        for &i in &idx {
            let own = cx.out.skills[i].id.clone();
            cx.out.skills[i].cross_references =
                ids.iter().filter(|x| **x != own).cloned().collect();
        }
        shadow_below_machine_skill(cx, &idx);
        let first = cx.out.skills[idx[0]].source.clone();
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNameCollision,
                // count >= 2: a collision.
                format!(
                    "{} skills are named `{name}` ({}); the first one found wins the name in Claude Code, and user \
                     or plugin skills the analysis cannot see may also claim it.",
                    idx.len(),
                    paths.join(", ")
                ),
            )
            .at(first),
        );
    }
}

/// Same-name skills of the `.claude/skills` folders from the root to the
/// launch directory: the listing to the model keeps one entry per name, the
/// listed skill of the folder closest to the launch directory; the others
/// are shadowed. A skill kept from the model (`disable-model-invocation`)
/// takes no entry, so a farther one of its name is still listed (random
/// repository `fuzz.claude-code.164`).
/// [`Fact::SkillListingOnePerName`], bisected on legacy commands; for
/// skills seen with 2.1.332 (random repositories `fuzz.claude-code.12`,
/// 149, 238 and 281: one `x` is listed, with the description of
/// `api/.claude/skills/x`, not the root's), while 2.1.197 lists both.
fn closest_skill_wins(cx: &mut Compiler<'_, '_>) {
    let cwd = cx.context.cwd.clone();
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in cx.out.skills.iter().enumerate() {
        let owner = owner_of(&s.source.path);
        let on_chain = !crate::strictly_below(&owner, &cwd) && cwd.starts_with(&owner);
        let listed = s.advertisement.state != AdvertisementState::Hidden;
        if on_chain
            && listed
            && s.applicability != Applicability::Shadowed
            && s.load_phase == LoadPhase::Startup
        {
            by_name.entry(s.name.clone()).or_default().push(i);
        }
    }
    for (name, mut idx) in by_name {
        if idx.len() < 2 {
            continue;
        }
        idx.sort_by_key(|&i| std::cmp::Reverse(owner_of(&cx.out.skills[i].source.path).depth()));
        let winner = cx.out.skills[idx[0]].id.clone();
        let winner_path = cx.out.skills[idx[0]].source.path.clone();
        for &i in &idx[1..] {
            let s = &mut cx.out.skills[i];
            s.applicability = Applicability::Shadowed;
            s.advertisement.state = AdvertisementState::Hidden;
            s.reason = format!(
                "{}; `{name}` is taken by `{winner_path}`, closer to the launch directory, which wins",
                s.reason
            );
            s.cross_references = vec![winner.clone()];
            let at = s.source.clone();
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SkillNameCollision,
                    format!(
                        "The skill `{}` is named `{name}`, as `{winner_path}` closer to the launch directory, which \
                         wins; it is not offered. Rename or remove one of them.",
                        at.path
                    ),
                )
                .at(at),
            );
        }
    }
}

/// Of the same-name skills `idx` (in the order found: managed, user, then
/// the project's), when the first is a managed or user skill and the
/// release lists one skill per name, the later ones are shadowed: 2.1.332
/// lists only the user's `build` when the project has a `build` too, and
/// 2.1.197 lists both (case `oracle.local_user_layers.home-claude-skills`;
/// harness facts A7, "Conflicts: enterprise > personal > project").
fn shadow_below_machine_skill(cx: &mut Compiler<'_, '_>, idx: &[usize]) {
    let Some((&first, rest)) = idx.split_first() else {
        return;
    };
    let winner = cx.out.skills[first].source.path.clone();
    if !winner.is_on_machine() || !cx.profile.has(Fact::SkillListingOnePerName) {
        return;
    }
    for &i in rest {
        let s = &mut cx.out.skills[i];
        s.applicability = Applicability::Shadowed;
        s.advertisement.state = AdvertisementState::Hidden;
        s.reason = format!(
            "{}; `{}` ({}) has the same name and wins",
            s.reason,
            winner,
            crate::user::scope_of(&winner).as_str()
        );
    }
}

/// The listing budget, as the release spends it
/// ([`crate::listing::Fit`]): skills left out whole before
/// [`Fact::SkillListingShortensDescriptions`] ([`listing_char_budget`]),
/// descriptions cut to one equal share in 2.1.19
/// ([`crate::listing::equal_share`]), from
/// [`Fact::SkillListingBudgetFromContextWindow`] to one share of the
/// window's budget ([`crate::listing::window_share`]),
/// kept whole or dropped from [`Fact::SkillListingDropsDescriptionsByUse`]
/// ([`crate::listing::by_use`]). In local mode the installed plugins'
/// skills count, as listed (`plugin:name`), as Claude Code lists them
/// with the others in one skill listing (seen with 2.1.197 and 2.1.332,
/// case `oracle.local_user_layers.home-claude-plugins`), so it runs after
/// [`crate::plugins`].
pub(crate) fn budget(cx: &mut Compiler<'_, '_>) {
    use crate::listing::Fit;
    match Fit::of(&cx.profile) {
        Fit::LeavesOut => listing_char_budget(cx),
        Fit::EqualShare => crate::listing::equal_share(cx),
        Fit::WindowShare => crate::listing::window_share(cx),
        Fit::ByUse => crate::listing::by_use(cx),
    }
}

/// Puts the skills in the order of the release's skill listing. From
/// [`Fact::SkillListingSorted`] on, by name within each source
/// ([`listing_collator`]'s order), the
/// sources in the order compiled: the managed policy's, the user's, the
/// repository's skills (each skills directory on the launch directory's
/// chain apart, the nearest first: 2.1.154, 2.1.197 and 2.1.332 list
/// `lib/sub`'s `b-sub`, `y-sub`, then `lib`'s, then the root's, case
/// `claude.skill_listing_dir_order`; found by the fuzzer, case
/// `fuzz.claude-code.home.2`), then the legacy commands (2.1.197 and 2.1.332:
/// case `claude.c23_legacy_commands_as_skills.in-sub` lists `deploy`, then
/// the commands `deploy`, `frontend:component`, `review`, `review`,
/// `sub-only`; corpus `getsentry__sentry-mcp` its skills by name, then
/// its `opsx:` commands; `oracle.local_user_layers.home-claude-skills` the
/// user's `build` and `standup`, then the project's `build`); a plugin's
/// skills, compiled later, keep their plugin's order, and skills found on
/// demand follow the listing as compiled. Before it,
/// as compiled: a directory's skills by name, then the legacy commands
/// (whose order those releases do not fix), or, from
/// [`Fact::SkillsInListingOrder`] on, in the order the file system lists
/// the directory, which the analysis cannot know (an assumption says so).
fn listing_order(cx: &mut Compiler<'_, '_>) {
    if cx.profile.has(Fact::SkillListingSorted) {
        // Skills off the startup listing (found on demand) stay after it,
        // as compiled.
        // The repository's skills directories: the nearest to the launch
        // directory first (the deepest owner on its chain).
        let source = |s: &Skill| match s.source.scope {
            _ if s.load_phase != LoadPhase::Startup => (4, Reverse(0)),
            _ if is_command(s) => (3, Reverse(0)),
            SourceScope::Managed => (0, Reverse(0)),
            SourceScope::User => (1, Reverse(0)),
            _ => (2, Reverse(owner_of(&s.source.path).depth())),
        };
        let mut names = listing_collator();
        cx.out.skills.sort_by(|a, b| {
            let (sa, sb) = (source(a), source(b));
            sa.cmp(&sb).then_with(|| match sa.0 {
                4 => Ordering::Equal,
                _ => names.collate(a.name.as_str(), b.name.as_str()),
            })
        });
    } else if cx.profile.has(Fact::SkillsInListingOrder)
        && cx.out.skills.len() > 1
        && !cx.out.assumptions.iter().any(|a| a == SKILL_ORDER)
    {
        cx.out.assumptions.push(SKILL_ORDER.to_string());
    }
}

/// The order of names in the skill listing: JavaScript's `localeCompare`,
/// the Unicode Collation Algorithm with the CLDR root order, punctuation
/// not ignored (2.1.197 and 2.1.332 list `a_b`, `a-b`, `a1`, `a10`, `a2`,
/// `B`, `db_query`, `Test-Runner`, `Zeta`: case
/// `claude.skill_listing_name_order`, found by the fuzzer as
/// `fuzz.claude-code.1002`); equal names keep their byte order.
fn listing_collator() -> Collator {
    Collator::new(Tailoring::Cldr(Locale::Root), false, true)
}

/// The assumption of a release that lists skills in the file system's
/// order ([`Fact::SkillsInListingOrder`] before [`Fact::SkillListingSorted`]).
const SKILL_ORDER: &str = "Skills are listed by name; this Claude Code release lists a skills directory in the order the \
                           file system lists it, which is unsorted, so their order may differ.";

/// Whether the listing holds `skill`: effective, and advertised (or at
/// risk of the listing's budget). One place for [`listed_at_startup`]
/// and the listing's budget (`listing::listed`).
pub(crate) fn in_listing(skill: &playbookdiff_model::Skill) -> bool {
    skill.applicability == Applicability::Effective
        && matches!(
            skill.advertisement.state,
            AdvertisementState::Advertised | AdvertisementState::BudgetRisk
        )
}

/// The skills the listing holds (indices into the output's skills), in
/// the order compiled.
fn listed_at_startup(cx: &Compiler<'_, '_>) -> Vec<usize> {
    cx.out
        .skills
        .iter()
        .enumerate()
        .filter(|(_, s)| in_listing(s))
        .map(|(i, _)| i)
        .collect()
}

/// The listing budget before [`Fact::SkillListingShortensDescriptions`]: the
/// listing takes the skills in its order, adding each one's entry length
/// and one (a line end), and stops at the first whose sum passes
/// [`LISTING_CHAR_BUDGET`]: that skill and every later one are
/// `omitted`, whole, with one `skill-listing-over-budget` diagnostic
/// (2.0.76 and 2.0.77 `cli.js`, the listing's `limitedCommands`; case
/// `claude.c30_listing_char_budget`: 2.0.76 lists `cap-01` to `cap-11`,
/// 2.0.77 to `cap-12`). The listing's order: the skills by name, then
/// the legacy commands ([`Fact::SkillsInListingOrder`]; the commands'
/// order is not fixed in those releases, so which command a cut among
/// them leaves out is this order's guess).
fn listing_char_budget(cx: &mut Compiler<'_, '_>) {
    let mut listed = listed_at_startup(cx);
    listed.retain(|&i| cx.out.skills[i].load_phase == LoadPhase::Startup);
    let skills = &cx.out.skills;
    listed.sort_by(|&a, &b| {
        let key = |i: usize| (is_command(&skills[i]), skills[i].name.clone());
        key(a).cmp(&key(b))
    });
    let xml = !cx.profile.has(Fact::SkillListingWithoutSource);
    let mut sum = 0;
    let Some(cut) = listed.iter().position(|&i| {
        sum += listing_entry_units(&cx.out.skills[i], xml) + 1;
        sum > LISTING_CHAR_BUDGET
    }) else {
        return;
    };
    let left_out = listed[cut..].to_vec();
    for &i in &left_out {
        let s = &mut cx.out.skills[i];
        s.advertisement.state = AdvertisementState::Omitted;
        s.reason = format!("{}; left out of the skill listing by its budget", s.reason);
    }
    let first = &cx.out.skills[left_out[0]];
    let what = match left_out.len() - 1 {
        0 => "it is left out".to_string(),
        n => format!(
            "it and the {} after it are left out",
            playbookdiff_model::remedy::count(n, "skill", "skills")
        ),
    };
    let d = Diagnostic::new(
        DiagnosticCode::SkillListingOverBudget,
        format!(
            "The skill listing passes Claude Code's budget of {LISTING_CHAR_BUDGET} characters at `{}`: {what}, so \
             the model is not told of them. Shorten the descriptions or remove skills.",
            first.name,
        ),
    )
    .at(first.source.clone());
    cx.diag(d);
}

/// True for a legacy command listed as a skill (its file lies in a
/// `.claude/commands` directory).
fn is_command(s: &Skill) -> bool {
    s.source.path.as_str().contains(".claude/commands/")
}

/// The length of `s`'s entry in the listing, in UTF-16 code units: its
/// `<skill>` XML (`name`, `description`, `location`) with `xml`, else its
/// `- name: description` line (2.0.76 and 2.0.77 `cli.js`). The location
/// is a word of the skill's source: seven characters for a skill of the
/// repository or the managed policy, `user` for the user's.
fn listing_entry_units(s: &Skill, xml: bool) -> u64 {
    let description = s.description.as_deref().unwrap_or("");
    let entry = if xml {
        let location = match s.source.scope {
            SourceScope::User => "user",
            _ => "project",
        };
        format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{description}\n</description>\n<location>\n{location}\n\
             </location>\n</skill>",
            s.name
        )
    } else {
        format!("- {}: {description}", s.name)
    };
    entry.encode_utf16().count() as u64
}

/// Legacy custom commands, `.claude/commands/**/*.md`, as Claude Code
/// loads them: skills named after their path below `.claude/commands`
/// (`review.md` is `/review`, `frontend/component.md` is
/// `/frontend:component`), with the front matter of a skill
/// (`description`, else the first line; `disable-model-invocation` keeps
/// one off the model's list). They are read from the launch directory and
/// its ancestors, the launch directory's first. Since 2.1.332 a name
/// already taken by a `.claude/skills` skill is shadowed (the skill wins),
/// and a name taken by a closer command directory too; 2.1.197 lists both
/// ([`Fact::SkillListingOnePerName`]).
///
/// Source: fidelity C23 (older source; skills documentation: "custom
/// commands have been merged into skills"); seen with 2.1.197 and 2.1.332,
/// fixtures `legacy_commands` and `c23_legacy_commands_as_skills`.
/// Command directories off the startup chain (below the launch directory,
/// on the way to a target) are reported as `legacy-commands-unsupported`:
/// whether a read there adds them is not observed. Before
/// [`Fact::CommandsListedAsSkills`] commands are not skills: the skill
/// listing leaves them out (the `SlashCommand` tool of those releases
/// offers them, which is not modelled).
fn legacy_commands(cx: &mut Compiler<'_, '_>) {
    if !cx.profile.has(Fact::CommandsListedAsSkills) {
        return;
    }
    let cwd = cx.context.cwd.clone();
    let chain: Vec<RepoPath> = playbookdiff_adapter::scope::work_tree_chain(cx.repo, &cwd)
        .into_iter()
        .rev()
        .filter(crate::outside_dot_claude)
        .collect();
    let taken: std::collections::HashMap<String, String> = cx
        .out
        .skills
        .iter()
        .filter(|s| s.load_phase == LoadPhase::Startup || s.paths.is_some())
        .filter(|s| !crate::strictly_below(&owner_of(&s.source.path), &cwd))
        .map(|s| (s.name.clone(), s.id.clone()))
        .collect();
    let mut commands: std::collections::HashMap<String, (String, RepoPath)> =
        std::collections::HashMap::new();
    for owner in &chain {
        let Some(d) = owner.join(".claude/commands") else {
            continue;
        };
        if !cx.repo.is_dir(&d) {
            if cx.repo.kind(&d).is_some() {
                cx.check_link(&d, SourceFormat::Markdown);
            }
            continue;
        }
        let reason = if owner == &cwd {
            "legacy command discovered at startup in the launch directory".to_string()
        } else {
            format!("legacy command discovered at startup in `{owner}`, an ancestor of the launch directory")
        };
        for (file, name) in command_files(cx, &d) {
            add_command(cx, &file, &name, &reason, &taken, &mut commands);
        }
    }
    // In local mode, the user's commands, after the project's: a name the
    // project's commands or skills already hold stays theirs (assumed, as
    // for skills and subagents; not observed).
    if let Some(places) = cx.user {
        if let Some(d) = places.in_home("commands") {
            let reason =
                format!("the user's legacy command in `{d}`, offered at startup in every project");
            for file in crate::user::markdown_below(&places, &d) {
                let Some(rel) = crate::relative_to(&file, &d) else {
                    continue;
                };
                let name = rel.trim_end_matches(".md").replace('/', ":");
                if !name.is_empty() && cx.expect_file(&file, SourceFormat::Markdown) {
                    add_command(cx, &file, &name, &reason, &taken, &mut commands);
                }
            }
        }
    }

    // Off the startup chain: detected, not modelled.
    let dirs: Vec<RepoPath> = cx
        .off_chain_owners(".claude/commands")
        .iter()
        .filter_map(|o| o.join(".claude/commands"))
        .filter(|d| cx.repo.kind(d).is_some())
        .collect();
    for d in dirs {
        let count = command_files(cx, &d).len();
        if count == 0 {
            continue;
        }
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::LegacyCommandsUnsupported,
                format!(
                    "`{d}` holds {} off the launch directory's path; Claude Code \
                     reads commands from the launch directory and its ancestors, and whether reading a file here adds \
                     them is not modelled by PlaybookDiff. Launch Claude Code there, or move them to `.claude/skills/<name>/SKILL.md`.",
                    playbookdiff_model::remedy::count(count, "legacy custom command file", "legacy custom command files")
                ),
            )
            .at(SourceRef::project(d.clone(), SourceFormat::Markdown)),
        );
    }
}

/// Adds the legacy command `file`, named `/name`, as a skill: shadowed
/// when `taken` (the startup skills) or an earlier command of `commands`
/// holds the name and the release lists one skill per name; otherwise
/// recorded in `commands`.
fn add_command(
    cx: &mut Compiler<'_, '_>,
    file: &RepoPath,
    name: &str,
    reason: &str,
    taken: &std::collections::HashMap<String, String>,
    commands: &mut std::collections::HashMap<String, (String, RepoPath)>,
) {
    let Some(mut s) = skill(
        cx,
        file,
        name,
        LoadPhase::Startup,
        Applicability::Effective,
        reason,
    ) else {
        return;
    };
    let winner = taken
        .get(name)
        .map(|id| (id.clone(), "a skill of the same name".to_string()))
        .or_else(|| {
            commands
                .get(name)
                .map(|(id, p)| (id.clone(), format!("the command `{p}`")))
        });
    let winner = winner.filter(|_| cx.profile.has(Fact::SkillListingOnePerName));
    if let Some((id, what)) = winner {
        s.applicability = Applicability::Shadowed;
        s.advertisement.state = AdvertisementState::Hidden;
        s.reason = format!("{reason}; `/{name}` is taken by {what}, which wins");
        s.cross_references = vec![id];
        cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillNameCollision,
                        format!(
                            "The legacy command `{file}` is `/{name}`, but {what} has that name and wins; the command \
                             is not offered. Rename or remove one of them."
                        ),
                    )
                    .at(if file.is_on_machine() {
                        crate::user::source_ref(file, SourceFormat::Markdown)
                    } else {
                        SourceRef::project(file.clone(), SourceFormat::Markdown)
                    }),
                );
    } else {
        commands.insert(name.to_string(), (s.id.clone(), file.clone()));
    }
    cx.out.skills.push(s);
}

/// The `*.md` files below the commands directory `d`, recursively, sorted
/// by path, with their command names: the path below `d` without `.md`,
/// directories joined by `:`. Directories reached twice through links are
/// walked once.
fn command_files(cx: &mut Compiler<'_, '_>, d: &RepoPath) -> Vec<(RepoPath, String)> {
    let mut out = Vec::new();
    let mut stack = vec![d.clone()];
    let mut seen = std::collections::HashSet::new();
    while let Some(dir) = stack.pop() {
        if !seen.insert(cx.repo_real(&dir)) {
            continue;
        }
        for e in cx.repo.list_dir(&dir).to_vec() {
            let Some(p) = dir.join(&e.name) else { continue };
            if cx.repo.is_dir(&p) {
                stack.push(p);
            } else if e.name.ends_with(".md") {
                let rel = crate::relative_to(&p, d).unwrap_or_default();
                let name = rel.trim_end_matches(".md").replace('/', ":");
                if !name.is_empty() {
                    out.push((p, name));
                }
            }
        }
    }
    out.sort();
    out
}

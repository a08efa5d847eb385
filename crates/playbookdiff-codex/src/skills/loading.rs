//! One skill as Codex loads it: its `SKILL.md` front matter
//! ([`crate::skill_file`]), its `agents/openai.yaml` policy, and the
//! listed [`Skill`](playbookdiff_model::Skill) built from them.

use super::discovery::Found;
use super::namespace::qualify;
use super::{aggregate_budget, Root};
use crate::profile::Facts;
use crate::skill_file;
use crate::skill_file::Parsed as FileParse;
use crate::{not_a_file, Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, Diagnostic, DiagnosticCode, Invocation,
    LoadPhase, Permission, RepoPath, Severity, Skill, SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Resolved, TextFile};

/// What the analysis makes of one `SKILL.md`.
#[derive(Clone)]
pub(crate) struct Parsed {
    pub(super) name: Option<String>,
    /// The plugin namespace the name was qualified with, and its manifest.
    pub(super) namespace: Option<(String, RepoPath)>,
    pub(super) description: Option<String>,
    /// Lines of the front matter.
    pub(super) lines: Option<(u32, u32)>,
    /// Why Codex rejects it, when it does.
    pub(super) invalid: Option<String>,
}

/// Reads `file` (found in the folder named `dir_name`) as Codex does;
/// `report` emits diagnostics.
pub(crate) fn parse_front_matter(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    dir_name: &str,
    text: &TextFile,
    report: bool,
) -> Parsed {
    let src = SourceRef::project(file.clone(), SourceFormat::Markdown);
    let mut p = Parsed {
        name: None,
        namespace: None,
        description: None,
        lines: None,
        invalid: None,
    };
    if text.invalid_utf8 {
        let line = text.text.find('\u{fffd}').map(|o| text.line_of(o));
        if report {
            let at = line.map(|n| format!(" (line {n})")).unwrap_or_default();
            let mut s = src.clone();
            if let Some(n) = line {
                s = s.with_lines(n, n);
            }
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidUtf8,
                    format!("{q_file} is not valid UTF-8{at}; Codex reads `SKILL.md` as UTF-8 text, fails on it and does not list this skill; save it as UTF-8.", q_file = problems::quote(file)),
                )
                .at(s),
            );
        }
        p.invalid = Some("it is not valid UTF-8".to_string());
        return p;
    }
    let Some(block) = skill_file::block(&text.text) else {
        let (why, msg, lines) = if skill_file::opens(&text.text) {
            ("its front matter is never closed", format!("{q_file} opens its front matter with --- on line 1 but no later --- line closes it, so Codex finds no front matter and does not load the skill; close the front matter with a --- line.", q_file = problems::quote(file)), Some((1, 1)))
        } else if text.text.starts_with('\u{feff}') {
            ("a byte-order mark precedes its front matter", format!("{q_file} starts with a byte-order mark before its --- line, so Codex finds no front matter and does not load the skill; save it as UTF-8 without a byte-order mark.", q_file = problems::quote(file)), Some((1, 1)))
        } else {
            ("it has no YAML front matter", format!("{} does not start with a `---` line opening YAML front matter, so Codex does not load it as a skill; put front matter with a description at the very top.", problems::quote(file)), None)
        };
        if report {
            let mut s = src.clone();
            if let Some((a, b)) = lines {
                s = s.with_lines(a, b);
            }
            cx.diag(Diagnostic::new(DiagnosticCode::InvalidFrontmatter, msg).at(s));
        }
        p.lines = lines;
        p.invalid = Some(why.to_string());
        return p;
    };
    p.lines = Some((1, block.end_line));
    match skill_file::parse(&block.yaml, dir_name, cx.skill_rules) {
        FileParse::Ok {
            name,
            description,
            repaired: _,
        } => {
            p.name = Some(name);
            p.description = Some(description);
        }
        FileParse::Rejected { why, line } => {
            if report {
                let (code, fix) = if why.contains("limit") {
                    (DiagnosticCode::InvalidValue, "shorten it")
                } else if why.contains("description") {
                    (
                        DiagnosticCode::SkillFieldMissing,
                        "add a non-empty description",
                    )
                } else if why.contains("not text") || why.contains("metadata") {
                    (
                        DiagnosticCode::SkillFieldInvalid,
                        "write the field as a single string (metadata as a mapping)",
                    )
                } else {
                    (DiagnosticCode::InvalidFrontmatter, "fix the YAML")
                };
                let at = match line {
                    Some(l) => src.clone().with_lines(l + 1, l + 1),
                    None => src.clone().with_lines(1, block.end_line),
                };
                let at_line = line
                    .map(|l| format!(" (line {})", l + 1))
                    .unwrap_or_default();
                cx.diag(
                    Diagnostic::new(
                        code,
                        format!(
                            "Codex refuses {q_file}: {why}{at_line}; {fix}.",
                            q_file = problems::quote(file)
                        ),
                    )
                    .at(at),
                );
            }
            p.invalid = Some(why);
        }
    }
    p
}

/// The policy of `<skill>/agents/openai.yaml` and the file as a metadata
/// source when it exists (`load_skill_metadata`: anything Codex cannot
/// read is ignored and the defaults apply).
pub(crate) fn policy(
    cx: &mut Cx<'_, '_>,
    skill_dir: &RepoPath,
    report: bool,
) -> (skill_file::Policy, Option<SourceRef>) {
    let default = skill_file::Policy::default();
    let Some(path) = skill_dir.join("agents/openai.yaml") else {
        return (default, None);
    };
    let resolved = match cx.resolve(&path) {
        Resolved::Inside {
            kind: EntryKind::File,
            real,
            via_link,
        } => via_link.then_some(real),
        Resolved::Missing => return (default, None),
        Resolved::Inside { kind, via_link, .. } => {
            if report {
                not_a_file(
                    cx,
                    &path,
                    kind,
                    via_link,
                    "Codex ignores it and the skill keeps the default policy (implicit invocation allowed)",
                    SourceFormat::Yaml,
                    Severity::Warning,
                );
            }
            return (default, None);
        }
        other => {
            if report {
                cx.link_problem(
                    &other,
                    &format!("The skill metadata {}", problems::quote(&path)),
                    "Codex ignores it and the skill keeps the default policy",
                    SourceFormat::Yaml,
                );
            }
            return (default, None);
        }
    };
    let mut src = SourceRef::project(path.clone(), SourceFormat::Yaml);
    src.resolved_path = resolved;
    let Ok(text) = cx.repo.read_text(&path, READ_LIMIT) else {
        return (default, Some(src));
    };
    let line = text
        .text
        .lines()
        .position(|l| l.trim_start().starts_with("allow_implicit_invocation"))
        .map(|i| i as u32 + 1);
    match line {
        Some(l) => src = src.with_lines(l, l),
        None if text.line_count() > 0 => src = src.with_lines(1, text.line_count()),
        None => {}
    }
    let p = skill_file::policy(&text.text);
    if p.ignored && report {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidYaml,
                format!("{q_path} does not match what Codex reads (invalid YAML, a value of the wrong type such as allow_implicit_invocation: no instead of false, or an unknown product), so Codex ignores the whole file: the skill keeps the defaults (implicit invocation allowed, listed for every product); write true or false and known product names.", q_path = problems::quote(&path)),
            )
            .with_severity(Severity::Warning)
            .at(src.clone()),
        );
    }
    (p, Some(src))
}

/// The `SKILL.md` at `file` (`real`: its real path) as [`read_skill`]
/// reads it, with the diagnostics of that reading.
pub(super) fn read_found(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    facts: &Facts,
) -> Found {
    // Codex names a skill without `name` after the real folder holding it.
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    let dir_name = real
        .parent()
        .and_then(|d| d.file_name().map(str::to_string))
        .unwrap_or_else(|| skill_dir.file_name().unwrap_or("skill").to_string());
    let before = cx.diags.len();
    let read = match file.parent() {
        Some(skill_dir) => read_skill(cx, file, real, &skill_dir, &dir_name, facts),
        None => None,
    };
    let diags = cx.diags.split_off(before);
    Found::Skill {
        file: file.clone(),
        real: real.clone(),
        dir_name,
        read,
        diags,
    }
}

/// Reads the `SKILL.md` at `file` (`real`: its real path; `skill_dir`: its
/// folder, named `dir_name` for Codex) as Codex does, whatever the launch
/// directory: its front matter qualified in its plugin namespace, and the
/// policy of its `agents/openai.yaml`. `None` when it cannot be read
/// (reported).
pub(super) fn read_skill(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    real: &RepoPath,
    skill_dir: &RepoPath,
    dir_name: &str,
    facts: &Facts,
) -> Option<(Parsed, skill_file::Policy, Option<SourceRef>)> {
    let text = match cx.repo.read_text(file, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            crate::config::read_error(cx, file, e, SourceFormat::Markdown);
            return None;
        }
    };
    let mut parsed = parse_front_matter(cx, file, dir_name, &text, true);
    if parsed.invalid.is_none() {
        qualify(cx, file, real, facts, &mut parsed, true);
    }
    let (pol, meta) = policy(cx, skill_dir, true);
    Some((parsed, pol, meta))
}

/// Reports a `SKILL.md` that is a directory or a special file: Codex reads
/// only a regular file of that name (a directory is scanned as a folder).
pub(super) fn skill_file_not_a_file(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    kind: EntryKind,
    via_link: bool,
) {
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    not_a_file(
        cx,
        file,
        kind,
        via_link,
        &format!(
            "Codex does not read it as a skill file and lists no skill for {}",
            problems::quote(&skill_dir)
        ),
        SourceFormat::Markdown,
        Severity::Warning,
    );
}

/// Assembles a skill from its parsed parts.
pub(super) fn build(
    cx: &Cx<'_, '_>,
    root: &Root,
    dir_name: &str,
    file: &RepoPath,
    parsed: &Parsed,
    pol: skill_file::Policy,
    meta: Option<SourceRef>,
) -> Skill {
    let cwd = &cx.context.cwd;
    let scan_dir = &root.scan_dir;
    let mut source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    if let Some((s, e)) = parsed.lines {
        source = source.with_lines(s, e);
    }
    let place = if scan_dir == cwd {
        "cwd itself"
    } else if scan_dir.is_root() {
        "the repository root"
    } else {
        ""
    };
    // The skills root's own name (`.agents/skills`, `.codex/skills`),
    // whether it lies at the repository root or below a directory.
    let (dot, root_name) = match root.path.as_str().rsplit_once("/.") {
        Some((_, r)) => (".", r),
        None => ("", root.path.as_str()),
    };
    // Joined rather than formatted: every launch directory builds every
    // skill of its roots.
    let found = if place.is_empty() {
        [
            "Found in the ",
            dot,
            root_name,
            " of ",
            scan_dir.as_str(),
            ", a parent of cwd",
        ]
        .concat()
    } else {
        ["Found in the ", dot, root_name, " of ", place].concat()
    };
    let implicit = match pol.allow_implicit {
        Some(false) => Permission::Blocked,
        _ => Permission::Allowed,
    };
    let (applicability, reason, invocation, state) = match &parsed.invalid {
        Some(why) => (
            Applicability::Excluded,
            format!("{found}, but {why}, so Codex does not load it."),
            Invocation { explicit: Permission::Blocked, implicit: Permission::Blocked },
            AdvertisementState::Hidden,
        ),
        None if !pol.for_codex => (
            Applicability::Excluded,
            format!("{found}, but its agents/openai.yaml lists policy.products without codex, so the Codex CLI drops it."),
            Invocation { explicit: Permission::Blocked, implicit: Permission::Blocked },
            AdvertisementState::Hidden,
        ),
        None if implicit == Permission::Blocked => (
            Applicability::Effective,
            format!("{found}: loaded at startup, but agents/openai.yaml sets policy.allow_implicit_invocation: false, so Codex leaves it out of the skill list the model sees (and out of the listing budget); the user can still invoke it by name."),
            Invocation { explicit: Permission::Allowed, implicit },
            AdvertisementState::Hidden,
        ),
        None => (
            Applicability::Effective,
            [
                found.as_str(),
                ": Codex scans the project's skill roots from cwd ",
                cwd.as_str(),
                " up to the repository root and lists each skill's name, description and path at startup.",
            ]
            .concat(),
            Invocation { explicit: Permission::Allowed, implicit },
            AdvertisementState::Advertised,
        ),
    };
    let description = parsed.description.clone();
    Skill {
        id: ["codex:skill:", file.as_str()].concat(),
        name: parsed.name.clone().unwrap_or_else(|| dir_name.to_string()),
        directory_name: dir_name.to_string(),
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason,
        description: description.clone(),
        invocation,
        advertisement: Advertisement {
            description_limit_chars: Some(skill_file::DESCRIPTION_SHOWN_LIMIT as u64),
            aggregate_budget: Some(aggregate_budget()),
            ..Advertisement::new(
                state,
                description
                    .as_deref()
                    .map_or(0, |d| d.chars().count() as u64),
            )
        },
        paths: None,
        metadata_sources: meta.into_iter().collect(),
        cross_references: Vec::new(),
    }
}

pub(super) fn unavailable(
    scan_dir: &RepoPath,
    skill_dir: &RepoPath,
    dir_name: &str,
    why: &str,
) -> Skill {
    let file = skill_dir
        .join("SKILL.md")
        .unwrap_or_else(|| skill_dir.clone());
    Skill {
        id: format!("codex:skill:{file}"),
        name: dir_name.to_string(),
        directory_name: dir_name.to_string(),
        source: SourceRef::project(file, SourceFormat::Markdown),
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Unavailable,
        reason: format!("Found in the .agents/skills of {scan_dir}, but {why}; Codex would read it, repo mode does not."),
        description: None,
        invocation: Invocation { explicit: Permission::Unknown, implicit: Permission::Unknown },
        advertisement: Advertisement {
            aggregate_budget: Some(aggregate_budget()),
            ..Advertisement::new(AdvertisementState::Unknown, 0)
        },
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

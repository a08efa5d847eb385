//! Repository skills (spec 004 "Skills", "Invocation"; harness facts B5;
//! field report 15).
//!
//! Codex scans `.agents/skills/<name>/SKILL.md` in every directory from cwd
//! up to the repository root, never below cwd. Links are followed inside
//! the repository (a linked skill folder, a linked `SKILL.md`, a linked
//! `.agents/skills` root); a link out of the repository is diagnosed and
//! its skill listed `unavailable`, unread; a dangling link or a loop is
//! diagnosed. Same-name skills stay separate entries with cross references.
//! `agents/openai.yaml` `policy.allow_implicit_invocation: false` blocks
//! implicit invocation only. The advertisement budget is reported as
//! `budget-risk`, never as a guess of which skill is cut.
//!
//! Skills under `.agents/skills` below cwd, and of the directories on the
//! way to targetPath, are listed `out-of-scope` so the scope gap stays
//! visible; they take no part in collisions, budgets or `skills.config`.
//! Skills of other directories (siblings) are not listed.
//!
//! A `SKILL.md` that is not valid UTF-8, whose front matter is not closed,
//! or whose `name` or `description` is a list or a mapping is reported
//! and `excluded`: Codex fails to parse it and lists nothing (openai/codex
//! `codex-rs/core-skills/src/loader.rs`).

use crate::config::{describe, get, invalid_value, read_error, value_extent, Layer};
use crate::{
    not_a_file, strictly_below, target_only_dirs, Cx, READ_LIMIT, SKILL_BUDGET_CONTEXT_FRACTION,
    SKILL_BUDGET_FALLBACK_CHARS,
};
use playbookdiff_model::{
    Advertisement, AdvertisementState, AggregateBudget, Applicability, Diagnostic, DiagnosticCode,
    Invocation, LoadPhase, Permission, RepoPath, Severity, Skill, SourceFormat, SourceRef,
};
use playbookdiff_source::{markdown, EntryKind, Resolved, TextFile};
use std::collections::BTreeMap;
use toml::de::DeValue;

/// The source limit of a skill name, in characters (harness facts B5).
const NAME_LIMIT: usize = 64;
/// The source limit of a skill description, in characters (harness facts B5).
const DESCRIPTION_LIMIT: usize = 1024;

/// Compiles the skills for `chain` (root first, ending at cwd).
///
/// Shape: in-scope skills closest scan location first (cwd, then each
/// parent up to the root), by directory name within a location; then
/// out-of-scope skills by path. Ids are `codex:skill:<SKILL.md path>`.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, chain: &[RepoPath], layers: &[Layer<'_>]) -> Vec<Skill> {
    let mut skills = Vec::new();
    for dir in chain.iter().rev() {
        scan_root(cx, dir, &mut skills);
        if let Some(undocumented) = dir.join(".codex/skills") {
            if cx.repo.is_dir(&undocumented) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillRootUnmodelled,
                        format!("{undocumented} exists; the Codex source also scans skills/ beside each project config layer, but the documentation does not, so its skills are not modelled here; move them to {} to be sure.", dir.join(".agents/skills").unwrap_or_else(RepoPath::root)),
                    )
                    .at(SourceRef::project(undocumented.clone(), SourceFormat::Markdown)),
                );
            }
        }
    }
    report_nested(cx, chain);
    apply_skills_config(cx, layers, &mut skills);
    collisions(cx, &mut skills);
    budget(cx, &mut skills);
    let mut outside = out_of_scope(cx);
    outside.sort_by(|a, b| a.source.path.cmp(&b.source.path));
    skills.extend(outside);
    skills
}

fn aggregate_budget() -> AggregateBudget {
    AggregateBudget {
        max_context_fraction: SKILL_BUDGET_CONTEXT_FRACTION,
        fallback_chars: SKILL_BUDGET_FALLBACK_CHARS,
    }
}

/// Scans `<dir>/.agents/skills`.
fn scan_root(cx: &mut Cx<'_, '_>, dir: &RepoPath, out: &mut Vec<Skill>) {
    let Some(root) = dir.join(".agents/skills") else {
        return;
    };
    let r = cx.resolve(&root);
    match r {
        Resolved::Inside {
            kind: EntryKind::Dir,
            ..
        } => {}
        Resolved::Missing => return,
        Resolved::Inside { .. } => {
            if let Some((t, true)) = cx.repo.link_stored_as_text(&root) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SymlinkStoredAsText,
                        format!(
                            "{root} is a file containing only {t}: a symbolic link checked out as text, so Codex \
                             finds no skills there. Restore the link, or copy the skills into {root}/."
                        ),
                    )
                    .at(SourceRef::project(root.clone(), SourceFormat::Markdown)),
                );
            }
            return;
        }
        other => {
            cx.link_problem(
                &other,
                &format!("The skills root {root}"),
                "Codex finds no skills there",
                SourceFormat::Markdown,
            );
            return;
        }
    }
    let entries = cx.repo.list_dir(&root).to_vec();
    for e in entries {
        if e.name.starts_with('.') {
            continue;
        }
        let Some(skill_dir) = root.join(&e.name) else {
            continue;
        };
        match e.kind {
            EntryKind::Dir => {}
            EntryKind::Symlink => {
                let r = cx.resolve(&skill_dir);
                match r {
                    Resolved::Inside {
                        kind: EntryKind::Dir,
                        ..
                    } => {}
                    Resolved::Inside { .. } | Resolved::Missing => continue,
                    Resolved::Outside { .. } => {
                        cx.link_problem(
                            &r,
                            &format!("The skill folder {skill_dir}"),
                            "",
                            SourceFormat::Markdown,
                        );
                        out.push(unavailable(
                            dir,
                            &skill_dir,
                            &e.name,
                            "its folder is a symbolic link out of the repository",
                        ));
                        continue;
                    }
                    other => {
                        cx.link_problem(
                            &other,
                            &format!("The skill folder {skill_dir}"),
                            "Codex cannot load this skill",
                            SourceFormat::Markdown,
                        );
                        continue;
                    }
                }
            }
            _ => continue,
        }
        load_skill(cx, dir, &skill_dir, &e.name, out);
    }
}

/// A skill whose files repo mode cannot read (a link out of the
/// repository, a file over the read limit).
fn unavailable(scan_dir: &RepoPath, skill_dir: &RepoPath, dir_name: &str, why: &str) -> Skill {
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
            state: AdvertisementState::Unknown,
            description_chars: 0,
            description_limit_chars: None,
            aggregate_budget: Some(aggregate_budget()),
            name_only: false,
        },
        paths: None,
        metadata_sources: Vec::new(),
        cross_references: Vec::new(),
    }
}

/// What the front matter of a SKILL.md gives.
struct Parsed {
    name: Option<String>,
    description: Option<String>,
    /// Lines of the front matter.
    lines: Option<(u32, u32)>,
    /// Why Codex cannot list it, when it cannot.
    invalid: Option<String>,
}

/// Reads name and description from `text`; `report` emits diagnostics
/// against `file`.
fn parse_front_matter(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    text: &TextFile,
    report: bool,
) -> Parsed {
    let src = SourceRef::project(file.clone(), SourceFormat::Markdown);
    let mut p = Parsed {
        name: None,
        description: None,
        lines: None,
        invalid: None,
    };
    let Some(fm) = text.front_matter() else {
        if opens_front_matter(&text.text) {
            if report {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!("{file} opens its front matter with --- on line 1 but no later --- line closes it, so Codex finds no front matter, cannot read name and description and does not list the skill; close the front matter with a --- line."),
                    )
                    .at(src.with_lines(1, 1)),
                );
            }
            p.lines = Some((1, 1));
            p.invalid = Some("its front matter is never closed".to_string());
        } else {
            if report {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!("{file} has no YAML front matter (a --- block at the top), so Codex cannot read its name and description and does not list it; add front matter with name and description."),
                    )
                    .at(src),
                );
            }
            p.invalid = Some("it has no YAML front matter".to_string());
        }
        return p;
    };
    p.lines = Some((fm.start_line, fm.end_line));
    match &fm.value {
        Ok(serde_json::Value::Object(m)) => {
            // Codex deserializes name and description as text: a scalar is
            // read as its text, a list or a mapping fails the whole file.
            let mut wrong: Vec<(&str, &str)> = Vec::new();
            let mut field = |k: &'static str| match m.get(k) {
                Some(serde_json::Value::String(s)) => {
                    Some(s.trim().to_string()).filter(|s| !s.is_empty())
                }
                Some(serde_json::Value::Number(n)) => Some(n.to_string()),
                Some(serde_json::Value::Bool(b)) => Some(b.to_string()),
                Some(serde_json::Value::Array(_)) => {
                    wrong.push((k, "a list"));
                    None
                }
                Some(serde_json::Value::Object(_)) => {
                    wrong.push((k, "a mapping"));
                    None
                }
                Some(serde_json::Value::Null) | None => None,
            };
            p.name = field("name");
            p.description = field("description");
            if !wrong.is_empty() {
                for (k, what) in &wrong {
                    if report {
                        let line = key_line(fm, k);
                        let (s, e) = line.map_or((fm.start_line, fm.end_line), |l| (l, l));
                        cx.diag(
                            Diagnostic::new(
                                DiagnosticCode::SkillFieldInvalid,
                                format!("{file} gives `{k}` as {what} where Codex expects text, so Codex fails to read the front matter and does not list this skill; write {k} as a single string."),
                            )
                            .at(src.clone().with_lines(s, e)),
                        );
                    }
                }
                let (k, what) = wrong[0];
                p.invalid = Some(format!("its front matter gives {k} as {what}, not text"));
                return p;
            }
            let missing: Vec<&str> = [
                ("name", p.name.is_none()),
                ("description", p.description.is_none()),
            ]
            .iter()
            .filter(|(_, m)| *m)
            .map(|(k, _)| *k)
            .collect();
            if !missing.is_empty() {
                let fields = missing.join(" and ");
                if report {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::SkillFieldMissing,
                            format!("{file} has no {fields} in its front matter; Codex requires both name and description, so it does not list this skill; add the missing field."),
                        )
                        .at(src.with_lines(fm.start_line, fm.end_line)),
                    );
                }
                p.invalid = Some(format!("its front matter has no {fields}"));
            }
        }
        Ok(_) => {
            if report {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!("The front matter of {file} is not a YAML mapping, so Codex cannot read name and description and does not list it; write `name:` and `description:` keys."),
                    )
                    .at(src.with_lines(fm.start_line, fm.end_line)),
                );
            }
            p.invalid = Some("its front matter is not a mapping".to_string());
        }
        Err((msg, line)) => {
            if report {
                let at = line.map(|l| format!(" at line {l}")).unwrap_or_default();
                let l = line.unwrap_or(fm.start_line);
                let why = humanize_yaml_error(msg);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidFrontmatter,
                        format!("The front matter of {file} is not valid YAML{at}: {why}; Codex cannot read it and does not list the skill; fix the YAML."),
                    )
                    .at(src.with_lines(l, l)),
                );
            }
            p.invalid = Some("its front matter is not valid YAML".to_string());
        }
    }
    p
}

/// True when `text` starts with a `---` line (after any byte-order mark):
/// front matter is opened, whether or not it is closed.
fn opens_front_matter(text: &str) -> bool {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    t.lines().next().is_some_and(|l| l.trim() == "---")
}

/// The file line of top-level key `key` in front matter `fm`, when it is
/// written plainly (`key:`, `"key":`, `'key':`).
fn key_line(fm: &markdown::FrontMatter, key: &str) -> Option<u32> {
    let forms = [
        format!("{key}:"),
        format!("\"{key}\":"),
        format!("'{key}':"),
    ];
    fm.yaml
        .lines()
        .position(|l| forms.iter().any(|f| l.starts_with(f.as_str())))
        .map(|i| fm.start_line + 1 + i as u32)
}

/// The YAML parser's message in words for people: without its own
/// location (the diagnostic gives the file line), without hints meant for
/// programmers, and with the parser's internal limits explained.
fn humanize_yaml_error(msg: &str) -> String {
    let mut m = msg.trim();
    if let Some(rest) = m.strip_prefix("error:") {
        m = rest.trim_start();
    }
    // "line 3 column 1: ..." (possibly repeated).
    while m.starts_with("line ") {
        match m.find(": ") {
            Some(i) => m = m[i + 2..].trim_start(),
            None => break,
        }
    }
    if let Some(i) = m.find(" at line ") {
        m = &m[..i];
    }
    let number_after = |s: &str, word: &str| -> Option<u64> {
        let i = s.find(word)? + word.len();
        s[i..]
            .trim_start_matches([':', ' '])
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .ok()
    };
    if m.starts_with("cannot deserialize null into string") {
        return "a key is empty or null, and every key must be text".to_string();
    }
    if m.starts_with("expected string scalar") {
        return "a key is a list or a mapping, and every key must be text".to_string();
    }
    if let Some(rest) = m.strip_prefix("duplicate mapping key") {
        let key: String = rest
            .trim_start_matches([':', ' '])
            .split(',')
            .next()
            .unwrap_or("")
            .chars()
            .take(40)
            .collect();
        return if key.is_empty() {
            "a key appears twice".to_string()
        } else {
            format!("the key `{key}` appears twice")
        };
    }
    if let Some(rest) = m.strip_prefix("budget breached:") {
        let rest = rest.trim();
        if rest.starts_with("Depth") {
            if let Some(d) = number_after(rest, "depth") {
                return format!(
                    "it nests more than {} levels deep, beyond what the analysis parses",
                    d.saturating_sub(1)
                );
            }
        }
        if rest.starts_with("Nodes") || rest.starts_with("Alias") {
            return "its aliases expand to more values than the analysis parses (an alias bomb)"
                .to_string();
        }
        return "it is larger or more deeply nested than the analysis parses".to_string();
    }
    for cut in ["; use ", ", set "] {
        if let Some(i) = m.find(cut) {
            m = &m[..i];
        }
    }
    let internal = ["Option<", "::", "{ ", " }", "Some(", "None"];
    if m.is_empty() || internal.iter().any(|t| m.contains(t)) {
        "the YAML syntax is invalid".to_string()
    } else {
        m.to_string()
    }
}

/// The implicit-invocation policy from `<skill>/agents/openai.yaml` and
/// the file as a metadata source when it exists (spec 004 "Invocation").
fn policy(
    cx: &mut Cx<'_, '_>,
    skill_dir: &RepoPath,
    report: bool,
) -> (Permission, Option<SourceRef>) {
    let Some(path) = skill_dir.join("agents/openai.yaml") else {
        return (Permission::Allowed, None);
    };
    let r = cx.resolve(&path);
    let resolved = match &r {
        Resolved::Missing => return (Permission::Allowed, None),
        Resolved::Inside {
            kind: EntryKind::File,
            real,
            via_link,
        } => via_link.then(|| real.clone()),
        Resolved::Inside { kind, via_link, .. } => {
            if report {
                not_a_file(
                    cx,
                    &path,
                    *kind,
                    *via_link,
                    "Codex ignores it and the skill keeps the default invocation policy (implicit invocation allowed)",
                    SourceFormat::Yaml,
                    Severity::Warning,
                );
            }
            return (Permission::Allowed, None);
        }
        other => {
            if report {
                cx.link_problem(
                    other,
                    &format!("The skill metadata {path}"),
                    "its invocation policy is unknown",
                    SourceFormat::Yaml,
                );
            }
            return (Permission::Unknown, None);
        }
    };
    let mut src = SourceRef::project(path.clone(), SourceFormat::Yaml);
    src.resolved_path = resolved;
    let text = match cx.repo.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            if report {
                read_error(cx, &path, e, SourceFormat::Yaml);
            }
            return (Permission::Unknown, Some(src));
        }
    };
    let line = text
        .text
        .lines()
        .position(|l| l.trim_start().starts_with("allow_implicit_invocation"))
        .map(|i| i as u32 + 1);
    let lines = match line {
        Some(l) => Some((l, l)),
        None if text.line_count() > 0 => Some((1, text.line_count())),
        None => None,
    };
    if let Some((s, e)) = lines {
        src = src.with_lines(s, e);
    }
    match markdown::parse_yaml(&text.text) {
        Ok(v) => match v.pointer("/policy/allow_implicit_invocation") {
            None | Some(serde_json::Value::Null) | Some(serde_json::Value::Bool(true)) => {
                (Permission::Allowed, Some(src))
            }
            Some(serde_json::Value::Bool(false)) => (Permission::Blocked, Some(src)),
            Some(_) => {
                if report {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::InvalidValue,
                            format!("{path} sets policy.allow_implicit_invocation to something other than true or false, so whether Codex may invoke the skill on its own is unknown; write true or false."),
                        )
                        .at(src.clone()),
                    );
                }
                (Permission::Unknown, Some(src))
            }
        },
        Err((msg, l)) => {
            if report {
                let at = l.map(|l| format!(" at line {l}")).unwrap_or_default();
                let mut s = SourceRef::project(path.clone(), SourceFormat::Yaml);
                if let Some(l) = l {
                    s = s.with_lines(l, l);
                }
                let why = humanize_yaml_error(&msg);
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidYaml,
                        format!("{path} is not valid YAML{at}: {why}, so the skill's invocation policy is unknown; fix the YAML."),
                    )
                    .at(s),
                );
            }
            (Permission::Unknown, Some(src))
        }
    }
}

/// Loads `<skill_dir>/SKILL.md` of a scanned root.
fn load_skill(
    cx: &mut Cx<'_, '_>,
    scan_dir: &RepoPath,
    skill_dir: &RepoPath,
    dir_name: &str,
    out: &mut Vec<Skill>,
) {
    let Some(file) = skill_dir.join("SKILL.md") else {
        return;
    };
    let listed = cx
        .repo
        .list_dir(skill_dir)
        .iter()
        .find(|e| e.name == "SKILL.md")
        .map(|e| e.kind);
    match listed {
        Some(EntryKind::File) => {}
        Some(kind @ (EntryKind::Dir | EntryKind::Other)) => {
            skill_file_not_a_file(cx, &file, kind, false);
            return;
        }
        Some(EntryKind::Symlink) => {
            let r = cx.resolve(&file);
            match r {
                Resolved::Inside { kind: kind @ (EntryKind::Dir | EntryKind::Other), .. } => {
                    skill_file_not_a_file(cx, &file, kind, true);
                    return;
                }
                Resolved::Inside { kind: EntryKind::File, .. } => cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillSymlinkDisputed,
                        format!("{file} is a symbolic link to a file; Codex documents symlinked skill folders, but a symlinked SKILL.md file was reported skipped (openai/codex#22506, openai/codex#31592), so the analysis follows the documentation and lists it; make the folder the link instead."),
                    )
                    .at(SourceRef::project(file.clone(), SourceFormat::Markdown)),
                ),
                Resolved::Outside { .. } => {
                    cx.link_problem(&r, &format!("The skill file {file}"), "", SourceFormat::Markdown);
                    out.push(unavailable(scan_dir, skill_dir, dir_name, "its SKILL.md is a symbolic link out of the repository"));
                    return;
                }
                other => {
                    cx.link_problem(
                        &other,
                        &format!("The skill file {file}"),
                        "Codex cannot load this skill",
                        SourceFormat::Markdown,
                    );
                    return;
                }
            }
        }
        _ => {
            if !has_nested_skill(cx, skill_dir) {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillMissingFile,
                        format!("{skill_dir} has no SKILL.md, so Codex lists no skill for it; add SKILL.md with name and description, or move the folder out of .agents/skills."),
                    )
                    .at(SourceRef::project(skill_dir.clone(), SourceFormat::Markdown)),
                );
            }
            return;
        }
    }
    let resolved = match cx.resolve(&file) {
        Resolved::Inside { real, via_link, .. } => via_link.then_some(real),
        _ => None,
    };
    let text = match cx.repo.read_text(&file, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            read_error(cx, &file, e, SourceFormat::Markdown);
            out.push(unavailable(
                scan_dir,
                skill_dir,
                dir_name,
                "its SKILL.md could not be read",
            ));
            return;
        }
    };
    let mut parsed = parse_front_matter(cx, &file, &text, true);
    if text.invalid_utf8 {
        // Codex reads SKILL.md as UTF-8 text and fails on anything else.
        let line = text.text.find('\u{fffd}').map(|o| text.line_of(o));
        let at = line.map(|n| format!(" (line {n})")).unwrap_or_default();
        let mut src = SourceRef::project(file.clone(), SourceFormat::Markdown);
        if let Some(n) = line {
            src = src.with_lines(n, n);
        }
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::InvalidUtf8,
                format!("{file} is not valid UTF-8{at}; Codex reads SKILL.md as UTF-8 text, fails on it and does not list this skill; save it as UTF-8."),
            )
            .at(src),
        );
        parsed.invalid = Some("it is not valid UTF-8".to_string());
    }
    let (implicit, meta) = policy(cx, skill_dir, true);
    let mut skill = build(cx, scan_dir, dir_name, &file, parsed, implicit, meta);
    skill.source.resolved_path = resolved;
    if skill.applicability == Applicability::Effective {
        let name_chars = skill.name.chars().count();
        let desc_chars = skill.advertisement.description_chars as usize;
        if name_chars > NAME_LIMIT || desc_chars > DESCRIPTION_LIMIT {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("{file} has a name of {name_chars} or a description of {desc_chars} characters, over the Codex source limits of {NAME_LIMIT} and {DESCRIPTION_LIMIT}, so Codex may reject or cut it; shorten it."),
                )
                .at(skill.source.clone()),
            );
        }
    }
    out.push(skill);
}

/// Reports a `SKILL.md` that is a directory or a special file: Codex reads
/// only a regular file of that name (a directory is scanned as a folder).
/// The message does not depend on cwd.
fn skill_file_not_a_file(cx: &mut Cx<'_, '_>, file: &RepoPath, kind: EntryKind, via_link: bool) {
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    not_a_file(
        cx,
        file,
        kind,
        via_link,
        &format!("Codex does not read it as a skill file and lists no skill for {skill_dir}"),
        SourceFormat::Markdown,
        Severity::Warning,
    );
}

/// Assembles a skill from its parsed parts.
#[allow(clippy::too_many_arguments)]
fn build(
    cx: &Cx<'_, '_>,
    scan_dir: &RepoPath,
    dir_name: &str,
    file: &RepoPath,
    parsed: Parsed,
    implicit: Permission,
    meta: Option<SourceRef>,
) -> Skill {
    let cwd = &cx.context.cwd;
    let mut source = SourceRef::project(file.clone(), SourceFormat::Markdown);
    if let Some((s, e)) = parsed.lines {
        source = source.with_lines(s, e);
    }
    let place = if scan_dir == cwd {
        "cwd itself".to_string()
    } else if scan_dir.is_root() {
        "the repository root".to_string()
    } else {
        format!("{scan_dir}, a parent of cwd")
    };
    let (applicability, reason, invocation, state) = match &parsed.invalid {
        None => (
            Applicability::Effective,
            format!("Found in the .agents/skills of {place}: Codex scans .agents/skills in every directory from cwd {cwd} up to the repository root and lists each skill's name, description and path at startup."),
            Invocation { explicit: Permission::Allowed, implicit },
            AdvertisementState::Advertised,
        ),
        Some(why) => (
            Applicability::Excluded,
            format!("Found in the .agents/skills of {place}, but {why}, so Codex does not list it."),
            Invocation { explicit: Permission::Unknown, implicit: Permission::Unknown },
            AdvertisementState::Hidden,
        ),
    };
    Skill {
        id: format!("codex:skill:{file}"),
        name: parsed.name.clone().unwrap_or_else(|| dir_name.to_string()),
        directory_name: dir_name.to_string(),
        source,
        load_phase: LoadPhase::Startup,
        applicability,
        reason,
        description: parsed.description.clone(),
        invocation,
        advertisement: Advertisement {
            state,
            description_chars: parsed
                .description
                .as_deref()
                .map(|d| d.chars().count() as u64)
                .unwrap_or(0),
            description_limit_chars: None,
            aggregate_budget: Some(aggregate_budget()),
            name_only: false,
        },
        paths: None,
        metadata_sources: meta.into_iter().collect(),
        cross_references: Vec::new(),
    }
}

/// True when a SKILL.md sits deeper inside `dir` than `dir/SKILL.md`.
fn has_nested_skill(cx: &Cx<'_, '_>, dir: &RepoPath) -> bool {
    let real = match cx.resolve(dir) {
        Resolved::Inside { real, .. } => real,
        _ => return false,
    };
    cx.repo
        .files_named_under("SKILL.md", &real)
        .iter()
        .any(|p| p.parent().as_ref() != Some(&real))
}

/// Splits `X/.agents/skills/<rest...>` into `X` and the components after
/// `skills`, for the last `.agents/skills` in `p`.
fn split_skills_root(p: &RepoPath) -> Option<(RepoPath, Vec<String>)> {
    let parts: Vec<&str> = p.components().collect();
    let i = (0..parts.len().saturating_sub(1))
        .rev()
        .find(|&i| parts[i] == ".agents" && parts[i + 1] == "skills")?;
    let dir = RepoPath::new(&parts[..i].join("/"))?;
    Some((dir, parts[i + 2..].iter().map(|s| s.to_string()).collect()))
}

/// SKILL.md files deeper than `<root>/<name>/SKILL.md` in a scanned root:
/// the documented layout does not cover them, the source scans six levels.
fn report_nested(cx: &mut Cx<'_, '_>, chain: &[RepoPath]) {
    let mut paths = Vec::new();
    for dir in chain {
        if let Some(root) = dir.join(".agents/skills") {
            paths.extend_from_slice(cx.repo.files_named_under("SKILL.md", &root));
        }
    }
    for p in paths {
        let Some((dir, rest)) = split_skills_root(&p) else {
            continue;
        };
        if rest.len() > 2 && chain.contains(&dir) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SkillNotDiscovered,
                    format!("{p} sits deeper than .agents/skills/<name>/SKILL.md, the layout the Codex documentation describes; the Codex source scans up to six levels, so it may still be listed; move it up to be sure."),
                )
                .with_severity(Severity::Info)
                .at(SourceRef::project(p.clone(), SourceFormat::Markdown)),
            );
        }
    }
}

/// Applies `[[skills.config]]` of the closest layer that sets it (spec
/// 004 "Unresolved semantics": the path may name the SKILL.md, as in the
/// documented example, or the skill directory, as in the reference prose).
fn apply_skills_config(cx: &mut Cx<'_, '_>, layers: &[Layer<'_>], skills: &mut [Skill]) {
    for l in layers {
        if let Some((k, v)) = get(&l.table, "skills") {
            if !v.get_ref().is_table() {
                invalid_value(
                    cx,
                    l,
                    k,
                    v,
                    "skills",
                    "a table (with [[skills.config]] entries)",
                );
            }
        }
    }
    let found = layers.iter().rev().find_map(|l| {
        let (_, s) = get(&l.table, "skills")?;
        let DeValue::Table(t) = s.get_ref() else {
            return None;
        };
        let (k, v) = get(t, "config")?;
        Some((l, k, v))
    });
    let Some((layer, key, value)) = found else {
        return;
    };
    let path = &layer.loaded.path;
    let DeValue::Array(items) = value.get_ref() else {
        crate::config::invalid_value(
            cx,
            layer,
            key,
            value,
            "skills.config",
            "an array of { path, enabled } tables",
        );
        return;
    };
    for item in items.iter() {
        let item_src = layer.source(value_extent(item));
        let DeValue::Table(t) = item.get_ref() else {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("A skills.config entry in {path} is not a table, so Codex rejects this configuration; write [[skills.config]] with path and enabled."),
                )
                .at(item_src),
            );
            continue;
        };
        let raw = get(t, "path").map(|(_, v)| v.get_ref());
        let enabled = match get(t, "enabled").map(|(_, v)| v.get_ref()) {
            Some(DeValue::Boolean(b)) => Some(*b),
            Some(other) => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("A skills.config entry in {path} sets enabled to {} where Codex expects true or false, so Codex rejects this configuration and the entry disables nothing here; write enabled = false.", describe(other)),
                    )
                    .at(item_src.clone()),
                );
                continue;
            }
            None => None,
        };
        let raw = match raw {
            Some(DeValue::String(s)) => s.as_ref(),
            Some(other) => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("A skills.config entry in {path} sets path to {} where Codex expects a path string, so Codex rejects this configuration and the entry matches no skill; write the SKILL.md path as a string.", describe(other)),
                    )
                    .at(item_src),
                );
                continue;
            }
            None => {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidValue,
                        format!("A skills.config entry in {path} has no path, so it matches no skill; add path."),
                    )
                    .at(item_src),
                );
                continue;
            }
        };
        if enabled != Some(false) {
            continue;
        }
        let target = if raw.starts_with('/') {
            cx.repo.tree().absolute_root().and_then(|root| {
                std::path::Path::new(raw)
                    .strip_prefix(root)
                    .ok()
                    .and_then(|r| RepoPath::new(&r.to_string_lossy().replace('\\', "/")))
            })
        } else if raw.starts_with('~') {
            None
        } else {
            layer.loaded.codex_dir.join(raw)
        };
        let Some(target) = target else {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("A skills.config entry in {path} names {raw:?}, which is outside the repository or specific to one machine, so the analysis cannot tell which skill it disables; use a path relative to {}.", layer.loaded.codex_dir),
                )
                .at(item_src),
            );
            continue;
        };
        let matches = |s: &Skill, want: &RepoPath| {
            s.applicability == Applicability::Effective
                && (&s.source.path == want || s.source.resolved_path.as_ref() == Some(want))
        };
        let by_file = skills.iter().position(|s| matches(s, &target));
        let by_dir = target
            .join("SKILL.md")
            .and_then(|f| skills.iter().position(|s| matches(s, &f)));
        match (by_file, by_dir) {
            (Some(i), _) => {
                let s = &mut skills[i];
                s.applicability = Applicability::Excluded;
                s.invocation = Invocation { explicit: Permission::Blocked, implicit: Permission::Blocked };
                s.advertisement.state = AdvertisementState::Hidden;
                s.reason = format!("Disabled by [[skills.config]] in {path}: its path names this SKILL.md and enabled = false.");
                s.metadata_sources.push(item_src.clone());
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillConfigPathAmbiguous,
                        format!("{path} disables {target} by its SKILL.md path, the form of the documented example, so the skill is shown disabled; the reference prose describes a skill directory instead, so confirm with /skills in Codex."),
                    )
                    .with_severity(Severity::Info)
                    .at(item_src),
                );
            }
            (None, Some(i)) => {
                let s = &mut skills[i];
                s.applicability = Applicability::Conditional;
                s.invocation = Invocation { explicit: Permission::Unknown, implicit: Permission::Unknown };
                s.advertisement.state = AdvertisementState::Unknown;
                s.reason = format!("[[skills.config]] in {path} sets enabled = false for its directory {target}; whether Codex matches a directory path is unresolved, so the skill may or may not be listed.");
                s.metadata_sources.push(item_src.clone());
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SkillConfigPathAmbiguous,
                        format!("{path} disables the skill directory {target}; the reference prose names a directory but the documented example a SKILL.md, so whether Codex disables it is unresolved; point path at {target}/SKILL.md."),
                    )
                    .at(item_src),
                );
            }
            (None, None) => cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!("A skills.config entry in {path} disables {target}, which is no skill Codex discovers from cwd {}, so it changes nothing here; check the path (it is relative to {}).", cx.context.cwd, layer.loaded.codex_dir),
                )
                .at(item_src),
            ),
        }
    }
}

/// Same-name in-scope skills: kept apart, cross-referenced, reported once
/// per name.
fn collisions(cx: &mut Cx<'_, '_>, skills: &mut [Skill]) {
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in skills.iter().enumerate() {
        if matches!(
            s.applicability,
            Applicability::Effective | Applicability::Conditional
        ) {
            by_name.entry(s.name.clone()).or_default().push(i);
        }
    }
    for (name, idx) in by_name {
        if idx.len() < 2 {
            continue;
        }
        let ids: Vec<String> = idx.iter().map(|&i| skills[i].id.clone()).collect();
        let paths: Vec<String> = idx
            .iter()
            .map(|&i| skills[i].source.path.to_string())
            .collect();
        for &i in &idx {
            let own = skills[i].id.clone();
            skills[i].cross_references = ids.iter().filter(|id| **id != own).cloned().collect();
        }
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SkillNameCollision,
                format!("{} skills are named {name:?} ({}); Codex does not merge them and can show both in selectors, so `${name}` may be ambiguous; rename one.", idx.len(), paths.join(", ")),
            )
            .at(skills[idx[0]].source.clone()),
        );
    }
}

/// Spec 004 "Invocation": the listing of name, description and path of
/// every effective skill against the 8,000-character fallback budget
/// (the context window is unknown in repo mode). Over it, every effective
/// skill is `budget-risk`; which one Codex shortens or omits is never
/// guessed.
fn budget(cx: &mut Cx<'_, '_>, skills: &mut [Skill]) {
    let listed: Vec<usize> = (0..skills.len())
        .filter(|&i| skills[i].applicability == Applicability::Effective)
        .collect();
    let total: u64 = listed
        .iter()
        .map(|&i| {
            let s = &skills[i];
            s.name.chars().count() as u64
                + s.advertisement.description_chars
                + s.source.path.as_str().chars().count() as u64
        })
        .sum();
    if total <= SKILL_BUDGET_FALLBACK_CHARS {
        return;
    }
    for &i in &listed {
        skills[i].advertisement.state = AdvertisementState::BudgetRisk;
    }
    cx.diag(Diagnostic::new(
        DiagnosticCode::SkillBudgetRisk,
        format!("The {} repository skills listed from cwd {} need about {total} characters of name, description and path, over the {SKILL_BUDGET_FALLBACK_CHARS}-character budget Codex uses when the context window is unknown (2% of the window otherwise); Codex then shortens descriptions and may omit skills, which ones is undocumented, and hidden user and system skills take budget too; shorten the descriptions.", listed.len(), cx.context.cwd),
    ));
}

/// Skills in `.agents/skills` below cwd and of the directories on the way
/// to targetPath (see [`target_only_dirs`]); other directories are not
/// visited. The subtree below cwd is answered from the sorted index, so
/// the cost is that of what is listed. A `SKILL.md` that is not a regular
/// file is reported and not listed.
fn out_of_scope(cx: &mut Cx<'_, '_>) -> Vec<Skill> {
    let cwd = cx.context.cwd.clone();
    let target = cx.context.target_path.clone();
    let mut found: Vec<(RepoPath, RepoPath, String)> = Vec::new();
    let mut take = |file: &RepoPath, want: &dyn Fn(&RepoPath) -> bool| {
        if let Some((dir, rest)) = split_skills_root(file) {
            if rest.len() == 2 && want(&dir) {
                found.push((file.clone(), dir, rest[0].clone()));
            }
        }
    };
    for file in cx.repo.files_named_under("SKILL.md", &cwd) {
        take(file, &|dir| strictly_below(dir, &cwd));
    }
    for d in target_only_dirs(cx.context) {
        let Some(root) = d.join(".agents/skills") else {
            continue;
        };
        for file in cx.repo.files_named_under("SKILL.md", &root) {
            take(file, &|dir| dir == &d);
        }
    }
    let mut out = Vec::new();
    for (file, dir, dir_name) in found {
        let Some(skill_dir) = file.parent() else {
            continue;
        };
        let text = match cx.resolve(&file) {
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } => cx.repo.read_text(&file, READ_LIMIT).ok(),
            Resolved::Inside { kind, via_link, .. } => {
                skill_file_not_a_file(cx, &file, kind, via_link);
                continue;
            }
            _ => None,
        };
        let parsed = match &text {
            Some(t) => parse_front_matter(cx, &file, t, false),
            None => Parsed {
                name: None,
                description: None,
                lines: None,
                invalid: None,
            },
        };
        let (implicit, meta) = policy(cx, &skill_dir, false);
        let mut s = build(cx, &dir, &dir_name, &file, parsed, implicit, meta);
        s.applicability = Applicability::OutOfScope;
        s.advertisement.state = AdvertisementState::Hidden;
        s.reason = if strictly_below(&dir, &cwd) {
            let note = match &target {
                Some(t) if t.starts_with(&dir) => {
                    format!(", even though targetPath {t} lies inside {dir}")
                }
                _ => String::new(),
            };
            format!("In the .agents/skills of {dir}, below cwd {cwd}: Codex scans only from cwd up to the repository root, so this skill is not available in this session{note}.")
        } else {
            let t = target.as_ref().map(ToString::to_string).unwrap_or_default();
            format!("In the .agents/skills of {dir}, on the way to targetPath {t} but not on the path from cwd {cwd} up to the repository root, so Codex does not discover it in this session.")
        };
        out.push(s);
    }
    out
}

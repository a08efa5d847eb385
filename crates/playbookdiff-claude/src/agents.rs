//! Subagents (`.claude/agents/**/*.md`) and output styles
//! (`.claude/output-styles/*.md`, the one `outputStyle` selects).
//!
//! Sources (harness facts A9, A10; Claude Code sub-agents and
//! output-styles documentation; seen with 2.1.197 and 2.1.332 in the
//! stream-json `init` line and the first request, surfaces reference):
//!
//! - Project subagents are found in every `.claude/agents/` from the
//!   launch directory up to the root of its git work tree, scanned
//!   recursively; the one closest to the launch directory wins a name
//!   (2.1.178 and later). A file needs front matter `name` and
//!   `description` (a YAML string, not `123` or `true`), else it is
//!   skipped. `tools` and `disallowedTools` are
//!   a comma-separated string or a list; `model` defaults to `inherit`.
//!   The main agent's `Agent` tool (`Task` in `init`) lists each as
//!   `- name: description (Tools: ...)`; the body, the subagent's own
//!   system prompt, never reaches the main agent.
//! - Output styles are found in every `.claude/output-styles/` from the
//!   launch directory up, the closest winning a name (front matter
//!   `name`, else the file name). `outputStyle` in settings selects one by
//!   that name; its body reaches the request under `# Output Style: NAME`,
//!   its description does not. The built-in styles are `default`,
//!   `Explanatory` and `Learning`.

use crate::settings::Settings;
use crate::Compiler;
use playbookdiff_model::{
    AgentMode, Applicability, Diagnostic, DiagnosticCode, LoadPhase, OutputStyle, RepoPath,
    SourceFormat, SourceRef, SourceScope, Subagent,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// The output styles Claude Code ships (compared without case).
pub(crate) const BUILTIN_STYLES: &[&str] = &["default", "Explanatory", "Learning"];

/// The tool whose description lists the subagents to the model.
const LISTED_BY: &str = "Agent";

/// Whether `tool`, as a subagent's `tools` entry names it, is a tool of
/// Claude Code: a tool name of 2.1.197 and 2.1.332 (`Read`, `Bash`,
/// `Agent`, `Task`, ...), an MCP tool (`mcp__server__tool`,
/// `mcp__server`), or a rule on one (`Bash(git:*)`, `Agent(review)`).
pub fn is_tool(tool: &str) -> bool {
    let name = tool.split('(').next().unwrap_or(tool).trim();
    name == "*" || name.starts_with("mcp__") || crate::tools::TOOLS.contains(&name)
}

/// Adds the subagents and output styles of the launch directory's chain
/// ([module documentation](self)).
pub(crate) fn compile(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    subagents(cx);
    output_styles(cx, settings);
}

/// The directories from the launch directory up to the top of its git
/// work tree, closest first.
fn chain(cx: &Compiler<'_, '_>) -> Vec<RepoPath> {
    let mut dirs = playbookdiff_adapter::scope::work_tree_chain(cx.repo, &cx.context.cwd);
    dirs.reverse();
    dirs
}

/// The `*.md` files below `dir`, recursively when `deep`, sorted.
fn markdown_files(cx: &Compiler<'_, '_>, dir: &RepoPath, deep: bool) -> Vec<RepoPath> {
    let mut out = Vec::new();
    let mut stack = vec![dir.clone()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(cur) = stack.pop() {
        if !cx.repo.is_dir(&cur) || !seen.insert(cx.repo_real(&cur)) {
            continue;
        }
        for e in cx.repo.list_dir(&cur).to_vec() {
            let Some(f) = cur.join(&e.name) else { continue };
            if cx.repo.is_dir(&f) {
                if deep {
                    stack.push(f);
                }
            } else if e.name.ends_with(".md") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

/// What a file is, for the diagnostic of front matter that is not YAML.
#[derive(Clone, Copy)]
pub(crate) enum Role {
    /// A subagent: Claude Code skips it (`subagent-invalid`).
    Subagent,
    /// An output style: its name and description are unknown
    /// (`invalid-frontmatter`).
    OutputStyle,
}

/// A Markdown file's front matter as a mapping, the file's source (lines:
/// the front matter) and the file's text; empty fields when it has none
/// or it is not a mapping; front matter that is not YAML is reported as `role`
/// says, and a subagent is then skipped (`None`).
pub(crate) fn read_meta(
    cx: &mut Compiler<'_, '_>,
    path: &RepoPath,
    role: Role,
) -> Option<(serde_json::Map<String, Value>, SourceRef, String)> {
    let text = cx.read(path, SourceFormat::Markdown)?;
    let source = cx.source_ref(path, SourceScope::Project, SourceFormat::Markdown);
    let front = crate::read_front_matter(&cx.profile, &text);
    let Some(fm) = front.read() else {
        return Some((serde_json::Map::new(), source, text.text.clone()));
    };
    let source = source.with_lines(fm.start_line, fm.end_line);
    let body = text.text.clone();
    match &fm.value {
        Ok(Value::Object(m)) => {
            if fm.repaired {
                crate::repaired_note(cx, path, &source, fm.start_line);
            }
            Some((m.clone(), source, body))
        }
        Ok(_) => Some((serde_json::Map::new(), source, body)),
        Err(e) => {
            let l = e.line.unwrap_or(fm.start_line);
            let (code, effect) = match role {
                Role::Subagent => (
                    DiagnosticCode::SubagentInvalid,
                    "Claude Code skips this subagent",
                ),
                Role::OutputStyle => (
                    DiagnosticCode::InvalidFrontmatter,
                    "the output style's name and description are unknown to the analysis",
                ),
            };
            cx.diag(
                Diagnostic::new(
                    code,
                    format!(
                        "The front matter of `{path}` is not valid YAML ({}); {effect}.",
                        crate::yaml_message(&e.message)
                    ),
                )
                .at(source.clone().with_lines(l, l)),
            );
            match role {
                Role::Subagent => None,
                Role::OutputStyle => Some((serde_json::Map::new(), source, body)),
            }
        }
    }
}

/// `source` narrowed to the line of the front matter's top-level `key`
/// (1-based, within the front matter's lines), else left whole.
fn key_line(text: &str, source: &SourceRef, key: &str) -> SourceRef {
    let Some(range) = source.lines else {
        return source.clone();
    };
    let found = text
        .lines()
        .zip(1u32..)
        .skip_while(|(_, n)| *n < range.start)
        .take_while(|(_, n)| *n <= range.end)
        .find(|(line, _)| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        });
    match found {
        Some((_, n)) => source.clone().with_lines(n, n),
        None => source.clone(),
    }
}

/// A front-matter tool list: a comma-separated string or a list of names.
fn tool_list(v: Option<&Value>) -> Option<Vec<String>> {
    match v? {
        Value::String(s) => Some(
            s.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        Value::Array(a) => Some(
            a.iter()
                .filter_map(crate::frontmatter::text_field)
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
        ),
        _ => None,
    }
}

/// One subagent file as read: its name and the item, or `None` when
/// Claude Code skips it (reported).
pub(crate) fn read_subagent(cx: &mut Compiler<'_, '_>, path: &RepoPath) -> Option<Subagent> {
    let (meta, source, text) = read_meta(cx, path, Role::Subagent)?;
    let field = |k: &str| meta.get(k).and_then(crate::frontmatter::text_field);
    // The description must be a YAML string: `description: 123` or `true`
    // skips the file (2.1.197, 2.1.332: random repositories
    // `fuzz.claude-code.61`, seeds 140 and 147).
    let description = meta.get("description").and_then(Value::as_str);
    let (Some(name), Some(description)) = (field("name"), description.map(str::to_string)) else {
        let what = match (field("name"), meta.get("description")) {
            (None, _) => "has no `name`".to_string(),
            (Some(_), Some(v @ (Value::Number(_) | Value::Bool(_)))) => {
                format!("has `description: {v}`, which is not a YAML string,")
            }
            (Some(_), _) => "has no `description`".to_string(),
        };
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SubagentInvalid,
                format!(
                    "`{path}` {what} in its front matter; Claude Code skips it, so no subagent comes from this \
                     file."
                ),
            )
            .at(source),
        );
        return None;
    };
    let tools = tool_list(meta.get("tools"));
    let disallowed = tool_list(meta.get("disallowedTools")).unwrap_or_default();
    let named = tools.iter().flatten().map(|t| (t, "tools"));
    for (t, key) in named.chain(disallowed.iter().map(|t| (t, "disallowedTools"))) {
        if !is_tool(t) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::SubagentToolUnknown,
                    format!(
                        "The subagent `{name}` in `{path}` names the tool `{t}`, which Claude Code does not have \
                         (its tools are `Read`, `Edit`, `Bash`, ..., and `mcp__server__tool`); the name is ignored."
                    ),
                )
                .at(key_line(&text, &source, key)),
            );
        }
    }
    Some(Subagent {
        id: String::new(),
        name,
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: String::new(),
        mode: AgentMode::Subagent,
        description: Some(description),
        tools,
        disallowed_tools: disallowed,
        model: field("model"),
        listed_by: Some(LISTED_BY.to_string()),
        plugin: None,
    })
}

/// The subagents of every `.claude/agents/` of the chain, closest first;
/// a farther one of a name already taken is shadowed. In local mode the
/// managed `/etc/claude-code/.claude/agents` comes before them and the
/// user's `agents` after them (harness facts A9, "Priority": managed,
/// `--agents`, project, user, plugin).
fn subagents(cx: &mut Compiler<'_, '_>) {
    let mut winners: BTreeMap<String, RepoPath> = BTreeMap::new();
    for (root, here) in agent_roots(cx) {
        let files = if root.is_on_machine() {
            cx.user
                .map(|u| crate::user::markdown_below(&u, &root))
                .unwrap_or_default()
        } else {
            markdown_files(cx, &root, true)
        };
        for file in files {
            let Some(mut a) = read_subagent(cx, &file) else {
                continue;
            };
            match winners.get(&a.name) {
                Some(winner) => {
                    a.applicability = Applicability::Shadowed;
                    a.reason = if winner.is_on_machine() || file.is_on_machine() {
                        format!("found at startup {here}; `{winner}`, of higher precedence, defines the same name and wins")
                    } else {
                        format!(
                            "found at startup {here}; `{winner}`, closer to the launch directory, defines the same name \
                             and wins"
                        )
                    };
                    duplicate(cx, &a, winner);
                }
                None => {
                    a.reason = format!(
                        "found at startup {here}; listed to the model in the `Agent` tool as `- {}: description \
                         (Tools: ...)`, its body never sent",
                        a.name
                    );
                    winners.insert(a.name.clone(), file.clone());
                }
            }
            a.id = cx.unique_id(format!("claude-code:subagent:{file}"));
            cx.out.subagents.push(a);
        }
    }
}

/// The subagent directories in precedence order, each with where it is
/// in words: the managed one (local mode), the chain's, the user's
/// (local mode).
fn agent_roots(cx: &Compiler<'_, '_>) -> Vec<(RepoPath, String)> {
    let cwd = cx.context.cwd.clone();
    let mut roots = Vec::new();
    let places = cx.user;
    if let Some(r) = places.and_then(|u| u.managed(".claude/agents")) {
        roots.push((r, "in the managed policy".to_string()));
    }
    for dir in chain(cx) {
        let Some(root) = dir.join(".claude/agents") else {
            continue;
        };
        let here = if dir == cwd {
            "in the launch directory".to_string()
        } else {
            format!("in `{dir}`, an ancestor of the launch directory")
        };
        roots.push((root, here));
    }
    if let Some(r) = places.and_then(|u| u.in_home("agents")) {
        let here = format!("in the user's `{r}`, in every project");
        roots.push((r, here));
    }
    roots
}

/// Reports that `loser` shares its name with `winner`, which Claude Code
/// keeps.
fn duplicate(cx: &mut Compiler<'_, '_>, loser: &Subagent, winner: &RepoPath) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::SubagentDuplicate,
            if winner.is_on_machine() || loser.source.path.is_on_machine() {
                format!(
                    "`{}` and `{winner}` both define the subagent `{}`; Claude Code keeps `{winner}`, whose layer \
                     takes precedence (managed, then the project's, then the user's).",
                    loser.source.path, loser.name
                )
            } else {
                format!(
                    "`{}` and `{winner}` both define the subagent `{}`; Claude Code keeps `{winner}`, the one closer \
                     to the launch directory.",
                    loser.source.path, loser.name
                )
            },
        )
        .at(loser.source.clone()),
    );
}

/// The directories of output styles in precedence order: every
/// `.claude/output-styles` of the chain, closest first, then in local mode
/// the user's `output-styles` of the configuration home (harness facts A10,
/// "Locations": `~/.claude/output-styles` and `.claude/output-styles`; a
/// project style shadowing a user style of the same name is assumed, as
/// for subagents, and not observed). The managed directory's styles are
/// not read.
fn output_style_roots(cx: &Compiler<'_, '_>) -> Vec<RepoPath> {
    let mut roots: Vec<RepoPath> = chain(cx)
        .into_iter()
        .filter_map(|dir| dir.join(".claude/output-styles"))
        .collect();
    roots.extend(cx.user.and_then(|u| u.in_home("output-styles")));
    roots
}

/// The `*.md` files directly in the output-style directory `root`, sorted;
/// a machine directory is listed through the machine.
fn output_style_files(cx: &Compiler<'_, '_>, root: &RepoPath) -> Vec<RepoPath> {
    let Some(places) = cx.user.filter(|_| root.is_on_machine()) else {
        return markdown_files(cx, root, false);
    };
    places
        .list(root)
        .into_iter()
        .filter(|e| e.kind == playbookdiff_source::EntryKind::File && e.name.ends_with(".md"))
        .filter_map(|e| root.join(&e.name))
        .collect()
}

/// The output styles of the chain (and the user's in local mode), and the
/// one `outputStyle` selects.
fn output_styles(cx: &mut Compiler<'_, '_>, settings: &Settings) {
    let selected: Option<(String, SourceRef)> = settings
        .values("outputStyle")
        .last()
        .and_then(|(v, l)| v.as_str().map(|s| (s.to_string(), l.at(&["outputStyle"]))));
    let mut winners: BTreeMap<String, RepoPath> = BTreeMap::new();
    for root in output_style_roots(cx) {
        for file in output_style_files(cx, &root) {
            let Some((meta, source, _)) = read_meta(cx, &file, Role::OutputStyle) else {
                continue;
            };
            let stem = file.file_name().unwrap_or("").trim_end_matches(".md");
            let name = meta
                .get("name")
                .and_then(crate::frontmatter::text_field)
                .unwrap_or_else(|| stem.to_string());
            let chosen = selected.as_ref().filter(|(s, _)| *s == name);
            let (applicability, reason, active) = match winners.get(&name) {
                Some(w) if file.is_on_machine() => (
                    Applicability::Shadowed,
                    format!("`{w}`, of the project, defines the same name and wins over the user's style"),
                    false,
                ),
                Some(w) => (
                    Applicability::Shadowed,
                    format!("`{w}`, closer to the launch directory, defines the same name and wins"),
                    false,
                ),
                None => match chosen {
                    Some((_, at)) => (
                        Applicability::Effective,
                        format!(
                            "selected by `outputStyle` in `{}`: its body reaches the system prompt under `# Output \
                             Style: {name}`",
                            at.path
                        ),
                        true,
                    ),
                    None => (
                        Applicability::Conditional,
                        "not selected by `outputStyle` in the settings read; the user may select it".to_string(),
                        false,
                    ),
                },
            };
            winners.entry(name.clone()).or_insert(file.clone());
            let id = cx.unique_id(format!("claude-code:output-style:{file}"));
            cx.out.output_styles.push(OutputStyle {
                id,
                name,
                source,
                load_phase: LoadPhase::Startup,
                applicability,
                reason,
                description: meta
                    .get("description")
                    .and_then(crate::frontmatter::text_field),
                active,
                selected_by: chosen.map(|(_, at)| at.clone()),
            });
        }
    }
    if let Some((name, at)) = selected {
        let builtin = BUILTIN_STYLES.iter().any(|b| b.eq_ignore_ascii_case(&name));
        // In local mode a `plugin:style` name is looked up among the
        // installed plugins' styles ([`crate::installed`]).
        let plugin_style = cx.user.is_some() && name.contains(':');
        if !builtin && !winners.contains_key(&name) && !plugin_style {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::OutputStyleUnknown,
                    format!(
                        "`outputStyle` in `{}` selects `{name}`, which is neither a built-in output style nor the \
                         name of a style in `.claude/output-styles/` of the launch directory or its ancestors; \
                         Claude Code keeps the default style.",
                        at.path
                    ),
                )
                .at(at),
            );
        }
    }
}

//! How to make Cursor receive what another harness receives: one sentence
//! per case, for `playbookdiff explain`, in Cursor's own formats: an `.mdc`
//! project rule with `alwaysApply` or `globs` front matter
//! (<https://cursor.com/docs/context/rules>), a skill folder in
//! `.cursor/skills`, an `mcpServers` entry of `.cursor/mcp.json`, a hook of
//! `.cursor/hooks.json`. Every file named is the workspace's (the launch
//! directory's), since Cursor reads nothing above it.

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, in_dir, ByTransport};
use playbookdiff_model::{HookTrigger, RepoPath, Transport};

/// The suggestion for `gap`: what would make Cursor receive it.
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, dir, paths } => Some(receive_instruction(file, dir, paths, scene)),
        Gap::LateInstruction { files } => Some(load_sooner(files, scene)),
        Gap::Skill { name, file } => Some(receive_skill(file, name, scene)),
        Gap::LateSkill { name, files } => Some(skill_sooner(name, files, scene)),
        // Cursor's subagents are not modelled: no file is proposed.
        Gap::Subagent { .. } => None,
        Gap::Mcp { name, transport } => Some(receive_mcp(name, transport, scene)),
        Gap::Hook {
            trigger,
            matcher,
            command,
            script,
        } => Some(receive_hook(trigger, matcher, command, script, scene)),
    }
}

/// The rule file a copy of `file` would be: its path with `/` and `.`
/// turned into `-`, lower case (`apps/api/CLAUDE.md` →
/// `apps-api-claude-md.mdc`).
fn rule_name(file: &RepoPath) -> String {
    let stem: String = file
        .as_str()
        .trim_start_matches('.')
        .chars()
        .map(|c| {
            if c == '/' || c == '.' {
                '-'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    format!("{stem}.mdc")
}

/// Cursor should receive the text of `file`, which applies to `dir`
/// (`paths`: the globs of a path-scoped piece): an `.mdc` rule holding the
/// text, auto-attached by the same globs, else always applied; in the
/// `.cursor/rules` of `dir` when it lies below the workspace (attached
/// when a file there is in context), else of the workspace.
pub fn receive_instruction(
    file: &RepoPath,
    dir: &RepoPath,
    paths: Option<&[String]>,
    scene: &Scene<'_, '_>,
) -> String {
    let base = if dir.starts_with(scene.cwd) {
        dir
    } else {
        scene.cwd
    };
    let rule = in_dir(base, &format!(".cursor/rules/{}", rule_name(file)));
    if RepoPath::new(&rule).is_some_and(|p| scene.exists(&p)) {
        return format!(
            "`{rule}` already exists, so nothing is to be created there; the reasons above say why Cursor does not apply it"
        );
    }
    let front = match paths {
        Some(globs) => format!("globs: {}", globs.join(", ")),
        None => "alwaysApply: true".to_string(),
    };
    format!(
        "create the project rule `{rule}` with front matter {} and the text of `{file}` (Cursor has no import of another file into a rule's text)",
        code_span(&front)
    )
}

/// Cursor should receive `files` at startup: it adds nested ones only
/// when a file of their folder is in context.
pub fn load_sooner(files: &[RepoPath], scene: &Scene<'_, '_>) -> String {
    let names = files
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Cursor adds {names} only when a file of its folder is in context; to send the text at startup, copy it into an always-applied rule (front matter {}) in `{}`",
        code_span("alwaysApply: true"),
        in_dir(scene.cwd, ".cursor/rules")
    )
}

/// Cursor should have skill `name`, whose `SKILL.md` another harness reads
/// at `file`: a link in the workspace's `.cursor/skills`.
pub fn receive_skill(file: &RepoPath, name: &str, scene: &Scene<'_, '_>) -> String {
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    if file.file_name() != Some("SKILL.md") {
        return format!(
            "create `{}` with front matter `name: {name}` and `description:` and the text of `{file}`",
            in_dir(scene.cwd, &format!(".cursor/skills/{name}/SKILL.md"))
        );
    }
    let dir_name = skill_dir.file_name().unwrap_or(name);
    let link = in_dir(scene.cwd, &format!(".cursor/skills/{dir_name}"));
    if RepoPath::new(&link).is_some_and(|p| scene.exists(&p)) {
        return format!(
            "`{link}` already exists, so nothing is to be linked there; the reasons above say why Cursor has no skill {}",
            code_span(name)
        );
    }
    let up = "../".repeat(scene.cwd.components().count() + 2);
    format!(
        "make `{link}` a symbolic link to `{up}{skill_dir}` (Cursor reads skills from the workspace's `.cursor/skills`)"
    )
}

/// Cursor should have skill `name` from this launch directory too.
pub fn skill_sooner(name: &str, files: &[RepoPath], scene: &Scene<'_, '_>) -> String {
    let first = files.first().map(|f| f.to_string()).unwrap_or_default();
    format!(
        "Cursor reads skills only from the workspace's own skill folders; link skill {} (`{first}`) into `{}`",
        code_span(name),
        in_dir(scene.cwd, ".cursor/skills")
    )
}

/// The shape of an `mcpServers` entry and the fields to copy, by transport.
const MCP_ENTRY: ByTransport<(&str, &str)> = ByTransport {
    stdio: (
        "{\"command\": ..., \"args\": [...]}",
        "the same command and arguments",
    ),
    http: ("{\"url\": ...}", "the same url and headers"),
    unknown: ("{\"url\": ...}", "the same url and headers"),
};

/// Cursor should start MCP server `name`, reached over `transport` where
/// another harness starts it.
pub fn receive_mcp(name: &str, transport: Transport, scene: &Scene<'_, '_>) -> String {
    let (entry, fields) = MCP_ENTRY.of(transport);
    format!(
        "add {} to `{}` with {fields}; pass secrets as `${{env:NAME}}`, and switch the server on in Cursor's MCP settings",
        code_span(&format!("\"mcpServers\": {{\"{name}\": {entry}}}")),
        in_dir(scene.cwd, ".cursor/mcp.json")
    )
}

/// The Cursor event of a cross-harness trigger, when Cursor has one.
fn event_of(trigger: HookTrigger) -> Option<&'static str> {
    Some(match trigger {
        HookTrigger::SessionStart => "sessionStart",
        HookTrigger::SessionEnd => "sessionEnd",
        HookTrigger::PreToolUse => "preToolUse",
        HookTrigger::PostToolUse => "postToolUse",
        HookTrigger::SubagentStart => "subagentStart",
        HookTrigger::SubagentStop => "subagentStop",
        HookTrigger::UserPromptSubmit => "beforeSubmitPrompt",
        HookTrigger::PreCompact => "preCompact",
        HookTrigger::Stop => "stop",
        _ => return None,
    })
}

/// Cursor should run a hook on `trigger`: an entry of the workspace's
/// `.cursor/hooks.json`, or why there is none.
pub fn receive_hook(
    trigger: HookTrigger,
    matcher: Option<&str>,
    command: Option<&str>,
    script: Option<&RepoPath>,
    scene: &Scene<'_, '_>,
) -> String {
    let Some(event) = event_of(trigger) else {
        return format!("Cursor has no hook event for `{trigger}`, so nothing in the repository can give it this hook");
    };
    let run = match (script, command) {
        (Some(s), _) => s.to_string(),
        (None, Some(c)) => c.to_string(),
        (None, None) => "...".to_string(),
    };
    let matcher = matcher
        .map(|m| format!(", \"matcher\": \"{m}\""))
        .unwrap_or_default();
    format!(
        "add {} to `{}` (Cursor runs project hooks from the workspace; tool names differ from the other harness's, so check the matcher)",
        code_span(&format!(
            "\"hooks\": {{\"{event}\": [{{\"command\": \"{run}\"{matcher}}}]}}"
        )),
        in_dir(scene.cwd, ".cursor/hooks.json")
    )
}

#[cfg(test)]
mod tests {
    use super::{event_of, rule_name};
    use crate::hooks::trigger;
    use playbookdiff_model::{HookTrigger, RepoPath};

    /// A remedy proposes the event the adapter reads back as the same
    /// trigger.
    #[test]
    fn events_round_trip() {
        for t in HookTrigger::ALL {
            if let Some(e) = event_of(t) {
                assert_eq!(trigger(e), Some(t), "{e}");
            }
        }
    }

    #[test]
    fn rule_names() {
        let n = |s: &str| rule_name(&RepoPath::new(s).unwrap());
        assert_eq!(n("apps/api/CLAUDE.md"), "apps-api-claude-md.mdc");
        assert_eq!(n(".claude/rules/style.md"), "claude-rules-style-md.mdc");
    }
}

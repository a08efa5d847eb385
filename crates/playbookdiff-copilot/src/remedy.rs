//! How to make Copilot CLI receive what another harness receives: one
//! sentence per case, for `playbookdiff explain`. It names only files
//! Copilot CLI reads: `.github/copilot-instructions.md`, path-specific
//! `.github/instructions/*.instructions.md` with `applyTo`, `@path`
//! imports (1.0.66 and later), `.github/skills`, `.github/agents`,
//! `.github/hooks/*.json`, `.mcp.json` (see the crate documentation for
//! the rules).

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, ByTransport};
use playbookdiff_model::{HookTrigger, RepoPath, Transport};

/// The suggestion for `gap`: what would make Copilot CLI receive it.
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, paths, .. } => Some(receive_instruction(file, paths)),
        Gap::LateInstruction { files } => Some(load_sooner(files)),
        Gap::Skill { name, file } => {
            Some(scene.skill_remedy(file, name, ".github/skills", "Copilot CLI"))
        }
        Gap::LateSkill { name, files } => Some(skill_sooner(name, files)),
        Gap::Subagent { name, file } => Some(receive_subagent(name, file)),
        Gap::Mcp { name, transport } => Some(receive_mcp(name, transport)),
        Gap::Hook {
            trigger,
            command,
            script,
            ..
        } => Some(receive_hook(trigger, command, script)),
    }
}

/// Copilot CLI should offer subagent `name`, defined at `file` for
/// another harness: it reads custom agents from `.github/agents/*.agent.md`
/// and Claude Code's `.claude/agents/*.md` (seen with 1.0.102: listed as
/// "User-provided custom agents" in the `task` tool).
pub fn receive_subagent(name: &str, file: &RepoPath) -> String {
    format!(
        "create `.github/agents/{name}.agent.md` with front matter `name` and `description` and the instructions of `{file}` (Copilot CLI also reads `.claude/agents/*.md`)"
    )
}

/// Copilot CLI's own name for `trigger`, when it has the event (the
/// hooks file schema of 1.0.24's `app.js`).
fn event_name(trigger: HookTrigger) -> Option<&'static str> {
    Some(match trigger {
        HookTrigger::PreToolUse => "preToolUse",
        HookTrigger::PostToolUse => "postToolUse",
        HookTrigger::PermissionRequest => "permissionRequest",
        HookTrigger::UserPromptSubmit => "userPromptSubmitted",
        HookTrigger::SessionStart => "sessionStart",
        HookTrigger::SessionEnd => "sessionEnd",
        HookTrigger::Stop => "agentStop",
        HookTrigger::SubagentStart => "subagentStart",
        HookTrigger::SubagentStop => "subagentStop",
        HookTrigger::PreCompact => "preCompact",
        HookTrigger::Notification => "notification",
        HookTrigger::PostCompact => return None,
    })
}

/// Copilot CLI should run a hook on `trigger` that runs `script` (else
/// `command`): a `.github/hooks/*.json` file of the repository root, in
/// Copilot CLI's own format (`bash`, `timeoutSec`), which both profiled
/// releases run from the project root (1.0.102 only in a trusted folder).
pub fn receive_hook(
    trigger: HookTrigger,
    command: Option<&str>,
    script: Option<&RepoPath>,
) -> String {
    let Some(event) = event_name(trigger) else {
        return format!(
            "Copilot CLI has no `{trigger}` hook event; move the check to one it has (`preToolUse`, `postToolUse`, `sessionStart`, `agentStop`, ...), or accept the gap"
        );
    };
    let module = script.is_some_and(|s| s.as_str().contains(".opencode/plugin"));
    let run = match (script, command) {
        (Some(s), _) if module => format!("a script doing what `{s}` does"),
        (Some(s), _) => format!("./{s}"),
        (None, Some(c)) => c.to_string(),
        (None, None) => "your check".to_string(),
    };
    let file = format!(
        ".github/hooks/{}.json",
        trigger.as_str().to_ascii_lowercase()
    );
    format!(
        "create `{file}` with `{{\"version\": 1, \"hooks\": {{\"{event}\": [{{\"type\": \"command\", \"bash\": {run:?}}}]}}}}` (Copilot CLI runs it in the repository root; 1.0.102 only in a folder the user trusts)"
    )
}

/// The name of a path-specific file for the text of `file`.
fn instructions_file(file: &RepoPath) -> String {
    let stem = file
        .file_name()
        .and_then(|n| n.strip_suffix(".md"))
        .unwrap_or("shared")
        .to_ascii_lowercase();
    format!(".github/instructions/{stem}.instructions.md")
}

/// Copilot CLI should receive the text of `file` (`paths`: the globs of a
/// path-scoped piece): a path-specific file whose `applyTo` carries the
/// globs, or an import from `.github/copilot-instructions.md`.
pub fn receive_instruction(file: &RepoPath, paths: Option<&[String]>) -> String {
    if let Some(globs) = paths {
        return format!(
            "create `{}` with front matter {} and the text of `{file}` (Copilot CLI 1.0.102 injects it when the agent views a matching file)",
            instructions_file(file),
            code_span(&format!("applyTo: \"{}\"", globs.join(",")))
        );
    }
    format!(
        "add the line {} to `.github/copilot-instructions.md` at the repository root (create it if missing) so Copilot CLI 1.0.66 and later inlines the text of `{file}`",
        code_span(&format!("@{file}"))
    )
}

/// Copilot CLI should receive `files` at startup: below the launch
/// directory it injects them only when the agent views a file there.
pub fn load_sooner(files: &[RepoPath]) -> String {
    let lines = files
        .iter()
        .map(|f| code_span(&format!("@{f}")))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Copilot CLI reads instruction files below the launch directory only when the agent views a file there; import them from `.github/copilot-instructions.md` with {lines} to send them at startup"
    )
}

/// Copilot CLI should have skill `name` from this launch directory too.
pub fn skill_sooner(name: &str, files: &[RepoPath]) -> String {
    let first = files.first().map(|f| f.to_string()).unwrap_or_default();
    format!(
        "Copilot CLI reads skills from the directories between the git root and the launch directory; link skill {} (`{first}`) into `.github/skills` at the repository root",
        code_span(name)
    )
}

/// The shape of an `mcpServers` entry, by transport.
const MCP_ENTRY: ByTransport<(&str, &str)> = ByTransport {
    stdio: (
        "{\"command\": ..., \"args\": [...]}",
        "the same command and arguments",
    ),
    http: (
        "{\"type\": \"http\", \"url\": ...}",
        "the same url and headers",
    ),
    unknown: ("{\"url\": ...}", "the same url and headers"),
};

/// Copilot CLI should start MCP server `name`.
pub fn receive_mcp(name: &str, transport: Transport) -> String {
    let (entry, fields) = MCP_ENTRY.of(transport);
    format!(
        "add {} to `.mcp.json` at the repository root with {fields} (Copilot CLI starts workspace servers only in a trusted folder)",
        code_span(&format!("\"mcpServers\": {{\"{name}\": {entry}}}"))
    )
}

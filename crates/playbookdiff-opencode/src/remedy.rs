//! How to make OpenCode receive what another harness receives: one
//! sentence per case, for `playbookdiff explain`. It names only files
//! OpenCode reads (see the crate documentation for the rules).

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, ByTransport};
use playbookdiff_model::{ActionKind, HookTrigger, PermissionScope, RepoPath, Transport};

/// The suggestion for `gap`: what would make OpenCode receive it.
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, paths, .. } => Some(receive_instruction(file, paths, scene)),
        Gap::LateInstruction { files } => Some(load_sooner(files)),
        Gap::Skill { name, file } => Some(receive_skill(file, name, scene)),
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

/// OpenCode should let its main agent call subagent `name`, defined for
/// another harness at `file`: an agent file of its own, listed in the
/// `task` tool (OpenCode 1.18.33, `.opencode/agent/NAME.md`).
pub fn receive_subagent(name: &str, file: &RepoPath) -> String {
    format!(
        "add `.opencode/agent/{name}.md` with front matter `description:` (as in `{file}`) and `mode: subagent`, and the body of `{file}` as its prompt; OpenCode lists it in its `task` tool"
    )
}

/// OpenCode should receive the text of `file`. `paths`: the globs of a
/// path-scoped piece. Relative `instructions`
/// entries are tried from the launch directory and each parent up to the
/// root, so a root-relative path works from every launch directory.
///
/// A `CLAUDE.md` that already imports the `AGENTS.md` beside it (which
/// OpenCode reads instead of it) needs no `instructions` entry, whose
/// `@AGENTS.md` line OpenCode would send as text beside `AGENTS.md`: its
/// other lines belong in that `AGENTS.md`.
pub fn receive_instruction(
    file: &RepoPath,
    paths: Option<&[String]>,
    scene: &Scene<'_, '_>,
) -> String {
    let agents = file
        .parent()
        .and_then(|d| d.child("AGENTS.md"))
        .filter(|a| scene.repo.is_file(a));
    if let Some(agents) = agents.filter(|_| {
        paths.is_none() && file.file_name() == Some("CLAUDE.md") && scene.imports(file, "AGENTS.md")
    }) {
        return format!(
            "`{file}` already imports `AGENTS.md`, which OpenCode reads instead of it; move its other lines into `{agents}` so both receive one text"
        );
    }
    let entry = code_span(&format!("\"instructions\": [\"{file}\"]"));
    if paths.is_some() {
        return format!(
            "OpenCode has no path-scoped instructions; add {entry} to `opencode.json` at the repository root if the text of `{file}` should always apply"
        );
    }
    format!(
        "OpenCode reads AGENTS.md (else CLAUDE.md) and does not follow `@` imports; add {entry} to `opencode.json` at the repository root so it sends the text of `{file}`"
    )
}

/// OpenCode should receive `files` at startup rather than later: below the
/// launch directory it attaches them only when a file there is read.
pub fn load_sooner(files: &[RepoPath]) -> String {
    let list = files
        .iter()
        .map(|f| format!("\"{f}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "OpenCode attaches instruction files below the launch directory only when it reads a file there; list them in {} of `opencode.json` to send them at startup",
        code_span(&format!("\"instructions\": [{list}]"))
    )
}

/// OpenCode should have skill `name` sooner: it searches skill roots from
/// the launch directory up to the root only.
pub fn skill_sooner(name: &str, files: &[RepoPath]) -> String {
    let first = files.first().map(|f| f.to_string()).unwrap_or_default();
    format!(
        "OpenCode finds skills only in the `.opencode/skills`, `.claude/skills` and `.agents/skills` of the launch directory and its parents; move skill {} (`{first}`) to one of them at or above the launch directory",
        code_span(name)
    )
}

/// OpenCode should have skill `name`, whose `SKILL.md` another harness
/// reads at `file`; nothing is proposed where something already is
/// ([`Scene::skill_remedy`]).
pub fn receive_skill(file: &RepoPath, name: &str, scene: &Scene<'_, '_>) -> String {
    let s = file.as_str();
    let in_shared_root = s.starts_with(".claude/skills/")
        || s.starts_with(".agents/skills/")
        || s.contains("/.claude/skills/")
        || s.contains("/.agents/skills/");
    if in_shared_root {
        return format!(
            "OpenCode reads `{file}` but loads a skill only with a `name` in its front matter; add {} (and a `description`, or the model is not told of it)",
            code_span(&format!("name: {name}"))
        );
    }
    scene.skill_remedy(file, name, ".opencode/skills", "OpenCode")
}

/// The shape of an `mcp` entry and the fields to copy, by the server's
/// transport.
const MCP_ENTRY: ByTransport<(&str, &str)> = ByTransport {
    stdio: (
        "{\"type\": \"local\", \"command\": [...]}",
        "the same command (as one list)",
    ),
    http: (
        "{\"type\": \"remote\", \"url\": ...}",
        "the same url and headers",
    ),
    unknown: ("{\"type\": ...}", "the same command (as one list) or url"),
};

/// OpenCode should start MCP server `name`, reached over `transport`
/// where another harness starts it: `"type": "local"` with the command as
/// one list, or `"type": "remote"` with a `url` (packages/opencode/src/
/// config/config.ts, `McpLocal` and `McpRemote`).
pub fn receive_mcp(name: &str, transport: Transport) -> String {
    let (entry, fields) = MCP_ENTRY.of(transport);
    format!(
        "add {} to `opencode.json` with {fields}; pass secrets as `{{env:VAR}}`",
        code_span(&format!("\"mcp\": {{\"{name}\": {entry}}}"))
    )
}

/// The plugin hook OpenCode calls for `trigger`, and for an `event`
/// hook the bus event's type, or `None` when it has none (plugins
/// documentation; the guard the surfaces and guard reference ran with
/// 1.18.33).
fn plugin_hook(trigger: HookTrigger) -> Option<(&'static str, Option<&'static str>)> {
    Some(match trigger {
        HookTrigger::PreToolUse => ("tool.execute.before", None),
        HookTrigger::PostToolUse => ("tool.execute.after", None),
        HookTrigger::PermissionRequest => ("permission.ask", None),
        HookTrigger::UserPromptSubmit => ("chat.message", None),
        HookTrigger::PreCompact => ("experimental.session.compacting", None),
        HookTrigger::SessionStart => ("event", Some("session.created")),
        HookTrigger::Stop => ("event", Some("session.idle")),
        HookTrigger::PostCompact => ("event", Some("session.compacted")),
        _ => return None,
    })
}

/// OpenCode should run a hook on `trigger`: a plugin module in
/// `.opencode/plugin/`, which OpenCode imports at startup (not with
/// `--pure`); the sketch runs the other harness's script with Bun's `$`
/// and, before a tool call, blocks it by throwing when the script exits 2.
pub fn receive_hook(
    trigger: HookTrigger,
    command: Option<&str>,
    script: Option<&RepoPath>,
) -> String {
    let Some((hook, bus_event)) = plugin_hook(trigger) else {
        return format!("OpenCode plugins have no `{trigger}` hook; accept the gap");
    };
    let run = match (script, command) {
        (Some(s), _) => format!("sh {s}"),
        (None, Some(c)) => c.to_string(),
        (None, None) => "your-check".to_string(),
    };
    let handler = match (trigger, bus_event) {
        (HookTrigger::PreToolUse, _) => format!(
            "async (input, output) => {{ const r = await $`{run} < ${{new Response(JSON.stringify({{ tool_name: input.tool, tool_input: output.args }}))}}`.nothrow(); if (r.exitCode === 2) throw new Error(r.stderr.toString()) }}"
        ),
        (_, Some(t)) => format!(
            "async ({{ event }}) => {{ if (event.type === \"{t}\") await $`{run}`.nothrow() }}"
        ),
        _ => format!("async (input, output) => {{ await $`{run}`.nothrow() }}"),
    };
    format!(
        "create `.opencode/plugin/hooks.js` with `export const Hooks = async ({{ $ }}) => ({{ {hook:?}: {handler} }})` (OpenCode imports it at startup; its tools are `write`, `edit`, `bash`, `read`, and a thrown error blocks the call)"
    )
}

/// OpenCode should refuse what `scope` covers, which another harness
/// refuses: a `permission` entry in `opencode.json` (OpenCode
/// documentation, "permissions": `bash` patterns are commands with `*`
/// wildcards, `edit` and `read` patterns are paths).
pub fn deny(scope: &PermissionScope) -> Option<String> {
    let action = match scope.action {
        ActionKind::Shell => "bash",
        ActionKind::Read => "read",
        ActionKind::Edit => "edit",
        ActionKind::WebFetch => "webfetch",
    };
    let entry = match (scope.action, &scope.pattern) {
        (_, None) => format!("\"{action}\": \"deny\""),
        (ActionKind::Shell, Some(p)) => format!("\"bash\": {{{:?}: \"deny\"}}", format!("{p} *")),
        (_, Some(p)) => format!("\"{action}\": {{{p:?}: \"deny\"}}"),
    };
    Some(format!(
        "add `{entry}` under `permission` in `opencode.json` (merged with the other `permission` entries)"
    ))
}

//! How to make Gemini CLI receive what another harness receives: one
//! sentence per case, for `playbookdiff explain`. It names only files
//! Gemini CLI reads: the launch directory's `.gemini/settings.json`
//! (`context.fileName`, `mcpServers`, `hooks`), `GEMINI.md` with `@path`
//! imports, and the launch directory's `.gemini/skills` and
//! `.gemini/agents` (see the crate documentation for the rules).

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, in_dir, ByTransport};
use playbookdiff_model::{HookTrigger, RepoPath, Transport};

/// The suggestion for `gap`: what would make Gemini CLI receive it.
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, paths, .. } => Some(receive_instruction(file, paths, scene)),
        Gap::LateInstruction { files } => Some(load_sooner(files, scene)),
        Gap::Skill { name, file } => Some(receive_skill(file, name, scene)),
        Gap::LateSkill { name, files } => Some(skill_sooner(name, files, scene)),
        Gap::Subagent { name, file } => Some(receive_subagent(name, file, scene)),
        Gap::Mcp { name, transport } => Some(receive_mcp(name, transport, scene)),
        Gap::Hook {
            trigger,
            command,
            script,
            ..
        } => Some(receive_hook(trigger, command, script, scene)),
    }
}

/// The launch directory's settings file, as written in a sentence.
fn settings_file(scene: &Scene<'_, '_>) -> String {
    in_dir(scene.cwd, ".gemini/settings.json")
}

/// Gemini CLI should receive the text of `file` (`paths`: the globs of a
/// path-scoped piece). A file in a directory from the root down to the
/// launch directory is read once its name is in `context.fileName`;
/// any other file is imported from a `GEMINI.md` with `@path`.
pub fn receive_instruction(
    file: &RepoPath,
    paths: Option<&[String]>,
    scene: &Scene<'_, '_>,
) -> String {
    let dir = file.parent().unwrap_or_else(RepoPath::root);
    let name = file.file_name().unwrap_or("AGENTS.md");
    let settings = settings_file(scene);
    if paths.is_some() {
        return format!(
            "Gemini CLI has no path-scoped context; import it with {} from `GEMINI.md` at the repository root if the text of `{file}` should always apply",
            code_span(&format!("@./{file}"))
        );
    }
    if scene.on_launch_chain(&dir) && name.ends_with(".md") && !name.contains('/') {
        return format!(
            "Gemini CLI reads only `GEMINI.md` unless told otherwise; add {} to `{settings}` (only the launch directory's settings apply) so it reads `{file}`",
            code_span(&format!("\"context\": {{\"fileName\": [\"GEMINI.md\", \"{name}\"]}}"))
        );
    }
    format!(
        "add the line {} to `GEMINI.md` at the repository root (create it if missing) so Gemini CLI inlines the text of `{file}`",
        code_span(&format!("@./{file}"))
    )
}

/// Gemini CLI should receive `files` at startup: below the launch
/// directory it adds them only when the agent touches a path there.
pub fn load_sooner(files: &[RepoPath], scene: &Scene<'_, '_>) -> String {
    let lines = files
        .iter()
        .map(|f| code_span(&format!("@./{f}")))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Gemini CLI adds context files below the launch directory only when the agent reads or lists a path there; import them into `{}` with {lines} to send them at startup",
        in_dir(scene.cwd, "GEMINI.md")
    )
}

/// Gemini CLI should have skill `name`, whose `SKILL.md` another harness
/// reads at `file`: it reads skills only from the launch directory's
/// `.gemini/skills` and `.agents/skills`.
pub fn receive_skill(file: &RepoPath, name: &str, scene: &Scene<'_, '_>) -> String {
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    let in_cwd_root = [".gemini/skills", ".agents/skills"].iter().any(|r| {
        RepoPath::new(&in_dir(scene.cwd, r))
            .is_some_and(|root| skill_dir.parent().as_ref() == Some(&root))
    });
    if in_cwd_root {
        return format!(
            "Gemini CLI reads `{file}` but loads a skill only with string `name` and `description` in its front matter; add {} and a `description`",
            code_span(&format!("name: {name}"))
        );
    }
    let dir_name = skill_dir.file_name().unwrap_or(name);
    let link = in_dir(scene.cwd, &format!(".gemini/skills/{dir_name}"));
    if RepoPath::new(&link).is_some_and(|p| scene.exists(&p)) {
        return format!(
            "`{link}` already exists, so nothing is to be linked there; the reasons above say why Gemini CLI has no skill {}",
            code_span(name)
        );
    }
    let up = "../".repeat(scene.cwd.components().count() + 2);
    format!(
        "make `{link}` a symbolic link to `{up}{skill_dir}` (Gemini CLI reads skills only from the launch directory's `.gemini/skills` and `.agents/skills`)"
    )
}

/// Gemini CLI should have skill `name` from this launch directory too.
pub fn skill_sooner(name: &str, files: &[RepoPath], scene: &Scene<'_, '_>) -> String {
    let first = files.first().map(|f| f.to_string()).unwrap_or_default();
    format!(
        "Gemini CLI reads skills only from the launch directory's own `.gemini/skills` and `.agents/skills`; link skill {} (`{first}`) into `{}`",
        code_span(name),
        in_dir(scene.cwd, ".gemini/skills")
    )
}

/// Gemini CLI should let its main agent call subagent `name`, defined for
/// another harness at `file`: a `.gemini/agents/NAME.md` of the launch
/// directory with `name` and `description` front matter, which Gemini CLI
/// loads in a trusted folder once the user acknowledged the file
/// (`packages/core/src/agents/agentLoader.ts`; seen with 0.61.0).
pub fn receive_subagent(name: &str, file: &RepoPath, scene: &Scene<'_, '_>) -> String {
    format!(
        "add `{}` with front matter `name: {name}` and `description:` (as in `{file}`) and the body of `{file}` as its prompt; Gemini CLI loads it in a trusted folder once the user acknowledges the file",
        in_dir(scene.cwd, &format!(".gemini/agents/{name}.md"))
    )
}

/// Gemini CLI should run a hook on `trigger` that runs `script` (else
/// `command`): an entry of `hooks` in the launch directory's settings
/// under Gemini CLI's own event name (`BeforeTool` for `PreToolUse`),
/// whose tool matcher names Gemini CLI's tools (`HookRegistry`,
/// `HookEventName` in `@google/gemini-cli-core`).
pub fn receive_hook(
    trigger: HookTrigger,
    command: Option<&str>,
    script: Option<&RepoPath>,
    scene: &Scene<'_, '_>,
) -> String {
    let Some(event) = crate::hooks::event_of(trigger) else {
        return format!(
            "Gemini CLI has no `{trigger}` hook event (its events: BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart, SessionEnd, PreCompress, Notification, BeforeModel, AfterModel, BeforeToolSelection); move the check to one of them, or accept the gap"
        );
    };
    let module = script.is_some_and(|s| s.as_str().contains(".opencode/plugin"));
    let run = match (script, command) {
        (Some(s), _) if module => format!("a script doing what `{s}` does"),
        (Some(s), _) => format!("$GEMINI_PROJECT_DIR/{}", relative_to(s, scene.cwd)),
        (None, Some(c)) => c.to_string(),
        (None, None) => "your check".to_string(),
    };
    let matcher = match trigger {
        HookTrigger::PreToolUse | HookTrigger::PostToolUse => {
            "\"matcher\": \"write_file|replace|run_shell_command\", "
        }
        _ => "",
    };
    format!(
        "add to `{}`: `\"hooks\": {{\"{event}\": [{{{matcher}\"hooks\": [{{\"type\": \"command\", \"command\": {run:?}}}]}}]}}` (Gemini CLI's name for `{trigger}` is `{event}`; it runs project hooks in a trusted folder, and exit 2 blocks)",
        settings_file(scene)
    )
}

/// `path` written from directory `dir` (`../` for each level up).
fn relative_to(path: &RepoPath, dir: &RepoPath) -> String {
    if dir.is_root() {
        return path.to_string();
    }
    let prefix = format!("{dir}/");
    match path.as_str().strip_prefix(&prefix) {
        Some(rest) => rest.to_string(),
        None => format!("{}{path}", "../".repeat(dir.components().count())),
    }
}

/// The shape of an `mcpServers` entry and the fields to copy, by transport.
const MCP_ENTRY: ByTransport<(&str, &str)> = ByTransport {
    stdio: (
        "{\"command\": ..., \"args\": [...]}",
        "the same command and arguments",
    ),
    http: ("{\"httpUrl\": ...}", "the same url and headers"),
    unknown: ("{\"url\": ...}", "the same url and headers"),
};

/// Gemini CLI should start MCP server `name`, reached over `transport`
/// where another harness starts it (`MCPServerConfig`: `command`,
/// `httpUrl`, `url`).
pub fn receive_mcp(name: &str, transport: Transport, scene: &Scene<'_, '_>) -> String {
    let (entry, fields) = MCP_ENTRY.of(transport);
    format!(
        "add {} to `{}` with {fields} (only the launch directory's settings apply); pass secrets as `$VAR`",
        code_span(&format!("\"mcpServers\": {{\"{name}\": {entry}}}")),
        settings_file(scene)
    )
}

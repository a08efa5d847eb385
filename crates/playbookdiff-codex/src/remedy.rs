//! How to make Codex receive what another harness receives: one sentence
//! per case, for `playbookdiff explain`. Kept apart from the discovery
//! rules; it only names files Codex reads (spec 004).

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, ByTransport};
use playbookdiff_model::{ActionKind, HookTrigger, PermissionScope, RepoPath, Transport};

/// What would make Codex receive what `gap` says it lacks, or receive it
/// sooner, in `scene`. Always an answer.
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, dir, paths } => Some(receive_instruction(file, dir, paths, scene)),
        Gap::LateInstruction { files } => {
            // The `AGENTS.md` among the files is the one Codex reads.
            let file = files
                .iter()
                .find(|p| p.file_name() == Some("AGENTS.md"))
                .or(files.first())?;
            let dir = file.parent().unwrap_or_else(RepoPath::root);
            Some(load_sooner(file, &dir))
        }
        Gap::Skill { name, file } => Some(receive_skill(file, name, scene)),
        Gap::LateSkill { files, .. } => {
            // `<base>/<dir>/skills/<x>/SKILL.md` (e.g. `.claude`): the base directory.
            let base = files
                .first()?
                .parent()
                .and_then(|p| p.parent())
                .and_then(|p| p.parent())
                .and_then(|p| p.parent())
                .unwrap_or_else(RepoPath::root);
            Some(skill_sooner(&base))
        }
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

/// Codex should receive the text of `file`, which applies to `dir`.
/// `paths`: the globs of a path-scoped piece.
///
/// Codex reads, in each directory from the project root down to the
/// launch directory, `AGENTS.override.md` or else `AGENTS.md`, and no
/// instruction file below the launch directory, not even on demand
/// (`codex-rs/core/src/project_doc.rs`, `discover_project_doc_paths`). So
/// the file to edit is the one Codex reads in `dir` (the override when
/// there is one), never `file` itself; and when `dir` lies off the way
/// from the root to the launch directory, the sentence says that no edit
/// in `dir` reaches Codex from this launch directory.
pub fn receive_instruction(
    file: &RepoPath,
    dir: &RepoPath,
    paths: Option<&[String]>,
    scene: &Scene<'_, '_>,
) -> String {
    let agents = dir.child("AGENTS.md").unwrap_or_else(|| file.clone());
    let over = dir
        .child("AGENTS.override.md")
        .filter(|o| scene.repo.is_file(o));
    // The file Codex reads in `dir`.
    let read = over.clone().unwrap_or_else(|| agents.clone());
    if paths.is_some() {
        return format!(
            "Codex has no path-scoped instructions; copy the text of `{file}` into `{read}` if it should always apply"
        );
    }
    let edit = if *file == read {
        // Codex reads this very file in `dir`: no edit of it helps.
        None
    } else if over.is_some() && *file == agents {
        Some(format!(
            "in `{dir}`, `{read}` shadows `{agents}` for Codex, which reads the override instead: merge the text of `{agents}` into `{read}`, or delete the override"
        ))
    } else if file.file_name() == Some("CLAUDE.md") && over.is_none() {
        Some(if scene.imports(file, "AGENTS.md") {
            format!(
                "`{file}` already imports `AGENTS.md`, which Codex reads; move its other lines into `{agents}` so both receive one text"
            )
        } else {
            format!(
                "move the text of `{file}` into `{agents}` and replace it with a line `@AGENTS.md`, so both read one file"
            )
        })
    } else {
        Some(format!(
            "Codex does not follow `@` imports or read rules files; put the text of `{file}` into `{read}`"
        ))
    };
    if scene.on_launch_chain(dir) {
        return edit.unwrap_or_else(|| {
            format!("Codex reads `{read}` from this launch directory; the reason above says why it holds nothing of it")
        });
    }
    let cwd = scene.cwd;
    let reach = format!(
        "Codex reads no instruction file below its launch directory, not even on demand, so from `{cwd}` nothing in `{dir}` reaches it; launched in `{dir}` (`--cwd {dir}`) it reads `{read}`"
    );
    let rest = format!(
        "from `{cwd}`, only an `AGENTS.md` from the root to `{cwd}` would reach it, for every directory"
    );
    match edit {
        Some(edit) => format!("{reach}, and for that launch {edit}; {rest}"),
        None => format!("{reach}; {rest}"),
    }
}

/// Codex should receive `file` (of directory `dir`) sooner: it reads the
/// AGENTS.md chain from the root to the launch directory only.
pub fn load_sooner(file: &RepoPath, dir: &RepoPath) -> String {
    format!(
        "Codex reads `{file}` only when launched in `{dir}` or below (`--cwd {dir}`); to have it from a higher launch directory, move its text into an AGENTS.md between the root and there"
    )
}

/// Codex should have a skill of directory `dir` sooner: it scans the
/// `.agents/skills` of the launch directory and its parents only.
pub fn skill_sooner(dir: &RepoPath) -> String {
    format!(
        "Codex finds skills only in the `.agents/skills` of the launch directory and its parents; launch it in `{dir}` (`--cwd {dir}`) or move the skill to an `.agents/skills` at or above the launch directory"
    )
}

/// Codex should have skill `name`, whose `SKILL.md` another harness reads
/// at `file`; nothing is proposed where something already is
/// ([`Scene::skill_remedy`]).
pub fn receive_skill(file: &RepoPath, name: &str, scene: &Scene<'_, '_>) -> String {
    scene.skill_remedy(file, name, ".agents/skills", "Codex")
}

/// The fields of an `[mcp_servers.NAME]` table and the keys that forward
/// secrets, by the server's transport.
const MCP_FIELDS: ByTransport<(&str, &str)> = ByTransport {
    stdio: ("the same command and args", "`env_vars`"),
    http: (
        "the same url",
        "`bearer_token_env_var` or `env_http_headers`",
    ),
    unknown: (
        "the same command and args, or url",
        "`env_vars` or `bearer_token_env_var`",
    ),
};

/// Codex should start MCP server `name`, reached over `transport` where
/// another harness starts it: a local server is a table with `command`
/// and `args`, a remote one a table with `url` (Codex's
/// `[mcp_servers.NAME]` tables, codex-rs/core/src/config/types.rs).
pub fn receive_mcp(name: &str, transport: Transport) -> String {
    let (fields, secrets) = MCP_FIELDS.of(transport);
    format!(
        "add a {} table to `.codex/config.toml` with {fields}; forward secrets with {secrets}",
        code_span(&format!("[mcp_servers.{}]", crate::config::toml_key(name)))
    )
}

/// Codex should run a hook on `trigger`: an entry of `.codex/hooks.json`
/// in Claude Code's shape, which Codex reads for a trusted project and
/// runs once the user trusts the hook's hash (surfaces and guard
/// reference). Its hooks see `Bash` and `apply_patch` (a patch's files are
/// in `tool_input.command`). An event the newest profiled release lacks
/// has no Codex hook.
pub fn receive_hook(
    trigger: HookTrigger,
    command: Option<&str>,
    script: Option<&RepoPath>,
) -> String {
    let events = crate::profile::TABLE
        .last()
        .map_or(&[][..], |r| r.facts.hook_events);
    if !events.contains(&trigger.as_str()) {
        return format!(
            "Codex has no `{trigger}` hook event (its events: {}); move the check to one of them, or accept the gap",
            events.join(", ")
        );
    }
    let module = script.is_some_and(|s| s.as_str().contains(".opencode/plugin"));
    let run = match (script, command) {
        (Some(s), _) if module => format!("a script doing what `{s}` does"),
        (Some(s), _) => s.to_string(),
        (None, Some(c)) => c.to_string(),
        (None, None) => "your check".to_string(),
    };
    let (matcher, tools) = match trigger {
        HookTrigger::PreToolUse | HookTrigger::PostToolUse => (
            "\"matcher\": \"Bash|apply_patch\", ",
            "; its hooks see `Bash` and `apply_patch`, whose files are in `tool_input.command`",
        ),
        _ => ("", ""),
    };
    format!(
        "add to `.codex/hooks.json`: `{{\"hooks\": {{\"{trigger}\": [{{{matcher}\"hooks\": [{{\"type\": \"command\", \"command\": {run:?}}}]}}]}}}}` (the path from the launch directory; Codex runs it for a trusted project once the user trusts its hash{tools})"
    )
}

/// Codex should let its main agent call subagent `name`, defined for
/// another harness at `file`: a custom agent file in `.codex/agents/`
/// (Codex subagents documentation: `name`, `description` and
/// `developer_instructions` required; read in a trusted project).
pub fn receive_subagent(name: &str, file: &RepoPath) -> String {
    format!(
        "add `.codex/agents/{name}.toml` with `name = \"{name}\"`, `description` (as in `{file}`) and `developer_instructions` (its body); Codex reads it in a trusted project and lists it in its `spawn_agent` tool"
    )
}

/// Codex should refuse what `scope` covers, which another harness
/// refuses. Codex has no per-path or per-domain rule in `config.toml`:
/// every edit is refused by `sandbox_mode = "read-only"` (approximate: an
/// approval can lift it for one command), a command prefix by a
/// `prefix_rule` with `decision = "forbidden"` in a `.codex/rules/*.rules`
/// file (Codex documentation, "rules"; not read by this analysis); for
/// the rest a `PreToolUse` hook in `.codex/hooks.json` that refuses the
/// call is the closest equivalent.
pub fn deny(scope: &PermissionScope) -> Option<String> {
    let hook = "a `PreToolUse` hook in `.codex/hooks.json` that answers `permissionDecision: \"deny\"` for it (Codex runs it once the user trusts its hash)";
    Some(match (scope.action, &scope.pattern) {
        (ActionKind::Edit, None) => "set `sandbox_mode = \"read-only\"` in `.codex/config.toml` (approximate: it refuses every write by commands and patches, and an approval can lift it for one command)".to_string(),
        (ActionKind::Shell, Some(p)) => {
            let words: Vec<String> = p.split_whitespace().map(|w| format!("{w:?}")).collect();
            format!(
                "add `prefix_rule(pattern = [{}], decision = \"forbidden\")` to a `.codex/rules/*.rules` file (this analysis does not read Codex rules files yet), or {hook}",
                words.join(", ")
            )
        }
        _ => format!("Codex has no setting that refuses {}; the closest is {hook}", scope.phrase()),
    })
}

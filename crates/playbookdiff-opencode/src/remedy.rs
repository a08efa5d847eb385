//! How to make OpenCode receive what another harness receives: one
//! sentence per case, for `playbookdiff explain`. It names only files
//! OpenCode reads (see the crate documentation for the rules).

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, ByTransport};
use playbookdiff_model::{RepoPath, Transport};

/// The suggestion for `gap`: what would make OpenCode receive it.
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, paths, .. } => Some(receive_instruction(file, paths, scene)),
        Gap::LateInstruction { files } => Some(load_sooner(files)),
        Gap::Skill { name, file } => Some(receive_skill(file, name, scene)),
        Gap::LateSkill { name, files } => Some(skill_sooner(name, files)),
        Gap::Subagent { name, file } => Some(receive_subagent(name, file)),
        Gap::Mcp { name, transport } => Some(receive_mcp(name, transport)),
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

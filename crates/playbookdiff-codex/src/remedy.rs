//! How to make Codex receive what another harness receives: one sentence
//! per case, for `playbookdiff explain`. Kept apart from the discovery
//! rules; it only names files Codex reads (spec 004).

use playbookdiff_adapter::Gap;
use playbookdiff_model::remedy::{code_span, in_dir, skill_link};
use playbookdiff_model::RepoPath;

/// What would make Codex receive what `gap` says it lacks, or receive it
/// sooner. Always an answer.
pub fn for_gap(gap: &Gap<'_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, dir, paths } => Some(receive_instruction(file, dir, paths)),
        Gap::LateInstruction { files } => {
            // The `AGENTS.md` among the files is the one Codex reads.
            let file = files
                .iter()
                .find(|p| p.file_name() == Some("AGENTS.md"))
                .or(files.first())?;
            let dir = file.parent().unwrap_or_else(RepoPath::root);
            Some(load_sooner(file, &dir))
        }
        Gap::Skill { name, file } => Some(receive_skill(file, name)),
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
        Gap::Mcp { name } => Some(receive_mcp(name)),
    }
}

/// Codex should receive the text of `file`, which applies to `dir`.
/// `paths`: the globs of a path-scoped piece.
pub fn receive_instruction(file: &RepoPath, dir: &RepoPath, paths: Option<&[String]>) -> String {
    let agents = in_dir(dir, "AGENTS.md");
    if paths.is_some() {
        return format!(
            "Codex has no path-scoped instructions; copy the text of `{file}` into `{agents}` if it should always apply"
        );
    }
    match file.file_name() {
        Some("CLAUDE.md") => format!(
            "move the text of `{file}` into `{agents}` and replace it with a line `@AGENTS.md`, so both read one file"
        ),
        _ => format!(
            "Codex does not follow `@` imports or read rules files; put the text of `{file}` into `{agents}`"
        ),
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
/// at `file`.
pub fn receive_skill(file: &RepoPath, name: &str) -> String {
    skill_link(file, name, ".agents/skills", "Codex")
}

/// Codex should start MCP server `name`.
pub fn receive_mcp(name: &str) -> String {
    format!(
        "add a {} table to `.codex/config.toml` with the same command, args and url; forward secrets with `env_vars` or `bearer_token_env_var`",
        code_span(&format!("[mcp_servers.{}]", crate::config::toml_key(name)))
    )
}

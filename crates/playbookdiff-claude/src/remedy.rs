//! How to make Claude Code receive what another harness receives: one
//! sentence per case, for `playbookdiff explain`. Kept apart from the
//! discovery rules; it only names files Claude Code reads (spec 000).

use playbookdiff_adapter::Gap;
use playbookdiff_model::remedy::{code_span, in_dir, skill_link};
use playbookdiff_model::RepoPath;

/// What would make Claude Code receive what `gap` says it lacks; `None`
/// for a late skill (Claude Code reads every skill directory at startup)
/// and for late instructions (the finding's reason already says what keeps
/// the file from loading sooner).
pub fn for_gap(gap: &Gap<'_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, dir, .. } => Some(receive_instruction(file, dir)),
        Gap::Skill { name, file } => Some(receive_skill(file, name)),
        Gap::Mcp { name } => Some(receive_mcp(name)),
        Gap::LateInstruction { .. } | Gap::LateSkill { .. } => None,
    }
}

/// Claude Code should receive the text of `file`, which applies to `dir`.
pub fn receive_instruction(file: &RepoPath, dir: &RepoPath) -> String {
    let parent = file.parent().unwrap_or_else(RepoPath::root);
    let claude = in_dir(&parent, "CLAUDE.md");
    match file.file_name() {
        Some("AGENTS.md") | Some("AGENTS.override.md") => format!(
            "add a line `@{}` to `{claude}`, or make `{claude}` a symbolic link to `{}`",
            file.file_name().unwrap_or("AGENTS.md"),
            file.file_name().unwrap_or("AGENTS.md")
        ),
        _ => {
            let rel = file.strip_prefix(dir).filter(|r| !r.is_empty());
            let import = rel.map_or_else(|| file.to_string(), str::to_string);
            format!(
                "import it from `{}` with a line `@{import}`",
                in_dir(dir, "CLAUDE.md")
            )
        }
    }
}

/// Claude Code should have skill `name`, whose `SKILL.md` another harness
/// reads at `file`.
pub fn receive_skill(file: &RepoPath, name: &str) -> String {
    skill_link(file, name, ".claude/skills", "Claude Code")
}

/// Claude Code should start MCP server `name`.
pub fn receive_mcp(name: &str) -> String {
    format!(
        "add {} under `mcpServers` in `.mcp.json` with the same command, args and environment (secrets as `${{VAR}}` placeholders)",
        code_span(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_testkit::rp;

    #[test]
    fn remedies_name_claude_files() {
        assert_eq!(
            receive_instruction(&rp("apps/api/AGENTS.md"), &rp("apps/api")),
            "add a line `@AGENTS.md` to `apps/api/CLAUDE.md`, or make `apps/api/CLAUDE.md` a symbolic link to `AGENTS.md`"
        );
        assert!(receive_skill(&rp(".agents/skills/x/SKILL.md"), "x")
            .starts_with("make `.claude/skills/x` a symbolic link to `../../.agents/skills/x`"));
    }
}

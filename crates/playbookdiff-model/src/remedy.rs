//! Text shared by the adapters' suggestions ("what would make the harnesses
//! agree"). Pure functions over repository paths.

use crate::RepoPath;

/// `n` and the noun in the form that agrees with it: `1 skill`,
/// `3 skills`, `0 skills`; never `skill(s)`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `name` inside directory `dir`, as a repository-relative path string
/// (`name` alone at the root).
pub fn in_dir(dir: &RepoPath, name: &str) -> String {
    if dir.is_root() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The suggestion to share a skill through a symbolic link: the skill whose
/// `SKILL.md` another harness reads at `file` (laid out as
/// `<base>/<root>/skills/<dir>/SKILL.md`) becomes visible to `harness`
/// under `<base>/<skills_root>/<dir>` (e.g. `.claude/skills`,
/// `.agents/skills`). `name` stands in for the directory name when the
/// path has none.
pub fn skill_link(file: &RepoPath, name: &str, skills_root: &str, harness: &str) -> String {
    let skill_dir = file.parent().unwrap_or_else(RepoPath::root);
    let dir_name = skill_dir.file_name().unwrap_or(name).to_string();
    // `<base>/<root>/skills/<dir>`: the base is three levels up.
    let base = skill_dir
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.parent())
        .unwrap_or_else(RepoPath::root);
    let target = skill_dir
        .strip_prefix(&base)
        .unwrap_or(skill_dir.as_str())
        .to_string();
    format!(
        "make `{}` a symbolic link to `../../{target}` ({harness} reads skills from `{skills_root}`)",
        in_dir(&base, &format!("{skills_root}/{dir_name}"))
    )
}

/// `s` as a Markdown code span, as messages quote names and paths: the
/// fence is one backtick longer than the longest run of backticks inside,
/// and a space pads content that starts or ends with a backtick, so a name
/// such as ``a`b`` cannot end the span early (CommonMark, "Code spans").
pub fn code_span(s: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_codex_skill_is_linked_into_the_claude_skills_root_beside_it() {
        let f = RepoPath::new("apps/web/.agents/skills/deploy/SKILL.md").unwrap();
        assert_eq!(
            skill_link(&f, "deploy", ".claude/skills", "Claude Code"),
            "make `apps/web/.claude/skills/deploy` a symbolic link to `../../.agents/skills/deploy` \
             (Claude Code reads skills from `.claude/skills`)"
        );
    }
}

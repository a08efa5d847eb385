//! Text shared by the adapters' suggestions ("what would make the harnesses
//! agree"). Pure functions over repository paths.

use crate::{RepoPath, Transport};

/// `n` and the noun in the form that agrees with it: `1 skill`,
/// `3 skills`, `0 skills`, `1,200 servers`; never `skill(s)`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", grouped(n as u64))
    }
}

/// `n` in digits with a comma between each group of three (`32,768`,
/// `1,048,576`, `999`), as the output writes every count and size (bytes,
/// characters), and as its prose writes them (`15,000 characters`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
///
/// A skill that is a legacy command file (`<base>/.claude/commands/<ns>/<x>.md`,
/// no `SKILL.md`) cannot be linked: the folder holds no `SKILL.md`, so the
/// other harness would find no skill in it. The suggestion is then to
/// create `<base>/<skills_root>/<name>/SKILL.md` with the command's text
/// and front matter ([`skill_from_command`]).
pub fn skill_link(file: &RepoPath, name: &str, skills_root: &str, harness: &str) -> String {
    if file.file_name() != Some("SKILL.md") {
        return skill_from_command(file, name, skills_root, harness);
    }
    let (link, target) = link_of(file, name, skills_root);
    format!(
        "make `{link}` a symbolic link to `../../{target}` ({harness} reads skills from `{skills_root}`)"
    )
}

/// The repository path [`skill_link`] proposes to create for the same
/// arguments: the link `<base>/<skills_root>/<dir>` for a `SKILL.md`, the
/// file `<base>/<skills_root>/<dir>/SKILL.md` for a command file. A caller
/// that can see the repository checks that nothing is there yet, since no
/// remedy may propose what already exists.
pub fn skill_place(file: &RepoPath, name: &str, skills_root: &str) -> String {
    if file.file_name() == Some("SKILL.md") {
        link_of(file, name, skills_root).0
    } else {
        command_skill_file(file, name, skills_root)
    }
}

/// The link [`skill_link`] proposes for the `SKILL.md` at `file` and the
/// path it points at, relative to the link's base directory.
fn link_of(file: &RepoPath, name: &str, skills_root: &str) -> (String, String) {
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
    (in_dir(&base, &format!("{skills_root}/{dir_name}")), target)
}

/// The `SKILL.md` [`skill_from_command`] proposes to create.
fn command_skill_file(file: &RepoPath, name: &str, skills_root: &str) -> String {
    let dir_name = name.replace(':', "-");
    let commands = file
        .ancestors_root_first()
        .into_iter()
        .rev()
        .find(|d| d.file_name() == Some("commands"));
    let base = commands
        .and_then(|c| c.parent())
        .and_then(|p| p.parent())
        .unwrap_or_else(RepoPath::root);
    in_dir(&base, &format!("{skills_root}/{dir_name}/SKILL.md"))
}

/// The suggestion for a skill another harness makes of a command file
/// (`file`, such as Claude Code's `.claude/commands/opsx/apply.md`, whose
/// skill is `opsx:apply`): create `<base>/<skills_root>/<dir>/SKILL.md`
/// holding the command's text under front matter with a `name` and a
/// `description`, where `<base>` is the directory holding the commands
/// folder's parent (`.claude`) and `<dir>` is `name` with `:` as `-`
/// (a skill's name is one directory name). Skills are directories with a
/// `SKILL.md` (Agent Skills; Codex `core/src/skills/loader.rs`, OpenCode
/// `packages/opencode/src/skill/skill.ts`), so a link to a commands
/// folder gives the other harness nothing.
pub fn skill_from_command(file: &RepoPath, name: &str, skills_root: &str, harness: &str) -> String {
    format!(
        "`{file}` is a command, not a skill folder, so a link would give {harness} no skill: create `{}` holding its text under front matter with `name: {name}` and a `description` ({harness} reads skills from `{skills_root}`)",
        command_skill_file(file, name, skills_root)
    )
}

/// `s` as a Markdown code span, as messages quote names and paths: the
/// fence is one backtick longer than the longest run of backticks inside,
/// and a space pads content that starts or ends with a backtick, so a name
/// such as ``a`b`` cannot end the span early (CommonMark, "Code spans").
pub fn code_span(s: &str) -> String {
    if !s.as_bytes().contains(&b'`') {
        // The common case: one backtick on each side, no padding.
        let mut out = String::with_capacity(s.len() + 2);
        out.push('`');
        out.push_str(s);
        out.push('`');
        return out;
    }
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
    fn numbers_are_grouped_by_three_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(32_768), "32,768");
        assert_eq!(grouped(1_048_576), "1,048,576");
        assert_eq!(count(1_200, "server", "servers"), "1,200 servers");
        assert_eq!(count(1, "server", "servers"), "1 server");
    }

    #[test]
    fn code_spans_fence_past_the_longest_backtick_run() {
        assert_eq!(code_span("a.md"), "`a.md`");
        assert_eq!(code_span(""), "``");
        assert_eq!(code_span("é/ü"), "`é/ü`");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`a``"), "``` `a`` ```");
        assert_eq!(code_span("a b"), "`a b`");
    }

    #[test]
    fn a_codex_skill_is_linked_into_the_claude_skills_root_beside_it() {
        let f = RepoPath::new("apps/web/.agents/skills/deploy/SKILL.md").unwrap();
        assert_eq!(
            skill_link(&f, "deploy", ".claude/skills", "Claude Code"),
            "make `apps/web/.claude/skills/deploy` a symbolic link to `../../.agents/skills/deploy` \
             (Claude Code reads skills from `.claude/skills`)"
        );
    }

    #[test]
    fn a_command_becomes_a_skill_file_never_a_link_to_its_folder() {
        let f = RepoPath::new("web/.claude/commands/opsx/apply.md").unwrap();
        let r = skill_link(&f, "opsx:apply", ".agents/skills", "Codex");
        assert_eq!(
            r,
            "`web/.claude/commands/opsx/apply.md` is a command, not a skill folder, so a link would \
             give Codex no skill: create `web/.agents/skills/opsx-apply/SKILL.md` holding its text \
             under front matter with `name: opsx:apply` and a `description` (Codex reads skills \
             from `.agents/skills`)"
        );
        assert!(!r.contains("symbolic link"), "{r}");
    }
}

/// A harness's words for one remedy about an MCP server, one per transport
/// of the server where another harness starts it: a local server is added
/// with its command, a remote one with its url, and an undecidable one
/// with either.
#[derive(Clone, Copy, Debug)]
pub struct ByTransport<T> {
    /// For a local server ([`Transport::Stdio`]).
    pub stdio: T,
    /// For a remote server ([`Transport::Http`]).
    pub http: T,
    /// For a server whose transport the harnesses disagree on or that is
    /// neither ([`Transport::Unknown`]).
    pub unknown: T,
}

impl<T: Copy> ByTransport<T> {
    /// The words for `transport`.
    pub fn of(&self, transport: Transport) -> T {
        match transport {
            Transport::Stdio => self.stdio,
            Transport::Http => self.http,
            Transport::Unknown => self.unknown,
        }
    }
}

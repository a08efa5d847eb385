//! How to make Claude Code receive what another harness receives: one
//! sentence per case, for `playbookdiff explain`. Kept apart from the
//! discovery rules; it only names files Claude Code reads (spec 000).

use playbookdiff_adapter::{Gap, Scene};
use playbookdiff_model::remedy::{code_span, in_dir, ByTransport};
use playbookdiff_model::{ActionKind, HookTrigger, PermissionScope, RepoPath, Transport};

/// What would make Claude Code receive what `gap` says it lacks; `None`
/// for a late skill (Claude Code reads every skill directory at startup)
/// and for late instructions (the finding's reason already says what keeps
/// the file from loading sooner).
pub fn for_gap(gap: &Gap<'_>, scene: &Scene<'_, '_>) -> Option<String> {
    match *gap {
        Gap::Instruction { file, dir, .. } => Some(receive_instruction(file, dir, scene)),
        Gap::Skill { name, file } => Some(receive_skill(file, name, scene)),
        Gap::Subagent { name, file } => Some(receive_subagent(name, file)),
        Gap::Mcp { name, transport } => Some(receive_mcp(name, transport)),
        Gap::Hook {
            trigger,
            matcher,
            command,
            script,
        } => Some(receive_hook(trigger, matcher, command, script)),
        Gap::LateInstruction { .. } | Gap::LateSkill { .. } => None,
    }
}

/// Claude Code should receive the text of `file`, which applies to `dir`:
/// an `@` import in the `CLAUDE.md` beside it, or for other files in the
/// `CLAUDE.md` of `dir`; when that import is already there, the sentence
/// says so instead of proposing it again (the reason of the item says why
/// it is not received); when no `CLAUDE.md` is beside the file, it says to
/// create one.
pub fn receive_instruction(file: &RepoPath, dir: &RepoPath, scene: &Scene<'_, '_>) -> String {
    let parent = file.parent().unwrap_or_else(RepoPath::root);
    let claude = in_dir(&parent, "CLAUDE.md");
    let (into, import, beside) = match file.file_name() {
        Some(name @ ("AGENTS.md" | "AGENTS.override.md")) => {
            (claude.clone(), name.to_string(), true)
        }
        _ => {
            let rel = file.strip_prefix(dir).filter(|r| !r.is_empty());
            let import = rel.map_or_else(|| file.to_string(), str::to_string);
            (in_dir(dir, "CLAUDE.md"), import, false)
        }
    };
    let already = RepoPath::new(&into).is_some_and(|c| scene.imports(&c, &import));
    if already {
        return format!(
            "`{into}` already has the line `@{import}`; the reason above says why Claude Code does not receive it"
        );
    }
    // No `CLAUDE.md` beside the file: the advice creates one, as the
    // `agents-md-not-bridged` diagnostic does ("add a line to" a file that
    // does not exist would send the user looking for it).
    let claude_exists = RepoPath::new(&claude).is_some_and(|c| scene.repo.kind(&c).is_some());
    if beside && !claude_exists {
        format!("create `{claude}` holding the line `@{import}`, or make it a symbolic link to `{import}`")
    } else if beside {
        format!(
            "add a line `@{import}` to `{claude}`, or make `{claude}` a symbolic link to `{import}`"
        )
    } else {
        format!("import it from `{into}` with a line `@{import}`")
    }
}

/// Claude Code should have skill `name`, whose `SKILL.md` another harness
/// reads at `file`; nothing is proposed where something already is
/// ([`Scene::skill_remedy`]).
pub fn receive_skill(file: &RepoPath, name: &str, scene: &Scene<'_, '_>) -> String {
    scene.skill_remedy(file, name, ".claude/skills", "Claude Code")
}

/// The fields of a `.mcp.json` entry, by the server's transport.
const MCP_FIELDS: ByTransport<&str> = ByTransport {
    stdio: "the same command, args and environment",
    http: "`\"type\": \"http\"` and the same url and headers",
    unknown: "the same command, args and environment, or url",
};

/// Claude Code should start MCP server `name`, reached over `transport`
/// where another harness starts it: a local server is an entry with
/// `command`, `args` and `env`, a remote one an entry with `"type": "http"`
/// and `url` (Claude Code's `.mcp.json` format, documentation page
/// "Connect Claude Code to tools via MCP").
pub fn receive_mcp(name: &str, transport: Transport) -> String {
    let fields = MCP_FIELDS.of(transport);
    format!(
        "add {} under `mcpServers` in `.mcp.json` with {fields} (secrets as `${{VAR}}` placeholders)",
        code_span(name)
    )
}

/// Claude Code should run a hook on `trigger`: an entry under `hooks` in
/// `.claude/settings.json` (Claude Code hooks documentation), the script
/// named from the project root through `$CLAUDE_PROJECT_DIR` since hooks
/// do not run with a stable working directory. A script that is an
/// OpenCode plugin module cannot run as a command: its check is to port.
pub fn receive_hook(
    trigger: HookTrigger,
    matcher: Option<&str>,
    command: Option<&str>,
    script: Option<&RepoPath>,
) -> String {
    let module = script.is_some_and(|s| s.as_str().contains(".opencode/plugin"));
    let run = match (script, command) {
        (Some(s), _) if module => format!("a script doing what `{s}` does"),
        (Some(s), _) => format!("\"$CLAUDE_PROJECT_DIR\"/{s}"),
        (None, Some(c)) => c.to_string(),
        (None, None) => "your check".to_string(),
    };
    let matcher = match (trigger, matcher) {
        (HookTrigger::PreToolUse | HookTrigger::PostToolUse, Some(m)) => {
            format!("\"matcher\": {m:?}, ")
        }
        (HookTrigger::PreToolUse | HookTrigger::PostToolUse, None) => {
            "\"matcher\": \"Write|Edit|Bash\", ".to_string()
        }
        _ => String::new(),
    };
    format!(
        "add to `hooks.{trigger}` in `.claude/settings.json`: `{{{matcher}\"hooks\": [{{\"type\": \"command\", \"command\": {run:?}}}]}}` (Claude Code runs project hooks with no trust step; exit 2 blocks)"
    )
}

/// Claude Code should let its main agent call subagent `name`, defined for
/// another harness at `file`: a file in `.claude/agents/` with front matter
/// `name` and `description` (both required, harness facts A9), listed in
/// its `Agent` tool.
pub fn receive_subagent(name: &str, file: &RepoPath) -> String {
    format!(
        "add `.claude/agents/{name}.md` with front matter `name: {name}` and `description:` (as in `{file}`), and its instructions as the body; Claude Code lists it in its `Agent` tool"
    )
}

/// Claude Code should refuse what `scope` covers, which another harness
/// refuses: a `permissions.deny` rule in `.claude/settings.json`
/// (permission rule syntax, documentation "permissions"; a project deny
/// was seen to hold even under `--dangerously-skip-permissions` with
/// 2.1.197 and 2.1.332).
pub fn deny(scope: &PermissionScope) -> Option<String> {
    let tool = match scope.action {
        ActionKind::Shell => "Bash",
        ActionKind::Read => "Read",
        ActionKind::Edit => "Edit",
        ActionKind::WebFetch => "WebFetch",
    };
    let rule = match (scope.action, &scope.pattern) {
        (_, None) => tool.to_string(),
        (ActionKind::Shell, Some(p)) => format!("Bash({p}:*)"),
        (ActionKind::WebFetch, Some(p)) => format!("WebFetch(domain:{p})"),
        (_, Some(p)) => format!("{tool}({p})"),
    };
    Some(format!(
        "add `{rule:?}` to `permissions.deny` in `.claude/settings.json` (a project deny holds even under `--dangerously-skip-permissions`)"
    ))
}

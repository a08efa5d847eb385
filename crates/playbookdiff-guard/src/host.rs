//! The hosts' hook protocols: reading a payload into a [`Call`], and
//! writing a [`Decision`] back the way the host reads it.
//!
//! Observed payloads (surfaces-and-guard.md, "A guard through each
//! agent's own hook"): Claude Code 2.1.197 and 2.1.332 and Codex 0.171.0
//! send `{session_id, cwd, hook_event_name, tool_name, tool_input, ...}`;
//! Claude Code's file tools carry `tool_input.file_path` (NotebookEdit
//! `notebook_path`), `Bash` carries `tool_input.command`; Codex's
//! `apply_patch` carries the patch text in `tool_input.command`. OpenCode
//! 1.18.33 calls a plugin's `tool.execute.before(input, output)`; the
//! plugin `guard install` ships sends `{event, tool, sessionID, cwd,
//! args}` (`args` is `output.args`: `filePath`, `command`, `url`).

use crate::patch;
use crate::rules::Verdict;
use crate::Decision;
use serde_json::{Map, Value};
use std::path::PathBuf;

/// An agent whose hook the guard answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    /// Claude Code: a `PreToolUse` command hook in settings.
    ClaudeCode,
    /// Codex: a `PreToolUse` command hook in `hooks.json`.
    Codex,
    /// OpenCode: a plugin module's `tool.execute.before`.
    OpenCode,
    /// Gemini CLI: a `BeforeTool` command hook in `.gemini/settings.json`.
    Gemini,
    /// GitHub Copilot CLI: a `preToolUse` command hook in
    /// `.github/hooks/*.json`.
    Copilot,
}

impl Host {
    /// Every host, in contract order.
    pub const ALL: [Host; 5] = [
        Host::ClaudeCode,
        Host::Codex,
        Host::Copilot,
        Host::Gemini,
        Host::OpenCode,
    ];

    /// The host's id, the harness id of its adapter (`claude-code`,
    /// `codex`, `copilot`, `gemini`, `opencode`).
    pub fn id(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::Codex => "codex",
            Host::OpenCode => "opencode",
            Host::Gemini => "gemini",
            Host::Copilot => "copilot",
        }
    }

    /// The host of id `id`; `gemini-cli` and `copilot-cli`, the agents'
    /// own names, are taken for `gemini` and `copilot`.
    pub fn from_id(id: &str) -> Option<Host> {
        let id = match id {
            "gemini-cli" => "gemini",
            "copilot-cli" => "copilot",
            other => other,
        };
        Host::ALL.into_iter().find(|h| h.id() == id)
    }
}

/// When the hook runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Before the tool runs: the decision.
    PreToolUse,
    /// After the tool ran: the fingerprint comparison.
    PostToolUse,
}

/// One tool call as the guard reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The host that asked.
    pub host: Host,
    /// Before or after the tool.
    pub event: Event,
    /// The host's session id, when it sent one.
    pub session: Option<String>,
    /// The tool's name as the host spells it (`Write`, `apply_patch`,
    /// `bash`).
    pub tool: String,
    /// The directory relative paths resolve against (the payload's
    /// `cwd`; Claude Code's Bash keeps its directory from one call to
    /// the next, and the hook's `cwd` is that directory).
    pub cwd: PathBuf,
    /// What the call does.
    pub action: Action,
}

/// What a tool call does, as far as the policy cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Writes, edits or creates these files (paths as given).
    Write(Vec<String>),
    /// Applies a patch touching these files (Codex `apply_patch`).
    Patch(Vec<patch::Op>),
    /// Runs this shell command.
    Shell(String),
    /// Reads these files or directories.
    Read(Vec<String>),
    /// Reads the files these glob patterns (or paths) match, as the
    /// agent expands them (Gemini CLI's `read_many_files`).
    ReadPatterns(Vec<String>),
    /// Fetches this URL.
    Fetch(String),
    /// A tool that writes nothing, reads no file content and reaches no
    /// network host (a search in the work tree, a to-do list, a subagent).
    Harmless,
}

/// Why a payload cannot be read: the sentence the model reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPayload(pub String);

/// Reads the payload `bytes` that `host` sent.
///
/// # Errors
/// [`BadPayload`] for a payload larger than [`crate::PAYLOAD_LIMIT`],
/// not UTF-8, not a JSON object, missing `cwd` or the tool's name,
/// fields of the wrong type, NUL bytes in a path or command, a relative
/// `cwd`, or a tool the guard does not know (every one of them a deny).
pub fn parse(host: Host, bytes: &[u8]) -> Result<Call, BadPayload> {
    if bytes.len() > crate::PAYLOAD_LIMIT {
        return Err(bad(format!(
            "the hook payload is larger than {} bytes",
            crate::PAYLOAD_LIMIT
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| bad("the hook payload is not UTF-8"))?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| bad(format!("the hook payload is not valid JSON ({e})")))?;
    let Value::Object(map) = value else {
        return Err(bad("the hook payload is not a JSON object"));
    };
    match host {
        Host::ClaudeCode | Host::Codex | Host::Gemini => parse_hook_json(host, &map),
        Host::OpenCode => parse_opencode(&map),
        Host::Copilot => parse_copilot(&map),
    }
}

fn bad(reason: impl Into<String>) -> BadPayload {
    BadPayload(reason.into())
}

/// Claude Code's and Codex's payload.
fn parse_hook_json(host: Host, map: &Map<String, Value>) -> Result<Call, BadPayload> {
    let event = match opt_str(map, "hook_event_name")? {
        None | Some("PreToolUse" | "BeforeTool") => Event::PreToolUse,
        Some("PostToolUse" | "AfterTool") => Event::PostToolUse,
        Some(other) => {
            return Err(bad(format!(
                "the guard does not answer the event `{}`",
                short(other)
            )))
        }
    };
    let tool = req_str(map, "tool_name")?.to_string();
    let input = match map.get("tool_input") {
        Some(Value::Object(o)) => o.clone(),
        None | Some(Value::Null) => Map::new(),
        Some(_) => return Err(bad("`tool_input` is not a JSON object")),
    };
    let mut dir = cwd(map, "cwd")?;
    let action = if host == Host::Gemini {
        gemini_action(&tool, &input, &mut dir)?
    } else {
        hook_action(&tool, &input)?
    };
    Ok(Call {
        host,
        event,
        session: opt_str(map, "session_id")?.map(str::to_string),
        tool,
        cwd: dir,
        action,
    })
}

/// The action of a Gemini CLI tool (0.61.0's tool names and parameters:
/// `write_file` and `replace` carry `file_path`; `run_shell_command`
/// carries `command` and may carry `dir_path`, the directory it runs in,
/// which moves `cwd`; `web_fetch` names its URLs inside `prompt`).
fn gemini_action(
    tool: &str,
    input: &Map<String, Value>,
    cwd: &mut PathBuf,
) -> Result<Action, BadPayload> {
    Ok(match tool {
        "write_file" | "replace" | "edit" => Action::Write(vec![req_path(input, "file_path")?]),
        "run_shell_command" => {
            if let Some(dir) = opt_path(input, "dir_path")? {
                *cwd = cwd.join(dir);
            }
            Action::Shell(command(input)?)
        }
        "read_file" => Action::Read(vec![req_path(input, "file_path")?]),
        "read_many_files" => Action::ReadPatterns(gemini_patterns(input)?),
        "list_directory" | "glob" | "grep_search" | "search_file_content" => {
            Action::Read(opt_path(input, "dir_path")?.into_iter().collect())
        }
        "web_fetch" => Action::Fetch(first_url(req_str(input, "prompt")?)?),
        "google_web_search"
        | "write_todos"
        | "activate_skill"
        | "ask_user"
        | "enter_plan_mode"
        | "exit_plan_mode"
        | "update_topic"
        | "invoke_agent"
        | "list_background_processes"
        | "read_background_output" => Action::Harmless,
        other => return Err(unknown_tool(other)),
    })
}

/// `read_many_files`' `include` (or `paths`) entries, each a path or a
/// glob pattern (both profiled releases, 0.34.0 and 0.61.0: `include` is
/// "an array of glob patterns or paths"; an entry naming an existing file
/// is read as that path, any other as a pattern). `exclude` is not read:
/// the guard decides on what `include` can reach.
fn gemini_patterns(input: &Map<String, Value>) -> Result<Vec<String>, BadPayload> {
    let list = input
        .get("include")
        .or_else(|| input.get("paths"))
        .ok_or_else(|| bad("`read_many_files` names no `include`"))?;
    let Value::Array(items) = list else {
        return Err(bad("`include` is not a list"));
    };
    let paths = strings(items)?;
    for p in &paths {
        no_nul(p, "the path")?;
    }
    // As Gemini CLI does before it expands them: a backslash is a `/`.
    Ok(paths.into_iter().map(|p| p.replace('\\', "/")).collect())
}

/// The one `http(s)://` URL of a `web_fetch` prompt: none or several is
/// a bad payload (the guard decides one host per call).
fn first_url(prompt: &str) -> Result<String, BadPayload> {
    let urls: Vec<&str> = prompt
        .split(|c: char| c.is_whitespace() || c == '<' || c == '>' || c == '"')
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .collect();
    match urls.as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err(bad("the `web_fetch` prompt names no URL")),
        _ => Err(bad(
            "the `web_fetch` prompt names more than one URL; fetch one at a time",
        )),
    }
}

/// `write_bash`'s `input`: the text typed into a running shell, read as
/// a command line.
fn shell_input(args: &Map<String, Value>) -> Result<String, BadPayload> {
    let text = req_str(args, "input")?;
    let mut map = Map::new();
    map.insert("command".into(), Value::String(text.to_string()));
    command(&map)
}

/// Copilot CLI's payload (1.0.24's `preToolUse`): `{sessionId, timestamp,
/// cwd, toolName, toolArgs}`, `toolArgs` the tool's arguments as a JSON
/// text (the raw patch for `apply_patch`); a `toolResult` marks the call
/// after the tool (`postToolUse`).
fn parse_copilot(map: &Map<String, Value>) -> Result<Call, BadPayload> {
    let tool = req_str(map, "toolName")?.to_string();
    let raw = match map.get("toolArgs") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::String(s)) if tool == "apply_patch" => Value::String(s.clone()),
        Some(Value::String(s)) => serde_json::from_str(s)
            .map_err(|e| bad(format!("`toolArgs` is not valid JSON ({e})")))?,
        Some(other) => other.clone(),
    };
    let action = copilot_action(&tool, &raw)?;
    let event = if map.get("toolResult").is_some_and(|v| !v.is_null()) {
        Event::PostToolUse
    } else {
        Event::PreToolUse
    };
    Ok(Call {
        host: Host::Copilot,
        event,
        session: opt_str(map, "sessionId")?.map(str::to_string),
        tool,
        cwd: cwd(map, "cwd")?,
        action,
    })
}

/// The action of a Copilot CLI tool (the tools 1.0.24 offers the model:
/// `create`, `edit` and `view` carry `path`; `bash` carries `command`,
/// `write_bash` the `input` typed into a running session; `grep` and
/// `glob` may carry `path`; `apply_patch`, for models that use it, is the
/// patch text itself).
fn copilot_action(tool: &str, args: &Value) -> Result<Action, BadPayload> {
    if let ("apply_patch", Value::String(text)) = (tool, args) {
        no_nul(text, "the patch")?;
        return patch::parse(text).map(Action::Patch).map_err(bad);
    }
    let Value::Object(args) = args else {
        return Err(bad("`toolArgs` is not a JSON object"));
    };
    Ok(match tool {
        "create" | "edit" | "write" => Action::Write(vec![req_path(args, "path")?]),
        "str_replace_editor" => match opt_str(args, "command")? {
            Some("view") => Action::Read(vec![req_path(args, "path")?]),
            _ => Action::Write(vec![req_path(args, "path")?]),
        },
        "view" | "read" => Action::Read(vec![req_path(args, "path")?]),
        "bash" | "shell" => Action::Shell(command(args)?),
        // Input typed into a running shell session: a command line.
        "write_bash" => Action::Shell(shell_input(args)?),
        "apply_patch" => Action::Patch(patch_ops(args)?),
        "glob" | "grep" | "rg" | "list" => {
            Action::Read(opt_path(args, "path")?.into_iter().collect())
        }
        "web_fetch" | "fetch" => Action::Fetch(req_str(args, "url")?.to_string()),
        "report_intent"
        | "task"
        | "skill"
        | "read_bash"
        | "stop_bash"
        | "list_bash"
        | "fetch_copilot_cli_documentation"
        | "sql"
        | "read_agent"
        | "list_agents" => Action::Harmless,
        other => return Err(unknown_tool(other)),
    })
}

/// The action of a Claude Code or Codex tool.
fn hook_action(tool: &str, input: &Map<String, Value>) -> Result<Action, BadPayload> {
    Ok(match tool {
        "Write" | "Edit" | "MultiEdit" => Action::Write(vec![req_path(input, "file_path")?]),
        "NotebookEdit" => Action::Write(vec![req_path(input, "notebook_path")?]),
        "Bash" | "shell" | "exec_command" | "local_shell" => Action::Shell(command(input)?),
        "apply_patch" | "ApplyPatch" => Action::Patch(patch_ops(input)?),
        "Read" => Action::Read(vec![req_path(input, "file_path")?]),
        "Grep" | "Glob" | "LS" => Action::Read(opt_path(input, "path")?.into_iter().collect()),
        "WebFetch" => Action::Fetch(req_str(input, "url")?.to_string()),
        "Task" | "Agent" | "TodoWrite" | "WebSearch" | "ExitPlanMode" | "BashOutput"
        | "KillShell" | "KillBash" | "Skill" | "SlashCommand" | "ToolSearch" => Action::Harmless,
        other => return Err(unknown_tool(other)),
    })
}

fn unknown_tool(tool: &str) -> BadPayload {
    bad(format!(
        "the guard does not know the tool `{}`, so it cannot tell what the call would change",
        short(tool)
    ))
}

/// `text` for a message: at most 80 characters, escaped.
fn short(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    let more = if cut.len() < text.len() { "…" } else { "" };
    format!("{}{more}", cut.escape_debug())
}

/// The patch of Codex's `apply_patch` (`command`, or `input`/`patch`).
fn patch_ops(input: &Map<String, Value>) -> Result<Vec<patch::Op>, BadPayload> {
    let text = ["command", "input", "patch"]
        .iter()
        .find_map(|k| input.get(*k))
        .ok_or_else(|| bad("`apply_patch` carries no patch text"))?;
    let text = match text {
        Value::String(s) => s.clone(),
        Value::Array(items) => strings(items)?.join("\n"),
        _ => return Err(bad("the patch text is not a string")),
    };
    no_nul(&text, "the patch")?;
    patch::parse(&text).map_err(bad)
}

/// A shell command given as a string, or as an argument vector (quoted
/// back into one command line).
fn command(input: &Map<String, Value>) -> Result<String, BadPayload> {
    let value = input
        .get("command")
        .or_else(|| input.get("cmd"))
        .ok_or_else(|| bad("the shell call carries no `command`"))?;
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let words = strings(items)?;
            shlex::try_join(words.iter().map(String::as_str))
                .map_err(|_| bad("the command holds a NUL byte"))?
        }
        _ => return Err(bad("`command` is not a string")),
    };
    no_nul(&text, "the command")?;
    if text.len() > crate::COMMAND_LIMIT {
        return Err(bad(format!(
            "the command is longer than {} bytes, more than the guard parses",
            crate::COMMAND_LIMIT
        )));
    }
    Ok(text)
}

fn strings(items: &[Value]) -> Result<Vec<String>, BadPayload> {
    items
        .iter()
        .map(|v| match v {
            Value::String(s) => Ok(s.clone()),
            _ => Err(bad("an argument of the command is not a string")),
        })
        .collect()
}

/// OpenCode's payload, as the shipped plugin sends it.
fn parse_opencode(map: &Map<String, Value>) -> Result<Call, BadPayload> {
    let event = match opt_str(map, "event")? {
        None | Some("PreToolUse") | Some("before") => Event::PreToolUse,
        Some("PostToolUse") | Some("after") => Event::PostToolUse,
        Some(other) => {
            return Err(bad(format!(
                "the guard does not answer the event `{}`",
                short(other)
            )))
        }
    };
    let tool = req_str(map, "tool")?.to_string();
    let args = match map.get("args") {
        Some(Value::Object(o)) => o.clone(),
        None | Some(Value::Null) => Map::new(),
        Some(_) => return Err(bad("`args` is not a JSON object")),
    };
    let action = match tool.as_str() {
        "write" | "edit" | "multiedit" => Action::Write(vec![req_path(&args, "filePath")?]),
        "patch" | "apply_patch" => Action::Patch(patch_ops(&args)?),
        "bash" => Action::Shell(command(&args)?),
        "read" => Action::Read(vec![req_path(&args, "filePath")?]),
        "grep" | "glob" | "list" => Action::Read(opt_path(&args, "path")?.into_iter().collect()),
        "webfetch" => Action::Fetch(req_str(&args, "url")?.to_string()),
        "todowrite" | "todoread" | "task" | "websearch" | "skill" | "codesearch" => {
            Action::Harmless
        }
        other => return Err(unknown_tool(other)),
    };
    Ok(Call {
        host: Host::OpenCode,
        event,
        session: opt_str(map, "sessionID")?.map(str::to_string),
        tool,
        cwd: cwd(map, "cwd")?,
        action,
    })
}

fn opt_str<'m>(map: &'m Map<String, Value>, key: &str) -> Result<Option<&'m str>, BadPayload> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("`{key}` is not a string"))),
    }
}

fn req_str<'m>(map: &'m Map<String, Value>, key: &str) -> Result<&'m str, BadPayload> {
    opt_str(map, key)?.ok_or_else(|| bad(format!("the payload has no `{key}`")))
}

fn opt_path(map: &Map<String, Value>, key: &str) -> Result<Option<String>, BadPayload> {
    let Some(path) = opt_str(map, key)? else {
        return Ok(None);
    };
    no_nul(path, "the path")?;
    if path.is_empty() {
        return Err(bad(format!("`{key}` is empty")));
    }
    Ok(Some(path.to_string()))
}

fn req_path(map: &Map<String, Value>, key: &str) -> Result<String, BadPayload> {
    opt_path(map, key)?.ok_or_else(|| bad(format!("the tool call has no `{key}`")))
}

fn cwd(map: &Map<String, Value>, key: &str) -> Result<PathBuf, BadPayload> {
    let dir = req_str(map, key)?;
    no_nul(dir, "`cwd`")?;
    let dir = PathBuf::from(dir);
    if !dir.is_absolute() {
        return Err(bad("`cwd` is not an absolute path"));
    }
    Ok(dir)
}

fn no_nul(text: &str, what: &str) -> Result<(), BadPayload> {
    if text.contains('\0') {
        return Err(bad(format!("{what} holds a NUL byte")));
    }
    Ok(())
}

/// What the guard writes back: standard output, standard error and the
/// exit status, in the host's protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Standard output (may be empty).
    pub stdout: String,
    /// Standard error (may be empty).
    pub stderr: String,
    /// The exit status: 0, or 2 (a block every host reads as "do not
    /// run"); never 1 or another status Claude Code reads as "run it".
    pub status: u8,
}

/// `decision` in `host`'s protocol.
///
/// Claude Code and Codex (PreToolUse): an allow prints nothing (the
/// host's own permission checks still apply: an explicit allow would
/// skip them); a warn prints `{"systemMessage": ...}`, which only the
/// person sees, and for Claude Code before the tool the same reason as
/// `hookSpecificOutput.additionalContext`, which the model reads beside
/// the tool's result (2.1.197 and 2.1.332 accept the field; without it
/// the model read nothing of the warning: the round's end-to-end run,
/// `oracle/round/`); an ask or a deny
/// prints `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
/// "permissionDecision": "ask"|"deny", "permissionDecisionReason":
/// ...}}`, exit 0 (Codex, which has no prompt, gets a deny for an ask).
/// After the tool (PostToolUse) a deny is `{"decision": "block",
/// "reason": ...}`. OpenCode: `{"decision": "allow"|"deny", "reason":
/// ...}` for the plugin, which throws on anything but `allow`.
///
/// Gemini CLI (`BeforeTool`, `AfterTool`): an allow prints nothing, a
/// warn `{"systemMessage": ...}`, an ask or a deny `{"decision": "deny",
/// "reason": ...}` (its hooks reference; `-p` has no prompt). Copilot CLI
/// (`preToolUse`): an allow or a warn prints nothing (it reads no
/// message), an ask or a deny `{"permissionDecision": "deny",
/// "permissionDecisionReason": ...}`, which the model reads as "Denied by
/// preToolUse hook: REASON" (1.0.24's `app.js`). Every answer exits 0.
pub fn answer(host: Host, event: Event, decision: &Decision) -> Answer {
    let reason = decision.reason.clone();
    let out = match (host, event, decision.verdict) {
        (Host::Copilot, _, Verdict::Allow | Verdict::Warn) | (Host::Gemini, _, Verdict::Allow) => {
            String::new()
        }
        (Host::Copilot, _, _) => copilot_deny(&reason),
        (Host::Gemini, _, Verdict::Warn) => {
            serde_json::json!({ "systemMessage": reason }).to_string()
        }
        (Host::Gemini, _, _) => {
            serde_json::json!({ "decision": "deny", "reason": reason }).to_string()
        }
        (Host::OpenCode, _, v) => {
            let allowed = matches!(v, Verdict::Allow | Verdict::Warn);
            let mut o = serde_json::json!({
                "decision": if allowed { "allow" } else { "deny" },
                "rule": decision.rule.id,
            });
            if v != Verdict::Allow {
                o["reason"] = Value::String(reason);
            }
            o.to_string()
        }
        (_, _, Verdict::Allow) => String::new(),
        (Host::ClaudeCode, Event::PreToolUse, Verdict::Warn) => serde_json::json!({
            "systemMessage": reason,
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "additionalContext": reason,
            },
        })
        .to_string(),
        (_, _, Verdict::Warn) => serde_json::json!({ "systemMessage": reason }).to_string(),
        (_, Event::PostToolUse, _) => {
            serde_json::json!({ "decision": "block", "reason": reason }).to_string()
        }
        (h, Event::PreToolUse, v) => {
            let word = if v == Verdict::Ask && h == Host::ClaudeCode {
                "ask"
            } else {
                "deny"
            };
            serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": word,
                    "permissionDecisionReason": reason,
                }
            })
            .to_string()
        }
    };
    Answer {
        stdout: if out.is_empty() { out } else { out + "\n" },
        stderr: String::new(),
        status: 0,
    }
}

/// Copilot CLI's deny: `{"permissionDecision": "deny",
/// "permissionDecisionReason": REASON}`.
pub fn copilot_deny(reason: &str) -> String {
    serde_json::json!({
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    })
    .to_string()
}

/// The answer when the guard cannot decide (the payload cannot be read,
/// an internal error): a refusal in every host's protocol. Exit 2 with
/// the reason on standard error blocks Claude Code, Codex and Gemini CLI
/// (and the OpenCode plugin throws on it); Copilot CLI reads no exit
/// status as a block (it runs the call when a hook fails), so it gets its
/// deny on standard output and exit 0.
pub fn cannot_decide(host: Host, reason: &str) -> Answer {
    let sentence = format!("Refused by playbookdiff guard: {reason}; the call is not run.");
    match host {
        Host::Copilot => Answer {
            stdout: copilot_deny(&sentence) + "\n",
            stderr: String::new(),
            status: 0,
        },
        _ => Answer {
            stdout: String::new(),
            stderr: sentence + "\n",
            status: 2,
        },
    }
}

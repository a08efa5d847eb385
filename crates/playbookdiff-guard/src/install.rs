//! `guard install`: the hook registration merged into each host's own
//! files, as pure text-to-text functions (the command reads and writes
//! the files). Every merge keeps everything else in the file (JSON key
//! order; TOML comments and order through `toml_edit`) and is idempotent:
//! merging into its own output changes nothing.

use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Where a registration goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The repository's own files (`.claude/settings.json`,
    /// `.codex/hooks.json`, `.opencode/plugin/`): shared with the team,
    /// switched off by the project itself.
    Project,
    /// The user's files under the home directory.
    User,
    /// The machine's managed files (`/etc/claude-code`, `/etc/codex`):
    /// the layer a project cannot switch off.
    Managed,
}

impl Scope {
    /// `project`, `user` or `managed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Managed => "managed",
        }
    }
}

/// The project's files that register command hooks in the hooks JSON
/// shape (`{"hooks": {EVENT: [...]}}`), repository-relative: Claude
/// Code's project settings and Codex's project `hooks.json`. The scripts
/// their commands run are agent configuration
/// ([`crate::sources::hook_scripts`]).
pub const PROJECT_HOOK_FILES: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
];

/// The tools Claude Code's PreToolUse registration matches (a regular
/// expression over `tool_name`): the ones the guard reads.
pub const CLAUDE_MATCHER: &str = "Write|Edit|MultiEdit|NotebookEdit|Bash|Read|Grep|Glob|WebFetch";

/// The marker that identifies the guard's own registration in a file:
/// its command holds `guard hook --host <id>`.
pub fn marker(host: crate::Host) -> String {
    format!("guard hook --host {}", host.id())
}

/// What the registered command runs after the guard: any exit status but
/// 0 becomes 2. Claude Code (`/bin/sh -c`) and Codex (`$SHELL -lc`) run a
/// hook's command through a shell; when the program cannot start (moved
/// or removed: the shell's 127) they read that status as a non-blocking
/// error and run the call, but read 2 as a block (end-to-end runs with
/// Claude Code 2.1.197 and 2.1.332, Codex 0.142.3 and 0.171.0).
pub const FAIL_CLOSED: &str = " || exit 2";

/// What Codex's registration runs after the guard instead of
/// [`FAIL_CLOSED`]: the rest of the payload read, then 2. Codex 0.142.3
/// runs the call when a hook exits 2 before its input is read (its write
/// of the payload fails, and the status is then not read as a block:
/// seen with a hook `exec 0<&-; exit 2`), so a guard that cannot start
/// must still drain its input. `sh -c` keeps the fallback one any login
/// shell reads (Codex runs hooks with `$SHELL -lc`; fish has `||` but not
/// `{ ...; }`).
pub const CODEX_FAIL_CLOSED: &str = " || sh -c 'cat >/dev/null; exit 2'";

/// Where `guard install` registers the guard for the user and the
/// machine beyond the adapters' own user and managed surfaces (which hold
/// `~/.claude/settings.json`, `~/.gemini/settings.json`, ...): Codex's
/// `hooks.json`, Copilot CLI's hook files, OpenCode's plugin modules, and
/// each agent's managed directory. A write there could remove the guard
/// (docs/guard.md, "Installing, per agent and scope").
pub const MACHINE_REGISTRATIONS: &[&str] = &[
    "~/.codex/hooks.json",
    "~/.copilot/hooks/**",
    "~/.config/opencode/plugin/**",
    "~/.config/opencode/plugins/**",
    "/etc/claude-code/**",
    "/etc/codex/**",
    "/etc/gemini-cli/**",
    "/etc/opencode/**",
];

/// The seconds a host gives the guard before it kills it: 120. Claude
/// Code runs the call after a hook times out ("a timed-out command hook
/// doesn't block the tool call", its hooks reference), and `|| exit 2`
/// dies with the shell, so the bound is far above the guard's own work:
/// its slowest call, the first of a repository (one walk, one
/// compilation per adapter), took 3.3 s on the 100,000-file benchmark
/// tree (docs/guard.md, "Timeouts").
pub const HOOK_TIMEOUT_SECONDS: u64 = 120;

/// The file name of the hook executable, which takes `hook --host <id>`
/// (the whole command takes `guard hook --host <id>`).
pub const HOOK_PROGRAM: &str = "playbookdiff-guard";

/// The arguments `program` is run with: `hook --host <id>` for the hook
/// executable ([`HOOK_PROGRAM`]), `guard hook --host <id>` for any other
/// program (`playbookdiff` itself, or a wrapper that passes them on).
/// Both hold [`marker`].
pub fn hook_args(program: &str, host: crate::Host) -> Vec<String> {
    let name = Path::new(program).file_name().and_then(|n| n.to_str());
    let mut args = if name == Some(HOOK_PROGRAM) {
        vec!["hook".to_string()]
    } else {
        vec!["guard".to_string(), "hook".to_string()]
    };
    args.extend(["--host".to_string(), host.id().to_string()]);
    args
}

/// The command line a host runs: `program` quoted for a shell, then
/// [`hook_args`], then [`FAIL_CLOSED`] ([`CODEX_FAIL_CLOSED`] for Codex).
pub fn command_line(program: &str, host: crate::Host) -> String {
    let quoted = shlex::try_quote(program).map_or_else(|_| program.to_string(), |q| q.into_owned());
    let fallback = match host {
        crate::Host::Codex => CODEX_FAIL_CLOSED,
        _ => FAIL_CLOSED,
    };
    format!("{quoted} {}{fallback}", hook_args(program, host).join(" "))
}

/// Claude Code's or Codex's hooks JSON (`settings.json`,
/// `managed-settings.json`, `hooks.json`; both use `{"hooks": {EVENT:
/// [{"matcher", "hooks": [{"type": "command", "command"}]}]}}`) with the
/// guard registered for PreToolUse (matcher `pre_matcher`) and
/// PostToolUse (matcher `post_matcher`).
///
/// Returns `Ok(None)` when the file already registers it (nothing to
/// change), else the new text (two-space indented JSON, keys in their
/// order, a final newline).
///
/// # Errors
/// A sentence when `existing` is not a JSON object or its `hooks` has
/// the wrong shape: the file is left alone.
pub fn merge_hooks_json(
    existing: Option<&str>,
    command: &str,
    host: crate::Host,
    pre_matcher: &str,
    post_matcher: &str,
) -> Result<Option<String>, String> {
    merge_events(
        existing,
        command,
        host,
        &[("PreToolUse", pre_matcher), ("PostToolUse", post_matcher)],
        HOOK_TIMEOUT_SECONDS,
    )
}

/// A hooks JSON (`{"hooks": {EVENT: [{"matcher", "hooks": [...]}]}}`)
/// with the guard registered for each `(event, matcher)` of `events`,
/// with `timeout` in the host's unit. As [`merge_hooks_json`].
fn merge_events(
    existing: Option<&str>,
    command: &str,
    host: crate::Host,
    events: &[(&str, &str)],
    timeout: u64,
) -> Result<Option<String>, String> {
    let mut root: Value = match existing {
        Some(text) if !text.trim().is_empty() => serde_json::from_str(text)
            .map_err(|e| format!("it is not valid JSON ({e}); fix it first"))?,
        _ => Value::Object(Map::new()),
    };
    let Value::Object(obj) = &mut root else {
        return Err("it is not a JSON object".into());
    };
    let hooks = obj
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("its `hooks` is not an object".into());
    };
    let mut changed = false;
    for &(event, matcher) in events {
        let list = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(list) = list else {
            return Err(format!("its `hooks.{event}` is not an array"));
        };
        match upgrade(list, &marker(host), command, timeout) {
            Registration::Current => {}
            Registration::Upgraded => changed = true,
            Registration::Missing => {
                list.push(json!({
                    "matcher": matcher,
                    "hooks": [{
                        "type": "command",
                        "command": command,
                        "timeout": timeout,
                    }]
                }));
                changed = true;
            }
        }
    }
    if !changed {
        return Ok(None);
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(Some(text))
}

/// What an event's list holds of the guard's registration.
enum Registration {
    /// A command with the marker that is exactly the wanted one.
    Current,
    /// Commands with the marker that differed (an older form, such as one
    /// without [`FAIL_CLOSED`], or another program path), now rewritten.
    Upgraded,
    /// No command with the marker.
    Missing,
}

/// Rewrites every handler of `list` whose command holds `marker` to
/// `command` with `timeout`.
fn upgrade(list: &mut [Value], marker: &str, command: &str, timeout: u64) -> Registration {
    let mut found = Registration::Missing;
    let handlers = list
        .iter_mut()
        .filter_map(|entry| entry["hooks"].as_array_mut())
        .flatten();
    for h in handlers {
        let current = h["timeout"].as_u64() == Some(timeout);
        match h["command"].as_str() {
            Some(c) if c == command && current => {
                if matches!(found, Registration::Missing) {
                    found = Registration::Current;
                }
            }
            Some(c) if c.contains(marker) => {
                h["command"] = Value::String(command.to_string());
                h["timeout"] = Value::from(timeout);
                found = Registration::Upgraded;
            }
            _ => {}
        }
    }
    found
}

/// The OpenCode plugin module that calls `program guard hook --host
/// opencode` before (and after) each tool and throws on anything but an
/// allow: a failed or silent guard is a refusal (fail closed). OpenCode
/// loads `.opencode/plugin/*.js` and `~/.config/opencode/plugin/*.js`
/// (surfaces-and-guard, OpenCode 1.18.33); `tool.execute.before(input,
/// output)` receives `input.tool`, `input.sessionID` and `output.args`;
/// `tool.execute.after(input, output)` receives the arguments as
/// `input.args` and the tool's result as `output` (OpenCode 1.18.33's
/// bundled source: `trigger("tool.execute.after", {tool, sessionID,
/// callID, args}, result)`).
pub fn opencode_plugin(program: &str) -> String {
    let mut argv = vec![program.to_string()];
    argv.extend(hook_args(program, crate::Host::OpenCode));
    let argv = json!(argv).to_string();
    let timeout_ms = HOOK_TIMEOUT_SECONDS * 1000;
    format!(
        r#"// playbookdiff guard for OpenCode, written by `playbookdiff guard install`.
// Asks `playbookdiff guard hook --host opencode` before each tool runs and
// throws when the guard does not allow the call, or cannot answer.
import {{ spawnSync }} from "node:child_process";

const GUARD = {argv};

function ask(event, input, args, directory) {{
  const payload = JSON.stringify({{
    event,
    tool: input.tool,
    sessionID: input.sessionID,
    callID: input.callID,
    cwd: directory,
    args: args || {{}},
  }});
  const r = spawnSync(GUARD[0], GUARD.slice(1), {{ input: payload, encoding: "utf8", timeout: {timeout_ms} }});
  let answer = null;
  try {{ answer = JSON.parse(r.stdout); }} catch {{ answer = null; }}
  if (r.status !== 0 || !answer || answer.decision !== "allow") {{
    const reason = answer && answer.reason
      ? answer.reason
      : `playbookdiff guard could not decide (exit status ${{r.status}}); the call is refused`;
    throw new Error(reason);
  }}
}}

export const PlaybookdiffGuard = async ({{ directory }}) => ({{
  "tool.execute.before": async (input, output) =>
    ask("PreToolUse", input, output && output.args, directory),
  // After a tool, `output` is its result; the arguments are `input.args`.
  "tool.execute.after": async (input, _result) => {{
    if (input.tool === "bash") ask("PostToolUse", input, input.args, directory);
  }},
}});
"#
    )
}

/// The directories a registration's file is found from: the work tree
/// and the user's configuration homes (each `None` when unknown).
#[derive(Clone, Debug, Default)]
pub struct Places {
    /// The work tree's root.
    pub root: PathBuf,
    /// `$HOME`.
    pub home: Option<PathBuf>,
    /// `$CODEX_HOME` (default `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` (default `~/.config`).
    pub xdg_config: Option<PathBuf>,
    /// `$COPILOT_HOME` (default `~/.copilot`): Copilot CLI's user
    /// directory.
    pub copilot_home: Option<PathBuf>,
}

impl Places {
    /// The places for the work tree at `root`, with the environment's
    /// variables from `var` (the caller's; `None`: unset or empty):
    /// `HOME`, `CODEX_HOME` (default `~/.codex`), `XDG_CONFIG_HOME`
    /// (default `~/.config`), `COPILOT_HOME` (default `~/.copilot`).
    pub fn new(root: PathBuf, var: impl Fn(&str) -> Option<PathBuf>) -> Places {
        let home = var("HOME");
        Places {
            root,
            codex_home: var("CODEX_HOME").or_else(|| home.as_ref().map(|h| h.join(".codex"))),
            xdg_config: var("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config"))),
            copilot_home: var("COPILOT_HOME").or_else(|| home.as_ref().map(|h| h.join(".copilot"))),
            home,
        }
    }
}

/// The file `host`'s registration goes to in `scope`: Claude Code's
/// settings (`.claude/settings.json`, `~/.claude/settings.json`,
/// `/etc/claude-code/managed-settings.json`), Codex's `hooks.json`
/// (`.codex/`, `$CODEX_HOME/`, `/etc/codex/`), OpenCode's plugin module
/// (`.opencode/plugin/`, `~/.config/opencode/plugin/`), Gemini CLI's
/// settings (`.gemini/settings.json`, `~/.gemini/settings.json`, the
/// system file `/etc/gemini-cli/settings.json`), Copilot CLI's hooks file
/// (`.github/hooks/playbookdiff-guard.json` at the git root;
/// `$COPILOT_HOME/hooks/playbookdiff-guard.json`, by default under
/// `~/.copilot`). Sources: surfaces-and-guard, "A guard through each
/// agent's own hook"; gemini-copilot reference; Gemini CLI 0.61.0's
/// settings loader; Copilot CLI 1.0.24's `app.js` (`loadAllHooks`: the
/// git root's `.github/hooks/**/*.json`, then `<COPILOT_HOME or
/// ~/.copilot>/hooks/**/*.json`) and its hooks reference for 1.0.102
/// (user-level hook files in `~/.copilot/hooks/`, `COPILOT_HOME`
/// honoured).
///
/// # Errors
/// A sentence when the scope has no file for the host (OpenCode and
/// Copilot CLI have no managed layer: Copilot CLI 1.0.24 reads no
/// machine-wide hooks) or a home directory is unknown.
pub fn target(host: crate::Host, scope: Scope, places: &Places) -> Result<PathBuf, String> {
    use crate::Host::{ClaudeCode, Codex, Copilot, Gemini, OpenCode};
    let need = |p: &Option<PathBuf>, what: &str| {
        p.clone().ok_or_else(|| {
            format!("{what} is not known (HOME is not set); give --scope project or managed")
        })
    };
    Ok(match (host, scope) {
        (ClaudeCode, Scope::Project) => places.root.join(".claude/settings.json"),
        (ClaudeCode, Scope::User) => {
            need(&places.home, "the home directory")?.join(".claude/settings.json")
        }
        (ClaudeCode, Scope::Managed) => PathBuf::from("/etc/claude-code/managed-settings.json"),
        (Codex, Scope::Project) => places.root.join(".codex/hooks.json"),
        (Codex, Scope::User) => need(&places.codex_home, "CODEX_HOME")?.join("hooks.json"),
        (Codex, Scope::Managed) => PathBuf::from("/etc/codex/hooks.json"),
        (OpenCode, Scope::Project) => places.root.join(".opencode/plugin/playbookdiff-guard.js"),
        (OpenCode, Scope::User) => need(&places.xdg_config, "the configuration home")?
            .join("opencode/plugin/playbookdiff-guard.js"),
        (OpenCode, Scope::Managed) => {
            return Err(
                "OpenCode has no managed configuration layer; use --scope user or --scope project"
                    .into(),
            )
        }
        (Gemini, Scope::Project) => places.root.join(".gemini/settings.json"),
        (Gemini, Scope::User) => {
            need(&places.home, "the home directory")?.join(".gemini/settings.json")
        }
        (Gemini, Scope::Managed) => PathBuf::from("/etc/gemini-cli/settings.json"),
        (Copilot, Scope::Project) => places.root.join(".github/hooks/playbookdiff-guard.json"),
        (Copilot, Scope::User) => {
            need(&places.copilot_home, "COPILOT_HOME")?.join("hooks/playbookdiff-guard.json")
        }
        (Copilot, Scope::Managed) => return Err(COPILOT_NO_MANAGED.into()),
    })
}

/// Why `guard install --host copilot --scope managed` is refused: Copilot
/// CLI 1.0.24 loads hooks from the repository's `.github/hooks` and the
/// user's `~/.copilot/hooks` only (`loadAllHooks` in its `app.js`), so no
/// machine-wide file reaches it.
pub const COPILOT_NO_MANAGED: &str =
    "Copilot CLI has no managed layer; use --scope user or --scope project";

/// The new text of a registration file for `host` (`existing`: its
/// current text), or `None` when it already registers the guard.
///
/// # Errors
/// A sentence when the existing file cannot be merged into.
pub fn merged(
    host: crate::Host,
    existing: Option<&str>,
    program: &str,
) -> Result<Option<String>, String> {
    let command = command_line(program, host);
    match host {
        crate::Host::ClaudeCode => {
            merge_hooks_json(existing, &command, host, CLAUDE_MATCHER, "Bash")
        }
        crate::Host::Codex => merge_hooks_json(existing, &command, host, "*", "*"),
        crate::Host::OpenCode => {
            let text = opencode_plugin(program);
            Ok((existing != Some(text.as_str())).then_some(text))
        }
        crate::Host::Gemini => merge_gemini(existing, &command),
        crate::Host::Copilot => {
            let text = copilot_hooks(program);
            Ok((existing != Some(text.as_str())).then_some(text))
        }
    }
}

/// The tools Gemini CLI's `BeforeTool` registration matches (a regular
/// expression over the tool's name): the ones the guard reads (0.61.0's
/// names). Others are left to Gemini CLI's own policy.
pub const GEMINI_MATCHER: &str =
    "write_file|replace|run_shell_command|read_file|read_many_files|list_directory|glob|grep_search|web_fetch";

/// Gemini CLI's timeout unit is milliseconds: [`HOOK_TIMEOUT_SECONDS`]
/// in them.
const GEMINI_TIMEOUT_MS: u64 = HOOK_TIMEOUT_SECONDS * 1000;

/// Gemini CLI's settings with the guard registered: `hooks.BeforeTool`
/// (matcher [`GEMINI_MATCHER`]) and `hooks.AfterTool` (matcher
/// `run_shell_command`), each `{"matcher", "hooks": [{"type": "command",
/// "command", "timeout"}]}` with the timeout in milliseconds (its hooks
/// reference). `Ok(None)` when already registered.
///
/// # Errors
/// As [`merge_hooks_json`].
pub fn merge_gemini(existing: Option<&str>, command: &str) -> Result<Option<String>, String> {
    merge_events(
        existing,
        command,
        crate::Host::Gemini,
        &[
            ("BeforeTool", GEMINI_MATCHER),
            ("AfterTool", "run_shell_command"),
        ],
        GEMINI_TIMEOUT_MS,
    )
}

/// What Copilot CLI's fail-closed registration runs when the guard
/// cannot start or answer: the rest of the payload read, then a deny
/// printed on standard output, the only answer Copilot CLI reads as a
/// block (it runs the call when a hook fails). The payload is read first,
/// as Codex's fallback does ([`CODEX_FAIL_CLOSED`]), so that no host
/// sees its write of a large payload fail: with the end-to-end row
/// `guard-missing-large` (a 100 KB shell command, the guard gone) Copilot
/// CLI 1.0.24 and 1.0.102 refused the call with and without the drain;
/// 1.0.24 then sent no further request within the run's time, with the
/// drain too, so that is the agent's own limit, not the hook's. Copilot
/// CLI runs the command with `bash`, so `{ ...; }` holds.
pub fn copilot_fallback() -> String {
    let deny = crate::host::copilot_deny(
        "Refused by playbookdiff guard: the guard could not start or answer; the call is not run.",
    );
    format!(" || {{ cat >/dev/null; echo '{deny}'; }}")
}

/// The command line Copilot CLI runs: `program` and [`hook_args`], then
/// [`copilot_fallback`] instead of [`FAIL_CLOSED`].
pub fn copilot_command(program: &str) -> String {
    command_line(program, crate::Host::Copilot).replace(FAIL_CLOSED, &copilot_fallback())
}

/// Copilot CLI's hooks file, written whole:
/// `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash":
/// COMMAND, "timeoutSec": 120}], "postToolUse": [...]}}`. Copilot CLI
/// runs `bash --norc --noprofile -c COMMAND` in the project root for every
/// tool call (no matcher). Source: 1.0.24's `app.js`.
pub fn copilot_hooks(program: &str) -> String {
    let entry = json!([{
        "type": "command",
        "bash": copilot_command(program),
        "timeoutSec": HOOK_TIMEOUT_SECONDS,
    }]);
    let doc = json!({
        "version": 1,
        "hooks": { "preToolUse": entry, "postToolUse": entry },
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// One file `guard install` changes, or would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// The file.
    pub path: PathBuf,
    /// Its new text; `None` when it already holds what the install writes.
    pub text: Option<String>,
    /// What the change does and why, for the plan.
    pub why: String,
}

/// The files an install of `host` in `scope` changes, in order: the
/// registration ([`target`], [`merged`]), then for Codex's user scope
/// `$CODEX_HOME/config.toml` with the trusted hash of each hook it
/// registers ([`crate::codex_trust`]), so Codex runs them without a trust
/// step. `read` is the caller's I/O: a file's text, `Ok(None)` when it is
/// missing.
///
/// # Errors
/// A sentence when the scope has no file for the host, a file cannot be
/// read, or an existing file cannot be merged into.
pub fn plan(
    host: crate::Host,
    scope: Scope,
    places: &Places,
    program: &str,
    read: impl Fn(&Path) -> Result<Option<String>, String>,
) -> Result<Vec<FileChange>, String> {
    let path = target(host, scope, places)?;
    let existing = read(&path)?;
    let text = merged(host, existing.as_deref(), program)
        .map_err(|e| format!("`{}`: {e}", path.display()))?;
    let hooks_json = text.clone().or(existing);
    let mut out = vec![FileChange {
        path: path.clone(),
        text,
        why: what_changes(host, program),
    }];
    if let (crate::Host::Codex, Scope::User, Some(home)) = (host, scope, &places.codex_home) {
        let entries = crate::codex_trust::entries(
            &path.to_string_lossy(),
            hooks_json.as_deref().unwrap_or(""),
            &marker(host),
        );
        let config = home.join("config.toml");
        let text = crate::codex_trust::trusted(read(&config)?.as_deref(), &entries)
            .map_err(|e| format!("`{}`: {e}", config.display()))?;
        out.push(FileChange {
            path: config,
            text,
            why: format!(
                "records the trusted hash of the guard's {} hooks in {} (`[hooks.state.\"<key>\"] trusted_hash`), so Codex runs them without a trust step; the rest of the file is kept",
                entries.len(),
                path.display()
            ),
        });
    }
    Ok(out)
}

/// What a registration of `program` adds, for the plan.
pub fn what_changes(host: crate::Host, program: &str) -> String {
    let command = command_line(program, host);
    match host {
        crate::Host::ClaudeCode => format!(
            "adds (or brings up to date) a PreToolUse hook (matcher `{CLAUDE_MATCHER}`) and a PostToolUse hook (matcher `Bash`) running `{command}`, so every write, shell command and read is checked before it runs, and a guard that cannot start blocks the call; the rest of the file is kept"
        ),
        crate::Host::Codex => format!(
            "adds (or brings up to date) a PreToolUse and a PostToolUse hook (matcher `*`) running `{command}`, so every shell command and apply_patch is checked before it runs, and a guard that cannot start blocks the call; the rest of the file is kept"
        ),
        crate::Host::OpenCode => format!(
            "writes the plugin module that runs `{}` before each tool and throws when the call is refused or the guard cannot start",
            command.trim_end_matches(FAIL_CLOSED)
        ),
        crate::Host::Gemini => format!(
            "adds (or brings up to date) a BeforeTool hook (matcher `{GEMINI_MATCHER}`) and an AfterTool hook (matcher `run_shell_command`) running `{command}`, so every write, shell command, read and fetch is checked before it runs, and a guard that cannot start blocks the call; the rest of the file is kept"
        ),
        crate::Host::Copilot => format!(
            "writes the hooks file whose preToolUse and postToolUse hooks run `{}` for every tool call; a guard that cannot start or answer prints a deny, since Copilot CLI runs the call when a hook fails",
            command.trim_end_matches(FAIL_CLOSED)
        ),
    }
}

/// What could keep a registration in `scope` from running, for the plan.
pub fn notes(host: crate::Host, scope: Scope, target: &Path) -> Vec<String> {
    use crate::Host::{ClaudeCode, Codex, Copilot, Gemini, OpenCode};
    match (host, scope) {
        (ClaudeCode, Scope::Project | Scope::User) => vec![
            "a project's `disableAllHooks: true` in .claude/settings.json switches this hook off; the managed scope (/etc/claude-code/managed-settings.json) is the one it cannot".into(),
        ],
        (Codex, Scope::Project) => vec![
            format!(
                "Codex runs a project hook only in a trusted project and once its hash is trusted: trust it in Codex (its hooks list) so that `[hooks.state.\"{}:pre_tool_use:…\"] trusted_hash` is in $CODEX_HOME/config.toml, or install with --scope user, which records the hash; the managed scope (/etc/codex/hooks.json) needs no trust",
                target.display()
            ),
            "a trusted project's `.codex/config.toml` `[features] hooks = false` switches it off unless /etc/codex/requirements.toml pins `[features] hooks = true`".into(),
        ],
        (Codex, Scope::User) => vec![
            "a changed hook command needs its hash trusted again: run this install again after moving the program".into(),
            "a trusted project's `.codex/config.toml` `[features] hooks = false` switches it off unless /etc/codex/requirements.toml pins `[features] hooks = true`".into(),
        ],
        (Codex, Scope::Managed) => vec![
            "a trusted project's `[features] hooks = false` still switches managed hooks off unless /etc/codex/requirements.toml pins `[features] hooks = true`".into(),
        ],
        (OpenCode, _) => vec!["`opencode --pure` starts without plugins, and so without the guard".into()],
        (ClaudeCode, Scope::Managed) => Vec::new(),
        (Gemini, _) => vec![
            "Gemini CLI reads the project's .gemini/settings.json only in the launch directory and in a trusted folder (`--skip-trust` drops it); after a hook timeout it runs the call".into(),
        ],
        (Copilot, _) => vec![
            "Copilot CLI runs the call when a hook fails or times out; only the deny the guard (or the registration's fallback) prints blocks it; 1.0.102 runs hooks only in a trusted folder".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Host;

    /// Gemini CLI's settings keep their other keys, gain a BeforeTool and
    /// an AfterTool registration (timeout in milliseconds), and a second
    /// merge changes nothing; Copilot CLI's file denies on stdout when the
    /// guard cannot start.
    #[test]
    fn gemini_and_copilot_registrations() {
        let mine = "{\n  \"context\": {\"fileName\": [\"AGENTS.md\"]}\n}\n";
        let once = merged(Host::Gemini, Some(mine), "/opt/bin/playbookdiff-guard")
            .unwrap()
            .unwrap();
        let v: Value = serde_json::from_str(&once).unwrap();
        assert_eq!(v["context"]["fileName"][0], "AGENTS.md");
        let before = &v["hooks"]["BeforeTool"][0];
        assert_eq!(before["matcher"], GEMINI_MATCHER);
        assert_eq!(before["hooks"][0]["timeout"], 120_000);
        assert_eq!(
            before["hooks"][0]["command"],
            "/opt/bin/playbookdiff-guard hook --host gemini || exit 2"
        );
        assert_eq!(v["hooks"]["AfterTool"][0]["matcher"], "run_shell_command");
        assert_eq!(
            merged(Host::Gemini, Some(&once), "/opt/bin/playbookdiff-guard").unwrap(),
            None
        );
        let copilot = copilot_hooks("/opt/bin/playbookdiff-guard");
        let v: Value = serde_json::from_str(&copilot).unwrap();
        let bash = v["hooks"]["preToolUse"][0]["bash"].as_str().unwrap();
        assert!(bash.starts_with(
            "/opt/bin/playbookdiff-guard hook --host copilot || { cat >/dev/null; echo '"
        ));
        let fallback = bash
            .split_once("echo '")
            .unwrap()
            .1
            .trim_end_matches("'; }");
        let deny: Value = serde_json::from_str(fallback).unwrap();
        assert_eq!(deny["permissionDecision"], "deny");
        assert_eq!(
            merged(Host::Copilot, Some(&copilot), "/opt/bin/playbookdiff-guard").unwrap(),
            None
        );
        assert!(target(Host::Copilot, Scope::User, &Places::default()).is_err());
    }

    #[test]
    fn a_second_merge_changes_nothing_and_keeps_the_rest() {
        let existing = r#"{"model": "x", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}, "z": 1}"#;
        let cmd = command_line("/opt/bin/playbookdiff", Host::ClaudeCode);
        let once = merge_hooks_json(
            Some(existing),
            &cmd,
            Host::ClaudeCode,
            CLAUDE_MATCHER,
            "Bash",
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            merge_hooks_json(Some(&once), &cmd, Host::ClaudeCode, CLAUDE_MATCHER, "Bash").unwrap(),
            None
        );
        let v: Value = serde_json::from_str(&once).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "hooks", "z"]);
        assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "echo");
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], cmd);
        assert!(merge_hooks_json(Some("[1]"), &cmd, Host::ClaudeCode, "*", "*").is_err());
        assert!(merge_hooks_json(Some("{"), &cmd, Host::ClaudeCode, "*", "*").is_err());
    }

    /// The current command with the older 30 s timeout is not current: a
    /// host runs the call after a timeout, so the timeout is raised.
    #[test]
    fn an_older_timeout_is_raised_once() {
        let cmd = command_line("/opt/bin/playbookdiff-guard", Host::Codex);
        let old = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": cmd, "timeout": 30}]}]}})
        .to_string();
        let raised = merge_hooks_json(Some(&old), &cmd, Host::Codex, "*", "*")
            .unwrap()
            .unwrap();
        let v: Value = serde_json::from_str(&raised).unwrap();
        let handler = &v["hooks"]["PreToolUse"][0]["hooks"][0];
        assert_eq!(handler["timeout"], HOOK_TIMEOUT_SECONDS);
        assert_eq!(handler["command"], cmd.as_str());
        assert_eq!(v["hooks"]["PreToolUse"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            merge_hooks_json(Some(&raised), &cmd, Host::Codex, "*", "*").unwrap(),
            None
        );
        let plugin = opencode_plugin("/opt/bin/playbookdiff-guard");
        assert!(plugin.contains("timeout: 120000 }"), "{plugin}");
    }
}

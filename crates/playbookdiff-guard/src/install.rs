//! `guard install`: the hook registration merged into each host's own
//! files, as pure text-to-text functions (the command reads and writes
//! the files). Every merge keeps everything else in the file (JSON key
//! order; TOML comments and order through `toml_edit`) and is idempotent:
//! merging into its own output changes nothing.

use serde_json::{json, Map, Value};

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

/// The tools Claude Code's PreToolUse registration matches (a regular
/// expression over `tool_name`): the ones the guard reads.
pub const CLAUDE_MATCHER: &str = "Write|Edit|MultiEdit|NotebookEdit|Bash|Read|Grep|Glob|WebFetch";

/// The marker that identifies the guard's own registration in a file:
/// its command holds `guard hook --host <id>`.
pub fn marker(host: crate::Host) -> String {
    format!("guard hook --host {}", host.id())
}

/// The command line a host runs: `program` quoted for a shell, then
/// `guard hook --host <id>`.
pub fn command_line(program: &str, host: crate::Host) -> String {
    let quoted = shlex::try_quote(program).map_or_else(|_| program.to_string(), |q| q.into_owned());
    format!("{quoted} {}", marker(host))
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
    for (event, matcher) in [("PreToolUse", pre_matcher), ("PostToolUse", post_matcher)] {
        let list = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(list) = list else {
            return Err(format!("its `hooks.{event}` is not an array"));
        };
        if registered(list, &marker(host)) {
            continue;
        }
        list.push(json!({
            "matcher": matcher,
            "hooks": [{ "type": "command", "command": command, "timeout": 30 }]
        }));
        changed = true;
    }
    if !changed {
        return Ok(None);
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(Some(text))
}

/// Whether an event's list holds a command with `marker`.
pub fn registered(list: &[Value], marker: &str) -> bool {
    list.iter().any(|entry| {
        entry["hooks"].as_array().is_some_and(|hs| {
            hs.iter()
                .any(|h| h["command"].as_str().is_some_and(|c| c.contains(marker)))
        })
    })
}

/// The OpenCode plugin module that calls `program guard hook --host
/// opencode` before (and after) each tool and throws on anything but an
/// allow: a failed or silent guard is a refusal (fail closed). OpenCode
/// loads `.opencode/plugin/*.js` and `~/.config/opencode/plugin/*.js`
/// (surfaces-and-guard, OpenCode 1.18.33); `tool.execute.before(input,
/// output)` receives `input.tool`, `input.sessionID` and `output.args`.
pub fn opencode_plugin(program: &str) -> String {
    let argv = json!([program, "guard", "hook", "--host", "opencode"]).to_string();
    format!(
        r#"// playbookdiff guard for OpenCode, written by `playbookdiff guard install`.
// Asks `playbookdiff guard hook --host opencode` before each tool runs and
// throws when the guard does not allow the call, or cannot answer.
import {{ spawnSync }} from "node:child_process";

const GUARD = {argv};

function ask(event, input, output, directory) {{
  const payload = JSON.stringify({{
    event,
    tool: input.tool,
    sessionID: input.sessionID,
    callID: input.callID,
    cwd: directory,
    args: (output && output.args) || {{}},
  }});
  const r = spawnSync(GUARD[0], GUARD.slice(1), {{ input: payload, encoding: "utf8", timeout: 30000 }});
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
  "tool.execute.before": async (input, output) => ask("PreToolUse", input, output, directory),
  "tool.execute.after": async (input, output) => {{
    if (input.tool === "bash") ask("PostToolUse", input, output, directory);
  }},
}});
"#
    )
}

/// Whether a Codex `config.toml` text turns hooks off (`[features]
/// hooks = false`, or the older `codex_hooks = false`).
pub fn codex_hooks_disabled(config: &str) -> bool {
    let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else {
        return false;
    };
    let features = doc.get("features");
    ["hooks", "codex_hooks"]
        .iter()
        .any(|k| features.and_then(|f| f.get(k)).and_then(|v| v.as_bool()) == Some(false))
}

/// Whether a Codex `config.toml` text records a trusted hash for a hook
/// of `hooks_json` (`[hooks.state."<hooks_json>:pre_tool_use:…"]
/// trusted_hash`).
pub fn codex_hook_trusted(config: &str, hooks_json: &str) -> bool {
    let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else {
        return false;
    };
    let Some(state) = doc
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.as_table_like())
    else {
        return false;
    };
    let trusted = state.iter().any(|(key, v)| {
        key.starts_with(&format!("{hooks_json}:pre_tool_use")) && v.get("trusted_hash").is_some()
    });
    trusted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Host;

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

    #[test]
    fn codex_switches_are_read() {
        assert!(codex_hooks_disabled("[features]\nhooks = false\n"));
        assert!(!codex_hooks_disabled("[features]\nhooks = true\n"));
        let c = "[hooks.state.\"/r/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:x\"\n";
        assert!(codex_hook_trusted(c, "/r/.codex/hooks.json"));
        assert!(!codex_hook_trusted(c, "/s/.codex/hooks.json"));
    }
}

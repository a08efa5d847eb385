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
}

impl Places {
    /// The places for the work tree at `root`, with the environment's
    /// variables from `var` (the caller's; `None`: unset or empty):
    /// `HOME`, `CODEX_HOME` (default `~/.codex`), `XDG_CONFIG_HOME`
    /// (default `~/.config`).
    pub fn new(root: PathBuf, var: impl Fn(&str) -> Option<PathBuf>) -> Places {
        let home = var("HOME");
        Places {
            root,
            codex_home: var("CODEX_HOME").or_else(|| home.as_ref().map(|h| h.join(".codex"))),
            xdg_config: var("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config"))),
            home,
        }
    }
}

/// The file `host`'s registration goes to in `scope`: Claude Code's
/// settings (`.claude/settings.json`, `~/.claude/settings.json`,
/// `/etc/claude-code/managed-settings.json`), Codex's `hooks.json`
/// (`.codex/`, `$CODEX_HOME/`, `/etc/codex/`), OpenCode's plugin module
/// (`.opencode/plugin/`, `~/.config/opencode/plugin/`). Sources:
/// surfaces-and-guard, "A guard through each agent's own hook".
///
/// # Errors
/// A sentence when the scope has no file for the host (OpenCode has no
/// managed layer) or a home directory is unknown.
pub fn target(host: crate::Host, scope: Scope, places: &Places) -> Result<PathBuf, String> {
    use crate::Host::{ClaudeCode, Codex, OpenCode};
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
    })
}

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
    }
}

/// What a registration adds, for the plan.
pub fn what_changes(host: crate::Host) -> String {
    match host {
        crate::Host::ClaudeCode => format!(
            "adds a PreToolUse hook (matcher `{CLAUDE_MATCHER}`) and a PostToolUse hook (matcher `Bash`) running `playbookdiff {}`, so every write, shell command and read is checked before it runs; the rest of the file is kept",
            marker(host)
        ),
        crate::Host::Codex => format!(
            "adds a PreToolUse and a PostToolUse hook (matcher `*`) running `playbookdiff {}`, so every shell command and apply_patch is checked before it runs; the rest of the file is kept",
            marker(host)
        ),
        crate::Host::OpenCode => format!(
            "writes the plugin module that runs `playbookdiff {}` before each tool and throws when the call is refused",
            marker(host)
        ),
    }
}

/// What could keep a registration in `scope` from running, for the plan.
pub fn notes(host: crate::Host, scope: Scope, target: &Path) -> Vec<String> {
    use crate::Host::{ClaudeCode, Codex, OpenCode};
    match (host, scope) {
        (ClaudeCode, Scope::Project | Scope::User) => vec![
            "a project's `disableAllHooks: true` in .claude/settings.json switches this hook off; the managed scope (/etc/claude-code/managed-settings.json) is the one it cannot".into(),
        ],
        (Codex, Scope::Project | Scope::User) => vec![
            format!(
                "Codex runs a user or project hook only once its hash is trusted: trust it in Codex (its hooks list) so that `[hooks.state.\"{}:pre_tool_use:…\"] trusted_hash` is in $CODEX_HOME/config.toml; the managed scope (/etc/codex/hooks.json) needs no trust",
                target.display()
            ),
            "a trusted project's `.codex/config.toml` `[features] hooks = false` switches it off unless /etc/codex/requirements.toml pins `[features] hooks = true`".into(),
        ],
        (Codex, Scope::Managed) => vec![
            "a trusted project's `[features] hooks = false` still switches managed hooks off unless /etc/codex/requirements.toml pins `[features] hooks = true`".into(),
        ],
        (OpenCode, _) => vec!["`opencode --pure` starts without plugins, and so without the guard".into()],
        (ClaudeCode, Scope::Managed) => Vec::new(),
    }
}

/// The files `guard status` reads for the switches, as text (empty when
/// missing).
#[derive(Clone, Debug, Default)]
pub struct SwitchFiles {
    /// `.claude/settings.json` and `.claude/settings.local.json`.
    pub claude_settings: Vec<(String, String)>,
    /// The project's `.codex/config.toml`.
    pub codex_config: String,
    /// `$CODEX_HOME/config.toml` (the trusted hashes).
    pub codex_user_config: String,
    /// `/etc/codex/requirements.toml`, when present.
    pub codex_requirements: Option<String>,
}

impl SwitchFiles {
    /// The switch files of the work tree and user of `places`, read with
    /// `read` (the caller's I/O; `None`: missing or unreadable).
    pub fn read(places: &Places, read: impl Fn(&Path) -> Option<String>) -> SwitchFiles {
        let root = &places.root;
        SwitchFiles {
            claude_settings: [".claude/settings.json", ".claude/settings.local.json"]
                .iter()
                .map(|f| (f.to_string(), read(&root.join(f)).unwrap_or_default()))
                .collect(),
            codex_config: read(&root.join(".codex/config.toml")).unwrap_or_default(),
            codex_user_config: places
                .codex_home
                .as_ref()
                .and_then(|h| read(&h.join("config.toml")))
                .unwrap_or_default(),
            codex_requirements: read(Path::new("/etc/codex/requirements.toml")),
        }
    }
}

/// One thing that switches a guard off or could: whether it does now,
/// and the sentence with its remedy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Whether it switches the guard off now.
    pub active: bool,
    /// What it is and what to do.
    pub line: String,
}

/// What switches `host`'s guard off (`layers`: the scopes and files that
/// register it). Sources: surfaces-and-guard's table "switched off by".
pub fn switches(
    host: crate::Host,
    files: &SwitchFiles,
    layers: &[(Scope, PathBuf)],
) -> Vec<Switch> {
    let managed = layers.iter().any(|(s, _)| *s == Scope::Managed);
    let sw = |active: bool, line: String| Switch { active, line };
    let mut out = Vec::new();
    match host {
        crate::Host::ClaudeCode => {
            for (name, text) in &files.claude_settings {
                let v: Option<serde_json::Value> = serde_json::from_str(text).ok();
                if v.and_then(|v| v["disableAllHooks"].as_bool()) == Some(true) {
                    out.push(sw(!managed, format!("`disableAllHooks: true` in {name} turns off user and project hooks; remove it, or install with --scope managed")));
                }
            }
            if !managed {
                out.push(sw(false, "`disableAllHooks: true` in a project's .claude/settings.json, or `--settings` with it; only the managed layer survives".into()));
            }
        }
        crate::Host::Codex => {
            let pinned = files
                .codex_requirements
                .as_deref()
                .is_some_and(|t| !codex_hooks_disabled(t) && t.contains("hooks"));
            if codex_hooks_disabled(&files.codex_config) && !pinned {
                out.push(sw(true, "`[features] hooks = false` in .codex/config.toml (a trusted project) turns every hook off; remove it, or pin `[features] hooks = true` in /etc/codex/requirements.toml".into()));
            } else if !pinned {
                out.push(sw(false, "`[features] hooks = false` in a trusted project's .codex/config.toml; pin `[features] hooks = true` in /etc/codex/requirements.toml".into()));
            }
            for (scope, target) in layers.iter().filter(|(s, _)| *s != Scope::Managed) {
                if !codex_hook_trusted(&files.codex_user_config, &target.to_string_lossy()) {
                    out.push(sw(!managed, format!("the {} hook {} has no trusted hash in $CODEX_HOME/config.toml, so Codex does not run it; trust it in Codex, or install with --scope managed", scope.as_str(), target.display())));
                }
            }
        }
        crate::Host::OpenCode => out.push(sw(
            false,
            "`opencode --pure` starts without plugins, and so without the guard".into(),
        )),
    }
    out
}

/// The scope `guard status` proposes for an unguarded `host`: managed
/// where the host has it.
pub fn best_scope(host: crate::Host) -> Scope {
    match host {
        crate::Host::OpenCode => Scope::Project,
        _ => Scope::Managed,
    }
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

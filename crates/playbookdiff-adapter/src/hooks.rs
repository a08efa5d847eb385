//! Hook registrations in the shape Claude Code and Codex share, read into
//! [`Hook`] items, and the script each one runs resolved inside the
//! repository.
//!
//! The shape (Claude Code hooks documentation; Codex 0.171.0 reads the
//! same, `codex-rs/hooks`; Gemini CLI's `hooks` setting too,
//! `HookRegistry.processHookDefinition` in `@google/gemini-cli-core`): an
//! object of events, each an array of matcher groups `{"matcher":
//! "Write|Edit", "hooks": [{"type": "command", "command": "...",
//! "timeout": 30}]}`. Copilot CLI also takes a flat array of handlers
//! `{"type": "command", "bash": "...", "timeoutSec": 30}` ([`Layout`]). Nothing here runs a command or
//! expands a variable from the analyser's environment: a script is found by
//! reading the command line as a shell would split it ([`shlex`]) and
//! replacing only the project and plugin directory variables the harness
//! sets.

use crate::Compilation;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Harness, Hook, HookHandler, HookScript, HookTrigger,
    LoadPhase, RepoPath, SourceRef, Verdict,
};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// What one harness release knows about hook events, from its code.
#[derive(Debug)]
pub struct Events {
    /// Every event the release has.
    pub known: &'static [&'static str],
    /// Events whose matcher is matched against a tool name.
    pub tool_events: &'static [&'static str],
    /// Events that ignore a matcher and fire on every occurrence.
    pub matcherless: &'static [&'static str],
    /// Events on which a block (exit 2, or a `decision`) does nothing but
    /// show a message; empty: not checked.
    pub cannot_block: &'static [&'static str],
    /// The tool names a matcher of a tool event can name (tools whose
    /// name starts with `mcp__` are always accepted); empty: not checked.
    pub tools: &'static [&'static str],
    /// The harness's one table from its own event names to their
    /// cross-harness meaning, for a harness that spells events its own way
    /// (Gemini CLI `BeforeTool`, Copilot CLI `preToolUse`); empty: the
    /// event is spelled as Claude Code and Codex spell it
    /// ([`HookTrigger::from_event`]). An event absent from a non-empty
    /// table has no counterpart in another harness.
    /// Events it lists are known besides [`Events::known`].
    pub triggers: &'static [(&'static str, Option<HookTrigger>)],
}

impl Events {
    /// The cross-harness meaning of `event`, when it has one.
    pub fn trigger(&self, event: &str) -> Option<HookTrigger> {
        if self.triggers.is_empty() {
            return HookTrigger::from_event(event);
        }
        self.triggers
            .iter()
            .find(|(e, _)| *e == event)
            .and_then(|(_, t)| *t)
    }

    /// True for an event of the release: in [`Events::known`] or in
    /// [`Events::triggers`].
    pub fn is_known(&self, event: &str) -> bool {
        self.names().any(|k| k == event)
    }

    /// Every event name of the release.
    fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.known
            .iter()
            .copied()
            .chain(self.triggers.iter().map(|(e, _)| *e))
    }
}

/// How the entries of an event's array are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Matcher groups only: `{"matcher": ..., "hooks": [handler, ...]}`
    /// (Claude Code, Codex, Gemini CLI).
    Groups,
    /// Matcher groups or handlers written directly in the event's array,
    /// `{"type": "command", "bash": "...", "powershell": "...", "command":
    /// "...", "timeoutSec": 30}`, whose command is `command`, else `bash`
    /// (Copilot CLI 1.0.24 `app.js`: the hook file schema takes `bash`,
    /// `powershell` or `command`, `timeoutSec` or `timeout`, and flattens
    /// Claude Code's groups one level).
    GroupsOrHandlers,
}

/// The variables a harness sets to directories when it runs a hook
/// command, which the analysis may replace.
pub struct Tokens<'a> {
    /// Variables holding the project directory, the directory the agent
    /// was launched from (`CLAUDE_PROJECT_DIR`: "where Claude Code was
    /// started", Claude Code hooks documentation).
    pub project: &'a [&'a str],
    /// The variable holding a plugin's root and the plugin's directory,
    /// for a plugin's hooks (`CLAUDE_PLUGIN_ROOT`).
    pub plugin: Option<(&'a str, &'a RepoPath)>,
}

/// The lines `(first, last)`, 1-based, of the value at a key path of a
/// file, when known.
pub type LinesOf<'a> = &'a dyn Fn(&[&str]) -> Option<(u32, u32)>;

/// One file's hook registrations and how to read them.
pub struct Registration<'a> {
    /// The harness that reads them (ids and messages).
    pub harness: Harness,
    /// Its words for the release, e.g. `Claude Code 2.1.197`.
    pub release: &'a str,
    /// The file that registers them.
    pub source: &'a SourceRef,
    /// The key path of the hooks object in the file (`["hooks"]`, or
    /// `[]` for a file that is the object).
    pub prefix: &'a [&'a str],
    /// The lines of the value at a key path of the file, when known.
    pub lines: LinesOf<'a>,
    /// The release's events.
    pub events: &'a Events,
    /// The directory variables of hook commands.
    pub tokens: Tokens<'a>,
    /// The directory the harness starts hook commands in, from which a
    /// relative script path and the project variables resolve (the launch
    /// directory for Claude Code; the git root for Copilot CLI).
    pub cwd: &'a RepoPath,
    /// How the entries of an event's array are written.
    pub layout: Layout,
    /// Whether these hooks run (the same for every hook of the file).
    pub runs: Verdict,
    /// Whether the file applies under the context: `effective` for a file
    /// the harness reads, `conditional` for one that loads only after a
    /// user step (a plugin to install).
    pub applicability: Applicability,
    /// Why they were discovered, one sentence that each hook's reason
    /// starts with.
    pub reason: &'a str,
}

impl Registration<'_> {
    /// The file with the lines of the value at `path` below the prefix,
    /// else of the nearest enclosing value found, else the file alone.
    fn at(&self, path: &[&str]) -> SourceRef {
        let mut full: Vec<&str> = self.prefix.to_vec();
        full.extend_from_slice(path);
        while !full.is_empty() {
            if let Some((s, e)) = (self.lines)(&full) {
                return self.source.clone().with_lines(s, e);
            }
            full.pop();
        }
        self.source.clone()
    }

    fn name(&self) -> &str {
        self.harness.display_name()
    }
}

/// Reads the hooks object `hooks` of `reg` into hooks, in file order,
/// reporting an unknown event, an ineffective matcher, a missing script
/// and a block on an event that cannot block. A value of the wrong shape
/// is an `invalid-value` warning and registers nothing.
pub fn read(cx: &mut Compilation<'_, '_>, reg: &Registration<'_>, hooks: &Value) -> Vec<Hook> {
    let mut out = Vec::new();
    let Some(events) = hooks.as_object() else {
        wrong_shape(cx, reg, &[], "an object of events");
        return out;
    };
    for (event, groups) in events {
        if !reg.events.is_known(event) {
            unknown_event(cx, reg, event);
        }
        let Some(groups) = groups.as_array() else {
            wrong_shape(cx, reg, &[event], "an array of matcher groups");
            continue;
        };
        for (i, group) in groups.iter().enumerate() {
            read_group(cx, reg, event, i, group, &mut out);
        }
    }
    missing_scripts(cx, reg, &out);
    out
}

/// One matcher group: its matcher checked, each handler a hook.
fn read_group(
    cx: &mut Compilation<'_, '_>,
    reg: &Registration<'_>,
    event: &str,
    i: usize,
    group: &Value,
    out: &mut Vec<Hook>,
) {
    let gi = i.to_string();
    let matcher = group
        .get("matcher")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty() && *m != "*")
        .map(str::to_string);
    let mut runs = reg.runs.clone();
    if let Some(m) = &matcher {
        if check_matcher(cx, reg, event, &gi, m) == Matcher::NeverFires && runs.may_apply() {
            runs = Verdict::No {
                reason: format!("its matcher `{m}` names no tool of {}", reg.name()),
                source: Some(reg.at(&[event, &gi, "matcher"])),
            };
        }
    }
    let flat = std::slice::from_ref(group);
    let handlers = match (group.get("hooks").and_then(Value::as_array), reg.layout) {
        (Some(h), _) => h.as_slice(),
        (None, Layout::GroupsOrHandlers) if group.is_object() => flat,
        (None, _) => {
            wrong_shape(cx, reg, &[event, &gi], "an object with a `hooks` array");
            return;
        }
    };
    let nested = group.get("hooks").is_some();
    for (j, h) in handlers.iter().enumerate() {
        let gj = j.to_string();
        let source = if nested {
            reg.at(&[event, &gi, "hooks", &gj])
        } else {
            reg.at(&[event, &gi])
        };
        let handler = handler_of(h, reg.layout);
        let script = handler
            .command
            .as_deref()
            .and_then(|c| script_of(c, &reg.tokens, reg.cwd))
            .map(|(written, path)| HookScript {
                present: cx.repo.is_file(&path),
                written,
                path,
            });
        let hook = Hook {
            id: format!(
                "{}:hook:{}:{event}:{i}:{j}",
                reg.harness.as_str(),
                reg.source.path
            ),
            event: event.to_string(),
            trigger: reg.events.trigger(event),
            matcher: matcher.clone(),
            handler,
            source,
            script,
            runs: runs.clone(),
            load_phase: LoadPhase::Startup,
            applicability: reg.applicability,
            reason: reg.reason.to_string(),
        };
        check_block(cx, reg, &hook, h);
        out.push(hook);
    }
}

/// The handler as written; the command redacted where it looks like it
/// holds a secret. With [`Layout::GroupsOrHandlers`] the command is
/// `command`, else `bash`, and the timeout `timeoutSec`, else `timeout`.
fn handler_of(h: &Value, layout: Layout) -> HookHandler {
    let kind = h
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("command")
        .to_string();
    let text = |k: &str| h.get(k).and_then(Value::as_str);
    let (command, timeout) = match layout {
        Layout::Groups => (text("command"), h.get("timeout")),
        Layout::GroupsOrHandlers => (
            text("command").or_else(|| text("bash")),
            h.get("timeoutSec").or_else(|| h.get("timeout")),
        ),
    };
    HookHandler {
        kind,
        command: command.map(|c| playbookdiff_model::redact::redact_command(c).0),
        timeout_seconds: timeout.and_then(Value::as_u64),
    }
}

fn wrong_shape(cx: &mut Compilation<'_, '_>, reg: &Registration<'_>, path: &[&str], want: &str) {
    let mut full: Vec<&str> = reg.prefix.to_vec();
    full.extend_from_slice(path);
    let key = if full.is_empty() {
        "the file".to_string()
    } else {
        format!("`{}`", full.join("."))
    };
    let msg = format!(
        "{key} in `{}` is not {want}, so {} registers no hook from it; write it as the hooks documentation shows.",
        reg.source.path,
        reg.name()
    );
    cx.diag(Diagnostic::new(DiagnosticCode::InvalidValue, msg).at(reg.at(path)));
}

fn unknown_event(cx: &mut Compilation<'_, '_>, reg: &Registration<'_>, event: &str) {
    let close = reg
        .events
        .names()
        .find(|k| k.eq_ignore_ascii_case(event))
        .map(|k| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default();
    let msg = format!(
        "`{}` registers hooks for `{event}`, an event {} does not have{close}, so they never fire; use one of its events.",
        reg.source.path, reg.release
    );
    cx.diag(
        Diagnostic::new(DiagnosticCode::HookEventUnknown, msg)
            .at(reg.at(&[event]))
            .about(event),
    );
}

/// What a matcher does, as far as the analysis can tell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Matcher {
    /// It filters, or the analysis cannot tell that it does not.
    Filters,
    /// The event ignores it: the hook fires on every occurrence.
    Ignored,
    /// It names only tools the harness does not have: the hook never fires.
    NeverFires,
}

/// Reports a matcher on an event that ignores matchers, or one naming only
/// tools the harness does not have; returns which.
fn check_matcher(
    cx: &mut Compilation<'_, '_>,
    reg: &Registration<'_>,
    event: &str,
    group: &str,
    matcher: &str,
) -> Matcher {
    let ev = reg.events;
    let (kind, why) = if ev.matcherless.contains(&event) {
        (
            Matcher::Ignored,
            format!(
                "`{event}` ignores matchers and fires on every occurrence, so the matcher `{matcher}` filters nothing"
            ),
        )
    } else if ev.tool_events.contains(&event) && !ev.tools.is_empty() {
        match foreign_tools(matcher, ev.tools) {
            Some(names) => (
                Matcher::NeverFires,
                format!(
                    "the matcher `{matcher}` names only {names}, which {} has no tool of (its hooks see {}), so the hook never fires",
                    reg.name(),
                    ev.tools.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                ),
            ),
            None => return Matcher::Filters,
        }
    } else {
        return Matcher::Filters;
    };
    let msg = format!(
        "In `{}`, {why}; remove the matcher or name a tool of {}.",
        reg.source.path,
        reg.name()
    );
    cx.diag(
        Diagnostic::new(DiagnosticCode::HookMatcherIneffective, msg)
            .at(reg.at(&[event, group, "matcher"]))
            .about(format!("{event}.{group}")),
    );
    kind
}

/// When `matcher` is a plain alternation of tool names (`Write|Edit`) and
/// none of them is in `tools` (nor an MCP tool): those names, quoted.
fn foreign_tools(matcher: &str, tools: &[&str]) -> Option<String> {
    let names: Vec<&str> = matcher.split('|').map(str::trim).collect();
    let plain = names
        .iter()
        .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if !plain
        || names
            .iter()
            .any(|n| tools.contains(n) || n.starts_with("mcp__"))
    {
        return None;
    }
    Some(
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// Reports each missing script once, at the first hook that runs it,
/// with the events of every hook of the file that does.
fn missing_scripts(cx: &mut Compilation<'_, '_>, reg: &Registration<'_>, hooks: &[Hook]) {
    let mut seen: Vec<&RepoPath> = Vec::new();
    for hook in hooks {
        let Some(s) = hook.script.as_ref().filter(|s| !s.present) else {
            continue;
        };
        if seen.contains(&&s.path) {
            continue;
        }
        seen.push(&s.path);
        let mut events: Vec<&str> = hooks
            .iter()
            .filter(|h| h.script.as_ref().is_some_and(|o| o.path == s.path))
            .map(|h| h.event.as_str())
            .collect();
        let n = events.len();
        events.dedup();
        let who = if n == 1 {
            format!("The `{}` hook", hook.event)
        } else {
            let list: Vec<String> = events.iter().map(|e| format!("`{e}`")).collect();
            format!("{n} hooks ({})", list.join(", "))
        };
        let msg = format!(
            "{who} in `{}` run `{}`, which names `{}`, and no such file is in the repository: when the event fires the command fails and the hook does nothing. Add the script or fix the path.",
            reg.source.path, s.written, s.path
        );
        let msg = if n == 1 {
            msg.replacen(" run `", " runs `", 1)
        } else {
            msg
        };
        let mut d = Diagnostic::new(DiagnosticCode::HookScriptMissing, msg)
            .at(hook.source.clone())
            .about(s.path.to_string());
        if reg.applicability != Applicability::Effective {
            // A plugin to install: nothing runs from the repository alone,
            // and its build or package may add the script.
            d.message.push_str(
                " (The hooks load only once installed, whose package may add the script.)",
            );
            d = d.with_severity(playbookdiff_model::Severity::Info);
        }
        cx.diag(d);
    }
}

/// Reports a hook that blocks (in its command or its script) on an event
/// that cannot block.
fn check_block(cx: &mut Compilation<'_, '_>, reg: &Registration<'_>, hook: &Hook, raw: &Value) {
    let ev = reg.events;
    if !ev.cannot_block.contains(&hook.event.as_str()) {
        return;
    }
    let command = raw.get("command").and_then(Value::as_str).unwrap_or("");
    let mut how = block_in(command).map(|w| format!("its command {w}"));
    if how.is_none() {
        if let Some(s) = hook.script.as_ref().filter(|s| s.present) {
            if let Ok(t) = cx.repo.read_text(&s.path, crate::READ_LIMIT) {
                how = block_in(&t.text).map(|w| format!("its script `{}` {w}", s.path));
            }
        }
    }
    let Some(how) = how else { return };
    let msg = format!(
        "The `{}` hook in `{}` tries to block ({how}), but `{}` cannot block in {}: the message is shown and the agent goes on. Move the check to a blocking event such as `PreToolUse`.",
        hook.event, reg.source.path, hook.event, reg.release
    );
    cx.diag(
        Diagnostic::new(DiagnosticCode::HookBlockIneffective, msg)
            .at(hook.source.clone())
            .about(hook.id.clone()),
    );
}

/// How `text` blocks, in words: `exits 2`, or a block or deny decision.
fn block_in(text: &str) -> Option<&'static str> {
    let exits_2 = text.match_indices("exit 2").any(|(i, m)| {
        !text[i + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    });
    if exits_2 {
        return Some("exits 2");
    }
    let decides = (text.contains("\"decision\"") && text.contains("\"block\""))
        || (text.contains("permissionDecision") && text.contains("\"deny\""));
    decides.then_some("returns a block or deny decision")
}

/// File names whose extension marks a script an interpreter runs.
const SCRIPT_EXTENSIONS: &[&str] = &[
    ".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".ps1",
];

/// Words that end the first simple command of a command line.
const SHELL_OPERATORS: &[&str] = &["&&", "||", ";", "|", "&"];

/// The script a hook's command line runs, as written (the word as the
/// shell reads it, quotes removed) and as a repository path: the first
/// word of the first simple command that names a path (it holds a `/` or
/// ends in a script extension), with the project variables (`$VAR`,
/// `${VAR}`) replaced by the launch directory `cwd` and the plugin
/// variable by the plugin's directory; a relative path is taken from `cwd`
/// too (the directory hooks start in). `None` when no word
/// names a path, when another variable, `~` or an absolute path is left
/// (the analysis never expands them), or when the path leaves the
/// repository.
pub fn script_of(command: &str, tokens: &Tokens<'_>, cwd: &RepoPath) -> Option<(String, RepoPath)> {
    let words = shlex::split(command)
        .unwrap_or_else(|| command.split_whitespace().map(str::to_string).collect());
    let word = words
        .into_iter()
        .take_while(|w| !SHELL_OPERATORS.contains(&w.as_str()))
        .filter(|w| !w.starts_with('-') && !is_assignment(w))
        .find(|w| w.contains('/') || SCRIPT_EXTENSIONS.iter().any(|e| w.ends_with(e)))?;
    let plugin = tokens
        .plugin
        .and_then(|(v, dir)| strip_variable(&word, &[v]).map(|rest| (rest, dir.clone())));
    let (rest, base) = match strip_variable(&word, tokens.project) {
        Some(rest) => (rest.trim_start_matches('/'), cwd.clone()),
        None => match plugin {
            Some((rest, dir)) => (rest.trim_start_matches('/'), dir),
            None => (word.as_str(), cwd.clone()),
        },
    };
    if rest.contains('$') || rest.starts_with('~') || rest.starts_with('/') {
        return None;
    }
    let path = base.join(rest)?;
    (!path.is_root()).then(|| (word.clone(), path))
}

/// `word` without a leading `$VAR` or `${VAR}` of `vars`: the rest.
fn strip_variable<'w>(word: &'w str, vars: &[&str]) -> Option<&'w str> {
    vars.iter().find_map(|v| {
        let braced = format!("${{{v}}}");
        if let Some(rest) = word.strip_prefix(&braced) {
            return Some(rest);
        }
        let rest = word.strip_prefix('$')?.strip_prefix(v)?;
        // `$CLAUDE_PROJECT_DIRX` is another variable.
        (!rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')).then_some(rest)
    })
}

/// True for a leading `NAME=value` word.
fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// The hash Codex computes for a command hook of `event` (Codex's label:
/// `pre_tool_use`, `post_tool_use`) in a group with `matcher` (as Codex
/// keeps it: none for an event that ignores it), from the handler's JSON
/// object (`command`, `timeout` in seconds, `async`, `statusMessage`):
/// `sha256:` and 64 hex digits (Codex's `hooks/list` reports it as `currentHash`; the Codex adapter's
/// `hook_trust` module documents the derivation). The guard trusts
/// the hooks it installs with it.
pub fn command_hook_hash(event: &str, matcher: Option<&str>, handler: &Value) -> String {
    let timeout = handler["timeout"].as_u64().unwrap_or(600).max(1);
    let mut hook = Map::new();
    hook.insert("type".into(), "command".into());
    hook.insert(
        "command".into(),
        handler["command"].as_str().unwrap_or("").into(),
    );
    hook.insert("timeout".into(), timeout.into());
    hook.insert(
        "async".into(),
        handler["async"].as_bool().unwrap_or(false).into(),
    );
    if let Some(status) = handler["statusMessage"].as_str() {
        hook.insert("statusMessage".into(), status.into());
    }
    let mut identity = Map::new();
    identity.insert("event_name".into(), event.into());
    if let Some(m) = matcher {
        identity.insert("matcher".into(), m.into());
    }
    identity.insert("hooks".into(), Value::Array(vec![Value::Object(hook)]));
    let text = canonical(&Value::Object(identity)).to_string();
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// `value` with every object's keys in sorted order.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> Tokens<'static> {
        Tokens {
            project: &["CLAUDE_PROJECT_DIR"],
            plugin: None,
        }
    }

    fn path(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    /// Every documented spelling of a project script resolves to the same
    /// file of the launch directory; seed 001's lesson.
    #[test]
    fn project_variable_spellings_resolve_to_the_launch_directory() {
        for cmd in [
            "$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh",
            "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/x.sh",
            "\"$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh\"",
            "${CLAUDE_PROJECT_DIR}/.claude/hooks/x.sh --fast",
            "bash \"$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh\"",
            "FOO=1 bash -e $CLAUDE_PROJECT_DIR/.claude/hooks/x.sh && echo done",
        ] {
            let (_, p) = script_of(cmd, &claude(), &path("apps/web")).expect(cmd);
            assert_eq!(p, path("apps/web/.claude/hooks/x.sh"), "{cmd}");
        }
    }

    #[test]
    fn relative_and_plugin_paths_resolve_from_their_base() {
        let (_, p) = script_of("./scripts/guard.py", &claude(), &path("pkg")).unwrap();
        assert_eq!(p, path("pkg/scripts/guard.py"));
        let (_, p) = script_of("node hooks/a.mjs", &claude(), &RepoPath::root()).unwrap();
        assert_eq!(p, path("hooks/a.mjs"));
        let dir = path("plugins/p");
        let t = Tokens {
            project: &[],
            plugin: Some(("CLAUDE_PLUGIN_ROOT", &dir)),
        };
        let (_, p) =
            script_of("${CLAUDE_PLUGIN_ROOT}/hooks/run.sh", &t, &RepoPath::root()).unwrap();
        assert_eq!(p, path("plugins/p/hooks/run.sh"));
    }

    /// Nothing from the analyser's machine is guessed: another variable,
    /// a home path, an absolute path, a path leaving the repository and a
    /// command on `PATH` name no repository script.
    #[test]
    fn unknowable_paths_name_no_script() {
        for cmd in [
            "$HOME/bin/x.sh",
            "${OTHER}/x.sh",
            "~/x.sh",
            "/usr/local/bin/x.sh",
            "../outside.sh",
            "jq -r .tool_name",
            "npx prettier --check",
            "$CLAUDE_PROJECT_DIRX/x.sh",
        ] {
            assert_eq!(script_of(cmd, &claude(), &RepoPath::root()), None, "{cmd}");
        }
    }

    #[test]
    fn blocks_are_found_in_exit_codes_and_decisions() {
        assert_eq!(block_in("echo no >&2; exit 2"), Some("exits 2"));
        assert_eq!(block_in("exit 20"), None);
        assert!(block_in(r#"echo '{"decision": "block"}'"#).is_some());
        assert!(block_in(r#"{"permissionDecision": "deny"}"#).is_some());
        assert_eq!(block_in("exit 0"), None);
    }

    #[test]
    fn only_plain_foreign_tool_names_are_foreign() {
        let tools = &["Bash", "apply_patch"];
        assert!(foreign_tools("Write|Edit", tools).is_some());
        assert!(foreign_tools("Bash|Edit", tools).is_none());
        assert!(foreign_tools("mcp__github", tools).is_none());
        assert!(foreign_tools("Wri.*", tools).is_none());
    }
}

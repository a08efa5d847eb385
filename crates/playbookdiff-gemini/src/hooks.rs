//! Hooks: the `hooks` object of the launch directory's
//! `.gemini/settings.json`.
//!
//! Read in Gemini CLI's code (`HookRegistry` and `HookEventName` in
//! `@google/gemini-cli-core`, `packages/core/src/hooks/`, the same in
//! 0.34.0 and 0.61.0): Claude Code's shape of matcher groups, under
//! Gemini CLI's own event names; the keys `enabled`, `disabled` and
//! `notifications` are settings, not events; an unknown event is skipped
//! with a warning; `hooksConfig.enabled: false` turns every hook off and
//! `hooksConfig.disabled` lists hooks (by `name`, else command) to skip.
//! Project hooks run only in a trusted folder (the analysis assumes one:
//! an untrusted headless run of 0.61 stops, and 0.34 trusts by default),
//! with the project directory as working directory and in
//! `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`; seen with 0.61.0 (a
//! `BeforeAgent` hook ran in the project directory).
//!
//! In local mode an active extension's `hooks/hooks.json` adds its
//! `hooks` object (`ExtensionManager.loadExtensionHooks`, both profiled
//! releases; a `hooks` key of `gemini-extension.json` is not read),
//! registered after the settings' hooks (`processHooksFromConfig`),
//! whatever the folder's trust, only while `hooksConfig.enabled` holds,
//! and skipped by `hooksConfig.disabled` as the settings' hooks are; a
//! `${extensionPath}` script (the extension's folder) is not looked up,
//! as a Claude Code plugin's on the machine is not. Seen with 0.34.0
//! and 0.61.0 on case `oracle.local_gemini_extensions.home-gemini-extensions`.

use crate::extensions::Extension;
use crate::settings::{self, Settings, Workspace};
use crate::{Cx, HARNESS, READ_LIMIT};
use playbookdiff_adapter::hooks::{self, Events, Layout, Registration, Tokens};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Hook, HookTrigger, Severity, SourceFormat,
    SourceRef, SourceScope, Verdict,
};
use playbookdiff_source::{Machine, SourceError};
use serde_json::Value;

/// Gemini CLI's events with their cross-harness meaning: the one table
/// of its events (`HookEventName`). `BeforeAgent` fires once the user
/// submitted a prompt, before planning; `AfterAgent` when the agent loop
/// ends; `PreCompress` before the history is compressed.
const TRIGGERS: &[(&str, Option<HookTrigger>)] = &[
    ("BeforeTool", Some(HookTrigger::PreToolUse)),
    ("AfterTool", Some(HookTrigger::PostToolUse)),
    ("BeforeAgent", Some(HookTrigger::UserPromptSubmit)),
    ("Notification", Some(HookTrigger::Notification)),
    ("AfterAgent", Some(HookTrigger::Stop)),
    ("SessionStart", Some(HookTrigger::SessionStart)),
    ("SessionEnd", Some(HookTrigger::SessionEnd)),
    ("PreCompress", Some(HookTrigger::PreCompact)),
    ("BeforeModel", None),
    ("AfterModel", None),
    ("BeforeToolSelection", None),
];

/// Keys of `hooks` that are settings, not events (`HOOKS_CONFIG_FIELDS`).
const CONFIG_FIELDS: &[&str] = &["enabled", "disabled", "notifications"];

/// The events, and those whose matcher is a tool name (`matchesToolName`
/// in `hookPlanner`). Gemini CLI's tool names (`write_file`, `replace`,
/// `run_shell_command`, ...) are not checked.
const EVENTS: Events = Events {
    known: &[],
    tool_events: &["BeforeTool", "AfterTool"],
    matcherless: &[],
    cannot_block: &[],
    tools: &[],
    triggers: TRIGGERS,
};

/// The variables Gemini CLI sets to the project directory in a hook's
/// environment and replaces in its command (`HookRunner`).
const PROJECT_TOKENS: &[&str] = &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_CWD"];

/// The Gemini CLI equivalent of `trigger`, when it has one (read from
/// [`TRIGGERS`]).
pub(crate) fn event_of(trigger: HookTrigger) -> Option<&'static str> {
    TRIGGERS
        .iter()
        .find(|(_, t)| *t == Some(trigger))
        .map(|(e, _)| *e)
}

/// The hooks of every settings file of `all`, in the order Gemini CLI
/// concatenates each event's list (`mergeSettings`, `CONCAT` for every
/// event in both profiled releases' `settingsSchema`): system defaults,
/// user, workspace, system. The merged object is registered as one
/// source (`processHooksFromConfig`: `config.getHooks()` is
/// `settings.merged.hooks`), so a user's or a system hook runs, as the
/// workspace's do, in a trusted folder (assumed) and in the project
/// directory; `hooksConfig.enabled` is the merged value and
/// `hooksConfig.disabled` the union of every file's list (`UNION`).
/// Then the hooks of each active extension of `exts` (local mode, read
/// on `machine`; see the module docs). Repo mode reads the workspace
/// file alone (the others are empty, and `exts` too).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    all: &Settings,
    (machine, exts): (Option<&Machine>, &[Extension]),
    version: &str,
) -> Vec<Hook> {
    let runs = runs(all);
    let mut out = Vec::new();
    let settings = [&all.defaults, &all.user, &all.workspace, &all.system];
    for file in settings {
        if let Some(source) = file.source(&[]) {
            out.extend(Layer::settings(file, source, version).read(cx, &runs));
        }
    }
    let ext_files = machine.map_or_else(Vec::new, |m| extension_files(cx, m, exts));
    for (ext, file) in &ext_files {
        if let Some(source) = file.source(&[]) {
            let source = source.in_plugin(&ext.key());
            out.extend(Layer::extension(ext, file, source, version).read(cx, &runs));
        }
    }
    let files: Vec<&Workspace> = settings
        .into_iter()
        .chain(ext_files.iter().map(|(_, f)| f))
        .collect();
    skip_disabled(all, &files, &mut out);
    out
}

/// One file that registers hooks, with how Gemini CLI runs them.
struct Layer<'a> {
    /// The file, parsed with the lines of each key.
    file: &'a Workspace,
    /// The file as a source, in its layer.
    source: SourceRef,
    /// The release's words, e.g. `Gemini CLI 0.61.0`.
    release: String,
    /// Why they may run: their file and the folder they run in.
    reason: String,
}

impl<'a> Layer<'a> {
    /// The settings file `file`, whose source is `source`.
    fn settings(file: &'a Workspace, source: SourceRef, version: &str) -> Layer<'a> {
        let reason = format!(
            "Registered in `{}`, {}; Gemini CLI runs {} hooks in a trusted folder (assumed), in the project directory.",
            source.path,
            layer_words(source.scope),
            if source.scope == SourceScope::Project { "project" } else { "them with the project's" }
        );
        Layer {
            file,
            source,
            release: format!("Gemini CLI {version}"),
            reason,
        }
    }

    /// The `hooks/hooks.json` `file` of the extension `ext`, whose source
    /// (in the extension's layer) is `source`.
    fn extension(
        ext: &Extension,
        file: &'a Workspace,
        source: SourceRef,
        version: &str,
    ) -> Layer<'a> {
        let reason = format!(
            "Registered in `{}`, the hooks of the user's extension `{}`; Gemini CLI runs an extension's hooks whatever the folder's trust, in the project directory.",
            source.path, ext.name
        );
        Layer {
            file,
            source,
            release: format!("Gemini CLI {version}"),
            reason,
        }
    }

    /// The hooks of the file's `hooks` object, each running as `runs`
    /// says.
    fn read(&self, cx: &mut Cx<'_, '_>, runs: &Verdict) -> Vec<Hook> {
        let Some(value) = self.file.get(&["hooks"]) else {
            return Vec::new();
        };
        let events = match value.as_object() {
            Some(o) => Value::Object(
                o.iter()
                    .filter(|(k, _)| !CONFIG_FIELDS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            None => value.clone(),
        };
        let lines = |p: &[&str]| self.file.span(p);
        let ctx = cx.context;
        let reg = Registration {
            harness: HARNESS,
            release: &self.release,
            source: &self.source,
            prefix: &["hooks"],
            lines: &lines,
            events: &EVENTS,
            tokens: Tokens {
                project: PROJECT_TOKENS,
                plugin: None,
            },
            cwd: &ctx.cwd,
            layout: Layout::Groups,
            runs: runs.clone(),
            applicability: Applicability::Effective,
            reason: &self.reason,
        };
        hooks::read(cx, &reg, &events)
    }
}

/// The hooks file of an extension, in its folder.
const EXTENSION_HOOKS: &str = "hooks/hooks.json";

/// The `hooks/hooks.json` of each active extension of `exts` that has
/// one whose `hooks` is an object ([`hooks_file`]).
fn extension_files<'e>(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    exts: &'e [Extension],
) -> Vec<(&'e Extension, Workspace)> {
    exts.iter()
        .filter(|e| e.active())
        .filter_map(|e| hooks_file(cx, machine, e).map(|w| (e, w)))
        .collect()
}

/// The `hooks/hooks.json` of `ext` on `machine`, when it exists and its
/// `hooks` is an object; one that is not JSON or whose `hooks` is not an
/// object is reported, as Gemini CLI warns ("Invalid hooks
/// configuration") and runs none of its hooks.
fn hooks_file(cx: &mut Cx<'_, '_>, machine: &Machine, ext: &Extension) -> Option<Workspace> {
    let path = ext.file(EXTENSION_HOOKS)?;
    let effect = "Gemini CLI warns and runs none of this extension's hooks";
    let text = match machine.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => return None,
        Err(e) => {
            cx.diag(problems::read_error(&path, &e, effect, SourceFormat::Json));
            return None;
        }
    };
    let file = match settings::parse_manifest(path.clone(), &text.text) {
        Ok(w) => w,
        Err(e) => {
            let d = problems::invalid_syntax(&path, "JSON", &e, effect, SourceFormat::Json);
            cx.diag(d.with_severity(Severity::Warning));
            return None;
        }
    };
    if let Some(Value::Object(_)) = file.get(&["hooks"]) {
        return Some(file);
    }
    let at = file.source(&["hooks"]).or_else(|| file.source(&[]));
    let mut d = Diagnostic::new(
        DiagnosticCode::InvalidValue,
        format!(
            "{} has no `hooks` object (\"Invalid hooks configuration\"): {effect}. Put the hooks under a `hooks` object.",
            problems::quote(&path)
        ),
    );
    if let Some(at) = at {
        d = d.at(at.in_plugin(&ext.key()));
    }
    cx.diag(d);
    None
}

/// The words for the settings layer of a file of `scope`.
fn layer_words(scope: SourceScope) -> &'static str {
    match scope {
        SourceScope::User => "the user's settings",
        SourceScope::Managed => "a system settings file",
        _ => "the launch directory's workspace settings",
    }
}

/// `no` when the merged `hooksConfig.enabled` is false (the system's
/// value, else the workspace's, the user's, the system defaults'), else
/// `yes`.
fn runs(all: &Settings) -> Verdict {
    if all.get(&["hooksConfig", "enabled"]) == Some(&Value::Bool(false)) {
        let source = all
            .by_precedence()
            .into_iter()
            .find(|f| f.get(&["hooksConfig", "enabled"]).is_some())
            .and_then(|f| f.source(&["hooksConfig", "enabled"]));
        let path = source
            .as_ref()
            .map(|s| s.path.to_string())
            .unwrap_or_default();
        return Verdict::No {
            reason: format!("`hooksConfig.enabled: false` in `{path}` turns hooks off"),
            source,
        };
    }
    Verdict::Yes
}

/// Marks the hooks that a `hooksConfig.disabled` list of any file names
/// as not running, with the file that names it. A list names a hook by
/// its `name` when it has one, else by its command: Gemini CLI's
/// `getHookName` (`packages/core/src/hooks/hookRegistry.ts`, the same in
/// 0.34.0 and 0.61.0) is `name || command`, so a named hook whose
/// command is listed still runs (seen with both releases, case
/// `oracle.local_gemini_hooks.home-gemini-hook-names`).
fn skip_disabled(all: &Settings, files: &[&Workspace], out: &mut [Hook]) {
    let keys: Vec<Option<String>> = out.iter().map(|h| disabled_key(files, h)).collect();
    for file in all.by_precedence() {
        let Some(names) = file
            .get(&["hooksConfig", "disabled"])
            .and_then(Value::as_array)
        else {
            continue;
        };
        let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
        let source = file.source(&["hooksConfig", "disabled"]);
        let path = source
            .as_ref()
            .map(|s| s.path.to_string())
            .unwrap_or_default();
        for (h, key) in out.iter_mut().zip(&keys) {
            if !h.runs.may_apply() || !key.as_deref().is_some_and(|k| names.contains(&k)) {
                continue;
            }
            let reason = match file.source(&[]).map(|s| s.scope) {
                Some(SourceScope::Project) => "`hooksConfig.disabled` names it".to_string(),
                _ => format!("`hooksConfig.disabled` in `{path}` names it"),
            };
            h.runs = Verdict::No {
                reason,
                source: source.clone(),
            };
        }
    }
}

/// The name `hooksConfig.disabled` matches for hook `h` (`getHookName`):
/// its handler's `name` when a non-empty string, else its command. The
/// handler is found in the file of `files` that registers it by the event and the
/// position its id ends with (`…:EVENT:GROUP:HANDLER`).
fn disabled_key(files: &[&Workspace], h: &Hook) -> Option<String> {
    let file = files
        .iter()
        .find(|f| f.source(&[]).is_some_and(|s| s.path == h.source.path))?;
    let mut tail = h.id.rsplitn(3, ':');
    let j: usize = tail.next()?.parse().ok()?;
    let i: usize = tail.next()?.parse().ok()?;
    let group = file.get(&["hooks", &h.event])?.get(i)?;
    let handler = group.get("hooks").map_or(Some(group), |hs| hs.get(j))?;
    match handler.get("name").and_then(Value::as_str) {
        Some(name) if !name.is_empty() => Some(name.to_string()),
        _ => h.handler.command.clone(),
    }
}

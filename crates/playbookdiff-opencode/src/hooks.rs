//! Hooks of the plugin modules and the `permission` setting.
//!
//! OpenCode 1.18.33 (`config/plugin.ts`; `opencode debug config` lists a
//! `.opencode/plugin/*.js|ts` module as `plugin: ["file:///..."]`, scope
//! `local`; `--pure` skips local plugins): a plugin is a module OpenCode
//! imports and runs, whose returned object names the events it handles
//! (`tool.execute.before(input, output)` sees every tool call and blocks
//! one by throwing, the guard the surfaces and guard reference ran). The
//! module is code and is never run here: each hook name written in it is
//! found in its text, with its line, and mapped to the event of the same
//! meaning in other harnesses.
//!
//! In local mode the plugin modules of the user's global configuration
//! directory (`plugin/`, `plugins/`; [`crate::user::config_dir`]) are
//! read the same way, before the project's: `opencode debug config` lists
//! them (seen with 1.18.33, case
//! `oracle.local_user_layers.home-opencode-config`).

use crate::config::Layer;
use crate::walk::{self, Opts};
use crate::{Cx, Walk, HARNESS, READ_LIMIT};
use playbookdiff_model::{
    ActionKind, Applicability, Diagnostic, DiagnosticCode, Hook, HookHandler, HookScript,
    HookTrigger, LoadPhase, PermissionEffect, PermissionScope, PermissionSetting, RepoPath,
    SourceFormat, SourceRef, SourceScope, Verdict,
};
use playbookdiff_source::{Machine, TextFile};
use serde_json::Value;

/// The plugin hook names OpenCode calls, with the trigger of the same
/// meaning (OpenCode plugins documentation, "Events"; `@opencode-ai/plugin`
/// `Hooks`). `event` handlers see the bus events named after it
/// (`session.created`), found as text too.
const HOOK_NAMES: &[(&str, Option<HookTrigger>)] = &[
    ("tool.execute.before", Some(HookTrigger::PreToolUse)),
    ("tool.execute.after", Some(HookTrigger::PostToolUse)),
    ("permission.ask", Some(HookTrigger::PermissionRequest)),
    ("chat.message", Some(HookTrigger::UserPromptSubmit)),
    ("chat.params", None),
    ("shell.env", None),
    (
        "experimental.session.compacting",
        Some(HookTrigger::PreCompact),
    ),
    ("session.created", Some(HookTrigger::SessionStart)),
    ("session.idle", Some(HookTrigger::Stop)),
    ("session.compacted", Some(HookTrigger::PostCompact)),
];

/// Every hook of the plugin modules of the `.opencode` directories from
/// cwd up to the worktree, and the `permission` settings of `layers`.
/// In local mode (a `machine`), the hooks of the user's global plugin
/// modules come first.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    layers: &[Layer],
    machine: Option<&Machine>,
) -> (Vec<Hook>, Vec<PermissionSetting>) {
    let mut hooks = machine.map(user_hooks).unwrap_or_default();
    for dir in cx.up_chain() {
        for sub in [".opencode/plugin", ".opencode/plugins"] {
            let Some(root) = dir.join(sub) else { continue };
            let w = walk::files(
                cx,
                &root,
                Opts {
                    dot: true,
                    follow: true,
                    max_depth: Some(0),
                },
                &|rel| rel.ends_with(".ts") || rel.ends_with(".js"),
            );
            for f in w.files {
                if let Ok(text) = cx.repo.read_text(&f.path, READ_LIMIT) {
                    hooks.extend(module_hooks(&f.path, &text));
                }
            }
        }
    }
    if !hooks.is_empty() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::HookNotModelled,
            "OpenCode plugin modules are code: the analysis lists the hook names written in them (`tool.execute.before`, `session.created`, ...) and never runs them, so what each handler does and which tools it checks are not known; review them by hand.",
        ));
    }
    let permissions = layers.iter().flat_map(permissions).collect();
    (hooks, permissions)
}

/// The hooks of the plugin modules in the user's global configuration
/// directory, `~/.opencode` and `$OPENCODE_CONFIG_DIR` on `machine`, in
/// that order.
fn user_hooks(machine: &Machine) -> Vec<Hook> {
    let dirs = [
        crate::user::config_dir(machine),
        crate::config::home_dir(),
        crate::user::env_dir(machine),
    ];
    dirs.into_iter()
        .flatten()
        .flat_map(|dir| dir_hooks(machine, &dir))
        .collect()
}

/// The hooks of the plugin modules in the user's directory `dir`
/// (`plugin/`, `plugins/`) on `machine`, by path.
fn dir_hooks(machine: &Machine, dir: &RepoPath) -> Vec<Hook> {
    let scan = crate::user::Scan {
        dot: true,
        max_depth: Some(0),
    };
    let mut out = Vec::new();
    for sub in ["plugin", "plugins"] {
        let Some(root) = dir.join(sub) else { continue };
        let modules = crate::user::files_below(machine, &root, scan, &|rel| {
            rel.ends_with(".ts") || rel.ends_with(".js")
        });
        for (path, _) in modules {
            if let Ok(text) = machine.read_text(&path, READ_LIMIT) {
                out.extend(module_hooks(&path, &text));
            }
        }
    }
    out
}

/// The hooks named in the module at `path` holding `text`, in the order
/// of the names.
fn module_hooks(path: &RepoPath, text: &TextFile) -> Vec<Hook> {
    let mut out = Vec::new();
    for (name, trigger) in HOOK_NAMES {
        let Some(at) = text.text.find(name) else {
            continue;
        };
        let line = text.line_of(at);
        out.push(Hook {
            id: format!("{}:hook:{path}:{name}:0:0", HARNESS.as_str()),
            event: name.to_string(),
            trigger: *trigger,
            matcher: None,
            handler: HookHandler {
                kind: "module".to_string(),
                command: None,
                timeout_seconds: None,
            },
            source: SourceRef {
                scope: SourceScope::of_path(path),
                ..SourceRef::project(path.clone(), SourceFormat::Code)
            }
            .with_lines(line, line),
            script: Some(HookScript {
                written: path.to_string(),
                path: path.clone(),
                present: true,
            }),
            runs: Verdict::Yes,
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: format!(
                "`{path}` is a plugin OpenCode imports at startup (not with --pure); it names `{name}`."
            ),
        });
    }
    out
}

/// The `permission` setting of `layer`: one entry per action (`edit`,
/// `bash`, a `bash` pattern), or one for the whole string form.
fn permissions(layer: &Layer) -> Vec<PermissionSetting> {
    let Some(v) = layer.get(&["permission"]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match v {
        Value::String(s) => out.extend(rule(layer, "permission".into(), s, &["permission"])),
        Value::Object(actions) => {
            for (action, v) in actions {
                let key = format!("permission.{action}");
                match v {
                    Value::String(s) => {
                        out.extend(rule(layer, key, s, &["permission", action]));
                    }
                    Value::Object(patterns) => {
                        for (pattern, v) in patterns {
                            if let Some(s) = v.as_str() {
                                let at = ["permission", action.as_str(), pattern.as_str()];
                                out.extend(rule(layer, format!("{key}.{pattern}"), s, &at));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    out
}

fn rule(layer: &Layer, key: String, value: &str, at: &[&str]) -> Option<PermissionSetting> {
    let effect = match value {
        "allow" => PermissionEffect::Allow,
        "deny" => PermissionEffect::Deny,
        "ask" => PermissionEffect::Ask,
        _ => return None,
    };
    Some(PermissionSetting {
        id: format!(
            "{}:permission:{}:{key}:{value}",
            HARNESS.as_str(),
            layer.path
        ),
        key,
        value: value.to_string(),
        effect,
        source: layer.source(at),
        honoured: Verdict::Unknown {
            reason: "not observed with OpenCode 1.18.33".into(),
        },
        denies: (effect == PermissionEffect::Deny)
            .then(|| deny_scope(at))
            .flatten(),
    })
}

/// What a deny at `at` (`["permission", action]` or `["permission",
/// action, pattern]`) refuses in terms other harnesses share (OpenCode
/// documentation, "permissions": `bash` patterns are commands with `*`
/// wildcards, `edit` and `read` patterns are paths): a `bash` pattern
/// ending in ` *` or `*` is a command prefix; one with another wildcard,
/// and actions other than `bash`, `read`, `edit` and `webfetch`, have no
/// shared meaning.
fn deny_scope(at: &[&str]) -> Option<PermissionScope> {
    let action = match *at.get(1)? {
        "bash" => ActionKind::Shell,
        "read" => ActionKind::Read,
        "edit" => ActionKind::Edit,
        "webfetch" => ActionKind::WebFetch,
        _ => return None,
    };
    let pattern = match at.get(2).copied().filter(|p| *p != "*") {
        None => None,
        Some(p) if action == ActionKind::Shell => {
            let prefix = p.strip_suffix('*').unwrap_or(p).trim_end();
            if prefix.contains('*') || prefix.is_empty() {
                return None;
            }
            Some(prefix.to_string())
        }
        Some(p) => Some(p.strip_prefix("./").unwrap_or(p).to_string()),
    };
    Some(PermissionScope { action, pattern })
}

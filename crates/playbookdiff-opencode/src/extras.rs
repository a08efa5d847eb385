//! Agents, commands, modes and plugins: loaded by OpenCode, without an
//! item in the model, so each is reported with its source.
//!
//! OpenCode 1.18.33 (`config/agent.ts`, `config/command.ts`,
//! `config/plugin.ts`; shipped code): in every `.opencode` directory from
//! cwd up to the worktree, `{agent,agents}/**/*.md` are agents and
//! `{command,commands}/**/*.md` commands, named by their path below that
//! folder without `.md` (`/name`); `{mode,modes}/*.md` are primary agents;
//! `{plugin,plugins}/*.{ts,js}` are plugins, modules OpenCode imports and
//! runs. Configuration keys `agent`, `command`, `mode` and `plugin` add
//! more. Seen with `opencode debug config`: a command or agent of the
//! root's `.opencode` replaces one of the same name closer to cwd.

use crate::config::Layer;
use crate::walk::{self, Opts};
use crate::{Cx, Walk};
use playbookdiff_adapter::problems;
use playbookdiff_model::{Diagnostic, DiagnosticCode, SourceFormat, SourceRef};

/// Reports every agent, command, mode and plugin of the applicable
/// `.opencode` directories and configuration layers.
pub(crate) fn report(cx: &mut Cx<'_, '_>, layers: &[Layer]) {
    for l in layers {
        for (key, what) in [
            ("agent", "agent"),
            ("mode", "mode (a primary agent)"),
            ("command", "command"),
        ] {
            let Some(map) = l.get(&[key]).and_then(|v| v.as_object()) else {
                continue;
            };
            let mut names: Vec<&String> = map.keys().collect();
            names.sort();
            for name in names {
                let shown = if key == "command" {
                    format!("/{name}")
                } else {
                    name.clone()
                };
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ItemNotModelled,
                        format!("{} defines the OpenCode {what} `{shown}`; agents, commands and modes are not modelled, so it is not compared with other harnesses.", problems::quote(&l.path)),
                    )
                    .at(l.source(&[key, name])),
                );
            }
        }
        if let Some(list) = l.get(&["plugin"]).and_then(|v| v.as_array()) {
            if !list.is_empty() {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ItemNotModelled,
                        format!("{} lists {} in `plugin`; OpenCode installs and runs them at startup, and they can change instructions, tools and MCP servers; review them by hand.", l.path, playbookdiff_model::remedy::count(list.len(), "plugin", "plugins")),
                    )
                    .at(l.source(&["plugin"])),
                );
            }
        }
    }
    for dir in cx.up_chain() {
        let Some(base) = dir.join(".opencode") else {
            continue;
        };
        if !cx.repo.is_dir(&base) {
            continue;
        }
        for (subs, what, depth, ext) in [
            (["agent", "agents"], "agent", None, ".md"),
            (["command", "commands"], "command", None, ".md"),
            (["mode", "modes"], "mode (a primary agent)", Some(0), ".md"),
            (["plugin", "plugins"], "plugin", Some(0), ""),
        ] {
            for sub in subs {
                let Some(root) = base.join(sub) else { continue };
                let w = walk::files(
                    cx,
                    &root,
                    Opts {
                        dot: true,
                        follow: true,
                        max_depth: depth,
                    },
                    &|rel| {
                        if ext.is_empty() {
                            rel.ends_with(".ts") || rel.ends_with(".js")
                        } else {
                            rel.ends_with(ext)
                        }
                    },
                );
                for f in w.files {
                    let msg = if what == "plugin" {
                        format!("{} is an OpenCode plugin: OpenCode imports and runs it at startup, and it can change instructions, tools and MCP servers; review it by hand.", f.path)
                    } else {
                        let name = f.rel.trim_end_matches(".md");
                        let shown = if what == "command" {
                            format!("/{name}")
                        } else {
                            name.to_string()
                        };
                        format!("{} defines the OpenCode {what} `{shown}`; agents, commands and modes are not modelled, so it is not compared with other harnesses.", problems::quote(&f.path))
                    };
                    cx.diag(
                        Diagnostic::new(DiagnosticCode::ItemNotModelled, msg)
                            .at(SourceRef::project(f.path.clone(), SourceFormat::Markdown)),
                    );
                }
            }
        }
    }
}

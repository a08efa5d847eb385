//! Agents, modes and commands, modelled; plugins, reported.
//!
//! OpenCode 1.18.33 (`config/agent.ts`, `config/command.ts`,
//! `config/plugin.ts`; shipped code): in every `.opencode` directory from
//! cwd up to the worktree, `{agent,agents}/**/*.md` are agents and
//! `{command,commands}/**/*.md` commands, named by their path below that
//! folder without `.md` (`/name`), or by the `name` of their front
//! matter; `{mode,modes}/*.md` are primary agents;
//! `{plugin,plugins}/*.{ts,js}` are plugins, modules OpenCode imports and
//! runs. Configuration keys `agent`, `command`, `mode` and `plugin` add
//! more. Seen with `opencode debug config`: a command or agent of the
//! root's `.opencode` replaces one of the same name closer to cwd, and
//! the files are read after the configuration keys.
//!
//! An agent's front matter gives `description`, `mode` (`primary`,
//! `subagent` or `all`, the default), `model`, `tools` (a map from tool to
//! `true`/`false`: `false` takes the tool away) and `disable`. A subagent
//! (`subagent` or `all`) is listed with its description in the `task`
//! tool of the request; a primary one is not. Commands are not in the
//! request: only the user runs them (surfaces reference, 1.18.33).

use crate::config::Layer;
use crate::schema::{self, Schema};
use crate::walk::{self, Opts};
use crate::{user, Cx, Walk};
use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    AgentMode, Applicability, Command, Diagnostic, DiagnosticCode, EffectiveAgentConfig, LoadPhase,
    RepoPath, Severity, SourceFormat, SourceRef, SourceScope, Subagent,
};
use playbookdiff_source::markdown::parse_yaml_with;
use playbookdiff_source::{Machine, TextFile};
use serde_json::{Map, Value};

/// The tool whose description lists the subagents to the model.
const LISTED_BY: &str = "task";

/// OpenCode's own agents and their modes: a configuration key of one of
/// these names configures the built-in agent. Source: `agent/agent.ts`.
const BUILTIN_AGENTS: &[(&str, AgentMode)] = &[
    ("build", AgentMode::Primary),
    ("explore", AgentMode::Subagent),
    ("general", AgentMode::Subagent),
    ("plan", AgentMode::Primary),
];

/// What a definition is: an agent (from `agent`), a primary agent (from
/// `mode`) or a command.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Agent,
    Mode,
    Command,
}

impl Kind {
    /// The configuration key and the `.opencode` folders of the kind, with
    /// how deep the folder is scanned (`None`: recursively).
    fn places(self) -> (&'static str, [&'static str; 2], Option<usize>) {
        match self {
            Kind::Agent => ("agent", ["agent", "agents"], None),
            Kind::Mode => ("mode", ["mode", "modes"], Some(0)),
            Kind::Command => ("command", ["command", "commands"], None),
        }
    }
}

/// One definition found, before precedence.
struct Def {
    kind: Kind,
    name: String,
    source: SourceRef,
    fields: Map<String, Value>,
    /// Where it was found, for the reason.
    from: String,
}

/// Adds the agents, modes and commands of the configuration layers and of
/// the applicable `.opencode` directories to `out`, and reports plugins.
/// `machine` is the user's machine in local mode (`None` in repo mode).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    layers: &[Layer],
    machine: Option<&Machine>,
    out: &mut EffectiveAgentConfig,
) {
    let global = machine.and_then(|m| Some((m, user::config_dir(m)?)));
    // After the project's `.opencode`: the home's, then
    // `$OPENCODE_CONFIG_DIR` (`ConfigPaths.directories`).
    let late: Vec<(&Machine, RepoPath)> = machine
        .into_iter()
        .flat_map(|m| [crate::config::home_dir(), user::env_dir(m)].map(|d| Some((m, d?))))
        .flatten()
        .collect();
    for kind in [Kind::Agent, Kind::Mode, Kind::Command] {
        let mut defs = from_layers(layers, kind);
        if let Some((m, dir)) = &global {
            defs.extend(from_user_files(cx, m, dir, kind));
        }
        defs.extend(from_files(cx, kind));
        for (m, dir) in &late {
            defs.extend(from_user_files(cx, m, dir, kind));
        }
        settle(cx, kind, defs, out);
    }
    report_plugins(cx, layers);
    for (m, dir) in global.iter().chain(&late) {
        report_user_plugins(cx, m, dir);
    }
}

/// The definitions of `kind` in the user's global configuration directory
/// `dir` on `machine`, by path.
fn from_user_files(cx: &mut Cx<'_, '_>, machine: &Machine, dir: &RepoPath, kind: Kind) -> Vec<Def> {
    let (_, subs, depth) = kind.places();
    let scan = user::Scan {
        dot: true,
        max_depth: depth,
    };
    let mut out = Vec::new();
    for sub in subs {
        let Some(root) = dir.join(sub) else { continue };
        for (path, rel) in user::files_below(machine, &root, scan, &|rel| rel.ends_with(".md")) {
            let text = user::read(machine, &path, &mut cx.diags);
            let (source, fields) = front_matter(&path, text.as_deref());
            if decodes(cx, kind, &path, &source, &fields) {
                out.push(definition(
                    kind,
                    (source, fields),
                    &rel,
                    format!("`{root}`"),
                ));
            }
        }
    }
    out
}

/// A definition of `kind` read from the file at `rel` below its folder:
/// named by the front matter's `name` (a command or an agent), else by
/// its path without `.md`.
fn definition(
    kind: Kind,
    (source, fields): (SourceRef, Map<String, Value>),
    rel: &str,
    from: String,
) -> Def {
    let name = match (kind, fields.get("name")) {
        // The front matter `name` of a command or an agent names it
        // (1.18.33 lists the command `ship.md` with `name: FIX` as `FIX`,
        // and the agent `plan.md` with `name: rev` as `rev`: random
        // repositories, `fuzz.opencode.10`, `fuzz.opencode.29`).
        (Kind::Command | Kind::Agent, Some(Value::String(n))) => n.clone(),
        _ => rel.trim_end_matches(".md").to_string(),
    };
    Def {
        kind,
        name,
        source,
        fields,
        from,
    }
}

/// Lists the plugin modules of the user's global configuration directory
/// `dir` (`plugin/` and `plugins/`, `*.ts` and `*.js`): OpenCode imports
/// and runs them; the analysis never does.
fn report_user_plugins(cx: &mut Cx<'_, '_>, machine: &Machine, dir: &RepoPath) {
    let scan = user::Scan {
        dot: true,
        max_depth: Some(0),
    };
    for sub in ["plugin", "plugins"] {
        let Some(root) = dir.join(sub) else { continue };
        for (path, _) in user::files_below(machine, &root, scan, &|rel| {
            rel.ends_with(".ts") || rel.ends_with(".js")
        }) {
            cx.diag(plugin_listed(&path));
        }
    }
}

/// The diagnostic listing the plugin module at `path`.
fn plugin_listed(path: &RepoPath) -> Diagnostic {
    Diagnostic::new(DiagnosticCode::ItemNotModelled, format!("{path} is an OpenCode plugin: OpenCode imports and runs it at startup, and it can change instructions, tools and MCP servers; review it by hand."))
        .at(SourceRef {
            scope: SourceScope::of_path(path),
            ..SourceRef::project(path.clone(), SourceFormat::Markdown)
        })
}

/// The definitions of `kind` in the configuration layers, in layer order.
fn from_layers(layers: &[Layer], kind: Kind) -> Vec<Def> {
    let (key, _, _) = kind.places();
    let mut out = Vec::new();
    for l in layers {
        let Some(map) = l.get(&[key]).and_then(Value::as_object) else {
            continue;
        };
        let mut names: Vec<&String> = map.keys().collect();
        names.sort();
        for name in names {
            out.push(Def {
                kind,
                name: name.clone(),
                source: l.source(&[key, name]),
                fields: map[name].as_object().cloned().unwrap_or_default(),
                from: format!("the `{key}` key of {}", problems::quote(&l.path)),
            });
        }
    }
    out
}

/// The definitions of `kind` in the `.opencode` directories from cwd up,
/// closest first (the root's last, so it wins a name).
fn from_files(cx: &mut Cx<'_, '_>, kind: Kind) -> Vec<Def> {
    let (_, subs, depth) = kind.places();
    let mut out = Vec::new();
    for dir in cx.up_chain() {
        let Some(base) = dir.join(".opencode").filter(|b| cx.repo.is_dir(b)) else {
            continue;
        };
        for sub in subs {
            let Some(root) = base.join(sub) else { continue };
            let opts = Opts {
                dot: true,
                follow: true,
                max_depth: depth,
            };
            let w = walk::files(cx, &root, opts, &|rel| rel.ends_with(".md"));
            for f in w.files {
                let text = cx.repo.read_text(&f.path, READ_LIMIT).ok();
                let (source, fields) = front_matter(&f.path, text.as_deref());
                if !decodes(cx, kind, &f.path, &source, &fields) {
                    continue;
                }
                out.push(definition(
                    kind,
                    (source, fields),
                    &f.rel,
                    format!("`{root}`"),
                ));
            }
        }
    }
    out
}

/// Whether the front matter of the file at `path` decodes with the schema
/// of `kind` ([`schema`]). An agent or command that does not makes
/// OpenCode refuse to start; a mode that does not is skipped (reported).
fn decodes(
    cx: &mut Cx<'_, '_>,
    kind: Kind,
    path: &RepoPath,
    source: &SourceRef,
    fields: &Map<String, Value>,
) -> bool {
    let schema = match kind {
        Kind::Agent | Kind::Mode => Schema::Agent,
        Kind::Command => Schema::Command,
    };
    let Some((key, want)) = schema::mismatch(schema, fields) else {
        return true;
    };
    let at = format!("`{key}` in the front matter of {}", problems::quote(path));
    if kind == Kind::Mode {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SubagentInvalid,
                format!("{at} must be {want}; OpenCode skips this mode."),
            )
            .at(source.clone()),
        );
        return false;
    }
    cx.refuse(
        Diagnostic::new(
            DiagnosticCode::InvalidValue,
            format!("{at} must be {want}; OpenCode checks it against its configuration schema and refuses to start (\"Configuration is invalid\")."),
        )
        .with_severity(Severity::Error)
        .at(source.clone()),
        format!("{at} must be {want}"),
    );
    true
}

/// The front matter of the agent or command file at `path` (its `text`,
/// `None` when unreadable) as a mapping, and the file's source (lines:
/// the front matter; the user's layer for a machine path). A file without
/// valid front matter keeps empty fields.
fn front_matter(path: &RepoPath, text: Option<&TextFile>) -> (SourceRef, Map<String, Value>) {
    let source = SourceRef {
        scope: SourceScope::of_path(path),
        ..SourceRef::project(path.clone(), SourceFormat::Markdown)
    };
    let Some(text) = text else {
        return (source, Map::new());
    };
    let Some((yaml, end_line)) = split_front_matter(&text.text) else {
        return (source, Map::new());
    };
    let source = source.with_lines(1, end_line);
    let fields = match parse_yaml_with(yaml, true) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    (source, fields)
}

/// The YAML of the front matter of `text` as OpenCode splits an agent or
/// command file (gray-matter, js-yaml's YAML 1.2 booleans: `description:
/// yes` is text), with the 1-based line of the closing fence: a
/// byte-order mark skipped, the text opens with `---` not followed by
/// another `-`, and the first later line that starts with `---` closes it
/// (`----` too, YAML's `...` not: seen with 1.18.33, case
/// `opencode.agent_edges`). `None` when there is no front matter.
pub(crate) fn split_front_matter(text: &str) -> Option<(&str, u32)> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = t.strip_prefix("---").filter(|r| !r.starts_with('-'))?;
    let body = &rest[rest.find('\n')?..];
    let close = body.find("\n---")?;
    let yaml = body.get(1..close).unwrap_or("");
    let end_line = 2 + body[..close].matches('\n').count() as u32;
    Some((yaml.strip_suffix('\r').unwrap_or(yaml), end_line))
}

/// Decides which definition of each name wins (the last read) and adds
/// every definition to `out`, the losers shadowed.
fn settle(cx: &mut Cx<'_, '_>, kind: Kind, defs: Vec<Def>, out: &mut EffectiveAgentConfig) {
    let mut last: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, d) in defs.iter().enumerate() {
        last.insert(d.name.clone(), i);
    }
    for (i, d) in defs.iter().enumerate() {
        let winner = &defs[last[&d.name]];
        let shadowed = last[&d.name] != i;
        if shadowed {
            duplicate(cx, d, winner);
        }
        match kind {
            Kind::Command => out.commands.push(command(d, shadowed, winner)),
            Kind::Agent | Kind::Mode => out.subagents.push(subagent(d, shadowed, winner)),
        }
    }
}

/// Reports that `loser` shares its name with `winner`, which OpenCode keeps.
fn duplicate(cx: &mut Cx<'_, '_>, loser: &Def, winner: &Def) {
    let what = if loser.kind == Kind::Command {
        "command"
    } else {
        "agent"
    };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::SubagentDuplicate,
            format!(
                "{} and {} both define the OpenCode {what} `{}`; OpenCode keeps the one read last, {}.",
                problems::quote(&loser.source.path),
                problems::quote(&winner.source.path),
                loser.name,
                problems::quote(&winner.source.path)
            ),
        )
        .at(loser.source.clone()),
    );
}

fn text(fields: &Map<String, Value>, key: &str) -> Option<String> {
    fields.get(key).and_then(Value::as_str).map(str::to_string)
}

/// Who may call agent `d`: its `mode`, else the built-in's, else `all`; a
/// definition of the `mode` key or folder is primary.
fn mode(d: &Def) -> AgentMode {
    if d.kind == Kind::Mode {
        return AgentMode::Primary;
    }
    match d.fields.get("mode").and_then(Value::as_str) {
        Some("primary") => AgentMode::Primary,
        Some("subagent") => AgentMode::Subagent,
        Some(_) => AgentMode::All,
        None => BUILTIN_AGENTS
            .iter()
            .find(|(n, _)| *n == d.name)
            .map(|(_, m)| *m)
            .unwrap_or(AgentMode::All),
    }
}

/// The applicability and reason of a definition.
fn placed(d: &Def, shadowed: bool, winner: &Def, listed: &str) -> (Applicability, String) {
    if shadowed {
        return (
            Applicability::Shadowed,
            format!(
                "defined in {}; {} defines the same name and is read later, so it wins",
                d.from,
                problems::quote(&winner.source.path)
            ),
        );
    }
    if d.fields.get("disable") == Some(&Value::Bool(true)) {
        return (
            Applicability::Excluded,
            format!("defined in {}, and `disable: true` turns it off", d.from),
        );
    }
    (
        Applicability::Effective,
        format!("defined in {}; {listed}", d.from),
    )
}

fn subagent(d: &Def, shadowed: bool, winner: &Def) -> Subagent {
    let mode = mode(d);
    let listed = if mode.callable() {
        "listed to the model with its description in the `task` tool"
    } else {
        "a primary agent the user switches to, not listed to the model"
    };
    let (applicability, reason) = placed(d, shadowed, winner, listed);
    let tools = d.fields.get("tools").and_then(Value::as_object);
    let off = |on: bool| -> Vec<String> {
        tools
            .into_iter()
            .flatten()
            .filter(|(_, v)| v.as_bool() == Some(on))
            .map(|(k, _)| k.clone())
            .collect()
    };
    Subagent {
        id: format!("opencode:subagent:{}#{}", d.source.path, d.name),
        name: d.name.clone(),
        source: d.source.clone(),
        load_phase: LoadPhase::Startup,
        applicability,
        reason,
        mode,
        description: text(&d.fields, "description"),
        tools: None,
        disallowed_tools: off(false),
        model: text(&d.fields, "model"),
        listed_by: mode.callable().then(|| LISTED_BY.to_string()),
        plugin: None,
    }
}

fn command(d: &Def, shadowed: bool, winner: &Def) -> Command {
    let listed = "the user runs it as `/NAME`; it is not in the request";
    let (applicability, reason) = placed(d, shadowed, winner, listed);
    Command {
        id: format!("opencode:command:{}#{}", d.source.path, d.name),
        name: d.name.clone(),
        source: d.source.clone(),
        load_phase: LoadPhase::Startup,
        applicability,
        reason: reason.replace("NAME", &d.name),
        description: text(&d.fields, "description"),
        agent: text(&d.fields, "agent"),
        model: text(&d.fields, "model"),
        listed_to_model: false,
    }
}

/// Reports every plugin of the configuration layers and of the `.opencode`
/// directories: modules OpenCode runs, whose effect is not modelled.
fn report_plugins(cx: &mut Cx<'_, '_>, layers: &[Layer]) {
    for l in layers {
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
        let Some(base) = dir.join(".opencode").filter(|b| cx.repo.is_dir(b)) else {
            continue;
        };
        for sub in ["plugin", "plugins"] {
            let Some(root) = base.join(sub) else { continue };
            let opts = Opts {
                dot: true,
                follow: true,
                max_depth: Some(0),
            };
            let w = walk::files(cx, &root, opts, &|rel| {
                rel.ends_with(".ts") || rel.ends_with(".js")
            });
            for f in w.files {
                cx.diag(plugin_listed(&f.path));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_front_matter;

    /// gray-matter's split: where front matter opens, what closes it, the
    /// line of the closing fence.
    #[test]
    fn front_matter_as_gray_matter_splits_it() {
        let cases: &[(&str, Option<(&str, u32)>)] = &[
            ("---\nmode: all\n---\nbody", Some(("mode: all", 3))),
            ("\u{feff}---\nmode: all\n---\n", Some(("mode: all", 3))),
            ("---\r\nmode: all\r\n---\r\n", Some(("mode: all", 3))),
            ("---\na: 1\nb: 2\n----\n", Some(("a: 1\nb: 2", 4))),
            ("---\n---\n", Some(("", 2))),
            ("---\na: 1\n...\n", None),
            ("----\na: 1\n---\n", None),
            ("\n---\na: 1\n---\n", None),
        ];
        for (text, want) in cases {
            assert_eq!(split_front_matter(text), *want, "{text:?}");
        }
    }
}

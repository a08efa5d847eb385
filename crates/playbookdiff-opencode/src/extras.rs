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
//! more. OpenCode merges every definition of one name (`mergeDeep`, in
//! `Config.loadInstanceState`): agents, modes and the `mode` key into one
//! agent, commands into one command, a later read's fields winning and
//! the fields only an earlier one sets kept. A directory's files are read
//! after its own `opencode.json`, the root's `.opencode` after those
//! closer to cwd (seen with `opencode debug config`).
//!
//! An agent's front matter gives `description`, `mode` (`primary`,
//! `subagent` or `all`, the default), `model`, `tools` (a map from tool to
//! `true`/`false`: `false` takes the tool away) and `disable`. A subagent
//! (`subagent` or `all`) is listed with its description in the `task`
//! tool of the request; a primary one is not. Commands are not in the
//! request: only the user runs them (surfaces reference, 1.18.33).
//!
//! Releases before 1.1.11 read the singular folders only and refuse to
//! start on a plural one ([`PluralFolders`]); 1.1.11 names a file in a
//! subfolder of a plural folder by its file name alone ([`PluralNesting`]).

use crate::config::{merge_deep, Layer};
use crate::profile::{PluralFolders, PluralNesting, Profile};
use crate::schema::{self, Schema};
use crate::walk::{self, Opts};
use crate::{user, Cx, Walk};
use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    AgentMode, Applicability, Command, Diagnostic, DiagnosticCode, EffectiveAgentConfig, LoadPhase,
    RepoPath, Severity, SourceFormat, SourceRef, SourceScope, Subagent,
};
use playbookdiff_source::markdown::parse_yaml_with;
use playbookdiff_source::{EntryKind, Machine, TextFile};
use serde_json::{Map, Value};
use std::collections::HashMap;

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

    /// The fields a definition of this kind brings to the merge: a mode
    /// (a file of the mode folders, an entry of the `mode` key) is
    /// `mode: primary` whatever it says (1.18.33: `{...mode, mode:
    /// "primary"}`).
    fn fields(self, mut fields: Map<String, Value>) -> Map<String, Value> {
        if self == Kind::Mode {
            fields.insert("mode".into(), Value::from("primary"));
        }
        fields
    }
}

/// One definition found, before the merge.
struct Def {
    kind: Kind,
    name: String,
    source: SourceRef,
    /// Its fields; a mode's `mode` is `primary`, as OpenCode sets it.
    fields: Map<String, Value>,
    /// Where it was found, for the reason.
    from: String,
    /// The read it comes from (one configuration file, one folder scan):
    /// a later definition of the same read replaces it, one of a later
    /// read is merged over it.
    read: usize,
}

/// A name space of definitions: OpenCode merges agents, modes and the
/// `mode` key into one `agent` map, and commands into another.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Space {
    Agents,
    Commands,
}

impl Space {
    /// The kinds read from each directory, in OpenCode's order.
    fn kinds(self) -> &'static [Kind] {
        match self {
            Space::Agents => &[Kind::Agent, Kind::Mode],
            Space::Commands => &[Kind::Command],
        }
    }

    /// The kind of the configuration key merged with each layer.
    fn key(self) -> Kind {
        match self {
            Space::Agents => Kind::Agent,
            Space::Commands => Kind::Command,
        }
    }
}

/// The user's directories read in local mode, each with the machine
/// holding it: the global configuration directory, and those read after
/// the project's `.opencode` (`~/.opencode`, then `$OPENCODE_CONFIG_DIR`;
/// 1.18.33 `ConfigPaths.directories`).
struct UserDirs<'m> {
    global: Option<(&'m Machine, RepoPath)>,
    late: Vec<(&'m Machine, RepoPath)>,
}

/// The directories read after the project's `.opencode` on `machine`
/// (none in repo mode): `~/.opencode`, then `$OPENCODE_CONFIG_DIR` when
/// set.
fn late_dirs(machine: Option<&Machine>) -> Vec<(&Machine, RepoPath)> {
    let dirs = |m: &Machine| [crate::config::home_dir(), user::env_dir(m)];
    machine
        .into_iter()
        .flat_map(|m| dirs(m).map(|d| Some((m, d?))))
        .flatten()
        .collect()
}

/// Adds the agents, modes and commands of the configuration layers and of
/// the applicable `.opencode` directories to `out`, and reports plugins.
/// `machine` is the user's machine in local mode (`None` in repo mode).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    layers: &[Layer],
    machine: Option<&Machine>,
    facts: &Profile,
    out: &mut EffectiveAgentConfig,
) {
    let user = UserDirs {
        global: machine.and_then(|m| Some((m, user::config_dir(m)?))),
        late: late_dirs(machine),
    };
    if facts.plural_folders == PluralFolders::Refused {
        refuse_plural_folders(cx, &user);
    }
    for space in [Space::Agents, Space::Commands] {
        let defs = in_merge_order(cx, layers, &user, (space, facts));
        settle(cx, defs, out);
    }
    report_plugins(cx, layers);
    for (m, dir) in user.global.iter().chain(&user.late) {
        report_user_plugins(cx, m, dir);
    }
}

/// The definitions of `space` in the order OpenCode 1.18.33 merges them
/// (`Config.loadInstanceState`, `config/config.ts`: `mergeDeep` of each
/// read into the `agent` or `command` map): the key of the global and
/// project configuration files; then directory by directory
/// (`ConfigPaths.directories`: the global configuration directory, each
/// `.opencode` from cwd up to the worktree, `~/.opencode`) the
/// directory's own `opencode.json(c)`, its agent (or command) files and
/// its mode files; then the managed files; last, for agents, the `mode`
/// key of every layer (merged with `mode: primary`).
fn in_merge_order(
    cx: &mut Cx<'_, '_>,
    layers: &[Layer],
    user: &UserDirs<'_>,
    (space, facts): (Space, &Profile),
) -> Vec<Def> {
    let dots = dot_dirs(cx);
    let managed = crate::config::managed_dir();
    let late = user.late.iter().map(|(_, d)| d);
    let later: Vec<&RepoPath> = dots.iter().chain(late).chain(&managed).collect();
    let in_dir = |l: &Layer, dir: Option<&RepoPath>| l.path.parent().as_ref() == dir;
    let keys_in = |dir: Option<&RepoPath>| -> Vec<Vec<Def>> {
        let of_dir = layers.iter().filter(|l| in_dir(l, dir));
        of_dir.map(|l| in_layer_of(l, space.key())).collect()
    };
    let mut reads: Vec<Vec<Def>> = layers
        .iter()
        .filter(|l| !later.iter().any(|d| in_dir(l, Some(d))))
        .map(|l| in_layer_of(l, space.key()))
        .collect();
    if let Some((m, dir)) = &user.global {
        reads.extend(user_reads(cx, m, dir, (space, facts)));
    }
    for dot in &dots {
        reads.extend(keys_in(Some(dot)));
        reads.extend(space.kinds().iter().map(|&k| from_dir(cx, dot, k, facts)));
    }
    for (m, dir) in &user.late {
        reads.extend(keys_in(Some(dir)));
        reads.extend(user_reads(cx, m, dir, (space, facts)));
    }
    reads.extend(keys_in(managed.as_ref()));
    if space == Space::Agents {
        reads.extend(layers.iter().map(|l| in_layer_of(l, Kind::Mode)));
    }
    let numbered = reads.into_iter().enumerate();
    numbered
        .flat_map(|(read, defs)| defs.into_iter().map(move |d| Def { read, ..d }))
        .collect()
}

/// The reads of `space` in the user's directory `dir` on `machine`: its
/// files of each kind.
fn user_reads(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    dir: &RepoPath,
    (space, facts): (Space, &Profile),
) -> Vec<Vec<Def>> {
    let kinds = space.kinds().iter();
    kinds
        .map(|&k| from_user_files(cx, (machine, dir), k, facts))
        .collect()
}

/// The `.opencode` directories from cwd up to the worktree that exist.
fn dot_dirs(cx: &Cx<'_, '_>) -> Vec<RepoPath> {
    cx.up_chain()
        .iter()
        .filter_map(|d| d.join(".opencode"))
        .filter(|b| cx.repo.is_dir(b))
        .collect()
}

/// The folders of `kind` that a release with `facts` reads in a
/// configuration directory, each with whether a file in a subfolder is
/// named by its path below the folder (else by its file name alone): the
/// singular folder by path, the plural one from 1.1.11 on.
fn folders(kind: Kind, facts: &Profile) -> Vec<(&'static str, bool)> {
    let (_, [one, many], _) = kind.places();
    let mut out = vec![(one, true)];
    if facts.plural_folders == PluralFolders::Read {
        out.push((many, facts.plural_nesting == PluralNesting::Path));
    }
    out
}

/// The name a file at `rel` below its folder goes by before its front
/// matter's `name`: `rel` itself, or its last part when the release names
/// the folder's nested files by file name (`by_path` false).
fn named(rel: &str, by_path: bool) -> &str {
    match by_path {
        true => rel,
        false => rel.rsplit('/').next().unwrap_or(rel),
    }
}

/// The plural folders a release before 1.1.11 refuses to start on
/// (`INVALID_DIRS` of 1.0.185's shipped code).
const REFUSED_FOLDERS: [&str; 4] = ["agents", "commands", "plugins", "tools"];

/// Refuses the start for each folder of [`REFUSED_FOLDERS`] in a
/// configuration directory: each `.opencode` from cwd up to the worktree,
/// and in local mode the user's (`user`: the global configuration
/// directory, `~/.opencode`, `$OPENCODE_CONFIG_DIR`). OpenCode before
/// 1.1.11 checks each (`assertValid`) and stops with "Directory "agents"
/// in .opencode is not valid. Rename the directory to "agent" or remove
/// it." (seen with 1.0.152 and 1.0.185, case
/// `opencode.agents_and_commands`, exit 1).
fn refuse_plural_folders(cx: &mut Cx<'_, '_>, user: &UserDirs<'_>) {
    let mut found = Vec::new();
    for dot in dot_dirs(cx) {
        let dirs = REFUSED_FOLDERS
            .iter()
            .filter_map(|n| Some((*n, dot.join(n)?)));
        found.extend(
            dirs.filter(|(_, d)| cx.repo.is_dir(d))
                .map(|(n, d)| (n, dot.clone(), d)),
        );
    }
    for (m, dir) in user.global.iter().chain(&user.late) {
        for e in m.list_dir(dir).unwrap_or_default() {
            let named = REFUSED_FOLDERS.iter().find(|n| **n == e.name);
            if let (Some(n), EntryKind::Dir, Some(d)) = (named, e.kind, dir.join(&e.name)) {
                found.push((*n, dir.clone(), d));
            }
        }
    }
    for (name, parent, dir) in found {
        refuse_folder(cx, name, &parent, dir);
    }
}

/// Refuses the start for the plural folder `dir` (named `name`) of the
/// configuration directory `parent`.
fn refuse_folder(cx: &mut Cx<'_, '_>, name: &str, parent: &RepoPath, dir: RepoPath) {
    let one = &name[..name.len() - 1];
    let at = SourceRef {
        scope: SourceScope::of_path(&dir),
        ..SourceRef::project(dir.clone(), SourceFormat::Text)
    };
    cx.refuse(
        Diagnostic::new(
            DiagnosticCode::InvalidValue,
            format!("{dir} is a folder this OpenCode release does not read: it refuses to start (`Directory \"{name}\" in {parent} is not valid`); rename it to `{one}`."),
        )
        .with_severity(Severity::Error)
        .at(at),
        format!("{} is a folder the release refuses", problems::quote(&dir)),
    );
    // The release's own words, not "Configuration is invalid".
    if let Some(r) = cx.refusals.last_mut() {
        r.said = Some("Directory ... is not valid. Rename the directory");
    }
}

/// The definitions of `kind` in the user's global configuration directory
/// `dir` on `machine`, by path.
fn from_user_files(
    cx: &mut Cx<'_, '_>,
    (machine, dir): (&Machine, &RepoPath),
    kind: Kind,
    facts: &Profile,
) -> Vec<Def> {
    let (_, _, depth) = kind.places();
    let scan = user::Scan {
        dot: true,
        max_depth: depth,
    };
    let mut out = Vec::new();
    for (sub, by_path) in folders(kind, facts) {
        let Some(root) = dir.join(sub) else { continue };
        for (path, rel) in user::files_below(machine, &root, scan, &|rel| rel.ends_with(".md")) {
            let text = user::read(machine, &path, &mut cx.diags);
            let (source, fields) = front_matter(&path, text.as_deref());
            if decodes(cx, kind, &path, &source, &fields) {
                out.push(definition(
                    kind,
                    (source, fields),
                    named(&rel, by_path),
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
        fields: kind.fields(fields),
        from,
        read: 0,
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

/// The definitions of `kind` under its key of layer `l`, by name.
fn in_layer_of(l: &Layer, kind: Kind) -> Vec<Def> {
    let (key, _, _) = kind.places();
    let Some(map) = l.get(&[key]).and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut names: Vec<&String> = map.keys().collect();
    names.sort();
    names
        .into_iter()
        .map(|name| Def {
            kind,
            name: name.clone(),
            source: l.source(&[key, name]),
            fields: kind.fields(map[name].as_object().cloned().unwrap_or_default()),
            from: format!("the `{key}` key of {}", problems::quote(&l.path)),
            read: 0,
        })
        .collect()
}

/// The definitions of `kind` in the folders of the `.opencode` directory
/// `base`, one scan of both folder names.
fn from_dir(cx: &mut Cx<'_, '_>, base: &RepoPath, kind: Kind, facts: &Profile) -> Vec<Def> {
    let (_, _, depth) = kind.places();
    let mut out = Vec::new();
    for (sub, by_path) in folders(kind, facts) {
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
                named(&f.rel, by_path),
                format!("`{root}`"),
            ));
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

/// Merges the definitions of each name in order, as OpenCode's
/// `mergeDeep` does (a later definition's fields win; a field only an
/// earlier one sets stays: a file without `mode` under a configuration
/// entry `mode: primary` is primary, fuzzer seeds 294 and 308 of 1.18.33),
/// and adds every definition to `out`: the last one read carries the
/// merged fields, the earlier ones are shadowed. A later definition of
/// the same read (one folder scan) replaces an earlier one instead.
fn settle(cx: &mut Cx<'_, '_>, defs: Vec<Def>, out: &mut EffectiveAgentConfig) {
    // Per name: the merged fields, the read of the last definition, and
    // its index.
    let mut merged: HashMap<&str, (Value, usize, usize)> = HashMap::new();
    for (i, d) in defs.iter().enumerate() {
        let own = Value::Object(d.fields.clone());
        let acc = merged
            .entry(d.name.as_str())
            .or_insert_with(|| (Value::Null, d.read, i));
        if acc.1 == d.read {
            acc.0 = own;
        } else {
            merge_deep(&mut acc.0, &own);
        }
        (acc.1, acc.2) = (d.read, i);
    }
    for (i, d) in defs.iter().enumerate() {
        let (fields, _, last) = &merged[d.name.as_str()];
        let winner = &defs[*last];
        let placed = if *last == i {
            Merge::Winner(fields.as_object().unwrap_or(&d.fields))
        } else {
            let replaced = defs[i + 1..]
                .iter()
                .any(|e| e.name == d.name && e.read == d.read);
            duplicate(cx, d, winner, replaced);
            Merge::Under { winner, replaced }
        };
        match d.kind {
            Kind::Command => out.commands.push(command(d, placed)),
            Kind::Agent | Kind::Mode => out.subagents.push(subagent(d, placed)),
        }
    }
}

/// Where a definition ends up in the merge of its name.
enum Merge<'a> {
    /// It is read last: the name's definition, with these merged fields.
    Winner(&'a Map<String, Value>),
    /// A later definition (`winner`, the last read) is merged over it, or
    /// one of the same read `replaced` it.
    Under { winner: &'a Def, replaced: bool },
}

impl Merge<'_> {
    /// The fields the definition has in the end: the merged ones for the
    /// winner, its own for one merged under another.
    fn fields<'d>(&'d self, d: &'d Def) -> &'d Map<String, Value> {
        match self {
            Merge::Winner(f) => f,
            Merge::Under { .. } => &d.fields,
        }
    }
}

/// Reports that `loser` shares its name with `winner`, read later, which
/// OpenCode merges over it (or which `replaced` it: a later file of the
/// same folder scan).
fn duplicate(cx: &mut Cx<'_, '_>, loser: &Def, winner: &Def, replaced: bool) {
    let what = if loser.kind == Kind::Command {
        "command"
    } else {
        "agent"
    };
    let how = if replaced {
        "keeps the one read last"
    } else {
        "merges them, the fields of the one read last winning and those only the other sets kept"
    };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::SubagentDuplicate,
            format!(
                "{} and {} both define the OpenCode {what} `{}`; OpenCode {how}, {}.",
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

/// Who may call the agent `name` with `fields`: its `mode`, else the
/// built-in's, else `all`.
fn mode(name: &str, fields: &Map<String, Value>) -> AgentMode {
    match fields.get("mode").and_then(Value::as_str) {
        Some("primary") => AgentMode::Primary,
        Some("subagent") => AgentMode::Subagent,
        Some(_) => AgentMode::All,
        None => BUILTIN_AGENTS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| *m)
            .unwrap_or(AgentMode::All),
    }
}

/// The applicability and reason of a definition.
fn placed(d: &Def, merge: &Merge<'_>, listed: &str) -> (Applicability, String) {
    if let Merge::Under { winner, replaced } = merge {
        let how = if *replaced {
            "it replaces this one"
        } else {
            "OpenCode merges it over this one, its fields winning"
        };
        return (
            Applicability::Shadowed,
            format!(
                "defined in {}; {} defines the same name and is read later: {how}",
                d.from,
                problems::quote(&winner.source.path)
            ),
        );
    }
    if merge.fields(d).get("disable") == Some(&Value::Bool(true)) {
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

fn subagent(d: &Def, merge: Merge<'_>) -> Subagent {
    let fields = merge.fields(d);
    let mode = mode(&d.name, fields);
    let listed = if mode.callable() {
        "listed to the model with its description in the `task` tool"
    } else {
        "a primary agent the user switches to, not listed to the model"
    };
    let (applicability, reason) = placed(d, &merge, listed);
    let tools = fields.get("tools").and_then(Value::as_object);
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
        description: text(fields, "description"),
        tools: None,
        disallowed_tools: off(false),
        model: text(fields, "model"),
        listed_by: mode.callable().then(|| LISTED_BY.to_string()),
        plugin: None,
    }
}

fn command(d: &Def, merge: Merge<'_>) -> Command {
    let listed = "the user runs it as `/NAME`; it is not in the request";
    let (applicability, reason) = placed(d, &merge, listed);
    let fields = merge.fields(d);
    Command {
        id: format!("opencode:command:{}#{}", d.source.path, d.name),
        name: d.name.clone(),
        source: d.source.clone(),
        load_phase: LoadPhase::Startup,
        applicability,
        reason: reason.replace("NAME", &d.name),
        description: text(fields, "description"),
        agent: text(fields, "agent"),
        model: text(fields, "model"),
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

//! The person-readable text rendering.
//!
//! Layout: a header (harness, repository, cwd, target, mode), then the
//! sections Instructions, Skills and MCP servers with one aligned line per
//! item (applicability, load phase, `path:lines`, then what identifies the
//! item), Hooks and Permissions when there are some, then Diagnostics (`severity[code] path:line message`), then
//! Assumptions.
//!
//! Every string taken from the analysed repository is printed with its
//! control characters escaped, so a crafted file name or message cannot
//! drive the terminal. MCP environment variables are shown by name only.

pub(crate) use crate::layout::clean;
use crate::layout::{columns, pad, shorten_path_left, width, wrap_hanging};
use crate::report::{cwd_label, profiles_label, repository_label, target_label, Via};
use anstyle::{AnsiColor, Style};
use playbookdiff_model::{
    Advertisement, AdvertisementState, Applicability, EffectiveAgentConfig, Hook, Instruction,
    LoadPhase, McpServer, Mode, Permission, Plugin, PluginLoad, Severity, Skill, SourceRef,
    SourceScope, Subagent, Transport,
};
use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether text output carries ANSI colour and emphasis. The caller
/// decides (a terminal, `--color`, `NO_COLOR`); the renderers never
/// inspect the terminal or the environment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Color {
    /// Plain text: no escape sequence at all (a pipe, a file, CI logs).
    #[default]
    Plain,
    /// ANSI SGR sequences for headings, severities and dimmed notes.
    Ansi,
}

/// How to render text. The caller decides; the renderer never inspects the
/// terminal or the environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    /// Colour or plain text.
    pub color: Color,
    /// How the header names the repository (e.g. the REPO argument as the
    /// user gave it); `.` when absent.
    pub repository: Option<String>,
    /// How the user named the launch directory and the target, when that
    /// leads elsewhere through a symbolic link.
    pub via: Via,
}

/// Renders `config` for a person to read. Ends with a newline.
pub fn to_text(config: &EffectiveAgentConfig, options: &TextOptions) -> String {
    let p = Painter {
        color: options.color,
    };
    let mut out = String::new();

    // Header.
    let ctx = &config.context;
    let _ = writeln!(
        out,
        "{}",
        p.paint(
            &format!("PlaybookDiff: {}", config.harness.display_name()),
            heading()
        )
    );
    let repository = options.repository.as_deref().unwrap_or(".");
    let mut header = Table::default();
    let mut rows = vec![
        (
            "repository",
            Cow::Owned(repository_label(repository, &options.via)),
        ),
        ("cwd", Cow::Owned(cwd_label(ctx, &options.via))),
        ("target", Cow::Owned(target_label(ctx, &options.via))),
        ("mode", Cow::Borrowed(ctx.mode.as_str())),
    ];
    if let Some(agent) = profiles_label(std::slice::from_ref(config)) {
        rows.push(("agent", Cow::Owned(agent)));
    }
    for (key, value) in rows {
        header.row(vec![Cell::styled(key, dim()), Cell::plain(value)]);
    }
    header.write(&mut out, &p);

    // Instructions, in context order: effective entries by `order`, then the
    // others as the model lists them.
    let mut instructions: Vec<&Instruction> = config.instructions.iter().collect();
    instructions.sort_by_key(|i| (i.order.is_none(), i.order));
    section(&mut out, &p, "Instructions", instructions.len());
    let mut table = Table {
        caps: vec![(3, PATH_COLUMN)],
        paths: vec![3],
        ..Table::default()
    };
    for i in instructions {
        let order = i.order.map_or_else(|| "-".to_string(), |o| o.to_string());
        table.row(vec![
            Cell::plain(order),
            applicability_cell(i.applicability),
            Cell::plain(load_phase(i.load_phase)),
            Cell::plain(item_location(&i.source, ctx.mode)),
            Cell::plain(clean(i.kind.as_str())),
        ]);
    }
    table.write(&mut out, &p);

    section(&mut out, &p, "Skills", config.skills.len());
    let mut table = Table {
        caps: vec![(2, PATH_COLUMN), (3, NAME_COLUMN)],
        wrap_under: Some(2),
        paths: vec![2],
        ..Table::default()
    };
    for s in &config.skills {
        table.row(skill_row(s, ctx.mode));
    }
    table.write(&mut out, &p);

    section(&mut out, &p, "MCP servers", config.mcp_servers.len());
    let mut table = Table {
        caps: vec![(2, PATH_COLUMN), (3, NAME_COLUMN)],
        wrap_under: Some(2),
        paths: vec![2],
        ..Table::default()
    };
    for m in &config.mcp_servers {
        table.row(mcp_row(m, ctx.mode));
    }
    table.write(&mut out, &p);
    hooks_and_permissions(&mut out, &p, config);

    extra_sections(&mut out, &p, config);

    section(&mut out, &p, "Diagnostics", config.diagnostics.len());
    for d in &config.diagnostics {
        let label = format!("{}[{}]", d.severity.as_str(), d.code.as_str());
        let mut line = label.clone();
        if let Some(source) = &d.source {
            let _ = write!(line, " {}", location(source));
        }
        let _ = write!(line, " {}", clean(&d.message));
        let wrapped = wrap_hanging(&line, "  ", "    ", columns());
        // The label has no space: it is whole at the start of the first line.
        let rest = wrapped.strip_prefix(&format!("  {label}")).unwrap_or("");
        let _ = write!(
            out,
            "  {}{rest}",
            p.paint(&label, severity_style(d.severity))
        );
    }

    section(&mut out, &p, "Assumptions", config.assumptions.len());
    for a in &config.assumptions {
        out.push_str(&wrap_hanging(
            &format!("- {}", clean(a)),
            "  ",
            "    ",
            columns(),
        ));
    }
    out
}

/// The sections of subagents, commands, output styles and plugins, each
/// only when the configuration has some (a configuration without them
/// reads as before they were modelled).
fn extra_sections(out: &mut String, p: &Painter, config: &EffectiveAgentConfig) {
    let mode = config.context.mode;
    let named = || Table {
        caps: vec![(2, PATH_COLUMN), (3, NAME_COLUMN)],
        wrap_under: Some(2),
        paths: vec![2],
        ..Table::default()
    };
    if !config.subagents.is_empty() {
        section(out, p, "Subagents", config.subagents.len());
        let mut table = named();
        for a in &config.subagents {
            table.row(subagent_row(a, mode));
        }
        table.write(out, p);
    }
    if !config.commands.is_empty() {
        section(out, p, "Commands", config.commands.len());
        let mut table = named();
        for c in &config.commands {
            table.row(vec![
                applicability_cell(c.applicability),
                Cell::plain(load_phase(c.load_phase)),
                Cell::plain(item_location(&c.source, mode)),
                Cell::plain(format!("/{}", clean(&c.name))),
                Cell::plain(if c.listed_to_model {
                    "listed to the model"
                } else {
                    "user only"
                }),
            ]);
        }
        table.write(out, p);
    }
    if !config.output_styles.is_empty() {
        section(out, p, "Output styles", config.output_styles.len());
        let mut table = named();
        for o in &config.output_styles {
            table.row(vec![
                applicability_cell(o.applicability),
                Cell::plain(load_phase(o.load_phase)),
                Cell::plain(item_location(&o.source, mode)),
                Cell::plain(clean(&o.name)),
                Cell::plain(if o.active { "active" } else { "not selected" }),
            ]);
        }
        table.write(out, p);
    }
    if !config.plugins.is_empty() {
        section(out, p, "Plugins", config.plugins.len());
        let mut table = named();
        for pl in &config.plugins {
            plugin_rows(&mut table, pl, mode);
        }
        table.write(out, p);
    }
}

fn subagent_row(a: &Subagent, mode: Mode) -> Vec<Cell> {
    let tools = match &a.tools {
        Some(t) => format!("tools: {}", clean(&t.join(", "))),
        None if a.disallowed_tools.is_empty() => "all tools".to_string(),
        None => format!("all tools but {}", clean(&a.disallowed_tools.join(", "))),
    };
    let listed = match &a.listed_by {
        Some(tool) => format!("listed by {}", clean(tool)),
        None => "not listed (primary)".to_string(),
    };
    vec![
        applicability_cell(a.applicability),
        Cell::plain(load_phase(a.load_phase)),
        Cell::plain(item_location(&a.source, mode)),
        Cell::plain(clean(&a.name)),
        Cell::plain(format!("{listed}, {tools}")),
    ]
}

/// A plugin's row (whether it loads) and one row per contribution.
fn plugin_rows(table: &mut Table, pl: &Plugin, mode: Mode) {
    let (state, note) = match &pl.load {
        PluginLoad::Loaded => match &pl.source.plugin {
            Some(key) => ("loaded".to_string(), format!("installed as {}", clean(key))),
            None => ("loaded".to_string(), String::new()),
        },
        PluginLoad::AfterUserStep { step } => {
            ("not loaded".to_string(), format!("until {}", clean(step)))
        }
        // Enabled by a file of the user's (local mode, where the user's
        // installed plugins were read): not read, whatever the reason.
        PluginLoad::Remote if pl.source.path.is_on_machine() => {
            ("unknown".to_string(), "not read".to_string())
        }
        PluginLoad::Remote => ("unknown".to_string(), "outside the repository".to_string()),
    };
    let enabled = match (&pl.enabled_by, note.is_empty()) {
        (Some(_), false) => "enabled; ",
        (Some(_), true) => "enabled",
        (None, _) => "",
    };
    let given = if pl.load == PluginLoad::Loaded {
        "given by the plugin"
    } else {
        "not loaded until the plugin loads"
    };
    table.row(vec![
        Cell::styled(state, AnsiColor::Yellow.on_default()),
        Cell::plain("plugin"),
        Cell::plain(item_location(&pl.source, mode)),
        Cell::plain(clean(&pl.name)),
        Cell::plain(format!("{enabled}{note}")),
    ]);
    for c in &pl.contributions {
        table.row(vec![
            Cell::plain("-"),
            Cell::plain(c.kind.as_str()),
            Cell::plain(item_location(&c.source, mode)),
            Cell::plain(clean(&c.name)),
            Cell::plain(given),
        ]);
    }
}

/// The most columns a path takes in a table; a longer one is written whole
/// and the row goes on below it.
const PATH_COLUMN: usize = 40;

/// The most columns a skill or server name takes in a table.
const NAME_COLUMN: usize = 24;

/// The Hooks and Permissions sections, each only when the configuration
/// has some (a configuration without hooks reads as before they were
/// modelled).
fn hooks_and_permissions(out: &mut String, p: &Painter, config: &EffectiveAgentConfig) {
    let mode = config.context.mode;
    if !config.hooks.is_empty() {
        section(out, p, "Hooks", config.hooks.len());
        let mut table = Table {
            caps: vec![(2, PATH_COLUMN), (3, NAME_COLUMN)],
            wrap_under: Some(2),
            paths: vec![2],
            ..Table::default()
        };
        for h in &config.hooks {
            table.row(hook_row(h, mode));
        }
        table.write(out, p);
    }
    if !config.permissions.is_empty() {
        section(out, p, "Permissions", config.permissions.len());
        let mut table = Table {
            caps: vec![(0, PATH_COLUMN), (1, NAME_COLUMN)],
            wrap_under: Some(1),
            paths: vec![0],
            ..Table::default()
        };
        for r in &config.permissions {
            table.row(vec![
                Cell::plain(item_location(&r.source, mode)),
                Cell::plain(clean(&r.key)),
                Cell::plain(format!(
                    "{} (honoured: {})",
                    cut_words(&clean(&r.value), VALUE_COLUMN),
                    r.honoured.as_str()
                )),
            ]);
        }
        table.write(out, p);
    }
}

/// One hook: applicability, `runs=…`, where it is registered, the event
/// and matcher, and the script it runs (`missing` when absent).
fn hook_row(h: &Hook, mode: Mode) -> Vec<Cell> {
    let event = match &h.matcher {
        Some(m) => format!("{} [{}]", clean(&h.event), clean(m)),
        None => clean(&h.event).into_owned(),
    };
    let runs = match &h.script {
        Some(s) if !s.present => format!("{} (missing)", clean(s.path.as_str())),
        Some(s) => clean(s.path.as_str()).into_owned(),
        None => cut_words(
            &clean(h.handler.command.as_deref().unwrap_or(&h.handler.kind)),
            VALUE_COLUMN,
        ),
    };
    vec![
        applicability_cell(h.applicability),
        Cell::plain(format!("runs={}", h.runs.as_str())),
        Cell::plain(item_location(&h.source, mode)),
        Cell::plain(event),
        Cell::plain(runs),
    ]
}

/// The most columns one word of a permission value or a hook command
/// takes in a table (a long URL in a rule): the JSON keeps it whole.
const VALUE_COLUMN: usize = 40;

/// `text` with each word wider than `columns` (at most the output's width
/// less the indentation of a wrapped cell) shortened to fit: a word
/// holding `/` from the left between components
/// ([`shorten_path_left`]), another cut at its end with `…`.
fn cut_words(text: &str, columns: usize) -> String {
    let columns = columns.min(crate::layout::columns().saturating_sub(4));
    text.split(' ')
        .map(|w| {
            if width(w) <= columns {
                return w.to_string();
            }
            if w.contains('/') {
                return shorten_path_left(w, columns);
            }
            let mut out = String::new();
            for c in w.chars() {
                if width(&out) + width(c.encode_utf8(&mut [0; 4])) >= columns {
                    break;
                }
                out.push(c);
            }
            out.push('…');
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn skill_row(s: &Skill, mode: Mode) -> Vec<Cell> {
    vec![
        applicability_cell(s.applicability),
        Cell::plain(load_phase(s.load_phase)),
        Cell::plain(item_location(&s.source, mode)),
        Cell::plain(clean(&s.name)),
        Cell::plain(format!(
            "explicit={} implicit={}, {}",
            permission(s.invocation.explicit),
            permission(s.invocation.implicit),
            advertisement(&s.advertisement)
        )),
    ]
}

fn mcp_row(m: &McpServer, mode: Mode) -> Vec<Cell> {
    let env = if m.env.is_empty() {
        "env: none".to_string()
    } else {
        let names: Vec<Cow<'_, str>> = m.env.iter().map(|e| clean(&e.name)).collect();
        format!("env: {}", names.join(", "))
    };
    vec![
        applicability_cell(m.applicability),
        Cell::plain(load_phase(m.load_phase)),
        Cell::plain(item_location(&m.source, mode)),
        Cell::plain(clean(&m.name)),
        Cell::plain(format!("{}, {env}", transport_as_declared(m))),
    ]
}

/// The transport, or the type as the file declares it when PlaybookDiff
/// does not model that transport (`sse (transport not modelled)`): the
/// agent may well use it; the analysis only does not tell its details.
fn transport_as_declared(m: &McpServer) -> String {
    match (m.transport, &m.declared_type) {
        (Transport::Unknown, Some(t)) if !t.trim().is_empty() => {
            format!("{} (transport not modelled)", clean(t.trim()))
        }
        (t, _) => transport(t).to_string(),
    }
}

/// [`location`] of an item's source, followed in local mode by its layer
/// when it is not the project's (`(user)`, `(local)`, `(managed)`,
/// `(plugin)`, as `check` marks them; none for a built-in item, whose path
/// says it), so the user's own items read apart from the project's, also
/// when a long path is shortened from the left. Repo mode reads only the
/// project's layer (and the repository's plugins): no suffix.
fn item_location(source: &SourceRef, mode: Mode) -> String {
    let at = location(source);
    match (mode, source.scope) {
        (Mode::Local, SourceScope::Project | SourceScope::Builtin) | (Mode::Repo, _) => at,
        (Mode::Local, scope) => format!("{at} ({})", scope.as_str()),
    }
}

/// `path`, `path:N` or `path:N-M`; a file above the repository root
/// (`../CLAUDE.md`, read with `--outside-root`) is followed by `(above
/// root)`.
pub(crate) fn location(source: &SourceRef) -> String {
    let path = clean(source.path.as_str());
    let at = match source.lines {
        None => path.into_owned(),
        Some(l) if l.start == l.end => format!("{path}:{}", l.start),
        Some(l) => format!("{path}:{}-{}", l.start, l.end),
    };
    if source.outside_root {
        format!("{at} (above root)")
    } else {
        at
    }
}

fn section(out: &mut String, p: &Painter, title: &str, count: usize) {
    let _ = writeln!(out, "\n{} ({count})", p.paint(title, heading()));
    if count == 0 {
        let _ = writeln!(out, "  {}", p.paint("none", dim()));
    }
}

fn applicability_cell(a: Applicability) -> Cell {
    let (text, style) = match a {
        Applicability::Effective => ("effective", AnsiColor::Green.on_default()),
        Applicability::Conditional => ("conditional", AnsiColor::Yellow.on_default()),
        Applicability::Excluded => ("excluded", dim()),
        Applicability::Shadowed => ("shadowed", dim()),
        Applicability::Unavailable => ("unavailable", dim()),
        Applicability::OutOfScope => ("out-of-scope", dim()),
    };
    Cell::styled(text, style)
}

fn load_phase(p: LoadPhase) -> &'static str {
    match p {
        LoadPhase::Startup => "startup",
        LoadPhase::OnDemand => "on-demand",
    }
}

fn permission(p: Permission) -> &'static str {
    match p {
        Permission::Allowed => "allowed",
        Permission::Blocked => "blocked",
        Permission::Unknown => "unknown",
    }
}

fn transport(t: Transport) -> &'static str {
    match t {
        Transport::Stdio => "stdio",
        Transport::Http => "http",
        Transport::Unknown => "unknown",
    }
}

fn advertisement(a: &Advertisement) -> &'static str {
    match a.state {
        AdvertisementState::Advertised if a.name_only => "advertised (name only)",
        AdvertisementState::Advertised => "advertised",
        AdvertisementState::Hidden => "hidden",
        AdvertisementState::BudgetRisk => "budget-risk",
        AdvertisementState::Shortened => "advertised (description shortened)",
        AdvertisementState::Omitted => "omitted by the listing budget",
        AdvertisementState::Unknown => "advertisement unknown",
    }
}

fn severity_style(s: Severity) -> Style {
    match s {
        Severity::Error => AnsiColor::Red.on_default().bold(),
        Severity::Warning => AnsiColor::Yellow.on_default().bold(),
        Severity::Info => AnsiColor::Cyan.on_default().bold(),
    }
}

pub(crate) fn heading() -> Style {
    Style::new().bold()
}

pub(crate) fn dim() -> Style {
    Style::new().dimmed()
}

pub(crate) struct Painter {
    pub(crate) color: Color,
}

impl Painter {
    /// A heading wrapped to the width in force (continuation lines
    /// indented two columns), each line painted in `style`, each ending in
    /// a newline: a title that names five harnesses fits 40 columns.
    pub(crate) fn title(&self, text: &str, style: Style) -> String {
        crate::layout::wrap_hanging(text, "", "  ", crate::layout::columns())
            .lines()
            .map(|l| format!("{}\n", self.paint(l, style)))
            .collect()
    }

    pub(crate) fn paint<'a>(&self, text: &'a str, style: Style) -> Cow<'a, str> {
        if self.color == Color::Ansi {
            Cow::Owned(format!("{style}{text}{style:#}"))
        } else {
            Cow::Borrowed(text)
        }
    }
}

#[derive(Clone)]
struct Cell {
    text: String,
    style: Option<Style>,
}

impl Cell {
    fn plain(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            style: None,
        }
    }

    fn styled(text: impl Into<String>, style: Style) -> Self {
        Cell {
            text: text.into(),
            style: Some(style),
        }
    }
}

/// Rows of cells written with two-space indentation, columns left-aligned
/// and separated by two spaces; the last column is not padded.
///
/// Widths are display widths. A column may be capped (`cap`): a cell
/// wider than its column (a long path) is written whole and the row goes
/// on below it, aligned. A cell that would pass the right edge
/// ([`columns()`]) goes on a line of its own, indented under the column
/// `wrap_under`; a path that would is shortened from the left.
#[derive(Default)]
struct Table {
    rows: Vec<Vec<Cell>>,
    /// The most columns a column may take, by column index.
    caps: Vec<(usize, usize)>,
    /// Where a cell that does not fit goes: under this column.
    wrap_under: Option<usize>,
    /// The columns holding paths, shortened from the left when they would
    /// pass the right edge.
    paths: Vec<usize>,
}

impl Table {
    fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push(cells);
    }

    /// Writes the table aligned in columns; when even that passes the
    /// right edge (a narrow terminal), each row flows instead
    /// ([`Table::write_flowing`]).
    fn write(&self, out: &mut String, p: &Painter) {
        let mut plain = String::new();
        self.write_aligned(
            &mut plain,
            &Painter {
                color: Color::Plain,
            },
        );
        let right = crate::layout::columns();
        if plain.lines().all(|l| width(l) <= right) {
            self.write_aligned(out, p);
        } else {
            self.write_flowing(out, p);
        }
    }

    /// Each row's cells one after the other, two spaces apart, a cell that
    /// does not fit the rest of the line starting the next one (indented
    /// four columns); a path shortened from the left and any other cell
    /// wrapped at its spaces when it is wider than a line.
    fn write_flowing(&self, out: &mut String, p: &Painter) {
        let right = crate::layout::columns();
        for row in &self.rows {
            let mut line = String::from("  ");
            let mut at = 2;
            let mut fresh = true;
            for (i, cell) in row.iter().enumerate() {
                let mut text = cell.text.clone();
                let sep = if fresh { 0 } else { 2 };
                if !fresh && at + sep + width(&text) > right {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line = " ".repeat(4);
                    at = 4;
                    fresh = true;
                }
                let room = right.saturating_sub(at + if fresh { 0 } else { 2 });
                if width(&text) > room && self.paths.contains(&i) {
                    text = shorten_path_left(&text, room.max(20));
                } else if width(&text) > room {
                    // Its words over lines of their own.
                    let wrapped = crate::layout::wrap(&text, "    ", right);
                    if !line.trim().is_empty() {
                        out.push_str(line.trim_end());
                        out.push('\n');
                    }
                    out.push_str(&wrapped);
                    line = " ".repeat(4);
                    at = 4;
                    fresh = true;
                    continue;
                }
                if !fresh {
                    line.push_str("  ");
                    at += 2;
                }
                let painted = Cell {
                    text,
                    style: cell.style,
                };
                at += width(&painted.text);
                line.push_str(&painted.paint(p));
                fresh = false;
            }
            if !line.trim().is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
    }

    fn write_aligned(&self, out: &mut String, p: &Painter) {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0; columns];
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if i + 1 < row.len() {
                    widths[i] = widths[i].max(width(&cell.text));
                }
            }
        }
        for &(i, cap) in &self.caps {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).min(cap);
            }
        }
        // Where each column starts.
        let mut starts = vec![2; columns + 1];
        for i in 0..columns {
            starts[i + 1] = starts[i] + widths[i] + 2;
        }
        let right = crate::layout::columns();
        for row in &self.rows {
            self.write_aligned_row(out, p, row, &starts, &widths, right);
        }
    }

    /// One row of [`Table::write_aligned`], whose columns start at
    /// `starts` and are `widths` wide. After a cell wider than its column
    /// (a long path), each following cell goes on a line of its own under
    /// the column `wrap_under`, so that a row goes on at one column
    /// whatever its cells' widths. The last cell (the value), when it
    /// does not fit the line, is wrapped at its spaces under its own
    /// column when that leaves it [`VALUE_ROOM`] columns, else goes on a
    /// line of its own under `wrap_under` (wrapped there when wider).
    fn write_aligned_row(
        &self,
        out: &mut String,
        p: &Painter,
        row: &[Cell],
        starts: &[usize],
        widths: &[usize],
        right: usize,
    ) {
        let mut line = String::from("  ");
        let mut at = 2;
        let mut flowing = false;
        for (i, cell) in row.iter().enumerate() {
            let last = i + 1 == row.len();
            let mut cell = Cow::Borrowed(cell);
            let hangs =
                |at: usize| last && cell.style.is_none() && right.saturating_sub(at) >= VALUE_ROOM;
            let pushed = !hangs(at) && at + width(&cell.text) > right;
            if i > 0 && (flowing || pushed) {
                if let Some(under) = self.wrap_under {
                    // A cell pushed past the right edge (by a wide cell
                    // before it), or after a cell wider than its column,
                    // starts a line of its own.
                    let under = starts[under.min(i)];
                    if at > under {
                        if !line.trim().is_empty() {
                            out.push_str(line.trim_end());
                            out.push('\n');
                        }
                        at = under;
                        line = " ".repeat(at);
                    }
                }
            }
            if at + width(&cell.text) > right && hangs(at) && !self.paths.contains(&i) {
                // The value wrapped at its spaces under its own column.
                let indent = " ".repeat(at);
                let wrapped = crate::layout::wrap_hanging(&cell.text, &indent, &indent, right);
                line.push_str(wrapped.trim_start_matches(' '));
                out.push_str(line.trim_end());
                out.push('\n');
                return;
            }
            if self.paths.contains(&i) && at + width(&cell.text) > right {
                // A path shortened from the left, only when it must.
                cell = Cow::Owned(Cell {
                    text: shorten_path_left(&cell.text, right.saturating_sub(at).max(20)),
                    style: cell.style,
                });
            }
            let w = width(&cell.text);
            if !last && !flowing && at + w > starts[i] + widths[i] {
                // Wider than its column: the rest of the row goes on
                // below, under `wrap_under` (else aligned).
                line.push_str(&cell.paint(p));
                out.push_str(line.trim_end());
                out.push('\n');
                flowing = self.wrap_under.is_some();
                at = match self.wrap_under {
                    Some(under) => starts[under.min(i + 1)],
                    None => starts[i + 1],
                };
                line = " ".repeat(at);
                continue;
            }
            line.push_str(&cell.paint(p));
            if !last {
                let next = starts[i + 1].max(at + w + 2);
                line.push_str(&pad("", next - at - w));
                at = next;
            }
        }
        if !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

/// The fewest columns a table's last cell (a value) is wrapped in under
/// its own column; with less room it goes on a line of its own.
const VALUE_ROOM: usize = 20;

impl Cell {
    fn paint(&self, p: &Painter) -> String {
        match self.style {
            Some(style) => p.paint(&self.text, style).into_owned(),
            None => self.text.clone(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use playbookdiff_model::{
        AnalysisContext, Capabilities, ConfiguredValue, Diagnostic, DiagnosticCode,
        InstructionKind, Invocation, Mode, NamedValue, RepoPath, SourceFormat,
    };
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");
    const CODEX: playbookdiff_model::Harness = playbookdiff_model::Harness::new("codex", "Codex");

    fn rp(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    fn instruction(path: &str, order: Option<u32>, applicability: Applicability) -> Instruction {
        Instruction {
            id: format!("claude-code:memory:{path}#1"),
            kind: InstructionKind::Memory,
            source: SourceRef::project(rp(path), SourceFormat::Markdown).with_lines(1, 12),
            load_phase: if order.is_some() {
                LoadPhase::Startup
            } else {
                LoadPhase::OnDemand
            },
            applicability,
            reason: "r".into(),
            order,
            applies_to: rp(path).parent().unwrap(),
            imported_from: None,
            bytes: 10,
            truncated_at_byte: None,
            paths: None,
            resolution: None,
            import_spans: Vec::new(),
            content: "secret content is never shown".into(),
        }
    }

    pub(crate) fn sample() -> EffectiveAgentConfig {
        let mut ctx = AnalysisContext::at_root();
        ctx.cwd = rp("apps/api");
        ctx.target_path = Some(rp("apps/api/src/main.ts"));
        ctx.mode = Mode::Repo;
        let mut c = EffectiveAgentConfig::new(CLAUDE, ctx);
        c.instructions = vec![
            instruction("apps/web/CLAUDE.md", None, Applicability::Conditional),
            instruction("apps/api/CLAUDE.md", Some(1), Applicability::Effective),
            instruction("CLAUDE.md", Some(0), Applicability::Effective),
        ];
        c.skills = vec![Skill {
            id: "claude-code:skill:.claude/skills/deploy/SKILL.md".into(),
            name: "deploy".into(),
            directory_name: "deploy".into(),
            source: SourceRef::project(
                rp(".claude/skills/deploy/SKILL.md"),
                SourceFormat::Markdown,
            )
            .with_lines(1, 4),
            load_phase: LoadPhase::OnDemand,
            applicability: Applicability::Effective,
            reason: "r".into(),
            description: Some("Deploys".into()),
            invocation: Invocation {
                explicit: Permission::Allowed,
                implicit: Permission::Blocked,
            },
            advertisement: Advertisement {
                state: AdvertisementState::Advertised,
                description_chars: 7,
                description_limit_chars: None,
                aggregate_budget: None,
                name_only: false,
                shown_description_chars: None,
                shown_description: None,
                budget_cause: None,
            },
            paths: None,
            metadata_sources: vec![],
            cross_references: vec![],
        }];
        c.mcp_servers = vec![McpServer {
            id: "claude-code:mcp:github".into(),
            name: "github".into(),
            source: SourceRef::project(rp(".mcp.json"), SourceFormat::Json).with_lines(2, 9),
            other_sources: vec![],
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Conditional,
            reason: "r".into(),
            transport: Transport::Stdio,
            declared_type: None,
            command: Some("npx".into()),
            args: Some(vec!["server-github".into()]),
            url: None,
            env: vec![
                NamedValue {
                    name: "GITHUB_TOKEN".into(),
                    value: ConfiguredValue::Reference {
                        expression: "${GITHUB_TOKEN}".into(),
                    },
                },
                NamedValue {
                    name: "API_KEY".into(),
                    value: ConfiguredValue::redacted(),
                },
            ],
            headers: vec![],
            enabled_tools: None,
            disabled_tools: None,
            unknown_fields: vec![],
            runtime_verified: false,
            capabilities: Capabilities { known: false },
            fingerprints: Default::default(),
        }];
        c.diagnostics = vec![
            Diagnostic::new(
                DiagnosticCode::ImportMissing,
                "@docs/a.md names a missing file.",
            )
            .at(SourceRef::project(rp("CLAUDE.md"), SourceFormat::Markdown).with_lines(3, 3)),
            Diagnostic::new(
                DiagnosticCode::UserConfigUnavailable,
                "User configuration is not read.",
            ),
        ];
        c.assumptions = vec!["The session is interactive.".into()];
        c
    }

    #[test]
    fn renders_every_section_in_order() {
        let out = to_text(
            &sample(),
            &TextOptions {
                color: Color::Plain,
                repository: Some("examples/monorepo".into()),
                ..TextOptions::default()
            },
        );
        let expected = "\
PlaybookDiff: Claude Code
  repository  examples/monorepo
  cwd         apps/api
  target      apps/api/src/main.ts
  mode        repo

Instructions (3)
  0  effective    startup    CLAUDE.md:1-12           memory
  1  effective    startup    apps/api/CLAUDE.md:1-12  memory
  -  conditional  on-demand  apps/web/CLAUDE.md:1-12  memory

Skills (1)
  effective  on-demand  .claude/skills/deploy/SKILL.md:1-4  deploy
                        explicit=allowed implicit=blocked, advertised

MCP servers (1)
  conditional  startup  .mcp.json:2-9  github  stdio, env: GITHUB_TOKEN, API_KEY

Diagnostics (2)
  warning[import-missing] CLAUDE.md:3 @docs/a.md names a missing file.
  info[user-config-unavailable] User configuration is not read.

Assumptions (1)
  - The session is interactive.
";
        assert_eq!(out, expected);
    }

    #[test]
    fn never_prints_values_or_content() {
        let out = to_text(&sample(), &TextOptions::default());
        assert!(!out.contains("${GITHUB_TOKEN}"));
        assert!(!out.contains("redacted"));
        assert!(!out.contains("secret content"));
        assert!(!out.contains("npx"));
    }

    #[test]
    fn colour_only_when_asked() {
        let plain = to_text(&sample(), &TextOptions::default());
        assert!(!plain.contains('\u{1b}'));
        let coloured = to_text(
            &sample(),
            &TextOptions {
                color: Color::Ansi,
                ..TextOptions::default()
            },
        );
        assert!(coloured.contains("\u{1b}["));
        assert!(coloured.contains("import-missing"));
    }

    #[test]
    fn empty_sections_say_none() {
        let c = EffectiveAgentConfig::new(CODEX, AnalysisContext::at_root());
        let out = to_text(&c, &TextOptions::default());
        assert!(out.contains("  target      (none)\n"));
        assert!(out.contains("\nSkills (0)\n  none\n"));
        assert!(out.contains("\nMCP servers (0)\n  none\n"));
    }

    #[test]
    fn control_characters_from_the_repository_are_escaped() {
        let mut c = sample();
        c.skills[0].name = "evil\u{1b}[2J".into();
        c.diagnostics[0].message = "line one\nline two".into();
        let out = to_text(&c, &TextOptions::default());
        assert!(!out.contains('\u{1b}'));
        assert!(out.contains("evil\\u{1b}[2J"));
        assert!(out.contains("line one\\nline two"));
    }

    #[test]
    fn a_long_path_is_shortened_from_the_left_instead_of_padding_every_row() {
        let mut c = sample();
        let long = format!("{}/CLAUDE.md", "deeply/nested".repeat(30));
        c.instructions
            .push(instruction(&long, None, Applicability::Conditional));
        let out = to_text(&c, &TextOptions::default());
        let lines: Vec<&str> = out.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("…/nested") && l.contains("/nested/CLAUDE.md"))
            .unwrap_or_else(|| panic!("{out}"));
        // The kind goes on below the long path, in its column.
        let kind_column = lines
            .iter()
            .find(|l| l.contains("apps/api/CLAUDE.md:1-12"))
            .and_then(|l| l.find("memory"))
            .unwrap();
        assert_eq!(lines[at + 1].find("memory"), Some(kind_column), "{out}");
        assert_eq!(lines[at + 1].trim(), "memory");
        for l in &lines {
            assert!(width(l) <= 80, "{l:?}");
        }
        // On a wider terminal, the same path is shortened less.
        let wide = crate::with_width(160, || to_text(&c, &TextOptions::default()));
        let longest = wide.lines().map(width).max().unwrap();
        assert!(longest > 80 && longest <= 160, "{wide}");
    }

    #[test]
    fn subagents_and_plugins_wrap_at_eighty_columns_and_are_escaped() {
        use playbookdiff_model::{
            AgentMode, ContributionKind, Plugin, PluginContribution, PluginLoad, Subagent,
        };
        let mut c = sample();
        let src = |p: &str| SourceRef::project(rp(p), playbookdiff_model::SourceFormat::Markdown);
        c.subagents.push(Subagent {
            id: "s".into(),
            name: "evil\u{1b}[2J-and-a-rather-long-subagent-name".into(),
            source: src(".claude/agents/a/very/deep/folder/of/agents/evil-subagent.md"),
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: String::new(),
            mode: AgentMode::Subagent,
            description: None,
            tools: Some(vec!["Read".into(); 30]),
            disallowed_tools: Vec::new(),
            model: None,
            listed_by: Some("Agent".into()),
            plugin: None,
        });
        c.plugins.push(Plugin {
            id: "p".into(),
            name: "kit".into(),
            source: src("plugins/kit/.claude-plugin/plugin.json"),
            marketplace: Some("local".into()),
            enabled_by: None,
            load: PluginLoad::AfterUserStep {
                step: "the marketplace `local` is registered and `kit@local` installed ".repeat(3),
            },
            contributions: vec![PluginContribution {
                kind: ContributionKind::McpServer,
                name: "plugin:kit:a-server-with-a-long-name\u{202E}".into(),
                source: src("plugins/kit/.mcp.json"),
            }],
        });
        let out = to_text(&c, &TextOptions::default());
        for l in out.lines() {
            assert!(width(l) <= 80, "{l:?}");
        }
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{202E}'),
            "{out}"
        );
        assert!(
            out.contains("Subagents (1)") && out.contains("Plugins (1)"),
            "{out}"
        );
        // A contribution of a plugin not loaded says so in a whole
        // sentence.
        assert!(out.contains("not loaded until the plugin loads"), "{out}");
    }

    #[test]
    fn long_diagnostics_and_skill_rows_wrap_at_eighty_columns() {
        let mut c = sample();
        c.diagnostics[0].message = "word ".repeat(60);
        let out = to_text(&c, &TextOptions::default());
        for l in out.lines() {
            assert!(width(l) <= 80, "{l:?}");
        }
        assert!(out.contains("\n    word word"), "{out}");
    }

    #[test]
    fn wide_characters_keep_columns_aligned() {
        let mut c = sample();
        c.instructions[0].source.path = rp("文档/说明/CLAUDE.md");
        let out = to_text(&c, &TextOptions::default());
        let starts: Vec<usize> = out
            .lines()
            .filter(|l| l.ends_with("memory"))
            .map(|l| width(&l[..l.find("memory").unwrap()]))
            .collect();
        assert_eq!(starts.len(), 3, "{out}");
        assert!(starts.iter().all(|s| *s == starts[0]), "{out}");
    }

    #[test]
    fn bidirectional_controls_from_the_repository_are_escaped() {
        let mut c = sample();
        c.skills[0].name = "a\u{202E}b\u{2066}c\u{200F}".into();
        let out = to_text(&c, &TextOptions::default());
        for ch in ['\u{202E}', '\u{2066}', '\u{200F}'] {
            assert!(!out.contains(ch), "{ch:?}");
        }
        assert!(out.contains("a\\u{202e}b\\u{2066}c\\u{200f}"), "{out}");
    }

    /// The column each line of `text` starts at (its leading spaces).
    fn starts_of(text: &str) -> Vec<usize> {
        text.lines()
            .map(|l| l.len() - l.trim_start().len())
            .collect()
    }

    /// A row goes on under one column whatever its cells' widths: after a
    /// path wider than its column, the name and the value each on a line
    /// under `wrap_under` (a name that would fit at the far right went
    /// there, one that would not under the path); a value too wide for
    /// its line wraps under its own column; every line within 80 columns.
    #[test]
    fn tables_go_on_under_one_column_within_80_columns() {
        let plain = Painter {
            color: Color::Plain,
        };
        let value = "explicit=allowed implicit=allowed, advertised";
        let mut skills = Table {
            caps: vec![(2, PATH_COLUMN), (3, NAME_COLUMN)],
            wrap_under: Some(2),
            paths: vec![2],
            ..Table::default()
        };
        // (path, name): the names 16 and 21 columns wide after paths
        // wider than the path column; one that fits its column.
        for (path, name) in [
            (
                ".claude/skills/openspec-explore/SKILL.md:1-10",
                "openspec-explore",
            ),
            (
                ".claude/skills/logging-observability/SKILL.md:1-4",
                "logging-observability",
            ),
            (
                ".claude/skills/openspec-archive-change/SKILL.md:1-10",
                "openspec-archive-change",
            ),
            (".claude/skills/create-pr/SKILL.md:1-4", "create-pr"),
        ] {
            skills.row(vec![
                Cell::plain("effective"),
                Cell::plain("startup"),
                Cell::plain(path),
                Cell::plain(name),
                Cell::plain(value),
            ]);
        }
        let mut out = String::new();
        crate::layout::with_width(80, || skills.write(&mut out, &plain));
        let starts = starts_of(&out);
        // Three rows of three lines, then the short one's two.
        assert_eq!(starts, [2, 22, 22, 2, 22, 22, 2, 22, 22, 2, 22], "{out}");

        let mut permissions = Table {
            caps: vec![(0, PATH_COLUMN), (1, NAME_COLUMN)],
            wrap_under: Some(1),
            paths: vec![0],
            ..Table::default()
        };
        for rule in [
            "Bash(ls:*)",
            "Bash(git status:*) Bash(git log:*) Bash(gh pr view:*)",
        ] {
            permissions.row(vec![
                Cell::plain(".claude/settings.json:15"),
                Cell::plain("permissions.allow"),
                Cell::plain(format!("{rule} (honoured: unknown)")),
            ]);
        }
        let mut out = String::new();
        crate::layout::with_width(80, || permissions.write(&mut out, &plain));
        let value_column = out.lines().next().unwrap().find("Bash").unwrap();
        let starts = starts_of(&out);
        assert_eq!(starts[0], 2, "{out}");
        assert!(starts.len() > 2, "{out}");
        assert!(starts[2..].iter().all(|&c| c == value_column), "{out}");
        for line in out.lines() {
            assert!(width(line) <= 80, "{out}");
        }
    }
}

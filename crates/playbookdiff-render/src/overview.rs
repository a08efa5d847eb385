//! The default view (`playbookdiff [REPO]`): what each harness receives
//! side by side, then the findings, then what no analysis of the
//! repository can know, with pointers to `check` and `explain`.
//!
//! Fits the width in force (long paths are shortened from the left, never
//! in the middle) with any number of harnesses (`Table`: a column each
//! when they fit, else shared cells) and reads well without colour: rows
//! where the harnesses differ are marked `!`.

use crate::check_text::{counts, severity_style, vs};
use crate::layout::{columns, fit, width, wrap, wrap_hanging};
use crate::report::{
    context_args, cwd_label, problems, profiles_label, repository_label, target_label, CheckReport,
};
use crate::text::{clean, dim, heading, location, Painter};
use playbookdiff_compare::group::{group, Group};
use playbookdiff_compare::{
    display_name, Category, Cell, Comparison, FindingSeverity, Reception, Refusal, Row,
};
use playbookdiff_model::remedy::count;
use playbookdiff_model::{Harness, SourceScope};
use std::fmt::Write as _;

/// At most this many rows per category; the rest are counted.
const MAX_ROWS: usize = 12;

/// At most this many groups of findings, besides those received at
/// startup in the launch directory, which are always shown.
const MAX_FINDINGS: usize = 10;

/// At most this many problems in the repository; `check` lists them all
/// (a directory outside git read whole, such as a home directory, can
/// hold thousands).
const MAX_PROBLEMS: usize = 10;

/// The narrowest and widest a harness column may be.
const CELL_MIN: usize = 18;
const CELL_MAX: usize = 24;
/// The narrowest the label column may be.
const LABEL_MIN: usize = 20;

use crate::report::{not_loaded_label, state_label, NOT_LOADED_LEGEND};

/// Words for a cell's state: [`state_label`], except that an on-demand
/// item the `--target` triggers reads `by target`, and an item that is
/// not loaded says why in the words of [`not_loaded_label`] (`shadowed`,
/// `excluded`, `unavailable`, `not loaded`).
fn cell_state(category: Category, c: &Cell) -> &'static str {
    match c.reception {
        None => "-",
        Some(Reception::OnDemand) if c.triggered => "by target",
        Some(Reception::NotLoaded) if c.shadowed => "shadowed",
        Some(Reception::NotLoaded) => not_loaded_label(c.not_loaded),
        Some(r) => state_label(category, r),
    }
}

/// The cell's state with the item's layer when it is the user's own and
/// its note (`startup (user, stdio)`, `startup (stdio)`), escaped.
fn cell_full(category: Category, c: &Cell) -> String {
    let layer = c.layer.map(SourceScope::as_str);
    let note = (!c.note.is_empty()).then(|| clean(&c.note).into_owned());
    let said: Vec<String> = layer.map(str::to_string).into_iter().chain(note).collect();
    match c.reception {
        None => "-".to_string(),
        Some(_) if said.is_empty() => cell_state(category, c).to_string(),
        Some(_) => format!("{} ({})", cell_state(category, c), said.join(", ")),
    }
}

/// The cell's state with the item's layer, without the note
/// (`startup (user)`): what a cell keeps when the note does not fit.
fn cell_short(category: Category, c: &Cell) -> String {
    match (c.reception, c.layer) {
        (Some(_), Some(layer)) => format!("{} ({})", cell_state(category, c), layer.as_str()),
        _ => cell_state(category, c).to_string(),
    }
}

/// The cell's state, with its layer and note when they fit in `columns`,
/// else with its layer alone when that fits.
fn cell_text(category: Category, c: &Cell, columns: usize) -> String {
    let full = cell_full(category, c);
    let short = cell_short(category, c);
    match c.reception {
        Some(_) if width(&full) <= columns => full,
        Some(_) if width(&short) <= columns => short,
        Some(_) => cell_state(category, c).to_string(),
        None => full,
    }
}

/// A row's label in `columns`: an instruction file's path shortened from
/// the left (`…/miniflare/CLAUDE.md`: its directory tells rows apart);
/// files that are one text (`a/CLAUDE.md = b/CLAUDE.md`, the comparison's
/// label) whole when they fit, else the first path shortened from the
/// left and the others counted (`…/daemon/CLAUDE.md +4`), never cut inside
/// a path's middle; anything else (skill and server names) in the middle.
fn row_label(category: Category, label: &str, columns: usize) -> String {
    let shown = match category {
        Category::Instruction if width(label) <= columns => label.to_string(),
        Category::Instruction => match label.split(" = ").collect::<Vec<_>>().as_slice() {
            [one] => crate::layout::shorten_path_left(one, columns),
            [first, rest @ ..] => {
                let more = format!(" +{}", rest.len());
                let room = columns.saturating_sub(width(&more));
                format!("{}{more}", crate::layout::shorten_path_left(first, room))
            }
            [] => String::new(),
        },
        _ => return fit(label, columns),
    };
    crate::layout::pad(&shown, columns)
}

/// At least this many skill or MCP server rows whose cells read the same
/// are shown as one row, their names below it.
const GROUP_MIN: usize = 3;

/// At most this many lines of names under a group row; the rest are
/// counted (`+N more`).
const GROUP_NAME_LINES: usize = 3;

/// The indent of the names under a group row.
const NAME_INDENT: &str = "    ";

/// One line of a section: a row, or skill or MCP server rows that share a
/// cause (the same cells: the same harnesses have them, the same way).
enum Entry<'a> {
    One(&'a Row),
    Many(Vec<&'a Row>),
}

impl<'a> Entry<'a> {
    fn rows(&self) -> Vec<&'a Row> {
        match self {
            Entry::One(r) => vec![r],
            Entry::Many(rs) => rs.clone(),
        }
    }
    fn first(&self) -> &'a Row {
        match self {
            Entry::One(r) => r,
            Entry::Many(rs) => rs[0],
        }
    }
}

/// The rows of a section as lines: in `category` Skill or Mcp, the rows
/// whose cells read the same ([`cell_full`]) and that carry no field
/// difference of their own, when there are [`GROUP_MIN`] or more, become
/// one entry where the first of them stands, the way `check` groups the
/// findings that share a cause; every other row is its own entry.
fn entries<'a>(category: Category, rows: &[&'a Row]) -> Vec<Entry<'a>> {
    let key = |r: &Row| -> Option<(bool, Vec<String>)> {
        (category != Category::Instruction && r.differs.is_empty()).then(|| {
            (
                r.agree,
                r.cells.iter().map(|c| cell_full(category, c)).collect(),
            )
        })
    };
    // Each row's key once, and how many rows share it: linear in the
    // rows (counting by scanning every row per row took seconds from a
    // few thousand servers on).
    let keys: Vec<Option<(bool, Vec<String>)>> = rows.iter().map(|r| key(r)).collect();
    let mut size: std::collections::HashMap<&(bool, Vec<String>), usize> =
        std::collections::HashMap::new();
    for k in keys.iter().flatten() {
        *size.entry(k).or_default() += 1;
    }
    let mut out: Vec<Entry<'a>> = Vec::new();
    let mut at: std::collections::HashMap<&(bool, Vec<String>), usize> =
        std::collections::HashMap::new();
    for (r, k) in rows.iter().zip(&keys) {
        match k {
            Some(k) if size[k] >= GROUP_MIN => match at.get(k) {
                Some(&i) => {
                    if let Entry::Many(rs) = &mut out[i] {
                        rs.push(r);
                    }
                }
                None => {
                    at.insert(k, out.len());
                    out.push(Entry::Many(vec![r]));
                }
            },
            _ => out.push(Entry::One(r)),
        }
    }
    out
}

/// The names of a group's rows, wrapped under it (indented four columns)
/// in at most [`GROUP_NAME_LINES`] lines, the rest counted.
fn group_names(rows: &[&Row], columns: usize) -> String {
    let names: Vec<String> = rows.iter().map(|r| clean(&r.label).into_owned()).collect();
    // A line of `avail` columns holding several names holds at most
    // avail / 2 + 1 of them (each is followed by `, `), and a wider line
    // holds one: more names than GROUP_NAME_LINES such lines take never
    // fit, so the search starts there instead of at every name (which
    // wrapped the whole list once per name).
    let avail = columns.saturating_sub(width(NAME_INDENT)).max(20);
    let most = (GROUP_NAME_LINES * (avail / 2 + 1) + 1).min(names.len());
    for shown in (1..=most).rev() {
        let more = names.len() - shown;
        let mut text = names[..shown].join(", ");
        if more > 0 {
            text.push_str(&format!(", +{more} more"));
        }
        let wrapped = wrap(&text, NAME_INDENT, columns);
        if wrapped.lines().count() <= GROUP_NAME_LINES || shown == 1 {
            return wrapped;
        }
    }
    String::new()
}

/// The line that counts the rows the view leaves out (no agent loads
/// their item from here, and none is shadowed), by why, in the words of
/// [`not_loaded_label`]: a row any agent refuses is `excluded`, else one
/// outside the mode `unavailable`, else it is loaded only from other
/// launch directories.
fn hidden_line(hidden: &[&Row]) -> String {
    let why = |r: &Row| {
        let says = |word: &str| {
            r.cells
                .iter()
                .any(|c| c.reception.is_some() && not_loaded_label(c.not_loaded) == word)
        };
        ["excluded", "unavailable"]
            .into_iter()
            .find(|w| says(w))
            .unwrap_or("elsewhere")
    };
    let n = |w: &str| hidden.iter().filter(|r| why(r) == w).count();
    let elsewhere = n("elsewhere");
    let mut parts: Vec<String> = ["excluded", "unavailable"]
        .into_iter()
        .filter(|w| n(w) > 0)
        .map(|w| format!("{} {w}", n(w)))
        .collect();
    let head = format!("{} more that no agent loads from here", hidden.len());
    if parts.is_empty() {
        return format!("{head} (pass --cwd to look there)");
    }
    if elsewhere > 0 {
        parts.push(format!(
            "{elsewhere} only from other launch directories (pass --cwd to look there)"
        ));
    }
    format!("{head}: {}", parts.join(", "))
}

/// Whether the view lists a row: when some agent receives its item, or
/// when another source hides it from some agent (a shadowed file is a
/// repository problem, never one of the "more not loaded").
fn shown_row(row: &Row) -> bool {
    row.received_anywhere() || row.cells.iter().any(|c| c.shadowed)
}

/// The line of a harness that would not start, in place of its column:
/// `Codex would not start: .codex/config.toml:1 (config-refused, above)`,
/// wrapped to the width in force.
fn refused_line(r: &Refusal) -> String {
    let at = r
        .source
        .as_ref()
        .map_or_else(|| "its configuration".to_string(), location);
    wrap_hanging(
        &clean(&format!(
            "{} would not start: it refuses {at} ({}, above), so it has no column.",
            display_name(r.harness),
            r.code.as_str()
        )),
        "  ",
        "    ",
        columns(),
    )
}

/// A section of the view: its category, title, entries shown and rows
/// left out.
type Section<'a> = (Category, &'static str, Vec<Entry<'a>>, Vec<&'a Row>);

/// How the view lays out what each harness receives.
///
/// * `Columns`: one column per harness, as wide as the widest cell shown
///   (from [`CELL_MIN`] to [`CELL_MAX`]), when they fit beside a label of
///   [`LABEL_MIN`] columns: three harnesses at 80 columns.
/// * `Shared`: otherwise (five harnesses at 80 columns, three at 40), one
///   cell per row in which the harnesses that receive the item the same
///   way share one entry, `Cod Ope: startup; Cla: -`, named by the keys of
///   a legend under the heading (`Cla = Claude Code, …`); a row that every
///   harness receives the same way reads `all: startup`. The cell wraps
///   under itself, never past the width.
enum Table {
    Columns { label: usize, cell: usize },
    Shared { label: usize, keys: Vec<String> },
}

impl Table {
    fn choose(sections: &[Section<'_>], hs: &[Harness]) -> Table {
        let n = hs.len().max(1);
        if 2 + LABEL_MIN + (CELL_MIN + 1) * n <= columns() {
            return Table::columns(sections, hs);
        }
        // The label takes what its rows need, up to two fifths of the
        // line; the shared cell the rest.
        let widest = sections
            .iter()
            .flat_map(|(_, _, entries, _)| entries.iter().take(MAX_ROWS))
            .map(|e| width(&clean(&e.first().label)))
            .max()
            .unwrap_or(0);
        let label = widest.clamp(12, (columns() - 3) * 2 / 5);
        Table::Shared {
            label,
            keys: keys(hs),
        }
    }

    fn columns(sections: &[Section<'_>], hs: &[Harness]) -> Table {
        let cell = sections
            .iter()
            .flat_map(|(cat, _, rows, _)| {
                rows.iter().take(MAX_ROWS).flat_map(move |e| {
                    e.first()
                        .cells
                        .iter()
                        .map(move |c| width(&cell_full(*cat, c)))
                })
            })
            .chain(hs.iter().map(|h| width(display_name(*h))))
            .max()
            .unwrap_or(0)
            .clamp(CELL_MIN, CELL_MAX)
            // The label keeps at least LABEL_MIN columns, so more harnesses
            // make each column narrower (three leave 18).
            .min(
                ((columns() - 2 - LABEL_MIN) / hs.len().max(1))
                    .saturating_sub(1)
                    .max(CELL_MIN),
            );
        let label = columns()
            .saturating_sub(2 + (cell + 1) * hs.len())
            .max(LABEL_MIN);
        Table::Columns { label, cell }
    }

    fn label_width(&self) -> usize {
        match self {
            Table::Columns { label, .. } | Table::Shared { label, .. } => *label,
        }
    }

    /// The heading line and, for `Shared`, the legend of the keys.
    fn head(&self, hs: &[Harness]) -> String {
        let label = self.label_width();
        // The long heading when it fits beside the harness columns.
        let heading_text = ["What each agent receives", "Each agent receives"]
            .into_iter()
            .find(|t| width(t) <= label)
            .unwrap_or("Received");
        match self {
            Table::Columns { cell, .. } => {
                let mut head = format!("  {}", fit(heading_text, label));
                for h in hs {
                    head.push(' ');
                    head.push_str(&fit(display_name(*h), *cell));
                }
                format!("{}\n", head.trim_end())
            }
            Table::Shared { keys, .. } => {
                // The legend, broken between its entries (`Cop = Copilot
                // CLI` stays on one line).
                let mut legend = String::from("  What each agent receives\n");
                let mut line = String::from(" ");
                let last = hs.len().saturating_sub(1);
                for (i, (h, k)) in hs.iter().zip(keys).enumerate() {
                    let entry = format!(
                        " {k} = {}{}",
                        display_name(*h),
                        if i == last { "." } else { "," }
                    );
                    if width(&line) > 1 && width(&line) + width(&entry) > columns() {
                        legend.push_str(&format!("{line}\n"));
                        line = String::from(" ");
                    }
                    line.push_str(&entry);
                }
                legend.push_str(&line);
                legend
            }
        }
    }

    /// One entry's line (or lines): marker, label, cells.
    fn row(&self, category: Category, entry: &Entry<'_>) -> String {
        let row = entry.first();
        let label = match entry {
            Entry::One(_) => row_label(category, &clean(&row.label), self.label_width()),
            Entry::Many(_) => fit(&label_text_of(category, entry), self.label_width()),
        };
        let marker = if row.agree { " " } else { "!" };
        match self {
            Table::Columns { cell, .. } => {
                let mut line = format!("{marker} {label}");
                for c in &row.cells {
                    line.push(' ');
                    line.push_str(&fit(&cell_text(category, c, *cell), *cell));
                }
                format!("{}\n", line.trim_end())
            }
            Table::Shared { keys, .. } if columns() < STACK_BELOW => {
                // Narrow: the label on its own line, the cell under it.
                let label = match entry {
                    Entry::One(_) => row_label(category, &clean(&row.label), columns() - 2),
                    Entry::Many(_) => label_text_of(category, entry),
                };
                let room = columns() - 4;
                let mut out = format!("{marker} {}\n", label.trim_end());
                out.push_str(&flow(
                    &shared_parts(category, &row.cells, keys, room),
                    "    ",
                    "    ",
                    room,
                ));
                out
            }
            Table::Shared { keys, label: w } => {
                let room = columns().saturating_sub(3 + w);
                let parts = shared_parts(category, &row.cells, keys, room);
                flow(
                    &parts,
                    &format!("{marker} {label} "),
                    &" ".repeat(3 + w),
                    room,
                )
            }
        }
    }
}

/// Below this width the shared layout writes a row's label on a line of
/// its own and its cell under it, so neither is cut to a few columns.
const STACK_BELOW: usize = 60;

/// The label of a group row (`27 skills`), or of one row (its label).
fn label_text_of(category: Category, entry: &Entry<'_>) -> String {
    match (category, entry) {
        (Category::Mcp, Entry::Many(rs)) => count(rs.len(), "MCP server", "MCP servers"),
        (Category::Hook, Entry::Many(rs)) => count(rs.len(), "hook event", "hook events"),
        (Category::Subagent, Entry::Many(rs)) => count(rs.len(), "subagent", "subagents"),
        (_, Entry::Many(rs)) => count(rs.len(), "skill", "skills"),
        (_, Entry::One(r)) => clean(&r.label).into_owned(),
    }
}

/// `parts` in lines of `room` columns after `first` (the first line) or
/// `rest`, separated by `; `, a part that does not fit the rest of a line
/// starting the next one; a part wider than `room` is wrapped at its
/// spaces.
fn flow(parts: &[String], first: &str, rest: &str, room: usize) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut used = 0;
    let mut end_line = |line: &mut String, used: &mut usize| {
        out.push_str(line.trim_end());
        out.push('\n');
        *line = rest.to_string();
        *used = 0;
    };
    for part in parts {
        let w = width(part);
        if used > 0 && used + 2 + w > room {
            end_line(&mut line, &mut used);
        } else if used > 0 {
            line.push_str("; ");
            used += 2;
        }
        if w <= room {
            line.push_str(part);
            used += w;
            continue;
        }
        // Wider than a line: its words over several lines.
        let wrapped = wrap(part, "", room);
        let lines: Vec<&str> = wrapped.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            line.push_str(l);
            used = width(l);
            if i + 1 < lines.len() {
                end_line(&mut line, &mut used);
            }
        }
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The parts of a shared cell: for each way the harnesses receive the
/// item, in the order of the harnesses, the keys of the harnesses that
/// receive it that way and the way (`Cod Ope: startup (stdio)`), without
/// the note (its layer kept: `Cla: startup (user)`) when the part would
/// not fit `room`, shortened to it when it
/// still would not; `all: …` when every harness receives it the same way.
fn shared_parts(category: Category, cells: &[Cell], keys: &[String], room: usize) -> Vec<String> {
    let mut ways: Vec<(String, String, Vec<&str>)> = Vec::new();
    for (c, k) in cells.iter().zip(keys) {
        let full = cell_full(category, c);
        match ways.iter_mut().find(|(w, _, _)| *w == full) {
            Some((_, _, ks)) => ks.push(k),
            None => ways.push((full, cell_short(category, c), vec![k])),
        }
    }
    let all = ways.len() == 1 && cells.len() > 1;
    ways.into_iter()
        .map(|(full, state, ks)| {
            let who = if all { "all".to_string() } else { ks.join(" ") };
            let part = format!("{who}: {full}");
            if width(&part) <= room {
                part
            } else {
                // Without the note; wrapped at its spaces when still too
                // wide (see `flow`), never cut.
                format!("{who}: {state}")
            }
        })
        .collect()
}

/// The keys of the harnesses in a shared cell: the first letters of each
/// product name (spaces left out), as few as make every key distinct and
/// at least three (`Cla`, `Cod`, `Ope`).
fn keys(hs: &[Harness]) -> Vec<String> {
    let letters: Vec<Vec<char>> = hs
        .iter()
        .map(|h| {
            display_name(*h)
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect()
        })
        .collect();
    let longest = letters.iter().map(Vec::len).max().unwrap_or(0);
    let key = |l: &[char], n: usize| l.iter().take(n).collect::<String>();
    let n = (3..=longest.max(3))
        .find(|&n| {
            let ks: Vec<String> = letters.iter().map(|l| key(l, n)).collect();
            ks.iter().enumerate().all(|(i, k)| !ks[..i].contains(k))
        })
        .unwrap_or(longest.max(3));
    letters.iter().map(|l| key(l, n)).collect()
}

/// Renders the default view.
pub fn overview_text(r: &CheckReport<'_>, color: crate::Color) -> String {
    let p = Painter { color };
    let cmp = r.comparison;
    let args = context_args(r.repository, r.context, r.via, true);
    let mut out = String::new();
    overview_head(&mut out, &p, r);
    let sections = overview_sections(cmp);
    let table = Table::choose(&sections, &cmp.harnesses);
    crate::check_text::problems_section_at_most(
        &mut out,
        &p,
        r.configs,
        MAX_PROBLEMS,
        &format!("playbookdiff check{args}"),
    );
    out.push('\n');
    table_lines(&mut out, &p, cmp, &table, sections);
    findings_lines(&mut out, &p, r, &args);
    unknown_lines(&mut out, &p, r, &args);
    next_lines(&mut out, &p, r, &args);
    out
}

/// The title (the harnesses compared) and the context line: repository,
/// launch directory, target, mode and agent profiles.
fn overview_head(out: &mut String, p: &Painter, r: &CheckReport<'_>) {
    out.push_str(&p.title(&format!("PlaybookDiff: {}", vs(&r.harnesses())), heading()));
    let target = if r.context.target_path.is_some() {
        format!(", target {}", target_label(r.context, r.via))
    } else {
        String::new()
    };
    let profiles = profiles_label(r.configs).map_or_else(String::new, |p| format!(", as {p}"));
    out.push_str(&wrap(
        &format!(
            "Repository {}, launched in {}{target}, {} mode{profiles}",
            repository_label(r.repository, r.via),
            cwd_label(r.context, r.via),
            r.context.mode.as_str()
        ),
        "",
        columns(),
    ));
}

/// The table's sections (instructions, skills, MCP servers, and
/// subagents when a harness has one): each with its rows shown,
/// differences first, and the rows it hides.
fn overview_sections(cmp: &Comparison) -> Vec<Section<'_>> {
    [
        (Category::Instruction, "Instructions"),
        (Category::Skill, "Skills"),
        (Category::Mcp, "MCP servers"),
        (Category::Hook, "Hooks"),
        (Category::Subagent, "Subagents"),
    ]
    .into_iter()
    // Hooks and subagents only when some harness has one: a view without
    // them reads as before they were modelled.
    .filter(|(cat, _)| {
        !matches!(cat, Category::Hook | Category::Subagent)
            || cmp.rows.iter().any(|r| r.category == *cat)
    })
    .map(|(cat, title)| {
        let rows: Vec<&Row> = cmp
            .rows
            .iter()
            .filter(|x| x.category == cat && shown_row(x))
            .collect();
        // Differences first, so a long list still shows them.
        let mut ordered: Vec<&Row> = rows.iter().filter(|x| !x.agree).copied().collect();
        ordered.extend(rows.iter().filter(|x| x.agree).copied());
        let ordered = entries(cat, &ordered);
        let hidden: Vec<&Row> = cmp
            .rows
            .iter()
            .filter(|x| x.category == cat && !shown_row(x))
            .collect();
        (cat, title, ordered, hidden)
    })
    .collect()
}

/// The side-by-side table: its head, a line per agent that would not
/// start, each section's rows (at most [`MAX_ROWS`]), then the legend of
/// the states shown.
fn table_lines(
    out: &mut String,
    p: &Painter,
    cmp: &Comparison,
    table: &Table,
    sections: Vec<Section<'_>>,
) {
    // One column per harness that starts; one that would not start has a
    // line of its own under the heading instead.
    let hs = &cmp.harnesses;
    for line in table.head(hs).lines() {
        let _ = writeln!(out, "{}", p.paint(line, heading()));
    }
    for refusal in &cmp.refused {
        out.push_str(&p.paint(
            &refused_line(refusal),
            severity_style(FindingSeverity::High),
        ));
    }
    let mut differing = 0;
    let mut seen: Vec<&str> = Vec::new();
    // No section when no agent starts: there is nothing to show.
    let sections = if hs.is_empty() { Vec::new() } else { sections };
    for section in &sections {
        differing += section_lines(out, p, table, section, &mut seen);
    }
    legend_lines(out, p, differing, &seen);
}

/// One section of the table: its title, its rows (at most [`MAX_ROWS`],
/// then how many more), and the rows it hides. Adds each cell state shown
/// and each layer named (`user`) to `seen`; returns how many of its rows
/// differ.
fn section_lines(
    out: &mut String,
    p: &Painter,
    table: &Table,
    (cat, title, ordered, hidden): &Section<'_>,
    seen: &mut Vec<&'static str>,
) -> usize {
    let mut differing = 0;
    let _ = writeln!(out, "{}", p.paint(title, heading()));
    if ordered.is_empty() {
        let _ = writeln!(out, "  {}", p.paint("none", dim()));
    }
    for entry in ordered.iter().take(MAX_ROWS) {
        let row = entry.first();
        if !row.agree {
            differing += entry.rows().len();
        }
        for c in &row.cells {
            let layer = c.layer.filter(|_| c.reception.is_some());
            for said in std::iter::once(cell_state(*cat, c)).chain(layer.map(SourceScope::as_str)) {
                if !seen.contains(&said) {
                    seen.push(said);
                }
            }
        }
        out.push_str(&table.row(*cat, entry));
        if let Entry::Many(rs) = entry {
            out.push_str(&p.paint(&group_names(rs, columns()), dim()));
        }
        if !row.differs.is_empty() {
            let note = format!("differs: {}", clean(&row.differs.join(", ")));
            out.push_str(&p.paint(&wrap(&note, "    ", columns()), dim()));
        }
    }
    if ordered.len() > MAX_ROWS {
        let rest: Vec<&Row> = ordered[MAX_ROWS..].iter().flat_map(Entry::rows).collect();
        let more = rest.len();
        let more_diff = rest.iter().filter(|x| !x.agree).count();
        differing += more_diff;
        out.push_str(&p.paint(
            &wrap(
                &format!("+{more} more ({more_diff} differing): see `check --format json`"),
                "  ",
                columns(),
            ),
            dim(),
        ));
    }
    if !hidden.is_empty() {
        out.push_str(&p.paint(&wrap(&hidden_line(hidden), "  ", columns()), dim()));
    }
    differing
}

/// The legend: `!` when rows differ, and the meaning of each cell state
/// and each layer (local mode: `user`, `local`, `managed`, `plugin`) in
/// `seen`.
fn legend_lines(out: &mut String, p: &Painter, differing: usize, seen: &[&str]) {
    let mut legend: Vec<&str> = Vec::new();
    if differing > 0 {
        legend.push("! = the agents differ.");
    }
    for (state, meaning) in [
        ("-", "- = the agent has nothing of that name or file."),
        NOT_LOADED_LEGEND[0],
        (
            "on demand",
            "on demand = after a file there is read or edited.",
        ),
        NOT_LOADED_LEGEND[1],
        NOT_LOADED_LEGEND[2],
        NOT_LOADED_LEGEND[3],
        (
            "by target",
            "by target = on demand, and reading or editing the target triggers it.",
        ),
        (
            "needs approval",
            "needs approval = configured, but started only once the user approves it.",
        ),
        (
            "conditional",
            "conditional = only after an approval or a runtime condition.",
        ),
        (
            "may run",
            "may run = registered, but whether it runs depends on trust the repository cannot show.",
        ),
        ("user", "(user) = from your own configuration in your home."),
        (
            "local",
            "(local) = from your own files for this project only.",
        ),
        ("managed", "(managed) = from the machine's managed policy."),
        ("plugin", "(plugin) = from a plugin installed in your home."),
    ] {
        if seen.contains(&state) {
            legend.push(meaning);
        }
    }
    if !legend.is_empty() {
        out.push_str(&p.paint(&wrap(&legend.join(" "), "", columns()), dim()));
    }
}

/// "Findings": the counts, then the groups of findings that share a
/// cause, the first ten and always those received at startup in the
/// launch directory itself, then how many more. `args` are the context's
/// arguments for the commands shown.
fn findings_lines(out: &mut String, p: &Painter, r: &CheckReport<'_>, args: &str) {
    let cmp = r.comparison;
    let s = &cmp.summary;
    out.push('\n');
    out.push_str(&p.title(&format!("Findings: {}", counts(s)), heading()));
    if cmp.findings.is_empty() {
        out.push_str(&wrap(
            "None: the agents compared receive the same configuration from here.",
            "  ",
            columns(),
        ));
    }
    let groups = group(&cmp.findings);
    let pinned = |g: &Group<'_>| {
        g.findings.iter().any(|f| {
            f.scope.as_ref() == Some(&r.context.cwd)
                && playbookdiff_compare::group::reception(f) == Reception::Startup
        })
    };
    let shown: Vec<&Group<'_>> = groups
        .iter()
        .enumerate()
        .filter(|(i, g)| *i < MAX_FINDINGS || pinned(g))
        .map(|(_, g)| g)
        .collect();
    for g in &shown {
        let f = g.first();
        let sev = format!("  {:<7} ", f.severity.as_str());
        let body = wrap(&clean(&g.summary(8)), "          ", columns());
        let _ = write!(out, "{}", p.paint(&sev, severity_style(f.severity)));
        out.push_str(body.trim_start());
        // Under the message, or further left when the id would pass the
        // right edge there: an id is never broken.
        let more = g.findings.len() - 1;
        for line in crate::layout::id_lines(10, "", &clean(&f.id), more, columns()) {
            let _ = writeln!(out, "{}", p.paint(&line, dim()));
        }
    }
    let hidden: usize = groups.len() - shown.len();
    if hidden > 0 {
        let n: usize = groups
            .iter()
            .filter(|g| !shown.iter().any(|s| std::ptr::eq(*s, *g)))
            .map(|g| g.findings.len())
            .sum();
        out.push_str(&wrap(
            &format!("+{n} more: see `playbookdiff check{args}`"),
            "  ",
            columns(),
        ));
    }
}

/// "Not known to this analysis", once: the assumptions every harness
/// shares, what no analysis can know, the submodules not read, and the
/// count of warnings about the repository itself.
fn unknown_lines(out: &mut String, p: &Painter, r: &CheckReport<'_>, args: &str) {
    let unknown = crate::report::unknown_items(r.configs, columns());
    let probs: Vec<String> = problems(r.configs)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(h, n)| format!("{} {n}", display_name(h)))
        .collect();
    if unknown.is_empty() && probs.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{}",
        p.paint("Not known to this analysis", heading())
    );
    out.push_str(&unknown);
    if !probs.is_empty() {
        out.push_str(&wrap_hanging(
            &format!(
                "- warnings about the repository itself: {}; see `playbookdiff compile{args} --harness NAME`",
                probs.join(", ")
            ),
            "  ",
            "    ",
            columns(),
        ));
    }
}

/// "Next": commands that analyse the same repository and context, each
/// with what it shows.
fn next_lines(out: &mut String, p: &Painter, r: &CheckReport<'_>, args: &str) {
    let _ = writeln!(out, "\n{}", p.paint("Next", heading()));
    let all_dirs_args = context_args(r.repository, r.context, r.via, false);
    let next = [
        (
            format!("playbookdiff check{args}"),
            "findings with evidence; exits 1 on medium",
        ),
        (
            format!("playbookdiff check{args} --format json"),
            "everything, for tools",
        ),
        (
            format!("playbookdiff explain ID{args}"),
            "one finding: why, and how to fix it",
        ),
        (
            format!("playbookdiff check{all_dirs_args} --all-dirs"),
            "every package of a monorepo at once",
        ),
    ];
    let cmd_w = next.iter().map(|(c, _)| width(c)).max().unwrap_or(0);
    let desc_w = next.iter().map(|(_, d)| width(d)).max().unwrap_or(0);
    for (cmd, desc) in &next {
        if 2 + cmd_w + 3 + desc_w <= columns() {
            let _ = writeln!(out, "  {}   {}", crate::layout::pad(cmd, cmd_w), desc);
        } else {
            // A command is continued with ` \`, never broken in a word.
            out.push_str(&crate::layout::command_lines(
                cmd,
                "  ",
                "      ",
                columns(),
            ));
            out.push_str(&p.paint(&wrap(desc, "      ", columns()), dim()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Via;
    use playbookdiff_compare::compare;
    use playbookdiff_model::{
        AnalysisContext, Applicability, Capabilities, EffectiveAgentConfig, LoadPhase, McpServer,
        RepoPath, SourceFormat, SourceRef, Transport,
    };
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");
    const CODEX: playbookdiff_model::Harness = playbookdiff_model::Harness::new("codex", "Codex");

    fn server(
        name: &str,
        applicability: Applicability,
        transport: Transport,
        declared: Option<&str>,
        args: &[&str],
    ) -> McpServer {
        McpServer {
            id: format!("mcp:{name}"),
            name: name.into(),
            source: SourceRef::project(RepoPath::new(".mcp.json").unwrap(), SourceFormat::Json)
                .with_lines(1, 2),
            other_sources: vec![],
            load_phase: LoadPhase::Startup,
            applicability,
            reason: "configured".into(),
            transport,
            declared_type: declared.map(str::to_string),
            command: (transport == Transport::Stdio).then(|| "uvx".to_string()),
            args: Some(args.iter().map(|a| a.to_string()).collect()),
            url: None,
            env: vec![],
            headers: vec![],
            enabled_tools: None,
            disabled_tools: None,
            unknown_fields: vec![],
            runtime_verified: false,
            capabilities: Capabilities { known: false },
            fingerprints: Default::default(),
        }
    }

    /// Claude Code: `db` (needs approval, other args), `docs-search` (SSE,
    /// needs approval), `github`, and names in CJK and with a right-to-left
    /// override; Codex: `db`, `github` and the two names.
    fn view() -> String {
        let ctx = AnalysisContext::at_root();
        let mut claude = EffectiveAgentConfig::new(CLAUDE, ctx.clone());
        let mut codex = EffectiveAgentConfig::new(CODEX, ctx.clone());
        use Applicability::{Conditional, Effective};
        claude.mcp_servers = vec![
            server(
                "db",
                Conditional,
                Transport::Stdio,
                None,
                &["--dsn", "${DB}"],
            ),
            server(
                "docs-search",
                Conditional,
                Transport::Unknown,
                Some("sse"),
                &[],
            ),
            server("github", Effective, Transport::Stdio, None, &[]),
            server("数据库服务器", Effective, Transport::Stdio, None, &["a"]),
            server(
                "evil\u{202E}gnp.exe",
                Effective,
                Transport::Stdio,
                None,
                &[],
            ),
        ];
        codex.mcp_servers = vec![
            server("db", Effective, Transport::Stdio, None, &["--dsn", "x"]),
            server("github", Effective, Transport::Stdio, None, &[]),
            server("数据库服务器", Effective, Transport::Stdio, None, &["b"]),
            server(
                "evil\u{202E}gnp.exe",
                Effective,
                Transport::Stdio,
                None,
                &[],
            ),
        ];
        let configs = vec![claude, codex];
        let cmp = compare(&configs.iter().collect::<Vec<_>>());
        let via = Via::default();
        overview_text(
            &CheckReport {
                repository: "examples/monorepo",
                context: &ctx,
                configs: &configs,
                comparison: &cmp,
                via: &via,
                gate: &crate::report::Gate::default(),
            },
            crate::Color::Plain,
        )
    }

    fn line_of<'a>(text: &'a str, start: &str) -> &'a str {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
    }

    #[test]
    fn a_differing_row_says_what_differs() {
        let text = view();
        let lines: Vec<&str> = text.lines().collect();
        let db = lines.iter().position(|l| l.starts_with("! db ")).unwrap();
        assert_eq!(lines[db + 1].trim(), "differs: args", "{text}");
    }

    #[test]
    fn servers_that_need_approval_do_not_look_effective() {
        let text = view();
        let db = line_of(&text, "! db ");
        assert!(db.contains("needs approval (stdio)"), "{db}");
        assert!(db.contains("startup (stdio)"), "{db}");
        let github = line_of(&text, "  github ");
        assert!(!github.contains("needs approval"), "{github}");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("needs approval = "), "{text}");
    }

    #[test]
    fn an_sse_server_shows_its_declared_transport() {
        let text = view();
        let docs = line_of(&text, "! docs-search ");
        assert!(docs.contains("needs approval (sse)"), "{docs}");
        assert!(!docs.contains("unknown"), "{docs}");
    }

    #[test]
    fn the_legend_explains_a_dash() {
        let text = view();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("- = the agent has nothing of that name"),
            "{text}"
        );
    }

    #[test]
    fn wide_names_keep_the_columns_aligned_within_eighty_columns() {
        let text = view();
        for line in text.lines() {
            assert!(crate::layout::width(line) <= 80, "{line:?}");
        }
        let start = |l: &str| {
            let i = l.find("startup").unwrap();
            crate::layout::width(&l[..i])
        };
        let github = start(line_of(&text, "  github "));
        let cjk = start(line_of(&text, "! 数据库服务器"));
        assert_eq!(github, cjk, "{text}");
    }

    #[test]
    fn bidirectional_overrides_in_names_are_escaped() {
        let text = view();
        assert!(!text.contains('\u{202E}'));
        assert!(text.contains("evil\\u{202e}gnp.exe"), "{text}");
    }

    #[test]
    fn the_pointers_name_the_repository_and_context() {
        let text = view();
        assert!(
            text.contains("  playbookdiff check examples/monorepo"),
            "{text}"
        );
        assert!(
            text.contains("  playbookdiff explain ID examples/monorepo"),
            "{text}"
        );
        assert!(
            text.contains("launched in . (the repository root)"),
            "{text}"
        );
    }

    /// An instruction row's label is shortened from the left only: what
    /// it shows after `…` is the end of one real path (a file name and
    /// whole directories where they fit), and files that are one text
    /// show the first path and a count, never a cut in the middle.
    #[test]
    fn row_labels_are_shortened_from_the_left_only() {
        let table = [
            "apps/daemon/CLAUDE.md = apps/react/CLAUDE.md = packages/contracts/CLAUDE.md = packages/database/CLAUDE.md = scripts/CLAUDE.md",
            "a/CLAUDE.md = b/CLAUDE.md",
            "humanlayer-wui/CLAUDE.md",
            ".github/workflows/CLAUDE.md",
            "packages/mcp-core/src/internal/agents/tools/data/CLAUDE.md",
            "x/数据库服务器/CLAUDE.md",
        ];
        for label in table {
            let paths: Vec<&str> = label.split(" = ").collect();
            for columns in [20, 24, 30, 60] {
                let shown = row_label(Category::Instruction, label, columns);
                assert_eq!(width(&shown), columns, "{label} in {columns}: {shown:?}");
                let shown = shown.trim_end();
                let (first, count) = match shown.rsplit_once(" +") {
                    Some((first, n)) if n.parse::<usize>().is_ok() => (first, Some(n)),
                    _ => (shown, None),
                };
                if shown == label {
                    continue;
                }
                let tail = first.strip_prefix('…').unwrap_or(first);
                assert!(!tail.contains('…'), "{label} in {columns}: {shown:?}");
                assert!(paths[0].ends_with(tail), "{label} in {columns}: {shown:?}");
                assert_eq!(
                    count.map(|n| n.parse::<usize>().unwrap()),
                    (paths.len() > 1).then(|| paths.len() - 1),
                    "{label} in {columns}: {shown:?}"
                );
            }
        }
    }

    /// 20,000 MCP servers that two harnesses have the same way, as a
    /// `.mcp.json` of about 500 KB gives them: grouped into one row whose
    /// names fill three lines. Grouping counted each row's group by
    /// scanning every row, and the names were wrapped once per name: the
    /// view of such a file did not finish in minutes. Twice the rows cost
    /// about twice the work (allocations), alone in a child process.
    #[test]
    fn thousands_of_servers_group_in_linear_time() {
        let rows = |n: usize| -> Vec<Row> {
            let cell = Cell {
                reception: Some(Reception::Startup),
                note: "stdio".into(),
                triggered: false,
                shadowed: false,
                not_loaded: None,
                layer: None,
            };
            (0..n)
                .map(|i| Row {
                    category: Category::Mcp,
                    label: format!("s{i}"),
                    cells: vec![cell.clone(), cell.clone()],
                    agree: true,
                    differs: vec![],
                })
                .collect()
        };
        let all = rows(20_000);
        let refs: Vec<&Row> = all.iter().collect();
        let grouped = entries(Category::Mcp, &refs);
        assert!(
            matches!(grouped.as_slice(), [Entry::Many(rs)] if rs.len() == 20_000),
            "not one group"
        );
        let names = group_names(&refs, 80);
        assert_eq!(names.lines().count(), GROUP_NAME_LINES, "{names}");
        assert!(names.trim_end().ends_with(" more"), "{names}");
        assert!(names.starts_with("    s0, s1, s2, "), "{names}");
        if !playbookdiff_testkit::alone!("thousands_of_servers_group_in_linear_time") {
            return;
        }
        let ratio = playbookdiff_testkit::work::growth(crate::ALLOCATOR, 10_000, rows, |rows| {
            let refs: Vec<&Row> = rows.iter().collect();
            entries(Category::Mcp, &refs);
            group_names(&refs, 80);
        });
        assert!(ratio < 2.6, "x{ratio:.2} for twice the rows");
    }
}

//! Every registered harness (six: Claude Code, Codex, Copilot CLI, Cursor,
//! Gemini CLI, OpenCode), compiled
//! on the example repository and rendered as the side-by-side view and
//! `check` would render them. At 80 columns the view's harness columns
//! do not fit, so the harnesses that receive an item the same way share
//! one cell, named by the keys of a legend; every line fits the width, at
//! 80 and at 40 columns (where finding ids, never broken, are excepted).

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, RepoPath};
use playbookdiff_render::{check_text, overview_text, with_width, CheckReport, Color, Gate, Via};
use playbookdiff_source::{Repo, WorkingTree};
use unicode_width::UnicodeWidthStr;

/// The registered adapters.
fn adapters() -> Vec<&'static dyn Adapter> {
    playbookdiff_registry::adapters().to_vec()
}

/// The view and `check` of the example at the root, at `columns`.
fn render(columns: usize) -> (String, String) {
    let root = playbookdiff_testkit::corpus::workspace().join("examples/monorepo");
    let tree = WorkingTree::open(&root).unwrap();
    let repo = Repo::new(&tree);
    let context = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: RepoPath::root(),
        target_path: None,
        mode: playbookdiff_model::Mode::Repo,
    };
    let configs: Vec<EffectiveAgentConfig> = adapters()
        .iter()
        .map(|a| a.compile(&repo, &context, None))
        .collect();
    assert!(configs.len() >= 6, "{} harnesses", configs.len());
    let comparison = playbookdiff_compare::compare(&configs.iter().collect::<Vec<_>>());
    let (via, gate) = (Via::default(), Gate::default());
    let report = CheckReport {
        repository: "examples/monorepo",
        context: &context,
        configs: &configs,
        comparison: &comparison,
        via: &via,
        gate: &gate,
    };
    with_width(columns, || {
        (
            overview_text(&report, Color::Plain),
            check_text(&report, Color::Plain),
        )
    })
}

/// The lines of `text` wider than `columns`, but for a line that holds a
/// finding id (never broken: `instruction:missing:…:hash`) when `columns`
/// is narrower than 80: at 80 an id (at most 72 characters, whatever
/// the number of harnesses it names) fits with its indentation.
fn too_wide(text: &str, columns: usize) -> Vec<String> {
    let id = regex::Regex::new(r"[a-z]+:[a-z-]+:[a-z0-9+-]+:\S*:[0-9a-f]{12}").unwrap();
    text.lines()
        .filter(|l| UnicodeWidthStr::width(*l) > columns && (columns >= 80 || !id.is_match(l)))
        .map(str::to_string)
        .collect()
}

#[test]
fn six_harnesses_fit_eighty_and_forty_columns() {
    for columns in [80, 40] {
        let (view, check) = render(columns);
        for (what, text) in [("view", &view), ("check", &check)] {
            let wide = too_wide(text, columns);
            assert!(wide.is_empty(), "{what} at {columns}: {wide:#?}\n{text}");
        }
        // Every harness is named, in the legend of the shared cells.
        for name in adapters().iter().map(|a| a.harness().display_name()) {
            let flat = view.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(&format!("= {name}")), "{name}:\n{view}");
        }
    }
}

/// The shared cells say who receives each item how: the MCP server `db`
/// that Claude Code needs approval for, Codex and Copilot CLI start, and
/// Cursor, Gemini CLI and OpenCode lack.
#[test]
fn shared_cells_group_the_harnesses_that_receive_an_item_alike() {
    let (view, _) = render(80);
    let legend = view
        .lines()
        .skip_while(|l| !l.contains("What each agent receives"))
        .nth(1)
        .unwrap();
    assert!(
        legend.starts_with("  Cla = Claude Code, Cod = Codex"),
        "{legend}"
    );
    // The row of `db` and its continuation lines.
    let db: Vec<&str> = view
        .lines()
        .skip_while(|l| !l.starts_with("! db "))
        .take_while(|l| l.starts_with("! db ") || l.starts_with("     "))
        .collect();
    let db = db.join("\n");
    assert!(db.contains("Cla: needs approval (stdio)"), "{db}\n{view}");
    assert!(db.contains("Cod Cop: startup (stdio)"), "{db}");
    assert!(db.contains("Cur Gem Ope: -"), "{db}");
    insta::assert_snapshot!("six_harnesses_view_80", view);
    let (_, check) = render(80);
    insta::assert_snapshot!("six_harnesses_check_80", check);
}

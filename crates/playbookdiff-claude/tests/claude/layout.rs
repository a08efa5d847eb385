//! The adapter's surface table (its layout, `playbookdiff layout`) and
//! its compilation name the same files: every row is read, every file
//! read is a row.

use playbookdiff_testkit::layout::{
    assert_every_row_is_read, assert_every_source_is_a_row, Example,
};

/// A repository holding one file per row of the table compiles, under
/// every profiled release, to a result naming each of those files.
#[test]
fn every_row_of_the_table_is_read() {
    assert_every_row_is_read(&playbookdiff_claude::ADAPTER, EXAMPLE);
}

/// Every file an item of a compilation of the adapter's fixtures comes
/// from is a row of the table.
#[test]
fn every_file_read_is_a_row_of_the_table() {
    let fixtures = playbookdiff_testkit::all_fixtures(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
    );
    assert_every_source_is_a_row(&playbookdiff_claude::ADAPTER, &fixtures, |_, _| false);
}

/// What the example repository needs besides one file per row: a
/// marketplace that lists the plugin (whose manifest, a row, is broken)
/// and a remote one (an item whose source is the marketplace);
/// `AGENTS.md` loads only where no `CLAUDE.md` is (2.1.332).
const EXAMPLE: Example<'static> = Example {
    extra: &[(
        ".claude-plugin/marketplace.json",
        r#"{"name": "m", "plugins": [{"name": "plug", "source": "./plug"},
            {"name": "far", "source": {"source": "github", "repo": "o/far"}}]}"#,
    )],
    alone: &["**/AGENTS.md", "**/.claude/AGENTS.md"],
    plugin_dir: "plug",
};

/// Every file of the user's home or of the machine that local mode reads
/// for the oracle's fixture homes is a user or managed row of the table
/// (which `playbookdiff layout` prints and the guard protects).
#[test]
fn every_home_file_read_is_a_row_of_the_table() {
    playbookdiff_testkit::layout::assert_every_home_source_is_a_row(
        &playbookdiff_claude::ADAPTER,
        |_, _| false,
    );
}

//! The adapter's surface table (its layout, `playbookdiff layout`) and
//! its compilation name the same files: every row is read, every file
//! read is a row.

use playbookdiff_testkit::layout::{
    assert_every_row_is_read, assert_every_source_is_a_row, Example,
};

/// A repository holding one file per row of the table compiles to a
/// result naming each of those files.
#[test]
fn every_row_of_the_table_is_read() {
    assert_every_row_is_read(&playbookdiff_cursor::ADAPTER, EXAMPLE);
}

/// Every file an item of a compilation of the adapter's fixtures comes
/// from is a row of the table.
#[test]
fn every_file_read_is_a_row_of_the_table() {
    let fixtures = playbookdiff_testkit::all_fixtures(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
    );
    assert_every_source_is_a_row(&playbookdiff_cursor::ADAPTER, &fixtures, |_, _| false);
}

/// What the example repository needs besides one file per row.
const EXAMPLE: Example<'static> = Example {
    extra: &[],
    alone: &[],
    plugin_dir: "plug",
};

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
    assert_every_row_is_read(&playbookdiff_gemini::ADAPTER, EXAMPLE);
}

/// Every file an item of a compilation of the adapter's fixtures comes
/// from is a row of the table, apart from the context files
/// `context.fileName` names.
#[test]
fn every_file_read_is_a_row_of_the_table() {
    let fixtures = playbookdiff_testkit::all_fixtures(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
    );
    assert_every_source_is_a_row(&playbookdiff_gemini::ADAPTER, &fixtures, |config, path| {
        config.instructions.iter().any(|i| {
            i.source.path.as_str() == path && i.source.path.file_name() != Some("GEMINI.md")
        })
    });
}

/// What the example repository needs besides one file per row.
const EXAMPLE: Example<'static> = Example {
    extra: &[],
    alone: &[],
    plugin_dir: "plug",
};

/// The folders Gemini CLI reads policy files from of its own: the user's
/// (and the extensions' under `~/.gemini/`) and the system's.
const GEMINI_POLICY_FOLDERS: &[&str] = &["~/.gemini/", "/etc/gemini-cli/"];

/// Every file of the user's home or of the machine that local mode reads
/// for the oracle's fixture homes is a user or managed row of the table
/// (which `playbookdiff layout` prints and the guard protects), apart
/// from the policy files the settings' `policyPaths` and
/// `adminPolicyPaths` name (0.36.0 on), which may lie anywhere.
#[test]
fn every_home_file_read_is_a_row_of_the_table() {
    playbookdiff_testkit::layout::assert_every_home_source_is_a_row(
        &playbookdiff_gemini::ADAPTER,
        |config, path| {
            playbookdiff_testkit::layout::permission_file_named_by_a_setting(
                config,
                path,
                GEMINI_POLICY_FOLDERS,
            )
        },
    );
}

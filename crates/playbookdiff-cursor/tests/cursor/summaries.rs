//! One snapshot per fixture: the summary (`playbookdiff_testkit::summary`)
//! of what Cursor receives from each repository under `tests/fixtures/`,
//! opened at its root in repo mode (`INSTA_UPDATE=always` rewrites them
//! after a reviewed change).

#[test]
fn every_fixture_summary_matches_its_snapshot() {
    playbookdiff_testkit::assert_fixture_summaries(
        &playbookdiff_cursor::ADAPTER,
        env!("CARGO_MANIFEST_DIR"),
        "cursor",
    );
}

//! One snapshot per fixture: the summary (`playbookdiff_testkit::summary`)
//! of what Copilot CLI receives from each repository under
//! `tests/fixtures/`, launched at its root in repo mode, as the newest
//! profiled release (`INSTA_UPDATE=always` rewrites them after a reviewed
//! change).

#[test]
fn every_fixture_summary_matches_its_snapshot() {
    playbookdiff_testkit::assert_fixture_summaries(
        &playbookdiff_copilot::ADAPTER,
        env!("CARGO_MANIFEST_DIR"),
        "copilot",
    );
}

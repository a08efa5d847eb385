//! One snapshot per fixture: the summary (`playbookdiff_testkit::summary`)
//! of what Claude Code receives from each repository under `tests/fixtures/`,
//! launched at its root in repo mode, as the newest profiled release. The
//! snapshots are in `snapshots/` beside this file; a change to any fact
//! of any fixture shows there as a reviewed diff (`INSTA_UPDATE=always`
//! rewrites them; with `CI=true` a mismatch fails and nothing is written).

#[test]
fn every_fixture_summary_matches_its_snapshot() {
    playbookdiff_testkit::assert_fixture_summaries(
        &playbookdiff_claude::ADAPTER,
        env!("CARGO_MANIFEST_DIR"),
        "claude",
    );
}

//! One snapshot per fixture: the summary (`playbookdiff_testkit::summary`)
//! of what Claude Code receives from each repository under `tests/fixtures/`,
//! launched at its root in repo mode, as the newest profiled release. The
//! snapshots are in `snapshots/` beside this file; a change to any fact
//! of any fixture shows there as a reviewed diff (`INSTA_UPDATE=always`
//! rewrites them; with `CI=true` a mismatch fails and nothing is written).

use playbookdiff_testkit::{
    all_fixtures, at_root, compile_dir, fixtures_dir, stale_snapshots, summary,
};

#[test]
fn every_fixture_summary_matches_its_snapshot() {
    let fixtures = all_fixtures(&fixtures_dir!());
    assert!(fixtures.len() > 5, "{} fixtures", fixtures.len());
    let mut names = Vec::new();
    for dir in fixtures {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        names.push(name.clone());
        let cfg = compile_dir(&playbookdiff_claude::ADAPTER, &dir, &at_root());
        insta::assert_snapshot!(name, summary(&cfg));
    }
    let snapshots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/claude/snapshots");
    let stale = stale_snapshots(&snapshots, "claude__summaries__", &names);
    assert!(
        stale.is_empty(),
        "snapshots of no fixture (delete them): {stale:?}"
    );
}

//! Every fact of a bisected version table has the boundary the bisection
//! found: for each adapter whose coverage is [`Coverage::Bisected`], each
//! of its [`Adapter::release_changes`] starts at the release
//! `oracle/bisect/<harness>.json` (written by `scripts/oracle/bisect.py`)
//! gives as the first that shows it, and every bisected fact is one of the
//! adapter's. A fact with no bisected boundary, or a boundary the table
//! moved by hand, fails here. The behaviour named `window_start` is the
//! first release the recorder can observe: the adapter's window
//! ([`Adapter::first_modelled`]) starts there.

use playbookdiff_model::profile::{compare_versions, within, Coverage};
use playbookdiff_registry::{Adapter, ADAPTERS};
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::Path;

/// The bisection results of `harness`: fact -> the releases found first
/// by each of its behaviours.
fn bisected(harness: &str) -> BTreeMap<String, Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/bisect")
        .join(format!("{harness}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{harness}: no bisection results at {}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).expect("bisection results are JSON");
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for b in doc["behaviours"].as_array().expect("a list of behaviours") {
        let id = b["id"].as_str().unwrap_or("?");
        assert!(b.get("error").is_none(), "{harness} {id}: {}", b["error"]);
        let first = b["firstRelease"]
            .as_str()
            .expect("firstRelease")
            .to_string();
        let installs = b["installs"].as_u64().expect("installs");
        let bound = b["installBound"].as_u64().expect("installBound");
        assert!(
            installs <= bound,
            "{harness} {id}: {installs} installs, more than {bound}"
        );
        // A behaviour no fact of the adapter models yet is listed in
        // docs/fidelity.md as such, not held against the table.
        if b["modelled"] == Value::Bool(false) {
            continue;
        }
        let fact = b["fact"].as_str().expect("fact").to_string();
        out.entry(fact).or_default().push(first);
    }
    out
}

/// The pseudo-fact of the behaviour that finds the window's first release.
const WINDOW_START: &str = "window_start";

fn bisected_adapters() -> impl Iterator<Item = &'static &'static dyn Adapter> {
    ADAPTERS
        .iter()
        .filter(|a| a.coverage() == Coverage::Bisected)
}

/// The harnesses whose version tables are keyed by bisection: each must
/// be [`Coverage::Bisected`], so that the test below holds its facts.
const BISECTED: &[&str] = &["claude-code", "codex", "gemini", "copilot", "opencode"];

#[test]
fn every_fact_starts_where_the_bisection_found_it() {
    let ids: Vec<&str> = bisected_adapters().map(|a| a.harness().as_str()).collect();
    for h in BISECTED {
        assert!(ids.contains(h), "{h} is bisected");
    }
    for a in bisected_adapters() {
        let h = a.harness().as_str();
        let found = bisected(h);
        let profiled = a.profiled_versions();
        let (oldest, newest) = (a.first_modelled(), profiled[profiled.len() - 1]);
        let mut found = found;
        if let Some(start) = found.remove(WINDOW_START) {
            assert_eq!(
                start,
                [oldest],
                "{h}: the window starts where the recorder first runs"
            );
        }
        for c in a.release_changes() {
            let firsts = found
                .get(c.fact)
                .unwrap_or_else(|| panic!("{h}: fact {} has no bisected boundary", c.fact));
            // A fact several behaviours show holds from the last of them.
            let last = firsts
                .iter()
                .max_by(|x, y| compare_versions(x, y))
                .expect("at least one");
            assert_eq!(
                c.since, last,
                "{h}: {} starts at {} by bisection",
                c.fact, last
            );
            assert!(
                within(c.since, oldest, newest),
                "{h}: {} outside the window",
                c.fact
            );
            assert_ne!(
                compare_versions(c.since, oldest),
                Ordering::Equal,
                "{h}: {}",
                c.fact
            );
        }
        assert_eq!(
            a.rows_not_reached(),
            Vec::<&str>::new(),
            "{h}: these rows of the version table hold a fact that differs from the row before \
             without a bisected first release: bisect it (scripts/oracle/bisect.py) and add its change"
        );
        for fact in found.keys() {
            assert!(
                a.release_changes().iter().any(|c| c.fact == fact),
                "{h}: the bisected fact {fact} is not in the adapter's table"
            );
        }
    }
}

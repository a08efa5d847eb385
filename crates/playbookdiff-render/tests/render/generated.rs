//! The committed generated files must match what the code generates.
//!
//! A failure means the model or the diagnostic table changed without the
//! generated files being refreshed. Regenerate them with
//! `UPDATE_GENERATED=1 cargo test -p playbookdiff-render`
//! and commit the result.

use std::path::PathBuf;

fn workspace_file(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative)
}

/// Compares `relative` with `expected`, or rewrites it when
/// `UPDATE_GENERATED` is set.
fn check_generated(relative: &str, expected: &str) {
    let path = workspace_file(relative);
    if std::env::var_os("UPDATE_GENERATED").is_some_and(|v| !v.is_empty()) {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&path, expected).unwrap();
        return;
    }
    let how = "Regenerate it with `UPDATE_GENERATED=1 cargo test -p playbookdiff-render` \
               and commit the result.";
    let Ok(actual) = std::fs::read_to_string(&path) else {
        panic!("{relative} is missing. {how}");
    };
    if actual != expected {
        let first_difference = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .unwrap_or_else(|| actual.lines().count().min(expected.lines().count()))
            + 1;
        panic!("{relative} is stale (first difference at line {first_difference}). {how}");
    }
}

#[test]
fn check_schema_is_up_to_date() {
    check_generated(
        "schema/check.schema.json",
        &playbookdiff_render::check_schema(),
    );
}

#[test]
fn json_schema_is_up_to_date() {
    check_generated(
        "schema/effective-agent-config.schema.json",
        &playbookdiff_render::json_schema(),
    );
}

#[test]
fn diagnostics_doc_is_up_to_date() {
    check_generated(
        "docs/diagnostics.md",
        &playbookdiff_render::diagnostics_doc(),
    );
}

#[test]
fn config_schema_is_up_to_date() {
    check_generated(
        "schema/playbookdiff-toml.schema.json",
        &playbookdiff_config::schema(),
    );
}

#[test]
fn diff_schema_is_up_to_date() {
    check_generated(
        "schema/diff.schema.json",
        &playbookdiff_render::diff::diff_schema(),
    );
}

#[test]
fn layout_schema_is_up_to_date() {
    check_generated(
        "schema/layout.schema.json",
        &playbookdiff_render::harness_layout::layout_schema(),
    );
}

#[test]
fn round_context_schema_is_up_to_date() {
    check_generated(
        "schema/round-context.schema.json",
        &playbookdiff_render::round::context_schema(),
    );
}

#[test]
fn round_probe_schema_is_up_to_date() {
    check_generated(
        "schema/round-probe.schema.json",
        &playbookdiff_render::round_probe::probe_schema(),
    );
}

#[test]
fn round_rulings_schema_is_up_to_date() {
    check_generated(
        "schema/round-rulings.schema.json",
        &playbookdiff_render::round::rulings_schema(),
    );
}

#[test]
fn round_audit_schema_is_up_to_date() {
    check_generated(
        "schema/round-audit.schema.json",
        &playbookdiff_render::round_audit::audit_schema(),
    );
}

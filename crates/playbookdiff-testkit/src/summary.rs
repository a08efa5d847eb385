//! A compact, stable text summary of an [`EffectiveAgentConfig`], for
//! per-fixture snapshot tests: what the harness receives (instruction
//! sources in entry order with order, loadPhase and applicability; skills;
//! MCP servers with transport) and the diagnostics by severity, code and
//! place. Messages and contents are left out: the summary changes when a
//! fact changes, not when wording does. Enum values are spelled as in the
//! JSON output (kebab-case); lines are 1-based.

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{EffectiveAgentConfig, SourceRef};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// `value` as the JSON output spells it (an enum's kebab-case name).
fn word(value: impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(e) => format!("<{e}>"),
    }
}

/// `path:start-end`, `path:line` or `path`.
fn place(s: &SourceRef) -> String {
    match s.lines {
        Some(l) if l.start == l.end => format!("{}:{}", s.path, l.start),
        Some(l) => format!("{}:{}-{}", s.path, l.start, l.end),
        None => s.path.to_string(),
    }
}

/// The summary, one item a line, in the result's own order, under a
/// heading per section (a section with no item says `none`).
pub fn summary(cfg: &EffectiveAgentConfig) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "harness {}", word(cfg.harness));
    s.push_str("instructions (order loadPhase applicability source kind appliesTo)\n");
    for i in &cfg.instructions {
        let order = i.order.map_or("-".to_string(), |o| o.to_string());
        let _ = writeln!(
            s,
            "  {order} {} {} {} {} {}",
            word(i.load_phase),
            word(i.applicability),
            place(&i.source),
            i.kind,
            i.applies_to
        );
    }
    if cfg.instructions.is_empty() {
        s.push_str("  none\n");
    }
    s.push_str("skills (name loadPhase applicability advertisement source)\n");
    for k in &cfg.skills {
        let _ = writeln!(
            s,
            "  {} {} {} {} {}",
            k.name,
            word(k.load_phase),
            word(k.applicability),
            word(k.advertisement.state),
            place(&k.source)
        );
    }
    if cfg.skills.is_empty() {
        s.push_str("  none\n");
    }
    s.push_str("mcp servers (name transport loadPhase applicability source)\n");
    for m in &cfg.mcp_servers {
        let _ = writeln!(
            s,
            "  {} {} {} {} {}",
            m.name,
            word(m.transport),
            word(m.load_phase),
            word(m.applicability),
            place(&m.source)
        );
    }
    if cfg.mcp_servers.is_empty() {
        s.push_str("  none\n");
    }
    extras(cfg, &mut s);
    s.push_str("diagnostics (severity code source)\n");
    for d in &cfg.diagnostics {
        let at = d.source.as_ref().map_or("-".to_string(), place);
        let _ = writeln!(s, "  {} {} {at}", word(d.severity), d.code.as_str());
    }
    if cfg.diagnostics.is_empty() {
        s.push_str("  none\n");
    }
    s
}

/// The subagents, commands, output styles and plugins, each section only
/// when the configuration has some (so summaries of fixtures without them
/// read as before they were modelled).
fn extras(cfg: &EffectiveAgentConfig, s: &mut String) {
    if !cfg.subagents.is_empty() {
        s.push_str("subagents (name mode loadPhase applicability source)\n");
        for a in &cfg.subagents {
            let _ = writeln!(
                s,
                "  {} {} {} {} {}",
                a.name,
                word(a.mode),
                word(a.load_phase),
                word(a.applicability),
                place(&a.source)
            );
        }
    }
    if !cfg.commands.is_empty() {
        s.push_str("commands (name loadPhase applicability source)\n");
        for c in &cfg.commands {
            let _ = writeln!(
                s,
                "  /{} {} {} {}",
                c.name,
                word(c.load_phase),
                word(c.applicability),
                place(&c.source)
            );
        }
    }
    if !cfg.output_styles.is_empty() {
        s.push_str("output styles (name active applicability source)\n");
        for o in &cfg.output_styles {
            let _ = writeln!(
                s,
                "  {} {} {} {}",
                o.name,
                o.active,
                word(o.applicability),
                place(&o.source)
            );
        }
    }
    if !cfg.plugins.is_empty() {
        s.push_str("plugins (name load source; contributions kind name source)\n");
        for p in &cfg.plugins {
            let load = serde_json::to_value(&p.load)
                .ok()
                .and_then(|v| v.get("state").and_then(|x| x.as_str()).map(str::to_string))
                .unwrap_or_default();
            let _ = writeln!(s, "  {} {load} {}", p.name, place(&p.source));
            for c in &p.contributions {
                let _ = writeln!(s, "    {} {} {}", word(c.kind), c.name, place(&c.source));
            }
        }
    }
}

/// Asserts the [`summary`] of every fixture of an adapter crate against its
/// snapshot: each directory under `<manifest_dir>/tests/fixtures/` (more
/// than five of them), compiled with `adapter` at its root in repo mode as
/// the newest profiled release, against
/// `<manifest_dir>/tests/<binary>/snapshots/<binary>__summaries__<fixture>.snap`
/// (the file insta names for a snapshot asserted in module `summaries` of
/// the integration-test binary `<binary>`, where each crate calls this).
/// Then fails on a snapshot file of that form whose fixture no longer
/// exists, which insta itself never removes.
///
/// A mismatch fails as any insta assertion does (`INSTA_UPDATE=always`
/// rewrites the file; with `INSTA_UPDATE=no` or `CI=true` nothing is
/// written). Panics, failing the test, when the fixtures directory cannot
/// be read.
pub fn assert_fixture_summaries(adapter: &dyn Adapter, manifest_dir: &str, binary: &str) {
    let root = Path::new(manifest_dir);
    let fixtures = crate::all_fixtures(&root.join("tests/fixtures"));
    assert!(fixtures.len() > 5, "{} fixtures", fixtures.len());
    let snapshots = root.join("tests").join(binary).join("snapshots");
    let prefix = format!("{binary}__summaries__");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(&snapshots);
    settings.set_prepend_module_to_snapshot(false);
    let mut names = Vec::new();
    for dir in fixtures {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let cfg = crate::compile_dir(adapter, &dir, &crate::at_root());
        settings.bind(|| insta::assert_snapshot!(format!("{prefix}{name}"), summary(&cfg)));
        names.push(name);
    }
    let stale = stale_snapshots(&snapshots, &prefix, &names);
    assert!(
        stale.is_empty(),
        "snapshots of no fixture (delete them): {stale:?}"
    );
}

/// The snapshot files in `snapshots` named `<prefix><name>.snap` whose
/// `name` is not in `names`: snapshots of fixtures that no longer exist,
/// which insta itself never removes.
pub fn stale_snapshots(snapshots: &Path, prefix: &str, names: &[String]) -> Vec<String> {
    let mut stale: Vec<String> = std::fs::read_dir(snapshots)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter_map(|f| {
                    let name = f.strip_prefix(prefix)?.strip_suffix(".snap")?;
                    (!names.iter().any(|n| n == name)).then(|| f.clone())
                })
                .collect()
        })
        .unwrap_or_default();
    stale.sort();
    stale
}

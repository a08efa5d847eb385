//! A compact, stable text summary of an [`EffectiveAgentConfig`], for
//! per-fixture snapshot tests: what the harness receives (instruction
//! sources in entry order with order, loadPhase and applicability; skills;
//! MCP servers with transport) and the diagnostics by severity, code and
//! place. Messages and contents are left out: the summary changes when a
//! fact changes, not when wording does. Enum values are spelled as in the
//! JSON output (kebab-case); lines are 1-based.

use playbookdiff_model::{EffectiveAgentConfig, SourceRef};
use serde::Serialize;
use std::fmt::Write as _;

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

/// The snapshot files in `snapshots` named `<prefix><name>.snap` whose
/// `name` is not in `names`: snapshots of fixtures that no longer exist,
/// which insta itself never removes.
pub fn stale_snapshots(snapshots: &std::path::Path, prefix: &str, names: &[String]) -> Vec<String> {
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

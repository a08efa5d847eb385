//! MCP servers, matched by name.
//!
//! Environment variables and headers are compared by the variables they
//! name, not by how the name is written: `${KEY}`, `${KEY:-default}` and a
//! host variable `KEY` (e.g. Codex `env_vars = ["KEY"]`) all mean "the value
//! of KEY in the developer's environment". Two redacted literals cannot be
//! compared: that is `unknown`, never `different`.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::state::Reception;
use crate::{display_name, names, Cell, Row, Rows};
use playbookdiff_model::{
    Applicability, ConfiguredValue, EffectiveAgentConfig, Harness, McpServer, NamedValue, Transport,
};
use std::collections::{BTreeMap, BTreeSet};

/// A value reduced to what can be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Val {
    /// The variables it takes its value from.
    Vars(BTreeSet<String>),
    /// A literal, redacted: unknowable.
    Redacted,
    /// A placeholder expression naming no variable, verbatim.
    Text(String),
}

impl Val {
    fn show(&self) -> String {
        match self {
            Val::Vars(v) => v
                .iter()
                .map(|x| format!("${x}"))
                .collect::<Vec<_>>()
                .join(" "),
            Val::Redacted => "<redacted>".to_string(),
            Val::Text(t) => t.clone(),
        }
    }
}

/// The variable names in `${NAME}`, `${NAME:-default}`, `${NAME-x}` and
/// `$NAME` placeholders.
pub(crate) fn variables(expr: &str) -> BTreeSet<String> {
    let b = expr.as_bytes();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let braced = b.get(i + 1) == Some(&b'{');
            let start = if braced { i + 2 } else { i + 1 };
            let mut j = start;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > start && !b[start].is_ascii_digit() {
                out.insert(expr[start..j].to_string());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn val(v: &ConfiguredValue) -> Val {
    match v {
        ConfiguredValue::Reference { expression } => {
            let vars = variables(expression);
            if vars.is_empty() {
                Val::Text(expression.clone())
            } else {
                Val::Vars(vars)
            }
        }
        ConfiguredValue::Host { variable } => Val::Vars(BTreeSet::from([variable.clone()])),
        ConfiguredValue::Configured { .. } => Val::Redacted,
    }
}

fn map(values: &[NamedValue], fold_case: bool) -> BTreeMap<String, Val> {
    values
        .iter()
        .map(|nv| {
            let k = if fold_case {
                nv.name.to_ascii_lowercase()
            } else {
                nv.name.clone()
            };
            (k, val(&nv.value))
        })
        .collect()
}

fn transport(t: Transport) -> &'static str {
    match t {
        Transport::Stdio => "stdio",
        Transport::Http => "http",
        Transport::Unknown => "unknown",
    }
}

/// The transport as the file declares it: `stdio`, `http`, or the declared
/// type not modelled by PlaybookDiff (`sse`, `ws`).
fn transport_as_declared(s: &McpServer) -> String {
    match (s.transport, &s.declared_type) {
        (Transport::Unknown, Some(t)) if !t.trim().is_empty() => t.trim().to_string(),
        (Transport::Unknown, _) => "transport unknown".to_string(),
        (t, _) => transport(t).to_string(),
    }
}

/// How a cell shows a server: started, started only once something the
/// analysis cannot know happens (an approval), or not started.
fn cell_reception(s: &McpServer) -> Reception {
    if !received(s) {
        Reception::NotLoaded
    } else if s.applicability == Applicability::Conditional {
        Reception::Conditional
    } else {
        Reception::of(s.load_phase, Applicability::Effective)
    }
}

fn received(s: &McpServer) -> bool {
    // Approval (conditional) is a runtime state both harnesses have in
    // some form; it is stated in the assumptions, not compared.
    !matches!(
        s.applicability,
        Applicability::Excluded
            | Applicability::Shadowed
            | Applicability::Unavailable
            | Applicability::OutOfScope
    )
}

fn item(h: Harness, s: &McpServer) -> FindingItem {
    FindingItem {
        harness: h,
        id: s.id.clone(),
        source: s.source.clone(),
        load_phase: s.load_phase,
        applicability: s.applicability,
        reason: s.reason.clone(),
    }
}

#[allow(clippy::too_many_arguments)]
fn finding(
    configs: &[&EffectiveAgentConfig],
    sides: &[Vec<&McpServer>],
    kind: FindingType,
    severity: FindingSeverity,
    name: &str,
    aspect: &str,
    direction: String,
    present: &[usize],
    absent: &[usize],
    items: Vec<FindingItem>,
    message: String,
) -> Finding {
    let hs = |v: &[usize]| v.iter().map(|&h| configs[h].harness).collect::<Vec<_>>();
    FindingDraft {
        direction,
        present_in: hs(present),
        absent_from: hs(absent),
        items,
        message,
        subject: Some(Subject::Mcp {
            name: name.to_string(),
            transport: present_transport(sides, present),
        }),
        ..FindingDraft::named(Category::Mcp, (kind, severity), name, aspect)
    }
    .build()
}

/// The transport of one server name on the `present` side: the one every
/// received definition there agrees on, else [`Transport::Unknown`].
/// `sides[h]` holds the definitions of that name in config `h`, in order,
/// so the cost is that of the name's own definitions, not of all servers.
fn present_transport(sides: &[Vec<&McpServer>], present: &[usize]) -> Transport {
    let mut seen = present
        .iter()
        .flat_map(|&h| sides[h].iter().copied())
        .filter(|s| received(s))
        .map(|s| s.transport);
    match seen.next() {
        Some(t) if seen.all(|u| u == t) => t,
        _ => Transport::Unknown,
    }
}

fn field(
    configs: &[&EffectiveAgentConfig],
    name: &str,
    values: Vec<Option<String>>,
) -> FieldDifference {
    FieldDifference {
        field: name.to_string(),
        values: values
            .into_iter()
            .enumerate()
            .map(|(h, value)| FieldValue {
                harness: configs[h].harness,
                value,
            })
            .collect(),
    }
}

pub(crate) fn compare(
    configs: &[&EffectiveAgentConfig],
    rows: &mut Rows,
    findings: &mut Vec<Finding>,
) {
    let n = configs.len();
    let mut by_name: BTreeMap<&str, Vec<Vec<&McpServer>>> = BTreeMap::new();
    for (h, c) in configs.iter().enumerate() {
        for s in &c.mcp_servers {
            by_name
                .entry(s.name.as_str())
                .or_insert_with(|| vec![Vec::new(); n])[h]
                .push(s);
        }
    }
    let all: Vec<usize> = (0..n).collect();
    let sym = id::symmetric(n);
    for (name, sides) in &by_name {
        let cname = crate::code_span(name);
        let rep: Vec<Option<&McpServer>> = sides
            .iter()
            .map(|v| v.iter().find(|s| received(s)).or(v.first()).copied())
            .collect();
        let row = rows.push(|| Row {
            category: Category::Mcp,
            label: name.to_string(),
            cells: rep
                .iter()
                .map(|r| match r {
                    None => Cell::absent(),
                    Some(s) => Cell::of(
                        cell_reception(s),
                        transport_as_declared(s),
                        s.load_phase,
                        s.applicability,
                    ),
                })
                .collect(),
            agree: false,
            differs: Vec::new(),
        });
        let items: Vec<FindingItem> = (0..n)
            .flat_map(|h| sides[h].iter().map(move |s| item(configs[h].harness, s)))
            .collect();
        let on: Vec<usize> = (0..n).filter(|&h| rep[h].is_some_and(received)).collect();
        if on.is_empty() {
            row.agree = true;
            continue;
        }
        if on.len() < n {
            let off: Vec<usize> = (0..n).filter(|h| !on.contains(h)).collect();
            let hs = |v: &[usize]| v.iter().map(|&h| configs[h].harness).collect::<Vec<_>>();
            let why: Vec<String> = off
                .iter()
                .map(|&h| match rep[h] {
                    None => format!(
                        "{} has no server of that name",
                        display_name(configs[h].harness)
                    ),
                    Some(s) => format!(
                        "{} does not start it ({})",
                        display_name(configs[h].harness),
                        s.reason.trim_end_matches('.')
                    ),
                })
                .collect();
            let mut f = finding(
                configs,
                sides,
                FindingType::CapabilityGap,
                FindingSeverity::Medium,
                name,
                "presence",
                id::only(&hs(&on)),
                &on,
                &off,
                items,
                format!(
                    "MCP server {cname} is configured for {} only; {}.",
                    names(&hs(&on)),
                    why.join("; ")
                ),
            );
            f.absences = off
                .iter()
                .map(|&h| crate::Absence {
                    harness: configs[h].harness,
                    reason: match rep[h] {
                        None => format!(
                            "{} configures no MCP server named {cname} under this context.",
                            display_name(configs[h].harness)
                        ),
                        Some(s) => s.reason.clone(),
                    },
                })
                .collect();
            findings.push(f);
            continue;
        }
        let s: Vec<&McpServer> = rep.iter().map(|r| r.expect("all on")).collect();
        let mut agree = true;
        let mut row_differs: Vec<String> = Vec::new();
        if sides.iter().any(|v| v.len() > 1) {
            agree = false;
            row_differs.push("defined twice".to_string());
            findings.push(finding(
                configs,
                sides,
                FindingType::Unknown,
                FindingSeverity::Info,
                name,
                "duplicate",
                sym.clone(),
                &all,
                &[],
                items.clone(),
                format!("MCP server {cname} is defined more than once on one side, so which definition to compare cannot be decided."),
            ));
        }
        // Configuration.
        let mut diffs = Vec::new();
        let differs = |v: &[Option<String>]| v.iter().any(|x| *x != v[0]);
        let tr: Vec<Option<String>> = s
            .iter()
            .map(|x| Some(transport(x.transport).to_string()))
            .collect();
        let unknown_transport = s.iter().any(|x| x.transport == Transport::Unknown);
        let cmd: Vec<Option<String>> = s.iter().map(|x| x.command.clone()).collect();
        let args: Vec<Option<String>> = s
            .iter()
            .map(|x| {
                x.args
                    .as_ref()
                    .filter(|a| !a.is_empty())
                    .map(|a| a.join(" "))
            })
            .collect();
        let url: Vec<Option<String>> = s.iter().map(|x| x.url.clone()).collect();
        let tools: Vec<Option<String>> = s
            .iter()
            .map(|x| {
                let e = x
                    .enabled_tools
                    .as_ref()
                    .map(|t| format!("enabled: {}", t.join(", ")));
                let d = x
                    .disabled_tools
                    .as_ref()
                    .map(|t| format!("disabled: {}", t.join(", ")));
                match (e, d) {
                    (None, None) => None,
                    (a, b) => Some([a, b].into_iter().flatten().collect::<Vec<_>>().join("; ")),
                }
            })
            .collect();
        for (fname, v) in [
            ("transport", &tr),
            ("command", &cmd),
            ("args", &args),
            ("url", &url),
            ("tools", &tools),
        ] {
            if differs(v) {
                diffs.push(field(configs, fname, v.clone()));
            }
        }
        if !diffs.is_empty() {
            agree = false;
            row_differs.extend(diffs.iter().map(|d| d.field.clone()));
            let redacted_only = diffs.iter().all(|d| d.field == "args" || d.field == "url")
                && diffs.iter().all(|d| {
                    d.values
                        .iter()
                        .all(|v| v.value.as_deref().is_some_and(|x| x.contains("<redacted>")))
                        && {
                            let strip: Vec<String> = d
                                .values
                                .iter()
                                .map(|v| {
                                    v.value
                                        .clone()
                                        .unwrap_or_default()
                                        .replace("<redacted>", "")
                                })
                                .collect();
                            strip.iter().all(|x| *x == strip[0])
                        }
                });
            let undecidable = unknown_transport || redacted_only;
            let mut f = finding(
                configs,
                sides,
                if undecidable {
                    FindingType::Unknown
                } else {
                    FindingType::Different
                },
                if undecidable {
                    FindingSeverity::Info
                } else {
                    FindingSeverity::Medium
                },
                name,
                "configuration",
                sym.clone(),
                &all,
                &[],
                items.clone(),
                format!(
                    "MCP server {cname} is defined differently ({}){}.",
                    diffs
                        .iter()
                        .map(|d| d.field.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    if unknown_transport {
                        "; one transport is unknown to the analysis, so whether they reach the same server cannot be decided"
                    } else if redacted_only {
                        "; only redacted values differ in position, so equivalence cannot be decided"
                    } else {
                        ""
                    }
                ),
            );
            f.differences = diffs;
            findings.push(f);
        }
        // Environment and headers, by variable name.
        for (aspect, what, fold) in [("environment", "env", false), ("headers", "header", true)] {
            let maps: Vec<BTreeMap<String, Val>> = s
                .iter()
                .map(|x| map(if what == "env" { &x.env } else { &x.headers }, fold))
                .collect();
            let keys: BTreeSet<&String> = maps.iter().flat_map(|m| m.keys()).collect();
            let mut differ = Vec::new();
            let mut redacted = Vec::new();
            for k in keys {
                let vals: Vec<Option<&Val>> = maps.iter().map(|m| m.get(k)).collect();
                if vals.iter().all(|v| *v == vals[0]) && vals[0] != Some(&Val::Redacted) {
                    continue;
                }
                let fd = field(
                    configs,
                    &format!("{what}.{k}"),
                    vals.iter().map(|v| v.map(Val::show)).collect(),
                );
                if vals.iter().all(|v| *v == Some(&Val::Redacted)) {
                    redacted.push(fd);
                } else {
                    differ.push(fd);
                }
            }
            if !differ.is_empty() {
                agree = false;
                row_differs.extend(differ.iter().map(|d| d.field.clone()));
                let mut f = finding(
                    configs,
                    sides,
                    FindingType::Different,
                    FindingSeverity::Medium,
                    name,
                    aspect,
                    sym.clone(),
                    &all,
                    &[],
                    items.clone(),
                    format!(
                        "MCP server {cname} receives different {} ({}).",
                        if what == "env" {
                            "environment variables"
                        } else {
                            "headers"
                        },
                        differ
                            .iter()
                            .map(|d| d.field.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                f.differences = differ;
                findings.push(f);
            }
            if !redacted.is_empty() {
                agree = false;
                row_differs.extend(redacted.iter().map(|d| format!("{} (redacted)", d.field)));
                let mut f = finding(
                    configs,
                    sides,
                    FindingType::Unknown,
                    FindingSeverity::Info,
                    name,
                    &format!("{aspect}-redacted"),
                    sym.clone(),
                    &all,
                    &[],
                    items.clone(),
                    format!(
                        "MCP server {cname} has literal values on every side for {}; they are redacted, so whether they are equal cannot be decided.",
                        redacted.iter().map(|d| d.field.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                );
                f.differences = redacted;
                findings.push(f);
            }
        }
        row.agree = agree;
        row.differs = row_differs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_by_name() {
        let v = |s: &str| variables(s).into_iter().collect::<Vec<_>>();
        assert_eq!(v("${KEY}"), ["KEY"]);
        assert_eq!(v("${DB:-postgres://x}"), ["DB"]);
        assert_eq!(v("Bearer $TOKEN"), ["TOKEN"]);
        assert!(v("${}").is_empty());
        assert!(v("$1").is_empty());
        assert_eq!(
            val(&ConfiguredValue::Host {
                variable: "KEY".into()
            }),
            val(&ConfiguredValue::Reference {
                expression: "${KEY}".into()
            })
        );
    }
}

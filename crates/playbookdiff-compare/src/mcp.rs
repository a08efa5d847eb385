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

pub(crate) fn received(s: &McpServer) -> bool {
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

/// One harness's side of a server name: the harness, its definitions of
/// the name (in order) and the one that represents it (the first it
/// starts, else the first).
struct Side<'a> {
    harness: Harness,
    servers: &'a [&'a McpServer],
    rep: Option<&'a McpServer>,
}

impl Side<'_> {
    fn on(&self) -> bool {
        self.rep.is_some_and(received)
    }
}

/// One server name as its row and findings see it.
struct Case<'a> {
    name: &'a str,
    /// The name as a code span, for sentences.
    cname: String,
    sides: Vec<Side<'a>>,
}

impl<'a> Case<'a> {
    fn harnesses(&self, pick: impl Fn(&Side<'a>) -> bool) -> Vec<Harness> {
        self.sides
            .iter()
            .filter(|s| pick(s))
            .map(|s| s.harness)
            .collect()
    }

    /// A draft about this server and one `aspect`: the evidence of every
    /// definition on every side; present on the sides `present` picks
    /// (the subject's transport is theirs), symmetric until the caller
    /// says otherwise.
    fn draft(
        &self,
        kind: (FindingType, FindingSeverity),
        aspect: &str,
        present: impl Fn(&Side<'a>) -> bool,
    ) -> FindingDraft {
        let transport = present_transport(self.sides.iter().filter(|s| present(s)));
        FindingDraft {
            direction: id::symmetric(self.sides.len()),
            present_in: self.harnesses(&present),
            items: self
                .sides
                .iter()
                .flat_map(|side| side.servers.iter().map(|s| item(side.harness, s)))
                .collect(),
            subject: Some(Subject::Mcp {
                name: self.name.to_string(),
                transport,
            }),
            ..FindingDraft::named(Category::Mcp, kind, self.name, aspect)
        }
    }

    /// A difference of `field` with one value per side.
    fn field(&self, field: &str, values: Vec<Option<String>>) -> FieldDifference {
        FieldDifference {
            field: field.to_string(),
            values: self
                .sides
                .iter()
                .zip(values)
                .map(|(side, value)| FieldValue {
                    harness: side.harness,
                    value,
                })
                .collect(),
        }
    }

    fn row(&self) -> Row {
        Row::new(
            Category::Mcp,
            self.name.to_string(),
            self.sides.iter().map(|side| cell(side.rep)).collect(),
        )
    }
}

/// The cell of a side whose server is `rep`.
fn cell(rep: Option<&McpServer>) -> Cell {
    match rep {
        None => Cell::absent(),
        Some(s) => Cell::of(
            cell_reception(s),
            transport_as_declared(s),
            s.load_phase,
            s.applicability,
        )
        .in_layer_of(&s.source),
    }
}

/// The transport of one server name on the present sides: the one every
/// received definition there agrees on, else [`Transport::Unknown`]. The
/// cost is that of the name's own definitions, not of all servers.
fn present_transport<'s, 'a: 's>(sides: impl Iterator<Item = &'s Side<'a>>) -> Transport {
    let mut seen = sides
        .flat_map(|side| side.servers.iter().copied())
        .filter(|s| received(s))
        .map(|s| s.transport);
    match seen.next() {
        Some(t) if seen.all(|u| u == t) => t,
        _ => Transport::Unknown,
    }
}

/// Compares the MCP servers of `configs`: one row per name, and its
/// findings.
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
    for (name, defs) in &by_name {
        let case = Case {
            name,
            cname: crate::code_span(name),
            sides: configs
                .iter()
                .zip(defs)
                .map(|(c, v)| Side {
                    harness: c.harness,
                    servers: v,
                    rep: v.iter().find(|s| received(s)).or(v.first()).copied(),
                })
                .collect(),
        };
        let row = rows.push(|| case.row());
        let (agree, differs) = judge(&case, findings);
        row.agree = agree;
        row.differs = differs;
    }
}

/// The findings about one server name, pushed onto `findings`: whether its
/// row agrees and the fields that differ.
fn judge(case: &Case<'_>, findings: &mut Vec<Finding>) -> (bool, Vec<String>) {
    if !case.sides.iter().any(Side::on) {
        return (true, Vec::new());
    }
    if !case.sides.iter().all(Side::on) {
        findings.push(presence(case));
        return (false, Vec::new());
    }
    let s: Vec<&McpServer> = case.sides.iter().filter_map(|side| side.rep).collect();
    let mut differs: Vec<String> = Vec::new();
    if case.sides.iter().any(|side| side.servers.len() > 1) {
        differs.push("defined twice".to_string());
        findings.push(duplicate(case));
    }
    if let Some(f) = configuration(case, &s) {
        differs.extend(f.differences.iter().map(|d| d.field.clone()));
        findings.push(f);
    }
    for aspect in [Values::Env, Values::Headers] {
        let (differ, redacted) = values(case, &s, aspect);
        if let Some(f) = differ {
            differs.extend(f.differences.iter().map(|d| d.field.clone()));
            findings.push(f);
        }
        if let Some(f) = redacted {
            differs.extend(
                f.differences
                    .iter()
                    .map(|d| format!("{} (redacted)", d.field)),
            );
            findings.push(f);
        }
    }
    (differs.is_empty(), differs)
}

/// Some sides do not start the server: a `capability-gap` for those that do.
fn presence(case: &Case<'_>) -> Finding {
    let on = case.harnesses(Side::on);
    // The harnesses without the server share one clause ("Codex and
    // OpenCode have no server of that name"), each that has it but does
    // not start it its own, with the reason.
    let lacking = case.harnesses(|side| !side.on() && side.rep.is_none());
    let verb = if lacking.len() == 1 { "has" } else { "have" };
    let why: Vec<String> = (!lacking.is_empty())
        .then(|| format!("{} {verb} no server of that name", names(&lacking)))
        .into_iter()
        .chain(
            case.sides
                .iter()
                .filter(|side| !side.on())
                .filter_map(|side| {
                    side.rep.map(|s| {
                        format!(
                            "{} does not start it ({})",
                            display_name(side.harness),
                            s.reason.trim_end_matches('.')
                        )
                    })
                }),
        )
        .collect();
    let mut f = FindingDraft {
        direction: id::only(&on),
        absent_from: case.harnesses(|side| !side.on()),
        message: format!(
            "MCP server {} is configured for {} only; {}.",
            case.cname,
            names(&on),
            why.join("; ")
        ),
        ..case.draft(
            (FindingType::CapabilityGap, FindingSeverity::Medium),
            "presence",
            Side::on,
        )
    }
    .build();
    f.absences = case
        .sides
        .iter()
        .filter(|side| !side.on())
        .map(|side| crate::Absence {
            harness: side.harness,
            reason: match side.rep {
                None => format!(
                    "{} configures no MCP server named {} under this context.",
                    display_name(side.harness),
                    case.cname
                ),
                Some(s) => s.reason.clone(),
            },
        })
        .collect();
    f
}

/// A side defines the server more than once: which definition to compare
/// cannot be decided (`unknown`).
fn duplicate(case: &Case<'_>) -> Finding {
    FindingDraft {
        message: format!(
            "MCP server {} is defined more than once on one side, so which definition to compare cannot be decided.",
            case.cname
        ),
        ..case.draft(
            (FindingType::Unknown, FindingSeverity::Info),
            "duplicate",
            |_| true,
        )
    }
    .build()
}

/// A field of a server definition compared as text. Its spelling is the
/// `field` of a `different` finding's differences.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ConfiguredField {
    Transport,
    Command,
    Args,
    Url,
    Tools,
}

impl ConfiguredField {
    fn as_str(self) -> &'static str {
        match self {
            ConfiguredField::Transport => "transport",
            ConfiguredField::Command => "command",
            ConfiguredField::Args => "args",
            ConfiguredField::Url => "url",
            ConfiguredField::Tools => "tools",
        }
    }

    /// True for the fields whose text may hold a redacted value, so two
    /// definitions may differ only in where it stands.
    fn may_hold_redacted(self) -> bool {
        matches!(self, ConfiguredField::Args | ConfiguredField::Url)
    }
}

/// The fields of a definition compared as text, one value per server.
fn configured_fields(s: &[&McpServer]) -> [(ConfiguredField, Vec<Option<String>>); 5] {
    [
        (
            ConfiguredField::Transport,
            s.iter()
                .map(|x| Some(transport(x.transport).to_string()))
                .collect(),
        ),
        (
            ConfiguredField::Command,
            s.iter().map(|x| x.command.clone()).collect(),
        ),
        (
            ConfiguredField::Args,
            s.iter()
                .map(|x| {
                    x.args
                        .as_ref()
                        .filter(|a| !a.is_empty())
                        .map(|a| a.join(" "))
                })
                .collect(),
        ),
        (
            ConfiguredField::Url,
            s.iter().map(|x| x.url.clone()).collect(),
        ),
        (ConfiguredField::Tools, s.iter().map(|x| tools(x)).collect()),
    ]
}

/// The enabled and disabled tools of a definition, for a field value.
fn tools(x: &McpServer) -> Option<String> {
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
}

/// True when every difference (`diffs`, each with the field it is of) is
/// of `args` or `url` and they differ only in where a redacted value
/// stands.
fn redacted_only(diffs: &[(ConfiguredField, FieldDifference)]) -> bool {
    diffs.iter().all(|(field, _)| field.may_hold_redacted())
        && diffs.iter().all(|(_, d)| {
            let all_redacted = d
                .values
                .iter()
                .all(|v| v.value.as_deref().is_some_and(|x| x.contains("<redacted>")));
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
            all_redacted && strip.iter().all(|x| *x == strip[0])
        })
}

/// The definitions (`s`, one per side) differ in transport, command, args,
/// url or tools: a `different`, or an `unknown` when a transport is
/// unknown or only redacted values differ.
fn configuration(case: &Case<'_>, s: &[&McpServer]) -> Option<Finding> {
    let diffs: Vec<(ConfiguredField, FieldDifference)> = configured_fields(s)
        .into_iter()
        .filter(|(_, v)| v.iter().any(|x| *x != v[0]))
        .map(|(field, v)| (field, case.field(field.as_str(), v)))
        .collect();
    if diffs.is_empty() {
        return None;
    }
    let unknown_transport = s.iter().any(|x| x.transport == Transport::Unknown);
    let redacted_only = redacted_only(&diffs);
    let kind = if unknown_transport || redacted_only {
        (FindingType::Unknown, FindingSeverity::Info)
    } else {
        (FindingType::Different, FindingSeverity::Medium)
    };
    let why = if unknown_transport {
        "; one transport is unknown to the analysis, so whether they reach the same server cannot be decided"
    } else if redacted_only {
        "; only redacted values differ in position, so equivalence cannot be decided"
    } else {
        ""
    };
    let fields: Vec<&str> = diffs.iter().map(|(field, _)| field.as_str()).collect();
    let mut f = FindingDraft {
        message: format!(
            "MCP server {} is defined differently ({}){why}.",
            case.cname,
            fields.join(", ")
        ),
        ..case.draft(kind, "configuration", |_| true)
    }
    .build();
    f.differences = diffs.into_iter().map(|(_, d)| d).collect();
    Some(f)
}

/// The named values compared by the variables they name.
#[derive(Clone, Copy)]
enum Values {
    /// `env`: names as written.
    Env,
    /// `headers`: names folded to lower case.
    Headers,
}

impl Values {
    /// The finding's aspect, the field prefix, and the words for a sentence.
    fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Values::Env => ("environment", "env", "environment variables"),
            Values::Headers => ("headers", "header", "headers"),
        }
    }

    fn of(self, x: &McpServer) -> BTreeMap<String, Val> {
        match self {
            Values::Env => map(&x.env, false),
            Values::Headers => map(&x.headers, true),
        }
    }
}

/// The environment or the headers (`which`) of the definitions `s` (one
/// per side): a `different` for the names whose variables differ, and an
/// `unknown` for the names every side sets to a redacted literal.
fn values(case: &Case<'_>, s: &[&McpServer], which: Values) -> (Option<Finding>, Option<Finding>) {
    let (aspect, what, words) = which.words();
    let maps: Vec<BTreeMap<String, Val>> = s.iter().map(|x| which.of(x)).collect();
    let keys: BTreeSet<&String> = maps.iter().flat_map(|m| m.keys()).collect();
    let mut differ = Vec::new();
    let mut redacted = Vec::new();
    for k in keys {
        let vals: Vec<Option<&Val>> = maps.iter().map(|m| m.get(k)).collect();
        if vals.iter().all(|v| *v == vals[0]) && vals[0] != Some(&Val::Redacted) {
            continue;
        }
        let fd = case.field(
            &format!("{what}.{k}"),
            vals.iter().map(|v| v.map(Val::show)).collect(),
        );
        if vals.iter().all(|v| *v == Some(&Val::Redacted)) {
            redacted.push(fd);
        } else {
            differ.push(fd);
        }
    }
    let list = |v: &[FieldDifference]| {
        v.iter()
            .map(|d| d.field.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let differ = (!differ.is_empty()).then(|| {
        let mut f = FindingDraft {
            message: format!(
                "MCP server {} receives different {words} ({}).",
                case.cname,
                list(&differ)
            ),
            ..case.draft(
                (FindingType::Different, FindingSeverity::Medium),
                aspect,
                |_| true,
            )
        }
        .build();
        f.differences = differ;
        f
    });
    let redacted = (!redacted.is_empty()).then(|| {
        let mut f = FindingDraft {
            message: format!(
                "MCP server {} has literal values on every side for {}; they are redacted, so whether they are equal cannot be decided.",
                case.cname,
                list(&redacted)
            ),
            ..case.draft(
                (FindingType::Unknown, FindingSeverity::Info),
                &format!("{aspect}-redacted"),
                |_| true,
            )
        }
        .build();
        f.differences = redacted;
        f
    });
    (differ, redacted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two definitions whose values differ only in where a redacted value
    /// stands are redacted-only in `args` and `url`, the fields that may
    /// hold one, and in no other field.
    #[test]
    fn only_args_and_url_differ_by_redaction_alone() {
        use ConfiguredField::*;
        let value = |harness, text: &str| FieldValue {
            harness,
            value: Some(text.to_string()),
        };
        let (a, b) = (Harness::new("alpha", "Alpha"), Harness::new("beta", "Beta"));
        for field in [Transport, Command, Args, Url, Tools] {
            let diff = FieldDifference {
                field: field.as_str().to_string(),
                values: vec![value(a, "--key=<redacted>x"), value(b, "--key=x<redacted>")],
            };
            assert_eq!(
                redacted_only(&[(field, diff)]),
                matches!(field, Args | Url),
                "{}",
                field.as_str()
            );
        }
    }

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

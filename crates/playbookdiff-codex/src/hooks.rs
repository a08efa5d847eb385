//! Hooks and permission settings of the project layers.
//!
//! Codex 0.171.0 (openai/codex `codex-rs/hooks` and the config loader;
//! seen with a scripted model, surfaces and guard reference): hooks live in
//! a `hooks.json` beside each configuration layer (here
//! `<dir>/.codex/hooks.json` of every directory from the project root to
//! cwd, read only for a trusted project) or in `[hooks]` of that layer's
//! `config.toml`, in Claude Code's shape. A project hook runs only once
//! its hash is trusted in the user's `config.toml` (or with
//! `--dangerously-bypass-hook-trust`), which the repository cannot show:
//! in repo mode its `runs` is `unknown`. Releases before 0.129.0 have no
//! hash trust (every hook runs), and releases before 0.124.0 run no hook
//! as they come ([`crate::profile::Facts::hooks_run`]). In local mode the system's and
//! the user's layers add their hooks (`hooks.json` and `[hooks]` of
//! `/etc/codex` and `$CODEX_HOME`), and the user's trust decides every
//! hook's `runs` ([`HookTrust`]). `[features] hooks = false` in a layer
//! that applies turns hooks off. The permission modes are read by
//! [`crate::modes`].

use crate::config::{get, span_union, Layer};
use crate::hook_trust::HookTrust;
use crate::profile::Facts;
use crate::{Cx, TrustLevel, HARNESS, READ_LIMIT};
use playbookdiff_adapter::hooks::{self, Events, Registration, Tokens};
use playbookdiff_adapter::json::JsonDoc;
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Hook, RepoPath, SourceFormat, SourceRef,
    SourceScope, Verdict,
};
use playbookdiff_source::{Machine, SourceError};
use serde_json::Value;
use toml::de::DeValue;

/// Codex's hook events whose matcher is matched against a tool name.
const TOOL_EVENTS: &[&str] = &["PreToolUse", "PostToolUse", "PermissionRequest"];

/// The tool names Codex's hooks see (seen with 0.171.0: `exec_command`
/// arrives as `Bash`, a patch as `apply_patch`; MCP tools `mcp__…`).
const TOOLS: &[&str] = &["Bash", "apply_patch"];

/// Why a project hook's `runs` is unknown.
const TRUST_REASON: &str = "Codex runs a project hook only once its hash is trusted in the user's config.toml, or with --dangerously-bypass-hook-trust";

/// The layers whose hooks are read.
pub(crate) struct HookLayers<'a, 'l, 'm> {
    /// The directories from the project root to cwd, whose
    /// `.codex/hooks.json` is read.
    pub chain: &'a [RepoPath],
    /// The project's configuration layers that apply.
    pub project: &'a [Layer<'l>],
    /// In local mode, the machine's layers and the user's trust.
    pub machine: Option<MachineHooks<'a, 'l, 'm>>,
}

/// What local mode adds to the hooks: the system's and the user's layers
/// and the user's trust in each hook.
pub(crate) struct MachineHooks<'a, 'l, 'm> {
    /// The system and user layers (a profile's last), lowest precedence
    /// first.
    pub layers: &'a [Layer<'l>],
    /// Where their `hooks.json` files are read.
    pub machine: &'m Machine,
    /// Codex's home (`~/.codex`, `$CODEX_HOME`).
    pub home: RepoPath,
    /// The user's `[hooks.state]` entries.
    pub trust: HookTrust<'m>,
    /// The managed requirements (`/etc/codex/requirements.toml`), when
    /// they exist and parse.
    pub requirements: Option<&'a Layer<'l>>,
}

/// What every registration of one compilation shares.
struct Reading<'x> {
    events: Events,
    release: String,
    /// `runs` before the user's trust is applied.
    runs: Verdict,
    trust: Option<&'x HookTrust<'x>>,
}

/// The hooks of the layers that apply: in local
/// mode the system's and the user's first (each layer's `hooks.json`
/// before its `[hooks]`, as Codex lists them), then the `hooks.json`
/// files of the directories of the chain, then the project layers'
/// `[hooks]`. In repo mode every hook's `runs` is unknown (the user's
/// trust is not read); in local mode it is decided by that trust
/// ([`HookTrust`]).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    input: &HookLayers<'_, '_, '_>,
    facts: &Facts,
    version: &str,
) -> Vec<Hook> {
    let hook_events = facts.hook_events;
    let machine_layers = input.machine.as_ref().map_or(&[][..], |m| m.layers);
    let reading = Reading {
        events: Events {
            known: hook_events,
            tool_events: TOOL_EVENTS,
            matcherless: &[],
            cannot_block: &[],
            tools: TOOLS,
            triggers: &[],
        },
        release: format!("Codex {version}"),
        runs: untrusted_runs(
            runs(
                cx,
                machine_layers,
                input.project,
                input.machine.as_ref().and_then(|m| m.requirements),
            ),
            facts,
        ),
        trust: input
            .machine
            .as_ref()
            .filter(|_| facts.hook_trust)
            .map(|m| &m.trust),
    };
    let mut out = Vec::new();
    if let Some(m) = &input.machine {
        if let Some(r) = m.requirements {
            out.extend(requirement_hooks(cx, r, &reading));
        }
        // Each of the system's and the user's layers exists for Codex
        // whether or not its `config.toml` does: its `hooks.json` is read
        // either way.
        let system = RepoPath::on_machine("/etc/codex", ".");
        for dir in system.iter().chain([&m.home]) {
            out.extend(machine_hooks_json(cx, m.machine, dir, &reading));
            for layer in m
                .layers
                .iter()
                .filter(|l| l.loaded.path.parent().as_ref() == Some(dir))
            {
                out.extend(toml_hooks(cx, layer, &reading));
            }
        }
    }
    for dir in input.chain {
        out.extend(hooks_json(cx, dir, &reading));
    }
    for layer in input.project {
        out.extend(toml_hooks(cx, layer, &reading));
    }
    // Codex loads no hook of an event the release does not have: its
    // app server's `hooks/list` leaves it out (case
    // `oracle.codex_hook_events`); the file keeps its
    // `hook-event-unknown` diagnostic.
    out.retain(|h| hook_events.contains(&h.event.as_str()));
    if !facts.hooks_run {
        let turned_on = codex_hooks_on(machine_layers.iter().chain(input.project));
        let (run, rest): (Vec<Hook>, Vec<Hook>) = out
            .into_iter()
            .partition(|h| turned_on.is_some() && runs_by_feature(h, facts));
        not_run(cx, &rest, version, turned_on.map(|l| (l, facts)));
        out = run;
    }
    if let Some(at) = input
        .machine
        .as_ref()
        .and_then(|m| m.requirements)
        .and_then(crate::requirements::managed_hooks_only)
    {
        managed_only(&mut out, &at);
    }
    if input.machine.is_none() && !out.is_empty() && facts.hook_trust && reading.runs.may_apply() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::HookTrustUnknown,
            format!(
                "{TRUST_REASON}; the repository cannot show that trust, so {} listed here may run (`runs: unknown`).",
                if out.len() == 1 { "the hook".to_string() } else { format!("the {} hooks", out.len()) }
            ),
        ));
    }
    out
}

/// `unknown` (hash trust), or `no` when the closest layer that sets
/// `features.hooks` sets it false (reported at that key): the project
/// layers `project`, then the machine's `machine` (empty in repo mode).
/// `[features] hooks` of the managed requirements `required` pins the
/// value for every layer (openai/codex `FeatureRequirementsToml`, the
/// requirements' `features` table; seen with 0.142.3 and 0.171.0, case
/// `oracle.codex_hooks.home-codex-hooks.managed-codex-features-hooks-off`).
fn runs(
    cx: &mut Cx<'_, '_>,
    machine: &[Layer<'_>],
    project: &[Layer<'_>],
    required: Option<&Layer<'_>>,
) -> Verdict {
    let pinned = required.into_iter().map(|r| (r, true));
    let layers = machine.iter().chain(project).rev().map(|l| (l, false));
    for (layer, managed) in pinned.chain(layers) {
        let Some((k, v)) = feature_hooks(layer) else {
            continue;
        };
        if !matches!(v.get_ref(), DeValue::Boolean(false)) {
            break;
        }
        let at = layer.source(crate::config::extent(k, v));
        let effect = if managed {
            "the managed requirements pin the feature off, so Codex runs no hook of any layer"
        } else {
            "Codex runs none of the project's or the user's hooks (unless `/etc/codex/requirements.toml` pins hooks on)"
        };
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::HooksDisabled,
                format!(
                    "{} sets `[features] hooks = false`: {effect}.",
                    problems::quote(&layer.loaded.path)
                ),
            )
            .at(at.clone()),
        );
        return Verdict::No {
            reason: format!(
                "`[features] hooks = false` in `{}` turns hooks off",
                layer.loaded.path
            ),
            source: Some(at),
        };
    }
    Verdict::Unknown {
        reason: TRUST_REASON.to_string(),
    }
}

/// `runs` of a release without hash trust ([`Facts::hook_trust`],
/// before 0.129.0): a hook the trust would leave `unknown` runs; one a
/// setting turns off stays off.
fn untrusted_runs(runs: Verdict, facts: &Facts) -> Verdict {
    match runs {
        Verdict::Unknown { .. } if !facts.hook_trust => Verdict::Yes,
        other => other,
    }
}

/// A hook the feature `codex_hooks` runs on a release that does not run
/// hooks as they come: one of a `hooks.json` file (not of a `[hooks]`
/// table) for an event of [`Facts::feature_hook_events`]. Seen for the
/// project's `.codex/hooks.json` with the flag in the project's
/// `.codex/config.toml` (case `oracle.codex_hooks_feature`), and for it
/// and the user's `$CODEX_HOME/hooks.json` with the flag in the user's
/// `config.toml` (case `oracle.codex_hooks_fire.home-codex-hooks-feature`,
/// 0.115.0 to 0.120.0: neither file's `[hooks]` fires).
fn runs_by_feature(h: &Hook, facts: &Facts) -> bool {
    h.source.path.as_str().rsplit('/').next() == Some("hooks.json")
        && facts.feature_hook_events.contains(&h.event.as_str())
}

/// A release that runs no hook as it comes ([`Facts::hooks_run`]): one
/// `hooks-disabled` diagnostic for each file that registers `hooks` that
/// do not run, at its first registration; none of them is listed. When a
/// layer `turned_on` sets `[features] codex_hooks = true` (with the
/// release's facts), the diagnostic names it and the events the feature
/// runs.
fn not_run(
    cx: &mut Cx<'_, '_>,
    hooks: &[Hook],
    version: &str,
    turned_on: Option<(&Layer<'_>, &Facts)>,
) {
    let why = match turned_on {
        Some((layer, facts)) => format!(
            "`{}` turns on the feature `codex_hooks`, with which Codex {version} runs only the hooks of `hooks.json` files for {}; hooks run as they come from Codex {} on",
            layer.loaded.path,
            event_list(facts.feature_hook_events),
            crate::profile::HOOKS_SINCE
        ),
        None => format!(
            "hooks run as they come from Codex {} on (before, from 0.114.0, those of `hooks.json` files run only with the feature `[features] codex_hooks = true`)",
            crate::profile::HOOKS_SINCE
        ),
    };
    let mut seen = Vec::new();
    for h in hooks {
        if seen.contains(&&h.source.path) {
            continue;
        }
        seen.push(&h.source.path);
        let n = hooks
            .iter()
            .filter(|o| o.source.path == h.source.path)
            .count();
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::HooksDisabled,
                format!(
                    "Codex {version} runs none of the {n} hook{} `{}` registers here: {why}.",
                    if n == 1 { "" } else { "s" },
                    h.source.path,
                ),
            )
            .at(h.source.clone()),
        );
    }
}

/// `events` as prose: "no event", "`A`", "`A` and `B`", "`A`, `B` and `C`".
fn event_list(events: &[&str]) -> String {
    let quoted: Vec<String> = events.iter().map(|e| format!("`{e}`")).collect();
    match quoted.split_last() {
        None => "no event".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The closest of `layers` (lowest precedence first) that sets
/// `[features] codex_hooks` to a boolean, when it sets it `true`: the
/// feature of the releases before 0.124.0 is on.
fn codex_hooks_on<'b, 'l>(
    layers: impl DoubleEndedIterator<Item = &'b Layer<'l>>,
) -> Option<&'b Layer<'l>>
where
    'l: 'b,
{
    layers
        .rev()
        .find_map(|l| feature_codex_hooks(l).map(|on| (l, on)))
        .and_then(|(l, on)| on.then_some(l))
}

/// `[features] codex_hooks` of `layer`, when it is a boolean.
fn feature_codex_hooks(layer: &Layer<'_>) -> Option<bool> {
    let (_, features) = get(&layer.table, "features")?;
    let DeValue::Table(t) = features.get_ref() else {
        return None;
    };
    match get(t, "codex_hooks")?.1.get_ref() {
        DeValue::Boolean(b) => Some(*b),
        _ => None,
    }
}

/// `[features] hooks` of `layer`, with its key.
fn feature_hooks<'b, 'a>(
    layer: &'b Layer<'a>,
) -> Option<(
    &'b toml::Spanned<toml::de::DeString<'a>>,
    &'b toml::Spanned<DeValue<'a>>,
)> {
    let (_, features) = get(&layer.table, "features")?;
    let DeValue::Table(t) = features.get_ref() else {
        return None;
    };
    get(t, "hooks")
}

/// A `hooks.json` Codex cannot parse: it warns ("failed to parse hooks
/// config"), registers none of its hooks and starts (seen with 0.142.3
/// and 0.171.0, oracle case `oracle.bom_codex_hooks`): a
/// `hooks-file-invalid` warning at the line of the error.
fn unparsable_hooks(path: &RepoPath, e: &playbookdiff_source::ParseError) -> Diagnostic {
    let on = e.line.map_or_else(String::new, |l| format!(" on line {l}"));
    Diagnostic::new(
        DiagnosticCode::HooksFileInvalid,
        format!(
            "{} is not valid JSON{on} ({}), so Codex registers no hook from it: it warns \"failed to parse hooks config\" and starts; fix the JSON.",
            problems::quote(path),
            e.message
        ),
    )
    .at(e.at_line(SourceRef::project(path.clone(), SourceFormat::Json)))
}

/// The hooks of `<dir>/.codex/hooks.json`, when it exists and its
/// directory is trusted.
fn hooks_json(cx: &mut Cx<'_, '_>, dir: &RepoPath, reading: &Reading<'_>) -> Vec<Hook> {
    let Some(path) = dir.join(crate::HOOKS_JSON.relative()) else {
        return Vec::new();
    };
    if !cx.repo.is_file(&path) || cx.trust_for(dir) != Some(TrustLevel::Trusted) {
        return Vec::new();
    }
    let text = match cx.repo.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            crate::config::read_error(cx, &path, e, SourceFormat::Json);
            return Vec::new();
        }
    };
    let reason = format!("Registered in `{path}`, which Codex reads for a trusted project.");
    let source = SourceRef::project(path, SourceFormat::Json);
    json_hooks(cx, &text.text, source, &reason, reading)
}

/// The hooks of the `hooks.json` of the machine layer directory `dir`
/// (`/etc/codex/hooks.json`, `$CODEX_HOME/hooks.json`), when it exists.
fn machine_hooks_json(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    dir: &RepoPath,
    reading: &Reading<'_>,
) -> Vec<Hook> {
    let Some(path) = dir.join("hooks.json") else {
        return Vec::new();
    };
    let text = match machine.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => return Vec::new(),
        Err(e) => {
            crate::config::read_error(cx, &path, e, SourceFormat::Json);
            return Vec::new();
        }
    };
    let scope = crate::user::scope_of(&path);
    let reason = format!("Registered in `{path}`, {}.", layer_words(scope));
    let source = SourceRef {
        scope,
        ..SourceRef::project(path, SourceFormat::Json)
    };
    json_hooks(cx, &text.text, source, &reason, reading)
}

/// How Codex reads a machine layer of scope `scope`.
fn layer_words(scope: SourceScope) -> &'static str {
    match scope {
        SourceScope::Managed => "the system's configuration, whose hooks Codex runs as managed, without the user's trust",
        _ => "the user's configuration, which Codex reads in every project",
    }
}

/// The hooks of the `hooks.json` text `text`, registered at `source`.
fn json_hooks(
    cx: &mut Cx<'_, '_>,
    text: &str,
    source: SourceRef,
    reason: &str,
    reading: &Reading<'_>,
) -> Vec<Hook> {
    let doc = match JsonDoc::parse_without_bom(text) {
        Ok(d) => d,
        Err(e) => {
            let mut d = unparsable_hooks(&source.path, &e);
            if let Some(s) = d.source.as_mut() {
                s.scope = source.scope;
            }
            cx.diag(d);
            return Vec::new();
        }
    };
    let Some(value) = doc.value.get("hooks") else {
        return Vec::new();
    };
    let lines = |p: &[&str]| doc.span(p);
    register(cx, &source, &lines, value, reason, reading)
}

/// The hooks of `[hooks]` in a `config.toml` layer.
fn toml_hooks(cx: &mut Cx<'_, '_>, layer: &Layer<'_>, reading: &Reading<'_>) -> Vec<Hook> {
    let Some((_, v)) = get(&layer.table, "hooks") else {
        return Vec::new();
    };
    let mut value = to_json(v.get_ref());
    // `[hooks.state]` is the user's trust store, not a registration.
    if let Some(o) = value.as_object_mut() {
        o.remove("state");
    }
    let path = &layer.loaded.path;
    let mut source = SourceRef::project(path.clone(), SourceFormat::Toml);
    let reason = if path.is_on_machine() {
        source.scope = crate::user::scope_of(path);
        format!(
            "Registered in `[hooks]` of `{path}`, {}.",
            layer_words(source.scope)
        )
    } else {
        format!("Registered in `[hooks]` of `{path}`, a layer Codex reads for a trusted project.")
    };
    let lines = |p: &[&str]| span_at(layer, p);
    register(cx, &source, &lines, &value, &reason, reading)
}

/// The managed hooks of `[hooks]` in the requirements `layer`: Codex
/// lists them first, as managed (they run without the user's trust),
/// named by their `managed_dir` (seen with 0.142.3 and 0.171.0, case
/// `oracle.codex_hooks.home-codex-hooks.managed-codex-managed-hooks-added`);
/// `managed_dir` and `windows_managed_dir` are the table's settings, not
/// events (openai/codex `ManagedHooksRequirementsToml`).
fn requirement_hooks(cx: &mut Cx<'_, '_>, layer: &Layer<'_>, reading: &Reading<'_>) -> Vec<Hook> {
    let Some((_, v)) = get(&layer.table, "hooks") else {
        return Vec::new();
    };
    let mut value = to_json(v.get_ref());
    let dir = value
        .get("managed_dir")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(o) = value.as_object_mut() {
        o.remove("managed_dir");
        o.remove("windows_managed_dir");
    }
    let path = &layer.loaded.path;
    let source = SourceRef {
        scope: SourceScope::Managed,
        ..SourceRef::project(path.clone(), SourceFormat::Toml)
    };
    let from = dir.map_or_else(String::new, |d| format!(", run from its managed_dir `{d}`"));
    let reason = format!("Registered in `[hooks]` of the managed requirements `{path}`{from}: Codex lists it first and runs it as managed, without the user's trust.");
    let lines = |p: &[&str]| span_at(layer, p);
    register(cx, &source, &lines, &value, &reason, reading)
}

/// `allow_managed_hooks_only = true` (at `at`): every hook but a managed
/// one is not loaded; each stays listed, excluded, with the requirement
/// as the reason.
fn managed_only(hooks: &mut [Hook], at: &SourceRef) {
    for h in hooks
        .iter_mut()
        .filter(|h| h.source.scope != SourceScope::Managed)
    {
        h.applicability = Applicability::Excluded;
        h.runs = Verdict::No {
            reason: format!(
                "`allow_managed_hooks_only = true` in `{}` loads only managed hooks",
                at.path
            ),
            source: Some(at.clone()),
        };
        h.reason = format!(
            "{} The managed requirements `{}` set `allow_managed_hooks_only = true` (line {}), so Codex does not load it.",
            h.reason,
            at.path,
            at.lines.map_or(0, |l| l.start)
        );
    }
}

/// The hooks of the object of events `value` registered at `source`
/// (`lines` giving the lines of a key path), their `runs` decided by the
/// user's trust in local mode.
fn register(
    cx: &mut Cx<'_, '_>,
    source: &SourceRef,
    lines: hooks::LinesOf<'_>,
    value: &Value,
    reason: &str,
    reading: &Reading<'_>,
) -> Vec<Hook> {
    let ctx = cx.base.context;
    let reg = Registration {
        harness: HARNESS,
        release: &reading.release,
        source,
        prefix: &["hooks"],
        lines,
        events: &reading.events,
        tokens: Tokens {
            project: &[],
            plugin: None,
        },
        cwd: &ctx.cwd,
        layout: hooks::Layout::Groups,
        runs: reading.runs.clone(),
        applicability: Applicability::Effective,
        reason,
    };
    let mut out = hooks::read(&mut cx.base, &reg, value);
    if let Some(trust) = reading.trust {
        trust.apply(&mut out, &source.path, value);
    }
    out
}

/// The lines of the value at key path `path` of `layer`, when present.
fn span_at(layer: &Layer<'_>, path: &[&str]) -> Option<(u32, u32)> {
    let (first, rest) = path.split_first()?;
    let (k, mut v) = get(&layer.table, first)?;
    let mut key = Some(k.span());
    for p in rest {
        v = match v.get_ref() {
            DeValue::Table(t) => {
                let (k, v) = get(t, p)?;
                key = Some(k.span());
                v
            }
            DeValue::Array(a) => {
                key = None;
                a.get(p.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    layer
        .source(span_union(key, v))
        .lines
        .map(|l| (l.start, l.end))
}

/// A TOML value as JSON (dates as their text).
fn to_json(v: &DeValue<'_>) -> Value {
    match v {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
            .map(Value::from)
            .unwrap_or(Value::Null),
        DeValue::Float(f) => f
            .as_str()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(a) => Value::Array(a.iter().map(|x| to_json(x.get_ref())).collect()),
        DeValue::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.get_ref().to_string(), to_json(v.get_ref())))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toml::Spanned;

    fn spanned(s: &str) -> Spanned<DeValue<'_>> {
        let t = toml::de::DeTable::parse(s).unwrap().into_inner();
        let (_, v) = t.into_iter().next().unwrap();
        v
    }

    #[test]
    fn toml_hooks_read_as_json() {
        let v = spanned(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"x.sh\", timeout = 5 }]\n",
        );
        let j = to_json(v.get_ref());
        assert_eq!(j["PreToolUse"][0]["matcher"], "Bash");
        assert_eq!(j["PreToolUse"][0]["hooks"][0]["timeout"], 5);
    }
}

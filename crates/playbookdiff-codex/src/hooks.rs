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
//! its `runs` is `unknown`. `[features] hooks = false` in a trusted project
//! layer turns hooks off. `sandbox_mode` and `approval_policy` of the
//! layers are listed as permission modes.

use crate::config::{get, span_union, Layer};
use crate::{Cx, TrustLevel, HARNESS, READ_LIMIT};
use playbookdiff_adapter::hooks::{self, Events, Registration, Tokens};
use playbookdiff_adapter::json::JsonDoc;
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Hook, PermissionEffect, PermissionSetting, RepoPath,
    SourceFormat, SourceRef, Verdict,
};
use serde_json::Value;
use toml::de::DeValue;

/// Codex's hook events whose matcher is matched against a tool name.
const TOOL_EVENTS: &[&str] = &["PreToolUse", "PostToolUse", "PermissionRequest"];

/// The tool names Codex's hooks see (seen with 0.171.0: `exec_command`
/// arrives as `Bash`, a patch as `apply_patch`; MCP tools `mcp__…`).
const TOOLS: &[&str] = &["Bash", "apply_patch"];

/// Why a project hook's `runs` is unknown.
const TRUST_REASON: &str = "Codex runs a project hook only once its hash is trusted in the user's config.toml, or with --dangerously-bypass-hook-trust";

/// The hooks and permission settings of the layers that apply, the
/// `hooks.json` files of the directories in `chain` first.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    chain: &[RepoPath],
    layers: &[Layer<'_>],
    hook_events: &'static [&'static str],
    version: &str,
) -> (Vec<Hook>, Vec<PermissionSetting>) {
    let events = Events {
        known: hook_events,
        tool_events: TOOL_EVENTS,
        matcherless: &[],
        cannot_block: &[],
        tools: TOOLS,
    };
    let release = format!("Codex {version}");
    let runs = runs(cx, layers);
    let mut out = Vec::new();
    for dir in chain {
        out.extend(hooks_json(cx, dir, &events, &release, &runs));
    }
    for layer in layers {
        out.extend(toml_hooks(cx, layer, &events, &release, &runs));
    }
    if !out.is_empty() && runs.may_apply() {
        cx.diag(Diagnostic::new(
            DiagnosticCode::HookTrustUnknown,
            format!(
                "{TRUST_REASON}; the repository cannot show that trust, so {} listed here may run (`runs: unknown`).",
                if out.len() == 1 { "the hook".to_string() } else { format!("the {} hooks", out.len()) }
            ),
        ));
    }
    let permissions = layers.iter().flat_map(permission_modes).collect();
    (out, permissions)
}

/// `unknown` (hash trust), or `no` when the closest layer that sets
/// `features.hooks` sets it false (reported at that key).
fn runs(cx: &mut Cx<'_, '_>, layers: &[Layer<'_>]) -> Verdict {
    for layer in layers.iter().rev() {
        let Some((_, features)) = get(&layer.table, "features") else {
            continue;
        };
        let DeValue::Table(t) = features.get_ref() else {
            continue;
        };
        let Some((k, v)) = get(t, "hooks") else {
            continue;
        };
        if !matches!(v.get_ref(), DeValue::Boolean(false)) {
            break;
        }
        let at = layer.source(crate::config::extent(k, v));
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::HooksDisabled,
                format!(
                    "{} sets `[features] hooks = false`: Codex runs none of the project's or the user's hooks (unless `/etc/codex/requirements.toml` pins hooks on).",
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
fn hooks_json(
    cx: &mut Cx<'_, '_>,
    dir: &RepoPath,
    events: &Events,
    release: &str,
    runs: &Verdict,
) -> Vec<Hook> {
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
    let doc = match JsonDoc::parse_without_bom(&text.text) {
        Ok(d) => d,
        Err(e) => {
            cx.diag(unparsable_hooks(&path, &e));
            return Vec::new();
        }
    };
    let Some(value) = doc.value.get("hooks") else {
        return Vec::new();
    };
    let source = SourceRef::project(path.clone(), SourceFormat::Json);
    let lines = |p: &[&str]| doc.span(p);
    let reason = format!("Registered in `{path}`, which Codex reads for a trusted project.");
    let reg = Registration {
        harness: HARNESS,
        release,
        source: &source,
        prefix: &["hooks"],
        lines: &lines,
        events,
        tokens: Tokens {
            project: &[],
            plugin: None,
        },
        runs: runs.clone(),
        applicability: Applicability::Effective,
        reason: &reason,
    };
    hooks::read(&mut cx.base, &reg, value)
}

/// The hooks of `[hooks]` in a `config.toml` layer.
fn toml_hooks(
    cx: &mut Cx<'_, '_>,
    layer: &Layer<'_>,
    events: &Events,
    release: &str,
    runs: &Verdict,
) -> Vec<Hook> {
    let Some((_, v)) = get(&layer.table, "hooks") else {
        return Vec::new();
    };
    let mut value = to_json(v.get_ref());
    // `[hooks.state]` is the user's trust store, not a registration.
    if let Some(o) = value.as_object_mut() {
        o.remove("state");
    }
    let source = SourceRef::project(layer.loaded.path.clone(), SourceFormat::Toml);
    let lines = |p: &[&str]| span_at(layer, p);
    let reason = format!(
        "Registered in `[hooks]` of `{}`, a layer Codex reads for a trusted project.",
        layer.loaded.path
    );
    let reg = Registration {
        harness: HARNESS,
        release,
        source: &source,
        prefix: &["hooks"],
        lines: &lines,
        events,
        tokens: Tokens {
            project: &[],
            plugin: None,
        },
        runs: runs.clone(),
        applicability: Applicability::Effective,
        reason: &reason,
    };
    hooks::read(&mut cx.base, &reg, &value)
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

/// `sandbox_mode` and `approval_policy` of `layer`, when strings.
fn permission_modes(layer: &Layer<'_>) -> Vec<PermissionSetting> {
    let mut out = Vec::new();
    for key in ["sandbox_mode", "approval_policy"] {
        let Some((k, v)) = get(&layer.table, key) else {
            continue;
        };
        let DeValue::String(value) = v.get_ref() else {
            continue;
        };
        out.push(PermissionSetting {
            id: format!(
                "{}:permission:{}:{key}:{value}",
                HARNESS.as_str(),
                layer.loaded.path
            ),
            key: key.to_string(),
            value: value.to_string(),
            effect: PermissionEffect::Mode,
            source: layer.source(crate::config::extent(k, v)),
            honoured: Verdict::Unknown {
                reason:
                    "a command-line flag (--sandbox, --ask-for-approval, --full-auto) replaces it"
                        .into(),
            },
        });
    }
    out
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

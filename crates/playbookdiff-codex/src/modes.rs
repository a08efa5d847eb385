//! The permission modes Codex applies: `sandbox_mode` and
//! `approval_policy` of every configuration layer, and, in local mode,
//! what the managed requirements of `/etc/codex/requirements.toml`
//! (`allowed_sandbox_modes`, `allowed_approval_policies`) make of them.
//!
//! Codex merges its layers before it reads a mode, so the layer read last
//! decides: the project's `.codex/config.toml` closest to cwd, else the
//! profile, the user's `config.toml`, `/etc/codex/config.toml`. In local
//! mode every other layer's value is listed overridden. A requirement
//! does not refuse a mode it does not allow: Codex starts with another
//! one, which the model is told (`<permissions instructions>` of `codex
//! debug prompt-input`). An approval policy falls back to the first one
//! the list allows; a sandbox mode always to `read-only`, which the list
//! must hold. The same holds for a release default that the list does not
//! allow (`on-request`; `workspace-write` for a trusted project).
//! Sources: openai/codex `codex-rs/config/src/config_requirements.rs`
//! (`TryFrom<ConfigRequirementsWithSources>`: the approval constraint's
//! initial value is `policies.first()`, the sandbox constraint's is
//! `PermissionProfile::read_only()`, a list without `read-only` is a
//! `ConstraintError`, an empty policy list `empty_field`) and
//! `apply_requirement_constrained_value`; seen with 0.142.3 and 0.171.0,
//! case `oracle.local_user_layers.home-codex-modes.managed-codex-modes`.
//!
//! Two legacy approval policies changed meaning, each bisected
//! ([`crate::profile::Facts::on_failure_as_on_request`],
//! [`crate::profile::Facts::untrusted_policy_refused`]): from 0.143.0
//! `on-failure` is applied as `on-request`, whether a layer sets it or the
//! requirements fall back to it; from 0.149.0 a layer's `untrusted` that
//! no later layer replaces makes Codex refuse to start, while the
//! requirements' fallback to `untrusted` still starts (cases
//! `oracle.local_user_layers.home-codex-approval-untrusted`,
//! `...home-codex-approval-on-failure` and
//! `...home-codex-global.managed-codex-approval-legacy`; a layer's
//! `untrusted` stopped 0.171.0 also under requirements that do not allow
//! it, seen by hand). `on-failure` is modelled in local mode only, where
//! the layer read last is known; the refusal also in repo mode, from the
//! project's layers, which a user layer cannot replace (case
//! `codex.x35_project_untrusted_policy`: 0.142.3 starts, 0.171.0 stops).

use crate::config::{extent, get, Layer};
use crate::profile::Facts;
use crate::{Cx, HARNESS};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    ActionKind, Diagnostic, DiagnosticCode, PermissionEffect, PermissionScope, PermissionSetting,
    SourceRef, Verdict,
};
use toml::de::DeValue;

/// Why a mode's `honoured` is unknown: the command line can replace it.
const FLAG_REASON: &str =
    "a command-line flag (--sandbox, --ask-for-approval, --full-auto) replaces it";

/// The two mode settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModeKey {
    /// `sandbox_mode`, constrained by `allowed_sandbox_modes`.
    Sandbox,
    /// `approval_policy`, constrained by `allowed_approval_policies`.
    Approval,
}

impl ModeKey {
    const ALL: [ModeKey; 2] = [ModeKey::Sandbox, ModeKey::Approval];

    /// The configuration key.
    fn key(self) -> &'static str {
        match self {
            ModeKey::Sandbox => "sandbox_mode",
            ModeKey::Approval => "approval_policy",
        }
    }

    /// The requirement that constrains it.
    fn requirement(self) -> &'static str {
        match self {
            ModeKey::Sandbox => "allowed_sandbox_modes",
            ModeKey::Approval => "allowed_approval_policies",
        }
    }

    /// The values a requirement list may hold (Codex's
    /// `SandboxModeRequirement` and `AskForApproval` variants).
    fn variants(self) -> &'static [&'static str] {
        match self {
            ModeKey::Sandbox => &[
                "read-only",
                "workspace-write",
                "danger-full-access",
                "external-sandbox",
            ],
            ModeKey::Approval => &["untrusted", "on-failure", "on-request", "never"],
        }
    }

    /// The value Codex starts with when the requirements do not allow the
    /// configured one: `read-only` for the sandbox, the first allowed
    /// policy for approvals.
    fn fallback(self, allowed: &[String]) -> Option<&str> {
        match self {
            ModeKey::Sandbox => Some("read-only"),
            ModeKey::Approval => allowed.first().map(String::as_str),
        }
    }
}

/// One requirement list: the values it allows and where it is written.
pub(crate) struct AllowedModes {
    key: ModeKey,
    values: Vec<String>,
    at: SourceRef,
}

/// The mode requirements of `/etc/codex/requirements.toml`.
#[derive(Default)]
pub(crate) struct ModeRequirements {
    lists: Vec<AllowedModes>,
}

impl ModeRequirements {
    /// Reads `allowed_sandbox_modes` and `allowed_approval_policies` of
    /// the requirements `layer`. A list Codex cannot use stops it, as
    /// seen with both profiled releases: a value that is not a list of
    /// known variants ("failed to parse requirements layer"), an empty
    /// policy list ("cannot be empty"), a sandbox list without
    /// `read-only` ("must include 'read-only'"); each is refused at its
    /// line.
    pub(crate) fn read(cx: &mut Cx<'_, '_>, layer: &Layer<'_>) -> Self {
        let mut lists = Vec::new();
        for key in ModeKey::ALL {
            let Some((k, v)) = get(&layer.table, key.requirement()) else {
                continue;
            };
            let at = layer.source(extent(k, v));
            match allowed_values(key, v.get_ref()) {
                Ok(values) => lists.push(AllowedModes { key, values, at }),
                Err(why) => cx.refuse(
                    format!(
                        "`{}` in {} {why}",
                        key.requirement(),
                        problems::quote(&at.path)
                    ),
                    Some(at),
                ),
            }
        }
        ModeRequirements { lists }
    }

    fn get(&self, key: ModeKey) -> Option<&AllowedModes> {
        self.lists.iter().find(|l| l.key == key)
    }
}

/// The values of one requirement list `v`, or why Codex refuses it.
fn allowed_values(key: ModeKey, v: &DeValue<'_>) -> Result<Vec<String>, String> {
    let DeValue::Array(items) = v else {
        return Err("is not a list".into());
    };
    let mut values = Vec::new();
    for item in items {
        match item.get_ref().as_str() {
            Some(s) if key.variants().contains(&s) => values.push(s.to_string()),
            Some(s) => {
                return Err(format!(
                    "holds `{s}`, which is not one of {}",
                    key.variants().join(", ")
                ))
            }
            None => return Err("holds a value that is not a string".into()),
        }
    }
    match key {
        ModeKey::Approval if values.is_empty() => Err("is empty".into()),
        ModeKey::Sandbox if !values.iter().any(|s| s == "read-only") => {
            Err("does not include `read-only`, which it must".into())
        }
        _ => Ok(values),
    }
}

/// What local mode knows beyond the layers.
pub(crate) struct LocalModes<'a> {
    /// The requirements' lists (empty without a requirements file).
    pub requirements: &'a ModeRequirements,
    /// True when cwd is trusted: the release's default sandbox is then
    /// `workspace-write`, else `read-only`.
    pub trusted: bool,
}

/// The mode settings of `layers` (lowest precedence first) at a release
/// of `facts`. In repo mode (`local` is `None`) each is listed as
/// written, its `honoured` unknown; a project's `untrusted` that no
/// closer project layer replaces still stops a release that refuses it
/// (with no user layer, as every clone starts; a command-line flag or a
/// managed setting would replace it).
/// In local mode the layer read last decides each key, the others are
/// `honoured: no`, and a value (or default) the requirements do not
/// allow is replaced by the one Codex falls back to, listed from the
/// requirements file.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    layers: &[Layer<'_>],
    facts: &Facts,
    local: Option<LocalModes<'_>>,
) -> Vec<PermissionSetting> {
    let Some(local) = local else {
        if facts.untrusted_policy_refused {
            let approval: Vec<PermissionSetting> = layers
                .iter()
                .flat_map(|l| settings_of(l, &[ModeKey::Approval]))
                .collect();
            refuse_untrusted(cx, &approval);
        }
        return layers
            .iter()
            .flat_map(|l| settings_of(l, &ModeKey::ALL))
            .collect();
    };
    let mut out = Vec::new();
    for key in ModeKey::ALL {
        let mut set: Vec<PermissionSetting> =
            layers.iter().flat_map(|l| settings_of(l, &[key])).collect();
        mark_overridden(&mut set);
        if key == ModeKey::Approval && facts.untrusted_policy_refused {
            refuse_untrusted(cx, &set);
        }
        if let Some(allowed) = local.requirements.get(key) {
            let fallback = constrain(cx, &mut set, allowed, default(key, local.trusted));
            out.extend(set);
            out.extend(fallback);
        } else {
            out.extend(set);
        }
    }
    if facts.on_failure_as_on_request {
        on_failure_as_on_request(cx, &mut out);
    }
    out
}

/// The legacy policy the release no longer accepts in a layer.
const UNTRUSTED: &str = "untrusted";
/// What a release that refuses [`UNTRUSTED`] prints (0.171.0, case
/// `codex.x35_project_untrusted_policy`).
const UNTRUSTED_REFUSED: &str =
    "approval_policy = \"untrusted\" is no longer supported; remove this setting";
/// The legacy policy the release applies as [`ON_REQUEST`].
const ON_FAILURE: &str = "on-failure";
/// The policy [`ON_FAILURE`] becomes.
const ON_REQUEST: &str = "on-request";

/// Refuses the start when the approval policy `set` (lowest precedence
/// first) leaves is `untrusted` (see the module documentation).
fn refuse_untrusted(cx: &mut Cx<'_, '_>, set: &[PermissionSetting]) {
    let Some(winner) = set.last().filter(|s| s.value == UNTRUSTED) else {
        return;
    };
    let why = format!(
        "`approval_policy` is `untrusted` in {}, which this release no longer supports, so Codex stops at startup; remove the setting or choose another policy",
        problems::quote(&winner.source.path)
    );
    cx.refuse_saying(
        (why, winner.source.clone()),
        problems::RefusedCause::Key,
        UNTRUSTED_REFUSED,
    );
}

/// Replaces every approval policy of `out` that may apply and is
/// `on-failure` by `on-request` at the same source, the written one
/// `honoured: no`, reported `setting-overridden` (see the module
/// documentation).
fn on_failure_as_on_request(cx: &mut Cx<'_, '_>, out: &mut Vec<PermissionSetting>) {
    let mut added = Vec::new();
    for s in out.iter_mut().filter(|s| {
        s.key == ModeKey::Approval.key() && s.value == ON_FAILURE && s.honoured.may_apply()
    }) {
        let why = "this release applies the approval policy `on-failure` as `on-request`";
        s.honoured = Verdict::No {
            reason: why.to_string(),
            source: None,
        };
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SettingOverridden,
                format!(
                    "`approval_policy` is `on-failure` in `{}` ({}), but {why}, which Codex tells the model.",
                    s.source.path,
                    s.source.scope.as_str()
                ),
            )
            .at(s.source.clone()),
        );
        added.push(setting(ModeKey::Approval, ON_REQUEST, s.source.clone()));
    }
    out.extend(added);
}

/// The release default of `key` when no layer sets it.
fn default(key: ModeKey, trusted: bool) -> &'static str {
    match key {
        ModeKey::Sandbox if trusted => "workspace-write",
        ModeKey::Sandbox => "read-only",
        ModeKey::Approval => "on-request",
    }
}

/// Marks every setting of `set` (one key, lowest precedence first) but
/// the last as overridden by the last.
fn mark_overridden(set: &mut [PermissionSetting]) {
    let Some((winner, losers)) = set.split_last_mut() else {
        return;
    };
    for s in losers {
        s.honoured = Verdict::No {
            reason: format!(
                "`{}` is `{}` in `{}` ({}), which Codex reads after this layer",
                winner.key,
                winner.value,
                winner.source.path,
                winner.source.scope.as_str()
            ),
            source: Some(winner.source.clone()),
        };
    }
}

/// Applies the requirement `allowed` to the winning setting of `set`
/// (or to the release default `default` when none): a value it allows
/// stays; another is `honoured: no`, reported `setting-overridden` at its
/// line, and the value Codex falls back to is returned, sourced at the
/// requirement.
fn constrain(
    cx: &mut Cx<'_, '_>,
    set: &mut [PermissionSetting],
    allowed: &AllowedModes,
    default: &str,
) -> Option<PermissionSetting> {
    let asked = set.last().map_or(default, |s| s.value.as_str()).to_string();
    if allowed.values.contains(&asked) {
        return None;
    }
    let key = allowed.key;
    let fallback = key.fallback(&allowed.values)?.to_string();
    let list = allowed.values.join(", ");
    let why = format!(
        "the managed requirements `{}` allow only {list} for `{}`, so Codex starts with `{fallback}`",
        allowed.at.path,
        key.key()
    );
    if let Some(winner) = set.last_mut() {
        winner.honoured = Verdict::No {
            reason: why.clone(),
            source: Some(allowed.at.clone()),
        };
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SettingOverridden,
                format!(
                    "`{}` is `{asked}` in `{}` ({}), but {why} (managed).",
                    key.key(),
                    winner.source.path,
                    winner.source.scope.as_str()
                ),
            )
            .at(winner.source.clone()),
        );
    }
    Some(setting(key, &fallback, allowed.at.clone()))
}

/// The settings of `keys` that `layer` gives, when strings.
fn settings_of(layer: &Layer<'_>, keys: &[ModeKey]) -> Vec<PermissionSetting> {
    let mut out = Vec::new();
    for &key in keys {
        let Some((k, v)) = get(&layer.table, key.key()) else {
            continue;
        };
        let DeValue::String(value) = v.get_ref() else {
            continue;
        };
        out.push(setting(key, value, layer.source(extent(k, v))));
    }
    out
}

/// One mode setting `key = value` written at `source`.
fn setting(key: ModeKey, value: &str, source: SourceRef) -> PermissionSetting {
    PermissionSetting {
        id: format!(
            "{}:permission:{}:{}:{value}",
            HARNESS.as_str(),
            source.path,
            key.key()
        ),
        key: key.key().to_string(),
        value: value.to_string(),
        effect: PermissionEffect::Mode,
        source,
        honoured: Verdict::Unknown {
            reason: FLAG_REASON.into(),
        },
        denies: denies(key, value),
    }
}

/// What a mode refuses in terms other harnesses share: the read-only
/// sandbox refuses every file edit (Codex documentation, "sandbox":
/// `read-only` lets commands read files and write none; an approval can
/// still lift it for one command under `on-request`, so the equivalence
/// is approximate). Other modes refuse no whole kind of action.
fn denies(key: ModeKey, value: &str) -> Option<PermissionScope> {
    (key == ModeKey::Sandbox && value == "read-only").then_some(PermissionScope {
        action: ActionKind::Edit,
        pattern: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(key: ModeKey, toml: &str) -> Result<Vec<String>, String> {
        let t = toml::de::DeTable::parse(toml).unwrap().into_inner();
        let (_, v) = t.into_iter().next().unwrap();
        allowed_values(key, v.get_ref())
    }

    #[test]
    fn a_sandbox_list_must_hold_read_only_and_known_modes() {
        assert_eq!(
            list(ModeKey::Sandbox, "a = [\"workspace-write\", \"read-only\"]"),
            Ok(vec!["workspace-write".into(), "read-only".into()])
        );
        assert!(list(ModeKey::Sandbox, "a = [\"workspace-write\"]")
            .unwrap_err()
            .contains("read-only"));
        assert!(list(ModeKey::Sandbox, "a = [\"read-only\", \"bogus\"]")
            .unwrap_err()
            .contains("`bogus`"));
        assert!(list(ModeKey::Sandbox, "a = \"read-only\"").is_err());
    }

    #[test]
    fn an_approval_list_falls_back_to_its_first_value() {
        let v = list(ModeKey::Approval, "a = [\"never\", \"on-request\"]").unwrap();
        assert_eq!(ModeKey::Approval.fallback(&v), Some("never"));
        assert_eq!(ModeKey::Sandbox.fallback(&v), Some("read-only"));
        assert!(list(ModeKey::Approval, "a = []")
            .unwrap_err()
            .contains("empty"));
    }
}

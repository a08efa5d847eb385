//! The managed requirements of `/etc/codex/requirements.toml`, read in
//! local mode: the MCP servers the administrator allows, and its hooks.
//!
//! When the file has an `[mcp_servers]` table, Codex starts only the
//! servers it names whose `identity` matches: `command` for a server
//! started by a command, `url` for one reached over HTTP. Every other
//! configured server, whatever its layer, is listed disabled (seen with
//! Codex 0.142.3 and 0.171.0, `codex mcp list --json`, case
//! `oracle.local_user_layers.home-codex-requirements.managed-codex-requirements`:
//! a server named with another address, and servers not named, are
//! `enabled: false`). Sources: openai/codex
//! `codex-rs/core/src/config_loader/config_requirements.rs`
//! (`McpServerRequirement { identity }`, `McpServerIdentity::Command` /
//! `Url`).
//!
//! Its managed hooks (`[hooks]`, run from `managed_dir`) are read by
//! [`crate::hooks`], first and as managed, and `allow_managed_hooks_only`
//! ([`managed_hooks_only`]) leaves every other hook but the system
//! layer's unloaded. `allowed_sandbox_modes` and
//! `allowed_approval_policies` are read by [`crate::modes`].

use crate::config::{extent, get, Layer, LoadedLayer};
use crate::Cx;
use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    redact, Applicability, Diagnostic, DiagnosticCode, McpServer, RepoPath, SourceFormat,
    SourceRef, SourceScope,
};
use playbookdiff_source::{Machine, SourceError};
use toml::de::DeValue;

/// The identity an allowed server must have.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    /// The command that starts it, as written.
    Command(String),
    /// The address it is reached at, as written.
    Url(String),
}

/// One server the requirements allow.
struct Allowed {
    name: String,
    identity: Option<Identity>,
}

/// The MCP server allowlist of the requirements file, when it has one.
pub(crate) struct McpAllowlist {
    allowed: Vec<Allowed>,
    /// The `[mcp_servers]` table, where it is written.
    at: SourceRef,
}

/// The requirements file's path as provenance names it.
fn path() -> Option<RepoPath> {
    RepoPath::on_machine("/etc/codex", "requirements.toml")
}

/// Reads `/etc/codex/requirements.toml` on `machine`: `None` when it is
/// absent, or cannot be read (reported).
pub(crate) fn read(cx: &mut Cx<'_, '_>, machine: &Machine) -> Option<LoadedLayer> {
    let path = path()?;
    match machine.read_text(&path, READ_LIMIT) {
        Ok(text) => Some(LoadedLayer {
            dir: RepoPath::root(),
            path,
            resolved: None,
            text,
        }),
        Err(SourceError::NotFound(_)) => None,
        Err(e) => {
            crate::config::read_error(cx, &path, e, SourceFormat::Toml);
            None
        }
    }
}

/// The requirements file `loaded` parsed; a file that does not parse is
/// an `invalid-toml` diagnostic at its line, and enforces nothing the
/// analysis can see.
pub(crate) fn parse<'a>(cx: &mut Cx<'_, '_>, loaded: &'a LoadedLayer) -> Option<Layer<'a>> {
    match Layer::parse(loaded) {
        Ok(layer) => Some(layer),
        Err(e) => {
            let line = e.span().map_or(1, |s| loaded.text.line_of(s.start));
            let at = SourceRef {
                scope: SourceScope::Managed,
                ..SourceRef::project(loaded.path.clone(), SourceFormat::Toml).with_lines(line, line)
            };
            cx.diag(Diagnostic::new(
                DiagnosticCode::InvalidToml,
                format!("{} is not valid TOML ({}), so what it requires is unknown; fix the syntax.", problems::quote(&loaded.path), e.message().trim()),
            ).at(at));
            None
        }
    }
}

/// The MCP server allowlist of the requirements `layer`: `None` when it
/// has no `[mcp_servers]`.
pub(crate) fn mcp_allowlist(layer: &Layer<'_>) -> Option<McpAllowlist> {
    let (k, v) = get(&layer.table, "mcp_servers")?;
    let DeValue::Table(servers) = v.get_ref() else {
        return None;
    };
    let allowed = servers
        .iter()
        .map(|(name, entry)| Allowed {
            name: name.get_ref().to_string(),
            identity: identity(entry.get_ref()),
        })
        .collect();
    Some(McpAllowlist {
        allowed,
        at: layer.source(extent(k, v)),
    })
}

/// Where the requirements `layer` sets `allow_managed_hooks_only = true`:
/// Codex then loads only managed hooks (those of the requirements and of
/// the system layer `/etc/codex`), none of the user's, the project's or
/// a plugin's (seen with 0.142.3 and 0.171.0, app server `hooks/list`,
/// case `oracle.codex_hooks.home-codex-hooks.managed-codex-managed-hooks`).
pub(crate) fn managed_hooks_only(layer: &Layer<'_>) -> Option<SourceRef> {
    let (k, v) = get(&layer.table, "allow_managed_hooks_only")?;
    matches!(v.get_ref(), DeValue::Boolean(true)).then(|| layer.source(extent(k, v)))
}

/// What a `[features]` key was seen to change in what the model
/// receives (`codex debug prompt-input` of 0.142.3 and 0.171.0, one key
/// at a time); every other key tried changed none of it.
const FEATURE_EFFECTS: &[(&str, &str)] = &[
    ("token_budget", "adds context-window messages"),
    (
        "request_permissions_tool",
        "rewrites the permissions message",
    ),
    (
        "exec_permission_approvals",
        "rewrites the permissions message",
    ),
    (
        "multi_agent_v2",
        "adds the sub-agent messages (0.142.3; 0.171.0 sends them by default)",
    ),
];

/// Names the `[features]` keys of `layer` other than `hooks` (which
/// [`crate::hooks`] models): one `feature-not-modelled` diagnostic at
/// the table, saying what each key seen to change the model's input does.
/// `pins` words the layer's hold: the requirements pin a key for every
/// layer, a configuration layer sets it where no later layer does.
pub(crate) fn features_not_modelled(cx: &mut Cx<'_, '_>, layer: &Layer<'_>, pins: &str) {
    let Some((k, v)) = get(&layer.table, "features") else {
        return;
    };
    let DeValue::Table(t) = v.get_ref() else {
        return;
    };
    let keys: Vec<String> = t
        .iter()
        .map(|(k, _)| k.get_ref().to_string())
        .filter(|k| k != "hooks")
        .collect();
    if keys.is_empty() {
        return;
    }
    let effects: Vec<String> = FEATURE_EFFECTS
        .iter()
        .filter(|(key, _)| keys.iter().any(|k| k == key))
        .map(|(key, effect)| format!("`{key}` {effect}"))
        .collect();
    let seen = if effects.is_empty() {
        String::new()
    } else {
        format!(" ({})", effects.join("; "))
    };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::FeatureNotModelled,
            format!(
                "{} {pins} the features {}: they change Codex's own tools or messages{seen}, not the skills, instructions, MCP servers or hooks listed here, so the analysis does not model them.",
                problems::quote(&layer.loaded.path),
                keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "),
            ),
        )
        .at(layer.source(extent(k, v))),
    );
}

/// The `identity` of one allowed server's entry.
fn identity(entry: &DeValue<'_>) -> Option<Identity> {
    let DeValue::Table(t) = entry else {
        return None;
    };
    let (_, id) = get(t, "identity")?;
    let DeValue::Table(id) = id.get_ref() else {
        return None;
    };
    let text = |k: &str| get(id, k).and_then(|(_, v)| v.get_ref().as_str().map(str::to_string));
    text("command")
        .map(Identity::Command)
        .or_else(|| text("url").map(Identity::Url))
}

impl McpAllowlist {
    /// Marks `excluded` every server of `servers` that would start but
    /// that the allowlist does not allow, its reason naming the file.
    pub(crate) fn apply(&self, servers: &mut [McpServer]) {
        for s in servers.iter_mut().filter(|s| {
            matches!(
                s.applicability,
                Applicability::Effective | Applicability::Conditional
            )
        }) {
            let why = match self.allowed.iter().find(|a| a.name == s.name) {
                None => "does not name it",
                Some(a) if !a.identity.as_ref().is_some_and(|i| matches(i, s)) => {
                    "names it with another command or address"
                }
                Some(_) => continue,
            };
            s.applicability = Applicability::Excluded;
            s.reason = format!(
                "{} The managed requirements `{}` (lines {}) allow only the MCP servers they name, and {why}, so Codex lists it disabled and does not start it.",
                s.reason,
                self.at.path,
                self.at.lines.map_or(String::new(), |l| format!("{}-{}", l.start, l.end)),
            );
        }
    }
}

/// True when server `s` has the identity `id`: the same command, or the
/// same address (compared by fingerprint when the address is shown
/// redacted).
fn matches(id: &Identity, s: &McpServer) -> bool {
    let same = |field: &str, shown: Option<&String>, want: &str| {
        shown.is_some_and(|v| v == want)
            || s.fingerprints.get(field) == Some(&redact::fingerprint(want))
    };
    match id {
        Identity::Command(c) => same("command", s.command.as_ref(), c),
        Identity::Url(u) => same("url", s.url.as_ref(), u),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_a_command_or_an_address() {
        let t = toml::de::DeTable::parse(
            "[a.identity]\ncommand = \"x\"\n[b.identity]\nurl = \"u\"\n[c]\n",
        )
        .unwrap()
        .into_inner();
        let of = |k: &str| identity(get(&t, k).unwrap().1.get_ref());
        assert_eq!(of("a"), Some(Identity::Command("x".into())));
        assert_eq!(of("b"), Some(Identity::Url("u".into())));
        assert_eq!(of("c"), None);
    }
}

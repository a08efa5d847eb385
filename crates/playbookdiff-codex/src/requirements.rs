//! The managed requirements of `/etc/codex/requirements.toml`, read in
//! local mode: the MCP servers the administrator allows.
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
//! The file's other requirements (`allowed_approval_policies`,
//! `allowed_sandbox_modes`, managed `[hooks]`, `allow_managed_hooks_only`,
//! `features`) are not read; local mode says so in an unread-layer
//! diagnostic.

use crate::config::{extent, get};
use crate::Cx;
use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    redact, Applicability, Diagnostic, DiagnosticCode, McpServer, RepoPath, SourceFormat,
    SourceRef, SourceScope,
};
use playbookdiff_source::{Machine, SourceError};
use toml::de::{DeTable, DeValue};

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

/// Reads the MCP server allowlist of `/etc/codex/requirements.toml` on
/// `machine`: `None` when the file is absent or has no `[mcp_servers]`.
/// A file that cannot be read or parsed is an `invalid-toml` diagnostic
/// at its line, and enforces nothing the analysis can see.
pub(crate) fn mcp_allowlist(cx: &mut Cx<'_, '_>, machine: &Machine) -> Option<McpAllowlist> {
    let path = path()?;
    let text = match machine.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => return None,
        Err(e) => {
            crate::config::read_error(cx, &path, e, SourceFormat::Toml);
            return None;
        }
    };
    let body = text.text.trim_start_matches('\u{feff}');
    let bom = text.text.len() - body.len();
    let source = |start: usize, end: usize| {
        let (s, e) = text.lines_of(start + bom, end + bom);
        SourceRef {
            scope: SourceScope::Managed,
            ..SourceRef::project(path.clone(), SourceFormat::Toml).with_lines(s, e)
        }
    };
    let table = match DeTable::parse(body) {
        Ok(t) => t.into_inner(),
        Err(e) => {
            let at = e.span().map_or(source(0, 0), |s| source(s.start, s.start));
            cx.diag(Diagnostic::new(
                DiagnosticCode::InvalidToml,
                format!("{} is not valid TOML ({}), so what it requires of MCP servers is unknown; fix the syntax.", problems::quote(&path), e.message().trim()),
            ).at(at));
            return None;
        }
    };
    let (k, v) = get(&table, "mcp_servers")?;
    let span = extent(k, v);
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
        at: source(span.start, span.end),
    })
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
        let t = DeTable::parse("[a.identity]\ncommand = \"x\"\n[b.identity]\nurl = \"u\"\n[c]\n")
            .unwrap()
            .into_inner();
        let of = |k: &str| identity(get(&t, k).unwrap().1.get_ref());
        assert_eq!(of("a"), Some(Identity::Command("x".into())));
        assert_eq!(of("b"), Some(Identity::Url("u".into())));
        assert_eq!(of("c"), None);
    }
}

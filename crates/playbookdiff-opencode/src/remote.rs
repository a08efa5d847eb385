//! The remote configuration of an organisation the user signed in to,
//! found in local mode.
//!
//! OpenCode 1.18.33 (`Config.loadInstanceState` and `Auth` of the shipped
//! bundle; `packages/opencode/src/config/config.ts` and
//! `packages/opencode/src/auth/index.ts` in sst/opencode): the user's
//! sign-ins are kept in `auth.json` of OpenCode's data directory,
//! `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`; an entry
//! `"<url>": { "type": "wellknown", "key": NAME, "token": TOKEN }` makes
//! OpenCode set the variable `NAME` to the token, fetch
//! `<url>/.well-known/opencode` at startup and merge the configuration it
//! returns first, below the user's global configuration. A file that does
//! not parse is taken as holding no sign-in (not reported here).
//!
//! `OPENCODE_AUTH_CONTENT`, when set and not empty, replaces the file when
//! its text parses as JSON (`Auth.all`: `JSON.parse` of the variable,
//! else the file); its entries are then taken as written, without the
//! file's check of `key` and `token`, so every entry whose `type` is
//! `wellknown` makes OpenCode fetch its address's configuration
//! (`Config.loadInstanceState` walks `Object.entries` of the sign-ins).
//! Text that does not parse leaves the file in charge. Read in the
//! shipped bundle of 1.18.33, and seen with it (cases
//! `oracle.opencode_wellknown.*`, the recorder serving the organisation's
//! document on loopback): from `auth.json`'s entry, and from the
//! variable's entry without `key` and `token` over an `auth.json` that
//! holds none, the document was fetched and its `instructions` (a file
//! sent at startup after `AGENTS.md`), agent, command and MCP server were
//! all loaded.
//!
//! An offline analysis cannot fetch that configuration: for each such
//! entry one `user-config-unavailable` diagnostic names the layer by the
//! host name of its address only (never the rest of the address, nor the
//! token) and says what it may add. Without such an entry, the general
//! note on remote configuration stays.

use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::Machine;
use serde_json::Value;

/// The variable that moves OpenCode's data directory.
pub(crate) const DATA_VAR: &str = "XDG_DATA_HOME";

/// The variable whose JSON text replaces `auth.json`.
pub(crate) const AUTH_CONTENT_VAR: &str = "OPENCODE_AUTH_CONTENT";

/// Which sign-ins a text names: those of `auth.json`, which OpenCode
/// decodes, or those of `OPENCODE_AUTH_CONTENT`, which it takes as
/// written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// `type`, `key` and `token` strings (`auth.json`).
    Decoded,
    /// `type` alone (`OPENCODE_AUTH_CONTENT`).
    AsWritten,
}

/// `auth.json` in OpenCode's data directory on `machine`, as provenance
/// names it (`~/.local/share/opencode/auth.json`,
/// `$XDG_DATA_HOME/opencode/auth.json`).
fn auth_file(machine: &Machine) -> Option<RepoPath> {
    machine
        .user_dir(Some(DATA_VAR), ".local/share")?
        .join("opencode/auth.json")
}

/// The host names of the `wellknown` sign-ins of `text` (an `auth.json`,
/// or the text of `OPENCODE_AUTH_CONTENT`), in text order, the entries
/// checked as `check` says. Nothing for text that does not parse or is
/// not an object.
fn signed_in_hosts(text: &str, check: Check) -> Vec<String> {
    let Ok(Value::Object(entries)) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let decoded = |v: &Value| {
        v.get("key").is_some_and(Value::is_string) && v.get("token").is_some_and(Value::is_string)
    };
    entries
        .iter()
        .filter(|(_, v)| {
            v.get("type").and_then(Value::as_str) == Some("wellknown")
                && (check == Check::AsWritten || decoded(v))
        })
        .map(|(url, _)| host_of(url))
        .collect()
}

/// The sign-ins OpenCode reads on `machine`: the text of
/// `OPENCODE_AUTH_CONTENT` when it parses as JSON, else `auth.json`;
/// with the source that names them and how their entries are checked.
fn sign_ins(machine: &Machine) -> Option<(RepoPath, String, Check)> {
    if let Some(text) = machine.text(AUTH_CONTENT_VAR) {
        if serde_json::from_str::<Value>(text).is_ok() {
            let path = RepoPath::on_machine(&format!("${AUTH_CONTENT_VAR}"), ".")?;
            return Some((path, text.to_string(), Check::AsWritten));
        }
    }
    let path = auth_file(machine)?;
    let text = machine.read_text(&path, READ_LIMIT).ok()?;
    Some((path, text.text.clone(), Check::Decoded))
}

/// The host name of the address `url`: no scheme, user, password, port,
/// path, query or fragment; lower case. `""` when there is none.
fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    host.to_ascii_lowercase()
}

/// The diagnostics for the remote layers the user's sign-ins on
/// `machine` add, one per `wellknown` entry, at `auth.json` or at
/// `$OPENCODE_AUTH_CONTENT`; empty when there is none (or nothing
/// readable holds sign-ins).
pub(crate) fn layers(machine: &Machine) -> Vec<Diagnostic> {
    let Some((path, text, check)) = sign_ins(machine) else {
        return Vec::new();
    };
    let source = SourceRef {
        scope: SourceScope::User,
        ..SourceRef::project(path.clone(), SourceFormat::Json)
    };
    signed_in_hosts(&text, check)
        .into_iter()
        .map(|host| {
            let host = if host.is_empty() {
                "a host without a name".to_string()
            } else {
                format!("`{host}`")
            };
            Diagnostic::new(
                DiagnosticCode::UserConfigUnavailable,
                format!(
                    "{} holds a sign-in of type `wellknown` to {host}: OpenCode fetches that organisation's configuration from its `/.well-known/opencode` at startup and merges it below the user's global configuration, so it can add instructions, skills paths, agents, commands, plugins and MCP servers, or change permissions, which an offline analysis cannot see; run `opencode debug config` to see the merged configuration.",
                    problems::quote(&path)
                ),
            )
            .at(source.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_host_name_is_kept() {
        for (url, host) in [
            ("https://opencode.example.com/", "opencode.example.com"),
            ("https://Ops.Example.com:8443/a/b?t=x#f", "ops.example.com"),
            ("https://user:secret@example.com/x", "example.com"),
            ("http://[::1]:4000/", "::1"),
            ("example.org", "example.org"),
            ("https://", ""),
        ] {
            assert_eq!(host_of(url), host, "{url}");
        }
    }

    #[test]
    fn only_wellknown_entries_that_decode_are_sign_ins() {
        let text = r#"{
          "https://a.example.com": {"type": "wellknown", "key": "A", "token": "t1"},
          "anthropic": {"type": "api", "key": "sk-1"},
          "https://b.example.com": {"type": "wellknown", "key": "B"},
          "https://c.example.com/": {"type": "wellknown", "key": "C", "token": "t3"}
        }"#;
        assert_eq!(
            signed_in_hosts(text, Check::Decoded),
            vec!["a.example.com".to_string(), "c.example.com".to_string()]
        );
        // The variable's entries are taken as written.
        assert_eq!(
            signed_in_hosts(text, Check::AsWritten),
            ["a.example.com", "b.example.com", "c.example.com"]
        );
        assert!(signed_in_hosts("{ not json", Check::Decoded).is_empty());
        assert!(signed_in_hosts("[1]", Check::AsWritten).is_empty());
    }
}

//! The user's trust in hooks, read in local mode: which hooks Codex runs
//! and which wait for the user's review.
//!
//! Codex lists every hook it discovers and runs one only when its trust
//! status is `managed` (a hook of the system's layer,
//! `/etc/codex/config.toml` or `/etc/codex/hooks.json`) or `trusted`: the
//! user's `[hooks.state."KEY"] trusted_hash` equals the hook's current
//! hash. Another hash makes it `modified`, none `untrusted`; both wait
//! for the user to trust them (`/hooks`). `enabled = false` in the same
//! entry turns a hook that is not managed off, whatever its trust.
//!
//! The key is `<file>:<event>:<group>:<handler>`: the absolute path of
//! the registering file as Codex names it, the event in snake case
//! (`pre_tool_use`) and the positions of the matcher group and of the
//! handler in it. The hash is `sha256:` and the hex SHA-256 of the
//! compact JSON, keys sorted, of `{event_name, matcher, hooks: [handler]}`
//! where the handler is `{type: "command", command, timeout, async}`
//! (`timeout` 600 when absent, at least 1; `async` false when absent;
//! `statusMessage` when given) and `matcher` is absent for
//! `UserPromptSubmit` and `Stop`, which ignore it. Only the user's layers
//! (`$CODEX_HOME/config.toml` and a `--profile` file) hold trust entries;
//! a later layer's field wins.
//!
//! Sources: openai/codex `codex-rs/hooks/src/engine/discovery.rs`
//! (`command_hook_hash`, `hook_trust_status`, `hook_enabled`,
//! `hook_metadata_for_config_layer_source`), `config_rules.rs`
//! (`hook_states_from_stack`) and `codex-rs/config/src/fingerprint.rs`
//! (`version_for_toml`). Seen with Codex 0.142.3 and 0.171.0 (the app
//! server's `hooks/list`, case `oracle.codex_hooks.home-codex-hooks` and
//! its `managed-codex-system` variant): the hashes computed here are the
//! `currentHash` Codex gives, a hook with a `statusMessage` included.

use crate::config::{extent, get, Layer};
use playbookdiff_adapter::hooks::command_hook_hash;
use playbookdiff_model::{Hook, RepoPath, SourceRef, SourceScope, Verdict};
use playbookdiff_source::Machine;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use toml::de::DeValue;

/// The trust of a hook that is not managed, as Codex decides it
/// (`HookTrustStatus`; a managed hook runs without the user's trust).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// The user's trusted hash is the hook's current hash.
    Trusted,
    /// The user trusted another version of the hook.
    Modified,
    /// No trusted hash names the hook.
    Untrusted,
}

/// One `[hooks.state."KEY"]` entry, the user's layers merged field by
/// field.
#[derive(Default)]
struct State {
    /// `enabled`, where it is written.
    enabled: Option<(bool, SourceRef)>,
    /// `trusted_hash`, where it is written.
    trusted_hash: Option<(String, SourceRef)>,
}

/// The user's hook trust entries and what names the hooks' files as
/// Codex keys them.
pub(crate) struct HookTrust<'m> {
    states: HashMap<String, State>,
    machine: &'m Machine,
    /// The repository root's absolute path, when it has one.
    root: Option<PathBuf>,
}

impl<'m> HookTrust<'m> {
    /// The trust entries of the user's layers `user` (lowest precedence
    /// first); `root` is the repository root on disk, against which a
    /// project file's key is written. An entry that is not a table, or
    /// whose fields have other types, is ignored, as Codex ignores it.
    pub(crate) fn read(user: &[&Layer<'_>], machine: &'m Machine, root: Option<&Path>) -> Self {
        let mut states: HashMap<String, State> = HashMap::new();
        for layer in user {
            for (key, entry) in state_tables(layer) {
                let DeValue::Table(t) = entry.get_ref() else {
                    continue;
                };
                let enabled = get(t, "enabled").and_then(|(k, v)| match v.get_ref() {
                    DeValue::Boolean(b) => Some((*b, layer.source(extent(k, v)))),
                    _ => None,
                });
                let hash = get(t, "trusted_hash").and_then(|(k, v)| match v.get_ref() {
                    DeValue::String(s) => Some((s.to_string(), layer.source(extent(k, v)))),
                    _ => None,
                });
                let state = states.entry(key).or_default();
                state.enabled = enabled.or(state.enabled.take());
                state.trusted_hash = hash.or(state.trusted_hash.take());
            }
        }
        HookTrust {
            states,
            machine,
            root: root.map(Path::to_path_buf),
        }
    }

    /// Decides `runs` of each hook of `hooks`, registered in `file` (whose
    /// source scope says whether it is managed) from `value`, the object of
    /// events the hooks were read from. A hook already kept from running
    /// (`runs: no`) stays so.
    pub(crate) fn apply(&self, hooks: &mut [Hook], file: &RepoPath, value: &Value) {
        let key_source = self.key_source(file);
        for hook in hooks.iter_mut().filter(|h| h.runs.may_apply()) {
            if hook.source.scope == SourceScope::Managed {
                hook.runs = Verdict::Yes;
                continue;
            }
            let Some((event, group, handler)) = position(&hook.id) else {
                continue;
            };
            let raw = value
                .get(event)
                .and_then(|g| g.get(group))
                .map(|g| (g, g.get("hooks").and_then(|h| h.get(handler))));
            let (Some(key_source), Some((g, Some(h)))) = (&key_source, raw) else {
                continue;
            };
            let key = format!("{key_source}:{}:{group}:{handler}", snake_case(event));
            let state = self.states.get(&key);
            let status = status(&hash(event, g, h), state);
            hook.runs = verdict(status, state);
        }
    }

    /// The absolute path Codex keys a hook of `file` by.
    fn key_source(&self, file: &RepoPath) -> Option<String> {
        let abs = if file.is_on_machine() {
            self.machine.agent_path(file)?
        } else {
            self.root.as_ref()?.join(file.as_str())
        };
        abs.to_str().map(str::to_string)
    }
}

/// The entries of `[hooks.state]` of `layer`, keys trimmed, empty keys
/// left out.
fn state_tables<'b, 'a>(layer: &'b Layer<'a>) -> Vec<(String, &'b toml::Spanned<DeValue<'a>>)> {
    let state = get(&layer.table, "hooks")
        .and_then(|(_, v)| match v.get_ref() {
            DeValue::Table(t) => get(t, "state"),
            _ => None,
        })
        .and_then(|(_, v)| match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        });
    state
        .into_iter()
        .flat_map(|t| t.iter())
        .map(|(k, v)| (k.get_ref().trim().to_string(), v))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// The event, group and handler positions of a hook's id
/// (`codex:hook:<file>:<event>:<group>:<handler>`).
fn position(id: &str) -> Option<(&str, usize, usize)> {
    let mut parts = id.rsplitn(4, ':');
    let handler = parts.next()?.parse().ok()?;
    let group = parts.next()?.parse().ok()?;
    Some((parts.next()?, group, handler))
}

/// `PreToolUse` as Codex's keys and hashes spell it: `pre_tool_use`.
fn snake_case(event: &str) -> String {
    let mut out = String::with_capacity(event.len() + 4);
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The hash Codex trusts a command hook by (module documentation):
/// `group` is the matcher group as written, `handler` the handler in it.
fn hash(event: &str, group: &Value, handler: &Value) -> String {
    let ignores_matcher = matches!(event, "UserPromptSubmit" | "Stop");
    let matcher = group["matcher"].as_str().filter(|_| !ignores_matcher);
    command_hook_hash(&snake_case(event), matcher, handler)
}

/// The trust status of a hook that is not managed, whose current hash is
/// `current`.
fn status(current: &str, state: Option<&State>) -> Status {
    match state.and_then(|s| s.trusted_hash.as_ref()) {
        Some((h, _)) if h == current => Status::Trusted,
        Some(_) => Status::Modified,
        None => Status::Untrusted,
    }
}

/// Whether a hook of status `status` runs: the user's `enabled = false`
/// first, then its trust.
fn verdict(status: Status, state: Option<&State>) -> Verdict {
    if let Some((false, at)) = state.and_then(|s| s.enabled.as_ref()) {
        return Verdict::No {
            reason: format!(
                "turned off by the user: `enabled = false` in `[hooks.state]` of `{}`",
                at.path
            ),
            source: Some(at.clone()),
        };
    }
    let hash_at = state.and_then(|s| s.trusted_hash.as_ref().map(|(_, at)| at.clone()));
    match status {
        Status::Trusted => Verdict::Yes,
        Status::Modified => Verdict::No {
            reason: "modified since the user trusted it: the trusted hash in `[hooks.state]` is of another version, so Codex waits for the user to trust it again (/hooks)".into(),
            source: hash_at,
        },
        Status::Untrusted => Verdict::No {
            reason: "untrusted: no trusted hash in the user's `[hooks.state]` names it, so Codex lists it and waits for the user to trust it (/hooks)".into(),
            source: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The hashes Codex 0.171.0 gave in `hooks/list` (`currentHash`) for
    /// the hooks of `oracle/fixtures/codex_hooks`.
    #[test]
    fn hash_is_codex_current_hash() {
        let cases = [
            (
                "PreToolUse",
                json!({"matcher": "Bash|apply_patch"}),
                json!({"type": "command", "command": "sh .codex/hooks/guard.sh"}),
                "sha256:c72d68e80b01c52201ce3a91d0db158800c7a79ae94241ec506edc787539b8c3",
            ),
            (
                "SessionStart",
                json!({}),
                json!({"type": "command", "command": "sh .codex/hooks/start.sh"}),
                "sha256:eaf5da6ac67d411442bf6501202543fd99fe8f027a10a519405dc47495693d40",
            ),
            (
                "Stop",
                json!({"matcher": "ignored"}),
                json!({"type": "command", "command": "sh .codex/hooks/stop.sh", "timeout": 5}),
                "sha256:41f3b66ab0ea7c16a3777738aae662470bbc537443c47f0961bb86f681ee0889",
            ),
        ];
        for (event, group, handler, want) in cases {
            assert_eq!(hash(event, &group, &handler), want, "{event}");
        }
    }

    #[test]
    fn events_and_positions_as_codex_keys_them() {
        assert_eq!(snake_case("PreToolUse"), "pre_tool_use");
        assert_eq!(snake_case("Stop"), "stop");
        assert_eq!(
            position("codex:hook:$CODEX_HOME/hooks.json:Stop:2:1"),
            Some(("Stop", 2, 1))
        );
        assert_eq!(position("codex:hook:x:Stop:a:1"), None);
    }

    #[test]
    fn turned_off_wins_over_trust() {
        let path = RepoPath::new("c.toml").unwrap();
        let at = SourceRef::project(path, playbookdiff_model::SourceFormat::Toml);
        let state = State {
            enabled: Some((false, at.clone())),
            trusted_hash: Some(("sha256:x".into(), at)),
        };
        let v = verdict(status("sha256:x", Some(&state)), Some(&state));
        assert!(matches!(v, Verdict::No { reason, .. } if reason.starts_with("turned off")));
        assert_eq!(status("sha256:y", Some(&state)), Status::Modified);
        assert_eq!(status("sha256:y", None), Status::Untrusted);
    }
}

//! Codex's hook trust: the hash Codex records for a trusted command hook
//! (`[hooks.state."<key>"] trusted_hash` in `$CODEX_HOME/config.toml`), so
//! that `guard install --scope user --write` can trust the hooks it writes
//! and `guard status` can tell a trusted hook from an untrusted or changed
//! one.
//!
//! The hash is [`command_hook_hash`], the one the Codex adapter uses (checked there
//! against the hashes the app server's `hooks/list` reports in Codex
//! 0.142.3 and 0.171.0). The key is `<hooks.json path>:<event>:<group
//! index>:<handler index>` (0-based).

use serde_json::Value;

/// The events the guard registers, as `hooks.json` names them and as
/// Codex's trust keys and hashes name them.
const EVENTS: [(&str, &str); 2] = [
    ("PreToolUse", "pre_tool_use"),
    ("PostToolUse", "post_tool_use"),
];

/// One command hook of a `hooks.json` and the hash Codex trusts it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustEntry {
    /// `<hooks.json path>:<event>:<group>:<handler>`.
    pub key: String,
    /// `sha256:<hex>`.
    pub hash: String,
}

/// The hash Codex computes for a command hook, kept by the Codex adapter
/// (which decides with it which hooks run in local mode).
pub use playbookdiff_adapter::hooks::command_hook_hash;

/// The trust entries of every command hook in `hooks_json` (the text of
/// the file at `path`, as Codex names it in keys) whose command holds
/// `marker`, in file order. A text that is not a hooks file gives none.
pub fn entries(path: &str, hooks_json: &str, marker: &str) -> Vec<TrustEntry> {
    let Ok(root) = serde_json::from_str::<Value>(hooks_json) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, label) in EVENTS {
        let groups = root["hooks"][name]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for (g, group) in groups.iter().enumerate() {
            let handlers = group["hooks"].as_array().map_or(&[][..], Vec::as_slice);
            for (h, handler) in handlers.iter().enumerate() {
                if handler["command"]
                    .as_str()
                    .is_some_and(|c| c.contains(marker))
                {
                    out.push(TrustEntry {
                        key: format!("{path}:{label}:{g}:{h}"),
                        hash: command_hook_hash(label, group["matcher"].as_str(), handler),
                    });
                }
            }
        }
    }
    out
}

/// Whether a Codex `config.toml` text trusts `entry` with its current
/// hash (a different recorded hash is a changed hook, which Codex does not
/// run).
pub fn is_trusted(config: &str, entry: &TrustEntry) -> bool {
    let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else {
        return false;
    };
    doc.get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(&entry.key))
        .and_then(|e| e.get("trusted_hash"))
        .and_then(|v| v.as_str())
        == Some(entry.hash.as_str())
}

/// `config` (the text of `$CODEX_HOME/config.toml`, `None` when missing)
/// with `[hooks.state."<key>"] trusted_hash` set for every entry, keeping
/// every other table, key and comment; `Ok(None)` when each is already
/// trusted.
///
/// # Errors
/// A sentence when `config` is not valid TOML or its `hooks` or
/// `hooks.state` is not a table: the file is left alone.
pub fn trusted(config: Option<&str>, entries: &[TrustEntry]) -> Result<Option<String>, String> {
    let text = config.unwrap_or("");
    if entries.iter().all(|e| is_trusted(text, e)) {
        return Ok(None);
    }
    let mut doc = text
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| format!("it is not valid TOML ({e}); fix it first"))?;
    let state = implicit_table(doc.as_table_mut(), "hooks")
        .and_then(|hooks| implicit_table(hooks, "state"))
        .ok_or("its `hooks` or `hooks.state` is not a table")?;
    for e in entries {
        let mut table = toml_edit::Table::new();
        table.insert("trusted_hash", toml_edit::value(e.hash.as_str()));
        match state.get_mut(&e.key).and_then(|t| t.as_table_mut()) {
            Some(existing) => {
                existing.insert("trusted_hash", toml_edit::value(e.hash.as_str()));
            }
            None => {
                state.insert(&e.key, toml_edit::Item::Table(table));
            }
        }
    }
    Ok(Some(doc.to_string()))
}

/// The table `key` of `parent`, created implicit (no header of its own)
/// when missing; `None` when `key` holds something else.
fn implicit_table<'a>(
    parent: &'a mut toml_edit::Table,
    key: &str,
) -> Option<&'a mut toml_edit::Table> {
    let item = parent.entry(key).or_insert_with(|| {
        let mut t = toml_edit::Table::new();
        t.set_implicit(true);
        toml_edit::Item::Table(t)
    });
    item.as_table_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Hashes the app server's `hooks/list` reported for these hooks, the
    /// same in Codex 0.142.3 and 0.171.0.
    #[test]
    fn the_hash_is_the_one_codex_reports() {
        let cases = [
            (
                "pre_tool_use",
                Some("*"),
                json!({"type": "command", "command": "'/opt/x y/playbookdiff' guard hook --host codex || exit 2", "timeout": 30}),
                "sha256:0216cbc911954f78216da5e42e9193a953a306fc4345520a1094b3f412075ac9",
            ),
            (
                "post_tool_use",
                Some("Bash"),
                json!({"type": "command", "command": "x"}),
                "sha256:77cba839c4b837674250a9b4a1fc7e1fc7b58ee987103a1d6536085addedb6f6",
            ),
            (
                "post_tool_use",
                Some("Bash"),
                json!({"type": "command", "command": "/a/b guard hook --host codex", "timeout": 30}),
                "sha256:b83a4f5fc6bb3458728367d7c329c8a7896815fbc9e0d6832caa7c2b52406cba",
            ),
            (
                "stop",
                None,
                json!({"type": "command", "command": "é \"q\"", "timeout": 5}),
                "sha256:d79e376dadf458e11a43d1ce79d1f49fa5ee072bb58968d6e97bcdd2f6fb2da5",
            ),
        ];
        for (event, matcher, handler, want) in cases {
            assert_eq!(
                command_hook_hash(event, matcher, &handler),
                want,
                "{handler}"
            );
        }
    }

    #[test]
    fn entries_are_keyed_by_path_event_group_and_handler() {
        let hooks = json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "other"}]},
                {"matcher": "*", "hooks": [{"type": "command", "command": "x", "timeout": 9},
                                           {"type": "command", "command": "g guard hook --host codex"}]}
            ],
            "PostToolUse": [{"hooks": [{"type": "command", "command": "g guard hook --host codex"}]}]
        }})
        .to_string();
        let got = entries("/h/hooks.json", &hooks, "guard hook --host codex");
        let keys: Vec<&str> = got.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "/h/hooks.json:pre_tool_use:1:1",
                "/h/hooks.json:post_tool_use:0:0"
            ]
        );
        assert_ne!(got[0].hash, got[1].hash);
        assert!(entries("/h/hooks.json", "not json", "x").is_empty());
    }

    #[test]
    fn trusting_keeps_the_file_and_a_second_time_changes_nothing() {
        let existing = "# my settings\nmodel = \"m\" # chosen\n\n[projects.\"/r\"]\ntrust_level = \"trusted\"\n\n[hooks.state.\"/other:pre_tool_use:0:0\"]\nenabled = false\n";
        let e = TrustEntry {
            key: "/h/.codex/hooks.json:pre_tool_use:0:0".into(),
            hash: "sha256:ab".into(),
        };
        let once = trusted(Some(existing), std::slice::from_ref(&e))
            .unwrap()
            .unwrap();
        assert!(once.starts_with(existing), "{once}");
        assert!(is_trusted(&once, &e), "{once}");
        assert!(once.contains("[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:ab\""), "{once}");
        assert_eq!(
            trusted(Some(&once), std::slice::from_ref(&e)).unwrap(),
            None
        );
        // A changed hook's old hash is replaced, other keys of its table kept.
        let changed = TrustEntry {
            hash: "sha256:cd".into(),
            ..e.clone()
        };
        let twice = trusted(Some(&once), std::slice::from_ref(&changed))
            .unwrap()
            .unwrap();
        assert!(is_trusted(&twice, &changed) && !is_trusted(&twice, &e));
        assert!(trusted(Some("hooks = 1\n"), std::slice::from_ref(&e)).is_err());
        assert!(trusted(Some("[x\n"), std::slice::from_ref(&e)).is_err());
        let fresh = trusted(None, std::slice::from_ref(&e)).unwrap().unwrap();
        assert!(fresh.starts_with("[hooks.state."), "{fresh}");
    }
}

//! The front-matter schemas of agent and command files.
//!
//! OpenCode 1.18.33 (shipped code, `ConfigAgent.load` and
//! `ConfigCommand.load`): the front matter of `{agent,agents}/**/*.md`
//! and `{command,commands}/**/*.md` is decoded with the schema of the
//! `agent` and `command` configuration keys (`AgentConfig`,
//! `ConfigCommandV1.Info`). A field of the wrong type, `null` included,
//! makes OpenCode refuse to start ("Configuration is invalid at
//! .opencode/agents/plan.md ... Expected string | undefined, got null"):
//! seen on random repositories (`fuzz.opencode.3`, 10 of the first 30
//! seeds). A mode file (`{mode,modes}/*.md`) that fails the agent schema
//! is skipped instead. Keys the schema does not type are kept (agents)
//! or ignored (commands); a front matter that is not YAML leaves the file
//! out before any check.

use serde_json::{Map, Value};

/// Which schema a file's front matter is decoded with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Schema {
    /// `AgentConfig`: agent and mode files.
    Agent,
    /// `ConfigCommandV1.Info`: command files.
    Command,
}

/// The type a schema gives a field.
#[derive(Clone, Copy)]
enum Type {
    Text,
    /// A finite number.
    Number,
    Boolean,
    /// A mapping of tool names to booleans.
    ToolSwitches,
    /// Any mapping.
    Mapping,
    /// `subagent`, `primary` or `all`.
    Mode,
    /// `#` and six hexadecimal digits, or a theme colour's name.
    Color,
}

/// The theme colours an agent's `color` may name (`AgentConfig`).
const THEME_COLORS: &[&str] = &[
    "primary",
    "secondary",
    "accent",
    "success",
    "warning",
    "error",
    "info",
];

/// The typed fields of each schema. Left out: `permission`, `steps` and
/// `maxSteps` of agents (types not modelled: never refused here).
fn fields(schema: Schema) -> &'static [(&'static str, Type)] {
    match schema {
        Schema::Agent => &[
            ("model", Type::Text),
            ("variant", Type::Text),
            ("temperature", Type::Number),
            ("top_p", Type::Number),
            ("tools", Type::ToolSwitches),
            ("disable", Type::Boolean),
            ("description", Type::Text),
            ("mode", Type::Mode),
            ("hidden", Type::Boolean),
            ("options", Type::Mapping),
            ("color", Type::Color),
        ],
        Schema::Command => &[
            ("description", Type::Text),
            ("agent", Type::Text),
            ("model", Type::Text),
            ("variant", Type::Text),
            ("subtask", Type::Boolean),
        ],
    }
}

impl Type {
    fn holds(self, v: &Value) -> bool {
        match self {
            Type::Text => v.is_string(),
            Type::Number => v.is_number(),
            Type::Boolean => v.is_boolean(),
            Type::ToolSwitches => v
                .as_object()
                .is_some_and(|m| m.values().all(Value::is_boolean)),
            Type::Mapping => v.is_object(),
            Type::Mode => matches!(v.as_str(), Some("subagent" | "primary" | "all")),
            Type::Color => v.as_str().is_some_and(|s| {
                THEME_COLORS.contains(&s)
                    || (s.len() == 7
                        && s.starts_with('#')
                        && s[1..].chars().all(|c| c.is_ascii_hexdigit()))
            }),
        }
    }

    /// What the field must be, for a message.
    fn wanted(self) -> &'static str {
        match self {
            Type::Text => "a string",
            Type::Number => "a number",
            Type::Boolean => "true or false",
            Type::ToolSwitches => "a mapping of tool names to true or false",
            Type::Mapping => "a mapping",
            Type::Mode => "`subagent`, `primary` or `all`",
            Type::Color => "a colour such as `#FF5733` or `primary`",
        }
    }
}

/// The first field of `front` (a front matter's mapping, in key order)
/// that `schema` rejects, with what it must be; `None` when it decodes.
pub(crate) fn mismatch(
    schema: Schema,
    front: &Map<String, Value>,
) -> Option<(String, &'static str)> {
    front.iter().find_map(|(key, v)| {
        let (_, ty) = fields(schema).iter().find(|(k, _)| k == key)?;
        (!ty.holds(v)).then(|| (key.clone(), ty.wanted()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Schema, v: Value) -> Option<(String, &'static str)> {
        mismatch(schema, v.as_object().expect("a mapping"))
    }

    /// `null` and a list as a description: refused on random repositories
    /// (seeds 3 and 16 of `oracle/fuzz/opencode/1.18.33.json`); the rest
    /// as the schema types them.
    #[test]
    fn types_as_opencode_decodes_them() {
        for refused in [
            json!({"description": null}),
            json!({"name": "rev", "description": ["a", "b"]}),
            json!({"description": 123}),
            json!({"description": true}),
            json!({"mode": "secondary"}),
            json!({"tools": {"bash": "no"}}),
            json!({"color": "#ABCDE"}),
        ] {
            assert!(check(Schema::Agent, refused.clone()).is_some(), "{refused}");
        }
        assert_eq!(
            check(Schema::Command, json!({"name": "fix", "description": null})),
            Some(("description".to_string(), "a string"))
        );
        for started in [
            json!({"name": 123, "description": "reviews", "disable-model-invocation": "yes"}),
            json!({"mode": "all", "tools": {"bash": false}, "color": "#FF5733", "steps": 5}),
            json!({"color": "accent", "temperature": 0.2}),
        ] {
            assert_eq!(check(Schema::Agent, started.clone()), None, "{started}");
        }
        assert_eq!(
            check(Schema::Command, json!({"mode": 5, "subtask": true})),
            None
        );
    }
}

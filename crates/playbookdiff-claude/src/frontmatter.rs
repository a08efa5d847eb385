//! Front matter as Claude Code reads it, for memory files, rules, skills
//! and legacy commands.
//!
//! Source: the shipped Claude Code 2.1.197 and 2.1.332 (fidelity C2, C20),
//! checked with a scripted model:
//!
//! - A file has front matter when it starts (after a byte-order mark) with
//!   a `---` line and a later `---` occurs anywhere: the block ends at the
//!   first `---` after the opening line, even inside a line, and the body
//!   starts after it, its trailing white space and one line end.
//! - The block is parsed as YAML 1.2 (core schema: `y`, `yes`, `no`, `on`
//!   are text; `true`/`false`, numbers and `null` are typed).
//! - When that fails, parsing is retried once on a repaired copy: on each
//!   `key: value` line whose value is not quoted, not a flow list that
//!   parses, and holds a YAML special character (`{ } [ ] * & # ! | > % @`
//!   or a backquote, or `: `), the value is quoted; and leading tabs become
//!   two spaces each. `paths: **/*.ts`, `paths: {src,lib}/**/*.ts` and
//!   tab-indented lists therefore work.
//! - Only when the retry fails too is the front matter empty (a rule is
//!   then unconditional, a skill has no metadata); the body is the same.
//!
//! The YAML parser is serde-saphyr (YAML 1.2), whose typing matches the
//! agent's on the table in the tests.

use playbookdiff_source::ParseError;
use serde_json::Value;

/// Front matter of a Markdown file as Claude Code reads it.
#[derive(Debug, Clone)]
pub struct FrontMatter {
    /// The YAML text of the block (between the fences).
    pub yaml: String,
    /// 1-based line of the opening `---`.
    pub start_line: u32,
    /// 1-based line of the closing `---`.
    pub end_line: u32,
    /// 1-based file line of the first line of `yaml`.
    pub yaml_line: u32,
    /// Byte offset (into the file's text) where the body starts.
    pub body_offset: usize,
    /// The parsed value (`null` for an empty block), or the first parse's
    /// message with its 1-based file line when known (the retry failed too).
    pub value: Result<Value, ParseError>,
    /// True when the first parse failed and the repaired copy parsed.
    pub repaired: bool,
}

/// Splits off front matter the way Claude Code does. `None` when the file
/// has none (no opening `---` line, or no later `---`).
pub fn parse(text: &str) -> Option<FrontMatter> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let t = &text[bom..];
    let rest = t.strip_prefix("---")?;
    // `---` then white space up to and including a line end.
    let ws = rest.len() - rest.trim_start().len();
    let lead = &rest[..ws];
    let nl = lead.rfind('\n')?;
    let yaml_start = 3 + nl + 1;
    let close_rel = t[yaml_start..].find("---")?;
    let close = yaml_start + close_rel;
    let after = &t[close + 3..];
    // `---\s*\n?`: white space greedily, then an optional line end (the
    // white space already took every line end).
    let ws_after = after.len() - after.trim_start().len();
    let body = close + 3 + ws_after;
    let yaml = t[yaml_start..close].to_string();
    let line_of = |off: usize| t[..off].matches('\n').count() as u32 + 1;
    let (value, repaired) = parse_yaml(&yaml);
    let first_line = line_of(yaml_start);
    let value = value.map_err(|e| e.shifted(first_line - 1));
    Some(FrontMatter {
        start_line: 1,
        end_line: line_of(close),
        yaml_line: first_line,
        body_offset: bom + body,
        yaml,
        value,
        repaired,
    })
}

/// Parses a front-matter block, retrying once on the repaired copy. The
/// error, when both fail, is the first parse's, with its 1-based line in
/// `yaml`. Returns whether the repaired copy was used.
pub fn parse_yaml(yaml: &str) -> (Result<Value, ParseError>, bool) {
    match yaml_value(yaml) {
        Ok(v) => (Ok(v), false),
        Err(first) => match yaml_value(&repair(yaml)) {
            Ok(v) => (Ok(v), true),
            Err(_) => (Err(first), false),
        },
    }
}

/// YAML 1.2 core-schema booleans only: `y`, `yes`, `on` stay text. The
/// node budget of every front matter (an alias bomb is refused early).
fn yaml_value(yaml: &str) -> Result<Value, ParseError> {
    playbookdiff_source::markdown::parse_yaml_with(yaml, true)
}

/// True when `v` holds a character that makes a plain YAML scalar
/// misparse: `{ } [ ] * & # ! | > % @` or a backquote, or `: `.
fn has_special(v: &str) -> bool {
    v.contains(": ") || v.chars().any(|c| "{}[]*&#!|>%@`".contains(c))
}

/// The repaired copy: special plain values quoted, leading tabs expanded.
fn repair(yaml: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in yaml.split('\n') {
        out.push(repair_line(line).unwrap_or_else(|| line.to_string()));
    }
    let joined = out.join("\n");
    joined
        .split('\n')
        .map(|l| {
            let tabs = l.len() - l.trim_start_matches('\t').len();
            if tabs == 0 {
                l.to_string()
            } else {
                format!("{}{}", "  ".repeat(tabs), &l[tabs..])
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `key: "value"` for a top-level `key: value` line (key of letters,
/// `_` and `-`) whose value needs quoting; `None` to keep the line.
fn repair_line(line: &str) -> Option<String> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
    {
        return None;
    }
    let after = &line[colon + 1..];
    // At least one white-space character, then a value starting with a
    // non-space character (the rest of the line, as written).
    let value = after.trim_start();
    if value.len() == after.len() || value.is_empty() {
        return None;
    }
    // The agent's line pattern does not match a line ending in `\r`
    // (a CRLF file), so such lines are kept as written.
    if value.contains(['\n', '\r']) {
        return None;
    }
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
    if quoted('"') || quoted('\'') {
        return None;
    }
    if value.starts_with('[')
        && value.ends_with(']')
        && matches!(yaml_value(value), Ok(Value::Array(_)))
    {
        return None;
    }
    if !has_special(value) {
        return None;
    }
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    Some(format!("{key}: \"{escaped}\""))
}

/// The file line of the top-level key `key` (found textually: a line
/// starting with `key:` or `"key":`), else the opening `---` line.
pub fn key_line(fm: &FrontMatter, key: &str) -> u32 {
    fm.yaml
        .lines()
        .position(|l| {
            let l = l
                .strip_prefix('"')
                .and_then(|r| r.strip_prefix(key))
                .and_then(|r| r.strip_prefix('"'))
                .or_else(|| l.strip_prefix(key));
            l.is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .map(|i| fm.yaml_line + i as u32)
        .unwrap_or(fm.start_line)
}

/// Text of a front-matter field as Claude Code reads a text field: a
/// string as written, a number or boolean turned into text (`456` →
/// `"456"`); `None` for null, a list or a mapping.
pub fn text_field(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fm(text: &str) -> FrontMatter {
        parse(text).expect("front matter")
    }

    #[test]
    fn fences_as_claude_code_finds_them() {
        let f = fm("---\nname: a\n---\nbody");
        assert_eq!(f.value.unwrap(), json!({"name": "a"}));
        assert_eq!(f.end_line, 3);
        // White space after the closing fence is part of it.
        let t = "---\nname: a\n---  \n\n\nbody\n";
        assert_eq!(&t[fm(t).body_offset..], "body\n");
        // The first `---` closes the block, even inside a line.
        let t = "---\ndescription: a---b\n---\nbody";
        assert_eq!(&t[fm(t).body_offset..], "b\n---\nbody");
        // A byte-order mark is skipped; CRLF works.
        let t = "\u{feff}---\r\nname: a\r\n---\r\nbody";
        assert_eq!(&t[fm(t).body_offset..], "body");
        assert!(parse("no\n---\n").is_none());
        assert!(parse("---\nname: a\n").is_none());
    }

    /// YAML 1.2 core-schema typing, as Claude Code's parser types scalars.
    #[test]
    fn yaml_1_2_scalars() {
        let table: &[(&str, Value)] = &[
            ("y", json!("y")),
            ("yes", json!("yes")),
            ("no", json!("no")),
            ("on", json!("on")),
            ("off", json!("off")),
            ("true", json!(true)),
            ("false", json!(false)),
            ("456", json!(456)),
            ("~", Value::Null),
            ("null", Value::Null),
            ("'007'", json!("007")),
        ];
        for (raw, want) in table {
            let (v, _) = parse_yaml(&format!("k: {raw}\n"));
            assert_eq!(&v.unwrap()["k"], want, "{raw}");
        }
    }

    #[test]
    fn retry_quotes_special_values_and_expands_tabs() {
        for (yaml, want) in [
            ("paths: **/*.ts\n", json!({"paths": "**/*.ts"})),
            (
                "paths: {src,lib}/**/*.ts\n",
                json!({"paths": "{src,lib}/**/*.ts"}),
            ),
            ("paths:\n\t- \"src/**\"\n", json!({"paths": ["src/**"]})),
            (
                "description: Build for AWS: ECS\n",
                json!({"description": "Build for AWS: ECS"}),
            ),
            ("paths: [unclosed\n", json!({"paths": "[unclosed"})),
        ] {
            let (v, repaired) = parse_yaml(yaml);
            assert_eq!(v.unwrap(), want, "{yaml}");
            assert!(repaired, "{yaml}");
        }
        let (v, repaired) = parse_yaml("a: 1\n b: 2\n  - x\n");
        assert!(v.is_err() && !repaired);
        let (v, repaired) = parse_yaml("paths: [\"a\", \"b\"]\n");
        assert_eq!(v.unwrap(), json!({"paths": ["a", "b"]}));
        assert!(!repaired);
    }

    #[test]
    fn numbers_become_text_in_text_fields() {
        assert_eq!(text_field(&json!(456)).as_deref(), Some("456"));
        assert_eq!(text_field(&json!(true)).as_deref(), Some("true"));
        assert_eq!(text_field(&json!("y")).as_deref(), Some("y"));
        assert_eq!(text_field(&json!(["a"])), None);
    }
}

//! Strict JSON (Claude Code's `.mcp.json` and `.claude/settings*.json`,
//! Codex's `hooks.json`) with the lines of its keys and the keys an object
//! repeats.
//!
//! `serde_json` parses the value (keeping the last of repeated keys, as
//! JavaScript's `JSON.parse` does) but has no spans and no notion of a
//! repeated key. One linear scan of the validated text adds both, so that a
//! diagnostic about a key can name its line and a repeated key is reported
//! instead of silently dropped.

use playbookdiff_source::ParseError;
use serde_json::Value;
use std::collections::HashMap;

/// Key paths deeper than this are not indexed (diagnostics need at most
/// `hooks.<event>.<group>.hooks.<index>`, a hook handler of a settings
/// file); repeated keys are found at any depth.
const MAX_INDEXED_DEPTH: usize = 5;

/// The most repeated keys reported for one file.
pub const MAX_DUPLICATES: usize = 20;

/// A key that occurs more than once in one JSON object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The path of the key (`["mcpServers", "github"]`).
    pub path: Vec<String>,
    /// The 1-based line of each occurrence, in file order; the last is the
    /// one the parsed value holds.
    pub lines: Vec<u32>,
}

/// A parsed JSON document with key lines.
#[derive(Debug, Clone)]
pub struct JsonDoc {
    /// The value (the last of repeated keys wins).
    pub value: Value,
    /// For each key or array element path up to [`MAX_INDEXED_DEPTH`]: the
    /// lines from its key (or first token) to the end of its value, for the
    /// last occurrence.
    spans: HashMap<Vec<String>, (u32, u32)>,
    /// Repeated keys, in file order (at most [`MAX_DUPLICATES`]).
    pub duplicates: Vec<DuplicateKey>,
}

impl JsonDoc {
    /// Parses strict JSON (a leading byte-order mark is allowed). Errors
    /// give the parser's message without its position, and the 1-based line.
    pub fn parse(text: &str) -> Result<JsonDoc, ParseError> {
        let t = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value = serde_json::from_str::<Value>(t).map_err(|e| {
            let msg = e.to_string();
            let msg = match msg.find(" at line ") {
                Some(i) => msg[..i].to_string(),
                None => msg,
            };
            ParseError::on_line(msg, e.line().max(1) as u32)
        })?;
        let (spans, duplicates) = scan(t);
        Ok(JsonDoc {
            value,
            spans,
            duplicates,
        })
    }

    /// [`JsonDoc::parse`] for an agent that reads JSON with `serde_json`
    /// as it is (Codex): a leading byte order mark is an error at line 1,
    /// as Codex 0.142.3 and 0.171.0 report for a `.codex/hooks.json` that
    /// starts with one ("failed to parse hooks config: expected value at
    /// line 1 column 1", and no hook of it is listed; oracle case
    /// `oracle.bom_codex_hooks`).
    pub fn parse_without_bom(text: &str) -> Result<JsonDoc, ParseError> {
        if text.starts_with('\u{feff}') {
            return Err(ParseError::on_line(
                "expected value: it starts with a UTF-8 byte order mark (U+FEFF), which this JSON parser rejects: save it without one",
                1,
            ));
        }
        JsonDoc::parse(text)
    }

    /// The lines `(first, last)` of the value at `path` (from its key), when
    /// indexed.
    pub fn span(&self, path: &[&str]) -> Option<(u32, u32)> {
        let key: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        self.spans.get(&key).copied()
    }

    /// The line of the key (or array element) at `path`, when indexed.
    pub fn line(&self, path: &[&str]) -> Option<u32> {
        self.span(path).map(|(s, _)| s)
    }
}

enum Frame {
    Object {
        keys: HashMap<String, u32>,
        expect_key: bool,
    },
    Array {
        index: usize,
    },
}

struct Scanner {
    spans: HashMap<Vec<String>, (u32, u32)>,
    duplicates: Vec<DuplicateKey>,
    /// Index into `duplicates` by path.
    duplicate_at: HashMap<Vec<String>, usize>,
    frames: Vec<Frame>,
    /// `path[i]` is the key or index of the current item of `frames[i]`.
    path: Vec<String>,
    /// For each open container: the path it is recorded under, if indexed.
    open: Vec<Option<Vec<String>>>,
}

impl Scanner {
    /// A value token starts at `line`: an array element gets its path here.
    fn value_start(&mut self, line: u32, container: bool) {
        let depth = self.frames.len();
        if let Some(Frame::Array { index }) = self.frames.last() {
            let i = index.to_string();
            self.path.truncate(depth - 1);
            self.path.push(i);
            if self.path.len() <= MAX_INDEXED_DEPTH {
                self.spans.insert(self.path.clone(), (line, line));
            }
        }
        let recorded =
            (depth > 0 && self.path.len() == depth && self.path.len() <= MAX_INDEXED_DEPTH)
                .then(|| self.path.clone());
        if let Some(p) = &recorded {
            if let Some(s) = self.spans.get_mut(p) {
                s.1 = line;
            }
        }
        if container {
            self.open.push(recorded);
        }
    }

    fn key(&mut self, key: String, line: u32) {
        let depth = self.frames.len();
        self.path.truncate(depth - 1);
        self.path.push(key.clone());
        if self.path.len() <= MAX_INDEXED_DEPTH {
            self.spans.insert(self.path.clone(), (line, line));
        }
        let Some(Frame::Object { keys, .. }) = self.frames.last_mut() else {
            return;
        };
        match keys.get(&key) {
            None => {
                keys.insert(key, line);
            }
            Some(&first) => {
                if let Some(&i) = self.duplicate_at.get(&self.path) {
                    self.duplicates[i].lines.push(line);
                } else if self.duplicates.len() < MAX_DUPLICATES {
                    self.duplicate_at
                        .insert(self.path.clone(), self.duplicates.len());
                    self.duplicates.push(DuplicateKey {
                        path: self.path.clone(),
                        lines: vec![first, line],
                    });
                }
            }
        }
    }

    fn close(&mut self, line: u32) {
        self.frames.pop();
        self.path.truncate(self.frames.len());
        if let Some(Some(p)) = self.open.pop() {
            if let Some(s) = self.spans.get_mut(&p) {
                s.1 = line;
            }
        }
    }
}

/// Scans text that `serde_json` accepted.
type Scan = (HashMap<Vec<String>, (u32, u32)>, Vec<DuplicateKey>);

fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut s = Scanner {
        spans: HashMap::new(),
        duplicates: Vec::new(),
        duplicate_at: HashMap::new(),
        frames: Vec::new(),
        path: Vec::new(),
        open: Vec::new(),
    };
    let mut line = 1u32;
    let mut i = 0usize;
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b' ' | b'\t' | b'\r' => {}
            b'{' => {
                s.value_start(line, true);
                s.frames.push(Frame::Object {
                    keys: HashMap::new(),
                    expect_key: true,
                });
            }
            b'[' => {
                s.value_start(line, true);
                s.frames.push(Frame::Array { index: 0 });
            }
            b'}' | b']' => s.close(line),
            b',' => match s.frames.last_mut() {
                Some(Frame::Object { expect_key, .. }) => *expect_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { expect_key, .. }) = s.frames.last_mut() {
                    *expect_key = false;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let raw = &text[start..(i + 1).min(text.len())];
                let is_key = matches!(
                    s.frames.last(),
                    Some(Frame::Object {
                        expect_key: true,
                        ..
                    })
                );
                if is_key {
                    let key = serde_json::from_str::<String>(raw).unwrap_or_default();
                    s.key(key, line);
                } else {
                    s.value_start(line, false);
                }
            }
            _ => {
                // A number, `true`, `false` or `null`: one token.
                s.value_start(line, false);
                while i + 1 < b.len()
                    && !matches!(b[i + 1], b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n')
                {
                    i += 1;
                }
            }
        }
        i += 1;
    }
    (s.spans, s.duplicates)
}

/// The string elements of `value` when it is an array, in order; nothing
/// when it is absent or not an array, and elements that are not strings
/// are left out (each agent's MCP `args` and settings lists read so).
pub fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// `a.b.c` for a key path (array indices as numbers).
pub fn dotted(path: &[String]) -> String {
    path.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_keeps_the_string_elements_of_an_array_only() {
        let v = serde_json::json!(["a", 1, null, "b", ["c"]]);
        assert_eq!(strings(Some(&v)), ["a", "b"]);
        assert!(strings(Some(&serde_json::json!("a"))).is_empty());
        assert!(strings(None).is_empty());
    }

    #[test]
    fn spans_of_keys_elements_and_values() {
        let t = "{\n  \"mcpServers\": {\n    \"a\": {\n      \"args\": [\n        \"x\",\n        1\n      ]\n    }\n  },\n  \"k\": true\n}\n";
        let d = JsonDoc::parse(t).unwrap();
        assert_eq!(d.span(&["mcpServers"]), Some((2, 9)));
        assert_eq!(d.span(&["mcpServers", "a"]), Some((3, 8)));
        assert_eq!(d.span(&["mcpServers", "a", "args"]), Some((4, 7)));
        assert_eq!(d.line(&["mcpServers", "a", "args", "1"]), Some(6));
        assert_eq!(d.line(&["k"]), Some(10));
        assert!(d.duplicates.is_empty());
    }

    #[test]
    fn repeated_keys_at_any_depth_keep_every_line_and_the_value_keeps_the_last() {
        let t = "{\"s\": {\n\"a\": 1,\n\"a\": {\"x\": \"\\\"}\", \"x\": 2},\n\"a\": 3}}";
        let d = JsonDoc::parse(t).unwrap();
        assert_eq!(d.value["s"]["a"], 3);
        assert_eq!(
            d.duplicates,
            [
                DuplicateKey {
                    path: vec!["s".into(), "a".into()],
                    lines: vec![2, 3, 4]
                },
                DuplicateKey {
                    path: vec!["s".into(), "a".into(), "x".into()],
                    lines: vec![3, 3]
                },
            ]
        );
        assert_eq!(d.span(&["s", "a"]), Some((4, 4)));
    }

    #[test]
    fn errors_name_the_line_without_the_position_text() {
        let e = JsonDoc::parse("{\n\"a\": 1,\n}").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(!e.message.contains("line"), "{}", e.message);
    }
}

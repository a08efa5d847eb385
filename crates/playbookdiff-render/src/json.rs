//! The JSON document of the output contract, and the one way every JSON
//! renderer writes: pretty-printed (two-space indent), ending with a
//! newline, either into a `String` or straight into a caller's writer.

use playbookdiff_model::EffectiveAgentConfig;
use serde::Serialize;
use std::io::{self, Write};

/// Writes `v` pretty-printed and a final newline into `out`, as it is
/// serialized: no copy of the document is held in memory, so `out` should
/// be buffered (a `BufWriter`). Errors: those of `out`, or a `Serialize`
/// implementation's (as `io::ErrorKind::InvalidData`; the model's types
/// never fail).
///
/// The serializer's many small writes (a quote, an indent, a key) go into
/// a 64 KB buffer of this function's own, so they are copies rather than
/// calls through `out` (a `dyn Write` behind the command's output); the
/// buffer is handed to `out` as it fills. After an error the rest of the
/// buffer is dropped, not written.
pub(crate) fn write_pretty<W: Write + ?Sized>(out: &mut W, v: &impl Serialize) -> io::Result<()> {
    let mut buf = io::BufWriter::with_capacity(64 * 1024, &mut *out);
    let written = write_at(&mut buf, v, 0).and_then(|()| buf.write_all(b"\n"));
    match written {
        Ok(()) => buf.into_inner().map(drop).map_err(|e| e.into_error()),
        Err(e) => {
            drop(buf.into_parts());
            Err(e)
        }
    }
}

/// Writes `v` pretty-printed as it would stand `level` levels deep in a
/// pretty-printed document (its inner lines indented by `level` more
/// steps), without a final newline. Errors: those of `out`, or a
/// `Serialize` implementation's (as in [`write_pretty`]).
pub(crate) fn write_at<W: Write + ?Sized>(
    out: &mut W,
    v: &impl Serialize,
    level: usize,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Pretty::at(level));
    v.serialize(&mut ser).map_err(io::Error::from)
}

/// Spaces for indentation, written as one slice per line.
const SPACES: &[u8; 64] = b"                                                                ";

/// `serde_json`'s `PrettyFormatter` with its two-space indent (the same
/// bytes), starting at a given depth, and writing a line's indentation as
/// one slice instead of one write per level.
struct Pretty {
    current_indent: usize,
    has_value: bool,
}

impl Pretty {
    fn at(level: usize) -> Pretty {
        Pretty {
            current_indent: level,
            has_value: false,
        }
    }

    fn indent<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        let mut n = self.current_indent * 2;
        while n > SPACES.len() {
            w.write_all(SPACES)?;
            n -= SPACES.len();
        }
        w.write_all(&SPACES[..n])
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: Write + ?Sized>(&mut self, w: &mut W) -> io::Result<()> {
        self.current_indent += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: Write + ?Sized>(&mut self, w: &mut W) -> io::Result<()> {
        self.current_indent -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: Write + ?Sized>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn end_array_value<W: Write + ?Sized>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: Write + ?Sized>(&mut self, w: &mut W) -> io::Result<()> {
        self.current_indent += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: Write + ?Sized>(&mut self, w: &mut W) -> io::Result<()> {
        self.current_indent -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: Write + ?Sized>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn begin_object_value<W: Write + ?Sized>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: Write + ?Sized>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `v` pretty-printed with a final newline, as a `String`: what
/// [`write_pretty`] writes.
pub(crate) fn pretty(v: &impl Serialize) -> String {
    let mut buf = Vec::new();
    // Writing into a `Vec` cannot fail; the report types only hold strings,
    // numbers, booleans, sequences and string-keyed structs and maps.
    write_pretty(&mut buf, v).expect("the document serializes to JSON");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// Serializes `config` as the contract's JSON document: pretty-printed,
/// camelCase keys, ending with a newline.
pub fn to_json(config: &EffectiveAgentConfig) -> String {
    pretty(config)
}

/// Writes [`to_json`]'s document into `out` as it is serialized
/// (see [`crate::format`]). Errors: those of `out`.
pub fn write_json<W: Write + ?Sized>(out: &mut W, config: &EffectiveAgentConfig) -> io::Result<()> {
    write_pretty(out, config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_model::AnalysisContext;
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");

    #[test]
    fn pretty_with_trailing_newline_and_contract_keys() {
        let config = EffectiveAgentConfig::new(CLAUDE, AnalysisContext::at_root());
        let out = to_json(&config);
        assert!(out.ends_with("}\n"));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["schemaVersion"], 1);
        assert_eq!(v["harness"], "claude-code");
        assert_eq!(v["context"]["repositoryRoot"], ".");
        assert_eq!(v["context"]["targetPath"], serde_json::Value::Null);
        // The formatter writes what serde_json's pretty printer writes,
        // at any depth.
        assert_eq!(out, serde_json::to_string_pretty(&config).unwrap() + "\n");
        let deep = vec![vec![vec![vec![vec![&config]]]]];
        let mut at = Vec::new();
        write_at(&mut at, &deep, 0).unwrap();
        assert_eq!(
            String::from_utf8(at).unwrap(),
            serde_json::to_string_pretty(&deep).unwrap()
        );
        let mut nested = serde_json::json!({"k": [1, "a\nb", {}, []]});
        for _ in 0..40 {
            nested = serde_json::json!([{ "v": nested }]);
        }
        let mut at = Vec::new();
        write_at(&mut at, &nested, 0).unwrap();
        assert_eq!(
            String::from_utf8(at).unwrap(),
            serde_json::to_string_pretty(&nested).unwrap()
        );
        for key in [
            "instructions",
            "skills",
            "mcpServers",
            "diagnostics",
            "assumptions",
        ] {
            assert!(v[key].is_array(), "{key} is not an array");
        }
    }
}

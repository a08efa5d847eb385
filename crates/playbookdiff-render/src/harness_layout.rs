//! The harness layout (`playbookdiff layout`): where each harness release
//! reads each kind of configuration, as text for people (at most
//! [`crate::DEFAULT_WIDTH`] columns unless [`crate::with_width`] says
//! otherwise) and as the JSON document of `schema/layout.schema.json`.
//!
//! Text shape, per harness release: a heading `Claude Code 2.1.332`, any
//! diagnostic (the nearest-profile warning), then per kind in
//! [`SurfaceKind::ALL`] order its rows: the path with its scope and how
//! far the analysis models it, then the keys, the tokens and the note,
//! each wrapped under the path.

use crate::layout::{columns, pair_lines, wrap_hanging};
use playbookdiff_model::layout::{LayoutDocument, ReleaseLayout, Surface, SurfaceKind};
use playbookdiff_model::SCHEMA_VERSION;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The document of `layouts`, with `schemaVersion` [`SCHEMA_VERSION`].
pub fn document(layouts: Vec<ReleaseLayout>) -> LayoutDocument {
    LayoutDocument {
        schema_version: SCHEMA_VERSION,
        layouts,
    }
}

/// `doc` as pretty JSON ending with a newline, written into `out`.
/// Errors: those of `out` only.
pub fn write_json<W: Write + ?Sized>(out: &mut W, doc: &LayoutDocument) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, doc).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// The JSON Schema (draft 2020-12) of [`LayoutDocument`], generated from
/// its types and doc comments, `schemaVersion` pinned to
/// [`SCHEMA_VERSION`]. Pretty-printed, ending with a newline.
pub fn layout_schema() -> String {
    let mut schema = schemars::schema_for!(LayoutDocument);
    if let Some(version) = schema
        .as_object_mut()
        .and_then(|root| root.get_mut("properties"))
        .and_then(|properties| properties.get_mut("schemaVersion"))
        .and_then(|v| v.as_object_mut())
    {
        version.insert("const".to_string(), SCHEMA_VERSION.into());
    }
    let mut out =
        serde_json::to_string_pretty(&schema).expect("a JSON Schema always serializes to JSON");
    out.push('\n');
    out
}

/// `doc` as text for people (see the module documentation).
pub fn to_text(doc: &LayoutDocument) -> String {
    let width = columns();
    let mut out = String::new();
    for (i, layout) in doc.layouts.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        release_text(&mut out, layout, width);
    }
    out
}

fn release_text(out: &mut String, layout: &ReleaseLayout, width: usize) {
    let _ = writeln!(out, "{} {}", layout.name, layout.release);
    for d in &layout.diagnostics {
        out.push_str(&wrap_hanging(&d.message, "  warning: ", "    ", width));
    }
    for kind in SurfaceKind::ALL {
        let rows: Vec<&Surface> = layout.surfaces.iter().filter(|s| s.kind == kind).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n  {}", kind.as_str());
        for row in rows {
            row_text(out, row, width);
        }
    }
}

fn row_text(out: &mut String, row: &Surface, width: usize) {
    let right = format!("{}, {}", row.scope.as_str(), row.analysis.as_str());
    out.push_str(&pair_lines("    ", row.pattern, &right, width));
    if !row.keys.is_empty() {
        let keys = format!("keys: {}", row.keys.join(", "));
        out.push_str(&wrap_hanging(&keys, "      ", "        ", width));
    }
    if !row.tokens.is_empty() {
        let tokens = format!("tokens: {}", row.tokens.join(", "));
        out.push_str(&wrap_hanging(&tokens, "      ", "        ", width));
    }
    if !row.note.is_empty() {
        out.push_str(&wrap_hanging(row.note, "      ", "      ", width));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_model::layout::Scope;
    use playbookdiff_model::Harness;

    fn doc() -> LayoutDocument {
        const ROWS: &[Surface] = &[
            Surface::new(SurfaceKind::Settings, "**/.example/a-rather-long-directory-name/settings.json")
                .keys(&["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])
                .note("A note long enough to need a second line when it is printed under its path at eighty columns."),
            Surface::new(SurfaceKind::Instructions, "~/.example/EXAMPLE.md")
                .scope(Scope::User)
                .not_read(),
        ];
        document(vec![ReleaseLayout {
            harness: Harness::new("example", "Example"),
            name: "Example",
            release: "1.0.0".into(),
            diagnostics: Vec::new(),
            surfaces: ROWS.to_vec(),
        }])
    }

    /// Kinds come in [`SurfaceKind::ALL`] order whatever the table order,
    /// and every line stays within 80 columns.
    #[test]
    fn kinds_in_order_within_80_columns() {
        let text = to_text(&doc());
        let instructions = text.find("\n  instructions\n").unwrap();
        let settings = text.find("\n  settings\n").unwrap();
        assert!(instructions < settings, "{text}");
        assert!(
            text.contains("~/.example/EXAMPLE.md  user, not-read"),
            "{text}"
        );
        for line in text.lines() {
            assert!(crate::layout::width(line) <= 80, "{line:?}\n{text}");
        }
    }

    /// The JSON names each row's path, scope and analysis, and leaves out
    /// empty keys, tokens and notes.
    #[test]
    fn json_rows() {
        let mut out = Vec::new();
        write_json(&mut out, &doc()).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let row = &v["layouts"][0]["surfaces"][1];
        assert_eq!(row["path"], "~/.example/EXAMPLE.md");
        assert_eq!(row["scope"], "user");
        assert_eq!(row["analysis"], "not-read");
        assert!(
            row.get("keys").is_none() && row.get("note").is_none(),
            "{row}"
        );
        assert_eq!(v["schemaVersion"], 1);
    }
}

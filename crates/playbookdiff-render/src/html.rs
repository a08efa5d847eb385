//! `--format html`: one self-contained page (inline style and script, no
//! network, opens from `file://`) for `check`, `check --all-dirs` and
//! `diff` (docs/html.md).
//!
//! The page carries the very JSON document `--format json` writes (the
//! same writer, with its whitespace dropped), gzip-compressed and written
//! in base64 in a `<script type="text/plain">` element, and a small script
//! (`html/report.js`) unpacks it in the browser (`DecompressionStream`)
//! and draws the page from it, putting every text of the repository into
//! the page as text (`textContent`), never as markup. So the page cannot
//! drift from the JSON document, holds no value the document does not
//! (secrets are redacted there), and no repository text appears in the
//! page's source at all: base64 has no `<`, `&` or quote. Compressed, the
//! report of the 100,000-file benchmark with every launch directory's pane
//! is about a tenth of the document's size (docs/performance.md). Inside
//! the compressed document every `<` is still written `\u003c`, so the
//! unpacked text is safe to embed too.

use std::io::{self, Write};

/// The kind of document a page shows; the script picks its layout from it
/// (the `data-kind` attribute of `<body>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PageKind {
    /// `check` under one context (`schema/check.schema.json`).
    Check,
    /// `check --all-dirs`: the same schema with `allDirs: true`.
    Matrix,
    /// `diff` (`schema/diff.schema.json`).
    Diff,
}

impl PageKind {
    fn as_str(self) -> &'static str {
        match self {
            PageKind::Check => "check",
            PageKind::Matrix => "matrix",
            PageKind::Diff => "diff",
        }
    }
}

const STYLE: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");

/// Writes the page of `kind` into `out`, with the JSON document that
/// `write_json` writes embedded in it (minified, `<` escaped) as it is
/// written. Errors: those of `out` and of `write_json`.
pub(crate) fn write_page<W: Write + ?Sized>(
    out: &mut W,
    kind: PageKind,
    write_json: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(64 * 1024, out);
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n\
         <title>PlaybookDiff report</title>\n<style>\n{STYLE}</style>\n</head>\n\
         <body data-kind=\"{}\">\n\
         <noscript><p>This report is drawn by a script; allow scripts for this file, \
         or run the command with <code>--format json</code> or <code>--format text</code>.</p></noscript>\n\
         <script type=\"text/plain\" id=\"report-data\" data-encoding=\"gzip base64\">",
        kind.as_str()
    )?;
    write_packed(&mut out, write_json)?;
    write!(
        out,
        "</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    )?;
    out.flush()
}

/// Writes the JSON text `write_json` writes, whitespace dropped and `<`
/// escaped ([`Embedded`]), gzip-compressed (flate2, default level) and
/// in standard base64 with padding (what the browser's `atob` reads).
/// Errors: those of `out` and of `write_json`.
fn write_packed<W: Write>(
    out: &mut W,
    write_json: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let base64 = base64::write::EncoderWriter::new(out, &base64::engine::general_purpose::STANDARD);
    let gzip = flate2::write::GzEncoder::new(base64, flate2::Compression::default());
    let mut embedded = Embedded::new(gzip);
    write_json(&mut embedded)?;
    embedded.out.finish()?.finish()?;
    Ok(())
}

/// A writer that passes a JSON text through with the whitespace between
/// its tokens dropped and every `<` written `\u003c` (inside strings, the
/// only place JSON can hold one), so the text is safe as the content of a
/// `<script>` element and parses to the same value.
struct Embedded<W> {
    out: W,
    in_string: bool,
    escaped: bool,
}

impl<W: Write> Embedded<W> {
    fn new(out: W) -> Self {
        Embedded {
            out,
            in_string: false,
            escaped: false,
        }
    }
}

impl<W: Write> Write for Embedded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut start = 0;
        for (i, &b) in buf.iter().enumerate() {
            let replacement: Option<&[u8]> = if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                (b == b'<').then_some(b"\\u003c")
            } else {
                if b == b'"' {
                    self.in_string = true;
                }
                matches!(b, b' ' | b'\n' | b'\r' | b'\t').then_some(b"")
            };
            if let Some(r) = replacement {
                self.out.write_all(&buf[start..i])?;
                self.out.write_all(r)?;
                start = i + 1;
            }
        }
        self.out.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embed(json: &str) -> String {
        let mut out = Vec::new();
        // Written in small pieces, as a serializer does, so a state that
        // spans two writes is exercised too.
        let mut e = Embedded::new(&mut out);
        for chunk in json.as_bytes().chunks(3) {
            e.write_all(chunk).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn embedded_json_parses_to_the_same_value_and_never_holds_a_less_than_sign() {
        let hostile = [
            "</script><script>alert(1)</script>",
            "<!-- a comment",
            "say \"hi\" \\ </textarea> 'quoted'",
            "  spaces\tand\nnewlines  ",
            "\\\"<",
            "é ünïcode ✓ \u{2028}",
        ];
        let value = serde_json::json!({
            "texts": hostile,
            "<key with spaces>": { "nested": [1, 2.5, null, true, "a < b"] },
        });
        for text in [
            serde_json::to_string_pretty(&value).unwrap(),
            value.to_string(),
        ] {
            let embedded = embed(&text);
            assert!(!embedded.contains('<'), "{embedded}");
            let back: serde_json::Value = serde_json::from_str(&embedded).unwrap();
            assert_eq!(back, value);
            assert!(embedded.len() <= text.len() + 5 * text.matches('<').count());
        }
    }

    /// The packed document of `page`, unpacked.
    fn unpack(page: &str) -> String {
        use base64::Engine as _;
        use std::io::Read as _;
        let open = r#"id="report-data" data-encoding="gzip base64">"#;
        let start = page.find(open).unwrap() + open.len();
        let len = page[start..].find("</script>").unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&page[start..start + len])
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        json
    }

    #[test]
    fn a_page_holds_the_document_once_and_no_repository_markup() {
        let mut out = Vec::new();
        write_page(&mut out, PageKind::Matrix, |w| {
            w.write_all(br#"{"findings": ["</script><b>bold</b>"]}"#)
        })
        .unwrap();
        let page = String::from_utf8(out).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains(r#"<body data-kind="matrix">"#));
        assert_eq!(
            unpack(&page),
            r#"{"findings":["\u003c/script>\u003cb>bold\u003c/b>"]}"#
        );
        assert!(!page.contains("<b>") && !page.contains("bold"));
        // No address outside the page: no network, works from file://.
        for reference in ["http://", "https://", "src=", "href=\"/"] {
            assert!(!page.contains(reference), "{reference}");
        }
    }
}

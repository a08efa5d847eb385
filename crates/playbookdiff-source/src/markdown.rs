//! Markdown structure: front matter and `@path` import tokens, with byte
//! offsets and 1-based lines.
//!
//! Import tokens are found by scanning the raw source with every code span,
//! fenced or indented code block and HTML (block or inline) masked out, as
//! located by a CommonMark parser (pulldown-cmark). Text events are not
//! matched directly because emphasis and escapes split them (`@docs/_x_/a.md`).
//! Source: spec 000 "Imports" ("Import parsing must use Markdown syntax and
//! source positions").

use crate::ParseError;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// YAML front matter at the top of a Markdown file.
#[derive(Debug, Clone)]
pub struct FrontMatter {
    /// The YAML text between the fences.
    pub yaml: String,
    /// 1-based line of the opening `---`.
    pub start_line: u32,
    /// 1-based line of the closing `---`.
    pub end_line: u32,
    /// Byte offset where the body after the closing fence starts.
    pub body_offset: usize,
    /// True when YAML's document end `...` closes the front matter rather
    /// than `---`: some agents (OpenCode, Copilot CLI) take only `---` for
    /// the close and read no front matter then.
    pub closed_by_dots: bool,
    /// The parsed value, or the parse error with its 1-based file line
    /// when the parser gives one.
    pub value: Result<serde_json::Value, ParseError>,
}

/// Splits off YAML front matter when the file starts with a `---` line and
/// a later `---` (or `...`) line closes it. A UTF-8 byte-order mark is
/// skipped. Returns `None` when there is no complete front matter.
///
/// The YAML is parsed with serde-saphyr, whose budget refuses alias bombs
/// and deep nesting with an error instead of exhausting memory.
pub fn front_matter(text: &str) -> Option<FrontMatter> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let t = &text[bom..];
    let first_end = t.find('\n')?;
    if t[..first_end].trim_end() != "---" {
        return None;
    }
    let mut offset = first_end + 1;
    let mut line = 2u32;
    while offset <= t.len() {
        let end = t[offset..]
            .find('\n')
            .map(|i| offset + i)
            .unwrap_or(t.len());
        let l = t[offset..end].trim_end();
        if l == "---" || l == "..." {
            let yaml = t[first_end + 1..offset].to_string();
            let value = parse_yaml(&yaml).map_err(|e| e.shifted(1));
            return Some(FrontMatter {
                yaml,
                start_line: 1,
                end_line: line,
                body_offset: bom + (end + 1).min(t.len()),
                closed_by_dots: l == "...",
                value,
            });
        }
        if end == t.len() {
            break;
        }
        offset = end + 1;
        line += 1;
    }
    None
}

/// The most YAML nodes (sequences, maps and scalars, aliases counted each
/// time they are replayed) one front-matter document may produce: 25,000,
/// a tenth of serde-saphyr's default. Real front matter holds tens of
/// nodes; an alias bomb is refused after about a tenth of the work, which
/// keeps a hostile file cheap to reject.
pub const YAML_MAX_NODES: usize = 25_000;

/// Parses a YAML document into a JSON value. An empty document is `null`.
/// Errors carry the message and, when known, the 1-based line within `yaml`.
pub fn parse_yaml(yaml: &str) -> Result<serde_json::Value, ParseError> {
    parse_yaml_with(yaml, false)
}

/// [`parse_yaml`], with `strict_booleans` choosing which plain scalars are
/// booleans: `true`: YAML 1.2 core-schema `true`/`false` only (`y`, `yes`,
/// `on` stay text; serde-saphyr's `strict_booleans`), `false`:
/// serde-saphyr's default, which also reads `yes`/`no`/`on`/`off` as
/// booleans. Same node budget ([`YAML_MAX_NODES`]) and errors.
pub fn parse_yaml_with(yaml: &str, strict_booleans: bool) -> Result<serde_json::Value, ParseError> {
    if yaml.trim().is_empty() {
        return Ok(serde_json::Value::Null);
    }
    let options = serde_saphyr::options! {
        strict_booleans: strict_booleans,
        budget: serde_saphyr::budget! { max_nodes: YAML_MAX_NODES },
    };
    serde_saphyr::from_str_with_options::<serde_json::Value>(yaml, options).map_err(|e| {
        let msg = e.to_string();
        let line = line_in_message(&msg);
        let first = msg.lines().next().unwrap_or("invalid YAML").to_string();
        ParseError {
            message: first,
            line,
        }
    })
}

fn line_in_message(msg: &str) -> Option<u32> {
    let i = msg.find("line ")?;
    let digits: String = msg[i + 5..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// An `@token` in Markdown prose: `@` at the start of a line or after
/// white space, outside code and HTML, followed by non-space characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportToken {
    /// The characters after `@` up to the next white space.
    pub raw: String,
    /// Byte offset of the `@`.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
    /// The rest of the line after the token (for look-alike detection).
    pub rest_of_line: String,
}

/// What one CommonMark parse of a Markdown body yields for the adapters.
/// Offsets are bytes into the scanned text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarkdownScan {
    /// `@token`s at a line start or after white space ([`import_tokens`]).
    pub imports: Vec<ImportToken>,
    /// `@token`s glued to an opening mark ([`glued_at_tokens`]).
    pub glued: Vec<ImportToken>,
    /// Block-level HTML comments ([`html_comment_blocks`]).
    pub comment_blocks: Vec<(usize, usize)>,
}

/// Parses `text` once and returns its import tokens, glued look-alikes and
/// block-level HTML comments.
pub fn scan(text: &str) -> MarkdownScan {
    if !text.contains('@') && !text.contains("<!--") {
        return MarkdownScan::default();
    }
    let (masked, comment_blocks) = structure(text);
    MarkdownScan {
        imports: scan_at_tokens(text, &masked, |prev| {
            prev.is_none_or(|b| b.is_ascii_whitespace())
        }),
        glued: scan_at_tokens(text, &masked, |prev| {
            prev.is_some_and(|b| b"([{<\"'`*_".contains(&b))
        }),
        comment_blocks,
    }
}

/// A byte range, start inclusive, end exclusive.
type Range = (usize, usize);

/// One parse: the masked ranges (code spans, code blocks, HTML, math,
/// metadata) and the block-level HTML comments.
fn structure(text: &str) -> (Vec<Range>, Vec<Range>) {
    let mut masked = Vec::new();
    let mut comments = Vec::new();
    let mut open: Option<usize> = None;
    let mut depth = 0usize;
    let parser =
        Parser::new_ext(text, Options::ENABLE_YAML_STYLE_METADATA_BLOCKS).into_offset_iter();
    for (ev, range) in parser {
        match ev {
            Event::Start(Tag::CodeBlock(_))
            | Event::Start(Tag::HtmlBlock)
            | Event::Start(Tag::MetadataBlock(_)) => {
                if depth == 0 {
                    open = Some(range.start);
                }
                depth += 1;
            }
            Event::End(TagEnd::CodeBlock)
            | Event::End(TagEnd::HtmlBlock)
            | Event::End(TagEnd::MetadataBlock(_)) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if let Some(s) = open.take() {
                        masked.push((s, range.end));
                        if matches!(ev, Event::End(TagEnd::HtmlBlock)) {
                            let block = text[s..range.end].trim();
                            if block.starts_with("<!--")
                                && block.ends_with("-->")
                                // The first `-->` after the opening is the
                                // last one. `<!-->` and `<!--->`, shorter
                                // than both markers, are comments too
                                // (CommonMark 0.31, "HTML comment").
                                && block[4..].find("-->") == block.len().checked_sub(7)
                            {
                                comments.push((s, range.end));
                            }
                        }
                    }
                }
            }
            Event::Code(_)
            | Event::InlineHtml(_)
            | Event::Html(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_) => masked.push((range.start, range.end)),
            _ => {}
        }
    }
    masked.sort();
    (masked, comments)
}

/// Byte ranges of code spans, code blocks (fenced and indented) and HTML.
pub fn masked_ranges(text: &str) -> Vec<(usize, usize)> {
    structure(text).0
}

/// Byte ranges of block-level HTML comments: HTML blocks made of nothing
/// but `<!-- … -->` (with their line ends). Claude Code strips these before
/// the file reaches the model; comments inside code blocks are kept
/// (harness facts A1).
pub fn html_comment_blocks(text: &str) -> Vec<(usize, usize)> {
    structure(text).1
}

/// Finds `@token`s outside masked ranges, in source order.
pub fn import_tokens(text: &str) -> Vec<ImportToken> {
    scan(text).imports
}

/// Finds `@token`s glued to an opening punctuation mark (`(@a.md`,
/// `"@a.md"`, `**@a.md**`), outside masked ranges: they read as imports
/// but an import must start a line or follow white space.
pub fn glued_at_tokens(text: &str) -> Vec<ImportToken> {
    scan(text).glued
}

/// `@` followed by non-space characters, outside masked ranges, where the
/// byte before `@` (`None` at the start of the text, after a byte-order
/// mark there: the mark is no character of the text, and Copilot CLI
/// 1.0.102 imports `\u{feff}@a.md` at the start of a file, fuzzer seed
/// 244) satisfies `accept_prev`.
fn scan_at_tokens(
    text: &str,
    masked: &[(usize, usize)],
    accept_prev: impl Fn(Option<u8>) -> bool,
) -> Vec<ImportToken> {
    if !text.contains('@') {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut out = Vec::new();
    let mut mi = 0usize;
    for (i, _) in text.match_indices('@') {
        while mi < masked.len() && masked[mi].1 <= i {
            mi += 1;
        }
        if mi < masked.len() && masked[mi].0 <= i && i < masked[mi].1 {
            continue;
        }
        let prev = i.checked_sub(1).filter(|_| i != bom).map(|j| bytes[j]);
        if !accept_prev(prev) {
            continue;
        }
        let tail = &text[i + 1..];
        let len = tail.find(|c: char| c.is_whitespace()).unwrap_or(tail.len());
        if len == 0 {
            continue;
        }
        let raw = tail[..len].to_string();
        let end = i + 1 + len;
        let line_end = text[end..]
            .find('\n')
            .map(|j| end + j)
            .unwrap_or(text.len());
        out.push(ImportToken {
            raw,
            start: i,
            end,
            rest_of_line: text[end..line_end].to_string(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raws(t: &str) -> Vec<String> {
        import_tokens(t).into_iter().map(|t| t.raw).collect()
    }

    #[test]
    fn skips_code_spans_fences_indented_code_and_html() {
        let t = "See @a.md and `@b.md`.\n\n```\n@c.md\n```\n\n    @d.md\n\n<!-- @e.md -->\n\n<div>\n@f.md\n</div>\n\n~~~\n@g.md\n~~~\nmail me@h.md\n@i.md";
        assert_eq!(raws(t), ["a.md", "i.md"]);
    }

    /// A byte-order mark opening the text is not a character before a
    /// token; anywhere else it is.
    #[test]
    fn a_leading_byte_order_mark_does_not_glue_a_token() {
        assert_eq!(raws("\u{feff}@a.md\n@b.md"), ["a.md", "b.md"]);
        assert_eq!(raws("x\u{feff}@a.md"), Vec::<String>::new());
        assert_eq!(raws("\u{feff}`@a.md`"), Vec::<String>::new());
    }

    #[test]
    fn glued_tokens_follow_opening_punctuation_only() {
        let t = "(@a.md) \"@b.md\" **@c.md** @d.md me@e.md `(@f.md)`";
        let got: Vec<String> = glued_at_tokens(t).into_iter().map(|t| t.raw).collect();
        assert_eq!(got, ["a.md)", "b.md\"", "c.md**"]);
    }

    #[test]
    fn block_comments_are_found_but_not_inline_or_fenced_ones() {
        let t = "a\n\n<!-- hidden -->\n\nb <!-- inline -->\n\n```\n<!-- kept -->\n```\n";
        let r = html_comment_blocks(t);
        assert_eq!(r.len(), 1);
        assert_eq!(t[r[0].0..r[0].1].trim(), "<!-- hidden -->");
    }

    /// The shortest comments, whose markers overlap, end the scan
    /// without an overflow (found by the property test).
    #[test]
    fn the_shortest_comments_are_comments() {
        for c in ["<!-->", "<!--->", "<!---->"] {
            let t = format!("a\n\n{c}\n\nb\n");
            let r = html_comment_blocks(&t);
            assert_eq!(r.len(), 1, "{c}");
            assert_eq!(t[r[0].0..r[0].1].trim(), c);
        }
    }

    #[test]
    fn emphasis_does_not_split_tokens() {
        assert_eq!(
            raws("Load @docs/_private_/x.md now"),
            ["docs/_private_/x.md"]
        );
    }

    #[test]
    fn front_matter_with_error_line() {
        let fm = front_matter("---\npaths:\n\t- a\n---\nbody").unwrap();
        let line = fm.value.unwrap_err().line;
        assert_eq!(line, Some(3));
        let fm = front_matter("---\npaths: [a, b]\n---\nbody").unwrap();
        assert_eq!(fm.value.unwrap()["paths"][1], "b");
        assert_eq!(fm.end_line, 3);
        assert_eq!(&"---\npaths: [a, b]\n---\nbody"[fm.body_offset..], "body");
    }

    #[test]
    fn alias_bomb_is_an_error_not_a_hang() {
        let mut y = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        for i in 1..10 {
            y.push_str(&format!(
                "{}: &{} [*{},*{},*{},*{},*{},*{},*{},*{},*{}]\n",
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char
            ));
        }
        assert!(parse_yaml(&y).is_err());
    }
}

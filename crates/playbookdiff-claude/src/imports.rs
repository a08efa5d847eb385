//! Which `@path` tokens of a memory file Claude Code imports, and the text
//! it keeps of the file.
//!
//! Source: the shipped Claude Code 2.1.197 and 2.1.332 (fidelity C6-C8),
//! which lexes the file as Markdown with GFM off and walks its tokens:
//!
//! - only text tokens are searched, at any nesting (headings, list items,
//!   block quotes, emphasis, link text, text between inline HTML tags);
//!   code spans, code blocks and HTML blocks are not, except that an HTML
//!   block that starts with a comment is searched with its comments
//!   removed (so text after `<!-- … -->` on the same line counts);
//! - in a text token, `@` at its start or after white space opens a token
//!   that runs to the next white space or backslash, where a backslash
//!   followed by a space is an escaped space (`@My\ Doc.md` names
//!   `My Doc.md`);
//! - a `#…` suffix is dropped (`@a.md#setup` imports `a.md`);
//! - what is left must start with `./`, `~/`, `/` (not `/` alone) or a
//!   letter, digit, `.`, `_` or `-`.
//!
//! The same walk decides which HTML comments are removed from the text the
//! agent receives: every HTML block that starts with `<!--` and holds
//! `-->` loses its comments, and disappears when nothing but white space
//! is left.
//!
//! The lexer here is pulldown-cmark (CommonMark) with no extensions, the
//! closest available to the agent's; adjacent text events are joined, as
//! the agent's lexer keeps them in one token.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::ops::Range;

/// One `@path` token the agent imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRef {
    /// The token after `@`, as written (`docs/a.md#setup`, `My\ Doc.md`).
    pub raw: String,
    /// The path it names: `#…` dropped, `\ ` turned into a space.
    pub path: String,
    /// Byte offset of the `@` in the scanned text.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
}

/// What one scan of a file's body gives: the import references in source
/// order and the byte ranges of HTML comments the agent removes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Import references, in source order.
    pub imports: Vec<ImportRef>,
    /// Ranges removed from the text the agent receives (comments in HTML
    /// blocks that start with a comment, and such blocks left blank).
    pub removed: Vec<Range<usize>>,
}

/// Scans `body` (the text after front matter).
pub fn scan(body: &str) -> Scan {
    let mut out = Scan::default();
    if !body.contains('@') && !body.contains("<!--") {
        return out;
    }
    let mut code_depth = 0usize;
    let mut html_block: Option<usize> = None;
    let mut run: Option<Range<usize>> = None;
    let flush = |run: &mut Option<Range<usize>>, out: &mut Scan| {
        if let Some(r) = run.take() {
            tokens_in(body, r.start, &body[r.clone()], out);
        }
    };
    for (ev, range) in Parser::new(body).into_offset_iter() {
        match ev {
            Event::Start(Tag::CodeBlock(_)) => {
                flush(&mut run, &mut out);
                code_depth += 1;
            }
            Event::End(TagEnd::CodeBlock) => code_depth = code_depth.saturating_sub(1),
            Event::Start(Tag::HtmlBlock) => {
                flush(&mut run, &mut out);
                html_block = Some(range.start);
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(s) = html_block.take() {
                    html_block_comments(body, s..range.end, &mut out);
                }
            }
            Event::Text(_) if code_depth == 0 && html_block.is_none() => match &mut run {
                Some(r) if r.end == range.start => r.end = range.end,
                _ => {
                    flush(&mut run, &mut out);
                    run = Some(range);
                }
            },
            _ => flush(&mut run, &mut out),
        }
    }
    flush(&mut run, &mut out);
    out.imports.sort_by_key(|i| i.start);
    out
}

/// An HTML block: when it starts with a comment and holds `-->`, its
/// comments are removed and the rest is searched for tokens. A block left
/// blank goes whole, with the line ends that follow it: the agent's lexer
/// (marked) ends a comment block with every newline after it (`\n+`), and
/// the agent drops a token whose remains are white space. Seen in the
/// request body of Claude Code 2.1.197 and 2.1.332 for the
/// triggerdotdev/trigger.dev AGENTS.md (`…runs\n\n<!-- intent-skills:start
/// -->\n\n# Skill mappings` arrives as `…runs\n\n# Skill mappings`).
fn html_block_comments(body: &str, block: Range<usize>, out: &mut Scan) {
    let raw = &body[block.clone()];
    if !raw.trim_start().starts_with("<!--") || !raw.contains("-->") {
        return;
    }
    // Comments, non-greedy; an unclosed one is kept.
    let mut comments: Vec<Range<usize>> = Vec::new();
    let mut at = 0usize;
    while let Some(i) = raw[at..].find("<!--") {
        let s = at + i;
        match raw[s + 4..].find("-->") {
            Some(j) => {
                let e = s + 4 + j + 3;
                comments.push(s..e);
                at = e;
            }
            None => break,
        }
    }
    let mut rest = String::new();
    let mut map: Vec<usize> = Vec::new();
    let mut cur = 0usize;
    for c in &comments {
        rest.push_str(&raw[cur..c.start]);
        map.extend(cur..c.start);
        cur = c.end;
    }
    rest.push_str(&raw[cur..]);
    map.extend(cur..raw.len());
    if rest.trim().is_empty() {
        let newlines = body[block.end..]
            .bytes()
            .take_while(|&b| b == b'\n')
            .count();
        out.removed.push(block.start..block.end + newlines);
        return;
    }
    for c in comments {
        out.removed.push(block.start + c.start..block.start + c.end);
    }
    let mut found = Scan::default();
    tokens_in(&rest, 0, &rest, &mut found);
    for mut i in found.imports {
        let s = map.get(i.start).copied().unwrap_or(0);
        let e = map.get(i.end - 1).map(|x| x + 1).unwrap_or(raw.len());
        i.start = block.start + s;
        i.end = block.start + e;
        out.imports.push(i);
    }
}

/// True for what JavaScript's `\s` matches: Unicode white space and the
/// byte order mark U+FEFF (ECMAScript `WhiteSpace` includes ZWNBSP), so
/// `\u{feff}@a.md` at the start of a file is an import.
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// The import tokens of one text token `text`, which starts at byte
/// `base` of the scanned text.
fn tokens_in(_all: &str, base: usize, text: &str, out: &mut Scan) {
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('@') {
        if i > 0 && !text[..i].chars().next_back().is_some_and(js_space) {
            continue;
        }
        // `(?:[^\s\\]|\\ )+`
        let mut j = i + 1;
        while j < bytes.len() {
            let c = text[j..].chars().next().unwrap_or(' ');
            if c == '\\' {
                if bytes.get(j + 1) == Some(&b' ') {
                    j += 2;
                    continue;
                }
                break;
            }
            if js_space(c) {
                break;
            }
            j += c.len_utf8();
        }
        if j == i + 1 {
            continue;
        }
        let raw = &text[i + 1..j];
        let path = raw.split('#').next().unwrap_or("").replace("\\ ", " ");
        if path.is_empty() || !importable(&path) {
            continue;
        }
        out.imports.push(ImportRef {
            raw: raw.to_string(),
            path,
            start: base + i,
            end: base + j,
        });
    }
}

/// True when a token names a path the agent tries to import.
fn importable(p: &str) -> bool {
    if p.starts_with("./") || p.starts_with("~/") || (p.starts_with('/') && p != "/") {
        return true;
    }
    if p.starts_with('@') || p.chars().all(|c| "#%^&*()".contains(c)) {
        return false;
    }
    p.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

/// Extensions of files the agent imports; others are skipped ("Skipping
/// non-text file in @include"). A file without an extension is imported.
pub const TEXT_EXTENSIONS: &[&str] = &[
    "md",
    "txt",
    "text",
    "json",
    "yaml",
    "yml",
    "toml",
    "xml",
    "csv",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "js",
    "ts",
    "tsx",
    "jsx",
    "mjs",
    "cjs",
    "mts",
    "cts",
    "py",
    "pyi",
    "pyw",
    "rb",
    "erb",
    "rake",
    "go",
    "rs",
    "java",
    "kt",
    "kts",
    "scala",
    "c",
    "cpp",
    "cc",
    "cxx",
    "h",
    "hpp",
    "hxx",
    "cs",
    "swift",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "env",
    "ini",
    "cfg",
    "conf",
    "config",
    "properties",
    "sql",
    "graphql",
    "gql",
    "proto",
    "vue",
    "svelte",
    "astro",
    "ejs",
    "hbs",
    "pug",
    "jade",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "dart",
    "ex",
    "exs",
    "erl",
    "hrl",
    "clj",
    "cljs",
    "cljc",
    "edn",
    "hs",
    "lhs",
    "elm",
    "ml",
    "mli",
    "f",
    "f90",
    "f95",
    "for",
    "cmake",
    "make",
    "makefile",
    "gradle",
    "sbt",
    "rst",
    "adoc",
    "asciidoc",
    "org",
    "tex",
    "latex",
    "lock",
    "log",
    "diff",
    "patch",
];

/// True when the agent imports a file named `name` (its extension, lower
/// case, is a text one, or it has none). A leading dot does not start an
/// extension (`.env` has none).
pub fn text_file(name: &str) -> bool {
    let stem = name.trim_start_matches('.');
    match stem.rsplit_once('.') {
        Some((_, ext)) => TEXT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()),
        None => true,
    }
}

/// `text` without the byte ranges `removed` (sorted or not), with a map
/// from an offset in `text` to the offset in the result.
pub fn strip(text: &str, removed: &[Range<usize>]) -> (String, impl Fn(usize) -> usize) {
    let mut rs: Vec<Range<usize>> = removed.to_vec();
    rs.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len());
    let mut cur = 0usize;
    for r in &rs {
        if r.start >= cur {
            out.push_str(&text[cur..r.start]);
            cur = r.end;
        } else if r.end > cur {
            cur = r.end;
        }
    }
    out.push_str(&text[cur.min(text.len())..]);
    let map = move |off: usize| -> usize {
        let mut shift = 0usize;
        let mut last = 0usize;
        for r in &rs {
            if r.start >= off {
                break;
            }
            let s = r.start.max(last);
            let e = r.end.min(off);
            if e > s {
                shift += e - s;
            }
            last = last.max(r.end);
        }
        off - shift
    };
    (out, map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(t: &str) -> Vec<String> {
        scan(t).imports.into_iter().map(|i| i.path).collect()
    }

    #[test]
    fn a_byte_order_mark_is_a_character_of_the_first_line_and_white_space() {
        // Claude Code 2.1.197 and 2.1.332 import `x.go` here (case
        // `fuzz.claude-code.47`): the mark keeps the backticks from
        // opening a code block.
        assert_eq!(paths("\u{feff}```\n@x.go\n"), ["x.go"]);
        assert_eq!(paths("```\n@x.go\n"), Vec::<String>::new());
        assert_eq!(paths("\u{feff}@a.md\n"), ["a.md"]);
        assert_eq!(paths("@a.md\u{feff}b\n"), ["a.md"]);
    }

    /// Which tokens the agent imports (fidelity C6-C8).
    #[test]
    fn token_table() {
        let table: &[(&str, &[&str])] = &[
            ("See @a.md and `@b.md`.", &["a.md"]),
            ("```\n@c.md\n```\n", &[]),
            ("    @d.md\n", &[]),
            ("<div>\n@f.md\n</div>\n", &[]),
            ("<!-- @e.md -->\n", &[]),
            ("<!-- x -->@g.md\n", &["g.md"]),
            (
                "**@bold.md** _@em.md_ [@link.md](x)",
                &["bold.md", "em.md", "link.md"],
            ),
            ("text <b>@html.md</b>", &["html.md"]),
            ("(@paren.md) \"@q.md\" me@mail.md", &[]),
            (
                "# @heading.md\n\n- @item.md\n\n> @quote.md\n",
                &["heading.md", "item.md", "quote.md"],
            ),
            ("| @cell.md |\n|---|\n", &["cell.md"]),
            ("@docs/a.md#setup", &["docs/a.md"]),
            ("@My\\ Doc.md here", &["My Doc.md"]),
            ("@a\\_b.md", &["a"]),
            (
                "@@x @#x @%& @/ @./x.md @~/y.md @/abs.md",
                &["./x.md", "~/y.md", "/abs.md"],
            ),
            ("line\n@next.md", &["next.md"]),
        ];
        for (text, want) in table {
            assert_eq!(paths(text), *want, "{text:?}");
        }
    }

    #[test]
    fn offsets_point_at_the_token() {
        let t = "Intro **@x.md** and @My\\ Doc.md.\n";
        for i in scan(t).imports {
            assert_eq!(&t[i.start..i.end], format!("@{}", i.raw));
        }
        let t = "<!-- c -->@y.md tail\n";
        let s = scan(t);
        assert_eq!(&t[s.imports[0].start..s.imports[0].end], "@y.md");
        assert_eq!(s.removed, vec![0..10]);
    }

    #[test]
    fn comment_blocks_are_removed() {
        let t = "a\n\n<!-- hidden -->\n\nb <!-- inline -->\n\n```\n<!-- kept -->\n```\n";
        let s = scan(t);
        let (kept, _) = strip(t, &s.removed);
        assert_eq!(kept, "a\n\nb <!-- inline -->\n\n```\n<!-- kept -->\n```\n");
    }

    #[test]
    fn text_extensions() {
        assert!(
            text_file("a.md") && text_file("Makefile") && text_file(".env") && text_file("x.TS")
        );
        assert!(!text_file("logo.png") && !text_file("a.pdf"));
    }
}

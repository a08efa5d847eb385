//! `@path` imports of context files, as Gemini CLI inlines them.
//!
//! `processImports` in `packages/core/src/utils/memoryImportProcessor.ts`
//! (the same in 0.34.0 and 0.61.0; seen with both: the imported text
//! replaces the token between `<!-- Imported from: ./docs/extra.md -->` and
//! `<!-- End of import from: ./docs/extra.md -->`):
//!
//! * a token is `@` at the start of the text or after a space, tab or line
//!   break, up to the next such character; the path must start with `.`,
//!   `/` or an ASCII letter; a byte order mark opening the file is a
//!   character before the `@`, so `\u{feff}@b.md` is no import (seen with
//!   both, case `oracle.bom_at_import`; Claude Code and Copilot CLI 1.0.102
//!   import it);
//! * a token inside a backtick span (`` (`+)[\s\S]*?\1 ``, inline code and
//!   fenced blocks alike) is left as text;
//! * URLs and paths that resolve (links followed, `resolveToRealPath`)
//!   outside the import root fail (the nearest directory at or above the
//!   context file holding a boundary marker, else the file's own:
//!   `findProjectRoot` of the same file) (0.61; 0.34 compares the joined path
//!   without following links, so it imports a link out of the repository,
//!   which the adapter does not model: `gemini.import_links`, listed); a
//!   file already on the current import chain is not imported again; an
//!   import is named, and its own imports resolved, by the joined path,
//!   links not followed (seen with both: `docs/inner-link.md`, a link to
//!   `target.md`, is imported as itself); a missing or unreadable file fails; each failure leaves an
//!   HTML comment in place of the token;
//! * an imported file is processed in turn, up to depth 5: the text of a
//!   file five imports deep is inlined with its own tokens unprocessed.

use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::problems::quote;
use playbookdiff_model::{ByteSpan, Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::{Resolved, TextFile};
use std::sync::Arc;

/// The deepest import Gemini CLI processes (`maxDepth: 5`).
pub(crate) const MAX_DEPTH: usize = 5;

/// One inlined file.
pub(crate) struct Imported {
    /// The imported file as the token names it, joined to the importing
    /// file's folder (links not resolved: Gemini CLI's `path.resolve`).
    pub path: RepoPath,
    /// Its text.
    pub text: Arc<TextFile>,
    /// The file whose token brought it in.
    pub parent: RepoPath,
    /// The byte ranges of its own tokens that Gemini CLI inlined.
    pub spans: Vec<ByteSpan>,
}

/// What the imports of one context file bring in.
pub(crate) struct Expansion {
    /// The byte ranges of the context file's own inlined tokens.
    pub spans: Vec<ByteSpan>,
    /// The inlined files, depth first, in token order.
    pub imports: Vec<Imported>,
}

/// A token: byte range of `@path` and the path.
struct Token<'a> {
    start: usize,
    end: usize,
    path: &'a str,
}

/// Space, tab, line feed or carriage return (`isWhitespace`).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The `@path` tokens of `text` (`findImports`).
fn tokens(text: &str) -> Vec<Token<'_>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = text[i..].find('@').map(|n| i + n) {
        if at > 0 && !is_space(b[at - 1]) {
            i = at + 1;
            continue;
        }
        let end = (at + 1..b.len())
            .find(|&j| is_space(b[j]))
            .unwrap_or(b.len());
        let path = &text[at + 1..end];
        if path.starts_with(['.', '/'])
            || path.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        {
            out.push(Token {
                start: at,
                end,
                path,
            });
        }
        i = end + 1;
        if i >= b.len() {
            break;
        }
    }
    out
}

/// The backtick spans of `text` (`findCodeRegions`: `` /(`+)([\s\S]*?)\1/g ``).
fn code_regions(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let run = b[i..].iter().take_while(|&&c| c == b'`').count();
        let closed = (1..=run).rev().find_map(|k| {
            let fence = "`".repeat(k);
            text[i + k..].find(&fence).map(|j| (k, i + k + j + k))
        });
        match closed {
            Some((_, end)) => {
                out.push((i, end));
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// Inlines the imports of context file `file` (text `text`), whose import
/// root is `root` (imports must stay inside it). Failures are
/// `context-import-failed` diagnostics at the token's line.
pub(crate) fn expand(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    text: &TextFile,
    root: &RepoPath,
) -> Expansion {
    let mut imports = Vec::new();
    let mut chain = Vec::new();
    let spans = visit(cx, file, text, 0, root, &mut chain, &mut imports);
    Expansion { spans, imports }
}

/// Processes the tokens of `file` at import depth `depth`; returns the
/// spans of the tokens inlined and pushes what they bring to `out`.
fn visit(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    text: &TextFile,
    depth: usize,
    root: &RepoPath,
    chain: &mut Vec<RepoPath>,
    out: &mut Vec<Imported>,
) -> Vec<ByteSpan> {
    let all = tokens(&text.text);
    if depth >= MAX_DEPTH {
        if let Some(t) = all.first() {
            fail(cx, file, text, t.start, t.path, &format!("{} is {MAX_DEPTH} imports deep, the most Gemini CLI processes, so its imports are sent as written", quote(file)));
        }
        return Vec::new();
    }
    let regions = code_regions(&text.text);
    let dir = file.parent().unwrap_or_else(RepoPath::root);
    let mut spans = Vec::new();
    for t in all {
        if regions.iter().any(|&(s, e)| t.start >= s && t.start < e) {
            continue;
        }
        let Some((target, real)) = resolve(cx, file, text, &dir, &t, root) else {
            continue;
        };
        if chain.contains(&target) {
            fail(cx, file, text, t.start, t.path, "that file is already being imported (a cycle), so Gemini CLI sends `<!-- File already processed -->` in its place");
            continue;
        }
        let read = match cx.repo.read_text(&real, READ_LIMIT) {
            Ok(r) => r,
            Err(e) => {
                fail(cx, file, text, t.start, t.path, &format!("it cannot be read ({e}), so Gemini CLI sends `<!-- Import failed -->` in its place"));
                continue;
            }
        };
        spans.push(ByteSpan {
            start: t.start as u64,
            end: t.end as u64,
        });
        chain.push(target.clone());
        let at = out.len();
        out.push(Imported {
            path: target.clone(),
            text: read.clone(),
            parent: file.clone(),
            spans: Vec::new(),
        });
        let inner = visit(cx, &target, &read, depth + 1, root, chain, out);
        out[at].spans = inner;
        chain.pop();
    }
    spans
}

/// The file token `t` of `file` names, when Gemini CLI can import it: the
/// path as joined (Gemini CLI names, dedupes and resolves further imports
/// by `path.resolve`, links not followed) and the file it reads (links
/// followed); otherwise a diagnostic and `None`.
fn resolve(
    cx: &mut Cx<'_, '_>,
    file: &RepoPath,
    text: &TextFile,
    dir: &RepoPath,
    t: &Token<'_>,
    root: &RepoPath,
) -> Option<(RepoPath, RepoPath)> {
    let p = t.path;
    if p.starts_with("http://") || p.starts_with("https://") || p.starts_with("file://") {
        fail(cx, file, text, t.start, p, "it is a URL, which Gemini CLI never imports (`<!-- Import failed: ... Path traversal attempt -->`)");
        return None;
    }
    if p.starts_with('/') {
        fail(cx, file, text, t.start, p, "it is an absolute path, which the analysis cannot see; Gemini CLI imports it only when it lies inside the project root");
        return None;
    }
    let Some(joined) = dir.join(p) else {
        fail(cx, file, text, t.start, p, "it resolves outside the repository, so outside the project root, and Gemini CLI refuses it (`Path traversal attempt`)");
        return None;
    };
    let real = match cx.repo.resolve(&joined) {
        Resolved::Inside { real, .. } => real,
        Resolved::Outside { .. } => {
            fail(cx, file, text, t.start, p, "it is a symbolic link out of the repository, so outside the project root, and Gemini CLI refuses it");
            return None;
        }
        _ => {
            fail(cx, file, text, t.start, p, "no such file exists, so Gemini CLI sends `<!-- Import failed: ... ENOENT ... -->` in its place");
            return None;
        }
    };
    if !real.starts_with(root) {
        fail(cx, file, text, t.start, p, &format!("it lies outside {}, the nearest directory at or above the context file that holds a boundary marker (else the file's own), so Gemini CLI refuses it (`Path traversal attempt`)", quote(root)));
        return None;
    }
    if !cx.repo.is_file(&real) {
        fail(
            cx,
            file,
            text,
            t.start,
            p,
            "it is not a regular file, so Gemini CLI sends `<!-- Import failed -->` in its place",
        );
        return None;
    }
    Some((joined, real))
}

/// A `context-import-failed` diagnostic for token `@path` at byte `at` of
/// `file`; `why` says what Gemini CLI does.
fn fail(cx: &mut Cx<'_, '_>, file: &RepoPath, text: &TextFile, at: usize, path: &str, why: &str) {
    let line = text.line_of(at);
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ContextImportFailed,
            format!("`@{path}` in {} (line {line}) is not imported: {why}; fix the path, or put it in backticks if it is not meant as an import.", quote(file)),
        )
        .at(SourceRef::project(file.clone(), SourceFormat::Markdown).with_lines(line, line)),
    );
}

#[cfg(test)]
mod tests {
    use super::{code_regions, tokens};

    /// Tokens: at the start or after white space, path starting with `.`,
    /// `/` or a letter; e-mail addresses and `@1` are not tokens.
    #[test]
    fn token_rules() {
        let t = "@a.md x@b.md @./c.md\n@/d @1 @_e\t@f";
        let paths: Vec<&str> = tokens(t).iter().map(|t| t.path).collect();
        assert_eq!(paths, ["a.md", "./c.md", "/d", "f"]);
        assert!(tokens("\u{feff}@b.md").is_empty(), "a leading mark glues");
    }

    /// Backtick spans: inline code, fences, and an unclosed run.
    #[test]
    fn code_spans() {
        let t = "a `@x` b ```\n@y\n``` c ` @z";
        let r = code_regions(t);
        assert_eq!(r.len(), 2);
        assert!(r.iter().any(|&(s, e)| s <= 3 && e > 3));
        let z = t.find("@z").unwrap();
        assert!(!r.iter().any(|&(s, e)| z >= s && z < e));
    }
}

//! The string literals and the paths of a Rust source file, outside
//! comments and outside test code, for the invariants of `invariants.rs`:
//! no crate but an adapter and the registry spells a harness, and input
//! and output stay in the crates that own them.
//!
//! A lexer, not a parser: it knows what can hide a quote or a brace (line
//! and nested block comments, string literals with escapes, raw strings,
//! byte and C strings, character literals told apart from lifetimes), and
//! skips an item under `#[cfg(test)]` or `#[test]` to the end of its body.

/// One string literal: its 1-based line and its text as written, between
/// the quotes (escapes kept, so `\"codex\"` reads `\"codex\"`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Literal {
    pub line: usize,
    pub text: String,
}

#[derive(Debug)]
enum Token {
    Literal(Literal),
    /// An identifier or keyword and its 1-based line.
    Word(String, usize),
    Punct(char),
}

/// The string literals of `src` outside comments and test items.
pub(crate) fn literals(src: &str) -> Vec<Literal> {
    code(src)
        .into_iter()
        .filter_map(|t| match t {
            Token::Literal(l) => Some(l),
            _ => None,
        })
        .collect()
}

/// The paths of `src` outside comments, literals and test items, each
/// with its 1-based line: `std::fs::read` in code, and `std::fs`,
/// `std::env::var` for `use std::{fs, env::var}` (a group gives its prefix
/// joined to each member's path).
pub(crate) fn paths(src: &str) -> Vec<(usize, String)> {
    let tokens = code(src);
    let word = |i: usize| match tokens.get(i) {
        Some(Token::Word(w, _)) => Some(w.as_str()),
        _ => None,
    };
    let colons = |i: usize| {
        matches!(tokens.get(i), Some(Token::Punct(':')))
            && matches!(tokens.get(i + 1), Some(Token::Punct(':')))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (Some(first), Token::Word(_, line)) = (word(i), &tokens[i]) else {
            i += 1;
            continue;
        };
        let mut path = first.to_string();
        i += 1;
        while colons(i) {
            if let Some(next) = word(i + 2) {
                path = format!("{path}::{next}");
                i += 3;
            } else if matches!(tokens.get(i + 2), Some(Token::Punct('{'))) {
                let (members, end) = group(&tokens, i + 3);
                out.extend(members.iter().map(|m| (*line, format!("{path}::{m}"))));
                i = end;
                break;
            } else {
                break;
            }
        }
        if path.contains("::") {
            out.push((*line, path));
        }
    }
    out
}

/// The path of each member of the `use` group whose members start at `k`
/// (after its `{`), up to a nested group or `as`, and the index after the
/// group's `}`.
fn group(tokens: &[Token], k: usize) -> (Vec<String>, usize) {
    let (mut members, mut depth, mut member, mut open) = (Vec::new(), 0usize, String::new(), true);
    let mut flush = |member: &mut String| {
        if !member.is_empty() {
            members.push(std::mem::take(member));
        }
    };
    for (i, t) in tokens.iter().enumerate().skip(k) {
        match t {
            Token::Word(w, _) if depth == 0 && open => {
                if !member.is_empty() {
                    member.push_str("::");
                }
                member.push_str(w);
                open = false;
            }
            Token::Punct(':') if depth == 0 => open = !member.is_empty(),
            Token::Punct(',') if depth == 0 => {
                flush(&mut member);
                open = true;
            }
            Token::Punct('{') => depth += 1,
            Token::Punct('}') if depth == 0 => {
                flush(&mut member);
                return (members, i + 1);
            }
            Token::Punct('}') => depth -= 1,
            _ if depth == 0 => open = false,
            _ => {}
        }
    }
    flush(&mut member);
    (members, tokens.len())
}

/// The tokens of `src` outside comments and test items.
fn code(src: &str) -> Vec<Token> {
    let mut tokens = lex(src);
    let mut keep = vec![true; tokens.len()];
    let mut k = 0;
    while k < tokens.len() {
        if let Some(end) = test_attribute(&tokens, k) {
            let end = item_end(&tokens, end);
            keep[k..end].iter_mut().for_each(|x| *x = false);
            k = end;
        } else {
            k += 1;
        }
    }
    let mut keep = keep.into_iter();
    tokens.retain(|_| keep.next().unwrap_or(false));
    tokens
}

/// When `tokens[k..]` starts with `#[cfg(test)]` or `#[test]`, the index
/// after its `]`.
fn test_attribute(tokens: &[Token], k: usize) -> Option<usize> {
    let word = |i: usize, w: &str| matches!(tokens.get(i), Some(Token::Word(x, _)) if x == w);
    let punct = |i: usize, c: char| matches!(tokens.get(i), Some(Token::Punct(x)) if *x == c);
    if !(punct(k, '#') && punct(k + 1, '[')) {
        return None;
    }
    if word(k + 2, "test") && punct(k + 3, ']') {
        return Some(k + 4);
    }
    let cfg_test = word(k + 2, "cfg") && punct(k + 3, '(') && word(k + 4, "test");
    (cfg_test && punct(k + 5, ')') && punct(k + 6, ']')).then_some(k + 7)
}

/// The index after the item starting at `k`: after its `;`, or after the
/// `}` closing its body. Brackets and parentheses of its signature and
/// other attributes are skipped, so `[u8; 4]` does not end it.
fn item_end(tokens: &[Token], k: usize) -> usize {
    let mut depth = 0usize;
    let mut braces = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(k) {
        let Token::Punct(c) = t else { continue };
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' if depth == 0 && braces == 0 => return i + 1,
            '{' if depth == 0 => braces += 1,
            '}' if depth == 0 => {
                braces = braces.saturating_sub(1);
                if braces == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

fn lex(src: &str) -> Vec<Token> {
    let s: Vec<char> = src.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    while i < s.len() {
        let c = s[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= s.len() {
                    break;
                } else if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(s[i] == '\n');
                    i += 1;
                }
            }
        } else if let Some(open) = raw_string_open(&s, i) {
            // r"…", r#"…"#, br#"…"#: no escapes; ends at `"` and the hashes.
            let hashes = open - (i + usize::from(c == 'b') + 1);
            let mut j = open + 1;
            while j < s.len() && !(s[j] == '"' && (1..=hashes).all(|h| at(j + h) == '#')) {
                line += usize::from(s[j] == '\n');
                j += 1;
            }
            let text = s[open + 1..j.min(s.len())].iter().collect();
            out.push(Token::Literal(Literal {
                line: start_line,
                text,
            }));
            i = j + 1 + hashes;
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            let mut j = if c == '"' { i + 1 } else { i + 2 };
            let begin = j;
            while j < s.len() && s[j] != '"' {
                if s[j] == '\\' {
                    j += 1;
                }
                line += usize::from(at(j) == '\n');
                j += 1;
            }
            let text = s[begin..j.min(s.len())].iter().collect();
            out.push(Token::Literal(Literal {
                line: start_line,
                text,
            }));
            i = j + 1;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let q = if c == '\'' { i } else { i + 1 };
            if at(q + 1) == '\\' {
                // '\n', '\'', '\\', '\u{7b}': the escaped character, then
                // the closing quote.
                i = q + 3;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(q + 2) == '\'' {
                i = q + 3;
            } else {
                i = q + 1; // a lifetime or a label: its name is a word
            }
        } else if is_word(c) {
            let begin = i;
            while i < s.len() && is_word(s[i]) {
                i += 1;
            }
            out.push(Token::Word(s[begin..i].iter().collect(), line));
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// When a raw string starts at `i` (`r"`, `r#"`, `br##"`…), the index of
/// its opening `"`.
fn raw_string_open(s: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if s.get(j) == Some(&'b') {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    while s.get(j) == Some(&'#') {
        j += 1;
    }
    (s.get(j) == Some(&'"')).then_some(j)
}

#[test]
fn literals_outside_comments_and_tests_with_their_lines() {
    let src = r##"
/// A doc comment with "a quoted word" and a brace {.
fn one() {
    let a = "plain \"quoted\" text";
    let b = r#"a raw "string" with { braces }"#;
    let c = '"';
    let d = '\'';
    let e = '\\';
    let f = b"bytes";
    // "in a comment"
    /* "in a /* nested */ block" */
    let g = "two
lines";
}

fn lifetimes<'a>(x: &'a str, y: [u8; 4]) -> &'a str {
    'outer: loop { break 'outer "after a label"; }
}

#[cfg(test)]
mod tests {
    const T: &str = "in a test module";
}

#[test]
fn case() { let _ = "in a test"; }

#[cfg(test)]
use std::fmt;

const LAST: &str = "after the test items";
"##;
    let found = literals(src);
    let got: Vec<(usize, &str)> = found.iter().map(|l| (l.line, l.text.as_str())).collect();
    assert_eq!(
        got,
        [
            (4, r#"plain \"quoted\" text"#),
            (5, r#"a raw "string" with { braces }"#),
            (9, "bytes"),
            (12, "two\nlines"),
            (17, "after a label"),
            (31, "after the test items"),
        ]
    );
}

#[test]
fn paths_outside_comments_literals_and_tests() {
    let src = r#"
use std::{fs as f, io::{self, Write}, env::var, io::stdout as o};
use crate::model::Harness;
/// std::process::exit in a comment
fn f() {
    let _ = std::fs::read("std::env::var in a literal");
    ::std::process::exit(0);
}
#[cfg(test)]
mod tests {
    use std::env;
}
"#;
    let found = paths(src);
    let got: Vec<(usize, &str)> = found.iter().map(|(l, p)| (*l, p.as_str())).collect();
    assert_eq!(
        got,
        [
            (2, "std::fs"),
            (2, "std::io"),
            (2, "std::env::var"),
            (2, "std::io::stdout"),
            (3, "crate::model::Harness"),
            (6, "std::fs::read"),
            (7, "std::process::exit"),
        ]
    );
}

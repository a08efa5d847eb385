//! Terminal layout shared by the text renderers: escaping text taken from
//! the repository, measuring it in terminal columns, padding, shortening
//! and wrapping it.
//!
//! Widths are display widths (`unicode-width`): a CJK character or an
//! emoji takes two columns, a combining mark none. Text from the
//! repository is escaped before it is measured, so what is measured is
//! what is printed.

use std::borrow::Cow;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The width the text renderers aim for.
pub(crate) const WIDTH: usize = 80;

/// True for characters that must not reach a terminal raw: control
/// characters (ESC, CR, newlines…), format characters (Unicode category
/// Cf: bidirectional overrides and isolates, zero-width joiners and
/// spaces, the byte order mark…) and the line and paragraph separators.
/// A bidirectional override can reorder what follows it on the line, so
/// that a path reads as another one.
pub(crate) fn is_hidden(c: char) -> bool {
    c.is_control() || is_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Unicode general category Cf (format), as of Unicode 15.1.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{600}'..='\u{605}'
            | '\u{61C}'
            | '\u{6DD}'
            | '\u{70F}'
            | '\u{890}'..='\u{891}'
            | '\u{8E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Escapes the characters of [`is_hidden`] (`\u{1b}`, `\n`, `\u{202e}`)
/// in text that comes from the analysed repository.
pub(crate) fn clean(s: &str) -> Cow<'_, str> {
    if s.chars().any(is_hidden) {
        Cow::Owned(
            s.chars()
                .map(|c| {
                    if is_hidden(c) {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

/// The number of terminal columns `s` takes.
pub(crate) fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// `s` followed by spaces up to `columns` columns (nothing when wider).
pub(crate) fn pad(s: &str, columns: usize) -> String {
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(' ', columns.saturating_sub(width(s))));
    out
}

/// `s` in exactly `columns` columns: padded, or shortened in the middle
/// with `…`, keeping a third of the room for its start and the rest for
/// its end (where a path's file name is).
pub(crate) fn fit(s: &str, columns: usize) -> String {
    if width(s) <= columns {
        return pad(s, columns);
    }
    let room = columns.saturating_sub(1);
    let head_room = room / 3;
    let mut head = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w > head_room {
            break;
        }
        head.push(c);
        used += w;
    }
    let tail_room = room - used;
    let mut tail: Vec<char> = Vec::new();
    let mut tail_used = 0;
    for c in s.chars().rev() {
        let w = char_width(c);
        if tail_used + w > tail_room {
            break;
        }
        tail.push(c);
        tail_used += w;
    }
    let mut out = head;
    out.push('…');
    out.extend(tail.iter().rev());
    pad(&out, columns)
}

/// Wraps `text` to `columns` columns, every line prefixed by `indent`.
pub(crate) fn wrap(text: &str, indent: &str, columns: usize) -> String {
    wrap_hanging(text, indent, indent, columns)
}

/// Wraps `text` to `columns` columns at spaces: the first line prefixed by
/// `first`, the others by `rest`. A word longer than a line (a long path)
/// gets a line of its own and overflows it.
pub(crate) fn wrap_hanging(text: &str, first: &str, rest: &str, columns: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut line = String::new();
    let mut line_width = 0;
    let mut indent = first;
    for word in text.split_whitespace() {
        let avail = columns.saturating_sub(width(indent)).max(20);
        let w = width(word);
        if !line.is_empty() && line_width + 1 + w > avail {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
            line_width = 0;
            indent = rest;
        }
        if !line.is_empty() {
            line.push(' ');
            line_width += 1;
        }
        line.push_str(word);
        line_width += w;
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(width("日本語"), 6);
        assert_eq!(width("🚀x"), 3);
        assert_eq!(pad("日本", 6), "日本  ");
        assert_eq!(width(&fit("日本語のとても長いパッケージ名", 11)), 11);
        assert_eq!(width(&fit("abc", 5)), 5);
    }

    #[test]
    fn shortening_keeps_both_ends() {
        assert_eq!(fit("apps/very-long-name/CLAUDE.md", 16), "apps/…/CLAUDE.md");
    }

    #[test]
    fn bidirectional_and_other_format_characters_are_escaped() {
        for c in [
            '\u{202E}', '\u{202A}', '\u{200E}', '\u{200F}', '\u{2066}', '\u{2069}', '\u{200B}',
            '\u{FEFF}', '\u{1b}', '\u{2028}',
        ] {
            let s = format!("a{c}b");
            let out = clean(&s);
            assert!(!out.contains(c), "{c:?} printed raw");
            assert!(out.contains("\\u{"), "{out}");
        }
        assert_eq!(clean("plain 日本 ✓"), "plain 日本 ✓");
    }

    #[test]
    fn wrapping_counts_columns_not_characters() {
        let text = "日本語 ".repeat(20);
        for line in wrap(&text, "  ", 40).lines() {
            assert!(width(line) <= 40, "{line}");
        }
    }
}

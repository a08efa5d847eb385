//! Terminal layout shared by the text renderers: escaping text taken from
//! the repository, measuring it in terminal columns, padding, shortening
//! and wrapping it.
//!
//! Widths are display widths (`unicode-width`): a CJK character or an
//! emoji takes two columns, a combining mark none. Text from the
//! repository is escaped before it is measured, so what is measured is
//! what is printed.

use std::borrow::Cow;
use std::cell::Cell;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The width the text renderers aim for when not told otherwise: 80
/// columns, the width of output that does not go to a terminal.
pub const DEFAULT_WIDTH: usize = 80;

/// The narrowest and widest widths [`with_width`] accepts; narrower
/// terminals get 40 columns (and lines wider than them), wider ones 200.
pub(crate) const WIDTH_RANGE: (usize, usize) = (40, 200);

thread_local! {
    static COLUMNS: Cell<usize> = const { Cell::new(DEFAULT_WIDTH) };
}

/// Runs `render` with the text renderers aiming for `columns` terminal
/// columns (clamped to `WIDTH_RANGE`) instead of [`DEFAULT_WIDTH`], on
/// this thread; the width in force before is restored afterwards, even
/// when `render` panics. The command line passes the terminal's width
/// here; the renderers stay functions of the model and this width.
pub fn with_width<T>(columns: usize, render: impl FnOnce() -> T) -> T {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            COLUMNS.with(|c| c.set(self.0));
        }
    }
    let clamped = columns.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1);
    let _restore = Restore(COLUMNS.with(|c| c.replace(clamped)));
    render()
}

/// The width the text renderers aim for: [`DEFAULT_WIDTH`], or the one of
/// the enclosing [`with_width`].
pub(crate) fn columns() -> usize {
    COLUMNS.with(Cell::get)
}

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

/// `path` within `columns` columns: whole when it fits, else shortened
/// from the left behind `…/` at a `/`, keeping the most whole components
/// that fit (`…/tools/data/CLAUDE.md:1-98`); a path of the machine keeps
/// its root (`~/`, `$CODEX_HOME/`, `/etc/`) before the `…/`
/// (`~/…/skills/lint/SKILL.md`), so a user's file never reads as the
/// repository's. When no directory fits whole, the file name alone
/// behind `…/` (`…/CLAUDE.md`); when the file name alone is too wide, its
/// last characters (`…lation.md`). Never part of a directory's name.
pub(crate) fn shorten_path_left(path: &str, columns: usize) -> String {
    if width(path) <= columns {
        return path.to_string();
    }
    let (root, rest) = machine_root(path);
    let room = columns.saturating_sub(width(root) + 2);
    let whole = rest
        .match_indices('/')
        .map(|(i, _)| &rest[i + 1..])
        .find(|tail| width(tail) <= room);
    if let Some(tail) = whole {
        return format!("{root}…/{tail}");
    }
    if !root.is_empty() {
        return shorten_path_left(rest, columns);
    }
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in path.chars().rev() {
        let w = char_width(c);
        if used + w > columns.saturating_sub(1) {
            break;
        }
        tail.push(c);
        used += w;
    }
    let tail: String = tail.into_iter().rev().collect();
    format!("…{tail}")
}

/// The root a machine path is named from (`~/`, `$NAME/`, `/`) and the
/// rest; `("", path)` for a repository path.
fn machine_root(path: &str) -> (&str, &str) {
    let end = if path.starts_with("~/") {
        2
    } else if path.starts_with('$') || path.starts_with('/') {
        path[1..].find('/').map_or(0, |i| i + 2)
    } else {
        0
    };
    path.split_at(end)
}

/// A shell command in lines of at most `columns` columns, never broken
/// inside a word: the first line prefixed by `first`, continuations by
/// `rest`, each line but the last ending in ` \` so that the lines paste
/// as one command. A continuation line whose word (a long finding id) does
/// not fit after `rest` is indented less, down to no indent, so that it
/// fits; a word wider than a whole line gets a line of its own (and
/// overflows it).
pub(crate) fn command_lines(command: &str, first: &str, rest: &str, columns: usize) -> String {
    use std::fmt::Write as _;
    // Each line with its indent.
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut line = String::new();
    let mut indent = first.to_string();
    let mut line_width = width(first);
    for word in command.split(' ').filter(|w| !w.is_empty()) {
        let w = width(word);
        // Room for " \" after the word unless it ends the command.
        if !line.is_empty() && line_width + 1 + w + 2 > columns {
            lines.push((std::mem::take(&mut line), std::mem::take(&mut indent)));
            let room = columns.saturating_sub(w + 2);
            indent = " ".repeat(width(rest).min(room));
            line_width = width(&indent);
        }
        if !line.is_empty() {
            line.push(' ');
            line_width += 1;
        }
        line.push_str(word);
        line_width += w;
    }
    if !line.is_empty() {
        lines.push((line, indent));
    }
    let mut out = String::new();
    let last = lines.len().saturating_sub(1);
    for (i, (l, prefix)) in lines.iter().enumerate() {
        let end = if i < last { " \\" } else { "" };
        let _ = writeln!(out, "{prefix}{l}{end}");
    }
    out
}

/// Two things on one line, `left` then `right` two spaces apart, after
/// `indent`, when that fits `columns`; else `left` alone (a path shortened
/// from the left when even it would pass the edge) and `right` on the next
/// lines two columns further in, wrapped to `columns`. Each line ends in a
/// newline.
pub(crate) fn pair_lines(indent: &str, left: &str, right: &str, columns: usize) -> String {
    if width(indent) + width(left) + 2 + width(right) <= columns {
        return format!("{indent}{left}  {right}\n");
    }
    let room = columns.saturating_sub(width(indent)).max(20);
    format!(
        "{indent}{}\n{}",
        shorten_path_left(left, room),
        wrap(right, &format!("{indent}  "), columns)
    )
}

/// An id (never broken) followed by `, +more more` when `more` is not 0,
/// after `label`: on one line indented by `indent` columns when it fits
/// `columns`; else the id line moves left as far as 2 columns, and the
/// count goes on a line of its own at `indent`. Returns the lines without
/// newlines, so that the caller can paint each.
pub(crate) fn id_lines(
    indent: usize,
    label: &str,
    id: &str,
    more: usize,
    columns: usize,
) -> Vec<String> {
    let tail = if more > 0 {
        format!(", +{more} more")
    } else {
        String::new()
    };
    let whole = format!("{label}{id}{tail}");
    if indent + width(&whole) <= columns {
        return vec![format!("{}{whole}", " ".repeat(indent))];
    }
    let first = if more > 0 {
        format!("{label}{id},")
    } else {
        format!("{label}{id}")
    };
    let at = indent.min(columns.saturating_sub(width(&first))).max(2);
    let mut lines = if at + width(&first) <= columns {
        vec![format!("{}{first}", " ".repeat(at))]
    } else {
        // An id too wide even after the label at two columns (one naming
        // four harnesses) goes alone on the next line, never broken.
        let rest = &first[label.len()..];
        vec![
            format!("{}{}", " ".repeat(indent), label.trim_end()),
            rest.to_string(),
        ]
    };
    if more > 0 {
        lines.push(format!("{}+{more} more", " ".repeat(indent)));
    }
    lines
}

/// `text` as one paragraph for a terminal: wrapped at spaces to the width
/// of the enclosing [`with_width`] (80 columns by default), the first
/// line prefixed by `first` and the others by `rest`, each ending in a
/// line feed. A command in backticks moves to the next line whole when it
/// fits one (a longer one breaks at its spaces); a path wider than a line
/// is shortened from the left. For the command line's own short reports
/// (`guard install`, `guard status`, `check --accept`), which are no
/// rendering of the model.
pub fn paragraph(text: &str, first: &str, rest: &str) -> String {
    wrap_hanging(text, first, rest, columns())
}

/// Wraps `text` to `columns` columns, every line prefixed by `indent`.
pub(crate) fn wrap(text: &str, indent: &str, columns: usize) -> String {
    wrap_hanging(text, indent, indent, columns)
}

/// Wraps `text` to `columns` columns at spaces: the first line prefixed by
/// `first`, the others by `rest`. A command in backticks is never broken:
/// it moves to the next line whole. A path (a word with `/`, not a URL)
/// wider than a line is shortened from the left; any other word wider
/// than a line gets a line of its own and overflows it.
pub(crate) fn wrap_hanging(text: &str, first: &str, rest: &str, columns: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut line = String::new();
    let mut line_width = 0;
    let mut indent = first;
    let room = columns
        .saturating_sub(width(first).max(width(rest)))
        .max(20);
    for word in words(text, room)
        .into_iter()
        .flat_map(|w| pieces(w, columns, rest))
    {
        let avail = columns.saturating_sub(width(indent)).max(20);
        let path_room = avail.min(columns.saturating_sub(width(rest)).max(20));
        // Shortened only when it fits neither the rest of this line nor
        // a line of its own.
        let fits_here = if line.is_empty() {
            width(&word) <= avail
        } else {
            line_width + 1 + width(&word) <= avail
        };
        let word = if !fits_here
            && width(&word) > path_room
            && word.contains('/')
            && !word.contains("://")
        {
            match quoted_path(&word)
                .or_else(|| string_path(&word))
                .or_else(|| half_quoted_path(&word))
            {
                // A path in backticks or in a quoted string of a snippet
                // (`[".claude/rules/a.md"]`) keeps its quotes, and the
                // punctuation before and after.
                Some((before, inner, after)) => format!(
                    "{before}{}{after}",
                    shorten_path_left(
                        inner,
                        path_room.saturating_sub(width(before) + width(after))
                    )
                ),
                None if !word.contains('`') => shorten_path_left(&word, path_room),
                None => word,
            }
        } else {
            word
        };
        let w = width(&word);
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
        line.push_str(&word);
        line_width += w;
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}

/// True for a finding id (`skill:capability-gap:codex-only:x:0123456789ab`),
/// quoted or followed by punctuation: never broken.
fn is_finding_id(word: &str) -> bool {
    let id = word.trim_matches(|c: char| c == '`' || c == ',' || c == '.' || c == '(' || c == ')');
    let parts: Vec<&str> = id.split(':').collect();
    parts.len() >= 5
        && parts
            .last()
            .is_some_and(|h| h.len() == 12 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `word` as it is wrapped: whole, or, when it is wider than a line
/// after `rest` and is no path, URL, finding id or command (a span with
/// spaces), cut at character boundaries into pieces that fit (a skill
/// name of 40 characters on a terminal of 40 columns).
fn pieces(word: String, columns: usize, rest: &str) -> Vec<String> {
    let room = columns.saturating_sub(width(rest)).max(20);
    if width(&word) <= room || word.contains('/') || word.contains(' ') || is_finding_id(&word) {
        return vec![word];
    }
    let mut out = Vec::new();
    let mut piece = String::new();
    for c in word.chars() {
        if width(&piece) + char_width(c) > room {
            out.push(std::mem::take(&mut piece));
        }
        piece.push(c);
    }
    out.push(piece);
    out
}

/// Wraps quoted repository text (an excerpt people read, never a command
/// they paste) to `columns` columns, every line prefixed by `indent`: as
/// [`wrap`], except that a word wider than a line (a long URL, a run of
/// CJK text without spaces, a line of one character repeated) is cut at
/// character boundaries into pieces that fit, by display width. At most
/// `max_lines` lines; a longer text ends in `…` on the last one.
pub(crate) fn wrap_quoted(text: &str, indent: &str, columns: usize, max_lines: usize) -> String {
    use std::fmt::Write as _;
    let room = columns.saturating_sub(width(indent)).max(20);
    let mut lines = quoted_lines(text, room);
    if lines.len() > max_lines.max(1) {
        lines.truncate(max_lines.max(1));
        let last = lines.last_mut().expect("one line at least");
        while width(last) + 2 > room {
            last.pop();
        }
        last.push_str(" …");
    }
    let mut out = String::new();
    for l in lines {
        let _ = writeln!(out, "{indent}{l}");
    }
    out
}

/// [`wrap_quoted`] with no limit on the lines, the first prefixed by
/// `first` and the others by `rest` (a paragraph of `diff` after its
/// `+ ` or `- `): every line fits `columns`, a word wider than a line (a
/// long URL) cut at character boundaries.
pub(crate) fn wrap_quoted_hanging(text: &str, first: &str, rest: &str, columns: usize) -> String {
    use std::fmt::Write as _;
    let room = columns
        .saturating_sub(width(first).max(width(rest)))
        .max(20);
    let mut out = String::new();
    for (i, l) in quoted_lines(text, room).into_iter().enumerate() {
        let _ = writeln!(out, "{}{l}", if i == 0 { first } else { rest });
    }
    out
}

/// The words of `text` in lines of at most `room` columns, a word wider
/// than `room` cut at character boundaries into pieces that fit, by
/// display width.
fn quoted_lines(text: &str, room: usize) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        if width(word) <= room {
            pieces.push(word.to_string());
            continue;
        }
        let mut cur = String::new();
        let mut used = 0;
        for c in word.chars() {
            let cw = char_width(c);
            if used + cw > room && !cur.is_empty() {
                pieces.push(std::mem::take(&mut cur));
                used = 0;
            }
            cur.push(c);
            used += cw;
        }
        if !cur.is_empty() {
            pieces.push(cur);
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for p in pieces {
        let w = width(&p);
        if !line.is_empty() && used + 1 + w > room {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        if !line.is_empty() {
            line.push(' ');
            used += 1;
        }
        line.push_str(&p);
        used += w;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `word` as a path in backticks (`` `a/b`, ``, `` (`a/b`) ``): the
/// punctuation before the opening backtick, the path and what follows the
/// closing one, or `None` when the word is anything else (a command in
/// backticks has spaces, and is never shortened).
fn quoted_path(word: &str) -> Option<(&str, &str, &str)> {
    let open = word.find('`')?;
    let before = &word[..open];
    let (path, after) = word[open + 1..].split_once('`')?;
    (before.chars().all(|c| c.is_ascii_punctuation())
        && !path.contains(' ')
        && !after.contains('`'))
    .then_some((&word[..=open], path, &word[open + 1 + path.len()..]))
}

/// A piece of a span in backticks that was wrapped at its spaces (a path
/// holding a space, `` `a/b/sub dir` ``): the first piece, the opening
/// backtick with the punctuation before it and the path after it, or the
/// last piece, the path and the closing backtick with what follows; `None`
/// for a word with no backtick, or with two.
fn half_quoted_path(word: &str) -> Option<(&str, &str, &str)> {
    if word.matches('`').count() != 1 {
        return None;
    }
    let tick = word.find('`')?;
    let before = &word[..tick];
    if before.chars().all(|c| c.is_ascii_punctuation()) {
        return Some((&word[..=tick], &word[tick + 1..], ""));
    }
    let after = &word[tick..];
    after[1..]
        .chars()
        .all(|c| c.is_ascii_punctuation())
        .then_some(("", before, after))
}

/// `word`'s path in double quotes, the piece of a JSON or TOML snippet
/// wrapped at its spaces (`` [".claude/rules/a.md"]` ``): what comes
/// before it with the opening quote, the path, and the closing quote with
/// what follows; `None` when no quoted string of the word holds a `/`.
fn string_path(word: &str) -> Option<(&str, &str, &str)> {
    let open = word.find('"')?;
    let len = word[open + 1..].find('"')?;
    let path = &word[open + 1..open + 1 + len];
    path.contains('/')
        .then_some((&word[..=open], path, &word[open + 1 + len..]))
}

/// The words of `text` (split at whitespace), a span in backticks kept as
/// one word with single spaces when it fits in `room` columns (a longer
/// one cannot fit any line, and is wrapped at its spaces).
fn words(text: &str, room: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut span: Vec<&str> = Vec::new();
    for w in text.split_whitespace() {
        let toggles = w.matches('`').count() % 2 == 1;
        if span.is_empty() && !toggles {
            out.push(w.to_string());
            continue;
        }
        span.push(w);
        if span.len() > 1 && toggles {
            let joined = span.join(" ");
            if width(&joined) <= room {
                out.push(joined);
            } else {
                out.extend(span.iter().map(|s| s.to_string()));
            }
            span.clear();
        }
    }
    out.extend(span.iter().map(|s| s.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path holding a space, in backticks and wider than a line, is
    /// wrapped at its space; the piece that is still wider than a line is
    /// shortened from the left like any path (it passed the edge: an
    /// `import-missing` message of a directory outside git read whole).
    #[test]
    fn a_wrapped_path_in_backticks_is_shortened_to_the_width() {
        let path = format!(
            "{}/b/sub dir",
            "fuzz/batch7/trees/case.228/core/docs".repeat(2)
        );
        let text = format!("`@../AGENTS.md` names no file (resolved from `{path}`): fix it");
        let out = wrap(&text, "    ", 80);
        assert!(out.lines().all(|l| width(l) <= 80), "{out}");
        assert!(out.contains("`…/"), "{out}");
        assert!(
            out.contains("sub\n    dir`):") || out.contains("sub dir`):"),
            "{out}"
        );
        assert_eq!(half_quoted_path("`a/b"), Some(("`", "a/b", "")));
        assert_eq!(half_quoted_path("(`a/b"), Some(("(`", "a/b", "")));
        assert_eq!(half_quoted_path("a/b`),"), Some(("", "a/b", "`),")));
        assert_eq!(half_quoted_path("`a/b`"), None);
        assert_eq!(half_quoted_path("a/b"), None);
    }

    #[test]
    fn quoted_text_is_cut_to_the_width_even_without_spaces() {
        let cjk = "新規スクリプトは".repeat(12);
        let out = wrap_quoted(&cjk, "     | ", 80, 8);
        assert!(out.lines().count() > 1, "{out}");
        assert!(out.lines().all(|l| width(l) <= 80), "{out}");
        assert_eq!(out.replace("     | ", "").replace('\n', ""), cjk);
        let long = "x".repeat(13_000);
        let out = wrap_quoted(&long, "     | ", 80, 3);
        assert_eq!(out.lines().count(), 3, "{out}");
        assert!(out.lines().all(|l| width(l) <= 80), "{out}");
        assert!(out.trim_end().ends_with(" …"), "{out}");
    }

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(width("日本語"), 6);
        assert_eq!(width("🚀x"), 3);
        assert_eq!(pad("日本", 6), "日本  ");
        assert_eq!(width(&fit("日本語のとても長いパッケージ名", 11)), 11);
        assert_eq!(width(&fit("abc", 5)), 5);
    }

    #[test]
    fn commands_in_backticks_are_never_broken() {
        let text = "warnings about the repository itself: Claude Code 4; see `playbookdiff compile AnthusAI__Kanbus/repo --harness NAME` for them";
        let out = wrap(text, "    ", 80);
        assert!(
            out.lines()
                .any(|l| l.contains("`playbookdiff compile AnthusAI__Kanbus/repo --harness NAME`")),
            "{out}"
        );
        for l in out.lines() {
            assert!(width(l) <= 80, "{l}");
        }
        // A long path in prose is shortened from the left; a URL is not.
        let out = wrap(&format!("see {}CLAUDE.md", "deep/".repeat(30)), "  ", 40);
        assert!(out.lines().all(|l| width(l) <= 40), "{out}");
        assert!(
            out.contains("…/deep/") && out.contains("/deep/CLAUDE.md"),
            "{out}"
        );
        let url = format!("https://example.com/{}", "a/".repeat(40));
        assert!(wrap(&url, "", 40).contains(&url));
    }

    #[test]
    fn a_problem_row_and_a_grouped_id_fit_the_width() {
        // Path and code on one line when they fit, else on two.
        assert_eq!(
            pair_lines(
                "  ",
                "a/AGENTS.md",
                "agents-md-not-bridged (Claude Code)",
                80
            ),
            "  a/AGENTS.md  agents-md-not-bridged (Claude Code)\n"
        );
        let long = "tests/fixtures/cross_platform/conflicting-commands/AGENTS.md";
        let two = pair_lines("  ", long, "agents-md-not-bridged (Claude Code)", 80);
        assert_eq!(
            two,
            format!("  {long}\n    agents-md-not-bridged (Claude Code)\n")
        );
        let narrow = pair_lines("  ", long, "x", 40);
        assert!(narrow.lines().all(|l| width(l) <= 40), "{narrow}");
        assert!(narrow.contains("/AGENTS.md"), "{narrow}");
        // An id of 72 characters and a count: the count moves to its own line.
        let id = format!(
            "skill:capability-gap:codex+opencode-only:{}",
            "x".repeat(31)
        );
        assert_eq!(id.len(), 72);
        assert_eq!(id_lines(10, "", "a:b", 3, 80), ["          a:b, +3 more"]);
        let lines = id_lines(10, "", &id, 13, 80);
        assert_eq!(
            lines,
            [format!("       {id},"), "          +13 more".to_string()]
        );
        assert!(lines.iter().all(|l| width(l) <= 80));
        assert_eq!(id_lines(2, "ids ", &id, 0, 80), [format!("  ids {id}")]);
    }

    #[test]
    fn a_path_in_backticks_is_shortened_inside_them() {
        let path = "plugins/claude-opus-4-5-migration/skills/claude-opus-4-5-migration/SKILL.md";
        let out = wrap(&format!("`{path}`,"), "    ", 80);
        assert_eq!(
            out,
            "    `…/claude-opus-4-5-migration/skills/claude-opus-4-5-migration/SKILL.md`,\n"
        );
        assert!(width(out.trim_end()) <= 80);
        // A command in backticks is not a path: kept whole.
        assert_eq!(quoted_path("`a b/c`"), None);
        assert_eq!(quoted_path("`a/b`."), Some(("`", "a/b", "`.")));
        assert_eq!(quoted_path("(`a/b`),"), Some(("(`", "a/b", "`),")));
        assert_eq!(quoted_path("x`a/b`"), None);
    }

    /// A path inside any quoting of a sentence (backticks, a JSON or TOML
    /// string in a snippet in backticks, the two together) is shortened
    /// at a `/` to fit the line, at every width from 40 to 80, so no line
    /// passes the edge; the file name stays.
    #[test]
    fn a_path_in_a_quoted_snippet_is_shortened_to_the_line() {
        let dirs = [
            "",
            ".claude/rules/",
            "tests/fixtures/cross_platform/conflicting-commands/",
        ];
        for dir in dirs {
            let path = format!("{dir}package-installation.md");
            for text in [
                format!("add `\"instructions\": [\"{path}\"]` to `opencode.json` at the root"),
                format!("add `instructions = [\"{path}\"]` to the file"),
                format!("copy the text of `{path}` into `AGENTS.md`"),
                format!("(see {path})"),
            ] {
                for columns in 40..=80 {
                    let out = wrap_hanging(&text, "  ", "  ", columns);
                    for line in out.lines() {
                        assert!(width(line) <= columns, "{columns}: {line}\n{out}");
                    }
                    assert!(out.contains("package-installation.md"), "{out}");
                }
            }
        }
        assert_eq!(string_path("[\"a/b\"]`"), Some(("[\"", "a/b", "\"]`")));
        assert_eq!(string_path("\"ab\""), None);
    }

    /// A word wider than a line is cut into pieces that fit, unless it is
    /// a path (shortened from the left), a finding id or a command (never
    /// broken); a path that fits a line of its own is moved there whole.
    #[test]
    fn long_words_fit_the_line_but_ids_and_commands_stay_whole() {
        let name = format!("`{}`,", "sentry-skills:claude-settings-audit-x");
        let out = wrap_hanging(&format!("skills {name} and more"), "  ", "          ", 40);
        for line in out.lines() {
            assert!(width(line) <= 40, "{line:?}");
        }
        assert_eq!(out.replace(['\n', ' '], ""), format!("skills{name}andmore"));
        let id = "skill:capability-gap:claude-code+codex+opencode-only:some-long-name:0123456789ab";
        assert!(wrap(id, "  ", 40).contains(id));
        let path = "skills/claude-settings-audit/SKILL.md";
        let out = wrap_hanging(&format!("info[code] {path}"), "  ", "    ", 41);
        assert!(out.contains(&format!("\n    {path}")), "{out}");
    }

    #[test]
    fn the_width_is_scoped_and_restored() {
        assert_eq!(columns(), DEFAULT_WIDTH);
        assert_eq!(with_width(120, columns), 120);
        assert_eq!(with_width(10, columns), WIDTH_RANGE.0);
        assert_eq!(with_width(1000, || with_width(60, columns)), 60);
        assert_eq!(columns(), DEFAULT_WIDTH);
    }

    #[test]
    fn paths_are_shortened_from_the_left_at_a_slash() {
        let p = "packages/mcp-core/src/internal/agents/tools/data/CLAUDE.md:1-98";
        assert_eq!(shorten_path_left(p, 80), p);
        let short = shorten_path_left(p, 30);
        assert_eq!(short, "…/tools/data/CLAUDE.md:1-98");
        assert!(width(&short) <= 30, "{short}");
        assert!(short.ends_with("/CLAUDE.md:1-98"), "{short}");
        // No slash in reach: the last characters.
        assert_eq!(shorten_path_left("abcdefghij", 5), "…ghij");
        // Whole components that fit; never part of a directory's name.
        for columns in 12..28 {
            let short = shorten_path_left("packages/miniflare/CLAUDE.md", columns);
            assert!(
                short == "…/CLAUDE.md" || short == "…/miniflare/CLAUDE.md",
                "{columns}: {short}"
            );
        }
        // A machine path keeps its root.
        let home = "~/.claude/plugins/cache/team/tools/1.0.0/skills/lint/SKILL.md";
        assert_eq!(
            shorten_path_left(home, 30),
            "~/…/1.0.0/skills/lint/SKILL.md"
        );
        assert_eq!(
            shorten_path_left("~/.copilot/copilot-instructions.md", 30),
            "~/…/copilot-instructions.md"
        );
        assert_eq!(
            shorten_path_left("$CODEX_HOME/skills/a/b/c/SKILL.md", 24),
            "$CODEX_HOME/…/c/SKILL.md"
        );
    }

    #[test]
    fn commands_are_continued_never_broken() {
        let cmd = "playbookdiff explain instruction:missing:claude-code-only:.../tools/data:ecb7065dcb0f repo --cwd packages/mcp-core/src/internal/agents/tools/data";
        let out = command_lines(cmd, "  e.g. ", "      ", 80);
        for l in out.lines() {
            assert!(width(l) <= 80, "{l}");
        }
        let joined: String = out
            .lines()
            .map(|l| l.trim().trim_end_matches(" \\").trim_start_matches("e.g. "))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(joined, cmd);
        assert_eq!(
            command_lines("playbookdiff check", "  ", "    ", 80),
            "  playbookdiff check\n"
        );
        // An id that fits only with less indent gets less indent.
        let id = "instruction:missing:claude-code+codex+opencode-only:apps/api:dd829d4aaf4f";
        let out = command_lines(
            &format!("playbookdiff check --accept {id} --reason TEXT"),
            "    ",
            "      ",
            80,
        );
        let line = out.lines().find(|l| l.contains(id)).unwrap();
        assert_eq!(width(line), 80, "{out}");
        assert!(line.starts_with("     instruction:"), "{out}");
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

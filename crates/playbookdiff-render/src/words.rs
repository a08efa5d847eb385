//! The changed words of an edited paragraph, for people: a word diff
//! (`similar`'s [`TextDiff::from_words`]) cut to the changes and a little
//! unchanged text around each, so an edit at the end of a long paragraph
//! is as visible as one at its start.

use similar::{ChangeTag, TextDiff};

/// Unchanged text kept on each side of a change, in chars (cut back to
/// whole words).
const CONTEXT_CHARS: usize = 40;

/// The most characters of paragraph text one side shows, in chars
/// (markers not counted); past it the side ends with `…`.
const SIDE_CHARS: usize = 320;

/// The least share of words (`similar`'s ratio over the words, spaces
/// not counted, 0 to 1) two paragraphs have in common for a word diff:
/// below it the new paragraph replaces the old one, and marking the few
/// words they share (`the`, `is`) would only scatter both.
const MIN_SHARED: f32 = 0.5;

/// One run of a side of a word diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Unchanged text, shortened to the context of the changes around it
    /// (`…` where text is left out).
    Same(String),
    /// Words only this side has.
    Changed(String),
}

/// Both sides of an edited paragraph as [`Piece`]s, whitespace runs read
/// as one space: `(base, head)`. `None` when the two share less than
/// `MIN_SHARED` of their words (a paragraph wholly replaced is shown as
/// it is) or differ only in whitespace.
pub fn changed_words(base: &str, head: &str) -> Option<(Vec<Piece>, Vec<Piece>)> {
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (a, b) = (one_line(base), one_line(head));
    let wa: Vec<&str> = a.split(' ').collect();
    let wb: Vec<&str> = b.split(' ').collect();
    if TextDiff::configure().diff_slices(&wa, &wb).ratio() < MIN_SHARED {
        return None;
    }
    let runs = runs(&a, &b);
    let is_change = |r: &Run| matches!(r, Run::Change { .. });
    if !runs.iter().any(|r| !is_change(r)) || !runs.iter().any(is_change) {
        return None;
    }
    let side = |base_side: bool| {
        let mut out = Vec::new();
        for (i, run) in runs.iter().enumerate() {
            match run {
                Run::Same(text) => {
                    let before = runs[..i].iter().any(is_change);
                    let after = runs[i + 1..].iter().any(is_change);
                    out.push(Piece::Same(context(text, before, after)));
                }
                Run::Change { base, head } => {
                    let words = if base_side { base } else { head };
                    if !words.is_empty() {
                        out.push(Piece::Changed(words.clone()));
                    }
                }
            }
        }
        out
    };
    Some((side(true), side(false)))
}

/// Both sides of a paragraph edited only in its whitespace (spaces, tabs,
/// line ends, a byte order mark), as [`Piece`]s `(base, head)`: the
/// differing run made visible ([`visible`]) and marked, with a little
/// unchanged text on each side. `None` when the two are equal or differ
/// in more than whitespace. A change in whitespace changes the bytes an
/// agent receives, so it is shown, never left as two identical lines.
pub fn changed_whitespace(base: &str, head: &str) -> Option<(Vec<Piece>, Vec<Piece>)> {
    fn words(s: &str) -> Vec<&str> {
        s.split(|c: char| c.is_whitespace() || c == BOM)
            .filter(|w| !w.is_empty())
            .collect()
    }
    if base == head || words(base) != words(head) {
        return None;
    }
    let (a, b): (Vec<char>, Vec<char>) = (base.chars().collect(), head.chars().collect());
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - pre;
    let mut suf = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let mut pre = pre;
    // Whitespace added to or removed from a run of it: both sides show
    // the run (`␠` and `␠␠`). Added where there was none (a `\r` at a
    // line's end), only the side that has it is marked: a word is never
    // marked as changed.
    if a.len() - pre - suf == 0 || b.len() - pre - suf == 0 {
        let blank = |c: &char| c.is_whitespace() || *c == BOM;
        if pre > 0 && blank(&a[pre - 1]) {
            pre -= 1;
        } else if suf > 0 && blank(&a[a.len() - suf]) {
            suf -= 1;
        }
    }
    let before: String = a[..pre].iter().collect();
    let after: String = a[a.len() - suf..].iter().collect();
    let side = |chars: &[char]| {
        let mid: String = chars[pre..chars.len() - suf].iter().collect();
        let mut out = vec![Piece::Same(context(&before, false, !before.is_empty()))];
        out.push(Piece::Changed(visible(&mid)));
        out.push(Piece::Same(context(&after, !after.is_empty(), false)));
        out
    };
    Some((side(&a), side(&b)))
}

/// The byte order mark, U+FEFF.
const BOM: char = '\u{feff}';

/// `s` with each whitespace character (and a byte order mark) as a
/// visible sign: a space `␠`, a tab `→`, a carriage return `␍`, a line
/// feed `↵`, a byte order mark `<BOM>`, any other as `<U+XXXX>`.
pub fn visible(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' ' => "␠".to_string(),
            '\t' => "→".to_string(),
            '\r' => "␍".to_string(),
            '\n' => "↵".to_string(),
            BOM => "<BOM>".to_string(),
            c if c.is_whitespace() => format!("<U+{:04X}>", c as u32),
            c => c.to_string(),
        })
        .collect()
}

/// A run of a word diff: text both sides share (at least one word), or
/// what each side has in its place.
enum Run {
    Same(String),
    Change { base: String, head: String },
}

/// The word diff of `a` to `b` as runs: unchanged words, and changes, a
/// change taking in the spaces between two changed words so that a
/// rewritten phrase is one change, not one per word.
fn runs(a: &str, b: &str) -> Vec<Run> {
    let diff = TextDiff::from_words(a, b);
    let changes: Vec<_> = diff.iter_all_changes().collect();
    let mut out: Vec<Run> = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        let blank_between = c.tag() == ChangeTag::Equal
            && c.value().trim().is_empty()
            && i > 0
            && changes[i - 1].tag() != ChangeTag::Equal
            && changes
                .get(i + 1)
                .is_some_and(|n| n.tag() != ChangeTag::Equal);
        let (to_base, to_head) = match c.tag() {
            ChangeTag::Equal if !blank_between => {
                match out.last_mut() {
                    Some(Run::Same(t)) => t.push_str(c.value()),
                    _ => out.push(Run::Same(c.value().to_string())),
                }
                continue;
            }
            ChangeTag::Equal => (true, true),
            ChangeTag::Delete => (true, false),
            ChangeTag::Insert => (false, true),
        };
        if !matches!(out.last(), Some(Run::Change { .. })) {
            out.push(Run::Change {
                base: String::new(),
                head: String::new(),
            });
        }
        if let Some(Run::Change { base, head }) = out.last_mut() {
            if to_base {
                base.push_str(c.value());
            }
            if to_head {
                head.push_str(c.value());
            }
        }
    }
    out
}

/// Unchanged `text` cut to [`CONTEXT_CHARS`] next to each change around
/// it: `before`, a change precedes it; `after`, one follows it. Text only
/// a few characters longer than what would be kept stays whole: the
/// ` … ` would save nothing.
fn context(text: &str, before: bool, after: bool) -> String {
    let n = text.chars().count();
    match (before, after) {
        (true, true) if n > 2 * CONTEXT_CHARS + 3 => {
            format!("{} … {}", head(text), tail(text))
        }
        (true, false) if n > CONTEXT_CHARS + 2 => format!("{} …", head(text)),
        (false, true) if n > CONTEXT_CHARS + 2 => format!("… {}", tail(text)),
        _ => text.to_string(),
    }
}

/// The first [`CONTEXT_CHARS`] of `text`, ending at a word's end: a word
/// the cut falls in is kept whole, or left out when it alone passes
/// [`CONTEXT_CHARS`].
fn head(text: &str) -> &str {
    let cut = text
        .char_indices()
        .nth(CONTEXT_CHARS)
        .map_or(text.len(), |(i, _)| i);
    if cut == text.len() {
        return text.trim_end();
    }
    let kept = &text[..cut];
    match kept.rfind(' ') {
        Some(i) if i > 0 && !kept[..i].trim().is_empty() => kept[..i].trim_end(),
        _ => {
            let end = text[cut..].find(' ').map_or(text.len(), |i| cut + i);
            let whole = text[..end].trim_end();
            if whole.chars().count() > 2 * CONTEXT_CHARS {
                ""
            } else {
                whole
            }
        }
    }
}

/// The last [`CONTEXT_CHARS`] of `text`, starting at a word's start (the
/// space before the change kept): a word the cut falls in is kept whole,
/// or left out when it alone passes [`CONTEXT_CHARS`]. Never starts
/// inside a word.
fn tail(text: &str) -> &str {
    let n = text.chars().count();
    let from = text
        .char_indices()
        .nth(n.saturating_sub(CONTEXT_CHARS))
        .map_or(0, |(i, _)| i);
    if from == 0 {
        return text.trim_start();
    }
    let kept = &text[from..];
    if text[..from].ends_with(' ') {
        return kept.trim_start();
    }
    match kept.find(' ') {
        Some(i) if !kept[i..].trim().is_empty() => kept[i + 1..].trim_start(),
        _ => {
            let start = text[..from].rfind(' ').map_or(0, |i| i + 1);
            let whole = text[start..].trim_start();
            if whole.chars().count() > 2 * CONTEXT_CHARS {
                ""
            } else {
                whole
            }
        }
    }
}

/// One side written out: unchanged text through `escape`, each change as
/// `open`, the escaped words, `close` (its outer spaces outside the
/// marks), at most `SIDE_CHARS` characters of text, then `…`.
pub fn render(
    pieces: &[Piece],
    open: &str,
    close: &str,
    escape: impl Fn(&str) -> String,
) -> String {
    let mut out = String::new();
    let mut left = SIDE_CHARS;
    for piece in pieces {
        let (text, marked) = match piece {
            Piece::Same(t) => (t.as_str(), false),
            Piece::Changed(t) => (t.as_str(), true),
        };
        let n = text.chars().count();
        let shown: String = text.chars().take(left).collect();
        left = left.saturating_sub(n);
        let cut = shown.chars().count() < n;
        let words = shown.trim();
        if marked && !words.is_empty() {
            let lead = &shown[..shown.len() - shown.trim_start().len()];
            let trail = &shown[shown.trim_end().len()..];
            let more = if cut { "…" } else { "" };
            out.push_str(&format!(
                "{lead}{open}{}{more}{close}{}",
                escape(words),
                if cut { "" } else { trail }
            ));
        } else {
            out.push_str(&escape(&shown));
            if cut {
                out.push('…');
            }
        }
        if cut || left == 0 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(a: &str, b: &str) -> (String, String) {
        let (x, y) = changed_words(a, b).expect("a word diff");
        (
            render(&x, "[-", "-]", str::to_string),
            render(&y, "{+", "+}", str::to_string),
        )
    }

    fn long(words: usize, from: usize) -> String {
        (from..from + words)
            .map(|i| format!("word{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// An edit anywhere in a long paragraph shows the changed words with a
    /// little context, and both sides differ.
    #[test]
    fn an_edit_at_the_start_middle_or_end_shows_its_words() {
        let body = long(60, 0);
        for (old, new, removed, added) in [
            ("word0", "Always", "[-word0-]", "{+Always+}"),
            ("word30", "tokio", "[-word30-]", "{+tokio+}"),
            (
                "word59",
                "pnpm run build",
                "[-word59-]",
                "{+pnpm run build+}",
            ),
        ] {
            let edited = body.replacen(old, new, 1);
            let (a, b) = text(&body, &edited);
            assert!(a.contains(removed), "{a}");
            assert!(b.contains(added), "{b}");
            assert_ne!(a, b);
            assert!(a.chars().count() < 120, "{a}");
        }
    }

    #[test]
    fn far_apart_edits_leave_out_the_text_between() {
        let body = long(60, 0);
        let edited = body
            .replacen("word2 ", "two ", 1)
            .replacen("word57", "fifty", 1);
        let (a, b) = text(&body, &edited);
        assert!(
            a.contains("[-word2-]") && a.contains("[-word57-]") && a.contains(" … "),
            "{a}"
        );
        assert!(b.contains("{+two+}") && b.contains("{+fifty+}"), "{b}");
        assert!(!a.contains("word30"), "{a}");
    }

    #[test]
    fn a_paragraph_wholly_replaced_or_only_respaced_is_no_word_diff() {
        assert!(changed_words("Use pnpm.", "Never deploy on Friday!").is_none());
        assert!(changed_words("Use  pnpm\nalways.", "Use pnpm always.").is_none());
        let old = "- **A PAT route must resolve its target org/project scoped to the caller.";
        let new = "- Deploy only after the canary is healthy and the rollback is rehearsed.";
        assert!(changed_words(old, new).is_none());
    }

    #[test]
    fn a_long_change_is_cut_with_its_marks_closed() {
        let head = format!("{} {} {}", long(30, 0), long(70, 500), long(100, 100));
        let (a, b) = text(&long(200, 0), &head);
        assert!(a.ends_with("…-]") && b.ends_with("…+}"), "{a}\n{b}");
        assert!(
            a.chars().count() <= SIDE_CHARS + 10,
            "{}",
            a.chars().count()
        );
    }

    /// Every kind of whitespace-only edit (a space added or removed inside
    /// a line, a tab for spaces, trailing spaces, a carriage return, a
    /// byte order mark, a no-break space) shows two different sides, each
    /// marking the changed run with visible signs, at the start, middle
    /// and end of a long paragraph.
    #[test]
    fn a_whitespace_only_edit_is_visible_and_marked() {
        let body = long(60, 0);
        let edits: [(&str, &str, &str); 7] = [
            ("word30 word31", "word30  word31", "␠␠"),
            ("word30 word31", "word30\tword31", "→"),
            ("word59", "word59   ", "␠␠␠"),
            ("word59", "word59\r", "␍"),
            ("word0", "\u{feff}word0", "<BOM>"),
            ("word30 word31", "word30\u{a0}word31", "<U+00A0>"),
            ("word2 word3", "word2 \n word3", "↵"),
        ];
        for (old, new, sign) in edits {
            let edited = body.replacen(old, new, 1);
            let (x, y) = changed_whitespace(&body, &edited).expect(new);
            let a = render(&x, "[-", "-]", str::to_string);
            let b = render(&y, "{+", "+}", str::to_string);
            assert_ne!(a, b, "{new:?}");
            assert!(b.contains("{+"), "{a}\n{b}");
            // A changed run is made of whitespace signs only.
            for side in [&x, &y] {
                for p in side {
                    if let Piece::Changed(t) = p {
                        assert!(!t.contains("word"), "{new:?}: {t}");
                    }
                }
            }
            assert!(b.contains(sign), "{new:?}: {b}");
            assert!(
                a.chars().count() < 120 && b.chars().count() < 120,
                "{a}\n{b}"
            );
        }
        assert!(changed_whitespace(&body, &body).is_none());
        assert!(changed_whitespace(&body, &body.replacen("word3", "x", 1)).is_none());
    }

    /// The context around a change starts and ends at word boundaries,
    /// whatever the length of the words the cut falls in (a URL, a
    /// word of one letter): each of its words is a whole word of the
    /// paragraph.
    #[test]
    fn context_never_starts_or_ends_inside_a_word() {
        for len in [1, 3, 7, 12, 25, 39, 41, 45, 60, 90] {
            let word = "x".repeat(len);
            let url = format!("see [Spec](https://agentskills.io/{word}specification)");
            let body = format!("{} {url} {}", long(20, 0), long(20, 100));
            for edited in [format!("{body} edit"), format!("edit {body}")] {
                let (x, y) = changed_words(&body, &edited).expect("a word diff");
                for pieces in [x, y] {
                    for p in pieces {
                        if let Piece::Same(t) = p {
                            for w in t.split_whitespace().filter(|w| *w != "…") {
                                assert!(
                                    body.split(' ').any(|b| b == w),
                                    "{len}: {w:?} cut from {t:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

//! Instruction text as paragraphs: normalization, splitting, pairing of
//! differently worded paragraphs, and word diffs for people.

use similar::{ChangeTag, TextDiff};

/// Line endings normalized (CRLF and CR become LF), trailing spaces of
/// every line removed, leading and trailing blank lines removed.
pub fn normalize(text: &str) -> String {
    // Most text needs nothing but its outer blank lines removed: one copy
    // instead of one per line.
    if !text.contains('\r') && text.split('\n').all(|l| l.len() == l.trim_end().len()) {
        return text.trim_matches('\n').to_string();
    }
    let unified = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = unified.lines().map(str::trim_end).collect();
    lines.join("\n").trim_matches('\n').to_string()
}

/// One paragraph of a piece: blank-line separated, a fenced code block kept
/// whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paragraph {
    /// Normalized text.
    pub text: String,
    /// Offset of the first and last line from the piece's first line.
    pub first_line: u32,
    /// See `first_line`.
    pub last_line: u32,
}

/// Splits `text` into paragraphs.
pub fn split(text: &str) -> Vec<Paragraph> {
    let unified = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut start = 0u32;
    let mut fence: Option<String> = None;
    let flush = |cur: &mut Vec<&str>, start: u32, end: u32, out: &mut Vec<Paragraph>| {
        let t = normalize(&cur.join("\n"));
        if !t.is_empty() {
            out.push(Paragraph {
                text: t,
                first_line: start,
                last_line: end,
            });
        }
        cur.clear();
    };
    for (i, line) in unified.split('\n').enumerate() {
        let i = i as u32;
        let trimmed = line.trim_start();
        if let Some(f) = &fence {
            cur.push(line);
            if trimmed.starts_with(f.as_str()) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            if cur.is_empty() {
                start = i;
            }
            fence = Some(trimmed[..3].to_string());
            cur.push(line);
            continue;
        }
        if line.trim().is_empty() {
            if !cur.is_empty() {
                flush(&mut cur, start, i.saturating_sub(1), &mut out);
            }
            continue;
        }
        if cur.is_empty() {
            start = i;
        }
        cur.push(line);
    }
    if !cur.is_empty() {
        let end = start + cur.len() as u32 - 1;
        flush(&mut cur, start, end, &mut out);
    }
    out
}

/// True when `text` carries no instruction: only headings, horizontal
/// rules, HTML comments and blank lines.
pub fn is_cosmetic(text: &str) -> bool {
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if in_comment {
            if t.contains("-->") {
                in_comment = false;
            }
            continue;
        }
        if t.is_empty() || t.starts_with('#') || is_rule(t) {
            continue;
        }
        if t.starts_with("<!--") {
            in_comment = !t.contains("-->");
            continue;
        }
        return false;
    }
    true
}

/// True when `t` is a horizontal rule: at least three of one of `-`, `*`
/// and `_`, and nothing else but whitespace. Allocates nothing: it is
/// asked of nearly every line of every one-sided instruction.
fn is_rule(t: &str) -> bool {
    let mut marks = t.chars().filter(|c| !c.is_whitespace());
    let Some(mark) = marks.next().filter(|c| matches!(c, '-' | '*' | '_')) else {
        return false;
    };
    let mut count = 1usize;
    for c in marks {
        if c != mark {
            return false;
        }
        count += 1;
    }
    count >= 3
}

/// Similarity of two texts by words, 0.0 to 1.0.
pub fn similarity(a: &str, b: &str) -> f32 {
    TextDiff::from_words(a, b).ratio()
}

/// Pairs up to `min(a.len(), b.len())` paragraphs, most similar first (ties
/// by position), and returns `(index in a, index in b, similarity)`.
/// Large inputs are paired in order, without measuring similarity.
pub fn pair(a: &[&str], b: &[&str]) -> Vec<(usize, usize, f32)> {
    let n = a.len().min(b.len());
    if n == 0 {
        return Vec::new();
    }
    if a.len() * b.len() > 4_000 {
        return (0..n).map(|i| (i, i, similarity(a[i], b[i]))).collect();
    }
    let mut scored: Vec<(usize, usize, f32)> = Vec::new();
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            scored.push((i, j, similarity(x, y)));
        }
    }
    scored.sort_by(|p, q| {
        q.2.partial_cmp(&p.2)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(p.0.cmp(&q.0))
            .then(p.1.cmp(&q.1))
    });
    let mut used_a = vec![false; a.len()];
    let mut used_b = vec![false; b.len()];
    let mut out = Vec::new();
    for (i, j, s) in scored {
        if out.len() == n {
            break;
        }
        if !used_a[i] && !used_b[j] {
            used_a[i] = true;
            used_b[j] = true;
            out.push((i, j, s));
        }
    }
    out.sort_by_key(|p| (p.0, p.1));
    out
}

/// A word diff of `a` to `b`: `[-removed-]` and `{+added+}` inline, at most
/// about 600 characters.
pub fn word_diff(a: &str, b: &str) -> String {
    let diff = TextDiff::from_words(a, b);
    let mut out = String::new();
    let mut last: Option<ChangeTag> = None;
    for change in diff.iter_all_changes() {
        let tag = change.tag();
        if last != Some(tag) {
            match last {
                Some(ChangeTag::Delete) => out.push_str("-]"),
                Some(ChangeTag::Insert) => out.push_str("+}"),
                _ => {}
            }
            match tag {
                ChangeTag::Delete => out.push_str("[-"),
                ChangeTag::Insert => out.push_str("{+"),
                ChangeTag::Equal => {}
            }
            last = Some(tag);
        }
        out.push_str(change.value());
        if out.len() > 600 {
            break;
        }
    }
    match last {
        Some(ChangeTag::Delete) => out.push_str("-]"),
        Some(ChangeTag::Insert) => out.push_str("+}"),
        _ => {}
    }
    if out.len() > 600 {
        let mut cut = 600;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_line_endings_and_edges() {
        assert_eq!(normalize("\r\n\r\na  \r\nb\r\n\n"), "a\nb");
        assert_eq!(normalize("a\rb"), "a\nb");
    }

    #[test]
    fn the_shortcut_for_clean_text_gives_the_same_result() {
        let slow = |t: &str| {
            let u = t.replace("\r\n", "\n").replace('\r', "\n");
            let lines: Vec<&str> = u.lines().map(str::trim_end).collect();
            lines.join("\n").trim_matches('\n').to_string()
        };
        for t in [
            "",
            "\n",
            "a",
            "\n\na\nb\n\n",
            "a\n\n\nb",
            "a \nb",
            "a\u{a0}\nb",
            "a\t",
            "\n \n",
            "a\r\nb",
        ] {
            assert_eq!(normalize(t), slow(t), "{t:?}");
        }
    }

    #[test]
    fn splits_on_blank_lines_keeping_fences_whole() {
        let p = split("\n# T\n\nx\ny\n\n```sh\na\n\nb\n```\nz\n");
        let texts: Vec<&str> = p.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["# T", "x\ny", "```sh\na\n\nb\n```\nz"]);
        assert_eq!((p[1].first_line, p[1].last_line), (3, 4));
        assert_eq!(p[2].first_line, 6);
    }

    #[test]
    fn cosmetic_text() {
        assert!(is_cosmetic("# Title\n\n---\n<!-- note\nmore -->"));
        assert!(!is_cosmetic("# Title\nRun tests."));
    }

    #[test]
    fn pairs_most_similar_first() {
        let a = ["Run the tests before pushing.", "Use tabs."];
        let b = ["Use tabs, always.", "Run all tests before you push."];
        let p = pair(&a, &b);
        assert_eq!(
            p.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>(),
            [(0, 1), (1, 0)]
        );
        let d = word_diff("Run tests before pushing.", "Run all tests before pushing.");
        assert!(d.contains("{+all +}"), "{d}");
    }
}

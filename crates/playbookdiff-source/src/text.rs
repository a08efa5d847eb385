//! Decoded text files with line lookup, and their parsed forms, each
//! computed once per file and shared by every compilation that reads it.

use crate::markdown::{FrontMatter, MarkdownScan};
use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, OnceLock};

/// A file's text with its line table.
///
/// `text` is the file decoded as UTF-8, invalid sequences replaced by
/// U+FFFD (then `invalid_utf8` is true). Offsets are byte offsets into
/// `text`; lines are 1-based.
#[derive(Debug, Clone)]
pub struct TextFile {
    /// The decoded text.
    pub text: String,
    /// Size of the file on disk in bytes.
    pub bytes: u64,
    /// True when the file was not valid UTF-8.
    pub invalid_utf8: bool,
    /// The 1-based line of the first byte that is not valid UTF-8.
    invalid_line: Option<u32>,
    line_starts: Vec<usize>,
    parsed: Arc<Parsed>,
}

/// Parse results, each computed at most once.
#[derive(Debug, Default)]
struct Parsed {
    front_matter: OnceLock<Option<FrontMatter>>,
    markdown: Mutex<Vec<(usize, Arc<MarkdownScan>)>>,
    /// Adapter-specific parses, one per type ([`TextFile::parsed_as`]).
    other: Mutex<Vec<(TypeId, Arc<dyn Any + Send + Sync>)>>,
}

impl TextFile {
    /// Decodes `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let (text, invalid_utf8, invalid_line) = match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_string(), false, None),
            Err(e) => {
                let newlines = bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count();
                (
                    String::from_utf8_lossy(bytes).into_owned(),
                    true,
                    Some(u32::try_from(newlines + 1).unwrap_or(u32::MAX)),
                )
            }
        };
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        TextFile {
            text,
            bytes: bytes.len() as u64,
            invalid_utf8,
            invalid_line,
            line_starts,
            parsed: Arc::default(),
        }
    }

    /// The 1-based line of the first byte that is not valid UTF-8, `None`
    /// for valid UTF-8.
    pub fn invalid_utf8_line(&self) -> Option<u32> {
        self.invalid_line
    }

    /// The YAML front matter ([`crate::markdown::front_matter`]), parsed
    /// once.
    pub fn front_matter(&self) -> Option<&FrontMatter> {
        self.parsed
            .front_matter
            .get_or_init(|| crate::markdown::front_matter(&self.text))
            .as_ref()
    }

    /// The Markdown scan of the text from byte `body_start` on
    /// ([`crate::markdown::scan`]: import tokens, glued look-alikes and
    /// block-level HTML comments, offsets relative to `body_start`),
    /// parsed once per start.
    pub fn markdown(&self, body_start: usize) -> Arc<MarkdownScan> {
        let mut cache = self
            .parsed
            .markdown
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some((_, t)) = cache.iter().find(|(s, _)| *s == body_start) {
            return t.clone();
        }
        let body = self.text.get(body_start..).unwrap_or("");
        let t = Arc::new(crate::markdown::scan(body));
        cache.push((body_start, t.clone()));
        t
    }

    /// An adapter's own parse of this text (e.g. front matter read the way
    /// one harness reads it), computed by `parse` on first use and shared
    /// by every later caller asking for the same type `T`, clones of this
    /// file included. `parse` receives the decoded text.
    pub fn parsed_as<T: Any + Send + Sync>(&self, parse: impl FnOnce(&str) -> T) -> Arc<T> {
        let id = TypeId::of::<T>();
        {
            let cache = self.parsed.other.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(v) = cache.iter().find(|(t, _)| *t == id) {
                if let Ok(v) = v.1.clone().downcast::<T>() {
                    return v;
                }
            }
        }
        // Parsed outside the lock: a parse never waits for another file's.
        let v = Arc::new(parse(&self.text));
        let mut cache = self.parsed.other.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = cache.iter().find(|(t, _)| *t == id) {
            if let Ok(found) = found.1.clone().downcast::<T>() {
                return found;
            }
        }
        cache.push((id, v.clone()));
        v
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> u32 {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }

    /// The number of lines (a final line without newline counts; an empty
    /// file has 0).
    pub fn line_count(&self) -> u32 {
        if self.text.is_empty() {
            0
        } else if self.text.ends_with('\n') {
            self.line_starts.len() as u32 - 1
        } else {
            self.line_starts.len() as u32
        }
    }

    /// The 1-based inclusive line range of bytes `start..end` (`end`
    /// exclusive); a trailing newline does not open a new line.
    pub fn lines_of(&self, start: usize, end: usize) -> (u32, u32) {
        let first = self.line_of(start);
        let last_byte = if end > start { end - 1 } else { start };
        (first, self.line_of(last_byte).max(first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_one_based() {
        let t = TextFile::from_bytes(b"a\nb\nc");
        assert_eq!(t.line_of(0), 1);
        assert_eq!(t.line_of(2), 2);
        assert_eq!(t.line_of(4), 3);
        assert_eq!(t.line_count(), 3);
        assert_eq!(t.lines_of(0, 4), (1, 2));
    }

    #[test]
    fn invalid_utf8_is_flagged() {
        let t = TextFile::from_bytes(b"ok \xff\xfe");
        assert!(t.invalid_utf8);
        assert!(t.text.contains('\u{FFFD}'));
    }
}

#[cfg(test)]
mod parse_once_tests {
    use super::*;

    #[test]
    fn parses_are_computed_once_and_shared_by_clones() {
        let t = TextFile::from_bytes(b"---\nname: x\n---\nSee @a.md\n");
        let fm1 = t.front_matter().unwrap() as *const FrontMatter;
        let copy = t.clone();
        let fm2 = copy.front_matter().unwrap() as *const FrontMatter;
        assert_eq!(fm1, fm2);
        let a = t.markdown(0);
        let b = copy.markdown(0);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.imports.len(), 1);
        let n1 = t.parsed_as(|s| s.len());
        let n2 = copy.parsed_as(|_| 0usize);
        assert!(Arc::ptr_eq(&n1, &n2));
    }
}

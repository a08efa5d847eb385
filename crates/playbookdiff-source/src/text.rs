//! Decoded text files with line lookup.

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
    line_starts: Vec<usize>,
}

impl TextFile {
    /// Decodes `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let (text, invalid_utf8) = match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_string(), false),
            Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
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
            line_starts,
        }
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

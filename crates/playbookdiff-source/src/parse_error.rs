//! The one shape of a parse error in the analysed files.

use playbookdiff_model::SourceRef;

/// A file (JSON, JSONC, YAML front matter) that does not parse: the
/// parser's message, without its position, and the 1-based line of the
/// error in the file when the parser names one. JSON and JSONC parsers
/// always name a line; the YAML parser does not for every error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The parser's message, in its words.
    pub message: String,
    /// The 1-based line of the error in the file, when known.
    pub line: Option<u32>,
}

impl ParseError {
    /// An error with `message` on the 1-based line `line`.
    pub fn on_line(message: impl Into<String>, line: u32) -> Self {
        ParseError {
            message: message.into(),
            line: Some(line),
        }
    }

    /// The same error with its line moved by `offset` lines: a line
    /// within an embedded block becomes a line of the file that holds it.
    pub fn shifted(self, offset: u32) -> Self {
        ParseError {
            line: self.line.map(|l| l + offset),
            ..self
        }
    }

    /// `source` narrowed to the error's line when it is known.
    pub fn at_line(&self, source: SourceRef) -> SourceRef {
        match self.line {
            Some(l) => source.with_lines(l, l),
            None => source,
        }
    }
}

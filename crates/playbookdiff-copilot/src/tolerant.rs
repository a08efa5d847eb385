//! The error-tolerant JSONC reading of Copilot CLI's user configuration
//! files, by the releases that read them with `jsonc-parser`'s `parse`
//! ([`crate::profile::UserJson::Tolerant`]).
//!
//! 1.0.24 `app.js` (the config store's reader) parses the file with that
//! parser's `parse` and no options, and takes the result when it is an
//! object; otherwise it reads the text as `key=value` lines. That parser
//! never stops at an error: it reports it, skips tokens to a point where
//! it can go on, and keeps every value it had read. This module is a
//! reader written for that recovery, rule by rule, and tested row by row
//! against what the agent started (cases `oracle.copilot_user_mcp_json.*`
//! and `fuzz.copilot.home.8`):
//!
//! - comments (`//`, `/* */`) are skipped; a word that is not `true`,
//!   `false` or `null` (an unquoted key, a stray letter) is skipped as a
//!   token of its own;
//! - a comma before `}` or `]` is passed over;
//! - a missing comma between two members is passed over;
//! - a member whose key is not a string skips the tokens up to the next
//!   `,` or `}`; one whose colon or value is missing is left out;
//! - the end of the text closes every open object and array, keeping what
//!   they hold; a string cut by a line end or the end of the text keeps
//!   its characters so far;
//! - the first value is the result; anything after it is an error.
//!
//! The strict reading of later releases is [`crate::json::parse`]'s.

use playbookdiff_adapter::jsonc::{LineIndex, Spans};
use playbookdiff_source::ParseError;
use serde_json::{Map, Number, Value};

/// What the tolerant reading of a text gave.
#[derive(Debug, PartialEq)]
pub(crate) struct Read {
    /// The value read; `None` when the text holds no value.
    pub value: Option<Value>,
    /// The 1-based lines (first, last) of the members up to `max_depth`
    /// deep, keyed by their key path.
    pub spans: Spans,
    /// The first error met, with its 1-based line; `None` for valid JSONC.
    pub error: Option<ParseError>,
}

/// Reads `text` as `jsonc-parser`'s `parse` does (see the module), with
/// the lines of the members up to `max_depth` keys deep.
pub(crate) fn parse(text: &str, max_depth: usize) -> Read {
    let mut p = Parser {
        lexer: Lexer::new(text),
        lines: LineIndex::new(text),
        path: Vec::new(),
        spans: Spans::new(),
        max_depth,
        error: None,
    };
    p.next();
    let value = if p.lexer.token == Token::Eof {
        p.fail("value expected");
        None
    } else {
        let v = p.value();
        if v.is_none() {
            p.fail("value expected");
        } else if p.lexer.token != Token::Eof {
            p.fail("end of file expected");
        }
        v
    };
    Read {
        value,
        spans: p.spans,
        error: p.error,
    }
}

/// The text read as `key=value` lines, as 1.0.24 reads a configuration
/// file whose JSONC value is not an object: each line split at `=`, the
/// first two parts trimmed, kept when both are non-empty (a later line
/// wins).
pub(crate) fn key_value_lines(text: &str) -> Map<String, Value> {
    let mut out = Map::new();
    for line in text.split('\n') {
        let mut parts = line.split('=').map(str::trim);
        if let (Some(k), Some(v)) = (parts.next(), parts.next()) {
            if !k.is_empty() && !v.is_empty() {
                out.insert(k.to_string(), Value::String(v.to_string()));
            }
        }
    }
    out
}

/// One token of the text.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    OpenBrace,
    CloseBrace,
    OpenBracket,
    CloseBracket,
    Comma,
    Colon,
    Null,
    True,
    False,
    /// A string's value (escapes read).
    Str(String),
    /// A number as written.
    Number(String),
    Eof,
}

/// The scanner: the current token, its byte offset, the end of the token
/// before it, and the first problem of the token scanned last.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    last_end: usize,
    token: Token,
    offset: usize,
    problem: Option<&'static str>,
}

/// White space the scanner skips besides line ends: space and tab only
/// (1.0.24 `app.js`, the bundled scanner; any other space, a byte order
/// mark too, is part of an unknown word).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t')
}

/// Line ends: line feed and carriage return.
fn is_line_end(c: char) -> bool {
    matches!(c, '\n' | '\r')
}

/// Characters that end a word (an unknown token).
fn ends_word(c: char) -> bool {
    is_space(c) || is_line_end(c) || matches!(c, '{' | '}' | '[' | ']' | '"' | ':' | ',' | '/')
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            text,
            pos: 0,
            last_end: 0,
            token: Token::Eof,
            offset: 0,
            problem: None,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Scans the next token that is not white space, a comment or an
    /// unknown word; the problems met on the way, the first first.
    fn scan(&mut self) -> Vec<(&'static str, usize)> {
        let mut problems = Vec::new();
        self.last_end = self.pos;
        loop {
            self.problem = None;
            self.offset = self.pos;
            match self.one() {
                Some(t) => {
                    if let Some(p) = self.problem {
                        problems.push((p, self.offset));
                    }
                    self.token = t;
                    return problems;
                }
                None => {
                    if let Some(p) = self.problem {
                        problems.push((p, self.offset));
                    }
                }
            }
        }
    }

    /// One token from `pos`; `None` for trivia or an unknown word.
    fn one(&mut self) -> Option<Token> {
        let Some(c) = self.bump() else {
            // A fault at the end is named on the text's last line.
            self.offset = self.text.trim_end_matches([' ', '\t', '\n', '\r']).len();
            return Some(Token::Eof);
        };
        let t = match c {
            c if is_space(c) || is_line_end(c) => return None,
            '{' => Token::OpenBrace,
            '}' => Token::CloseBrace,
            '[' => Token::OpenBracket,
            ']' => Token::CloseBracket,
            ',' => Token::Comma,
            ':' => Token::Colon,
            '"' => Token::Str(self.string()),
            '/' if self.peek() == Some('/') => {
                while self.peek().is_some_and(|c| !is_line_end(c)) {
                    self.bump();
                }
                return None;
            }
            '/' if self.peek() == Some('*') => {
                self.bump();
                match self.text[self.pos..].find("*/") {
                    Some(i) => self.pos += i + 2,
                    None => {
                        self.pos = self.text.len();
                        self.problem = Some("unexpected end of comment");
                    }
                }
                return None;
            }
            '-' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => {
                self.problem = Some("invalid symbol");
                return None;
            }
            '-' | '0'..='9' => Token::Number(self.number()),
            _ => {
                if !ends_word(c) {
                    while self.peek().is_some_and(|c| !ends_word(c)) {
                        self.bump();
                    }
                }
                match &self.text[self.offset..self.pos] {
                    "true" => Token::True,
                    "false" => Token::False,
                    "null" => Token::Null,
                    _ => {
                        self.problem = Some("invalid symbol");
                        return None;
                    }
                }
            }
        };
        Some(t)
    }

    /// The rest of a string after its `"`: cut at a line end or the end
    /// of the text (kept so far), an unknown escape left out.
    fn string(&mut self) -> String {
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                self.problem = Some("unexpected end of string");
                return out;
            };
            if is_line_end(c) {
                self.problem = Some("unexpected end of string");
                return out;
            }
            self.bump();
            match c {
                '"' => return out,
                '\\' => self.escape(&mut out),
                c => {
                    if (c as u32) < 0x20 {
                        self.problem.get_or_insert("invalid character");
                    }
                    out.push(c);
                }
            }
        }
    }

    /// One escape after its `\`, appended to `out`.
    fn escape(&mut self, out: &mut String) {
        let Some(e) = self.bump() else {
            self.problem = Some("unexpected end of string");
            return;
        };
        let c = match e {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let digits: String = self.text[self.pos..]
                    .chars()
                    .take(4)
                    .take_while(char::is_ascii_hexdigit)
                    .collect();
                self.pos += digits.len();
                match u32::from_str_radix(&digits, 16) {
                    Ok(n) if digits.len() == 4 => char::from_u32(n).unwrap_or('\u{fffd}'),
                    _ => {
                        self.problem.get_or_insert("invalid unicode escape");
                        return;
                    }
                }
            }
            _ => {
                self.problem.get_or_insert("invalid escape character");
                return;
            }
        };
        out.push(c);
    }

    /// A number from its first character (read): digits, a fraction and
    /// an exponent, as far as they are well formed.
    fn number(&mut self) -> String {
        let start = self.offset;
        let digits = |l: &mut Self| {
            while l.peek().is_some_and(|c| c.is_ascii_digit()) {
                l.bump();
            }
        };
        let first = &self.text[start..self.pos];
        if first == "-" {
            if self.bump() != Some('0') {
                digits(self);
            }
        } else if first != "0" {
            digits(self);
        }
        if self.peek() == Some('.') {
            self.bump();
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.problem = Some("unexpected end of number");
                return self.text[start..self.pos].to_string();
            }
            digits(self);
        }
        let end = self.pos;
        if matches!(self.peek(), Some('e' | 'E')) {
            self.bump();
            if matches!(self.peek(), Some('+' | '-')) {
                self.bump();
            }
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                digits(self);
                return self.text[start..self.pos].to_string();
            }
            self.problem = Some("unexpected end of number");
        }
        self.text[start..end].to_string()
    }
}

/// The parser over [`Lexer`], building the value as it goes.
struct Parser<'a> {
    lexer: Lexer<'a>,
    lines: LineIndex,
    path: Vec<String>,
    spans: Spans,
    max_depth: usize,
    error: Option<ParseError>,
}

impl Parser<'_> {
    /// Moves to the next token, keeping the first problem.
    fn next(&mut self) {
        for (p, at) in self.lexer.scan() {
            self.note(p, at);
        }
    }

    fn note(&mut self, message: &str, at: usize) {
        if self.error.is_none() {
            self.error = Some(ParseError::on_line(message, self.lines.line(at)));
        }
    }

    /// A parse error at the current token.
    fn fail(&mut self, message: &str) {
        self.note(message, self.lexer.offset);
    }

    /// A parse error, then tokens skipped up to one of `until` (not
    /// taken).
    fn skip_to(&mut self, message: &str, until: &[Token]) {
        self.fail(message);
        while self.lexer.token != Token::Eof && !until.contains(&self.lexer.token) {
            self.next();
        }
    }

    /// The value at the current token; `None` (nothing taken) when the
    /// token starts none.
    fn value(&mut self) -> Option<Value> {
        let v = match self.lexer.token.clone() {
            Token::OpenBrace => return Some(self.object()),
            Token::OpenBracket => return Some(self.array()),
            Token::Str(s) => Value::String(s),
            Token::Null => Value::Null,
            Token::True => Value::Bool(true),
            Token::False => Value::Bool(false),
            Token::Number(n) => match n.parse::<f64>().ok().filter(|_| !n.ends_with('.')) {
                Some(f) => number(f),
                None => {
                    self.fail("invalid number format");
                    Value::from(0)
                }
            },
            _ => return None,
        };
        self.next();
        Some(v)
    }

    /// An object from its `{`.
    fn object(&mut self) -> Value {
        let mut out = Map::new();
        self.next();
        let mut needs_comma = false;
        while !matches!(self.lexer.token, Token::CloseBrace | Token::Eof) {
            self.separator(needs_comma);
            if !self.member(&mut out) {
                self.skip_to("value expected", &[Token::CloseBrace, Token::Comma]);
            }
            needs_comma = true;
        }
        if self.lexer.token == Token::CloseBrace {
            self.next();
        } else {
            self.fail("close brace expected");
        }
        Value::Object(out)
    }

    /// The comma before a member or element: passed over, and a fault
    /// noted where none was due (`value expected`, a leading or doubled
    /// comma) or one is missing (`comma expected`), as `jsonc-parser` does.
    fn separator(&mut self, needs_comma: bool) {
        if self.lexer.token == Token::Comma {
            if !needs_comma {
                self.fail("value expected");
            }
            self.next();
        } else if needs_comma {
            self.fail("comma expected");
        }
    }

    /// One member into `out`; `false` when the token is not a key.
    fn member(&mut self, out: &mut Map<String, Value>) -> bool {
        let Token::Str(key) = self.lexer.token.clone() else {
            self.skip_to("property name expected", &[Token::CloseBrace, Token::Comma]);
            return false;
        };
        let first = self.lines.line(self.lexer.offset);
        self.next();
        if self.lexer.token != Token::Colon {
            self.skip_to("colon expected", &[Token::CloseBrace, Token::Comma]);
            return true;
        }
        self.next();
        self.path.push(key.clone());
        match self.value() {
            Some(v) => {
                if self.path.len() <= self.max_depth {
                    let last = self.lines.line(self.lexer.last_end.saturating_sub(1));
                    self.spans
                        .insert(self.path.clone(), (first, last.max(first)));
                }
                out.insert(key, v);
            }
            None => self.skip_to("value expected", &[Token::CloseBrace, Token::Comma]),
        }
        self.path.pop();
        true
    }

    /// An array from its `[`.
    fn array(&mut self) -> Value {
        let mut out = Vec::new();
        self.next();
        let mut needs_comma = false;
        while !matches!(self.lexer.token, Token::CloseBracket | Token::Eof) {
            self.separator(needs_comma);
            match self.value() {
                Some(v) => out.push(v),
                None => self.skip_to("value expected", &[Token::CloseBracket, Token::Comma]),
            }
            needs_comma = true;
        }
        if self.lexer.token == Token::CloseBracket {
            self.next();
        } else {
            self.fail("close bracket expected");
        }
        Value::Array(out)
    }
}

/// `f` as JavaScript holds it: an integer when it is one.
fn number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        Value::from(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The servers kept from `text` and the line of its first fault.
    fn read(text: &str) -> (Option<Value>, Option<u32>) {
        let r = parse(text, 5);
        (r.value, r.error.and_then(|e| e.line))
    }

    const ENTRY: &str = r#"{"command": "npx", "args": []}"#;

    /// The table of broken `~/.copilot/mcp-config.json` files, each row
    /// the value 1.0.24 was seen to start servers from (cases
    /// `oracle.copilot_user_mcp_json.*`, `fuzz.copilot.home.8`).
    #[test]
    fn broken_inputs_keep_what_the_agent_kept() {
        let e = json!({"command": "npx", "args": []});
        // Cut after an entry, in the next key (fuzz.copilot.home.8).
        let cut = format!("{{\n  \"mcpServers\": {{\n    \"search0\": {ENTRY},\n    \"search2\"\n");
        assert_eq!(
            read(&cut),
            (Some(json!({"mcpServers": {"search0": e}})), Some(4))
        );
        // Cut inside the next entry's `args`: both kept, `args` empty.
        let inside = format!("{{\"mcpServers\": {{\n\"first\": {ENTRY},\n\"second\": {{\"command\": \"npx\", \"args\": [");
        let both = json!({"mcpServers": {"first": e, "second": e}});
        assert_eq!(read(&inside).0, Some(both.clone()));
        // Trailing commas, comments, a missing last brace, missing commas.
        let trailing =
            format!("{{\"mcpServers\": {{\"first\": {ENTRY},\n\"second\": {ENTRY},\n}},\n}}");
        assert_eq!(read(&trailing), (Some(both.clone()), Some(3)));
        let comments =
            format!("// mine\n{{ /* a */ \"mcpServers\": {{\"first\": {ENTRY} // b\n}} }}");
        assert_eq!(
            read(&comments),
            (Some(json!({"mcpServers": {"first": e}})), None)
        );
        let brace = format!("{{\"mcpServers\": {{\n\"first\": {ENTRY},\n\"second\": {ENTRY}\n");
        assert_eq!(read(&brace), (Some(both.clone()), Some(3)));
        let comma = "{\"mcpServers\": {\"first\": {\"command\": \"npx\", \"args\": []}\n\"second\": {\"command\": \"npx\"\n\"args\": []}}}";
        assert_eq!(read(comma), (Some(both), Some(2)));
        // An unquoted key: skipped to the next comma, whose member lands
        // in the top-level object (no server starts).
        let bare = "{\n  mcpServers: {\n\"first\": {\"command\": \"npx\",\n\"args\": []}}}";
        assert_eq!(read(bare), (Some(json!({"args": []})), Some(2)));
        // No value: `key=value` lines instead.
        assert_eq!(read("mcpServers=first\n"), (None, Some(1)));
        assert_eq!(
            key_value_lines("mcpServers=first\n a = b = c\n=x\ny=\n"),
            json!({"mcpServers": "first", "a": "b"})
                .as_object()
                .cloned()
                .unwrap()
        );
    }

    /// Tokens: keywords, numbers as far as they are well formed, strings
    /// cut at a line end, unknown words and escapes dropped.
    #[test]
    fn tokens_as_the_scanner_reads_them() {
        assert_eq!(
            read("[true, false, null, -1, 2.5e1, 1e3]").0,
            Some(json!([true, false, null, -1, 25, 1000]))
        );
        assert_eq!(
            read("[1., 01, truex, 'a']"),
            (Some(json!([0, 0, 1])), Some(1))
        );
        assert_eq!(read("{\"a\": \"x\ny\"}").0, Some(json!({"a": "x"})));
        assert_eq!(
            read(r#"["\u0041\q\u00e9", "\uZZ"]"#).0,
            Some(json!(["Aé", "ZZ"]))
        );
        assert_eq!(read("\u{feff}{\"a\": 1}").0, Some(json!({"a": 1})));
        assert_eq!(
            read("{\"a\": 1} {\"b\": 2}"),
            (Some(json!({"a": 1})), Some(1))
        );
        assert_eq!(read("  "), (None, Some(1)));
        assert_eq!(read("{\"a\" 1, \"b\": 2}").0, Some(json!({"b": 2})));
        assert_eq!(read("{\"a\": 1, \"a\": 2}").0, Some(json!({"a": 2})));
    }

    /// Members have the lines of their key and value.
    #[test]
    fn spans_of_members() {
        let r = parse("{\n\"a\": {\n\"b\": 1\n}\n}", 5);
        assert_eq!(r.spans.get(&vec!["a".to_string()]), Some(&(2, 4)));
        assert_eq!(
            r.spans.get(&vec!["a".to_string(), "b".to_string()]),
            Some(&(3, 3))
        );
    }
}

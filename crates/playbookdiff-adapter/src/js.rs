//! Text as the JavaScript agents (Claude Code, Gemini CLI, Copilot CLI,
//! OpenCode) see it, where it differs from Rust's standard library.

/// `s` without leading and trailing white space as JavaScript's
/// `String.prototype.trim` sees it: Unicode white space and line ends, and
/// also U+FEFF, so a byte order mark is dropped. Rust's `str::trim` keeps
/// U+FEFF, so a file holding only a BOM would count as text (ECMAScript,
/// "WhiteSpace": U+FEFF is listed). Seen with Claude Code 2.1.197 and
/// 2.1.332 (case `compare.bom_crlf_skills`) and Gemini CLI 0.34.0 and
/// 0.61.0 (case `oracle.edge_bom_only.in-web.read-web-api-main.py`: a
/// `GEMINI.md` holding a BOM and a line end is left out as empty).
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// [`trim`] at the start only (`String.prototype.trimStart`).
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_space)
}

fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_byte_order_mark_is_white_space() {
        assert_eq!(super::trim("\u{feff}\r\n"), "");
        assert_eq!(super::trim("\u{feff} a \n"), "a");
        assert_eq!(super::trim_start("\u{feff}a "), "a ");
        assert_eq!("\u{feff}".trim(), "\u{feff}");
    }
}

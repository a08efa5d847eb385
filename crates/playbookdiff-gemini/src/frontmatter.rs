//! The front matter of the Markdown files Gemini CLI reads with
//! `FRONTMATTER_REGEX` (`packages/core/src/skills/skillLoader.ts`, shared
//! by `agentLoader.ts`; the same in 0.34.0 and 0.61.0):
//! `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/`.
//!
//! The file must start with `---` and a line break (a byte-order mark or a
//! space after the dashes is no front matter: Node reads the file as it
//! is); the first later line that *starts* with `---` closes it (`----` and
//! `--- x` close too); YAML's `...` does not.

/// The YAML text between the fences of `text`, and the 1-based line of
/// the closing fence; `None` when the regular expression does not match.
pub(crate) fn split(text: &str) -> Option<(&str, u32)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let close = rest.find("\n---")?;
    let yaml = &rest[..close];
    let end_line = 3 + yaml.matches('\n').count() as u32;
    Some((yaml.strip_suffix('\r').unwrap_or(yaml), end_line))
}

#[cfg(test)]
mod tests {
    use super::split;

    /// The cases of the regular expression: where it opens, what closes
    /// it, the line of the closing fence.
    #[test]
    fn as_the_regular_expression() {
        let cases: &[(&str, Option<(&str, u32)>)] = &[
            ("---\nname: a\n---\nbody", Some(("name: a", 3))),
            ("---\r\nname: a\r\n---\r\n", Some(("name: a", 3))),
            ("---\n\n---\n", Some(("", 3))),
            ("---\na: 1\nb: 2\n----\n", Some(("a: 1\nb: 2", 4))),
            ("---\na: 1\n--- x", Some(("a: 1", 3))),
            // The first fence closes: the lazy group.
            ("---\na: 1\n---\nb: 2\n---\n", Some(("a: 1", 3))),
            // No front matter.
            ("---\n---\n", None),
            ("\u{feff}---\na: 1\n---\n", None),
            ("--- \na: 1\n---\n", None),
            ("\n---\na: 1\n---\n", None),
            ("---\na: 1\n...\n", None),
            ("---\na: 1\n", None),
        ];
        for (text, want) in cases {
            assert_eq!(split(text), *want, "{text:?}");
        }
    }
}

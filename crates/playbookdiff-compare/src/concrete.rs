//! The concrete terms of instruction text: what a paragraph tells the
//! agent to run, use or open. Two paragraphs in the same scope whose
//! concrete terms differ give the agents different commands, tools,
//! package managers, paths or numbers (`npm test` against `pnpm test`),
//! which no rewording explains; the rest of a wording difference needs a
//! person's judgement.
//!
//! Markdown is read with `pulldown-cmark` (CommonMark), so a code span is
//! what a Markdown reader sees as one, whatever backticks surround it.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// Tool and package-manager names recognized as concrete outside code
/// spans, lower case. A prose mention of `npm` or `pnpm` tells the agent
/// which program to run as much as a code span does. Names that are also
/// common English words (make, go, just, node, black, git) count only in
/// code.
const TOOLS: &[&str] = &[
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "npx",
    "pnpx",
    "bunx",
    "deno",
    "corepack",
    "cargo",
    "rustup",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "uvx",
    "poetry",
    "pdm",
    "conda",
    "mamba",
    "python3",
    "cmake",
    "bazel",
    "gradle",
    "mvn",
    "docker",
    "podman",
    "kubectl",
    "tsc",
    "eslint",
    "prettier",
    "oxlint",
    "vitest",
    "jest",
    "pytest",
    "tox",
    "ruff",
    "mypy",
    "pyright",
    "composer",
    "dotnet",
    "xcodebuild",
];

/// The concrete terms of `text` (Markdown), in order of appearance, each
/// once: the content of every code span and every non-blank line of a code
/// block (trimmed), and outside code the words that name a known tool
/// (lower-cased), hold a digit, or look like a repository path (a `/`
/// with no `.` before the first one, like `packages/wrangler/`, or a file
/// name with an extension, like `package.json`). A web address such as
/// `claude.ai/code` is not a path.
pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let push = |t: String, out: &mut Vec<String>| {
        if !t.is_empty() && !out.contains(&t) {
            out.push(t);
        }
    };
    let mut in_block = false;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_block = true,
            Event::End(TagEnd::CodeBlock) => in_block = false,
            Event::Code(code) => push(code.trim().to_string(), &mut out),
            Event::Text(t) if in_block => {
                for line in t.lines() {
                    push(line.trim().to_string(), &mut out);
                }
            }
            Event::Text(t) => {
                for word in t.split_whitespace() {
                    let w = word.trim_matches(|c: char| {
                        !(c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '@'))
                    });
                    let w = w.trim_end_matches('.');
                    if w.is_empty() {
                        continue;
                    }
                    let lower = w.to_lowercase();
                    if TOOLS.contains(&lower.as_str()) {
                        push(lower, &mut out);
                    } else if w.chars().any(|c| c.is_ascii_digit()) || is_path(w) {
                        push(w.to_string(), &mut out);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// True for a word that reads as a repository path or a file name.
fn is_path(w: &str) -> bool {
    if w.contains("://") {
        return false;
    }
    if let Some(i) = w.find('/') {
        let head = &w[..i];
        return head.is_empty() || head == "." || head == ".." || !head.contains('.');
    }
    // A file name: a stem and an extension of two or more letters
    // (`package.json`, `.env.local`), not an abbreviation (`e.g`).
    match w.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && ext.len() >= 2
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// Where two paragraphs give the agent different concrete terms: the first
/// term of `a` that `b` lacks and the first of `b` that `a` lacks (either
/// may be absent when one side only adds terms), or `None` when both carry
/// the same terms.
pub fn change(a: &str, b: &str) -> Option<(Option<String>, Option<String>)> {
    let (ta, tb) = (terms(a), terms(b));
    let only_a = ta.iter().find(|t| !tb.contains(t)).cloned();
    let only_b = tb.iter().find(|t| !ta.contains(t)).cloned();
    if only_a.is_none() && only_b.is_none() {
        None
    } else {
        Some((only_a, only_b))
    }
}

/// True when `text` tells the agent nothing concrete: no code, no tool,
/// no number, no path, and at most 60 words (one or two sentences about
/// the file itself, such as "This file provides guidance to … when
/// working with code in this repository.").
pub fn is_boilerplate(text: &str) -> bool {
    text.split_whitespace().count() <= 60 && terms(text).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_of_commands_tools_paths_and_numbers() {
        assert_eq!(
            terms("Run the wrangler tests with `npm test`."),
            ["npm test"]
        );
        assert_eq!(
            terms(
                "Use pnpm; never use npm or yarn. Node.js >= 20, see docs/ops.md and package.json."
            ),
            [
                "pnpm",
                "npm",
                "yarn",
                "Node.js",
                "20",
                "docs/ops.md",
                "package.json"
            ]
        );
        assert_eq!(
            terms("```sh\npnpm install\n\npnpm build\n```"),
            ["pnpm install", "pnpm build"]
        );
        assert!(terms("This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.").is_empty());
        assert!(terms("Keep answers short, e.g. one line.").is_empty());
        assert!(terms("Make sure the tests pass before you go home.").is_empty());
    }

    #[test]
    fn a_change_of_package_manager_is_concrete_and_rewording_is_not() {
        assert_eq!(
            change(
                "Run the wrangler tests with `npm test`.",
                "Run the wrangler tests with `pnpm test -F wrangler`."
            ),
            Some((
                Some("npm test".into()),
                Some("pnpm test -F wrangler".into())
            ))
        );
        assert_eq!(change("Use pnpm.", "Always use pnpm, please."), None);
        assert_eq!(
            change("Keep lines short.", "Keep lines under 100 columns."),
            Some((None, Some("100".into())))
        );
    }

    #[test]
    fn boilerplate_is_short_and_concrete_free() {
        assert!(is_boilerplate(
            "This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository."
        ));
        assert!(!is_boilerplate(
            "Always run `pnpm check` before committing."
        ));
        assert!(!is_boilerplate(&"word ".repeat(61)));
    }
}

//! `check --format markdown`: a compact report for a pull-request comment,
//! one table per category, detail collapsed in `<details>`.
//!
//! Text from the repository is escaped for GitHub-flavoured Markdown: a
//! name or path cannot end its code span, break the table, or inject
//! emphasis, links, images or HTML into the comment.

use crate::check_text::counts;
use crate::layout::is_hidden;
use crate::report::{evidence, CheckReport, MatrixReport};
use playbookdiff_compare::{display_name, Category, Finding};
use playbookdiff_model::Harness;
use std::fmt::Write as _;

fn versus(hs: &[Harness]) -> String {
    hs.iter()
        .map(|h| display_name(*h))
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// True for the ASCII characters that can start Markdown syntax in the
/// middle of a line in GitHub-flavoured Markdown: emphasis and
/// strikethrough (`*`, `_`, `~`), links and images (`[`, `]`, `!`), code
/// (`` ` ``), HTML and autolinks (`<`, `>`, `:` of `https:`, `@` of an
/// address), references (`&`), escapes (`\\`), table cells (`|`) and
/// math (`$`). The `.` of `www.` is handled apart.
fn is_markup(c: char) -> bool {
    matches!(
        c,
        '`' | '*' | '_' | '~' | '[' | ']' | '!' | '<' | '>' | ':' | '@' | '&' | '\\' | '|' | '$'
    )
}

/// True when the `.` at byte `i` of `s` ends `www` (a GitHub autolink).
fn ends_www(s: &str, i: usize) -> bool {
    i >= 3 && s[..i].to_ascii_lowercase().ends_with("www")
}

/// The most characters of one paragraph a comment quotes; `explain`
/// shows the whole evidence.
const PARAGRAPH_CHARS: usize = 400;

/// `text` cut to [`PARAGRAPH_CHARS`] characters, ending in ` …` when cut:
/// a paragraph of thousands of characters (a whole file without blank
/// lines, a binary file read as text) would fill the comment.
fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(PARAGRAPH_CHARS) {
        Some((at, _)) => format!("{} …", text[..at].trim_end()).into(),
        None => text.into(),
    }
}

/// Where a string from the repository is written in Markdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inline {
    /// Prose or a table cell: every character of [`is_markup`] is
    /// backslash-escaped (`<`, `>` and `&` written as references), and so
    /// is the `.` of `www.`.
    Prose,
    /// An HTML `<code>` element (Markdown still applies inside it): the
    /// characters of [`is_markup`], and the `.` of `www.`, are character
    /// references (`&#42;` for `*`), which Markdown shows as literal text.
    Code,
}

/// The one escaping of text taken from the repository (names, paths,
/// reasons, quoted paragraphs) for GitHub-flavoured Markdown, as `inline`
/// says: no emphasis, link, image, autolink, HTML, code span or table
/// cell can form, whatever the text holds (backticks, `|`, `<`, `**`,
/// `[x](y)`, URLs). Line breaks become spaces, so a table row stays one
/// line; control and format characters (bidirectional overrides) are
/// shown escaped (`\u{202e}`).
pub(crate) fn escape(s: &str, inline: Inline) -> String {
    let mut out = String::with_capacity(s.len() + 13);
    if inline == Inline::Code {
        out.push_str("<code>");
    }
    for (i, c) in s.char_indices() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if is_hidden(c) => out.push_str(&c.escape_default().to_string()),
            c if is_markup(c) || (c == '.' && ends_www(s, i)) => match (inline, c) {
                (Inline::Code, c) => {
                    let _ = write!(out, "&#{};", u32::from(c));
                }
                (Inline::Prose, '<') => out.push_str("&lt;"),
                (Inline::Prose, '>') => out.push_str("&gt;"),
                (Inline::Prose, '&') => out.push_str("&amp;"),
                (Inline::Prose, c) => {
                    out.push('\\');
                    out.push(c);
                }
            },
            c => out.push(c),
        }
    }
    if inline == Inline::Code {
        out.push_str("</code>");
    }
    out
}

/// [`escape`] as prose or a table cell.
pub(crate) fn esc(s: &str) -> String {
    escape(s, Inline::Prose)
}

/// [`escape`] as inline code.
fn code(s: &str) -> String {
    escape(s, Inline::Code)
}

/// A message whose Markdown code spans (names and paths, quoted with as
/// many backticks as they need) become [`code`], the rest escaped with
/// [`esc`]. A backtick run without a closing run of the same length is
/// text, as in CommonMark.
fn message(s: &str) -> String {
    let mut out = String::new();
    let mut text = String::new();
    let mut rest = s;
    while let Some(start) = rest.find('`') {
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let after = &rest[start + run..];
        match closing_run(after, run) {
            Some(end) => {
                text.push_str(&rest[..start]);
                out.push_str(&esc(&text));
                text.clear();
                let inner = &after[..end];
                let inner = if inner.len() >= 2
                    && inner.starts_with(' ')
                    && inner.ends_with(' ')
                    && !inner.trim().is_empty()
                {
                    &inner[1..inner.len() - 1]
                } else {
                    inner
                };
                out.push_str(&code(inner));
                rest = &after[end + run..];
            }
            None => {
                text.push_str(&rest[..start + run]);
                rest = after;
            }
        }
    }
    text.push_str(rest);
    out.push_str(&esc(&text));
    out
}

/// Where in `s` the first run of exactly `n` backticks starts.
fn closing_run(s: &str, n: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let mut j = i;
            while j < b.len() && b[j] == b'`' {
                j += 1;
            }
            if j - i == n {
                return Some(i);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    None
}

fn tables(
    out: &mut String,
    findings: &[&Finding],
    hs: &[Harness],
    dirs: Option<&dyn Fn(&str) -> String>,
) {
    for cat in [
        Category::Agent,
        Category::Instruction,
        Category::Skill,
        Category::Mcp,
        Category::Hook,
        Category::Subagent,
        Category::Permission,
        Category::Guard,
    ] {
        let fs: Vec<&&Finding> = findings.iter().filter(|f| f.category == cat).collect();
        if fs.is_empty() {
            continue;
        }
        let title = match cat {
            Category::Agent => "Agents that would not start",
            Category::Guard => "The guard",
            Category::Instruction => "Instructions",
            Category::Skill => "Skills",
            Category::Mcp => "MCP servers",
            Category::Hook => "Hooks",
            Category::Subagent => "Subagents",
            Category::Permission => "Permissions",
        };
        let _ = writeln!(out, "\n### {title}\n");
        if dirs.is_some() {
            let _ = writeln!(
                out,
                "| Severity | Finding | Where | Directories |\n|---|---|---|---|"
            );
        } else {
            let _ = writeln!(out, "| Severity | Finding | Where |\n|---|---|---|");
        }
        for g in playbookdiff_compare::group::group(fs.iter().map(|f| **f)) {
            let f = g.first();
            let more = g.findings.len() - 1;
            let where_: Vec<String> = hs
                .iter()
                .filter_map(|h| {
                    evidence(f, *h, 2).map(|e| {
                        let e = if more > 0 && f.items.iter().any(|i| i.harness == *h) {
                            format!("{}, +{more} more", code(&e))
                        } else {
                            code(&e)
                        };
                        format!("{}: {e}", h.as_str())
                    })
                })
                .collect();
            let _ = write!(
                out,
                "| {}{} | {} | {} |",
                f.severity.as_str(),
                if f.accepted.is_some() {
                    " (accepted)"
                } else {
                    ""
                },
                message(&g.summary(12)),
                where_.join("<br>")
            );
            if let Some(d) = dirs {
                let _ = write!(out, " {} |", d(&f.id));
            }
            out.push('\n');
        }
    }
}

/// `; present in a, b, absent from c`, each part only when it names a
/// harness (an agent that would not start is present nowhere).
fn sides(f: &Finding) -> String {
    let ids = |hs: &[Harness]| hs.iter().map(|h| h.as_str()).collect::<Vec<_>>().join(", ");
    let mut parts = Vec::new();
    if !f.present_in.is_empty() {
        parts.push(format!("present in {}", ids(&f.present_in)));
    }
    if !f.absent_from.is_empty() {
        parts.push(format!("absent from {}", ids(&f.absent_from)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("; {}", parts.join(", "))
    }
}

fn details(out: &mut String, findings: &[&Finding]) {
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n<details><summary>Details: ids, evidence and fixes</summary>\n"
    );
    for f in findings {
        let _ = writeln!(out, "#### {}\n", code(&f.id));
        let _ = writeln!(
            out,
            "- {} {} {}{}",
            f.severity.as_str(),
            f.category.as_str(),
            f.kind.as_str(),
            sides(f)
        );
        if let Some(a) = &f.accepted {
            let _ = writeln!(out, "- accepted in playbookdiff.toml: {}", esc(&a.reason));
        }
        let mut lines: Vec<String> = Vec::new();
        for i in &f.items {
            let line = format!(
                "- {} {}: {}",
                i.harness.as_str(),
                code(&crate::text::location(&i.source)),
                message(&i.reason)
            );
            if lines.len() < 6 && !lines.contains(&line) {
                lines.push(line);
            }
        }
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
        for a in &f.absences {
            let _ = writeln!(
                out,
                "- {} lacks it: {}",
                a.harness.as_str(),
                message(&a.reason)
            );
        }
        for d in &f.differences {
            let vals: Vec<String> = d
                .values
                .iter()
                .map(|v| {
                    format!(
                        "{} {}",
                        v.harness.as_str(),
                        code(v.value.as_deref().unwrap_or("(not set)"))
                    )
                })
                .collect();
            let _ = writeln!(out, "- {}: {}", code(&d.field), vals.join(" vs "));
        }
        for p in f.paragraphs.iter().take(5) {
            if let Some(d) = &p.diff {
                let _ = writeln!(out, "- reworded: {}", esc(&excerpt(d)));
            } else if let Some(s) = p.sides.first() {
                let _ = writeln!(
                    out,
                    "- only {}: {}",
                    s.harness.as_str(),
                    esc(&excerpt(&s.text))
                );
            }
        }
        for r in &f.remedies {
            let _ = writeln!(
                out,
                "- fix for {}: {}",
                display_name(r.harness),
                message(&r.action)
            );
        }
        out.push('\n');
    }
    let _ = writeln!(out, "</details>");
}

/// GitHub's limit on the body of a comment, in characters.
pub const COMMENT_LIMIT: usize = 65_536;

/// `render(n)` for the largest `n <= total` whose output fits in
/// [`COMMENT_LIMIT`] characters (at least `render(0)`).
pub(crate) fn fit(total: usize, render: impl Fn(usize) -> String) -> String {
    let all = render(total);
    if all.chars().count() <= COMMENT_LIMIT {
        return all;
    }
    let (mut lo, mut hi) = (0, total);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if render(mid).chars().count() <= COMMENT_LIMIT {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    render(lo)
}

/// The sentence under a report cut to fit a comment.
fn more(out: &mut String, hidden: usize, all_dirs: bool) {
    if hidden > 0 {
        let _ = writeln!(
            out,
            "\n**{hidden} more finding{} not shown, see the JSON**: <code>playbookdiff check{} --format json</code> lists every one.",
            if hidden == 1 { "" } else { "s" },
            if all_dirs { " --all-dirs" } else { "" }
        );
    }
}

/// The problems in the repository that fail the run on their own
/// ([`crate::report::Gate::problems`]): what and where, so a comment says
/// why the check failed when no finding does.
fn failing_problems(out: &mut String, gate: &crate::report::Gate) {
    if gate.problems.is_empty() {
        return;
    }
    let n = gate.problems.len();
    let _ = writeln!(
        out,
        "\n**{n} problem{} in the repository fail{} the run** (an agent drops or refuses configuration):\n",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" }
    );
    for p in &gate.problems {
        let at = p
            .source
            .as_ref()
            .map(|s| format!(" in {}", code(s.path.as_str())))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "- {} ({}){at}: {}",
            code(p.code.as_str()),
            p.severity.as_str(),
            message(&p.message)
        );
    }
}

/// The accepted ids that no longer occur.
fn stale(out: &mut String, gate: &crate::report::Gate) {
    if gate.stale.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nAccepted in <code>playbookdiff.toml</code> but no longer found (remove these entries):\n"
    );
    for a in &gate.stale {
        let _ = writeln!(out, "- {}: {}", code(&a.id), esc(&a.reason));
    }
}

/// The Markdown report of one context, at most [`COMMENT_LIMIT`]
/// characters: when every finding does not fit, the first ones (in
/// report order: category, then severity) and how many more there are.
pub fn check_markdown(r: &CheckReport<'_>) -> String {
    fit(r.comparison.findings.len(), |n| check_markdown_first(r, n))
}

fn check_markdown_first(r: &CheckReport<'_>, shown: usize) -> String {
    let hs = r.harnesses();
    let mut out = String::new();
    let s = &r.comparison.summary;
    let _ = writeln!(out, "## PlaybookDiff: {}\n", esc(&versus(&hs)));
    let _ = writeln!(
        out,
        "Launched in {}{}, {} mode: **{}**.",
        code(r.context.cwd.as_str()),
        r.context
            .target_path
            .as_ref()
            .map(|t| format!(", target {}", code(t.as_str())))
            .unwrap_or_default(),
        r.context.mode.as_str(),
        counts(s)
    );
    failing_problems(&mut out, r.gate);
    stale(&mut out, r.gate);
    if r.comparison.findings.is_empty() {
        let _ = writeln!(
            out,
            "\nNo compatibility findings: the harnesses compared receive the same configuration."
        );
        return out;
    }
    let fs: Vec<&Finding> = r.comparison.findings.iter().take(shown).collect();
    tables(&mut out, &fs, &hs, None);
    details(&mut out, &fs);
    more(&mut out, r.comparison.findings.len() - fs.len(), false);
    let _ = writeln!(
        out,
        "\n<sub>Run <code>playbookdiff explain ID</code> with the same options for the evidence and a fix.</sub>"
    );
    out
}

/// The Markdown report of every launch directory, at most
/// [`COMMENT_LIMIT`] characters (see [`check_markdown`]).
pub fn matrix_markdown(r: &MatrixReport<'_>) -> String {
    fit(r.matrix.findings.len(), |n| matrix_markdown_first(r, n))
}

fn matrix_markdown_first(r: &MatrixReport<'_>, shown: usize) -> String {
    let hs = r.harnesses();
    let mut out = String::new();
    let m = r.matrix;
    let total = m.directories.len();
    let _ = writeln!(
        out,
        "## PlaybookDiff: {} in every launch directory\n",
        esc(&versus(&hs))
    );
    let _ = writeln!(
        out,
        "{} checked, {} mode: **{}** (each counted once).",
        playbookdiff_model::remedy::count(total, "launch directory", "launch directories"),
        r.context.mode.as_str(),
        counts(&m.summary)
    );
    failing_problems(&mut out, r.gate);
    stale(&mut out, r.gate);
    if m.groups.is_empty() {
        let _ = writeln!(out, "\nNo compatibility findings in any launch directory.");
        return out;
    }
    let _ = writeln!(out, "\n| Severity | Directories | What |\n|---|---|---|");
    for g in m.groups.iter().take(shown.max(1)) {
        let _ = writeln!(
            out,
            "| {} | {} of {total} | {} |",
            g.severity.as_str(),
            g.directories.len(),
            message(&g.summary)
        );
    }
    let fs: Vec<&Finding> = m.findings.iter().take(shown).map(|f| &f.finding).collect();
    let by_id: std::collections::HashMap<&str, &playbookdiff_compare::matrix::MatrixFinding> = m
        .findings
        .iter()
        .map(|f| (f.finding.id.as_str(), f))
        .collect();
    let dirs = |id: &str| {
        by_id
            .get(id)
            .map(|f| {
                let shown: Vec<String> = f
                    .directories
                    .iter()
                    .take(3)
                    .map(|d| code(d.as_str()))
                    .collect();
                let more = f.directories.len().saturating_sub(3);
                if more > 0 {
                    format!("{} +{more}", shown.join(" "))
                } else {
                    shown.join(" ")
                }
            })
            .unwrap_or_default()
    };
    let mut body = String::new();
    tables(&mut body, &fs, &hs, Some(&dirs));
    details(&mut body, &fs);
    let _ = writeln!(
        out,
        "\n<details><summary>Every finding</summary>\n{body}\n</details>"
    );
    more(&mut out, m.findings.len() - fs.len(), true);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Via;
    use playbookdiff_compare::{code_span, compare};
    use playbookdiff_model::{
        AnalysisContext, Applicability, Capabilities, EffectiveAgentConfig, LoadPhase, McpServer,
        RepoPath, SourceFormat, SourceRef, Transport,
    };
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");
    const CODEX: playbookdiff_model::Harness = playbookdiff_model::Harness::new("codex", "Codex");

    #[test]
    fn repository_text_cannot_break_the_table_or_inject_markup() {
        assert_eq!(esc("a|b<script>*x*"), "a\\|b&lt;script&gt;\\*x\\*");
        assert_eq!(code("a|b</code>"), "<code>a&#124;b&#60;/code&#62;</code>");
        assert_eq!(
            message("see `x|y` and *z*"),
            "see <code>x&#124;y</code> and \\*z\\*"
        );
        assert!(!esc("line\nbreak").contains('\n'));
    }

    #[test]
    fn a_name_with_backticks_stays_one_code_span() {
        for name in ["a`b", "`a", "b`", "a``b`c", "```"] {
            let m = message(&format!("MCP server {} is missing.", code_span(name)));
            assert_eq!(m.matches("<code>").count(), 1, "{name}: {m}");
            assert!(m.starts_with("MCP server <code>"), "{name}: {m}");
            assert!(m.ends_with("</code> is missing."), "{name}: {m}");
            assert!(!m.contains('`'), "{name}: {m}");
        }
        // An unclosed backtick is text.
        assert_eq!(message("a ` b"), "a \\` b");
    }

    #[test]
    fn links_emphasis_and_autolinks_from_the_repository_are_inert() {
        for s in [
            "**bold**",
            "[link](http:evil)",
            "![img](http://evil/x.png)",
            "<a href=x>y</a>",
            "www.evil.com",
            "see WWW.evil.com",
            "https://evil.com",
            "mail user@evil.com",
            "$x^2$",
            "_under_ ~~strike~~",
        ] {
            // Prose: every character that could start markup is escaped.
            let prose = esc(s);
            let chars: Vec<char> = prose.chars().collect();
            for (i, c) in chars.iter().enumerate() {
                if "*_[]~:!`$@".contains(*c) {
                    assert!(i > 0 && chars[i - 1] == '\\', "{s:?} gave {prose:?}");
                }
                assert!(*c != '<' && *c != '>', "{s:?} gave {prose:?}");
            }
            assert!(!prose.to_lowercase().contains("www."), "{prose}");
            // Code: no markup character but in character references inside
            // the element.
            for out in [code(s), message(&code_span(s))] {
                let inner = out
                    .strip_prefix("<code>")
                    .and_then(|o| o.strip_suffix("</code>"))
                    .unwrap_or_else(|| panic!("{out}"));
                let without_refs: String = inner
                    .split('&')
                    .enumerate()
                    .map(|(i, part)| match part.split_once(';') {
                        Some((_, rest)) if i > 0 => rest,
                        _ => part,
                    })
                    .collect();
                assert!(!without_refs.chars().any(is_markup), "{s:?} gave {out:?}");
                assert!(!without_refs.to_lowercase().contains("www."), "{out}");
            }
        }
    }

    fn server(name: &str) -> McpServer {
        McpServer {
            id: format!("mcp:{name}"),
            name: name.into(),
            source: SourceRef::project(RepoPath::new(".mcp.json").unwrap(), SourceFormat::Json),
            other_sources: vec![],
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: "configured".into(),
            transport: Transport::Stdio,
            declared_type: None,
            command: Some("x".into()),
            args: None,
            url: None,
            env: vec![],
            headers: vec![],
            enabled_tools: None,
            disabled_tools: None,
            unknown_fields: vec![],
            runtime_verified: false,
            capabilities: Capabilities { known: false },
            fingerprints: Default::default(),
        }
    }

    #[test]
    fn a_hostile_server_name_renders_as_code_in_the_whole_report() {
        let name = "**bold**`[link](http:evil)`|x";
        let ctx = AnalysisContext::at_root();
        let mut claude = EffectiveAgentConfig::new(CLAUDE, ctx.clone());
        claude.mcp_servers = vec![server(name)];
        let codex = EffectiveAgentConfig::new(CODEX, ctx.clone());
        let configs = vec![claude, codex];
        let cmp = compare(&configs.iter().collect::<Vec<_>>());
        assert_eq!(cmp.findings.len(), 1);
        let via = Via::default();
        let md = check_markdown(&CheckReport {
            repository: ".",
            context: &ctx,
            configs: &configs,
            comparison: &cmp,
            via: &via,
            gate: &crate::report::Gate::default(),
        });
        for raw in ["**bold**", "[link]", "](http", "http:evil", "`"] {
            assert!(!md.contains(raw), "{raw} in\n{md}");
        }
        let row = md.lines().find(|l| l.starts_with("| medium |")).unwrap();
        // Three cells: the name's `|` does not add one.
        assert_eq!(row.matches(" | ").count() + 2, 4, "{row}");
    }

    /// Hostile names of skills and MCP servers: table cells, code spans,
    /// HTML, line breaks, a bidirectional override, a very long name.
    const HOSTILE: &[&str] = &[
        "|pipe|",
        "a|b|c",
        "`tick`",
        "a``b`c",
        "```",
        "<b>bold</b>",
        "</code><script>x</script>",
        "line\nbreak",
        "cr\r\nlf",
        "**em** _u_ [l](http://e) ![i](x)",
        "www.evil.com",
        "tab\there",
        "evil\u{202E}gnp.exe",
        "&amp; &#124;",
    ];

    /// The texts of the `<code>` elements of `md`, character references
    /// decoded.
    fn code_texts(md: &str) -> Vec<String> {
        md.split("<code>")
            .skip(1)
            .filter_map(|part| part.split_once("</code>").map(|(inner, _)| inner))
            .map(|inner| {
                let mut out = String::new();
                let mut rest = inner;
                while let Some(at) = rest.find("&#") {
                    out.push_str(&rest[..at]);
                    let (num, after) = rest[at + 2..].split_once(';').unwrap();
                    out.push(char::from_u32(num.parse().unwrap()).unwrap());
                    rest = after;
                }
                out.push_str(rest);
                out
            })
            .collect()
    }

    /// What a name reads as in the report: line breaks as spaces, hidden
    /// characters escaped, nothing else changed.
    fn shown_as(name: &str) -> String {
        name.chars()
            .map(|c| match c {
                '\n' | '\r' => " ".to_string(),
                c if is_hidden(c) => c.escape_default().to_string(),
                c => c.to_string(),
            })
            .collect()
    }

    fn markdown_of(names: &[String]) -> String {
        let ctx = AnalysisContext::at_root();
        let mut claude = EffectiveAgentConfig::new(CLAUDE, ctx.clone());
        claude.mcp_servers = names.iter().map(|n| server(n)).collect();
        let codex = EffectiveAgentConfig::new(CODEX, ctx.clone());
        let configs = vec![claude, codex];
        let cmp = compare(&configs.iter().collect::<Vec<_>>());
        assert_eq!(cmp.findings.len(), names.len());
        let via = Via::default();
        check_markdown(&CheckReport {
            repository: ".",
            context: &ctx,
            configs: &configs,
            comparison: &cmp,
            via: &via,
            gate: &crate::report::Gate::default(),
        })
    }

    /// Every hostile name, alone (its finding's message) and in a group
    /// (the list of names of one table row), reads back whole from a
    /// `<code>` element, and every table row keeps its three cells on one
    /// line: `|pipe|` once showed as empty backticks in the group list.
    #[test]
    fn hostile_names_read_back_whole_and_keep_the_table() {
        let long = "x".repeat(5000);
        let mut all: Vec<String> = HOSTILE.iter().map(|n| n.to_string()).collect();
        all.push(long);
        let check_rows = |md: &str| {
            let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| medium")).collect();
            assert!(!rows.is_empty(), "{md}");
            for row in rows {
                let bars = row
                    .char_indices()
                    .filter(|(i, c)| *c == '|' && !row[..*i].ends_with('\\'))
                    .count();
                assert_eq!(bars, 4, "{row}");
            }
        };
        for name in &all {
            let md = markdown_of(std::slice::from_ref(name));
            check_rows(&md);
            assert!(code_texts(&md).contains(&shown_as(name)), "{name:?}:\n{md}");
            assert!(!md.contains("<script>") && !md.contains("<b>"), "{md}");
        }
        let md = markdown_of(&all);
        check_rows(&md);
        let row = md.lines().find(|l| l.starts_with("| medium")).unwrap();
        let listed = code_texts(row);
        // The group lists the first 12 names in sorted order.
        let mut sorted = all.clone();
        sorted.sort();
        for name in sorted.iter().take(12) {
            assert!(
                listed.contains(&shown_as(name)),
                "{name:?} not in {listed:?}"
            );
        }
        assert!(!md.contains("<script>") && !md.contains("<b>"), "{md}");
    }

    #[test]
    fn a_report_too_long_for_a_comment_is_cut_with_a_count() {
        let ctx = AnalysisContext::at_root();
        let mut claude = EffectiveAgentConfig::new(CLAUDE, ctx.clone());
        claude.mcp_servers = (0..1500)
            .map(|i| server(&format!("server-{i:04}")))
            .collect();
        let codex = EffectiveAgentConfig::new(CODEX, ctx.clone());
        let configs = vec![claude, codex];
        let cmp = compare(&configs.iter().collect::<Vec<_>>());
        assert_eq!(cmp.findings.len(), 1500);
        let via = Via::default();
        let gate = crate::report::Gate::default();
        let r = CheckReport {
            repository: ".",
            context: &ctx,
            configs: &configs,
            comparison: &cmp,
            via: &via,
            gate: &gate,
        };
        let full = check_markdown_first(&r, 1500);
        assert!(
            full.chars().count() > COMMENT_LIMIT,
            "the case must overflow"
        );
        let md = check_markdown(&r);
        let n = md.chars().count();
        assert!(n <= COMMENT_LIMIT, "{n}");
        // Nearly full: the largest number of findings that fits.
        assert!(n > COMMENT_LIMIT - 2_000, "{n}");
        // The table holds one row for the servers (one cause); the details
        // list each finding shown.
        assert_eq!(md.matches("| medium |").count(), 1);
        let shown = md.matches("\n#### ").count();
        assert!(shown > 10 && shown < 1500, "{shown}");
        assert!(
            md.contains(&format!(
                "**{} more findings not shown, see the JSON**",
                1500 - shown
            )),
            "{}",
            &md[md.len() - 400..]
        );
        // A report that fits is whole, without the sentence.
        let small = check_markdown_first(&r, 3);
        assert!(!check_markdown(&CheckReport {
            comparison: &playbookdiff_compare::Comparison {
                findings: cmp.findings[..3].to_vec(),
                ..cmp.clone()
            },
            ..r.clone()
        })
        .contains("more finding"));
        assert!(small.contains("1497 more findings"), "{small}");
    }
}

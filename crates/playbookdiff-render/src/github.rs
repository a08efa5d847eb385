//! `--format github`: GitHub Actions workflow commands, one line each,
//! which GitHub shows as annotations on the pull request's files.
//!
//! `::warning file=CLAUDE.md,line=3,endLine=9,title=…::message`: `error`
//! for high findings and error diagnostics, `warning` for medium findings
//! and warning diagnostics, `notice` for low and info findings, accepted
//! findings (with their reason), findings a compared change leaves
//! unchanged, and stale accepted ids. Values are escaped exactly as GitHub
//! documents it (toolkit `core` `command.ts`: `%`, CR and LF in the data;
//! those and `:` and `,` in a property) and nothing else, so the `file`
//! property is the real path (a tab in a directory's name stays a tab and
//! the annotation finds its file), and a path or message taken from the
//! repository cannot end a property or start a command of its own. The
//! message is prose for people: its control and format characters (an
//! ANSI escape, a bidirectional override) are shown as the text output
//! shows them (`\u{1b}`) before it is escaped, since the log viewer
//! interprets ANSI sequences.

use crate::forge::{finding_title, start_line, BaselineState, ForgeReport};
use playbookdiff_compare::FindingSeverity;
use playbookdiff_model::{Severity, SourceRef};
use std::fmt::Write as _;

/// Escapes a command's data (its message) as the runner unescapes it:
/// `%` as `%25`, CR as `%0D`, LF as `%0A`; every other character as is.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`file`, `title`): [`escape_data`], then `:`
/// as `%3A` and `,` as `%2C`; every other character as is.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A message for people: each line's control and format characters
/// written out (`\u{1b}`, `\t`) as the text output shows them, the line
/// breaks kept (they are escaped as data).
fn readable(message: &str) -> String {
    message
        .split('\n')
        .map(|line| crate::layout::clean(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

fn command(out: &mut String, level: &str, source: Option<&SourceRef>, title: &str, message: &str) {
    let mut props: Vec<String> = Vec::new();
    // A file outside the repository is named in the message, not as
    // `file`, which GitHub resolves in the repository.
    let message = format!("{}{message}", crate::forge::outside_prefix(source));
    if let Some(s) = crate::forge::repository_file(source) {
        props.push(format!("file={}", escape_property(s.path.as_str())));
        if let Some((start, end)) = start_line(s.lines.as_ref()) {
            props.push(format!("line={start}"));
            props.push(format!("endLine={end}"));
        }
    }
    props.push(format!("title={}", escape_property(title)));
    let _ = writeln!(
        out,
        "::{level} {}::{}",
        props.join(","),
        escape_data(&readable(&message))
    );
}

/// The workflow commands of `report`, one per line.
pub fn github(report: &ForgeReport<'_>) -> String {
    let mut out = String::new();
    for ff in &report.findings {
        let f = ff.finding;
        let (level, prefix) = match (&f.accepted, f.severity) {
            (Some(a), _) => ("notice", format!("Accepted ({}): ", a.reason)),
            // Comparing two revisions, only what the change introduces is
            // a warning on the pull request.
            (None, _) if ff.baseline == Some(BaselineState::Unchanged) => {
                ("notice", "Unchanged by this change: ".to_string())
            }
            (None, FindingSeverity::High) => ("error", String::new()),
            (None, FindingSeverity::Medium) => ("warning", String::new()),
            (None, _) => ("notice", String::new()),
        };
        let mut message = format!("{prefix}{}", f.message);
        if !ff.directories.is_empty() {
            let shown: Vec<&str> = ff.directories.iter().take(5).map(|d| d.as_str()).collect();
            let more = ff.directories.len().saturating_sub(5);
            message.push_str(&format!(
                "\nLaunch directories: {}{}",
                shown.join(", "),
                if more > 0 {
                    format!(", +{more} more")
                } else {
                    String::new()
                }
            ));
        }
        for r in &f.remedies {
            message.push_str(&format!("\nFix for {}: {}", r.harness.as_str(), r.action));
        }
        message.push_str(&format!("\nId: {}", f.id));
        command(
            &mut out,
            level,
            f.first_source(),
            &format!(
                "PlaybookDiff: {} ({})",
                finding_title(f.category, f.kind),
                f.severity.as_str()
            ),
            &message,
        );
    }
    for fd in &report.diagnostics {
        let d = &*fd.diagnostic;
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        command(
            &mut out,
            level,
            d.source.as_ref(),
            &format!(
                "PlaybookDiff: {} ({})",
                d.code.as_str(),
                fd.harness.as_str()
            ),
            &d.message,
        );
    }
    for a in report.stale {
        command(
            &mut out,
            "notice",
            None,
            "PlaybookDiff: stale accepted finding",
            &format!(
                "{} is accepted in playbookdiff.toml ({}) but no longer occurs; remove the entry.",
                a.id, a.reason
            ),
        );
    }
    out
}

/// The workflow commands of `issues` (`round audit`), one per line:
/// `error`, `warning` or `notice` by level, titled `PlaybookDiff: TITLE`,
/// the rule's help after the message.
pub fn github_issues(issues: &[crate::forge::ForgeIssue]) -> String {
    use crate::forge::IssueLevel;
    let mut out = String::new();
    for i in issues {
        let level = match i.level {
            IssueLevel::Error => "error",
            IssueLevel::Warning => "warning",
            IssueLevel::Note => "notice",
        };
        command(
            &mut out,
            level,
            i.source.as_ref(),
            &format!("PlaybookDiff: {} ({})", i.title, i.rule_id),
            &format!("{}\n{}", i.message, i.help),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GitHub's escaping and nothing else, on a table of names: a tab, a
    /// space, `%`, `:`, `,`, CR, LF, non-ASCII, an ANSI escape.
    #[test]
    fn escaping_follows_the_runner_and_nothing_else() {
        let table = [
            (
                "tab\tdir/CLAUDE.md",
                "tab\tdir/CLAUDE.md",
                "tab\tdir/CLAUDE.md",
            ),
            ("a b/é.md", "a b/é.md", "a b/é.md"),
            ("100%/x", "100%25/x", "100%25/x"),
            ("a:b,c", "a:b,c", "a%3Ab%2Cc"),
            ("cr\r\nlf", "cr%0D%0Alf", "cr%0D%0Alf"),
            ("%0A", "%250A", "%250A"),
            ("back\\slash", "back\\slash", "back\\slash"),
            ("esc\u{1b}[2J", "esc\u{1b}[2J", "esc\u{1b}[2J"),
        ];
        for (raw, data, property) in table {
            assert_eq!(escape_data(raw), data, "{raw:?}");
            assert_eq!(escape_property(raw), property, "{raw:?}");
            // The runner's unescaping gives the raw value back.
            let unescape = |s: &str| {
                s.replace("%0D", "\r")
                    .replace("%0A", "\n")
                    .replace("%3A", ":")
                    .replace("%2C", ",")
                    .replace("%25", "%")
            };
            assert_eq!(unescape(&escape_property(raw)), raw, "{raw:?}");
        }
    }

    /// The `file` property is the real path, a tab and all; the message
    /// shows an ANSI escape or a bidirectional override written out.
    #[test]
    fn the_file_is_the_real_path_and_the_message_is_readable() {
        let path = "tab\tdir/s\u{1b}[2J/CLAUDE.md";
        let source = SourceRef::project(
            playbookdiff_model::RepoPath::new(path).unwrap(),
            playbookdiff_model::SourceFormat::Markdown,
        );
        let mut out = String::new();
        command(
            &mut out,
            "warning",
            Some(&source),
            "t",
            &format!("see {path}\u{202e}"),
        );
        assert!(
            out.starts_with("::warning file=tab\tdir/s\u{1b}[2J/CLAUDE.md,title=t::"),
            "{out:?}"
        );
        let message = out.split_once("::").unwrap().1.split_once("::").unwrap().1;
        let message = message.trim_end_matches('\n');
        assert!(
            !message.chars().any(crate::layout::is_hidden),
            "{message:?}"
        );
        assert!(
            message.contains("tab\\tdir/s\\u{1b}[2J/CLAUDE.md\\u{202e}"),
            "{message:?}"
        );
    }

    #[test]
    fn a_hostile_message_stays_on_one_line_and_one_command() {
        let mut out = String::new();
        command(
            &mut out,
            "warning",
            None,
            "t,itle::x",
            "line\n::error file=x::injected",
        );
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(
            out.starts_with("::warning title=t%2Citle%3A%3Ax::line%0A::error"),
            "{out}"
        );
    }

    #[test]
    fn levels_follow_severity_acceptance_and_change() {
        use crate::forge::ForgeFinding;
        use playbookdiff_compare::{compare, Acceptance, FailOn};
        use playbookdiff_model::{
            AnalysisContext, Applicability, EffectiveAgentConfig, Harness, McpServer, RepoPath,
            SourceFormat, SourceRef,
        };
        let ctx = AnalysisContext::at_root();
        let mut a =
            EffectiveAgentConfig::new(Harness::new("claude-code", "Claude Code"), ctx.clone());
        a.mcp_servers = vec![McpServer::new(
            "mcp:db".into(),
            "db",
            SourceRef::project(RepoPath::new(".mcp.json").unwrap(), SourceFormat::Json)
                .with_lines(2, 4),
            Applicability::Effective,
        )];
        let b = EffectiveAgentConfig::new(Harness::new("codex", "Codex"), ctx);
        let mut cmp = compare(&[&a, &b]);
        assert_eq!(cmp.findings.len(), 1);
        let line = |f: &playbookdiff_compare::Finding, baseline| {
            github(&ForgeReport {
                findings: vec![ForgeFinding {
                    finding: f,
                    directories: &[],
                    baseline,
                }],
                diagnostics: Vec::new(),
                stale: &[],
                fail_on: FailOn::Medium,
            })
        };
        let f = &cmp.findings[0];
        assert_eq!(f.severity.as_str(), "medium");
        assert!(line(f, None).starts_with("::warning file=.mcp.json,line=2,endLine=4,"));
        assert!(line(f, Some(BaselineState::New)).starts_with("::warning "));
        let unchanged = line(f, Some(BaselineState::Unchanged));
        assert!(unchanged.starts_with("::notice "), "{unchanged}");
        assert!(
            unchanged.contains("::Unchanged by this change: "),
            "{unchanged}"
        );
        cmp.findings[0].accepted = Some(Acceptance {
            reason: "on, purpose: yes".into(),
        });
        let accepted = line(&cmp.findings[0], None);
        assert!(accepted.contains("::notice "), "{accepted}");
        assert!(
            accepted.contains("::Accepted (on, purpose: yes): "),
            "{accepted}"
        );
    }
}

//! `--format github`: GitHub Actions workflow commands, one line each,
//! which GitHub shows as annotations on the pull request's files.
//!
//! `::warning file=CLAUDE.md,line=3,endLine=9,title=…::message`: `error`
//! for high findings and error diagnostics, `warning` for medium findings
//! and warning diagnostics, `notice` for low and info findings, accepted
//! findings (with their reason), findings a compared change leaves
//! unchanged, and stale accepted ids. Values are
//! escaped as the runner expects (`%`, CR and LF everywhere; `:` and `,`
//! in properties too; GitHub's `toolkit/core` `command.ts`), so a path or
//! message taken from the repository cannot end a property or start a
//! command of its own.

use crate::forge::{finding_title, start_line, BaselineState, ForgeReport};
use playbookdiff_compare::FindingSeverity;
use playbookdiff_model::{Severity, SourceRef};
use std::fmt::Write as _;

/// Escapes a command's message: `%`, CR and LF as the runner unescapes
/// them; every other character that must not reach a log raw (an ANSI
/// escape, a bidirectional override, another control or format character,
/// as the text output treats them) as Rust writes it (`\u{1b}`), since the
/// log viewer interprets ANSI sequences taken from a hostile file name.
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if crate::layout::is_hidden(c) => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a property value (`file`, `title`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn command(out: &mut String, level: &str, source: Option<&SourceRef>, title: &str, message: &str) {
    let mut props: Vec<String> = Vec::new();
    if let Some(s) = source {
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
        escape_data(message)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("a%b\r\nc::d"), "a%25b%0D%0Ac::d");
        assert_eq!(escape_property("a,b:c%\n"), "a%2Cb%3Ac%25%0A");
        // ANSI sequences and bidirectional overrides from a file name are
        // written out, never passed to the log raw.
        let hostile = "s\u{1b}[2Jk\u{7}/\u{202e}x.md";
        for escaped in [escape_data(hostile), escape_property(hostile)] {
            assert!(
                !escaped.chars().any(crate::layout::is_hidden),
                "{escaped:?}"
            );
            assert!(escaped.contains("\\u{1b}[2Jk\\u{7}"), "{escaped}");
            assert!(escaped.contains("\\u{202e}x.md"), "{escaped}");
        }
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

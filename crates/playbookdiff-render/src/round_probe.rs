//! `playbookdiff round probe`: the probe's report as text and as JSON.
//!
//! Text: the verdict and why first, then the probe as declared, then each
//! side (revision and commit, the setup, each run with its outcome, exit
//! status and time), with the last lines of the output of a setup or run
//! that did not end as the side expects. Lines stay within the output
//! width; the output's own lines are escaped and shortened to it.

use crate::layout::{clean, columns, fit, wrap, wrap_hanging};
use playbookdiff_round::probe::{ProbeReport, RunOutcome, RunReport, Side, SideReport};

/// The report as pretty-printed JSON ([`ProbeReport`]), ending with a
/// newline.
pub fn probe_json(report: &ProbeReport) -> String {
    let mut out = serde_json::to_string_pretty(report).unwrap_or_default();
    out.push('\n');
    out
}

/// The JSON Schema of the report (`schema/round-probe.schema.json`).
pub fn probe_schema() -> String {
    playbookdiff_round::probe::json_schema()
}

/// The report as text (module doc for the layout).
pub fn probe_text(report: &ProbeReport) -> String {
    let mut out = String::new();
    let j = &report.judgement;
    line(
        &mut out,
        &format!(
            "Probe of brief {} ({}): {}",
            report.brief,
            report.path,
            j.verdict.word()
        ),
    );
    item(&mut out, &format!("{}.", j.reason));
    out.push('\n');
    declared(&mut out, report);
    side(&mut out, &report.base);
    match &report.head {
        Some(head) => side(&mut out, head),
        None => {
            out.push('\n');
            line(&mut out, "head: not run (the base decided the verdict)");
        }
    }
    out
}

/// `text` (which may hold the brief's words) escaped and wrapped.
fn line(out: &mut String, text: &str) {
    out.push_str(&wrap(&clean(text), "", columns()));
}

/// An indented item, escaped and wrapped.
fn item(out: &mut String, text: &str) {
    out.push_str(&wrap_hanging(&clean(text), "  ", "    ", columns()));
}

fn declared(out: &mut String, report: &ProbeReport) {
    let p = &report.probe;
    line(out, &format!("Probe (line {} of the brief)", p.line));
    if let Some(setup) = &p.setup {
        item(out, &format!("setup: `{setup}`"));
    }
    item(out, &format!("run: `{}`", p.run));
    let mut signature = Vec::new();
    if let Some(text) = &p.fails.output {
        signature.push(format!("output holds \"{text}\""));
    }
    if let Some(exit) = p.fails.exit {
        signature.push(format!("exit status {exit}"));
    }
    item(out, &format!("the defect: {}", signature.join(", ")));
    let runs = match p.runs {
        1 => "1 run".to_string(),
        n => format!("{n} runs"),
    };
    item(
        out,
        &format!("{runs} per side, {} s timeout each", p.timeout_secs),
    );
}

fn side(out: &mut String, s: &SideReport) {
    out.push('\n');
    let commit = s.commit.get(..12).unwrap_or(&s.commit);
    line(
        out,
        &format!("{}: {} (commit {commit})", s.side.word(), s.revision),
    );
    let expected = match s.side {
        Side::Base => RunOutcome::Defect,
        Side::Head => RunOutcome::Passed,
    };
    if let Some(setup) = &s.setup {
        run(out, "setup", setup, RunOutcome::Passed);
    }
    for (n, r) in s.runs.iter().enumerate() {
        run(out, &format!("run {}", n + 1), r, expected);
    }
}

fn run(out: &mut String, name: &str, r: &RunReport, expected: RunOutcome) {
    let exit = r
        .exit
        .map_or_else(|| "no exit status".to_string(), |e| format!("exit {e}"));
    let seconds = r.millis as f64 / 1000.0;
    item(
        out,
        &format!("{name}: {} ({exit}, {seconds:.1} s)", r.outcome.words()),
    );
    if r.outcome != expected {
        let room = columns().saturating_sub(6);
        for l in &r.output_tail {
            out.push_str(&format!("    | {}\n", fit(&clean(l), room).trim_end()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_round::probe::{Judgement, Probe, Signature, Verdict};

    fn report() -> ProbeReport {
        let run = |outcome, exit, tail: &[&str]| RunReport {
            outcome,
            exit,
            millis: 1500,
            output_tail: tail.iter().map(|s| s.to_string()).collect(),
        };
        ProbeReport {
            brief: "012".into(),
            path: "briefs/012.md".into(),
            probe: Probe {
                line: 9,
                setup: None,
                run: "./check.sh".into(),
                fails: Signature {
                    output: Some("token expired".into()),
                    exit: Some(1),
                },
                runs: 2,
                timeout_secs: 120,
            },
            base: SideReport {
                side: Side::Base,
                revision: "main".into(),
                commit: "0123456789abcdef".into(),
                setup: None,
                runs: vec![
                    run(RunOutcome::Defect, Some(1), &["token expired"]),
                    run(
                        RunOutcome::OtherFailure,
                        None,
                        &["\u{1b}[31mkilled", &"x".repeat(300)],
                    ),
                ],
            },
            head: None,
            judgement: Judgement {
                verdict: Verdict::Flaky,
                reason: "runs at the base ended differently".into(),
            },
        }
    }

    #[test]
    fn the_text_says_the_verdict_first_and_escapes_the_output() {
        let text = probe_text(&report());
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(first, "Probe of brief 012 (briefs/012.md): flaky");
        assert!(text.contains("run 1: failed with the defect's signature (exit 1, 1.5 s)"));
        assert!(text.contains("run 2: failed otherwise (no exit status, 1.5 s)"));
        // Only the run that did not end as expected shows its output.
        assert!(!text.contains("| token expired"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        let mut hostile = report();
        hostile.probe.run = "make\u{1b}[2J test".into();
        assert!(!probe_text(&hostile).contains('\u{1b}'));
        assert!(text.contains("head: not run"));
        assert!(
            text.contains("  2 runs per side, 120 s timeout each"),
            "{text}"
        );
        for l in text.lines() {
            assert!(l.chars().count() <= 80, "{l}");
        }
    }

    #[test]
    fn the_json_holds_the_verdict_word() {
        let json: serde_json::Value = serde_json::from_str(&probe_json(&report())).unwrap();
        assert_eq!(json["judgement"]["verdict"], "flaky");
        assert_eq!(json["base"]["runs"][1]["outcome"], "other-failure");
        assert_eq!(json["head"], serde_json::Value::Null);
    }
}

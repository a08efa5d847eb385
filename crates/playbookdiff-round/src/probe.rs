//! A brief's probe: the check that shows the round's defect at the base
//! and its absence at the head (issue "rounds", point 6; the spec-harness
//! seed's "probe": setup, run, and the signature of the defect).
//!
//! A probe is declared in the brief's front matter under `probe`, or in a
//! `## Probe` section as the first fenced code block (YAML) before the
//! next heading, with the same keys:
//!
//! ```yaml
//! probe:
//!   setup: npm ci            # optional, once per side, before the runs
//!   run: npm test -- auth    # required: a shell command (`sh -c`)
//!   fails:                   # the signature of the defect
//!     output: token expired  # text the failing output holds
//!     exit: 1                # the failing exit status
//!   runs: 2                  # runs per side (default 2, 1 to 20)
//!   timeout: 120             # seconds per setup or run (default 120)
//! ```
//!
//! This module reads the declaration ([`read`]), classifies one run
//! ([`classify`]) and judges the runs of both sides ([`judge_base`],
//! [`judge`]); the command runs them. Reading never fails: an unreadable
//! probe is a list of [`BriefProblem`]s with 1-based lines.

use crate::brief::{line_of, Brief, BriefProblem};
use playbookdiff_source::markdown::{front_matter, parse_yaml_with};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};
use serde::Serialize;
use serde_json::{Map, Value};

/// Runs per side when the probe does not say: two, so that a probe that
/// answers differently on the same revision is seen as flaky.
pub const DEFAULT_RUNS: u32 = 2;

/// The most runs per side a probe may ask for.
pub const MAX_RUNS: u32 = 20;

/// Seconds a setup or a run may take when the probe does not say.
pub const DEFAULT_TIMEOUT_SECS: u64 = 120;

/// The longest timeout a probe may ask for, in seconds (one day).
pub const MAX_TIMEOUT_SECS: u64 = 86_400;

/// The keys a probe declaration may hold; any other is a problem (a
/// misspelt `fails` would otherwise leave the probe without a signature).
const KEYS: [&str; 5] = ["setup", "run", "fails", "runs", "timeout"];

/// What a failing run shows when it fails because of the defect. At least
/// one of the two is given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Signature {
    /// Text the run's output (standard output and standard error
    /// together) holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// The run's exit status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
}

/// A probe as the brief declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    /// 1-based line of the declaration in the brief's file.
    pub line: u32,
    /// The shell command run once per side before the runs, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The shell command whose outcome is the probe's.
    pub run: String,
    /// The signature of the defect.
    pub fails: Signature,
    /// Runs per side.
    pub runs: u32,
    /// Seconds a setup or a run may take before its processes are killed.
    pub timeout_secs: u64,
}

/// What [`read`] found in a brief.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeReading {
    /// The brief declares no probe.
    Absent,
    /// A probe that can be run.
    Declared(Probe),
    /// A declaration that cannot be run, with why (1-based lines).
    Unreadable(Vec<BriefProblem>),
}

/// Reads the brief's probe from its front matter `probe` key or its
/// `## Probe` section. Both at once is a problem, as are a missing `run`,
/// no signature, an unknown key, a key of the wrong type and `runs` or
/// `timeout` out of range.
pub fn read(brief: &Brief) -> ProbeReading {
    let from_front = front_declaration(&brief.text);
    let from_section = section_declaration(&brief.text);
    match (from_front, from_section) {
        (None, None) => ProbeReading::Absent,
        (Some(_), Some((_, line))) => ProbeReading::Unreadable(vec![problem(
            line,
            "the probe is declared twice (front matter `probe` and a `## Probe` section); keep one",
        )]),
        (Some((value, line)), None) => declaration(&value, line),
        (None, Some((Err(message), line))) => ProbeReading::Unreadable(vec![problem(
            line,
            &format!("the `## Probe` block is not valid YAML ({message})"),
        )]),
        (None, Some((Ok(value), line))) => declaration(&value, line),
    }
}

fn problem(line: u32, message: &str) -> BriefProblem {
    BriefProblem {
        line: Some(line),
        message: message.to_string(),
    }
}

/// The front matter's `probe` value and the 1-based line of its key.
fn front_declaration(text: &str) -> Option<(Value, u32)> {
    let fm = front_matter(text)?;
    let value = fm.value.ok()?.get("probe").cloned()?;
    let index = fm.yaml.lines().position(|l| l.starts_with("probe:"))?;
    let line = fm.start_line + 1 + u32::try_from(index).unwrap_or(u32::MAX - fm.start_line - 1);
    Some((value, line))
}

/// The YAML of the first fenced code block under a `## Probe` heading
/// (before the next heading), read, and the block's 1-based line. A
/// block whose YAML has a top-level `probe` key is read as its value.
fn section_declaration(text: &str) -> Option<(Result<Value, String>, u32)> {
    let (code, offset) = probe_block(text)?;
    let line = line_of(text, offset);
    let value = match parse_yaml_with(&code, true) {
        Err(e) => return Some((Err(e.message), line)),
        Ok(v) => v,
    };
    let value = match value.get("probe") {
        Some(inner) if value.as_object().is_some_and(|m| m.len() == 1) => inner.clone(),
        _ => value,
    };
    Some((Ok(value), line))
}

/// The text and byte offset of the first fenced code block after an H2
/// `Probe` heading and before the next heading.
fn probe_block(text: &str) -> Option<(String, usize)> {
    let mut in_probe = false;
    let mut heading: Option<String> = None;
    let mut events = Parser::new(text).into_offset_iter();
    while let Some((event, range)) = events.next() {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) if heading.is_some() => heading.get_or_insert_default().push_str(&t),
            Event::End(TagEnd::Heading(level)) => {
                let h = heading.take().unwrap_or_default();
                if in_probe {
                    return None;
                }
                in_probe = level == HeadingLevel::H2 && h.trim() == "Probe";
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) if in_probe => {
                let mut code = String::new();
                for (inner, _) in events.by_ref() {
                    match inner {
                        Event::Text(t) => code.push_str(&t),
                        Event::End(TagEnd::CodeBlock) => break,
                        _ => {}
                    }
                }
                return Some((code, range.start));
            }
            _ => {}
        }
    }
    None
}

/// Reads one declaration (a YAML map) declared at `line`.
fn declaration(value: &Value, line: u32) -> ProbeReading {
    let Some(map) = value.as_object() else {
        return ProbeReading::Unreadable(vec![problem(
            line,
            "the probe must be a map with `run` and `fails`",
        )]);
    };
    let mut problems = Vec::new();
    let mut say = |m: &str| problems.push(problem(line, &format!("probe: {m}")));
    for key in map.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        say(&format!(
            "unknown key `{key}`; the keys are setup, run, fails, runs, timeout"
        ));
    }
    let setup = text(map, "setup", &mut say);
    let run = text(map, "run", &mut say);
    if run.is_none() && map.get("run").is_none_or(|v| v.is_string()) {
        say("`run` is missing; give the shell command that shows the defect");
    }
    let fails = signature(map.get("fails"), &mut say);
    let runs = number(map, "runs", (1, u64::from(MAX_RUNS)), &mut say)
        .map_or(DEFAULT_RUNS, |n| u32::try_from(n).unwrap_or(MAX_RUNS));
    let timeout_secs =
        number(map, "timeout", (1, MAX_TIMEOUT_SECS), &mut say).unwrap_or(DEFAULT_TIMEOUT_SECS);
    match (run, fails) {
        (Some(run), Some(fails)) if problems.is_empty() => ProbeReading::Declared(Probe {
            line,
            setup,
            run,
            fails,
            runs,
            timeout_secs,
        }),
        _ => ProbeReading::Unreadable(problems),
    }
}

/// A non-empty text key, trimmed; a key of another type is a problem.
fn text(map: &Map<String, Value>, key: &str, say: &mut impl FnMut(&str)) -> Option<String> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::String(_)) => {
            say(&format!("`{key}` is empty"));
            None
        }
        Some(_) => {
            say(&format!("`{key}` must be a shell command (text)"));
            None
        }
    }
}

/// A whole number in `range` (inclusive); out of range or of another
/// type is a problem.
fn number(
    map: &Map<String, Value>,
    key: &str,
    range: (u64, u64),
    say: &mut impl FnMut(&str),
) -> Option<u64> {
    let value = map.get(key)?;
    match value.as_u64().filter(|n| (range.0..=range.1).contains(n)) {
        Some(n) => Some(n),
        None => {
            say(&format!(
                "`{key}` must be a whole number from {} to {}",
                range.0, range.1
            ));
            None
        }
    }
}

/// The `fails` map: `output` (text) and/or `exit` (a status from 1 to
/// 255; 0 is a passing run, never a defect).
fn signature(value: Option<&Value>, say: &mut impl FnMut(&str)) -> Option<Signature> {
    let Some(map) = value.and_then(Value::as_object) else {
        say("`fails` is missing; give the defect's signature: `output` (text the failing output holds) and/or `exit` (its exit status)");
        return None;
    };
    let mut ok = true;
    for key in map
        .keys()
        .filter(|k| !["output", "exit"].contains(&k.as_str()))
    {
        say(&format!(
            "`fails`: unknown key `{key}`; the keys are output, exit"
        ));
        ok = false;
    }
    let output = match map.get("output") {
        None => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(_) => {
            say("`fails.output` must be non-empty text");
            ok = false;
            None
        }
    };
    let exit = match map.get("exit") {
        None => None,
        Some(v) => match v.as_i64().filter(|n| (1..=255).contains(n)) {
            Some(n) => i32::try_from(n).ok(),
            None => {
                say("`fails.exit` must be an exit status from 1 to 255");
                ok = false;
                None
            }
        },
    };
    if output.is_none() && exit.is_none() && ok {
        say("`fails` names neither `output` nor `exit`; give the defect's signature");
        ok = false;
    }
    ok.then_some(Signature { output, exit })
}

/// The two sides a probe runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The base branch: the defect is there.
    Base,
    /// The round's head: the defect is gone.
    Head,
}

impl Side {
    /// The side's word, as the output spells it.
    pub fn word(self) -> &'static str {
        match self {
            Side::Base => "base",
            Side::Head => "head",
        }
    }
}

/// How one setup or run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RunOutcome {
    /// Exit status 0.
    Passed,
    /// Failed with the declared signature.
    Defect,
    /// Failed otherwise: another exit status, a signal, or output without
    /// the declared text.
    OtherFailure,
    /// Killed after the timeout.
    TimedOut,
}

impl RunOutcome {
    /// The outcome's words, as the text output spells them.
    pub fn words(self) -> &'static str {
        match self {
            RunOutcome::Passed => "passed",
            RunOutcome::Defect => "failed with the defect's signature",
            RunOutcome::OtherFailure => "failed otherwise",
            RunOutcome::TimedOut => "timed out",
        }
    }
}

/// How a process ended, as the command saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it (its number).
    Signalled(i32),
    /// It was killed after the timeout.
    TimedOut,
}

/// The outcome of one run that ended as `ended` with `output` (standard
/// output and standard error together): [`RunOutcome::Defect`] when it
/// failed (not 0, not a timeout), with the declared exit status if one is
/// declared and holding the declared text if one is declared.
pub fn classify(fails: &Signature, ended: Ended, output: &str) -> RunOutcome {
    let status = match ended {
        Ended::TimedOut => return RunOutcome::TimedOut,
        Ended::Exited(0) => return RunOutcome::Passed,
        Ended::Exited(n) => Some(n),
        Ended::Signalled(_) => None,
    };
    let exit_matches = fails.exit.is_none_or(|want| status == Some(want));
    let output_matches = fails.output.as_deref().is_none_or(|t| output.contains(t));
    if exit_matches && output_matches {
        RunOutcome::Defect
    } else {
        RunOutcome::OtherFailure
    }
}

/// The outcome of a setup that ended as `ended`: passed (exit status 0),
/// timed out, or failed otherwise; a setup has no defect's signature.
pub fn setup_outcome(ended: Ended) -> RunOutcome {
    match ended {
        Ended::Exited(0) => RunOutcome::Passed,
        Ended::TimedOut => RunOutcome::TimedOut,
        Ended::Exited(_) | Ended::Signalled(_) => RunOutcome::OtherFailure,
    }
}

/// The probe's verdict on the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The base fails with the signature on every run, the head passes on
    /// every run.
    Fixed,
    /// The head still fails with the signature on every run.
    NotFixed,
    /// The base passes: the probe does not show the defect, so its
    /// passing at the head proves nothing.
    Vacuous,
    /// Runs on one side ended differently.
    Flaky,
    /// The probe cannot tell: a setup failed, a run timed out, or a side
    /// failed for another reason than the declared one.
    Invalid,
}

impl Verdict {
    /// The verdict's word, as text and JSON spell it.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Fixed => "fixed",
            Verdict::NotFixed => "not-fixed",
            Verdict::Vacuous => "vacuous",
            Verdict::Flaky => "flaky",
            Verdict::Invalid => "invalid",
        }
    }
}

/// A verdict and the sentence saying why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in one sentence.
    pub reason: String,
}

/// What one side gave: the setup's outcome (when there is a setup) and
/// each run's, in order.
#[derive(Debug, Clone, Copy)]
pub struct SideOutcomes<'a> {
    /// Which side.
    pub side: Side,
    /// The setup's outcome; `None` when the probe has no setup.
    pub setup: Option<RunOutcome>,
    /// The runs' outcomes; none when the setup did not pass.
    pub runs: &'a [RunOutcome],
}

impl SideOutcomes<'_> {
    /// The one outcome every run had, or why there is none: a failed
    /// setup or runs that differ decide the verdict.
    fn common(&self) -> Result<RunOutcome, Judgement> {
        let side = self.side.word();
        if let Some(setup) = self.setup.filter(|s| *s != RunOutcome::Passed) {
            return Err(Judgement {
                verdict: Verdict::Invalid,
                reason: format!("the setup at the {side} {}", setup.words()),
            });
        }
        let Some(first) = self.runs.first() else {
            return Err(Judgement {
                verdict: Verdict::Invalid,
                reason: format!("the probe did not run at the {side}"),
            });
        };
        match self.runs.iter().find(|o| *o != first) {
            Some(other) => Err(Judgement {
                verdict: Verdict::Flaky,
                reason: format!(
                    "runs at the {side} ended differently: {} and {}",
                    first.words(),
                    other.words()
                ),
            }),
            None => Ok(*first),
        }
    }
}

/// The verdict the base alone decides, if any: anything but every run
/// failing with the signature ends the probe (vacuous, flaky, invalid).
pub fn judge_base(base: &SideOutcomes<'_>) -> Option<Judgement> {
    let outcome = match base.common() {
        Err(j) => return Some(j),
        Ok(o) => o,
    };
    let (verdict, reason) = match outcome {
        RunOutcome::Defect => return None,
        RunOutcome::Passed => (
            Verdict::Vacuous,
            "the base passes: the probe does not show the defect",
        ),
        RunOutcome::OtherFailure => (
            Verdict::Invalid,
            "the base fails, but not with the defect's signature",
        ),
        RunOutcome::TimedOut => (Verdict::Invalid, "the base timed out"),
    };
    Some(Judgement {
        verdict,
        reason: reason.to_string(),
    })
}

/// The verdict of both sides: the base's own ([`judge_base`]) when it
/// decides, else fixed when every head run passes, not-fixed when every
/// one fails with the signature, flaky or invalid otherwise.
pub fn judge(base: &SideOutcomes<'_>, head: &SideOutcomes<'_>) -> Judgement {
    if let Some(j) = judge_base(base) {
        return j;
    }
    let outcome = match head.common() {
        Err(j) => return j,
        Ok(o) => o,
    };
    let (verdict, reason) = match outcome {
        RunOutcome::Passed => (
            Verdict::Fixed,
            "the base fails with the defect's signature and the head passes",
        ),
        RunOutcome::Defect => (
            Verdict::NotFixed,
            "the head still fails with the defect's signature",
        ),
        RunOutcome::OtherFailure => (
            Verdict::Invalid,
            "the head fails, but not with the defect's signature",
        ),
        RunOutcome::TimedOut => (Verdict::Invalid, "the head timed out"),
    };
    Judgement {
        verdict,
        reason: reason.to_string(),
    }
}

/// One setup or run as the report shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    /// How it ended.
    pub outcome: RunOutcome,
    /// Its exit status; `None` when a signal or the timeout ended it.
    pub exit: Option<i32>,
    /// Wall-clock time, in milliseconds.
    pub millis: u64,
    /// The last lines of its output (standard output and standard error
    /// together), at most [`TAIL_LINES`] lines of at most
    /// [`TAIL_LINE_CHARS`] characters each.
    pub output_tail: Vec<String>,
}

/// Lines of output a [`RunReport`] keeps.
pub const TAIL_LINES: usize = 8;

/// Characters (Unicode scalar values) a kept output line holds at most.
pub const TAIL_LINE_CHARS: usize = 200;

/// The last [`TAIL_LINES`] non-empty lines of `output`, each cut to
/// [`TAIL_LINE_CHARS`] characters.
pub fn tail(output: &str) -> Vec<String> {
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(TAIL_LINES)..]
        .iter()
        .map(|l| l.chars().take(TAIL_LINE_CHARS).collect())
        .collect()
}

/// One side as the report shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SideReport {
    /// Which side.
    pub side: Side,
    /// The revision as given (a branch, `HEAD`, a commit id).
    pub revision: String,
    /// The commit it names.
    pub commit: String,
    /// The setup, when the probe has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<RunReport>,
    /// The runs, in order (none when the setup did not pass).
    pub runs: Vec<RunReport>,
}

impl SideReport {
    /// The outcomes [`judge`] reads; `runs` is a buffer the caller keeps.
    pub fn outcomes<'a>(&self, runs: &'a mut Vec<RunOutcome>) -> SideOutcomes<'a> {
        *runs = self.runs.iter().map(|r| r.outcome).collect();
        SideOutcomes {
            side: self.side,
            setup: self.setup.as_ref().map(|s| s.outcome),
            runs,
        }
    }
}

/// The report of `round probe`: the brief, the probe, each side run and
/// the verdict (`schema/round-probe.schema.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ProbeReport {
    /// The brief's id.
    pub brief: String,
    /// The brief's repository-relative path.
    pub path: String,
    /// The probe as declared.
    pub probe: Probe,
    /// The base side.
    pub base: SideReport,
    /// The head side; `None` when the base decided the verdict.
    pub head: Option<SideReport>,
    /// The verdict and why.
    pub judgement: Judgement,
}

/// The JSON Schema of [`ProbeReport`], pretty-printed with a final
/// newline.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(ProbeReport);
    let mut out = serde_json::to_string_pretty(&schema).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brief::parse;

    fn declared(text: &str) -> Probe {
        match read(&parse(text)) {
            ProbeReading::Declared(p) => p,
            other => panic!("{other:?}"),
        }
    }

    fn problems(text: &str) -> Vec<BriefProblem> {
        match read(&parse(text)) {
            ProbeReading::Unreadable(p) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_probe_in_the_front_matter() {
        let p = declared(
            "---\nid: a\nprobe:\n  setup: make\n  run: make test\n  fails: {output: expired, exit: 2}\n  runs: 3\n  timeout: 30\n---\n",
        );
        assert_eq!(p.line, 3);
        assert_eq!(p.setup.as_deref(), Some("make"));
        assert_eq!(p.run, "make test");
        assert_eq!(p.fails.output.as_deref(), Some("expired"));
        assert_eq!(p.fails.exit, Some(2));
        assert_eq!((p.runs, p.timeout_secs), (3, 30));
    }

    #[test]
    fn a_probe_in_its_section_with_defaults() {
        let text = "---\nid: a\n---\n# A\n\n## Probe\n\nRun it:\n\n```yaml\nrun: ./t.sh\nfails:\n  exit: 1\n```\n\n## Rulings\n";
        let p = declared(text);
        assert_eq!(p.line, 10);
        assert_eq!(p.setup, None);
        assert_eq!(p.fails.exit, Some(1));
        assert_eq!(p.runs, DEFAULT_RUNS);
        assert_eq!(p.timeout_secs, DEFAULT_TIMEOUT_SECS);
        // A block that wraps the keys in `probe:` reads the same.
        let wrapped = text.replace(
            "run: ./t.sh\nfails:\n  exit: 1",
            "probe:\n  run: ./t.sh\n  fails:\n    exit: 1",
        );
        assert_eq!(declared(&wrapped), p);
    }

    #[test]
    fn no_probe_is_absent_and_a_block_after_the_section_is_not_one() {
        assert_eq!(read(&parse("---\nid: a\n---\n")), ProbeReading::Absent);
        let later = "---\nid: a\n---\n## Probe\n\n## Notes\n\n```yaml\nrun: x\n```\n";
        assert_eq!(read(&parse(later)), ProbeReading::Absent);
    }

    #[test]
    fn unreadable_probes_say_why_at_their_line() {
        let cases: [(&str, &str); 9] = [
            ("probe:\n  fails: {exit: 1}", "`run` is missing"),
            ("probe:\n  run: x", "`fails` is missing"),
            (
                "probe:\n  run: x\n  fails: {}",
                "neither `output` nor `exit`",
            ),
            ("probe:\n  run: x\n  fails: {exit: 0}", "from 1 to 255"),
            (
                "probe:\n  run: x\n  fails: {exit: 1}\n  runs: 0",
                "`runs` must be",
            ),
            (
                "probe:\n  run: x\n  fails: {exit: 1}\n  timeout: -1",
                "`timeout` must be",
            ),
            ("probe:\n  run: x\n  fail: {exit: 1}", "unknown key `fail`"),
            (
                "probe:\n  run: [x]\n  fails: {exit: 1}",
                "must be a shell command",
            ),
            ("probe: make test", "must be a map"),
        ];
        for (yaml, says) in cases {
            let text = format!("---\nid: a\n{yaml}\n---\n");
            let found = problems(&text);
            assert!(
                found
                    .iter()
                    .any(|p| p.message.contains(says) && p.line == Some(3)),
                "{yaml:?}: {found:?}"
            );
        }
        let twice =
            "---\nid: a\nprobe: {run: x, fails: {exit: 1}}\n---\n## Probe\n\n```\nrun: y\n```\n";
        assert!(problems(twice)[0].message.contains("declared twice"));
        let bad = "---\nid: a\n---\n## Probe\n\n```yaml\nrun: [\n```\n";
        assert_eq!(problems(bad)[0].line, Some(6));
    }

    #[test]
    fn a_run_is_classified_by_status_and_output() {
        let both = Signature {
            output: Some("expired".into()),
            exit: Some(2),
        };
        let exit_only = Signature {
            output: None,
            exit: Some(2),
        };
        let output_only = Signature {
            output: Some("expired".into()),
            exit: None,
        };
        use Ended::*;
        use RunOutcome::*;
        let cases = [
            (&both, Exited(0), "expired", Passed),
            (&both, Exited(2), "token expired", Defect),
            (&both, Exited(1), "token expired", OtherFailure),
            (&both, Exited(2), "syntax error", OtherFailure),
            (&exit_only, Exited(2), "", Defect),
            (&exit_only, Signalled(9), "", OtherFailure),
            (&output_only, Exited(101), "expired", Defect),
            (&output_only, Signalled(6), "expired", Defect),
            (
                &output_only,
                Ended::TimedOut,
                "expired",
                RunOutcome::TimedOut,
            ),
        ];
        for (sig, ended, output, want) in cases {
            assert_eq!(
                classify(sig, ended, output),
                want,
                "{sig:?} {ended:?} {output:?}"
            );
        }
    }

    fn side<'a>(side: Side, setup: Option<RunOutcome>, runs: &'a [RunOutcome]) -> SideOutcomes<'a> {
        SideOutcomes { side, setup, runs }
    }

    #[test]
    fn each_verdict_from_the_outcomes() {
        use RunOutcome::*;
        let d = [Defect, Defect];
        let p = [Passed, Passed];
        let cases: [(SideOutcomes<'_>, SideOutcomes<'_>, Verdict, &str); 9] = [
            (
                side(Side::Base, None, &d),
                side(Side::Head, None, &p),
                Verdict::Fixed,
                "head passes",
            ),
            (
                side(Side::Base, None, &d),
                side(Side::Head, None, &d),
                Verdict::NotFixed,
                "still fails",
            ),
            (
                side(Side::Base, None, &p),
                side(Side::Head, None, &p),
                Verdict::Vacuous,
                "base passes",
            ),
            (
                side(Side::Base, None, &[Defect, Passed]),
                side(Side::Head, None, &p),
                Verdict::Flaky,
                "at the base",
            ),
            (
                side(Side::Base, None, &d),
                side(Side::Head, None, &[Passed, Defect]),
                Verdict::Flaky,
                "at the head",
            ),
            (
                side(Side::Base, None, &[OtherFailure]),
                side(Side::Head, None, &p),
                Verdict::Invalid,
                "not with the defect's",
            ),
            (
                side(Side::Base, None, &[TimedOut]),
                side(Side::Head, None, &p),
                Verdict::Invalid,
                "timed out",
            ),
            (
                side(Side::Base, Some(OtherFailure), &[]),
                side(Side::Head, None, &p),
                Verdict::Invalid,
                "setup at the base",
            ),
            (
                side(Side::Base, None, &d),
                side(Side::Head, None, &[OtherFailure]),
                Verdict::Invalid,
                "head fails",
            ),
        ];
        for (base, head, verdict, says) in cases {
            let j = judge(&base, &head);
            assert_eq!(j.verdict, verdict, "{base:?} {head:?}");
            assert!(j.reason.contains(says), "{}", j.reason);
        }
        assert_eq!(judge_base(&side(Side::Base, Some(Passed), &d)), None);
    }

    #[test]
    fn the_tail_keeps_the_last_lines_cut_to_their_width() {
        let output: String = (1..=20).map(|n| format!("line {n}\n\n")).collect();
        let t = tail(&output);
        assert_eq!(t.len(), TAIL_LINES);
        assert_eq!(t.last().map(String::as_str), Some("line 20"));
        assert_eq!(tail(&"é".repeat(500))[0].chars().count(), TAIL_LINE_CHARS);
    }
}

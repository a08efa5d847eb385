//! The ledger: one JSON line per decision, kept under git's common
//! directory (`<git-common-dir>/playbookdiff/guard.jsonl`), so it is never
//! committed and survives branch switches. A record names the time, host,
//! session, tool, paths, rule and verdict; never a command line, a file's
//! content or a secret value.

use crate::{Call, Decision};
use serde::{Deserialize, Serialize};

/// One ledger line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// UTC time, RFC 3339 to the second (`2026-12-04T21:05:00Z`).
    pub time: String,
    /// The host's id (`claude-code`, `codex`, `opencode`).
    pub host: String,
    /// The host's session id, when sent.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub session: Option<String>,
    /// `PreToolUse` or `PostToolUse`.
    pub event: String,
    /// The tool's name; empty when the payload could not be read.
    pub tool: String,
    /// The paths the decision is about.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub paths: Vec<String>,
    /// The rule id.
    pub rule: String,
    /// `allow`, `warn`, `ask` or `deny`.
    pub decision: String,
}

impl Record {
    /// The record of `decision` on `call` (`None`: an unreadable payload
    /// from `host`) at `time`.
    pub fn new(
        time: String,
        host: crate::Host,
        call: Option<&Call>,
        decision: &Decision,
    ) -> Record {
        Record {
            time,
            host: host.id().to_string(),
            session: call.and_then(|c| c.session.clone()),
            event: match call.map(|c| c.event) {
                Some(crate::Event::PostToolUse) => "PostToolUse",
                _ => "PreToolUse",
            }
            .to_string(),
            tool: call.map(|c| c.tool.clone()).unwrap_or_default(),
            paths: decision.paths.clone(),
            rule: decision.rule.id.to_string(),
            decision: decision.verdict.as_str().to_string(),
        }
    }

    /// The record as one line of JSON, without its newline.
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `seconds` since the Unix epoch as RFC 3339 UTC (`1970-01-01T00:00:00Z`).
pub fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rem = seconds % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_rfc3339() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(super::rfc3339(1_796_418_000), "2026-12-04T21:00:00Z");
    }
}

//! `playbookdiff round check --path PATH`: what the guard would answer to
//! a write of PATH under the round's brief (docs/rounds.md, "Checking a
//! path"), from the guard's own decision core
//! ([`crate::guard_disk::would_answer`]).

use crate::check::Outcome;
use crate::cli::{RoundCheckArgs, RoundFormat};
use crate::context::UsageError;
use crate::exit::ExitStatus;
use std::path::Path;

/// What the guard would answer to a write of `--path` under the brief
/// ([`crate::guard_disk::would_answer`]), as one paragraph or as JSON
/// (`brief`, `path`, `verdict`: `allow`, `warn`, `ask` or `deny`, `rule`,
/// `reason`).
///
/// # Errors
/// A one-line [`UsageError`] for a path that is empty, absolute or leaves
/// the repository, or when no brief is found.
pub(crate) fn run(args: &RoundCheckArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    let found = crate::round::find(&args.target, here)?;
    let rel = args.path.trim().trim_start_matches("./");
    if rel.is_empty() || rel.starts_with('/') || rel.split('/').any(|c| c == "..") {
        return Err(UsageError(format!(
            "--path `{}`: give a path relative to the repository root, inside it",
            args.path.escape_debug()
        )));
    }
    let root = std::fs::canonicalize(&found.root).unwrap_or(found.root.clone());
    let d = crate::guard_disk::would_answer(&root, rel, &found.brief.id);
    let output = match args.format {
        RoundFormat::Json => {
            let doc = serde_json::json!({
                "brief": found.brief.id, "path": rel, "verdict": d.verdict.as_str(),
                "rule": d.rule.id, "reason": d.reason,
            });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
        RoundFormat::Text => {
            let reason = if d.reason.is_empty() {
                "No rule holds it back.".to_string()
            } else {
                d.reason.clone()
            };
            playbookdiff_render::paragraph(
                &format!("{rel}: {} ({}). {reason}", d.verdict.as_str(), d.rule.id),
                "",
                "  ",
            )
        }
    };
    Ok(Outcome {
        output,
        status: ExitStatus::Success,
    })
}

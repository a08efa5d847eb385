//! The one output-format dispatch: a [`Format`] and one call per report
//! kind ([`config`], [`check`], [`matrix`], [`explain`], [`diff`]).
//!
//! The command line picks a format (offering, for each command, the
//! formats of [`Report::formats`]) and calls the report's function; it never
//! branches per format. A new format is a new variant here, a new file with
//! its renderers, and one arm in each function below.

use crate::forge::ForgeReport;
use crate::html::{write_page, PageKind};
use crate::report::{CheckReport, MatrixReport};
use crate::TextOptions;
use playbookdiff_compare::Finding;
use playbookdiff_model::EffectiveAgentConfig;
use std::io::{self, Write};

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// A listing for people, possibly coloured, at most 80 columns wide.
    Text,
    /// The JSON documents of the output contract (`schema/*.json`).
    Json,
    /// A compact Markdown report for a pull-request comment; everything
    /// taken from the repository is escaped.
    Markdown,
    /// A SARIF 2.1.0 log (`sarif.rs`).
    Sarif,
    /// GitHub Actions workflow commands, one annotation a line
    /// (`github.rs`).
    Github,
    /// A GitLab Code Quality report (`gitlab.rs`).
    Gitlab,
    /// One self-contained HTML page drawn from the JSON document
    /// (`html.rs`, docs/html.md).
    Html,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 7] = [
        Format::Text,
        Format::Json,
        Format::Markdown,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
        Format::Html,
    ];

    /// True for the formats that show what each agent receives in every
    /// launch directory of `check --all-dirs` (the JSON document's
    /// `received` and each directory's `receives`): JSON and HTML. The
    /// others leave the panes out, so `check --all-dirs` does not make
    /// them.
    pub fn shows_panes(self) -> bool {
        matches!(self, Format::Json | Format::Html)
    }

    /// The `--format` spelling: `text`, `json`, `markdown`, `sarif`,
    /// `github`, `gitlab`, `html`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Gitlab => "gitlab",
            Format::Html => "html",
        }
    }

    /// Parses the `--format` spelling.
    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// True when the caller may ask for colour (the text format only).
    pub fn may_color(self) -> bool {
        self == Format::Text
    }

    /// The colour of this format's output when the user wants `wanted`:
    /// `wanted` for text, [`crate::Color::Plain`] for every other format.
    pub fn color(self, wanted: crate::Color) -> crate::Color {
        if self.may_color() {
            wanted
        } else {
            crate::Color::Plain
        }
    }
}

/// The kinds of report a command renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// One harness's configuration (`compile`).
    Config,
    /// A comparison under one context, or of every launch directory
    /// (`check`, `check --all-dirs`).
    Check,
    /// One finding (`explain`).
    Explain,
    /// What changed between two revisions (`diff`).
    Diff,
    /// Where each harness reads its configuration (`layout`).
    Layout,
}

impl Report {
    /// The formats this report is rendered in; the first is the default.
    pub fn formats(self) -> &'static [Format] {
        match self {
            Report::Config | Report::Explain | Report::Layout => &[Format::Text, Format::Json],
            Report::Check | Report::Diff => &Format::ALL,
        }
    }

    /// What `format` gives for this report, one line for `--help`.
    pub fn help(self, format: Format) -> &'static str {
        match (self, format) {
            (Report::Config, Format::Json) => {
                "The JSON document described by schema/effective-agent-config.schema.json"
            }
            (Report::Check, Format::Json) => {
                "The compatibility document of the output contract (schema/check.schema.json)"
            }
            (Report::Explain, Format::Json) => {
                "A JSON document: schemaVersion, context, harnesses and the finding, with the \
                 fields of a finding of `check --format json` (schema/check.schema.json)"
            }
            (Report::Diff, Format::Json) => {
                "The diff document described by schema/diff.schema.json"
            }
            (Report::Layout, Format::Json) => {
                "The layout document described by schema/layout.schema.json"
            }
            (Report::Layout, _) => "Each harness release's surfaces, for people",
            (Report::Diff, Format::Text) => {
                "What each agent receives differently, and the findings introduced and resolved, for people"
            }
            (Report::Config, _) => "A listing for people",
            (Report::Check, Format::Text) => "Findings for people",
            (Report::Explain, _) => "The finding, its evidence and a fix, for people",
            (_, Format::Markdown) => {
                "A compact report for a pull-request comment (at most 65,536 characters)"
            }
            (_, Format::Sarif) => "SARIF 2.1.0, for GitHub code scanning and other SARIF readers",
            (_, Format::Github) => {
                "GitHub Actions workflow commands: annotations on the pull request's files"
            }
            (_, Format::Gitlab) => "A GitLab Code Quality report",
            (_, Format::Html) => {
                "One self-contained HTML page to open in a browser, drawn from the JSON \
                 document: launch directories by agent, filters, what each agent receives side \
                 by side, explanations and remedies"
            }
        }
    }
}

/// The harness layout (`layout`) as `format`, written into `out`; formats
/// other than JSON give the text. Errors: those of `out` only.
pub fn layout<W: Write + ?Sized>(
    out: &mut W,
    doc: &playbookdiff_model::layout::LayoutDocument,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Json => crate::harness_layout::write_json(out, doc),
        _ => out.write_all(crate::harness_layout::to_text(doc).as_bytes()),
    }
}

/// One configuration (`compile`) as `format`, written into `out`.
/// Markdown, which this report does not offer, falls back to text.
///
/// Every function below writes the JSON-based formats (JSON, SARIF,
/// GitLab) into `out` as they are serialized, so the document is never
/// held whole in memory (at 1,000,000 files a `check --all-dirs` JSON
/// document is tens of megabytes); `out` should be buffered. The other
/// formats are rendered to a `String` first (they are the size of a
/// screen or of a pull-request comment, or one line per finding).
/// Errors: those of `out` only.
pub fn config<W: Write + ?Sized>(
    out: &mut W,
    c: &EffectiveAgentConfig,
    format: Format,
    options: &TextOptions,
) -> io::Result<()> {
    match format {
        Format::Json => crate::json::write_json(out, c),
        _ => out.write_all(crate::text::to_text(c, options).as_bytes()),
    }
}

/// A comparison under one context (`check`) as `format`, written into
/// `out` (see [`config`]); `color` applies to text only. The forge formats
/// go through [`ForgeReport`], as every other report kind can.
pub fn check<W: Write + ?Sized>(
    out: &mut W,
    r: &CheckReport<'_>,
    format: Format,
    color: crate::Color,
) -> io::Result<()> {
    match format {
        Format::Text => out.write_all(crate::check_text::check_text(r, color).as_bytes()),
        Format::Json => crate::check_json::write_check_json(out, r),
        Format::Markdown => out.write_all(crate::check_markdown::check_markdown(r).as_bytes()),
        Format::Sarif => crate::sarif::write_sarif(out, &ForgeReport::from_check(r)),
        Format::Github => {
            out.write_all(crate::github::github(&ForgeReport::from_check(r)).as_bytes())
        }
        Format::Gitlab => crate::gitlab::write_gitlab(out, &ForgeReport::from_check(r)),
        Format::Html => write_page(out, PageKind::Check, |w| {
            crate::check_json::write_check_json(w, r)
        }),
    }
}

/// Every launch directory (`check --all-dirs`) as `format`, written into
/// `out` (see [`config`]); `color` applies to text only.
pub fn matrix<W: Write + ?Sized>(
    out: &mut W,
    r: &MatrixReport<'_>,
    format: Format,
    color: crate::Color,
) -> io::Result<()> {
    match format {
        Format::Text => out.write_all(crate::check_text::matrix_text(r, color).as_bytes()),
        Format::Json => crate::check_json::write_matrix_json(out, r),
        Format::Markdown => out.write_all(crate::check_markdown::matrix_markdown(r).as_bytes()),
        Format::Sarif => crate::sarif::write_sarif(out, &ForgeReport::from_matrix(r)),
        Format::Github => {
            out.write_all(crate::github::github(&ForgeReport::from_matrix(r)).as_bytes())
        }
        Format::Gitlab => crate::gitlab::write_gitlab(out, &ForgeReport::from_matrix(r)),
        Format::Html => write_page(out, PageKind::Matrix, |w| {
            crate::check_json::write_matrix_json(w, r)
        }),
    }
}

/// One finding of a comparison (`explain`) as `format`, written into
/// `out`. Markdown, which this report does not offer, falls back to text.
pub fn explain<W: Write + ?Sized>(
    out: &mut W,
    r: &CheckReport<'_>,
    f: &Finding,
    format: Format,
    color: crate::Color,
) -> io::Result<()> {
    match format {
        Format::Json => crate::check_json::write_explain_json(out, r, f),
        _ => out.write_all(crate::check_text::explain_text(r, f, color).as_bytes()),
    }
}

/// What changed between two revisions (`diff`) as `format`, written into
/// `out` (see [`config`]); `color` applies to text only. The forge formats
/// show the head's findings ([`ForgeReport::from_diff`]).
pub fn diff<W: Write + ?Sized>(
    out: &mut W,
    d: &crate::diff::DiffDocument,
    format: Format,
    color: crate::Color,
) -> io::Result<()> {
    match format {
        Format::Text => out.write_all(crate::diff::diff_text(d, color).as_bytes()),
        Format::Json => crate::diff::write_diff_json(out, d),
        Format::Markdown => out.write_all(crate::diff::diff_markdown(d).as_bytes()),
        Format::Sarif => crate::sarif::write_sarif(out, &ForgeReport::from_diff(d)),
        Format::Github => {
            out.write_all(crate::github::github(&ForgeReport::from_diff(d)).as_bytes())
        }
        Format::Gitlab => crate::gitlab::write_gitlab(out, &ForgeReport::from_diff(d)),
        Format::Html => write_page(out, PageKind::Diff, |w| crate::diff::write_diff_json(w, d)),
    }
}

/// The audit of a round (`round audit`) as `format`, written into `out`.
/// Markdown and HTML, which this report does not offer, fall back to
/// text. Errors: those of `out` only.
pub fn round_audit<W: Write + ?Sized>(
    out: &mut W,
    r: &playbookdiff_round::audit::AuditReport,
    format: Format,
) -> io::Result<()> {
    use crate::round_audit::{audit_json, audit_text, forge_issues};
    match format {
        Format::Json => out.write_all(audit_json(r).as_bytes()),
        Format::Sarif => crate::sarif::write_sarif_issues(out, &forge_issues(r)),
        Format::Github => out.write_all(crate::github::github_issues(&forge_issues(r)).as_bytes()),
        Format::Gitlab => crate::gitlab::write_gitlab_issues(out, &forge_issues(r)),
        Format::Text | Format::Markdown | Format::Html => out.write_all(audit_text(r).as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_and_defaults_are_text() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.as_str()), Some(f));
        }
        for r in [Report::Config, Report::Check, Report::Explain, Report::Diff] {
            assert_eq!(r.formats()[0], Format::Text);
        }
        assert!(Format::Text.may_color() && !Format::Json.may_color());
    }
}

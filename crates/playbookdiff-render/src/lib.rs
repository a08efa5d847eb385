//! Renderers of the [`EffectiveAgentConfig`] model.
//!
//! One module per output format, each fed the same model:
//!
//! * [`json`]: the stable JSON document of the output contract;
//! * [`text`]: a person-readable listing for a terminal;
//! * [`check_text`](mod@check_text), [`check_json`](mod@check_json),
//!   [`check_markdown`](mod@check_markdown), [`overview`]: the
//!   compatibility check of several harnesses ([`report`] holds what they
//!   are fed), as text, the contract's JSON, a pull-request comment and the
//!   default side-by-side view;
//! * [`format`](mod@format): the one dispatch: a [`Format`] and one call
//!   per report kind, so the command line picks a format and never
//!   branches on it;
//! * [`sarif`](mod@sarif), [`github`](mod@github), [`gitlab`](mod@gitlab):
//!   the forge formats (SARIF 2.1.0, GitHub workflow commands, GitLab Code
//!   Quality), fed a [`ForgeReport`] that any report kind turns into ([`forge`]);
//! * [`harness_layout`]: where each harness reads its configuration
//!   (`playbookdiff layout`), as text and JSON;
//! * `html`: one self-contained page drawn in the browser from the JSON
//!   document it embeds (`--format html`, docs/html.md);
//! * [`schema`]: the JSON Schema of the JSON document and the diagnostics
//!   reference (`docs/diagnostics.md`), both generated from the model.
//!
//! Architecture invariant: renderers are pure functions from the model to a
//! `String`, or to bytes written into a writer the caller gives (the
//! [`format`](mod@format) dispatch, which streams the JSON-based formats). They never
//! print, never read the environment and never look at the terminal; whether to colour is a [`Color`] the caller passes in, and the
//! width of the text formats is 80 columns unless the caller runs them
//! inside [`with_width`] (the terminal's width).
//!
//! ```
//! use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness};
//! use playbookdiff_render::{to_json, to_text, TextOptions};
//!
//! let config = EffectiveAgentConfig::new(Harness::new("beta", "Beta"), AnalysisContext::at_root());
//! assert!(to_json(&config).contains("\"schemaVersion\": 1"));
//! assert!(to_text(&config, &TextOptions::default()).contains("Instructions"));
//! ```
//!
//! [`EffectiveAgentConfig`]: playbookdiff_model::EffectiveAgentConfig

pub mod check_json;
pub mod check_markdown;
pub mod check_text;
pub mod diff;
pub mod forge;
pub mod format;
pub mod github;
pub mod gitlab;
pub mod harness_layout;
mod html;
pub mod json;
mod layout;
pub mod overview;
pub mod report;
pub mod round;
pub mod round_audit;
pub mod round_probe;
pub mod sarif;
pub mod schema;
pub mod text;
mod upgrade;
pub mod words;

/// Counts allocations, the measure of work of the unit tests that prove a
/// step linear (`playbookdiff_testkit::work`).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: playbookdiff_testkit::work::Allocator = playbookdiff_testkit::work::ALLOCATOR;

pub use check_json::{check_json, explain_json, matrix_json};
pub use check_markdown::{check_markdown, matrix_markdown};
pub use check_text::{check_text, explain_text, matrix_text};
pub use forge::{BaselineState, ForgeFinding, ForgeReport};
pub use format::{Format, Report};
pub use github::github;
pub use gitlab::gitlab;
pub use json::to_json;
pub use layout::{paragraph, with_width, DEFAULT_WIDTH};
pub use overview::overview_text;
pub use report::{CheckReport, Gate, MatrixReport, Via};
pub use sarif::sarif;
pub use schema::{check_schema, diagnostics_doc, json_schema};
pub use text::{to_text, Color, TextOptions};

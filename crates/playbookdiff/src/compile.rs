//! `playbookdiff compile`: one harness, one context, one rendering.

use crate::cli::CompileArgs;
use crate::context::{open_context, UsageError};
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness};
use playbookdiff_render::TextOptions;
use playbookdiff_source::Repo;
use std::path::Path;

/// Validates the arguments, compiles the configuration and renders it.
///
/// `color` says whether text output may carry colour; the caller decides
/// from the terminal and the environment. Diagnostics in the result never
/// make this fail.
pub fn run(
    args: &CompileArgs,
    current_dir: Option<&Path>,
    color: bool,
) -> Result<String, UsageError> {
    let opened = open_context(&args.context, current_dir)?;
    let repo = Repo::new(&opened.tree);
    let version = args.context.agent_version(args.harness);
    let config = compile(args.harness, &repo, &opened.context, version);
    let options = TextOptions {
        color,
        repository: Some(opened.repository_label),
        via: opened.via,
    };
    Ok(playbookdiff_render::format::config(
        &config,
        args.output_format(),
        &options,
    ))
}

/// Compiles with the registered adapter of `harness`, modelling release
/// `version` (`None`: the newest profiled). Every harness the command line
/// accepts is registered; an unregistered one gives an empty configuration
/// with no instructions rather than a panic.
pub fn compile(
    harness: Harness,
    repo: &Repo<'_>,
    context: &AnalysisContext,
    version: Option<&str>,
) -> EffectiveAgentConfig {
    match playbookdiff_registry::adapter(harness) {
        Some(adapter) => adapter.compile(repo, context, version),
        None => EffectiveAgentConfig::new(harness, context.clone()),
    }
}

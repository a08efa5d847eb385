//! `playbookdiff compile`: one harness, one context, one rendering.

use crate::cli::CompileArgs;
use crate::context::{open_context, UsageError};
use crate::sink::Sink;
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness, Mode};
use playbookdiff_registry::Inputs;
use playbookdiff_render::TextOptions;
use playbookdiff_source::{FileRule, Repo};
use std::path::Path;

/// Validates the arguments, compiles the configuration and renders it
/// into `out`.
///
/// `color` says whether text output may carry colour; the caller decides
/// from the terminal and the environment. Diagnostics in the result never
/// make this fail.
pub(crate) fn run(
    args: &CompileArgs,
    current_dir: Option<&Path>,
    color: playbookdiff_render::Color,
    out: &mut Sink,
) -> Result<(), UsageError> {
    let opened = open_context(&args.context, current_dir)?;
    let repo = opened.repo(&[args.harness], false, &[]);
    let agent = &args.context.agent;
    let inputs = opened.inputs(agent.inputs(agent.agent_version(args.harness)));
    let config = compile(args.harness, &repo, &opened.context, &inputs);
    crate::context::release_at_exit(repo);
    let options = TextOptions {
        color,
        repository: Some(opened.repository_label.clone()),
        via: opened.via.clone(),
    };
    out.render(|w| playbookdiff_render::format::config(w, &config, args.output_format(), &options));
    crate::context::release_at_exit(opened);
    Ok(())
}

/// Compiles with the registered adapter of `harness`, with the `inputs`
/// the user gave (the release to model, `None` for the newest profiled;
/// the model's context window). Every harness the command line
/// accepts is registered; an unregistered one gives an empty configuration
/// with no instructions rather than a panic.
///
/// Then states the file rule the repository was read with when it is
/// not git's (see [`file_rule_note`]).
pub(crate) fn compile(
    harness: Harness,
    repo: &Repo<'_>,
    context: &AnalysisContext,
    inputs: &Inputs<'_>,
) -> EffectiveAgentConfig {
    let mut config = match playbookdiff_registry::adapter(harness) {
        Some(adapter) => adapter.compile_with(repo, context, inputs),
        None => EffectiveAgentConfig::new(harness, context.clone()),
    };
    if let Some(note) = file_rule_note(repo, context.mode) {
        config.assumptions.push(note);
    }
    config
}

/// The assumption repo mode adds when it cannot apply git's file rule:
/// the directory is not a git work tree (no `.git` at its root), or the
/// git index could not be read. `None` in local mode and when the rule
/// applies.
pub(crate) fn file_rule_note(repo: &Repo<'_>, mode: Mode) -> Option<String> {
    if mode != Mode::Repo {
        return None;
    }
    match repo.file_rule() {
        FileRule::WorkingTree => Some(
            "Not a git work tree (no .git at the repository root): repo mode reads every file in the \
             directory, including files git would ignore."
                .to_string(),
        ),
        FileRule::Git {
            index_problem: Some(why),
        } => Some(format!(
            "{why}: repo mode follows the ignore rules alone, so a tracked file that an ignore rule \
             matches is not read."
        )),
        FileRule::Git { index_problem: None } | FileRule::Committed => None,
    }
}

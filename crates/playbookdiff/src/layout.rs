//! `playbookdiff layout`: the adapters' surface tables, for the harnesses
//! and releases asked for, rendered as text or JSON. Reads no repository.

use crate::check::Outcome;
use crate::cli::LayoutArgs;
use crate::context::UsageError;
use crate::exit::ExitStatus;

/// The layout of every harness of `args.harness` (all registered ones when
/// none is given), in registry order: every profiled release of each, or
/// the one `--agent-version` picks. The arguments were checked by the
/// parser; the only error is one of rendering into memory.
pub(crate) fn run(args: &LayoutArgs) -> Result<Outcome, UsageError> {
    let layouts = playbookdiff_registry::adapters()
        .iter()
        .filter(|a| args.harness.is_empty() || args.harness.contains(&a.harness()))
        .flat_map(|a| playbookdiff_registry::layouts(*a, args.agent_version(a.harness())))
        .collect();
    let doc = playbookdiff_render::harness_layout::document(layouts);
    let mut out = Vec::new();
    playbookdiff_render::format::layout(&mut out, &doc, args.output_format())
        .map_err(|e| UsageError(format!("the layout cannot be rendered: {e}")))?;
    Ok(Outcome {
        output: String::from_utf8_lossy(&out).into_owned(),
        status: ExitStatus::Success,
    })
}

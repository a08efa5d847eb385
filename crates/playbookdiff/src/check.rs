//! `playbookdiff check`, `playbookdiff explain` and the side-by-side view:
//! compile every chosen harness on one walk of the tree, compare, suggest
//! fixes, render.

use crate::cli::{CheckArgs, ContextArgs, ExplainArgs, ViewArgs};
use crate::compile::compile;
use crate::context::{open_context, OpenedContext, UsageError};
use crate::remedies::remedies;
use playbookdiff_compare::matrix::MatrixBuilder;
use playbookdiff_compare::{compare, Comparison};
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Harness, RepoPath};
use playbookdiff_render::Format;
use playbookdiff_render::{CheckReport, MatrixReport};
use playbookdiff_source::{EntryKind, Repo};
use std::path::Path;

/// What a command produced: the text for standard output and the exit
/// status.
pub struct Outcome {
    /// Standard output.
    pub output: String,
    /// Exit status (0 or 1).
    pub status: u8,
}

/// The harnesses to compare: the given ones in contract order without
/// repeats, or every registered harness.
fn harnesses(given: &[Harness]) -> Result<Vec<Harness>, UsageError> {
    if given.is_empty() {
        return Ok(playbookdiff_registry::harnesses());
    }
    let mut v: Vec<Harness> = given.to_vec();
    v.sort();
    v.dedup();
    if v.len() < 2 {
        let ids: Vec<String> = playbookdiff_registry::harnesses()
            .iter()
            .take(2)
            .map(|h| format!("--harness {h}"))
            .collect();
        return Err(UsageError(format!(
            "--harness names one harness; a comparison needs two: repeat --harness (e.g. {}) or omit it to compare all",
            ids.join(" ")
        )));
    }
    Ok(v)
}

/// Compiles each harness (at the release `--agent-version` asks for) and
/// compares, with fixes filled in.
fn analyse(
    repo: &Repo<'_>,
    hs: &[Harness],
    ctx: &AnalysisContext,
    args: &ContextArgs,
) -> (Vec<EffectiveAgentConfig>, Comparison) {
    let configs: Vec<EffectiveAgentConfig> = hs
        .iter()
        .map(|h| compile(*h, repo, ctx, args.agent_version(*h)))
        .collect();
    let refs: Vec<&EffectiveAgentConfig> = configs.iter().collect();
    let mut cmp = compare(&refs);
    for f in &mut cmp.findings {
        f.remedies = remedies(f);
    }
    (configs, cmp)
}

fn report_parts(opened: &OpenedContext) -> (&str, &AnalysisContext) {
    (&opened.repository_label, &opened.context)
}

/// The side-by-side view (no command). Always status 0.
pub fn run_view(
    args: &ViewArgs,
    current_dir: Option<&Path>,
    color: bool,
) -> Result<Outcome, UsageError> {
    let hs = harnesses(&args.harness)?;
    let opened = open_context(&args.context, current_dir)?;
    let repo = Repo::new(&opened.tree);
    let (configs, cmp) = analyse(&repo, &hs, &opened.context, &args.context);
    let (repository, context) = report_parts(&opened);
    let r = CheckReport {
        repository,
        context,
        configs: &configs,
        comparison: &cmp,
        via: &opened.via,
    };
    Ok(Outcome {
        output: playbookdiff_render::overview_text(&r, color),
        status: 0,
    })
}

/// `playbookdiff check`: status 1 when a finding is actionable.
pub fn run_check(
    args: &CheckArgs,
    current_dir: Option<&Path>,
    color: bool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Outcome, UsageError> {
    let hs = harnesses(&args.harness)?;
    let opened = open_context(&args.context, current_dir)?;
    let repo = Repo::new(&opened.tree);
    let (repository, context) = report_parts(&opened);
    if args.all_dirs {
        return Ok(run_all_dirs(
            &repo,
            &hs,
            &opened,
            &args.context,
            args.output_format(),
            color,
            progress,
        ));
    }
    let (configs, cmp) = analyse(&repo, &hs, context, &args.context);
    let r = CheckReport {
        repository,
        context,
        configs: &configs,
        comparison: &cmp,
        via: &opened.via,
    };
    let output = playbookdiff_render::format::check(&r, args.output_format(), color);
    Ok(Outcome {
        output,
        status: u8::from(cmp.summary.actionable() > 0),
    })
}

/// The launch directories of `--all-dirs`: the root and every directory
/// that holds an entry one of the harnesses reads configuration from
/// (outside the harnesses' own configuration directories), in path order.
///
/// A directory holding no configuration receives at startup exactly what
/// its nearest configured ancestor receives, so it is represented by it.
pub fn launch_directories(repo: &Repo<'_>, hs: &[Harness]) -> Vec<RepoPath> {
    let mut names: Vec<&str> = Vec::new();
    for a in hs.iter().filter_map(|h| playbookdiff_registry::adapter(*h)) {
        names.extend_from_slice(a.config_entry_names());
    }
    let own: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.starts_with('.') && !n.contains(".json"))
        .collect();
    let mut dirs: Vec<RepoPath> = vec![RepoPath::root()];
    for name in &names {
        for p in repo.files_named(name) {
            let Some(dir) = p.parent() else { continue };
            if dir.components().any(|c| own.contains(&c)) {
                continue;
            }
            if repo.kind(&dir) == Some(EntryKind::Dir) {
                dirs.push(dir);
            }
        }
    }
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Checks every launch directory on the one `Repo`, spread over threads.
///
/// Each worker compiles and compares one directory and sends back only its
/// findings; the aligned rows and the configurations are dropped there
/// (but the root's configurations, which the report shows). The merge
/// keeps each finding once, so memory follows the number of distinct
/// findings, not directories times configuration size.
fn run_all_dirs(
    repo: &Repo<'_>,
    hs: &[Harness],
    opened: &OpenedContext,
    args: &ContextArgs,
    format: Format,
    color: bool,
    progress: &mut dyn FnMut(usize, usize),
) -> Outcome {
    let root_context = &opened.context;
    let dirs = launch_directories(repo, hs);
    let total = dirs.len();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let mut root_configs = Vec::new();
    let mut matrix = MatrixBuilder::new();
    let mut done = 0;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<EffectiveAgentConfig>, Comparison)>();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            let dirs = &dirs;
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let mut ctx = root_context.clone();
                ctx.cwd = dirs[i].clone();
                let (configs, mut cmp) = analyse(repo, hs, &ctx, args);
                cmp.rows = Vec::new();
                // Keep the configurations of the root only.
                let keep = if dirs[i].is_root() {
                    configs
                } else {
                    Vec::new()
                };
                if tx.send((i, keep, cmp)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        loop {
            match rx.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok((i, configs, cmp)) => {
                    if dirs[i].is_root() {
                        root_configs = configs;
                    }
                    matrix.add(dirs[i].clone(), cmp);
                    done += 1;
                    progress(done, total);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => progress(done, total),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    progress(total, total);
    let matrix = matrix.finish();
    let r = MatrixReport {
        repository: &opened.repository_label,
        context: root_context,
        root_configs: &root_configs,
        matrix: &matrix,
        via: &opened.via,
    };
    let output = playbookdiff_render::format::matrix(&r, format, color);
    Outcome {
        output,
        status: u8::from(matrix.summary.actionable() > 0),
    }
}

/// `playbookdiff explain`: status 0, or a usage error (status 2) when the
/// id is not found in the context.
pub fn run_explain(
    args: &ExplainArgs,
    current_dir: Option<&Path>,
    color: bool,
) -> Result<Outcome, UsageError> {
    let hs = harnesses(&args.harness)?;
    let opened = open_context(&args.context, current_dir)?;
    let repo = Repo::new(&opened.tree);
    let (configs, cmp) = analyse(&repo, &hs, &opened.context, &args.context);
    let (repository, context) = report_parts(&opened);
    let id = args.finding_id.trim();
    let Some(f) = cmp.finding(id) else {
        return Err(UsageError(not_found(
            id,
            repository,
            context,
            &args.context,
        )));
    };
    let r = CheckReport {
        repository,
        context,
        configs: &configs,
        comparison: &cmp,
        via: &opened.via,
    };
    let output = playbookdiff_render::format::explain(&r, f, args.output_format(), color);
    Ok(Outcome { output, status: 0 })
}

fn not_found(id: &str, repository: &str, ctx: &AnalysisContext, _args: &ContextArgs) -> String {
    let id: String = id
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(200)
        .collect();
    format!(
        "finding '{id}' was not found for this analysis context (repository {repository}, cwd {}, target {}, mode {}); run `playbookdiff check` with the same options to list the ids",
        ctx.cwd,
        ctx.target_path.as_ref().map_or("(none)".to_string(), |t| t.to_string()),
        ctx.mode.as_str()
    )
}

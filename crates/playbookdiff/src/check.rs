//! `playbookdiff check`, `playbookdiff explain` and the side-by-side view:
//! compile every chosen harness on one walk of the tree, compare, suggest
//! fixes, render.

use crate::cli::{CheckArgs, ContextArgs, ExplainArgs, ViewArgs};
use crate::compile::compile;
use crate::context::{open_context, OpenedContext, UsageError};
use crate::exit::ExitStatus;
use crate::project::{self, Loaded};
use crate::remedies::remedies;
use crate::sink::Sink;
use playbookdiff_compare::delta::{is_problem, DiffProblem, FindingFiles, ProblemSet};
use playbookdiff_compare::matrix::MatrixBuilder;
use playbookdiff_compare::received::{self, Pane};
use playbookdiff_compare::{
    compare_settled, compare_settled_findings, AcceptedFinding, Baseline, Comparison, Coverage,
    FailOn, Finding, Summary,
};
use playbookdiff_config::{Exclusion, FixtureExclusion};
use playbookdiff_model::{AnalysisContext, Diagnostic, EffectiveAgentConfig, Harness, RepoPath};
use playbookdiff_registry::{Inputs, Scene};
use playbookdiff_render::{CheckReport, Gate, MatrixReport};
use playbookdiff_source::{EntryKind, Repo};
use std::collections::BTreeMap;
use std::path::Path;

/// What a command produced: the text for standard output and the exit
/// status.
pub(crate) struct Outcome {
    /// Standard output.
    pub output: String,
    /// Exit status: [`ExitStatus::Success`] or [`ExitStatus::Failing`]
    /// (a command that cannot be carried out returns an error instead).
    pub status: ExitStatus,
}

/// The harnesses to compare: the given ones in contract order without
/// repeats, else those of the configuration file, else every registered
/// harness.
pub(crate) fn harnesses(
    given: &[Harness],
    loaded: Option<&Loaded>,
) -> Result<Vec<Harness>, UsageError> {
    if given.is_empty() {
        if let Some(hs) = loaded.and_then(|l| l.config.harnesses.as_ref().map(|hs| (l, hs))) {
            let (l, hs) = hs;
            let mut v = Vec::new();
            for h in hs {
                v.push(registered(l, h)?);
            }
            if let Some(e) = l.config.too_few_harnesses() {
                return Err(UsageError(e.render(&l.label)));
            }
            v.sort();
            return Ok(v);
        }
        return Ok(playbookdiff_registry::harnesses());
    }
    let mut v: Vec<Harness> = given.to_vec();
    v.sort();
    v.dedup();
    if v.len() < 2 && given.len() >= 2 {
        return Err(UsageError(format!(
            "--harness names {} more than once; a comparison needs two different harnesses: name another or omit --harness to compare all",
            v[0]
        )));
    }
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

/// The registered harness a configuration file names at `h`, or an error
/// at its line and column ([`playbookdiff_registry::unknown_harness`]).
fn registered(l: &Loaded, h: &toml::Spanned<String>) -> Result<Harness, UsageError> {
    match playbookdiff_registry::by_id(h.get_ref()) {
        Some(a) => Ok(a.harness()),
        None => Err(UsageError(
            l.config
                .error_at(
                    h.span(),
                    playbookdiff_registry::unknown_harness(h.get_ref()),
                )
                .render(&l.label),
        )),
    }
}

/// What the configuration file (and the options that replace it) decide
/// beyond the analysis: the agent releases, what to leave out, what is
/// accepted, what fails.
#[derive(Default)]
pub(crate) struct Policy {
    /// `[agent-versions]`, under `--agent-version`.
    pub agent_versions: Vec<(Harness, String)>,
    /// `exclude`.
    pub exclusion: Exclusion,
    /// `[[accepted]]`.
    pub baseline: Baseline,
    /// `fail-on`, `--fail-on`, `--exit-zero`.
    pub fail_on: FailOn,
    /// Whether the file has a `[guard]` table: the repository opts in to
    /// the guard's findings ([`crate::guard_check`]).
    pub guard: bool,
}

impl Policy {
    /// The policy of `loaded` (none: nothing excluded or accepted, fail on
    /// medium), with the command line's threshold first.
    pub(crate) fn new(
        loaded: Option<&Loaded>,
        fail_on: Option<FailOn>,
    ) -> Result<Self, UsageError> {
        let Some(l) = loaded else {
            return Ok(Policy {
                fail_on: fail_on.unwrap_or_default(),
                ..Policy::default()
            });
        };
        let mut agent_versions = Vec::new();
        for (key, version) in &l.config.agent_versions {
            let h = registered(l, key)?;
            let v = version.get_ref().trim();
            if !playbookdiff_model::profile::is_version(v) {
                return Err(UsageError(
                    l.config
                        .error_at(
                            version.span(),
                            format!(
                                "`{}` is not a version; give {}, e.g. \"2.1.197\"",
                                v.escape_debug(),
                                playbookdiff_model::profile::VERSION_FORMS
                            ),
                        )
                        .render(&l.label),
                ));
            }
            agent_versions.push((h, v.to_string()));
        }
        Ok(Policy {
            agent_versions,
            exclusion: l.config.exclusion(&l.repo_prefix),
            baseline: l.config.baseline(),
            fail_on: fail_on.or(l.config.fail_on).unwrap_or_default(),
            guard: l.config.guard.is_some(),
        })
    }

    /// The release to model for `h`: `--agent-version`, else the file's.
    fn agent_version<'a>(&'a self, args: &'a ContextArgs, h: Harness) -> Option<&'a str> {
        self.version(args.agent.agent_version(h), h)
    }

    /// The release to model for `h`: `given` (the command line's), else
    /// the file's `[agent-versions]`.
    pub(crate) fn version<'a>(&'a self, given: Option<&'a str>, h: Harness) -> Option<&'a str> {
        given.or_else(|| {
            self.agent_versions
                .iter()
                .find(|(x, _)| *x == h)
                .map(|(_, v)| v.as_str())
        })
    }

    /// What decides the exit status of a check of `findings` and of the
    /// problems in the repository `problems`: the threshold, the problems
    /// that fail the run on their own ([`DiffProblem::fails`], the rule
    /// `diff` applies to an introduced problem: each is linked to the
    /// findings with evidence in its file first), and the accepted entries
    /// `stale`.
    fn gate<'f>(
        &self,
        findings: impl Iterator<Item = &'f Finding>,
        problems: &[DiffProblem],
        stale: Vec<AcceptedFinding>,
    ) -> Gate {
        let mut problems: Vec<DiffProblem> = problems
            .iter()
            .filter(|p| p.may_fail(self.fail_on))
            .cloned()
            .collect();
        if !problems.is_empty() {
            let files = FindingFiles::new(findings);
            problems.retain_mut(|p| {
                p.link(&files);
                p.fails(self.fail_on)
            });
        }
        Gate {
            fail_on: self.fail_on,
            stale,
            problems,
        }
    }

    /// Adds the guard's findings of the repository ([`crate::guard_check`],
    /// read from `layers`; `configs` compiled at its root) to `cmp`, with
    /// the accepted ones marked and the summary recounted.
    pub(crate) fn add_guard(
        &self,
        cmp: &mut Comparison,
        layers: crate::guard_check::Layers<'_>,
        repo: &Repo<'_>,
        configs: &[EffectiveAgentConfig],
    ) {
        let guard = crate::guard_check::findings(layers, repo, configs, self.guard);
        if !guard.is_empty() {
            cmp.findings.extend(guard);
            self.baseline.apply(&mut cmp.findings);
            cmp.summary = Summary::of(&cmp.findings);
        }
    }

    /// True when `path` is left out (`exclude`).
    pub(crate) fn excludes(&self, path: &RepoPath) -> bool {
        self.exclusion.is_excluded(path, false)
    }

    /// True when every file a finding is about is left out.
    fn excludes_finding(&self, f: &Finding) -> bool {
        !f.items.is_empty()
            && f.items.iter().all(|i| {
                self.excludes(&i.source.path)
                    || i.source
                        .resolved_path
                        .as_ref()
                        .is_some_and(|r| self.excludes(r))
            })
    }
}

/// Compiles each harness (at the release `--agent-version` or the
/// configuration file asks for, with `--context-window`) and compares, with fixes filled in; leaves
/// out the diagnostics and findings about excluded files only, adds the
/// guard's findings ([`crate::guard_check`]), and marks the accepted
/// findings.
fn analyse(
    repo: &Repo<'_>,
    hs: &[Harness],
    ctx: &AnalysisContext,
    args: &ContextArgs,
    policy: &Policy,
    opened: &OpenedContext,
    settled: &dyn Fn(&str) -> bool,
) -> (Vec<EffectiveAgentConfig>, Comparison) {
    let (configs, mut cmp) = analyse_settled(
        repo,
        hs,
        ctx,
        policy,
        &|h| opened.inputs(args.agent.inputs(policy.agent_version(args, h))),
        settled,
        true,
    );
    let layers = crate::guard_check::Layers::of(opened);
    policy.add_guard(&mut cmp, layers, repo, &configs);
    (configs, cmp)
}

/// [`analyse`] with each harness compiled with the [`Inputs`] `inputs`
/// gives (release, context window); `diff` runs it on each revision.
pub(crate) fn analyse_at<'v>(
    repo: &Repo<'_>,
    hs: &[Harness],
    ctx: &AnalysisContext,
    policy: &Policy,
    inputs: &dyn Fn(Harness) -> Inputs<'v>,
) -> (Vec<EffectiveAgentConfig>, Comparison) {
    analyse_settled(repo, hs, ctx, policy, inputs, &|_| false, true)
}

/// [`analyse_at`] where the findings whose id `settled` answers true for
/// are kept from elsewhere: they may come in outline
/// ([`playbookdiff_compare::compare_settled`]) and get no fixes. Without
/// `rows`, the comparison's aligned rows are not built (left empty).
fn analyse_settled<'v>(
    repo: &Repo<'_>,
    hs: &[Harness],
    ctx: &AnalysisContext,
    policy: &Policy,
    inputs: &dyn Fn(Harness) -> Inputs<'v>,
    settled: &dyn Fn(&str) -> bool,
    rows: bool,
) -> (Vec<EffectiveAgentConfig>, Comparison) {
    let mut configs: Vec<EffectiveAgentConfig> = hs
        .iter()
        .map(|h| compile(*h, repo, ctx, &inputs(*h)))
        .collect();
    if !policy.exclusion.is_empty() {
        for c in &mut configs {
            c.diagnostics
                .retain(|d| !d.source.as_ref().is_some_and(|s| policy.excludes(&s.path)));
        }
    }
    let refs: Vec<&EffectiveAgentConfig> = configs.iter().collect();
    let mut cmp = if rows {
        compare_settled(&refs, settled)
    } else {
        compare_settled_findings(&refs, settled)
    };
    if !policy.exclusion.is_empty() {
        cmp.findings.retain(|f| !policy.excludes_finding(f));
    }
    let scene = Scene {
        repo,
        cwd: &ctx.cwd,
    };
    for f in cmp.findings.iter_mut().filter(|f| !settled(&f.id)) {
        f.remedies = remedies(f, &scene);
    }
    policy.baseline.apply(&mut cmp.findings);
    cmp.summary = Summary::of(&cmp.findings);
    (configs, cmp)
}

/// One context analysed for the view or `explain`: the opened repository,
/// each harness's configuration, their comparison and the threshold of the
/// configuration file (no stale accepted ids: only `check` reports those).
struct Analysed {
    opened: OpenedContext,
    configs: Vec<EffectiveAgentConfig>,
    cmp: Comparison,
    gate: Gate,
}

impl Analysed {
    /// The report the renderers are fed.
    fn report(&self) -> CheckReport<'_> {
        let (repository, context) = report_parts(&self.opened);
        CheckReport {
            repository,
            context,
            configs: &self.configs,
            comparison: &self.cmp,
            via: &self.opened.via,
            gate: &self.gate,
        }
    }
}

/// Opens the repository of `args`, reads its configuration file (`config`
/// when given), picks the harnesses (`given`, else the file's, else all)
/// and analyses the one context. Errors: a bad argument or configuration
/// file (exit status 2).
fn analyse_context(
    args: &ContextArgs,
    given: &[Harness],
    config: Option<&Path>,
    current_dir: Option<&Path>,
) -> Result<Analysed, UsageError> {
    let opened = open_context(args, current_dir)?;
    let loaded = project::load(config, &opened.root, current_dir)?;
    let hs = harnesses(given, loaded.as_ref())?;
    let policy = Policy::new(loaded.as_ref(), None)?;
    note_excluded_cwd(&opened, &policy.exclusion);
    let repo = opened.repo(&hs, false, policy.exclusion.walker_patterns());
    let (configs, cmp) = analyse(&repo, &hs, &opened.context, args, &policy, &opened, &|_| {
        false
    });
    drop(repo);
    Ok(Analysed {
        opened,
        configs,
        cmp,
        gate: Gate {
            fail_on: policy.fail_on,
            ..Gate::default()
        },
    })
}

/// A note when the launch directory lies in a path the project's
/// `exclude` leaves out: the walk does not enter it, so every agent would
/// be reported unable to start there ("not a directory in the
/// repository"), which reads as a broken repository. Launched inside
/// `examples/monorepo` of a repository excluding `/examples/`, the note
/// names the exclusion and the command that analyses it alone.
fn note_excluded_cwd(opened: &OpenedContext, exclusion: &Exclusion) {
    let cwd = &opened.context.cwd;
    if cwd.is_root() || !exclusion.is_excluded(cwd, true) {
        return;
    }
    let dir = playbookdiff_render::report::shell_path(cwd.as_str());
    crate::note(&format!(
        "note: the launch directory {dir} is left out by `exclude` in playbookdiff.toml, so nothing there is analysed; to analyse it alone, give it as REPO with --root"
    ));
}

fn report_parts(opened: &OpenedContext) -> (&str, &AnalysisContext) {
    (&opened.repository_label, &opened.context)
}

/// The side-by-side view (no command). Always status 0.
pub(crate) fn run_view(
    args: &ViewArgs,
    current_dir: Option<&Path>,
    color: playbookdiff_render::Color,
) -> Result<Outcome, UsageError> {
    let a = analyse_context(&args.context, &args.harness, None, current_dir)?;
    let r = a.report();
    Ok(Outcome {
        output: playbookdiff_render::overview_text(&r, color),
        status: ExitStatus::Success,
    })
}

/// `playbookdiff check`: status 1 when a finding fails the run (not
/// accepted, at or above the threshold); with `--accept`, records the
/// finding as accepted instead. The report is rendered into `out` as the
/// last step, unless `--accept` replaces it or `--quiet` silences a
/// passing run.
pub(crate) fn run_check(
    args: &CheckArgs,
    current_dir: Option<&Path>,
    color: playbookdiff_render::Color,
    progress: &mut dyn FnMut(usize, usize),
    out: &mut Sink,
) -> Result<Outcome, UsageError> {
    if let (Some(id), Some(reason)) = (&args.accept, &args.reason) {
        if !playbookdiff_config::is_finding_id(id.trim()) {
            return Err(UsageError(format!(
                "--accept '{}' is not a finding id; copy the id that `playbookdiff check` prints",
                id.trim().chars().take(200).collect::<String>()
            )));
        }
        if reason.trim().is_empty() {
            return Err(UsageError(
                "--reason is empty; say why the difference is intended".into(),
            ));
        }
    }
    let opened = open_context(&args.context, current_dir)?;
    let loaded = project::load(args.config.as_deref(), &opened.root, current_dir)?;
    let hs = harnesses(&args.harness, loaded.as_ref())?;
    let fail_on = if args.exit_zero {
        Some(FailOn::Never)
    } else {
        args.fail_on.map(FailOn::from)
    };
    let policy = Policy::new(loaded.as_ref(), fail_on)?;
    if args.all_dirs {
        if let Some(w) = crate::context::large_walk_warning(&opened) {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr().lock(), "{w}");
        }
        if !opened.context.cwd.is_root() {
            crate::note(&format!(
                "note: --all-dirs checks every launch directory of the repository '{}', not only those in {}",
                opened.repository_label,
                playbookdiff_render::report::shell_path(opened.context.cwd.as_str())
            ));
        }
    }
    if !args.all_dirs {
        note_excluded_cwd(&opened, &policy.exclusion);
    }
    let repo = opened.repo(&hs, args.all_dirs, policy.exclusion.walker_patterns());
    let (repository, context) = report_parts(&opened);
    // The report is shown unless `--accept` replaces it or `--quiet`
    // silences a run that passes.
    let shown = |failing: usize| args.accept.is_none() && !(args.quiet && failing == 0);
    // The `exclude` suggestion for test fixtures goes with the text report.
    let suggests_fixtures = |failing: usize| {
        shown(failing) && args.output_format() == playbookdiff_render::format::Format::Text
    };
    let outcome = if args.all_dirs {
        let all = AllDirs {
            repo: &repo,
            hs: &hs,
            opened: &opened,
            args: &args.context,
            policy: &policy,
            panes: args.output_format().shows_panes(),
        };
        run_all_dirs(
            &all,
            progress,
            args.accept.as_deref(),
            |failing, r: &MatrixReport<'_>| {
                if shown(failing) {
                    out.render(|w| {
                        playbookdiff_render::format::matrix(w, r, args.output_format(), color)
                    });
                }
            },
        )
    } else {
        let (configs, cmp) = analyse(
            &repo,
            &hs,
            context,
            &args.context,
            &policy,
            &opened,
            &|_| false,
        );
        let mut problems = ProblemSet::at_one_revision();
        problems.add(&context.cwd, &configs);
        let problems = problems.finish();
        let gate = policy.gate(
            cmp.findings.iter(),
            &problems,
            policy.baseline.stale(
                cmp.findings.iter().map(|f| f.id.as_str()),
                Coverage::One(&context.cwd),
            ),
        );
        let r = CheckReport {
            repository,
            context,
            configs: &configs,
            comparison: &cmp,
            via: &opened.via,
            gate: &gate,
        };
        let failing = gate.failing(&cmp.findings);
        if shown(failing) {
            out.render(|w| playbookdiff_render::format::check(w, &r, args.output_format(), color));
        }
        let checked = Checked {
            failing,
            // Only the text report says it.
            fixtures: suggests_fixtures(failing)
                .then(|| fixtures(cmp.findings.iter(), &problems))
                .flatten(),
            to_accept: args
                .accept
                .as_deref()
                .filter(|id| cmp.finding(id.trim()).is_some())
                .map(|id| vec![(id.trim().to_string(), vec![context.cwd.clone()])])
                .unwrap_or_default(),
        };
        // Built once for the command, which exits next (as `--all-dirs`
        // leaves its matrix).
        crate::context::release_at_exit((configs, cmp, problems, gate));
        checked
    };
    crate::context::release_at_exit(repo);
    if let Some(f) = outcome
        .fixtures
        .as_ref()
        .filter(|_| suggests_fixtures(outcome.failing))
    {
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), "{}", f.sentence());
    }
    if let (Some(id), Some(reason)) = (&args.accept, &args.reason) {
        let id = id.trim();
        if outcome.to_accept.is_empty() {
            return Err(UsageError(format!(
                "finding '{}' does not occur in this analysis; pass the same REPO, --cwd, --target, --mode and --all-dirs as the check that printed it",
                id.chars().take(200).collect::<String>()
            )));
        }
        let entries: Vec<AcceptedFinding> = outcome
            .to_accept
            .into_iter()
            .map(|(id, directories)| AcceptedFinding {
                id,
                reason: reason.trim().to_string(),
                directories,
            })
            .collect();
        let (file, replaced) =
            project::write_accepted(loaded.as_ref(), &opened.root, current_dir, &entries)?;
        let output = if args.output_format() == playbookdiff_render::format::Format::Json {
            accepted_json(&file, &entries, &replaced)
        } else {
            accepted_text(&file, &entries, &replaced)
        };
        return Ok(Outcome {
            output,
            status: ExitStatus::Success,
        });
    }
    Ok(Outcome {
        output: String::new(),
        status: ExitStatus::failing_if(outcome.failing > 0),
    })
}

/// A check, once rendered: how many findings fail the run, and the ids
/// `--accept` records, each with the launch directories it occurs in
/// (none when its id does not occur).
struct Checked {
    failing: usize,
    /// The `exclude` to suggest when most findings and problems come from
    /// test fixtures.
    fixtures: Option<FixtureExclusion>,
    to_accept: Vec<(String, Vec<RepoPath>)>,
}

/// The `exclude` suggestion for `findings` and `problems`
/// ([`playbookdiff_config::suggest_fixture_exclusion`]): each finding is
/// about the files of its items, each problem about its file.
fn fixtures<'f>(
    findings: impl Iterator<Item = &'f Finding>,
    problems: &'f [DiffProblem],
) -> Option<FixtureExclusion> {
    let of_findings = findings.map(|f| {
        f.items
            .iter()
            .map(|i| &i.source.path)
            .collect::<Vec<&RepoPath>>()
    });
    let of_problems = problems
        .iter()
        .map(|p| p.source.iter().map(|s| &s.path).collect::<Vec<&RepoPath>>());
    playbookdiff_config::suggest_fixture_exclusion(of_findings.chain(of_problems))
}

/// What `check --accept` says it recorded in `file`: the id (or the
/// group's first id and how many more) and the reason, and, for the ids
/// that were accepted before, the reason each had, which the new one
/// replaced (`replaced`, one per entry), so no reason is lost without a
/// word. One paragraph, two when reasons were replaced, wrapped to the
/// output's width.
fn accepted_text(file: &str, entries: &[AcceptedFinding], replaced: &[Option<String>]) -> String {
    let Some(first) = entries.first() else {
        return String::new();
    };
    let (id, reason) = (&first.id, &first.reason);
    let out = match entries.len() {
        1 => format!("Accepted {id} in {file}: {reason}"),
        // count >= 2: one is the arm above.
        n => format!(
            "Accepted the {n} findings of this difference ({id} and {} more, one entry each) in {file}: {reason}",
            n - 1
        ),
    };
    let mut out = playbookdiff_render::paragraph(&out, "", "  ");
    let mut earlier: Vec<&str> = replaced
        .iter()
        .flatten()
        .map(String::as_str)
        .filter(|r| r != reason)
        .collect();
    let again = replaced.iter().flatten().count();
    earlier.sort_unstable();
    earlier.dedup();
    if !earlier.is_empty() {
        let whose = if entries.len() == 1 {
            "It was accepted before; the earlier reason, now replaced".to_string()
        } else {
            format!("{again} of them were accepted before; the earlier reasons, now replaced")
        };
        out.push_str(&playbookdiff_render::paragraph(
            &format!("{whose}: {}", earlier.join("; ")),
            "",
            "  ",
        ));
    } else if again > 0 {
        out.push_str(&playbookdiff_render::paragraph(
            "(already accepted for this reason: the reason is unchanged)",
            "",
            "  ",
        ));
    }
    out
}

/// [`accepted_text`] as a JSON document for `--format json`: `file`,
/// `reason`, and `accepted`, one object per id with `id`, `directories`
/// and, for an id accepted before, `replacedReason`.
fn accepted_json(file: &str, entries: &[AcceptedFinding], replaced: &[Option<String>]) -> String {
    let accepted: Vec<serde_json::Value> = entries
        .iter()
        .zip(replaced)
        .map(|(e, old)| {
            let mut v = serde_json::json!({ "id": e.id, "directories": e.directories });
            if let Some(old) = old {
                v["replacedReason"] = old.as_str().into();
            }
            v
        })
        .collect();
    let doc = serde_json::json!({
        "file": file,
        "reason": entries.first().map(|e| e.reason.as_str()),
        "accepted": accepted,
    });
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}

/// The launch directories of `--all-dirs`: the root and every directory
/// that holds an entry one of the harnesses reads configuration from
/// (outside the harnesses' own configuration directories), in path order.
///
/// A directory holding no configuration receives at startup exactly what
/// its nearest configured ancestor receives, so it is represented by it.
pub(crate) fn launch_directories(
    repo: &Repo<'_>,
    hs: &[Harness],
    exclusion: &Exclusion,
) -> Vec<RepoPath> {
    let mut names: Vec<&str> = Vec::new();
    let mut lookups: Vec<&str> = Vec::new();
    let mut own: Vec<&str> = Vec::new();
    for a in hs.iter().filter_map(|h| playbookdiff_registry::adapter(*h)) {
        names.extend_from_slice(a.config_entry_names());
        lookups.extend_from_slice(a.indexed_names());
        own.extend_from_slice(a.own_directories());
    }
    let mut dirs: Vec<RepoPath> = vec![RepoPath::root()];
    // With the names the adapters look up below each launch directory:
    // one pass over the tree answers them all.
    lookups.extend_from_slice(&names);
    repo.prefetch_named(&lookups);
    for name in &names {
        for p in repo.files_named(name) {
            let Some(dir) = p.parent() else { continue };
            if dir.components().any(|c| own.contains(&c)) {
                continue;
            }
            if repo.kind(&dir) == Some(EntryKind::Dir) && !exclusion.is_excluded(&dir, true) {
                dirs.push(dir);
            }
        }
    }
    dirs.sort();
    dirs.dedup();
    dirs
}

/// What a check of every launch directory works on: the repository,
/// opened and walked once, the harnesses compared, the command's context
/// arguments, its policy, and whether the report shows panes.
struct AllDirs<'a, 'r> {
    repo: &'a Repo<'r>,
    hs: &'a [Harness],
    opened: &'a OpenedContext,
    args: &'a ContextArgs,
    policy: &'a Policy,
    /// Whether to keep what each harness receives in each directory (the
    /// report's panes): only for the formats that show them.
    panes: bool,
}

/// What a worker sends back for one launch directory: its index into the
/// directories, the configurations (the root's only, else none), what
/// each harness receives at startup (its panes), the
/// comparison (findings only) and the problems with their harness.
struct DirChecked {
    index: usize,
    configs: Vec<EffectiveAgentConfig>,
    panes: Vec<Pane>,
    cmp: Comparison,
    problems: Vec<(Harness, Diagnostic)>,
}

/// Each finding id and the first launch directory (index into the
/// directories) known to have it. Read for every finding a directory
/// builds, written once per directory: a reader-writer lock lets the
/// workers' lookups proceed side by side.
type FirstSeen = std::sync::RwLock<std::collections::HashMap<String, usize>>;

/// The merged results of every launch directory, in directory order.
struct Merged {
    root_configs: Vec<EffectiveAgentConfig>,
    matrix: MatrixBuilder,
    problems: ProblemSet,
}

/// Checks every launch directory on the one `Repo`, spread over threads,
/// and passes the report and the number of failing findings to `render`.
///
/// Each worker compiles and compares one directory and sends back only its
/// findings: the aligned rows are not built, and the configurations are
/// dropped there (but the root's, which the report shows). The merge
/// keeps each finding once, so memory follows the number of distinct
/// findings, not directories times configuration size.
fn run_all_dirs(
    all: &AllDirs<'_, '_>,
    progress: &mut dyn FnMut(usize, usize),
    accept: Option<&str>,
    render: impl FnOnce(usize, &MatrixReport<'_>),
) -> Checked {
    let dirs = launch_directories(all.repo, all.hs, &all.policy.exclusion);
    let total = dirs.len();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let (tx, rx) = std::sync::mpsc::channel::<DirChecked>();
    let first = FirstSeen::default();
    let merged = std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, dirs, first) = (&next, &dirs, &first);
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= total {
                    break;
                }
                if tx.send(all.check_directory(dirs, i, first)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        merge_in_order(&rx, &dirs, progress)
    });
    progress(total, total);
    all.finish(merged, accept, render)
}

impl AllDirs<'_, '_> {
    /// Compiles and compares launch directory `dirs[i]`, records the
    /// findings it is the first to have, and keeps the configurations of
    /// the root only.
    fn check_directory(&self, dirs: &[RepoPath], i: usize, first: &FirstSeen) -> DirChecked {
        let mut ctx = self.opened.context.clone();
        ctx.cwd = dirs[i].clone();
        // A finding a directory before this one (in path order)
        // has is kept as that directory sees it: this one's copy
        // only lists and counts it, so it may come in outline.
        let settled = |id: &str| {
            first
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(id)
                .is_some_and(|&j| j < i)
        };
        // Only the findings are kept: the aligned rows are not
        // built.
        let (configs, mut cmp) = analyse_settled(
            self.repo,
            self.hs,
            &ctx,
            self.policy,
            &|h| {
                self.opened.inputs(
                    self.args
                        .agent
                        .inputs(self.policy.agent_version(self.args, h)),
                )
            },
            &settled,
            false,
        );
        // The guard's findings are the repository's: once, with the root.
        if dirs[i].is_root() {
            let layers = crate::guard_check::Layers::of(self.opened);
            self.policy.add_guard(&mut cmp, layers, self.repo, &configs);
        }
        record_first(first, &cmp, i);
        let panes = if self.panes {
            received::panes(&configs)
        } else {
            Vec::new()
        };
        let (configs, problems) = split_problems(configs, dirs[i].is_root());
        DirChecked {
            index: i,
            configs,
            panes,
            cmp,
            problems,
        }
    }

    /// Builds the report from the merged results, passes it to `render`,
    /// and says what fails and what `--accept` records.
    fn finish(
        &self,
        merged: Merged,
        accept: Option<&str>,
        render: impl FnOnce(usize, &MatrixReport<'_>),
    ) -> Checked {
        let Merged {
            root_configs,
            matrix,
            problems,
        } = merged;
        let policy = self.policy;
        let matrix = matrix.finish();
        let problems = problems.finish();
        let gate = policy.gate(
            matrix.findings.iter().map(|f| &f.finding),
            &problems,
            policy.baseline.stale(
                matrix.findings.iter().map(|f| f.finding.id.as_str()),
                Coverage::Every,
            ),
        );
        let r = MatrixReport {
            repository: &self.opened.repository_label,
            context: &self.opened.context,
            root_configs: &root_configs,
            matrix: &matrix,
            via: &self.opened.via,
            gate: &gate,
            problems: &problems,
        };
        let failing = gate.failing(matrix.findings.iter().map(|f| &f.finding));
        render(failing, &r);
        let to_accept = accept.map_or_else(Vec::new, |id| group_of(&matrix, id.trim()));
        // Built once for the command, which exits next: freeing every finding
        // and path one allocation at a time would be serial work after the
        // report, for nothing.
        let fixtures = fixtures(matrix.findings.iter().map(|f| &f.finding), &problems);
        crate::context::release_at_exit((matrix, root_configs, problems));
        Checked {
            failing,
            fixtures,
            to_accept,
        }
    }
}

/// Records directory `i` as the first known to have each finding of
/// `cmp` that no directory before it has.
fn record_first(first: &FirstSeen, cmp: &Comparison, i: usize) {
    let mut first = first
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for f in &cmp.findings {
        match first.get_mut(&f.id) {
            Some(j) => *j = (*j).min(i),
            None => {
                first.insert(f.id.clone(), i);
            }
        }
    }
}

/// The configurations to keep (the root's only) and every problem of
/// `configs` with its harness; the others' problems are moved out, not
/// copied.
fn split_problems(
    configs: Vec<EffectiveAgentConfig>,
    is_root: bool,
) -> (Vec<EffectiveAgentConfig>, Vec<(Harness, Diagnostic)>) {
    if is_root {
        let found: Vec<(Harness, Diagnostic)> = configs
            .iter()
            .flat_map(|c| {
                c.diagnostics
                    .iter()
                    .filter(|d| is_problem(d))
                    .map(|d| (c.harness, d.clone()))
            })
            .collect();
        (configs, found)
    } else {
        let found: Vec<(Harness, Diagnostic)> = configs
            .into_iter()
            .flat_map(|c| {
                let h = c.harness;
                c.diagnostics
                    .into_iter()
                    .filter(is_problem)
                    .map(move |d| (h, d))
            })
            .collect();
        (Vec::new(), found)
    }
}

/// Receives every directory's results and merges them in directory order
/// whatever order the workers finish in: where directories report the
/// same problem in different words, the first one added (the directory
/// first in path order) is kept, so the report is the same on every run.
/// Reports progress as directories are merged, and at least every 100 ms.
fn merge_in_order(
    rx: &std::sync::mpsc::Receiver<DirChecked>,
    dirs: &[RepoPath],
    progress: &mut dyn FnMut(usize, usize),
) -> Merged {
    let total = dirs.len();
    let mut merged = Merged {
        root_configs: Vec::new(),
        matrix: MatrixBuilder::new(),
        problems: ProblemSet::at_one_revision(),
    };
    let mut done = 0;
    let mut pending: BTreeMap<usize, DirChecked> = BTreeMap::new();
    loop {
        match rx.recv_timeout(std::time::Duration::from_millis(100)) {
            Ok(sent) => {
                pending.insert(sent.index, sent);
                while let Some(d) = pending.remove(&done) {
                    let dir = &dirs[d.index];
                    if dir.is_root() {
                        merged.root_configs = d.configs;
                    }
                    for (h, p) in &d.problems {
                        merged.problems.add_one(dir, *h, p);
                    }
                    merged.matrix.add_with_panes(dir.clone(), d.cmp, d.panes);
                    done += 1;
                }
                progress(done, total);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => progress(done, total),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    merged
}

/// The ids that accepting `id` under `--all-dirs` records: every finding
/// of the group `id` belongs to, in the group's order with `id` first.
///
/// The report shows a group (the same difference in several launch
/// directories, e.g. each package's own `AGENTS.md`) with one of its ids
/// as the example; each directory's finding has an id of its own, so
/// accepting only that one would leave the group open in the other
/// directories. Accepting records each member's id, so every finding
/// keeps its own stable id (a single `check --cwd DIR` and `diff` see the
/// same acceptance), and a directory that later joins the group is a new
/// finding to look at. Empty when `id` does not occur; `[id]` when it is
/// in no group of several findings. Each id comes with the launch
/// directories it occurs in, which the entry records.
fn group_of(
    matrix: &playbookdiff_compare::matrix::Matrix,
    id: &str,
) -> Vec<(String, Vec<RepoPath>)> {
    if matrix.finding(id).is_none() {
        return Vec::new();
    }
    let mut ids = vec![id];
    if let Some(g) = matrix
        .groups
        .iter()
        .find(|g| g.findings.iter().any(|f| f == id))
    {
        ids.extend(g.findings.iter().map(String::as_str).filter(|f| *f != id));
    }
    ids.into_iter()
        .filter_map(|i| matrix.finding(i))
        .map(|f| (f.finding.id.clone(), f.directories.clone()))
        .collect()
}

/// `playbookdiff explain`: status 0, or a usage error (status 2) when the
/// id is not found in the context.
pub(crate) fn run_explain(
    args: &ExplainArgs,
    current_dir: Option<&Path>,
    color: playbookdiff_render::Color,
    out: &mut Sink,
) -> Result<Outcome, UsageError> {
    let a = analyse_context(
        &args.context,
        &args.harness,
        args.config.as_deref(),
        current_dir,
    )?;
    let r = a.report();
    let id = args.finding_id.trim();
    let Some(f) = a.cmp.finding(id) else {
        return Err(UsageError(not_found(id, r.repository, r.context)));
    };
    out.render(|w| playbookdiff_render::format::explain(w, &r, f, args.output_format(), color));
    Ok(Outcome {
        output: String::new(),
        status: ExitStatus::Success,
    })
}

fn not_found(id: &str, repository: &str, ctx: &AnalysisContext) -> String {
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

//! `playbookdiff upgrade HARNESS FROM..TO [REPO]`: what one agent
//! receives differently from this repository after an upgrade from
//! release FROM to release TO, and which behaviour of the agent causes
//! each change.
//!
//! The steps of the upgrade are FROM, then each release in (FROM, TO] at
//! which a behaviour of the adapter's version table changes
//! ([`Adapter::release_changes`], the first releases found by bisection
//! with the real agent). Every launch directory (the context's, or with
//! `--all-dirs` every directory that holds any harness's configuration,
//! as `check --all-dirs` finds them)
//! is compiled at each step on one walk of the tree, and each step
//! compared with the one before it by `diff`'s comparison
//! ([`agent_delta`]): each change is then caused by the behaviours that
//! start at that step's release. The document is `diff`'s, rendered by
//! `diff`'s renderers, with the upgrade's sides and behaviours.
//!
//! In local mode (`--mode local --home H`) every step reads the same
//! user's and machine's layers, so a release that starts reading a user
//! file, or ships a built-in skill, changes what the model receives.
//! A behaviour the adapter models as an assumption sentence, not as a
//! contribution (OpenCode's bundled `customize-opencode` of 1.15.0 to
//! 1.17.11), changes nothing the comparison sees.
//!
//! Exit status 1 when a behaviour changes what the model receives at an
//! analysed context and `playbookdiff.toml` does not accept it
//! (`[[accepted]] id = "upgrade:<harness>:<fact>"`), or when the upgrade
//! introduces a problem in the repository that fails the run as `diff`
//! decides it; 2 when the command cannot run, among them when FROM and
//! TO map to one profile ([`same_profile`]). A release outside the
//! modelled window, or unprofiled, maps to the nearest modelled one, with
//! a note; the upgrade runs as long as the two ends map to two profiles.

use crate::check::{launch_directories, Outcome, Policy};
use crate::cli::UpgradeArgs;
use crate::context::{open_context, OpenedContext, UsageError};
use crate::exit::ExitStatus;
use crate::project;
use playbookdiff_compare::delta::{
    agent_delta, finding_delta, problem_delta, AgentDelta, FindingSet, ProblemSet,
};
use playbookdiff_compare::FailOn;
use playbookdiff_model::profile::{compare_versions, is_version, select_profile, ReleaseChange};
use playbookdiff_model::{AnalysisContext, DiagnosticCode, EffectiveAgentConfig, RepoPath};
use playbookdiff_registry::Adapter;
use playbookdiff_render::diff::{
    AnalysedContext, DiffContext, DiffDocument, DiffSide, DiffSummary, UpgradeChange, UpgradeSides,
};
use playbookdiff_source::Repo;
use std::cmp::Ordering;
use std::path::Path;

/// FROM and TO of `FROM..TO`, each a release as the agent prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Releases {
    pub from: String,
    pub to: String,
}

/// Parses `FROM..TO`. Errors: one line saying what is wrong (a missing
/// end, a third dot, an end that is not a release, a range that does not
/// go forward) and what to pass, with the harness's oldest and newest
/// profiled releases (`profiled`, oldest first) as the example when it has
/// two; within 80 columns after `error: ` unless the input is long.
pub(crate) fn parse_releases(raw: &str, profiled: &[&str]) -> Result<Releases, UsageError> {
    let example = match profiled {
        [first, .., last] => format!(", e.g. {first}..{last}"),
        _ => String::new(),
    };
    let shown = raw.trim().chars().take(40).collect::<String>();
    let usage = |why: String| UsageError(format!("{why}; give FROM..TO{example}"));
    let raw = raw.trim();
    if raw.contains("...") {
        return Err(usage("the range takes two dots".to_string()));
    }
    let Some((from, to)) = raw.split_once("..") else {
        return Err(usage(format!("'{shown}' is not a range")));
    };
    for (end, v) in [("FROM", from), ("TO", to)] {
        if v.is_empty() {
            return Err(usage(format!("'{shown}': {end} is missing")));
        }
        if !is_version(v) {
            let v: String = v.chars().take(20).collect();
            let why = match v.strip_prefix(['v', 'V']) {
                Some(rest) if is_version(rest) => "takes no `v`",
                _ => "is not a release",
            };
            return Err(usage(format!("{end} `{v}` {why}")));
        }
    }
    match compare_versions(from, to) {
        Ordering::Less => Ok(Releases {
            from: from.to_string(),
            to: to.to_string(),
        }),
        Ordering::Equal => Err(usage(format!("'{shown}' is no upgrade"))),
        Ordering::Greater => Err(usage(format!("'{shown}' is reversed"))),
    }
}

/// Refuses an upgrade whose FROM and TO map to one profile (each release
/// outside the modelled window, or unprofiled, is modelled as the nearest
/// one: Codex 9.9.9 and 10.0.0 both as 0.171.0, Cursor 2.3 as 2.4), which
/// would compare a release with itself. Error: one line naming the profile,
/// the releases the adapter models and what to give instead.
fn same_profile(adapter: &dyn Adapter, releases: &Releases) -> Result<(), UsageError> {
    let known = adapter.releases();
    let name = adapter.harness().display_name();
    let map = |v: &str| select_profile(name, &known, Some(v)).0.version;
    let used = map(&releases.from);
    if used != map(&releases.to) {
        return Ok(());
    }
    let unmodelled: Vec<&str> = [&releases.from, &releases.to]
        .into_iter()
        .filter(|v| map(v) != **v)
        .map(String::as_str)
        .collect();
    let which = match unmodelled.as_slice() {
        [one] => (*one).to_string(),
        _ => "both".to_string(),
    };
    let head = format!("{name}: FROM and TO both map to {used}");
    Err(UsageError(match (known.window(), known.profiled) {
        (Some((first, last)), _) => {
            format!("{head}, {which} outside {first}..{last}; pick within it")
        }
        (None, [_, _, ..]) => format!(
            "{head}, {which} not profiled; pick two of {}",
            known.profiled.join(", ")
        ),
        (None, _) => format!("{head}, its one profile: nothing to compare"),
    }))
}

/// The releases compiled: FROM, then the first release of each change in
/// (FROM, TO], oldest first, each once, then TO (for a harness whose
/// profiles differ in ways no bisected change names: what TO's profile
/// changes after the last of them).
fn steps(releases: &Releases, changes: &[ReleaseChange]) -> Vec<String> {
    let mut out = vec![releases.from.clone()];
    for c in changes {
        let after_from = compare_versions(c.since, &releases.from) == Ordering::Greater;
        let by_to = compare_versions(c.since, &releases.to) != Ordering::Greater;
        if after_from && by_to && !out.iter().any(|s| s == c.since) {
            out.push(c.since.to_string());
        }
    }
    if out.last() != Some(&releases.to) {
        out.push(releases.to.clone());
    }
    out
}

/// Runs `upgrade`; the report goes to `out` (nothing with `--quiet` when
/// the run passes).
pub(crate) fn run_upgrade(
    args: &UpgradeArgs,
    current_dir: Option<&Path>,
    color: playbookdiff_render::Color,
    out: &mut crate::sink::Sink,
) -> Result<Outcome, UsageError> {
    if !args.context.agent.agent_version.is_empty() {
        return Err(UsageError(
            "--agent-version does not apply to upgrade: FROM..TO names the two releases".into(),
        ));
    }
    let adapter = playbookdiff_registry::adapter(args.harness).ok_or_else(|| {
        UsageError(format!(
            "HARNESS '{}' is not supported",
            args.harness.as_str()
        ))
    })?;
    let releases = parse_releases(&args.releases, adapter.profiled_versions())?;
    same_profile(adapter, &releases)?;
    let opened = open_context(&args.context, current_dir)?;
    let loaded = project::load(args.config.as_deref(), &opened.root, current_dir)?;
    let fail_on = args.exit_zero.then_some(FailOn::Never);
    let policy = Policy::new(loaded.as_ref(), fail_on)?;
    // Every harness's entry names make the launch directories: a release
    // may start reading another agent's files (Claude Code's AGENTS.md
    // fallback), so a directory that holds only those is one too.
    let all: Vec<_> = playbookdiff_registry::ADAPTERS
        .iter()
        .map(|a| a.harness())
        .collect();
    let repo = opened.repo(&all, args.all_dirs, policy.exclusion.walker_patterns());
    let dirs = if args.all_dirs {
        launch_directories(&repo, &all, &policy.exclusion)
    } else {
        vec![opened.context.cwd.clone()]
    };
    let changes = adapter.release_changes();
    let run = Run {
        adapter,
        repo: &repo,
        args,
        opened: &opened,
        steps: steps(&releases, &changes),
    };
    let analysed: Vec<Analysed> = dirs.iter().map(|d| run.analyse(d)).collect();
    for line in unprofiled_releases(&analysed) {
        crate::note(&format!("note: {line}"));
    }
    let doc = document(
        &opened.repository_label,
        &releases,
        &run,
        &policy,
        &changes,
        analysed,
    );
    let status = ExitStatus::failing_if(doc.summary.failing > 0);
    if !(args.quiet && status == ExitStatus::Success) {
        out.render(|w| playbookdiff_render::format::diff(w, &doc, args.output_format(), color));
    }
    Ok(Outcome {
        output: String::new(),
        status,
    })
}

/// The `unknown-agent-version` messages of FROM and TO, each once: a
/// release without a profile of its own is modelled as another one
/// (`1.0.0` as Claude Code 2.1.197), which the report would otherwise
/// not say, so that `upgrade claude-code 1.0.0..9.9.9` reads as a
/// comparison of those releases.
fn unprofiled_releases(analysed: &[Analysed]) -> Vec<String> {
    let Some(a) = analysed.first() else {
        return Vec::new();
    };
    let mut lines: Vec<String> = Vec::new();
    for d in a.first.diagnostics.iter().chain(&a.last.diagnostics) {
        if d.code == DiagnosticCode::UnknownAgentVersion && !lines.contains(&d.message) {
            lines.push(d.message.clone());
        }
    }
    lines
}

/// What an upgrade compiles with: the adapter, the walked repository, the
/// command's inputs, the opened context and the steps.
struct Run<'a, 'r> {
    adapter: &'static dyn Adapter,
    repo: &'a Repo<'r>,
    args: &'a UpgradeArgs,
    /// The analysed context (`--all-dirs` replaces its cwd) and what it
    /// lets the adapters read besides the repository: in local mode the
    /// user's and the machine's configuration, the same at every step.
    opened: &'a OpenedContext,
    steps: Vec<String>,
}

/// One launch directory at every step: the first and last compilations
/// (for the problems in the repository) and the changes of each step.
struct Analysed {
    cwd: RepoPath,
    first: EffectiveAgentConfig,
    last: EffectiveAgentConfig,
    steps: Vec<DiffContext>,
}

impl Run<'_, '_> {
    /// Compiles `cwd` at `release`.
    fn compile(&self, cwd: &RepoPath, release: &str) -> EffectiveAgentConfig {
        let ctx = AnalysisContext {
            cwd: cwd.clone(),
            ..self.opened.context.clone()
        };
        let inputs = self
            .opened
            .inputs(self.args.context.agent.inputs(Some(release)));
        self.adapter.compile_with(self.repo, &ctx, &inputs)
    }

    /// Compiles `cwd` at every step and compares each with the one before.
    fn analyse(&self, cwd: &RepoPath) -> Analysed {
        let configs: Vec<EffectiveAgentConfig> =
            self.steps.iter().map(|s| self.compile(cwd, s)).collect();
        let steps = configs
            .windows(2)
            .zip(&self.steps[1..])
            .map(|(pair, release)| DiffContext {
                cwd: cwd.clone(),
                target_path: self.opened.context.target_path.clone(),
                agents: vec![agent_delta(&pair[0], &pair[1])],
                release: Some(release.clone()),
            })
            .filter(|d| d.agents.iter().any(|a| !a.is_empty()))
            .collect();
        let mut configs = configs.into_iter();
        let first = configs.next().expect("FROM is always a step");
        let last = configs.next_back().unwrap_or_else(|| first.clone());
        Analysed {
            cwd: cwd.clone(),
            first,
            last,
            steps,
        }
    }
}

/// True when a step changes what the model receives at its context
/// ([`AgentDelta::changes_for_model`]); a step with metadata-only
/// changes is listed but fails nothing.
fn for_model(d: &DiffContext) -> bool {
    d.agents.iter().any(AgentDelta::changes_for_model)
}

/// The document: `diff`'s, with the upgrade's sides and behaviours.
fn document(
    label: &str,
    releases: &Releases,
    run: &Run<'_, '_>,
    policy: &Policy,
    changes: &[ReleaseChange],
    analysed: Vec<Analysed>,
) -> DiffDocument {
    let h = run.adapter.harness();
    let mut first = ProblemSet::new();
    let mut last = ProblemSet::new();
    let mut directories = Vec::new();
    for a in &analysed {
        first.add(&a.cwd, std::slice::from_ref(&a.first));
        last.add(&a.cwd, std::slice::from_ref(&a.last));
        directories.extend(a.steps.iter().cloned());
    }
    let problems = problem_delta(first, last);
    let upgrade_changes: Vec<UpgradeChange> = changes
        .iter()
        .filter(|c| run.steps[1..].iter().any(|s| s == c.since))
        .map(|c| {
            let id = format!("upgrade:{}:{}", h.as_str(), c.fact);
            UpgradeChange {
                accepted: policy.baseline.reason(&id).map(str::to_string),
                id,
                change: *c,
                directories: directories
                    .iter()
                    .filter(|d| d.release.as_deref() == Some(c.since) && for_model(d))
                    .map(|d| d.cwd.clone())
                    .collect(),
            }
        })
        .collect();
    // A change at a step no bisected behaviour starts at (TO, for a
    // harness without bisection) has no id to accept: it always fails.
    let unexplained = directories
        .iter()
        .filter(|d| {
            for_model(d)
                && !changes
                    .iter()
                    .any(|c| d.release.as_deref() == Some(c.since))
        })
        .count();
    let failing_changes = if policy.fail_on == FailOn::Never {
        0
    } else {
        upgrade_changes.iter().filter(|c| c.fails()).count() + unexplained
    };
    let summary = DiffSummary {
        affected_contexts: analysed.len(),
        failing: failing_changes + problems.failing(policy.fail_on),
        introduced_problems: problems.introduced.len(),
        resolved_problems: problems.resolved.len(),
        ..DiffSummary::default()
    };
    let tree = DiffSide {
        revision: None,
        commit: None,
        merge_base: false,
    };
    DiffDocument {
        schema_version: 1,
        repository: label.to_string(),
        base: tree.clone(),
        head: tree,
        harnesses: vec![h],
        fail_on: policy.fail_on,
        changed_paths: Vec::new(),
        analysed: analysed
            .iter()
            .map(|a| AnalysedContext {
                cwd: a.cwd.clone(),
                target_path: run.opened.context.target_path.clone(),
            })
            .collect(),
        directories,
        findings: finding_delta(FindingSet::new(), FindingSet::new()),
        problems,
        summary,
        upgrade: Some(UpgradeSides {
            harness: h,
            from: releases.from.clone(),
            to: releases.to.clone(),
            changes: upgrade_changes,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases() {
        const CODEX: &[&str] = &["0.142.3", "0.171.0"];
        let r = parse_releases("2.1.197..2.1.332", CODEX).unwrap();
        assert_eq!((r.from.as_str(), r.to.as_str()), ("2.1.197", "2.1.332"));
        for (bad, says) in [
            ("2.1.197", "'2.1.197' is not a range"),
            ("2.1.332..2.1.197", "'2.1.332..2.1.197' is reversed"),
            ("2.1.197..2.1.197", "'2.1.197..2.1.197' is no upgrade"),
            ("a..b", "FROM `a` is not a release"),
            ("1..b", "TO `b` is not a release"),
            ("v1.2..1.3", "FROM `v1.2` takes no `v`"),
            ("..2.1.1", "'..2.1.1': FROM is missing"),
            ("2.1.1..", "'2.1.1..': TO is missing"),
            ("1...", "the range takes two dots"),
            ("0.77.0...0.171.0", "the range takes two dots"),
        ] {
            let e = parse_releases(bad, CODEX).unwrap_err();
            assert!(e.0.contains(says), "{bad}: {e}");
            assert!(
                e.0.ends_with("; give FROM..TO, e.g. 0.142.3..0.171.0"),
                "{bad}: {e}"
            );
            assert!(format!("error: {e}").chars().count() <= 80, "{bad}: {e}");
        }
        // A harness with fewer than two profiled releases gets no example.
        let e = parse_releases("2.4..2.4", &[]).unwrap_err();
        assert!(e.0.ends_with("give FROM..TO"), "{e}");
    }

    #[test]
    fn steps_are_the_first_releases_within_the_upgrade() {
        let change = |since| ReleaseChange {
            fact: "F",
            since,
            summary: "",
            evidence: "",
        };
        let changes = [
            change("2.1.216"),
            change("2.1.218"),
            change("2.1.218"),
            change("2.1.300"),
        ];
        let r = parse_releases("2.1.216..2.1.299", &[]).unwrap();
        assert_eq!(steps(&r, &changes), ["2.1.216", "2.1.218", "2.1.299"]);
        let r = parse_releases("2.1.216..2.1.218", &[]).unwrap();
        assert_eq!(steps(&r, &changes), ["2.1.216", "2.1.218"]);
    }
}

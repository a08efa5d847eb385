//! What the check renderers are fed: one context, or every launch directory.

use crate::layout::clean;
use playbookdiff_compare::delta::DiffProblem;
use playbookdiff_compare::matrix::Matrix;
use playbookdiff_compare::{AcceptedFinding, Comparison, FailOn, Finding};
use playbookdiff_model::{AnalysisContext, DiagnosticCode, EffectiveAgentConfig, Harness, Mode};

/// How the user named the launch directory and the target, when the name
/// leads elsewhere through a symbolic link (`apps/apilink` for `apps/api`).
/// The context holds where they lead; the headers show both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Via {
    /// `--cwd` as given (normalized), when it is not where it leads.
    pub cwd: Option<String>,
    /// `--target` as given (normalized), when it is not where it leads.
    pub target: Option<String>,
    /// The commit analysed instead of the working tree: `--rev` as given
    /// and the commit's short id (`("HEAD~1", "73931ee")`).
    pub revision: Option<(String, String)>,
    /// `--root` was given: the repository is REPO (or the current
    /// directory) even inside a larger git work tree, so the commands the
    /// report suggests pass it too.
    pub root: bool,
    /// `--home` and `--managed-root` as given (local mode), which the
    /// commands the report suggests pass too, in that order; `None` when
    /// not given.
    pub machine: [Option<String>; 2],
}

/// The repository for a header: REPO as given, with the commit when one
/// was analysed (`. at HEAD~1 (73931ee)`). Escaped.
pub(crate) fn repository_label(repository: &str, via: &Via) -> String {
    match &via.revision {
        None => clean(repository).into_owned(),
        Some((rev, short)) => format!("{} at {} ({})", clean(repository), clean(rev), clean(short)),
    }
}

/// The launch directory for a header: `. (the repository root)`,
/// `apps/api`, `apps/api (via apps/apilink)`.
pub(crate) fn cwd_label(ctx: &AnalysisContext, via: &Via) -> String {
    let via = via.cwd.as_deref().map(clean);
    match (ctx.cwd.is_root(), via) {
        (true, None) => ". (the repository root)".to_string(),
        (true, Some(v)) => format!(". (the repository root, via {v})"),
        (false, None) => clean(ctx.cwd.as_str()).into_owned(),
        (false, Some(v)) => format!("{} (via {v})", clean(ctx.cwd.as_str())),
    }
}

/// The target for a header: `(none)`, `a/b.ts`, `a/b.ts (via l/b.ts)`.
pub(crate) fn target_label(ctx: &AnalysisContext, via: &Via) -> String {
    match (&ctx.target_path, via.target.as_deref()) {
        (None, _) => "(none)".to_string(),
        (Some(t), None) => clean(t.as_str()).into_owned(),
        (Some(t), Some(v)) => format!("{} (via {})", clean(t.as_str()), clean(v)),
    }
}

/// `s` as one word of a suggested command, which a POSIX shell (bash,
/// zsh) reads back as exactly `s`, on one line: as is when no character
/// needs quoting, else in single quotes (`shlex`), and, when `s` holds a
/// control character (a newline, a tab), in ANSI-C quotes with escapes
/// (`$'a\nb'`, `shell_quote::Bash`: bash, zsh and ksh read them), so the
/// printed command holds no raw control character and still reproduces
/// `s`. Format characters such as bidirectional overrides are shown
/// escaped (`clean`): the command is then not pasted blind.
pub fn shell_word(s: &str) -> String {
    if s.chars().any(|c| c.is_control()) {
        return ansi_c_quoted(s);
    }
    // Words of these characters need no quotes in any position but a
    // command's name (`--fail-on=high`, `apps/web`), where `shlex`
    // quotes an `=` anyway.
    let plain = !s.is_empty()
        && s.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '.' | '/' | ':' | '=' | '@' | '%' | '+' | ',' | '-')
        });
    if plain {
        return s.to_string();
    }
    match shlex::try_quote(s) {
        Ok(q) => clean(&q).into_owned(),
        // Only a NUL is refused, and it is a control character.
        Err(_) => ansi_c_quoted(s),
    }
}

/// `s` in ANSI-C quotes (`shell_quote::Bash`), with the control characters
/// beyond ASCII (U+0080 to U+009F), which that crate leaves as they are,
/// written as `\uHHHH` escapes, which bash reads in a UTF-8 locale.
fn ansi_c_quoted(s: &str) -> String {
    use shell_quote::Quote as _;
    let quoted: String = shell_quote::Bash::quote(s);
    quoted
        .chars()
        .map(|c| {
            if c.is_control() && !c.is_ascii() {
                format!("\\u{:04X}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A repository path (REPO, `--cwd`, `--target`) as one word of a
/// suggested command ([`shell_word`]), with `./` before a path that begins
/// with `-`, which a command would otherwise take for an option.
pub fn shell_path(s: &str) -> String {
    if s.starts_with('-') {
        shell_word(&format!("./{s}"))
    } else {
        shell_word(s)
    }
}

/// The arguments that name the same analysis again: REPO (unless it is the
/// current directory), then `--cwd` (when `with_cwd` and not the root),
/// `--target`, `--mode` and `--rev`, each with a leading space.
pub(crate) fn context_args(
    repository: &str,
    ctx: &AnalysisContext,
    via: &Via,
    with_cwd: bool,
) -> String {
    let mut out = String::new();
    if repository != "." {
        out.push(' ');
        out.push_str(&shell_path(repository));
    }
    if via.root {
        out.push_str(" --root");
    }
    if let Some((rev, _)) = &via.revision {
        out.push_str(" --rev ");
        out.push_str(&shell_word(rev));
    }
    if with_cwd && !ctx.cwd.is_root() {
        out.push_str(" --cwd ");
        out.push_str(&shell_path(ctx.cwd.as_str()));
    }
    if let Some(t) = &ctx.target_path {
        out.push_str(" --target ");
        out.push_str(&shell_path(t.as_str()));
    }
    if ctx.mode == Mode::Local {
        out.push_str(" --mode local");
        for (option, value) in ["--home", "--managed-root"].iter().zip(&via.machine) {
            if let Some(v) = value {
                out.push_str(&format!(" {option} {}", shell_path(v)));
            }
        }
    }
    out
}

/// The agent releases modelled, for a context line: "Claude Code 2.1.332
/// and Codex 0.171.0". A release with no profile of its own shows the one
/// used and the one asked for: "Codex 0.142.3 (asked for 0.150.0)". `None`
/// when no configuration records a profile.
pub(crate) fn profiles_label(configs: &[EffectiveAgentConfig]) -> Option<String> {
    let v: Vec<String> = configs
        .iter()
        .filter_map(|c| {
            let p = c.agent_profile.as_ref()?;
            let asked = p
                .requested
                .as_deref()
                .map_or_else(String::new, |r| format!(" (asked for {})", clean(r)));
            Some(format!(
                "{} {}{asked}",
                c.harness.display_name(),
                clean(&p.version)
            ))
        })
        .collect();
    match v.len() {
        0 => None,
        1 => Some(v[0].clone()),
        n => Some(format!("{} and {}", v[..n - 1].join(", "), v[n - 1])),
    }
}

/// What decides the exit status of a check, for the renderers to say it:
/// the threshold, the problems in the repository that fail the run on
/// their own, and the accepted findings that no longer occur. The
/// findings themselves carry whether they are accepted
/// ([`Finding::accepted`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gate {
    /// The least severity of a not-accepted finding that fails the run.
    pub fail_on: FailOn,
    /// Accepted ids (from `playbookdiff.toml`) that no finding has.
    pub stale: Vec<AcceptedFinding>,
    /// The problems in the repository (an agent drops or refuses
    /// configuration: invalid JSON or TOML, an unreadable file…) that fail
    /// the run on their own under `fail_on`
    /// ([`DiffProblem::fails`]: an error weighs as `high`, a warning as
    /// `medium`, and a finding with evidence in the same file decides in
    /// its place), in report order.
    pub problems: Vec<DiffProblem>,
}

impl Gate {
    /// How many of `findings` and of the problems in the repository fail
    /// the run: the exit status is 1 when this is not 0.
    pub fn failing<'a>(&self, findings: impl IntoIterator<Item = &'a Finding>) -> usize {
        self.fail_on.failing(findings) + self.problems.len()
    }
}

/// A compatibility check under one context.
#[derive(Clone, Debug)]
pub struct CheckReport<'a> {
    /// How to name the repository to the user (REPO as given).
    pub repository: &'a str,
    /// The analysed context.
    pub context: &'a AnalysisContext,
    /// One configuration per compared harness, in the compared order.
    pub configs: &'a [EffectiveAgentConfig],
    /// The comparison of `configs`.
    pub comparison: &'a Comparison,
    /// How the user named the launch directory and the target.
    pub via: &'a Via,
    /// The threshold and the stale accepted findings.
    pub gate: &'a Gate,
}

impl CheckReport<'_> {
    /// The compared harnesses.
    pub fn harnesses(&self) -> Vec<Harness> {
        self.configs.iter().map(|c| c.harness).collect()
    }
}

/// A compatibility check of every launch directory.
#[derive(Clone, Debug)]
pub struct MatrixReport<'a> {
    /// How to name the repository to the user.
    pub repository: &'a str,
    /// The context at the repository root (target and mode as given).
    pub context: &'a AnalysisContext,
    /// The configurations at the repository root.
    pub root_configs: &'a [EffectiveAgentConfig],
    /// The findings merged and grouped, with every checked launch
    /// directory and the ids of its findings.
    pub matrix: &'a Matrix,
    /// How the user named the target.
    pub via: &'a Via,
    /// The threshold and the stale accepted findings.
    pub gate: &'a Gate,
    /// The problems in the repository every launch directory's
    /// configurations report, each once with the directories it is
    /// reported from (`ProblemSet::at_one_revision`).
    pub problems: &'a [playbookdiff_compare::delta::DiffProblem],
}

impl MatrixReport<'_> {
    /// The compared harnesses.
    pub fn harnesses(&self) -> Vec<Harness> {
        self.root_configs.iter().map(|c| c.harness).collect()
    }
}

/// Each code present in `configs` that says what no repository analysis
/// can know (its table kind is unknowable or an assumption about such
/// state), once, with the harnesses it concerns, in table order.
pub fn unknowable(configs: &[EffectiveAgentConfig]) -> Vec<(DiagnosticCode, Vec<Harness>)> {
    DiagnosticCode::ALL
        .iter()
        .filter(|code| code.kind().cannot_be_known())
        .filter_map(|code| {
            let hs: Vec<Harness> = configs
                .iter()
                .filter(|c| c.diagnostics.iter().any(|d| d.code == *code))
                .map(|c| c.harness)
                .collect();
            (!hs.is_empty()).then_some((*code, hs))
        })
        .collect()
}

/// The items of "Not known to this analysis", one wrapped `- ` line each
/// (`columns` wide): the assumptions every configuration shares, each
/// code that says what no analysis can know with the harnesses it
/// concerns ([`unknowable`]), then the submodules not read
/// ([`unread_submodules`]). Empty when there is none of them.
pub(crate) fn unknown_items(configs: &[EffectiveAgentConfig], columns: usize) -> String {
    let mut items: Vec<String> = shared_assumptions(configs)
        .iter()
        .map(|a| a.to_string())
        .collect();
    let local = configs.iter().any(|c| c.context.mode == Mode::Local);
    for (code, hs) in unknowable(configs) {
        items.push(format!(
            "{} ({})",
            unknowable_summary(code, local),
            playbookdiff_compare::names(&hs)
        ));
    }
    let subs = unread_submodules(configs);
    if !subs.is_empty() {
        items.push(submodules_item(&subs));
    }
    items
        .iter()
        .map(|i| crate::layout::wrap_hanging(&format!("- {i}"), "  ", "    ", columns))
        .collect()
}

/// The line of an unknowable `code`: its table summary, except that in
/// local mode, where the user's and the machine's files are read, what
/// stays unread of them is only a part (each diagnostic names it).
fn unknowable_summary(code: DiagnosticCode, local: bool) -> String {
    match code {
        DiagnosticCode::UserConfigUnavailable if local => {
            "parts of the user-level configuration the analysis does not read".into()
        }
        DiagnosticCode::ManagedConfigUnavailable if local => {
            "parts of the managed or system policy the analysis does not read".into()
        }
        _ => code.summary().to_string(),
    }
}

/// How many submodules "Not known to this analysis" names one by one.
const SUBMODULES_NAMED: usize = 5;

/// The item naming the submodules not read: the first
/// [`SUBMODULES_NAMED`], the rest counted, and how to analyse one.
fn submodules_item(subs: &[&str]) -> String {
    let named: Vec<String> = subs
        .iter()
        .take(SUBMODULES_NAMED)
        .map(|s| playbookdiff_model::remedy::code_span(s))
        .collect();
    let more = match subs.len().saturating_sub(SUBMODULES_NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(
        "submodules not read (each is another repository): {}{more}; analyse one with `playbookdiff DIR --root`",
        named.join(", ")
    )
}

/// The submodules a configuration names in a `submodule-not-analysed`
/// diagnostic (repo mode and commits read none of their files): their
/// paths from the repository root, sorted, each once.
pub fn unread_submodules(configs: &[EffectiveAgentConfig]) -> Vec<&str> {
    let mut subs: Vec<&str> = configs
        .iter()
        .flat_map(|c| &c.diagnostics)
        .filter(|d| d.code == DiagnosticCode::SubmoduleNotAnalysed)
        .filter_map(|d| d.subject.as_deref())
        .collect();
    subs.sort_unstable();
    subs.dedup();
    subs
}

/// The assumptions every configuration states in the same words: those
/// about how the repository itself was read (in repo mode, a directory
/// that is not a git work tree is read whole), not about one harness.
/// In the order of the first configuration; empty when there is none.
pub fn shared_assumptions(configs: &[EffectiveAgentConfig]) -> Vec<&str> {
    match configs.split_first() {
        None => Vec::new(),
        Some((first, rest)) => first
            .assumptions
            .iter()
            .filter(|a| rest.iter().all(|c| c.assumptions.contains(a)))
            .map(String::as_str)
            .collect(),
    }
}

/// Warnings and errors per harness other than the repository problems
/// ([`repository_problems`] lists those one by one).
pub fn problems(configs: &[EffectiveAgentConfig]) -> Vec<(Harness, usize)> {
    configs
        .iter()
        .map(|c| {
            (
                c.harness,
                c.diagnostics
                    .iter()
                    .filter(|d| {
                        d.severity != playbookdiff_model::Severity::Info
                            && !is_repository_problem(d)
                    })
                    .count(),
            )
        })
        .collect()
}

fn is_repository_problem(d: &playbookdiff_model::Diagnostic) -> bool {
    d.severity != playbookdiff_model::Severity::Info
        && d.code.kind() == playbookdiff_model::DiagnosticKind::RepositoryProblem
}

/// A problem in the repository (a warning or error diagnostic of kind
/// repository-problem: a broken import, a dangling link, a link stored as
/// text, a shadowed file), once per code, file and message, with every
/// harness that reports it in those words (harnesses whose messages differ,
/// such as their own size limits, get a problem each).
#[derive(Clone, Debug, PartialEq)]
pub struct RepositoryProblem<'a> {
    /// The diagnostic code.
    pub code: DiagnosticCode,
    /// The file and lines, when the diagnostic names one.
    pub source: Option<&'a playbookdiff_model::SourceRef>,
    /// The harnesses that report it, in configuration order.
    pub harnesses: Vec<Harness>,
    /// The harnesses' message: what is wrong and what to do.
    pub message: &'a str,
    /// What it is about when it names no file (the diagnostic's
    /// `subject`, such as an entry whose name is not UTF-8).
    pub subject: Option<&'a str>,
}

/// The repository problems of `configs`, by path, then code.
pub fn repository_problems(configs: &[EffectiveAgentConfig]) -> Vec<RepositoryProblem<'_>> {
    let mut out: Vec<RepositoryProblem<'_>> = Vec::new();
    for c in configs {
        for d in c.diagnostics.iter().filter(|d| is_repository_problem(d)) {
            let path = d.source.as_ref().map(|s| &s.path);
            match out.iter_mut().find(|p| {
                p.code == d.code && p.source.map(|s| &s.path) == path && p.message == d.message
            }) {
                Some(p) => {
                    if !p.harnesses.contains(&c.harness) {
                        p.harnesses.push(c.harness);
                    }
                }
                None => out.push(RepositoryProblem {
                    code: d.code,
                    source: d.source.as_ref(),
                    harnesses: vec![c.harness],
                    message: &d.message,
                    subject: d.subject.as_deref(),
                }),
            }
        }
    }
    out.sort_by(|a, b| {
        let pa = a.source.map(|s| s.path.as_str()).unwrap_or("");
        let pb = b.source.map(|s| s.path.as_str()).unwrap_or("");
        pa.cmp(pb)
            .then_with(|| a.code.as_str().cmp(b.code.as_str()))
    });
    out
}

/// `path:lines` of each item of `harness` in `f`, each place once, in path order (the same
/// order on every harness's row), at most `max`, then `+N`;
/// for a finding without items (an agent that would not start), the
/// files its problems name for `harness`.
pub fn evidence(f: &Finding, harness: Harness, max: usize) -> Option<String> {
    let mut sources: Vec<&playbookdiff_model::SourceRef> = if f.items.is_empty() {
        f.problems
            .iter()
            .filter(|p| p.harness == harness)
            .filter_map(|p| p.source.as_ref())
            .collect()
    } else {
        f.items
            .iter()
            .filter(|i| i.harness == harness)
            .map(|i| &i.source)
            .collect()
    };
    // Every harness's row in one order, by path (lines in their order
    // within a file), whatever order each side's items came in.
    sources.sort_by(|a, b| a.path.as_str().cmp(b.path.as_str()));
    // One place once: two items from the same lines (an instruction file
    // a harness reaches both as the root's and the cwd's) are one place.
    let mut locs: Vec<String> = Vec::new();
    for loc in sources.into_iter().map(crate::text::location) {
        if !locs.contains(&loc) {
            locs.push(loc);
        }
    }
    if locs.is_empty() {
        return None;
    }
    let mut s = locs
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if locs.len() > max {
        s.push_str(&format!(", +{}", locs.len() - max));
    }
    Some(s)
}

/// Words for how a harness has an item, the same in the view, `check` and
/// `explain`: the reception's label (`startup`, `on demand`,
/// `conditional`, `not loaded`), except that an MCP server that starts
/// only under something the analysis cannot know (in practice, the user's
/// approval) `needs approval`.
pub(crate) fn state_label(
    category: playbookdiff_compare::Category,
    r: playbookdiff_compare::Reception,
) -> &'static str {
    use playbookdiff_compare::{Category, Reception};
    match (category, r) {
        (Category::Mcp, Reception::Conditional) => "needs approval",
        (Category::Hook, Reception::Conditional) => "may run",
        (_, r) => r.label(),
    }
}

/// An evidence item's state in those words, with why it is not loaded
/// in the words of [`not_loaded_label`] (`shadowed`, `excluded`), and `by
/// target` for an on-demand item the target triggers.
pub(crate) fn item_state(
    category: playbookdiff_compare::Category,
    phase: playbookdiff_model::LoadPhase,
    applicability: playbookdiff_model::Applicability,
    has_target: bool,
) -> String {
    use playbookdiff_compare::{Cell, Reception};
    let r = Reception::of(phase, applicability);
    match (r, applicability) {
        (Reception::OnDemand, _) if has_target && Cell::triggers(phase, applicability) => {
            "by target".to_string()
        }
        (Reception::NotLoaded, a) => not_loaded_label(Some(a)).to_string(),
        (r, _) => state_label(category, r).to_string(),
    }
}

/// The one word for each reason an item is not loaded, the same in the
/// view, `check` and `explain` (`applicability` of the item): `shadowed`
/// (another source wins its slot), `excluded` (a setting removes it, or
/// the harness refuses it: empty, invalid), `unavailable` (outside what
/// the mode reads: a personal file in repo mode, a link out of the
/// repository) and `not loaded` (loaded only from other launch
/// directories). The legend of the view explains each ([`NOT_LOADED_LEGEND`]).
pub(crate) fn not_loaded_label(
    applicability: Option<playbookdiff_model::Applicability>,
) -> &'static str {
    use playbookdiff_model::Applicability;
    match applicability {
        Some(Applicability::Shadowed) => "shadowed",
        Some(Applicability::Excluded) => "excluded",
        Some(Applicability::Unavailable) => "unavailable",
        _ => "not loaded",
    }
}

/// The view's legend of the words of [`not_loaded_label`].
pub(crate) const NOT_LOADED_LEGEND: [(&str, &str); 4] = [
    (
        "not loaded",
        "not loaded = the agent has it, but not from this launch directory.",
    ),
    (
        "shadowed",
        "shadowed = the agent has it, but another file or item wins its place.",
    ),
    (
        "excluded",
        "excluded = the agent finds it, but refuses it or a setting removes it.",
    ),
    (
        "unavailable",
        "unavailable = it exists, but outside what this mode reads.",
    ),
];

#[cfg(test)]
mod tests {
    use super::{shell_path, shell_word};

    /// What `bash` makes of `word` as the argument of `printf %s`: the
    /// string a user pasting the suggested command passes.
    fn through_bash(word: &str) -> String {
        let out = std::process::Command::new("bash")
            .env("LC_ALL", "C.UTF-8")
            .arg("-c")
            .arg(format!("printf %s {word}"))
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "{word}");
        String::from_utf8(out.stdout).unwrap()
    }

    /// Hostile names: each comes back from bash as it was, and the quoted
    /// word is one line with no raw control character.
    #[test]
    fn suggested_words_round_trip_through_the_shell() {
        for name in [
            "apps/web",
            "a b",
            "a\nb",
            "a\tb",
            "it's",
            "say \"hi\"",
            "$HOME",
            "`id`",
            "$(id)",
            "a\\b",
            "*",
            "~user",
            "#x",
            "a;b|c&d",
            "\u{1b}[31mred",
            "caf\u{e9}",
            "\u{85}next line",
            "",
        ] {
            let q = shell_word(name);
            assert!(!q.chars().any(char::is_control), "{name:?}: {q:?}");
            assert_eq!(through_bash(&q), name, "{name:?}: {q}");
        }
        // A path that begins with `-` is not taken for an option.
        assert_eq!(shell_path("-x"), "./-x");
        assert_eq!(through_bash(&shell_path("-x y")), "./-x y");
        assert_eq!(shell_word("apps/web"), "apps/web");
        assert_eq!(shell_word("a b"), "'a b'");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Any text without NUL (which no argument can hold) round-trips.
        #[test]
        fn any_word_round_trips(name in "[^\u{0}]{0,12}") {
            let q = shell_word(&name);
            proptest::prop_assert!(!q.chars().any(char::is_control), "{:?}", q);
            // Format characters are shown escaped, on purpose.
            if !name.chars().any(crate::layout::is_hidden) {
                proptest::prop_assert_eq!(through_bash(&q), name);
            }
        }
    }
}

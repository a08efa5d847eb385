//! The listing budget (fidelity X17; `codex-rs/core-skills/src/render.rs`):
//! the lines of the skills the model may invoke, costed against 2 % of the
//! context window, descriptions shortened and skills omitted as Codex does.

use super::system::is_system;
use super::Root;
use crate::profile::{Facts, SkillPathStyle};
use crate::skill_file;
use crate::{ContextWindow, Cx, SKILL_BUDGET_FALLBACK_CHARS};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    AdvertisementState, Applicability, BudgetCause, Diagnostic, DiagnosticCode, RepoPath, Skill,
};

/// `CODEX_HOME` assumed when a release lists absolute paths: the bundled
/// skills' lines cost as if Codex's home were this directory.
pub(super) const ASSUMED_CODEX_HOME: &str = "/home/user/.codex";

/// The repository's absolute path assumed when a release lists absolute
/// paths and the tree has none (a tree that is not on disk).
pub(super) const ASSUMED_REPOSITORY_PATH: &str = "/repo";

/// How the budget is counted (`SkillMetadataBudget`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Budget {
    /// Tokens, each line costed at ceil(bytes / 4).
    Tokens(usize),
    /// Characters, when the context window is unknown.
    Chars(usize),
}

impl Budget {
    /// 2 % of `window` tokens (at least 1), or 8,000 characters for an
    /// unknown (`None` or `0`) window (`default_skill_metadata_budget`).
    pub(crate) fn for_window(window: Option<u64>) -> Budget {
        match window {
            Some(w) if w > 0 => {
                let w = usize::try_from(w).unwrap_or(usize::MAX);
                Budget::Tokens((w.saturating_mul(2) / 100).max(1))
            }
            _ => Budget::Chars(SKILL_BUDGET_FALLBACK_CHARS as usize),
        }
    }

    fn limit(self) -> usize {
        match self {
            Budget::Tokens(n) | Budget::Chars(n) => n,
        }
    }

    fn cost_counts(self, chars: usize, bytes: usize) -> usize {
        match self {
            Budget::Tokens(_) => bytes.div_ceil(4),
            Budget::Chars(_) => chars,
        }
    }

    /// The cost of `line` rendered with at most `description_chars` of its
    /// description ([`Line::size`]), followed by a newline.
    fn line_cost(self, line: &Line, description_chars: usize) -> usize {
        let (chars, bytes) = line.size(description_chars);
        self.cost_counts(chars + 1, bytes + 1)
    }
}

/// One line of the listing: `- name: description (file: path)`.
pub(crate) struct Line {
    pub name: String,
    /// The description as listed (at most 1,024 characters).
    pub description: String,
    pub path: String,
}

impl Line {
    /// The characters and bytes of the line rendered with at most
    /// `description_chars` characters of its description: the length of
    /// `- name: description (file: path)` (`- name: (file: path)` with no
    /// description), counted without building it, since the budget costs
    /// every line of every launch directory.
    fn size(&self, description_chars: usize) -> (usize, usize) {
        // "- " + ": " + "(file: " + ")"
        const FIXED: usize = 2 + 2 + 7 + 1;
        let chars = FIXED + self.name.chars().count() + self.path.chars().count();
        let bytes = FIXED + self.name.len() + self.path.len();
        if description_chars == 0 || self.description.is_empty() {
            return (chars, bytes);
        }
        let (dc, db) = if description_chars >= self.description.len() {
            // At least as many characters as the description has bytes:
            // all of it.
            (self.description.chars().count(), self.description.len())
        } else {
            self.description
                .chars()
                .take(description_chars)
                .fold((0, 0), |(c, b), ch| (c + 1, b + ch.len_utf8()))
        };
        // The description and the space after it.
        (chars + dc + 1, bytes + db + 1)
    }

    /// The line as Codex renders it, with at most `description_chars`
    /// characters of its description.
    #[cfg(test)]
    fn render(&self, description_chars: usize) -> String {
        if description_chars == 0 || self.description.is_empty() {
            format!("- {}: (file: {})", self.name, self.path)
        } else {
            let d: String = self.description.chars().take(description_chars).collect();
            format!("- {}: {} (file: {})", self.name, d, self.path)
        }
    }
}

/// What the budget does to one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Listed whole.
    Full,
    /// Listed with the first n characters of its description (0: name and
    /// path only).
    Cut(usize),
    /// Not listed.
    Omitted,
}

/// The fate of each line, in order, as `render_skill_lines_from_lines`
/// decides it: everything whole when it fits; otherwise, when every line
/// fits without its description, description characters are handed out
/// one at a time round-robin while they fit (so unused shares go to
/// longer descriptions); otherwise lines without descriptions are taken
/// in order while they fit and the rest are omitted.
pub(crate) fn fates(lines: &[Line], budget: Budget) -> Vec<Fate> {
    let limit = budget.limit();
    let full: usize = lines.iter().map(|l| budget.line_cost(l, usize::MAX)).sum();
    if full <= limit {
        return vec![Fate::Full; lines.len()];
    }
    let minimum: Vec<usize> = lines.iter().map(|l| budget.line_cost(l, 0)).collect();
    let min_total: usize = minimum.iter().sum();
    if min_total <= limit {
        let mut remaining = limit - min_total;
        // extra[i][k]: the cost of k description characters beyond the bare line.
        let extra: Vec<Vec<usize>> = lines
            .iter()
            .map(|l| {
                let (c0, b0) = l.size(0);
                let (c0, b0) = (c0 + 1, b0 + 1);
                let base = budget.cost_counts(c0, b0);
                let mut v = vec![0];
                let (mut pc, mut pb) = (0, 0);
                for ch in l.description.chars() {
                    pc += 1;
                    pb += ch.len_utf8();
                    v.push(
                        budget
                            .cost_counts(c0 + pc + 1, b0 + pb + 1)
                            .saturating_sub(base),
                    );
                }
                v
            })
            .collect();
        let mut alloc = vec![0usize; lines.len()];
        loop {
            let mut changed = false;
            for i in 0..lines.len() {
                if alloc[i] + 1 >= extra[i].len() {
                    continue;
                }
                let delta = extra[i][alloc[i] + 1].saturating_sub(extra[i][alloc[i]]);
                if delta <= remaining {
                    alloc[i] += 1;
                    remaining -= delta;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        return alloc
            .iter()
            .zip(lines)
            .map(|(&a, l)| {
                if a >= l.description.chars().count() {
                    Fate::Full
                } else {
                    Fate::Cut(a)
                }
            })
            .collect();
    }
    let mut used = 0;
    minimum
        .iter()
        .zip(lines)
        .map(|(&c, l)| {
            if used + c <= limit {
                used += c;
                if l.description.is_empty() {
                    Fate::Full
                } else {
                    Fate::Cut(0)
                }
            } else {
                Fate::Omitted
            }
        })
        .collect()
}

/// True for a skill the listing shows: effective and advertised.
fn listed_line(s: &Skill) -> bool {
    s.applicability == Applicability::Effective
        && s.advertisement.state == AdvertisementState::Advertised
}

/// The listing budget (X17; openai/codex `codex-rs/core-skills/src/render.rs`):
/// the lines of the skills the model may invoke (effective, implicit
/// invocation allowed), the release's bundled skills first, then by name
/// and path, costed against 2 % of the context window. Run twice: with
/// the bundled skills of a fresh installation (the prediction) and with
/// the repository's skills alone (what is certain). Shortened and omitted
/// skills get that state, the kept characters and the cause, and one
/// diagnostic names them.
pub(super) fn budget(
    cx: &mut Cx<'_, '_>,
    skills: &mut [Skill],
    roots: &[Root],
    facts: &Facts,
    context_window: ContextWindow,
) {
    let window = crate::listing_window(context_window, facts);
    let b = Budget::for_window(window);
    let listed: Vec<usize> = (0..skills.len())
        .filter(|&i| listed_line(&skills[i]) && !is_system(&skills[i]))
        .collect();
    if listed.is_empty() {
        return;
    }
    let paths = ListedPaths::of(cx, skills, roots, facts);
    let alone: Vec<Line> = listed
        .iter()
        .map(|&i| paths.line(&skills[i], false))
        .collect();
    let mut with: Vec<Line> = paths.bundled(facts, skills);
    let nb = with.len();
    with.extend(listed.iter().map(|&i| paths.line(&skills[i], true)));
    let fate_alone = fates(&alone, b);
    let fate_with = fates(&with, b);
    let mut named = Named::default();
    for (k, &i) in listed.iter().enumerate() {
        let fate = fate_with[nb + k];
        if fate == Fate::Full {
            continue;
        }
        let cause = if fate_alone[k] == Fate::Full {
            BudgetCause::WithBundled
        } else {
            BudgetCause::Certain
        };
        let total = with[nb + k].description.chars().count();
        named.apply(&mut skills[i], fate, cause, total);
    }
    if named.shortened.is_empty() && named.dropped.is_empty() && named.omitted.is_empty() {
        return;
    }
    let words = budget_words(b, window, context_window);
    let d = named.diagnostic(&cx.context.cwd, &words, nb);
    cx.diag(d);
}

/// How the skill list names each skill's file: an absolute path (the
/// repository's, or [`ASSUMED_REPOSITORY_PATH`]), or an alias `rN/` for
/// the N-th skills root holding a loaded skill, in scan order, the bundled
/// skills' root counted after the project `.codex/skills` roots.
struct ListedPaths<'r> {
    style: SkillPathStyle,
    abs_root: String,
    roots: &'r [Root],
    /// The roots holding a loaded skill, by index in `roots`, in scan
    /// order.
    used_roots: Vec<usize>,
    /// How many of them are project `.codex/skills` roots.
    project_codex_roots: usize,
}

impl<'r> ListedPaths<'r> {
    fn of(cx: &Cx<'_, '_>, skills: &[Skill], roots: &'r [Root], facts: &Facts) -> Self {
        let abs_root = cx
            .repo
            .tree()
            .absolute_root()
            .map(|p| p.to_string_lossy().trim_end_matches('/').to_string())
            .unwrap_or_else(|| ASSUMED_REPOSITORY_PATH.to_string());
        let mut paths = ListedPaths {
            style: facts.skill_paths,
            abs_root,
            roots,
            used_roots: Vec::new(),
            project_codex_roots: 0,
        };
        let mut used: Vec<usize> = skills
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .filter_map(|s| paths.root_of(s))
            .collect();
        used.sort_unstable();
        used.dedup();
        paths.project_codex_roots = used
            .iter()
            .filter(|&&r| roots[r].path.as_str().contains(".codex/skills"))
            .count();
        paths.used_roots = used;
        paths
    }

    /// The index in `roots` of the root holding `s`.
    fn root_of(&self, s: &Skill) -> Option<usize> {
        self.roots
            .iter()
            .position(|r| s.source.path.starts_with(&r.path))
    }

    /// The line of the repository skill `s`, in a listing with the bundled
    /// skills (`with_bundled`) or without.
    fn line(&self, s: &Skill, with_bundled: bool) -> Line {
        let path = match self.style {
            SkillPathStyle::Absolute => {
                let real = s.source.resolved_path.as_ref().unwrap_or(&s.source.path);
                format!("{}/{real}", self.abs_root)
            }
            SkillPathStyle::Aliased => {
                let r = self.root_of(s).unwrap_or(0);
                let mut n = self.used_roots.iter().position(|&u| u == r).unwrap_or(0);
                if with_bundled && n >= self.project_codex_roots {
                    n += 1;
                }
                let rel = s
                    .source
                    .path
                    .as_str()
                    .strip_prefix(self.roots.get(r).map_or("", |r| r.path.as_str()))
                    .unwrap_or(s.source.path.as_str())
                    .trim_start_matches('/');
                format!("r{n}/{rel}")
            }
        };
        Line {
            name: s.name.clone(),
            description: skill_file::shown_description(s.description.as_deref().unwrap_or("")),
            path,
        }
    }

    /// The lines of the system skills, first in the listing: those local
    /// mode compiled ([`super::system`]) when there are some, else those a
    /// fresh installation of the release bundles.
    fn bundled(&self, facts: &Facts, skills: &[Skill]) -> Vec<Line> {
        let system: Vec<&Skill> = skills
            .iter()
            .filter(|s| is_system(s) && listed_line(s))
            .collect();
        if skills.iter().any(is_system) {
            return system
                .iter()
                .map(|s| {
                    let description = match &s.description {
                        Some(d) => skill_file::shown_description(d),
                        None => "x".repeat(s.advertisement.description_chars as usize),
                    };
                    self.system_line(&s.name, &s.directory_name, description)
                })
                .collect();
        }
        facts
            .bundled_skills
            .iter()
            .map(|k| self.system_line(k.name, k.name, "x".repeat(k.description_chars)))
            .collect()
    }

    /// The line of the system skill `name` in the folder `dir`.
    fn system_line(&self, name: &str, dir: &str, description: String) -> Line {
        Line {
            name: name.to_string(),
            description,
            path: match self.style {
                SkillPathStyle::Absolute => {
                    format!("{ASSUMED_CODEX_HOME}/skills/.system/{dir}/SKILL.md")
                }
                SkillPathStyle::Aliased => {
                    format!("r{}/{dir}/SKILL.md", self.project_codex_roots)
                }
            },
        }
    }
}

/// The budget in words: tokens and the window they come from, or
/// characters for a window given as unknown.
fn budget_words(b: Budget, window: Option<u64>, context_window: ContextWindow) -> String {
    match b {
        Budget::Tokens(n) => {
            let source = match context_window {
                ContextWindow::ReleaseDefault => "the context window of this Codex release's default model; the user's model is an input the analysis cannot know, so pass --context-window for another model",
                _ => "the context window given with --context-window",
            };
            format!(
                "{n} tokens (2% of {} tokens, {source})",
                window.unwrap_or(0)
            )
        }
        Budget::Chars(n) => format!("{n} characters (the context window given as unknown)"),
    }
}

/// The most skills one list of the `skill-listing-budget` diagnostic
/// names: a longer list is given as its count and its first
/// [`NAMED_FIRST`] names, so that the diagnostic keeps a few lines however
/// many skills a repository has. Each skill's own entry still says what
/// the budget does to it (its advertisement state, the characters kept and
/// the cause).
const NAMED_AT_MOST: usize = 5;

/// How many names a list longer than [`NAMED_AT_MOST`] shows.
const NAMED_FIRST: usize = 3;

/// The skills the listing budget touches, by name: shortened (with the
/// characters kept), dropped (listed without any of their description) and
/// omitted; and the same skills by cause, certain from
/// the repository's skills alone or only with the bundled skills.
#[derive(Default)]
struct Named {
    shortened: Vec<String>,
    dropped: Vec<String>,
    omitted: Vec<String>,
    certain: Vec<String>,
    with_bundled: Vec<String>,
}

impl Named {
    /// Gives the skill `s` its `fate` in the listing (shortened or
    /// omitted), with its `cause`, and names it; `total` is the length of
    /// its description in characters.
    fn apply(&mut self, s: &mut Skill, fate: Fate, cause: BudgetCause, total: usize) {
        let name = s.name.clone();
        match fate {
            Fate::Cut(n) => {
                s.advertisement.state = AdvertisementState::Shortened;
                s.advertisement.shown_description_chars = Some(n as u64);
                if n == 0 {
                    s.reason.push_str(&format!(
                        " The listing budget drops its description (all {total} characters): the model sees its name and path only."
                    ));
                    self.dropped.push(format!("{name} ({total} characters)"));
                } else {
                    s.reason.push_str(&format!(
                        " The listing budget keeps {n} of the {total} characters of its description."
                    ));
                    self.shortened
                        .push(format!("{name} ({n} of {total} characters)"));
                }
            }
            _ => {
                s.advertisement.state = AdvertisementState::Omitted;
                s.reason.push_str(" The listing budget leaves it out of the skill list the model sees; the user can still invoke it by name.");
                self.omitted.push(name.clone());
            }
        }
        s.advertisement.budget_cause = Some(cause);
        match cause {
            BudgetCause::Certain => self.certain.push(name),
            BudgetCause::WithBundled => self.with_bundled.push(name),
        }
    }

    /// The `skill-listing-budget` diagnostic for the launch directory
    /// `cwd`, a budget of `budget` (in words) and `bundled` skills a fresh
    /// installation bundles (two or more).
    fn diagnostic(&self, cwd: &RepoPath, budget: &str, bundled: usize) -> Diagnostic {
        let cut = [
            &self.shortened,
            &self.dropped,
            &self.omitted,
            &self.certain,
            &self.with_bundled,
        ]
        .iter()
        .any(|v| v.len() > NAMED_AT_MOST);
        let rest = if cut {
            " Each skill's own entry says whether the budget shortens or omits it, and why."
        } else {
            ""
        };
        let dropped = if self.dropped.is_empty() {
            String::new()
        } else {
            format!("descriptions dropped: {}; ", named(&self.dropped))
        };
        Diagnostic::new(
            DiagnosticCode::SkillListingBudget,
            format!(
                "The skill list Codex shows the model from cwd {} does not fit its budget of {budget}: descriptions shortened: {}; {dropped}skills omitted: {}. Certain from the repository's skills alone: {}; only together with the {bundled} skills a fresh Codex installation bundles: {}.{rest} User and admin skills the analysis cannot see take more of the budget. Shorten the descriptions, or set policy.allow_implicit_invocation: false in `agents/openai.yaml` for skills the model need not pick on its own.",
                problems::quote(cwd),
                named(&self.shortened),
                named(&self.omitted),
                named(&self.certain),
                named(&self.with_bundled),
            ),
        )
    }
}

/// The names of `v`, or `none`; a list longer than [`NAMED_AT_MOST`] as
/// its count and its first [`NAMED_FIRST`] names.
fn named(v: &[String]) -> String {
    match v.len() {
        0 => "none".to_string(),
        n if n <= NAMED_AT_MOST => v.join(", "),
        n => format!("{n} skills, among them {}", v[..NAMED_FIRST].join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Line::size`] counts what [`Line::render`] writes, for every
    /// description length, in characters and bytes (multi-byte text
    /// included).
    #[test]
    fn line_size_is_the_length_of_the_rendered_line() {
        let lines = [
            ("a", "", "r0/a/SKILL.md"),
            ("deploy", "Ships it.", "r1/deploy/SKILL.md"),
            (
                "événement",
                "Déploie «vite» 🚀 ok",
                "/repo/.agents/skills/é/SKILL.md",
            ),
        ];
        for (name, description, path) in lines {
            let l = Line {
                name: name.to_string(),
                description: description.to_string(),
                path: path.to_string(),
            };
            for n in [0, 1, 2, 5, 19, 20, 21, usize::MAX] {
                let r = l.render(n);
                assert_eq!(l.size(n), (r.chars().count(), r.len()), "{r:?}");
            }
        }
    }
}

//! The skill listing's budget from [`Fact::SkillListingShortensDescriptions`]
//! on: the description each listed skill is shown with, computed as the
//! release computes it.
//!
//! Three ways of spending the budget follow one another ([`Fit`]). 2.1.19
//! cuts every description longer than one equal share of 15,000 UTF-16
//! code units (`cli.js`, `u82`); from
//! [`Fact::SkillListingBudgetFromContextWindow`] the share is one of a
//! budget sized by the context window, after the bundled skills' entries
//! (2.1.122, `Q96`, in terminal columns: case
//! `claude.c31_listing_shortened` with 2.1.122 cuts every description to
//! 123 columns, CJK text to 61 characters and `…`, text with ten emoji
//! to 112 and `…`), which the adapter does not compute, the bundled
//! skills of those releases not being measured: the listing is marked at
//! risk; from [`Fact::SkillListingDropsDescriptionsByUse`] each
//! description is kept whole or dropped (2.1.197, `Yio`; 2.1.332, `q3n`).
//! Seen on case `claude.c31_listing_shortened` (forty skills, a
//! description just under and one just over 2.1.19's share, CJK text,
//! characters outside the Basic Multilingual Plane, one over the cap per
//! description) with 2.1.19, 2.1.122, 2.1.197 and 2.1.332.

use crate::profile::{Fact, Profile};
use crate::Compiler;
use playbookdiff_adapter::ContextWindow;
use playbookdiff_model::{
    AdvertisementState, AggregateBudget, BudgetCause, Diagnostic, DiagnosticCode, LoadPhase, Skill,
};
use unicode_width::UnicodeWidthChar;

/// 2.1.19's budget for the whole listing, in UTF-16 code units, when
/// `SLASH_COMMAND_TOOL_CHAR_BUDGET` is unset (`cli.js`, `b82`).
pub(crate) const EQUAL_SHARE_BUDGET_UNITS: u64 = 15_000;

/// Below this share (UTF-16 code units) 2.1.19 lists names only (`B82`).
const NAMES_ONLY_BELOW: u64 = 20;

/// The share of the context window's characters for the listing
/// (`skillListingBudgetFraction`'s default, 2.1.122 to 2.1.332).
pub(crate) const BUDGET_FRACTION: f64 = 0.01;

/// Characters per token of the default model of 2.1.197 and 2.1.332
/// (`GE` in 2.1.197 gives 3 for any model outside its list of older
/// ones, which count 4). 2.1.129's `Mz$` counts 4 for every model
/// (`g_6`); the release between that moved to the model's count is not
/// bisected, so 2.1.129 to 2.1.196 are modelled with 3 too.
const CHARS_PER_TOKEN: u64 = 3;

/// The context window of the default model of 2.1.197 and 2.1.332, in
/// tokens: one million (case `claude.c31_listing_shortened` shows a budget
/// of 29,500 to 30,000 columns in both, 1% of one million tokens at
/// three characters each).
const DEFAULT_WINDOW_TOKENS: u64 = 1_000_000;

/// The window assumed for a model the release knows no window for
/// (`vcp` in 2.1.197, `Ubs` in 2.1.332: 200,000 tokens).
const UNKNOWN_WINDOW_TOKENS: u64 = 200_000;

/// The columns the entries of a fresh installation's bundled skills take
/// in the listing, each with its line end, by the first release they hold
/// for: listed whole before the repository's skills, whatever the budget.
/// Measured on each profiled release's listing of an empty repository
/// (`oracle/observations/claude-code/<release>/_bundled.json`); a release
/// between two profiles takes the older one's.
const BUNDLED_COLUMNS: &[(&str, u64)] = &[("2.1.197", 4454), ("2.1.332", 6211)];

/// How a release fits its skill listing into its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Before [`Fact::SkillListingShortensDescriptions`]: the skills past
    /// the budget are left out, whole (`skills::listing_char_budget`).
    LeavesOut,
    /// Every description longer than one equal share of
    /// [`EQUAL_SHARE_BUDGET_UNITS`] is cut ([`equal_share`]).
    EqualShare,
    /// An equal share of a budget sized by the context window, after the
    /// bundled skills: not computed, the listing is at risk.
    WindowShare,
    /// Each description whole or dropped ([`by_use`]).
    ByUse,
}

impl Fit {
    /// The way `profile`'s release fits its listing.
    pub(crate) fn of(profile: &Profile) -> Fit {
        if profile.has(Fact::SkillListingDropsDescriptionsByUse) {
            Fit::ByUse
        } else if profile.has(Fact::SkillListingBudgetFromContextWindow) {
            Fit::WindowShare
        } else if profile.has(Fact::SkillListingShortensDescriptions) {
            Fit::EqualShare
        } else {
            Fit::LeavesOut
        }
    }
}

/// The length of `s` in UTF-16 code units (JavaScript's `length`).
pub(crate) fn units(s: &str) -> u64 {
    s.encode_utf16().count() as u64
}

/// The width of `s` in terminal columns as Bun's `stringWidth` counts it
/// with `ambiguousIsNarrow` (2.1.197's `on`): East Asian wide and full
/// width characters and emoji two, control and combining characters
/// none, every other one. Counted per character, so an emoji sequence
/// joined by U+200D counts each of its emoji (Bun counts the sequence
/// once).
pub(crate) fn columns(s: &str) -> u64 {
    s.chars().map(|c| c.width().unwrap_or(0) as u64).sum()
}

/// The first characters of `s` that fit in `n` UTF-16 code units
/// (JavaScript's `slice(0, n)`; a cut through a character outside the
/// Basic Multilingual Plane leaves half of it in the agent's text and
/// none here).
fn head_units(s: &str, n: u64) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += c.len_utf16() as u64;
        if used > n {
            return &s[..i];
        }
    }
    s
}

/// `text` cut to its first `keep - 1` UTF-16 code units and `…` when it
/// is longer than `keep` (2.1.19's `u82`, and the cap per description of
/// 2.1.105 and later, `Kio` in 2.1.197); else `None`.
pub(crate) fn cut(text: &str, keep: u64) -> Option<String> {
    (units(text) > keep).then(|| format!("{}…", head_units(text, keep.saturating_sub(1))))
}

/// The skills the listing holds at startup (indices into the output's
/// skills), in listing order.
fn listed(cx: &Compiler<'_, '_>) -> Vec<usize> {
    cx.out
        .skills
        .iter()
        .enumerate()
        .filter(|(_, s)| s.load_phase == LoadPhase::Startup && crate::skills::in_listing(s))
        .map(|(i, _)| i)
        .collect()
}

/// The description `s` is listed with, before any budget: its text (with
/// `when_to_use`), cut at the cap per description when the release has
/// one; empty for a skill listed by name only.
fn listed_text(s: &Skill) -> String {
    if s.advertisement.name_only {
        return String::new();
    }
    let d = s.description.clone().unwrap_or_default();
    match s.advertisement.description_limit_chars {
        Some(cap) => cut(&d, cap).unwrap_or(d),
        None => d,
    }
}

/// What the budget does to one skill: the text it is shown with.
struct Shown {
    /// Index into the output's skills.
    index: usize,
    /// The description as listed.
    text: String,
    /// Characters of the description kept (before the `…`).
    kept: u64,
}

/// 2.1.19's listing budget (`cli.js`, `u82`): when the entries
/// `- name: description`, joined by line ends, pass
/// [`EQUAL_SHARE_BUDGET_UNITS`] UTF-16 code units, the share is
/// ⌊(budget − Σ(name + 4) − (n − 1)) / n⌋; every description longer than
/// the share is cut to its first share − 1 code units and `…`, and a
/// shorter one stays whole (its room is not given to the others); a
/// share below 20 lists names only. Case `claude.c31_listing_shortened`:
/// forty skills, a share of 367: `s05` (367) whole, `s06` (368) cut.
pub(crate) fn equal_share(cx: &mut Compiler<'_, '_>) {
    let listed = listed(cx);
    let skills = &cx.out.skills;
    let entries: u64 = listed
        .iter()
        .map(|&i| {
            units(&format!(
                "- {}: {}",
                skills[i].name,
                listed_text(&skills[i])
            ))
        })
        .sum();
    let n = listed.len() as u64;
    if n == 0 || entries + (n - 1) <= EQUAL_SHARE_BUDGET_UNITS {
        return;
    }
    let names: u64 = listed.iter().map(|&i| units(&skills[i].name) + 4).sum();
    let share = EQUAL_SHARE_BUDGET_UNITS.saturating_sub(names + (n - 1)) / n;
    let shown: Vec<Shown> = listed
        .iter()
        .filter_map(|&i| {
            let full = listed_text(&skills[i]);
            let text = if share < NAMES_ONLY_BELOW {
                String::new()
            } else {
                cut(&full, share)?
            };
            let kept = text.chars().count().saturating_sub(1) as u64;
            Some(Shown {
                index: i,
                text,
                kept,
            })
        })
        .collect();
    let budget =
        format!("{EQUAL_SHARE_BUDGET_UNITS} UTF-16 code units, {share} for each description");
    apply(cx, &shown, &budget);
}

/// The listing budget of 2.1.129 and later, in columns: 1% of the context
/// window's characters (`Cdn` in 2.1.332, `O5e` in 2.1.197), at
/// [`CHARS_PER_TOKEN`]; the release's default model has a window of
/// [`DEFAULT_WINDOW_TOKENS`], a model it knows none for
/// [`UNKNOWN_WINDOW_TOKENS`]. `SLASH_COMMAND_TOOL_CHAR_BUDGET` and the
/// `skillListingBudgetFraction` setting, which replace it, are not read.
fn window_budget(window: ContextWindow) -> u64 {
    let tokens = match window {
        ContextWindow::ReleaseDefault => DEFAULT_WINDOW_TOKENS,
        ContextWindow::Tokens(n) => n.get(),
        ContextWindow::Unknown => UNKNOWN_WINDOW_TOKENS,
    };
    ((tokens * CHARS_PER_TOKEN) as f64 * BUDGET_FRACTION)
        .floor()
        .max(1.0) as u64
}

/// The listing's whole budget for the advertisement of a skill of
/// `profile`'s release under the context window `window`: 15,000 UTF-16
/// code units, whatever the window, for [`Fit::EqualShare`]; 1% of the
/// window for the later releases, computed for [`Fit::ByUse`]
/// ([`window_budget`]); none before [`Fit::EqualShare`].
pub(crate) fn aggregate_budget(
    profile: &Profile,
    window: ContextWindow,
) -> Option<AggregateBudget> {
    let fallback = crate::skills::BUDGET_FALLBACK_CHARS;
    match Fit::of(profile) {
        Fit::LeavesOut => None,
        Fit::EqualShare => Some(AggregateBudget {
            max_context_fraction: 0.0,
            fallback_chars: EQUAL_SHARE_BUDGET_UNITS,
            computed_chars: Some(EQUAL_SHARE_BUDGET_UNITS),
        }),
        Fit::WindowShare => Some(AggregateBudget {
            max_context_fraction: BUDGET_FRACTION,
            fallback_chars: fallback,
            computed_chars: None,
        }),
        Fit::ByUse => Some(AggregateBudget {
            max_context_fraction: BUDGET_FRACTION,
            fallback_chars: window_budget(ContextWindow::Unknown),
            computed_chars: Some(window_budget(window)),
        }),
    }
}

/// The columns of the bundled skills' entries for `version`
/// ([`BUNDLED_COLUMNS`]).
fn bundled_columns(version: &str) -> u64 {
    BUNDLED_COLUMNS
        .iter()
        .rev()
        .find(|(since, _)| playbookdiff_model::profile::at_least(version, since))
        .map_or(BUNDLED_COLUMNS[0].1, |(_, c)| *c)
}

/// Which of the `listed` skills keep their description under `budget`
/// columns when `fixed` columns go to entries listed whole first
/// (2.1.197's `Yio` and 2.1.332's `q3n` with a priority function): every
/// skill costs its name (`- name`) and a line end; what is left is spent
/// skill by skill, most used first (a fresh installation has no usage,
/// so in listing order; JavaScript's sort is stable), each keeping its
/// `: description` when it fits what is left, else listed by name only.
/// `None` when every entry fits whole.
fn kept_by_use(skills: &[Skill], listed: &[usize], budget: u64, fixed: u64) -> Option<Vec<bool>> {
    let name = |i: usize| columns(&skills[i].name) + 2;
    // A skill listed by name only (`skillOverrides`) is one of the
    // entries listed whole: its extra is nothing.
    let full = |i: usize| match listed_text(&skills[i]) {
        t if t.is_empty() => name(i),
        t => columns(&format!("- {}: {t}", skills[i].name)),
    };
    let whole: u64 = fixed + listed.iter().map(|&i| full(i) + 1).sum::<u64>();
    if whole <= budget + 1 {
        return None;
    }
    let names: u64 = listed.iter().map(|&i| name(i) + 1).sum();
    let mut left = budget as i64 + 1 - (fixed + names) as i64;
    let kept = listed
        .iter()
        .map(|&i| {
            let extra = (full(i) - name(i)) as i64;
            let keep = extra <= left;
            if keep {
                left -= extra;
            }
            keep
        })
        .collect();
    Some(kept)
}

/// The listing budget of [`Fact::SkillListingDropsDescriptionsByUse`]
/// ([`kept_by_use`] against [`window_budget`], the bundled skills' entries
/// counted first): a skill whose description is dropped is `shortened`
/// to its name; the cause is `certain` when the repository's skills alone
/// drop it, else `with-bundled`. Case `claude.c31_listing_shortened`:
/// 2.1.197 keeps `s01` to `s22` and the short `s38` to `s40`, 2.1.332 `s01`
/// to `s21` (its bundled skills take 1,757 columns more).
pub(crate) fn by_use(cx: &mut Compiler<'_, '_>) {
    let listed = listed(cx);
    let budget = window_budget(cx.context_window);
    let fixed = bundled_columns(&cx.profile.version);
    let skills = &cx.out.skills;
    let Some(kept) = kept_by_use(skills, &listed, budget, fixed) else {
        return;
    };
    let alone = kept_by_use(skills, &listed, budget, 0);
    let shown: Vec<Shown> = listed
        .iter()
        .zip(&kept)
        .filter(|(_, k)| !**k)
        .map(|(&i, _)| Shown {
            index: i,
            text: String::new(),
            kept: 0,
        })
        .collect();
    let certain: Vec<usize> = match &alone {
        Some(a) => listed
            .iter()
            .zip(a)
            .filter(|(_, k)| !**k)
            .map(|(&i, _)| i)
            .collect(),
        None => Vec::new(),
    };
    let words = format!(
        "{budget} columns (1% of {} tokens at {CHARS_PER_TOKEN} characters each), {fixed} of them taken by the \
         bundled skills of a fresh installation",
        match cx.context_window {
            ContextWindow::Tokens(n) => n.get(),
            ContextWindow::Unknown => UNKNOWN_WINDOW_TOKENS,
            ContextWindow::ReleaseDefault => DEFAULT_WINDOW_TOKENS,
        }
    );
    apply(cx, &shown, &words);
    cx.out.assumptions.push(BY_USE_ASSUMPTION.to_string());
    for s in &shown {
        let cause = if certain.contains(&s.index) {
            BudgetCause::Certain
        } else {
            BudgetCause::WithBundled
        };
        cx.out.skills[s.index].advertisement.budget_cause = Some(cause);
    }
}

/// What [`by_use`] assumes when it shortens a listing: the skills' use,
/// the model and the environment the analysis cannot see.
const BY_USE_ASSUMPTION: &str = "The skill listing is computed for a fresh installation: no skill used yet (Claude Code \
     keeps the descriptions of the most used skills first), the release's default model (a window of 1,000,000 tokens \
     unless --context-window says otherwise) and no SLASH_COMMAND_TOOL_CHAR_BUDGET or skillListingBudgetFraction.";

/// Gives each skill of `shown` its text, and reports them in one
/// `skill-listing-shortened` diagnostic naming the budget (`words`).
fn apply(cx: &mut Compiler<'_, '_>, shown: &[Shown], words: &str) {
    if shown.is_empty() {
        return;
    }
    let mut names = Vec::new();
    for s in shown {
        let skill = &mut cx.out.skills[s.index];
        let a = &mut skill.advertisement;
        a.state = AdvertisementState::Shortened;
        a.shown_description_chars = Some(s.kept);
        a.shown_description = Some(s.text.clone());
        a.budget_cause.get_or_insert(BudgetCause::Certain);
        skill.reason.push_str(&if s.text.is_empty() {
            "; the listing budget drops its description: the model sees its name only".to_string()
        } else {
            format!(
                "; the listing budget keeps {} characters of its description and `…`",
                s.kept
            )
        });
        names.push(skill.name.clone());
    }
    let list = match names.len() {
        n if n > 5 => format!("{} and {} more", names[..3].join(", "), n - 3),
        _ => names.join(", "),
    };
    cx.diag(Diagnostic::new(
        DiagnosticCode::SkillListingShortened,
        format!(
            "The skill listing passes Claude Code's budget of {words}: the descriptions of {} are shortened or \
             dropped ({list}); each skill's advertisement holds the text the model sees. Shorten the descriptions, \
             or set `disable-model-invocation: true` on skills the model need not pick on its own.",
            playbookdiff_model::remedy::count(names.len(), "skill", "skills"),
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_columns_count_as_the_agent() {
        // (text, UTF-16 code units, columns)
        for (s, u, c) in [
            ("abc", 3, 3),
            ("漢字", 2, 4),
            ("😀", 2, 2),
            ("…", 1, 1),
            ("—", 1, 1),
            ("é", 1, 1),
            ("e\u{301}", 2, 1),
        ] {
            assert_eq!((units(s), columns(s)), (u, c), "{s}");
        }
    }

    #[test]
    fn cut_keeps_share_minus_one_units_and_an_ellipsis() {
        assert_eq!(cut("abcdef", 6), None);
        assert_eq!(cut("abcdefg", 6).as_deref(), Some("abcde…"));
        // A character outside the BMP counts two units and is not split.
        assert_eq!(cut("😀😀😀", 4).as_deref(), Some("😀…"));
        assert_eq!(cut("😀😀😀", 5).as_deref(), Some("😀😀…"));
    }

    #[test]
    fn window_budget_is_one_percent_at_three_characters_a_token() {
        assert_eq!(window_budget(ContextWindow::ReleaseDefault), 30_000);
        assert_eq!(window_budget(ContextWindow::Unknown), 6_000);
        let w = std::num::NonZeroU64::new(400_000).unwrap();
        assert_eq!(window_budget(ContextWindow::Tokens(w)), 12_000);
    }

    #[test]
    fn bundled_columns_take_the_older_profile() {
        assert_eq!(bundled_columns("2.1.197"), 4454);
        assert_eq!(bundled_columns("2.1.250"), 4454);
        assert_eq!(bundled_columns("2.1.332"), 6211);
        assert_eq!(bundled_columns("2.1.140"), 4454);
    }
}

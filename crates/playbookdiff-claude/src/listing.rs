//! The skill listing's budget from [`Fact::SkillListingShortensDescriptions`]
//! on: the description each listed skill is shown with, computed as the
//! release computes it.
//!
//! Three ways of spending the budget follow one another ([`Fit`]). 2.1.19
//! cuts every description longer than one equal share of 15,000 UTF-16
//! code units (`cli.js`, `u82`). From
//! [`Fact::SkillListingBudgetFromContextWindow`] the budget is a share of
//! the context window's characters, and every description longer than
//! one equal share of it is cut ([`window_share`]); within those
//! releases the bundled skills' entries come to be listed whole first
//! ([`Fact::SkillListingBundledFirst`], 2.1.63), the share of the window
//! falls from 2% to 1% ([`Fact::SkillListingOnePercent`], 2.1.86) and the
//! budget is counted in terminal columns ([`Fact::SkillListingInColumns`],
//! 2.1.88; 2.1.122's `Q96`). From [`Fact::SkillListingDropsDescriptionsByUse`]
//! each description is kept whole or dropped (2.1.197, `Yio`; 2.1.332,
//! `q3n`), under a window of 1,000,000 tokens
//! ([`Fact::DefaultWindowMillionTokens`]) at four, then three characters
//! a token ([`Fact::SkillListingThreeCharsPerToken`], 2.1.139). What a
//! fresh installation lists of its own, release by release, is
//! [`BUNDLED`]. Seen on case `claude.c31_listing_shortened` (forty skills,
//! a description just under and one just over 2.1.19's share, CJK text,
//! characters outside the Basic Multilingual Plane, one over the cap per
//! description) with 2.1.19, 41 releases from 2.1.32 to 2.1.196, 2.1.197,
//! 2.1.238, 2.1.266, 2.1.318 and 2.1.332.

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

/// Below this share (UTF-16 code units or columns) 2.1.19 and 2.1.122
/// list names only (`B82`, `U96`).
const NAMES_ONLY_BELOW: u64 = 20;

/// The share of the context window's characters for the listing
/// (`skillListingBudgetFraction`'s default, 2.1.122 to 2.1.332).
pub(crate) const BUDGET_FRACTION: f64 = 0.01;

/// The share of the context window's characters before
/// [`Fact::SkillListingBundledFirst`]: 2% (case
/// `claude.c31_listing_shortened`: 2.1.32 to 2.1.61 share 16,000 UTF-16
/// code units, 2% of 200,000 tokens at four characters each).
const UNITS_BUDGET_FRACTION: f64 = 0.02;

/// The context window of the default model from
/// [`Fact::DefaultWindowMillionTokens`], in tokens.
const MILLION_WINDOW_TOKENS: u64 = 1_000_000;

/// The context window of the default model before
/// [`Fact::DefaultWindowMillionTokens`], and of a model the release knows
/// no window for (`vcp` in 2.1.197, `Ubs` in 2.1.332; 2.1.122's `h5$`
/// takes 8,000 characters, 1% of it at four a token), in tokens.
const UNKNOWN_WINDOW_TOKENS: u64 = 200_000;

/// Entries of the listing a fresh installation adds of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entries {
    /// How many.
    count: u64,
    /// The columns of their names (ASCII: as many UTF-16 code units).
    names: u64,
    /// The columns of their `- name: description` entries, each with its
    /// line end (a line break inside a description counts none).
    columns: u64,
    /// The same entries' UTF-16 code units, each with its line end (a
    /// line break inside a description counts one).
    units: u64,
}

/// What a fresh installation lists of its own, from release `since` on:
/// its bundled skills (`source: "bundled"`, listed whole first from
/// [`Fact::SkillListingBundledFirst`]) and its built-in prompt commands
/// (`source: "builtin"`: `init`, `review`, `security-review`, which share
/// the budget with the repository's skills in 2.1.122's `Q96`). Measured
/// on the listing of an empty repository (`_bundled.json`) at every
/// release where it changes (`scripts/oracle/bisect.py --changes _bundled
/// startup.skillsListed`, `oracle/bisect/claude-code.changes.json`), and
/// on the profiled releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bundled {
    /// The first release that lists them.
    since: &'static str,
    /// The bundled skills' entries.
    skills: Entries,
    /// The built-in prompt commands' entries.
    commands: Entries,
}

impl Bundled {
    /// Every entry, the skills' and the commands'.
    fn all(&self) -> Entries {
        Entries {
            count: self.skills.count + self.commands.count,
            names: self.skills.names + self.commands.names,
            columns: self.skills.columns + self.commands.columns,
            units: self.skills.units + self.commands.units,
        }
    }
}

/// No entry.
const NONE: Entries = Entries {
    count: 0,
    names: 0,
    columns: 0,
    units: 0,
};

/// A release listing nothing of its own.
const EMPTY: Bundled = Bundled {
    since: "2.1.19",
    skills: NONE,
    commands: NONE,
};

/// `count` entries whose names take `names` columns and whose entries
/// take `columns` columns and `units` UTF-16 code units.
const fn entries(count: u64, names: u64, columns: u64, units: u64) -> Entries {
    Entries {
        count,
        names,
        columns,
        units,
    }
}

/// What a fresh installation lists of its own, by the first release that
/// lists it, oldest first; a release takes the last row at or before it.
/// Every change from 2.1.32 to 2.1.332 is measured (2.1.32 to 2.1.196 and
/// 2.1.197 to 2.1.332, two searches of `claude-code.changes.json`).
const BUNDLED: &[Bundled] = &[
    // None.
    Bundled {
        since: "2.1.32",
        skills: NONE,
        commands: NONE,
    },
    // Bundled skills: `claude-developer-platform`; commands: none.
    Bundled {
        since: "2.1.47",
        skills: entries(1, 25, 1563, 1574),
        commands: NONE,
    },
    // None seen: 2.1.51 to 2.1.59 list no skill in their first request,
    // 2.1.61 and 2.1.62 no skill of their own.
    Bundled {
        since: "2.1.51",
        skills: NONE,
        commands: NONE,
    },
    // Bundled skills: `simplify`; commands: none.
    Bundled {
        since: "2.1.63",
        skills: entries(1, 8, 95, 95),
        commands: NONE,
    },
    // Bundled skills: `simplify`, `claude-api`; commands: none.
    Bundled {
        since: "2.1.69",
        skills: entries(2, 18, 401, 403),
        commands: NONE,
    },
    // Bundled skills: `simplify`, `loop`, `claude-api`; commands: none.
    Bundled {
        since: "2.1.72",
        skills: entries(3, 22, 716, 718),
        commands: NONE,
    },
    // Bundled skills: `update-config`, `simplify`, `loop`, `claude-api`; commands: none.
    Bundled {
        since: "2.1.77",
        skills: entries(4, 35, 1412, 1414),
        commands: NONE,
    },
    // Bundled skills: `update-config`, `simplify`, `loop`, `claude-api`; commands: none.
    Bundled {
        since: "2.1.86",
        skills: entries(4, 35, 885, 887),
        commands: NONE,
    },
    // Bundled skills: `update-config`, `simplify`, `loop`, `claude-api`; commands: none.
    Bundled {
        since: "2.1.97",
        skills: entries(4, 35, 886, 887),
        commands: NONE,
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `loop`, `claude-api`;
    // commands: none.
    Bundled {
        since: "2.1.101",
        skills: entries(5, 51, 1135, 1136),
        commands: NONE,
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `loop`, `claude-api`;
    // commands: none.
    Bundled {
        since: "2.1.105",
        skills: entries(5, 51, 2247, 2249),
        commands: NONE,
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `loop`, `claude-api`,
    // `statusline`; commands: `init`, `review`, `security-review`, `insights`, `team-onboarding`.
    Bundled {
        since: "2.1.108",
        skills: entries(6, 61, 2032, 2034),
        commands: entries(5, 48, 340, 340),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `loop`, `claude-api`;
    // commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.110",
        skills: entries(5, 51, 1982, 1984),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `less-permission-prompts`,
    // `loop`, `claude-api`; commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.111",
        skills: entries(6, 74, 2303, 2305),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `fewer-permission-prompts`,
    // `loop`, `claude-api`; commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.113",
        skills: entries(6, 75, 2304, 2306),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `simplify`, `fewer-permission-prompts`,
    // `loop`, `claude-api`; commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.118",
        skills: entries(6, 75, 2316, 2318),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `verify`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `review`,
    // `security-review`.
    Bundled {
        since: "2.1.145",
        skills: entries(8, 84, 2946, 2948),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `verify`, `code-review`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `review`,
    // `security-review`.
    Bundled {
        since: "2.1.146",
        skills: entries(8, 87, 2949, 2951),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `verify`, `code-review`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `review`,
    // `security-review`.
    Bundled {
        since: "2.1.147",
        skills: entries(8, 87, 3099, 3101),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `update-config`, `keybindings-help`, `verify`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `review`,
    // `security-review`.
    Bundled {
        since: "2.1.152",
        skills: entries(9, 95, 3305, 3307),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `deep-research`, `update-config`, `keybindings-help`, `verify`,
    // `code-review`, `simplify`, `fewer-permission-prompts`, `loop`, `claude-api`, `run`;
    // commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.154",
        skills: entries(10, 108, 3890, 3892),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `deep-research`, `update-config`, `keybindings-help`, `verify`,
    // `code-review`, `simplify`, `fewer-permission-prompts`, `loop`, `claude-api`, `run`;
    // commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.163",
        skills: entries(10, 108, 4207, 4209),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `deep-research`, `update-config`, `keybindings-help`, `verify`,
    // `code-review`, `simplify`, `fewer-permission-prompts`, `loop`, `claude-api`, `run`;
    // commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.170",
        skills: entries(10, 108, 4214, 4216),
        commands: entries(3, 25, 191, 191),
    },
    // Bundled skills: `deep-research`, `update-config`, `keybindings-help`, `verify`,
    // `code-review`, `simplify`, `fewer-permission-prompts`, `loop`, `claude-api`, `run`;
    // commands: `init`, `review`, `security-review`.
    Bundled {
        since: "2.1.186",
        skills: entries(10, 108, 4214, 4216),
        commands: entries(3, 25, 238, 238),
    },
    // Bundled skills: `deep-research`, `dataviz`, `update-config`, `keybindings-help`, `verify`,
    // `code-review`, `simplify`, `fewer-permission-prompts`, `loop`, `claude-api`, `run`;
    // commands: `init`, `review`, `security-review` (2.1.197 lists the row before).
    Bundled {
        since: "2.1.198",
        skills: entries(11, 115, 5499, 5501),
        commands: entries(3, 25, 238, 238),
    },
    // Bundled skills: `deep-research`, `dataviz`, `update-config`, `keybindings-help`, `verify`,
    // `code-review`, `simplify`, `fewer-permission-prompts`, `loop`, `claude-api`, `run`;
    // commands: `init`, `review`, `security-review` (2.1.199 lists the row before).
    Bundled {
        since: "2.1.200",
        skills: entries(11, 115, 5563, 5565),
        commands: entries(3, 25, 238, 238),
    },
    // Bundled skills: `deep-research`, `dataviz`, `update-config`, `keybindings-help`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `review`,
    // `security-review` (2.1.214 lists the row before).
    Bundled {
        since: "2.1.215",
        skills: entries(9, 98, 4738, 4740),
        commands: entries(3, 25, 238, 238),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `review`,
    // `security-review` (2.1.217 lists the row before).
    Bundled {
        since: "2.1.218",
        skills: entries(8, 85, 4250, 4252),
        commands: entries(3, 25, 238, 238),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `security-review`
    // (2.1.222 lists the row before).
    Bundled {
        since: "2.1.223",
        skills: entries(8, 85, 4250, 4252),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `run`; commands: `init`, `security-review`
    // (2.1.245 lists the row before).
    Bundled {
        since: "2.1.246",
        skills: entries(9, 96, 4705, 4707),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`; commands:
    // `init`, `security-review` (2.1.247 lists the row before).
    Bundled {
        since: "2.1.248",
        skills: entries(10, 114, 4988, 4990),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`; commands:
    // `init`, `security-review` (2.1.250 lists the row before).
    Bundled {
        since: "2.1.251",
        skills: entries(10, 114, 5289, 5291),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`; commands:
    // `init`, `security-review` (2.1.273 lists the row before).
    Bundled {
        since: "2.1.274",
        skills: entries(10, 114, 5336, 5338),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.285 lists the row before).
    Bundled {
        since: "2.1.286",
        skills: entries(11, 130, 5586, 5588),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.287 lists the row before).
    Bundled {
        since: "2.1.288",
        skills: entries(11, 130, 5735, 5737),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.289 lists the row before).
    Bundled {
        since: "2.1.290",
        skills: entries(11, 130, 5727, 5729),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.294 lists the row before).
    Bundled {
        since: "2.1.295",
        skills: entries(11, 130, 5746, 5748),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.303 lists the row before).
    Bundled {
        since: "2.1.304",
        skills: entries(11, 130, 5744, 5746),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.310 lists the row before).
    Bundled {
        since: "2.1.311",
        skills: entries(11, 130, 5942, 5944),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.319 lists the row before).
    Bundled {
        since: "2.1.321",
        skills: entries(11, 130, 6031, 6033),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.323 lists the row before).
    Bundled {
        since: "2.1.324",
        skills: entries(11, 130, 6040, 6042),
        commands: entries(2, 19, 159, 159),
    },
    // Bundled skills: `dataviz`, `update-config`, `keybindings-help`, `code-review`, `simplify`,
    // `fewer-permission-prompts`, `loop`, `claude-api`, `workflow-authoring`, `run`,
    // `plugin-authoring`; commands: `init`, `security-review` (2.1.327 lists the row before).
    Bundled {
        since: "2.1.328",
        skills: entries(11, 130, 6050, 6052),
        commands: entries(2, 19, 159, 159),
    },
];

/// How a release fits its skill listing into its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Before [`Fact::SkillListingShortensDescriptions`]: the skills past
    /// the budget are left out, whole (`skills::listing_char_budget`).
    LeavesOut,
    /// Every description longer than one equal share of
    /// [`EQUAL_SHARE_BUDGET_UNITS`] is cut ([`equal_share`]).
    EqualShare,
    /// Every description longer than one equal share of the window's
    /// budget is cut ([`window_share`]).
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

/// How a release of [`Fit::WindowShare`] (and 2.1.19's
/// [`Fit::EqualShare`]) measures and shares its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Way {
    /// Terminal columns ([`Fact::SkillListingInColumns`]); else UTF-16
    /// code units.
    columns: bool,
    /// The bundled skills' entries listed whole first
    /// ([`Fact::SkillListingBundledFirst`]); else they share the budget
    /// with the others.
    bundled_first: bool,
}

impl Way {
    /// The way of `profile`'s release.
    fn of(profile: &Profile) -> Way {
        Way {
            columns: profile.has(Fact::SkillListingInColumns),
            bundled_first: profile.has(Fact::SkillListingBundledFirst),
        }
    }

    /// The width of the release's own `entries` as the release counts it.
    fn own(self, entries: Entries) -> u64 {
        if self.columns {
            entries.columns
        } else {
            entries.units
        }
    }

    /// The width of `s` as the release counts it.
    fn width(self, s: &str) -> u64 {
        if self.columns {
            columns(s)
        } else {
            units(s)
        }
    }

    /// `text` cut to `share` as the release cuts it (its first share − 1
    /// code units or columns and `…`); `None` when it fits.
    fn cut(self, text: &str, share: u64) -> Option<String> {
        if self.columns {
            cut_columns(text, share)
        } else {
            cut(text, share)
        }
    }
}

/// What a listing is shared under: its whole budget (code units or
/// columns, as `way` counts), the release's own entries and its way.
#[derive(Clone, Copy, Debug)]
struct Spend {
    /// The whole listing's budget.
    budget: u64,
    /// What the release lists of its own ([`BUNDLED`]).
    own: Bundled,
    /// How it measures and shares.
    way: Way,
}

/// The share of each description (code units or columns, as `way`
/// counts), or `None` when the entries of the `listed` skills and of
/// the release's own, each with its line end, fit in the budget: the entries listed whole first (the bundled skills' when
/// `way.bundled_first`, and the skills listed by name only) are taken
/// from the budget, and the rest is shared by the other entries:
/// ⌊(budget − whole − Σ(name + 4) − (n − 1)) / n⌋ over those n (2.1.19's
/// `u82`, 2.1.122's `Q96`).
fn share(skills: &[Skill], listed: &[usize], spend: Spend) -> Option<i64> {
    let Spend {
        budget,
        own: bundled,
        way,
    } = spend;
    let full = |i: usize| match listed_text(&skills[i]) {
        t if t.is_empty() && skills[i].advertisement.name_only => {
            way.width(&format!("- {}", skills[i].name))
        }
        t => way.width(&format!("- {}: {t}", skills[i].name)),
    };
    let whole: u64 = way.own(bundled.all()) + listed.iter().map(|&i| full(i) + 1).sum::<u64>();
    if listed.is_empty() || whole <= budget + 1 {
        return None;
    }
    let (names_only, shared): (Vec<usize>, Vec<usize>) = listed
        .iter()
        .partition(|&&i| skills[i].advertisement.name_only);
    let (first, sharing) = if way.bundled_first {
        (bundled.skills, bundled.commands)
    } else {
        (NONE, bundled.all())
    };
    let n = shared.len() as u64 + sharing.count;
    if n == 0 {
        return None;
    }
    let fixed = way.own(first) + names_only.iter().map(|&i| full(i) + 1).sum::<u64>();
    let names = shared
        .iter()
        .map(|&i| way.width(&skills[i].name) + 4)
        .sum::<u64>()
        + sharing.names
        + 4 * sharing.count
        + (n - 1);
    Some((budget as i64 - fixed as i64 - names as i64).div_euclid(n as i64))
}

/// `text` within `share` columns (2.1.122's `X7` and `iK`): its first
/// characters within share − 1 columns and `…`; `None` when it fits.
fn cut_columns(text: &str, share: u64) -> Option<String> {
    if columns(text) <= share {
        return None;
    }
    let mut used = 0;
    let mut out = String::new();
    for c in text.chars() {
        let w = c.width().unwrap_or(0) as u64;
        if used + w > share.saturating_sub(1) {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    Some(out)
}

/// Cuts every description of the `listed` skills longer than `share`
/// ([`Way::cut`]; a shorter one stays whole: its room is not given to
/// the others), a skill listed by name only left as it is; a share below
/// 20 lists names only.
fn cut_to_share(skills: &[Skill], listed: &[usize], share: i64, way: Way) -> Vec<Shown> {
    let share = share.max(0) as u64;
    listed
        .iter()
        .filter(|&&i| !skills[i].advertisement.name_only)
        .filter_map(|&i| {
            let text = if share < NAMES_ONLY_BELOW {
                String::new()
            } else {
                way.cut(&listed_text(&skills[i]), share)?
            };
            let kept = text.chars().count().saturating_sub(1) as u64;
            Some(Shown {
                index: i,
                text,
                kept,
            })
        })
        .collect()
}

/// 2.1.19's listing budget (`cli.js`, `u82`): one equal share of
/// [`EQUAL_SHARE_BUDGET_UNITS`] UTF-16 code units ([`share`], no entry of
/// the release's own), every longer description cut ([`cut_to_share`]).
/// Case `claude.c31_listing_shortened`: forty skills, a share of 367:
/// `s05` (367) whole, `s06` (368) cut.
pub(crate) fn equal_share(cx: &mut Compiler<'_, '_>) {
    let listed = listed(cx);
    let skills = &cx.out.skills;
    let way = Way {
        columns: false,
        bundled_first: false,
    };
    let spend = Spend {
        budget: EQUAL_SHARE_BUDGET_UNITS,
        own: EMPTY,
        way,
    };
    let Some(share) = share(skills, &listed, spend) else {
        return;
    };
    let shown = cut_to_share(skills, &listed, share, way);
    let budget =
        format!("{EQUAL_SHARE_BUDGET_UNITS} UTF-16 code units, {share} for each description");
    apply(cx, &shown, &budget);
}

/// The listing budget of [`Fit::WindowShare`]: a share of the window's
/// characters ([`window_budget`]), the release's own entries ([`BUNDLED`])
/// shared or listed whole first as its [`Way`] says, every longer
/// description cut to one equal share ([`share`], [`cut_to_share`]).
/// Case `claude.c31_listing_shortened` (forty skills): 2.1.32 to 2.1.61
/// cut to 392 code units (2.1.47, with a bundled skill sharing, to 381);
/// 2.1.67 to 389, 2.1.75 to 374, 2.1.79 to 2.1.85 to 356 (16,000 less
/// their bundled skills); 2.1.86 and 2.1.87 to 169 (8,000); from 2.1.88
/// in columns, the CJK text to 84 characters: 2.1.88 to 2.1.98 169,
/// 2.1.105 135, 2.1.110 131, 2.1.114 124, 2.1.119 to 2.1.128 123.
pub(crate) fn window_share(cx: &mut Compiler<'_, '_>) {
    let listed = listed(cx);
    let budget = window_budget(&cx.profile, cx.context_window);
    let bundled = bundled(&cx.profile.version);
    let way = Way::of(&cx.profile);
    let skills = &cx.out.skills;
    let spend = Spend {
        budget,
        own: bundled,
        way,
    };
    let Some(share) = share(skills, &listed, spend) else {
        return;
    };
    let shown = cut_to_share(skills, &listed, share, way);
    let alone = Spend {
        own: EMPTY,
        ..spend
    };
    let certain: Vec<usize> = match self::share(skills, &listed, alone) {
        Some(a) => cut_to_share(skills, &listed, a, way)
            .iter()
            .map(|s| s.index)
            .collect(),
        None => Vec::new(),
    };
    let unit = match way.columns {
        true => "columns",
        false => "UTF-16 code units",
    };
    let fraction = window_fraction(&cx.profile);
    let own = match way.bundled_first {
        true => format!(
            "{} of them taken by the bundled skills of a fresh installation",
            way.own(bundled.skills)
        ),
        false => format!(
            "shared with the {} of a fresh installation's own",
            playbookdiff_model::remedy::count(bundled.all().count as usize, "entry", "entries")
        ),
    };
    let words = format!(
        "{budget} {unit} ({}), {own}, {} for each description",
        budget_words(&cx.profile, cx.context_window, fraction),
        share.max(0)
    );
    apply(cx, &shown, &words);
    finish(cx, &shown, &certain);
}

/// After a budget computed for a fresh installation: the assumption it
/// makes, and each shortened skill's cause, `certain` when it is among
/// the skills the repository's own alone shorten (`certain`), else
/// `with-bundled`.
fn finish(cx: &mut Compiler<'_, '_>, shown: &[Shown], certain: &[usize]) {
    if shown.is_empty() {
        return;
    }
    for s in shown {
        let cause = if certain.contains(&s.index) {
            BudgetCause::Certain
        } else {
            BudgetCause::WithBundled
        };
        cx.out.skills[s.index].advertisement.budget_cause = Some(cause);
    }
    cx.out.assumptions.push(fresh_assumption(&cx.profile));
}

/// What a budget computed for a fresh installation assumes: the skills'
/// use (from [`Fact::SkillListingDropsDescriptionsByUse`]), the model
/// and the environment the analysis cannot see.
fn fresh_assumption(profile: &Profile) -> String {
    let by_use = if Fit::of(profile) == Fit::ByUse {
        "no skill used yet (Claude Code keeps the descriptions of the most used skills first), "
    } else {
        ""
    };
    format!(
        "The skill listing is computed for a fresh installation: its own bundled skills and commands, {by_use}the \
         release's default model (a window of {} tokens unless --context-window says otherwise) and no \
         SLASH_COMMAND_TOOL_CHAR_BUDGET or skillListingBudgetFraction.",
        window_tokens(profile, ContextWindow::ReleaseDefault)
    )
}

/// The context window of `window` for `profile`'s release, in tokens:
/// the default model's ([`Fact::DefaultWindowMillionTokens`]), the one
/// given, or [`UNKNOWN_WINDOW_TOKENS`] for a model the release knows
/// none for.
fn window_tokens(profile: &Profile, window: ContextWindow) -> u64 {
    match window {
        ContextWindow::ReleaseDefault if profile.has(Fact::DefaultWindowMillionTokens) => {
            MILLION_WINDOW_TOKENS
        }
        ContextWindow::ReleaseDefault | ContextWindow::Unknown => UNKNOWN_WINDOW_TOKENS,
        ContextWindow::Tokens(n) => n.get(),
    }
}

/// The characters the listing counts per token of the default model: 3
/// from [`Fact::SkillListingThreeCharsPerToken`] (2.1.197's `GE` gives 3
/// for any model outside its list of older ones), 4 before (2.1.122's
/// `igK`, 2.1.129's `g_6`).
fn chars_per_token(profile: &Profile) -> u64 {
    if profile.has(Fact::SkillListingThreeCharsPerToken) {
        3
    } else {
        4
    }
}

/// The listing's whole budget of `profile`'s release under `window`:
/// its share of the window's characters ([`window_fraction`]: `h5$` in
/// 2.1.122, `O5e` in 2.1.197, `Cdn` in 2.1.332), at [`chars_per_token`].
/// `SLASH_COMMAND_TOOL_CHAR_BUDGET` and the `skillListingBudgetFraction`
/// setting, which replace it, are not read.
fn window_budget(profile: &Profile, window: ContextWindow) -> u64 {
    let fraction = window_fraction(profile);
    ((window_tokens(profile, window) * chars_per_token(profile)) as f64 * fraction)
        .floor()
        .max(1.0) as u64
}

/// The share of the window's characters the listing takes: 1% from
/// [`Fact::SkillListingOnePercent`], 2% before.
fn window_fraction(profile: &Profile) -> f64 {
    if profile.has(Fact::SkillListingOnePercent) {
        BUDGET_FRACTION
    } else {
        UNITS_BUDGET_FRACTION
    }
}

/// How the budget was reached, for the diagnostic: `1% of 200000 tokens
/// at 4 characters each`.
fn budget_words(profile: &Profile, window: ContextWindow, fraction: f64) -> String {
    format!(
        "{}% of {} tokens at {} characters each",
        fraction * 100.0,
        window_tokens(profile, window),
        chars_per_token(profile)
    )
}

/// The listing's whole budget for the advertisement of a skill of
/// `profile`'s release under the context window `window`: 15,000 UTF-16
/// code units, whatever the window, for [`Fit::EqualShare`]; a share of
/// the window for the later releases ([`window_budget`]); none before
/// [`Fit::EqualShare`].
pub(crate) fn aggregate_budget(
    profile: &Profile,
    window: ContextWindow,
) -> Option<AggregateBudget> {
    let fraction = match Fit::of(profile) {
        Fit::LeavesOut => return None,
        Fit::EqualShare => {
            return Some(AggregateBudget {
                max_context_fraction: 0.0,
                fallback_chars: EQUAL_SHARE_BUDGET_UNITS,
                computed_chars: Some(EQUAL_SHARE_BUDGET_UNITS),
            })
        }
        Fit::WindowShare | Fit::ByUse => window_fraction(profile),
    };
    Some(AggregateBudget {
        max_context_fraction: fraction,
        fallback_chars: window_budget(profile, ContextWindow::Unknown),
        computed_chars: Some(window_budget(profile, window)),
    })
}

/// What a fresh installation of `version` lists of its own
/// ([`BUNDLED`]): the row of the last change at or before it.
fn bundled(version: &str) -> Bundled {
    BUNDLED
        .iter()
        .rev()
        .find(|b| playbookdiff_model::profile::at_least(version, b.since))
        .copied()
        .unwrap_or(BUNDLED[0])
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
/// ([`kept_by_use`] against [`window_budget`]): the bundled skills'
/// entries are listed whole first (2.1.197's `Yio` sets apart the
/// entries `source === "bundled"`), and the release's built-in commands
/// (`source: "builtin"`), which follow the repository's skills in the
/// listing, compete like them, so before the repository's skills each
/// costs only its name (case `claude.c31_listing_shortened`: 2.1.162
/// keeps `s23`, which its bundled skills' 3,890 columns and its commands'
/// three names leave room for, and its commands' whole entries would
/// not). A skill whose description is dropped is `shortened`
/// to its name; the cause is `certain` when the repository's skills alone
/// drop it, else `with-bundled`. Case `claude.c31_listing_shortened`:
/// 2.1.197 keeps `s01` to `s22` and the short `s38` to `s40`, 2.1.332 `s01`
/// to `s21` (its bundled skills take 1,757 columns more).
pub(crate) fn by_use(cx: &mut Compiler<'_, '_>) {
    let listed = listed(cx);
    let budget = window_budget(&cx.profile, cx.context_window);
    let own = bundled(&cx.profile.version);
    // The built-in commands follow the repository's skills: each costs
    // its name (`- name`) and a line end before them.
    let fixed = own.skills.columns + own.commands.names + 3 * own.commands.count;
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
        "{budget} columns ({}), {fixed} of them taken by the bundled skills of a fresh installation",
        budget_words(&cx.profile, cx.context_window, BUDGET_FRACTION)
    );
    apply(cx, &shown, &words);
    finish(cx, &shown, &certain);
}

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
    fn window_budget_follows_the_release() {
        let budget = |v: &str, w| window_budget(&Profile::for_version(v), w);
        let w = ContextWindow::Tokens(std::num::NonZeroU64::new(400_000).unwrap());
        // 2% at four characters a token of 200,000.
        assert_eq!(budget("2.1.32", ContextWindow::ReleaseDefault), 16_000);
        // 1% from the bundled skills' first listing.
        assert_eq!(budget("2.1.122", ContextWindow::ReleaseDefault), 8_000);
        assert_eq!(budget("2.1.122", w), 16_000);
        // The default model's million tokens, at four, then three.
        assert_eq!(budget("2.1.129", ContextWindow::ReleaseDefault), 40_000);
        assert_eq!(budget("2.1.197", ContextWindow::ReleaseDefault), 30_000);
        assert_eq!(budget("2.1.197", ContextWindow::Unknown), 6_000);
        assert_eq!(budget("2.1.197", w), 12_000);
    }

    #[test]
    fn bundled_takes_the_last_change_before() {
        assert_eq!(bundled("2.1.32"), BUNDLED[0]);
        assert_eq!(bundled("2.1.19"), BUNDLED[0]);
        assert_eq!(bundled("2.1.199"), bundled("2.1.198"));
        assert_ne!(bundled("2.1.198"), bundled("2.1.197"));
        assert_eq!(bundled("2.1.332"), bundled("2.1.328"));
        for w in BUNDLED.windows(2) {
            assert!(playbookdiff_model::profile::compare_versions(w[0].since, w[1].since).is_lt());
            assert_ne!((w[0].skills, w[0].commands), (w[1].skills, w[1].commands));
        }
    }

    #[test]
    fn cut_columns_keeps_share_minus_one_columns_and_an_ellipsis() {
        assert_eq!(cut_columns("abcdef", 6), None);
        assert_eq!(cut_columns("abcdefg", 6).as_deref(), Some("abcde…"));
        // A wide character that would pass share − 1 is left out.
        assert_eq!(cut_columns("漢漢漢漢", 6).as_deref(), Some("漢漢…"));
        assert_eq!(cut_columns("漢漢漢漢", 7).as_deref(), Some("漢漢漢…"));
    }
}

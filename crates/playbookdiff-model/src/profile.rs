//! Version profiles: which agent release an adapter models.
//!
//! Agents change their discovery rules from release to release. Each adapter
//! lists the releases it has been checked against (its profiled versions,
//! oldest first) and keys the facts that changed by version range. This
//! module picks the profile for a requested version: the exact one when it
//! is profiled, otherwise the nearest older profiled version (or the oldest,
//! when the request predates every profile), with a diagnostic saying so.

use crate::{AgentProfile, Diagnostic, DiagnosticCode};
use schemars::JsonSchema;
use serde::Serialize;
use std::cmp::Ordering;

/// Compares two dotted version strings numerically, component by
/// component (`2.1.9 < 2.1.10`); a missing component counts as 0 and a
/// non-numeric one compares as text after every number.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let mut ai = a.split('.');
    let mut bi = b.split('.');
    loop {
        match (ai.next(), bi.next()) {
            (None, None) => return Ordering::Equal,
            (x, y) => {
                let x = x.unwrap_or("0");
                let y = y.unwrap_or("0");
                let ord = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => x.cmp(y),
                };
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

/// What a version given by the user must look like, for error messages:
/// the accepted forms of [`is_version`].
pub const VERSION_FORMS: &str =
    "digits separated by dots as the agent prints them (2.1.332, 0.171.0, 1.18), optionally with a -pre-release or +build suffix";

/// True when `s` is a release version as agents print theirs: one to four
/// dot-separated decimal numbers (`2.1.332`, `0.171.0`, `1.18`), then
/// optionally `-` or `+` and a suffix of ASCII letters, digits, `.` and
/// `-` (`0.172.0-alpha.1`). A leading `v` is not accepted, nor an empty
/// component. Claude Code, Codex and OpenCode all print semantic versions
/// (`claude --version`, `codex --version`, `opencode --version`).
pub fn is_version(s: &str) -> bool {
    let (core, suffix) = match s.find(['-', '+']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = core.split('.').collect();
    let core_ok = (1..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit()));
    let suffix_ok = suffix.is_none_or(|x| {
        !x.is_empty()
            && x.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
    });
    core_ok && suffix_ok
}

/// True when `version` is at least `floor` ([`compare_versions`]).
pub fn at_least(version: &str, floor: &str) -> bool {
    compare_versions(version, floor) != Ordering::Less
}

/// Which requested releases an adapter models with their own facts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coverage {
    /// Only the profiled releases: any other gets the nearest older
    /// profile and an `unknown-agent-version` diagnostic.
    #[default]
    Profiled,
    /// Every release from the oldest profiled one to the newest, both
    /// included: each fact of the adapter's version table has the first
    /// release that shows it, found by bisection over the agent's
    /// published releases with the real agent (`scripts/oracle/bisect.py`,
    /// `oracle/bisect/<agent>.json`), so a release in that window is
    /// modelled by its own facts, without a diagnostic.
    Bisected,
}

/// A behaviour of an agent that changed at one release: a fact of an
/// adapter's version table with the first release that shows it, as
/// bisection over the agent's published releases found it
/// (`oracle/bisect/<agent>.json`, written by `scripts/oracle/bisect.py`).
/// Shape in JSON: `{"fact": "AgentsMdFallback", "since": "2.1.281",
/// "summary": "...", "evidence": "..."}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseChange {
    /// The fact as the adapter's version table names it.
    pub fact: &'static str,
    /// The first release that shows it (the agent's own version string).
    pub since: &'static str,
    /// What the agent does from `since` on, one sentence.
    pub summary: &'static str,
    /// What shows it: the oracle case and observation of the bisection,
    /// or the agent's code.
    pub evidence: &'static str,
}

/// One fact's change in an adapter's version table: the newer profiled
/// row's value of `fact` holds from release `since` on. `F` is the
/// adapter's closed set of facts. The Codex, Gemini CLI and Copilot CLI
/// adapters each keep a list of these, found by bisection.
#[derive(Clone, Copy, Debug)]
pub struct FactChange<F> {
    /// The fact.
    pub fact: F,
    /// Its name in the bisection results (`oracle/bisect/<agent>.json`).
    pub name: &'static str,
    /// The first release that shows it.
    pub since: &'static str,
    /// What the agent does from `since` on, one sentence.
    pub summary: &'static str,
    /// What shows it.
    pub evidence: &'static str,
}

/// A row of an adapter's version table: the facts of one release.
pub trait ProfileRow: Copy + 'static {
    /// The first release these facts hold for.
    fn release(&self) -> &'static str;
    /// Sets that release.
    fn set_release(&mut self, release: &'static str);
}

/// A fact of a version table: one field of its row type `R`.
pub trait TableFact<R>: Copy {
    /// Copies this field of `newer` into `facts`.
    fn take(self, facts: &mut R, newer: &R);
}

/// The facts of release `version` from a version table (`table`, oldest
/// first) and its bisected `changes`: the first row's, with each change's
/// fact taken from its first release on, from the first row at or after
/// that release (the last row for a change after every row); `release`
/// is the latest row or change at or before `version`. A release outside
/// the table gets the facts of the nearest end (the caller says so with a
/// diagnostic). Panics on an empty table.
pub fn facts_of<R: ProfileRow, F: TableFact<R>>(
    table: &'static [R],
    changes: &[FactChange<F>],
    version: &str,
) -> R {
    let mut facts = table[0];
    for c in changes.iter().filter(|c| at_least(version, c.since)) {
        let row = table
            .iter()
            .find(|r| at_least(r.release(), c.since))
            .unwrap_or(&table[table.len() - 1]);
        c.fact.take(&mut facts, row);
        facts.set_release(latest(facts.release(), c.since));
    }
    for row in table.iter().filter(|r| at_least(version, r.release())) {
        facts.set_release(latest(facts.release(), row.release()));
    }
    facts
}

/// The facts of each release asked for, computed once: a version table's
/// [`facts_of`] walks every change and row with [`compare_versions`]
/// (about 190,000 instructions for Copilot CLI's table), and an analysis
/// asks for the same release at every launch directory (`check
/// --all-dirs`: once per compilation). Holds one entry per distinct
/// release asked for (a handful: the requested release, and `upgrade`'s
/// two); `R` is a table row or facts value, copied out.
pub struct FactsMemo<R: 'static>(std::sync::Mutex<Vec<(String, R)>>);

impl<R: Copy> FactsMemo<R> {
    /// An empty memo, for a `static`.
    pub const fn new() -> Self {
        Self(std::sync::Mutex::new(Vec::new()))
    }

    /// The facts of `version`: the stored value, or `compute()` stored.
    /// A poisoned lock (a panic while another thread held it) is taken
    /// over: the entries are whole values, pushed after being computed.
    pub fn get(&self, version: &str, compute: impl FnOnce() -> R) -> R {
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, facts)) = held.iter().find(|(v, _)| v == version) {
            return *facts;
        }
        let facts = compute();
        held.push((version.to_string(), facts));
        facts
    }
}

impl<R: Copy> Default for FactsMemo<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// The releases of the rows of a version table (`table`, oldest first)
/// that [`facts_of`] does not give back from the first row and the
/// bisected `changes`: a fact differs between two rows and no change
/// carries it, so it has no bisected first release. Empty when every fact
/// that differs between the rows is bisected (the registry's `bisected`
/// test holds every adapter to it).
pub fn rows_not_reached<R: ProfileRow + PartialEq, F: TableFact<R>>(
    table: &'static [R],
    changes: &[FactChange<F>],
) -> Vec<&'static str> {
    table
        .iter()
        .filter(|row| facts_of(table, changes, row.release()) != **row)
        .map(|row| row.release())
        .collect()
}

/// The later of two releases.
fn latest(a: &'static str, b: &'static str) -> &'static str {
    match compare_versions(a, b) {
        Ordering::Less => b,
        _ => a,
    }
}

/// `changes` as the adapter's release changes, oldest first.
pub fn release_changes<F>(changes: &[FactChange<F>]) -> Vec<ReleaseChange> {
    let mut out: Vec<ReleaseChange> = changes
        .iter()
        .map(|c| ReleaseChange {
            fact: c.name,
            since: c.since,
            summary: c.summary,
            evidence: c.evidence,
        })
        .collect();
    out.sort_by(|a, b| compare_versions(a.since, b.since));
    out
}

/// True when `version` lies from `first` to `last`, both included
/// ([`compare_versions`]).
pub fn within(version: &str, first: &str, last: &str) -> bool {
    at_least(version, first) && compare_versions(version, last) != Ordering::Greater
}

/// The releases an adapter models: its profiled versions (oldest first,
/// not empty), its [`Coverage`] and, under [`Coverage::Bisected`], the
/// first release of the modelled window (`first`, at or before the oldest
/// profiled one: the window runs from it to the newest profiled one).
#[derive(Clone, Copy, Debug)]
pub struct Releases<'a> {
    /// The profiled versions, oldest first.
    pub profiled: &'a [&'a str],
    /// Which other releases are modelled.
    pub coverage: Coverage,
    /// The window's first release under [`Coverage::Bisected`]; ignored
    /// otherwise.
    pub first: &'a str,
}

impl Releases<'_> {
    /// The modelled window, oldest and newest release both included
    /// (`None` under [`Coverage::Profiled`]).
    pub fn window(&self) -> Option<(&str, &str)> {
        let newest = self.profiled.last().copied()?;
        (self.coverage == Coverage::Bisected).then_some((self.first, newest))
    }
}

/// Picks the profile for `requested` among `releases.profiled`. `None`
/// asks for the newest profiled version. Under [`Coverage::Bisected`], a
/// requested release inside the window ([`Releases::window`]) is its own
/// profile; one before the window gets the window's first release, one
/// after it the newest profiled one.
///
/// Returns the profile and, when the requested version is neither profiled
/// nor covered, an `unknown-agent-version` diagnostic naming the profile
/// used. `agent` is the display name used in the message (e.g. "Claude
/// Code").
pub fn select_profile(
    agent: &str,
    releases: &Releases<'_>,
    requested: Option<&str>,
) -> (AgentProfile, Option<Diagnostic>) {
    let profiled = releases.profiled;
    let newest = profiled.last().copied().unwrap_or("0");
    let oldest = match releases.window() {
        Some((first, _)) => first,
        None => profiled.first().copied().unwrap_or(newest),
    };
    let Some(req) = requested else {
        return (
            AgentProfile {
                version: newest.to_string(),
                requested: None,
            },
            None,
        );
    };
    let covered = releases.window().is_some() && within(req, oldest, newest);
    if covered
        || profiled
            .iter()
            .any(|v| compare_versions(v, req) == Ordering::Equal)
    {
        return (
            AgentProfile {
                version: req.to_string(),
                requested: None,
            },
            None,
        );
    }
    let older = profiled
        .iter()
        .rev()
        .find(|v| compare_versions(v, req) == Ordering::Less)
        .copied();
    let used = older.unwrap_or(oldest);
    let why = match (older.is_some(), releases.window().is_some()) {
        (true, _) => "the nearest older profiled version",
        (false, false) => {
            "the oldest profiled version, since the requested one predates every profile"
        }
        (false, true) => "the oldest modelled release, since the requested one predates it",
    };
    let known = match releases.window() {
        None => format!("Profiled versions: {}.", profiled.join(", ")),
        Some((first, last)) => format!("Modelled releases: {first} to {last}."),
    };
    let diag = Diagnostic::new(
        DiagnosticCode::UnknownAgentVersion,
        format!("{agent} {req} has no version profile; the analysis uses {used}, {why}. {known}"),
    );
    (
        AgentProfile {
            version: used.to_string(),
            requested: Some(req.to_string()),
        },
        Some(diag),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A release's facts are computed once, whatever the number of
    /// compilations that ask; each release asked for keeps its own.
    #[test]
    fn facts_memo_computes_each_release_once() {
        let memo: FactsMemo<u32> = FactsMemo::new();
        let calls = std::cell::Cell::new(0);
        let facts = |n| {
            calls.set(calls.get() + 1);
            n
        };
        assert_eq!(memo.get("1.0.24", || facts(24)), 24);
        assert_eq!(memo.get("1.0.24", || facts(0)), 24);
        assert_eq!(memo.get("1.0.102", || facts(102)), 102);
        assert_eq!(memo.get("1.0.24", || facts(0)), 24);
        assert_eq!(calls.get(), 2);
    }

    #[test]
    fn version_forms() {
        for ok in [
            "2.1.332",
            "0.171.0",
            "1.18",
            "1",
            "0.172.0-alpha.1",
            "1.2.3+build.5",
        ] {
            assert!(is_version(ok), "{ok}");
        }
        for bad in [
            "abc",
            "",
            "v1.2.3",
            "1..2",
            "1.2.",
            ".1",
            "1.2.3-",
            "latest",
            "1.2.3.4.5",
            "1.x",
        ] {
            assert!(!is_version(bad), "{bad}");
        }
    }

    #[test]
    fn numeric_order() {
        assert_eq!(compare_versions("2.1.9", "2.1.10"), Ordering::Less);
        assert_eq!(compare_versions("0.171.0", "0.142.3"), Ordering::Greater);
        assert_eq!(compare_versions("2.1", "2.1.0"), Ordering::Equal);
        assert!(at_least("2.1.277", "2.1.277"));
        assert!(!at_least("2.1.276", "2.1.277"));
    }

    #[test]
    fn selection() {
        let p = ["2.1.197", "2.1.332"];
        let releases = Releases {
            profiled: &p,
            coverage: Coverage::Profiled,
            first: "2.0.59",
        };
        let select = |r| select_profile("A", &releases, r);
        assert_eq!(select(None).0.version, "2.1.332");
        let (e, d) = select(Some("2.1.197"));
        assert_eq!(
            (e.version.as_str(), e.requested, d),
            ("2.1.197", None, None)
        );
        let (m, d) = select(Some("2.1.300"));
        assert_eq!(m.version, "2.1.197");
        assert_eq!(m.requested.as_deref(), Some("2.1.300"));
        assert_eq!(d.map(|d| d.code), Some(DiagnosticCode::UnknownAgentVersion));
        let (o, _) = select(Some("1.0.0"));
        assert_eq!(o.version, "2.1.197");
        let (n, _) = select(Some("9.0.0"));
        assert_eq!(n.version, "2.1.332");
    }

    #[test]
    fn a_bisected_window_models_every_release_in_it() {
        let p = ["2.1.197", "2.1.332"];
        let releases = Releases {
            profiled: &p,
            coverage: Coverage::Bisected,
            first: "2.1.197",
        };
        let select = |r| select_profile("A", &releases, Some(r));
        for inside in ["2.1.197", "2.1.198", "2.1.300", "2.1.332"] {
            let (e, d) = select(inside);
            assert_eq!((e.version.as_str(), e.requested, d), (inside, None, None));
        }
        let (o, d) = select("2.1.333");
        assert_eq!(o.version, "2.1.332");
        assert_eq!(o.requested.as_deref(), Some("2.1.333"));
        let d = d.expect("outside the window");
        assert_eq!(d.code, DiagnosticCode::UnknownAgentVersion);
        assert!(d.message.contains("Modelled releases: 2.1.197 to 2.1.332."));
        assert_eq!(select("2.1.100").0.version, "2.1.197");
    }

    /// A window that starts before the oldest profiled release models
    /// every release from its start without a diagnostic; an older one
    /// gets the window's first release, a newer one the newest profiled,
    /// each with the diagnostic.
    #[test]
    fn a_window_may_start_before_the_oldest_profile() {
        let p = ["2.1.197", "2.1.332"];
        let releases = Releases {
            profiled: &p,
            coverage: Coverage::Bisected,
            first: "2.0.59",
        };
        let select = |r| select_profile("A", &releases, Some(r));
        for inside in ["2.0.59", "2.0.60", "2.1.4", "2.1.196", "2.1.332"] {
            let (e, d) = select(inside);
            assert_eq!((e.version.as_str(), e.requested, d), (inside, None, None));
        }
        let (before, d) = select("2.0.58");
        assert_eq!(before.version, "2.0.59");
        assert_eq!(before.requested.as_deref(), Some("2.0.58"));
        let d = d.expect("before the window");
        assert_eq!(d.code, DiagnosticCode::UnknownAgentVersion);
        assert!(
            d.message.contains("the oldest modelled release"),
            "{}",
            d.message
        );
        assert!(d.message.contains("Modelled releases: 2.0.59 to 2.1.332."));
        let (after, d) = select("2.1.333");
        assert_eq!(after.version, "2.1.332");
        assert!(d.is_some());
    }

    /// A two-fact table: `a` and `b` differ between the rows.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Row {
        release: &'static str,
        a: bool,
        b: bool,
    }

    impl ProfileRow for Row {
        fn release(&self) -> &'static str {
            self.release
        }
        fn set_release(&mut self, release: &'static str) {
            self.release = release;
        }
    }

    #[derive(Clone, Copy, Debug)]
    enum F {
        A,
        B,
    }

    impl TableFact<Row> for F {
        fn take(self, facts: &mut Row, newer: &Row) {
            match self {
                F::A => facts.a = newer.a,
                F::B => facts.b = newer.b,
            }
        }
    }

    static ROWS: [Row; 2] = [
        Row {
            release: "1.0",
            a: false,
            b: false,
        },
        Row {
            release: "2.0",
            a: true,
            b: true,
        },
    ];

    fn change(fact: F, since: &'static str) -> FactChange<F> {
        FactChange {
            fact,
            name: "",
            since,
            summary: "",
            evidence: "",
        }
    }

    /// A fact that differs between the rows without a change leaves the
    /// newer row unreached; with a change for each, every row is reached.
    #[test]
    fn a_fact_without_a_change_leaves_its_row_unreached() {
        let one = [change(F::A, "1.5")];
        assert_eq!(rows_not_reached(&ROWS, &one), ["2.0"]);
        let both = [change(F::A, "1.5"), change(F::B, "1.7")];
        assert_eq!(rows_not_reached(&ROWS, &both), Vec::<&str>::new());
        assert!(facts_of(&ROWS, &both, "1.6").a && !facts_of(&ROWS, &both, "1.6").b);
    }
}

/// A skill a harness release ships and lists beside the user's and the
/// project's (Gemini CLI's `skill-creator`): a fact of the adapter's
/// version table, as the release's package holds it, never read from the
/// analysed machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinSkill {
    /// The skill's name, as the release lists it.
    pub name: &'static str,
    /// Its description, as the release's `SKILL.md` holds it (folded
    /// lines joined by one space).
    pub description: &'static str,
}

impl BuiltinSkill {
    /// The skill as `harness` (the id prefix, `gemini`, `opencode`) lists
    /// it at startup: effective and advertised with its whole description
    /// (its length in chars), invocable both ways, its provenance
    /// `builtin:NAME` with scope `builtin` (no file, no lines). The caller
    /// gives the reason and marks it shadowed when a skill of the same
    /// name replaces it.
    pub fn skill(&self, harness: &str, reason: String) -> crate::Skill {
        use crate::{Advertisement, AdvertisementState, Applicability, Invocation};
        use crate::{LoadPhase, Permission, RepoPath, SourceFormat, SourceRef, SourceScope};
        let path = RepoPath::builtin(self.name).unwrap_or_else(RepoPath::root);
        let length = self.description.chars().count() as u64;
        crate::Skill {
            id: format!("{harness}:skill:{path}"),
            name: self.name.to_string(),
            directory_name: self.name.to_string(),
            source: SourceRef {
                scope: SourceScope::Builtin,
                ..SourceRef::project(path, SourceFormat::Markdown)
            },
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason,
            advertisement: Advertisement::new(AdvertisementState::Advertised, length),
            description: Some(self.description.to_string()),
            invocation: Invocation {
                explicit: Permission::Allowed,
                implicit: Permission::Allowed,
            },
            paths: None,
            metadata_sources: Vec::new(),
            cross_references: Vec::new(),
        }
    }
}

//! The project configuration file, `playbookdiff.toml`.
//!
//! A team commits it at the repository root to say how PlaybookDiff gates
//! its pull requests:
//!
//! ```toml
//! # Which harnesses to compare (contract ids); default: every supported one.
//! harnesses = ['claude-code', 'codex']
//! # The least severity of a not-accepted finding that fails the run.
//! fail-on = "medium"
//! # Launch directories and files left out, in .gitignore syntax, relative
//! # to this file's directory.
//! exclude = ["crates/*/tests/fixtures/", "examples/"]
//!
//! [agent-versions]
//! claude-code = "2.1.197"
//!
//! [[accepted]]
//! id = "instruction:missing:codex-only:root:0123456789ab"
//! reason = "Codex-only release notes, intended"
//! directories = ["."]
//! ```
//!
//! [`parse`] reads it (TOML 1.1 through the `toml` crate) into a
//! [`ProjectConfig`] or a [`ConfigError`] with a 1-based line and column;
//! unknown keys are errors, so a misspelt key is never silently ignored.
//! [`accept`] adds an accepted finding with `toml_edit`, keeping the file's
//! formatting and comments. [`schema`] is the file's JSON Schema
//! (`schema/playbookdiff-toml.schema.json`, generated).
//!
//! Nothing here reads the file system: the CLI finds and reads the file.

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use playbookdiff_compare::{AcceptedFinding, Baseline, FailOn};
use playbookdiff_model::RepoPath;
use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use toml::Spanned;

/// The file name looked for at the repository root (and in its ancestors).
pub const FILE_NAME: &str = "playbookdiff.toml";

/// The parsed configuration file.
///
/// Every field is optional; an empty file is a valid configuration that
/// changes nothing.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(
    title = "playbookdiff.toml",
    description = "The PlaybookDiff project configuration file, at the repository root."
)]
pub struct ProjectConfig {
    /// The harnesses to compare, by contract id (`claude-code`, `codex`);
    /// at least two. Default: every supported harness. `--harness` on the
    /// command line replaces it.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub harnesses: Option<Vec<Spanned<String>>>,

    /// The agent release to model per harness id (`claude-code =
    /// "2.1.197"`). Default: the newest profiled release. `--agent-version`
    /// on the command line replaces it.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub agent_versions: BTreeMap<Spanned<String>, Spanned<String>>,

    /// Launch directories and files to leave out, in `.gitignore` syntax,
    /// relative to the directory of this file: `fixtures/` excludes every
    /// directory of that name, `**/tests/fixtures/` every such pair,
    /// `/examples/` or `crates/*/tests/` (a `/` at the start or in the
    /// middle anchors the pattern) only those below this file's directory,
    /// `!pattern` takes an entry back in. `check --all-dirs` does not
    /// check an excluded launch directory, nor one below it.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub exclude: Vec<Spanned<String>>,

    /// The least severity of a not-accepted finding that fails the run
    /// (exit status 1): `high`, `medium` (the default), `low`, `info` or
    /// `never`. `--fail-on` and `--exit-zero` replace it.
    #[serde(default)]
    pub fail_on: Option<FailOn>,

    /// Findings the team accepts as intended, by stable id, each with a
    /// reason. They are still reported and counted, marked as accepted;
    /// they never fail the run. An id that no longer occurs is reported as
    /// stale. Written by `playbookdiff check --accept ID --reason TEXT`.
    #[serde(default)]
    pub accepted: Vec<AcceptedEntry>,

    /// The guard's policy (`playbookdiff guard`, docs/guard.md): extra
    /// protected globs (`protect`), ask-list entries with reasons (`ask`),
    /// `allow-hosts`, `allow-secrets`, `protected-branches`, the declared
    /// `scope` and the verdict for `opaque` commands. Read and checked by
    /// the guard; an invalid table makes the guard deny every write.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, serde_json::Value>>")]
    pub guard: Option<toml::Table>,

    /// The folder holding the round briefs (`playbookdiff round`,
    /// docs/rounds.md), relative to the repository root. Default:
    /// `briefs`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub briefs: Option<Spanned<String>>,

    /// The allowed signers file of the rounds' rulings (OpenSSH's format,
    /// git's `gpg.ssh.allowedSignersFile`), relative to the repository
    /// root; read, like this key, from the brief's base branch, never from
    /// the round's own (docs/rounds.md). Default: `.github/allowed_signers`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub allowed_signers: Option<Spanned<String>>,

    #[serde(skip)]
    #[schemars(skip)]
    line_starts: Vec<usize>,

    #[serde(skip)]
    #[schemars(skip)]
    excluded: Option<Gitignore>,
}

/// One `[[accepted]]` entry.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptedEntry {
    /// The finding's stable id, as `check` prints it
    /// (`<category>:<type>:<direction>:<slug>:<12 hex digits>`).
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// Why the difference is intended (not empty).
    #[schemars(with = "String")]
    pub reason: Spanned<String>,
    /// The launch directories the finding was accepted from, as repository
    /// paths (`.` for the root); `check --accept` records them. A check of
    /// one launch directory reports the entry as stale (no longer found)
    /// only when it names that directory alone, so it never advises
    /// removing an entry another launch directory still produces; an
    /// entry that names none is reported stale by `check --all-dirs` only.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub directories: Vec<Spanned<String>>,
}

/// A configuration file that cannot be used: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// 1-based line and column (in characters) of the problem, when known.
    pub position: Option<(usize, usize)>,
    /// One sentence: what is wrong and what to write instead.
    pub message: String,
}

impl ConfigError {
    /// `FILE:LINE:COLUMN: message` (or `FILE: message`), one line.
    pub fn render(&self, file: &str) -> String {
        match self.position {
            Some((l, c)) => format!("{file}:{l}:{c}: {}", self.message),
            None => format!("{file}: {}", self.message),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(FILE_NAME))
    }
}

impl std::error::Error for ConfigError {}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

fn position(starts: &[usize], text: &str, offset: usize) -> (usize, usize) {
    let line = starts.partition_point(|s| *s <= offset).max(1);
    let start = starts[line - 1];
    let column = text
        .get(start..offset.min(text.len()))
        .map_or(1, |s| s.chars().count() + 1);
    (line, column)
}

/// Parses the text of a configuration file.
///
/// # Errors
///
/// A [`ConfigError`] with the line and column of the first problem: TOML
/// syntax, an unknown key, a value of the wrong type or out of its set
/// (`fail-on`), an `exclude` entry that is not a valid `.gitignore`
/// pattern, an accepted id that is not a finding id, an empty reason, an
/// id accepted twice, a harness named twice. Whether a harness id or an
/// agent version is known is the caller's to check
/// ([`ProjectConfig::error_at`] gives the position), and so is whether
/// `harnesses` names at least two ([`ProjectConfig::too_few_harnesses`]),
/// after the names: `harnesses = ["claude"]` is first an unknown name.
pub fn parse(text: &str) -> Result<ProjectConfig, ConfigError> {
    let starts = line_starts(text);
    let mut config: ProjectConfig = toml::from_str(text).map_err(|e| ConfigError {
        position: e.span().map(|s| position(&starts, text, s.start)),
        message: e
            .message()
            .trim()
            .trim_end_matches('.')
            .replace('\n', " ")
            .to_string(),
    })?;
    config.line_starts = starts;
    let at = |span: Range<usize>, message: String| ConfigError {
        position: Some(position(&config.line_starts, text, span.start)),
        message,
    };
    if let Some(hs) = &config.harnesses {
        for (i, h) in hs.iter().enumerate() {
            if hs[..i].iter().any(|o| o.get_ref() == h.get_ref()) {
                return Err(at(
                    h.span(),
                    format!("harness `{}` is named twice in `harnesses`", h.get_ref()),
                ));
            }
        }
    }
    let mut builder = GitignoreBuilder::new("");
    for pattern in &config.exclude {
        if pattern.get_ref().trim().is_empty() {
            return Err(at(
                pattern.span(),
                "an `exclude` entry is empty; write a .gitignore pattern such as \"tests/fixtures/\""
                    .into(),
            ));
        }
        if let Err(e) = builder.add_line(None, pattern.get_ref()) {
            return Err(at(
                pattern.span(),
                format!(
                    "`{}` is not a valid .gitignore pattern: {e}",
                    pattern.get_ref()
                ),
            ));
        }
    }
    if !config.exclude.is_empty() {
        config.excluded = builder.build().ok();
    }
    for (i, a) in config.accepted.iter().enumerate() {
        if !is_finding_id(a.id.get_ref()) && !is_upgrade_id(a.id.get_ref()) {
            return Err(at(
                a.id.span(),
                format!(
                    "`{}` is not a finding id; copy the id that `playbookdiff check` prints (<category>:<type>:<direction>:<slug>:<12 hex digits>), or that `playbookdiff upgrade` prints (upgrade:<harness>:<fact>)",
                    a.id.get_ref()
                ),
            ));
        }
        if a.reason.get_ref().trim().is_empty() {
            return Err(at(
                a.reason.span(),
                format!(
                    "the reason for accepting `{}` is empty; say why the difference is intended",
                    a.id.get_ref()
                ),
            ));
        }
        if let Some(d) = a
            .directories
            .iter()
            .find(|d| RepoPath::new(d.get_ref()).is_none())
        {
            return Err(at(
                d.span(),
                format!(
                    "`{}` is not a launch directory of the repository; write a path relative to the repository root, `.` for the root",
                    d.get_ref()
                ),
            ));
        }
        if config.accepted[..i]
            .iter()
            .any(|o| o.id.get_ref() == a.id.get_ref())
        {
            return Err(at(
                a.id.span(),
                format!("`{}` is accepted twice; keep one entry", a.id.get_ref()),
            ));
        }
    }
    Ok(config)
}

/// True when `id` has the shape of a finding id:
/// `<category>:<type>:<direction>:<slug>:<12 lower-case hex digits>`
/// (`crates/playbookdiff-compare/src/id.rs`).
pub fn is_finding_id(id: &str) -> bool {
    let parts: Vec<&str> = id.split(':').collect();
    parts.len() == 5
        && parts[..4].iter().all(|p| !p.is_empty())
        && parts[4].len() == 12
        && parts[4]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// True when `id` has the shape of the id of a behaviour an agent upgrade
/// changes, as `playbookdiff upgrade` prints it: `upgrade:<harness
/// id>:<fact>` (`upgrade:claude-code:AgentsMdFallback`), the harness id
/// and the fact made of ASCII letters, digits, `-` and `_`.
pub fn is_upgrade_id(id: &str) -> bool {
    let word = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    matches!(id.split(':').collect::<Vec<_>>()[..], ["upgrade", h, f] if word(h) && word(f))
}

impl ProjectConfig {
    /// An error at the byte `span` of the parsed text (from a
    /// [`Spanned`] value), for checks made by the caller.
    pub fn error_at(&self, span: Range<usize>, message: impl Into<String>) -> ConfigError {
        let line = self
            .line_starts
            .partition_point(|s| *s <= span.start)
            .max(1);
        let column = span.start - self.line_starts.get(line - 1).copied().unwrap_or(0) + 1;
        ConfigError {
            position: Some((line, column)),
            message: message.into(),
        }
    }

    /// The error for a `harnesses` key that names fewer than two harnesses
    /// (a comparison needs two), at its first entry; `None` when it names
    /// two or more, or is absent. Checked by the caller after each name is
    /// known to be a harness, so a misspelt name is answered first.
    pub fn too_few_harnesses(&self) -> Option<ConfigError> {
        let hs = self.harnesses.as_ref().filter(|hs| hs.len() < 2)?;
        let span = hs.first().map_or(0..0, |h| h.span());
        Some(self.error_at(
            span,
            "`harnesses` names fewer than two harnesses; a comparison needs two (e.g. harnesses = [\"claude-code\", \"codex\"]), or remove the key to compare all",
        ))
    }

    /// The harness ids of `harnesses`, when the key is present.
    pub fn harness_ids(&self) -> Option<Vec<&str>> {
        self.harnesses
            .as_ref()
            .map(|hs| hs.iter().map(|h| h.get_ref().as_str()).collect())
    }

    /// The accepted findings.
    pub fn baseline(&self) -> Baseline {
        Baseline::new(self.accepted.iter().map(|a| {
            let mut directories: Vec<RepoPath> = a
                .directories
                .iter()
                .filter_map(|d| RepoPath::new(d.get_ref()))
                .collect();
            directories.sort();
            directories.dedup();
            AcceptedFinding {
                id: a.id.get_ref().clone(),
                reason: a.reason.get_ref().trim().to_string(),
                directories,
            }
        }))
    }

    /// The `exclude` patterns as a matcher for paths of a repository whose
    /// root is `repo_in_config_dir` below this file's directory (empty
    /// when the file is at the repository root).
    pub fn exclusion(&self, repo_in_config_dir: &str) -> Exclusion {
        Exclusion {
            matcher: self.excluded.clone(),
            prefix: repo_in_config_dir.trim_matches('/').to_string(),
            patterns: self.exclude.iter().map(|p| p.get_ref().clone()).collect(),
        }
    }
}

/// The `exclude` patterns of a configuration file, matched against
/// repository paths ([`ProjectConfig::exclusion`]).
#[derive(Clone, Debug, Default)]
pub struct Exclusion {
    matcher: Option<Gitignore>,
    prefix: String,
    patterns: Vec<String>,
}

impl Exclusion {
    /// True when `path` (a directory when `is_dir`), or a directory above
    /// it, is excluded. The repository root is never excluded.
    ///
    /// Semantics are `.gitignore`'s, as the `ignore` crate implements them
    /// (the last matching pattern wins; `!` takes an entry back in; a
    /// trailing `/` matches directories only; a pattern with a `/` before
    /// its end is anchored to the configuration file's directory).
    pub fn is_excluded(&self, path: &RepoPath, is_dir: bool) -> bool {
        let Some(m) = &self.matcher else {
            return false;
        };
        if path.is_root() {
            return false;
        }
        let full = if self.prefix.is_empty() {
            path.as_str().to_string()
        } else {
            format!("{}/{}", self.prefix, path.as_str())
        };
        m.matched_path_or_any_parents(std::path::Path::new(&full), is_dir)
            .is_ignore()
    }

    /// True when no pattern is set.
    pub fn is_empty(&self) -> bool {
        self.matcher.is_none()
    }

    /// The patterns as written, for a walk of the repository that leaves
    /// the matching entries out: relative to the repository root, so only
    /// when the file is at the root (else empty: the caller then filters
    /// with [`Exclusion::is_excluded`]).
    pub fn walker_patterns(&self) -> &[String] {
        if self.prefix.is_empty() {
            &self.patterns
        } else {
            &[]
        }
    }
}

/// What [`accept`] made of a configuration file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// The file's new text.
    pub text: String,
    /// The reason the id was accepted for before, when it already was (the
    /// new reason replaced it): the caller says so, so no reason is lost
    /// without a word.
    pub previous_reason: Option<String>,
}

/// The launch directories of an `[[accepted]]` entry (a table or an
/// inline table) together with `more`, sorted, each once.
fn merged_directories(existing: Option<&toml_edit::Value>, more: &[RepoPath]) -> Vec<String> {
    let mut dirs: Vec<String> = existing
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    dirs.extend(more.iter().map(|d| d.as_str().to_string()));
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The text of a configuration file (`text`, possibly empty) with
/// `entry` accepted: a new `[[accepted]]` entry (`id`, `reason` and, when
/// it names some, `directories`) appended after the whole text (comments
/// at the end of the file, a new file's header included, stay before it),
/// or, when the id is already accepted, that entry's reason replaced
/// ([`Accepted::previous_reason`] holds the old one) and its
/// `directories` extended. Everything else in the file, its comments and
/// formatting included, is kept as it was (`toml_edit`).
///
/// # Errors
///
/// A [`ConfigError`] when `text` is not valid TOML, when `accepted` is not
/// an array of tables, when the id is not a finding id or the reason is
/// empty.
pub fn accept(text: &str, entry: &AcceptedFinding) -> Result<Accepted, ConfigError> {
    let id = entry.id.as_str();
    let plain = |message: String| ConfigError {
        position: None,
        message,
    };
    if !is_finding_id(id) {
        return Err(plain(format!(
            "`{id}` is not a finding id; copy the id that `playbookdiff check` prints"
        )));
    }
    let reason = entry.reason.trim();
    if reason.is_empty() {
        return Err(plain(
            "--reason is empty; say why the difference is intended".into(),
        ));
    }
    let starts = line_starts(text);
    let mut doc: toml_edit::DocumentMut =
        text.parse()
            .map_err(|e: toml_edit::TomlError| ConfigError {
                position: e.span().map(|s| position(&starts, text, s.start)),
                message: e.message().trim().to_string(),
            })?;
    // `toml_edit` keeps the comments after the last item (all of a file
    // that holds only comments) as the document's trailing text, which it
    // writes after every table: a new table takes them as its prefix, so
    // they stay where they were, before it.
    let trailing = doc.trailing().as_str().unwrap_or_default().to_string();
    let mut moved = false;
    let directories = |existing: Option<&toml_edit::Value>| {
        toml_edit::Array::from_iter(merged_directories(existing, &entry.directories))
    };
    let mut new_table = || {
        let mut t = toml_edit::Table::new();
        t.insert("id", toml_edit::value(id));
        t.insert("reason", toml_edit::value(reason));
        if !entry.directories.is_empty() {
            t.insert("directories", toml_edit::value(directories(None)));
        }
        if !moved && !trailing.trim().is_empty() {
            t.decor_mut().set_prefix(trailing.clone());
            moved = true;
        }
        t
    };
    let mut previous_reason = None;
    match doc.get_mut("accepted") {
        None => {
            let mut list = toml_edit::ArrayOfTables::new();
            list.push(new_table());
            doc.insert("accepted", toml_edit::Item::ArrayOfTables(list));
        }
        Some(toml_edit::Item::ArrayOfTables(list)) => {
            let existing = list
                .iter_mut()
                .find(|t| t.get("id").and_then(|v| v.as_str()) == Some(id));
            match existing {
                Some(t) => {
                    previous_reason = t.get("reason").and_then(|v| v.as_str()).map(str::to_string);
                    t.insert("reason", toml_edit::value(reason));
                    let dirs = directories(t.get("directories").and_then(|v| v.as_value()));
                    if !dirs.is_empty() {
                        t.insert("directories", toml_edit::value(dirs));
                    }
                }
                None => list.push(new_table()),
            }
        }
        Some(toml_edit::Item::Value(toml_edit::Value::Array(list))) => {
            let existing = list.iter_mut().find_map(|v| match v {
                toml_edit::Value::InlineTable(t)
                    if t.get("id").and_then(|v| v.as_str()) == Some(id) =>
                {
                    Some(t)
                }
                _ => None,
            });
            match existing {
                Some(t) => {
                    previous_reason = t.get("reason").and_then(|v| v.as_str()).map(str::to_string);
                    t.insert("reason", reason.into());
                    let dirs = directories(t.get("directories"));
                    if !dirs.is_empty() {
                        t.insert("directories", dirs.into());
                    }
                }
                None => {
                    let mut t = toml_edit::InlineTable::new();
                    t.insert("id", id.into());
                    t.insert("reason", reason.into());
                    if !entry.directories.is_empty() {
                        t.insert("directories", directories(None).into());
                    }
                    list.push(t);
                }
            }
        }
        Some(_) => {
            return Err(plain(
                "`accepted` is not a list of tables; write each entry as [[accepted]] with id and reason".into(),
            ))
        }
    }
    if moved {
        doc.set_trailing("");
    }
    // `toml_edit` writes LF and drops a byte order mark: a file written
    // with CRLF (or a BOM) keeps them, so only the new entry shows in a
    // diff of the file.
    let mut out = doc.to_string();
    if text.contains("\r\n") {
        out = out.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    if text.starts_with('\u{feff}') && !out.starts_with('\u{feff}') {
        out.insert(0, '\u{feff}');
    }
    Ok(Accepted {
        text: out,
        previous_reason: previous_reason.map(|r| r.trim().to_string()),
    })
}

/// The JSON Schema (draft 2020-12) of `playbookdiff.toml`, generated from
/// [`ProjectConfig`]'s types and doc comments. Pretty-printed, ending with
/// a newline. Editors that read TOML with a schema (Taplo, Even Better
/// TOML) can use it through a `#:schema` comment.
pub fn schema() -> String {
    let schema = schemars::schema_for!(ProjectConfig);
    let mut out =
        serde_json::to_string_pretty(&schema).expect("a JSON Schema always serializes to JSON");
    out.push('\n');
    out
}

/// Directory names that hold test fixtures: a repository's copies of
/// other repositories' configuration, which no agent reads from the
/// project itself.
const FIXTURE_DIRS: &[&str] = &[
    "fixtures",
    "fixture",
    "__fixtures__",
    "testdata",
    "test-fixtures",
    "test_fixtures",
];

/// Directory names of test trees: a file below one (not the directory's
/// own file) is taken for a fixture when no [`FIXTURE_DIRS`] name is on
/// its path.
const TEST_DIRS: &[&str] = &["tests", "test", "__tests__", "spec"];

/// The `exclude` pattern of the fixture directory `path` lies in, when it
/// looks like a test fixture: the path up to its first `FIXTURE_DIRS`
/// component (`tests/fixtures/` for `tests/fixtures/a/CLAUDE.md`), else up
/// to its first `TEST_DIRS` component that holds a deeper directory
/// (`tests/` for `tests/case/AGENTS.md`); a single component is anchored
/// at the root (`/testdata/`). `None` for any other path.
pub fn fixture_pattern(path: &RepoPath) -> Option<String> {
    let path = path.as_str();
    let (dir, _) = path.rsplit_once('/')?;
    let parent = dir.rsplit_once('/').map_or("", |(p, _)| p);
    let end = end_of_first(dir, FIXTURE_DIRS).or_else(|| end_of_first(parent, TEST_DIRS))?;
    let prefix = &path[..end];
    Some(if prefix.contains('/') {
        format!("{prefix}/")
    } else {
        format!("/{prefix}/")
    })
}

/// The byte offset in `dir` (a `/`-separated path) where its first
/// component named in `names` ends.
fn end_of_first(dir: &str, names: &[&str]) -> Option<usize> {
    let mut start = 0;
    for c in dir.split('/') {
        let end = start + c.len();
        if names.contains(&c) {
            return Some(end);
        }
        start = end + 1;
    }
    None
}

/// A suggestion to leave test fixtures out of the analysis with
/// `exclude` ([`suggest_fixture_exclusion`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureExclusion {
    /// How many findings and problems come from fixtures.
    pub from_fixtures: usize,
    /// How many findings and problems there are.
    pub total: usize,
    /// The patterns that cover them, most findings first (at most three).
    pub patterns: Vec<String>,
}

impl FixtureExclusion {
    /// The line to add to `playbookdiff.toml`: `exclude = ["tests/fixtures/"]`.
    pub fn toml(&self) -> String {
        let quoted: Vec<String> = self
            .patterns
            .iter()
            .map(|p| {
                toml_edit::Value::from(p.as_str())
                    .to_string()
                    .trim()
                    .to_string()
            })
            .collect();
        format!("exclude = [{}]", quoted.join(", "))
    }

    /// The one-line suggestion: how many come from fixtures and the
    /// exact line to add.
    pub fn sentence(&self) -> String {
        format!(
            "note: most findings and problems ({} of {}) come from paths that look like test fixtures; to leave them out, add to playbookdiff.toml: {}",
            self.from_fixtures,
            self.total,
            self.toml()
        )
    }
}

/// When most findings and problems come from test fixtures (more than
/// half, and at least three), the `exclude` patterns that would leave
/// them out. `sources` has one entry per finding or problem: the files it
/// is about; it comes from fixtures when each of them does
/// ([`fixture_pattern`]). The one place this heuristic lives.
pub fn suggest_fixture_exclusion<'a>(
    sources: impl IntoIterator<Item = Vec<&'a RepoPath>>,
) -> Option<FixtureExclusion> {
    let mut total = 0;
    let mut by_pattern: BTreeMap<String, usize> = BTreeMap::new();
    for paths in sources {
        total += 1;
        // The first file's pattern stands for the entry, when every file
        // is a fixture's.
        let Some((first, rest)) = paths.split_first() else {
            continue;
        };
        let Some(pattern) = fixture_pattern(first) else {
            continue;
        };
        if rest.iter().all(|p| fixture_pattern(p).is_some()) {
            *by_pattern.entry(pattern).or_default() += 1;
        }
    }
    let from_fixtures: usize = by_pattern.values().sum();
    if from_fixtures < 3 || from_fixtures * 2 <= total {
        return None;
    }
    let mut ranked: Vec<(String, usize)> = by_pattern.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Some(FixtureExclusion {
        from_fixtures,
        total,
        patterns: ranked.into_iter().take(3).map(|(p, _)| p).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "instruction:missing:codex-only:root:0123456789ab";

    /// [`accept`] of `id` for `reason` from no launch directory in
    /// particular: the new text.
    fn acc(text: &str, id: &str, reason: &str) -> Result<String, ConfigError> {
        let entry = AcceptedFinding {
            id: id.into(),
            reason: reason.into(),
            directories: Vec::new(),
        };
        accept(text, &entry).map(|a| a.text)
    }

    /// Accepting an id again replaces its reason and says which it was;
    /// the launch directories accumulate, sorted, each once; comments stay.
    #[test]
    fn accepting_again_returns_the_replaced_reason_and_merges_directories() {
        let dir = |d: &str| RepoPath::new(d).unwrap();
        let entry = |reason: &str, dirs: &[&str]| AcceptedFinding {
            id: ID.into(),
            reason: reason.into(),
            directories: dirs.iter().map(|d| dir(d)).collect(),
        };
        let before = "# Policy\n";
        let first = accept(before, &entry("old", &["apps/web"])).unwrap();
        assert_eq!(first.previous_reason, None);
        assert!(first.text.starts_with(before), "{}", first.text);
        assert!(
            first.text.contains("directories = [\"apps/web\"]"),
            "{}",
            first.text
        );
        let second = accept(&first.text, &entry("new", &[".", "apps/web"])).unwrap();
        assert_eq!(second.previous_reason.as_deref(), Some("old"));
        let parsed = parse(&second.text).unwrap();
        assert_eq!(parsed.accepted.len(), 1);
        let b = parsed.baseline();
        assert_eq!(b.reason(ID), Some("new"));
        let stale = b.stale([], playbookdiff_compare::Coverage::Every);
        assert_eq!(stale[0].directories, [dir("."), dir("apps/web")]);
        // The same in an inline array of tables.
        let inline = format!("accepted = [{{ id = \"{ID}\", reason = \"a\" }}]\n");
        let again = accept(&inline, &entry("b", &["x"])).unwrap();
        assert_eq!(again.previous_reason.as_deref(), Some("a"));
        let parsed = parse(&again.text).unwrap();
        assert_eq!(parsed.accepted[0].directories.len(), 1, "{}", again.text);
        // A directory that is no repository path is refused with its line.
        let e = parse(&format!(
            "[[accepted]]\nid = \"{ID}\"\nreason = \"r\"\ndirectories = [\"/abs\"]\n"
        ))
        .unwrap_err();
        assert_eq!(e.position.map(|p| p.0), Some(4), "{e}");
    }

    #[test]
    fn a_full_file_parses() {
        let c = parse(&format!(
            r#"
# comment
harnesses = ["claude-code", "codex"]
fail-on = "low"
exclude = ["tests/fixtures/", "/examples/"]

[agent-versions]
claude-code = "2.1.197"

[[accepted]]
id = "{ID}"
reason = "intended"
"#
        ))
        .unwrap();
        assert_eq!(c.harness_ids(), Some(vec!["claude-code", "codex"]));
        assert_eq!(c.fail_on, Some(FailOn::Low));
        let (k, v) = c.agent_versions.iter().next().unwrap();
        assert_eq!(
            (k.get_ref().as_str(), v.get_ref().as_str()),
            ("claude-code", "2.1.197")
        );
        assert_eq!(c.baseline().reason(ID), Some("intended"));
        // The key's line is known for the caller's own checks.
        assert_eq!(c.error_at(k.span(), "x").position, Some((8, 1)));
    }

    #[test]
    fn an_empty_file_changes_nothing() {
        let c = parse("").unwrap();
        assert!(c.harnesses.is_none());
        assert!(c.fail_on.is_none());
        assert!(c.baseline().is_empty());
        assert!(c.exclusion("").is_empty());
    }

    /// Fewer than two harnesses is an error the caller asks for, at the
    /// first entry, after checking the names.
    #[test]
    fn too_few_harnesses_is_answered_after_the_names() {
        let c = parse("harnesses = [\"codex\"]\n").unwrap();
        let e = c.too_few_harnesses().unwrap();
        assert_eq!(e.position, Some((1, 14)));
        assert!(e.message.contains("fewer than two"), "{e}");
        for ok in ["", "harnesses = [\"codex\", \"opencode\"]\n"] {
            assert!(parse(ok).unwrap().too_few_harnesses().is_none(), "{ok}");
        }
    }

    /// Each bad file gives its line and column and a sentence naming the
    /// problem.
    #[test]
    fn errors_have_line_and_column() {
        let table: &[(&str, (usize, usize), &str)] = &[
            ("fail-on = \"sometimes\"\n", (1, 11), "sometimes"),
            ("\n\nfailon = \"low\"\n", (3, 1), "failon"),
            (
                "harnesses = [\"codex\", \"codex\"]\n",
                (1, 23),
                "named twice",
            ),
            ("exclude = [\"ok/\", \"[z-a]\"]\n", (1, 19), "not a valid .gitignore"),
            (
                "[[accepted]]\nid = \"nope\"\nreason = \"r\"\n",
                (2, 6),
                "not a finding id",
            ),
            (
                &format!("[[accepted]]\nid = \"{ID}\"\nreason = \" \"\n"),
                (3, 10),
                "reason",
            ),
            (
                &format!("[[accepted]]\nid = \"{ID}\"\nreason = \"a\"\n[[accepted]]\nid = \"{ID}\"\nreason = \"b\"\n"),
                (5, 6),
                "accepted twice",
            ),
            ("[[accepted]]\nid = \"x\"\n", (1, 1), "reason"),
            ("fail-on = \n", (1, 11), ""),
        ];
        for (text, pos, needle) in table {
            let Err(e) = parse(text) else {
                panic!("{text:?} parsed")
            };
            assert_eq!(e.position, Some(*pos), "{text:?}: {e:?}");
            assert!(e.message.contains(needle), "{text:?}: {e:?}");
            assert!(!e.render("playbookdiff.toml").contains('\n'), "{e:?}");
        }
    }

    /// The `.gitignore` semantics of `exclude`, on a table.
    #[test]
    fn exclusion_follows_gitignore() {
        let c = parse(
            r#"exclude = ["**/tests/fixtures/", "/examples/", "*.tmp", "!examples/keep/", "docs/x/"]"#,
        )
        .unwrap();
        let x = c.exclusion("");
        let rp = |s: &str| RepoPath::new(s).unwrap();
        let table = [
            ("crates/a/tests/fixtures", true, true),
            ("crates/a/tests/fixtures/case/sub", true, true),
            ("tests/fixtures", true, true),
            ("tests/fixtures.md", false, false),
            ("examples", true, true),
            ("examples/monorepo/apps", true, true),
            ("docs/examples", true, false),
            ("a/b.tmp", false, true),
            ("crates/a/src", true, false),
            // A `/` before the end anchors the pattern, as in .gitignore.
            ("docs/x", true, true),
            ("a/docs/x", true, false),
            (".", true, false),
        ];
        for (p, dir, expected) in table {
            assert_eq!(x.is_excluded(&rp(p), dir), expected, "{p}");
        }
        // A repository below the configuration file's directory.
        let below = parse(r#"exclude = ["/pkg/tests/"]"#)
            .unwrap()
            .exclusion("pkg");
        assert!(below.is_excluded(&rp("tests/x"), true));
        assert!(!below.is_excluded(&rp("other/tests"), true));
    }

    #[test]
    fn accepting_keeps_crlf_line_ends_and_a_byte_order_mark() {
        let before = "\u{feff}# Team policy\r\nfail-on = \"medium\"\r\n";
        let after = acc(before, ID, "intended").unwrap();
        assert!(after.starts_with(before), "{after:?}");
        assert!(!after.replace("\r\n", "").contains('\n'), "{after:?}");
        assert!(
            after.ends_with(&format!("id = \"{ID}\"\r\nreason = \"intended\"\r\n")),
            "{after:?}"
        );
        assert_eq!(
            parse(&after).unwrap().baseline().reason(ID),
            Some("intended")
        );
        // A file written with LF stays LF.
        let lf = acc("fail-on = \"medium\"\n", ID, "intended").unwrap();
        assert!(!lf.contains('\r') && !lf.starts_with('\u{feff}'), "{lf:?}");
    }

    #[test]
    fn accepting_keeps_comments_and_formatting() {
        let before = "# Team policy\nfail-on = \"medium\"   # strict\n\nexclude = [\n  \"tests/\", # fixtures\n]\n";
        let after = acc(before, ID, "intended difference").unwrap();
        assert!(after.starts_with(before), "{after}");
        assert!(
            after.contains(&format!(
                "[[accepted]]\nid = \"{ID}\"\nreason = \"intended difference\"\n"
            )),
            "{after}"
        );
        let parsed = parse(&after).unwrap();
        assert_eq!(parsed.baseline().reason(ID), Some("intended difference"));
        // Accepting again replaces the reason, keeps one entry.
        let again = acc(&after, ID, "new reason").unwrap();
        let parsed = parse(&again).unwrap();
        assert_eq!(parsed.accepted.len(), 1);
        assert_eq!(parsed.baseline().reason(ID), Some("new reason"));
        assert!(again.starts_with(before));
        // An empty file gets one entry.
        let fresh = acc("", ID, "r").unwrap();
        assert_eq!(parse(&fresh).unwrap().accepted.len(), 1);
        // An inline array of tables is extended in its own style.
        let inline = format!("accepted = [{{ id = \"{ID}\", reason = \"a\" }}]\n");
        let other = ID.replace("0123456789ab", "ba9876543210");
        let out = acc(&inline, &other, "b").unwrap();
        assert_eq!(parse(&out).unwrap().accepted.len(), 2, "{out}");
    }

    #[test]
    fn accepting_writes_the_entry_after_the_comments_at_the_end() {
        // A new file is a header comment only.
        let header = "# Project configuration.\n# Accepted findings need a reason.\n";
        let out = acc(header, ID, "r").unwrap();
        assert_eq!(
            out,
            format!("{header}[[accepted]]\nid = \"{ID}\"\nreason = \"r\"\n")
        );
        // Comments after the last entry stay before the new one.
        let other = ID.replace("0123456789ab", "ba9876543210");
        let before = format!("[[accepted]]\nid = \"{ID}\"\nreason = \"a\"\n\n# More below.\n");
        let out = acc(&before, &other, "b").unwrap();
        assert!(out.starts_with(&before), "{out}");
        assert!(
            out.ends_with(&format!("[[accepted]]\nid = \"{other}\"\nreason = \"b\"\n")),
            "{out}"
        );
        assert_eq!(parse(&out).unwrap().accepted.len(), 2);
    }

    #[test]
    fn accepting_refuses_bad_input() {
        assert!(acc("", "nope", "r").is_err());
        assert!(acc("", ID, "  ").is_err());
        assert!(acc("accepted = 3\n", ID, "r").is_err());
        let e = acc("a = \n", ID, "r").unwrap_err();
        assert_eq!(e.position.map(|p| p.0), Some(1));
    }

    #[test]
    fn ids_have_the_shape_check_prints() {
        assert!(is_finding_id(ID));
        assert!(is_upgrade_id("upgrade:claude-code:AgentsMdFallback"));
        assert!(!is_upgrade_id("upgrade:claude-code"));
        assert!(!is_upgrade_id("upgrade:claude code:X"));
        assert!(!is_upgrade_id("upgrade::X"));
        assert!(!is_finding_id("upgrade:claude-code:AgentsMdFallback"));
        assert!(is_finding_id(
            "skill:capability-gap:claude-code-only:my-skill:abcdefabcdef"
        ));
        assert!(!is_finding_id("instruction:missing:root:0123456789ab"));
        assert!(!is_finding_id(
            "instruction:missing:codex-only:root:0123456789AB"
        ));
        assert!(!is_finding_id("instruction:missing:codex-only:root:0123"));
    }

    #[test]
    fn the_schema_names_every_key() {
        let s = schema();
        for key in [
            "harnesses",
            "agent-versions",
            "exclude",
            "fail-on",
            "accepted",
            "reason",
        ] {
            assert!(s.contains(&format!("\"{key}\"")), "{key}");
        }
    }

    /// Paths that look like fixtures give the directory to exclude; a
    /// suggestion needs most findings and problems (and three) from them,
    /// and its line parses as a configuration that excludes them.
    #[test]
    fn fixtures_are_suggested_for_exclude_when_most_come_from_them() {
        let rp = |s: &str| RepoPath::new(s).unwrap();
        let table = [
            ("tests/fixtures/a/CLAUDE.md", Some("tests/fixtures/")),
            (
                "crates/x/tests/fixtures/y/AGENTS.md",
                Some("crates/x/tests/fixtures/"),
            ),
            ("testdata/repo/.mcp.json", Some("/testdata/")),
            ("src/__fixtures__/AGENTS.md", Some("src/__fixtures__/")),
            ("tests/case/AGENTS.md", Some("/tests/")),
            ("tests/AGENTS.md", None),
            ("AGENTS.md", None),
            ("apps/web/CLAUDE.md", None),
            ("docs/fixtures.md", None),
            ("spec/x/fixtures/a.md", Some("spec/x/fixtures/")),
            ("a/spec/b/c/AGENTS.md", Some("a/spec/")),
            ("a/spec/AGENTS.md", None),
            ("fixtures/AGENTS.md", Some("/fixtures/")),
        ];
        for (path, expected) in table {
            assert_eq!(fixture_pattern(&rp(path)).as_deref(), expected, "{path}");
        }
        let f = [
            rp("tests/fixtures/a/CLAUDE.md"),
            rp("tests/fixtures/b/AGENTS.md"),
        ];
        let other = rp("AGENTS.md");
        let s =
            suggest_fixture_exclusion([vec![&f[0]], vec![&f[1]], vec![&f[0], &f[1]], vec![&other]])
                .unwrap();
        assert_eq!((s.from_fixtures, s.total), (3, 4));
        assert_eq!(s.toml(), "exclude = [\"tests/fixtures/\"]");
        assert!(s.sentence().ends_with(&s.toml()), "{}", s.sentence());
        let c = parse(&s.toml()).unwrap();
        assert!(c.exclusion("").is_excluded(&f[0], false));
        assert!(!c.exclusion("").is_excluded(&other, false));
        // Half, or fewer than three, is no suggestion; nor is a finding
        // with one file outside fixtures.
        assert!(suggest_fixture_exclusion([
            vec![&f[0]],
            vec![&f[1]],
            vec![&f[0]],
            vec![&other],
            vec![&other],
            vec![&other]
        ])
        .is_none());
        assert!(suggest_fixture_exclusion([vec![&f[0]], vec![&f[1]]]).is_none());
        assert!(suggest_fixture_exclusion([
            vec![&f[0], &other],
            vec![&f[1], &other],
            vec![&f[0], &other]
        ])
        .is_none());
    }
}

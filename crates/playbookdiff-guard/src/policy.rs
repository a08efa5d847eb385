//! What the guard protects: the [`Policy`], built from the registered
//! adapters' surfaces, the fixed rules of [`crate::rules`] and the
//! `[guard]` table of `playbookdiff.toml` ([`GuardConfig`]).

use crate::globs::Globs;
use crate::rules::{self, Rule};
use globset::{Glob, GlobBuilder};
use playbookdiff_adapter::Surface;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The `[guard]` table of `playbookdiff.toml`, as written.
///
/// ```toml
/// [guard]
/// protect = ["docs/adr/**"]            # extra protected globs (deny)
/// allow-hosts = ["crates.io"]          # egress allowed to these hosts
/// allow-secrets = [".env.test"]        # secret files that may be read
/// protected-branches = ["main"]        # default: main, master
/// scope = ["crates/guard/**"]          # writes outside: a warning
/// opaque = "ask"                       # or "deny" (the default)
///
/// [[guard.ask]]
/// path = "CLAUDE.md"
/// reason = "the team edits CLAUDE.md with the agent, reviewed"
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GuardConfig {
    /// Extra protected globs, repository-relative (`globset` syntax).
    #[serde(default)]
    pub protect: Vec<String>,
    /// Protected paths a person may approve instead of a deny, each with
    /// the reason the model reads.
    #[serde(default)]
    pub ask: Vec<AskEntry>,
    /// Hosts network access may reach (exact names; `*.example.com` for
    /// its subdomains).
    #[serde(default)]
    pub allow_hosts: Vec<String>,
    /// Secret files that may be read, by exact repository-relative path.
    #[serde(default)]
    pub allow_secrets: Vec<String>,
    /// Branches `git reset --hard` must not run on (globs); default
    /// `main` and `master`.
    #[serde(default)]
    pub protected_branches: Option<Vec<String>>,
    /// The declared scope of the current work (globs): a write outside it
    /// is allowed with a warning and recorded. None: no scope.
    #[serde(default)]
    pub scope: Option<Vec<String>>,
    /// What an opaque or unparseable shell command gets: `ask` or `deny`
    /// (the default).
    #[serde(default)]
    pub opaque: Option<OpaqueVerdict>,
}

/// One `[[guard.ask]]` entry.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AskEntry {
    /// The protected path or glob, repository-relative.
    pub path: String,
    /// Why a person may approve it (not empty).
    pub reason: String,
}

/// `[guard] opaque`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OpaqueVerdict {
    /// A person approves it.
    Ask,
    /// Refused.
    Deny,
}

impl GuardConfig {
    /// Reads the `[guard]` table from the whole text of
    /// `playbookdiff.toml` (no table: the defaults).
    ///
    /// # Errors
    /// A sentence naming what is wrong: invalid TOML, an unknown key, a
    /// wrong type, or an entry [`GuardConfig::validate`] refuses.
    pub fn from_toml(text: &str) -> Result<GuardConfig, String> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| format!("playbookdiff.toml: {}", e.message()))?;
        let Some(guard) = table.get("guard") else {
            return Ok(GuardConfig::default());
        };
        let config: GuardConfig = guard
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| format!("[guard]: {}", e.message()))?;
        config.validate()?;
        Ok(config)
    }

    /// Refuses the all-open forms: an empty entry, `*`, `**`, `/`, `~`,
    /// an absolute path or one leaving the work tree (`..`) in
    /// `allow-secrets`; an empty, `*` or `**` host; an ask entry without
    /// a reason; a glob that does not compile.
    ///
    /// # Errors
    /// The first refused entry, in a sentence.
    pub fn validate(&self) -> Result<(), String> {
        for s in &self.allow_secrets {
            if all_open(s) || s.starts_with('/') || s.starts_with('~') || leaves_tree(s) {
                return Err(format!("[guard] allow-secrets: `{s}` is not one file inside the work tree; name each secret file by its exact path"));
            }
            if s.contains(['*', '?', '[', '{']) {
                return Err(format!("[guard] allow-secrets: `{s}` is a pattern; name each secret file by its exact path"));
            }
        }
        for h in &self.allow_hosts {
            let h = h.trim();
            let domain = h.strip_prefix("*.");
            let wild = domain.is_some_and(|d| !d.contains('.'));
            if h.is_empty() || wild || domain.unwrap_or(h).contains('*') || h == "*" {
                return Err(format!(
                    "[guard] allow-hosts: `{h}` allows every host; name each host"
                ));
            }
        }
        for a in &self.ask {
            if a.reason.trim().is_empty() {
                return Err(format!("[guard] ask: `{}` has no reason", a.path));
            }
        }
        let globs = self.protect.iter().chain(self.ask.iter().map(|a| &a.path));
        let globs = globs
            .chain(self.scope.iter().flatten())
            .chain(self.protected_branches.iter().flatten());
        for g in globs {
            glob(g).map_err(|e| format!("[guard]: `{g}` is not a valid glob ({e})"))?;
        }
        for s in self.scope.iter().flatten() {
            if all_open(s) {
                return Err(format!("[guard] scope: `{s}` declares no scope; name the paths of the work, or leave `scope` out"));
            }
        }
        Ok(())
    }
}

/// Whether `s` is an all-open declaration (empty, `*`, `**`, `/`, `~`,
/// `.`, `./`, `**/*`).
fn all_open(s: &str) -> bool {
    matches!(
        s.trim(),
        "" | "*" | "**" | "/" | "~" | "~/" | "." | "./" | "**/*" | "/**" | "*/**"
    )
}

/// Whether relative path `s` leaves the directory it is relative to.
fn leaves_tree(s: &str) -> bool {
    let mut depth: i32 = 0;
    for part in s.split('/') {
        match part {
            ".." => depth -= 1,
            "" | "." => {}
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// A glob over repository-relative paths (`*` within one directory).
fn glob(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern).literal_separator(true).build()
}

/// Globs into one set; patterns starting with `!` are left out (they are
/// exceptions, see [`Policy::is_secret`]). A directory's pattern
/// (`**/.claude/**`) also matches the directory itself, so that removing
/// or moving `.claude` is a change to what is under it. Nothing is
/// compiled here ([`Globs`]).
fn set<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Globs {
    let patterns: Vec<&str> = patterns
        .into_iter()
        .filter(|p| !p.starts_with('!'))
        .collect();
    let dirs = patterns.iter().filter_map(|p| p.strip_suffix("/**"));
    Globs::new(patterns.iter().copied().chain(dirs))
}

/// The policy of one repository: the compiled matchers of every rule.
#[derive(Clone, Debug)]
pub struct Policy {
    /// The work tree's root, links resolved.
    pub root: PathBuf,
    /// The user's home directory, links resolved, when known (for `~`).
    pub home: Option<PathBuf>,
    /// Git's directories (the work tree's `.git` and the common
    /// directory), links resolved: protected like `.git`.
    pub git_dirs: Vec<PathBuf>,
    /// The branch checked out, when known.
    pub branch: Option<String>,
    /// The round's brief, when one is named ([`crate::brief_scope`]).
    pub brief: Option<std::sync::Arc<crate::brief_scope::BriefScope>>,
    /// The `[guard]` table, or why it cannot be used (then every write
    /// is denied).
    pub config: Result<GuardConfig, String>,
    /// The agents' surfaces, as the adapters declare them.
    pub surfaces: Vec<Surface>,
    /// The files the adapters' compilations read besides the surfaces
    /// (imports, configured instruction globs: [`crate::sources`]),
    /// repository-relative, sorted.
    pub sources: Vec<String>,
    agent: Globs,
    machine: Globs,
    guard: Globs,
    secrets: Globs,
    secret_exceptions: Globs,
    git: Globs,
    startup: Globs,
    protect: Globs,
    ask: Vec<(Globs, String)>,
    scope: Option<Globs>,
    branches: Globs,
}

impl Policy {
    /// The policy for the work tree at `root` (resolved), protecting
    /// `surfaces` (every registered adapter's: those of the repository
    /// by their path in the work tree, the user's and managed ones by
    /// their place in the home directory and on the machine), under
    /// `config`.
    pub fn new(
        root: PathBuf,
        surfaces: Vec<Surface>,
        config: Result<GuardConfig, String>,
    ) -> Policy {
        let (surfaces, machine): (Vec<Surface>, Vec<Surface>) =
            surfaces.into_iter().partition(Surface::in_repository);
        let c = config.clone().unwrap_or_default();
        let secret_rule = rules::SECRET_WRITE.matchers;
        let exceptions = secret_rule.iter().filter_map(|p| p.strip_prefix('!'));
        let branches = c
            .protected_branches
            .clone()
            .unwrap_or_else(|| vec!["main".into(), "master".into()]);
        Policy {
            root,
            home: None,
            git_dirs: Vec::new(),
            branch: None,
            brief: None,
            agent: set(surfaces.iter().map(|s| s.pattern)),
            machine: set(machine
                .iter()
                .map(|s| s.pattern)
                .chain(crate::install::MACHINE_REGISTRATIONS.iter().copied())),
            surfaces,
            sources: Vec::new(),
            guard: set(rules::GUARD_CONFIG.matchers.iter().copied()),
            secrets: set(secret_rule.iter().copied()),
            secret_exceptions: set(exceptions),
            git: set(rules::GIT_DIR.matchers.iter().copied()),
            startup: set(rules::SHELL_STARTUP.matchers.iter().copied()),
            protect: set(c.protect.iter().map(String::as_str)),
            ask: c
                .ask
                .iter()
                .map(|a| (set([a.path.as_str()]), a.reason.clone()))
                .collect(),
            scope: c.scope.as_ref().map(|s| set(s.iter().map(String::as_str))),
            branches: set(branches.iter().map(String::as_str)),
            config,
        }
    }

    /// With `sources` protected as agent configuration (see
    /// [`crate::sources`]).
    pub fn with_sources(mut self, mut sources: Vec<String>) -> Policy {
        sources.sort();
        sources.dedup();
        self.sources = sources;
        self
    }

    /// The `[guard]` table in force (the defaults when it is unreadable).
    pub fn guard_config(&self) -> GuardConfig {
        self.config.clone().unwrap_or_default()
    }

    /// The rule protecting the work-tree path `rel` (repository-relative,
    /// `/`-separated) against writes, strongest first: `.git`, the
    /// guard's files, secrets, shell start-up files, agent configuration,
    /// `[guard] protect`.
    pub fn write_rule(&self, rel: &str) -> Option<&'static Rule> {
        if self.git.is_match(rel) {
            Some(&rules::GIT_DIR)
        } else if self.guard.is_match(rel) {
            Some(&rules::GUARD_CONFIG)
        } else if self.is_secret(rel) {
            Some(&rules::SECRET_WRITE)
        } else if self.startup.is_match(rel) {
            Some(&rules::SHELL_STARTUP)
        } else if self.agent.is_match(rel)
            || self
                .sources
                .binary_search_by(|s| s.as_str().cmp(rel))
                .is_ok()
        {
            Some(&rules::AGENT_CONFIG)
        } else if self.protect.is_match(rel) {
            Some(&rules::PROTECTED)
        } else {
            None
        }
    }

    /// The rule protecting `path` (absolute, outside the work tree):
    /// git's directories, secrets and shell start-up files by name.
    pub fn outside_rule(&self, path: &Path) -> Option<&'static Rule> {
        let text = path.to_string_lossy();
        if self.git_dirs.iter().any(|g| path.starts_with(g)) || self.git.is_match(&text) {
            Some(&rules::GIT_DIR)
        } else if self.is_secret(&text) {
            Some(&rules::SECRET_WRITE)
        } else if self.startup.is_match(&text) {
            Some(&rules::SHELL_STARTUP)
        } else {
            self.machine_rule(path)
        }
    }

    /// The rule protecting `path` (absolute) as the user's or the
    /// machine's agent configuration: a user or managed surface of a
    /// registered adapter (`~/.claude/settings.json`,
    /// `/etc/codex/config.toml`: a setting there, such as
    /// `disableAllHooks`, switches the guard off), a user or managed
    /// registration of the guard itself ([`crate::install::MACHINE_REGISTRATIONS`]), or
    /// the guard's own files in the home directory (`~/.playbookdiff/`,
    /// the user's kill switch).
    fn machine_rule(&self, path: &Path) -> Option<&'static Rule> {
        let in_home = self
            .home
            .as_deref()
            .and_then(|h| path.strip_prefix(h).ok())
            .map(|rel| rel.to_string_lossy().into_owned());
        if in_home
            .as_deref()
            .is_some_and(|rel| self.guard.is_match(rel))
        {
            return Some(&rules::GUARD_CONFIG);
        }
        let as_home = in_home.map(|rel| format!("~/{rel}"));
        let machine = as_home.iter().any(|h| self.machine.is_match(h))
            || self.machine.is_match(&path.to_string_lossy());
        machine.then_some(&rules::AGENT_CONFIG)
    }

    /// Whether `path` names a secret file (`.env*` but public templates,
    /// keys, credentials, `secrets/`).
    pub fn is_secret(&self, path: &str) -> bool {
        self.secrets.is_match(path) && !self.secret_exceptions.is_match(path)
    }

    /// Whether reading secret `rel` is allowed (`[guard] allow-secrets`
    /// names it exactly, as declared: a link is allowed under its
    /// declared name only).
    pub fn secret_allowed(&self, rel: &str) -> bool {
        let c = self.guard_config();
        c.allow_secrets
            .iter()
            .any(|s| s.trim_start_matches("./") == rel)
    }

    /// The reason of the ask-list entry covering `rel`, if any.
    pub fn ask_reason(&self, rel: &str) -> Option<&str> {
        self.ask
            .iter()
            .find(|(g, _)| g.is_match(rel))
            .map(|(_, r)| r.as_str())
    }

    /// Whether `rel` is outside the declared scope (false without one).
    pub fn out_of_scope(&self, rel: &str) -> bool {
        self.scope.as_ref().is_some_and(|s| !s.is_match(rel))
    }

    /// Whether the checked-out branch is protected (unknown: yes).
    pub fn on_protected_branch(&self) -> bool {
        self.branch
            .as_deref()
            .is_none_or(|b| self.branches.is_match(b))
    }

    /// Whether network access to `host` is allowed.
    pub fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.guard_config().allow_hosts.iter().any(|h| {
            let h = h.trim().to_ascii_lowercase();
            match h.strip_prefix("*.") {
                Some(domain) => host.ends_with(&format!(".{domain}")),
                None => host == h,
            }
        })
    }

    /// `rel` with each component that names a protected file or
    /// directory in another case (`claude.md`, `.GIT`, `.Claude`) spelt
    /// as the protecting rule spells it, when there is one: on a
    /// case-insensitive file system (macOS's and Windows' defaults) it is
    /// the same file, so the write is decided as a write to that one too.
    /// The names are [`Policy::probe_names`].
    pub fn case_variant(&self, rel: &str) -> Option<String> {
        let names = self.probe_names();
        let mut changed = false;
        let parts: Vec<&str> = rel
            .split('/')
            .map(|c| {
                match names
                    .iter()
                    .find(|n| n.as_str() != c && n.eq_ignore_ascii_case(c))
                {
                    Some(n) => {
                        changed = true;
                        n.as_str()
                    }
                    None => c,
                }
            })
            .collect();
        changed.then(|| parts.join("/"))
    }

    /// The names probed directly inside a directory removed recursively
    /// (`CLAUDE.md`, `.claude`, `.env`...): the fixed last parts of the
    /// protected globs, so that `rm -r DIR` is refused when DIR holds
    /// one, without walking DIR.
    pub fn probe_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .surfaces
            .iter()
            .map(|s| s.pattern)
            .chain(rules::SECRET_WRITE.matchers.iter().copied())
            .chain(rules::GUARD_CONFIG.matchers.iter().copied())
            .chain(rules::GIT_DIR.matchers.iter().copied())
            .filter_map(|p| {
                let p = p.strip_prefix("**/").unwrap_or(p);
                let p = p.strip_suffix("/**").unwrap_or(p);
                (!p.contains(['*', '?', '[', '{', '!'])).then(|| p.to_string())
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_open_declarations_are_refused() {
        for bad in [
            "",
            "*",
            "**",
            "/",
            "~",
            "../x",
            "/etc/passwd",
            "a/../../b",
            ".env*",
        ] {
            let c = GuardConfig {
                allow_secrets: vec![bad.into()],
                ..GuardConfig::default()
            };
            assert!(c.validate().is_err(), "{bad:?}");
        }
        for bad in ["", "*", "*.*", "*.*.com", "*.com", "exa*.com"] {
            let c = GuardConfig {
                allow_hosts: vec![bad.into()],
                ..GuardConfig::default()
            };
            assert!(c.validate().is_err(), "{bad:?}");
        }
        let ok = GuardConfig {
            allow_secrets: vec![".env.test".into(), "./config/secrets/ci.json".into()],
            allow_hosts: vec!["crates.io".into(), "*.github.com".into()],
            ..GuardConfig::default()
        };
        assert_eq!(ok.validate(), Ok(()));
        assert!(GuardConfig::from_toml("[guard]\nallow-secret = []").is_err());
        assert!(GuardConfig::from_toml(
            "[guard]\n[[guard.ask]]\npath = \"CLAUDE.md\"\nreason = \" \""
        )
        .is_err());
        assert_eq!(
            GuardConfig::from_toml("exclude = []"),
            Ok(GuardConfig::default())
        );
    }
}

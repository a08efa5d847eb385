//! The user's extensions, read in local mode: `~/.gemini/extensions/*/`.
//!
//! Gemini CLI (`ExtensionManager.loadExtensions` and `_buildExtension` in
//! `packages/cli/src/config/extension-manager.ts`, both profiled
//! releases): each directory of `~/.gemini/extensions` holding a
//! `gemini-extension.json` whose `name` (letters, digits and `-` only) and
//! `version` are set is an extension; one whose manifest is missing, is not
//! JSON or fails those checks is skipped with a warning. An extension is
//! active unless `~/.gemini/extensions/extension-enablement.json` turns it
//! off for the launch directory (`ExtensionEnablementManager.isEnabled`:
//! the last of the extension's `overrides` whose glob matches the launch
//! directory's absolute path, `!` for off, a trailing `*` for the folders
//! below). A linked extension (`gemini extensions link`: `"type":
//! "link"` in its `.gemini-extension-install.json`) is read from the
//! folder its `source` names, when that lies in the home (reported as
//! unread otherwise). An active extension gives:
//!
//! * its context files: the names of `contextFileName` (a string or a
//!   list; `GEMINI.md` when unset) that exist in its directory;
//! * the servers of its `mcpServers`, after those of the settings;
//! * the commands of its `commands/` folder, named after the user's and
//!   the workspace's (`FileCommandLoader`), `EXTENSION.NAME` on a clash;
//! * the skills of its `skills/` folder, before the user's and the
//!   workspace's (`SkillManager.discoverSkills`), so theirs win a clash;
//! * the hooks of its `hooks/hooks.json`, after the settings' (module
//!   `hooks`);
//! * the subagents of its `agents/` folder, after the project's (module
//!   `extras`).
//!
//! Its policies and `excludeTools` are read by module `policies`; its
//! themes are not read.
//! A project's `.gemini/extensions` is not read by either release (the
//! extensions directory is the user's only, `ExtensionStorage.
//! getUserExtensionsDir`). Seen with 0.34.0 and 0.61.0 on case
//! `oracle.local_gemini_extensions.home-gemini-extensions`.

use crate::settings::{self, Workspace};
use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    ContributionKind, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Plugin, PluginContribution,
    PluginLoad, RepoPath, SourceFormat, SourceRef,
};
use playbookdiff_source::{EntryKind, Machine, SourceError};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The user's extensions directory, below the home.
const DIR: &str = ".gemini/extensions";

/// The manifest of an extension, in its directory.
const MANIFEST: &str = "gemini-extension.json";

/// The enablement file, in the extensions directory.
const ENABLEMENT: &str = "extension-enablement.json";

/// One extension of the user's extensions directory whose manifest Gemini
/// CLI accepts.
pub(crate) struct Extension {
    /// Its `name`.
    pub name: String,
    /// Its directory, `~/.gemini/extensions/<folder>`.
    pub dir: RepoPath,
    /// Its manifest, parsed with the lines of each key.
    pub manifest: Workspace,
    /// `None` when active; else the override that turns it off.
    pub disabled_by: Option<SourceRef>,
}

impl Extension {
    /// True when Gemini CLI loads what it gives here.
    pub(crate) fn active(&self) -> bool {
        self.disabled_by.is_none()
    }

    /// The name an item of the extension carries in its provenance
    /// (`extension:NAME`).
    pub(crate) fn key(&self) -> String {
        format!("extension:{}", self.name)
    }

    /// The manifest as a source in the extension's layer, with the lines
    /// of `key` when known.
    pub(crate) fn source(&self, key: &[&str]) -> SourceRef {
        let path = self
            .manifest
            .path
            .clone()
            .unwrap_or_else(|| self.dir.clone());
        self.manifest
            .source(key)
            .unwrap_or_else(|| SourceRef::project(path, SourceFormat::Json))
            .in_plugin(&self.key())
    }

    /// The file `rel` of the extension's directory.
    pub(crate) fn file(&self, rel: &str) -> Option<RepoPath> {
        self.dir.join(rel)
    }

    /// The context file names of `contextFileName` (`GEMINI.md` when
    /// unset; `getContextFileNames`), as written.
    pub(crate) fn context_file_names(&self) -> Vec<String> {
        match self.manifest.get(&["contextFileName"]) {
            None | Some(Value::Null) => vec![crate::DEFAULT_CONTEXT_FILE.to_string()],
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            Some(_) => Vec::new(),
        }
    }
}

/// The extensions of the user's extensions directory on `machine`, by
/// folder name, each with its enablement for the launch directory
/// `launch_dir` (absolute, its links resolved as `process.cwd()` gives
/// it; `None` when unknown: every override is then taken as not
/// matching, which the caller states as an assumption).
pub(crate) fn load(
    cx: &mut Cx<'_, '_>,
    machine: &Machine,
    launch_dir: Option<&Path>,
) -> Vec<Extension> {
    let Some(root) = RepoPath::on_machine("~", DIR) else {
        return Vec::new();
    };
    let Ok(mut entries) = machine.list_dir(&root) else {
        return Vec::new();
    };
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let rules = Enablement::read(cx, machine, &root);
    let mut out: Vec<Extension> = Vec::new();
    for e in entries {
        let Some(dir) = root.child(&e.name) else {
            continue;
        };
        if !machine.stat(&dir).is_ok_and(|s| s.kind == EntryKind::Dir) {
            continue;
        }
        let Some(dir) = effective_dir(cx, machine, dir) else {
            continue;
        };
        let Some(mut ext) = manifest(cx, machine, dir) else {
            continue;
        };
        if out.iter().any(|o| o.name == ext.name) {
            duplicate(cx, &ext);
            continue;
        }
        ext.disabled_by = rules.disabled_by(&ext.name, launch_dir);
        if let Some(at) = &ext.disabled_by {
            disabled(cx, &ext, at.clone());
        }
        out.push(ext);
    }
    out
}

/// The folder Gemini CLI reads the extension of `dir` from: `dir`, or for
/// a linked extension (`gemini extensions link`: `"type": "link"` in its
/// `.gemini-extension-install.json`) the folder its `source` names, when
/// that lies in the home; `None`, reported, for one elsewhere, which the
/// analysis does not read.
fn effective_dir(cx: &mut Cx<'_, '_>, machine: &Machine, dir: RepoPath) -> Option<RepoPath> {
    let meta = dir.join(".gemini-extension-install.json")?;
    let Ok(text) = machine.read_text(&meta, READ_LIMIT) else {
        return Some(dir);
    };
    let value: Value = serde_json::from_str(&text.text).unwrap_or_default();
    if value["type"].as_str() != Some("link") {
        return Some(dir);
    }
    let source = value["source"].as_str().map(Path::new);
    if let Some(linked) = source.and_then(|s| machine.name_of(None, s)) {
        return Some(linked);
    }
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::UserConfigUnavailable,
            format!(
                "The extension folder {} is a linked extension (`gemini extensions link`) whose source folder lies outside the home, which the analysis does not read: what it gives Gemini CLI is unknown; run `gemini extensions list`.",
                problems::quote(&dir)
            ),
        )
        .at(crate::user::machine_source(meta, SourceFormat::Json)),
    );
    None
}

/// The extension of `dir`, from its manifest; `None` (reported) when
/// Gemini CLI skips it.
fn manifest(cx: &mut Cx<'_, '_>, machine: &Machine, dir: RepoPath) -> Option<Extension> {
    let path = dir.join(MANIFEST)?;
    let effect = "Gemini CLI skips this extension (\"Warning: Skipping extension\")";
    let text = match machine.read_text(&path, READ_LIMIT) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => {
            skipped(cx, &path, "it has no `gemini-extension.json`");
            return None;
        }
        Err(e) => {
            cx.diag(problems::read_error(&path, &e, effect, SourceFormat::Json));
            return None;
        }
    };
    let manifest = match settings::parse_manifest(path.clone(), &text.text) {
        Ok(m) => m,
        Err(e) => {
            let d = problems::invalid_syntax(&path, "JSON", &e, effect, SourceFormat::Json);
            cx.diag(d.with_severity(playbookdiff_model::Severity::Warning));
            return None;
        }
    };
    let name = manifest
        .get(&["name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let version = manifest.get(&["version"]).and_then(Value::as_str);
    let why = if name.is_empty() {
        Some("its manifest has no string `name`")
    } else if version.is_none_or(str::is_empty) {
        Some("its manifest has no string `version`")
    } else if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        Some("its `name` holds a character other than letters, digits and `-`")
    } else {
        None
    };
    if let Some(why) = why {
        skipped(cx, &path, why);
        return None;
    }
    Some(Extension {
        name: name.to_string(),
        dir,
        manifest,
        disabled_by: None,
    })
}

/// Reports the extension manifest `path`, which Gemini CLI skips: `why`.
fn skipped(cx: &mut Cx<'_, '_>, path: &RepoPath, why: &str) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ExtensionSkipped,
            format!(
                "The extension folder of {} is skipped by Gemini CLI: {why}; it gives no context file, MCP server, command or skill. Fix the manifest (`name` and `version` are required).",
                problems::quote(path)
            ),
        )
        .at(crate::user::machine_source(path.clone(), SourceFormat::Json)),
    );
}

/// Reports `ext`, whose name an extension of an earlier folder holds.
fn duplicate(cx: &mut Cx<'_, '_>, ext: &Extension) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ExtensionSkipped,
            format!(
                "Two folders of `~/.gemini/extensions` hold an extension named `{}`; Gemini CLI stops loading extensions (\"Extension with name {} already was loaded.\"), which the analysis does not model: it keeps the first folder's. Remove one of them.",
                ext.name, ext.name
            ),
        )
        .at(ext.source(&["name"])),
    );
}

/// Reports `ext`, turned off for the launch directory by the override
/// `at`.
fn disabled(cx: &mut Cx<'_, '_>, ext: &Extension, at: SourceRef) {
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ExtensionDisabled,
            format!(
                "The Gemini CLI extension `{}` is installed, but `{ENABLEMENT}` disables it for this launch directory: Gemini CLI loads none of its context files, MCP servers, commands, skills, hooks or subagents here. Enable it with `gemini extensions enable {}`.",
                ext.name, ext.name
            ),
        )
        .at(at),
    );
}

/// The overrides of `extension-enablement.json`, parsed with the lines
/// of each key; empty when missing or not JSON (Gemini CLI then reports
/// it and enables every extension).
struct Enablement(Workspace);

impl Enablement {
    /// The enablement file of the extensions directory `root`.
    fn read(cx: &mut Cx<'_, '_>, machine: &Machine, root: &RepoPath) -> Enablement {
        let Some(path) = root.join(ENABLEMENT) else {
            return Enablement(Workspace::default());
        };
        let effect = "Gemini CLI reports it and enables every extension";
        let text = match machine.read_text(&path, READ_LIMIT) {
            Ok(t) => t,
            Err(SourceError::NotFound(_)) => return Enablement(Workspace::default()),
            Err(e) => {
                cx.diag(problems::read_error(&path, &e, effect, SourceFormat::Json));
                return Enablement(Workspace::default());
            }
        };
        match settings::parse_manifest(path.clone(), &text.text) {
            Ok(w) => Enablement(w),
            Err(e) => {
                let d = problems::invalid_syntax(&path, "JSON", &e, effect, SourceFormat::Json);
                cx.diag(d.with_severity(playbookdiff_model::Severity::Warning));
                Enablement(Workspace::default())
            }
        }
    }

    /// The source of the overrides that turn `name` off at `launch_dir`,
    /// `None` when it is on: the last rule matching wins.
    fn disabled_by(&self, name: &str, launch_dir: Option<&Path>) -> Option<SourceRef> {
        let dir = launch_dir?;
        let key = [name, "overrides"];
        let rules = self.0.get(&key)?.as_array()?;
        let path = with_slashes(dir);
        let last = rules
            .iter()
            .filter_map(Value::as_str)
            .rfind(|r| Override::parse(r).matches(&path))?;
        last.starts_with('!').then(|| self.0.source(&key)).flatten()
    }
}

/// The launch directory as the rules are matched against it: `/` at
/// both ends (`ensureLeadingAndTrailingSlash`).
fn with_slashes(dir: &Path) -> String {
    let mut s = dir.to_string_lossy().replace('\\', "/");
    if !s.starts_with('/') {
        s.insert(0, '/');
    }
    if !s.ends_with('/') {
        s.push('/');
    }
    s
}

/// One rule of `overrides` (`Override.fromFileRule`).
struct Override {
    /// The rule without `!` and the trailing `*`.
    base: String,
    /// True for a trailing `*`: the folders below match too.
    subdirs: bool,
}

impl Override {
    /// The rule `rule` as written in the file.
    fn parse(rule: &str) -> Override {
        let base = rule.strip_prefix('!').unwrap_or(rule);
        match base.strip_suffix('*') {
            Some(b) => Override {
                base: b.to_string(),
                subdirs: true,
            },
            None => Override {
                base: base.to_string(),
                subdirs: false,
            },
        }
    }

    /// Whether the rule matches `path` (`/` at both ends), as Gemini
    /// CLI's `globToRegex` (`extensionEnablement.ts`, 0.34.0 and 0.61.0)
    /// makes it a regular expression: every character stands for itself
    /// but `*`, which becomes `(.*)?`, and `/*`, which becomes `(/.*)?`,
    /// the whole path matched.
    fn matches(&self, path: &str) -> bool {
        let glob = format!("{}{}", self.base, if self.subdirs { "*" } else { "" });
        glob_match(&tokens(&glob), path)
    }
}

/// One piece of an override's glob.
#[derive(Clone, Copy)]
enum Token {
    /// A character that stands for itself.
    Char(char),
    /// `*`: any text, empty included.
    Any,
    /// `/*`: nothing, or `/` then any text.
    SlashAny,
}

/// The pieces of `glob`.
fn tokens(glob: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                Token::SlashAny
            }
            '*' => Token::Any,
            c => Token::Char(c),
        });
    }
    out
}

/// Whether `tokens` match the whole of `text`.
fn glob_match(tokens: &[Token], text: &str) -> bool {
    let Some((first, rest)) = tokens.split_first() else {
        return text.is_empty();
    };
    match first {
        Token::Char(c) => text.strip_prefix(*c).is_some_and(|t| glob_match(rest, t)),
        Token::Any => suffixes(text).any(|t| glob_match(rest, t)),
        Token::SlashAny => {
            glob_match(rest, text)
                || text
                    .strip_prefix('/')
                    .is_some_and(|t| suffixes(t).any(|u| glob_match(rest, u)))
        }
    }
}

/// Every suffix of `text`, itself first and the empty one last.
fn suffixes(text: &str) -> impl Iterator<Item = &str> {
    text.char_indices().map(|(i, _)| &text[i..]).chain([""])
}

/// Each active extension of `exts` as a loaded plugin with what it gives
/// in `out` (the items in its layer, sorted by kind then name); a
/// disabled one is only reported ([`load`]).
pub(crate) fn plugins(exts: &[Extension], out: &EffectiveAgentConfig) -> Vec<Plugin> {
    exts.iter()
        .filter(|e| e.active())
        .map(|e| {
            let key = e.key();
            let mine = |s: &SourceRef| s.plugin.as_deref() == Some(key.as_str());
            let given = |kind, name: &str, source: &SourceRef| PluginContribution {
                kind,
                name: name.to_string(),
                source: source.clone(),
            };
            let mut contributions: Vec<PluginContribution> = Vec::new();
            for i in out.instructions.iter().filter(|i| mine(&i.source)) {
                let name = i.source.path.file_name().unwrap_or_default();
                contributions.push(given(ContributionKind::ContextFile, name, &i.source));
            }
            for s in out.skills.iter().filter(|s| mine(&s.source)) {
                contributions.push(given(ContributionKind::Skill, &s.name, &s.source));
            }
            for c in out.commands.iter().filter(|c| mine(&c.source)) {
                contributions.push(given(ContributionKind::Command, &c.name, &c.source));
            }
            for m in out.mcp_servers.iter().filter(|m| mine(&m.source)) {
                contributions.push(given(ContributionKind::McpServer, &m.name, &m.source));
            }
            for a in out.subagents.iter().filter(|a| mine(&a.source)) {
                contributions.push(given(ContributionKind::Agent, &a.name, &a.source));
            }
            if let Some(h) = out.hooks.iter().find(|h| mine(&h.source)) {
                let name = format!("{}:hooks", e.name);
                let file = SourceRef {
                    lines: None,
                    ..h.source.clone()
                };
                contributions.push(given(ContributionKind::Hooks, &name, &file));
            }
            contributions.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
            Plugin {
                id: format!("gemini:extension:{}", e.name),
                name: e.name.clone(),
                source: e.source(&[]),
                marketplace: None,
                enabled_by: None,
                load: PluginLoad::Loaded,
                contributions,
            }
        })
        .collect()
}

/// The absolute launch directory of an analysis of the working tree at
/// `root` from `cwd`.
pub(crate) fn launch_dir(root: Option<&Path>, cwd: &RepoPath) -> Option<PathBuf> {
    let root = root?;
    Some(if cwd.is_root() {
        root.to_path_buf()
    } else {
        root.join(cwd.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::{with_slashes, Override};
    use std::path::Path;

    /// The rules as `gemini extensions disable` writes them: `!/*` turns
    /// the extension off everywhere, `!/a/b/` in that folder only,
    /// `!/a/b/*` there and below; a later rule without `!` turns it back
    /// on (the last match wins, checked in `disabled_by`). Each expected
    /// value is what Gemini CLI's `globToRegex` gives, run in Node on the
    /// same rules and folders.
    #[test]
    fn override_rules_match_as_gemini_cli_matches_them() {
        let cases: &[(&str, &str, bool)] = &[
            ("!/*", "/home/u/p", true),
            ("!/home/u/p/", "/home/u/p", true),
            ("!/home/u/p/", "/home/u/p/sub", false),
            ("!/home/u/p/*", "/home/u/p/sub", true),
            ("!/home/u/p/*", "/home/u/p", true),
            ("!/home/u/p/*", "/home/u/pq", false),
            ("/home/u/p.x/", "/home/u/pax", false),
            ("/home/u/p.x/", "/home/u/p.x", true),
            ("!/home/*/p/", "/home/u/p", true),
            ("!/home/*/p/", "/home/p", true),
            ("!/home/*/p/", "/home/u/q", false),
            ("!/x*y/", "/xay", true),
            ("!/x*y/", "/xa/b", false),
        ];
        for &(rule, dir, matched) in cases {
            assert_eq!(
                Override::parse(rule).matches(&with_slashes(Path::new(dir))),
                matched,
                "{rule} at {dir}"
            );
        }
    }
}

//! The user's and the machine's layers, read in local mode: where Claude
//! Code keeps them, how their files are named and read.
//!
//! Sources: the Claude Code documentation (memory: "Managed policy",
//! "User memory"; settings: "Settings files", "Settings precedence"; MCP:
//! "MCP installation scopes"; skills and subagents: "Where skills live",
//! "Subagent scope") and its code, release 2.1.332
//! (`@anthropic-ai/claude-code-linux-x64`, the bundled `claude`): the
//! configuration home is `process.env.CLAUDE_CONFIG_DIR` or `~/.claude`,
//! and the global configuration file `.claude.json` in
//! `process.env.CLAUDE_CONFIG_DIR` or the home
//! (`l(process.env.CLAUDE_CONFIG_DIR||homedir(), ".claude.json")`); the
//! managed directory on Linux is `/etc/claude-code`.

use crate::Compiler;
use playbookdiff_adapter::{problems, READ_LIMIT};
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, Mode, RepoPath, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, SourceError, TextFile};
use std::sync::Arc;

/// The variable that moves Claude Code's configuration home and its
/// `.claude.json` (the agent's code, see the module doc).
pub(crate) const CONFIG_DIR_VAR: &str = "CLAUDE_CONFIG_DIR";

/// Where one machine keeps Claude Code's user and managed configuration.
#[derive(Clone, Copy)]
pub(crate) struct Places<'a> {
    /// The machine, read only.
    pub machine: &'a Machine,
}

impl<'a> Places<'a> {
    /// The places of `machine` in local mode; `None` in repo mode or
    /// without a machine.
    pub(crate) fn of(machine: Option<&'a Machine>, mode: Mode) -> Option<Self> {
        match (machine, mode) {
            (Some(machine), Mode::Local) => Some(Places { machine }),
            _ => None,
        }
    }

    /// The configuration home: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub(crate) fn home(&self) -> Option<RepoPath> {
        self.machine.user_dir(Some(CONFIG_DIR_VAR), ".claude")
    }

    /// `path` (relative, POSIX) in the configuration home.
    pub(crate) fn in_home(&self, rel: &str) -> Option<RepoPath> {
        self.home()?.join(rel)
    }

    /// The global configuration file: `$CLAUDE_CONFIG_DIR/.claude.json`,
    /// else `~/.claude.json`.
    pub(crate) fn global_file(&self) -> Option<RepoPath> {
        match self.machine.var(CONFIG_DIR_VAR) {
            Some(_) => RepoPath::on_machine(&format!("${CONFIG_DIR_VAR}"), ".claude.json"),
            None => RepoPath::on_machine("~", ".claude.json"),
        }
    }

    /// `rel` in the managed directory `/etc/claude-code` (Linux).
    pub(crate) fn managed(&self, rel: &str) -> Option<RepoPath> {
        RepoPath::on_machine("/etc/claude-code", rel)
    }

    /// The machine path of the absolute path `abs` written in a user file
    /// (an `installPath`): in `$CLAUDE_CONFIG_DIR` when set, else in the
    /// home; `None` elsewhere.
    pub(crate) fn named(&self, abs: &str) -> Option<RepoPath> {
        self.machine
            .name_of(Some(CONFIG_DIR_VAR), std::path::Path::new(abs))
    }

    /// The entries of the machine directory `dir`, sorted by name (empty
    /// when it is absent or cannot be listed).
    pub(crate) fn list(&self, dir: &RepoPath) -> Vec<playbookdiff_source::DirEntry> {
        self.machine.list_dir(dir).unwrap_or_default()
    }
}

/// The most directories [`markdown_below`] lists below one root.
const MAX_DIRS: usize = 1_000;

/// The `.md` files below the machine directory `root`, at any depth, in
/// path order; hidden entries are skipped, at most [`MAX_DIRS`]
/// directories are listed (a link loop ends there).
pub(crate) fn markdown_below(places: &Places<'_>, root: &RepoPath) -> Vec<RepoPath> {
    let mut out = Vec::new();
    let mut todo = vec![root.clone()];
    let mut listed = 0;
    while let Some(dir) = todo.pop() {
        listed += 1;
        if listed > MAX_DIRS {
            break;
        }
        for e in places.list(&dir) {
            let Some(p) = dir.child(&e.name).filter(|_| !e.name.starts_with('.')) else {
                continue;
            };
            match e.kind {
                EntryKind::Dir => todo.push(p),
                EntryKind::File if e.name.ends_with(".md") => out.push(p),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// The layer of a machine path: `managed` for a fixed machine directory
/// (`/etc/claude-code`), `user` for the home and `$CLAUDE_CONFIG_DIR`.
pub(crate) fn scope_of(path: &RepoPath) -> SourceScope {
    match path.machine_parts() {
        Some(("/", _)) => SourceScope::Managed,
        _ => SourceScope::User,
    }
}

/// The provenance of the machine file `path`, in its layer.
pub(crate) fn source_ref(path: &RepoPath, format: SourceFormat) -> SourceRef {
    SourceRef {
        scope: scope_of(path),
        ..SourceRef::project(path.clone(), format)
    }
}

/// Gives a diagnostic about a machine file the file's layer.
fn mark(mut d: Diagnostic) -> Diagnostic {
    if let Some(s) = d.source.as_mut() {
        if s.path.is_on_machine() {
            s.scope = scope_of(&s.path);
        }
    }
    d
}

/// In local mode, replaces the notes of repo mode (the user and managed
/// layers are not read) by what is read and from where; when the home is
/// unknown, says that no user file could be read.
pub(crate) fn notes(cx: &mut Compiler<'_, '_>) {
    let Some(places) = cx.user else {
        return;
    };
    cx.diags.retain(|d| {
        !matches!(
            d.code,
            DiagnosticCode::UserConfigUnavailable | DiagnosticCode::ManagedConfigUnavailable
        )
    });
    let home = places
        .home()
        .map_or_else(|| "~/.claude".to_string(), |p| p.to_string());
    let global = places
        .global_file()
        .map_or_else(|| "~/.claude.json".to_string(), |p| p.to_string());
    if let Some(first) = cx.out.assumptions.first_mut() {
        *first = format!(
            "Local mode: CLAUDE.local.md and .claude/settings.local.json in the tree, the user's `{home}` \
             (CLAUDE.md, rules, skills, commands, agents, output-styles, settings.json), `{global}` (user and project MCP servers and \
             approvals), the plugins the user installed and enabled (`{home}/plugins`) and the managed \
             `/etc/claude-code` (CLAUDE.md, managed-settings.json) are read; server-managed settings are not."
        );
    }
    server_managed(cx, &places);
    let var_unset = places.machine.var(CONFIG_DIR_VAR).is_none();
    if !places.machine.has_home() && var_unset {
        cx.diag(Diagnostic::new(
            DiagnosticCode::UserConfigUnavailable,
            "The home directory is not known (HOME is not set and no --home was given), so ~/.claude and \
             ~/.claude.json are not read; pass --home DIR.",
        ));
    }
}

/// Server-managed settings: Claude Code fetches them for an eligible
/// login (a Team or Enterprise organization) and keeps a cache in its
/// configuration home, `remote-settings.json` (2.1.197 and 2.1.332; from
/// 2.1.332 with a signature beside it, `remote-settings.json.signature.json`).
/// Whether the login is eligible and what the server sends are not known
/// offline, and a cache alone was not applied by either release (case
/// `oracle.local_user_layers.home-claude-remote-settings`: its
/// `outputStyle` did not reach the session), so the cache is never read:
/// when it is present, `managed-config-unavailable` says so at the file.
fn server_managed(cx: &mut Compiler<'_, '_>, places: &Places<'_>) {
    let Some(cache) = places.in_home("remote-settings.json") else {
        return;
    };
    if cx.kind_at(&cache).is_none() {
        return;
    }
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ManagedConfigUnavailable,
            format!(
                "`{cache}` caches server-managed settings, which Claude Code applies only for a login its organization \
                 manages; the login and what the server sends are unknown offline, so the analysis does not read \
                 it. Ask the administrator which settings are managed."
            ),
        )
        .at(SourceRef {
            scope: SourceScope::Managed,
            ..source_ref(&cache, SourceFormat::Json)
        }),
    );
}

impl<'a> Compiler<'a, '_> {
    /// The machine local mode reads, when it does.
    pub(crate) fn machine(&self) -> Option<&'a Machine> {
        self.user.map(|p| p.machine)
    }

    /// [`Compiler::expect_file`] of a machine path: true for a regular
    /// file (links followed); a directory or special file there is
    /// reported.
    pub(crate) fn expect_machine_file(&mut self, path: &RepoPath, format: SourceFormat) -> bool {
        let Some(machine) = self.machine() else {
            return false;
        };
        match machine.stat(path).map(|s| s.kind) {
            Ok(EntryKind::File) => true,
            Ok(kind) => {
                let effect = "Claude Code does not load it";
                // A link the stat could not follow loops or leads nowhere.
                let d = match kind {
                    EntryKind::Symlink if machine.is_loop(path) => {
                        problems::link_loop(path, effect, format)
                    }
                    EntryKind::Symlink => problems::link_dangling(path, effect, format),
                    _ => problems::not_a_file(path, kind, false, effect, format),
                };
                self.diag(mark(d));
                false
            }
            Err(_) => false,
        }
    }

    /// [`Compiler::read`] of a machine path, with the adapter's size limit;
    /// a file too large, unreadable or not UTF-8 is reported in its layer.
    pub(crate) fn read_on_machine(
        &mut self,
        path: &RepoPath,
        format: SourceFormat,
    ) -> Option<Arc<TextFile>> {
        let machine = self.machine()?;
        match machine.read_text(path, READ_LIMIT) {
            Ok(t) => {
                if t.invalid_utf8 {
                    self.diag(mark(problems::invalid_utf8(path, format, &t)));
                }
                Some(t)
            }
            Err(SourceError::NotFound(_)) => None,
            Err(e) => {
                let effect = "Claude Code skips it, or reads what the analysis cannot";
                self.diag(mark(problems::read_error(path, &e, effect, format)));
                None
            }
        }
    }
}

/// `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`) as read in
/// local mode, with the key of this project's entry.
pub(crate) struct GlobalConfig {
    /// The file, as provenance names it.
    pub path: RepoPath,
    /// Its document.
    pub doc: crate::json::JsonDoc,
    /// Its provenance, in the user layer.
    pub source: SourceRef,
    /// The key of this project in `projects`: the absolute path of the
    /// top of the git work tree holding the launch directory, else of the
    /// launch directory (the agent's code, 2.1.332: `projects?.[e]` with
    /// `e` the git root, else the resolved cwd). Never printed.
    project: Option<String>,
}

impl GlobalConfig {
    /// `["projects", "<key>"]`, or `["projects"]` when the key is unknown
    /// (which holds no `mcpServers`).
    pub(crate) fn project_prefix(&self) -> Vec<&str> {
        let mut p = vec!["projects"];
        p.extend(self.project.as_deref());
        p
    }

    /// The value at `key` of this project's entry.
    pub(crate) fn project_value(&self, key: &str) -> Option<&serde_json::Value> {
        self.doc
            .value
            .get("projects")?
            .get(self.project.as_deref()?)?
            .get(key)
    }

    /// The strings of the array at `key` of this project's entry.
    pub(crate) fn project_strings(&self, key: &str) -> Vec<String> {
        playbookdiff_adapter::json::strings(self.project_value(key))
    }

    /// The provenance of the value at `path`, with its lines when found.
    pub(crate) fn at(&self, path: &[&str]) -> SourceRef {
        match self.doc.span(path) {
            Some((s, e)) => self.source.clone().with_lines(s, e),
            None => self.source.clone(),
        }
    }
}

/// Reads the global configuration file in local mode; `None` in repo
/// mode, when it is absent, or when it is not valid JSON (reported: Claude
/// Code then starts with none of its servers).
pub(crate) fn global_config(cx: &mut Compiler<'_, '_>) -> Option<GlobalConfig> {
    let path = cx.user?.global_file()?;
    if cx.kind_at(&path).is_none() || !cx.expect_file(&path, SourceFormat::Json) {
        return None;
    }
    let text = cx.read(&path, SourceFormat::Json)?;
    let source = source_ref(&path, SourceFormat::Json);
    let doc = match crate::json::JsonDoc::parse(&text.text) {
        Ok(doc) => doc,
        Err(e) => {
            let d = Diagnostic::new(
                DiagnosticCode::InvalidJson,
                format!(
                    "`{path}` is not valid JSON ({}); Claude Code starts none of the user's or this project's \
                     servers it would hold.",
                    e.message
                ),
            );
            cx.diag(d.at(e.at_line(source)));
            return None;
        }
    };
    Some(GlobalConfig {
        project: project_key(cx),
        path,
        doc,
        source,
    })
}

/// This project's key in `projects` (see [`GlobalConfig`]); also the
/// `projectPath` of a plugin installed for this project only.
pub(crate) fn project_key(cx: &Compiler<'_, '_>) -> Option<String> {
    let root = cx.repo.tree().absolute_root()?;
    let cwd = &cx.context.cwd;
    let dir = if cx.repo.has_git_marker() {
        cx.repo.nearest_git_root(cwd)
    } else {
        cwd.clone()
    };
    let abs = if dir.is_root() {
        root.to_path_buf()
    } else {
        root.join(dir.as_str())
    };
    abs.to_str().map(str::to_string)
}

//! Hooks: the `.github/hooks/*.json` files of the git root (both releases)
//! and, in 1.0.102, the Claude-format `hooks` of the git root's
//! `.claude/settings.json`.
//!
//! The hook file format is read in Copilot CLI 1.0.24's `app.js` (the
//! schema of a hooks file and its event table): `{"version": 1,
//! "disableAllHooks": false, "hooks": {"preToolUse": [{"type": "command",
//! "bash": "...", "powershell": "...", "command": "...", "cwd": "...",
//! "timeoutSec": 30}]}}`; Claude Code's nested `{"matcher": ..., "hooks":
//! [...]}` groups are flattened one level, and Claude Code's PascalCase
//! event names are taken as aliases (`PreToolUse` is `preToolUse`, `Stop`
//! is `agentStop`); 1.0.102 adds two events (`TRIGGERS_1_0_102`, read
//! in its own settings schema). `disableAllHooks: true` turns off the
//! hooks of its own file (changelog 1.0.4). Seen with 1.0.102 and 1.0.24
//! (gemini-copilot reference; case `oracle.hooks_copilot_gemini.in-sub`):
//! the hooks run in the project root, also when Copilot CLI is launched
//! in a subdirectory; 1.0.102 runs them in `-p` mode only in a
//! folder the user trusts (the analysis cannot see that: `runs` is
//! `unknown`), 1.0.24 ran them untrusted. Events of `.claude/settings.json`
//! that Copilot CLI does not have are left out: they are Claude Code's
//! alone. A handler's own `cwd` is not followed: its script is looked up
//! from the git root.
//!
//! Older releases: before 1.0.6 a hooks file holding a Claude Code group
//! is refused whole ([`Profile::hook_groups`]) and `disableAllHooks`
//! turns nothing off ([`Profile::disable_all_hooks`]); the user's
//! `~/.copilot/hooks` runs from 0.0.423 on
//! ([`Profile::user_hooks_folder`]), the hooks of the user's settings
//! file from 1.0.10 on ([`Profile::user_settings_hooks`]). The schema of
//! 0.0.403 also takes fewer events (eight, no PascalCase spellings):
//! not modelled.

use crate::json::{self, JsonFile, Loaded};
use crate::plugins::Plugin;
use crate::trust::FolderTrust;
use crate::{Cx, Profile, HARNESS};
use playbookdiff_adapter::hooks::{self, Events, Layout, Registration, Tokens};
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Hook, HookTrigger, RepoPath, Verdict,
};
use playbookdiff_source::{EntryKind, Machine};
use serde_json::Value;

mod plugin;

/// One event of a release's table: its name and its cross-harness
/// meaning (`None`: no counterpart in another harness).
type Trigger = (&'static str, Option<HookTrigger>);

/// Copilot CLI 1.0.24's events and the Claude Code spellings it takes
/// for them, with their cross-harness meaning: the one table of its
/// events (1.0.24 `app.js`: the hooks schema and the PascalCase alias
/// table).
const TRIGGERS_1_0_24: &[Trigger] = &[
    ("sessionStart", Some(HookTrigger::SessionStart)),
    ("sessionEnd", Some(HookTrigger::SessionEnd)),
    ("userPromptSubmitted", Some(HookTrigger::UserPromptSubmit)),
    ("preToolUse", Some(HookTrigger::PreToolUse)),
    ("postToolUse", Some(HookTrigger::PostToolUse)),
    ("postToolUseFailure", None),
    ("errorOccurred", None),
    ("agentStop", Some(HookTrigger::Stop)),
    ("subagentStop", Some(HookTrigger::SubagentStop)),
    ("subagentStart", Some(HookTrigger::SubagentStart)),
    ("preCompact", Some(HookTrigger::PreCompact)),
    ("permissionRequest", Some(HookTrigger::PermissionRequest)),
    ("notification", Some(HookTrigger::Notification)),
    ("SessionStart", Some(HookTrigger::SessionStart)),
    ("SessionEnd", Some(HookTrigger::SessionEnd)),
    ("UserPromptSubmit", Some(HookTrigger::UserPromptSubmit)),
    ("PreToolUse", Some(HookTrigger::PreToolUse)),
    ("PostToolUse", Some(HookTrigger::PostToolUse)),
    ("PostToolUseFailure", None),
    ("ErrorOccurred", None),
    ("Stop", Some(HookTrigger::Stop)),
    ("SubagentStop", Some(HookTrigger::SubagentStop)),
    ("PreCompact", Some(HookTrigger::PreCompact)),
    ("PermissionRequest", Some(HookTrigger::PermissionRequest)),
    ("Notification", Some(HookTrigger::Notification)),
];

/// The table `base` and the events a later release added, `added`, after
/// it: a release's table as the one before it plus the difference.
const fn joined<const N: usize>(base: &[Trigger], added: &[Trigger]) -> [Trigger; N] {
    assert!(N == base.len() + added.len(), "N is the length of both");
    let mut out: [Trigger; N] = [("", None); N];
    let mut i = 0;
    while i < base.len() {
        out[i] = base[i];
        i += 1;
    }
    while i < N {
        out[i] = added[i - base.len()];
        i += 1;
    }
    out
}

/// `preMcpToolCall` (before an MCP tool runs), with no counterpart in
/// another harness, in both spellings: the event the releases from 1.0.55
/// (the first whose code holds the name) add to 1.0.24's.
const PRE_MCP_TOOL_CALL: &[Trigger] = &[("preMcpToolCall", None), ("PreMcpToolCall", None)];

/// `userPromptTransformed` (after the prompt is put into its model-facing
/// form), with no counterpart in another harness: the event the releases
/// from 1.0.73 add to [`TRIGGERS_PRE_MCP`].
const USER_PROMPT_TRANSFORMED: &[Trigger] = &[("userPromptTransformed", None)];

/// 1.0.24's events and `preMcpToolCall`: the releases from 1.0.55 to
/// 1.0.72.
const TRIGGERS_PRE_MCP: [Trigger; TRIGGERS_1_0_24.len() + PRE_MCP_TOOL_CALL.len()] =
    joined(TRIGGERS_1_0_24, PRE_MCP_TOOL_CALL);

/// Copilot CLI 1.0.102's events: [`TRIGGERS_PRE_MCP`] and
/// `userPromptTransformed`, the fifteen events a hooks file may register.
/// Read in 1.0.102's own files (its runtime unpacks them into
/// `~/.cache/copilot/pkg/linux-x64/1.0.102/`): the settings schema of
/// `prebuilds/linux-x64/runtime.node` lists the file-configurable events
/// as `hooks.<event>` (fifteen: 1.0.24's thirteen and these two), and
/// `schemas/api.schema.json`'s `HookType` adds `postResult` and
/// `prePRDescription` as callback-only (not in a file). The hook parser's
/// PascalCase names there include `PreMcpToolCall` beside `PreToolUse`.
/// `preCompact` stays: the same schema lists `hooks.preCompact`, "Hooks
/// that run before context compaction begins (cannot block it)" (not seen
/// firing: the oracle's runs never compact).
/// The rest of the alias table is compiled code the analysis cannot read
/// as a table; it is taken as 1.0.24's.
const TRIGGERS_1_0_102: [Trigger; TRIGGERS_PRE_MCP.len() + USER_PROMPT_TRANSFORMED.len()] =
    joined(&TRIGGERS_PRE_MCP, USER_PROMPT_TRANSFORMED);

/// The tool events of Copilot CLI, in both spellings, whose matchers
/// 1.0.24 ignores: its hooks file schema gives `preToolUse`,
/// `postToolUse` and `postToolUseFailure` entries no `matcher` (only
/// `subagentStart`, `preCompact`, `permissionRequest` and `notification`
/// take one, 1.0.24 `app.js`), and a matcher written there, directly or
/// on a Claude Code group, filters nothing. Seen with 1.0.24 (case
/// `copilot.hook_matchers.read-src-a.txt`): a scripted `view` call fired
/// the `preToolUse` hooks whose matcher is `bash` too. 1.0.102 honours
/// them: the same call fired only the hooks matching `view` (or `Read`,
/// Claude Code's name for it) and those without a matcher.
const TOOL_EVENTS: &[&str] = &[
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
];

/// The events of a release whose table is `triggers` and that ignores the
/// matchers of `matcherless`. Which tool names a matcher may name is not
/// checked (no table of Copilot CLI's tool names is kept).
const fn events(triggers: &'static [Trigger], matcherless: &'static [&'static str]) -> Events {
    Events {
        known: &[],
        tool_events: &[],
        matcherless,
        cannot_block: &[],
        tools: &[],
        triggers,
    }
}

/// The events of Copilot CLI 1.0.24 ([`TRIGGERS_1_0_24`]); it ignores the
/// matchers of its tool events ([`TOOL_EVENTS`]).
pub(crate) const EVENTS_1_0_24: Events = events(TRIGGERS_1_0_24, TOOL_EVENTS);

/// The events of Copilot CLI 1.0.102 ([`TRIGGERS_1_0_102`]).
pub(crate) const EVENTS_1_0_102: Events = events(&TRIGGERS_1_0_102, &[]);

/// A table of hook events some releases of the window have
/// ([`crate::profile::Profile::hook_events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    /// [`TRIGGERS_1_0_24`].
    Of1_0_24,
    /// [`TRIGGERS_1_0_24`] and `preMcpToolCall` ([`TRIGGERS_PRE_MCP`]).
    PreMcpToolCall,
    /// [`TRIGGERS_1_0_102`].
    Of1_0_102,
}

/// Each [`Table`] with the tool events' matchers ignored, then honoured.
const BY_TABLE: [[Events; 2]; 3] = [
    [EVENTS_1_0_24, events(TRIGGERS_1_0_24, &[])],
    [
        events(&TRIGGERS_PRE_MCP, TOOL_EVENTS),
        events(&TRIGGERS_PRE_MCP, &[]),
    ],
    [events(&TRIGGERS_1_0_102, TOOL_EVENTS), EVENTS_1_0_102],
];

/// The events of a release whose event table is `table`; the tool
/// events' matchers honoured when `matchers`.
pub(crate) fn events_of(table: Table, matchers: bool) -> &'static Events {
    &BY_TABLE[table as usize][usize::from(matchers)]
}

/// The variable a hook command may use for the project directory
/// (changelog 1.0.12: hooks receive `CLAUDE_PROJECT_DIR`).
const PROJECT_TOKENS: &[&str] = &["CLAUDE_PROJECT_DIR"];

/// The variable a plugin's hook command may use for the plugin's folder
/// (1.0.24 `app.js`, the plugin hook loader: `CLAUDE_PLUGIN_ROOT` and
/// `PLUGIN_ROOT` are both set to it).
const PLUGIN_ROOT_TOKEN: &str = "CLAUDE_PLUGIN_ROOT";

/// Why a hook's `runs` is unknown in a release that asks for trust.
const TRUST_REASON: &str = "Copilot CLI runs repository hooks only in a folder the user trusts (`trusted_folders` in `~/.copilot/config.json`, or the trust prompt), which the repository cannot show";

/// The hooks of the git root's `.github/hooks/*.json` and, when the
/// release reads them, of its `.claude/settings.json`.
///
/// Read once per git root and release on one `Repo`: every launch
/// directory below one git root runs the same hooks.
///
/// In local mode (`machine` given) the user's hooks come first: the files
/// of `~/.copilot/hooks/*.json` and the `hooks` of the user's settings
/// ([`user`]).
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    version: &str,
    machine: Option<&Machine>,
    trust: &FolderTrust,
) -> Vec<Hook> {
    /// The memo key: the git root, the release as requested (its name
    /// is in the messages) and the folder's trust.
    #[derive(Hash, PartialEq, Eq)]
    struct HooksOf(RepoPath, String, FolderTrust);
    let root = crate::git_root(cx);
    let mut out = match machine {
        Some(m) => {
            let mut out = user(cx, profile, version, m, &root);
            out.extend(plugin::compile(cx, profile, version, m));
            out
        }
        None => Vec::new(),
    };
    let key = HooksOf(root.clone(), version.to_string(), trust.clone());
    out.extend(cx.memo_read(key, |cx| of_root(cx, profile, version, root, trust)));
    out
}

/// The user's hooks on `machine`, read before the repository's (1.0.24
/// `app.js`, `loadAllHooks` and `loadHooks`: the directory
/// `~/.copilot/hooks` (`Da(void 0, "config")/hooks`), its `*.json` files
/// in name order, then the `hooks` of the user's settings
/// ([`Profile::user_settings`]), whose `disableAllHooks` turns those off;
/// the repository's hooks are merged after them). They load when the
/// session is created, before the repository's, which wait for the
/// folder's trust, so they run without it (`runs: yes`). Seen with 1.0.24
/// and 1.0.102 (case `oracle.hooks_copilot_gemini.home-copilot-hooks`):
/// the hooks of the directory's files and of the release's settings file
/// ran, those of a file with `disableAllHooks: true` did not. The
/// commands run in the git root `root`.
fn user(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    version: &str,
    machine: &Machine,
    root: &RepoPath,
) -> Vec<Hook> {
    let release = Release {
        profile,
        name: format!("Copilot CLI {version}"),
        root: root.clone(),
        trust: FolderTrust::Assumed,
        plugin: None,
    };
    let effect = "Copilot CLI runs none of its hooks";
    let mut out = Vec::new();
    let folder = if profile.user_hooks_folder {
        user_files(machine)
    } else {
        Vec::new()
    };
    for f in folder {
        if let Loaded::File(j) = json::load_user(machine, &f, effect, &mut cx.diags) {
            out.extend(release.read(cx, &j, Origin::User));
        }
    }
    let config =
        RepoPath::on_machine("~", profile.user_settings).filter(|_| profile.user_settings_hooks);
    let effect = "Copilot CLI runs none of the hooks it registers";
    // `config.json` is reported once, where its trust is read.
    let mut reported = Vec::new();
    let diags = if profile.user_settings == crate::trust::CONFIG {
        &mut reported
    } else {
        &mut cx.diags
    };
    if let Some(f) = config {
        if let Loaded::File(j) = json::load_user(machine, &f, effect, diags) {
            out.extend(release.read(cx, &j, Origin::User));
        }
    }
    out
}

/// The `*.json` files of the user's `~/.copilot/hooks` on `machine`, in
/// name order.
fn user_files(machine: &Machine) -> Vec<RepoPath> {
    let Some(dir) = RepoPath::on_machine("~", ".copilot/hooks") else {
        return Vec::new();
    };
    let Ok(entries) = machine.list_dir(&dir) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| e.kind == EntryKind::File && e.name.ends_with(".json"))
        .filter_map(|e| dir.child(&e.name))
        .collect()
}

/// The hooks of git root `root` (see [`compile`]).
fn of_root(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    version: &str,
    root: RepoPath,
    trust: &FolderTrust,
) -> Vec<Hook> {
    let release = Release {
        profile,
        name: format!("Copilot CLI {version}"),
        root,
        trust: trust.clone(),
        plugin: None,
    };
    let effect = "Copilot CLI runs none of its hooks";
    let mut out = Vec::new();
    for f in crate::extras::files(cx, ".github/hooks", ".json") {
        if let Loaded::File(j) = json::load(cx, &f, effect) {
            out.extend(release.read(cx, &j, Origin::Own));
        }
    }
    let claude = release
        .root
        .join(".claude/settings.json")
        .filter(|f| cx.repo.is_file(f));
    if let (true, Some(f)) = (profile.claude_hooks, claude) {
        if let Loaded::File(j) = json::load(cx, &f, effect) {
            out.extend(release.read(cx, &j, Origin::ClaudeSettings));
        }
    }
    // A matcher the release ignores (reported by the toolkit) filters
    // nothing: the hook fires for every tool.
    for h in &mut out {
        if profile
            .hook_events()
            .matcherless
            .contains(&h.event.as_str())
        {
            h.matcher = None;
        }
    }
    let unknown = out.iter().filter(|h| h.runs.as_str() == "unknown").count();
    if unknown > 0 {
        cx.diag(Diagnostic::new(
            DiagnosticCode::HookTrustUnknown,
            format!(
                "{TRUST_REASON}; so {} listed here may run (`runs: unknown`).",
                if unknown == 1 {
                    "the hook".to_string()
                } else {
                    format!("the {unknown} hooks")
                }
            ),
        ));
    }
    out
}

/// Which file registers the hooks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A `.github/hooks/*.json` file, Copilot CLI's own.
    Own,
    /// Claude Code's `.claude/settings.json` (1.0.102).
    ClaudeSettings,
    /// A file of the user's (`~/.copilot/hooks/*.json`,
    /// the user's settings file), read in local mode.
    User,
    /// The hooks file or manifest of an installed plugin
    /// ([`Release::plugin`]), read in local mode.
    Plugin,
}

/// The release whose hooks are read: its behaviour, its name in messages
/// (`Copilot CLI 1.0.102`) and the git root hooks run in.
struct Release<'p> {
    profile: &'p Profile,
    name: String,
    root: RepoPath,
    /// The folder's trust, which decides whether the repository's hooks
    /// run where the release asks for it.
    trust: FolderTrust,
    /// The installed plugin whose hooks these are: their provenance names
    /// it, and `CLAUDE_PLUGIN_ROOT` is its folder.
    plugin: Option<&'p Plugin>,
}

impl Release<'_> {
    /// The hooks of one file.
    fn read(&self, cx: &mut Cx<'_, '_>, j: &JsonFile, origin: Origin) -> Vec<Hook> {
        let Some(value) = j.value.get("hooks") else {
            return Vec::new();
        };
        let value = match origin {
            Origin::Own | Origin::User | Origin::Plugin => value.clone(),
            Origin::ClaudeSettings => copilot_events_only(value, self.profile.hook_events()),
        };
        let source = match self.plugin {
            Some(p) => j.source(&[]).in_plugin(&p.key),
            None => j.source(&[]),
        };
        let lines = |p: &[&str]| j.span(p);
        let reason = match origin {
        Origin::Own => format!(
            "Registered in `{}`, which Copilot CLI reads from the git root; it runs the command in the project root, also when launched in a subdirectory.",
            j.path
        ),
        Origin::ClaudeSettings => format!(
            "Registered in `{}` in Claude Code's format, which Copilot CLI 1.0.102 runs too, in the project root{}.",
            j.path,
            crate::shared_note(&j.path)
        ),
        Origin::User => format!(
            "Registered in the user's `{}`, which Copilot CLI reads before the repository's hooks, without asking for the folder's trust; it runs the command in the project root.",
            j.path
        ),
        Origin::Plugin => format!(
            "Registered in `{}` of the installed plugin `{}`, whose hooks Copilot CLI loads with the user's, without asking for the folder's trust (seen with 1.0.24 and 1.0.102 in an untrusted folder); it runs the command in the plugin's folder.",
            j.path,
            self.plugin.map(|p| p.key.as_str()).unwrap_or_default()
        ),
    };
        let reg = Registration {
            harness: HARNESS,
            release: &self.name,
            source: &source,
            prefix: &["hooks"],
            lines: &lines,
            events: self.profile.hook_events(),
            tokens: Tokens {
                project: PROJECT_TOKENS,
                plugin: self.plugin.map(|p| (PLUGIN_ROOT_TOKEN, &p.root)),
            },
            cwd: &self.root,
            layout: Layout::GroupsOrHandlers,
            runs: runs(j, self.profile, origin, &self.trust),
            applicability: Applicability::Effective,
            reason: &reason,
        };
        hooks::read(cx, &reg, &value)
    }
}

/// Whether the hooks of `j` run: not when the file sets `disableAllHooks:
/// true`; else, for a repository file where the release asks for trust,
/// as `trust` says (unknown when assumed); else yes.
fn runs(j: &JsonFile, profile: &Profile, origin: Origin, trust: &FolderTrust) -> Verdict {
    if profile.disable_all_hooks && j.value.get("disableAllHooks") == Some(&Value::Bool(true)) {
        return Verdict::No {
            reason: format!(
                "`disableAllHooks: true` in `{}` turns its hooks off",
                j.path
            ),
            source: Some(j.source(&["disableAllHooks"])),
        };
    }
    if !profile.hook_groups {
        if let Some(at) = first_group(j) {
            return Verdict::No {
                reason: format!("`{}` holds a group of handlers (`matcher` and `hooks`), which this release's hooks file schema refuses (each entry must be a handler, `type: \"command\"`; groups are taken from {}), so it runs none of the file's hooks", j.path, crate::profile::since(crate::profile::Fact::HookGroups)),
                source: Some(j.source(&["hooks", at.0.as_str(), &at.1.to_string()])),
            };
        }
    }
    if !profile.trust_gates_hooks_and_mcp || matches!(origin, Origin::User | Origin::Plugin) {
        return Verdict::Yes;
    }
    match trust {
        FolderTrust::Assumed => Verdict::Unknown {
            reason: TRUST_REASON.to_string(),
        },
        FolderTrust::Trusted(_) => Verdict::Yes,
        FolderTrust::NotTrusted(_) => Verdict::No {
            reason: trust.not_trusted_reason().unwrap_or_default(),
            source: trust.source(),
        },
    }
}

/// The event and index of the first entry of `j`'s `hooks` that is a
/// group of handlers (it has `hooks`), not a handler.
fn first_group(j: &JsonFile) -> Option<(String, usize)> {
    let events = j.value.get("hooks")?.as_object()?;
    events.iter().find_map(|(event, entries)| {
        let i = entries
            .as_array()?
            .iter()
            .position(|e| e.get("hooks").is_some())?;
        Some((event.clone(), i))
    })
}

/// The events of a Claude Code `hooks` object that the release (its
/// `events`) has.
fn copilot_events_only(hooks: &Value, events: &Events) -> Value {
    match hooks.as_object() {
        Some(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| events.is_known(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        None => hooks.clone(),
    }
}

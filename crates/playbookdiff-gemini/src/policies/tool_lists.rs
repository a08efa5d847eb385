//! The settings' tool lists: `tools.exclude`, `tools.allowed` and
//! `tools.core`.
//!
//! Gemini CLI (0.34.0 `dist/src/config/config.js` `loadCliConfig` and
//! `packages/core/src/policy/config.ts` `createPolicyEngineConfig`; the
//! same in 0.61.0's bundle) turns each merged `tools.exclude` entry into
//! a `deny` rule of priority 4.4 (`EXCLUDE_TOOLS_FLAG_PRIORITY`, the user
//! tier at 400), and also passes the list to the tool registry as
//! `excludeTools` (`Config.getExcludeTools`), which withholds each tool
//! it names whatever the policies say (so the analysis ranks such a rule
//! above every other); each `tools.allowed` entry into an `allow` rule of
//! priority 4.3 (`ALLOWED_TOOLS_FLAG_PRIORITY`): `run_shell_command(git)`
//! allows the shell commands starting `git`, `NAME(args)` of another tool
//! allows the tool whatever its arguments, and `ShellTool` stands for
//! `run_shell_command`. `tools.exclude` is merged by union across the
//! settings files (`MergeStrategy.UNION` in `settingsSchema`);
//! `tools.allowed` and `tools.core` have no merge strategy, so the file
//! of highest precedence replaces the others' lists. `tools.core`, when
//! set, is an allow-list of the built-in tools: `createToolRegistry`
//! registers a built-in tool only when an entry is its name or class name,
//! or starts with either followed by `(`; the others are never offered to
//! the model. From the release of [`Profile::core_tools_policy`] on,
//! `tools.core` also adds policy rules: an `allow` per entry (priority
//! 4.25, shell arguments a command prefix as in `tools.allowed`) above a
//! `*` deny (4.24) that withholds every other tool. From the release of
//! [`Profile::confirmation_required`] on, each `tools.confirmationRequired`
//! entry (merged by replacement too) is an `ask_user` rule of priority
//! 4.35, `ShellTool` standing for `run_shell_command` and an entry with
//! arguments naming no tool; from the release of
//! [`Profile::shell_allow_narrowing`] on, a `tools.allowed` entry with a
//! shell command adds a deny of `run_shell_command` at 4.29 under its
//! allow. The rules are added in that order after the policy files'
//! (`tools.exclude`, `tools.allowed` and its narrowing deny,
//! `tools.confirmationRequired`, `tools.core`), which decides a tie.

use super::{Decision, Rule, Tier};
use crate::settings::{Settings, Workspace};
use crate::Profile;
use playbookdiff_model::{PermissionEffect, PermissionSetting, SourceRef, Verdict};

/// A settings list that adds rules to the policy engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ToolList {
    /// `tools.exclude`: `deny` at priority 400 of the user tier, and a
    /// tool withheld from the model whatever the policies say.
    Exclude,
    /// `tools.allowed`: `allow` at priority 300 of the user tier.
    Allowed,
    /// The deny of `run_shell_command` under a `tools.allowed` entry with
    /// a shell command, a release of [`Profile::shell_allow_narrowing`]:
    /// priority 290 of the user tier.
    Narrowing,
    /// `tools.confirmationRequired`, a release of
    /// [`Profile::confirmation_required`]: `ask_user` at priority 350 of
    /// the user tier.
    ConfirmationRequired,
    /// `tools.core`, a release of [`Profile::core_tools_policy`]: `allow`
    /// at priority 250 of the user tier (a `*` deny at 240 under it).
    Core,
    /// The `*` deny under `tools.core`: priority 240 of the user tier.
    CoreDeny,
}

impl ToolList {
    /// The settings key, as written.
    pub(super) fn key(self) -> &'static str {
        match self {
            ToolList::Exclude => "tools.exclude",
            ToolList::Allowed | ToolList::Narrowing => "tools.allowed",
            ToolList::ConfirmationRequired => "tools.confirmationRequired",
            ToolList::Core | ToolList::CoreDeny => "tools.core",
        }
    }

    fn path(self) -> [&'static str; 2] {
        ["tools", self.key().trim_start_matches("tools.")]
    }

    fn decision(self) -> Decision {
        match self {
            ToolList::Exclude | ToolList::Narrowing | ToolList::CoreDeny => Decision::Deny,
            ToolList::Allowed | ToolList::Core => Decision::Allow,
            ToolList::ConfirmationRequired => Decision::AskUser,
        }
    }

    /// The rule's priority in the user tier, in thousandths (the settings'
    /// `USER_POLICY_TIER + 0.4` and so on; a deny "0.01 under" a list is
    /// 10 thousandths under it).
    pub(super) fn priority(self) -> u32 {
        match self {
            ToolList::Exclude => 400,
            ToolList::ConfirmationRequired => 350,
            ToolList::Allowed => 300,
            ToolList::Narrowing => 290,
            ToolList::Core => 250,
            ToolList::CoreDeny => 240,
        }
    }
}

/// The built-in tools both profiled releases register unconditionally
/// (`createToolRegistry`), each with its class name: the tools
/// `tools.core` can withhold. `grep_search` is `RipGrepTool` or
/// `GrepTool`.
const BUILT_IN: &[(&str, &[&str])] = &[
    ("list_directory", &["LSTool"]),
    ("read_file", &["ReadFileTool"]),
    ("grep_search", &["RipGrepTool", "GrepTool"]),
    ("glob", &["GlobTool"]),
    ("activate_skill", &["ActivateSkillTool"]),
    ("replace", &["EditTool"]),
    ("write_file", &["WriteFileTool"]),
    ("web_fetch", &["WebFetchTool"]),
    ("run_shell_command", &["ShellTool"]),
    ("google_web_search", &["WebSearchTool"]),
    ("ask_user", &["AskUserTool"]),
];

/// The built-in tools of 0.61.0 beyond [`BUILT_IN`] (some registered only
/// under a setting), which a release of [`Profile::core_tools_policy`]
/// withholds when `tools.core` does not name them (its `*` deny).
const LATER_BUILT_IN: &[(&str, &[&str])] = &[
    ("invoke_agent", &["AgentTool"]),
    ("update_topic", &["UpdateTopicTool"]),
    ("enter_plan_mode", &["EnterPlanModeTool"]),
    ("exit_plan_mode", &["ExitPlanModeTool"]),
    ("write_todos", &["WriteTodosTool"]),
];

/// The rules of `tools.exclude` (every file: merged by union), of
/// `tools.allowed` and, for a release of [`Profile::core_tools_policy`],
/// of `tools.core` (every file, those of a file the winner replaces marked
/// so, with the `*` deny under the winner's `tools.core`), in the order
/// of the files' precedence, lowest first.
pub(super) fn rules(all: &Settings, profile: &Profile) -> Vec<Rule> {
    let mut lists = vec![ToolList::Exclude, ToolList::Allowed];
    if profile.confirmation_required {
        lists.push(ToolList::ConfirmationRequired);
    }
    if profile.core_tools_policy {
        lists.push(ToolList::Core);
    }
    let mut out = Vec::new();
    for list in lists {
        let winner = (list != ToolList::Exclude)
            .then(|| winner(all, list))
            .flatten();
        let mut kept = Vec::new();
        for file in all.by_precedence().into_iter().rev() {
            let replaced = winner
                .as_ref()
                .filter(|w| Some(&w.path) != file.path.as_ref());
            let rules = list_rules(file, list, replaced);
            if replaced.is_none() {
                kept.extend(rules.iter().filter(|r| r.prefix.is_some()).cloned());
            }
            out.extend(rules);
        }
        match (list, &winner) {
            (ToolList::Allowed, Some(w)) if profile.shell_allow_narrowing && !kept.is_empty() => {
                out.push(deny(ToolList::Narrowing, w, "run_shell_command"));
            }
            (ToolList::Core, Some(w)) => {
                // The tools the `*` deny refuses by name come first: they
                // are that rule's effect, not rules it outranks.
                let refused = refused(all).into_iter();
                out.extend(refused.map(|t| deny(ToolList::CoreDeny, w, t)));
                out.push(deny(ToolList::CoreDeny, w, "*"));
            }
            _ => {}
        }
    }
    out
}

/// The file of highest precedence that sets `list` (its lines).
fn winner(all: &Settings, list: ToolList) -> Option<SourceRef> {
    all.by_precedence()
        .into_iter()
        .find(|f| f.get(&list.path()).is_some())
        .and_then(|f| f.source(&list.path()))
}

/// The deny `list` adds under the list of `source` ([`ToolList::Narrowing`]
/// or [`ToolList::CoreDeny`]), for `tool` (`run_shell_command`, `*`, or
/// one built-in tool `tools.core` refuses by name).
fn deny(list: ToolList, source: &SourceRef, tool: &str) -> Rule {
    Rule {
        tool: tool.into(),
        condition: None,
        prefix: None,
        decision: list.decision(),
        priority: list.priority(),
        tier: Tier::User,
        modes: Vec::new(),
        interactive: None,
        number: 0,
        source: source.clone(),
        dropped: None,
        list: Some(list),
        replaced_by: None,
    }
}

/// The rules of `list` in `file`, replaced by `replaced_by` when given.
fn list_rules(file: &Workspace, list: ToolList, replaced_by: Option<&SourceRef>) -> Vec<Rule> {
    let Some(source) = file.source(&list.path()) else {
        return Vec::new();
    };
    let entries = playbookdiff_adapter::json::strings(file.get(&list.path()));
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.is_empty())
        .map(|(i, entry)| {
            let (tool, prefix) = match list {
                ToolList::Allowed | ToolList::Core => allowed_entry(entry),
                ToolList::ConfirmationRequired => (shell_alias(entry), None),
                _ => (entry.clone(), None),
            };
            let dropped = if list == ToolList::ConfirmationRequired && tool.contains('(') {
                Some(NO_ARGUMENTS)
            } else {
                (list != ToolList::Exclude && class_name(&tool)).then_some(CLASS_NAME)
            };
            Rule {
                condition: prefix.as_ref().map(|p| format!("commandPrefix {p:?}")),
                prefix,
                tool,
                decision: list.decision(),
                priority: list.priority(),
                tier: Tier::User,
                modes: Vec::new(),
                interactive: None,
                number: i + 1,
                source: source.clone(),
                dropped,
                list: Some(list),
                replaced_by: replaced_by.cloned(),
            }
        })
        .collect()
}

/// Why a `tools.confirmationRequired` entry with arguments decides
/// nothing.
const NO_ARGUMENTS: &str = "Gemini CLI takes each `tools.confirmationRequired` entry as a tool name (arguments are not parsed), so this entry names no tool and the rule decides no call.";

/// Why a rule of a tool's class name decides nothing.
const CLASS_NAME: &str = "It names a tool's class, not the tool: the policy engine matches tool names (`ShellTool` apart), so the rule decides no call.";

/// Whether `tool` is the class name of a built-in tool (`ShellTool`
/// apart, which [`allowed_entry`] maps to `run_shell_command`).
fn class_name(tool: &str) -> bool {
    BUILT_IN
        .iter()
        .chain(LATER_BUILT_IN)
        .any(|(_, classes)| classes.contains(&tool))
}

/// The tool and shell command prefix of a `tools.allowed` entry:
/// `NAME(args)` (NAME of letters, digits, `_` and `-`) names the tool,
/// its arguments a command prefix for the shell only; `ShellTool` is
/// `run_shell_command`.
fn allowed_entry(entry: &str) -> (String, Option<String>) {
    let shell = shell_alias;
    let called = entry.strip_suffix(')').and_then(|e| e.split_once('('));
    match called {
        Some((name, args))
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            let tool = shell(name);
            let prefix = (tool == "run_shell_command").then(|| args.to_string());
            (tool, prefix)
        }
        _ => (shell(entry), None),
    }
}

/// `tool`, `ShellTool` (an alias of the shell tool, `SHELL_TOOL_NAMES`)
/// written `run_shell_command`.
fn shell_alias(tool: &str) -> String {
    if tool == "ShellTool" {
        "run_shell_command".to_string()
    } else {
        tool.to_string()
    }
}

/// The merged `tools.core`: its entries and its file (the winner by
/// precedence), when set.
fn core_list(all: &Settings) -> Option<(Vec<String>, SourceRef)> {
    let key = ToolList::Core.path();
    let file = all
        .by_precedence()
        .into_iter()
        .find(|f| f.get(&key).is_some())?;
    let source = file.source(&key)?;
    Some((playbookdiff_adapter::json::strings(file.get(&key)), source))
}

/// The built-in tools the merged `tools.core` registers (by
/// name or class name) but allows by no entry's tool name, so that the
/// `*` deny of a release of [`Profile::core_tools_policy`] refuses them.
fn refused(all: &Settings) -> Vec<&'static str> {
    let Some((named, _)) = core_list(all) else {
        return Vec::new();
    };
    BUILT_IN
        .iter()
        .chain(LATER_BUILT_IN)
        .filter(|(name, classes)| named.iter().any(|e| names(e, name, classes)))
        .filter(|(name, _)| !named.iter().any(|e| allowed_entry(e).0 == *name))
        .map(|(name, _)| *name)
        .collect()
}

/// The built-in tools the merged `tools.core` does not register (named
/// by no entry, nor by its class name), each a `deny` setting of the file
/// that sets it, honoured whatever the policies say.
pub(super) fn core(all: &Settings, profile: &Profile) -> Vec<PermissionSetting> {
    let Some((named, source)) = core_list(all) else {
        return Vec::new();
    };
    let later = if profile.core_tools_policy {
        LATER_BUILT_IN
    } else {
        &[]
    };
    BUILT_IN
        .iter()
        .chain(later)
        .filter(|(name, classes)| !named.iter().any(|e| names(e, name, classes)))
        .map(|(name, _)| PermissionSetting {
            id: format!(
                "{}:permission:{}:tools.core:{name}",
                crate::HARNESS.as_str(),
                source.path
            ),
            key: "tools.core".into(),
            effect: PermissionEffect::Deny,
            source: source.clone(),
            honoured: Verdict::Yes,
            denies: super::denies(name, None, None),
            value: name.to_string(),
        })
        .collect()
}

/// Whether the `tools.core` entry `entry` registers the built-in tool
/// `name` (class names `classes`).
fn names(entry: &str, name: &str, classes: &[&str]) -> bool {
    std::iter::once(name)
        .chain(classes.iter().copied())
        .any(|n| entry == n || entry.strip_prefix(n).is_some_and(|r| r.starts_with('(')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowed_entry_with_arguments_is_a_command_prefix_for_the_shell_only() {
        let cases = [
            ("run_shell_command(git)", ("run_shell_command", Some("git"))),
            (
                "ShellTool(npm test)",
                ("run_shell_command", Some("npm test")),
            ),
            ("ShellTool", ("run_shell_command", None)),
            ("read_file(a.txt)", ("read_file", None)),
            ("glob", ("glob", None)),
            ("bad name(x)", ("bad name(x)", None)),
        ];
        for (entry, (tool, prefix)) in cases {
            let (t, p) = allowed_entry(entry);
            assert_eq!((t.as_str(), p.as_deref()), (tool, prefix), "{entry}");
        }
    }

    /// Settings whose user file holds `text`.
    fn user_settings(text: &str) -> Settings {
        let path = playbookdiff_model::RepoPath::on_machine("~", ".gemini/settings.json").unwrap();
        Settings {
            user: crate::settings::parse_manifest(path, text).unwrap(),
            ..Settings::default()
        }
    }

    /// The rules of `text` (a user settings file) for `release`, as
    /// (list, tool, decision, priority).
    fn listed(text: &str, release: &str) -> Vec<(ToolList, String, Decision, u32)> {
        rules(&user_settings(text), &crate::profile::of(release))
            .into_iter()
            .filter(|r| r.dropped.is_none())
            .map(|r| (r.list.unwrap(), r.tool, r.decision, r.priority))
            .collect()
    }

    #[test]
    fn a_shell_command_allowed_denies_the_other_commands() {
        let text = r#"{"tools": {"allowed": ["run_shell_command(git status)", "glob"]}}"#;
        let narrowing = (
            ToolList::Narrowing,
            "run_shell_command".to_string(),
            Decision::Deny,
            290,
        );
        assert!(listed(text, "0.61.0").contains(&narrowing));
        assert!(!listed(text, "0.34.0")
            .iter()
            .any(|r| r.0 == ToolList::Narrowing));
        let plain = r#"{"tools": {"allowed": ["run_shell_command", "glob"]}}"#;
        assert!(!listed(plain, "0.61.0")
            .iter()
            .any(|r| r.0 == ToolList::Narrowing));
        // The shell tool stays offered: its conditional allow outranks the deny.
        let all = rules(&user_settings(text), &crate::profile::of("0.61.0"));
        let at = all
            .iter()
            .position(|r| r.list == Some(ToolList::Narrowing))
            .unwrap();
        assert!(matches!(
            super::super::honoured(&all[at], at, &all),
            playbookdiff_model::Verdict::Unknown { .. }
        ));
    }

    #[test]
    fn confirmation_required_asks_from_its_release() {
        let text = r#"{"tools": {"confirmationRequired": ["replace", "ShellTool", "run_shell_command(git)"]}}"#;
        let asks: Vec<String> = listed(text, "0.61.0")
            .into_iter()
            .filter(|r| {
                r.0 == ToolList::ConfirmationRequired && r.2 == Decision::AskUser && r.3 == 350
            })
            .map(|r| r.1)
            .collect();
        assert_eq!(asks, ["replace", "run_shell_command"]);
        assert!(listed(text, "0.34.0").is_empty());
    }

    #[test]
    fn the_core_deny_is_ten_thousandths_under_the_core_allows() {
        let text = r#"{"tools": {"core": ["read_file"]}}"#;
        let star = listed(text, "0.61.0")
            .into_iter()
            .find(|r| r.1 == "*")
            .unwrap();
        assert_eq!(
            (star.0, star.2, star.3),
            (ToolList::CoreDeny, Decision::Deny, 240)
        );
    }

    #[test]
    fn a_core_entry_keeps_a_tool_by_name_class_or_call() {
        assert!(names(
            "run_shell_command(git)",
            "run_shell_command",
            &["ShellTool"]
        ));
        assert!(names("ShellTool", "run_shell_command", &["ShellTool"]));
        assert!(names(
            "GrepTool",
            "grep_search",
            &["RipGrepTool", "GrepTool"]
        ));
        assert!(!names(
            "run_shell_command_x",
            "run_shell_command",
            &["ShellTool"]
        ));
        assert!(!names("read", "read_file", &["ReadFileTool"]));
    }
}

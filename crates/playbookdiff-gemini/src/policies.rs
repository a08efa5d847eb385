//! Policies: the policy engine's rules, and the tools the user's
//! extensions exclude, read in local mode.
//!
//! Gemini CLI (`packages/core/src/policy/config.ts` and `toml-loader.ts`,
//! `createPolicyEngineConfig` and `loadPoliciesFromToml`; the same in
//! 0.34.0 and 0.61.0) reads the `.toml` files (regular files only, links
//! not followed) of the system's `/etc/gemini-cli/policies` (tier
//! `admin`, 5), the user's `~/.gemini/policies` (tier `user`, 4) and each
//! active extension's `policies/` (tier `extension`, 2; its `allow` rules
//! and its rules for `yolo` mode dropped, `loadExtensionPolicies`). Each
//! `[[rule]]` gets the priority `tier + priority / 1000`; a file that is
//! not TOML or fails the schema (`toolName`, `decision` one of `allow`,
//! `deny`, `ask_user`, an integer `priority` from 0 to 999) is skipped
//! whole, and Gemini CLI starts. The workspace's `.gemini/policies`
//! (tier 3) is never read: `disableWorkspacePolicies` is `true` and
//! nothing clears it in either release.
//!
//! From 0.36.0 the settings' `policyPaths` replace the user's folder and
//! `adminPolicyPaths` add files of the admin tier (module `paths`).
//!
//! A tool call takes the decision of the highest-priority rule that
//! matches it; of rules of equal priority, the one loaded first (the
//! system's folder, then the user's, files by name, rules in file order,
//! then the settings' lists, then the extensions'; [`outranks`]). Before any call, a tool whose highest-priority rule
//! without a pattern (`argsPattern`, `commandPrefix`, `commandRegex`)
//! is a `deny` is withheld from the model (`PolicyEngine.getExcludedTools`),
//! and so is every tool an active extension's `excludeTools` names
//! (`Config.getExcludeTools`). Seen with 0.34.0 and 0.61.0 on case
//! `oracle.local_gemini_policies.home-gemini-policies` and, with the
//! system's policies (an admin deny withholding a tool the user allows,
//! an admin allow offering one the user denies), on
//! `oracle.local_gemini_policies.home-gemini-policies.managed-gemini-policies`.

mod paths;
mod tool_lists;

use crate::extensions::Extension;
use crate::settings::Settings;
use crate::{Cx, Profile, READ_LIMIT};
use playbookdiff_adapter::problems::{self, quote};
use playbookdiff_model::{
    ActionKind, Applicability, Diagnostic, DiagnosticCode, McpServer, PermissionEffect,
    PermissionScope, PermissionSetting, RepoPath, Severity, SourceFormat, SourceRef, Verdict,
};
use playbookdiff_source::{DirEntry, EntryKind, Machine, ParseError, SourceError, TextFile};
use std::sync::Arc;
use toml::Value;
use tool_lists::ToolList;

/// A policy tier (`*_POLICY_TIER` in `packages/core/src/policy/config.ts`):
/// a rule of a higher tier outranks every rule of a lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// An extension's `policies/` (2).
    Extension,
    /// The user's `~/.gemini/policies` (4).
    User,
    /// The system's `/etc/gemini-cli/policies` (5).
    Admin,
}

impl Tier {
    /// The tier's base, which a rule's `priority / 1000` is added to.
    fn base(self) -> u32 {
        match self {
            Tier::Extension => 2,
            Tier::User => 4,
            Tier::Admin => 5,
        }
    }

    /// Gemini CLI's name of the tier.
    fn name(self) -> &'static str {
        match self {
            Tier::Extension => "extension",
            Tier::User => "user",
            Tier::Admin => "admin",
        }
    }
}

/// A rule's `decision`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    Allow,
    Deny,
    AskUser,
}

impl Decision {
    /// The decision as written, `None` for another value.
    fn parse(s: &str) -> Option<Decision> {
        match s {
            "allow" => Some(Decision::Allow),
            "deny" => Some(Decision::Deny),
            "ask_user" => Some(Decision::AskUser),
            _ => None,
        }
    }

    /// The decision as written.
    fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
            Decision::AskUser => "ask_user",
        }
    }

    fn effect(self) -> PermissionEffect {
        match self {
            Decision::Allow => PermissionEffect::Allow,
            Decision::Deny => PermissionEffect::Deny,
            Decision::AskUser => PermissionEffect::Ask,
        }
    }
}

/// One tool of one `[[rule]]`, as the policy engine holds it.
#[derive(Clone, Debug)]
struct Rule {
    /// The tool name (`mcp_SERVER_TOOL` with `mcpName`); `*` and a
    /// trailing `*` are wildcards.
    tool: String,
    /// What else the call must match, as written (`argsPattern
    /// "secret"`, `commandPrefix "git"`, `subagent "x"`); `None`: every
    /// call of the tool.
    condition: Option<String>,
    /// The command prefix of a `commandPrefix` rule.
    prefix: Option<String>,
    decision: Decision,
    /// 0 to 999, as written.
    priority: u32,
    tier: Tier,
    /// `modes`: the approval modes the rule is active in (all when empty).
    modes: Vec<String>,
    /// `interactive`, when set.
    interactive: Option<bool>,
    /// The rule's 1-based number in its file.
    number: usize,
    /// The file and lines of the rule.
    source: SourceRef,
    /// Why the rule decides nothing, one sentence: an extension's
    /// `allow` or `yolo` rule Gemini CLI drops, a settings entry that
    /// names a tool's class rather than the tool.
    dropped: Option<&'static str>,
    /// The settings list the rule comes from (module `tool_lists`);
    /// `None` for a policy file's `[[rule]]`.
    list: Option<ToolList>,
    /// The file whose list replaces this one (`tools.allowed` is merged
    /// by replacement), when it is not the winner.
    replaced_by: Option<SourceRef>,
}

impl Rule {
    /// The rank: higher first (`tier + priority / 1000`, in thousandths).
    fn rank(&self) -> u32 {
        if self.list == Some(ToolList::Exclude) {
            // Also passed to the tool registry as `excludeTools`, which
            // withholds the tool whatever the policies say.
            return u32::MAX;
        }
        self.tier.base() * 1000 + self.priority
    }

    /// Whether the rule takes part in a session in the `default`
    /// approval mode whatever the call's arguments: not dropped, no
    /// condition, its `modes` empty or naming `default`, no
    /// `interactive`.
    fn active(&self) -> bool {
        self.dropped.is_none()
            && self.replaced_by.is_none()
            && self.interactive.is_none()
            && (self.modes.is_empty() || self.modes.iter().any(|m| m == "default"))
    }

    /// Whether the rule's tool name covers `tool` (`*`, `mcp_*`,
    /// `mcp_server_*`, or the same name).
    fn covers(&self, tool: &str) -> bool {
        match self.tool.strip_suffix('*') {
            Some(prefix) => tool.starts_with(prefix),
            None => self.tool == tool,
        }
    }

    /// The rule as the setting's value: the tool, then its condition.
    fn value(&self) -> String {
        match &self.condition {
            Some(c) => format!("{} ({c})", self.tool),
            None => self.tool.clone(),
        }
    }

    /// Words for a reason: "rule 2 of `~/.gemini/policies/a.toml`
    /// (`allow`, priority 500, tier user)".
    fn named(&self) -> String {
        let decision = self.decision.as_str();
        if self.list == Some(ToolList::Exclude) {
            return format!(
                "`tools.exclude` of {} (which withholds the tool whatever the policies say)",
                quote(&self.source.path)
            );
        }
        if self.list == Some(ToolList::Narrowing) {
            return format!(
                "the deny of every other shell command that a shell command in `tools.allowed` of {} adds (priority 290 in the user tier)",
                quote(&self.source.path)
            );
        }
        if let Some(list) = self.list {
            return format!(
                "`{}` of {} (`{decision}`, priority {} in the user tier)",
                list.key(),
                quote(&self.source.path),
                self.priority
            );
        }
        format!(
            "rule {} of {} (`{decision}`, priority {} in the {} tier)",
            self.number,
            quote(&self.source.path),
            self.priority,
            self.tier.name()
        )
    }
}

/// The user's policies folder, below the home.
pub(super) const USER_DIR: &str = ".gemini/policies";

/// The system's policies folder (`Storage.getSystemPoliciesDir` on
/// Linux; no variable moves it).
pub(super) const ADMIN_DIR: &str = "etc/gemini-cli/policies";

/// The permission settings of the machine's policies (local mode, with
/// `machine`; module `paths`), of the settings' tool lists (module
/// `tool_lists`: every settings file of `all`) and of the active
/// extensions' policies and `excludeTools`, in the order Gemini CLI loads
/// them: admin rules first, then the user's, then the settings' lists,
/// then the extensions' (files by name, rules in file order), then the
/// built-in tools `tools.core` leaves out; each `honoured` as the policy
/// engine ranks it.
pub(crate) fn compile(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    (machine, extensions): (Option<&Machine>, &[Extension]),
    all: &Settings,
) -> Vec<PermissionSetting> {
    let mut rules = Vec::new();
    if let Some(machine) = machine {
        rules.extend(paths::rules(cx, profile, machine, all));
    }
    rules.extend(tool_lists::rules(all, profile));
    for ext in extensions.iter().filter(|e| e.active()) {
        if let (Some(m), Some(dir)) = (machine, ext.file("policies")) {
            let place = Place::Machine(m);
            rules.extend(folder(cx, place, &dir, Tier::Extension, Some(ext)));
        }
    }
    let mut out: Vec<PermissionSetting> = (0..rules.len()).map(|i| setting(i, &rules)).collect();
    if profile.headless_ask_denies {
        headless_asks(cx, &rules, &out);
    }
    for ext in extensions.iter().filter(|e| e.active()) {
        out.extend(excluded_tools(ext));
    }
    out.extend(tool_lists::core(all, profile));
    out
}

/// Where a policy file lies: on the machine (`~/...`, `/...`), or in the
/// repository (a relative policy path, resolved from the launch
/// directory).
#[derive(Clone, Copy)]
enum Place<'m> {
    Machine(&'m Machine),
    Repo,
}

impl Place<'_> {
    /// The entries of `dir`; `None` when it is not a readable directory
    /// (in the repository: when it holds nothing).
    fn list_dir(self, cx: &Cx<'_, '_>, dir: &RepoPath) -> Option<Vec<DirEntry>> {
        match self {
            Place::Machine(m) => m.list_dir(dir).ok(),
            Place::Repo => Some(cx.repo.list_dir(dir).to_vec()).filter(|e| !e.is_empty()),
        }
    }

    /// The text of `path`, at most [`READ_LIMIT`] bytes.
    fn read_text(self, cx: &Cx<'_, '_>, path: &RepoPath) -> Result<Arc<TextFile>, SourceError> {
        match self {
            Place::Machine(m) => m.read_text(path, READ_LIMIT),
            Place::Repo => cx.repo.read_text(path, READ_LIMIT),
        }
    }
}

/// The rules of the `.toml` files of `dir` (by name; regular files only),
/// in tier `tier`, for the extension `ext` when it is one's.
fn folder(
    cx: &mut Cx<'_, '_>,
    place: Place<'_>,
    dir: &RepoPath,
    tier: Tier,
    ext: Option<&Extension>,
) -> Vec<Rule> {
    let Some(mut entries) = place.list_dir(cx, dir) else {
        return Vec::new();
    };
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = Vec::new();
    for e in entries {
        if e.kind != EntryKind::File || !e.name.ends_with(".toml") {
            continue;
        }
        let Some(path) = dir.child(&e.name) else {
            continue;
        };
        let mut source = SourceRef {
            scope: playbookdiff_model::SourceScope::of_path(&path),
            ..SourceRef::project(path.clone(), SourceFormat::Toml)
        };
        if let Some(ext) = ext {
            source = source.in_plugin(&ext.key());
        }
        out.extend(file(cx, place, source, tier));
    }
    out
}

/// The rules of the policy file of `source`; none, reported, when it
/// cannot be read, is not TOML or fails the schema.
fn file(cx: &mut Cx<'_, '_>, place: Place<'_>, source: SourceRef, tier: Tier) -> Vec<Rule> {
    let path = source.path.clone();
    let effect =
        "Gemini CLI skips this policy file (\"Policy file error\") and starts without its rules";
    let text = match place.read_text(cx, &path) {
        Ok(t) => t,
        Err(SourceError::NotFound(_)) => return Vec::new(),
        Err(e) => {
            cx.diag(problems::read_error(&path, &e, effect, SourceFormat::Toml));
            return Vec::new();
        }
    };
    let table = match text.text.parse::<toml::Table>() {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(&text.text, s.start));
            let err = ParseError::on_line(e.message().to_string(), line);
            cx.diag(
                problems::invalid_syntax(&path, "TOML", &err, effect, SourceFormat::Toml)
                    .with_severity(Severity::Warning),
            );
            return Vec::new();
        }
    };
    let spans = rule_spans(&text.text);
    match rules(&table, tier, &source, &spans) {
        Ok(rules) => rules,
        Err(why) => {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!(
                        "{} fails Gemini CLI's policy schema: {why}; {effect}.",
                        quote(&path)
                    ),
                )
                .at(source),
            );
            Vec::new()
        }
    }
}

/// The 1-based line of byte offset `at` of `text`.
fn line_of(text: &str, at: usize) -> u32 {
    1 + text[..at.min(text.len())].matches('\n').count() as u32
}

/// The lines of each `[[rule]]` table of `text`, in order: from its
/// header to its last non-blank line before the next table header.
fn rule_spans(text: &str) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut open: Option<(u32, u32)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let t = line.trim();
        if t.starts_with('[') {
            out.extend(open.take());
            if t.replace(' ', "") == "[[rule]]" {
                open = Some((n, n));
            }
        } else if let Some((_, end)) = open.as_mut() {
            if !t.is_empty() && !t.starts_with('#') {
                *end = n;
            }
        }
    }
    out.extend(open);
    out
}

/// The rules of a parsed policy file, one per tool name and command
/// prefix (`PolicyRuleSchema` in `packages/core/src/policy/toml-loader.ts`);
/// `Err` with what fails the schema.
fn rules(
    table: &toml::Table,
    tier: Tier,
    source: &SourceRef,
    spans: &[(u32, u32)],
) -> Result<Vec<Rule>, String> {
    let list = match table.get("rule") {
        None => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return Err("`rule` is not a list of tables".into()),
    };
    let mut out = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let number = i + 1;
        let t = v
            .as_table()
            .ok_or_else(|| format!("rule {number} is not a table"))?;
        let mut src = source.clone();
        if let Some(&(a, b)) = spans.get(i).filter(|_| spans.len() == list.len()) {
            src = src.with_lines(a, b);
        }
        out.extend(one_rule(t, number, tier, src)?);
    }
    Ok(out)
}

/// The strings of `v`: a string or a list of strings; `Err` otherwise.
fn strings(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("`{what}` is not a string or a list of strings")),
        _ => Err(format!("`{what}` is not a string or a list of strings")),
    }
}

/// The optional string `key` of `t`.
fn opt_str(t: &toml::Table, key: &str, number: usize) -> Result<Option<String>, String> {
    match t.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{key}` of rule {number} is not a string")),
    }
}

/// The rules of `[[rule]]` number `number`: one per tool and prefix.
fn one_rule(
    t: &toml::Table,
    number: usize,
    tier: Tier,
    source: SourceRef,
) -> Result<Vec<Rule>, String> {
    let at = |what: &str| format!("{what} of rule {number}");
    let tools = strings(
        t.get("toolName").ok_or_else(|| at("no `toolName`"))?,
        "toolName",
    )?;
    let decision = t
        .get("decision")
        .and_then(Value::as_str)
        .and_then(Decision::parse)
        .ok_or_else(|| at("`decision` (allow, deny or ask_user)"))?;
    let priority = match t.get("priority") {
        Some(Value::Integer(p)) if (0..=999).contains(p) => *p as u32,
        Some(Value::Integer(_)) => return Err(at("`priority` outside 0 to 999")),
        _ => return Err(at("`priority` missing or not an integer")),
    };
    let modes = match t.get("modes") {
        None => Vec::new(),
        Some(v) => strings(v, "modes")?,
    };
    if let Some(m) = modes
        .iter()
        .find(|m| !["default", "autoEdit", "plan", "yolo"].contains(&m.as_str()))
    {
        return Err(at(&format!("the approval mode `{m}`")));
    }
    let interactive = match t.get("interactive") {
        None => None,
        Some(Value::Boolean(b)) => Some(*b),
        Some(_) => return Err(at("`interactive` not a boolean")),
    };
    let mcp = opt_str(t, "mcpName", number)?;
    let prefixes = match t.get("commandPrefix") {
        None => vec![None],
        Some(v) => strings(v, "commandPrefix")?.into_iter().map(Some).collect(),
    };
    let mut fixed = Vec::new();
    for key in ["argsPattern", "commandRegex", "subagent"] {
        if let Some(s) = opt_str(t, key, number)? {
            fixed.push(format!("{key} {s:?}"));
        }
    }
    if t.contains_key("toolAnnotations") {
        fixed.push("toolAnnotations".into());
    }
    let dropped = (tier == Tier::Extension)
        .then(|| {
            if decision == Decision::Allow {
                Some("Gemini CLI drops an extension's `allow` rules (`loadExtensionPolicies`).")
            } else if modes.iter().any(|m| m == "yolo") {
                Some("Gemini CLI drops an extension's rules for `yolo` mode (`loadExtensionPolicies`).")
            } else {
                None
            }
        })
        .flatten();
    let mut out = Vec::new();
    for tool in tools.iter().filter(|t| !t.is_empty()) {
        let tool = match &mcp {
            Some(server) => format!("mcp_{server}_{tool}"),
            None => tool.clone(),
        };
        for prefix in &prefixes {
            let mut condition = fixed.clone();
            if let Some(p) = prefix {
                condition.insert(0, format!("commandPrefix {p:?}"));
            }
            out.push(Rule {
                tool: tool.clone(),
                condition: (!condition.is_empty()).then(|| condition.join(", ")),
                prefix: prefix.clone(),
                decision,
                priority,
                tier,
                modes: modes.clone(),
                interactive,
                number,
                source: source.clone(),
                dropped,
                list: None,
                replaced_by: None,
            });
        }
    }
    Ok(out)
}

/// Whether rule `a` (its index in the rules as loaded, and the rule)
/// comes before rule `b` in the policy engine's order: a higher rank, or
/// the same rank and loaded first. The engine sorts its rules by
/// priority with JavaScript's stable `sort` (`PolicyEngine`'s
/// constructor and `addRule`, 0.34.0 and 0.61.0) and takes the first that
/// matches, so a tie goes to the rule loaded first: the policy folders in
/// the order Gemini CLI lists them (`getPolicyDirectories`: the system's,
/// then the user's), the files of a folder by name (Node's `readdir`,
/// sorted by libuv's `scandir`), the rules of a file in order, then the
/// settings' lists, then the extensions' rules. Seen with 0.34.0 and
/// 0.61.0 on case `oracle.local_gemini_policies.home-gemini-policy-ties`.
fn outranks(a: (usize, &Rule), b: (usize, &Rule)) -> bool {
    let (ra, rb) = (a.1.rank(), b.1.rank());
    ra > rb || (ra == rb && a.0 < b.0)
}

/// Whether rule `at` of `all` (`rule`) is honoured in a session in the
/// `default` approval mode, against every rule of `all` (in the order
/// Gemini CLI loads them).
fn honoured(rule: &Rule, at: usize, all: &[Rule]) -> Verdict {
    if let Some(why) = rule.dropped {
        return Verdict::No {
            reason: why.to_string(),
            source: None,
        };
    }
    if let Some(winner) = &rule.replaced_by {
        return Verdict::No {
            reason: format!(
                "{} replaces this list whole: Gemini CLI merges `tools.allowed` by replacement (system settings over the workspace's over the user's over the system defaults).",
                quote(&winner.path)
            ),
            source: Some(winner.clone()),
        };
    }
    if let Some(i) = rule.interactive {
        let kind = if i { "interactive" } else { "headless (`-p`)" };
        return Verdict::Unknown {
            reason: format!("It applies only to {kind} sessions (`interactive = {i}`)."),
        };
    }
    if !rule.active() {
        return Verdict::No {
            reason: format!(
                "It applies only in the approval modes {}; a session starts in `default`.",
                rule.modes.join(", ")
            ),
            source: None,
        };
    }
    let above = |(j, r): &(usize, &Rule)| {
        r.active() && outranks((*j, r), (at, rule)) && r.covers(&rule.tool)
    };
    let above: Vec<&Rule> = all
        .iter()
        .enumerate()
        .filter(above)
        .map(|(_, r)| r)
        .collect();
    if let Some(r) = above.iter().find(|r| r.condition.is_none()) {
        return Verdict::No {
            reason: format!(
                "Outranked for every call of `{}` by {}.",
                rule.tool,
                r.named()
            ),
            source: Some(r.source.clone()),
        };
    }
    if rule.condition.is_none() && rule.decision == Decision::Deny {
        let asks = |r: &&&Rule| r.condition.is_some() && r.decision != Decision::Deny;
        if let Some(r) = above.iter().find(asks) {
            return Verdict::Unknown {
                reason: format!(
                    "{} decides the calls it matches, so Gemini CLI still offers `{}` to the model; this deny applies to the others.",
                    r.named(),
                    rule.tool
                ),
            };
        }
    }
    Verdict::Yes
}

/// The permission setting of rule `at` of `all`, honoured against them.
fn setting(at: usize, all: &[Rule]) -> PermissionSetting {
    let rule = &all[at];
    let key = match rule.list {
        Some(list) => list.key().to_string(),
        None => format!("rule[{}] {}", rule.number, rule.decision.as_str()),
    };
    // The narrowing deny shares its key with the list's own entries.
    let id_key = match rule.list {
        Some(ToolList::Narrowing) => format!("{key}:narrowing"),
        _ => key.clone(),
    };
    let value = rule.value();
    PermissionSetting {
        id: format!(
            "{}:permission:{}:{id_key}:{value}",
            crate::HARNESS.as_str(),
            rule.source.path
        ),
        key,
        effect: rule.decision.effect(),
        source: rule.source.clone(),
        honoured: honoured(rule, at, all),
        denies: (rule.decision == Decision::Deny)
            .then(|| {
                denies(
                    &rule.tool,
                    rule.condition.as_deref(),
                    rule.prefix.as_deref(),
                )
            })
            .flatten(),
        value,
    }
}

/// What a deny of `tool` refuses in terms the harnesses share: the
/// shell (with a command prefix), file reads, edits and URL fetches
/// (Gemini CLI's tool names in `packages/core/src/tools/tool-names.ts`);
/// `None` for another tool or a condition other than a command prefix.
fn denies(tool: &str, condition: Option<&str>, prefix: Option<&str>) -> Option<PermissionScope> {
    if condition.is_some() && prefix.is_none() {
        return None;
    }
    let action = match tool {
        "run_shell_command" => ActionKind::Shell,
        "read_file" | "read_many_files" => ActionKind::Read,
        "write_file" | "replace" => ActionKind::Edit,
        "web_fetch" => ActionKind::WebFetch,
        _ => return None,
    };
    if prefix.is_some() && action != ActionKind::Shell {
        return None;
    }
    Some(PermissionScope {
        action,
        pattern: prefix.map(str::to_string),
    })
}

/// The tools `excludeTools` of the active extension `ext` names, each a
/// deny Gemini CLI applies whatever the policies say.
fn excluded_tools(ext: &Extension) -> Vec<PermissionSetting> {
    let names: Vec<String> = match ext.manifest.get(&["excludeTools"]) {
        Some(serde_json::Value::Array(a)) => a
            .iter()
            .filter_map(serde_json::Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    let source = ext.source(&["excludeTools"]);
    names
        .into_iter()
        .map(|tool| PermissionSetting {
            id: format!(
                "{}:permission:{}:excludeTools:{tool}",
                crate::HARNESS.as_str(),
                source.path
            ),
            key: "excludeTools".into(),
            effect: PermissionEffect::Deny,
            source: source.clone(),
            honoured: excluded_honoured(&tool),
            denies: denies(&tool, None, None),
            value: tool,
        })
        .collect()
}

/// Whether an `excludeTools` entry withholds a tool: Gemini CLI matches
/// the entries against tool names (`ToolRegistry.isActiveTool`), so one
/// with arguments (`run_shell_command(rm -rf)`, a form of older releases)
/// names none.
fn excluded_honoured(entry: &str) -> Verdict {
    if entry.contains('(') {
        return Verdict::No {
            reason: format!("`{entry}` names no tool: Gemini CLI matches `excludeTools` against tool names, so nothing is withheld."),
            source: None,
        };
    }
    Verdict::Yes
}

/// Says, in the `reason` of each MCP server of `servers` that Gemini CLI
/// starts, when the permission settings `permissions` withhold every tool
/// it may offer: an honoured deny without a condition whose tool name is
/// `*`, or ends in `*` and starts like the server's tools
/// (`mcp_SERVER_`, Gemini CLI's fully qualified MCP tool names:
/// `formatMcpToolName`, 0.34.0 and 0.61.0), with no honoured allow or
/// ask of one of its tools (which would rank above the deny, or be
/// outranked). The server still starts; the model cannot call it. The
/// analysis never connects to a server, so a rule or an `excludeTools`
/// entry naming one of its tools (`mcp_docs_search`, or the bare
/// `search`, which `ToolRegistry.isActiveTool` also matches) withholds
/// that tool only, which is not knowable here. Read in the code, not
/// observed: the recorder starts no MCP server.
pub(crate) fn withheld_mcp_tools(permissions: &[PermissionSetting], servers: &mut [McpServer]) {
    for server in servers
        .iter_mut()
        .filter(|s| s.applicability == Applicability::Effective)
    {
        let tools = format!("mcp_{}_", server.name);
        let whole = |p: &&PermissionSetting| {
            p.effect == PermissionEffect::Deny
                && p.honoured == Verdict::Yes
                && p.value
                    .strip_suffix('*')
                    .is_some_and(|head| !head.contains([' ', '(']) && tools.starts_with(head))
        };
        let offered = |p: &PermissionSetting| {
            p.effect != PermissionEffect::Deny
                && !matches!(p.honoured, Verdict::No { .. })
                && p.value.starts_with(&tools)
        };
        let Some(deny) = permissions.iter().find(whole) else {
            continue;
        };
        if permissions.iter().any(offered) {
            continue;
        }
        server.reason = format!(
            "{} Gemini CLI starts it, but withholds every tool it offers from the model: `{}` of {} denies `{}`.",
            server.reason,
            deny.key,
            quote(&deny.source.path),
            deny.value
        )
        .trim_start()
        .to_string();
    }
}

/// One `workspace-policies-ignored` diagnostic per `.toml` file of the
/// launch directory's `.gemini/policies`: Gemini CLI reads none of them
/// (in either mode of the analysis).
pub(crate) fn report_workspace(cx: &mut Cx<'_, '_>) {
    let Some(dir) = cx.context.cwd.join(".gemini/policies") else {
        return;
    };
    let mut files: Vec<RepoPath> = cx
        .repo
        .list_dir(&dir)
        .iter()
        .filter(|e| e.kind == EntryKind::File && e.name.ends_with(".toml"))
        .filter_map(|e| dir.child(&e.name))
        .collect();
    files.sort();
    for file in files {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::WorkspacePoliciesIgnored,
                format!(
                    "{} is ignored: Gemini CLI does not read a workspace's policies (its workspace tier is turned off), so its rules allow, ask or deny nothing; put them in `~/.gemini/policies` or `/etc/gemini-cli/policies`.",
                    quote(&file)
                ),
            )
            .at(SourceRef::project(file, SourceFormat::Toml)),
        );
    }
}

/// One `permission-not-honoured` diagnostic per `ask_user` rule of
/// `rules` that decides every call of its tool (its setting in
/// `settings` honoured, no condition): a release whose headless run turns
/// `ask_user` into `deny` ([`Profile::headless_ask_denies`]) withholds
/// that tool from the model there.
fn headless_asks(cx: &mut Cx<'_, '_>, rules: &[Rule], settings: &[PermissionSetting]) {
    let deciding = rules.iter().zip(settings).filter(|(r, s)| {
        r.decision == Decision::AskUser && r.condition.is_none() && s.honoured == Verdict::Yes
    });
    let found: Vec<Diagnostic> = deciding
        .map(|(r, _)| {
            Diagnostic::new(
                DiagnosticCode::PermissionNotHonoured,
                format!(
                    "{} asks before every call of `{}`, but a headless run (`gemini -p`) of this release turns `ask_user` into `deny`: there the tool is withheld from the model; an interactive session asks.",
                    capitalized(&r.named()),
                    r.tool
                ),
            )
            .at(r.source.clone())
        })
        .collect();
    for d in found {
        cx.diag(d);
    }
}

/// `s` with its first letter in upper case.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_spans_its_header_to_its_last_line() {
        let text = "# top\n[[rule]]\ntoolName = \"a\"\n\n# next\n[[ rule ]]\ntoolName = \"b\"\npriority = 1\n\n[other]\nx = 1\n";
        assert_eq!(rule_spans(text), [(2, 3), (6, 8)]);
    }

    #[test]
    fn a_higher_tier_outranks_any_priority_of_a_lower_one() {
        let rule = |tier, priority, decision| Rule {
            tool: "glob".into(),
            condition: None,
            prefix: None,
            decision,
            priority,
            tier,
            modes: Vec::new(),
            interactive: None,
            number: 1,
            source: SourceRef::project(RepoPath::root(), SourceFormat::Toml),
            dropped: None,
            list: None,
            replaced_by: None,
        };
        let admin = rule(Tier::Admin, 0, Decision::Deny);
        let user = rule(Tier::User, 999, Decision::Allow);
        let all = [admin.clone(), user.clone()];
        assert_eq!(honoured(&admin, 0, &all), Verdict::Yes);
        assert!(matches!(honoured(&user, 1, &all), Verdict::No { .. }));
        let star = Rule {
            tool: "*".into(),
            ..rule(Tier::Admin, 1, Decision::Deny)
        };
        assert!(star.covers("glob") && star.covers("mcp_x_y"));
        let mcp = Rule {
            tool: "mcp_docs_*".into(),
            ..star.clone()
        };
        assert!(mcp.covers("mcp_docs_search") && !mcp.covers("glob"));
    }

    /// A rule of `tool` with `decision` at priority 100 of the user tier.
    fn user_rule(tool: &str, decision: Decision) -> Rule {
        Rule {
            tool: tool.into(),
            condition: None,
            prefix: None,
            decision,
            priority: 100,
            tier: Tier::User,
            modes: Vec::new(),
            interactive: None,
            number: 1,
            source: SourceRef::project(RepoPath::root(), SourceFormat::Toml),
            dropped: None,
            list: None,
            replaced_by: None,
        }
    }

    #[test]
    fn a_deny_of_every_tool_of_a_server_is_said_on_the_server() {
        let server = |name: &str| {
            let source = SourceRef::project(RepoPath::root(), SourceFormat::Json);
            McpServer::new(name.into(), name, source, Applicability::Effective)
        };
        let rule = |tool: &str, decision| {
            let mut r = user_rule(tool, decision);
            r.priority = if decision == Decision::Deny { 100 } else { 200 };
            r
        };
        let all = [
            rule("mcp_docs_*", Decision::Deny),
            rule("mcp_web_*", Decision::Deny),
            rule("mcp_web_fetch", Decision::Allow),
        ];
        let settings: Vec<PermissionSetting> = (0..all.len()).map(|i| setting(i, &all)).collect();
        let mut servers = [server("docs"), server("web"), server("other")];
        withheld_mcp_tools(&settings, &mut servers);
        assert!(
            servers[0].reason.contains("withholds every tool"),
            "{}",
            servers[0].reason
        );
        assert!(
            servers[1].reason.is_empty(),
            "an allowed tool stays offered"
        );
        assert!(servers[2].reason.is_empty());
    }

    #[test]
    fn a_tie_goes_to_the_rule_loaded_first() {
        let deny = user_rule("glob", Decision::Deny);
        let allow = user_rule("glob", Decision::Allow);
        let all = [deny.clone(), allow.clone()];
        assert_eq!(honoured(&deny, 0, &all), Verdict::Yes);
        assert!(matches!(honoured(&allow, 1, &all), Verdict::No { .. }));
        let all = [allow.clone(), deny.clone()];
        assert_eq!(honoured(&allow, 0, &all), Verdict::Yes);
        assert!(matches!(honoured(&deny, 1, &all), Verdict::No { .. }));
    }
}

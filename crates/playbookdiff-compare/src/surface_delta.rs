//! What changed between two revisions in the surfaces an agent loads
//! beside instructions, skills and MCP servers: hooks, subagents,
//! commands, output styles, plugins and permissions ([`surface_changes`],
//! part of [`agent_delta`](crate::delta::agent_delta)).
//!
//! Each item is matched across the revisions by what names it for the
//! agent (a subagent's, command's, output style's or plugin's name; a
//! permission's key and rule, or its key alone for a mode; a hook's file,
//! event, matcher and command), and compared field by field on its JSON
//! document with every `lines` left out, so text moving above an item is
//! no change. Only what reaches the agent counts, as for the other items:
//! a hook that does not run, a rule the agent does not honour, a subagent
//! or command that is not received are absent at that revision.

use crate::delta::{definition_fields, received, strip_lines, to_value, CapabilityChange, Change};
use playbookdiff_model::{
    EffectiveAgentConfig, Hook, PermissionEffect, PermissionSetting, RepoPath,
};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The surface changes of one agent between two revisions, each list
/// sorted by name, then change.
#[derive(Debug, Default)]
pub(crate) struct SurfaceChanges {
    pub(crate) hooks: Vec<CapabilityChange>,
    pub(crate) subagents: Vec<CapabilityChange>,
    pub(crate) commands: Vec<CapabilityChange>,
    pub(crate) output_styles: Vec<CapabilityChange>,
    pub(crate) plugins: Vec<CapabilityChange>,
    pub(crate) permissions: Vec<CapabilityChange>,
}

/// One item at one revision: the key that matches it across revisions,
/// the name it is reported by, its file, and its document without lines.
struct Entry {
    key: String,
    name: String,
    path: RepoPath,
    doc: Value,
}

impl Entry {
    fn new<T: Serialize>(key: String, name: String, path: &RepoPath, item: &T) -> Entry {
        let doc = strip_lines(Some(&to_value(item))).unwrap_or(Value::Null);
        Entry {
            key,
            name,
            path: path.clone(),
            doc,
        }
    }
}

/// What the agent of `head` gets differently from that of `base` in its
/// hooks, subagents, commands, output styles, plugins and permissions.
pub(crate) fn surface_changes(
    base: &EffectiveAgentConfig,
    head: &EffectiveAgentConfig,
) -> SurfaceChanges {
    SurfaceChanges {
        hooks: hook_changes(&base.hooks, &head.hooks),
        subagents: keyed_changes(subagents(base), subagents(head)),
        commands: keyed_changes(commands(base), commands(head)),
        output_styles: keyed_changes(output_styles(base), output_styles(head)),
        plugins: keyed_changes(plugins(base), plugins(head)),
        permissions: keyed_changes(permissions(base), permissions(head)),
    }
}

fn subagents(c: &EffectiveAgentConfig) -> Vec<Entry> {
    c.subagents
        .iter()
        .filter(|s| received(s.load_phase, s.applicability))
        .map(|s| Entry::new(s.name.clone(), s.name.clone(), &s.source.path, s))
        .collect()
}

fn commands(c: &EffectiveAgentConfig) -> Vec<Entry> {
    c.commands
        .iter()
        .filter(|s| received(s.load_phase, s.applicability))
        .map(|s| Entry::new(s.name.clone(), s.name.clone(), &s.source.path, s))
        .collect()
}

fn output_styles(c: &EffectiveAgentConfig) -> Vec<Entry> {
    c.output_styles
        .iter()
        .filter(|s| received(s.load_phase, s.applicability))
        .map(|s| Entry::new(s.name.clone(), s.name.clone(), &s.source.path, s))
        .collect()
}

/// Every declared plugin: whether it is enabled and loads are fields of
/// its document (`enabledBy`, `load`), so enabling one is `redefined`.
fn plugins(c: &EffectiveAgentConfig) -> Vec<Entry> {
    c.plugins
        .iter()
        .map(|p| Entry::new(p.name.clone(), p.name.clone(), &p.source.path, p))
        .collect()
}

/// The rules and modes the agent honours (or may): a rule by its key and
/// value (`permissions.deny Bash(curl:*)`), a mode by its key alone, so a
/// changed mode is `redefined` with `value`.
fn permissions(c: &EffectiveAgentConfig) -> Vec<Entry> {
    c.permissions
        .iter()
        .filter(|p| p.honoured.may_apply())
        .map(|p| {
            let name = permission_name(p);
            Entry::new(name.clone(), name, &p.source.path, p)
        })
        .collect()
}

/// How a permission is named in a diff: `permissions.deny Bash(curl:*)`
/// for a rule, `sandbox_mode` for a mode.
fn permission_name(p: &PermissionSetting) -> String {
    match p.effect {
        PermissionEffect::Mode => p.key.clone(),
        _ => format!("{} {}", p.key, p.value),
    }
}

/// Changes of items matched by key (the first item of a key at each
/// revision counts, as in the comparison).
fn keyed_changes(base: Vec<Entry>, head: Vec<Entry>) -> Vec<CapabilityChange> {
    let first = |list: Vec<Entry>| {
        let mut m: BTreeMap<String, Entry> = BTreeMap::new();
        for e in list {
            m.entry(e.key.clone()).or_insert(e);
        }
        m
    };
    let (a, mut b) = (first(base), first(head));
    let mut out = Vec::new();
    for (key, old) in a {
        match b.remove(&key) {
            Some(new) => out.extend(redefined(&old, &new)),
            None => out.push(change(Change::Removed, &old, Vec::new())),
        }
    }
    out.extend(b.values().map(|e| change(Change::Added, e, Vec::new())));
    sorted(out)
}

/// A hook's key within its file and event: its matcher and command.
fn hook_key(h: &Hook) -> (Option<&str>, Option<&str>) {
    (h.matcher.as_deref(), h.handler.command.as_deref())
}

/// The hooks that may run at each revision, grouped by file and event.
/// Within a group, hooks with the same matcher and command are the same
/// hook; the others are paired in order (a changed matcher or command is
/// `redefined`); what is left was added or removed.
fn hook_changes(base: &[Hook], head: &[Hook]) -> Vec<CapabilityChange> {
    let (a, mut b) = (hook_groups(base), hook_groups(head));
    let mut out = Vec::new();
    for (k, mut old) in a {
        let mut new = b.remove(&k).unwrap_or_default();
        // The same hook at both revisions.
        old.retain(
            |o| match new.iter().position(|n| hook_key(n) == hook_key(o)) {
                Some(i) => {
                    out.extend(redefined(&hook_entry(o), &hook_entry(new.remove(i))));
                    false
                }
                None => true,
            },
        );
        let mut new = new.into_iter();
        for o in old {
            match new.next() {
                Some(n) => out.extend(redefined(&hook_entry(o), &hook_entry(n))),
                None => out.push(change(Change::Removed, &hook_entry(o), Vec::new())),
            }
        }
        out.extend(new.map(|n| change(Change::Added, &hook_entry(n), Vec::new())));
    }
    for n in b.into_values().flatten() {
        out.push(change(Change::Added, &hook_entry(n), Vec::new()));
    }
    sorted(out)
}

/// The hooks of `list` that may run, by file and event, in order.
fn hook_groups(list: &[Hook]) -> BTreeMap<(RepoPath, String), Vec<&Hook>> {
    let mut m: BTreeMap<(RepoPath, String), Vec<&Hook>> = BTreeMap::new();
    for h in list.iter().filter(|h| h.may_run()) {
        let k = (h.source.path.clone(), h.event.clone());
        m.entry(k).or_default().push(h);
    }
    m
}

/// A hook as an entry: named by its event and matcher
/// (`PreToolUse Write|Edit`), its handler's fields compared one by one
/// (`handler.command`, `handler.timeoutSeconds`).
fn hook_entry(h: &Hook) -> Entry {
    let name = match &h.matcher {
        Some(m) => format!("{} {m}", h.event),
        None => h.event.clone(),
    };
    let mut e = Entry::new(String::new(), name, &h.source.path, h);
    if let Value::Object(doc) = &mut e.doc {
        if let Some(Value::Object(handler)) = doc.remove("handler") {
            for (k, v) in handler {
                doc.insert(format!("handler.{k}"), v);
            }
        }
    }
    e
}

/// `redefined` when the two documents differ in a field of the
/// definition, else nothing.
fn redefined(old: &Entry, new: &Entry) -> Option<CapabilityChange> {
    let fields = definition_fields(&old.doc, &new.doc);
    (!fields.is_empty()).then(|| change(Change::Redefined, new, fields))
}

fn change(change: Change, e: &Entry, fields: Vec<String>) -> CapabilityChange {
    CapabilityChange {
        change,
        name: e.name.clone(),
        path: e.path.clone(),
        fields,
    }
}

fn sorted(mut out: Vec<CapabilityChange>) -> Vec<CapabilityChange> {
    out.sort_by(|x, y| {
        (&x.name, x.change, &x.path, &x.fields).cmp(&(&y.name, y.change, &y.path, &y.fields))
    });
    out
}

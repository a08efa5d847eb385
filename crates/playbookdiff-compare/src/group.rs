//! Findings as people read them: in order of what matters (severity, then
//! startup before on demand, then path), and skill and MCP findings that
//! share a cause as one group ("27 skills only Codex can use: …"). The JSON
//! document keeps every finding; the text and Markdown reports show groups.

use crate::finding::{Category, Finding, FindingSeverity, FindingType};
use crate::state::Reception;
use crate::{code_span, names};
use playbookdiff_model::Harness;

/// When the side that has the item receives it: the best reception among
/// the finding's items on its present side (every item when none is), or
/// [`Reception::NotLoaded`] when there are no items.
pub fn reception(f: &Finding) -> Reception {
    let present = f
        .items
        .iter()
        .filter(|i| f.present_in.contains(&i.harness))
        .map(|i| Reception::of(i.load_phase, i.applicability))
        .min();
    present
        .or_else(|| {
            f.items
                .iter()
                .map(|i| Reception::of(i.load_phase, i.applicability))
                .min()
        })
        .unwrap_or(Reception::NotLoaded)
}

/// The path a finding is sorted by: its scope directory for instructions
/// (the root first), else the first item's file.
fn path(f: &Finding) -> String {
    match (&f.scope, f.items.first()) {
        (Some(s), _) if s.is_root() => String::new(),
        (Some(s), _) => s.to_string(),
        (None, Some(i)) => i.source.path.to_string(),
        (None, None) => String::new(),
    }
}

/// The order of findings for people: severity, then startup before on
/// demand (then conditional, then never), then path (an instruction's scope
/// directory, the root first; else the first item's file), then category
/// and id.
pub fn sort(findings: &mut [Finding]) {
    findings.sort_by_cached_key(|f| (f.severity, reception(f), path(f), f.category, f.id.clone()));
}

/// Findings that share a cause: one finding, or several skill or MCP
/// findings of the same category, type, severity, sides, reception and
/// acceptance.
#[derive(Clone, Debug)]
pub struct Group<'a> {
    /// The findings, in the order given.
    pub findings: Vec<&'a Finding>,
}

type Key = (
    Category,
    FindingType,
    FindingSeverity,
    Vec<Harness>,
    Vec<Harness>,
    Reception,
    bool,
);

fn key(f: &Finding) -> Option<Key> {
    (f.category != Category::Instruction).then(|| {
        (
            f.category,
            f.kind,
            f.severity,
            f.present_in.clone(),
            f.absent_from.clone(),
            reception(f),
            f.accepted.is_some(),
        )
    })
}

/// Groups `findings` (already in order): each group sits where its first
/// finding stands. Instruction findings stay one per group.
pub fn group<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<Group<'a>> {
    let mut out: Vec<Group<'a>> = Vec::new();
    let mut at: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    for f in findings {
        match key(f) {
            Some(k) => match at.get(&k) {
                Some(&i) => out[i].findings.push(f),
                None => {
                    at.insert(k, out.len());
                    out.push(Group { findings: vec![f] });
                }
            },
            None => out.push(Group { findings: vec![f] }),
        }
    }
    out
}

impl Group<'_> {
    /// The first finding.
    pub fn first(&self) -> &Finding {
        self.findings[0]
    }

    /// The names of the skills or MCP servers of the group, sorted by
    /// name (`sentry`, `sentry-dev`), each once.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .findings
            .iter()
            .map(|f| f.item_name().to_string())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// One sentence for the group: the first finding's message when it
    /// holds one finding, else the count, the cause and at most `max`
    /// names (`27 skills only Codex can use at startup: `a`, `b`, +25
    /// more.`).
    /// In local mode, the items only the user's own configuration gives
    /// follow: "Only your own configuration gives `standup`:
    /// `~/.claude/skills/standup/SKILL.md` (user)."
    pub fn summary(&self, max: usize) -> String {
        let f = self.first();
        if self.findings.len() == 1 {
            return f.message.clone();
        }
        let mut out = self.cause_summary(max);
        let own: Vec<(String, String)> = self
            .findings
            .iter()
            .filter_map(|g| crate::own_files(g).map(|files| (g.item_name().to_string(), files)))
            .collect();
        for (name, files) in own.iter().take(max) {
            out.push_str(&format!(
                " Only your own configuration gives {}: {files}.",
                code_span(name)
            ));
        }
        out
    }

    /// [`Group::summary`] of two findings or more, without the note on
    /// the user's own configuration.
    fn cause_summary(&self, max: usize) -> String {
        let f = self.first();
        let n = self.findings.len();
        let names_list = {
            let all = self.names();
            let shown: Vec<String> = all.iter().take(max).map(|x| code_span(x)).collect();
            let more = all.len().saturating_sub(max);
            if more > 0 {
                format!("{}, +{more} more", shown.join(", "))
            } else {
                shown.join(", ")
            }
        };
        let present = names(&f.present_in);
        let absent = names(&f.absent_from);
        let when = reception(f).phrase();
        // count >= 2: one finding returned above.
        match (f.category, f.kind) {
            (Category::Skill, FindingType::CapabilityGap) if !f.absent_from.is_empty() => {
                format!("{n} skills only {present} can use ({when}): {names_list}.")
            }
            (Category::Skill, FindingType::ScopeGap) => {
                format!("{n} skills reach {present} sooner than {absent}: {names_list}.")
            }
            (Category::Mcp, FindingType::CapabilityGap) if !f.absent_from.is_empty() => {
                format!("{n} MCP servers configured for {present} only ({when}): {names_list}.")
            }
            (Category::Subagent, FindingType::CapabilityGap) => {
                format!("{n} subagents only {present} can call: {names_list}.")
            }
            (Category::Permission, FindingType::CapabilityGap) => {
                format!("{n} kinds of action refused by {present} only: {names_list}.")
            }
            // Several differences of one server (its args, its env) are
            // several findings: say which server and which fields, not
            // a count of findings.
            (c @ (Category::Mcp | Category::Skill), FindingType::Different) => {
                let all = names(&[f.present_in.clone(), f.absent_from.clone()].concat());
                let fields = {
                    let mut v: Vec<&str> = self
                        .findings
                        .iter()
                        .flat_map(|g| g.differences.iter().map(|d| d.field.as_str()))
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    let more = v.len().saturating_sub(max);
                    let mut text = v[..v.len().min(max)].join(", ");
                    if more > 0 {
                        text.push_str(&format!(", +{more} more"));
                    }
                    text
                };
                let what = if c == Category::Mcp {
                    "MCP server"
                } else {
                    "Skill"
                };
                let differ = if fields.is_empty() {
                    String::new()
                } else {
                    format!(" ({fields})")
                };
                match self.names().as_slice() {
                    [one] => format!(
                        "{what} {} is defined differently between {all}{differ}.",
                        code_span(one)
                    ),
                    many => format!(
                        "{} {}s are defined differently between {all}{differ}: {names_list}.",
                        many.len(),
                        if c == Category::Mcp {
                            "MCP server"
                        } else {
                            "skill"
                        }
                    ),
                }
            }
            // count >= 2, as above.
            (c, k) => format!(
                "{n} {} {} findings between {}: {names_list}.",
                c.title(),
                k.label(),
                names(&[f.present_in.clone(), f.absent_from.clone()].concat())
            ),
        }
    }
}

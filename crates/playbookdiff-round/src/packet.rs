//! The context packet an agent starts a round from (issue 31, step 2):
//! the brief in full, the files it may write and must not change, the
//! rulings table as written, what each registered agent receives in the
//! launch directories the scope touches, and the documents the brief
//! links to, inlined until a character budget, the rest named by path.
//!
//! The caller reads the files and compiles the configurations; [`build`]
//! only assembles. The JSON shape is [`ContextPacket`]
//! (`schema/round-context.schema.json`, [`json_schema`]).

use crate::brief::{Brief, BriefProblem, OutOfScope, Ruling};
use crate::pattern::FilePattern;
use crate::select::NamedBy;
use playbookdiff_model::{EffectiveAgentConfig, Harness};
use pulldown_cmark::{Event, Parser, Tag};
use serde::Serialize;

/// The packet's default budget in characters (Unicode scalar values):
/// 60,000, the spec-harness seed's `context.budget` default.
pub const DEFAULT_BUDGET_CHARS: usize = 60_000;

/// The version of the packet's JSON shape.
pub const PACKET_SCHEMA_VERSION: u32 = 1;

/// The context packet (`playbookdiff round context --format json`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextPacket {
    /// Always [`PACKET_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The brief, whole.
    pub brief: BriefDocument,
    /// `affectedFiles`: the files the round may write.
    pub may_write: Vec<PatternEntry>,
    /// `protectedFiles`: the files the round must not change.
    pub must_not_change: Vec<PatternEntry>,
    /// False when `affectedFiles` is missing or holds a pattern that
    /// cannot be read: the scope is then not known in full.
    pub scope_readable: bool,
    /// False when `protectedFiles` holds a pattern that cannot be read.
    pub protected_readable: bool,
    /// The rows of the `## Rulings` table as written, unverified: which
    /// count is `round rulings`' answer ([`crate::rulings`]).
    pub rulings: Vec<Ruling>,
    /// What could not be read in the brief, with 1-based lines.
    pub problems: Vec<BriefProblem>,
    /// What each registered agent receives in each launch directory the
    /// scope touches.
    pub agents: Vec<LaunchDirectory>,
    /// The documents the brief links to, in link order.
    pub documents: Vec<LinkedDocument>,
    /// The budget in characters: the brief's text and the inlined
    /// documents together stay within it.
    pub budget_chars: usize,
    /// Characters used: the brief's text plus the inlined documents.
    pub used_chars: usize,
}

/// The brief's identity and text.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BriefDocument {
    /// Front matter `id`.
    pub id: String,
    /// Repository-relative POSIX path of the brief's file.
    pub path: String,
    /// What named the brief.
    pub named_by: NamedBy,
    /// Front matter `title`.
    pub title: Option<String>,
    /// Front matter `status`, as written.
    pub status: Option<String>,
    /// Front matter `baseBranch`.
    pub base_branch: Option<String>,
    /// Front matter `outOfScope`.
    pub out_of_scope: OutOfScope,
    /// The whole file.
    pub text: String,
}

/// One pattern and, when it cannot be read, why.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PatternEntry {
    /// The pattern as written.
    pub pattern: String,
    /// Why it cannot be read; absent when it can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// A launch directory and what each agent receives there.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct LaunchDirectory {
    /// Repository-relative POSIX path; `.` for the root.
    pub cwd: String,
    /// One entry per registered harness, in registry order.
    pub harnesses: Vec<AgentReceives>,
}

/// What one agent receives in one launch directory, by name.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentReceives {
    /// The harness.
    pub harness: Harness,
    /// The instruction files, in context order (paths; an imported file
    /// once).
    pub instructions: Vec<String>,
    /// The skills' names.
    pub skills: Vec<String>,
    /// The MCP servers' names.
    pub mcp_servers: Vec<String>,
    /// The hooks, as `event` (`event matcher` when a matcher is set).
    pub hooks: Vec<String>,
    /// How many diagnostics the compilation has (`playbookdiff compile`
    /// lists them).
    pub diagnostics: usize,
}

/// A document the brief links to.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct LinkedDocument {
    /// Repository-relative POSIX path.
    pub path: String,
    /// Its length in characters; absent when it cannot be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chars: Option<usize>,
    /// Its text, when it fits in the budget; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Why it cannot be read; absent when it can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// What [`build`] assembles.
#[derive(Debug)]
pub struct PacketInputs<'a> {
    /// The brief.
    pub brief: &'a Brief,
    /// Repository-relative path of the brief's file.
    pub path: String,
    /// What named it.
    pub named_by: NamedBy,
    /// Each launch directory with the configurations compiled there.
    pub configs: Vec<(String, Vec<EffectiveAgentConfig>)>,
    /// Each linked document ([`linked_documents`]) with its text or why
    /// it cannot be read.
    pub documents: Vec<(String, Result<String, String>)>,
    /// The budget in characters.
    pub budget_chars: usize,
}

/// Assembles the packet. Documents are inlined in link order while the
/// brief's text and the documents inlined so far leave room for the
/// whole document; one that does not fit is named by path and a later,
/// shorter one may still be inlined.
pub fn build(inputs: PacketInputs<'_>) -> ContextPacket {
    let brief = inputs.brief;
    let mut used = brief.text.chars().count();
    let documents = inputs
        .documents
        .into_iter()
        .map(|(path, text)| place(path, text, &mut used, inputs.budget_chars))
        .collect();
    ContextPacket {
        schema_version: PACKET_SCHEMA_VERSION,
        brief: BriefDocument {
            id: brief.id.clone(),
            path: inputs.path,
            named_by: inputs.named_by,
            title: brief.title.clone(),
            status: brief.status.clone(),
            base_branch: brief.base_branch.clone(),
            out_of_scope: brief.out_of_scope,
            text: brief.text.clone(),
        },
        may_write: entries(&brief.affected_files),
        must_not_change: entries(&brief.protected_files),
        scope_readable: !brief.scope_unreadable(),
        protected_readable: !brief.protected_unreadable(),
        rulings: brief.rulings.clone(),
        problems: brief.problems.clone(),
        agents: inputs
            .configs
            .iter()
            .map(|(cwd, c)| launch_directory(cwd, c))
            .collect(),
        documents,
        budget_chars: inputs.budget_chars,
        used_chars: used,
    }
}

fn place(
    path: String,
    text: Result<String, String>,
    used: &mut usize,
    budget: usize,
) -> LinkedDocument {
    match text {
        Err(problem) => LinkedDocument {
            path,
            chars: None,
            text: None,
            problem: Some(problem),
        },
        Ok(text) => {
            let chars = text.chars().count();
            let fits = *used + chars <= budget;
            if fits {
                *used += chars;
            }
            LinkedDocument {
                path,
                chars: Some(chars),
                text: fits.then_some(text),
                problem: None,
            }
        }
    }
}

fn entries(patterns: &[FilePattern]) -> Vec<PatternEntry> {
    patterns
        .iter()
        .map(|p| PatternEntry {
            pattern: p.raw.clone(),
            problem: p.problem().map(str::to_string),
        })
        .collect()
}

fn launch_directory(cwd: &str, configs: &[EffectiveAgentConfig]) -> LaunchDirectory {
    let harnesses = configs
        .iter()
        .map(|c| AgentReceives {
            harness: c.harness,
            instructions: dedup(c.instructions.iter().map(|i| i.source.path.to_string())),
            skills: c.skills.iter().map(|s| s.name.clone()).collect(),
            mcp_servers: c.mcp_servers.iter().map(|m| m.name.clone()).collect(),
            hooks: c
                .hooks
                .iter()
                .map(|h| match &h.matcher {
                    Some(m) if !m.is_empty() => format!("{} {m}", h.event),
                    _ => h.event.clone(),
                })
                .collect(),
            diagnostics: c.diagnostics.len(),
        })
        .collect();
    LaunchDirectory {
        cwd: if cwd.is_empty() {
            ".".to_string()
        } else {
            cwd.to_string()
        },
        harnesses,
    }
}

fn dedup(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The launch directories the scope touches: the base directory of each
/// readable `affectedFiles` pattern ([`FilePattern::base_directory`]),
/// deduplicated, in pattern order (empty for the repository root). The
/// caller moves one that does not exist up to its nearest existing
/// ancestor.
pub fn launch_directories(brief: &Brief) -> Vec<String> {
    dedup(
        brief
            .affected_files
            .iter()
            .filter_map(FilePattern::base_directory),
    )
}

/// The repository-relative paths of the documents the brief's body links
/// to: Markdown links whose destination is a relative path (no scheme, no
/// leading `/`), without their `#fragment`, resolved from `brief_dir`
/// (the brief's folder, repository-relative), deduplicated in link order.
/// A link that leaves the repository through `..` is left out, as is one
/// to the brief itself.
pub fn linked_documents(brief_text: &str, brief_dir: &str, brief_path: &str) -> Vec<String> {
    let links = Parser::new(brief_text).filter_map(|e| match e {
        Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
        _ => None,
    });
    let paths = links.filter_map(|url| {
        let path = url.split('#').next().unwrap_or_default();
        let external = path.contains(':') || path.starts_with('/') || path.is_empty();
        if external {
            return None;
        }
        normalize(brief_dir, path).filter(|p| p != brief_path)
    });
    dedup(paths)
}

/// `base/rel` with `.` and `..` resolved; `None` when it leaves the root.
fn normalize(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/")).filter(|p| !p.is_empty())
}

/// The JSON Schema (draft 2020-12) of [`ContextPacket`], pretty-printed,
/// ending with a newline (`schema/round-context.schema.json`).
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(ContextPacket);
    let mut out = serde_json::to_string_pretty(&schema).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRIEF: &str =
        "---\nid: a\naffectedFiles: [src/auth/**, src/auth/x.rs, docs/a.md, /abs]\n---\n\
        See [one](../docs/one.md), [two](../docs/two.md#part), [web](https://example.com),\n\
        [root](/etc/x), [out](../../x.md), [self](a.md), [again](../docs/one.md).\n";

    #[test]
    fn linked_documents_resolve_from_the_brief_folder() {
        let docs = linked_documents(BRIEF, "briefs", "briefs/a.md");
        assert_eq!(docs, ["docs/one.md", "docs/two.md"]);
    }

    #[test]
    fn launch_directories_follow_the_readable_patterns() {
        let brief = crate::brief::parse(BRIEF);
        assert_eq!(launch_directories(&brief), ["src/auth", "docs"]);
    }

    #[test]
    fn documents_fill_the_budget_in_link_order() {
        let brief = crate::brief::parse(BRIEF);
        let brief_chars = BRIEF.chars().count();
        let doc = |n: usize| Ok("é".repeat(n));
        let packet = build(PacketInputs {
            brief: &brief,
            path: "briefs/a.md".into(),
            named_by: NamedBy::Argument,
            configs: Vec::new(),
            documents: vec![
                ("one".into(), doc(10)),
                ("big".into(), doc(100)),
                ("gone".into(), Err("it does not exist".into())),
                ("two".into(), doc(20)),
            ],
            // Room for the brief and 30 characters (60 bytes of `é`).
            budget_chars: brief_chars + 30,
        });
        let inlined: Vec<(&str, bool)> = packet
            .documents
            .iter()
            .map(|d| (d.path.as_str(), d.text.is_some()))
            .collect();
        assert_eq!(
            inlined,
            [
                ("one", true),
                ("big", false),
                ("gone", false),
                ("two", true)
            ]
        );
        assert_eq!(packet.documents[1].chars, Some(100));
        assert_eq!(
            packet.documents[2].problem.as_deref(),
            Some("it does not exist")
        );
        assert_eq!(packet.used_chars, brief_chars + 30);
        assert!(!packet.scope_readable && packet.protected_readable);
        assert_eq!(packet.may_write[3].pattern, "/abs");
        assert!(packet.may_write[3].problem.is_some());
    }
}

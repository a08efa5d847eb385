//! What each agent receives at startup when launched in each directory of
//! `check --all-dirs`: the HTML report's pane per launch directory
//! (docs/html.md).
//!
//! A directory's pane lists, per harness, the instructions in the order the
//! agent receives them, the skills and the MCP servers that arrive when the
//! session starts ([`Reception::Startup`] and [`Reception::Conditional`]),
//! and counts those that arrive only once the agent touches a path
//! ([`Reception::OnDemand`]); items not received from the directory are
//! left out. The same item reaches many directories (the root's
//! `CLAUDE.md`, a skill), and many directories receive the same list, so
//! [`Received`] stores every item once and every list once, and a
//! directory names its lists by index ([`Receives`]). On the
//! 100,000-file benchmark (339 launch directories, six harnesses) that is
//! what keeps the report small (docs/performance.md).

use crate::state::Reception;
use playbookdiff_model::{EffectiveAgentConfig, Harness, InstructionKind, SourceRef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The surface an item of a pane belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    /// An instruction file or rule.
    Instruction,
    /// A skill.
    Skill,
    /// An MCP server.
    McpServer,
}

/// One item a harness receives at startup from some launch directory, as
/// a pane lists it: what and where, not why (the reason depends on the
/// directory; `check --cwd DIR` gives it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceivedItem {
    /// The harness that receives it.
    pub harness: Harness,
    /// Instruction, skill or MCP server.
    pub surface: Surface,
    /// For an instruction, its kind (`memory`, `agents-md`, `rule`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<InstructionKind>,
    /// For a skill or an MCP server, its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The file and 1-based lines it comes from.
    pub source: SourceRef,
    /// `startup`, or `conditional` when it arrives at startup only under
    /// something the analysis cannot know (an approval, a runtime state).
    pub reception: Reception,
}

/// What one harness receives in one launch directory: indexes into
/// [`Received::lists`], and the count of items it receives on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Receives {
    /// The instructions, in the order the agent receives them.
    pub instructions: u32,
    /// The skills, in the configuration's order.
    pub skills: u32,
    /// The MCP servers, in the configuration's order.
    pub mcp_servers: u32,
    /// How many instructions, skills and MCP servers arrive only once the
    /// agent touches a path (listed by `check --cwd DIR`).
    pub on_demand: u32,
}

/// Every item and every list of items the panes of `check --all-dirs`
/// name, each once, in the order of the directories (path order) that
/// first name them. Empty for any other command.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Received {
    /// The items.
    pub items: Vec<ReceivedItem>,
    /// Lists of indexes into `items`.
    pub lists: Vec<Vec<u32>>,
}

impl Received {
    /// True when no pane was recorded.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.lists.is_empty()
    }
}

/// One harness's pane in one directory before its items are stored once:
/// what a worker makes from the configurations it then drops.
#[derive(Clone, Debug, PartialEq)]
pub struct Pane {
    harness: Harness,
    instructions: Vec<ReceivedItem>,
    skills: Vec<ReceivedItem>,
    mcp_servers: Vec<ReceivedItem>,
    on_demand: u32,
}

/// The panes of one launch directory, one per configuration.
pub fn panes(configs: &[EffectiveAgentConfig]) -> Vec<Pane> {
    configs.iter().map(pane).collect()
}

fn pane(c: &EffectiveAgentConfig) -> Pane {
    let mut p = Pane {
        harness: c.harness,
        instructions: Vec::new(),
        skills: Vec::new(),
        mcp_servers: Vec::new(),
        on_demand: 0,
    };
    let mut instructions: Vec<_> = c.instructions.iter().collect();
    instructions.sort_by_key(|i| i.order.unwrap_or(u32::MAX));
    let items = instructions
        .into_iter()
        .map(|i| {
            let r = Reception::of(i.load_phase, i.applicability);
            (r, Surface::Instruction, Some(i.kind), None, &i.source)
        })
        .chain(c.skills.iter().map(|s| {
            let r = Reception::of(s.load_phase, s.applicability);
            (r, Surface::Skill, None, Some(&s.name), &s.source)
        }))
        .chain(c.mcp_servers.iter().map(|m| {
            let r = Reception::of(m.load_phase, m.applicability);
            (r, Surface::McpServer, None, Some(&m.name), &m.source)
        }));
    for (reception, surface, kind, name, source) in items {
        match reception {
            Reception::OnDemand => p.on_demand += 1,
            Reception::NotLoaded => {}
            Reception::Startup | Reception::Conditional => p.list_mut(surface).push(ReceivedItem {
                harness: c.harness,
                surface,
                kind,
                name: name.cloned(),
                source: source.clone(),
                reception,
            }),
        }
    }
    p
}

impl Pane {
    fn list_mut(&mut self, s: Surface) -> &mut Vec<ReceivedItem> {
        match s {
            Surface::Instruction => &mut self.instructions,
            Surface::Skill => &mut self.skills,
            Surface::McpServer => &mut self.mcp_servers,
        }
    }
}

/// Stores items and lists once, in the order they are first added.
#[derive(Debug, Default)]
pub(crate) struct ReceivedBuilder {
    out: Received,
    items: HashMap<ReceivedItem, u32>,
    lists: HashMap<Vec<u32>, u32>,
}

impl ReceivedBuilder {
    /// Stores the items and lists of `panes` and returns what each harness
    /// receives, by index.
    pub(crate) fn add(&mut self, panes: Vec<Pane>) -> BTreeMap<Harness, Receives> {
        panes
            .into_iter()
            .map(|p| {
                let receives = Receives {
                    instructions: self.list(p.instructions),
                    skills: self.list(p.skills),
                    mcp_servers: self.list(p.mcp_servers),
                    on_demand: p.on_demand,
                };
                (p.harness, receives)
            })
            .collect()
    }

    fn list(&mut self, items: Vec<ReceivedItem>) -> u32 {
        let indexes: Vec<u32> = items.into_iter().map(|i| self.item(i)).collect();
        let next = self.out.lists.len() as u32;
        *self.lists.entry(indexes).or_insert_with_key(|l| {
            self.out.lists.push(l.clone());
            next
        })
    }

    fn item(&mut self, item: ReceivedItem) -> u32 {
        let next = self.out.items.len() as u32;
        *self.items.entry(item).or_insert_with_key(|i| {
            self.out.items.push(i.clone());
            next
        })
    }

    /// Everything stored, numbered again in the order `receives` (each
    /// directory's, in path order) first names each list and item, which
    /// `receives` is changed to: so the numbers do not depend on the order
    /// directories were added in ([`crate::matrix::MatrixBuilder::finish`]).
    pub(crate) fn finish<'a>(
        self,
        receives: impl Iterator<Item = &'a mut BTreeMap<Harness, Receives>>,
    ) -> Received {
        let mut n = Renumber {
            from: self.out,
            out: Received::default(),
            items: HashMap::new(),
            lists: HashMap::new(),
        };
        for r in receives.flat_map(|m| m.values_mut()) {
            r.instructions = n.list(r.instructions);
            r.skills = n.list(r.skills);
            r.mcp_servers = n.list(r.mcp_servers);
        }
        n.out
    }
}

/// [`ReceivedBuilder::finish`]'s new numbers of lists and items.
struct Renumber {
    from: Received,
    out: Received,
    items: HashMap<u32, u32>,
    lists: HashMap<u32, u32>,
}

impl Renumber {
    fn list(&mut self, old: u32) -> u32 {
        if let Some(&new) = self.lists.get(&old) {
            return new;
        }
        let list = std::mem::take(&mut self.from.lists[old as usize]);
        let list = list.into_iter().map(|i| self.item(i)).collect();
        self.out.lists.push(list);
        let new = self.out.lists.len() as u32 - 1;
        self.lists.insert(old, new);
        new
    }

    fn item(&mut self, old: u32) -> u32 {
        let next = self.out.items.len() as u32;
        *self.items.entry(old).or_insert_with(|| {
            self.out.items.push(self.from.items[old as usize].clone());
            next
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::MatrixBuilder;
    use crate::{Comparison, Summary};
    use playbookdiff_model::{RepoPath, SourceFormat};

    const CODEX: Harness = Harness::new("codex", "Codex");

    fn item(h: Harness, path: &str) -> ReceivedItem {
        ReceivedItem {
            harness: h,
            surface: Surface::Instruction,
            kind: Some(InstructionKind::AgentsMd),
            name: None,
            source: SourceRef::project(RepoPath::new(path).unwrap(), SourceFormat::Markdown),
            reception: Reception::Startup,
        }
    }

    /// Codex's pane in a directory whose chain of `AGENTS.md` is `chain`.
    fn codex(chain: &[&str]) -> Vec<Pane> {
        vec![Pane {
            harness: CODEX,
            instructions: chain.iter().map(|p| item(CODEX, p)).collect(),
            skills: Vec::new(),
            mcp_servers: Vec::new(),
            on_demand: 0,
        }]
    }

    fn none() -> Comparison {
        Comparison {
            harnesses: vec![CODEX],
            refused: Vec::new(),
            rows: Vec::new(),
            findings: Vec::new(),
            summary: Summary::default(),
        }
    }

    /// The matrix of `dirs` (directory, its `AGENTS.md` chain) added in
    /// the order given.
    fn matrix(dirs: &[(&str, &[&str])]) -> crate::matrix::Matrix {
        let mut b = MatrixBuilder::new();
        for (dir, chain) in dirs {
            b.add_with_panes(RepoPath::new(dir).unwrap(), none(), codex(chain));
        }
        b.finish()
    }

    #[test]
    fn items_and_lists_are_stored_once_in_path_order_whatever_the_order_added() {
        let root: (&str, &[&str]) = (".", &["AGENTS.md"]);
        let a: (&str, &[&str]) = ("a", &["AGENTS.md", "a/AGENTS.md"]);
        let b: (&str, &[&str]) = ("b", &["AGENTS.md"]);
        let m = matrix(&[b, a, root]);
        assert_eq!(m, matrix(&[root, a, b]));
        // `AGENTS.md` once, `a/AGENTS.md` once; the root and `b` share a
        // list; the empty skills and MCP lists are one list.
        assert_eq!(m.received.items.len(), 2);
        assert_eq!(m.received.lists, [vec![0], vec![], vec![0, 1]]);
        let lists: Vec<u32> = m
            .directories
            .iter()
            .map(|d| d.receives[&CODEX].instructions)
            .collect();
        assert_eq!(lists, [0, 2, 0]);
        // Without panes, nothing is recorded.
        let mut plain = MatrixBuilder::new();
        plain.add(RepoPath::root(), none());
        assert!(plain.finish().received.is_empty());
    }
}

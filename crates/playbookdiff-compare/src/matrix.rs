//! Many launch directories at once: findings merged by id across
//! directories, and grouped so that a monorepo with hundreds of packages
//! gives a short answer ("in 14 of 22 directories Codex receives the
//! directory's own `AGENTS.md` text, which Claude Code has nothing
//! equivalent for").
//!
//! [`MatrixBuilder`] takes one directory's [`Comparison`] at a time and
//! keeps only what the report needs: each finding once (as seen from the
//! first directory in path order), the directories where it occurs, and
//! per directory the ids and counts. The aligned rows and every other
//! directory's copy of a finding are dropped as soon as they arrive, so
//! memory follows the number of distinct findings, not directories times
//! items.
//!
//! A group is one logical key: the category, the type, the direction and,
//! for instructions, where the file lies. A file at a fixed path (the
//! root's `CLAUDE.md`, `.claude/rules/a.md`) is its own group, whatever the
//! number of directories it reaches; a file that only the directory it
//! belongs to reaches (each package's own `AGENTS.md`) groups with the
//! same file of the other packages; files of many directories below one
//! launch directory (what the root receives on demand) group per launch
//! directory. The sentence, the directory list and the example id of a
//! group therefore always describe the same files.

use crate::finding::*;
use crate::received::{Pane, Received, ReceivedBuilder, Receives};
use crate::{code_span, names, Comparison};
use playbookdiff_model::{Harness, RepoPath};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A finding and the launch directories where it occurs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatrixFinding {
    /// The finding, as seen from the first directory (in path order) where
    /// it occurs.
    #[serde(flatten)]
    pub finding: Finding,
    /// The launch directories where it occurs, in path order.
    pub directories: Vec<RepoPath>,
}

/// Findings of one logical key across directories.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    /// What it is about.
    pub category: Category,
    /// The kind of difference.
    #[serde(rename = "type")]
    pub kind: FindingType,
    /// The worst severity among its findings.
    pub severity: FindingSeverity,
    /// Harnesses that have the items.
    pub present_in: Vec<Harness>,
    /// Harnesses that lack them.
    pub absent_from: Vec<Harness>,
    /// One sentence, without the count of directories.
    pub summary: String,
    /// The launch directories where a finding of the group occurs.
    pub directories: Vec<RepoPath>,
    /// The ids of its findings.
    pub findings: Vec<String>,
}

/// One checked launch directory: the ids of its findings and their counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DirectoryFindings {
    /// The launch directory.
    pub cwd: RepoPath,
    /// The ids of its findings, in the comparison's order.
    pub findings: Vec<String>,
    /// Its findings counted by severity.
    pub summary: Summary,
    /// What each harness receives there at startup, by index into
    /// [`Matrix::received`] (empty unless the directory was added with its
    /// panes).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub receives: BTreeMap<Harness, Receives>,
}

/// The findings of every checked directory, merged and grouped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    /// Every checked launch directory, in path order.
    pub directories: Vec<DirectoryFindings>,
    /// Every finding once, with the directories where it occurs.
    pub findings: Vec<MatrixFinding>,
    /// The findings grouped by logical key, largest first.
    pub groups: Vec<Group>,
    /// Unique findings counted by severity.
    pub summary: Summary,
    /// The items and lists the directories' `receives` name (empty when
    /// no directory was added with its panes).
    #[serde(default, skip_serializing_if = "Received::is_empty")]
    pub received: Received,
}

impl Matrix {
    /// The finding with id `id`.
    pub fn finding(&self, id: &str) -> Option<&MatrixFinding> {
        self.findings.iter().find(|f| f.finding.id == id)
    }
}

/// Merges the comparisons of launch directories one at a time, in any
/// order; the result does not depend on the order.
#[derive(Debug, Default)]
pub struct MatrixBuilder {
    directories: Vec<DirectoryFindings>,
    /// By id: the first directory (in path order) seen so far, and the
    /// finding as seen from there.
    by_id: HashMap<String, (RepoPath, MatrixFinding)>,
    /// The items and lists of the panes added so far.
    received: ReceivedBuilder,
}

impl MatrixBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the comparison of launch directory `cwd`, keeping its findings
    /// (each id once) and dropping everything else.
    pub fn add(&mut self, cwd: RepoPath, comparison: Comparison) {
        self.add_with_panes(cwd, comparison, Vec::new());
    }

    /// [`MatrixBuilder::add`], keeping also what each harness receives at
    /// startup there (`panes`, from [`crate::received::panes`]), each item
    /// and list stored once.
    pub fn add_with_panes(&mut self, cwd: RepoPath, comparison: Comparison, panes: Vec<Pane>) {
        let ids: Vec<String> = comparison.findings.iter().map(|f| f.id.clone()).collect();
        self.directories.push(DirectoryFindings {
            cwd: cwd.clone(),
            findings: ids,
            summary: comparison.summary,
            receives: self.received.add(panes),
        });
        for f in comparison.findings {
            match self.by_id.get_mut(&f.id) {
                Some((first, m)) => {
                    if cwd < *first {
                        *first = cwd.clone();
                        m.finding = f;
                    }
                    m.directories.push(cwd.clone());
                }
                None => {
                    let directories = vec![cwd.clone()];
                    self.by_id.insert(
                        f.id.clone(),
                        (
                            cwd.clone(),
                            MatrixFinding {
                                finding: f,
                                directories,
                            },
                        ),
                    );
                }
            }
        }
    }

    /// The merged and grouped findings.
    pub fn finish(self) -> Matrix {
        let mut directories = self.directories;
        directories.sort_by(|a, b| a.cwd.cmp(&b.cwd));
        // Numbered again in path order, so the indexes do not depend on
        // the order directories were added in.
        let received = self
            .received
            .finish(directories.iter_mut().map(|d| &mut d.receives));
        let mut findings: Vec<MatrixFinding> = self.by_id.into_values().map(|(_, m)| m).collect();
        for f in &mut findings {
            f.directories.sort();
            f.directories.dedup();
        }
        // Ids are unique, so no two findings compare equal and an unstable
        // sort gives the one order.
        findings.sort_unstable_by(|a, b| {
            (a.finding.category, a.finding.severity, &a.finding.id).cmp(&(
                b.finding.category,
                b.finding.severity,
                &b.finding.id,
            ))
        });
        let groups = group(&findings);
        let summary = Summary::of(findings.iter().map(|f| &f.finding));
        Matrix {
            directories,
            findings,
            groups,
            summary,
            received,
        }
    }
}

/// Merges the comparisons of `dirs` (launch directory, comparison).
pub fn aggregate(dirs: &[(RepoPath, Comparison)]) -> Matrix {
    let mut b = MatrixBuilder::new();
    for (dir, c) in dirs {
        b.add(dir.clone(), c.clone());
    }
    b.finish()
}

/// Where the files of an instruction finding lie, relative to the launch
/// directories that receive them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Place {
    /// Not about files (skills, MCP servers: grouped by kind).
    Names,
    /// These repository files, whatever directories reach them.
    Fixed(Vec<String>),
    /// The launch directory's own files, by path relative to it.
    Own(Vec<String>),
    /// Files of directories below one launch directory, by path relative
    /// to their directory.
    Below(RepoPath, Vec<String>),
}

type Key = (Category, FindingType, Vec<Harness>, Vec<Harness>, Place);

/// The evidence files of `f`: the present side's, else every item's, each
/// once in item order (links resolved).
fn files(f: &Finding) -> Vec<&RepoPath> {
    let present: Vec<&FindingItem> = f
        .items
        .iter()
        .filter(|i| f.present_in.contains(&i.harness))
        .collect();
    let items: Vec<&FindingItem> = if present.is_empty() || f.kind == FindingType::Unknown {
        f.items.iter().collect()
    } else {
        present
    };
    let mut out: Vec<&RepoPath> = Vec::new();
    for i in items {
        let p = i.source.resolved_path.as_ref().unwrap_or(&i.source.path);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

fn fixed(f: &Finding) -> Place {
    Place::Fixed(files(f).iter().map(|p| p.to_string()).collect())
}

/// The place of `m` before singletons are folded back to fixed paths.
fn place(m: &MatrixFinding) -> Place {
    let f = &m.finding;
    if f.category != Category::Instruction {
        return Place::Names;
    }
    let (Some(scope), [dir]) = (&f.scope, m.directories.as_slice()) else {
        return fixed(f);
    };
    let rel: Option<Vec<String>> = files(f)
        .iter()
        .map(|p| {
            p.strip_prefix(scope)
                .filter(|r| !r.is_empty())
                .map(str::to_string)
        })
        .collect();
    match rel {
        Some(rel) if scope == dir => Place::Own(rel),
        Some(rel) if scope.starts_with(dir) => Place::Below(dir.clone(), rel),
        _ => fixed(f),
    }
}

fn group_key(f: &Finding, place: Place) -> Key {
    (
        f.category,
        f.kind,
        f.present_in.clone(),
        f.absent_from.clone(),
        place,
    )
}

/// `a`, `b` and `c`: each quoted as code.
fn quoted(v: &[String]) -> String {
    let q: Vec<String> = v.iter().map(|x| code_span(x)).collect();
    match q.len() {
        0 => String::new(),
        1 => q[0].clone(),
        _ => format!("{} and {}", q[..q.len() - 1].join(", "), q[q.len() - 1]),
    }
}

/// At most `max` items quoted, then `+N more`.
fn some(v: &[String], max: usize) -> String {
    let shown: Vec<String> = v.iter().take(max).map(|n| code_span(n)).collect();
    let more = v.len().saturating_sub(max);
    if more > 0 {
        format!("{}, +{more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

fn plural(hs: &[Harness], one: &str, many: &str) -> String {
    if hs.len() == 1 { one } else { many }.to_string()
}

/// The files of a group as the subject of a sentence; `scopes` are the
/// scope directories of its findings (for files below a launch
/// directory).
fn subject(place: &Place, scopes: &[String]) -> String {
    match place {
        Place::Names => String::new(),
        Place::Fixed(files) => quoted(files),
        Place::Own(files) => format!("the launch directory's own {}", quoted(files)),
        Place::Below(_, files) => format!(
            "the {} of {} below the launch directory ({})",
            quoted(files),
            playbookdiff_model::remedy::count(scopes.len(), "directory", "directories"),
            some(scopes, 3)
        ),
    }
}

fn group_summary(key: &Key, first: &Finding, item_names: &[String], scopes: &[String]) -> String {
    let (category, kind, present_in, absent_from, place) = key;
    let present = names(present_in);
    let absent = names(absent_from);
    match (category, kind) {
        (Category::Instruction, FindingType::Missing) => format!(
            "{present} {} the text of {}, which {absent} {} nothing equivalent for",
            plural(present_in, "receives", "receive"),
            subject(place, scopes),
            plural(absent_from, "has", "have")
        ),
        (Category::Instruction, FindingType::ScopeGap) => format!(
            "{} {} {present} sooner than {absent} (later, only after an approval, or never)",
            subject(place, scopes),
            if matches!(place, Place::Below(..)) {
                "reach"
            } else {
                "reaches"
            }
        ),
        (Category::Instruction, _) => format!(
            "the text of {} is worded differently for {present}",
            subject(place, scopes)
        ),
        (Category::Skill, FindingType::CapabilityGap) if !absent_from.is_empty() => {
            format!("skills only {present} can use: {}", some(item_names, 6))
        }
        (Category::Skill, FindingType::ScopeGap) => format!(
            "skills {present} {} sooner than {absent}: {}",
            plural(present_in, "has", "have"),
            some(item_names, 6)
        ),
        (Category::Mcp, FindingType::CapabilityGap) => format!(
            "MCP servers configured for {present} only: {}",
            some(item_names, 6)
        ),
        (Category::Subagent, FindingType::CapabilityGap) => {
            format!("subagents only {present} can call: {}", some(item_names, 6))
        }
        (Category::Permission, FindingType::CapabilityGap) => {
            format!("actions refused by {present} only: {}", some(item_names, 6))
        }
        (Category::Agent, _) => format!(
            "{absent} would not start: {} the configuration in {}",
            plural(absent_from, "it refuses", "they refuse"),
            some(item_names, 6)
        ),
        (c, k) => format!(
            "{} {} between {}: {}",
            c.title(),
            k.label(),
            names(&[first.present_in.clone(), first.absent_from.clone()].concat()),
            some(item_names, 6)
        ),
    }
}

/// Groups `findings` by logical key.
fn group(findings: &[MatrixFinding]) -> Vec<Group> {
    // A place shared by a single finding reads best as its full path.
    let mut keys: Vec<Key> = findings
        .iter()
        .map(|f| group_key(&f.finding, place(f)))
        .collect();
    let single: Vec<usize> = {
        let mut count: HashMap<&Key, usize> = HashMap::new();
        for k in &keys {
            *count.entry(k).or_default() += 1;
        }
        keys.iter()
            .enumerate()
            .filter(|(_, k)| matches!(k.4, Place::Own(_) | Place::Below(..)) && count[k] == 1)
            .map(|(i, _)| i)
            .collect()
    };
    for i in single {
        keys[i].4 = fixed(&findings[i].finding);
    }
    let mut groups: BTreeMap<Key, Vec<&MatrixFinding>> = BTreeMap::new();
    for (f, k) in findings.iter().zip(keys) {
        groups.entry(k).or_default().push(f);
    }
    let built: Vec<(Key, Group)> = groups
        .into_iter()
        .map(|(key, fs)| {
            // Each directory copied once, after sorting the borrowed ones.
            let mut directories: Vec<&RepoPath> =
                fs.iter().flat_map(|f| f.directories.iter()).collect();
            directories.sort_unstable();
            directories.dedup();
            let directories: Vec<RepoPath> = directories.into_iter().cloned().collect();
            let mut item_names: Vec<String> = fs
                .iter()
                .map(|f| f.finding.item_name().to_string())
                .collect();
            item_names.sort();
            item_names.dedup();
            let mut scopes: Vec<String> = fs
                .iter()
                .filter_map(|f| f.finding.scope.as_ref().map(|s| s.to_string()))
                .collect();
            scopes.sort();
            scopes.dedup();
            let g = Group {
                category: key.0,
                kind: key.1,
                severity: fs
                    .iter()
                    .map(|f| f.finding.severity)
                    .min()
                    .expect("non-empty"),
                present_in: key.2.clone(),
                absent_from: key.3.clone(),
                summary: group_summary(&key, &fs[0].finding, &item_names, &scopes),
                directories,
                findings: fs.iter().map(|f| f.finding.id.clone()).collect(),
            };
            (key, g)
        })
        .collect();
    let mut out = merge_siblings(built);
    out.sort_by(|a, b| {
        (
            a.severity,
            std::cmp::Reverse(a.directories.len()),
            a.category,
            a.kind,
        )
            .cmp(&(
                b.severity,
                std::cmp::Reverse(b.directories.len()),
                b.category,
                b.kind,
            ))
            .then_with(|| a.summary.cmp(&b.summary))
    });
    out
}

/// Merges instruction groups of one file each whose files are siblings
/// (`.claude/rules/a.md`, `.claude/rules/b.md`) and that concern the same
/// directories with the same kind and direction, so that ten rules files
/// read as one line.
fn merge_siblings(groups: Vec<(Key, Group)>) -> Vec<Group> {
    type SiblingKey = (
        Category,
        FindingType,
        Vec<Harness>,
        Vec<Harness>,
        bool,
        String,
        Vec<RepoPath>,
    );
    let mut merged: BTreeMap<SiblingKey, Vec<(String, Group)>> = BTreeMap::new();
    let mut out = Vec::new();
    for (key, g) in groups {
        let (own, file) = match &key.4 {
            Place::Fixed(f) if f.len() == 1 => (false, f[0].clone()),
            Place::Own(f) if f.len() == 1 => (true, f[0].clone()),
            _ => {
                out.push(g);
                continue;
            }
        };
        let Some((parent, _)) = file.rsplit_once('/') else {
            out.push(g);
            continue;
        };
        if !matches!(g.kind, FindingType::Missing | FindingType::ScopeGap) {
            out.push(g);
            continue;
        }
        merged
            .entry((
                g.category,
                g.kind,
                g.present_in.clone(),
                g.absent_from.clone(),
                own,
                parent.to_string(),
                g.directories.clone(),
            ))
            .or_default()
            .push((file, g));
    }
    for (key, gs) in merged {
        if gs.len() == 1 {
            out.extend(gs.into_iter().map(|(_, g)| g));
            continue;
        }
        let files: Vec<String> = gs
            .iter()
            .map(|(p, _)| p.rsplit('/').next().unwrap_or(p).to_string())
            .collect();
        let shown = files.iter().take(4).cloned().collect::<Vec<_>>().join(", ");
        let more = files.len().saturating_sub(4);
        let names_list = if more > 0 {
            format!("{shown}, +{more} more")
        } else {
            shown
        };
        let mut g = gs[0].1.clone();
        g.severity = gs.iter().map(|(_, g)| g.severity).min().expect("non-empty");
        g.findings = gs.iter().flat_map(|(_, g)| g.findings.clone()).collect();
        let label = format!(
            "{} in {}{} ({names_list})",
            playbookdiff_model::remedy::count(files.len(), "file", "files"),
            if key.4 {
                "the launch directory's own "
            } else {
                ""
            },
            code_span(&format!("{}/", key.5))
        );
        g.summary = group_summary_files(&g, &label);
        out.push(g);
    }
    out
}

fn group_summary_files(g: &Group, label: &str) -> String {
    let present = names(&g.present_in);
    let absent = names(&g.absent_from);
    match g.kind {
        FindingType::Missing => format!(
            "{present} {} the text of {label} that {absent} {} nothing equivalent for",
            plural(&g.present_in, "receives", "receive"),
            plural(&g.absent_from, "has", "have")
        ),
        FindingType::ScopeGap => {
            format!("{label} reach {present} sooner than {absent} (later or never)")
        }
        _ => format!("{label}: {} {}", g.category.as_str(), g.kind.label()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_model::{Applicability, LoadPhase, SourceFormat, SourceRef};
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");
    const CODEX: playbookdiff_model::Harness = playbookdiff_model::Harness::new("codex", "Codex");

    fn rp(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    /// A Claude Code-only `missing` finding about `path`, in scope `scope`.
    fn missing(path: &str, scope: &str, phase: LoadPhase) -> Finding {
        let key = format!("{scope}|{path}|{phase:?}");
        Finding {
            id: crate::id::finding_id(
                Category::Instruction,
                FindingType::Missing,
                "claude-code-only",
                &crate::id::dir_slug(&rp(scope)),
                &key,
            ),
            category: Category::Instruction,
            kind: FindingType::Missing,
            severity: FindingSeverity::Medium,
            actionable: true,
            present_in: vec![CLAUDE],
            absent_from: vec![CODEX],
            items: vec![FindingItem {
                harness: CLAUDE,
                id: path.to_string(),
                source: SourceRef::project(rp(path), SourceFormat::Markdown),
                load_phase: phase,
                applicability: Applicability::Effective,
                reason: "r".into(),
            }],
            message: format!("Claude Code receives `{path}`."),
            key,
            scope: Some(rp(scope)),
            absences: vec![],
            paragraphs: vec![],
            differences: vec![],
            remedies: vec![],
            accepted: None,
            problems: Vec::new(),
            subject: None,
        }
    }

    fn comparison(findings: Vec<Finding>) -> Comparison {
        Comparison {
            harnesses: vec![CLAUDE, CODEX],
            refused: vec![],
            rows: vec![],
            summary: Summary::of(&findings),
            findings,
        }
    }

    /// A monorepo seen from `.`, `a` and `b`: the root `CLAUDE.md`
    /// everywhere; `a/CLAUDE.md` and `b/CLAUDE.md` at startup in their own
    /// directory and on demand from the root.
    fn monorepo() -> Vec<(RepoPath, Comparison)> {
        use LoadPhase::{OnDemand, Startup};
        let root = missing("CLAUDE.md", ".", Startup);
        vec![
            (
                rp("."),
                comparison(vec![
                    root.clone(),
                    missing("a/CLAUDE.md", "a", OnDemand),
                    missing("b/CLAUDE.md", "b", OnDemand),
                ]),
            ),
            (
                rp("a"),
                comparison(vec![root.clone(), missing("a/CLAUDE.md", "a", Startup)]),
            ),
            (
                rp("b"),
                comparison(vec![root, missing("b/CLAUDE.md", "b", Startup)]),
            ),
        ]
    }

    #[test]
    fn files_of_the_same_name_at_different_paths_are_different_groups() {
        let m = aggregate(&monorepo());
        assert_eq!(m.groups.len(), 3, "{:#?}", m.groups);
        let root = m
            .groups
            .iter()
            .find(|g| g.summary.contains("text of `CLAUDE.md`"))
            .unwrap();
        assert_eq!(root.directories, [rp("."), rp("a"), rp("b")]);
        assert_eq!(root.findings.len(), 1);
        let own = m
            .groups
            .iter()
            .find(|g| g.summary.contains("the launch directory's own `CLAUDE.md`"))
            .unwrap();
        assert_eq!(own.directories, [rp("a"), rp("b")]);
        let below = m
            .groups
            .iter()
            .find(|g| {
                g.summary
                    .contains("of 2 directories below the launch directory (`a`, `b`)")
            })
            .unwrap();
        assert_eq!(below.directories, [rp(".")]);
    }

    #[test]
    fn every_group_sentence_directories_and_ids_agree() {
        let m = aggregate(&monorepo());
        for g in &m.groups {
            for id in &g.findings {
                let f = m.finding(id).unwrap();
                // Each finding of the group occurs in the group's
                // directories, and its file is named by the sentence (as a
                // path, or relative to its scope).
                assert!(f.directories.iter().all(|d| g.directories.contains(d)));
                let path = f.finding.items[0].source.path.as_str();
                let scope = f.finding.scope.as_ref().unwrap();
                assert!(
                    g.summary.contains(&format!("`{path}`"))
                        || (g.summary.contains("`CLAUDE.md`")
                            && (g.summary.contains("own") || g.summary.contains("below"))
                            && (g.summary.contains("own")
                                || g.summary.contains(&format!("`{scope}`")))),
                    "{} does not describe {path}",
                    g.summary
                );
            }
        }
    }

    #[test]
    fn one_directory_s_own_file_reads_as_its_path() {
        use LoadPhase::Startup;
        let dirs = vec![
            (rp("."), comparison(vec![])),
            (
                rp("a"),
                comparison(vec![missing("a/AGENTS.md", "a", Startup)]),
            ),
        ];
        let m = aggregate(&dirs);
        assert_eq!(m.groups.len(), 1);
        assert!(
            m.groups[0].summary.contains("the text of `a/AGENTS.md`,"),
            "{}",
            m.groups[0].summary
        );
    }

    #[test]
    fn the_result_does_not_depend_on_the_order_directories_arrive_in() {
        let dirs = monorepo();
        let forward = aggregate(&dirs);
        let mut b = MatrixBuilder::new();
        for (d, c) in dirs.iter().rev() {
            b.add(d.clone(), c.clone());
        }
        assert_eq!(b.finish(), forward);
        assert_eq!(
            forward
                .directories
                .iter()
                .map(|d| d.cwd.clone())
                .collect::<Vec<_>>(),
            [rp("."), rp("a"), rp("b")]
        );
    }

    #[test]
    fn the_builder_keeps_one_copy_of_each_finding_and_no_rows() {
        let m = aggregate(&monorepo());
        // CLAUDE.md, a and b on demand, a and b at startup.
        assert_eq!(m.findings.len(), 5);
        let root = m
            .findings
            .iter()
            .find(|f| f.finding.items[0].source.path.as_str() == "CLAUDE.md")
            .unwrap();
        assert_eq!(root.directories.len(), 3);
        assert_eq!(m.directories[0].findings.len(), 3);
    }
}

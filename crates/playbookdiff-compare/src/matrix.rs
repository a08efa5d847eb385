//! Many launch directories at once: findings merged by id across
//! directories, and grouped so that a monorepo with hundreds of packages
//! gives a short answer ("in 14 of 22 directories Codex receives
//! `AGENTS.md` text that Claude Code has nothing equivalent for").

use crate::finding::*;
use crate::{names, Comparison};
use playbookdiff_model::{Harness, RepoPath};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A finding and the launch directories where it occurs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatrixFinding {
    /// The finding, as first seen (directories in path order).
    #[serde(flatten)]
    pub finding: Finding,
    /// The launch directories where it occurs.
    pub directories: Vec<RepoPath>,
}

/// Findings of one kind across directories.
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

/// The findings of every checked directory, merged and grouped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    /// Every finding once, with the directories where it occurs.
    pub findings: Vec<MatrixFinding>,
    /// The findings grouped by kind and direction, largest first.
    pub groups: Vec<Group>,
    /// Unique findings counted by severity.
    pub summary: Summary,
}

/// What makes findings of different directories one group: category,
/// type, direction and (instructions) the evidence file's path relative to
/// the finding's scope directory (`CLAUDE.md`, `.claude/rules/x.md`).
fn group_key(f: &Finding) -> (Category, FindingType, Vec<Harness>, Vec<Harness>, String) {
    let pattern = match f.category {
        Category::Instruction => f
            .items
            .iter()
            .find(|i| f.present_in.contains(&i.harness))
            .or(f.items.first())
            .map(|i| {
                let p = i.source.resolved_path.as_ref().unwrap_or(&i.source.path);
                let scope = f.scope.clone().unwrap_or_else(RepoPath::root);
                match p.strip_prefix(&scope) {
                    Some(rel) if !rel.is_empty() => rel.to_string(),
                    _ => p.file_name().unwrap_or(".").to_string(),
                }
            })
            .unwrap_or_default(),
        _ => String::new(),
    };
    (
        f.category,
        f.kind,
        f.present_in.clone(),
        f.absent_from.clone(),
        pattern,
    )
}

fn group_summary(f: &Finding, pattern: &str, names_in_group: &[String]) -> String {
    let present = names(&f.present_in);
    let absent = names(&f.absent_from);
    let plural = |hs: &[Harness], one: &str, many: &str| {
        if hs.len() == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    let list = |v: &[String]| {
        let shown: Vec<String> = v.iter().take(6).map(|n| format!("`{n}`")).collect();
        let more = v.len().saturating_sub(6);
        if more > 0 {
            format!("{} (+{more} more)", shown.join(", "))
        } else {
            shown.join(", ")
        }
    };
    match (f.category, f.kind) {
        (Category::Instruction, FindingType::Missing) => format!(
            "{present} {} `{pattern}` text that {absent} {} nothing equivalent for",
            plural(&f.present_in, "receives", "receive"),
            plural(&f.absent_from, "has", "have")
        ),
        (Category::Instruction, FindingType::ScopeGap) => {
            format!("`{pattern}` reaches {present} sooner than {absent} (later, only after an approval, or never)")
        }
        (Category::Instruction, _) => {
            format!("`{pattern}` text is worded differently for {present}")
        }
        (Category::Skill, FindingType::CapabilityGap) if !f.absent_from.is_empty() => {
            format!("skills only {present} can use: {}", list(names_in_group))
        }
        (Category::Skill, FindingType::ScopeGap) => format!(
            "skills {present} {} sooner than {absent}: {}",
            plural(&f.present_in, "has", "have"),
            list(names_in_group)
        ),
        (Category::Mcp, FindingType::CapabilityGap) => format!(
            "MCP servers configured for {present} only: {}",
            list(names_in_group)
        ),
        (c, k) => format!(
            "{} {} between {}: {}",
            c.title(),
            k.label(),
            names(&[f.present_in.clone(), f.absent_from.clone()].concat()),
            list(names_in_group)
        ),
    }
}

/// Merges instruction groups whose files are siblings (`.claude/rules/a.md`,
/// `.claude/rules/b.md`) and that concern the same directories with the
/// same kind and direction, so that ten rules files read as one line.
fn merge_siblings(groups: Vec<(String, Group)>) -> Vec<Group> {
    type Key = (
        Category,
        FindingType,
        Vec<Harness>,
        Vec<Harness>,
        String,
        Vec<RepoPath>,
    );
    let mut merged: BTreeMap<Key, Vec<(String, Group)>> = BTreeMap::new();
    let mut out = Vec::new();
    for (pattern, g) in groups {
        let parent = match pattern.rsplit_once('/') {
            Some((p, _)) if g.category == Category::Instruction => p.to_string(),
            _ => {
                out.push(g);
                continue;
            }
        };
        merged
            .entry((
                g.category,
                g.kind,
                g.present_in.clone(),
                g.absent_from.clone(),
                parent,
                g.directories.clone(),
            ))
            .or_default()
            .push((pattern, g));
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
        let label = format!("{} files in `{}/` ({names_list})", files.len(), key.4);
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
            if g.present_in.len() == 1 {
                "receives"
            } else {
                "receive"
            },
            if g.absent_from.len() == 1 {
                "has"
            } else {
                "have"
            }
        ),
        FindingType::ScopeGap => {
            format!("{label} reach {present} sooner than {absent} (later or never)")
        }
        _ => format!("{label}: {} {}", g.category.as_str(), g.kind.label()),
    }
}

/// Merges the comparisons of `dirs` (launch directory, comparison).
pub fn aggregate(dirs: &[(RepoPath, Comparison)]) -> Matrix {
    let mut by_id: BTreeMap<String, MatrixFinding> = BTreeMap::new();
    for (dir, c) in dirs {
        for f in &c.findings {
            by_id
                .entry(f.id.clone())
                .or_insert_with(|| MatrixFinding {
                    finding: f.clone(),
                    directories: Vec::new(),
                })
                .directories
                .push(dir.clone());
        }
    }
    let mut findings: Vec<MatrixFinding> = by_id.into_values().collect();
    for f in &mut findings {
        f.directories.sort();
        f.directories.dedup();
    }
    findings.sort_by(|a, b| {
        (a.finding.category, a.finding.severity, &a.finding.id).cmp(&(
            b.finding.category,
            b.finding.severity,
            &b.finding.id,
        ))
    });
    type Key = (Category, FindingType, Vec<Harness>, Vec<Harness>, String);
    let mut groups: BTreeMap<Key, Vec<&MatrixFinding>> = BTreeMap::new();
    for f in &findings {
        groups.entry(group_key(&f.finding)).or_default().push(f);
    }
    let out: Vec<(String, Group)> = groups
        .into_iter()
        .map(|(key, fs)| {
            let mut directories: Vec<RepoPath> = fs
                .iter()
                .flat_map(|f| f.directories.iter().cloned())
                .collect();
            directories.sort();
            directories.dedup();
            let mut item_names: Vec<String> = fs
                .iter()
                .map(|f| {
                    f.finding
                        .key
                        .split('|')
                        .next()
                        .unwrap_or_default()
                        .to_string()
                })
                .collect();
            item_names.sort();
            item_names.dedup();
            let first = &fs[0].finding;
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
                summary: group_summary(first, &key.4, &item_names),
                directories,
                findings: fs.iter().map(|f| f.finding.id.clone()).collect(),
            };
            (key.4.clone(), g)
        })
        .collect();
    let mut out = merge_siblings(out);
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
    let summary = Summary::of(findings.iter().map(|f| &f.finding));
    Matrix {
        findings,
        groups: out,
        summary,
    }
}

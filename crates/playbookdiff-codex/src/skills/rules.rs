//! The user's skill rules, `[[skills.config]]`, read in local mode.
//!
//! openai/codex `codex-rs/core-skills/src/config_rules.rs`
//! (`skill_config_rules_from_stack`, `resolve_disabled_skill_paths`):
//! Codex reads the entries of the user's layers only (the user's
//! `config.toml` and a `--profile` file; a project layer's are ignored,
//! see [`super::compile`]), lowest precedence first and in file order.
//! An entry selects skills by `path` (the `SKILL.md`; `~/` is the home,
//! a relative path is taken from the configuration file's folder, `.`
//! and `..` are resolved) or by `name` (every skill of that name, in any
//! layer, system skills included); `enabled = false` disables what it
//! selects and `enabled = true` enables it again, so the last entry that
//! selects a skill decides. An entry with both selectors, or neither, is
//! ignored. A disabled skill is not listed.
//!
//! Seen with 0.142.3 and 0.171.0 (`codex --profile wide debug
//! prompt-input`, case
//! `oracle.local_codex_skills.home-codex-skills-config`): every kind of
//! entry above disables or enables as said, on both releases.
//!
//! Not modelled: a path selector is canonicalized by Codex (links
//! followed); here it is compared as written, with `.` and `..`
//! resolved, against the path the skill is listed under and its resolved
//! path.

use crate::config::{get, span_union, Layer};
use crate::user::HOME_VAR;
use playbookdiff_model::{AdvertisementState, Applicability, RepoPath, Skill, SourceRef};
use playbookdiff_source::Machine;
use std::path::{Component, Path, PathBuf};
use toml::de::DeValue;

/// What one entry selects.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Selector {
    /// The skill whose `SKILL.md` is at this path.
    Path(RepoPath),
    /// Every skill of this name.
    Name(String),
}

/// One `[[skills.config]]` entry Codex applies.
#[derive(Clone, Debug)]
pub(crate) struct SkillRule {
    selector: Selector,
    enabled: bool,
    at: SourceRef,
}

/// Where the rules' paths are resolved: the machine and the repository
/// root on disk (an absolute path below it names a repository skill).
pub(crate) struct Places<'a> {
    /// The machine read.
    pub machine: &'a Machine,
    /// The repository root on disk, when the tree has one.
    pub root: Option<&'a Path>,
}

/// The rules of `layers` (the user's layers, lowest precedence first), in
/// the order Codex applies them. An entry whose path names no place the
/// analysis can name (outside the repository, the home and Codex's home)
/// cannot select a listed skill and is left out.
pub(crate) fn read(layers: &[&Layer<'_>], places: &Places<'_>) -> Vec<SkillRule> {
    let mut out = Vec::new();
    for layer in layers {
        let Some(DeValue::Array(items)) = entries(layer) else {
            continue;
        };
        for item in items.iter() {
            let DeValue::Table(e) = item.get_ref() else {
                continue;
            };
            let text = |k: &str| get(e, k).and_then(|(_, v)| v.get_ref().as_str());
            let selector = match (text("path"), text("name").map(str::trim)) {
                (Some(p), None) => places.name(layer, p).map(Selector::Path),
                (None, Some(n)) if !n.is_empty() => Some(Selector::Name(n.to_string())),
                _ => None,
            };
            let enabled = get(e, "enabled").and_then(|(_, v)| v.get_ref().as_bool());
            if let (Some(selector), Some(enabled)) = (selector, enabled) {
                let at = layer.source(span_union(None, item));
                out.push(SkillRule {
                    selector,
                    enabled,
                    at,
                });
            }
        }
    }
    out
}

/// `skills.config` of `layer`.
fn entries<'b, 'a>(layer: &'b Layer<'a>) -> Option<&'b DeValue<'a>> {
    let (_, skills) = get(&layer.table, "skills")?;
    let DeValue::Table(t) = skills.get_ref() else {
        return None;
    };
    get(t, "config").map(|(_, v)| v.get_ref())
}

impl Places<'_> {
    /// The path `written` in `layer` as the analysis names it: `~/...` is
    /// the home, a relative path is taken from the layer's folder, and
    /// the absolute result is named in the repository, then in Codex's
    /// home or the home, then under `/etc/codex`.
    fn name(&self, layer: &Layer<'_>, written: &str) -> Option<RepoPath> {
        let m = self.machine;
        let abs = match written.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                m.home()?.join(rest.trim_start_matches('/'))
            }
            _ if Path::new(written).is_absolute() => PathBuf::from(written),
            _ => m.agent_path(&layer.loaded.path)?.parent()?.join(written),
        };
        let abs = lexical(&abs);
        if let Some(rel) = self.root.and_then(|r| abs.strip_prefix(r).ok()) {
            return RepoPath::new(rel.to_str()?);
        }
        if let Some(p) = m.name_of(Some(HOME_VAR), &abs) {
            return Some(p);
        }
        let rest = abs.strip_prefix("/etc/codex").ok()?;
        RepoPath::on_machine("/etc/codex", rest.to_str()?)
    }
}

/// `p` with `.` and `..` resolved by name, as Codex's `AbsolutePathBuf`
/// does (nothing is read).
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl SkillRule {
    /// True when this rule selects `s`.
    fn selects(&self, s: &Skill) -> bool {
        match &self.selector {
            Selector::Name(n) => s.name == *n,
            Selector::Path(p) => s.source.path == *p || s.source.resolved_path.as_ref() == Some(p),
        }
    }

    /// How the rule selects, for a reason.
    fn how(&self) -> &'static str {
        match self.selector {
            Selector::Path(_) => "by its path",
            Selector::Name(_) => "by its name",
        }
    }
}

/// Excludes every listed skill of `skills` that `rules` leave disabled:
/// the last rule selecting a skill decides. The reason names that rule's
/// file and lines.
pub(crate) fn apply(rules: &[SkillRule], skills: &mut [Skill]) {
    for s in skills
        .iter_mut()
        .filter(|s| s.applicability == Applicability::Effective)
    {
        let Some(last) = rules.iter().rev().find(|r| r.selects(s)) else {
            continue;
        };
        if last.enabled {
            continue;
        }
        s.applicability = Applicability::Excluded;
        s.advertisement.state = AdvertisementState::Hidden;
        s.reason = format!(
            "{} A `[[skills.config]]` entry of `{}` (lines {}) disables it {} (`enabled = false`), so Codex does not list it.",
            s.reason,
            last.at.path,
            last.at
                .lines
                .map_or(String::new(), |l| format!("{}-{}", l.start, l.end)),
            last.how(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_are_resolved_by_name() {
        assert_eq!(
            lexical(Path::new("/h/.codex/skills/../skills/./lint/SKILL.md")),
            PathBuf::from("/h/.codex/skills/lint/SKILL.md")
        );
        assert_eq!(lexical(Path::new("/../a")), PathBuf::from("/a"));
    }
}

//! Repository-relative POSIX paths.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A normalized repository-relative POSIX path.
///
/// Shape: components joined by `/`, no leading `/`, no `.` components, no
/// trailing `/`; the repository root itself is `"."`. Construction through
/// [`RepoPath::new`] normalizes lexically and refuses a path that climbs
/// above the root. The one exception is [`RepoPath::above_root`]: a file
/// read above the repository root (Claude Code with `--outside-root`) is
/// named with one leading `..` per level (`../CLAUDE.md`), and only there.
///
/// Local mode adds a second kind of outside path, made only by
/// [`RepoPath::on_machine`]: a file of the user's home or of the machine,
/// named from a place every machine has, never the analyser's absolute
/// path: `~/.claude/CLAUDE.md`, `$CODEX_HOME/config.toml` (a harness's own
/// variable) or `/etc/codex/config.toml` (a fixed machine path).
/// [`RepoPath::is_on_machine`] says so. A repository directory literally
/// named `~`, or whose name starts with `$`, reads as such a path too; no
/// adapter reads such paths of a repository through the machine view, as
/// the view answers only for the places local mode opened.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct RepoPath(String);

impl RepoPath {
    /// The repository root, `"."`.
    pub fn root() -> Self {
        RepoPath(".".to_string())
    }

    /// Normalizes `raw` (POSIX separators; `.` and empty components dropped,
    /// `..` applied lexically). Returns `None` when the path climbs above the
    /// root or is absolute.
    pub fn new(raw: &str) -> Option<Self> {
        if raw.starts_with('/') {
            return None;
        }
        // Already normalized (the common case: a name from a listing or a
        // path built from one): one copy, no split and re-join.
        if is_plain(raw) {
            return Some(RepoPath(raw.to_string()));
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in raw.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                other => parts.push(other),
            }
        }
        Some(Self::from_parts(&parts))
    }

    /// The path `rel` of the directory `levels_up` levels above the
    /// repository root (1: its parent), as provenance names it: one `..`
    /// per level, then `rel` (`above_root(2, ".mcp.json")` is
    /// `../../.mcp.json`; `rel` = `"."` gives the directory itself). Such a
    /// path lies outside the repository: [`RepoPath::is_above_root`] says
    /// so, [`RepoPath::join`] on it returns `None`, and no repository
    /// file has it. `levels_up` 0 gives `rel` itself.
    pub fn above_root(levels_up: usize, rel: &RepoPath) -> Self {
        let mut parts: Vec<&str> = vec![".."; levels_up];
        parts.extend(rel.components());
        Self::from_parts(&parts)
    }

    /// True for a path made by [`RepoPath::above_root`] (it starts with `..`).
    pub fn is_above_root(&self) -> bool {
        self.0 == ".." || self.0.starts_with("../")
    }

    /// The path `rel` (POSIX, relative, no `..`) of the machine place
    /// `label`: `~` (the home), `$NAME` (the directory or file a harness's
    /// own variable names, or the text it holds), `$NAME[N]` (the `N`th
    /// directory, from 1, of a variable listing several) or an absolute
    /// machine directory (`/etc/codex`).
    /// `rel` = `"."` or `""` gives the place itself. `None` when `label` is
    /// none of these or `rel` climbs.
    pub fn on_machine(label: &str, rel: &str) -> Option<Self> {
        let label_ok = label == "~"
            || label.strip_prefix('$').is_some_and(is_variable_label)
            || (label.starts_with('/') && RepoPath::new(&label[1..]).is_some());
        if !label_ok {
            return None;
        }
        let rel = RepoPath::new(rel)?;
        let label = if label.len() > 1 {
            label.trim_end_matches('/')
        } else {
            label
        };
        Some(RepoPath(match (rel.is_root(), label) {
            (true, l) => l.to_string(),
            (false, "/") => format!("/{rel}"),
            (false, l) => format!("{l}/{rel}"),
        }))
    }

    /// True for a path made by [`RepoPath::on_machine`]: it starts with
    /// `~`, `$` or `/`.
    pub fn is_on_machine(&self) -> bool {
        self.0 == "~"
            || self.0.starts_with("~/")
            || self.0.starts_with('$')
            || self.0.starts_with('/')
    }

    /// True for a path outside the repository: above its root
    /// ([`RepoPath::above_root`]), on the machine
    /// ([`RepoPath::on_machine`]) or a harness's built-in item
    /// ([`RepoPath::builtin`]).
    pub fn is_outside(&self) -> bool {
        self.is_above_root() || self.is_on_machine() || self.is_builtin()
    }

    /// The provenance of an item the harness release ships itself (a
    /// built-in skill), which no file of the analysed machine holds:
    /// `builtin:NAME`. `None` when `name` is empty or holds `/`.
    pub fn builtin(name: &str) -> Option<Self> {
        (!name.is_empty() && !name.contains('/') && name != "." && name != "..")
            .then(|| RepoPath(format!("{BUILTIN_PREFIX}{name}")))
    }

    /// True for a path made by [`RepoPath::builtin`].
    pub fn is_builtin(&self) -> bool {
        self.0.starts_with(BUILTIN_PREFIX) && !self.0.contains('/')
    }

    /// For a path on the machine, its place's label (`~`, `$CODEX_HOME`,
    /// `/etc/codex`: the leading components given to
    /// [`RepoPath::on_machine`] are not kept apart, so an absolute path's
    /// label is `/`) and the rest (`""` for the place itself).
    pub fn machine_parts(&self) -> Option<(&str, &str)> {
        if !self.is_on_machine() {
            return None;
        }
        if let Some(rest) = self.0.strip_prefix('/') {
            return Some(("/", rest));
        }
        Some(match self.0.split_once('/') {
            Some((l, rest)) => (l, rest),
            None => (self.0.as_str(), ""),
        })
    }

    fn from_parts(parts: &[&str]) -> Self {
        if parts.is_empty() {
            Self::root()
        } else {
            RepoPath(parts.join("/"))
        }
    }

    /// The path as a string (`"."` for the root).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for the repository root.
    pub fn is_root(&self) -> bool {
        self.0 == "."
    }

    /// The components, empty for the root.
    pub fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|c| !c.is_empty() && *c != ".")
    }

    /// The number of components (0 for the root).
    pub fn depth(&self) -> usize {
        self.components().count()
    }

    /// The last component, `None` for the root.
    pub fn file_name(&self) -> Option<&str> {
        if self.is_root() {
            None
        } else {
            self.0.rsplit('/').next()
        }
    }

    /// The parent directory, `None` for the root.
    pub fn parent(&self) -> Option<RepoPath> {
        if self.is_root() {
            return None;
        }
        if let Some((label, rest)) = self.machine_parts() {
            // The place itself has no parent the analysis names.
            let up = RepoPath::new(rest)?;
            return RepoPath::on_machine(label, up.parent()?.as_str());
        }
        // A byte search: `/` is ASCII and never part of another character.
        match self.0.as_bytes().iter().rposition(|&b| b == b'/') {
            Some(i) => Some(RepoPath(self.0[..i].to_string())),
            None => Some(Self::root()),
        }
    }

    /// Joins a relative POSIX path (which may contain `..`), normalizing
    /// lexically. Returns `None` when the result climbs above the root.
    ///
    /// On a path above the root ([`RepoPath::above_root`]) the result stays
    /// in the same ancestor: `None` when `rel` would climb out of it.
    pub fn join(&self, rel: &str) -> Option<RepoPath> {
        if let Some((label, rest)) = self.machine_parts() {
            let joined = RepoPath::new(rest)?.join(rel)?;
            return RepoPath::on_machine(label, joined.as_str());
        }
        if self.is_above_root() {
            let mut parts: Vec<&str> = self.components().collect();
            for part in rel.split('/') {
                match part {
                    "" | "." => {}
                    ".." => {
                        if parts.last().is_none_or(|l| *l == "..") {
                            return None;
                        }
                        parts.pop();
                    }
                    other => parts.push(other),
                }
            }
            return Some(Self::from_parts(&parts));
        }
        if self.is_root() {
            RepoPath::new(rel)
        } else if is_plain(rel) && is_plain(&self.0) {
            // Nothing to normalize on either side: append, as
            // [`RepoPath::child`] does, without re-reading the path.
            let mut s = String::with_capacity(self.0.len() + 1 + rel.len());
            s.push_str(&self.0);
            s.push('/');
            s.push_str(rel);
            Some(RepoPath(s))
        } else {
            RepoPath::new(&format!("{}/{}", self.0, rel))
        }
    }

    /// The entry `name` of this directory, where `name` is one plain
    /// component (a directory listing's name: not empty, not `.` or `..`,
    /// no `/`). Unlike [`RepoPath::join`] it appends without re-reading the
    /// whole path, so a walk costs the length of the names, not of the
    /// paths. `None` when `name` is not one plain component.
    pub fn child(&self, name: &str) -> Option<RepoPath> {
        if name.is_empty() || name == "." || name == ".." || name.contains('/') {
            return None;
        }
        if self.is_root() {
            return Some(RepoPath(name.to_string()));
        }
        let mut s = String::with_capacity(self.0.len() + 1 + name.len());
        s.push_str(&self.0);
        s.push('/');
        s.push_str(name);
        Some(RepoPath(s))
    }

    /// True when `self` equals `other` or lies below it. A path above the
    /// root or on the machine lies below no repository directory, the root
    /// included.
    pub fn starts_with(&self, other: &RepoPath) -> bool {
        (other.is_root() && !self.is_outside())
            || self.0 == other.0
            || (self.0.starts_with(&other.0) && self.0.as_bytes().get(other.0.len()) == Some(&b'/'))
    }

    /// The directories from the root down to `self` inclusive
    /// (`a/b` gives `.`, `a`, `a/b`).
    pub fn ancestors_root_first(&self) -> Vec<RepoPath> {
        let mut out = vec![Self::root()];
        let parts: Vec<&str> = self.components().collect();
        for i in 1..=parts.len() {
            out.push(Self::from_parts(&parts[..i]));
        }
        out
    }

    /// `self` relative to `base` when `self` lies at or below `base`
    /// (`""` when equal).
    pub fn strip_prefix(&self, base: &RepoPath) -> Option<&str> {
        if !self.starts_with(base) {
            return None;
        }
        if base.is_root() {
            return Some(if self.is_root() { "" } else { &self.0 });
        }
        if self.0.len() == base.0.len() {
            Some("")
        } else {
            Some(&self.0[base.0.len() + 1..])
        }
    }
}

/// True when `s` is already a normalized relative path of at least one
/// component: not empty, and no component empty, `.` or `..` (so no
/// leading, trailing or doubled `/`). [`RepoPath::new`] of such a string is
/// the string itself.
///
/// One pass over the bytes (`/` and `.` are ASCII, never part of another
/// character): every path built or joined is checked here.
fn is_plain(s: &str) -> bool {
    let b = s.as_bytes();
    let mut start = 0;
    for i in 0..=b.len() {
        if i == b.len() || b[i] == b'/' {
            match &b[start..i] {
                b"" | b"." | b".." => return false,
                _ => start = i + 1,
            }
        }
    }
    true
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// The start of a [`RepoPath::builtin`] path.
const BUILTIN_PREFIX: &str = "builtin:";

/// True for `NAME` or `NAME[N]`: a variable's name (letters, digits and
/// `_`), with the 1-based index of one entry of its list.
fn is_variable_label(label: &str) -> bool {
    let name_ok =
        |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    match label.strip_suffix(']').and_then(|l| l.split_once('[')) {
        Some((name, n)) => {
            name_ok(name)
                && !n.is_empty()
                && !n.starts_with('0')
                && n.bytes().all(|b| b.is_ascii_digit())
        }
        None => name_ok(label),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_paths_keep_their_place() {
        let user = RepoPath::on_machine("~", ".claude/CLAUDE.md").unwrap();
        assert_eq!(user.as_str(), "~/.claude/CLAUDE.md");
        assert!(user.is_on_machine() && user.is_outside() && !user.is_above_root());
        assert!(!user.starts_with(&RepoPath::root()));
        assert_eq!(user.parent().unwrap().as_str(), "~/.claude");
        assert_eq!(RepoPath::on_machine("~", ".").unwrap().parent(), None);
        let shipped = RepoPath::builtin("skill-creator").unwrap();
        assert_eq!(shipped.as_str(), "builtin:skill-creator");
        assert!(shipped.is_builtin() && shipped.is_outside() && !shipped.is_on_machine());
        assert_eq!(RepoPath::builtin("a/b"), None);
        assert!(!RepoPath::new("builtin:x/SKILL.md").unwrap().is_builtin());
        let listed = RepoPath::on_machine("$DIRS[2]", "a/b.md").unwrap();
        assert_eq!(listed.machine_parts(), Some(("$DIRS[2]", "a/b.md")));
        for bad in [
            "$DIRS[0]", "$DIRS[]", "$DIRS[x]", "$[1]", "$DIRS[1", "$DI-RS",
        ] {
            assert_eq!(RepoPath::on_machine(bad, "a"), None, "{bad}");
        }
        let var = RepoPath::on_machine("$CODEX_HOME", "").unwrap();
        assert_eq!(
            var.join("skills/a/../b").unwrap().as_str(),
            "$CODEX_HOME/skills/b"
        );
        assert_eq!(var.join(".."), None, "a join never climbs out of its place");
        let managed = RepoPath::on_machine("/etc/codex", "config.toml").unwrap();
        assert_eq!(managed.as_str(), "/etc/codex/config.toml");
        assert_eq!(
            managed.machine_parts(),
            Some(("/", "etc/codex/config.toml"))
        );
        assert_eq!(managed.parent().unwrap().as_str(), "/etc/codex");
        assert_eq!(
            managed.join("../../claude-code").unwrap().as_str(),
            "/etc/claude-code"
        );
        for bad in ["", "$", "$A-B", "etc", "/../x"] {
            assert_eq!(RepoPath::on_machine(bad, "x"), None, "{bad}");
        }
        assert_eq!(RepoPath::on_machine("~", "../x"), None);
        assert!(!RepoPath::new("docs/~").unwrap().is_on_machine());
    }

    #[test]
    fn normalizes_and_refuses_escape() {
        assert_eq!(RepoPath::new("a/./b//c").unwrap().as_str(), "a/b/c");
        assert_eq!(RepoPath::new("a/../b").unwrap().as_str(), "b");
        assert_eq!(RepoPath::new("").unwrap().as_str(), ".");
        assert!(RepoPath::new("../x").is_none());
        assert!(RepoPath::new("/abs").is_none());
    }

    /// The lexical normalization, written out without any shortcut: what
    /// `new` and `join` must answer, fast path or not.
    fn normalized(raw: &str) -> Option<String> {
        if raw.starts_with('/') {
            return None;
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in raw.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                other => parts.push(other),
            }
        }
        Some(if parts.is_empty() {
            ".".to_string()
        } else {
            parts.join("/")
        })
    }

    /// Every string of up to `max` characters over `a`, `.` and `/`.
    fn strings(max: usize) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s| ['a', '.', '/'].map(|c| format!("{s}{c}")))
                .collect();
            out.extend(last.iter().cloned());
        }
        out
    }

    #[test]
    fn the_fast_paths_of_new_and_join_normalize_like_the_slow_one() {
        let all = strings(5);
        for raw in &all {
            assert_eq!(
                RepoPath::new(raw).map(|p| p.0),
                normalized(raw),
                "new({raw:?})"
            );
        }
        let bases: Vec<RepoPath> = strings(4)
            .iter()
            .filter_map(|s| RepoPath::new(s))
            .chain(["x/y", "a/..b", "a.b/c"].map(|s| RepoPath::new(s).unwrap()))
            .collect();
        for base in &bases {
            for rel in strings(4)
                .iter()
                .chain(["b/c", "..", "../..", "c/../d"].map(String::from).iter())
            {
                let want = if base.is_root() {
                    normalized(rel)
                } else {
                    normalized(&format!("{base}/{rel}"))
                };
                assert_eq!(base.join(rel).map(|p| p.0), want, "{base:?}.join({rel:?})");
            }
        }
        // A path not built by `new` (deserialized as is) is still
        // normalized by `join`.
        let raw: RepoPath = serde_json::from_str("\"a//b/./c\"").unwrap();
        assert_eq!(raw.join("d").unwrap().as_str(), "a/b/c/d");
    }

    #[test]
    fn parent_drops_the_last_component() {
        let p = |s: &str| RepoPath::new(s).unwrap();
        assert_eq!(p("a/é/ü.md").parent(), Some(p("a/é")));
        assert_eq!(p("ü.md").parent(), Some(RepoPath::root()));
        assert_eq!(RepoPath::root().parent(), None);
    }

    #[test]
    fn starts_with_respects_component_boundaries() {
        let ab = RepoPath::new("apps/api").unwrap();
        assert!(RepoPath::new("apps/api/x").unwrap().starts_with(&ab));
        assert!(!RepoPath::new("apps/apix").unwrap().starts_with(&ab));
        assert!(ab.starts_with(&RepoPath::root()));
    }

    #[test]
    fn above_root_paths_are_named_with_dot_dot_and_lie_below_no_repository_directory() {
        let rel = RepoPath::new(".claude/rules/a.md").unwrap();
        let p = RepoPath::above_root(2, &rel);
        assert_eq!(p.as_str(), "../../.claude/rules/a.md");
        assert!(p.is_above_root());
        assert!(!p.starts_with(&RepoPath::root()));
        assert!(p.starts_with(&RepoPath::above_root(2, &RepoPath::root())));
        let up = RepoPath::above_root(1, &RepoPath::root());
        assert_eq!(up.join("CLAUDE.md").unwrap().as_str(), "../CLAUDE.md");
        assert_eq!(
            up.join(".claude/rules")
                .unwrap()
                .join("a/../b.md")
                .unwrap()
                .as_str(),
            "../.claude/rules/b.md"
        );
        assert_eq!(up.join("../x"), None);
        assert_eq!(p.join("../../../../x"), None);
        assert_eq!(RepoPath::above_root(1, &RepoPath::root()).as_str(), "..");
        assert_eq!(RepoPath::above_root(0, &rel), rel);
        assert!(!rel.is_above_root());
        assert!(!RepoPath::new("..x/y").unwrap().is_above_root());
        assert_eq!(RepoPath::new("../CLAUDE.md"), None);
    }

    #[test]
    fn ancestors_run_root_first() {
        let got: Vec<String> = RepoPath::new("a/b")
            .unwrap()
            .ancestors_root_first()
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(got, [".", "a", "a/b"]);
    }
}

//! Project rules: the `.mdc` files of the workspace's `.cursor/rules` (and
//! its subdirectories), and of the `.cursor/rules` of folders below it.
//!
//! Cursor's rules documentation (<https://cursor.com/docs/context/rules>,
//! and the older docs.cursor.com/context/rules): a rule is an `.mdc` file
//! whose front matter picks one of four types:
//!
//! * **Always** (`alwaysApply: true`): in every request;
//! * **Auto Attached** (`globs`, a comma-separated string; a YAML list
//!   also works per issue threads): when a file matching a glob is in
//!   context;
//! * **Agent Requested** (`description` only): the agent reads the
//!   description and pulls the rule in when it judges it relevant;
//! * **Manual** (none): only when the user @-mentions it.
//!
//! The front matter "is not strictly YAML" (`globs: **/*.ts` is not valid
//! YAML), so when YAML rejects it the three keys are read from their lines.
//! A `.cursor/rules` of a subdirectory is scoped to that folder: its rules
//! attach when a file of the folder is in context, and its globs are taken
//! relative to the folder (assumed). A plain `.md` file in `.cursor/rules`
//! is not a rule per the current documentation (third-party guides
//! disagree): it is listed excluded with `rule-not-loaded`.

use crate::instructions::{entry, read, Builder, Slot};
use crate::Cx;
use globset::{GlobBuilder, GlobMatcher};
use playbookdiff_adapter::problems::quote;
use playbookdiff_adapter::scope::{place, strictly_below};
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, InstructionKind, RepoPath, SourceFormat, SourceRef,
};
use playbookdiff_source::markdown::FrontMatter;
use playbookdiff_source::EntryKind;
use serde_json::Value;

/// The deepest folder level listed under a rules directory.
const MAX_DEPTH: usize = 8;

/// The rules directory below a folder.
const RULES_DIR: &str = ".cursor/rules";

/// When a rule is attached: the four documented types.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Activation {
    /// `alwaysApply: true`.
    Always,
    /// `globs`, as written (at least one).
    AutoAttached(Vec<String>),
    /// `description` only.
    AgentRequested,
    /// None of the three.
    Manual,
}

/// The three front-matter fields as Cursor reads them.
#[derive(Default)]
struct Fields {
    always: Option<Value>,
    globs: Option<Value>,
    description: Option<String>,
}

/// Adds the rules of the workspace, then those of folders below it.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    for base in std::iter::once(cwd.clone()).chain(nested_bases(cx, &cwd)) {
        let Some(dir) = base.join(RULES_DIR) else {
            continue;
        };
        let mut files = Vec::new();
        list(cx, &dir, 0, &mut files);
        files.sort();
        for path in files {
            one(cx, &base, &path, b);
        }
    }
}

/// The folders strictly below `cwd` holding a `.cursor` directory, sorted.
fn nested_bases(cx: &Cx<'_, '_>, cwd: &RepoPath) -> Vec<RepoPath> {
    cx.repo
        .files_named_under(".cursor", cwd)
        .iter()
        .filter(|p| cx.repo.is_dir(p))
        .filter_map(RepoPath::parent)
        .filter(|d| strictly_below(d, cwd))
        .collect()
}

/// The `.mdc` and `.md` files under `dir`, recursively.
fn list(cx: &Cx<'_, '_>, dir: &RepoPath, depth: usize, out: &mut Vec<RepoPath>) {
    if depth > MAX_DEPTH || !cx.repo.is_dir(dir) {
        return;
    }
    for e in cx.repo.list_dir(dir) {
        let Some(p) = dir.child(&e.name) else {
            continue;
        };
        if e.kind == EntryKind::Dir {
            list(cx, &p, depth + 1, out);
        } else if (e.name.ends_with(".mdc") || e.name.ends_with(".md")) && cx.repo.is_file(&p) {
            out.push(p);
        }
    }
}

/// The folder a rule file belongs to: the one holding its `.cursor`
/// directory (`apps/web` for `apps/web/.cursor/rules/x.mdc`), the root
/// for any other path.
pub(crate) fn base_of(file: &RepoPath) -> RepoPath {
    let parts: Vec<&str> = file.components().collect();
    let at = parts
        .windows(2)
        .rposition(|w| w == [".cursor", "rules"])
        .unwrap_or(0);
    RepoPath::new(&parts[..at].join("/")).unwrap_or_else(RepoPath::root)
}

/// The matcher of one glob: `*` within one folder, `**` across folders
/// (the documentation's glob table); a glob that does not parse matches
/// its own text literally.
pub(crate) fn matcher(glob: &str) -> Option<GlobMatcher> {
    let parse = |g: &str| {
        GlobBuilder::new(g.strip_prefix("./").unwrap_or(g))
            .literal_separator(true)
            .build()
            .ok()
            .map(|g| g.compile_matcher())
    };
    parse(glob).or_else(|| parse(&globset::escape(glob)))
}

/// Whether `m` matches `target` taken relative to folder `base`.
pub(crate) fn matches(m: &GlobMatcher, base: &RepoPath, target: &RepoPath) -> bool {
    if base.is_root() {
        return m.is_match(target.as_str());
    }
    let prefix = format!("{base}/");
    target
        .as_str()
        .strip_prefix(&prefix)
        .is_some_and(|rel| m.is_match(rel))
}

/// Adds rule file `path` of folder `base`.
fn one(cx: &mut Cx<'_, '_>, base: &RepoPath, path: &RepoPath, b: &mut Builder) {
    let Ok(text) = read(cx, path) else { return };
    if !path.as_str().ends_with(".mdc") {
        let why = format!("{path} is a plain `.md` file in `.cursor/rules`; Cursor's rules documentation loads only `.mdc` files as project rules (third-party guides say `.md` works too), so it is assumed not loaded.");
        cx.diag(
            Diagnostic::new(DiagnosticCode::RuleNotLoaded, format!("{} is a `.md` file in `.cursor/rules`, which Cursor's documentation does not load as a rule; rename it to `.mdc` with front matter if it is meant as one.", quote(path)))
                .at(SourceRef::project(path.clone(), SourceFormat::Markdown)),
        );
        let mut e = entry(path, base, Some(&text), Slot::EXCLUDED, why);
        e.kind = InstructionKind::Rule;
        e.id = format!("cursor:rule:{path}");
        b.push(e);
        return;
    }
    let fm = text.front_matter();
    let activation = activation(cx, path, fm);
    let (slot, why, globs) = placement(cx, base, path, &activation);
    let mut e = entry(path, base, Some(&text), slot, why);
    e.kind = InstructionKind::Rule;
    e.id = format!("cursor:rule:{path}");
    e.paths = globs;
    if let Some(f) = fm {
        e.content = text
            .text
            .get(f.body_offset..)
            .unwrap_or_default()
            .to_string();
    }
    b.push(e);
}

/// When the rule is received and why, and its globs when auto-attached.
fn placement(
    cx: &Cx<'_, '_>,
    base: &RepoPath,
    path: &RepoPath,
    activation: &Activation,
) -> (Slot, String, Option<Vec<String>>) {
    let cwd = &cx.context.cwd;
    let target = cx.context.target_path.as_ref();
    let nested = base != cwd;
    let in_folder = target.is_some_and(|t| t.starts_with(base));
    let folder = if nested {
        format!(" of {}, scoped to that folder", place(base))
    } else {
        String::new()
    };
    let note = "(documented, not observed)";
    match activation {
        Activation::Always if !nested => (Slot::STARTUP, format!("{path} is an always-applied project rule (`alwaysApply: true`); Cursor puts it at the start of every request {note}."), None),
        Activation::Always => {
            let slot = if in_folder { Slot::ON_DEMAND_HIT } else { Slot::ON_DEMAND };
            (slot, format!("{path} is an always-applied rule{folder}; Cursor attaches it when a file of that folder is in context {note}."), None)
        }
        Activation::AutoAttached(globs) => {
            let hit = in_folder
                && target.is_some_and(|t| {
                    globs.iter().filter_map(|g| matcher(g)).any(|m| matches(&m, base, t))
                });
            let slot = if hit { Slot::ON_DEMAND_HIT } else { Slot::ON_DEMAND };
            let when = if hit { "targetPath matches, so it is attached when the agent works on it" } else { "Cursor attaches it only when a matching file is in context" };
            (slot, format!("{path} is an auto-attached rule{folder} for `{}`; {when} {note}.", globs.join(", ")), Some(globs.clone()))
        }
        Activation::AgentRequested => (Slot::ON_DEMAND, format!("{path} is an agent-requested rule{folder}: Cursor shows the agent its description, and the agent pulls it in when it judges it relevant {note}."), None),
        Activation::Manual => (Slot::ON_DEMAND, format!("{path} is a manual rule{folder} (no `alwaysApply`, `globs` or `description`): Cursor adds it only when the user @-mentions it {note}."), None),
    }
}

/// The rule's type from its front matter; a non-boolean `alwaysApply` is
/// reported and taken as false.
fn activation(cx: &mut Cx<'_, '_>, path: &RepoPath, fm: Option<&FrontMatter>) -> Activation {
    let f = fm.map(fields).unwrap_or_default();
    let always = match &f.always {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if fm.is_some_and(|f| f.value.is_err()) => s == "true",
        Some(v) => {
            let lines = fm.map_or(1, |f| f.end_line);
            cx.diag(
                Diagnostic::new(DiagnosticCode::InvalidValue, format!("`alwaysApply` of {} is {v}, not the boolean `true` or `false`, so Cursor does not treat the rule as always applied; write `alwaysApply: true` without quotes.", quote(path)))
                    .at(SourceRef::project(path.clone(), SourceFormat::Markdown).with_lines(1, lines)),
            );
            false
        }
        None => false,
    };
    if always {
        return Activation::Always;
    }
    if let Some(g) = globs(f.globs.as_ref()) {
        return Activation::AutoAttached(g);
    }
    if f.description
        .as_deref()
        .is_some_and(|d| !d.trim().is_empty())
    {
        return Activation::AgentRequested;
    }
    Activation::Manual
}

/// The three fields: from the YAML value, else from their lines.
fn fields(fm: &FrontMatter) -> Fields {
    match &fm.value {
        Ok(Value::Object(m)) => Fields {
            always: m.get("alwaysApply").cloned(),
            globs: m.get("globs").cloned(),
            description: m
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
        },
        Ok(_) => Fields::default(),
        Err(_) => {
            let line = |k: &str| line_value(&fm.yaml, k);
            Fields {
                always: line("alwaysApply").map(Value::String),
                globs: line("globs").map(Value::String),
                description: line("description"),
            }
        }
    }
}

/// The value of `key` read from its line (`key: value`, quotes removed);
/// `None` when absent or empty.
fn line_value(yaml: &str, key: &str) -> Option<String> {
    let v = yaml.lines().find_map(|l| {
        l.trim_start()
            .strip_prefix(key)
            .and_then(|r| r.trim_start().strip_prefix(':'))
    })?;
    let v = v.trim().trim_matches(['"', '\'']).trim();
    (!v.is_empty()).then(|| v.to_string())
}

/// The globs of front-matter value `v`: a comma-separated string or a list
/// of strings; `None` when absent or empty.
fn globs(v: Option<&Value>) -> Option<Vec<String>> {
    let list: Vec<String> = match v? {
        Value::String(s) => playbookdiff_adapter::scope::split_glob_list(s),
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(|s| s.trim().to_string()))
            .collect(),
        _ => return None,
    };
    let list: Vec<String> = list
        .into_iter()
        .map(|g| g.trim_matches(['"', '\'']).to_string())
        .filter(|g| !g.is_empty())
        .collect();
    (!list.is_empty()).then_some(list)
}

#[cfg(test)]
mod tests {
    use super::{base_of, globs, line_value, matcher, matches};
    use playbookdiff_model::RepoPath;
    use serde_json::json;

    fn rp(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    /// `globs` is a comma-separated string or a list; braces keep their
    /// commas; empty is none.
    #[test]
    fn globs_forms() {
        assert_eq!(
            globs(Some(&json!("src/**, **/*.py"))),
            Some(vec!["src/**".to_string(), "**/*.py".to_string()])
        );
        assert_eq!(
            globs(Some(&json!("{src,lib}/**/*.ts"))),
            Some(vec!["{src,lib}/**/*.ts".to_string()])
        );
        assert_eq!(
            globs(Some(&json!(["a/*.ts"]))),
            Some(vec!["a/*.ts".to_string()])
        );
        assert_eq!(globs(Some(&json!(""))), None);
        assert_eq!(
            line_value("globs: **/*.ts, *.md\n", "globs").as_deref(),
            Some("**/*.ts, *.md")
        );
        assert_eq!(line_value("globs:\n", "globs"), None);
    }

    /// Globs are anchored at the folder holding the rule's `.cursor`:
    /// `*` stays in one folder, `**` crosses folders.
    #[test]
    fn globs_anchor_at_the_rule_folder() {
        let m = matcher("src/**/*.ts").unwrap();
        assert!(matches(&m, &RepoPath::root(), &rp("src/a/b.ts")));
        assert!(!matches(&m, &RepoPath::root(), &rp("lib/src/b.ts")));
        assert!(matches(&m, &rp("apps/web"), &rp("apps/web/src/b.ts")));
        assert!(!matches(&m, &rp("apps/web"), &rp("src/b.ts")));
        assert!(!matches(
            &matcher("*.ts").unwrap(),
            &RepoPath::root(),
            &rp("a/b.ts")
        ));
        assert_eq!(base_of(&rp("apps/web/.cursor/rules/x.mdc")), rp("apps/web"));
        assert_eq!(base_of(&rp(".cursor/rules/sub/x.mdc")), RepoPath::root());
    }
}

//! Path-specific instructions (`.github/instructions/**/*.instructions.md`
//! with front-matter `applyTo`) and Claude Code's `.claude/rules/*.md`
//! (front-matter `paths`), both of the git root and of the launch
//! directory.
//!
//! Seen with 1.0.102 (fixture `path_instructions`): a file without
//! `applyTo`, or with `applyTo: "**"`, is inlined raw after the always-on
//! files, front matter included; one with a specific glob is listed in a
//! table (`| src/** | '.github/instructions/nested/src.instructions.md' |
//! |`) and its text injected when the agent views a matching file; a rule
//! without `paths` is inlined after them, one with `paths` listed the same
//! way (changelog 1.0.89). Seen with 1.0.24: every instruction file
//! inlined raw, a specific one after "This instruction applies to files
//! matching the pattern: `<glob>`", in directory-listing order; no rule read.

use crate::instructions::{entry, read, Builder};
use crate::profile::PathInstructions;
use crate::{Cx, Profile};
use globset::{GlobBuilder, GlobMatcher};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase, RepoPath,
    SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine, ParseError, TextFile};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;
use std::sync::Mutex;

/// The deepest folder level the analysis lists under a root.
const MAX_DEPTH: usize = 8;

/// Which family a file belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Family {
    /// `.github/instructions/**/*.instructions.md`.
    Instructions,
    /// `.claude/rules/**/*.md`.
    Rules,
}

impl Family {
    /// The root folder and the file-name suffix.
    fn facts(self) -> (&'static str, &'static str) {
        match self {
            Family::Instructions => (".github/instructions", ".instructions.md"),
            Family::Rules => (".claude/rules", ".md"),
        }
    }
}

/// The front-matter keys that hold a file's globs, the first present
/// taken: `applyTo` in 1.0.24 (its schema has no other); `applyTo`, else
/// `paths`, in both families from the release that reads rules on (seen
/// with 1.0.102 on fuzzer seed 93 and its probe: `paths` of an
/// instruction file and `applyTo` of a rule listed in the table, and of
/// a file with both, `applyTo`; keys are case-sensitive, `Paths` and
/// `applyto` not read). Taking the change for that of
/// [`Profile::claude_rules`] is an assumption.
fn keys(profile: &Profile) -> &'static [&'static str] {
    if profile.claude_rules {
        &["applyTo", "paths"]
    } else {
        &["applyTo"]
    }
}

/// Adds the path-specific files to `b`: inlined ones in order, on-demand
/// ones after the always-on entries. Both families are read in the git
/// root, then in the launch directory, not in the directories between
/// (seen with 1.0.24 and 1.0.102 on case
/// `oracle.copilot_rule_links.in-sub-deeper`: `sub/deeper/.github/instructions`
/// and `sub/deeper/.claude/rules` read, `sub/`'s not; 1.0.24's source reads
/// `.github/instructions` of `[gitRoot, cwd]`); per directory, instructions
/// before rules.
pub(crate) fn compile(cx: &mut Cx<'_, '_>, profile: &Profile, b: &mut Builder) {
    let root = crate::git_root(cx);
    let mut dirs = vec![root.clone()];
    if cx.context.cwd != root {
        dirs.push(cx.context.cwd.clone());
    }
    for dir in &dirs {
        family(cx, profile, Family::Instructions, dir, b);
        if profile.claude_rules {
            family(cx, profile, Family::Rules, dir, b);
        }
    }
}

/// The directory whose family folder holds `path`: the part before
/// `.github/instructions/` or `.claude/rules/`.
fn origin(path: &RepoPath, fam: Family) -> RepoPath {
    let (folder, _) = fam.facts();
    let p = path.as_str();
    let cut = if p.starts_with(folder) {
        Some(0)
    } else {
        p.find(&format!("/{folder}/"))
    };
    cut.and_then(|i| RepoPath::new(&p[..i]))
        .unwrap_or_else(RepoPath::root)
}

/// The files of one family in directory `dir`, sorted by path.
///
/// Read once per family, directory and release on one `Repo` (the git
/// root's files are read from every launch directory below it); only
/// whether an on-demand file matches targetPath is decided here.
fn family(cx: &mut Cx<'_, '_>, profile: &Profile, fam: Family, dir: &RepoPath, b: &mut Builder) {
    /// The memo key: the family, the directory and the release.
    #[derive(Hash, PartialEq, Eq)]
    struct FamilyOf(Family, RepoPath, &'static str);
    let key = FamilyOf(fam, dir.clone(), profile.release);
    let placed = cx.memo_read(key, |cx| read_family(cx, profile, fam, dir));
    place(cx, placed, b);
}

/// Adds the placed files to `b`: inlined, excluded, or listed (effective
/// when targetPath matches one of their globs).
fn place(cx: &Cx<'_, '_>, placed: Vec<Placed>, b: &mut Builder) {
    for p in placed {
        match p {
            Placed::Startup(e) => b.push_effective(e),
            Placed::Excluded(e) => b.others.push(e),
            Placed::OnDemand {
                mut entry,
                on_target,
            } => {
                let globs = entry.paths.as_deref().unwrap_or_default();
                if matches_target(cx, globs) {
                    entry.applicability = Applicability::Effective;
                    entry.reason = on_target;
                }
                b.others.push(entry);
            }
        }
    }
}

/// Where a path-specific file goes, whatever targetPath is.
#[derive(Clone)]
enum Placed {
    /// Inlined at startup.
    Startup(Instruction),
    /// Not read: its `excludeAgent` names Copilot CLI ([`excluded_by`]).
    Excluded(Instruction),
    /// Listed at startup and injected when the agent views a matching
    /// file: the entry as when targetPath matches none of its globs, and
    /// its reason when it matches one.
    OnDemand {
        entry: Instruction,
        on_target: String,
    },
}

/// The files of one family in directory `dir`, in path order, each read
/// ([`one`]).
fn read_family(cx: &mut Cx<'_, '_>, profile: &Profile, fam: Family, dir: &RepoPath) -> Vec<Placed> {
    let (root, suffix) = fam.facts();
    let Some(base) = dir.join(root) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    list(cx, &base, suffix, 0, &mut files);
    if fam == Family::Instructions && !profile.instructions_suffix_any_case {
        files.retain(|p| p.file_name().is_some_and(|n| n.ends_with(suffix)));
    }
    files.sort();
    files
        .iter()
        .filter_map(|path| one(cx, profile, fam, path))
        .collect()
}

/// Whether targetPath matches one of `globs` ([`matcher`]).
fn matches_target(cx: &Cx<'_, '_>, globs: &[String]) -> bool {
    cx.context.target_path.as_ref().is_some_and(|t| {
        globs
            .iter()
            .filter_map(|g| matcher(g))
            .any(|m| m.is_match(t.as_str()))
    })
}

/// The files under `dir` whose name ends with `suffix` in any case
/// (`Rule.Md` and `UPPER.MD` of cases `oracle.name_case_variants` and
/// `oracle.hostile_names` were sent by 1.0.102), recursively.
fn list(cx: &Cx<'_, '_>, dir: &RepoPath, suffix: &str, depth: usize, out: &mut Vec<RepoPath>) {
    if depth > MAX_DEPTH || !cx.repo.is_dir(dir) {
        return;
    }
    for e in cx.repo.list_dir(dir) {
        let Some(p) = dir.child(&e.name) else {
            continue;
        };
        if e.kind == EntryKind::Dir {
            // Folders starting with `.` are skipped (seen with 1.0.102:
            // `.claude/rules/.drafts/draft.md` of case
            // `oracle.hostile_names` was not sent).
            if !e.name.starts_with('.') {
                list(cx, &p, suffix, depth + 1, out);
            }
        } else if e.name.to_ascii_lowercase().ends_with(suffix) && cx.repo.is_file(&p) {
            out.push(p);
        }
    }
}

/// The globs of front-matter value `v`: a string (comma-separated) or a
/// list of strings; `None` when absent.
fn globs(v: Option<&Value>) -> Option<Vec<String>> {
    let list: Vec<String> = match v? {
        Value::String(s) => playbookdiff_adapter::scope::split_glob_list(s),
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(|s| s.trim().to_string()))
            .collect(),
        _ => return None,
    };
    let list: Vec<String> = list.into_iter().filter(|g| !g.is_empty()).collect();
    (!list.is_empty()).then_some(list)
}

/// The globs of a user instruction file's text as release `profile`
/// reads them, with the key read: the first of [`keys`] the front matter
/// holds (from its line when the front matter is not valid YAML and the
/// release reads it so, [`line_fallback`], as [`placed`] does, without
/// reporting); the globs `None` when absent. Seen
/// with 1.0.102 on case `fuzz.copilot.home.0`: a user file with `paths:`
/// and no `applyTo` listed for its `paths`, as the repository's are;
/// 1.0.24 inlines it (behaviour `copilot.user-instructions-paths`).
pub(crate) fn apply_to(profile: &Profile, text: &TextFile) -> (&'static str, Option<Vec<String>>) {
    let keys = keys(profile);
    let Some(fm) = text.front_matter() else {
        return (keys[0], None);
    };
    let value = match &fm.value {
        Ok(v) => Cow::Borrowed(v),
        Err(_) => match line_fallback(profile, &fm.yaml) {
            Some(v) => Cow::Owned(v),
            None => return (keys[0], None),
        },
    };
    let key = keys
        .iter()
        .copied()
        .find(|k| value.get(*k).is_some())
        .unwrap_or(keys[0]);
    (key, globs(value.get(key)))
}

/// The keys of a front matter `yaml` that is not valid YAML, read from
/// their lines when the release does ([`Profile::front_matter_line_fallback`],
/// the first of [`keys`] that has a line); `None` otherwise: the file then
/// has no `applyTo` and is inlined whole.
fn line_fallback(profile: &Profile, yaml: &str) -> Option<Value> {
    if !profile.front_matter_line_fallback {
        return None;
    }
    keys(profile).iter().find_map(|k| line_value(yaml, k))
}

/// The value of `key` read from its line when the front matter is not
/// valid YAML, as an object `{key: value}`: the first line starting with
/// `key:` and a space or tab, the value trimmed, its quotes removed when
/// it is quoted at both ends, else a ` #` comment removed (1.0.75
/// `app.js`, the fallback of the instruction-file reader:
/// `/^applyTo:[ \t]+(.*)/m`); `None` when no line holds a value.
fn line_value(yaml: &str, key: &str) -> Option<Value> {
    let v = yaml.lines().find_map(|l| {
        l.strip_prefix(key)?
            .strip_prefix(':')
            .filter(|r| r.starts_with([' ', '\t']))
    })?;
    let v = v.trim();
    let quoted = v.len() >= 2
        && ((v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')));
    let v = if quoted {
        &v[1..v.len() - 1]
    } else {
        v.find(" #")
            .or_else(|| v.find("\t#"))
            .map_or(v, |i| v[..i].trim_end())
    };
    (!v.is_empty()).then(|| serde_json::json!({ key: v }))
}

/// The globs Copilot CLI takes for every file (1.0.24 and 1.0.75
/// `app.js`: `new Set(["**","**/*","*"])`; seen with 1.0.102: `applyTo:
/// "*"` and `paths: "*"` were inlined, not listed).
const EVERY_FILE: &[&str] = &["**", "**/*", "*"];

/// Whether every glob is one of [`EVERY_FILE`]: the file always applies.
pub(crate) fn always(globs: &Option<Vec<String>>) -> bool {
    globs
        .as_ref()
        .is_none_or(|g| g.iter().all(|g| EVERY_FILE.contains(&g.as_str())))
}

/// The `excludeAgent` values by which an instruction file leaves Copilot
/// CLI out (1.0.24 and 1.0.75 `app.js`: `new Set(["coding-agent",
/// "cloud-agent"])`; seen with 1.0.102 on fuzzer seeds 10 and 61:
/// `excludeAgent: coding-agent` left the file out of the table and of the
/// inlined files).
const SELF_NAMES: &[&str] = &["coding-agent", "cloud-agent"];

/// The value of `excludeAgent` (a string or a list of strings) in `text`'s
/// front matter that names Copilot CLI ([`SELF_NAMES`]); `None` when there
/// is none, or when the front matter is not valid YAML (then Copilot CLI
/// reads only `applyTo`, from its line).
pub(crate) fn excluded_by(text: &TextFile) -> Option<&'static str> {
    let fm = text.front_matter()?;
    let v = fm.value.as_ref().ok()?.get("excludeAgent")?;
    let named = |x: &Value| SELF_NAMES.iter().copied().find(|n| x.as_str() == Some(*n));
    match v {
        Value::Array(a) => a.iter().find_map(named),
        x => named(x),
    }
}

/// The front matter of the instruction file `path` is not valid YAML
/// (`error`): an `invalid-yaml` diagnostic; Copilot CLI `profile` then
/// reads `key` from its line ([`line_value`]) or, before
/// [`Profile::front_matter_line_fallback`], no `applyTo` at all.
pub(crate) fn invalid_front_matter(
    profile: &Profile,
    path: &RepoPath,
    error: &ParseError,
    key: &str,
) -> Diagnostic {
    let effect = if profile.front_matter_line_fallback {
        format!("Copilot CLI then takes `{key}` from its line as written (seen with 1.0.102: `applyTo: [unclosed` became the glob `[unclosed`)")
    } else {
        format!(
            "Copilot CLI {} then reads no `{key}` and inlines the file whole, front matter included, for every file (seen with 1.0.24)",
            profile.release
        )
    };
    problems::invalid_syntax(path, "YAML", error, &effect, SourceFormat::Markdown)
}

/// The front-matter problem of the user's instruction file `path`, read
/// as `text` by release `profile`: its YAML is not valid
/// ([`invalid_front_matter`]).
pub(crate) fn user_front_matter_problem(
    profile: &Profile,
    path: &RepoPath,
    text: &TextFile,
) -> Option<Diagnostic> {
    let fm = text.front_matter()?;
    let e = fm.value.as_ref().err()?;
    Some(invalid_front_matter(profile, path, e, "applyTo"))
}

/// The matcher of one glob, relative to the git root (`**` crosses
/// directories, `*` does not); `None` when it does not parse.
fn parsed(glob: &str) -> Option<GlobMatcher> {
    let g = glob.strip_prefix("./").unwrap_or(glob);
    GlobBuilder::new(g)
        .literal_separator(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

/// Whether `glob` of a front matter of `text` parses ([`parsed`]), decided
/// once per file and glob: the answer is kept with the file, so the
/// compilations of every launch directory on one `Repo` share it (building
/// a matcher is the costly part of reading a path-specific file).
fn parses(text: &TextFile, glob: &str) -> bool {
    let memo = text.parsed_as(|_| GlobParses::default());
    let mut seen = memo.0.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, ok)) = seen.iter().find(|(g, _)| g == glob) {
        return *ok;
    }
    let ok = parsed(glob).is_some();
    seen.push((glob.to_string(), ok));
    ok
}

/// The globs of one file's front matter and whether each parses, as
/// [`parses`] found them.
#[derive(Default)]
struct GlobParses(Mutex<Vec<(String, bool)>>);

/// The matcher of one glob ([`parsed`]); a glob that does not parse (an
/// unclosed `[`) matches its own text literally, as minimatch takes it.
pub(crate) fn matcher(glob: &str) -> Option<GlobMatcher> {
    parsed(glob).or_else(|| parsed(&globset::escape(glob)))
}

/// One file of family `fam`, its globs under [`keys`]; `None` when it
/// cannot be read (reported).
fn one(cx: &mut Cx<'_, '_>, profile: &Profile, fam: Family, path: &RepoPath) -> Option<Placed> {
    let root = origin(path, fam);
    let text = read(cx, path).ok()?;
    placed(cx, profile, fam, (path, &root), text)
}

/// The instruction files of `.github/instructions` in each directory of
/// the user's `COPILOT_CUSTOM_INSTRUCTIONS_DIRS` on `machine`, placed as
/// the repository's are (1.0.24 inlines each, 1.0.102 lists a specific
/// one in its table; seen with both, case
/// `oracle.local_user_layers.home-copilot-env-dirs`), in the user's
/// layer, after the repository's.
pub(crate) fn listed_dirs(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    machine: &Machine,
    b: &mut Builder,
) {
    let mut out = Vec::new();
    for dir in machine.listed(crate::user::INSTRUCTIONS_DIRS_VAR) {
        let Some(base) = dir.join(".github/instructions") else {
            continue;
        };
        for path in crate::user::files(machine, &base) {
            let non_utf8 = playbookdiff_adapter::problems::NonUtf8::Unobserved;
            let Some(text) = crate::user::read(machine, &path, non_utf8, &mut cx.diags) else {
                continue;
            };
            let Some(mut p) = placed(
                cx,
                profile,
                Family::Instructions,
                (&path, &RepoPath::root()),
                text,
            ) else {
                continue;
            };
            let (Placed::Startup(e) | Placed::Excluded(e) | Placed::OnDemand { entry: e, .. }) =
                &mut p;
            e.source.scope = SourceScope::User;
            out.push(p);
        }
    }
    place(cx, out, b);
}

/// The placement of the file `path` of family `fam` holding `text`, its
/// entry applying from `root`; `None` when nothing is read from it.
fn placed(
    cx: &mut Cx<'_, '_>,
    profile: &Profile,
    fam: Family,
    (path, root): (&RepoPath, &RepoPath),
    text: Arc<TextFile>,
) -> Option<Placed> {
    let keys = keys(profile);
    let root = root.clone();
    if fam == Family::Instructions {
        if let Some(name) = excluded_by(&text) {
            return Some(Placed::Excluded(excluded(path, &root, &text, name)));
        }
    }
    let fm = text.front_matter();
    let value = match fm {
        Some(f) => match &f.value {
            Ok(v) => Some(Cow::Borrowed(v)),
            Err(e) => {
                cx.diag(invalid_front_matter(profile, path, e, keys[0]));
                line_fallback(profile, &f.yaml).map(Cow::Owned)
            }
        },
        None => None,
    };
    let key = keys
        .iter()
        .copied()
        .find(|k| value.as_ref().is_some_and(|v| v.get(*k).is_some()))
        .unwrap_or(match fam {
            Family::Instructions => "applyTo",
            Family::Rules => "paths",
        });
    let globs = globs(value.as_ref().and_then(|v| v.get(key)));
    let kind = match fam {
        Family::Instructions => InstructionKind::Instructions,
        Family::Rules => InstructionKind::Rule,
    };
    let what = match fam {
        Family::Instructions => "a path-specific instruction file",
        Family::Rules => "a Claude Code rule, which Copilot CLI 1.0.89 and later reads too: a change made for Claude Code changes what Copilot CLI receives",
    };
    if always(&globs) {
        let mut e = entry(path, &root, Some(&text), (LoadPhase::Startup, Applicability::Effective), format!("{path} is {what}; it applies to every file (`{key}` absent or `**`), so Copilot CLI inlines it at startup as written, front matter included."));
        e.kind = kind;
        e.id = format!("copilot:{kind}:{path}");
        if profile.markdown_filter {
            e.content = crate::instructions::sent_text(profile, &e.content);
            e.reason
                .push_str(&crate::instructions::filter_note(&text.text));
        }
        return Some(Placed::Startup(e));
    }
    let globs = globs.unwrap_or_default();
    let shown = globs.join(", ");
    if profile.path_instructions == PathInstructions::InlinedWithPrefix {
        // The prefix holds the value as written (seen with 1.0.24 on case
        // `corpus.dyoshikawa__rulesync`: `'**/*.test.ts,src/e2e/**/*.spec.ts'`
        // arrived as `**/*.test.ts,src/e2e/**/*.spec.ts`, no space added).
        let written = value
            .as_ref()
            .and_then(|v| v.get(key))
            .and_then(Value::as_str);
        let shown = written.map_or(shown, str::to_string);
        let mut e = entry(path, &root, Some(&text), (LoadPhase::Startup, Applicability::Effective), format!("{path} is {what} for `{shown}`; Copilot CLI 1.0.24 inlines it at startup after \"This instruction applies to files matching the pattern: {shown}\"."));
        e.kind = kind;
        e.id = format!("copilot:{kind}:{path}");
        e.paths = Some(globs);
        e.content = format!(
            "This instruction applies to files matching the pattern: {shown}\n\n{}",
            crate::instructions::sent_text(profile, &e.content)
        );
        if profile.markdown_filter {
            e.reason
                .push_str(&crate::instructions::filter_note(&text.text));
        }
        return Some(Placed::Startup(e));
    }
    for g in &globs {
        if !parses(&text, g) {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidGlob,
                    format!("`{key}` of {} holds the glob `{g}`, which does not parse as a glob; the analysis takes it literally, as minimatch does, so only a file of that exact path would make Copilot CLI inject the file.", problems::quote(path)),
                )
                .at(SourceRef::project(path.clone(), SourceFormat::Markdown).with_lines(1, fm.map_or(1, |f| f.end_line))),
            );
        }
    }
    let on_target = format!("{path} is {what} for `{shown}`, which matches targetPath; Copilot CLI lists it in a table at startup and injects its text when the agent views the target.");
    let why = format!("{path} is {what} for `{shown}`; Copilot CLI lists it in a table at startup and injects its text only when the agent views a matching file.");
    let a = Applicability::Conditional;
    let mut e: Instruction = entry(path, &root, Some(&text), (LoadPhase::OnDemand, a), why);
    e.kind = kind;
    e.id = format!("copilot:{kind}:{path}");
    e.paths = Some(globs);
    Some(Placed::OnDemand {
        entry: e,
        on_target,
    })
}

/// The entry of instruction file `path` (of directory `root`, holding
/// `text`) whose `excludeAgent` holds `name` ([`excluded_by`]).
pub(crate) fn excluded(
    path: &RepoPath,
    root: &RepoPath,
    text: &TextFile,
    name: &str,
) -> Instruction {
    let why = format!("{path} is a path-specific instruction file whose `excludeAgent` names `{name}`, which Copilot CLI takes for itself, so it does not read the file.");
    let mut e = entry(
        path,
        root,
        Some(text),
        (LoadPhase::Startup, Applicability::Excluded),
        why,
    );
    e.kind = InstructionKind::Instructions;
    e.id = format!("copilot:{}:{path}", e.kind);
    e
}

#[cfg(test)]
mod tests {
    use super::{always, globs, line_fallback, line_value, matcher};
    use crate::profile::of;
    use serde_json::json;

    /// A front matter that is not valid YAML gives `applyTo` from its line
    /// from 1.0.48 on (bisected, case
    /// `oracle.copilot_broken_front_matter.home-copilot-broken-front-matter`),
    /// nothing before: the file is then inlined whole.
    #[test]
    fn the_line_fallback_starts_with_1_0_48() {
        let yaml = "applyTo: \"lib/**\"\n  : [unbalanced";
        assert_eq!(line_fallback(&of("1.0.47"), yaml), None);
        assert_eq!(
            line_fallback(&of("1.0.48"), yaml),
            Some(json!({"applyTo": "lib/**"}))
        );
    }

    /// `applyTo` is a comma-separated string or a list; `**` means always.
    #[test]
    fn apply_to_forms() {
        let v = json!("src/**, **/*.py");
        assert_eq!(
            globs(Some(&v)),
            Some(vec!["src/**".to_string(), "**/*.py".to_string()])
        );
        assert_eq!(
            globs(Some(&json!("{src,lib}/**/*.ts, *.md"))),
            Some(vec!["{src,lib}/**/*.ts".to_string(), "*.md".to_string()])
        );
        assert!(always(&globs(Some(&json!("**")))));
        assert!(always(&None));
        assert!(!always(&globs(Some(&json!(["src/**"])))));
        assert!(matcher("src/**").unwrap().is_match("src/a/b.rs"));
        assert!(!matcher("*.py").unwrap().is_match("src/a.py"));
        assert!(matcher("**/*.py").unwrap().is_match("src/a.py"));
        assert_eq!(
            line_value("applyTo: [unclosed\n", "applyTo"),
            Some(json!({"applyTo": "[unclosed"}))
        );
    }

    /// `*` applies to every file, as `**` does (1.0.75 `app.js`).
    #[test]
    fn a_lone_star_is_every_file() {
        assert!(always(&globs(Some(&json!("*")))));
        assert!(always(&globs(Some(&json!(["**/*", "*"])))));
        assert!(!always(&globs(Some(&json!("*, src/**")))));
    }

    /// The line of a key when the YAML does not parse, as 1.0.75's
    /// fallback reads it: at the line's start, a space or tab after the
    /// colon, quotes at both ends removed, else a ` #` comment.
    #[test]
    fn the_line_fallback_reads_as_the_agent() {
        let read = |yaml: &str| line_value(yaml, "applyTo");
        assert_eq!(read("applyTo:src/**"), None);
        assert_eq!(read("  applyTo: src/**"), None);
        assert_eq!(read("applyTo: "), None);
        assert_eq!(read("applyTo: 'a, b'"), Some(json!({"applyTo": "a, b"})));
        assert_eq!(read("applyTo: \"a"), Some(json!({"applyTo": "\"a"})));
        assert_eq!(
            read("applyTo:\tsrc/** # all"),
            Some(json!({"applyTo": "src/**"}))
        );
    }
}

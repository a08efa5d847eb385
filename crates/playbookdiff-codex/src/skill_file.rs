//! How Codex reads one skill: the front matter of `SKILL.md` and the
//! optional `agents/openai.yaml`.
//!
//! Source: openai/codex `codex-rs/core-skills/src/loader.rs`
//! (`parse_skill_file`, `extract_frontmatter`, `SkillFrontmatter`,
//! `default_skill_name`, `sanitize_single_line`, `validate_len`,
//! `load_skill_metadata`), checked with `codex debug prompt-input` of
//! 0.142.3 and 0.171.0. Both files are read with serde_yaml 0.9, the crate
//! Codex pins, so every scalar is typed the way Codex types it: a plain
//! `yes`, `0x10`, `1e3`, `007` or `.inf` given for a text field is that
//! text, verbatim; `~`, `null` and an empty value are absent.

pub(crate) use crate::profile::LongDescription;
use serde::Deserialize;

/// The longest accepted name, in characters after whitespace collapse
/// (`MAX_NAME_LEN`).
pub(crate) const NAME_LIMIT: usize = 64;
/// The longest description shown in the listing, in characters: a longer
/// one is cut to 1,021 characters followed by `...` (both profiled
/// releases) or makes Codex refuse the skill (older releases,
/// [`LongDescription`]).
pub(crate) const DESCRIPTION_SHOWN_LIMIT: usize = 1024;
/// The longest accepted `metadata.short-description`, in characters.
const SHORT_DESCRIPTION_LIMIT: usize = 1024;

/// `SkillFrontmatter`: only these keys are typed; others are ignored.
#[derive(Deserialize)]
struct Front {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    metadata: FrontMetadata,
}

/// `metadata:` must be a mapping (a scalar, a list or `~` fails the file).
#[derive(Deserialize, Default)]
struct FrontMetadata {
    #[serde(default, rename = "short-description")]
    short_description: Option<String>,
}

/// The front matter block as Codex finds it: the first line is `---`
/// (surrounding white space allowed, no byte-order mark before it), and
/// the next line that is `---` closes it (`...` does not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// The lines between the fences, joined with `\n`.
    pub yaml: String,
    /// 1-based line of the closing fence.
    pub end_line: u32,
}

/// Finds the front matter block of `text`; `None` when the file does not
/// open with `---` or never closes it.
pub(crate) fn block(text: &str) -> Option<Block> {
    let mut lines = text.split('\n');
    if lines.next()?.trim() != "---" {
        return None;
    }
    let mut body = Vec::new();
    for (i, l) in lines.enumerate() {
        let l = l.strip_suffix('\r').unwrap_or(l);
        if l.trim() == "---" {
            return Some(Block {
                yaml: body.join("\n"),
                end_line: i as u32 + 2,
            });
        }
        body.push(l);
    }
    None
}

/// True when `text` opens a front matter block (its first line is `---`).
pub(crate) fn opens(text: &str) -> bool {
    text.split('\n').next().is_some_and(|l| l.trim() == "---")
}

/// What Codex makes of a front matter block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// The skill loads with this name and description (whitespace runs
    /// collapsed; the name defaults to the directory's). `repaired` is
    /// true when only the colon repair made it parse.
    Ok {
        name: String,
        description: String,
        repaired: bool,
    },
    /// The skill is rejected: `why` in words, `line` the 1-based line of
    /// the YAML (front matter line 1 = file line 2) when known.
    Rejected { why: String, line: Option<u32> },
}

/// Collapses every whitespace run to one space and trims
/// (`sanitize_single_line`).
pub(crate) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The description as the listing shows it: at most
/// [`DESCRIPTION_SHOWN_LIMIT`] characters, a longer one cut to 1,021 and
/// followed by `...`.
pub(crate) fn shown_description(d: &str) -> String {
    if d.chars().count() <= DESCRIPTION_SHOWN_LIMIT {
        d.to_string()
    } else {
        let mut s: String = d.chars().take(DESCRIPTION_SHOWN_LIMIT - 3).collect();
        s.push_str("...");
        s
    }
}

/// What a release accepts in a skill's front matter: the facts of its
/// version table row ([`crate::profile::Facts`]) that [`parse`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rules {
    /// A description over [`DESCRIPTION_SHOWN_LIMIT`] characters: refused
    /// or cut ([`crate::profile::Facts::long_description`]).
    pub(crate) long: LongDescription,
    /// A front matter without `name` names the skill after its folder;
    /// otherwise the skill is refused
    /// ([`crate::profile::Facts::skill_name_from_folder`]).
    pub(crate) name_from_folder: bool,
}

impl Rules {
    /// The rules of the release whose facts are `facts`.
    pub(crate) fn of(facts: &crate::profile::Facts) -> Rules {
        Rules {
            long: facts.long_description,
            name_from_folder: facts.skill_name_from_folder,
        }
    }
}

/// Parses `yaml` as Codex does, `dir_name` being the name of the folder
/// holding `SKILL.md` (the default name, when `rules` allow one). When
/// serde_yaml rejects the text, the colon repair is tried: each top-level
/// plain scalar holding `: ` is quoted and the text parsed again (`Build
/// for AWS: ECS` loads in both profiled releases). A description over
/// [`DESCRIPTION_SHOWN_LIMIT`] characters is rejected when `rules` say so.
pub(crate) fn parse(yaml: &str, dir_name: &str, rules: Rules) -> Parsed {
    let (front, repaired) = match serde_yaml::from_str::<Option<Front>>(yaml) {
        Ok(f) => (f, false),
        Err(e) => match repair(yaml).and_then(|r| serde_yaml::from_str::<Option<Front>>(&r).ok()) {
            Some(f) => (f, true),
            None => {
                return Parsed::Rejected {
                    why: yaml_error(&e),
                    line: e.location().map(|l| l.line() as u32),
                }
            }
        },
    };
    let Some(front) = front else {
        return Parsed::Rejected {
            why: "its front matter is empty, so it has no description".to_string(),
            line: None,
        };
    };
    let given = front
        .name
        .as_deref()
        .map(collapse)
        .filter(|n| !n.is_empty());
    if given.is_none() && !rules.name_from_folder {
        return Parsed::Rejected {
            why: "it has no `name` (this release requires one; later releases name the skill after its folder)".to_string(),
            line: None,
        };
    }
    let name = given.unwrap_or_else(|| collapse(dir_name));
    let name = if name.is_empty() {
        "skill".to_string()
    } else {
        name
    };
    let description = front
        .description
        .as_deref()
        .map(collapse)
        .unwrap_or_default();
    if description.is_empty() {
        return Parsed::Rejected {
            why: "it has no description (Codex requires a non-empty description)".to_string(),
            line: None,
        };
    }
    let n = description.chars().count();
    if rules.long == LongDescription::Refused && n > DESCRIPTION_SHOWN_LIMIT {
        return Parsed::Rejected {
            why: format!("its description is {n} characters long, over this release's limit of {DESCRIPTION_SHOWN_LIMIT} (later releases cut it)"),
            line: None,
        };
    }
    let n = name.chars().count();
    if n > NAME_LIMIT {
        return Parsed::Rejected {
            why: format!("its name is {n} characters long, over Codex's limit of {NAME_LIMIT}"),
            line: None,
        };
    }
    if let Some(sd) = front.metadata.short_description.as_deref().map(collapse) {
        let n = sd.chars().count();
        if n > SHORT_DESCRIPTION_LIMIT {
            return Parsed::Rejected {
                why: format!("its metadata.short-description is {n} characters long, over Codex's limit of {SHORT_DESCRIPTION_LIMIT}"),
                line: None,
            };
        }
    }
    Parsed::Ok {
        name,
        description,
        repaired,
    }
}

/// serde_yaml's message in words, without its location and without
/// Rust type names.
fn yaml_error(e: &serde_yaml::Error) -> String {
    let m = e.to_string();
    let m = m.split(" at line ").next().unwrap_or(&m).trim().to_string();
    if m.starts_with("metadata: invalid type") {
        return "its `metadata` is not a mapping".to_string();
    }
    for field in ["name", "description"] {
        if let Some(rest) = m.strip_prefix(&format!("{field}: invalid type: ")) {
            let what = match rest.split(',').next().unwrap_or(rest) {
                "sequence" => "a list",
                "map" => "a mapping",
                other => other,
            };
            return format!("it gives `{field}` as {what}, not text");
        }
    }
    if let Some(rest) = m.strip_prefix("duplicate field `") {
        let key = rest.split('`').next().unwrap_or("");
        return format!("the key `{key}` appears twice");
    }
    if m.contains("invalid type") {
        return "its front matter is not a mapping of text fields".to_string();
    }
    format!("its front matter is not valid YAML ({m})")
}

/// The colon repair: top-level `key: value` lines whose plain value holds
/// `: ` get the value single-quoted. `None` when no line changes.
fn repair(yaml: &str) -> Option<String> {
    let mut changed = false;
    let out: Vec<String> = yaml
        .split('\n')
        .map(|line| {
            let Some((key, value)) = line.split_once(": ") else {
                return line.to_string();
            };
            let plain_key = !key.is_empty()
                && !key.starts_with(char::is_whitespace)
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let v = value.trim();
            let plain_value = !v.is_empty()
                && !v.starts_with(['"', '\'', '|', '>', '[', '{', '&', '*', '!', '#', '-']);
            if plain_key && plain_value && v.contains(": ") {
                changed = true;
                format!("{key}: '{}'", v.replace('\'', "''"))
            } else {
                line.to_string()
            }
        })
        .collect();
    changed.then(|| out.join("\n"))
}

/// What `agents/openai.yaml` decides. A file Codex cannot deserialize is
/// ignored whole ("fail open"): defaults apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policy {
    /// `policy.allow_implicit_invocation`; `None` when unset or when the
    /// file is ignored (implicit invocation allowed).
    pub allow_implicit: Option<bool>,
    /// False when `policy.products` is a non-empty list without `codex`:
    /// the Codex CLI drops the skill (`filter_skill_load_outcome_for_product`).
    pub for_codex: bool,
    /// True when the file failed to deserialize and was ignored.
    pub ignored: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            allow_implicit: None,
            for_codex: true,
            ignored: false,
        }
    }
}

/// `SkillMetadataFile`: a wrong type anywhere fails the whole file.
#[derive(Deserialize, Default)]
#[allow(dead_code)] // typed only so that a wrong type fails the file, as in Codex
struct MetadataFile {
    #[serde(default)]
    interface: Option<Interface>,
    #[serde(default)]
    dependencies: Option<Dependencies>,
    #[serde(default)]
    policy: Option<PolicyTable>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Interface {
    display_name: Option<String>,
    short_description: Option<String>,
    icon_small: Option<String>,
    icon_large: Option<String>,
    brand_color: Option<String>,
    default_prompt: Option<String>,
}

#[derive(Deserialize)]
struct Dependencies {
    #[serde(default)]
    #[allow(dead_code)]
    tools: Vec<DependencyTool>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct DependencyTool {
    #[serde(rename = "type")]
    kind: Option<String>,
    value: Option<String>,
    description: Option<String>,
    transport: Option<String>,
    command: Option<String>,
    url: Option<String>,
}

#[derive(Deserialize)]
struct PolicyTable {
    #[serde(default)]
    allow_implicit_invocation: Option<bool>,
    #[serde(default)]
    products: Vec<String>,
}

/// The products Codex knows; any other value fails the file. Matched
/// without regard to case (`CODEX` counts as `codex`, seen with 0.171.0).
const PRODUCTS: &[&str] = &["codex", "chatgpt", "atlas"];

/// Reads `agents/openai.yaml` text as Codex does.
pub(crate) fn policy(text: &str) -> Policy {
    let ignored = Policy {
        ignored: true,
        ..Policy::default()
    };
    let file = match serde_yaml::from_str::<Option<MetadataFile>>(text) {
        Ok(f) => f.unwrap_or_default(),
        Err(_) => return ignored,
    };
    let Some(p) = file.policy else {
        return Policy::default();
    };
    let products: Vec<String> = p.products.iter().map(|s| s.to_ascii_lowercase()).collect();
    if products.iter().any(|s| !PRODUCTS.contains(&s.as_str())) {
        return ignored;
    }
    Policy {
        allow_implicit: p.allow_implicit_invocation,
        for_codex: products.is_empty() || products.iter().any(|s| s == "codex"),
        ignored: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules of the newest profiled release.
    const CUT: Rules = Rules {
        long: LongDescription::Cut,
        name_from_folder: true,
    };

    fn ok(yaml: &str) -> (String, String) {
        match parse(yaml, "dir", CUT) {
            Parsed::Ok {
                name, description, ..
            } => (name, description),
            other => panic!("{yaml:?}: {other:?}"),
        }
    }

    fn rejected(yaml: &str) -> bool {
        matches!(parse(yaml, "dir", CUT), Parsed::Rejected { .. })
    }

    /// serde_yaml 0.9 reads every scalar given for a text field verbatim
    /// (the table of fidelity row X10, seen in Codex's listing).
    #[test]
    fn scalars_are_text_verbatim() {
        for s in [
            "y", "yes", "no", "on", "off", "true", "True", "1e3", "0x10", "007", ".inf", "5", "-1",
            "1.50",
        ] {
            assert_eq!(
                ok(&format!("name: {s}\ndescription: {s}")),
                (s.to_string(), s.to_string()),
                "{s}"
            );
        }
    }

    #[test]
    fn absent_name_takes_the_directory_name() {
        for y in [
            "description: d",
            "name: ~\ndescription: d",
            "name: null\ndescription: d",
            "name:\ndescription: d",
            "name: ''\ndescription: d",
            "name: '   '\ndescription: d",
        ] {
            assert_eq!(ok(y).0, "dir", "{y}");
        }
    }

    #[test]
    fn description_is_required_and_non_empty() {
        assert!(rejected("name: a"));
        assert!(rejected("name: a\ndescription: ''"));
        assert!(rejected("name: a\ndescription: ~"));
        assert!(rejected(""));
    }

    #[test]
    fn lists_and_mappings_fail_the_file() {
        assert!(rejected("name: [a]\ndescription: d"));
        assert!(rejected("name: a\ndescription: {x: 1}"));
    }

    #[test]
    fn metadata_must_be_a_mapping() {
        assert!(rejected("name: a\ndescription: d\nmetadata: 5"));
        assert!(rejected("name: a\ndescription: d\nmetadata: ~"));
        assert!(rejected("name: a\ndescription: d\nmetadata: [x]"));
        assert_eq!(ok("name: a\ndescription: d\nmetadata:\n  x: 1").0, "a");
        assert_eq!(
            ok("name: a\ndescription: d\nmetadata:\n  short-description: 5").0,
            "a"
        );
    }

    #[test]
    fn whitespace_collapses_before_the_length_check() {
        assert_eq!(
            ok("name: \"ws   name\"\ndescription: \"a  \\n\\t b\"").1,
            "a b"
        );
        let long = "n".repeat(65);
        assert!(rejected(&format!("name: {long}\ndescription: d")));
        let spaced = format!(
            "name: \"{}   {}\"\ndescription: d",
            "n".repeat(31),
            "n".repeat(32)
        );
        assert_eq!(ok(&spaced).0.chars().count(), 64);
    }

    #[test]
    fn colon_repair() {
        assert_eq!(
            ok("name: colon\ndescription: Build for AWS: ECS").1,
            "Build for AWS: ECS"
        );
        assert_eq!(ok("name: colon2: x\ndescription: d").0, "colon2: x");
        assert!(matches!(
            parse("description: a: b", "dir", CUT),
            Parsed::Ok { repaired: true, .. }
        ));
    }

    #[test]
    fn long_descriptions_are_cut_in_the_listing() {
        let d = "d".repeat(1030);
        let shown = shown_description(&d);
        assert_eq!(shown.chars().count(), 1024);
        assert!(shown.ends_with("d..."));
        assert_eq!(shown_description("short"), "short");
    }

    /// Before 0.110.0 a skill without `name` is refused; from it on it is
    /// named after its folder (case `codex.x27_untrusted_project`).
    #[test]
    fn a_missing_name_is_the_folders_from_0_110() {
        assert_eq!(ok("description: d").0, "dir");
        let old = Rules {
            name_from_folder: false,
            ..CUT
        };
        assert!(matches!(
            parse("description: d", "dir", old),
            Parsed::Rejected { .. }
        ));
        assert!(matches!(
            parse("name: n\ndescription: d", "dir", old),
            Parsed::Ok { .. }
        ));
    }

    /// Before 0.142.0 a description over the limit refuses the skill;
    /// one at the limit is kept.
    #[test]
    fn long_descriptions_refused_before_they_were_cut() {
        let yaml = |n: usize| format!("name: s\ndescription: {}", "d".repeat(n));
        let refused = |n| {
            matches!(
                parse(
                    &yaml(n),
                    "dir",
                    Rules {
                        long: LongDescription::Refused,
                        ..CUT
                    }
                ),
                Parsed::Rejected { .. }
            )
        };
        assert!(refused(1025) && !refused(1024));
        assert!(!rejected(&yaml(1025)));
    }

    #[test]
    fn fences() {
        assert_eq!(block("---\nname: a\n---\nbody").unwrap().yaml, "name: a");
        assert_eq!(
            block("--- \r\nname: a\r\n---  \r\n").unwrap().yaml,
            "name: a"
        );
        assert!(block("\u{feff}---\nname: a\n---\n").is_none());
        assert!(block("---\nname: a\n...\n").is_none());
        assert!(block("```\n---\nname: a\n---\n").is_none());
        assert_eq!(block("---\nname: a\n---\n").unwrap().end_line, 3);
    }

    #[test]
    fn openai_yaml_fails_open() {
        let p = |t: &str| policy(t);
        assert_eq!(
            p("policy:\n  allow_implicit_invocation: false").allow_implicit,
            Some(false)
        );
        assert_eq!(
            p("policy:\n  allow_implicit_invocation: FALSE").allow_implicit,
            Some(false)
        );
        for t in [
            "policy:\n  allow_implicit_invocation: no",
            "policy:\n  allow_implicit_invocation: off",
            "policy:\n  allow_implicit_invocation: 0",
            "policy:\n  allow_implicit_invocation: \"false\"",
            "policy:\n  products: [bogus]",
            "policy: [",
            "interface: 5",
        ] {
            let r = p(t);
            assert!(
                r.ignored && r.allow_implicit.is_none() && r.for_codex,
                "{t}"
            );
        }
        assert!(!p("policy:\n  products: [chatgpt]").for_codex);
        assert!(p("policy:\n  products: []").for_codex);
        assert!(p("policy:\n  products: [CODEX]").for_codex);
        assert!(!p("interface:\n  display_name: 5").ignored);
    }
}

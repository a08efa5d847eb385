//! `--mode local`: the problems of the user's own files, diagnosed as
//! each agent behaves on them (issue 28: a user file that is not UTF-8,
//! broken front matter in a user file).
//!
//! The homes are the oracle's fixture homes (`oracle/homes/NAME`), so
//! each assertion is the fact its recorded case shows; the managed root
//! is an empty directory, so nothing depends on the machine running the
//! tests.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `compile --format json` of the oracle's `local_user_layers` fixture in
/// local mode with `home`, for `harness` at release `version`.
fn compiled(home: &Path, harness: &str, version: &str) -> Value {
    let managed = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .arg("compile")
        .arg(workspace().join("oracle/fixtures/local_user_layers"))
        .args(["--root", "--mode", "local", "--home"])
        .arg(home)
        .arg("--managed-root")
        .arg(managed.path())
        .args(["--harness", harness, "--format", "json", "--agent-version"])
        .arg(format!("{harness}={version}"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The oracle's fixture home `name`.
fn home(name: &str) -> PathBuf {
    workspace().join("oracle/homes").join(name)
}

/// `(path, first line, message)` of each diagnostic with `code`.
fn diags(doc: &Value, code: &str) -> Vec<(String, u64, String)> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| {
            (
                d["source"]["path"].as_str().unwrap().to_string(),
                d["source"]["lines"]["start"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The paths of the items of `kind` (`instructions`, `skills`).
fn paths(doc: &Value, kind: &str) -> Vec<String> {
    doc[kind]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["source"]["path"].as_str().unwrap().to_string())
        .collect()
}

/// The names of the subagents (none when the document has no list).
fn agents(doc: &Value) -> Vec<String> {
    doc["subagents"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect()
}

/// Each `invalid-utf8` of `doc` as `(path, line)`, and whether every
/// message says `effect`.
fn invalid_utf8(doc: &Value, effect: &str) -> Vec<(String, u64)> {
    let found = diags(doc, "invalid-utf8");
    for (p, _, m) in &found {
        assert!(m.contains(effect), "{p}: {m}");
    }
    found.into_iter().map(|(p, l, _)| (p, l)).collect()
}

fn at(path: &str, line: u64) -> (String, u64) {
    (path.to_string(), line)
}

/// Copilot CLI 1.0.24 loads the user's files that are not UTF-8, each
/// invalid byte as U+FFFD; 1.0.102 leaves out the instruction files and
/// the custom agent, and still lists the skill (case
/// `oracle.local_user_layers.home-copilot-non-utf8`).
#[test]
fn copilot_reads_or_skips_a_users_file_that_is_not_utf8_as_its_release_does() {
    let old = compiled(&home("copilot-non-utf8"), "copilot", "1.0.24");
    let expected = [
        at("~/.copilot/agents/latin1-agent.agent.md", 5),
        at("~/.copilot/copilot-instructions.md", 1),
        at("~/.copilot/instructions/latin1.instructions.md", 4),
        at("~/.copilot/skills/latin1/SKILL.md", 5),
    ];
    let mut got = invalid_utf8(&old, "Copilot CLI reads each invalid byte as U+FFFD");
    got.sort();
    assert_eq!(got, expected);
    let sent = paths(&old, "instructions");
    assert!(sent.contains(&"~/.copilot/copilot-instructions.md".to_string()));
    assert_eq!(agents(&old), ["latin1-agent"]);

    let new = compiled(&home("copilot-non-utf8"), "copilot", "1.0.102");
    let skipped = diags(&new, "invalid-utf8");
    for (p, _, m) in &skipped {
        let loaded = p.ends_with("SKILL.md");
        assert_eq!(m.contains("does not load it"), !loaded, "{p}: {m}");
    }
    assert_eq!(skipped.len(), 4);
    let sent = paths(&new, "instructions");
    assert!(!sent.iter().any(|p| p.starts_with("~/")), "{sent:?}");
    assert!(agents(&new).is_empty());
    assert!(paths(&new, "skills").contains(&"~/.copilot/skills/latin1/SKILL.md".to_string()));
}

/// The boundaries bisected: the agent is left out from 1.0.75, the
/// instruction files from 1.0.81.
#[test]
fn copilot_skips_the_users_non_utf8_agent_and_instructions_from_their_first_releases() {
    let h = home("copilot-non-utf8");
    let user_sent = |d: &Value| {
        paths(d, "instructions")
            .iter()
            .any(|p| p.starts_with("~/.copilot/"))
    };
    let v73 = compiled(&h, "copilot", "1.0.73");
    assert_eq!(agents(&v73), ["latin1-agent"]);
    let v75 = compiled(&h, "copilot", "1.0.75");
    assert!(agents(&v75).is_empty());
    assert!(user_sent(&v75));
    let v80 = compiled(&h, "copilot", "1.0.80");
    assert!(user_sent(&v80));
    let v81 = compiled(&h, "copilot", "1.0.81");
    assert!(!user_sent(&v81));
}

/// Copilot CLI's user JSON that is not UTF-8 is read with U+FFFD: the
/// server of `~/.copilot/mcp-config.json` is configured and the file
/// gets its `invalid-utf8` (case
/// `oracle.local_user_layers.home-copilot-non-utf8-json`).
#[test]
fn copilot_warns_of_a_user_json_file_that_is_not_utf8() {
    for v in ["1.0.24", "1.0.102"] {
        let doc = compiled(&home("copilot-non-utf8-json"), "copilot", v);
        let got = invalid_utf8(&doc, "Copilot CLI reads each invalid byte as U+FFFD");
        assert_eq!(got, [at("~/.copilot/mcp-config.json", 1)], "{v}");
        assert!(paths(&doc, "mcpServers").contains(&"~/.copilot/mcp-config.json".to_string()));
    }
}

/// Gemini CLI 0.34.0 and 0.61.0 load every kind of user file that is not
/// UTF-8, each invalid byte as U+FFFD (cases
/// `oracle.local_user_layers.home-gemini-non-utf8` and `-settings`).
#[test]
fn gemini_reads_the_users_files_that_are_not_utf8_with_replacement_characters() {
    for v in ["0.34.0", "0.61.0"] {
        let doc = compiled(&home("gemini-non-utf8"), "gemini", v);
        let mut got = invalid_utf8(&doc, "Gemini CLI reads each invalid byte as U+FFFD");
        got.sort();
        let expected = [
            at("~/.gemini/GEMINI.md", 1),
            at("~/.gemini/agents/latin1-agent.md", 5),
            at("~/.gemini/commands/latin1.toml", 2),
            at("~/.gemini/skills/latin1/SKILL.md", 5),
        ];
        assert_eq!(got, expected, "{v}");
        assert!(paths(&doc, "instructions").contains(&"~/.gemini/GEMINI.md".to_string()));
        assert_eq!(agents(&doc), ["latin1-agent"], "{v}");

        let doc = compiled(&home("gemini-non-utf8-settings"), "gemini", v);
        let got = invalid_utf8(&doc, "Gemini CLI reads each invalid byte as U+FFFD");
        assert_eq!(got, [at("~/.gemini/settings.json", 1)], "{v}");
    }
}

/// OpenCode 1.18.33 loads the user's files that are not UTF-8, each
/// invalid byte as U+FFFD, a server name too (cases
/// `oracle.local_user_layers.home-opencode-non-utf8` and `-config`).
#[test]
fn opencode_reads_the_users_files_that_are_not_utf8_with_replacement_characters() {
    let doc = compiled(&home("opencode-non-utf8"), "opencode", "1.18.33");
    let mut got = invalid_utf8(&doc, "OpenCode reads each invalid byte as U+FFFD");
    got.sort();
    let expected = [
        at("~/.config/opencode/AGENTS.md", 1),
        at("~/.config/opencode/skills/latin1/SKILL.md", 5),
    ];
    assert_eq!(got, expected);
    assert!(paths(&doc, "instructions").contains(&"~/.config/opencode/AGENTS.md".to_string()));

    let doc = compiled(&home("opencode-non-utf8-config"), "opencode", "1.18.33");
    let got = invalid_utf8(&doc, "OpenCode reads each invalid byte as U+FFFD");
    assert_eq!(got, [at("~/.config/opencode/opencode.json", 1)]);
    let names: Vec<&str> = doc["mcpServers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(names.contains(&"a\u{fffd}"), "{names:?}");
}

/// A user instruction file of Copilot CLI whose front matter is not valid
/// YAML gets `invalid-yaml` at its line, as a repository's does (fault
/// 5); Copilot CLI then reads `applyTo` from its line.
#[test]
fn copilot_reports_broken_front_matter_in_a_users_instruction_file() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".copilot/instructions/x.instructions.md",
        "---\napplyTo: [**\n---\nhi\n",
    );
    let doc = compiled(t.path(), "copilot", "1.0.102");
    let got = diags(&doc, "invalid-yaml");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "~/.copilot/instructions/x.instructions.md");
    assert!(got[0].1 >= 2, "{got:?}");
    assert!(
        got[0].2.contains("takes `applyTo` from its line"),
        "{got:?}"
    );
}

/// The user-level files with front matter each harness reads, each given
/// front matter that is not valid YAML (`name: [bad`).
const BROKEN_FRONT_MATTER: &[(&str, &[&str])] = &[
    (
        "claude-code",
        &[
            "~/.claude/agents/a.md",
            "~/.claude/commands/c.md",
            "~/.claude/output-styles/o.md",
            "~/.claude/rules/r.md",
            "~/.claude/skills/s/SKILL.md",
        ],
    ),
    (
        "codex",
        &["~/.agents/skills/s2/SKILL.md", "~/.codex/skills/s/SKILL.md"],
    ),
    (
        "copilot",
        &[
            "~/.agents/skills/s2/SKILL.md",
            "~/.claude/agents/a.md",
            "~/.copilot/agents/a.agent.md",
            "~/.copilot/instructions/x.instructions.md",
            "~/.copilot/skills/s/SKILL.md",
        ],
    ),
    (
        "gemini",
        &[
            "~/.agents/skills/s2/SKILL.md",
            "~/.gemini/agents/a.md",
            "~/.gemini/skills/s/SKILL.md",
        ],
    ),
    (
        "opencode",
        &[
            "~/.agents/skills/s2/SKILL.md",
            "~/.claude/skills/s/SKILL.md",
            "~/.config/opencode/skills/s/SKILL.md",
        ],
    ),
    ("cursor", &["~/.cursor/skills/s/SKILL.md"]),
];

/// Every harness says something of each user file whose front matter is
/// not valid YAML (fault 5, checked for every harness): what the agent
/// does with it (skips it, or reads it after a repair or line by line).
#[test]
fn every_harness_reports_broken_front_matter_in_the_users_files() {
    let t = tempfile::tempdir().unwrap();
    for (_, files) in BROKEN_FRONT_MATTER {
        for f in *files {
            let rel = f.strip_prefix("~/").unwrap();
            write(
                t.path(),
                rel,
                "---\nname: [bad\ndescription: x\n---\nbody\n",
            );
        }
    }
    write(
        t.path(),
        ".gemini/settings.json",
        r#"{"experimental": {"enableAgents": true}}"#,
    );
    for (harness, files) in BROKEN_FRONT_MATTER {
        let version = match *harness {
            "claude-code" => "2.1.332",
            "codex" => "0.171.0",
            "copilot" => "1.0.102",
            "gemini" => "0.61.0",
            "opencode" => "1.18.33",
            _ => "2.4",
        };
        let doc = compiled(t.path(), harness, version);
        let said: Vec<String> = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["source"]["path"].as_str().map(str::to_string))
            .collect();
        for f in *files {
            assert!(said.iter().any(|p| p == f), "{harness}: nothing on {f}");
        }
    }
}

/// A syntax error in a user's file is worded as the user's, not as the
/// project's or the workspace's (fault 11), and Copilot CLI's
/// `~/.copilot/config.json` is reported once, naming all it decides.
#[test]
fn a_users_broken_configuration_is_called_the_users() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), ".codex/config.toml", "model = \n");
    write(t.path(), ".gemini/settings.json", "{\"a\": \n");
    write(t.path(), ".config/opencode/opencode.json", "{\"mcp\": \n");
    write(t.path(), ".copilot/config.json", "{\"a\": \n");
    let cases = [
        (
            "codex",
            "0.171.0",
            "Codex refuses to load the user's configuration",
        ),
        ("gemini", "0.61.0", "Gemini CLI refuses the user's settings"),
        (
            "opencode",
            "1.18.33",
            "OpenCode refuses the user's configuration",
        ),
    ];
    for (harness, version, words) in cases {
        let doc = compiled(t.path(), harness, version);
        let refused = diags(&doc, "config-refused");
        assert_eq!(refused.len(), 1, "{harness}: {refused:?}");
        assert!(
            refused[0].2.starts_with(words),
            "{harness}: {}",
            refused[0].2
        );
        let all: Vec<String> = diags(&doc, "invalid-toml")
            .into_iter()
            .chain(diags(&doc, "invalid-json"))
            .map(|d| d.2)
            .collect();
        for m in &all {
            assert!(!m.contains("this trusted project"), "{harness}: {m}");
            assert!(!m.contains("workspace"), "{harness}: {m}");
        }
    }
    let doc = compiled(t.path(), "copilot", "1.0.24");
    let config = diags(&doc, "invalid-json");
    assert_eq!(config.len(), 1, "{config:?}");
    assert!(config[0].2.contains("the folder's trust and the plugins"));
}

/// `compile` text marks each item of a layer other than the project's
/// with it (fault 7), within 80 columns; repo mode marks none.
#[test]
fn compile_text_shows_each_items_layer_in_local_mode() {
    let managed = tempfile::tempdir().unwrap();
    let run = |mode: &[&str]| {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .arg("compile")
            .arg(workspace().join("oracle/fixtures/local_user_layers"))
            .args(["--root", "--harness", "claude-code"])
            .args(mode)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let home = home("claude-memory");
    let local = run(&[
        "--mode",
        "local",
        "--home",
        home.to_str().unwrap(),
        "--managed-root",
        managed.path().to_str().unwrap(),
    ]);
    let row = |text: &str, path: &str| {
        text.lines()
            .find(|l| l.contains(path) && l.contains("startup"))
            .unwrap_or_else(|| panic!("no row of {path}:\n{text}"))
            .to_string()
    };
    assert!(row(&local, "~/.claude/CLAUDE.md:1-3").contains("(user)"));
    assert!(!row(&local, " CLAUDE.md:1-3").contains('('));
    for l in local.lines() {
        assert!(l.chars().count() <= 80, "{l}");
    }
    let repo = run(&[]);
    assert!(!repo.contains("(user)") && !repo.contains("(project)"));
}

/// The forge formats never place a user's file as a repository path
/// (fault 16): SARIF names it relative to the undefined base `HOME`,
/// GitHub's workflow command and GitLab's issue name it in the message
/// and place the issue at no file (`.` for GitLab).
#[test]
fn forge_formats_follow_their_rules_for_files_outside_the_repository() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), ".codex/config.toml", "model = \n");
    let managed = tempfile::tempdir().unwrap();
    let run = |format: &str| {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .arg("check")
            .arg(workspace().join("oracle/fixtures/local_user_layers"))
            .args(["--root", "--mode", "local", "--home"])
            .arg(t.path())
            .arg("--managed-root")
            .arg(managed.path())
            .args(["--format", format])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    let locations: Vec<Value> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["locations"].as_array().cloned().unwrap_or_default())
        .map(|l| l["physicalLocation"]["artifactLocation"].clone())
        .collect();
    let home: Vec<&Value> = locations
        .iter()
        .filter(|a| a["uri"] == ".codex/config.toml")
        .collect();
    assert!(!home.is_empty(), "{locations:?}");
    assert!(home.iter().all(|a| a["uriBaseId"] == "HOME"), "{home:?}");
    assert!(!locations
        .iter()
        .any(|a| a["uri"].as_str().unwrap().starts_with('~')));

    let github = run("github");
    assert!(!github.contains("file=~"), "{github}");
    assert!(github.contains("::~/.codex/config.toml:1: "), "{github}");

    let gitlab: Value = serde_json::from_str(&run("gitlab")).unwrap();
    for issue in gitlab.as_array().unwrap() {
        let path = issue["location"]["path"].as_str().unwrap();
        assert!(!path.starts_with('~'), "{issue}");
    }
    assert!(gitlab.as_array().unwrap().iter().any(|i| i["description"]
        .as_str()
        .unwrap()
        .contains("~/.codex/config.toml:1: ")));
}

/// A FIFO where a user file belongs gets one code in every harness,
/// `not-a-regular-file`, as a repository's does (fault 15), and reading
/// it never blocks.
#[test]
fn a_fifo_in_the_home_is_not_a_regular_file_for_every_harness() {
    let t = tempfile::tempdir().unwrap();
    let fifos = [
        ("claude-code", ".claude/CLAUDE.md"),
        ("codex", ".codex/AGENTS.md"),
        ("copilot", ".copilot/copilot-instructions.md"),
        ("gemini", ".gemini/GEMINI.md"),
        ("opencode", ".config/opencode/AGENTS.md"),
    ];
    for (_, rel) in fifos {
        let path = t.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let ok = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return; // no `mkfifo` here: nothing to show
        }
    }
    for (harness, rel) in fifos {
        let doc = compiled(t.path(), harness, newest(harness));
        let at = format!("~/{rel}");
        assert_eq!(
            codes_at(&doc, &at),
            ["not-a-regular-file"],
            "{harness}: {at}"
        );
    }
}

/// The release each harness's home tests compile.
fn newest(harness: &str) -> &'static str {
    match harness {
        "claude-code" => "2.1.332",
        "codex" => "0.171.0",
        "copilot" => "1.0.102",
        "gemini" => "0.61.0",
        _ => "1.18.33",
    }
}

/// The code of each diagnostic whose source is `path`.
fn codes_at(doc: &Value, path: &str) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"]["path"] == path)
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// A link loop in a folder of the user's that a harness lists (rules,
/// skills, extensions) gets the diagnostic a loop in the repository
/// gets, `symlink-loop` at the link, from every harness, and a
/// self-looping memory file is called a loop (fault 15); before, the
/// folder entries were skipped without a word and Claude Code's
/// `~/.claude/CLAUDE.md` was "a symbolic link, not a regular file".
#[cfg(unix)]
#[test]
fn a_link_loop_in_the_users_folders_is_a_symlink_loop_for_every_harness() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    let link = |at: &str, to: &str| {
        let p = h.join(at);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(to, p).unwrap();
    };
    link(".claude/rules/a.md", "b.md");
    link(".claude/rules/b.md", "a.md");
    link(".gemini/extensions/x", "y");
    link(".gemini/extensions/y", "x");
    for dir in [
        ".claude/skills",
        ".codex/skills",
        ".copilot/skills",
        ".config/opencode/skills",
    ] {
        link(&format!("{dir}/loop"), "loop");
    }
    for memory in [
        ".claude/CLAUDE.md",
        ".codex/AGENTS.md",
        ".copilot/copilot-instructions.md",
        ".gemini/GEMINI.md",
        ".config/opencode/AGENTS.md",
    ] {
        let name = Path::new(memory).file_name().unwrap();
        link(memory, name.to_str().unwrap());
    }
    let loops: [(&str, &[&str]); 5] = [
        (
            "claude-code",
            &[
                ".claude/rules/a.md",
                ".claude/rules/b.md",
                ".claude/skills/loop",
                ".claude/CLAUDE.md",
            ],
        ),
        ("codex", &[".codex/skills/loop", ".codex/AGENTS.md"]),
        (
            "copilot",
            &[".copilot/skills/loop", ".copilot/copilot-instructions.md"],
        ),
        (
            "gemini",
            &[
                ".gemini/extensions/x",
                ".gemini/extensions/y",
                ".gemini/GEMINI.md",
            ],
        ),
        (
            "opencode",
            &[".config/opencode/skills/loop", ".config/opencode/AGENTS.md"],
        ),
    ];
    for (harness, paths) in loops {
        let doc = compiled(h, harness, newest(harness));
        for rel in paths {
            let at = format!("~/{rel}");
            assert_eq!(codes_at(&doc, &at), ["symlink-loop"], "{harness}: {at}");
        }
        let said = diags(&doc, "symlink-loop");
        assert!(
            said.iter()
                .all(|(_, _, m)| m.contains("symbolic links loop at `~/")),
            "{harness}: {said:?}"
        );
    }
}

/// A home whose folders each hold a symbolic link to nothing (`x ->
/// missing`) and whose memory files are links to nothing, as a dotfiles
/// repository moved away leaves them.
#[cfg(unix)]
fn home_with_dangling_links() -> tempfile::TempDir {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    let link = |at: &str| {
        let p = t.path().join(at);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink("missing", p).unwrap();
    };
    for dir in [
        ".claude/skills",
        ".claude/rules",
        ".claude/agents",
        ".claude/commands",
        ".codex/skills",
        ".agents/skills",
        ".copilot/skills",
        ".copilot/agents",
        ".gemini/extensions",
        ".gemini/commands",
        ".config/opencode/skills",
        ".config/opencode/agent",
        ".config/opencode/command",
    ] {
        link(&format!("{dir}/x"));
    }
    for memory in [
        ".claude/CLAUDE.md",
        ".codex/AGENTS.md",
        ".copilot/copilot-instructions.md",
        ".gemini/GEMINI.md",
        ".config/opencode/AGENTS.md",
    ] {
        link(memory);
    }
    t
}

/// `harness` (newest release) on [`home_with_dangling_links`]: each of
/// `links` (below the home) is a `symlink-dangling` diagnostic at the
/// link, once, saying that nothing is read through it, and no item comes
/// from a link. Before, each was skipped without a word (and Claude
/// Code's `~/.claude/CLAUDE.md` was "a symbolic link, not a regular
/// file").
#[cfg(unix)]
fn dangling_links_reported(harness: &str, links: &[&str]) {
    let home = home_with_dangling_links();
    let doc = compiled(home.path(), harness, newest(harness));
    for rel in links {
        let at = format!("~/{rel}");
        assert_eq!(codes_at(&doc, &at), ["symlink-dangling"], "{harness}: {at}");
    }
    let said = diags(&doc, "symlink-dangling");
    assert_eq!(said.len(), links.len(), "{harness}: {said:?}");
    assert!(
        said.iter()
            .all(|(_, _, m)| m.contains("points at nothing that exists")
                && !m.contains(home.path().to_str().unwrap())),
        "{harness}: {said:?}"
    );
    for kind in ["instructions", "skills"] {
        assert!(
            paths(&doc, kind).iter().all(|p| !p.ends_with("/x")),
            "{harness}: {kind}"
        );
    }
}

/// Claude Code 2.1.332: its skills, rules, agents and commands folders
/// and its `~/.claude/CLAUDE.md`.
#[cfg(unix)]
#[test]
fn claude_code_reports_a_dangling_link_in_the_users_folders() {
    dangling_links_reported(
        "claude-code",
        &[
            ".claude/CLAUDE.md",
            ".claude/agents/x",
            ".claude/commands/x",
            ".claude/rules/x",
            ".claude/skills/x",
        ],
    );
}

/// Codex 0.171.0: `~/.codex/skills`, `~/.agents/skills` and
/// `~/.codex/AGENTS.md`.
#[cfg(unix)]
#[test]
fn codex_reports_a_dangling_link_in_the_users_folders() {
    dangling_links_reported(
        "codex",
        &[".agents/skills/x", ".codex/AGENTS.md", ".codex/skills/x"],
    );
}

/// Copilot CLI 1.0.102: its skills and agents folders, the
/// `~/.claude/agents` and `~/.agents/skills` it also reads, and
/// `~/.copilot/copilot-instructions.md`.
#[cfg(unix)]
#[test]
fn copilot_reports_a_dangling_link_in_the_users_folders() {
    dangling_links_reported(
        "copilot",
        &[
            ".agents/skills/x",
            ".claude/agents/x",
            ".copilot/agents/x",
            ".copilot/copilot-instructions.md",
            ".copilot/skills/x",
        ],
    );
}

/// Gemini CLI 0.61.0: its extensions and commands folders,
/// `~/.agents/skills` and `~/.gemini/GEMINI.md`.
#[cfg(unix)]
#[test]
fn gemini_reports_a_dangling_link_in_the_users_folders() {
    dangling_links_reported(
        "gemini",
        &[
            ".agents/skills/x",
            ".gemini/GEMINI.md",
            ".gemini/commands/x",
            ".gemini/extensions/x",
        ],
    );
}

/// OpenCode 1.18.33: its skills, agent and command folders, the
/// `~/.claude/skills` and `~/.agents/skills` it also reads, and
/// `~/.config/opencode/AGENTS.md`.
#[cfg(unix)]
#[test]
fn opencode_reports_a_dangling_link_in_the_users_folders() {
    // A dangling `~/.config/opencode/AGENTS.md` is absent to OpenCode
    // (`FileSystem.existsSafe`), so it falls back to `~/.claude/CLAUDE.md`,
    // itself a dangling link here.
    dangling_links_reported(
        "opencode",
        &[
            ".agents/skills/x",
            ".claude/CLAUDE.md",
            ".claude/skills/x",
            ".config/opencode/AGENTS.md",
            ".config/opencode/agent/x",
            ".config/opencode/command/x",
            ".config/opencode/skills/x",
        ],
    );
}

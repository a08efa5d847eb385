//! `playbookdiff upgrade HARNESS FROM..TO [REPO]` on small repositories
//! written here: each change at the release bisection found for its
//! behaviour, the behaviours with their evidence, acceptance in
//! `playbookdiff.toml`, every output format, 80 columns, and the exit
//! statuses (1 when the model receives something different, 2 for a bad
//! argument).

use assert_cmd::Command;
use playbookdiff_testkit::corpus::git;
use serde_json::Value;
use std::path::Path;

/// A git repository with `files` committed.
fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "c"]);
    dir
}

/// `playbookdiff upgrade ARGS…` in `dir`: status, stdout, stderr.
fn upgrade(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .arg("upgrade")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(dir: &Path, range: &str, extra: &[&str]) -> (i32, Value) {
    let args = [&["claude-code", range, "--format", "json"][..], extra].concat();
    let (code, out, err) = upgrade(dir, &args);
    assert!(code == 0 || code == 1, "{range}: {err}");
    (code, serde_json::from_str(&out).unwrap())
}

/// A repository with AGENTS.md and no CLAUDE.md, and a skill whose
/// `disable-model-invocation: yes` only later releases honour.
fn agents_md_repo() -> tempfile::TempDir {
    repo(&[
        ("AGENTS.md", "# Agents\n\nUse pnpm.\n"),
        ("pkg/AGENTS.md", "# Pkg\n\nUse vitest.\n"),
        (
            ".claude/skills/quiet/SKILL.md",
            "---\nname: quiet\ndescription: Only when asked.\ndisable-model-invocation: yes\n---\nBody.\n",
        ),
    ])
}

fn change<'a>(doc: &'a Value, fact: &str) -> &'a Value {
    doc["upgrade"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["fact"] == fact)
        .unwrap_or_else(|| panic!("{fact}: {doc:#}"))
}

#[test]
fn each_change_comes_at_the_release_that_causes_it() {
    let r = agents_md_repo();
    let (code, doc) = json(r.path(), "2.1.197..2.1.332", &["--all-dirs"]);
    assert_eq!(code, 1, "{doc:#}");
    // The fallback adds AGENTS.md at 2.1.281, at the root and in pkg.
    let fallback = change(&doc, "AgentsMdFallback");
    assert_eq!(fallback["since"], "2.1.281");
    assert_eq!(fallback["id"], "upgrade:claude-code:AgentsMdFallback");
    assert_eq!(fallback["directories"], serde_json::json!([".", "pkg"]));
    assert!(fallback["evidence"].as_str().unwrap().contains("2.1.280"));
    // Lenient booleans take the skill from the model at 2.1.218.
    let booleans = change(&doc, "LenientFrontMatterBooleans");
    assert_eq!(booleans["since"], "2.1.218");
    assert_eq!(booleans["directories"], serde_json::json!([".", "pkg"]));
    let at = |cwd: &str, release: &str| {
        doc["directories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["cwd"] == cwd && d["release"] == release)
            .unwrap_or_else(|| panic!("{cwd} {release}: {doc:#}"))
            .clone()
    };
    let root = at(".", "2.1.281");
    let added: Vec<&str> = root["agents"][0]["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["change"] == "added")
        .filter_map(|i| i["path"].as_str())
        .collect();
    assert_eq!(added, ["AGENTS.md"], "{root:#}");
    let skills = &at(".", "2.1.218")["agents"][0]["skills"];
    assert_eq!(skills[0]["name"], "quiet", "{skills:#}");
    // A behaviour that changes nothing here is listed, with no directory.
    assert_eq!(
        change(&doc, "SkillDisplayLabel")["directories"],
        serde_json::json!([])
    );
}

#[test]
fn an_upgrade_before_a_change_does_not_report_it() {
    let r = agents_md_repo();
    let (code, doc) = json(r.path(), "2.1.219..2.1.280", &["--all-dirs"]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["directories"], serde_json::json!([]));
    let facts: Vec<&str> = doc["upgrade"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["fact"].as_str())
        .collect();
    assert!(!facts.contains(&"AgentsMdFallback"), "{facts:?}");
    assert!(!facts.contains(&"LenientFrontMatterBooleans"), "{facts:?}");
}

#[test]
fn an_accepted_change_does_not_fail_the_run() {
    let r = agents_md_repo();
    std::fs::write(
        r.path().join("playbookdiff.toml"),
        "[[accepted]]\nid = \"upgrade:claude-code:AgentsMdFallback\"\nreason = \"we want AGENTS.md read\"\n\n\
         [[accepted]]\nid = \"upgrade:claude-code:LenientFrontMatterBooleans\"\nreason = \"yes means yes\"\n",
    )
    .unwrap();
    let (code, doc) = json(r.path(), "2.1.197..2.1.332", &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(
        change(&doc, "AgentsMdFallback")["accepted"],
        "we want AGENTS.md read"
    );
    assert_eq!(doc["summary"]["failing"], 0);
}

#[test]
fn text_names_the_release_the_behaviour_and_its_evidence_within_80_columns() {
    let r = agents_md_repo();
    let (code, out, _) = upgrade(r.path(), &["claude-code", "2.1.197..2.1.332", "--all-dirs"]);
    assert_eq!(code, 1, "{out}");
    for l in out.lines() {
        assert!(l.chars().count() <= 80, "{l}");
    }
    assert!(
        out.contains(". (the repository root), from 2.1.281"),
        "{out}"
    );
    assert!(out.contains("  2.1.281 AgentsMdFallback"), "{out}");
    assert!(
        out.contains("upgrade:claude-code:AgentsMdFallback"),
        "{out}"
    );
    assert!(out.contains("exit status 1"), "{out}");
    insta::assert_snapshot!("upgrade_text", out);
}

#[test]
fn every_format_of_diff_renders_an_upgrade() {
    let r = agents_md_repo();
    for format in [
        "text", "json", "markdown", "sarif", "github", "gitlab", "html",
    ] {
        let (code, out, err) = upgrade(
            r.path(),
            &["claude-code", "2.1.197..2.1.332", "--format", format],
        );
        assert_eq!(code, 1, "{format}: {err}");
        assert!(!out.is_empty(), "{format}");
        if ["sarif", "github", "gitlab"].contains(&format) {
            assert!(out.contains("agent-upgrade-change"), "{format}: {out}");
            assert!(out.contains("AGENTS.md"), "{format}: {out}");
        }
        if format == "markdown" {
            assert!(
                out.contains("### PlaybookDiff: Claude Code 2.1.197 to 2.1.332"),
                "{out}"
            );
            assert!(
                out.contains("`upgrade:claude-code:AgentsMdFallback`"),
                "{out}"
            );
        }
    }
}

#[test]
fn a_codex_upgrade_names_its_facts() {
    let r = repo(&[
        ("AGENTS.md", "Root.\n"),
        (
            ".codex/config.toml",
            "project_doc_fallback_filenames = [\"docs/GUIDE.md\"]\n",
        ),
        ("docs/GUIDE.md", "Guide text.\n"),
        ("sub/docs/GUIDE.md", "Sub guide.\n"),
    ]);
    let args = [
        "codex",
        "0.142.3..0.171.0",
        "--cwd",
        "sub",
        "--format",
        "json",
    ];
    let (code, out, err) = upgrade(r.path(), &args);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    let plain = change(&doc, "fallback_names_must_be_plain");
    assert_eq!(plain["since"], "0.156.0");
    assert_eq!(plain["directories"], serde_json::json!(["sub"]), "{doc:#}");
    assert_eq!(code, 1);
}

/// Codex before 0.120.0, observed through `codex exec`: a project
/// `.codex/config.toml` is read from 0.79.0, `.agents/skills` from
/// 0.94.0, and a `SKILL.md` without `name` is listed (after its folder)
/// from 0.110.0. An upgrade from 0.77.0 gains the MCP server at 0.79.0
/// and the skill at 0.110.0; no step keeps the walk of another release's
/// skill rules (the refusal at 0.94.0 to 0.107.0 is not carried over).
#[test]
fn a_codex_upgrade_from_before_0_120_gains_its_project_config_and_skills() {
    let r = repo(&[
        ("AGENTS.md", "Root.\n"),
        (
            ".codex/config.toml",
            "[mcp_servers.docs]\ncommand = \"docs\"\n",
        ),
        (
            ".agents/skills/kept/SKILL.md",
            "---\ndescription: No name.\n---\nBody.\n",
        ),
    ]);
    let (code, out, err) = upgrade(r.path(), &["codex", "0.77.0..0.120.0", "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(change(&doc, "project_config")["since"], "0.79.0");
    assert_eq!(change(&doc, "agents_skills")["since"], "0.94.0");
    assert_eq!(change(&doc, "skill_name_from_folder")["since"], "0.110.0");
    let at = |release: &str| -> Value {
        doc["directories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["release"] == release)
            .map(|d| d["agents"][0].clone())
            .unwrap_or_else(|| panic!("{release}: {doc:#}"))
    };
    assert_eq!(at("0.79.0")["mcpServers"][0]["name"], "docs", "{doc:#}");
    assert_eq!(at("0.110.0")["skills"][0]["name"], "kept", "{doc:#}");
    assert_eq!(at("0.110.0")["skills"][0]["change"], "added", "{doc:#}");
    assert_eq!(
        doc["problems"]["introduced"],
        serde_json::json!([]),
        "{doc:#}"
    );
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let r = agents_md_repo();
    for (args, says) in [
        (&["claude-code", "2.1.332..2.1.197"][..], "is reversed"),
        (&["claude-code", "2.1.197"][..], "is not a range"),
        (&["claude-code", "v2..2.1.3"][..], "FROM `v2` takes no `v`"),
        (
            &["codex", "0.77.0...0.171.0"][..],
            "the range takes two dots",
        ),
        (&["codex", "..0.171.0"][..], "FROM is missing"),
        (&["codex", "0.77.0.."][..], "TO is missing"),
    ] {
        let (code, out, err) = upgrade(r.path(), args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says) && err.contains("give FROM..TO"), "{err}");
        assert!(err.trim().chars().count() <= 80, "{err}");
    }
    // The example is the harness's own oldest and newest profiled
    // releases, not Claude Code's.
    let (code, _, err) = upgrade(r.path(), &["codex", "0.171.0..0.142.3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("e.g. 0.142.3..0.171.0"), "{err}");
    let (code, _, err) = upgrade(r.path(), &["claud", "2.1.197..2.1.332"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn gemini_changes_come_from_its_bisected_behaviours() {
    // Gemini CLI 0.34.0 sends `pkg/GEMINI.md` at startup (its downward
    // search below cwd); from 0.40.0, bisected, it is sent only when the
    // agent reads a file below `pkg/`, and so it was from 0.35.0 until
    // 0.36.0 brought the downward search back. The upgrade shows the
    // change at each of the three releases and names the facts that start
    // there.
    let r = repo(&[
        ("GEMINI.md", "# Gemini\n\nUse pnpm.\n"),
        ("pkg/GEMINI.md", "# Package\n"),
    ]);
    let (code, out, err) = upgrade(r.path(), &["gemini", "0.34.0..0.61.0", "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    assert_eq!(code, 1, "{doc:#}");
    let releases: Vec<&str> = doc["directories"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["release"].as_str())
        .collect();
    assert_eq!(releases, ["0.35.0", "0.36.0", "0.40.0"], "{doc:#}");
    let changes = doc["upgrade"]["changes"].as_array().unwrap();
    let affecting: Vec<&str> = changes
        .iter()
        .filter(|c| !c["directories"].as_array().unwrap().is_empty())
        .filter_map(|c| c["fact"].as_str())
        .collect();
    for fact in [
        "jit_context_early",
        "jit_context_off_again",
        "downward_max_dirs",
    ] {
        assert!(affecting.contains(&fact), "{affecting:?}");
    }
    assert!(
        changes
            .iter()
            .all(|c| c["evidence"].as_str().unwrap().starts_with("bisected")),
        "{doc:#}"
    );
    let (code, _, err) = upgrade(
        r.path(),
        &[
            "gemini",
            "0.34.0..0.61.0",
            "--agent-version",
            "gemini=0.34.0",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--agent-version does not apply to upgrade"),
        "{err}"
    );
}

#[test]
fn opencode_changes_come_from_its_bisected_behaviours() {
    // OpenCode's bisected facts change where and beside what the skills
    // are listed, not which of the repository's items the model receives:
    // the upgrade names each at its first release, with its evidence, and
    // no launch directory changes.
    let r = repo(&[
        ("AGENTS.md", "# Agents\n\nUse pnpm.\n"),
        (
            ".agents/skills/dup/SKILL.md",
            "---\nname: dup\ndescription: A skill.\n---\nBody.\n",
        ),
    ]);
    let (code, out, err) = upgrade(
        r.path(),
        &["opencode", "1.2.1..1.18.33", "--format", "json"],
    );
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    assert_eq!(code, 0, "{doc:#}");
    let changes = doc["upgrade"]["changes"].as_array().unwrap();
    let named: Vec<(&str, &str)> = changes
        .iter()
        .map(|c| (c["fact"].as_str().unwrap(), c["since"].as_str().unwrap()))
        .collect();
    assert_eq!(
        named,
        [
            ("SkillsInSystemPrompt", "1.2.27"),
            ("BundledCustomizeSkill", "1.15.0"),
            ("TaskToolCommandNote", "1.15.3"),
            ("BundledCustomizeSkillGone", "1.17.18"),
            ("BuiltinCustomizeSkill", "1.17.18"),
        ],
        "{doc:#}"
    );
    assert!(
        changes
            .iter()
            .all(|c| c["evidence"].as_str().unwrap().starts_with("bisected")),
        "{doc:#}"
    );
    assert!(doc["directories"].as_array().unwrap().is_empty(), "{doc:#}");
    // Within the window, a release between two changes is modelled
    // without a warning.
    let (code, _, err) = upgrade(r.path(), &["opencode", "1.15.0..1.17.11"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("no version profile"), "{err}");
}

/// `--mode local --home H` reaches both compilations of an upgrade: the
/// user's rule of `~/.claude/rules`, read from 2.0.64 on, is a change for
/// the model there, and the same upgrade in repo mode reads no home.
#[test]
fn local_mode_compiles_both_releases_with_the_users_layers() {
    let r = repo(&[("README.md", "x\n")]);
    let home = tempfile::tempdir().unwrap();
    let rules = home.path().join(".claude/rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(rules.join("brief.md"), "User rule: be brief.\n").unwrap();
    let h = home.path().to_str().unwrap();
    let local = ["--mode", "local", "--home", h];
    let args = [&["claude-code", "2.0.62..2.0.64", "."][..], &local].concat();
    let (code, out, err) = upgrade(r.path(), &args);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("added     instruction ~/.claude/rules/brief.md"),
        "{out}"
    );
    let (code, out, _) = upgrade(r.path(), &["claude-code", "2.0.62..2.0.64", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("~/"), "{out}");
    // A built-in skill of the release counts too (Gemini CLI 0.47.0).
    let args = [&["gemini", "0.46.0..0.47.0", "."][..], &local].concat();
    let (code, out, err) = upgrade(r.path(), &args);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("skill antigravity-support"), "{out}");
}

/// A new description cap (Claude Code 2.1.105) or listing budget (2.1.19)
/// that a 28-character description never reaches is listed, named down
/// to its field, but changes nothing the model receives: exit 0.
#[test]
fn a_new_cap_no_description_reaches_changes_nothing_for_the_model() {
    let r = repo(&[(
        ".claude/commands/dedupe.md",
        "---\ndescription: Find duplicate GitHub issues\n---\nDo it.\n",
    )]);
    for range in ["2.1.104..2.1.105", "2.1.18..2.1.19"] {
        let (code, out, err) = upgrade(r.path(), &["claude-code", range, "."]);
        assert_eq!(code, 0, "{range}: {out}{err}");
        assert!(out.contains("redefined skill dedupe"), "{range}: {out}");
        assert!(out.contains("advertisement."), "{range}: {out}");
        assert!(
            out.contains("0 with changes for the\nmodel"),
            "{range}: {out}"
        );
        assert!(out.contains("changes nothing here"), "{range}: {out}");
    }
    // A description past the listing's 250-character cap (from 2.1.86)
    // is shortened: that the model receives. The 1,536-character cap of
    // 2.1.105 changes nothing the listing shows, which is already cut.
    let long = format!("---\ndescription: {}\n---\nDo it.\n", "x".repeat(1600));
    let r = repo(&[(".claude/commands/long.md", long.as_str())]);
    let (code, out, err) = upgrade(r.path(), &["claude-code", "2.1.85..2.1.86", "."]);
    assert_eq!(code, 1, "{out}{err}");
    let (code, out, err) = upgrade(r.path(), &["claude-code", "2.1.104..2.1.105", "."]);
    assert_eq!(code, 0, "{out}{err}");
}

/// One rule for releases without a profile of their own: the upgrade
/// runs, with a note, when FROM and TO map to two profiles, and exits 2
/// when they map to one, naming it and the modelled releases (Codex 9.9.9
/// and 10.0.0 both map to 0.171.0; Cursor 2.3 and 2.4 both to 2.4).
#[test]
fn releases_that_map_to_one_profile_exit_2_naming_it() {
    let r = agents_md_repo();
    for (args, says) in [
        (
            &["codex", "9.9.9..10.0.0"][..],
            "Codex: FROM and TO both map to 0.171.0, both outside 0.63.0..0.171.0",
        ),
        (
            &["codex", "0.171.0..0.200.0"][..],
            "0.200.0 outside 0.63.0..0.171.0",
        ),
        (
            &["cursor", "2.3..2.4"][..],
            "both map to 2.4, its one profile",
        ),
    ] {
        let (code, out, err) = upgrade(r.path(), args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("none bisected"), "{err}");
    }
    // Two ends on two profiles: the upgrade runs, with a note for the
    // release modelled as another.
    let (code, out, err) = upgrade(r.path(), &["codex", "0.77.0..0.999.0"]);
    assert!(code == 0 || code == 1, "{out}{err}");
    assert!(
        err.contains("Codex 0.999.0 has no version profile"),
        "{err}"
    );
    // Within the window with no behaviour between: says so, not that the
    // harness has none.
    let (code, out, _) = upgrade(r.path(), &["codex", "0.142.3..0.142.4"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("no bisected behaviour starts after 0.142.3"),
        "{out}"
    );
}

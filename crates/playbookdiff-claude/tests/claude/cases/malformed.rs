//! Malformed input is a diagnostic naming the file (and line), never
//! silently ignored: paths that are not regular files, repeated JSON keys,
//! settings of the wrong type, front matter of the wrong shape or never
//! closed; and the wording of parser errors.

use crate::common::*;
use playbookdiff_model::{DiagnosticCode as D, Severity};

fn mkfifo(path: &std::path::Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        // Without mkfifo, a socket is another file that is not regular.
        std::os::unix::net::UnixListener::bind(path).unwrap();
    }
}

#[test]
fn directories_and_fifos_named_like_configuration_files_are_reported_not_loaded() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    std::fs::create_dir_all(r.join("CLAUDE.md")).unwrap();
    std::fs::create_dir_all(r.join(".claude/settings.json")).unwrap();
    std::fs::create_dir_all(r.join(".claude/skills/dir/SKILL.md")).unwrap();
    mkfifo(&r.join(".mcp.json"));
    mkfifo(&r.join(".claude/skills/fifo/SKILL.md"));
    mkfifo(&r.join(".claude/rules/pipe.md"));
    mkfifo(&r.join("sub/CLAUDE.md"));
    let cfg = compile_dir(r, &at_root().target("sub/x.ts"));
    assert!(cfg.instructions.is_empty() && cfg.skills.is_empty() && cfg.mcp_servers.is_empty());
    for (p, what) in [
        ("CLAUDE.md", "a directory"),
        (".claude/settings.json", "a directory"),
        (".claude/skills/dir/SKILL.md", "a directory"),
        (".mcp.json", "not a regular file"),
        (".claude/skills/fifo/SKILL.md", "not a regular file"),
        (".claude/rules/pipe.md", "not a regular file"),
        ("sub/CLAUDE.md", "not a regular file"),
    ] {
        let d = diags_at(&cfg, D::NotARegularFile, p);
        assert_eq!(d.len(), 1, "{p}: {:#?}", cfg.diagnostics);
        assert!(d[0].message.contains(what), "{p}: {}", d[0].message);
    }
}

#[test]
fn repeated_keys_in_mcp_json_and_settings_are_reported_with_their_lines_and_the_last_is_used() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".mcp.json",
        "{\n  \"mcpServers\": {\n    \"db\": { \"command\": \"old\" },\n    \"db\": {\n      \"command\": \"new\",\n      \"command\": \"newest\"\n    }\n  }\n}\n",
    );
    write(
        t.path(),
        ".claude/settings.json",
        "{\n  \"enableAllProjectMcpServers\": false,\n  \"enableAllProjectMcpServers\": true\n}\n",
    );
    let cfg = compile_dir(t.path(), &at_root());
    let s = server(&cfg, "db");
    assert_eq!(s.command.as_deref(), Some("newest"));
    let l = s.source.lines.unwrap();
    assert_eq!((l.start, l.end), (4, 7), "the entry that is used");
    let d = diags_at(&cfg, D::JsonDuplicateKey, ".mcp.json");
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_eq!(lines_of(d[0]), (3, 4));
    assert_says(d[0], "`mcpServers.db`");
    assert_says(d[0], "last");
    assert_eq!(lines_of(d[1]), (5, 6));
    let d = diags_at(&cfg, D::JsonDuplicateKey, ".claude/settings.json");
    assert_eq!(d.len(), 1);
    assert_eq!(lines_of(d[0]), (2, 3));
    assert_eq!(
        s.applicability,
        playbookdiff_model::Applicability::Effective,
        "the last value, true"
    );
}

#[test]
fn mcp_approval_settings_of_the_wrong_type_are_invalid_values_and_the_file_is_not_applied() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".mcp.json",
        "{\"mcpServers\": {\"x\": {\"command\": \"x\"}}}\n",
    );
    for (json, key, line) in [
        ("{\n  \"enabledMcpjsonServers\": \"x\"\n}\n", "enabledMcpjsonServers", 2),
        ("{\n  \"enabledMcpjsonServers\": [\"x\"],\n  \"disabledMcpjsonServers\": {\"x\": true}\n}\n", "disabledMcpjsonServers", 3),
        ("{\n\n  \"enableAllProjectMcpServers\": \"yes\"\n}\n", "enableAllProjectMcpServers", 3),
    ] {
        write(t.path(), ".claude/settings.json", json);
        let cfg = compile_dir(t.path(), &at_root());
        let d = diags_at(&cfg, D::InvalidValue, ".claude/settings.json");
        assert_eq!(d.len(), 1, "{key}: {:#?}", cfg.diagnostics);
        assert_says(d[0], key);
        assert_eq!(d[0].severity, Severity::Error);
        assert_eq!(lines_of(d[0]), (line, line), "{key}");
        // The file fails Claude Code's schema, so nothing in it applies: not
        // even the valid approval next to the bad value.
        assert_eq!(
            server(&cfg, "x").applicability,
            playbookdiff_model::Applicability::Conditional,
            "{key}"
        );
    }
}

#[test]
fn non_string_claude_md_excludes_entries_are_invalid_values_at_their_line() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "Root\n");
    write(
        t.path(),
        ".claude/settings.json",
        "{\n  \"claudeMdExcludes\": [\n    \"**/CLAUDE.md\",\n    42,\n    null\n  ]\n}\n",
    );
    let cfg = compile_dir(t.path(), &at_root());
    let d = diags_at(&cfg, D::InvalidValue, ".claude/settings.json");
    assert_eq!(d.len(), 1, "{:#?}", cfg.diagnostics);
    assert_eq!(lines_of(d[0]), (4, 4));
    assert_says(d[0], "entry 2");
    assert_says(d[0], "2 entries");
    // The file is not applied, so its valid pattern excludes nothing.
    assert_eq!(received_paths(&cfg), ["CLAUDE.md"]);
}

#[test]
fn skill_name_and_description_of_the_wrong_type_are_reported_and_fall_back() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".claude/skills/deploy/SKILL.md",
        "---\nname: [1, 2]\ndescription: {a: b}\n---\nDeploy the app.\n",
    );
    let cfg = compile_dir(t.path(), &at_root());
    let s = skill(&cfg, ".claude/skills/deploy/SKILL.md");
    assert_eq!(s.name, "deploy");
    assert_eq!(s.description.as_deref(), Some("Deploy the app."));
    let d = diags_at(&cfg, D::InvalidValue, ".claude/skills/deploy/SKILL.md");
    let got: Vec<(u32, u32)> = d.iter().map(|d| lines_of(d)).collect();
    assert_eq!(got, [(2, 2), (3, 3)]);
    assert_says(d[0], "`name`");
    assert_says(d[0], "a list");
    assert_says(d[1], "`description`");
    assert_says(d[1], "a mapping");
}

#[test]
fn unterminated_front_matter_is_reported_and_the_file_is_read_as_plain_markdown() {
    let t = tempfile::tempdir().unwrap();
    let text = "---\nname: other\npaths: src/**\n\nBody.\n";
    write(t.path(), ".claude/skills/s/SKILL.md", text);
    write(t.path(), ".claude/rules/r.md", text);
    let cfg = compile_dir(t.path(), &at_root());
    for p in [".claude/skills/s/SKILL.md", ".claude/rules/r.md"] {
        let d = diags_at(&cfg, D::InvalidFrontmatter, p);
        assert_eq!(d.len(), 1, "{p}: {:#?}", cfg.diagnostics);
        assert_says(d[0], "no later `---`");
        assert_eq!(lines_of(d[0]), (1, 1));
    }
    // Plain Markdown: no metadata, so the rule is unconditional and the
    // skill is named after its directory.
    let r = one(&cfg, ".claude/rules/r.md");
    assert!(r.paths.is_none() && r.content.starts_with("---\n"));
    assert_eq!(skill(&cfg, ".claude/skills/s/SKILL.md").name, "s");
}

#[test]
fn yaml_errors_are_worded_for_people_and_their_line_is_the_file_line() {
    let t = tempfile::tempdir().unwrap();
    // A null key on file line 3; nesting 70 levels deep on file line 2.
    write(
        t.path(),
        ".claude/skills/nullkey/SKILL.md",
        "---\nname: x\n~: y\n---\nBody\n",
    );
    let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
    write(
        t.path(),
        ".claude/rules/deep.md",
        // In a list item, so Claude Code's retry (which quotes top-level
        // values only) fails too.
        &format!("---\npaths:\n  - {deep}\n---\nBody\n"),
    );
    let cfg = compile_dir(t.path(), &at_root());
    for (p, words, line) in [
        (
            ".claude/skills/nullkey/SKILL.md",
            "a key is empty or null",
            3,
        ),
        (".claude/rules/deep.md", "nesting deeper than 64 levels", 3),
    ] {
        let d = diags_at(&cfg, D::InvalidFrontmatter, p);
        assert_eq!(d.len(), 1, "{p}: {:#?}", cfg.diagnostics);
        let m = &d[0].message;
        assert!(m.contains(words), "{m}");
        for leak in ["Option<", "budget", "Depth {", "line ", "column"] {
            assert!(!m.contains(leak), "{p} leaks `{leak}`: {m}");
        }
        assert_eq!(lines_of(d[0]), (line, line), "{p}");
    }
}

#[test]
fn settings_and_mcp_json_diagnostics_point_at_the_line_of_their_key() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".mcp.json",
        "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\",\n      \"args\": \"--flag\",\n      \"env\": []\n    },\n    \"b\": {\n      \"command\": [\"x\"]\n    }\n  }\n}\n",
    );
    write(
        t.path(),
        ".claude/settings.json",
        "{\n  \"disabledMcpjsonServers\": [\n    \"zzz\",\n    \"a\"\n  ],\n  \"claudeMdExcludes\": [\n    \"/abs/CLAUDE.md\"\n  ],\n  \"skillOverrides\": {\n    \"nope\": \"maybe\"\n  }\n}\n",
    );
    let cfg = compile_dir(t.path(), &at_root());
    let mcp: Vec<(u32, u32)> = diags_at(&cfg, D::McpInvalidEntry, ".mcp.json")
        .iter()
        .map(|d| lines_of(d))
        .collect();
    assert_eq!(mcp, [(5, 5), (6, 6), (9, 9)], "{:#?}", cfg.diagnostics);
    let s = ".claude/settings.json";
    assert_eq!(lines_of(diags_at(&cfg, D::McpServerDisabled, s)[0]), (4, 4));
    assert_eq!(
        lines_of(diags_at(&cfg, D::ExcludeMachineSpecific, s)[0]),
        (7, 7)
    );
    assert_eq!(
        lines_of(diags_at(&cfg, D::SkillOverrideUnresolved, s)[0]),
        (10, 10)
    );
}

/// A rule, a skill and a `.mcp.json` read for one launch directory are
/// shared with the next one on the same repository (`check --all-dirs`):
/// their problems are reported at each, as on a repository of its own.
#[test]
fn problems_of_files_shared_by_launch_directories_are_reported_at_each() {
    use playbookdiff_adapter::Adapter;
    use playbookdiff_source::{Repo, WorkingTree};
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "CLAUDE.md", "# Root\n");
    write(r, "sub/CLAUDE.md", "# Sub\n");
    write(
        r,
        ".claude/rules/typed.md",
        "---\npaths: [\"src/**\", 3]\n---\n# Typed\n",
    );
    write(r, ".claude/rules/open.md", "---\n# Never closed\n");
    write(
        r,
        ".claude/skills/x/SKILL.md",
        "---\nname: [a]\nuser-invocable: maybe\n---\n# X\n",
    );
    write(
        r,
        ".mcp.json",
        "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"a\": {}}}\n",
    );
    let tree = WorkingTree::open(r).unwrap();
    // Each file with the code of its problem.
    let problems = [
        (".claude/rules/typed.md", D::InvalidValue),
        (".claude/rules/open.md", D::InvalidFrontmatter),
        (".claude/skills/x/SKILL.md", D::InvalidValue),
        (".mcp.json", D::JsonDuplicateKey),
    ];
    for version in playbookdiff_claude::PROFILED_VERSIONS {
        let (sub, root) = (at_root().cwd("sub"), at_root());
        let shared = Repo::new(&tree);
        let sub_first = ADAPTER_UNDER_TEST.compile(&shared, &sub.context(), Some(version));
        let root_after = ADAPTER_UNDER_TEST.compile(&shared, &root.context(), Some(version));
        let alone = |ctx: &Ctx| {
            ADAPTER_UNDER_TEST.compile(&Repo::new(&tree), &ctx.context(), Some(version))
        };
        assert_eq!(root_after, alone(&root), "{version} at the root");
        assert_eq!(sub_first, alone(&sub), "{version} in sub");
        for cfg in [&sub_first, &root_after] {
            for (file, code) in problems {
                assert!(
                    cfg.diagnostics
                        .iter()
                        .any(|d| d.code == code
                            && d.source.as_ref().is_some_and(|s| s.path == rp(file))),
                    "{version} {}: no {code:?} at {file}",
                    cfg.context.cwd
                );
            }
        }
    }
}

static ADAPTER_UNDER_TEST: &playbookdiff_adapter::Declared = &playbookdiff_claude::ADAPTER;

//! `--mode local`: the user's and the machine's layers of Claude Code,
//! each with its scope, in the agent's precedence; secrets of user files
//! never printed; the home left untouched; repo mode never reading it.
//!
//! Every run is given its home (`--home`, or `HOME` in the child's
//! environment) and its managed root, so nothing depends on the machine
//! running the tests.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A repository, a home and a managed root with one file per layer.
fn machine(t: &Path) {
    let (repo, home, root) = (t.join("repo"), t.join("home"), t.join("root"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(&repo, "CLAUDE.md", "Project notes.\n");
    write(
        &repo,
        ".claude/settings.json",
        r#"{"outputStyle": "Explanatory"}"#,
    );
    write(
        &repo,
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: The project's.\n---\nReview.\n",
    );
    write(
        &repo,
        ".mcp.json",
        r#"{"mcpServers": {"docs": {"command": "project-docs"}}}"#,
    );
    write(&home, ".claude/CLAUDE.md", "Be brief.\n");
    write(&home, ".claude/rules/style.md", "Use tabs.\n");
    write(
        &home,
        ".claude/settings.json",
        r#"{"outputStyle": "Learning"}"#,
    );
    write(
        &home,
        ".claude/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploy it.\n---\nSteps.\n",
    );
    write(
        &home,
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: The user's.\n---\nReview.\n",
    );
    let project = std::fs::canonicalize(&repo).unwrap();
    let global = serde_json::json!({
        "numStartups": 3,
        "mcpServers": {
            "docs": {"command": "user-docs"},
            "search": {"type": "http", "url": "https://s.example/mcp",
                       "headers": {"Authorization": "Bearer sk-live-0123456789abcdef0123"}}
        },
        "projects": {
            project.to_str().unwrap(): {
                "disabledMcpjsonServers": ["docs"],
                "mcpServers": {"db": {"command": "pg-mcp", "env": {"PGPASSWORD": "hunter2hunter2hunter2"}}}
            }
        }
    });
    write(
        &home,
        ".claude.json",
        &serde_json::to_string_pretty(&global).unwrap(),
    );
    write(&root, "etc/claude-code/CLAUDE.md", "Company policy.\n");
}

/// The command in local mode on the machine of `t`, with `args`.
fn local(t: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.args(args)
        .arg(t.join("repo"))
        .args(["--mode", "local", "--home"])
        .arg(t.join("home"))
        .arg("--managed-root")
        .arg(t.join("root"));
    cmd
}

fn compiled(t: &Path) -> Value {
    compiled_for(t, "claude-code")
}

/// `compile --harness HARNESS --format json` in local mode, which passes.
fn compiled_for(t: &Path, harness: &str) -> Value {
    let out = local(t, &["compile", "--harness", harness, "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// [`compiled_for`] at release `version` (`--agent-version HARNESS=VERSION`).
fn compiled_at(t: &Path, harness: &str, version: &str) -> Value {
    let pin = format!("{harness}={version}");
    let args = ["compile", "--harness", harness, "--agent-version", &pin];
    let out = local(t, &[&args[..], &["--format", "json"]].concat())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `compile --harness HARNESS --format json` in local mode: the document
/// and its text, for the tests that hold that a secret is not in it.
fn compiled_with_text(t: &Path, harness: &str) -> (Value, String) {
    let out = local(t, &["compile", "--harness", harness, "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (serde_json::from_slice(&out.stdout).unwrap(), text)
}

/// `(path, scope, applicability)` of each item of `kind`.
fn items(doc: &Value, kind: &str) -> Vec<(String, String, String)> {
    doc[kind]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["source"]["path"].as_str().unwrap().to_string(),
                i["source"]["scope"].as_str().unwrap().to_string(),
                i["applicability"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(path: &str, scope: &str, a: &str) -> (String, String, String) {
    (path.to_string(), scope.to_string(), a.to_string())
}

#[test]
fn claude_code_receives_the_user_and_managed_layers_in_their_order() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let doc = compiled(t.path());
    // Managed policy, then user memory and rules, then the project's.
    assert_eq!(
        items(&doc, "instructions"),
        [
            row("/etc/claude-code/CLAUDE.md", "managed", "effective"),
            row("~/.claude/CLAUDE.md", "user", "effective"),
            row("~/.claude/rules/style.md", "user", "effective"),
            row("CLAUDE.md", "project", "effective"),
        ]
    );
    assert_eq!(
        items(&doc, "skills"),
        [row("~/.claude/skills/deploy/SKILL.md", "user", "effective")]
    );
    // The project's subagent wins over the user's of the same name.
    assert_eq!(
        items(&doc, "subagents"),
        [
            row(".claude/agents/reviewer.md", "project", "effective"),
            row("~/.claude/agents/reviewer.md", "user", "shadowed"),
        ]
    );
    // Local (this project's entry) over project over user; the project's
    // entry disables the `.mcp.json` server, which then takes no name
    // from the user's.
    assert_eq!(
        items(&doc, "mcpServers"),
        [
            row(".mcp.json", "project", "excluded"),
            row("~/.claude.json", "local", "effective"),
            row("~/.claude.json", "user", "effective"),
            row("~/.claude.json", "user", "effective"),
        ]
    );
    let names: Vec<&str> = doc["mcpServers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["docs", "db", "docs", "search"]);
    // The overridden value is kept, at its own file and line.
    let overridden: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "setting-overridden")
        .collect();
    assert_eq!(overridden.len(), 1);
    assert_eq!(overridden[0]["source"]["path"], "~/.claude/settings.json");
    assert_eq!(overridden[0]["source"]["scope"], "user");
    let message = overridden[0]["message"].as_str().unwrap();
    assert!(message.contains("\"Learning\"") && message.contains("\"Explanatory\""));
    // No repo-mode note that the user layer is unread.
    let codes: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(!codes.contains(&"user-config-unavailable"), "{codes:?}");
    assert!(!codes.contains(&"managed-config-unavailable"), "{codes:?}");
}

#[test]
fn user_secrets_are_never_printed_nor_the_machine_paths() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    for args in [
        &["compile", "--harness", "claude-code"][..],
        &["compile", "--harness", "claude-code", "--format", "json"],
        &["check", "--format", "json"],
        &["check"],
    ] {
        let out = local(t.path(), args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        for secret in ["sk-live-0123456789abcdef0123", "hunter2hunter2hunter2"] {
            assert!(!text.contains(secret), "{args:?} printed a secret");
        }
        // The home is named only where a suggested command repeats the
        // `--home` the user gave (text wrapped at any space).
        let home = t.path().join("home");
        let home = home.to_str().unwrap();
        let flat: Vec<&str> = text.split_whitespace().filter(|w| *w != "\\").collect();
        let flat = flat.join(" ");
        assert_eq!(
            flat.matches(home).count(),
            flat.matches(&format!("--home {home}")).count(),
            "{args:?} named the home's path"
        );
    }
}

/// Every entry below `root` with its content and modification time.
fn tree(root: &Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        let md = std::fs::symlink_metadata(&p).unwrap();
        let content = if md.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            Vec::new()
        } else {
            std::fs::read(&p).unwrap()
        };
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        out.push((rel, content, md.modified().unwrap()));
    }
    out.sort();
    out
}

/// The layers read besides those of [`codex_machine`]: Claude Code's user
/// commands and output styles, a user skill named like a project skill,
/// and OpenCode's global skill roots.
fn more_layers(t: &Path) {
    let (repo, home) = (t.join("repo"), t.join("home"));
    write(
        &repo,
        ".claude/skills/build/SKILL.md",
        "---\nname: build\ndescription: The project's.\n---\nmake\n",
    );
    write(
        &home,
        ".claude/skills/build/SKILL.md",
        "---\nname: build\ndescription: The user's.\n---\nmake -j8\n",
    );
    write(
        &home,
        ".claude/commands/git/sync.md",
        "---\ndescription: Sync my branch.\n---\nRebase.\n",
    );
    write(
        &home,
        ".claude/output-styles/terse.md",
        "---\nname: Terse\ndescription: Short.\n---\nOne sentence.\n",
    );
    write(
        &home,
        ".config/opencode/skills/fmt/SKILL.md",
        "---\nname: fmt\ndescription: Format.\n---\nfmt\n",
    );
    write(
        &home,
        ".agents/skills/standup/SKILL.md",
        "---\nname: standup\ndescription: Standup notes.\n---\ngit log\n",
    );
    write(
        &home,
        ".codex/skills/lint/SKILL.md",
        "---\nname: lint\ndescription: Lint.\n---\nlint\n",
    );
    write(&home, ".gemini/GEMINI.md", "  My Gemini notes.\n\n");
    write(
        &home,
        ".copilot/copilot-instructions.md",
        "My Copilot notes.\n",
    );
    write(
        &home,
        ".copilot/instructions/style.instructions.md",
        "---\napplyTo: \"**\"\n---\nBritish spelling.\n",
    );
    write(
        &home,
        ".copilot/instructions/py.instructions.md",
        "---\napplyTo: \"**/*.py\"\n---\nType hints.\n",
    );
    write(
        &home,
        ".codex/skills/.system/bundled/SKILL.md",
        "---\nname: bundled\ndescription: Bundled.\n---\nx\n",
    );
    opencode_global(&home);
    write(
        &home,
        ".copilot/mcp-config.json",
        r#"{"mcpServers": {"docs": {"command": "user-docs", "args": []}, "notes": {"command": "notes-mcp", "args": [], "env": {"NOTES_TOKEN": "${NOTES_TOKEN}", "API_KEY": "sk-live-0123456789abcdef0123"}}}}"#,
    );
    write(
        &home,
        ".copilot/agents/helper.md",
        "---\nname: helper\ndescription: The user's helper.\n---\nHelp.\n",
    );
    write(
        &home,
        ".gemini/settings.json",
        r#"{
  "context": {"fileName": ["AGENTS.md", "GEMINI.md"]},
  "mcpServers": {
    "docs": {"command": "user-docs"},
    "notes": {"command": "notes-mcp", "env": {"NOTES_TOKEN": "$NOTES_TOKEN", "API_KEY": "sk-live-0123456789abcdef0123"}}
  }
}"#,
    );
}

/// The hooks of Copilot CLI's `~/.copilot/hooks` and of its user settings
/// (`~/.copilot/config.json` for 1.0.24, `settings.json` for 1.0.102).
fn user_hooks(t: &Path) {
    let hooks =
        r#"{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo start"}]}}"#;
    write(&t.join("home"), ".copilot/hooks/marks.json", hooks);
    write(&t.join("home"), ".copilot/config.json", hooks);
    write(&t.join("home"), ".copilot/settings.json", hooks);
}

/// OpenCode's global configuration directory: two configuration files
/// (the later's `instructions` replacing the earlier's), an instruction
/// file named by `~/`, an agent, a command and a plugin module.
fn opencode_global(home: &Path) {
    write(
        home,
        ".config/opencode/config.json",
        r#"{"instructions": ["~/.config/opencode/old.md"], "mcp": {"legacy": {"type": "remote", "url": "https://legacy.example/mcp", "enabled": false}}}"#,
    );
    write(
        home,
        ".config/opencode/opencode.jsonc",
        r#"{
  // The user's own.
  "instructions": ["~/.config/opencode/style.md"],
  "mcp": {
    "notes": {"type": "local", "command": ["notes-mcp"],
              "environment": {"NOTES_TOKEN": "{env:NOTES_TOKEN}", "API_KEY": "sk-live-0123456789abcdef0123"}},
    "docs": {"type": "local", "command": ["user-docs"]}
  },
  "agent": {"helper": {"description": "The user's helper.", "mode": "subagent"}},
  "command": {"hello": {"template": "Say hello."}}
}"#,
    );
    write(home, ".config/opencode/style.md", "British spelling.\n");
    write(
        home,
        ".opencode/opencode.json",
        r#"{"mcp": {"scratch": {"type": "local", "command": ["scratch-mcp"]}}}"#,
    );
    write(
        home,
        ".opencode/command/tidy.md",
        "---\ndescription: Tidy.\n---\nTidy.\n",
    );
    write(home, ".config/opencode/old.md", "Old.\n");
    write(
        home,
        ".config/opencode/agent/reviewer.md",
        "---\ndescription: Reviews.\nmode: subagent\n---\nReview.\n",
    );
    write(
        home,
        ".config/opencode/commands/standup.md",
        "---\ndescription: Standup.\n---\nSummarise.\n",
    );
    write(
        home,
        ".config/opencode/plugin/notify.js",
        "export const Notify = async () => ({\n  \"session.idle\": async () => {},\n})\n",
    );
}

#[test]
fn local_mode_never_writes_to_the_home_or_the_managed_root() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    more_layers(t.path());
    write(
        &t.path().join("root"),
        "etc/gemini-cli/settings.json",
        r#"{"mcpServers": {"audit": {"command": "audit-mcp"}}}"#,
    );
    write(
        &t.path().join("root"),
        "etc/opencode/opencode.json",
        r#"{"mcp": {"audit": {"type": "local", "command": ["audit-mcp"]}}}"#,
    );
    claude_plugins(t.path());
    gemini_items(t.path());
    opencode_skills_paths(&t.path().join("home"));
    codex_system_skills(&t.path().join("home"), "c97ed5ddabec1e4\n");
    cursor_user(t.path());
    write(
        &t.path().join("home"),
        ".codex/wide.config.toml",
        "project_doc_max_bytes = 11\n",
    );
    write(
        &t.path().join("home"),
        ".claude/remote-settings.json",
        "{\"outputStyle\": \"Explanatory\"}\n",
    );
    // Codex's hooks outside the project and the managed requirements.
    write(
        &t.path().join("home"),
        ".codex/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}}"#,
    );
    write(
        &t.path().join("root"),
        "etc/codex/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "audit"}]}]}}"#,
    );
    write(
        &t.path().join("root"),
        "etc/codex/requirements.toml",
        "allow_managed_hooks_only = true\n[mcp_servers.policy.identity]\ncommand = \"policy\"\n\n[hooks]\nmanaged_dir = \"/etc/codex/hooks\"\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"/etc/codex/hooks/stop.sh\" }]\n",
    );
    user_hooks(t.path());
    let before = (tree(&t.path().join("home")), tree(&t.path().join("root")));
    for args in [
        &["compile", "--harness", "claude-code"][..],
        &["compile", "--harness", "codex", "--format", "json"],
        &["compile", "--harness", "opencode", "--format", "json"],
        &["compile", "--harness", "gemini", "--format", "json"],
        &["compile", "--harness", "copilot", "--format", "json"],
        &[
            "compile",
            "--harness",
            "copilot",
            "--agent-version=copilot=1.0.24",
        ],
        &["compile", "--harness", "cursor", "--format", "json"],
        &["check", "--format", "json"],
        &["check", "--all-dirs"],
    ] {
        local(t.path(), args).output().unwrap();
    }
    local(
        t.path(),
        &["compile", "--harness", "codex", "--profile", "wide"],
    )
    .output()
    .unwrap();
    let mut view = Command::cargo_bin("playbookdiff").unwrap();
    view.arg(t.path().join("repo"))
        .args(["--mode", "local", "--home"])
        .arg(t.path().join("home"));
    view.output().unwrap();
    let after = (tree(&t.path().join("home")), tree(&t.path().join("root")));
    assert_eq!(
        before, after,
        "`~/.claude.json` and every user file unchanged"
    );
}

#[test]
fn the_harness_variable_moves_the_directory_and_names_it() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let config = t.path().join("elsewhere");
    write(&config, "CLAUDE.md", "Moved.\n");
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    let out = cmd
        .args(["compile", "--harness", "claude-code", "--format", "json"])
        .arg(t.path().join("repo"))
        .args(["--mode", "local", "--managed-root"])
        .arg(t.path().join("root"))
        .env("HOME", t.path().join("home"))
        .env("CLAUDE_CONFIG_DIR", &config)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths: Vec<String> = items(&doc, "instructions")
        .into_iter()
        .map(|r| r.0)
        .collect();
    assert_eq!(
        paths,
        [
            "/etc/claude-code/CLAUDE.md",
            "$CLAUDE_CONFIG_DIR/CLAUDE.md",
            "CLAUDE.md"
        ],
        "the home's ~/.claude is not read once the variable moves it"
    );
}

#[test]
fn repo_mode_reads_no_home_and_refuses_the_local_options() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let run = |home: &Path| {
        Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["compile", "--harness", "claude-code", "--format", "json"])
            .arg(t.path().join("repo"))
            .env("HOME", home)
            .output()
            .unwrap()
            .stdout
    };
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(run(&t.path().join("home")), run(empty.path()));
    for option in ["--home", "--managed-root"] {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["compile"])
            .arg(t.path().join("repo"))
            .arg(option)
            .arg(t.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("add --mode local"), "{err}");
    }
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["compile", "--mode", "local", "--home"])
        .arg(t.path().join("missing"))
        .arg(t.path().join("repo"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--home"));
}

/// A home and a managed root with Codex's layers, beside the Claude Code
/// ones of [`machine`].
fn codex_machine(t: &Path) {
    machine(t);
    let (repo, home, root) = (t.join("repo"), t.join("home"), t.join("root"));
    write(&repo, "AGENTS.md", "Repository agents.\n");
    write(
        &repo,
        ".codex/config.toml",
        "[mcp_servers.repo]\ncommand = \"repo-mcp\"\n",
    );
    write(&home, ".codex/AGENTS.override.md", "  \n");
    write(&home, ".codex/AGENTS.md", "The user's Codex notes.\n");
    let project = std::fs::canonicalize(&repo).unwrap();
    write(
        &home,
        ".codex/config.toml",
        &format!(
            "[mcp_servers.mine]\ncommand = \"mine\"\nenv = {{ TOKEN = \"ghp_0123456789abcdefghijklmnopqrstuvwxyz\" }}\n\n[projects.\"{}\"]\ntrust_level = \"untrusted\"\n",
            project.display()
        ),
    );
    write(
        &root,
        "etc/codex/config.toml",
        "[mcp_servers.policy]\ncommand = \"policy\"\n",
    );
}

/// Codex hooks in every layer of a trusted project: a system hook, a user
/// hook trusted by its current hash, a user hook holding a secret and
/// never trusted, a project hook trusted for another version of it; and
/// managed requirements allowing one of the user's two MCP servers.
fn codex_hooks_machine(t: &Path) {
    let (repo, home, root) = (t.join("repo"), t.join("home"), t.join("root"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(
        &repo,
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh guard.sh"}]}]}}"#,
    );
    let project = std::fs::canonicalize(&repo).unwrap();
    let config = home.join(".codex/config.toml");
    write(
        &home,
        ".codex/config.toml",
        &format!(
            r#"[projects."{project}"]
trust_level = "trusted"

[mcp_servers.mine]
command = "mine"

[mcp_servers.other]
command = "other"

[[hooks.SessionStart]]
hooks = [{{ type = "command", command = "echo start" }}]

[hooks.state."{config}:session_start:0:0"]
trusted_hash = "sha256:0622ee3c0637622018c9e9801f26ec5c5d94a48f4d99284a7ef05b9d6ac7388d"

[hooks.state."{project}/.codex/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:{stale}"
"#,
            project = project.display(),
            config = config.display(),
            stale = "0".repeat(64),
        ),
    );
    write(
        &home,
        ".codex/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "curl -H 'Authorization: Bearer sk-live-0123456789abcdef0123' https://hooks.example"}]}]}}"#,
    );
    write(
        &root,
        "etc/codex/hooks.json",
        r#"{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "audit"}]}]}}"#,
    );
    write(
        &root,
        "etc/codex/requirements.toml",
        "[mcp_servers.mine.identity]\ncommand = \"mine\"\n",
    );
}

#[test]
fn codex_hooks_run_as_the_users_trust_and_the_system_decide() {
    let t = tempfile::tempdir().unwrap();
    codex_hooks_machine(t.path());
    let (doc, text) = compiled_with_text(t.path(), "codex");
    assert!(
        !text.contains("sk-live-0123"),
        "a hook's secret was printed"
    );
    let hooks: Vec<(String, String, String, String)> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                s(&h["source"]["path"]),
                s(&h["source"]["scope"]),
                s(&h["event"]),
                s(&h["runs"]["state"]),
            )
        })
        .collect();
    let row = |p: &str, sc: &str, e: &str, r: &str| (p.into(), sc.into(), e.into(), r.into());
    assert_eq!(
        hooks,
        vec![
            row("/etc/codex/hooks.json", "managed", "PostToolUse", "yes"),
            row("~/.codex/hooks.json", "user", "Stop", "no"),
            row("~/.codex/config.toml", "user", "SessionStart", "yes"),
            row(".codex/hooks.json", "project", "PreToolUse", "no"),
        ]
    );
    let reason = |i: usize| {
        doc["hooks"][i]["runs"]["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(reason(1).starts_with("untrusted"), "{}", reason(1));
    assert!(reason(3).starts_with("modified"), "{}", reason(3));
    // The stale hash's entry is where the verdict points.
    assert_eq!(
        doc["hooks"][3]["runs"]["source"]["path"],
        "~/.codex/config.toml"
    );
    let servers: Vec<(String, String)> = doc["mcpServers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&m["name"]), s(&m["applicability"]))
        })
        .collect();
    assert_eq!(
        servers,
        vec![
            ("mine".to_string(), "effective".to_string()),
            ("other".to_string(), "excluded".to_string())
        ]
    );
}

#[test]
fn codex_runs_the_requirements_hooks_first_and_only_managed_ones_when_required() {
    let t = tempfile::tempdir().unwrap();
    codex_hooks_machine(t.path());
    let requirements = "[mcp_servers.mine.identity]\ncommand = \"mine\"\n\n[hooks]\nmanaged_dir = \"/etc/codex/hooks\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"/etc/codex/hooks/check.sh\" }]\n";
    let root = t.path().join("root");
    write(&root, "etc/codex/requirements.toml", requirements);
    let hooks = |doc: &Value| -> Vec<(String, String, String)> {
        doc["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
                (
                    s(&h["source"]["path"]),
                    s(&h["applicability"]),
                    s(&h["runs"]["state"]),
                )
            })
            .collect()
    };
    let row = |p: &str, a: &str, r: &str| (p.to_string(), a.to_string(), r.to_string());
    // Beside the other layers' hooks, first, and run as managed.
    let added = hooks(&compiled_for(t.path(), "codex"));
    assert_eq!(
        added[0],
        row("/etc/codex/requirements.toml", "effective", "yes")
    );
    assert_eq!(added.len(), 5);
    // `allow_managed_hooks_only`: the user's and the project's hooks are
    // not loaded, kept in the list as excluded with the requirement's line.
    write(
        &root,
        "etc/codex/requirements.toml",
        &format!("allow_managed_hooks_only = true\n{requirements}"),
    );
    let doc = compiled_for(t.path(), "codex");
    assert_eq!(
        hooks(&doc),
        vec![
            row("/etc/codex/requirements.toml", "effective", "yes"),
            row("/etc/codex/hooks.json", "effective", "yes"),
            row("~/.codex/hooks.json", "excluded", "no"),
            row("~/.codex/config.toml", "excluded", "no"),
            row(".codex/hooks.json", "excluded", "no"),
        ]
    );
    let verdict = &doc["hooks"][2]["runs"];
    assert_eq!(verdict["source"]["path"], "/etc/codex/requirements.toml");
    assert_eq!(verdict["source"]["lines"]["start"], 1);
}

/// Cursor's user layer in `home`: a skill, a command, MCP servers (one
/// named like the project's, one holding a secret and a placeholder) and
/// a hook; and the project's server of the same name in `repo`.
fn cursor_user(t: &Path) {
    let (repo, home) = (t.join("repo"), t.join("home"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(t.join("root")).unwrap();
    write(
        &repo,
        ".cursor/mcp.json",
        r#"{"mcpServers": {"docs": {"command": "project-docs"}}}"#,
    );
    write(
        &home,
        ".cursor/skills/triage/SKILL.md",
        "---\nname: triage\ndescription: Sort the bug reports.\n---\nSteps.\n",
    );
    write(&home, ".cursor/commands/ship.md", "Ship it.\n");
    write(
        &home,
        ".cursor/mcp.json",
        r#"{"mcpServers": {
  "docs": {"command": "user-docs"},
  "tracker": {"url": "https://t.example/mcp", "headers": {"Authorization": "Bearer sk-live-0123456789abcdef0123", "X-Team": "${env:TEAM}"}}
}}"#,
    );
    write(
        &home,
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"stop": [{"command": "notify-done"}]}}"#,
    );
}

#[test]
fn cursor_reads_the_users_files_as_documented() {
    let t = tempfile::tempdir().unwrap();
    cursor_user(t.path());
    let (doc, text) = compiled_with_text(t.path(), "cursor");
    assert!(!text.contains("sk-live-0123"), "a user secret was printed");
    assert_eq!(
        items(&doc, "skills"),
        [row("~/.cursor/skills/triage/SKILL.md", "user", "effective")]
    );
    assert_eq!(
        items(&doc, "commands"),
        [row("~/.cursor/commands/ship.md", "user", "effective")]
    );
    // The project's `docs` is assumed to win; the user's stays, shadowed.
    assert_eq!(
        items(&doc, "mcpServers"),
        [
            row(".cursor/mcp.json", "project", "effective"),
            row("~/.cursor/mcp.json", "user", "shadowed"),
            row("~/.cursor/mcp.json", "user", "effective"),
        ]
    );
    let tracker = &doc["mcpServers"][2];
    assert_eq!(tracker["source"]["lines"]["start"], 3);
    assert!(
        text.contains("${env:TEAM}"),
        "the placeholder is kept as written"
    );
    assert_eq!(
        items(&doc, "hooks"),
        [row("~/.cursor/hooks.json", "user", "effective")]
    );
    // Every user item says it is documented, not observed.
    for kind in ["skills", "commands", "mcpServers", "hooks"] {
        for i in doc[kind].as_array().unwrap() {
            let reason = i["reason"].as_str().unwrap();
            assert!(reason.contains("documented, not observed"), "{reason}");
        }
    }
    // User Rules stay unread, with the reason.
    let rules = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap_or("")
                .starts_with("User Rules")
        })
        .unwrap();
    assert!(rules["message"]
        .as_str()
        .unwrap()
        .contains("settings store"));
}

#[test]
fn codex_receives_its_home_and_system_layers_and_the_users_trust() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    let (doc, text) = compiled_with_text(t.path(), "codex");
    assert!(
        !text.contains("ghp_0123456789"),
        "a user secret was printed"
    );
    // The global AGENTS.md (the blank override is skipped) comes first.
    let first = &doc["instructions"][0];
    assert_eq!(first["source"]["path"], "~/.codex/AGENTS.md");
    assert_eq!(first["source"]["scope"], "user");
    assert_eq!(first["order"], 0);
    // Untrusted, 0.171.0 sends no project AGENTS.md (fidelity X27); the
    // user's global file still loads.
    assert_eq!(doc["instructions"][1]["source"]["path"], "AGENTS.md");
    assert_eq!(doc["instructions"][1]["applicability"], "excluded");
    // The user's trust entry marks the project untrusted: its layer (and
    // its server) is not loaded; the user's and the system's are.
    assert_eq!(
        items(&doc, "mcpServers"),
        [
            row("~/.codex/config.toml", "user", "effective"),
            row("/etc/codex/config.toml", "managed", "effective"),
        ]
    );
    let codes: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"project-untrusted"), "{codes:?}");
}

#[test]
fn opencode_sends_the_global_agents_md_first_else_the_users_claude_md() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    write(&t.path().join("repo"), "AGENTS.md", "Repository agents.\n");
    let first = |t: &Path| {
        let out = local(t, &["compile", "--harness", "opencode", "--format", "json"])
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let i = &doc["instructions"];
        (
            i[0]["source"]["path"].as_str().unwrap().to_string(),
            i[0]["source"]["scope"].as_str().unwrap().to_string(),
            i[0]["order"].clone(),
            i[1]["source"]["path"].as_str().unwrap().to_string(),
            i[1]["order"].clone(),
        )
    };
    // No global AGENTS.md: the user's ~/.claude/CLAUDE.md stands in.
    assert_eq!(
        first(t.path()),
        (
            "~/.claude/CLAUDE.md".into(),
            "user".into(),
            Value::from(0),
            "AGENTS.md".into(),
            Value::from(1)
        )
    );
    write(
        &t.path().join("home"),
        ".config/opencode/AGENTS.md",
        "Global.\n",
    );
    assert_eq!(first(t.path()).0, "~/.config/opencode/AGENTS.md");
}

#[test]
fn claude_code_reads_the_users_commands_and_output_styles_and_its_skill_wins() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    let doc = compiled(t.path());
    let skills = items(&doc, "skills");
    // 2.1.332 lists one skill per name: the user's `build` wins.
    assert!(skills.contains(&row("~/.claude/skills/build/SKILL.md", "user", "effective")));
    assert!(skills.contains(&row(".claude/skills/build/SKILL.md", "project", "shadowed")));
    let sync = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["source"]["path"] == "~/.claude/commands/git/sync.md")
        .expect("the user's command");
    assert_eq!(sync["name"], "git:sync");
    assert_eq!(sync["source"]["scope"], "user");
    assert_eq!(sync["applicability"], "effective");
    // The project's `outputStyle` (Explanatory, a built-in) wins, so the
    // user's style is found but not selected.
    let styles = items(&doc, "outputStyles");
    assert_eq!(
        styles,
        [row(
            "~/.claude/output-styles/terse.md",
            "user",
            "conditional"
        )]
    );
}

#[test]
fn opencode_finds_the_users_skills_in_its_global_roots() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    let doc = compiled_for(t.path(), "opencode");
    let skills = items(&doc, "skills");
    for path in [
        "~/.claude/skills/deploy/SKILL.md",
        "~/.config/opencode/skills/fmt/SKILL.md",
    ] {
        assert!(
            skills.contains(&row(path, "user", "effective")),
            "{skills:?}"
        );
    }
    // Two definitions of `build`: the project's, found last, stands for
    // the name (OpenCode races between them, and says so).
    assert!(skills.contains(&row(
        ".claude/skills/build/SKILL.md",
        "project",
        "effective"
    )));
    assert!(skills.contains(&row("~/.claude/skills/build/SKILL.md", "user", "shadowed")));
}

#[test]
fn codex_lists_the_users_skills_with_the_projects() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    more_layers(t.path());
    let doc = compiled_for(t.path(), "codex");
    // Codex's home is `~/.codex` here. Its `.system` folder has no marker,
    // so Codex 0.171.0 writes its own system skills over it: those are
    // listed (`builtin`), not the folder's `bundled`, and a marker-less
    // folder is replaced without a word.
    let system = |name: &str| {
        row(
            &format!("~/.codex/skills/.system/{name}/SKILL.md"),
            "builtin",
            "effective",
        )
    };
    assert_eq!(
        items(&doc, "skills"),
        [
            system("imagegen"),
            row("~/.codex/skills/lint/SKILL.md", "user", "effective"),
            system("openai-docs"),
            system("skill-creator"),
            system("skill-installer"),
            row("~/.agents/skills/standup/SKILL.md", "user", "effective"),
        ]
    );
}

/// Codex's system skills folder, kept by the release whose marker it
/// holds (0.171.0) with its own skills, replaced by another (0.142.3),
/// which is told at the marker.
fn codex_system_skills(home: &Path, marker: &str) {
    write(
        home,
        ".codex/skills/.system/.codex-system-skills.marker",
        marker,
    );
    write(
        home,
        ".codex/skills/.system/house-style/SKILL.md",
        "---\nname: house-style\ndescription: The team's style.\n---\nx\n",
    );
    write(
        home,
        ".codex/skills/.system/quiet/SKILL.md",
        "---\nname: quiet\ndescription: By name only.\n---\nx\n",
    );
    write(
        home,
        ".codex/skills/.system/quiet/agents/openai.yaml",
        "policy:\n  allow_implicit_invocation: false\n",
    );
}

#[test]
fn codex_lists_a_system_skills_folder_only_when_its_marker_is_the_releases() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    codex_system_skills(&t.path().join("home"), "c97ed5ddabec1e4\n");
    let skills = |version: &str| {
        let out = local(
            t.path(),
            &["compile", "--harness", "codex", "--format", "json"],
        )
        .args(["--agent-version", &format!("codex={version}")])
        .output()
        .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        (items(&doc, "skills"), doc)
    };
    let (kept, doc) = skills("0.171.0");
    assert_eq!(
        kept,
        [
            row(
                "~/.codex/skills/.system/house-style/SKILL.md",
                "builtin",
                "effective"
            ),
            row(
                "~/.codex/skills/.system/quiet/SKILL.md",
                "builtin",
                "effective"
            ),
        ]
    );
    // `quiet` is loaded but hidden from the listing by its policy.
    assert_eq!(doc["skills"][1]["advertisement"]["state"], "hidden");
    let (written, doc) = skills("0.142.3");
    let names: Vec<&str> = written.iter().map(|(p, _, _)| p.as_str()).collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.contains(&"~/.codex/skills/.system/plugin-creator/SKILL.md"));
    let replaced: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "system-skills-replaced")
        .collect();
    assert_eq!(replaced.len(), 1);
    assert_eq!(
        replaced[0]["source"]["path"],
        "~/.codex/skills/.system/.codex-system-skills.marker"
    );
}

/// Before 0.77.0 Codex has no system skills: it neither lists nor
/// replaces the folder (0.75.0 on case
/// `oracle.local_user_layers.home-codex-system-skills` lists no skill).
#[test]
fn codex_before_its_system_skills_leaves_the_folder_unread() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    codex_system_skills(&t.path().join("home"), "c97ed5ddabec1e4\n");
    let out = local(
        t.path(),
        &["compile", "--harness", "codex", "--format", "json"],
    )
    .args(["--agent-version", "codex=0.75.0"])
    .output()
    .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let system: Vec<_> = items(&doc, "skills")
        .into_iter()
        .filter(|(p, _, _)| p.contains("/.system/"))
        .collect();
    assert_eq!(system, Vec::new());
    let codes: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert!(
        !codes.contains(&&Value::from("system-skills-replaced")),
        "{codes:?}"
    );
}

/// The system skills Codex writes and lists with an empty
/// `$CODEX_HOME/skills/.system`, release by release (cases
/// `oracle.local_user_layers.home-codex-approval-untrusted` and
/// `...home-codex-approval-on-failure`, `systemSkills` with the length of
/// each description): two from 0.77.0, `openai-docs` from 0.115.0,
/// `imagegen` and `plugin-creator` from 0.117.0, `plugin-creator` gone
/// from 0.159.0; each description's length as the release lists it.
#[test]
fn codex_lists_each_releases_own_system_skills() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    let listed = |version: &str| {
        let out = local(
            t.path(),
            &["compile", "--harness", "codex", "--format", "json"],
        )
        .args(["--agent-version", &format!("codex={version}")])
        .output()
        .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["skills"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["source"]["scope"] == "builtin")
            .map(|s| {
                let name = s["name"].as_str().unwrap().to_string();
                (
                    name,
                    s["advertisement"]["descriptionChars"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let set = |pairs: &[(&str, u64)]| {
        pairs
            .iter()
            .map(|(n, c)| (n.to_string(), *c))
            .collect::<Vec<_>>()
    };
    let two = set(&[("skill-creator", 225), ("skill-installer", 225)]);
    assert_eq!(listed("0.77.0"), two);
    assert_eq!(listed("0.114.0"), two);
    assert_eq!(
        listed("0.115.0"),
        set(&[
            ("openai-docs", 372),
            ("skill-creator", 225),
            ("skill-installer", 225)
        ])
    );
    let five = listed("0.117.0");
    assert_eq!(five.len(), 5, "{five:?}");
    assert!(five.contains(&("plugin-creator".to_string(), 397)));
    assert!(listed("0.142.3").contains(&("openai-docs".to_string(), 447)));
    assert!(listed("0.145.0").contains(&("openai-docs".to_string(), 496)));
    let four = listed("0.159.0");
    assert_eq!(
        four,
        set(&[
            ("imagegen", 570),
            ("openai-docs", 459),
            ("skill-creator", 106),
            ("skill-installer", 225)
        ])
    );
}

#[test]
fn gemini_cli_sends_the_users_global_context_first() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    write(&t.path().join("repo"), "GEMINI.md", "Project.\n");
    let doc = compiled_for(t.path(), "gemini");
    assert_eq!(
        items(&doc, "instructions"),
        [
            row("~/.gemini/GEMINI.md", "user", "effective"),
            row("GEMINI.md", "project", "effective"),
        ]
    );
    let first = &doc["instructions"][0];
    assert_eq!(first["order"], 0);
    assert_eq!(first["content"], "My Gemini notes.", "sent trimmed");
    let codes: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .filter(|m| m.contains("Global context"))
        .collect();
    assert!(codes.is_empty(), "the global context is read: {codes:?}");
}

#[test]
fn copilot_cli_sends_the_users_instructions_first_and_inlines_the_general_ones() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    write(&t.path().join("repo"), "AGENTS.md", "Project.\n");
    let doc = compiled_for(t.path(), "copilot");
    let startup: Vec<(String, String, String)> = items(&doc, "instructions")
        .into_iter()
        .filter(|r| r.0.starts_with("~/") || r.0 == "AGENTS.md")
        .collect();
    assert_eq!(
        startup,
        [
            row("~/.copilot/copilot-instructions.md", "user", "effective"),
            row("AGENTS.md", "project", "effective"),
            row(
                "~/.copilot/instructions/style.instructions.md",
                "user",
                "effective"
            ),
            row(
                "~/.copilot/instructions/py.instructions.md",
                "user",
                "conditional"
            ),
        ]
    );
}

/// The user's instruction files of `compile --harness copilot` in local
/// mode with the release `version`: `(path, applicability, paths)` each.
fn copilot_user_instructions(t: &Path, version: &str) -> Vec<(String, String, Value)> {
    let release = format!("--agent-version=copilot={version}");
    let args = [
        "compile",
        "--harness",
        "copilot",
        "--format",
        "json",
        &release,
    ];
    let out = local(t, &args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            i["source"]["path"]
                .as_str()
                .is_some_and(|p| p.starts_with("~/.copilot/instructions/"))
        })
        .map(|i| {
            (
                i["source"]["path"].as_str().unwrap().to_string(),
                i["applicability"].as_str().unwrap().to_string(),
                i["paths"].clone(),
            )
        })
        .collect()
}

#[test]
fn copilot_cli_reads_paths_of_a_user_instruction_file_from_1_0_89() {
    // Case `fuzz.copilot.home.0`: a user file with `paths:` and no
    // `applyTo`. 1.0.102 lists it for that pattern (bisected: from
    // 1.0.89, with Claude Code's rules); 1.0.24 reads only `applyTo`, so
    // the file applies to every file and is inlined.
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    write(
        &t.path().join("home"),
        ".copilot/instructions/style0.instructions.md",
        "---\npaths: \".claude/rules/**/*.TS\"\n---\nTyped.\n",
    );
    let path = "~/.copilot/instructions/style0.instructions.md".to_string();
    assert_eq!(
        copilot_user_instructions(t.path(), "1.0.102"),
        [(
            path.clone(),
            "conditional".to_string(),
            serde_json::json!([".claude/rules/**/*.TS"])
        )]
    );
    assert_eq!(
        copilot_user_instructions(t.path(), "1.0.24"),
        [(path, "effective".to_string(), Value::Null)]
    );
}

#[test]
fn opencode_merges_its_global_configuration_below_the_projects() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    let repo = t.path().join("repo");
    write(&repo, "AGENTS.md", "Project.\n");
    write(
        &repo,
        "opencode.json",
        r#"{"mcp": {"docs": {"type": "local", "command": ["project-docs"]}}}"#,
    );
    let (doc, text) = compiled_with_text(t.path(), "opencode");
    assert!(!text.contains("sk-live-0123"), "a user secret was printed");
    // The project's files, then the user's `~/` entry of the global
    // `opencode.jsonc` (its list replaced `config.json`'s).
    let startup: Vec<(String, String, String)> = items(&doc, "instructions")
        .into_iter()
        .filter(|r| r.2 == "effective")
        .collect();
    assert_eq!(
        startup,
        [
            row("~/.claude/CLAUDE.md", "user", "effective"),
            row("AGENTS.md", "project", "effective"),
            row("~/.config/opencode/style.md", "user", "effective"),
        ]
    );
    // The project's `docs` wins; the user's value is kept beside it.
    let servers: Vec<(String, String, String)> = items(&doc, "mcpServers");
    assert_eq!(
        servers,
        [
            row("opencode.json", "project", "effective"),
            row("~/.config/opencode/config.json", "user", "excluded"),
            row("~/.config/opencode/opencode.jsonc", "user", "effective"),
            row("~/.opencode/opencode.json", "user", "effective"),
        ]
    );
    let docs = &doc["mcpServers"][0];
    assert_eq!(docs["name"], "docs");
    assert_eq!(
        docs["otherSources"][0]["path"],
        "~/.config/opencode/opencode.jsonc"
    );
    assert_eq!(docs["otherSources"][0]["scope"], "user");
    // `{env:VAR}` stays the variable's name, never its value.
    let notes = &doc["mcpServers"][2];
    assert!(notes.to_string().contains("NOTES_TOKEN"));
    // The user's agents and commands, from the keys and the files.
    for (kind, names) in [
        ("subagents", &["helper", "reviewer"][..]),
        ("commands", &["hello", "standup", "tidy"]),
    ] {
        let found: Vec<(&str, &str)> = doc[kind]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["name"].as_str().unwrap(),
                    i["source"]["scope"].as_str().unwrap(),
                )
            })
            .collect();
        let expected: Vec<(&str, &str)> = names.iter().map(|n| (*n, "user")).collect();
        assert_eq!(found, expected, "{kind}");
    }
    // The managed configuration wins over every other layer.
    write(
        &t.path().join("root"),
        "etc/opencode/opencode.json",
        r#"{"mcp": {"docs": {"type": "remote", "url": "https://policy.example/mcp"}}}"#,
    );
    let managed = compiled_for(t.path(), "opencode");
    let docs = &managed["mcpServers"][0];
    assert_eq!(docs["source"]["path"], "/etc/opencode/opencode.json");
    assert_eq!(docs["source"]["scope"], "managed");
    assert_eq!(docs["otherSources"][1]["path"], "opencode.json");
    // The plugin module is listed, in the user's layer, and never run.
    let plugin: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"]["path"] == "~/.config/opencode/plugin/notify.js")
        .collect();
    assert_eq!(plugin.len(), 1);
    assert_eq!(plugin[0]["code"], "item-not-modelled");
    assert_eq!(plugin[0]["source"]["scope"], "user");
    // Its hook, found in its text at its line.
    let hook = &doc["hooks"][0];
    assert_eq!(hook["event"], "session.idle");
    assert_eq!(
        hook["source"]["path"],
        "~/.config/opencode/plugin/notify.js"
    );
    assert_eq!(hook["source"]["scope"], "user");
    assert_eq!(hook["source"]["lines"]["start"], 2);
    // No repo-mode note that the user's configuration is unread.
    assert!(!text.contains("User configuration (`~/.config/opencode"));
}

#[test]
fn opencode_refuses_a_global_configuration_that_does_not_parse() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    write(
        &t.path().join("home"),
        ".config/opencode/opencode.json",
        "{\n  \"mcp\": {\n    \"notes\": {},\n}\n",
    );
    let doc = compiled_for(t.path(), "opencode");
    let errors: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "invalid-json")
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0]["source"]["path"],
        "~/.config/opencode/opencode.json"
    );
    assert_eq!(errors[0]["source"]["scope"], "user");
    assert_eq!(errors[0]["source"]["lines"]["start"], 5);
}

#[test]
fn gemini_cli_merges_the_users_settings_below_the_workspaces() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    let repo = t.path().join("repo");
    write(&repo, "AGENTS.md", "Project agents.\n");
    write(
        &repo,
        ".gemini/settings.json",
        r#"{"mcpServers": {"docs": {"command": "project-docs"}}}"#,
    );
    let (doc, text) = compiled_with_text(t.path(), "gemini");
    assert!(!text.contains("sk-live-0123"), "a user secret was printed");
    assert!(!text.contains("user-docs-expanded"));
    // The workspace's `docs` replaces the user's whole; `notes` is the
    // user's alone.
    assert_eq!(
        items(&doc, "mcpServers"),
        [
            row(".gemini/settings.json", "project", "effective"),
            row("~/.gemini/settings.json", "user", "shadowed"),
            row("~/.gemini/settings.json", "user", "effective"),
        ]
    );
    let names: Vec<&str> = doc["mcpServers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["docs", "docs", "notes"]);
    // `$NOTES_TOKEN` stays a variable's name.
    assert!(doc["mcpServers"][2].to_string().contains("NOTES_TOKEN"));
    // The system settings (managed) win over both.
    write(
        &t.path().join("root"),
        "etc/gemini-cli/settings.json",
        r#"{"mcpServers": {"docs": {"httpUrl": "https://policy.example/mcp"}}}"#,
    );
    let managed = compiled_for(t.path(), "gemini");
    assert_eq!(
        items(&managed, "mcpServers"),
        [
            row("/etc/gemini-cli/settings.json", "managed", "effective"),
            row(".gemini/settings.json", "project", "shadowed"),
            row("~/.gemini/settings.json", "user", "shadowed"),
            row("~/.gemini/settings.json", "user", "effective"),
        ]
    );
    // The user's `context.fileName` names AGENTS.md, which the project has.
    let paths: Vec<String> = items(&managed, "instructions")
        .into_iter()
        .filter(|r| r.2 == "effective")
        .map(|r| r.0)
        .collect();
    assert_eq!(paths, ["~/.gemini/GEMINI.md", "AGENTS.md"]);
}

/// Gemini CLI's user skills and commands, a workspace skill and command
/// of the same names, and system defaults below the user's settings.
fn gemini_items(t: &Path) {
    let (repo, home, root) = (t.join("repo"), t.join("home"), t.join("root"));
    write(
        &repo,
        ".gemini/skills/review/SKILL.md",
        "---\nname: review\ndescription: The project's.\n---\nRead.\n",
    );
    write(
        &repo,
        ".gemini/commands/deploy.toml",
        "prompt = \"Ship.\"\n",
    );
    write(
        &home,
        ".gemini/skills/review/SKILL.md",
        "---\nname: review\ndescription: The user's.\n---\nRead.\n",
    );
    write(
        &home,
        ".gemini/skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Notes.\n---\nWrite.\n",
    );
    write(
        &home,
        ".gemini/commands/deploy.toml",
        "prompt = \"Mine.\"\n",
    );
    write(
        &home,
        ".gemini/commands/git/log.toml",
        "prompt = \"Log.\"\n",
    );
    write(&home, ".gemini/commands/plan.toml", "prompt = \"Plan.\"\n");
    write(&home, ".gemini/commands/broken.toml", "prompt = \"open\n");
    write(
        &root,
        "etc/gemini-cli/system-defaults.json",
        r#"{
  // Below the user's settings.
  "mcpServers": {
    "docs": {"command": "default-docs"},
    "search": {"httpUrl": "https://s.example/mcp",
               "headers": {"Authorization": "Bearer sk-live-0123456789abcdef0123"}}
  }
}"#,
    );
}

#[test]
fn gemini_cli_reads_the_users_skills_commands_and_system_defaults() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    gemini_items(t.path());
    let (doc, text) = compiled_with_text(t.path(), "gemini");
    assert!(
        !text.contains("sk-live-0123"),
        "a default's secret was printed"
    );
    // The release's built-in skills first, then the user's roots; the
    // workspace's `review` wins.
    let skills: Vec<(String, String, String)> = items(&doc, "skills");
    assert_eq!(
        skills,
        [
            row("builtin:antigravity-support", "builtin", "effective"),
            row("builtin:skill-creator", "builtin", "effective"),
            row("~/.gemini/skills/notes/SKILL.md", "user", "effective"),
            row("~/.gemini/skills/review/SKILL.md", "user", "shadowed"),
            row("~/.agents/skills/standup/SKILL.md", "user", "effective"),
            row(".gemini/skills/review/SKILL.md", "project", "effective"),
        ]
    );
    // A user command and a workspace command of one name are both
    // renamed; `plan` is a built-in's, so the user's runs as `user.plan`.
    let commands: Vec<(&str, &str)> = doc["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["source"]["scope"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        commands,
        [
            ("user.deploy", "user"),
            ("git:log", "user"),
            ("user.plan", "user"),
            ("workspace.deploy", "project"),
        ]
    );
    let broken = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["source"]["path"] == "~/.gemini/commands/broken.toml")
        .expect("the broken user command is reported");
    assert_eq!(broken["source"]["lines"]["start"], 1, "{broken}");
    assert_eq!(broken["source"]["scope"], "user", "{broken}");
    // The system defaults lie below the user's settings: the user's `docs`
    // wins; `search` is the defaults' alone, in the managed layer.
    assert_eq!(
        items(&doc, "mcpServers"),
        [
            row("~/.gemini/settings.json", "user", "effective"),
            row(
                "/etc/gemini-cli/system-defaults.json",
                "managed",
                "shadowed"
            ),
            row("~/.gemini/settings.json", "user", "effective"),
            row(
                "/etc/gemini-cli/system-defaults.json",
                "managed",
                "effective"
            ),
        ]
    );
}

/// The skills of `compile --harness copilot` in local mode with the
/// release `version`: `(path, scope, applicability)` each.
fn copilot_skills(t: &Path, version: &str) -> Vec<(String, String, String)> {
    let release = format!("--agent-version=copilot={version}");
    let args = [
        "compile",
        "--harness",
        "copilot",
        "--format",
        "json",
        &release,
    ];
    let out = local(t, &args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    items(&serde_json::from_slice(&out.stdout).unwrap(), "skills")
}

#[test]
fn copilot_cli_lists_the_users_skills_after_the_projects() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    let home = t.path().join("home");
    write(
        &home,
        ".copilot/skills/standup/SKILL.md",
        "---\nname: standup\ndescription: Mine.\n---\nx\n",
    );
    write(
        &home,
        ".copilot/skills/bad/SKILL.md",
        "---\nname: -bad\ndescription: Refused.\n---\nx\n",
    );
    // 1.0.102: `~/.copilot/skills` before `~/.agents/skills`; the
    // project's `build` wins over the user's; `~/.claude/skills` unread.
    assert_eq!(
        copilot_skills(t.path(), "1.0.102"),
        [
            row(".claude/skills/build/SKILL.md", "project", "effective"),
            row("~/.copilot/skills/bad/SKILL.md", "user", "excluded"),
            row("~/.copilot/skills/standup/SKILL.md", "user", "effective"),
            row("~/.agents/skills/standup/SKILL.md", "user", "shadowed"),
            row("builtin:customize-cloud-agent", "builtin", "effective"),
            row("builtin:github-pr-media", "builtin", "effective"),
        ]
    );
    // 1.0.24 reads `~/.claude/skills` too, after the others, and ships
    // one built-in skill, listed last.
    let old = copilot_skills(t.path(), "1.0.24");
    assert_eq!(
        old[old.len() - 3..],
        [
            row("~/.claude/skills/build/SKILL.md", "user", "shadowed"),
            row("~/.claude/skills/deploy/SKILL.md", "user", "effective"),
            row("builtin:customize-cloud-agent", "builtin", "effective"),
        ]
    );
}

/// A user skill named as a built-in one replaces it: the built-in is
/// listed `shadowed`, hidden from the model (case
/// `oracle.local_user_layers.home-copilot-builtin-skill`).
#[test]
fn copilot_cli_lets_a_user_skill_replace_a_built_in_one() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let home = t.path().join("home");
    write(
        &home,
        ".copilot/skills/github-pr-media/SKILL.md",
        "---\nname: github-pr-media\ndescription: Mine.\n---\nx\n",
    );
    let skills = copilot_skills(t.path(), "1.0.102");
    assert!(skills.contains(&row(
        "~/.copilot/skills/github-pr-media/SKILL.md",
        "user",
        "effective"
    )));
    assert!(skills.contains(&row("builtin:github-pr-media", "builtin", "shadowed")));
    assert!(skills.contains(&row(
        "builtin:customize-cloud-agent",
        "builtin",
        "effective"
    )));
    // 1.0.24 ships no `github-pr-media`.
    let old = copilot_skills(t.path(), "1.0.24");
    assert!(!old.iter().any(|r| r.0 == "builtin:github-pr-media"));
}

/// A home with three installed plugins of the marketplace `acme`: `kit`
/// (enabled, its folder named by `cache_path`), `off` (disabled) and
/// `gone` (enabled, no `cache_path`, so in
/// `installed-plugins/acme/gone`, where its skills are not looked for),
/// each with a skill, a command, an agent and an MCP server; `legacy` is named only under
/// `installed_plugins`, which `installedPlugins` hides.
fn copilot_plugins(home: &Path) {
    for p in ["kit", "off", "gone", "legacy"] {
        let dir = format!(".copilot/installed-plugins/acme/{p}");
        write(
            home,
            &format!("{dir}/skills/{p}-review/SKILL.md"),
            &format!("---\nname: {p}-review\ndescription: Review.\n---\nx\n"),
        );
        write(home, &format!("{dir}/commands/{p}-cmd.md"), "Run it.\n");
        write(
            home,
            &format!("{dir}/agents/{p}-helper.agent.md"),
            "---\nname: helper\ndescription: Helps.\n---\nx\n",
        );
        write(
            home,
            &format!("{dir}/.mcp.json"),
            &format!(r#"{{"mcpServers": {{"{p}-docs": {{"command": "d", "args": []}}}}}}"#),
        );
    }
    let kit = home.join(".copilot/installed-plugins/acme/kit");
    let entry = |name: &str, enabled: bool, cache: Option<&Path>| {
        let mut e = serde_json::json!({"name": name, "marketplace": "acme", "enabled": enabled});
        if let Some(c) = cache {
            e["cache_path"] = c.to_str().unwrap().into();
        }
        e
    };
    let config = serde_json::json!({
        "installedPlugins": [entry("kit", true, Some(&kit)), entry("off", false, None), entry("gone", true, None)],
        "installed_plugins": [entry("legacy", true, None)],
    });
    write(home, ".copilot/config.json", &config.to_string());
}

/// The enabled plugins' skills, commands, agents and MCP servers, scope
/// `plugin`, naming their plugin (cases
/// `oracle.local_user_layers.home-copilot-plugins` and `-snake`).
#[test]
fn copilot_cli_reads_the_enabled_installed_plugins() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    copilot_plugins(&t.path().join("home"));
    let doc = compiled_for(t.path(), "copilot");
    let of_plugins = |kind: &str| -> Vec<(String, String, String)> {
        items(&doc, kind)
            .into_iter()
            .filter(|r| r.1 == "plugin")
            .collect()
    };
    let dir = "~/.copilot/installed-plugins/acme";
    assert_eq!(
        of_plugins("skills"),
        [
            row(
                &format!("{dir}/kit/skills/kit-review/SKILL.md"),
                "plugin",
                "effective"
            ),
            row(
                &format!("{dir}/kit/commands/kit-cmd.md"),
                "plugin",
                "effective"
            ),
        ]
    );
    let plugin_of = |kind: &str, name: &str| {
        doc[kind]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .map(|i| i["source"]["plugin"].clone())
    };
    assert_eq!(plugin_of("skills", "kit-cmd"), Some("kit@acme".into()));
    // An agent is listed by `PLUGIN:ID`, not by its `name`.
    assert_eq!(
        plugin_of("subagents", "kit:kit-helper"),
        Some("kit@acme".into())
    );
    assert_eq!(
        plugin_of("subagents", "gone:gone-helper"),
        Some("gone@acme".into())
    );
    assert_eq!(plugin_of("mcpServers", "kit-docs"), Some("kit@acme".into()));
    // Without `cache_path`, the skills are looked for in
    // `installed-plugins/gone@acme` (case `home-copilot-plugins-no-cache`).
    assert_eq!(plugin_of("skills", "gone-review"), None);
    assert_eq!(
        plugin_of("mcpServers", "gone-docs"),
        Some("gone@acme".into())
    );
    for absent in [
        "off-review",
        "legacy-review",
        "off:off-helper",
        "off-docs",
        "legacy-docs",
    ] {
        let kinds = ["skills", "subagents", "mcpServers"];
        assert!(
            kinds.iter().all(|k| plugin_of(k, absent).is_none()),
            "{absent}"
        );
    }
}

/// A plugin's hooks: the manifest's `hooks` path over `hooks.json` over
/// `hooks/hooks.json`, scope `plugin` naming the plugin, and their
/// scripts looked up in the plugin's folder on the machine (case
/// `oracle.hooks_copilot_gemini.home-copilot-plugin-hooks`).
#[test]
fn copilot_cli_runs_the_hooks_of_one_file_per_plugin() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let home = t.path().join("home");
    let dir = home.join(".copilot/installed-plugins/acme/kit");
    let hooks = |script: &str| {
        format!(
            r#"{{"hooks": {{"sessionStart": [{{"type": "command", "bash": "${{CLAUDE_PLUGIN_ROOT}}/{script}"}}]}}}}"#
        )
    };
    write(
        &dir,
        "plugin.json",
        r#"{"name": "kit", "hooks": "./custom/h.json"}"#,
    );
    write(&dir, "custom/h.json", &hooks("run.sh"));
    write(&dir, "run.sh", "true\n");
    write(&dir, "hooks.json", &hooks("root.sh"));
    write(&dir, "hooks/hooks.json", &hooks("nested.sh"));
    let entry = serde_json::json!({"name": "kit", "marketplace": "acme", "enabled": true,
        "cache_path": dir.to_str().unwrap()});
    write(
        &home,
        ".copilot/config.json",
        &serde_json::json!({"installedPlugins": [entry]}).to_string(),
    );
    let doc = compiled_for(t.path(), "copilot");
    let plugin: Vec<&Value> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["source"]["scope"] == "plugin")
        .collect();
    assert_eq!(plugin.len(), 1, "{plugin:?}");
    let h = plugin[0];
    assert_eq!(
        h["source"]["path"],
        "~/.copilot/installed-plugins/acme/kit/custom/h.json"
    );
    assert_eq!(h["source"]["plugin"], "kit@acme");
    assert_eq!(h["runs"]["state"], "yes");
    assert_eq!(h["script"]["present"], true, "{h}");
    // Without the manifest's path, `hooks.json`, whose script is missing.
    write(&dir, "plugin.json", r#"{"name": "kit"}"#);
    let doc = compiled_for(t.path(), "copilot");
    let h = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["source"]["scope"] == "plugin")
        .unwrap();
    assert_eq!(
        h["source"]["path"],
        "~/.copilot/installed-plugins/acme/kit/hooks.json"
    );
    assert_eq!(h["script"]["present"], false);
    let missing = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "hook-script-missing")
        .count();
    assert_eq!(missing, 1);
}

/// OpenCode's global `opencode.json` naming a skill root in the home,
/// which holds a skill and one in a dot folder, and one naming nothing.
fn opencode_skills_paths(home: &Path) {
    write(
        home,
        ".config/opencode/opencode.json",
        r#"{"skills": {"paths": ["~/my-skills", "~/missing-skills", "/srv/team-skills", "/srv/none"]}}"#,
    );
    // An absolute entry names a directory of the machine: the managed
    // root (`root`, beside the home) stands for `/`.
    write(
        &home.with_file_name("root"),
        "srv/team-skills/review/SKILL.md",
        "---\nname: team-review\ndescription: The team's.\n---\nRead.\n",
    );
    write(
        home,
        "my-skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Mine.\n---\nShip.\n",
    );
    write(
        home,
        "my-skills/.hidden/x/SKILL.md",
        "---\nname: hidden\ndescription: Skipped.\n---\nx\n",
    );
}

#[test]
fn opencode_scans_a_skills_path_in_the_home() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    opencode_skills_paths(&t.path().join("home"));
    let doc = compiled_for(t.path(), "opencode");
    let mine: Vec<(String, String, String)> = items(&doc, "skills")
        .into_iter()
        .filter(|r| r.0.starts_with("~/my-skills") || r.0.starts_with("/srv/"))
        .collect();
    assert_eq!(
        mine,
        [
            row("~/my-skills/deploy/SKILL.md", "user", "effective"),
            row("/srv/team-skills/review/SKILL.md", "user", "effective"),
        ]
    );
    let none = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("\"/srv/none\""))
        .expect("the missing absolute skills path is reported");
    assert_eq!(none["code"], "invalid-value");
    let missing = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("~/missing-skills"))
        .expect("the missing skills path is reported");
    assert_eq!(missing["code"], "invalid-value");
    assert_eq!(
        missing["source"]["path"],
        "~/.config/opencode/opencode.json"
    );
    assert!(missing["source"]["lines"]["start"].as_u64().is_some());
}

#[test]
fn copilot_cli_reads_the_users_mcp_servers_and_agents() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    more_layers(t.path());
    let repo = t.path().join("repo");
    write(
        &repo,
        ".mcp.json",
        r#"{"mcpServers": {"docs": {"command": "project-docs", "args": []}}}"#,
    );
    write(
        &repo,
        ".github/agents/helper.md",
        "---\nname: helper\ndescription: The project's helper.\n---\nHelp.\n",
    );
    let (doc, text) = compiled_with_text(t.path(), "copilot");
    assert!(!text.contains("sk-live-0123"), "a user secret was printed");
    // The workspace's `docs` is taken; the user's is kept, shadowed.
    assert_eq!(
        items(&doc, "mcpServers"),
        [
            row(".mcp.json", "project", "effective"),
            row("~/.copilot/mcp-config.json", "user", "shadowed"),
            row("~/.copilot/mcp-config.json", "user", "effective"),
        ]
    );
    assert!(doc["mcpServers"][2].to_string().contains("NOTES_TOKEN"));
    // The user's agents are found first and keep their ids: `helper`
    // against `.github/agents`, `reviewer` (Claude Code's folders) against
    // `.claude/agents`.
    assert_eq!(
        items(&doc, "subagents"),
        [
            row("~/.copilot/agents/helper.md", "user", "effective"),
            row(".github/agents/helper.md", "project", "shadowed"),
            row("~/.claude/agents/reviewer.md", "user", "effective"),
            row(".claude/agents/reviewer.md", "project", "shadowed"),
        ]
    );
}

/// Claude Code plugins the user installed in the home of `t`: `tools@team`
/// enabled (a skill, a command, a subagent, hooks and an MCP server with a
/// secret), `off@team` installed and set `false`, `gone@team` enabled and
/// not installed; as `claude plugin install` writes them.
fn claude_plugins(t: &Path) {
    let home = t.join("home");
    let cache = home.join(".claude/plugins/cache/team");
    let tools = cache.join("tools/1.0.0");
    write(&tools, ".claude-plugin/plugin.json", r#"{"name": "tools"}"#);
    write(
        &tools,
        "skills/lint/SKILL.md",
        "---\nname: lint\ndescription: Lint.\n---\nlint\n",
    );
    write(
        &tools,
        "commands/ship.md",
        "---\ndescription: Ship.\n---\nShip.\n",
    );
    write(
        &tools,
        "agents/checker.md",
        "---\nname: checker\ndescription: Checks.\n---\nCheck.\n",
    );
    write(
        &tools,
        "hooks/hooks.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}"#,
    );
    write(
        &tools,
        ".mcp.json",
        r#"{"mcpServers": {"teamdocs": {"command": "teamdocs", "env": {"API_KEY": "sk-live-plugin0123456789abcdef"}}}}"#,
    );
    write(
        &cache,
        "off/0.1.0/skills/off/SKILL.md",
        "---\nname: off\ndescription: Off.\n---\nx\n",
    );
    let record =
        |dir: &Path| serde_json::json!([{"scope": "user", "installPath": dir, "version": "1"}]);
    let installed = serde_json::json!({"version": 2, "plugins": {
        "tools@team": record(&tools),
        "off@team": record(&cache.join("off/0.1.0")),
    }});
    write(
        &home,
        ".claude/plugins/installed_plugins.json",
        &serde_json::to_string_pretty(&installed).unwrap(),
    );
    write(
        &home,
        ".claude/settings.json",
        r#"{"outputStyle": "Learning", "enabledPlugins": {"tools@team": true, "off@team": false, "gone@team": true}}"#,
    );
}

#[test]
fn an_installed_and_enabled_plugin_gives_its_items_in_the_plugin_layer() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    claude_plugins(t.path());
    let (doc, text) = compiled_with_text(t.path(), "claude-code");
    assert!(
        !text.contains("sk-live-plugin"),
        "a plugin's secret was printed"
    );
    let named = |kind: &str, name: &str| -> Value {
        doc[kind]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .unwrap_or_else(|| panic!("no {kind} {name}"))
            .clone()
    };
    let cache = "~/.claude/plugins/cache/team/tools/1.0.0";
    for (kind, name, file) in [
        ("skills", "tools:lint", "skills/lint/SKILL.md"),
        ("skills", "tools:ship", "commands/ship.md"),
        ("subagents", "tools:checker", "agents/checker.md"),
        ("mcpServers", "plugin:tools:teamdocs", ".mcp.json"),
    ] {
        let item = named(kind, name);
        assert_eq!(item["source"]["path"], format!("{cache}/{file}"), "{name}");
        assert_eq!(item["source"]["scope"], "plugin", "{name}");
        assert_eq!(item["source"]["plugin"], "tools@team", "{name}");
        assert_eq!(item["applicability"], "effective", "{name}");
    }
    let hook = &doc["hooks"].as_array().unwrap()[0];
    assert_eq!(hook["source"]["scope"], "plugin");
    assert_eq!(hook["runs"]["state"], "yes");
    let plugin = named("plugins", "tools");
    assert_eq!(plugin["load"]["state"], "loaded");
    assert_eq!(plugin["enabledBy"]["path"], "~/.claude/settings.json");
    // Neither the disabled plugin's skill nor anything of the missing one.
    assert!(
        !text.contains("\"off\""),
        "the disabled plugin's skill is listed"
    );
    let diags: Vec<(String, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let at = d["source"]["path"].as_str().unwrap_or("").to_string();
            (d["code"].as_str().unwrap().to_string(), at)
        })
        .collect();
    assert!(
        diags.contains(&(
            "plugin-not-enabled".into(),
            "~/.claude/settings.json".into()
        )),
        "{diags:?}"
    );
    assert!(
        diags.contains(&(
            "plugin-needs-user-step".into(),
            "~/.claude/settings.json".into()
        )),
        "{diags:?}"
    );
}

/// A plugin the user enabled whose files the analysis does not read gets
/// one statement of what was not read and why, and no claim of what
/// Claude Code does (fault 12): `out@m`, installed outside the user's
/// Claude Code directory, only `plugin-not-loaded`; `gone@team`, enabled
/// and not installed, only `plugin-needs-user-step`, its row "not read".
/// Before, `out@m` also got `plugin-needs-user-step` and a row "outside the
/// repository", and `plugin-not-loaded` said Claude Code loads none of it.
#[test]
fn an_enabled_plugin_the_analysis_does_not_read_is_one_statement() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    claude_plugins(t.path());
    let elsewhere = t.path().join("elsewhere/out");
    write(
        &elsewhere,
        ".claude-plugin/plugin.json",
        r#"{"name": "out"}"#,
    );
    let record = serde_json::json!([{"scope": "user", "installPath": elsewhere, "version": "1"}]);
    let installed = serde_json::json!({"version": 2, "plugins": {"out@m": record}});
    let home = t.path().join("home");
    write(
        &home,
        ".claude/plugins/installed_plugins.json",
        &serde_json::to_string_pretty(&installed).unwrap(),
    );
    write(
        &home,
        ".claude/settings.json",
        r#"{"enabledPlugins": {"out@m": true, "gone@team": true}}"#,
    );
    let doc = compiled(t.path());
    let out = local(t.path(), &["compile", "--harness", "claude-code"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let about = |key: &str| -> Vec<(String, String)> {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["message"].as_str().unwrap().contains(&format!("`{key}`")))
            .map(|d| {
                let m = d["message"].as_str().unwrap().to_string();
                (d["code"].as_str().unwrap().to_string(), m)
            })
            .collect()
    };
    let out = about("out@m");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].0, "plugin-not-loaded");
    assert!(out[0].1.contains("the analysis did not read it"), "{out:?}");
    let gone = about("gone@team");
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert_eq!(gone[0].0, "plugin-needs-user-step");
    for (_, m) in out.iter().chain(&gone) {
        assert!(!m.contains("Claude Code loads"), "{m}");
    }
    assert!(!text.contains("outside the repository"), "{text}");
    let names: Vec<&str> = doc["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["gone"]);
    assert!(text.contains("enabled; not read"), "{text}");
}

/// `(name, applicability, active)` of each output style of `doc`.
fn styles(doc: &Value) -> Vec<(String, String, bool)> {
    doc["outputStyles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().to_string(),
                o["applicability"].as_str().unwrap().to_string(),
                o["active"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// An enabled plugin's output style is named `plugin:NAME` (its front
/// matter `name`, else the file name) and is active when `outputStyle`
/// names it; a style of the plugin with `force-for-plugin: true` is
/// active whatever `outputStyle` selects (seen with 2.1.197 and 2.1.332,
/// cases `oracle.local_user_layers.home-claude-plugin-style` and
/// `...-forced`).
#[test]
fn an_installed_plugins_output_style_is_selected_or_forced() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    claude_plugins(t.path());
    let (home, tools) = (
        t.path().join("home"),
        t.path().join("home/.claude/plugins/cache/team/tools/1.0.0"),
    );
    write(
        &tools,
        "output-styles/terse.md",
        "---\nname: Terse\n---\nBe terse.\n",
    );
    write(&tools, "output-styles/plain.md", "Plain.\n");
    write(
        &home,
        ".claude/settings.json",
        r#"{"outputStyle": "tools:Terse", "enabledPlugins": {"tools@team": true}}"#,
    );
    // The project's `outputStyle` (Explanatory, a built-in) wins over the
    // user's, so the local settings select the plugin's style.
    write(
        &t.path().join("repo"),
        ".claude/settings.local.json",
        r#"{"outputStyle": "tools:Terse"}"#,
    );
    let row = |n: &str, a: &str, on: bool| (n.to_string(), a.to_string(), on);
    let plugin_styles = |doc: &Value| -> Vec<(String, String, bool)> {
        styles(doc)
            .into_iter()
            .filter(|s| s.0.starts_with("tools:"))
            .collect()
    };
    let doc = compiled(t.path());
    assert_eq!(
        plugin_styles(&doc),
        vec![
            row("tools:plain", "conditional", false),
            row("tools:Terse", "effective", true)
        ]
    );
    assert!(!doc["diagnostics"]
        .to_string()
        .contains("output-style-unknown"));
    write(
        &tools,
        "output-styles/loud.md",
        "---\nname: Loud\nforce-for-plugin: true\n---\nBe loud.\n",
    );
    let doc = compiled(t.path());
    assert_eq!(
        plugin_styles(&doc),
        vec![
            row("tools:Loud", "effective", true),
            row("tools:plain", "conditional", false),
            row("tools:Terse", "shadowed", false),
        ]
    );
}

#[test]
fn the_users_codex_settings_apply_below_the_projects() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    let config = t.path().join("home/.codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    // The project trusted, so that its own layer loads.
    let text = text.replace("\"untrusted\"", "\"trusted\"");
    std::fs::write(&config, format!("project_doc_max_bytes = 9\n{text}")).unwrap();
    let first = |t: &Path| {
        let doc = compiled_for(t, "codex");
        let i = doc["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["source"]["path"] == "AGENTS.md")
            .unwrap()
            .clone();
        (
            i["truncatedAtByte"].clone(),
            i["reason"].as_str().unwrap().to_string(),
        )
    };
    let (cut, reason) = first(t.path());
    assert_eq!(cut, Value::from(9));
    assert!(reason.contains("`~/.codex/config.toml`"), "{reason}");
    // The project's own value wins over the user's.
    let repo = t.path().join("repo");
    write(&repo, ".codex/config.toml", "project_doc_max_bytes = 12\n");
    assert_eq!(first(t.path()).0, Value::from(12));
}

/// `compile --harness codex --format json --profile NAME` in local mode on
/// the machine of `t`.
fn codex_with_profile(t: &Path, name: &str) -> Value {
    let out = local(t, &["compile", "--harness", "codex", "--format", "json"])
        .args(["--profile", name])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_codex_profile_is_a_layer_between_the_user_and_the_project() {
    let t = tempfile::tempdir().unwrap();
    codex_machine(t.path());
    let codex = t.path().join("home/.codex");
    let text = std::fs::read_to_string(codex.join("config.toml")).unwrap();
    let text = text.replace("\"untrusted\"", "\"trusted\"");
    std::fs::write(
        codex.join("config.toml"),
        format!("project_doc_max_bytes = 9\n{text}"),
    )
    .unwrap();
    write(&codex, "wide.config.toml", "project_doc_max_bytes = 11\n");
    let cut = |doc: &Value| {
        let i = doc["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["source"]["path"] == "AGENTS.md")
            .unwrap()
            .clone();
        (
            i["truncatedAtByte"].clone(),
            i["reason"].as_str().unwrap().to_string(),
        )
    };
    let (bytes, reason) = cut(&codex_with_profile(t.path(), "wide"));
    assert_eq!(bytes, Value::from(11));
    assert!(reason.contains("`~/.codex/wide.config.toml`"), "{reason}");
    // A profile without its file adds nothing: the user's value holds,
    // and the missing profile is said (Codex 0.142.3 and 0.171.0 start
    // without a word, case `home-codex-profile-missing`).
    let none = codex_with_profile(t.path(), "none");
    assert_eq!(cut(&none).0, Value::from(9));
    let codes = |doc: &Value| -> Vec<String> {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "codex-profile-not-found")
            .map(|d| d["source"]["path"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(codes(&none), ["~/.codex/none.config.toml"]);
    assert!(codes(&codex_with_profile(t.path(), "wide")).is_empty());
    // The project's own value wins over the profile's.
    write(
        &t.path().join("repo"),
        ".codex/config.toml",
        "project_doc_max_bytes = 12\n",
    );
    assert_eq!(
        cut(&codex_with_profile(t.path(), "wide")).0,
        Value::from(12)
    );
    // A legacy `[profiles.wide]` table beside `--profile wide`: Codex
    // refuses to start.
    let text = std::fs::read_to_string(codex.join("config.toml")).unwrap();
    std::fs::write(
        codex.join("config.toml"),
        format!("{text}\n[profiles.wide]\nmodel = \"o3\"\n"),
    )
    .unwrap();
    let doc = codex_with_profile(t.path(), "wide");
    let refused = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "config-refused")
        .expect("config-refused");
    assert_eq!(refused["source"]["path"], "~/.codex/config.toml");
    std::fs::remove_file(codex.join("wide.config.toml")).unwrap();
    let legacy_only = codex_with_profile(t.path(), "wide");
    assert!(codes(&legacy_only).is_empty(), "the table defines it");
    assert!(refused["message"]
        .as_str()
        .unwrap()
        .contains("[profiles.wide]"));
    assert_eq!(
        codex_with_profile(t.path(), "other")["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "config-refused")
            .count(),
        0,
        "the table of a profile not selected is left alone"
    );
}

#[test]
fn a_cache_of_server_managed_settings_is_named_never_read() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let home = t.path().join("home");
    write(
        &home,
        ".claude/remote-settings.json",
        r#"{"outputStyle": "Explanatory"}"#,
    );
    let doc = compiled(t.path());
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["source"]["path"] == "~/.claude/remote-settings.json")
        .expect("the cache is named");
    assert_eq!(d["code"], "managed-config-unavailable");
    assert_eq!(d["source"]["scope"], "managed");
}

/// The hooks of `compile --harness HARNESS` in local mode for `version`:
/// (path, scope, command, runs) each.
fn hooks_of(t: &Path, harness: &str, version: &str) -> Vec<(String, String, String, String)> {
    let release = format!("--agent-version={harness}={version}");
    let out = local(
        t,
        &[
            "compile",
            "--harness",
            harness,
            &release,
            "--format",
            "json",
        ],
    )
    .output()
    .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            (
                s(&h["source"]["path"]),
                s(&h["source"]["scope"]),
                s(&h["handler"]["command"]),
                s(&h["runs"]["state"]),
            )
        })
        .collect()
}

#[test]
fn copilot_cli_runs_the_users_hooks_before_the_repositorys_without_trust() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let home = t.path().join("home");
    let hook = |tag: &str| {
        format!(
            r#"{{"version": 1, "hooks": {{"sessionStart": [{{"type": "command", "bash": "echo {tag}"}}]}}}}"#
        )
    };
    write(&home, ".copilot/hooks/marks.json", &hook("user"));
    write(
        &home,
        ".copilot/hooks/off.json",
        r#"{"version": 1, "disableAllHooks": true, "hooks": {"sessionStart": [{"type": "command", "bash": "echo off"}]}}"#,
    );
    write(&home, ".copilot/config.json", &hook("config"));
    write(&home, ".copilot/settings.json", &hook("settings"));
    write(
        &t.path().join("repo"),
        ".github/hooks/repo.json",
        &hook("repo"),
    );
    let row = |p: &str, scope: &str, c: &str, runs: &str| {
        (
            p.to_string(),
            scope.to_string(),
            c.to_string(),
            runs.to_string(),
        )
    };
    // 1.0.102: `settings.json`, not `config.json`; the repository's
    // hooks wait for the folder's trust (`config.json` lists no trusted
    // folder), the user's do not.
    assert_eq!(
        hooks_of(t.path(), "copilot", "1.0.102"),
        [
            row("~/.copilot/hooks/marks.json", "user", "echo user", "yes"),
            row("~/.copilot/hooks/off.json", "user", "echo off", "no"),
            row("~/.copilot/settings.json", "user", "echo settings", "yes"),
            row(".github/hooks/repo.json", "project", "echo repo", "no"),
        ]
    );
    // 1.0.24: `config.json`, and no trust asked.
    assert_eq!(
        hooks_of(t.path(), "copilot", "1.0.24")[2],
        row("~/.copilot/config.json", "user", "echo config", "yes"),
    );
    // Before 1.0.10 the settings file's hooks do not run, before 1.0.6
    // `disableAllHooks` turns nothing off, before 0.0.423 the user's
    // folder is not read (bisected on case
    // `oracle.hooks_copilot_gemini.home-copilot-hooks`).
    let repo = row(".github/hooks/repo.json", "project", "echo repo", "yes");
    assert_eq!(
        hooks_of(t.path(), "copilot", "1.0.7"),
        [
            row("~/.copilot/hooks/marks.json", "user", "echo user", "yes"),
            row("~/.copilot/hooks/off.json", "user", "echo off", "no"),
            repo.clone(),
        ]
    );
    assert_eq!(
        hooks_of(t.path(), "copilot", "1.0.3")[1],
        row("~/.copilot/hooks/off.json", "user", "echo off", "yes"),
    );
    assert_eq!(hooks_of(t.path(), "copilot", "0.0.420"), [repo]);
}

#[test]
fn gemini_cli_concatenates_every_settings_layers_hooks() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let hook = |tag: &str| {
        format!(
            r#"{{"hooks": {{"SessionStart": [{{"hooks": [{{"type": "command", "command": "echo {tag}"}}]}}]}}}}"#
        )
    };
    write(
        &t.path().join("repo"),
        ".gemini/settings.json",
        &hook("workspace"),
    );
    write(
        &t.path().join("home"),
        ".gemini/settings.json",
        r#"{"hooksConfig": {"disabled": ["echo workspace"]}, "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}"#,
    );
    let root = t.path().join("root");
    write(&root, "etc/gemini-cli/settings.json", &hook("system"));
    write(
        &root,
        "etc/gemini-cli/system-defaults.json",
        &hook("defaults"),
    );
    let row = |p: &str, scope: &str, c: &str, runs: &str| {
        (
            p.to_string(),
            scope.to_string(),
            c.to_string(),
            runs.to_string(),
        )
    };
    assert_eq!(
        hooks_of(t.path(), "gemini", "0.61.0"),
        [
            row(
                "/etc/gemini-cli/system-defaults.json",
                "managed",
                "echo defaults",
                "yes"
            ),
            row("~/.gemini/settings.json", "user", "echo user", "yes"),
            row(".gemini/settings.json", "project", "echo workspace", "no"),
            row(
                "/etc/gemini-cli/settings.json",
                "managed",
                "echo system",
                "yes"
            ),
        ]
    );
}

#[test]
fn copilot_cli_runs_the_repositorys_hooks_and_servers_only_in_a_trusted_folder() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let repo = t.path().join("repo");
    write(
        &repo,
        ".github/hooks/repo.json",
        r#"{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo repo"}]}}"#,
    );
    write(
        &repo,
        ".mcp.json",
        r#"{"mcpServers": {"docs": {"command": "project-docs", "args": []}}}"#,
    );
    let trusting = |folder: &str| {
        let config = serde_json::json!({ "trusted_folders": [folder] }).to_string();
        write(&t.path().join("home"), ".copilot/config.json", &config);
        let doc = compiled_for(t.path(), "copilot");
        let runs = doc["hooks"][0]["runs"]["state"]
            .as_str()
            .unwrap()
            .to_string();
        let server = doc["mcpServers"][0]["applicability"]
            .as_str()
            .unwrap()
            .to_string();
        (runs, server)
    };
    let real = std::fs::canonicalize(&repo).unwrap();
    // The repository, or a folder above it, is trusted.
    let parent = real.parent().unwrap().to_str().unwrap();
    assert_eq!(trusting(parent), ("yes".into(), "effective".into()));
    // Only another folder: 1.0.102 waits for the user's trust.
    let other = real.with_file_name("another").to_str().unwrap().to_string();
    assert_eq!(trusting(&other), ("no".into(), "conditional".into()));
}

/// `(path, key, value, honoured)` of each Codex permission mode of `doc`.
fn codex_modes(doc: &Value) -> Vec<(String, String, String, String)> {
    doc["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                s(&p["source"]["path"]),
                s(&p["key"]),
                s(&p["value"]),
                s(&p["honoured"]["state"]),
            )
        })
        .collect()
}

/// A trusted project whose `.codex/config.toml` asks for
/// `danger-full-access`, a user who asks for `workspace-write` and
/// `never`, and managed requirements `mode_requirements`.
fn codex_modes_machine(t: &Path, mode_requirements: &str) {
    let (repo, home, root) = (t.join("repo"), t.join("home"), t.join("root"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(
        &repo,
        ".codex/config.toml",
        "sandbox_mode = \"danger-full-access\"\n",
    );
    let project = std::fs::canonicalize(&repo).unwrap();
    write(
        &home,
        ".codex/config.toml",
        &format!(
            "sandbox_mode = \"workspace-write\"\napproval_policy = \"never\"\n\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            project.display()
        ),
    );
    write(&root, "etc/codex/requirements.toml", mode_requirements);
}

/// Codex reads the layer closest to cwd for each mode, and starts with
/// the value the managed requirements fall back to when they do not
/// allow it: `read-only` for the sandbox, the first allowed approval
/// policy. The overridden values stay listed, `honoured: no`, each with
/// a `setting-overridden` diagnostic at its line naming the managed file.
#[test]
fn codex_falls_back_to_the_mode_the_managed_requirements_allow() {
    let t = tempfile::tempdir().unwrap();
    codex_modes_machine(
        t.path(),
        "allowed_sandbox_modes = [\"workspace-write\", \"read-only\"]\nallowed_approval_policies = [\"on-request\", \"untrusted\"]\n",
    );
    let doc = compiled_for(t.path(), "codex");
    let row = |p: &str, k: &str, v: &str, h: &str| {
        (p.to_string(), k.to_string(), v.to_string(), h.to_string())
    };
    assert_eq!(
        codex_modes(&doc),
        vec![
            row(
                "~/.codex/config.toml",
                "sandbox_mode",
                "workspace-write",
                "no"
            ),
            row(
                ".codex/config.toml",
                "sandbox_mode",
                "danger-full-access",
                "no"
            ),
            row(
                "/etc/codex/requirements.toml",
                "sandbox_mode",
                "read-only",
                "unknown"
            ),
            row("~/.codex/config.toml", "approval_policy", "never", "no"),
            row(
                "/etc/codex/requirements.toml",
                "approval_policy",
                "on-request",
                "unknown"
            ),
        ]
    );
    let overridden: Vec<(String, u64)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "setting-overridden")
        .map(|d| {
            assert!(d["message"]
                .as_str()
                .unwrap()
                .contains("/etc/codex/requirements.toml"));
            (
                d["source"]["path"].as_str().unwrap().to_string(),
                d["source"]["lines"]["start"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        overridden,
        vec![
            (".codex/config.toml".to_string(), 1),
            ("~/.codex/config.toml".to_string(), 2)
        ]
    );
}

/// A sandbox list without `read-only`, or an empty approval list, stops
/// Codex before it loads anything: a `config-refused` error at the
/// requirement's line.
#[test]
fn codex_refuses_mode_requirements_it_cannot_use() {
    for (requirements, line) in [
        (
            "# policy\nallowed_sandbox_modes = [\"workspace-write\"]\n",
            2,
        ),
        ("allowed_approval_policies = []\n", 1),
        ("allowed_sandbox_modes = [\"read-only\", \"bogus\"]\n", 1),
    ] {
        let t = tempfile::tempdir().unwrap();
        codex_modes_machine(t.path(), requirements);
        let doc = compiled_for(t.path(), "codex");
        let refused: Vec<&Value> = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "config-refused")
            .collect();
        assert_eq!(refused.len(), 1, "{requirements}");
        assert_eq!(refused[0]["source"]["path"], "/etc/codex/requirements.toml");
        assert_eq!(
            refused[0]["source"]["lines"]["start"], line,
            "{requirements}"
        );
    }
}

/// `compile --harness HARNESS --format json` in local mode with the
/// machine of `t` and the environment `env` (no `--home`: the home is
/// `HOME`), run from `t`.
fn compiled_with_env(t: &Path, harness: &str, env: &[(&str, &str)]) -> Value {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.args(["compile", "--harness", harness, "--format", "json"])
        .arg(t.join("repo"))
        .args(["--mode", "local", "--managed-root"])
        .arg(t.join("root"))
        .current_dir(t)
        .env("HOME", t.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn opencode_reads_the_configuration_its_environment_names_by_the_variable() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    write(
        t.path(),
        "repo/opencode.json",
        r#"{"mcp": {"docs": {"type": "local", "command": ["repo-docs"]}}}"#,
    );
    write(
        t.path(),
        "extra/oc.json",
        r#"{"mcp": {"docs": {"type": "local", "command": ["file-docs"]}, "file": {"type": "local", "command": ["f"]}}}"#,
    );
    write(
        t.path(),
        "ocdir/opencode.json",
        r#"{"mcp": {"layered": {"type": "local", "command": ["dir"]}}}"#,
    );
    write(
        t.path(),
        "ocdir/AGENTS.md",
        "From the variable's directory.\n",
    );
    let content =
        "{\n  \"mcp\": {\n    \"layered\": {\"type\": \"local\", \"command\": [\"text\"]}\n  }\n}";
    let env = [
        ("OPENCODE_CONFIG", "extra/oc.json"),
        ("OPENCODE_CONFIG_DIR", "ocdir"),
        ("OPENCODE_CONFIG_CONTENT", content),
    ];
    let doc = compiled_with_env(t.path(), "opencode", &env);
    let server = |name: &str| {
        let s = doc["mcpServers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap();
        (
            s["source"]["path"].as_str().unwrap().to_string(),
            s["source"]["lines"]["start"].as_u64(),
        )
    };
    // The project's file comes after OPENCODE_CONFIG, the directory's
    // after the project's, the text after the directory's.
    assert_eq!(server("docs"), ("opencode.json".to_string(), Some(1)));
    assert_eq!(server("file"), ("$OPENCODE_CONFIG".to_string(), Some(1)));
    assert_eq!(
        server("layered"),
        ("$OPENCODE_CONFIG_CONTENT".to_string(), Some(3))
    );
    let first = &doc["instructions"][0]["source"]["path"];
    assert_eq!(first, "$OPENCODE_CONFIG_DIR/AGENTS.md");
    let text = doc.to_string();
    assert!(
        !text.contains(t.path().to_str().unwrap()),
        "no machine path: {text}"
    );

    // With `--home`, the environment is not read.
    let home = compiled_for(t.path(), "opencode");
    assert!(!home.to_string().contains("$OPENCODE_CONFIG"));
}

#[test]
fn copilot_cli_reads_the_directories_its_environment_lists() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    write(
        t.path(),
        "team/.github/instructions/all.instructions.md",
        "---\napplyTo: \"**\"\n---\nTest every change.\n",
    );
    write(t.path(), "team/AGENTS.md", "Team notes.\n");
    write(
        t.path(),
        "more/.github/instructions/ts.instructions.md",
        "---\napplyTo: \"src/**/*.ts\"\n---\nNo any.\n",
    );
    let env = [("COPILOT_CUSTOM_INSTRUCTIONS_DIRS", " team,, more ,team")];
    let doc = compiled_with_env(t.path(), "copilot", &env);
    let found: Vec<(String, String, String)> = items(&doc, "instructions")
        .into_iter()
        .filter(|r| r.0.starts_with("$COPILOT"))
        .collect();
    assert_eq!(
        found,
        [
            row(
                "$COPILOT_CUSTOM_INSTRUCTIONS_DIRS[1]/.github/instructions/all.instructions.md",
                "user",
                "effective"
            ),
            row(
                "$COPILOT_CUSTOM_INSTRUCTIONS_DIRS[2]/.github/instructions/ts.instructions.md",
                "user",
                "conditional"
            ),
            row(
                "$COPILOT_CUSTOM_INSTRUCTIONS_DIRS[1]/AGENTS.md",
                "user",
                "conditional"
            ),
        ],
        "entries trimmed, the empty and the repeated one dropped"
    );
}

/// An empty repository, home and managed root under `t`.
fn bare_machine(t: &Path) {
    for d in ["repo/.git", "home", "root"] {
        std::fs::create_dir_all(t.join(d)).unwrap();
    }
}

/// `compile --harness codex --format json` in local mode at `version`.
fn codex_at(t: &Path, version: &str) -> Value {
    let release = format!("--agent-version=codex={version}");
    let out = local(
        t,
        &[
            "compile",
            "--harness",
            "codex",
            &release,
            "--format",
            "json",
        ],
    )
    .output()
    .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The user's `[[skills.config]]` rules: by the absolute path of a
/// project skill, by `~/`, by a path relative to the file's folder, by
/// name from the profile's file; a later entry enables a skill again; an
/// entry with both selectors is ignored. A disabled skill is excluded,
/// its reason naming the rule's file and lines; the notice that a user
/// could disable skills is gone once the rules are read.
#[test]
fn codex_excludes_the_skills_the_users_rules_disable() {
    let t = tempfile::tempdir().unwrap();
    let (repo, home) = (t.path().join("repo"), t.path().join("home"));
    bare_machine(t.path());
    let skill = |dir: &Path, rel: &str, name: &str| {
        write(
            dir,
            &format!("{rel}/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: The {name} skill.\n---\nSteps.\n"),
        )
    };
    skill(&repo, ".agents/skills", "deploy");
    skill(&repo, ".agents/skills", "review");
    skill(&home, ".agents/skills", "standup");
    skill(&home, ".agents/skills", "build");
    skill(&home, ".codex/skills", "lint");
    let project = std::fs::canonicalize(&repo).unwrap();
    write(
        &home,
        ".codex/config.toml",
        &format!(
            "[[skills.config]]\npath = \"{}/.agents/skills/deploy/SKILL.md\"\nenabled = false\n\n\
             [[skills.config]]\npath = \"~/.agents/skills/standup/SKILL.md\"\nenabled = false\n\n\
             [[skills.config]]\npath = \"skills/../skills/lint/SKILL.md\"\nenabled = false\n\n\
             [[skills.config]]\nname = \"build\"\nenabled = false\n\n\
             [[skills.config]]\npath = \"~/.agents/skills/build/SKILL.md\"\nenabled = true\n\n\
             [[skills.config]]\nname = \"standup\"\npath = \"~/.agents/skills/standup/SKILL.md\"\nenabled = true\n",
            project.display()
        ),
    );
    write(
        &home,
        ".codex/wide.config.toml",
        "[[skills.config]]\nname = \"review\"\nenabled = false\n",
    );
    let out = local(
        t.path(),
        &[
            "compile",
            "--harness",
            "codex",
            "--profile",
            "wide",
            "--format",
            "json",
        ],
    )
    .output()
    .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mine: Vec<(String, String, String)> = items(&doc, "skills")
        .into_iter()
        .filter(|(_, scope, _)| scope != "builtin")
        .collect();
    assert_eq!(
        mine,
        [
            row("~/.agents/skills/build/SKILL.md", "user", "effective"),
            row(".agents/skills/deploy/SKILL.md", "project", "excluded"),
            row("~/.codex/skills/lint/SKILL.md", "user", "excluded"),
            row(".agents/skills/review/SKILL.md", "project", "excluded"),
            row("~/.agents/skills/standup/SKILL.md", "user", "excluded"),
        ]
    );
    let reason = |name: &str| {
        doc["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        reason("deploy").contains("`~/.codex/config.toml` (lines 1-3) disables it by its path"),
        "{}",
        reason("deploy")
    );
    assert!(reason("review")
        .contains("`~/.codex/wide.config.toml` (lines 1-3) disables it by its name"));
    // A disabled skill is not listed to the model.
    for s in doc["skills"].as_array().unwrap() {
        if s["applicability"] == "excluded" {
            assert_eq!(s["advertisement"]["state"], "hidden", "{s}");
        }
    }
    assert!(!doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == "skill-user-state-unknown"));
}

/// The user's legacy approval policies as each release applies them
/// (bisected): `on-failure` stays itself for 0.142.3 and becomes
/// `on-request` for 0.171.0 (the written one `honoured: no`, reported
/// `setting-overridden`); `untrusted` stops 0.171.0 at its line.
#[test]
fn codex_applies_the_legacy_approval_policies_as_each_release_does() {
    let t = tempfile::tempdir().unwrap();
    bare_machine(t.path());
    let home = t.path().join("home");
    write(
        &home,
        ".codex/config.toml",
        "approval_policy = \"on-failure\"\n",
    );
    let approval = |doc: &Value| -> Vec<(String, String)> {
        codex_modes(doc)
            .into_iter()
            .filter(|(_, k, _, _)| k == "approval_policy")
            .map(|(_, _, v, h)| (v, h))
            .collect()
    };
    let pair = |v: &str, h: &str| (v.to_string(), h.to_string());
    assert_eq!(
        approval(&codex_at(t.path(), "0.142.3")),
        [pair("on-failure", "unknown")]
    );
    let doc = codex_at(t.path(), "0.171.0");
    assert_eq!(
        approval(&doc),
        [pair("on-failure", "no"), pair("on-request", "unknown")]
    );
    assert!(doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == "setting-overridden"
            && d["message"].as_str().unwrap().contains("as `on-request`")));

    write(
        &home,
        ".codex/config.toml",
        "# mine\napproval_policy = \"untrusted\"\n",
    );
    let refused = |doc: &Value| -> Vec<u64> {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "config-refused")
            .map(|d| d["source"]["lines"]["start"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(refused(&codex_at(t.path(), "0.142.3")), Vec::<u64>::new());
    assert_eq!(refused(&codex_at(t.path(), "0.148.0")), Vec::<u64>::new());
    assert_eq!(refused(&codex_at(t.path(), "0.149.0")), vec![2]);
}

/// `[features]` keys other than `hooks` in the managed requirements are
/// named at the table (`feature-not-modelled`), with what a key seen to
/// change the model's input does; `hooks` alone names nothing.
#[test]
fn codex_names_the_managed_features_it_does_not_model() {
    let t = tempfile::tempdir().unwrap();
    bare_machine(t.path());
    let root = t.path().join("root");
    let named = |requirements: &str| -> Vec<(String, u64)> {
        write(&root, "etc/codex/requirements.toml", requirements);
        compiled_for(t.path(), "codex")["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "feature-not-modelled")
            .map(|d| {
                (
                    d["message"].as_str().unwrap().to_string(),
                    d["source"]["lines"]["start"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let found = named("# policy\n[features]\nhooks = true\ntoken_budget = true\nplugins = false\n");
    assert_eq!(found.len(), 1);
    let (message, line) = &found[0];
    assert_eq!(*line, 2);
    assert!(
        message.contains("pins the features `plugins`, `token_budget`"),
        "{message}"
    );
    assert!(message.contains("`token_budget` adds context-window messages"));
    assert!(named("[features]\nhooks = false\n").is_empty());
}

/// A sign-in of type `wellknown` in OpenCode's `auth.json` names the
/// remote layer by its host only: neither the token, nor the rest of the
/// address (user, password, path, query), nor the variable is printed,
/// in JSON or in text; `XDG_DATA_HOME` moves the file.
#[test]
fn opencode_names_the_remote_layer_of_a_sign_in_by_its_host_only() {
    let t = tempfile::tempdir().unwrap();
    bare_machine(t.path());
    let auth = serde_json::json!({
        "https://alice:pw-0451-secret@Config.Example.com:8443/org/acme?sig=q-7788-secret": {
            "type": "wellknown", "key": "ACME_TOKEN", "token": "tok-9a8b7c6d5e4f-secret"
        },
        "anthropic": {"type": "api", "key": "sk-ant-3141-secret"}
    })
    .to_string();
    write(
        &t.path().join("home"),
        ".local/share/opencode/auth.json",
        &auth,
    );
    let (doc, json) = compiled_with_text(t.path(), "opencode");
    let text = String::from_utf8(
        local(t.path(), &["compile", "--harness", "opencode"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    for out in [&json, &text] {
        for secret in [
            "tok-9a8b", "pw-0451", "q-7788", "alice", "acme", "sk-ant", "8443",
        ] {
            assert!(!out.contains(secret), "{secret} printed");
        }
    }
    let named: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"]["path"] == "~/.local/share/opencode/auth.json")
        .collect();
    assert_eq!(named.len(), 1);
    assert_eq!(named[0]["code"], "user-config-unavailable");
    assert!(named[0]["message"]
        .as_str()
        .unwrap()
        .contains("to `config.example.com`"));
    // The general note on remote configuration gives way to the named one.
    assert!(!json.contains("Configuration fetched from a remote"));

    let data = t.path().join("data");
    write(&data, "opencode/auth.json", &auth);
    let doc = compiled_with_env(t.path(), "opencode", &[("XDG_DATA_HOME", "data")]);
    assert!(doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["source"]["path"] == "$XDG_DATA_HOME/opencode/auth.json"));
}

/// Gemini CLI's extensions beyond the oracle case
/// (`oracle.local_gemini_extensions.home-gemini-extensions`): the last
/// matching override wins (`!/*` then the repository's own folder turns
/// one back on), a manifest without `version` is skipped, a linked
/// extension is read from its source folder in the home, a string
/// `contextFileName` replaces `GEMINI.md`, and each item names its
/// extension (`extension:NAME`, scope `plugin`) with no absolute path.
#[test]
fn gemini_cli_reads_the_users_extensions() {
    let t = tempfile::tempdir().unwrap();
    let (repo, home) = (t.path().join("repo"), t.path().join("home"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(t.path().join("root")).unwrap();
    write(&repo, "GEMINI.md", "Project.\n");
    let ext = ".gemini/extensions";
    let on_here = format!(
        r#"{{"back": {{"overrides": ["!/*", "{}/"]}}}}"#,
        repo.display()
    );
    write(&home, &format!("{ext}/extension-enablement.json"), &on_here);
    write(
        &home,
        &format!("{ext}/back/gemini-extension.json"),
        r#"{"name": "back", "version": "1.0.0", "contextFileName": "BACK.md"}"#,
    );
    write(&home, &format!("{ext}/back/BACK.md"), "Back on here.\n");
    write(&home, &format!("{ext}/back/GEMINI.md"), "Not named.\n");
    write(
        &home,
        &format!("{ext}/nover/gemini-extension.json"),
        r#"{"name": "nover"}"#,
    );
    write(&home, &format!("{ext}/nover/GEMINI.md"), "Skipped.\n");
    let source = home.join("src/linked");
    write(
        &home,
        &format!("{ext}/linked/.gemini-extension-install.json"),
        &format!(r#"{{"type": "link", "source": "{}"}}"#, source.display()),
    );
    write(
        &home,
        "src/linked/gemini-extension.json",
        r#"{"name": "linked", "version": "0.1.0", "mcpServers": {"lk": {"command": "lk"}}}"#,
    );
    let (doc, text) = compiled_with_text(t.path(), "gemini");
    assert!(
        !text.contains(&*t.path().to_string_lossy()),
        "an absolute path was printed"
    );
    assert_eq!(
        items(&doc, "instructions"),
        [
            row("~/.gemini/extensions/back/BACK.md", "plugin", "effective"),
            row("GEMINI.md", "project", "effective"),
        ]
    );
    assert_eq!(doc["instructions"][0]["source"]["plugin"], "extension:back");
    assert_eq!(
        items(&doc, "mcpServers"),
        [row(
            "~/src/linked/gemini-extension.json",
            "plugin",
            "effective"
        )]
    );
    let plugins: Vec<&str> = doc["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(plugins, ["back", "linked"]);
    let skipped: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "extension-skipped")
        .map(|d| d["source"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        skipped,
        ["~/.gemini/extensions/nover/gemini-extension.json"]
    );
}

/// In local mode the user's and the machine's files are read, so the
/// view's "Not known to this analysis" names only the parts left unread
/// (each diagnostic says which); it no longer claims the whole user-level
/// configuration is outside the analysis, nor names Claude Code, whose
/// user and managed layers are all read here.
#[test]
fn local_mode_names_only_the_unread_parts_of_the_users_layers() {
    let t = tempfile::tempdir().unwrap();
    bare_machine(t.path());
    let out = local(t.path(), &[]).output().unwrap();
    let view = String::from_utf8(out.stdout).unwrap();
    let unknown = view
        .split("Not known to this analysis")
        .nth(1)
        .expect("the view names what it cannot know");
    assert!(
        unknown.contains("parts of the user-level configuration the analysis"),
        "{view}"
    );
    assert!(
        !unknown.contains("user-level configuration is outside"),
        "{view}"
    );
    let user_line: String = unknown
        .split("\n  - ")
        .find(|l| l.contains("user-level"))
        .unwrap()
        .to_string();
    assert!(!user_line.contains("Claude Code"), "{user_line}");
}

/// A plugin the user installed gives Claude Code its MCP server as
/// `plugin:tools:teamdocs`, one of the harness's own: `check` reports it
/// once (the MCP comparison, with its stdio transport), not a second time
/// under the bare `teamdocs` as a plugin "which loads from the
/// repository".
#[test]
fn an_installed_plugins_server_is_one_finding_in_check() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    claude_plugins(t.path());
    let out = local(t.path(), &["check", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let about: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["message"].as_str().unwrap_or("").contains("teamdocs"))
        .collect();
    let text = serde_json::to_string(&about).unwrap();
    assert!(!text.contains("loads from the repository"), "{text}");
    // The secret in the plugin's own file is the user's to fix.
    assert!(!text.contains("fix the repository first"), "{text}");
    assert!(text.contains("fix your own file first"), "{text}");
    let ids: Vec<&str> = about.iter().filter_map(|f| f["id"].as_str()).collect();
    assert!(
        ids.iter()
            .all(|id| !id.contains(":teamdocs:plugin") && !id.ends_with(":teamdocs|plugin")),
        "{ids:?}"
    );
    assert!(
        about
            .iter()
            .filter(|f| f["message"]
                .as_str()
                .unwrap()
                .contains("`plugin:tools:teamdocs`"))
            .count()
            <= 1,
        "{text}"
    );
}

/// Gemini CLI's extension hooks beyond the oracle case
/// (`oracle.local_gemini_extensions.home-gemini-extensions`): an
/// extension's `hooks/hooks.json` hooks come after the user's settings'
/// hooks, in the extension's layer (`extension:NAME`, scope `plugin`), and
/// are one `hooks` contribution of it; a file whose `hooks` is not an
/// object gives none and is reported at its path; `hooksConfig.enabled:
/// false` in the user's settings keeps them from running.
#[test]
fn gemini_cli_runs_the_hooks_of_the_users_extensions() {
    let t = tempfile::tempdir().unwrap();
    let (repo, home) = (t.path().join("repo"), t.path().join("home"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(t.path().join("root")).unwrap();
    write(&repo, "GEMINI.md", "Project.\n");
    let ext = ".gemini/extensions";
    let manifest = |n: &str| format!(r#"{{"name": "{n}", "version": "1.0.0"}}"#);
    write(
        &home,
        &format!("{ext}/kit/gemini-extension.json"),
        &manifest("kit"),
    );
    write(
        &home,
        &format!("{ext}/kit/hooks/hooks.json"),
        r#"{"hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "sh ${extensionPath}/check.sh"}]}]}}"#,
    );
    write(
        &home,
        &format!("{ext}/bad/gemini-extension.json"),
        &manifest("bad"),
    );
    write(
        &home,
        &format!("{ext}/bad/hooks/hooks.json"),
        r#"{"hooks": []}"#,
    );
    let user =
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo u"}]}]}}"#;
    write(&home, ".gemini/settings.json", user);
    let doc = compiled_for(t.path(), "gemini");
    assert_eq!(
        items(&doc, "hooks"),
        [
            row("~/.gemini/settings.json", "user", "effective"),
            row(
                "~/.gemini/extensions/kit/hooks/hooks.json",
                "plugin",
                "effective"
            ),
        ]
    );
    let hooks = doc["hooks"].as_array().unwrap();
    assert_eq!(hooks[1]["source"]["plugin"], "extension:kit");
    assert_eq!(hooks[1]["runs"]["state"], "yes");
    let kit = &doc["plugins"].as_array().unwrap()[1];
    assert_eq!(kit["name"], "kit");
    assert_eq!(kit["contributions"][0]["kind"], "hooks");
    assert_eq!(kit["contributions"][0]["name"], "kit:hooks");
    let invalid: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "invalid-value")
        .map(|d| d["source"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(invalid, ["~/.gemini/extensions/bad/hooks/hooks.json"]);

    let off = r#"{"hooksConfig": {"enabled": false}}"#;
    write(&home, ".gemini/settings.json", off);
    let doc = compiled_for(t.path(), "gemini");
    let hooks = doc["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0]["source"]["plugin"], "extension:kit");
    assert_eq!(hooks[0]["runs"]["state"], "no");
}

/// Gemini CLI's extension subagents beyond the oracle case
/// (`oracle.local_gemini_extensions.home-gemini-extensions`): an
/// extension's `agents/helper.md` replaces the project's subagent of the
/// same name, which is shadowed (Gemini CLI registers the extension's
/// later), and is in the extension's layer and its contributions; a file
/// starting with `_` is not read; 0.34.0 without
/// `experimental.enableAgents` loads neither, 0.34.0 with it in the
/// user's settings loads the extension's.
#[test]
fn gemini_cli_lists_the_subagents_of_the_users_extensions() {
    let t = tempfile::tempdir().unwrap();
    let (repo, home) = (t.path().join("repo"), t.path().join("home"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(t.path().join("root")).unwrap();
    let agent = |d: &str| format!("---\nname: helper\ndescription: {d}\n---\nHelp.\n");
    write(&repo, ".gemini/agents/helper.md", &agent("Project's"));
    let kit = ".gemini/extensions/kit";
    write(
        &home,
        &format!("{kit}/gemini-extension.json"),
        r#"{"name": "kit", "version": "1.0.0"}"#,
    );
    write(&home, &format!("{kit}/agents/helper.md"), &agent("Kit's"));
    write(&home, &format!("{kit}/agents/_draft.md"), &agent("Draft"));
    let run = |version: &str| compiled_at(t.path(), "gemini", version);
    let doc = run("0.61.0");
    assert_eq!(
        items(&doc, "subagents"),
        [
            row(".gemini/agents/helper.md", "project", "shadowed"),
            row(
                "~/.gemini/extensions/kit/agents/helper.md",
                "plugin",
                "effective"
            ),
        ]
    );
    assert_eq!(doc["subagents"][1]["plugin"], "extension:kit");
    let given = &doc["plugins"][0]["contributions"][0];
    assert_eq!(
        (&given["kind"], &given["name"]),
        (&"agent".into(), &"helper".into())
    );

    let doc = run("0.34.0");
    let states: Vec<&str> = doc["subagents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["applicability"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["excluded", "excluded"]);
    let on = r#"{"experimental": {"enableAgents": true}}"#;
    write(&home, ".gemini/settings.json", on);
    let doc = run("0.34.0");
    assert_eq!(doc["subagents"][1]["applicability"], "effective");
}

/// The permission settings of `doc` as `(key, value, scope, honoured)`.
fn permissions(doc: &Value) -> Vec<(String, String, String, String)> {
    doc["permissions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p["key"].as_str().unwrap().to_string(),
                        p["value"].as_str().unwrap().to_string(),
                        p["source"]["scope"].as_str().unwrap().to_string(),
                        p["honoured"]["state"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn perm(key: &str, value: &str, scope: &str, honoured: &str) -> (String, String, String, String) {
    (key.into(), value.into(), scope.into(), honoured.into())
}

/// Gemini CLI's policies beyond the oracle case
/// (`oracle.local_gemini_policies.home-gemini-policies`): the system's
/// `/etc/gemini-cli/policies` outranks the user's whatever the
/// priorities (tier 5 over tier 4), each rule is in its layer with its
/// lines, `mcpName` forms `mcp_SERVER_TOOL`, a `commandPrefix` list is one
/// setting per prefix that refuses shell commands starting with it, an
/// `interactive` rule depends on the session, a file that is not TOML is
/// reported on its line and skipped, an `excludeTools` entry with
/// arguments names no tool, a disabled extension gives nothing; in repo
/// mode nothing of the machine is read and the workspace's policies are
/// reported as ignored.
#[test]
fn gemini_cli_ranks_the_policies_of_each_tier() {
    let t = tempfile::tempdir().unwrap();
    let (repo, home, root) = (
        t.path().join("repo"),
        t.path().join("home"),
        t.path().join("root"),
    );
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(&repo, "GEMINI.md", "Project.\n");
    write(
        &repo,
        ".gemini/policies/ws.toml",
        "[[rule]]\ntoolName = \"glob\"\ndecision = \"deny\"\npriority = 1\n",
    );
    write(
        &root,
        "etc/gemini-cli/policies/admin.toml",
        "[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"deny\"\npriority = 0\n",
    );
    let user = r#"[[rule]]
toolName = "web_fetch"
decision = "allow"
priority = 999

[[rule]]
toolName = "search"
mcpName = "docs"
decision = "deny"
priority = 5

[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git push", "rm"]
decision = "deny"
priority = 5

[[rule]]
toolName = "glob"
decision = "deny"
priority = 5
interactive = false
"#;
    write(&home, ".gemini/policies/user.toml", user);
    write(
        &home,
        ".gemini/policies/bad.toml",
        "[[rule]]\ntoolName = \n",
    );
    let ext = ".gemini/extensions";
    write(
        &home,
        &format!("{ext}/kit/gemini-extension.json"),
        r#"{"name": "kit", "version": "1.0.0", "excludeTools": ["run_shell_command(rm -rf)", "save_memory"]}"#,
    );
    write(
        &home,
        &format!("{ext}/off/gemini-extension.json"),
        r#"{"name": "off", "version": "1.0.0", "excludeTools": ["glob"]}"#,
    );
    write(
        &home,
        &format!("{ext}/extension-enablement.json"),
        r#"{"off": {"overrides": ["!/*"]}}"#,
    );
    let doc = compiled_for(t.path(), "gemini");
    assert_eq!(
        permissions(&doc),
        [
            perm("rule[1] deny", "web_fetch", "managed", "yes"),
            perm("rule[1] allow", "web_fetch", "user", "no"),
            perm("rule[2] deny", "mcp_docs_search", "user", "yes"),
            perm(
                "rule[3] deny",
                "run_shell_command (commandPrefix \"git push\")",
                "user",
                "yes"
            ),
            perm(
                "rule[3] deny",
                "run_shell_command (commandPrefix \"rm\")",
                "user",
                "yes"
            ),
            perm("rule[4] deny", "glob", "user", "unknown"),
            perm("excludeTools", "run_shell_command(rm -rf)", "plugin", "no"),
            perm("excludeTools", "save_memory", "plugin", "yes"),
        ]
    );
    let p = doc["permissions"].as_array().unwrap();
    assert_eq!(
        p[0]["source"]["path"],
        "/etc/gemini-cli/policies/admin.toml"
    );
    assert_eq!(
        p[0]["source"]["lines"],
        serde_json::json!({"start": 1, "end": 4})
    );
    assert_eq!(p[0]["denies"]["action"], "web-fetch");
    assert_eq!(
        p[1]["honoured"]["source"]["path"],
        "/etc/gemini-cli/policies/admin.toml"
    );
    assert_eq!(
        p[3]["denies"],
        serde_json::json!({"action": "shell", "pattern": "git push"})
    );
    assert_eq!(p[6]["source"]["plugin"], "extension:kit");
    let codes: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["source"]["path"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        codes.contains(&("invalid-toml", "~/.gemini/policies/bad.toml")),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("workspace-policies-ignored", ".gemini/policies/ws.toml")),
        "{codes:?}"
    );
    let bad = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "invalid-toml")
        .unwrap();
    assert_eq!(bad["severity"], "warning");
    assert_eq!(bad["source"]["lines"]["start"], 2);
    // Repo mode reads no policy of the machine, and still reports the
    // workspace's.
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["compile", "--harness", "gemini", "--format", "json"])
        .arg(&repo)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(permissions(&doc).is_empty());
    assert!(doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == "workspace-policies-ignored"));
}

/// Gemini CLI's settings tool lists beyond the oracle case
/// (`oracle.local_gemini_tool_lists.home-gemini-tool-lists`):
/// `tools.exclude` of every layer is a deny (merged by union), the
/// system's `tools.allowed` replaces the workspace's and the user's,
/// `run_shell_command(git)` allows the commands starting `git`,
/// `tools.exclude` withholds its tool whatever a user policy of higher
/// priority says (`Config.getExcludeTools`), the system's
/// `tools.core` withholds each built-in tool it does not name; 0.61.0
/// also allows each entry above a `*` deny, which refuses `glob`, kept by
/// its class name `GlobTool` but allowed by no entry, unless a user policy
/// outranks it; in repo mode the workspace's lists alone
/// are read.
#[test]
fn gemini_cli_reads_the_tool_lists_of_each_settings_layer() {
    let t = tempfile::tempdir().unwrap();
    let (repo, home, root) = (
        t.path().join("repo"),
        t.path().join("home"),
        t.path().join("root"),
    );
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(&repo, "GEMINI.md", "Project.\n");
    write(
        &repo,
        ".gemini/settings.json",
        r#"{"tools": {"exclude": ["list_directory"], "allowed": ["write_file"]}}"#,
    );
    write(
        &home,
        ".gemini/settings.json",
        r#"{"tools": {"exclude": ["web_fetch"], "allowed": ["replace"]}}"#,
    );
    write(
        &home,
        ".gemini/policies/user.toml",
        "[[rule]]\ntoolName = \"web_fetch\"\ndecision = \"allow\"\npriority = 500\n\n[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = 1\n",
    );
    let core = r#"{"tools": {"allowed": ["run_shell_command(git)"], "core": ["read_file", "GlobTool", "ShellTool(git)", "grep_search", "list_directory", "write_file", "replace", "activate_skill", "ask_user", "web_fetch"]}}"#;
    write(&root, "etc/gemini-cli/settings.json", core);
    let run = |version: &str| permissions(&compiled_at(t.path(), "gemini", version));
    let shell_git = "run_shell_command (commandPrefix \"git\")";
    let common = [
        perm("rule[1] allow", "web_fetch", "user", "no"),
        perm("rule[2] allow", "glob", "user", "yes"),
        perm("tools.exclude", "web_fetch", "user", "yes"),
        perm("tools.exclude", "list_directory", "project", "yes"),
        perm("tools.allowed", "replace", "user", "no"),
        perm("tools.allowed", "write_file", "project", "no"),
        perm("tools.allowed", shell_git, "managed", "yes"),
    ];
    let old = run("0.34.0");
    assert_eq!(old[..7], common);
    assert_eq!(
        old[7..],
        [perm("tools.core", "google_web_search", "managed", "yes")]
    );
    let new = run("0.61.0");
    assert_eq!((&new[..1], &new[2..7]), (&common[..1], &common[2..]));
    let state = |value: &str| {
        new[7..]
            .iter()
            .filter(|p| p.1 == value)
            .map(|p| p.3.as_str())
            .collect::<Vec<_>>()
    };
    // `GlobTool` names a class, so it allows nothing; `rule[2] allow
    // glob` (priority 4.001) is outranked by the `*`
    // deny (4.24) and the deny of `glob` itself in 0.61.0.
    assert_eq!(new[1].3, "no");
    assert_eq!(state("list_directory"), ["no"]);
    assert_eq!(state("GlobTool"), ["no"]);
    assert_eq!(state("*"), ["yes"]);
    assert_eq!(state("glob"), ["yes"]);
    // Its entry `web_fetch` is outranked by `tools.exclude`, which
    // withholds the tool whatever the policies say.
    assert_eq!(state("web_fetch"), ["no"]);
    assert_eq!(state("invoke_agent"), ["yes"]);
    // `run_shell_command(git)` in `tools.allowed` denies every other
    // command in 0.61.0 (4.29), under the allow of `git` commands (4.3),
    // so the shell tool stays offered: the deny decides only the others.
    assert_eq!(state("run_shell_command"), ["unknown"]);
    // Repo mode: the workspace's lists alone.
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["compile", "--harness", "gemini", "--format", "json"])
        .arg(&repo)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        permissions(&doc),
        [
            perm("tools.exclude", "list_directory", "project", "yes"),
            perm("tools.allowed", "write_file", "project", "yes"),
        ]
    );
}

/// `compile --harness HARNESS` in local mode with `env`, in `format`:
/// the standard output.
fn output_with_env(t: &Path, harness: &str, format: &str, env: &[(&str, &str)]) -> String {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    // The repository is named relative to where the command runs, as
    // the text's header prints it.
    cmd.args(["compile", "--harness", harness, "--format", format, "repo"])
        .args(["--mode", "local", "--managed-root", "root"])
        .current_dir(t)
        .env("HOME", t.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `OPENCODE_AUTH_CONTENT` replaces `auth.json` when it parses as JSON,
/// its entries taken as written (a `wellknown` entry without a token is a
/// sign-in too); each sign-in is named at `$OPENCODE_AUTH_CONTENT` by its
/// host only: no token, key name, user, password, port, path, query or
/// fragment, and no machine path, in JSON or in text. Text that does not
/// parse leaves `auth.json` in charge.
#[test]
fn opencode_names_the_sign_ins_of_its_auth_content_by_host_only() {
    let t = tempfile::tempdir().unwrap();
    bare_machine(t.path());
    let file = r#"{"https://file.example.com": {"type": "wellknown", "key": "F", "token": "t"}}"#;
    write(
        &t.path().join("home"),
        ".local/share/opencode/auth.json",
        file,
    );
    let content = serde_json::json!({
        "https://bob:pw-2718-secret@Team.Example.org:9443/org/acme?tok=q-5151-secret#frag-77": {
            "type": "wellknown", "key": "TEAM_TOKEN", "token": "tok-1234-secret"
        },
        "https://nokey.example.net": {"type": "wellknown"},
        "openai": {"type": "api", "key": "sk-proj-9999-secret"}
    })
    .to_string();
    let env = [("OPENCODE_AUTH_CONTENT", content.as_str())];
    let json = output_with_env(t.path(), "opencode", "json", &env);
    let text = output_with_env(t.path(), "opencode", "text", &env);
    let root = t.path().to_string_lossy().into_owned();
    for out in [&json, &text] {
        for secret in [
            "tok-1234",
            "TEAM_TOKEN",
            "pw-2718",
            "bob",
            "9443",
            "acme",
            "q-5151",
            "frag-77",
            "sk-proj",
            root.as_str(),
        ] {
            assert!(!out.contains(secret), "{secret} printed");
        }
    }
    let doc: Value = serde_json::from_str(&json).unwrap();
    let named: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"]["path"] == "$OPENCODE_AUTH_CONTENT")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(named.len(), 2, "{named:?}");
    assert!(named[0].contains("to `team.example.org`"), "{}", named[0]);
    assert!(named[1].contains("to `nokey.example.net`"), "{}", named[1]);
    assert!(!json.contains("file.example.com"), "auth.json was read");
    // Text that is not JSON: the file's sign-in is named instead.
    let doc = compiled_with_env(
        t.path(),
        "opencode",
        &[("OPENCODE_AUTH_CONTENT", "{ not json")],
    );
    let paths: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("`wellknown`"))
        })
        .map(|d| d["source"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["~/.local/share/opencode/auth.json"]);
}

/// What local mode leaves unread in a user's file is said, never skipped
/// in silence (fault 12): a Copilot CLI plugin whose `cache_path` lies
/// outside the home, and a Gemini CLI extension whose `contextFileName`
/// leaves its folder, each get one `user-config-unavailable` at the file
/// that names them; the file out there is not read.
#[test]
fn a_user_file_naming_a_place_outside_what_is_read_says_so() {
    let t = tempfile::tempdir().unwrap();
    machine(t.path());
    let home = t.path().join("home");
    let away = t.path().join("away");
    write(
        &away,
        "skills/far/SKILL.md",
        "---\nname: far\ndescription: Far.\n---\nx\n",
    );
    write(
        &t.path().join("home/.."),
        "x.md",
        "Outside the extension.\n",
    );
    let config = serde_json::json!({"installedPlugins": [
        {"name": "far", "marketplace": "acme", "enabled": true, "cache_path": away},
    ]});
    write(&home, ".copilot/config.json", &config.to_string());
    write(
        &home,
        ".gemini/extensions/demo/gemini-extension.json",
        r#"{"name": "demo", "version": "1.0.0", "contextFileName": "../../../x.md"}"#,
    );
    let unread = |harness: &str| -> Vec<(String, String)> {
        let doc = compiled_for(t.path(), harness);
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["code"] == "user-config-unavailable"
                    && d["source"]["path"]
                        .as_str()
                        .is_some_and(|p| p.starts_with("~/"))
            })
            .map(|d| {
                let at = d["source"]["path"].as_str().unwrap().to_string();
                (at, d["message"].as_str().unwrap().to_string())
            })
            .collect()
    };
    let copilot = unread("copilot");
    assert_eq!(copilot.len(), 1, "{copilot:?}");
    assert_eq!(copilot[0].0, "~/.copilot/config.json");
    assert!(copilot[0].1.contains("`far@acme`"), "{copilot:?}");
    let gemini = unread("gemini");
    assert_eq!(gemini.len(), 1, "{gemini:?}");
    assert_eq!(
        gemini[0].0,
        "~/.gemini/extensions/demo/gemini-extension.json"
    );
    assert!(gemini[0].1.contains("`../../../x.md`"), "{gemini:?}");
    let doc = compiled_for(t.path(), "gemini");
    assert!(!doc.to_string().contains("Outside the extension"));
}

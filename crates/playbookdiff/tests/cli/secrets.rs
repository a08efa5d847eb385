//! No secret reaches the terminal: the binary, run with secrets in its own
//! environment and literal secrets committed in `.mcp.json`,
//! `.codex/config.toml` and the Claude settings files, prints none of them
//! on standard output or standard error, for both harnesses, both formats
//! and both modes.
//!
//! Every secret value below contains the marker `Zq7SECRET`, and nothing
//! else in the tree does, so a partly printed value is caught too.

use assert_cmd::Command;
use std::path::Path;

const MARKER: &str = "Zq7SECRET";

/// Secrets in the process environment. The configuration refers to some of
/// them by name; the analysis must never expand them.
const ENVIRONMENT: &[(&str, &str)] = &[
    ("GITHUB_TOKEN", "ghp_Zq7SECRETprocessenv0123456789abcd"),
    ("OPENAI_API_KEY", "sk-proj-Zq7SECRETprocessenv4567"),
    ("PLAYBOOKDIFF_UNRELATED", "plain-Zq7SECRET-process-env"),
    ("CODEX_HEADER_VALUE", "Zq7SECRET-codex-env-header"),
];

const MCP_JSON: &str = r#"{
  "mcpServers": {
    "stdio-literal": {
      "command": "npx",
      "args": ["-y", "@acme/mcp", "--api-key", "Zq7SECRET-arg-after-api-key",
               "--api-key=Zq7SECRET-arg-equals", "--token", "Zq7SECRET-arg-after-token",
               "OPENAI_API_KEY=Zq7SECRET-arg-assignment"],
      "env": {
        "API_KEY": "Zq7SECRET-env-api-key",
        "DATABASE": "Zq7SECRET-env-innocuous-name",
        "GITHUB_TOKEN": "${GITHUB_TOKEN}",
        "WITH_DEFAULT_TOKEN": "${MISSING_TOKEN:-Zq7SECRET-env-default}"
      }
    },
    "remote-literal": {
      "type": "http",
      "url": "https://deploy:Zq7SECRET-url-password@mcp.example.com/v1?api_key=Zq7SECRET-url-query&region=eu",
      "headers": {
        "Authorization": "Bearer Zq7SECRET-header-bearer",
        "X-Team": "Zq7SECRET-header-innocuous-name",
        "X-Api-Key": "${OPENAI_API_KEY}"
      }
    },
    "sse-user-only": {
      "type": "sse",
      "url": "https://Zq7SECRET-url-user-only@events.example.com/sse"
    }
  }
}
"#;

const CODEX_CONFIG: &str = r#"
[mcp_servers.stdio-literal]
command = "npx"
args = ["-y", "@acme/mcp", "--api-key", "Zq7SECRET-cx-arg-after-api-key", "--api-key=Zq7SECRET-cx-arg-equals"]
env = { API_KEY = "Zq7SECRET-cx-env-api-key", PLAIN = "Zq7SECRET-cx-env-innocuous-name" }
env_vars = ["GITHUB_TOKEN"]

[mcp_servers.remote-literal]
url = "https://bot:Zq7SECRET-cx-url-password@mcp.example.com/mcp?key=Zq7SECRET-cx-url-query"
http_headers = { Authorization = "Bearer Zq7SECRET-cx-header-bearer", "X-Team" = "Zq7SECRET-cx-header-innocuous-name" }
env_http_headers = { "X-Env" = "CODEX_HEADER_VALUE" }
bearer_token_env_var = "OPENAI_API_KEY"
"#;

/// A repository with the secrets above, nested launch directories, and the
/// same files below `apps/api` so that a nested cwd sees them too.
fn repository(root: &Path) {
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    std::fs::create_dir_all(root.join(".git")).unwrap();
    write("CLAUDE.md", "# Project\n\nUse pnpm.\n");
    write("AGENTS.md", "# Project\n\nUse pnpm.\n");
    write(".mcp.json", MCP_JSON);
    write(".codex/config.toml", CODEX_CONFIG);
    write("apps/api/.codex/config.toml", CODEX_CONFIG);
    write("apps/api/AGENTS.md", "API.\n");
    write(
        ".claude/settings.json",
        r#"{"enableAllProjectMcpServers": true, "env": {"SENTRY_AUTH_TOKEN": "Zq7SECRET-settings-env"}}"#,
    );
    write(
        ".claude/settings.local.json",
        r#"{"enabledMcpjsonServers": ["remote-literal"], "env": {"ANTHROPIC_API_KEY": "sk-ant-Zq7SECRET-local-settings"}}"#,
    );
    write(
        "apps/api/.claude/settings.json",
        r#"{"enableAllProjectMcpServers": true}"#,
    );
}

#[test]
fn no_secret_reaches_stdout_or_stderr_for_any_harness_format_or_mode() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    let mut runs = 0;
    for harness in ["claude-code", "codex"] {
        for format in ["text", "json"] {
            for mode in ["repo", "local"] {
                for cwd in [".", "apps/api"] {
                    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
                    cmd.arg("compile")
                        .arg(dir.path())
                        .args(["--harness", harness, "--format", format])
                        .args(["--mode", mode, "--cwd", cwd])
                        .args(match mode {
                            "local" => vec!["--home", playbookdiff_testkit::corpus::empty_home()],
                            _ => vec![],
                        })
                        // Colour codes must not split a value either.
                        .env("CLICOLOR_FORCE", "1")
                        .env_remove("NO_COLOR");
                    for (name, value) in ENVIRONMENT {
                        cmd.env(name, value);
                    }
                    let out = cmd.output().unwrap();
                    let what =
                        format!("--harness {harness} --format {format} --mode {mode} --cwd {cwd}");
                    assert!(out.status.success(), "{what}: {out:?}");
                    let stdout = String::from_utf8(out.stdout).unwrap();
                    let stderr = String::from_utf8(out.stderr).unwrap();
                    for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
                        if let Some(line) = text.lines().find(|l| l.contains(MARKER)) {
                            panic!("{what}: a secret reached {stream}: {line}");
                        }
                    }
                    runs += 1;
                }
            }
        }
    }
    assert_eq!(runs, 16);
}

/// The test above must be looking at servers that are actually listed: the
/// servers and the names of their variables and headers are all there.
#[test]
fn the_secret_bearing_servers_are_listed_by_name() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    for harness in ["claude-code", "codex"] {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .arg("compile")
            .arg(dir.path())
            .args([
                "--harness",
                harness,
                "--json",
                "--mode",
                "local",
                "--home",
                playbookdiff_testkit::corpus::empty_home(),
            ])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let names: Vec<&str> = v["mcpServers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"stdio-literal") && names.contains(&"remote-literal"),
            "{harness}: {names:?}"
        );
        let json = v.to_string();
        for name in ["API_KEY", "Authorization", "X-Team"] {
            assert!(json.contains(name), "{harness}: {name} not listed");
        }
    }
}

/// The oracle case whose fixture home signs in to an organisation
/// (`oracle.opencode_wellknown.home-opencode-wellknown`: a `wellknown`
/// entry in OpenCode's `auth.json` whose token holds the marker): in
/// local mode, in both formats, from the file and from
/// `OPENCODE_AUTH_CONTENT`, no part of the token reaches the terminal,
/// while the sign-in's layer is reported.
#[test]
fn no_secret_of_the_wellknown_sign_in_case_is_printed() {
    use playbookdiff_testkit::oracle::{cases, home_copy, materialize};
    let id = "oracle.opencode_wellknown.home-opencode-wellknown";
    let case = cases().into_iter().find(|c| c.id == id).expect(id);
    let mut temps = Vec::new();
    let root = materialize(&case, &mut temps).expect("a fixture");
    let home = home_copy(&case, &root, &mut temps).expect("a fixture home");
    let auth = std::fs::read_to_string(home.join(".local/share/opencode/auth.json")).unwrap();
    assert!(auth.contains(MARKER), "the case's token holds the marker");
    let empty = tempfile::tempdir().unwrap();
    let managed = tempfile::tempdir().unwrap();
    for (home, content) in [(home.as_path(), None), (empty.path(), Some(auth.as_str()))] {
        for format in ["text", "json"] {
            let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
            cmd.arg("compile")
                .arg(&root)
                .args(["--harness", "opencode", "--format", format])
                .args(["--mode", "local", "--managed-root"])
                .arg(managed.path())
                .env("CLICOLOR_FORCE", "1")
                .env_remove("NO_COLOR");
            for name in ["OPENCODE_AUTH_CONTENT", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] {
                cmd.env_remove(name);
            }
            // The variable is read from the environment of a real home
            // (`HOME`), not with `--home`.
            match content {
                Some(text) => cmd.env("HOME", home).env("OPENCODE_AUTH_CONTENT", text),
                None => cmd.arg("--home").arg(home),
            };
            let out = cmd.output().unwrap();
            let what = format!(
                "--format {format}, from the variable: {}",
                content.is_some()
            );
            assert!(out.status.success(), "{what}: {out:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
                if let Some(line) = text.lines().find(|l| l.contains(MARKER)) {
                    panic!("{what}: a secret reached {stream}: {line}");
                }
            }
            let reported = match format {
                "json" => stdout.contains("user-config-unavailable"),
                _ => true,
            };
            assert!(
                reported && stdout.contains("127.0.0.1"),
                "{what}: the sign-in's layer is reported"
            );
        }
    }
}

/// Each harness's user MCP file, with a literal secret in a server's
/// environment: `(harness, path in the home, content)`.
const USER_MCP_FILES: &[(&str, &str, &str)] = &[
    (
        "claude-code",
        ".claude.json",
        r#"{"mcpServers": {"u": {"command": "npx", "env": {"API_KEY": "Zq7SECRET-user-claude"}}}}"#,
    ),
    (
        "codex",
        ".codex/config.toml",
        "[mcp_servers.u]\ncommand = \"npx\"\nenv = { API_KEY = \"Zq7SECRET-user-codex\" }\n",
    ),
    (
        "copilot",
        ".copilot/mcp-config.json",
        r#"{"mcpServers": {"u": {"type": "local", "command": "npx", "args": [], "tools": ["*"], "env": {"API_KEY": "Zq7SECRET-user-copilot"}}}}"#,
    ),
    (
        "cursor",
        ".cursor/mcp.json",
        r#"{"mcpServers": {"u": {"command": "npx", "env": {"API_KEY": "Zq7SECRET-user-cursor"}}}}"#,
    ),
    (
        "gemini",
        ".gemini/settings.json",
        r#"{"mcpServers": {"u": {"command": "npx", "env": {"API_KEY": "Zq7SECRET-user-gemini"}}}}"#,
    ),
    (
        "opencode",
        ".config/opencode/opencode.json",
        r#"{"mcp": {"u": {"type": "local", "command": ["npx"], "environment": {"API_KEY": "Zq7SECRET-user-opencode"}}}}"#,
    ),
];

/// A literal secret in a user's MCP file (local mode) is reported at that
/// file, for every harness, without its value and without the claim
/// that it is committed to the repository: the file is the user's.
#[test]
fn a_literal_secret_in_a_user_file_is_not_said_to_be_committed() {
    let repo = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    for (_, path, content) in USER_MCP_FILES {
        let file = home.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
    for (harness, path, _) in USER_MCP_FILES {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(["compile", "--root", "--mode", "local", "--format", "json"])
            .args(["--harness", harness, "--home"])
            .arg(home.path())
            .arg(repo.path())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains(MARKER), "{harness}: a secret printed");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let secrets: Vec<&serde_json::Value> = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "mcp-literal-secret")
            .collect();
        let at_file = format!("~/{path}");
        assert!(
            secrets
                .iter()
                .any(|d| d["source"]["path"] == at_file.as_str()),
            "{harness}: no mcp-literal-secret at {at_file}: {secrets:?}"
        );
        for d in secrets {
            let message = d["message"].as_str().unwrap();
            assert!(!message.contains("committed"), "{harness}: {message}");
        }
    }
}

//! `guard install`'s registration as the hosts run it: a command that
//! fails closed when its program cannot start, the hook executable
//! `playbookdiff-guard` answering as `playbookdiff guard hook` does, older
//! registrations upgraded, and Codex's trusted hash recorded for the user
//! scope.

use assert_cmd::Command;
use std::path::Path;

/// A work tree with a `.git` directory on `main` and a `CLAUDE.md`.
fn work_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(dir.path().join("CLAUDE.md"), "# Rules\n").unwrap();
    dir
}

/// `guard install` in `repo` with `home` as `HOME` and `CODEX_HOME`'s
/// parent; its standard output.
fn install(repo: &Path, home: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "install"])
        .args(args)
        .current_dir(repo)
        .env("HOME", home)
        .env("CODEX_HOME", home.join(".codex"))
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The commands of a hooks JSON file's PreToolUse and PostToolUse entries.
fn commands(file: &Path) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    ["PreToolUse", "PostToolUse"]
        .iter()
        .flat_map(|e| v["hooks"][e].as_array().cloned().unwrap_or_default())
        .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
        .filter_map(|h| h["command"].as_str().map(str::to_string))
        .collect()
}

/// Runs `command` the way each host does (`sh -c`: Claude Code;
/// `bash -c`: Codex with `SHELL=/bin/bash`) with a Write of `CLAUDE.md`
/// on standard input; the exit status.
fn run_as_host(shell: &str, command: &str, repo: &Path) -> i32 {
    let root = std::fs::canonicalize(repo).unwrap();
    let payload = serde_json::json!({
        "session_id": "t", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": root.join("CLAUDE.md"), "content": "x"},
    });
    let out = Command::new(shell)
        .args(["-c", command])
        .current_dir(repo)
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    out.status.code().unwrap_or(-1)
}

/// The hosts read any status but 0 and 2 as "run the call" (a shell's 127
/// when the program is gone): the registered command turns every such
/// status into 2, for each program form, in each host's shell.
#[test]
fn a_registered_command_whose_program_is_gone_exits_2() {
    let t = work_tree();
    let home = tempfile::tempdir().unwrap();
    let hook_exe = assert_cmd::cargo::cargo_bin("playbookdiff-guard");
    let main_exe = assert_cmd::cargo::cargo_bin("playbookdiff");
    for (host, file) in [
        ("claude-code", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
    ] {
        for program in [&hook_exe, &main_exe] {
            let _ = std::fs::remove_file(t.path().join(file));
            install(
                t.path(),
                home.path(),
                &[
                    "--host",
                    host,
                    "--write",
                    "--program",
                    program.to_str().unwrap(),
                ],
            );
            for command in commands(&t.path().join(file)) {
                let fallback = match host {
                    "codex" => " || sh -c 'cat >/dev/null; exit 2'",
                    _ => " || exit 2",
                };
                assert!(command.ends_with(fallback), "{command}");
                for shell in ["sh", "bash"] {
                    assert_eq!(
                        run_as_host(shell, &command, t.path()),
                        0,
                        "{shell}: {command}"
                    );
                    let gone = command
                        .replace(program.to_str().unwrap(), "/nonexistent/playbookdiff-guard");
                    assert_ne!(gone, command);
                    assert_eq!(run_as_host(shell, &gone, t.path()), 2, "{shell}: {gone}");
                }
            }
        }
    }
}

/// `playbookdiff-guard hook --host H` gives the same answer, byte for byte,
/// as `playbookdiff guard hook --host H`; any other command line is exit 2
/// with one line.
#[test]
fn the_hook_executable_answers_as_the_whole_command_does() {
    let t = work_tree();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let payloads = [
        ("claude-code", serde_json::json!({"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": root.join("CLAUDE.md")}}).to_string()),
        ("claude-code", serde_json::json!({"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}).to_string()),
        ("codex", serde_json::json!({"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo x > AGENTS.md"}}).to_string()),
        ("opencode", serde_json::json!({"event": "PreToolUse", "tool": "write", "cwd": root, "args": {"filePath": root.join("opencode.json")}}).to_string()),
        ("claude-code", "{not json".to_string()),
    ];
    let run = |bin: &str, args: &[&str], stdin: &str| {
        let out = Command::cargo_bin(bin)
            .unwrap()
            .args(args)
            .env("HOME", "/nonexistent-home")
            .write_stdin(stdin.to_string())
            .output()
            .unwrap();
        (out.status.code(), out.stdout)
    };
    for (host, payload) in payloads {
        let whole = run("playbookdiff", &["guard", "hook", "--host", host], &payload);
        let small = run("playbookdiff-guard", &["hook", "--host", host], &payload);
        assert_eq!(whole, small, "{host}: {payload}");
        assert!(matches!(small.0, Some(0 | 2)));
    }
    for bad in [
        &["hook"][..],
        &["hook", "--host", "vim"],
        &["guard", "hook", "--host", "codex"],
        &[],
    ] {
        let out = Command::cargo_bin("playbookdiff-guard")
            .unwrap()
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{bad:?}"
        );
    }
}

/// A registration written by an older release (no `|| exit 2`, another
/// program path, a 30 s timeout) is rewritten in place, once; the rest of
/// the file stays.
#[test]
fn an_older_registration_is_upgraded_once() {
    let t = work_tree();
    let home = tempfile::tempdir().unwrap();
    let file = t.path().join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let old = r#"{"model": "m", "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "/old/playbookdiff guard hook --host claude-code", "timeout": 30}]}], "Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}"#;
    std::fs::write(&file, old).unwrap();
    let args = [
        "--host",
        "claude-code",
        "--write",
        "--program",
        "/opt/playbookdiff-guard",
    ];
    let first = install(t.path(), home.path(), &args);
    assert!(first.starts_with("changed "), "{first}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(v["model"], "m");
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "echo");
    let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 1, "upgraded in place, not added: {v}");
    assert_eq!(
        pre[0]["hooks"][0]["command"],
        "/opt/playbookdiff-guard hook --host claude-code || exit 2"
    );
    assert_eq!(
        pre[0]["hooks"][0]["timeout"],
        playbookdiff_guard::install::HOOK_TIMEOUT_SECONDS,
        "the older 30 s timeout is raised: a host runs the call after a timeout"
    );
    let second = install(t.path(), home.path(), &args);
    assert!(second.starts_with("unchanged "), "{second}");
}

/// Codex's user scope: `--write` merges the registration into
/// `$CODEX_HOME/hooks.json` and records each hook's trusted hash in
/// `$CODEX_HOME/config.toml`, keeping that file's tables and comments;
/// `guard status` then finds it trusted; a second `--write` changes
/// nothing; a moved program is trusted again.
#[test]
fn codex_user_scope_records_the_trusted_hash() {
    let t = work_tree();
    let home = tempfile::tempdir().unwrap();
    let codex = home.path().join(".codex");
    std::fs::create_dir_all(&codex).unwrap();
    let config = "# mine\n[projects.\"/somewhere\"]\ntrust_level = \"trusted\" # kept\n";
    std::fs::write(codex.join("config.toml"), config).unwrap();
    let args = [
        "--host",
        "codex",
        "--scope",
        "user",
        "--program",
        "/opt/playbookdiff-guard",
    ];
    let plan = install(t.path(), home.path(), &args);
    assert!(
        plan.contains("would change") && plan.contains("config.toml"),
        "{plan}"
    );
    assert_eq!(
        std::fs::read_to_string(codex.join("config.toml")).unwrap(),
        config
    );
    let mut write = args.to_vec();
    write.push("--write");
    install(t.path(), home.path(), &write);
    let text = std::fs::read_to_string(codex.join("config.toml")).unwrap();
    assert!(text.starts_with(config), "{text}");
    let hooks = std::fs::read_to_string(codex.join("hooks.json")).unwrap();
    let path = codex.join("hooks.json").display().to_string();
    let entries =
        playbookdiff_guard::codex_trust::entries(&path, &hooks, "guard hook --host codex");
    assert_eq!(entries.len(), 2);
    for e in &entries {
        assert!(
            playbookdiff_guard::codex_trust::is_trusted(&text, e),
            "{e:?}\n{text}"
        );
    }
    let second = install(t.path(), home.path(), &write);
    assert_eq!(second.matches("unchanged ").count(), 2, "{second}");
    let status = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "status"])
        .current_dir(t.path())
        .env("HOME", home.path())
        .env("CODEX_HOME", &codex)
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.contains("codex: guarded\n"), "{status}");
    write[5] = "/usr/local/bin/playbookdiff-guard";
    let moved = install(t.path(), home.path(), &write);
    assert_eq!(
        moved.lines().filter(|l| l.starts_with("changed ")).count(),
        2,
        "{moved}"
    );
    let text = std::fs::read_to_string(codex.join("config.toml")).unwrap();
    let hooks = std::fs::read_to_string(codex.join("hooks.json")).unwrap();
    for e in playbookdiff_guard::codex_trust::entries(&path, &hooks, "guard hook --host codex") {
        assert!(playbookdiff_guard::codex_trust::is_trusted(&text, &e));
    }
}

/// Copilot CLI's user scope is `$COPILOT_HOME/hooks/` (by default
/// `~/.copilot/hooks/`), the directory 1.0.24's `loadAllHooks` reads the
/// user's hooks from; it has no managed layer, which `--scope managed`
/// says in one line with exit status 2; `guard status` finds the user
/// layer.
#[test]
fn copilot_user_scope_and_no_managed_scope() {
    let t = work_tree();
    let home = tempfile::tempdir().unwrap();
    let args = ["--host", "copilot", "--scope", "user", "--write"];
    let out = install(t.path(), home.path(), &args);
    let file = home.path().join(".copilot/hooks/playbookdiff-guard.json");
    assert!(out.contains("playbookdiff-guard.json"), "{out}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let bash = v["hooks"]["preToolUse"][0]["bash"].as_str().unwrap();
    assert!(bash.contains("hook --host copilot"), "{bash}");
    // Twice: nothing to change.
    let again = install(t.path(), home.path(), &args);
    assert!(again.contains("unchanged"), "{again}");
    // `COPILOT_HOME` moves it.
    let elsewhere = tempfile::tempdir().unwrap();
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .args([
            "guard", "install", "--host", "copilot", "--scope", "user", "--write",
        ])
        .current_dir(t.path())
        .env("HOME", home.path())
        .env("COPILOT_HOME", elsewhere.path())
        .assert()
        .success();
    assert!(elsewhere
        .path()
        .join("hooks/playbookdiff-guard.json")
        .is_file());
    // Status: guarded from the user layer.
    let status = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "status"])
        .current_dir(t.path())
        .env("HOME", home.path())
        .env_remove("COPILOT_HOME")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    let copilot: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("copilot: "))
        .take_while(|l| l.starts_with("copilot: ") || l.starts_with(' '))
        .collect();
    assert_eq!(copilot.first(), Some(&"copilot: guarded"), "{text}");
    assert!(
        copilot.iter().any(|l| l.contains("hook in the user layer")),
        "{text}"
    );
    // No managed layer: exit 2, one line that says what to do.
    let managed = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args([
            "guard", "install", "--host", "copilot", "--scope", "managed",
        ])
        .current_dir(t.path())
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert_eq!(managed.status.code(), Some(2));
    let err = String::from_utf8_lossy(&managed.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("no managed layer") && err.contains("--scope user"),
        "{err}"
    );
}

/// Copilot CLI's registered command, its program gone, reads the whole
/// payload (1 MiB, more than a pipe holds, as Codex's does) and then
/// prints the deny Copilot CLI reads as a block, exit 0 (Copilot CLI runs
/// hooks with `bash`).
#[test]
fn copilot_s_registration_reads_its_input_when_the_program_is_gone() {
    use std::io::Write as _;
    let t = work_tree();
    let home = tempfile::tempdir().unwrap();
    let program = assert_cmd::cargo::cargo_bin("playbookdiff-guard");
    let program = program.to_str().unwrap();
    install(
        t.path(),
        home.path(),
        &["--host", "copilot", "--write", "--program", program],
    );
    let file = t.path().join(".github/hooks/playbookdiff-guard.json");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    for event in ["preToolUse", "postToolUse"] {
        let command = v["hooks"][event][0]["bash"].as_str().unwrap();
        let gone = command.replace(program, "/nonexistent/playbookdiff-guard");
        let mut child = std::process::Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &gone])
            .current_dir(t.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let written = child.stdin.take().unwrap().write_all(&vec![b' '; 1 << 20]);
        assert!(
            written.is_ok(),
            "{gone}: the payload was not read: {written:?}"
        );
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{gone}");
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(answer["permissionDecision"], "deny", "{gone}");
    }
}

/// Codex 0.142.3 runs the call when a hook exits 2 before reading its
/// input (its write of the payload fails): Codex's registered command, its
/// program gone, reads the whole payload (1 MiB, more than a pipe holds)
/// before it exits 2, in each shell a login shell may be.
#[test]
fn codex_s_registration_reads_its_input_when_the_program_is_gone() {
    use std::io::Write as _;
    let t = work_tree();
    let home = tempfile::tempdir().unwrap();
    let program = assert_cmd::cargo::cargo_bin("playbookdiff-guard");
    install(
        t.path(),
        home.path(),
        &[
            "--host",
            "codex",
            "--write",
            "--program",
            program.to_str().unwrap(),
        ],
    );
    let payload = vec![b' '; 1 << 20];
    for command in commands(&t.path().join(".codex/hooks.json")) {
        let gone = command.replace(program.to_str().unwrap(), "/nonexistent/playbookdiff-guard");
        for shell in ["sh", "bash"] {
            let mut child = std::process::Command::new(shell)
                .args(["-c", &gone])
                .current_dir(t.path())
                .stdin(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let written = child.stdin.take().unwrap().write_all(&payload);
            assert!(
                written.is_ok(),
                "{shell}: {gone}: the payload was not read: {written:?}"
            );
            assert_eq!(child.wait().unwrap().code(), Some(2), "{shell}: {gone}");
        }
    }
}

/// `guard status` of one host: its heading line and the indented lines
/// under it.
fn status_of(repo: &Path, home: &Path, host: &str) -> Vec<String> {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(["guard", "status", "--color", "never"])
        .current_dir(repo)
        .env("HOME", home)
        .env("CODEX_HOME", home.join(".codex"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("COPILOT_HOME")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let head = format!("{host}: ");
    text.lines()
        .skip_while(|l| !l.starts_with(&head))
        .take_while(|l| l.starts_with(&head) || l.starts_with(' '))
        .map(str::to_string)
        .collect()
}

/// Claude Code and Gemini CLI read project settings only from the launch
/// directory: a project-scope guard does not run for an agent launched
/// in a subdirectory, and `guard status` says so with the remedy (it
/// said only "guarded"). A user-scope registration does not have the
/// gap.
#[test]
fn status_names_a_launch_below_the_project_registration() {
    for (host, settings) in [
        ("claude-code", ".claude/settings.json"),
        ("gemini", ".gemini/settings.json"),
    ] {
        let t = work_tree();
        let home = tempfile::tempdir().unwrap();
        install(t.path(), home.path(), &["--host", host, "--write"]);
        let text = status_of(t.path(), home.path(), host).join("\n");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(&format!(
                "launched in a subdirectory reads only that directory's {settings}"
            )) && flat.contains("launch the agent at the repository root"),
            "{text}"
        );
        let t = work_tree();
        install(
            t.path(),
            home.path(),
            &["--host", host, "--scope", "user", "--write"],
        );
        let text = status_of(t.path(), home.path(), host).join("\n");
        assert!(!text.contains("subdirectory"), "{text}");
    }
}

//! `round rule` and `round rulings` on a real history: a ruling counts
//! only when the commit that last changed its row carries an SSH
//! signature of a key the BASE branch's allowed signers file lists, in
//! git's namespace, for the committer. Keys are made with `ssh-keygen`
//! and commits signed with `git -c gpg.format=ssh` at test time; the
//! verification reads git objects only.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;

pub(crate) const BRIEF: &str = "---
id: \"012\"
title: Rotate the tokens
affectedFiles: [src/**]
protectedFiles: [migrations/**]
baseBranch: main
---
# Rotate the tokens

## Rulings

| Id | Path | Status | Decision |
| --- | --- | --- | --- |
";

pub(crate) const BRIEF_PATH: &str = "briefs/012.md";

/// Who commits, and with which key (none: unsigned).
pub(crate) struct Committer<'a> {
    email: &'a str,
    author: Option<&'a str>,
    key: Option<&'a Path>,
}

impl<'a> Committer<'a> {
    pub(crate) fn signed(email: &'a str, key: &'a Path) -> Self {
        Committer {
            email,
            author: None,
            key: Some(key),
        }
    }
    pub(crate) fn unsigned(email: &'a str) -> Self {
        Committer {
            email,
            author: None,
            key: None,
        }
    }
}

pub(crate) fn git_in(
    root: &Path,
    who: &Committer<'_>,
    args: &[&str],
    stdin: Option<&[u8]>,
) -> String {
    let mut cmd = std::process::Command::new("git");
    if let Some(key) = who.key {
        cmd.args(["-c", "gpg.format=ssh", "-c"])
            .arg(format!("user.signingkey={}", key.display()));
    }
    let author = who.author.unwrap_or(who.email);
    cmd.args(args)
        .current_dir(root)
        .env_remove("PLAYBOOKDIFF_BRIEF")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("HOME", root)
        .env("GIT_AUTHOR_NAME", author)
        .env("GIT_AUTHOR_EMAIL", author)
        .env("GIT_COMMITTER_NAME", who.email)
        .env("GIT_COMMITTER_EMAIL", who.email)
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("git runs");
    if let Some(bytes) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A new ed25519 key pair in `dir`: the private key's path and the
/// public key's line.
pub(crate) fn keygen(dir: &Path, name: &str) -> (PathBuf, String) {
    keygen_as(dir, name, &["-t", "ed25519"])
}

/// A new key pair made by `ssh-keygen` with `kind` (its `-t` and `-b`
/// arguments) in `dir`: the private key's path and the public key's line.
fn keygen_as(dir: &Path, name: &str, kind: &[&str]) -> (PathBuf, String) {
    let key = dir.join(name);
    let ok = std::process::Command::new("ssh-keygen")
        .args(["-q", "-N", "", "-C", name])
        .args(kind)
        .arg("-f")
        .arg(&key)
        .status()
        .expect("ssh-keygen is installed");
    assert!(ok.success());
    let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    (key, public.trim().to_string())
}

/// A round's repository as a person approved it, in `dir`: on `main`,
/// `.github/allowed_signers` with one `EMAIL KEY` line per signer and
/// `files` (path, text), committed unsigned by an admin; then the round's
/// branch `brief/012` checked out. Returns the root, canonical.
fn approved_round(dir: &Path, signers: &[(&str, &str)], files: &[(&str, &str)]) -> PathBuf {
    let root = std::fs::canonicalize(dir).unwrap();
    let admin = Committer::unsigned("admin@example.com");
    git_in(&root, &admin, &["init", "-q", "-b", "main"], None);
    let lines: String = signers
        .iter()
        .map(|(email, key)| format!("{email} {key}\n"))
        .collect();
    let signers_file = (".github/allowed_signers", lines.as_str());
    for (path, text) in files.iter().chain([&signers_file]) {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    commit_all(&root, &admin, "brief 012 and who may rule");
    git_in(&root, &admin, &["checkout", "-q", "-b", "brief/012"], None);
    root
}

/// Appends `row` to the brief and commits it as `who`.
pub(crate) fn commit_row(root: &Path, who: &Committer<'_>, row: &str) {
    let path = root.join(BRIEF_PATH);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(row);
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    commit_all(root, who, row);
}

/// Commits every change as `who` (signed when `who` has a key).
pub(crate) fn commit_all(root: &Path, who: &Committer<'_>, message: &str) {
    git_in(root, who, &["add", "-A"], None);
    let mut args = vec!["commit", "-q", "-m", message];
    if who.key.is_some() {
        args.push("-S");
    }
    git_in(root, who, &args, None);
}

/// Replaces HEAD by a copy of it carrying `signature` (an armored
/// signature block) in its `gpgsig` header.
fn graft_signature(root: &Path, signature: &str) {
    let who = Committer::unsigned("t@example.com");
    let raw = git_in(root, &who, &["cat-file", "commit", "HEAD"], None) + "\n";
    let (headers, message) = raw.split_once("\n\n").unwrap();
    let folded = signature.trim_end().replace('\n', "\n ");
    let object = format!("{headers}\ngpgsig {folded}\n\n{message}");
    let id = git_in(
        root,
        &who,
        &["hash-object", "-t", "commit", "-w", "--stdin"],
        Some(object.as_bytes()),
    );
    git_in(root, &who, &["update-ref", "HEAD", &id], None);
}

/// The armored signature of HEAD's commit.
fn signature_of_head(root: &Path) -> String {
    let who = Committer::unsigned("t@example.com");
    let raw = git_in(root, &who, &["cat-file", "commit", "HEAD"], None);
    let start = raw.find("-----BEGIN SSH SIGNATURE-----").unwrap();
    let end = raw.find("-----END SSH SIGNATURE-----").unwrap();
    raw[start..end]
        .lines()
        .map(str::trim)
        .chain(["-----END SSH SIGNATURE-----"])
        .collect::<Vec<_>>()
        .join("\n")
}

/// `ssh-keygen -Y sign -n NAMESPACE` over HEAD's commit object.
fn sign_head_in(root: &Path, key: &Path, namespace: &str) -> String {
    let who = Committer::unsigned("alice@example.com");
    let raw = git_in(root, &who, &["cat-file", "commit", "HEAD"], None) + "\n";
    let mut child = std::process::Command::new("ssh-keygen")
        .args(["-q", "-Y", "sign", "-n", namespace, "-f"])
        .arg(key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(raw.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn rulings_json(root: &Path) -> Vec<Value> {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(root)
        .env_remove("PLAYBOOKDIFF_BRIEF")
        .args(["round", "rulings", "012", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report: Value = serde_json::from_slice(&out).unwrap();
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/round-rulings.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(report["signers"], ".github/allowed_signers on main");
    report["rows"].as_array().unwrap().clone()
}

#[test]
fn a_ruling_counts_only_when_signed_by_a_key_the_base_branch_lists() {
    let keys = tempfile::tempdir().unwrap();
    let (alice, alice_pub) = keygen(keys.path(), "alice");
    let (mallory, _) = keygen(keys.path(), "mallory");
    let (bob, bob_pub) = keygen(keys.path(), "bob");
    let dir = tempfile::tempdir().unwrap();
    let signers = [("alice@example.com", alice_pub.as_str())];
    let root = &approved_round(dir.path(), &signers, &[(BRIEF_PATH, BRIEF)]);
    let admin = Committer::unsigned("admin@example.com");
    // Bob is listed on the round's branch only.
    std::fs::write(
        root.join(".github/allowed_signers"),
        format!("alice@example.com {alice_pub}\nbob@example.com {bob_pub}\n"),
    )
    .unwrap();
    commit_all(root, &admin, "bob may rule (on the round's branch only)");

    let row = |id: &str| format!("| {id} | migrations/{id}.sql | allowed | reviewed |");
    commit_row(
        root,
        &Committer::signed("alice@example.com", &alice),
        &row("E1"),
    );
    let alice_signature = signature_of_head(root);
    commit_row(root, &Committer::unsigned("alice@example.com"), &row("E2"));
    commit_row(
        root,
        &Committer::signed("alice@example.com", &mallory),
        &row("E3"),
    );
    commit_row(root, &Committer::unsigned("alice@example.com"), &row("E4"));
    graft_signature(root, &alice_signature);
    commit_row(
        root,
        &Committer::signed("alice@example.com", &alice),
        &row("E5"),
    );
    // A later unsigned commit changes E5's row.
    let path = root.join(BRIEF_PATH);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("E5.sql | allowed | reviewed", "E5.sql | allowed | changed"),
    )
    .unwrap();
    commit_all(
        root,
        &Committer::unsigned("agent@example.com"),
        "E5 changed",
    );
    commit_row(
        root,
        &Committer::signed("bob@example.com", &bob),
        &row("E6"),
    );
    commit_row(
        root,
        &Committer::signed("carol@example.com", &alice),
        &row("E7"),
    );
    commit_row(root, &Committer::unsigned("alice@example.com"), &row("E8"));
    let other_namespace = sign_head_in(root, &alice, "file");
    graft_signature(root, &other_namespace);
    let squashed = Committer {
        email: "noreply@github.com",
        author: Some("alice@example.com"),
        key: None,
    };
    commit_row(root, &squashed, &row("E9"));
    commit_row(
        root,
        &Committer::unsigned("alice@example.com"),
        "| E10 | a.sql | pending | |",
    );

    let rows = rulings_json(root);
    let by_id = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap().clone();
    let why = |id: &str| by_id(id)["whyNot"].as_str().unwrap_or_default().to_string();
    let e1 = by_id("E1");
    assert_eq!(e1["verified"], true, "{e1}");
    assert_eq!(e1["signer"], "alice@example.com");
    let expected: [(&str, &str); 8] = [
        ("E2", "the commit is not signed"),
        ("E3", "is not in the base branch's allowed signers file"),
        ("E4", "does not verify over this commit's content"),
        ("E5", "the commit is not signed"),
        ("E6", "is not in the base branch's allowed signers file"),
        (
            "E7",
            "lists the key for `alice@example.com`, not for the committer `carol@example.com`",
        ),
        ("E8", "made in the namespace `file`, not `git`"),
        ("E9", "rewritten by a squash or rebase merge"),
    ];
    for (id, says) in expected {
        let r = by_id(id);
        assert_eq!(r["verified"], false, "{id}: {r}");
        assert!(why(id).contains(says), "{id}: {}", why(id));
    }
    assert_eq!(by_id("E9")["rewritten"], true);
    assert_eq!(by_id("E2")["rewritten"], false);
    assert_eq!(by_id("E10")["decision"], "pending");
    assert_eq!(why("E10"), "no one has ruled on it");
    // The same row, uncommitted: not the committed row.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("E1.sql | allowed | reviewed", "E1.sql | allowed | edited"),
    )
    .unwrap();
    let rows = rulings_json(root);
    let e1 = rows.iter().find(|r| r["id"] == "E1").unwrap();
    assert_eq!(e1["verified"], false);
    assert!(
        e1["whyNot"].as_str().unwrap().contains("not committed"),
        "{e1}"
    );
}

#[test]
fn rule_writes_the_row_and_says_how_to_make_it_count() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let admin = Committer::unsigned("admin@example.com");
    git_in(root, &admin, &["init", "-q", "-b", "brief/012"], None);
    std::fs::create_dir_all(root.join("briefs")).unwrap();
    let text = format!("{BRIEF}| E1 | migrations/002.sql | pending | |\n");
    std::fs::write(root.join(BRIEF_PATH), text).unwrap();
    let run = |args: &[&str]| {
        Command::cargo_bin("playbookdiff")
            .unwrap()
            .current_dir(root)
            .env_remove("PLAYBOOKDIFF_BRIEF")
            .args(["round", "rule"])
            .args(args)
            .assert()
    };
    let out = run(&[
        "--row",
        "E1",
        "--ruling",
        "allow",
        "--reason",
        "one migration",
    ])
    .success()
    .get_output()
    .stdout
    .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("git -c gpg.format=ssh commit -S"), "{out}");
    let brief = std::fs::read_to_string(root.join(BRIEF_PATH)).unwrap();
    assert!(
        brief.contains("| E1 | migrations/002.sql | allowed | one migration |"),
        "{brief}"
    );
    let refused = run(&["--row", "E7", "--ruling", "deny", "--reason", "no"])
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8(refused)
        .unwrap()
        .contains("no row `E7`; its rows: E1"));
    run(&["--row", "E1", "--ruling", "deny", "--reason", " "]).code(2);
}

/// The guard's answer to a Claude Code Write of `rel`: the permission
/// decision and the whole answer.
pub(crate) fn guard_write(root: &Path, rel: &str, brief: Option<&str>) -> (String, String) {
    let payload = serde_json::json!({
        "session_id": "t1", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": root.join(rel), "content": "x"},
    });
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.args(["guard", "hook", "--host", "claude-code"])
        .env("HOME", "/nonexistent-home")
        .env_remove("PLAYBOOKDIFF_BRIEF");
    if let Some(id) = brief {
        cmd.env("PLAYBOOKDIFF_BRIEF", id);
    }
    let out = cmd.write_stdin(payload.to_string()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let v: Value = serde_json::from_str(&stdout).unwrap_or_default();
    let d = v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or("allow")
        .to_string();
    (d, stdout)
}

#[test]
fn the_guard_reads_the_brief_and_a_signed_ruling_opens_a_protected_file() {
    let keys = tempfile::tempdir().unwrap();
    let (alice, alice_pub) = keygen(keys.path(), "alice");
    let (mallory, _) = keygen(keys.path(), "mallory");
    let dir = tempfile::tempdir().unwrap();
    let signers = [("alice@example.com", alice_pub.as_str())];
    // No table yet: the escalation makes it.
    let without_table = BRIEF.split("| Id").next().unwrap();
    let root = &approved_round(dir.path(), &signers, &[(BRIEF_PATH, without_table)]);

    assert_eq!(guard_write(root, "src/a.rs", None).0, "allow");
    let (d, out) = guard_write(root, "README.md", None);
    assert_eq!(d, "allow", "{out}");
    assert!(
        out.contains("brief-scope") && out.contains("outside brief 012"),
        "{out}"
    );
    let (d, out) = guard_write(root, "migrations/002.sql", None);
    assert_eq!(d, "deny", "{out}");
    assert!(
        out.contains("playbookdiff round escalate '012' --path 'migrations/002.sql'"),
        "{out}"
    );
    // The brief itself may be written (an escalation is a row of it).
    assert_eq!(guard_write(root, BRIEF_PATH, None).0, "allow");

    Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(root)
        .env_remove("PLAYBOOKDIFF_BRIEF")
        .args(["round", "escalate", "--path", "migrations/002.sql"])
        .args(["--reason", "a column rename", "--option", "rename"])
        .args(["--recommendation", "rename"])
        .assert()
        .success();
    Command::cargo_bin("playbookdiff")
        .unwrap()
        .current_dir(root)
        .env_remove("PLAYBOOKDIFF_BRIEF")
        .args(["round", "rule", "--row", "E1", "--ruling", "allow"])
        .args(["--reason", "one migration"])
        .assert()
        .success();
    // Written but not committed, then committed by a key not listed.
    assert_eq!(guard_write(root, "migrations/002.sql", None).0, "deny");
    commit_all(
        root,
        &Committer::signed("alice@example.com", &mallory),
        "E1 forged",
    );
    assert_eq!(guard_write(root, "migrations/002.sql", None).0, "deny");
    // Alice signs the same ruling again: it counts.
    git_in(
        root,
        &Committer::signed("alice@example.com", &alice),
        &["commit", "-q", "--amend", "-S", "-m", "E1 allowed"],
        None,
    );
    assert_eq!(guard_write(root, "migrations/002.sql", None).0, "allow");
    assert_eq!(guard_write(root, "migrations/003.sql", None).0, "deny");
    // Narrowing the brief's own list does not open the files the base
    // branch's copy protects.
    let text = std::fs::read_to_string(root.join(BRIEF_PATH)).unwrap();
    let narrowed = text.replace("protectedFiles: [migrations/**]", "protectedFiles: []");
    assert_ne!(text, narrowed);
    std::fs::write(root.join(BRIEF_PATH), narrowed).unwrap();
    assert_eq!(guard_write(root, "migrations/003.sql", None).0, "deny");
    // A named brief that does not exist refuses every write.
    let (d, out) = guard_write(root, "src/a.rs", Some("999"));
    assert_eq!(d, "deny");
    assert!(out.contains("brief-unreadable"), "{out}");
}

/// `git commit` as `who`: whether git made the commit, and what it said.
fn try_commit(root: &Path, who: &Committer<'_>, message: &str) -> (bool, String) {
    let mut cmd = std::process::Command::new("git");
    if let Some(key) = who.key {
        cmd.args(["-c", "gpg.format=ssh", "-c"])
            .arg(format!("user.signingkey={}", key.display()));
    }
    let mut args = vec!["commit", "-q", "-m", message];
    if who.key.is_some() {
        args.push("-S");
    }
    let out = cmd
        .args(&args)
        .current_dir(root)
        .env_remove("PLAYBOOKDIFF_BRIEF")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("HOME", root)
        .env("GIT_AUTHOR_NAME", who.email)
        .env("GIT_AUTHOR_EMAIL", who.email)
        .env("GIT_COMMITTER_NAME", who.email)
        .env("GIT_COMMITTER_EMAIL", who.email)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said)
}

fn install_hook(root: &Path, write: bool) -> String {
    let program = assert_cmd::cargo::cargo_bin("playbookdiff");
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.current_dir(root)
        .args(["guard", "install", "--git-hook", "--program"])
        .arg(&program);
    if write {
        cmd.arg("--write");
    }
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_pre_commit_hook_refuses_a_protected_change_without_a_verified_ruling() {
    let keys = tempfile::tempdir().unwrap();
    let (alice, alice_pub) = keygen(keys.path(), "alice");
    let dir = tempfile::tempdir().unwrap();
    let signers = [("alice@example.com", alice_pub.as_str())];
    let text = format!("{BRIEF}| E1 | migrations/002.sql | pending | |\n");
    let files = [
        (BRIEF_PATH, text.as_str()),
        ("migrations/002.sql", "create table t;\n"),
    ];
    let root = &approved_round(dir.path(), &signers, &files);
    let admin = Committer::unsigned("admin@example.com");

    // An existing hook is kept and run first; the plan changes nothing.
    let hooks = root.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(
        hooks.join("pre-commit"),
        "#!/bin/sh\necho earlier hook ran\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(hooks.join("pre-commit"), mode).unwrap();
    }
    let plan = install_hook(root, false);
    assert!(
        plan.contains("would change") && plan.contains("kept as"),
        "{plan}"
    );
    assert!(!hooks.join(git_hook_chained()).exists());
    install_hook(root, true);
    assert!(install_hook(root, true).contains("unchanged"));
    assert!(hooks.join(git_hook_chained()).exists());

    // A shell write, no agent: the commit is refused.
    std::fs::write(root.join("migrations/002.sql"), "drop table t;\n").unwrap();
    git_in(root, &admin, &["add", "-A"], None);
    let (made, said) = try_commit(root, &admin, "drop it");
    assert!(!made, "{said}");
    assert!(said.contains("earlier hook ran"), "{said}");
    assert!(
        said.contains("brief-protected") && said.contains("migrations/002.sql"),
        "{said}"
    );
    // A file in scope commits.
    git_in(root, &admin, &["reset", "-q"], None);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
    git_in(root, &admin, &["add", "src/a.rs"], None);
    assert!(try_commit(root, &admin, "src").0);
    // Alice's signed ruling, committed first, lets the change through.
    let brief = std::fs::read_to_string(root.join(BRIEF_PATH)).unwrap();
    let ruled = brief.replace("002.sql | pending | |", "002.sql | allowed | reviewed |");
    std::fs::write(root.join(BRIEF_PATH), ruled).unwrap();
    git_in(root, &admin, &["add", BRIEF_PATH], None);
    let (made, said) = try_commit(root, &Committer::signed("alice@example.com", &alice), "E1");
    assert!(made, "{said}");
    git_in(root, &admin, &["add", "-A"], None);
    let (made, said) = try_commit(root, &admin, "drop it");
    assert!(made, "{said}");
}

fn git_hook_chained() -> &'static str {
    playbookdiff_guard::git_hook::CHAINED
}

/// Each key type an allowed signers file may list, signing a ruling
/// with `git -c gpg.format=ssh commit -S` (git signs through `ssh-keygen
/// -Y sign`; an RSA key signs with rsa-sha2-512): Ed25519, ECDSA P-256
/// and P-384 and RSA verify (RSA through the `ssh-key` crate's `rsa`
/// feature); ECDSA P-521 does not (the crate is built without P-521),
/// and the row says which type is not verified.
#[test]
fn each_listed_key_type_verifies_or_says_why_not() {
    let cases: [(&str, &[&str], bool); 6] = [
        ("ed25519", &["-t", "ed25519"], true),
        ("ecdsa-p256", &["-t", "ecdsa", "-b", "256"], true),
        ("ecdsa-p384", &["-t", "ecdsa", "-b", "384"], true),
        ("ecdsa-p521", &["-t", "ecdsa", "-b", "521"], false),
        ("rsa-2048", &["-t", "rsa", "-b", "2048"], true),
        ("rsa-4096", &["-t", "rsa", "-b", "4096"], true),
    ];
    let keys = tempfile::tempdir().unwrap();
    for (name, kind, verifies) in cases {
        let (key, public) = keygen_as(keys.path(), name, kind);
        let dir = tempfile::tempdir().unwrap();
        let signers = [("alice@example.com", public.as_str())];
        let root = approved_round(dir.path(), &signers, &[(BRIEF_PATH, BRIEF)]);
        let alice = Committer::signed("alice@example.com", &key);
        commit_row(
            &root,
            &alice,
            "| E1 | migrations/1.sql | allowed | reviewed |",
        );
        let rows = rulings_json(&root);
        assert_eq!(rows[0]["verified"], verifies, "{name}: {}", rows[0]);
        if !verifies {
            let why = rows[0]["whyNot"].as_str().unwrap_or_default();
            assert!(
                why.contains("of type `ecdsa-sha2-nistp521`, which is not verified here"),
                "{name}: {why}"
            );
        }
    }
}

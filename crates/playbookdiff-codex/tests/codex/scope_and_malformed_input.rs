//! What the Codex adapter lists and how it reports malformed input:
//!
//! * scope: only the root-to-cwd path, the subtree below cwd and the
//!   directories on the way to targetPath are listed, so one compilation
//!   costs what is in scope, not the size of the repository;
//! * entries named like files Codex reads that are not regular files, skill
//!   front matter of the wrong shape, MCP tables of the wrong shape: each is
//!   a diagnostic naming the file and, where it can, the line;
//! * messages say what is wrong in words, without the parsers' internals.
//!
//! Every repository is built in a temporary directory by the test.

use playbookdiff_model::{AnalysisContext, Applicability, Diagnostic, Mode, RepoPath, Severity};
use playbookdiff_source::{Repo, WorkingTree};
use std::path::Path;

use playbookdiff_testkit::fs::{fifo, mkdir, write};
use playbookdiff_testkit::{
    assert_contains, assert_says, diags, diags_at, lines, named_paths, one_at, rp, Kit,
};

static KIT: Kit = Kit::new(&playbookdiff_codex::ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// One package of a monorepo: an AGENTS.md, a skill and a config layer.
fn package(root: &Path, dir: &str) {
    write(root, &format!("{dir}/AGENTS.md"), format!("# {dir}\n"));
    write(
        root,
        &format!("{dir}/.agents/skills/build/SKILL.md"),
        "---\nname: build\ndescription: Build it.\n---\n",
    );
    write(
        root,
        &format!("{dir}/.codex/config.toml"),
        "project_doc_max_bytes = 65536\n",
    );
}

// ----- scope of what is listed -----

#[test]
fn sibling_packages_are_not_listed_only_the_subtree_below_cwd_and_the_target_path() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(root, "AGENTS.md", "# Root\n");
    package(root, "packages/a");
    package(root, "packages/a/nested");
    package(root, "packages/b");
    package(root, "packages/b/sub");

    // cwd packages/a: its own chain, and below it packages/a/nested; the
    // sibling packages/b is never named.
    let c = KIT.compile_at(root, "packages/a", None);
    let named = named_paths(&c);
    assert!(
        named.iter().all(|p| !p.starts_with("packages/b")),
        "{named:#?}"
    );
    for p in [
        "packages/a/nested/AGENTS.md",
        "packages/a/nested/.agents/skills/build/SKILL.md",
        "packages/a/nested/.codex/config.toml",
    ] {
        assert!(named.iter().any(|n| n == p), "{p} missing from {named:#?}");
    }
    let nested = c
        .instructions
        .iter()
        .find(|i| i.source.path.as_str() == "packages/a/nested/AGENTS.md")
        .expect("listed");
    assert_eq!(nested.applicability, Applicability::OutOfScope);

    // With a targetPath in packages/b/sub: the directories on its way are
    // listed (out of scope), but not what lies below them.
    let c = KIT.compile_at(root, "packages/a", Some("packages/b/sub/main.ts"));
    for p in ["packages/b/AGENTS.md", "packages/b/sub/AGENTS.md"] {
        let i = c
            .instructions
            .iter()
            .find(|i| i.source.path.as_str() == p)
            .unwrap_or_else(|| panic!("{p} not listed"));
        assert_eq!(i.applicability, Applicability::OutOfScope);
        assert!(
            i.reason.starts_with("On the way to targetPath"),
            "{}",
            i.reason
        );
    }
    let s = c
        .skills
        .iter()
        .find(|s| s.source.path.as_str() == "packages/b/sub/.agents/skills/build/SKILL.md")
        .expect("skill on the target's way listed");
    assert_eq!(s.applicability, Applicability::OutOfScope);
    assert_eq!(
        diags_at(
            &c,
            "config-layer-not-applied",
            "packages/b/sub/.codex/config.toml"
        )
        .len(),
        1
    );

    // From the root every package is below cwd: all listed.
    let c = KIT.compile_at(root, ".", None);
    let named = named_paths(&c);
    for p in ["packages/b/sub/AGENTS.md", "packages/a/nested/AGENTS.md"] {
        assert!(named.iter().any(|n| n == p), "{p} missing");
    }
}

#[test]
fn a_leaf_launch_directory_lists_the_same_few_items_however_many_packages_exist() {
    // The quadratic `check --all-dirs`: every package listed every other
    // package's files. Now a leaf package's result does not grow with the
    // number of packages, so all launch directories together stay linear.
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(root, "AGENTS.md", "# Root\n");
    let count_for = |packages: usize| -> usize {
        for i in 0..packages {
            let dir = format!("packages/p{i:04}");
            if !root.join(&dir).exists() {
                package(root, &dir);
            }
        }
        let c = KIT.compile_at(root, "packages/p0000", None);
        c.instructions.len() + c.skills.len() + c.diagnostics.len()
    };
    let small = count_for(3);
    let large = count_for(300);
    assert_eq!(small, large, "a leaf's result grows with the repository");

    let tree = WorkingTree::open(root).expect("opens");
    let repo = Repo::new(&tree);
    let mut total = 0usize;
    for i in 0..300 {
        let ctx = AnalysisContext {
            repository_root: RepoPath::root(),
            cwd: rp(&format!("packages/p{i:04}")),
            target_path: None,
            mode: Mode::Repo,
        };
        let c = KIT.adapter.compile(&repo, &ctx, None);
        total += c.instructions.len() + c.skills.len();
    }
    // Each leaf lists its own AGENTS.md and skill and the root AGENTS.md.
    assert_eq!(total, 300 * 3);
}

// ----- entries that are not regular files -----

#[test]
fn fifos_and_directories_named_like_codex_files_are_reported_not_loaded() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(root, "AGENTS.md", "# Root\n");
    // A directory named AGENTS.override.md: Codex skips it, AGENTS.md wins.
    mkdir(root, "AGENTS.override.md");
    fifo(root, "sub/AGENTS.md");
    mkdir(root, ".agents/skills/dir-skill/SKILL.md");
    fifo(root, ".agents/skills/fifo-skill/SKILL.md");
    fifo(root, "deep/below/.codex/config.toml");
    write(
        root,
        ".agents/skills/ok/SKILL.md",
        "---\nname: ok\ndescription: Fine.\n---\n",
    );
    fifo(root, ".agents/skills/ok/agents/openai.yaml");

    // Reading a FIFO would block: compiling must not try.
    let c = KIT.compile_at(root, "sub", None);
    let received: Vec<&str> = c
        .received_instructions()
        .iter()
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(received, ["AGENTS.md"]);

    let d = one_at(&c, "not-a-regular-file", "AGENTS.override.md");
    assert_says(d, "is a directory");
    assert_says(d, "tries the next name");
    let d = one_at(&c, "not-a-regular-file", "sub/AGENTS.md");
    assert_says(d, "FIFO");
    for p in [
        ".agents/skills/dir-skill/SKILL.md",
        ".agents/skills/fifo-skill/SKILL.md",
    ] {
        one_at(&c, "not-a-regular-file", p);
        assert!(
            c.skills.iter().all(|s| s.source.path.as_str() != p),
            "{p} listed"
        );
        assert!(
            diags(&c, "skill-missing-file").is_empty(),
            "{:#?}",
            c.diagnostics
        );
    }
    one_at(
        &c,
        "not-a-regular-file",
        ".agents/skills/ok/agents/openai.yaml",
    );

    // Below cwd, the FIFO layer is reported too, with the same message
    // from every launch directory above it.
    let layer = "deep/below/.codex/config.toml";
    let from_root = KIT.compile_at(root, ".", None);
    let from_deep = KIT.compile_at(root, "deep", None);
    let d = one_at(&from_root, "not-a-regular-file", layer);
    assert_eq!(
        d.message,
        one_at(&from_deep, "not-a-regular-file", layer).message
    );
    assert_eq!(
        d.severity,
        Severity::Warning,
        "the layer does not apply here"
    );
    assert!(diags_at(&from_root, "config-layer-not-applied", layer).is_empty());
    let d = one_at(&from_root, "not-a-regular-file", "sub/AGENTS.md");
    assert_says(d, "FIFO");
    assert!(from_root
        .instructions
        .iter()
        .all(|i| i.source.path.as_str() != "sub/AGENTS.md"));
}

/// A project `.codex/config.toml` that is a directory or a FIFO stops
/// Codex, as an invalid one does: Codex reads every project layer before
/// it looks at trust, and any failure but "not found" ends the load (a
/// FIFO blocks the read). Each kind, at the root and in a directory on
/// the way to cwd: a `not-a-regular-file` error, and the `config-refused`
/// error at that file that says to replace it; nothing is received.
#[test]
fn a_project_config_toml_that_is_not_a_regular_file_stops_codex() {
    type Make = fn(&Path, &str);
    let kinds: [(&str, Make); 2] = [("a directory", mkdir), ("a special file", fifo)];
    for (kind, make) in kinds {
        for layer in [".codex/config.toml", "pkg/.codex/config.toml"] {
            let t = tempfile::tempdir().expect("tempdir");
            let root = t.path();
            write(root, "AGENTS.md", "# Root\n");
            write(root, "pkg/AGENTS.md", "# Pkg\n");
            make(root, layer);
            // Reading a FIFO would block: compiling must not try.
            let c = KIT.compile_at(root, "pkg", None);
            let what = format!("{kind} at {layer}");
            let d = one_at(&c, "not-a-regular-file", layer);
            assert_eq!(d.severity, Severity::Error, "{what}");
            assert_says(d, kind);
            let refused = one_at(&c, "config-refused", layer);
            assert_says(refused, &format!("replace `{layer}` with a regular file"));
            assert!(
                c.received_instructions().is_empty(),
                "{what}: {:#?}",
                c.received_instructions()
            );
        }
    }
}

// ----- skill front matter -----

#[test]
fn skill_name_and_description_of_the_wrong_type_are_reported_at_their_lines() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(
        root,
        ".agents/skills/bad/SKILL.md",
        "---\nname: [1, 2]\ndescription: {a: b}\n---\nBody\n",
    );
    write(
        root,
        ".agents/skills/num/SKILL.md",
        "---\nname: 2024\ndescription: Dated.\n---\n",
    );
    let c = KIT.compile_at(root, ".", None);
    // serde_yaml stops at the first wrong field, as in Codex.
    let v = diags_at(&c, "skill-field-invalid", ".agents/skills/bad/SKILL.md");
    assert_eq!(v.len(), 1, "{:#?}", c.diagnostics);
    assert_says(v[0], "`name` as a list");
    assert_eq!(lines(v[0]), Some((2, 2)));
    assert!(
        diags(&c, "skill-field-missing").is_empty(),
        "a wrong type is not a missing field: {:#?}",
        c.diagnostics
    );
    let bad = c
        .skills
        .iter()
        .find(|s| s.directory_name == "bad")
        .expect("listed");
    assert_eq!(bad.applicability, Applicability::Excluded);
    // A number is read as text, as Codex reads it.
    let num = c
        .skills
        .iter()
        .find(|s| s.directory_name == "num")
        .expect("listed");
    assert_eq!(
        (num.name.as_str(), num.applicability),
        ("2024", Applicability::Effective)
    );
}

#[test]
fn unterminated_skill_front_matter_is_reported_as_never_closed() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(
        root,
        ".agents/skills/open/SKILL.md",
        "---\nname: open\ndescription: Never closed.\n\nBody\n",
    );
    let c = KIT.compile_at(root, ".", None);
    let d = one_at(&c, "invalid-frontmatter", ".agents/skills/open/SKILL.md");
    assert_says(d, "no later --- line closes it");
    assert_eq!(lines(d), Some((1, 1)));
    assert_eq!(c.skills[0].applicability, Applicability::Excluded);
    assert_contains(&c.skills[0].reason, "never closed");
}

#[test]
fn a_skill_md_that_is_not_utf8_is_reported_and_not_listed() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(
        root,
        ".agents/skills/latin1/SKILL.md",
        b"---\nname: latin1\ndescription: caf\xe9\n---\n",
    );
    let c = KIT.compile_at(root, ".", None);
    let d = one_at(&c, "invalid-utf8", ".agents/skills/latin1/SKILL.md");
    assert_eq!(lines(d), Some((3, 3)));
    assert_eq!(c.skills[0].applicability, Applicability::Excluded);
}

// ----- .codex/config.toml shapes -----

#[test]
fn mcp_servers_that_is_not_a_table_is_an_invalid_mcp_entry() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), ".codex/config.toml", "mcp_servers = 3\n");
    let c = KIT.compile_at(t.path(), ".", None);
    let d = one_at(&c, "mcp-invalid-entry", ".codex/config.toml");
    assert_says(d, "mcp_servers to an integer");
    assert_eq!(lines(d), Some((1, 1)));
    assert!(c.mcp_servers.is_empty());
}

#[test]
fn a_quoted_dotted_server_name_is_one_server_that_codex_refuses() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        ".codex/config.toml",
        "[mcp_servers.\"a.b\"]\ncommand = \"x\"\n\n[mcp_servers.c.d]\ncommand = \"y\"\n",
    );
    let c = KIT.compile_at(t.path(), ".", None);
    let names: Vec<&str> = c.mcp_servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["a.b", "c"],
        "\"a.b\" is one server, c.d a table in c"
    );
    let ab = &c.mcp_servers[0];
    assert_eq!(ab.id, "codex:mcp:a.b");
    assert_eq!(ab.applicability, Applicability::Excluded);
    assert!(ab.reason.contains("\"a.b\""), "{}", ab.reason);
    let v = diags(&c, "mcp-invalid-entry");
    assert!(
        v.iter()
            .any(|d| d.message.contains("name \"a.b\"") && lines(d) == Some((1, 2))),
        "{v:#?}"
    );
    assert!(
        v.iter().any(|d| d
            .message
            .contains("[mcp_servers.c.d] declares d inside server c")),
        "{v:#?}"
    );
}

#[test]
fn other_wrong_types_in_codex_config_are_reported_with_their_lines() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        ".codex/config.toml",
        "skills = 3\n\
         [mcp_servers.s]\n\
         command = \"run\"\n\
         startup_timeout_sec = \"soon\"\n\
         required = 1\n\
         env_vars = [{ source = \"local\" }]\n",
    );
    write(
        t.path(),
        "sub/.codex/config.toml",
        "[[skills.config]]\npath = 3\nenabled = false\n\n[[skills.config]]\npath = \"x/SKILL.md\"\nenabled = \"no\"\n",
    );
    let c = KIT.compile_at(t.path(), "sub", None);
    let root_invalid = diags_at(&c, "invalid-value", ".codex/config.toml");
    assert!(
        root_invalid
            .iter()
            .any(|d| d.message.contains("sets skills to an integer") && lines(d) == Some((1, 1))),
        "{:#?}",
        c.diagnostics
    );
    let mcp = diags_at(&c, "mcp-invalid-entry", ".codex/config.toml");
    for (part, line) in [
        ("startup_timeout_sec` in `.codex/config.toml` is a string where Codex expects a non-negative number of seconds", 4),
        ("required` in `.codex/config.toml` is an integer where Codex expects true or false", 5),
        ("a { name, source } table whose name is a variable name string", 6),
    ] {
        assert!(
            mcp.iter().any(|d| d.message.contains(part) && lines(d) == Some((line, line))),
            "{part}: {mcp:#?}"
        );
    }
    let sub = diags_at(&c, "invalid-value", "sub/.codex/config.toml");
    assert!(
        sub.iter()
            .any(|d| d.message.contains("sets path to an integer")),
        "{sub:#?}"
    );
    assert!(
        sub.iter()
            .any(|d| d.message.contains("sets enabled to a string")),
        "{sub:#?}"
    );
}

// ----- messages -----

#[test]
fn wrong_type_messages_say_what_is_wrong_not_just_the_type() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        ".codex/config.toml",
        "project_doc_fallback_filenames = [\"GUIDE.md\", 7]\nproject_doc_max_bytes = -5\n\n[mcp_servers.s]\ncommand = \"x\"\nargs = [\"--a\", true]\n",
    );
    let c = KIT.compile_at(t.path(), ".", None);
    let msgs: Vec<&str> = c.diagnostics.iter().map(|d| d.message.as_str()).collect();
    let has = |s: &str| msgs.iter().any(|m| m.contains(s));
    assert!(has("project_doc_fallback_filenames to an array whose items are not all strings (item 2 is an integer) where Codex expects an array of file names"), "{msgs:#?}");
    assert!(
        has("project_doc_max_bytes to a negative number (-5) where"),
        "{msgs:#?}"
    );
    assert!(has("args` in `.codex/config.toml` is an array whose items are not all strings (item 2 is a boolean)"), "{msgs:#?}");
    assert!(!msgs.iter().any(|m| m.contains("of type ")), "{msgs:#?}");
}

#[test]
fn a_config_that_is_not_utf8_is_invalid_toml_like_a_syntax_error() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), ".codex/config.toml", b"x = 1\ny = \"caf\xe9\"\n");
    write(t.path(), "a/.codex/config.toml", "x = = 1\n");
    let c = KIT.compile_at(t.path(), "a", None);
    let encoding = one_at(&c, "invalid-toml", ".codex/config.toml");
    let syntax = one_at(&c, "invalid-toml", "a/.codex/config.toml");
    assert_eq!(encoding.severity, Severity::Error);
    assert_eq!(encoding.severity, syntax.severity);
    assert_eq!(lines(encoding), Some((2, 2)));
    assert_says(encoding, "UTF-8");
    assert!(diags_at(&c, "invalid-utf8", ".codex/config.toml").is_empty());
}

#[test]
fn yaml_errors_are_in_words_and_give_only_the_file_line() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(
        root,
        ".agents/skills/nullkey/SKILL.md",
        "---\nname: nullkey\n~: value\ndescription: d\n---\n",
    );
    let deep = format!(
        "---\nname: deep\ndescription: d\nx: {}1{}\n---\n",
        "[".repeat(70),
        "]".repeat(70)
    );
    write(root, ".agents/skills/deep/SKILL.md", deep);
    write(
        root,
        ".agents/skills/dup/SKILL.md",
        "---\nname: dup\ndescription: d\nname: again\n---\n",
    );
    write(
        root,
        ".agents/skills/dup/agents/openai.yaml",
        "policy:\n  allow_implicit_invocation: false\n~: x\n",
    );
    let c = KIT.compile_at(root, ".", None);
    let internals = [
        "Option<",
        "deserialize",
        "Depth {",
        "budget",
        "DuplicateKeyPolicy",
        "column",
        "error:",
    ];
    let check = |d: &Diagnostic, line: u32, words: &str| {
        for i in internals {
            assert!(!d.message.contains(i), "{i:?} leaks in {}", d.message);
        }
        assert_says(d, words);
        assert_eq!(lines(d), Some((line, line)), "{}", d.message);
        assert_eq!(
            d.message.matches("line ").count(),
            1,
            "one line number, the file's: {}",
            d.message
        );
        assert_says(d, &format!("line {line}"));
    };
    check(
        one_at(&c, "invalid-frontmatter", ".agents/skills/dup/SKILL.md"),
        // serde_yaml places a duplicate key at the mapping's first line.
        2,
        "the key `name` appears twice",
    );
    // serde_yaml 0.9, as Codex uses it, ignores a null key and reads 70
    // levels of nesting: these skills load.
    for name in ["nullkey", "deep"] {
        let s = c.skills.iter().find(|s| s.name == name).expect("listed");
        assert_eq!(s.applicability, Applicability::Effective, "{name}");
    }
}

// ----- a file over the read limit -----

/// An `AGENTS.md` over the 4 MiB read limit: Codex reads each file through
/// `take(remaining)` (openai/codex `codex-rs/core/src/project_doc.rs`), so
/// it sends the first `project_doc_max_bytes` whatever the size. The
/// instruction holds exactly those bytes, cut there (a split UTF-8
/// character as U+FFFD, which is no `invalid-utf8` of the file), and one
/// story is told: the budget cut, never "unknown" or "over the limit".
/// With a budget beyond the read limit the text Codex sends is not read,
/// and the one diagnostic says so.
#[test]
fn an_agents_md_over_the_read_limit_sends_its_first_budget_bytes() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    mkdir(root, ".git");
    // "é" is two bytes: byte 32768 falls inside one.
    let text = format!("# Big\n\n{}", "é".repeat(3 * 1024 * 1024));
    assert!(text.len() > 4 * 1024 * 1024);
    write(root, "AGENTS.md", &text);
    let c = KIT.compile_at(root, ".", None);
    let i = &c.instructions[0];
    assert_eq!(i.applicability, Applicability::Effective);
    assert_eq!(i.bytes, text.len() as u64);
    assert_eq!(i.truncated_at_byte, Some(32768));
    let sent = String::from_utf8_lossy(&text.as_bytes()[..32768]);
    assert_eq!(i.content, sent);
    assert!(
        i.content.ends_with('\u{FFFD}'),
        "{:?}",
        &i.content[i.content.len() - 8..]
    );
    let at = |c: &playbookdiff_model::EffectiveAgentConfig| -> Vec<Diagnostic> {
        c.diagnostics
            .iter()
            .filter(|d| {
                d.source
                    .as_ref()
                    .is_some_and(|s| s.path.as_str() == "AGENTS.md")
            })
            .cloned()
            .collect()
    };
    let codes: Vec<&str> = at(&c).iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["instruction-budget-exceeded"],
        "{:#?}",
        c.diagnostics
    );

    write(
        root,
        ".codex/config.toml",
        "project_doc_max_bytes = 8388608\n",
    );
    let c = KIT.compile_at(root, ".", None);
    let i = &c.instructions[0];
    assert_eq!(i.applicability, Applicability::Effective);
    assert!(i.content.is_empty());
    let d = at(&c);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].code.as_str(), "file-too-large");
    assert_says(
        &d[0],
        "what Codex sends of it (up to project_doc_max_bytes = 8388608 bytes)",
    );
}

/// How many `config-refused` diagnostics `c` holds.
fn refusals(c: &playbookdiff_model::EffectiveAgentConfig) -> usize {
    c.diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "config-refused")
        .count()
}

/// Compiles, at the root, a repository whose `.codex/config.toml` holds a
/// comment and then `setting` (line 2), and checks that Codex refuses it:
/// one `config-refused` at line 2 and no instruction received. Returns the
/// repository (kept alive for further writes) and the refusal's message.
fn refused_at_line_two(setting: &str) -> (tempfile::TempDir, String) {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(root, "AGENTS.md", "# Root\n");
    write(root, ".codex/config.toml", format!("# c\n{setting}\n"));
    let c = KIT.compile_at(root, ".", None);
    assert_eq!(refusals(&c), 1, "{setting}: {:?}", c.diagnostics);
    let d = one_at(&c, "config-refused", ".codex/config.toml");
    assert_eq!(lines(d), Some((2, 2)), "{setting}");
    assert!(
        c.instructions
            .iter()
            .all(|i| i.applicability != Applicability::Effective),
        "{setting}: an instruction is still received"
    );
    let message = d.message.clone();
    (t, message)
}

/// Checks that Codex starts, at the root, in a repository whose
/// `.codex/config.toml` is `config`: no `config-refused`.
fn starts_with(config: &str) {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    write(root, "AGENTS.md", "# Root\n");
    write(root, ".codex/config.toml", config);
    let c = KIT.compile_at(root, ".", None);
    assert_eq!(refusals(&c), 0, "{config}: {:?}", c.diagnostics);
}

/// Codex 0.142.3 and 0.171.0 refuse a trusted project whose
/// `.codex/config.toml` gives a typed setting a value of another kind,
/// whatever the setting does (`model = 5`: "invalid type: integer `5`,
/// expected a string"; `approval_policy = 5`: "wanted string or table"),
/// and start when a closer layer replaces the wrong value, or when the key
/// is one Codex strips from project layers (`profile`).
#[test]
fn a_typed_setting_of_the_wrong_kind_stops_codex() {
    for (setting, says) in [
        ("model = 5", "model"),
        ("approval_policy = 5", "approval_policy"),
        ("model_context_window = \"big\"", "model_context_window"),
        ("hide_agent_reasoning = \"yes\"", "hide_agent_reasoning"),
        ("tools = 5", "tools"),
        ("mcp_servers = 5", "mcp_servers"),
    ] {
        let (t, message) = refused_at_line_two(setting);
        assert_contains(&message, says);

        // A closer layer's value of the right kind replaces it.
        let root = t.path();
        write(root, "a/AGENTS.md", "# A\n");
        let key = setting.split_once(" = ").unwrap().0;
        let fixed = match key {
            "model" => "\"x\"",
            "approval_policy" => "\"never\"",
            "model_context_window" => "1000",
            "hide_agent_reasoning" => "true",
            _ => "{}",
        };
        write(root, "a/.codex/config.toml", format!("{key} = {fixed}\n"));
        let c = KIT.compile_at(root, "a", None);
        assert_eq!(refusals(&c), 0, "{setting} replaced: {:?}", c.diagnostics);
    }
    // Right kinds, and a key Codex strips from project layers: it starts.
    starts_with(
        "model = \"gpt\"\napproval_policy = \"never\"\nprofile = 5\n[tools]\nweb_search = true\n",
    );
}

/// Codex 0.142.3 and 0.171.0 refuse a trusted project whose
/// `.codex/config.toml` gives an enum setting a string that is none of its
/// variants (`approval_policy = "bogus"`: "unknown variant `bogus`,
/// expected one of `untrusted`, `on-failure`, `on-request`, `granular`,
/// `never`"; seen with `codex debug prompt-input` of both releases for
/// each key below), start with each listed variant, and start with any
/// string in `model_reasoning_effort`.
#[test]
fn an_enum_setting_outside_its_variants_stops_codex() {
    for (key, good) in [
        ("approval_policy", "on-request"),
        ("sandbox_mode", "workspace-write"),
        ("model_reasoning_summary", "concise"),
        ("model_verbosity", "high"),
        ("file_opener", "vscode-insiders"),
        ("web_search", "cached"),
    ] {
        let (t, message) = refused_at_line_two(&format!("{key} = \"bogus\""));
        assert_contains(&message, key);
        assert_contains(&message, &format!("`{good}`"));
        assert!(!message.contains("bogus"), "the value is quoted: {message}");
        let root = t.path();
        write(root, ".codex/config.toml", format!("{key} = \"{good}\"\n"));
        let c = KIT.compile_at(root, ".", None);
        assert_eq!(refusals(&c), 0, "{key} = {good}: {:?}", c.diagnostics);
    }
    starts_with("model_reasoning_effort = \"bogus\"\n");
}

//! Property tests of every registered adapter on random repositories:
//! configuration files (JSON, TOML, Markdown with front matter and
//! imports) of random content, links inside, outside and in loops, odd
//! names. Never a panic, never a read outside the repository, never the
//! machine's path to it in the output, the same output on every run, and
//! the same output whether the launch directory's part of the tree or the
//! whole tree was walked.
//!
//! 48 cases under `cargo test`; set `PROPTEST_CASES` for a longer run.

use playbookdiff_model::{AnalysisContext, Mode, RepoPath};
use playbookdiff_source::{Repo, RepoOptions, WalkScope, WorkingTree};
use proptest::prelude::*;
use std::path::Path;

use playbookdiff_testkit::proptest_cases as cases;

const SECRET: &str = "OUTSIDE-THE-REPOSITORY";

/// Text made of the syntax of every format an adapter reads.
fn content() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("---\nname: s\ndescription: d\npaths: [\"src/**\", \"*.md\"]\n---\n".to_string()),
        Just("---\n".to_string()),
        Just("@AGENTS.md\n".to_string()),
        Just("@../../outside/secret.md\n".to_string()),
        Just("@/etc/passwd\n".to_string()),
        Just("@CLAUDE.md\n".to_string()),
        Just("```\n@code.md\n```\n".to_string()),
        Just(
            "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"K\": \"${K:-v}\"}}}}"
                .to_string()
        ),
        Just(
            "{\"permissions\": {\"deny\": [\"Read(./secret)\"]}, \"claudeMdExcludes\": [\"**\"]}"
                .to_string()
        ),
        Just("{\"a\": 1, \"a\": 2}".to_string()),
        Just("{".to_string()),
        Just("[mcp_servers.a]\ncommand = \"x\"\nurl = \"https://u:p@h\"\n".to_string()),
        Just("project_doc_fallback_filenames = [\"X.md\", \"../y.md\"]\n".to_string()),
        Just("project_doc_max_bytes = 3\n".to_string()),
        Just("[[skills.config]]\npath = \"/\"\n".to_string()),
        Just("= = =\n".to_string()),
        Just("\u{feff}\u{0}\u{202e}é\r\n".to_string()),
        "[ -~\n]{0,16}",
    ];
    prop::collection::vec(piece, 0..8).prop_map(|v| v.concat())
}

fn config_path() -> impl Strategy<Value = String> {
    let dir = prop_oneof![
        Just("".to_string()),
        Just("a/".to_string()),
        Just("a/b/".to_string()),
        Just("c/".to_string()),
    ];
    let file = prop_oneof![
        Just("CLAUDE.md"),
        Just("CLAUDE.local.md"),
        Just("AGENTS.md"),
        Just("AGENTS.override.md"),
        Just(".mcp.json"),
        Just(".claude/settings.json"),
        Just(".claude/settings.local.json"),
        Just(".claude/CLAUDE.md"),
        Just(".claude/rules/r.md"),
        Just(".claude/skills/s/SKILL.md"),
        Just(".agents/skills/s/SKILL.md"),
        Just(".codex/config.toml"),
        Just("X.md"),
        Just("-rf .md"),
        Just("new\nline.md"),
    ];
    (dir, file).prop_map(|(d, f)| format!("{d}{f}"))
}

#[derive(Debug, Clone)]
enum Spec {
    File(String, String),
    Link(String, String),
}

fn target() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("AGENTS.md".to_string()),
        Just("../AGENTS.md".to_string()),
        Just("../../outside/secret.md".to_string()),
        Just("../../outside".to_string()),
        Just("/".to_string()),
        Just(".".to_string()),
        Just("..".to_string()),
        Just("loop".to_string()),
        Just("skills".to_string()),
    ]
}

fn tree() -> impl Strategy<Value = Vec<Spec>> {
    let spec = prop_oneof![
        3 => (config_path(), content()).prop_map(|(p, t)| Spec::File(p, t)),
        1 => (config_path(), target()).prop_map(|(p, t)| Spec::Link(p, t)),
    ];
    prop::collection::vec(spec, 1..16)
}

fn lay_out(root: &Path, spec: &[Spec]) {
    for s in spec {
        let (p, _) = match s {
            Spec::File(p, _) | Spec::Link(p, _) => (root.join(p), ()),
        };
        if let Some(parent) = p.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = match s {
            Spec::File(_, t) => std::fs::write(&p, t),
            Spec::Link(_, t) => std::os::unix::fs::symlink(t, &p),
        };
    }
}

/// Every registered adapter's configuration as JSON, one per line.
fn compile_all(repo: &Repo<'_>, ctx: &AnalysisContext) -> String {
    playbookdiff_registry::adapters()
        .iter()
        .map(|a| serde_json::to_string(&a.compile(repo, ctx, None)).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn adapters_never_panic_never_escape_and_answer_the_same(
        spec in tree(),
        cwd in prop_oneof![Just("."), Just("a"), Just("a/b"), Just("c")],
        local in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/secret.md"), SECRET).unwrap();
        let root = dir.path().join("repo");
        // `create_dir_all("repo/.")` fails with NotFound: make the root first.
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(root.join(cwd)).unwrap();
        lay_out(&root, &spec);
        let _ = std::os::unix::fs::symlink("loop", root.join("loop"));
        let tree = WorkingTree::open(&root).unwrap();
        let mut ctx = AnalysisContext::at_root();
        ctx.cwd = RepoPath::new(cwd).unwrap();
        ctx.mode = if local { Mode::Local } else { Mode::Repo };

        let whole = Repo::new(&tree);
        let out = compile_all(&whole, &ctx);
        prop_assert!(!out.contains(SECRET));
        // Paths are repository-relative: the temporary directory's path
        // appears nowhere (serde_json writes `/` unescaped).
        prop_assert!(!out.contains(dir.path().to_str().unwrap()));
        // Stable across runs.
        prop_assert_eq!(&out, &compile_all(&Repo::new(&tree), &ctx));
        // Walking only what the launch directory needs changes nothing.
        let names: Vec<String> = playbookdiff_registry::adapters()
            .iter()
            .flat_map(|a| a.config_entry_names().iter().map(|n| n.to_string()))
            .collect();
        let scoped = Repo::with_options(&tree, RepoOptions {
            scope: WalkScope::Launch { cwd: ctx.cwd.clone(), entry_names: names },
            ..RepoOptions::default()
        });
        prop_assert_eq!(&out, &compile_all(&scoped, &ctx));
    }
}

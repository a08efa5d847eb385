//! Work, not time: how the work of `check` grows with the size of the
//! repository, measured as allocations (`playbookdiff_testkit::work`) of
//! the analysis run in this process (every registered adapter compiled on
//! one `Repo`, then compared and rendered as `check` renders it), each
//! test alone in a child process. Timings are the benchmark's
//! (`scripts/bench`, docs/performance.md).

use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Mode, RepoPath};
use playbookdiff_render::{check_text, CheckReport, Color, Gate, Via};
use playbookdiff_source::{Repo, WorkingTree};
use playbookdiff_testkit::work;
use std::path::Path;

/// A chain of `depth` nested directories `d/d/…`, each with an
/// `AGENTS.md` and a `CLAUDE.md` of the same text (as
/// `scripts/gen-deep-chain.py` makes it), in the git repository `root`.
pub(crate) fn deep_chain(root: &Path, depth: usize) {
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let mut d = root.to_path_buf();
    for level in 0..depth {
        let text = format!("# Level {level}\n\nUse pnpm at level {level}.\n");
        std::fs::write(d.join("AGENTS.md"), &text).unwrap();
        std::fs::write(d.join("CLAUDE.md"), &text).unwrap();
        d.push("d");
        std::fs::create_dir(&d).unwrap();
    }
}

/// `servers` MCP servers `s0…` named in `.mcp.json`, `.codex/config.toml`
/// and `opencode.json` (every third with another command for Codex, every
/// fifth for OpenCode) and `skills` skills in `.claude/skills`, in the
/// git repository `root`.
pub(crate) fn many_servers_and_skills(root: &Path, servers: usize, skills: usize) {
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join(".codex")).unwrap();
    let mut mcp = serde_json::Map::new();
    let mut open = serde_json::Map::new();
    let mut codex = String::new();
    for k in 0..servers {
        mcp.insert(format!("s{k}"), serde_json::json!({"command": "x"}));
        let c = if k % 5 == 0 { "z" } else { "x" };
        open.insert(
            format!("s{k}"),
            serde_json::json!({"type": "local", "command": [c]}),
        );
        let c = if k % 3 == 0 { "y" } else { "x" };
        codex.push_str(&format!("[mcp_servers.s{k}]\ncommand = \"{c}\"\n\n"));
    }
    for k in 0..skills {
        let d = root.join(format!(".claude/skills/sk{k}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: sk{k}\ndescription: skill {k}\n---\nbody\n"),
        )
        .unwrap();
    }
    std::fs::write(
        root.join(".mcp.json"),
        serde_json::json!({ "mcpServers": mcp }).to_string(),
    )
    .unwrap();
    std::fs::write(
        root.join("opencode.json"),
        serde_json::json!({ "mcp": open }).to_string(),
    )
    .unwrap();
    std::fs::write(root.join(".codex/config.toml"), codex).unwrap();
}

/// `check` of `repo` launched in `cwd`, as text: every registered adapter
/// compiled, compared and rendered.
fn check(repo: &Repo<'_>, cwd: RepoPath) -> String {
    let context = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd,
        target_path: None,
        mode: Mode::Repo,
    };
    let configs: Vec<EffectiveAgentConfig> = playbookdiff_registry::adapters()
        .iter()
        .map(|a| a.compile(repo, &context, None))
        .collect();
    let comparison = playbookdiff_compare::compare(&configs.iter().collect::<Vec<_>>());
    let (via, gate) = (Via::default(), Gate::default());
    check_text(
        &CheckReport {
            repository: ".",
            context: &context,
            configs: &configs,
            comparison: &comparison,
            via: &via,
            gate: &gate,
        },
        Color::Plain,
    )
}

/// Many MCP servers and skills: twice the servers and skills cost about
/// twice the work (x1.99), so no step that allocates per pair of servers
/// or skills has crept in. Its limit: the quadratic steps fixed before
/// (merging Claude Code's `.mcp.json` chain, the transport of each MCP
/// finding and OpenCode's skill-name collisions each scanned every other
/// server or skill, docs/performance.md, "Many MCP servers and skills")
/// only compared names, allocated nothing per pair, and measure x1.99
/// here too; the benchmark's timings (`scripts/bench`) watch that kind.
#[test]
fn the_work_of_check_on_many_servers_and_skills_grows_linearly() {
    if !playbookdiff_testkit::alone!("the_work_of_check_on_many_servers_and_skills_grows_linearly")
    {
        return;
    }
    let ratio = work::growth(
        crate::ALLOCATOR,
        1500,
        |n| {
            let dir = tempfile::tempdir().unwrap();
            many_servers_and_skills(dir.path(), n, n / 10);
            dir
        },
        |dir| {
            let tree = WorkingTree::open(dir.path()).unwrap();
            let repo = Repo::new(&tree);
            let text = check(&repo, RepoPath::root());
            assert!(text.contains("skills only Claude Code, Copilot CLI, Cursor and OpenCode"));
        },
    );
    assert!(ratio < 2.6, "x{ratio:.2} for twice the servers and skills");
}

/// `check --all-dirs` on a chain of nested directories: every launch
/// directory compiles its whole chain, so the work is quadratic in the
/// depth (docs/performance.md, "Deep nesting"): twice the depth, about
/// four times the work. One more factor of the depth (eight times) fails.
#[test]
fn the_work_of_a_deep_chain_grows_with_the_square_of_its_depth() {
    if !playbookdiff_testkit::alone!("the_work_of_a_deep_chain_grows_with_the_square_of_its_depth")
    {
        return;
    }
    let ratio = work::growth(
        crate::ALLOCATOR,
        30,
        |depth| {
            let dir = tempfile::tempdir().unwrap();
            deep_chain(dir.path(), depth);
            (dir, depth)
        },
        |(dir, depth)| {
            let tree = WorkingTree::open(dir.path()).unwrap();
            let repo = Repo::new(&tree);
            let mut cwd = RepoPath::root();
            for _ in 0..*depth {
                check(&repo, cwd.clone());
                cwd = cwd.join("d").unwrap();
            }
        },
    );
    assert!(
        ratio > 2.5 && ratio < 5.5,
        "x{ratio:.2} for twice the depth"
    );
}

//! Hostile input terminates with diagnostics, never a panic or a hang:
//! symlink loops, a link to `/`, a 50 MB CLAUDE.md, invalid UTF-8, a YAML
//! alias bomb, a 2,000-deep directory chain, a 1,000-file import chain.
//! How the work of each grows with its size (allocations, not time) is
//! `hostile_input_costs_work_linear_in_its_size`.

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{
    AnalysisContext, DiagnosticCode, EffectiveAgentConfig, InstructionKind, RepoPath,
};
use playbookdiff_source::{Repo, WorkingTree};
use std::os::unix::fs::symlink;
use std::path::Path;

fn compile_at(root: &Path, cwd: &str, target: Option<&str>) -> EffectiveAgentConfig {
    let tree = WorkingTree::open(root).unwrap();
    let repo = Repo::new(&tree);
    let mut ctx = AnalysisContext::at_root();
    ctx.cwd = RepoPath::new(cwd).unwrap();
    ctx.target_path = target.map(|t| RepoPath::new(t).unwrap());
    let cfg = playbookdiff_claude::ADAPTER.compile(&repo, &ctx, None);
    // The result must always serialize.
    serde_json::to_string(&cfg).unwrap();
    cfg
}

fn has(cfg: &EffectiveAgentConfig, code: DiagnosticCode) -> bool {
    cfg.diagnostics.iter().any(|d| d.code == code)
}

#[test]
fn symlink_loops_and_a_link_to_slash_are_diagnosed_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    std::fs::create_dir_all(r.join(".claude/skills")).unwrap();
    std::fs::create_dir_all(r.join(".claude/rules")).unwrap();
    symlink("b", r.join("a")).unwrap();
    symlink("a", r.join("b")).unwrap();
    symlink("LOOP.md", r.join("LOOP.md")).unwrap();
    symlink(".claude/CLAUDE.md", r.join("CLAUDE.md")).unwrap();
    symlink("/", r.join(".claude/skills/everything")).unwrap();
    symlink("..", r.join(".claude/rules/up")).unwrap();
    symlink("/", r.join("slash")).unwrap();
    std::fs::write(r.join(".claude/CLAUDE.md"), "loop\n").unwrap();
    std::fs::write(r.join("AGENTS.md"), "see @slash/etc/passwd and @LOOP.md\n").unwrap();
    std::fs::create_dir_all(r.join("sub")).unwrap();
    std::fs::write(r.join("sub/CLAUDE.md"), "@../AGENTS.md\n").unwrap();
    let cfg = compile_at(r, ".", Some("sub/x"));
    assert!(
        has(&cfg, DiagnosticCode::SymlinkLoop),
        "{:#?}",
        cfg.diagnostics
    );
    assert!(has(&cfg, DiagnosticCode::SymlinkOutsideRepository));
    assert!(has(&cfg, DiagnosticCode::ImportOutsideRepository));
    // Nothing from outside the repository was read.
    assert!(cfg.skills.is_empty());
    assert!(cfg
        .instructions
        .iter()
        .all(|i| !i.content.contains("root:")));
}

#[test]
fn a_50_mb_claude_md_is_skipped_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let big = vec![b'x'; 50 * 1024 * 1024];
    std::fs::write(dir.path().join("CLAUDE.md"), &big).unwrap();
    let cfg = compile_at(dir.path(), ".", None);
    assert!(has(&cfg, DiagnosticCode::FileTooLarge));
    assert!(cfg.instructions.is_empty());
}

#[test]
fn invalid_utf8_is_read_lossily_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("CLAUDE.md"), b"ok \xff\xfe @\xc3(.md\n").unwrap();
    let cfg = compile_at(dir.path(), ".", None);
    assert!(has(&cfg, DiagnosticCode::InvalidUtf8));
    assert_eq!(cfg.instructions.len(), 1);
    assert!(cfg.instructions[0].content.contains('\u{FFFD}'));
}

#[test]
fn a_yaml_alias_bomb_in_front_matter_is_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let mut y = String::from(
        "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        y.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], refs));
    }
    y.push_str("paths: [\"src/**\"]\n---\nbody\n");
    std::fs::create_dir_all(r.join(".claude/rules")).unwrap();
    std::fs::create_dir_all(r.join(".claude/skills/bomb")).unwrap();
    std::fs::write(r.join(".claude/rules/bomb.md"), &y).unwrap();
    std::fs::write(r.join(".claude/skills/bomb/SKILL.md"), &y).unwrap();
    let cfg = compile_at(r, ".", None);
    let n = cfg
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::InvalidFrontmatter)
        .count();
    assert_eq!(n, 2, "{:#?}", cfg.diagnostics);
    assert_eq!(
        cfg.skills.len(),
        1,
        "the skill still loads with empty metadata"
    );
}

#[test]
fn a_2000_deep_directory_chain_terminates() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let mut rel = String::new();
    for _ in 0..2000 {
        rel.push_str("a/");
    }
    // The deepest level may exceed the OS path limit: create what fits.
    let mut made = String::new();
    let mut cur = r.to_path_buf();
    for _ in 0..2000 {
        cur.push("a");
        if std::fs::create_dir(&cur).is_err() {
            break;
        }
        made.push_str("a/");
    }
    std::fs::write(r.join("CLAUDE.md"), "root\n").unwrap();
    let _ = std::fs::write(r.join(&made).join("CLAUDE.md"), "deep\n");
    let deep_cwd = made.trim_end_matches('/').to_string();
    let half = "a/".repeat(made.len() / 4);
    let cfg = compile_at(r, ".", Some(&format!("{deep_cwd}/f.ts")));
    assert_eq!(cfg.instructions[0].source.path.as_str(), "CLAUDE.md");
    let cfg = compile_at(r, half.trim_end_matches('/'), None);
    assert_eq!(cfg.instructions[0].order, Some(0));
    let _ = rel;
}

#[test]
fn an_import_chain_of_1000_files_stops_at_four_hops() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    std::fs::write(r.join("CLAUDE.md"), "start @f0.md\n").unwrap();
    for i in 0..1000 {
        std::fs::write(
            r.join(format!("f{i}.md")),
            format!("file {i} @f{}.md\n", i + 1),
        )
        .unwrap();
    }
    let cfg = compile_at(r, ".", None);
    assert!(has(&cfg, DiagnosticCode::ImportDepthExceeded));
    let imported: Vec<&str> = cfg
        .instructions
        .iter()
        .filter(|i| i.kind == InstructionKind::Import)
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(imported, ["f0.md", "f1.md", "f2.md", "f3.md"]);
}

/// `n` pairs of links that lead to each other and `n` links to `/` under
/// `.claude/skills` and `.claude/rules`.
fn link_loops(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    std::fs::create_dir_all(r.join(".claude/skills")).unwrap();
    std::fs::create_dir_all(r.join(".claude/rules")).unwrap();
    for i in 0..n {
        symlink(format!("b{i}"), r.join(format!("a{i}"))).unwrap();
        symlink(format!("a{i}"), r.join(format!("b{i}"))).unwrap();
        symlink("/", r.join(format!(".claude/skills/all{i}"))).unwrap();
        symlink("..", r.join(format!(".claude/rules/up{i}"))).unwrap();
    }
    std::fs::write(r.join("CLAUDE.md"), "see @a0 and @b0\n").unwrap();
    dir
}

/// A rule and a skill whose front matter is a YAML alias bomb of `levels`
/// levels (each nine references to the one before).
fn alias_bomb(levels: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let mut y = String::from(
        "---\nl0: &l0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for l in 1..levels {
        let refs = vec![format!("*l{}", l - 1); 9].join(",");
        y.push_str(&format!("l{l}: &l{l} [{refs}]\n"));
    }
    y.push_str("paths: [\"src/**\"]\n---\nbody\n");
    std::fs::create_dir_all(r.join(".claude/rules")).unwrap();
    std::fs::create_dir_all(r.join(".claude/skills/bomb")).unwrap();
    std::fs::write(r.join(".claude/rules/bomb.md"), &y).unwrap();
    std::fs::write(r.join(".claude/skills/bomb/SKILL.md"), &y).unwrap();
    dir
}

/// A chain of `depth` directories `a/a/…` with a `CLAUDE.md` at the root
/// and at the bottom, and the bottom's path.
fn deep(depth: usize) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let rel = vec!["a"; depth].join("/");
    std::fs::create_dir_all(dir.path().join(&rel)).unwrap();
    std::fs::write(dir.path().join("CLAUDE.md"), "root\n").unwrap();
    std::fs::write(dir.path().join(&rel).join("CLAUDE.md"), "deep\n").unwrap();
    (dir, rel)
}

/// A chain of `n` files, each importing the next, from `CLAUDE.md`.
fn import_chain(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    std::fs::write(r.join("CLAUDE.md"), "start @f0.md\n").unwrap();
    for i in 0..n {
        std::fs::write(
            r.join(format!("f{i}.md")),
            format!("file {i} @f{}.md\n", i + 1),
        )
        .unwrap();
    }
    dir
}

/// A CLAUDE.md of `mib` MiB, over the size limit.
fn big_file(mib: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("CLAUDE.md"), vec![b'x'; mib * 1024 * 1024]).unwrap();
    dir
}

/// Hostile input costs work (allocations, alone in a child process) at
/// most linear in its size, so none of it can make a compilation blow up:
/// twice the link loops, twice the alias levels (each level nine times the
/// text an expansion would give), twice the depth, twice the import chain
/// (of which four hops are read) and twice the size of a file over the
/// limit cost at most about twice the work.
#[test]
fn hostile_input_costs_work_linear_in_its_size() {
    if !playbookdiff_testkit::alone!("hostile_input_costs_work_linear_in_its_size") {
        return;
    }
    let grows =
        |what: &str, ratio: f64| assert!(ratio < 2.6, "{what}: x{ratio:.2} for twice the size");
    let compile = |t: &tempfile::TempDir| {
        compile_at(t.path(), ".", None);
    };
    let a = crate::ALLOCATOR;
    grows(
        "link loops",
        playbookdiff_testkit::work::growth(a, 20, link_loops, compile),
    );
    grows(
        "alias bomb",
        playbookdiff_testkit::work::growth(a, 5, alias_bomb, compile),
    );
    grows(
        "import chain",
        playbookdiff_testkit::work::growth(a, 500, import_chain, compile),
    );
    grows(
        "file over the limit",
        playbookdiff_testkit::work::growth(a, 8, big_file, compile),
    );
    grows(
        "deep chain",
        playbookdiff_testkit::work::growth(a, 400, deep, |(t, rel)| {
            compile_at(t.path(), ".", Some(&format!("{rel}/f.ts")));
        }),
    );
}

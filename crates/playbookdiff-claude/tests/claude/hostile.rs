//! Hostile input terminates with diagnostics, never a panic or a hang:
//! symlink loops, a link to `/`, a 50 MB CLAUDE.md, invalid UTF-8, a YAML
//! alias bomb, a 2,000-deep directory chain, a 1,000-file import chain.

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{AnalysisContext, DiagnosticCode, EffectiveAgentConfig, RepoPath};
use playbookdiff_source::{Repo, WorkingTree};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::{Duration, Instant};

fn compile_at(root: &Path, cwd: &str, target: Option<&str>) -> (EffectiveAgentConfig, Duration) {
    let start = Instant::now();
    let tree = WorkingTree::open(root).unwrap();
    let repo = Repo::new(&tree);
    let mut ctx = AnalysisContext::at_root();
    ctx.cwd = RepoPath::new(cwd).unwrap();
    ctx.target_path = target.map(|t| RepoPath::new(t).unwrap());
    let cfg = playbookdiff_claude::ADAPTER.compile(&repo, &ctx, None);
    // The result must always serialize.
    serde_json::to_string(&cfg).unwrap();
    (cfg, start.elapsed())
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
    let (cfg, took) = compile_at(r, ".", Some("sub/x"));
    assert!(took < Duration::from_secs(20));
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
    let (cfg, took) = compile_at(dir.path(), ".", None);
    assert!(took < Duration::from_secs(20));
    assert!(has(&cfg, DiagnosticCode::FileTooLarge));
    assert!(cfg.instructions.is_empty());
}

#[test]
fn invalid_utf8_is_read_lossily_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("CLAUDE.md"), b"ok \xff\xfe @\xc3(.md\n").unwrap();
    let (cfg, _) = compile_at(dir.path(), ".", None);
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
    let (cfg, took) = compile_at(r, ".", None);
    assert!(took < Duration::from_secs(20));
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
    let (cfg, took) = compile_at(r, ".", Some(&format!("{deep_cwd}/f.ts")));
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert_eq!(cfg.instructions[0].source.path.as_str(), "CLAUDE.md");
    let (cfg, _) = compile_at(r, half.trim_end_matches('/'), None);
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
    let (cfg, took) = compile_at(r, ".", None);
    assert!(took < Duration::from_secs(20));
    assert!(has(&cfg, DiagnosticCode::ImportDepthExceeded));
    let imported: Vec<&str> = cfg
        .instructions
        .iter()
        .filter(|i| i.kind == "import")
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(imported, ["f0.md", "f1.md", "f2.md", "f3.md"]);
}

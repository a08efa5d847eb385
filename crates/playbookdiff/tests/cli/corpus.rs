//! The real binary on real repositories: every repository of the shared
//! corpus (`../shared/corpus/<owner>__<name>/`, relative to the project
//! root), in both its forms (`repo.tar` extracted with its symbolic links,
//! dangling ones included, and `repo/` with links stored as text), for both
//! harnesses, launched at the root and in two nested directories that hold
//! instruction files; then a table of facts checked by hand against the
//! corpus files (`repo/`).
//!
//! The corpus is not part of this repository. When `../shared/corpus` is
//! absent (a clone elsewhere), every test here prints a visible `skipped`
//! line and passes.

use assert_cmd::Command;
use playbookdiff_testkit::corpus::Form;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use playbookdiff_testkit::corpus as support;

const HARNESSES: [&str; 2] = ["claude-code", "codex"];

/// `../shared/corpus` from the project root, when it exists; otherwise a
/// visible `skipped` line naming `test`.
fn corpus_root(test: &str) -> Option<PathBuf> {
    support::corpus_root(test)
}

/// Every `<owner>__<name>` with its `repo/` directory, sorted by name.
fn repositories(corpus: &Path) -> Vec<(String, PathBuf)> {
    support::repositories(corpus)
        .into_iter()
        .map(|n| {
            let p = corpus.join(&n).join("repo");
            (n, p)
        })
        .collect()
}

/// Names whose presence makes a directory hold instruction files.
const INSTRUCTION_ENTRIES: [&str; 6] = [
    "CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.md",
    "AGENTS.override.md",
    ".claude",
    ".agents",
];

/// Two nested launch directories of `repo`, chosen deterministically.
///
/// Candidates, in order of preference: directories holding a CLAUDE.md,
/// AGENTS.md, `.claude` or `.agents` entry; then directories holding a
/// `SKILL.md`; then any directory. From each class in turn, take the deepest
/// (ties: the first path in byte order), then the shallowest, until two are
/// chosen. The root is never a candidate; links are not followed.
fn nested_launch_dirs(repo: &Path) -> Vec<String> {
    let mut instruction_dirs = Vec::new();
    let mut skill_dirs = Vec::new();
    let mut all_dirs = Vec::new();
    let mut stack = vec![String::new()];
    while let Some(rel) = stack.pop() {
        let dir = if rel.is_empty() {
            repo.to_path_buf()
        } else {
            repo.join(&rel)
        };
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            if entry.file_type().unwrap().is_dir() && name != ".git" {
                stack.push(if rel.is_empty() {
                    name.clone()
                } else {
                    format!("{rel}/{name}")
                });
            }
            names.push(name);
        }
        if rel.is_empty() {
            continue;
        }
        if names
            .iter()
            .any(|n| INSTRUCTION_ENTRIES.contains(&n.as_str()))
        {
            instruction_dirs.push(rel.clone());
        }
        if names.iter().any(|n| n == "SKILL.md") {
            skill_dirs.push(rel.clone());
        }
        all_dirs.push(rel);
    }
    let depth = |p: &String| p.matches('/').count();
    let mut chosen: Vec<String> = Vec::new();
    for mut class in [instruction_dirs, skill_dirs, all_dirs] {
        class.sort();
        let deepest = class
            .iter()
            .filter(|p| !chosen.contains(p))
            .max_by(|a, b| depth(a).cmp(&depth(b)).then_with(|| b.cmp(a)))
            .cloned();
        chosen.extend(deepest.filter(|_| chosen.len() < 2));
        let shallowest = class
            .iter()
            .filter(|p| !chosen.contains(p))
            .min_by(|a, b| depth(a).cmp(&depth(b)).then_with(|| a.cmp(b)))
            .cloned();
        chosen.extend(shallowest.filter(|_| chosen.len() < 2));
    }
    chosen
}

fn playbookdiff() -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

/// Runs `compile` and returns (status, stdout, stderr).
fn run(
    repo: &Path,
    harness: &str,
    cwd: &str,
    target: Option<&str>,
    format: &str,
) -> (i32, String, String) {
    // `claude-code@2.1.197` models that release (`--agent-version`).
    let (harness, version) = match harness.split_once('@') {
        Some((h, v)) => (h, Some(v)),
        None => (harness, None),
    };
    let mut cmd = playbookdiff();
    cmd.arg("compile")
        .arg(repo)
        .args(["--harness", harness, "--cwd", cwd, "--format", format]);
    if let Some(v) = version {
        cmd.arg("--agent-version").arg(format!("{harness}={v}"));
    }
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Compiles to JSON, asserting status 0, an empty standard error (so no
/// panic message) and a version-1 document for this harness and cwd.
fn compile_json(repo: &Path, harness: &str, cwd: &str, target: Option<&str>) -> Value {
    let what = format!(
        "{} --harness {harness} --cwd {cwd} --target {target:?}",
        repo.display()
    );
    let (status, stdout, stderr) = run(repo, harness, cwd, target, "json");
    assert_eq!(status, 0, "{what}: status {status}, stderr {stderr}");
    assert!(stderr.is_empty(), "{what}: stderr {stderr}");
    let v: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{what}: not JSON ({e})"));
    assert_eq!(v["schemaVersion"], 1, "{what}");
    assert_eq!(
        v["harness"],
        harness.split('@').next().unwrap_or(harness),
        "{what}"
    );
    assert_eq!(v["context"]["cwd"], cwd, "{what}");
    v
}

/// What every result must satisfy, whatever the repository: unique ids,
/// `importedFrom` and cross-references naming existing entries, effective
/// instructions numbered 0..n, every source path present in the repository.
fn check_invariants(repo: &Path, v: &Value, what: &str) {
    let items: Vec<&Value> = ["instructions", "skills", "mcpServers"]
        .iter()
        .flat_map(|k| v[*k].as_array().unwrap())
        .collect();
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "{what}: duplicate ids in {ids:?}");
    for i in &items {
        if let Some(from) = i.get("importedFrom").and_then(Value::as_str) {
            assert!(
                unique.contains(from),
                "{what}: {} imported from unknown {from}",
                i["id"]
            );
        }
        for r in i
            .get("crossReferences")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            assert!(
                unique.contains(r),
                "{what}: {} refers to unknown {r}",
                i["id"]
            );
        }
        let path = i["source"]["path"].as_str().unwrap();
        assert!(
            std::fs::symlink_metadata(repo.join(path)).is_ok(),
            "{what}: {path} is not in the repository"
        );
    }
    let instructions = v["instructions"].as_array().unwrap();
    let mut orders: Vec<u64> = instructions
        .iter()
        .filter_map(|i| i["order"].as_u64())
        .collect();
    orders.sort_unstable();
    assert_eq!(
        orders,
        (0..orders.len() as u64).collect::<Vec<_>>(),
        "{what}"
    );
    for i in instructions {
        assert_eq!(
            i["order"].is_u64(),
            i["applicability"] == "effective",
            "{what}: {} has order {} but is {}",
            i["id"],
            i["order"],
            i["applicability"]
        );
    }
}

#[test]
fn every_repository_compiles_for_both_harnesses_at_the_root_and_two_nested_directories() {
    let Some(corpus) = corpus_root("every_repository_compiles") else {
        return;
    };
    let repos = support::repositories(&corpus);
    assert!(!repos.is_empty(), "the corpus holds no repository");
    for name in &repos {
        for form in Form::BOTH {
            let tree = support::materialize(&corpus, name, form);
            let repo = &tree.root;
            let nested = nested_launch_dirs(repo);
            assert_eq!(nested.len(), 2, "{name} ({form:?}): {nested:?}");
            for cwd in std::iter::once(".".to_string()).chain(nested) {
                for harness in HARNESSES {
                    let what = format!("{name} ({form:?}) --harness {harness} --cwd {cwd}");
                    let v = compile_json(repo, harness, &cwd, None);
                    check_invariants(repo, &v, &what);
                    let (status, text, stderr) = run(repo, harness, &cwd, None, "text");
                    assert_eq!(status, 0, "{what}: text format, stderr {stderr}");
                    assert!(stderr.is_empty(), "{what}: {stderr}");
                    assert!(
                        text.starts_with(&format!(
                            "PlaybookDiff: {}\n",
                            playbookdiff_registry::by_id(harness)
                                .unwrap()
                                .harness()
                                .display_name()
                        )),
                        "{what}"
                    );
                }
            }
        }
    }
}

/// The extracted `repo.tar` holds real symbolic links, some dangling
/// (biome's `CLAUDE.md` points at a `CONTRIBUTING.md` the corpus does not
/// carry). From the directory holding each dangling link, both harnesses
/// compile with status 0 and no standard error, and no effective
/// instruction claims the link's text.
#[test]
fn dangling_links_of_the_extracted_corpus_compile_without_a_panic() {
    let Some(corpus) = corpus_root("dangling_links_of_the_extracted_corpus") else {
        return;
    };
    let mut dangling = 0;
    for name in support::repositories(&corpus) {
        let tree = support::materialize(&corpus, &name, Form::Tar);
        for entry in walk(&tree.root) {
            let is_link = std::fs::symlink_metadata(&entry)
                .unwrap()
                .file_type()
                .is_symlink();
            if !is_link || std::fs::metadata(&entry).is_ok() {
                continue;
            }
            dangling += 1;
            let rel = entry.strip_prefix(&tree.root).unwrap();
            let dir = rel
                .parent()
                .map(|p| p.to_string_lossy().into_owned())
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| ".".into());
            let rel = rel.to_string_lossy().into_owned();
            for harness in HARNESSES {
                let v = compile_json(&tree.root, harness, &dir, None);
                let claimed = v["instructions"].as_array().unwrap().iter().any(|i| {
                    i["source"]["path"] == rel.as_str() && i["applicability"] == "effective"
                });
                assert!(!claimed, "{name} {harness}: dangling {rel} is effective");
            }
        }
    }
    assert!(dangling > 0, "no dangling link in any repo.tar");
}

/// Every path under `root`, links not followed.
fn walk(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The launch directories are chosen by rule, not by hand: pin the choice
/// for two repositories so that a change to the rule is noticed.
#[test]
fn nested_launch_directories_are_chosen_deterministically() {
    let Some(corpus) = corpus_root("nested_launch_directories_are_chosen_deterministically") else {
        return;
    };
    let dirs = |name: &str| nested_launch_dirs(&corpus.join(name).join("repo"));
    assert_eq!(dirs("AnthusAI__Kanbus"), ["apps/console", "project"]);
    assert_eq!(
        dirs("triggerdotdev__trigger.dev"),
        ["apps/supervisor", "docs"]
    );
    for (name, repo) in repositories(&corpus) {
        assert_eq!(
            nested_launch_dirs(&repo),
            nested_launch_dirs(&repo),
            "{name}"
        );
    }
}

/// One expectation about a compiled result.
enum Expect {
    /// The source paths of the effective instructions, in received order.
    Chain(&'static [&'static str]),
    /// Every piece taken from `path` has this applicability.
    Instruction(&'static str, &'static str),
    /// The piece taken from `path` is exactly this text.
    Content(&'static str, &'static str),
    /// The names of the skills listed, sorted (any applicability).
    SkillNames(&'static [&'static str]),
    /// The number of skills listed with this applicability.
    SkillCount(&'static str, usize),
    /// The implicit-invocation policy of skill `name`.
    SkillImplicit(&'static str, &'static str),
    /// MCP server `name`: its applicability and source file.
    Mcp(&'static str, &'static str, &'static str),
    /// No MCP server is listed.
    NoMcp,
    /// A diagnostic with this code whose message contains the text.
    Diagnostic(&'static str, &'static str),
    /// No diagnostic with this code.
    NoDiagnostic(&'static str),
    /// No diagnostic with this code whose source is this path.
    NoDiagnosticAt(&'static str, &'static str),
}

/// A fact about one repository under one context.
struct Fact {
    repo: &'static str,
    harness: &'static str,
    cwd: &'static str,
    target: Option<&'static str>,
    expect: Expect,
}

const fn fact(
    repo: &'static str,
    harness: &'static str,
    cwd: &'static str,
    expect: Expect,
) -> Fact {
    Fact {
        repo,
        harness,
        cwd,
        target: None,
        expect,
    }
}

const fn fact_for(
    repo: &'static str,
    harness: &'static str,
    cwd: &'static str,
    target: &'static str,
    expect: Expect,
) -> Fact {
    Fact {
        repo,
        harness,
        cwd,
        target: Some(target),
        expect,
    }
}

const CC: &str = "claude-code";
/// Claude Code 2.1.197, before the AGENTS.md fallback of 2.1.281.
const CC_2_1_197: &str = "claude-code@2.1.197";
const CX: &str = "codex";

/// Facts checked by hand against the corpus files (listing the tree, reading
/// the files). The comment above each says what was checked.
///
/// Several corpus files are symbolic links stored as plain text: a 9-byte
/// `CLAUDE.md` holding `AGENTS.md`, a `.claude/skills` or `.agents/skills`
/// file holding `../...`. The facts below pin what the tool does with them
/// today: it reads them as the plain files they are on disk, and flags a
/// CLAUDE.md that holds only a file name.
#[rustfmt::skip]
const FACTS: &[Fact] = &[
    // --- AnthusAI__Kanbus ---
    // Root has AGENTS.override.md (606 bytes) and AGENTS.md; project/ and
    // project/issues/ each have an AGENTS.md. Codex takes one file per
    // directory, override first, root down to cwd.
    fact("AnthusAI__Kanbus", CX, "project/issues", Expect::Chain(&["AGENTS.override.md", "project/AGENTS.md", "project/issues/AGENTS.md"])),
    // The root AGENTS.override.md shadows the root AGENTS.md.
    fact("AnthusAI__Kanbus", CX, ".", Expect::Instruction("AGENTS.md", "shadowed")),
    // No CLAUDE.md anywhere in the tree: Claude Code before 2.1.281 gets no
    // instruction...
    fact("AnthusAI__Kanbus", CC_2_1_197, "apps/console", Expect::Chain(&[])),
    // ...and apps/console/AGENTS.md has no CLAUDE.md beside it.
    fact("AnthusAI__Kanbus", CC_2_1_197, "apps/console", Expect::Diagnostic("agents-md-not-bridged", "`apps/console/AGENTS.md`")),
    // From 2.1.281 the AGENTS.md fallback loads the root and apps/console
    // AGENTS.md (fidelity C16; recorded with 2.1.332, which the old fact,
    // "no instruction", contradicted).
    fact("AnthusAI__Kanbus", CC, "apps/console", Expect::Chain(&["AGENTS.md", "apps/console/AGENTS.md"])),
    fact("AnthusAI__Kanbus", CC, "apps/console", Expect::Diagnostic("agents-md-fallback", "`apps/console/AGENTS.md`")),
    fact("AnthusAI__Kanbus", CC, "apps/console", Expect::NoDiagnostic("agents-md-not-bridged")),
    // .claude/skills/development-on-kanbus-console/SKILL.md at the root, an
    // ancestor of apps/console.
    fact("AnthusAI__Kanbus", CC, "apps/console", Expect::SkillNames(&["development-on-kanbus-console"])),
    // --- Chachamaru127__claude-code-harness ---
    // Of the four .claude/rules files only command-editing.md has no
    // `paths:` front matter; there is no root CLAUDE.md.
    fact("Chachamaru127__claude-code-harness", CC, ".", Expect::Chain(&[".claude/rules/command-editing.md"])),
    // harness-ui.md has `paths: "harness-ui/**/*.{ts,tsx,js,jsx}"` (a
    // quoted string with braces).
    fact_for("Chachamaru127__claude-code-harness", CC, "harness-ui", "harness-ui/src/App.tsx", Expect::Instruction(".claude/rules/harness-ui.md", "effective")),
    // Launched in harness-ui: the unscoped rule, then harness-ui/CLAUDE.md.
    fact("Chachamaru127__claude-code-harness", CC, "harness-ui", Expect::Chain(&[".claude/rules/command-editing.md", "harness-ui/CLAUDE.md"])),
    // skills/*/SKILL.md belong to the plugin (.claude-plugin/plugin.json),
    // not to .claude/skills.
    fact("Chachamaru127__claude-code-harness", CC, ".", Expect::SkillCount("effective", 0)),
    // No AGENTS.md and no .agents/skills anywhere.
    fact("Chachamaru127__claude-code-harness", CX, ".", Expect::Chain(&[])),
    fact("Chachamaru127__claude-code-harness", CX, ".", Expect::SkillNames(&[])),
    // --- CharlesWiltgen__Axiom ---
    // The only .mcp.json is axiom-codex/.mcp.json, a Codex plugin's.
    fact("CharlesWiltgen__Axiom", CC, ".", Expect::Diagnostic("mcp-json-not-at-root", "`axiom-codex/.mcp.json`")),
    fact("CharlesWiltgen__Axiom", CC, ".", Expect::NoMcp),
    // Root AGENTS.md, no CLAUDE.md: nothing before 2.1.281, the root
    // AGENTS.md by the fallback since (fidelity C16; recorded with 2.1.332,
    // which the old fact, "no instruction", contradicted).
    fact("CharlesWiltgen__Axiom", CC_2_1_197, ".", Expect::Chain(&[])),
    fact("CharlesWiltgen__Axiom", CC, ".", Expect::Chain(&["AGENTS.md"])),
    fact("CharlesWiltgen__Axiom", CX, ".", Expect::Chain(&["AGENTS.md"])),
    // axiom-codex/skills/* are plugin skills, not .agents/skills.
    fact("CharlesWiltgen__Axiom", CX, ".", Expect::SkillNames(&[])),
    // --- anthropics__claude-code ---
    // .claude/commands holds commit-push-pr.md, dedupe.md, triage-issue.md.
    // Claude Code offers them as skills (fidelity C23; recorded with
    // 2.1.197 and 2.1.332). plugins/*/skills are plugin skills; no
    // .claude/skills.
    fact("anthropics__claude-code", CC, ".", Expect::SkillNames(&["commit-push-pr", "dedupe", "triage-issue"])),
    // No AGENTS.md, no .agents, no .codex.
    fact("anthropics__claude-code", CX, ".", Expect::Chain(&[])),
    // --- avifenesh__agnix ---
    // AGENTS.md at the root, in tests/fixtures/agents_md/nested and in its
    // subdir; none in tests/, tests/fixtures/ or tests/fixtures/agents_md/.
    fact("avifenesh__agnix", CX, "tests/fixtures/agents_md/nested/subdir", Expect::Chain(&["AGENTS.md", "tests/fixtures/agents_md/nested/AGENTS.md", "tests/fixtures/agents_md/nested/subdir/AGENTS.md"])),
    // tests/fixtures/codex-invalid holds AGENTS.override.md and no AGENTS.md.
    fact("avifenesh__agnix", CX, "tests/fixtures/codex-invalid", Expect::Chain(&["AGENTS.md", "tests/fixtures/codex-invalid/AGENTS.override.md"])),
    // tests/fixtures/codex/.codex/config.toml sets `notify = true`.
    fact("avifenesh__agnix", CX, "tests/fixtures/codex", Expect::Diagnostic("config-key-not-allowed", "`notify`")),
    // tests/fixtures/per_client_skills/.agents/skills/test-skill/SKILL.md.
    fact("avifenesh__agnix", CX, "tests/fixtures/per_client_skills", Expect::SkillCount("effective", 1)),
    // Root CLAUDE.md is a byte-for-byte copy of AGENTS.md (8,608 bytes), not
    // an import or a link: it is read, and since Claude Code receives the
    // same text, the root AGENTS.md is not reported as unbridged.
    fact("avifenesh__agnix", CC, ".", Expect::Chain(&["CLAUDE.md"])),
    fact("avifenesh__agnix", CC, ".", Expect::NoDiagnosticAt("agents-md-not-bridged", "AGENTS.md")),
    // tests/fixtures/valid/memory/CLAUDE.md is below the root: on demand.
    fact("avifenesh__agnix", CC, ".", Expect::Instruction("tests/fixtures/valid/memory/CLAUDE.md", "conditional")),
    // --- biomejs__biome ---
    // CLAUDE.md is the 15 bytes `CONTRIBUTING.md` (a link stored as text;
    // CONTRIBUTING.md is not in the corpus).
    fact("biomejs__biome", CC, ".", Expect::Content("CLAUDE.md", "CONTRIBUTING.md")),
    // ...and is reported as a link stored as text (the target is absent).
    fact("biomejs__biome", CC, ".", Expect::Diagnostic("symlink-stored-as-text", "contains only `CONTRIBUTING.md`")),
    // .claude/skills holds 11 skill directories and a README.md.
    fact("biomejs__biome", CC, ".", Expect::SkillCount("effective", 11)),
    // Root AGENTS.md; no .agents/skills.
    fact("biomejs__biome", CX, ".", Expect::Chain(&["AGENTS.md"])),
    fact("biomejs__biome", CX, ".", Expect::SkillNames(&[])),
    // --- dyoshikawa__rulesync ---
    // .claude/rules/coding-guidelines.md has `paths: ['**/*.ts']`.
    fact_for("dyoshikawa__rulesync", CC, ".", "src/cli/index.ts", Expect::Instruction(".claude/rules/coding-guidelines.md", "effective")),
    fact("dyoshikawa__rulesync", CC, ".", Expect::Chain(&[])),
    // .codex/config.toml exists; no AGENTS.md; .rulesync/skills is no Codex root.
    fact("dyoshikawa__rulesync", CX, ".", Expect::Diagnostic("project-trust-assumed", ".codex/config.toml")),
    fact("dyoshikawa__rulesync", CX, ".", Expect::SkillNames(&[])),
    // --- getsentry__sentry-mcp ---
    // CLAUDE.md is the 9 bytes `AGENTS.md` (a link stored as text): read
    // as that literal text.
    fact("getsentry__sentry-mcp", CC, ".", Expect::Content("CLAUDE.md", "AGENTS.md")),
    fact("getsentry__sentry-mcp", CC, ".", Expect::Diagnostic("symlink-stored-as-text", "not the content of `AGENTS.md`")),
    // .mcp.json defines sentry and sentry-dev; .claude/settings.json has
    // enabledMcpjsonServers ["sentry"] and enableAllProjectMcpServers true.
    fact("getsentry__sentry-mcp", CC, ".", Expect::Mcp("sentry", "effective", ".mcp.json")),
    fact("getsentry__sentry-mcp", CC, ".", Expect::Mcp("sentry-dev", "effective", ".mcp.json")),
    // From a subdirectory the root .claude/settings.json is not read, so
    // the approvals do not apply.
    fact("getsentry__sentry-mcp", CC, "packages/mcp-core/src/internal/agents/tools/data", Expect::Mcp("sentry", "conditional", ".mcp.json")),
    fact("getsentry__sentry-mcp", CC, "packages/mcp-core/src/internal/agents/tools/data", Expect::Chain(&["CLAUDE.md", "packages/mcp-core/src/internal/agents/tools/data/CLAUDE.md"])),
    // .claude/skills is a 17-byte file `../.agents/skills`, not a directory;
    // the legacy commands in .claude/commands/opsx are skills (fidelity C23).
    fact("getsentry__sentry-mcp", CC, ".", Expect::SkillNames(&["opsx:apply", "opsx:archive", "opsx:explore", "opsx:propose", "opsx:sync"])),
    // .agents/skills holds 11 skills; .codex/config.toml defines sentry
    // and sentry-dev under [mcp_servers]; .codex/skills exists.
    // The five openspec skills are copied into .codex/skills: 0.142.3 and
    // 0.171.0 list both copies (recorded with codex debug prompt-input,
    // oracle/observations/codex/*/corpus.getsentry__sentry-mcp.json).
    fact("getsentry__sentry-mcp", CX, ".", Expect::SkillCount("effective", 16)),
    fact("getsentry__sentry-mcp", CX, ".", Expect::SkillCount("shadowed", 0)),
    fact("getsentry__sentry-mcp", CX, ".", Expect::Mcp("sentry-dev", "effective", ".codex/config.toml")),
    // --- getsentry__skills ---
    // CLAUDE.md is the 9 bytes `AGENTS.md`.
    fact("getsentry__skills", CC, ".", Expect::Content("CLAUDE.md", "AGENTS.md")),
    fact("getsentry__skills", CC, ".", Expect::Diagnostic("symlink-stored-as-text", "`CLAUDE.md` contains only `AGENTS.md`")),
    // skills/ holds 27 plugin skills; no .claude/skills.
    fact("getsentry__skills", CC, ".", Expect::SkillNames(&[])),
    fact("getsentry__skills", CX, ".", Expect::Chain(&["AGENTS.md"])),
    // .agents/skills is a 9-byte file `../skills`, not a directory.
    fact("getsentry__skills", CX, ".", Expect::SkillNames(&[])),
    // --- google-gemini__gemini-cli ---
    // Only GEMINI.md files and .gemini/: nothing for either harness, and no
    // AGENTS.md to bridge.
    fact("google-gemini__gemini-cli", CC, ".", Expect::Chain(&[])),
    fact("google-gemini__gemini-cli", CC, ".", Expect::NoDiagnostic("agents-md-not-bridged")),
    fact("google-gemini__gemini-cli", CX, ".", Expect::Chain(&[])),
    fact("google-gemini__gemini-cli", CX, ".", Expect::SkillNames(&[])),
    // --- humanlayer__humanlayer ---
    // CLAUDE.md at the root and in apps/daemon; none in apps/.
    fact("humanlayer__humanlayer", CC, "apps/daemon", Expect::Chain(&["CLAUDE.md", "apps/daemon/CLAUDE.md"])),
    // .claude/commands holds 27 files.
    // Offered as 27 skills (fidelity C23).
    fact("humanlayer__humanlayer", CC, ".", Expect::SkillCount("effective", 27)),
    fact("humanlayer__humanlayer", CC, ".", Expect::Instruction("hld/CLAUDE.md", "conditional")),
    // Nine CLAUDE.md files, no AGENTS.md: Codex gets nothing.
    fact("humanlayer__humanlayer", CX, "apps/daemon", Expect::Chain(&[])),
    // --- openai__openai-agents-python ---
    // CLAUDE.md is the 9 bytes `AGENTS.md`.
    fact("openai__openai-agents-python", CC, ".", Expect::Content("CLAUDE.md", "AGENTS.md")),
    fact("openai__openai-agents-python", CC, ".", Expect::Diagnostic("symlink-stored-as-text", "`CLAUDE.md` contains only `AGENTS.md`")),
    // AGENTS.md is 34,566 bytes, over the 32 KiB project_doc_max_bytes.
    fact("openai__openai-agents-python", CX, ".", Expect::Diagnostic("instruction-budget-exceeded", "34,566 bytes")),
    // 14 skills in .agents/skills; implementation-kickoff's
    // agents/openai.yaml sets allow_implicit_invocation: false.
    fact("openai__openai-agents-python", CX, ".", Expect::SkillCount("effective", 14)),
    fact("openai__openai-agents-python", CX, ".", Expect::SkillImplicit("implementation-kickoff", "blocked")),
    fact("openai__openai-agents-python", CX, ".", Expect::SkillImplicit("docs-sync", "allowed")),
    // --- triggerdotdev__trigger.dev ---
    // CLAUDE.md is `@AGENTS.md\n`: it is kept whole and AGENTS.md follows
    // as its own entry (fidelity C5; #49124).
    fact("triggerdotdev__trigger.dev", CC, ".", Expect::Chain(&["CLAUDE.md", "AGENTS.md"])),
    // An `@AGENTS.md` import is the portable bridge, not a link stored as text.
    fact("triggerdotdev__trigger.dev", CC, ".", Expect::NoDiagnostic("symlink-stored-as-text")),
    // From packages/cli-v3 the import leaves the launch directory: it needs
    // the one-time approval.
    fact("triggerdotdev__trigger.dev", CC, "packages/cli-v3", Expect::Chain(&["CLAUDE.md", "packages/cli-v3/CLAUDE.md"])),
    fact("triggerdotdev__trigger.dev", CC, "packages/cli-v3", Expect::Instruction("AGENTS.md", "conditional")),
    fact("triggerdotdev__trigger.dev", CC, "packages/cli-v3", Expect::Diagnostic("import-outside-cwd", "`@AGENTS.md`")),
    // .claude/rules/database-safety.md has paths ["internal-packages/database/**"].
    fact_for("triggerdotdev__trigger.dev", CC, ".", "internal-packages/database/prisma/schema.prisma", Expect::Instruction(".claude/rules/database-safety.md", "effective")),
    // drizzle's description holds an unquoted `: ` (invalid YAML); Claude
    // Code's retry quotes it, so the skill loads with its description.
    fact("triggerdotdev__trigger.dev", CC, ".", Expect::Diagnostic("invalid-frontmatter", ".claude/skills/drizzle/SKILL.md")),
    fact("triggerdotdev__trigger.dev", CC, ".", Expect::SkillNames(&["drizzle", "errors-api-e2e", "span-timeline-events", "trigger-dev-tasks"])),
    // No AGENTS.md below the root: Codex at packages/cli-v3 gets the root one.
    fact("triggerdotdev__trigger.dev", CX, "packages/cli-v3", Expect::Chain(&["AGENTS.md"])),
];

/// Checks one expectation; the error says what was found instead.
fn check(v: &Value, expect: &Expect) -> Result<(), String> {
    let instructions = v["instructions"].as_array().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let diagnostics = v["diagnostics"].as_array().unwrap();
    let pieces_of = |path: &str| -> Vec<&Value> {
        instructions
            .iter()
            .filter(|i| i["source"]["path"] == path)
            .collect()
    };
    match expect {
        Expect::Chain(expected) => {
            let mut effective: Vec<&Value> = instructions
                .iter()
                .filter(|i| i["order"].is_u64())
                .collect();
            effective.sort_by_key(|i| i["order"].as_u64());
            let got: Vec<&str> = effective
                .iter()
                .map(|i| i["source"]["path"].as_str().unwrap())
                .collect();
            (got == *expected)
                .then_some(())
                .ok_or(format!("chain {got:?}"))
        }
        Expect::Instruction(path, applicability) => {
            let pieces = pieces_of(path);
            let got: Vec<&Value> = pieces.iter().map(|i| &i["applicability"]).collect();
            (!pieces.is_empty() && got.iter().all(|a| *a == applicability))
                .then_some(())
                .ok_or(format!("{path}: {got:?}"))
        }
        Expect::Content(path, content) => {
            let got: Vec<&Value> = pieces_of(path).iter().map(|i| &i["content"]).collect();
            (got.len() == 1 && got[0] == content)
                .then_some(())
                .ok_or(format!("{path}: {got:?}"))
        }
        Expect::SkillNames(expected) => {
            let mut got: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
            got.sort_unstable();
            (got == *expected)
                .then_some(())
                .ok_or(format!("skills {got:?}"))
        }
        Expect::SkillCount(applicability, n) => {
            let got = skills
                .iter()
                .filter(|s| s["applicability"] == *applicability)
                .count();
            (got == *n)
                .then_some(())
                .ok_or(format!("{got} {applicability} skills"))
        }
        Expect::SkillImplicit(name, policy) => {
            let got: Vec<&Value> = skills
                .iter()
                .filter(|s| s["name"] == *name)
                .map(|s| &s["invocation"]["implicit"])
                .collect();
            (got.len() == 1 && got[0] == policy)
                .then_some(())
                .ok_or(format!("{name}: {got:?}"))
        }
        Expect::Mcp(name, applicability, path) => {
            let got: Vec<(&Value, &Value)> = v["mcpServers"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["name"] == *name)
                .map(|m| (&m["applicability"], &m["source"]["path"]))
                .collect();
            (got.len() == 1 && got[0].0 == applicability && got[0].1 == path)
                .then_some(())
                .ok_or(format!("{name}: {got:?}"))
        }
        Expect::NoMcp => {
            let got: Vec<&Value> = v["mcpServers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| &m["name"])
                .collect();
            got.is_empty()
                .then_some(())
                .ok_or(format!("servers {got:?}"))
        }
        Expect::Diagnostic(code, text) => {
            let codes: Vec<&Value> = diagnostics.iter().map(|d| &d["code"]).collect();
            diagnostics
                .iter()
                .any(|d| d["code"] == *code && d["message"].as_str().unwrap().contains(text))
                .then_some(())
                .ok_or(format!("no {code} containing {text:?} among {codes:?}"))
        }
        Expect::NoDiagnostic(code) => {
            let found: Vec<&Value> = diagnostics
                .iter()
                .filter(|d| d["code"] == *code)
                .map(|d| &d["message"])
                .collect();
            found.is_empty().then_some(()).ok_or(format!("{found:?}"))
        }
        Expect::NoDiagnosticAt(code, path) => {
            let found: Vec<&Value> = diagnostics
                .iter()
                .filter(|d| d["code"] == *code && d["source"]["path"] == *path)
                .map(|d| &d["message"])
                .collect();
            found.is_empty().then_some(()).ok_or(format!("{found:?}"))
        }
    }
}

#[test]
fn hand_checked_facts_hold_on_the_corpus() {
    let Some(corpus) = corpus_root("hand_checked_facts_hold_on_the_corpus") else {
        return;
    };
    let mut cache: HashMap<(&str, &str, &str, Option<&str>), Value> = HashMap::new();
    let mut failures = Vec::new();
    let mut covered: BTreeSet<(&str, &str)> = BTreeSet::new();
    for f in FACTS {
        let repo = corpus.join(f.repo).join("repo");
        let v = cache
            .entry((f.repo, f.harness, f.cwd, f.target))
            .or_insert_with(|| compile_json(&repo, f.harness, f.cwd, f.target));
        if let Err(found) = check(v, &f.expect) {
            failures.push(format!(
                "{} --harness {} --cwd {} --target {:?}: {found}",
                f.repo, f.harness, f.cwd, f.target
            ));
        }
        covered.insert((f.repo, f.harness));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // At least one fact per repository and harness.
    for (name, _) in repositories(&corpus) {
        for harness in HARNESSES {
            assert!(
                covered.iter().any(|(r, h)| *r == name && *h == harness),
                "no hand-checked fact for {name} with {harness}"
            );
        }
    }
}

//! Real input: every repository of the shared corpus (`../shared/corpus/`
//! beside the project root), checked at the root and with `--all-dirs`, in
//! both its forms: `repo.tar` extracted with its symbolic links (the
//! repository as its maintainers have it, where the hand-checked findings
//! below hold) and `repo/` with links stored as text files. Skipped, with a
//! visible note, when the corpus is absent.

use assert_cmd::Command;
use playbookdiff_testkit::corpus::Form;
use serde_json::Value;
use std::path::Path;

use playbookdiff_testkit::corpus as support;

fn check(repo: &Path, extra: &[&str]) -> (i32, Value) {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .arg("check")
        .arg(repo)
        .args(extra)
        .arg("--json")
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not JSON ({e}); stderr: {}",
            repo.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, v)
}

fn ids(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect()
}

fn count(v: &Value, prefix: &str) -> usize {
    ids(v).iter().filter(|i| i.starts_with(prefix)).count()
}

#[test]
fn every_corpus_repository_checks_and_the_hand_checked_findings_hold() {
    let Some(corpus) = support::corpus_root("every_corpus_repository_checks") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let names = support::repositories(&corpus);
    assert!(!names.is_empty());
    let mut root_results = std::collections::HashMap::new();
    for name in &names {
        support::extract(&corpus.join(name).join("repo.tar"), &tmp.path().join(name));
        for form in Form::BOTH {
            let dst = match form {
                Form::Tar => tmp.path().join(name).join("repo"),
                Form::LinksAsText => corpus.join(name).join("repo"),
            };
            for extra in [&[][..], &["--all-dirs"][..]] {
                let (code, v) = check(&dst, extra);
                assert!(
                    code == 0 || code == 1,
                    "{name} ({form:?}) {extra:?}: exit {code}"
                );
                let actionable = v["summary"]["high"].as_u64().unwrap()
                    + v["summary"]["medium"].as_u64().unwrap();
                assert_eq!(
                    code == 1,
                    actionable > 0,
                    "{name} ({form:?}) {extra:?}: exit status and summary disagree"
                );
                assert_eq!(v["schemaVersion"], 1);
                assert!(
                    v["configs"]["claude-code"].is_object() && v["configs"]["codex"].is_object()
                );
                if !extra.is_empty() {
                    assert_eq!(v["allDirs"], true);
                    assert!(!v["directories"].as_array().unwrap().is_empty());
                } else if form == Form::Tar {
                    root_results.insert(name.clone(), v);
                }
            }
        }
    }
    // The hand-checked findings below are between Claude Code and Codex
    // (each registered harness adds its own findings to a default run).
    const TWO: [&str; 4] = ["--harness", "claude-code", "--harness", "codex"];
    let get = |n: &str| {
        root_results
            .contains_key(n)
            .then(|| check(&tmp.path().join(n).join("repo"), &TWO).1)
    };

    // Skills only under `.agents/skills` (itself a link to `skills/`), with
    // CLAUDE.md a link to AGENTS.md: the instructions agree, every skill is
    // Codex's only.
    if let Some(v) = get("getsentry__skills").as_ref() {
        assert_eq!(count(v, "instruction:"), 0, "{:?}", ids(v));
        assert!(
            count(v, "skill:capability-gap:codex-only:") >= 20,
            "{:?}",
            ids(v)
        );
        // Codex names them in the plugin namespace of the repository's
        // `.claude-plugin/plugin.json` (fidelity X13).
        assert!(
            ids(v)
                .iter()
                .any(|i| i.starts_with("skill:capability-gap:codex-only:sentry-skills-commit:")),
            "{:?}",
            ids(v)
        );
    }
    if let Some(v) = get("openai__openai-agents-python").as_ref() {
        assert_eq!(count(v, "instruction:"), 0, "{:?}", ids(v));
        assert!(ids(v)
            .iter()
            .any(|i| i.starts_with("skill:capability-gap:codex-only:implementation-kickoff:")));
    }
    // Claude Code before the AGENTS.md fallback of 2.1.281.
    const OLD: [&str; 2] = ["--agent-version", "claude-code=2.1.197"];
    // Nested AGENTS.md without a CLAUDE.md bridge: found from the package
    // launch directories by --all-dirs, for Claude Code before 2.1.281.
    if let Some(dir) = names.iter().find(|n| *n == "AnthusAI__Kanbus") {
        let (code, v) = check(
            &tmp.path().join(dir).join("repo"),
            &[&["--all-dirs"][..], &TWO, &OLD].concat(),
        );
        assert_eq!(code, 1);
        let missing: Vec<&Value> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["id"]
                    .as_str()
                    .unwrap()
                    .starts_with("instruction:missing:codex-only:apps/console:")
            })
            .collect();
        assert_eq!(missing.len(), 1, "{:?}", ids(&v));
        assert_eq!(
            missing[0]["directories"],
            serde_json::json!(["apps/console"])
        );
        assert_eq!(
            missing[0]["items"][0]["source"]["path"],
            "apps/console/AGENTS.md"
        );
        // From 2.1.281 no CLAUDE.md is on any path, so Claude Code loads
        // the AGENTS.md files as Codex does (fidelity C16, recorded with
        // 2.1.332): what differs is only the root, where Codex takes
        // AGENTS.override.md instead of AGENTS.md.
        let (code, v) = check(
            &tmp.path().join(dir).join("repo"),
            &[&["--all-dirs"][..], &TWO].concat(),
        );
        assert_eq!(code, 1);
        let instructions: Vec<String> = ids(&v)
            .into_iter()
            .filter(|i| i.starts_with("instruction:"))
            .collect();
        assert_eq!(instructions.len(), 2, "{instructions:?}");
        assert!(
            instructions.iter().all(|i| i.contains(":root:")),
            "{instructions:?}"
        );
    }
    // AGENTS.md and no CLAUDE.md at all: Codex-only at the root before
    // 2.1.281; from 2.1.281 Claude Code loads it too (fidelity C16).
    if let Some(dir) = names.iter().find(|n| *n == "CharlesWiltgen__Axiom") {
        let repo = tmp.path().join(dir).join("repo");
        let v = check(&repo, &[&TWO[..], &OLD].concat()).1;
        assert!(
            ids(&v)
                .iter()
                .any(|i| i.starts_with("instruction:missing:codex-only:root:")),
            "{:?}",
            ids(&v)
        );
        let v = check(&repo, &TWO).1;
        assert_eq!(count(&v, "instruction:"), 0, "{:?}", ids(&v));
    }
    // Skills only under `.claude/skills`.
    if let Some(v) = get("biomejs__biome").as_ref() {
        assert!(
            ids(v)
                .iter()
                .any(|i| i.starts_with("skill:capability-gap:claude-code-only:changeset:")),
            "{:?}",
            ids(v)
        );
    }
    // Where they agree: CLAUDE.md and `.claude/skills` are links to the
    // Codex files and the MCP servers are defined alike in `.mcp.json` and
    // `.codex/config.toml`. The findings are a nested CLAUDE.md that Codex
    // has nothing for, and the five legacy commands of
    // `.claude/commands/opsx`, which Claude Code offers as skills (fidelity
    // C23; recorded with 2.1.197 and 2.1.332).
    if let Some(v) = get("getsentry__sentry-mcp").as_ref() {
        assert_eq!(count(v, "mcp:"), 0, "{:?}", ids(v));
        // In any order: the report's order is its own business.
        assert_eq!(
            sorted_kinds(v),
            [
                "instruction:missing:claude-code-only:.../agents/tools/data",
                "skill:capability-gap:claude-code-only:opsx-apply",
                "skill:capability-gap:claude-code-only:opsx-archive",
                "skill:capability-gap:claude-code-only:opsx-explore",
                "skill:capability-gap:claude-code-only:opsx-propose",
                "skill:capability-gap:claude-code-only:opsx-sync",
            ]
        );
        let skills = v["configs"]["codex"]["skills"].as_array().unwrap().len();
        assert!(skills >= 10);
    }
    // Its three legacy commands are Claude Code skills (fidelity C23);
    // Codex has nothing else to compare.
    if let Some(v) = get("anthropics__claude-code").as_ref() {
        assert_eq!(
            sorted_kinds(v),
            [
                "skill:capability-gap:claude-code-only:commit-push-pr",
                "skill:capability-gap:claude-code-only:dedupe",
                "skill:capability-gap:claude-code-only:triage-issue",
            ]
        );
    }
}

/// The finding ids of a check report without their hash suffix, sorted.
fn sorted_kinds(v: &Value) -> Vec<String> {
    let mut found: Vec<String> = ids(v)
        .iter()
        .map(|i| i.rsplit_once(':').unwrap().0.to_string())
        .collect();
    found.sort();
    found
}

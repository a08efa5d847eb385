//! One fixture per row of the fidelity table (`c01_…` to `c25_…`, then `c26_…` to `c29_…` for odd rule paths, skill fields, the description cap and byte order marks, and `c30_…` for the listing budget before 2.1.19),
//! checked under both profiled Claude Code versions; the recorded
//! observations of the real agent for the same fixtures are compared by
//! the workspace's differential test.

use crate::common::*;
use playbookdiff_model::{
    Applicability::*, DiagnosticCode as D, InstructionKind, LoadPhase::*, Severity,
};

const VERSIONS: [&str; 2] = ["2.1.197", "2.1.332"];

/// The paths of the instructions fixture `name` receives on demand and
/// effective when release `v`, launched at the root, reads `target`;
/// sorted.
fn on_demand_effective(name: &str, target: &str, v: &str) -> Vec<String> {
    let cfg = compile(name, at_root().target(target).version(v));
    let mut got: Vec<String> = cfg
        .instructions
        .iter()
        .filter(|i| i.load_phase == OnDemand && i.applicability == Effective)
        .map(|i| i.source.path.to_string())
        .collect();
    got.sort();
    got
}

/// C1: `paths` match gitignore-style, ignoring case, based at the
/// directory holding `.claude`; seen for each target with both versions.
#[test]
fn c01_glob_dialect() {
    for v in VERSIONS {
        for (target, rule) in [
            ("docs/notes.md", ".claude/rules/md.md"),
            ("lib/src/a.ts", ".claude/rules/src.md"),
            ("API/Handler.TS", ".claude/rules/api.md"),
        ] {
            let cfg = compile("c01_glob_dialect", at_root().target(target).version(v));
            let rules: Vec<&str> = cfg
                .received_instructions()
                .iter()
                .filter(|i| i.kind == InstructionKind::Rule)
                .map(|i| i.source.path.as_str())
                .collect();
            assert_eq!(rules, [rule], "{v} {target}");
            assert_placed(one(&cfg, rule), OnDemand, Effective, Some(1));
        }
    }
}

/// C2 and C15: front matter that is not valid YAML is parsed again with
/// special values quoted and tabs expanded; a list of only `**` is no
/// `paths`. Only when the retry fails too is the rule unconditional.
#[test]
fn c02_frontmatter_retry() {
    for v in VERSIONS {
        let cfg = compile(
            "c02_frontmatter_retry",
            at_root().target("src/a.ts").version(v),
        );
        for r in ["star", "brace", "tab"] {
            let p = format!(".claude/rules/{r}.md");
            let i = one(&cfg, &p);
            assert_eq!(
                (i.load_phase, i.applicability),
                (OnDemand, Effective),
                "{v} {p}"
            );
            let d = diags_at(&cfg, D::InvalidFrontmatter, &p);
            assert_eq!(d.len(), 1, "{p}");
            assert_eq!(d[0].severity, Severity::Info);
        }
        assert_eq!(
            one(&cfg, ".claude/rules/brace.md").paths.as_deref(),
            Some(&["{src,lib}/**/*.ts".to_string()][..])
        );
        let all = one(&cfg, ".claude/rules/all.md");
        assert_eq!((all.load_phase, all.applicability), (Startup, Effective));
        assert!(all.paths.is_none());
        let broken = one(&cfg, ".claude/rules/broken.md");
        assert_eq!(
            (broken.load_phase, broken.applicability),
            (Startup, Effective)
        );
        let d = diags_at(&cfg, D::InvalidFrontmatter, ".claude/rules/broken.md");
        assert_eq!(d[0].severity, Severity::Warning);
    }
}

/// C3: `.mcp.json` is read in the launch directory and every ancestor,
/// merged root first; the closer file replaces a same-named server whole.
#[test]
fn c03_mcp_json_ancestors() {
    for v in VERSIONS {
        let cfg = compile("c03_mcp_json_ancestors", at_root().cwd("sub").version(v));
        let names: Vec<&str> = cfg.mcp_servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"], "{v}");
        let b = server(&cfg, "b");
        assert_eq!(b.source.path.as_str(), "sub/.mcp.json");
        assert_eq!(b.args.as_deref(), Some(&["sub-b".to_string()][..]));
        assert_eq!(b.other_sources.len(), 1);
        assert_eq!(b.other_sources[0].path.as_str(), ".mcp.json");
        assert_eq!(server(&cfg, "a").source.path.as_str(), ".mcp.json");
        assert_eq!(diags(&cfg, D::McpServerOverridden).len(), 1);
        // Below the launch directory: not read.
        assert_eq!(
            diags_at(&cfg, D::McpJsonNotAtRoot, "sub/deeper/.mcp.json").len(),
            1
        );

        let cfg = compile(
            "c03_mcp_json_ancestors",
            at_root().cwd("sub/deeper").version(v),
        );
        let names: Vec<&str> = cfg.mcp_servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d"], "{v}");
    }
}

/// C13: a target outside the launch directory gets nothing on demand:
/// neither the memory file nor the rules root of its directory, nor a
/// root rule whose `paths` match it; reported once as
/// `target-outside-cwd`. Inside the launch directory the same target gets
/// all three, the files of the directories the read walks into before the
/// root's path-scoped rule (the order of the agent's request).
#[test]
fn c13_target_outside_cwd() {
    for v in VERSIONS {
        let cfg = compile(
            "c13_target_outside_cwd",
            at_root()
                .cwd("apps/web")
                .target("apps/api/src/x.ts")
                .version(v),
        );
        assert_eq!(
            received_paths(&cfg),
            ["CLAUDE.md", "apps/web/CLAUDE.md"],
            "{v}"
        );
        for p in [
            "apps/api/CLAUDE.md",
            "apps/api/.claude/rules/always.md",
            ".claude/rules/api.md",
        ] {
            assert_placed(one(&cfg, p), OnDemand, Conditional, None);
        }
        assert_eq!(diags(&cfg, D::TargetOutsideCwd).len(), 1, "{v}");

        let cfg = compile(
            "c13_target_outside_cwd",
            at_root().target("apps/api/src/x.ts").version(v),
        );
        let on_demand: Vec<&str> = cfg
            .received_instructions()
            .iter()
            .filter(|i| i.load_phase == OnDemand)
            .map(|i| i.source.path.as_str())
            .collect();
        assert_eq!(
            on_demand,
            [
                "apps/api/CLAUDE.md",
                "apps/api/.claude/rules/always.md",
                ".claude/rules/api.md",
            ],
            "{v}"
        );
        assert!(diags(&cfg, D::TargetOutsideCwd).is_empty());
    }
}

/// C14: a `.claude/rules` root in a subdirectory is read when a file below
/// it is read: after that directory's memory files, unconditional rules
/// first, path-scoped ones after, their `paths` relative to the directory
/// holding that `.claude` (so `pkg/src/*.ts` written there matches
/// nothing).
#[test]
fn c14_nested_rules_on_demand() {
    for v in VERSIONS {
        let cfg = compile(
            "c14_nested_rules_on_demand",
            at_root().target("pkg/src/x.ts").version(v).local(),
        );
        assert_eq!(
            received_paths(&cfg),
            [
                "CLAUDE.md",
                "pkg/CLAUDE.md",
                "pkg/.claude/CLAUDE.md",
                "pkg/CLAUDE.local.md",
                "pkg/.claude/rules/z-always.md",
                "pkg/.claude/rules/sources.md",
            ],
            "{v}"
        );
        for p in [
            "pkg/.claude/rules/z-always.md",
            "pkg/.claude/rules/sources.md",
        ] {
            let r = one(&cfg, p);
            assert_eq!((r.load_phase, r.applicability), (OnDemand, Effective));
            assert_eq!(r.applies_to.as_str(), "pkg");
        }
        for p in [
            "pkg/.claude/rules/root-anchored.md",
            "pkg/.claude/rules/docs.md",
        ] {
            assert_placed(one(&cfg, p), OnDemand, Conditional, None);
        }

        let cfg = compile(
            "c14_nested_rules_on_demand",
            at_root().target("pkg/docs/notes.md").version(v),
        );
        let r = one(&cfg, "pkg/.claude/rules/docs.md");
        assert_eq!((r.load_phase, r.applicability), (OnDemand, Effective));
        assert_eq!(
            one(&cfg, "pkg/.claude/rules/sources.md").applicability,
            Conditional
        );

        // A target elsewhere attaches nothing from `pkg`.
        let cfg = compile(
            "c14_nested_rules_on_demand",
            at_root().target("other/y.ts").version(v),
        );
        assert_eq!(received_paths(&cfg), ["CLAUDE.md"], "{v}");
        assert_eq!(
            one(&cfg, "pkg/.claude/rules/z-always.md").applicability,
            Conditional
        );
    }
}

/// The names and descriptions listed to the model, sorted (what the
/// recorded request shows).
fn listed_skills(cfg: &playbookdiff_model::EffectiveAgentConfig) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = cfg
        .skills
        .iter()
        .filter(|s| {
            s.applicability == Effective
                && s.load_phase == Startup
                && s.invocation.implicit != playbookdiff_model::Permission::Blocked
        })
        .map(|s| (s.name.clone(), s.description.clone().unwrap_or_default()))
        .collect();
    v.sort();
    v
}

/// C23: legacy `.claude/commands/**/*.md` are skills named by their path
/// (`/review`, `/frontend:component`), listed to the model unless
/// `disable-model-invocation`; since 2.1.332 a skill of the same name
/// wins, and the launch directory's command beats an ancestor's; 2.1.197
/// lists both (as recorded for each version).
#[test]
fn c23_legacy_commands_as_skills() {
    let pair = |n: &str, d: &str| (n.to_string(), d.to_string());
    for v in VERSIONS {
        let cfg = compile("c23_legacy_commands_as_skills", at_root().version(v));
        let manual = skill(&cfg, ".claude/commands/manual.md");
        assert_eq!(
            (manual.name.as_str(), manual.applicability),
            ("manual", Effective)
        );
        assert_eq!(
            manual.invocation.implicit,
            playbookdiff_model::Permission::Blocked
        );
        let mut want = vec![
            pair("deploy", "Deploy the service."),
            pair(
                "frontend:component",
                "Create a component from the design system.",
            ),
            pair("review", "Review the diff."),
        ];
        let command = skill(&cfg, ".claude/commands/deploy.md");
        if v == "2.1.197" {
            want.push(pair("deploy", "Deploy with the old script."));
            want.sort();
            assert_eq!(command.applicability, Effective);
        } else {
            assert_eq!(
                command.applicability,
                playbookdiff_model::Applicability::Shadowed
            );
            assert_eq!(
                command.cross_references,
                [skill(&cfg, ".claude/skills/deploy/SKILL.md").id.clone()]
            );
            assert_eq!(
                diags_at(&cfg, D::SkillNameCollision, ".claude/commands/deploy.md").len(),
                1
            );
        }
        assert_eq!(listed_skills(&cfg), want, "{v}");

        let cfg = compile(
            "c23_legacy_commands_as_skills",
            at_root().cwd("sub").version(v),
        );
        let mut want = vec![
            pair("deploy", "Deploy the service."),
            pair(
                "frontend:component",
                "Create a component from the design system.",
            ),
            pair("review", "Review the sub package."),
            pair("sub-only", "Only in sub."),
        ];
        if v == "2.1.197" {
            want.push(pair("deploy", "Deploy with the old script."));
            want.push(pair("review", "Review the diff."));
            want.sort();
        } else {
            assert_eq!(
                skill(&cfg, ".claude/commands/review.md").applicability,
                playbookdiff_model::Applicability::Shadowed
            );
        }
        assert_eq!(listed_skills(&cfg), want, "{v}");
    }
}

/// C24: an `.mcp.json` entry with a `url` but no `type` is skipped alone
/// (the rest of the file loads); `streamable-http` is `http`; `ws` and
/// `sse` are valid and listed. Recorded the same for both versions.
#[test]
fn c24_mcp_url_without_type() {
    use playbookdiff_model::Transport;
    for v in VERSIONS {
        let cfg = compile("c24_mcp_url_without_type", at_root().version(v));
        let names: Vec<&str> = cfg.mcp_servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["streamable", "plain-http", "socket", "events", "local"],
            "{v}"
        );
        let d = diags_at(&cfg, D::McpInvalidEntry, ".mcp.json");
        assert_eq!(d.len(), 1, "{v}");
        assert!(d[0].message.contains("`no-type`"));
        assert_eq!(lines_of(d[0]), (3, 5));
        assert_eq!(server(&cfg, "streamable").transport, Transport::Http);
        assert_eq!(server(&cfg, "plain-http").transport, Transport::Http);
        assert_eq!(server(&cfg, "local").transport, Transport::Stdio);
        for s in ["socket", "events"] {
            assert_eq!(server(&cfg, s).transport, Transport::Unknown);
        }
        assert_eq!(diags(&cfg, D::McpTransportUnsupported).len(), 2);
    }
}

/// C25: a Claude Code plugin in the repository (here a local plugin named
/// by the root marketplace) is detected and reported with what it would
/// add once installed; none of it is listed, and its skill file carries
/// the reason, so a comparison says why Claude Code lacks the skill. A
/// remote plugin of the marketplace is named too.
#[test]
fn c25_plugins_in_repository() {
    for v in VERSIONS {
        let cfg = compile("c25_plugins_in_repository", at_root().version(v));
        assert!(cfg.skills.is_empty(), "{v}");
        assert!(cfg.mcp_servers.is_empty(), "{v}");
        let d = diags_at(
            &cfg,
            D::PluginNotInstalled,
            "plugins/kit/.claude-plugin/plugin.json",
        );
        assert_eq!(d.len(), 1, "{v}");
        for part in [
            "`kit`",
            "1 skill (`kit:review`)",
            "1 command (`kit:fmt`)",
            "1 agent (`kit:critic`)",
            "hooks",
            "1 MCP server (`kit-server`)",
        ] {
            assert!(d[0].message.contains(part), "{part}: {}", d[0].message);
        }
        let s = diags_at(
            &cfg,
            D::PluginNotInstalled,
            "plugins/kit/skills/review/SKILL.md",
        );
        assert_eq!(s.len(), 1);
        let remote = diags_at(
            &cfg,
            D::PluginNotInstalled,
            ".claude-plugin/marketplace.json",
        );
        assert_eq!(remote.len(), 1);
        assert!(remote[0].message.contains("`remote`"));
        assert_eq!(lines_of(remote[0]).0, 6);
        assert!(cfg.assumptions.iter().any(|a| a.contains("plugins")));
    }
}

/// The received paths, in context order.
fn chain(cfg: &playbookdiff_model::EffectiveAgentConfig) -> Vec<String> {
    received_paths(cfg)
}

/// C5: the importing file is kept whole, `@path` text included; each
/// imported file follows as its own entry, depth-first, in order of first
/// appearance, each file once (seen with both versions).
#[test]
fn c05_import_blocks() {
    for v in VERSIONS {
        let cfg = compile("c05_import_blocks", at_root().version(v));
        assert_eq!(
            chain(&cfg),
            ["CLAUDE.md", "docs/a.md", "docs/b.md", "docs/c.md"],
            "{v}"
        );
        let top = one(&cfg, "CLAUDE.md");
        assert_eq!(top.content, "Top\n@docs/a.md\nMiddle @docs/c.md\nEnd");
        assert_eq!(top.import_spans.len(), 2);
        assert_eq!(
            one(&cfg, "docs/c.md").imported_from.as_deref(),
            Some(one(&cfg, "docs/b.md").id.as_str())
        );
        assert_eq!(diags_at(&cfg, D::ImportRepeated, "CLAUDE.md").len(), 1);
    }
}

/// C6: which `@` tokens import: text tokens of a Markdown lexer, `@` at a
/// token's start or after white space; not code, fenced code or HTML
/// comments; not after `(`; text after a closed comment counts; a file
/// with an extension Claude Code does not read as text is skipped.
#[test]
fn c06_import_tokens() {
    for v in VERSIONS {
        let cfg = compile("c06_import_tokens", at_root().version(v));
        assert_eq!(
            chain(&cfg),
            [
                "CLAUDE.md",
                "docs/bold.md",
                "docs/em.md",
                "docs/link.md",
                "docs/html.md",
                "docs/after-comment.md",
                "docs/item.md",
                "docs/quote.md"
            ],
            "{v}"
        );
        assert!(!one(&cfg, "CLAUDE.md").content.contains("hidden"));
        assert_eq!(diags_at(&cfg, D::ImportNotText, "CLAUDE.md").len(), 1);
        assert_eq!(diags_at(&cfg, D::ImportLookalike, "CLAUDE.md").len(), 1);
    }
}

/// C7: `@file.md#section` imports the file.
#[test]
fn c07_import_anchor() {
    for v in VERSIONS {
        let cfg = compile("c07_import_anchor", at_root().version(v));
        assert_eq!(chain(&cfg), ["CLAUDE.md", "docs/a.md"], "{v}");
    }
}

/// C8: `@My\ Doc.md` imports `My Doc.md`.
#[test]
fn c08_escaped_space() {
    for v in VERSIONS {
        let cfg = compile("c08_escaped_space", at_root().version(v));
        assert_eq!(chain(&cfg), ["CLAUDE.md", "My Doc.md"], "{v}");
        assert_eq!(one(&cfg, "My Doc.md").content, "Spaced");
    }
}

/// C10: `claudeMdExcludes` applies to imported files too: an excluded
/// import is listed as excluded, and nothing it imports is read (seen with
/// both versions: `docs/skip.md` and `vendor/notes.md` are not sent).
#[test]
fn c10_excludes_imports() {
    for v in VERSIONS {
        let cfg = compile("c10_excludes_imports", at_root().version(v));
        assert_eq!(chain(&cfg), ["CLAUDE.md", "docs/keep.md"], "{v}");
        let skip = one(&cfg, "docs/skip.md");
        assert_eq!(skip.applicability, Excluded, "{v}");
        assert_eq!(skip.kind, InstructionKind::Import);
        // First reached from docs/keep.md (depth-first), then skipped
        // silently from CLAUDE.md.
        assert_eq!(
            skip.imported_from.as_deref(),
            Some(one(&cfg, "docs/keep.md").id.as_str())
        );
        assert_eq!(one(&cfg, "vendor/notes.md").applicability, Excluded);
        assert!(pieces(&cfg, "docs/keep-too.md").is_empty());
        assert_eq!(diags(&cfg, D::InstructionExcluded).len(), 2, "{v}");
        assert_eq!(one(&cfg, "CLAUDE.md").import_spans.len(), 3);
        assert_imported_from_resolves(&cfg);
        assert_unique_ids(&cfg);
    }
}

/// C11: a memory file that is a symbolic link resolves its relative
/// imports from the directory of the link's target (seen with both
/// versions: `shared/guide/extra.md`, not the `extra.md` beside the link).
#[test]
fn c11_symlinked_import_base() {
    for v in VERSIONS {
        let cfg = compile("c11_symlinked_import_base", at_root().version(v));
        assert_eq!(chain(&cfg), ["CLAUDE.md", "shared/guide/extra.md"], "{v}");
        assert_eq!(
            one(&cfg, "CLAUDE.md")
                .source
                .resolved_path
                .as_ref()
                .map(|p| p.as_str()),
            Some("shared/guide/GUIDE.md")
        );
        assert!(pieces(&cfg, "extra.md").is_empty());
    }
}

/// C12: a path-scoped rule waits for a matching file, but what it imports
/// loads at startup whatever the target (seen in the first request of both
/// versions, with the rule as the import's parent).
#[test]
fn c12_rule_imports() {
    for v in VERSIONS {
        for (target, rule_applies) in [
            (None, Conditional),
            (Some("docs/other.md"), Conditional),
            (Some("src/api/a.ts"), Effective),
        ] {
            let ctx = match target {
                Some(t) => at_root().target(t).version(v),
                None => at_root().version(v),
            };
            let cfg = compile("c12_rule_imports", ctx);
            let rule = one(&cfg, ".claude/rules/api.md");
            assert_eq!(
                (rule.load_phase, rule.applicability),
                (OnDemand, rule_applies),
                "{v} {target:?}"
            );
            assert_eq!(rule.import_spans.len(), 1);
            let extra = one(&cfg, "docs/api-extra.md");
            assert_placed(extra, Startup, Effective, Some(1));
            assert_eq!(extra.imported_from.as_deref(), Some(rule.id.as_str()));
            let mut want = vec!["CLAUDE.md", "docs/api-extra.md"];
            if rule_applies == Effective {
                want.push(".claude/rules/api.md");
            }
            assert_eq!(chain(&cfg), want, "{v} {target:?}");
            assert_eq!(diags(&cfg, D::RuleImportUnscoped).len(), 1);
            assert_imported_from_resolves(&cfg);
        }
    }
}

/// C16, before 2.1.281: AGENTS.md is never read without a CLAUDE.md bridge.
#[test]
fn c16_agents_md_fallback_2_1_197() {
    let v = "2.1.197";
    let cfg = compile("c16_agents_md_fallback", at_root().version(v));
    assert!(chain(&cfg).is_empty(), "{:?}", chain(&cfg));
    assert!(diags(&cfg, D::AgentsMdFallback).is_empty());
    let d = diags_at(&cfg, D::AgentsMdNotBridged, "AGENTS.md");
    assert_says(d[0], "predates");
    let cfg = compile(
        "c16_claude_md_below_cwd",
        at_root().target("pkg/y.ts").version(v),
    );
    assert_eq!(chain(&cfg), ["pkg/CLAUDE.md"]);
}

/// C16, 2.1.281 and later: with no CLAUDE.md, .claude/CLAUDE.md or
/// CLAUDE.local.md from the root to the launch directory, AGENTS.md and
/// .claude/AGENTS.md load where CLAUDE.md would, imports included; a
/// CLAUDE.md below the launch directory does not turn it off; AGENTS.md
/// below the launch directory is not loaded on demand (seen with 2.1.332).
#[test]
fn c16_agents_md_fallback_2_1_332() {
    let v = "2.1.332";
    let cfg = compile("c16_agents_md_fallback", at_root().version(v));
    assert_eq!(
        chain(&cfg),
        ["AGENTS.md", "docs/agents-extra.md", ".claude/AGENTS.md"]
    );
    assert_placed(one(&cfg, "AGENTS.md"), Startup, Effective, Some(0));
    assert_eq!(one(&cfg, "AGENTS.md").kind, InstructionKind::Memory);
    assert_eq!(diags(&cfg, D::AgentsMdFallback).len(), 2);
    assert!(cfg.assumptions.iter().any(|a| a.contains("Bedrock")));
    let cfg = compile("c16_agents_md_fallback", at_root().cwd("pkg").version(v));
    assert_eq!(
        chain(&cfg),
        ["AGENTS.md", ".claude/AGENTS.md", "pkg/AGENTS.md"]
    );
    assert_eq!(one(&cfg, "docs/agents-extra.md").applicability, Conditional);
    let cfg = compile(
        "c16_agents_md_fallback",
        at_root().target("pkg/sub/x.ts").version(v),
    );
    assert!(!chain(&cfg).contains(&"pkg/AGENTS.md".to_string()));
    let d = diags_at(&cfg, D::AgentsMdNotBridged, "pkg/AGENTS.md");
    assert_says(d[0], "on demand");

    let cfg = compile("c16_claude_md_below_cwd", at_root().version(v));
    assert_eq!(chain(&cfg), ["AGENTS.md"]);
    let cfg = compile(
        "c16_claude_md_below_cwd",
        at_root().target("pkg/y.ts").version(v),
    );
    assert_eq!(chain(&cfg), ["AGENTS.md", "pkg/CLAUDE.md"]);
    let cfg = compile("c16_claude_md_below_cwd", at_root().cwd("pkg").version(v));
    assert_eq!(chain(&cfg), ["pkg/CLAUDE.md"]);
    assert!(diags(&cfg, D::AgentsMdFallback).is_empty());
}

/// C16: a `CLAUDE.md` that is a dangling link does not turn the fallback
/// off (corpus biomejs/biome, `CLAUDE.md -> CONTRIBUTING.md` absent:
/// 2.1.332 loaded the root AGENTS.md); one linking to a file does.
#[cfg(unix)]
#[test]
fn c16_agents_md_fallback_dangling_claude_md() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("AGENTS.md"), "# Agents\n").unwrap();
    std::os::unix::fs::symlink("CONTRIBUTING.md", t.path().join("CLAUDE.md")).unwrap();
    let cfg = compile_dir(t.path(), &at_root().version("2.1.332"));
    assert_eq!(chain(&cfg), ["AGENTS.md"]);
    assert_eq!(diags_at(&cfg, D::AgentsMdFallback, "AGENTS.md").len(), 1);
    let cfg = compile_dir(t.path(), &at_root().version("2.1.197"));
    assert!(chain(&cfg).is_empty(), "{:?}", chain(&cfg));
    std::fs::write(t.path().join("CONTRIBUTING.md"), "# Contributing\n").unwrap();
    let cfg = compile_dir(t.path(), &at_root().version("2.1.332"));
    assert_eq!(chain(&cfg), ["CLAUDE.md"]);
    assert!(diags(&cfg, D::AgentsMdFallback).is_empty());
}

/// C16: a memory file holding only white space (a byte order mark
/// included) does not turn the fallback off, wherever it lies on the
/// startup path and whatever its kind (random repository
/// `fuzz.claude-code.32`: 2.1.332 loaded the root AGENTS.md beside an
/// empty CLAUDE.md and beside one holding a BOM and a newline); one with
/// text does.
#[test]
fn c16_agents_md_fallback_beside_blank_memory_files() {
    for name in [
        "CLAUDE.md",
        ".claude/CLAUDE.md",
        "CLAUDE.local.md",
        "pkg/CLAUDE.md",
    ] {
        for blank in ["", "\n", " \t\r\n\n", "\u{feff}", "\u{feff}\n"] {
            let t = tempfile::tempdir().unwrap();
            write(t.path(), "AGENTS.md", "# Agents\n");
            write(t.path(), "pkg/x.ts", "x\n");
            write(t.path(), name, blank);
            let ctx = at_root().cwd("pkg").version("2.1.332").local();
            let cfg = compile_dir(t.path(), &ctx);
            assert_eq!(chain(&cfg), ["AGENTS.md"], "{name} {blank:?}");
            assert_eq!(
                diags(&cfg, D::AgentsMdFallback).len(),
                1,
                "{name} {blank:?}"
            );
            write(t.path(), name, "\u{feff}text\n");
            let cfg = compile_dir(t.path(), &ctx);
            assert_eq!(chain(&cfg), [name], "{name} with text");
            assert!(
                diags(&cfg, D::AgentsMdFallback).is_empty(),
                "{name} with text"
            );
        }
    }
}

/// C16: a memory file `claudeMdExcludes` removes does not turn the
/// fallback off (random repository `fuzz.claude-code.71`: 2.1.332 loaded
/// AGENTS.md beside a `.claude/CLAUDE.md` excluded by `**/CLAUDE.md`), in
/// every settings layer and for every kind of memory file.
#[test]
fn c16_agents_md_fallback_beside_excluded_memory_files() {
    for layer in [".claude/settings.json", ".claude/settings.local.json"] {
        for name in ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] {
            let t = tempfile::tempdir().unwrap();
            write(t.path(), "AGENTS.md", "agents\n");
            write(t.path(), name, "memory\n");
            let ctx = at_root().version("2.1.332").local();
            let cfg = compile_dir(t.path(), &ctx);
            assert_eq!(chain(&cfg), [name], "{layer} {name} not excluded");
            let pattern = format!("**/{}", name.rsplit('/').next().unwrap());
            write(
                t.path(),
                layer,
                &format!("{{\"claudeMdExcludes\": [\"{pattern}\"]}}\n"),
            );
            let cfg = compile_dir(t.path(), &ctx);
            assert_eq!(chain(&cfg), ["AGENTS.md"], "{layer} {name} excluded");
            assert_eq!(one(&cfg, name).applicability, Excluded, "{layer} {name}");
        }
    }
}

/// C16: under the fallback, a directory's rules come before its AGENTS.md
/// files (random repository `fuzz.claude-code.32`: 2.1.332 sent the root
/// rule, then AGENTS.md); below the root the adapter applies the same
/// order per directory (not yet observed there).
#[test]
fn c16_agents_md_fallback_comes_after_the_rules_of_its_directory() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "AGENTS.md", "root\n");
    write(t.path(), ".claude/rules/x3.md", "rule\n");
    let cfg = compile_dir(t.path(), &at_root().version("2.1.332"));
    assert_eq!(chain(&cfg), [".claude/rules/x3.md", "AGENTS.md"]);
    write(t.path(), "pkg/AGENTS.md", "pkg\n");
    write(t.path(), "pkg/.claude/rules/p.md", "pkg rule\n");
    let cfg = compile_dir(t.path(), &at_root().cwd("pkg").version("2.1.332"));
    assert_eq!(
        chain(&cfg),
        [
            ".claude/rules/x3.md",
            "AGENTS.md",
            "pkg/.claude/rules/p.md",
            "pkg/AGENTS.md"
        ]
    );
    // Without the fallback (a CLAUDE.md with text), rules follow CLAUDE.md.
    write(t.path(), "CLAUDE.md", "memory\n");
    let cfg = compile_dir(t.path(), &at_root().version("2.1.332"));
    assert_eq!(chain(&cfg), ["CLAUDE.md", ".claude/rules/x3.md"]);
}

/// C4: Claude Code reads memory files, rules and `.mcp.json` above the
/// repository root (up to the filesystem root); the analysis does not read
/// them, and says so with `outside-root-unseen` and an assumption. The
/// fixture's `repo/` is the repository; the fixture's own root holds a
/// CLAUDE.md, a rule and a `.mcp.json` above it.
#[test]
fn c04_files_above_root() {
    let repo = fixture("c04_files_above_root").join("repo");
    for v in VERSIONS {
        for ctx in [
            at_root(),
            at_root().cwd("pkg"),
            at_root().target("pkg/x.ts"),
        ] {
            let cfg = compile_dir(&repo, &ctx.version(v));
            assert_eq!(chain(&cfg), ["CLAUDE.md"], "{v}");
            assert!(cfg.mcp_servers.is_empty(), "{v}");
            let d = diags(&cfg, D::OutsideRootUnseen);
            assert_eq!(d.len(), 1, "{v}");
            assert_eq!(d[0].severity, Severity::Info);
            assert!(d[0].source.is_none());
            assert_says(d[0], ".mcp.json");
            assert!(
                cfg.assumptions
                    .iter()
                    .any(|a| a.contains("above the repository root")),
                "{:?}",
                cfg.assumptions
            );
            // Nothing of the files above is named.
            let text = serde_json::to_string(&cfg).unwrap();
            assert!(!text.contains("Above"), "{v}");
        }
    }
}

/// C15: a `paths` of only `**` (a list `["**"]` or the string `"**"`)
/// counts as no paths, so the rule loads at startup; `**` next to another
/// pattern matches everything but keeps the rule path-scoped (loaded on
/// the first read of any file, here `docs/readme.txt`). Recorded with both
/// versions (`claude.c15_paths_double_star`, for the root and two
/// targets); `c02_frontmatter_retry`'s `all.md` is the same case.
#[test]
fn c15_paths_double_star() {
    for v in VERSIONS {
        let cfg = compile("c15_paths_double_star", at_root().version(v));
        for r in [".claude/rules/all.md", ".claude/rules/string.md"] {
            let r = one(&cfg, r);
            assert_eq!((r.load_phase, r.applicability), (Startup, Effective), "{v}");
        }
        for r in [".claude/rules/mixed.md", ".claude/rules/ts.md"] {
            let r = one(&cfg, r);
            assert_eq!(
                (r.load_phase, r.applicability),
                (OnDemand, Conditional),
                "{v}"
            );
        }
        let cfg = compile("c02_frontmatter_retry", at_root().version(v));
        let r = one(&cfg, ".claude/rules/all.md");
        assert_eq!((r.load_phase, r.applicability), (Startup, Effective), "{v}");

        let on_demand = |target: &str| on_demand_effective("c15_paths_double_star", target, v);
        assert_eq!(
            on_demand("src/a.ts"),
            [".claude/rules/mixed.md", ".claude/rules/ts.md"],
            "{v}"
        );
        assert_eq!(
            on_demand("docs/readme.txt"),
            [".claude/rules/mixed.md"],
            "{v}"
        );
    }
}

/// C17: a skill's command name is its directory name, whatever the front
/// matter says: `deploy-app` with `name: ship` is `/deploy-app`, and `lint`
/// with `name: deploy-app` does not take `deploy-app`'s place. 2.1.332
/// shows a differing `name` as a label (`deploy-app (ship)`), 2.1.197 does
/// not. Same-name skills of nested roots stay apart, each named, with a
/// collision diagnostic (`same_name_nested_skills`). All recorded with
/// both versions (`claude.c17_skill_identity`).
#[test]
fn c17_skill_identity() {
    for v in VERSIONS {
        let cfg = compile("c17_skill_identity", at_root().version(v));
        let names: Vec<String> = listed_skills(&cfg).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["deploy-app", "lint", "review"], "{v}");
        let ship = skill(&cfg, ".claude/skills/deploy-app/SKILL.md");
        assert_eq!(ship.name, "deploy-app", "{v}");
        assert_eq!(
            ship.description.as_deref(),
            Some("Ship the app to staging.")
        );
        let labelled = ship.reason.contains("`deploy-app (ship)`");
        assert_eq!(labelled, v == "2.1.332", "{v}: {}", ship.reason);
        let lint = skill(&cfg, ".claude/skills/lint/SKILL.md");
        assert_eq!(lint.name, "lint", "{v}");
        assert!(diags(&cfg, D::SkillNameCollision).is_empty(), "{v}");

        let cfg = compile("same_name_nested_skills", at_root().version(v));
        let api = skill(&cfg, "apps/api/.claude/skills/deploy/SKILL.md");
        let web = skill(&cfg, "apps/web/.claude/skills/deploy/SKILL.md");
        assert_ne!(api.id, web.id, "{v}");
        assert_eq!(diags(&cfg, D::SkillNameCollision).len(), 1, "{v}");
    }
}

/// Before 2.0.77 a listed description is followed by its source (seen
/// with 2.0.59 to 2.0.75 on case `claude.c17_skill_identity`, sampled:
/// `Ship the app to staging. (project)`); from 2.0.77 on as written.
#[test]
fn c17_skill_listing_with_source_before_2_0_77() {
    let cfg = compile("c17_skill_identity", at_root().version("2.0.76"));
    let ship = skill(&cfg, ".claude/skills/deploy-app/SKILL.md");
    assert_eq!(
        ship.description.as_deref(),
        Some("Ship the app to staging. (project)")
    );
    let cfg = compile("c17_skill_identity", at_root().version("2.0.77"));
    let ship = skill(&cfg, ".claude/skills/deploy-app/SKILL.md");
    assert_eq!(
        ship.description.as_deref(),
        Some("Ship the app to staging.")
    );
}

/// C18: a skill with `paths` is held back, from the user and the model
/// alike, until a file matching them is read; a skill without `paths` is
/// listed at startup. Recorded with both versions for the root and a
/// matching target (`claude.c18_path_scoped_skills`: only `always` is
/// listed in either request).
#[test]
fn c18_path_scoped_skills() {
    let api = ".claude/skills/api-helper/SKILL.md";
    for v in VERSIONS {
        let cfg = compile("c18_path_scoped_skills", at_root().version(v));
        let s = skill(&cfg, api);
        assert_eq!(
            (s.load_phase, s.applicability),
            (OnDemand, Conditional),
            "{v}"
        );
        assert_eq!(
            listed_skills(&cfg),
            [("always".to_string(), "Always offered.".to_string())],
            "{v}"
        );
        for (target, activated) in [("lib/api/users.ts", true), ("lib/other.ts", false)] {
            let cfg = compile(
                "c18_path_scoped_skills",
                at_root().target(target).version(v),
            );
            let s = skill(&cfg, api);
            let want = if activated { Effective } else { Conditional };
            assert_eq!(
                (s.load_phase, s.applicability),
                (OnDemand, want),
                "{v} {target}"
            );
            assert_eq!(listed_skills(&cfg).len(), 1, "{v} {target}");
        }
    }
}

/// C19: without a `description`, the first non-empty line, heading marker
/// stripped, is the description, cut to 100 characters with `...` (here
/// 97 characters and the dots), after front matter without one too.
/// Recorded with both versions (`claude.c19_description_fallback`).
#[test]
fn c19_description_fallback() {
    let long = "This heading is deliberately much longer than one hundred characters so that the listing has to c...";
    for v in VERSIONS {
        let cfg = compile("c19_description_fallback", at_root().version(v));
        assert_eq!(
            listed_skills(&cfg),
            [
                ("heading".to_string(), "Release notes".to_string()),
                ("long".to_string(), long.to_string()),
                (
                    "plain".to_string(),
                    "Summarise the branch in three bullet points.".to_string()
                ),
            ],
            "{v}"
        );
        let cfg = compile("root_skill", at_root().version(v));
        let s = skill(&cfg, ".claude/skills/no-frontmatter/SKILL.md");
        assert_eq!(s.description.as_deref(), Some("Changelog"), "{v}");
    }
}

/// C20: YAML 1.2 scalar typing of SKILL.md front matter, for both
/// versions: `name: y` is the text "y" (2.1.332 lists `rev (y)`),
/// `description: 456` the text "456", `description: no` the text "no"
/// (`claude.c20_yaml_scalar_typing`). Booleans differ by version
/// (`skill_invocation`): from 2.1.218, `disable-model-invocation: yes`
/// is true, so the skill is not offered to the model; 2.1.197 reads `yes`
/// as text, ignores it (a diagnostic says so) and lists the skill.
#[test]
fn c20_yaml_scalar_typing() {
    for v in VERSIONS {
        let cfg = compile("c20_yaml_scalar_typing", at_root().version(v));
        assert_eq!(
            listed_skills(&cfg),
            [
                ("answer".to_string(), "no".to_string()),
                ("count".to_string(), "456".to_string()),
                (
                    "rev".to_string(),
                    "Review with a one-letter name.".to_string()
                ),
            ],
            "{v}"
        );
        let rev = skill(&cfg, ".claude/skills/rev/SKILL.md");
        assert_eq!(rev.reason.contains("`rev (y)`"), v == "2.1.332", "{v}");

        let cfg = compile("skill_invocation", at_root().version(v));
        let y = skill(&cfg, ".claude/skills/yesno/SKILL.md");
        let listed = listed_skills(&cfg).iter().any(|(n, _)| n == "yesno");
        let invalid = diags(&cfg, D::InvalidValue);
        if v == "2.1.332" {
            assert_eq!(
                y.invocation.implicit,
                playbookdiff_model::Permission::Blocked
            );
            assert_eq!(
                y.invocation.explicit,
                playbookdiff_model::Permission::Blocked
            );
            assert!(!listed);
            assert!(invalid.is_empty(), "{invalid:?}");
        } else {
            assert_eq!(
                y.invocation.implicit,
                playbookdiff_model::Permission::Allowed
            );
            assert_eq!(
                y.invocation.explicit,
                playbookdiff_model::Permission::Allowed
            );
            assert!(listed);
            assert_eq!(invalid.len(), 2, "{invalid:?}");
            assert!(
                invalid[0].message.contains("reads `yes`"),
                "{}",
                invalid[0].message
            );
        }
    }
}

/// Settled assumption: rules come in directory-listing order, unsorted, so
/// the path order the adapter gives is an approximation and the result says
/// so once there are two rules in a root (fixture `unconditional_rules`:
/// `a-testing.md`, `b-style.md`), not with one (`path_scoped_rule`).
#[test]
fn settled_rule_order_is_an_assumption() {
    let said = |cfg: &playbookdiff_model::EffectiveAgentConfig| {
        cfg.assumptions
            .iter()
            .filter(|a| a.contains("order the file system lists"))
            .count()
    };
    for v in VERSIONS {
        let cfg = compile("unconditional_rules", at_root().version(v));
        assert_eq!(said(&cfg), 1, "{v}");
        let cfg = compile("path_scoped_rule", at_root().version(v));
        assert_eq!(said(&cfg), 0, "{v}");
    }
}

/// C4 with `--outside-root` (local mode): the files above the repository
/// root are read as Claude Code reads them, the furthest directory first:
/// the parent's `CLAUDE.md`, its unconditional rule, then the repository's
/// own `CLAUDE.md` (the order recorded with both versions in
/// `claude.c04_files_above_root.in-repo`, where the same files are inside
/// the repository), the parent's `CLAUDE.local.md` after its rules, its
/// path-scoped rule matched against the repository's place in it
/// (`repo/pkg/**`), and its `.mcp.json` server. Each names its file with
/// `..` and says it lies outside the repository; `outside-root-unseen` and
/// its assumption are gone. Built in a temporary directory: what lies above
/// that directory is left out of the comparison.
/// Compiles `ctx` as release `v` does with `--outside-root`: the
/// directories above the root read through `above`.
fn compile_outside(
    repo: &playbookdiff_source::Repo<'_>,
    above: &playbookdiff_source::Ancestors,
    v: &str,
    ctx: Ctx,
) -> playbookdiff_model::EffectiveAgentConfig {
    use playbookdiff_adapter::{Adapter, Inputs};
    playbookdiff_claude::ADAPTER.compile_with(
        repo,
        &ctx.version(v).context(),
        &Inputs {
            version: Some(v),
            outside_root: Some(above),
            ..Inputs::default()
        },
    )
}

#[test]
fn c04_outside_root_reads_files_above_root() {
    use playbookdiff_adapter::Adapter;
    let t = copy_to_temp(&fixture("c04_files_above_root"));
    write(t.path(), "CLAUDE.local.md", "Personal, above\n");
    write(
        t.path(),
        ".claude/rules/scoped.md",
        "---\npaths: [\"repo/pkg/**\"]\n---\nAbove: scoped\n",
    );
    let repo_dir = t.path().join("repo");
    let tree = playbookdiff_source::WorkingTree::open(&repo_dir).unwrap();
    let above = playbookdiff_source::Ancestors::of(
        playbookdiff_source::SourceTree::absolute_root(&tree).unwrap(),
    );
    let repo = playbookdiff_source::Repo::new(&tree);
    let ours = |cfg: &playbookdiff_model::EffectiveAgentConfig| -> Vec<String> {
        chain(cfg)
            .into_iter()
            .filter(|p| !p.starts_with("../../"))
            .collect()
    };
    for v in VERSIONS {
        let compile = |ctx: Ctx| compile_outside(&repo, &above, v, ctx);
        let cfg = compile(at_root().local());
        assert_eq!(
            ours(&cfg),
            [
                "../CLAUDE.md",
                "../.claude/rules/above.md",
                "../CLAUDE.local.md",
                "CLAUDE.md"
            ],
            "{v}"
        );
        let first = one(&cfg, "../CLAUDE.md");
        assert!(first.source.outside_root, "{v}");
        assert_eq!(
            (first.load_phase, first.applicability),
            (Startup, Effective)
        );
        assert_eq!(first.applies_to.as_str(), ".");
        assert!(
            first.reason.contains("above the repository root"),
            "{}",
            first.reason
        );
        assert!(!one(&cfg, "CLAUDE.md").source.outside_root);
        let scoped = one(&cfg, "../.claude/rules/scoped.md");
        assert_eq!(
            (scoped.load_phase, scoped.applicability),
            (OnDemand, Conditional),
            "{v}"
        );
        assert_eq!(cfg.mcp_servers.len(), 1, "{v}");
        assert_eq!(cfg.mcp_servers[0].name, "above");
        assert_eq!(cfg.mcp_servers[0].source.path.as_str(), "../.mcp.json");
        assert!(cfg.mcp_servers[0].source.outside_root);
        assert!(diags(&cfg, D::OutsideRootUnseen).is_empty(), "{v}");
        assert!(
            !cfg.assumptions
                .iter()
                .any(|a| a.starts_with("No CLAUDE.md")),
            "{:?}",
            cfg.assumptions
        );
        assert!(cfg.assumptions.iter().any(|a| a.contains("--outside-root")));
        let json = serde_json::to_string(&cfg).unwrap();
        assert!(json.contains(r#""path":"../CLAUDE.md""#), "{v}");
        assert!(json.contains(r#""outsideRoot":true"#), "{v}");
        // Nothing names the machine's directories.
        assert!(!json.contains(&*t.path().to_string_lossy()), "{v}");

        // The path-scoped rule above loads for a matching target inside the
        // launch directory, relative to the directory holding its `.claude`.
        let cfg = compile(at_root().local().target("pkg/x.ts"));
        let scoped = one(&cfg, "../.claude/rules/scoped.md");
        assert_eq!(
            (scoped.load_phase, scoped.applicability),
            (OnDemand, Effective),
            "{v}"
        );
        let cfg = compile(at_root().local().cwd("pkg"));
        assert_eq!(ours(&cfg)[0], "../CLAUDE.md", "{v}");

        // Without the flag: nothing above is read, and the result says so.
        let cfg =
            playbookdiff_claude::ADAPTER.compile(&repo, &at_root().local().context(), Some(v));
        assert_eq!(chain(&cfg), ["CLAUDE.md"], "{v}");
        assert_eq!(diags(&cfg, D::OutsideRootUnseen).len(), 1, "{v}");
    }
}

/// With `--outside-root`, a CLAUDE.md above the root is a memory file on
/// the path, so 2.1.332's AGENTS.md fallback stays off (fidelity C16).
#[test]
fn c16_fallback_off_with_memory_above_root() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "CLAUDE.md", "Above\n");
    write(t.path(), "repo/AGENTS.md", "Agents\n");
    let tree = playbookdiff_source::WorkingTree::open(&t.path().join("repo")).unwrap();
    let above = playbookdiff_source::Ancestors::of(
        playbookdiff_source::SourceTree::absolute_root(&tree).unwrap(),
    );
    let repo = playbookdiff_source::Repo::new(&tree);
    let cfg = compile_outside(&repo, &above, "2.1.332", at_root().local());
    let ours: Vec<String> = chain(&cfg)
        .into_iter()
        .filter(|p| !p.starts_with("../../"))
        .collect();
    assert_eq!(ours, ["../CLAUDE.md"]);
    assert!(diags(&cfg, D::AgentsMdFallback).is_empty());
}

/// Settled assumption: front matter is stripped from memory files and a
/// `paths:` there means nothing: `CLAUDE.md` with `paths: ["src/**"]` and
/// `.claude/CLAUDE.md` with a `title` load at startup, whole, without
/// their front matter, and nothing more loads on a read of `src/a.ts`
/// (recorded with both versions: `claude.settled_memory_front_matter`,
/// whose request text the differential test compares).
#[test]
fn settled_memory_front_matter_is_stripped() {
    for v in VERSIONS {
        for ctx in [at_root(), at_root().target("src/a.ts")] {
            let cfg = compile("settled_memory_front_matter", ctx.version(v));
            assert_eq!(chain(&cfg), ["CLAUDE.md", ".claude/CLAUDE.md"], "{v}");
            let root = one(&cfg, "CLAUDE.md");
            assert_eq!((root.load_phase, root.applicability), (Startup, Effective));
            assert_eq!(root.content, "# Root\n\nUse pnpm.", "{v}");
            assert_eq!(root.paths, None, "{v}");
            let dot = one(&cfg, ".claude/CLAUDE.md");
            assert_eq!(dot.content, "Run the linter before committing.", "{v}");
            assert!(
                !cfg.instructions.iter().any(|i| i.load_phase == OnDemand),
                "{v}"
            );
        }
    }
}

/// Settled assumption: a reject in `disabledMcpjsonServers` beats enabling,
/// by name (`enabledMcpjsonServers`) or all at once
/// (`enableAllProjectMcpServers`), in the same settings file
/// (`claude.settled_mcp_reject_beats_enabling`: only `beta` is started,
/// with both versions) and from the personal file against the shared one
/// (`claude.mcp_disabled_locally`: `github` is not started).
#[test]
fn settled_a_reject_beats_enabling() {
    for v in VERSIONS {
        let cfg = compile("settled_mcp_reject_beats_enabling", at_root().version(v));
        let state = |cfg: &playbookdiff_model::EffectiveAgentConfig, n: &str| {
            cfg.mcp_servers
                .iter()
                .find(|s| s.name == n)
                .unwrap()
                .applicability
        };
        assert_eq!(state(&cfg, "alpha"), Excluded, "{v}");
        assert_eq!(state(&cfg, "beta"), Effective, "{v}");
        assert_eq!(state(&cfg, "gamma"), Excluded, "{v}");
        assert_eq!(diags(&cfg, D::McpServerDisabled).len(), 2, "{v}");
        let cfg = compile("mcp_disabled_locally", at_root().local().version(v));
        assert_eq!(state(&cfg, "github"), Excluded, "{v}");
        assert_eq!(state(&cfg, "docs"), Effective, "{v}");
    }
}

/// C4 with links (case `claude.c04_above_root_links`, recorded with both
/// versions, launched at the root, in `pkg` and reading `pkg/x.ts`): with
/// `--outside-root` the view above the root follows links as Claude Code
/// does. A linked `../CLAUDE.md` and a linked `../../.mcp.json` load with
/// both releases, named by the link, the target in `resolvedPath`;
/// `.claude/CLAUDE.md`, a link leaving the repository, is read where it
/// leads. Linked rules (`../.claude/rules/linked.md`, the linked
/// `../../.claude/rules`, `.claude/rules/out.md` leaving the repository)
/// load with 2.1.197 only; 2.1.332 loads just the rule links whose target
/// lies inside the launch directory. `@../../shared/imported.md` climbs
/// above the root: read through the view as an external import (it needs
/// an approval, so it is conditional); without the flag it is reported as
/// climbing above the root and nothing above is opened.
#[test]
fn c04_outside_root_follows_links_as_the_release_does() {
    use playbookdiff_adapter::Adapter;
    let dir = std::fs::canonicalize(fixture("c04_above_root_links").join("mid/repo")).unwrap();
    let tree = playbookdiff_source::WorkingTree::open(&dir).unwrap();
    let above = playbookdiff_source::Ancestors::of(&dir).nearest(2);
    let repo = playbookdiff_source::Repo::new(&tree);
    for v in VERSIONS {
        let compile = |ctx: Ctx| compile_outside(&repo, &above, v, ctx);
        let cfg = compile(at_root().local());
        let want: &[&str] = if v == "2.1.197" {
            &[
                "../../.claude/rules/linked-dir-rule.md",
                "../CLAUDE.md",
                "../.claude/rules/above.md",
                "../.claude/rules/linked.md",
                "CLAUDE.md",
                ".claude/CLAUDE.md",
                ".claude/rules/inner-dir/dir-rule.md",
                ".claude/rules/inner.md",
                ".claude/rules/out.md",
            ]
        } else {
            &[
                "../CLAUDE.md",
                "../.claude/rules/above.md",
                "CLAUDE.md",
                ".claude/CLAUDE.md",
                ".claude/rules/inner-dir/dir-rule.md",
                ".claude/rules/inner.md",
            ]
        };
        assert_eq!(chain(&cfg), want, "{v}");
        let resolved = |p: &str| {
            one(&cfg, p)
                .source
                .resolved_path
                .as_ref()
                .map(|r| r.to_string())
        };
        assert_eq!(
            resolved("../CLAUDE.md").as_deref(),
            Some("../../shared/notes.md")
        );
        assert!(one(&cfg, "../CLAUDE.md")
            .content
            .starts_with("# Linked parent notes"));
        assert_eq!(
            resolved(".claude/CLAUDE.md").as_deref(),
            Some("../../shared/dot-claude.md")
        );
        assert!(diags_at(&cfg, D::SymlinkOutsideRepository, ".claude/CLAUDE.md").is_empty());
        if v == "2.1.197" {
            assert_eq!(
                resolved("../../.claude/rules/linked-dir-rule.md").as_deref(),
                Some("../../shared/rules/linked-dir-rule.md")
            );
            assert_eq!(
                resolved(".claude/rules/out.md").as_deref(),
                Some("../../shared/out-rule.md")
            );
        } else {
            for link in [
                "../.claude/rules/linked.md",
                "../../.claude/rules",
                ".claude/rules/out.md",
            ] {
                let d = diags_at(&cfg, D::RuleSymlinkConflict, link);
                assert_eq!(d.len(), 1, "{link}");
                assert_says(d[0], "not loaded");
            }
        }
        let mut servers: Vec<(String, String, Option<String>)> = cfg
            .mcp_servers
            .iter()
            .map(|s| {
                (
                    s.name.clone(),
                    s.source.path.to_string(),
                    s.source.resolved_path.as_ref().map(|r| r.to_string()),
                )
            })
            .collect();
        servers.sort();
        assert_eq!(
            servers,
            [
                (
                    "outer-linked".to_string(),
                    "../../.mcp.json".to_string(),
                    Some("../../shared/mcp.json".to_string())
                ),
                ("parent-srv".to_string(), "../.mcp.json".to_string(), None)
            ],
            "{v}"
        );
        // Imports that climb above the root, and one in the linked parent
        // file (resolved from the link's target, fidelity C11): external,
        // so conditional, as `-p` does not load them.
        for p in ["../../shared/imported.md", "../../shared/parent-import.md"] {
            let i = one(&cfg, p);
            assert_eq!(i.applicability, Conditional, "{v} {p}");
        }
        assert_eq!(diags(&cfg, D::ImportOutsideCwd).len(), 2, "{v}");
        assert!(diags(&cfg, D::ImportOutsideRepository).is_empty(), "{v}");

        // The parent's path-scoped rule loads for `pkg/x.ts`.
        let cfg = compile(at_root().local().target("pkg/x.ts"));
        let scoped = one(&cfg, "../.claude/rules/scoped.md");
        assert_eq!(
            (scoped.load_phase, scoped.applicability),
            (OnDemand, Effective),
            "{v}"
        );

        // Without the flag: nothing above is read, the climbing import and
        // the link leaving the repository are reported.
        let cfg =
            playbookdiff_claude::ADAPTER.compile(&repo, &at_root().local().context(), Some(v));
        assert!(chain(&cfg).iter().all(|p| !p.starts_with("..")), "{v}");
        assert!(
            !chain(&cfg).contains(&".claude/CLAUDE.md".to_string()),
            "{v}"
        );
        assert_eq!(
            diags_at(&cfg, D::SymlinkOutsideRepository, ".claude/CLAUDE.md").len(),
            1,
            "{v}"
        );
        let climbing = diags(&cfg, D::ImportOutsideRepository);
        assert_eq!(climbing.len(), 1, "{v}");
        assert_says(climbing[0], "climbs above the repository root");
        assert!(cfg.mcp_servers.is_empty(), "{v}");
    }
}

/// Odd `paths` values of rules, recorded with both versions
/// (`claude.c26_rule_paths_odd` and its three targets): `""`, `[]`,
/// `null` and a number mean no paths, so those rules load at startup;
/// `/src/*.ts` is anchored at the directory holding `.claude` and loads
/// for `src/a.ts`; `src/` matches the directory at any depth, so it loads
/// for `src/a.ts` and `lib/src/a.ts`; `./src/*.ts` and `!src/**` match
/// nothing; an empty entry in a list matches nothing and leaves the other
/// entries working.
#[test]
fn c26_rule_paths_odd() {
    for v in VERSIONS {
        let cfg = compile("c26_rule_paths_odd", at_root().version(v));
        for r in ["empty-string", "empty-list", "null-paths", "number-paths"] {
            let r = one(&cfg, &format!(".claude/rules/{r}.md"));
            assert_eq!((r.load_phase, r.applicability), (Startup, Effective), "{v}");
        }
        let on_demand = |target: &str| on_demand_effective("c26_rule_paths_odd", target, v);
        assert_eq!(
            on_demand("src/a.ts"),
            [".claude/rules/anchored.md", ".claude/rules/dir-slash.md"],
            "{v}"
        );
        assert_eq!(
            on_demand("lib/src/a.ts"),
            [".claude/rules/blank-entry.md", ".claude/rules/dir-slash.md"],
            "{v}"
        );
        assert!(on_demand("docs/x.md").is_empty(), "{v}");
    }
}

/// What the skill listing shows for odd front-matter fields
/// (`claude.c27_skill_fields`): `when_to_use` follows the description
/// after ` - ` in both versions; a two-line `description: |` keeps its
/// line break with 2.1.197 and is one line with 2.1.332; a numeric
/// description is text; a list is not text, so the body's first line is
/// used.
#[test]
fn c27_skill_fields() {
    for v in VERSIONS {
        let cfg = compile("c27_skill_fields", at_root().version(v));
        let listed: std::collections::BTreeMap<String, String> =
            listed_skills(&cfg).into_iter().collect();
        assert_eq!(
            listed["when"], "Deploys the app. - When asked to ship a release.",
            "{v}"
        );
        let multiline = if v == "2.1.197" {
            "First line.\nSecond line."
        } else {
            "First line. Second line."
        };
        assert_eq!(listed["multiline"], multiline, "{v}");
        assert_eq!(listed["numdesc"], "42", "{v}");
        assert_eq!(listed["listdesc"], "Body.", "{v}");
        assert_eq!(listed["spaced"], "Leading and trailing spaces.", "{v}");
    }
}

/// A byte order mark and CRLF line ends (`compare.bom_crlf_skills`, a
/// fixture of the compare crate, recorded with both versions): the mark
/// is trimmed from a `CLAUDE.md` as JavaScript's `trim` trims it, CRLF
/// stays; before a SKILL.md's `---` the mark hides the front matter with
/// 2.1.197 (its first line, `---`, is the description, and a diagnostic
/// says why) but not with 2.1.332; CRLF front matter reads in both.
#[test]
fn bom_and_crlf() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../playbookdiff-compare/tests/fixtures/bom_crlf_skills");
    for v in VERSIONS {
        let cfg = compile_dir(&dir, &at_root().version(v));
        let memory = one(&cfg, "CLAUDE.md");
        assert_eq!(
            memory.content, "# Memory with a byte order mark\r\n\r\nCRLF lines.",
            "{v}"
        );
        let listed: std::collections::BTreeMap<String, String> =
            listed_skills(&cfg).into_iter().collect();
        assert_eq!(listed["crlf-c"], "CRLF in the claude folder.", "{v}");
        let bom = if v == "2.1.197" {
            "---"
        } else {
            "BOM in the claude folder."
        };
        assert_eq!(listed["bom-c"], bom, "{v}");
        let hidden = cfg
            .diagnostics
            .iter()
            .any(|d| d.code == D::InvalidFrontmatter && d.message.contains("byte order mark"));
        assert_eq!(hidden, v == "2.1.197", "{v}");
    }
}

/// The per-skill cap of 1,536 characters applies to the text the listing
/// shows, `when_to_use` included (`claude.c28_description_cap`, both
/// versions: 1,500 characters of description and 100 of `when_to_use`
/// are listed as their first 1,535 characters and `…`; a description of
/// exactly 1,536 characters is whole, one of 1,537 is cut).
#[test]
fn c28_description_cap() {
    use playbookdiff_model::AdvertisementState;
    for v in VERSIONS {
        let cfg = compile("c28_description_cap", at_root().version(v));
        let state = |dir: &str| {
            let s = skill(&cfg, &format!(".claude/skills/{dir}/SKILL.md"));
            (s.advertisement.description_chars, s.advertisement.state)
        };
        assert_eq!(
            state("combined"),
            (1500 + 3 + 100, AdvertisementState::BudgetRisk),
            "{v}"
        );
        assert_eq!(
            state("exact"),
            (1536, AdvertisementState::Advertised),
            "{v}"
        );
        assert_eq!(state("over"), (1537, AdvertisementState::BudgetRisk), "{v}");
    }
}

/// A byte order mark at the start of a memory file or rule
/// (`claude.c29_bom_import_and_rule`, startup and a read of `src/a.ts`,
/// both versions): `@docs/x.md` right after the mark imports in both; a
/// rule whose `---` follows the mark loads at startup with 2.1.197, its
/// front matter sent as text, and waits for `src/**` with 2.1.332.
#[test]
fn c29_bom_import_and_rule() {
    for v in VERSIONS {
        let cfg = compile("c29_bom_import_and_rule", at_root().version(v));
        let imported = one(&cfg, "docs/x.md");
        assert_eq!(
            imported.imported_from.as_deref(),
            Some("claude-code:memory:CLAUDE.md#1"),
            "{v}"
        );
        let rule = one(&cfg, ".claude/rules/bom-rule.md");
        if v == "2.1.197" {
            assert_eq!((rule.load_phase, rule.applicability), (Startup, Effective));
            assert!(rule.content.starts_with("---\npaths: src/**\n---"));
        } else {
            assert_eq!(
                (rule.load_phase, rule.applicability),
                (OnDemand, Conditional)
            );
            assert_eq!(rule.content, "BOM rule.");
        }
    }
}

/// The names of the skills the listing holds, in the adapter's order.
fn listing(cfg: &playbookdiff_model::EffectiveAgentConfig) -> Vec<String> {
    cfg.skills
        .iter()
        .filter(|s| {
            s.applicability == Effective
                && s.load_phase == Startup
                && s.invocation.implicit != playbookdiff_model::Permission::Blocked
                && s.advertisement.state != playbookdiff_model::AdvertisementState::Omitted
        })
        .map(|s| s.name.clone())
        .collect()
}

/// The listing budget before 2.1.19 (case `claude.c30_listing_char_budget`,
/// fourteen skills of 1,200-character descriptions, recorded with 2.0.76,
/// 2.0.77, 2.1.197 and 2.1.332 and bisected): 15,000 characters of the
/// entries as listed. 2.0.76 lists the XML entries of `cap-01` to `cap-11`,
/// 2.0.77 to 2.1.18 the `- name: description` lines of `cap-01` to
/// `cap-12`; the rest are omitted, whole, with one diagnostic at the first
/// left out. From 2.1.19 the budget shortens descriptions instead and
/// every skill is listed (`c31_listing_shortened`).
#[test]
fn c30_listing_char_budget() {
    let caps = |n: usize| (1..=n).map(|i| format!("cap-{i:02}")).collect::<Vec<_>>();
    for (v, fit) in [
        ("2.0.76", 11),
        ("2.0.77", 12),
        ("2.1.18", 12),
        ("2.1.19", 14),
        ("2.1.197", 14),
        ("2.1.332", 14),
    ] {
        let cfg = compile("c30_listing_char_budget", at_root().version(v));
        assert_eq!(listing(&cfg), caps(fit), "{v}");
        // The cap per description (`SkillDescriptionCap`, from 2.1.105).
        let cap = skill(&cfg, ".claude/skills/cap-01/SKILL.md")
            .advertisement
            .description_limit_chars;
        let capped = !["2.0.76", "2.0.77", "2.1.18", "2.1.19"].contains(&v);
        assert_eq!(cap, capped.then_some(1536), "{v}");
        let over = diags(&cfg, D::SkillListingOverBudget);
        if fit == 14 {
            assert!(over.is_empty(), "{v}");
            continue;
        }
        assert_eq!(over.len(), 1, "{v}");
        let first = format!(".claude/skills/cap-{:02}/SKILL.md", fit + 1);
        assert_eq!(over[0].source.as_ref().unwrap().path.as_str(), first, "{v}");
        assert!(
            over[0].message.contains(&format!("`cap-{:02}`", fit + 1)),
            "{v}"
        );
        let omitted = skill(&cfg, ".claude/skills/cap-14/SKILL.md");
        assert_eq!(
            omitted.advertisement.state,
            playbookdiff_model::AdvertisementState::Omitted
        );
        assert_eq!(omitted.advertisement.description_limit_chars, None, "{v}");
    }
}

/// The description each skill of a listing over its budget is shown with
/// (case `claude.c31_listing_shortened`, forty skills, recorded with
/// 2.1.19, 2.1.197 and 2.1.332). 2.1.19 cuts every description longer
/// than one equal share of 15,000 UTF-16 code units (367) to 366 and `…`:
/// `s05` (367) stays whole, `s06` (368) is cut, CJK text keeps 366
/// characters and text with ten emoji 356, the short `s38` stays whole.
/// From 2.1.129 each description is whole or dropped in listing order
/// against 30,000 columns less the bundled skills: 2.1.197 drops `s23` to
/// `s37`, 2.1.332 `s22` to `s37`; the short `s38` to `s40` still fit.
#[test]
fn c31_listing_shortened() {
    use playbookdiff_model::{AdvertisementState, BudgetCause};
    let path = |n: u32| format!(".claude/skills/s{n:02}/SKILL.md");
    let cfg = compile("c31_listing_shortened", at_root().version("2.1.19"));
    assert_eq!(listing(&cfg).len(), 40);
    let shown = |n: u32| {
        let a = &skill(&cfg, &path(n)).advertisement;
        (a.state, a.shown_description.clone())
    };
    assert_eq!(shown(5), (AdvertisementState::Advertised, None));
    assert_eq!(shown(38), (AdvertisementState::Advertised, None));
    for (n, chars, units) in [(1, 367, 367), (6, 367, 367), (7, 367, 367), (8, 357, 367)] {
        let (state, text) = shown(n);
        let text = text.unwrap();
        assert_eq!(state, AdvertisementState::Shortened, "s{n:02}");
        assert!(text.ends_with('…'), "s{n:02}");
        assert_eq!(text.chars().count(), chars, "s{n:02}");
        assert_eq!(text.encode_utf16().count(), units, "s{n:02}");
        let full = skill(&cfg, &path(n)).description.clone().unwrap();
        assert!(full.starts_with(text.trim_end_matches('…')), "s{n:02}");
    }
    let budget = skill(&cfg, &path(1))
        .advertisement
        .aggregate_budget
        .unwrap();
    assert_eq!(budget.computed_chars, Some(15_000));
    assert_eq!(diags(&cfg, D::SkillListingShortened).len(), 1);
    for (v, last_whole) in [("2.1.197", 22), ("2.1.332", 21)] {
        let cfg = compile("c31_listing_shortened", at_root().version(v));
        assert_eq!(listing(&cfg).len(), 40, "{v}");
        for n in 1..=40 {
            let a = &skill(&cfg, &path(n)).advertisement;
            let dropped = n > last_whole && n < 38;
            // `s09` passes the cap per description (`skill-budget-risk`).
            let want = if dropped {
                (AdvertisementState::Shortened, Some(String::new()))
            } else if n == 9 {
                (AdvertisementState::BudgetRisk, None)
            } else {
                (AdvertisementState::Advertised, None)
            };
            assert_eq!((a.state, a.shown_description.clone()), want, "{v} s{n:02}");
            if dropped {
                // The repository's forty skills alone fit 30,000 columns
                // up to `s26`: the bundled skills drop the first ones.
                let alone = if n <= 26 {
                    BudgetCause::WithBundled
                } else {
                    BudgetCause::Certain
                };
                assert_eq!(a.budget_cause, Some(alone), "{v} s{n:02}");
            }
        }
        let budget = skill(&cfg, &path(1))
            .advertisement
            .aggregate_budget
            .unwrap();
        assert_eq!(budget.computed_chars, Some(30_000), "{v}");
        assert_eq!(diags(&cfg, D::SkillListingShortened).len(), 1, "{v}");
    }
}

/// A memory file's trailing line end (case `claude.c12_rule_imports`,
/// bisected): 2.1.78 sends `CLAUDE.md` (`Root` and a line end) as `Root\n`,
/// 2.1.79 as `Root`.
#[test]
fn memory_text_keeps_its_line_end_before_2_1_79() {
    for (v, text) in [("2.1.78", "Root\n"), ("2.1.79", "Root")] {
        let cfg = compile("c12_rule_imports", at_root().version(v));
        assert_eq!(one(&cfg, "CLAUDE.md").content, text, "{v}");
    }
}

/// Rules in path order before 2.1.113 (case
/// `claude.c04_above_root_links`, bisected): then the order given is the
/// release's, so no assumption says it may differ; from 2.1.113 the file
/// system's order is, and one does.
#[test]
fn rule_order_is_an_assumption_from_2_1_113() {
    for (v, assumed) in [("2.1.112", false), ("2.1.113", true), ("2.1.332", true)] {
        let cfg = compile("unconditional_rules", at_root().version(v));
        let order = cfg
            .assumptions
            .iter()
            .any(|a| a.contains("`.claude/rules` root"));
        assert_eq!(order, assumed, "{v}");
    }
}

/// The skill listing's order (cases `claude.c17_skill_identity` and
/// `claude.c23_legacy_commands_as_skills.in-sub`, bisected): by name
/// within each source from 2.1.154, the `.claude/skills` skill before the
/// commands; from 2.1.113 to 2.1.153 the file system's order, which an
/// assumption names.
#[test]
fn skill_listing_order_by_release() {
    let ctx = || at_root().cwd("sub");
    let cfg = compile("c23_legacy_commands_as_skills", ctx().version("2.1.197"));
    assert_eq!(
        listing(&cfg),
        [
            "deploy",
            "deploy",
            "frontend:component",
            "review",
            "review",
            "sub-only"
        ]
    );
    assert_eq!(
        cfg.skills[0].source.path.as_str(),
        ".claude/skills/deploy/SKILL.md"
    );
    let assumed = |v: &str| {
        compile("c17_skill_identity", at_root().version(v))
            .assumptions
            .iter()
            .any(|a| a.starts_with("Skills are listed by name"))
    };
    assert!(!assumed("2.1.112"));
    assert!(assumed("2.1.113") && assumed("2.1.153"));
    assert!(!assumed("2.1.154"));
}

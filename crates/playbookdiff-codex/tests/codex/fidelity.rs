//! One fixture per row of the fidelity audit (`x01_…` to `x31_…`, and `x32_…`, `x33_…` for budget edges, under
//! `tests/fixtures/`), each compiled under every profiled Codex release,
//! asserting the facts the row is about. Every fact here was seen in the
//! release's own `codex debug prompt-input` (or `codex mcp list`) output on
//! the same fixture.

use playbookdiff_adapter::Adapter;
use playbookdiff_codex::{Inputs, TrustEntry, TrustLevel, ADAPTER, PROFILED_VERSIONS};
use playbookdiff_model::{
    AdvertisementState, AnalysisContext, Applicability, BudgetCause, DiagnosticCode,
    EffectiveAgentConfig, Mode, Permission, RepoPath, Skill,
};
use playbookdiff_source::{Repo, WorkingTree};
use std::path::Path;

use playbookdiff_testkit::{assert_says, has_code};

fn compile_at(case: &str, cwd: &str, version: &str) -> EffectiveAgentConfig {
    let ctx = playbookdiff_testkit::at_root().cwd(cwd).version(version);
    playbookdiff_testkit::compile_dir(
        &playbookdiff_codex::ADAPTER,
        &playbookdiff_testkit::fixture!(case),
        &ctx,
    )
}

/// The skill names the model is shown, in listing order.
fn listed(c: &EffectiveAgentConfig) -> Vec<String> {
    c.skills
        .iter()
        .filter(|s| {
            s.applicability == Applicability::Effective
                && matches!(
                    s.advertisement.state,
                    AdvertisementState::Advertised | AdvertisementState::Shortened
                )
        })
        .map(|s| s.name.clone())
        .collect()
}

fn by_dir<'a>(c: &'a EffectiveAgentConfig, dir: &str) -> &'a Skill {
    c.skills
        .iter()
        .find(|s| s.source.path.as_str().contains(&format!("/{dir}/SKILL.md")))
        .unwrap_or_else(|| panic!("no skill in {dir}"))
}

/// The instruction text Codex sends inside `<INSTRUCTIONS>`: the received
/// pieces joined by a blank line.
fn chain_text(c: &EffectiveAgentConfig) -> String {
    c.received_instructions()
        .iter()
        .map(|i| i.content.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn x01_implicit_invocation_off() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x01_implicit_invocation_off", ".", v);
        assert_eq!(listed(&c), ["loud"], "{v}");
        let q = by_dir(&c, "quiet");
        assert_eq!(q.applicability, Applicability::Effective);
        assert_eq!(q.advertisement.state, AdvertisementState::Hidden);
        assert_eq!(q.invocation.explicit, Permission::Allowed);
        assert_eq!(q.invocation.implicit, Permission::Blocked);
    }
}

#[test]
fn x02_project_skills_config_ignored() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x02_project_skills_config_ignored", ".", v);
        assert_eq!(listed(&c), ["off"], "{v}");
        assert!(has_code(&c, "config-key-not-allowed"));
    }
}

#[test]
fn x03_name_defaults_to_directory() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x03_name_defaults_to_directory", ".", v);
        assert_eq!(listed(&c), ["blank", "no-name", "tilde"], "{v}");
        let d = by_dir(&c, "no-desc");
        assert_eq!(d.applicability, Applicability::Excluded);
        assert!(has_code(&c, "skill-field-missing"));
    }
}

#[test]
fn x07_blank_override_empties_directory() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x07_blank_override_empties_directory", "a", v);
        assert_eq!(chain_text(&c), "Package text.\n", "{v}");
        let agents = c
            .instructions
            .iter()
            .find(|i| i.source.path.as_str() == "AGENTS.md")
            .expect("listed");
        assert_eq!(agents.applicability, Applicability::Shadowed);
    }
}

#[test]
fn x08_project_doc_max_bytes_cuts() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x08_project_doc_max_bytes_cuts", "a/b", v);
        // 13 bytes: root1\n (6), then 7 of a/AGENTS.md, splitting a euro sign.
        assert_eq!(chain_text(&c), "root1\n\n\na\u{e9}\u{20ac}\u{fffd}", "{v}");
        let cut = &c.received_instructions()[1];
        assert_eq!(cut.truncated_at_byte, Some(7));
        let dropped = c
            .instructions
            .iter()
            .find(|i| i.source.path.as_str() == "a/b/AGENTS.md")
            .expect("listed");
        assert_eq!(dropped.applicability, Applicability::Excluded);
        assert!(has_code(&c, "instruction-budget-exceeded"));
    }
}

#[test]
fn x09_name_over_64_rejected() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x09_name_over_64_rejected", ".", v);
        assert_eq!(by_dir(&c, "long").applicability, Applicability::Excluded);
        let spaced = by_dir(&c, "spaced");
        assert_eq!(spaced.applicability, Applicability::Effective, "{v}");
        assert_eq!(spaced.name.chars().count(), 64);
    }
}

#[test]
fn x10_yaml_scalars_verbatim() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x10_yaml_scalars_verbatim", ".", v);
        let mut names = listed(&c);
        names.sort();
        assert_eq!(names, [".inf", "007", "0x10", "1e3", "on", "yes"], "{v}");
        for s in &c.skills {
            assert_eq!(s.description.as_deref(), Some(s.name.as_str()));
        }
    }
}

#[test]
fn x11_depth_six_walk() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x11_depth_six_walk", ".", v);
        assert_eq!(listed(&c), ["depth5", "depth6", "skills"], "{v}");
        assert!(c.diagnostics.iter().any(
            |d| d.code.as_str() == "skill-not-discovered" && d.message.contains("/g/SKILL.md")
        ));
        assert!(c.skills.iter().all(|s| s.name != "hidden"));
    }
}

#[test]
fn x12_file_symlink_not_loaded() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x12_file_symlink_not_loaded", ".", v);
        assert_eq!(listed(&c), ["dirlink"], "{v}");
        assert_eq!(
            by_dir(&c, "dirlink").source.resolved_path,
            RepoPath::new("library/folder/SKILL.md")
        );
    }
}

#[test]
fn x13_plugin_namespaces() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x13_plugin_namespaces", ".", v);
        let mut want = vec![
            "My Plugin:thirteen", // a name with a space is kept as written
            "blank:four",         // a blank name: the directory's name
            "clp:two",            // .claude-plugin/plugin.json
            "cxp:one",            // .codex-plugin/plugin.json
            "first:seven",        // .codex-plugin before .claude-plugin
            "inner:nine",         // the nearest manifest wins
            "noname:five",        // no name: the directory's name
            "outer:fifteen",      // a manifest that is not JSON is passed over
            "outer:ten",
            "plain",       // no manifest above
            "selfp:eight", // a manifest in the skill's own folder
            "six",         // the only manifest above is not JSON
            "twelve",      // an Agent Plugins plugin.json is not read
        ];
        // .cursor-plugin/plugin.json counts from 0.171.0 on.
        want.push(if *v == "0.142.3" {
            "three"
        } else {
            "cup:three"
        });
        want.sort();
        assert_eq!(listed(&c), want, "{v}");
        // Over 128 characters once qualified: rejected.
        let long = by_dir(&c, "eleven");
        assert_eq!(long.applicability, Applicability::Excluded, "{v}");
        assert!(c
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "invalid-value"
                && d.message.contains("qualified name")
                && d.source.as_ref().is_some_and(
                    |s| s.path.as_str() == ".agents/skills/long/.codex-plugin/plugin.json"
                )));
        // A manifest above the skills root names every skill below it.
        let pkg = compile_at("x13_plugin_namespaces", "pkg", v);
        assert!(listed(&pkg).contains(&"pkgp:fourteen".to_string()), "{v}");
    }
}

#[test]
fn x14_metadata_not_mapping() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x14_metadata_not_mapping", ".", v);
        assert_eq!(listed(&c), ["map"], "{v}");
        assert_eq!(by_dir(&c, "scalar").applicability, Applicability::Excluded);
        assert_eq!(by_dir(&c, "null").applicability, Applicability::Excluded);
    }
}

#[test]
fn x15_openai_yaml_fails_open() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x15_openai_yaml_fails_open", ".", v);
        // no, off, 0, "false" and an unknown product: the file is ignored.
        assert_eq!(
            listed(&c),
            ["bogus", "p-no", "p-off", "p-quoted", "p-zero"],
            "{v}"
        );
        let upper = by_dir(&c, "upper");
        assert_eq!(upper.invocation.implicit, Permission::Blocked);
    }
}

#[test]
fn x16_products_without_codex() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x16_products_without_codex", ".", v);
        assert_eq!(listed(&c), ["both"], "{v}");
        assert_eq!(
            by_dir(&c, "web-only").applicability,
            Applicability::Excluded
        );
    }
}

#[test]
fn x17_listing_budget() {
    // 0.142.3: 5,440 tokens (2% of 272,000) with absolute paths: every
    // description shortened evenly by the repository's skills alone.
    let c = compile_at("x17_listing_budget", ".", "0.142.3");
    assert_eq!(listed(&c).len(), 30);
    let shown: Vec<u64> = c
        .skills
        .iter()
        .map(|s| {
            assert_eq!(s.advertisement.state, AdvertisementState::Shortened);
            assert_eq!(s.advertisement.budget_cause, Some(BudgetCause::Certain));
            s.advertisement.shown_description_chars.unwrap()
        })
        .collect();
    let (lo, hi) = (shown.iter().min().unwrap(), shown.iter().max().unwrap());
    assert!(hi - lo <= 4, "shortened evenly: {shown:?}");
    assert!(*lo > 400 && *hi < 1024, "{shown:?}");
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "skill-listing-budget")
        .expect("named");
    assert_says(d, "5440 tokens");
    // 0.171.0: 10,000 tokens and short aliased paths: everything fits.
    let c = compile_at("x17_listing_budget", ".", "0.171.0");
    assert!(c
        .skills
        .iter()
        .all(|s| s.advertisement.state == AdvertisementState::Advertised));
    assert!(!has_code(&c, "skill-listing-budget"));
}

#[test]
fn x18_colon_repair() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x18_colon_repair", ".", v);
        assert_eq!(
            by_dir(&c, "aws").description.as_deref(),
            Some("Build for AWS: ECS"),
            "{v}"
        );
    }
}

#[test]
fn x19_long_description_cut() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x19_long_description_cut", ".", v);
        let s = by_dir(&c, "long");
        assert_eq!(s.applicability, Applicability::Effective, "{v}");
        assert_eq!(s.advertisement.description_chars, 1030);
        assert_eq!(s.advertisement.description_limit_chars, Some(1024));
    }
    // Before 0.142.0 the skill is refused (bisected on case
    // `codex.x34_long_description_boundary`, below; 0.141.0 lists none of
    // the 30 skills of 1,039-character descriptions of
    // `codex.x17_listing_budget`, 0.142.0 all of them), with a diagnostic
    // at the file.
    let c = compile_at("x19_long_description_cut", ".", "0.141.0");
    assert!(
        !listed(&c).contains(&"long".to_string()),
        "{:?}",
        listed(&c)
    );
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "invalid-value")
        .expect("the refusal is reported");
    assert_says(d, "1030 characters long");
    let c = compile_at("x17_listing_budget", ".", "0.141.0");
    assert!(listed(&c).is_empty(), "{:?}", listed(&c));
    assert_eq!(
        listed(&compile_at("x17_listing_budget", ".", "0.142.0")).len(),
        30
    );
}

/// A description one character over the limit (1,025) is refused up to
/// 0.141.0 and cut from 0.142.0 on; one of exactly 1,024 characters is
/// listed whole by both (bisected: 0.141.0 lists `short` and `at-limit`,
/// 0.142.0 all three, `over-limit` as 1,021 characters and `...`).
#[test]
fn x34_long_description_boundary() {
    let case = "x34_long_description_boundary";
    let before = compile_at(case, ".", "0.141.0");
    assert_eq!(listed(&before), ["at-limit", "short"]);
    for v in ["0.142.0", "0.142.3", "0.171.0"] {
        let c = compile_at(case, ".", v);
        assert_eq!(listed(&c), ["at-limit", "over-limit", "short"], "{v}");
        let over = by_dir(&c, "over-limit");
        assert_eq!(over.advertisement.description_chars, 1025, "{v}");
        assert_eq!(over.advertisement.description_limit_chars, Some(1024));
        assert_eq!(by_dir(&c, "at-limit").advertisement.description_chars, 1024);
    }
}

#[test]
fn x20_whitespace_collapse() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x20_whitespace_collapse", ".", v);
        let s = by_dir(&c, "ws");
        assert_eq!(s.name, "ws name");
        assert_eq!(s.description.as_deref(), Some("multi space desc"), "{v}");
    }
}

#[test]
fn x26_codex_skills_root() {
    // Both profiled releases list a `.codex/skills` skill beside an
    // `.agents/skills` skill of the same name (`twin` twice), `.codex`
    // roots first in the scan but the list sorted by name, then path.
    for v in PROFILED_VERSIONS {
        let c = compile_at("x26_codex_skills_root", ".", v);
        assert_eq!(listed(&c), ["legacy", "twin", "twin"], "{v}");
        let paths: Vec<&str> = c.skills.iter().map(|s| s.source.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".codex/skills/legacy/SKILL.md",
                ".agents/skills/twin/SKILL.md",
                ".codex/skills/twin/SKILL.md"
            ],
            "{v}"
        );
        assert!(has_code(&c, "skill-name-collision"), "{v}");
    }
}

fn compile_trusting(
    case: &str,
    cwd: &str,
    version: &str,
    trust: &[(&str, TrustLevel)],
) -> EffectiveAgentConfig {
    let tree = WorkingTree::open(&playbookdiff_testkit::fixture!(case)).expect("fixture opens");
    let repo = Repo::new(&tree);
    let ctx = playbookdiff_testkit::at_root().cwd(cwd).context();
    let entries: Vec<TrustEntry> = trust
        .iter()
        .map(|(d, level)| TrustEntry {
            dir: playbookdiff_testkit::rp(d),
            level: *level,
        })
        .collect();
    ADAPTER.compile_with(
        &repo,
        &ctx,
        &Inputs {
            version: Some(version),
            trust: Some(&entries),
            ..Inputs::default()
        },
    )
}

#[test]
fn x27_untrusted_project() {
    let untrusted = [(".", TrustLevel::Untrusted)];
    // 0.142.3 still sends the project AGENTS.md; 0.171.0 sends none.
    let old = compile_trusting("x27_untrusted_project", ".", "0.142.3", &untrusted);
    assert_eq!(chain_text(&old), "Root instructions.\n");
    let new = compile_trusting("x27_untrusted_project", ".", "0.171.0", &untrusted);
    assert_eq!(chain_text(&new), "");
    assert_eq!(new.instructions[0].applicability, Applicability::Excluded);
    assert!(has_code(&new, "project-untrusted"));
    for c in [&old, &new] {
        // The .codex layer is skipped (its MCP server with it); skills are
        // not trust-gated.
        assert!(c.mcp_servers.is_empty());
        assert_eq!(listed(c), ["kept"]);
    }
    // A missing entry (no trust given for the project) keeps AGENTS.md.
    let none = compile_trusting("x27_untrusted_project", ".", "0.171.0", &[]);
    assert_eq!(chain_text(&none), "Root instructions.\n");
    assert!(none.mcp_servers.is_empty());
    // Without trust input: assumed trusted, and said so.
    let assumed = compile_at("x27_untrusted_project", ".", "0.171.0");
    assert_eq!(
        server(&assumed, "docs").applicability,
        Applicability::Effective
    );
    assert!(has_code(&assumed, "project-trust-assumed"));
}

#[test]
fn x28_per_directory_trust() {
    // The launch directory's own entry beats the project root's.
    let trust = [(".", TrustLevel::Untrusted), ("a", TrustLevel::Trusted)];
    for v in PROFILED_VERSIONS {
        let c = compile_trusting("x28_per_directory_trust", "a", v, &trust);
        let names: Vec<&str> = c.mcp_servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["inner"], "{v}");
        assert!(c
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "project-untrusted"
                && d.source
                    .as_ref()
                    .is_some_and(|s| s.path.as_str() == ".codex/config.toml")));
        // cwd is trusted, so AGENTS.md loads in both releases.
        assert_eq!(
            chain_text(&c),
            "Root instructions.\n\n\nPackage instructions.\n",
            "{v}"
        );
    }
}

#[test]
fn x29_chain_rendering() {
    // Files joined by one blank line, each exactly as written: leading
    // newlines, trailing blank lines and a missing final newline kept.
    for v in PROFILED_VERSIONS {
        let c = compile_at("x29_chain_rendering", "a/b", v);
        assert_eq!(
            chain_text(&c),
            "Root rules.\n\n\n\nPackage rules.\n\nSecond paragraph.\n\n\n\n\n  Override, indented, no final newline",
            "{v}"
        );
        let shadowed = c
            .instructions
            .iter()
            .find(|i| i.source.path.as_str() == "a/b/AGENTS.md")
            .expect("listed");
        assert_eq!(shadowed.applicability, Applicability::Shadowed);
    }
}

#[test]
fn x30_fallback_names_with_slash() {
    let old = compile_at("x30_fallback_names_with_slash", "a", "0.142.3");
    assert_eq!(chain_text(&old), "Guide text.\n\n\nClaude text.\n");
    let new = compile_at("x30_fallback_names_with_slash", "a", "0.171.0");
    assert_eq!(chain_text(&new), "Claude text.\n");
    assert!(has_code(&new, "invalid-value"));
}

#[test]
fn x31_override_dir_link() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x31_override_dir_link", ".", v);
        assert_eq!(chain_text(&c), "Agents text.\n", "{v}");
    }
}

fn server<'a>(c: &'a EffectiveAgentConfig, name: &str) -> &'a playbookdiff_model::McpServer {
    c.mcp_servers
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no server {name}"))
}

#[test]
fn x04_mcp_other_transport_refused() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x04_mcp_other_transport_refused", ".", v);
        let d = c
            .diagnostics
            .iter()
            .find(|d| d.code.as_str() == "config-refused")
            .expect("refused");
        assert_eq!(d.severity, playbookdiff_model::Severity::Error);
        assert_says(d, "env is not supported for streamable_http");
        assert!(d.message.contains("does not start"));
        // Codex does not start, so even the valid server is not started.
        assert_eq!(
            server(&c, "good").applicability,
            Applicability::Excluded,
            "{v}"
        );
        assert_eq!(server(&c, "bad").applicability, Applicability::Excluded);
    }
}

#[test]
fn x05_mcp_deep_merge() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x05_mcp_deep_merge", "a", v);
        let s = server(&c, "s");
        assert_eq!(s.applicability, Applicability::Effective, "{v}");
        assert_eq!(s.command.as_deref(), Some("echo"));
        assert_eq!(s.args.as_deref(), Some(&["sub".to_string()][..]));
        let mut env: Vec<&str> = s.env.iter().map(|e| e.name.as_str()).collect();
        env.sort();
        assert_eq!(env, ["A", "B"]);
        assert_eq!(s.other_sources.len(), 1);
        // A nested enabled = false disables the merged server.
        assert_eq!(server(&c, "off").applicability, Applicability::Excluded);
        assert!(!has_code(&c, "config-refused"));
    }
}

/// Codex refuses the bad layer of `a` and says so in the release's words
/// (seen with `codex mcp list` on a trusted copy: 0.142.3 "failed to load
/// configuration", 0.171.0 "failed to load bootstrap configuration").
#[test]
fn x06_invalid_project_config_refused() {
    for (v, words) in PROFILED_VERSIONS.iter().zip([
        "(\"failed to load configuration\")",
        "(\"failed to load bootstrap configuration\")",
    ]) {
        let c = compile_at("x06_invalid_project_config_refused", "a", v);
        assert!(has_code(&c, "config-refused"), "{v}");
        let d = c
            .diagnostics
            .iter()
            .find(|d| d.code.as_str() == "config-refused")
            .unwrap();
        assert!(d.message.contains(words), "{v}: {}", d.message);
        assert_eq!(server(&c, "s").applicability, Applicability::Excluded);
        // From the root the bad layer does not apply.
        let c = compile_at("x06_invalid_project_config_refused", ".", v);
        assert!(!has_code(&c, "config-refused"));
        assert_eq!(server(&c, "s").applicability, Applicability::Effective);
    }
}

#[test]
fn x21_mcp_relative_cwd() {
    let c = compile_at("x21_mcp_relative_cwd", ".", "0.171.0");
    let s = server(&c, "s");
    assert!(s.reason.contains("runs in tools"), "{}", s.reason);
    assert!(!s.reason.contains(".codex/tools"), "{}", s.reason);
}

#[test]
fn x22_mcp_accepted_fields() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x22_mcp_accepted_fields", ".", v);
        let s = server(&c, "s");
        assert_eq!(s.applicability, Applicability::Effective, "{v}");
        assert_eq!(s.unknown_fields, ["something_else"]);
    }
}

#[test]
fn x23_project_denylist_keys() {
    for v in PROFILED_VERSIONS {
        let c = compile_at("x23_project_denylist_keys", ".", v);
        let msgs: Vec<&str> = c
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "config-key-not-allowed")
            .map(|d| d.message.as_str())
            .collect();
        assert!(
            msgs.iter()
                .any(|m| m.contains("experimental_realtime_webrtc_call_base_url")),
            "{msgs:?}"
        );
        assert!(
            msgs.iter()
                .any(|m| m.contains("features.respect_system_proxy")),
            "{msgs:?}"
        );
    }
}

#[test]
fn x24_no_env_expansion() {
    let c = compile_at("x24_no_env_expansion", ".", "0.171.0");
    let s = server(&c, "s");
    assert_eq!(s.args.as_deref(), Some(&["${HOME}".to_string()][..]));
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "mcp-interpolation-undocumented")
        .expect("reported");
    assert_says(d, "never expands");
}

#[test]
fn x25_config_override_ignored() {
    // Neither profiled release reads .codex/config.override.toml.
    for v in PROFILED_VERSIONS {
        let c = compile_at("x25_config_override_ignored", ".", v);
        let names: Vec<&str> = c.mcp_servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["s"], "{v}");
        assert_eq!(server(&c, "s").args, None);
    }
}

/// A nested `.git` moves Codex's project root: the root AGENTS.md and root
/// skills are listed as not received. Built in a temporary directory, since
/// git cannot commit a `.git` entry.
#[test]
fn nested_git_moves_the_project_root() {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    let w = |p: &str, s: &str| {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    w("AGENTS.md", "Root text.\n");
    w(
        ".agents/skills/top/SKILL.md",
        "---\ndescription: Root skill.\n---\n",
    );
    w("pkg/.git", "gitdir: ../.git/modules/pkg\n");
    w("pkg/AGENTS.md", "Package text.\n");
    w(
        "pkg/.agents/skills/inner/SKILL.md",
        "---\ndescription: Package skill.\n---\n",
    );
    let tree = WorkingTree::open(root).expect("opens");
    let repo = Repo::new(&tree);
    let ctx = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: RepoPath::new("pkg").unwrap(),
        target_path: None,
        mode: Mode::Local,
    };
    let c = ADAPTER.compile_with(&repo, &ctx, &Inputs::default());
    assert_eq!(chain_text(&c), "Package text.\n");
    let top = c
        .instructions
        .iter()
        .find(|i| i.source.path.as_str() == "AGENTS.md")
        .expect("listed");
    assert_eq!(top.applicability, Applicability::OutOfScope);
    assert_eq!(listed(&c), ["inner"]);
    assert_eq!(by_dir(&c, "top").applicability, Applicability::OutOfScope);
}

/// Words that hedge: a Codex diagnostic states what Codex's source decides,
/// and names an input the analysis cannot see instead of guessing.
const HEDGES: &[&str] = &[
    "may", "might", "could", "possibly", "perhaps", "probably", "likely",
];

fn hedges(text: &str) -> Vec<&'static str> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .map(str::to_ascii_lowercase)
        .collect();
    HEDGES
        .iter()
        .copied()
        .filter(|h| words.iter().any(|w| w == h))
        .collect()
}

#[test]
fn the_hedge_check_catches_a_hedge() {
    assert_eq!(hedges("Codex may reject it."), ["may"]);
    assert!(hedges("Codex rejects it; mayhem aside.").is_empty());
}

#[test]
fn no_codex_diagnostic_hedges() {
    // Every message of every fixture, under every profiled release.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("fixtures").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        for v in PROFILED_VERSIONS {
            let c = compile_at(&name, ".", v);
            for d in &c.diagnostics {
                seen += 1;
                let h = hedges(&d.message);
                assert!(
                    h.is_empty(),
                    "{name} {v} {}: {h:?} in {:?}",
                    d.code.as_str(),
                    d.message
                );
            }
            for a in &c.assumptions {
                let h = hedges(a);
                assert!(h.is_empty(), "{name} {v}: {h:?} in assumption {a:?}");
            }
        }
    }
    assert!(seen > 100, "{seen} messages checked");
    // And the table's summary and documentation of every code Codex owns.
    for code in DiagnosticCode::ALL {
        if code.owner() != Some("codex") {
            continue;
        }
        let text = format!("{} {}", code.summary(), code.documentation());
        let h = hedges(&text);
        assert!(h.is_empty(), "{}: {h:?} in {text:?}", code.as_str());
    }
}

/// `project_doc_max_bytes = 12` over a chain whose root file starts with a
/// byte order mark and ends with CRLF (7 bytes, kept verbatim), a
/// whitespace-only `a/AGENTS.md` (skipped, and it costs nothing: seen with
/// 0.142.3 and 0.171.0), and two 4-byte emoji in `a/b/AGENTS.md`, cut
/// after 5 bytes: one whole emoji, then the 1-byte rest of the second as
/// one U+FFFD.
#[test]
fn x32_budget_edges() {
    for v in PROFILED_VERSIONS {
        let root = compile_at("x32_budget_edges", ".", v);
        assert_eq!(chain_text(&root), "\u{feff}ab\r\n", "{v}");
        let c = compile_at("x32_budget_edges", "a/b", v);
        assert_eq!(chain_text(&c), "\u{feff}ab\r\n\n\n\u{1F600}\u{fffd}", "{v}");
        let received = c.received_instructions();
        assert_eq!(received.len(), 2, "{v}");
        assert_eq!(received[1].source.path.as_str(), "a/b/AGENTS.md");
        assert_eq!(received[1].truncated_at_byte, Some(5), "{v}");
    }
}

/// `project_doc_max_bytes = 0` in the root's `.codex/config.toml` loads no
/// project file; `a/.codex/config.toml` sets 6, exactly the size of the
/// root `AGENTS.md`, so launched in `a` the root file is whole and
/// `a/AGENTS.md` is dropped (seen with 0.142.3 and 0.171.0).
#[test]
fn x33_budget_zero_and_exact() {
    for v in PROFILED_VERSIONS {
        let root = compile_at("x33_budget_zero_and_exact", ".", v);
        assert!(root.received_instructions().is_empty(), "{v}");
        let a = compile_at("x33_budget_zero_and_exact", "a", v);
        assert_eq!(chain_text(&a), "12345\n", "{v}");
        let dropped = a
            .instructions
            .iter()
            .find(|i| i.source.path.as_str() == "a/AGENTS.md")
            .expect("listed");
        assert_eq!(dropped.applicability, Applicability::Excluded, "{v}");
    }
}

/// Custom agents of a trusted project's `.codex/agents/*.toml` (Codex
/// subagents documentation): a file with `name`, `description` and
/// `developer_instructions` is a subagent listed by `spawn_agent`; a file
/// without `developer_instructions` is skipped with a warning; an
/// untrusted project has none, as its `.codex` layer is not read.
#[test]
fn custom_agents_of_a_trusted_project() {
    let trusted = [(".", TrustLevel::Trusted)];
    let c = compile_trusting("custom_agents", ".", "0.171.0", &trusted);
    let names: Vec<&str> = c.subagents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["reviewer"]);
    let r = &c.subagents[0];
    assert_eq!(r.listed_by.as_deref(), Some("spawn_agent"));
    assert_eq!(r.model.as_deref(), Some("gpt-5.5"));
    assert_eq!(r.source.path.as_str(), ".codex/agents/reviewer.toml");
    assert!(has_code(&c, "subagent-invalid"));
    let untrusted = [(".", TrustLevel::Untrusted)];
    let u = compile_trusting("custom_agents", ".", "0.171.0", &untrusted);
    assert!(u.subagents.is_empty());
}

/// Two `.codex/agents` on the way to the launch directory define one name:
/// the closer file wins and the other is shadowed, with a duplicate note
/// at its file.
#[test]
fn the_closer_custom_agent_wins_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let agent = |d: &str| {
        format!("name = \"reviewer\"\ndescription = \"From {d}.\"\ndeveloper_instructions = \"Review.\"\n")
    };
    playbookdiff_testkit::fs::write(dir.path(), ".codex/agents/r.toml", agent("root"));
    playbookdiff_testkit::fs::write(dir.path(), "a/.codex/agents/r.toml", agent("a"));
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let tree = WorkingTree::open(dir.path()).unwrap();
    let repo = Repo::new(&tree);
    let ctx = playbookdiff_testkit::at_root().cwd("a").context();
    let c = ADAPTER.compile_with(&repo, &ctx, &Inputs::default());
    let states: Vec<(&str, Applicability)> = c
        .subagents
        .iter()
        .map(|a| (a.source.path.as_str(), a.applicability))
        .collect();
    assert_eq!(
        states,
        [
            (".codex/agents/r.toml", Applicability::Shadowed),
            ("a/.codex/agents/r.toml", Applicability::Effective)
        ]
    );
    assert!(has_code(&c, "subagent-duplicate"));
}

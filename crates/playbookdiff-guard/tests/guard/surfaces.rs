//! Guard protection follows the adapters: every file an adapter's
//! compilation reports as a source, in every adapter's fixtures, the
//! example repository and the corpus, is a path the guard refuses to
//! write (the registry's surfaces are the single source).

use playbookdiff_guard::rules;
use playbookdiff_guard::Policy;
use playbookdiff_testkit::{at_root, compile_dir};
use std::path::{Path, PathBuf};

/// The policy the command builds for `repo`: every adapter's surfaces,
/// and the sources their compilations read through references.
fn policy(repo: &Path) -> Policy {
    let surfaces = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.surfaces().iter().copied())
        .collect();
    let tree = playbookdiff_source::WorkingTree::open(repo).unwrap();
    let sources = playbookdiff_guard::sources::compiled(playbookdiff_registry::adapters(), &tree);
    Policy::new(PathBuf::from("/r"), surfaces, Ok(Default::default())).with_sources(sources)
}

/// The policy of the surfaces alone.
fn surfaces_only() -> Policy {
    let surfaces = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.surfaces().iter().copied())
        .collect();
    Policy::new(PathBuf::from("/r"), surfaces, Ok(Default::default()))
}

fn repositories() -> Vec<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for a in ["claude", "codex", "opencode"] {
        let dir = workspace.join(format!("crates/playbookdiff-{a}/tests/fixtures"));
        if dir.is_dir() {
            out.extend(playbookdiff_testkit::all_fixtures(&dir));
        }
    }
    out.push(workspace.join("examples/monorepo"));
    let corpus = workspace.join("../shared/corpus");
    if let Ok(entries) = std::fs::read_dir(&corpus) {
        let mut repos: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path().join("repo"))
            .filter(|p| p.is_dir())
            .collect();
        repos.sort();
        out.extend(repos);
    }
    out
}

#[test]
fn every_source_of_every_adapter_is_protected() {
    let mut unprotected = Vec::new();
    let mut checked = 0;
    for repo in repositories() {
        let policy = policy(&repo);
        for adapter in playbookdiff_registry::adapters() {
            let config = compile_dir(*adapter, &repo, &at_root().local());
            let sources = playbookdiff_guard::sources::paths(&config);
            for path in &sources {
                let rel = path.as_str();
                checked += 1;
                let rule = policy.write_rule(rel);
                if rule.is_none() {
                    unprotected.push(format!("{}: {} {rel}", repo.display(), adapter.harness()));
                }
                if let Some(r) = rule {
                    assert_ne!(r.id, rules::ALLOWED.id);
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} sources checked");
    assert!(
        unprotected.is_empty(),
        "{} sources unprotected:\n{}",
        unprotected.len(),
        unprotected.join("\n")
    );
}

/// The surfaces alone cover every file an agent reads by name: each
/// source the surfaces miss is one another file names (an import, a
/// configured glob or fallback name), never an instruction file, a
/// settings file or a skill by its own name.
#[test]
fn the_surfaces_alone_cover_every_file_read_by_its_own_name() {
    let policy = surfaces_only();
    for repo in repositories() {
        for adapter in playbookdiff_registry::adapters() {
            let config = compile_dir(*adapter, &repo, &at_root().local());
            for i in &config.instructions {
                let rel = i.source.path.as_str();
                let name = rel.rsplit('/').next().unwrap_or(rel);
                if adapter.config_entry_names().contains(&name) {
                    assert!(
                        policy.write_rule(rel).is_some(),
                        "{}: {rel}",
                        repo.display()
                    );
                }
            }
            for m in &config.mcp_servers {
                let rel = m.source.path.as_str();
                assert!(
                    policy.write_rule(rel).is_some(),
                    "{}: {} {rel}",
                    repo.display(),
                    adapter.harness()
                );
            }
        }
    }
}

/// Every host the guard answers is a registered harness, by the same id.
#[test]
fn every_host_is_a_registered_harness() {
    for host in playbookdiff_guard::Host::ALL {
        assert!(
            playbookdiff_registry::by_id(host.id()).is_some(),
            "{}",
            host.id()
        );
    }
}

/// Every registered adapter declares what it reads as configuration, so a
/// new harness is guarded from its first line in the registry.
#[test]
fn every_adapter_declares_its_surfaces() {
    for adapter in playbookdiff_registry::adapters() {
        assert!(
            !adapter.surfaces().is_empty(),
            "{} declares no surface",
            adapter.harness()
        );
        for name in adapter.config_entry_names() {
            let inside = format!("pkg/{name}/x");
            let policy = surfaces_only();
            assert!(
                policy.write_rule(&format!("pkg/{name}")).is_some()
                    || policy.write_rule(&inside).is_some(),
                "{}: {name} is not protected",
                adapter.harness()
            );
        }
    }
}

/// Every variable an adapter reads to find its harness's user directory
/// (`Adapter::home_variables`) is one the guard refuses to set
/// (`agent-home`): setting it starts that agent with configuration the
/// guard does not protect.
#[test]
fn every_adapter_home_variable_is_refused_to_set() {
    let refused = playbookdiff_guard::rules::AGENT_HOME.matchers;
    for a in playbookdiff_registry::adapters() {
        for v in a.home_variables() {
            assert!(
                refused.contains(v),
                "{:?}: {v} is not in agent-home",
                a.harness()
            );
        }
    }
    let declared: usize = playbookdiff_registry::adapters()
        .iter()
        .map(|a| a.home_variables().len())
        .sum();
    assert!(declared >= 3, "the adapters declare their home variables");
}

/// Every file of the user's home or of the machine that an adapter's
/// local-mode compilation of an oracle case with a fixture home reads
/// is refused as agent configuration when an agent writes it (a home
/// skill, subagent, command, plugin module or settings file changes what
/// the agents load, as a repository's does), apart from the skills of a
/// directory OpenCode's `skills.paths` names and the policy files Gemini
/// CLI's `policyPaths` and `adminPolicyPaths` name, which no table can
/// name.
#[test]
fn every_home_file_an_adapter_reads_is_protected() {
    let mut policy = surfaces_only();
    policy.home = Some(PathBuf::from("/home/u"));
    let mut unprotected = Vec::new();
    let mut checked = 0;
    for case in playbookdiff_testkit::oracle::cases() {
        if case.home.is_none() || case.fixture.is_none() {
            continue;
        }
        for adapter in playbookdiff_registry::adapters() {
            for version in adapter.profiled_versions() {
                let config =
                    playbookdiff_testkit::layout::compile_with_home(*adapter, &case, version);
                for path in playbookdiff_testkit::layout::home_sources(&config) {
                    if in_configured_skill_path(&config, &path)
                        || playbookdiff_testkit::layout::permission_file_named_by_a_setting(
                            &config,
                            &path,
                            &["~/.gemini/", "/etc/gemini-cli/"],
                        )
                    {
                        continue;
                    }
                    checked += 1;
                    let abs = match path.strip_prefix("~/") {
                        Some(rel) => Path::new("/home/u").join(rel),
                        None => PathBuf::from(&path),
                    };
                    if policy.outside_rule(&abs).is_none() {
                        unprotected.push(format!("{} {version}: {path}", adapter.harness()));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} home files checked");
    unprotected.sort();
    unprotected.dedup();
    assert!(
        unprotected.is_empty(),
        "{} home files unprotected:\n{}",
        unprotected.len(),
        unprotected.join("\n")
    );
}

/// Whether `path` is a skill found in a directory a setting names
/// (OpenCode's `skills.paths`: its reason names that directory, not one
/// of the agent's own skill roots).
fn in_configured_skill_path(config: &playbookdiff_model::EffectiveAgentConfig, path: &str) -> bool {
    config.skills.iter().any(|s| {
        s.source.path.as_str() == path
            && s.reason.starts_with("Found in the ")
            && !s.reason.starts_with("Found in the .")
    })
}

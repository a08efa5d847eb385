//! Compiling many launch directories against one [`Repo`] (as
//! `check --all-dirs` does, sharing what `Repo::memo` keeps between them)
//! gives, at every launch directory, the configuration a compilation on a
//! repository of its own gives: on every adapter fixture and the example
//! monorepo, for every adapter, both modes and every profiled release, at
//! the root and at every directory holding an adapter's configuration,
//! without a targetPath and with one (what an adapter shares between
//! launch directories must not hold what targetPath decides).

use crate::indexed_names::fixture_roots;
use playbookdiff_model::{AnalysisContext, EffectiveAgentConfig, Mode, RepoPath};
use playbookdiff_registry::ADAPTERS;
use playbookdiff_source::{Repo, WorkingTree};
use std::collections::BTreeSet;

#[test]
fn a_shared_repository_gives_each_launch_directory_its_own_answer() {
    let roots = fixture_roots();
    assert!(roots.len() > 20, "fixtures found: {}", roots.len());
    let mut differ: Vec<String> = Vec::new();
    let mut compared = 0usize;
    let mut deeper = 0usize;
    for root in &roots {
        let Ok(tree) = WorkingTree::open(root) else {
            continue;
        };
        let shared = Repo::new(&tree);
        let mut cwds: BTreeSet<RepoPath> = [RepoPath::root()].into();
        for adapter in ADAPTERS {
            for name in adapter.config_entry_names() {
                cwds.extend(shared.files_named(name).iter().filter_map(|p| p.parent()));
            }
        }
        cwds.retain(|d| shared.is_dir(d));
        // The deepest first: whatever a shallower directory shares with a
        // deeper one is then computed for the deeper one.
        let cwds: Vec<RepoPath> = cwds.into_iter().rev().collect();
        for adapter in ADAPTERS {
            let targets = [None, RepoPath::new("src/main.ts")];
            for (mode, target) in [Mode::Repo, Mode::Local]
                .into_iter()
                .flat_map(|m| targets.iter().map(move |t| (m, t)))
            {
                for version in adapter.profiled_versions() {
                    let context = |cwd: &RepoPath| AnalysisContext {
                        repository_root: RepoPath::root(),
                        cwd: cwd.clone(),
                        target_path: target.clone(),
                        mode,
                    };
                    // Every directory compiled on the shared repository
                    // before any is compared, as check --all-dirs does.
                    let together: Vec<EffectiveAgentConfig> = cwds
                        .iter()
                        .map(|cwd| adapter.compile(&shared, &context(cwd), Some(version)))
                        .collect();
                    for (cwd, got) in cwds.iter().zip(&together) {
                        let own = Repo::new(&tree);
                        let alone = adapter.compile(&own, &context(cwd), Some(version));
                        compared += 1;
                        deeper += usize::from(!cwd.is_root());
                        if &alone != got {
                            differ.push(format!(
                                "{} {} {mode:?} {version} at {cwd}, target {target:?}",
                                root.display(),
                                adapter.harness().as_str()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(differ.is_empty(), "shared answers differ: {differ:#?}");
    // The comparison covers launch directories below the root, where a
    // directory shares its ancestors' files with the others.
    assert!(deeper > 100, "compared {compared}, below the root {deeper}");
}

//! Every name an adapter looks up by name below a launch directory
//! (`Repo::files_named_under`) is one it declares
//! (`Adapter::indexed_names` or `config_entry_names`), so the one
//! `Repo::prefetch_named` pass of `check --all-dirs` and `diff` answers all
//! of them, on every adapter fixture and the example monorepo, at the root
//! and at every directory holding an adapter's configuration.

use playbookdiff_model::{AnalysisContext, Mode, RepoPath};
use playbookdiff_registry::ADAPTERS;
use playbookdiff_source::{Repo, WorkingTree};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The example monorepo and every adapter fixture directory, sorted.
pub(crate) fn fixture_roots() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf();
    let mut out = vec![crates.join("../examples/monorepo")];
    for entry in std::fs::read_dir(&crates).expect("crates/").flatten() {
        let fixtures = entry.path().join("tests/fixtures");
        let Ok(dirs) = std::fs::read_dir(&fixtures) else {
            continue;
        };
        for d in dirs.flatten() {
            if d.path().is_dir() {
                out.push(d.path());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_name_looked_up_is_declared() {
    let roots = fixture_roots();
    assert!(roots.len() > 20, "fixtures found: {}", roots.len());
    let mut missing: BTreeSet<String> = BTreeSet::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for root in &roots {
        let Ok(tree) = WorkingTree::open(root) else {
            continue;
        };
        for adapter in ADAPTERS {
            let declared: BTreeSet<&str> = adapter
                .config_entry_names()
                .iter()
                .chain(adapter.indexed_names())
                .copied()
                .collect();
            let repo = Repo::new(&tree);
            let mut cwds: BTreeSet<RepoPath> = [RepoPath::root()].into();
            for name in adapter.config_entry_names() {
                cwds.extend(repo.files_named(name).iter().filter_map(|p| p.parent()));
            }
            for cwd in cwds {
                if !repo.is_dir(&cwd) {
                    continue;
                }
                for mode in [Mode::Repo, Mode::Local] {
                    let context = AnalysisContext {
                        repository_root: RepoPath::root(),
                        cwd: cwd.clone(),
                        target_path: None,
                        mode,
                    };
                    for version in adapter.profiled_versions() {
                        adapter.compile(&repo, &context, Some(version));
                    }
                }
            }
            for name in repo.names_looked_up() {
                seen.insert(name.clone());
                if !declared.contains(name.as_str()) {
                    missing.insert(format!("{}: {name}", adapter.harness().as_str()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "looked up, not declared: {missing:?}");
    // The check can fail: the adapters do look names up on these fixtures.
    assert!(seen.contains("SKILL.md"), "{seen:?}");
}

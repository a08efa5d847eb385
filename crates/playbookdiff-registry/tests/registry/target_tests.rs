//! What an adapter answers about a path-scoped item
//! ([`playbookdiff_registry::Adapter::target_tests`]) is what its own
//! compilation does: on every adapter fixture and the example monorepo,
//! for every adapter and every launch directory holding configuration,
//! each item with `paths` that waits for a target (conditional without
//! one) loads for the first file below the launch directory that one of
//! its tests accepts, and not for a file that none accepts. An adapter
//! whose compilation gives path-scoped items and that answers nothing for
//! them fails here.

use crate::indexed_names::fixture_roots;
use playbookdiff_model::{AnalysisContext, Applicability, EffectiveAgentConfig, Mode, RepoPath};
use playbookdiff_registry::{Scoped, ADAPTERS};
use playbookdiff_source::{EntryKind, Repo, WorkingTree};
use std::collections::BTreeSet;

fn context(cwd: &RepoPath, target: Option<RepoPath>) -> AnalysisContext {
    AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: cwd.clone(),
        target_path: target,
        mode: Mode::Repo,
    }
}

/// The applicability of the item with `id` in `config`.
fn applicability(config: &EffectiveAgentConfig, id: &str) -> Option<Applicability> {
    config
        .instructions
        .iter()
        .find(|i| i.id == id)
        .map(|i| i.applicability)
        .or_else(|| {
            config
                .skills
                .iter()
                .find(|s| s.id == id)
                .map(|s| s.applicability)
        })
}

/// Every file of `repo` below `cwd`, in path order.
fn files_below(repo: &Repo<'_>, cwd: &RepoPath) -> Vec<RepoPath> {
    let mut out = Vec::new();
    for d in repo.directories() {
        if !(cwd.is_root() || d == *cwd || d.starts_with(cwd)) {
            continue;
        }
        for e in repo.list_dir(&d) {
            if e.kind == EntryKind::File {
                out.extend(d.join(&e.name));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_target_an_adapter_accepts_makes_its_path_scoped_item_load() {
    let mut loaded = 0usize;
    let mut refused = 0usize;
    for root in fixture_roots() {
        let Ok(tree) = WorkingTree::open(&root) else {
            continue;
        };
        let repo = Repo::new(&tree);
        let mut cwds: BTreeSet<RepoPath> = [RepoPath::root()].into();
        for adapter in ADAPTERS {
            for name in adapter.config_entry_names() {
                cwds.extend(repo.files_named(name).iter().filter_map(|p| p.parent()));
            }
        }
        cwds.retain(|d| repo.is_dir(d));
        for adapter in ADAPTERS {
            for cwd in &cwds {
                let plain = adapter.compile(&repo, &context(cwd, None), None);
                let items = plain
                    .instructions
                    .iter()
                    .map(Scoped::Instruction)
                    .chain(plain.skills.iter().map(Scoped::Skill));
                for item in items.filter(|i| i.paths().is_some()) {
                    let (id, was) = match item {
                        Scoped::Instruction(i) => (&i.id, i.applicability),
                        Scoped::Skill(s) => (&s.id, s.applicability),
                    };
                    if was != Applicability::Conditional {
                        continue;
                    }
                    let tests = adapter.target_tests(item, cwd);
                    let what = format!("{} {} at {cwd}: {id}", root.display(), adapter.harness());
                    assert!(!tests.is_empty(), "no answer for {what}");
                    let files = files_below(&repo, cwd);
                    let accepted = |f: &RepoPath| tests.iter().any(|t| t(f, false));
                    let with = |t: &RepoPath| {
                        let c = adapter.compile(&repo, &context(cwd, Some(t.clone())), None);
                        applicability(&c, id)
                    };
                    if let Some(t) = files.iter().find(|f| accepted(f)) {
                        assert_eq!(with(t), Some(Applicability::Effective), "{what} for {t}");
                        loaded += 1;
                    }
                    if let Some(t) = files.iter().find(|f| !accepted(f)) {
                        assert_ne!(with(t), Some(Applicability::Effective), "{what} for {t}");
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(
        loaded > 5 && refused > 5,
        "loaded {loaded}, refused {refused}"
    );
}

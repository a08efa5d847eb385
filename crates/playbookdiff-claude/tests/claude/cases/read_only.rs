//! Compiling never changes the analysed tree (spec 000 fixture checklist:
//! read-only safety).

use crate::common::*;
use playbookdiff_model::Mode;
use std::path::Path;

/// Invariants of every result: unique ids, `importedFrom` naming a listed
/// piece, `order` exactly on effective entries and contiguous from 0.
fn check_invariants(cfg: &playbookdiff_model::EffectiveAgentConfig, what: &str) {
    assert_unique_ids(cfg);
    assert_imported_from_resolves(cfg);
    let orders: Vec<u32> = cfg
        .received_instructions()
        .iter()
        .map(|i| i.order.unwrap())
        .collect();
    assert_eq!(
        orders,
        (0..orders.len() as u32).collect::<Vec<_>>(),
        "{what}"
    );
    for i in &cfg.instructions {
        assert_eq!(
            i.order.is_some(),
            i.applicability == playbookdiff_model::Applicability::Effective,
            "{what}: {}",
            i.id
        );
        if i.applicability != playbookdiff_model::Applicability::Unavailable {
            assert_eq!(i.bytes, i.content.len() as u64, "{what}: {}", i.id);
        }
    }
}

/// Compiles `root` from every directory, with every file as target, in
/// both modes, checking the invariants of each result.
fn compile_everywhere(root: &Path) {
    let snap = snapshot(root);
    let mut dirs = vec![String::from(".")];
    let mut files = Vec::new();
    for rel in snap.keys() {
        let s = rel.to_string_lossy().to_string();
        if s.is_empty() {
            continue;
        }
        match std::fs::symlink_metadata(root.join(rel)) {
            Ok(m) if m.is_dir() => dirs.push(s),
            _ => files.push(s),
        }
    }
    for mode in [Mode::Repo, Mode::Local] {
        for cwd in &dirs {
            let base = Ctx {
                mode,
                ..at_root().cwd(cwd)
            };
            let what = format!("{} {base:?}", root.display());
            check_invariants(&compile_dir(root, &base), &what);
            for f in files.iter().take(12) {
                let ctx = base.clone().target(f);
                check_invariants(
                    &compile_dir(root, &ctx),
                    &format!("{} {ctx:?}", root.display()),
                );
            }
        }
    }
}

#[test]
fn compiling_every_fixture_leaves_the_tree_byte_identical() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let before = snapshot(&fixtures);
    for f in all_fixtures() {
        compile_everywhere(&f);
    }
    assert_eq!(snapshot(&fixtures), before);
}

#[test]
fn compiling_the_symlink_fixtures_leaves_contents_mtimes_and_link_targets_unchanged() {
    for t in symlink_fixtures() {
        let before = snapshot(t.path());
        assert!(before.values().any(|e| matches!(e, Entry::Link { .. })));
        compile_everywhere(t.path());
        assert_eq!(snapshot(t.path()), before);
    }
}

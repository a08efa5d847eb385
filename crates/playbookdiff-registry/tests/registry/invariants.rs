//! Adding a harness is one adapter crate plus one registry line: no other
//! crate depends on an adapter crate, names one in its code, or spells a
//! registered harness id as a string literal outside its tests.

use std::path::{Path, PathBuf};

const CRATE: &str = env!("CARGO_PKG_NAME");

/// Crates that are not adapters although the registry depends on them.
const NOT_ADAPTERS: &[&str] = &["playbookdiff-adapter", "playbookdiff-model"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
    let doc: toml::Table = text.parse().expect("valid Cargo.toml");
    doc.get("dependencies")
        .and_then(|d| d.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

/// The adapter crates: the registry's own `playbookdiff-*` dependencies
/// other than the interface and the model.
fn adapter_crates() -> Vec<String> {
    dependencies(&crates_dir().join(CRATE).join("Cargo.toml"))
        .into_iter()
        .filter(|d| d.starts_with("playbookdiff-") && !NOT_ADAPTERS.contains(&d.as_str()))
        .collect()
}

/// The diagnostic table records which harness owns a code, as data for the
/// generated reference; nothing branches on it, and
/// `diagnostic_owners_are_registered` checks each id.
const HARNESS_IDS_AS_DATA: &[&str] = &["playbookdiff-model/src/diagnostics.rs"];

/// `.rs` files under `dir`, each cut at its first `#[cfg(test)]`.
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            let cut = text.find("#[cfg(test)]").unwrap_or(text.len());
            out.push((p, text[..cut].to_string()));
        }
    }
}

#[test]
fn the_registry_lists_each_adapter_crate_once() {
    let adapters = adapter_crates();
    assert_eq!(adapters.len(), playbookdiff_registry::adapters().len());
    let lib = std::fs::read_to_string(crates_dir().join(CRATE).join("src/lib.rs")).unwrap();
    for a in &adapters {
        let entry = format!("&{}::ADAPTER,", a.replace('-', "_"));
        let lines = lib.lines().filter(|l| l.contains(&entry)).count();
        assert_eq!(lines, 1, "one line {entry} in the registry");
    }
}

#[test]
fn no_other_crate_names_a_harness() {
    let adapters = adapter_crates();
    let ids: Vec<String> = playbookdiff_registry::adapters()
        .iter()
        .map(|a| format!("\"{}\"", a.harness().as_str()))
        .collect();
    let mut checked = 0;
    for entry in std::fs::read_dir(crates_dir()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == CRATE || adapters.contains(&name) || !entry.path().is_dir() {
            continue;
        }
        checked += 1;
        let deps = dependencies(&entry.path().join("Cargo.toml"));
        for a in &adapters {
            assert!(
                !deps.contains(a),
                "{name} depends on adapter crate {a}; use the registry"
            );
        }
        let mut files = Vec::new();
        sources(&entry.path().join("src"), &mut files);
        for (path, text) in &files {
            for a in &adapters {
                let module = a.replace('-', "_");
                assert!(
                    !text.contains(&module),
                    "{} names {module}; use the registry",
                    path.display()
                );
            }
            if HARNESS_IDS_AS_DATA.iter().any(|d| path.ends_with(d)) {
                continue;
            }
            for id in &ids {
                assert!(
                    !text.contains(id.as_str()),
                    "{} spells the harness id {id}; ask the registry",
                    path.display()
                );
            }
        }
    }
    assert!(checked >= 4, "the other crates were found ({checked})");
}

#[test]
fn diagnostic_owners_are_registered() {
    for code in playbookdiff_model::DiagnosticCode::ALL {
        if let Some(owner) = code.owner() {
            assert!(
                playbookdiff_registry::by_id(owner).is_some(),
                "{} is owned by `{owner}`, which is not registered",
                code.as_str()
            );
        }
    }
}

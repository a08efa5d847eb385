//! Adding a harness is one adapter crate plus one registry line: no other
//! crate depends on an adapter crate, names one in its code, or spells a
//! registered harness (its id or its name) in a string literal outside its
//! tests, except the places listed in [`ALLOWED`].

use std::path::{Path, PathBuf};

use crate::rust_lexer::{literals, paths};

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

/// The string literals outside tests that may name a harness, each a file
/// (relative to `crates/`), a fragment of the literal's text that marks the
/// place (empty: every literal of the file), and why. Anything else that
/// spells a registered harness's id or name in a string fails
/// `no_other_crate_spells_a_harness`: ask the registry instead.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "playbookdiff-model/src/diagnostics.rs",
        "",
        "the diagnostic table records the harness that owns a code, and its summary names it, \
         as data for the generated reference; nothing branches on it, and \
         diagnostic_owners_are_registered checks each id",
    ),
    (
        "playbookdiff-model/src/context.rs",
        "A harness id: `claude-code` (Claude Code), `codex`",
        "the JSON Schema's description of a harness id gives examples",
    ),
    (
        "playbookdiff-config/src/lib.rs",
        "(e.g. harnesses = [",
        "an error message gives an example of the `harnesses` key",
    ),
    (
        "playbookdiff/src/cli.rs",
        "Examples:",
        "the examples of `--help` name harnesses, as the README does",
    ),
];

/// Whether a file's code (before its tests) dispatches on the guard's
/// hosts (`Host::ClaudeCode =>` and the like). Such a file speaks one
/// agent's runtime interface per host (its hook payloads and answers, the
/// files hooks are registered in, the settings that switch hooks off),
/// which no adapter models: adding a harness never touches it (a harness
/// becomes a host only when the guard learns its hook protocol), and
/// `surfaces::every_host_is_a_registered_harness` in the guard's tests
/// ties each host to a registered harness. Its literals may spell the
/// hosts' harnesses.
fn dispatches_on_guard_hosts(text: &str) -> bool {
    let code = text.find("#[cfg(test)]").map_or(text, |cut| &text[..cut]);
    let uses_host = code.contains("crate::Host") || code.contains("playbookdiff_guard::Host");
    let in_guard = code.contains("pub enum Host {");
    (uses_host || in_guard) && code.contains("Host::") && code.contains(" => ")
}

/// The Rust files under `dir`, with their text.
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
            out.push((p, text));
        }
    }
}

/// Whether `text` holds `term` as a whole word: not inside a longer name
/// (`codexy`, `my_codex`), but `.codex/`, `codex-only` and `\"codex\"` hold
/// `codex`.
fn holds_word(text: &str, term: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(term).any(|(at, _)| {
        !word(text[..at].chars().next_back()) && !word(text[at + term.len()..].chars().next())
    })
}

/// The ids and names of the registered harnesses: `claude-code`, `Claude Code`…
fn harness_terms() -> Vec<&'static str> {
    playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| [a.harness().as_str(), a.harness().display_name()])
        .collect()
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

/// The other crates' directories under `crates/`: neither the registry nor
/// an adapter crate.
fn other_crates() -> Vec<(String, PathBuf)> {
    let adapters = adapter_crates();
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(crates_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| name != CRATE && !adapters.contains(name))
        .collect();
    out.sort();
    assert!(
        out.len() >= 4,
        "the other crates were found ({})",
        out.len()
    );
    out
}

#[test]
fn no_other_crate_depends_on_or_names_an_adapter_crate() {
    let adapters = adapter_crates();
    for (name, dir) in other_crates() {
        let deps = dependencies(&dir.join("Cargo.toml"));
        for a in &adapters {
            assert!(
                !deps.contains(a),
                "{name} depends on adapter crate {a}; use the registry"
            );
        }
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        for (path, text) in &files {
            let code = text
                .find("#[cfg(test)]")
                .map_or(&text[..], |cut| &text[..cut]);
            for a in &adapters {
                let module = a.replace('-', "_");
                assert!(
                    !code.contains(&module),
                    "{} names {module}; use the registry",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn no_other_crate_spells_a_harness() {
    let terms = harness_terms();
    let mut offences = Vec::new();
    for (_, dir) in other_crates() {
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        for (path, text) in &files {
            let rel = path.strip_prefix(crates_dir()).unwrap().to_string_lossy();
            let rel = rel.replace('\\', "/");
            if dispatches_on_guard_hosts(text) {
                continue;
            }
            for lit in literals(text) {
                let allowed = ALLOWED
                    .iter()
                    .any(|(file, mark, _)| rel == *file && lit.text.contains(mark));
                if allowed {
                    continue;
                }
                if let Some(term) = terms.iter().find(|t| holds_word(&lit.text, t)) {
                    offences.push(format!("{rel}:{} spells `{term}`", lit.line));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "ask the registry instead of naming a harness (or, for an example in help \
         text, add the place to ALLOWED with the reason):\n{}",
        offences.join("\n")
    );
}

/// Each place of [`ALLOWED`] exists and names a harness, so the list never
/// keeps a place that is gone.
#[test]
fn every_allowed_place_names_a_harness() {
    let terms = harness_terms();
    for (file, mark, why) in ALLOWED {
        let text = std::fs::read_to_string(crates_dir().join(file)).unwrap();
        let named = literals(&text)
            .iter()
            .any(|l| l.text.contains(mark) && terms.iter().any(|t| holds_word(&l.text, t)));
        assert!(
            named,
            "{file}: no literal holding {mark:?} names a harness ({why})"
        );
    }
}

#[test]
fn a_harness_is_found_as_a_word_in_any_spelling() {
    for (text, found) in [
        ("codex", true),
        ("\\\"codex\\\"", true),
        (".codex/config.toml", true),
        ("instruction:missing:codex-only:root", true),
        ("--harness=codex", true),
        ("What Claude Code receives", true),
        ("codexy", false),
        ("my_codex", false),
        ("CODEX_HOME", false),
        ("Claude Codes", false),
    ] {
        let hit = ["codex", "Claude Code"].iter().any(|t| holds_word(text, t));
        assert_eq!(hit, found, "{text}");
    }
}

/// Paths (or their first segments) that do input or output outside the
/// repository reader: the environment, processes, the network, the
/// terminal. Only the command line may use them.
const CLI_ONLY: &[&str] = &[
    "std::env",
    "std::process",
    "std::net",
    "std::io::IsTerminal",
    "terminal_size",
];

/// Crates exempt from the input and output rules: the command line, which
/// owns them, and the dev-only test kit.
const DOES_IO: &[&str] = &["playbookdiff", "playbookdiff-testkit"];

/// The one crate that reads the analysed repository's file system.
const READS_FILES: &str = "playbookdiff-source";

/// Why `path`, in non-test code of `krate`, breaks the input and output
/// rules, if it does.
fn io_offence(krate: &str, path: &str) -> Option<&'static str> {
    let starts = |p: &str| path == p || path.starts_with(&format!("{p}::"));
    if CLI_ONLY.iter().any(|p| starts(p)) {
        return Some(
            "only the command line reads the environment, runs a process, \
                     uses the network or looks at the terminal",
        );
    }
    if path
        .split("::")
        .any(|s| matches!(s, "stdout" | "stderr" | "stdin"))
    {
        return Some("only the command line prints");
    }
    if starts("std::fs") && krate != READS_FILES {
        return Some(
            "only playbookdiff-source reads files (through Repo and SourceTree); \
                     the CLI reads and writes playbookdiff.toml",
        );
    }
    None
}

/// Input and output stay where the architecture puts them: the model, the
/// comparison, the renderers, the configuration, the adapters and the
/// registry touch no file, environment variable, process, network or
/// terminal; the source crate only files.
#[test]
fn input_and_output_stay_in_the_source_crate_and_the_cli() {
    let mut offences = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(crates_dir()).unwrap().flatten() {
        let krate = entry.file_name().to_string_lossy().into_owned();
        if DOES_IO.contains(&krate.as_str()) || !entry.path().is_dir() {
            continue;
        }
        checked += 1;
        let mut files = Vec::new();
        sources(&entry.path().join("src"), &mut files);
        for (path, text) in &files {
            for (line, p) in paths(text) {
                if let Some(why) = io_offence(&krate, &p) {
                    let rel = path.strip_prefix(crates_dir()).unwrap_or(path);
                    offences.push(format!("{}:{line}: {p}: {why}", rel.display()));
                }
            }
        }
    }
    assert!(checked >= 8, "the library crates were found ({checked})");
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

#[test]
fn the_io_rules_catch_each_kind() {
    let model = "playbookdiff-model";
    for path in [
        "std::env::var",
        "std::process::Command",
        "std::io::stdout",
        "io::stderr",
        "std::fs::read",
        "std::io::IsTerminal",
    ] {
        assert!(io_offence(model, path).is_some(), "{path}");
    }
    assert_eq!(io_offence(READS_FILES, "std::fs::read_dir"), None);
    assert_eq!(io_offence(model, "std::io::Write"), None);
    assert_eq!(io_offence(model, "std::fsx"), None);
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

/// The rule that lets a file spell the guard's hosts holds for a file that
/// dispatches on them and for no other: a literal that names a harness
/// without such a dispatch, or after the tests begin, is still an offence.
#[test]
fn only_a_dispatch_on_the_guard_hosts_may_spell_them() {
    let dispatch = "fn f(h: crate::Host) -> &str { match h { crate::Host::Codex => \".codex/hooks.json\", _ => \"\" } }";
    assert!(dispatches_on_guard_hosts(dispatch));
    let own =
        "pub enum Host { Codex }\nfn id(h: Host) -> &str { match h { Host::Codex => \"codex\" } }";
    assert!(dispatches_on_guard_hosts(own));
    assert!(!dispatches_on_guard_hosts(
        "const X: &str = \".codex/config.toml\";"
    ));
    assert!(!dispatches_on_guard_hosts(
        "use crate::Host;\nconst X: &str = \"codex\";"
    ));
    assert!(!dispatches_on_guard_hosts(
        "const X: &str = \"codex\";\n#[cfg(test)]\nmod t { fn f(h: crate::Host) { match h { crate::Host::Codex => () } } }"
    ));
}

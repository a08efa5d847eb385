//! The guard's glob sets answer as `globset` does: for every glob the
//! policy uses (every adapter's surfaces, every rule's matchers, typical
//! `[guard]` globs), one set of [`Globs`] and one [`GlobSet`] give the
//! same answer on a table of paths built from the globs' own parts.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use playbookdiff_guard::globs::{Globs, Shape};
use playbookdiff_guard::rules;

fn patterns() -> Vec<&'static str> {
    let surfaces = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.surfaces().iter())
        .filter(|s| s.in_repository())
        .map(|s| s.pattern);
    let rules = rules::ALL
        .iter()
        .flat_map(|r| r.matchers.iter().copied())
        .filter(|m| !m.starts_with('!') && !m.contains(' '));
    let config = [
        "docs/adr/**",
        "crates/guard/**",
        "src/*.rs",
        "**/generated/*.json",
        "release-*",
        "main",
        "[ab]*/x.md",
        "{src,lib}/**/*.ts",
        "**/*.lock",
        "**",
        "*",
        "a?c/d",
        "\\*.md",
    ];
    surfaces.chain(rules).chain(config).collect()
}

/// Paths from the globs' own literal parts, at the root, nested, as a
/// directory, with neighbours that differ by one character.
fn paths(patterns: &[&str]) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for p in patterns {
        for part in p.split('/') {
            let plain: String = part.chars().filter(|c| !"*?[]{}!\\".contains(*c)).collect();
            for alt in plain.split(',') {
                parts.push(alt.to_string());
            }
        }
    }
    parts.extend(["x", "SKILL.md", "a.md", "notes.txt", ""].map(String::from));
    parts.sort();
    parts.dedup();
    let mut out: Vec<String> = Vec::new();
    for a in &parts {
        for b in ["x", "SKILL.md", "a.md", "settings.json", "config.toml", ""] {
            for prefix in ["", "pkg/", "/home/u/", "/", "a/b/"] {
                out.push(format!("{prefix}{a}"));
                out.push(format!("{prefix}{a}/{b}"));
                out.push(format!("{prefix}{a}/sub/{b}"));
                out.push(format!("{prefix}x{a}/{b}"));
                out.push(format!("{prefix}{a}x"));
                out.push(format!("{prefix}{a}.bak"));
            }
        }
    }
    out.extend(
        [
            "abc/d",
            "a/c/d",
            "acd",
            "a.md",
            "*.md",
            "bx/x.md",
            "src/a.rs",
            "src/a/b.rs",
            "lib/x/y.ts",
        ]
        .map(String::from),
    );
    out.sort();
    out.dedup();
    out
}

fn globset(patterns: &[&str]) -> GlobSet {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(GlobBuilder::new(p).literal_separator(true).build().unwrap());
    }
    b.build().unwrap()
}

#[test]
fn glob_sets_answer_as_globset_does() {
    let all = patterns();
    let table = paths(&all);
    assert!(table.len() > 10_000, "{} paths", table.len());
    // Each glob alone, and the whole set (where one glob covers others).
    let mut sets: Vec<Vec<&str>> = all.iter().map(|p| vec![*p]).collect();
    sets.push(all.clone());
    let surfaces: Vec<&str> = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.surfaces().iter())
        .filter(|s| s.in_repository())
        .map(|s| s.pattern)
        .collect();
    sets.push(surfaces);
    let mut checked = 0;
    for set in &sets {
        let ours = Globs::new(set.iter().copied());
        let theirs = globset(set);
        for path in &table {
            assert_eq!(
                ours.is_match(path),
                theirs.is_match(path),
                "{set:?} on {path:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}

/// Every surface is a plain shape, or a glob with a literal part that a
/// path must hold before its regular expression is compiled: a call on
/// a source file compiles none.
#[test]
fn no_surface_is_compiled_for_every_path() {
    let surfaces: Vec<&str> = playbookdiff_registry::adapters()
        .iter()
        .flat_map(|a| a.surfaces().iter())
        .filter(|s| s.in_repository())
        .map(|s| s.pattern)
        .collect();
    let set = Globs::new(surfaces.iter().copied());
    let unfiltered: Vec<_> = set
        .shapes()
        .filter(|s| matches!(s, Shape::Other { needle, .. } if needle.len() < 4))
        .collect();
    assert!(unfiltered.is_empty(), "{unfiltered:?}");
    let plain = set
        .shapes()
        .filter(|s| !matches!(s, Shape::Other { .. }))
        .count();
    assert!(
        plain * 2 > set.shapes().count(),
        "{:?}",
        set.shapes().collect::<Vec<_>>()
    );
}

/// Random globs and paths over a small alphabet (names, `.`, `/`, `*`,
/// `**`, `?`, a class, an alternation): `Globs` answers as `globset` does,
/// for one glob and for a set of three.
mod random {
    use super::*;
    use proptest::prelude::*;

    fn glob_part() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a", "b", ".c", "d.md", "*", "**", "?", "[ab]", "{a,d.md}", "*.md", "a*",
        ])
    }

    fn glob() -> impl Strategy<Value = String> {
        (any::<bool>(), prop::collection::vec(glob_part(), 1..5)).prop_map(|(anywhere, parts)| {
            let text = parts.join("/");
            if anywhere {
                format!("**/{text}")
            } else {
                text
            }
        })
    }

    fn path() -> impl Strategy<Value = String> {
        let part = prop::sample::select(vec!["a", "b", ".c", "d.md", "ab", "x", "a.md", ""]);
        (any::<bool>(), prop::collection::vec(part, 1..6)).prop_map(|(absolute, parts)| {
            let text = parts.join("/");
            if absolute {
                format!("/{text}")
            } else {
                text
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn globs_answer_as_globset_does(
            globs in prop::collection::vec(glob(), 1..4),
            paths in prop::collection::vec(path(), 1..8),
        ) {
            let patterns: Vec<&str> = globs.iter().map(String::as_str).collect();
            let ours = Globs::new(patterns.iter().copied());
            let theirs = globset(&patterns);
            for p in &paths {
                prop_assert_eq!(ours.is_match(p), theirs.is_match(p), "{:?} on {:?}", patterns, p);
            }
        }
    }
}

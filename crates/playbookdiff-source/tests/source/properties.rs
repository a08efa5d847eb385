//! Property tests of the readers of untrusted input in this crate: front
//! matter and YAML, the `@import` scanner, decoded text, repository paths,
//! and `Repo` on random trees with links, loops and odd names.
//!
//! Each property runs a few hundred cases under `cargo test`; set
//! `PROPTEST_CASES` for a longer run (`PROPTEST_CASES=20000 cargo test
//! --release -p playbookdiff-source --test source properties::`).

use playbookdiff_model::RepoPath;
use playbookdiff_source::markdown::{front_matter, parse_yaml, scan};
use playbookdiff_source::{
    EntryKind, Repo, RepoOptions, Resolved, TextFile, WalkScope, WorkingTree,
};
use proptest::prelude::*;
use std::path::Path;

use playbookdiff_testkit::proptest_cases as cases;

/// Text made of Markdown and YAML fragments, so that the interesting
/// branches are reached more often than by uniform characters.
fn markdownish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("---\n".to_string()),
        Just("...\n".to_string()),
        Just("\u{feff}".to_string()),
        Just("\r\n".to_string()),
        Just("\n".to_string()),
        Just("```\n".to_string()),
        Just("~~~md\n".to_string()),
        Just("    @indented.md\n".to_string()),
        Just("`@code.md`".to_string()),
        Just("<!-- @hidden.md -->\n".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("@a.md ".to_string()),
        Just("@../../etc/passwd\n".to_string()),
        Just("@~/x.md\n".to_string()),
        Just("(@glued.md)".to_string()),
        Just("**@bold.md**".to_string()),
        Just("name: x\n".to_string()),
        Just("description: [a, {b: c}]\n".to_string()),
        Just("paths:\n  - \"src/**\"\n".to_string()),
        Just("a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n".to_string()),
        Just("key: \"unterminated\n".to_string()),
        Just("\t- tab\n".to_string()),
        Just("? complex\n: key\n".to_string()),
        Just("!!binary aGk=\n".to_string()),
        Just("[[[[[[[[[[[[[[[[[[[[\n".to_string()),
        Just("é漢😀\u{202e}\u{0}".to_string()),
        "[ -~]{0,12}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

fn char_boundary(s: &str, i: usize) -> bool {
    i <= s.len() && s.is_char_boundary(i)
}

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn front_matter_never_panics_and_points_inside(text in markdownish()) {
        if let Some(fm) = front_matter(&text) {
            prop_assert!(fm.start_line >= 1);
            prop_assert!(fm.end_line > fm.start_line);
            prop_assert!(char_boundary(&text, fm.body_offset));
            if let Some(line) = fm.value.as_ref().err().and_then(|e| e.line) {
                prop_assert!(line >= 1);
            }
            // Stable: the same text gives the same answer.
            let again = front_matter(&text).unwrap();
            prop_assert_eq!(format!("{fm:?}"), format!("{again:?}"));
        }
    }

    #[test]
    fn yaml_never_panics_and_is_stable(yaml in markdownish()) {
        let a = parse_yaml(&yaml);
        let b = parse_yaml(&yaml);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn import_scan_never_panics_and_offsets_hold(text in markdownish()) {
        let s = scan(&text);
        for t in s.imports.iter().chain(&s.glued) {
            prop_assert!(t.start < t.end);
            prop_assert!(char_boundary(&text, t.start) && char_boundary(&text, t.end));
            prop_assert_eq!(&text[t.start..t.start + 1], "@");
            prop_assert!(text[t.start..t.end].contains(t.raw.as_str()));
            prop_assert!(!t.raw.chars().any(char::is_whitespace));
        }
        for (a, b) in &s.comment_blocks {
            prop_assert!(a <= b && char_boundary(&text, *a) && char_boundary(&text, *b));
        }
        prop_assert_eq!(s, scan(&text));
    }

    #[test]
    fn text_lines_are_consistent(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let t = TextFile::from_bytes(&bytes);
        prop_assert_eq!(t.bytes, bytes.len() as u64);
        prop_assert_eq!(t.invalid_utf8, std::str::from_utf8(&bytes).is_err());
        let mut last = 1;
        for i in 0..=t.text.len() {
            let l = t.line_of(i);
            prop_assert!(l >= last);
            last = l;
        }
        let newlines = t.text.bytes().filter(|b| *b == b'\n').count() as u32;
        prop_assert!(t.line_count() == newlines || t.line_count() == newlines + 1);
    }

    #[test]
    fn repo_paths_stay_inside_and_normalize_once(raw in "[a-z./ ]{0,30}", name in "[a-zA-Z0-9._ -]{1,12}") {
        if let Some(p) = RepoPath::new(&raw) {
            prop_assert!(!p.components().any(|c| c == ".." || c == "." || c.is_empty()));
            prop_assert_eq!(RepoPath::new(p.as_str()), Some(p.clone()));
            match p.child(&name) {
                Some(c) => {
                    prop_assert_eq!(Some(c.clone()), p.join(&name));
                    prop_assert_eq!(c.parent(), Some(p.clone()));
                }
                None => prop_assert!(name == "." || name == ".."),
            }
        }
    }
}

/// One entry of a random tree.
#[derive(Debug, Clone)]
enum Spec {
    Dir(String),
    File(String, String),
    Link(String, String),
}

/// Odd but legal file names.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("CLAUDE.md".to_string()),
        Just("AGENTS.md".to_string()),
        Just("SKILL.md".to_string()),
        Just(".claude".to_string()),
        Just(".agents".to_string()),
        Just("skills".to_string()),
        Just("rules".to_string()),
        Just("-rf".to_string()),
        Just("...".to_string()),
        Just(" lead and trail ".to_string()),
        Just("new\nline".to_string()),
        Just("back\\slash".to_string()),
        Just("é漢😀".to_string()),
        Just("\u{202e}rtl".to_string()),
        Just("x".repeat(255)),
        "[a-c]{1,2}",
    ]
}

fn rel_path() -> impl Strategy<Value = String> {
    prop::collection::vec(name(), 1..4).prop_map(|v| v.join("/"))
}

/// Link targets: inside, above the root, absolute, to itself, to `.`.
fn target() -> impl Strategy<Value = String> {
    prop_oneof![
        rel_path(),
        rel_path().prop_map(|p| format!("../{p}")),
        Just("../../outside/secret.md".to_string()),
        Just("/".to_string()),
        Just(".".to_string()),
        Just("..".to_string()),
        Just("loop".to_string()),
        Just("a/../../..".to_string()),
        "[a-c]{1,2}",
    ]
}

fn tree_spec() -> impl Strategy<Value = Vec<Spec>> {
    let spec = prop_oneof![
        rel_path().prop_map(Spec::Dir),
        (rel_path(), markdownish()).prop_map(|(p, t)| Spec::File(p, t)),
        (rel_path(), target()).prop_map(|(p, t)| Spec::Link(p, t)),
    ];
    prop::collection::vec(spec, 0..24)
}

/// Lays the spec out under `root`, best effort (a name may collide with a
/// file already there).
fn lay_out(root: &Path, spec: &[Spec]) {
    for s in spec {
        let (p, _) = match s {
            Spec::Dir(p) | Spec::File(p, _) | Spec::Link(p, _) => (root.join(p), ()),
        };
        if let Some(parent) = p.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = match s {
            Spec::Dir(_) => std::fs::create_dir_all(&p),
            Spec::File(_, t) => std::fs::write(&p, t),
            Spec::Link(_, t) => std::os::unix::fs::symlink(t, &p),
        };
    }
    let _ = std::os::unix::fs::symlink("loop", root.join("loop"));
}

const SECRET: &str = "OUTSIDE-THE-REPOSITORY";

/// Every path a walk shows, and for each the result of resolving and
/// reading it: what a consumer of `Repo` can observe.
fn observe(repo: &Repo<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for d in repo.directories() {
        for e in repo.list_dir(&d) {
            let p = d.child(&e.name).unwrap();
            let r = repo.resolve(&p);
            let read = repo.read_text(&p, 1 << 16).map(|t| t.text.clone());
            out.push(format!("{p} {:?} {r:?} {read:?}", e.kind));
        }
    }
    out
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn random_trees_never_escape_and_read_the_same_every_time(spec in tree_spec(), cwd_pick in 0usize..8) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/secret.md"), SECRET).unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        lay_out(&root, &spec);
        std::os::unix::fs::symlink(dir.path().join("outside/secret.md"), root.join("abs-out")).unwrap();
        std::os::unix::fs::symlink("../outside", root.join("rel-out")).unwrap();
        let tree = WorkingTree::open(&root).unwrap();

        let repo = Repo::new(&tree);
        let seen = observe(&repo);
        for line in &seen {
            prop_assert!(!line.contains(SECRET), "{}", line);
        }
        let abs_out = matches!(repo.resolve(&RepoPath::new("abs-out").unwrap()), Resolved::Outside { .. });
        let rel_out = matches!(repo.resolve(&RepoPath::new("rel-out/secret.md").unwrap()), Resolved::Outside { .. });
        prop_assert!(abs_out && rel_out);
        prop_assert!(repo.read_text(&RepoPath::new("rel-out/secret.md").unwrap(), 1 << 16).is_err());
        // Stable across runs.
        let again = Repo::new(&tree);
        prop_assert_eq!(&seen, &observe(&again));
        prop_assert_eq!(repo.walk_problems(), again.walk_problems());

        // A launch directory's scope answers what a whole walk answers.
        let dirs = repo.directories();
        let cwd = dirs[cwd_pick % dirs.len()].clone();
        let scoped = Repo::with_options(&tree, RepoOptions {
            scope: WalkScope::Launch { cwd: cwd.clone(), entry_names: vec![".claude".into(), ".agents".into()] },
            ..RepoOptions::default()
        });
        for n in ["CLAUDE.md", "SKILL.md", "AGENTS.md", "a"] {
            prop_assert_eq!(scoped.files_named_under(n, &cwd), repo.files_named_under(n, &cwd));
        }
        for d in &dirs {
            prop_assert_eq!(scoped.list_dir(d), repo.list_dir(d));
            prop_assert_eq!(scoped.kind(d), Some(EntryKind::Dir));
        }
        prop_assert_eq!(scoped.directories(), repo.directories());
    }
}

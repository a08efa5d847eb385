//! Upstream issues are cited as `owner/repo#N` in every message and doc
//! comment: in a pull-request comment (`--format markdown`) or a generated
//! Markdown page, a bare `#N` links to an issue of the repository the
//! comment is posted in, not to the agent's.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A `#` followed by two or more digits that does not follow a repository
/// name (`owner/repo#12`) or a word character.
fn bare_reference(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    (0..b.len()).find(|&i| {
        b[i] == b'#'
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
            && b.get(i + 2).is_some_and(u8::is_ascii_digit)
            && (i == 0 || matches!(b[i - 1], b' ' | b'(' | b'\t' | b'"'))
    })
}

#[test]
fn upstream_issues_are_cited_with_their_repository() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&crates).unwrap().flatten() {
        rust_files(&e.path().join("src"), &mut files);
    }
    files.push(crates.join("../docs/diagnostics.md"));
    assert!(files.len() > 10, "{}", crates.display());
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if bare_reference(line).is_some() {
                bad.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "write upstream issues as owner/repo#N:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_detector_tells_bare_from_qualified() {
    assert!(bare_reference("(claude-code #123)").is_some());
    assert!(bare_reference("see #45").is_some());
    assert!(bare_reference("anthropics/claude-code#123").is_none());
    assert!(bare_reference("color #f00 and #1").is_none());
}

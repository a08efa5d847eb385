//! Where an `@path` import leads: a repository file, a place already
//! reported (outside the repository, a directory, a broken link), or
//! nothing, when the token is a mention or a look-alike of a path.
//!
//! Source: spec 000 "Imports"; harness facts A2.

use crate::Compiler;
use playbookdiff_model::{Diagnostic, DiagnosticCode, RepoPath, SourceFormat, SourceRef};
use playbookdiff_source::{EntryKind, Resolved};

/// What one `@token` resolves to.
pub(super) enum Import {
    /// A regular file inside the repository.
    File(RepoPath),
    /// Not an import of a repository file, and already reported (outside the
    /// repository, a directory, a broken link, an unlisted directory).
    Reported,
    /// Names nothing: a mention, a look-alike or a missing file.
    Unresolved,
}

/// Resolves an `@token` to a repository file, reporting what it names when
/// that is not a file it can import: a place outside the repository, a
/// directory, a broken link, or a directory the walk could not list. One
/// diagnostic per token: a reported token is not also "missing". `path` is
/// the path the token names, `raw` the token as written, `at` its line.
pub(super) fn resolve_import(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    path: &str,
    raw: &str,
    at: &SourceRef,
) -> Import {
    let token = Token { raw, at };
    match candidate_of(cx, dir, path) {
        Ok(candidate) if candidate.is_above_root() => token.above_root(cx, candidate),
        Ok(candidate) => token.in_repository(cx, candidate),
        Err(why) => token.outside(cx, why),
    }
}

/// The repository path an import of `path` from `dir` names, or why it
/// names a place outside the repository: the home directory, an absolute
/// path elsewhere, or a climb above the root (which `--outside-root`
/// reads through the view of the directories there, as Claude Code reads
/// it; then as an external import, see `expand`).
fn candidate_of(
    cx: &Compiler<'_, '_>,
    dir: &RepoPath,
    path: &str,
) -> Result<RepoPath, &'static str> {
    if path.starts_with("~/") || path == "~" {
        return Err("resolves in the user's home directory");
    }
    if let Some(abs) = path.strip_prefix('/') {
        let root = cx
            .repo
            .tree()
            .absolute_root()
            .map(|p| p.to_string_lossy().trim_start_matches('/').to_string());
        let rel = root.and_then(|r| {
            abs.strip_prefix(&r)
                .filter(|rest| rest.is_empty() || rest.starts_with('/'))
                .map(|s| s.trim_start_matches('/').to_string())
        });
        return rel
            .and_then(|rel| RepoPath::new(&rel))
            .ok_or("is an absolute path outside the repository");
    }
    dir.join(path)
        .or_else(|| cx.outside.and_then(|a| join_climbing(dir, path, a.len())))
        .ok_or("climbs above the repository root")
}

/// One `@token` as written (`raw`) at its line `at`, for the diagnostics of
/// [`resolve_import`].
struct Token<'t> {
    raw: &'t str,
    at: &'t SourceRef,
}

impl Token<'_> {
    /// What `candidate`, inside the repository, is to an import.
    fn in_repository(&self, cx: &mut Compiler<'_, '_>, candidate: RepoPath) -> Import {
        match cx.repo.resolve(&candidate) {
            Resolved::Inside {
                kind: EntryKind::File,
                ..
            } => Import::File(candidate),
            Resolved::Inside { kind, .. } => self.not_a_file(cx, &candidate, kind),
            Resolved::Outside { .. } => self.outside(
                cx,
                "goes through a symbolic link that leaves the repository",
            ),
            // A link loop or a dangling link is reported as such, not as a
            // missing file.
            Resolved::Loop { .. } | Resolved::Dangling { .. } => {
                cx.check_link(&candidate, SourceFormat::Markdown);
                Import::Reported
            }
            Resolved::Missing => self.unlisted(cx, &candidate),
        }
    }

    /// What `candidate`, above the root and imported by a file there
    /// (`--outside-root`), is to an import: read through the same view,
    /// links not followed.
    fn above_root(&self, cx: &mut Compiler<'_, '_>, candidate: RepoPath) -> Import {
        match cx.kind_at(&candidate) {
            Some(EntryKind::File | EntryKind::Symlink) => Import::File(candidate),
            Some(kind) => self.not_a_file(cx, &candidate, kind),
            None => Import::Unresolved,
        }
    }

    /// Reports an import of a place outside the repository (`why`).
    fn outside(&self, cx: &mut Compiler<'_, '_>, why: &str) -> Import {
        let raw = self.raw;
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportOutsideRepository,
                format!("`@{raw}` {why}; repo mode does not follow it, so its content is unknown."),
            )
            .at(self.at.clone()),
        );
        Import::Reported
    }

    /// Reports an import of `candidate`, which is no regular file.
    fn not_a_file(
        &self,
        cx: &mut Compiler<'_, '_>,
        candidate: &RepoPath,
        kind: EntryKind,
    ) -> Import {
        let raw = self.raw;
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::NotARegularFile,
                format!(
                    "`@{raw}` names `{candidate}`, which is {}; an import includes a file, so nothing is \
                     imported.",
                    crate::kind_phrase(kind)
                ),
            )
            .at(self.at.clone()),
        );
        Import::Reported
    }

    /// A missing `candidate`: reported when it lies below a directory the
    /// walk could not list (whether it exists is unknown), else unresolved.
    fn unlisted(&self, cx: &mut Compiler<'_, '_>, candidate: &RepoPath) -> Import {
        let Some((d, why)) = cx.unlisted_ancestor(candidate) else {
            return Import::Unresolved;
        };
        let raw = self.raw;
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::Unreadable,
                format!(
                    "`@{raw}` names `{candidate}`, but `{d}` could not be listed ({why}); whether the file \
                     exists, and what it would add, is unknown."
                ),
            )
            .at(self.at.clone()),
        );
        Import::Reported
    }
}

/// `dir` joined with the relative POSIX path `rel`, normalized lexically,
/// where `..` may climb above the repository root: the result is then a
/// [`RepoPath::above_root`] path (`.` joined with `../../a.md` gives
/// `../../a.md`). `None` when it climbs more than `levels` directories
/// above the root (the directories the `--outside-root` view covers).
pub(super) fn join_climbing(dir: &RepoPath, rel: &str, levels: usize) -> Option<RepoPath> {
    let mut parts: Vec<&str> = dir.components().collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_none_or(|l| *l == "..") {
                    parts.push("..");
                } else {
                    parts.pop();
                }
            }
            other => parts.push(other),
        }
    }
    let up = parts.iter().take_while(|p| **p == "..").count();
    if up > levels {
        return None;
    }
    let rest = parts[up..].join("/");
    let rest = RepoPath::new(if rest.is_empty() { "." } else { &rest })?;
    Some(RepoPath::above_root(up, &rest))
}

/// True when an unresolved token reads like a file path rather than a
/// mention (`@user`, `@scope/package`).
pub(super) fn looks_like_path(raw: &str) -> bool {
    let last = raw.rsplit('/').next().unwrap_or(raw);
    raw.starts_with("./")
        || raw.starts_with("../")
        || raw.starts_with('/')
        || last.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// Characters that end an `@path` in prose but are part of the token the
/// agent reads (`@docs/a.md,`, `@docs/a.md's`, `(@docs/a.md)`).
pub(super) fn is_prose_punctuation(c: char) -> bool {
    ",.;:!?)]}>'\"`*_\u{2019}".contains(c)
}

/// The longest part of `raw` that names a file and is followed by prose
/// punctuation (`docs/a.md` in `docs/a.md,` or `docs/a.md's`), with that
/// file.
pub(super) fn file_before_punctuation(
    cx: &Compiler<'_, '_>,
    dir: &RepoPath,
    raw: &str,
) -> Option<(usize, RepoPath)> {
    raw.char_indices()
        .rev()
        .filter(|&(i, c)| i > 0 && is_prose_punctuation(c))
        .find_map(|(i, _)| {
            dir.join(&raw[..i])
                .filter(|p| cx.repo.is_file(p))
                .map(|p| (i, p))
        })
}

/// Reports an unresolved `@token`: a look-alike when punctuation glued to
/// the path or a space in it hides an existing file; a missing import when
/// it reads like a path. Source: field reports 3 and 4.
pub(super) fn lookalike(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    raw: &str,
    rest: &str,
    at: &SourceRef,
) {
    if let Some((i, p)) = file_before_punctuation(cx, dir, raw) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportLookalike,
                format!(
                    "`@{raw}` is not imported: the `{}` after `{}` makes it a different path. Put a space after \
                     `@{}` to import `{p}`.",
                    &raw[i..],
                    &raw[..i],
                    &raw[..i]
                ),
            )
            .at(at.clone()),
        );
        return;
    }
    let mut joined = raw.to_string();
    for word in rest.split_whitespace().take(6) {
        joined.push(' ');
        joined.push_str(word);
        for cand in [
            joined.as_str(),
            joined.trim_end_matches(is_prose_punctuation),
        ] {
            if let Some(p) = dir.join(cand) {
                if cx.repo.is_file(&p) {
                    cx.diag(
                        Diagnostic::new(
                            DiagnosticCode::ImportLookalike,
                            format!(
                                "`@{cand}` is not imported: an import path ends at the first space, so only `@{raw}` \
                                 is read as a path. Rename `{p}` without spaces."
                            ),
                        )
                        .at(at.clone()),
                    );
                    return;
                }
            }
        }
    }
    // `@docs/gone.md.`: the path without its trailing punctuation is what
    // the author meant; it names no file either.
    let trimmed = raw.trim_end_matches(is_prose_punctuation);
    let meant = if looks_like_path(raw) { raw } else { trimmed };
    if looks_like_path(meant) {
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::ImportMissing,
                match dir.join(meant) {
                    Some(target) => format!(
                        "`@{meant}` names no file (resolved from `{dir}`): Claude Code receives the line as literal text, not the content of `{target}`. Create `{target}`, or correct or remove the line."
                    ),
                    None => format!(
                        "`@{meant}` names no file (resolved from `{dir}`): Claude Code receives the line as literal text. Correct or remove the line."
                    ),
                },
            )
            .at(at.clone()),
        );
    }
}

/// Reports `@path` glued to an opening punctuation mark (`(@docs/a.md)`)
/// when the path, without punctuation after it, names a file: it reads as
/// an import but is not one. Source: field report 3.
pub(super) fn glued_lookalike(
    cx: &mut Compiler<'_, '_>,
    dir: &RepoPath,
    raw: &str,
    before: char,
    at: &SourceRef,
) {
    let hit = dir
        .join(raw)
        .filter(|p| cx.repo.is_file(p))
        .map(|p| (raw.len(), p))
        .or_else(|| file_before_punctuation(cx, dir, raw));
    let Some((i, p)) = hit else { return };
    cx.diag(
        Diagnostic::new(
            DiagnosticCode::ImportLookalike,
            format!(
                "`@{raw}` follows `{before}` without a space, so it is not imported: an import must start a line or \
                 follow a space. Write `@{}` with spaces around it to import `{p}`.",
                &raw[..i]
            ),
        )
        .at(at.clone()),
    );
}

#[cfg(test)]
mod tests {
    use super::join_climbing;
    use playbookdiff_model::RepoPath;

    #[test]
    fn join_climbing_names_places_above_the_root_with_dot_dot() {
        let p = |s: &str| RepoPath::new(s).unwrap();
        let j = |d: &RepoPath, r: &str, l| join_climbing(d, r, l).map(|p| p.to_string());
        assert_eq!(
            j(&RepoPath::root(), "../../a.md", 2).as_deref(),
            Some("../../a.md")
        );
        assert_eq!(j(&RepoPath::root(), "../../a.md", 1), None);
        assert_eq!(
            j(&p("pkg"), "../../x/./a.md", 1).as_deref(),
            Some("../x/a.md")
        );
        assert_eq!(j(&p("pkg"), "../a.md", 0).as_deref(), Some("a.md"));
        let above = RepoPath::above_root(1, &p("sub"));
        assert_eq!(j(&above, "../../b.md", 2).as_deref(), Some("../../b.md"));
        assert_eq!(j(&above, "c.md", 1).as_deref(), Some("../sub/c.md"));
        assert_eq!(j(&RepoPath::root(), "..", 1).as_deref(), Some(".."));
    }
}

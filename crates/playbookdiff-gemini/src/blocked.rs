//! The path segments Gemini CLI's workspace refuses: a path below a
//! workspace directory with one of them is not "within the workspace", so
//! `read_file`, `list_directory` and the other tools refuse it and no
//! context file is added on demand for it (`isPathWithinWorkspace` in
//! `packages/core/src/utils/workspaceContext.ts`, its check moved to
//! `hasBlockedPathSegment` in `packages/core/src/utils/paths.ts` by 0.61.0;
//! seen with 0.61.0: reading `node_modules/core/lib/GEMINI.md` added no
//! `node_modules/GEMINI.md`). The releases with the rule and with the
//! short names are [`Profile::blocked_segments`] and
//! [`Profile::blocked_short_names`].

use crate::Profile;
use playbookdiff_model::RepoPath;

/// Whether release `profile` refuses `path` for a segment of its part
/// below the workspace directory `cwd`: `.git`, `.env` or `node_modules`,
/// a `gha-creds-*.json` file, and with [`Profile::blocked_short_names`]
/// their Windows short names (`git~1`, `node_m~1`, `gi1a2b~3`), compared
/// in lower case after cutting an alternate stream (`:...`) and trailing
/// spaces and dots. `false` when `path` is not below `cwd` or the release
/// has no such rule.
pub(crate) fn has_blocked_segment(path: &RepoPath, cwd: &RepoPath, profile: &Profile) -> bool {
    profile.blocked_segments
        && path.starts_with(cwd)
        && path
            .components()
            .skip(cwd.depth())
            .map(clean)
            .any(|s| is_blocked(&s) || (profile.blocked_short_names && is_short_name(&s)))
}

/// A segment as `hasBlockedPathSegment` compares it.
fn clean(segment: &str) -> String {
    let stream_cut = segment.split(':').next().unwrap_or("");
    stream_cut.trim_end_matches([' ', '.']).to_lowercase()
}

/// Whether one cleaned segment is refused by name.
fn is_blocked(s: &str) -> bool {
    matches!(s, ".git" | ".env" | "node_modules")
        || (s.starts_with("gha-creds-") && s.ends_with(".json"))
}

/// Whether one cleaned segment is the short name of a refused one.
fn is_short_name(s: &str) -> bool {
    short_name(s, "git", "gi")
        || short_name(s, "env", "en")
        || short_name(s, "node_m", "no")
        || gha_short_name(s)
}

/// Whether `s` is a Windows short name `{long}~N` or `{two}XXXX~N` (four
/// hexadecimal digits), as `^(long|twoXXXX)~\d+$`.
fn short_name(s: &str, long: &str, two: &str) -> bool {
    let Some((stem, n)) = s.split_once('~') else {
        return false;
    };
    let digits = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let hashed = stem.len() == two.len() + 4
        && stem.starts_with(two)
        && stem[two.len()..].bytes().all(|b| b.is_ascii_hexdigit());
    digits && (stem == long || hashed)
}

/// Whether `s` is the short name of a `gha-creds-*.json` file,
/// `^(gha-cr|ghXXXX)~\d+\.jso(n)?$`.
fn gha_short_name(s: &str) -> bool {
    let stem = s.strip_suffix(".json").or_else(|| s.strip_suffix(".jso"));
    stem.is_some_and(|stem| short_name(stem, "gha-cr", "gh"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    fn latest() -> Profile {
        crate::profile::of("0.61.0")
    }

    #[test]
    fn segments_as_the_agent_compares_them() {
        let root = RepoPath::root();
        let cases = [
            ("node_modules/x.md", true),
            ("packages/node_modules/Index.py", true),
            ("a/Node_Modules/x", true),
            ("a/node_modules. /x", true),
            ("a/node_modules:s/x", true),
            (".git/config", true),
            (".env", true),
            (".envrc", false),
            ("a/git~1/x", true),
            ("a/gi1a2b~12/x", true),
            ("a/gi1a2g~1/x", false),
            ("a/git~/x", false),
            ("a/node_m~2/x", true),
            ("a/no0f0f~1/x", true),
            ("a/en0000~3", true),
            ("gha-creds-1.json", true),
            ("gha-creds-1.txt", false),
            ("gha-cr~1.jso", true),
            ("gh12ab~4.json", true),
            ("node_modules_x/a", false),
            ("src/GEMINI.md", false),
        ];
        for (path, blocked) in cases {
            assert_eq!(
                has_blocked_segment(&p(path), &root, &latest()),
                blocked,
                "{path}"
            );
        }
    }

    #[test]
    fn only_below_the_workspace_directory() {
        let cwd = p("node_modules/pkg");
        let r = latest();
        assert!(!has_blocked_segment(&p("node_modules/pkg/x.md"), &cwd, &r));
        assert!(has_blocked_segment(&p("node_modules/pkg/.git/x"), &cwd, &r));
        assert!(!has_blocked_segment(&p("node_modules/x.md"), &cwd, &r));
    }

    #[test]
    fn releases_before_the_rule_refuse_nothing_and_before_short_names_only_names() {
        let root = RepoPath::root();
        let old = crate::profile::of("0.34.0");
        assert!(!has_blocked_segment(&p("node_modules/x"), &root, &old));
        let mut names_only = latest();
        names_only.blocked_short_names = false;
        assert!(has_blocked_segment(
            &p("node_modules/x"),
            &root,
            &names_only
        ));
        assert!(!has_blocked_segment(&p("node_m~1/x"), &root, &names_only));
        assert!(has_blocked_segment(&p("node_m~1/x"), &root, &latest()));
    }
}

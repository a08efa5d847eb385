//! The recorded observations of the real agents (`oracle/`, recorded by
//! `scripts/oracle/record.py`; no agent runs in a test): the cases of
//! `oracle/cases.toml`, where each observation is stored, and the listed
//! known disagreements of `oracle/known-disagreements/<agent>.toml`.

use crate::corpus::{extract, git, workspace};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Manifest {
    case: Vec<Case>,
}

/// One case of `oracle/cases.toml`: a repository (a fixture directory or a
/// corpus repository), a launch directory and an optional target, and the
/// agents recorded on it.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case id, also the observation's file name.
    pub id: String,
    /// The harness ids recorded on it (`claude-code`, `codex`, `opencode`).
    pub agents: Vec<String>,
    /// A fixture directory, workspace-relative.
    pub fixture: Option<String>,
    /// A corpus repository name (`<owner>__<name>`).
    pub corpus: Option<String>,
    /// A subdirectory of the fixture that is the repository: the fixture's
    /// own root and the directories between lie above the repository root
    /// (the recorder copies the whole fixture and runs the agent there; the
    /// adapter compiles with those directories as its `--outside-root`
    /// view, bounded at the fixture's root).
    pub repository: Option<String>,
    /// The cwd, repository-relative (`.` by default).
    #[serde(default = "dot")]
    pub cwd: String,
    /// The targetPath, if any.
    pub target: Option<String>,
    /// Codex trust entries (directory -> `trusted` / `untrusted`): the
    /// observation's `entries` run is recorded with exactly these, and is
    /// the one compared, with the adapter given the same entries.
    pub trust: Option<BTreeMap<String, String>>,
    /// Directories of the fixture made checked-out submodules (their own
    /// repository, registered in `.gitmodules`, a gitlink in the index,
    /// `.git` a file into the superproject's `.git/modules/`), as the
    /// recorder makes them; repository-relative.
    #[serde(default)]
    pub submodules: Vec<String>,
    /// A fixture home (workspace-relative, `oracle/homes/NAME`) whose files
    /// the recorder copies into the run's empty home before the agent
    /// starts (`@REPO@` in them standing for the repository's absolute
    /// path); the oracle test compiles the case in local mode with that
    /// home ([`home_copy`]).
    pub home: Option<String>,
    /// A managed fixture (workspace-relative, `oracle/managed/NAME`) laid
    /// out as the machine's root (`etc/gemini-cli/settings.json`): the
    /// recorder points the agent at its file through the variable the
    /// agent honours for that path, and the oracle test compiles the case
    /// with that directory standing for `/` (`--managed-root`).
    pub managed: Option<String>,
    /// The configuration profile the agent is started with (Codex: `codex
    /// --profile NAME`, which reads `$CODEX_HOME/NAME.config.toml` of the
    /// fixture home); the oracle test compiles with the same `--profile`.
    pub profile: Option<String>,
    /// The environment the agent is started with (`[case.env]`), each
    /// value's `@HOME@` standing for the fixture home and `@REPO@` for
    /// the repository copy: a variable the agent reads as configuration
    /// (`OPENCODE_CONFIG`, `COPILOT_CUSTOM_INSTRUCTIONS_DIRS`); the oracle
    /// test gives the adapter the same values.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// A document (workspace-relative, `oracle/wellknown/NAME.json`) the
    /// recorder serves at `/.well-known/opencode` of its loopback server,
    /// whose address stands for `@WELLKNOWN@` in the fixture home's files
    /// (an OpenCode sign-in of type `wellknown` in `auth.json`);
    /// [`home_copy`] puts [`WELLKNOWN_STAND_IN`] there.
    pub wellknown: Option<String>,
}

/// The address that stands for the recorder's loopback server in a
/// fixture home's files ([`Case::wellknown`]): the port differs from run
/// to run, the host name the adapter reports does not.
pub const WELLKNOWN_STAND_IN: &str = "http://127.0.0.1";

fn dot() -> String {
    ".".into()
}

/// Every case of `oracle/cases.toml`, in file order; panics when the file
/// does not parse.
pub fn cases() -> Vec<Case> {
    cases_in(&workspace().join("oracle/cases.toml"))
}

/// Every case of the manifest at `path` (the shape of `oracle/cases.toml`;
/// a fixture path may be absolute), in file order; panics when the file is
/// unreadable or does not parse.
pub fn cases_in(path: &std::path::Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} is unreadable: {e}", path.display()));
    let m: Manifest =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    m.case
}

/// `oracle/observations/<agent>/<version>/<case>.json`.
pub fn observation_path(agent: &str, version: &str, case: &str) -> PathBuf {
    observation_path_in(
        &workspace().join("oracle/observations"),
        agent,
        version,
        case,
    )
}

/// `<base>/<agent>/<version>/<case>.json`: an observation under another
/// observations directory than the workspace's (the fuzzer's).
pub fn observation_path_in(
    base: &std::path::Path,
    agent: &str,
    version: &str,
    case: &str,
) -> PathBuf {
    base.join(agent).join(version).join(format!("{case}.json"))
}

/// A listed disagreement (`oracle/known-disagreements/<agent>.toml`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Known {
    /// The case id.
    pub case: String,
    /// The aspect compared (`startup-files`, `skills`, ...).
    pub aspect: String,
    /// The agent versions it occurs with.
    pub versions: Vec<String>,
    /// What the agent showed, exactly as the oracle test prints it.
    pub agent: String,
    /// What the adapter says, exactly as the oracle test prints it.
    pub adapter: String,
    /// Why they differ.
    pub reason: String,
    /// What would remove the disagreement.
    pub fix: String,
}

/// One entry of `oracle/observed.toml`: what the agents were seen to do on
/// a question a group of cases asks, written for `docs/fidelity.md`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Observed {
    /// The question, as a heading.
    pub topic: String,
    /// The ids of the cases whose observations show it.
    pub cases: Vec<String>,
    /// What the agents did and what the analysis says, Markdown.
    pub text: String,
}

#[derive(Deserialize)]
struct ObservedFile {
    #[serde(default)]
    observed: Vec<Observed>,
}

/// The entries of `oracle/observed.toml` in file order (none when the file
/// is absent); panics when the file does not parse.
pub fn observed() -> Vec<Observed> {
    let path = workspace().join("oracle/observed.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let f: ObservedFile =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    f.observed
}

#[derive(Deserialize)]
struct KnownFile {
    #[serde(default)]
    disagreement: Vec<Known>,
}

/// The known disagreements listed for `agent` (none when the file is
/// absent); panics when the file does not parse.
pub fn known(agent: &str) -> Vec<Known> {
    let path = workspace()
        .join("oracle/known-disagreements")
        .join(format!("{agent}.toml"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let f: KnownFile =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    f.disagreement
}

/// The case's repository on disk: the fixture directory (its `repository`
/// subdirectory when the case names one), a copy of the fixture made a git
/// repository with its `submodules` (in a temporary directory kept in
/// `temps`), or the corpus
/// `repo.tar` extracted (symbolic links intact) into a temporary directory
/// kept in `temps`. `None` when the corpus is absent.
pub fn materialize(case: &Case, temps: &mut Vec<tempfile::TempDir>) -> Option<PathBuf> {
    if !case.submodules.is_empty() {
        return Some(with_submodules(case, temps));
    }
    if let Some(f) = &case.fixture {
        let dir = workspace().join(f);
        return Some(match &case.repository {
            Some(sub) => dir.join(sub),
            None => dir,
        });
    }
    let name = case
        .corpus
        .as_ref()
        .expect("a case names a fixture or a corpus");
    let root = workspace().join("../shared/corpus");
    let tar = root.is_dir().then_some(root)?.join(name).join("repo.tar");
    let dir = tempfile::tempdir().expect("temporary directory");
    extract(&tar, dir.path());
    let repo = dir.path().join("repo");
    temps.push(dir);
    Some(repo)
}

/// The case's fixture home as the recorder seeds it, for the repository at
/// `root`: a copy in a temporary directory kept in `temps`, with `@REPO@`
/// in its text files replaced by `root`'s canonical path (the agent ran on
/// a copy elsewhere, so a `projects` key or trust entry names this copy
/// instead), `@REPO_UPPER@` by that path in upper case, `@WELLKNOWN@` by
/// [`WELLKNOWN_STAND_IN`], and `@HOME@` by the copy's own path; a link whose target is `@REPO@` leads to `root` (an `installPath` of
/// Claude Code's `installed_plugins.json`). `None` for a case without a
/// home; panics when it is missing.
pub fn home_copy(
    case: &Case,
    root: &std::path::Path,
    temps: &mut Vec<tempfile::TempDir>,
) -> Option<PathBuf> {
    let home = workspace().join(case.home.as_ref()?);
    assert!(home.is_dir(), "{}: no home {}", case.id, home.display());
    let dir = crate::copy_to_temp(&home);
    let repo = std::fs::canonicalize(root).expect("case repository");
    let repo = repo.to_str().expect("a UTF-8 path");
    replace_in_files(dir.path(), "@REPO@", repo);
    replace_in_files(dir.path(), "@REPO_UPPER@", &repo.to_uppercase());
    replace_in_files(dir.path(), "@WELLKNOWN@", WELLKNOWN_STAND_IN);
    link_to_repo(dir.path(), std::path::Path::new(repo));
    let own = dir.path().to_str().expect("a UTF-8 path").to_string();
    replace_in_files(dir.path(), "@HOME@", &own);
    let path = dir.path().to_path_buf();
    temps.push(dir);
    Some(path)
}

/// Makes every symbolic link below `dir` whose target is `@REPO@` lead to
/// `repo`, as the recorder does.
fn link_to_repo(dir: &std::path::Path, repo: &std::path::Path) {
    for entry in std::fs::read_dir(dir).expect("list home") {
        let entry = entry.expect("directory entry");
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            link_to_repo(&entry.path(), repo);
        } else if kind.is_symlink()
            && std::fs::read_link(entry.path()).is_ok_and(|t| t.as_os_str() == "@REPO@")
        {
            std::fs::remove_file(entry.path()).expect("remove link");
            #[cfg(unix)]
            std::os::unix::fs::symlink(repo, entry.path()).expect("link");
        }
    }
}

/// Replaces `from` by `to` in every UTF-8 text file below `dir` (links
/// left alone).
fn replace_in_files(dir: &std::path::Path, from: &str, to: &str) {
    for entry in std::fs::read_dir(dir).expect("list home") {
        let entry = entry.expect("directory entry");
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            replace_in_files(&entry.path(), from, to);
        } else if kind.is_file() {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                if text.contains(from) {
                    std::fs::write(entry.path(), text.replace(from, to)).expect("write");
                }
            }
        }
    }
}

/// A copy of the case's fixture in a temporary directory kept in `temps`,
/// made a git repository whose `submodules` are checked-out submodules, as
/// `scripts/oracle/record.py` makes it for the agent (`make_submodule`).
/// Panics when a submodule directory is missing or git fails.
fn with_submodules(case: &Case, temps: &mut Vec<tempfile::TempDir>) -> PathBuf {
    let fixture = case
        .fixture
        .as_ref()
        .expect("a case with submodules names a fixture");
    assert!(
        case.repository.is_none(),
        "{}: submodules and repository",
        case.id
    );
    let dir = crate::copy_to_temp(&workspace().join(fixture));
    let root = dir.path().to_path_buf();
    git(&root, &["init", "-q", "-b", "main"]);
    for sub in &case.submodules {
        let path = root.join(sub);
        assert!(path.is_dir(), "{}: no submodule directory {sub}", case.id);
        git(&path, &["init", "-q", "-b", "main"]);
        commit_all(&path);
        let url = format!("./{sub}");
        git(
            &root,
            &[
                "-c",
                "protocol.file.allow=always",
                "submodule",
                "add",
                "-q",
                &url,
                sub,
            ],
        );
        git(&root, &["submodule", "absorbgitdirs"]);
    }
    commit_all(&root);
    temps.push(dir);
    root
}

fn commit_all(repo: &std::path::Path) {
    git(repo, &["add", "-A", "-f"]);
    git(repo, &["commit", "-q", "--allow-empty", "-m", "case"]);
}

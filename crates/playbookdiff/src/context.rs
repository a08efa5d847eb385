//! Turning [`ContextArgs`] into a validated [`AnalysisContext`] and an
//! opened [`WorkingTree`].
//!
//! Every check happens here, before the tree is walked: a refused command
//! reads nothing from the repository. Errors are one line naming the option
//! and what to do.

use crate::cli::{ContextArgs, ModeArg};
use playbookdiff_model::{AnalysisContext, Harness, Mode, RepoPath};
use playbookdiff_registry::Inputs;
use playbookdiff_render::Via;
use playbookdiff_source::{
    Ancestors, EntryKind, GitError, GitRepository, GitView, Machine, Repo, RepoOptions, SourceTree,
    Visibility, WalkScope, WorkingTree,
};
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// A command the user must correct: one line, naming the option at fault
/// and what to do. Printed after `error: `; the exit status is 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A repository opened for analysis under a validated context.
pub(crate) struct OpenedContext {
    /// The repository, not yet walked: the working tree, or the commit
    /// named by `--rev`.
    pub tree: Box<dyn SourceTree + Send>,
    /// The validated context; paths are relative to the repository root.
    pub context: AnalysisContext,
    /// How to name the repository to the user: REPO as given, or the
    /// discovered root relative to the current directory (`.` when equal).
    pub repository_label: String,
    /// `--cwd` and `--target` as given, when they lead elsewhere through a
    /// symbolic link.
    pub via: Via,
    /// The repository root on disk, where the project configuration file
    /// is looked for (with `--rev` too: the working tree's file applies to
    /// every revision analysed).
    pub root: PathBuf,
    /// With `--outside-root` (local mode, a working tree): the directories
    /// above the root, which an adapter may read (Claude Code does).
    pub outside: Option<Ancestors>,
    /// In local mode: where the user's and the machine's configuration
    /// lies ([`machine_for`]), which the adapters read.
    pub machine: Option<Machine>,
}

impl fmt::Debug for OpenedContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedContext")
            .field("context", &self.context)
            .field("repository_label", &self.repository_label)
            .field("via", &self.via)
            .finish_non_exhaustive()
    }
}

impl OpenedContext {
    /// `base` with what this context lets the adapters read besides the
    /// repository: the directories above its root (`--outside-root`) and,
    /// in local mode, the user's and the machine's configuration.
    pub(crate) fn inputs<'a>(&'a self, base: Inputs<'a>) -> Inputs<'a> {
        Inputs {
            outside_root: self.outside.as_ref(),
            machine: self.machine.as_ref(),
            ..base
        }
    }

    /// The repository as the context's mode sees it, read by the adapters
    /// of `harnesses`.
    ///
    /// Repo mode in a git work tree shows what git would commit: tracked
    /// files and untracked files no ignore rule matches (the adapters'
    /// personal files stay visible, so that they are reported as
    /// unavailable). Local mode, and a directory that is not a git work
    /// tree, show every entry. `whole` walks the whole tree
    /// (`check --all-dirs`); otherwise what the launch directory needs: the
    /// chain from the root to it, the adapters' configuration directories
    /// on that chain, and its subtree, with the names several adapters look
    /// up below it answered in one pass ([`Repo::prefetch_named_under`]).
    /// Entries matching `excludes` (`.gitignore` patterns relative to the
    /// repository root, from `playbookdiff.toml`) are never analysed.
    pub(crate) fn repo(&self, harnesses: &[Harness], whole: bool, excludes: &[String]) -> Repo<'_> {
        let mut entry_names: Vec<String> = Vec::new();
        let mut lookups: Vec<&str> = Vec::new();
        let mut personal: Vec<&str> = Vec::new();
        for a in harnesses
            .iter()
            .filter_map(|h| playbookdiff_registry::adapter(*h))
        {
            entry_names.extend(a.config_entry_names().iter().map(|n| n.to_string()));
            lookups.extend_from_slice(a.config_entry_names());
            lookups.extend_from_slice(a.indexed_names());
            personal.extend_from_slice(a.personal_paths());
        }
        let root = self.tree.absolute_root().filter(|_| !self.tree.is_commit());
        let visibility = match (root, self.context.mode) {
            // A commit (`--rev`) holds only what was committed.
            (None, _) => Visibility::Committed,
            (Some(_), Mode::Local) => Visibility::WorkingTree,
            (Some(root), Mode::Repo) => GitView::open(root, &personal)
                .map_or(Visibility::WorkingTree, |g| Visibility::Git(Box::new(g))),
        };
        let scope = if whole {
            WalkScope::Whole
        } else {
            WalkScope::Launch {
                cwd: self.context.cwd.clone(),
                entry_names,
            }
        };
        let repo = Repo::with_options(
            &self.tree,
            RepoOptions {
                visibility,
                excludes: excludes.to_vec(),
                scope,
            },
        );
        // Every name the adapters look up below the launch directory,
        // answered in one pass over its subtree instead of one pass per
        // adapter (`check --all-dirs` does the same at the root for every
        // launch directory). One adapter alone makes its own one pass.
        if !whole && harnesses.len() > 1 {
            repo.prefetch_named_under(&lookups, &self.context.cwd);
        }
        repo
    }
}

/// Where local mode reads the user's and the machine's configuration.
///
/// The home is `--home` when given (an existing directory, else a usage
/// error), else the environment's `HOME` when it names a directory
/// (`None` otherwise: the adapters then say that no user layer could be
/// read). Without `--home`, each variable a registered adapter declares
/// ([`playbookdiff_registry::Adapter::home_variables`]: `CLAUDE_CONFIG_DIR`,
/// `CODEX_HOME`, `XDG_CONFIG_HOME`, `XDG_DATA_HOME`) is read from `env` and, when set and
/// not empty, moves that harness's directory, as it moves the agent's
/// (relative to `current_dir` when relative); with `--home` they are not
/// read, so that the home given is analysed alone. The managed
/// configuration is read below `--managed-root` (default `/`). `env` is
/// the process environment; values are used to find directories only,
/// never to expand a file's `${VAR}`.
pub(crate) fn machine_for(
    args: &ContextArgs,
    current_dir: Option<&Path>,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<Machine, UsageError> {
    let given_dir = |option: &str, dir: &Path| {
        let abs = current_dir.map_or_else(|| dir.to_path_buf(), |c| c.join(dir));
        match std::fs::canonicalize(&abs) {
            Ok(real) if real.is_dir() => Ok(real),
            _ => Err(UsageError(format!(
                "{option} '{}' is not a directory; pass an existing directory",
                dir.display()
            ))),
        }
    };
    let root = match &args.managed_root {
        Some(dir) => given_dir("--managed-root", dir)?,
        None => PathBuf::from("/"),
    };
    let profiled = |m: Machine| match &args.profile {
        Some(name) => m.with_profile(name),
        None => m,
    };
    if let Some(dir) = &args.home {
        let home = given_dir("--home", dir)?;
        return Ok(profiled(Machine::new(Some(home)).with_root(root)));
    }
    let absolute = |v: std::ffi::OsString| {
        let p = PathBuf::from(v);
        match current_dir {
            Some(c) if p.is_relative() => c.join(p),
            _ => p,
        }
    };
    let home = env("HOME")
        .filter(|v| !v.is_empty())
        .map(absolute)
        .filter(|p| p.is_dir());
    let mut machine = Machine::new(home).with_root(root);
    for name in playbookdiff_registry::ADAPTERS
        .iter()
        .flat_map(|a| a.home_variables())
    {
        if let Some(v) = env(name).filter(|v| !v.is_empty()) {
            machine = machine.with_var(name, absolute(v));
        }
    }
    for &var in playbookdiff_registry::ADAPTERS
        .iter()
        .flat_map(|a| a.environment())
    {
        // A value that is not UTF-8 is left out: the agents, written in
        // JavaScript, would not read it as written either.
        if let Some(v) = env(var.name()).filter(|v| !v.is_empty()) {
            if let Some(v) = v.to_str() {
                machine = var.give(machine, v, &|p| absolute(p.into()));
            }
        }
    }
    Ok(profiled(machine))
}

/// Leaves `value` to the operating system instead of dropping it: the
/// command's result is computed and the process exits right after, so
/// freeing a walk's listings one allocation at a time (a quarter of the
/// instructions of `diff` on the 100,000-file tree of
/// `docs/performance.md`) buys nothing. Only for values built once per
/// command.
pub(crate) fn release_at_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Validates `args` and opens the repository.
///
/// `current_dir` is the directory the command was run from (`None` when it
/// cannot be determined); it is where a relative REPO starts and where the
/// default REPO is searched for. A `--trust DIR=LEVEL` entry must name a
/// directory of the analysed tree (the working tree, or the commit of
/// `--rev`): a misspelt one would change nothing and say nothing.
pub(crate) fn open_context(
    args: &ContextArgs,
    current_dir: Option<&Path>,
) -> Result<OpenedContext, UsageError> {
    let opened = open_tree(args, current_dir)?;
    for entry in args.agent.trust.iter().flat_map(|t| t.0.iter()) {
        let kind = opened.tree.stat(&entry.dir).map(|s| s.kind);
        if !entry.dir.is_root() && !matches!(kind, Ok(EntryKind::Dir | EntryKind::Symlink)) {
            return Err(UsageError(format!(
                "--trust: `{}` is not a directory of the repository; give DIR relative to REPO, e.g. apps/api=trusted",
                entry.dir
            )));
        }
    }
    Ok(opened)
}

/// [`open_context`] but the check of the trust entries.
fn open_tree(args: &ContextArgs, current_dir: Option<&Path>) -> Result<OpenedContext, UsageError> {
    // Checks that need no file system come first.
    if let Some(repo) = &args.repo {
        if repo.as_os_str().to_string_lossy().trim().is_empty() {
            return Err(UsageError(
                "REPO is empty; pass a repository directory, or omit REPO to use the repository of the current directory".into(),
            ));
        }
    }
    if args.outside_root && args.rev.is_some() {
        return Err(UsageError(
            "--outside-root reads the directories above a working tree, and a commit (--rev) has none; drop --outside-root or --rev".into(),
        ));
    }
    if args.outside_root && args.mode != ModeArg::Local {
        return Err(UsageError(
            "--outside-root reads personal files above the repository, which repo mode never reads; add --mode local or drop --outside-root".into(),
        ));
    }
    if let Some(name) = &args.profile {
        if !playbookdiff_source::is_profile_name(name) {
            return Err(UsageError(format!(
                "--profile '{name}' is not a profile name; pass the NAME of $CODEX_HOME/NAME.config.toml (letters, digits, -, _ and .)"
            )));
        }
    }
    for (option, given) in [
        ("--home", args.home.is_some()),
        ("--managed-root", args.managed_root.is_some()),
        ("--profile", args.profile.is_some()),
    ] {
        if given && args.mode != ModeArg::Local {
            return Err(UsageError(format!(
                "{option} is about the user's own configuration, which repo mode never reads; add --mode local or drop {option}"
            )));
        }
    }
    for (option, value) in [("--cwd", &args.cwd), ("--target", &args.target)] {
        if let Some(v) = value {
            if v.trim().is_empty() {
                return Err(UsageError(format!(
                    "{option} is empty; pass a path inside the repository (relative, or absolute), or omit {option}"
                )));
            }
        }
    }

    // The repository, and where the user stands in it.
    let (repo_path, repository_label, launch) = locate(args, current_dir)?;
    check_repository(&repo_path, &repository_label)?;
    if let Some(rev) = &args.rev {
        return open_revision(args, rev, &repo_path, repository_label, &launch);
    }
    if is_bare_repository(&repo_path) {
        return Err(UsageError(format!(
            "REPO '{repository_label}' is a bare git repository: it has commits but no working tree to analyse; add --rev HEAD (or another revision) to analyse a commit"
        )));
    }
    let tree = WorkingTree::open(&repo_path).map_err(|e| {
        UsageError(format!(
            "REPO '{repository_label}' cannot be opened ({e}); pass a readable repository directory"
        ))
    })?;
    let root = tree
        .absolute_root()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| repo_path.clone());
    let roots = [root.clone(), lexical_normalize(&repo_path)];

    // The launch directory: an existing directory inside the repository,
    // where it really is (an agent launched through a symbolic link runs
    // in the directory the link leads to).
    let mut via = Via {
        root: args.root,
        machine: [&args.home, &args.managed_root]
            .map(|d| d.as_ref().map(|d| d.display().to_string())),
        ..Via::default()
    };
    let cwd = match launch.cwd(args) {
        None => RepoPath::root(),
        Some((raw, base)) => {
            let rel = inside_repository("--cwd", &raw, base.as_deref(), &roots)?;
            let abs = root.join(rel.as_str());
            if !abs.is_dir() {
                return Err(UsageError(format!(
                    "--cwd '{raw}' is not an existing directory in REPO; pass a directory inside the repository"
                )));
            }
            let real = real_path("--cwd", &raw, &root, &rel, true)?;
            if real != rel {
                via.cwd = Some(rel.to_string());
            }
            real
        }
    };

    if args.mode == ModeArg::Repo {
        refuse_submodule_cwd(&root, &cwd, &repository_label)?;
    }

    // The target: inside the repository; it need not exist yet. A relative
    // one starts where a relative `--cwd` does (the current directory
    // without REPO, else REPO), as the output contract says; its
    // directories are resolved like the launch directory.
    let target_path = match &args.target {
        None => None,
        Some(raw) => {
            let rel = inside_repository("--target", raw, launch.base.as_deref(), &roots)?;
            let abs = root.join(rel.as_str());
            let real = real_path("--target", raw, &root, &rel, abs.is_dir())?;
            if real != rel {
                via.target = Some(rel.to_string());
            }
            Some(real)
        }
    };

    let machine = match args.mode {
        ModeArg::Local => Some(machine_for(args, current_dir, &|name| {
            std::env::var_os(name)
        })?),
        ModeArg::Repo => None,
    };
    Ok(OpenedContext {
        outside: args.outside_root.then(|| Ancestors::of(&root)),
        machine,
        root: root.clone(),
        tree: Box::new(tree),
        context: AnalysisContext {
            repository_root: RepoPath::root(),
            cwd,
            target_path,
            mode: args.mode.into(),
        },
        repository_label,
        via,
    })
}

/// Refuses, in repo mode, a launch directory inside a checked-out
/// submodule of the work tree at `root` (a directory the index records as
/// a gitlink): repo mode does not read the submodule's files, and launched
/// there Codex and OpenCode take the submodule as the project root and
/// Claude Code lists only its skills (`docs/fidelity.md`, "a checked-out
/// submodule"), so the answer is to analyse the submodule as a repository
/// of its own, which the error's one line suggests.
fn refuse_submodule_cwd(root: &Path, cwd: &RepoPath, label: &str) -> Result<(), UsageError> {
    if cwd.is_root() {
        return Ok(());
    }
    let Some(sub) = GitView::open(root, &[]).and_then(|g| g.submodule_holding(cwd)) else {
        return Ok(());
    };
    let repo = if label == "." {
        sub.to_string()
    } else {
        format!("{}/{sub}", label.trim_end_matches('/'))
    };
    let mut suggestion = format!(
        "playbookdiff {} --root",
        playbookdiff_render::report::shell_path(&repo)
    );
    if let Some(rest) = cwd.strip_prefix(&sub).filter(|r| !r.is_empty()) {
        suggestion.push_str(&format!(
            " --cwd {}",
            playbookdiff_render::report::shell_path(rest)
        ));
    }
    Err(UsageError(format!(
        "--cwd '{cwd}' lies in the submodule '{sub}', another repository whose files repo mode does not read (the agents launched there take it as the project root); analyse it on its own: {suggestion}"
    )))
}

/// Where the launch directory is when `--cwd` is absent, and where a
/// relative `--cwd` or `--target` starts (absolute, resolved directories;
/// `None`: the repository root).
#[derive(Debug, Default)]
struct Launch {
    /// The directory a relative `--cwd` or `--target` starts from.
    base: Option<PathBuf>,
    /// The launch directory without `--cwd`.
    default: Option<PathBuf>,
}

impl Launch {
    /// `--cwd` as given with the directory it starts from, else the
    /// default launch directory (absolute), else `None` (the root).
    fn cwd(&self, args: &ContextArgs) -> Option<(String, Option<PathBuf>)> {
        match &args.cwd {
            Some(raw) => Some((raw.clone(), self.base.clone())),
            None => self
                .default
                .as_ref()
                .map(|d| (d.to_string_lossy().into_owned(), None)),
        }
    }
}

/// The repository root, how to name it, and where the user stands in it.
///
/// * No REPO: the nearest ancestor of the current directory holding
///   `.git` (the current directory itself with `--root`); the current
///   directory is the launch directory and a relative `--cwd` starts there,
///   as `claude` or `codex` started there would see it.
/// * REPO inside a larger git work tree (REPO holds no `.git`, an ancestor
///   does), without `--root`: the work tree is the repository and REPO the
///   launch directory within it, with a one-line note on standard error; a
///   relative `--cwd` starts at REPO.
/// * Otherwise REPO is the root and the launch directory, and a relative
///   `--cwd` starts at REPO.
fn locate(
    args: &ContextArgs,
    current_dir: Option<&Path>,
) -> Result<(PathBuf, String, Launch), UsageError> {
    let Some(given) = &args.repo else {
        let Some(here) = current_dir else {
            return Err(UsageError(
                "REPO: the current directory cannot be determined; pass REPO explicitly".into(),
            ));
        };
        let root = if args.root {
            here.to_path_buf()
        } else {
            find_repository_root(here)
        };
        let label = relative_label(here, &root);
        let real_here = std::fs::canonicalize(here).unwrap_or_else(|_| here.to_path_buf());
        let launch = Launch {
            default: (root != here).then(|| real_here.clone()),
            base: Some(real_here),
        };
        return Ok((root, label, launch));
    };
    let path =
        match current_dir {
            Some(here) => here.join(given),
            None if given.is_absolute() => given.clone(),
            None => return Err(UsageError(
                "REPO: the current directory cannot be determined; pass REPO as an absolute path"
                    .into(),
            )),
        };
    let label = given.display().to_string();
    if args.root {
        return Ok((path, label, Launch::default()));
    }
    let Some((work_tree, real)) = enclosing_work_tree(&path) else {
        return Ok((path, label, Launch::default()));
    };
    let depth = real
        .strip_prefix(&work_tree)
        .map_or(0, |p| p.components().count());
    let work_tree_label = ancestor_label(given, depth, current_dir, &work_tree);
    let inside = real
        .strip_prefix(&work_tree)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::note(&format!(
        "note: REPO '{label}' is inside the git work tree '{work_tree_label}': analysed as --cwd {} there (--root: REPO as the root)",
        playbookdiff_render::report::shell_path(&inside)
    ));
    let launch = Launch {
        base: Some(real.clone()),
        default: Some(real),
    };
    Ok((work_tree, work_tree_label, launch))
}

/// When `path` holds no `.git` entry and one of its ancestors (where it
/// really is, links resolved) does: that ancestor, the work tree REPO lies
/// in, and `path` resolved.
fn enclosing_work_tree(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let real = std::fs::canonicalize(path).ok()?;
    if !real.is_dir() || std::fs::symlink_metadata(real.join(".git")).is_ok() {
        return None;
    }
    let root = real
        .ancestors()
        .skip(1)
        .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())?;
    Some((root.to_path_buf(), real.clone()))
}

/// How to name the ancestor `depth` levels above REPO `given`: relative to
/// the current directory when it lies inside that ancestor (`.`, `..`),
/// else `given` with `depth` components taken off when it has them, else
/// the ancestor's absolute path.
fn ancestor_label(given: &Path, depth: usize, here: Option<&Path>, ancestor: &Path) -> String {
    if let Some(here) = here {
        let real_here = std::fs::canonicalize(here).unwrap_or_else(|_| here.to_path_buf());
        if real_here.starts_with(ancestor) {
            return relative_label(&real_here, ancestor);
        }
    }
    let normalized = lexical_normalize(given);
    let parts: Vec<Component<'_>> = normalized.components().collect();
    let plain = parts
        .iter()
        .rev()
        .take(depth)
        .all(|c| matches!(c, Component::Normal(_)));
    if plain && parts.len() > depth {
        let up: PathBuf = parts[..parts.len() - depth].iter().collect();
        return up.display().to_string();
    }
    if plain && parts.len() == depth {
        return ".".to_string();
    }
    ancestor.display().to_string()
}

/// Opens commit `rev` of the git repository at `repo_path` and validates
/// `--cwd` and `--target` as paths of that commit (links resolved from the
/// commit's own tree entries, not from the working tree).
fn open_revision(
    args: &ContextArgs,
    rev: &str,
    repo_path: &Path,
    label: String,
    launch: &Launch,
) -> Result<OpenedContext, UsageError> {
    if args.mode == ModeArg::Local {
        return Err(UsageError(
            "--mode local reads personal files of the working tree, which a commit does not hold; drop --mode local or --rev".into(),
        ));
    }
    let git = GitRepository::open(repo_path).map_err(|e| match e {
        GitError::NotARepository => UsageError(format!(
            "REPO '{label}' is not a git repository (no .git at its root), so --rev has no commit to read; pass the root of a git repository, or drop --rev to analyse the directory as it is"
        )),
        e => UsageError(format!("REPO '{label}': {e}")),
    })?;
    let commit = git
        .commit(rev)
        .map_err(|e| UsageError(format!("--rev: {e}")))?;
    let tree = git
        .tree(&commit)
        .map_err(|e| UsageError(format!("--rev '{}': {e}", rev.escape_debug())))?;
    let roots = [
        std::fs::canonicalize(repo_path).unwrap_or_else(|_| repo_path.to_path_buf()),
        lexical_normalize(repo_path),
    ];
    let mut via = Via {
        root: args.root,
        ..Via::default()
    };
    let cwd = match launch.cwd(args) {
        None => RepoPath::root(),
        Some((raw, base)) => {
            let raw = raw.as_str();
            let rel = lexically_inside("--cwd", raw, base.as_deref(), &roots)?;
            let real = resolve_in_tree(&tree, &rel, true).ok_or_else(|| {
                UsageError(format!(
                    "--cwd '{raw}' leads outside REPO through a symbolic link of commit {}; pass a path inside the repository",
                    commit.short()
                ))
            })?;
            if !matches!(tree.stat(&real), Ok(s) if s.kind == EntryKind::Dir) {
                return Err(UsageError(format!(
                    "--cwd '{raw}' is not a directory in commit {} ({rev}); pass a directory of that commit",
                    commit.short()
                )));
            }
            if real != rel {
                via.cwd = Some(rel.to_string());
            }
            real
        }
    };
    let target_path = match &args.target {
        None => None,
        Some(raw) => {
            let rel = lexically_inside("--target", raw, launch.base.as_deref(), &roots)?;
            let is_dir = matches!(resolve_in_tree(&tree, &rel, true), Some(p) if matches!(tree.stat(&p), Ok(s) if s.kind == EntryKind::Dir));
            let real = resolve_in_tree(&tree, &rel, is_dir).ok_or_else(|| {
                UsageError(format!(
                    "--target '{raw}' leads outside REPO through a symbolic link of commit {}; pass a path inside the repository",
                    commit.short()
                ))
            })?;
            if real != rel {
                via.target = Some(rel.to_string());
            }
            Some(real)
        }
    };
    via.revision = Some((rev.to_string(), commit.short()));
    Ok(OpenedContext {
        outside: None,
        machine: None,
        root: repo_path.to_path_buf(),
        repository_label: label,
        tree: Box::new(tree),
        context: AnalysisContext {
            repository_root: RepoPath::root(),
            cwd,
            target_path,
            mode: args.mode.into(),
        },
        via,
    })
}

/// Where `path` really is in `tree`: its symbolic links followed (`whole`:
/// the path itself too, else its directories only), from the tree's own
/// link entries. The part that does not exist is kept as given. `None`
/// when a link leads out of the repository or links loop.
pub(crate) fn resolve_in_tree(
    tree: &dyn SourceTree,
    path: &RepoPath,
    whole: bool,
) -> Option<RepoPath> {
    let mut parts: std::collections::VecDeque<String> =
        path.components().map(str::to_string).collect();
    let keep_last = if whole { None } else { parts.pop_back() };
    let mut cur = RepoPath::root();
    let mut hops = 0u32;
    while let Some(c) = parts.pop_front() {
        if c.is_empty() || c == "." {
            continue;
        }
        if c == ".." {
            cur = cur.parent()?;
            continue;
        }
        let cand = cur.join(&c)?;
        match tree.stat(&cand) {
            Ok(s) if s.kind == EntryKind::Symlink => {
                hops += 1;
                if hops > 40 {
                    return None;
                }
                let target = tree.read_link(&cand).ok()?;
                let rest: Vec<String> = if let Some(abs) = target.strip_prefix('/') {
                    let root = tree.absolute_root()?;
                    let rel = Path::new("/").join(abs);
                    let rel = rel.strip_prefix(root).ok()?;
                    cur = RepoPath::root();
                    rel.components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect()
                } else {
                    target.split('/').map(str::to_string).collect()
                };
                for r in rest.into_iter().rev() {
                    parts.push_front(r);
                }
            }
            Ok(_) => cur = cand,
            Err(_) => {
                let mut tail: Vec<String> = vec![c];
                tail.extend(parts.drain(..));
                for t in tail {
                    cur = cur.join(&t)?;
                }
            }
        }
    }
    match keep_last {
        Some(last) => cur.join(&last),
        None => Some(cur),
    }
}

/// Where `rel` really is inside the repository at `root` (a resolved
/// absolute directory): its symbolic links resolved, `whole` for the path
/// itself, else for its directories only (a file name is kept as given).
/// Only the part that exists is resolved; the rest is kept. A link that
/// leads out of the repository is refused.
fn real_path(
    option: &str,
    raw: &str,
    root: &Path,
    rel: &RepoPath,
    whole: bool,
) -> Result<RepoPath, UsageError> {
    if rel.is_root() {
        return Ok(RepoPath::root());
    }
    let parts: Vec<&str> = rel.components().collect();
    let resolvable = if whole { parts.len() } else { parts.len() - 1 };
    for k in (0..=resolvable).rev() {
        let prefix = parts[..k].iter().fold(root.to_path_buf(), |p, c| p.join(c));
        let Ok(real) = std::fs::canonicalize(&prefix) else {
            continue;
        };
        let Ok(inside) = real.strip_prefix(root) else {
            return Err(UsageError(format!(
                "{option} '{raw}' leads outside REPO through a symbolic link; pass a path inside the repository"
            )));
        };
        let mut posix: Vec<String> = inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        posix.extend(parts[k..].iter().map(|s| s.to_string()));
        if posix.is_empty() {
            return Ok(RepoPath::root());
        }
        return RepoPath::new(&posix.join("/")).ok_or_else(|| {
            UsageError(format!(
                "{option} '{raw}' cannot be resolved inside REPO; pass a path inside the repository"
            ))
        });
    }
    Ok(rel.clone())
}

/// The nearest ancestor of `start` (itself included) that holds a `.git`
/// entry (a directory, or the file of a linked worktree or submodule), else
/// `start`. Git itself is not run.
pub(crate) fn find_repository_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
        .unwrap_or(start)
        .to_path_buf()
}

/// Refuses a REPO that does not exist, is not a directory or cannot be
/// listed.
fn check_repository(path: &Path, label: &str) -> Result<(), UsageError> {
    let metadata = std::fs::metadata(path).map_err(|e| {
        // `playbookdiff check help`: the word is read as REPO.
        let help = if label == "help" {
            " (for help, add --help to the command)"
        } else {
            ""
        };
        UsageError(format!(
            "REPO '{label}' cannot be opened ({}); pass an existing repository directory{help}",
            io_reason(&e)
        ))
    })?;
    if !metadata.is_dir() {
        return Err(UsageError(format!(
            "REPO '{label}' is not a directory; pass the repository's root directory"
        )));
    }
    std::fs::read_dir(path).map_err(|e| {
        UsageError(format!(
            "REPO '{label}' cannot be read ({}); pass a readable repository directory",
            io_reason(&e)
        ))
    })?;
    Ok(())
}

/// True when `path` is the directory of a bare git repository (its
/// `HEAD`, `objects` and `refs` at the top, no `.git`): there are no
/// working-tree files to read, only commits (`--rev`).
fn is_bare_repository(path: &Path) -> bool {
    std::fs::symlink_metadata(path.join(".git")).is_err()
        && path.join("HEAD").is_file()
        && path.join("objects").is_dir()
        && path.join("refs").is_dir()
}

/// The operating system's words without the error number.
fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// `raw` (relative to the repository root, or absolute) as a repository
/// path, refusing anything outside the repository, lexically or through a
/// symbolic link. `roots` are the repository root as resolved by the file
/// system and as given.
fn inside_repository(
    option: &str,
    raw: &str,
    base: Option<&Path>,
    roots: &[PathBuf],
) -> Result<RepoPath, UsageError> {
    let rel = lexically_inside(option, raw, base, roots)?;
    // A path inside the repository that is (or passes through) a symbolic
    // link leading out of it is outside too.
    let abs = roots[0].join(rel.as_str());
    if let Ok(real) = std::fs::canonicalize(&abs) {
        if !real.starts_with(&roots[0]) {
            return Err(UsageError(format!(
                "{option} '{raw}' leads outside REPO through a symbolic link; pass a path inside the repository"
            )));
        }
    }
    Ok(rel)
}

/// `raw` (relative to `base`, an absolute directory, when given, else to
/// the repository root; or absolute) as a repository path, refusing what
/// lies outside the repository lexically.
fn lexically_inside(
    option: &str,
    raw: &str,
    base: Option<&Path>,
    roots: &[PathBuf],
) -> Result<RepoPath, UsageError> {
    let outside = || {
        UsageError(format!(
            "{option} '{raw}' is outside REPO; pass a path inside the repository (relative, or absolute inside it)"
        ))
    };
    let joined = base.map(|b| b.join(raw));
    let given = joined.as_deref().unwrap_or(Path::new(raw));
    let rel = if given.is_absolute() {
        let normalized = lexical_normalize(given);
        let stripped = roots
            .iter()
            .find_map(|root| normalized.strip_prefix(root).ok().map(Path::to_path_buf))
            .or_else(|| {
                // The path may name the repository through another route
                // (a symbolic link to it); compare where it really is.
                let real = std::fs::canonicalize(&normalized).ok()?;
                real.strip_prefix(&roots[0]).ok().map(Path::to_path_buf)
            })
            .ok_or_else(outside)?;
        let posix: Vec<String> = stripped
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        RepoPath::new(&posix.join("/")).ok_or_else(outside)?
    } else {
        RepoPath::new(raw).ok_or_else(outside)?
    };
    Ok(rel)
}

/// Removes `.` components and applies `..` lexically.
fn lexical_normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// How to show `root` to a user standing in `here`: `.`, `..`, `../..`…
/// when `root` is an ancestor, else `root` itself.
pub(crate) fn relative_label(here: &Path, root: &Path) -> String {
    match here.strip_prefix(root) {
        Ok(below) => {
            let depth = below.components().count();
            if depth == 0 {
                ".".to_string()
            } else {
                vec![".."; depth].join("/")
            }
        }
        Err(_) => root.display().to_string(),
    }
}

/// How many entries (files, directories, links) a directory that holds no
/// `.git` may hold below it before `check --all-dirs` warns that it walks
/// them all: well above a project's configuration tree, far below a home
/// directory or `/` (about two thousand launch directories and 1.5 GB of
/// memory from `/` on a developer machine).
pub(crate) const LARGE_WALK_ENTRIES: usize = 10_000;

/// True when the tree below `root` holds more than `limit` entries,
/// counted breadth first without following links; stops reading as soon
/// as it knows (at most `limit + 1` entries are read). An unreadable
/// directory counts as empty.
pub(crate) fn holds_more_entries_than(root: &Path, limit: usize) -> bool {
    let mut seen = 0usize;
    let mut queue = std::collections::VecDeque::from([root.to_path_buf()]);
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > limit {
                return true;
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                queue.push_back(e.path());
            }
        }
    }
    false
}

/// The warning `check --all-dirs` writes (one line, on standard error)
/// before it walks a working tree whose root holds no `.git` and more than
/// [`LARGE_WALK_ENTRIES`] entries (`cd / && playbookdiff check
/// --all-dirs`): such a root is read whole, ignored files included, as one
/// repository, which takes long; the user most likely meant a repository
/// below it. `None` for a git work tree, a commit (`--rev`) or a small
/// tree. It warns and goes on: a directory outside git is a valid input.
pub(crate) fn large_walk_warning(opened: &OpenedContext) -> Option<String> {
    let root = opened.tree.absolute_root()?;
    if opened.tree.is_commit()
        || opened.tree.has_git_marker()
        || !holds_more_entries_than(root, LARGE_WALK_ENTRIES)
    {
        return None;
    }
    Some(format!(
        "warning: '{}' holds no .git and more than {} entries: check --all-dirs reads every directory below it, ignored ones included, which can take long; pass a repository's root as REPO, or leave directories out with `exclude` in playbookdiff.toml",
        root.display().to_string().escape_debug(),
        LARGE_WALK_ENTRIES
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::ModeArg;
    use playbookdiff_model::Mode;

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("apps/api")).unwrap();
        std::fs::write(dir.path().join("apps/api/main.ts"), "").unwrap();
        dir
    }

    fn args(repo: &Path) -> ContextArgs {
        ContextArgs {
            repo: Some(repo.to_path_buf()),
            ..ContextArgs::default()
        }
    }

    #[test]
    fn defaults_to_the_root_in_repo_mode() {
        let dir = repo();
        let opened = open_context(&args(dir.path()), None).unwrap();
        assert_eq!(opened.context, AnalysisContext::at_root());
    }

    #[test]
    fn relative_and_absolute_paths_inside() {
        let dir = repo();
        let mut a = args(dir.path());
        a.cwd = Some("apps/./api/".into());
        a.target = Some(dir.path().join("apps/api/new.ts").display().to_string());
        a.mode = ModeArg::Local;
        let ctx = open_context(&a, None).unwrap().context;
        assert_eq!(ctx.cwd.as_str(), "apps/api");
        assert_eq!(ctx.target_path.unwrap().as_str(), "apps/api/new.ts");
        assert_eq!(ctx.mode, Mode::Local);
    }

    #[test]
    fn refusals_name_the_option() {
        let dir = repo();
        let other = tempfile::tempdir().unwrap();
        let cases: Vec<(Option<&str>, Option<String>, &str)> = vec![
            (Some(""), None, "--cwd is empty"),
            (None, Some("  ".into()), "--target is empty"),
            (Some("../x"), None, "--cwd '../x' is outside REPO"),
            (
                None,
                Some("a/../../x".into()),
                "--target 'a/../../x' is outside REPO",
            ),
            (
                None,
                Some(other.path().display().to_string()),
                "is outside REPO",
            ),
            (Some("apps/missing"), None, "is not an existing directory"),
            (
                Some("apps/api/main.ts"),
                None,
                "is not an existing directory",
            ),
        ];
        for (cwd, target, expected) in cases {
            let mut a = args(dir.path());
            a.cwd = cwd.map(str::to_string);
            a.target = target;
            let err = open_context(&a, None).unwrap_err();
            assert!(err.0.contains(expected), "{err} lacks {expected}");
            assert!(!err.0.contains('\n'));
        }
    }

    #[test]
    fn refuses_a_missing_or_file_repository() {
        let dir = repo();
        let err = open_context(&args(&dir.path().join("nope")), None).unwrap_err();
        assert!(err.0.starts_with("REPO '"), "{err}");
        let err = open_context(&args(&dir.path().join("apps/api/main.ts")), None).unwrap_err();
        assert!(err.0.contains("is not a directory"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_symbolic_link_out_of_the_repository() {
        let dir = repo();
        let other = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(other.path(), dir.path().join("out")).unwrap();
        let mut a = args(dir.path());
        a.cwd = Some("out".into());
        let err = open_context(&a, None).unwrap_err();
        assert!(err.0.contains("symbolic link"), "{err}");
    }

    #[test]
    fn finds_the_nearest_git_marker() {
        let dir = repo();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let here = dir.path().join("apps/api");
        assert_eq!(find_repository_root(&here), dir.path());
        assert_eq!(relative_label(&here, dir.path()), "../..");
        // Where the user stands is the launch directory; --cwd starts there.
        let opened = open_context(&ContextArgs::default(), Some(&here)).unwrap();
        assert_eq!(opened.context.cwd.as_str(), "apps/api");
        assert_eq!(opened.repository_label, "../..");
        let a = ContextArgs {
            cwd: Some("..".into()),
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(&here)).unwrap();
        assert_eq!(opened.context.cwd.as_str(), "apps");
        // --root: the current directory is the root.
        let a = ContextArgs {
            root: true,
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(&here)).unwrap();
        assert_eq!(opened.context.cwd.as_str(), ".");
        assert_eq!(opened.repository_label, ".");
        // With REPO, --cwd starts at REPO wherever the user stands.
        let a = ContextArgs {
            repo: Some(dir.path().to_path_buf()),
            cwd: Some("apps".into()),
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(&here)).unwrap();
        assert_eq!(opened.context.cwd.as_str(), "apps");
    }

    #[test]
    fn a_repository_inside_a_work_tree_is_a_launch_directory_in_it() {
        let dir = repo();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let a = ContextArgs {
            repo: Some("apps".into()),
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(dir.path())).unwrap();
        assert_eq!(opened.context.cwd.as_str(), "apps");
        assert_eq!(opened.repository_label, ".");
        let a = ContextArgs {
            repo: Some("apps".into()),
            cwd: Some("api".into()),
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(dir.path())).unwrap();
        assert_eq!(opened.context.cwd.as_str(), "apps/api");
        let a = ContextArgs {
            repo: Some("apps".into()),
            root: true,
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(dir.path())).unwrap();
        assert_eq!(opened.context.cwd.as_str(), ".");
        assert_eq!(opened.repository_label, "apps");
        // Named from outside the work tree: the work tree is named from REPO.
        let outside = dir.path().parent().unwrap();
        let name = dir.path().file_name().unwrap();
        let a = ContextArgs {
            repo: Some(Path::new(name).join("apps")),
            ..ContextArgs::default()
        };
        let opened = open_context(&a, Some(outside)).unwrap();
        assert_eq!(opened.context.cwd.as_str(), "apps");
        assert_eq!(opened.repository_label, name.to_string_lossy());
    }

    #[test]
    fn lexical_normalization() {
        assert_eq!(
            lexical_normalize(Path::new("/a/./b/../c")),
            Path::new("/a/c")
        );
    }

    /// The count reads at most one entry past the limit and counts every
    /// level, directories included.
    #[test]
    fn a_large_tree_is_known_from_a_bounded_count() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a/b")).unwrap();
        for f in ["x", "a/y", "a/b/z"] {
            std::fs::write(tmp.path().join(f), "").unwrap();
        }
        // 5 entries: a, x, a/b, a/y, a/b/z.
        assert!(holds_more_entries_than(tmp.path(), 4));
        assert!(!holds_more_entries_than(tmp.path(), 5));
        assert!(!holds_more_entries_than(&tmp.path().join("missing"), 0));
    }
}

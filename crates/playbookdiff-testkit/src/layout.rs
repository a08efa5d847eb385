//! The layout tests every adapter runs: its surface table
//! ([`Adapter::surfaces`]) and its compilation name the same files.
//!
//! * [`assert_every_row_is_read`]: a repository holding one file per row
//!   of the table (inside the repository) compiles, under every profiled
//!   release that reads the row, to a result naming that file (an item's
//!   source, or a diagnostic about it): the table names nothing the
//!   adapter ignores.
//! * [`assert_every_source_is_a_row`]: every file an item of a
//!   compilation comes from matches a row of the table, apart from the
//!   files another file names (imports, configured instruction names,
//!   configured skill paths): the adapter reads nothing the table omits.
//! * [`assert_every_home_source_is_a_row`]: the same for the files of the
//!   user's home and of the machine that local mode reads, over the
//!   oracle's fixture homes: `playbookdiff layout` lists them, and the
//!   guard, which protects the table's user and managed rows, refuses a
//!   write to each.

use crate::{at_root, compile_dir, Ctx};
use playbookdiff_adapter::{Adapter, Analysis, Inputs, Scope, Surface, SurfaceKind};
use playbookdiff_model::{EffectiveAgentConfig, InstructionKind};
use std::path::Path;

/// What an adapter's example repository needs besides one file per row
/// ([`assert_every_row_is_read`]).
#[derive(Clone, Copy, Debug)]
pub struct Example<'a> {
    /// Files to add, or the content of a row's file instead of
    /// [`example_content`] (e.g. a marketplace that names the plugin).
    pub extra: &'a [(&'a str, &'a str)],
    /// The patterns of the rows read only where another row's file is
    /// absent (a fallback name, the second of two manifests): each gets a
    /// repository of its own.
    pub alone: &'a [&'a str],
    /// The directory the rows of [`Scope::Plugin`] are placed in.
    pub plugin_dir: &'a str,
}

/// One concrete repository path matched by `row`'s glob: a leading `**/`
/// dropped, `/**/` and a trailing `/**` made a directory `x`, each `*`
/// `x`, each `{a,b}` its first choice; plugin rows inside `plugin_dir`.
pub fn example_path(row: &Surface, plugin_dir: &str) -> String {
    let mut p = row.pattern.to_string();
    while let Some(open) = p.find('{') {
        let close = p[open..].find('}').map_or(p.len(), |c| open + c);
        let first = p[open + 1..close]
            .split(',')
            .next()
            .unwrap_or("")
            .to_string();
        p.replace_range(open..(close + 1).min(p.len()), &first);
    }
    let p = p
        .strip_prefix("**/")
        .unwrap_or(&p)
        .replace("/**/", "/x/")
        .replace("/**", "/x")
        .replace('*', "x");
    match row.scope {
        Scope::Plugin => format!("{plugin_dir}/{p}"),
        _ => p,
    }
}

/// What a row's example file holds: Markdown with front matter naming it
/// (`name: x`, a description), text no JSON or TOML reader accepts (so a
/// reader that opens it says so), a module for scripts.
pub fn example_content(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or("");
    match ext {
        "md" => "---\nname: x\ndescription: An example.\npaths: [\"src/**\"]\n---\nExample text.\n",
        "json" | "jsonc" => "{ not json\n",
        "toml" => "[not toml\n",
        "js" | "ts" => {
            "export const X = async () => ({ \"tool.execute.before\": async () => {} });\n"
        }
        _ => "example\n",
    }
}

/// Whether `config` names `path`: as a JSON string value, or between
/// backticks in a message.
fn names(config: &EffectiveAgentConfig, path: &str) -> bool {
    let text = serde_json::to_string(config).unwrap_or_default();
    text.contains(&format!("\"{path}\"")) || text.contains(&format!("`{path}`"))
}

/// Asserts that every repository row of `adapter`'s table (other than
/// [`SurfaceKind::Directory`]) is read: for each profiled release, a
/// repository holding [`example_path`] of each row that release reads,
/// with [`example_content`] or the content [`Example::extra`] gives, and
/// the other files of `extra`, compiled from the root in local mode, names
/// each of those paths; the rows of [`Example::alone`] each get a
/// repository of their own.
pub fn assert_every_row_is_read(adapter: &dyn Adapter, example: Example<'_>) {
    for version in adapter.profiled_versions() {
        let rows: Vec<&Surface> = adapter
            .surfaces()
            .iter()
            .filter(|s| s.in_repository() && s.kind != SurfaceKind::Directory)
            .filter(|s| s.read_by(version))
            .collect();
        let (single, together): (Vec<&Surface>, Vec<&Surface>) = rows
            .into_iter()
            .partition(|r| example.alone.contains(&r.pattern));
        let mut groups: Vec<Vec<&Surface>> = single.into_iter().map(|r| vec![r]).collect();
        groups.push(together);
        for group in groups {
            let unread = unread_rows(adapter, version, &group, example);
            assert!(
                unread.is_empty(),
                "{} {version}: the table names files the compilation does not read: {unread:?}",
                adapter.harness()
            );
        }
    }
}

/// The example paths of `rows` that a compilation of a repository holding
/// them (and the files of [`Example::extra`] that are no row's) does not
/// name.
fn unread_rows(
    adapter: &dyn Adapter,
    version: &str,
    rows: &[&Surface],
    example: Example<'_>,
) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path_of = |r: &Surface| example_path(r, example.plugin_dir);
    for row in rows {
        let path = path_of(row);
        let content = example
            .extra
            .iter()
            .find(|(p, _)| *p == path)
            .map_or_else(|| example_content(&path), |(_, c)| c);
        write(dir.path(), &path, content);
    }
    let row_files: Vec<String> = adapter.surfaces().iter().map(&path_of).collect();
    for (p, c) in example.extra {
        if !row_files.iter().any(|f| f == p) {
            write(dir.path(), p, c);
        }
    }
    let config = compile_dir(adapter, dir.path(), &at_root().local().version(version));
    rows.iter()
        .filter(|r| !names(&config, &path_of(r)) && !names_directory(&config, r, &path_of(r)))
        .map(|r| path_of(r))
        .collect()
}

/// Whether `row` is a directory (its pattern ends in `/**`) that `config`
/// names as a whole.
fn names_directory(config: &EffectiveAgentConfig, row: &Surface, path: &str) -> bool {
    row.pattern.ends_with("/**")
        && path
            .strip_suffix("/x")
            .is_some_and(|dir| names(config, dir))
}

fn write(root: &Path, path: &str, content: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

/// The files `config`'s items come from, other than the files another
/// file names (imports, OpenCode's `instructions`, Codex's fallback
/// names, Gemini CLI's `context.fileName`) and files above the root.
pub fn item_sources(config: &EffectiveAgentConfig) -> Vec<String> {
    let own =
        |k: InstructionKind| !matches!(k, InstructionKind::Import | InstructionKind::Instructions);
    let refs = config
        .instructions
        .iter()
        .filter(|i| own(i.kind) && i.imported_from.is_none())
        .map(|i| &i.source)
        .chain(config.mcp_servers.iter().map(|m| &m.source))
        .chain(config.subagents.iter().map(|a| &a.source))
        .chain(config.commands.iter().map(|c| &c.source))
        .chain(config.output_styles.iter().map(|o| &o.source))
        .chain(config.plugins.iter().map(|p| &p.source))
        .chain(config.hooks.iter().map(|h| &h.source))
        .chain(config.permissions.iter().map(|p| &p.source));
    refs.map(|r| r.path.as_str().to_string())
        .filter(|p| !p.starts_with(".."))
        .collect()
}

/// Asserts that every file of [`item_sources`] of `adapter`'s compilation
/// of each repository of `repos` (from the root, local mode, every
/// profiled release), and each skill file, matches a repository row of
/// the table the release reads, unless `named_elsewhere` says another
/// file names it (a configured instruction or skill path).
pub fn assert_every_source_is_a_row(
    adapter: &dyn Adapter,
    repos: &[std::path::PathBuf],
    named_elsewhere: impl Fn(&EffectiveAgentConfig, &str) -> bool,
) {
    let mut missing = Vec::new();
    for version in adapter.profiled_versions() {
        let rows = rows_of(adapter, version);
        for repo in repos {
            let ctx: Ctx = at_root().local().version(version);
            let config = compile_dir(adapter, repo, &ctx);
            let skills = config
                .skills
                .iter()
                .map(|s| s.source.path.as_str().to_string());
            for path in item_sources(&config).into_iter().chain(skills) {
                if !rows.is_match(&path) && !named_elsewhere(&config, &path) {
                    missing.push(format!("{version} {}: {path}", repo.display()));
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "{}: files read that no row of the table names:\n{}",
        adapter.harness(),
        missing.join("\n")
    );
}

fn rows_of(adapter: &dyn Adapter, version: &str) -> globset::GlobSet {
    let mut set = globset::GlobSetBuilder::new();
    for row in adapter.surfaces() {
        if row.in_repository() && row.read_by(version) {
            let glob = globset::GlobBuilder::new(row.pattern)
                .literal_separator(true)
                .build()
                .unwrap_or_else(|e| panic!("{}: {e}", row.pattern));
            set.add(glob);
        }
    }
    set.build().unwrap()
}

/// Whether `path` is the file of a permission rule of `config` that lies
/// outside every folder of `own` (the agent's own policy folders, as
/// `~/`- or `/`-prefixed paths): a file a setting names (Gemini CLI's
/// `policyPaths` and `adminPolicyPaths`, 0.36.0 on), which may lie
/// anywhere, so no row of a table can name it.
pub fn permission_file_named_by_a_setting(
    config: &EffectiveAgentConfig,
    path: &str,
    own: &[&str],
) -> bool {
    !own.iter().any(|folder| path.starts_with(folder))
        && config
            .permissions
            .iter()
            .any(|p| p.source.path.as_str() == path)
}

/// Asserts that every file of the user's home or of the machine (a path
/// starting with `~/` or `/`) that an item or a skill of `adapter`'s
/// local-mode compilation comes from matches a user or managed row of the
/// table that the release reads and that the analysis reads (not
/// [`Analysis::NotRead`]), unless `named_elsewhere` says another file
/// names it (a configured skill path). The compilations are those of
/// every fixture case of `oracle/cases.toml` with a fixture home, whichever
/// agents it was recorded with, launched in its cwd with its home
/// ([`crate::oracle::home_copy`]), its managed files (else an empty
/// machine root) and its profile, under every profiled release; the
/// harnesses' variables (`CODEX_HOME`...) are not set, so each file is
/// named from `~/` as the table names it.
pub fn assert_every_home_source_is_a_row(
    adapter: &dyn Adapter,
    named_elsewhere: impl Fn(&EffectiveAgentConfig, &str) -> bool,
) {
    let mut missing = Vec::new();
    for case in crate::oracle::cases() {
        if case.home.is_none() || case.fixture.is_none() {
            continue;
        }
        for version in adapter.profiled_versions() {
            let rows = home_rows_of(adapter, version);
            let config = compile_with_home(adapter, &case, version);
            for path in home_sources(&config) {
                if !rows.is_match(&path) && !named_elsewhere(&config, &path) {
                    missing.push(format!("{version} {}: {path}", case.id));
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "{}: files of the home or the machine read that no user or managed row of the table names:\n{}",
        adapter.harness(),
        missing.join("\n")
    );
}

/// The files of the home (`~/...`) and of the machine (`/...`) that the
/// items of `config` ([`item_sources`]) and its skills come from.
pub fn home_sources(config: &EffectiveAgentConfig) -> Vec<String> {
    let skills = config
        .skills
        .iter()
        .map(|s| s.source.path.as_str().to_string());
    item_sources(config)
        .into_iter()
        .chain(skills)
        .filter(|p| p.starts_with("~/") || p.starts_with('/'))
        .collect()
}

/// `adapter`'s local-mode compilation of the fixture case `case` (a case
/// of `oracle/cases.toml` with a `fixture` and a `home`) under release
/// `version`, with the case's home, managed files (else an empty machine
/// root) and profile, and no harness variable set. Panics on a case
/// without a fixture or a home.
pub fn compile_with_home(
    adapter: &dyn Adapter,
    case: &crate::oracle::Case,
    version: &str,
) -> EffectiveAgentConfig {
    let mut temps = Vec::new();
    let root = crate::oracle::materialize(case, &mut temps).expect("a fixture case");
    let home = crate::oracle::home_copy(case, &root, &mut temps).expect("a case with a home");
    let empty = tempfile::tempdir().unwrap();
    let managed = case.managed.as_ref().map_or_else(
        || empty.path().to_path_buf(),
        |m| crate::corpus::workspace().join(m),
    );
    let mut machine = playbookdiff_source::Machine::new(Some(home)).with_root(managed);
    if let Some(profile) = &case.profile {
        machine = machine.with_profile(profile);
    }
    let tree = playbookdiff_source::WorkingTree::open(&root).expect("the case's repository");
    let repo = playbookdiff_source::Repo::new(&tree);
    let ctx = at_root().cwd(&case.cwd).local();
    let inputs = Inputs {
        version: Some(version),
        machine: Some(&machine),
        ..Inputs::default()
    };
    adapter.compile_with(&repo, &ctx.context(), &inputs)
}

/// The user and managed rows of `adapter`'s table that release `version`
/// reads and the analysis reads, as one set of globs.
fn home_rows_of(adapter: &dyn Adapter, version: &str) -> globset::GlobSet {
    let mut set = globset::GlobSetBuilder::new();
    for row in adapter.surfaces() {
        let home = matches!(row.scope, Scope::User | Scope::Managed);
        if home && row.analysis != Analysis::NotRead && row.read_by(version) {
            let glob = globset::GlobBuilder::new(row.pattern)
                .literal_separator(true)
                .build()
                .unwrap_or_else(|e| panic!("{}: {e}", row.pattern));
            set.add(glob);
        }
    }
    set.build().unwrap()
}

//! Read-only access to an analysed repository.
//!
//! * [`SourceTree`] is the only door to the analysed files: list a
//!   directory, stat, read a file, read a symbolic link. [`WorkingTree`]
//!   implements it over a directory on disk, [`GitTree`] over one commit
//!   of a git repository (read from its objects with gix, links from their
//!   tree entries), and no adapter knows which.
//! * [`Repo`] walks a tree once, keeps the index, resolves symbolic links
//!   inside the repository and reads each file at most once.
//! * [`Ancestors`] reads, only when asked, the directories above a working
//!   tree's root, named by [`AncestorPath`] (Claude Code's startup walk
//!   goes up to the filesystem root).
//! * [`Machine`] reads, in local mode only, the user's and the machine's
//!   configuration (`~/.claude`, `$CODEX_HOME`, `/etc/codex`), named by
//!   [`playbookdiff_model::RepoPath::on_machine`] paths.
//! * [`markdown`] finds front matter and `@path` imports by Markdown
//!   structure, with byte offsets and 1-based lines.
//!
//! Architecture invariant: nothing here writes or executes; nothing
//! follows a link out of the repository, but [`Machine`], which reads the
//! user's own files where their links lead, as the agents do.
//!
//! ```no_run
//! use playbookdiff_source::{Repo, WorkingTree};
//! let tree = WorkingTree::open(std::path::Path::new("examples/monorepo")).unwrap();
//! let repo = Repo::new(&tree);
//! for p in repo.files_named("CLAUDE.md") { println!("{p}"); }
//! ```

/// Counts allocations, the measure of work of the unit tests that prove a
/// step linear (`playbookdiff_testkit::work`).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: playbookdiff_testkit::work::Allocator = playbookdiff_testkit::work::ALLOCATOR;

mod git;
mod ignore_file;
mod index;
mod machine;
pub mod markdown;
mod outside;
mod parse_error;
mod text;
mod tree;
pub mod visibility;

pub use git::{is_lfs_pointer, CommitId, GitError, GitRepository, GitTree};
pub use index::{Repo, Resolved, WalkCause, WalkProblem};
pub use machine::{is_profile_name, Machine};
pub use outside::{AncestorPath, Ancestors, Reach};
pub use parse_error::ParseError;
pub use text::TextFile;
pub use tree::{
    DirEntry, EntryKind, IoKind, SourceError, SourceTree, Stat, WorkingTree, PREFIX_WHOLE_LIMIT,
};
pub use visibility::{FileRule, GitView, RepoOptions, Visibility, WalkScope};

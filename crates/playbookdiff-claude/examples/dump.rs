//! Prints the Claude Code configuration of a directory as JSON:
//! `cargo run -p playbookdiff-claude --example dump -- REPO [CWD] [TARGET]`.
#![allow(clippy::print_stdout, missing_docs)]

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{AnalysisContext, RepoPath};
use playbookdiff_source::{Repo, WorkingTree};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tree = WorkingTree::open(std::path::Path::new(&args[1])).expect("open");
    let repo = Repo::new(&tree);
    let mut ctx = AnalysisContext::at_root();
    if let Some(c) = args.get(2) {
        ctx.cwd = RepoPath::new(c).expect("cwd");
    }
    ctx.target_path = args.get(3).and_then(|t| RepoPath::new(t));
    let cfg = playbookdiff_claude::ADAPTER.compile(&repo, &ctx, None);
    println!("{}", serde_json::to_string_pretty(&cfg).expect("json"));
}

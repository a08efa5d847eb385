//! Prints the comparison of a fixture (development aid):
//! `cargo run -p playbookdiff-compare --example debug_compare -- DIR [CWD] [TARGET]`.
#![allow(clippy::print_stdout)]
use playbookdiff_model::{AnalysisContext, RepoPath};
use playbookdiff_source::{Repo, WorkingTree};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let tree = WorkingTree::open(std::path::Path::new(&a[1])).unwrap();
    let repo = Repo::new(&tree);
    let mut ctx = AnalysisContext::at_root();
    if let Some(c) = a.get(2) {
        ctx.cwd = RepoPath::new(c).unwrap();
    }
    ctx.target_path = a.get(3).map(|t| RepoPath::new(t).unwrap());
    let c1 = playbookdiff_claude::compile(&repo, &ctx);
    let c2 = playbookdiff_codex::compile(&repo, &ctx);
    let c = playbookdiff_compare::compare(&[&c1, &c2]);
    for r in &c.rows {
        println!(
            "{:?} {} {:?} agree={}",
            r.category,
            r.label,
            r.cells
                .iter()
                .map(|c| (c.reception, c.note.clone()))
                .collect::<Vec<_>>(),
            r.agree
        );
    }
    for f in &c.findings {
        println!("{} {:?}\n   {}", f.id, f.severity, f.message);
        for p in &f.paragraphs {
            println!(
                "   para {:?}",
                p.diff.as_deref().unwrap_or(&p.sides[0].text)
            );
        }
        for d in &f.differences {
            println!("   diff {} {:?}", d.field, d.values);
        }
        for a in &f.absences {
            println!("   absent {}: {}", a.harness, a.reason);
        }
    }
}

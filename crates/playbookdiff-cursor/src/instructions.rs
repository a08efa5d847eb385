//! Instructions: which files Cursor puts at the start of the model
//! context, and which it adds later.
//!
//! Cursor's rules documentation (<https://cursor.com/docs/context/rules>)
//! names four kinds: project rules (`.cursor/rules`, [`crate::rules`]),
//! User and Team Rules (outside the repository), `AGENTS.md` ("a simple
//! alternative to `.cursor/rules`", in the project root and in
//! subdirectories, a nested one combining with its parents) and the legacy
//! `.cursorrules` ("still supported, but deprecated"). The documentation
//! gives no order among them; the analysis assumes always-applied rules by
//! path, then `AGENTS.md`, then `.cursorrules` (an assumption of every
//! result).

use crate::{Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_adapter::scope::{place, strictly_below};
use playbookdiff_model::{
    Applicability, ByteSpan, Instruction, InstructionKind, LoadPhase, RepoPath, SourceFormat,
    SourceRef,
};
use playbookdiff_source::TextFile;
use std::sync::Arc;

/// The workspace instruction file of the agent-instructions convention.
pub(crate) const AGENTS_MD: &str = "AGENTS.md";

/// The legacy single rules file of the workspace.
pub(crate) const CURSORRULES: &str = ".cursorrules";

/// The instruction entries: startup ones in the assumed order, then the
/// on-demand and excluded ones.
#[derive(Default)]
pub(crate) struct Builder {
    effective: Vec<Instruction>,
    others: Vec<Instruction>,
}

impl Builder {
    /// Adds an entry: an effective startup one in context order, any other
    /// after them.
    pub(crate) fn push(&mut self, e: Instruction) {
        if e.load_phase == LoadPhase::Startup && e.applicability == Applicability::Effective {
            self.effective.push(e);
        } else {
            self.others.push(e);
        }
    }

    /// The entries: effective startup ones numbered, then the others.
    fn finish(self) -> Vec<Instruction> {
        let mut out = self.effective;
        for (i, e) in out.iter_mut().enumerate() {
            e.order = Some(i as u32);
        }
        out.extend(self.others);
        out
    }
}

/// Compiles the instruction entries of the workspace (cwd).
pub(crate) fn compile(cx: &mut Cx<'_, '_>) -> Vec<Instruction> {
    let mut b = Builder::default();
    crate::rules::compile(cx, &mut b);
    workspace_file(cx, AGENTS_MD, InstructionKind::AgentsMd, &mut b);
    workspace_file(cx, CURSORRULES, InstructionKind::Instructions, &mut b);
    nested_agents_md(cx, &mut b);
    b.finish()
}

/// The workspace's `AGENTS.md` or `.cursorrules`, always applied.
fn workspace_file(cx: &mut Cx<'_, '_>, name: &str, kind: InstructionKind, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    let Some(path) = cwd.join(name).filter(|p| cx.repo.is_file(p)) else {
        return;
    };
    let Ok(text) = read(cx, &path) else { return };
    let why = match kind {
        InstructionKind::AgentsMd => format!("{path} is the `AGENTS.md` of the workspace ({}); Cursor applies it to every request like an always-applied rule (documented, not observed).", place(&cwd)),
        _ => format!("{path} is the legacy rules file of the workspace ({}); Cursor's documentation calls it still supported but deprecated, and adds it to every request (not observed).", place(&cwd)),
    };
    let mut e = entry(&path, &cwd, Some(&text), Slot::STARTUP, why);
    e.kind = kind;
    e.id = format!("cursor:{kind}:{path}");
    b.push(e);
}

/// The `AGENTS.md` files below the workspace: applied when a file of their
/// folder is in context (the documentation's nested `AGENTS.md`).
fn nested_agents_md(cx: &mut Cx<'_, '_>, b: &mut Builder) {
    let cwd = cx.context.cwd.clone();
    let target = cx.context.target_path.clone();
    let files: Vec<RepoPath> = cx
        .repo
        .files_named_under(AGENTS_MD, &cwd)
        .iter()
        .filter(|p| p.parent().is_some_and(|d| strictly_below(&d, &cwd)))
        .cloned()
        .collect();
    for p in files {
        if !cx.repo.is_file(&p) {
            continue;
        }
        let dir = p.parent().unwrap_or_else(RepoPath::root);
        let Ok(text) = read(cx, &p) else { continue };
        let hit = target.as_ref().is_some_and(|t| strictly_below(t, &dir));
        let (slot, why) = if hit {
            (Slot::ON_DEMAND_HIT, format!("{} lies below the workspace on the way to targetPath; Cursor adds a nested `AGENTS.md` when a file of its folder is in context, combined with the parents' (documented, not observed).", place(&dir)))
        } else {
            (Slot::ON_DEMAND, format!("{} lies below the workspace; Cursor adds this nested `AGENTS.md` only when a file of its folder is in context (documented, not observed).", place(&dir)))
        };
        let mut e = entry(&p, &dir, Some(&text), slot, why);
        e.kind = InstructionKind::AgentsMd;
        e.id = format!("cursor:agents-md:{p}");
        b.push(e);
    }
}

/// When an entry is received and whether it is under the context.
#[derive(Clone, Copy)]
pub(crate) struct Slot(pub LoadPhase, pub Applicability);

impl Slot {
    /// At startup, received.
    pub(crate) const STARTUP: Slot = Slot(LoadPhase::Startup, Applicability::Effective);
    /// Later, when a condition the analysis cannot know holds.
    pub(crate) const ON_DEMAND: Slot = Slot(LoadPhase::OnDemand, Applicability::Conditional);
    /// Later, and the targetPath makes it received.
    pub(crate) const ON_DEMAND_HIT: Slot = Slot(LoadPhase::OnDemand, Applicability::Effective);
    /// Never received.
    pub(crate) const EXCLUDED: Slot = Slot(LoadPhase::Startup, Applicability::Excluded);
}

/// Reads instruction file `path` (at most [`READ_LIMIT`] bytes); a problem
/// is a diagnostic and the file is left out.
pub(crate) fn read(cx: &mut Cx<'_, '_>, path: &RepoPath) -> Result<Arc<TextFile>, ()> {
    match cx.repo.read_text(path, READ_LIMIT) {
        Ok(t) => {
            if t.invalid_utf8 {
                cx.diag(problems::invalid_utf8(path, SourceFormat::Markdown, &t));
            }
            Ok(t)
        }
        Err(e) => {
            cx.diag(problems::read_error(
                path,
                &e,
                "Cursor cannot use it",
                SourceFormat::Markdown,
            ));
            Err(())
        }
    }
}

/// The entry of file `path` applying to `dir`, with the whole text of
/// `text` (when read) as its content; kind and id are the caller's.
pub(crate) fn entry(
    path: &RepoPath,
    dir: &RepoPath,
    text: Option<&TextFile>,
    Slot(phase, applicability): Slot,
    reason: String,
) -> Instruction {
    let mut source = SourceRef::project(path.clone(), SourceFormat::Markdown);
    if let Some(t) = text.filter(|t| t.line_count() > 0) {
        source = source.with_lines(1, t.line_count());
    }
    Instruction {
        id: format!("cursor:instructions:{path}"),
        kind: InstructionKind::Instructions,
        source,
        load_phase: phase,
        applicability,
        reason,
        order: None,
        applies_to: dir.clone(),
        imported_from: None,
        import_spans: Vec::<ByteSpan>::new(),
        bytes: text.map(|t| t.bytes).unwrap_or(0),
        paths: None,
        resolution: None,
        truncated_at_byte: None,
        content: text.map(|t| t.text.clone()).unwrap_or_default(),
    }
}

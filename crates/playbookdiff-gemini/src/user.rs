//! The user's global context, read in local mode.
//!
//! Gemini CLI (`packages/core/src/utils/memoryDiscovery.ts`,
//! `getGlobalMemoryPaths`): for each context file name
//! (`getAllGeminiMdFilenames`, the same names as the project search) the
//! file `~/.gemini/<name>` is sent first, before the project's context
//! files, its text trimmed, an empty one left out (harness facts
//! "GEMINI.md hierarchy" (1)). Seen with 0.34.0 and 0.61.0: the user's
//! `~/.gemini/GEMINI.md` sent at startup (case
//! `oracle.local_user_layers.home-gemini-memory`). Imports in the user's
//! file are not followed by the analysis (the file is sent as written, its
//! `@path` lines included).

use crate::READ_LIMIT;
use playbookdiff_model::{
    Applicability, Diagnostic, Instruction, InstructionKind, LoadPhase, RepoPath, SourceFormat,
    SourceRef, SourceScope,
};
use playbookdiff_source::Machine;

/// The user's context files of `machine` for the context file `names`, in
/// that order, each effective at startup in the user's layer; a file that
/// exists but cannot be read is reported in `diags` and left out.
pub(crate) fn global_context(
    machine: &Machine,
    names: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Instruction> {
    let mut out = Vec::new();
    for name in names {
        let Some(path) = RepoPath::on_machine("~", &format!(".gemini/{name}")) else {
            continue;
        };
        let effect = "Gemini CLI may send it; its content is unknown";
        let Some(text) = playbookdiff_adapter::problems::read_user_markdown(
            machine, &path, READ_LIMIT, effect, diags,
        ) else {
            continue;
        };
        let content = text.text.trim();
        if content.is_empty() || out.iter().any(|i: &Instruction| i.source.path == path) {
            continue;
        }
        let mut source = SourceRef {
            scope: SourceScope::User,
            ..SourceRef::project(path.clone(), SourceFormat::Markdown)
        };
        if text.line_count() > 0 {
            source = source.with_lines(1, text.line_count());
        }
        out.push(Instruction {
            id: format!("gemini:context-file:{path}"),
            kind: InstructionKind::ContextFile,
            source,
            load_phase: LoadPhase::Startup,
            applicability: Applicability::Effective,
            reason: "The user's global context file, sent at startup in every project before the \
                     project's context files."
                .to_string(),
            order: None,
            applies_to: RepoPath::root(),
            imported_from: None,
            import_spans: Vec::new(),
            bytes: text.bytes,
            paths: None,
            resolution: None,
            truncated_at_byte: None,
            content: content.to_string(),
        });
    }
    out
}

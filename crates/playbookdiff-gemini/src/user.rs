//! The user's global context and the context files of the user's
//! extensions, read in local mode.
//!
//! Gemini CLI (`packages/core/src/utils/memoryDiscovery.ts`,
//! `getGlobalMemoryPaths`): for each context file name
//! (`getAllGeminiMdFilenames`, the same names as the project search) the
//! file `~/.gemini/<name>` is sent first, before the project's context
//! files, its text trimmed, an empty one left out (harness facts
//! "GEMINI.md hierarchy" (1)). Seen with 0.34.0 and 0.61.0: the user's
//! `~/.gemini/GEMINI.md` sent at startup (case
//! `oracle.local_user_layers.home-gemini-memory`). Imports in the user's
//! file, and in an extension's, are not followed by the analysis (the
//! file is sent as written, its `@path` lines included).
//!
//! The context files of the user's active extensions follow
//! (`getExtensionMemoryPaths`, and the `extension` part of the
//! hierarchical memory between the `global` and the `project` parts,
//! read in the code of both releases); seen with 0.34.0 and 0.61.0 before
//! the project's `GEMINI.md`, sorted by path (case
//! `oracle.local_gemini_extensions.home-gemini-extensions`).

use crate::extensions::Extension;
use crate::READ_LIMIT;
use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, Instruction, InstructionKind, LoadPhase, RepoPath,
    SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine};

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
        let reason = "The user's global context file, sent at startup in every project before the \
                      project's context files.";
        out.extend(sent_file(machine, path, &out, diags).map(|mut i| {
            i.reason = reason.to_string();
            i
        }));
    }
    out
}

/// The context files of the active extensions of `extensions`, after the
/// user's global ones (`getExtensionMemoryPaths` in
/// `packages/core/src/utils/memoryDiscovery.ts`: the names of each one's
/// `contextFileName` that exist in its folder, sorted by absolute path,
/// each once), each in the extension's layer. A name that leaves the
/// extension's folder is not read, and said so in `diags`
/// ([`escaping_context`]; 0.34 then skips the whole extension, 0.61 the
/// name only; not modelled).
pub(crate) fn extension_context(
    machine: &Machine,
    extensions: &[Extension],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Instruction> {
    let mut files: Vec<(RepoPath, &Extension)> = Vec::new();
    for e in extensions.iter().filter(|e| e.active()) {
        for name in e.context_file_names() {
            match e.file(name.trim_start_matches("./")) {
                Some(p) if p.starts_with(&e.dir) => {
                    if machine.stat(&p).is_ok_and(|s| s.kind == EntryKind::File) {
                        files.push((p, e));
                    }
                }
                _ => diags.push(escaping_context(e, &name)),
            }
        }
    }
    files.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    files.dedup_by(|a, b| a.0 == b.0);
    let mut out = Vec::new();
    for (path, ext) in files {
        let Some(mut i) = sent_file(machine, path, &out, diags) else {
            continue;
        };
        i.source = i.source.in_plugin(&ext.key());
        i.reason = format!(
            "A context file of the user's extension `{}` (`contextFileName` of its manifest), sent at startup in every project after the user's global context files.",
            ext.name
        );
        out.push(i);
    }
    out
}

/// The extension `e`'s `contextFileName` names `name`, which leaves its
/// folder: a `user-config-unavailable` diagnostic at the manifest's key
/// saying that the analysis did not read it (what Gemini CLI does with
/// it differs by release and is not claimed).
fn escaping_context(e: &Extension, name: &str) -> Diagnostic {
    let at = e.source(&["contextFileName"]);
    Diagnostic::new(
        DiagnosticCode::UserConfigUnavailable,
        format!(
            "`contextFileName` of the Gemini CLI extension `{}` (`{}`) names `{name}`, which leaves the \
             extension's folder, so the analysis did not read it and what it adds is unknown; name a file inside \
             the extension's folder.",
            e.name, at.path
        ),
    )
    .at(at)
}

/// The machine file `path` as a context file sent at startup, in the
/// layer its path names, its text trimmed; `None` when it is empty, is
/// already in `sent`, or cannot be read (reported in `diags`).
fn sent_file(
    machine: &Machine,
    path: RepoPath,
    sent: &[Instruction],
    diags: &mut Vec<Diagnostic>,
) -> Option<Instruction> {
    let how = playbookdiff_adapter::problems::UserMarkdown {
        effect: "Gemini CLI may send it; its content is unknown",
        non_utf8: crate::NON_UTF8,
    };
    let text = playbookdiff_adapter::problems::read_user_markdown(
        machine, &path, READ_LIMIT, &how, diags,
    )?;
    let content = text.text.trim();
    if content.is_empty() || sent.iter().any(|i| i.source.path == path) {
        return None;
    }
    let mut source = SourceRef {
        scope: SourceScope::User,
        ..SourceRef::project(path.clone(), SourceFormat::Markdown)
    };
    if text.line_count() > 0 {
        source = source.with_lines(1, text.line_count());
    }
    Some(Instruction {
        id: format!("gemini:context-file:{path}"),
        kind: InstructionKind::ContextFile,
        source,
        load_phase: LoadPhase::Startup,
        applicability: Applicability::Effective,
        reason: String::new(),
        order: None,
        applies_to: RepoPath::root(),
        imported_from: None,
        import_spans: Vec::new(),
        bytes: text.bytes,
        paths: None,
        resolution: None,
        truncated_at_byte: None,
        content: content.to_string(),
    })
}

/// The machine file `path` as a source, in the layer its path names
/// (`user` below the home).
pub(crate) fn machine_source(path: RepoPath, format: SourceFormat) -> SourceRef {
    SourceRef {
        scope: SourceScope::of_path(&path),
        ..SourceRef::project(path, format)
    }
}

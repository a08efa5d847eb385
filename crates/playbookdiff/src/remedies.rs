//! Suggestions attached to findings: each finding becomes the [`Gap`] of
//! every harness that lacks the item, and the registered adapter of that
//! harness says what would close it. Nothing here knows a harness's files.

use playbookdiff_compare::{display_name, Category, Finding, FindingType, Remedy, Subject};
use playbookdiff_model::Harness;
use playbookdiff_model::SourceRef;
use playbookdiff_registry::{adapter, Gap, Scene};

/// The suggestion for a harness that receives an instruction later and has
/// no convention to offer: its item's reason says what holds it back.
const SEE_WHY: &str =
    "see why above: the reason of its item says what keeps it from loading sooner";

/// `path:start-end` (1-based lines), or the path alone.
fn location(source: &SourceRef) -> String {
    match source.lines {
        None => source.path.to_string(),
        Some(l) if l.start == l.end => format!("{}:{}", source.path, l.start),
        Some(l) => format!("{}:{}-{}", source.path, l.start, l.end),
    }
}

/// What would make the harnesses agree, from each harness's conventions,
/// asked in `scene` (the repository and the launch directory).
pub(crate) fn remedies(f: &Finding, scene: &Scene<'_, '_>) -> Vec<Remedy> {
    let mut out = Vec::new();
    let ask = |harness: Harness, gap: Gap<'_>, otherwise: Option<&str>| {
        let action = adapter(harness)
            .and_then(|a| a.remedy(&gap, scene))
            .or(otherwise.map(str::to_string));
        action.map(|action| Remedy { harness, action })
    };
    // An agent that would not start: the refused file is the one fix; its
    // problem (shown with the finding) says what to change there.
    if f.category == Category::Agent {
        for p in &f.problems {
            let at = p.source.as_ref().map_or_else(
                || "its configuration".to_string(),
                |s| match s.lines {
                    Some(l) => format!("`{}` line {}", s.path, l.start),
                    None => format!("`{}`", s.path),
                },
            );
            out.push(Remedy {
                harness: p.harness,
                action: format!(
                    "fix {at} as its `{}` problem says; until then {} does not start and is left out of the comparison",
                    p.code.as_str(),
                    display_name(p.harness)
                ),
            });
        }
        return out;
    }
    // A problem in the repository (a broken import, a dangling link, a link
    // stored as text) is what to fix first: its diagnostic says how, and a
    // remedy built on the broken text would copy the breakage. An MCP
    // server's own problems (such as a literal secret in its entry) break
    // nothing a copy would carry: they come first, then the server is
    // added where it is missing; a hook's likewise (a missing script is
    // fixed, then the hook is added where it is missing).
    let then_gap = matches!(f.subject, Some(Subject::Mcp { .. } | Subject::Hook { .. }));
    if !f.problems.is_empty() {
        for p in &f.problems {
            let r = Remedy {
                harness: p.harness,
                action: format!("{} first: {}", fix_where(p), p.message),
            };
            if !out.contains(&r) {
                out.push(r);
            }
        }
        if !then_gap {
            return out;
        }
    }
    match (&f.subject, f.kind) {
        (Some(Subject::Instruction { files, bridge, .. }), FindingType::Missing)
            if !bridge.is_empty() =>
        {
            // The import is already there: only the boilerplate beside it
            // differs, and nothing needs adding.
            let imported: Vec<String> = bridge.iter().map(|b| format!("`{b}`")).collect();
            if let (Some(h), Some(file)) = (f.present_in.first(), files.first()) {
                out.push(Remedy {
                    harness: *h,
                    action: format!(
                        "nothing is missing: `{file}` already imports {}, which every agent receives; to silence this, delete the other lines of `{file}` so it holds the import only",
                        imported.join(" and ")
                    ),
                });
            }
        }
        (
            Some(Subject::Instruction {
                dir, files, paths, ..
            }),
            FindingType::Missing,
        ) => {
            for h in &f.absent_from {
                if let Some(file) = files.first() {
                    let paths = paths.as_deref();
                    out.extend(ask(*h, Gap::Instruction { file, dir, paths }, None));
                }
            }
        }
        (Some(Subject::Instruction { files, .. }), FindingType::ScopeGap) => {
            for h in &f.absent_from {
                out.extend(ask(*h, Gap::LateInstruction { files }, Some(SEE_WHY)));
            }
        }
        (Some(Subject::Skill { name, files }), FindingType::CapabilityGap)
            if !f.absent_from.is_empty() =>
        {
            for h in &f.absent_from {
                if let Some(file) = files.first() {
                    out.extend(ask(*h, Gap::Skill { name, file }, None));
                }
            }
        }
        (Some(Subject::Skill { name, files }), FindingType::ScopeGap) => {
            for h in &f.absent_from {
                out.extend(ask(*h, Gap::LateSkill { name, files }, None));
            }
        }
        (Some(Subject::Subagent { name, files, .. }), FindingType::CapabilityGap) => {
            for h in &f.absent_from {
                if let Some(file) = files.first() {
                    out.extend(ask(*h, Gap::Subagent { name, file }, None));
                }
            }
        }
        (Some(Subject::Mcp { name, transport }), FindingType::CapabilityGap) => {
            for h in &f.absent_from {
                let transport = *transport;
                out.extend(ask(*h, Gap::Mcp { name, transport }, None));
            }
        }
        (
            Some(Subject::Hook {
                trigger,
                matcher,
                command,
                script,
            }),
            FindingType::CapabilityGap,
        ) => {
            for h in &f.absent_from {
                let gap = Gap::Hook {
                    trigger: *trigger,
                    matcher: matcher.as_deref(),
                    command: command.as_deref(),
                    script: script.as_ref(),
                };
                out.extend(ask(*h, gap, None));
            }
        }
        (Some(Subject::Permission { scope }), FindingType::CapabilityGap) => {
            for h in &f.absent_from {
                let action = adapter(*h).and_then(|a| a.deny_remedy(scope));
                out.extend(action.map(|action| Remedy {
                    harness: *h,
                    action,
                }));
            }
        }
        (Some(_), FindingType::Different | FindingType::CapabilityGap) => {
            let files: Vec<String> = f
                .items
                .iter()
                .map(|i| format!("`{}`", i.source.path))
                .collect();
            if let Some(h) = f.present_in.last() {
                let action = format!(
                    "make the fields listed under \"What differs\" identical in {}",
                    files.join(" and ")
                );
                out.push(Remedy {
                    harness: *h,
                    action,
                });
            }
        }
        (None, FindingType::Different) if f.category == Category::Instruction => {
            // One scope, two texts that give different commands, tools,
            // paths or numbers: one text must win, and each side's remedy
            // says which and names the file to edit.
            let Some(pair) = f.paragraphs.iter().find(|p| p.sides.len() == 2) else {
                return out;
            };
            let (a, b) = (&pair.sides[0], &pair.sides[1]);
            for (edit, keep, or, tail) in [(a, b, "", "; one text, not both"), (b, a, "or ", "")] {
                out.push(Remedy {
                    harness: edit.harness,
                    action: format!(
                        "{or}edit `{}` so it says what `{}` says ({}'s text wins){tail}",
                        location(&edit.source),
                        location(&keep.source),
                        display_name(keep.harness),
                    ),
                });
            }
        }
        (None, FindingType::Unknown) if f.category == Category::Instruction => {
            // Differently worded text in one scope: the first harness could
            // read the other's file instead of its own.
            let (Some(first), Some(dir)) = (f.items.first(), &f.scope) else {
                return out;
            };
            let Some(other) = f.items.iter().rev().find(|i| i.harness != first.harness) else {
                return out;
            };
            let file = other
                .source
                .resolved_path
                .as_ref()
                .unwrap_or(&other.source.path);
            let gap = Gap::Instruction {
                file,
                dir,
                paths: None,
            };
            if let Some(action) = adapter(first.harness).and_then(|a| a.remedy(&gap, scene)) {
                out.push(Remedy {
                    harness: first.harness,
                    action: format!(
                        "if the paragraphs mean the same, keep one text: remove them from `{}`, then {action}",
                        first.source.path
                    ),
                });
            }
        }
        _ => {}
    }
    out
}

/// Where the problem `p` is to be fixed, as the start of a remedy: the
/// repository, or (local mode) the user's own, the machine's or a
/// plugin's file, which no commit to the repository fixes.
fn fix_where(p: &playbookdiff_compare::FindingProblem) -> &'static str {
    use playbookdiff_model::SourceScope;
    match p.source.as_ref().map(|s| s.scope) {
        Some(SourceScope::User | SourceScope::Plugin) => "fix your own file",
        Some(SourceScope::Managed) => "have the machine's policy fixed",
        _ => "fix the repository",
    }
}

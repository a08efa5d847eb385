//! Looking into an [`EffectiveAgentConfig`]: instructions by source path,
//! skills by `SKILL.md` path, MCP servers by name, diagnostics by code and
//! source. Lines are 1-based, as in the model.

use playbookdiff_model::{
    Applicability, Diagnostic, DiagnosticCode, EffectiveAgentConfig, Instruction, LoadPhase,
    McpServer, Skill,
};

/// A diagnostic code as a test names it: a [`DiagnosticCode`] or its
/// kebab-case string (`"import-missing"`).
pub trait Code: std::fmt::Debug {
    /// The kebab-case code.
    fn code(&self) -> &str;
}

impl Code for DiagnosticCode {
    fn code(&self) -> &str {
        self.as_str()
    }
}

impl Code for &str {
    fn code(&self) -> &str {
        self
    }
}

/// The received instructions (effective, sorted by `order`) as
/// `(source path, content)`.
pub fn received(cfg: &EffectiveAgentConfig) -> Vec<(String, String)> {
    cfg.received_instructions()
        .iter()
        .map(|i| (i.source.path.to_string(), i.content.clone()))
        .collect()
}

/// The source paths of the received instructions, in order (one per piece).
pub fn received_paths(cfg: &EffectiveAgentConfig) -> Vec<String> {
    received(cfg).into_iter().map(|(p, _)| p).collect()
}

/// The received instructions as `(source path, order)`; an instruction
/// without an order gets `u32::MAX`.
pub fn chain(cfg: &EffectiveAgentConfig) -> Vec<(String, u32)> {
    cfg.received_instructions()
        .iter()
        .map(|i| (i.source.path.to_string(), i.order.unwrap_or(u32::MAX)))
        .collect()
}

/// Every repository path the result names, sorted and without repeats:
/// the sources of its instructions, skills and MCP servers and of its
/// diagnostics. A scope test asserts what is never among them.
pub fn named_paths(cfg: &EffectiveAgentConfig) -> Vec<String> {
    let mut v: Vec<String> = cfg
        .instructions
        .iter()
        .map(|i| &i.source)
        .chain(cfg.skills.iter().map(|s| &s.source))
        .chain(cfg.mcp_servers.iter().map(|m| &m.source))
        .chain(cfg.diagnostics.iter().filter_map(|d| d.source.as_ref()))
        .map(|s| s.path.to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Asserts that `text` (a reason, a message, a rendering) contains
/// `needle`, showing the text when it does not.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not in: {text}");
}

/// Asserts that diagnostic `d` says `needle` (its message contains it),
/// showing the message when it does not.
#[track_caller]
pub fn assert_says(d: impl std::borrow::Borrow<Diagnostic>, needle: &str) {
    assert_contains(&d.borrow().message, needle);
}

/// Asserts a dialect table: `matches(pattern, path)` is `want` for every
/// row `(pattern, path, want)`. Fails naming every row that differs, not
/// only the first. Each adapter keeps its own dialect (the function) and
/// its own table; this is the shared mechanics.
pub fn assert_table(table: &[(&str, &str, bool)], matches: impl Fn(&str, &str) -> bool) {
    let wrong: Vec<String> = table
        .iter()
        .filter(|(pattern, path, want)| matches(pattern, path) != *want)
        .map(|(pattern, path, want)| format!("{pattern} vs {path}: want {want}"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every instruction piece whose source is `path`.
pub fn pieces<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> Vec<&'c Instruction> {
    cfg.instructions
        .iter()
        .filter(|i| i.source.path.as_str() == path)
        .collect()
}

/// The first instruction piece whose source is `path`; panics when none.
pub fn instruction<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> &'c Instruction {
    cfg.instruction_at(path)
        .unwrap_or_else(|| panic!("no instruction {path}: {:#?}", cfg.instructions))
}

/// The only instruction piece whose source is `path`; panics unless there
/// is exactly one.
pub fn one<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> &'c Instruction {
    let v = pieces(cfg, path);
    assert_eq!(v.len(), 1, "expected one piece from {path}, got {v:#?}");
    v[0]
}

/// The skill whose `SKILL.md` (or command file) is at `path`.
pub fn skill<'c>(cfg: &'c EffectiveAgentConfig, path: &str) -> &'c Skill {
    cfg.skill_at(path)
        .unwrap_or_else(|| panic!("no skill {path}: {:#?}", cfg.skills))
}

/// Asserts the applicability of skills: for every row `(path, want)` the
/// skill whose `SKILL.md` (or command file) is at `path` has applicability
/// `want`. Fails naming every row that differs (or has no skill), not only
/// the first.
pub fn assert_skills(cfg: &EffectiveAgentConfig, table: &[(&str, Applicability)]) {
    let wrong = skill_mismatches(cfg, table);
    assert!(wrong.is_empty(), "{wrong:#?}\nskills: {:#?}", cfg.skills);
}

/// The rows of `table` that `cfg` does not satisfy ([`assert_skills`]),
/// each as `path: found, want expected`; empty when all hold.
pub fn skill_mismatches(
    cfg: &EffectiveAgentConfig,
    table: &[(&str, Applicability)],
) -> Vec<String> {
    table
        .iter()
        .filter_map(|(path, want)| match cfg.skill_at(path) {
            Some(s) if s.applicability == *want => None,
            Some(s) => Some(format!("{path}: {:?}, want {want:?}", s.applicability)),
            None => Some(format!("{path}: no skill, want {want:?}")),
        })
        .collect()
}

/// The MCP server named `name`.
pub fn server<'c>(cfg: &'c EffectiveAgentConfig, name: &str) -> &'c McpServer {
    cfg.mcp_server(name)
        .unwrap_or_else(|| panic!("no MCP server {name}: {:#?}", cfg.mcp_servers))
}

/// Every diagnostic with `code`, in the result's order.
pub fn diags(cfg: &EffectiveAgentConfig, code: impl Code) -> Vec<&Diagnostic> {
    cfg.diagnostics
        .iter()
        .filter(|d| d.code.as_str() == code.code())
        .collect()
}

/// Whether any diagnostic has `code`.
pub fn has_code(cfg: &EffectiveAgentConfig, code: impl Code) -> bool {
    !diags(cfg, code).is_empty()
}

/// The only diagnostic with `code`; panics unless there is exactly one.
pub fn one_diag(cfg: &EffectiveAgentConfig, code: impl Code) -> &Diagnostic {
    let v = diags(cfg, code.code());
    assert_eq!(
        v.len(),
        1,
        "expected one {code:?}, got {:#?}",
        cfg.diagnostics
    );
    v[0]
}

/// The diagnostics with `code` whose source is `path`.
pub fn diags_at<'c>(
    cfg: &'c EffectiveAgentConfig,
    code: impl Code,
    path: &str,
) -> Vec<&'c Diagnostic> {
    cfg.diagnostics
        .iter()
        .filter(|d| {
            d.code.as_str() == code.code()
                && d.source.as_ref().is_some_and(|s| s.path.as_str() == path)
        })
        .collect()
}

/// The only diagnostic with `code` whose source is `path`.
pub fn one_at<'c>(cfg: &'c EffectiveAgentConfig, code: impl Code, path: &str) -> &'c Diagnostic {
    let v = diags_at(cfg, code.code(), path);
    assert_eq!(
        v.len(),
        1,
        "expected one {code:?} at {path}, got {:#?}",
        cfg.diagnostics
    );
    v[0]
}

/// The diagnostics whose source is `path` starting at 1-based `line`.
pub fn diags_on_line<'c>(
    cfg: &'c EffectiveAgentConfig,
    path: &str,
    line: u32,
) -> Vec<&'c Diagnostic> {
    cfg.diagnostics
        .iter()
        .filter(|d| {
            d.source.as_ref().is_some_and(|s| {
                s.path.as_str() == path && s.lines.is_some_and(|l| l.start == line)
            })
        })
        .collect()
}

/// The 1-based `(start, end)` lines of a diagnostic's source, if it has
/// lines.
pub fn lines(d: &Diagnostic) -> Option<(u32, u32)> {
    d.source
        .as_ref()
        .and_then(|s| s.lines)
        .map(|l| (l.start, l.end))
}

/// [`lines`], panicking when the diagnostic has none.
pub fn lines_of(d: &Diagnostic) -> (u32, u32) {
    lines(d).unwrap_or_else(|| panic!("diagnostic has no lines: {d:#?}"))
}

/// Asserts an instruction's placement: loadPhase, applicability, order.
pub fn assert_placed(
    i: &Instruction,
    phase: LoadPhase,
    applicability: Applicability,
    order: Option<u32>,
) {
    assert_eq!(
        (i.load_phase, i.applicability, i.order),
        (phase, applicability, order),
        "{}",
        i.id
    );
}

/// Asserts that every id named by an `importedFrom` is an instruction of
/// the result.
pub fn assert_imported_from_resolves(cfg: &EffectiveAgentConfig) {
    for i in &cfg.instructions {
        if let Some(parent) = &i.imported_from {
            assert!(
                cfg.instructions.iter().any(|p| &p.id == parent),
                "{} names a missing parent {parent}",
                i.id
            );
        }
    }
}

/// Asserts that instruction, skill and MCP server ids are unique.
pub fn assert_unique_ids(cfg: &EffectiveAgentConfig) {
    let mut seen = std::collections::BTreeSet::new();
    for id in cfg
        .instructions
        .iter()
        .map(|i| &i.id)
        .chain(cfg.skills.iter().map(|s| &s.id))
        .chain(cfg.mcp_servers.iter().map(|s| &s.id))
    {
        assert!(seen.insert(id.clone()), "duplicate id {id}");
    }
}

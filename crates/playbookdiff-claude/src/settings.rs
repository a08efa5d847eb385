//! Project settings that change discovery: `claudeMdExcludes`,
//! `skillOverrides`, `enabledMcpjsonServers`, `disabledMcpjsonServers`,
//! `enableAllProjectMcpServers`.
//!
//! Source: spec 000 "`claudeMdExcludes`" — project settings load only from
//! `<cwd>/.claude/` with no parent fallback; harness facts A6 (local
//! settings also at the git root since v2.1.211; strict JSON).

use crate::{Compiler, MAX_FILE_BYTES};
use globset::{GlobBuilder, GlobMatcher};
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, Mode, RepoPath, Severity, SourceFormat, SourceRef, SourceScope,
};
use serde_json::Value;

/// One settings file that was read.
#[derive(Debug, Clone)]
pub struct SettingsLayer {
    pub source: SourceRef,
    pub value: serde_json::Map<String, Value>,
}

/// A compiled `claudeMdExcludes` pattern.
pub struct ExcludePattern {
    pub raw: String,
    pub layer: SourceRef,
    matcher: Option<GlobMatcher>,
}

/// The discovery-affecting settings of the analysed context.
#[derive(Default)]
pub struct Settings {
    pub layers: Vec<SettingsLayer>,
    pub excludes: Vec<ExcludePattern>,
    /// Local settings files present in the tree but not read (repo mode).
    pub unread_local: Vec<RepoPath>,
    /// Absolute path prefix standing for the repository root when matching
    /// excludes (`/` + …); the analysed checkout's when known.
    abs_root: String,
}

impl Settings {
    /// The first exclude pattern matching the file at `path`, if any.
    pub fn excluded_by(&self, path: &RepoPath) -> Option<&ExcludePattern> {
        let abs = if path.is_root() {
            self.abs_root.clone()
        } else {
            format!("{}/{}", self.abs_root, path)
        };
        self.excludes
            .iter()
            .find(|p| p.matcher.as_ref().is_some_and(|m| m.is_match(&abs)))
    }

    /// Every value of `key` across layers, lowest precedence first, with
    /// its layer.
    pub fn values<'s>(&'s self, key: &str) -> Vec<(&'s Value, &'s SourceRef)> {
        self.layers
            .iter()
            .filter_map(|l| l.value.get(key).map(|v| (v, &l.source)))
            .collect()
    }

    /// The string array `key` merged across layers (arrays merge).
    pub fn string_list(&self, key: &str) -> Vec<(String, SourceRef)> {
        let mut out = Vec::new();
        for (v, src) in self.values(key) {
            if let Value::Array(items) = v {
                for it in items {
                    if let Value::String(s) = it {
                        out.push((s.clone(), src.clone()));
                    }
                }
            }
        }
        out
    }
}

/// Reads the settings layers that apply to `cwd`.
pub fn load(cx: &mut Compiler<'_, '_>) -> Settings {
    let cwd = cx.ctx.cwd.clone();
    let mut settings = Settings {
        abs_root: cx
            .repo
            .tree()
            .absolute_root()
            .map(|p| p.to_string_lossy().trim_end_matches('/').to_string())
            .unwrap_or_else(|| "/repository".to_string()),
        ..Settings::default()
    };

    // Ancestors' project settings are not read: say so where they exist.
    for dir in cwd.ancestors_root_first() {
        if dir == cwd {
            continue;
        }
        if let Some(p) = dir.join(".claude/settings.json") {
            if cx.repo.kind(&p).is_some() {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::SettingsNotInCwd,
                        format!(
                            "`{p}` is not read: Claude Code loads project settings only from `<cwd>/.claude/` \
                             (here `{cwd}/.claude/`), without looking in parent directories."
                        ),
                    )
                    .at(SourceRef::project(p.clone(), SourceFormat::Json)),
                );
            }
        }
    }

    let mut candidates: Vec<(RepoPath, SourceScope)> = Vec::new();
    if let Some(p) = cwd.join(".claude/settings.json") {
        candidates.push((p, SourceScope::Project));
    }
    let mut local = Vec::new();
    if let Some(p) = RepoPath::root().join(".claude/settings.local.json") {
        local.push(p);
    }
    if let Some(p) = cwd.join(".claude/settings.local.json") {
        if !local.contains(&p) {
            local.push(p);
        }
    }
    for p in local {
        if cx.repo.kind(&p).is_none() {
            continue;
        }
        match cx.ctx.mode {
            Mode::Local => candidates.push((p, SourceScope::Local)),
            Mode::Repo => {
                settings.unread_local.push(p.clone());
                cx.diag(
                Diagnostic::new(
                    DiagnosticCode::LocalConfigUnavailable,
                    format!(
                        "`{p}` is personal configuration and is not read in repo mode; it can exclude instructions, \
                         override skills and disable .mcp.json servers (run with --mode local to include it)."
                    ),
                )
                .at(SourceRef { scope: SourceScope::Local, ..SourceRef::project(p.clone(), SourceFormat::Json) }),
                )
            }
        }
    }

    for (path, scope) in candidates {
        if cx.repo.kind(&path).is_none() || !cx.check_link(&path, SourceFormat::Json) {
            continue;
        }
        let Some(text) = cx.read(&path, SourceFormat::Json) else {
            continue;
        };
        let source = SourceRef {
            scope,
            ..cx.source_ref(&path, scope, SourceFormat::Json)
        };
        match parse_strict_json(&text.text) {
            Ok(Value::Object(map)) => settings.layers.push(SettingsLayer { source, value: map }),
            Ok(_) => cx.diag(
                Diagnostic::new(DiagnosticCode::InvalidJson, format!("`{path}` is not a JSON object; it is ignored."))
                    .at(source),
            ),
            Err((msg, line)) => cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidJson,
                    format!("`{path}` is not valid JSON ({msg}); Claude Code rejects it, so none of its settings apply."),
                )
                .at(source.with_lines(line, line)),
            ),
        }
    }
    let _ = MAX_FILE_BYTES;

    // claudeMdExcludes: arrays merge across layers.
    for (v, src) in settings
        .values("claudeMdExcludes")
        .into_iter()
        .map(|(v, s)| (v.clone(), s.clone()))
        .collect::<Vec<_>>()
    {
        let Value::Array(items) = v else {
            cx.diag(
                Diagnostic::new(
                    DiagnosticCode::InvalidValue,
                    format!(
                        "`claudeMdExcludes` in `{}` is not an array of strings; it is ignored.",
                        src.path
                    ),
                )
                .at(src.clone()),
            );
            continue;
        };
        for it in items {
            let Value::String(raw) = it else { continue };
            let matcher = GlobBuilder::new(&raw)
                .literal_separator(true)
                .build()
                .ok()
                .map(|g| g.compile_matcher());
            if matcher.is_none() {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::InvalidGlob,
                        format!(
                            "`claudeMdExcludes` pattern `{raw}` is invalid and excludes nothing."
                        ),
                    )
                    .at(src.clone()),
                );
            } else if raw.starts_with('/') {
                cx.diag(
                    Diagnostic::new(
                        DiagnosticCode::ExcludeMachineSpecific,
                        format!(
                            "`claudeMdExcludes` pattern `{raw}` is an absolute path: it matches only where the \
                             repository is checked out at that location. Start it with `**/` to make it portable."
                        ),
                    )
                    .at(src.clone()),
                );
            }
            settings.excludes.push(ExcludePattern {
                raw,
                layer: src.clone(),
                matcher,
            });
        }
    }
    settings
}

/// Parses strict JSON. Errors give the message and the 1-based line.
pub fn parse_strict_json(text: &str) -> Result<Value, (String, u32)> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str::<Value>(t).map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        (msg, e.line().max(1) as u32)
    })
}

/// Lowers a diagnostic's severity (used where a finding is informational
/// in this context).
#[allow(dead_code)]
pub fn info(d: Diagnostic) -> Diagnostic {
    d.with_severity(Severity::Info)
}

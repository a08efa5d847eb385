//! `playbookdiff mcp`: a Model Context Protocol server on standard input
//! and output (rmcp, the official Rust SDK), for agents that want to ask
//! what each agent receives before they write configuration (docs/mcp.md).
//!
//! Tools `compile`, `check`, `explain`, `diff` and `layout` take the CLI's options as
//! JSON arguments (their JSON Schemas are generated from the types below)
//! and answer with the CLI's JSON document for `--format json` as
//! structured content (the output schemas are `schema/*.json`). The
//! fidelity report (docs/fidelity.md) is the resource
//! `playbookdiff://fidelity`.
//!
//! Each call runs this same executable as a child process with `--format
//! json`, so the server is read-only exactly as the CLI is, holds no state
//! between calls, and one request never blocks another (each child is
//! awaited on its own task). Bad arguments are tool errors (`isError`)
//! that name the argument: a missing or unknown field, a repository that
//! is not a directory, an unknown harness, or the CLI's one-line refusal
//! with its option spelled as the argument.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The URI of the fidelity report resource.
const FIDELITY_URI: &str = "playbookdiff://fidelity";

/// The fidelity report: how closely each adapter matches its agent.
const FIDELITY: &str = include_str!("../../../docs/fidelity.md");

/// Serves MCP on stdin and stdout until the client closes stdin. Errors:
/// the runtime cannot start, or the connection fails (as a one-line
/// message).
pub(crate) fn run() -> Result<(), String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("the server cannot find its own executable: {e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("the server cannot start: {e}"))?;
    runtime.block_on(async move {
        let service = Server { exe }
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("the MCP connection failed: {e}"))?;
        service
            .waiting()
            .await
            .map(drop)
            .map_err(|e| format!("the MCP server stopped: {e}"))
    })
}

/// The tools, a closed set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ToolName {
    Compile,
    Check,
    Explain,
    Diff,
    Layout,
    RoundContext,
    RoundCheck,
    RoundEscalate,
    RoundAudit,
}

impl ToolName {
    const ALL: [ToolName; 9] = [
        ToolName::Compile,
        ToolName::Check,
        ToolName::Explain,
        ToolName::Diff,
        ToolName::Layout,
        ToolName::RoundContext,
        ToolName::RoundCheck,
        ToolName::RoundEscalate,
        ToolName::RoundAudit,
    ];

    fn as_str(self) -> &'static str {
        match self {
            ToolName::Compile => "compile",
            ToolName::Check => "check",
            ToolName::Explain => "explain",
            ToolName::Diff => "diff",
            ToolName::Layout => "layout",
            ToolName::RoundContext => "round_context",
            ToolName::RoundCheck => "round_check",
            ToolName::RoundEscalate => "round_escalate",
            ToolName::RoundAudit => "round_audit",
        }
    }

    fn description(self) -> &'static str {
        match self {
            ToolName::Compile => {
                "What one agent (harness) receives from a repository under one context: every \
                 instruction in order, skill and MCP server, with file, lines and why. The \
                 document of `playbookdiff compile --format json`."
            }
            ToolName::Check => {
                "Compare what the agents receive under one context (or in every launch directory \
                 with allDirs) and list the findings, each with its evidence, explanation and \
                 remedy. The document of `playbookdiff check --format json` without `configs` \
                 (call `compile` for what one agent receives)."
            }
            ToolName::Explain => {
                "One finding of `check` by its id, with its evidence on each side and a fix. \
                 The document of `playbookdiff explain --format json`."
            }
            ToolName::Diff => {
                "What each agent receives differently between two git revisions, and the \
                 findings introduced, resolved and unchanged. The document of `playbookdiff \
                 diff --format json`."
            }
            ToolName::Layout => {
                "Where each agent (harness) reads its configuration, per profiled release: \
                 every surface kind with its paths, settings keys, expanded tokens, scope and \
                 whether the analysis models it. Needs no repository. The document of \
                 `playbookdiff layout --format json`."
            }
            ToolName::RoundContext => {
                "Start a round of work under an approved brief: the context packet (the brief, \
                 the files it may write and must not change, the rulings, what each agent \
                 receives where the scope lies, the linked documents). The document of \
                 `playbookdiff round context --format json`."
            }
            ToolName::RoundCheck => {
                "Check a path against the round's brief: what the guard would answer to a \
                 write of it (allow, warn, ask or deny), with the rule and the reason, and the \
                 escalation command for a protected file. Writes nothing."
            }
            ToolName::RoundEscalate => {
                "Request an escalation when the brief is not enough: WRITES a pending row \
                 (path, reason, options, recommendation) into the brief's Rulings table, as \
                 `playbookdiff round escalate` does; a person then rules on it in a signed \
                 commit. The only tool that changes a file."
            }
            ToolName::RoundAudit => {
                "Audit a round: what base..HEAD changed against the brief as the base holds it \
                 (files outside the scope, protected files and their rulings, agent \
                 configuration, dependencies, what could not be measured), each finding with \
                 its severity; `fails` says whether the round fails. The document of \
                 `playbookdiff round audit --format json`."
            }
        }
    }

    fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// The JSON Schema of the arguments.
    fn input_schema(self) -> Value {
        let schema = match self {
            ToolName::Compile => schemars::schema_for!(CompileArgs),
            ToolName::Check => schemars::schema_for!(CheckArgs),
            ToolName::Explain => schemars::schema_for!(ExplainArgs),
            ToolName::Diff => schemars::schema_for!(DiffArgs),
            ToolName::Layout => schemars::schema_for!(LayoutArgs),
            ToolName::RoundContext => schemars::schema_for!(RoundContextArgs),
            ToolName::RoundCheck => schemars::schema_for!(RoundCheckArgs),
            ToolName::RoundEscalate => schemars::schema_for!(RoundEscalateArgs),
            ToolName::RoundAudit => schemars::schema_for!(RoundAuditArgs),
        };
        serde_json::to_value(schema).unwrap_or_default()
    }

    /// The JSON Schema of the result: the output contract's document
    /// (`check`'s without `configs`, see [`document`]).
    fn output_schema(self) -> Value {
        let text = match self {
            ToolName::Compile => playbookdiff_render::json_schema(),
            ToolName::Check | ToolName::Explain => playbookdiff_render::check_schema(),
            ToolName::Diff => playbookdiff_render::diff::diff_schema(),
            ToolName::Layout => playbookdiff_render::harness_layout::layout_schema(),
            ToolName::RoundContext => playbookdiff_render::round::context_schema(),
            ToolName::RoundAudit => playbookdiff_render::round_audit::audit_schema(),
            ToolName::RoundCheck | ToolName::RoundEscalate => return Value::Null,
        };
        let mut schema: Value = serde_json::from_str(&text).unwrap_or_default();
        if self == ToolName::Check {
            if let Some(s) = schema.as_object_mut() {
                if let Some(Value::Object(p)) = s.get_mut("properties") {
                    p.shift_remove("configs");
                }
                if let Some(Value::Array(r)) = s.get_mut("required") {
                    r.retain(|k| k != "configs");
                }
            }
        }
        schema
    }

    fn tool(self) -> Tool {
        let object = |v: Value| Arc::new(v.as_object().cloned().unwrap_or_default());
        let tool = Tool::new(
            self.as_str(),
            self.description(),
            object(self.input_schema()),
        )
        .with_annotations(ToolAnnotations::new().read_only(self != ToolName::RoundEscalate));
        match self {
            // `explain`'s document is not the whole `check` document; the
            // check of a path and the escalation have no schema file.
            ToolName::Explain | ToolName::RoundCheck | ToolName::RoundEscalate => tool,
            _ => tool.with_raw_output_schema(object(self.output_schema())),
        }
    }

    /// The command line for `args`, or the argument that is wrong.
    fn command_line(self, args: Map<String, Value>) -> Result<Vec<String>, String> {
        let value = Value::Object(args);
        let argv = match self {
            ToolName::Compile => parse::<CompileArgs>(value)?.argv()?,
            ToolName::Check => parse::<CheckArgs>(value)?.argv()?,
            ToolName::Explain => parse::<ExplainArgs>(value)?.argv()?,
            ToolName::Diff => parse::<DiffArgs>(value)?.argv()?,
            ToolName::Layout => parse::<LayoutArgs>(value)?.argv()?,
            ToolName::RoundContext => parse::<RoundContextArgs>(value)?.argv()?,
            ToolName::RoundCheck => parse::<RoundCheckArgs>(value)?.argv()?,
            ToolName::RoundEscalate => parse::<RoundEscalateArgs>(value)?.argv()?,
            ToolName::RoundAudit => parse::<RoundAuditArgs>(value)?.argv()?,
        };
        Ok(argv)
    }
}

/// The arguments as `T`; the error names the missing, unknown or
/// mistyped argument.
fn parse<T: for<'de> Deserialize<'de>>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            format!("bad arguments: {}", e.inner())
        } else {
            format!("argument `{path}`: {}", e.inner())
        }
    })
}

/// Where the agents are launched, shared by `compile`, `check` and
/// `explain` (each lists the fields, so that an unknown argument is named
/// in the error).
struct Context<'a> {
    repo: &'a str,
    cwd: Option<&'a str>,
    target: Option<&'a str>,
    mode: Option<Mode>,
}

/// `repo` (only what is committed to the repository; the default) or
/// `local` (also the user's personal, git-ignored files in it).
#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Repo,
    Local,
}

impl Context<'_> {
    fn argv(&self, argv: &mut Vec<String>) -> Result<(), String> {
        argv.push(repository(self.repo)?);
        argv.push("--root".into());
        for (option, value) in [("--cwd", self.cwd), ("--target", self.target)] {
            if let Some(v) = value {
                argv.extend([option.to_string(), v.to_string()]);
            }
        }
        if let Some(mode) = self.mode {
            let mode = match mode {
                Mode::Repo => "repo",
                Mode::Local => "local",
            };
            argv.extend(["--mode".into(), mode.into()]);
        }
        Ok(())
    }
}

/// `repo` as an absolute path to a directory, or the error naming it.
fn repository(repo: &str) -> Result<String, String> {
    let path = Path::new(repo);
    if !path.is_absolute() {
        return Err(format!(
            "argument `repo`: `{}` is not an absolute path; give the repository root's absolute path",
            repo.escape_debug()
        ));
    }
    if !path.is_dir() {
        return Err(format!(
            "argument `repo`: `{}` is not a directory",
            repo.escape_debug()
        ));
    }
    Ok(repo.to_string())
}

/// `harness` (or an element of `harnesses`) checked against the
/// registered harnesses.
fn harness_option(argument: &str, id: &str) -> Result<[String; 2], String> {
    match playbookdiff_registry::by_id(id) {
        Some(_) => Ok(["--harness".into(), id.into()]),
        None => Err(format!(
            "argument `{argument}`: {}",
            playbookdiff_registry::unknown_harness(id)
        )),
    }
}

/// Arguments of `compile`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CompileArgs {
    /// The repository root: an absolute path to a directory (the server's
    /// working directory is not the client's).
    repo: String,
    /// The agent: `claude-code`, `codex`, `copilot`, `gemini` or `opencode`.
    harness: String,
    /// The launch directory, relative to the repository root (default: the
    /// root).
    #[serde(default)]
    cwd: Option<String>,
    /// A file the agent reads or edits, relative to the repository root:
    /// the path-scoped rules and instructions it triggers load.
    #[serde(default)]
    target: Option<String>,
    /// `repo` (the default) or `local`.
    #[serde(default)]
    mode: Option<Mode>,
}

impl CompileArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = vec!["compile".to_string()];
        Context {
            repo: &self.repo,
            cwd: self.cwd.as_deref(),
            target: self.target.as_deref(),
            mode: self.mode,
        }
        .argv(&mut argv)?;
        argv.extend(harness_option("harness", &self.harness)?);
        Ok(argv)
    }
}

/// Arguments of `check`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CheckArgs {
    /// The repository root: an absolute path to a directory.
    repo: String,
    /// The launch directory, relative to the repository root (default: the
    /// root).
    #[serde(default)]
    cwd: Option<String>,
    /// A file the agent reads or edits, relative to the repository root.
    #[serde(default)]
    target: Option<String>,
    /// `repo` (the default) or `local`.
    #[serde(default)]
    mode: Option<Mode>,
    /// The agents to compare (default: every supported one, or those of
    /// the repository's `playbookdiff.toml`).
    #[serde(default)]
    harnesses: Vec<String>,
    /// Check every launch directory of the repository instead of `cwd`.
    #[serde(default)]
    all_dirs: bool,
}

impl CheckArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = vec!["check".to_string()];
        Context {
            repo: &self.repo,
            cwd: self.cwd.as_deref(),
            target: self.target.as_deref(),
            mode: self.mode,
        }
        .argv(&mut argv)?;
        for h in &self.harnesses {
            argv.extend(harness_option("harnesses", h)?);
        }
        if self.all_dirs {
            argv.push("--all-dirs".into());
        }
        Ok(argv)
    }
}

/// Arguments of `explain`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ExplainArgs {
    /// The id of a finding, as `check` gives it.
    finding_id: String,
    /// The repository root: an absolute path to a directory.
    repo: String,
    /// The launch directory `check` was run for (default: the root).
    #[serde(default)]
    cwd: Option<String>,
    /// The target `check` was run for, if any.
    #[serde(default)]
    target: Option<String>,
    /// `repo` (the default) or `local`.
    #[serde(default)]
    mode: Option<Mode>,
}

impl ExplainArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = vec!["explain".to_string(), self.finding_id.clone()];
        Context {
            repo: &self.repo,
            cwd: self.cwd.as_deref(),
            target: self.target.as_deref(),
            mode: self.mode,
        }
        .argv(&mut argv)?;
        Ok(argv)
    }
}

/// Arguments of `diff`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DiffArgs {
    /// The root of the git repository: an absolute path.
    repo: String,
    /// `A..B` (commit A against commit B), `A...B` (B against its merge
    /// base with A) or `REV` (that commit against the working tree).
    range: String,
    /// The agents to compare (default: every supported one).
    #[serde(default)]
    harnesses: Vec<String>,
}

impl DiffArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = vec![
            "diff".to_string(),
            self.range.clone(),
            repository(&self.repo)?,
        ];
        for h in &self.harnesses {
            argv.extend(harness_option("harnesses", h)?);
        }
        Ok(argv)
    }
}

/// Arguments of `layout`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LayoutArgs {
    /// The agents to describe (default: every supported one).
    #[serde(default)]
    harnesses: Vec<String>,
    /// Releases to describe instead of the profiled ones, as
    /// `HARNESS=VERSION` (`claude-code=2.1.300`); each maps to its nearest
    /// profile, with a warning when it is not a profiled release.
    #[serde(default)]
    agent_versions: Vec<String>,
}

impl LayoutArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = vec!["layout".to_string()];
        for h in &self.harnesses {
            argv.extend(harness_option("harnesses", h)?);
        }
        for v in &self.agent_versions {
            argv.extend(["--agent-version".to_string(), v.clone()]);
        }
        Ok(argv)
    }
}

/// `round --repo REPO [--brief ID] SUBCOMMAND`'s start: the subcommand,
/// the repository and the brief when given.
fn round_argv(sub: &str, repo: &str, brief: Option<&str>) -> Result<Vec<String>, String> {
    let mut argv = vec![
        "round".to_string(),
        sub.to_string(),
        "--repo".to_string(),
        repository(repo)?,
    ];
    if let Some(id) = brief {
        argv.extend(["--brief".to_string(), id.to_string()]);
    }
    Ok(argv)
}

/// Arguments of `round_context`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RoundContextArgs {
    /// The repository root: an absolute path.
    repo: String,
    /// The brief's id (default: the one `PLAYBOOKDIFF_BRIEF` or the branch
    /// names).
    #[serde(default)]
    brief: Option<String>,
    /// The character budget of the brief and the documents it links to
    /// (default 60,000).
    #[serde(default)]
    budget: Option<u64>,
}

impl RoundContextArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = round_argv("context", &self.repo, self.brief.as_deref())?;
        if let Some(b) = self.budget {
            argv.extend(["--budget".to_string(), b.to_string()]);
        }
        Ok(argv)
    }
}

/// Arguments of `round_check`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RoundCheckArgs {
    /// The repository root: an absolute path.
    repo: String,
    /// The file to write, relative to the repository root.
    path: String,
    /// The brief's id (default: the one `PLAYBOOKDIFF_BRIEF` or the branch
    /// names).
    #[serde(default)]
    brief: Option<String>,
}

impl RoundCheckArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = round_argv("check", &self.repo, self.brief.as_deref())?;
        argv.extend(["--path".to_string(), self.path.clone()]);
        Ok(argv)
    }
}

/// Arguments of `round_escalate`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RoundEscalateArgs {
    /// The repository root: an absolute path.
    repo: String,
    /// The file the round needs, relative to the repository root.
    path: String,
    /// Why the brief is not enough.
    reason: String,
    /// The options, at least one.
    options: Vec<String>,
    /// Which option the agent recommends, and why.
    recommendation: String,
    /// The brief's id (default: the one `PLAYBOOKDIFF_BRIEF` or the branch
    /// names).
    #[serde(default)]
    brief: Option<String>,
}

impl RoundEscalateArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = round_argv("escalate", &self.repo, self.brief.as_deref())?;
        argv.extend(["--path".to_string(), self.path.clone()]);
        argv.extend(["--reason".to_string(), self.reason.clone()]);
        for o in &self.options {
            argv.extend(["--option".to_string(), o.clone()]);
        }
        argv.extend(["--recommendation".to_string(), self.recommendation.clone()]);
        Ok(argv)
    }
}

/// Arguments of `round_audit`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RoundAuditArgs {
    /// The repository root: an absolute path.
    repo: String,
    /// The brief's id (default: the one `PLAYBOOKDIFF_BRIEF` or the branch
    /// names).
    #[serde(default)]
    brief: Option<String>,
    /// What the round is measured from (default: the brief's
    /// `baseBranch`).
    #[serde(default)]
    base: Option<String>,
}

impl RoundAuditArgs {
    fn argv(&self) -> Result<Vec<String>, String> {
        let mut argv = round_argv("audit", &self.repo, self.brief.as_deref())?;
        if let Some(b) = &self.base {
            argv.extend(["--base".to_string(), b.clone()]);
        }
        Ok(argv)
    }
}

/// The CLI's options as the tools' argument names, to name the argument
/// in a refusal of the CLI, and the words of a refusal about the argument
/// that names no option (a revision of `diff`'s range).
const OPTIONS: [(&str, &str); 15] = [
    ("--path", "path"),
    ("--reason", "reason"),
    ("--option", "options"),
    ("--recommendation", "recommendation"),
    ("--brief", "brief"),
    ("--base", "base"),
    ("--budget", "budget"),
    ("--cwd", "cwd"),
    ("--target", "target"),
    ("--mode", "mode"),
    ("--harness", "harnesses"),
    ("--all-dirs", "allDirs"),
    ("--agent-version", "agentVersions"),
    ("<RANGE>", "range"),
    ("revision", "range"),
];

/// The CLI's one-line refusal (exit status 2), led by the argument it is
/// about (`argument `cwd`: …`) when it names one.
fn refusal(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("the analysis could not run");
    let text = line.trim_start_matches("error: ");
    match OPTIONS.iter().find(|(needle, _)| text.contains(needle)) {
        Some((_, argument)) => format!("argument `{argument}`: {text}"),
        None => text.to_string(),
    }
}

#[derive(Clone)]
struct Server {
    exe: PathBuf,
}

impl Server {
    /// Runs `argv` with `--format json` and answers with its document, or
    /// with a tool error.
    async fn answer(&self, argv: Vec<String>, json: bool) -> CallToolResult {
        let format: &[&str] = if json { &["--format", "json"] } else { &[] };
        let output = tokio::process::Command::new(&self.exe)
            .args(&argv)
            .args(format)
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true)
            .output()
            .await;
        let output = match output {
            Ok(o) => o,
            Err(e) => return tool_error(format!("the analysis could not start: {e}")),
        };
        match output.status.code() {
            Some(0 | 1) if !json => CallToolResult::success(vec![ContentBlock::text(
                String::from_utf8_lossy(&output.stdout)
                    .trim_end()
                    .to_string(),
            )]),
            Some(0 | 1) => document(output.stdout),
            _ => tool_error(refusal(&String::from_utf8_lossy(&output.stderr))),
        }
    }
}

/// The CLI's JSON document as the result (structured content, and the
/// same as text), without the agents' configurations (`configs`) in a
/// document that has findings: `compile` gives one agent's configuration.
///
/// Claude Code 2.1.332 hands the model only a 2 KB preview of a tool
/// result above about 80 KB (it saves the rest to a file), and the
/// configurations come first in a `check` document (47 KB of the
/// example's 88 KB): with them, the model saw none of the findings
/// (scripts/oracle/mcp_round_trip.py).
fn document(stdout: Vec<u8>) -> CallToolResult {
    let mut value = match serde_json::from_slice::<Value>(&stdout) {
        Ok(v) => v,
        Err(e) => return tool_error(format!("the analysis gave no JSON document: {e}")),
    };
    if let Some(doc) = value.as_object_mut() {
        if doc.contains_key("findings") {
            doc.shift_remove("configs");
        }
    }
    CallToolResult::structured(value)
}

fn tool_error(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(
            "playbookdiff",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            ToolName::ALL.into_iter().map(ToolName::tool).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(tool) = ToolName::parse(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name.escape_debug()),
                None,
            ));
        };
        let result = match tool.command_line(request.arguments.unwrap_or_default()) {
            Ok(argv) => self.answer(argv, tool != ToolName::RoundEscalate).await,
            Err(e) => tool_error(e),
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            FIDELITY_URI,
            "fidelity",
        )
        .with_description(
            "The fidelity report: how closely each adapter matches its real agent (docs/fidelity.md)",
        )
        .with_mime_type("text/markdown")]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != FIDELITY_URI {
            return Err(ErrorData::resource_not_found(
                format!(
                    "no resource `{}`; the one resource is {FIDELITY_URI}",
                    request.uri
                ),
                None,
            ));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text(FIDELITY, FIDELITY_URI)]).into())
    }

    /// A request whose method MCP does not define: JSON-RPC's "method not
    /// found" (-32601), naming the method and the ones this server answers
    /// (rmcp's default message is the bare method name).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            unknown_method(&request.method),
            None,
        ))
    }
}

/// The MCP methods this server answers, for the message of an unknown one.
const ANSWERED_METHODS: &str =
    "initialize, ping, tools/list, tools/call, resources/list and resources/read";

/// The message of a request for `method`, which MCP does not define.
fn unknown_method(method: &str) -> String {
    format!(
        "unknown method `{}`; this server answers {ANSWERED_METHODS}",
        method.escape_debug()
    )
}

/// The server's instructions to its client: what it answers, naming every
/// registered harness by its display name (from the registry, so a new
/// harness is named without an edit here).
fn instructions() -> String {
    let names: Vec<&str> = playbookdiff_registry::adapters()
        .iter()
        .map(|a| a.harness().display_name())
        .collect();
    format!(
        "Read-only answers about what each coding agent ({}) receives from a repository: \
         `compile` for one agent, `check` to compare them, `explain` for one finding, `diff` \
         between revisions, `layout` for where each agent reads each surface; for a round of \
         work under a brief, `round_context` to start, `round_check` before a write, \
         `round_escalate` when the brief is not enough (it writes the brief's Rulings row), \
         `round_audit` at the end. Give `repo` as an absolute path.",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    /// `playbookdiff mcp --help` and the README's line for `mcp` name
    /// every tool the server lists (both left out `layout`).
    #[test]
    fn the_help_and_the_readme_name_every_tool() {
        use clap::CommandFactory;
        let mut cli = crate::cli::Cli::command();
        let help = cli
            .find_subcommand_mut("mcp")
            .expect("the mcp command")
            .render_long_help()
            .to_string();
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
                .unwrap();
        let line = readme
            .lines()
            .find(|l| l.starts_with("playbookdiff mcp "))
            .expect("the README's mcp line");
        for tool in ToolName::ALL {
            let name = tool.as_str();
            assert!(
                help.contains(&format!("`{name}`")),
                "help lacks {name}: {help}"
            );
            assert!(
                line.split([' ', ',']).any(|w| w == name),
                "README lacks {name}: {line}"
            );
        }
    }

    #[test]
    fn bad_arguments_name_the_argument() {
        let dir = std::env::temp_dir();
        let root = dir.to_str().unwrap();
        let cases = [
            (ToolName::Check, serde_json::json!({}), "`repo`"),
            (
                ToolName::Check,
                serde_json::json!({"repo": root, "colour": 1}),
                "`colour`",
            ),
            (
                ToolName::Check,
                serde_json::json!({"repo": "relative"}),
                "argument `repo`",
            ),
            (
                ToolName::Check,
                serde_json::json!({"repo": "/no/such/dir"}),
                "argument `repo`",
            ),
            (
                ToolName::Check,
                serde_json::json!({"repo": root, "allDirs": "yes"}),
                "argument `allDirs`",
            ),
            (
                ToolName::Check,
                serde_json::json!({"repo": root, "harnesses": ["claud"]}),
                "argument `harnesses`",
            ),
            (
                ToolName::Check,
                serde_json::json!({"repo": root, "mode": "remote"}),
                "argument `mode`",
            ),
            (
                ToolName::Compile,
                serde_json::json!({"repo": root}),
                "`harness`",
            ),
            (
                ToolName::Explain,
                serde_json::json!({"repo": root}),
                "`findingId`",
            ),
            (ToolName::Diff, serde_json::json!({"repo": root}), "`range`"),
        ];
        for (tool, value, named) in cases {
            let e = tool.command_line(args(value.clone())).unwrap_err();
            assert!(e.contains(named), "{value}: {e}");
        }
    }

    #[test]
    fn round_tools_become_round_commands_and_only_the_escalation_writes() {
        let dir = std::env::temp_dir();
        let root = dir.to_str().unwrap();
        let argv = ToolName::RoundEscalate
            .command_line(args(serde_json::json!({
                "repo": root, "path": "m.sql", "reason": "r", "options": ["a", "b"],
                "recommendation": "a", "brief": "012"
            })))
            .unwrap();
        assert_eq!(
            argv,
            [
                "round",
                "escalate",
                "--repo",
                root,
                "--brief",
                "012",
                "--path",
                "m.sql",
                "--reason",
                "r",
                "--option",
                "a",
                "--option",
                "b",
                "--recommendation",
                "a"
            ]
        );
        let argv = ToolName::RoundAudit
            .command_line(args(serde_json::json!({"repo": root, "base": "main"})))
            .unwrap();
        assert_eq!(argv, ["round", "audit", "--repo", root, "--base", "main"]);
        let e = ToolName::RoundCheck
            .command_line(args(serde_json::json!({"repo": root})))
            .unwrap_err();
        assert!(e.contains("path"), "{e}");
        for t in ToolName::ALL {
            let read_only = t.tool().annotations.and_then(|a| a.read_only_hint);
            assert_eq!(
                read_only,
                Some(t != ToolName::RoundEscalate),
                "{}",
                t.as_str()
            );
        }
    }

    #[test]
    fn arguments_become_the_command_line() {
        let root = std::env::temp_dir().to_str().unwrap().to_string();
        let argv = ToolName::Check
            .command_line(args(serde_json::json!({
                "repo": root, "cwd": "apps/web", "mode": "local",
                "harnesses": ["codex", "gemini"], "allDirs": true,
            })))
            .unwrap();
        assert_eq!(
            argv,
            [
                "check",
                &root,
                "--root",
                "--cwd",
                "apps/web",
                "--mode",
                "local",
                "--harness",
                "codex",
                "--harness",
                "gemini",
                "--all-dirs"
            ]
        );
    }

    #[test]
    fn every_tool_has_an_object_schema_for_its_arguments_and_all_but_one_are_read_only() {
        for t in ToolName::ALL {
            let tool = t.tool();
            assert_eq!(
                tool.input_schema.get("type"),
                Some(&Value::from("object")),
                "{t:?}"
            );
            assert_eq!(
                tool.annotations.and_then(|a| a.read_only_hint),
                Some(t != ToolName::RoundEscalate),
                "only the escalation writes (the brief's Rulings row)"
            );
            assert_eq!(ToolName::parse(t.as_str()), Some(t));
        }
    }

    #[test]
    fn a_document_with_findings_leaves_out_the_configurations_only() {
        let check =
            br#"{"schemaVersion":1,"configs":{"codex":{}},"findings":[{"id":"f"}],"failing":1}"#;
        let compile = br#"{"schemaVersion":1,"harness":"codex","instructions":[]}"#;
        for (doc, kept) in [
            (
                &check[..],
                r#"{"schemaVersion":1,"findings":[{"id":"f"}],"failing":1}"#,
            ),
            (
                &compile[..],
                r#"{"schemaVersion":1,"harness":"codex","instructions":[]}"#,
            ),
        ] {
            let result = document(doc.to_vec());
            // In the document's own order, as structured content and text.
            assert_eq!(result.structured_content.unwrap().to_string(), kept);
            assert_eq!(result.content[0].as_text().unwrap().text, kept);
        }
        let schema = ToolName::Check.output_schema();
        assert!(schema["properties"].get("configs").is_none());
        assert!(schema["properties"].get("findings").is_some());
    }

    #[test]
    fn a_refusal_names_the_argument() {
        for (stderr, argument) in [
            (
                "error: --cwd 'nope' is not a directory of the repository\n",
                "cwd",
            ),
            ("error: revision 'x' names no commit\n", "range"),
            ("error: --harness codex given twice\n", "harnesses"),
        ] {
            let text = refusal(stderr);
            assert!(
                text.starts_with(&format!("argument `{argument}`: ")),
                "{text}"
            );
        }
    }
}

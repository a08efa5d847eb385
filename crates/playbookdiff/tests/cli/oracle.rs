//! The adapters against the real agents: a differential test over recorded
//! observations (no agent runs here; `scripts/oracle/record.py` records them).
//!
//! For every case of `oracle/cases.toml` and every profiled version of each
//! agent the case names, this compiles the same repository, launch
//! directory and target with the registered adapter of that agent, for that
//! version, and compares what the observation can see:
//!
//! - Claude Code: the memory files of the first request in request order
//!   (`startup-files`), their text with surrounding whitespace trimmed
//!   (`startup-text`), which file imported which (`imports`, from the
//!   `InstructionsLoaded` hook), the skills listed to the model by command name
//!   (`skills`), the MCP servers of the `init` line (`mcp-servers`), and for
//!   a target the files the scripted `Read` attached (`on-demand-files`),
//!   and the repository's hooks that fired, from the marker files the
//!   hook fixtures' hooks write (`hooks`);
//! - Codex (trusted project, or the case's own `trust` entries): whether it starts (`start`), the AGENTS.md
//!   chain byte for byte (`agents-md`), the advertised skills by name and
//!   path (`skills`), `codex mcp list` (`mcp-servers`), and for a
//!   repository whose `.codex` registers hooks the app server's
//!   `hooks/list` (`hooks`: file, event, and whether the hook may run);
//! - OpenCode: the plugin modules `opencode debug config` lists, against
//!   the modules the adapter's hooks come from (`plugin-modules`); whether it
//!   starts (`start`, from `opencode debug config`),
//!   the instruction files of the first request in order
//!   (`startup-files`), the skills that request lists (`skills`), every
//!   skill `opencode debug skill` finds by name and file (`skill-files`),
//!   the enabled servers of the merged `mcp` object (`mcp-servers`), and for
//!   a target the files a `read` of it attaches (`on-demand-files`);
//! - Copilot CLI (the repository in `trusted_folders`): the
//!   `<custom_instruction>` blocks of the first request in order, each
//!   named by the file whose text it holds, with their imports
//!   (`instructions`), the path-specific files inlined after them
//!   (`inlined`), the table of files injected on view (`on-demand-table`),
//!   the project skills of `session.skills_loaded` (`skills`) and the
//!   workspace servers of `session.mcp_servers_loaded` (`mcp-servers`).
//! - Gemini CLI (the workspace trusted): whether it starts (`start`), the
//!   context files of the main request in order (`startup-files`), which
//!   file each inlined import came from (`imports`), the skills the
//!   request lists (`skills`), the servers `gemini mcp list` does not show
//!   blocked, with their transport (`mcp-servers`), for a target the
//!   context files a scripted `read_file` of it added (`on-demand-files`),
//!   and where recorded the project subagents the request lists with every
//!   file acknowledged (`subagents`) and the commands that run
//!   (`commands`).
//!
//! Every disagreement must be listed in `oracle/known-disagreements/
//! <agent>.toml`, and every listed one must still occur. `docs/fidelity.md`
//! is generated here (`UPDATE_GENERATED=1` rewrites it; otherwise a stale
//! file fails the test).

use playbookdiff_model::{
    AnalysisContext, Applicability, EffectiveAgentConfig, Hook, HookTrigger, Instruction,
    LoadPhase, Mode, Permission, RepoPath, Severity, Skill, SourceScope, Transport, Verdict,
};
use playbookdiff_registry::{Adapter, Inputs, TrustEntry, TrustLevel};
use playbookdiff_source::{Ancestors, Machine, Repo, WorkingTree};

use playbookdiff_model::profile::compare_versions;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use playbookdiff_testkit::corpus::{visible, workspace};
use playbookdiff_testkit::oracle::{
    cases, cases_in, home_copy, known, materialize, observation_path, observation_path_in,
    observed, Case, Known,
};

/// The agents the oracle records, by harness id (`scripts/oracle/record.py`
/// knows how to run each; its observation format is compared below).
const AGENTS: [&str; 5] = ["claude-code", "codex", "copilot", "gemini", "opencode"];

/// The registered harnesses no recording can check, by harness id: Cursor
/// installs by a download script, not a package, so no release can be run
/// here. Their adapters follow the documentation, every result says so
/// (`behaviour-unverified`), and `docs/fidelity.md` lists them as not
/// verified.
const UNVERIFIED: [&str; 1] = ["cursor"];

/// The registered adapter of `agent`.
fn adapter(agent: &str) -> &'static dyn Adapter {
    playbookdiff_registry::by_id(agent)
        .unwrap_or_else(|| panic!("no registered adapter for oracle agent {agent}"))
}

fn profiled(agent: &str) -> &'static [&'static str] {
    adapter(agent).profiled_versions()
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Disagreement {
    case: String,
    version: String,
    aspect: &'static str,
    agent: String,
    adapter: String,
}

// ------------------------------------------------------------ the inputs

/// The adapter of `agent` at `version` on the case's repository at `root`;
/// with `machine` (a case with a fixture home) it reads that home's user
/// layers as local mode does.
fn compile(
    agent: &str,
    version: &str,
    root: &Path,
    case: &Case,
    machine: Option<&Machine>,
) -> EffectiveAgentConfig {
    let tree = WorkingTree::open(root).expect("open case repository");
    let repo = Repo::new(&tree);
    let context = AnalysisContext {
        repository_root: RepoPath::root(),
        cwd: RepoPath::new(&resolved_cwd(root, &case.cwd)).expect("cwd"),
        target_path: case
            .target
            .as_deref()
            .map(|t| RepoPath::new(t).expect("target")),
        // The agent reads the working tree as it is, personal files included.
        mode: Mode::Local,
    };
    let trust: Option<Vec<TrustEntry>> = case.trust.as_ref().map(|t| {
        t.iter()
            .map(|(dir, level)| TrustEntry {
                dir: RepoPath::new(dir).expect("trust directory"),
                level: match level.as_str() {
                    "trusted" => TrustLevel::Trusted,
                    "untrusted" => TrustLevel::Untrusted,
                    other => panic!("trust level {other}"),
                },
            })
            .collect()
    });
    // A case with a layout above its repository: the adapter reads the
    // fixture's directories above it (`--outside-root`), and nothing further
    // up, which the recorded agent had in a fresh temporary directory.
    let outside = case.repository.as_deref().map(|sub| {
        let abs = std::fs::canonicalize(root).expect("case repository");
        let levels = Path::new(sub).components().count();
        Ancestors::of(&abs).nearest(levels)
    });
    let inputs = Inputs {
        version: Some(version),
        trust: trust.as_deref(),
        outside_root: outside.as_ref(),
        machine,
        ..Inputs::default()
    };
    adapter(agent).compile_with(&repo, &context, &inputs)
}

/// The machine of a case with a fixture home, as the recorder laid it out
/// for the agent: `home` is the home (`~/.claude`, `~/.claude.json`,
/// `~/.config/opencode`), its `.codex` is `$CODEX_HOME`, and the machine's
/// root is the empty directory `root` (the agents ran with no
/// `/etc/claude-code` or `/etc/codex`). The files the recorder adds (its
/// hook in `settings.json`, the run's trust entry) are not in `home`, so
/// the adapter is not asked about them.
fn fixture_machine(home: &Path, root: &Path) -> Machine {
    Machine::new(Some(home.to_path_buf()))
        .with_var("CODEX_HOME", home.join(".codex"))
        .with_root(root.to_path_buf())
}

/// The machine of a case with a fixture home (None without one): the
/// home as the recorder seeded it for the repository at `root`, the
/// case's managed files or an empty machine root, its environment and its
/// profile; the temporary directories go to `temps`.
fn case_machine(case: &Case, root: &Path, temps: &mut Vec<tempfile::TempDir>) -> Option<Machine> {
    let home = home_copy(case, root, temps)?;
    let managed = match &case.managed {
        Some(m) => workspace().join(m),
        None => {
            let empty = tempfile::tempdir().expect("temporary directory");
            let path = empty.path().to_path_buf();
            temps.push(empty);
            path
        }
    };
    let machine = with_case_env(fixture_machine(&home, &managed), case, &home, root);
    Some(match &case.profile {
        Some(name) => machine.with_profile(name),
        None => machine,
    })
}

/// `machine` with the case's environment (`[case.env]`), as the recorder
/// gave it to the agent: `@HOME@` is the fixture home `home`, `@REPO@`
/// the repository `root`, `@WELLKNOWN@` the stand-in of the recorder's
/// loopback server (`WELLKNOWN_STAND_IN`); each variable handed over as the adapter that
/// declares it reads it ([`playbookdiff_registry::EnvVariable`]).
fn with_case_env(mut machine: Machine, case: &Case, home: &Path, root: &Path) -> Machine {
    for (name, value) in &case.env {
        let value = value
            .replace("@HOME@", home.to_str().expect("UTF-8 home"))
            .replace("@REPO@", root.to_str().expect("UTF-8 repository"))
            .replace(
                "@WELLKNOWN@",
                playbookdiff_testkit::oracle::WELLKNOWN_STAND_IN,
            );
        let var = *playbookdiff_registry::ADAPTERS
            .iter()
            .flat_map(|a| a.environment())
            .find(|v| v.name() == name)
            .unwrap_or_else(|| panic!("{}: no adapter reads the variable {name}", case.id));
        machine = var.give(machine, &value, &|p| root.join(p));
    }
    machine
}

/// The names the adapters give the places the case's environment names
/// in the fixture home: `(~/REL, $NAME)` for a variable naming
/// `@HOME@/REL`, `(~/REL, $NAME[N])` for the `N`th such directory of a
/// list.
fn env_places(case: &Case) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, value) in &case.env {
        let Some(var) = playbookdiff_registry::ADAPTERS
            .iter()
            .flat_map(|a| a.environment())
            .find(|v| v.name() == name)
        else {
            continue;
        };
        let entries = var.entries(value);
        for (n, entry) in entries.iter().enumerate() {
            let Some(rel) = entry.strip_prefix("@HOME@/") else {
                continue;
            };
            let label = match var {
                playbookdiff_registry::EnvVariable::DirList(..) => format!("${name}[{}]", n + 1),
                playbookdiff_registry::EnvVariable::Path(_) => format!("${name}"),
                playbookdiff_registry::EnvVariable::Text(_) => continue,
            };
            out.push((format!("~/{}", rel.trim_end_matches('/')), label));
        }
    }
    out
}

/// `v` with each string starting with a place of `places` (followed by
/// `/` or nothing) renamed as the adapters name it.
fn env_named(v: Value, places: &[(String, String)]) -> Value {
    match v {
        Value::String(s) => Value::String(
            places
                .iter()
                .find_map(|(from, to)| {
                    let rest = s.strip_prefix(from.as_str())?;
                    (rest.is_empty() || rest.starts_with('/')).then(|| format!("{to}{rest}"))
                })
                .unwrap_or(s),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| env_named(x, places)).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| (k, env_named(x, places)))
                .collect(),
        ),
        other => other,
    }
}

/// An observation of a case with a fixture home, its home files named as
/// the adapters name them: a string starting `$HOME/` starts `~/`
/// (`$CODEX_HOME/` stays as it is, as both name it).
fn home_named(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(match s.strip_prefix("$HOME/") {
            Some(rest) => format!("~/{rest}"),
            None => s,
        }),
        Value::Array(a) => Value::Array(a.into_iter().map(home_named).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, home_named(v))).collect()),
        other => other,
    }
}

/// The launch directory `cwd` (relative to `root`) with its symbolic links
/// followed, as the CLI gives it to the adapters (`--cwd apilink` is
/// `apps/api`) and as the agent started there sees it: the working
/// directory of a process is the real directory.
fn resolved_cwd(root: &Path, cwd: &str) -> String {
    let real_root = std::fs::canonicalize(root).expect("case repository");
    let real = std::fs::canonicalize(root.join(cwd)).expect("launch directory");
    let rel = real
        .strip_prefix(&real_root)
        .expect("launch directory inside the case repository");
    if rel.as_os_str().is_empty() {
        ".".into()
    } else {
        rel.to_string_lossy().into_owned()
    }
}

// ------------------------------------------------------------ comparison

fn list<I: IntoIterator<Item = String>>(items: I) -> String {
    let v: Vec<String> = items.into_iter().collect();
    format!("[{}]", v.join(", "))
}

fn dedup_keep_first(v: Vec<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    v.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

/// The rules root of a path under some `.claude/rules/`, if any.
fn rules_root(path: &str) -> Option<&str> {
    path.find(".claude/rules/").map(|i| &path[..i])
}

/// True when the profile fact `fact` of `agent`'s version table holds for
/// release `version` (the table's [`Adapter::release_changes`]).
fn holds(agent: &str, fact: &str, version: &str) -> bool {
    adapter(agent)
        .release_changes()
        .iter()
        .any(|c| c.fact == fact && compare_versions(version, c.since) != Ordering::Less)
}

/// Sorts each run of consecutive files of one `.claude/rules` root by path
/// when Claude Code `version` reads rules in directory-listing order
/// (`RulesInListingOrder`), which depends on the file system the agent ran
/// on: then only the order of memory files and of rules roots is compared.
/// An older release reads them in path order, compared as it is.
fn sort_rule_runs(v: Vec<String>, version: &str) -> Vec<String> {
    if !holds("claude-code", "RulesInListingOrder", version) {
        return v;
    }
    let mut v = v;
    let mut i = 0;
    while i < v.len() {
        let Some(root) = rules_root(&v[i]).map(str::to_string) else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < v.len() && rules_root(&v[j]) == Some(root.as_str()) {
            j += 1;
        }
        v[i..j].sort();
        i = j;
    }
    v
}

/// A short, deterministic account of where two texts first differ.
fn text_difference(path: &str, agent: &str, adapter: &str) -> (String, String) {
    let a: Vec<char> = agent.chars().collect();
    let b: Vec<char> = adapter.chars().collect();
    let at = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let show = |v: &[char]| -> String {
        let s: String = v.iter().skip(at).take(60).collect();
        format!("{s:?}")
    };
    (
        format!("{path} ({} chars) from char {at}: {}", a.len(), show(&a)),
        format!("{path} ({} chars) from char {at}: {}", b.len(), show(&b)),
    )
}

fn claude_disagreements(
    case: &Case,
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    let mut push = |aspect, agent: String, adapter: String| {
        if agent != adapter {
            out.push(Disagreement {
                case: case.id.clone(),
                version: version.to_string(),
                aspect,
                agent,
                adapter,
            });
        }
    };
    let exit = obs["exit"].as_str().unwrap_or("");
    if exit != "ok" {
        push("observation", format!("exit {exit}"), "exit ok".into());
        return out;
    }
    // Claude Code names a rule reached through a symbolic link by the
    // link's target (case `claude.c04_above_root_links`: 2.1.197 shows
    // `../../shared/rule.md` for `../.claude/rules/linked.md`), the adapter
    // by the link, with the target as `resolvedPath`: where both name the
    // same file, the agent's name is mapped to the adapter's, so rules keep
    // their rules root and its listing-order tolerance.
    let via_link: BTreeMap<String, String> = cfg
        .instructions
        .iter()
        .filter(|i| rules_root(i.source.path.as_str()).is_some())
        .filter_map(|i| {
            let real = i.source.resolved_path.as_ref()?;
            Some((real.to_string(), i.source.path.to_string()))
        })
        .collect();
    let named = |p: &str| via_link.get(p).cloned().unwrap_or_else(|| p.to_string());
    // Startup memory files, in request order.
    let observed = &obs["startup"]["instructions"];
    let seen: Vec<String> = sort_rule_runs(
        dedup_keep_first(
            observed
                .as_array()
                .unwrap()
                .iter()
                .map(|b| named(b["path"].as_str().unwrap()))
                .collect(),
        ),
        version,
    );
    let startup: Vec<_> = cfg
        .received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup)
        .collect();
    let modelled: Vec<String> = sort_rule_runs(
        dedup_keep_first(startup.iter().map(|i| i.source.path.to_string()).collect()),
        version,
    );
    push("startup-files", list(seen.clone()), list(modelled.clone()));
    // Their text, for the files both name.
    let mut texts_agent = Vec::new();
    let mut texts_adapter = Vec::new();
    for block in observed.as_array().unwrap() {
        let path = named(block["path"].as_str().unwrap());
        let path = path.as_str();
        if !modelled.iter().any(|p| p == path) {
            continue;
        }
        let ours: String = startup
            .iter()
            .filter(|i| i.source.path.as_str() == path)
            .map(|i| i.content.as_str())
            .collect::<Vec<_>>()
            .join("");
        // As sent: a release before `MemoryTextTrimmed` keeps a file's
        // trailing line end.
        let theirs = block["text"].as_str().unwrap();
        if theirs != ours {
            let (a, b) = text_difference(path, theirs, &ours);
            texts_agent.push(a);
            texts_adapter.push(b);
        }
    }
    push(
        "startup-text",
        texts_agent.join("; "),
        texts_adapter.join("; "),
    );
    // Which file imported which, from the hook's `include` events at
    // startup (no trigger file).
    let imports: BTreeSet<String> = obs["hookEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["loadReason"] == "include" && e.get("trigger").is_none())
        .map(|e| {
            format!(
                "{} <- {}",
                e["path"].as_str().unwrap_or("?"),
                e["parent"].as_str().unwrap_or("?")
            )
        })
        .collect();
    let by_id: BTreeMap<&str, &str> = cfg
        .instructions
        .iter()
        .map(|i| (i.id.as_str(), i.source.path.as_str()))
        .collect();
    // Only files the hook reports at all have an observable parent: 2.1.332
    // fires no `InstructionsLoaded` event for what the AGENTS.md fallback
    // loads (case `claude.c16_agents_md_fallback`: the root AGENTS.md and its
    // import are in the first request, the hook is silent), so those files'
    // import relation is not compared; their presence and text are.
    let hooked: BTreeSet<&str> = obs["hookEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["path"].as_str())
        .collect();
    let modelled_imports: BTreeSet<String> = startup
        .iter()
        .filter(|i| hooked.contains(i.source.path.as_str()))
        .filter_map(|i| {
            let parent = i.imported_from.as_deref()?;
            Some(format!(
                "{} <- {}",
                i.source.path,
                by_id.get(parent).copied().unwrap_or(parent)
            ))
        })
        .collect();
    push("imports", list(imports), list(modelled_imports));
    // Skills listed to the model, by command name (2.1.332 and later show
    // `dir (display name)`: the part before the parenthesis is the name).
    let listed: BTreeSet<String> = obs["startup"]["skillsListed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let n = s["name"].as_str().unwrap();
            n.split(" (").next().unwrap_or(n).to_string()
        })
        .collect();
    // A skill the model is told of at startup (not left out by the
    // listing's budget).
    let told = |s: &&playbookdiff_model::Skill| {
        s.applicability == Applicability::Effective
            && s.load_phase == LoadPhase::Startup
            && s.invocation.implicit != Permission::Blocked
            && s.advertisement.state != playbookdiff_model::AdvertisementState::Omitted
    };
    let advertised: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(told)
        .map(|s| s.name.clone())
        .collect();
    push("skills", list(listed.clone()), list(advertised.clone()));
    if listed == advertised {
        if let Some((theirs, ours)) = skill_order(version, obs, cfg) {
            push("skill-order", list(theirs), list(ours));
        }
    }
    // The description each skill both sides list is shown with (fidelity
    // C19, C20: the first line when there is none, typed values as text),
    // cut at the per-skill cap as the listing cuts it (the first cap - 1
    // characters and `…`), as written: from 2.1.300 on both sides escape
    // `<` and `>` (`SkillDescriptionEscaped`). A description the listing
    // budget shortens depends on the agent's bundled skills and is left
    // out (`shownDescriptionChars`) unless the adapter gives its text
    // (`shownDescription`).
    let both: BTreeSet<&String> = listed.intersection(&advertised).collect();
    let described: BTreeSet<String> = obs["startup"]["skillsListed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| {
            let n = s["name"].as_str().unwrap();
            let n = n.split(" (").next().unwrap_or(n).to_string();
            let d = s["description"].as_str().unwrap_or("");
            both.contains(&n).then(|| format!("{n}: {d}"))
        })
        .collect();
    let modelled_descriptions: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(|s| told(s) && both.contains(&s.name))
        .map(|s| {
            // The text the listing budget leaves, as the adapter computes
            // it (from 2.1.19 on).
            if let Some(shown) = &s.advertisement.shown_description {
                return format!("{}: {shown}", s.name);
            }
            let d = s.description.clone().unwrap_or_default();
            let d = match s.advertisement.description_limit_chars {
                Some(cap) if d.chars().count() as u64 > cap => {
                    let mut cut: String = d.chars().take(cap as usize - 1).collect();
                    cut.push('…');
                    cut
                }
                _ => d,
            };
            format!("{}: {d}", s.name)
        })
        .collect();
    // Skills whose description the budget shortens to a text the adapter
    // does not give: compared by name only.
    let shortened: BTreeSet<&str> = cfg
        .skills
        .iter()
        .filter(|s| {
            s.advertisement.shown_description_chars.is_some()
                && s.advertisement.shown_description.is_none()
        })
        .map(|s| s.name.as_str())
        .collect();
    // A skill at the budget's risk (`budget-risk`: the listing may shorten
    // its description by an amount the adapter does not compute): the
    // agent's description, cut and ended with `…`, agrees when it begins
    // the adapter's.
    let at_risk: BTreeSet<&str> = cfg
        .skills
        .iter()
        .filter(|s| s.advertisement.state == playbookdiff_model::AdvertisementState::BudgetRisk)
        .map(|s| s.name.as_str())
        .collect();
    let described: BTreeSet<String> = described
        .into_iter()
        .map(|e| {
            let (n, d) = e.split_once(": ").unwrap_or((&e, ""));
            let cut = d.strip_suffix('…').filter(|_| at_risk.contains(n));
            match cut {
                Some(head) => modelled_descriptions
                    .iter()
                    .find(|m| m.starts_with(&format!("{n}: {head}")))
                    .cloned()
                    .unwrap_or(e),
                None => e,
            }
        })
        .collect();
    let keep = |e: &String| !shortened.contains(e.split(": ").next().unwrap_or(""));
    push(
        "skill-descriptions",
        list(described.into_iter().filter(keep).collect::<BTreeSet<_>>()),
        list(
            modelled_descriptions
                .into_iter()
                .filter(keep)
                .collect::<BTreeSet<_>>(),
        ),
    );
    // MCP servers of the init line.
    let servers: BTreeSet<String> = obs["init"]["mcpServers"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    let configured: BTreeSet<String> = cfg
        .mcp_servers
        .iter()
        .filter(|s| {
            matches!(
                s.applicability,
                Applicability::Effective | Applicability::Conditional
            )
        })
        .map(|s| s.name.clone())
        .collect();
    push("mcp-servers", list(servers), list(configured));
    for (aspect, agent, adapter) in crate::oracle_surfaces::claude(obs, cfg) {
        push(aspect, agent, adapter);
    }
    // What reading the target attached.
    if case.target.is_some() {
        let attached: BTreeSet<String> = obs["onDemand"]["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| named(b["path"].as_str().unwrap()))
            .collect();
        let on_demand: BTreeSet<String> = cfg
            .instructions
            .iter()
            .filter(|i| {
                i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective
            })
            .map(|i| i.source.path.to_string())
            .collect();
        push("on-demand-files", list(attached), list(on_demand));
    }
    for (aspect, agent, adapter) in hook_aspects("claude-code", case, obs, cfg) {
        push(aspect, agent, adapter);
    }
    out
}

/// The order of Claude Code's skill listing at `version`, as (the agent's,
/// the adapter's), where the release fixes it: every entry but a plugin's
/// from `SkillListingSorted` on (by name within each source; a plugin's
/// skills come in its own order); before `SkillsInListingOrder`, the
/// skills of `.claude/skills` (by name; the legacy commands after them
/// come in no fixed order). `None` in between: the skills come in the
/// order the file system lists their directory.
fn skill_order(
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Option<(Vec<String>, Vec<String>)> {
    let sorted = holds("claude-code", "SkillListingSorted", version);
    if !sorted && holds("claude-code", "SkillsInListingOrder", version) {
        return None;
    }
    let told: Vec<&Skill> = cfg
        .skills
        .iter()
        .filter(|s| {
            s.applicability == Applicability::Effective
                && s.load_phase == LoadPhase::Startup
                && s.invocation.implicit != Permission::Blocked
                && s.advertisement.state != playbookdiff_model::AdvertisementState::Omitted
                && s.source.scope != SourceScope::Plugin
        })
        .collect();
    let command = |s: &Skill| s.source.path.as_str().contains(".claude/commands/");
    // Before, a name a command shares too is left out: the listing shows
    // both under it.
    let commands: BTreeSet<&str> = told
        .iter()
        .filter(|s| command(s))
        .map(|s| s.name.as_str())
        .collect();
    let fixed: BTreeSet<&str> = told
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| sorted || !commands.contains(n))
        .collect();
    let theirs = obs["startup"]["skillsListed"]
        .as_array()?
        .iter()
        .filter_map(|s| s["name"].as_str())
        .map(|n| n.split(" (").next().unwrap_or(n).to_string())
        .filter(|n| fixed.contains(n.as_str()))
        .collect();
    let ours = told
        .iter()
        .filter(|s| fixed.contains(s.name.as_str()))
        .map(|s| s.name.clone())
        .collect();
    Some((theirs, ours))
}

/// The hook surfaces of one observation of `agent`, as (aspect, the
/// agent's list, the adapter's list), only where the case shows hooks:
/// the marker hooks that fired for Claude Code, Copilot CLI and Gemini CLI
/// (`hooks`), Codex's `hooks/list`
/// of the compared run (`hooks`), the plugin modules OpenCode's `debug
/// config` lists against those the adapter's hooks come from
/// (`plugin-modules`).
fn hook_aspects(
    agent: &str,
    case: &Case,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<(&'static str, String, String)> {
    let (aspect, theirs, ours) = match agent {
        "claude-code" | "copilot" | "gemini" => {
            ("hooks", fired_hooks(obs), expected_hooks(case, cfg))
        }
        "codex" => return codex_hook_aspects(case, obs, cfg),
        _ => {
            let plugins: BTreeSet<String> = obs["config"]["plugins"]
                .as_array()
                .map(|a| a.iter().map(|p| p.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            let modules: BTreeSet<String> = cfg
                .hooks
                .iter()
                .filter(|h| h.handler.kind == "module")
                .map(|h| h.source.path.to_string())
                .collect();
            ("plugin-modules", plugins, modules)
        }
    };
    // A case shows hooks when either side has some, or (Claude Code) the
    // repository registers marker hooks the agent may have kept off.
    let markers = cfg.hooks.iter().any(|h| {
        h.handler
            .command
            .as_deref()
            .is_some_and(|c| c.contains(".claude/hooks/mark.sh"))
    });
    if theirs.is_empty() && ours.is_empty() && !markers {
        return Vec::new();
    }
    vec![(aspect, list(theirs), list(ours))]
}

/// The tags the repository's marker hooks wrote when they fired
/// (`hooksFired`; none recorded means none fired).
fn fired_hooks(obs: &Value) -> BTreeSet<String> {
    obs["hooksFired"]
        .as_array()
        .map(|a| a.iter().map(|t| t.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The tags of the marker hooks ([`marker_tag`]) the adapter
/// says may run and whose event the oracle's run raises, by the event's
/// cross-harness meaning: the session's start and its one prompt, and
/// with a target the scripted read before and after it runs, for a hook
/// whose matcher names the read's tool or none (the runs are trusted, so
/// a hook whose `runs` is unknown for want of trust counts). The read is
/// `Read`; Copilot CLI's is `view`, which a matcher also names as `Read`
/// (seen with 1.0.102).
fn expected_hooks(case: &Case, cfg: &EffectiveAgentConfig) -> BTreeSet<String> {
    let tools: &[&str] = if cfg.harness.as_str() == "copilot" {
        &["view", "Read"]
    } else {
        &["Read"]
    };
    let read = |m: &Option<String>| {
        m.as_deref()
            .is_none_or(|m| m.split('|').any(|t| tools.contains(&t)))
    };
    cfg.hooks
        .iter()
        .filter(|h| h.may_run() && h.script.as_ref().is_none_or(|s| s.present))
        .filter(|h| match h.trigger {
            Some(HookTrigger::SessionStart | HookTrigger::UserPromptSubmit) => true,
            Some(HookTrigger::PreToolUse | HookTrigger::PostToolUse) => {
                case.target.is_some() && read(&h.matcher)
            }
            _ => false,
        })
        .filter_map(|h| marker_tag(h.handler.command.as_deref()?))
        .collect()
}

/// The tag a marker hook's command writes: `TAG` of
/// `sh .../.claude/hooks/mark.sh TAG` (the fixtures' script), or of
/// `cd "$CLAUDE_PROJECT_DIR" && echo TAG >> .hook-markers` (a fixture
/// home's plugin, which has no script in the repository).
fn marker_tag(command: &str) -> Option<String> {
    if command.contains(".claude/hooks/mark.sh") {
        return command.rsplit(' ').next().map(str::to_string);
    }
    let (_, echoed) = command.split_once("&& echo ")?;
    let tag = echoed.strip_suffix(" >> .hook-markers")?;
    Some(tag.to_string())
}

fn codex_disagreements(
    case: &Case,
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    let mut push = |aspect, agent: String, adapter: String| {
        if agent != adapter {
            out.push(Disagreement {
                case: case.id.clone(),
                version: version.to_string(),
                aspect,
                agent,
                adapter,
            });
        }
    };
    let run = if case.trust.is_some() {
        &obs["entries"]
    } else {
        &obs["trusted"]
    };
    let refuses = run["exit"] != 0;
    let errors: Vec<String> = cfg
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.as_str().to_string())
        .collect();
    let start = |refuses: bool| {
        if refuses {
            "refuses to start"
        } else {
            "starts"
        }
    };
    push(
        "start",
        start(refuses).into(),
        if errors.is_empty() || refuses {
            start(!errors.is_empty()).into()
        } else {
            format!("refuses to start (error {})", errors.join(", "))
        },
    );
    if refuses {
        return out;
    }
    // The AGENTS.md chain, byte for byte.
    let theirs = run["agentsMd"]["text"].as_str().unwrap_or("").to_string();
    let ours = codex_chain(cfg);
    if theirs != ours {
        let (a, b) = text_difference("chain", &theirs, &ours);
        push("agents-md", a, b);
    }
    let listed: BTreeSet<String> = run["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} ({})",
                s["name"].as_str().unwrap(),
                s["path"].as_str().unwrap()
            )
        })
        .collect();
    // The system skills of `$CODEX_HOME/skills/.system` are compared
    // apart (`system-skills`), where the recording holds them.
    let advertised: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(|s| {
            s.applicability == Applicability::Effective
                && s.invocation.implicit != Permission::Blocked
                && s.source.scope != SourceScope::Builtin
        })
        // Codex lists a skill reached through a directory link under the
        // resolved path (0.142.3) or the link's path (0.171.0): either
        // spelling of the adapter's source agrees.
        .map(|s| {
            let through_link = format!("{} ({})", s.name, s.source.path);
            match &s.source.resolved_path {
                Some(r) if !listed.contains(&through_link) => format!("{} ({r})", s.name),
                _ => through_link,
            }
        })
        .collect();
    push("skills", list(listed), list(advertised));
    if let Some(system) = run["systemSkills"].as_array() {
        push(
            "system-skills",
            list(codex_listed_system_skills(system)),
            list(codex_system_skills(cfg, with_chars(system))),
        );
    }
    if let Some(servers) = run["mcpServers"].as_array() {
        let listed: BTreeSet<String> = servers
            .iter()
            .filter(|s| s["enabled"] == Value::Bool(true))
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect();
        let configured: BTreeSet<String> = cfg
            .mcp_servers
            .iter()
            .filter(|s| {
                matches!(
                    s.applicability,
                    Applicability::Effective | Applicability::Conditional
                )
            })
            .map(|s| s.name.clone())
            .collect();
        push("mcp-servers", list(listed), list(configured));
    }
    if run["permissions"].is_object() {
        push(
            "permission-modes",
            codex_told_modes(&run["permissions"]),
            codex_effective_modes(cfg),
        );
    }
    for (aspect, agent, adapter) in hook_aspects("codex", case, obs, cfg) {
        push(aspect, agent, adapter);
    }
    out
}

/// The sandbox mode and approval policy Codex told the model it runs
/// under (the recording's `permissions`, a case with a home).
fn codex_told_modes(p: &Value) -> String {
    let field = |k: &str| p[k].as_str().unwrap_or("(not named)").to_string();
    format!(
        "sandbox_mode {}, approval_policy {}",
        field("sandboxMode"),
        field("approvalPolicy")
    )
}

/// The mode of each key that the adapter says Codex applies (the one
/// setting listed that may be honoured), else the release default for a
/// trusted project, which the recorded run is: `workspace-write` and
/// `on-request` (seen with 0.142.3 and 0.171.0 on a home that sets
/// neither).
fn codex_effective_modes(cfg: &EffectiveAgentConfig) -> String {
    let mode = |key: &str, default: &str| {
        let applied: Vec<&str> = cfg
            .permissions
            .iter()
            .filter(|p| p.key == key && p.honoured.may_apply())
            .map(|p| p.value.as_str())
            .collect();
        match applied[..] {
            [] => default.to_string(),
            [one] => one.to_string(),
            _ => format!("one of {}", applied.join(", ")),
        }
    };
    format!(
        "sandbox_mode {}, approval_policy {}",
        mode("sandbox_mode", "workspace-write"),
        mode("approval_policy", "on-request")
    )
}

/// Codex's system skills of a recording that holds them (a case with a
/// home, the trusted run), as a surface aspect.
fn codex_system_skill_aspect(
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<(&'static str, String, String)> {
    let Some(system) = obs["trusted"]["systemSkills"].as_array() else {
        return Vec::new();
    };
    vec![(
        "system-skills",
        list(codex_listed_system_skills(system)),
        list(codex_system_skills(cfg, with_chars(system))),
    )]
}

/// True when every system skill of a recording gives the length of its
/// listed description (`descriptionChars`, recorded since the recorder
/// kept it): the comparison then holds the lengths too.
fn with_chars(listed: &[Value]) -> bool {
    listed.iter().all(|s| s["descriptionChars"].is_u64())
}

/// One system skill as the comparison writes it: `name (path)`, with the
/// description's length in characters when the recording gives it.
fn system_skill_line(name: &str, path: &str, chars: Option<u64>) -> String {
    match chars {
        Some(n) => format!("{name} ({path}, {n} characters)"),
        None => format!("{name} ({path})"),
    }
}

/// The system skills a recording with a fixture home lists
/// (`systemSkills`), as [`system_skill_line`] writes them.
fn codex_listed_system_skills(listed: &[Value]) -> BTreeSet<String> {
    listed
        .iter()
        .map(|s| {
            system_skill_line(
                s["name"].as_str().unwrap_or_default(),
                s["path"].as_str().unwrap_or_default(),
                s["descriptionChars"].as_u64(),
            )
        })
        .collect()
}

/// The adapter's Codex system skills (scope `builtin`) the model is
/// shown, as [`codex_listed_system_skills`] writes them (`chars`: with
/// the length of each description the listing counts).
fn codex_system_skills(cfg: &EffectiveAgentConfig, chars: bool) -> BTreeSet<String> {
    cfg.skills
        .iter()
        .filter(|s| {
            s.source.scope == SourceScope::Builtin
                && s.applicability == Applicability::Effective
                && s.invocation.implicit != Permission::Blocked
        })
        .map(|s| {
            let n = chars.then_some(s.advertisement.description_chars);
            system_skill_line(&s.name, &s.source.path.to_string(), n)
        })
        .collect()
}

/// Codex's hooks of the compared run (`hooks`), and where it was
/// recorded, the same listing once the user's trust entries name every
/// hook (`hooks-trusted`: trusted, or `modified` for the entry with a
/// stale hash). Hook trust is user state the analysis does not read, so
/// the adapter's answer for both is `may-run`: the same hooks, from the
/// same files, on the same events, each running once its current hash is
/// trusted.
fn codex_hook_aspects(
    case: &Case,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<(&'static str, String, String)> {
    let run = if case.trust.is_some() {
        &obs["entries"]
    } else {
        &obs["trusted"]
    };
    if run["hooksFired"].is_array() {
        let (theirs, ours) = (fired_hooks(run), codex_fired_hooks(cfg));
        if theirs.is_empty() && ours.is_empty() {
            return Vec::new();
        }
        return vec![("hooks-fired", list(theirs), list(ours))];
    }
    let Some(listed) = run["hooks"]["listed"].as_array() else {
        return Vec::new();
    };
    if case.home.is_some() {
        return vec![(
            "hooks",
            list(codex_local_listed_hooks(listed)),
            list(codex_local_hooks(cfg)),
        )];
    }
    let ours = codex_hooks(cfg);
    let theirs = codex_listed_hooks(listed);
    if theirs.is_empty() && ours.is_empty() {
        return Vec::new();
    }
    let mut out = vec![("hooks", list(theirs), list(ours.clone()))];
    if let Some(trusted) = run["hooksTrusted"]["listed"].as_array() {
        out.push((
            "hooks-trusted",
            list(codex_trusted_hooks(trusted)),
            list(ours),
        ));
    }
    out
}

/// The events one `codex exec` turn of the recorder raises (a release
/// without `hooks/list`, `hooksFired`): its session start, its prompt,
/// one shell call, which hooks see as `Bash`, and its end.
const CODEX_TURN_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
];

/// The tags of the marker hooks ([`codex_marker_tag`]) the adapter says
/// may run, of the events a `codex exec` turn raises
/// ([`CODEX_TURN_EVENTS`]), with no matcher or one naming `Bash` (the
/// run is trusted, so a hook whose `runs` is unknown for want of its
/// hash's trust counts: the releases that fire hooks have no hash trust).
fn codex_fired_hooks(cfg: &EffectiveAgentConfig) -> BTreeSet<String> {
    cfg.hooks
        .iter()
        .filter(|h| h.may_run() && CODEX_TURN_EVENTS.contains(&h.event.as_str()))
        .filter(|h| {
            h.matcher
                .as_deref()
                .is_none_or(|m| m.split('|').any(|t| t == "Bash" || t == "*"))
        })
        .filter_map(|h| codex_marker_tag(h.handler.command.as_deref()?))
        .collect()
}

/// The tag a Codex marker hook's command writes: `TAG` of `printf
/// '%s\n' TAG >> .hook-markers` (fixture `codex_hooks_fire`).
fn codex_marker_tag(command: &str) -> Option<String> {
    let tag = command
        .strip_prefix("printf '%s\\n' ")?
        .strip_suffix(" >> .hook-markers")?;
    Some(tag.to_string())
}

/// The hooks `hooks/list` gives, as `file event trust`: the event in the
/// configuration's spelling (`preToolUse` is `PreToolUse`), `may-run`
/// for a hook whose hash is not trusted yet (Codex runs it once the user
/// trusts it), `yes` for one without a trust status (0.128.0, which runs
/// every hook it lists), else its status.
fn codex_listed_hooks(listed: &[Value]) -> BTreeSet<String> {
    listed_hooks(listed, |status| match status {
        "untrusted" => "may-run",
        NO_TRUST_STATUS => "yes",
        other => other,
    })
}

/// What [`listed_hooks`] passes for a hook `hooks/list` gives no trust
/// status (releases before hash trust, 0.128.0).
const NO_TRUST_STATUS: &str = "none";

/// [`codex_listed_hooks`] of a listing under the user's trust entries:
/// `trusted`, `modified` (a stale hash) and `untrusted` are each the
/// user's state, `may-run` to the analysis; `managed` stays.
fn codex_trusted_hooks(listed: &[Value]) -> BTreeSet<String> {
    listed_hooks(listed, |status| match status {
        "untrusted" | "trusted" | "modified" => "may-run",
        NO_TRUST_STATUS => "yes",
        other => other,
    })
}

/// The hooks of a `hooks/list` as `file event trust`, the trust status
/// spelled by `status`.
fn listed_hooks(listed: &[Value], status: fn(&str) -> &str) -> BTreeSet<String> {
    listed
        .iter()
        .map(|h| {
            let event = h["event"].as_str().unwrap_or_default();
            let mut chars = event.chars();
            let event: String = chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
                .collect();
            let status = status(h["trustStatus"].as_str().unwrap_or(NO_TRUST_STATUS));
            format!(
                "{} {event} {status}",
                h["source"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// The hooks `hooks/list` gives under a fixture home's own trust entries,
/// as `file event runs`: `runs` for a managed or trusted hook, `off` for
/// one the user turned off, else its trust status (`modified`,
/// `untrusted`): the hooks Codex waits to run until the user trusts them.
///
/// A hook of the managed requirements is named by its `managed_dir` (a
/// directory, not a file of `.json` or `.toml`); the adapter names the
/// file that registers it, `/etc/codex/requirements.toml`.
fn codex_local_listed_hooks(listed: &[Value]) -> BTreeSet<String> {
    let off: Vec<Value> = listed
        .iter()
        .map(|h| {
            let mut h = h.clone();
            if h["enabled"] == Value::Bool(false) {
                h["trustStatus"] = "off".into();
            }
            let source = h["source"].as_str().unwrap_or_default();
            if h["trustStatus"] == "managed"
                && !source.ends_with(".json")
                && !source.ends_with(".toml")
            {
                h["source"] = "/etc/codex/requirements.toml".into();
            }
            h
        })
        .collect();
    listed_hooks(&off, |status| match status {
        "trusted" | "managed" | NO_TRUST_STATUS => "runs",
        other => other,
    })
}

/// The adapter's Codex hooks in local mode as [`codex_local_listed_hooks`]
/// writes them: `runs` for `runs: yes`, the first word of the reason of
/// `runs: no` (`off` for "turned off", `modified`, `untrusted`), and
/// `may-run` for `runs: unknown`. A hook Codex does not load (excluded:
/// `allow_managed_hooks_only`) is not in its listing, so it is left out.
fn codex_local_hooks(cfg: &EffectiveAgentConfig) -> BTreeSet<String> {
    // With the hooks feature off Codex discovers no hook: `hooks/list`
    // lists none (seen with both releases, the feature pinned off by the
    // managed requirements), where the adapter lists each `runs: no`.
    let feature_off = |h: &&Hook| matches!(&h.runs, Verdict::No { reason, .. } if reason.contains("[features] hooks = false"));
    cfg.hooks
        .iter()
        .filter(|h| h.applicability != Applicability::Excluded)
        .filter(|h| !feature_off(h))
        .map(|h| {
            let runs = match &h.runs {
                Verdict::Yes => "runs",
                Verdict::No { reason, .. } if reason.starts_with("turned off") => "off",
                Verdict::No { reason, .. } => reason.split(':').next().unwrap_or("no"),
                Verdict::Unknown { .. } => "may-run",
            };
            let runs = runs.split(' ').next().unwrap_or(runs);
            format!("{} {} {runs}", h.source.path, h.event)
        })
        .collect()
}

/// The adapter's Codex hooks as [`codex_listed_hooks`] writes them:
/// `may-run` for a hook whose `runs` is unknown.
fn codex_hooks(cfg: &EffectiveAgentConfig) -> BTreeSet<String> {
    cfg.hooks
        .iter()
        .map(|h| {
            let status = match h.runs.as_str() {
                "unknown" => "may-run",
                other => other,
            };
            format!("{} {} {status}", h.source.path, h.event)
        })
        .collect()
}

fn opencode_disagreements(
    case: &Case,
    root: &Path,
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    let mut push = |aspect, agent: String, adapter: String| {
        if agent != adapter {
            out.push(Disagreement {
                case: case.id.clone(),
                version: version.to_string(),
                aspect,
                agent,
                adapter,
            });
        }
    };
    // The release's built-in skill (location `<built-in>`), recorded for a
    // case with a home, is compared apart; the other aspects compare the
    // discovered skills, as the recording lists them.
    let builtin: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(|s| s.source.scope == SourceScope::Builtin)
        .filter(|s| s.applicability == Applicability::Effective)
        .map(|s| s.name.clone())
        .collect();
    if let Some(listed) = obs["startup"]["builtinListed"].as_array() {
        let listed: BTreeSet<String> = listed
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        push("builtin-skills", list(listed), list(builtin));
    }
    let mut discovered = cfg.clone();
    discovered
        .skills
        .retain(|s| s.source.scope != SourceScope::Builtin);
    let cfg = &discovered;
    let refuses = obs["exit"] != 0;
    let errors: Vec<String> = cfg
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.as_str().to_string())
        .collect();
    let start = |refuses: bool| {
        if refuses {
            "refuses to start"
        } else {
            "starts"
        }
    };
    push(
        "start",
        start(refuses).into(),
        if errors.is_empty() || refuses {
            start(!errors.is_empty()).into()
        } else {
            format!("refuses to start (error {})", errors.join(", "))
        },
    );
    if refuses {
        return out;
    }
    // Skills of a repeated name: OpenCode parses the files concurrently and
    // keeps whichever finishes last. The adapter shows the last found
    // effective and the rest shadowed (the name is listed either way).
    let mut same_name: BTreeMap<&str, Vec<&Skill>> = BTreeMap::new();
    for s in &cfg.skills {
        if matches!(
            s.applicability,
            Applicability::Effective | Applicability::Conditional | Applicability::Shadowed
        ) {
            same_name.entry(s.name.as_str()).or_default().push(s);
        }
    }
    same_name.retain(|_, group| group.len() > 1);
    // The instruction files of the first request, in request order.
    if let Some(seen) = obs["startup"]["instructions"].as_array() {
        let seen: Vec<String> = seen
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        let modelled: Vec<String> = dedup_keep_first(
            cfg.received_instructions()
                .into_iter()
                .filter(|i| i.load_phase == LoadPhase::Startup)
                .map(|i| i.source.path.to_string())
                .collect(),
        );
        push("startup-files", list(seen), list(modelled));
        // The skills that request lists to the model: in the system
        // prompt, or (releases before 1.2.27) in the `skill` tool's
        // description (`skillsInTool`, recorded where it lists any).
        let mut listed: BTreeSet<String> = ["skillsListed", "skillsInTool"]
            .iter()
            .flat_map(|k| obs["startup"][k].as_array().into_iter().flatten())
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let mut advertised: BTreeSet<String> = cfg
            .skills
            .iter()
            .filter(|s| {
                s.applicability == Applicability::Effective
                    && s.load_phase == LoadPhase::Startup
                    && s.invocation.implicit != Permission::Blocked
            })
            .map(|s| s.name.clone())
            .collect();
        // A name whose candidates are all conditional is listed whichever
        // wins when every candidate has a description.
        for (name, group) in &same_name {
            if group
                .iter()
                .all(|s| s.applicability == Applicability::Conditional && s.description.is_some())
            {
                advertised.insert(name.to_string());
            }
            // Some candidates have a description and some not: the name is
            // listed only when the one OpenCode keeps has one, and one
            // recording is one draw of the race (seeds 65 and 73 of the
            // fuzzer), so listed or not, it agrees.
            let described = group.iter().filter(|s| s.description.is_some()).count();
            if described > 0 && described < group.len() {
                listed.remove(*name);
                advertised.remove(*name);
            }
        }
        push("skills", list(listed), list(advertised));
    } else {
        push(
            "observation",
            format!("no request: {}", obs["startup"]),
            "a request".into(),
        );
    }
    // Every skill `debug skill` finds, by name and file.
    let picked: BTreeMap<&str, &str> = obs["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or("?"),
                s["path"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    let found: BTreeSet<String> = picked
        .iter()
        .map(|(name, path)| format!("{name} ({path})"))
        .collect();
    // One recording is one draw of OpenCode's same-name race: it agrees
    // when the file OpenCode kept is one of the adapter's candidates, by
    // whatever path it reached it (through a folder link looping back,
    // OpenCode names it by a path through the loop, also when that file
    // is the name's only one: `fuzz.opencode.483`).
    let mut modelled: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(|s| {
            s.applicability == Applicability::Effective && !same_name.contains_key(s.name.as_str())
        })
        .map(|s| {
            let path = s.source.path.to_string();
            match picked.get(s.name.as_str()) {
                Some(p) if same_file(root, &path, p) => format!("{} ({p})", s.name),
                _ => format!("{} ({path})", s.name),
            }
        })
        .collect();
    for (name, group) in &same_name {
        let paths: Vec<String> = group.iter().map(|s| s.source.path.to_string()).collect();
        match picked.get(name) {
            Some(p) if paths.iter().any(|c| c == p || same_file(root, c, p)) => {
                modelled.insert(format!("{name} ({p})"));
            }
            _ => {
                modelled.insert(format!("{name} (one of {})", paths.join(", ")));
            }
        }
    }
    push("skill-files", list(found), list(modelled));
    // The merged `mcp` object: the servers not disabled.
    let listed: BTreeSet<String> = obs["config"]["mcpServers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["enabled"] != Value::Bool(false))
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    let configured: BTreeSet<String> = cfg
        .mcp_servers
        .iter()
        .filter(|s| {
            matches!(
                s.applicability,
                Applicability::Effective | Applicability::Conditional
            )
        })
        .map(|s| s.name.clone())
        .collect();
    push("mcp-servers", list(listed), list(configured));
    for (aspect, agent, adapter) in crate::oracle_surfaces::opencode(obs, cfg) {
        push(aspect, agent, adapter);
    }
    // What reading the target attached.
    if case.target.is_some() {
        let attached: BTreeSet<String> = obs["onDemand"]["instructions"]
            .as_array()
            .map(|a| a.iter().map(|p| p.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let on_demand: BTreeSet<String> = cfg
            .instructions
            .iter()
            .filter(|i| {
                i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective
            })
            .map(|i| i.source.path.to_string())
            .collect();
        push("on-demand-files", list(attached), list(on_demand));
    }
    for (aspect, agent, adapter) in hook_aspects("opencode", case, obs, cfg) {
        push(aspect, agent, adapter);
    }
    out
}

fn gemini_disagreements(
    case: &Case,
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    let mut push = |aspect, agent: String, adapter: String| {
        if agent != adapter {
            out.push(Disagreement {
                case: case.id.clone(),
                version: version.to_string(),
                aspect,
                agent,
                adapter,
            });
        }
    };
    let refuses = obs["exit"] != 0;
    let errors = cfg
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    let start = |no: bool| if no { "refuses to start" } else { "starts" };
    push("start", start(refuses).into(), start(errors).into());
    if refuses || errors {
        return out;
    }
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|p| p.as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let startup: Vec<_> = cfg
        .received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup)
        .collect();
    let files: Vec<String> = startup
        .iter()
        .filter(|i| i.imported_from.is_none())
        .map(|i| i.source.path.to_string())
        .collect();
    push(
        "startup-files",
        list(strings(&obs["startup"]["contextFiles"])),
        list(files),
    );
    let seen: Vec<String> = obs["startup"]["imports"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|pair| {
                    let p = strings(pair);
                    format!(
                        "{} < {}",
                        p.get(1).map_or("?", |s| s),
                        p.first().map_or("?", |s| s)
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let by_id: BTreeMap<&str, String> = cfg
        .instructions
        .iter()
        .map(|i| (i.id.as_str(), i.source.path.to_string()))
        .collect();
    let modelled: Vec<String> = startup
        .iter()
        .filter_map(|i| {
            let parent = by_id.get(i.imported_from.as_deref()?)?;
            Some(format!("{} < {parent}", i.source.path))
        })
        .collect();
    push("imports", list(seen), list(modelled));
    let listed: BTreeSet<String> = strings(&obs["startup"]["skillsListed"])
        .into_iter()
        .collect();
    // The recording drops the names of Gemini CLI's built-in skills
    // (`_bundled.json`), also where a repository skill of that name
    // replaces one: the adapter's list drops them too.
    let bundled: BTreeSet<String> =
        std::fs::read_to_string(observation_path("gemini", version, "_bundled"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .map(|b| strings(&b["startup"]["skillsListed"]).into_iter().collect())
            .unwrap_or_default();
    let advertised: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective && !bundled.contains(&s.name))
        .map(|s| s.name.clone())
        .collect();
    push("skills", list(listed), list(advertised));
    // With a fixture home: where each listed skill comes from, the
    // release's own as `builtin:NAME` (which one of a name is kept).
    if let Some(located) = obs["startup"]["skillLocations"].as_array() {
        let seen: BTreeSet<String> = located
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    s["name"].as_str().unwrap_or("?"),
                    s["path"].as_str().unwrap_or("?")
                )
            })
            .collect();
        let modelled: BTreeSet<String> = cfg
            .skills
            .iter()
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| format!("{} {}", s.name, s.source.path))
            .collect();
        push("skill-locations", list(seen), list(modelled));
    }
    // `gemini mcp list`: the servers not blocked, with the transport it
    // names (`?` for an entry with neither command nor url).
    let listed: BTreeSet<String> = obs["mcpServers"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|s| s["state"] != "Blocked" && s["state"] != "Disabled")
                .map(|s| {
                    format!(
                        "{} ({})",
                        s["name"].as_str().unwrap_or("?"),
                        s["transport"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    // `gemini mcp list` lists the servers of every installed extension,
    // a disabled one's too (`getMcpServersFromConfig` ignores enablement),
    // which Gemini CLI does not start: the adapter's, excluded, are
    // compared with those (a disabled extension is one the adapter lists
    // no plugin for; its context files, skills and commands, absent from
    // the run, show that it is off).
    let loaded: BTreeSet<String> = cfg
        .plugins
        .iter()
        .filter_map(|p| p.source.plugin.clone())
        .collect();
    let listed_by_mcp_list = |s: &playbookdiff_model::McpServer| {
        s.applicability == Applicability::Effective
            || (s.applicability == Applicability::Excluded
                && s.source
                    .plugin
                    .as_ref()
                    .is_some_and(|p| p.starts_with("extension:") && !loaded.contains(p)))
    };
    let configured: BTreeSet<String> = cfg
        .mcp_servers
        .iter()
        .filter(|s| listed_by_mcp_list(s))
        .map(|s| {
            let t = match s.transport {
                Transport::Stdio => "stdio",
                Transport::Http => "http",
                Transport::Unknown => s.declared_type.as_deref().unwrap_or("?"),
            };
            format!("{} ({t})", s.name)
        })
        .collect();
    push("mcp-servers", list(listed), list(configured));
    // What reading the target added to the tool's output, in order.
    if case.target.is_some() {
        let on_demand: Vec<String> = cfg
            .instructions
            .iter()
            .filter(|i| {
                i.load_phase == LoadPhase::OnDemand
                    && i.applicability == Applicability::Effective
                    && i.imported_from.is_none()
            })
            .map(|i| i.source.path.to_string())
            .collect();
        push(
            "on-demand-files",
            list(strings(&obs["onDemand"]["contextFiles"])),
            list(on_demand),
        );
    }
    for (aspect, agent, adapter) in crate::oracle_surfaces::gemini(obs, cfg) {
        push(aspect, agent, adapter);
    }
    for (aspect, agent, adapter) in hook_aspects("gemini", case, obs, cfg) {
        push(aspect, agent, adapter);
    }
    out
}

/// Whether `path` is a path-specific Copilot CLI file (an instruction file
/// with `applyTo`, or a Claude Code rule) of any directory (the git root,
/// a submodule's root, the launch directory): the agent sends those after
/// its `<custom_instruction>` blocks, or lists them in its table.
fn copilot_scoped(path: &str) -> bool {
    let p = format!("/{path}");
    p.contains("/.github/instructions/")
        || p.contains("/.claude/rules/")
        || p.starts_with("/~/.copilot/instructions/")
}

/// Whether path-specific entry `i` sends a blank text (white space only,
/// after 1.0.24's "This instruction applies to files matching the
/// pattern" line): the recorder finds an inlined file by its text, so it
/// cannot see a blank one, which the agent sends all the same (seen with
/// 1.0.102: an empty rule and one of spaces and line ends stood in the
/// prompt between their neighbours).
fn sent_blank(i: &Instruction) -> bool {
    let text = i
        .content
        .strip_prefix("This instruction applies to files matching the pattern: ")
        .map_or(i.content.as_str(), |rest| {
            rest.split_once("\n\n").map_or("", |(_, body)| body)
        });
    text.trim_start_matches('\u{feff}').trim().is_empty()
}

/// Copilot CLI: the `<custom_instruction>` blocks in order, each named by
/// the file whose text it holds (a text held by several identical files
/// agrees with any of them), with the files each imports (`imports`); the
/// path-specific files inlined after the blocks (`inlined`, by name: the
/// order of 1.0.24 follows its directory listing); the table of files
/// injected on view (`on-demand-table`); the project skills of
/// `session.skills_loaded` (`skills`), and for a case with a home the
/// built-in ones (`builtin-skills`); the workspace MCP servers of
/// `session.mcp_servers_loaded` (`mcp-servers`).
fn copilot_disagreements(
    case: &Case,
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    let mut push = |aspect, agent: String, adapter: String| {
        if agent != adapter {
            out.push(Disagreement {
                case: case.id.clone(),
                version: version.to_string(),
                aspect,
                agent,
                adapter,
            });
        }
    };
    // The release's built-in skills (`source: "builtin"`), recorded for a
    // case with a home, are compared apart; `skills` compares the
    // discovered ones, as the recording lists them.
    if let Some(listed) = obs["builtinSkills"].as_array() {
        let listed: BTreeSet<String> = listed
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        let builtin: BTreeSet<String> = cfg
            .skills
            .iter()
            .filter(|s| s.source.scope == SourceScope::Builtin)
            .filter(|s| s.applicability == Applicability::Effective)
            .map(|s| s.name.clone())
            .collect();
        push("builtin-skills", list(listed), list(builtin));
    }
    let mut discovered = cfg.clone();
    discovered
        .skills
        .retain(|s| s.source.scope != SourceScope::Builtin);
    let cfg = &discovered;
    let received = cfg.received_instructions();
    // A release that inlines its one source without a block
    // (before `instruction_blocks`) sends a blank text where the recorder,
    // which finds an inlined file by its text, cannot see it.
    let unblocked = !holds("copilot", "instruction_blocks", version);
    let always: Vec<&Instruction> = received
        .iter()
        .copied()
        .filter(|i| {
            i.load_phase == LoadPhase::Startup
                && i.imported_from.is_none()
                && !copilot_scoped(i.source.path.as_str())
                && !(unblocked && i.content.trim_start_matches('\u{feff}').trim().is_empty())
        })
        .collect();
    let blocks = obs["startup"]["instructions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut seen = Vec::new();
    for (n, b) in blocks.iter().enumerate() {
        let mine = always.get(n).map(|i| i.source.path.to_string());
        let name = match &b["path"] {
            Value::String(p) => p.clone(),
            Value::Array(a) => {
                let all: Vec<String> = a
                    .iter()
                    .filter_map(|p| p.as_str().map(str::to_string))
                    .collect();
                match &mine {
                    Some(m) if all.contains(m) => m.clone(),
                    _ => all.join("|"),
                }
            }
            _ => "(text of no file)".to_string(),
        };
        let imports: Vec<String> = b["imports"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str().map(|p| format!("{name}<{p}")))
                    .collect()
            })
            .unwrap_or_default();
        seen.push(name);
        seen.extend(imports);
    }
    let mut modelled = Vec::new();
    for i in &always {
        modelled.push(i.source.path.to_string());
        for imp in received
            .iter()
            .filter(|x| x.imported_from.as_deref() == Some(i.id.as_str()))
        {
            modelled.push(format!("{}<{}", i.source.path, imp.source.path));
        }
    }
    push("instructions", list(seen), list(modelled));
    let inlined: BTreeSet<String> = obs["startup"]["inlined"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let modelled_inlined: BTreeSet<String> = received
        .iter()
        .filter(|i| i.load_phase == LoadPhase::Startup && copilot_scoped(i.source.path.as_str()))
        // A rule imported with `@` is sent inside its importer's block
        // (compared under `instructions`), not after the blocks.
        .filter(|i| i.imported_from.is_none() && !sent_blank(i))
        .map(|i| i.source.path.to_string())
        .collect();
    push("inlined", list(inlined), list(modelled_inlined));
    let table: BTreeSet<String> = obs["startup"]["onDemandTable"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|r| {
                    format!(
                        "{} {}",
                        r["path"].as_str().unwrap_or(""),
                        r["pattern"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let modelled_table: BTreeSet<String> = cfg
        .instructions
        .iter()
        .filter(|i| i.load_phase == LoadPhase::OnDemand && i.paths.is_some())
        .map(|i| format!("{} {}", i.source.path, i.paths.as_ref().unwrap().join(", ")))
        .collect();
    push("on-demand-table", list(table), list(modelled_table));
    // A skill the user disabled is loaded `enabled: false`: the adapter
    // lists it `excluded`.
    let skills: BTreeSet<String> = obs["skills"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|s| s["enabled"] != Value::Bool(false))
                .map(|s| {
                    format!(
                        "{} {}",
                        s["name"].as_str().unwrap_or(""),
                        s["path"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let modelled_skills: BTreeSet<String> = cfg
        .skills
        .iter()
        .filter(|s| s.applicability == Applicability::Effective)
        .map(|s| format!("{} {}", s.name, s.source.path))
        .collect();
    match obs["startup"]["skillsListed"].as_array() {
        // A release that sends no `session.skills_loaded` event (before
        // 1.0.22): the repository's skills its `skill` tool lists, by
        // name, against the project's.
        Some(listed) if obs.get("skills").is_none() => {
            let listed: BTreeSet<String> = listed
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect();
            let ours: BTreeSet<String> = cfg
                .skills
                .iter()
                .filter(|s| s.applicability == Applicability::Effective)
                .filter(|s| s.source.scope == SourceScope::Project)
                .map(|s| s.name.clone())
                .collect();
            push("skills", list(listed), list(ours));
        }
        _ => push("skills", list(skills), list(modelled_skills)),
    }
    // A release that knows no `--output-format` (0.0.403, 0.0.417)
    // prints no session events: its MCP servers are not observed.
    if obs.get("mcpServers").is_none() {
        for (aspect, agent, adapter) in crate::oracle_surfaces::copilot(obs, cfg) {
            push(aspect, agent, adapter);
        }
        for (aspect, agent, adapter) in hook_aspects("copilot", case, obs, cfg) {
            push(aspect, agent, adapter);
        }
        return out;
    }
    let servers: BTreeSet<String> = obs["mcpServers"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|s| s["source"] == "workspace")
                .filter_map(|s| s["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let modelled = |scope: SourceScope| -> BTreeSet<String> {
        cfg.mcp_servers
            .iter()
            .filter(|s| s.applicability == Applicability::Effective && s.source.scope == scope)
            .map(|s| s.name.clone())
            .collect()
    };
    push(
        "mcp-servers",
        list(servers),
        list(modelled(SourceScope::Project)),
    );
    // With a fixture home, the user's servers (`source` not `workspace`;
    // 1.0.24 names no source at all) against the user's in local mode.
    if case.home.is_some() {
        let theirs: BTreeSet<String> = obs["mcpServers"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|s| s["source"] != "workspace")
                    .filter_map(|s| s["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        // The installed plugins' servers (`source: "plugin"`) count with
        // the user's.
        let mut ours = modelled(SourceScope::User);
        ours.extend(modelled(SourceScope::Plugin));
        push("user-mcp-servers", list(theirs), list(ours));
    }
    for (aspect, agent, adapter) in crate::oracle_surfaces::copilot(obs, cfg) {
        push(aspect, agent, adapter);
    }
    for (aspect, agent, adapter) in hook_aspects("copilot", case, obs, cfg) {
        push(aspect, agent, adapter);
    }
    out
}

/// Every disagreement over every recorded case; the ids of cases that
/// could not be compiled here (corpus absent) per agent; and per agent and
/// version the number of cases compared.
struct Outcome {
    disagreements: BTreeMap<&'static str, Vec<Disagreement>>,
    skipped: BTreeSet<String>,
    compared: BTreeMap<(&'static str, &'static str), usize>,
    /// The cases with a fixture home (local mode), by id, with their home:
    /// counted apart from the others in `docs/fidelity.md`.
    homes: BTreeMap<String, String>,
    /// Per agent and version, the comparisons of cases with a fixture home.
    local_compared: BTreeMap<(&'static str, &'static str), usize>,
    /// Per agent and surface aspect of [`crate::oracle_surfaces`]: the
    /// comparisons made (one per case and version) and how many agreed.
    surfaces: BTreeMap<(&'static str, &'static str), (usize, usize)>,
}

fn run_all() -> Outcome {
    let mut out = Outcome {
        disagreements: BTreeMap::new(),
        skipped: BTreeSet::new(),
        compared: BTreeMap::new(),
        homes: BTreeMap::new(),
        local_compared: BTreeMap::new(),
        surfaces: BTreeMap::new(),
    };
    let mut temps = Vec::new();
    for case in cases() {
        let Some(root) = materialize(&case, &mut temps) else {
            out.skipped.insert(case.id.clone());
            continue;
        };
        let machine = case_machine(&case, &root, &mut temps);
        for agent in AGENTS {
            if !case.agents.iter().any(|a| a == agent) {
                continue;
            }
            for &version in profiled(agent) {
                let path = observation_path(agent, version, &case.id);
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue; // reported by every_case_is_observed
                };
                let mut obs: Value = serde_json::from_str(&text).unwrap();
                if machine.is_some() {
                    obs = env_named(home_named(obs), &env_places(&case));
                }
                let cfg = compile(agent, version, &root, &case, machine.as_ref());
                let found = disagreements(agent, &case, &root, version, &obs, &cfg);
                let counted = match &case.home {
                    Some(home) => {
                        out.homes.insert(case.id.clone(), home.clone());
                        &mut out.local_compared
                    }
                    None => &mut out.compared,
                };
                *counted.entry((agent, version)).or_default() += 1;
                count_surfaces(&mut out.surfaces, agent, &obs, &cfg);
                for (aspect, theirs, ours) in hook_aspects(agent, &case, &obs, &cfg) {
                    let e = out.surfaces.entry((agent, aspect)).or_default();
                    e.0 += 1;
                    e.1 += usize::from(theirs == ours);
                }
                out.disagreements.entry(agent).or_default().extend(found);
            }
        }
        temps.clear();
    }
    out
}

/// The text Codex sends inside `<INSTRUCTIONS>`, from the compilation:
/// the user's global instructions, then `--- project-doc ---` between
/// blank lines (openai/codex `AGENTS_MD_SEPARATOR`), then the project
/// files joined by a blank line.
fn codex_chain(cfg: &EffectiveAgentConfig) -> String {
    let startup: Vec<&Instruction> = cfg
        .received_instructions()
        .into_iter()
        .filter(|i| i.load_phase == LoadPhase::Startup)
        .collect();
    let (global, project): (Vec<&Instruction>, Vec<&Instruction>) = startup
        .into_iter()
        .partition(|i| i.source.path.is_on_machine());
    let join = |v: &[&Instruction]| {
        v.iter()
            .map(|i| i.content.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    match (global.is_empty(), project.is_empty()) {
        (false, false) => format!(
            "{}\n\n--- project-doc ---\n\n{}",
            join(&global),
            join(&project)
        ),
        (false, true) => join(&global),
        _ => join(&project),
    }
}

/// What differs between the observation `obs` of `agent` `version` on
/// `case` (its repository at `root`) and the adapter's compilation `cfg`,
/// on every aspect the oracle compares for that agent.
fn disagreements(
    agent: &str,
    case: &Case,
    root: &Path,
    version: &str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) -> Vec<Disagreement> {
    match agent {
        "claude-code" => claude_disagreements(case, version, obs, cfg),
        "codex" => codex_disagreements(case, version, obs, cfg),
        "gemini" => gemini_disagreements(case, version, obs, cfg),
        "opencode" => opencode_disagreements(case, root, version, obs, cfg),
        "copilot" => copilot_disagreements(case, version, obs, cfg),
        other => panic!("no comparison of {other}'s observations"),
    }
}

/// Counts the surface aspects of one observation of `agent` that started
/// ([`crate::oracle_surfaces`]): compared, and agreeing.
fn count_surfaces(
    into: &mut BTreeMap<(&'static str, &'static str), (usize, usize)>,
    agent: &'static str,
    obs: &Value,
    cfg: &EffectiveAgentConfig,
) {
    let aspects = match agent {
        "claude-code" if obs["exit"] == "ok" => crate::oracle_surfaces::claude(obs, cfg),
        "opencode" if obs["exit"] == 0 => crate::oracle_surfaces::opencode(obs, cfg),
        "copilot" if obs["exit"] == 0 => crate::oracle_surfaces::copilot(obs, cfg),
        "gemini" if obs["exit"] == 0 => crate::oracle_surfaces::gemini(obs, cfg),
        "codex" => codex_system_skill_aspect(obs, cfg),
        _ => Vec::new(),
    };
    for (aspect, theirs, ours) in aspects {
        let e = into.entry((agent, aspect)).or_default();
        e.0 += 1;
        e.1 += usize::from(theirs == ours);
    }
}

/// True when repository paths `a` and `b` lead to one file of the case's
/// copy at `root`, every symbolic link on the way followed (by hand: a
/// path through a folder link looping back, as OpenCode names a skill
/// there, can hold more links than `realpath` follows).
fn same_file(root: &Path, a: &str, b: &str) -> bool {
    let real = |rel: &str| -> Option<PathBuf> {
        let mut at = root.to_path_buf();
        let mut todo: Vec<String> = rel.split('/').rev().map(str::to_string).collect();
        let mut links = 0;
        while let Some(c) = todo.pop() {
            match c.as_str() {
                "" | "." => continue,
                ".." => {
                    at.pop();
                    continue;
                }
                _ => at.push(&c),
            }
            if let Ok(target) = std::fs::read_link(&at) {
                links += 1;
                if links > 10_000 || target.is_absolute() {
                    return None;
                }
                at.pop();
                let t = target.to_string_lossy().into_owned();
                todo.extend(t.split('/').rev().map(str::to_string));
            }
        }
        Some(at)
    };
    real(a).is_some_and(|x| Some(x) == real(b))
}

/// One row of `oracle/bisect/<agent>.sample.json` that keeps the whole
/// observation of its case at a sampled release (`bisect.py --sample`).
struct SampledObservation {
    release: String,
    case: String,
    observed: Value,
}

/// The sampled observations of `agent`, one per release and case (a case
/// that several behaviours picked at one release is compared once).
fn sampled_observations(agent: &str) -> Vec<SampledObservation> {
    let path = workspace().join(format!("oracle/bisect/{agent}.sample.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Vec::new();
    };
    let doc: Value = serde_json::from_str(&text).expect("sample results are JSON");
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for row in doc["checks"].as_array().into_iter().flatten() {
        let (Some(release), Some(case)) = (row["release"].as_str(), row["case"].as_str()) else {
            continue;
        };
        if row["observed"].is_object() && seen.insert((release.to_string(), case.to_string())) {
            out.push(SampledObservation {
                release: release.to_string(),
                case: case.to_string(),
                observed: row["observed"].clone(),
            });
        }
    }
    out
}

/// The observations `oracle/bisect/<agent>.older.json` keeps of releases
/// inside the modelled window (`bisect.py --older`, rows with
/// `observed`), one per release and case, the cases with a home left out
/// (local mode is compared apart).
fn older_observations(agent: &str) -> Vec<SampledObservation> {
    let path = workspace().join(format!("oracle/bisect/{agent}.older.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Vec::new();
    };
    let doc: Value = serde_json::from_str(&text).expect("older sample is JSON");
    let homed: BTreeSet<String> = cases()
        .into_iter()
        .filter(|c| c.home.is_some())
        .map(|c| c.id)
        .collect();
    let mut out = Vec::new();
    for row in doc["releases"].as_array().into_iter().flatten() {
        let Some(release) = row["release"].as_str() else {
            continue;
        };
        for (case, observed) in row["observed"].as_object().into_iter().flatten() {
            if !homed.contains(case) {
                out.push(SampledObservation {
                    release: release.to_string(),
                    case: case.clone(),
                    observed: observed.clone(),
                });
            }
        }
    }
    out
}

/// The sampled observations of `agent` ([`sampled_observations`]) and
/// those of the releases sampled before its oldest profile
/// ([`older_observations`]), one per release and case.
fn all_sampled(agent: &str) -> Vec<SampledObservation> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for s in sampled_observations(agent)
        .into_iter()
        .chain(older_observations(agent))
    {
        if seen.insert((s.release.clone(), s.case.clone())) {
            out.push(s);
        }
    }
    out
}

/// The profiles of the releases between and before the profiled ones,
/// checked on the sampled releases: each observation a sample keeps
/// (`oracle/bisect/<agent>.sample.json`, rows with `observed`, and
/// `<agent>.older.json`, releases with `observed`) is compared with the
/// adapter's compilation for that release (in local mode for a case
/// with a fixture home), on every aspect the profiled releases are
/// compared on; a disagreement must be listed for that release in
/// `oracle/known-disagreements/<agent>.toml`.
#[test]
fn the_sampled_releases_agree_with_their_profiles() {
    let by_id: BTreeMap<String, Case> = cases().into_iter().map(|c| (c.id.clone(), c)).collect();
    let mut problems = Vec::new();
    let mut compared = 0;
    for agent in AGENTS {
        let listed = known(agent);
        let mut used = BTreeSet::new();
        let samples = all_sampled(agent);
        for s in &samples {
            let case = by_id
                .get(&s.case)
                .unwrap_or_else(|| panic!("{agent} sample: no case {}", s.case));
            let mut temps = Vec::new();
            let Some(root) = materialize(case, &mut temps) else {
                continue; // a corpus case without the corpus
            };
            // A case with a home is compared in local mode, as the
            // profiled releases' observations are.
            let machine = case_machine(case, &root, &mut temps);
            let observed = match machine {
                Some(_) => env_named(home_named(s.observed.clone()), &env_places(case)),
                None => s.observed.clone(),
            };
            let cfg = compile(agent, &s.release, &root, case, machine.as_ref());
            compared += 1;
            for d in disagreements(agent, case, &root, &s.release, &observed, &cfg) {
                let hit = listed.iter().position(|e| {
                    e.case == d.case
                        && e.aspect == d.aspect
                        && e.versions.contains(&d.version)
                        && e.agent == d.agent
                        && e.adapter == d.adapter
                });
                if let Some(i) = hit {
                    used.insert((i, d.version.clone()));
                } else {
                    problems.push(format!(
                        "{agent} {} on {}, {}: the agent shows {:?}, the profile {:?}",
                        d.version, d.case, d.aspect, d.agent, d.adapter
                    ));
                }
            }
        }
        // Every entry for a sampled release must still occur there.
        for (i, e) in listed.iter().enumerate() {
            for v in &e.versions {
                let sampled = samples.iter().any(|s| &s.release == v && s.case == e.case);
                if sampled
                    && !profiled(agent).contains(&v.as_str())
                    && !used.contains(&(i, v.clone()))
                {
                    problems.push(format!(
                        "{agent} {v} on {}, {}: listed, but the sample agrees; remove the version",
                        e.case, e.aspect
                    ));
                }
            }
        }
    }
    assert!(compared > 0, "no sampled observation compared");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

#[test]
fn the_adapters_agree_with_the_recorded_agents_or_the_disagreement_is_listed() {
    let outcome = run_all();
    if !outcome.skipped.is_empty() {
        visible(&format!(
            "oracle: skipped {} corpus case(s): ../shared/corpus is absent",
            outcome.skipped.len()
        ));
    }
    let mut problems = Vec::new();
    let mut listed_by_agent = BTreeMap::new();
    for agent in AGENTS {
        let entries = known(agent);
        let file = format!("oracle/known-disagreements/{agent}.toml");
        let found = outcome
            .disagreements
            .get(agent)
            .cloned()
            .unwrap_or_default();
        let mut used = BTreeSet::new();
        for d in &found {
            let hit = entries.iter().position(|e| {
                e.case == d.case
                    && e.aspect == d.aspect
                    && e.versions.contains(&d.version)
                    && e.agent == d.agent
                    && e.adapter == d.adapter
            });
            match hit {
                Some(i) => {
                    used.insert((i, d.version.clone()));
                }
                None => problems.push(format!(
                    "unlisted disagreement with {agent} {}: add to {file}:\n\n[[disagreement]]\ncase = {}\naspect = {}\nversions = [{}]\nagent = {}\nadapter = {}\nreason = \"\"\nfix = \"\"\n",
                    d.version,
                    toml_str(&d.case),
                    toml_str(d.aspect),
                    toml_str(&d.version),
                    toml_str(&d.agent),
                    toml_str(&d.adapter),
                )),
            }
        }
        for (i, e) in entries.iter().enumerate() {
            if e.reason.trim().is_empty() || e.fix.trim().is_empty() {
                problems.push(format!(
                    "{file}: entry case {} aspect {} needs a reason and a fix",
                    e.case, e.aspect
                ));
            }
            if outcome.skipped.contains(&e.case) {
                continue;
            }
            // A sampled release's entry is held by
            // `the_sampled_releases_agree_with_their_profiles`.
            for v in e
                .versions
                .iter()
                .filter(|v| profiled(agent).contains(&v.as_str()))
            {
                if !used.contains(&(i, v.clone())) {
                    problems.push(format!(
                        "listed disagreement no longer occurs with {agent} {v}: in {file}, remove version {v} from the entry case = {}, aspect = {} (delete the entry when no version is left)",
                        toml_str(&e.case),
                        toml_str(&e.aspect)
                    ));
                }
            }
        }
        listed_by_agent.insert(agent, entries);
    }
    // docs/fidelity.md, generated.
    let doc = fidelity_doc(&outcome, &listed_by_agent);
    let path = workspace().join("docs/fidelity.md");
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        if outcome.skipped.is_empty() {
            std::fs::write(&path, &doc).unwrap();
        } else {
            visible("oracle: docs/fidelity.md not regenerated: the corpus is absent");
        }
    } else if outcome.skipped.is_empty() {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != doc {
            problems.push(
                "docs/fidelity.md is stale: run `UPDATE_GENERATED=1 cargo test -p playbookdiff --test cli oracle::`".into(),
            );
        }
    } else {
        visible("oracle: docs/fidelity.md staleness not checked: the corpus is absent");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn fidelity_doc(outcome: &Outcome, listed: &BTreeMap<&str, Vec<Known>>) -> String {
    let mut s = String::new();
    s.push_str("# Fidelity: the adapters against the real agents\n\n");
    s.push_str("<!-- Generated by `UPDATE_GENERATED=1 cargo test -p playbookdiff --test cli oracle::`; do not edit. -->\n\n");
    s.push_str("Each case of `oracle/cases.toml` (a fixture or corpus repository, a launch\n");
    s.push_str("directory, sometimes a target) was run with the real agent\n");
    s.push_str("(`scripts/oracle/record.py`, see `oracle/README.md`) and compiled with the\n");
    s.push_str("adapter's profile for the same version. A case agrees when nothing the\n");
    s.push_str("observation can see differs. Every disagreement is listed below with its\n");
    s.push_str("reason and the work that would fix it; the test fails on any other.\n\n");
    s.push_str("Compared for Claude Code: the memory files of the first request in order\n");
    s.push_str("(`startup-files`) and their text (`startup-text`), imports and their\n");
    s.push_str("parents (`imports`), the skills listed to the model (`skills`) and the\n");
    s.push_str("description each is listed with (`skill-descriptions`), the MCP\n");
    s.push_str("servers of the `init` line (`mcp-servers`), and the files a scripted read of\n");
    s.push_str("the target attaches (`on-demand-files`), and the repository's hooks that\n");
    s.push_str("fired, each writing a marker file (`hooks`: session start, prompt, the\n");
    s.push_str("scripted `Read` before and after). For Codex, with the project\n");
    s.push_str("trusted (or the case's own trust entries, given to the adapter with the same\n");
    s.push_str("values): whether it starts (`start`), the AGENTS.md chain byte for byte\n");
    s.push_str("(`agents-md`), the skills listed (`skills`, name and path), `codex mcp\n");
    s.push_str("list` (`mcp-servers`) and the hooks of the app server's `hooks/list`\n");
    s.push_str("(`hooks`: file, event, may run until the user trusts its hash). For\n");
    s.push_str("OpenCode: the plugin modules of `opencode debug config` (`plugin-modules`), whether it starts (`start`), the\n");
    s.push_str("instruction files of the first request in order (`startup-files`), the\n");
    s.push_str("skills it lists (`skills`), every skill `opencode debug skill` finds by\n");
    s.push_str("name and file (`skill-files`), the enabled MCP servers of `opencode debug\n");
    s.push_str("config` (`mcp-servers`), and the files a read of the target attaches\n");
    s.push_str("(`on-demand-files`). For Gemini CLI, with the workspace trusted: whether it\n");
    s.push_str("starts (`start`), the context files of the main request in order\n");
    s.push_str("(`startup-files`), which file each inlined import came from (`imports`),\n");
    s.push_str("the skills it lists (`skills`), the servers of `gemini mcp list` not\n");
    s.push_str("blocked, with their transport (`mcp-servers`), and the context files a scripted\n");
    s.push_str("`read_file` of the target adds (`on-demand-files`); with a fixture home\n");
    s.push_str("holding policies or extensions, the built-in tools the main request\n");
    s.push_str("withholds or adds against a run with an empty home (`tools-withheld`,\n");
    s.push_str("`tools-added`). Subagents, commands,\n");
    s.push_str("output styles and plugins are compared too, per surface below. What the\n");
    s.push_str("oracle cannot see is in `oracle/README.md`.\n\n");
    s.push_str("For Copilot CLI, with the repository trusted: the `<custom_instruction>`\n");
    s.push_str("blocks of the first request in order, each named by the file whose text it\n");
    s.push_str("holds, with their imports (`instructions`), the path-specific files inlined\n");
    s.push_str("after them (`inlined`), the table of files injected on view\n");
    s.push_str("(`on-demand-table`), the project skills of `session.skills_loaded`\n");
    s.push_str("(`skills`) and the workspace servers of `session.mcp_servers_loaded`\n");
    s.push_str("(`mcp-servers`).\n\n");
    s.push_str("Cases run with a fixture home (local mode) are counted apart, in \"Local\n");
    s.push_str("mode: fixture homes\" below.\n\n");
    agreement_table(&mut s, outcome, &outcome.compared, false);
    local_section(&mut s, outcome);
    bisection_section(&mut s);
    fuzz_section(&mut s, listed);
    surface_section(&mut s, outcome);
    unverified_section(&mut s);
    observed_sections(&mut s);
    for agent in AGENTS {
        let _ = writeln!(s, "## Known disagreements: {agent}\n");
        let entries = &listed[agent];
        if entries.is_empty() {
            s.push_str("None.\n\n");
            continue;
        }
        // Group entries by reason and fix, so one cause reads once.
        let mut groups: BTreeMap<(&str, &str), Vec<&Known>> = BTreeMap::new();
        for e in entries {
            groups.entry((&e.fix, &e.reason)).or_default().push(e);
        }
        for ((fix, reason), es) in groups {
            let _ = writeln!(s, "- **{}**: {}", fix.trim(), reason.trim());
            let mut lines: Vec<String> = es
                .iter()
                .map(|e| format!("  - `{}` ({}, {})", e.case, e.aspect, e.versions.join(", ")))
                .collect();
            lines.sort();
            lines.dedup();
            for l in lines {
                s.push_str(&l);
                s.push('\n');
            }
        }
        s.push('\n');
    }
    s
}

/// The table of cases, agreeing and disagreeing, per agent and version:
/// of the cases with a fixture home when `local`, of the others otherwise.
fn agreement_table(
    s: &mut String,
    outcome: &Outcome,
    compared: &BTreeMap<(&'static str, &'static str), usize>,
    local: bool,
) {
    s.push_str("| agent | version | cases | agree | disagree |\n|---|---|---|---|---|\n");
    for agent in AGENTS {
        for &v in profiled(agent) {
            let Some(&n) = compared.get(&(agent, v)) else {
                if local {
                    continue;
                }
                let _ = writeln!(s, "| {agent} | {v} | 0 | 0 | 0 |");
                continue;
            };
            let bad: BTreeSet<&str> = outcome
                .disagreements
                .get(agent)
                .map(|d| {
                    d.iter()
                        .filter(|d| d.version == v)
                        .filter(|d| outcome.homes.contains_key(&d.case) == local)
                        .map(|d| d.case.as_str())
                        .collect()
                })
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "| {agent} | {v} | {n} | {} | {} |",
                n - bad.len(),
                bad.len()
            );
        }
    }
    s.push('\n');
}

/// The local-mode cases: each compiled with `--mode local` and the
/// fixture home the agent ran with (`home` in `oracle/cases.toml`), their
/// agreement per agent and version, and which case has which home.
fn local_section(s: &mut String, outcome: &Outcome) {
    s.push_str("## Local mode: fixture homes\n\n");
    s.push_str("These cases give the agent a home holding the user's own files (copied\n");
    s.push_str("from `oracle/homes/NAME` into the run's empty home, the recorder's own\n");
    s.push_str("settings merged in), and compile the case in local mode with that home;\n");
    s.push_str("paths in the home are compared as `~/...` and `$CODEX_HOME/...`.\n\n");
    agreement_table(s, outcome, &outcome.local_compared, true);
    s.push_str("| case | home |\n|---|---|\n");
    for (case, home) in &outcome.homes {
        let _ = writeln!(s, "| `{case}` | `{home}` |");
    }
    s.push('\n');
}

/// Each behaviour change of a bisected harness, from
/// `oracle/bisect/<agent>.json` (`scripts/oracle/bisect.py`): the fact,
/// the first release that shows it, the last that does not, the
/// observation that tells them apart, and what the search cost; then the
/// sampled releases of `<agent>.sample.json`, when recorded.
fn bisection_section(s: &mut String) {
    s.push_str(
        "## Behaviour changes by release

",
    );
    s.push_str(
        "`scripts/oracle/bisect.py` found, for each behaviour that differs between
",
    );
    s.push_str(
        "two profiled releases, the first published release that shows it: a binary
",
    );
    s.push_str(
        "search over the releases between them, each candidate installed once and
",
    );
    s.push_str(
        "only the case that tells the behaviour apart re-run (or the agent's code
",
    );
    s.push_str(
        "searched for a name). The adapters' version tables start each fact at the
",
    );
    s.push_str(
        "release found (the registry's `bisected` test holds them to it), so every
",
    );
    s.push_str("release of each modelled window below is modelled without a warning.\n\n");
    for agent in AGENTS {
        let path = workspace().join(format!("oracle/bisect/{agent}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            older_lines(s, agent, true);
            continue;
        };
        let doc: Value = serde_json::from_str(&text).expect("bisection results are JSON");
        let a = adapter(agent);
        let _ = writeln!(s, "### {}\n", a.harness().display_name());
        let _ = writeln!(
            s,
            "Modelled window: {} to {}.\n",
            a.first_modelled(),
            a.profiled_versions().last().copied().unwrap_or("?")
        );
        match agent {
            "codex" => codex_window_lines(s),
            "opencode" => wrapped(s, OPENCODE_WINDOW),
            _ => {}
        }
        dated_window_lines(s, agent);
        if agent == "copilot" {
            copilot_window_lines(s);
        }
        s.push_str("| behaviour | fact | first release | last without | observation | installs | runs | seconds |\n");
        s.push_str("|---|---|---|---|---|---|---|---|\n");
        for b in doc["behaviours"].as_array().into_iter().flatten() {
            let str_of = |k: &str| b[k].as_str().unwrap_or("").to_string();
            let _ = writeln!(
                s,
                "| `{}` | `{}`{} | {} | {} | {} | {} | {} | {} |",
                str_of("id"),
                str_of("fact"),
                if b["modelled"] == Value::Bool(false) {
                    " (not modelled)"
                } else {
                    ""
                },
                str_of("firstRelease"),
                str_of("lastWithout"),
                bisect_observation(b),
                b["installs"],
                b["runs"],
                b["seconds"]
            );
        }
        s.push('\n');
        unmodelled_lines(s, agent);
        sample_lines(s, agent);
        if agent == "codex" {
            methods_lines(s);
        }
        older_lines(s, agent, false);
    }
}

/// The first release of the twelve months before `asOf` by the release
/// dates of the agent's own changelog (`oracle/bisect/<agent>.dates.json`,
/// `bisect.py --changelog-dates`), when recorded: the first published
/// release from which every dated release is of that day or later.
fn dated_window_lines(s: &mut String, agent: &str) {
    let path = workspace().join(format!("oracle/bisect/{agent}.dates.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("release dates are JSON");
    let as_of = doc["asOf"].as_str().expect("asOf");
    let (year, rest) = as_of.split_once('-').expect("a YYYY-MM-DD day");
    let since = format!("{}-{rest}", year.parse::<u32>().expect("a year") - 1);
    let mut dated: Vec<(&str, &str)> = doc["dates"]
        .as_object()
        .expect("dates")
        .iter()
        .filter_map(|(v, d)| Some((v.as_str(), d.as_str()?)))
        .collect();
    dated.sort_by(|a, b| compare_versions(a.0, b.0));
    let first = (0..dated.len())
        .find(|&i| dated[i..].iter().all(|(_, d)| *d >= since.as_str()))
        .expect("a release in the twelve months");
    let (v, d) = dated[first];
    let before = first
        .checked_sub(1)
        .map(|i| format!(", the release before it, {}, of {}", dated[i].0, dated[i].1))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "Release dates from the agent's own changelog (`oracle/bisect/{agent}.dates.json`, {} releases dated; npm's publish times do not follow the version order): the first release of the twelve months before {as_of} is {v}, of {d}{before}.\n",
        dated.len()
    );
}

/// How Copilot CLI's window reaches the first release of the twelve
/// months, and how its oldest releases load instructions.
fn copilot_window_lines(s: &mut String) {
    let first = adapter("copilot").first_modelled();
    let _ = writeln!(
        s,
        "The window starts at {first}, the first release of the twelve months (`copilot.window-start`). The recorder reaches a release before 0.0.376 (`copilot.api-token-login`) with a GitHub token variable beside `COPILOT_API_URL`, which it takes as its login without asking GitHub; 0.0.368 asks that host's GraphQL API for its Copilot API, which the recorder answers with itself. {first} to 0.0.384 send one source of instructions alone, inlined without a `<custom_instruction>` block (the user's and the git root's `copilot-instructions.md`, else `AGENTS.md`, else `CLAUDE.md`, else `GEMINI.md`; `index.js`, the instruction loader), until `copilot.instruction-blocks`; the recorder names the file by its text. An older release gets its profile, with a diagnostic.\n"
    );
}

/// How Codex's window start was chosen: npm's publish times cannot give
/// it, so it is the earliest sampled release from which every fact is
/// bisected; the releases sampled before 0.77.0 are listed from
/// `oracle/bisect/codex.older.json`.
fn codex_window_lines(s: &mut String) {
    let path = workspace().join("oracle/bisect/codex.older.json");
    let text = std::fs::read_to_string(&path).expect("oracle/bisect/codex.older.json");
    let doc: Value = serde_json::from_str(&text).expect("older sample is JSON");
    let before: Vec<&str> = doc["releases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["release"].as_str())
        .filter(|v| compare_versions(v, "0.77.0") == Ordering::Less)
        .collect();
    let text = format!(
        "npm's publish times of Codex do not follow the version order: they are \
         re-publication times (0.63.0 is dated 2026-04-07, 0.74.0 2026-09-16, \
         0.77.0 2026-01-15), and every release from 0.21.0 on carries a time in \
         the last twelve months, so no publish-time rule gives the window's \
         start. It is the earliest sampled release from which every fact is \
         bisected: the releases sampled before 0.77.0 ({}) agree with 0.77.0 \
         on every case but one, the system skills \
         (`codex.system-skills-installed`). The dates of the releases \
         themselves, from public reports made when each came out: 0.63.0 was out by \
         2025-11-21 (github/gh-aw#4557 gives its release 2025-11-21 18:25 \
         UTC, 0.61.0's 2025-11-20; tact-lang/pitaya#111 links the \
         rust-v0.63.0 release on 2025-11-17), 0.69.0 by 2025-12-10 \
         (openai/codex#7841), 0.71.0 by 2025-12-11 (tact-lang/pitaya#149), \
         0.75.0 on 2025-12-18 and 0.76.0 on 2025-12-19 (github/gh-aw#7002). \
         Twelve months before 2026-12-05 is 2025-12-05: 0.63.0 is older, \
         so the window already reaches past the last twelve months; their \
         first release lies from 0.64.0 to 0.69.0, which the window holds. \
         The system skills' rows below read a scan of every published \
         release from 0.77.0 to 0.171.0 (103 releases, each installed and \
         run once on case \
         `oracle.local_user_layers.home-codex-approval-untrusted`, from \
         0.149.0 `...home-codex-approval-on-failure`; 0.142.1 and 0.153.1 \
         were published without the executable for this platform): their \
         searches find every release in the cache and install nothing.",
        before.join(", ")
    );
    wrapped(s, &text);
}

/// How OpenCode's window start was chosen: the first release of the
/// twelve months before 2026-12-05, dated by the project's release
/// history (npm's publish times cannot date it).
const OPENCODE_WINDOW: &str = "npm's publish times of OpenCode do not follow the \
     version order: they are re-publication times (1.0.152 is dated 2026-09-23, \
     1.0.162 2026-03-24, 1.1.16 2026-03-13), every release on npm within the last \
     twelve months. The release dates come from the project's release history as \
     its packagers' update threads give it: 1.0.119 was released by 2025-11-28 \
     (nixpkgs pull request 465987), 1.0.124 by 2025-12-01 (466816), and 1.0.133 \
     was the newest release on 2025-12-05 (467958); 1.0.215 followed on 2025-12-30 \
     (zed-industries/extensions 4312). So 1.0.98, published before 1.0.119, is \
     more than twelve months old on 2026-12-05, and 1.0.152, the next release on \
     npm, published after 1.0.133, is the first within the twelve months: the \
     window starts there, also the first release the recorder observes \
     (`opencode.runs-offline`).";

/// `text` as lines of at most 72 characters, then a blank line.
fn wrapped(s: &mut String, text: &str) {
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > 72 {
            let _ = writeln!(s, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let _ = writeln!(s, "{line}\n");
}

/// The two ways the recorder observes Codex, compared on the profiled
/// releases (`oracle/bisect/codex.methods.json`, `bisect.py
/// --compare-methods`): per release, the cases observed through `codex
/// exec` and how many agree with the committed `codex debug prompt-input`
/// observations, the rest told apart by what differs.
fn methods_lines(s: &mut String) {
    let path = workspace().join("oracle/bisect/codex.methods.json");
    let text = std::fs::read_to_string(&path).expect("oracle/bisect/codex.methods.json");
    let doc: Value = serde_json::from_str(&text).expect("method comparison is JSON");
    s.push_str("Releases before 0.120.0 have no `codex debug prompt-input`: the recorder\n");
    s.push_str("observes them through the first request `codex exec` sends to a fake\n");
    s.push_str("Responses API. Both methods on every committed case of the profiled\n");
    s.push_str("releases (`oracle/bisect/codex.methods.json`): a refusal is worded by\n");
    s.push_str("each command in its own way (same exit status), and `codex exec` runs\n");
    s.push_str("with its own approval policy, so that method records no `permissions`.\n\n");
    s.push_str("| release | cases | identical | refusal worded apart | permissions not observed | other differences |\n");
    s.push_str("|---|---|---|---|---|---|\n");
    let count = |v: &Value| v.as_object().map_or(0, |o| o.len());
    for r in doc["releases"].as_array().into_iter().flatten() {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            r["release"].as_str().unwrap_or("?"),
            r["cases"],
            r["identical"],
            count(&r["refusalWording"]),
            count(&r["permissionsNotObserved"]),
            count(&r["differs"]) + count(&r["failed"])
        );
    }
    s.push('\n');
}

/// The recorder's two Codex methods agree on every committed case of
/// each profiled release (`oracle/bisect/codex.methods.json`): no case
/// differs beyond a refusal's wording and the approval policy `codex exec`
/// sets itself, none failed, and every committed case was compared.
#[test]
fn both_codex_methods_agree_on_the_profiled_releases() {
    let path = workspace().join("oracle/bisect/codex.methods.json");
    let text = std::fs::read_to_string(&path).expect("oracle/bisect/codex.methods.json");
    let doc: Value = serde_json::from_str(&text).expect("method comparison is JSON");
    for v in adapter("codex").profiled_versions() {
        let row = doc["releases"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["release"] == *v)
            .unwrap_or_else(|| panic!("codex {v}: the methods were not compared"));
        assert_eq!(row["differs"], serde_json::json!({}), "codex {v}");
        assert_eq!(row["failed"], serde_json::json!({}), "codex {v}");
        let committed = std::fs::read_dir(workspace().join("oracle/observations/codex").join(v))
            .expect("observations")
            .filter_map(Result::ok)
            .filter(|e| !e.file_name().to_string_lossy().starts_with('_'))
            .count();
        assert_eq!(
            row["cases"], committed as u64,
            "codex {v}: every committed case"
        );
        for (case, aspects) in row["refusalWording"].as_object().into_iter().flatten() {
            for a in aspects.as_array().into_iter().flatten() {
                assert!(
                    a.as_str().is_some_and(|a| a.ends_with(".stderr")),
                    "{case}: {a}"
                );
            }
        }
    }
}

/// The behaviours of `agent` that stay not modelled, each with the reason
/// (`unmodelled` in `oracle/bisect/behaviours.toml`).
fn unmodelled_lines(s: &mut String, agent: &str) {
    let path = workspace().join("oracle/bisect/behaviours.toml");
    let text = std::fs::read_to_string(&path).expect("oracle/bisect/behaviours.toml");
    let doc: toml::Value = toml::from_str(&text).expect("behaviours are TOML");
    let mut lines = Vec::new();
    for b in doc["behaviour"].as_array().into_iter().flatten() {
        if b.get("agent").and_then(|a| a.as_str()) != Some(agent)
            || b.get("modelled").and_then(|m| m.as_bool()) != Some(false)
        {
            continue;
        }
        let id = b["id"].as_str().unwrap_or("?");
        let why = b
            .get("unmodelled")
            .and_then(|w| w.as_str())
            .unwrap_or_else(|| panic!("behaviour {id}: `modelled = false` needs `unmodelled`"));
        lines.push(format!("- `{id}`: {why}."));
    }
    if !lines.is_empty() {
        let _ = writeln!(s, "Not modelled, and why:\n\n{}\n", lines.join("\n"));
    }
}

/// The releases before the oldest profile sampled by `bisect.py --older`
/// (`oracle/bisect/<agent>.older.json`), under the harness's own heading
/// when `heading`: each release observed on the listed cases and compared
/// with the oldest profile's observations, each difference with the
/// bisected behaviour that explains it ([`explained_by`]), a release
/// before the adapter's modelled window marked so; a release published
/// without the executable for this platform is left out.
fn older_lines(s: &mut String, agent: &str, heading: bool) {
    let path = workspace().join(format!("oracle/bisect/{agent}.older.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("sample results are JSON");
    if heading {
        let _ = writeln!(s, "### {}\n", adapter(agent).harness().display_name());
    }
    let str_of = |v: &Value| v.as_str().unwrap_or("").to_string();
    let profile = str_of(&doc["profile"]);
    let first = adapter(agent).first_modelled();
    let cases: Vec<String> = doc["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| format!("`{}`", str_of(c)))
        .collect();
    let on = if cases.is_empty() {
        "the behaviours' cases".to_string()
    } else {
        format!("{} cases ({})", cases.len(), cases.join(", "))
    };
    let kept: Vec<String> = doc["releases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["observed"].is_object())
        .map(|r| str_of(&r["release"]))
        .collect();
    let compared = match kept.as_slice() {
        [] => String::new(),
        _ => format!(" The observations of {} are kept and compared with the adapter at that release too (cases without a home): each agrees or its disagreement is listed.", kept.join(", ")),
    };
    let _ = writeln!(
        s,
        "Before {profile}: releases from {start} sampled on {on}, each compared with the observations of {profile} ({} installs, {} runs). Beside a difference, the bisected behaviour that explains it; a release before the modelled window is modelled as the window's first release, with a diagnostic.{compared}\n",
        doc["installs"],
        doc["runs"],
        start = str_of(&doc["window"][0]),
    );
    s.push_str("| release | what differs from the profile |\n|---|---|\n");
    for r in doc["releases"].as_array().into_iter().flatten() {
        let what = if r["unrunnable"] == Value::Bool(true) {
            "left out: published without the executable for this platform".to_string()
        } else {
            let differs = r["differs"].as_object().cloned().unwrap_or_default();
            let parts: Vec<String> = differs
                .iter()
                .map(|(case, aspects)| {
                    let a: Vec<String> = aspects
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|x| {
                            let aspect = str_of(x);
                            let release = str_of(&r["release"]);
                            let between = (release.as_str(), profile.as_str());
                            let why = explained_by(agent, case, &aspect, between);
                            format!("`{aspect}`{why}")
                        })
                        .collect();
                    format!("`{case}`: {}", a.join(", "))
                })
                .collect();
            let before = if compare_versions(&str_of(&r["release"]), first) == Ordering::Less {
                format!("before the modelled window (from {first}): ")
            } else {
                String::new()
            };
            if parts.is_empty() {
                "nothing".to_string()
            } else {
                format!("{before}{}", parts.join("; "))
            }
        };
        let _ = writeln!(s, "| {} | {what} |", str_of(&r["release"]));
    }
    s.push('\n');
}

/// The bisected behaviour of `agent` (`oracle/bisect/<agent>.json`) that
/// explains why a release differs from the oldest profile on `aspect` of
/// `case` (`between`: the release and the profile): one seen on that case
/// and aspect whose first release comes after the release and not after
/// the profile, as " (`id`, from R)" with "not modelled" for one the
/// adapter does not model; empty when none does.
fn explained_by(agent: &str, case: &str, aspect: &str, between: (&str, &str)) -> String {
    let path = workspace().join(format!("oracle/bisect/{agent}.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return String::new();
    };
    let doc: Value = serde_json::from_str(&text).expect("bisection results are JSON");
    let found = doc["behaviours"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|b| {
            b["witness"] == case
                && b["aspect"] == aspect
                && b["firstRelease"].as_str().is_some_and(|first| {
                    compare_versions(first, between.0) == Ordering::Greater
                        && compare_versions(first, between.1) != Ordering::Greater
                })
        });
    found.map_or_else(String::new, |b| {
        format!(
            " (`{}`{}, from {})",
            b["id"].as_str().unwrap_or(""),
            if b["modelled"] == Value::Bool(false) {
                ", not modelled"
            } else {
                ""
            },
            b["firstRelease"].as_str().unwrap_or("")
        )
    })
}

/// A behaviour's text as the fidelity table shows it: whole up to 120
/// characters, else its first 60 and last 40 characters around the count
/// of characters left out (the table cell stays readable; the full text is
/// in `oracle/bisect/behaviours.toml`).
fn shown_text(t: &str) -> String {
    let chars: Vec<char> = t.chars().collect();
    if chars.len() <= 120 {
        return t.to_string();
    }
    let head: String = chars[..60].iter().collect();
    let tail: String = chars[chars.len() - 40..].iter().collect();
    format!("{head}…({} characters)…{tail}", chars.len() - 100)
}

/// What tells a bisected behaviour apart, in words: the case and aspect
/// (or the agent's code) and the text present or absent (or present so
/// many times) from the first release on.
fn bisect_observation(b: &Value) -> String {
    let quoted = |k: &str| -> Vec<String> {
        b[k].as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .map(|t| format!("`{}`", shown_text(t).replace('|', "\\|").replace('`', "'")))
            .collect()
    };
    let (present, absent, ordered) = (quoted("present"), quoted("absent"), quoted("ordered"));
    if let Some(since) = b["publishedSince"].as_str() {
        // A window's start by publish time: the first release of the
        // twelve months, which the recorder observes.
        let dates: Vec<String> = b["published"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(v, t)| format!("{v} {}", t.as_str().unwrap_or("").get(..10).unwrap_or("")))
            .collect();
        return format!(
            "the first published on or after {since} ({}: {}); its case `{}` runs",
            b["datesFrom"].as_str().unwrap_or("npm"),
            dates.join(", "),
            b["witness"].as_str().unwrap_or("")
        );
    }
    let place = match b["witness"].as_str() {
        Some("code") | None => "the installed package".to_string(),
        Some(case) => format!("`{}` of case `{case}`", b["aspect"].as_str().unwrap_or("")),
    };
    let mut what = Vec::new();
    if !present.is_empty() {
        what.push(format!("holds {}", present.join(", ")));
    }
    if !absent.is_empty() {
        what.push(format!("lacks {}", absent.join(", ")));
    }
    if !ordered.is_empty() {
        what.push(format!("holds {} in this order", ordered.join(", ")));
    }
    // `atLeast`: a count of a listing (descriptions dropped or whole).
    for (text, n) in b["atLeast"].as_object().into_iter().flatten() {
        let text = shown_text(text).replace('|', "\\|").replace('`', "'");
        what.push(format!("holds `{text}` at least {n} times"));
    }
    if what.is_empty() {
        what.push("equals the newer profiled release's".to_string());
    }
    format!("{place} {}", what.join(" and "))
}

/// The sampled releases of `oracle/bisect/<agent>.sample.json`: per
/// behaviour, the releases checked and those that contradict the boundary.
fn sample_lines(s: &mut String, agent: &str) {
    let path = workspace().join(format!("oracle/bisect/{agent}.sample.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("sample results are JSON");
    let all = doc["checks"].as_array().cloned().unwrap_or_default();
    let (unrunnable, checks): (Vec<Value>, Vec<Value>) = all
        .into_iter()
        .partition(|c| c["unrunnable"] == Value::Bool(true));
    let left_out: BTreeSet<&str> = unrunnable
        .iter()
        .filter_map(|c| c["release"].as_str())
        .collect();
    let mut releases: Vec<&str> = checks
        .iter()
        .filter_map(|c| c["release"].as_str())
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .collect();
    releases.sort_by(|a, b| compare_versions(a, b));
    let compared = checks.iter().filter(|c| c["observed"].is_object()).count();
    let against: Vec<String> = checks
        .iter()
        .filter(|c| c["agrees"] == Value::Bool(false))
        .map(|c| {
            format!(
                "`{}` at {}",
                c["behaviour"].as_str().unwrap_or(""),
                c["release"].as_str().unwrap_or("")
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "Sampled: {} checks at {} releases ({}), {} against the boundaries{}{}.\n",
        checks.len(),
        releases.len(),
        releases.join(", "),
        against.len(),
        if against.is_empty() {
            String::new()
        } else {
            format!(": {}", against.join(", "))
        },
        if left_out.is_empty() {
            String::new()
        } else {
            format!(
                "; left out, published without the executable for this platform: {}",
                left_out.iter().copied().collect::<Vec<_>>().join(", ")
            )
        }
    );
    if compared > 0 {
        let _ = writeln!(
            s,
            "Of these, {compared} keep their case's whole observation, compared with the adapter at that release on every aspect the profiled releases are compared on: each agrees or its disagreement is listed.\n"
        );
    }
}

/// The random repositories of `scripts/oracle/fuzz.py`, per agent and
/// release, from its reports `oracle/fuzz/<agent>/<version>.json`: the seed
/// range, the repositories observed (the range less its `leftOut` seeds,
/// whose agent runs timed out), how many agreed, the disagreement kinds (aspects) with how many
/// repositories show each, the rate before the last round of fixes (the
/// report's `before`, when measured on the same seeds), and the shrunk
/// cases.
fn fuzz_section(s: &mut String, listed: &BTreeMap<&str, Vec<Known>>) {
    s.push_str("## Random repositories\n\n");
    s.push_str("`scripts/oracle/fuzz.py` generates repositories at random over the grammar of\n");
    s.push_str("agent configuration (seeded: a seed and an agent give one tree, byte for\n");
    s.push_str("byte), records the real agent on each as the cases above are recorded, and\n");
    s.push_str("compares with this test's own comparison (`oracle::fuzz_compare`). A\n");
    s.push_str("repository agrees when no aspect differs. For the first repository of each\n");
    s.push_str("kind of disagreement (its aspect), the repository was shrunk by delta\n");
    s.push_str("debugging, re-running the agent at each step; shrunk cases kept as oracle\n");
    s.push_str("cases are named `fuzz.<agent>.<seed>`. Each shrunk case below shows what\n");
    s.push_str("differed when it was shrunk; a case not listed among the known\n");
    s.push_str("disagreements has been fixed since. The rates are those of the adapter as it\n");
    s.push_str("is (`fuzz.py recompare` compares the recorded observations again); \"before\n");
    s.push_str("fixes\" is the rate of the adapter before the last round of fixes on the same\n");
    s.push_str("observations (`recompare --as-before` with the earlier build). A seed whose\n");
    s.push_str("agent run timed out twice is no observation of the agent: it is left out of\n");
    s.push_str("\"repositories\" and of the rate. The generator `home` (`fuzz.py --home`)\n");
    s.push_str("adds to each repository a home of the user's own files the agent reads\n");
    s.push_str("(instructions, rules, skills, settings, MCP servers), and compares in\n");
    s.push_str("local mode with that home, as the cases of \"Local mode: fixture homes\"\n");
    s.push_str("are compared; its cases are named `fuzz.<agent>.home.<seed>`.\n\n");
    let mut rows = Vec::new();
    for agent in AGENTS {
        for &v in profiled(agent) {
            for (generator, suffix) in [("repository", ""), ("home", ".home")] {
                let path = workspace().join(format!("oracle/fuzz/{agent}/{v}{suffix}.json"));
                if let Ok(text) = std::fs::read_to_string(&path) {
                    let r: Value = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
                    rows.push((agent, v, generator, r));
                }
            }
        }
    }
    if rows.is_empty() {
        s.push_str("No run recorded yet.\n\n");
        return;
    }
    s.push_str("| agent | version | generator | seeds | repositories | agree | rate | before fixes | disagreement kinds (repositories) |\n|---|---|---|---|---|---|---|---|---|\n");
    for (agent, v, generator, r) in &rows {
        let (first, end) = (
            r["seeds"][0].as_u64().unwrap(),
            r["seeds"][1].as_u64().unwrap(),
        );
        // Seeds without an observation of the agent (a run that timed out
        // twice) are left out of the rate.
        let left_out = r["leftOut"].as_array().map_or(0, Vec::len) as u64;
        let n = end - first - left_out;
        let agree = r["agree"].as_u64().unwrap();
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for d in r["disagreeing"].as_array().unwrap() {
            for a in d["aspects"].as_array().unwrap() {
                *kinds.entry(a.as_str().unwrap()).or_default() += 1;
            }
        }
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("`{k}` ({n})")).collect();
        let rate = if n == 0 {
            0.0
        } else {
            agree as f64 * 100.0 / n as f64
        };
        let before = match r["before"]["agree"].as_u64() {
            Some(b) if r["before"]["seeds"] == r["seeds"] && n > 0 => {
                format!("{b} ({:.1}%)", b as f64 * 100.0 / n as f64)
            }
            _ => "not measured".to_string(),
        };
        let _ = writeln!(
            s,
            "| {agent} | {v} | {generator} | {first}..{end}{} | {n} | {agree} | {rate:.1}% | {before} | {} |",
            if left_out == 0 {
                String::new()
            } else {
                format!(" ({left_out} left out)")
            },
            if kinds.is_empty() {
                "none".to_string()
            } else {
                kinds.join(", ")
            }
        );
    }
    s.push('\n');
    let ids: BTreeSet<String> = cases().into_iter().map(|c| c.id).collect();
    for (agent, v, generator, r) in &rows {
        let prefix = if *generator == "home" { "home." } else { "" };
        for k in r["shrunk"].as_array().unwrap() {
            let seed = format!("fuzz.{agent}.{prefix}{}", k["seed"]);
            let of_seed = |c: &str| c == seed || c.starts_with(&format!("{seed}."));
            let kept: Vec<&String> = ids.iter().filter(|c| of_seed(c)).collect();
            let status = match (listed[agent].iter().any(|e| of_seed(&e.case)), kept.last()) {
                (true, Some(id)) => format!("case `{id}`, listed below"),
                (false, Some(id)) => format!("case `{id}`, fixed"),
                (_, None) => "not kept as a case".to_string(),
            };
            let _ = writeln!(
                s,
                "- {agent} {v}, seed {prefix}{}, `{}`: shrunk to {} file(s) in {} agent runs ({status}); agent: `{}`; adapter: `{}`",
                k["seed"],
                k["aspect"].as_str().unwrap_or_default(),
                k["files"],
                k["runs"],
                k["theirs"].as_str().unwrap_or("(no longer differs)"),
                k["ours"].as_str().unwrap_or(""),
            );
        }
    }
    s.push('\n');
}

/// The harnesses no recording checks ([`UNVERIFIED`]).
fn unverified_section(s: &mut String) {
    for id in UNVERIFIED {
        let a = adapter(id);
        let _ = writeln!(
            s,
            "## {}: not verified
",
            a.harness().display_name()
        );
        s.push_str("No release of this agent can be run here (Cursor installs by a download\n");
        s.push_str("script, not a package), so no case is recorded and nothing is compared.\n");
        s.push_str("The adapter follows the agent's documentation and public issue threads;\n");
        let _ = writeln!(
            s,
            "its profile ({}) names the documented behaviour, not an observed release.",
            a.profiled_versions().join(", ")
        );
        s.push_str("Every result it gives carries the `behaviour-unverified` diagnostic and\n");
        s.push_str("an assumption saying that it is not verified against the agent.\n\n");
    }
}

/// The agreement per surface beside instructions, skills and MCP servers:
/// subagents, their listing, output styles, plugins and commands.
fn surface_section(s: &mut String, outcome: &Outcome) {
    s.push_str("## Agreement per surface\n\n");
    s.push_str("Subagents, commands, output styles and plugins, per agent, over every case\n");
    s.push_str("and profiled version that shows them (`subagents`: Claude Code's `init`\n");
    s.push_str("agents, OpenCode's `debug config` agents; `subagent-listing`: the\n");
    s.push_str("`- name: description (Tools: ...)` list of Claude Code's `Agent` tool;\n");
    s.push_str("`task-agents`: the agents OpenCode's `task` tool lists, and the\n");
    s.push_str("user-provided custom agents of Copilot CLI's `task` tool, over the cases\n");
    s.push_str("recorded with that list; `output-style`: the\n");
    s.push_str("style whose body reaches Claude Code's request; `plugins`: the plugins\n");
    s.push_str("Claude Code's `init` line loads; `commands`: OpenCode's `debug config`\n");
    s.push_str("commands). Codex's custom agents are not observed (its `spawn_agent` tool is\n");
    s.push_str("not in `codex debug prompt-input`). Hooks, over the cases that hold some\n");
    s.push_str("(`hooks`: the hooks that fired for Claude Code, Copilot CLI and Gemini\n");
    s.push_str("CLI, each writing a marker file, the app server's `hooks/list` for\n");
    s.push_str("Codex; `hooks-trusted`: the same list once the user's trust entries\n");
    s.push_str("name every hook; `plugin-modules`: OpenCode's plugin modules). Codex's\n");
    s.push_str("system skills, over the cases with a home (`system-skills`: the skills of\n");
    s.push_str("`$CODEX_HOME/skills/.system` its listing names). Gemini\n");
    s.push_str("CLI, over the cases recorded with them: the project subagents its\n");
    s.push_str("request lists, every file acknowledged as the user would\n");
    s.push_str("(`subagents`), and the commands that run, by the name that runs them\n");
    s.push_str("(`commands`: `gemini -p /NAME` for each file, `/workspace.NAME` when a\n");
    s.push_str("built-in holds the name).\n\n");
    s.push_str("| agent | surface | comparisons | agree |\n|---|---|---|---|\n");
    for ((agent, aspect), (n, ok)) in &outcome.surfaces {
        let _ = writeln!(s, "| {agent} | {aspect} | {n} | {ok} |");
    }
    s.push('\n');
}

/// Every registered harness is checked against its agent: adding a
/// harness adds its recording (`scripts/oracle/record.py`), its cases and
/// the comparison of its observations here.
#[test]
fn the_oracle_covers_every_registered_harness() {
    let registered: Vec<&str> = playbookdiff_registry::adapters()
        .iter()
        .map(|a| a.harness().as_str())
        .collect();
    let mut covered: Vec<&str> = AGENTS.iter().chain(UNVERIFIED.iter()).copied().collect();
    covered.sort_unstable();
    assert_eq!(covered, registered);
    for id in UNVERIFIED {
        let cfg = playbookdiff_registry::by_id(id).unwrap().compile(
            &playbookdiff_source::Repo::new(&playbookdiff_testkit::trees::MemTree::default()),
            &playbookdiff_model::AnalysisContext::at_root(),
            None,
        );
        assert!(
            cfg.diagnostics
                .iter()
                .any(|d| d.code == playbookdiff_model::DiagnosticCode::BehaviourUnverified),
            "{id}: an unverified harness says so in every result"
        );
    }
}

/// The entries of `oracle/observed.toml`, one section each, naming the
/// cases that show it.
fn observed_sections(s: &mut String) {
    for o in observed() {
        let _ = writeln!(s, "## Observed: {}\n", o.topic.trim());
        let _ = writeln!(s, "{}\n", o.text.trim());
        let names: Vec<String> = o.cases.iter().map(|c| format!("`{c}`")).collect();
        let _ = writeln!(s, "Cases: {}.\n", names.join(", "));
    }
}

#[test]
fn every_observed_entry_names_recorded_cases() {
    let ids: BTreeSet<String> = cases().into_iter().map(|c| c.id).collect();
    for o in observed() {
        assert!(
            !o.cases.is_empty(),
            "oracle/observed.toml: `{}` names no case",
            o.topic
        );
        for c in &o.cases {
            assert!(
                ids.contains(c),
                "oracle/observed.toml: `{}` names {c}, which is not a case of oracle/cases.toml",
                o.topic
            );
        }
    }
}

#[test]
fn every_fixture_directory_is_a_case() {
    let cases = cases();
    let named: BTreeSet<&str> = cases.iter().filter_map(|c| c.fixture.as_deref()).collect();
    let mut missing = Vec::new();
    // Every crate's fixtures (each adapter's, the comparison's), but the
    // command line's: those are shaped like public repositories and only
    // some are cases; and an unverified harness's, which no agent records.
    let mut crates: Vec<String> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "playbookdiff")
        .filter(|name| {
            !UNVERIFIED
                .iter()
                .any(|id| *name == format!("playbookdiff-{id}"))
        })
        .filter(|name| {
            workspace()
                .join("crates")
                .join(name)
                .join("tests/fixtures")
                .is_dir()
        })
        .collect();
    crates.sort();
    assert!(crates.len() >= 3, "{crates:?}");
    let dirs = crates
        .iter()
        .map(|c| format!("crates/{c}/tests/fixtures"))
        .chain(["oracle/fixtures".to_string()]);
    for rel in dirs {
        for entry in std::fs::read_dir(workspace().join(&rel)).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                let p = format!("{rel}/{}", entry.file_name().to_string_lossy());
                if !named.contains(p.as_str()) {
                    missing.push(p);
                }
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "fixture directories missing from oracle/cases.toml (add a case, then record it with scripts/oracle/record.py --case ID): {missing:?}"
    );
}

#[test]
fn every_fixture_home_is_a_cases_home() {
    let cases = cases();
    let named: BTreeSet<&str> = cases.iter().filter_map(|c| c.home.as_deref()).collect();
    let mut homes = Vec::new();
    for entry in std::fs::read_dir(workspace().join("oracle/homes")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            homes.push(format!(
                "oracle/homes/{}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    assert!(!homes.is_empty());
    let unused: Vec<&String> = homes
        .iter()
        .filter(|h| !named.contains(h.as_str()))
        .collect();
    assert!(unused.is_empty(), "fixture homes no case names: {unused:?}");
    for home in named {
        assert!(workspace().join(home).is_dir(), "no fixture home {home}");
        assert!(
            home.starts_with("oracle/homes/"),
            "{home}: a fixture home lies in oracle/homes"
        );
    }
}

#[test]
fn every_case_is_observed_for_every_profiled_version() {
    let mut missing = Vec::new();
    let mut ids = BTreeSet::new();
    for case in cases() {
        assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
        assert!(
            case.fixture.is_some() != case.corpus.is_some(),
            "case {} must name exactly one of fixture and corpus",
            case.id
        );
        for agent in &case.agents {
            assert!(
                AGENTS.contains(&agent.as_str()),
                "case {}: unknown agent {agent}",
                case.id
            );
            for version in profiled(agent) {
                if !observation_path(agent, version, &case.id).is_file() {
                    missing.push(format!("{agent} {version} {}", case.id));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cases without a recorded observation (run scripts/oracle/record.py --agent AGENT --version V --case ID):\n{}",
        missing.join("\n")
    );
}

// ------------------------------------------------------------- fuzzing

/// The comparison `scripts/oracle/fuzz.py` runs on its random repositories,
/// the same code as the differential test above: with
/// `PLAYBOOKDIFF_FUZZ_DIR` naming a directory that holds `cases.toml` (the
/// shape of `oracle/cases.toml`, fixtures by absolute path) and
/// `observations/<agent>/<version>/<case>.json`, every observed case is
/// compiled and compared, and `disagreements.json` is written there: an
/// array of `{case, agent, version, aspect, theirs, ours}`, in case order.
/// An adapter that panics on a case gives the aspect `panic` with the
/// message as `ours`. Ignored by `cargo test`: the fuzzer runs it with
/// `--ignored --exact`.
#[test]
#[ignore = "run by scripts/oracle/fuzz.py with PLAYBOOKDIFF_FUZZ_DIR set"]
fn fuzz_compare() {
    let dir = PathBuf::from(
        std::env::var_os("PLAYBOOKDIFF_FUZZ_DIR")
            .expect("PLAYBOOKDIFF_FUZZ_DIR names the fuzzer's directory"),
    );
    let mut rows = Vec::new();
    for case in cases_in(&dir.join("cases.toml")) {
        for agent in AGENTS {
            if case.agents.iter().any(|a| a == agent) {
                rows.extend(fuzz_rows(&dir.join("observations"), agent, &case));
            }
        }
    }
    let text = serde_json::to_string_pretty(&rows).expect("rows serialize");
    std::fs::write(dir.join("disagreements.json"), text + "\n").expect("write disagreements.json");
}

/// The disagreements of every observed version of `agent` on `case`, as
/// the fuzzer's rows.
fn fuzz_rows(observations: &Path, agent: &'static str, case: &Case) -> Vec<Value> {
    let mut rows = Vec::new();
    for &version in profiled(agent) {
        let path = observation_path_in(observations, agent, version, &case.id);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut obs: Value = serde_json::from_str(&text).expect("observation parses");
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut temps = Vec::new();
            let root = materialize(case, &mut temps).expect("a fuzz case is a fixture");
            // A case of the home generator: local mode with its home.
            let machine = case_machine(case, &root, &mut temps);
            if machine.is_some() {
                obs = env_named(home_named(obs.clone()), &env_places(case));
            }
            let cfg = compile(agent, version, &root, case, machine.as_ref());
            disagreements(agent, case, &root, version, &obs, &cfg)
        }));
        let found = found.unwrap_or_else(|e| {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            vec![Disagreement {
                case: case.id.clone(),
                version: version.to_string(),
                aspect: "panic",
                agent: String::new(),
                adapter: msg,
            }]
        });
        rows.extend(found.into_iter().map(|d| {
            serde_json::json!({"case": d.case, "agent": agent, "version": d.version,
                "aspect": d.aspect, "theirs": d.agent, "ours": d.adapter})
        }));
    }
    rows
}

/// The built-in skills an adapter lists in local mode for each profiled
/// release are those the release listed on an empty repository with an
/// empty home (`_bundled.json`, recorded beside the cases): by name, in
/// the agent's listing order, each with provenance `builtin:NAME` and
/// scope `builtin`; repo mode lists none.
#[test]
fn built_in_skills_are_the_ones_each_release_lists() {
    for agent in ["gemini"] {
        for &version in profiled(agent) {
            let path = observation_path(agent, version, "_bundled");
            let text = std::fs::read_to_string(&path).expect("the bundled baseline is recorded");
            let obs: Value = serde_json::from_str(&text).unwrap();
            let recorded: Vec<String> = obs["startup"]["skillsListed"]
                .as_array()
                .expect("a list of skill names")
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect();
            let repo = tempfile::tempdir().unwrap();
            let home = tempfile::tempdir().unwrap();
            let tree = WorkingTree::open(repo.path()).unwrap();
            let machine = Machine::new(Some(home.path().to_path_buf()));
            let mut context = AnalysisContext {
                repository_root: RepoPath::root(),
                cwd: RepoPath::root(),
                target_path: None,
                mode: Mode::Local,
            };
            let inputs = Inputs {
                version: Some(version),
                machine: Some(&machine),
                ..Inputs::default()
            };
            let cfg = adapter(agent).compile_with(&Repo::new(&tree), &context, &inputs);
            let builtin: Vec<String> = cfg
                .skills
                .iter()
                .filter(|s| s.source.scope == SourceScope::Builtin)
                .map(|s| {
                    assert_eq!(s.source.path.as_str(), format!("builtin:{}", s.name));
                    assert_eq!(s.source.lines, None);
                    s.name.clone()
                })
                .collect();
            assert_eq!(builtin, recorded, "{agent} {version}");
            context.mode = Mode::Repo;
            let repo_mode = Inputs {
                version: Some(version),
                ..Inputs::default()
            };
            let cfg = adapter(agent).compile_with(&Repo::new(&tree), &context, &repo_mode);
            assert!(cfg.skills.is_empty(), "{agent} {version}: repo mode");
        }
    }
}

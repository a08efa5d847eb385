//! `playbookdiff round`: reads the briefs folder, the environment and
//! HEAD, and hands them to `playbookdiff-round`, which decides and
//! assembles; compiles what each agent receives where the scope lies.

use crate::check::Outcome;
use crate::cli::{
    AgentInputArgs, ContextArgs, RoundBriefArgs, RoundCommand, RoundContextArgs, RoundEscalateArgs,
    RoundFormat, RoundRuleArgs, RoundRulingsArgs, RulingArg,
};
use crate::context::{find_repository_root, open_context, UsageError};
use crate::exit::ExitStatus;
use playbookdiff_model::EffectiveAgentConfig;
use playbookdiff_registry::Inputs;
use playbookdiff_round::packet::{self, PacketInputs};
use playbookdiff_round::select::{
    self, Head, Selection, Sources, BRIEF_VARIABLE, CI_BRANCH_VARIABLES,
};
use playbookdiff_round::Brief;
use std::path::{Path, PathBuf};

/// The briefs folder when `playbookdiff.toml` names none.
const DEFAULT_BRIEFS: &str = "briefs";

/// The largest linked document read, in bytes (16 MiB): a larger one is
/// named with the reason, not read.
const MAX_DOCUMENT_BYTES: u64 = 16 << 20;

/// Carries out a `round` subcommand.
///
/// # Errors
/// A one-line [`UsageError`] (exit 2) when no brief is named, an empty id
/// is given, the id names no brief or two, or the briefs folder cannot be
/// read.
pub(crate) fn run(command: &RoundCommand, here: Option<&Path>) -> Result<Outcome, UsageError> {
    match command {
        RoundCommand::Context(args) => context(args, here),
        RoundCommand::Escalate(args) => escalate(args, here),
        RoundCommand::Rule(args) => rule(args, here),
        RoundCommand::Rulings(args) => rulings(args, here),
        RoundCommand::Probe(args) => crate::round_probe::run(args, here),
        RoundCommand::Audit(args) => crate::round_audit::run(args, here),
        RoundCommand::Check(args) => crate::round_check::run(args, here),
    }
}

/// When the brief id given as the argument ID names a directory and no
/// brief (`round rulings examples/monorepo`): the repository was meant,
/// which `round` takes with `--repo`. The answer is the line to print,
/// the command line rewritten ([`crate::habits::repo_given_the_other_way`]).
pub(crate) fn brief_id_names_a_directory(
    target: &RoundBriefArgs,
    args: &[std::ffi::OsString],
    here: Option<&Path>,
) -> Option<String> {
    let (Some(id), None, Some(dir)) = (&target.id, &target.repo, here) else {
        return None;
    };
    if !dir.join(id).is_dir() || find(target, here).is_ok() {
        return None;
    }
    crate::habits::repo_given_the_other_way(args, id, here)
}

/// The brief a round works under, found: the repository root, the
/// brief's repository-relative path, the brief and what named it.
pub(crate) struct Found {
    pub(crate) root: PathBuf,
    pub(crate) path: String,
    pub(crate) brief: Brief,
    pub(crate) selection: Selection,
}

/// The brief `target` names, read, in the repository it names.
///
/// # Errors
/// A one-line [`UsageError`] (exit 2): no repository, no brief named,
/// an id that names no brief or two, a briefs folder that cannot be read.
pub(crate) fn find(target: &RoundBriefArgs, here: Option<&Path>) -> Result<Found, UsageError> {
    let root = match (&target.repo, here) {
        (Some(r), Some(h)) => h.join(r),
        (Some(r), None) => r.clone(),
        (None, Some(h)) => find_repository_root(h),
        (None, None) => {
            return Err(UsageError(
                "the current directory cannot be read; pass --repo REPO".into(),
            ))
        }
    };
    if !root.is_dir() {
        return Err(UsageError(format!(
            "--repo {}: no such directory; give the repository's root",
            root.display()
        )));
    }
    let folder = briefs_folder(&root, here)?;
    let selection = selection(target, &root)?;
    let (path, brief) = find_brief(&root, &folder, &selection)?;
    Ok(Found {
        root,
        path,
        brief,
        selection,
    })
}

fn context(args: &RoundContextArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    let Found {
        root,
        path,
        brief,
        selection,
    } = find(&args.target, here)?;
    let configs = launch_configs(&args.agent, &root, &brief, here)?;
    let brief_dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or_default();
    let documents = packet::linked_documents(&brief.text, brief_dir, &path)
        .into_iter()
        .map(|p| {
            let text = read_document(&root, &p);
            (p, text)
        })
        .collect();
    let packet = packet::build(PacketInputs {
        brief: &brief,
        path,
        named_by: selection.by,
        configs,
        documents,
        budget_chars: args.budget,
    });
    let output = match args.format {
        RoundFormat::Text => playbookdiff_render::round::context_text(&packet),
        RoundFormat::Json => playbookdiff_render::round::context_json(&packet),
    };
    Ok(Outcome {
        output,
        status: ExitStatus::Success,
    })
}

/// The briefs folder, repository-relative: `briefs` in
/// `playbookdiff.toml`, else [`DEFAULT_BRIEFS`]. Refused when absolute or
/// leaving the repository.
fn briefs_folder(root: &Path, here: Option<&Path>) -> Result<String, UsageError> {
    let loaded = crate::project::load(None, root, here)?;
    let Some(given) = loaded.and_then(|l| l.config.briefs.map(|b| b.into_inner())) else {
        return Ok(DEFAULT_BRIEFS.to_string());
    };
    let folder = given.trim().trim_end_matches('/');
    if folder.is_empty() || folder.starts_with('/') || folder.split('/').any(|c| c == "..") {
        return Err(UsageError(format!(
            "playbookdiff.toml: briefs = `{given}` is not a folder inside the repository; give a path relative to the repository root"
        )));
    }
    Ok(folder.to_string())
}

fn selection(args: &RoundBriefArgs, root: &Path) -> Result<Selection, UsageError> {
    let variable = std::env::var(BRIEF_VARIABLE).ok();
    let ci: Vec<(&str, String)> = CI_BRANCH_VARIABLES
        .iter()
        .filter_map(|name| std::env::var(name).ok().map(|v| (*name, v)))
        .collect();
    let head = match playbookdiff_source::GitRepository::open(root) {
        Err(_) => Head::Unknown,
        Ok(git) => match git.head_branch() {
            Ok(Some(branch)) => Head::Branch(branch),
            Ok(None) => Head::Detached,
            Err(_) => Head::Unknown,
        },
    };
    let sources = Sources {
        flag: args.id.as_deref().or(args.brief.as_deref()),
        variable: variable.as_deref(),
        head,
        ci: ci.iter().map(|(n, v)| (*n, v.as_str())).collect(),
    };
    select::select(&sources).map_err(|e| UsageError(e.sentence()))
}

/// The brief whose `id` is the selected one, with its repository-relative
/// path. Refused: no such brief (the known ids are listed), or two.
fn find_brief(
    root: &Path,
    folder: &str,
    selection: &Selection,
) -> Result<(String, Brief), UsageError> {
    let dir = root.join(folder);
    if !dir.is_dir() {
        return Err(UsageError(format!(
            "brief `{}`: the briefs folder `{folder}/` does not exist; create it, or name another with `briefs` in playbookdiff.toml",
            selection.id
        )));
    }
    let (briefs, unreadable) = crate::brief_disk::read_briefs(root, &dir);
    let mut matching = briefs.iter().filter(|(_, b)| b.id == selection.id);
    match (matching.next(), matching.next()) {
        (Some(found), None) => Ok(found.clone()),
        (Some((a, _)), Some((b, _))) => Err(UsageError(format!(
            "brief `{}`: both {a} and {b} have this id; give each brief its own id",
            selection.id
        ))),
        (None, _) => {
            let ids: Vec<&str> = briefs
                .iter()
                .map(|(_, b)| b.id.as_str())
                .filter(|i| !i.is_empty())
                .collect();
            let known = if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            };
            let unread = if unreadable.is_empty() {
                String::new()
            } else {
                format!("; not UTF-8 text, so not read: {}", unreadable.join(", "))
            };
            Err(UsageError(format!(
                "no brief in `{folder}/` has id `{}` (named by {}); known ids: {known}{unread}",
                selection.id,
                selection.by.describe()
            )))
        }
    }
}

/// What each registered agent receives in each launch directory the scope
/// touches ([`packet::launch_directories`]; one that does not exist is
/// moved up to its nearest existing ancestor).
fn launch_configs(
    agent: &AgentInputArgs,
    root: &Path,
    brief: &Brief,
    here: Option<&Path>,
) -> Result<Vec<(String, Vec<EffectiveAgentConfig>)>, UsageError> {
    let mut dirs: Vec<String> = Vec::new();
    for dir in packet::launch_directories(brief) {
        let existing = nearest_directory(root, &dir);
        if !dirs.contains(&existing) {
            dirs.push(existing);
        }
    }
    let harnesses = playbookdiff_registry::harnesses();
    dirs.into_iter()
        .map(|dir| {
            let context_args = ContextArgs {
                repo: Some(root.to_path_buf()),
                cwd: Some(if dir.is_empty() {
                    ".".to_string()
                } else {
                    dir.clone()
                }),
                root: true,
                agent: agent.clone(),
                ..ContextArgs::default()
            };
            let opened = open_context(&context_args, here)?;
            let repo = opened.repo(&harnesses, false, &[]);
            let configs = harnesses
                .iter()
                .map(|h| {
                    let inputs = Inputs {
                        outside_root: None,
                        ..agent.inputs(agent.agent_version(*h))
                    };
                    crate::compile::compile(*h, &repo, &opened.context, &inputs)
                })
                .collect();
            Ok((dir, configs))
        })
        .collect()
}

/// `dir`, or its nearest ancestor that is a directory (not a symbolic
/// link) of the working tree; `""` for the root.
fn nearest_directory(root: &Path, dir: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    while !parts.is_empty() {
        let path: PathBuf = parts.iter().fold(root.to_path_buf(), |p, c| p.join(c));
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            break;
        }
        parts.pop();
    }
    parts.join("/")
}

/// The text of the repository-relative `path`, or why it is not read: it
/// does not exist, leads out of the repository through a symbolic link,
/// is not a regular file, is larger than [`MAX_DOCUMENT_BYTES`] or is not
/// UTF-8 text.
fn read_document(root: &Path, path: &str) -> Result<String, String> {
    let full = root.join(path);
    let real = std::fs::canonicalize(&full).map_err(|_| "it does not exist".to_string())?;
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    if !real.starts_with(&real_root) {
        return Err("it leads out of the repository through a symbolic link".into());
    }
    let meta = std::fs::metadata(&real).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    if meta.len() > MAX_DOCUMENT_BYTES {
        return Err(format!("it is larger than {MAX_DOCUMENT_BYTES} bytes"));
    }
    std::fs::read_to_string(&real).map_err(|_| "it is not UTF-8 text".to_string())
}

/// Writes the memo into the brief's Rulings table as a pending row and
/// says so in one line.
///
/// # Errors
/// A one-line [`UsageError`] for an empty part, a path outside the
/// repository, a table without a memo column, or a brief that cannot be
/// written.
fn escalate(args: &RoundEscalateArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    use playbookdiff_round::escalate::{add_pending_row, Memo};
    let found = find(&args.target, here)?;
    let memo = Memo {
        path: args.path.clone(),
        reason: args.reason.clone(),
        options: args.options.clone(),
        recommendation: args.recommendation.clone(),
    };
    let (text, id) = add_pending_row(&found.brief.text, &found.brief.rulings, &memo)
        .map_err(|e| UsageError(format!("brief `{}`: {}", found.brief.id, e.sentence())))?;
    std::fs::write(found.root.join(&found.path), text)
        .map_err(|e| UsageError(format!("{}: cannot be written ({e})", found.path)))?;
    let output = playbookdiff_render::paragraph(
        &format!(
            "Escalation {id} for {} added to {} as pending; a person rules on it.",
            memo.path.trim(),
            found.path
        ),
        "",
        "  ",
    );
    Ok(Outcome {
        output,
        status: ExitStatus::Success,
    })
}

/// Writes a person's ruling into the row and says what makes it count.
///
/// # Errors
/// A one-line [`UsageError`] for an unknown row, an empty reason, a path
/// outside the repository, or a brief that cannot be written.
fn rule(args: &RoundRuleArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    use playbookdiff_round::rule::{write_ruling, RulingInput};
    use playbookdiff_round::rulings::Decision;
    let found = find(&args.target, here)?;
    let input = RulingInput {
        id: args.row.clone(),
        decision: match args.ruling {
            RulingArg::Allow => Decision::Allow,
            RulingArg::Deny => Decision::Deny,
        },
        path: args.path.clone(),
        reason: args.reason.clone(),
    };
    let text = write_ruling(&found.brief, &input)
        .map_err(|e| UsageError(format!("brief `{}`: {}", found.brief.id, e.sentence())))?;
    std::fs::write(found.root.join(&found.path), text)
        .map_err(|e| UsageError(format!("{}: cannot be written ({e})", found.path)))?;
    let mut output = playbookdiff_render::paragraph(
        &format!(
            "Row {} of {} is now {}. It counts once committed with your SSH signature:",
            input.id.trim(),
            found.path,
            input.decision.word(),
        ),
        "",
        "",
    );
    output.push_str(&format!(
        "  git add {} && git -c gpg.format=ssh commit -S -m \"Ruling {}\"\n",
        found.path,
        input.id.trim(),
    ));
    Ok(Outcome {
        output,
        status: ExitStatus::Success,
    })
}

/// Lists each row of the Rulings table, verified or not and why.
///
/// # Errors
/// A one-line [`UsageError`] when no brief is found.
fn rulings(args: &RoundRulingsArgs, here: Option<&Path>) -> Result<Outcome, UsageError> {
    use playbookdiff_round::rulings::{RowReport, RulingsReport};
    let found = find(&args.target, here)?;
    let (checked, signers, signer_problems) =
        crate::round_rulings::check(&found.root, &found.path, &found.brief);
    let report = RulingsReport {
        brief: found.brief.id.clone(),
        path: found.path.clone(),
        signers,
        signer_problems,
        rows: checked.iter().map(RowReport::of).collect(),
    };
    let output = match args.format {
        RoundFormat::Text => playbookdiff_render::round::rulings_text(&report),
        RoundFormat::Json => playbookdiff_render::round::rulings_json(&report),
    };
    Ok(Outcome {
        output,
        status: ExitStatus::Success,
    })
}

//! Codex's system skills, read in local mode.
//!
//! On start every release writes the skills it embeds into
//! `$CODEX_HOME/skills/.system`, with a marker file holding their
//! fingerprint (openai/codex `codex-rs/skills/src/lib.rs`,
//! `install_system_skills`): a folder whose marker is the release's own
//! is kept as it is, edits and added skills included; any other folder is
//! removed and written again. Codex then lists the folder's skills with
//! the others, before them in the listing budget, each under its
//! `agents/openai.yaml` policy (0.171.0 writes `create-statusline` and
//! `review-agent` with `allow_implicit_invocation: false`, so they are
//! not listed). Seen with 0.142.3 and 0.171.0 (case
//! `oracle.local_user_layers.home-codex-system-skills`: a folder with the
//! 0.171.0 marker and a skill of its own is listed as it is by 0.171.0,
//! replaced by the five skills of 0.142.3 by 0.142.3).
//!
//! So the skills listed are the folder's when its marker is the release's
//! ([`crate::profile::system_skills_marker`]), and otherwise the
//! release's own set ([`crate::profile::Facts::bundled_skills`], known by
//! name and description length only). Each is a skill in the `builtin`
//! layer at its path in Codex's home. Releases before 0.77.0 have no
//! system skills and leave the folder unread.

use super::loading::{build, parse_front_matter, Parsed};
use super::user::skill_files;
use super::Root;
use crate::profile::{self, Facts};
use crate::{skill_file, Cx, READ_LIMIT};
use playbookdiff_adapter::problems;
use playbookdiff_model::{
    Diagnostic, DiagnosticCode, RepoPath, Severity, Skill, SourceFormat, SourceRef, SourceScope,
};
use playbookdiff_source::{EntryKind, Machine};

/// The marker file's name in the system skills folder.
const MARKER: &str = ".codex-system-skills.marker";

/// The system skills of the analysed release in Codex's home `home` on
/// `machine`: the skills Codex lists once it has started.
pub(crate) struct SystemSkills<'a> {
    /// The machine read.
    pub machine: &'a Machine,
    /// Codex's home as provenance names it (`~/.codex`, `$CODEX_HOME`).
    pub home: &'a RepoPath,
    /// The analysed release.
    pub version: &'a str,
}

/// What Codex does with the folder on start.
enum Start {
    /// The marker is the release's: the folder is listed as it is.
    Keeps,
    /// No folder, or another marker: the release writes its own skills.
    Writes {
        /// The folder's marker when there is one (the release that wrote
        /// it is another, or its marker is not recorded).
        found: Option<String>,
    },
}

impl SystemSkills<'_> {
    /// Adds the system skills to `out`, reporting a folder Codex replaces.
    /// A release that writes none (before 0.77.0,
    /// [`crate::profile::SYSTEM_SKILLS_SINCE`]) neither lists nor replaces
    /// the folder (case `oracle.local_user_layers.home-codex-system-skills`:
    /// 0.75.0 lists no skill of it).
    pub(super) fn compile(&self, cx: &mut Cx<'_, '_>, facts: &Facts, out: &mut Vec<Skill>) {
        let Some(root) = self.home.join("skills/.system") else {
            return;
        };
        if facts.bundled_skills.is_empty() {
            return;
        }
        match self.start(&root) {
            Start::Keeps => self.read_folder(cx, &root, out),
            Start::Writes { found } => {
                if let Some(found) = found {
                    self.replaced(cx, &root, &found);
                }
                out.extend(self.written(cx, &root, facts));
            }
        }
    }

    /// Whether the release keeps the folder at `root`.
    fn start(&self, root: &RepoPath) -> Start {
        let is_dir = self
            .machine
            .stat(root)
            .is_ok_and(|s| s.kind == EntryKind::Dir);
        let found = root
            .join(MARKER)
            .filter(|_| is_dir)
            .and_then(|m| self.machine.read_text(&m, READ_LIMIT).ok())
            .map(|t| t.text.trim().to_string());
        match (found, profile::system_skills_marker(self.version)) {
            (Some(f), Some(own)) if f == own => Start::Keeps,
            (found, _) => Start::Writes { found },
        }
    }

    /// The folder's skills, each read as Codex reads a skill.
    fn read_folder(&self, cx: &mut Cx<'_, '_>, root: &RepoPath, out: &mut Vec<Skill>) {
        let place = Root {
            scan_dir: RepoPath::root(),
            path: root.clone(),
        };
        for file in skill_files(self.machine, root) {
            if let Some(s) = self.read(cx, &place, &file) {
                out.push(s);
            }
        }
    }

    /// One skill of a kept folder, with the policy of its
    /// `agents/openai.yaml`.
    fn read(&self, cx: &mut Cx<'_, '_>, root: &Root, file: &RepoPath) -> Option<Skill> {
        let text = match self.machine.read_text(file, READ_LIMIT) {
            Ok(t) => t,
            Err(e) => {
                crate::config::read_error(cx, file, e, SourceFormat::Markdown);
                return None;
            }
        };
        let dir = file.parent()?;
        let dir_name = dir.file_name()?.to_string();
        let parsed = parse_front_matter(cx, file, &dir_name, &text, true);
        let meta = dir.join("agents/openai.yaml");
        let policy_text = meta
            .as_ref()
            .and_then(|m| self.machine.read_text(m, READ_LIMIT).ok());
        let pol = policy_text
            .as_ref()
            .map(|t| skill_file::policy(&t.text))
            .unwrap_or_default();
        let meta = meta
            .filter(|_| policy_text.is_some())
            .map(|m| SourceRef::project(m, SourceFormat::Yaml));
        let mut skill = build(cx, root, &dir_name, file, &parsed, pol, meta);
        let kept = format!(
            "A system skill in `{}`, which Codex {} keeps as it is (its marker is the release's own)",
            root.path, self.version
        );
        skill.reason = match skill.advertisement.state {
            playbookdiff_model::AdvertisementState::Advertised => {
                format!("{kept}: Codex lists it first, in every project.")
            }
            _ => {
                let why = skill.reason.split_once(", but ").map_or("", |(_, w)| w);
                format!("{kept}, but {why}")
            }
        };
        Some(self.in_layer(skill))
    }

    /// The skills the release writes on start, from its profile.
    fn written(&self, cx: &Cx<'_, '_>, root: &RepoPath, facts: &Facts) -> Vec<Skill> {
        let place = Root {
            scan_dir: RepoPath::root(),
            path: root.clone(),
        };
        facts
            .bundled_skills
            .iter()
            .filter_map(|k| {
                let file = root.join(&format!("{}/SKILL.md", k.name))?;
                let parsed = Parsed {
                    name: Some(k.name.to_string()),
                    namespace: None,
                    description: None,
                    lines: None,
                    invalid: None,
                };
                let mut skill = build(
                    cx,
                    &place,
                    k.name,
                    &file,
                    &parsed,
                    skill_file::Policy::default(),
                    None,
                );
                skill.advertisement.description_chars = k.description_chars as u64;
                skill.reason = format!("A system skill Codex {} writes into `{root}` on start (the release's own text, a description of {} characters): Codex lists it first, in every project.", self.version, k.description_chars);
                Some(self.in_layer(skill))
            })
            .collect()
    }

    /// `skill` in the `builtin` layer, at its path in Codex's home.
    fn in_layer(&self, mut skill: Skill) -> Skill {
        skill.source.scope = SourceScope::Builtin;
        skill
    }

    /// Reports a folder whose marker is not the release's: Codex replaces
    /// it on start, edits and added skills included.
    fn replaced(&self, cx: &mut Cx<'_, '_>, root: &RepoPath, found: &str) {
        let Some(marker) = root.join(MARKER) else {
            return;
        };
        let own = match profile::system_skills_marker(self.version) {
            Some(m) => format!("Codex {}'s own is `{m}`", self.version),
            None => format!("the marker of Codex {} is not recorded", self.version),
        };
        let mut at = SourceRef::project(marker.clone(), SourceFormat::Text);
        at.scope = SourceScope::User;
        cx.diag(
            Diagnostic::new(
                DiagnosticCode::SystemSkillsReplaced,
                format!("The system skills folder {} holds the marker `{found}`, and {own}: on start Codex removes the folder and writes the release's own skills there, so what it lists are those, not the folder's; keep personal skills in `{}/skills` or `~/.agents/skills`.", problems::quote(root), self.home),
            )
            .with_severity(Severity::Info)
            .at(at),
        );
    }
}

/// True for a skill of the system layer ([`SystemSkills`]).
pub(super) fn is_system(skill: &Skill) -> bool {
    skill.source.scope == SourceScope::Builtin
}

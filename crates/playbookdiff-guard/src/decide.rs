//! The decision core: one [`Call`] under a [`Policy`] to one
//! [`Decision`]. No I/O but through [`Fs`].

use crate::fs::{self, Fs};
use crate::glob_reads;
use crate::host::{Action, Call, Event};
use crate::policy::{OpaqueVerdict, Policy};
use crate::rules::{self, Rule, Verdict};
use crate::shell::{self, Effect};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the guard knows besides the call: the policy, the file system,
/// the other work trees' policies, and the two states that deny every
/// call.
pub struct Situation<'a> {
    /// The policy of the work tree.
    pub policy: &'a Policy,
    /// The file system, read only.
    pub fs: &'a dyn Fs,
    /// The policies of the other work trees a write can land in.
    pub trees: &'a dyn WorkTrees,
    /// The kill switch's path when the file exists ([`rules::HALT`]).
    pub halt: Option<String>,
    /// The protected files a shell call changed outside the guard, when
    /// any did ([`rules::TAMPER`]).
    pub tampered: Option<Vec<String>>,
}

/// The policies of work trees other than the call's. The call's work
/// tree is the one holding its `cwd`; a write can land in another one: a
/// launch in a nested repository or a submodule writing `../CLAUDE.md`,
/// a `cwd` outside every work tree writing an absolute path into one.
/// That tree's own policy (its `[guard]`, its brief, the files its
/// agents read) decides such a write, as it would from its own `cwd`.
pub trait WorkTrees {
    /// The policy of the work tree whose root is `root` (the directory
    /// holding `.git`), or `None` when it cannot be built (the write is
    /// then refused: [`rules::POLICY_UNREADABLE`]).
    fn policy(&self, root: &Path) -> Option<Arc<Policy>>;
}

/// No other work tree's policy can be built: a write into another work
/// tree is refused.
pub struct NoWorkTrees;

impl WorkTrees for NoWorkTrees {
    fn policy(&self, _root: &Path) -> Option<Arc<Policy>> {
        None
    }
}

/// The guard's answer to one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// How strongly the call is held back.
    pub verdict: Verdict,
    /// The rule that decided.
    pub rule: &'static Rule,
    /// The sentence the model reads: what was refused, which rule, what
    /// to do instead. Names paths, never a file's content or a secret
    /// value.
    pub reason: String,
    /// The paths the decision is about (repository-relative inside the
    /// work tree, absolute outside).
    pub paths: Vec<String>,
}

impl Decision {
    /// The allow decision.
    pub fn allow() -> Decision {
        Decision {
            verdict: Verdict::Allow,
            rule: &rules::ALLOWED,
            reason: String::new(),
            paths: Vec::new(),
        }
    }

    /// `rule` with its own verdict, about `subject` (a phrase naming the
    /// path or command), with `paths`.
    pub fn of(rule: &'static Rule, subject: &str, paths: Vec<String>) -> Decision {
        Decision::with(rule, rule.verdict, subject, paths)
    }

    /// `rule` with `verdict`, about `subject`.
    pub fn with(
        rule: &'static Rule,
        verdict: Verdict,
        subject: &str,
        paths: Vec<String>,
    ) -> Decision {
        let opening = match verdict {
            Verdict::Deny => "Refused",
            Verdict::Ask => "Needs a person's approval",
            Verdict::Warn => "Allowed with a warning",
            Verdict::Allow => "Allowed",
        };
        Decision {
            verdict,
            rule,
            reason: format!(
                "{opening} by playbookdiff guard (rule `{}`): {subject}; it protects {}. Instead: {}.",
                rule.id, rule.protects, rule.instead
            ),
            paths,
        }
    }

    /// The stronger of two decisions (the first on a tie).
    fn max(self, other: Decision) -> Decision {
        if other.verdict > self.verdict {
            other
        } else {
            self
        }
    }
}

/// Decides `call` in situation `s`. Never panics on any input the host
/// can send; the command still runs it under `catch_unwind`.
pub fn decide(s: &Situation<'_>, call: &Call) -> Decision {
    if let Some(halt) = &s.halt {
        return Decision::of(
            &rules::HALT,
            &format!("the kill switch `{halt}` is present"),
            Vec::new(),
        );
    }
    if let Some(files) = &s.tampered {
        return Decision::of(
            &rules::TAMPER,
            &format!(
                "protected files changed outside the guard: {}; a person must review",
                files.join(", ")
            ),
            files.clone(),
        );
    }
    if call.event == Event::PostToolUse {
        return Decision::allow();
    }
    let d = Decider { s, cwd: &call.cwd };
    let writes = matches!(
        call.action,
        Action::Write(_) | Action::Patch(_) | Action::Shell(_)
    );
    if let (true, Err(why)) = (writes, &s.policy.config) {
        return Decision::of(
            &rules::POLICY_UNREADABLE,
            &format!("`[guard]` cannot be used ({why})"),
            Vec::new(),
        );
    }
    match &call.action {
        Action::Write(paths) => paths
            .iter()
            .map(|p| d.write(p))
            .fold(Decision::allow(), Decision::max),
        Action::Patch(ops) => ops
            .iter()
            .map(|op| d.write(op.path()))
            .fold(Decision::allow(), Decision::max),
        Action::Read(paths) => paths
            .iter()
            .map(|p| d.read(p))
            .fold(Decision::allow(), Decision::max),
        Action::ReadPatterns(patterns) => patterns
            .iter()
            .map(|p| d.read_pattern(p))
            .fold(Decision::allow(), Decision::max),
        Action::Fetch(url) => d.egress(&call.tool, shell::url_host(url)),
        Action::Shell(command) => d.shell(command),
        Action::Harmless => Decision::allow(),
    }
}

struct Decider<'a, 's> {
    s: &'a Situation<'s>,
    cwd: &'a Path,
}

/// Where a path is: inside the work tree (repository-relative, `.` for
/// the root) or outside it (absolute).
enum Place {
    Inside(String),
    Outside(PathBuf),
}

impl Decider<'_, '_> {
    fn policy(&self) -> &Policy {
        self.s.policy
    }

    /// `raw` made absolute: `~` is the home directory, a relative path is
    /// against the call's cwd; `.` and `..` taken out lexically.
    fn absolute(&self, raw: &str) -> PathBuf {
        let path = match (raw.strip_prefix('~'), &self.policy().home) {
            (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
                home.join(rest.trim_start_matches('/'))
            }
            (Some(rest), None) if rest.is_empty() || rest.starts_with('/') => {
                PathBuf::from("/~").join(rest.trim_start_matches('/'))
            }
            _ => self.cwd.join(raw),
        };
        fs::normalize(&path)
    }

    fn place(&self, path: &Path) -> Place {
        match path.strip_prefix(&self.policy().root) {
            Ok(rel) if !self.policy().git_dirs.iter().any(|g| path.starts_with(g)) => {
                let rel = rel.to_string_lossy().into_owned();
                Place::Inside(if rel.is_empty() { ".".into() } else { rel })
            }
            _ => Place::Outside(path.to_path_buf()),
        }
    }

    fn shown(place: &Place) -> String {
        match place {
            Place::Inside(rel) => rel.clone(),
            Place::Outside(p) => p.to_string_lossy().into_owned(),
        }
    }

    /// The literal and the link-resolved place of `raw`.
    fn places(&self, raw: &str) -> Result<[Place; 2], Decision> {
        let literal = self.absolute(raw);
        match fs::resolve(self.s.fs, &literal) {
            Ok(resolved) => Ok([self.place(&literal), self.place(&resolved)]),
            Err(_) => {
                let shown = Self::shown(&self.place(&literal));
                Err(Decision::of(
                    &rules::LINK,
                    &format!("`{shown}` goes through a link that cannot be resolved"),
                    vec![shown],
                ))
            }
        }
    }

    fn write(&self, raw: &str) -> Decision {
        if has_glob(raw) {
            return self.expand(raw, |d, p| d.write(p));
        }
        let d = match self.places(raw) {
            Ok(places) => places
                .iter()
                .map(|p| self.write_at(p, raw))
                .fold(Decision::allow(), Decision::max),
            Err(d) => return d,
        };
        if self.is_dir(raw) {
            return d.max(self.below(raw));
        }
        d
    }

    /// Whether `raw` names an existing directory (through links).
    fn is_dir(&self, raw: &str) -> bool {
        let at = self.absolute(raw);
        let at = fs::resolve(self.s.fs, &at).unwrap_or(at);
        self.s.fs.entry(&at) == fs::Entry::Dir
    }

    /// A change to every path below the directory `raw` (a recursive
    /// removal, the directory moved, a tree copied into it): the
    /// protected names directly inside it, without walking it, and the
    /// brief's `protectedFiles` that may match below it.
    fn below(&self, raw: &str) -> Decision {
        let root = self.absolute(raw);
        let mut d = Decision::allow();
        for name in self.policy().probe_names() {
            if self.s.fs.entry(&root.join(&name)) != crate::fs::Entry::Missing {
                let inner = format!("{}/{name}", raw.trim_end_matches('/'));
                d = d.max(self.write(&inner));
            }
        }
        if let (Place::Inside(rel), Some(brief)) = (self.place(&root), &self.policy().brief) {
            let rel = if rel == "." { "" } else { rel.as_str() };
            if let Some(b) = brief.below(rel) {
                d = d.max(b);
            }
        }
        d
    }

    fn write_at(&self, place: &Place, raw: &str) -> Decision {
        let shown = Self::shown(place);
        let via = if shown == raw.trim_start_matches("./") {
            String::new()
        } else {
            format!(" (as `{raw}`)")
        };
        match place {
            Place::Inside(rel) => {
                let d = inside_write(self.policy(), rel, &shown, &via);
                match self.policy().case_variant(rel) {
                    Some(canon) => d.max(inside_write(self.policy(), &canon, &shown, &via)),
                    None => d,
                }
            }
            Place::Outside(p) => match self.policy().outside_rule(p) {
                Some(rule) => {
                    Decision::of(rule, &format!("a write to `{shown}`{via}"), vec![shown])
                }
                None => self.other_tree_write(p, &via),
            },
        }
    }

    /// A write to `path` (absolute), outside the call's work tree: when
    /// it lies in another work tree, that tree's policy decides it
    /// ([`WorkTrees`]); elsewhere it is allowed.
    fn other_tree_write(&self, path: &Path, via: &str) -> Decision {
        let Some(root) = path
            .ancestors()
            .skip(1)
            .find(|d| self.s.fs.entry(&d.join(".git")) != fs::Entry::Missing)
        else {
            return Decision::allow();
        };
        let shown = path.to_string_lossy().into_owned();
        let rel = path.strip_prefix(root).unwrap_or(path).to_string_lossy();
        match self.s.trees.policy(root) {
            Some(policy) => match &policy.config {
                Ok(_) => inside_write(&policy, &rel, &shown, via),
                Err(why) => Decision::of(
                    &rules::POLICY_UNREADABLE,
                    &format!(
                        "a write to `{shown}`: `[guard]` of its work tree cannot be used ({why})"
                    ),
                    vec![shown],
                ),
            },
            None => Decision::of(
                &rules::POLICY_UNREADABLE,
                &format!(
                    "a write to `{shown}`, in the work tree `{}`, whose policy cannot be read",
                    root.display()
                ),
                vec![shown],
            ),
        }
    }

    /// A path whose last part is a glob: each existing match, and the
    /// pattern itself; a glob in a directory part is opaque.
    fn expand(&self, raw: &str, each: impl Fn(&Self, &str) -> Decision) -> Decision {
        let (dir, pattern) = raw.rsplit_once('/').unwrap_or(("", raw));
        if has_glob(dir) {
            return self.opaque(&format!(
                "the pattern `{raw}` names directories found when the command runs"
            ));
        }
        let Ok(glob) = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
        else {
            return self.opaque(&format!("the pattern `{raw}` cannot be read"));
        };
        let matcher = glob.compile_matcher();
        let base = if dir.is_empty() {
            self.absolute(".")
        } else {
            self.absolute(dir)
        };
        let base = fs::resolve(self.s.fs, &base).unwrap_or(base);
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.s
            .fs
            .names(&base)
            .iter()
            .filter(|n| matcher.is_match(n.as_str()))
            .map(|n| each(self, &format!("{prefix}{n}")))
            .fold(Decision::allow(), Decision::max)
    }

    fn remove(&self, raw: &str, recursive: bool) -> Decision {
        if has_glob(raw) {
            return self.expand(raw, |d, p| d.remove(p, recursive));
        }
        let places = match self.places(raw) {
            Ok(p) => p,
            Err(d) => return d,
        };
        let d = places
            .iter()
            .map(|p| self.write_at(p, raw))
            .fold(Decision::allow(), Decision::max);
        let literal = self.absolute(raw);
        match self.place(&literal) {
            Place::Outside(p) if recursive => {
                let shown = p.to_string_lossy().into_owned();
                d.max(Decision::of(
                    &rules::RM_OUTSIDE,
                    &format!("a recursive removal of `{shown}`"),
                    vec![shown],
                ))
            }
            // A directory removed or moved away (`mv DIR x`) takes every
            // path below it.
            _ if recursive || self.is_dir(raw) => d.max(self.below(raw)),
            _ => d,
        }
    }

    fn read(&self, raw: &str) -> Decision {
        let literal = self.absolute(raw);
        let resolved = fs::resolve(self.s.fs, &literal).unwrap_or_else(|_| literal.clone());
        let lit_place = self.place(&literal);
        let res_place = self.place(&resolved);
        let secret = |p: &Place| match p {
            Place::Inside(rel) => self.policy().is_secret(rel),
            Place::Outside(p) => self.policy().is_secret(&p.to_string_lossy()),
        };
        if !secret(&lit_place) && !secret(&res_place) {
            return Decision::allow();
        }
        if let (Place::Inside(rel), Place::Inside(_)) = (&lit_place, &res_place) {
            if self.policy().secret_allowed(rel) {
                return Decision::allow();
            }
        }
        let shown = Self::shown(&lit_place);
        Decision::of(
            &rules::SECRET_READ,
            &format!("`{shown}` is a secret file"),
            vec![shown],
        )
    }

    /// A read by glob pattern: the entry as a path (the agent reads an
    /// existing file by its literal name) and, when it is a pattern, every
    /// file it matches ([`crate::glob_reads`]); a pattern the guard cannot
    /// expand exactly is refused, as it may read a secret.
    fn read_pattern(&self, raw: &str) -> Decision {
        let literal = self.read(raw);
        if !glob_reads::is_pattern(raw) {
            return literal;
        }
        match glob_reads::expand(self.s.fs, &self.absolute(raw)) {
            Ok(paths) => paths
                .iter()
                .map(|p| self.read(&p.to_string_lossy()))
                .fold(literal, Decision::max),
            Err(why) => literal.max(Decision::of(
                &rules::SECRET_READ,
                &format!(
                    "{}, so it may read secret files; name the files to read",
                    why.0
                ),
                vec![raw.to_string()],
            )),
        }
    }

    fn egress(&self, tool: &str, host: Option<String>) -> Decision {
        match host {
            Some(h) if is_loopback(&h) || self.policy().host_allowed(&h) => Decision::allow(),
            Some(h) => Decision::of(
                &rules::EGRESS,
                &format!("`{tool}` would reach `{h}`"),
                vec![h],
            ),
            None => Decision::of(
                &rules::EGRESS,
                &format!("`{tool}` would reach a host the guard cannot tell"),
                Vec::new(),
            ),
        }
    }

    fn opaque(&self, why: &str) -> Decision {
        let verdict = match self.policy().guard_config().opaque {
            Some(OpaqueVerdict::Ask) => Verdict::Ask,
            _ => Verdict::Deny,
        };
        Decision::with(&rules::SHELL_OPAQUE, verdict, why, Vec::new())
    }

    fn shell(&self, command: &str) -> Decision {
        let effects = match shell::effects(command) {
            Ok(e) => e,
            Err(e) => {
                let verdict = match self.policy().guard_config().opaque {
                    Some(OpaqueVerdict::Ask) => Verdict::Ask,
                    _ => Verdict::Deny,
                };
                return Decision::with(
                    &rules::SHELL_UNPARSEABLE,
                    verdict,
                    &format!("the command cannot be parsed ({e})"),
                    Vec::new(),
                );
            }
        };
        let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut d = Decision::allow();
        for e in &effects {
            if let Effect::Link { link, target } = e {
                let link = self.absolute(link);
                let target = match link.parent() {
                    Some(dir) if !target.starts_with(['/', '~']) => {
                        fs::normalize(&dir.join(target))
                    }
                    _ => self.absolute(target),
                };
                links.push((link, target));
                continue;
            }
            d = d.max(self.effect(e));
            for through in through_links(e, &links, |raw| self.absolute(raw)) {
                d = d.max(self.effect(&through));
            }
        }
        d
    }

    fn effect(&self, e: &Effect) -> Decision {
        match e {
            Effect::Write(p) => self.write(p),
            Effect::Remove { path, recursive } => self.remove(path, *recursive),
            Effect::Read(p) => self.read(p),
            Effect::Egress { tool, host } => self.egress(tool, host.clone()),
            Effect::Push { remote, force } => self.push(remote.as_deref(), *force),
            Effect::Fetch { tool, remote } => self.reach(tool, remote.as_deref()),
            Effect::AgentHome(name) => Decision::of(
                &rules::AGENT_HOME,
                &format!(
                    "setting `{name}`, which moves where an agent reads its own configuration"
                ),
                Vec::new(),
            ),
            Effect::ResetHard if self.policy().on_protected_branch() => {
                let branch = self
                    .policy()
                    .branch
                    .clone()
                    .unwrap_or_else(|| "an unknown branch".into());
                Decision::of(
                    &rules::RESET_HARD,
                    &format!("`git reset --hard` on `{branch}`"),
                    Vec::new(),
                )
            }
            Effect::ResetHard => Decision::allow(),
            Effect::NoVerify => Decision::of(
                &rules::NO_VERIFY,
                "`--no-verify` skips git's hooks",
                Vec::new(),
            ),
            Effect::Stage(p) => {
                let place = self.place(&self.absolute(p));
                match &place {
                    Place::Inside(rel) if self.policy().is_secret(rel) => Decision::of(
                        &rules::GIT_SECRET,
                        &format!("staging `{rel}`, a secret file"),
                        vec![rel.clone()],
                    ),
                    _ => Decision::allow(),
                }
            }
            Effect::Sudo(name) => Decision::of(
                &rules::SUDO,
                &format!("`{name}` runs the command as another user"),
                Vec::new(),
            ),
            Effect::Opaque(why) => self.opaque(why),
            Effect::Link { .. } => Decision::allow(),
            Effect::SwitchBranch if self.policy().brief.is_some() => Decision::of(
                &rules::BRIEF_BRANCH,
                "a git command that leaves the round's branch or moves a branch",
                Vec::new(),
            ),
            Effect::SwitchBranch => Decision::allow(),
        }
    }

    fn push(&self, remote: Option<&str>, force: bool) -> Decision {
        let name = remote.unwrap_or("origin");
        let d = if force {
            Decision::of(
                &rules::FORCE_PUSH,
                &format!("a force push to `{name}`"),
                Vec::new(),
            )
        } else {
            Decision::allow()
        };
        d.max(self.reach("git push", remote))
    }

    /// The egress decision of `tool` (`git push`, `git fetch`) reaching
    /// git remote `remote` (a name, whose configured URL is looked up, or
    /// a URL; `None`: `origin`). A local path reaches nothing.
    fn reach(&self, tool: &str, remote: Option<&str>) -> Decision {
        let name = remote.unwrap_or("origin");
        let url = self
            .s
            .fs
            .remote_url(&self.policy().root, name)
            .unwrap_or_else(|| name.to_string());
        match shell::remote_host(&url) {
            Some(host) => self.egress(tool, Some(host)),
            None => Decision::allow(),
        }
    }
}

/// Effect `e` again for each link `links` records (link, target; made
/// earlier in the same command, so not on disk when the guard decides)
/// that its path goes through, with the path taken to the link's target;
/// `absolute` makes a path as written absolute.
fn through_links(
    e: &Effect,
    links: &[(PathBuf, PathBuf)],
    absolute: impl Fn(&str) -> PathBuf,
) -> Vec<Effect> {
    let path = match e {
        Effect::Write(p) | Effect::Read(p) | Effect::Remove { path: p, .. } => p,
        _ => return Vec::new(),
    };
    let at = absolute(path);
    links
        .iter()
        .filter_map(|(link, target)| at.strip_prefix(link).ok().map(|rest| target.join(rest)))
        .map(|p| {
            let p = p.to_string_lossy().into_owned();
            match e {
                Effect::Remove { recursive, .. } => Effect::Remove {
                    path: p,
                    recursive: *recursive,
                },
                Effect::Read(_) => Effect::Read(p),
                _ => Effect::Write(p),
            }
        })
        .collect()
}

/// A write to `rel` (relative to `policy`'s work tree, shown as
/// `shown`) under `policy`: its rules (an ask-list entry can turn a deny
/// into an ask), then the round's brief, then `[guard] scope`.
fn inside_write(policy: &Policy, rel: &str, shown: &str, via: &str) -> Decision {
    let subject = format!("a write to `{shown}`{via}");
    if let Some(rule) = policy.write_rule(rel) {
        let askable = rule.id == rules::AGENT_CONFIG.id || rule.id == rules::PROTECTED.id;
        if let (true, Some(reason)) = (askable, policy.ask_reason(rel)) {
            return Decision::with(
                rule,
                Verdict::Ask,
                &format!("{subject} (ask-listed: {reason})"),
                vec![shown.to_string()],
            );
        }
        return Decision::of(rule, &subject, vec![shown.to_string()]);
    }
    if let Some(d) = policy.brief.as_ref().and_then(|b| b.write(rel)) {
        return d;
    }
    if policy.out_of_scope(rel) {
        return Decision::of(
            &rules::OUT_OF_SCOPE,
            &format!("`{shown}` is outside the declared scope"),
            vec![shown.to_string()],
        );
    }
    Decision::allow()
}

fn has_glob(path: &str) -> bool {
    path.contains(['*', '?', '['])
}

fn is_loopback(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "::1" | "[::1]")
}

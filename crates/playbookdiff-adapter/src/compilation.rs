//! The state every adapter's compilation holds.

use crate::problems;
use playbookdiff_model::{
    AdvertisementState, AnalysisContext, Applicability, Diagnostic, DiagnosticCode,
    EffectiveAgentConfig, Harness, Invocation, Permission,
};
use playbookdiff_source::Repo;

/// Shared state of one compilation: the repository, the analysis context
/// and the diagnostics collected so far. An adapter keeps its own state
/// beside it (or uses it as is).
pub struct Compilation<'r, 't> {
    /// The repository, read only.
    pub repo: &'r Repo<'t>,
    /// The analysis context.
    pub context: &'r AnalysisContext,
    /// The diagnostics reported so far, in the order reported.
    pub diags: Vec<Diagnostic>,
    /// Why the agent refuses the configuration and does not start, in the
    /// order reported, each with the offending file and lines when known
    /// (empty when it starts).
    pub refusals: Vec<problems::Refused>,
}

impl<'r, 't> Compilation<'r, 't> {
    /// A compilation of `repo` under `context` by `harness`, starting with
    /// the problems of [`problems::at_start`].
    pub fn new(repo: &'r Repo<'t>, context: &'r AnalysisContext, harness: Harness) -> Self {
        Compilation {
            repo,
            context,
            diags: problems::at_start(repo, context, harness.display_name()),
            refusals: Vec::new(),
        }
    }

    /// Records a diagnostic.
    pub fn diag(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Records the diagnostic of a problem that makes the agent refuse the
    /// configuration and exit before loading anything; `why` is the short
    /// reason the adapter's summary of the refusal repeats.
    /// A diagnostic of a file that does not parse (`invalid-json`,
    /// `invalid-toml`, `invalid-yaml`, `invalid-utf8`) makes it a syntax
    /// refusal ([`problems::RefusedCause::Syntax`]), a `not-a-regular-file`
    /// one a refusal of the file itself ([`problems::RefusedCause::NotAFile`]).
    pub fn refuse(&mut self, d: Diagnostic, why: impl Into<String>) {
        self.refusals.push(problems::Refused {
            said: None,
            why: why.into(),
            at: d.source.clone(),
            cause: match d.code {
                DiagnosticCode::InvalidJson
                | DiagnosticCode::InvalidToml
                | DiagnosticCode::InvalidYaml
                | DiagnosticCode::InvalidUtf8 => problems::RefusedCause::Syntax,
                DiagnosticCode::NotARegularFile => problems::RefusedCause::NotAFile,
                _ => problems::RefusedCause::Key,
            },
        });
        self.diags.push(d);
    }

    /// Reports the one `config-refused` error of the refusals collected
    /// ([`problems::config_refused`], in the harness's `words`); returns
    /// whether there was one, that is whether the agent does not start.
    pub fn report_refusals(&mut self, words: &problems::Refusal) -> bool {
        match problems::config_refused(&self.refusals, &self.context.cwd, words) {
            Some(d) => {
                self.diags.push(d);
                true
            }
            None => false,
        }
    }

    /// Reports each configuration layer of `layers` that the analysis
    /// never reads, in the analysis mode ([`problems::unread_layer`]), in
    /// the order given.
    pub fn report_unread_layers(&mut self, layers: &[problems::UnreadLayer]) {
        let mode = self.context.mode.as_str();
        for l in layers {
            let d = problems::unread_layer(l.code, l.what, mode, l.effect, l.todo);
            self.diags.push(d);
        }
    }

    /// `read(self)` computed once per [`Repo`] for `key`
    /// ([`Repo::memo`]) and shared by every compilation on it (the launch
    /// directories of `check --all-dirs`): the diagnostics and refusals
    /// `read` reports are kept with its answer and reported again, in the
    /// same order, by every caller.
    ///
    /// For reading that depends only on the repository and `key` (a
    /// directory's files and the release, say), never on the analysis
    /// context unless `key` holds what it reads of it; the key type should
    /// be private to the caller, so that two callers never share a table.
    pub fn memo_read<K, T>(&mut self, key: K, read: impl FnOnce(&mut Self) -> T) -> T
    where
        K: std::hash::Hash + Eq + Send + Sync + 'static,
        T: Clone + Send + Sync + 'static,
    {
        let repo = self.repo;
        let memo: std::sync::Arc<Reported<T>> = repo.memo(key, || {
            let (diags, refusals) = (self.diags.len(), self.refusals.len());
            let value = read(self);
            std::sync::Arc::new(Reported {
                value,
                diags: self.diags.split_off(diags),
                refusals: self.refusals.split_off(refusals),
            })
        });
        self.diags.extend(memo.diags.iter().cloned());
        self.refusals.extend(memo.refusals.iter().cloned());
        memo.value.clone()
    }

    /// The diagnostics in the order reported, each once
    /// ([`problems::dedupe`]).
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        problems::dedupe(self.diags)
    }
}

/// An answer of [`Compilation::memo_read`] with what reading it reported.
struct Reported<T> {
    value: T,
    diags: Vec<Diagnostic>,
    refusals: Vec<problems::Refused>,
}

/// Marks every instruction, skill and MCP server of `out` that `agent`
/// (its product name) would have received `excluded`, the refusal as
/// reason: an agent that refuses its configuration does not start, so it
/// receives none of them (Codex 0.142.3 and 0.171.0 exit 1 "Error parsing
/// project config file"; OpenCode 1.18.33 "Configuration is invalid").
/// Call it when [`Compilation::report_refusals`] returns true.
pub fn exclude_refused(out: &mut EffectiveAgentConfig, agent: &str) {
    let live =
        |a: Applicability| matches!(a, Applicability::Effective | Applicability::Conditional);
    let why = format!(
        " {agent} refuses the configuration and does not start, so it never receives this."
    );
    for i in &mut out.instructions {
        if live(i.applicability) || i.order.is_some() {
            i.applicability = Applicability::Excluded;
            i.order = None;
            i.reason.push_str(&why);
        }
    }
    for s in &mut out.skills {
        if live(s.applicability) {
            s.applicability = Applicability::Excluded;
            s.advertisement.state = AdvertisementState::Hidden;
            s.invocation = Invocation {
                explicit: Permission::Blocked,
                implicit: Permission::Blocked,
            };
            s.reason.push_str(&why);
        }
    }
    for m in &mut out.mcp_servers {
        if live(m.applicability) {
            m.applicability = Applicability::Excluded;
            m.reason.push_str(&why);
        }
    }
    let items = out
        .subagents
        .iter_mut()
        .map(|a| (&mut a.applicability, &mut a.reason));
    let items = items.chain(
        out.commands
            .iter_mut()
            .map(|c| (&mut c.applicability, &mut c.reason)),
    );
    for (a, reason) in items {
        if live(*a) {
            *a = Applicability::Excluded;
            reason.push_str(&why);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Compilation;
    use playbookdiff_model::{AnalysisContext, Diagnostic, DiagnosticCode, Mode, RepoPath};
    use playbookdiff_source::{Repo, WorkingTree};
    use std::cell::Cell;
    use std::path::Path;

    /// A diagnostic saying `what`.
    fn note(what: &str) -> Diagnostic {
        Diagnostic::new(DiagnosticCode::UserConfigUnavailable, what)
    }

    /// `memo_read` reads once per key on one `Repo`, and every caller gets
    /// the answer and, after what it reported itself, the diagnostics and
    /// refusals the reading reported, in their order.
    #[test]
    fn memo_read_reads_once_and_reports_at_every_caller() {
        let tree = WorkingTree::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let repo = Repo::new(&tree);
        let context = AnalysisContext {
            repository_root: RepoPath::root(),
            cwd: RepoPath::root(),
            target_path: None,
            mode: Mode::Repo,
        };
        #[derive(Hash, PartialEq, Eq)]
        struct Key(u8);
        let reads = Cell::new(0);
        let mut seen = Vec::new();
        for own in ["first caller", "second caller"] {
            let mut cx = Compilation {
                repo: &repo,
                context: &context,
                diags: vec![note(own)],
                refusals: Vec::new(),
            };
            let got = cx.memo_read(Key(1), |cx| {
                reads.set(reads.get() + 1);
                cx.diag(note("read"));
                cx.refuse(note("refused"), "why");
                7u32
            });
            let messages: Vec<String> = cx.diags.iter().map(|d| d.message.clone()).collect();
            let whys: Vec<String> = cx.refusals.iter().map(|r| r.why.clone()).collect();
            seen.push((got, messages, whys));
        }
        assert_eq!(reads.get(), 1);
        for (own, (got, messages, whys)) in ["first caller", "second caller"].iter().zip(seen) {
            assert_eq!(got, 7);
            assert_eq!(messages, [*own, "read", "refused"]);
            assert_eq!(whys, ["why"]);
        }
    }
}

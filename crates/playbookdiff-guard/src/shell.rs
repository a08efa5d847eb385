//! Shell commands parsed, not grepped: the effects a command line would
//! have ([`Effect`]), read from the syntax tree of `brush-parser` (a
//! bash-compatible parser; docs/guard.md has the table of bypass attempts
//! it was chosen on).
//!
//! What is read: every command of every list, pipeline, subshell, brace
//! group, loop, `if`, `case` and function body; redirections (`>`, `>>`,
//! `>|`, `<>`, `&>`, `&>>`, `>&FILE`, input `<`), here-documents and
//! here-strings fed to a shell, command and process substitutions;
//! `cd` (a literal directory moves the relative paths after it; any
//! other makes them unknowable); wrappers (`sudo`, `env`, `nohup`,
//! `time`, `command`, `exec`, `nice`, `timeout`, `stdbuf`); `bash -c` /
//! `sh -c` bodies, recursively; and the targets of `tee`, `cp`, `mv`,
//! `rm`, `rmdir`, `unlink`, `sed -i`, `perl -i`, `truncate`, `dd of=`,
//! `install`, `ln`, `touch`, `chmod`, `chown`, `git` and the network
//! tools. Every literal argument that names a file is also a mention
//! ([`Effect::Read`]), so that `cat .env` is a secret read whatever the
//! reader.
//!
//! What cannot be known before the command runs is an
//! [`Effect::Opaque`]: `eval`, interpreter one-liners (`python -c`,
//! `node -e`...), a command name or a path built by an expansion
//! (`$X`, `$(...)`), `xargs`, `find -exec`.

use brush_parser::ast;
use brush_parser::word::{self, WordPiece, WordPieceWithSource};
use brush_parser::ParserOptions;

/// One effect of a command line. Paths are as written, joined to the
/// directory a literal `cd` before them moved to (so relative to the
/// call's `cwd`, or absolute, or starting with `~`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Writes, creates or changes this file.
    Write(String),
    /// Removes this path (a directory and its content when recursive).
    Remove {
        /// The path.
        path: String,
        /// `-r`, `-R`, `--recursive`.
        recursive: bool,
    },
    /// Names this file as an argument or reads it by redirection.
    Read(String),
    /// Reaches the network with `tool`, to `host` when it can be told.
    Egress {
        /// The command (`curl`, `ssh`, `git push`).
        tool: String,
        /// The host, when an argument names it.
        host: Option<String>,
    },
    /// `git push` to `remote` (a name or a URL; `None`: the default).
    Push {
        /// The remote as written.
        remote: Option<String>,
        /// Whether it rewrites the remote's history (`--force`, `-f`,
        /// `--force-with-lease`, `+refspec`, `--mirror`, `--delete`).
        force: bool,
    },
    /// `git fetch`, `git pull` or `git ls-remote` from `remote` (a name
    /// or a URL; `None`: the default): it reaches the remote's host.
    Fetch {
        /// The command (`git fetch`).
        tool: String,
        /// The remote as written.
        remote: Option<String>,
    },
    /// Sets environment variable `0`, which moves where an agent reads
    /// its own configuration ([`crate::rules::AGENT_HOME`] lists them).
    AgentHome(String),
    /// `git reset --hard`.
    ResetHard,
    /// `--no-verify` (or `git commit -n`).
    NoVerify,
    /// `git add` / `git commit` of this path.
    Stage(String),
    /// A symbolic link made at `link` to `target`, as `ln -s` writes it
    /// (a relative target is relative to the link's directory): a later
    /// path of the same command that goes through `link` goes to `target`.
    Link {
        /// The link's path, as the other paths are given.
        link: String,
        /// The target as written.
        target: String,
    },
    /// Moves HEAD to another branch or commit, or moves, renames or
    /// deletes a branch (`git switch`, `git checkout BRANCH`, `git branch
    /// -m|-f|-d`, `git update-ref`, `git symbolic-ref HEAD`, `git
    /// worktree`, a fetch or push into a local branch): the round's
    /// branch names its brief, the base branch holds its scope.
    SwitchBranch,
    /// Runs as another user (`sudo`).
    Sudo(String),
    /// What the guard cannot know before the command runs, and why.
    Opaque(String),
}

/// Whether `git apply` with `words` (after `apply`) only reads: `--check`,
/// `--stat`, `--numstat` or `--summary` without `--apply` (git's
/// documentation of `git apply`: those "turn off apply").
fn apply_only_reads(words: &[String]) -> bool {
    let reports = words
        .iter()
        .any(|w| matches!(w.as_str(), "--check" | "--stat" | "--numstat" | "--summary"));
    reports && !words.iter().any(|w| w == "--apply")
}

/// Environment variables whose value is a command line another program
/// runs (`EDITOR='rm CLAUDE.md' git commit`), or that move where git
/// reads and writes (`GIT_WORK_TREE`, `GIT_DIR`); with `GIT_CONFIG*`
/// (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`, ...), as `git -c`.
const RUNS_OR_MOVES: &[&str] = &[
    "EDITOR",
    "VISUAL",
    "PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_PROXY_COMMAND",
    "GIT_EXEC_PATH",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "PROMPT_COMMAND",
];

/// Whether `name` with `args` is `source` or `.` of the standard input
/// (`source /dev/stdin <<< '...'`): a shell running what it is fed.
fn sources_stdin(name: &str, args: &[Option<Lit>]) -> bool {
    matches!(name, "source" | ".")
        && args.first().is_some_and(|a| {
            a.as_ref().is_some_and(|a| {
                matches!(
                    a.text.as_str(),
                    "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0" | "-"
                )
            })
        })
}

/// Options of editors that take a value (`vim -c CMD`): the value is
/// not a file. An option whose value is optional or that takes none in
/// another editor (`ed -s`, `vim -e`) is not listed, so a file after it
/// is still a write.
const EDITOR_VALUED: &[&str] = &["-c", "-S", "-u", "-i", "-w", "-W", "--cmd"];

/// Options of `touch`, `truncate`, `chmod` and friends that take a value.
const ATTR_VALUED: &[&str] = &["-s", "--size", "-r", "--reference", "-d", "-t"];

/// Options of `nc` and friends that take a value.
const NC_VALUED: &[&str] = &["-p", "-s", "-w", "-i", "-q"];

/// Options of `ssh` and friends that take a value.
const SSH_VALUED: &[&str] = &[
    "-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-P", "-b", "-c", "-e", "-E", "-m", "-O",
    "-Q", "-S", "-W", "-w",
];

/// Interpreters whose inline code (`-c`, `-e`) the guard cannot read.
const INTERPRETERS: &[&str] = &[
    "python",
    "python3",
    "python2",
    "node",
    "nodejs",
    "deno",
    "bun",
    "php",
    "lua",
    "osascript",
    "pwsh",
    "powershell",
    "Rscript",
    "irb",
    "jshell",
];

/// How deep `bash -c` bodies and substitutions are followed.
const MAX_DEPTH: usize = 8;

/// The deepest bracket nesting (`(`, `{`, `[` and their closers, quotes
/// not considered) parsed: deeper text is refused before the parser sees
/// it, so that no command can exhaust the parser's stack.
const MAX_NESTING: usize = 64;

/// Whether `text` nests brackets deeper than [`MAX_NESTING`] (an
/// overestimate: brackets inside quotes count too).
fn too_deep(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '{' | '[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return true;
                }
            }
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// The effects of `command`.
///
/// # Errors
/// The parser's message when the command is not valid shell syntax.
pub fn effects(command: &str) -> Result<Vec<Effect>, String> {
    let mut walk = Walk {
        dir: Some(String::new()),
        out: Vec::new(),
        depth: 0,
    };
    walk.script(command)?;
    Ok(walk.out)
}

fn options() -> ParserOptions {
    ParserOptions::default()
}

fn parse(text: &str) -> Result<ast::Program, String> {
    if too_deep(text) {
        return Err(format!("brackets nest deeper than {MAX_NESTING} levels"));
    }
    let mut parser = brush_parser::Parser::new(std::io::Cursor::new(text), &options());
    parser.parse_program().map_err(|e| e.to_string())
}

/// The walk over one command line's tree.
struct Walk {
    /// The directory relative paths are in, relative to the call's cwd
    /// (`""`: the cwd; `None`: unknown after a `cd` the guard cannot
    /// follow).
    dir: Option<String>,
    out: Vec<Effect>,
    depth: usize,
}

/// A word's value, when it has no expansion.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lit {
    text: String,
    /// Unquoted glob characters (`*`, `?`, `[`).
    glob: bool,
}

impl Walk {
    fn script(&mut self, text: &str) -> Result<(), String> {
        if self.depth > MAX_DEPTH {
            self.opaque("commands nested deeper than the guard follows");
            return Ok(());
        }
        self.depth += 1;
        let program = parse(text)?;
        for list in &program.complete_commands {
            self.list(list);
        }
        self.depth -= 1;
        Ok(())
    }

    /// A nested script (a `bash -c` body, a substitution): a parse
    /// failure there is opaque.
    fn nested(&mut self, text: &str) {
        let saved = self.dir.clone();
        if let Err(e) = self.script(text) {
            self.opaque(&format!("a nested command the guard cannot parse ({e})"));
        }
        self.dir = saved;
    }

    fn opaque(&mut self, why: &str) {
        self.out.push(Effect::Opaque(why.to_string()));
    }

    fn list(&mut self, list: &ast::CompoundList) {
        for item in &list.0 {
            let and_or = &item.0;
            self.pipeline(&and_or.first);
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(p) | ast::AndOr::Or(p) => self.pipeline(p),
                }
            }
        }
    }

    fn pipeline(&mut self, p: &ast::Pipeline) {
        for c in &p.seq {
            self.command(c);
        }
    }

    fn command(&mut self, c: &ast::Command) {
        match c {
            ast::Command::Simple(s) => self.simple(s),
            ast::Command::Compound(cc, redirects) => {
                self.compound(cc);
                if let Some(r) = redirects {
                    for io in &r.0 {
                        self.redirect(io, None);
                    }
                }
            }
            ast::Command::Function(f) => {
                self.compound(&f.body.0);
                if let Some(r) = &f.body.1 {
                    for io in &r.0 {
                        self.redirect(io, None);
                    }
                }
            }
            ast::Command::ExtendedTest(_, redirects) => {
                for io in redirects.iter().flat_map(|r| &r.0) {
                    self.redirect(io, None);
                }
            }
        }
    }

    fn compound(&mut self, c: &ast::CompoundCommand) {
        use ast::CompoundCommand as C;
        match c {
            C::Arithmetic(_) | C::ArithmeticForClause(_) => {
                if let C::ArithmeticForClause(f) = c {
                    self.list(&f.body.list);
                }
            }
            C::BraceGroup(b) => self.list(&b.list),
            C::Subshell(s) => {
                let saved = self.dir.clone();
                self.list(&s.list);
                self.dir = saved;
            }
            C::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.word_substitutions(&w.value);
                }
                self.list(&f.body.list);
            }
            C::CaseClause(cc) => {
                for item in &cc.cases {
                    if let Some(l) = &item.cmd {
                        self.list(l);
                    }
                }
            }
            C::IfClause(i) => {
                self.list(&i.condition);
                self.list(&i.then);
                for e in i.elses.iter().flatten() {
                    if let Some(cond) = &e.condition {
                        self.list(cond);
                    }
                    self.list(&e.body);
                }
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                self.list(&w.0);
                self.list(&w.1.list);
            }
            C::Coprocess(co) => self.command(&co.body),
        }
    }

    /// A word's literal value, following its command substitutions for
    /// their own effects; `None` when it holds an expansion.
    fn literal(&mut self, raw: &str) -> Option<Lit> {
        let pieces = match word::parse(raw, &options()) {
            Ok(p) => p,
            Err(_) => return None,
        };
        let mut lit = Lit {
            text: String::new(),
            glob: false,
        };
        let fixed = self.pieces(&pieces, &mut lit, false);
        fixed.then_some(lit)
    }

    /// Appends the pieces' literal text to `lit`; false when one is an
    /// expansion (command substitutions are walked for their effects).
    fn pieces(&mut self, pieces: &[WordPieceWithSource], lit: &mut Lit, quoted: bool) -> bool {
        let mut fixed = true;
        for p in pieces {
            match &p.piece {
                WordPiece::Text(t) => {
                    if !quoted && t.contains(['*', '?', '[']) {
                        lit.glob = true;
                    }
                    lit.text.push_str(t);
                }
                WordPiece::SingleQuotedText(t) => lit.text.push_str(t),
                // `$'\x72m'` is `rm` once bash decodes it: with an escape,
                // the text is built when the command runs.
                WordPiece::AnsiCQuotedText(t) if t.contains('\\') => fixed = false,
                WordPiece::AnsiCQuotedText(t) => lit.text.push_str(t),
                WordPiece::EscapeSequence(t) => {
                    lit.text.push_str(t.strip_prefix('\\').unwrap_or(t))
                }
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    fixed &= self.pieces(inner, lit, true);
                }
                WordPiece::TildeExpansion(word::TildeExpr::Home) => lit.text.push('~'),
                WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                    self.nested(s);
                    fixed = false;
                }
                _ => fixed = false,
            }
        }
        fixed
    }

    /// Walks the command substitutions of a word, for their effects.
    fn word_substitutions(&mut self, raw: &str) {
        let _ = self.literal(raw);
    }

    /// The path `lit` names, joined to the directory `cd` moved to.
    fn at(&mut self, text: &str) -> Option<String> {
        if text.starts_with('/') || text.starts_with('~') {
            return Some(text.to_string());
        }
        match &self.dir {
            Some(d) if d.is_empty() => Some(text.to_string()),
            Some(d) => Some(format!("{d}/{text}")),
            None => {
                self.opaque("a relative path after a `cd` to a directory the guard cannot know");
                None
            }
        }
    }

    /// A path argument in a writing position: its effect, or opaque.
    fn path_word(&mut self, raw: &str, make: fn(String) -> Effect) {
        match self.literal(raw) {
            Some(lit) => {
                if let Some(p) = self.at(&lit.text) {
                    self.out.push(make(p));
                }
            }
            None => self.opaque(&format!("the path `{raw}` is built when the command runs")),
        }
    }

    fn redirect(&mut self, io: &ast::IoRedirect, shell: Option<&str>) {
        use ast::IoFileRedirectKind as K;
        match io {
            ast::IoRedirect::File(_, kind, target) => match (kind, target) {
                (K::Read, ast::IoFileRedirectTarget::Filename(w)) => {
                    self.path_word(&w.value, Effect::Read)
                }
                (
                    K::Write | K::Append | K::Clobber | K::ReadAndWrite,
                    ast::IoFileRedirectTarget::Filename(w),
                ) => self.path_word(&w.value, Effect::Write),
                (_, ast::IoFileRedirectTarget::Duplicate(w)) => {
                    let v = w.value.trim_end_matches('-');
                    if !v.is_empty() && !v.chars().all(|c| c.is_ascii_digit()) {
                        self.path_word(&w.value, Effect::Write);
                    }
                }
                (_, ast::IoFileRedirectTarget::ProcessSubstitution(_, sub)) => self.list(&sub.list),
                _ => {}
            },
            ast::IoRedirect::OutputAndError(w, _) => self.path_word(&w.value, Effect::Write),
            ast::IoRedirect::HereDocument(_, doc) => {
                if shell.is_some() {
                    self.nested(&doc.doc.value);
                } else if doc.requires_expansion {
                    let _ = word::parse_heredoc(&doc.doc.value, &options()).map(|pieces| {
                        let mut lit = Lit {
                            text: String::new(),
                            glob: false,
                        };
                        self.pieces(&pieces, &mut lit, true)
                    });
                }
            }
            ast::IoRedirect::HereString(_, w) => {
                if shell.is_some() {
                    if let Some(lit) = self.literal(&w.value) {
                        self.nested(&lit.text);
                    } else {
                        self.opaque("a shell fed a here-string built when the command runs");
                    }
                } else {
                    self.word_substitutions(&w.value);
                }
            }
        }
    }

    fn simple(&mut self, s: &ast::SimpleCommand) {
        let mut words: Vec<String> = Vec::new();
        let mut redirects = Vec::new();
        let items = s.prefix.iter().flat_map(|p| &p.0);
        let items = items.chain(s.suffix.iter().flat_map(|p| &p.0));
        let mut name = s.word_or_name.as_ref().map(|w| w.value.clone());
        for item in s.prefix.iter().flat_map(|p| &p.0) {
            if let ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) = item {
                self.word_substitutions(&w.value);
                self.assignment(&w.value);
            }
        }
        for item in items {
            match item {
                ast::CommandPrefixOrSuffixItem::IoRedirect(io) => redirects.push(io),
                ast::CommandPrefixOrSuffixItem::Word(w) => words.push(w.value.clone()),
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, sub) => self.list(&sub.list),
                ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) => {
                    if s.word_or_name.is_some() {
                        words.push(w.value.clone());
                    }
                }
            }
        }
        let mut argv: Vec<Option<Lit>> = Vec::new();
        if let Some(n) = name.take() {
            argv.push(self.literal(&n));
        }
        let raw = words.clone();
        for w in &words {
            argv.push(self.literal(w));
        }
        let shell = argv
            .first()
            .and_then(|a| a.as_ref())
            .map(|a| base(&a.text).to_string())
            .filter(|n| is_shell(n) || sources_stdin(n, &argv[1..]));
        for io in redirects {
            self.redirect(io, shell.as_deref());
        }
        if argv.is_empty() {
            return;
        }
        let _ = raw;
        self.argv(argv);
    }

    /// One command's words (the name first): wrappers peeled, then the
    /// command's own effects.
    fn argv(&mut self, argv: Vec<Option<Lit>>) {
        let Some(Some(first)) = argv.first() else {
            self.opaque("a command whose name is built when it runs");
            return;
        };
        let name = base(&first.text).to_string();
        let args: Vec<Option<Lit>> = argv[1..].to_vec();
        match name.as_str() {
            "sudo" | "doas" | "su" | "pkexec" | "run0" => {
                self.out.push(Effect::Sudo(name.clone()));
                self.wrapped(&args, &["-u", "-g", "-C", "-h", "-p", "-U", "-r", "-t"]);
            }
            "env" => self.wrapped(&args, &["-u", "-C", "-S"]),
            "nohup" | "time" | "command" | "exec" | "builtin" | "nice" | "stdbuf" | "ionice"
            | "chronic" | "unbuffer" | "setsid" | "busybox" | "toybox" => {
                self.wrapped(&args, &["-n", "-c", "-o", "-e", "-i"])
            }
            "timeout" => self.wrapped_after_first(&args),
            "alias"
                if args
                    .iter()
                    .any(|a| a.as_ref().is_none_or(|a| a.text.contains('='))) =>
            {
                self.opaque("an alias changes what a later command name runs")
            }
            "export" | "declare" | "typeset" | "readonly" | "local" => {
                for a in args.iter().flatten() {
                    self.assignment(&a.text);
                }
            }
            "cd" | "pushd" => self.cd(&args),
            "popd" => self.dir = None,
            "eval" => self.opaque("`eval` runs text built when the command runs"),
            "xargs" | "parallel" => self.opaque(&format!(
                "`{name}` runs commands with arguments read when it runs"
            )),
            "source" | "." => self.mentions(&args),
            _ if is_shell(&name) => self.shell_call(&name, &args),
            _ => self.tool(&name, &args),
        }
    }

    /// `NAME=VALUE` (before a command, alone, or after `env` or
    /// `export`): a NAME that moves where an agent reads its
    /// configuration (`CODEX_HOME`, `CLAUDE_CONFIG_DIR`, `HOME`) would
    /// start an agent in this command, or in a later one of the same
    /// shell, with configuration the guard does not protect.
    fn assignment(&mut self, text: &str) {
        let name = text.split(['=', '+']).next().unwrap_or(text);
        if crate::rules::AGENT_HOME.matchers.contains(&name) {
            self.out.push(Effect::AgentHome(name.to_string()));
        } else if RUNS_OR_MOVES.contains(&name) || name.starts_with("GIT_CONFIG") {
            self.opaque(&format!(
                "`{name}` names a command a later program runs, or moves where git writes, which the guard does not follow"
            ));
        }
    }

    /// A wrapper (`sudo`, `env`, `nohup`): the rest is a command of its
    /// own, after the wrapper's options and `VAR=value` words.
    fn wrapped(&mut self, args: &[Option<Lit>], valued: &[&str]) {
        let mut i = 0;
        while i < args.len() {
            let Some(a) = &args[i] else {
                self.opaque("a wrapped command built when it runs");
                return;
            };
            if a.text.starts_with('-') {
                i += if valued.contains(&a.text.as_str()) {
                    2
                } else {
                    1
                };
            } else if a.text.contains('=') && !a.text.starts_with('=') {
                self.assignment(&a.text);
                i += 1;
            } else {
                break;
            }
        }
        if i < args.len() {
            self.argv(args[i..].to_vec());
        }
    }

    /// `timeout DURATION cmd...`.
    fn wrapped_after_first(&mut self, args: &[Option<Lit>]) {
        let skip = args
            .iter()
            .position(|a| a.as_ref().is_some_and(|a| !a.text.starts_with('-')))
            .map_or(args.len(), |p| p + 1);
        if skip < args.len() {
            self.argv(args[skip..].to_vec());
        }
    }

    fn cd(&mut self, args: &[Option<Lit>]) {
        let target = args.iter().find(|a| {
            a.as_ref()
                .is_none_or(|l| !l.text.starts_with('-') || l.text == "-")
        });
        match target {
            None => self.dir = Some("~".to_string()),
            Some(Some(l)) if l.text != "-" && !l.glob => {
                self.dir = self.at(&l.text).map(|d| normalize_rel(&d));
            }
            _ => self.dir = None,
        }
    }

    /// `bash -c BODY`, `sh script`, `bash` fed by a here-document.
    fn shell_call(&mut self, name: &str, args: &[Option<Lit>]) {
        let mut i = 0;
        while i < args.len() {
            match &args[i] {
                None => {
                    self.opaque(&format!("`{name}` with an argument built when it runs"));
                    return;
                }
                Some(a)
                    if a.text == "-c"
                        || (a.text.starts_with('-')
                            && !a.text.starts_with("--")
                            && a.text.contains('c')) =>
                {
                    match args.get(i + 1) {
                        Some(Some(body)) => self.nested(&body.text.clone()),
                        _ => self.opaque(&format!("`{name} -c` with a body built when it runs")),
                    }
                    return;
                }
                Some(a) if a.text.starts_with('-') || a.text.starts_with('+') => i += 1,
                Some(_) => {
                    self.mentions(&args[i..]);
                    return;
                }
            }
        }
    }

    /// Every literal argument that is not an option, as a mention.
    fn mentions(&mut self, args: &[Option<Lit>]) {
        for a in args.iter().flatten() {
            self.mention(a);
        }
    }

    fn mention(&mut self, a: &Lit) {
        let text = a.text.strip_prefix('@').unwrap_or(&a.text);
        let text = text.rsplit_once('=').map_or(text, |(_, v)| v);
        if text.is_empty() || text.starts_with('-') || text.contains("://") {
            return;
        }
        if let Some(p) = self.at_quiet(text) {
            self.out.push(Effect::Read(p));
        }
    }

    /// [`Walk::at`] without an opaque effect (a mention after an unknown
    /// `cd` is not a write).
    fn at_quiet(&self, text: &str) -> Option<String> {
        if text.starts_with('/') || text.starts_with('~') {
            return Some(text.to_string());
        }
        match &self.dir {
            Some(d) if d.is_empty() => Some(text.to_string()),
            Some(d) => Some(format!("{d}/{text}")),
            None => None,
        }
    }

    /// The operands (non-option words, after `--` everything) of a
    /// command whose options in `valued` take a value.
    fn operands(&self, args: &[Option<Lit>], valued: &[&str]) -> Vec<Option<String>> {
        let mut out = Vec::new();
        let mut i = 0;
        let mut dashdash = false;
        while i < args.len() {
            match &args[i] {
                None => out.push(None),
                Some(a) if !dashdash && a.text == "--" => dashdash = true,
                Some(a) if !dashdash && a.text.starts_with('-') && a.text.len() > 1 => {
                    if valued.contains(&a.text.as_str()) {
                        i += 1;
                    }
                }
                Some(a) => out.push(Some(a.text.clone())),
            }
            i += 1;
        }
        out
    }

    /// The value of option `opt` (`-t DIR`, `--target-directory=DIR`).
    fn option_value(args: &[Option<Lit>], short: &str, long: &str) -> Option<Option<String>> {
        for (i, a) in args.iter().enumerate() {
            let Some(a) = a else { continue };
            if a.text == short || a.text == long {
                return Some(args.get(i + 1).cloned().flatten().map(|l| l.text));
            }
            if let Some(v) = a.text.strip_prefix(&format!("{long}=")) {
                return Some(Some(v.to_string()));
            }
        }
        None
    }

    fn push_path(&mut self, path: Option<String>, make: fn(String) -> Effect) {
        match path {
            Some(p) => {
                if let Some(p) = self.at(&p) {
                    self.out.push(make(p));
                }
            }
            None => self.opaque("a path built when the command runs"),
        }
    }

    /// A command that is not a wrapper or a shell: its mentions, then
    /// the effects of the commands the guard knows.
    fn tool(&mut self, name: &str, args: &[Option<Lit>]) {
        if name == "git" {
            // Its own effects first: `git add .env` is staging a secret
            // before it is a mention of one.
            self.git(args);
        }
        self.mentions(args);
        match name {
            "tee" => self.writes(self.operands(args, &[])),
            "cp" | "mv" | "install" | "ln" => self.copy_like(name, args),
            "rm" | "rmdir" | "unlink" | "shred" => self.rm(args),
            "touch" | "truncate" => self.writes(self.operands(args, ATTR_VALUED)),
            // `mkfifo F`, `mknod F TYPE ...`: a special file at F.
            "mkfifo" => self.writes(self.operands(args, &["-m", "--mode", "-Z"])),
            "mknod" => self.writes(
                self.operands(args, &["-m", "--mode", "-Z"])
                    .into_iter()
                    .take(1)
                    .collect(),
            ),
            // `uniq [IN [OUT]]`, `sqlite3 DB`: OUT and DB are written.
            "uniq" => self.writes(
                self.operands(args, &["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"])
                    .into_iter()
                    .skip(1)
                    .take(1)
                    .collect(),
            ),
            "sqlite3" => self.writes(
                self.operands(args, &["-cmd", "-separator", "-newline", "-nullvalue", "-init"])
                    .into_iter()
                    .take(1)
                    .collect(),
            ),
            "chmod" | "chown" | "chgrp" | "setfacl" | "chattr" => self.writes(
                self.operands(args, ATTR_VALUED)
                    .into_iter()
                    .skip(1)
                    .collect(),
            ),
            "sed" => self.sed(args),
            "perl" | "ruby" => self.perl(name, args),
            "dd" => self.dd(args),
            "find" => self.find(args),
            "awk" | "gawk" | "mawk" => self.awk(args),
            "patch" => self.patch(args),
            "tar" | "bsdtar" | "unzip" | "7z" | "7za" | "cpio" | "ar" => self.unpack(name, args),
            "sort" => {
                if let Some(out) = Walk::option_value(args, "-o", "--output") {
                    self.push_path(out, Effect::Write);
                }
                for a in args.iter().flatten() {
                    if let Some(out) = a.text.strip_prefix("-o").filter(|o| !o.is_empty()) {
                        self.push_path(Some(out.to_string()), Effect::Write);
                    }
                }
            }
            "ed" | "red" | "ex" | "vi" | "vim" | "nvim" | "nano" | "emacs" | "kak" | "hx" => {
                self.writes(self.operands(args, EDITOR_VALUED))
            }
            "curl" | "wget" | "http" | "https" | "xh" | "aria2c" => self.fetch(name, args),
            "nc" | "ncat" | "netcat" | "telnet" | "socat" => {
                self.connect(name, args, NC_VALUED, false)
            }
            "ssh" | "sftp" | "scp" | "rsync" | "mosh" if runs_local_command(args) => self.opaque(
                &format!("`{name}` runs a local command it is given (`ProxyCommand`, `LocalCommand`, `-e`), which the guard does not read"),
            ),
            "ssh" | "sftp" | "ftp" | "mosh" => self.connect(name, args, SSH_VALUED, true),
            "scp" | "rsync" => self.copy_remote(name, args),
            _ if INTERPRETERS.contains(&name) => self.interpreter(name, args),
            _ => {}
        }
    }

    fn writes(&mut self, paths: Vec<Option<String>>) {
        for p in paths {
            self.push_path(p, Effect::Write);
        }
    }

    /// `rm`, `rmdir`, `unlink`, `shred`.
    fn rm(&mut self, args: &[Option<Lit>]) {
        let recursive = args.iter().flatten().any(|a| {
            a.text == "--recursive"
                || is_short_flag_with(&a.text, 'r')
                || is_short_flag_with(&a.text, 'R')
        });
        for p in self.operands(args, &[]) {
            match p {
                Some(p) => {
                    if let Some(path) = self.at(&p) {
                        self.out.push(Effect::Remove { path, recursive });
                    }
                }
                None => self.opaque("a path to remove built when the command runs"),
            }
        }
    }

    /// `dd of=FILE`.
    fn dd(&mut self, args: &[Option<Lit>]) {
        let outputs: Vec<Option<String>> = args
            .iter()
            .flatten()
            .filter_map(|a| a.text.strip_prefix("of=").map(|f| Some(f.to_string())))
            .collect();
        self.writes(outputs);
    }

    /// `find` acting on what it finds.
    fn find(&mut self, args: &[Option<Lit>]) {
        let acting = [
            "-exec", "-execdir", "-delete", "-ok", "-okdir", "-fprint", "-fprintf", "-fls",
        ];
        if args
            .iter()
            .flatten()
            .any(|a| acting.contains(&a.text.as_str()))
        {
            self.opaque("`find` with -exec, -delete or -fprint acts on files found when it runs");
        }
    }

    /// An interpreter given code inline (`python -c`, `node -e`) or on
    /// standard input.
    fn interpreter(&mut self, name: &str, args: &[Option<Lit>]) {
        let inline = ["-c", "-e", "-p", "--eval", "--print", "-r", "eval", "-"];
        if args.is_empty()
            || args
                .iter()
                .flatten()
                .any(|a| inline.contains(&a.text.as_str()))
        {
            self.opaque(&format!(
                "`{name}` runs code given inline, which the guard cannot read"
            ));
        }
    }

    /// An awk program that runs commands or writes files.
    fn awk(&mut self, args: &[Option<Lit>]) {
        let acting = ["system(", "print >", "printf >", "| \"", "|&"];
        if args
            .iter()
            .flatten()
            .any(|a| acting.iter().any(|m| a.text.contains(m)))
        {
            self.opaque("an awk program that runs commands or writes files");
        }
    }

    /// `nc HOST PORT`, `ssh [user@]HOST`: the first operand is the host.
    fn connect(&mut self, name: &str, args: &[Option<Lit>], valued: &[&str], user_at: bool) {
        let first = self.operands(args, valued).into_iter().flatten().next();
        let host = first.map(|h| {
            if user_at {
                host_of_target(&h)
            } else {
                h.to_ascii_lowercase()
            }
        });
        self.out.push(Effect::Egress {
            tool: name.into(),
            host,
        });
    }

    /// `scp`, `rsync`: a `host:path` operand reaches the host; a local
    /// destination is written.
    fn copy_remote(&mut self, name: &str, args: &[Option<Lit>]) {
        let ops = self.operands(
            args,
            &["-P", "-i", "-o", "-F", "-e", "-J", "-c", "-l", "-S"],
        );
        if let Some(r) = ops.iter().flatten().find(|o| is_remote_spec(o)) {
            let host = Some(host_of_target(r));
            self.out.push(Effect::Egress {
                tool: name.into(),
                host,
            });
        }
        if let Some(Some(dst)) = ops.last() {
            if !is_remote_spec(dst) {
                self.push_path(Some(dst.clone()), Effect::Write);
            }
        }
    }

    /// `cp`, `mv`, `install`, `ln`: the destination (and, for a
    /// directory destination, the file inside it), the sources of `mv`
    /// (moved away), the source of a hard link.
    fn copy_like(&mut self, name: &str, args: &[Option<Lit>]) {
        let valued: &[&str] = &[
            "-t",
            "--target-directory",
            "-S",
            "--suffix",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
        ];
        let ops = self.operands(args, valued);
        let target_dir = Walk::option_value(args, "-t", "--target-directory");
        let (sources, dest): (Vec<Option<String>>, Option<Option<String>>) = match target_dir {
            Some(dir) => (ops, Some(dir.map(|d| format!("{d}/")))),
            None if ops.len() >= 2 => (ops[..ops.len() - 1].to_vec(), ops.last().cloned()),
            None if name == "install" && args.iter().flatten().any(|a| a.text == "-d") => {
                for p in ops {
                    self.push_path(p, Effect::Write);
                }
                return;
            }
            None if name == "ln" => (
                ops.clone(),
                Some(ops.first().cloned().flatten().map(|s| basename(&s))),
            ),
            None => (ops, None),
        };
        let symbolic = args.iter().flatten().any(|a| {
            a.text == "--symbolic"
                || (a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('s'))
        });
        // The sources moved away come first: a refusal names the file that
        // is protected (`mv AGENTS.md notes.md` names `AGENTS.md`), not the
        // destination's path inside a directory that may not be one.
        let moves_away = name == "mv" || (name == "ln" && !symbolic);
        if moves_away {
            for s in sources.iter().cloned() {
                self.push_path(s, |p| Effect::Remove {
                    path: p,
                    recursive: false,
                });
            }
        }
        if let Some(dest) = dest {
            self.push_path(dest.clone(), Effect::Write);
            if let Some(d) = dest {
                for s in sources.iter().flatten() {
                    let inside = format!("{}/{}", d.trim_end_matches('/'), basename(s));
                    if name == "ln" && symbolic {
                        self.links(&d, &inside, s);
                    }
                    self.push_path(Some(inside), Effect::Write);
                }
            }
        }
    }

    /// The links `ln -s TARGET DEST` may make: `DEST` itself, or
    /// `DEST/NAME` when `DEST` is a directory (which the guard does not
    /// know before the command runs, so both are recorded).
    fn links(&mut self, dest: &str, inside: &str, target: &str) {
        for link in [dest, inside] {
            if let Some(link) = self.at(link.trim_end_matches('/')) {
                self.out.push(Effect::Link {
                    link,
                    target: target.to_string(),
                });
            }
        }
    }

    /// An archive tool: extracting writes the files the archive names,
    /// which the guard does not read, so it is opaque; listing (`tar -t`,
    /// `unzip -l`, `7z l`) and creating an archive are not.
    fn unpack(&mut self, name: &str, args: &[Option<Lit>]) {
        let words: Vec<&str> = args.iter().flatten().map(|a| a.text.as_str()).collect();
        let first = words.first().copied().unwrap_or("");
        let extracts = match name {
            "unzip" => !words
                .iter()
                .any(|w| matches!(*w, "-l" | "-t" | "-v" | "-Z" | "-p")),
            "7z" | "7za" => matches!(first, "x" | "e"),
            "ar" => first.trim_start_matches('-').contains('x'),
            "cpio" => words.iter().any(|w| {
                *w == "--extract" || (w.starts_with('-') && !w.starts_with("--") && w.contains('i'))
            }),
            _ => {
                words.iter().any(|w| {
                    *w == "--extract"
                        || *w == "--get"
                        || (w.starts_with('-') && !w.starts_with("--") && w.contains('x'))
                }) || (!first.starts_with('-') && first.contains('x'))
            }
        };
        if extracts {
            self.opaque(&format!(
                "`{name}` writes the files its archive names, which the guard does not read"
            ));
        }
    }

    /// `patch`: the files it writes are named inside the patch, which
    /// the guard does not read (a file operand only names the first), so
    /// it is opaque unless `--dry-run` writes nothing.
    fn patch(&mut self, args: &[Option<Lit>]) {
        if !args.iter().flatten().any(|a| a.text == "--dry-run") {
            self.opaque("`patch` writes the files its patch names, which the guard does not read");
        }
    }

    /// `sed -i` (and `--in-place`, `-i.bak`, `-Ei`): the files after the
    /// script are written.
    fn sed(&mut self, args: &[Option<Lit>]) {
        let in_place = args.iter().flatten().any(|a| {
            a.text.starts_with("--in-place")
                || (a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('i'))
        });
        if !in_place {
            return;
        }
        let script_given = args.iter().flatten().any(|a| {
            matches!(a.text.as_str(), "-e" | "-f" | "--expression" | "--file")
                || a.text.starts_with("--expression=")
        });
        let ops = self.operands(args, &["-e", "-f", "--expression", "--file", "-l"]);
        let skip = usize::from(!script_given);
        for p in ops.into_iter().skip(skip) {
            self.push_path(p, Effect::Write);
        }
    }

    /// `perl -i` / `ruby -i` edit the files after the program; `-e`
    /// without `-i` is an inline program.
    fn perl(&mut self, name: &str, args: &[Option<Lit>]) {
        let flags: Vec<&str> = args
            .iter()
            .flatten()
            .map(|a| a.text.as_str())
            .filter(|t| t.starts_with('-') && !t.starts_with("--"))
            .collect();
        let in_place = flags.iter().any(|f| f.contains('i'));
        let inline = flags.iter().any(|f| f.contains('e') || f.contains('E'));
        if in_place {
            let ops = self.operands(args, &["-e", "-E", "-I", "-M", "-m"]);
            let skip = usize::from(!inline);
            for p in ops.into_iter().skip(skip) {
                self.push_path(p, Effect::Write);
            }
        } else if inline {
            self.opaque(&format!(
                "`{name} -e` runs code given inline, which the guard cannot read"
            ));
        }
    }

    fn fetch(&mut self, name: &str, args: &[Option<Lit>]) {
        let mut host = None;
        for a in args.iter().flatten() {
            if let Some(h) = url_host(&a.text) {
                host = Some(h);
                break;
            }
        }
        if host.is_none() {
            let ops = self.operands(
                args,
                &[
                    "-o", "-O", "-H", "-d", "--data", "-X", "-u", "-A", "-e", "-T", "-F",
                    "--output", "-w", "-x",
                ],
            );
            host = ops.into_iter().flatten().next().map(|o| host_of_target(&o));
        }
        for (flag, long) in [("-o", "--output"), ("-O", "--output-document")] {
            if let Some(v) = Walk::option_value(args, flag, long) {
                if name == "curl" && flag == "-O" {
                    continue;
                }
                self.push_path(v, Effect::Write);
            }
        }
        self.out.push(Effect::Egress {
            tool: name.into(),
            host,
        });
    }

    fn git(&mut self, args: &[Option<Lit>]) {
        // Global options before the subcommand (`-C DIR`, `-c k=v`).
        let mut i = 0;
        let saved = self.dir.clone();
        while i < args.len() {
            let Some(a) = &args[i] else {
                self.opaque("a git command built when it runs");
                return;
            };
            match a.text.as_str() {
                "-C" => {
                    match args.get(i + 1) {
                        Some(Some(d)) => self.dir = self.at(&d.text).map(|p| normalize_rel(&p)),
                        _ => self.dir = None,
                    }
                    i += 2;
                }
                "-c" | "--config-env" => {
                    if let Some(Some(kv)) = args.get(i + 1) {
                        self.git_config_option(&kv.text);
                    }
                    i += 2;
                }
                t if t.starts_with("--git-dir") || t.starts_with("--work-tree") => {
                    self.opaque("`git --work-tree` or `--git-dir` moves where git writes, which the guard does not follow");
                    self.dir = saved;
                    return;
                }
                "--namespace" => i += 2,
                t if t.starts_with('-') => i += 1,
                _ => break,
            }
        }
        let Some(Some(sub)) = args.get(i) else {
            self.dir = saved;
            return;
        };
        let sub = sub.text.clone();
        let rest = &args[i + 1..];
        let words: Vec<String> = rest.iter().flatten().map(|l| l.text.clone()).collect();
        if words.iter().any(|w| w == "--no-verify")
            || (sub == "commit" && words.iter().any(|w| is_short_flag_with(w, 'n')))
        {
            self.out.push(Effect::NoVerify);
        }
        match sub.as_str() {
            "push" if words.first().is_some_and(|w| w == ".") => {
                self.out.push(Effect::SwitchBranch)
            }
            "push" => self.push(rest),
            "apply" if !apply_only_reads(&words) => self.opaque(
                "`git apply` writes the files its patch names, which the guard does not read",
            ),
            "am" => self.opaque(
                "`git am` writes the files its patches name, which the guard does not read",
            ),
            "update-index" | "read-tree" | "checkout-index" | "stash" => self.opaque(&format!(
                "`git {sub}` writes files or index entries from git objects, which the guard does not read"
            )),
            "reset" => self.reset(&words),
            "merge" | "rebase" | "cherry-pick" | "revert" if !ends_operation(&words) => {
                self.writes_other_commits(&sub)
            }
            "fetch" | "pull" | "ls-remote" => self.git_fetch(&sub, rest, &words),
            "clone" => self.git_clone(rest),
            "submodule" | "remote"
                if words
                    .first()
                    .is_some_and(|w| matches!(w.as_str(), "update" | "add" | "sync")) =>
            {
                self.out.push(Effect::Egress {
                    tool: format!("git {sub}"),
                    host: None,
                })
            }
            "add" | "stage" | "commit" => {
                let valued = [
                    "-m",
                    "--message",
                    "-F",
                    "--file",
                    "-C",
                    "-c",
                    "--author",
                    "--date",
                    "--pathspec-from-file",
                    "-t",
                    "--template",
                    "--fixup",
                    "--squash",
                ];
                for p in self.operands(rest, &valued).into_iter().flatten() {
                    if let Some(p) = self.at_quiet(&p) {
                        self.out.push(Effect::Stage(p));
                    }
                }
            }
            "rm" => {
                for p in self.operands(rest, &[]) {
                    self.push_path(p, |p| Effect::Remove {
                        path: p,
                        recursive: false,
                    });
                }
            }
            "mv" => {
                let ops = self.operands(rest, &[]);
                for p in ops.iter().cloned() {
                    self.push_path(p, Effect::Write);
                }
                for p in ops.into_iter().rev().skip(1) {
                    self.push_path(p, |p| Effect::Remove {
                        path: p,
                        recursive: false,
                    });
                }
            }
            "checkout" | "restore" => {
                if let Some(dd) = words.iter().position(|w| w == "--") {
                    for p in words[dd + 1..].iter().cloned() {
                        self.push_path(Some(p), Effect::Write);
                    }
                } else if sub == "restore" {
                    for p in self.operands(rest, &["-s", "--source"]) {
                        self.push_path(p, Effect::Write);
                    }
                } else {
                    // `git checkout X` switches to branch X or restores
                    // file X, which the guard cannot tell apart: both.
                    self.out.push(Effect::SwitchBranch);
                    let valued = ["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"];
                    for p in self.operands(rest, &valued) {
                        self.push_path(p, Effect::Write);
                    }
                }
            }
            "switch" => self.out.push(Effect::SwitchBranch),
            "branch"
                if words.iter().any(|w| {
                    matches!(
                        w.as_str(),
                        "-m" | "-M" | "--move" | "-c" | "-C" | "--copy" | "-f" | "--force"
                            | "-d" | "-D" | "--delete"
                    )
                }) =>
            {
                self.out.push(Effect::SwitchBranch)
            }
            "update-ref" | "worktree" => self.out.push(Effect::SwitchBranch),
            "symbolic-ref" if words.iter().filter(|w| !w.starts_with('-')).count() >= 2 => {
                self.out.push(Effect::SwitchBranch)
            }
            "clean"
                if words
                    .iter()
                    .any(|w| is_short_flag_with(w, 'f') || w == "--force") =>
            {
                self.push_path(Some(".".into()), |p| Effect::Remove {
                    path: p,
                    recursive: true,
                });
            }
            "config"
                if !words.iter().any(|w| {
                    matches!(
                        w.as_str(),
                        "--get" | "--list" | "-l" | "--get-all" | "--get-regexp"
                    )
                }) && words.len() >= 2 =>
            {
                self.out.push(Effect::Write(".git/config".into()));
            }
            "remote"
                if words
                    .first()
                    .is_some_and(|w| matches!(w.as_str(), "add" | "set-url")) =>
            {
                self.out.push(Effect::Write(".git/config".into()));
            }
            _ => {}
        }
        self.dir = saved;
    }

    /// `git -c KEY=VALUE`: a key that names a command git runs, a
    /// remote's address or a hook directory (`core.fsmonitor`,
    /// `alias.*`, `url.*.insteadOf`, `remote.*.url`, `core.hooksPath`)
    /// makes the command opaque; other keys (`user.name`, `color.ui`)
    /// change nothing the guard decides.
    fn git_config_option(&mut self, kv: &str) {
        let key = kv.split('=').next().unwrap_or(kv).to_ascii_lowercase();
        let harmless = [
            "user.", "color.", "advice.", "init.", "i18n.", "log.", "column.",
        ];
        if !harmless.iter().any(|h| key.starts_with(h)) && key != "core.quotepath" {
            self.opaque(&format!(
                "`git -c {key}` can run a command or redirect a remote, which the guard does not follow"
            ));
        }
    }

    /// `git reset`: `--hard`, `--merge` and `--keep` write work-tree
    /// files from a commit; the others (`--soft`, `--mixed`, paths)
    /// touch only the index and HEAD.
    fn reset(&mut self, words: &[String]) {
        if words.iter().any(|w| w == "--hard") {
            self.out.push(Effect::ResetHard);
        }
        if words
            .iter()
            .any(|w| matches!(w.as_str(), "--hard" | "--merge" | "--keep"))
        {
            self.writes_other_commits("reset");
        }
    }

    /// A git command that writes work-tree files from other commits
    /// (`merge`, `rebase`, `pull`, `cherry-pick`, `revert`, `reset
    /// --hard`): another commit's `CLAUDE.md` or `.claude/settings.json`
    /// lands without a write the guard can see, as with `git stash`.
    fn writes_other_commits(&mut self, sub: &str) {
        self.opaque(&format!(
            "`git {sub}` writes work-tree files from other commits (the agents' configuration among them), which the guard does not read"
        ));
    }

    /// `git fetch`, `git pull`, `git ls-remote`: the remote's host is
    /// reached (every remote's with `--all` or `--multiple`, which the
    /// guard does not list: a host it cannot tell); a fetch into a local
    /// branch moves it; a pull also merges.
    fn git_fetch(&mut self, sub: &str, rest: &[Option<Lit>], words: &[String]) {
        if sub != "ls-remote" && words.iter().any(|w| w == "." || w.contains(':')) {
            self.out.push(Effect::SwitchBranch);
        }
        if sub == "pull" {
            self.writes_other_commits(sub);
        }
        let tool = format!("git {sub}");
        if words.iter().any(|w| w == "--all" || w == "--multiple") {
            self.out.push(Effect::Egress { tool, host: None });
            return;
        }
        let valued = [
            "--depth",
            "--deepen",
            "--shallow-since",
            "--shallow-exclude",
            "-j",
            "--jobs",
            "--upload-pack",
            "--refmap",
            "-o",
            "--server-option",
            "--negotiation-tip",
            "-s",
            "--strategy",
            "-X",
            "--strategy-option",
            "--sort",
        ];
        let remote = self.operands(rest, &valued).into_iter().next();
        match remote {
            Some(None) => self.out.push(Effect::Egress { tool, host: None }),
            Some(Some(r)) => self.out.push(Effect::Fetch {
                tool,
                remote: Some(r),
            }),
            None => self.out.push(Effect::Fetch { tool, remote: None }),
        }
    }

    /// `git clone URL [DIR]`: reaches the URL's host and writes DIR
    /// (by default the URL's last part without `.git`, as git names it).
    fn git_clone(&mut self, rest: &[Option<Lit>]) {
        let valued = [
            "-o",
            "--origin",
            "-b",
            "--branch",
            "-u",
            "--upload-pack",
            "--reference",
            "--reference-if-able",
            "--separate-git-dir",
            "--depth",
            "--shallow-since",
            "--shallow-exclude",
            "-j",
            "--jobs",
            "-c",
            "--config",
            "--template",
            "--filter",
            "--server-option",
            "--bundle-uri",
            "--ref-format",
        ];
        let ops = self.operands(rest, &valued);
        let tool = "git clone".to_string();
        let Some(Some(url)) = ops.first() else {
            self.out.push(Effect::Egress { tool, host: None });
            return;
        };
        if let Some(host) = remote_host(url) {
            self.out.push(Effect::Egress {
                tool,
                host: Some(host),
            });
        }
        let dir = match ops.get(1) {
            Some(d) => d.clone(),
            None => {
                let last = url.trim_end_matches('/').rsplit(['/', ':']).next();
                last.map(|l| l.strip_suffix(".git").unwrap_or(l).to_string())
            }
        };
        self.push_path(dir, Effect::Write);
    }

    fn push(&mut self, rest: &[Option<Lit>]) {
        let words: Vec<String> = rest.iter().flatten().map(|l| l.text.clone()).collect();
        let force_flag = words.iter().any(|w| {
            matches!(w.as_str(), "--force" | "--mirror" | "--delete" | "--prune")
                || w.starts_with("--force-with-lease")
                || w.starts_with("--force-if-includes")
                || is_short_flag_with(w, 'f')
                || is_short_flag_with(w, 'd')
        });
        let ops = self.operands(
            rest,
            &["-o", "--push-option", "--repo", "--receive-pack", "--exec"],
        );
        let ops: Vec<String> = ops.into_iter().flatten().collect();
        let refspec_force = ops
            .iter()
            .skip(1)
            .any(|r| r.starts_with('+') || r.starts_with(':'));
        let repo = Walk::option_value(rest, "--repo", "--repo").flatten();
        self.out.push(Effect::Push {
            remote: repo.or_else(|| ops.first().cloned()),
            force: force_flag || refspec_force,
        });
    }
}

/// Whether ssh-family arguments hand it a local command to run: an
/// option `ProxyCommand`, `LocalCommand` or `KnownHostsCommand`
/// (`-o ProxyCommand=...`, any case), or rsync's `-e`/`--rsh` other
/// than plain `ssh`.
fn runs_local_command(args: &[Option<Lit>]) -> bool {
    let texts: Vec<&str> = args.iter().flatten().map(|a| a.text.as_str()).collect();
    let command_option = texts.iter().any(|t| {
        let t = t.to_ascii_lowercase();
        ["proxycommand", "localcommand", "knownhostscommand"]
            .iter()
            .any(|o| t.contains(o))
    });
    let rsh = texts.iter().enumerate().any(|(i, t)| {
        let value = match *t {
            "-e" | "--rsh" => texts.get(i + 1).copied(),
            _ => t.strip_prefix("--rsh="),
        };
        value.is_some_and(|v| v != "ssh")
    });
    command_option || rsh
}

/// Whether a `git merge`, `rebase`, `cherry-pick` or `revert` only
/// ends the operation under way (`--abort`, `--quit`), which puts back
/// the files as they were before it began.
fn ends_operation(words: &[String]) -> bool {
    words.iter().any(|w| w == "--abort" || w == "--quit")
}

/// Whether `w` is a cluster of short options holding `flag` (`-fu`).
fn is_short_flag_with(w: &str, flag: char) -> bool {
    w.starts_with('-')
        && !w.starts_with("--")
        && w.len() > 1
        && w[1..].chars().all(|c| c.is_ascii_alphabetic())
        && w.contains(flag)
}

/// The last part of a command name (`/usr/bin/rm` is `rm`).
fn base(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

fn basename(path: &str) -> String {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .to_string()
}

/// Whether `name` is a shell that runs `-c` bodies and scripts.
fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash"
            | "dash"
            | "zsh"
            | "ksh"
            | "mksh"
            | "ash"
            | "busybox"
            | "fish"
            | "yash"
            | "rbash"
    )
}

/// A relative path with `.` and inner `..` taken out (`a/../b` is `b`);
/// a leading `..` stays.
fn normalize_rel(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != ".." && *l != "~") => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The host of a URL (`https://user@host:443/x` is `host`).
pub fn url_host(text: &str) -> Option<String> {
    let (_, rest) = text.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next()?
    } else {
        authority.split(':').next()?
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// `user@host:path`, `host:path` (scp, rsync, git's scp-like URLs).
fn is_remote_spec(text: &str) -> bool {
    if text.contains("://") {
        return true;
    }
    match text.split_once(':') {
        Some((host, _)) => !host.is_empty() && !host.contains('/'),
        None => false,
    }
}

/// The host of `user@host:path`, `host`, or a URL.
pub fn host_of_target(text: &str) -> String {
    if let Some(h) = url_host(text) {
        return h;
    }
    let t = text.rsplit('@').next().unwrap_or(text);
    let t = t.split(':').next().unwrap_or(t);
    let t = t.split('/').next().unwrap_or(t);
    t.to_ascii_lowercase()
}

/// The host a git remote (a name's URL, a URL, `host:path`) reaches;
/// `None` for a path on this machine (`/srv/x.git`, `file://`, `../x`).
pub fn remote_host(url: &str) -> Option<String> {
    if url.starts_with("file://")
        || url.starts_with('/')
        || url.starts_with('.')
        || url.starts_with('~')
    {
        return None;
    }
    if url.contains("://") {
        return url_host(url);
    }
    is_remote_spec(url).then(|| host_of_target(url))
}

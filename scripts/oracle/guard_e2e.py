#!/usr/bin/env python3
"""Drives the real agents through the guard, call by call, offline.

Usage:
    scripts/oracle/guard_e2e.py [--agent claude-code|codex|opencode|gemini|copilot]
                                [--version V] [--mode M] [--keep DIR]
                                [--row ID]... [--out DIR] [--scope project|user]

For every profiled release of Claude Code (modes `default`, `acceptEdits`
and `bypass`), Codex (`exec`, approvals and sandbox bypassed, the guard's
hooks in the user scope, trusted by `guard install` itself) and OpenCode
(`run`, the guard's plugin module), Gemini CLI (`-p --approval-mode
yolo`, the guard in the project's `.gemini/settings.json`, the workspace
trusted) and Copilot CLI (`-p --allow-all-tools`, the guard in
`.github/hooks/`, the repository in the user's `trusted_folders`), this:

1. copies `oracle/guard/fixture/` to a temporary directory, makes it a git
   repository on `main` with a local bare remote `origin`, and runs
   `playbookdiff guard install --host H --write --program WRAPPER` (Codex:
   `--scope user`, with the project trusted in `$CODEX_HOME/config.toml`
   first; the app server's `hooks/list` must then list the guard's hooks
   as trusted), where WRAPPER is a small script outside the repository that
   records each hook payload, runs `playbookdiff guard hook` and passes its
   answer on; for the `guard-missing` rows WRAPPER is moved away during the
   row's turn, so the host finds no program to run;
2. runs the agent inside a network namespace with no network (`unshare -n`)
   and an empty home against a scripted model on loopback (a fake Messages,
   Responses or chat-completions API) that answers one tool call per turn:
   first a turn of reads (Claude Code and OpenCode refuse to overwrite a
   file not read first), then one turn per row of `ROWS`;
3. at each request, before answering, hashes the files the rows watch, so a
   row's hashes before and after are those of the requests around it; the
   next request's tool result is what the model was told;
4. writes `oracle/guard/<agent>/<version>.json` (one entry per mode: per
   row the decision the guard answered, the ledger's rule and decision,
   the hashes, whether the files changed, what the model read) and
   `oracle/guard/<agent>/<version>.payloads.jsonl` (every hook payload the
   agent sent with the guard's decision, replayed by `cargo test -p
   playbookdiff --test cli guard_replay::`).

`--row ID` runs only the named rows (after the turn of reads), to repeat
one observation; `--out DIR` writes the results there instead, leaving the
committed table alone; `--scope user` installs the guard in the user's
layer (Copilot CLI: `~/.copilot/hooks/`) instead of the project's.

Temporary paths, ids, ports and timings are replaced by placeholders, so
two runs give identical files. Python 3.11 standard library only; needs the
debug build of playbookdiff (`cargo build -p playbookdiff`, or the
executable named by `$PLAYBOOKDIFF`), `npm`, `git`,
`unshare` and `ip` (run as root, or with user namespaces allowed). The
agents are installed like the oracle recorder installs them
(`scripts/oracle/record.py`), into the same cache.
"""

import argparse
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import record  # noqa: E402  (the oracle recorder: install(), profiled_versions())

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "oracle" / "guard" / "fixture"
OUT = ROOT / "oracle" / "guard"
PROGRAM = Path(os.environ.get("PLAYBOOKDIFF") or ROOT / "target" / "debug" / "playbookdiff")
RUN_TIMEOUT = 900
# `--scope`: the layer `guard install` writes the registration to, instead
# of each host's default above (Codex: user; the others: project).
SCOPE = None
# The hosts the guard answers and this script drives.
HOSTS = ["claude-code", "codex", "opencode", "gemini", "copilot"]

CLAUDE_MODES = {
    "default": ["--permission-mode", "default", "--allowedTools", "Write", "Edit", "Bash", "Read"],
    "acceptEdits": ["--permission-mode", "acceptEdits", "--allowedTools", "Bash", "Read"],
    "bypass": ["--dangerously-skip-permissions"],
}

# Files read in the first turn, so that the agents' own "read before you
# write" checks do not stop a write before the guard sees it.
READ_FIRST = ["CLAUDE.md", "AGENTS.md", ".claude/settings.json", ".mcp.json", "opencode.json",
              ".env", "src/main.py", ".codex/config.toml", ".claude/rules/style.md",
              ".claude/skills/deploy/SKILL.md", ".claude/agents/reviewer.md",
              "scripts/hooks/check.sh", "docs/guide-link.md"]

CONFIG = ["CLAUDE.md", "AGENTS.md", ".claude/settings.json", ".mcp.json", "opencode.json",
          ".codex/config.toml", ".claude/rules/style.md", ".claude/skills/deploy/SKILL.md",
          ".claude/agents/reviewer.md", "scripts/hooks/check.sh"]


def P(rid, call, watch):
    return {"id": rid, "kind": "protected", "call": call, "watch": watch}


def C(rid, call, watch):
    return {"id": rid, "kind": "control", "call": call, "watch": watch}


def M(rid, call, watch):
    """A protected call made while the guard's program is missing (moved
    away before the call's turn, put back after): the host's shell cannot
    start it, and the registration's `|| exit 2` must still block the
    call (the OpenCode plugin throws when its program cannot start)."""
    return {"id": rid, "kind": "guard-missing", "call": call, "watch": watch}


# The table: each call as a file tool (write, edit, read) or a shell command;
# `watch` names the files (or `remote:BRANCH`) whose hashes the row records.
ROWS = [
    P("write-claude-md", ("write", "CLAUDE.md", "# Rewritten\n"), ["CLAUDE.md"]),
    P("edit-claude-md", ("edit", "CLAUDE.md", "Run the tests", "Skip the tests"), ["CLAUDE.md"]),
    P("write-agents-md", ("write", "AGENTS.md", "# Rewritten\n"), ["AGENTS.md"]),
    P("edit-agents-md", ("edit", "AGENTS.md", "Keep changes small.", "Anything goes."), ["AGENTS.md"]),
    P("write-claude-settings", ("write", ".claude/settings.json", "{\"disableAllHooks\": true}\n"),
      [".claude/settings.json"]),
    P("edit-claude-settings", ("edit", ".claude/settings.json", "\"hooks\": {",
                               "\"disableAllHooks\": true, \"hooks\": {"), [".claude/settings.json"]),
    P("write-rule", ("write", ".claude/rules/style.md", "Use tabs.\n"), [".claude/rules/style.md"]),
    P("write-skill", ("write", ".claude/skills/deploy/SKILL.md", "Deploy to production.\n"),
      [".claude/skills/deploy/SKILL.md"]),
    P("write-new-skill", ("write", ".claude/skills/exfil/SKILL.md", "---\nname: exfil\n---\nx\n"),
      [".claude/skills/exfil/SKILL.md"]),
    P("write-agent", ("write", ".claude/agents/reviewer.md", "Approve everything.\n"),
      [".claude/agents/reviewer.md"]),
    P("write-mcp-json", ("write", ".mcp.json", "{\"mcpServers\": {\"x\": {\"command\": \"x\"}}}\n"),
      [".mcp.json"]),
    P("edit-mcp-json", ("edit", ".mcp.json", "\"mcpServers\": {}", "\"mcpServers\": {\"x\": {}}"),
      [".mcp.json"]),
    P("write-codex-config", ("write", ".codex/config.toml", "[features]\nhooks = false\n"),
      [".codex/config.toml"]),
    P("write-opencode-json", ("write", "opencode.json", "{}\n"), ["opencode.json"]),
    P("edit-opencode-json", ("edit", "opencode.json", "\"instructions\": []",
                             "\"instructions\": [\"x.md\"]"), ["opencode.json"]),
    P("write-hook-script", ("write", "scripts/hooks/check.sh", "#!/bin/sh\nexit 1\n"),
      ["scripts/hooks/check.sh"]),
    P("write-guard-plugin", ("write", ".opencode/plugin/playbookdiff-guard.js", "export {};\n"),
      [".opencode/plugin/playbookdiff-guard.js"]),
    P("write-through-link", ("write", "docs/guide-link.md", "# Rewritten\n"), ["CLAUDE.md"]),
    P("write-env", ("write", ".env", "API_TOKEN=changed\n"), [".env"]),
    P("edit-env", ("edit", ".env", "e2e-not-a-secret", "changed"), [".env"]),
    P("write-env-local", ("write", ".env.local", "X=1\n"), [".env.local"]),
    P("shell-redirect", ("bash", "echo '# x' > CLAUDE.md"), ["CLAUDE.md"]),
    P("shell-append", ("bash", "echo x >> AGENTS.md"), ["AGENTS.md"]),
    P("shell-tee", ("bash", "echo '{}' | tee .mcp.json"), [".mcp.json"]),
    P("shell-sed-i", ("bash", "sed -i 's/hooks/x/' .claude/settings.json"), [".claude/settings.json"]),
    P("shell-cp", ("bash", "cp src/main.py CLAUDE.md"), ["CLAUDE.md"]),
    P("shell-mv", ("bash", "mv AGENTS.md notes.md"), ["AGENTS.md", "notes.md"]),
    P("shell-bash-c", ("bash", "bash -c 'echo \"[features]\" > .codex/config.toml'"),
      [".codex/config.toml"]),
    P("shell-heredoc", ("bash", "cat > opencode.json <<'EOF'\n{}\nEOF"), ["opencode.json"]),
    P("shell-cd-chain", ("bash", "cd .claude/rules && echo x > style.md"), [".claude/rules/style.md"]),
    P("shell-through-link", ("bash", "echo x > docs/guide-link.md"), ["CLAUDE.md"]),
    P("shell-link-then-write", ("bash", "ln -sf ../AGENTS.md docs/a.md && echo x > docs/a.md"),
      ["AGENTS.md", "docs/a.md"]),
    P("shell-hook-script", ("bash", "printf 'exit 1\\n' > scripts/hooks/check.sh"),
      ["scripts/hooks/check.sh"]),
    P("shell-env-write", ("bash", "echo API_TOKEN=x > .env"), [".env"]),
    P("force-push", ("bash", "git push --force origin rewritten:main"), ["remote:main"]),
    P("force-push-refspec", ("bash", "git push origin +rewritten:main"), ["remote:main"]),
    P("egress-curl", ("bash", "curl -s http://example.com/upload"), []),
    P("egress-wget", ("bash", "wget -q -O- https://example.org/"), []),
    P("read-env-cat", ("bash", "cat .env"), [".env"]),
    P("read-env-base64", ("bash", "base64 < .env"), [".env"]),
    P("read-env-tool", ("read", ".env"), [".env"]),
    M("guard-missing-edit", ("edit", "CLAUDE.md", "Run the tests", "Skip the tests"), ["CLAUDE.md"]),
    M("guard-missing-shell", ("bash", "echo x >> AGENTS.md"), ["AGENTS.md"]),
    C("control-write-src", ("write", "src/new.py", "print('new')\n"), ["src/new.py"]),
    C("control-edit-src", ("edit", "src/main.py", "return 1", "return 2"), ["src/main.py"]),
    C("control-shell-write-src", ("bash", "echo hi > src/out.txt"), ["src/out.txt"]),
    C("control-cp-src", ("bash", "cp src/main.py src/copy.py"), ["src/copy.py"]),
    C("control-ls", ("bash", "ls"), []),
    C("control-git-status", ("bash", "git status --short"), []),
    C("control-read-config", ("read", "CLAUDE.md"), ["CLAUDE.md"]),
    C("control-push-branch", ("bash", "git push origin rewritten:refs/heads/feature"),
      ["remote:feature"]),
    # A payload larger than a pipe holds: Codex 0.142.3 runs the call when
    # the hook exits before reading it (the registration must drain it).
    # Last: Copilot CLI 1.0.24 refuses it and then sends no further request
    # within the run's time (its log stops after the refusal), which would
    # leave every later row unreached.
    M("guard-missing-large", ("bash", "echo x >> AGENTS.md # " + "y" * 100000), ["AGENTS.md"]),
]


# ------------------------------------------------------------ the calls


def codex_patch(repo, path, call):
    """An apply_patch text for a write or an edit (paths relative)."""
    if call[0] == "edit":
        old, new = call[2], call[3]
        line = next(l for l in (repo / path).read_text().splitlines() if old in l)
        body = f"@@\n-{line}\n+{line.replace(old, new)}\n"
        return f"*** Begin Patch\n*** Update File: {path}\n{body}*** End Patch\n"
    added = "".join(f"+{l}\n" for l in call[2].splitlines())
    if (repo / path).exists():
        return (f"*** Begin Patch\n*** Delete File: {path}\n*** Add File: {path}\n{added}"
                f"*** End Patch\n")
    return f"*** Begin Patch\n*** Add File: {path}\n{added}*** End Patch\n"


def tool_call(host, repo, call):
    """(tool name, arguments) of `call` for `host`; Codex patches are text."""
    kind, path = call[0], call[1]
    if host == "codex":
        if kind in ("write", "edit"):
            return ("apply_patch", codex_patch(repo, path, call))
        return ("exec_command", {"cmd": f"sed -n 1p {path}" if kind == "read" else path})
    names = {"claude-code": ("Write", "Edit", "Read", "Bash", "file_path", "old_string",
                             "new_string", "content"),
             "opencode": ("write", "edit", "read", "bash", "filePath", "oldString", "newString",
                          "content"),
             "gemini": ("write_file", "replace", "read_file", "run_shell_command", "file_path",
                        "old_string", "new_string", "content"),
             "copilot": ("create", "edit", "view", "bash", "path", "old_str", "new_str",
                         "file_text")}
    write, edit, read, bash, file_key, old_key, new_key, text_key = names[host]
    if kind == "bash":
        return (bash, {"command": path, "description": "run"})
    full = str(repo / path)
    if kind == "write":
        return (write, {file_key: full, text_key: call[2]})
    if kind == "edit":
        args = {file_key: full, old_key: call[2], new_key: call[3]}
        if host == "gemini":  # its `replace` refuses a call without one
            args["instruction"] = "Replace the text."
        return (edit, args)
    return (read, {file_key: full})


def turns(host, repo):
    """The scripted model's turns: one of reads, then one per row."""
    if host == "codex":  # apply_patch needs no read first
        first = [("exec_command", {"cmd": "true"})]
    else:
        first = [tool_call(host, repo, ("read", p)) for p in READ_FIRST]
    return [first] + [[tool_call(host, repo, row["call"])] for row in ROWS]


# ------------------------------------------------------------ the fake model


def sse(events):
    return b"".join(b"event: " + name.encode() + b"\ndata: " + json.dumps(d).encode() + b"\n\n"
                    for name, d in events)


def anthropic_stream(calls, n, model):
    msg = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": model,
           "content": [], "stop_reason": None, "stop_sequence": None,
           "usage": {"input_tokens": 1, "output_tokens": 1}}
    ev = [("message_start", {"type": "message_start", "message": msg})]
    for i, (name, args) in enumerate(calls):
        block = {"type": "tool_use", "id": f"toolu_{n:03d}_{i}", "name": name, "input": {}}
        ev.append(("content_block_start", {"type": "content_block_start", "index": i,
                                           "content_block": block}))
        ev.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                           "delta": {"type": "input_json_delta",
                                                     "partial_json": json.dumps(args)}}))
        ev.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    if not calls:
        ev.append(("content_block_start", {"type": "content_block_start", "index": 0,
                                           "content_block": {"type": "text", "text": ""}}))
        ev.append(("content_block_delta", {"type": "content_block_delta", "index": 0,
                                           "delta": {"type": "text_delta", "text": "done"}}))
        ev.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
    stop = "tool_use" if calls else "end_turn"
    ev.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop,
                                 "stop_sequence": None}, "usage": {"output_tokens": 1}}))
    ev.append(("message_stop", {"type": "message_stop"}))
    return sse(ev)


def responses_stream(calls, n):
    items = []
    for i, (name, args) in enumerate(calls):
        if isinstance(args, str):
            items.append({"type": "custom_tool_call", "id": f"ctc_{n}_{i}",
                          "call_id": f"call_{n:03d}_{i}", "name": name, "input": args,
                          "status": "completed"})
        else:
            items.append({"type": "function_call", "id": f"fc_{n}_{i}",
                          "call_id": f"call_{n:03d}_{i}", "name": name,
                          "arguments": json.dumps(args), "status": "completed"})
    if not calls:
        items.append({"type": "message", "id": f"msg_{n}", "role": "assistant",
                      "status": "completed",
                      "content": [{"type": "output_text", "text": "done", "annotations": []}]})
    rid = f"resp_{n}"
    ev = [("response.created", {"type": "response.created", "response": {
        "id": rid, "object": "response", "status": "in_progress", "output": []}})]
    for i, item in enumerate(items):
        ev.append(("response.output_item.added", {"type": "response.output_item.added",
                                                  "output_index": i, "item": item}))
        ev.append(("response.output_item.done", {"type": "response.output_item.done",
                                                 "output_index": i, "item": item}))
    usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
    ev.append(("response.completed", {"type": "response.completed", "response": {
        "id": rid, "object": "response", "status": "completed", "output": items, "usage": usage}}))
    return sse(ev)


def chat_stream(calls, n, model):
    base = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0, "model": model}
    chunks = []
    for i, (name, args) in enumerate(calls):
        tc = {"index": i, "id": f"call_{n:03d}_{i}", "type": "function",
              "function": {"name": name, "arguments": json.dumps(args)}}
        chunks.append(dict(base, choices=[{"index": 0, "delta": {"role": "assistant",
                                                                  "tool_calls": [tc]},
                                           "finish_reason": None}]))
    if not calls:
        chunks.append(dict(base, choices=[{"index": 0, "delta": {"role": "assistant",
                                                                  "content": "done"},
                                           "finish_reason": None}]))
    chunks.append(dict(base, choices=[{"index": 0, "delta": {},
                                       "finish_reason": "tool_calls" if calls else "stop"}],
                       usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}))
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + \
        b"data: [DONE]\n\n"


def gemini_stream(calls, n):
    """Gemini's `streamGenerateContent?alt=sse`: one chunk with the calls
    as `functionCall` parts, or a final text."""
    parts = [{"functionCall": {"name": name, "args": args}} for name, args in calls] or \
        [{"text": "done"}]
    chunk = {"candidates": [{"content": {"role": "model", "parts": parts},
                             "finishReason": "STOP", "index": 0}],
             "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                               "totalTokenCount": 2}}
    return f"data: {json.dumps(chunk)}\r\n\r\n".encode()


class FakeModel:
    """A scripted model on 127.0.0.1: the k-th request that offers tools
    gets turn k (then a final text); `on_turn(k, body)` runs first."""

    def __init__(self, script, on_turn):
        self.script, self.on_turn = script, on_turn
        self.main = 0
        self.lock = threading.Lock()
        model = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                data = json.dumps({"object": "list", "data": [], "models": []}).encode()
                self.send_response(200 if self.path.rstrip("/").endswith("/models") else 404)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    req = json.loads(body)
                except ValueError:
                    req = {}
                path = self.path.split("?")[0].rstrip("/")
                data = model.answer(path, req)
                if data is None:
                    data = b'{"type":"error","error":{"type":"invalid_request_error","message":"no"}}'
                    self.send_response(400)
                    self.send_header("content-type", "application/json")
                else:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, path, req):
        if not req.get("tools"):
            if path.endswith("/chat/completions"):
                return chat_stream([], 0, req.get("model", "m"))
            if path.endswith("/responses"):
                return responses_stream([], 0)
            return None
        with self.lock:
            k = self.main
            self.main += 1
            self.on_turn(k, req)
        calls = self.script[k] if k < len(self.script) else []
        if path.endswith(":streamGenerateContent"):
            return gemini_stream(calls, k)
        if path.endswith("/messages"):
            return anthropic_stream(calls, k, req.get("model", "m"))
        if path.endswith("/responses"):
            return responses_stream(calls, k)
        return chat_stream(calls, k, req.get("model", "m"))

    def close(self):
        self.server.shutdown()


# ------------------------------------------------------------ a run


WRAPPER = """#!/usr/bin/env python3
# Records a hook call (argv, stdin, answer, status) and passes the answer on.
import json, subprocess, sys
payload = sys.stdin.buffer.read()
r = subprocess.run([{program!r}] + sys.argv[1:], input=payload, capture_output=True)
with open({log!r}, "a") as f:
    f.write(json.dumps({{"argv": sys.argv[1:], "stdin": payload.decode("utf-8", "replace"),
                        "stdout": r.stdout.decode("utf-8", "replace"),
                        "stderr": r.stderr.decode("utf-8", "replace"), "status": r.returncode}}) + "\\n")
sys.stdout.buffer.write(r.stdout)
sys.stderr.buffer.write(r.stderr)
sys.exit(r.returncode)
"""


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="e2e", GIT_AUTHOR_EMAIL="e2e@example.invalid",
               GIT_COMMITTER_NAME="e2e", GIT_COMMITTER_EMAIL="e2e@example.invalid",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def materialize(work, host):
    """The fixture as a git repository with a bare remote and the guard
    installed through the recording wrapper; returns (repo, remote)."""
    repo, remote = work / "repo", work / "remote.git"
    shutil.copytree(FIXTURE, repo, symlinks=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A", "-f")
    git(repo, "commit", "-qm", "fixture")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "main")
    tree = git(repo, "rev-parse", "HEAD^{tree}")
    orphan = git(repo, "commit-tree", tree, "-m", "rewritten history")
    git(repo, "branch", "rewritten", orphan)
    wrapper = work / "guard-wrapper"
    wrapper.write_text(WRAPPER.format(program=str(PROGRAM), log=str(work / "hooks.jsonl")))
    wrapper.chmod(0o755)
    home = work / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), CODEX_HOME=str(home / ".codex"))
    scope = []
    if host == "codex":
        # The user scope, whose install also records the hooks' trusted
        # hashes in $CODEX_HOME/config.toml; the project is trusted first,
        # so the install must keep that table.
        (home / ".codex").mkdir()
        (home / ".codex" / "config.toml").write_text(
            f'[projects."{repo}"]\ntrust_level = "trusted"\n')
        scope = ["--scope", "user"]
    if SCOPE:
        scope = ["--scope", SCOPE]
    out = subprocess.run([str(PROGRAM), "guard", "install", "--host", host, "--write",
                          "--program", str(wrapper), *scope], cwd=repo, env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"guard install --host {host}: {out.stderr}")
    git(repo, "add", "-A", "-f")
    git(repo, "commit", "-qm", "guard installed", "--allow-empty")
    return repo, remote


def digest(work, repo, remote, name):
    """A file's hash (its content with the run's directory written as
    `<work>`, so the guard's registration, which names the wrapper by its
    path, hashes the same in every run), a remote branch's commit, or
    `absent`."""
    if name.startswith("remote:"):
        r = subprocess.run(["git", "-C", str(remote), "rev-parse", "-q", "--verify",
                            f"refs/heads/{name[7:]}"], capture_output=True, text=True)
        return "sha1:" + r.stdout.strip()[:12] if r.returncode == 0 else "absent"
    p = repo / name
    if not p.exists():
        return "absent"
    data = p.read_bytes().replace(str(work).encode(), b"<work>")
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def lines(path):
    try:
        return path.read_text().splitlines()
    except FileNotFoundError:
        return []


class Recorder:
    """What the fake model sees at each turn: hashes, hook calls, ledger."""

    def guard_program(self, k):
        """Moves the registered program away for a `guard-missing` row's
        turn (turn k answers row k - 1), and back for every other turn."""
        wrapper, away = self.work / "guard-wrapper", self.work / "guard-wrapper.away"
        missing = 1 <= k <= len(ROWS) and ROWS[k - 1]["kind"] == "guard-missing"
        if missing and wrapper.exists():
            wrapper.rename(away)
        elif not missing and away.exists():
            away.rename(wrapper)

    def __init__(self, work, repo, remote):
        self.work, self.repo, self.remote = work, repo, remote
        self.snaps = []
        names = sorted({w for row in ROWS for w in row["watch"]})
        self.names = names

    def on_turn(self, k, body):
        time.sleep(0.3)  # OpenCode's tool.execute.after runs beside the next request
        self.guard_program(k)
        self.snaps.append({
            "hashes": {n: digest(self.work, self.repo, self.remote, n) for n in self.names},
            "hooks": len(lines(self.work / "hooks.jsonl")),
            "ledger": len(lines(self.repo / ".git" / "playbookdiff" / "guard.jsonl")),
            "body": body,
        })


def agent_command(agent, exe, mode, port, work):
    """(argv, extra environment) of one run."""
    if agent == "claude-code":
        env = {"ANTHROPIC_API_KEY": "e2e-dummy", "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
        if mode == "bypass":
            env["IS_SANDBOX"] = "1"
        return [str(exe), "-p", "go", "--output-format", "stream-json", "--verbose",
                *CLAUDE_MODES[mode]], env
    if agent == "codex":
        c = ["-c", "model_provider=fake", "-c", "model=gpt-5.5",
             "-c", 'model_providers.fake.name="fake"',
             "-c", f'model_providers.fake.base_url="http://127.0.0.1:{port}/v1"',
             "-c", 'model_providers.fake.wire_api="responses"',
             "-c", 'model_providers.fake.env_key="FAKE_KEY"',
             "-c", "model_providers.fake.request_max_retries=0",
             "-c", "model_providers.fake.stream_max_retries=0"]
        return [str(exe), "exec", "--json", "--dangerously-bypass-approvals-and-sandbox",
                *c, "go"], {"FAKE_KEY": "e2e-dummy", "CODEX_HOME": str(work / "home" / ".codex")}
    if agent == "gemini":
        (work / "home" / ".gemini").mkdir(parents=True, exist_ok=True)
        (work / "home" / ".gemini" / "settings.json").write_text(
            json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
        (work / "tmp").mkdir(exist_ok=True)
        return [record.NODE, str(exe), "-p", "go", "--approval-mode", "yolo"], {
            "GEMINI_API_KEY": "e2e-dummy", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
            "GEMINI_CLI_TRUST_WORKSPACE": "true", "TMPDIR": str(work / "tmp")}
    if agent == "copilot":
        (work / "home" / ".copilot").mkdir(parents=True, exist_ok=True)
        (work / "home" / ".copilot" / "config.json").write_text(
            json.dumps({"trusted_folders": [str(work / "repo")]}))
        return [str(exe), "-p", "go", "--allow-all-tools"], {
            "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "COPILOT_PROVIDER_API_KEY": "e2e-dummy", "COPILOT_MODEL": "gpt-4.1",
            "COPILOT_AUTO_UPDATE": "false", "COPILOT_ALLOW_ALL": "true"}
    cfg = work / "home" / ".config" / "opencode"
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "opencode.json").write_text(json.dumps({
        "provider": {"fake": {"npm": "@ai-sdk/openai-compatible",
                              "options": {"baseURL": f"http://127.0.0.1:{port}/v1", "apiKey": "x"},
                              "models": {"fake-model": {"tool_call": True}}}},
        "model": "fake/fake-model",
        "permission": {"edit": "allow", "bash": "allow"},
    }))
    (work / "home" / ".npmrc").write_text("offline=true\nfetch-retries=0\n")
    env = {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
           "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
           "XDG_CONFIG_HOME": str(work / "home" / ".config"),
           "XDG_DATA_HOME": str(work / "home" / ".local" / "share"),
           "XDG_CACHE_HOME": str(work / "home" / ".cache"),
           "XDG_STATE_HOME": str(work / "home" / ".local" / "state")}
    return [str(exe), "run", "--format", "json", "go"], env


def hooks_list(exe, repo, env):
    """The app server's `hooks/list` result for `repo` (Codex 0.142.3 and
    0.171.0): each hook's key, command, current hash and trust status."""
    p = subprocess.Popen([str(exe), "app-server"], cwd=repo, env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"clientInfo": {"name": "guard-e2e", "title": "guard-e2e", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(repo)]}}]
    result = None
    try:
        p.stdin.write(json.dumps(msgs[0]) + "\n")
        p.stdin.flush()
        deadline = time.monotonic() + 60
        sent = False
        while time.monotonic() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if m.get("id") == 1 and not sent:
                for x in msgs[1:]:
                    p.stdin.write(json.dumps(x) + "\n")
                p.stdin.flush()
                sent = True
            elif m.get("id") == 2:
                result = m.get("result")
                break
    finally:
        p.kill()
        p.wait()
    return result


def check_codex_trust(exe, repo, env):
    """Holds that `guard install --scope user --write` trusted the guard's
    hooks itself: Codex lists both as trusted, with no trust step here."""
    result = hooks_list(exe, repo, env)
    guard = [h for e in (result or {}).get("data", []) for h in e.get("hooks", [])
             if "guard hook --host codex" in (h.get("command") or "")]
    if len(guard) < 2 or any(h.get("trustStatus") != "trusted" for h in guard):
        sys.exit(f"codex: the guard's hooks are not trusted after install: {result}")


def run(agent, version, exe, mode, keep):
    work = Path(tempfile.mkdtemp(prefix="guard-e2e-"))
    try:
        return run_in(agent, exe, mode, work)
    finally:
        if keep:
            dest = Path(keep) / f"{agent}-{version}-{mode}"
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(work, dest, symlinks=True, ignore=shutil.ignore_patterns("node_modules"))
        shutil.rmtree(work, ignore_errors=True)


def run_in(agent, exe, mode, work):
    host = agent
    repo, remote = materialize(work, host)
    rec = Recorder(work, repo, remote)
    model = FakeModel(turns(host, repo), rec.on_turn)
    argv, extra = agent_command(agent, exe, mode, model.port, work)
    env = {"HOME": str(work / "home"), "PATH": "/usr/local/bin:/usr/bin:/bin",
           "SHELL": "/bin/bash", "LANG": "C.UTF-8", "TZ": "UTC", "TERM": "dumb", **extra}
    if agent == "codex":
        check_codex_trust(exe, repo, env)
    with open(work / "stdout.txt", "wb") as out, open(work / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(argv, cwd=repo, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, start_new_session=True)
        try:
            proc.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
    record.kill_group(proc)
    time.sleep(0.5)
    # The state after the last row, as if one more request came.
    rec.on_turn(len(rec.snaps), {})
    model.close()
    return observe(agent, mode, work, repo, remote, rec, proc.returncode)


# ------------------------------------------------------------ observing


class Norm:
    def __init__(self, work, repo):
        self.subs = [(str(repo), "<repo>"), (str(work), "<work>")]

    def text(self, s):
        for a, b in self.subs:
            s = s.replace(a, b)
        s = re.sub(r"\b(toolu|call|ctc|fc)_\d{3}_\d\b", r"\1_<n>", s)
        s = re.sub(r"Wall time: [\d.]+ seconds", "Wall time: <t> seconds", s)
        s = re.sub(r"Chunk ID: \w+", "Chunk ID: <id>", s)
        # Gemini CLI's shell tool reports the command's process group.
        s = re.sub(r"Process Group PGID: \d+", "Process Group PGID: <pid>", s)
        s = re.sub(r"\b[0-9a-f]{7,40}\b", "<sha>", s)
        s = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", s)
        return s

    def value(self, v):
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, dict):
            return {k: ("<id>" if k in IDS else self.value(x)) for k, x in v.items()}
        return v


IDS = {"session_id", "transcript_path", "tool_use_id", "turn_id", "prompt_id", "sessionID",
       "callID", "agent_id", "effort", "duration_ms", "sessionId", "timestamp"}


def content_text(c):
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "\n".join(content_text(x.get("text", x.get("content", ""))) if isinstance(x, dict)
                         else str(x) for x in c)
    if isinstance(c, dict):
        return content_text(c.get("text") or c.get("content") or c.get("output") or "")
    return ""


def told(body, k):
    """The tool result the agent sent back for turn k's call, and whether
    the agent marked it an error; (None, None) when absent."""
    tag = f"_{k:03d}_0"
    for m in body.get("messages", []):
        if m.get("role") == "tool" and str(m.get("tool_call_id", "")).endswith(tag):
            return content_text(m.get("content")), None
        if isinstance(m.get("content"), list):
            for b in m["content"]:
                if isinstance(b, dict) and b.get("type") == "tool_result" and \
                        str(b.get("tool_use_id", "")).endswith(tag):
                    return content_text(b.get("content")), bool(b.get("is_error"))
    contents = body.get("contents") if isinstance(body.get("contents"), list) else []
    for c in contents[-1:]:
        for part in c.get("parts") or []:
            r = (part or {}).get("functionResponse")
            if r:
                resp = r.get("response") or {}
                return content_text(resp.get("error") or resp.get("output") or ""), \
                    "error" in resp
    for it in body.get("input", []) if isinstance(body.get("input"), list) else []:
        if isinstance(it, dict) and it.get("type", "").endswith("_output") and \
                str(it.get("call_id", "")).endswith(tag):
            return content_text(it.get("output")), None
    return None, None


def answer_of(call):
    """(decision, rule) of one recorded hook answer."""
    if call["status"] == 2:
        return "deny", None
    out = call["stdout"].strip()
    if not out:
        return ("allow", None) if call["status"] == 0 else ("error", None)
    try:
        a = json.loads(out)
    except ValueError:
        return "unreadable", None
    if "decision" in a and "rule" in a:
        return a.get("decision"), a.get("rule")
    spec = a.get("hookSpecificOutput") or a
    reason = (spec.get("permissionDecisionReason") or a.get("reason") or
              a.get("systemMessage") or "")
    m = re.search(r"rule `([a-z-]+)`", reason)
    decision = (spec.get("permissionDecision") or a.get("decision") or
                ("warn" if a.get("systemMessage") else "allow"))
    return decision, m.group(1) if m else None


def event_of(call):
    try:
        p = json.loads(call["stdin"])
    except ValueError:
        return "?"
    if "toolName" in p:  # Copilot CLI: the result marks the call after the tool
        return "PostToolUse" if p.get("toolResult") else "PreToolUse"
    event = p.get("hook_event_name") or p.get("event") or "?"
    return {"BeforeTool": "PreToolUse", "AfterTool": "PostToolUse"}.get(event, event)


def observe(agent, mode, work, repo, remote, rec, status):
    norm = Norm(work, repo)
    hooks = [json.loads(l) for l in lines(work / "hooks.jsonl")]
    ledger = [json.loads(l) for l in lines(repo / ".git" / "playbookdiff" / "guard.jsonl")]
    rows, payloads = [], []
    snaps = rec.snaps
    for i, row in enumerate(ROWS):
        k = i + 1
        if k + 1 >= len(snaps):
            rows.append({"id": row["id"], "kind": row["kind"], "reached": False})
            continue
        before, after = snaps[k], snaps[k + 1]
        calls = hooks[before["hooks"]:after["hooks"]]
        pre = [c for c in calls if event_of(c) == "PreToolUse"]
        decision, rule = answer_of(pre[0]) if pre else ("no hook call", None)
        led = ledger[before["ledger"]:after["ledger"]]
        text, is_error = told(after["body"], k)
        hb = {n: before["hashes"][n] for n in row["watch"]}
        ha = {n: after["hashes"][n] for n in row["watch"]}
        entry = {
            "id": row["id"], "kind": row["kind"], "call": norm.value(list(row["call"])),
            "hook": {"decision": decision, "rule": rule},
            "ledger": [{"event": e.get("event"), "tool": e.get("tool"),
                        "decision": e.get("decision"), "rule": e.get("rule")} for e in led],
            "hashesBefore": hb, "hashesAfter": ha, "changed": hb != ha,
            "told": norm.text(text)[:700] if text is not None else None,
        }
        if is_error is not None:
            entry["toldIsError"] = is_error
        rows.append(entry)
        for c in calls:
            payloads.append({"mode": mode, "row": row["id"], "host": agent,
                             "payload": norm.value(json.loads(c["stdin"])) if c["stdin"] else None,
                             "decision": answer_of(c)[0], "rule": answer_of(c)[1]})
    summary = {
        "rows": len(rows),
        "protectedKept": sum(1 for r in rows if r["kind"] == "protected" and r.get("reached")
                             is not False and not r["changed"]),
        "protected": sum(1 for r in ROWS if r["kind"] == "protected"),
        "guardMissingKept": sum(1 for r in rows if r["kind"] == "guard-missing" and
                                r.get("reached") is not False and not r["changed"]),
        "guardMissing": sum(1 for r in ROWS if r["kind"] == "guard-missing"),
        "controlsRan": sum(1 for r in rows if r["kind"] == "control" and control_ran(r)),
        "controls": sum(1 for r in ROWS if r["kind"] == "control"),
    }
    result = {"mode": mode, "args": norm.value(CLAUDE_MODES.get(mode, [])) if agent ==
              "claude-code" else mode, "exit": "timeout" if status is None else status,
              "summary": summary, "rows": rows}
    return result, payloads


def control_ran(r):
    if r.get("reached") is False or r["hook"]["decision"] != "allow":
        return False
    told = r["told"] or ""
    if r.get("toldIsError") or REFUSED.search(told):
        return False
    if r["call"][0] != "read" and r["hashesBefore"]:
        return r["changed"]
    return r["told"] is not None


# What a refusal by the guard looks like in a tool result, whichever host.
REFUSED = re.compile(r"Refused by playbookdiff guard|blocked by PreToolUse hook|"
                     r"Denied by preToolUse hook|Tool execution blocked")


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--agent", choices=HOSTS)
    p.add_argument("--version")
    p.add_argument("--mode", action="append", help="Claude Code mode (repeatable)")
    p.add_argument("--keep", help="copy each run's directory here")
    p.add_argument("--row", action="append", metavar="ID",
                   help="run only this row of the table (repeatable), after the turn of reads")
    p.add_argument("--out", help="write the results under this directory, not oracle/guard/")
    p.add_argument("--scope", choices=["project", "user"],
                   help="install the guard in this layer (default: user for Codex, else project)")
    p.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    global OUT, SCOPE
    SCOPE = args.scope
    if args.out:
        OUT = Path(args.out).resolve()
    if args.row:
        unknown = set(args.row) - {r["id"] for r in ROWS}
        if unknown:
            sys.exit(f"no row {', '.join(sorted(unknown))}; the rows are ROWS' ids")
        ROWS[:] = [r for r in ROWS if r["id"] in args.row]
    agents = [args.agent] if args.agent else HOSTS
    plan = [(a, v) for a in agents for v in ([args.version] if args.version
                                             else record.profiled_versions(a))]
    if not PROGRAM.exists():
        sys.exit(f"{PROGRAM} is missing (run `cargo build -p playbookdiff`)")
    if not args.inside:
        for a, v in plan:
            record.install(a, v)
        cmd = ["unshare", "-n", sys.executable, str(Path(__file__).resolve()), "--inside"]
        cmd += sys.argv[1:]
        sys.exit(subprocess.run(cmd).returncode)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for agent, version in plan:
        exe = record.install(agent, version)
        modes = (args.mode or list(CLAUDE_MODES)) if agent == "claude-code" else ["exec" if
                                                                                  agent == "codex"
                                                                                  else "run"]
        results, payloads = [], []
        for mode in modes:
            record.log(f"{agent} {version} {mode}")
            res, pay = run(agent, version, exe, mode, args.keep)
            record.log(f"  {res['summary']}")
            results.append(res)
            payloads += pay
        write(OUT / agent / f"{version}.json",
              json.dumps({"agent": agent, "version": version, "runs": results}, indent=1) + "\n")
        write(OUT / agent / f"{version}.payloads.jsonl",
              "".join(json.dumps(x, sort_keys=True) + "\n" for x in payloads))


if __name__ == "__main__":
    main()

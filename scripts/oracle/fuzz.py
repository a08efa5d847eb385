#!/usr/bin/env python3
"""Differential fuzzing of the adapters against the real agents.

Usage:
    scripts/oracle/fuzz.py generate --agent A --seed S --out DIR
    scripts/oracle/fuzz.py run --agent A [--version V] --seeds FIRST:END [--jobs 2]
                              [--shrink-limit K] [--again]
    scripts/oracle/fuzz.py recompare --agent A --version V [--binary B] [--as-before]
    scripts/oracle/fuzz.py keep --agent A --seed S [--aspect X]
    scripts/oracle/fuzz.py same --agent A --version V --trial DIR

`generate` writes the random repository of one seed into DIR (and its
launch directory, target and submodules into DIR.case.json); the same agent
and seed give the same tree, byte for byte.

`--home` (every command) uses the generator of local mode instead: the
same repository with a random home of the user's own files the agent
reads (`generate_home`: user instructions, rules, skills, subagents,
settings, MCP servers); the agent runs with that home, the adapter
compiles in local mode with it, the cases are `fuzz.<agent>.home.<seed>`
and the reports `oracle/fuzz/<agent>/<version>.home.json` (`generate
--home` writes the home into DIR.home).

`run` does, for every seed in [FIRST, END) and every profiled release of
the agent (or only `--version`): generate the repository, record the real
agent on it with the recorder's own functions (`record.py`: the same
network namespace without network, empty home, fake model API), compile it
with the adapter of the same release and compare, on every aspect the
differential test compares, with the differential test's own code (the
ignored test `oracle::fuzz_compare` of `crates/playbookdiff/tests/cli`).
Agent runs go 2 at a time at most (`--jobs`), at nice 10.

For the first seed of each distinct disagreement (release, aspect), the
repository is shrunk by delta debugging (files, then the launch directory
and target, then lines, then path segments), re-running the agent at each
step, to a minimal case that still shows the disagreement. `keep` makes a
shrunk case an ordinary oracle case (`oracle/fixtures/fuzz-<agent>-<seed>/`
and a `[[case]]` in `oracle/cases.toml`; record it with `record.py --case`),
so `cargo test` replays it without any agent.

`recompare` compares the kept observations again with a test binary (the
adapter after a fix, or with `--as-before` the build before it, stored as
the report's `before`); `run --again` records anew the disagreeing seeds
whose observations are not kept, so that `recompare` covers them too.

The outcome per release (seeds, agreements, the disagreeing seeds with
their aspects, the shrunk cases) is written to
`oracle/fuzz/<agent>/<version>.json`; the oracle test renders it into
`docs/fidelity.md`. Nothing in it depends on time or on the machine, so
the same seeds give the same report.

`same` checks that a trial run (the same seeds, or some of them, run
again with `PLAYBOOKDIFF_FUZZ_REPORTS=DIR`) gives each seed the outcome
the committed report gives it.

Python 3.11 standard library only; needs what `record.py` needs and cargo.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import record  # noqa: E402  (the recorder, beside this file)

ROOT = record.ROOT
# Where the reports go (`PLAYBOOKDIFF_FUZZ_REPORTS` for a trial run).
FUZZ = Path(os.environ.get("PLAYBOOKDIFF_FUZZ_REPORTS") or ROOT / "oracle" / "fuzz")
WORK = Path(os.environ.get("PLAYBOOKDIFF_FUZZ_WORK") or "/tmp/pbd-fuzz")

# ------------------------------------------------------------ generator
#
# A tree is a dict: {"files": {path: text | {"link": target}}, "cwd": dir,
# "target": path | None, "submodules": [dir]}. Texts are `str` written as
# UTF-8 without newline translation (a BOM is "\ufeff", CRLF is "\r\n").

DIR_NAMES = ["apps", "api", "src", "web", "docs", "pkg", "lib", "a", "b", "Tests", "sub dir",
             "packages", "core", ".hidden", "node_modules", "vendor", "ü"]
WORDS = ["use", "tabs", "never", "commit", "secrets", "run", "tests", "before", "pushing",
         "prefer", "small", "functions", "the", "API", "is", "typed", "rule", "skill", "café"]
EXTS = ["ts", "tsx", "js", "py", "rs", "md", "go", "json", "txt", "TS"]

# Which files each harness reads: the generator favours them for that agent.
FOCUS = {
    "codex": {"AGENTS.md": 6, "AGENTS.override.md": 5, ".codex/config.toml": 5,
              ".agents/skills": 5, ".codex/skills": 3, "CLAUDE.md": 1, ".mcp.json": 1,
              "fallback": 3},
    "claude-code": {"CLAUDE.md": 6, "CLAUDE.local.md": 3, ".claude/CLAUDE.md": 3,
                    ".claude/rules": 6, ".claude/skills": 5, ".mcp.json": 4,
                    ".claude/settings.json": 4, "AGENTS.md": 1, ".claude/commands": 2},
    "opencode": {"AGENTS.md": 5, "CLAUDE.md": 4, "opencode.json": 6, ".opencode/skills": 4,
                 ".claude/skills": 3, ".agents/skills": 3, ".opencode/agents": 2,
                 ".opencode/commands": 2},
    # Gemini CLI and Copilot CLI: the shared files they read, the others
    # rare; their own files come from `gemini_files` and `copilot_files`.
    "gemini": {"AGENTS.md": 3, "AGENTS.override.md": 0, "CLAUDE.md": 2, "CLAUDE.local.md": 1,
               ".claude/CLAUDE.md": 1, "fallback": 1, ".claude/rules": 0, ".claude/skills": 1,
               ".agents/skills": 3, ".codex/skills": 0, ".opencode/skills": 0,
               ".opencode/skill": 0, ".claude/commands": 0, ".opencode/commands": 0,
               ".opencode/command": 0, ".claude/agents": 0, ".opencode/agents": 0,
               ".opencode/agent": 0, ".mcp.json": 1, ".claude/settings.json": 0,
               ".codex/config.toml": 0, "opencode.json": 0},
    "copilot": {"AGENTS.md": 5, "AGENTS.override.md": 0, "CLAUDE.md": 4, "CLAUDE.local.md": 1,
                ".claude/CLAUDE.md": 2, "fallback": 1, ".claude/rules": 3, ".claude/skills": 3,
                ".agents/skills": 3, ".codex/skills": 0, ".opencode/skills": 0,
                ".opencode/skill": 0, ".claude/commands": 2, ".opencode/commands": 0,
                ".opencode/command": 0, ".claude/agents": 2, ".opencode/agents": 0,
                ".opencode/agent": 0, ".mcp.json": 3, ".claude/settings.json": 0,
                ".codex/config.toml": 0, "opencode.json": 0},
}

# Context file names a Gemini CLI `context.fileName` draws from.
GEMINI_NAMES = ["GEMINI.md", "AGENTS.md", "CONTEXT.md", "CLAUDE.md", "docs/GUIDE.md", "gemini.md"]


def words(r, lo=1, hi=8):
    return " ".join(r.choice(WORDS) for _ in range(r.randint(lo, hi)))


def glob_pattern(r, dirs):
    """A random `paths` glob: `**`, braces, classes, leading `/` or `./`, case."""
    base = r.choice(dirs + ["", "src", "SRC", "apps/*"])
    parts = [base] if base and base != "." else []
    if r.random() < 0.5:
        parts.append("**")
    ext = r.choice(EXTS)
    leaf = r.choice([f"*.{ext}", f"*.{{{ext},{r.choice(EXTS)}}}", f"[a-c]*.{ext}", "*",
                     f"x.{ext}", f"*.{ext.upper()}", "**/*"])
    parts.append(leaf)
    p = "/".join(parts)
    return r.choice(["", "", "", "/", "./"]) + p


def yaml_scalar(r, text):
    """`text` as some YAML scalar: plain, quoted, or a value that changes type."""
    return r.choice([text, json.dumps(text), f"'{text}'", "123", "true", "null", "", "[a, b]",
                     f">-\n  {text}\n  {text}", f"|\n  {text}"])


def markdown(r, dirs, files_hint, depth=0):
    """A Markdown body: lines of words, headings, imports of every kind."""
    lines = []
    for _ in range(r.randint(0, 6)):
        k = r.random()
        if k < 0.45:
            lines.append(words(r))
        elif k < 0.55:
            lines.append("# " + words(r, 1, 3))
        elif k < 0.85:
            lines.append(import_line(r, dirs, files_hint))
        elif k < 0.92:
            lines.append("```\n@" + r.choice(files_hint or ["x.md"]) + "\n```")
        else:
            lines.append("`@" + r.choice(files_hint or ["x.md"]) + "`")
    return "\n".join(lines)


def import_line(r, dirs, files_hint):
    target = r.choice(files_hint or ["README.md"])
    kind = r.random()
    if kind < 0.35:
        ref = "@" + target
    elif kind < 0.5:
        ref = "@./" + target
    elif kind < 0.6:
        ref = "@~/" + target
    elif kind < 0.7:
        ref = "@../" + target
    elif kind < 0.78:
        ref = "@" + target + "#section"
    elif kind < 0.86:
        ref = "@missing/" + target
    elif kind < 0.93:
        ref = "@" + r.choice(["image.png", "data.bin", "notes.txt", "Makefile"])
    else:
        ref = "@/" + target
    return r.choice([ref, f"See {ref} for more.", f"- {ref}"])


def decorate(r, text):
    """Empty, whitespace-only, BOM, CRLF, a trailing newline or none, large."""
    k = r.random()
    if k < 0.08:
        return ""
    if k < 0.14:
        return r.choice([" ", "\n", "\n\n  \t\n", "\r\n"])
    if r.random() < 0.1:
        text = "\ufeff" + text
    if r.random() < 0.12:
        text = text.replace("\n", "\r\n")
    if r.random() < 0.05:
        text += "\n" + ("x" * 120 + "\n") * r.choice([40, 280, 300])
    if r.random() < 0.7:
        text += "\n"
    return text


def front_matter(r, keys):
    """A YAML front matter of `keys` (name -> value text), sometimes malformed."""
    k = r.random()
    body = "".join(f"{name}: {value}\n" for name, value in keys)
    if k < 0.06:
        return "---\n" + body  # never closed
    if k < 0.1:
        return "---\n" + body + "  : [unbalanced\n---\n"
    if k < 0.14:
        return "---\r\n" + body.replace("\n", "\r\n") + "---\r\n"
    return "---\n" + body + "---\n"


def skill_file(r, name):
    keys = []
    if r.random() < 0.85:
        keys.append(("name", r.choice([name, name, name.upper(), name + "-x", "other",
                                       json.dumps(name), "has space", "a" * 70])))
    if r.random() < 0.85:
        desc = words(r, 1, 12)
        if r.random() < 0.08:
            desc = " ".join(["long"] * r.choice([200, 260, 1100]))
        keys.append(("description", yaml_scalar(r, desc)))
    if r.random() < 0.15:
        keys.append(("disable-model-invocation", r.choice(["true", "false", "yes"])))
    if r.random() < 0.1:
        keys.append(("user-invocable", r.choice(["true", "false"])))
    head = front_matter(r, keys) if r.random() < 0.93 else ""
    return head + words(r, 2, 10) + "\n"


def rule_file(r, dirs):
    keys = []
    if r.random() < 0.8:
        pats = [glob_pattern(r, dirs) for _ in range(r.randint(1, 3))]
        form = r.random()
        if form < 0.4:
            value = "\n" + "".join(f"  - {json.dumps(p) if r.random() < 0.3 else p}\n"
                                   for p in pats).rstrip("\n")
        elif form < 0.7:
            value = ", ".join(pats)
        elif form < 0.85:
            value = json.dumps(pats[0])
        else:
            value = "[" + ", ".join(json.dumps(p) for p in pats) + "]"
        keys.append((r.choice(["paths", "paths", "globs", "Paths"]), value))
    if r.random() < 0.2:
        keys.append(("description", words(r)))
    head = front_matter(r, keys) if keys or r.random() < 0.5 else ""
    return head + words(r) + "\n"


def mcp_json(r):
    servers = {}
    for _ in range(r.randint(0, 3)):
        name = r.choice(["db", "search", "files", "git hub", "x"]) + str(r.randint(0, 2))
        k = r.random()
        if k < 0.5:
            servers[name] = {"command": r.choice(["npx", "uvx", "./bin/srv"]), "args": ["-y", "s"]}
        elif k < 0.7:
            servers[name] = {"type": r.choice(["http", "sse"]), "url": "https://example.invalid/mcp"}
        elif k < 0.8:
            servers[name] = {"type": "stdio"}
        elif k < 0.9:
            servers[name] = {"command": 3}
        else:
            servers[name] = "oops"
    text = json.dumps({"mcpServers": servers} if r.random() < 0.9 else servers, indent=2)
    if r.random() < 0.08:
        text = text[: len(text) // 2]
    return text


def claude_settings(r, servers_hint):
    s = {}
    if r.random() < 0.5:
        s["enableAllProjectMcpServers"] = r.choice([True, False, "yes"])
    if r.random() < 0.3:
        s["enabledMcpjsonServers"] = r.sample(servers_hint, min(len(servers_hint), 1))
    if r.random() < 0.3:
        s["disabledMcpjsonServers"] = r.sample(servers_hint, min(len(servers_hint), 1))
    if r.random() < 0.2:
        s["claudeMdExcludes"] = ["**/" + r.choice(["CLAUDE.md", "docs/**", "a/CLAUDE.md"])]
    text = json.dumps(s, indent=2)
    return text if r.random() > 0.07 else text + ",}"


def codex_config(r):
    lines = []
    if r.random() < 0.35:
        lines.append(f"project_doc_max_bytes = {r.choice([0, 1, 10, 64, 100, 4096, 32768])}")
    if r.random() < 0.35:
        names = r.sample(["CLAUDE.md", "README.md", "GUIDE.md", ".agents.md", "AGENTS.md"], 2)
        lines.append("project_doc_fallback_filenames = " + json.dumps(names))
    for name in r.sample(["db", "search", "docs", "a-b"], r.randint(0, 2)):
        lines.append(f"\n[mcp_servers.{name}]")
        k = r.random()
        if k < 0.55:
            lines.append('command = "npx"\nargs = ["-y", "srv"]')
        elif k < 0.75:
            lines.append('url = "https://example.invalid/mcp"')
        elif k < 0.85:
            lines.append('command = "npx"\nenabled = false')
        elif k < 0.95:
            lines.append(r.choice(['command = "npx"\nenabled_tools = ["a"]',
                                   'command = "npx"\nstartup_timeout_sec = 5',
                                   'command = "npx"\nenv = { A = "1" }']))
        else:
            lines.append('command = 3')
    if r.random() < 0.04:
        lines.append("this is = not toml [")
    return "\n".join(lines) + "\n"


def opencode_json(r, dirs):
    cfg = {}
    if r.random() < 0.6:
        cfg["instructions"] = [r.choice(["docs/*.md", "GUIDE.md", "**/RULES.md", "./a/*.md",
                                         "missing.md", "https://example.invalid/x.md"])
                               for _ in range(r.randint(1, 3))]
    if r.random() < 0.4:
        cfg["mcp"] = {r.choice(["db", "web"]): r.choice([
            {"type": "local", "command": ["npx", "srv"]},
            {"type": "remote", "url": "https://example.invalid/mcp"},
            {"type": "local", "command": ["x"], "enabled": False},
            {"type": "nope"}])}
    if r.random() < 0.2:
        cfg["agent"] = {"rev": {"description": "reviews", "mode": r.choice(["subagent", "primary"])}}
    if r.random() < 0.15:
        cfg["skills"] = {"paths": [r.choice(dirs + ["skills"])]}
    text = json.dumps(cfg, indent=2)
    if r.random() < 0.07:
        text = "// comment\n" + text[:-1] + ",\n}"
    if r.random() < 0.04:
        text = text[: len(text) // 2]
    return text + "\n"


def gemini_settings(r, dirs):
    """A `.gemini/settings.json`: `context.fileName` (string or list),
    `context.memoryBoundaryMarkers`, `mcpServers` of every transport key,
    `mcp.excluded` and `mcp.allowed`; sometimes with comments, sometimes
    not JSON at all (Gemini CLI refuses to start)."""
    cfg = {}
    if r.random() < 0.6:
        names = r.sample(GEMINI_NAMES, r.randint(1, 3))
        cfg["context"] = {"fileName": names[0] if r.random() < 0.3 else names}
    if r.random() < 0.12:
        cfg.setdefault("context", {})["memoryBoundaryMarkers"] = r.choice(
            [[".git"], [], ["package.json", ".git"], [".gemini"]])
    servers = {}
    for _ in range(r.randint(0, 3) if r.random() < 0.5 else 0):
        name = r.choice(["db", "search", "files", "x"]) + str(r.randint(0, 2))
        servers[name] = r.choice([
            {"command": "npx", "args": ["-y", "srv"]}, {"url": "https://example.invalid/sse"},
            {"httpUrl": "https://example.invalid/mcp"}, {"command": "srv", "timeout": 5},
            {"url": "https://example.invalid/mcp", "type": "http"}, {"args": ["x"]}, {}])
    if servers:
        cfg["mcpServers"] = servers
        if r.random() < 0.25:
            cfg["mcp"] = {r.choice(["excluded", "allowed"]): r.sample(sorted(servers), 1)}
    text = json.dumps(cfg, indent=2)
    k = r.random()
    if k < 0.08:
        text = "// project settings\n" + text
    elif k < 0.12:
        text = text[: len(text) // 2]
    return text + "\n"


def gemini_files(r, dirs, put, hint_files):
    """Gemini CLI's own files: `GEMINI.md` and other context names in the
    directories, `.gemini/settings.json` (at the root and in some
    directory, a launch directory candidate), `.gemini/skills`,
    `.gemini/agents`, `.gemini/commands`, a project extension."""
    for d in dirs:
        for name in ["GEMINI.md", "CONTEXT.md", "gemini.md"]:
            if r.random() < {"GEMINI.md": 0.45, "CONTEXT.md": 0.12, "gemini.md": 0.05}[name]:
                put(d, name, decorate(r, markdown(r, dirs, hint_files())))
    if r.random() < 0.15:
        put(".", "docs/GUIDE.md", decorate(r, markdown(r, dirs, hint_files())))
    for d in ["."] + ([r.choice(dirs)] if r.random() < 0.35 else []):
        if r.random() < 0.55:
            put(d, ".gemini/settings.json", gemini_settings(r, dirs))
    for _ in range(r.randint(0, 3) if r.random() < 0.5 else 0):
        d = r.choice(dirs) if r.random() < 0.3 else "."
        name = r.choice(["review", "deploy", "lint", "Test-Runner", "x"])
        put(d, f".gemini/skills/{r.choice(['', '', 'group/'])}{name}/SKILL.md", skill_file(r, name))
    if r.random() < 0.2:
        name = r.choice(["rev", "planner"])
        put(".", f".gemini/agents/{name}.md", skill_file(r, name))
    if r.random() < 0.08:
        put(".", f".gemini/commands/{r.choice(['fix', 'git/ship'])}.toml",
            r.choice(['prompt = "fix the thing"\n', 'description = "d"\n', "prompt = [\n"]))
    if r.random() < 0.08:
        put(".", ".gemini/extensions/ext/gemini-extension.json", json.dumps(
            {"name": "ext", "version": "1.0.0", "contextFileName": "EXT.md",
             "mcpServers": {"extsrv": {"command": "srv"}}}, indent=2) + "\n")
        put(".", ".gemini/extensions/ext/EXT.md", words(r) + "\n")


def apply_to(r, dirs):
    """A Copilot CLI `applyTo` value: one glob or several, comma-separated,
    quoted or not, a YAML list, or `**`."""
    pats = [glob_pattern(r, dirs).lstrip("/") for _ in range(r.randint(1, 3))]
    k = r.random()
    if k < 0.15:
        return r.choice(['"**"', "**", "'**/*'"])
    if k < 0.55:
        return json.dumps(", ".join(pats))
    if k < 0.75:
        return ",".join(pats)
    if k < 0.9:
        return "[" + ", ".join(json.dumps(p) for p in pats) + "]"
    return "\n" + "".join(f"  - {p}\n" for p in pats).rstrip("\n")


def instructions_file(r, dirs, hint):
    """A `.github/instructions/*.instructions.md` file: `applyTo`, sometimes
    `excludeAgent` or `description`, front matter sometimes malformed."""
    keys = []
    if r.random() < 0.85:
        keys.append((r.choice(["applyTo"] * 6 + ["applyto", "paths"]), apply_to(r, dirs)))
    if r.random() < 0.12:
        keys.append(("excludeAgent", r.choice(["code-review", "coding-agent", '"copilot-cli"'])))
    if r.random() < 0.15:
        keys.append(("description", words(r)))
    head = front_matter(r, keys) if keys or r.random() < 0.5 else ""
    return head + markdown(r, dirs, hint) + "\n"


def copilot_mcp(r):
    """A Copilot CLI MCP file: `mcpServers` (or VS Code's `servers`) of
    local, stdio, http and sse servers, sometimes broken."""
    servers = {}
    for _ in range(r.randint(0, 3)):
        name = r.choice(["db", "search", "files", "x"]) + str(r.randint(0, 2))
        servers[name] = r.choice([
            {"type": "local", "command": "npx", "args": ["-y", "s"], "tools": ["*"]},
            {"command": "npx", "args": []}, {"type": "stdio", "command": "srv"},
            {"type": "http", "url": "https://example.invalid/mcp"},
            {"type": "sse", "url": "https://example.invalid/sse"}, {"type": "http"}, "oops"])
    key = "mcpServers" if r.random() < 0.85 else "servers"
    text = json.dumps({key: servers}, indent=2)
    if r.random() < 0.07:
        text = text[: len(text) // 2]
    return text + "\n"


def copilot_files(r, dirs, put, hint_files):
    """Copilot CLI's own files: `.github/copilot-instructions.md` (at the
    root and in some directory), `.github/instructions/**/*.instructions.md`,
    `GEMINI.md`, `.github/skills`, `.github/agents`, `.github/mcp.json`."""
    for d in ["."] + ([r.choice(dirs)] if r.random() < 0.3 else []):
        if r.random() < 0.55:
            put(d, ".github/copilot-instructions.md", decorate(r, markdown(r, dirs, hint_files())))
    for _ in range(r.randint(0, 4) if r.random() < 0.6 else 0):
        d = r.choice(dirs) if r.random() < 0.2 else "."
        sub = r.choice(["", "", "", "frontend/", "deep/er/"])
        name = r.choice(["api", "style", "Web", "tests", "x"]) + str(r.randint(0, 2))
        ext = r.choice([".instructions.md"] * 8 + [".md", ".Instructions.md"])
        put(d, f".github/instructions/{sub}{name}{ext}", instructions_file(r, dirs, hint_files()))
    for d in dirs:
        if r.random() < 0.15:
            put(d, "GEMINI.md", decorate(r, markdown(r, dirs, hint_files())))
    for _ in range(r.randint(0, 3) if r.random() < 0.45 else 0):
        d = r.choice(dirs) if r.random() < 0.3 else "."
        name = r.choice(["review", "deploy", "lint", "Test-Runner", "x"])
        put(d, f".github/skills/{r.choice(['', '', 'group/'])}{name}/SKILL.md", skill_file(r, name))
    if r.random() < 0.25:
        name = r.choice(["rev", "planner"])
        put(".", f".github/agents/{name}{r.choice(['.agent.md', '.md'])}", skill_file(r, name))
    if r.random() < 0.35:
        put(r.choice(dirs) if r.random() < 0.2 else ".", ".github/mcp.json", copilot_mcp(r))


# Each agent's own files, drawn after the shared ones (only for that agent,
# so that the trees of the other agents stay as they were).
OWN_FILES = {"gemini": gemini_files, "copilot": copilot_files}


def weight(agent, key):
    return FOCUS.get(agent, {}).get(key, 1)


def generate(agent, seed):
    """The random repository of `seed` for `agent`, as a tree dict."""
    r = random.Random(f"{agent}:{seed}")
    dirs = ["."]
    for _ in range(r.randint(0, 5)):
        parent = r.choice(dirs)
        name = r.choice(DIR_NAMES)
        d = name if parent == "." else f"{parent}/{name}"
        if d not in dirs and d.count("/") < 4:
            dirs.append(d)
    files = {}

    def put(d, rel, text):
        files[rel if d == "." else f"{d}/{rel}"] = text

    def hint_files():
        return sorted(p for p, v in files.items() if isinstance(v, str))

    # Source files, so that targets and rule globs have something to match.
    for d in dirs:
        for _ in range(r.randint(0, 2)):
            put(d, f"{r.choice(['x', 'main', 'Index', 'util'])}.{r.choice(EXTS)}", "code\n")
        if r.random() < 0.2:
            put(d, r.choice(["GUIDE.md", "README.md", "notes.txt"]), words(r) + "\n")
    instruction_names = ["AGENTS.md", "AGENTS.override.md", "CLAUDE.md", "CLAUDE.local.md",
                         ".claude/CLAUDE.md"]
    for d in dirs:
        for name in instruction_names:
            if r.random() < min(0.12 * weight(agent, name), 0.6):
                put(d, name, decorate(r, markdown(r, dirs, hint_files())))
        if r.random() < 0.12 * weight(agent, "fallback"):
            put(d, r.choice(["GUIDE.md", "README.md", ".agents.md"]), decorate(r, words(r) + "\n"))
    # Rules, skills, commands, agents.
    for _ in range(r.randint(0, weight(agent, ".claude/rules"))):
        d = r.choice(dirs) if r.random() < 0.3 else "."
        sub = r.choice(["", "", "frontend/", "deep/er/"])
        put(d, f".claude/rules/{sub}{r.choice(['api', 'style', 'Web', 'x'])}{r.randint(0, 3)}.md",
            decorate(r, rule_file(r, dirs)) if r.random() < 0.15 else rule_file(r, dirs))
    for root in [".claude/skills", ".agents/skills", ".codex/skills", ".opencode/skills",
                 ".opencode/skill"]:
        for _ in range(r.randint(0, weight(agent, root) if r.random() < 0.6 else 0)):
            d = r.choice(dirs) if r.random() < 0.35 else "."
            name = r.choice(["review", "deploy", "lint", "Test-Runner", "db_query", "x"])
            nest = r.choice(["", "", "", "group/"])
            put(d, f"{root}/{nest}{name}/{r.choice(['SKILL.md'] * 9 + ['skill.md'])}",
                skill_file(r, name))
    for root in [".claude/commands", ".opencode/commands", ".opencode/command"]:
        if r.random() < 0.15 * weight(agent, root):
            put(".", f"{root}/{r.choice(['fix', 'ship'])}.md", skill_file(r, "fix"))
    for root in [".claude/agents", ".opencode/agents", ".opencode/agent"]:
        if r.random() < 0.15 * weight(agent, root):
            put(".", f"{root}/{r.choice(['rev', 'plan'])}.md", skill_file(r, "rev"))
    # MCP files and settings layers.
    if r.random() < 0.25 * weight(agent, ".mcp.json"):
        put(r.choice(dirs) if r.random() < 0.2 else ".", ".mcp.json", mcp_json(r))
    servers = ["db0", "db1", "search0", "x1"]  # names mcp_json draws from
    for layer in [".claude/settings.json", ".claude/settings.local.json"]:
        if r.random() < 0.15 * weight(agent, ".claude/settings.json"):
            put(".", layer, claude_settings(r, servers))
    if r.random() < 0.12 * weight(agent, ".codex/config.toml"):
        put(r.choice(dirs) if r.random() < 0.3 else ".", ".codex/config.toml", codex_config(r))
    if r.random() < 0.12 * weight(agent, "opencode.json"):
        put(r.choice(dirs) if r.random() < 0.2 else ".",
            r.choice(["opencode.json", "opencode.json", "opencode.jsonc", ".opencode/opencode.json"]),
            opencode_json(r, dirs))
    if agent in OWN_FILES:
        OWN_FILES[agent](r, dirs, put, hint_files)
    # Symbolic links: to a file, to a directory, dangling, out of the tree, loops.
    existing = hint_files()
    for _ in range(r.randint(0, 2) if r.random() < 0.3 else 0):
        d = r.choice(dirs)
        name = r.choice(["AGENTS.md", "CLAUDE.md", "linked", ".claude/skills/linked", "GUIDE.md"])
        path = name if d == "." else f"{d}/{name}"
        if path in files:
            continue
        depth = path.count("/")
        up = "../" * depth
        k = r.random()
        if k < 0.5 and existing:
            target = up + r.choice(existing)
        elif k < 0.7:
            target = up + r.choice(dirs[1:] or ["."])
        elif k < 0.8:
            target = "nowhere.md"
        elif k < 0.9:
            target = up + "../outside.md"
        else:
            target = "."
        files[path] = {"link": target}
    # Submodules: a directory with files becomes a nested git repository.
    subs = []
    if r.random() < 0.08 and len(dirs) > 1:
        d = r.choice(dirs[1:])
        if any(p.startswith(d + "/") and isinstance(v, str) for p, v in files.items()) and \
                not any(p == d or (isinstance(v, dict) and p.startswith(d + "/"))
                        for p, v in files.items()):
            subs.append(d)
    # Launch directory and target.
    real_dirs = [d for d in dirs if d == "." or any(p.startswith(d + "/") for p in files)]
    cwd = r.choice(real_dirs) if r.random() < 0.5 else "."
    target = None
    if agent != "codex" and r.random() < 0.6:
        candidates = sorted(p for p, v in files.items() if isinstance(v, str))
        sources = [p for p in candidates if not p.rsplit("/", 1)[-1].startswith(".")
                   and "/." not in "/" + p and not p.endswith(".md")]
        if sources and r.random() < 0.7:
            target = r.choice(sources)
        elif candidates and r.random() < 0.7:
            target = r.choice(candidates)
        else:
            target = f"{r.choice(real_dirs)}/new.{r.choice(EXTS)}".lstrip("./")
    tree = {"files": files, "cwd": cwd, "target": target, "submodules": subs}
    return normalized(tree)


# ------------------------------------------------------------ home generator
#
# Local mode: the user's own files beside the repository. A home tree is
# the repository of the same seed (`generate`) with `"home": {path: text}`
# (paths relative to the home, `@REPO@` for the repository's path as the
# recorder replaces it), drawn from its own random stream so that the
# repository trees of `generate` stay what they were.


def home_markdown(r, dirs, home_files):
    """A user instruction file: words and imports of repository files and
    of the home's (`@~/...`)."""
    text = markdown(r, dirs, [])
    if home_files and r.random() < 0.3:
        text += "\n@~/" + r.choice(home_files)
    return decorate(r, text)


def home_skills(r, put, roots):
    """Skills under the user's skill roots `roots`, some named as the
    repository's are (`review`, `lint`): which one wins is the question."""
    for _ in range(r.randint(0, 3)):
        root = r.choice(roots)
        name = r.choice(["review", "lint", "notes", "standup", "Test-Runner"])
        put(f"{root}/{r.choice(['', '', 'group/'])}{name}/SKILL.md", skill_file(r, name))


def claude_home(r, dirs, put, names):
    """`~/.claude/CLAUDE.md`, `~/.claude/rules`, skills, agents, commands,
    `~/.claude.json` (the user's and the project's MCP servers) and
    `~/.claude/settings.json`."""
    if r.random() < 0.6:
        put(".claude/CLAUDE.md", home_markdown(r, dirs, names()))
    for _ in range(r.randint(0, 2)):
        put(f".claude/rules/{r.choice(['style', 'py', 'x'])}{r.randint(0, 2)}.md",
            rule_file(r, dirs))
    home_skills(r, put, [".claude/skills"])
    if r.random() < 0.25:
        put(f".claude/agents/{r.choice(['rev', 'helper'])}.md", skill_file(r, "rev"))
    if r.random() < 0.2:
        put(f".claude/commands/{r.choice(['fix', 'standup'])}.md", skill_file(r, "fix"))
    if r.random() < 0.5:
        cfg = {"numStartups": 3}
        user = {}
        for _ in range(r.randint(0, 2)):
            user[r.choice(["notes", "docs", "db0", "search0"])] = {"command": "user-mcp"}
        if user:
            cfg["mcpServers"] = user
        if r.random() < 0.5:
            project = {}
            if r.random() < 0.6:
                project["mcpServers"] = {r.choice(["db", "db0", "local"]): {"command": "p-mcp"}}
            for key in ("enabledMcpjsonServers", "disabledMcpjsonServers"):
                if r.random() < 0.3:
                    project[key] = [r.choice(["db0", "db1", "search0", "x1"])]
            cfg["projects"] = {"@REPO@": project}
        put(".claude.json", json.dumps(cfg, indent=2) + "\n")
    if r.random() < 0.25:
        put(".claude/settings.json", claude_settings(r, ["db0", "db1", "search0", "x1"]))


def codex_home(r, dirs, put, names):
    """`$CODEX_HOME/AGENTS.md` and `AGENTS.override.md`, its `config.toml`
    and skills, `~/.agents/skills`."""
    for name, p in (("AGENTS.md", 0.6), ("AGENTS.override.md", 0.25)):
        if r.random() < p:
            put(f".codex/{name}", home_markdown(r, dirs, []))
    if r.random() < 0.5:
        put(".codex/config.toml", codex_config(r))
    home_skills(r, put, [".codex/skills", ".agents/skills"])


def opencode_home(r, dirs, put, names):
    """`~/.config/opencode/AGENTS.md`, its `opencode.json` and skills, and
    Claude Code's `~/.claude/CLAUDE.md` and skills that OpenCode reads."""
    if r.random() < 0.5:
        put(".config/opencode/AGENTS.md", home_markdown(r, dirs, []))
    if r.random() < 0.4:
        put(".claude/CLAUDE.md", home_markdown(r, dirs, []))
    if r.random() < 0.5:
        put(f".config/opencode/{r.choice(['opencode.json', 'opencode.jsonc'])}",
            opencode_json(r, dirs))
    home_skills(r, put, [".config/opencode/skills", ".claude/skills", ".agents/skills"])


def gemini_home(r, dirs, put, names):
    """`~/.gemini/GEMINI.md`, `~/.gemini/settings.json`, skills under
    `~/.gemini/skills` and `~/.agents/skills`, commands."""
    if r.random() < 0.6:
        put(".gemini/GEMINI.md", home_markdown(r, dirs, []))
    if r.random() < 0.2:
        put(".gemini/AGENTS.md", home_markdown(r, dirs, []))
    if r.random() < 0.5:
        put(".gemini/settings.json", gemini_settings(r, dirs))
    home_skills(r, put, [".gemini/skills", ".agents/skills"])
    if r.random() < 0.15:
        put(f".gemini/commands/{r.choice(['plan', 'fix'])}.toml", 'prompt = "plan it"\n')


def copilot_home(r, dirs, put, names):
    """`~/.copilot/copilot-instructions.md` and `instructions/`, skills
    under `~/.copilot/skills`, `~/.claude/skills` and `~/.agents/skills`,
    agents and `mcp-config.json`."""
    if r.random() < 0.6:
        put(".copilot/copilot-instructions.md", home_markdown(r, dirs, []))
    for _ in range(r.randint(0, 2)):
        put(f".copilot/instructions/{r.choice(['style', 'x'])}{r.randint(0, 1)}.instructions.md",
            instructions_file(r, dirs, []))
    home_skills(r, put, [".copilot/skills", ".claude/skills", ".agents/skills"])
    if r.random() < 0.25:
        put(f".copilot/agents/{r.choice(['helper', 'rev'])}.md", skill_file(r, "helper"))
    if r.random() < 0.4:
        put(".copilot/mcp-config.json", copilot_mcp(r))


HOME_FILES = {"claude-code": claude_home, "codex": codex_home, "opencode": opencode_home,
              "gemini": gemini_home, "copilot": copilot_home}


def generate_home(agent, seed):
    """The repository of `seed` (as `generate` gives it) with a random
    home of the user's files `agent` reads in local mode (`"home"`)."""
    tree = generate(agent, seed)
    r = random.Random(f"{agent}:home:{seed}")
    dirs = sorted({"."} | {p.rsplit("/", 1)[0] for p in tree["files"] if "/" in p})
    home = {}

    def put(rel, text):
        home[rel] = text

    HOME_FILES[agent](r, dirs, put, lambda: sorted(home))
    return dict(tree, home=normalized_home(home))


def normalized_home(home):
    """`home` without a file under a path that is a file."""
    out = {}
    for p in sorted(home):
        parents = ["/".join(p.split("/")[:i]) for i in range(1, p.count("/") + 1)]
        if not any(q in out for q in parents):
            out[p] = home[p]
    return out


# `--home`: the generator of repositories with a home (`generate_home`),
# whose cases are `fuzz.<agent>.home.<seed>`, reported in
# `oracle/fuzz/<agent>/<version>.home.json`; set once by `main`.
HOME = False


def case_id(agent, seed):
    """The case id of `seed`'s tree of the generator in use."""
    return f"fuzz.{agent}.home.{seed}" if HOME else f"fuzz.{agent}.{seed}"


def tree_of(agent, seed):
    """The tree of `seed` of the generator in use."""
    return generate_home(agent, seed) if HOME else generate(agent, seed)


def report_path(base, agent, version):
    """The report of (agent, version) under `base` for the generator in use."""
    return base / agent / (f"{version}.home.json" if HOME else f"{version}.json")


def work_dir(agent, version):
    """The work directory of (agent, version) for the generator in use."""
    return WORK / (f"{agent}-{version}-home" if HOME else f"{agent}-{version}")


def shrunk_dir(agent, seed, aspect):
    """Where the shrunk tree of (seed, aspect) is kept."""
    return WORK / "shrunk" / agent / f"{'home.' if HOME else ''}{seed}-{aspect}"


def normalized(tree):
    """Drops what a tree cannot hold: a file under a path that is a file or
    link, a cwd, target or submodule that no longer exists."""
    files = {}
    for p in sorted(tree["files"]):
        parents = ["/".join(p.split("/")[:i]) for i in range(1, p.count("/") + 1)]
        if any(q in files for q in parents) or any(q.startswith(p + "/") for q in files):
            continue
        files[p] = tree["files"][p]
    dirs = {"."} | {"/".join(p.split("/")[:i]) for p in files for i in range(1, p.count("/") + 1)}
    cwd = tree["cwd"] if tree["cwd"] in dirs else "."
    target = tree["target"]
    if target is not None:
        parent = target.rsplit("/", 1)[0] if "/" in target else "."
        if parent not in dirs or any(target.startswith(q + "/") for q in files):
            target = None
    subs = [s for s in tree["submodules"]
            if any(p.startswith(s + "/") and isinstance(v, str) for p, v in files.items())
            and not any(isinstance(v, dict) and p.startswith(s + "/") for p, v in files.items())
            and (cwd == "." or not cwd.startswith(s))]
    out = {"files": files, "cwd": cwd, "target": target, "submodules": subs}
    if "home" in tree:
        out["home"] = normalized_home(tree["home"])
    return out


def write_tree(tree, dest):
    """Writes the tree's files and links under `dest` (created; must not exist)."""
    dest.mkdir(parents=True)
    for p, v in sorted(tree["files"].items()):
        path = dest / p
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(v, dict):
            os.symlink(v["link"], path)
        else:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(v)


def write_home(tree, dest):
    """Writes the tree's home files under `dest` (created; must not
    exist); nothing for a tree without a home."""
    write_tree({"files": tree.get("home", {})}, dest)


def case_of(tree, cid, agent, fixture, home=None):
    """The `[[case]]` of `tree` at `fixture`, with `home` its home."""
    c = {"id": cid, "agents": [agent], "fixture": str(fixture)}
    if home is not None:
        c["home"] = str(home)
    if tree["cwd"] != ".":
        c["cwd"] = tree["cwd"]
    if tree["target"] is not None:
        c["target"] = tree["target"]
    if tree["submodules"]:
        c["submodules"] = list(tree["submodules"])
    return c


def toml_case(c):
    out = "[[case]]\n"
    for k in ("id", "agents", "fixture", "home", "cwd", "target", "submodules"):
        if k in c:
            out += f"{k} = {json.dumps(c[k], ensure_ascii=False)}\n"
    return out


# ------------------------------------------------------------ recording and comparison


def test_binary():
    """Builds the `cli` test binary of `playbookdiff` (debug) and returns its path."""
    out = subprocess.run(
        ["cargo", "test", "-p", "playbookdiff", "--test", "cli", "--no-run",
         "--message-format=json"], cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and \
                msg["target"]["name"] == "cli":
            return msg["executable"]
    sys.exit("no cli test binary")


# An agent run killed at the recorder's RUN_TIMEOUT observes nothing,
# whether or not the observation says so (`observed_in_time`).
TIMEOUT = "timeout"
TIMEOUT_TRIES = 2
_runs = threading.local()
_run_logged = record.run_logged


def _run_logged_noting(*args, **kwargs):
    """record.run_logged, noting in this thread that a run timed out."""
    rc = _run_logged(*args, **kwargs)
    if rc == TIMEOUT:
        _runs.timed_out = True
    return rc


record.run_logged = _run_logged_noting
_seed_home = record.seed_home


def _seed_fuzz_home(case, home, repo, extra=None):
    """record.seed_home, also for a fuzz case's home: an absolute path in
    the work directory (a committed case's home stays workspace-relative);
    `extra` as `seed_home` takes it (placeholders and their values)."""
    src = Path(case.get("home") or ".")
    if src.is_absolute() and src.is_relative_to(WORK):
        record.copy_home(src, home, repo, extra)
    else:
        _seed_home(case, home, repo, extra)


record.seed_home = _seed_fuzz_home


def timed_out(obs):
    """Whether an observation holds an `exit` of "timeout" anywhere (Claude
    Code's recorder times its run itself)."""
    if isinstance(obs, dict):
        return obs.get("exit") == TIMEOUT or any(timed_out(v) for v in obs.values())
    if isinstance(obs, list):
        return any(timed_out(v) for v in obs)
    return False


def observed_in_time(agent, version, exe, case, bundled):
    """The recorder's observation of `case`, or None when one of its agent
    runs timed out (a step that timed out may leave no trace in it: a
    skill listing that timed out reads as no skill)."""
    _runs.timed_out = False
    obs, _ = record.observe(agent, version, exe, case, bundled)
    return None if _runs.timed_out or timed_out(obs) else obs


# The aspect of a seed that gave no observation of the agent (its run
# timed out twice, or the recorder failed): the seed is left out of the
# rate, neither agreeing nor disagreeing, and listed in the report's
# `leftOut` with the reason.
UNOBSERVED = "unobserved"


def unobserved(obs):
    """Why `obs` is no observation of the agent (a run that timed out, a
    recorder error), or None when it is one."""
    if "recorderError" in obs:
        return "recorder: " + obs["recorderError"]
    if obs.get("exit") == "timeout":
        return f"timeout: no answer within {record.RUN_TIMEOUT} s"
    return None


class Oracle:
    """Records one agent release on trees and compares with the adapter."""

    def __init__(self, agent, version, binary, jobs):
        self.agent, self.version, self.binary, self.jobs = agent, version, binary, jobs
        self.exe = record.install_dir(agent, version) / record.AGENTS[agent]["binary"]
        self.base = None
        if agent not in ("opencode", "copilot"):
            self.base = record.bundled_baseline(agent, version, self.exe)
        # Batches of earlier runs stay (`recompare` reads them all): number on.
        done = [int(b.name[5:]) for b in work_dir(agent, version).glob("batch*")
                if b.name[5:].isdigit()]
        self.n = max(done, default=0)

    def observe(self, items):
        """`items`: [(case_id, tree)]. Returns {case_id: [disagreement rows]}."""
        while True:  # a fresh batch, also beside another run of the release
            self.n += 1
            batch = work_dir(self.agent, self.version) / f"batch{self.n}"
            try:
                batch.mkdir(parents=True)
                break
            except FileExistsError:
                continue
        cases = []
        for cid, tree in items:
            fixture = batch / "trees" / cid
            write_tree(tree, fixture)
            home = None
            if "home" in tree:
                home = batch / "homes" / cid
                write_home(tree, home)
            cases.append(case_of(tree, cid, self.agent, fixture, home))

        def one(c):
            for _ in range(TIMEOUT_TRIES):  # a run that gave no observation: once more
                try:
                    obs = observed_in_time(self.agent, self.version, self.exe, c, self.base)
                    if obs is None:
                        obs = {"exit": TIMEOUT}
                except (OSError, subprocess.SubprocessError, ValueError, KeyError) as e:
                    obs = {"recorderError": str(e)}
                if unobserved(obs) is None:
                    break
            return c, obs

        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            observed = list(pool.map(one, cases))
        out = {}
        good = []
        for c, obs in observed:
            if unobserved(obs) is not None:
                out[c["id"]] = [{"aspect": UNOBSERVED, "theirs": unobserved(obs), "ours": ""}]
                continue
            record.write_json(batch / "observations" / self.agent / self.version
                              / f"{c['id']}.json", obs)
            good.append(c)
            out[c["id"]] = []
        (batch / "cases.toml").write_text("".join(toml_case(c) + "\n" for c in good))
        subprocess.run([self.binary, "oracle::fuzz_compare", "--ignored", "--exact", "-q"],
                       env=dict(os.environ, PLAYBOOKDIFF_FUZZ_DIR=str(batch)), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for row in json.loads((batch / "disagreements.json").read_text()):
            out[row["case"]].append(row)
        self.last_batch = batch
        return out


# ------------------------------------------------------------ shrinking


def ddmin(items, test):
    """Zeller's delta debugging: a 1-minimal sublist of `items` for which
    `test` holds (it holds for `items`)."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        subsets = [items[i:i + chunk] for i in range(0, len(items), chunk)]
        reduced = False
        for i, s in enumerate(subsets):
            rest = [x for j, ss in enumerate(subsets) if j != i for x in ss]
            if test(rest):
                items, n, reduced = rest, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    if len(items) == 1 and test([]):
        return []
    return items


def shrink(oracle, tree, aspect, limit):
    """The smallest tree found (within `limit` agent runs) that still
    disagrees on `aspect`."""
    runs = [0]

    def holds(t):
        if runs[0] >= limit:
            return False
        runs[0] += 1
        t = normalized(t)
        rows = oracle.observe([("shrink", t)])["shrink"]
        return any(r["aspect"] == aspect for r in rows)

    def with_files(files, base):
        return dict(base, files=files)

    # Files and links.
    keys = ddmin(sorted(tree["files"]), lambda ks: holds(with_files(
        {k: tree["files"][k] for k in ks}, tree)))
    tree = normalized(with_files({k: tree["files"][k] for k in keys}, tree))
    if "home" in tree:  # the home's files
        keys = ddmin(sorted(tree["home"]), lambda ks: holds(dict(
            tree, home={k: tree["home"][k] for k in ks})))
        tree = dict(tree, home={k: tree["home"][k] for k in keys})
    # Launch directory, target, submodules.
    for change in ({"cwd": "."}, {"target": None}, {"submodules": []}):
        cand = dict(tree, **change)
        if cand != tree and holds(cand):
            tree = normalized(cand)
    # Lines of each file (front-matter keys are lines).
    for p in sorted(tree["files"]):
        v = tree["files"][p]
        if not isinstance(v, str) or not v:
            continue
        lines = v.splitlines(keepends=True)

        def with_lines(ls, p=p):
            return dict(tree, files=dict(tree["files"], **{p: "".join(ls)}))

        kept = ddmin(lines, lambda ls: holds(with_lines(ls)))
        tree = with_lines(kept)
    # Path segments: drop one directory level of a file.
    for p in sorted(tree["files"]):
        parts = p.split("/")
        for i in range(len(parts) - 1):
            q = "/".join(parts[:i] + parts[i + 1:])
            if q in tree["files"] or p not in tree["files"]:
                continue
            files = {(q if k == p else k): v for k, v in tree["files"].items()}
            cand = dict(tree, files=files)
            if holds(cand):
                tree = normalized(cand)
                break
    return normalized(tree), runs[0]


# ------------------------------------------------------------ the run


def kind_of(row):
    return row["aspect"]


def inner_run(args):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
    os.nice(10)
    # Only Codex's trusted run is compared (README: the `untrusted` runs are
    # recorded but not compared), so the fuzzer does not make it.
    record.has_codex_folder = lambda repo: False
    versions = [args.version] if args.version else record.profiled_versions(args.agent)
    first, end = args.seeds
    for version in versions:
        oracle = Oracle(args.agent, version, args.binary, args.jobs)
        if args.again:
            observe_again(oracle, first, end)
            continue
        out_path = report_path(FUZZ, args.agent, version)
        previous = json.loads(out_path.read_text()) if out_path.exists() else None
        report = continued(previous, args.agent, version, first)
        for lo in range(first, end, args.batch):
            hi = min(end, lo + args.batch)
            items = [(case_id(args.agent, s), tree_of(args.agent, s)) for s in range(lo, hi)]
            add_outcomes(report, lo, hi, oracle.observe(items))
            write_report(report)
            record.log(f"{args.agent} {version}: seeds {report['seeds']}: "
                       f"{report['agree']} agree, {len(report['disagreeing'])} disagree")
        if args.shrink_limit:
            shrink_new_kinds(oracle, report, args)
        write_report(report)
    return 0


def kept_observations(agent, version):
    """The case ids whose observations the work directory keeps."""
    ids = set()
    for manifest in work_dir(agent, version).glob("batch*/cases.toml"):
        ids.update(re.findall(r'^id = "(fuzz\.[^"]+)"', manifest.read_text(), re.M))
    return ids


def observe_again(oracle, first, end):
    """Records again the disagreeing seeds in [first, end) of the report
    whose observations are not kept (a run on another machine), so that
    `recompare` measures a fix on them too; the report is left as it is."""
    agent, version = oracle.agent, oracle.version
    report = json.loads(report_path(FUZZ, agent, version).read_text())
    kept = kept_observations(agent, version)
    seeds = [d["seed"] for d in report["disagreeing"] + report.get("leftOut", [])
             if first <= d["seed"] < end and case_id(agent, d["seed"]) not in kept]
    if seeds:
        oracle.observe([(case_id(agent, s), tree_of(agent, s)) for s in seeds])
    record.log(f"{agent} {version}: recorded again seeds {seeds}")


def continued(previous, agent, version, first):
    """The report a run from seed `first` extends: `previous` when it ends
    at `first` (the ranges merge into one), else a new empty report."""
    if previous and previous.get("seeds", [None, None])[1] == first:
        return previous
    return {"agent": agent, "version": version, "seeds": [first, first], "agree": 0,
            "disagreeing": [], "shrunk": []}


def add_outcomes(report, lo, hi, found):
    """Adds seeds [lo, hi) to `report` (which ends at `lo`); `found` maps
    each seed's case id to its disagreement rows (none: it agrees)."""
    assert report["seeds"][1] == lo, "seed ranges must follow each other"
    agent = report["agent"]
    for s in range(lo, hi):
        rows = found[case_id(agent, s)]
        if any(r["aspect"] == UNOBSERVED for r in rows):
            report.setdefault("leftOut", []).append({"seed": s, "reason": rows[0]["theirs"]})
            continue
        if not rows:
            report["agree"] += 1
            continue
        report["disagreeing"].append({"seed": s, "aspects": sorted({kind_of(r) for r in rows}),
                                      "first": {k: rows[0][k] for k in ("aspect", "theirs", "ours")}})
    report["seeds"][1] = hi


def report_text(report):
    """The report file's text: sorted, indented, nothing from the machine."""
    report["disagreeing"].sort(key=lambda d: d["seed"])
    report.get("leftOut", []).sort(key=lambda d: d["seed"])
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def shrink_new_kinds(oracle, report, args):
    done = {s["aspect"] for s in report["shrunk"]}
    for d in report["disagreeing"]:
        for aspect in d["aspects"]:
            if aspect in done or aspect in (UNOBSERVED, "panic"):
                continue
            done.add(aspect)
            tree = tree_of(args.agent, d["seed"])
            small, runs = shrink(oracle, tree, aspect, args.shrink_limit)
            rows = oracle.observe([("check", small)])["check"]
            row = next((r for r in rows if r["aspect"] == aspect), None)
            entry = {"seed": d["seed"], "aspect": aspect, "runs": runs,
                     "files": len(small["files"]), "still": row is not None}
            if row is not None:
                entry.update(theirs=row["theirs"], ours=row["ours"])
            kept = shrunk_dir(args.agent, d["seed"], aspect)
            shutil.rmtree(kept, ignore_errors=True)
            write_tree(small, kept / "tree")
            (kept / "tree.json").write_text(json.dumps(small, indent=2, ensure_ascii=False))
            report["shrunk"].append(entry)
            write_report(report)
            record.log(f"shrunk seed {d['seed']} {aspect}: {len(small['files'])} files, {runs} runs")


def write_report(report):
    path = report_path(FUZZ, report["agent"], report["version"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report_text(report))


def keep(agent, seed, aspect):
    """Makes the shrunk case of (seed, aspect), or with no aspect the
    generated repository of the seed, an ordinary oracle case:
    `oracle/fixtures/fuzz-<agent>-<seed>/` and a `[[case]]` in
    `oracle/cases.toml` (record it with `record.py --case fuzz.<agent>.<seed>`);
    with `--home`, `oracle/fixtures/fuzz-<agent>-home-<seed>/`, its home
    `oracle/homes/fuzz-<agent>-<seed>/` (none when the case was shrunk to
    no file of the home) and the case `fuzz.<agent>.home.<seed>`."""
    if aspect:
        tree = json.loads((shrunk_dir(agent, seed, aspect) / "tree.json").read_text())
    else:
        tree = tree_of(agent, seed)
    rel = f"oracle/fixtures/fuzz-{agent}-{'home-' if HOME else ''}{seed}"
    # A case shrunk to no file of the home is a case of the repository.
    home = f"oracle/homes/fuzz-{agent}-{seed}" if tree.get("home") else None
    for d in filter(None, (rel, home)):
        if (ROOT / d).exists():
            sys.exit(f"{d} exists")
    write_tree(tree, ROOT / rel)
    if home:
        write_home(tree, ROOT / home)
    cid = case_id(agent, seed)
    case = case_of(tree, cid, agent, rel, home)
    with open(record.MANIFEST, "a") as f:
        f.write("\n" + toml_case(case))
    print(cid)


def recompare(agent, version, binary, as_before=False):
    """Compares again, with the test binary `binary` (the adapter as it is
    built there), the observations the runs of (agent, version) recorded
    (their batches under the work directory), and rewrites the report's
    agreements: the agent is not run again, so an adapter fix is measured
    on exactly the same observations. A seed whose observation is missing
    keeps its previous outcome. With `as_before`, the agreements are kept
    as they are and the count goes to the report's `before` (the rate of
    the adapter before a round of fixes, rendered beside the rate now)."""
    path = report_path(FUZZ, agent, version)
    report = json.loads(path.read_text())
    rows = {}
    # In the order they were recorded (`batch10` after `batch9`): a seed
    # recorded again is compared on its last observation.
    batches = [b for b in work_dir(agent, version).glob("batch*") if b.name[5:].isdigit()]
    for batch in sorted(batches, key=lambda b: int(b.name[5:])):
        manifest = batch / "cases.toml"
        if not manifest.exists() or "id = \"fuzz." not in manifest.read_text():
            continue
        subprocess.run([binary, "oracle::fuzz_compare", "--ignored", "--exact", "-q"],
                       env=dict(os.environ, PLAYBOOKDIFF_FUZZ_DIR=str(batch)), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for cid in re.findall(r'^id = "(fuzz\.[^"]+)"', manifest.read_text(), re.M):
            rows[cid] = []
        for row in json.loads((batch / "disagreements.json").read_text()):
            rows[row["case"]].append(row)
    previous = {d["seed"]: d for d in report["disagreeing"]}
    left = {d["seed"]: d for d in report.get("leftOut", [])}
    first, end = report["seeds"]
    now = {"agent": agent, "seeds": [first, first], "agree": 0, "disagreeing": [],
           "leftOut": []}
    for s in range(first, end):
        cid = case_id(agent, s)
        if cid not in rows and (s in previous or s in left):  # not observed here: as recorded
            now["disagreeing" if s in previous else "leftOut"].append(previous.get(s, left.get(s)))
            now["seeds"][1] = s + 1
            continue
        add_outcomes(now, s, s + 1, {cid: rows.get(cid, [])})
    if as_before:
        report["before"] = {"seeds": [first, end], "agree": now["agree"]}
    else:
        report["agree"], report["disagreeing"] = now["agree"], now["disagreeing"]
        report["leftOut"] = now["leftOut"]
        if not report["leftOut"]:
            del report["leftOut"]
    write_report(report)
    record.log(f"{agent} {version}: seeds {report['seeds']}: {now['agree']} agree, "
               f"{len(now['disagreeing'])} disagree (compared again{', before' if as_before else ''})")


def outcomes(report):
    """Each seed of `report`'s range with its outcome: "agree", the
    disagreeing entry, or the `leftOut` entry."""
    out = {s: "agree" for s in range(*report["seeds"])}
    for d in report["disagreeing"]:
        out[d["seed"]] = {"disagree": d}
    for d in report.get("leftOut", []):
        out[d["seed"]] = {"leftOut": d}
    return out


def differing(committed, trial):
    """The seeds of `trial`'s range to which the report `trial` gives
    another outcome than the report `committed`. Raises ValueError when
    that range does not lie within `committed`'s."""
    (a, b), (c, d) = committed["seeds"], trial["seeds"]
    if not a <= c <= d <= b:
        raise ValueError(f"trial seeds {c}..{d} not within the report's {a}..{b}")
    before, again = outcomes(committed), outcomes(trial)
    return [s for s in range(c, d) if before[s] != again[s]]


def same(agent, version, trial):
    """Checks that the report of (agent, version) under `trial` (a run of
    some seeds with `PLAYBOOKDIFF_FUZZ_REPORTS=trial`) gives every one of
    its seeds the outcome the committed report gives it ([`differing`]).
    Prints each seed that differs; returns 0 when none does, 1 otherwise."""
    committed = json.loads(report_path(ROOT / "oracle" / "fuzz", agent, version).read_text())
    again = json.loads(report_path(Path(trial), agent, version).read_text())
    try:
        differ = differing(committed, again)
    except ValueError as e:
        print(e)
        return 1
    before, now = outcomes(committed), outcomes(again)
    for s in differ:
        print(f"seed {s}: report {json.dumps(before[s])}; trial {json.dumps(now[s])}")
    c, d = again["seeds"]
    agree = sum(1 for s in range(c, d) if now[s] == "agree")
    print(f"{agent} {version}: seeds {c}..{d}: {d - c - len(differ)} of {d - c} the same "
          f"({agree} agree in the trial)")
    return 1 if differ else 0


def seeds_arg(text):
    a, _, b = text.partition(":")
    return int(a), int(b)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="write the repository of one seed")
    g.add_argument("--agent", required=True, choices=list(FOCUS))
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run", help="record, compare, shrink a seed range")
    r.add_argument("--agent", required=True, choices=list(FOCUS))
    r.add_argument("--version")
    r.add_argument("--seeds", type=seeds_arg, required=True, help="FIRST:END (END excluded)")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--batch", type=int, default=50, help="seeds compared per test-binary run")
    r.add_argument("--shrink-limit", type=int, default=150,
                   help="agent runs per shrink at most (0: no shrinking)")
    r.add_argument("--again", action="store_true",
                   help="record again only the report's disagreeing seeds whose observations are not kept")
    r.add_argument("--binary", help=argparse.SUPPRESS)
    r.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    k = sub.add_parser("keep", help="make a seed (shrunk on ASPECT, or as generated) an oracle case")
    k.add_argument("--agent", required=True, choices=list(FOCUS))
    k.add_argument("--seed", type=int, required=True)
    k.add_argument("--aspect")
    c = sub.add_parser("recompare", help="compare the last run's observations again (no agent runs)")
    c.add_argument("--agent", required=True, choices=list(FOCUS))
    c.add_argument("--version", required=True)
    c.add_argument("--binary", help="the `cli` test binary to compare with (default: built now)")
    c.add_argument("--as-before", action="store_true",
                   help="store the agreements as the report's `before` (the adapter before a fix)")
    t = sub.add_parser("same", help="check a trial run's report against the committed one")
    t.add_argument("--agent", required=True, choices=list(FOCUS))
    t.add_argument("--version", required=True)
    t.add_argument("--trial", type=Path, required=True,
                   help="the trial's reports directory (its PLAYBOOKDIFF_FUZZ_REPORTS)")
    for cmd in (g, r, k, c, t):
        cmd.add_argument("--home", action="store_true",
                         help="the generator of repositories with a home (local mode)")
    args = p.parse_args()
    global HOME
    HOME = args.home
    if args.cmd == "same":
        return same(args.agent, args.version, args.trial)
    if args.cmd == "recompare":
        return recompare(args.agent, args.version, args.binary or test_binary(), args.as_before)
    if args.cmd == "keep":
        return keep(args.agent, args.seed, args.aspect)
    if args.cmd == "generate":
        tree = tree_of(args.agent, args.seed)
        write_tree(tree, args.out)
        if HOME:
            write_home(tree, Path(str(args.out) + ".home"))
        Path(str(args.out) + ".case.json").write_text(
            json.dumps({k: tree[k] for k in ("cwd", "target", "submodules")}, indent=2) + "\n")
        return
    if args.jobs > 2:
        p.error("--jobs: at most 2 agent runs at a time")
    if args.inside:
        sys.exit(inner_run(args))
    for version in [args.version] if args.version else record.profiled_versions(args.agent):
        record.install(args.agent, version)
    binary = test_binary()
    cmd = ["unshare", "-n", sys.executable, str(Path(__file__).resolve()), "run", "--inside",
           "--agent", args.agent, "--seeds", f"{args.seeds[0]}:{args.seeds[1]}",
           "--jobs", str(args.jobs), "--batch", str(args.batch),
           "--shrink-limit", str(args.shrink_limit), "--binary", binary]
    if args.again:
        cmd.append("--again")
    if HOME:
        cmd.append("--home")
    if args.version:
        cmd += ["--version", args.version]
    sys.exit(subprocess.run(cmd).returncode)


if __name__ == "__main__":
    sys.exit(main())

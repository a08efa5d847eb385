#!/usr/bin/env python3
"""Generate a large synthetic repository to measure `playbookdiff compile`.

The tree is deterministic: the same arguments (seed included) give the same
paths and the same bytes. By default it holds 100,000 files, of which 500
are instruction files (CLAUDE.md, AGENTS.md, .claude/rules/*.md,
.claude/skills/*/SKILL.md, .agents/skills/*/SKILL.md) placed in or under
300 directories at depths from 0 to --max-depth, including every directory
of one deep chain, so that a launch directory at the bottom of that chain
has an instruction file in each of its ancestors. The other files are
empty: the tool never reads them, it only lists them.

Usage:
    scripts/gen-tree.py OUT [--files N] [--instruction-files N]
                            [--instruction-dirs N] [--dirs N]
                            [--max-depth N] [--seed N]

OUT must not exist or be empty. The last line printed is the deep launch
directory, relative to OUT.
"""

import argparse
import os
import random
import sys

WORDS = [
    "apps", "packages", "services", "libs", "tools", "internal", "core",
    "api", "web", "cli", "sdk", "db", "auth", "billing", "search", "ui",
    "jobs", "infra", "docs", "plugins", "shared", "engine", "worker", "gateway",
]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--files", type=int, default=100_000)
    p.add_argument("--instruction-files", type=int, default=500)
    p.add_argument("--instruction-dirs", type=int, default=300)
    p.add_argument("--dirs", type=int, default=6_000)
    p.add_argument("--max-depth", type=int, default=24)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.instruction_files < a.instruction_dirs:
        p.error("--instruction-files must be at least --instruction-dirs")
    if a.files < a.instruction_files:
        p.error("--files must be at least --instruction-files")
    if a.dirs < a.instruction_dirs + a.max_depth:
        p.error("--dirs is too small for the instruction directories and the deep chain")
    return a


def build_directories(rng, count, max_depth):
    """Directory paths ('' is the root), parents before children.

    One chain goes straight down to max_depth; every other directory hangs
    below a random existing one, which gives mostly shallow directories
    with a long tail of deeper ones.
    """
    dirs = [""]
    depth = {"": 0}
    chain = [""]
    parent = ""
    for d in range(1, max_depth + 1):
        name = f"{WORDS[d % len(WORDS)]}{d:02d}"
        path = f"{parent}/{name}" if parent else name
        dirs.append(path)
        depth[path] = d
        chain.append(path)
        parent = path
    taken = set(dirs)
    while len(dirs) < count:
        parent = rng.choice(dirs)
        if depth[parent] >= max_depth:
            continue
        name = f"{rng.choice(WORDS)}{rng.randrange(1000):03d}"
        path = f"{parent}/{name}" if parent else name
        if path in taken:
            continue
        taken.add(path)
        dirs.append(path)
        depth[path] = depth[parent] + 1
    return dirs, depth, chain


def claude_md(rng, directory, with_agents):
    lines = [f"# Instructions for {directory or 'the repository'}", ""]
    if with_agents and rng.random() < 0.5:
        lines += ["@AGENTS.md", ""]
    for i in range(rng.randrange(3, 12)):
        lines.append(f"- Rule {i}: keep `{rng.choice(WORDS)}` changes small; run the tests before committing.")
    lines += ["", "```sh", "pnpm test", "```", ""]
    return "\n".join(lines)


def agents_md(rng, directory):
    lines = [f"# AGENTS.md for {directory or 'the repository'}", ""]
    for i in range(rng.randrange(3, 12)):
        lines.append(f"{i + 1}. Prefer `{rng.choice(WORDS)}` helpers over new code.")
    return "\n".join(lines) + "\n"


def rule_md(rng, directory, n):
    scoped = rng.random() < 0.6
    head = ""
    if scoped:
        glob = f"{directory + '/' if directory else ''}**/*.{rng.choice(['ts', 'tsx', 'py', 'rs', 'md'])}"
        head = f"---\npaths:\n  - \"{glob}\"\n---\n"
    return head + f"# Rule {n}\n\nAlways document public `{rng.choice(WORDS)}` APIs.\n"


def skill_md(rng, name):
    return (
        f"---\nname: {name}\ndescription: Use when working on {rng.choice(WORDS)} code; "
        f"explains the {rng.choice(WORDS)} conventions.\n---\n\n# {name}\n\n1. Read the code.\n2. Change it.\n"
    )


def main():
    a = parse_args()
    rng = random.Random(a.seed)
    out = a.out
    if os.path.exists(out) and os.listdir(out):
        sys.exit(f"{out} exists and is not empty")

    dirs, depth, chain = build_directories(rng, a.dirs, a.max_depth)

    # Instruction directories: the root and the whole deep chain, then a
    # random sample of the others.
    inst_dirs = list(dict.fromkeys(chain))
    others = [d for d in dirs if d not in set(inst_dirs)]
    inst_dirs += rng.sample(others, a.instruction_dirs - len(inst_dirs))
    inst_dirs.sort()

    files = {}  # path -> bytes

    def put(path, text):
        assert path not in files, path
        files[path] = text.encode()

    def join(d, rel):
        return f"{d}/{rel}" if d else rel

    # One primary file per instruction directory.
    has = {d: set() for d in inst_dirs}
    for d in inst_dirs:
        kind = "CLAUDE.md" if rng.random() < 0.5 else "AGENTS.md"
        has[d].add(kind)
    # The rest: second primary files, rules and skills.
    extra_kinds = ["second", "rule", "claude-skill", "agents-skill"]
    extras = []
    while len(inst_dirs) + len(extras) < a.instruction_files:
        d = rng.choice(inst_dirs)
        kind = rng.choice(extra_kinds)
        if kind == "second":
            if len(has[d]) == 2:
                continue
            has[d] |= {"CLAUDE.md", "AGENTS.md"}
        extras.append((d, kind))
    for d in inst_dirs:
        if "AGENTS.md" in has[d]:
            put(join(d, "AGENTS.md"), agents_md(rng, d))
        if "CLAUDE.md" in has[d]:
            put(join(d, "CLAUDE.md"), claude_md(rng, d, "AGENTS.md" in has[d]))
    counters = {"rule": 0, "claude-skill": 0, "agents-skill": 0}
    for d, kind in extras:
        if kind == "second":
            continue
        counters[kind] += 1
        n = counters[kind]
        if kind == "rule":
            put(join(d, f".claude/rules/rule-{n:03d}.md"), rule_md(rng, d, n))
        elif kind == "claude-skill":
            put(join(d, f".claude/skills/skill-{n:03d}/SKILL.md"), skill_md(rng, f"skill-{n:03d}"))
        else:
            put(join(d, f".agents/skills/agent-skill-{n:03d}/SKILL.md"), skill_md(rng, f"agent-skill-{n:03d}"))
    instruction_count = len(files)
    assert instruction_count == a.instruction_files, instruction_count

    # Project configuration at the root (not counted as instruction files).
    put(".mcp.json", '{"mcpServers": {"docs": {"command": "npx", "args": ["-y", "docs-mcp"], "env": {"TOKEN": "${DOCS_TOKEN}"}}}}\n')
    put(".claude/settings.json", '{"enableAllProjectMcpServers": true}\n')
    put(".codex/config.toml", '[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n')

    # Plain files, empty, spread over every directory.
    n = 0
    while len(files) < a.files:
        d = rng.choice(dirs)
        path = join(d, f"file{n:06d}.{rng.choice(['ts', 'py', 'rs', 'json', 'md'])}")
        n += 1
        if path not in files:
            files[path] = b""

    os.makedirs(out, exist_ok=True)
    os.makedirs(os.path.join(out, ".git"), exist_ok=True)
    with open(os.path.join(out, ".git", "HEAD"), "w") as f:
        f.write("ref: refs/heads/main\n")
    for d in dirs:
        os.makedirs(os.path.join(out, d), exist_ok=True)
    for path in sorted(files):
        full = os.path.join(out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(files[path])

    real_dirs = sum(len(ds) for _, ds, _ in os.walk(out)) + 1
    inst_depths = [depth[d] for d in inst_dirs]
    print(f"files: {len(files)} (+ .git/HEAD)")
    print(f"directories: {real_dirs}")
    print(f"instruction files: {instruction_count} in or under {len(inst_dirs)} directories, depths {min(inst_depths)}-{max(inst_depths)}")
    print(f"deep launch directory (depth {len(chain) - 1}):")
    print(chain[-1])


if __name__ == "__main__":
    main()

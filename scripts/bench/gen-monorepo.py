#!/usr/bin/env python3
"""Generate a synthetic monorepo, a git work tree, to benchmark playbookdiff.

Usage: scripts/bench/gen-monorepo.py OUT [--files N] [--no-git]

The shape follows a JavaScript/TypeScript monorepo: apps/, packages/,
services/ and libs/ hold one package per 300 files; each package has an
AGENTS.md, half of them a CLAUDE.md (a symbolic link to AGENTS.md or their
own text), some have rules, skills and a .gitignore of their own; sources
are nested up to eight directories deep. About a third of the files are in
git-ignored folders (node_modules/, dist/, .cache/), some of which ship
their own CLAUDE.md or AGENTS.md, as published packages do. The root holds
the shared configuration: AGENTS.md, CLAUDE.md, a personal CLAUDE.local.md
(ignored), .mcp.json, .codex/config.toml, rules and skills. One chain of
directories eight levels deep, each holding instructions, ends in the deep
launch directory.

Then `git init` and `git add -A` (not with --no-git), so repo mode reads the
index. Deterministic: the same arguments give the same tree. Source files
are empty: the tool lists them and never reads them. The last line printed
is the deep launch directory, relative to OUT.
"""
import argparse
import os
import subprocess
import sys

GROUPS = ["apps", "packages", "services", "libs"]
WORDS = ["core", "api", "ui", "util", "model", "store", "hooks", "client",
         "server", "auth", "db", "jobs", "search", "billing", "render", "net"]


class Tree:
    def __init__(self, root):
        self.root = root
        self.count = 0
        self.made = set()

    def file(self, rel, text=""):
        path = os.path.join(self.root, rel)
        d = os.path.dirname(path)
        if d not in self.made:
            os.makedirs(d, exist_ok=True)
            self.made.add(d)
        with open(path, "w") as f:
            f.write(text)
        self.count += 1

    def link(self, rel, target):
        path = os.path.join(self.root, rel)
        d = os.path.dirname(path)
        if d not in self.made:
            os.makedirs(d, exist_ok=True)
            self.made.add(d)
        os.symlink(target, path)
        self.count += 1


def nested(i, depth):
    """A directory path `depth` levels deep, picked by `i`."""
    parts = []
    for k in range(depth):
        parts.append(WORDS[(i * 7 + k * 3 + (i >> k)) % len(WORDS)])
    return "/".join(parts)


def skill(name, text):
    return f"---\nname: {name}\ndescription: {text}\n---\n\n{text}\n"


def rule(glob, text):
    return f"---\npaths:\n  - \"{glob}\"\n---\n\n{text}\n"


def root_config(t):
    t.file(".gitignore", "node_modules/\ndist/\n.cache/\ncoverage/\n*.log\nCLAUDE.local.md\n.claude/settings.local.json\n")
    t.file("AGENTS.md", "# Monorepo\n\nUse pnpm workspaces. Run `pnpm test` before pushing.\n\n"
           "See @docs/conventions.md for naming.\n")
    t.link("CLAUDE.md", "AGENTS.md")
    t.file("CLAUDE.local.md", "Personal notes.\n")
    t.file("docs/conventions.md", "# Conventions\n\nKebab-case file names.\n")
    t.file(".mcp.json", '{ "mcpServers": { "db": { "command": "db-mcp", "env": { "DB_URL": "${DB_URL}" } } } }\n')
    t.file(".codex/config.toml", '[mcp_servers.db]\ncommand = "db-mcp"\nenv_vars = ["DB_URL"]\n')
    t.file(".claude/settings.json", '{ "permissions": { "allow": ["Bash(pnpm test)"] } }\n')
    t.file(".claude/settings.local.json", '{ "permissions": { "allow": ["Bash(*)"] } }\n')
    for i, g in enumerate(["**/*.ts", "**/*.tsx", "apps/**", "services/**", "**/*.test.ts"]):
        t.file(f".claude/rules/rule-{i}.md", rule(g, f"Rule {i}: keep functions short."))
    for i in range(5):
        t.file(f".claude/skills/skill-{i}/SKILL.md", skill(f"skill-{i}", f"Shared skill {i}."))
        t.file(f".agents/skills/skill-{i}/SKILL.md", skill(f"skill-{i}", f"Shared skill {i}."))
    t.file("package.json", '{ "private": true, "workspaces": ["apps/*", "packages/*", "services/*", "libs/*"] }\n')
    t.file("README.md", "# Monorepo\n")


def package(t, i, pkg, budget):
    t.file(f"{pkg}/package.json", f'{{ "name": "@mono/p{i}" }}\n')
    t.file(f"{pkg}/README.md", f"# p{i}\n")
    t.file(f"{pkg}/AGENTS.md", f"# p{i}\n\nPackage {i}: keep the public API stable.\n")
    used = 3
    if i % 2 == 0:
        if i % 4 == 0:
            t.link(f"{pkg}/CLAUDE.md", "AGENTS.md")
        else:
            t.file(f"{pkg}/CLAUDE.md", f"# p{i}\n\nRun the package tests with pnpm.\n")
        used += 1
    if i % 10 == 0:
        t.file(f"{pkg}/.claude/rules/style.md", rule("src/**", f"Package {i} style."))
        used += 1
    if i % 25 == 0:
        t.file(f"{pkg}/.claude/skills/gen-{i}/SKILL.md", skill(f"gen-{i}", f"Generate code for p{i}."))
        t.file(f"{pkg}/.agents/skills/gen-{i}/SKILL.md", skill(f"gen-{i}", f"Generate code for p{i}."))
        used += 2
    if i % 50 == 0:
        t.file(f"{pkg}/.gitignore", "generated/\n")
        t.file(f"{pkg}/generated/schema.ts")
        used += 2
    left = max(0, budget - used)
    ignored = left * 35 // 100
    dist = left * 5 // 100
    src = left - ignored - dist
    # Sources: nested directories, 12 files each.
    for k in range(src):
        d = k // 12
        depth = 1 + (d % 6)
        t.file(f"{pkg}/src/{nested(i * 1000 + d, depth)}/f{k}.ts")
    for k in range(dist):
        t.file(f"{pkg}/dist/chunk-{k}.js")
    # node_modules: packages of about 20 files; one in ten ships a CLAUDE.md.
    for k in range(ignored):
        m = k // 20
        if k % 20 == 0 and m % 10 == 0:
            t.file(f"{pkg}/node_modules/dep-{m}/CLAUDE.md", "Vendored instructions.\n")
            continue
        depth = m % 4
        sub = "/" + nested(m, depth) if depth else ""
        t.file(f"{pkg}/node_modules/dep-{m}{sub}/m{k}.js")


def deep_chain(t, pkg):
    parts = ["src", "modules", "core", "internal", "impl", "detail", "v1", "handlers"]
    path = pkg
    for k, p in enumerate(parts):
        path = f"{path}/{p}"
        if k % 2 == 1:
            t.file(f"{path}/AGENTS.md", f"# {p}\n\nLevel {k}.\n")
        if k % 3 == 2:
            t.file(f"{path}/CLAUDE.md", f"# {p}\n\nLevel {k}.\n")
        t.file(f"{path}/index.ts")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--no-git", action="store_true")
    a = ap.parse_args()
    if os.path.exists(a.out) and os.listdir(a.out):
        sys.exit(f"{a.out} exists and is not empty")
    t = Tree(a.out)
    root_config(t)
    npkg = max(4, a.files // 300)
    pkgs = [f"{GROUPS[i % 4]}/p{i:05d}" for i in range(npkg)]
    deep = deep_chain(t, pkgs[1])
    budget = (a.files - t.count) // npkg
    for i, pkg in enumerate(pkgs):
        package(t, i, pkg, budget)
    # Fill up to the exact count in the last package's sources.
    k = 0
    while t.count < a.files:
        t.file(f"{pkgs[-1]}/src/extra/x{k}.ts")
        k += 1
    if not a.no_git:
        env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
        subprocess.run(["git", "init", "-q"], cwd=a.out, check=True, env=env)
        subprocess.run(["git", "add", "-A"], cwd=a.out, check=True, env=env)
    print(f"{t.count} files, {npkg} packages", file=sys.stderr)
    print(deep)


if __name__ == "__main__":
    main()

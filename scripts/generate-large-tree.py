#!/usr/bin/env python3
"""Generate a large synthetic monorepo for measuring `playbookdiff check --all-dirs`.

Usage: scripts/generate-large-tree.py DIR [--files N] [--instruction-files N] [--dirs N]

Defaults: 100,000 files in total, of which 500 are instruction files spread
over 300 package directories (every package has an AGENTS.md; 200 of them
also a CLAUDE.md, half a symbolic link to AGENTS.md, half their own text),
plus root configuration, skills and MCP servers. Deterministic: the same
arguments give the same tree.
"""
import argparse
import os


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--instruction-files", type=int, default=500)
    ap.add_argument("--dirs", type=int, default=300)
    a = ap.parse_args()
    root = a.dir
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    count = 0
    write(os.path.join(root, "AGENTS.md"), "# Monorepo\n\nUse pnpm workspaces.\n\nRun the tests before pushing.\n")
    os.symlink("AGENTS.md", os.path.join(root, "CLAUDE.md"))
    count += 2
    write(os.path.join(root, ".mcp.json"), '{ "mcpServers": { "db": { "command": "db-mcp", "env": { "DB_URL": "${DB_URL}" } } } }\n')
    write(os.path.join(root, ".codex/config.toml"), '[mcp_servers.db]\ncommand = "db-mcp"\nenv_vars = ["DB_URL"]\n')
    write(os.path.join(root, ".agents/skills/release/SKILL.md"), "---\nname: release\ndescription: Cut a release.\n---\nSteps.\n")
    count += 3
    instr = 2
    pkgs = []
    for i in range(a.dirs):
        group = "apps" if i % 3 == 0 else "packages"
        pkgs.append(os.path.join(group, f"p{i:03d}"))
    extra_claude = a.instruction_files - instr - a.dirs
    for i, pkg in enumerate(pkgs):
        d = os.path.join(root, pkg)
        write(os.path.join(d, "AGENTS.md"), f"# {pkg}\n\nPackage {i}: keep the public API stable.\n")
        count += 1
        if i < extra_claude:
            if i % 2 == 0:
                os.symlink("AGENTS.md", os.path.join(d, "CLAUDE.md"))
            else:
                write(os.path.join(d, "CLAUDE.md"), f"# {pkg}\n\nPackage {i}: run the package tests with pnpm.\n")
            count += 1
        if i % 25 == 0:
            write(os.path.join(d, ".claude/skills/gen/SKILL.md"), f"---\nname: gen-{i}\ndescription: Generate code for {pkg}.\n---\nBody.\n")
            count += 1
    # Fill with ordinary source files, spread over nested directories.
    n = 0
    remaining = a.files - count
    per_pkg = remaining // len(pkgs) + 1
    for pkg in pkgs:
        for j in range(per_pkg):
            if n >= remaining:
                break
            sub = os.path.join(root, pkg, "src", f"m{j % 20:02d}", f"s{j % 7}")
            os.makedirs(sub, exist_ok=True)
            with open(os.path.join(sub, f"f{j:04d}.ts"), "w") as f:
                f.write("export {};\n")
            n += 1
    print(f"{count + n} files, {a.dirs} package directories")


if __name__ == "__main__":
    main()

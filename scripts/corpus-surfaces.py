#!/usr/bin/env python3
"""Counts, per corpus repository and harness, the hooks, subagents,
commands, output styles, plugins and permission rules `compile` lists.

    scripts/corpus-surfaces.py [--corpus DIR] [--bin PATH]

For each corpus repository (`<owner>__<name>/repo.tar`, extracted with its
symbolic links into a temporary directory), runs `playbookdiff compile
--harness H --format json .` from the repository root for every harness
and prints a Markdown table: one row per repository and harness that lists
at least one such item, with the counts of each list and, in brackets,
how many of them apply (`effective`; for hooks: may run; for plugins:
load from the repository alone; for permissions: may be honoured).
The corpus defaults to ../shared/corpus beside the repository, the binary
to target/debug/playbookdiff.
"""

import argparse
import json
import os
import subprocess
import tarfile
import tempfile

HARNESSES = ["claude-code", "codex", "copilot", "cursor", "gemini", "opencode"]
LISTS = ["hooks", "subagents", "commands", "outputStyles", "plugins", "permissions"]


def applies(kind, item):
    """True when the item reaches the agent as compiled."""
    if kind == "hooks":
        return item["applicability"] == "effective" and item["runs"]["state"] != "no"
    if kind == "plugins":
        return item["load"]["state"] == "loaded"
    if kind == "permissions":
        return item["honoured"]["state"] != "no"
    return item.get("applicability") == "effective"


def counts(binary, repo, harness):
    out = subprocess.run(
        [binary, "compile", "--harness", harness, "--format", "json", "."],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    doc = json.loads(out.stdout)
    return {k: (len(doc.get(k, [])), sum(applies(k, i) for i in doc.get(k, []))) for k in LISTS}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default=os.path.join(root, "..", "shared", "corpus"))
    p.add_argument("--bin", default=os.path.join(root, "target", "debug", "playbookdiff"))
    args = p.parse_args()
    binary = os.path.abspath(args.bin)
    print("| repository | harness | " + " | ".join(LISTS) + " |")
    print("|---|---|" + "---|" * len(LISTS))
    for name in sorted(os.listdir(args.corpus)):
        tar = os.path.join(args.corpus, name, "repo.tar")
        if not os.path.isfile(tar):
            continue
        with tempfile.TemporaryDirectory() as work:
            with tarfile.open(tar) as t:
                t.extractall(work, filter="tar")
            repo = os.path.join(work, "repo")
            for h in HARNESSES:
                c = counts(binary, repo, h)
                if not any(n for n, _ in c.values()):
                    continue
                cells = [f"{n} ({a})" if n else "0" for n, a in (c[k] for k in LISTS)]
                print(f"| {name.replace('__', '/')} | {h} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

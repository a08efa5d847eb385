#!/usr/bin/env python3
"""Generate a chain of nested directories to measure `check --all-dirs`.

DEPTH directories, each the only subdirectory of the one above (`d/d/d/...`),
each holding an `AGENTS.md` and a `CLAUDE.md` with the same two-line text
(so the harnesses agree on the text; the findings are the scope gaps of the
files below each launch directory). The repository root is the first of
them; a `.git` directory marks it. Deterministic: the same DEPTH gives the
same bytes.

Usage:
    scripts/gen-deep-chain.py OUT DEPTH

OUT must not exist or be empty.
"""

import os
import sys


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: gen-deep-chain.py OUT DEPTH")
    out, depth = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    if os.listdir(out):
        sys.exit(f"{out} is not empty")
    os.makedirs(os.path.join(out, ".git"))
    d = out
    for level in range(depth):
        text = f"# Level {level}\n\nUse pnpm at level {level}.\n"
        for name in ("AGENTS.md", "CLAUDE.md"):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        if level + 1 < depth:
            d = os.path.join(d, "d")
            os.makedirs(d)


if __name__ == "__main__":
    main()

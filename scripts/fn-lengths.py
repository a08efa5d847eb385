#!/usr/bin/env python3
"""Lists the longest functions of Rust source files, in lines from the
`fn` line to its closing brace (comments and blank lines included).

Usage: scripts/fn-lengths.py [--top N] [--over LINES] PATH...
A PATH may be a directory (its `.rs` files, recursively). Braces inside
string and char literals and comments are skipped, so the count is exact
for ordinary code; `#[cfg(test)]` modules are included.
"""
import argparse
import os
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def strip(line, state):
    """The line without comments and literals; `state` carries a block
    comment across lines."""
    out = []
    i = 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"] = False
            i = end + 2
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        if c == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if c == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", line[i:]).group(0))
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    state = {"block": False}
    clean = [strip(l, state) for l in lines]
    found = []
    for i, l in enumerate(clean):
        m = FN.match(l)
        if not m:
            continue
        depth = 0
        opened = False
        for j in range(i, len(clean)):
            for ch in clean[j]:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
                elif ch == ";" and not opened and depth == 0:
                    break
            else:
                if opened and depth == 0:
                    found.append((j - i + 1, path, i + 1, m.group(6)))
                    break
                continue
            break
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--over", type=int, default=0)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            for d, _, fs in os.walk(p):
                files += [os.path.join(d, f) for f in fs if f.endswith(".rs")]
        else:
            files.append(p)
    fns = sorted((f for p in sorted(files) for f in functions(p)), reverse=True)
    fns = [f for f in fns if f[0] > a.over][: a.top]
    for n, path, line, name in fns:
        print(f"{n:5}  {name}  {path}:{line}")


if __name__ == "__main__":
    sys.exit(main())

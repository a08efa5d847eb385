#!/usr/bin/env python3
"""List the workspace's Rust functions by length, longest first.

    scripts/fn-lengths.py                 # functions over 150 lines, non-test code
    scripts/fn-lengths.py --over 80       # another threshold
    scripts/fn-lengths.py --all --top 15  # the 15 longest functions
    scripts/fn-lengths.py --tests         # include tests (tests/, #[cfg(test)], #[test])
    scripts/fn-lengths.py crates/playbookdiff-compare   # only these paths
    scripts/fn-lengths.py --self-test     # check the scanner on a tricky sample

A function's length is the number of lines from the line of its `fn` keyword
to the line of its closing brace, both included (so attributes and doc
comments above it are not counted). A function nested in another is listed
on its own and also counted in the outer one.

Python has no Rust parser in its standard library, so this is a lexer that
knows what can hide a brace: line and (nested) block comments, string
literals with escapes, raw strings (`r#"..."#`), byte strings, character
literals (`'{'`, `'\\''`, `'\\u{7b}'`) told apart from lifetimes (`'a`).
Braces outside those are matched. Non-test code is everything under
`crates/*/src` and `build.rs` except a module under `#[cfg(test)]` and a
function under `#[test]`; files under `tests/` are test code.

Output: one line per function, `LINES  path:line  name`, then a count.
"""

import argparse
import re
import sys
from pathlib import Path

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*")


def tokens(src):
    """Yield (kind, text, line) for identifiers ('id'), punctuation ('p') and
    the attribute start `#[` ('attr'); comments and literals yield nothing but
    are skipped whole, so a brace inside them is never seen. Lines are 1-based.
    """
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += src[i] == "\n"
                    i += 1
        elif m := re.compile(r'b?r(#*)"').match(src, i):
            end = '"' + m.group(1)
            j = src.find(end, m.end())
            j = n if j < 0 else j + len(end)
            line += src.count("\n", i, j)
            i = j
        elif c == '"' or src.startswith('b"', i) or src.startswith('c"', i):
            i = src.index('"', i) + 1
            while i < n and src[i] != '"':
                if src[i] == "\\":
                    i += 1
                line += src[i] == "\n"
                i += 1
            i += 1
        elif c == "'" or src.startswith("b'", i):
            start = src.index("'", i)
            if src[start + 1] == "\\":
                # An escaped character literal: the escaped character is at
                # start + 2 ('\n', '\'', '\\', '\u{7b}'), the closing quote after.
                i = src.index("'", start + 3) + 1
            elif start + 2 < n and src[start + 2] == "'":
                i = start + 3  # 'x'
            else:
                i = start + 1  # a lifetime or a label: 'a
        elif m := IDENT.match(src, i):
            yield ("id", m.group(0), line)
            i = m.end()
        elif src.startswith("#[", i) or src.startswith("#![", i):
            yield ("attr", "#[", line)
            i = src.index("[", i) + 1
        else:
            yield ("p", c, line)
            i += 1


def functions(src):
    """Yield (name, first line, last line, is_test) for every function with a
    body in `src`."""
    toks = list(tokens(src))
    test_until = -1  # index of the token closing the innermost test region
    pending_test = False  # a #[cfg(test)] or #[test] precedes the next item
    regions = []  # stack of token indices where a test region ends
    k = 0
    while k < len(toks):
        kind, text, line = toks[k]
        if regions and k > regions[-1]:
            regions.pop()
        if kind == "attr":
            close = match_close(toks, k, "[", "]")
            body = " ".join(t for _, t, _ in toks[k + 1 : close])
            if body in ("cfg ( test )", "test") or body.startswith("cfg ( all ( test"):
                pending_test = True
            k = close + 1
            continue
        if kind == "id" and text in ("mod", "impl", "trait") and pending_test:
            open_ = find_body(toks, k)
            if open_ is not None:
                regions.append(match_close(toks, open_, "{", "}"))
            pending_test = False
        elif kind == "id" and text == "fn" and k + 1 < len(toks) and toks[k + 1][0] == "id":
            open_ = find_body(toks, k)
            in_test = pending_test or bool(regions)
            pending_test = False
            if open_ is not None:
                close = match_close(toks, open_, "{", "}")
                yield (toks[k + 1][1], line, toks[close][2], in_test)
        elif kind == "p" and text in ";{}" and pending_test:
            pending_test = False
        k += 1


def find_body(toks, k):
    """The index of the `{` opening the body of the item starting at `k`, or
    None when the item ends with `;` first (a declaration without a body).
    Parentheses, brackets and attributes of the signature are skipped, so
    `[u8; 4]` does not end it."""
    depth = 0
    for j in range(k, len(toks)):
        kind, text, _ = toks[j]
        if kind == "attr":
            depth += 1  # an attribute on a parameter: #[...]
            continue
        if kind != "p":
            continue
        if text in "([":
            depth += 1
        elif text in ")]":
            depth -= 1
        elif depth == 0 and text == ";":
            return None
        elif depth == 0 and text == "{":
            return j
    return None


def match_close(toks, k, open_, close):
    """The index of the token closing the `open_` at or after `k`."""
    depth = 0
    for j in range(k, len(toks)):
        kind, text, _ = toks[j]
        if kind == "attr" and open_ == "[":
            depth += 1
        elif kind == "p" and text == open_:
            depth += 1
        elif kind == "p" and text == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def workspace_files(root, paths):
    """The `.rs` files under `paths` (files or directories, relative to
    `root`; default: `crates/`), each with whether it is a test file (under
    a crate's `tests/`)."""
    found = set()
    for given in paths or ["crates"]:
        p = root / given
        found.update([p] if p.is_file() else p.rglob("*.rs"))
    for path in sorted(found):
        rel = path.resolve().relative_to(root.resolve())
        if "target" in rel.parts:
            continue
        parts = rel.parts
        test_file = "tests" in parts[2:3] if parts[0] == "crates" else "tests" in parts
        yield rel, test_file


SAMPLE = r'''
/// A doc comment with a brace { that is not code.
fn one() {
    let s = "a } in a string";
    let r = r#"a "} in" a raw string"#;
    let c = '{';
    let q = '\'';
    let e = '\\';
    let u = '\u{7b}';
    let b = b'}';
    // a } in a comment
    /* a } in /* a nested */ block comment */
}

fn two<'a>(x: &'a str, #[allow(unused)] y: [u8; 4]) -> impl Fn() -> &'a str + 'a
where
    'a: 'a,
{
    move || { x }
}

trait T {
    fn declared(&self);
    fn defaulted(&self) -> u8 {
        0
    }
}

#[cfg(test)]
mod tests {
    fn helper() {}

    #[test]
    fn case() {
        let s = "fn not_a_function() {";
    }
}

#[test]
fn top_level_test() {}

fn last(p: fn(u8) -> u8) -> u8 {
    let label = 'outer: loop { break 'outer 1; };
    p(label)
}
'''

EXPECTED = [
    ("one", 3, 13, False),
    ("two", 15, 20, False),
    ("defaulted", 24, 26, False),
    ("helper", 31, 31, True),
    ("case", 34, 36, True),
    ("top_level_test", 40, 40, True),
    ("last", 42, 45, False),
]


def self_test():
    got = list(functions(SAMPLE))
    if got != EXPECTED:
        print("expected", EXPECTED, "\ngot     ", got, file=sys.stderr)
        return 1
    print(f"ok: {len(got)} functions in the sample")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--over", type=int, default=150, help="list functions longer than this")
    ap.add_argument("--all", action="store_true", help="list every function")
    ap.add_argument("--tests", action="store_true", help="include test code")
    ap.add_argument("--self-test", action="store_true", help="check the scanner")
    ap.add_argument("--top", type=int, help="list at most this many")
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("paths", nargs="*", help="files or directories (default: crates/)")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    rows = []
    for rel, test_file in workspace_files(args.root, args.paths):
        src = (args.root / rel).read_text(encoding="utf-8")
        for name, first, last, is_test in functions(src):
            if (is_test or test_file) and not args.tests:
                continue
            rows.append((last - first + 1, f"{rel}:{first}", name))
    rows.sort(key=lambda r: (-r[0], r[1]))
    over = 0 if args.all else args.over
    shown = [r for r in rows if r[0] > over][: args.top]
    for length, where, name in shown:
        print(f"{length:5}  {where}  {name}")
    count = sum(1 for r in rows if r[0] > over)
    print(f"{count} of {len(rows)} functions over {over} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

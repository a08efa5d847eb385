#!/usr/bin/env python3
"""Times one guard decision, the way a host runs the hook.

Usage:
    scripts/bench/guard_hook.py REPO [--bin DIR] [--runs N]

REPO is a git work tree (`scripts/bench/gen-monorepo.py OUT --files 100000`
makes the benchmark one; the guard writes its cache and ledger under its
`.git/playbookdiff/`, so use a copy). DIR holds `playbookdiff` and
`playbookdiff-guard` (default: target/release; a missing one is left
out); `--compare DIR2` adds DIR2's `playbookdiff-guard`, an earlier build,
to the same interleaved rounds. For three Claude Code
payloads (a Write of a source file: allow; a Write of a package's
CLAUDE.md: deny; a Bash `cd … && sed -i … && echo > …`: allow, with the
fingerprint of every protected file) it warms the protected-files cache,
then runs `playbookdiff guard hook`, `playbookdiff-guard hook` and
`/bin/true` N times each (default 1000), interleaved so that a change of
the machine's load hits all three alike, with the payload on standard
input. It prints per command the median, 99th percentile and minimum of
the wall time from spawn to exit, the child's mean user and system CPU
time (from wait4), the median's ratio to /bin/true's, and, when valgrind
is installed, the instructions one run executes (callgrind's Ir).
Python 3.11 standard library only.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def payloads(root):
    def p(tool, inp):
        return json.dumps({"session_id": "bench", "cwd": root, "hook_event_name": "PreToolUse",
                           "tool_name": tool, "tool_input": inp})
    return {
        "Write of a source file (allow)":
            p("Write", {"file_path": f"{root}/packages/p00001/src/new.ts", "content": "x"}),
        "Write of a package's CLAUDE.md (deny)":
            p("Write", {"file_path": f"{root}/packages/p00001/CLAUDE.md", "content": "x"}),
        "Bash cd, sed -i, echo > (allow, fingerprint)":
            p("Bash", {"command": "cd packages/p00001 && sed -i 's/a/b/' src/index.ts"
                                  " && echo x > src/out.txt"}),
    }


def spawn(argv, payload_file):
    fd = os.open(payload_file, os.O_RDONLY)
    try:
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, fd, 0),
            (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
        _, _, usage = os.wait4(pid, 0)
        return (time.perf_counter() - start) * 1000, usage.ru_utime * 1000, usage.ru_stime * 1000
    finally:
        os.close(fd)


def instructions(argv, payload_file):
    if not shutil.which("valgrind"):
        return None
    with open(payload_file, "rb") as stdin:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                           stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in r.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("--bin", default=str(ROOT / "target" / "release"))
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--compare", metavar="DIR",
                    help="also run DIR/playbookdiff-guard (an earlier build) in the same rounds")
    args = ap.parse_args()
    root = str(Path(args.repo).resolve())
    bin_dir = Path(args.bin)
    commands = {
        "playbookdiff guard hook": [str(bin_dir / "playbookdiff"), "guard", "hook", "--host",
                                    "claude-code"],
        "playbookdiff-guard hook": [str(bin_dir / "playbookdiff-guard"), "hook", "--host",
                                    "claude-code"],
        "/bin/true": ["/bin/true"],
    }
    if args.compare:
        commands["playbookdiff-guard hook (compared)"] = [
            str(Path(args.compare) / "playbookdiff-guard"), "hook", "--host", "claude-code"]
    commands = {c: argv for c, argv in commands.items() if Path(argv[0]).exists()}
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in payloads(root).items():
            f = Path(tmp) / "payload.json"
            f.write_text(text)
            for argv in commands.values():
                for _ in range(20):
                    spawn(argv, f)
            samples = {c: [] for c in commands}
            for _ in range(args.runs):
                for c, argv in commands.items():
                    samples[c].append(spawn(argv, f))
            base = statistics.median(w for w, _, _ in samples["/bin/true"])
            print(f"\n{name}")
            print("| command | median | p99 | min | user + system CPU | median / /bin/true | instructions |")
            print("|---|---|---|---|---|---|---|")
            for c, argv in commands.items():
                w = sorted(x for x, _, _ in samples[c])
                user = statistics.mean(u for _, u, _ in samples[c])
                system = statistics.mean(s for _, _, s in samples[c])
                ir = instructions(argv, f)
                print(f"| {c} | {statistics.median(w):.2f} ms | {w[int(len(w) * 0.99) - 1]:.2f} ms"
                      f" | {w[0]:.2f} ms | {user:.2f} + {system:.2f} ms"
                      f" | {statistics.median(w) / base:.1f} | {ir:,} |" if ir else
                      f"| {c} | {statistics.median(w):.2f} ms | {w[int(len(w) * 0.99) - 1]:.2f} ms"
                      f" | {w[0]:.2f} ms | {user:.2f} + {system:.2f} ms"
                      f" | {statistics.median(w) / base:.1f} | - |")
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Times `check` through `playbookdiff mcp` against the CLI's own `check`.

Usage:
    scripts/bench/mcp_check.py TREE [--bin target/release/playbookdiff] [--runs 10]

Starts the server once (`playbookdiff mcp`, JSON-RPC over its standard
input and output), initializes it, then alternates, `--runs` times: one
`tools/call` of the `check` tool on TREE (timed from the request written
to the whole response read), and one run of `playbookdiff check TREE
--format json` with its output read to the end (timed from the start of
the process to its exit). Prints the median, minimum and maximum of each
in milliseconds and the ratio of the medians (server / CLI) as JSON.

Python 3.11 standard library only.
"""

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path


class Server:
    """`playbookdiff mcp` on pipes, initialized."""

    def __init__(self, exe):
        self.proc = subprocess.Popen([exe, "mcp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        want = self.next_id
        self.send({"jsonrpc": "2.0", "id": want, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"the server closed its output during {method}")
            msg = json.loads(line)
            if msg.get("id") == want:
                if "error" in msg:
                    raise SystemExit(f"{method}: {msg['error']}")
                return msg["result"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def time_server(server, tree):
    start = time.perf_counter()
    result = server.request("tools/call", {"name": "check", "arguments": {"repo": tree}})
    took = time.perf_counter() - start
    if result.get("isError"):
        raise SystemExit(f"check through the server failed: {result}")
    return took


def time_cli(exe, tree):
    start = time.perf_counter()
    done = subprocess.run([exe, "check", tree, "--format", "json"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"playbookdiff check exited {done.returncode}")
    return took


def summary(times):
    ms = [t * 1000 for t in times]
    return {"median": round(statistics.median(ms)), "min": round(min(ms)), "max": round(max(ms))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree")
    ap.add_argument("--bin", default="target/release/playbookdiff")
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    exe = str(Path(a.bin).resolve())
    tree = str(Path(a.tree).resolve())
    server = Server(exe)
    time_server(server, tree)  # warm-up, page cache
    time_cli(exe, tree)
    srv, cli = [], []
    for _ in range(a.runs):
        srv.append(time_server(server, tree))
        cli.append(time_cli(exe, tree))
    server.close()
    s, c = summary(srv), summary(cli)
    print(json.dumps({"runs": a.runs, "server_ms": s, "cli_ms": c,
                      "ratio": round(s["median"] / c["median"], 2)}, indent=1))


if __name__ == "__main__":
    main()

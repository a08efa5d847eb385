#!/usr/bin/env python3
"""Real Claude Code calls `check` through `playbookdiff mcp` (docs/mcp.md).

A copy of the example repository gets a `.mcp.json` that starts
`playbookdiff mcp`; Claude Code (the profiled release, installed by
record.py) runs in it with an empty home, no network (`unshare -n` when
available) and a fake Messages API on loopback that plays the model: its
first answer is a `tool_use` of `mcp__playbookdiff__check` with the
repository's path, every later request is answered 400. The script
checks, and prints as JSON:

* the `init` line lists the server `playbookdiff` as `connected`, with
  its tools;
* a request to the model offers the tool `mcp__playbookdiff__check`;
* the request after the call holds its `tool_result`, with the findings of
  `check` (the ids `check --format json` gives for the same repository).

    scripts/oracle/mcp_round_trip.py [--bin target/debug/playbookdiff]
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import record  # noqa: E402  (the installation, process helpers and the fake Messages API)

TOOL = "mcp__playbookdiff__check"


def tool_results(body):
    """The texts of the `tool_result` blocks of a request's messages."""
    out = []
    for m in body.get("messages") or []:
        for block in m.get("content") if isinstance(m.get("content"), list) else []:
            if block.get("type") == "tool_result":
                content = block.get("content")
                if isinstance(content, list):
                    out.append("".join(c.get("text", "") for c in content))
                else:
                    out.append(str(content))
    return out


def run(exe, version, playbookdiff, work):
    repo, home = work / "repo", work / "home"
    shutil.copytree(record.ROOT / "examples" / "monorepo", repo)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"playbookdiff": {
        "command": str(playbookdiff), "args": ["mcp"]}}}))
    (home / ".claude").mkdir(parents=True)
    # The project's servers are approved, as a user does once.
    (home / ".claude" / "settings.json").write_text(json.dumps(
        {"enableAllProjectMcpServers": True}))
    expected = json.loads(subprocess.run(
        [str(playbookdiff), "check", str(repo), "--format", "json"],
        capture_output=True, text=True).stdout)
    model = record.FakeApi(TOOL, {"repo": str(repo)})
    env = {
        "HOME": str(home), "PATH": str(record.restricted_path(work)), "SHELL": "/bin/bash",
        "LANG": "C.UTF-8", "TZ": "UTC", "ANTHROPIC_API_KEY": "scripted-dummy",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{model.port}",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
        "MCP_TIMEOUT": "20000",
    }
    args = [str(exe), "-p", "check this repository", "--output-format", "stream-json",
            "--verbose", "--allowedTools", TOOL]
    out_file = work / "stdout.jsonl"
    with open(out_file, "wb") as out, open(work / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(args, cwd=repo, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + record.RUN_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None \
            and not any(map(tool_results, model.requests)):
        time.sleep(0.1)
    time.sleep(record.SETTLE)
    record.kill_group(proc)
    model.close()

    init = next((d for d in map(parse, out_file.read_text(errors="replace").splitlines())
                 if d.get("type") == "system" and d.get("subtype") == "init"), {})
    servers = [{"name": s.get("name"), "status": s.get("status")}
               for s in init.get("mcp_servers") or []]
    offered = any(t.get("name") == TOOL for r in model.requests for t in r.get("tools") or [])
    # The request after the call: the first that carries a tool result.
    results = next((tr for tr in map(tool_results, model.requests) if tr), [])
    ids = [f["id"] for f in expected.get("findings", [])]
    received = results[0] if results else ""
    obs = {
        "claudeCode": version,
        "initMcpServers": servers,
        "initTools": sorted(t for t in init.get("tools") or [] if t.startswith("mcp__")),
        "toolOffered": offered,
        "toolCalled": model.answered_tool,
        "requests": len(model.requests),
        "toolResultChars": len(received),
        "findingsExpected": len(ids),
        "findingsReceived": sum(1 for i in ids if i in received),
    }
    ok = ({"name": "playbookdiff", "status": "connected"} in servers and offered
          and model.answered_tool and ids and obs["findingsReceived"] == len(ids))
    if not ok:
        obs["toolResult"] = received[:3000]
        obs["stderr"] = (work / "stderr.txt").read_text(errors="replace")[-2000:]
    return ok, obs


def parse(line):
    try:
        d = json.loads(line)
        return d if isinstance(d, dict) else {}
    except ValueError:
        return {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=str(record.ROOT / "target" / "debug" / "playbookdiff"))
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    version = record.profiled_versions("claude-code")[-1]
    exe = record.install("claude-code", version)
    if not args.inside:
        # As record.py: the run happens in a network namespace of its own,
        # loopback only (the scripted model listens there).
        sys.exit(subprocess.run(["unshare", "-n", sys.executable, str(Path(__file__).resolve()),
                                 "--inside", "--bin", str(Path(args.bin).resolve())]).returncode)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
    with tempfile.TemporaryDirectory(prefix="playbookdiff-mcp-claude-") as work:
        ok, obs = run(exe, version, Path(args.bin).resolve(), Path(work))
    print(json.dumps(obs, indent=1))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

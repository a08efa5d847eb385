#!/usr/bin/env python3
"""A round end to end with the real Claude Code under a scripted model.

Usage:
    scripts/oracle/round_e2e.py [--version V] [--keep DIR]

On a copy of `oracle/round/fixture/` (a repository with brief 014: scope
`src/auth/**`, protected `migrations/**`, `outOfScope: warn`), this:

1. makes two SSH keys with `ssh-keygen` (a person's, listed in
   `.github/allowed_signers`, and an intruder's, not listed), commits the
   fixture and the signers on `main` (the brief approved), registers the
   guard as Claude Code's PreToolUse and PostToolUse hook (`playbookdiff
   guard install --host claude-code --write --program WRAPPER`, the
   guard_e2e.py wrapper that records each payload and answer), and checks
   out the round's branch `brief/014`;
2. runs Claude Code (default permission mode, Write, Edit, Bash and Read
   allowed) inside `unshare -n` with an empty home against a scripted
   model on loopback that makes one call per turn (`ROWS`): a write inside
   the scope, an edit outside it, a write of a protected file, `playbookdiff
   round escalate` through Bash, and the protected write again after each
   change of the Rulings table, which the script makes between turns as
   the phases say: a forged ruling committed unsigned, the same signed by
   the unlisted key, then the person's ruling signed by the listed key
   (`git -c gpg.format=ssh commit -S`); last a write of another protected
   file, which the ruling does not allow;
3. at each request, before answering, hashes the files the rows watch; the
   next request's tool result is what the model read;
4. ends with `playbookdiff round rulings --format json` and the files'
   hashes, then `playbookdiff round audit --format json` on the agent's
   work committed, and again with ruling E1 rewritten by an unsigned
   commit and by one signed with the unlisted key (each on a branch of
   its own);
5. writes `oracle/round/claude-code/<version>.json` (per row: the guard's
   decisions and rules, the ledger, the hashes, what the model read; the
   rulings; the audit) and `<version>.payloads.jsonl` (every hook payload
   with its phase and the guard's decision), which `cargo test -p
   playbookdiff --test cli round_replay::` replays through the guard.

Paths, ids, keys and commit ids are replaced by placeholders, so two runs
give identical files. Python 3.11 standard library only; needs the debug
build of playbookdiff (or `$PLAYBOOKDIFF`), `git`, `ssh-keygen`, `unshare`
and `ip`; the agent is installed as the oracle recorder installs it.
Run it under `nice -n 10`.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guard_e2e as ge  # noqa: E402  (the scripted model, the wrapper, observing)
import record  # noqa: E402  (install(), kill_group(), log())

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "oracle" / "round" / "fixture"
OUT = ROOT / "oracle" / "round"
PROGRAM = ge.PROGRAM
AGENT = "claude-code"
VERSION = "2.1.332"
MODE = "default"
BRIEF = "briefs/014.md"
BRANCH = "brief/014"
PERSON = "person@example.com"
INTRUDER = "intruder@example.com"
AGENT_EMAIL = "agent@example.com"

ESCALATE = ("playbookdiff round escalate --path migrations/002_rotation.sql "
            "--reason 'rotation needs a rotated_at column' "
            "--option 'add the column in 002_rotation.sql' "
            "--option 'keep rotation in memory' "
            "--recommendation 'add the column: one reviewed migration'")

READ_FIRST = ["src/auth/token.py", "README.md", "migrations/002_rotation.sql",
              "migrations/001_tokens.sql"]


def R(rid, phase, expect, call, watch):
    return {"id": rid, "phase": phase, "expect": expect, "call": call, "watch": watch}


PROTECTED_WRITE = ("write", "migrations/002_rotation.sql",
                   "ALTER TABLE tokens ADD COLUMN rotated_at TEXT;\n")

# One call per turn; `phase` is the state of the repository when the call
# is made (the script moves to it before the turn), `expect` what the row
# exists to show.
ROWS = [
    R("write-in-scope", "approved", "allowed",
      ("write", "src/auth/token.py", "def lifetime_days():\n    return 1\n"),
      ["src/auth/token.py"]),
    R("edit-out-of-scope", "approved", "warned",
      ("edit", "README.md", "Issues and rotates", "Issues, logs and rotates"), ["README.md"]),
    R("write-protected", "approved", "refused with the escalate command", PROTECTED_WRITE,
      ["migrations/002_rotation.sql"]),
    R("escalate", "approved", "a pending row E1", ("bash", ESCALATE), [BRIEF]),
    R("write-protected-forged-unsigned", "forged-unsigned", "refused", PROTECTED_WRITE,
      ["migrations/002_rotation.sql"]),
    R("write-protected-forged-unlisted", "forged-unlisted", "refused", PROTECTED_WRITE,
      ["migrations/002_rotation.sql"]),
    R("write-protected-ruled", "ruled", "allowed", PROTECTED_WRITE,
      ["migrations/002_rotation.sql"]),
    R("write-other-protected", "ruled", "refused",
      ("write", "migrations/001_tokens.sql", "DROP TABLE tokens;\n"),
      ["migrations/001_tokens.sql"]),
]


def turns(repo):
    first = [ge.tool_call(AGENT, repo, ("read", p)) for p in READ_FIRST]
    return [first] + [[ge.tool_call(AGENT, repo, row["call"])] for row in ROWS]


def git(repo, *args, email=AGENT_EMAIL, key=None):
    """git in `repo` as `email`, signing with `key` (SSH) when given."""
    env = dict(os.environ, GIT_AUTHOR_NAME=email.split("@")[0], GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=email.split("@")[0], GIT_COMMITTER_EMAIL=email,
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    signing = ["-c", "gpg.format=ssh", "-c", f"user.signingkey={key}"] if key else []
    return subprocess.run(["git", *signing, "-C", str(repo), *args], env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def keygen(work, name):
    key = work / "keys" / name
    key.parent.mkdir(exist_ok=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
                   check=True)
    return key, key.with_suffix(".pub").read_text().strip()


def playbookdiff(repo, *args):
    return subprocess.run([str(PROGRAM), *args], cwd=repo, capture_output=True, text=True,
                          env=dict(os.environ, NO_COLOR="1"))


def materialize(work):
    """The fixture approved on `main`, the guard registered, the round's
    branch checked out; returns (repo, keys)."""
    repo = work / "repo"
    shutil.copytree(FIXTURE, repo, symlinks=True)
    person, person_pub = keygen(work, "person")
    intruder, _ = keygen(work, "intruder")
    (repo / ".github").mkdir()
    (repo / ".github" / "allowed_signers").write_text(
        f'{PERSON} namespaces="git" {person_pub}\n')
    git(repo, "init", "-q", "-b", "main")
    wrapper = work / "guard-wrapper"
    wrapper.write_text(ge.WRAPPER.format(program=str(PROGRAM), log=str(work / "hooks.jsonl")))
    wrapper.chmod(0o755)
    (work / "home").mkdir()
    out = subprocess.run([str(PROGRAM), "guard", "install", "--host", AGENT, "--write",
                          "--program", str(wrapper)], cwd=repo, capture_output=True, text=True,
                         env=dict(os.environ, HOME=str(work / "home")))
    if out.returncode != 0:
        sys.exit(f"guard install: {out.stderr}")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-S", "-m", "Brief 014 approved", email=PERSON, key=person)
    git(repo, "checkout", "-q", "-b", BRANCH)
    bin_dir = work / "bin"
    bin_dir.mkdir()
    (bin_dir / "playbookdiff").symlink_to(PROGRAM)
    return repo, {"person": person, "intruder": intruder}


def rule(repo, reason):
    out = playbookdiff(repo, "round", "rule", "--row", "E1", "--ruling", "allow",
                       "--reason", reason)
    if out.returncode != 0:
        sys.exit(f"round rule: {out.stderr}")


# The moves between phases, made by the script between two turns.
def to_forged_unsigned(repo, keys):
    """The agent's own ruling, committed without a signature."""
    rule(repo, "forged: allowed by the agent")
    git(repo, "add", BRIEF)
    git(repo, "commit", "-q", "-m", "Ruling E1 (unsigned)")


def to_forged_unlisted(repo, keys):
    """The same row, signed by a key the base branch does not list."""
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    git(repo, "commit", "-q", "-S", "-m", "Ruling E1 (unlisted key)", email=PERSON,
        key=keys["intruder"])


def to_ruled(repo, keys):
    """The person's ruling, signed by the listed key."""
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    rule(repo, "one reviewed migration")
    git(repo, "add", BRIEF)
    git(repo, "commit", "-q", "-S", "-m", "Ruling E1", email=PERSON, key=keys["person"])


MOVES = {"forged-unsigned": to_forged_unsigned, "forged-unlisted": to_forged_unlisted,
         "ruled": to_ruled}


class Recorder:
    """At each request: the move to the next row's phase, then hashes and
    counts of hook calls and ledger lines."""

    def __init__(self, work, repo, keys):
        self.work, self.repo, self.keys = work, repo, keys
        self.names = sorted({w for row in ROWS for w in row["watch"]})
        self.snaps = []
        self.phase = "approved"
        self.rulings = {}

    def on_turn(self, k, body):
        time.sleep(0.3)
        state = self.state()
        if 1 <= k <= len(ROWS) and ROWS[k - 1]["phase"] != self.phase:
            self.phase = ROWS[k - 1]["phase"]
            MOVES[self.phase](self.repo, self.keys)
            out = playbookdiff(self.repo, "round", "rulings", "--format", "json")
            rows = parse_json(out.stdout).get("rows", [])
            self.rulings[self.phase] = [{k: r.get(k) for k in ("id", "decision", "verified",
                                                             "signer", "whyNot")} for r in rows]
        state["hooksAfterMove"] = len(ge.lines(self.work / "hooks.jsonl"))
        state["body"] = body
        self.snaps.append(state)
        # Each request as sent, for a look with --keep.
        (self.work / "requests").mkdir(exist_ok=True)
        (self.work / "requests" / f"{k:02d}.json").write_text(json.dumps(body, indent=1))

    def state(self):
        return {"hashes": {n: ge.digest(self.work, self.repo, None, n) for n in self.names},
                "hooks": len(ge.lines(self.work / "hooks.jsonl")),
                "ledger": len(ge.lines(self.repo / ".git" / "playbookdiff" / "guard.jsonl"))}


def run_in(exe, work):
    repo, keys = materialize(work)
    rec = Recorder(work, repo, keys)
    model = ge.FakeModel(turns(repo), rec.on_turn)
    argv, extra = ge.agent_command(AGENT, exe, MODE, model.port, work)
    env = {"HOME": str(work / "home"), "PATH": f"{work / 'bin'}:/usr/local/bin:/usr/bin:/bin",
           "SHELL": "/bin/bash", "LANG": "C.UTF-8", "TZ": "UTC", "TERM": "dumb",
           "GIT_CONFIG_NOSYSTEM": "1", **extra}
    with open(work / "stdout.txt", "wb") as out, open(work / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(argv, cwd=repo, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, start_new_session=True)
        try:
            proc.wait(timeout=ge.RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
    record.kill_group(proc)
    time.sleep(0.5)
    rec.on_turn(len(rec.snaps), {})
    model.close()
    return observe(work, repo, rec, proc.returncode)


def row_entry(norm, row, k, before, after, hooks, ledger):
    calls = hooks[before["hooksAfterMove"]:after["hooks"]]
    pre = [c for c in calls if ge.event_of(c) == "PreToolUse"]
    post = [c for c in calls if ge.event_of(c) == "PostToolUse"]
    decision, rule_id = ge.answer_of(pre[0]) if pre else ("no hook call", None)
    text, is_error = ge.told(after["body"], k)
    hb = {n: before["hashes"][n] for n in row["watch"]}
    ha = {n: after["hashes"][n] for n in row["watch"]}
    return {
        "id": row["id"], "phase": row["phase"], "expect": row["expect"],
        "call": norm.value(list(row["call"])),
        "hook": {"decision": decision, "rule": rule_id},
        "postHook": [dict(zip(("decision", "rule"), ge.answer_of(c))) for c in post],
        "ledger": [{"event": e.get("event"), "tool": e.get("tool"),
                    "decision": e.get("decision"), "rule": e.get("rule")}
                   for e in ledger[before["ledger"]:after["ledger"]]],
        "hashesBefore": hb, "hashesAfter": ha, "changed": hb != ha,
        "told": norm.text(text)[:900] if text is not None else None,
        "toldIsError": is_error,
        "guardInContext": norm.text(guard_in_context(after["body"], k) or "") or None,
    }


def guard_in_context(body, k):
    """The guard's words in what the model reads at the next request
    besides the tool result: a text block of the message that carries
    turn k's result or of a later one (Claude Code 2.1.332 sends a hook's
    additional context as a message of its own after the result)."""
    tag = f"_{k:03d}_0"
    messages = body.get("messages", [])
    start = next((i for i, m in enumerate(messages)
                  if isinstance(m.get("content"), list) and
                  any(isinstance(b, dict) and str(b.get("tool_use_id", "")).endswith(tag)
                      for b in m["content"])), None)
    if start is None:
        return None
    for m in messages[start:]:
        content = m.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for b in blocks:
            text = b.get("text") if isinstance(b, dict) and b.get("type") == "text" else None
            if isinstance(text, str) and "playbookdiff guard" in text:
                return text
    return None


def observe(work, repo, rec, status):
    norm = ge.Norm(work, repo)
    hooks = [json.loads(l) for l in ge.lines(work / "hooks.jsonl")]
    ledger = [json.loads(l) for l in ge.lines(repo / ".git" / "playbookdiff" / "guard.jsonl")]
    rows, payloads = [], []
    for i, row in enumerate(ROWS):
        k = i + 1
        if k + 1 >= len(rec.snaps):
            rows.append({"id": row["id"], "reached": False})
            continue
        before, after = rec.snaps[k], rec.snaps[k + 1]
        rows.append(row_entry(norm, row, k, before, after, hooks, ledger))
        for c in hooks[before["hooksAfterMove"]:after["hooks"]]:
            decision, rule_id = ge.answer_of(c)
            payloads.append({"mode": MODE, "row": row["id"], "phase": row["phase"],
                             "host": AGENT,
                             "payload": norm.value(json.loads(c["stdin"])) if c["stdin"]
                             else None, "decision": decision, "rule": rule_id})
    rulings = playbookdiff(repo, "round", "rulings", "--format", "json")
    final = rec.snaps[-1]["hashes"]
    audit_result = {k: {"exit": v["exit"], "report": norm.value(strip_keys(v["report"]))}
                    for k, v in audits(repo, rec.keys).items()}
    result = {
        "agent": AGENT, "version": VERSION, "mode": MODE,
        "args": ge.CLAUDE_MODES[MODE], "exit": "timeout" if status is None else status,
        "rows": rows,
        "rulings": {"exit": rulings.returncode,
                    "report": norm.value(strip_keys(parse_json(rulings.stdout)))},
        "rulingsByPhase": norm.value(strip_keys(rec.rulings)),
        "finalHashes": final,
        "audit": audit_result,
    }
    return result, payloads


def audit(repo):
    out = playbookdiff(repo, "round", "audit", "014", "--format", "json")
    return {"exit": out.returncode, "report": parse_json(out.stdout)}


def audits(repo, keys):
    """`round audit` at the round's end, the agent's work committed
    (unsigned, as an agent commits it): "round". Then the same round with
    ruling E1's row rewritten by a commit of the agent, unsigned
    ("forged-unsigned"), and by one signed with the key the base branch
    does not list ("forged-unlisted"), each on a branch of its own: the
    protected file E1 opened is then changed without a verified ruling."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Round 014: the agent's work")
    result = {"round": audit(repo)}
    for name, key in (("forged-unsigned", None), ("forged-unlisted", keys["intruder"])):
        git(repo, "checkout", "-q", "-b", f"{name}/{BRANCH}", BRANCH)
        rule(repo, f"{name}: allowed by the agent")
        git(repo, "add", BRIEF)
        git(repo, "commit", "-q", *(["-S"] if key else []), "-m", f"Ruling E1 ({name})",
            email=PERSON if key else AGENT_EMAIL, key=key)
        result[name] = audit(repo)
        git(repo, "checkout", "-q", BRANCH)
    return result


def parse_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return {"unreadable": text[:500]}


def strip_keys(v):
    """The report with SSH key material and signers' fingerprints as
    placeholders (new keys every run)."""
    if isinstance(v, dict):
        return {k: ("<key>" if k in ("key", "fingerprint") else strip_keys(x))
                for k, x in v.items()}
    if isinstance(v, list):
        return [strip_keys(x) for x in v]
    if isinstance(v, str):
        return re.sub(r"SHA256:[A-Za-z0-9+/=]+", "SHA256:<key>", v)
    return v


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--version", default=VERSION)
    p.add_argument("--keep", help="copy the run's directory here")
    p.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if not PROGRAM.exists():
        sys.exit(f"{PROGRAM} is missing (run `cargo build -p playbookdiff`)")
    if not args.inside:
        record.install(AGENT, args.version)
        cmd = ["unshare", "-n", sys.executable, str(Path(__file__).resolve()), "--inside"]
        sys.exit(subprocess.run(cmd + sys.argv[1:]).returncode)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    exe = record.install(AGENT, args.version)
    work = Path(tempfile.mkdtemp(prefix="round-e2e-"))
    try:
        record.log(f"{AGENT} {args.version} round")
        result, payloads = run_in(exe, work)
    finally:
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.copytree(work, args.keep, symlinks=True)
        shutil.rmtree(work, ignore_errors=True)
    for r in result["rows"]:
        record.log(f"  {r['id']}: {r.get('hook')} changed={r.get('changed')}")
    ge.write(OUT / AGENT / f"{args.version}.json", json.dumps(result, indent=1) + "\n")
    ge.write(OUT / AGENT / f"{args.version}.payloads.jsonl",
             "".join(json.dumps(x, sort_keys=True) + "\n" for x in payloads))


if __name__ == "__main__":
    main()

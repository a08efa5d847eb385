#!/usr/bin/env python3
"""Finds the first release of an agent that shows a behaviour, by binary
search over its published releases with the real agent as the oracle.

Usage:
    scripts/oracle/bisect.py [--agent claude-code|codex|...] [--behaviour ID ...]
    scripts/oracle/bisect.py --agent claude-code --unexplained
    scripts/oracle/bisect.py --agent claude-code --sample 10
    scripts/oracle/bisect.py --agent claude-code --sample 10 --behaviour ID
    scripts/oracle/bisect.py --agent opencode --sample 10 --older 1.2.1
    scripts/oracle/bisect.py --agent claude-code --older 2.0.59 --sample 10
    scripts/oracle/bisect.py --agent opencode --older 1.0.0 --until 1.1.53 --sample 12
    scripts/oracle/bisect.py --agent codex --older 0.63.0 --until 0.77.0 --sample 5
    scripts/oracle/bisect.py --agent gemini --recheck
    scripts/oracle/bisect.py --compare-methods 0.142.3
    scripts/oracle/bisect.py --agent copilot --changelog-dates changelog.md 2026-12-05
    scripts/oracle/bisect.py --agent claude-code --changes _bundled startup.skillsListed 2.1.32 2.1.196

A behaviour is declared in `oracle/bisect/behaviours.toml`: the agent, the
two profiled releases it lies between (`from`, which does not show it, and
`to`, which does), the profile fact it is (`fact`, as the adapter names it),
whether the adapter models it (`modelled = false` for a behaviour the
observations show that no fact of the adapter's table holds, with the
reason in `unmodelled`, printed in docs/fidelity.md), and how
a release is seen to show it:

- `case` and `aspect`: the oracle case (`oracle/cases.toml`) whose
  observation tells the two releases apart, and the dotted path of the
  part that differs (`startup.instructions`, `trusted.skills`); a release
  shows the behaviour when that part, as JSON text, holds every `present`
  string and no `absent` one, the `ordered` strings one after the
  other (an order of a listing), and each key of `at_least` at least as
  many times as its value (a count of a listing: descriptions dropped);
  with none of the four, when it equals the part recorded for `to`;
- or `probe = "code"`: the installed package's files hold every `present`
  string and no `absent` one (for a fact read from the agent's code, such
  as its list of hook events).

For each behaviour the script lists the releases published between the two
(`npm view PKG versions --json`, cached, pre-releases left out), checks the
predicate on the recorded observations of both ends (no run), then halves
the window: it installs each candidate once into the recorder's cache
(`${XDG_CACHE_HOME:-$HOME/.cache}/playbookdiff-oracle/`, kept between
runs), re-runs only the behaviour's case there, inside `unshare -n` with an
empty home under `nice -n 10` (through the recorder's own `observe`), and
keeps every observation in the cache too. A search over N releases
installs at most ceil(log2(N)) of them. The first release that shows the
behaviour, the last that does not, the observation at both and the counts
(installs, runs, seconds) go to `oracle/bisect/<agent>.json`. A release
published without the executable for this platform cannot run: it is
left out of the search (and listed as `unrunnable`).

The search assumes the behaviour switches once in the window; a behaviour
that comes and goes is seen by `--sample`, which records the behaviours at
evenly spread releases and reports every release whose observation
contradicts the boundary found.

`--older START --sample N` looks before the profiles: it observes the
behaviours' cases at N releases spread from START to the oldest profiled
release and writes, per release, the cases and aspects whose observation
differs from that profile's (`<agent>.older.json`); each is a behaviour
to declare, with the sampled releases on either side as `from` and `to`.
A release inside the modelled window (from its `window_start`) keeps each
case's whole observation (`observed`): the differential test compares the
adapter at that release with it.
A behaviour whose `fact` is `window_start` finds the first release the
recorder can observe: the adapter's modelled window starts there. With
`published_since = DATE` instead of `from` and `to`, it is the first
release of the twelve months (the oldest from which every later release
was published on or after DATE, `npm view PKG time --json`), observed
once to show that the recorder observes it.

A behaviour that came early for a few releases and went again before its
boundary names the two behaviours that bisected its coming and going
(`also = [ON, OFF]`): the sampled releases between them show it too.
`--recheck` recomputes the agreement of `<agent>.sample.json` from the
results as they are now, without running anything.

A second `--older` run against the same profile and cases (a denser
sample of part of the window; `--until END` keeps it to the releases
up to END) is merged into the file: each run's window
and counts under `samples`.

Codex releases before 0.120.0 are observed through `codex exec` (the
recorder's `codex_method`), their observations kept apart in the cache
(`<release>/exec/`); a behaviour with `method = "prompt-input"` or
`"exec"` is observed by that method at every release.
`--compare-methods VERSION` observes every Codex case of a profiled
release through `codex exec` and compares each with the committed
`codex debug prompt-input` observation (`codex.methods.json`); with
`--case ID`, only that case, added to the release's row.

`--changes CASE ASPECT FROM TO` finds every release from FROM to TO at
which a part of one case's observation changes, not one behaviour: it
observes every `--every`-th release (4), then halves each two neighbours
that differ until they are adjacent (`<agent>.changes.json`). With the
case `_bundled` (an empty repository) it measures what a release lists of
its own, release by release (Claude Code's bundled skills, which take
their room in the skill listing's budget).

`--unexplained` lists, for the agent's two profiled releases, each case
and aspect whose recorded observations differ and that no behaviour
names: each is a behaviour still to declare.

Python 3.11 standard library plus the recorder (`record.py`, beside it).
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import record  # noqa: E402

ROOT = record.ROOT
BEHAVIOURS = ROOT / "oracle" / "bisect" / "behaviours.toml"
RESULTS = ROOT / "oracle" / "bisect"
CACHE = record.CACHE / "bisect"

# The platform package that carries each agent's executable: a release
# published without it for this platform installs, but cannot run (npm
# leaves the optional dependency out), and is left out of every search.
PLATFORM = {
    "claude-code": "node_modules/@anthropic-ai/claude-code-linux-x64",
    "codex": "node_modules/@openai/codex-linux-x64",
    "gemini": "node_modules/@google/gemini-cli",
    "copilot": "node_modules/@github/copilot-linux-x64",
    "opencode": "node_modules/opencode-linux-x64",
}

# Older releases carry the executable in the package itself: Claude Code
# up to 2.1.1xx one JavaScript file (`cli.js`), Codex up to 0.9x a vendored
# binary per platform.
EMBEDDED = {
    "claude-code": "node_modules/@anthropic-ai/claude-code/cli.js",
    "codex": "node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex",
    # Copilot CLI's JavaScript, run on the recorder's pinned Node.js.
    "copilot": "node_modules/@github/copilot/index.js",
}


def log(msg):
    record.log(msg)


def version_key(v):
    """Numeric sort key of a release version (`2.1.9` < `2.1.10`)."""
    return [int(p) for p in v.split("-")[0].split("+")[0].split(".")]


def published(agent):
    """The agent's published releases, oldest first, without pre-releases
    (`npm view`, cached in the recorder's cache)."""
    path = CACHE / f"versions-{agent}.json"
    if not path.exists():
        pkg = record.AGENTS[agent]["package"]
        out = subprocess.run(["npm", "view", pkg, "versions", "--json"], check=True,
                             capture_output=True, text=True, timeout=120).stdout
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out)
    versions = json.loads(path.read_text())
    return sorted((v for v in versions if "-" not in v and "+" not in v), key=version_key)


def window(agent, old, new):
    """The published releases from `old` to `new`, both included."""
    lo, hi = version_key(old), version_key(new)
    return [v for v in published(agent) if lo <= version_key(v) <= hi]


def load_behaviours():
    return tomllib.loads(BEHAVIOURS.read_text()).get("behaviour", [])


def part(obs, aspect):
    """The part of an observation at the dotted path `aspect` (None when
    absent)."""
    for key in aspect.split("."):
        if not isinstance(obs, dict):
            return None
        obs = obs.get(key)
    return obs


def as_text(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# The pseudo-case of an empty repository: what the agent lists of its own
# (`_bundled.json`), observed like a case.
BUNDLED = "_bundled"


# The releases this run installed that no profile names: removed at its
# end (their observations stay in the cache), to spare the disk.
INSTALLED = set()


def remove_installs():
    for agent, version in sorted(INSTALLED):
        subprocess.run(["rm", "-rf", str(record.install_dir(agent, version))], check=True)
    INSTALLED.clear()


class Oracle:
    """Installs releases and observes cases, once each, counting both."""

    def __init__(self, agent):
        self.agent = agent
        self.installs = 0
        self.runs = 0
        self.cases = {c["id"]: c for c in record.load_cases()}
        # Releases found without the platform executable: not installed
        # again.
        self.unrunnable = set()

    def exe(self, version):
        if not record.executable(self.agent, version).exists():
            self.installs += 1
            if version not in record.profiled_versions(self.agent):
                INSTALLED.add((self.agent, version))
        return record.install(self.agent, version)

    def runnable(self, version, case=None):
        """True when `version` installs with its platform executable (or,
        without installing, when `case` was observed with it before)."""
        if case and self.cached(version, case).exists():
            return True
        if version in self.unrunnable:
            return False
        try:
            self.exe(version)
        except (SystemExit, subprocess.CalledProcessError) as e:
            # npm leaves out a platform package that was not published, or
            # fails (OpenCode 1.17.15's installer asks for one never published).
            log(str(e))
        d = record.install_dir(self.agent, version)
        embedded = EMBEDDED.get(self.agent)
        ok = (d / PLATFORM[self.agent]).is_dir() or bool(embedded and (d / embedded).exists())
        if not ok:
            self.unrunnable.add(version)
        return ok

    def recorded(self, version, case):
        """The committed observation of a profiled release, if any."""
        path = record.OBSERVATIONS / self.agent / version / f"{case}.json"
        return json.loads(path.read_text()) if path.exists() else None

    def cached(self, version, case):
        """Where the observation of `case` with `version` is kept: a Codex
        release observed through `codex exec` ([`record.codex_method`])
        in a folder `exec` of its own, apart from its `codex debug
        prompt-input` observations."""
        d = CACHE / self.agent / version
        if self.agent == "codex" and record.codex_method(version) == record.EXEC:
            d = d / record.EXEC
        return d / f"{case}.json"

    def observe(self, version, case):
        """The observation of `case` with `version`: committed, cached, or
        run now (inside `unshare -n`, under `nice -n 10`)."""
        obs = self.recorded(version, case)
        if obs is not None:
            return obs
        return self.run(version, case)

    def run(self, version, case):
        """The observation of `case` with `version`, cached, or run now."""
        path = self.cached(version, case)
        if not path.exists():
            self.exe(version)
            if case not in self.cases and case != BUNDLED:
                sys.exit(f"no case {case} in {record.MANIFEST}")
            cmd = ["nice", "-n", "10", "unshare", "-n", sys.executable, str(Path(__file__).resolve()),
                   "--inside", self.agent, version, case]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=600).stdout
            self.runs += 1
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(out)
        return json.loads(path.read_text())

    def code_dirs(self, version):
        """The folders holding the installed release's code: the package,
        and for Copilot CLI the files its executable unpacks on its first
        start (`~/.cache/copilot/pkg/`, compressed inside the executable
        until then), unpacked once by `copilot --version` with a home in
        the install folder, inside `unshare -n`."""
        d = record.install_dir(self.agent, version)
        exe = self.exe(version)
        if self.agent != "copilot" or str(exe).endswith(".js"):
            return [d / "node_modules"]
        home = d / "unpacked-home"
        pkg = home / ".cache" / "copilot" / "pkg"
        if not pkg.is_dir():
            home.mkdir(exist_ok=True)
            env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            subprocess.run(["nice", "-n", "10", "unshare", "-n", str(exe), "--version"], env=env,
                           cwd=home, capture_output=True, timeout=300)
        return [d / "node_modules", pkg]

    def code_holds(self, version, strings):
        """For each string, whether a file of the installed release's code
        holds it."""
        dirs = [str(p) for p in self.code_dirs(version) if p.is_dir()]
        found = {}
        for s in strings:
            r = subprocess.run(["grep", "-r", "-l", "-F", "-a", "-m", "1", "--", s, *dirs],
                               capture_output=True, timeout=600)
            found[s] = r.returncode == 0
        return found


def shows(oracle, b, version):
    """(does `version` show behaviour `b`, the evidence seen)."""
    present, absent = b.get("present", []), b.get("absent", [])
    ordered = b.get("ordered", [])
    if b.get("probe") == "code":
        found = oracle.code_holds(version, present + absent)
        ok = all(found[s] for s in present) and not any(found[s] for s in absent)
        return ok, {"codeHolds": found}
    seen = part(oracle.observe(version, b["case"]), b["aspect"])
    text = as_text(seen)
    at_least = b.get("at_least", {})
    if present or absent or ordered or at_least:
        ok = all(s in text for s in present) and not any(s in text for s in absent) \
            and in_order(text, ordered) and all(text.count(s) >= n for s, n in at_least.items())
    else:
        ok = text == as_text(part(oracle.recorded(b["to"], b["case"]), b["aspect"]))
    return ok, seen


def in_order(text, strings):
    """True when `text` holds each of `strings`, each after the one
    before (a listing's order)."""
    at = 0
    for s in strings:
        i = text.find(s, at)
        if i < 0:
            return False
        at = i + len(s)
    return True


def publish_times(agent):
    """The publish time of each release (`npm view PKG time --json`,
    cached in the recorder's cache): version -> ISO 8601 text."""
    path = CACHE / f"time-{agent}.json"
    if not path.exists():
        pkg = record.AGENTS[agent]["package"]
        out = subprocess.run(["npm", "view", pkg, "time", "--json"], check=True,
                             capture_output=True, text=True, timeout=120).stdout
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out)
    return json.loads(path.read_text())


def release_dates(agent):
    """Each release's date, version -> ISO 8601 text: the agent's own
    changelog's (`<agent>.dates.json`, `--changelog-dates`) where it was
    written, a release it does not date left out; else npm's publish
    times. npm's times do not follow the version order where releases
    were published again (Copilot CLI 0.0.340 carries 2026-09-22)."""
    path = RESULTS / f"{agent}.dates.json"
    if path.exists():
        return json.loads(path.read_text())["dates"]
    return publish_times(agent)


def window_start(b):
    """A `window_start` behaviour with `published_since = DATE`: the first
    release of the twelve months, the oldest from which every later
    release was published on or after DATE, observed once to show that the
    recorder observes it (the predicate must hold there); no search."""
    oracle = Oracle(b["agent"])
    started = time.monotonic()
    times = release_dates(b["agent"])
    releases = published(b["agent"])
    since = b["published_since"]
    first = next(i for i in range(len(releases))
                 if all(times[v] >= since for v in releases[i:] if v in times))
    ok, seen = shows(oracle, b, releases[first])
    before = releases[first - 1] if first else None
    if not ok:
        return {"id": b["id"], "fact": b["fact"], "error":
                f"the recorder does not observe {releases[first]}, the first release since {since}"}
    return {
        "id": b["id"], "fact": b["fact"], "modelled": True, "witness": b.get("case"),
        "aspect": b.get("aspect"), "present": b.get("present", []), "absent": b.get("absent", []),
        **({"ordered": b["ordered"]} if "ordered" in b else {}),
        "firstRelease": releases[first], "lastWithout": before, "publishedSince": since,
        "datesFrom": "changelog" if (RESULTS / f"{b['agent']}.dates.json").exists() else "npm",
        "published": {v: times.get(v) for v in filter(None, [before, releases[first]])},
        "releasesBetween": 0, "installs": oracle.installs, "installBound": 2,
        "runs": oracle.runs, "seconds": round(time.monotonic() - started),
        "probes": [{"release": releases[first], "shows": ok}], "unrunnable": [],
        "observation": seen, "before": None,
    }


def bisect(b):
    """Binary search of behaviour `b` over its window; returns the result
    record (see the module doc). A behaviour with `published_since` is the
    window's first release by publish time ([`window_start`]). A Codex
    behaviour with `method` (`prompt-input` or `exec`) is observed by that
    method at every release ([`record.codex_method`])."""
    if "published_since" in b:
        return window_start(b)
    if b.get("method"):
        os.environ["ORACLE_CODEX_METHOD"] = b["method"]
    try:
        return search(b)
    finally:
        os.environ.pop("ORACLE_CODEX_METHOD", None)


def search(b):
    """The binary search of [`bisect`]."""
    oracle = Oracle(b["agent"])
    started = time.monotonic()
    releases = window(b["agent"], b["from"], b["to"])
    lo, hi = 0, len(releases) - 1
    lo_ok, lo_seen = shows(oracle, b, releases[lo])
    hi_ok, hi_seen = shows(oracle, b, releases[hi])
    probes = [{"release": releases[lo], "shows": lo_ok}, {"release": releases[hi], "shows": hi_ok}]
    if lo_ok or not hi_ok:
        return {"id": b["id"], "fact": b["fact"], "error":
                f"the predicate does not split the ends: {b['from']} shows it: {lo_ok}, {b['to']}: {hi_ok}"}
    unrunnable = []
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if not oracle.runnable(releases[mid], b.get("case")):
            log(f"{b['id']}: {releases[mid]} has no executable for this platform; left out")
            unrunnable.append(releases.pop(mid))
            hi -= 1
            continue
        ok, seen = shows(oracle, b, releases[mid])
        log(f"{b['id']}: {releases[mid]} {'shows' if ok else 'does not show'} it")
        probes.append({"release": releases[mid], "shows": ok})
        if ok:
            hi, hi_seen = mid, seen
        else:
            lo, lo_seen = mid, seen
    return {
        "id": b["id"], "fact": b["fact"], "modelled": b.get("modelled", True),
        "witness": b.get("case", "code"),
        "aspect": b.get("aspect"), "present": b.get("present", []), "absent": b.get("absent", []),
        **({"ordered": b["ordered"]} if "ordered" in b else {}),
        **({"atLeast": b["at_least"]} if "at_least" in b else {}),
        "firstRelease": releases[hi], "lastWithout": releases[lo],
        "releasesBetween": len(releases) - 2,
        "installs": oracle.installs, "installBound": math.ceil(math.log2(max(len(releases) - 2, 1))) + 2,
        "runs": oracle.runs, "seconds": round(time.monotonic() - started),
        "probes": probes, "unrunnable": unrunnable, "observation": hi_seen, "before": lo_seen,
    }


def write_results(agent, results):
    path = RESULTS / f"{agent}.json"
    old = json.loads(path.read_text()) if path.exists() else {"agent": agent, "behaviours": []}
    keep = {r["id"]: r for r in old["behaviours"]}
    keep.update({r["id"]: r for r in results})
    order = [b["id"] for b in load_behaviours() if b["agent"] == agent]
    old["behaviours"] = [keep[i] for i in order if i in keep]
    record.write_json(path, old)


def unexplained(agent):
    """Cases and aspects whose recorded observations differ between the
    agent's two profiled releases and that no behaviour names."""
    old, new = record.profiled_versions(agent)[:2]
    named = {(b.get("case"), b.get("aspect")) for b in load_behaviours() if b["agent"] == agent}
    base = record.OBSERVATIONS / agent
    for f in sorted((base / old).glob("*.json")):
        other = base / new / f.name
        if not other.exists():
            continue
        a, b = json.loads(f.read_text()), json.loads(other.read_text())
        for aspect in differing(a, b):
            if (f.stem, aspect) not in named:
                print(f"{f.stem}\t{aspect}")


def differing(a, b, path=""):
    """The dotted paths below which `a` and `b` differ (leaves or lists).
    An absent part and an empty list are the same observation: nothing
    listed (the recorder writes `subagentsListed` of Gemini CLI as an
    empty list today, and left it out of older recordings)."""
    if a in (None, []) and b in (None, []):
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k != "version":
                out += differing(a.get(k), b.get(k), f"{path}.{k}" if path else k)
        return out
    if {type(a), type(b)} <= {type(None), list} and not a and not b:
        return []
    return [path] if a != b else []


def expects(b, v, done):
    """Whether release `v` should show behaviour `b` by the bisected
    boundaries (`done`: id -> result): from its first release on, and,
    with `also = [ON, OFF]` (two behaviour ids), from ON's first release
    to the one before OFF's too (a behaviour that came early for a few
    releases and went again)."""
    first = done.get(b["id"], {}).get("firstRelease")
    on = first is not None and version_key(v) >= version_key(first)
    if "also" in b:
        start, end = (done.get(i, {}).get("firstRelease") for i in b["also"])
        on = on or (start is not None and end is not None
                    and version_key(start) <= version_key(v) < version_key(end))
    return on


def recheck(agent):
    """Recomputes `agrees` of each row of `<agent>.sample.json` from the
    behaviours and their results as they are now (no run)."""
    path = RESULTS / f"{agent}.sample.json"
    doc = json.loads(path.read_text())
    done = {r["id"]: r for r in json.loads((RESULTS / f"{agent}.json").read_text())["behaviours"]}
    by_id = {b["id"]: b for b in load_behaviours()}
    for row in doc["checks"]:
        if "shows" in row:
            row["agrees"] = row["shows"] == expects(by_id[row["behaviour"]], row["release"], done)
    record.write_json(path, doc)


def sample(agent, count, only=None):
    """Checks every behaviour of `agent` (or only the ids of `only`, the
    rows of the others kept) at `count` releases spread evenly over its
    window; prints each release that contradicts the boundary. A row of a
    behaviour seen on a case keeps the case's whole observation
    (`observed`): the differential test compares the adapter at that
    release with it. Goes release by release, all the behaviours that
    picked a release at once, and removes each installed release once
    checked (its observations stay in the cache); the results are written
    after each release."""
    oracle = Oracle(agent)
    done = {r["id"]: r for r in json.loads((RESULTS / f"{agent}.json").read_text())["behaviours"]}
    path = RESULTS / f"{agent}.sample.json"
    old = json.loads(path.read_text()) if only and path.exists() else {}
    kept = [r for r in old.get("checks", []) if r["behaviour"] not in only]
    # The counts of the runs before this one, added to this run's.
    before = {k: old.get(k, 0) for k in ("installs", "runs")}
    by_release = {}
    for b in (b for b in load_behaviours()
              if b["agent"] == agent and b["id"] in done and "published_since" not in b
              and (not only or b["id"] in only)):
        releases = window(agent, b["from"], b["to"])
        step = max((len(releases) - 1) / (count - 1), 1)
        for i in range(count):
            if round(i * step) < len(releases):
                picked = by_release.setdefault(releases[round(i * step)], [])
                if b not in picked:
                    picked.append(b)
    rows = []
    for v in sorted(by_release, key=version_key):
        for b in by_release[v]:
            first = done[b["id"]].get("firstRelease")
            if not oracle.runnable(v, b.get("case")):
                rows.append({"behaviour": b["id"], "release": v, "unrunnable": True})
                continue
            ok, _ = shows(oracle, b, v)
            expected = expects(b, v, done)
            row = {"behaviour": b["id"], "release": v, "shows": ok, "agrees": ok == expected}
            if b.get("case"):
                row.update(case=b["case"], observed=oracle.observe(v, b["case"]))
            rows.append(row)
            if ok != expected:
                log(f"{b['id']}: {v} contradicts the boundary {first}")
        log(f"{agent} {v}: checked {len(by_release[v])} behaviours")
        remove_installs()
        record.write_json(path, {"agent": agent, "installs": before["installs"] + oracle.installs,
                                 "runs": before["runs"] + oracle.runs, "checks": kept + rows})


# Cases sampled before the profiled window besides those the behaviours
# name: features a release may lack altogether (rules and imports, MCP
# servers of `.mcp.json`).
OLDER_CASES = {
    "claude-code": ["claude.c12_rule_imports", "claude.c03_mcp_json_ancestors"],
    # Codex: the chain of AGENTS.md files below the root with its budget,
    # the project configuration's trust gate (and its MCP server), skills
    # of the same name in two folders.
    "codex": ["codex.fr12_budget_shared_across_chain.in-apps-go",
              "codex.fr16_project_config_needs_trust", "codex.duplicate_skill_names"],
    # OpenCode has one profile and no behaviour: one case per surface
    # (instruction files and on-demand rules, configured instructions,
    # agents and commands, MCP servers, skills).
    "opencode": ["opencode.fallback_levels.in-a-b", "opencode.fallback_levels.read-a-b-c-d-x.ts",
                 "opencode.instruction_sources", "opencode.agents_and_commands",
                 "opencode.mcp_layers", "opencode.duplicate_skill_names"],
    # Copilot CLI: the instruction chain at the root and below it.
    "copilot": ["copilot.instruction_chain", "copilot.instruction_chain.in-a-b"],
}


def sample_older(agent, start, count, until=None):
    """Observes the behaviours' cases (and `OLDER_CASES`) at `count`
    releases spread evenly from `start` to the agent's oldest profiled
    release (or to `until`, the release the window starts at, for a
    denser sample before it), and compares each observation with the one recorded for that
    profile, which every one of them maps to: each differing aspect is a
    behaviour still to declare and bisect. Writes
    `oracle/bisect/<agent>.older.json`; an installed release is removed
    once observed (its observations stay in the cache)."""
    oracle = Oracle(agent)
    oldest = record.profiled_versions(agent)[0]
    releases = window(agent, start, until or oldest)
    step = max((len(releases) - 1) / (count - 1), 1)
    picks = sorted({releases[min(round(i * step), len(releases) - 1)] for i in range(count)},
                   key=version_key)
    cases = sorted({b["case"] for b in load_behaviours() if b["agent"] == agent and "case" in b}
                   | set(OLDER_CASES.get(agent, [])))
    rows = []
    for v in picks:
        row = {"release": v}
        if v != oldest and not oracle.runnable(v, cases[0]):
            row["unrunnable"] = True
        else:
            row["differs"] = {}
            observed = {}
            for case in cases:
                try:
                    seen = oracle.observe(v, case)
                    aspects = differing(seen, oracle.recorded(oldest, case))
                    observed[case] = seen
                except subprocess.CalledProcessError as e:
                    aspects = [f"error: {e.returncode}"]
                if aspects:
                    row["differs"][case] = aspects
            if within_window(agent, v) and v != oldest:
                row["observed"] = observed
        rows.append(row)
        log(f"{agent} {v}: {json.dumps(row)}")
        remove_installs()
        write_older(agent, {"agent": agent, "window": [start, until or oldest], "profile": oldest, "cases": cases,
                            "installs": oracle.installs, "runs": oracle.runs, "releases": rows})


def within_window(agent, version):
    """True when `version` is at or after the agent's modelled window's
    start (`window_start` in `<agent>.json`): its observations are kept in
    `<agent>.older.json` (`observed`), and the differential test compares
    the adapter at that release with each (a case without a home)."""
    path = RESULTS / f"{agent}.json"
    done = json.loads(path.read_text())["behaviours"] if path.exists() else []
    start = next((b["firstRelease"] for b in done if b.get("fact") == "window_start"), None)
    return start is not None and version_key(version) >= version_key(start)


def change_points(agent, case, aspect, start, end, every):
    """Every release from `start` to `end` at which the part `aspect` of
    the observation of `case` (`_bundled`: an empty repository) changes:
    the releases observed first are every `every`-th of the window and its
    last; each two neighbours whose parts differ are halved until they are
    adjacent, so a change costs about log2(every) installs more. A change
    between two differing neighbours that a release in the middle hides
    (a part that comes and goes back) is found only when that release
    differs from both. Writes `oracle/bisect/<agent>.changes.json`, merged
    by (case, aspect, window), so windows searched apart are kept: each change's first release, the release before,
    and the part at both; the releases observed and the counts."""
    oracle = Oracle(agent)
    started = time.monotonic()
    releases = window(agent, start, end)
    picks = list(range(0, len(releases), every))
    if picks[-1] != len(releases) - 1:
        picks.append(len(releases) - 1)
    seen, unrunnable = {}, []

    def at(i):
        v = releases[i]
        if v not in seen:
            if not oracle.runnable(v, case):
                unrunnable.append(v)
                seen[v] = None
            else:
                seen[v] = part(oracle.observe(v, case), aspect)
                log(f"{case} {v}: {len(as_text(seen[v]))} characters")
            remove_installs()
        return seen[v]

    changes = []

    def halve(i, j):
        if as_text(at(i)) == as_text(at(j)):
            return
        if j - i == 1:
            changes.append({"release": releases[j], "lastWithout": releases[i],
                            "before": at(i), "observation": at(j)})
            return
        mid = (i + j) // 2
        if at(mid) is None:
            return halve(i, mid - 1) if mid - 1 > i else halve(mid + 1, j)
        halve(i, mid)
        halve(mid, j)

    picks = [i for i in picks if at(i) is not None]
    for i, j in zip(picks, picks[1:]):
        halve(i, j)
    run = {"case": case, "aspect": aspect, "window": [start, end], "every": every,
           "observed": sorted(seen, key=version_key), "unrunnable": unrunnable,
           "installs": oracle.installs, "runs": oracle.runs,
           "seconds": round(time.monotonic() - started),
           "changes": sorted(changes, key=lambda c: version_key(c["release"]))}
    path = RESULTS / f"{agent}.changes.json"
    doc = json.loads(path.read_text()) if path.exists() else {"agent": agent, "searches": []}
    key = (case, aspect, [start, end])
    doc["searches"] = [r for r in doc["searches"]
                       if (r["case"], r["aspect"], r["window"]) != key] + [run]
    doc["searches"].sort(key=lambda r: (r["case"], r["aspect"], version_key(r["window"][0])))
    record.write_json(path, doc)
    remove_installs()


def changelog_dates(agent, changelog, as_of):
    """Writes `oracle/bisect/<agent>.dates.json`: the release date of each
    published release as the agent's own changelog gives it (`## VERSION
    - YYYY-MM-DD` headings, as in github/copilot-cli's `changelog.md`),
    and `asOf`, the day the window of the last twelve months ends. npm's
    publish times cannot give those dates: re-publications moved them
    (Copilot CLI 0.0.376 carries 2026-09-23, 1.0.11 2026-04-12)."""
    dates = {}
    for line in Path(changelog).read_text().splitlines():
        if line.startswith("## ") and " - " in line:
            version, day = line[3:].split(" - ", 1)
            dates[version.strip()] = day.strip()
    releases = published(agent)
    record.write_json(RESULTS / f"{agent}.dates.json", {
        "agent": agent, "asOf": as_of, "source": "changelog",
        "dates": {v: dates[v] for v in releases if v in dates},
        "undated": [v for v in releases if v not in dates]})


def write_older(agent, doc):
    """Writes `<agent>.older.json`, merged with the runs before it against
    the same profile (a denser sample of part of the window, or one before
    it with `--until`): the releases of all, each run's window, cases and
    counts in `samples`, the earliest start and latest end, the cases of
    all, the counts added."""
    path = RESULTS / f"{agent}.older.json"
    old = json.loads(path.read_text()) if path.exists() else None
    run = {"window": doc["window"], "installs": doc["installs"], "runs": doc["runs"]}
    if not old or old["profile"] != doc["profile"]:
        record.write_json(path, {**doc, "samples": [run | {"cases": doc["cases"]}]})
        return
    run["cases"] = doc["cases"]
    first = {k: old[k] for k in ("window", "installs", "runs", "cases")}
    samples = [r for r in old.get("samples", [first]) if r["window"] != run["window"]] + [run]
    mine = {r["release"] for r in doc["releases"]}
    rows = [r for r in old["releases"] if r["release"] not in mine] + doc["releases"]
    record.write_json(path, {
        **doc, "cases": sorted({c for r in samples for c in r.get("cases", old["cases"])}),
        "window": [min((r["window"][0] for r in samples), key=version_key),
                          max((r["window"][1] for r in samples), key=version_key)],
        "installs": sum(r["installs"] for r in samples), "runs": sum(r["runs"] for r in samples),
        "releases": sorted(rows, key=lambda r: version_key(r["release"])), "samples": samples})


def compare_methods(version, only=None):
    """Observes every Codex case of `oracle/cases.toml` with `version`
    through `codex exec` (the method of the releases before
    `codex debug prompt-input`) and compares each observation with the
    one committed for that release, recorded with `codex debug
    prompt-input`: the cases on which the two methods agree, and for each
    other case the aspects that differ. Writes
    `oracle/bisect/codex.methods.json`, merged by release. With `only`
    (case ids new since the release's row was written), only those are
    compared and added to the row, its counts included."""
    os.environ["ORACLE_CODEX_METHOD"] = record.EXEC
    oracle = Oracle("codex")
    started = time.monotonic()
    cases = [c["id"] for c in record.load_cases() if "codex" in c.get("agents", list(record.AGENTS))
             and (not only or c["id"] in only)]
    differs, worded, unobserved, same, failed = {}, {}, {}, [], {}
    for case in cases:
        recorded = oracle.recorded(version, case)
        if recorded is None:
            continue
        try:
            seen = oracle.run(version, case)
        except subprocess.CalledProcessError as e:
            failed[case] = e.returncode
            continue
        aspects = differing(seen, recorded)
        # The approval policy of a case with a home: `codex exec` runs
        # with its own, so the exec method does not record `permissions`.
        left_out = [a for a in aspects if a.endswith(".permissions") and part(seen, a) is None]
        if left_out:
            unobserved[case] = left_out
            aspects = [a for a in aspects if a not in left_out]
        # A refusal both methods show with the same exit status, worded by
        # each command in its own way: `codex exec` prints the error's
        # message after `Error loading config.toml: `, `codex debug
        # prompt-input` the error with its file, line and causes.
        wording = [a for a in aspects if a.endswith(".stderr")
                   and a.removesuffix("stderr") + "exit" not in aspects]
        if wording:
            worded[case] = wording
        if set(aspects) - set(wording):
            differs[case] = [a for a in aspects if a not in wording]
        elif not aspects and case not in unobserved:
            same.append(case)
        log(f"codex {version} {case}: {aspects or 'same'}")
    path = RESULTS / "codex.methods.json"
    doc = json.loads(path.read_text()) if path.exists() else {"agent": "codex", "releases": []}
    row = {"release": version, "method": record.EXEC, "against": record.PROMPT_INPUT,
           "cases": len(same) + len(set(worded) | set(differs) | set(unobserved)),
           "identical": len(same), "refusalWording": worded, "permissionsNotObserved": unobserved,
           "differs": differs,
           "failed": failed, "runs": oracle.runs, "seconds": round(time.monotonic() - started)}
    if only:
        row = merged_methods_row(doc, version, row, only)
    doc["releases"] = sorted([r for r in doc["releases"] if r["release"] != version] + [row],
                             key=lambda r: version_key(r["release"]))
    record.write_json(path, doc)


def merged_methods_row(doc, version, row, only):
    """The release's row of `doc` (`codex.methods.json`) with `row`, the
    comparison of the new cases `only`, added to it: counts summed, the
    cases' entries joined. Exits when the row names one of them already
    (a case compared before is compared again by a whole run)."""
    old = next((r for r in doc["releases"] if r["release"] == version), None)
    if old is None:
        sys.exit(f"codex {version}: no row to add cases to; compare every case")
    named = set(old["refusalWording"]) | set(old["permissionsNotObserved"]) | set(old["differs"])
    if named & set(only):
        sys.exit(f"codex {version}: {sorted(named & set(only))} compared before")
    out = dict(old)
    for k in ("cases", "identical", "runs", "seconds"):
        out[k] = old[k] + row[k]
    for k in ("refusalWording", "permissionsNotObserved", "differs", "failed"):
        out[k] = {**old[k], **row[k]}
    return out


def inside(agent, version, case_id):
    """In the namespace: one observation, printed as JSON."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
    exe = record.executable(agent, version)
    if case_id == BUNDLED:
        print(json.dumps(record.bundled_baseline(agent, version, exe), ensure_ascii=False))
        return
    case = next(c for c in record.load_cases() if c["id"] == case_id)
    base = None
    if agent not in ("opencode", "copilot"):
        cached = Oracle(agent).cached(version, "_bundled")
        if cached.exists():
            base = json.loads(cached.read_text())
        else:
            base = record.bundled_baseline(agent, version, exe)
            record.write_json(cached, base)
    obs, skipped = record.observe(agent, version, exe, case, base)
    if skipped:
        sys.exit(skipped)
    print(json.dumps(obs, ensure_ascii=False))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--agent", choices=list(record.AGENTS))
    p.add_argument("--behaviour", action="append", help="behaviour id (repeatable)")
    p.add_argument("--unexplained", action="store_true")
    p.add_argument("--sample", type=int, metavar="N")
    p.add_argument("--recheck", action="store_true",
                   help="recompute the agreement of <agent>.sample.json from the results (no run)")
    p.add_argument("--older", metavar="START",
                   help="with --sample: sample from START to the oldest profiled release")
    p.add_argument("--compare-methods", metavar="VERSION",
                   help="Codex: observe every case of VERSION through `codex exec` and compare "
                        "with its committed `codex debug prompt-input` observations")
    p.add_argument("--until", metavar="END",
                   help="with --older: sample up to END instead of the oldest profiled release")
    p.add_argument("--changelog-dates", nargs=2, metavar=("CHANGELOG", "AS_OF"),
                   help="with --agent: write <agent>.dates.json from the agent's changelog "
                        "(release dates) for the twelve months before AS_OF (YYYY-MM-DD)")
    p.add_argument("--case", action="append",
                   help="with --compare-methods: compare only this case, new since the "
                        "release was compared, and add it to its row (repeatable)")
    p.add_argument("--changes", nargs=4, metavar=("CASE", "ASPECT", "FROM", "TO"),
                   help="with --agent: every release from FROM to TO at which the part ASPECT of "
                        "CASE's observation changes (CASE `_bundled`: an empty repository)")
    p.add_argument("--every", type=int, default=4, metavar="K",
                   help="with --changes: observe every K-th release first (default 4)")
    p.add_argument("--inside", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.inside:
        inside(*args.inside)
        return
    if args.changelog_dates:
        changelog_dates(args.agent, *args.changelog_dates)
        return
    if args.changes:
        change_points(args.agent, *args.changes, args.every)
        return
    if args.compare_methods:
        compare_methods(args.compare_methods, args.case)
        return
    if args.recheck:
        recheck(args.agent)
        return
    if args.unexplained or args.sample:
        if not args.agent:
            p.error("--unexplained and --sample need --agent")
        if args.unexplained:
            unexplained(args.agent)
        elif args.older:
            sample_older(args.agent, args.older, args.sample, args.until)
        else:
            sample(args.agent, args.sample, args.behaviour)
            remove_installs()
        return
    todo = [b for b in load_behaviours()
            if (not args.agent or b["agent"] == args.agent)
            and (not args.behaviour or b["id"] in args.behaviour)]
    by_agent = {}
    for b in todo:
        r = bisect(b)
        log(f"{b['id']}: {json.dumps({k: r.get(k) for k in ('firstRelease', 'installs', 'runs', 'seconds', 'error')})}")
        by_agent.setdefault(b["agent"], []).append(r)
        write_results(b["agent"], by_agent[b["agent"]])
    remove_installs()


if __name__ == "__main__":
    main()

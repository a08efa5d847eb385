#!/usr/bin/env python3
"""Tests of the fuzzer's generator and shrinker (no agent runs):
`python3 -m unittest discover -s scripts/oracle -p 'test_*.py'`."""

import hashlib
import json
import os
import tempfile
import unittest
from pathlib import Path

import fuzz


def digest(root):
    """Every path, link target and file's bytes under `root`, hashed."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            h.update(str(p.relative_to(root)).encode())
            if p.is_symlink():
                h.update(b"->" + os.readlink(p).encode())
            elif p.is_file():
                h.update(p.read_bytes())
    return h.hexdigest()


class Generator(unittest.TestCase):
    def test_same_seed_same_tree_byte_for_byte(self):
        with tempfile.TemporaryDirectory() as tmp:
            for agent in fuzz.FOCUS:
                for seed in range(40):
                    a, b = Path(tmp, f"{agent}{seed}a"), Path(tmp, f"{agent}{seed}b")
                    fuzz.write_tree(fuzz.generate(agent, seed), a)
                    fuzz.write_tree(fuzz.generate(agent, seed), b)
                    self.assertEqual(digest(a), digest(b), f"{agent} seed {seed}")
                    self.assertEqual(fuzz.generate(agent, seed), fuzz.generate(agent, seed))

    def test_seeds_differ_and_cover_the_grammar(self):
        trees = [fuzz.generate("claude-code", s) for s in range(300)]
        self.assertGreater(len({repr(t) for t in trees}), 290)
        paths = [p for t in trees for p in t["files"]]
        texts = [v for t in trees for v in t["files"].values() if isinstance(v, str)]
        for needle in ["CLAUDE.local.md", ".claude/CLAUDE.md", "AGENTS.override.md",
                       ".claude/rules/", "SKILL.md", ".mcp.json", ".claude/settings.json"]:
            self.assertTrue(any(needle in p for p in paths), needle)
        self.assertTrue(any(t.startswith("\ufeff") for t in texts))
        self.assertTrue(any("\r\n" in t for t in texts))
        self.assertTrue(any(t == "" for t in texts))
        self.assertTrue(any(t and not t.strip() for t in texts))
        self.assertTrue(any(isinstance(v, dict) for t in trees for v in t["files"].values()))
        self.assertTrue(any(t["submodules"] for t in trees))
        self.assertTrue(any(t["cwd"] != "." for t in trees))
        self.assertTrue(any(t["target"] for t in trees))

    def test_every_tree_is_consistent(self):
        for agent in fuzz.FOCUS:
            for seed in range(200):
                t = fuzz.generate(agent, seed)
                self.assertEqual(fuzz.normalized(t), t, f"{agent} {seed}")


class HomeGenerator(unittest.TestCase):
    def test_the_repository_is_the_seeds_and_the_home_is_the_same_each_time(self):
        for agent in fuzz.FOCUS:
            for seed in range(40):
                t = fuzz.generate_home(agent, seed)
                self.assertEqual(t, fuzz.generate_home(agent, seed))
                self.assertEqual({k: v for k, v in t.items() if k != "home"},
                                 fuzz.generate(agent, seed), f"{agent} {seed}")
                self.assertEqual(fuzz.normalized(t), t, f"{agent} {seed}")

    def test_each_agent_gets_the_user_files_it_reads(self):
        wanted = {"claude-code": [".claude/CLAUDE.md", ".claude/rules/", ".claude/skills/",
                                  ".claude.json", ".claude/settings.json", ".claude/agents/"],
                  "codex": [".codex/AGENTS.md", ".codex/AGENTS.override.md",
                            ".codex/config.toml", ".codex/skills/", ".agents/skills/"],
                  "opencode": [".config/opencode/AGENTS.md", ".config/opencode/opencode.json",
                               ".config/opencode/skills/", ".claude/CLAUDE.md"],
                  "gemini": [".gemini/GEMINI.md", ".gemini/settings.json", ".gemini/skills/",
                             ".agents/skills/"],
                  "copilot": [".copilot/copilot-instructions.md", ".copilot/instructions/",
                              ".copilot/skills/", ".copilot/mcp-config.json", ".copilot/agents/"]}
        for agent, needles in wanted.items():
            paths = [p for s in range(200) for p in fuzz.generate_home(agent, s)["home"]]
            for needle in needles:
                self.assertTrue(any(p.startswith(needle) for p in paths), f"{agent} {needle}")
        servers = [fuzz.generate_home("claude-code", s)["home"].get(".claude.json", "")
                   for s in range(100)]
        self.assertTrue(any('"@REPO@"' in t for t in servers), "a project entry of ~/.claude.json")

    def test_a_home_case_names_its_home(self):
        fuzz.HOME = True
        try:
            self.assertEqual(fuzz.case_id("codex", 7), "fuzz.codex.home.7")
            self.assertEqual(fuzz.report_path(Path("r"), "codex", "1.0"),
                             Path("r/codex/1.0.home.json"))
            tree = fuzz.tree_of("codex", 7)
        finally:
            fuzz.HOME = False
        self.assertEqual(fuzz.case_id("codex", 7), "fuzz.codex.7")
        case = fuzz.case_of(tree, "fuzz.codex.home.7", "codex", "/f", "/h")
        self.assertIn('home = "/h"', fuzz.toml_case(case))


def fake_outcomes(agent, lo, hi):
    """Disagreement rows as a comparison would give them, a function of the
    generated tree only (a repository with `.mcp.json` "disagrees")."""
    found = {}
    for s in range(lo, hi):
        tree = fuzz.generate(agent, s)
        rows = [{"aspect": "mcp-servers", "theirs": p, "ours": ""}
                for p in sorted(tree["files"]) if p.endswith(".mcp.json")]
        found[f"fuzz.{agent}.{s}"] = rows
    return found


class Report(unittest.TestCase):
    def run_ranges(self, agent, ranges):
        """The report text after runs over `ranges`, each continuing the
        report file the previous one wrote (as `fuzz.py run` does)."""
        text = None
        for lo, hi in ranges:
            previous = json.loads(text) if text else None
            report = fuzz.continued(previous, agent, "1.0.0", lo)
            for a in range(lo, hi, 25):
                b = min(hi, a + 25)
                fuzz.add_outcomes(report, a, b, fake_outcomes(agent, a, b))
            text = fuzz.report_text(report)
        return text

    def test_same_seeds_same_report_whatever_the_ranges(self):
        once = self.run_ranges("claude-code", [(0, 120)])
        self.assertEqual(once, self.run_ranges("claude-code", [(0, 120)]))
        self.assertEqual(once, self.run_ranges("claude-code", [(0, 50), (50, 100), (100, 120)]))
        report = json.loads(once)
        self.assertEqual(report["seeds"], [0, 120])
        self.assertEqual(report["agree"] + len(report["disagreeing"]), 120)
        self.assertTrue(report["disagreeing"], "the fake comparison finds something")

    def test_a_trial_of_some_seeds_is_checked_seed_by_seed(self):
        committed = json.loads(self.run_ranges("claude-code", [(0, 120)]))
        trial = json.loads(self.run_ranges("claude-code", [(50, 100)]))
        self.assertEqual(fuzz.differing(committed, trial), [])
        seed = next(d["seed"] for d in trial["disagreeing"])
        trial["disagreeing"] = [d for d in trial["disagreeing"] if d["seed"] != seed]
        trial["agree"] += 1
        self.assertEqual(fuzz.differing(committed, trial), [seed])
        trial["leftOut"] = [{"seed": 60, "reason": "timeout"}]
        self.assertIn(60, fuzz.differing(committed, trial))
        with self.assertRaises(ValueError):
            fuzz.differing(trial, committed)

    def test_a_run_that_does_not_continue_starts_afresh(self):
        text = self.run_ranges("codex", [(0, 30)])
        report = fuzz.continued(json.loads(text), "codex", "1.0.0", 40)
        self.assertEqual(report["seeds"], [40, 40])
        self.assertEqual(report["agree"], 0)
        with self.assertRaises(AssertionError):
            fuzz.add_outcomes(json.loads(text), 40, 50, fake_outcomes("codex", 40, 50))

    def test_a_seed_without_observation_is_left_out_not_a_disagreement(self):
        found = fake_outcomes("claude-code", 0, 10)
        found["fuzz.claude-code.3"] = [{"aspect": fuzz.UNOBSERVED,
                                        "theirs": fuzz.unobserved({"exit": "timeout"}),
                                        "ours": ""}]
        report = fuzz.continued(None, "claude-code", "1.0.0", 0)
        fuzz.add_outcomes(report, 0, 10, found)
        self.assertEqual(report["leftOut"], [{"seed": 3, "reason": "timeout: no answer "
                                              f"within {fuzz.record.RUN_TIMEOUT} s"}])
        self.assertNotIn(3, [d["seed"] for d in report["disagreeing"]])
        self.assertEqual(report["agree"] + len(report["disagreeing"]), 9)
        self.assertIsNone(fuzz.unobserved({"exit": "ok"}))
        self.assertIsNone(fuzz.unobserved({"exit": "no-request"}))
        self.assertTrue(fuzz.unobserved({"recorderError": "boom"}).startswith("recorder"))

    def test_an_observation_holding_a_timeout_is_none(self):
        self.assertTrue(fuzz.timed_out({"exit": "timeout"}))
        self.assertTrue(fuzz.timed_out({"exit": 0, "mcpServers": {"exit": "timeout"}}))
        self.assertTrue(fuzz.timed_out({"startup": [{"exit": "timeout"}]}))
        self.assertFalse(fuzz.timed_out({"exit": 0, "skills": [{"name": "timeout"}]}))


class Shrinker(unittest.TestCase):
    def test_ddmin_finds_a_minimal_sublist(self):
        calls = []

        def has_3_and_7(xs):
            calls.append(xs)
            return 3 in xs and 7 in xs

        self.assertEqual(fuzz.ddmin(list(range(20)), has_3_and_7), [3, 7])
        self.assertEqual(fuzz.ddmin(list(range(5)), lambda xs: True), [])


if __name__ == "__main__":
    unittest.main()

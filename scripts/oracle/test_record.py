#!/usr/bin/env python3
"""Tests of how the recorder seeds a case's fixture home (no agent runs):
`python3 -m unittest discover -s scripts/oracle -p 'test_*.py'`."""

import json
import tempfile
import tomllib
import unittest
from pathlib import Path

import record


class SeedHome(unittest.TestCase):
    def test_the_fixture_home_is_copied_with_the_repository_path(self):
        with tempfile.TemporaryDirectory() as t:
            home, repo = Path(t) / "home", Path(t) / "repo"
            case = {"id": "x", "home": "oracle/homes/claude-mcp"}
            record.seed_home(case, home, repo)
            doc = json.loads((home / ".claude.json").read_text())
            self.assertIn(str(repo), doc["projects"])
            self.assertNotIn(record.REPO_PLACEHOLDER, (home / ".claude.json").read_text())
            self.assertEqual(sorted(doc["mcpServers"]), ["docs", "notes"])

    def test_the_wellknown_address_replaces_its_placeholder(self):
        with tempfile.TemporaryDirectory() as t:
            home, repo = Path(t) / "home", Path(t) / "repo"
            case = {"id": "x", "home": "oracle/homes/opencode-wellknown"}
            url = "http://127.0.0.1:4321"
            record.seed_home(case, home, repo, {record.WELLKNOWN_PLACEHOLDER: url})
            auth = json.loads((home / ".local/share/opencode/auth.json").read_text())
            self.assertEqual(list(auth), [url])
            self.assertEqual(auth[url]["type"], "wellknown")

    def test_a_case_without_a_home_copies_nothing(self):
        with tempfile.TemporaryDirectory() as t:
            home = Path(t) / "home"
            record.seed_home({"id": "x"}, home, Path(t) / "repo")
            self.assertFalse(home.exists())

    def test_a_missing_home_is_refused(self):
        with tempfile.TemporaryDirectory() as t:
            with self.assertRaises(ValueError):
                record.seed_home({"id": "x", "home": "oracle/homes/none"}, Path(t) / "h", Path(t))


class MergeJson(unittest.TestCase):
    def test_the_recorders_hook_joins_the_fixtures_settings(self):
        with tempfile.TemporaryDirectory() as t:
            path = Path(t) / "settings.json"
            path.write_text(json.dumps({"outputStyle": "Terse",
                                        "hooks": {"Stop": [{"hooks": []}]}}))
            record.merge_json(path, {"hooks": {"InstructionsLoaded": [{"hooks": []}]}})
            doc = json.loads(path.read_text())
            self.assertEqual(doc["outputStyle"], "Terse")
            self.assertEqual(sorted(doc["hooks"]), ["InstructionsLoaded", "Stop"])

    def test_lists_are_appended_to(self):
        with tempfile.TemporaryDirectory() as t:
            path = Path(t) / "config.json"
            path.write_text(json.dumps({"trusted_folders": ["/a"]}))
            record.merge_json(path, {"trusted_folders": ["/b"]})
            self.assertEqual(json.loads(path.read_text())["trusted_folders"], ["/a", "/b"])

    def test_a_missing_file_is_written(self):
        with tempfile.TemporaryDirectory() as t:
            path = Path(t) / "d" / "settings.json"
            record.merge_json(path, {"a": 1})
            self.assertEqual(json.loads(path.read_text()), {"a": 1})


class MergeTrust(unittest.TestCase):
    def test_the_fixtures_config_is_kept_and_the_entry_added(self):
        with tempfile.TemporaryDirectory() as t:
            config = Path(t) / "config.toml"
            config.write_text('[mcp_servers.notes]\ncommand = "notes"')
            record.merge_trust(config, {"/r": "trusted"})
            doc = tomllib.loads(config.read_text())
            self.assertEqual(doc["mcp_servers"]["notes"]["command"], "notes")
            self.assertEqual(doc["projects"]["/r"]["trust_level"], "trusted")

    def test_the_fixtures_own_entry_wins(self):
        with tempfile.TemporaryDirectory() as t:
            config = Path(t) / "config.toml"
            config.write_text('[projects."/r"]\ntrust_level = "untrusted"\n')
            record.merge_trust(config, {"/r": "trusted", "/r/a": "trusted"})
            doc = tomllib.loads(config.read_text())
            self.assertEqual(doc["projects"]["/r"]["trust_level"], "untrusted")
            self.assertEqual(doc["projects"]["/r/a"]["trust_level"], "trusted")


class Names(unittest.TestCase):
    def test_codex_home_is_named_apart_from_the_home(self):
        norm = record.Normalizer("/w/repo", "/w/home", "/w", 0, "/w/home/.codex")
        self.assertEqual(norm.path("/w/home/.codex/AGENTS.md"), "$CODEX_HOME/AGENTS.md")
        self.assertEqual(norm.path("/w/home/.agents/skills/a/SKILL.md"),
                         "$HOME/.agents/skills/a/SKILL.md")


class OpencodeToolSkills(unittest.TestCase):
    def test_the_skill_tools_listing_is_read(self):
        # 1.1.11's `SkillTool`: the skills in its description, one line.
        body = {"tools": [
            {"function": {"name": "task", "description": "<skill><name>no</name>"}},
            {"function": {"name": "skill", "description": (
                "Load a skill to get detailed instructions for a specific task. "
                "<available_skills>   <skill>     <name>dup</name>     "
                "<description>Review.</description>   </skill>   <skill>     "
                "<name>a/b</name>     <description>Two.</description>   </skill> "
                "</available_skills>")}}]}
        self.assertEqual(record.opencode_tool_skills(body), ["a/b", "dup"])

    def test_no_skill_tool_lists_none(self):
        self.assertEqual(record.opencode_tool_skills({"tools": []}), [])
        self.assertEqual(record.opencode_tool_skills({}), [])


class GeminiToolLists(unittest.TestCase):
    """Which settings files make the recorder compare the tools offered."""

    def lists(self, value):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "settings.json"
            path.write_text(json.dumps(value))
            return record.gemini_tool_lists(path)

    def test_a_list_or_a_policy_path_counts(self):
        for value in ({"tools": {"confirmationRequired": ["replace"]}},
                      {"tools": {"exclude": ["glob"]}},
                      {"policyPaths": ["~/team"]},
                      {"adminPolicyPaths": ["/opt/org.toml"]}):
            self.assertEqual(self.lists(value), value)

    def test_other_settings_do_not(self):
        self.assertIsNone(self.lists({"tools": {"sandbox": True}, "mcp": {}}))
        self.assertIsNone(self.lists(["policyPaths"]))


if __name__ == "__main__":
    unittest.main()


class OlderClaudeRequests(unittest.TestCase):
    """The request forms of releases before 2.1.197 (2.0.59, 2.1.4,
    2.1.73), reduced to what the recorder reads."""

    def request(self, text, tools=()):
        return {"messages": [{"role": "user", "content": [{"type": "text", "text": text}]}],
                "tools": list(tools)}

    def test_warmups_and_tool_less_requests_are_not_the_conversation(self):
        class Api:
            requests = [self.request("Warmup", [{"name": "Read"}]),
                        self.request("Files modified by user:\n"),
                        self.request("hi", [{"name": "Read"}])]
        self.assertEqual(record.conversation(Api()), [Api.requests[2]])

    def test_the_xml_listing_of_the_skill_tool(self):
        desc = ("Execute a skill\n<available_skills>\n<skill>\n<name>\ndeploy-app\n</name>\n"
                "<description>\nShip the app. (project)\n</description>\n<location>\nmanaged\n"
                "</location>\n</skill>\n</available_skills>\n")
        body = self.request("hi", [{"name": "Skill", "description": desc}])
        self.assertEqual(record.tool_listed_skills(body),
                         [{"name": "deploy-app", "description": "Ship the app. (project)"}])

    def test_the_line_listing_of_the_skill_tool(self):
        desc = "Execute a skill\n\nAvailable skills:\n- deploy-app: Ship the app.\n- lint: Lint.\n"
        body = self.request("hi", [{"name": "Skill", "description": desc}])
        self.assertEqual([s["name"] for s in record.tool_listed_skills(body)], ["deploy-app", "lint"])

    def test_the_listing_ends_at_the_closing_reminder(self):
        text = record.SKILLS_HEADER + "- review: Review the diff.\n</system-reminder>"
        self.assertEqual(record.listed_skills(text),
                         [{"name": "review", "description": "Review the diff."}])


class InlinedInstructions(unittest.TestCase):
    """Which path-specific files Copilot CLI sent, found by their text in
    the request's tail (fuzzer seed 254 of 1.0.24, reduced)."""

    CANDIDATES = [(".claude/rules/w.md", "never"),
                  (".github/instructions/t.instructions.md", "tests never small"),
                  (".github/instructions/a.instructions.md", "api commit")]

    def found(self, tail):
        return [p for _, p in record.inlined_positions(tail, self.CANDIDATES, Path("/nonexistent"))]

    def test_a_text_inside_a_longer_sent_file_is_not_a_sent_file(self):
        # Each file's text sits on lines of its own, as Copilot CLI sends
        # it; `never` is only a word inside one of them.
        self.assertEqual(self.found("<x>\ntests never small\n</x>\n<x>\napi commit\n</x>"),
                         [".github/instructions/t.instructions.md",
                          ".github/instructions/a.instructions.md"])

    def test_the_same_text_sent_on_its_own_too_is_a_sent_file(self):
        self.assertEqual(sorted(self.found("tests never small\napi commit\nnever")),
                         [".claude/rules/w.md", ".github/instructions/a.instructions.md",
                          ".github/instructions/t.instructions.md"])


class CopilotTable(unittest.TestCase):
    """The table of on-demand instruction files as 1.0.24 sends the user's
    (case `fuzz.copilot.home.5`): the description column holds the file's
    body over several lines, and the repository's files follow the table."""

    TEXT = ("Here is a list of instruction files that contain rules.\n"
            "| Pattern | File Path | Description |\n"
            "| ------- | --------- | ----------- |\n"
            "| vendor/** | '/h/.copilot/instructions/s.instructions.md' | is secrets\n"
            "typed prefer |\n\n# prefer API secrets\n\n<system_notifications>\n")

    def test_a_row_runs_to_the_first_line_ending_in_a_bar(self):
        self.assertEqual([m[:2] for m in record.CP_TABLE.findall(self.TEXT)],
                         [("vendor/**", "/h/.copilot/instructions/s.instructions.md")])

    def test_the_rows_taken_out_leave_the_files_after_the_table(self):
        tail = record.CP_TABLE.sub("", self.TEXT)
        self.assertNotIn("typed prefer", tail)
        self.assertIn("\n# prefer API secrets\n", tail)


class CodexPromptOfBothMethods(unittest.TestCase):
    """The input items of a `codex exec` request of an older release (the
    skills listed inside the AGENTS.md message) give the same fields as
    those of a newer release (the listing a message of its own)."""

    REPO, HOME = Path("/r"), Path("/h")
    LISTING = ("## Skills\nA skill is a set of local instructions to follow that is stored in "
               "a `SKILL.md` file.\n### Available skills\n"
               "- kept: A repo skill. (file: /r/.agents/skills/kept/SKILL.md)\n"
               "- skill-creator: Guide. (file: /h/skills/.system/skill-creator/SKILL.md)\n")

    def prompt(self, *texts):
        items = [{"type": "message", "role": "user",
                  "content": [{"type": "input_text", "text": t}]} for t in texts]
        norm = record.Normalizer(self.REPO, self.HOME, Path("/t"))
        return record.codex_prompt(items, norm, self.HOME)

    def test_a_listing_inside_the_agents_message_is_cut_from_the_chain(self):
        old = self.prompt("# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nRoot.\n\n\n"
                          + self.LISTING + "\n</INSTRUCTIONS>")
        new = self.prompt("<skills_instructions>\n" + self.LISTING + "</skills_instructions>",
                          "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nRoot.\n\n</INSTRUCTIONS>")
        self.assertEqual(old, new)
        chain, skills, system = old
        self.assertEqual(chain, {"cwd": ".", "text": "Root.\n"})
        self.assertEqual([s["path"] for s in skills], [".agents/skills/kept/SKILL.md"])
        self.assertEqual([s["name"] for s in system], ["skill-creator"])
        # The listed description's length, in characters ("Guide.").
        self.assertEqual([s["descriptionChars"] for s in system], [6])

    def test_a_message_holding_only_the_listing_is_no_chain(self):
        chain, skills, _ = self.prompt(
            "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\n" + self.LISTING + "\n</INSTRUCTIONS>")
        self.assertIsNone(chain)
        self.assertEqual(len(skills), 1)

    def test_a_skills_heading_of_the_file_itself_stays_in_the_chain(self):
        chain, skills, _ = self.prompt(
            "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\n## Skills\nWe test.\n\n</INSTRUCTIONS>")
        self.assertEqual(chain["text"], "## Skills\nWe test.\n")
        self.assertEqual(skills, [])

    def test_the_method_follows_the_release(self):
        self.assertEqual(record.codex_method("0.118.0"), record.EXEC)
        self.assertEqual(record.codex_method("0.120.0"), record.PROMPT_INPUT)
        self.assertEqual(record.codex_method("0.171.0"), record.PROMPT_INPUT)


class ListedSkills(unittest.TestCase):
    def test_the_budget_note_ends_the_listing(self):
        # 2.0.77's Skill tool: the listing its budget cut, then the note.
        text = ("\nAvailable skills:\n- cap-01: One.\n- cap-12: Twelve.\n"
                "<!-- Showing 12 of 14 skills due to token limits -->\n")
        self.assertEqual(record.listed_skills(text, record.TOOL_SKILLS_HEADER),
                         [{"name": "cap-01", "description": "One."},
                          {"name": "cap-12", "description": "Twelve."}])


class FakeChatRequests(unittest.TestCase):
    def test_an_mcp_request_is_not_a_model_request(self):
        # Copilot CLI 0.0.376 starts the GitHub MCP server at the Copilot
        # API's address, the fake endpoint: its `initialize` came first.
        import urllib.error
        import urllib.request
        api = record.FakeChat(("view", {"path": "a"}))
        try:
            for body in ({"jsonrpc": "2.0", "id": 0, "method": "initialize"},
                         {"model": "m", "messages": [{"role": "user", "content": "hi"}]}):
                req = urllib.request.Request(f"http://127.0.0.1:{api.port}/v1/x",
                                             data=json.dumps(body).encode(),
                                             headers={"content-type": "application/json"})
                try:
                    urllib.request.urlopen(req, timeout=10).read()
                except urllib.error.HTTPError as e:
                    self.assertEqual(e.code, 400)
        finally:
            api.close()
        self.assertEqual([b.get("method") for b in api.rpc], ["initialize"])
        self.assertEqual([list(b) for b in api.requests], [["model", "messages"]])

    def test_the_wellknown_document_is_served_and_counted(self):
        import urllib.error
        import urllib.request
        api = record.FakeChat()
        url = f"http://127.0.0.1:{api.port}/.well-known/opencode"
        try:
            with self.assertRaises(urllib.error.HTTPError):
                urllib.request.urlopen(url, timeout=10).read()
            api.wellknown = b'{"config": {}}'
            self.assertEqual(json.loads(urllib.request.urlopen(url, timeout=10).read()),
                             {"config": {}})
        finally:
            api.close()
        self.assertEqual(api.wellknown_fetches, 1)

class CodexHooksFired(unittest.TestCase):
    def test_the_tags_are_sorted_and_kept_once(self):
        text = "toml:Stop\njson:SessionStart\n\njson:SessionStart\ntoml:PreToolUse\n"
        self.assertEqual(record.marker_tags(text),
                         ["json:SessionStart", "toml:PreToolUse", "toml:Stop"])

    def test_releases_before_hooks_list_fire_their_hooks(self):
        self.assertFalse(record.codex_hooks_listed("0.125.0"))
        self.assertFalse(record.codex_hooks_listed("0.63.0"))
        self.assertTrue(record.codex_hooks_listed("0.128.0"))
        self.assertTrue(record.codex_hooks_listed("0.171.0"))

    def test_the_turn_calls_the_shell_tool_the_request_offers(self):
        for name, args in [("exec_command", {"cmd": "true"}), ("shell", {"command": ["true"]}),
                           ("shell_command", {"command": "true"})]:
            body = {"tools": [{"type": "function", "name": "update_plan"},
                              {"type": "function", "name": name}, {"type": "web_search"}]}
            call = record.shell_call(body)
            self.assertEqual(call["name"], name)
            self.assertEqual(json.loads(call["arguments"]), args)
        self.assertIsNone(record.shell_call({"tools": [{"name": "apply_patch"}]}))

    def test_the_turn_ends_with_a_message_once_the_call_was_made(self):
        call = record.shell_call({"tools": [{"name": "exec_command"}]})
        first = record.turn_events(1, call)
        self.assertEqual([e["type"] for e in first],
                         ["response.created", "response.output_item.done", "response.completed"])
        self.assertEqual(first[1]["item"]["type"], "function_call")
        last = record.turn_events(2, None)
        self.assertEqual(last[1]["item"]["type"], "message")
        self.assertEqual(last[1]["item"]["content"][0]["text"], "done")


def oracle_bisect():
    """The oracle's `bisect.py` (the standard library has a `bisect`)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("oracle_bisect", Path(__file__).with_name("bisect.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MethodsRowMerge(unittest.TestCase):
    ROW = {"release": "0.142.3", "cases": 2, "identical": 1, "runs": 2, "seconds": 5,
           "refusalWording": {"a": ["trusted.stderr"]}, "permissionsNotObserved": {},
           "differs": {}, "failed": {}}

    def test_a_new_case_is_added_to_the_releases_counts(self):
        new = {"cases": 1, "identical": 1, "runs": 1, "seconds": 9, "refusalWording": {},
               "permissionsNotObserved": {}, "differs": {}, "failed": {}}
        row = oracle_bisect().merged_methods_row({"releases": [self.ROW]}, "0.142.3", new, ["b"])
        self.assertEqual((row["cases"], row["identical"], row["runs"], row["seconds"]),
                         (3, 2, 3, 14))
        self.assertEqual(row["refusalWording"], {"a": ["trusted.stderr"]})

    def test_a_case_compared_before_is_refused(self):
        with self.assertRaises(SystemExit):
            oracle_bisect().merged_methods_row({"releases": [self.ROW]}, "0.142.3", {}, ["a"])

class UnblockedInstructions(unittest.TestCase):
    """0.0.376 to 0.0.384 inline one source of instructions after their
    tool guidelines, without `<custom_instruction>` blocks."""

    def prompt(self, inlined):
        return ("<tools>\n<grep>Use AGENTS.md rules.</grep>\n</tools>\n\n" + inlined
                + "\n\n<solution_persistence>\nAct.\n</solution_persistence>\nRespond concisely.")

    def files(self):
        return {"AGENTS.md": "Root agents: use spaces.",
                "GEMINI.md": "Root agents: use spaces.",
                "CLAUDE.md": "Claude rules.",
                ".github/copilot-instructions.md": "Root copilot instructions: use tabs.",
                "a/AGENTS.md": "Nested.",
                "docs/guide.md": "Root copilot instructions: use tabs."}

    def test_the_inlined_file_is_named_by_its_text(self):
        text = self.prompt("Root copilot instructions: use tabs.")
        self.assertEqual(record.unblocked_instructions(text, self.files(), Path(".")),
                         [{"path": ".github/copilot-instructions.md", "unblocked": True}])

    def test_two_files_of_one_text_share_an_entry(self):
        text = self.prompt("Root agents: use spaces.")
        self.assertEqual(record.unblocked_instructions(text, self.files(), Path(".")),
                         [{"path": ["AGENTS.md", "GEMINI.md"], "unblocked": True}])

    def test_the_users_and_the_repositorys_files_in_order(self):
        files = self.files() | {"$HOME/.copilot/copilot-instructions.md": "User: be brief."}
        text = self.prompt("User: be brief.\n\n# Repository-specific instructions\n\n"
                           "Root copilot instructions: use tabs.")
        self.assertEqual(
            [e["path"] for e in record.unblocked_instructions(text, files, Path("."))],
            ["$HOME/.copilot/copilot-instructions.md", ".github/copilot-instructions.md"])

    def test_a_text_before_the_tool_guidelines_is_not_sent(self):
        text = "Claude rules.\n" + self.prompt("Nested.")
        self.assertEqual(record.unblocked_instructions(text, self.files(), Path(".")),
                         [{"path": "a/AGENTS.md", "unblocked": True}])

    def test_a_rewritten_source_is_named_by_the_closest_file(self):
        # 0.0.384's Markdown filter: links made `<a>`, `>` escaped, the
        # text cut after an autolink.
        files = {".github/copilot-instructions.md":
                 "# Links, images, arrows\n\nL1 links: [rel](docs/x.md) and more.\n"
                 "L2 arrows: a -> b, a => b.\nL3 autolink: <http://h.example> gone.\nL4 end.",
                 "AGENTS.md": "Something else entirely, about tests."}
        text = self.prompt("# Links, images, arrows\n\nL1 links: <a>rel</a> and more.\n"
                           "L2 arrows: a -&gt; b, a =&gt; b.\nL3 autolink: ")
        self.assertEqual(record.unblocked_instructions(text, files, Path(".")),
                         [{"path": ".github/copilot-instructions.md", "unblocked": True,
                           "rewritten": True}])

    def test_a_blank_source_names_no_file(self):
        text = self.prompt("")
        self.assertEqual(record.unblocked_instructions(text, self.files(), Path(".")), [])

    def test_blocks_are_read_as_blocks(self):
        text = self.prompt("<custom_instruction>\nClaude rules.\n</custom_instruction>")
        norm = record.Normalizer(Path("."), Path("."), Path("."), 0)
        with tempfile.TemporaryDirectory() as t:
            repo = Path(t)
            (repo / "CLAUDE.md").write_text("Claude rules.\n")
            (repo / "AGENTS.md").write_text("Claude rules. And more.\n")
            blocks, _, _ = record.copilot_instructions(text, repo, norm)
        self.assertEqual(blocks, [{"path": "CLAUDE.md"}])

    def test_the_graphql_viewer_names_this_endpoint_as_the_copilot_api(self):
        # Copilot CLI 0.0.368 asks its login's host (`COPILOT_API_URL`)
        # for the user's Copilot API before its first chat request.
        import urllib.request
        api = record.FakeChat()
        try:
            query = "{ viewer { login copilotEndpoints { api } } }"
            req = urllib.request.Request(f"http://127.0.0.1:{api.port}/graphql",
                                         data=json.dumps({"query": query}).encode(),
                                         headers={"content-type": "application/json"})
            doc = json.loads(urllib.request.urlopen(req, timeout=10).read())
        finally:
            api.close()
        self.assertEqual(doc["data"]["viewer"]["copilotEndpoints"]["api"],
                         f"http://127.0.0.1:{api.port}")
        self.assertNotIn("isEmployee", doc["data"]["viewer"])
        self.assertEqual(api.requests, [])

    def test_a_release_before_the_api_token_login_gets_a_github_token_variable(self):
        old = record.copilot_endpoint_env("0.0.372", "http://127.0.0.1:1/v1")
        new = record.copilot_endpoint_env("0.0.376", "http://127.0.0.1:1/v1")
        self.assertEqual(old["COPILOT_API_URL"], "http://127.0.0.1:1")
        self.assertFalse(old["COPILOT_GITHUB_TOKEN"].startswith("ghp_"))
        self.assertNotIn("COPILOT_GITHUB_TOKEN", new)

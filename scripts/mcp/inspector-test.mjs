// `playbookdiff mcp` through a real client: the MCP Inspector's
// command-line mode (@modelcontextprotocol/inspector, pinned in
// package-lock.json) lists the tools and the resource, calls every tool,
// reads the resource, and gets tool errors naming the argument for bad
// arguments (docs/mcp.md).
//
//   node scripts/mcp/inspector-test.mjs [--bin target/debug/playbookdiff]
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const ROOT = path.resolve(HERE, "../..");
const INSPECTOR = path.join(HERE, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const i = process.argv.indexOf("--bin");
const BIN = path.resolve(i >= 0 ? process.argv[i + 1] : path.join(ROOT, "target/debug/playbookdiff"));
const EXAMPLE = path.join(ROOT, "examples/monorepo");
let failures = 0;

function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${ok ? "" : " " + detail}`);
  if (!ok) failures++;
}

// One Inspector call; its standard output parsed as JSON.
function inspect(...args) {
  const r = spawnSync("node", [INSPECTOR, "--cli", BIN, "mcp", ...args], { encoding: "utf8", maxBuffer: 256 << 20 });
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { unparsed: r.stdout, stderr: r.stderr, status: r.status };
  }
}

function call(tool, args) {
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return inspect("--method", "tools/call", "--tool-name", tool, "--tool-arg", ...pairs);
}

const text = (r) => (r.content || []).map((c) => c.text || "").join("\n");

// A throwaway history for `diff`: the example, then an edit of AGENTS.md.
const history = fs.mkdtempSync(path.join(os.tmpdir(), "playbookdiff-mcp-"));
try {
  fs.cpSync(EXAMPLE, history, { recursive: true });
  const git = (...a) => execFileSync("git", ["-C", history, "-c", "user.name=t", "-c", "user.email=t@t", ...a]);
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "base");
  fs.appendFileSync(path.join(history, "AGENTS.md"), "- Added in the second commit.\n");
  git("commit", "-qam", "head");

  const list = inspect("--method", "tools/list");
  const names = (list.tools || []).map((t) => t.name).sort();
  const expected = ["check", "compile", "diff", "explain", "layout", "round_audit", "round_check", "round_context", "round_escalate"];
  check(JSON.stringify(names) === JSON.stringify(expected), `tools/list lists ${expected.join(", ")}`, JSON.stringify(list).slice(0, 400));
  // `round_escalate` writes the brief's Rulings row: the one tool not
  // read-only. `explain`, `round_check` and `round_escalate` answer in
  // words only.
  const writes = new Set(["round_escalate"]);
  const wordsOnly = new Set(["explain", "round_check", "round_escalate"]);
  for (const t of list.tools || []) {
    // `layout` describes the agents, not a repository: it takes none.
    const wantsRepo = t.name !== "layout";
    check(t.inputSchema && t.inputSchema.type === "object" && t.inputSchema.properties && !!t.inputSchema.properties.repo === wantsRepo,
      `${t.name}: an object schema for its arguments${wantsRepo ? " with `repo`" : " without `repo`"}`);
    if (writes.has(t.name)) check(!(t.annotations && t.annotations.readOnlyHint === true), `${t.name}: not annotated read-only (it writes)`);
    else check(t.annotations && t.annotations.readOnlyHint === true, `${t.name}: annotated read-only`);
    if (!wordsOnly.has(t.name)) check(t.outputSchema && t.outputSchema.type === "object", `${t.name}: an output schema`);
  }

  const resources = inspect("--method", "resources/list");
  check((resources.resources || []).some((r) => r.uri === "playbookdiff://fidelity"), "resources/list lists the fidelity report");
  const fidelity = inspect("--method", "resources/read", "--uri", "playbookdiff://fidelity");
  check(((fidelity.contents || [])[0] || {}).text?.includes("idelity"), "resources/read returns the fidelity report");

  const checked = call("check", { repo: EXAMPLE, cwd: "apps/web" });
  const doc = checked.structuredContent || {};
  check(!checked.isError && doc.schemaVersion === 1 && Array.isArray(doc.findings) && doc.findings.length > 0,
    `check: the check document with ${(doc.findings || []).length} findings`, JSON.stringify(checked).slice(0, 400));
  const cli = JSON.parse(spawnSync(BIN, ["check", EXAMPLE, "--root", "--cwd", "apps/web", "--format", "json"], { encoding: "utf8" }).stdout);
  delete cli.configs;
  check(JSON.stringify(doc) === JSON.stringify(cli), "check: the document of `check --format json` without `configs`");

  const all = call("check", { repo: EXAMPLE, allDirs: true, harnesses: ["codex", "gemini"] });
  check(!all.isError && all.structuredContent?.allDirs === true && JSON.stringify(all.structuredContent.harnesses) === '["codex","gemini"]',
    "check: allDirs and harnesses", JSON.stringify(all).slice(0, 400));

  const compiled = call("compile", { repo: EXAMPLE, harness: "codex", cwd: "apps/api" });
  check(!compiled.isError && compiled.structuredContent?.harness === "codex" && compiled.structuredContent.context.cwd === "apps/api",
    "compile: what Codex receives in apps/api", JSON.stringify(compiled).slice(0, 400));

  const id = (doc.findings || [])[0]?.id;
  const explained = call("explain", { repo: EXAMPLE, cwd: "apps/web", findingId: id });
  check(!explained.isError && explained.structuredContent?.finding?.id === id, `explain: the finding ${id}`, JSON.stringify(explained).slice(0, 400));

  const laid = call("layout", { harnesses: ["codex"] });
  check(!laid.isError && laid.structuredContent?.layouts?.length > 0 && laid.structuredContent.layouts.every((l) => l.harness === "codex"), "layout: Codex's surfaces per profiled release", JSON.stringify(laid).slice(0, 400));
  const diffed = call("diff", { repo: history, range: "HEAD~1..HEAD" });
  check(!diffed.isError && diffed.structuredContent?.changedPaths?.includes("AGENTS.md"), "diff: AGENTS.md changed between the two commits", JSON.stringify(diffed).slice(0, 400));

  for (const [tool, args, named] of [
    ["check", { repo: "examples/monorepo" }, "argument `repo`"],
    ["check", { repo: EXAMPLE, mode: "remote" }, "argument `mode`"],
    ["check", { repo: EXAMPLE, colour: "red" }, "colour"],
    ["check", { repo: EXAMPLE, harnesses: ["claud"] }, "argument `harnesses`"],
    ["check", { repo: EXAMPLE, cwd: "no/such/dir" }, "argument `cwd`"],
    ["compile", { repo: EXAMPLE }, "harness"],
    ["diff", { repo: history }, "range"],
    ["layout", { harnesses: ["vscode"] }, "argument `harnesses`"],
    ["diff", { repo: history, range: "nosuchrev..HEAD" }, "argument `range`"],
  ]) {
    const r = call(tool, args);
    check(r.isError === true && text(r).includes(named), `${tool} ${JSON.stringify(args).replace(EXAMPLE, "EXAMPLE").replace(history, "HISTORY")}: a tool error naming ${named}`, JSON.stringify(r).slice(0, 400));
  }
} finally {
  fs.rmSync(history, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);

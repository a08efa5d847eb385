// The browser test of `--format html` (docs/html.md): renders reports with
// the playbookdiff binary, opens each in headless Chromium (Debian's
// `chromium`, driven by playwright-core) from file://, and checks that
//
// * the page loads with no console error, no page error and no request
//   outside file:// (the page is self-contained);
// * the filters change what is shown (severity, harness, finding kind);
// * a finding opens its explanation and remedy;
// * repository text is text: a repository with `<script>`, quotes and
//   `</textarea>` in its files and names runs no script of its own, and a
//   secret committed in its MCP configuration is not in the page;
// * axe-core, run in the page, reports no serious or critical violation;
// * with --bench TREE, the report of that tree is under 5 MB and becomes
//   interactive (drawn, a filter answering) within 2 s.
//
// With --screenshots DIR, it also writes the screenshots referenced from
// the README (the example and a corpus repository, 1280x800 and 390x844).
//
//   node report-test.mjs --bin target/debug/playbookdiff [--corpus DIR]
//        [--bench TREE] [--screenshots docs/screenshots]
import { chromium } from "playwright-core";
import { execFileSync, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const SECRET = "Zq7SECRET";
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_INTERACTIVE_MS = 2000;

function args() {
  const a = process.argv.slice(2);
  const get = (name) => {
    const i = a.indexOf(name);
    return i >= 0 ? a[i + 1] : undefined;
  };
  return {
    bin: path.resolve(get("--bin") || path.join(ROOT, "target/debug/playbookdiff")),
    corpus: get("--corpus"),
    bench: get("--bench"),
    screenshots: get("--screenshots"),
    chromium: process.env.CHROMIUM || "/usr/bin/chromium",
  };
}

const opts = args();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "playbookdiff-browser-"));
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

// Runs playbookdiff; a failing check (exit 1) still wrote its report.
function render(name, argv) {
  const out = path.join(tmp, name + ".html");
  const r = spawnSync(opts.bin, [...argv, "--format", "html"], { maxBuffer: 64 << 20 });
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(`playbookdiff ${argv.join(" ")}: exit ${r.status}: ${r.stderr}`);
  }
  fs.writeFileSync(out, r.stdout);
  return out;
}

function write(root, rel, text) {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

// A repository whose every text tries to become markup, with a committed
// secret; a second commit changes it so `diff` has something to show.
function hostileRepository() {
  const root = path.join(tmp, "hostile");
  const dir = `apps/"><img onerror=alert(1)>`;
  write(root, "AGENTS.md", "# Rules </textarea><script>window.__pwned = 1</script>\n\n- Use \"quotes\" and 'apostrophes' & <b>tags</b>.\n");
  write(root, "CLAUDE.md", "# Claude <!-- comment\n\n- </script><script>window.__pwned = 2</script>\n");
  write(root, `${dir}/AGENTS.md`, "# Nested </title><script>window.__pwned = 3</script>\n");
  write(root, ".mcp.json", JSON.stringify({
    mcpServers: {
      "<script>srv</script>": {
        command: "npx", args: ["--api-key", `${SECRET}-arg`],
        env: { API_KEY: `${SECRET}-env` },
      },
    },
  }));
  const git = (...a) => execFileSync("git", ["-C", root, "-c", "user.name=t", "-c", "user.email=t@t", ...a]);
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "base");
  write(root, "AGENTS.md", fs.readFileSync(path.join(root, "AGENTS.md"), "utf8") + "- Added <script>window.__pwned = 4</script>\n");
  git("commit", "-qam", "head");
  return root;
}

async function open(browser, file, viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => { if (!r.url().startsWith("file:")) errors.push("request " + r.url()); });
  const started = Date.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
  return { page, errors, readyMs: Date.now() - started };
}

const count = (page, sel) => page.locator(sel).count();

async function checkFilters(page, name) {
  const all = await count(page, "details.finding");
  // Unticking every severity hides every finding; ticking them back
  // shows them again.
  for (const s of ["high", "medium", "low", "info"]) await page.uncheck(`input[name=severity][value=${s}]`);
  check(await count(page, "details.finding") === 0, `${name}: unticking every severity hides every finding`);
  for (const s of ["high", "medium", "low", "info"]) await page.check(`input[name=severity][value=${s}]`);
  check(await count(page, "details.finding") === all, `${name}: ticking them back shows the ${all} findings again`);
  // A harness unticked leaves the matrix's columns.
  const harness = await page.locator("input[name=harness]").first().getAttribute("value");
  const columns = await count(page, "#matrix thead th");
  await page.uncheck(`input[name=harness][value="${harness}"]`);
  check(await count(page, "#matrix thead th") === columns - 1, `${name}: unticking ${harness} removes its column`);
  await page.check(`input[name=harness][value="${harness}"]`);
  // A finding kind unticked hides its findings only.
  const kind = page.locator("input[name=kind]").first();
  if (await kind.count()) {
    const value = await kind.getAttribute("value");
    const ofKind = await page.locator("details.finding .kind", { hasText: value }).count();
    await kind.uncheck();
    const after = await count(page, "details.finding");
    check(ofKind > 0 && after === all - ofKind, `${name}: unticking kind "${value}" hides its findings (${all} -> ${after})`);
    await kind.check();
  }
}

async function checkExplanation(page, name) {
  const first = page.locator("details.finding").first();
  if (!(await first.count())) return;
  await first.locator("summary").focus();
  await page.keyboard.press("Enter");
  // The explanation is drawn on the `toggle` event, which follows the key.
  await first.locator(".body h4").first().waitFor({ timeout: 5000 }).catch(() => {});
  const text = await first.locator(".body").innerText();
  check(await first.evaluate((d) => d.open) && text.includes("Why") && text.includes("Remedy"),
    `${name}: Enter on a finding opens its explanation and remedy`);
}

async function checkAxe(page, name) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  for (const v of serious) console.log(`     ${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
  check(serious.length === 0, `${name}: axe-core finds no serious violation (${result.violations.length} minor)`);
}

async function checkPage(browser, name, file) {
  const { page, errors } = await open(browser, file);
  await page.keyboard.press("Tab");
  check(await page.evaluate(() => document.activeElement.className === "skip"), `${name}: the first Tab reaches the skip link`);
  await checkFilters(page, name);
  await checkExplanation(page, name);
  await checkAxe(page, name);
  // By keyboard alone: the first Tab reaches the skip link, Space on a
  // severity changes what is shown, Enter on a launch directory of the
  // matrix opens its pane and moves the focus there.
  const shownBefore = await count(page, "details.finding");
  await page.focus("input[name=severity][value=medium]");
  await page.keyboard.press("Space");
  const shownAfter = await count(page, "details.finding");
  await page.keyboard.press("Space");
  check(shownAfter !== shownBefore || shownBefore === 0, `${name}: Space on a severity filter changes what is shown (${shownBefore} -> ${shownAfter})`);
  const rowButton = page.locator("#matrix tbody th button").last();
  if (await rowButton.count()) {
    const cwd = await rowButton.innerText();
    await rowButton.focus();
    await page.keyboard.press("Enter");
    const pane = await page.evaluate(() => [document.getElementById("pane-h").innerText, document.activeElement.id]);
    check(pane[0].includes(cwd) && pane[1] === "pane-h", `${name}: Enter on a launch directory opens its pane and focuses it`);
    if (await page.evaluate(() => document.body.dataset.kind) === "matrix" && cwd !== ".") {
      // Another directory than the one the command ran from: its pane
      // comes from the document's `received` lists.
      const items = await count(page, "#pane .agent li");
      const heads = await count(page, "#pane .agent h4");
      check(items > 0 && heads >= 3, `${name}: the pane of ${cwd} lists what each agent receives at startup (${items} items)`);
    }
  }
  // Nothing wider than the screen but the matrix, which scrolls in its box.
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 0, `${name}: no horizontal scrolling of the page at ${viewport.width}x${viewport.height} (${overflow} px)`);
  }
  check(errors.length === 0, `${name}: no console error and no request outside the file ${errors.join(" | ")}`);
  return page;
}

async function checkHostile(browser, root) {
  for (const [name, argv] of [
    ["hostile check", ["check", root]],
    ["hostile all-dirs", ["check", root, "--all-dirs"]],
    ["hostile diff", ["diff", "HEAD~1..HEAD", root]],
  ]) {
    const file = render(name.replace(/ /g, "-"), argv);
    const html = fs.readFileSync(file, "utf8");
    check(!html.includes(SECRET), `${name}: no secret value in the page`);
    const { page, errors } = await open(browser, file);
    // Open every finding so their texts are drawn too.
    await page.evaluate(() => document.querySelectorAll("details.finding").forEach((d) => { d.open = true; }));
    await page.waitForTimeout(50);
    const state = await page.evaluate(() => ({
      pwned: window.__pwned,
      scripts: document.scripts.length,
      injected: document.querySelectorAll("img, b, textarea").length,
      text: document.body.innerText,
    }));
    check(state.pwned === undefined && state.scripts === 2 && state.injected === 0,
      `${name}: repository text runs no script and adds no element`);
    check(state.text.includes("<script>"), `${name}: the hostile text is shown as text`);
    check(errors.length === 0, `${name}: no console error ${errors.join(" | ")}`);
    await page.close();
  }
}

async function screenshots(browser, name, file) {
  fs.mkdirSync(opts.screenshots, { recursive: true });
  for (const [label, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
    const { page } = await open(browser, file, viewport);
    const out = path.join(opts.screenshots, `${name}-${label}.png`);
    await page.screenshot({ path: out });
    console.log(`     wrote ${path.relative(ROOT, out)}`);
    await page.close();
  }
}

// `upgrade` of Claude Code on a repository with AGENTS.md files only:
// from 2.1.281 on they load in place of the missing CLAUDE.md, so the
// page lists that behaviour with its release and evidence, and each
// directory with the release that changes it.
async function checkUpgrade(browser) {
  const root = path.join(tmp, "upgrade");
  write(root, "AGENTS.md", "# Rules\n\n- Run the tests.\n");
  write(root, "apps/web/AGENTS.md", "# Web\n\n- Use the design system.\n");
  const file = render("upgrade", ["upgrade", "claude-code", "2.1.197..2.1.332", root, "--root", "--all-dirs"]);
  const page = await checkPage(browser, "upgrade", file);
  const behaviours = await page.locator("#behaviours").textContent();
  check(behaviours.includes("2.1.281") && behaviours.includes("AgentsMdFallback") &&
    behaviours.includes("Evidence: bisected") && behaviours.includes("changes what the model receives"),
    "upgrade: the behaviour that changes what the model receives is listed with its release and evidence");
  const rows = await page.locator("#matrix tbody th").allInnerTexts();
  check(rows.includes(". from 2.1.281") && rows.includes("apps/web from 2.1.281"),
    `upgrade: each directory is listed with the release that changes it (${rows.join(", ")})`);
  await page.close();
}

async function checkBench(browser, tree) {
  const file = render("bench", ["check", tree, "--all-dirs"]);
  const bytes = fs.statSync(file).size;
  check(bytes < MAX_BYTES, `bench: the report is ${(bytes / 1e6).toFixed(2)} MB (< 5 MB)`);
  const { page, errors, readyMs: outerMs } = await open(browser, file);
  // In the page's own clock, from the start of navigation: when the
  // script had drawn the page, then how long unticking a severity takes
  // until the next frame is painted.
  const drawnMs = await page.evaluate(() => performance.getEntriesByName("playbookdiff-ready")[0].startTime);
  const filterMs = await page.evaluate(() => new Promise((done) => {
    const t = performance.now();
    document.querySelector("input[name=severity][value=medium]").click();
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t)));
  }));
  const interactiveMs = Math.round(drawnMs + filterMs);
  check(interactiveMs < MAX_INTERACTIVE_MS,
    `bench: drawn ${Math.round(drawnMs)} ms after navigation, a filter answered in ${Math.round(filterMs)} ms: interactive at ${interactiveMs} ms (< 2,000 ms; ${outerMs} ms as the driver sees it)`);
  check(errors.length === 0, `bench: no console error ${errors.join(" | ")}`);
  await page.close();
}

const browser = await chromium.launch({ executablePath: opts.chromium, args: ["--no-sandbox"] });
try {
  const example = path.join(ROOT, "examples/monorepo");
  const exampleAll = render("example-all-dirs", ["check", "--root", example, "--all-dirs"]);
  await checkPage(browser, "example all-dirs", exampleAll);
  await checkPage(browser, "example check", render("example-check", ["check", "--root", example, "--cwd", "apps/web"]));
  const hostile = hostileRepository();
  await checkPage(browser, "hostile diff", render("hostile-diff-page", ["diff", "HEAD~1..HEAD", hostile]));
  await checkHostile(browser, hostile);
  await checkUpgrade(browser);
  let corpusAll;
  if (opts.corpus) {
    corpusAll = render("corpus-all-dirs", ["check", opts.corpus, "--all-dirs"]);
    await checkPage(browser, `corpus ${path.basename(path.dirname(opts.corpus))}`, corpusAll);
  }
  if (opts.bench) await checkBench(browser, opts.bench);
  if (opts.screenshots) {
    await screenshots(browser, "example", exampleAll);
    if (corpusAll) await screenshots(browser, "corpus", corpusAll);
  }
} finally {
  await browser.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);

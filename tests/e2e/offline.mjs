// Offline use, in Debian's Chromium through playwright-core: the service worker (www/coi-sw.js,
// filled in by www/editor/sw.mjs) keeps a copy of the site, and the page says so (#offline-status).
//
//   trunk build --release --skip-version-check --dist dist-a11y
//   node tests/e2e/offline.mjs [--dist dist]
//
// Checks, on a copy of the built site served with Trunk.toml's headers, in a fresh browser:
// (p) the first visit saves what a match needs and says "Ready to work offline" (the help's
//     pictures and the runtimes only some visits use are cached once the page asks, as it does
//     after 30 s); a Python bot plays a
//     match while online (Pyodide is then cached too, and the line says so); the browser goes
//     offline and the page is reloaded: it loads from the copy, says it is offline, is still
//     cross-origin isolated, a JavaScript bot plays a whole match against a built-in bot, and
//     so does the Python bot (screenshot tests/e2e/screenshots/offline.png);
// (q) back online, a new deploy (one file changed, the worker rebuilt) is seen on the next
//     load: the new page is shown, the new worker takes over and the old version's cache is
//     deleted, while Pyodide's cache (unchanged) is kept;
// (r) a static host that sends no header: after the first visit (the worker isolates the page
//     and saves it), the page works offline, isolated by the headers the worker adds to the
//     responses it serves from its cache.
//
// Called from run.mjs (`offlineChecks({ dist, check, SHOTS })`) or alone.

import { execFileSync } from "node:child_process";
import { cp, mkdtemp, mkdir, readFile, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, launch, runAlone } from "./browser.mjs";
import { serve } from "./serve.mjs";
import { iceAndFireWalker, PYTHON_WAITS_EVERY_TURN } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

// Ice and Fire: trains beside its HQ and walks every unit to the enemy HQ (tests/e2e/bots.mjs).
const JS_BOT = iceAndFireWalker();

// The same game in Python: waits every turn, and says so in its debug log once.
const PYTHON_BOT = `import sys
spots = int(input())
for _ in range(spots):
    input()
print("python offline check", file=sys.stderr)
${PYTHON_WAITS_EVERY_TURN}`;


/** The offline line's state and words, once it reaches a state matching `state`. */
async function offlineLine(page, state, timeout = 60_000) {
  const line = page.locator(`#offline-status[data-state="${state}"]`);
  await line.waitFor({ timeout });
  return (await line.innerText()).trim();
}

/** The caches of the page's origin, by name. */
function cacheNames(page) {
  return page.evaluate(() => caches.keys());
}

/** Plays one match of the editor's bot (in `language`) against the built-in random bot. */
async function playMatch(page, language, code, check, label) {
  await page.locator("#player").selectOption(language);
  await page.locator("#bot-code .cm-content").waitFor();
  await page.evaluate((c) => botplayEditor.get("bot-code").paste(c), code);
  await page.locator("#opponent").selectOption("random");
  const relaxed = page.locator("#relaxed");
  if (!(await relaxed.isChecked())) await relaxed.click();
  await page.locator("#run").click();
  await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 180_000 });
  const outcome = (await page.locator("#outcome .result").innerText()).trim();
  const faults = await page.locator("#faults li").allInnerTexts();
  check(/wins|draw/.test(outcome), `(${label}) the ${language} match did not end: '${outcome}'`);
  check(!faults.some((f) => /your bot/.test(f)), `(${label}) the ${language} bot faulted: ${faults.join("; ")}`);
  const label_ = await page.locator("#turn-label").innerText();
  const [, shown, last] = label_.match(/turn (\d+) \/ (\d+)/) ?? [];
  check(Number(last) > 2 && shown === last, `(${label}) the ${language} match shows '${label_}'`);
  return outcome;
}

/** Watches a page for errors; `problems` lists them. Offline, failed requests are expected. */
function watch(page, problems, label) {
  page.on("pageerror", (e) => problems.push(`${label}: page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${label}: console error: ${m.text()}`);
  });
}

export async function offlineChecks({ dist, check = defaultCheck, SHOTS = join(REPO, "tests", "e2e", "screenshots") }) {
  // A copy of the site that (q) can redeploy; Pyodide is linked, not copied.
  const site = await mkdtemp(join(tmpdir(), "botplay-offline-site-"));
  const profile = await mkdtemp(join(tmpdir(), "botplay-offline-"));
  let context;
  const servers = [];
  try {
    await cp(dist, site, { recursive: true, filter: (from) => !from.startsWith(join(dist, "pyodide")) });
    await symlink(join(dist, "pyodide"), join(site, "pyodide"));
    const host = await serve(site);
    servers.push(host.server);
    context = await launch(profile);
    const page = context.pages()[0] ?? (await context.newPage());
    const problems = [];
    watch(page, problems, "online");

    // (p) First visit: the site is saved, the page says so.
    const visited = performance.now();
    await page.goto(host.url);
    await page.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    const ready = await offlineLine(page, "ready");
    const readyMs = performance.now() - visited;
    check(/^Ready to work offline/.test(ready), `(p) the offline line says '${ready}'`);
    check(/Python bots too, once one has run/.test(ready), `(p) before any Python bot the line says '${ready}'`);
    const firstCaches = await cacheNames(page);
    const appCache = firstCaches.find((n) => n.startsWith("botplay-app-"));
    const pyCache = firstCaches.find((n) => n.startsWith("botplay-pyodide-"));
    check(appCache && pyCache && firstCaches.length === 2, `(p) the caches are ${JSON.stringify(firstCaches)}`);
    const held = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname), appCache);
    const worker = await readFile(join(site, "coi-sw.js"), "utf8");
    const manifest = JSON.parse(worker.match(/const MANIFEST = (\{[\s\S]*?\});\n/)[1]);
    check(appCache.includes(manifest.version), `(p) the app cache '${appCache}' is not named after the build ${manifest.version}`);
    const later = new Set(manifest.later);
    check(["typescript.js", "zip.js", "charts.png"].every((f) => later.has(f)), `(p) kept for later: ${manifest.later.join(" ")}`);
    for (const file of manifest.app.filter((f) => !later.has(f))) check(held.includes(`/${file}`), `(p) ${file} is not cached (cached: ${held.join(" ")})`);
    // What only some visits use waits until the page has been idle 30 s (boot.js); asked here.
    if (performance.now() - visited < 25_000) {
      check(!held.includes("/typescript.js"), `(p) typescript.js was cached with what a first match needs`);
    }
    await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active.postMessage({ type: "botplay-cache-later" })));
    await page.waitForFunction(
      async ([name, files]) => {
        const urls = new Set((await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname));
        return files.every((f) => urls.has(`/${f}`));
      },
      [appCache, manifest.later],
      { timeout: 30_000, polling: 250 },
    );
    check(problems.length === 0, `(p) errors on the first visit:\n  ${problems.join("\n  ")}`);
    console.log(`ok (p) the first visit saves what a match needs (${held.length} files, version ${manifest.version}) in ${(readyMs / 1000).toFixed(1)} s: "${ready}"; the ${later.size} files kept for later once asked`);

    // Python once while online: Pyodide is cached as it loads.
    const pyOnline = await playMatch(page, "python", PYTHON_BOT, check, "p, Python online");
    const withPython = await offlineLine(page, "ready");
    await page.locator("#offline-status").getByText(/Python bots included/).waitFor({ timeout: 30_000 });
    const pyHeld = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, pyCache);
    check(pyHeld === manifest.pyodide.files.length, `(p) ${pyHeld} of Pyodide's ${manifest.pyodide.files.length} files are cached`);
    console.log(`ok (p) a Python bot played online ("${pyOnline}"); Pyodide is cached: "${(await page.locator("#offline-status").innerText()).trim() || withPython}"`);

    // Offline: the page reloads from the copy and plays.
    await context.setOffline(true);
    check(await page.evaluate(() => fetch("offline-probe.txt").then(() => false, () => true)), "(p) the network still answers offline");
    const offlineProblems = [];
    page.removeAllListeners("pageerror");
    page.removeAllListeners("console");
    watch(page, offlineProblems, "offline");
    await page.reload();
    await page.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    const offline = await offlineLine(page, "offline");
    check(/^Offline: working from this browser's copy, Python bots included/.test(offline), `(p) offline, the line says '${offline}'`);
    check(await page.evaluate(() => self.crossOriginIsolated), "(p) offline, the page is not cross-origin isolated");
    check((await page.locator("#isolation-warning").count()) === 0, "(p) offline, the isolation warning is shown");
    const jsOffline = await playMatch(page, "javascript", JS_BOT, check, "p, JavaScript offline");
    await page.locator("#board").scrollIntoViewIfNeeded();
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, "offline.png"), fullPage: true });
    const pyOffline = await playMatch(page, "python", PYTHON_BOT, check, "p, Python offline");
    await page.locator("#scrub").fill("1");
    const pyLog = await page.locator('#turn-details article[data-seat="0"] pre.stderr').innerText();
    check(/python offline check/.test(pyLog), `(p) offline, the Python bot's debug log is '${pyLog}'`);
    await page.locator("#player").selectOption("javascript");
    check(offlineProblems.length === 0, `(p) errors offline:\n  ${offlineProblems.join("\n  ")}`);
    console.log(`ok (p) offline, a reload works from the copy ("${offline}"): a JavaScript bot ("${jsOffline}") and a Python bot ("${pyOffline}") play`);

    // (q) Back online, a new deploy: one file changes and the worker is rebuilt.
    await context.setOffline(false);
    const index = await readFile(join(site, "index.html"), "utf8");
    await writeFile(join(site, "index.html"), index.replace("<head>", "<head><!-- botplay deploy 2 -->"));
    execFileSync("node", [join(REPO, "www", "editor", "sw.mjs"), site], { stdio: ["ignore", "ignore", "inherit"] });
    const next = JSON.parse((await readFile(join(site, "coi-sw.js"), "utf8")).match(/const MANIFEST = (\{[\s\S]*?\});\n/)[1]);
    check(next.version !== manifest.version && next.pyodide.version === manifest.pyodide.version, "(q) the rebuilt worker has no new version");
    await page.reload();
    await page.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    check(await page.evaluate(() => document.head.innerHTML.includes("botplay deploy 2")), "(q) the reload after a deploy shows the old page");
    const started = performance.now();
    let names = [];
    while (performance.now() - started < 30_000) {
      names = await cacheNames(page);
      if (names.some((n) => n.includes(next.version)) && !names.includes(appCache)) break;
      await page.waitForTimeout(200);
    }
    check(names.some((n) => n.startsWith(`botplay-app-${next.version}`)), `(q) no cache of the new version: ${JSON.stringify(names)}`);
    const workers = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return ["installing", "waiting", "active"].map((k) => `${k}: ${r?.[k]?.state ?? "none"}`).join(", ");
    });
    check(!names.includes(appCache), `(q) the old version's cache is still there: ${JSON.stringify(names)} (workers: ${workers})`);
    check(names.includes(pyCache), `(q) Pyodide's cache was dropped: ${JSON.stringify(names)}`);
    await offlineLine(page, "ready");
    await context.setOffline(true);
    await page.reload();
    await page.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    check(await page.evaluate(() => document.head.innerHTML.includes("botplay deploy 2")), "(q) offline after the deploy, the old page is shown");
    await offlineLine(page, "offline");
    await context.setOffline(false);
    console.log(`ok (q) a new deploy is seen on the next load; version ${next.version} replaces ${manifest.version}; Pyodide's cache is kept`);

    // (r) A static host without headers: isolated by the worker, online and offline.
    const plain = await serve(site, 0, { plain: true });
    servers.push(plain.server);
    const hosted = await context.newPage();
    const plainProblems = [];
    watch(hosted, plainProblems, "static host");
    await hosted.goto(plain.url);
    await hosted.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    check(await hosted.evaluate(() => self.crossOriginIsolated), "(r) the worker did not isolate the page on a static host");
    await offlineLine(hosted, "ready");
    await context.setOffline(true);
    await hosted.reload();
    await hosted.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    await offlineLine(hosted, "offline");
    check(await hosted.evaluate(() => self.crossOriginIsolated), "(r) offline on a static host, the page is not isolated");
    const hostedOutcome = await playMatch(hosted, "javascript", JS_BOT, check, "r, static host offline");
    await context.setOffline(false);
    check(plainProblems.length === 0, `(r) errors:\n  ${plainProblems.join("\n  ")}`);
    await hosted.close();
    console.log(`ok (r) on a static host without headers the page works offline, isolated from the cache ("${hostedOutcome}")`);
  } finally {
    await context?.close().catch(() => {});
    for (const server of servers) server.close();
    await rm(profile, { recursive: true, force: true });
    await unlink(join(site, "pyodide")).catch(() => {});
    await rm(site, { recursive: true, force: true });
  }
}

runAlone(import.meta.url, offlineChecks, "offline checks");

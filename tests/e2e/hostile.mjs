// Hostile bots in the built page, in Debian's Chromium through playwright-core: the sandbox of
// the bot workers (www/js-bot-worker.js) and the page's Content-Security-Policy (Trunk.toml).
//
//   trunk build --release --skip-version-check --dist dist-hostile
//   node tests/e2e/hostile.mjs [--dist dist-hostile]
//
// (n) A JavaScript bot and a Python bot (through `import js`, `js.eval`, `pyodide.http` and
//     `pyodide_js.loadPackage`) try every way out: fetch (on the global and its prototypes),
//     XMLHttpRequest, WebSocket, WebSocketStream, EventSource, WebTransport, importScripts of a
//     remote script, a dynamic import(), nested Worker and SharedWorker, FontFace, postMessage to
//     the page, BroadcastChannel, IndexedDB, Cache Storage, the origin's file systems
//     (navigator.storage, webkitRequestFileSystem), Web Locks, localStorage and the DOM. Each
//     bot writes what happened to its debug log, which must say "blocked" for every attempt; a
//     TCP listener on another port of 127.0.0.1 counts connections and must see none; the
//     page's own storage holds nothing the bots made. The page is served as `trunk serve`
//     serves it (Trunk.toml's headers), then once more without the Content-Security-Policy, so
//     that the worker's own hardening is checked alone (every attempt but import(), which only
//     the policy stops, must still be blocked).
// (o) Bots that misbehave: an infinite loop, a loop that prints without end, a one-megabyte
//     line, a line of 30,000 euro signs (90 KB: the caps count bytes), a huge debug log, a bot
//     that never reads its input, one that allocates without bound, one that throws on every
//     line, and one that floods in Crafting Quest 3 (where the
//     match goes on without it). Each is a fault with a clear reason, the built-in opponent wins
//     or plays on, the viewer steps through the match, and the page answers within a second
//     while the bot misbehaves. Screenshots: tests/e2e/screenshots/hostile-escape.png (the
//     JavaScript bot's report in its debug log) and hostile.png (after the last misbehaving bot).
//
// Exits non-zero with a message on the first failure. `cargo xtask test hostile` runs it on the
// page the build step made (dist/).

import { createServer as createTcpServer, connect } from "node:net";
import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliArg, defaultCheck as check, Failure, launch, openPlayground, setCode, setRelaxed, withinLimit } from "./browser.mjs";
import { serve, trunkHeaders } from "./serve.mjs";
import { PYTHON_WAITS_EVERY_TURN } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");

// --- the listener that must hear nothing --------------------------------------------------------

/** A TCP listener on 127.0.0.1 that counts connections (and answers HTTP-ish requests with an
 * empty 200, with CORS and CORP headers, so that a request that got through would also succeed). */
async function listener() {
  const seen = [];
  const server = createTcpServer((socket) => {
    const connection = { request: "" };
    seen.push(connection);
    socket.on("data", (chunk) => {
      if (!connection.request) connection.request = chunk.toString("latin1").split("\r\n")[0];
      socket.end(
        "HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nCross-Origin-Resource-Policy: cross-origin\r\n" +
          "Content-Type: text/javascript\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
      );
    });
    socket.on("error", () => {});
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, port: server.address().port, seen };
}

// --- a static server for the built page ---------------------------------------------------------

/** Serves `dist` with `headers` on every response (serve.mjs); also records the paths asked for. */
async function serveDist(dist, headers) {
  const asked = [];
  return { ...(await serve(dist, 0, { sameHeaders: headers, asked })), asked };
}

// --- the hostile bots ---------------------------------------------------------------------------

// Reads Ice and Fire's input for one turn (after the first lines of the match).
const READ_TURN = `
function readTurn() {
  const lines = [];
  for (let i = 0; i < 4 + 12; i++) lines.push(readline());
  for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
  for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
  return lines;
}
`;

/** A JavaScript bot that tries every way out on its first turn, logs what happened, then plays
 * WAIT. Each attempt logs "NAME: blocked (why)" or "NAME: ALLOWED". */
function jsEscapeBot(port) {
  return `
const far = "http://127.0.0.1:${port}/";
const tried = [];
function attempt(name, f) {
  try {
    const r = f();
    if (r && typeof r.then === "function") {
      // Settles only after this turn (the bot blocks in readline): the listener is the judge.
      r.then(() => {}, () => {});
      tried.push(name + ": pending (a promise)");
    } else {
      tried.push(name + ": " + (r === undefined || r === null ? "blocked (nothing)" : "ALLOWED " + Object.prototype.toString.call(r)));
    }
  } catch (e) {
    tried.push(name + ": blocked (" + String(e && e.name) + ")");
  }
}
const proto1 = Object.getPrototypeOf(self);
const proto2 = Object.getPrototypeOf(proto1);
attempt("fetch", () => fetch(far + "fetch"));
attempt("self.fetch", () => self.fetch(far + "self-fetch"));
attempt("prototype fetch", () => (proto1.fetch || proto2.fetch).call(self, far + "proto-fetch"));
attempt("XMLHttpRequest", () => { const x = new XMLHttpRequest(); x.open("GET", far + "xhr", false); x.send(); return x; });
attempt("WebSocket", () => new WebSocket("ws://127.0.0.1:${port}/ws"));
attempt("WebSocketStream", () => new WebSocketStream("ws://127.0.0.1:${port}/wss"));
attempt("EventSource", () => new EventSource(far + "events"));
attempt("WebTransport", () => new WebTransport("https://127.0.0.1:${port}/wt"));
attempt("importScripts", () => { importScripts(far + "script.js"); return "loaded"; });
attempt("Worker", () => new Worker(far + "worker.js"));
attempt("SharedWorker", () => new SharedWorker("js-bot-worker.js"));
attempt("FontFace", () => new FontFace("x", "url(" + far + "font)").load());
attempt("postMessage", () => { postMessage({ type: "line", text: "FORGED", at: 0 }); return "sent"; });
attempt("prototype postMessage", () => { (proto1.postMessage || proto2.postMessage).call(self, { type: "exit", message: "forged" }); return "sent"; });
attempt("BroadcastChannel", () => { new BroadcastChannel("botplay").postMessage("hello"); return "sent"; });
attempt("indexedDB", () => indexedDB.open("hostile-bot"));
attempt("caches", () => caches.open("hostile-bot"));
attempt("navigator.storage", () => navigator.storage.getDirectory());
attempt("navigator.locks", () => navigator.locks.request("botplay", () => new Promise(() => {})));
attempt("navigator.serviceWorker", () => navigator.serviceWorker.register("coi-sw.js"));
attempt("webkitRequestFileSystem", () => { webkitRequestFileSystem(0, 1024, () => {}); return "asked"; });
attempt("localStorage", () => localStorage.getItem("x"));
attempt("document", () => document.body);
attempt("window", () => window.document);
attempt("parent", () => parent.document);
attempt("Function constructor", () => (() => {}).constructor("return fetch")()(far + "function"));
// Only the page's Content-Security-Policy stops this one (import() is syntax, not a global).
attempt("import()", () => import(far + "import.js"));
const names = [];
for (let o = self; o; o = Object.getPrototypeOf(o)) names.push(...Object.getOwnPropertyNames(o));
console.error(tried.join("\\n"));
console.error("globals: " + names.sort().join(" "));
console.error("navigator: " + Object.keys(navigator).join(" "));
${READ_TURN}
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
while (true) {
  readTurn();
  console.log("WAIT");
}
`;
}

/** The same from Python: the js module (the worker's global), js.eval, pyodide.http and
 * pyodide_js.loadPackage. */
function pythonEscapeBot(port) {
  return `import sys
import js
far = "http://127.0.0.1:${port}/"
tried = []
def attempt(name, f):
    try:
        r = f()
        tried.append(name + ": " + ("blocked (nothing)" if r is None else "ALLOWED " + str(type(r))))
    except BaseException as e:
        tried.append(name + ": blocked (" + type(e).__name__ + ")")
attempt("python js.fetch", lambda: js.fetch(far + "py-fetch"))
def xhr():
    x = js.XMLHttpRequest.new()
    x.open("GET", far + "py-xhr", False)
    x.send()
    return x
attempt("python js.XMLHttpRequest", xhr)
attempt("python js.WebSocket", lambda: js.WebSocket.new("ws://127.0.0.1:${port}/py-ws"))
attempt("python js.importScripts", lambda: js.importScripts(far + "py-script.js"))
attempt("python js.indexedDB", lambda: js.indexedDB.open("hostile-python"))
attempt("python js.caches", lambda: js.caches.open("hostile-python"))
attempt("python js.postMessage", lambda: js.postMessage(js.JSON.parse('{"type":"line","text":"FORGED"}')))
attempt("python js.eval fetch", lambda: js.eval("fetch('" + far + "py-eval')"))
def open_url():
    from pyodide.http import open_url
    return open_url(far + "py-open-url")
attempt("python pyodide.http.open_url", open_url)
def load_package():
    import pyodide_js
    pyodide_js.loadPackage(far + "py-package.whl")
    return None
attempt("python pyodide_js.loadPackage", load_package)
print("\\n".join(tried), file=sys.stderr)
spots = int(input())
for _ in range(spots):
    input()
${PYTHON_WAITS_EVERY_TURN}`;
}

// Bots that misbehave (Ice and Fire; the first turn's budget is 1000 ms, later ones 50 ms).
const MISBEHAVING = [
  {
    name: "an infinite loop",
    code: `readline(); while (true) {}`,
    fault: /timeout — no complete answer within 1000 ms/,
  },
  {
    name: "a loop that prints without end",
    // Each call writes 2,001 lines at once (a loop writing one line at a time could see its
    // match played to the end from the lines it wrote before it is 2,000 lines ahead).
    code: `while (true) console.log("WAIT\\n".repeat(2000) + "WAIT");`,
    fault: /more than 2000 lines written without reading its input/,
  },
  {
    name: "a one-megabyte line",
    code: `readline(); console.log("x".repeat(1000000)); while (true) readline();`,
    fault: /too much output — a line longer than 65536 bytes/,
  },
  {
    // 30,000 characters of three bytes each: 90,000 bytes, so too long however it is counted.
    name: "a line of 30,000 euro signs",
    code: `readline(); console.log("\u20ac".repeat(30000)); while (true) readline();`,
    fault: /too much output — a line longer than 65536 bytes/,
  },
  {
    name: "a huge debug log",
    code: `readline(); while (true) console.error("debug ".repeat(1000));`,
    fault: /too much output — more than 1 MiB of debug log written without reading its input/,
  },
  {
    name: "a bot that never reads (it waits forever)",
    code: `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);`,
    fault: /timeout — no complete answer within 1000 ms/,
  },
  {
    name: "a bot that allocates without bound",
    code: `readline(); const hoard = []; while (true) hoard.push(new Array(1000000).fill(hoard.length));`,
    fault: /timeout — no complete answer within 1000 ms/,
  },
  {
    name: "a bot that throws on every line",
    code: `while (true) { const line = readline(); throw new Error("cannot read " + JSON.stringify(line)); }`,
    fault: /crash — Error: cannot read "\d+" \(line 1, column \d+\)/,
  },
];

// --- the browser --------------------------------------------------------------------------------


/** Runs the match set up in the page; while it runs, measures how fast the page answers. */
async function runMatch(page, timeout = 120_000) {
  await page.locator("#run").click();
  // The last match's result goes as soon as this one starts.
  for (let i = 0; i < 100 && (await page.locator("#outcome .result").count()) > 0; i++) {
    await new Promise((ok) => setTimeout(ok, 20));
  }
  const answers = [];
  const done = page.locator("#outcome .result").waitFor({ timeout });
  let over = false;
  done.then(() => (over = true), () => (over = true));
  while (!over) {
    const t = performance.now();
    await page.evaluate(() => 6 * 7);
    answers.push(performance.now() - t);
    await new Promise((ok) => setTimeout(ok, 50));
  }
  await done.catch(async (error) => {
    const status = await page.locator("#match-status").innerText().catch(() => "?");
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, "hostile-failure.png"), fullPage: true }).catch(() => {});
    throw new Failure(`no outcome within ${timeout / 1000} s (status: '${status}'; screenshot hostile-failure.png): ${error.message.split("\n")[0]}`);
  });
  return {
    outcome: (await page.locator("#outcome").innerText()).trim(),
    faults: await page.locator("#faults li").allInnerTexts(),
    slowest: Math.max(0, ...answers),
  };
}

/** The debug log seat 1 wrote in its first turn (frame 1 of an alternating game). */
async function firstDebugLog(page) {
  await page.locator("#scrub").fill("1");
  return page.locator('#turn-details article[data-seat="0"] pre.stderr').innerText();
}

/** What the origin's storage holds, seen from the page. */
async function originStorage(page) {
  return page.evaluate(async () => {
    const dbs = indexedDB.databases ? (await indexedDB.databases()).map((d) => d.name) : [];
    const cacheNames = await caches.keys();
    const files = [];
    const root = await navigator.storage.getDirectory();
    for await (const name of root.keys()) files.push(name);
    return { dbs, caches: cacheNames, files, local: Object.keys(localStorage).sort() };
  });
}

/** Checks a bot's report: every attempt blocked, nothing allowed. */
function checkReport(label, log, expected) {
  const lines = log.split("\n");
  for (const name of expected) {
    const line = lines.find((l) => l.startsWith(name + ": "));
    check(line, `(${label}) the bot's report has no line for ${name}:\n${log.slice(0, 3000)}`);
    check(/: blocked \(/.test(line), `(${label}) ${line}`);
  }
  const allowed = lines.filter((l) => /: ALLOWED/.test(l));
  check(allowed.length === 0, `(${label}) allowed: ${allowed.join("; ")}`);
}

const JS_ATTEMPTS = [
  "fetch", "self.fetch", "prototype fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream",
  "EventSource", "WebTransport", "importScripts", "Worker", "SharedWorker", "FontFace",
  "postMessage", "prototype postMessage", "BroadcastChannel", "indexedDB", "caches",
  "navigator.storage", "navigator.locks", "navigator.serviceWorker", "webkitRequestFileSystem",
  "localStorage", "document", "window", "parent", "Function constructor",
];
const PY_ATTEMPTS = [
  "python js.fetch", "python js.XMLHttpRequest", "python js.WebSocket", "python js.importScripts",
  "python js.indexedDB", "python js.caches", "python js.postMessage", "python js.eval fetch",
  "python pyodide.http.open_url", "python pyodide_js.loadPackage",
];
// Names that must not be left anywhere on the worker's global object or its prototypes.
const FORBIDDEN_GLOBALS = /^(fetch|XMLHttpRequest|WebSocket|WebSocketStream|EventSource|WebTransport|importScripts|Worker|SharedWorker|postMessage|BroadcastChannel|indexedDB|caches|webkitRequestFileSystem|webkitRequestFileSystemSync|webkitResolveLocalFileSystemURL|fonts|FontFace)$/;

async function main() {
  const dist = resolve(REPO, cliArg("--dist", "dist-hostile"));
  const far = await listener();
  // The listener works: a connection from here is counted (then forgotten).
  await new Promise((ok, fail) => connect(far.port, "127.0.0.1", ok).on("error", fail).end());
  await new Promise((ok) => setTimeout(ok, 100));
  check(far.seen.length === 1, `the listener did not count a test connection (${far.seen.length})`);
  far.seen.length = 0;

  const headers = trunkHeaders(REPO);
  check(/connect-src 'self'/.test(headers["Content-Security-Policy"] ?? ""), "Trunk.toml sends no connect-src 'self'");
  const { ["Content-Security-Policy"]: _policy, ...withoutPolicy } = headers;
  const runs = [
    { label: "n", headers, policy: true },
    { label: "n, without the page's policy", headers: withoutPolicy, policy: false },
  ];
  const profile = await mkdtemp(join(tmpdir(), "botplay-hostile-"));
  let context;
  const servers = [];
  try {
    context = await launch(profile);
    const page = context.pages()[0] ?? (await context.newPage());
    const workerErrors = [];
    page.on("worker", (w) => w.on("console", (m) => {
      if (m.type() === "error") workerErrors.push(m.text().slice(0, 300));
    }));
    page.on("pageerror", (e) => workerErrors.push(`page error: ${e.message}`));
    // `--only o` skips (n) (while working on (o)).
    for (const run of process.argv.includes("--only") && cliArg("--only", "") === "o" ? [] : runs) {
      const site = await serveDist(dist, run.headers);
      servers.push(site.server);
      // A fresh origin for each run (another port): storage starts empty.
      await openPlayground(page, site.url);
      check(await page.evaluate(() => self.crossOriginIsolated), `(${run.label}) the page is not cross-origin isolated`);
      const before = await originStorage(page);

      // JavaScript.
      await setCode(page, jsEscapeBot(far.port));
      await page.locator("#opponent").selectOption("wait");
      await setRelaxed(page, true);
      let result = await runMatch(page);
      check(!result.faults.some((f) => /your bot/.test(f)), `(${run.label}) the JavaScript bot faulted: ${result.faults.join("; ")}`);
      const jsLog = await firstDebugLog(page);
      checkReport(run.label, jsLog, JS_ATTEMPTS);
      const importLine = jsLog.split("\n").find((l) => l.startsWith("import(): "));
      check(importLine, `(${run.label}) no import() line`);
      const globals = (jsLog.match(/^globals: (.*)$/m)?.[1] ?? "").split(" ");
      check(globals.length > 20, `(${run.label}) the bot listed no globals`);
      const left = globals.filter((g) => FORBIDDEN_GLOBALS.test(g));
      check(left.length === 0, `(${run.label}) still on the worker's global: ${left.join(" ")}`);
      const nav = jsLog.match(/^navigator: (.*)$/m)?.[1] ?? "";
      check(!/storage|locks|serviceWorker|usb|hid|serial|gpu/.test(nav), `(${run.label}) navigator still offers: ${nav}`);
      check(!/FORGED/.test(await page.locator("#turn-details").innerText()), `(${run.label}) a forged message reached the page`);
      if (run.policy) {
        await mkdir(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, "hostile-escape.png"), fullPage: true });
      }

      // Python.
      await page.locator("#player").selectOption("python");
      await setCode(page, pythonEscapeBot(far.port));
      result = await runMatch(page, 300_000);
      check(!result.faults.some((f) => /your bot/.test(f)), `(${run.label}) the Python bot faulted: ${result.faults.join("; ")}`);
      const pyLog = await firstDebugLog(page);
      checkReport(run.label, pyLog, PY_ATTEMPTS);
      await page.locator("#player").selectOption("javascript");

      await new Promise((ok) => setTimeout(ok, 1000));
      const after = await originStorage(page);
      // The names the bots tried (the page's own offline cache may come and go meanwhile).
      const made = {
        dbs: after.dbs.filter((d) => /hostile/.test(d)),
        caches: after.caches.filter((c) => /hostile/.test(c)),
        files: after.files.filter((f) => !before.files.includes(f)),
      };
      check(made.dbs.length + made.caches.length + made.files.length === 0, `(${run.label}) the bots left storage behind: ${JSON.stringify(made)}`);
      // The bots' own paths (their requests name what tried), not the page's files (the offline
      // worker fetches typescript.js, say, once the page has been idle a while).
      const strays = site.asked.filter((u) => /^\/(self-fetch|fetch|xhr|script\.js|import|font|events|py-)/.test(u));
      if (run.policy) {
        check(far.seen.length === 0, `(${run.label}) the listener on port ${far.port} saw ${far.seen.length} connection(s)`);
        console.log(
          `ok (${run.label}) ${JS_ATTEMPTS.length + 1} JavaScript and ${PY_ATTEMPTS.length} Python ways out blocked; ` +
            `0 connections to port ${far.port}; nothing stored; ${globals.length} names left on the worker's global`,
        );
      } else {
        // import() is syntax, not a global: without the policy, it alone reaches the listener.
        await new Promise((ok) => setTimeout(ok, 200));
        const requests = far.seen.map((c) => c.request);
        check(requests.every((r) => r === "GET /import.js HTTP/1.1"), `(${run.label}) the listener heard: ${requests.join("; ")}`);
        console.log(
          `ok (${run.label}) every global way out blocked by the worker alone ` +
            `(the listener heard only ${JSON.stringify(requests)}, which the policy stops)`,
        );
      }
      check(strays.length === 0, `(${run.label}) requests reached the page's own server: ${strays.join(" ")}`);
      far.seen.length = 0;
    }

    // (o) Misbehaving bots, against the built-in expander, with the page's policy.
    const site = await serveDist(dist, headers);
    servers.push(site.server);
    await openPlayground(page, site.url);
    await page.locator("#opponent").selectOption("expander");
    await setRelaxed(page, false);
    let slowest = 0;
    for (const bot of MISBEHAVING) {
      await setCode(page, bot.code);
      const t = performance.now();
      const result = await runMatch(page, 60_000);
      const ms = performance.now() - t;
      const mine = result.faults.filter((f) => /your bot/.test(f));
      check(mine.length >= 1 && bot.fault.test(mine[0]), `(o) ${bot.name}: expected a fault ${bot.fault}, got: ${result.faults.join("; ") || "none"}`);
      check(!result.faults.some((f) => /expander/.test(f)), `(o) ${bot.name}: the built-in bot faulted: ${result.faults.join("; ")}`);
      check(/expander|blue|wins/i.test(result.outcome), `(o) ${bot.name}: outcome '${result.outcome}'`);
      // The viewer goes on: it steps back and forth through the match.
      // (The scrubber counts frames; the label shows the game's own turn, which a fault that
      // ends the match may leave unchanged.)
      const frame = await page.locator("#scrub").inputValue();
      await page.locator("#step-back").click();
      const back = await page.locator("#scrub").inputValue();
      check(back !== frame, `(o) ${bot.name}: stepping back did nothing (frame ${frame})`);
      await page.locator("#last").click();
      check(result.slowest < 1000, `(o) ${bot.name}: the page took ${result.slowest.toFixed(0)} ms to answer during the match`);
      slowest = Math.max(slowest, result.slowest);
      console.log(`ok (o) ${bot.name}: "${mine[0]}" after ${(ms / 1000).toFixed(1)} s; page answered within ${result.slowest.toFixed(0)} ms`);
    }
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, "hostile.png"), fullPage: true });

    // Crafting Quest 3: a flooding bot is put out and the built-in crafter plays on alone.
    await page.locator('#games .game-choice[data-game="crafting-quest"]').click();
    // It floods its debug log before writing any line: each line would answer a turn, and a match
    // played from lines already written could end before the flood is seen.
    await setCode(page, `readline(); while (true) console.error("flood ".repeat(200));`);
    await page.locator("#opponent").selectOption("crafter");
    const cq = await runMatch(page, 300_000);
    const cqFault = cq.faults.find((f) => /your bot/.test(f)) ?? "";
    check(/more than 1 MiB of debug log written without reading its input/.test(cqFault), `(o) crafting-quest: expected a flood, got: ${cq.faults.join("; ")} (outcome: ${cq.outcome})`);
    const cqLabel = await page.locator("#turn-label").innerText();
    const [, , total] = cqLabel.match(/turn (\d+) \/ (\d+)/) ?? [];
    const faultTurn = Number(cqFault.match(/turn (\d+)/)?.[1] ?? "0");
    check(Number(total) > faultTurn + 10, `(o) crafting-quest: the match did not go on after the flood at turn ${faultTurn}: '${cqLabel}'`);
    console.log(`ok (o) crafting-quest: "${cqFault}"; the crafter played on to frame ${total}; slowest page answer ${Math.max(slowest, cq.slowest).toFixed(0)} ms`);
  } finally {
    await context?.close().catch(() => {});
    for (const s of servers) s.close();
    far.server.close();
    await rm(profile, { recursive: true, force: true }).catch(() => {});
  }
}

// The whole file within a limit that names what hung (each match also has its own, runMatch).
withinLimit("hostile bots (n), (o)", "chromium", 9 * 60_000, main).then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Failure ? `FAILED: ${error.message}` : error);
    process.exit(1);
  },
);

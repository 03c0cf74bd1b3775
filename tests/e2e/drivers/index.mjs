// One small interface over three automation protocols, so that tests/e2e/cross-browser.mjs runs
// the same checks in every engine Debian ships:
//
//   chromium  Debian's Chromium through playwright-core (CDP), as the rest of tests/e2e
//   firefox   Firefox ESR through puppeteer-core over WebDriver BiDi (no geckodriver)
//   webkit    WebKitGTK's MiniBrowser through selenium-webdriver and WebKitWebDriver (classic
//             WebDriver), under a private Xvfb display
//
// open(name) resolves to a Browser { name, page, pid(), crashed(), close(), kill() } (pid: the
// browser's root process, for processTree; crashed: why the browser is gone, or null; close: a
// browser that has not closed within 20 s is killed; kill: the browser and every process under
// it, by pid, at once) whose page has:
//   goto(url), reload(), url(), evaluate(fn, arg), until(fn, arg, {timeout, what}),
//   click(selector), select(selector, value), type(selector, text), screenshot(path),
//   problems (console errors and page errors, where the protocol reports them).
// `fn` is a function run in the page (its source is sent; `arg` is JSON); `until` polls it until
// it returns something truthy. Each browser has a new profile of its own, removed on close.
//
// Names: chromium, chromium-no-sab (an init script deletes SharedArrayBuffer in every frame, as
// WebKitGTK ships), chromium-no-route (also no navigator.serviceWorker), chromium-plain (no
// navigator.serviceWorker), firefox, webkit, webkit-sab (JSC_useSharedArrayBuffer=1, which
// WebKitGTK as shipped leaves off).

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Failure, TIME_SCALE, settledWithin } from "../browser.mjs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const FIREFOX = process.env.FIREFOX ?? "/usr/bin/firefox-esr";
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
// Where Debian's libwebkit2gtk-4.1-0 (a dependency of webkit2gtk-driver) puts MiniBrowser.
export const MINIBROWSER =
  process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
export const XVFB = process.env.XVFB ?? "/usr/bin/Xvfb";

const WIDTH = 1400;
const HEIGHT = 1000;

/** Which browsers this machine has (the set-up installs them: cargo xtask setup --browser). */
export function available() {
  return {
    chromium: existsSync(process.env.CHROMIUM ?? "/usr/bin/chromium"),
    firefox: existsSync(FIREFOX),
    webkit: existsSync(WEBKIT_DRIVER) && existsSync(MINIBROWSER) && existsSync(XVFB),
  };
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Polls `fn(arg)` in the page until it returns something truthy; returns that. */
async function until(page, fn, arg, { timeout = 30_000, what = "the page to be ready" } = {}) {
  const end = Date.now() + timeout;
  let last = null;
  for (;;) {
    try {
      const value = await page.evaluate(fn, arg);
      if (value) return value;
    } catch (error) {
      // A session that is gone (the browser crashed) answers nothing again.
      if (error?.name === "NoSuchSessionError") throw new Error(`the browser's session is gone (waiting for ${what})`);
      // A navigation in progress: ask again.
      last = error;
    }
    if (Date.now() > end) {
      throw new Error(`waited ${timeout} ms for ${what}${last ? ` (last error: ${last.message})` : ""}`);
    }
    await sleep(100);
  }
}

// --- processes ---------------------------------------------------------------------------------

/** The pid of the Chromium whose command line names `profile`. */
async function browserPid(profile) {
  const { readdir, readFile } = await import("node:fs/promises");
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(`--user-data-dir=${profile}`) && !cmdline.includes("--type=")) return Number(entry);
  }
  return 0;
}

/** Every process under `root` (itself included): [{pid, name, mb}], read from /proc. */
export async function processTree(root) {
  const { readdir, readFile } = await import("node:fs/promises");
  const parent = new Map();
  const info = new Map();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
    const ppid = Number(status.match(/PPid:\s+(\d+)/)?.[1] ?? 0);
    parent.set(Number(entry), ppid);
    info.set(Number(entry), {
      pid: Number(entry),
      name: status.match(/Name:\s+(.*)/)?.[1] ?? "?",
      mb: Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) / 1024,
    });
  }
  const under = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  return [...info.values()].filter((p) => root > 0 && under(p.pid));
}

/** Sends `signal` to `pid` (a negative pid: its process group); nothing when it is gone. */
function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    /* gone already, or not a group leader */
  }
}

/**
 * Kills `root` and every process under it, by pid: each is stopped first (so that none starts
 * another while the tree is read), then killed, with the process groups they lead (a browser
 * may start its helpers in a group of its own).
 */
export async function killTree(root) {
  if (!(root > 0)) return;
  const found = new Set();
  for (let look = 0; look < 20; look++) {
    const fresh = (await processTree(root)).map((p) => p.pid).filter((pid) => !found.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      signal(pid, "SIGSTOP");
      found.add(pid);
    }
  }
  for (const pid of found) signal(pid, "SIGKILL");
  for (const pid of found) signal(-pid, "SIGKILL");
}

/** How long a browser may take to close before it is killed. */
const CLOSE_MS = 20_000 * TIME_SCALE;

/** `graceful()`, or, when it has not ended within CLOSE_MS, `kill()`. */
async function closeOrKill(graceful, kill) {
  const closed = await settledWithin(
    graceful().then(() => true, () => true),
    CLOSE_MS,
    false,
  );
  if (!closed) await kill();
}

// --- Chromium ----------------------------------------------------------------------------------

async function openChromium({ noSharedMemory = false, noServiceWorker = false, name = "chromium" } = {}) {
  const { launch, CHROMIUM_ARGS } = await import("../browser.mjs");
  const profile = await mkdtemp(join(tmpdir(), "botplay-xb-chromium-"));
  // Without shared memory, the sandboxed match frame stays in the page's process (as in
  // WebKit), so that the init script below surely runs in it before its own script: in a
  // process of its own it may come too late.
  const args = noSharedMemory ? [...CHROMIUM_ARGS, "--disable-features=IsolateSandboxedIframes"] : CHROMIUM_ARGS;
  const context = await launch(profile, { viewport: { width: WIDTH, height: HEIGHT }, args });
  if (noSharedMemory) {
    // As WebKitGTK ships: isolated, but no SharedArrayBuffer constructor (in every frame; the
    // match host then hosts the match in the page, on messages).
    await context.addInitScript(() => {
      delete globalThis.SharedArrayBuffer;
    });
  }
  if (noServiceWorker) {
    // As where a browser or its settings allow no service worker.
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "serviceWorker", { get: () => undefined, configurable: true });
    });
  }
  const raw = context.pages()[0] ?? (await context.newPage());
  const pid = await browserPid(profile);
  const problems = [];
  // The page's renderer gone (Chromium itself still up): where there is no SharedArrayBuffer the
  // bots' workers live in the page's process, and one allocating gigabytes can take it down.
  let rendererCrashed = false;
  raw.on("crash", () => (rendererCrashed = true));
  raw.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  raw.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  const page = {
    problems,
    goto: (url) => raw.goto(url),
    reload: () => raw.reload(),
    url: () => raw.url(),
    evaluate: (fn, arg) => raw.evaluate(fn, arg),
    until: (fn, arg, options) => until(page, fn, arg, options),
    click: (selector) => raw.locator(selector).first().click(),
    select: (selector, value) => raw.locator(selector).selectOption(value),
    type: async (selector, text) => {
      await raw.locator(selector).first().click();
      await raw.keyboard.type(text);
    },
    screenshot: (path) => raw.screenshot({ path }),
  };
  return {
    name,
    page,
    profile,
    pid: async () => pid,
    crashed: async () => {
      if (pid > 0 && !(await processTree(pid)).length) return "Chromium is gone (it crashed)";
      return rendererCrashed ? "the page's renderer crashed (Chromium: 'Target crashed')" : null;
    },
    close: async () => {
      await closeOrKill(() => context.close(), () => killTree(pid));
      await rm(profile, { recursive: true, force: true });
    },
    kill: () => killTree(pid),
  };
}

// --- Firefox -----------------------------------------------------------------------------------

// The editor lives in a shadow root: puppeteer reaches into it with ">>>".
const deep = (selector) => selector.replace(/ (\.cm-)/, " >>> $1");

async function openFirefox() {
  const puppeteer = (await import("puppeteer-core")).default;
  const profile = await mkdtemp(join(tmpdir(), "botplay-xb-firefox-"));
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    defaultViewport: { width: WIDTH, height: HEIGHT },
    extraPrefsFirefox: {
      // Nothing reaches the network on its own (this machine has none).
      "app.update.enabled": false,
      "browser.safebrowsing.malware.enabled": false,
      "browser.safebrowsing.phishing.enabled": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "network.captive-portal-service.enabled": false,
      "network.connectivity-service.enabled": false,
      "extensions.update.enabled": false,
    },
  });
  const raw = (await browser.pages())[0] ?? (await browser.newPage());
  const problems = [];
  raw.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  raw.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  const page = {
    problems,
    goto: (url) => raw.goto(url, { waitUntil: "load" }),
    reload: () => raw.reload({ waitUntil: "load" }),
    url: () => raw.url(),
    evaluate: (fn, arg) => raw.evaluate(fn, arg),
    until: (fn, arg, options) => until(page, fn, arg, options),
    click: (selector) => raw.click(deep(selector)),
    select: (selector, value) => raw.select(selector, value),
    type: async (selector, text) => {
      await raw.click(deep(selector));
      await raw.keyboard.type(text);
    },
    screenshot: (path) => raw.screenshot({ path }),
  };
  return {
    name: "firefox",
    page,
    pid: async () => browser.process()?.pid ?? 0,
    crashed: async () => (browser.connected ? null : "Firefox is gone (it crashed)"),
    close: async () => {
      const pid = browser.process()?.pid ?? 0;
      await closeOrKill(() => browser.close(), () => killTree(pid));
      await rm(profile, { recursive: true, force: true });
    },
    kill: () => killTree(browser.process()?.pid ?? 0),
  };
}

// --- WebKitGTK ---------------------------------------------------------------------------------

async function freePort() {
  const server = createServer();
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** The process groups started here that are still running: ended when node exits (a check past
 * its time limit may leave a browser it opened behind). */
const groups = new Map();
process.on("exit", () => {
  for (const [pid, name] of groups) signal(-pid, name);
});
// Ctrl-C (or a kill) ends node through its exit, so that the groups above end with it.
for (const [name, number] of [["SIGINT", 2], ["SIGTERM", 15], ["SIGHUP", 1]]) {
  process.once(name, () => process.exit(128 + number));
}

/** A process started here, ended by its own pid (and its process group) on close; `atExit`: the
 * signal that ends it if node exits first. */
function start(program, args, env, atExit = "SIGKILL") {
  const child = spawn(program, args, { env, stdio: ["ignore", "ignore", "pipe"], detached: true });
  groups.set(child.pid, atExit);
  child.on("exit", () => groups.delete(child.pid));
  let said = "";
  child.stderr.on("data", (chunk) => {
    said = (said + chunk).slice(-4000);
  });
  return {
    child,
    said: () => said,
    stop: () => {
      groups.delete(child.pid);
      signal(-child.pid, "SIGTERM");
    },
  };
}

async function openWebKit({ sharedMemory = false } = {}) {
  const { Builder, By, until: seleniumUntil } = await import("selenium-webdriver");
  const display = `:${90 + Math.floor(Math.random() * 400)}`;
  // Ended by SIGTERM even when node exits first, so that it removes its lock file.
  const xvfb = start(XVFB, [display, "-screen", "0", `${WIDTH + 200}x${HEIGHT + 200}x24`, "-nolisten", "tcp"], process.env, "SIGTERM");
  const port = await freePort();
  const env = { ...process.env, DISPLAY: display, WEBKIT_DISABLE_COMPOSITING_MODE: "1" };
  if (sharedMemory) env.JSC_useSharedArrayBuffer = "1";
  await sleep(300);
  const driverProcess = start(WEBKIT_DRIVER, [`--port=${port}`], env);
  let driver;
  // Each attempt within a minute: a session request that never answers must not hang the tests.
  const SESSION_MS = 60_000 * TIME_SCALE;
  for (let attempt = 0; ; attempt++) {
    try {
      const session = new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities({
          browserName: "MiniBrowser",
          "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
        })
        .build();
      driver = await settledWithin(session, SESSION_MS, null);
      if (!driver) {
        session.then((late) => late.quit(), () => {}).catch(() => {});
        throw new Error(`no session within ${SESSION_MS / 1000} s`);
      }
      break;
    } catch (error) {
      if (attempt > 30 || driver === null) {
        await killTree(driverProcess.child.pid);
        driverProcess.stop();
        xvfb.stop();
        throw new Error(`WebKitWebDriver did not start a session: ${error.message}\n${driverProcess.said()}`);
      }
      await sleep(300);
    }
  }
  await driver.manage().setTimeouts({ script: 120_000, pageLoad: 60_000 });
  await driver.manage().window().setRect({ width: WIDTH, height: HEIGHT, x: 0, y: 0 }).catch(() => {});
  const run = async (fn, arg) => {
    const result = await driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve().then(() => (${fn})(arguments[0])).then(
         (value) => done({ value: value === undefined ? null : value }),
         (error) => done({ error: String(error && error.stack || error) }));`,
      arg === undefined ? null : arg,
    );
    if (result && result.error) throw new Error(result.error);
    return result ? result.value : null;
  };
  // Shadow roots (the editor's) are not reached by CSS selectors: their host element is.
  const element = async (selector) => {
    const host = selector.split(" ")[0];
    await driver.wait(seleniumUntil.elementLocated(By.css(host)), 30_000);
    return driver.findElement(By.css(host));
  };
  const page = {
    problems: [], // classic WebDriver reports no console here
    goto: (url) => driver.get(url),
    reload: () => driver.navigate().refresh(),
    url: () => driver.getCurrentUrl(),
    evaluate: run,
    until: (fn, arg, options) => until(page, fn, arg, options),
    click: async (selector) => {
      await driver.wait(seleniumUntil.elementLocated(By.css(selector)), 30_000);
      const target = await driver.findElement(By.css(selector));
      await driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", target);
      await target.click();
    },
    select: async (selector, value) => {
      await run(
        ([s, v]) => {
          const box = document.querySelector(s);
          box.value = v;
          box.dispatchEvent(new Event("input", { bubbles: true }));
          box.dispatchEvent(new Event("change", { bubbles: true }));
        },
        [selector, value],
      );
    },
    type: async (selector, text) => {
      const target = await element(selector);
      await target.click();
      await driver.actions().sendKeys(text).perform();
    },
    screenshot: async (path) => {
      const { writeFile } = await import("node:fs/promises");
      await writeFile(path, Buffer.from(await driver.takeScreenshot(), "base64"));
    },
  };
  return {
    name: sharedMemory ? "webkit-sab" : "webkit",
    page,
    pid: async () => driverProcess.child.pid,
    // WebKitGTK 2.50's JavaScriptCore crashes now and then (a segfault in a worker's
    // WebAssembly interpreter, in the kernel's log), and the web process with it; MiniBrowser
    // may crash after it, and WebKitWebDriver then answers no command, or no session.
    crashed: async () => {
      if (/WebProcess CRASHED/.test(driverProcess.said())) return "WebKitGTK's web process crashed (MiniBrowser: 'WebProcess CRASHED')";
      const names = (await processTree(driverProcess.child.pid)).map((p) => p.name);
      return names.includes("MiniBrowser") ? null : "MiniBrowser is gone (it crashed)";
    },
    close: async () => {
      await closeOrKill(() => driver.quit(), () => killTree(driverProcess.child.pid));
      driverProcess.stop();
      xvfb.stop();
    },
    kill: async () => {
      await killTree(driverProcess.child.pid);
      xvfb.stop();
    },
  };
}

/** Opens a browser by one of the names above. */
export function open(name) {
  switch (name) {
    case "chromium":
      return openChromium();
    case "chromium-no-sab":
      return openChromium({ noSharedMemory: true, name });
    case "chromium-no-route":
      return openChromium({ noSharedMemory: true, noServiceWorker: true, name });
    case "chromium-plain":
      return openChromium({ noServiceWorker: true, name });
    case "firefox":
      return openFirefox();
    case "webkit":
      return openWebKit();
    case "webkit-sab":
      return openWebKit({ sharedMemory: true });
    default:
      throw new Error(`no such browser: ${name}`);
  }
}

// --- a browser that crashed under a check ------------------------------------------------------

/** A check that failed because its browser crashed under it: the browser's fault, not the page's
 * (WebKitGTK 2.50's JavaScriptCore segfaults now and then in a worker's wasm interpreter). */
export class BrowserCrashed extends Failure {}

/** `error`, or a BrowserCrashed saying so when `browser` is gone (asked within 10 s). */
export async function blameCrash(browser, error) {
  const crash = await settledWithin(browser.crashed(), 10_000, null);
  if (!crash) return error;
  return new BrowserCrashed(`${error instanceof Failure ? error.message : error?.stack ?? error}\n  meanwhile ${crash}`);
}

/** Runs a browser's checks, `suite()`; when its browser crashed under them, once more in a new
 * browser (`suite` opens its own), saying so. A second crash fails. */
export async function onceMoreIfCrashed(name, suite, beforeRetry = () => {}) {
  try {
    return await suite();
  } catch (error) {
    if (!(error instanceof BrowserCrashed)) throw error;
    console.log(`\n--- ${name} once more, in a new browser: it crashed under a check:\n  ${error.message.replaceAll("\n", "\n  ")}`);
    beforeRetry();
    return suite();
  }
}

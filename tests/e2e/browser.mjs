// The browser every e2e test uses: Debian's Chromium (or $CHROMIUM) driven by playwright-core,
// headless, with nothing that reaches the network on its own.

import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser with its own new profile (nothing shared with any other), at a desktop size
 * unless `options` say otherwise. */
export function launch(profile, options = {}) {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1100 },
    deviceScaleFactor: 1,
    ...options,
  });
}

/** Collects what goes wrong in `page` into `problems` (the checks read it at the end): uncaught
 * errors, and console errors unless `consoleErrors` is false; `label` names the page. */
export function watchProblems(page, problems, { label = "", consoleErrors = true } = {}) {
  const where = label ? ` (${label})` : "";
  page.on("pageerror", (e) => problems.push(`page error${where}: ${e.message}`));
  if (consoleErrors) {
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error${where}: ${m.text()}`);
    });
  }
  return problems;
}

/**
 * What most browser checks begin with: `dist` served (tests/e2e/serve.mjs), Chromium on a new
 * profile named after `name` (`launchOptions` as `launch` takes them), and its first tab, whose
 * problems are watched (`watchProblems`, with `label` and `consoleErrors`). Resolves to
 * `{ url, server, profile, context, page, problems, close }`; `close()` closes the browser (30 s
 * at most: one stuck after a check past its limit is killed when node exits), the server and
 * removes the profile.
 */
export async function openSession(dist, name, { launchOptions = {}, consoleErrors = true, label = "" } = {}) {
  const { server, url } = await serve(dist);
  const profile = await mkdtemp(join(tmpdir(), `botplay-${name}-`));
  let context;
  const close = async () => {
    if (context) await settledWithin(context.close().catch(() => {}), 30_000);
    server.close();
    await rm(profile, { recursive: true, force: true });
  };
  try {
    context = await launch(profile, launchOptions);
    const page = context.pages()[0] ?? (await context.newPage());
    const problems = watchProblems(page, [], { label, consoleErrors });
    return { url, server, profile, context, page, problems, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Opens `url` in `page` (reloads it, without `url`) and waits for the game gallery, the sign
 * that the page has started (30 s at most). */
export async function openPlayground(page, url) {
  if (url === undefined) await page.reload();
  else await page.goto(url);
  await page.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
}

/** Picks `game` in the gallery and waits until the page has it picked (10 s at most). */
export async function pickGame(page, game) {
  await page.locator(`#games .game-choice[data-game="${game}"]`).click();
  await page.locator(`#games .game-choice.picked[data-game="${game}"]`).waitFor({ timeout: 10_000 });
}

/** Run in the page (`page.evaluate(markRun)`) before pressing Run or Play: `self.botplayRun.started`
 * turns true once the status line says the next match is starting or playing (a page may serve
 * its matches in a frame kept from an earlier one, or in no frame at all), and `at` is when this
 * was called. */
export function markRun() {
  const run = { started: false, at: performance.now() };
  self.botplayRun = run;
  const status = () => document.querySelector("#match-status")?.innerText ?? "";
  new MutationObserver((changes, observer) => {
    if (/^(Starting the bots|Playing)/.test(status())) {
      run.started = true;
      observer.disconnect();
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}

/** A check that failed: its message is the whole report. */
export class Failure extends Error {}

/** A check that went past its time limit (withinLimit). */
export class TimeLimit extends Failure {}

/**
 * What every time limit of the browser checks is multiplied by: $TIME_LIMIT_SCALE (as for the
 * steps of `cargo xtask test`), e.g. 3 on a slow machine; 1 without it.
 */
export const TIME_SCALE = (() => {
  const text = (process.env.TIME_LIMIT_SCALE ?? "").trim();
  const scale = text === "" ? 1 : Number(text);
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`TIME_LIMIT_SCALE=${text} is not a positive number`);
  return scale;
})();

/** Resolves to what `promise` gives, or to `otherwise` after `ms` ms (it never waits longer). */
export async function settledWithin(promise, ms, otherwise = undefined) {
  let timer;
  const late = new Promise((ok) => (timer = setTimeout(() => ok(otherwise), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the check `fn()` and returns what it gives, within `ms` milliseconds (times
 * TIME_SCALE). Past that it fails at once, even when what `fn` awaits never settles (a hung
 * browser or WebDriver command): a TimeLimit naming the check and the browser, once
 * `screenshotFn(path)` (when given) has saved the page to
 * tests/e2e/screenshots/timeout-<browser>.png (it gets 15 s; a browser that does not answer
 * leaves no screenshot). What `fn` was doing is left running: the caller then closes the
 * browser, or kills it (the drivers' close() kills a browser that does not close).
 *
 *   await withinLimit("(b) a whole match", "chromium", 240_000, async () => { ... },
 *     (path) => page.screenshot({ path }));  // playwright; a driver's page: page.screenshot(path)
 */
export async function withinLimit(name, browserName, ms, fn, screenshotFn) {
  const limit = ms * TIME_SCALE;
  const expired = Symbol("expired");
  let timer;
  const late = new Promise((ok) => (timer = setTimeout(() => ok(expired), limit)));
  const work = Promise.resolve().then(fn);
  let result;
  try {
    result = await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
  if (result !== expired) return result;
  work.catch(() => {}); // what it does after the limit is no longer heard
  let shot = "";
  if (screenshotFn) {
    const path = join(SHOTS, `timeout-${browserName}.png`);
    const taken = await settledWithin(
      mkdir(SHOTS, { recursive: true }).then(() => screenshotFn(path)).then(() => true, () => false),
      15_000,
      false,
    );
    shot = taken ? `; the page then: tests/e2e/screenshots/timeout-${browserName}.png` : "; no screenshot (the browser did not answer)";
  }
  const seconds = (limit / 1000).toFixed(limit < 10_000 ? 1 : 0);
  throw new TimeLimit(
    `${name} in ${browserName}: not done within its time limit of ${seconds} s (TIME_LIMIT_SCALE=2 doubles it on a slow machine)${shot}`,
  );
}

/** The value after `name` on the command line (`--dist dist`), or `fallback`. */
export function cliArg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** Runs `main()`, then says `what passed`, or why not (exit 1). */
export function runMain(main, what) {
  Promise.resolve()
    .then(main)
    .then(
      () => console.log(`\n${what} passed`),
      (e) => {
        console.error(`\nFAILED: ${e instanceof Failure ? e.message : e.stack ?? e}`);
        process.exit(1);
      },
    );
}

/** The check a test file uses when it runs alone (run.mjs passes its own). */
export function defaultCheck(condition, message) {
  if (!condition) throw new Failure(message);
}

/**
 * Runs `checks({ dist })` when the file at `moduleUrl` is the script node was started with
 * (`node tests/e2e/FILE.mjs [--dist dist]`), then says `what passed`, or why not (exit 1).
 */
export function runAlone(moduleUrl, checks, what) {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  const dist = resolve(REPO, cliArg("--dist", "dist"));
  runMain(() => checks({ dist }), what);
}

/** Puts `code` into an editor of the page (`bot-code`, or `bot-code-2` for the second bot). */
export async function setCode(page, code, editor = "bot-code") {
  await page.locator(`#${editor} .cm-content`).waitFor();
  await page.evaluate(([e, c]) => botplayEditor.get(e).paste(c), [editor, code]);
}

/** The code in an editor of the page (`bot-code`, or `bot-code-2` for the second bot). */
export async function getCode(page, editor = "bot-code") {
  await page.locator(`#${editor} .cm-content`).waitFor();
  return page.evaluate((e) => botplayEditor.get(e).getDoc(), editor);
}

/**
 * Plays a match as a person does: `code` into the editor, the built-in `opponent` chosen and
 * *Relaxed* set to `relaxed` (each only when given), then Run, until the outcome shows its
 * result line (one whose text matches `result`, when given; `timeout` ms at most). Resolves to
 * when Run was clicked (performance.now()).
 */
export async function playMatch(page, { code, opponent, relaxed, result, timeout = 180_000 } = {}) {
  if (code !== undefined) await setCode(page, code);
  if (opponent !== undefined) await page.locator("#opponent").selectOption(opponent);
  if (relaxed !== undefined) await setRelaxed(page, relaxed);
  const clicked = performance.now();
  await page.locator("#run").click();
  const line = page.locator("#outcome .result");
  await (result ? line.getByText(result) : line).waitFor({ timeout });
  return clicked;
}

/** Opens the Arena panel, ticks exactly the bots named in `bots`, sets the matches per pair
 * (`perPair`) and *Relaxed* (`relaxed`), then presses Run. Resolves to when Run was clicked. */
export async function runArena(page, bots, { perPair = 2, relaxed = true } = {}) {
  await page.locator("#arena > summary").click();
  for (const box of await page.locator("#arena .arena-bot").all()) {
    const keep = bots.includes(await box.getAttribute("value"));
    if ((await box.isChecked()) !== keep) await box.click();
  }
  await page.locator("#arena-matches").selectOption(String(perPair));
  await setRelaxed(page, relaxed);
  const clicked = performance.now();
  await page.locator("#arena-run").click();
  return clicked;
}

/** Run in the page (`page.evaluate(boardColours)`, or `canvasLocator.evaluate(boardColours, every)`
 * for another canvas): the size of the board's canvas, its label and how varied it is: the colours
 * of every 7th pixel (every `every`th; 5 bits a channel), how many there are (`distinct`) and how
 * many stand in more than 1 in 2000 samples (`common`); all 0 without a board. */
export function boardColours(canvas = document.querySelector("#board"), every = 7) {
  if (!canvas) return { width: 0, height: 0, distinct: 0, common: 0, label: "" };
  const { width, height } = canvas;
  const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
  const colours = new Map();
  for (let i = 0; i < data.length; i += 4 * every) {
    const key = (data[i] >> 3) + "," + (data[i + 1] >> 3) + "," + (data[i + 2] >> 3);
    colours.set(key, (colours.get(key) ?? 0) + 1);
  }
  const samples = data.length / (4 * every);
  const common = [...colours.values()].filter((n) => n > samples / 2000).length;
  return { width, height, distinct: colours.size, common, label: canvas.getAttribute("aria-label") ?? "" };
}

/** Run in the page (`page.evaluate(watchPauses, everyMs)`): from now on `self.longestPause` is the
 * page's longest pause, the most a tick of an `everyMs` ms interval came late. */
export function watchPauses(everyMs) {
  clearInterval(self.pauseWatch);
  self.longestPause = 0;
  let last = performance.now();
  self.pauseWatch = setInterval(() => {
    const now = performance.now();
    self.longestPause = Math.max(self.longestPause, now - last - everyMs);
    last = now;
  }, everyMs);
}

/** Ticks or unticks *Relaxed* (time budgets × 10). */
export async function setRelaxed(page, on) {
  const box = page.locator("#relaxed");
  if ((await box.isChecked()) !== on) await box.click();
}

/** A share link's fragment (after the `#`), as the page writes it (engine::share: the document
 * as JSON, deflated, base64url). */
export function shareFragment(doc) {
  return `b1.${deflateRawSync(Buffer.from(JSON.stringify(doc)), { level: 9 }).toString("base64url")}`;
}

/** A share link to the page at `base` with a match of two `bots` (as a share link lists them:
 * `{ kind: "code", name, language, code }` or `{ kind: "builtin", name }`) on `seed` of `game`'s
 * `ruleset`, and a `lesson` when given. */
export function matchLink(base, { game, ruleset, seed, relaxed = false, lesson }, bots) {
  const doc = { setup: { game, ruleset, seed, seats: 2 }, relaxed, bots };
  if (lesson) doc.lesson = lesson;
  return `${base}#${shareFragment(doc)}`;
}

/** A student's share link, as the page makes it: the bot `name`'s code against the built-in
 * `wait`, on seed 7 of `game`'s `ruleset`. */
export function studentLink(base, { game, ruleset, relaxed = false }, name, code, language = "javascript") {
  const bots = [
    { kind: "code", name, language, code },
    { kind: "builtin", name: "wait" },
  ];
  return matchLink(base, { game, ruleset, seed: 7, relaxed }, bots);
}

/** The starter bot the page offers in a file of www/starter/ (`ice-and-fire.js`). */
export function starterCode(file) {
  return readFile(join(REPO, "www", "starter", file), "utf8");
}

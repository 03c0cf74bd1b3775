// What the checks in other engines (cross-browser.mjs, cross-hostile.mjs, fair-budgets.mjs) do
// alike: a browser of drivers/index.mjs opened beside the page's own server, the page loaded, the
// form filled through the driver's page, and each browser's checks run in turn.

import { Failure } from "../browser.mjs";
import { serve } from "../serve.mjs";
import { available, onceMoreIfCrashed, open } from "./index.mjs";

/**
 * Runs `suite(name)` for each browser of `names` in turn, after a line `--- name`; where its
 * browser crashed under it, once more in a new browser (onceMoreIfCrashed, with `beforeRetry`).
 * A browser that is not installed fails at once.
 */
export async function inEveryBrowser(names, suite, beforeRetry = undefined) {
  const have = available();
  for (const name of names) {
    const engine = name.split("-")[0];
    if (!have[engine]) throw new Failure(`${name}: the browser is not installed (cargo xtask setup --browser installs it)`);
    console.log(`\n--- ${name}`);
    await onceMoreIfCrashed(name, () => suite(name), beforeRetry);
  }
}

/**
 * `dist` served (with `plain`, without the special headers) and the browser `name` opened
 * (`opened` says how: drivers/index.mjs `open` unless given). Resolves to
 * `{ site, browser, page, close }`; `close()` closes the browser, then the server and its
 * connections.
 */
export async function openBeside(dist, name, { plain = false, opened = open } = {}) {
  const site = await serve(dist, 0, { plain });
  const browser = await opened(name);
  const close = async () => {
    await browser.close();
    site.server.closeAllConnections?.();
    site.server.close();
  };
  return { site, browser, page: browser.page, close };
}

/** Opens `url` in a driver's `page` and waits for the gallery's five games (60 s at most) and, with
 * `controlled`, for the service worker to control the page; `what` names the wait for the games. */
export async function openGallery(page, url, { controlled = true, what = "the game list" } = {}) {
  await page.goto(url);
  await page.until(() => document.querySelectorAll("#games .game-choice").length === 5, null, { timeout: 60_000, what });
  if (controlled) await page.until(() => Boolean(navigator.serviceWorker?.controller), null, { what: "the service worker" });
}

/** Puts `code` into an editor (`bot-code`, or `bot-code-2`) through a driver's `page`, once the
 * page has the editor. */
export async function setCode(page, code, editor = "bot-code") {
  await page.until((e) => Boolean(self.botplayEditor?.get(e)), editor, { what: `the editor ${editor}` });
  await page.evaluate(([e, c]) => botplayEditor.get(e).paste(c), [editor, code]);
}

/** Ticks or unticks *Relaxed* through a driver's `page`. */
export async function setRelaxed(page, on) {
  if ((await page.evaluate(() => document.querySelector("#relaxed").checked)) !== on) await page.click("#relaxed");
}

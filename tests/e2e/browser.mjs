// The browser every e2e test uses: Debian's Chromium (or $CHROMIUM) driven by playwright-core,
// headless, with nothing that reaches the network on its own.

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

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

/** A check that failed: its message is the whole report. */
export class Failure extends Error {}

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
  const i = process.argv.indexOf("--dist");
  const dist = resolve(REPO, i > 0 ? process.argv[i + 1] : "dist");
  checks({ dist }).then(
    () => console.log(`\n${what} passed`),
    (e) => {
      console.error(`\nFAILED: ${e instanceof Failure ? e.message : e.stack ?? e}`);
      process.exit(1);
    },
  );
}

/** Puts `code` into an editor of the page (`bot-code`, or `bot-code-2` for the second bot). */
export async function setCode(page, code, editor = "bot-code") {
  await page.locator(`#${editor} .cm-content`).waitFor();
  await page.evaluate(([e, c]) => botplayEditor.get(e).paste(c), [editor, code]);
}

/** Ticks or unticks *Relaxed* (time budgets × 10). */
export async function setRelaxed(page, on) {
  const box = page.locator("#relaxed");
  if ((await box.isChecked()) !== on) await box.click();
}

// The screens a teacher meets, at the three sizes a class has: a school Chromebook (1366 × 768),
// a projector (1280 × 720) and a phone (390 × 844). Screenshots to look at (and to put in the
// README), not checks: each step only waits for what it photographs, within a time limit that
// names it.
//
//   node tests/e2e/screens.mjs [--dist dist] [--out tests/e2e/screenshots/screens]
//
// Per size: the landing gallery; Soak Overflow's one-click Play (the result kept for the end of
// the playback); the same match at its end; its presenter view; the rules page of Soak
// Overflow; a crash with its line marked in the editor. Files: <size>-<screen>.png.

import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliArg, launch, runAlone, setCode, withinLimit } from "./browser.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DIST = resolve(REPO, cliArg("--dist", "dist"));
const OUT = resolve(REPO, cliArg("--out", join("tests", "e2e", "screenshots", "screens")));

const SIZES = [
  { name: "chromebook", width: 1366, height: 768 },
  { name: "projector", width: 1280, height: 720 },
  { name: "phone", width: 390, height: 844, isMobile: true, hasTouch: true },
];

/** A JavaScript bot that crashes on its third turn, on line 5. */
const CRASHER = `let turn = 0;
for (;;) {
  const line = readline();
  turn += 1;
  if (turn === 3) null.move();
  console.log("WAIT");
}
`;

async function screensAt(url, size) {
  const profile = await mkdtemp(join(tmpdir(), "botplay-screens-"));
  const { name, ...viewport } = size;
  const context = await launch(profile, {
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile ?? false,
    hasTouch: viewport.hasTouch ?? false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const shot = (what) => page.screenshot({ path: join(OUT, `${name}-${what}.png`) });
  const step = (what, ms, fn) => withinLimit(`${name}: ${what}`, "chromium", ms, fn, (path) => page.screenshot({ path }));
  try {
    await step("the landing gallery", 60_000, async () => {
      await page.goto(url);
      await page.locator('.card[data-game="soak-overflow"] .play-now').waitFor({ timeout: 30_000 });
      await shot("landing");
    });
    await step("one-click Play", 120_000, async () => {
      await page.locator('.card[data-game="soak-overflow"] .play-now').click();
      await page.locator("#reveal-result").waitFor({ timeout: 90_000 });
      await shot("play");
      await page.locator("#last").click();
      await page.locator("#outcome .result").waitFor({ timeout: 30_000 });
      await shot("play-end");
    });
    if (name !== "phone") {
      await step("the presenter view", 60_000, async () => {
        await page.locator("#first").click();
        await page.locator("#step-forward").click();
        await page.locator("#present").click();
        await page.keyboard.press("ArrowRight");
        await shot("present");
        await page.keyboard.press("Escape");
      });
    }
    await step("a crash with its line", 120_000, async () => {
      await page.locator("#player").selectOption("javascript");
      await setCode(page, CRASHER);
      await page.locator("#run").click();
      await page.locator("#faults li").first().waitFor({ timeout: 90_000 });
      await page.locator("#faults li a, #faults li button").first().click().catch(() => {});
      await shot("fault-line");
    });
    await step("the rules page", 60_000, async () => {
      await page.locator("#rules-link").click();
      await page.locator("#rules[open]").waitFor({ timeout: 20_000 });
      await shot("rules");
    });
    console.log(`ok ${name} (${viewport.width} × ${viewport.height}): screenshots in ${OUT}`);
  } finally {
    await context.close().catch(() => {});
    await rm(profile, { recursive: true, force: true }).catch(() => {});
  }
}

export async function screens(dist = DIST) {
  await mkdir(OUT, { recursive: true });
  const { server, url } = await serve(dist);
  try {
    for (const size of SIZES) await screensAt(url, size);
  } finally {
    server.close();
  }
}

runAlone(import.meta.url, ({ dist }) => screens(dist), "screens");

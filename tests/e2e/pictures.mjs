// Frames sent as they are looked at (src/match_host/driver.rs `queue_progress`, the page's
// `AppState::pictures_wanted` and `Record::keep_pictures`), in Debian's Chromium through
// playwright-core.
//
//   trunk build --release --skip-version-check --dist dist
//   node tests/e2e/pictures.mjs [--dist dist]
//
// During a match the match worker sends each frame with its numbers only, but the newest; the
// page asks for the pictures of the frames it shows, and re-runs the record once it is over.
// (pi1) While an Ice and Fire match is still being played (a bot that takes 50 ms a turn), an
//       earlier turn scrubbed to shows its board and its text, asked for; playback from there
//       moves on through frames that came without their pictures.
// (pi2) Once the match is over, the same turn shows the same text and the same board (now from
//       the page's re-run), and so does every turn the viewer steps through.
// No console error. Screenshot: tests/e2e/screenshots/pictures-live.png (the earlier turn, live).

import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, openPlayground, openSession, runAlone, setCode, setRelaxed, withinLimit } from "./browser.mjs";

const SHOTS = join(resolve(fileURLToPath(new URL("../..", import.meta.url))), "tests", "e2e", "screenshots");

// Reads each Ice and Fire turn, thinks for 50 ms, and waits: the match stays live for seconds.
const SLOW_WAITER = `
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
while (true) {
  for (let i = 0; i < 16; i++) readline();
  for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
  for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
  const until = Date.now() + 50;
  while (Date.now() < until) {}
  console.log("WAIT");
}
`;

async function frameShown(page) {
  return Number(await page.locator("#scrub").inputValue());
}

/** The text board and the board's pixels once the frame shown has its picture. */
async function shown(page, check, what) {
  const text = page.locator("#text-board");
  await page
    .waitForFunction(() => (document.querySelector("#text-board")?.textContent ?? "").trim().length > 0, null, { timeout: 10_000 })
    .catch(() => check(false, `${what}: the frame shown never got its picture`));
  await page.waitForTimeout(100); // the board paints after the render
  return {
    text: await text.innerText(),
    turn: (await page.locator("#turn-label").innerText()).split(" / ")[0],
    board: await page.locator("#board").evaluate((canvas) => canvas.toDataURL()),
  };
}

export async function picturesChecks({ dist, check = defaultCheck }) {
  const { url, context, page, problems, close } = await openSession(dist, "pictures");
  try {
    await openPlayground(page, url);
    if ((await page.locator("#text-view-toggle").getAttribute("aria-pressed")) !== "true") {
      await page.locator("#text-view-toggle").click();
    }

    // Each check within its time limit: past it, the run fails at once, naming the check, with a
    // screenshot of the page (tests/e2e/screenshots/timeout-chromium.png).
    const limit = (what, ms, checks) => withinLimit(what, "chromium", ms, checks, (path) => page.screenshot({ path }));
    let at;
    let live;
    let played;
    let playedText;

    // (pi1) A live match, looked at turn by turn.
    await limit("(pi1) a live match looked at turn by turn", 120_000, async () => {
      await setCode(page, SLOW_WAITER);
      await page.locator("#opponent").selectOption("random");
      await page.locator("#seed").fill("11");
      await setRelaxed(page, true);
      await page.locator("#run").click();
      await page.waitForFunction(() => Number(document.querySelector("#scrub")?.max ?? 0) >= 14, null, { timeout: 60_000 });
      at = 7;
      await page.locator("#scrub").fill(String(at));
      check((await frameShown(page)) === at, `(pi1) the scrubber did not go to frame ${at}`);
      live = await shown(page, check, "(pi1)");
      await page.locator("#viewer").screenshot({ path: join(SHOTS, "pictures-live.png") });
      const liveStill = (await page.locator("#outcome .result").count()) === 0;
      check(liveStill, "(pi1) the match was over before its earlier turns were looked at: nothing was asked for");
      await page.locator("#play").click();
      await page.waitForFunction((from) => Number(document.querySelector("#scrub").value) >= from + 5, at, { timeout: 10_000 })
        .catch(() => check(false, "(pi1) playback from an earlier turn of a live match did not move on"));
      await page.locator("#play").click();
      played = await frameShown(page);
      playedText = await shown(page, check, "(pi1) after playback");
      console.log(`ok (pi1) live: frame ${at} (${live.turn}) drawn with its text (${live.text.split("\n").length} lines), played on to frame ${played}`);
    });

    // (pi2) The same frames once the match is over.
    await limit("(pi2) the same frames once it is over", 180_000, async () => {
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      await page.locator("#scrub").fill(String(at));
      const after = await shown(page, check, "(pi2)");
      check(after.turn === live.turn, `(pi2) frame ${at} is '${after.turn}' now, was '${live.turn}'`);
      check(after.text === live.text, `(pi2) frame ${at}'s text differs from the one asked for live:\n${after.text}\n---\n${live.text}`);
      check(after.board === live.board, `(pi2) frame ${at}'s board differs from the one drawn live`);
      await page.locator("#scrub").fill(String(played));
      check((await shown(page, check, "(pi2)")).text === playedText.text, `(pi2) frame ${played}'s text differs from the one played live`);
      const last = Number(await page.locator("#scrub").getAttribute("max"));
      let empty = 0;
      for (let f = 0; f <= last; f += Math.max(1, Math.floor(last / 25))) {
        await page.locator("#scrub").fill(String(f));
        if (!(await page.locator("#text-board").innerText()).trim()) empty++;
      }
      check(empty === 0, `(pi2) ${empty} frames of the finished match have no picture`);
      console.log(`ok (pi2) over (${await page.locator("#outcome .result").innerText()}): frames ${at} and ${played} show what they showed live; all ${last + 1} frames drawn`);
    });

    check(problems.length === 0, `problems: ${problems.join("; ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, picturesChecks, "tests/e2e/pictures.mjs");

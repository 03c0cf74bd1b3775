// Taking over a match from a turn (src/app/take_over.rs, the match worker's catch-up in
// src/match_host/driver.rs), in Debian's Chromium through playwright-core.
//
//   trunk build --release --skip-version-check --dist dist
//   node tests/e2e/take-over.mjs [--dist dist] [--docs]
//
// (to1) A typed Ice and Fire bot crashes in its fifth turn and loses. Shown two of its turns
//       before the fault, the match is taken over by the fixed bot typed into the editor (the
//       opponent stays the built-in bot recorded): the fixed bot wins, and the new match is
//       played back from the turn taken over. The turns up to there
//       are the original's, and the fixed bot had read them (its debug log counts the inputs
//       it read: the first turn it plays is its fourth input). The viewer's *Take over…* brings
//       the panel into sight.
// (to2) `o` (and the button) switches to the original at the same turn and back; the original
//       still ends in the crash.
// (to3) The taken-over match is a replay like any other: a share link of it opens, says where it
//       came from, and shows the same result.
// (to4) A finished match cannot be taken over at its last turn: the panel says why.
// No console error anywhere. Screenshot: tests/e2e/screenshots/take-over.png (with --docs, also
// docs/screenshots/take-over.png).

import { copyFile, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, openPlayground, openSession, runAlone, setCode, withinLimit } from "./browser.mjs";
import { iceAndFireWalker } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");

async function frameShown(page) {
  return Number(await page.locator("#scrub").inputValue());
}

async function result(page) {
  return page.locator("#outcome .result").innerText();
}

/** The debug log of seat 1 (red) in the turn shown. */
async function redLog(page) {
  const log = page.locator("#turn-details .seat-turn.seat-0 pre.stderr");
  return (await log.count()) ? log.innerText() : "";
}

export async function takeOverChecks({ dist, check = defaultCheck, docs = process.argv.includes("--docs") }) {
  const { url, context, page, problems, close } = await openSession(dist, "take-over");
  try {
    await openPlayground(page, url);

    // Each check within its time limit: past it, the run fails at once, naming the check, with a
    // screenshot of the page (tests/e2e/screenshots/timeout-chromium.png).
    const limit = (what, ms, checks) => withinLimit(what, "chromium", ms, checks, (path) => page.screenshot({ path }));
    let from;
    let turnShown;
    let newInput;

    await limit("(to1) a match taken over", 240_000, async () => {
      // The original: the bot crashes on its fifth input.
      await setCode(page, iceAndFireWalker({ reads: true, crashAt: 5 }));
      await page.locator("#opponent").selectOption("wait");
      await page.locator("#seed").fill("7");
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      const lost = await result(page);
      check(/blue \(wait\) wins/.test(lost), `(to1) the buggy bot's match: '${lost}'`);
      await page.locator("#first").click();
      await page.locator("#next-fault").click();
      const faultFrame = await frameShown(page);
      const faultTurn = await page.locator("#turn-label").innerText();
      check((await page.locator("#turn-details .seat-0 .fault").innerText()).includes("a bug on input 5"), "(to1) the fault is not the bot's bug");
      // Two of its turns before (Ice and Fire alternates its seats): its fourth input is next.
      from = faultFrame - 3;
      await page.locator("#scrub").fill(String(from));
      check((await frameShown(page)) === from, `(to1) the scrubber did not go to frame ${from}`);

      await setCode(page, iceAndFireWalker({ reads: true }));
      // The viewer's Take over… brings the panel into sight, its first choice focused.
      await page.locator("#take-over-open").click();
      check(await page.locator("#take-over-seat-0").evaluate((e) => e === document.activeElement), "(to1) Take over… did not focus the first seat's choice");
      const picks = await page.locator("#take-over select").evaluateAll((s) => s.map((e) => e.value));
      check(picks.join(",") === "editor-0,recorded", `(to1) the seats' first choices: ${picks}`);
      const options = await page.locator("#take-over-seat-1 option").allInnerTexts();
      check(options[0] === "as recorded: wait" && options.some((o) => o === "built-in: expander"), `(to1) the opponent's choices: ${options}`);
      const shownTurn = await page.locator("#turn-label").innerText();
      await page.locator("#take-over-start").click();
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      // It is played back from the turn taken over.
      const watchedFrom = await frameShown(page);
      check(watchedFrom >= from, `(to1) the new match is shown at frame ${watchedFrom}, before the turn taken over (${from})`);
      const won = await result(page);
      check(/red \(your bot\) wins/.test(won), `(to1) the fixed bot's match: '${won}'`);
      const origin = await page.locator("#match-origin").innerText();
      turnShown = shownTurn.match(/turn (\d+)/)[1];
      check(origin.startsWith(`Taken over after turn ${turnShown}:`), `(to1) the origin line: '${origin}' (taken at '${shownTurn}')`);
      check((await page.locator("#faults li").count()) === 0, "(to1) the fixed bot's match has faults");
      // Its first own turn: the fourth input it read (three were read untimed, before).
      await page.locator("#scrub").fill(String(from + 1));
      const log = await redLog(page);
      check(log.includes("inputs read: 4"), `(to1) the fixed bot's first turn logged '${log}'`);
      // The turns before are the original's: the same input to red at the turn before.
      await page.locator("#scrub").fill(String(from - 1));
      newInput = await page.locator("#turn-details .seat-turn").first().innerText();
      console.log(`ok (to1) taken over ${shownTurn}: '${won}' (was '${lost}', its fault at ${faultTurn})`);
    });

    // (to2) The original at the same turn, and back.
    await limit("(to2) the original beside it", 60_000, async () => {
      await page.locator("#viewer").focus();
      await page.keyboard.press("o");
      check((await page.locator("#match-origin").innerText()).startsWith("The original match."), "(to2) o did not show the original");
      check((await frameShown(page)) === from - 1, `(to2) the original is shown at frame ${await frameShown(page)}, not ${from - 1}`);
      check((await page.locator("#turn-details .seat-turn").first().innerText()) === newInput, "(to2) the turn before the take-over differs from the original's");
      check(/blue \(wait\) wins/.test(await result(page)), "(to2) the original's result is not shown");
      await page.locator("#switch-match").click();
      check((await page.locator("#match-origin").innerText()).startsWith("Taken over"), "(to2) the button did not switch back");
      check(/red \(your bot\) wins/.test(await result(page)), "(to2) the new match's result is not shown after switching back");
      await page.locator("#scrub").fill(String(from));
      await mkdir(SHOTS, { recursive: true });
      // The new match's result, where it came from and the switch, above its board and controls.
      await page.locator("#match-status").evaluate((e) => e.scrollIntoView({ block: "start" }));
      const top = await page.locator("#match-status").boundingBox();
      const controls = await page.locator("#viewer .controls").boundingBox();
      const viewer = await page.locator("#viewer").boundingBox();
      await page.screenshot({
        path: join(SHOTS, "take-over.png"),
        clip: { x: viewer.x, y: top.y - 8, width: viewer.width, height: controls.y + controls.height + 8 - (top.y - 8) },
      });
      if (docs) await copyFile(join(SHOTS, "take-over.png"), join(REPO, "docs", "screenshots", "take-over.png"));
      console.log("ok (to2) o and the button switch between the original and the new match at the same turn");
    });

    // (to3) A share link of the new match.
    await limit("(to3) a share link of it", 90_000, async () => {
      await page.locator("#make-link").click();
      const link = await page.locator("#share-link").inputValue();
      const second = await context.newPage();
      second.on("pageerror", (e) => problems.push(`page error (link): ${e.message}`));
      await second.goto(link);
      await second.locator("#outcome .result").waitFor({ timeout: 60_000 });
      check(/red \(your bot\) wins/.test(await second.locator("#outcome .result").innerText()), "(to3) the link's match has another result");
      const linked = await second.locator("#match-origin").innerText();
      check(linked.startsWith(`This match took over another after its turn ${turnShown}`), `(to3) the link's origin line: '${linked}'`);
      await second.close();
      console.log(`ok (to3) its link opens with '${linked.slice(0, 60)}…'`);
    });

    // (to4) At the last turn of a finished match, nothing is left to take over.
    await limit("(to4) nothing left to take over", 30_000, async () => {
      await page.locator("#last").click();
      check(await page.locator("#take-over-start").isDisabled(), "(to4) the last turn of a finished match can be taken over");
      const why = await page.locator("#take-over-refusal").innerText();
      check(why.includes("over at this turn"), `(to4) the refusal: '${why}'`);
      console.log(`ok (to4) '${why}'`);

    });
    check(problems.length === 0, `problems: ${problems.join("; ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, takeOverChecks, "tests/e2e/take-over.mjs");

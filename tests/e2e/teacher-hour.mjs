// A teacher's first hour (issue 36), in Debian's Chromium through playwright-core, at a school
// Chromebook's 1366 × 768:
//
//   cargo xtask test build
//   node tests/e2e/teacher-hour.mjs [--dist dist]
//
// (th1) Take-over from a student's share link (their code against the built-in `soaker`, with
//       the match): the built-in seat is offered and chosen "as recorded: soaker", the student's
//       seat is the editor (which holds the link's code): never the student's bot on both sides.
// (th2) A long line in the second bot's editor scrolls inside that editor: the page does not grow
//       wider than the window.
// (th3) A seed typed as `007` or `+7` is seed 7: no "Seed 0 means a random map" notice, and the
//       field keeps what was typed.
// (th4) The gallery's Play says what it plays: "starter bot vs soaker" at first, "your bot vs
//       soaker" once the editor holds other code (a classmate's, from a link).
// Called from run.mjs (`teacherHourChecks({ dist, check, SHOTS })`) or alone.

import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { defaultCheck, launch, runAlone, setCode, withinLimit } from "./browser.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DEFAULT_SHOTS = join(REPO, "tests", "e2e", "screenshots");

/** A share link's fragment, as the page writes it (engine::share: deflated JSON, base64url). */
function fragment(doc) {
  return `b1.${deflateRawSync(Buffer.from(JSON.stringify(doc)), { level: 9 }).toString("base64url")}`;
}

async function pickGame(page, game) {
  await page.locator(`#games .game-choice[data-game="${game}"]`).click();
  await page.locator(`#games .game-choice.picked[data-game="${game}"]`).waitFor({ timeout: 10_000 });
}

export async function teacherHourChecks({ dist, check = defaultCheck, SHOTS = DEFAULT_SHOTS }) {
  const { server, url } = await serve(dist);
  const profile = await mkdtemp(join(tmpdir(), "botplay-teacher-hour-"));
  const context = await launch(profile, { viewport: { width: 1366, height: 768 } });
  const problems = [];
  try {
    await mkdir(SHOTS, { recursive: true });
    let page = await context.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    const shot = (path) => page.screenshot({ path, fullPage: true });
    const starter = await readFile(join(REPO, "www", "starter", "soak-overflow.js"), "utf8");

    await withinLimit("(th4) the gallery's Play says what it plays", "chromium", 60_000, async () => {
      await page.goto(url);
      const play = page.locator('.card[data-game="soak-overflow"] .play-now');
      const strongest = (await play.innerText()).match(/ vs (.+)$/)?.[1];
      check((await play.innerText()) === `Play: starter bot vs ${strongest}`, `(th4) the first Play says: ${await play.innerText()}`);
      await pickGame(page, "soak-overflow");
      await setCode(page, `// a classmate's bot\n${starter}`);
      await page.waitForTimeout(500); // saved as typed
      await page.reload();
      const now = await page.locator('.card[data-game="soak-overflow"] .play-now').innerText();
      check(now === `Play: your bot vs ${strongest}`, `(th4) with other code, Play says: ${now}`);
      console.log(`ok (th4) Play says "${now}"`);
    }, shot);

    await withinLimit("(th1) take-over from a student's link", "chromium", 120_000, async () => {
      // The student's match, played here first, then its link made as the page makes it.
      await page.goto(url);
      await pickGame(page, "soak-overflow");
      await page.locator("#opponent").selectOption("soaker");
      await page.locator("#seed").fill("5");
      await setCode(page, starter);
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout: 90_000 });
      await page.locator("#share-match").check();
      await page.locator("#share-bot-name").fill("Ada");
      await page.locator("#make-link").click();
      const link = await page.locator("#share-link").inputValue();
      check(link.includes("#b1."), `(th1) no share link: ${link.slice(0, 60)}`);
      const other = await launch(await mkdtemp(join(tmpdir(), "botplay-teacher-student-")), { viewport: { width: 1366, height: 768 } });
      try {
        const student = other.pages()[0] ?? (await other.newPage());
        await student.goto(link);
        await student.locator("#outcome .result").waitFor({ timeout: 30_000 });
        await student.locator("#first").click();
        await student.locator("#take-over-open").click();
        const picks = await student.locator("#take-over select").evaluateAll((s) => s.map((e) => e.value));
        const soakerSeat = await student.locator("#take-over-seat-1 option", { hasText: "as recorded: soaker" }).count();
        check(soakerSeat === 1, "(th1) the built-in seat is not offered as recorded");
        check(JSON.stringify(picks) === JSON.stringify(["editor-0", "recorded"]), `(th1) the seats default to ${picks}`);
      } finally {
        await other.close();
      }
      console.log("ok (th1) a student's link taken over: their seat from the editor, soaker as recorded");
    }, shot);

    await withinLimit("(th2) a long line in the second editor", "chromium", 60_000, async () => {
      await page.locator("#opponent").selectOption("javascript");
      await page.locator("#bot-code-2 .cm-content").waitFor();
      await setCode(page, `// ${"a very long comment ".repeat(40)}\n${starter}`, "bot-code-2");
      await setCode(page, `// ${"a very long comment ".repeat(40)}\n${starter}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      check(width <= 1366, `(th2) the page is ${width} px wide in a 1366 px window`);
      await page.screenshot({ path: join(SHOTS, "teacher-two-editors.png") });
      console.log(`ok (th2) two editors with long lines: the page is ${width} px wide`);
    }, shot);

    await withinLimit("(th3) seeds typed as 007 and +7", "chromium", 120_000, async () => {
      await page.locator("#opponent").selectOption("soaker");
      await setCode(page, starter);
      for (const typed of ["007", "+7"]) {
        await page.locator("#seed").fill(typed);
        await page.locator("#run").click();
        await page.locator("#outcome .result").waitFor({ timeout: 90_000 });
        const notice = (await page.locator("#notice").count()) ? await page.locator("#notice").innerText() : "";
        check(!/Seed 0 means/.test(notice), `(th3) '${typed}' gave the notice: ${notice}`);
        check((await page.locator("#seed").inputValue()) === typed, `(th3) the seed field now says ${await page.locator("#seed").inputValue()}`);
      }
      console.log("ok (th3) 007 and +7 are seed 7");
    }, shot);

    check(problems.length === 0, `page errors: ${problems.join("; ")}`);
  } finally {
    await context.close().catch(() => {});
    server.close();
    await rm(profile, { recursive: true, force: true }).catch(() => {});
  }
}

runAlone(import.meta.url, teacherHourChecks, "a teacher's first hour");

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
// (th5) A crash at a line of the bot's code: the fault's "line 5" is a link; the editor marks
//       line 5 (until the code changes) and the link puts the cursor there. The same for a
//       Python bot's exception.
// (th6) Completion never steals Enter: `continue` typed in full and Enter make a new line; Tab
//       takes the completion offered.
// (th7) Long lines wrap by default at 1366 px ("Wrap long lines", kept across a reload).
// (th8) A loop after part of an answer names both causes; a loop that prints is named.
// (th9) Another game after a match shows that game's start, not the match of the game before.
// (th10) The gallery's one-click Play keeps the result for the end of its playback (or a
//       click on "Show it now"), so that a demonstration is not spoiled.
// (th11) "Start again from the starter bot" puts the starter back; the code it replaced is
//       under Earlier versions.
// (th12) A lesson link's first visit (a new browser): the first-visit help is folded, the
//       lesson's instruction and editor are in sight at 1366 × 768; Help brings the help back.
// (th13) Under a share link, what it holds: the match, or only the set-up and the code.
// (th14) The gallery marks the game that suits a first lesson (Soak Overflow's tutorials).
// (th15) A share link's QR code, full screen, as large as the screen allows.
// (th16) A link with a built-in bot in the first seat and code in the second: the first seat is
//       not called "Your bot".
// (th17) The presenter view of a match at 1280 × 720: the board beside the console in large type,
//       no editor, the result kept for the end; the arrows step; Esc leaves.
// Called from run.mjs (`teacherHourChecks({ dist, check, SHOTS })`) or alone.

import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, launch, matchLink, openSession, pickGame, playMatch, runAlone, setCode, starterCode, withinLimit } from "./browser.mjs";
import { SOAK_OVERFLOW_MINE, SOAK_OVERFLOW_START } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DEFAULT_SHOTS = join(REPO, "tests", "e2e", "screenshots");

// Soak Overflow: reads its first turn, writes the line of its first agent (the turn takes one
// per agent), then loops for ever.
const ONE_LINE_THEN_LOOP = `${SOAK_OVERFLOW_START}
${SOAK_OVERFLOW_MINE}
console.log(mine[0] + ";HUNKER_DOWN");
while (true) {}
`;



export async function teacherHourChecks({ dist, check = defaultCheck, SHOTS = DEFAULT_SHOTS }) {
  const { url, context, page, problems, close } = await openSession(dist, "teacher-hour", {
    launchOptions: { viewport: { width: 1366, height: 768 } },
    consoleErrors: false,
  });
  try {
    await mkdir(SHOTS, { recursive: true });
    const shot = (path) => page.screenshot({ path, fullPage: true });
    const starter = await starterCode("soak-overflow.js");

    await withinLimit("(th4) the gallery's Play says what it plays", "chromium", 60_000, async () => {
      await page.goto(url);
      // (th14) One game is marked for a first lesson: Soak Overflow, for its tutorial leagues.
      // (The gallery is drawn once the page's module has started: wait for it.)
      await page.locator(".card .play-now").first().waitFor({ timeout: 30_000 });
      const marked = await page.locator(".card .first-lesson").evaluateAll((ps) => ps.map((p) => p.closest(".card").dataset.game));
      check(JSON.stringify(marked) === '["soak-overflow"]', `(th14) marked for a first lesson: ${marked}`);
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
      await page.locator("#seed").fill("5");
      await playMatch(page, { code: starter, opponent: "soaker", timeout: 90_000 });
      await page.locator("#share-match").check();
      await page.locator("#share-bot-name").fill("Ada");
      await page.locator("#make-link").click();
      const link = await page.locator("#share-link").inputValue();
      check(link.includes("#b1."), `(th1) no share link: ${link.slice(0, 60)}`);
      // (th13) What the link holds is said as it was made.
      check(/the whole match/.test(await page.locator("#share-holds").innerText()), "(th13) a link with its match is not said to hold it");
      await page.locator("#share-match").uncheck();
      await page.locator("#make-link").click();
      const without = await page.locator("#share-holds").innerText();
      check(/not the match/.test(without) && !/the whole match/.test(without), `(th13) a link without its match says: ${without}`);
      await page.locator("#share-match").check();
      // (th15) The link as a QR code, full screen.
      await page.locator("#share-qr").click();
      const qr = page.locator("#share-qr-view canvas[data-modules]");
      await qr.waitFor({ timeout: 10_000 });
      const modules = Number(await qr.getAttribute("data-modules"));
      const qrBox = await qr.boundingBox();
      check(modules >= 21 && qrBox.width >= 600, `(th15) a QR code of ${modules} modules, ${qrBox.width} px wide`);
      await page.screenshot({ path: join(SHOTS, "teacher-qr.png") });
      await page.keyboard.press("Escape");
      await page.locator("#share-qr-view").waitFor({ state: "detached", timeout: 5_000 });
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

    const editorApi = (method, editor = "bot-code") => page.evaluate(([m, e]) => botplayEditor.get(e)[m](), [method, editor]);

    await withinLimit("(th5) a crash's line in the editor", "chromium", 180_000, async () => {
      await page.locator("#opponent").selectOption("soaker");
      await setCode(page, "readline();\nconst a = 1;\nconst b = 2;\n// the bug is on the next line\nnull.boom();\n");
      await page.locator("#run").click();
      const link = page.locator("#faults .fault-line").first();
      await link.waitFor({ timeout: 90_000 });
      check((await link.innerText()) === "line 5", `(th5) the fault links ${await link.innerText()}`);
      await page.waitForFunction(() => botplayEditor.get("bot-code").markedLine() === 5, null, { timeout: 5_000 }).catch(() => {});
      check((await editorApi("markedLine")) === 5, `(th5) the editor marks line ${await editorApi("markedLine")}`);
      check((await page.locator("#bot-code .cm-fault-line").count()) === 1, "(th5) no marked line in sight");
      await link.click();
      const cursorLine = await page.evaluate(() => {
        const root = document.querySelector("#bot-code").shadowRoot;
        return root.activeElement?.classList.contains("cm-content") ?? false;
      });
      check(cursorLine, "(th5) the link did not put the focus in the editor");
      await page.screenshot({ path: join(SHOTS, "teacher-fault-line.png") });
      await page.keyboard.type("x");
      check((await editorApi("markedLine")) === 0, "(th5) the mark stayed after the code changed");
      // Python: an exception in a function at line 3, called from line 6.
      await page.locator("#player").selectOption("python");
      await setCode(page, "import sys\ndef ratio(a, b):\n    return a / b\nmy_id = int(input())\nprint('reading', file=sys.stderr)\nratio(my_id, 0)\n");
      await page.locator("#run").click();
      const pyLink = page.locator("#faults .fault-line").first();
      await pyLink.waitFor({ timeout: 120_000 });
      await page.waitForFunction(() => botplayEditor.get("bot-code").markedLine() > 0, null, { timeout: 5_000 }).catch(() => {});
      const pyLine = await editorApi("markedLine");
      check(pyLine === 3 || pyLine === 6, `(th5) the Python fault marks line ${pyLine}: ${await page.locator("#faults").innerText()}`);
      await page.locator("#player").selectOption("javascript");
      console.log(`ok (th5) a crash's line is a link and is marked in the editor (JavaScript line 5, Python line ${pyLine})`);
    }, shot);

    await withinLimit("(th6) completion and Enter", "chromium", 60_000, async () => {
      await page.locator("#player").selectOption("python");
      await setCode(page, "for i in range(3):\n");
      await page.locator("#bot-code .cm-line").last().click();
      await page.keyboard.type("    continue", { delay: 30 });
      await page.keyboard.press("Enter");
      await page.keyboard.type("pass", { delay: 30 });
      let doc = await editorApi("getDoc");
      check(!/ConnectionRefusedError/.test(doc) && /continue\n\s*pass/.test(doc), `(th6) Enter after 'continue' gave: ${JSON.stringify(doc)}`);
      await page.keyboard.press("Enter");
      await page.keyboard.type("prin", { delay: 30 });
      await page.locator("#bot-code .cm-tooltip-autocomplete").waitFor({ timeout: 5_000 });
      await page.keyboard.press("Tab");
      doc = await editorApi("getDoc");
      check(/\bprint\b/.test(doc), `(th6) Tab did not take the completion: ${JSON.stringify(doc)}`);
      await page.locator("#player").selectOption("javascript");
      console.log("ok (th6) Enter after a keyword makes a new line; Tab takes the completion");
    }, shot);

    await withinLimit("(th7) long lines wrap", "chromium", 60_000, async () => {
      const box = page.locator("#bot-pane .wrap-lines");
      check(await box.isChecked(), "(th7) long lines do not wrap by default at 1366 px");
      check((await page.locator("#bot-code .cm-content.cm-lineWrapping").count()) === 1, "(th7) the editor does not wrap");
      await box.uncheck();
      check((await page.locator("#bot-code .cm-content.cm-lineWrapping").count()) === 0, "(th7) unticked, the editor still wraps");
      await page.reload();
      await page.locator("#bot-code .cm-content").waitFor();
      check(!(await page.locator("#bot-pane .wrap-lines").isChecked()), "(th7) the choice was not kept");
      await page.locator("#bot-pane .wrap-lines").check();
      console.log("ok (th7) long lines wrap at 1366 px, and the choice is kept");
    }, shot);

    await withinLimit("(th8) loops named as the likelier cause", "chromium", 120_000, async () => {
      await pickGame(page, "soak-overflow");
      await page.locator("#opponent").selectOption("soaker");
      await page.locator("#relaxed").uncheck().catch(() => {});
      // One line of an answer that takes one per agent, then a loop.
      await setCode(page, ONE_LINE_THEN_LOOP);
      await page.locator("#run").click();
      await page.locator("#outcome .fault").first().waitFor({ timeout: 90_000 });
      const fault = await page.locator("#outcome .fault").first().innerText();
      check(/endless loop/.test(fault), `(th8) the timeout does not name a loop: ${fault}`);
      console.log(`ok (th8) ${fault.slice(0, 160)}`);
    }, shot);

    await withinLimit("(th9) another game after a match", "chromium", 30_000, async () => {
      check((await page.locator("#outcome .result").count()) === 1, "(th9) no match was shown before");
      await pickGame(page, "ice-and-fire");
      check((await page.locator("#outcome .result").count()) === 0, "(th9) the other game's result is still shown");
      const label = await page.locator("#turn-label").innerText();
      check(/^turn 0 \/ 0$/.test(label), `(th9) the viewer shows ${label}`);
      check((await page.locator("#faults li").count()) === 0, "(th9) the other game's faults are still listed");
      await page.screenshot({ path: join(SHOTS, "teacher-other-game.png") });
      console.log("ok (th9) another game shows its start");
    }, shot);

    await withinLimit("(th10) a one-click Play keeps its result for the end", "chromium", 120_000, async () => {
      // The starter's match is long enough to be watched (the looping bot of (th8) ends at once).
      await pickGame(page, "soak-overflow");
      await setCode(page, starter);
      await page.locator('.card[data-game="soak-overflow"] .play-now').click();
      await page.locator("#reveal-result").waitFor({ timeout: 90_000 });
      const hidden = await page.locator("#outcome .result").innerText();
      check(!/wins|draw/i.test(hidden), `(th10) the result is told at once: ${hidden}`);
      await page.locator("#reveal-result").click();
      const shown = await page.locator("#outcome .result").innerText();
      check(/wins|draw/i.test(shown), `(th10) "Show it now" shows: ${shown}`);
      console.log(`ok (th10) the result kept for the end, then shown: ${shown}`);
    }, shot);

    await withinLimit("(th11) start again from the starter", "chromium", 30_000, async () => {
      await pickGame(page, "soak-overflow");
      await setCode(page, `// my attempt\n${starter}`);
      await page.locator("#start-again-1").click();
      check((await editorApi("getDoc")) === starter, "(th11) the editor does not hold the starter");
      check(await page.locator("#start-again-1").isDisabled(), "(th11) start again is still offered on the starter");
      await page.locator("#earlier-versions-1 > summary").click();
      const kept = await page.locator("#earlier-versions-1 .version-code pre").allTextContents();
      check(kept.some((code) => code.startsWith("// my attempt")), "(th11) the replaced code is not under Earlier versions");
      console.log("ok (th11) the starter back, the attempt kept under Earlier versions");
    }, shot);

    await withinLimit("(th12) a lesson link's first visit", "chromium", 60_000, async () => {
      const lesson = { title: "Lesson 1: move to the goal", text: "Change the MOVE line so that your agent reaches the goal tile." };
      const link = matchLink(url, { game: "soak-overflow", ruleset: "league-1", seed: 3, lesson }, [
        { kind: "code", name: "lesson", language: "javascript", code: starter },
        { kind: "builtin", name: "soaker" },
      ]);
      const other = await launch(await mkdtemp(join(tmpdir(), "botplay-teacher-lesson-")), { viewport: { width: 1366, height: 768 } });
      try {
        const student = other.pages()[0] ?? (await other.newPage());
        await student.goto(link);
        await student.locator("#lesson").waitFor({ timeout: 30_000 });
        await student.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
        await student.waitForTimeout(300);
        check((await student.locator("#help").count()) === 0, "(th12) the first-visit help pushes the lesson down");
        const editor = await student.locator("#bot-code").boundingBox();
        check(editor && editor.y < 768 - 100, `(th12) the lesson's editor starts at ${editor?.y} px on a 768 px screen`);
        await student.screenshot({ path: join(SHOTS, "teacher-lesson.png") });
        await student.locator("#help-toggle").click();
        check(await student.locator("#help").isVisible(), "(th12) Help does not bring the help back");
      } finally {
        await other.close();
      }
      console.log("ok (th12) a lesson opens with its editor in sight, the help folded");
    }, shot);

    await withinLimit("(th16) a link with a built-in bot in the first seat", "chromium", 60_000, async () => {
      await page.goto(
        matchLink(url, { game: "soak-overflow", ruleset: "league-5", seed: 4 }, [
          { kind: "builtin", name: "soaker" },
          { kind: "code", name: "Ada", language: "javascript", code: starter },
        ]),
      );
      await page.reload();
      const title = page.locator("#bot-pane .seat-title");
      await title.waitFor({ timeout: 30_000 });
      const text = await title.innerText();
      check(/built-in bot soaker/.test(text) && !/Your bot/.test(text), `(th16) the first seat is called: ${text}`);
      console.log(`ok (th16) the first seat says "${text.trim()}"`);
    }, shot);

    await withinLimit("(th17) the presenter view of a match", "chromium", 120_000, async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(url);
      await pickGame(page, "soak-overflow");
      await page.locator("#player").selectOption("javascript");
      await playMatch(page, { code: starter, opponent: "soaker", timeout: 90_000 });
      await page.locator("#first").click();
      await page.locator("#step-forward").click();
      await page.locator("#present").click();
      check(!(await page.locator("#bot-pane").isVisible()), "(th17) the editor shows in the presenter view");
      check((await page.locator("#reveal-result").count()) === 1, "(th17) the result is told before the end");
      const board = await page.locator(".board-box").boundingBox();
      const console_ = await page.locator("#turn-details").boundingBox();
      check(board.x + board.width <= console_.x + 1, `(th17) the board (x ${board.x}, ${board.width} wide) and the console (x ${console_.x}) are not side by side`);
      check(board.y + Math.min(board.height, 200) <= 720 && console_.y < 200, `(th17) board at y ${board.y}, console at y ${console_.y}`);
      const size = await page.locator("#turn-details .streams pre").first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      check(size >= 18, `(th17) the console's type is ${size} px`);
      await page.keyboard.press("ArrowRight");
      await page.screenshot({ path: join(SHOTS, "teacher-present.png") });
      await page.keyboard.press("Escape");
      check(await page.locator("#bot-pane").isVisible(), "(th17) Esc did not leave the presenter view");
      await page.setViewportSize({ width: 1366, height: 768 });
      console.log(`ok (th17) the presenter view: board and console side by side, ${size} px type, the result kept; Esc leaves`);
    }, shot);

    check(problems.length === 0, `page errors: ${problems.join("; ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, teacherHourChecks, "a teacher's first hour");

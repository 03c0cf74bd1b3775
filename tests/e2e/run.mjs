// Browser end-to-end tests of the built page, in Debian's Chromium through playwright-core.
//
//   trunk build --release --skip-version-check
//   node tests/e2e/run.mjs [--dist dist] [--keep-going]
//
// Serves dist/ itself (tests/e2e/serve.mjs, with the COOP/COEP and CSP headers of Trunk.toml),
// then checks that (a) the page loads and lists the game without console errors, (b) a
// JavaScript bot typed into the editor plays a whole match against a built-in bot and the board is
// drawn (screenshot in tests/e2e/screenshots/match.png), (c) a looping bot is stopped within its
// 50 ms budget and reported as a timeout while the page stays responsive, (e) a bot that throws
// is reported as a crash with its error and line, and 'e' jumps to its elimination, (d) a
// reload keeps the typed code, (k) a syntax error is reported with its line, (j) two editor bots
// play each other, (g) Python bots, (h) share links (opened in a fresh browser: same outcome,
// same board pixels at the chosen turn, "Run again") and replay files, (i) a static host without
// headers, (n) a phone-sized touch screen, and (f) each file of tests/e2e/games/ (one per
// further game: a full match there). Exits non-zero with a message on the first failure.

import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { boardColours, cliArg, defaultCheck as check, Failure, getCode, launch, openPlayground, playMatch, runArena, setCode, setRelaxed, settledWithin, withinLimit } from "./browser.mjs";
import { serve } from "./serve.mjs";
import { iceAndFireWalker, LOOPING_BOT } from "./bots.mjs";
import { playToTheEnd } from "./games/lib/match.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");
const GAME_TESTS = join(REPO, "tests", "e2e", "games");
const DIST = resolve(REPO, cliArg("--dist", "dist"));

// A small legal bot that logs "units: N" each turn (tests/e2e/bots.mjs).
const SIMPLE_BOT = iceAndFireWalker({ debug: true });

// Throws on its first turn (line 3 of the code).
const THROWING_BOT = `const spots = parseInt(readline());
const nothing = undefined;
nothing.move();
`;

// Does not compile: line 4 is not JavaScript.
const SYNTAX_ERROR_BOT = `const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
while (true) {
  const gold = ;
}
`;

const timings = [];
function timed(label, started) {
  const ms = performance.now() - started;
  timings.push([label, ms]);
  return ms;
}

// The editor is CodeMirror; tests set and read its text through the page's editor API (typing
// into it for real is checked once, in (a)).
// A Python bot, as it would be submitted: input() and print(); a debug line on stderr.
const PYTHON_BOT = `import sys
spots = int(input())
for _ in range(spots):
    input()
print("python says hello", file=sys.stderr)
while True:
    gold = int(input())
    for _ in range(3):
        input()
    rows = [input() for _ in range(12)]
    buildings = [input().split() for _ in range(int(input()))]
    units = [input().split() for _ in range(int(input()))]
    red = rows[0][0] == "O"
    print(("TRAIN 1 1 1" if red else "TRAIN 1 10 10") if gold >= 10 else "WAIT")
`;
const PYTHON_LOOP = `spots = int(input())
while True:
    pass
`;
const PYTHON_RAISE = `spots = int(input())
for _ in range(spots):
    input()
x = 1 / 0
`;

const canvasColours = (page) => page.evaluate(boardColours);

// The game just tested, once more with its Python starter bot (as a person choosing Python
// gets it) against the game's default opponent: a whole match, no fault of the bot.
async function pythonStarterMatch(page, game) {
  await page.locator("#player").selectOption("python");
  // The starter as shipped (an earlier test may have saved other Python code for this game).
  await setCode(page, await readFile(join(REPO, "www", "starter", `${game}.py`), "utf8"));
  await setRelaxed(page, true);
  const t = performance.now();
  await page.locator("#run").click();
  await page.locator("#match-status").getByText(/Starting|Playing/).waitFor({ timeout: 10_000 });
  await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 240_000 });
  timed(`(${game}) Python starter: run until the match is over`, t);
  const outcome = (await page.locator("#outcome .result").innerText()).trim();
  const faults = await page.locator("#faults li").allInnerTexts();
  check(!faults.some((f) => /your bot/.test(f)), `(${game}) the Python starter faulted: ${faults.join("; ")}`);
  console.log(`ok (${game}) the Python starter plays a whole match: "${outcome}"`);
  await page.locator("#player").selectOption("javascript");
}

// A checksum of the board's pixels, with its size: two equal boards give equal strings.
async function boardPixels(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector("#board");
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0x811c9dc5;
    for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 0x01000193) >>> 0;
    return `${canvas.width}×${canvas.height}:${hash.toString(16)}`;
  });
}

async function main() {
  const { server, url } = await serve(DIST);
  const profile = await mkdtemp(join(tmpdir(), "botplay-e2e-"));
  const problems = [];
  let context;
  try {
    let t = performance.now();
    context = await launch(profile);
    timed("launch chromium", t);
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("requestfailed", (r) => {
      // A match host removed at the end of its match cancels the loads of its workers (their
      // scripts, from blob: URLs): not an error.
      const stoppedWorker = r.failure()?.errorText === "net::ERR_ABORTED" && /^blob:null\//.test(r.url());
      if (!stoppedWorker) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    page.on("worker", (w) => w.on("console", (m) => {
      if (m.type() === "error" && !/^units: /.test(m.text())) problems.push(`worker console error: ${m.text()}`);
    }));
    // Each check within its time limit: past it, the run fails at once, naming the check, with a
    // screenshot of the page (tests/e2e/screenshots/timeout-chromium.png).
    const limit = (what, ms, checks, screenshot = true) =>
      withinLimit(what, "chromium", ms, checks, screenshot ? (path) => page.screenshot({ path }) : undefined);
    let link;
    let played;

    // (a) The page loads, lists the game, is cross-origin isolated, and logs no errors.
    await limit("(a) the page loads", 90_000, async () => {
      t = performance.now();
      await openPlayground(page, url);
      timed("(a) page load until the game list shows", t);
      const gamesText = await page.locator("#games").innerText();
      check(/Ice and Fire/.test(gamesText), `(a) the game list does not name Ice and Fire: ${gamesText}`);
      check(await page.evaluate(() => self.crossOriginIsolated), "(a) the page is not cross-origin isolated");
      check((await page.locator("#isolation-warning").count()) === 0, "(a) the isolation warning is shown");
      const seed = await page.locator("#seed").inputValue();
      check(/^-?\d+$/.test(seed), `(a) the seed field does not hold a number: '${seed}'`);
      const starter = await getCode(page);
      check(/readline\(\)/.test(starter), "(a) the editor does not hold a starter bot");
      // A real code editor: typing goes in at the cursor, with bracket completion and undo.
      await page.locator("#bot-code .cm-content").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("\n// typed (");
      const typed = await getCode(page);
      check(typed.endsWith("// typed ()"), `(a) typing in the editor gave '${typed.slice(-20)}'`);
      await page.keyboard.press("Control+z");
      check((await getCode(page)) !== typed, "(a) undo did not undo");
      check((await page.locator("#bot-code .cm-lineNumbers").count()) === 1, "(a) the editor shows no line numbers");
      await page.waitForTimeout(300);
      // The landing gallery: every game with a drawn picture of its board.
      const cards = await page.locator("#landing .card").evaluateAll((els) =>
        els.map((el) => {
          const canvas = el.querySelector("canvas");
          const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
          const colours = new Set();
          for (let i = 0; i < data.length; i += 4 * 11) colours.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
          return { game: el.dataset.game, colours: colours.size, width: canvas.width };
        }),
      );
      check(cards.length === 5, `(a) the landing page shows ${cards.length} games, not 5`);
      for (const card of cards) check(card.colours >= 4 && card.width > 100, `(a) the ${card.game} card's picture looks blank: ${JSON.stringify(card)}`);
      await mkdir(SHOTS, { recursive: true });
      await page.locator("#landing").screenshot({ path: join(SHOTS, "landing.png") });
      check(problems.length === 0, `(a) errors while loading:\n  ${problems.join("\n  ")}`);
      console.log(`ok (a) page loads, lists the game, isolated, no console errors (seed ${seed})`);
    });
    await limit("the rules dialogs", 120_000, async () => (await import("./rules.mjs")).rulesChecks(page, { check, SHOTS })); // each game's rules dialog

    // (b) A typed bot plays a whole match against a built-in bot; the board is drawn.
    await limit("(b) a typed bot's match", 240_000, async () => {
      const { ms: matchMs, outcome, last } = await playToTheEnd(page, { check, timed }, {
        tag: "(b)",
        bot: SIMPLE_BOT,
        opponent: "random",
        timeout: 180_000,
        what: "(b) match: run until the outcome shows (relaxed)",
      });
      const stdout = await page.locator("#turn-details").innerText();
      check(/stdin/i.test(stdout) && /stdout/i.test(stdout), "(b) the turn details are missing");
      // The timeline of a chosen turn: what the bot read, wrote and logged in that very turn
      // (Ice and Fire alternates: frame 2k + 1 follows the first seat's turn).
      await page.locator("#scrub").fill("5");
      check((await page.locator("#turn-label").innerText()).startsWith("turn 5 /"), "(b) the scrubber did not go to turn 5");
      const mine = page.locator('#turn-details article[data-seat="0"]');
      const [turnIn, turnOut, turnErr] = await Promise.all(
        ["stdin", "stdout", "stderr"].map((c) => mine.locator(`pre.${c}`).innerText()),
      );
      check(/^\d+\n/.test(turnIn) && turnIn.split("\n").length > 12, `(b) turn 5's stdin is not the game's input: '${turnIn.slice(0, 80)}'`);
      check(/^(WAIT|MOVE|TRAIN)/.test(turnOut), `(b) turn 5's stdout is not the bot's answer: '${turnOut.slice(0, 80)}'`);
      check(/^units: \d+/.test(turnErr), `(b) turn 5's stderr is not the bot's debug line: '${turnErr.slice(0, 80)}'`);
      check(/your bot\) · turn 5 · [\d.]+ ms/.test(await mine.locator("h4").innerText()), "(b) turn 5 does not show the time used");
      await page.locator("#scrub").fill("7");
      const nextIn = await mine.locator("pre.stdin").innerText();
      check(nextIn !== turnIn, "(b) turns 5 and 7 show the same input");
      await page.locator("#last").click();
      const colours = await canvasColours(page);
      check(colours.width > 100 && colours.height > 100, `(b) the canvas is tiny: ${colours.width}×${colours.height}`);
      check(colours.common >= 6, `(b) the board looks blank: ${JSON.stringify(colours)}`);
      await mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, "match.png"), fullPage: true });
      // Step back and forward through the match.
      await page.locator("#step-back").click();
      const back = await page.locator("#turn-label").innerText();
      check(back === `turn ${last - 1} / ${last}`, `(b) step back shows '${back}'`);
      await page.locator("#step-forward").click();
      check(problems.length === 0, `(b) errors during the match:\n  ${problems.join("\n  ")}`);
      console.log(
        `ok (b) a full match in ${(matchMs / 1000).toFixed(1)} s: ${last} turns; "${outcome.split("\n")[0]}"; ` +
          `canvas ${colours.width}×${colours.height}, ${colours.common} main colours`,
      );
    });

    // (c) A looping bot is stopped at its 50 ms budget; the page stays responsive.
    await limit("(c) a looping bot", 60_000, async () => {
      t = await playMatch(page, { code: LOOPING_BOT, relaxed: false, timeout: 30_000 });
      const stopMs = timed("(c) looping bot: run until the timeout is reported", t);
      const loopOutcome = await page.locator("#outcome").innerText();
      const loopFaults = (await page.locator("#faults").innerText()).trim();
      check(/timeout/.test(loopOutcome) && /timeout/.test(loopFaults), `(c) no timeout reported: '${loopOutcome}' / '${loopFaults}'`);
      check(/within 50 ms/.test(loopFaults), `(c) the timeout is not the 50 ms budget: '${loopFaults}'`);
      // The match worker saw it computing (not waiting for input) at the deadline.
      check(/still computing at the deadline \(an endless loop/.test(loopFaults), `(c) the timeout does not say the bot was still computing: '${loopFaults}'`);
      const detail = await page.locator("#turn-details").innerText();
      const took = detail.match(/your bot\) · turn \d+ · ([\d.]+) ms/);
      t = performance.now();
      const answer = await page.evaluate(() => 6 * 7);
      const evalMs = timed("(c) page answers an evaluate after the timeout", t);
      t = performance.now();
      await page.locator("#step-back").click();
      await page.locator("#turn-label").getByText(/turn \d+ \/ \d+/).waitFor({ timeout: 2_000 });
      const clickMs = timed("(c) page answers a click after the timeout", t);
      check(answer === 42 && evalMs < 1_000 && clickMs < 2_000, `(c) the page is slow to answer: evaluate ${evalMs} ms, click ${clickMs} ms`);
      // The viewer jumps to the turn of the fault, from the first frame and by keyboard.
      await page.locator("#first").click();
      await page.locator("#viewer").press("f");
      const atFault = await page.locator("#turn-label").innerText();
      const [, shown, lastFrame] = atFault.match(/turn (\d+) \/ (\d+)/) ?? [];
      check(shown && shown === lastFrame, `(c) 'next fault' did not show the timeout's turn: '${atFault}'`);
      await page.locator("#viewer").press("+");
      check((await page.locator("#speed").inputValue()) === "3", "(c) '+' did not speed playback up to 2×");
      check(problems.length === 0, `(c) errors:\n  ${problems.join("\n  ")}`);
      console.log(
        `ok (c) looping bot stopped: "${loopFaults.split("\n")[0]}"` +
          (took ? ` (measured ${took[1]} ms)` : "") +
          `; page answers in ${evalMs.toFixed(1)} ms (evaluate), ${clickMs.toFixed(0)} ms (click)`,
      );
    });

    // (e) A bot that throws is reported as a crash, with the error and where it happened.
    await limit("(e) a throwing bot", 60_000, async () => {
      t = await playMatch(page, { code: THROWING_BOT, timeout: 30_000 });
      timed("(e) throwing bot: run until the crash is reported", t);
      const crash = (await page.locator("#faults").innerText()).trim();
      check(/crash/.test(crash) && /TypeError/.test(crash) && /line 3\b/.test(crash), `(e) the crash is not reported with its error and line: '${crash}'`);
      check(problems.length === 0, `(e) errors:\n  ${problems.join("\n  ")}`);
      // The crash puts the bot out of the match: the viewer jumps there with "e".
      await page.locator("#first").click();
      await page.locator("#viewer").press("e");
      const outAt = await page.locator("#turn-label").innerText();
      const lostThen = await page.locator("#statuses").innerText();
      await page.locator("#step-back").click();
      const lostBefore = await page.locator("#statuses").innerText();
      check(/lost/.test(lostThen) && !/lost/.test(lostBefore), `(e) 'next elimination' showed ${outAt}: '${lostThen}' after '${lostBefore}'`);
      check(await page.locator("#next-elimination").isEnabled(), "(e) 'next elimination' is disabled before the elimination");
      await page.locator("#last").click();
      check(await page.locator("#next-elimination").isDisabled(), "(e) 'next elimination' is enabled with none ahead");
      console.log(`ok (e) a throwing bot is reported: "${crash.split("\n")[0]}"; 'e' jumps to its elimination (${outAt})`);
    });

    // (d) A reload keeps the typed code.
    await limit("(d) a reload", 60_000, async () => {
      t = performance.now();
      await page.reload();
      const kept = await getCode(page);
      timed("(d) reload", t);
      check(kept === THROWING_BOT, "(d) the typed code is not restored after a reload");
      console.log("ok (d) a reload keeps the typed code");
      check(problems.length === 0, `errors:\n  ${problems.join("\n  ")}`);
    });

    // (k) A bot with a syntax error is reported as a crash with the error and its line.
    await limit("(k) a syntax error", 60_000, async () => {
      await playMatch(page, { code: SYNTAX_ERROR_BOT, timeout: 30_000 });
      const syntax = (await page.locator("#faults").innerText()).trim();
      check(/crash/.test(syntax) && /SyntaxError/.test(syntax) && /line 4\b/.test(syntax), `(k) the syntax error is not reported with its line: '${syntax}'`);
      console.log(`ok (k) a syntax error is reported: "${syntax.split("\n")[0]}"`);
    });

    // (j) Two bots of the person's own: the opponent is a second editor, saved on its own.
    await limit("(j) two editor bots", 180_000, async () => {
      await setCode(page, SIMPLE_BOT);
      await page.locator("#opponent").selectOption("javascript");
      await page.locator("#bot-code-2 .cm-content").waitFor();
      await page.evaluate((c) => botplayEditor.get("bot-code-2").paste(c), SIMPLE_BOT.replace("units: ", "second: "));
      await setRelaxed(page, true);
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      const both = await page.locator("#outcome").innerText();
      const bothFaults = await page.locator("#faults li").allInnerTexts();
      check(/your second bot/.test(both + (await page.locator("#statuses").innerText())), `(j) the second bot is not named: '${both}'`);
      check(bothFaults.length === 0, `(j) two editor bots faulted: ${bothFaults.join("; ")}`);
      await page.locator("#scrub").fill("2");
      const secondLog = await page.locator('#turn-details article[data-seat="1"] pre.stderr').innerText();
      check(/^second: \d+/.test(secondLog), `(j) the second bot's debug log is not shown: '${secondLog}'`);
      await page.reload();
      await page.locator("#opponent").selectOption("javascript");
      await page.locator("#bot-code-2 .cm-content").waitFor();
      const keptSecond = await page.evaluate(() => botplayEditor.get("bot-code-2").getDoc());
      check(/second: /.test(keptSecond) && (await getCode(page)) === SIMPLE_BOT, "(j) a reload lost one of the two bots' code");
      await page.locator("#opponent").selectOption("random");
      console.log(`ok (j) two editor bots play each other: "${both.split("\n")[0]}"; both codes survive a reload`);
    });

    // (l) The Arena panel: a small round-robin of the typed bot and two built-in bots, several
    // matches at once; the page answers meanwhile; the tables add up; a match opens in the viewer.
    await limit("(l) the arena", 240_000, async () => {
      t = await runArena(page, ["your bot", "random", "expander"]);
      await page.locator("#arena-progress").getByText(/playing/).waitFor({ timeout: 10_000 });
      const whileArena = performance.now();
      await page.evaluate(() => 1);
      const arenaAnswerMs = performance.now() - whileArena;
      await page.locator("#arena-progress").getByText(/done: 6 matches/).waitFor({ timeout: 180_000 });
      const arenaMs = timed("(l) arena: 6 matches", t);
      const botRows = await page.locator("#arena-bots-table tbody tr").allInnerTexts();
      const pairRows = await page.locator("#arena-pairs-table tbody tr").allInnerTexts();
      check(botRows.length === 3 && pairRows.length === 3, `(l) the arena tables have ${botRows.length} bots and ${pairRows.length} pairs`);
      for (const row of pairRows) {
        const [w, d, l] = row.match(/(\d+)–(\d+)–(\d+)/).slice(1).map(Number);
        check(w + d + l === 2, `(l) a pair did not play 2 matches: '${row}'`);
      }
      check(arenaAnswerMs < 1_000, `(l) the page took ${arenaAnswerMs.toFixed(0)} ms to answer during the arena`);
      await page.locator("#arena .arena-matches summary").click();
      await page.locator("#arena-match-list .arena-watch").first().click();
      await page.locator("#match-status").getByText(/arena match 1/).waitFor({ timeout: 10_000 });
      await page.locator("#arena").screenshot({ path: join(SHOTS, "arena.png") });
      console.log(`ok (l) an arena of 6 matches in ${(arenaMs / 1000).toFixed(1)} s (page answered in ${arenaAnswerMs.toFixed(0)} ms meanwhile): ${botRows.map((r) => r.split("\t").slice(0, 2).join(" ")).join("; ")}`);
      await page.locator("#arena > summary").click();
    });

    // (m) A lesson link: a teacher's set-up and instruction; the student's work on it is saved
    // apart from their own bots and survives a reload; leaving the lesson brings theirs back.
    await limit("(m) a lesson link", 120_000, async () => {
      await page.locator("#lesson-maker summary").click();
      await page.locator("#make-lesson").click();
      check(/needs a title/.test(await page.locator("#lesson-error").innerText()), "(m) a lesson without a title was made");
      await page.locator("#lesson-title").fill("Lesson 1: beat random");
      await page.locator("#lesson-text").fill("Train units beside your HQ.\nThen walk them to the enemy HQ.");
      await page.locator("#make-lesson").click();
      const lessonLink = await page.locator("#lesson-link").inputValue();
      const ownCode = await getCode(page);
      await page.goto(lessonLink);
      await page.reload();
      await page.locator("#lesson").waitFor({ timeout: 10_000 });
      const lessonText = await page.locator("#lesson").innerText();
      check(/Lesson 1: beat random/.test(lessonText) && /walk them to the enemy HQ/.test(lessonText), `(m) the lesson is not shown: '${lessonText}'`);
      check((await page.locator("#match-status").innerText()).startsWith("No match yet"), "(m) a lesson link ran a match by itself");
      check((await getCode(page)) === ownCode, "(m) the lesson does not start from its code");
      await setCode(page, "// my lesson work\n" + ownCode);
      await page.reload();
      await page.locator("#lesson").waitFor({ timeout: 10_000 });
      check((await getCode(page)).startsWith("// my lesson work"), "(m) the student's lesson work is lost on reload");
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
      await page.locator("#lesson").screenshot({ path: join(SHOTS, "lesson.png") });
      await page.locator("#leave-lesson").click();
      check((await page.locator("#lesson").count()) === 0, "(m) the lesson is still shown after leaving it");
      check((await getCode(page)) === ownCode, "(m) leaving the lesson did not bring back the person's own code");
      await page.goto(url);
      console.log(`ok (m) a lesson link (${lessonLink.length} characters) shows its instruction, keeps the student's work apart and across reloads`);
    });

    // (g) Python: a bot in the editor plays a whole match; loading is not counted against it; an
    // infinite loop is stopped at its budget; an exception is reported with its line.
    await limit("(g) Python bots", 420_000, async () => {
      await page.locator("#player").selectOption("python");
      check(/input\(\)/.test(await getCode(page)), "(g) choosing Python does not show the Python starter bot");
      await setCode(page, PYTHON_BOT);
      await setRelaxed(page, true);
      for (const visit of ["cold", "warm"]) {
        t = performance.now();
        await page.locator("#run").click();
        await page.locator("#match-status").getByText(/Playing|over/).waitFor({ timeout: 120_000 });
        timed(`(g) Python: run until the first turn (${visit} load)`, t);
        await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      }
      const pyOutcome = await page.locator("#outcome").innerText();
      const pyFaults = (await page.locator("#faults").innerText()).trim();
      check(/wins|draw/.test(pyOutcome) && !/your bot/.test(pyFaults), `(g) the Python match did not end cleanly: '${pyOutcome}' / '${pyFaults}'`);
      await page.locator("#first").click();
      await page.locator("#step-forward").click();
      const pyLog = await page.locator("#turn-details").innerText();
      check(/python says hello/.test(pyLog), `(g) the Python bot's stderr is not shown: '${pyLog.slice(0, 300)}'`);
      console.log(`ok (g) a Python bot plays a full match: "${pyOutcome.split("\n")[0]}"`);

      await playMatch(page, { code: PYTHON_LOOP, relaxed: false, timeout: 120_000 });
      const pyLoop = (await page.locator("#faults").innerText()).trim();
      // It loops in its first turn, whose budget is 1000 ms: interrupted there, it names the
      // line it was running (the loop, lines 2-3), its traceback in the turn's debug log.
      check(/timeout/.test(pyLoop) && /within 1000 ms/.test(pyLoop), `(g) the looping Python bot was not stopped at its 1000 ms first-turn budget: '${pyLoop}'`);
      check(/still computing at the deadline, in line [23]\b/.test(pyLoop), `(g) the looping Python bot's timeout does not name the line it was running: '${pyLoop}'`);
      await page.locator("#first").click();
      await page.locator("#step-forward").click();
      const loopLog = await page.locator("#turn-details").innerText();
      check(/KeyboardInterrupt/.test(loopLog) && /File "bot\.py", line [23]\b/.test(loopLog), `(g) the interrupted Python bot's traceback is not in its debug log: '${loopLog.slice(0, 400)}'`);
      console.log(`ok (g) a looping Python bot is stopped and its line named: "${pyLoop.split("\n")[0]}"`);

      await playMatch(page, { code: PYTHON_RAISE, timeout: 120_000 });
      const pyCrash = (await page.locator("#faults").innerText()).trim();
      check(/crash/.test(pyCrash) && /ZeroDivisionError/.test(pyCrash) && /line 4\b/.test(pyCrash), `(g) the Python exception is not reported with its line: '${pyCrash}'`);
      console.log(`ok (g) a Python exception is reported: "${pyCrash.split("\n")[0]}"`);
      await page.locator("#player").selectOption("javascript");
    });

    // (h) Share links and replay files: a link with the match opens it in a fresh page at the
    // chosen turn without running any bot; "Run" plays it again to the same end; damaged and
    // newer links get a clear message; a downloaded replay opens from a file; a replay written
    // by the CLI opens in the page.
    await limit("(h) share links and replay files", 300_000, async () => {
      await playMatch(page, { code: SIMPLE_BOT, relaxed: true, timeout: 60_000 });
      played = (await page.locator("#outcome .result").innerText()).trim();
      await page.locator("#first").click();
      for (let i = 0; i < 5; i++) await page.locator("#step-forward").click();
      await page.locator("#share-turn").check();
      await page.locator("#make-link").click();
      link = await page.locator("#share-link").inputValue();
      check(link.includes("#b1."), `(h) no share link: '${link}'`);
      const boardAtTurn5 = await boardPixels(page);
      await page.locator("#step-back").click();
      check((await page.locator("#share-link").count()) === 1, "(h) stepping cleared the link");
      // A fresh browser: its own profile, nothing saved, nothing cached.
      const freshProfile = await mkdtemp(join(tmpdir(), "botplay-e2e-fresh-"));
      const freshContext = await launch(freshProfile);
      const fresh = freshContext.pages()[0] ?? (await freshContext.newPage());
      let workers = 0;
      fresh.on("worker", () => (workers += 1));
      fresh.on("pageerror", (e) => problems.push(`page error (fresh page): ${e.message}`));
      t = performance.now();
      await fresh.goto(link);
      await fresh.locator("#outcome .result").waitFor({ timeout: 30_000 });
      timed("(h) open a share link with its match", t);
      const status = await fresh.locator("#match-status").innerText();
      check(/replay from a link/.test(status), `(h) the link's match is not shown as a replay: '${status}'`);
      check((await fresh.locator("#turn-label").innerText()).startsWith("turn 5 /"), "(h) the link did not open at turn 5");
      check((await fresh.locator("#outcome .result").innerText()).trim() === played, "(h) the link shows another outcome");
      check(workers === 0, `(h) opening a link with its match started ${workers} worker(s)`);
      check((await getCode(fresh)) === SIMPLE_BOT, "(h) the link's code is not in the editor");
      const freshBoard = await boardPixels(fresh);
      check(freshBoard === boardAtTurn5, `(h) the board at turn 5 differs: ${freshBoard} in the fresh browser, ${boardAtTurn5} where the link was made`);
      check((await fresh.locator("#run").innerText()).trim() === "Run again", "(h) the replayed match offers no 'Run again'");
      await fresh.locator("#run").click();
      await fresh.locator("#match-status").getByText(/over/).waitFor({ timeout: 60_000 });
      check((await fresh.locator("#outcome .result").innerText()).trim() === played, "(h) running the link again gave another outcome");
      console.log(`ok (h) a share link (${link.length} characters) opens in a fresh browser: the same board at turn 5, and "Run again" plays to "${played}"`);

      // A link without the match re-runs it from the code it carries, as soon as it is opened.
      await page.locator("#share-match").uncheck();
      await page.locator("#make-link").click();
      const codeLink = await page.locator("#share-link").inputValue();
      await page.locator("#share-match").check();
      check(codeLink.length < link.length, "(h) the link without the match is not shorter");
      await fresh.goto(codeLink);
      await fresh.reload();
      await fresh.locator("#match-status").getByText(/over/).waitFor({ timeout: 60_000 });
      check((await fresh.locator("#outcome .result").innerText()).trim() === played, "(h) the link without its match ran to another outcome");
      console.log(`ok (h) a link without the match (${codeLink.length} characters) runs it on opening, to the same end`);

      for (const [fragment, expected] of [
        ["b1.AAAA-not-deflate", /cannot be opened: this link is damaged/],
        [link.split("#")[1].slice(0, 60), /cannot be opened: this link is damaged/],
        ["b9.xyz", /newer botplay/],
        ["hello", /not a botplay match link/],
      ]) {
        await fresh.goto(`${url}#${fragment}`);
        await fresh.reload();
        const notice = await fresh.locator("#notice").innerText({ timeout: 10_000 });
        check(expected.test(notice), `(h) link '#${fragment.slice(0, 20)}…' gave '${notice}'`);
        check((await fresh.locator("#games .game-choice").count()) > 0, "(h) a bad link left a blank page");
      }
      console.log("ok (h) damaged, cut, newer and foreign links are explained; the page stays usable");

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.locator("#download-replay").click(),
      ]);
      check(/^botplay-[a-z-]+_.+_vs_.+_seed-\d+\.json$/.test(download.suggestedFilename()), `(h) the replay file's name: ${download.suggestedFilename()}`);
      const replayFile = join(profile, "match-replay.json");
      await download.saveAs(replayFile);
      await fresh.goto(url);
      await fresh.locator("#open-replay").setInputFiles(replayFile);
      await fresh.locator("#match-status").getByText(/replay from the file/).waitFor({ timeout: 10_000 });
      check((await fresh.locator("#outcome .result").innerText()).trim() === played, "(h) the downloaded replay shows another outcome");

      const cliReplay = join(profile, "cli-replay.json");
      const cliOut = execFileSync(
        "cargo",
        ["run", "-q", "-p", "botplay", "--", "play", "--game", "ice-and-fire", "--seed", "11",
          "--bot", "builtin:expander", "--bot", "builtin:random", "--replay", cliReplay],
        { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
      );
      const cliScore = cliOut.match(/^seat 1 \S+ score (-?\d+)/m)?.[1];
      await fresh.locator("#open-replay").setInputFiles(cliReplay);
      await fresh.locator("#match-status").getByText(/cli-replay\.json/).waitFor({ timeout: 10_000 });
      const cliShown = await fresh.locator("#outcome .result").innerText();
      check(cliScore && cliShown.includes(cliScore), `(h) the CLI's replay (score ${cliScore}) shows '${cliShown}'`);
      await freshContext.close();
      await rm(freshProfile, { recursive: true, force: true });
      console.log(`ok (h) replay files open: a downloaded one, and one written by botplay play ("${cliShown.trim()}")`);
    });

    // (i) A static host that sends no special header: the page's service worker makes it
    // cross-origin isolated (one reload on the first visit), and a share link opens and runs.
    await limit("(i) a static host without headers", 120_000, async () => {
      const plain = await serve(DIST, 0, { plain: true });
      try {
        const hosted = await context.newPage();
        hosted.on("pageerror", (e) => problems.push(`page error (static host): ${e.message}`));
        t = performance.now();
        await hosted.goto(`${plain.url}#${link.split("#")[1]}`);
        await hosted.locator("#outcome .result").waitFor({ timeout: 30_000 });
        timed("(i) static host: first visit until the link's match shows", t);
        check(await hosted.evaluate(() => self.crossOriginIsolated), "(i) the service worker did not isolate the page");
        check((await hosted.locator("#isolation-warning").count()) === 0, "(i) the isolation warning is shown");
        check((await hosted.locator("#outcome .result").innerText()).trim() === played, "(i) the link shows another outcome");
        await hosted.locator("#run").click();
        await hosted.locator("#match-status").getByText(/over/).waitFor({ timeout: 60_000 });
        check((await hosted.locator("#outcome .result").innerText()).trim() === played, "(i) running the link on the static host gave another outcome");
        await hosted.close();
        console.log("ok (i) on a static host without headers the service worker isolates the page; a link opens and runs");
      } finally {
        plain.server.close();
      }
    });

    // (n) A phone: a narrow touch screen shows the whole page without sideways scrolling, and a
    // match is played and drawn to the width of the screen.
    await limit("(n) a phone", 180_000, async () => {
      const phoneProfile = await mkdtemp(join(tmpdir(), "botplay-e2e-phone-"));
      const phoneContext = await launch(phoneProfile, {
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      try {
        const phone = phoneContext.pages()[0] ?? (await phoneContext.newPage());
        phone.on("pageerror", (e) => problems.push(`page error (phone): ${e.message}`));
        await phone.goto(url);
        // One tap on the landing page plays a game's starter bot against its strongest bot.
        await phone.locator('#landing .card[data-game="soak-overflow"] .play-now').tap();
        await phone.locator("#outcome .result").waitFor({ timeout: 120_000 });
        check((await phone.locator("#landing").count()) === 0, "(n) the landing gallery stays after Play");
        const phoneOutcome = await phone.locator("#outcome .result").innerText();
        const phoneSeats = await phone.locator("#statuses").innerText();
        check(/your bot/.test(phoneSeats), `(n) Play did not run the starter bot: '${phoneSeats}'`);
        await phone.locator("#step-back").tap();
        const wide = await phone.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          screen: window.innerWidth,
          board: document.querySelector("#board").getBoundingClientRect().width,
        }));
        check(wide.page <= wide.screen + 1, `(n) the page scrolls sideways on a phone: ${wide.page} px wide on a ${wide.screen} px screen`);
        check(wide.board > wide.screen * 0.8 && wide.board <= wide.screen, `(n) the board is ${wide.board} px wide on a ${wide.screen} px screen`);
        const phoneColours = await canvasColours(phone);
        check(phoneColours.common >= 6, `(n) the phone's board looks blank: ${JSON.stringify(phoneColours)}`);
        await phone.locator("#board").scrollIntoViewIfNeeded();
        await phone.screenshot({ path: join(SHOTS, "phone.png") });
        console.log(`ok (n) on a 390 px phone one tap plays Soak Overflow's starter bot ("${phoneOutcome.split("\n")[0]}"), the page fits, the board is ${wide.board.toFixed(0)} px wide`);
      } finally {
        await phoneContext.close();
        await rm(phoneProfile, { recursive: true, force: true });
      }
    });

    // (f) Every other game: a full match of a JavaScript bot against a built-in bot, one file
    // per game in tests/e2e/games/ (each exports `default async function (page, t)`).
    const tools = { check, timed, setCode, getCode, setRelaxed, canvasColours, SHOTS, url, problems };
    for (const file of (await readdir(GAME_TESTS)).filter((f) => f.endsWith(".mjs")).sort()) {
      await limit(`(f) ${file}`, 420_000, async () => {
        const test = await import(join(GAME_TESTS, file));
        await test.default(page, tools);
        check(problems.length === 0, `${file}: errors:\n  ${problems.join("\n  ")}`);
        await pythonStarterMatch(page, file.replace(/\.mjs$/, ""));
        check((await page.locator("#share-link").count()) === 0, `${file}: a share link of an earlier match is still shown`);
      });
    }
    // Then checks in browsers of their own (no screenshot of those pages here; each takes its
    // own where it fails).
    const own = (what, ms, checks) => limit(what, ms, checks, false);
    // (p)-(r) offline use
    await own("(p)-(r) offline use", 300_000, async () => (await import("./offline.mjs")).offlineChecks({ dist: DIST, check, SHOTS }));
    // (s)-(u) keyboard, focus rings, text view
    await own("(s)-(u) accessibility", 300_000, async () => (await import("./a11y.mjs")).a11yChecks({ dist: DIST, check, SHOTS }));
    // (v) human play by clicks, no time budget
    await own("(v) human play", 300_000, async () => (await import("./human.mjs")).humanChecks({ dist: DIST, check, SHOTS }));
    // (z) tutorial leagues: texts, bosses, objectives
    await own("(z) tutorial leagues", 300_000, async () => (await import("./leagues.mjs")).leagueChecks({ dist: DIST, check }));
    // (fh) a new user's first hour (issue 20)
    await own("(fh) a new user's first hour", 420_000, async () => (await import("./first-hour.mjs")).firstHourChecks({ dist: DIST, check, SHOTS }));
    // (th) a teacher's first hour (issue 36)
    await own("(th) a teacher's first hour", 300_000, async () => (await import("./teacher-hour.mjs")).teacherHourChecks({ dist: DIST, check, SHOTS }));
    // (w)-(y) nothing typed is lost: links, two tabs, a crashed tab
    await own("(w)-(y) nothing typed is lost", 300_000, async () => (await import("./tabs.mjs")).tabsChecks({ dist: DIST, check, SHOTS }));
    // (p)-(t) bots attacking the page's resources: the match host
    await own("(p)-(t) bots attacking the page's resources", 420_000, async () => (await import("./isolation.mjs")).isolationChecks({ dist: DIST, check }));
    // performance figures, printed (issue #13)
    await own("the performance figures", 420_000, async () => (await import("./perf.mjs")).perfFigures(DIST, { matches: 3, loads: 1 }));
  } finally {
    // A browser that does not close (after a check past its limit) is killed when node exits.
    await settledWithin(context?.close().catch(() => {}), 30_000);
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
  console.log("\ntimings:");
  for (const [label, ms] of timings) console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${label}`);
}

main().then(
  () => console.log("\nall browser tests passed"),
  (e) => {
    console.error(`\nFAILED: ${e instanceof Failure ? e.message : e.stack ?? e}`);
    process.exit(1);
  },
);

// A new user's first hour (issue 20), in Debian's Chromium through playwright-core.
//
//   cargo xtask test build
//   node tests/e2e/first-hour.mjs [--dist dist]
//
// (fh0) Python's mode (editor-python.js) not fetched: the editor shows Python as plain text, and
//       a later choice of Python fetches the mode again (before, the failed script's tag stayed
//       and that page never tried again).
// (fh1) Python indentation, typed as a person does: Soak Overflow's Python starter, a click at
//       the end of `    my_agent_count = int(input())`, Enter, `print("hello", file=sys.stderr)`:
//       the new line is indented 4 spaces as the starter is; Run plays with no IndentationError
//       and the debug log says hello. Enter after `while True:` indents 4; in JavaScript Enter
//       after `{` indents 2 (as the JavaScript starters are written); Tab and Shift-Tab indent
//       and unindent a selection of lines by one unit.
// (fh3) One turn number everywhere, as the original counts it: a Soak Overflow bot counting its
//       own turns from 1 and crashing in its third: at each step the viewer, the text view and
//       the turn's input/output show the bot's number, and so does the fault; Skyport's last
//       turn in the viewer is its game state's "turn", its set-up frames turn 0.
// (fh4) Python faults at the bot's own line: `import numpy` is "not available in this page" at
//       its line, an exception in a function at the function's line; the traceback in the debug
//       log names the bot's file bot.py and shows none of the runtime's (Pyodide's) frames.
// (fh5) Playback that tells the story: a one-click Play from the gallery is played back from its
//       start (not shown at its end), at a speed that shows it in 20 s at most, its result line
//       in sight on a 1366 × 900 screen (screenshot watch.png); a link made at turn 5 opens there
//       and stays there.
// (fh6) A lesson link opens on the lesson: no game gallery (its Play would leave the lesson), the
//       instruction in sight on a 1366 × 900 screen (screenshot lesson-opened.png).
// (fh7) A reload keeps the chosen game and, per game, the language of "your bot".
// (fh8) A link too long without its match does not suggest sharing it without the match.
// (fh9) A layout for writing bots, at 1920 × 1080: the editor is a main pane beside the match
//       (at least 40% of the screen's width), a handle resizes it and a reload keeps the width
//       (a double click brings back the default); the console under the board shows each
//       stream whole (lines wrap: nothing is cut at the box's edge) with a copy button.
//       Screenshots layout-1920.png and, at 1366 × 900, layout-1366.png.
// (fh10) On a 390 × 844 phone, after Run the board and the result come first: the board is in
//       sight and above the editor (screenshot layout-phone.png).
// (fh11) The first-visit help: shown in a new profile (what a bot is, input and output, the
//       rules, the debug log, sharing), dismissed by "Got it", not shown again after a reload,
//       back with the header's Help button.
// (fh12) Playback keys work before anything is clicked: a link opened at turn 5 steps back with
//       ← at once; after Run (the Run button focused), Home and → move the viewer.
// (fh13) Playing by hand at 1366 × 900: every turn the board and End turn are both on the
//       screen, no scrolling between turns (screenshot layout-human.png). (A click on a cover
//       tile moving an agent towards it is checked in human.mjs.)
// (fh14) A Soak Overflow bot writing one line where its turn takes one per agent: the timeout
//       says the bot wrote 1 line and then waited for its next input while the game was waiting
//       for more lines.
// (fh15) The Arena, opened after picking Soak Overflow: its five bots can be seen and ticked (one
//       unticked: 6 pairs × 10 = 60 matches) and its controls row keeps labels apart.
// Called from run.mjs (`firstHourChecks({ dist, check, SHOTS })`) or alone.

import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, launch, pickGame, runAlone, setCode, setRelaxed } from "./browser.mjs";
import { serve } from "./serve.mjs";
import { SOAK_OVERFLOW_MINE, SOAK_OVERFLOW_START } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DEFAULT_SHOTS = join(REPO, "tests", "e2e", "screenshots");

// Soak Overflow: counts its own turns from 1, logs "my turn N", hunkers down, and throws in its
// third turn.
const COUNTING_BOT = `${SOAK_OVERFLOW_START}
let turn = 0;
while (true) {
${SOAK_OVERFLOW_MINE}
  turn += 1;
  console.error("my turn " + turn + " (" + width + "x" + height + ")");
  if (turn === 3) throw new Error("stop in turn 3");
  for (const id of mine) console.log(id + ";HUNKER_DOWN");
}
`;

// Python bots that fail: an import of numpy at line 4, and a division by zero at line 3, in a
// function called from line 6.
const PY_NUMPY = `import sys
my_id = int(input())

import numpy
`;
const PY_IN_FUNCTION = `import sys
def ratio(a, b):
    return a / b
my_id = int(input())
print("reading", file=sys.stderr)
ratio(my_id, 0)
`;

/** The viewer's turn label: [shown, last]. */
async function turnLabel(page) {
  const m = (await page.locator("#turn-label").innerText()).match(/turn (\d+) \/ (\d+)/);
  return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
}

const code = (page, editor = "bot-code") => page.evaluate((e) => botplayEditor.get(e).getDoc(), editor);

/** Scrolls the editor with the mouse wheel, as a person does, until the line holding `text` is
 * shown in the editor and on the screen; returns that line's locator. */
async function scrollToLine(page, text, check, what) {
  const line = page.locator("#bot-code .cm-line").filter({ hasText: text }).first();
  const scroller = page.locator("#bot-code .cm-scroller");
  await scroller.hover();
  for (let i = 0; i < 60; i++) {
    if ((await line.count()) > 0 && (await line.isVisible())) {
      const box = await line.boundingBox();
      const view = await scroller.boundingBox();
      const bottom = Math.min(view?.y + view?.height, page.viewportSize().height);
      if (box && view && box.y >= Math.max(view.y, 0) && box.y + box.height <= bottom) return line;
    }
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(30);
  }
  check(false, `${what}: the editor never showed the line '${text}'`);
}

/** Clicks just right of the end of the text of `line` (where a person clicks to put the cursor
 * at the end of a line). */
async function clickLineEnd(page, line) {
  // Wrapped lines are measured by the editor as they come into sight, which moves the lines below
  // them for a moment: the end is taken once two looks 80 ms apart agree.
  const look = () => line.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.right, y: r.top + r.height / 2 };
  });
  let end = await look();
  for (let i = 0; i < 25; i++) {
    await page.waitForTimeout(80);
    const again = await look();
    if (again.x === end.x && again.y === end.y) break;
    end = again;
  }
  await page.mouse.click(end.x + 12, end.y);
}

export async function firstHourChecks({ dist, check = defaultCheck, SHOTS = DEFAULT_SHOTS }) {
  const { server, url } = await serve(dist);
  const profile = await mkdtemp(join(tmpdir(), "botplay-first-hour-"));
  let context;
  const problems = [];
  try {
    context = await launch(profile, { viewport: { width: 1366, height: 900 } });
    let page = await context.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    await mkdir(SHOTS, { recursive: true });
    await page.goto(url);
    await page.locator("#games").waitFor();

    // (fh0) Python's mode not fetched (offline before the service worker kept it): the editor
    // shows Python as plain text, and the next editor to show Python fetches it again.
    // (The context's route: the service worker's requests pass there, not the page's.)
    const PYTHON_MODE = "**/editor-python.js";
    await context.route(PYTHON_MODE, (route) => route.abort());
    await pickGame(page, "soak-overflow");
    await page.locator("#player").selectOption("python");
    await page.locator("#bot-code .cm-content").waitFor();
    await page.waitForFunction(() => !document.querySelector('script[src$="editor-python.js"]'), null, { timeout: 30_000 });
    check(!(await page.evaluate(() => botplayEditor.get("bot-code").hasMode())), "(fh0) Python's mode is there although its script was not fetched");
    await context.unroute(PYTHON_MODE);
    await page.locator("#player").selectOption("javascript");

    // (fh1) Python indentation, typed.
    await page.locator("#player").selectOption("python");
    await page.locator("#bot-code .cm-content").waitFor();
    // Python's mode (its indentation among it) comes a moment later, fetched when first shown.
    await page.waitForFunction(() => botplayEditor.get("bot-code").hasMode(), null, { timeout: 30_000 });
    check(/my_agent_count = int\(input\(\)\)/.test(await code(page)), "(fh1) the Python starter is not in the editor");
    const target = "    my_agent_count = int(input())";
    const line = await scrollToLine(page, "my_agent_count = int(input())", check, "(fh1)");
    await clickLineEnd(page, line);
    await page.keyboard.press("Enter");
    await page.keyboard.type('print("hello", file=sys.stderr)');
    const typed = (await code(page)).split("\n");
    const at = typed.indexOf(target);
    check(at >= 0, "(fh1) the line clicked is gone");
    check(
      typed[at + 1] === '    print("hello", file=sys.stderr)',
      `(fh1) the typed line is '${JSON.stringify(typed[at + 1])}', not indented 4 spaces as the starter's line above it`,
    );
    await setRelaxed(page, true);
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 180_000 });
    const faults = (await page.locator("#faults").innerText()).trim();
    check(!/IndentationError/.test(faults) && !/your bot/.test(faults), `(fh1) the edited starter faulted: '${faults}'`);
    await page.locator("#first").click();
    await page.locator("#step-forward").click();
    const log = await page.locator("#turn-details").innerText();
    check(/hello/.test(log), `(fh1) the bot's "hello" is not in its debug log: '${log.slice(0, 300)}'`);
    console.log(`ok (fh1) Enter after '${target.trim()}' indents 4 spaces; the edited Python starter plays: "${(await page.locator("#outcome .result").innerText()).trim()}"`);

    // Enter after a block's opening line: one unit deeper, 4 in Python.
    await setCode(page, "import sys\n");
    await page.locator("#bot-code .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("while True:\n");
    await page.keyboard.type("x = 1");
    const afterColon = (await code(page)).split("\n").at(-1);
    check(afterColon === "    x = 1", `(fh1) Enter after 'while True:' gave ${JSON.stringify(afterColon)}, not 4 spaces`);
    // Tab and Shift-Tab indent and unindent the selected lines by one unit.
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Tab");
    let last2 = (await code(page)).split("\n").slice(-2);
    check(
      last2[0] === "    while True:" && last2[1] === "        x = 1",
      `(fh1) Tab on two selected lines gave ${JSON.stringify(last2)}`,
    );
    await page.keyboard.press("Shift+Tab");
    last2 = (await code(page)).split("\n").slice(-2);
    check(last2[0] === "while True:" && last2[1] === "    x = 1", `(fh1) Shift-Tab on two selected lines gave ${JSON.stringify(last2)}`);
    console.log("ok (fh1) Python: Enter after a ':' indents 4; Tab / Shift-Tab indent and unindent a selection by 4");
    // Code indented otherwise (2 spaces, pasted) is followed, so that an added line still fits.
    await setCode(page, "import sys\nwhile True:\n  x = int(input())\n  print(x)\n");
    await clickLineEnd(page, await scrollToLine(page, "while True:", check, "(fh1)"));
    await page.keyboard.press("Enter");
    await page.keyboard.type("y = 2");
    const twoSpaced = (await code(page)).split("\n")[2];
    check(twoSpaced === "  y = 2", `(fh1) in code indented by 2, Enter after 'while True:' gave ${JSON.stringify(twoSpaced)}`);
    console.log("ok (fh1) Python code pasted with 2-space indentation keeps 2 for new lines");

    // JavaScript keeps the starters' 2 spaces.
    await page.locator("#player").selectOption("javascript");
    await setCode(page, "const n = 1;\n");
    await page.locator("#bot-code .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("if (true) {\n");
    await page.keyboard.type("let y = 2;");
    const jsLine = (await code(page)).split("\n").find((l) => l.includes("let y = 2;"));
    check(jsLine === "  let y = 2;", `(fh1) JavaScript: Enter after '{' gave ${JSON.stringify(jsLine)}, not 2 spaces`);
    await page.keyboard.press("Home");
    await page.keyboard.press("Tab");
    const jsTab = (await code(page)).split("\n").find((l) => l.includes("let y = 2;"));
    check(jsTab === "    let y = 2;", `(fh1) JavaScript: Tab gave ${JSON.stringify(jsTab)}`);
    console.log("ok (fh1) JavaScript: Enter after '{' indents 2, Tab one more level of 2");
    check(problems.length === 0, `(fh1) page errors: ${problems.join("; ")}`);

    // (fh3) One turn number everywhere: a Soak Overflow bot that counts its own turns from 1 (as
    // the original does) logs "my turn N" and crashes in its third turn; at every frame the
    // viewer, the text view and the turn's input/output say the same number, the bot's own.
    await pickGame(page, "soak-overflow");
    await page.locator("#player").selectOption("javascript");
    await setCode(page, COUNTING_BOT);
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    const crash = (await page.locator("#faults li").allInnerTexts()).find((f) => /your bot/.test(f)) ?? "";
    check(/crash/.test(crash) && /\(turn 3\)$/.test(crash), `(fh3) the crash in the bot's third turn is reported as '${crash}'`);
    if (!(await page.locator("#text-view").count())) await page.locator("#text-view-toggle").click();
    await page.locator("#first").click();
    for (let n = 1; n <= 3; n++) {
      await page.locator("#step-forward").click();
      const label = await page.locator("#turn-label").innerText();
      const said = (await page.locator("#text-turn-label").innerText()).trim();
      const mine = page.locator('#turn-details article[data-seat="0"]');
      const head = await mine.locator("h4").innerText();
      const log = await mine.locator("pre.stderr").innerText().catch(() => "");
      check(label.startsWith(`turn ${n} / 3`), `(fh3) the bot's turn ${n}: the viewer says '${label}'`);
      check(said === `Turn ${n} of 3.`, `(fh3) the bot's turn ${n}: the text view says '${said}'`);
      check(new RegExp(`· turn ${n} ·`).test(head), `(fh3) the bot's turn ${n}: its input/output says '${head}'`);
      if (n < 3) check(log.includes(`my turn ${n}`), `(fh3) the turn shown as ${n} holds the bot's log '${log}'`);
    }
    await page.locator("#first").click();
    await page.locator("#viewer").press("f");
    check((await page.locator("#turn-label").innerText()).startsWith("turn 3 /"), "(fh3) 'next fault' does not show turn 3");
    console.log(`ok (fh3) Soak Overflow: viewer, text view, input/output and the fault ("${crash}") count turns as the bot does`);

    // Skyport: the viewer's last turn is the game state's own "turn" (the connection and the
    // choice of weapons come before turn 1).
    await pickGame(page, "skyport");
    await page.locator("#player").selectOption("javascript");
    await setRelaxed(page, true);
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 240_000 });
    await page.locator("#last").click();
    const skyLabel = await page.locator("#turn-label").innerText();
    const details = await page.locator("#turn-details").innerText();
    const stateTurns = [...details.matchAll(/"turn":(\d+)/g)].map((m) => Number(m[1]));
    const lastState = Math.max(...stateTurns);
    check(stateTurns.length > 0 && skyLabel.startsWith(`turn ${lastState} / ${lastState}`),
      `(fh3) Skyport's last turn: the viewer says '${skyLabel}', the game state says turn ${lastState}`);
    await page.locator("#first").click();
    await page.locator("#step-forward").click();
    const setup = (await page.locator("#text-turn-label").innerText()).trim();
    check(/^Setting up, before turn 1/.test(setup) && (await page.locator("#turn-label").innerText()).startsWith("turn 0 /"),
      `(fh3) Skyport's connection frame says '${setup}'`);
    console.log(`ok (fh3) Skyport: the viewer ends at '${skyLabel}', the game state's turn ${lastState}; the set-up frames are turn 0`);
    // Ice and Fire: a crash in red's first turn ends the match there: turn 1, not 0.
    await pickGame(page, "ice-and-fire");
    await page.locator("#player").selectOption("javascript");
    await setCode(page, 'readline();\nthrow new Error("gone in turn 1");\n');
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    const first = (await page.locator("#faults li").allInnerTexts()).find((f) => /your bot/.test(f)) ?? "";
    const firstLabel = await page.locator("#turn-label").innerText();
    check(/\(turn 1\)$/.test(first) && firstLabel.startsWith("turn 1 / 1"),
      `(fh3) a crash in the first turn: '${first}', the viewer at '${firstLabel}'`);
    console.log(`ok (fh3) Ice and Fire: a crash in the first turn is turn 1 ('${firstLabel}'): "${first}"`);
    check(problems.length === 0, `(fh3) page errors: ${problems.join("; ")}`);

    // (fh4) Python faults at the bot's own line: `import numpy` (a module Pyodide knows but the
    // page does not install) and an exception raised inside a function of the bot.
    await pickGame(page, "soak-overflow");
    await page.locator("#player").selectOption("python");
    for (const [bot, expected, line] of [
      [PY_NUMPY, /ModuleNotFoundError: No module named 'numpy': numpy is not available in this page/, 4],
      [PY_IN_FUNCTION, /ZeroDivisionError: division by zero/, 3],
    ]) {
      await setCode(page, bot);
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout: 180_000 });
      const fault = (await page.locator("#faults li").allInnerTexts()).find((f) => /your bot/.test(f)) ?? "";
      check(/crash/.test(fault) && expected.test(fault) && new RegExp(`\\(line ${line}\\)`).test(fault),
        `(fh4) the fault is not at the bot's line ${line}: '${fault}'`);
      check(!/pyodide/i.test(fault), `(fh4) the fault speaks of the runtime: '${fault}'`);
      await page.locator("#first").click();
      await page.locator("#step-forward").click();
      const log = await page.locator('#turn-details article[data-seat="0"] pre.stderr').innerText();
      check(/(^|\n)Traceback \(most recent call last\):/.test(log) && new RegExp(`File "bot\\.py", line ${line}`).test(log),
        `(fh4) the traceback does not name bot.py at line ${line}: '${log}'`);
      check(!/_pyodide|<exec>|micropip|loadPackage/.test(log), `(fh4) the traceback shows the runtime's frames: '${log}'`);
      console.log(`ok (fh4) "${fault}"; traceback: ${JSON.stringify(log.split("\n").slice(0, 4).join(" | "))}`);
    }
    check(problems.length === 0, `(fh4) page errors: ${problems.join("; ")}`);

    // (fh5) Playback that tells the story: a one-click Play is watched from its start at a speed
    // that shows it, with its result line in sight; a link opened at a turn stays there.
    // A fresh browser (nothing saved: the gallery's Play runs the starter bot).
    await context.close();
    await rm(profile, { recursive: true, force: true });
    context = await launch(profile, { viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(url);
    await page.locator('#landing .card[data-game="soak-overflow"] .play-now').click();
    await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
    const [startTurn, lastTurn] = await turnLabel(page);
    check((await page.locator("#play").getAttribute("aria-pressed")) === "true" && startTurn < lastTurn,
      `(fh5) a one-click match is not played back from its start: 'turn ${startTurn} / ${lastTurn}', play ${await page.locator("#play").getAttribute("aria-pressed")}`);
    const result = await page.locator("#outcome .result").boundingBox();
    const screen = page.viewportSize();
    check(result && result.y >= 0 && result.y + result.height <= screen.height,
      `(fh5) the result line is out of sight: ${JSON.stringify(result)} on a ${screen.width}×${screen.height} screen`);
    await page.screenshot({ path: join(SHOTS, "watch.png") });
    const speed = Number((await page.locator("#speed option:checked").innerText()).replace("×", ""));
    const seconds = ((lastTurn - startTurn) * 0.25) / speed;
    check(seconds <= 20.5, `(fh5) ${lastTurn - startTurn} turns at ${speed}× take ${seconds.toFixed(1)} s`);
    await page.waitForTimeout(600);
    const [later] = await turnLabel(page);
    check(later > startTurn, `(fh5) playback does not move: turn ${startTurn}, then ${later}`);
    await page.locator("#turn-label").getByText(`turn ${lastTurn} / ${lastTurn}`).waitFor({ timeout: (seconds + 10) * 1000 });
    check((await page.locator("#outcome .result").boundingBox()).y + 5 <= screen.height, "(fh5) the result line left the screen while playing");
    console.log(`ok (fh5) one-click Play is watched from turn ${startTurn} to ${lastTurn} at ${speed}× (${seconds.toFixed(1)} s), the result line in sight`);
    // A link opened at a turn stays at that turn.
    await page.locator("#first").click();
    for (let i = 0; i < 5; i++) await page.locator("#step-forward").click();
    await page.locator("#share-turn").check();
    await page.locator("#make-link").click();
    const atTurn = await page.locator("#share-link").inputValue();
    const linked = await context.newPage();
    await linked.goto(atTurn);
    await linked.locator("#outcome .result").waitFor({ timeout: 30_000 });
    await linked.waitForTimeout(1500);
    const [opened] = await turnLabel(linked);
    check(opened === 5 && (await linked.locator("#play").getAttribute("aria-pressed")) === "false",
      `(fh5) a link made at turn 5 shows turn ${opened} 1.5 s after opening`);
    await linked.close();
    console.log("ok (fh5) a link opened at turn 5 stays at turn 5");
    check(problems.length === 0, `(fh5) page errors: ${problems.join("; ")}`);

    // (fh6) A lesson link opens on the lesson: no gallery (whose Play would leave the lesson),
    // and the instruction in sight on a 1366 × 900 screen.
    await page.locator("#lesson-maker summary").click();
    await page.locator("#lesson-title").fill("Lesson: hunker down");
    await page.locator("#lesson-text").fill("Make every agent HUNKER_DOWN, then press Run.");
    await page.locator("#make-lesson").click();
    const lesson = await page.locator("#lesson-link").inputValue();
    const student = await context.newPage();
    student.on("pageerror", (e) => problems.push(e.message));
    await student.goto(lesson);
    await student.locator("#lesson").waitFor({ timeout: 10_000 });
    check((await student.locator("#landing").count()) === 0, "(fh6) a lesson link opens on the game gallery");
    const words = await student.locator("#lesson .lesson-text").boundingBox();
    const view = student.viewportSize();
    check(words && words.y >= 0 && words.y + words.height <= view.height,
      `(fh6) the lesson's instruction is out of sight: ${JSON.stringify(words)} on a ${view.width}×${view.height} screen`);
    await student.screenshot({ path: join(SHOTS, "lesson-opened.png") });
    await student.close();
    console.log(`ok (fh6) a lesson link opens on the lesson, its instruction at y ${words.y.toFixed(0)} on a ${view.height} px screen, no gallery`);

    // (fh7) A reload keeps the chosen game and language (the code was kept already).
    await pickGame(page, "micro-rts");
    await page.locator("#player").selectOption("python");
    await page.reload();
    await page.locator("#games .game-choice").first().waitFor();
    const picked = await page.locator("#games .game-choice.picked").getAttribute("data-game");
    const language = await page.locator("#player").inputValue();
    check(picked === "micro-rts" && language === "python", `(fh7) after a reload the game is ${picked} and the language ${language}`);
    await pickGame(page, "soak-overflow");
    check((await page.locator("#player").inputValue()) === "javascript", "(fh7) the language chosen in microRTS was taken to Soak Overflow");
    console.log("ok (fh7) a reload keeps the game (microRTS) and its language (Python)");
    check(problems.length === 0, `(fh7) page errors: ${problems.join("; ")}`);

    // (fh8) A link too long without its match does not suggest sharing it without the match.
    let seed = 7;
    const noise = Array.from({ length: 60_000 }, () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 16) % 36).toString(36)).join("");
    await setCode(page, `// ${noise}\n${COUNTING_BOT}`);
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    await page.locator("#share-match").uncheck();
    await page.locator("#make-link").click();
    const tooLong = await page.locator("#share-too-long").innerText();
    check(/too long/.test(tooLong) && !/without the match/.test(tooLong) && /download the replay/.test(tooLong),
      `(fh8) a link without its match that is too long says: '${tooLong}'`);
    await page.locator("#share-match").check();
    await page.locator("#make-link").click();
    const withMatch = await page.locator("#share-too-long").innerText();
    check(/without the match/.test(withMatch), `(fh8) a link with its match that is too long says: '${withMatch}'`);
    console.log(`ok (fh8) too long without the match: "${tooLong}"`);
    await context.close();
    context = undefined;

    await layoutChecks(url, check, SHOTS, problems);
  } finally {
    await context?.close().catch(() => {});
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

// Ice and Fire: reads its input, logs a 220-character line and waits, every turn.
const LONG_LOG_BOT = `
const mines = parseInt(readline());
for (let i = 0; i < mines; i++) readline();
while (true) {
  for (let i = 0; i < 4 + 12; i++) readline();
  const buildings = parseInt(readline());
  for (let i = 0; i < buildings; i++) readline();
  const units = parseInt(readline());
  for (let i = 0; i < units; i++) readline();
  console.error("a long line: " + "0123456789 ".repeat(20));
  console.log("WAIT");
}
`;

/** The element's box in the page's viewport, or null. */
const box = (page, selector) => page.locator(selector).first().boundingBox();

async function layoutChecks(url, check, SHOTS, problems) {
  const profile = await mkdtemp(join(tmpdir(), "botplay-layout-"));
  let context;
  try {
    // (fh9) The editor as a main pane, resizable and remembered.
    context = await launch(profile, { viewport: { width: 1920, height: 1080 } });
    let page = await context.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(url);
    await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
    const editor = await box(page, "#bot-code");
    const viewer = await box(page, "#viewer");
    check(editor.width >= 0.4 * 1920, `(fh9) the editor is ${editor.width.toFixed(0)} px wide on a 1920 px screen`);
    check(viewer.x >= editor.x + editor.width, `(fh9) the viewer (x ${viewer.x}) is not beside the editor (right edge ${editor.x + editor.width})`);
    const handle = await box(page, "#splitter");
    const grab = { x: handle.x + handle.width / 2, y: handle.y + Math.min(handle.height / 2, 300) };
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x - 150, grab.y, { steps: 5 });
    await page.mouse.move(grab.x - 250, grab.y, { steps: 5 });
    await page.mouse.up();
    const dragged = (await box(page, "#bot-code")).width;
    check(Math.abs(editor.width - 250 - dragged) <= 4, `(fh9) dragging the handle 250 px left made the editor ${dragged.toFixed(0)} px wide (was ${editor.width.toFixed(0)})`);
    await page.reload();
    await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
    const kept = (await box(page, "#bot-code")).width;
    check(Math.abs(kept - dragged) <= 2, `(fh9) after a reload the editor is ${kept.toFixed(0)} px wide, not the ${dragged.toFixed(0)} px it was made`);
    await page.locator("#splitter").focus();
    await page.keyboard.press("ArrowRight");
    const keyed = (await box(page, "#bot-code")).width;
    check(keyed > kept + 20, `(fh9) → on the handle left the editor at ${keyed.toFixed(0)} px (was ${kept.toFixed(0)})`);
    await page.locator("#splitter").dblclick();
    const reset = (await box(page, "#bot-code")).width;
    check(Math.abs(reset - editor.width) <= 2, `(fh9) a double click on the handle gave ${reset.toFixed(0)} px, not the default ${editor.width.toFixed(0)}`);
    console.log(`ok (fh9) the editor is ${editor.width.toFixed(0)} px of 1920, beside the match; dragged to ${dragged.toFixed(0)} px and kept after a reload; the arrow keys and a double click work`);

    // The starter's match, for the README's pictures: at 1920 × 1080 and 1366 × 900.
    await page.locator("#help-close").click();
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    if ((await page.locator("#play").getAttribute("aria-pressed")) === "true") await page.locator("#play").click();
    await page.locator("#last").click();
    for (let i = 0; i < 4; i++) await page.locator("#step-back").click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, "layout-1920.png") });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, "layout-1366.png") });
    await page.setViewportSize({ width: 1920, height: 1080 });

    // The console shows each stream whole: a long line of debug log wraps in its box.
    await setCode(page, LONG_LOG_BOT);
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    if ((await page.locator("#play").getAttribute("aria-pressed")) === "true") await page.locator("#play").click();
    await page.locator("#last").click();
    await page.locator("#step-back").click();
    const streams = await page.$$eval("#turn-details pre", (pres) => pres.map((p) => ({
      cls: p.className, style: getComputedStyle(p).whiteSpace, cut: p.scrollWidth > p.clientWidth + 1, text: p.textContent,
    })));
    check(streams.length >= 3, `(fh9) the console shows ${streams.length} streams`);
    for (const s of streams) check(s.style === "pre-wrap" && !s.cut, `(fh9) the console's ${s.cls} is cut at its edge (white-space ${s.style}): ${JSON.stringify(s.text.slice(0, 80))}`);
    const longest = Math.max(...streams.map((s) => Math.max(...s.text.split("\n").map((l) => l.length))));
    check(longest >= 200, `(fh9) the console's longest line has ${longest} characters, not the bot's 200`);
    check((await page.locator("#turn-details .copy").count()) >= 3, "(fh9) the console's streams have no copy button");
    console.log(`ok (fh9) the console wraps every stream (longest line ${longest} characters), each with a copy button (layout-1920.png, layout-1366.png)`);

    // (fh12) Keys before clicking the board: the Run button has the focus after Run.
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    if ((await page.locator("#play").getAttribute("aria-pressed")) === "true") await page.locator("#play").click();
    check(await page.evaluate(() => document.activeElement?.id === "run"), "(fh12) the Run button does not have the focus after a click");
    await page.keyboard.press("Home");
    const home = (await turnLabel(page))[0];
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const right = (await turnLabel(page))[0];
    check(home === 0 && right === 2, `(fh12) with the Run button focused, Home then → → show turns ${home} and ${right}`);
    // A link at turn 5, opened and not clicked.
    await page.locator("#share-turn").check();
    await page.locator("#last").click();
    for (let i = 0; i < 3; i++) await page.locator("#step-back").click();
    await page.locator("#make-link").click();
    const link = await page.locator("#share-link").inputValue();
    const at = (await turnLabel(page))[0];
    const fresh = await context.newPage();
    await fresh.goto(link);
    await fresh.locator("#turn-label").waitFor({ timeout: 30_000 });
    await fresh.waitForFunction((n) => document.querySelector("#turn-label")?.innerText.startsWith(`turn ${n} /`), at, { timeout: 30_000 });
    await fresh.keyboard.press("ArrowLeft");
    const back = (await turnLabel(fresh))[0];
    check(back === at - 1, `(fh12) ← on a link opened at turn ${at} (nothing clicked) shows turn ${back}`);
    await fresh.close();
    console.log(`ok (fh12) keys work before any click: Home → → after Run (turns ${home}, ${right}); ← on a link opened at turn ${at} shows ${back}`);

    // (fh11) The first-visit help: this profile dismissed it above.
    await page.reload();
    await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
    check((await page.locator("#help").count()) === 0, "(fh11) the help dismissed comes back after a reload");
    await page.locator("#help-toggle").click();
    check(await page.locator("#help").isVisible(), "(fh11) the header's Help button does not show the help");
    await page.locator("#help-close").click();

    // (fh14) One line of the several a turn takes: the timeout says the game waited for more.
    await pickGame(page, "soak-overflow");
    await setCode(page, COUNTING_BOT.replace("if (turn === 3) throw new Error(\"stop in turn 3\");", "")
      .replace("for (const id of mine) console.log(id + \";HUNKER_DOWN\");", "console.log(mine[0] + \";HUNKER_DOWN\");"));
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    const partial = (await page.locator("#faults li").allInnerTexts()).join(" | ");
    check(/timeout — no complete answer within 1000 ms: the bot wrote 1 line and then waited for its next input, but the game was waiting for more lines/.test(partial),
      `(fh14) a bot writing 1 line of its 4 is reported as '${partial}'`);
    console.log(`ok (fh14) one line of four: "${partial}"`);

    // (fh15) The Arena after picking another game: its bot choice is there to see and use, and
    // its controls row keeps each label apart from the control before it.
    await page.locator(".arena summary").click();
    const bots = await box(page, ".arena-bots");
    const ticks = await page.locator(".arena-bots input[type=checkbox]").count();
    check(bots && bots.width > 200 && bots.height > 20 && ticks === 5,
      `(fh15) Soak Overflow's Arena shows its bot choice as ${JSON.stringify(bots)} with ${ticks} boxes`);
    await page.locator(".arena-bots input[type=checkbox]").nth(1).uncheck();
    const run = await page.locator("#arena-run").innerText();
    check(run === "Run 60 matches", `(fh15) with 4 of 5 bots ticked the Arena says '${run}'`);
    const gaps = await page.$$eval(".arena .row > label:not(:first-child)", (labels) =>
      labels.map((l) => l.getBoundingClientRect().left - l.previousElementSibling.getBoundingClientRect().right));
    check(gaps.length >= 2 && gaps.every((g) => g >= 12), `(fh15) the Arena's labels sit ${gaps.map((g) => g.toFixed(0))} px after the control before them`);
    console.log(`ok (fh15) Soak Overflow's Arena: ${ticks} bots to tick, '${run}' with one unticked, labels ${gaps.map((g) => g.toFixed(0)).join(", ")} px apart`);
    await page.locator(".arena summary").click();

    // (fh13) Playing by hand on a 1366 × 900 screen: each turn the board's top and End turn are
    // both on the screen, with no scrolling between turns (End turn clicked where it is).
    await page.setViewportSize({ width: 1366, height: 900 });
    await pickGame(page, "soak-overflow");
    await page.locator("#player").selectOption("human");
    await page.locator("#run").click();
    for (let turn = 1; turn <= 3; turn++) {
      await page.locator("#human-turn").waitFor({ timeout: 30_000 });
      await page.waitForTimeout(300);
      const board = await box(page, "#board");
      const end = await box(page, "#human-end-turn");
      check(board.y >= 0 && end.y + end.height <= 900,
        `(fh13) turn ${turn} by hand: the board's top is at y ${board.y.toFixed(0)} and End turn's bottom at ${(end.y + end.height).toFixed(0)} on a 900 px screen`);
      if (turn === 1) await page.screenshot({ path: join(SHOTS, "layout-human.png") });
      const [before] = await turnLabel(page);
      await page.mouse.click(end.x + end.width / 2, end.y + end.height / 2);
      await page.waitForFunction((b) => Number(document.querySelector("#turn-label")?.innerText.match(/turn (\d+)/)?.[1]) > b, before, { timeout: 20_000 });
    }
    console.log("ok (fh13) playing by hand at 1366 × 900: the board and End turn are in sight every turn, no scrolling (layout-human.png)");
    await context.close();
    context = undefined;

    // (fh10, fh11) A phone, a new profile.
    await rm(profile, { recursive: true, force: true });
    context = await launch(profile, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(url);
    await page.locator("#help").waitFor({ timeout: 30_000 });
    const help = await page.locator("#help").innerText();
    check(/bot is a program/.test(help) && /input/.test(help) && /Rules/.test(help) && /debug log/.test(help) && /Share/.test(help),
      `(fh11) the first-visit help says: ${JSON.stringify(help.slice(0, 200))}`);
    console.log("ok (fh11) a new visitor sees the help (what a bot is, input and output, rules, debug log, sharing); dismissed, it stays away; Help brings it back");
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    const board = await box(page, "#board");
    const code = await box(page, "#bot-code");
    check(board && board.y >= -2 && board.y + board.height / 2 <= 844, `(fh10) after Run on a phone the board is at y ${board?.y} (screen 844 px)`);
    check(code && board.y < code.y, `(fh10) on a phone the editor (y ${code?.y}) comes before the board (y ${board?.y}) after Run`);
    await page.screenshot({ path: join(SHOTS, "layout-phone.png") });
    console.log(`ok (fh10) on a phone, after Run the board is in sight (y ${board.y.toFixed(0)}) and above the editor (layout-phone.png)`);
  } finally {
    await context?.close().catch(() => {});
    await rm(profile, { recursive: true, force: true });
  }
}

runAlone(import.meta.url, firstHourChecks, "first-hour checks");

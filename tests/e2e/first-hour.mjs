// A new user's first hour (issue 20), in Debian's Chromium through playwright-core.
//
//   cargo xtask test build
//   node tests/e2e/first-hour.mjs [--dist dist]
//
// (fh1) Python indentation, typed as a person does: Soak Overflow's Python starter, a click at
//       the end of `    my_agent_count = int(input())`, Enter, `print("hello", file=sys.stderr)`:
//       the new line is indented 4 spaces as the starter is; Run plays with no IndentationError
//       and the debug log says hello. Enter after `while True:` indents 4; in JavaScript Enter
//       after `{` indents 2 (as the JavaScript starters are written); Tab and Shift-Tab indent
//       and unindent a selection of lines by one unit.
// Called from run.mjs (`firstHourChecks({ dist, check, SHOTS })`) or alone.

import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, launch, runAlone, setCode, setRelaxed } from "./browser.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DEFAULT_SHOTS = join(REPO, "tests", "e2e", "screenshots");

const code = (page, editor = "bot-code") => page.evaluate((e) => botplayEditor.get(e).getDoc(), editor);

async function pickGame(page, game) {
  await page.locator(`#games .game-choice[data-game="${game}"]`).click();
  await page.locator(`#games .game-choice.picked[data-game="${game}"]`).waitFor({ timeout: 10_000 });
}

/** Scrolls the editor with the mouse wheel, as a person does, until the line holding `text` is
 * shown; returns that line's locator. */
async function scrollToLine(page, text, check, what) {
  const line = page.locator("#bot-code .cm-line").filter({ hasText: text }).first();
  const scroller = page.locator("#bot-code .cm-scroller");
  await scroller.hover();
  for (let i = 0; i < 60; i++) {
    if ((await line.count()) > 0 && (await line.isVisible())) {
      const box = await line.boundingBox();
      const view = await scroller.boundingBox();
      if (box && view && box.y >= view.y && box.y + box.height <= view.y + view.height) return line;
    }
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(30);
  }
  check(false, `${what}: the editor never showed the line '${text}'`);
}

/** Clicks just right of the end of the text of `line` (where a person clicks to put the cursor
 * at the end of a line). */
async function clickLineEnd(page, line) {
  const end = await line.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.right, y: r.top + r.height / 2 };
  });
  await page.mouse.click(end.x + 12, end.y);
}

export async function firstHourChecks({ dist, check = defaultCheck, SHOTS = DEFAULT_SHOTS }) {
  const { server, url } = await serve(dist);
  const profile = await mkdtemp(join(tmpdir(), "botplay-first-hour-"));
  let context;
  const problems = [];
  try {
    context = await launch(profile, { viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    await mkdir(SHOTS, { recursive: true });
    await page.goto(url);
    await page.locator("#games").waitFor();

    // (fh1) Python indentation, typed.
    await pickGame(page, "soak-overflow");
    await page.locator("#player").selectOption("python");
    await page.locator("#bot-code .cm-content").waitFor();
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

  } finally {
    await context?.close().catch(() => {});
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

runAlone(import.meta.url, firstHourChecks, "first-hour checks");

// Human play in the built page, in Debian's Chromium through playwright-core (issue #12).
//
//   trunk build --release --skip-version-check --dist dist-human
//   node tests/e2e/human.mjs [--dist dist]
//
// (v) For Ice and Fire, Soak Overflow and microRTS: seat 1 is played "by hand" against a
//     built-in bot. Real clicks on the board's canvas (a cell's position is found by pointing at
//     the board and reading the #cell-info panel) select a unit and give it a target or an
//     action; #human-lines shows the protocol line each click makes; End turn sends it; the match
//     goes on and the turn's stdout in the turn details shows the same line. A turn left waiting
//     2 s (far over the 50/100 ms budgets) is no timeout: human turns have no time budget.
//     Screenshots: tests/e2e/screenshots/human-<game>.png.
// Called from run.mjs (`humanChecks({ dist, check, SHOTS })`) or alone.

import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, Failure, openSession, pickGame, runAlone } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));


async function turnLabel(page) {
  const m = (await page.locator("#turn-label").innerText()).match(/turn (\d+) \/ (\d+)/);
  return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
}

// Points at the board along its middle row and column and reads #cell-info: where each cell
// column and row lies on the page. Returns (x, y) => page coordinates of that cell's centre.
async function boardMap(page) {
  await page.evaluate(() => document.querySelector("#board").scrollIntoView({ block: "nearest" }));
  const box = await page.locator("#board").boundingBox();
  const read = async () => {
    const t = await page.locator("#cell-info .cell-name").innerText({ timeout: 200 }).catch(() => "");
    const m = t.match(/\((\d+),(\d+)\)/);
    return m ? [Number(m[1]), Number(m[2])] : null;
  };
  const cols = new Map();
  const rows = new Map();
  const step = 5;
  for (let px = box.x + 1; px < box.x + box.width; px += step) {
    await page.mouse.move(px, box.y + box.height / 2);
    const c = await read();
    if (c) cols.set(c[0], [Math.min(px, cols.get(c[0])?.[0] ?? px), px]);
  }
  const midX = [...cols.values()][Math.floor(cols.size / 2)];
  for (let py = box.y + 1; py < box.y + box.height; py += step) {
    await page.mouse.move((midX[0] + midX[1]) / 2, py);
    const c = await read();
    if (c) rows.set(c[1], [Math.min(py, rows.get(c[1])?.[0] ?? py), py]);
  }
  return (x, y) => {
    const c = cols.get(x);
    const r = rows.get(y);
    if (!c || !r) throw new Failure(`(v) cell (${x},${y}) not found on the board (columns ${[...cols.keys()]}, rows ${[...rows.keys()]}, box ${JSON.stringify(box)})`);
    // Relative to the board's corner (the page may scroll between clicks).
    return [(c[0] + c[1]) / 2 - box.x, (r[0] + r[1]) / 2 - box.y];
  };
}

async function clickCell(page, map, x, y) {
  const [dx, dy] = map(x, y);
  await page.evaluate(() => document.querySelector("#board").scrollIntoView({ block: "nearest" }));
  const box = await page.locator("#board").boundingBox();
  await page.mouse.click(box.x + dx, box.y + dy);
}

const lines = async (page) => (await page.locator("#human-lines li").allInnerTexts()).map((s) => s.trim());

async function startHuman(page, url, game, opponent, seed) {
  await page.goto(url);
  await pickGame(page, game);
  await page.locator("#seed").fill(String(seed));
  await page.locator("#player").selectOption("human");
  await page.locator("#opponent").selectOption(opponent);
  await page.locator("#run").click();
  await page.locator("#human-turn").waitFor({ timeout: 30_000 });
  await page.waitForTimeout(200);
  return boardMap(page);
}

async function input(page) {
  return (await page.locator("#human-input pre").textContent()).trim().split("\n").map((l) => l.trim());
}

async function endTurn(page, check, what) {
  const [before] = await turnLabel(page);
  await page.locator("#human-end-turn").click();
  await page.waitForFunction((b) => {
    const m = document.querySelector("#turn-label")?.innerText.match(/turn (\d+)/);
    return m && Number(m[1]) > b && (document.querySelector("#human-turn") || /over/.test(document.querySelector("#match-status")?.innerText ?? ""));
  }, before, { timeout: 20_000 }).catch(() => check(false, `(v) ${what}: the match did not go on after End turn`));
}

async function seatStdout(page, seat) {
  return page.locator(`#turn-details article[data-seat="${seat}"] pre.stdout`).first().innerText().catch(() => "");
}

async function noFaults(page, check, what) {
  const faults = await page.locator("#faults li").allInnerTexts();
  check(faults.length === 0, `(v) ${what}: faults after a slow human turn: ${faults.join("; ")}`);
}

/** The turn whose lines (`expected` among them) were put together by hand, sent after 2 s (40
 * times the 50 ms budget: no timeout), shows `expected` in its stdout; three more turns go by
 * without a fault. The page is saved to tests/e2e/screenshots/human-`game`.png first. */
async function sentByHand(page, check, SHOTS, game, expected) {
  await page.screenshot({ path: join(SHOTS, `human-${game}.png`) });
  await page.waitForTimeout(2000);
  await endTurn(page, check, game);
  await noFaults(page, check, game);
  const out = await seatStdout(page, 0);
  check(out.includes(expected), `(v) ${game}: the turn's stdout is '${out}'`);
  for (let i = 0; i < 3; i++) await endTurn(page, check, game);
  await noFaults(page, check, game);
}

export async function humanChecks({ dist, check = defaultCheck, SHOTS = join(REPO, "tests", "e2e", "screenshots") }) {
  await mkdir(SHOTS, { recursive: true });
  const { url, page, problems, close } = await openSession(dist, "human", { consoleErrors: false });
  try {

    // Ice and Fire: train a unit beside the HQ, then move it.
    {
      const map = await startHuman(page, url, "ice-and-fire", "expander", 3);
      check((await lines(page)).join() === "WAIT", `(v) ice-and-fire: an empty turn is not WAIT: ${await lines(page)}`);
      await clickCell(page, map, 1, 0);
      await page.locator('.human-action[data-key="train1"]').click();
      check((await lines(page)).join() === "TRAIN 1 1 0", `(v) ice-and-fire: the line is '${await lines(page)}'`);
      await page.waitForTimeout(2000); // no time budget (the first turn's is 1000 ms)
      await endTurn(page, check, "ice-and-fire");
      await page.locator("#human-turn").waitFor({ timeout: 20_000 });
      await noFaults(page, check, "ice-and-fire");
      await clickCell(page, map, 1, 0);
      await clickCell(page, map, 2, 0);
      check((await lines(page)).join() === "MOVE 1 2 0", `(v) ice-and-fire: the move line is '${await lines(page)}'`);
      await page.screenshot({ path: join(SHOTS, "human-ice-and-fire.png") });
      await page.waitForTimeout(2000); // 40 times the 50 ms budget
      await endTurn(page, check, "ice-and-fire");
      await page.locator("#human-turn").waitFor({ timeout: 20_000 });
      await noFaults(page, check, "ice-and-fire");
      await page.locator("#viewer").focus();
      await page.keyboard.press("ArrowLeft");
      const out = await seatStdout(page, 0);
      check(out.includes("MOVE 1 2 0"), `(v) ice-and-fire: the turn's stdout is '${out}', not the move`);
      for (let i = 0; i < 3; i++) await endTurn(page, check, "ice-and-fire");
      await noFaults(page, check, "ice-and-fire");
      console.log("ok (v) ice-and-fire by hand: TRAIN 1 1 0 then MOVE 1 2 0 from clicks, in the turn's stdout; 2 s turns are no timeout");
    }

    // Soak Overflow: move an agent, shoot an enemy.
    {
      const map = await startHuman(page, url, "soak-overflow", "soaker", 7);
      const inp = await input(page);
      const n = Number(inp[1]);
      const owner = new Map(inp.slice(2, 2 + n).map((l) => l.split(" ").map(Number)).map(([id, p]) => [id, p]));
      const [w, h] = inp[2 + n].split(" ").map(Number);
      // The canvas has the shape of the grid (twice as wide as high, with room for messages).
      const shape = await page.locator("#board").boundingBox();
      check(shape.width > 1.6 * shape.height && shape.width < 2.2 * shape.height,
        `(v) soak-overflow: the board is ${shape.width.toFixed(0)} × ${shape.height.toFixed(0)}, not the shape of a ${w} × ${h} grid`);
      // Played by hand, the bot pane has no editor: it stays narrow and the match takes the room.
      const pane = await page.locator(".bot-pane").boundingBox();
      check(pane.width <= 400, `(v) played by hand, the bot pane is ${pane.width.toFixed(0)} px wide`);
      const tiles = inp.slice(3 + n, 3 + n + h).map((row) => {
        const v = row.split(" ").map(Number);
        return Array.from({ length: w }, (_, x) => v[3 * x + 2]);
      });
      const at = 3 + n + h;
      const agents = inp.slice(at + 1, at + 1 + Number(inp[at])).map((l) => l.split(" ").map(Number));
      const mine = agents.filter(([id]) => owner.get(id) === 0);
      const theirs = agents.filter(([id]) => owner.get(id) === 1);
      const [id, ax, ay] = mine[0];
      const free = [[1, 0], [-1, 0], [0, 1], [0, -1]].map(([dx, dy]) => [ax + dx, ay + dy])
        .find(([x, y]) => x >= 0 && y >= 0 && x < w && y < h && tiles[y][x] === 0 && !agents.some((a) => a[1] === x && a[2] === y));
      // A cover tile is a move target, as a bot's MOVE there is legal (the agent stops beside it).
      const cover = tiles.flatMap((row, y) => row.map((t, x) => [x, y, t])).find(([, , t]) => t > 0);
      await clickCell(page, map, ax, ay);
      await clickCell(page, map, cover[0], cover[1]);
      const coverLine = (await lines(page))[0];
      check(coverLine === `${id};MOVE ${cover[0]} ${cover[1]}`, `(v) soak-overflow: a click on the cover tile (${cover[0]},${cover[1]}) gave '${coverLine}', not a MOVE there`);
      await page.locator("#human-clear").click();
      await clickCell(page, map, ax, ay);
      await clickCell(page, map, free[0], free[1]);
      const [enemy, ex, ey] = theirs[0];
      await clickCell(page, map, ex, ey);
      const expected = `${id};MOVE ${free[0]} ${free[1]};SHOOT ${enemy}`;
      const got = await lines(page);
      check(got[0] === expected && got.length === mine.length, `(v) soak-overflow: the lines are '${got.join(" | ")}', not '${expected}' and one per agent`);
      check(got.slice(1).every((l) => /^\d+;WAIT$/.test(l)), `(v) soak-overflow: the other agents' lines are '${got.slice(1)}'`);
      await sentByHand(page, check, SHOTS, "soak-overflow", expected);
      console.log(`ok (v) soak-overflow by hand: a click on cover moves towards it; '${expected}' from three clicks, in the turn's stdout; no timeout`);
    }

    // microRTS: the castle trains a worker on a free tile beside it.
    {
      const map = await startHuman(page, url, "micro-rts", "rush", 42);
      const inp = await input(page);
      const count = Number(inp[7].split(" ")[0]);
      const ents = inp.slice(8, 8 + count).map((l) => l.split(" ").map(Number));
      const [cx, cy] = ents.find(([, , o, t]) => o === 0 && t === 0);
      const [wd, ht] = inp[0].split(" ").map(Number);
      const free = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]].map(([dx, dy]) => [cx + dx, cy + dy])
        .find(([x, y]) => x >= 0 && y >= 0 && x < wd && y < ht && !ents.some((e) => e[0] === x && e[1] === y));
      await clickCell(page, map, cx, cy);
      await clickCell(page, map, free[0], free[1]);
      const expected = `TRAIN ${cx} ${cy} ${free[0]} ${free[1]} WORKER`;
      check((await lines(page)).join() === expected, `(v) micro-rts: the line is '${await lines(page)}', not '${expected}'`);
      await sentByHand(page, check, SHOTS, "micro-rts", expected);
      console.log(`ok (v) micro-rts by hand: '${expected}' from two clicks, in the turn's stdout; no timeout`);
    }
    check(problems.length === 0, `(v) page errors:\n  ${problems.join("\n  ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, humanChecks, "human play checks");

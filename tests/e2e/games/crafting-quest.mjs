// Crafting Quest 3 in the page: a JavaScript bot typed into the editor plays a whole match on a
// generated 50 × 50 map against the built-in crafter (relaxed budgets), the board is drawn, the
// bot does not fault, and the canvas answers the fog-of-war and zoom buttons, dragging and the
// wheel. Screenshots: SHOTS/crafting-quest.png (seat 1's fog of war) and
// SHOTS/crafting-quest-zoomed.png (the board zoomed in and panned). Hovering a unit of seat 1
// describes it in #cell-info; turning the wheel elsewhere on the board (which zooms around that
// other point) updates the panel for the cell now under the still mouse
// (SHOTS/inspect-crafting-quest.png).

import { join } from "node:path";
import { findCell, hover, leave, waitForInfo } from "./lib/cell-info.mjs";
import { playToTheEnd } from "./lib/match.mjs";

// Per unit: dig and pick up what is buried under it (then drop it), step towards the nearest
// buried resource in sight, once more; then end the turn. One JSON line per request, each
// answered at once.
const BOT = `
const ask = (r) => { console.log(JSON.stringify(r)); return JSON.parse(readline()); };
const at = (s, x, y) => (s.rows[y - s.y] || "")[x - s.x];
const buried = (c) => c !== undefined && "wslbitg*".includes(c);
function gather(u) {
  if (!buried(at(u.sight, u.x, u.y)) || u.energy < 15) return u;
  u = ask({ unit: u.id, type: "dig" }).unit;
  const found = (u.dig && u.dig.resources) || {};
  if (Object.keys(found).length === 0) return u;
  u = ask({ unit: u.id, type: "pickup", resources: found }).unit;
  if (Object.keys(u.resources).length) u = ask({ unit: u.id, type: "drop", resources: u.resources }).unit;
  return u;
}
while (true) {
  const state = JSON.parse(readline());
  for (let u of state.units) {
    u = gather(u);
    for (let step = 0; step < 2 && u.energy >= u.move_cost; step++) {
      let best = null;
      u.sight.rows.forEach((row, dy) => [...row].forEach((c, dx) => {
        const x = u.sight.x + dx, y = u.sight.y + dy;
        const d = Math.max(Math.abs(x - u.x), Math.abs(y - u.y));
        if (d > 0 && buried(c) && (!best || d < best.d)) best = { x, y, d };
      }));
      const to = best ? [u.x + Math.sign(best.x - u.x), u.y + Math.sign(best.y - u.y)] : [u.x + 1, u.y + 1];
      const answer = ask({ unit: u.id, type: "move", to });
      if (answer.result !== "NoError") break;
      u = gather(answer.unit);
    }
  }
  console.log(JSON.stringify({ type: "end" }));
}
`;

export default async function (page, tools) {
  const { check, getCode, canvasColours, SHOTS } = tools;
  await page.locator('#games .game-choice[data-game="crafting-quest"]').click();
  await page.locator("#bot-code").waitFor();
  const starter = await getCode(page);
  check(/Crafting Quest 3/.test(starter) && /readline\(\)/.test(starter), "crafting-quest: the editor does not hold its starter bot");
  const options = await page.locator("#opponent option").allInnerTexts();
  check(["wait", "random", "crafter"].every((b) => options.includes(b)), `crafting-quest: opponents ${options}`);

  const { ms, outcome, last } = await playToTheEnd(page, tools, {
    tag: "crafting-quest:",
    bot: BOT,
    opponent: "crafter",
    timeout: 600_000,
    what: "crafting-quest: match on a generated map (relaxed)",
    minTurns: 140,
  });
  check(/rounds played/.test(outcome), `crafting-quest: unexpected outcome '${outcome}'`);
  const colours = await canvasColours(page);
  check(colours.width > 100 && colours.height > 100, `crafting-quest: the canvas is tiny: ${colours.width}×${colours.height}`);
  check(colours.common >= 6, `crafting-quest: the board looks blank: ${JSON.stringify(colours)}`);

  // Inspecting: a unit of seat 1 (1, or + for several seats, on the text board).
  const rows = (await page.locator("#board").getAttribute("aria-label")).split("\n");
  const size = rows[0].length;
  const units = new Set();
  rows.slice(0, size).forEach((row, y) => [...row].forEach((c, x) => c === "1" || c === "+" ? units.add(`(${x},${y})`) : null));
  check(units.size > 0, "crafting-quest: no unit of seat 1 on the text board");
  const spot = await findCell(page, /^seat 1's unit \d+: energy/m);
  check(spot, "crafting-quest: no point of the board shows a unit of seat 1");
  const info = await hover(page, spot);
  const cell = info.match(/^cell (\(\d+,\d+\))\n(rock|grass)\n/);
  check(cell && units.has(cell[1]) && /^seat 1's unit \d+: energy \d+, life \d+/m.test(info),
    `crafting-quest: hovering shows '${info}', not a unit of seat 1 at one of ${[...units].join(" ")}`);
  // The wheel turned over another point zooms around that point: the mouse, still, is now over
  // another cell, and the panel says so, as a fresh hover there does.
  const board = await page.locator("#board").boundingBox();
  const other = { x: spot.x < board.x + board.width / 2 ? board.x + board.width - 20 : board.x + 20,
    y: spot.y < board.y + board.height / 2 ? board.y + board.height - 20 : board.y + 40 };
  await page.locator("#board").evaluate((c, [x, y]) => {
    c.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: x, clientY: y, bubbles: true, cancelable: true }));
  }, [other.x, other.y]);
  const zoomedInfo = await waitForInfo(page, (text) => text !== info);
  check(zoomedInfo !== info && /^cell \(\d+,\d+\)\n/.test(zoomedInfo), `crafting-quest: after zooming the panel still shows '${zoomedInfo}'`);
  await page.locator("#board").screenshot({ path: join(SHOTS, "inspect-crafting-quest.png") });
  await leave(page);
  const fresh = await hover(page, spot);
  check(fresh === zoomedInfo, `crafting-quest: after zooming the panel showed '${zoomedInfo}', a fresh hover shows '${fresh}'`);
  await leave(page);
  console.log(`ok crafting-quest: hovering shows "${info.replace(/\n/g, " · ")}"; zooming updates it`);

  // The toolbar in the canvas's top-left corner: All, 1, 2, −, +, Fit (22 px squares, "All" and
  // "Fit" wider). Seat 1's fog of war dims what its units do not see; "+" zooms in.
  await page.locator("#board").scrollIntoViewIfNeeded();
  const box = await page.locator("#board").boundingBox();
  const before = await page.evaluate(() => document.querySelector("#board").toDataURL());
  await page.mouse.click(box.x + 4 + 35.2 + 2 + 11, box.y + 15);
  const fog = await page.evaluate(() => document.querySelector("#board").toDataURL());
  check(fog !== before, "crafting-quest: the fog-of-war button changed nothing");
  await page.screenshot({ path: join(SHOTS, "crafting-quest.png"), fullPage: true });
  const plus = box.x + 4 + 35.2 + 2 + 2 * (22 + 2) + 22 + 2 + 11;
  await page.mouse.click(plus, box.y + 15);
  await page.mouse.click(plus, box.y + 15);
  const zoomed = await page.evaluate(() => document.querySelector("#board").toDataURL());
  check(zoomed !== fog, "crafting-quest: the zoom button changed nothing");
  // Dragging pans; the wheel zooms.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 60, { steps: 4 });
  await page.mouse.up();
  const panned = await page.evaluate(() => document.querySelector("#board").toDataURL());
  check(panned !== zoomed, "crafting-quest: dragging did not pan");
  await page.mouse.wheel(0, -200);
  const after = await canvasColours(page);
  check(after.common >= 4, `crafting-quest: the zoomed board looks blank: ${JSON.stringify(after)}`);
  await page.locator("#board").screenshot({ path: join(SHOTS, "crafting-quest-zoomed.png") });
  console.log(
    `ok crafting-quest: a full match in ${(ms / 1000).toFixed(1)} s: ${last} turns; "${outcome.split("\n")[0]}"; ` +
      `canvas ${colours.width}×${colours.height}, ${colours.common} main colours; fog, zoom and pan answer`,
  );
}

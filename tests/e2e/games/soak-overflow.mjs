// Soak Overflow in the page: a JavaScript bot typed into the editor plays a whole match against
// the built-in random bot on the seed-42 map; the grid is drawn with shots, splashes and
// messages (screenshot tests/e2e/screenshots/soak-overflow.png); hovering a red agent describes
// it in #cell-info with the numbers the text board gives.

import { pickGame } from "../browser.mjs";
import { findCell, hover, leave } from "./lib/cell-info.mjs";
import { playToTheEnd } from "./lib/match.mjs";

// A small legal bot: one line per own agent; walk towards the nearest enemy, bomb it when no
// agent of ours is near it, else shoot the wettest enemy in range, else hunker; say something.
const BOT = `
const myId = parseInt(readline());
const n = parseInt(readline());
const cls = {};
for (let i = 0; i < n; i++) {
  const [id, player, cd, range, power, bombs] = readline().split(" ").map(Number);
  cls[id] = { player, range };
}
const [width, height] = readline().split(" ").map(Number);
for (let y = 0; y < height; y++) readline();
const dist = (a, b) => Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
let turn = 0;
while (true) {
  turn++;
  const count = parseInt(readline());
  const all = [];
  for (let i = 0; i < count; i++) {
    const [id, x, y, cooldown, bombs, wetness] = readline().split(" ").map(Number);
    all.push({ id, x, y, cooldown, bombs, wetness, ...cls[id] });
  }
  const mineCount = parseInt(readline());
  const mine = all.filter((a) => a.player === myId);
  const foes = all.filter((a) => a.player !== myId);
  for (const me of mine) {
    const out = [String(me.id)];
    const near = foes.reduce((b, e) => (!b || dist(me, e) < dist(me, b) ? e : b), null);
    if (near && dist(me, near) > me.range) out.push("MOVE " + near.x + " " + near.y);
    const bomb = foes.find((e) => me.bombs > 0 && dist(me, e) <= 4 &&
      mine.every((m) => Math.max(Math.abs(m.x - e.x), Math.abs(m.y - e.y)) > 1));
    const shots = foes.filter((e) => dist(me, e) <= 2 * me.range).sort((a, b) => b.wetness - a.wetness);
    if (bomb) out.push("THROW " + bomb.x + " " + bomb.y);
    else if (me.cooldown === 0 && shots.length) out.push("SHOOT " + shots[0].id);
    else out.push("HUNKER_DOWN");
    if (me === mine[0]) out.push("MESSAGE turn " + turn);
    console.log(out.join(";"));
  }
  console.error("units: " + mine.length + " of " + mineCount);
}
`;

export default async function (page, tools) {
  const { check, canvasColours, SHOTS, problems } = tools;
  const choice = page.locator('#games .game-choice[data-game="soak-overflow"]');
  check((await choice.count()) === 1, "(soak-overflow) the game list has no Soak Overflow button");
  check(/Soak Overflow/.test(await choice.innerText()), "(soak-overflow) the button does not name Soak Overflow");
  await pickGame(page, "soak-overflow");
  await page.locator("#seed").fill("42");
  const { ms, outcome, last } = await playToTheEnd(page, tools, {
    tag: "(soak-overflow)",
    bot: BOT,
    opponent: "random",
    // The outcome of this match (not a previous one).
    result: /leads by more than|has no agent left|turn limit|both teams are soaked|loses/,
    what: "(soak-overflow) match: run until the outcome shows (relaxed)",
  });
  check(!/loses/.test(outcome), `(soak-overflow) a bot lost by a fault: ${outcome}`);
  check(/wins|draw/.test(outcome), `(soak-overflow) no result shown: ${outcome}`);
  const details = await page.locator("#turn-details").innerText();
  check(/stdin/i.test(details) && /stdout/i.test(details), "(soak-overflow) the turn details are missing");
  // Step back into the fight, where shots and bombs fly, and draw it.
  await page.locator("#step-back").click();
  await page.locator("#step-back").click();
  const colours = await canvasColours(page);
  check(colours.width > 100 && colours.height > 100, `(soak-overflow) the canvas is tiny: ${colours.width}×${colours.height}`);
  check(colours.common >= 6, `(soak-overflow) the grid looks blank: ${JSON.stringify(colours)}`);
  await page.screenshot({ path: `${SHOTS}/soak-overflow.png`, fullPage: true });

  // Inspecting: a red agent of this frame (from the text board's agent lines) is described
  // with its class and wetness.
  const board = await page.locator("#board").getAttribute("aria-label");
  const agent = board.match(/^ ?(\d+) red (\w+) at \((\d+),(\d+)\) wetness (\d+)/m);
  check(agent, `(soak-overflow) no red agent on the text board:\n${board}`);
  const [, id, cls, ax, ay, wetness] = agent;
  const spot = await findCell(page, new RegExp(`^cell \\(${ax},${ay}\\)`));
  check(spot, `(soak-overflow) no point of the grid shows cell (${ax},${ay})`);
  const info = await hover(page, spot);
  check(
    info.startsWith(`cell (${ax},${ay})\n`) && info.includes(`\nred agent ${id} (${cls}): wetness ${wetness}\n`) &&
      /^cooldown \d+ \(reload time \d+\), optimal range \d+, soaking power \d+, splash bombs \d+$/m.test(info),
    `(soak-overflow) hovering agent ${id} at (${ax},${ay}) shows '${info}'`,
  );
  await page.locator("#board").screenshot({ path: `${SHOTS}/inspect-soak-overflow.png` });
  await leave(page);
  console.log(`ok (soak-overflow) hovering agent ${id} shows "${info.replace(/\n/g, " · ")}"`);
  check(problems.length === 0, `(soak-overflow) errors during the match:\n  ${problems.join("\n  ")}`);
  console.log(
    `ok (soak-overflow) a full match in ${(ms / 1000).toFixed(1)} s: ${last} turns; "${outcome.split("\n")[0]}"; ` +
      `canvas ${colours.width}×${colours.height}, ${colours.common} main colours`,
  );
}

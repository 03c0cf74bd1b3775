// Skyport in the page: a JavaScript bot typed into the editor plays a whole three-player match
// against two built-in bots (the "Players" choice), and the hex board is drawn; hovering the
// bot's robot describes it in #cell-info, with the weapons it chose.

import { findCell, hover, leave } from "./lib/cell-info.mjs";
import { playToTheEnd } from "./lib/match.mjs";

// Handshake on "info", laser and mortar on the turn-0 state; on its own turn (its player object,
// first in the list, has "resources") it steps towards the nearest robot, fires the laser when
// one stands in a straight line within 5 tiles, and ends the turn.
const BOT = `
const DIRS = { "up": [-1, -1], "down": [1, 1], "left-down": [1, 0], "right-down": [0, 1], "left-up": [0, -1], "right-up": [-1, 0] };
const at = (s) => s.split(",").map(Number);
const dist = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[0] - b[0] - a[1] + b[1]));
const say = (o) => console.log(JSON.stringify(o));
while (true) {
  const line = readline();
  if (line === undefined) break;
  const m = JSON.parse(line);
  if (m.message === "info") say({ message: "connect", revision: 1, name: "e2e-bot" });
  else if (m.message === "gamestate" && m.turn === 0) say({ message: "loadout", "primary-weapon": "laser", "secondary-weapon": "mortar" });
  else if (m.message === "gamestate" && m.players[0].resources) {
    const data = m.map.data, n = data.length;
    const tile = (p) => (p[0] >= 0 && p[1] >= 0 && p[0] < n && p[1] < n ? data[p[0]][p[1]] : "V");
    const taken = new Set(m.players.map((p) => p.position));
    const foes = m.players.slice(1).filter((p) => p.health > 0).map((p) => at(p.position));
    let here = at(m.players[0].position);
    const out = [];
    let fired = false;
    for (let step = 0; step < 2 && !fired; step++) {
      const target = foes.sort((a, b) => dist(here, a) - dist(here, b))[0];
      const moves = Object.entries(DIRS).map(([d, [dj, dk]]) => [d, [here[0] + dj, here[1] + dk]])
        .filter(([, p]) => "GERC".includes(tile(p)) && !taken.has(p.join(",")))
        .sort((a, b) => (target ? dist(a[1], target) - dist(b[1], target) : 0));
      if (moves.length > 0 && (!target || dist(moves[0][1], target) > 1)) {
        out.push({ message: "action", type: "move", direction: moves[0][0] });
        here = moves[0][1];
      }
      if (tile(here) === "S") continue;
      for (const [d, [dj, dk]] of Object.entries(DIRS)) {
        let p = here;
        for (let i = 0; i < 5 && !fired; i++) {
          p = [p[0] + dj, p[1] + dk];
          if (tile(p) === "O") break;
          if (foes.some((f) => f[0] === p[0] && f[1] === p[1]) && tile(p) !== "S") {
            out.push({ message: "action", type: "laser", direction: d });
            fired = true;
          }
        }
        if (fired) break;
      }
    }
    for (const a of out.slice(0, 3)) say(a);
    if (out.length < 3) say({ message: "endturn" });
  }
}
`;

export default async function (page, tools) {
  const { check, getCode, canvasColours, SHOTS } = tools;
  await page.locator('#games .game-choice[data-game="skyport"]').click();
  await page.locator("#players").waitFor({ timeout: 10_000 });
  const starter = await getCode(page);
  check(/"connect"/.test(starter) && /readline\(\)/.test(starter), "skyport: the editor does not hold the Skyport starter bot");
  await page.locator("#players").selectOption("3");
  const { ms, outcome, last, faults } = await playToTheEnd(page, tools, {
    tag: "skyport:",
    bot: BOT,
    opponent: "random",
    what: "skyport: three-player match until the outcome shows (relaxed)",
    minTurns: 101,
  });
  const seats = await page.locator("#statuses li").count();
  check(seats === 3, `skyport: ${seats} bots listed, not 3`);
  check(faults.length === 0, `skyport: faults: ${faults.join("; ")}`);
  check(/rounds played/.test(outcome), `skyport: unexpected outcome '${outcome}'`);
  const colours = await canvasColours(page);
  check(colours.common >= 6, `skyport: the board looks blank: ${JSON.stringify(colours)}`);
  // A frame from the middle of the match, with shots drawn, for the screenshot.
  await page.locator("#scrub").evaluate((el, value) => {
    el.value = value;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, String(Math.floor(last / 2)));
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${SHOTS}/skyport.png`, fullPage: true });
  await page.locator("#last").click();

  // Inspecting: robot 1 (the typed bot, which chose laser and mortar) on the last frame.
  const spot = await findCell(page, /^robot 1 \(/m);
  check(spot, "skyport: no point of the board shows robot 1");
  const info = await hover(page, spot);
  check(
    /^tile \d+,\d+ \(j,k\)\n/.test(info) && /^robot 1 \(.*\): (health \d+|destroyed)/m.test(info) &&
      /^weapons: laser \d, mortar \d$/m.test(info),
    `skyport: hovering robot 1 shows '${info}'`,
  );
  await page.locator("#board").screenshot({ path: `${SHOTS}/inspect-skyport.png` });
  await leave(page);
  console.log(`ok skyport: hovering robot 1 shows "${info.replace(/\n/g, " · ")}"`);
  console.log(
    `ok skyport: a three-player match in ${(ms / 1000).toFixed(1)} s: ${last} turns; "${outcome.split("\n")[0]}"; ` +
      `canvas ${colours.width}×${colours.height}, ${colours.common} main colours`,
  );
}

// microRTS in the page: a JavaScript bot typed into the editor plays a whole match against the
// built-in random bot; the arena is drawn (screenshot tests/e2e/screenshots/micro-rts.png); and
// hovering red's castle at the first frame describes it in #cell-info.

import { pickGame } from "../browser.mjs";
import { findCell, hover, leave } from "./lib/cell-info.mjs";
import { playToTheEnd } from "./lib/match.mjs";

// A small legal bot: the castle trains three workers; workers attack an adjacent enemy,
// harvest an adjacent mine or forest, or walk one tile towards the nearest one.
const BOT = `
const [width, height] = readline().split(" ").map(Number);
for (let i = 0; i < 6; i++) readline();
const dist = (a, b) => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
while (true) {
  let [n, gold] = readline().split(" ").map(Number);
  const all = [];
  for (let i = 0; i < n; i++) {
    const [x, y, owner, type, health] = readline().split(" ").map(Number);
    all.push({ x, y, owner, type, health });
  }
  const used = new Set(all.map((e) => e.x + "," + e.y));
  const free = (x, y) => x >= 0 && y >= 0 && x < width && y < height && !used.has(x + "," + y);
  const near = (e, r) => {
    const out = [];
    for (let dx = -r; dx <= r; dx++) for (let dy = -r; dy <= r; dy++) if (dx || dy) out.push({ x: e.x + dx, y: e.y + dy });
    return out;
  };
  const mine = all.filter((e) => e.owner === 0);
  const enemies = all.filter((e) => e.owner === 1);
  const resources = all.filter((e) => e.owner === -1 && e.type >= 2);
  const out = [];
  for (const e of mine) {
    if (e.type === 0 && gold >= 1 && mine.filter((u) => u.type === 2).length < 3) {
      const spot = near(e, 3).find((p) => free(p.x, p.y));
      if (spot) { out.push("TRAIN " + e.x + " " + e.y + " " + spot.x + " " + spot.y + " WORKER"); used.add(spot.x + "," + spot.y); gold--; }
    } else if (e.type === 2) {
      const foe = enemies.find((t) => dist(e, t) <= 1);
      const res = resources.find((t) => dist(e, t) <= 1);
      if (foe) out.push("ATTACK " + e.x + " " + e.y + " " + foe.x + " " + foe.y);
      else if (res) out.push("HARVEST " + e.x + " " + e.y + " " + res.x + " " + res.y);
      else if (resources.length) {
        const goal = resources.reduce((b, t) => (dist(e, t) < dist(e, b) ? t : b));
        const step = near(e, 1).filter((p) => free(p.x, p.y) && dist(p, goal) < dist(e, goal))[0];
        if (step) { out.push("MOVE " + e.x + " " + e.y + " " + step.x + " " + step.y); used.add(step.x + "," + step.y); }
      }
    }
  }
  console.log(out.length ? out.join(";") : "WAIT");
}
`;

export default async function (page, tools) {
  const { check, canvasColours, SHOTS, url, problems } = tools;
  const choice = page.locator('#games .game-choice[data-game="micro-rts"]');
  check((await choice.count()) === 1, "(micro-rts) the game list has no microRTS button");
  check(/microRTS/.test(await choice.innerText()), "(micro-rts) the button does not name microRTS");
  await pickGame(page, "micro-rts");
  const { ms, outcome, last } = await playToTheEnd(page, tools, {
    tag: "(micro-rts)",
    bot: BOT,
    opponent: "random",
    // The outcome of this match (not a previous one): microRTS ends on castles or materials.
    result: /no castle left|materials|both players are out/,
    what: "(micro-rts) match: run until the outcome shows (relaxed)",
  });
  check(!/your bot\)[^\n]*invalid order/.test(outcome), `(micro-rts) the typed bot was eliminated: ${outcome}`);
  const details = await page.locator("#turn-details").innerText();
  check(/stdin/i.test(details) && /stdout/i.test(details), "(micro-rts) the turn details are missing");
  // Show a turn a third of the way in, where units are busy, and draw it.
  const shown = Math.max(1, Math.floor(last / 3));
  await page.locator("#scrub").fill(String(shown));
  await page.locator("#turn-label").getByText(`turn ${shown} / ${last}`).waitFor({ timeout: 5_000 });
  const colours = await canvasColours(page);
  check(colours.width > 100 && colours.height > 100, `(micro-rts) the canvas is tiny: ${colours.width}×${colours.height}`);
  check(colours.common >= 6, `(micro-rts) the arena looks blank: ${JSON.stringify(colours)}`);
  await page.screenshot({ path: `${SHOTS}/micro-rts.png`, fullPage: true });

  // Inspecting: at the first frame, hovering red's castle (C on the text board) describes it.
  await page.locator("#viewer").focus();
  await page.locator("#viewer").press("Home");
  await page.locator("#turn-label").getByText(`turn 0 / ${last}`).waitFor({ timeout: 5_000 });
  const board = (await page.locator("#board").getAttribute("aria-label")).split("\n");
  const rows = board.filter((l) => /^ {0,2}\d+ /.test(l)).map((l) => l.slice(4));
  const castleY = rows.findIndex((r) => r.includes("C"));
  check(castleY >= 0, `(micro-rts) no red castle on the first frame's text board:\n${board.join("\n")}`);
  const castleX = rows[castleY].indexOf("C");
  const spot = await findCell(page, new RegExp(`^cell \\(${castleX},${castleY}\\)`));
  check(spot, `(micro-rts) no point of the arena shows cell (${castleX},${castleY})`);
  const info = await hover(page, spot);
  check(
    info.startsWith(`cell (${castleX},${castleY})\nfloor\n`) && /^red castle: health (\d+) \/ \1$/m.test(info),
    `(micro-rts) hovering red's castle at (${castleX},${castleY}) shows '${info}'`,
  );
  await page.locator("#board").screenshot({ path: `${SHOTS}/inspect-micro-rts.png` });
  await leave(page);
  console.log(`ok (micro-rts) hovering red's castle shows "${info.replace(/\n/g, " · ")}"`);
  check(problems.length === 0, `(micro-rts) errors during the match:\n  ${problems.join("\n  ")}`);
  console.log(
    `ok (micro-rts) a full match in ${(ms / 1000).toFixed(1)} s: ${last} turns; "${outcome.split("\n")[0]}"; ` +
      `canvas ${colours.width}×${colours.height}, ${colours.common} main colours`,
  );
}

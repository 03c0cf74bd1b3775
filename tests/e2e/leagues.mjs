// Progressive rules in the built page (issue #12), in Debian's Chromium through playwright-core.
//
//   trunk build --release --skip-version-check [--dist dist]
//   node tests/e2e/leagues.mjs [--dist dist]
//
// (z) Soak Overflow's tutorial leagues: choosing league 1 shows what the league is about and sets
//     the opponent to its scripted boss; a JavaScript bot that walks its two agents to the
//     objective's cells wins on the 8 × 5 grid, and one that walks elsewhere loses at turn 20;
//     league 2: a bot that shoots the wettest enemy every turn wins 2 to 0, and one that shoots
//     another is soaked by the boss. Ice and Fire's league 1 offers level-1 training only
//     (its text says so) and a level-2 TRAIN there is skipped with a reason in the events.
// Called from run.mjs (`leagueChecks({ dist, check })`) or alone.

import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, openSession, pickGame, runAlone } from "./browser.mjs";
import { SOAK_OVERFLOW_START } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));


// Soak Overflow's input, read the same way by every bot below: `play(agents)` answers a turn.
const soakBot = (play) => `${SOAK_OVERFLOW_START}
console.error("grid " + width + "x" + height);
const play = ${play};
while (true) {
  const count = parseInt(readline());
  const agents = [];
  for (let i = 0; i < count; i++) {
    const [id, x, y, cooldown, bombs, wetness] = readline().split(" ").map(Number);
    agents.push({ id, x, y, wetness, mine: owner[id] === myId });
  }
  readline();
  for (const line of play(agents)) console.log(line);
}
`;

// League 1: agent 1 to (6,1), agent 2 to (6,3); or both to the wrong column.
const TO_OBJECTIVE = soakBot(`(agents) => agents.filter((a) => a.mine).map((a) => a.id + ";MOVE 6 " + (a.id === 1 ? 1 : 3))`);
const ELSEWHERE = soakBot(`(agents) => agents.filter((a) => a.mine).map((a) => a.id + ";MOVE 2 " + (a.id === 1 ? 1 : 3))`);
// League 2: shoot the wettest enemy (the first listed on a tie), or the driest.
const WETTEST = soakBot(`(agents) => {
  const foes = agents.filter((a) => !a.mine);
  const target = foes.reduce((b, a) => (a.wetness > b.wetness ? a : b), foes[0]);
  return agents.filter((a) => a.mine).map((a) => a.id + ";SHOOT " + target.id);
}`);
const DRIEST = soakBot(`(agents) => {
  const foes = agents.filter((a) => !a.mine);
  const target = foes.reduce((b, a) => (a.wetness < b.wetness ? a : b), foes[0]);
  return agents.filter((a) => a.mine).map((a) => a.id + ";SHOOT " + target.id);
}`);

// Ice and Fire league 1: train a level-2 unit beside the HQ (not in this league), then wait.
const LEVEL_TWO = `
const spots = parseInt(readline()); for (let i = 0; i < spots; i++) readline();
while (true) {
  readline(); readline(); readline(); readline();
  const map = []; for (let y = 0; y < 12; y++) map.push(readline());
  const b = parseInt(readline()); for (let i = 0; i < b; i++) readline();
  const u = parseInt(readline()); for (let i = 0; i < u; i++) readline();
  const hqAtOrigin = map[0][0] === "O";
  console.log(hqAtOrigin ? "TRAIN 2 1 0" : "TRAIN 2 10 11");
}
`;


async function setCode(page, code) {
  await page.locator("#bot-code .cm-content").waitFor();
  await page.evaluate((c) => botplayEditor.get("bot-code").paste(c), code);
}

async function setRelaxed(page, on) {
  const box = page.locator("#relaxed");
  if ((await box.isChecked()) !== on) await box.click();
}

/** Runs the match set up in the page to its end; its outcome text and the last turn label. */
async function play(page, check, what) {
  await page.locator("#run").click();
  await page.locator("#match-status").getByText("The match is over.").waitFor({ timeout: 120_000 });
  const outcome = (await page.locator("#outcome").innerText()).trim();
  const turns = Number((await page.locator("#turn-label").innerText()).match(/\/ (\d+)/)?.[1]);
  check(outcome.length > 0, `(z) ${what}: no outcome shown`);
  return { outcome, turns };
}

/** The league's text under the League select. */
async function leagueText(page) {
  return (await page.locator("#league").locator("xpath=../following-sibling::p[1]").innerText()).trim();
}

export async function leagueChecks({ dist, check = defaultCheck }) {
  const { url, page, problems, close } = await openSession(dist, "leagues", { consoleErrors: false });
  try {
    await page.goto(url);
    await page.locator("#games").waitFor();

    // Soak Overflow, league 1 (Wood 4).
    await pickGame(page, "soak-overflow");
    const full = await leagueText(page);
    await page.locator("#league").selectOption("league-1");
    const l1 = await leagueText(page);
    check(/MOVE only/.test(l1) && l1 !== full, `(z) soak-overflow league 1's text is '${l1}'`);
    check((await page.locator("#opponent").inputValue()) === "boss", "(z) soak-overflow league 1: the opponent is not the boss");
    await page.locator("#player").selectOption("javascript");
    await setRelaxed(page, true);
    await setCode(page, TO_OBJECTIVE);
    const won = await play(page, check, "soak-overflow league 1, to the objective");
    check(/red \(your bot\) wins/.test(won.outcome) && won.turns < 20, `(z) soak-overflow league 1: walking to the objective gave '${won.outcome}' after ${won.turns} frames`);
    await page.locator("#viewer").focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    const first = await page.locator("#turn-details").innerText();
    check(/grid 8x5/.test(first), `(z) soak-overflow league 1: the first turn's debug log does not say the grid is 8 × 5: '${first}'`);
    await setCode(page, ELSEWHERE);
    const lost = await play(page, check, "soak-overflow league 1, elsewhere");
    check(/blue \(boss\) wins/.test(lost.outcome), `(z) soak-overflow league 1: walking elsewhere gave '${lost.outcome}'`);
    console.log(`ok (z) soak-overflow league 1: its text ('${l1.slice(0, 40)}…'), the boss; to the objective: "${won.outcome.split("\n")[0]}"; elsewhere: "${lost.outcome.split("\n")[0]}"`);

    // League 2 (Wood 3): shoot the wettest.
    await page.locator("#league").selectOption("league-2");
    const l2 = await leagueText(page);
    check(/SHOOT/.test(l2) && l2 !== l1, `(z) soak-overflow league 2's text is '${l2}'`);
    await setCode(page, WETTEST);
    const wettest = await play(page, check, "soak-overflow league 2, wettest");
    check(/red \(your bot\) wins: score 2 to 0/.test(wettest.outcome), `(z) soak-overflow league 2: shooting the wettest gave '${wettest.outcome}'`);
    await setCode(page, DRIEST);
    const driest = await play(page, check, "soak-overflow league 2, driest");
    check(/blue \(boss\) wins/.test(driest.outcome), `(z) soak-overflow league 2: shooting the driest gave '${driest.outcome}'`);
    console.log(`ok (z) soak-overflow league 2: shooting the wettest: "${wettest.outcome.split("\n")[0]}"; the driest: "${driest.outcome.split("\n")[0]}"`);

    // Ice and Fire, league 1: level 1 only.
    await pickGame(page, "ice-and-fire");
    await page.locator("#league").selectOption({ index: 0 });
    const basics = await leagueText(page);
    check(/the basics/.test(basics), `(z) ice-and-fire league 1's text is '${basics}'`);
    await page.locator("#player").selectOption("javascript");
    await page.locator("#opponent").selectOption("wait");
    await setCode(page, LEVEL_TWO);
    await page.locator("#run").click();
    await page.locator("#match-status").getByText("The match is over.").waitFor({ timeout: 120_000 });
    await page.locator("#viewer").focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    // The picture of an earlier turn comes from the match worker, which keeps the match: a
    // moment after the step.
    await page.locator("#events").getByText(/only level-1 units in this league/).waitFor({ timeout: 10_000 }).catch(() => {});
    const events = await page.locator("#events").innerText();
    check(/only level-1 units in this league/.test(events), `(z) ice-and-fire league 1: a level-2 TRAIN is not reported: '${events}'`);
    const skipped = events.split("\n").find((e) => /only level-1/.test(e));
    console.log(`ok (z) ice-and-fire league 1: '${basics.slice(0, 40)}…'; a level-2 TRAIN is skipped: "${skipped}"`);
    check(problems.length === 0, `(z) page errors: ${problems.join("; ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, leagueChecks, "league checks");

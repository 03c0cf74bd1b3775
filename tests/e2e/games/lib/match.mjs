// The match every game test plays first (this folder is not a game test: run.mjs runs only the
// .mjs files directly in tests/e2e/games/), and run.mjs's own first match.

import { playMatch } from "../../browser.mjs";

/**
 * The typed `bot` against the built-in `opponent` under relaxed budgets, from Run until the
 * outcome shows (its result line matching `result`, when given; `timeout` ms at most), timed as
 * `what` with run.mjs's `timed`. Then what the page shows of the end is checked, each failure
 * naming `tag`: the turn counter stands at the last turn, which is `minTurns` or more, and no
 * fault is the typed bot's. Resolves to { ms, outcome, last, faults }: the match's time, the
 * outcome's text, the last turn's number and the faults listed.
 */
export async function playToTheEnd(page, { check, timed }, { tag, bot, opponent, result, timeout = 240_000, what, minTurns = 1 }) {
  const clicked = await playMatch(page, { code: bot, opponent, relaxed: true, result, timeout });
  const ms = timed(what, clicked);
  const outcome = await page.locator("#outcome").innerText();
  const label = await page.locator("#turn-label").innerText();
  const m = label.match(/turn (\d+) \/ (\d+)/);
  check(m && Number(m[1]) === Number(m[2]) && Number(m[2]) >= minTurns, `${tag} the turn counter did not reach the end: '${label}'`);
  const faults = await page.locator("#faults li").allInnerTexts();
  check(!faults.some((f) => /your bot/.test(f)), `${tag} the typed bot faulted: ${faults.join("; ")}`);
  return { ms, outcome, last: Number(m[2]), faults };
}

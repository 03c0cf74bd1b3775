// Ice and Fire: inspecting cells. (Its full matches are run.mjs's own steps (b)–(i); this file
// only adds the cell inspection.) A short match of a typed bot against the built-in random bot,
// then: hovering an HQ describes it in #cell-info and outlines the cell; the panel follows the
// frames while the mouse stays (Home / End); it clears when the mouse leaves; and on a
// phone-sized page a tap on a touch screen shows a cell and keeps it after the finger lifts and
// while stepping. Screenshots: SHOTS/inspect-ice-and-fire.png, SHOTS/inspect-touch.png.

import { join } from "node:path";
import { cellInfo, findCell, hover, leave, runToEnd, waitForInfo } from "./lib/cell-info.mjs";
import { iceAndFireWalker } from "../bots.mjs";
import { pickGame } from "../browser.mjs";

// Trains a level-1 unit beside its HQ when it can; every unit walks to the enemy HQ.
const BOT = iceAndFireWalker();

async function playShortMatch(page, { setCode, setRelaxed }) {
  await pickGame(page, "ice-and-fire");
  await page.locator("#player").selectOption("javascript");
  await setCode(page, BOT);
  await page.locator("#opponent").selectOption("random");
  await setRelaxed(page, true);
  await runToEnd(page);
}

export default async function (page, tools) {
  const { check, timed, SHOTS, url } = tools;
  const t = performance.now();
  await playShortMatch(page, tools);
  const viewer = page.locator("#viewer");
  await viewer.focus();
  await viewer.press("Home");
  await page.locator("#turn-label").getByText(/^turn 0 \//).waitFor({ timeout: 5_000 });

  // The panel waits for a pointer, and is announced politely.
  check((await page.locator("#cell-info").getAttribute("aria-live")) === "polite", "(ice-and-fire) #cell-info is not aria-live=polite");
  check(/Point at a cell/.test(await cellInfo(page)), `(ice-and-fire) the panel does not start with its hint: '${await cellInfo(page)}'`);

  // Hovering the top-left corner cell: an HQ stands there from the start (red's or blue's).
  const corner = await findCell(page, /^cell \(0,0\)/);
  check(corner, "(ice-and-fire) no point of the board shows cell (0,0)");
  const before = await page.locator("#board").evaluate((c) => c.toDataURL());
  const hq = await hover(page, corner);
  check(/^cell \(0,0\)\n/.test(hq) && /^(red|blue) HQ$/m.test(hq) && /^(red|blue) territory$/m.test(hq),
    `(ice-and-fire) hovering (0,0) shows '${hq}'`);
  // The outline is drawn over the board, not into it.
  const outlined = await page.locator(".board-outline").evaluate((c) => {
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
    return { painted, width: c.width, board: document.querySelector("#board").width };
  });
  check(outlined.painted > 100 && outlined.width === outlined.board, `(ice-and-fire) no outline drawn: ${JSON.stringify(outlined)}`);
  check((await page.locator("#board").evaluate((c) => c.toDataURL())) === before, "(ice-and-fire) hovering repainted the board itself");
  await page.screenshot({ path: join(SHOTS, "inspect-ice-and-fire.png"), fullPage: true });

  // The mouse stays; the frames change under it (keyboard only, so the mouse does not move).
  await viewer.focus();
  await viewer.press("End");
  const label = await page.locator("#turn-label").innerText();
  const last = Number(label.match(/turn (\d+) \//)[1]);
  check(last > 2, `(ice-and-fire) the match is too short to scrub: '${label}'`);
  // Find, at the last frame, a cell with a unit, and hover it.
  const unitCell = await findCell(page, /^\w+ unit \d+, level \d$/m);
  check(unitCell, "(ice-and-fire) no unit on the board at the last frame");
  const withUnit = await hover(page, unitCell);
  const cell = withUnit.split("\n")[0];
  await viewer.focus();
  await viewer.press("Home");
  const atStart = await waitForInfo(page, (text) => !/ unit \d+/.test(text));
  check(atStart.startsWith(`${cell}\n`) && !/ unit \d+/.test(atStart),
    `(ice-and-fire) back at turn 0 (no unit yet) the panel still shows '${atStart}' (was '${withUnit}')`);
  await viewer.press("End");
  const again = await waitForInfo(page, (text) => text === withUnit);
  check(again === withUnit, `(ice-and-fire) back at the last frame the panel shows '${again}', not '${withUnit}'`);

  // The mouse leaves the board: the panel clears, the outline goes.
  await leave(page);
  const cleared = await page.locator(".board-outline").evaluate((c) => {
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    return data.some((v, i) => i % 4 === 3 && v > 0);
  });
  check(!cleared, "(ice-and-fire) the outline stays after the mouse left");
  console.log(`ok (ice-and-fire) hovering shows the cell: "${hq.replace(/\n/g, " · ")}"; it follows the frames and clears on leaving`);

  // A phone-sized page with a touch screen: a tap shows the cell and it stays.
  const phone = await page.context().newPage();
  try {
    await phone.setViewportSize({ width: 390, height: 844 });
    const cdp = await page.context().newCDPSession(phone);
    await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
    await phone.goto(url);
    await phone.locator("#games .game-choice").first().waitFor({ timeout: 30_000 });
    await playShortMatch(phone, tools);
    await phone.locator("#first").click();
    const spot = await findCell(phone, /^cell \(0,0\)/);
    check(spot, "(touch) no point of the narrow board shows cell (0,0)");
    const board = await phone.locator("#board").boundingBox();
    check(board.width <= 390, `(touch) the board is ${board.width} px wide on a 390 px page`);
    const tap = async (x, y) => {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    await tap(spot.x, spot.y);
    await phone.locator("#cell-info .cell-name").waitFor({ timeout: 5_000 });
    await phone.waitForTimeout(300);
    const tapped = await cellInfo(phone);
    check(/^cell \(0,0\)\n/.test(tapped) && /^(red|blue) HQ$/m.test(tapped), `(touch) a tap on (0,0) shows '${tapped}'`);
    // A tap on a button (off the board) steps forward; the tapped cell stays, for the new frame.
    const forward = await phone.locator("#step-forward").boundingBox();
    await tap(forward.x + forward.width / 2, forward.y + forward.height / 2);
    await phone.locator("#turn-label").getByText(/^turn 1 \//).waitFor({ timeout: 5_000 });
    const stepped = await cellInfo(phone);
    check(/^cell \(0,0\)\n/.test(stepped) && /^(red|blue) HQ$/m.test(stepped), `(touch) after stepping the panel shows '${stepped}'`);
    await phone.locator("#board").scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SHOTS, "inspect-touch.png") });
    // Turned sideways: the board is drawn at another size; the tapped cell stays tapped, and its
    // outline is drawn at the new size.
    const widthBefore = await phone.locator("#board").evaluate((c) => c.width);
    await phone.setViewportSize({ width: 844, height: 390 });
    await phone.waitForFunction((w) => document.querySelector("#board").width !== w, widthBefore, { timeout: 5_000 });
    await phone.waitForTimeout(200);
    const turned = await cellInfo(phone);
    // The outline's extent: about one of the 12 columns of the board as it is now.
    const overlay = await phone.locator(".board-outline").evaluate((c) => {
      const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let [left, right] = [c.width, -1];
      for (let i = 3; i < data.length; i += 4) {
        if (data[i] === 0) continue;
        const x = ((i - 3) / 4) % c.width;
        [left, right] = [Math.min(left, x), Math.max(right, x)];
      }
      return { extent: right - left + 1, width: c.width, board: document.querySelector("#board").width };
    });
    const column = overlay.board / 12;
    check(turned === stepped && overlay.width === overlay.board && overlay.extent > 0.9 * column && overlay.extent < 1.3 * column,
      `(touch) turned sideways the panel shows '${turned}' (was '${stepped}'), outline ${JSON.stringify(overlay)}`);
    console.log(`ok (touch) on a 390 px page a tap shows the cell and keeps it, stepping and turning (board ${widthBefore} → ${overlay.board} px, outline ${overlay.extent} px): "${stepped.replace(/\n/g, " · ")}"`);
  } finally {
    await phone.close();
  }
  timed("(ice-and-fire) cell inspection: hover, frames, leave, touch", t);
}

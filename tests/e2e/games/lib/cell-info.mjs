// Helpers for the cell inspection checks of the game tests (this folder is not a game test:
// run.mjs runs only the .mjs files directly in tests/e2e/games/).
//
// The page describes the cell under the pointer in #cell-info. To find where a cell is drawn
// without re-implementing each painter's layout here, findCell moves a synthetic mouse pointer
// over the board in small steps until the panel matches; the checks then hover (or tap) that
// point for real.

// The text of the cell-info panel: the cell's name, then one line per fact.
export async function cellInfo(page) {
  return (await page.locator("#cell-info").innerText()).trim().replace(/\n+/g, "\n");
}

// A point of the board (page coordinates, for page.mouse) whose #cell-info text matches
// `pattern`, scanning rows of points `step` CSS pixels apart; null when none does. The synthetic
// pointer leaves the board at the end, clearing the panel.
export async function findCell(page, pattern, step = 5) {
  const board = page.locator("#board");
  await board.scrollIntoViewIfNeeded();
  const box = await board.boundingBox();
  const found = await board.evaluate(
    async (canvas, [source, flags, step]) => {
      const pattern = new RegExp(source, flags);
      const info = document.querySelector("#cell-info");
      const rect = canvas.getBoundingClientRect();
      // The page renders in a microtask after each event: a message round trip lets it.
      const settle = () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(0);
        });
      const point = (type, x, y) =>
        canvas.dispatchEvent(
          new PointerEvent(type, { clientX: rect.left + x, clientY: rect.top + y, pointerType: "mouse", bubbles: true }),
        );
      let hit = null;
      for (let y = step / 2; y < rect.height && !hit; y += step) {
        for (let x = step / 2; x < rect.width && !hit; x += step) {
          point("pointermove", x, y);
          await settle();
          if (pattern.test(info.innerText.replace(/\n+/g, "\n"))) hit = { x, y };
        }
      }
      point("pointerleave", -1, -1);
      await settle();
      return hit;
    },
    [pattern.source, pattern.flags, step],
  );
  return found && { x: box.x + found.x, y: box.y + found.y };
}

// Hovers `point` with the real mouse and returns the panel's text once it names a cell.
export async function hover(page, point) {
  await page.mouse.move(point.x, point.y);
  await page.locator("#cell-info .cell-name").waitFor({ timeout: 5_000 });
  return cellInfo(page);
}

// Moves the real mouse off the board; the panel goes back to its hint.
export async function leave(page) {
  const box = await page.locator("#board").boundingBox();
  const { width } = page.viewportSize();
  const right = box.x + box.width + 12;
  const x = right < width - 2 ? right : Math.max(2, box.x - 12);
  await page.mouse.move(x, box.y + box.height / 2);
  await page.locator("#cell-info .hint").waitFor({ timeout: 5_000 });
}

// Waits until the panel's text satisfies `test` (a function of the text), up to 5 s; returns
// the text it last had.
export async function waitForInfo(page, test) {
  const deadline = Date.now() + 5_000;
  let text = await cellInfo(page);
  while (!test(text) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    text = await cellInfo(page);
  }
  return text;
}

// Clicks Run and waits until this new match is over (seen starting first, so that the end of a
// match shown before does not count, however short the new one is).
export async function runToEnd(page, timeout = 120_000) {
  await page.evaluate(() => {
    const status = document.querySelector("#match-status");
    window.__botplayRunSeen = false;
    window.__botplayRunObserver?.disconnect();
    window.__botplayRunObserver = new MutationObserver(() => {
      if (/Starting|Playing/.test(status.textContent)) window.__botplayRunSeen = true;
    });
    window.__botplayRunObserver.observe(status, { subtree: true, childList: true, characterData: true });
  });
  await page.locator("#run").click();
  await page.waitForFunction(
    () => window.__botplayRunSeen && /over/.test(document.querySelector("#match-status").textContent),
    null,
    { timeout },
  );
  await page.evaluate(() => window.__botplayRunObserver.disconnect());
}

// The rules pages in the browser: for every game, the Rules button opens a dialog with the
// game's rules (the same sections for every game, then Learning from a match with its three
// screenshots), its live mini-boards are drawn by the game's
// painter, every section opens with its "In short" sentence, set apart by its style (a bar at its
// left), the dialog closes with Escape and with its Close button and gives the focus back to
// the button; on a phone-sized screen it fills the screen and nothing spills sideways.
// Screenshots: tests/e2e/screenshots/rules-<game>.png and rules-phone.png.
//
// Called once from run.mjs: `rulesChecks(page, { check, SHOTS })`, or alone:
//
//   trunk build --release --skip-version-check
//   node tests/e2e/rules.mjs [--dist dist]

import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { boardColours, defaultCheck, openPlayground, openSession, pickGame, runAlone } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

// The sections of every page, in order (tests/rules_pages.rs checks the same natively), then the
// one the dialog adds to every page (www/rules/learning.html).
const SECTIONS = ["goal", "board", "actions", "turns", "protocol", "end", "rulesets", "changes", "learning"].map((s) => `rules-${s}`);

// What the painters drew on each live board of the open dialog: size, label and main colours
// (every 5th pixel sampled).
async function boardPixels(page) {
  const boards = [];
  for (const canvas of await page.locator("#rules .mini-board canvas").all()) boards.push(await canvas.evaluate(boardColours, 5));
  return boards;
}

async function openRules(page, how) {
  const link = page.locator("#rules-link");
  if (how === "keyboard") {
    await link.focus();
    await page.keyboard.press("Enter");
  } else {
    await link.click();
  }
  await page.locator("#rules[open] .rules-text h2").first().waitFor({ timeout: 10_000 });
}

export async function rulesChecks(page, { check, SHOTS }) {
  await mkdir(SHOTS, { recursive: true });
  const games = await page.locator("#games .game-choice").evaluateAll((buttons) =>
    buttons.map((b) => b.dataset.game),
  );
  check(games.length >= 5, `(rules) the game list has ${games.length} games`);
  for (const [i, game] of games.entries()) {
    await pickGame(page, game);
    const name = (await page.locator(`#games .game-choice[data-game="${game}"] .game-name`).innerText()).trim();
    const label = (await page.locator("#rules-link").innerText()).trim();
    check(label.includes(name), `(rules) the Rules button says '${label}', not the rules of ${name}`);

    // Every other game is opened from the keyboard.
    await openRules(page, i % 2 === 0 ? "click" : "keyboard");
    const title = await page.locator("#rules-title").innerText();
    check(title.includes(name), `(rules ${game}) the dialog's title is '${title}'`);
    const ids = await page.locator("#rules .rules-text h2").evaluateAll((hs) => hs.map((h) => h.id));
    check(JSON.stringify(ids) === JSON.stringify(SECTIONS), `(rules ${game}) sections ${ids.join(", ")}`);
    // Each section opens with one plain sentence, "In short: …", set apart by a bar at its left.
    const shorts = await page.locator("#rules .rules-text h2").evaluateAll((hs) =>
      hs.map((h) => {
        const p = h.nextElementSibling;
        const styled = p?.matches("p.in-short") ? getComputedStyle(p) : null;
        return {
          id: h.id,
          text: p?.textContent.trim() ?? "",
          bar: styled ? parseFloat(styled.borderLeftWidth) : 0,
          larger: styled ? parseFloat(styled.fontSize) > parseFloat(getComputedStyle(p.parentElement).fontSize) : false,
        };
      }),
    );
    const bare = shorts.filter((s) => !s.text.startsWith("In short:") || s.bar < 2 || !s.larger);
    check(shorts.length === SECTIONS.length && bare.length === 0, `(rules ${game}) sections without a styled In short: ${JSON.stringify(bare)}`);
    const contents = await page.locator("#rules .rules-contents button").count();
    check(contents === SECTIONS.length, `(rules ${game}) the contents list ${contents} sections`);
    check((await page.locator("#rules figure.exchange pre.io-in").count()) > 0, `(rules ${game}) no protocol example`);

    // The live boards: one canvas each, drawn (not just the background), with words for screen
    // readers that say which match it is.
    const slots = await page.locator("#rules .mini-board").count();
    const boards = await boardPixels(page);
    check(slots > 0 && boards.length === slots, `(rules ${game}) ${slots} mini-boards, ${boards.length} canvases`);
    for (const b of boards) {
      check(b.width > 100 && b.height > 50, `(rules ${game}) a mini-board canvas is ${b.width}×${b.height}`);
      check(b.common >= 4, `(rules ${game}) a mini-board looks blank: ${JSON.stringify(b)}`);
      check(/Drawn live by the engine: seed -?\d+/.test(b.label), `(rules ${game}) a mini-board's label: '${b.label.slice(0, 80)}'`);
    }
    check((await page.locator("#rules .mini-board").filter({ hasText: "cannot be drawn" }).count()) === 0, `(rules ${game}) a mini-board could not be drawn`);

    // The contents jump to a section.
    await page.locator("#rules .rules-contents button").last().click();
    await page.waitForTimeout(200);
    const jump = await page.locator("#rules h2#rules-learning").evaluate((h) => {
      const scroll = h.closest(".rules-scroll");
      const top = h.getBoundingClientRect().top - scroll.getBoundingClientRect().top;
      return { top, height: scroll.clientHeight, scrolled: scroll.scrollTop };
    });
    check(
      jump.scrolled > 0 && jump.top >= 0 && jump.top < jump.height - 20,
      `(rules ${game}) jumping to 'Learning from a match' left it out of sight: ${JSON.stringify(jump)}`,
    );
    // Its screenshots are there (the build copies them beside the page).
    const shots = page.locator("#rules .rules-shot img");
    await page.waitForFunction(() => [...document.querySelectorAll("#rules .rules-shot img")].every((i) => i.complete));
    const widths = await shots.evaluateAll((imgs) => imgs.map((i) => i.naturalWidth));
    check(widths.length === 3 && widths.every((w) => w > 300), `(rules ${game}) the learning section's screenshots: ${widths}`);
    await page.locator("#rules .rules-scroll").evaluate((s) => (s.scrollTop = 0));
    await page.screenshot({ path: join(SHOTS, `rules-${game}.png`) });

    // Escape closes, and the focus goes back to the button.
    if (i === 0) {
      await page.locator("#rules-close").click();
    } else {
      await page.keyboard.press("Escape");
    }
    await page.locator("#rules").waitFor({ state: "hidden", timeout: 5_000 });
    check(!(await page.locator("#rules").evaluate((d) => d.open)), `(rules ${game}) the dialog is still open`);
    const focused = await page.evaluate(() => document.activeElement?.id);
    check(focused === "rules-link", `(rules ${game}) after closing, the focus is on '${focused}'`);
    console.log(
      `ok (rules ${game}) ${ids.length} sections each with its In short, ${boards.length} live board(s) ` +
        `(${boards.map((b) => `${b.width}×${b.height}, ${b.common} colours`).join("; ")})`,
    );
  }

  // A phone: the dialog fills the screen, nothing is wider than it, the text can be read.
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.locator(`#games .game-choice[data-game="${games[1]}"]`).click();
    await openRules(page, "click");
    const fit = await page.evaluate(() => {
      const dialog = document.querySelector("#rules");
      const scroll = dialog.querySelector(".rules-scroll");
      const font = parseFloat(getComputedStyle(dialog.querySelector(".rules-text p")).fontSize);
      return {
        width: dialog.getBoundingClientRect().width,
        spill: scroll.scrollWidth - scroll.clientWidth,
        font,
      };
    });
    check(fit.width <= 390 && fit.width >= 370, `(rules phone) the dialog is ${fit.width}px wide on a 390px screen`);
    check(fit.spill <= 1, `(rules phone) the text spills ${fit.spill}px sideways`);
    check(fit.font >= 14, `(rules phone) the text is ${fit.font}px`);
    const boards = await boardPixels(page);
    check(boards.length > 0 && boards.every((b) => b.common >= 4), `(rules phone) a mini-board is blank: ${JSON.stringify(boards)}`);
    await page.screenshot({ path: join(SHOTS, "rules-phone.png") });
    await page.keyboard.press("Escape");
    await page.locator("#rules").waitFor({ state: "hidden", timeout: 5_000 });
    console.log(`ok (rules) on a 390px phone the dialog is ${fit.width}px wide, no sideways spill, ${fit.font}px text`);
  } finally {
    if (before) await page.setViewportSize(before);
  }
  await page.locator(`#games .game-choice[data-game="${games[0]}"]`).click();
}

/** The rules dialogs alone (run.mjs calls `rulesChecks` on its own page). */
export async function rulesAlone({ dist, check = defaultCheck }) {
  const { url, page, problems, close } = await openSession(dist, "rules", { consoleErrors: false });
  try {
    await openPlayground(page, url);
    await rulesChecks(page, { check, SHOTS: join(REPO, "tests", "e2e", "screenshots") });
    check(problems.length === 0, `(rules) page errors: ${problems.join("; ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, rulesAlone, "rules checks");

// The charts of a match under the timeline and the Arena panel's charts (src/app/charts.rs,
// src/app/arena_charts.rs), in Debian's Chromium through playwright-core.
//
//   trunk build --release --skip-version-check --dist dist
//   node tests/e2e/charts.mjs [--dist dist] [--docs]
//
// (ch1) A typed bot plays a whole Ice and Fire match against a built-in bot: both charts (the
//       picked key number, the time per turn against the budget) are drawn in the seats'
//       colours, each with its sentence; the picker changes the number charted.
// (ch2) Clicking a chart at a step's place shows that step: the turn label, the scrubber and
//       the charts' marker move there (on both charts).
// (ch3) The marker follows playback: while the match plays, the marker's column on the overlay
//       is the step shown.
// (ch4) A bot that loops in its second turn: its timeout and its elimination are in the time
//       chart's sentence and marked on the time axis (its colour at the axis there); the number
//       picked before is still the one charted.
// (ch5) The text view lists every chart's sentence.
// (ch6) On a 390 px phone the charts fit the screen and are drawn; a tap on a chart moves the
//       viewer.
// (ch7) After a small arena of built-in bots: the rating chart is drawn with one line per bot,
//       the win-rate matrix has every pair, coloured, with the same rates as the pairs table.
// (ch8) Each other game's one-click match: its own numbers charted in the seats' colours.
// No console error or refused style (the page's policy) anywhere. Screenshots:
// tests/e2e/screenshots/charts*.png, arena-charts.png; with --docs, charts.png is also
// docs/screenshots/charts.png.

import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, launch, openPlayground, openSession, playMatch, runAlone, runArena, setCode, setRelaxed, withinLimit } from "./browser.mjs";
import { iceAndFireWalker, LOOPING_BOT } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");

const RED = [0xd8, 0x41, 0x3a];
const BLUE = [0x3b, 0x78, 0xd8];

/** How many pixels of a canvas are near each colour, and how many colours it has. */
async function inks(page, selector, colours) {
  return page.locator(selector).evaluate((canvas, colours) => {
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    const counts = colours.map(() => 0);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4) {
      seen.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
      colours.forEach((c, k) => {
        if (Math.abs(data[i] - c[0]) + Math.abs(data[i + 1] - c[1]) + Math.abs(data[i + 2] - c[2]) < 40) counts[k]++;
      });
    }
    return { width, height, counts, distinct: seen.size };
  }, colours);
}

/** The step under the marker of a chart's overlay: the column of its white line. */
async function markerStep(page, figure) {
  return page.locator(figure).evaluate((fig) => {
    const canvas = fig.querySelector(".chart-canvas");
    const overlay = fig.querySelector(".chart-overlay");
    const { width, height } = overlay;
    const data = overlay.getContext("2d").getImageData(0, 0, width, height).data;
    const row = Math.floor(height * 0.2);
    const white = [];
    for (let x = 0; x < width; x++) {
      const i = 4 * (row * width + x);
      if (data[i + 3] > 120 && data[i] > 220 && data[i + 1] > 220 && data[i + 2] > 220) white.push(x);
    }
    if (!white.length) return null;
    const x = (white[0] + white[white.length - 1]) / 2;
    const [left, right, last] = ["left", "right", "last"].map((k) => Number(canvas.dataset[k]));
    return Math.round(((x - left) / (right - left)) * last);
  });
}

/** Clicks a chart where a step is (CSS pixels from the canvas's device pixels). */
async function clickStep(page, canvasSelector, step, { tap = false } = {}) {
  const point = await page.locator(canvasSelector).evaluate((canvas, step) => {
    const r = canvas.getBoundingClientRect();
    const [left, right, last] = ["left", "right", "last"].map((k) => Number(canvas.dataset[k]));
    const px = left + ((right - left) * step) / last;
    return { x: r.left + (px * r.width) / canvas.width, y: r.top + r.height / 2 };
  }, step);
  if (tap) await page.touchscreen.tap(point.x, point.y);
  else await page.mouse.click(point.x, point.y);
}

async function frameShown(page) {
  return Number(await page.locator("#scrub").inputValue());
}

export async function chartChecks({ dist, check = defaultCheck, docs = process.argv.includes("--docs") }) {
  const { url, context, page, problems, close } = await openSession(dist, "charts");
  try {
    await openPlayground(page, url);

    // Each check within its time limit: past it, the run fails at once, naming the check, with a
    // screenshot of the page shown (tests/e2e/screenshots/timeout-chromium.png).
    let shown = page;
    const limit = (what, ms, checks) => withinLimit(what, "chromium", ms, checks, (path) => shown.screenshot({ path }));
    let picker;

    // (ch1) A whole match; both charts drawn in the seats' colours, with their sentences.
    await limit("(ch1) both charts of a match", 240_000, async () => {
      await playMatch(page, { code: iceAndFireWalker(), opponent: "expander", relaxed: true });
      await page.locator("#last").click();
      await page.locator("#charts #chart-stat").waitFor();
      await page.waitForTimeout(300);
      const stat = await inks(page, "#chart-stat", [RED, BLUE]);
      const time = await inks(page, "#chart-time", [RED, BLUE]);
      check(stat.width > 200 && stat.height > 100, `(ch1) the chart is tiny: ${stat.width}×${stat.height}`);
      check(stat.counts.every((n) => n > 30) && stat.distinct > 8, `(ch1) the key-number chart lacks a seat's line: ${JSON.stringify(stat)}`);
      check(time.counts.every((n) => n > 5) && time.distinct > 8, `(ch1) the time chart lacks a seat's line: ${JSON.stringify(time)}`);
      picker = await page.locator(".chart-picker button").allInnerTexts();
      check(picker.join(",") === "gold,income,units,territory,military power" || picker.length >= 4, `(ch1) the picker offers ${picker.join(", ")}`);
      const goldText = await page.locator("#chart-stat-summary").innerText();
      check(/^gold at turn \d+: red \(your bot\) -?\d+/.test(goldText) && /blue \(expander\) -?\d+/.test(goldText), `(ch1) the gold sentence: '${goldText}'`);
      const timeText = await page.locator("#chart-time-summary").innerText();
      check(/^Time per turn: red \(your bot\) at most [\d.]+ ms \([\d.]+% of its \d+ ms budget, turn \d+\)/.test(timeText), `(ch1) the time sentence: '${timeText}'`);
      check((await page.locator("#chart-stat").getAttribute("aria-describedby")) === "chart-stat-summary", "(ch1) the chart is not described by its sentence");
      const before = await page.locator("#chart-stat").evaluate((c) => c.toDataURL());
      await page.locator(".chart-picker button", { hasText: "territory" }).click();
      await page.waitForTimeout(200);
      const territory = await page.locator("#chart-stat-summary").innerText();
      check(/^territory at turn/.test(territory), `(ch1) picking territory gave '${territory}'`);
      check((await page.locator("#chart-stat").evaluate((c) => c.toDataURL())) !== before, "(ch1) the chart did not change with the number picked");
      check((await page.locator(".chart-picker button[aria-pressed=true]").innerText()) === "territory", "(ch1) the picked button is not pressed");
      console.log(`ok (ch1) both charts drawn (${stat.width}×${stat.height}, ${stat.distinct} colours); "${goldText.slice(0, 90)}…"`);
    });

    // (ch2) A click on a chart shows that step.
    await limit("(ch2) a click on a chart", 30_000, async () => {
      const last = Number(await page.locator("#chart-stat").getAttribute("data-last"));
      const target = Math.round(last * 0.4);
      await clickStep(page, "#chart-stat", target);
      await page.waitForTimeout(200);
      check((await frameShown(page)) === target, `(ch2) clicking step ${target} shows frame ${await frameShown(page)}`);
      const label = await page.locator("#turn-label").innerText();
      check(label.startsWith(`turn ${target} /`), `(ch2) the turn label after the click: '${label}'`);
      check((await markerStep(page, "#chart-stat-figure")) === target && (await markerStep(page, "#chart-time-figure")) === target,
        `(ch2) the markers are at ${await markerStep(page, "#chart-stat-figure")} and ${await markerStep(page, "#chart-time-figure")}, not ${target}`);
      const second = Math.round(last * 0.75);
      await clickStep(page, "#chart-time", second);
      await page.waitForTimeout(200);
      check((await frameShown(page)) === second, `(ch2) clicking the time chart at ${second} shows frame ${await frameShown(page)}`);
      // The screenshot: the marker in the middle of the match.
      await mkdir(SHOTS, { recursive: true });
      await page.locator("#charts").scrollIntoViewIfNeeded();
      await page.locator("#charts").screenshot({ path: join(SHOTS, "charts.png") });
      if (docs) await copyFile(join(SHOTS, "charts.png"), join(REPO, "docs", "screenshots", "charts.png"));
      console.log(`ok (ch2) clicks at steps ${target} and ${second} of ${last} show them; the markers moved there`);
    });

    // (ch3) The marker follows playback.
    await limit("(ch3) the marker follows playback", 30_000, async () => {
      await page.locator("#first").click();
      await page.locator("#speed").selectOption({ label: "4×" });
      await page.locator("#play").click();
      await page.waitForTimeout(1_200);
      await page.locator("#play").click();
      await page.waitForTimeout(150);
      const playedTo = await frameShown(page);
      const marked = await markerStep(page, "#chart-stat-figure");
      check(playedTo > 3 && marked === playedTo, `(ch3) after playing, frame ${playedTo} is shown and the marker is at ${marked}`);
      check(Number(await page.locator("#chart-stat-figure").getAttribute("data-step")) === playedTo, "(ch3) the chart's step is not the frame shown");
      console.log(`ok (ch3) the marker followed playback to step ${playedTo}`);
    });

    // (ch5) The text view lists every chart's sentence.
    await limit("(ch5) the text view's sentences", 30_000, async () => {
      await page.locator("#text-view-toggle").click();
      const sentences = await page.locator("#text-charts li").allInnerTexts();
      check(sentences.length === picker.length + 1 && sentences.some((s) => s.startsWith("Time per turn")) && sentences.some((s) => s.startsWith("gold at turn")),
        `(ch5) the text view's chart sentences: ${JSON.stringify(sentences)}`);
      await page.locator("#text-view-toggle").click();
      console.log(`ok (ch5) the text view has ${sentences.length} chart sentences`);
    });

    // (ch4) A timeout and an elimination, in words and on the time axis.
    await limit("(ch4) a timeout on the time axis", 60_000, async () => {
      await setCode(page, LOOPING_BOT);
      await setRelaxed(page, false);
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout: 30_000 });
      await page.locator("#last").click();
      await page.waitForTimeout(300);
      check((await page.locator(".chart-picker button[aria-pressed=true]").innerText()) === "territory", "(ch4) the number picked was not kept for the next match");
      const faultText = await page.locator("#chart-time-summary").innerText();
      check(/red \(your bot\) at most \d+ ms \(\d+% of its 50 ms budget, turn \d+\), a timeout at turn \d+, out at turn \d+/.test(faultText), `(ch4) the time sentence: '${faultText}'`);
      const axis = await page.locator("#chart-time").evaluate((canvas, red) => {
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        // Red pixels in the lowest third of the chart: the triangle and cross on the axis.
        let n = 0;
        for (let y = Math.floor(canvas.height * 0.6); y < canvas.height; y++)
          for (let x = 0; x < canvas.width; x++) {
            const i = 4 * (y * canvas.width + x);
            if (Math.abs(data[i] - red[0]) + Math.abs(data[i + 1] - red[1]) + Math.abs(data[i + 2] - red[2]) < 40) n++;
          }
        return n;
      }, RED);
      check(axis > 20, `(ch4) no red mark on the time axis (${axis} red pixels low on the chart)`);
      await page.locator("#charts").screenshot({ path: join(SHOTS, "charts-fault.png") });
      console.log(`ok (ch4) "${faultText}"`);
    });

    // (ch7) A small arena: rating chart and win-rate matrix.
    await limit("(ch7) an arena's charts", 240_000, async () => {
      await runArena(page, ["random", "expander", "wait"]);
      await page.locator("#arena-progress").getByText(/done: 6 matches/).waitFor({ timeout: 180_000 });
      // Drawn at most once a second while the arena plays: the last drawing covers every match.
      await page
        .waitForFunction(() => document.querySelector("#arena-rating-chart")?.getAttribute("data-matches") === "6", null, { timeout: 5_000 })
        .catch(() => check(false, "(ch7) the rating chart does not cover the 6 matches within 5 s of the arena's end"));
      const rating = await inks(page, "#arena-rating-chart", [[0xe6, 0x9f, 0x00], [0x56, 0xb4, 0xe9], [0x00, 0x9e, 0x73]]);
      check(rating.counts.every((n) => n > 20), `(ch7) the rating chart lacks a bot's line: ${JSON.stringify(rating)}`);
      const ratingText = await page.locator("#arena-rating-summary").innerText();
      check(/^Ratings after 6 matches: \w+ [\d.-]+, \w+ [\d.-]+, \w+ [\d.-]+ \(every bot started at 25\.0\)\.$/.test(ratingText), `(ch7) the rating sentence: '${ratingText}'`);
      const cells = await page.locator("#arena-matrix tbody td").evaluateAll((tds) =>
        tds.map((td) => ({ text: td.innerText, bg: getComputedStyle(td).backgroundColor })),
      );
      check(cells.length === 9, `(ch7) the matrix has ${cells.length} cells, not 3 × 3`);
      const rates = cells.filter((c) => /%$/.test(c.text));
      check(rates.length === 6 && rates.every((c) => c.bg !== "rgba(0, 0, 0, 0)"), `(ch7) the matrix's rates are not all coloured: ${JSON.stringify(cells)}`);
      // Each pair's two cells add up to 100%, and the pairs table says the same.
      const matrix = await page.locator("#arena-matrix").evaluate((t) => {
        const cols = [...t.querySelectorAll("thead th")].map((th) => th.innerText);
        const out = {};
        for (const tr of t.querySelectorAll("tbody tr")) {
          const row = tr.querySelector("th").innerText;
          [...tr.querySelectorAll("td")].forEach((td, i) => (out[`${row}|${cols[i]}`] = td.innerText));
        }
        return out;
      });
      for (const row of await page.locator("#arena-pairs-table tbody tr").allInnerTexts()) {
        const [pair, , rate] = row.split("\t");
        const [a, b] = pair.split(" vs ");
        const there = matrix[`${a}|${b}`];
        const back = matrix[`${b}|${a}`];
        check(there === rate && parseInt(there) + parseInt(back) === 100, `(ch7) ${a} vs ${b}: the table says ${rate}, the matrix ${there} and ${back}`);
      }
      await page.locator("#arena .arena-charts").screenshot({ path: join(SHOTS, "arena-charts.png") });
      console.log(`ok (ch7) "${ratingText}"; matrix ${JSON.stringify(matrix)}`);
      check(problems.length === 0, `errors on the page:\n  ${problems.join("\n  ")}`);
      await page.close();
    });

    // (ch6) A phone: the charts fit and a tap moves the viewer.
    await limit("(ch6) a phone", 240_000, async () => {
      const phoneProfile = await mkdtemp(join(tmpdir(), "botplay-charts-phone-"));
      const phone = await launch(phoneProfile, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
      const mobile = await phone.newPage();
      shown = mobile;
      mobile.on("console", (m) => {
        if (m.type() === "error") problems.push(`phone console error: ${m.text()}`);
      });
      await openPlayground(mobile, url);
      await playMatch(mobile, { code: iceAndFireWalker(), opponent: "random", relaxed: true });
      await mobile.locator("#last").click();
      await mobile.locator("#charts").scrollIntoViewIfNeeded();
      await mobile.waitForTimeout(300);
      const box = await mobile.locator("#chart-stat").boundingBox();
      check(box && box.x >= 0 && box.x + box.width <= 390 && box.width > 300, `(ch6) the chart does not fit a 390 px screen: ${JSON.stringify(box)}`);
      const wide = await mobile.evaluate(() => document.documentElement.scrollWidth);
      check(wide <= 390, `(ch6) the page is ${wide} px wide on a 390 px screen`);
      const small = await inks(mobile, "#chart-stat", [RED, BLUE]);
      check(small.counts.every((n) => n > 20), `(ch6) the phone's chart lacks a line: ${JSON.stringify(small)}`);
      const phoneLast = Number(await mobile.locator("#chart-stat").getAttribute("data-last"));
      const tapped = Math.round(phoneLast / 3);
      await clickStep(mobile, "#chart-stat", tapped, { tap: true });
      await mobile.waitForTimeout(200);
      check((await frameShown(mobile)) === tapped, `(ch6) tapping step ${tapped} shows frame ${await frameShown(mobile)}`);
      await mobile.locator("#charts").screenshot({ path: join(SHOTS, "charts-phone.png") });
      check(problems.length === 0, `errors on the page:\n  ${problems.join("\n  ")}`);
      console.log(`ok (ch6) on a 390 px phone: the chart is ${box.width.toFixed(0)} px wide, a tap showed step ${tapped}`);
      await phone.close();
      await rm(phoneProfile, { recursive: true, force: true });
    });

    // (ch8) Every other game: its one-click match charts its own numbers, in the seats' colours.
    for (const game of ["soak-overflow", "micro-rts", "skyport", "crafting-quest"]) {
      await limit(`(ch8) ${game}`, 180_000, async () => {
        const gameProfile = await mkdtemp(join(tmpdir(), `botplay-charts-${game}-`));
        const fresh = await launch(gameProfile);
        try {
          const p = await fresh.newPage();
          shown = p;
          p.on("console", (m) => {
            if (m.type() === "error") problems.push(`${game} console error: ${m.text()}`);
          });
          await p.goto(url);
          await p.locator(`#landing .card[data-game="${game}"] .play-now`).click();
          await p.locator("#outcome .result").waitFor({ timeout: 120_000 });
          await p.locator("#last").click();
          await p.locator("#charts #chart-stat").waitFor();
          await p.waitForTimeout(300);
          const names = await p.locator(".chart-picker button").allInnerTexts();
          const sentence = await p.locator("#chart-stat-summary").innerText();
          check(names.length >= 3 && sentence.startsWith(`${names[0]} at turn`), `(ch8) ${game}: numbers ${names.join(", ")}; '${sentence}'`);
          // Both seats' colours, even where their numbers are the same all match long (microRTS's
          // gold, spent at once by both): each line is drawn thinner than the one before it.
          const drawn = await inks(p, "#chart-stat", [RED, BLUE]);
          check(drawn.counts.every((n) => n > 10), `(ch8) ${game}: the chart lacks a seat's colour: ${JSON.stringify(drawn)}`);
          if (game === "crafting-quest") await p.locator("#charts").screenshot({ path: join(SHOTS, `charts-${game}.png`) });
          console.log(`ok (ch8) ${game}: ${names.join(", ")}; "${sentence.slice(0, 80)}…"`);
        } finally {
          await fresh.close();
          await rm(gameProfile, { recursive: true, force: true });
        }
      });
    }
    check(problems.length === 0, `errors on the page:\n  ${problems.join("\n  ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, chartChecks, "tests/e2e/charts.mjs");
